"""Algorithms 2, 3, 4 and 6 line by line: every released decision (and POL's output) recomputed here from the paper's
printed lines, with the same random draws consumed in the order the lines ask for them, and compared to the package.

The recomputations are written from the paper (noise scales in mpmath from the printed formulas; the implicit and
projected steps from their first-order conditions; the tree's prefix sums from the dyadic decomposition of [1, t],
not from the package's tree), with the resolutions docs/errata.md records (online-E03 log base 2 for log T and
online-E08 natural outer log; online-E06 xhat_t = x_t during warm-ups, the (1/2) of eq. (19), PGIGA's warm-up
point x_{t_q}). Instances are generic: curvatures that vary, alpha, L, R != 1, T a power of two and not. Each test
also recomputes one realistic wrong line (an index shifted, a factor lost) and checks the package is far from it:
the comparison can tell a wrong line from a right one.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from reference.algorithms import online as ol
from reference.geometry.sets import L2Ball

TOL = dict(rtol=1e-11, atol=1e-13)


def _ball_project(y, r):
    n = float(np.linalg.norm(y))
    return y.copy() if n <= r else y * (r / n)


def _uniform_ball(rng, d, r):
    """'Choose x_1 randomly from C' on an l2 ball: the draw order of the package's documented sampler (a
    Gaussian direction, then U^(1/d) for the radius)."""
    z = rng.standard_normal(d)
    u = rng.random()
    return z / np.linalg.norm(z) * r * u ** (1.0 / d)


def _beta(lam, T, eps, delta):
    """Algorithm 1-3's beta = lam T^(0.5+c) sqrt((2/eps)(ln(T/delta) + sqrt(eps)/T^(0.5+c))),
    c = ln((1/2) ln(2/delta)) / (2 ln T), in mpmath."""
    with mpmath.workdps(40):
        T, eps, delta = mpmath.mpf(T), mpmath.mpf(eps), mpmath.mpf(delta)
        c = mpmath.log(mpmath.log(2 / delta) / 2) / (2 * mpmath.log(T))
        P = T ** (mpmath.mpf(1) / 2 + c)
        return float(lam * P * mpmath.sqrt(2 / eps * (mpmath.log(T / delta) + mpmath.sqrt(eps) / P)))


def _quad_stream(T, d, seed, a_lo, a_hi, g_scale=0.6):
    rng = np.random.default_rng(seed)
    return [ol.QuadraticLoss(rng.uniform(-g_scale, g_scale, d), rng.uniform(a_lo, a_hi), rng.uniform(-0.4, 0.4, d))
            for _ in range(T)]


def _pigd_by_the_lines(fs, r, T, eps, delta, L, alpha, seed, *, shift=0):
    """Algorithm 2: line 3 x_1 = xhat_1 uniform on C; lines 4-9 for t = 1..T-1: eta_t = 1/(alpha t); x_{t+1} =
    argmin_C (1/2)||x - x_t||^2 + eta_t f_t(x) (family (Q): the isotropic minimiser (x_t - eta g + eta a c)/(1 + eta a)
    projected); xtilde = x_{t+1} + N(0, beta^2/t^2 I) with beta of line 8 (2L); xhat = Pi_C(xtilde). ``shift`` = 1
    is the wrong line 6 eta_t = 1/(alpha (t+1))."""
    rng = np.random.default_rng(seed)
    beta = _beta(2 * L, T, eps, delta)
    x = _uniform_ball(rng, fs[0].dim, r)
    decisions = [x.copy()]
    for t in range(1, T):
        f = fs[t - 1]
        eta = 1.0 / (alpha * (t + shift))
        x = _ball_project((x - eta * f.g + eta * f.a * f.c) / (1 + eta * f.a), r)
        decisions.append(_ball_project(x + beta / t * rng.standard_normal(x.shape), r))
    return np.array(decisions), beta


@pytest.mark.claim("online:Algorithm 2 lines")
@pytest.mark.parametrize("T", [13, 16])
def test_algorithm_2_pigd_every_line(T):
    """PIGD (paper calibration) on family (Q) with curvatures in [0.7, 1.9] (alpha = 0.7), C the ball of radius 1.3
    in d = 3, L = the largest Lipschitz bound, eps = 0.9, delta = 1e-4: every decision xhat_1..xhat_T, the costs
    f_t(xhat_t) (line 5) and beta (line 8) equal the recomputation; the wrong line 6 (1/(alpha (t+1))) is not."""
    r, d, alpha, eps, delta = 1.3, 3, 0.7, 0.9, 1e-4
    C = L2Ball(d, r)
    fs = _quad_stream(T, d, 40 + T, 0.7, 1.9)
    L = max(f.lipschitz(C) for f in fs)
    res = ol.private_igd(fs, C, T, eps, delta, L, alpha, np.random.default_rng(T))
    want, beta = _pigd_by_the_lines(fs, r, T, eps, delta, L, alpha, T)
    assert res.noise_scale == pytest.approx(beta, rel=1e-12)
    assert res.decisions.shape == (T, d)
    assert np.allclose(res.decisions, want, **TOL)
    assert np.allclose(res.costs, [f(x) for f, x in zip(fs, want)], **TOL)
    wrong, _ = _pigd_by_the_lines(fs, r, T, eps, delta, L, alpha, T, shift=1)
    assert np.max(np.abs(res.decisions - wrong)) > 1e-6


def _pgiga_by_the_lines(fs, r, T, eps, delta, G, LG, alpha, seed, *, step=2.0):
    """Algorithm 3: t_q = 2 L_G^2/alpha^2 (rounded up, >= 2; online-E06); line 3 x_1..x_{t_q} uniform on C with
    xhat_t = x_t (the loop's first step reads x_{t_q}); lines 4-9 for t = t_q..T-1: eta_t = 2/(alpha t);
    x_{t+1} = Pi_C(x_t - eta_t grad f_t(x_t)); xtilde = x_{t+1} + N(0, beta^2/t^2 I), beta of line 8 (2G);
    xhat = Pi_C(xtilde). ``step`` = 1 is GIGA's standard step in place of line 6's 2."""
    rng = np.random.default_rng(seed)
    tq = max(2, int(mpmath.ceil(mpmath.mpf(2) * mpmath.mpf(LG) ** 2 / mpmath.mpf(alpha) ** 2)))
    beta = _beta(2 * G, T, eps, delta)
    xs = [_uniform_ball(rng, fs[0].dim, r) for _ in range(tq)]
    decisions = [x.copy() for x in xs]
    x = xs[-1]
    for t in range(tq, T):
        f = fs[t - 1]
        x = _ball_project(x - step / (alpha * t) * (f.g + f.a * (x - f.c)), r)
        decisions.append(_ball_project(x + beta / t * rng.standard_normal(x.shape), r))
    return np.array(decisions), beta, tq


@pytest.mark.claim("online:Algorithm 3 lines")
@pytest.mark.parametrize("T", [21, 32])
def test_algorithm_3_pgiga_every_line(T):
    """PGIGA (paper calibration) on family (Q), curvatures in [0.6, 1.1] (alpha = 0.6, L_G = 1.1: t_q = 7), C the
    ball of radius 0.9 in d = 2, G the largest gradient bound, eps = 1.4, delta = 1e-5: the warm-up length, every
    decision (warm-up points included), the costs and beta equal the recomputation; line 6 with GIGA's 1/(alpha t)
    in place of 2/(alpha t) does not."""
    r, d, alpha, LG, eps, delta = 0.9, 2, 0.6, 1.1, 1.4, 1e-5
    C = L2Ball(d, r)
    fs = _quad_stream(T, d, 70 + T, 0.6, 1.1)
    G = max(f.grad_bound(C) for f in fs)
    res = ol.private_giga(fs, C, T, eps, delta, G, LG, alpha, np.random.default_rng(T + 1))
    want, beta, tq = _pgiga_by_the_lines(fs, r, T, eps, delta, G, LG, alpha, T + 1)
    assert tq == 7 and res.extra["warmup"] == tq
    assert res.noise_scale == pytest.approx(beta, rel=1e-12)
    assert res.decisions.shape == (T, d)
    assert np.allclose(res.decisions, want, **TOL)
    assert np.allclose(res.costs, [f(x) for f, x in zip(fs, want)], **TOL)
    wrong, _, _ = _pgiga_by_the_lines(fs, r, T, eps, delta, G, LG, alpha, T + 1, step=1.0)
    assert np.max(np.abs(res.decisions - wrong)) > 1e-6


def _tree_sigma(R, T, eps, delta):
    """Algorithm 5 line 3: sigma^2 = (R^2/eps) log^2 T log(log T/delta), log T in base 2 (online-E03), the outer
    log natural (online-E08); mpmath."""
    with mpmath.workdps(40):
        lT = mpmath.log(T, 2)
        return float(mpmath.sqrt(mpmath.mpf(R) ** 2 / eps * lT ** 2 * mpmath.log(lT / mpmath.mpf(delta))))


def _pqftl_by_the_lines(fs, T, eps, delta, R, alpha, seed, *, reuse_noise=False):
    """Algorithm 4 with Algorithm 5's trees as dyadic intervals: when item t arrives, the nodes completed are the
    intervals (t - 2^j, t] for every 2^j dividing t (smallest first), each drawing its noise once (line 7 for the
    leaf, line 11 for the ancestors); round t draws the V-tree's (d x d) noises, then the u-tree's (d). The prefix
    [1, t] is the intervals of the binary digits of t (line 13), its release the sum of their noisy values (line 14).
    Line 9: xhat_{t+1} = (t alpha I + Vhat_t)^(-1) uhat_t. ``reuse_noise``: the wrong tree that adds fresh noise
    to every node of the prefix at every round (no node noise kept)."""
    rng = np.random.default_rng(seed)
    d = fs[0].dim
    sV, su = _tree_sigma(R * R, T, eps / 2, delta / 2), _tree_sigma(R, T, eps / 2, delta / 2)
    noisy_V, noisy_u = {}, {}
    xhat = np.zeros(d)
    decisions = [xhat]
    for t in range(1, T):
        f = fs[t - 1]
        for noisy, sig, shape in ((noisy_V, sV, (d, d)), (noisy_u, su, (d,))):
            size = 1
            while t % size == 0:
                exact = sum((np.outer(g.v, g.v) if shape == (d, d) else g.y * g.v) for g in fs[t - size:t])
                noisy[(t - size, t)] = exact + sig * rng.standard_normal(shape)
                size *= 2
        intervals, start = [], 0
        for bit in reversed(range(t.bit_length())):
            if t >> bit & 1:
                intervals.append((start, start + (1 << bit)))
                start += 1 << bit
        if reuse_noise:
            V_hat = sum(noisy_V[i] for i in intervals) + sV * rng.standard_normal((d, d))
        else:
            V_hat = sum(noisy_V[i] for i in intervals)
        u_hat = sum(noisy_u[i] for i in intervals)
        xhat = np.linalg.solve(t * alpha * np.eye(d) + V_hat, u_hat)
        decisions.append(xhat)
    return np.array(decisions), sV, su


@pytest.mark.claim("online:Algorithm 4 lines")
@pytest.mark.parametrize("T", [12, 16])
def test_algorithm_4_pqftl_every_line(T):
    """PQFTL (paper calibration) on eq. (19)'s losses with R = 1.6, alpha = 0.45, d = 3, eps = 2.0, delta = 1e-3:
    both trees' sigma (line 7 at (R^2, eps/2, delta/2), line 8 at (R, eps/2, delta/2)), every decision and the
    costs equal the recomputation; a V-tree that draws extra noise at the read of each prefix does not."""
    R, alpha, d, eps, delta = 1.6, 0.45, 3, 2.0, 1e-3
    rng = np.random.default_rng(90 + T)
    fs = []
    for _ in range(T):
        v = rng.uniform(-1, 1, d)
        v *= R * rng.uniform(0.2, 1.0) / np.linalg.norm(v)
        fs.append(ol.SquaredLoss(v, R * rng.uniform(-1, 1), alpha))
    res = ol.pqftl(fs, T, eps, delta, R, alpha, np.random.default_rng(T + 2))
    want, sV, su = _pqftl_by_the_lines(fs, T, eps, delta, R, alpha, T + 2)
    assert res.noise_scale == pytest.approx(sV, rel=1e-12)
    assert res.extra["sigma_u"] == pytest.approx(su, rel=1e-12)
    assert res.decisions.shape == (T, d)
    assert np.allclose(res.decisions, want, **TOL)
    assert np.allclose(res.costs, [f(x) for f, x in zip(fs, want)], **TOL)
    wrong, _, _ = _pqftl_by_the_lines(fs, T, eps, delta, R, alpha, T + 2, reuse_noise=True)
    assert np.max(np.abs(res.decisions - wrong)) > 1e-6


def _pol_by_the_lines(fs, T, d, eps_p, delta, eps_g, L, B, seed, *, divide_by=None):
    """Algorithm 6: line 3 C = the ball of radius B; line 4 x_1 uniform on C; line 5 alpha = eps_g/B^2; lines 6-11
    s = x_1 + x_2 + ... + x_T with x_{t+1} = argmin_C (1/2)||x - x_t||^2 + eta_t (f_t(x) + (alpha/2)||x||^2),
    eta_t = 1/(alpha t), t = 1..T-1 (family (Q): (x_t - eta g + eta a c)/(1 + eta (a + alpha)) projected); line 12
    xtilde = s/T; line 13 + N(0, beta^2 I), beta = 2 sqrt2 (L + alpha B) ln T/(T eps_p) sqrt(ln(1/delta) + eps_p);
    line 14 Pi_C. ``divide_by``: the wrong line 12 (s divided by another count)."""
    rng = np.random.default_rng(seed)
    x = _uniform_ball(rng, d, B)
    alpha = eps_g / B ** 2
    s = x.copy()
    for t in range(1, T):
        f = fs[t - 1]
        eta = 1.0 / (alpha * t)
        x = _ball_project((x - eta * f.g + eta * f.a * f.c) / (1 + eta * (f.a + alpha)), B)
        s = s + x
    x_avg = s / (T if divide_by is None else divide_by)
    with mpmath.workdps(40):
        beta = float(2 * mpmath.sqrt(2) * (L + alpha * B) * mpmath.log(T) / (T * mpmath.mpf(eps_p))
                     * mpmath.sqrt(mpmath.log(1 / mpmath.mpf(delta)) + eps_p))
    x_bar = x_avg + beta * rng.standard_normal(d)
    return _ball_project(x_bar, B), x_avg, beta, alpha


@pytest.mark.claim("online:Algorithm 6 lines")
@pytest.mark.parametrize("T", [15, 64])
def test_algorithm_6_pol_every_line(T):
    """POL (paper calibration, C = R^d so line 3 takes the ball of radius B = 1.7) on family (Q) data with
    curvatures in [0, 0.8], d = 3, eps_p = 3.0, delta = 1e-5, eps_g = 0.35, L the largest Lipschitz bound: alpha,
    every IGD iterate's average (line 12), beta and the released point equal the recomputation; dividing the sum
    by T - 1 (the number of IGD steps) does not."""
    d, B, eps_p, delta, eps_g = 3, 1.7, 3.0, 1e-5, 0.35
    fs = _quad_stream(T, d, 120 + T, 0.0, 0.8, g_scale=0.5)
    L = max(f.lipschitz(L2Ball(d, B)) for f in fs)
    res = ol.private_offline_learning(fs, None, eps_p, delta, eps_g, L, B, np.random.default_rng(T + 3), d=d)
    want, avg, beta, alpha = _pol_by_the_lines(fs, T, d, eps_p, delta, eps_g, L, B, T + 3)
    assert res.extra["alpha"] == pytest.approx(alpha, rel=1e-14)
    assert res.noise_scale == pytest.approx(beta, rel=1e-12)
    assert np.allclose(res.extra["average"], avg, **TOL)
    assert np.allclose(res.decisions[0], want, **TOL)
    wrong, _, _, _ = _pol_by_the_lines(fs, T, d, eps_p, delta, eps_g, L, B, T + 3, divide_by=T - 1)
    assert np.max(np.abs(res.decisions[0] - wrong)) > 1e-6
