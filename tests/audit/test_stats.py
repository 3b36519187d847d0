"""Tests of the distinguishability statistics: Clopper-Pearson bounds, epsilon and mu lower bounds.

Statistical tests use fixed seeds. The false-alarm rate of every soundness check
is at most beta = 0.05 per seed by construction (the claim under test); the deep
tests measure it, and the power, over many seeds.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
from scipy import stats

from reference.audit.cases import Bonferroni, HeldOut
from reference.audit.stats import (clopper_pearson_lower, clopper_pearson_upper, distinguish,
                                   epsilon_lower_bound, gaussian_epsilon, mu_lower_bound)
from reference.errors import AuditError, ParameterError

BETA = 0.05
FIXED = Bonferroni(thresholds=(1.0,), events=("upper",), orders=("forward",))
GRID = Bonferroni(thresholds=(0.0, 0.5, 1.0, 1.5))


def _binom_tail_ge(k, n, p):
    """P(Bin(n, p) >= k), mpmath at 50 digits (regularised incomplete beta identity avoided: direct sum)."""
    with mpmath.workdps(50):
        p = mpmath.mpf(p)
        return mpmath.fsum(mpmath.binomial(n, j) * p ** j * (1 - p) ** (n - j) for j in range(k, n + 1))


def _binom_cdf(k, n, p):
    with mpmath.workdps(50):
        p = mpmath.mpf(p)
        return mpmath.fsum(mpmath.binomial(n, j) * p ** j * (1 - p) ** (n - j) for j in range(0, k + 1))


@pytest.mark.claim("core:Clopper-Pearson bounds")
@pytest.mark.parametrize("k,n", [(1, 10), (5, 10), (9, 10), (37, 200), (0, 50), (50, 50)])
@pytest.mark.parametrize("alpha", [0.05, 0.001])
def test_clopper_pearson_against_binomial_tails(k, n, alpha):
    """At the lower bound, P(Bin >= k) = alpha; at the upper bound, P(Bin <= k) = alpha (mpmath sums)."""
    lo = clopper_pearson_lower(k, n, alpha)
    hi = clopper_pearson_upper(k, n, alpha)
    assert 0 <= lo <= k / n <= hi <= 1
    if k > 0:
        assert float(_binom_tail_ge(k, n, lo)) == pytest.approx(alpha, rel=1e-8)
    else:
        assert lo == 0
    if k < n:
        assert float(_binom_cdf(k, n, hi)) == pytest.approx(alpha, rel=1e-8)
    else:
        assert hi == 1


@pytest.mark.claim("core:Clopper-Pearson bounds")
def test_clopper_pearson_matches_scipy_beta_vectorised():
    k = np.array([1, 10, 500, 999_000])
    n = np.array([7, 100, 1000, 1_000_000])
    assert np.allclose(clopper_pearson_lower(k, n, 0.01), stats.beta.ppf(0.01, k, n - k + 1), rtol=1e-10)
    assert np.allclose(clopper_pearson_upper(k, n, 0.01), stats.beta.ppf(0.99, k + 1, n - k), rtol=1e-10)


@pytest.mark.claim("core:Audit input validation")
@pytest.mark.parametrize("alpha", [0.0, 1.0, -0.1, 1.5, float("nan")])
def test_clopper_pearson_rejects_bad_alpha(alpha):
    with pytest.raises(ParameterError):
        clopper_pearson_lower(1, 10, alpha)


@pytest.mark.claim("core:Audit input validation")
@pytest.mark.parametrize("k,n", [(1, 0), (-1, 5), (6, 5)])
def test_clopper_pearson_rejects_bad_counts(k, n):
    with pytest.raises(ParameterError):
        clopper_pearson_upper(k, n, 0.05)


@pytest.mark.claim("core:Clopper-Pearson bounds")
def test_lower_bounds_are_monotone_in_the_counts():
    """More events under D' (or fewer under D) can only raise the bounds."""
    e = [epsilon_lower_bound(k, 1000, 100, 1000, 0.0, 0.05) for k in (100, 200, 400, 800)]
    assert e == sorted(e) and e[0] == 0.0 and e[-1] > 1.5
    m = [mu_lower_bound(800, 1000, k, 1000, 0.05) for k in (400, 200, 100, 50)]
    assert m == sorted(m)


def _laplace(rng, n, scale, shift=0.0):
    return shift + rng.laplace(0.0, scale, n)


@pytest.mark.claim("core:Clopper-Pearson audit soundness")
@pytest.mark.parametrize("rule", [FIXED, GRID, HeldOut()], ids=["fixed", "bonferroni", "held-out"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_laplace_calibrated_not_flagged_and_half_noise_flagged(rule, seed):
    """Laplace, eps 1 (scale 1, shift 1): bound <= 1; half the noise (true eps 2): bound > 1.

    False-alarm probability of the first assertion: <= beta = 0.05 per seed.
    """
    rng = np.random.default_rng(seed)
    n = 100_000
    ok = distinguish(_laplace(rng, n, 1.0), _laplace(rng, n, 1.0, 1.0), delta=0.0, beta=BETA, rule=rule)
    assert ok.epsilon_lower_bound <= 1.0
    assert ok.epsilon_lower_bound > 0.8          # and it is not vacuous
    bad = distinguish(_laplace(rng, n, 0.5), _laplace(rng, n, 0.5, 1.0), delta=0.0, beta=BETA, rule=rule)
    assert bad.epsilon_lower_bound > 1.0


@pytest.mark.claim("core:Clopper-Pearson audit soundness")
@pytest.mark.parametrize("seed", [0, 1])
def test_gaussian_mu_bound_sound_and_powerful(seed):
    """N(0,1) vs N(mu,1) is exactly mu-GDP: the bound on mu stays <= mu, and doubles for half the noise."""
    rng = np.random.default_rng(seed)
    mu, n = 0.5, 100_000
    mid = Bonferroni(thresholds=(mu / 2,), events=("upper",), orders=("forward",))
    ok = distinguish(rng.normal(0, 1, n), rng.normal(mu, 1, n), delta=1e-5, beta=BETA, rule=mid, criterion="mu")
    assert 0.9 * mu < ok.mu_lower_bound <= mu
    bad = distinguish(rng.normal(0, 0.5, n), rng.normal(mu, 0.5, n), delta=1e-5, beta=BETA, rule=mid,
                      criterion="mu")
    assert bad.mu_lower_bound > mu


@pytest.mark.claim("core:Clopper-Pearson audit soundness")
def test_identical_distributions_give_zero():
    """No leakage: two identical samplers must not give a positive bound (tracker bug: eps 3.5 on no leakage)."""
    rng = np.random.default_rng(7)
    x, y = rng.normal(size=50_000), rng.normal(size=50_000)
    for rule in (GRID, HeldOut()):
        assert distinguish(x, y, delta=0.0, beta=BETA, rule=rule).epsilon_lower_bound < 0.05
    # A constant statistic carries no information at all.
    z = np.zeros(1000)
    assert distinguish(z, z, delta=0.0, beta=BETA, rule=GRID).epsilon_lower_bound == 0.0


@pytest.mark.claim("core:Clopper-Pearson audit soundness")
def test_gaussian_epsilon_of_mu_matches_accountant():
    accounting = pytest.importorskip("reference.privacy.accounting")
    for mu in (0.1, 0.268, 1.0, 3.0):
        for delta in (1e-5, 1e-3):
            assert gaussian_epsilon(delta, mu) == pytest.approx(accounting.gaussian_epsilon(delta, mu), rel=1e-9,
                                                                abs=1e-12)


@pytest.mark.claim("core:Audit input validation")
def test_distinguish_rejects_bad_input():
    x = np.zeros(10)
    with pytest.raises(AuditError):
        distinguish(np.array([]), x, delta=0.0, beta=BETA, rule=GRID)
    with pytest.raises(AuditError):
        distinguish(np.array([0.0, np.nan]), x, delta=0.0, beta=BETA, rule=GRID)
    for beta in (0.0, 1.0, 2.0):
        with pytest.raises(ParameterError):
            distinguish(x, x, delta=0.0, beta=beta, rule=GRID)
    with pytest.raises(ParameterError):
        distinguish(x, x, delta=1.0, beta=BETA, rule=GRID)
    with pytest.raises(AuditError):
        distinguish(np.zeros(1), np.zeros(1), delta=0.0, beta=BETA, rule=HeldOut())
    with pytest.raises(ParameterError):
        Bonferroni(thresholds=())
    with pytest.raises(ParameterError):
        HeldOut(fraction=1.0)


# ---------------------------------------------------------------------------
# Deep: false-alarm rate and power over many seeds.

@pytest.mark.deep
@pytest.mark.claim("core:Clopper-Pearson audit soundness")
@pytest.mark.parametrize("rule", [FIXED, GRID, HeldOut()], ids=["fixed", "bonferroni", "held-out"])
def test_false_alarm_rate_and_power_over_seeds(rule):
    """Over 300 seeds: false alarms (bound > true eps 1) at most beta, power on half noise >= 0.9.

    N = 20,000 per side keeps the bounds near the truth, where false alarms would show.
    """
    n, seeds = 20_000, 300
    alarms = detections = 0
    for seed in range(seeds):
        rng = np.random.default_rng(10_000 + seed)
        ok = distinguish(_laplace(rng, n, 1.0), _laplace(rng, n, 1.0, 1.0), delta=0.0, beta=BETA, rule=rule)
        alarms += ok.epsilon_lower_bound > 1.0
        bad = distinguish(_laplace(rng, n, 0.5), _laplace(rng, n, 0.5, 1.0), delta=0.0, beta=BETA, rule=rule)
        detections += bad.epsilon_lower_bound > 1.0
    assert alarms / seeds <= BETA
    assert detections / seeds >= 0.9


@pytest.mark.deep
@pytest.mark.claim("core:Clopper-Pearson audit soundness")
def test_gdp_false_alarm_rate_and_power_over_seeds():
    n, seeds, mu = 20_000, 300, 0.5
    mid = Bonferroni(thresholds=(mu / 2,), events=("upper",), orders=("forward",))
    alarms = detections = 0
    for seed in range(seeds):
        rng = np.random.default_rng(20_000 + seed)
        ok = distinguish(rng.normal(0, 1, n), rng.normal(mu, 1, n), delta=1e-5, beta=BETA, rule=mid, criterion="mu")
        alarms += ok.mu_lower_bound > mu
        bad = distinguish(rng.normal(0, .5, n), rng.normal(mu, .5, n), delta=1e-5, beta=BETA, rule=mid,
                          criterion="mu")
        detections += bad.mu_lower_bound > mu
    assert alarms / seeds <= BETA
    assert detections / seeds >= 0.9


def _independent_bound(k_num, n_num, k_den, n_den, delta, alpha):
    """ln((CP_lo(num) - delta) / CP_hi(den)), each one-sided bound at alpha/2, from scipy.stats.beta quantiles."""
    lo = 0.0 if k_num == 0 else stats.beta.ppf(alpha / 2, k_num, n_num - k_num + 1)
    hi = 1.0 if k_den == n_den else stats.beta.ppf(1 - alpha / 2, k_den + 1, n_den - k_den)
    return max(0.0, float(np.log((lo - delta) / hi))) if lo > delta else 0.0


@pytest.mark.claim("core:Clopper-Pearson audit soundness")
@pytest.mark.parametrize("delta", [0.0, 1e-3])
def test_bonferroni_bound_is_computed_at_beta_over_m(delta):
    """Deterministic: the Bonferroni rule over m = 3 thresholds x 2 events x 2 orders = 12 declared tests
    reports the largest of the 12 bounds, each at level beta/12 and split beta/24 per Clopper-Pearson side,
    recomputed here from the counts with scipy's beta quantiles. The level beta (no correction) gives a
    larger bound, which this equality rejects."""
    rng = np.random.default_rng(3)
    x_d, x_dp = rng.laplace(0.0, 1.0, 20_000), rng.laplace(1.0, 1.0, 20_000)
    rule = Bonferroni(thresholds=(0.0, 0.5, 1.0))
    got = distinguish(x_d, x_dp, delta=delta, beta=BETA, rule=rule)
    m = 12
    assert got.level == pytest.approx(BETA / m)
    best = 0.0
    for t in (0.0, 0.5, 1.0):
        for event in ("upper", "lower"):
            cd = int(np.sum(x_d > t)) if event == "upper" else int(np.sum(x_d <= t))
            cdp = int(np.sum(x_dp > t)) if event == "upper" else int(np.sum(x_dp <= t))
            best = max(best, _independent_bound(cdp, x_dp.size, cd, x_d.size, delta, BETA / m),
                       _independent_bound(cd, x_d.size, cdp, x_dp.size, delta, BETA / m))
    assert got.epsilon_lower_bound == pytest.approx(best, rel=1e-9)
    uncorrected = max(_independent_bound(got.k_num, got.n_num, got.k_den, got.n_den, delta, BETA), 0.0)
    assert uncorrected > best            # the correction matters at these counts


@pytest.mark.claim("core:Clopper-Pearson audit soundness")
def test_held_out_rule_evaluates_on_the_rest_only():
    """Deterministic: with fraction 0.1 of 1000 draws per side, the chosen test is evaluated on the other 900
    of each side only, and the bound is the single-test bound at level beta on those counts."""
    rng = np.random.default_rng(4)
    x_d, x_dp = rng.laplace(0.0, 1.0, 1000), rng.laplace(1.0, 1.0, 1000)
    got = distinguish(x_d, x_dp, delta=0.0, beta=BETA, rule=HeldOut(fraction=0.1))
    assert (got.n_num, got.n_den) == (900, 900)
    num, den = (x_dp[100:], x_d[100:]) if got.order == "forward" else (x_d[100:], x_dp[100:])
    count = (lambda x: int(np.sum(x > got.threshold))) if got.event == "upper" else \
        (lambda x: int(np.sum(x <= got.threshold)))
    assert (got.k_num, got.k_den) == (count(num), count(den))
    assert got.epsilon_lower_bound == pytest.approx(_independent_bound(got.k_num, 900, got.k_den, 900, 0.0, BETA),
                                                    rel=1e-9)
