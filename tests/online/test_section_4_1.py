"""Section 4.1: IGD over perturbed losses f~_t = f_t + (a/sqrt t)||x - x_0|| privatised by POCP has O~(T^(3/4)) regret
for convex Lipschitz losses with no strong convexity (the paper's sketch; the reconstruction is docs/errata.md
online-E10: the squared norm with 1/2, eta_t = 1/(a sqrt t), a = L T^(1/4)/radius, lambda = 2 L sqrt(T)/a).

The instance: linear losses f_t(x) = <g_t, x> (family (Q) with curvature 0: no strong convexity) alternating between
m + v and m - v on the ball of radius 1.5 in d = 3, so the comparator is -1.5 m/||m|| and the regret is exact
(sum_t f_t(xhat_t) + 1.5 ||sum_t g_t||). Regret against T on grids of powers of two and not, the certified noise, a
bootstrap interval of the log-log slope (95%, fixed seeds). The negative control is the same run with the weight a
held fixed as T grows (a = 2 L/radius): its noise then grows like T, and the same assertion flags it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from reference.algorithms import online as ol
from reference.audit.rates import fit_rate
from reference.audit.standards import assert_rate
from reference.errors import AssumptionViolation, ParameterError
from reference.geometry.sets import L2Ball

R, D, EPS, DELTA = 1.5, 3, 8.0, 1e-3
M = np.array([0.5, -0.3, 0.2])
V = np.array([0.3, 0.5, 0.0])


def _stream(T):
    return [ol.QuadraticLoss(M + (V if t % 2 else -V), 0.0, np.zeros(D)) for t in range(T)]


def _regret(fs, decisions):
    G = sum(f.g for f in fs)
    return math.fsum(f(x) for f, x in zip(fs, decisions)) + R * float(np.linalg.norm(G))


def _regrets(Ts, seeds, *, fixed_weight=False):
    C = L2Ball(D, R)
    out = []
    for T in Ts:
        fs = _stream(T)
        L = max(f.lipschitz(C) for f in fs)
        a = 2 * L / R if fixed_weight else None
        out.append([_regret(fs, ol.perturbed_private_igd(fs, C, T, EPS, DELTA, L, np.random.default_rng(1000 * s + 7),
                                                         calibration="certified", a=a).decisions)
                    for s in range(seeds)])
    return np.array(out)


def _check(Ts, seeds):
    fit = fit_rate(Ts, _regrets(Ts, seeds), np.random.default_rng(0))
    # O~(T^(3/4)): not above 3/4, and neither the no-learning T^1 nor the strongly convex sqrt(T)
    assert_rate(fit, 0.75, 1.0, relation="at_most", what="§4.1 regret")
    assert fit.excludes(0.5), (fit.slope, fit.lower, fit.upper)
    control = fit_rate(Ts, _regrets(Ts, seeds, fixed_weight=True), np.random.default_rng(0))
    with pytest.raises(AssertionError):
        assert_rate(control, 0.75, 1.0, relation="at_most", what="§4.1 control (a fixed)")
    return fit, control


@pytest.mark.claim("online:Section 4.1")
def test_section_4_1_regret_is_t_to_the_three_quarters():
    """T = 300, 512, 900, 1600, 2400 with 8 seeds: slope 0.74 [0.65, 0.83] (at most 3/4, excludes 1/2 and 1); the
    control with a fixed: 0.98 [0.95, 1.01], flagged."""
    _check([300, 512, 900, 1600, 2400], 8)


@pytest.mark.deep
@pytest.mark.claim("online:Section 4.1")
def test_section_4_1_regret_at_larger_horizons():
    """The same check on T = 1024 ... 16384 (10 seeds)."""
    _check([1024, 2048, 3000, 6000, 16384], 10)


@pytest.mark.claim("online:Section 4.1")
def test_section_4_1_update_sensitivity_and_lines():
    """The reconstruction's pieces, recomputed: the update is IGD's implicit step on f_t + (a/(2 sqrt t))||x - x_0||^2
    with eta_t = 1/(a sqrt t) (closed form for linear f_t: Pi_C((x_t - eta g + eta s x_0)/(1 + eta s)), s = a/sqrt t);
    the noise is POCP's for lambda = 2 L sqrt(T)/a; the worst one-round change of the iterates over 300 random
    neighbouring pairs stays below lambda/t at every t and reaches more than half of 2 L sqrt(t_0)/(a (t+1)), the
    bound the lambda comes from; a loss without family (Q)'s exact prox, and a loss above L, are refused."""
    T, L = 37, 1.2
    C = L2Ball(D, R)
    rng = np.random.default_rng(3)
    fs = [ol.QuadraticLoss(rng.uniform(-0.6, 0.6, D), 0.0, np.zeros(D)) for _ in range(T)]
    a = ol.perturbed_igd_weight(L, R, T)
    assert a == pytest.approx(L * T ** 0.25 / R, rel=1e-15)
    lam = ol.perturbed_igd_sensitivity(L, a, T)
    assert lam == pytest.approx(2 * L * math.sqrt(T) / a, rel=1e-15)
    res = ol.perturbed_private_igd(fs, C, T, 1.0, 1e-4, L, np.random.default_rng(5), a=a)
    assert res.sensitivity == pytest.approx(lam, rel=1e-15)
    assert res.noise_scale == pytest.approx(ol.pocp_noise_scale(lam, T, 1.0, 1e-4), rel=1e-15)
    # the iterates by the reconstruction's lines (x_0 then x_1 drawn from the same rng)
    rng = np.random.default_rng(5)
    x0 = ol.uniform_point(C, rng)
    x = ol.uniform_point(C, rng)
    xs = [x]
    for t in range(1, T):
        s, eta = a / math.sqrt(t), 1 / (a * math.sqrt(t))
        y = (x - eta * fs[t - 1].g + eta * s * x0) / (1 + eta * s)
        x = y * min(1.0, R / np.linalg.norm(y))
        xs.append(x)
    assert np.allclose(res.iterates, np.array(xs), rtol=1e-12, atol=1e-14)
    # sensitivity: neighbouring streams differ in one round t0 (|g| <= L on both)
    worst_ratio, attained = 0.0, 0.0
    pair_rng = np.random.default_rng(11)
    for _ in range(300):
        t0 = int(pair_rng.integers(1, T))
        g = pair_rng.normal(size=D)
        g *= L / np.linalg.norm(g)
        other = list(fs)
        other[t0 - 1] = ol.QuadraticLoss(g, 0.0, np.zeros(D))
        runs = [ol.perturbed_private_igd(s, C, T, 1.0, 1e-4, L, np.random.default_rng(5), a=a).iterates
                for s in (fs, other)]
        diff = np.linalg.norm(runs[0] - runs[1], axis=1)          # diff[t] = ||x_{t+1} - x'_{t+1}||
        for t in range(t0, T):
            worst_ratio = max(worst_ratio, diff[t] * t / lam)
            attained = max(attained, diff[t] / (2 * L * math.sqrt(t0) / (a * (t + 1))))
    assert worst_ratio <= 1 + 1e-12
    assert attained > 0.5
    with pytest.raises(ParameterError):
        ol.perturbed_private_igd([ol.SquaredLoss(np.ones(D), 0.3, 1.0)] * 4, C, 4, 1.0, 1e-4, 10.0,
                                 np.random.default_rng(0))
    with pytest.raises(AssumptionViolation):
        ol.perturbed_private_igd(fs, C, T, 1.0, 1e-4, 0.1, np.random.default_rng(0))
