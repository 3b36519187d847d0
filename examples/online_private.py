"""PIGD and PQFTL, written from the paper (not from the reference's code), drawing their noise their own way.

Jain, Kothari, Thakurta, "Differentially private online learning" (/work/shared/seeds/002_*):

- :func:`pigd` -- Algorithm 2 (PIGD) on family (Q) losses f_t(x) = <g_t, x> + (a_t/2)||x - c_t||^2 over the
  l2 ball of ``radius``; conform id ``online:Algorithm 2``. Line 7's implicit step has a closed form here:
  the objective (1/2)||x - x_t||^2 + eta f_t(x) is isotropic, (1 + eta a_t)/2 ||x - z||^2 + const with
  z = (x_t - eta g_t + eta a_t c_t) / (1 + eta a_t), so its minimiser over the ball is the projection of z.
  All T - 1 noise vectors are drawn in one ``rng.normal(size=(d, T - 1))`` call before the loop (the noise
  does not depend on the data; coordinate-major, so not in the reference's order), then scaled by beta / t. beta: ``"paper"`` line 8 as printed,
  beta = 2L T^(0.5+c) sqrt((2/eps)(ln(T/delta) + sqrt(eps)/T^(0.5+c))), c = ln((1/2) ln(2/delta)) / (2 ln T);
  ``"certified"`` the smallest beta the package's accountant certifies at Theorem 3's (3 eps, 2 delta) for
  the T - 1 releases, round t of sensitivity 2L/(alpha t) (Lemma 4 with its 1/alpha, online-E02) and noise
  beta/t: scaled by t, one Gaussian release of sensitivity sqrt(T - 1) 2L/alpha.
- :func:`pqftl` -- Algorithm 4 (PQFTL) on f_t(x) = (1/2)(y_t - <v_t, x>)^2 + (alpha/2)||x||^2 (eq. (19)),
  conform id ``online:Algorithm 4``: xhat_1 = 0 and xhat_(t+1) = (t alpha I + Vhat_t)^(-1) uhat_t, with Vhat_t
  and uhat_t the private prefix sums of v_s v_s^T and y_s v_s from two binary trees (Algorithm 5), built
  here by :mod:`examples.tree_prefix_sums` (all node noises drawn per level up front). sigma: ``"paper"``
  line 3 of Algorithm 5 with (R^2, eps/2, delta/2) for the V-tree and (R, eps/2, delta/2) for the u-tree as
  lines 7-8 print; ``"certified"`` one sigma for both trees, certified jointly at (eps, delta) for two
  Gaussian releases of sensitivity 2 R^2 sqrt(floor(log2 (T - 1)) + 1) (the trees hold T - 1 items; the
  u-tree's items y v have norm up to R^2).

The certified scales are asked of ``reference.privacy.accounting.certified_gaussian_sigma``, the one thing
imported from the reference (what it certifies is the definition of "certified").

- :func:`pol` -- Algorithm 6 (POL), conform id ``online:Algorithm 6``; its wrong variants start the running
  sum at 0 instead of x_1, or step with eta_t = 1/(alpha (t + 1)).
- :func:`pocp` -- Algorithm 1 (POCP) with IGD as its OCP algorithm and lambda_A given, conform id
  ``online:Algorithm 1``; its wrong variants step with eta_t = 1/(alpha (t + 1)) or draw 0.8 x the noise.

``variant=`` and the sibling functions at the bottom are the wrong implementations the oracle must reject:
PIGD ``"step-off-by-one"`` (eta_t = 1/(alpha (t + 1))), PQFTL ``"prefix-late"`` (round t reads the trees'
prefix t - 1), ``"shared-level"`` (tree noise shared within a level), both ``"noise-0.8"``, ``"noiseless"``,
``"sensitivity-half"``. PQFTL ``"inner-log2"`` is no slip but a reading: the printed sigma's inner log in base 2
(online-E08), which conform accepts when declared (``--reading tree_inner_log=log2``).
"""

from __future__ import annotations

import math

import numpy as np

from examples.cdpcwme import box_muller
from examples.tree_prefix_sums import levels, line3_sigma, tree_noise


def _finite(name, value, *, positive=True):
    if not (isinstance(value, (int, float)) and math.isfinite(value) and (value > 0 or not positive)):
        raise ValueError(f"{name} must be a finite real{' > 0' if positive else ''}, got {value!r}")
    return float(value)

def _project_ball(z, radius):
    """Euclidean projection onto the centred ball of this radius."""
    n = float(np.linalg.norm(z))
    return z if n <= radius else z * (radius / n)


def _start(x1, d, radius, rng):
    """Line 3 of PIGD and POCP: ``x1`` when given, else a uniform point of the ball (a normal direction, then
    radius U^(1/d))."""
    if x1 is not None:
        return _array("x1", x1, 1)
    direction = rng.normal(size=d)
    return direction / np.linalg.norm(direction) * radius * rng.uniform() ** (1.0 / d)



def _privacy(epsilon, delta):
    _finite("epsilon", epsilon)
    if not (isinstance(delta, (int, float)) and 0 < delta < 1):
        raise ValueError(f"delta must be in (0, 1), got {delta!r}")


def _array(name, value, ndim):
    arr = np.asarray(value, dtype=float)
    if arr.ndim != ndim or not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be a finite {ndim}-d array, got shape {arr.shape}")
    return arr


# ---------------------------------------------------------------------------- PIGD (Algorithm 2)

def pocp_beta(lam_printed, lam, T, epsilon, delta, calibration) -> float:
    """Algorithm 1 line 7's beta: ``"paper"`` lam T^(0.5+c) sqrt((2/eps)(ln(T/delta) + sqrt(eps)/T^(0.5+c))) with
    the printed lambda; ``"certified"`` the accountant's smallest beta for the T - 1 releases of sensitivity
    lam/t and noise beta/t (scaled by t: one Gaussian release of sensitivity sqrt(T - 1) lam) at Theorem 1's
    (3 eps, 2 delta)."""
    if calibration == "paper":
        c = math.log(0.5 * math.log(2.0 / delta)) / (2.0 * math.log(T))
        if not c > 0:
            raise ValueError(f"line 8's c must be > 0 (delta < 2 e^-2), got delta = {delta}")
        P = T ** (0.5 + c)
        return lam_printed * P * math.sqrt(2.0 / epsilon * (math.log(T / delta) + math.sqrt(epsilon) / P))
    if calibration == "certified":
        from reference.privacy.accounting import certified_gaussian_sigma

        return certified_gaussian_sigma(math.sqrt(T - 1) * lam, 1, 3.0 * epsilon, 2.0 * delta)
    raise ValueError(f"calibration must be 'paper' or 'certified', not {calibration!r}")


def pigd_beta(L, alpha, T, epsilon, delta, calibration) -> float:
    """PIGD line 8: the printed lambda is 2L, the certified one Lemma 4's 2L/alpha (online-E02)."""
    return pocp_beta(2.0 * L, 2.0 * L / alpha, T, epsilon, delta, calibration)


def pigd(g, a, c, radius, epsilon, delta, L, alpha, x1, calibration, rng, *, variant="") -> np.ndarray:
    """The released decisions xhat_1 .. xhat_T, a (T, d) array."""
    g, c, a = _array("g", g, 2), _array("c", c, 2), _array("a", a, 1)
    T, d = g.shape
    _privacy(epsilon, delta)
    radius, L, alpha = _finite("radius", radius), _finite("L", L), _finite("alpha", alpha)
    if T < 2:
        raise ValueError("PIGD needs T >= 2")
    if np.any(a < alpha * (1 - 1e-12)):
        raise ValueError(f"every f_t must be alpha = {alpha}-strongly convex (a_t >= alpha)")
    lipschitz = np.linalg.norm(g, axis=1) + a * (np.linalg.norm(c, axis=1) + radius)
    if np.any(lipschitz > L * (1 + 1e-9)):
        raise ValueError(f"every f_t must be L = {L}-Lipschitz on the ball; bound {lipschitz.max():.6g}")

    def project(z):
        return _project_ball(z, radius)

    x = _start(x1, d, radius, rng)                   # line 3: x1, or a uniform point of the ball
    beta = pigd_beta(L / 2 if variant == "sensitivity-half" else L, alpha, T, epsilon, delta, calibration)
    beta = {"noise-0.8": 0.8 * beta, "noiseless": 0.0}.get(variant, beta)
    # b_2 .. b_T before any data is read, drawn coordinate by coordinate (a (d, T - 1) block, transposed): the
    # reference draws round by round, so the same stream lands on other rounds (replay refuses, the law agrees)
    noise = rng.normal(size=(d, T - 1)).T
    out = np.empty((T, d))
    out[0] = x
    for t in range(1, T):
        eta = 1.0 / (alpha * (t + 1 if variant == "step-off-by-one" else t))     # line 6
        x = project((x - eta * g[t - 1] + eta * a[t - 1] * c[t - 1]) / (1.0 + eta * a[t - 1]))   # line 7
        out[t] = project(x + (beta / t) * noise[t - 1])                          # lines 8-9
    return out


# ---------------------------------------------------------------------------- POCP (Algorithm 1) with A = IGD

def pocp(g, a, c, radius, alpha, lam, epsilon, delta, x1, calibration, rng, *, variant="") -> np.ndarray:
    """Algorithm 1 (POCP) with IGD (eq. (13), eta_t = 1/(alpha t)) as the OCP algorithm A, lambda_A = ``lam``
    given (public; Assumption (1)): the released xhat_1 .. xhat_T, a (T, d) array. Line 3's x_1 uniform on the
    ball when ``x1`` is None (normal direction, then radius U^(1/d)). Line 7's noise N(0, beta^2/t^2 I), beta of
    :func:`pocp_beta` with lambda = ``lam`` in both calibrations. The noise vectors are drawn all at once,
    coordinate-major (not the reference's order). ``variant="step-off-by-one"``: eta_t = 1/(alpha (t + 1))."""
    g, c, a = _array("g", g, 2), _array("c", c, 2), _array("a", a, 1)
    T, d = g.shape
    _privacy(epsilon, delta)
    radius, alpha, lam = _finite("radius", radius), _finite("alpha", alpha), _finite("lam", lam)
    if T < 2:
        raise ValueError("POCP needs T >= 2")

    def project(z):
        return _project_ball(z, radius)

    x = _start(x1, d, radius, rng)                   # line 3: x1, or a uniform point of the ball
    beta = pocp_beta(lam, lam, T, epsilon, delta, calibration)
    beta = {"noise-0.8": 0.8 * beta}.get(variant, beta)
    noise = rng.normal(size=(d, T - 1)).T
    out = np.empty((T, d))
    out[0] = x
    for t in range(1, T):
        eta = 1.0 / (alpha * (t + 1 if variant == "step-off-by-one" else t))     # A: IGD's step
        x = project((x - eta * g[t - 1] + eta * a[t - 1] * c[t - 1]) / (1.0 + eta * a[t - 1]))   # line 6
        out[t] = project(x + (beta / t) * noise[t - 1])                          # lines 7-8
    return out


# ---------------------------------------------------------------------------- PQFTL (Algorithm 4)

def pqftl(V, y, epsilon, delta, R, alpha, calibration, rng, *, variant="") -> np.ndarray:
    """The decisions xhat_1 .. xhat_T, a (T, d) array."""
    V, y = _array("V", V, 2), _array("y", y, 1)
    T, d = V.shape
    _privacy(epsilon, delta)
    R, alpha = _finite("R", R), _finite("alpha", alpha)
    if T < 2 or y.shape != (T,):
        raise ValueError(f"need T >= 2 rows of V and as many entries of y; got {V.shape}, {y.shape}")
    if np.any(np.linalg.norm(V, axis=1) > R * (1 + 1e-12)) or np.any(np.abs(y) > R * (1 + 1e-12)):
        raise ValueError(f"every ||v_t|| and |y_t| must be <= R = {R}; nothing is clipped")
    tree = variant if variant in ("shared-level",) else ""
    if calibration == "paper":
        sig_V = line3_sigma(R * R, T, epsilon / 2, delta / 2, "paper", variant)
        sig_u = line3_sigma(R, T, epsilon / 2, delta / 2, "paper", variant)
    elif calibration == "certified":
        from reference.privacy.accounting import certified_gaussian_sigma

        # the trees hold the T - 1 items of rounds 1 .. T - 1: one lies in floor(log2 (T - 1)) + 1 nodes (online-E08)
        sig_V = sig_u = certified_gaussian_sigma(2.0 * R * R * math.sqrt(levels(T - 1)), 2, epsilon, delta)
    else:
        raise ValueError(f"calibration must be 'paper' or 'certified', not {calibration!r}")
    scale = {"noise-0.8": 0.8, "noiseless": 0.0, "sensitivity-half": 0.5}.get(variant, 1.0)
    # the trees over T leaves; items 1 .. T - 1 are inserted (line 5: t = 1 .. T - 1)
    n = T - 1
    V_hat = np.cumsum(V[:n, :, None] * V[:n, None, :], axis=0) + tree_noise(T, (d, d), scale * sig_V, rng, tree)[:n]
    u_hat = np.cumsum(y[:n, None] * V[:n], axis=0) + tree_noise(T, (d,), scale * sig_u, rng, tree)[:n]
    out = np.zeros((T, d))                           # line 3: xhat_1 = 0
    for t in range(1, T):
        k = t - 1 if variant == "prefix-late" else t        # WRONG for "prefix-late": the previous prefix
        if k == 0:
            out[t] = 0.0
            continue
        out[t] = np.linalg.solve(t * alpha * np.eye(d) + V_hat[k - 1], u_hat[k - 1])    # line 9
    return out


# ---------------------------------------------------------------------------- POL (Algorithm 6)

def pol(g, a, c, radius, epsilon_p, delta, epsilon_g, L, x_star_bound, x1, calibration, rng, *, variant=""):
    """Algorithm 6 (POL) on the data as family (Q) losses l(.; z_t) over the l2 ball of ``radius``: IGD on
    l(.; z_t) + (alpha/2)||x||^2, alpha = eps_g / B^2, over z_1..z_(T-1) from x_1 (line 9's implicit step in
    closed form: the regularised loss is again in family (Q), with a_t + alpha and a_t c_t / (a_t + alpha));
    the average of x_1..x_T (lines 6-12, the running sum s = x_1 first) plus one N(0, beta^2 I) draw,
    projected (lines 13-14). beta: ``"paper"`` 2 sqrt2 (L + alpha B) ln T / (T eps) sqrt(ln(1/delta) + eps)
    (line 13 as printed); ``"certified"`` the accountant's sigma for the average's sensitivity
    2 L (H_T - 1) / (alpha T) (online-E05). Returns xhat (d,). ``variant="sum-from-0"``: the running sum
    starts at 0 instead of x_1 (wrong on purpose); ``"step-off-by-one"``: line 8's eta_t = 1/(alpha (t + 1))."""
    g, c, a = _array("g", g, 2), _array("c", c, 2), _array("a", a, 1)
    T, d = g.shape
    _privacy(epsilon_p, delta)
    radius, L, B, eps_g = (_finite(k, v) for k, v in (("radius", radius), ("L", L), ("x_star_bound", x_star_bound),
                                                      ("epsilon_g", epsilon_g)))
    if T < 2:
        raise ValueError("POL needs T >= 2 data points")
    lipschitz = np.linalg.norm(g, axis=1) + a * (np.linalg.norm(c, axis=1) + radius)
    if np.any(lipschitz > L * (1 + 1e-9)):
        raise ValueError(f"every loss must be L = {L}-Lipschitz on the ball; bound {lipschitz.max():.6g}")

    def project(z):
        n = float(np.linalg.norm(z))
        return z if n <= radius else z * (radius / n)

    if x1 is None:
        direction = box_muller(rng, d)
        x = direction / np.linalg.norm(direction) * radius * rng.uniform() ** (1.0 / d)
    else:
        x = _array("x1", x1, 1)
    alpha = eps_g / (B * B)
    a2 = a + alpha
    c2 = (a[:, None] * c) / a2[:, None]
    total = np.zeros(d) if variant == "sum-from-0" else x.copy()
    for t in range(1, T):
        eta = 1.0 / (alpha * (t + 1 if variant == "step-off-by-one" else t))     # line 8
        x = project((x - eta * g[t - 1] + eta * a2[t - 1] * c2[t - 1]) / (1.0 + eta * a2[t - 1]))
        total = total + x
    if calibration == "paper":
        beta = (2.0 * math.sqrt(2.0) * (L + alpha * B) * math.log(T) / (T * epsilon_p)
                * math.sqrt(math.log(1.0 / delta) + epsilon_p))
    elif calibration == "certified":
        from reference.privacy.accounting import certified_gaussian_sigma

        H = math.fsum(1.0 / k for k in range(2, T + 1))
        beta = certified_gaussian_sigma(2.0 * L * H / (alpha * T), 1, epsilon_p, delta)
    else:
        raise ValueError(f"calibration must be 'paper' or 'certified', not {calibration!r}")
    return project(total / T + beta * box_muller(rng, d))     # line 13's noise by Box-Muller (another sampler)


# ---- the wrong variants, as conform targets (examples.online_private:<name>)

def _bind(function, variant):
    def wrong(*args, **kwargs):
        return function(*args, **kwargs, variant=variant)
    wrong.__name__ = f"{function.__name__}_{variant.replace('-', '_').replace('.', '')}"
    wrong.__doc__ = f"{function.__name__} with variant={variant!r} (wrong on purpose)."
    return wrong


pigd_step_off_by_one = _bind(pigd, "step-off-by-one")
pigd_noise_08 = _bind(pigd, "noise-0.8")
pigd_noiseless = _bind(pigd, "noiseless")
pigd_sensitivity_half = _bind(pigd, "sensitivity-half")
pqftl_prefix_late = _bind(pqftl, "prefix-late")
pqftl_shared_level = _bind(pqftl, "shared-level")
pqftl_noise_08 = _bind(pqftl, "noise-0.8")
pqftl_noiseless = _bind(pqftl, "noiseless")
pqftl_sensitivity_half = _bind(pqftl, "sensitivity-half")
# not wrong: the printed sigma's inner log read in base 2 (online-E08), conforming under --reading tree_inner_log=log2
pqftl_inner_log2 = _bind(pqftl, "inner-log2")
pqftl_inner_log2.__doc__ = ("pqftl with both trees' printed sigma read with log2 as the outer log of log(log T / "
                            "delta): a reading (docs/errata.md online-E08), declared by --reading tree_inner_log=log2.")
pol_sum_from_0 = _bind(pol, "sum-from-0")
pol_step_off_by_one = _bind(pol, "step-off-by-one")
pocp_step_off_by_one = _bind(pocp, "step-off-by-one")
pocp_noise_08 = _bind(pocp, "noise-0.8")
