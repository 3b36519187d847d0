"""Sensitivity of the private learners' iterates (Lemma 4, Lemma 5, eq. (35)) on neighbouring streams.

Each test runs the algorithm's own loop on F and on F' (one loss replaced, at a round hypothesis
chooses, including the worst: the round just before the iterate), with the same seed and x_1, and
compares the non-private iterates the result carries. The counterexamples to the printed constants
are those of errata online-E02 and online-E05, recomputed by hand in the docstrings.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.algorithms import online as ol
from reference.geometry.sets import L2Ball


def _q(rng, d, alpha, r):
    g = rng.uniform(-1, 1, d)
    g *= rng.uniform(0, 5) / max(np.linalg.norm(g), 1e-12)
    c = rng.uniform(-1, 1, d)
    c *= rng.uniform(0, r) / max(np.linalg.norm(c), 1e-12)
    return ol.QuadraticLoss(g, alpha * rng.uniform(1, 3), c)


@pytest.mark.claim("online:Lemma 4")
@given(d=st.integers(1, 3), T=st.integers(2, 30), la=st.floats(-2, 1), lr=st.floats(-1, 1),
       seed=st.integers(0, 2**31), tau_frac=st.floats(0, 1))
def test_igd_sensitivity_with_the_one_over_alpha(d, T, la, lr, seed, tau_frac):
    alpha, r = 10 ** la, 10 ** lr
    rng = np.random.default_rng(seed)
    C = L2Ball(d, r)
    F = [_q(rng, d, alpha, r) for _ in range(T)]
    tau = min(T - 1, 1 + int(tau_frac * (T - 1)))
    F2 = list(F)
    F2[tau - 1] = _q(rng, d, alpha, r)
    L = max(f.lipschitz(C) for f in F + F2)
    run = lambda fs: ol.private_igd(fs, C, T, 1.0, 1e-3, L, alpha, np.random.default_rng(0), x1=np.zeros(d),
                                    calibration="certified").iterates
    X, X2 = run(F), run(F2)
    lam = ol.igd_sensitivity(L, alpha)
    for t in range(1, T):
        diff = float(np.linalg.norm(X[t] - X2[t]))          # x_{t+1}
        if t < tau:
            assert diff == 0.0
        assert diff <= 2 * L / (alpha * (t + 1)) * (1 + 1e-9) + 1e-12
        assert diff <= lam / t * (1 + 1e-9) + 1e-12


@pytest.mark.claim("online:Lemma 4")
def test_printed_igd_constant_fails():
    """alpha = 0.1, C = [-10, 10], x_1 = 0, f_1 = +-x + 0.05 x^2 (L = 1 + 0.1 * 10 = 2): x_2 = -+5, so
    |x_2 - x_2'| = 10 > 2L/1 = 4 (printed), <= 2L/(alpha * 2) = 20 (corrected)."""
    C = L2Ball(1, 10.0)
    run = lambda s: ol.igd([ol.QuadraticLoss([s], 0.1, [0.0]), ol.QuadraticLoss([0.0], 0.1, [0.0])], C, 0.1,
                           x1=np.zeros(1)).decisions
    diff = abs(run(1.0)[1, 0] - run(-1.0)[1, 0])
    assert diff == pytest.approx(10.0)
    assert diff > 2 * 2.0 / 1
    assert diff <= ol.igd_sensitivity(2.0, 0.1)


@pytest.mark.claim("online:Lemma 5")
@given(d=st.integers(1, 3), T=st.integers(3, 30), seed=st.integers(0, 2**31), tau_frac=st.floats(0, 1),
       kappa=st.floats(1, 1.6), la=st.floats(-1, 1))
def test_giga_sensitivity_after_warmup(d, T, seed, tau_frac, kappa, la):
    rng = np.random.default_rng(seed)
    alpha = 10 ** la
    LG = kappa * alpha
    C = L2Ball(d, 1.0)

    def loss():
        a = rng.uniform(alpha, LG)          # isotropic curvature in [alpha, L_G]
        return ol.QuadraticLoss(rng.uniform(-1, 1, d), a, rng.uniform(-0.5, 0.5, d) / math.sqrt(d))

    F = [loss() for _ in range(T)]
    tq = ol.giga_warmup(LG, alpha)
    if tq >= T:
        return
    tau = min(T - 1, 1 + int(tau_frac * (T - 1)))
    F2 = list(F)
    F2[tau - 1] = loss()
    G = max(f.grad_bound(C) for f in F + F2)
    run = lambda fs: ol.private_giga(fs, C, T, 1.0, 1e-3, G, LG, alpha, np.random.default_rng(1),
                                     calibration="certified").iterates
    X, X2 = run(F), run(F2)
    for t in range(1, T):
        diff = float(np.linalg.norm(X[t] - X2[t]))
        if t < max(tau, tq):
            assert diff == 0.0                 # warm-up points are data-independent
        else:
            assert diff <= ol.giga_sensitivity(G, alpha) / t * (1 + 1e-9) + 1e-12


@pytest.mark.claim("online:Lemma 5")
def test_printed_giga_constant_fails():
    """alpha = L_G = 1, C = [-1, 1], f_1..f_3 = x^2/2 (x stays 0), f_4 = +-2x + x^2/2 (G = 3):
    x_5 = -+1, |x_5 - x_5'| = 2 > 2G/(alpha 4) = 1.5 (Lemma 5 as printed), <= 4G/(alpha 4) = 3."""
    C = L2Ball(1, 1.0)
    q = ol.QuadraticLoss([0.0], 1.0, [0.0])
    run = lambda s: ol.giga([q, q, q, ol.QuadraticLoss([2.0 * s], 1.0, [0.0]), q], C, 1.0, x1=np.zeros(1),
                            step_constant=2.0).decisions
    diff = abs(run(1.0)[4, 0] - run(-1.0)[4, 0])
    assert diff == pytest.approx(2.0)
    assert diff > 2 * 3.0 / (1.0 * 4)
    assert diff <= ol.giga_sensitivity(3.0, 1.0) / 4


@pytest.mark.claim("online:eq. (35)")
@given(T=st.integers(2, 200), s=st.floats(0.05, 1.0), lb=st.floats(-0.5, 0.5), seed=st.integers(0, 1000),
       tau_frac=st.floats(0, 1))
def test_pol_average_sensitivity(T, s, lb, seed, tau_frac):
    B, eps_g = 10 ** lb, 0.1
    rng = np.random.default_rng(seed)
    z = rng.uniform(-s, s, T)
    tau = 1 + int(tau_frac * (T - 1))
    z2 = z.copy()
    z2[tau - 1] = -z[tau - 1] if z[tau - 1] else s
    run = lambda zs: ol.private_offline_learning([ol.QuadraticLoss([v], 0.0, [0.0]) for v in zs], None, 1.0, 1e-5,
                                                 eps_g, s, B, np.random.default_rng(0), d=1, x1=np.zeros(1),
                                                 calibration="certified").extra["average"]
    diff = abs(run(z)[0] - run(z2)[0])
    alpha = eps_g / B ** 2
    assert diff <= ol.pol_sensitivity(s, alpha, T) * (1 + 1e-9) + 1e-15


@pytest.mark.claim("online:eq. (35)")
def test_pol_sensitivity_attained_and_printed_bound_fails():
    """T = 20, B = 1, eps_g = 0.1 (alpha = 0.1), z_1 = +-0.2, then zeros, x_1 = 0: x_2 = -+1 and
    x_{t+1} = x_t t/(t+1), so the average moves by 4 (H_T - 1)/T = 2 L (H_T - 1)/(alpha T) with L = 0.2,
    against the paper's 2 (L + alpha B) ln T / T."""
    T = 20
    run = lambda s: ol.private_offline_learning(
        [ol.QuadraticLoss([0.2 * s], 0.0, [0.0])] + [ol.QuadraticLoss([0.0], 0.0, [0.0])] * (T - 1), None, 1.0,
        1e-5, 0.1, 0.2, 1.0, np.random.default_rng(0), d=1, x1=np.zeros(1)).extra["average"][0]
    diff = abs(run(1.0) - run(-1.0))
    H = sum(1.0 / k for k in range(1, T + 1))
    assert diff == pytest.approx(4 * (H - 1) / T, rel=1e-12)
    assert diff == pytest.approx(ol.pol_sensitivity(0.2, 0.1, T), rel=1e-12)
    assert diff > 2 * (0.2 + 0.1 * 1.0) * math.log(T) / T


def _igd_worst_pair_ratio(d, alpha, g_norm, c_norm, T, tau, rng):
    """The extremal pair for Lemma 4: rounds != tau pay f = (alpha/2)||x - c||^2 (IGD stays at x_1 = c != 0);
    round tau pays f = <+-g, x> + (alpha/2)||x - c||^2, so x_{tau+1} = c -+ g/(alpha (tau + 1)) (no projection:
    C is the smallest ball holding both). Returns max_t t ||x_{t+1} - x'_{t+1}|| / lambda over the run of the
    real private_igd (its non-private iterates), lambda = igd_sensitivity(L, alpha), L = ||g|| + alpha (||c|| + r)
    (the loss class's Lipschitz bound on C)."""
    u = rng.standard_normal(d)
    g = g_norm * u / np.linalg.norm(u)
    w = rng.standard_normal(d)
    c = c_norm * w / np.linalg.norm(w)
    r = c_norm + g_norm / (alpha * (tau + 1)) * (1 + 1e-9)
    C = L2Ball(d, r)
    L = g_norm + alpha * (c_norm + r)

    def stream(sign):
        fs = [ol.QuadraticLoss(np.zeros(d), alpha, c) for _ in range(T)]
        fs[tau - 1] = ol.QuadraticLoss(sign * g, alpha, c)
        return fs

    run = lambda s: ol.private_igd(stream(s), C, T, 1.0, 1e-3, L, alpha, np.random.default_rng(0), x1=c,
                                   calibration="certified").iterates
    X, X2 = run(1.0), run(-1.0)
    t = np.arange(1, T)
    diffs = np.linalg.norm(X[1:] - X2[1:], axis=1)
    # the pair's own shift, recomputed: 2||g||/(alpha (tau + 1)) at round tau, then x_{t+1} - c = (x_t - c) t/(t+1)
    want = np.where(t < tau, 0.0, 2 * g_norm / (alpha * (tau + 1)) * (tau + 1) / (t + 1))
    np.testing.assert_allclose(diffs, want, rtol=1e-9, atol=1e-15)
    assert np.all(diffs <= 2 * L / (alpha * (t + 1)) * (1 + 1e-9))       # Lemma 4's sharper 2L/(alpha (t+1))
    return float(np.max(t * diffs) / ol.igd_sensitivity(L, alpha))


@pytest.mark.claim("online:Lemma 4")
def test_igd_sensitivity_worst_pair_reaches_the_bound():
    """A worst-pair search over the round tau of the differing loss (and d, alpha, ||c|| != 0), T = 42: after
    round tau the gap is 2||g||/(alpha (t + 1)) at every t, and L = ||g|| (1 + 1/(tau + 1)) + O(||c||), so the
    largest t ||x_{t+1} - x'_{t+1}|| / lambda is ~ (tau + 1)/(tau + 2) (T - 1)/T: 0.95 at tau = 40, never
    above 1. So lambda = 2L/alpha is reached (the random pairs of the hypothesis test reach 0.38), and lambda at
    0.8x (ratio 1.19) or 0.5x (1.9) fails here."""
    rng = np.random.default_rng(4)
    best = 0.0
    for d, alpha, g_norm, c_norm in ((1, 0.5, 3.0, 0.01), (3, 2.0, 5.0, 0.002)):
        for tau in (1, 2, 5, 17, 40):
            ratio = _igd_worst_pair_ratio(d, alpha, g_norm, c_norm, 42, tau, rng)
            assert ratio <= 1 + 1e-9, (d, alpha, tau, ratio)
            best = max(best, ratio)
    assert best >= 0.93, best
