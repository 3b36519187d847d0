"""Regret (Definition 1) against the best fixed decision in hindsight (exact for family (Q) and for
eq. (19) on R^d): the explicit base-learner bounds, Theorem 2's bound where it bites, and the rates
of Theorems 4 and 8 with rate negative controls (reference/audit/rates.fit_rate, standards.assert_rate)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.algorithms import online as ol
from reference.audit.rates import fit_rate
from reference.audit.standards import assert_bound_bites, assert_rate
from reference.geometry.sets import L2Ball


def quad_stream(T, d, rng, a=1.0, r=1.0):
    return [ol.QuadraticLoss(rng.uniform(-0.5, 0.5, d), a, rng.uniform(-0.3, 0.3, d)) for _ in range(T)]


@pytest.mark.claim("online:IGD regret")
@given(T=st.integers(1, 60), d=st.integers(1, 3), seed=st.integers(0, 10**6), la=st.floats(-1, 1))
def test_igd_regret_explicit_bound(T, d, seed, la):
    rng = np.random.default_rng(seed)
    alpha = 10 ** la
    C = L2Ball(d, 1.0)
    fs = [ol.QuadraticLoss(rng.uniform(-1, 1, d), alpha * rng.uniform(1, 2), rng.uniform(-0.5, 0.5, d) / d)
          for _ in range(T)]
    x1 = ol.uniform_point(C, rng)
    run = ol.igd(fs, C, alpha, x1=x1)
    x_star, how = ol.best_fixed_decision(fs, C)
    assert how.startswith("exact")
    L = max(f.lipschitz(C) for f in fs)
    H = sum(1.0 / k for k in range(1, T + 1))
    bound = alpha / 2 * float(np.sum((x1 - x_star) ** 2)) + L * L / (2 * alpha) * H
    assert ol.regret(fs, run.decisions, C) <= bound * (1 + 1e-9) + 1e-9


@pytest.mark.claim("online:eq. (22)")
@given(T=st.integers(1, 40), d=st.integers(1, 3), lR=st.floats(-1.5, 1), la=st.floats(-1.5, 2),
       seed=st.integers(0, 10**6))
def test_qftl_regret_with_one_plus_log(T, d, lR, la, seed):
    rng = np.random.default_rng(seed)
    R, alpha = 10 ** lR, 10 ** la
    fs = []
    for _ in range(T):
        v = rng.standard_normal(d)
        fs.append(ol.SquaredLoss(R * v / np.linalg.norm(v), R * rng.choice([-1.0, 1.0]), alpha))
    run = ol.qftl(fs, alpha, d=d)
    bound = R ** 4 * (1 + 2 * R / alpha) ** 2 * (1 + math.log(T)) / alpha
    assert ol.regret(fs, run.decisions) <= bound * (1 + 1e-9)


@pytest.mark.claim("online:eq. (22)")
def test_qftl_regret_printed_log_fails_at_T1():
    """T = 1, alpha = v = y = 1: x_1 = 0 pays 1/2, x* = 1/2 pays 1/4: regret 1/4 > R^4 (...) log 1 = 0."""
    f = ol.SquaredLoss([1.0], 1.0, 1.0)
    reg = ol.regret([f], ol.qftl([f], 1.0, d=1).decisions)
    assert reg == pytest.approx(0.25)
    assert reg > 1 ** 4 * (1 + 2) ** 2 / 1 * math.log(1)


@pytest.mark.claim("online:QFTL norm")
@given(t=st.integers(1, 8), d=st.integers(1, 3), lR=st.floats(-1, 1.5), la=st.floats(-2, 2),
       seed=st.integers(0, 10**6))
def test_qftl_iterate_norm(t, d, lR, la, seed):
    rng = np.random.default_rng(seed)
    R, alpha = 10 ** lR, 10 ** la
    fs = [ol.SquaredLoss(R * rng.uniform(-1, 1, d) / math.sqrt(d), R * rng.uniform(-1, 1), alpha) for _ in range(t)]
    x = ol.qftl(fs + fs[:1], alpha, d=d).decisions[t]
    assert np.linalg.norm(x) <= min(R / (2 * math.sqrt(alpha)), R * R / alpha) * (1 + 1e-9)


@pytest.mark.claim("online:QFTL norm")
def test_qftl_printed_norm_bound_fails():
    """d = 1, v = y = R = 10, alpha = 100: x_{t+1} = 100 t / (100 t + 100 t) = 1/2 > 2R/alpha = 0.2."""
    fs = [ol.SquaredLoss([10.0], 10.0, 100.0)] * 4
    x = ol.qftl(fs, 100.0, d=1).decisions
    assert np.allclose(x[1:, 0], 0.5) and x[1, 0] > 2 * 10 / 100


@pytest.mark.claim("online:Theorem 2")
def test_pocp_expected_regret_within_theorem_2():
    """POCP with IGD (lambda = 2L/alpha, paper beta), d = 2, T = 2000, eps = 1e4, delta = 0.01: the mean of 5
    runs plus 3 standard errors is below the bound, which is below the trivial bound T x (range of f on C)."""
    rng = np.random.default_rng(1)
    d, T, eps, delta, alpha = 2, 2000, 1e4, 0.01, 1.0
    C = L2Ball(d, 1.0)
    fs = quad_stream(T, d, rng)
    L = max(f.lipschitz(C) for f in fs)
    lam = ol.igd_sensitivity(L, alpha)
    base = ol.regret(fs, ol.igd(fs, C, alpha, x1=np.zeros(d)).decisions, C)
    regs = [ol.regret(fs, ol.pocp(fs, C, ol.igd_update(alpha), lam, T, eps, delta, np.random.default_rng(s),
                                  x1=np.zeros(d)).decisions, C) for s in range(5)]
    bound = 2 * math.sqrt(d) * L * (lam + 2.0) * math.sqrt(T) * math.log(T / delta) ** 2 / math.sqrt(eps) + base
    assert_bound_bites(bound, T * L * 2.0, what="Theorem 2")
    assert np.mean(regs) + 3 * np.std(regs, ddof=1) / math.sqrt(5) <= bound


def _pigd_regret(T, seed, constant_noise=False):
    rng = np.random.default_rng(seed)
    d, alpha = 2, 1.0
    C = L2Ball(d, 1.0)
    fs = quad_stream(T, d, rng)
    L = max(f.lipschitz(C) for f in fs)
    if not constant_noise:
        res = ol.private_igd(fs, C, T, 1.0, 1e-3, L, alpha, rng, calibration="certified", x1=np.zeros(d))
        return ol.regret(fs, res.decisions, C)
    # rate negative control: the same IGD iterates, noise beta at every round instead of beta / t
    beta = ol.pocp_noise_scale(ol.igd_sensitivity(L, alpha), T, 1.0, 1e-3, "certified")
    xs = ol.igd(fs, C, alpha, x1=np.zeros(d)).decisions
    dec = [xs[0]] + [ol._project(C, x + beta * rng.standard_normal(d)) for x in xs[1:]]
    return ol.regret(fs, np.array(dec), C)


@pytest.mark.claim("online:Theorem 4")
def test_pigd_regret_rate_is_sqrt_T():
    Ts = (100, 200, 400, 800, 1600)
    ys = [[_pigd_regret(T, 100 * T + r) for r in range(4)] for T in Ts]
    fit = fit_rate(Ts, ys, np.random.default_rng(0))
    assert_rate(fit, 0.5, 1.0, relation="at_most", tolerance=0.2, what="PIGD regret in T")
    ctrl = fit_rate(Ts, [[_pigd_regret(T, 100 * T + r, True) for r in range(4)] for T in Ts],
                    np.random.default_rng(0))
    assert ctrl.lower > 0.7, ctrl          # the control is linear: the check tells sqrt T from T


def _pqftl_regret(T, seed, naive=False):
    rng = np.random.default_rng(seed)
    d, R, alpha, eps, delta = 2, 1.0, 2.0, 20.0, 0.01
    fs = []
    x_true = np.array([0.4, -0.3])
    for _ in range(T):
        v = rng.uniform(-1, 1, d) / math.sqrt(d)
        fs.append(ol.SquaredLoss(v, float(np.clip(v @ x_true + 0.1 * rng.standard_normal(), -1, 1)), alpha))
    if not naive:
        return ol.regret(fs, ol.pqftl(fs, T, eps, delta, R, alpha, rng, calibration="certified").decisions)
    # rate negative control: the naive private prefix sums of §3.5.1, fresh noise at every round, calibrated
    # for the T - 1 releases of each sum (l2 sensitivity 2 R^2 per release); its iterates are projected onto
    # the ball ||x|| <= B_x that holds the QFTL iterates (so its regret is finite), which only helps it
    sigma = ol.tree_sigma(R * R, T, eps, delta, "certified", trees=2) / math.sqrt(T.bit_length()) * math.sqrt(T - 1)
    V, u, dec = np.zeros((d, d)), np.zeros(d), [np.zeros(d)]
    for t, f in enumerate(fs[:-1], start=1):
        V, u = V + np.outer(f.v, f.v), u + f.y * f.v
        V_hat = V + sigma * rng.standard_normal((d, d))
        u_hat = u + sigma * rng.standard_normal(d)
        x = np.linalg.solve(t * alpha * np.eye(d) + V_hat, u_hat)
        bx = min(R / (2 * math.sqrt(alpha)), R * R / alpha)        # post-processing onto ||x|| <= B_x
        dec.append(x * min(1.0, bx / max(np.linalg.norm(x), 1e-300)))
    return ol.regret(fs, np.array(dec))


@pytest.mark.claim("online:Theorem 8")
def test_pqftl_regret_is_polylog():
    Ts = (128, 256, 512, 1024, 2048)
    ys = [[_pqftl_regret(T, 10 * T + r) for r in range(4)] for T in Ts]
    fit = fit_rate(Ts, ys, np.random.default_rng(0))
    assert_rate(fit, 0.0, 0.5, relation="at_most", tolerance=0.35, what="PQFTL regret in T")
    ctrl = fit_rate(Ts, [[_pqftl_regret(T, 10 * T + r, True) for r in range(4)] for T in Ts],
                    np.random.default_rng(0))
    assert ctrl.lower > fit.upper and ctrl.lower > 0.3, (ctrl, fit)


@pytest.mark.claim("online:Corollary 1")
def test_pocp_regret_quantile_within_corollary_1():
    """The same POCP-IGD runs (d = 2, T = 1000, eps = 1e5, delta = 0.01), 20 seeds: the empirical 0.9-quantile
    of the regret is below the gamma = 0.1 bound, which is below the trivial bound."""
    rng = np.random.default_rng(2)
    d, T, eps, delta, alpha, gamma = 2, 1000, 1e5, 0.01, 1.0, 0.1
    C = L2Ball(d, 1.0)
    fs = quad_stream(T, d, rng)
    L = max(f.lipschitz(C) for f in fs)
    lam = ol.igd_sensitivity(L, alpha)
    base = ol.regret(fs, ol.igd(fs, C, alpha, x1=np.zeros(d)).decisions, C)
    regs = [ol.regret(fs, ol.pocp(fs, C, ol.igd_update(alpha), lam, T, eps, delta, np.random.default_rng(s),
                                  x1=np.zeros(d)).decisions, C) for s in range(20)]
    bound = (2 * math.sqrt(d) * L * (lam + 2.0) * math.sqrt(T) * math.log(T / delta) ** 2 / math.sqrt(eps * gamma)
             + base)
    assert_bound_bites(bound, T * L * 2.0, what="Corollary 1")
    assert np.quantile(regs, 1 - gamma) <= bound


@pytest.mark.claim("online:Theorem 6")
def test_pgiga_expected_regret_within_theorem_6():
    """PGIGA with alpha = L_G = 1 (t_q = 2, no restart term), d = 2, T = 2000, eps = 1e4, delta = 0.01, the
    noise of Theorem 6 (lambda = 2G/alpha, here the printed beta): mean of 5 runs + 3 SE below the bound,
    which bites."""
    rng = np.random.default_rng(3)
    d, T, eps, delta = 2, 2000, 1e4, 0.01
    C = L2Ball(d, 1.0)
    fs = quad_stream(T, d, rng)
    G = max(f.grad_bound(C) for f in fs)
    regs = [ol.regret(fs, ol.private_giga(fs, C, T, eps, delta, G, 1.0, 1.0, np.random.default_rng(s),
                                          x1=np.zeros(d)).decisions, C) for s in range(5)]
    diam = 2.0
    bound = (4 * math.sqrt(d) * (G + diam) * G * math.log(T / delta) ** 2 / math.sqrt(eps) * math.sqrt(T)
             + 2 * G * G * (1 + math.log(T)) + 2 * G * diam)
    assert_bound_bites(bound, T * G * diam, what="Theorem 6")
    assert np.mean(regs) + 3 * np.std(regs, ddof=1) / math.sqrt(5) <= bound
