"""The test vectors, replayed by independent code that knows only the JSON file and docs/vectors.md.

Each function below is a second implementation written from the paper's lines and from what
docs/vectors.md says is replayed (which draws, in which order, how parameterised); it imports nothing
from the package. It reads a vector as another language would (the file, parsed), consumes the recorded
draws in order and must reproduce the recorded output within the vector's tolerance. This checks both
the reference's outputs (against a second method) and the documentation's description of each draw
stream (a wrong order, parameterisation or selection rule in docs/vectors.md fails here).
Deterministic: no randomness besides the recorded draws.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from reference.oracle.suite import cases
from reference.oracle.vectors import run_case


def _vector(algorithm: str, name: str) -> dict:
    case = next(c for c in cases(algorithm) if c.name == name)
    return json.loads(json.dumps(run_case(case)))


class Draws:
    """The recorded draws as one stream of scalars (each call's values in C order), with their method."""

    def __init__(self, vector: dict):
        self.items = []
        for d in vector["draws"]:
            for v in np.asarray(d["value"], dtype=float).ravel():
                self.items.append((d["method"], float(v)))
        self.position = 0

    def take(self, method: str, n: int | None = None):
        out = []
        for _ in range(1 if n is None else n):
            m, v = self.items[self.position]
            assert m == method, f"draw {self.position} is {m}, the code asked for {method}"
            out.append(v)
            self.position += 1
        return out[0] if n is None else np.array(out)

    def done(self) -> bool:
        return self.position == len(self.items)


def _agrees(vector: dict, got) -> None:
    want = np.asarray(vector["output"], dtype=float)
    got = np.asarray(got, dtype=float)
    assert got.shape == want.shape
    tol = vector["tolerance"]
    assert np.allclose(got, want, rtol=tol["rtol"], atol=tol["atol"]), np.max(np.abs(got - want))


def _ball_projection(y, r):
    n = float(np.linalg.norm(y))
    return y if n <= r else y * (r / n)


# ---- core building blocks

@pytest.mark.parametrize("name", ["laplace-five-candidates", "gumbel-five-candidates", "laplace-two-candidates-law"])
def test_report_noisy_min(name):
    v = _vector("core:report_noisy_min", name)
    s = np.asarray(v["inputs"]["scores"], dtype=float)
    z = Draws(v).take(v["inputs"]["noise"], s.size)
    _agrees(v, int(np.argmax(-s + z)))        # argmax(-score + z): the first maximum wins


@pytest.mark.parametrize("name", ["M0", "M5", "M60"])
def test_truncated_geometric(name):
    v = _vector("core:truncated_geometric", name)
    M = v["inputs"]["M"]
    u = Draws(v).take("random")
    # N = the least k with u < F(k), F(k) = (1 - 2^-(k+1)) / (1 - 2^-(M+1))
    N = next(k for k in range(M + 1) if k == M or u < (1 - 2.0 ** -(k + 1)) / (1 - 2.0 ** -(M + 1)))
    _agrees(v, N)


@pytest.mark.parametrize("name", ["scalar-T7", "vector-T5-d2"])
def test_private_prefix_sums(name):
    v = _vector("core:private_prefix_sums", name)
    xs = np.asarray(v["inputs"]["xs"], dtype=float)
    sigma, draws = v["inputs"]["sigma"], Draws(v)
    shape, size = xs.shape[1:], int(np.prod(xs.shape[1:]))
    exact, noisy, out = {}, {}, []
    for t in range(1, len(xs) + 1):
        h = 0
        while t % 2 ** h == 0:                     # the nodes (h, t / 2^h - 1) completed by x_t, bottom-up
            j = t // 2 ** h - 1
            exact[h, j] = xs[t - 1] if h == 0 else exact[h - 1, 2 * j] + exact[h - 1, 2 * j + 1]
            noisy[h, j] = exact[h, j] + sigma * draws.take("standard_normal", size).reshape(shape)
            h += 1
        # W_t: one node per 1-bit of t, (h, j) tiling [1, t]
        nodes, start = [], 0
        for h in reversed(range(t.bit_length())):
            if t >> h & 1:
                nodes.append((h, start // 2 ** h))
                start += 2 ** h
        out.append(sum(noisy[n] for n in nodes))
    assert draws.done()
    _agrees(v, np.array(out))


# ---- lasso

def _lasso_fw(X, y, T, c, select):
    """Frank-Wolfe on (1/n)||X theta - y||^2 over the l1 ball of radius c from 0, mu_t = 2/(t+2);
    ``select(t, scores)`` picks an index of S = [c e_1..c e_p, -c e_1..-c e_p]."""
    n, p = X.shape
    theta = np.zeros(p)
    for t in range(1, T):
        g = 2.0 / n * X.T @ (X @ theta - y)
        k = select(t, np.concatenate([c * g, -c * g]))
        vertex = np.zeros(p)
        vertex[k % p] = c if k < p else -c
        mu = 2.0 / (t + 2.0)
        theta = (1.0 - mu) * theta + mu * vertex
    return theta


@pytest.mark.parametrize("name", ["n60-p30-T25-c1", "n60-p30-T12-c0.5"])
def test_lasso_algorithm_1(name):
    v = _vector("lasso:Algorithm 1", name)
    kw = v["inputs"]
    _agrees(v, _lasso_fw(np.array(kw["X"]), np.array(kw["y"]), kw["T"], kw["radius"],
                         lambda t, scores: int(np.argmin(scores))))


def test_lasso_corollary_2_7_paper_calibration():
    """T and lambda from the printed formulas; per step 2p Laplace values z, selection argmax(-score + z)."""
    v = _vector("lasso:Corollary 2.7", "laplace-paper-n400-p6")
    kw = v["inputs"]
    X, y, c, eps, delta = np.array(kw["X"]), np.array(kw["y"]), kw["radius"], kw["epsilon"], kw["delta"]
    n = X.shape[0]
    L1, gamma = 2.0 * (c + 1.0), 4.0 * c * c                     # the paper calibration's Gamma = 4 c^2
    value = (gamma * n * eps / (L1 * c)) ** (2.0 / 3.0)
    T = max(1, math.ceil(value - 1e-9 * value))
    lam = L1 * c * math.sqrt(8.0 * T * math.log(1.0 / delta)) / (n * eps)
    draws = Draws(v)
    assert all(abs(d["kwargs"]["arg1"] - lam) <= 1e-12 * lam for d in v["draws"])
    theta = _lasso_fw(X, y, T, c, lambda t, scores: int(np.argmax(-scores + draws.take("laplace", scores.size))))
    assert draws.done()
    _agrees(v, theta)


# ---- erm_geometry

def test_erm_geometry_algorithm_3_l1_constant_step():
    v = _vector("erm_geometry:Algorithm 3", "l1-paper-n50-p30-T15")
    kw = v["inputs"]
    X, y, T = np.array(kw["X"]), np.array(kw["y"]), kw["T"]
    n, p = X.shape
    theta = np.array(kw["theta1"], dtype=float)
    for _ in range(1, T):
        g = X.T @ (X @ theta - y) / n                              # eq. (22): 1/2 (<x, theta> - y)^2
        k = int(np.argmin(np.concatenate([g, -g])))
        vertex = np.zeros(p)
        vertex[k % p] = 1.0 if k < p else -1.0
        theta = theta + (vertex - theta) / T                       # Theorem 5.2's mu = 1/T
    _agrees(v, theta)


# ---- online

def _quadratic(kw):
    return np.array(kw["g"], dtype=float), np.array(kw["a"], dtype=float), np.array(kw["c"], dtype=float)


def _igd(g, a, c, r, alpha, x1):
    xs = [np.asarray(x1, dtype=float)]
    for t in range(1, len(g)):
        eta = 1.0 / (alpha * t)
        xs.append(_ball_projection((xs[-1] - eta * g[t - 1] + eta * a[t - 1] * c[t - 1]) / (1 + eta * a[t - 1]), r))
    return np.array(xs)


@pytest.mark.parametrize("name", ["T15-d3", "T15-d3-alpha0.6"])
def test_online_igd(name):
    v = _vector("online:eq. (13)", name)
    kw = v["inputs"]
    _agrees(v, _igd(*_quadratic(kw), kw["radius"], kw["alpha"], kw["x1"]))


def test_online_giga():
    v = _vector("online:GIGA", "T15-d3")
    kw = v["inputs"]
    g, a, c = _quadratic(kw)
    xs = [np.array(kw["x1"], dtype=float)]
    for t in range(1, len(g)):
        grad = g[t - 1] + a[t - 1] * (xs[-1] - c[t - 1])
        xs.append(_ball_projection(xs[-1] - kw["step_constant"] / (kw["alpha"] * t) * grad, kw["radius"]))
    _agrees(v, np.array(xs))


def test_online_ftl():
    v = _vector("online:eq. (20)", "T15-d3")
    kw = v["inputs"]
    g, a, c = _quadratic(kw)
    xs = [np.array(kw["x1"], dtype=float)]
    for t in range(1, len(g)):
        leader = (a[:t, None] * c[:t] - g[:t]).sum(axis=0) / a[:t].sum()
        xs.append(_ball_projection(leader, kw["radius"]))
    _agrees(v, np.array(xs))


def test_online_qftl():
    v = _vector("online:eq. (21)", "T15-d3")
    kw = v["inputs"]
    V, y, alpha = np.array(kw["V"]), np.array(kw["y"]), kw["alpha"]
    d = V.shape[1]
    xs = [np.zeros(d)]
    for t in range(1, len(y)):
        xs.append(np.linalg.solve(t * alpha * np.eye(d) + V[:t].T @ V[:t], V[:t].T @ y[:t]))
    _agrees(v, np.array(xs))


def test_online_algorithm_1_paper_calibration():
    """POCP with IGD: beta of line 7 as printed; round t adds (beta / t) standard_normal(d), then projects."""
    v = _vector("online:Algorithm 1", "igd-paper-T12-d2-eps2500")
    kw = v["inputs"]
    g, a, c = _quadratic(kw)
    T, eps, delta, lam, r = len(g), kw["epsilon"], kw["delta"], kw["lam"], kw["radius"]
    cc = math.log(0.5 * math.log(2.0 / delta)) / (2.0 * math.log(T))
    P = T ** (0.5 + cc)
    beta = lam * P * math.sqrt(2.0 / eps * (math.log(T / delta) + math.sqrt(eps) / P))
    xs = _igd(g, a, c, r, kw["alpha"], kw["x1"])                   # the uncorrupted iterates
    draws = Draws(v)
    out = [xs[0]] + [_ball_projection(xs[t] + beta / t * draws.take("standard_normal", len(xs[t])), r)
                     for t in range(1, T)]
    assert draws.done()
    _agrees(v, np.array(out))


def test_online_algorithm_6_paper_calibration():
    """POL: IGD on l + (alpha/2)||x||^2 (alpha = eps_g / B^2) over z_1..z_(T-1), the average of x_1..x_T,
    one beta * standard_normal(d), projection."""
    v = _vector("online:Algorithm 6", "paper-T100-d2")
    kw = v["inputs"]
    g, a, c = _quadratic(kw)
    T, eps, delta, L, B, r = len(g), kw["epsilon_p"], kw["delta"], kw["L"], kw["x_star_bound"], kw["radius"]
    alpha = kw["epsilon_g"] / B ** 2
    a2 = a + alpha                                                 # f + (alpha/2)||x||^2 is again in family (Q)
    xs = _igd(g, a2, a[:, None] * c / a2[:, None], r, alpha, kw["x1"])
    beta = 2 * math.sqrt(2) * (L + alpha * B) * math.log(T) / (T * eps) * math.sqrt(math.log(1 / delta) + eps)
    draws = Draws(v)
    out = _ball_projection(xs.mean(axis=0) + beta * draws.take("standard_normal", g.shape[1]), r)
    assert draws.done()
    _agrees(v, out)


# ---- saddle_point

@pytest.mark.parametrize("name", ["N0-M2-game3x2", "N2-M3-game3x2", "N1-M3-cubic0.8-game3x2", "N2-M4-curved-game3x2"])
def test_saddle_point_algorithm_2(name):
    """The cubic case adds (c/6)(sum x_j^3 - sum y_j^3) to the game: gradient terms (c/2) x^2 and -(c/2) y^2. The curved
    case's records carry their own curvatures a_z, b_z, coupling c_z C_ij x_i^2 y_j and linear terms u_z, v_z:
    gradient (A y + (a/2) x^2 + c x (C y) + u, A^T x - (b/2) y^2 + (c/2) C^T x^2 - v), batch means of the per-record
    coefficients."""
    v = _vector("saddle_point:Algorithm 2", name)
    kw = v["inputs"]
    z = np.array(kw["data"])[np.array(kw["batch"])]
    A = np.array(kw["atoms"], dtype=float)[z].mean(axis=0)
    x, y, N, M, c = np.array(kw["x"]), np.array(kw["y"]), kw["N"], kw["M"], kw.get("cubic", 0.0)
    curved = kw.get("a") is not None
    if curved:
        mean_of = lambda key: np.array(kw[key], dtype=float)[z].mean(axis=0)
        ca, cb, cc, cu, cv, CC = mean_of("a"), mean_of("b"), mean_of("c"), mean_of("u"), mean_of("v"), np.array(kw["C"])
    draws = Draws(v)

    def vertices(point, k):                    # inverse CDF, one uniform per vertex
        cdf = np.cumsum(point)
        return [min(int(np.searchsorted(cdf, u * cdf[-1], side="right")), point.size - 1)
                for u in draws.take("random", k)]

    def mean(idx, d):
        return np.bincount(idx, minlength=d) / len(idx)

    m = 2 ** (N + 1)
    ix0, iy0, ix, iy = vertices(x, 1), vertices(y, 1), vertices(x, m), vertices(y, m)
    def gradient(xs, ys):
        if curved:
            return (A @ ys + ca / 2 * xs ** 2 + cc * xs * (CC @ ys) + cu,
                    A.T @ xs - cb / 2 * ys ** 2 + cc / 2 * (CC.T @ xs ** 2) - cv)
        return A @ ys + c / 2 * xs ** 2, A.T @ xs - c / 2 * ys ** 2

    grad = [gradient(mean(a_, 3), mean(b, 2)) for a_, b in
            ((ix0, iy0), (ix, iy), (ix[:m // 2], iy[:m // 2]), (ix[m // 2:], iy[m // 2:]))]
    p_N = 2.0 ** -N / (2 * (1 - 2.0 ** -(M + 1)))
    g = [grad[0][k] + (grad[1][k] - 0.5 * (grad[2][k] + grad[3][k])) / p_N for k in (0, 1)]
    assert draws.done()
    _agrees(v, np.r_[g[0], g[1]])


# ---- heavy_tailed

def _median_of_clipped_means(X, tau, beta):
    """heavy_tailed Algorithm 3 from its lines: m = ceil(4 ln(2d/beta)) buckets of floor(n/m) consecutive
    samples (the rest unused), each sample clipped to [-3 tau, 3 tau] coordinate-wise before the bucket's mean,
    the coordinate-wise median of the m means (the two middle ones averaged when m is even)."""
    X = np.asarray(X, dtype=float)
    n, d = X.shape
    m = math.ceil(4.0 * math.log(2.0 * d / beta) - 1e-12)
    b = n // m
    means = np.array([np.clip(X[i * b:(i + 1) * b], -3.0 * tau, 3.0 * tau).mean(axis=0) for i in range(m)])
    means.sort(axis=0)
    return 0.5 * (means[(m - 1) // 2] + means[m // 2])


@pytest.mark.parametrize("name", ["n90-d3-tau2-beta0.2", "n300-d3-tau0.5-beta0.2"])
def test_heavy_tailed_algorithm_3(name):
    v = _vector("heavy_tailed:Algorithm 3", name)
    kw = v["inputs"]
    assert not v["draws"]
    _agrees(v, _median_of_clipped_means(kw["X"], kw["tau"], kw["beta"]))


@pytest.mark.parametrize("name", ["strongly-convex-n120-d2-T4", "convex-n120-d2-T5-radius0.25"])
def test_heavy_tailed_algorithm_1(name):
    """SCOF on ||w - x||^2 / 2 (gradient w - x) with Algorithm 3 as the oracle: w^0 = 0, w^t = Pi(w^(t-1) -
    eta g_t) on the ball; convex: g_t from all of X, output the mean of w^1..w^T; strongly convex: g_t from
    the t-th of T batches of floor(n/T), output w^T."""
    v = _vector("heavy_tailed:Algorithm 1", name)
    kw = v["inputs"]
    X = np.asarray(kw["X"], dtype=float)
    T, eta, r = kw["T"], kw["eta"], kw["radius"]
    batch = X.shape[0] // T
    w, ws = np.zeros(X.shape[1]), []
    for t in range(1, T + 1):
        S = X if kw["mode"] == "convex" else X[(t - 1) * batch:t * batch]
        w = _ball_projection(w - eta * _median_of_clipped_means(w - S, kw["tau"], kw["beta"]), r)
        ws.append(w)
    _agrees(v, np.mean(ws, axis=0) if kw["mode"] == "convex" else ws[-1])


@pytest.mark.parametrize("name", ["paper-game3x2-n60-T20", "paper-offcentre3x2-n200-T5-K1-eps10"])
def test_saddle_point_algorithm_1(name):
    """Algorithm 1 at Proposition 3.3's step eta = eps0 B / (4 L0), eps0 = eps / (2 sqrt(2 N log(1/delta))),
    N = 2 (K + 1) T vertex draws, B = floor(n / T), L0 = max |A_ij| (the bilinear game's l_inf gradient bound
    on the simplices); per step the two output vertices, then K vertices of x_t and K of y_t, the batch
    gradient at their means, x descending and y ascending by the entropic step."""
    v = _vector("saddle_point:Algorithm 1", name)
    kw = v["inputs"]
    atoms, data = np.array(kw["atoms"], dtype=float), np.array(kw["data"]).astype(int)
    eps, delta, T, K = kw["epsilon"], kw["delta"], kw["T"], kw["K"]
    _, dx, dy = atoms.shape
    B = len(data) // T
    eta = eps / (2 * math.sqrt(2 * 2 * (K + 1) * T * math.log(1 / delta))) * B / (4 * np.abs(atoms).max())
    draws = Draws(v)

    def vertices(point, k):
        cdf = np.cumsum(point)
        return [min(int(np.searchsorted(cdf, u * cdf[-1], side="right")), point.size - 1)
                for u in draws.take("random", k)]

    def mean(idx, d):
        return np.bincount(idx, minlength=d) / len(idx)

    x, y, out_x, out_y = np.full(dx, 1 / dx), np.full(dy, 1 / dy), [], []
    for t in range(T):
        out_x += vertices(x, 1)
        out_y += vertices(y, 1)
        x_hat, y_hat = mean(vertices(x, K), dx), mean(vertices(y, K), dy)
        A = atoms[data[t * B:(t + 1) * B]].mean(axis=0)
        x = x * np.exp(-eta * (A @ y_hat))
        y = y * np.exp(eta * (A.T @ x_hat))
        x, y = x / x.sum(), y / y.sum()
    assert draws.done()
    _agrees(v, np.r_[mean(out_x, dx), mean(out_y, dy)])
