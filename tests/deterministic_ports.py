"""Independent ports of the deterministic ids, and their realistic wrong variants, for the point-mass law check.

Written from the papers, vectorised (BLAS matrix products, cumulative sums, one median over an axis), so their
floating point is reassociated against the reference's loops: a correct one must pass conform's law (a point
mass at the reference's output, reference/oracle/properties.py PointMass) and each wrong variant must fail it in
the default mode. None draws from ``rng`` (a deterministic algorithm needs no randomness). Used by
tests/test_point_mass.py and by the measurement of docs/conformance.md ("Deterministic ids: the law is a point
mass").

Each port takes ``_wrong`` (a keyword conform never passes) to select a wrong variant; the module-level
functions at the bottom bind them, so that conform can be handed ``tests.deterministic_ports:NAME``.
"""

from __future__ import annotations

import numpy as np


def _data(name, value):
    """The port's input check: a NaN or an infinity in the data is refused (conform's validation property)."""
    arr = np.asarray(value, dtype=float)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite")
    return arr


# ---- Frank-Wolfe (lasso Algorithm 1 on eq. (2); erm_geometry Algorithm 3 on eq. (22))

def _fw(grad, lmo, theta, T, step):
    for t in range(1, T):
        vertex = lmo(grad(theta))
        mu = step(t, T)
        theta = (1.0 - mu) * theta + mu * vertex
    return theta


def _l1_lmo(radius):
    def lmo(g):
        scores = np.concatenate([radius * g, -radius * g])    # <s, g> over S = {c e_1..c e_p, -c e_1..-c e_p}
        k = int(np.argmin(scores))                            # the lowest index wins a tie
        v = np.zeros(g.size)
        v[k % g.size] = radius if k < g.size else -radius
        return v
    return lmo


def _l2_lmo(g):
    return -g / np.linalg.norm(g)


_STEPS = {
    "2/(t+2)": lambda t, T: 2.0 / (t + 2.0),
    "paper-erm": lambda t, T: 1.0 / T,                # erm_geometry Theorem 5.2's mu = 1/T
    "2/(t+1)": lambda t, T: 2.0 / (t + 1.0),          # wrong: the schedule of the common textbook off by one
    "2/(t+3)": lambda t, T: 2.0 / (t + 3.0),          # wrong: mu_(t+1) at step t
    "1/(T+1)": lambda t, T: 1.0 / (T + 1.0),          # wrong: erm_geometry's mu with T + 1
}


def lasso_fw(X, y, T, radius, rng, _wrong=None):
    X, y = _data("X", X), _data("y", y)
    n = X.shape[0]

    def grad(theta):                                   # eq. (2): (2/n) X^T (X theta - y), one BLAS call each
        return (2.0 / n) * (X.T @ (X @ theta - y))

    theta = np.zeros(X.shape[1])
    if _wrong == "average":                            # wrong: the average of theta_1..theta_T (line 5)
        thetas = [theta]
        for t in range(1, T):
            mu = 2.0 / (t + 2.0)
            theta = (1.0 - mu) * theta + mu * _l1_lmo(radius)(grad(theta))
            thetas.append(theta)
        return np.mean(thetas, axis=0)
    return _fw(grad, _l1_lmo(radius), theta, T, _STEPS[_wrong or "2/(t+2)"])


def erm_fw(X, y, T, theta1, geometry, step_size, rng, _wrong=None):
    X, y = _data("X", X), _data("y", y)
    n = X.shape[0]

    def grad(theta):                                   # eq. (22): (1/n) sum (<x, theta> - y) x
        return X.T @ (X @ theta - y) / n

    lmo = _l1_lmo(1.0) if geometry == "l1" else _l2_lmo
    name = "paper-erm" if step_size == "paper" else step_size
    if _wrong == "off-by-one":                         # wrong: mu = 1/(T+1), or 2/(t+1) for 2/(t+2)
        name = {"paper-erm": "1/(T+1)", "2/(t+2)": "2/(t+1)"}[name]
    theta1 = np.asarray(theta1, dtype=float)
    start = np.zeros_like(theta1) if _wrong == "zero-start" else theta1   # wrong: theta_1 ignored
    return _fw(grad, lmo, start, T, _STEPS[name])


# ---- heavy_tailed Algorithm 3 (clip, bucket, coordinate-wise median of means) and Algorithm 1 (SCOF)

def _bucket_count(d, beta):
    value = 4.0 * np.log(2.0 * d / beta)
    return max(1, int(np.ceil(value - 1e-12 * value)))


def cwme(X, tau, beta, rng=None, _wrong=None):
    X = _data("X", X)
    n, d = X.shape
    m = _bucket_count(d, beta)
    b = n // m
    buckets = np.clip(X[:m * b], -3.0 * tau, 3.0 * tau).reshape(m, b, d)
    means = buckets.mean(axis=1)                       # numpy's pairwise sum, not the reference's
    if _wrong == "upper-middle":                       # wrong: the upper middle bucket mean for even m
        return np.sort(means, axis=0)[m // 2]
    if _wrong == "lower-middle":
        return np.sort(means, axis=0)[(m - 1) // 2]
    if _wrong == "no-clip":
        return np.median(X[:m * b].reshape(m, b, d).mean(axis=1), axis=0)
    return np.median(means, axis=0)


def scof(X, eta, T, radius, tau, beta, mode, rng, _wrong=None):
    X = _data("X", X)
    n, d = X.shape
    w = np.zeros(d)
    ws = []
    batch = n // T
    for t in range(1, T + 1):
        S = X if mode == "convex" else X[(t - 1) * batch:t * batch]
        g = cwme(w[None, :] - S, tau, beta)
        step = eta / t if _wrong == "decaying-step" else eta
        w = w - step * g
        norm = np.linalg.norm(w)
        if norm > radius:
            w = w * (radius / norm)
        ws.append(w)
    if mode == "strongly_convex":
        return np.mean(ws, axis=0) if _wrong == "average" else ws[-1]
    if _wrong == "last":
        return ws[-1]
    if _wrong == "query-points":                       # wrong: the average of w^0..w^(T-1)
        return np.mean([np.zeros(d)] + ws[:-1], axis=0)
    return np.mean(ws, axis=0)


# ---- the online base learners on family (Q): f_t(x) = <g_t, x> + (a_t / 2) ||x - c_t||^2, and QFTL

def _project(x, radius):
    norm = np.linalg.norm(x)
    return x if norm <= radius else x * (radius / norm)


def igd(g, a, c, radius, alpha, x1, rng, _wrong=None):
    g, a, c = _data("g", g), _data("a", a), _data("c", c)
    x = np.asarray(x1, dtype=float)
    xs = [x]
    for t in range(1, g.shape[0]):
        k = t + 1 if _wrong == "step-index" else t        # wrong: eta_(t+1) at round t
        eta = 1.0 / (k if _wrong == "no-alpha" else alpha * k)
        # eq. (13) for family (Q): the prox in closed form, then the projection
        x = _project((x + eta * (a[t - 1] * c[t - 1] - g[t - 1])) / (1.0 + eta * a[t - 1]), radius)
        xs.append(x)
    return np.array(xs)


def giga(g, a, c, radius, alpha, x1, step_constant, rng, _wrong=None):
    g, a, c = _data("g", g), _data("a", a), _data("c", c)
    x = np.asarray(x1, dtype=float)
    xs = [x]
    for t in range(1, g.shape[0]):
        k = t + 1 if _wrong == "step-index" else t
        const = 1.0 if _wrong == "unit-constant" else step_constant
        eta = const / (k if _wrong == "no-alpha" else alpha * k)
        x = _project(x - eta * (g[t - 1] + a[t - 1] * (x - c[t - 1])), radius)
        xs.append(x)
    return np.array(xs)


def ftl(g, a, c, radius, x1, rng, _wrong=None):
    g, a, c = _data("g", g), _data("a", a), _data("c", c)
    T = g.shape[0]
    A = np.cumsum(a)                                   # sum_(s <= t) a_s, every t at once
    S = np.cumsum(a[:, None] * c - g, axis=0)          # sum_(s <= t) (a_s c_s - g_s)
    if _wrong == "count-not-curvature":                # wrong: divides by t, not by sum a_s
        A = np.arange(1.0, T + 1.0)
    leaders = S / A[:, None]
    if _wrong == "late":                               # wrong: the leader of rounds 1..t-1 played at t + 1
        leaders = np.vstack([np.asarray(x1, dtype=float)[None, :], leaders[:-1]])
    out = [np.asarray(x1, dtype=float)] + [_project(m, radius) for m in leaders[:T - 1]]
    return np.array(out)


def qftl(V, y, alpha, rng, _wrong=None):
    V, y = _data("V", V), _data("y", y)
    T, d = V.shape
    Vt = np.cumsum(V[:, :, None] * V[:, None, :], axis=0)  # V_t for every t at once
    ut = np.cumsum(y[:, None] * V, axis=0)
    xs = [np.zeros(d)]
    for t in range(1, T):
        reg = {"alpha-I": alpha, "late-t": (t + 1) * alpha}.get(_wrong, t * alpha)
        xs.append(np.linalg.solve(reg * np.eye(d) + Vt[t - 1], ut[t - 1]))
    return np.array(xs)


# ---- bound variants, importable as tests.deterministic_ports:NAME

def _bind(fn, wrong):
    def candidate(**kwargs):
        return fn(**kwargs, _wrong=wrong)
    candidate.__name__ = f"{fn.__name__}_{wrong}"
    return candidate


lasso_fw_2_over_t_plus_1 = _bind(lasso_fw, "2/(t+1)")
lasso_fw_2_over_t_plus_3 = _bind(lasso_fw, "2/(t+3)")
lasso_fw_average = _bind(lasso_fw, "average")
erm_fw_off_by_one = _bind(erm_fw, "off-by-one")
erm_fw_zero_start = _bind(erm_fw, "zero-start")
cwme_upper_middle = _bind(cwme, "upper-middle")
cwme_lower_middle = _bind(cwme, "lower-middle")
cwme_no_clip = _bind(cwme, "no-clip")
scof_decaying_step = _bind(scof, "decaying-step")
scof_query_points = _bind(scof, "query-points")
igd_step_index = _bind(igd, "step-index")
igd_no_alpha = _bind(igd, "no-alpha")
giga_step_index = _bind(giga, "step-index")
giga_unit_constant = _bind(giga, "unit-constant")
ftl_late = _bind(ftl, "late")
ftl_count_not_curvature = _bind(ftl, "count-not-curvature")
qftl_alpha_I = _bind(qftl, "alpha-I")
qftl_late_t = _bind(qftl, "late-t")
