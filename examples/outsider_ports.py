"""Outsider ports (issue 31): ten ids ported from the published contract alone.

Written without reading reference/, tests/ or examples/ (other ports): the sources were
``python -m reference list`` (and ``--json``), docs/conformance.md, docs/vectors.md, README.md,
the five papers in /work/shared/seeds/ and vector files generated with
``python -m reference vectors``.  Every fact the contract did not state, and where it was
finally found, is in the look-up list of docs/conformance.md, "Outsider ports (issue 31)".

Each port takes the keywords ``python -m reference list`` says conform passes, plus ``rng``, and
draws its noise its own way (another order, another sampler, another sign), so none is meant to
replay the reference's draws; ``conform``'s law, privacy and invariant checks judge them.

| function                | id                          | own way of drawing the noise                          |
|-------------------------|-----------------------------|-------------------------------------------------------|
| ``prefix_sums``         | core:private_prefix_sums    | all node noises at once, level by level               |
| ``cdpcwme``             | heavy_tailed:CDPCWME        | ``normal(0, sigma)`` with a flipped sign              |
| ``private_fw_general``  | erm_geometry:Algorithm 5    | T-1 noise vectors up front, ``normal``, subtracted   |
| ``private_lasso``       | lasso:Algorithm 2           | Laplace as a difference of exponentials, argmin form; |
|                         |                             | the exponential mechanism by the Gumbel-max trick     |
| ``pocp_igd``            | online:Algorithm 1 (POCP)   | noise drawn up front, negated                         |
| ``pqftl``               | online:Algorithm 4 (PQFTL)  | u-tree's node noise before the V-tree's; ``normal``   |
| ``saddle_matrix_game``  | saddle_point:Algorithm 1    | ``rng.choice`` with p (not inverse CDF), y before x   |
| ``cdpnsme``             | heavy_tailed:Algorithm 4    | ``normal`` draw, coordinates reversed                 |
| ``private_fw_l1``       | erm_geometry:Algorithm 4    | argmin(score - z) with z reversed; Gumbel-max from    |
|                         |                             | exponentials for the exponential mechanism            |
| ``pol``                 | online:Algorithm 6 (POL)    | ``normal`` draw, subtracted                           |

``pqftl_inner_log2`` is PQFTL reading the inner log of the printed sigma in base 2 (online-E08): it exits 1
by default and 0 with ``--reading tree_inner_log=log2``.

Where the package certifies a noise by its accountant, a port computes it itself where the
contract gives enough to do so (a composition of Gaussian mechanisms: ``_gaussian_sigma``, the
exact (Balle-Wang) calibration of one Gaussian of composed mu), and otherwise calls the
reference function the contract names for "a port without an accountant" (lasso's and ERM
Algorithm 4's certified Laplace/Gumbel scale, POCP's certified beta, saddle_point's certified step).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import brentq
from scipy.stats import norm

# --------------------------------------------------------------------------------------------
# shared input checks (the validation property: a ValueError naming the parameter)
# --------------------------------------------------------------------------------------------


def _positive(name, value, allow_inf=True):
    v = float(value)
    if not (v > 0) or (math.isinf(v) and not allow_inf):
        raise ValueError(f"{name} must be > 0, got {value!r}")
    return v


def _nonneg(name, value):
    v = float(value)
    if not (v >= 0) or math.isnan(v):
        raise ValueError(f"{name} must be >= 0, got {value!r}")
    return v


def _delta(value):
    v = float(value)
    if not (0 < v < 1):
        raise ValueError(f"delta must be in (0, 1), got {value!r}")
    return v


def _finite_array(name, value):
    arr = np.asarray(value, dtype=float)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite (no NaN or inf)")
    return arr


# --------------------------------------------------------------------------------------------
# a Gaussian calibration of my own: exact (epsilon, delta) of a mu-GDP mechanism (Balle-Wang 2018)
# --------------------------------------------------------------------------------------------


def _gdp_delta(mu, epsilon):
    return norm.cdf(mu / 2 - epsilon / mu) - math.exp(epsilon) * norm.cdf(-mu / 2 - epsilon / mu)


def _max_mu(epsilon, delta):
    """The largest mu whose mu-GDP mechanism is (epsilon, delta)-DP."""
    lo, hi = 1e-8, 1.0
    while _gdp_delta(hi, epsilon) < delta:
        hi *= 2
    return brentq(lambda m: _gdp_delta(m, epsilon) - delta, lo, hi, xtol=1e-14, rtol=1e-15)


def _gaussian_sigma(sensitivity, releases, epsilon, delta):
    """Smallest sigma such that `releases` adaptive Gaussian releases, each of l2 sensitivity
    `sensitivity` and noise N(0, sigma^2 I), are (epsilon, delta)-DP together: their composition is
    sqrt(releases) * sensitivity / sigma -GDP."""
    if math.isinf(epsilon):
        return 0.0
    return math.sqrt(releases) * sensitivity / _max_mu(epsilon, delta)


# --------------------------------------------------------------------------------------------
# core:private_prefix_sums
# --------------------------------------------------------------------------------------------


def prefix_sums(xs, sigma, sensitivity, rng, norm_bound=None):
    """Binary-tree private prefix sums (Dwork-Naor-Pitassi-Rothblum; Chan-Shi-Song).

    Node (h, j) holds items j 2^h .. (j + 1) 2^h - 1 (0-based) plus its own N(0, sigma^2) noise,
    drawn once; W_t sums the nodes of the 1-bits of t, highest first.  Own draws: every node of a
    level in one ``normal`` call, levels bottom-up (the reference draws item by item)."""
    sigma = _nonneg("sigma", sigma)
    _nonneg("sensitivity", sensitivity)
    items = _finite_array("xs", xs)
    T = items.shape[0]
    shape = items.shape[1:]
    if norm_bound is not None:
        bound = _nonneg("norm_bound", norm_bound)
        norms = np.sqrt(np.sum(items.reshape(T, -1) ** 2, axis=1))
        if np.any(norms > bound):
            raise ValueError(f"an item of xs has norm {norms.max():.4g} > norm_bound {bound}")
    noisy = {}
    h = 0
    while 2**h <= T:
        count = T // 2**h  # complete nodes of level h
        noise = rng.normal(0.0, 1.0, size=(count,) + shape) * sigma
        for j in range(count):
            noisy[(h, j)] = items[j * 2**h:(j + 1) * 2**h].sum(axis=0) + noise[j]
        h += 1
    out = np.zeros((T,) + shape)
    for t in range(1, T + 1):
        start = 0
        for h in range(t.bit_length() - 1, -1, -1):
            if t >> h & 1:
                out[t - 1] += noisy[(h, start // 2**h)]
                start += 2**h
    return out


# --------------------------------------------------------------------------------------------
# heavy_tailed:CDPCWME (Theorem 4.1, Algorithm 3 plus one Gaussian)
# --------------------------------------------------------------------------------------------


def _algorithm3(X, tau, beta):
    n, d = X.shape
    # Line 2: m <- 4 log(2d/beta)  (natural log, rounded up: from the case names m13, m14)
    m = math.ceil(4 * math.log(2 * d / beta))
    if m > n:
        raise ValueError(f"beta too small: m = {m} buckets for n = {n} records")
    b = n // m  # bucket size; the last n - m b records are unused (looked up: vectors)
    # Line 3: I = [-3 tau, 3 tau]; lines 5-7: clipped bucket means; line 9: median
    Z = np.clip(X[: m * b], -3 * tau, 3 * tau).reshape(m, b, d)
    return np.median(Z.mean(axis=1), axis=0), m, b


def cdpcwme(X, rho, tau, beta, calibration, rng):
    """rho-CDP coordinate-wise median-of-means estimator: Algorithm 3 plus N(0, sigma^2 I)."""
    X = _finite_array("X", X)
    rho = _positive("rho", rho)
    tau = _positive("tau", tau, allow_inf=False)
    if not (0 < float(beta) < 1):
        raise ValueError(f"beta must be in (0, 1), got {beta!r}")
    n, d = X.shape
    mu_hat, m, b = _algorithm3(X, tau, beta)
    if calibration == "paper":
        # Theorem 4.1 as printed: sigma^2 = 1152 tau^2 d log^2(2d/beta) / (rho n^2)
        sigma = math.sqrt(1152 * tau**2 * d * math.log(2 * d / beta) ** 2 / (rho * n**2))
    elif calibration == "certified":
        # replace-one moves one bucket mean by <= 6 tau / b per coordinate, so the median too; for
        # an even m the median is the mean of the two middle order statistics, whose sum moves by
        # at most 6 tau / b (they interlace): half that.  l2 sensitivity over d coordinates, and
        # the rho-zCDP Gaussian sigma = Delta / sqrt(2 rho).  (The halving was looked up: the
        # contract names cwme_sensitivity(n, d, tau, m) without its formula.)
        per_coord = 6 * tau / b / (2 if m % 2 == 0 else 1)
        sens = per_coord * math.sqrt(d)
        sigma = sens / math.sqrt(2 * rho)
    else:
        raise ValueError(f"calibration must be 'paper' or 'certified', got {calibration!r}")
    return mu_hat - sigma * rng.normal(0.0, 1.0, size=d)


# --------------------------------------------------------------------------------------------
# erm_geometry:Algorithm 5 (A_Noise-FW(Gen-convex), Appendix B)
# --------------------------------------------------------------------------------------------


def _lmo(v, geometry):
    if geometry == "l1":
        i = int(np.argmax(np.abs(v)))
        s = np.zeros_like(v)
        s[i] = -1.0 if v[i] > 0 else 1.0
        return s
    if geometry == "l2":
        nv = np.linalg.norm(v)
        return -v / nv if nv > 0 else np.zeros_like(v)
    raise ValueError(f"geometry must be 'l1' or 'l2', got {geometry!r}")


def private_fw_general(X, y, epsilon, delta, T, geometry, calibration, rng):
    """Private Frank-Wolfe over the unit l1 or l2 ball on eq. (22)'s squared loss."""
    X = _finite_array("X", X)
    y = _finite_array("y", y)
    epsilon = _positive("epsilon", epsilon)
    delta = _delta(delta)
    T = int(T)
    if T < 2:
        raise ValueError("T must be >= 2")
    n, p = X.shape
    L2 = 2.0
    if calibration == "paper":
        sigma = math.sqrt(32 * L2 * T * math.log(n / delta) ** 2) / (n * epsilon)
    elif calibration == "certified":
        sigma = _gaussian_sigma(2 * L2 / n, T - 1, epsilon, delta)
    else:
        raise ValueError(f"calibration must be 'paper' or 'certified', got {calibration!r}")
    mu = 1.0 / (T + 2)
    # Line 1: theta_1 = LMO(1, ..., 1)
    theta = _lmo(np.ones(p), geometry)
    noise = rng.normal(0.0, sigma, size=(T - 1, p)) if sigma > 0 else np.zeros((T - 1, p))
    for t in range(T - 1):
        grad = X.T @ (X @ theta - y) / n  # eq. (22): (1/n) sum (1/2)(<x, theta> - y)^2
        s = _lmo(grad - noise[t], geometry)  # own way: the noise subtracted (a symmetric law)
        theta = (1 - mu) * theta + mu * s
    return theta


# --------------------------------------------------------------------------------------------
# lasso:Algorithm 2 (private Frank-Wolfe on the l1 ball of radius c)
# --------------------------------------------------------------------------------------------


def private_lasso(X, y, epsilon, delta, radius, T, calibration, selection, rng):
    """A_Noise-FW(polytope) for the LASSO, eq. (2): L(theta) = (1/n) ||X theta - y||^2."""
    X = _finite_array("X", X)
    y = _finite_array("y", y)
    epsilon = _positive("epsilon", epsilon)
    delta = _delta(delta)
    c = _positive("radius", radius, allow_inf=False)
    T = int(T)
    if T < 1:
        raise ValueError("T must be >= 1")
    n, p = X.shape
    if selection not in ("laplace", "gumbel", "exponential"):
        raise ValueError(f"selection must be laplace, gumbel or exponential, got {selection!r}")
    if math.isinf(epsilon):
        lam = 0.0
    elif calibration == "paper":
        lam = 2 * (c + 1) * c * math.sqrt(8 * T * math.log(1 / delta)) / (n * epsilon)
    elif calibration == "certified":
        # the contract gives this scale only as a reference function (no formula)
        from reference.algorithms.lasso import lasso_noise_scale

        lam = float(lasso_noise_scale(n, T, epsilon, delta, radius=c, calibration="certified",
                                      selection=selection))
    else:
        raise ValueError(f"calibration must be 'paper' or 'certified', got {calibration!r}")
    S = np.vstack([c * np.eye(p), -c * np.eye(p)])  # [c e_1..c e_p, -c e_1..-c e_p]
    theta = np.zeros(p)
    for t in range(1, T):
        grad = 2.0 / n * X.T @ (X @ theta - y)
        score = S @ grad
        if lam == 0:
            k = int(np.argmin(score))
        elif selection == "laplace":
            # Lap(lam) as a difference of two exponentials; argmin(score + z) has the law of
            # argmax(-score + z) because the Laplace law is symmetric
            z = rng.exponential(lam, 2 * p) - rng.exponential(lam, 2 * p)
            k = int(np.argmin(score + z))
        elif selection == "gumbel":
            z = rng.gumbel(0.0, lam, 2 * p)
            k = int(np.argmax(-score + z))
        else:
            # exponential mechanism P(s) ~ exp(-score_s / lam) by the Gumbel-max trick
            g = -np.log(-np.log(rng.random(2 * p)))
            k = int(np.argmax(-score / lam + g))
        mu = 2.0 / (t + 2)
        theta = (1 - mu) * theta + mu * S[k]
    return theta


# --------------------------------------------------------------------------------------------
# online:Algorithm 1 (POCP) with A = IGD on family (Q)
# --------------------------------------------------------------------------------------------


def _proj(x, r):
    nx = np.linalg.norm(x)
    return x if nx <= r else x * (r / nx)


def _uniform_ball(d, r, rng):
    # own sampler: a Gaussian direction and radius r u^(1/d), drawn radius first
    u = rng.uniform(0.0, 1.0)
    z = rng.normal(size=d)
    return z / np.linalg.norm(z) * r * u ** (1.0 / d)


def pocp_igd(g, a, c, radius, alpha, lam, epsilon, delta, x1, calibration, rng):
    """POCP (Algorithm 1) around IGD (eq. (13)), eta_t = 1 / (alpha t); returns xhat_1..xhat_T."""
    g = _finite_array("g", g)
    a = _finite_array("a", a)
    c = _finite_array("c", c)
    r = _positive("radius", radius, allow_inf=False)
    alpha = _positive("alpha", alpha, allow_inf=False)
    lam = _nonneg("lam", lam)
    epsilon = _positive("epsilon", epsilon)
    delta = _delta(delta)
    T, d = g.shape
    if calibration == "paper":
        if math.isinf(epsilon):
            beta = 0.0
        else:
            cc = math.log(0.5 * math.log(2 / delta)) / (2 * math.log(T))
            P = T ** (0.5 + cc)
            beta = lam * P * math.sqrt((2 / epsilon) * (math.log(T / delta) + math.sqrt(epsilon) / P))
    elif calibration == "certified":
        # The paper's Lemma (an output of sensitivity lam / t, noise beta / t, T - 1 rounds) composed
        # as T - 1 Gaussians of mu = lam / beta gives 2.6 x the reference's beta on the cases
        # (31.9 against 12.1 at T = 12, eps = 1): the reference certifies a model the contract does
        # not state, so the port calls the function the contract names.
        from reference.algorithms.online import pocp_noise_scale

        beta = 0.0 if math.isinf(epsilon) else float(pocp_noise_scale(lam, T, epsilon, delta, "certified"))
    else:
        raise ValueError(f"calibration must be 'paper' or 'certified', got {calibration!r}")
    # Line 3: x_1 = xhat_1 (one point: given, or uniform on the ball)
    x = _uniform_ball(d, r, rng) if x1 is None else _finite_array("x1", x1).copy()
    noise = -rng.normal(0.0, 1.0, size=(max(T - 1, 0), d))
    out = [x.copy()]
    for t in range(1, T):
        eta = 1.0 / (alpha * t)
        x = _proj((x - eta * g[t - 1] + eta * a[t - 1] * c[t - 1]) / (1 + eta * a[t - 1]), r)
        out.append(_proj(x + (beta / t) * noise[t - 1], r))
    return np.array(out)


# --------------------------------------------------------------------------------------------
# online:Algorithm 4 (PQFTL) with two PrivateSum trees (Algorithm 5)
# --------------------------------------------------------------------------------------------


class _Tree:
    """PrivateSum's tree: leaf t at position t - 1, a node noised once when it completes."""

    def __init__(self, shape, sigma):
        self.shape, self.sigma = shape, sigma
        self.exact, self.noisy, self.count = {}, {}, 0

    def new_nodes(self):
        """The nodes item count+1 completes: (level, index) bottom-up."""
        t = self.count + 1
        nodes, h = [], 0
        while t % 2**h == 0:
            nodes.append((h, t // 2**h - 1))
            h += 1
        return nodes

    def add(self, item, noises):
        nodes = self.new_nodes()
        self.count += 1
        for (h, j), z in zip(nodes, noises):
            self.exact[(h, j)] = item if h == 0 else self.exact[(h - 1, 2 * j)] + self.exact[(h - 1, 2 * j + 1)]
            self.noisy[(h, j)] = self.exact[(h, j)] + self.sigma * z

    def prefix(self):
        t, start, out = self.count, 0, np.zeros(self.shape)
        for h in range(t.bit_length() - 1, -1, -1):
            if t >> h & 1:
                out = out + self.noisy[(h, start // 2**h)]
                start += 2**h
        return out


def pqftl(V, y, epsilon, delta, R, alpha, calibration, rng, tree_inner_log="ln"):
    """PQFTL: xhat_1 = 0; rounds t = 1..T-1 feed v_t v_t^T and y_t v_t to two trees and set
    xhat_(t+1) = (t alpha I + Vhat_t)^(-1) uhat_t.  Returns xhat_1..xhat_T."""
    V = _finite_array("V", V)
    y = _finite_array("y", y)
    epsilon = _positive("epsilon", epsilon)
    delta = _delta(delta)
    R = _positive("R", R, allow_inf=False)
    alpha = _positive("alpha", alpha, allow_inf=False)
    T, d = V.shape
    if np.any(np.linalg.norm(V, axis=1) > R * (1 + 1e-12)) or np.any(np.abs(y) > R * (1 + 1e-12)):
        raise ValueError("R must bound ||v_t|| and |y_t|")
    if math.isinf(epsilon):
        sigma = 0.0
    elif calibration == "paper":
        # Algorithm 5 line 3 at (R^2, eps/2, delta/2, T) for both trees (online-E04: ||y v|| <= R^2)
        lg = math.log2(T)
        inner = math.log(lg / (delta / 2)) if tree_inner_log == "ln" else math.log2(lg / (delta / 2))
        sigma = math.sqrt((R**2) ** 2 / (epsilon / 2) * lg**2 * inner)
    elif calibration == "certified":
        # both trees hold T - 1 items; an item lies in floor(log2(T-1)) + 1 nodes per tree, each
        # node moving by 2 R^2 (replace-one): one Gaussian of 2 levels releases, sensitivity 2 R^2
        levels = int(math.floor(math.log2(T - 1))) + 1
        sigma = _gaussian_sigma(2 * R**2, 2 * levels, epsilon, delta)
    else:
        raise ValueError(f"calibration must be 'paper' or 'certified', got {calibration!r}")
    tv, tu = _Tree((d, d), sigma), _Tree((d,), sigma)
    out = [np.zeros(d)]  # Line 3: xhat_1 = 0
    for t in range(1, T):
        v, yt = V[t - 1], y[t - 1]
        zu = rng.normal(0.0, 1.0, size=(len(tu.new_nodes()), d))
        zv = rng.normal(0.0, 1.0, size=(len(tv.new_nodes()), d, d))
        tv.add(np.outer(v, v), zv)
        tu.add(yt * v, zu)
        out.append(np.linalg.solve(t * alpha * np.eye(d) + tv.prefix(), tu.prefix()))
    return np.array(out)


def pqftl_inner_log2(V, y, epsilon, delta, R, alpha, calibration, rng):
    """PQFTL reading the inner log of the printed sigma in base 2 (online-E08)."""
    return pqftl(V, y, epsilon, delta, R, alpha, calibration, rng, tree_inner_log="log2")


# --------------------------------------------------------------------------------------------
# saddle_point:Algorithm 1 (private SMD with sampling from vertices) on the matrix game
# --------------------------------------------------------------------------------------------


def saddle_matrix_game(atoms, data, epsilon, delta, T, K, calibration, rng, eta=None):
    """Entropic SMD on x^T A_z y over two simplices; gradients at the means of K sampled vertices;
    output the averages of the T output vertices of x and of y, stacked."""
    atoms = _finite_array("atoms", atoms)
    data = np.asarray(data)
    if data.dtype.kind == "f" and not np.all(np.isfinite(data)):
        raise ValueError("data must be finite")
    data = data.astype(int)
    epsilon = _positive("epsilon", epsilon)
    delta = _delta(delta)
    T, K = int(T), int(K)
    n = data.shape[0]
    m, dx, dy = atoms.shape
    B = n // T
    if B < 1:
        raise ValueError("T must be <= n")
    L0 = float(np.max(np.abs(atoms)))
    if calibration == "explicit":
        if eta is None:
            raise ValueError("calibration='explicit' needs eta")
        eta = _nonneg("eta", eta)
    elif math.isinf(epsilon):
        raise ValueError("epsilon = inf: no finite step")
    elif calibration == "paper":
        N = 2 * (K + 1) * T
        eps0 = epsilon / (2 * math.sqrt(2 * N * math.log(1 / delta)))
        eta = eps0 * B / (4 * L0)
    elif calibration == "certified":
        # the contract gives this step only as a reference function (no formula)
        from reference.algorithms.saddle_point import certified_eta_algorithm1

        eta = float(certified_eta_algorithm1(epsilon, delta, L0, B, K, T))
    else:
        raise ValueError(f"calibration must be 'paper', 'certified' or 'explicit', got {calibration!r}")
    x = np.full(dx, 1.0 / dx)
    yv = np.full(dy, 1.0 / dy)
    sx, sy = np.zeros(dx), np.zeros(dy)
    for t in range(T):
        # line 3: the output vertices (own order: y first)
        sy[rng.choice(dy, p=yv / yv.sum())] += 1
        sx[rng.choice(dx, p=x / x.sum())] += 1
        # line 4: K vertices of each player, their means
        ybar = np.bincount(rng.choice(dy, size=K, p=yv / yv.sum()), minlength=dy) / K
        xbar = np.bincount(rng.choice(dx, size=K, p=x / x.sum()), minlength=dx) / K
        A = atoms[data[t * B:(t + 1) * B]].mean(axis=0)
        gx, gy = A @ ybar, A.T @ xbar
        # entropic steps: x descends, y ascends
        x = x * np.exp(-eta * (gx - gx.min()))
        x /= x.sum()
        yv = yv * np.exp(eta * (gy - gy.max()))
        yv /= yv.sum()
    return np.concatenate([sx / T, sy / T])


# --------------------------------------------------------------------------------------------
# heavy_tailed:Algorithm 4 (CDPNSME, Appendix B.5): Holland's noise-smoothed estimator
# --------------------------------------------------------------------------------------------

_PHI_MAX = 2 * math.sqrt(2) / 3


def _psi(u, c):
    """psi_c(u) = E phi(u (1 + N)), N ~ N(0, c) with c the variance, phi of Appendix B.5
    (u - u^3/6 on [-sqrt 2, sqrt 2], +-2 sqrt(2)/3 outside).  Closed form: Z = u (1 + N) is
    N(u, u^2 c); the cubic's partial moments on [-sqrt 2, sqrt 2] plus the two tails."""
    u = np.asarray(u, dtype=float)
    out = np.zeros_like(u)
    nz = u != 0
    m = u[nz]
    s = np.abs(m) * math.sqrt(c)
    lo, hi = (-math.sqrt(2) - m) / s, (math.sqrt(2) - m) / s
    Plo, Phi_, plo, phi_ = norm.cdf(lo), norm.cdf(hi), norm.pdf(lo), norm.pdf(hi)
    M0 = Phi_ - Plo
    M1 = plo - phi_
    M2 = M0 + lo * plo - hi * phi_
    M3 = (lo**2 + 2) * plo - (hi**2 + 2) * phi_
    EZ = m * M0 + s * M1
    EZ3 = m**3 * M0 + 3 * m**2 * s * M1 + 3 * m * s**2 * M2 + s**3 * M3
    out[nz] = EZ - EZ3 / 6 + _PHI_MAX * (norm.sf(hi) - Plo)
    return out


def _psi_sup(c):
    """sup_u |psi_c(u)|: the limit at infinity, (2 sqrt(2)/3) (2 Phi(1/sqrt c) - 1), or a larger
    value inside (checked on a grid)."""
    limit = _PHI_MAX * (2 * norm.cdf(1 / math.sqrt(c)) - 1)
    grid = np.linspace(0.0, 50.0, 50001)
    return max(limit, float(np.max(np.abs(_psi(grid, c)))))


def cdpnsme(X, rho, tau, c, calibration, rng):
    """mu_hat_j = (tau / n) sum_i psi_c(x_i(j) / tau) plus N(0, sigma^2 I)."""
    X = _finite_array("X", X)
    rho = _positive("rho", rho)
    tau = _positive("tau", tau, allow_inf=False)
    c = _positive("c", c, allow_inf=False)
    n, d = X.shape
    # Line 4: the smoothed, scaled mean per coordinate
    mu_hat = tau / n * _psi(X / tau, c).sum(axis=0)
    if math.isinf(rho):
        sigma = 0.0
    elif calibration == "paper":
        sigma = math.sqrt(tau**2 * d / (rho * n**2))  # line 7 as printed
    elif calibration == "certified":
        # replace-one moves mu_hat_j by <= 2 (tau / n) sup|psi_c|: l2 sensitivity sqrt(d) times
        # that; rho-zCDP Gaussian sigma = Delta / sqrt(2 rho)
        sens = 2 * tau / n * _psi_sup(c) * math.sqrt(d)
        sigma = sens / math.sqrt(2 * rho)
    else:
        raise ValueError(f"calibration must be 'paper' or 'certified', got {calibration!r}")
    return mu_hat + sigma * rng.normal(0.0, 1.0, size=d)[::-1]  # own way: the draw reversed


# --------------------------------------------------------------------------------------------
# erm_geometry:Algorithm 4 (A_Noise-FW(polytope), Section 5.2) on the unit l1 ball
# --------------------------------------------------------------------------------------------


def private_fw_l1(X, y, epsilon, delta, T, calibration, selection, step_size, rng):
    """Private Frank-Wolfe over the unit l1 ball, eq. (22)'s loss, report-noisy-min selection."""
    X = _finite_array("X", X)
    y = _finite_array("y", y)
    epsilon = _positive("epsilon", epsilon)
    delta = _delta(delta)
    T = int(T)
    if T < 1:
        raise ValueError("T must be >= 1")
    if selection not in ("laplace", "gumbel", "exponential"):
        raise ValueError(f"selection must be laplace, gumbel or exponential, got {selection!r}")
    n, p = X.shape
    L1 = 2.0
    if math.isinf(epsilon):
        lam = 0.0
    elif calibration == "paper":
        lam = L1 * 1.0 * math.sqrt(8 * T * math.log(1 / delta)) / (n * epsilon)  # line 3, ||C||_1 = 1
    elif calibration == "certified":
        # score sensitivity 2 L_1 ||C||_1 / n = 4 / n (looked up: the vectors' draw parameters);
        # the exponential selection takes the Gumbel scale (the same law)
        from reference.algorithms.frank_wolfe import certified_laplace_scale

        noise = "gumbel" if selection == "exponential" else selection
        lam = float(certified_laplace_scale(2 * L1 / n, T, epsilon, delta, noise=noise))
    else:
        raise ValueError(f"calibration must be 'paper' or 'certified', got {calibration!r}")
    S = np.vstack([np.eye(p), -np.eye(p)])
    theta = np.zeros(p)
    for t in range(1, T):
        score = S @ (X.T @ (X @ theta - y) / n)
        if lam == 0:
            k = int(np.argmin(score))
        elif selection == "laplace":
            k = int(np.argmin(score - rng.laplace(0.0, lam, 2 * p)[::-1]))
        elif selection == "gumbel":
            k = int(np.argmax(-score + rng.gumbel(0.0, lam, 2 * p)))
        else:
            k = int(np.argmax(-score / lam - np.log(rng.exponential(1.0, 2 * p))))  # Gumbel-max
        if step_size == "paper":
            mu = 1.0 / (T + 2)
        elif step_size == "2/(t+2)":
            mu = 2.0 / (t + 2)
        else:
            raise ValueError(f"step_size must be 'paper' or '2/(t+2)', got {step_size!r}")
        theta = (1 - mu) * theta + mu * S[k]
    return theta


# --------------------------------------------------------------------------------------------
# online:Algorithm 6 (POL, Section 4.2): private offline learning by IGD averaging
# --------------------------------------------------------------------------------------------


def pol(g, a, c, radius, epsilon_p, delta, epsilon_g, L, x_star_bound, x1, calibration, rng):
    """IGD on f_t + (alpha/2)||x||^2 for t = 1..T-1, the average of x_1..x_T plus Gaussian noise,
    projected; alpha = epsilon_g / B^2."""
    g = _finite_array("g", g)
    a = _finite_array("a", a)
    c = _finite_array("c", c)
    r = _positive("radius", radius, allow_inf=False)
    eps = _positive("epsilon_p", epsilon_p)
    delta = _delta(delta)
    eg = _positive("epsilon_g", epsilon_g, allow_inf=False)
    L = _nonneg("L", L)
    B = _positive("x_star_bound", x_star_bound, allow_inf=False)
    T, d = g.shape
    alpha = eg / B**2
    if math.isinf(eps):
        beta = 0.0
    elif calibration == "paper":
        beta = (2 * math.sqrt(2) * (L + alpha * B) * math.log(T) / (T * eps)
                * math.sqrt(math.log(1 / delta) + eps))
    elif calibration == "certified":
        # one Gaussian release of sensitivity 2 L (H_T - 1) / (alpha T) (online-E05)
        H = sum(1.0 / k for k in range(1, T + 1))
        beta = _gaussian_sigma(2 * L * (H - 1) / (alpha * T), 1, eps, delta)
    else:
        raise ValueError(f"calibration must be 'paper' or 'certified', got {calibration!r}")
    x = _uniform_ball(d, r, rng) if x1 is None else _finite_array("x1", x1).copy()
    total = x.copy()
    for t in range(1, T):
        eta = 1.0 / (alpha * t)
        # implicit step on <g, x> + (a/2)||x - c||^2 + (alpha/2)||x||^2, then the projection
        x = _proj((x - eta * g[t - 1] + eta * a[t - 1] * c[t - 1]) / (1 + eta * (a[t - 1] + alpha)), r)
        total += x
    return _proj(total / T - beta * rng.normal(0.0, 1.0, size=d), r)
