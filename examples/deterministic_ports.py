"""Fast ports of the package's eight deterministic algorithms, written from the papers, and their wrong twins.

Each port takes the keywords ``python -m reference conform --algorithm ID`` passes (``python -m reference list``)
plus ``rng``, which none of them uses (the algorithms draw nothing), and returns the bare output. They are
vectorised and compute in their own order (Gram matrices, running sums, closed forms over all rounds,
``np.partition`` medians), not line by line: they agree with the pseudocode up to rounding.

| function | paper, algorithm | conform id |
|---|---|---|
| :func:`lasso_frank_wolfe` | lasso (seed 004) Algorithm 1 | ``lasso:Algorithm 1`` |
| :func:`erm_frank_wolfe` | erm_geometry (seed 000) Algorithm 3 | ``erm_geometry:Algorithm 3`` |
| :func:`median_of_means` | heavy_tailed (seed 001) Algorithm 3 | ``heavy_tailed:Algorithm 3`` |
| :func:`scof` | heavy_tailed Algorithm 1 with Algorithm 3 as the mean oracle | ``heavy_tailed:Algorithm 1`` |
| :func:`igd` | online (seed 002) eq. (13) | ``online:eq. (13)`` |
| :func:`giga` | online §3.4 (GIGA) | ``online:GIGA`` |
| :func:`ftl` | online eq. (20) | ``online:eq. (20)`` |
| :func:`qftl` | online eq. (21) | ``online:eq. (21)`` |

Where the paper leaves a choice open, the ports follow the resolutions recorded in docs/errata.md and the
per-algorithm notes of docs/vectors.md (what a user reads besides the paper):

- Frank-Wolfe (both papers): theta_1 = 0 for LASSO (lasso-E05), the given ``theta1`` for erm_geometry;
  t = 1..T-1, output theta_T; the LMO over the l1 ball is the lowest-index best vertex of
  [r e_1..r e_p, -r e_1..-r e_p] (core-G04), over the l2 ball -r g/||g|| (r e_1 for g = 0);
  LASSO's L = (1/n)||X theta - y||^2 with mu_t = 2/(t+2); erm_geometry's eq. (22)
  L = (1/(2n)) sum (<x_i, theta> - y_i)^2 on the unit ball with ``step_size`` "paper" (Theorem 5.2's
  mu = 1/T, erm_geometry-E15) or "2/(t+2)".
- Algorithm 3: m = ceil(4 ln(2d/beta)), b = floor(n/m), contiguous buckets, the trailing n - m b samples
  unused (heavy_tailed-E04); clip to [-3 tau, 3 tau] before averaging; an even m's median is the mean of the
  two middle values (footnote 9).
- SCOF: the loss l(w, x) = ||w - x||^2 / 2 (gradient w - x) over the l2 ball of ``radius``; w^0 =
  Proj(0) = 0; constant eta; convex mode: S_t = X and w_priv = (1/T) sum_{t=1}^T w^t (Theorem 3.1);
  strongly convex mode: S_t the t-th block of floor(n/T) samples and w_priv = w^T (heavy_tailed-E06).
- online: family (Q) f_t(x) = <g_t, x> + (a_t/2)||x - c_t||^2 over the l2 ball of ``radius``; the output is
  x_1..x_T, a (T, d) array. IGD: eta_t = 1/(alpha t); its implicit step is the projection of the
  unconstrained minimiser (the objective is isotropic). GIGA: eta_t = step_constant/(alpha t). FTL: the
  leader of an isotropic sum is the projection of sum a_s c_s - sum g_s over sum a_s. QFTL: eq. (19)'s
  loss, x_1 = 0, x_(t+1) = (t alpha I + V_t)^(-1) u_t.

``variant=`` and the sibling functions at the bottom are the wrong ports a porter could write from the same
text (each names the line it misreads); they are what the oracle's output-only properties must reject.
"""

from __future__ import annotations

import math

import numpy as np

# ---------------------------------------------------------------------------- input checks


def _array(name, value, ndim):
    arr = np.asarray(value, dtype=float)
    if arr.ndim != ndim or arr.size == 0 or not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be a non-empty finite {ndim}-d array, got shape {arr.shape}")
    return arr


def _positive(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite real > 0, got {value!r}")
    return float(value)


def _count(name, value, least=1):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < least:
        raise ValueError(f"{name} must be an integer >= {least}, got {value!r}")
    return int(value)


def _project(Z, radius):
    """Rows of Z projected on the l2 ball of ``radius`` (a (d,) vector or a (k, d) stack)."""
    norms = np.linalg.norm(Z, axis=-1, keepdims=True)
    return Z * np.minimum(1.0, radius / np.maximum(norms, np.finfo(float).tiny))


# ---------------------------------------------------------------------------- Frank-Wolfe (both papers)


def _l1_vertex(g, r):
    """The lowest-index vertex of argmin <s, g> over [r e_1..r e_p, -r e_1..-r e_p], as (index, sign)."""
    k = int(np.argmin(np.concatenate([g, -g])))
    p = g.shape[0]
    return (k, 1.0) if k < p else (k - p, -1.0)


def _frank_wolfe_gram(G, h, theta, steps, geometry, radius, scale, *, average=False):
    """Frank-Wolfe on L(theta) = scale (theta^T G theta / 2 - h^T theta) + const, from theta, one step per mu.

    The gradient scale (G theta - h) is kept as G theta updated along the step (G theta_(t+1) =
    (1 - mu) G theta_t + mu G s_t, with G s_t = +-r G[:, j] at a vertex): no product with X inside the loop.
    ``average``: the mean of every iterate (theta_1 .. the last) instead of the last."""
    Gtheta = G @ theta
    total = theta.copy()
    for mu in steps:
        g = scale * (Gtheta - h)
        if geometry == "l1":
            j, sign = _l1_vertex(g, radius)
            Gs = (sign * radius) * G[:, j]
            theta = (1.0 - mu) * theta
            theta[j] += mu * sign * radius
        else:                                              # the l2 ball: s = -r g / ||g||
            norm = float(np.linalg.norm(g))
            s = np.zeros_like(theta)
            if norm == 0.0:
                s[0] = radius
            else:
                s = -radius * g / norm
            Gs = G @ s
            theta = (1.0 - mu) * theta + mu * s
        Gtheta = (1.0 - mu) * Gtheta + mu * Gs
        total += theta
    return total / (len(steps) + 1) if average else theta


def _design(X, y):
    X, y = _array("X", X, 2), _array("y", y, 1)
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must have one entry per row of X: X {X.shape}, y {y.shape}")
    return X, y


def lasso_frank_wolfe(X, y, T, radius, rng=None, *, variant=""):
    """lasso Algorithm 1: Frank-Wolfe on L(theta) = (1/n)||X theta - y||^2 over the l1 ball of ``radius``,
    theta_1 = 0, mu_t = 2/(t+2), t = 1..T-1; returns theta_T.

    Wrong variants: ``"jaggi-step"`` mu_t = 2/(t+1) (the step index shifted by one), ``"T-updates"`` the loop
    run to T (T updates, theta_(T+1) returned), ``"unit-ball"`` the l1 ball of radius 1 whatever ``radius``
    (Algorithm 1 is printed for the unit ball), ``"ascent"`` the vertex of the largest score (line 3's argmin
    read as the steepest ascent direction)."""
    X, y = _design(X, y)
    T = _count("T", T)
    radius = _positive("radius", radius)
    n, p = X.shape
    ts = np.arange(1, T + (1 if variant == "T-updates" else 0))
    steps = 2.0 / (ts + (1.0 if variant == "jaggi-step" else 2.0))
    r = 1.0 if variant == "unit-ball" else radius
    G, h = X.T @ X, X.T @ y
    scale = 2.0 / n
    if variant == "ascent":
        scale = -scale                                     # WRONG: maximises the score
    return _frank_wolfe_gram(G, h, np.zeros(p), steps, "l1", r, scale)


def erm_frank_wolfe(X, y, T, theta1, geometry, step_size, rng=None, *, variant=""):
    """erm_geometry Algorithm 3: Frank-Wolfe on eq. (22), L(theta) = (1/(2n)) sum (<x_i, theta> - y_i)^2, over
    the unit ``geometry`` ball ("l1" or "l2") from ``theta1``; ``step_size`` "paper" (mu = 1/T, Theorem 5.2) or
    "2/(t+2)"; t = 1..T-1; returns theta_T.

    Wrong variants: ``"mu-T-plus-2"`` the constant 1/(T+2) for "paper" (Algorithm 4 line 5's step read into
    Algorithm 3), ``"jaggi-step"`` 2/(t+1) for "2/(t+2)", ``"T-updates"`` T updates (theta_(T+1)),
    ``"average"`` the average of theta_1..theta_T returned instead of theta_T (mirror descent's output rule)."""
    X, y = _design(X, y)
    T = _count("T", T)
    n, p = X.shape
    theta = _array("theta1", theta1, 1).copy()
    if theta.shape != (p,):
        raise ValueError(f"theta1 must have p = {p} entries, got {theta.shape}")
    if geometry not in ("l1", "l2"):
        raise ValueError(f"geometry must be 'l1' or 'l2', not {geometry!r}")
    norm = np.sum(np.abs(theta)) if geometry == "l1" else np.linalg.norm(theta)
    if norm > 1.0 + 1e-12:
        raise ValueError(f"theta1 must lie in the unit {geometry} ball (norm {norm:.6g})")
    updates = T if variant == "T-updates" else T - 1
    ts = np.arange(1, updates + 1, dtype=float)
    if step_size == "paper":
        steps = np.full(updates, 1.0 / (T + 2) if variant == "mu-T-plus-2" else 1.0 / T)
    elif step_size == "2/(t+2)":
        steps = 2.0 / (ts + (1.0 if variant == "jaggi-step" else 2.0))
    else:
        raise ValueError(f"step_size must be 'paper' or '2/(t+2)', not {step_size!r}")
    G, h = X.T @ X, X.T @ y
    return _frank_wolfe_gram(G, h, theta, steps, geometry, 1.0, 1.0 / n, average=variant == "average")


# ---------------------------------------------------------------------------- heavy_tailed Algorithm 3 and SCOF


def bucket_count(d, beta, *, variant=""):
    """Line 2: m = 4 ln(2d/beta), rounded up (heavy_tailed-E04); ``"floor-m"`` rounds it down (wrong)."""
    value = 4.0 * math.log(2.0 * d / beta)
    if variant == "floor-m":
        return max(1, math.floor(value + 1e-12 * value))
    return max(1, math.ceil(value - 1e-12 * value))


def _mom(G, tau, m, variant=""):
    """Lines 3-12 on the rows of G (n, d) with m buckets: clip, bucket means, coordinate-wise median."""
    n, d = G.shape
    if n < m:
        raise ValueError(f"n = {n} < m = {m}: a bucket would be empty")
    b = n // m
    clipped = np.clip(G, -3.0 * tau, 3.0 * tau)
    if variant == "spread-remainder":                      # WRONG: the n - m b extra samples go to the first buckets
        means = np.stack([part.mean(axis=0) for part in np.array_split(clipped, m, axis=0)])
    elif variant == "m-over-n":                            # WRONG: line 7's m/n taken literally with b = floor(n/m)
        means = clipped[:m * b].reshape(m, b, d).sum(axis=1) * (m / n)
    else:
        means = clipped[:m * b].reshape(m, b, d).mean(axis=1)
    half = m // 2
    if m % 2:
        return np.partition(means, half, axis=0)[half]
    part = np.partition(means, (half - 1, half), axis=0)
    if variant == "upper-middle":                          # WRONG: the upper middle value for even m
        return part[half]
    if variant == "lower-middle":                          # WRONG: the lower middle value for even m
        return part[half - 1]
    return 0.5 * (part[half - 1] + part[half])


def _tau_beta(tau, beta):
    tau = _positive("tau", tau)
    if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not 0 < beta < 1:
        raise ValueError(f"beta must be in (0, 1), got {beta!r}")
    return tau, float(beta)


def median_of_means(X, tau, beta, rng=None, *, variant=""):
    """heavy_tailed Algorithm 3 (non-private): the coordinate-wise median of m clipped bucket means.

    Wrong variants: ``"upper-middle"`` / ``"lower-middle"`` (even m: one middle value instead of their mean,
    footnote 9 missed), ``"floor-m"`` (line 2's m rounded down), ``"spread-remainder"`` (buckets of
    floor(n/m) or ceil(n/m) samples covering all n, ``np.array_split``), ``"m-over-n"`` (line 7's factor m/n
    with b = floor(n/m) samples a bucket)."""
    X = _array("X", X, 2)
    tau, beta = _tau_beta(tau, beta)
    m = bucket_count(X.shape[1], beta, variant=variant)
    return _mom(X, tau, m, variant)


def scof(X, eta, T, radius, tau, beta, mode, rng=None, *, variant=""):
    """heavy_tailed Algorithm 1 (SCOF) with Algorithm 3 as MeanOracle, on l(w, x) = ||w - x||^2/2 over the l2
    ball of ``radius``; returns w_priv (convex: the average of w^1..w^T; strongly convex: w^T).

    Wrong variants: ``"average-from-w0"`` (convex: the average of w^0..w^(T-1), the query points),
    ``"last-iterate"`` (convex mode returns w^T), ``"oracle-on-data"`` (the oracle run once on the data and
    the gradient taken as w - MoM(X): a shortcut that would be exact for the plain mean, but the clip to
    [-3 tau, 3 tau] acts on x, not on w - x), ``"no-projection"`` (line 10 without Proj_W)."""
    X = _array("X", X, 2)
    eta = _positive("eta", eta)
    T = _count("T", T)
    radius = _positive("radius", radius)
    tau, beta = _tau_beta(tau, beta)
    if mode not in ("convex", "strongly_convex"):
        raise ValueError(f"mode must be 'convex' or 'strongly_convex', not {mode!r}")
    n, d = X.shape
    if mode == "strongly_convex":
        size = n // T
        if size < 1:
            raise ValueError(f"strongly convex mode needs n >= T; n = {n}, T = {T}")
        batches = X[:T * size].reshape(T, size, d)
    m = bucket_count(d, beta)
    w = np.zeros(d)                                        # w^0 = Proj_W(0)
    total = np.zeros(d)
    queries = np.zeros(d)
    fixed = _mom(X, tau, m) if variant == "oracle-on-data" else None
    for t in range(T):
        S = X if mode == "convex" else batches[t]
        queries += w
        if fixed is not None:
            grad = w - fixed                               # WRONG: clip applied to x, not to w - x
        else:
            grad = _mom(w - S, tau, m)                     # MeanOracle({grad l(w^(t-1), x_i)})
        w = w - eta * grad
        if variant != "no-projection":
            w = _project(w, radius)
        total += w
    if mode == "strongly_convex":
        return w
    if variant == "average-from-w0":
        return queries / T
    if variant == "last-iterate":
        return w
    return total / T


# ---------------------------------------------------------------------------- online: IGD, GIGA, FTL, QFTL


def _family_q(g, a, c, radius, x1):
    g, c, a = _array("g", g, 2), _array("c", c, 2), _array("a", a, 1)
    T, d = g.shape
    if c.shape != (T, d) or a.shape != (T,):
        raise ValueError(f"g, c must be (T, d) and a (T,); got {g.shape}, {c.shape}, {a.shape}")
    if np.any(a <= 0):
        raise ValueError("every a_t must be > 0 (strongly convex losses)")
    radius = _positive("radius", radius)
    x = _array("x1", x1, 1)
    if x.shape != (d,):
        raise ValueError(f"x1 must have d = {d} entries, got {x.shape}")
    if np.linalg.norm(x) > radius * (1 + 1e-12):
        raise ValueError(f"x1 must lie in the ball of radius {radius}")
    return g, a, c, radius, x


def igd(g, a, c, radius, alpha, x1, rng=None, *, variant=""):
    """online eq. (13): x_(t+1) = argmin_C (1/2)||x - x_t||^2 + eta_t f_t(x), eta_t = 1/(alpha t); the minimiser
    of the isotropic objective is Proj((x_t + eta_t (a_t c_t - g_t)) / (1 + eta_t a_t)). Returns x_1..x_T.

    Wrong variants: ``"step-off-by-one"`` eta_t = 1/(alpha (t + 1)), ``"explicit"`` the gradient taken at x_t
    (a projected gradient step, GIGA's, instead of the implicit one at x_(t+1)), ``"no-alpha"`` eta_t = 1/t,
    ``"project-late"`` the ball ignored in the step and each x_t projected only when released (the iterates
    run unconstrained)."""
    g, a, c, radius, x = _family_q(g, a, c, radius, x1)
    alpha = _positive("alpha", alpha)
    T, d = g.shape
    t = np.arange(1, T, dtype=float)
    if variant == "step-off-by-one":
        t = t + 1.0
    eta = 1.0 / (t if variant == "no-alpha" else alpha * t)
    pull = (a[:-1, None] * c[:-1] - g[:-1]) * eta[:, None]          # eta_t (a_t c_t - g_t), all rounds at once
    shrink = 1.0 / (1.0 + eta * a[:-1])
    out = np.empty((T, d))
    out[0] = x
    free = x
    for k in range(T - 1):
        if variant == "explicit":                          # WRONG: x_t - eta_t grad f_t(x_t)
            x = _project(x - eta[k] * (g[k] + a[k] * (x - c[k])), radius)
            out[k + 1] = x
        elif variant == "project-late":                    # WRONG: the unconstrained recursion, projected on release
            free = (free + pull[k]) * shrink[k]
            out[k + 1] = _project(free, radius)
        else:
            x = _project((x + pull[k]) * shrink[k], radius)
            out[k + 1] = x
    return out


def giga(g, a, c, radius, alpha, x1, step_constant, rng=None, *, variant=""):
    """online §3.4, GIGA: x_(t+1) = Proj(x_t - eta_t grad f_t(x_t)), eta_t = step_constant / (alpha t);
    returns x_1..x_T.

    Wrong variants: ``"step-off-by-one"`` eta_t = step_constant/(alpha (t + 1)), ``"pgiga-step"`` eta_t =
    2/(alpha t) whatever ``step_constant`` (Algorithm 3 line 6's step), ``"next-loss"`` round t steps along
    grad f_(t+1) (the loss rows read one ahead), ``"no-projection"`` line 7 without the projection."""
    g, a, c, radius, x = _family_q(g, a, c, radius, x1)
    alpha = _positive("alpha", alpha)
    step_constant = _positive("step_constant", step_constant)
    T, d = g.shape
    t = np.arange(1, T, dtype=float)
    if variant == "step-off-by-one":
        t = t + 1.0
    eta = (2.0 if variant == "pgiga-step" else step_constant) / (alpha * t)
    rows = np.arange(T - 1) + (1 if variant == "next-loss" else 0)
    gg, aa, cc = g[rows], a[rows], c[rows]
    out = np.empty((T, d))
    out[0] = x
    for k in range(T - 1):
        x = x - eta[k] * (gg[k] + aa[k] * (x - cc[k]))
        if variant != "no-projection":
            x = _project(x, radius)
        out[k + 1] = x
    return out


def ftl(g, a, c, radius, x1, rng=None, *, variant=""):
    """online eq. (20): x_(t+1) = argmin_C sum_(s<=t) f_s; for family (Q) the sum is
    (A_t/2)||x||^2 - <sum_s (a_s c_s - g_s), x> + const with A_t = sum_s a_s, so the leader is
    Proj(sum_s (a_s c_s - g_s) / A_t): all T - 1 leaders from two cumulative sums. Returns x_1..x_T.

    Wrong variants: ``"lagged"`` the leader of f_1..f_(t-1) (x_1 repeated at round 2), ``"mean-of-minimisers"``
    the unweighted running mean of the per-round minimisers c_s - g_s/a_s, ``"unconstrained"`` the leader
    left unprojected (C read as R^d, as eq. (21) does for QFTL)."""
    g, a, c, radius, x = _family_q(g, a, c, radius, x1)
    T, d = g.shape
    out = np.empty((T, d))
    out[0] = x
    if variant == "mean-of-minimisers":                    # WRONG: ignores the weights a_s
        lead = np.cumsum(c - g / a[:, None], axis=0) / np.arange(1, T + 1)[:, None]
    else:
        lead = np.cumsum(a[:, None] * c - g, axis=0) / np.cumsum(a)[:, None]
    if variant != "unconstrained":
        lead = _project(lead, radius)
    if variant == "lagged":                                # WRONG: x_(t+1) = leader of f_1..f_(t-1)
        out[1] = x
        out[2:] = lead[:T - 2]
    else:
        out[1:] = lead[:T - 1]
    return out


def qftl(V, y, alpha, rng=None, *, variant=""):
    """online eq. (21): x_1 = 0, x_(t+1) = (t alpha I + V_t)^(-1) u_t, V_t = sum_(s<=t) v_s v_s^T and
    u_t = sum_(s<=t) y_s v_s; all T - 1 systems solved in one batched ``np.linalg.solve``. Returns x_1..x_T.

    Wrong variants: ``"t-off-by-one"`` (t + 1) alpha I (a 0-based round counter), ``"alpha-without-t"``
    alpha I (the regulariser counted once, not once a round), ``"unhalved"`` the leader of line 1 of
    Algorithm 4 without eq. (19)'s 1/2, (t alpha I + 2 V_t)^(-1) 2 u_t."""
    V, y = _array("V", V, 2), _array("y", y, 1)
    T, d = V.shape
    if y.shape != (T,):
        raise ValueError(f"y must have one entry per row of V: V {V.shape}, y {y.shape}")
    alpha = _positive("alpha", alpha)
    Vt = np.cumsum(V[:-1, :, None] * V[:-1, None, :], axis=0)   # V_1 .. V_(T-1)
    ut = np.cumsum(y[:-1, None] * V[:-1], axis=0)                # u_1 .. u_(T-1)
    t = np.arange(1, T, dtype=float)
    if variant == "t-off-by-one":
        t = t + 1.0
    if variant == "alpha-without-t":
        t = np.ones(T - 1)
    if variant == "unhalved":
        Vt, ut = 2.0 * Vt, 2.0 * ut
    A = Vt + (t * alpha)[:, None, None] * np.eye(d)
    out = np.zeros((T, d))
    out[1:] = np.linalg.solve(A, ut[:, :, None])[:, :, 0]
    return out


# ---------------------------------------------------------------------------- the wrong variants, as conform targets


def _bind(function, variant):
    def wrong(*args, **kwargs):
        return function(*args, **kwargs, variant=variant)
    wrong.__name__ = f"{function.__name__}_{variant.replace('-', '_')}"
    wrong.__qualname__ = wrong.__name__
    wrong.__doc__ = f"{function.__name__} with variant={variant!r} (wrong on purpose)."
    return wrong


#: conform id -> (correct port, its wrong variants by name)
PORTS = {
    "lasso:Algorithm 1": (lasso_frank_wolfe, ("jaggi-step", "T-updates", "unit-ball", "ascent")),
    "erm_geometry:Algorithm 3": (erm_frank_wolfe, ("mu-T-plus-2", "jaggi-step", "T-updates", "average")),
    "heavy_tailed:Algorithm 3": (median_of_means, ("upper-middle", "lower-middle", "floor-m", "spread-remainder",
                                                   "m-over-n")),
    "heavy_tailed:Algorithm 1": (scof, ("average-from-w0", "last-iterate", "oracle-on-data", "no-projection")),
    "online:eq. (13)": (igd, ("step-off-by-one", "explicit", "no-alpha", "project-late")),
    "online:GIGA": (giga, ("step-off-by-one", "pgiga-step", "next-loss", "no-projection")),
    "online:eq. (20)": (ftl, ("lagged", "mean-of-minimisers", "unconstrained")),
    "online:eq. (21)": (qftl, ("t-off-by-one", "alpha-without-t", "unhalved")),
}

for _id, (_fn, _variants) in PORTS.items():
    for _v in _variants:
        _w = _bind(_fn, _v)
        globals()[_w.__name__] = _w
del _id, _fn, _variants, _v, _w
