"""Randomized ports written from the papers and the call contract of ``python -m reference list`` alone.

Each correct port draws its noise its own way (another sampler of the same law, other batching, another
order), so **replay refuses every one of them** and the output-only properties (law, privacy, invariants,
input contract) must accept them. Each comes with wrong variants, the slips a porter makes reading the
paper; the oracle should reject them by what they output. ``PORTS`` maps every function to its conform id;
the table of verdicts is in examples/README.md ("Randomized ports, second round").

- :func:`laplace_mechanism` (``core:laplace_mechanism``, Dwork-Roth Thm 3.6): value + Lap(scale) per
  coordinate, each Laplace variate drawn as the difference of two standard exponentials (``scale (E1 - E2)``),
  all of them in one ``standard_exponential((2,) + shape)`` call.
- :func:`gaussian_mechanism` (``core:gaussian_mechanism``): value + N(0, sigma^2 I), each normal drawn as
  ``(Z1 + Z2) / sqrt 2`` from two standard normals (the same law, twice the draws).
- :func:`report_noisy_min` (``core:report_noisy_min``): the argmin of the scores minus the noise. Laplace:
  the noise by the exponential difference above (symmetric, so ``scores + Z`` has the same law). Gumbel: no
  noise is drawn at all; argmin(s_i - Gumbel(scale)) is the softmax law P(i) ~ exp(-s_i / scale), sampled
  by one uniform and the inverse CDF.
- :func:`exponential_mechanism` (``core:exponential_mechanism``, McSherry-Talwar): P(i) ~ exp(eps s_i /
  (2 Delta)) (Delta instead of 2 Delta when monotone), sampled by the Gumbel-max trick with Gumbel variates
  ``-log(-log U)`` from ``rng.random``.
- :func:`cdpnsme` (``heavy_tailed:Algorithm 4``, Kamath-Liu-Zhang Appendix B.5, CDPNSME): line 4's integral
  E_N phi(u (1 + N)), N ~ N(0, c) (c a variance, docs/errata.md heavy_tailed-E02), in closed form from the
  truncated normal moments of u + |u| sqrt(c) Z when that spread is at most 2, by 64-point Gauss-Legendre
  over phi's cubic window [-sqrt 2, sqrt 2] (plus the two tail masses) otherwise; all n x d entries at once.
  Line 7's noise: ``"paper"`` sigma^2 = tau^2 d / (rho n^2) as printed, ``"certified"`` the reference's
  ``certified_sigma(nsme_sensitivity(n, d, tau, c), rho)``; normals as in :func:`gaussian_mechanism`.
- :func:`pgiga` (``online:Algorithm 3``, Jain-Kothari-Thakurta Section 3.4, PGIGA): warm-up points batched,
  the noise in one coordinate-major block; beta printed or the reference's certified pocp_noise_scale.
- :func:`private_frank_wolfe_general` (``erm_geometry:Algorithm 5``, Bassily-Smith-Thakurta Appendix B):
  all (T - 1) p normals up front; sigma printed or the reference's certified_gaussian_sigma.

The wrong variants (siblings at the bottom, each docstring names its slip) are conform targets as they stand.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import ndtr


# ---------------------------------------------------------------------------- input checks

def _nonneg(name, value, *, allow_inf=False):
    if not isinstance(value, (int, float, np.integer, np.floating)) or isinstance(value, bool):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    value = float(value)
    if math.isnan(value) or value < 0 or (math.isinf(value) and not allow_inf):
        raise ValueError(f"{name} must be a {'' if allow_inf else 'finite '}real >= 0, got {value!r}")
    return value


def _positive(name, value, *, allow_inf=False):
    value = _nonneg(name, value, allow_inf=allow_inf)
    if value == 0:
        raise ValueError(f"{name} must be > 0, got {value!r}")
    return value


def _finite_array(name, value, *, ndim=None):
    arr = np.asarray(value, dtype=float)
    if arr.size == 0 or not np.all(np.isfinite(arr)) or (ndim is not None and arr.ndim != ndim):
        raise ValueError(f"{name} must be a non-empty finite {'' if ndim is None else f'{ndim}-d '}array, "
                         f"got shape {arr.shape}")
    return arr


def _laplace(rng, scale, shape):
    """Lap(scale) variates as scale (E1 - E2), E1, E2 standard exponential, drawn in one call."""
    e = rng.standard_exponential((2,) + tuple(shape))
    return scale * (e[0] - e[1])


def _normal(rng, sigma, shape):
    """N(0, sigma^2) variates as sigma (Z1 + Z2) / sqrt 2 from 2 x as many standard normals."""
    z = rng.standard_normal((2,) + tuple(shape))
    return sigma * (z[0] + z[1]) / math.sqrt(2.0)


def _shape_like(value, arr):
    return float(arr) if np.ndim(value) == 0 else arr


# ---------------------------------------------------------------------------- core:laplace_mechanism

def laplace_mechanism(value, sensitivity, scale, rng, *, variant=""):
    """value + Lap(scale) on every coordinate (scale = sensitivity / epsilon gives epsilon-DP; the
    mechanism is handed the scale)."""
    v = _finite_array("value", value)
    _positive("sensitivity", sensitivity)
    scale = _nonneg("scale", scale)
    if variant == "noise-0.8":
        scale *= 0.8
    elif variant == "scale-times-sensitivity":
        scale *= sensitivity
    if variant == "gaussian-same-variance":               # WRONG law, the same variance 2 scale^2
        noise = _normal(rng, math.sqrt(2.0) * scale, v.shape)
    elif variant == "shared-noise":                       # WRONG: one draw added to every coordinate
        noise = np.full(v.shape, _laplace(rng, scale, ())[()])
    elif variant == "one-sided":                          # WRONG: |Lap|, the sign dropped (exponential noise)
        noise = scale * rng.standard_exponential(v.shape)
    else:
        noise = _laplace(rng, scale, v.shape)
    return _shape_like(value, v + noise)


# ---------------------------------------------------------------------------- core:gaussian_mechanism

def gaussian_mechanism(value, sensitivity, sigma, rng, *, variant=""):
    """value + N(0, sigma^2 I) (the mechanism is handed sigma)."""
    v = _finite_array("value", value)
    _positive("sensitivity", sensitivity)
    sigma = _nonneg("sigma", sigma)
    if variant == "noise-0.9":
        sigma *= 0.9
    elif variant == "sigma-as-variance":                  # WRONG: N(0, sigma) read as a variance
        sigma = math.sqrt(sigma)
    elif variant == "sigma-times-sensitivity":            # WRONG: sigma taken per unit of sensitivity
        sigma *= sensitivity
    if variant == "shared-noise":                         # WRONG: one draw added to every coordinate
        noise = np.full(v.shape, _normal(rng, sigma, ())[()])
    else:
        noise = _normal(rng, sigma, v.shape)
    return _shape_like(value, v + noise)


# ---------------------------------------------------------------------------- core:report_noisy_min

def report_noisy_min(scores, sensitivity, scale, rng, noise="laplace", *, variant=""):
    """argmin_i (s_i - Z_i), Z_i iid Laplace(scale) or Gumbel(scale) (scale = 2 sensitivity / epsilon)."""
    s = _finite_array("scores", scores, ndim=1)
    _positive("sensitivity", sensitivity)
    scale = _positive("scale", scale)                   # scale = 0 is refused, as the reference does
    if noise not in ("laplace", "gumbel"):
        raise ValueError(f"noise must be 'laplace' or 'gumbel', not {noise!r}")
    if variant == "noise-0.8":
        scale *= 0.8
    pick = np.argmax if variant == "argmax" else np.argmin      # WRONG for "argmax": the selection flipped
    if noise == "laplace":
        if variant == "exponential-noise":                # WRONG: one-sided Exp(scale) noise, not Laplace
            return int(pick(s - scale * rng.standard_exponential(s.size)))
        return int(pick(s + _laplace(rng, scale, s.shape)))    # symmetric noise: s + Z has the law of s - Z
    if variant == "gumbel-plus":                          # WRONG: s + G (Gumbel is not symmetric)
        g = -np.log(-np.log(rng.random(s.size)))
        return int(pick(s + scale * g))
    # argmin(s - scale G) = a draw from P(i) ~ exp(-s_i / scale): one uniform, the inverse CDF
    sign = 1.0 if variant == "argmax" else -1.0
    logits = sign * s / scale
    p = np.exp(logits - logits.max())
    cdf = np.cumsum(p)
    return int(min(np.searchsorted(cdf, rng.random() * cdf[-1], side="right"), s.size - 1))


# ---------------------------------------------------------------------------- core:exponential_mechanism

def exponential_mechanism(scores, sensitivity, epsilon, rng, monotone=False, *, variant=""):
    """i with probability ~ exp(epsilon s_i / (2 sensitivity)) (sensitivity instead of 2 sensitivity when
    the scores are monotone), by the Gumbel-max trick."""
    s = _finite_array("scores", scores, ndim=1)
    sensitivity = _positive("sensitivity", sensitivity)
    epsilon = _positive("epsilon", epsilon, allow_inf=True)
    factor = 1.0 if monotone else 2.0
    if variant == "no-factor-2":                          # WRONG: exp(eps s / Delta) whatever monotone says
        factor = 1.0
    elif variant == "monotone-ignored":                   # WRONG: always 2 Delta
        factor = 2.0
    elif variant == "epsilon-0.8":
        epsilon *= 0.8
    sign = -1.0 if variant == "sign-flipped" else 1.0     # WRONG for "sign-flipped": favours low scores
    if math.isinf(epsilon):
        best = np.flatnonzero(sign * s == np.max(sign * s))
        return int(best[rng.integers(best.size)]) if best.size > 1 else int(best[0])
    u = rng.random(s.size)
    gumbel = -np.log(-np.log(np.where(u == 0.0, np.finfo(float).tiny, u)))
    return int(np.argmax(sign * epsilon * s / (factor * sensitivity) + gumbel))


# ---------------------------------------------------------------------------- heavy_tailed:Algorithm 4

_ROOT2 = math.sqrt(2.0)
_CAP = 2.0 * _ROOT2 / 3.0
_GL_X, _GL_W = np.polynomial.legendre.leggauss(64)


def _phi(u):
    """B.5's phi: u - u^3/6 on [-sqrt 2, sqrt 2], +-2 sqrt 2 / 3 outside."""
    return np.where(np.abs(u) <= _ROOT2, u - u ** 3 / 6.0, np.sign(u) * _CAP)


def smoothed_phi(u, c):
    """E phi(u (1 + N)), N ~ N(0, c), elementwise: u (1 + N) ~ N(u, s^2) with s = |u| sqrt c."""
    u = np.asarray(u, dtype=float)
    a = u.ravel()
    s = np.abs(a) * math.sqrt(c)
    out = np.empty_like(a)
    tiny = s < 1e-12
    out[tiny] = _phi(a[tiny])
    small = ~tiny & (s <= 2.0)
    if np.any(small):                                  # closed form: truncated normal moments on the window
        A, S = a[small], s[small]
        al, be = (-_ROOT2 - A) / S, (_ROOT2 - A) / S
        pa, pb = np.exp(-0.5 * al * al) / math.sqrt(2 * math.pi), np.exp(-0.5 * be * be) / math.sqrt(2 * math.pi)
        M0 = ndtr(be) - ndtr(al)
        M1 = pa - pb
        M2 = M0 + al * pa - be * pb
        M3 = (al * al + 2.0) * pa - (be * be + 2.0) * pb
        first = A * M0 + S * M1
        third = A ** 3 * M0 + 3 * A * A * S * M1 + 3 * A * S * S * M2 + S ** 3 * M3
        out[small] = first - third / 6.0 + _CAP * (ndtr(-be) - ndtr(al))
    wide = ~tiny & (s > 2.0)
    if np.any(wide):                                   # quadrature over the window, where the density is flat
        A, S = a[wide, None], s[wide, None]
        v = _ROOT2 * _GL_X[None, :]
        dens = np.exp(-0.5 * ((v - A) / S) ** 2) / (S * math.sqrt(2 * math.pi))
        window = _ROOT2 * np.sum(_GL_W[None, :] * (v - v ** 3 / 6.0) * dens, axis=1)
        A, S = A[:, 0], S[:, 0]
        out[wide] = window + _CAP * (ndtr((A - _ROOT2) / S) - ndtr((-_ROOT2 - A) / S))
    return out.reshape(u.shape)


def cdpnsme(X, rho, tau, c, calibration, rng, *, variant=""):
    """CDPNSME's private estimate mu_hat + N(0, sigma^2 I_d) in R^d."""
    X = _finite_array("X", X, ndim=2)
    rho = _positive("rho", rho, allow_inf=True)
    tau = _positive("tau", tau)
    c = _positive("c", c)
    n, d = X.shape
    if variant == "c-as-std":                          # WRONG: N(0, c) read with c the standard deviation
        c = c * c
    if variant == "sampled-N":                         # WRONG: one draw of N instead of line 4's integral
        N = math.sqrt(c) * rng.standard_normal()
        mu_hat = tau / n * np.sum(_phi(X * (1.0 + N) / tau), axis=0)
    elif variant == "no-smoothing":                    # WRONG: phi(x / tau) itself, the integral dropped
        mu_hat = tau / n * np.sum(_phi(X / tau), axis=0)
    else:
        mu_hat = tau / n * np.sum(smoothed_phi(X / tau, c), axis=0)   # lines 3-6
    if math.isinf(rho):
        return mu_hat
    if calibration == "paper":
        sigma = tau * math.sqrt(d / rho) / n                          # line 7 as printed
    elif calibration == "certified":
        from reference.algorithms.heavy_tailed import certified_sigma, nsme_sensitivity

        if variant == "paper-sensitivity":             # WRONG: B.5's "|phi| <= 1" bound, sqrt(d) tau / n
            sens = math.sqrt(d) * tau / n
        else:
            sens = nsme_sensitivity(n, d, tau, c if variant != "c-as-std" else math.sqrt(c))
        sigma = certified_sigma(sens, rho)
    else:
        raise ValueError(f"calibration must be 'paper' or 'certified', not {calibration!r}")
    if variant == "noise-0.8":
        sigma *= 0.8
    return mu_hat + _normal(rng, sigma, (d,))


# ---------------------------------------------------------------------------- online:Algorithm 3 (PGIGA)

def _uniform_ball(rng, k, d, radius):
    """k uniform points of the l2 ball: normal directions, radius U^(1/d); all normals in one call, then all
    uniforms in one call (the reference alternates them point by point)."""
    z = rng.standard_normal((k, d))
    u = rng.random(k)
    return z / np.linalg.norm(z, axis=1, keepdims=True) * (radius * u ** (1.0 / d))[:, None]


def pgiga_beta(G, alpha, LG, T, epsilon, delta, calibration, *, rounds=None):
    """Line 8's beta: ``"paper"`` as printed (2G; c = ln((1/2) ln(2/delta)) / (2 ln T)); ``"certified"`` the
    reference's pocp_noise_scale for GIGA's sensitivity over the T - t_q noisy rounds."""
    if calibration == "paper":
        c = math.log(0.5 * math.log(2.0 / delta)) / (2.0 * math.log(T))
        if not c > 0:
            raise ValueError(f"line 8's c must be > 0 (delta < 2 e^-2), got delta = {delta}")
        P = T ** (0.5 + c)
        return 2.0 * G * P * math.sqrt(2.0 / epsilon * (math.log(T / delta) + math.sqrt(epsilon) / P))
    if calibration == "certified":
        from reference.algorithms.online import giga_sensitivity, giga_warmup, pocp_noise_scale

        if rounds is None:
            rounds = T - giga_warmup(LG, alpha)
        return pocp_noise_scale(giga_sensitivity(G, alpha), T, epsilon, delta, "certified", rounds=rounds)
    raise ValueError(f"calibration must be 'paper' or 'certified', not {calibration!r}")


def pgiga(g, a, c, radius, epsilon, delta, G, LG, alpha, x1, calibration, rng, *, variant=""):
    """PGIGA on f_t(x) = <g_t, x> + (a_t/2)||x - c_t||^2 over the l2 ball of ``radius``; the released
    xhat_1 .. xhat_T as a (T, d) array. Line 2: t_q = max(2, ceil(2 L_G^2 / alpha^2)) (online-E06); line 3:
    x_t = xhat_t uniform points of the ball for t <= t_q (all x1 when x1 is given); lines 4-9 for
    t = t_q .. T - 1: x_(t+1) = Pi(x_t - (2/(alpha t)) grad f_t(x_t)), xhat_(t+1) = Pi(x_(t+1) + b_(t+1)),
    b_(t+1) ~ N(0, beta^2/t^2 I). All T - t_q noise vectors in one coordinate-major standard_normal block."""
    g, c, a = _finite_array("g", g, ndim=2), _finite_array("c", c, ndim=2), _finite_array("a", a, ndim=1)
    T, d = g.shape
    if c.shape != (T, d) or a.shape != (T,):
        raise ValueError(f"g, a, c must be (T, d), (T,), (T, d); got {g.shape}, {a.shape}, {c.shape}")
    if T < 2:
        raise ValueError(f"PGIGA needs T >= 2 rounds, got T = {T}")
    radius, G, LG, alpha = (_positive(k, v) for k, v in (("radius", radius), ("G", G), ("LG", LG), ("alpha", alpha)))
    epsilon = _positive("epsilon", epsilon)
    if not (isinstance(delta, (int, float)) and 0 < delta < 1):
        raise ValueError(f"delta must be in (0, 1), got {delta!r}")
    if np.any(a <= 0):
        raise ValueError("every a_t must be > 0 (f_t strongly convex)")

    def project(z):
        n = np.linalg.norm(z)
        return z if n <= radius else z * (radius / n)

    t_q = max(2, math.ceil(2.0 * LG * LG / (alpha * alpha) - 1e-12))
    if variant == "no-warmup":                      # WRONG: line 3 skipped, GIGA from round 1
        t_q = 1
    t_q = min(t_q, T)
    if x1 is None:
        warm = _uniform_ball(rng, t_q, d, radius)
    else:
        x1 = _finite_array("x1", x1, ndim=1)
        if x1.shape != (d,) or np.linalg.norm(x1) > radius * (1 + 1e-12):
            raise ValueError(f"x1 must be a point of the radius-{radius} ball in R^{d}")
        warm = np.repeat(x1[None, :], t_q, axis=0)
    beta = pgiga_beta(G, alpha, LG, T, epsilon, delta, calibration,
                      rounds=T - 1 if variant == "rounds-T-1" else None)
    if variant == "noise-0.8":
        beta *= 0.8
    elif variant == "lemma5-sensitivity" and calibration == "certified":
        beta *= 0.5                                 # WRONG: Lemma 5's printed 2G/alpha, not case 1's 4G/alpha
    noise = rng.standard_normal((d, T - t_q)).T     # b_(t_q + 1) .. b_T
    out = np.empty((T, d))
    out[:t_q] = warm
    x = warm[-1].copy()
    for t in range(t_q, T):
        eta = (1.0 if variant == "step-1-over-alpha-t" else 2.0) / (alpha * (t + 1 if variant == "step-index-t-plus-1"
                                                                             else t))      # line 6
        x = project(x - eta * (g[t - 1] + a[t - 1] * (x - c[t - 1])))                 # line 7
        scale = beta / (t + 1 if variant == "noise-t-plus-1" else t)
        noisy = x + scale * noise[t - t_q]                                          # line 8
        out[t] = noisy if variant == "unprojected" else project(noisy)              # line 9
    return out


# ---------------------------------------------------------------------------- erm_geometry:Algorithm 5

def _lmo(v, geometry):
    """argmin over the unit ball of <v, theta>: -v/||v|| (l2); -sign(v_j) e_j at the first largest |v_j| (l1)."""
    if geometry == "l2":
        norm = np.linalg.norm(v)
        return -v / norm if norm > 0 else np.zeros_like(v)
    j = int(np.argmax(np.abs(v)))
    s = np.zeros_like(v)
    s[j] = -1.0 if v[j] >= 0 else 1.0
    return s


def private_frank_wolfe_general(X, y, epsilon, delta, T, geometry, calibration, rng, *, variant=""):
    """A_Noise-FW(Gen-convex) (Bassily-Smith-Thakurta, Appendix B, Algorithm 5) for the squared loss
    l(theta; x, y) = (1/2)(<x, theta> - y)^2 over the unit ``geometry`` ball ('l1' or 'l2'), with ||x_i||_2 <= 1
    and |y_i| <= 1 (checked, nothing is clipped), so L_2 = 2. theta_1 = the vertex the linear oracle picks
    for the all-ones direction (-e_1 on the l1 ball, -1/sqrt(p) on the l2 ball: the test vectors' reading of
    "arbitrary"); line 3 for t = 1 .. T - 1; mu = 1/(T + 2) (line 4 as printed); output theta_T.
    sigma: ``"paper"`` line 3 as printed, sigma^2 = 32 L_2 T log^2(n/delta)/(n eps)^2; ``"certified"`` the
    reference's certified_gaussian_sigma(2 L_2 / n, T - 1, eps, delta). All (T - 1) p normals drawn up front
    (coordinate-major, each the mean of two standard normals times sqrt 2)."""
    X = _finite_array("X", X, ndim=2)
    y = _finite_array("y", y, ndim=1)
    n, p = X.shape
    if y.shape != (n,):
        raise ValueError(f"y must have one entry per row of X: {y.shape} against {X.shape}")
    if np.any(np.linalg.norm(X, axis=1) > 1 + 1e-9) or np.any(np.abs(y) > 1 + 1e-9):
        raise ValueError("every ||x_i||_2 and |y_i| must be <= 1 (L_2 = 2); nothing is clipped")
    epsilon = _positive("epsilon", epsilon, allow_inf=True)
    if not (isinstance(delta, (int, float)) and 0 < delta < 1):
        raise ValueError(f"delta must be in (0, 1), got {delta!r}")
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 1:
        raise ValueError(f"T must be an integer >= 1, got {T!r}")
    if geometry not in ("l1", "l2"):
        raise ValueError(f"geometry must be 'l1' or 'l2', not {geometry!r}")
    L2 = 2.0
    if math.isinf(epsilon):
        sigma = 0.0
    elif calibration == "paper":
        sigma = math.sqrt(32.0 * L2 * T * math.log(n / delta) ** 2 / (n * epsilon) ** 2)
    elif calibration == "certified":
        from reference.privacy.accounting import certified_gaussian_sigma

        sens = (1.0 if variant == "sensitivity-L-over-n" else 2.0) * L2 / n
        sigma = certified_gaussian_sigma(sens, T if variant == "T-compositions" else T - 1, epsilon, delta)
    else:
        raise ValueError(f"calibration must be 'paper' or 'certified', not {calibration!r}")
    if variant == "noise-0.8":
        sigma *= 0.8
    theta = np.zeros(p) if variant == "theta1-origin" else _lmo(np.ones(p), geometry)   # line 1
    total = theta.copy()
    noise = _normal(rng, sigma, (p, max(T - 1, 0))).T if sigma > 0 else np.zeros((max(T - 1, 0), p))
    scale = 2.0 if variant == "unhalved-loss" else 1.0   # WRONG for "unhalved-loss": (<x, theta> - y)^2's gradient
    for t in range(1, T):
        grad = scale * (X.T @ (X @ theta - y)) / n
        s = _lmo(grad + noise[t - 1], geometry)                                        # line 3
        mu = 2.0 / (t + 2) if variant == "step-2/(t+2)" else 1.0 / (T + 2)             # line 4
        theta = (1.0 - mu) * theta + mu * s
        total += theta
    return total / T if variant == "average-iterates" else theta                       # line 5


# ---------------------------------------------------------------------------- the wrong variants

def _bind(function, variant, slip):
    def wrong(*args, **kwargs):
        return function(*args, **kwargs, variant=variant)
    wrong.__name__ = f"{function.__name__}_{variant.replace('-', '_').replace('.', '').replace('/', '_').replace('(', '').replace(')', '').replace('+', 'plus')}"
    wrong.__doc__ = f"{function.__name__} with variant={variant!r} (wrong on purpose): {slip}."
    return wrong


_VARIANTS = {
    (laplace_mechanism, "core:laplace_mechanism"): {
        "noise-0.8": "0.8 of the scale",
        "scale-times-sensitivity": "the scale taken per unit of sensitivity (Lap(sensitivity x scale))",
        "gaussian-same-variance": "Gaussian noise of the Laplace variance 2 scale^2",
        "shared-noise": "one Laplace draw added to every coordinate",
        "one-sided": "|Lap(scale)| (exponential noise), the sign dropped",
    },
    (gaussian_mechanism, "core:gaussian_mechanism"): {
        "noise-0.9": "0.9 of sigma",
        "sigma-as-variance": "N(0, sigma) read as a variance: standard deviation sqrt(sigma)",
        "sigma-times-sensitivity": "sigma taken per unit of sensitivity",
        "shared-noise": "one normal draw added to every coordinate",
    },
    (report_noisy_min, "core:report_noisy_min"): {
        "noise-0.8": "0.8 of the scale",
        "argmax": "the selection sign flipped (report-noisy-max of the scores)",
        "gumbel-plus": "argmin(s + G) with Gumbel noise (its asymmetry ignored)",
        "exponential-noise": "one-sided exponential noise for the Laplace selection",
    },
    (exponential_mechanism, "core:exponential_mechanism"): {
        "no-factor-2": "exp(eps s / Delta) for every score function (the 2 dropped)",
        "monotone-ignored": "exp(eps s / (2 Delta)) also for monotone scores",
        "epsilon-0.8": "0.8 of epsilon",
        "sign-flipped": "exp(-eps s / (2 Delta)): favours the low scores",
    },
    (pgiga, "online:Algorithm 3"): {
        "noise-0.8": "0.8 of beta",
        "step-1-over-alpha-t": "GIGA's usual step 1/(alpha t) instead of line 6's 2/(alpha t)",
        "step-index-t-plus-1": "line 6's step 2/(alpha (t + 1)): the round index off by one",
        "noise-t-plus-1": "b_(t+1) with standard deviation beta/(t + 1) (the index slipped)",
        "lemma5-sensitivity": "certified beta for Lemma 5's printed 2G/alpha (half the case-1 sensitivity 4G/alpha)",
        "rounds-T-1": "certified beta composed over T - 1 rounds instead of the T - t_q noisy ones (more noise)",
        "no-warmup": "line 3's warm-up skipped (t_q = 1: GIGA and noise from round 1)",
        "unprojected": "line 9 dropped: the noisy iterate released without projection",
    },
    (private_frank_wolfe_general, "erm_geometry:Algorithm 5"): {
        "noise-0.8": "0.8 of sigma",
        "sensitivity-L-over-n": "certified sigma for sensitivity L_2/n (the replace-one 2 dropped)",
        "T-compositions": "certified sigma composed over T steps instead of the T - 1 noisy ones (more noise)",
        "unhalved-loss": "the gradient of (<x, theta> - y)^2 (no 1/2) with L_2 = 2 kept",
        "step-2/(t+2)": "the decaying step 2/(t + 2) instead of line 4's 1/(T + 2)",
        "average-iterates": "the average of theta_1 .. theta_T released instead of theta_T",
        "theta1-origin": "theta_1 = 0, another 'arbitrary' start than the test vectors' (a reading, not a slip)",
    },
    (cdpnsme, "heavy_tailed:Algorithm 4"): {
        "noise-0.8": "0.8 of sigma",
        "paper-sensitivity": "certified sigma for B.5's printed sensitivity sqrt(d) tau / n (the replace-one 2 S(c) dropped)",
        "c-as-std": "N(0, c) read with c the standard deviation",
        "sampled-N": "one draw of N ~ N(0, c) in place of line 4's integral over N",
        "no-smoothing": "phi(x / tau) without the integral over N",
    },
}

PORTS: dict[str, str] = {}
for (_function, _id), _table in _VARIANTS.items():
    PORTS[_function.__name__] = _id
    for _variant, _slip in _table.items():
        _wrong = _bind(_function, _variant, _slip)
        globals()[_wrong.__name__] = _wrong
        PORTS[_wrong.__name__] = _id

CORRECT = ("laplace_mechanism", "gaussian_mechanism", "report_noisy_min", "exponential_mechanism", "pgiga", "cdpnsme",
           "private_frank_wolfe_general")
