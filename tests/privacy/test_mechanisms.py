"""Tests of reference/privacy/mechanisms.py.

Reference values come from independent computations: mpmath at 50 digits for the
exponential mechanism and the truncated geometric law, scipy.integrate.quad for the
Laplace report-noisy-max selection probabilities, scipy.stats for the noise laws.

Statistical tests run at fixed seeds, so each is deterministic; the stated
false-alarm rate is the probability that a correct implementation fails the test
for a seed drawn at random (the test's significance level). Each goodness-of-fit
test is paired with a negative control: the same statistic on a deliberately wrong
law must reject, so the test has power.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy import integrate, stats

from reference.errors import NonFiniteError, ParameterError, ShapeError
from reference.privacy.ledger import Ledger
from reference.privacy.mechanisms import (
    exponential_mechanism,
    exponential_mechanism_log_probabilities,
    exponential_mechanism_probabilities,
    gaussian_mechanism,
    laplace_mechanism,
    report_noisy_max,
    report_noisy_min,
    truncated_geometric,
    truncated_geometric_pmf,
)

from ..junk import assert_package_error_or_nan_free

ALPHA = 1e-3   # significance level (false-alarm rate) of every goodness-of-fit test below

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)
positive = st.floats(min_value=1e-3, max_value=1e3)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def chi_square_p(counts, probabilities):
    """p-value of Pearson's chi-square test of ``counts`` against ``probabilities``.

    Cells with expected count below 5 are pooled into one cell (the usual validity rule).
    """
    counts = np.asarray(counts, dtype=float)
    n = counts.sum()
    expected = n * np.asarray(probabilities, dtype=float)
    big = expected >= 5
    obs = list(counts[big]) + ([counts[~big].sum()] if (~big).any() else [])
    exp = list(expected[big]) + ([expected[~big].sum()] if (~big).any() else [])
    obs, exp = np.array(obs), np.array(exp)
    exp *= obs.sum() / exp.sum()
    return stats.chisquare(obs, exp).pvalue


# ---------------------------------------------------------------------------
# Additive noise: Gaussian and Laplace

@pytest.mark.claim("core:Gaussian mechanism")
def test_gaussian_noise_passes_ks_and_wrong_sigma_is_rejected():
    """KS test of the noise against N(0, sigma^2); false alarm ALPHA. Control: sigma*1.05 rejected."""
    sigma, value = 2.5, np.array([1.0, -3.0, 1e3])
    out = gaussian_mechanism(value, 1.0, sigma, np.random.default_rng(20261121), n_draws=40_000)
    assert out.shape == (40_000, 3)
    noise = (out - value).ravel()
    assert stats.kstest(noise, stats.norm(scale=sigma).cdf).pvalue > ALPHA
    assert stats.kstest(noise, stats.norm(scale=1.05 * sigma).cdf).pvalue < ALPHA   # negative control


@pytest.mark.claim("core:Laplace mechanism")
def test_laplace_noise_passes_ks_and_wrong_scale_is_rejected():
    """KS test of the noise against Laplace(0, b); false alarm ALPHA. Control: b*1.05 rejected."""
    b, value = 0.7, np.array([[0.0, 5.0], [-1.0, 2.0]])
    out = laplace_mechanism(value, 1.0, b, np.random.default_rng(7), n_draws=30_000)
    assert out.shape == (30_000, 2, 2)
    noise = (out - value).ravel()
    assert stats.kstest(noise, stats.laplace(scale=b).cdf).pvalue > ALPHA
    assert stats.kstest(noise, stats.laplace(scale=1.05 * b).cdf).pvalue < ALPHA   # negative control
    assert stats.kstest(noise, stats.norm(scale=b * math.sqrt(2)).cdf).pvalue < ALPHA   # same variance, wrong law


@pytest.mark.claim("core:Gaussian mechanism")
@pytest.mark.claim("core:Laplace mechanism")
@pytest.mark.parametrize("sensitivity", [0.25, 3.0])
def test_noise_law_does_not_scale_with_the_sensitivity(sensitivity):
    """sigma (b) is the noise's own scale, not a multiplier of the sensitivity: at Delta != 1 the noise is
    still N(0, sigma^2) (Lap(b)). KS, false alarm ALPHA per law; the law at sigma * Delta (b * Delta),
    what a mechanism reading its scale as a noise multiplier draws, is rejected by the same statistic."""
    sigma, b, n = 1.5, 0.8, 20_000
    noise = gaussian_mechanism(2.0, sensitivity, sigma, np.random.default_rng(31), n_draws=n) - 2.0
    assert stats.kstest(noise, stats.norm(scale=sigma).cdf).pvalue > ALPHA
    assert stats.kstest(noise, stats.norm(scale=sigma * sensitivity).cdf).pvalue < ALPHA   # control
    noise = laplace_mechanism(-1.0, sensitivity, b, np.random.default_rng(32), n_draws=n) + 1.0
    assert stats.kstest(noise, stats.laplace(scale=b).cdf).pvalue > ALPHA
    assert stats.kstest(noise, stats.laplace(scale=b * sensitivity).cdf).pvalue < ALPHA    # control


@pytest.mark.parametrize("mechanism,norm,kind", [(gaussian_mechanism, 2, "gaussian"),
                                                 (laplace_mechanism, 1, "laplace")])
@pytest.mark.claim("core:Gaussian mechanism")
@pytest.mark.claim("core:Laplace mechanism")
@pytest.mark.claim("core:Mechanism ledger events")
@given(data=st.data(), seed=seeds, scale=positive)
def test_additive_noise_moves_output_by_exactly_the_data_change(mechanism, norm, kind, data, seed, scale):
    """Neighbouring values, same seed: the outputs differ by the data change (noise is data-independent),
    which the recorded sensitivity (the data change, in the mechanism's norm) bounds."""
    d = data.draw(st.integers(1, 6))
    v = np.array(data.draw(st.lists(finite, min_size=d, max_size=d)))
    change = np.array(data.draw(st.lists(st.floats(-10, 10), min_size=d, max_size=d)))
    w = v + change
    sensitivity = float(np.linalg.norm(w - v, ord=norm))
    ledger, ledger2 = Ledger(), Ledger()
    out = mechanism(v, sensitivity, scale, np.random.default_rng(seed), ledger=ledger, label="x")
    out2 = mechanism(w, sensitivity, scale, np.random.default_rng(seed), ledger=ledger2, label="x")
    np.testing.assert_allclose(out2 - out, w - v, rtol=0, atol=1e-9 * (1 + np.abs(v).max() + np.abs(out).max()))
    assert np.linalg.norm((out2 - out) - (w - v)) <= 1e-6 + 1e-9 * np.abs(out).max()
    assert len(ledger) == 1 and ledger.events == ledger2.events
    e = ledger.events[0]
    assert (e.kind, e.norm, e.sensitivity, e.noise_scale, e.relation, e.label) == (
        kind, f"l{norm}", sensitivity, scale, "replace-one", "x")
    assert np.linalg.norm(w - v, ord=norm) <= e.sensitivity


@pytest.mark.claim("core:Mechanism ledger events")
def test_additive_mechanisms_record_the_sensitivity_they_were_called_with():
    """Deterministic: the event carries the caller's sensitivity and scale, so the accountant certifies the
    call as it was made (Gaussian: mu = 0.7 / 2; Laplace: eps = 0.9 / 0.3)."""
    from reference.privacy.accounting import certify, event_epsilon, gaussian_epsilon

    ledger = Ledger()
    gaussian_mechanism(np.zeros(2), 0.7, 2.0, np.random.default_rng(0), ledger=ledger)
    (event,) = ledger.events
    assert (event.kind, event.sensitivity, event.noise_scale) == ("gaussian", 0.7, 2.0)
    assert certify(ledger, 1e-6).epsilon == pytest.approx(gaussian_epsilon(1e-6, 0.35), rel=1e-12)
    ledger = Ledger()
    laplace_mechanism(np.zeros(2), 0.9, 0.3, np.random.default_rng(0), ledger=ledger)
    (event,) = ledger.events
    assert (event.kind, event.sensitivity, event.noise_scale) == ("laplace", 0.9, 0.3)
    assert event_epsilon(event) == pytest.approx(3.0, rel=1e-15)


def test_scalar_value_returns_a_float():
    assert isinstance(gaussian_mechanism(1.0, 1.0, 1.0, np.random.default_rng(0)), float)
    assert isinstance(laplace_mechanism(1.0, 1.0, 1.0, np.random.default_rng(0)), float)


# ---------------------------------------------------------------------------
# Exponential mechanism

def mp_log_probabilities(scores, sensitivity, epsilon, monotone):
    """Independent computation at 50 digits: log(exp(c s_i) / sum_j exp(c s_j))."""
    with mpmath.workdps(50):
        c = mpmath.mpf(epsilon) / (mpmath.mpf(sensitivity) * (1 if monotone else 2))
        logits = [c * mpmath.mpf(float(s)) for s in scores]
        top = max(logits)
        log_norm = top + mpmath.log(mpmath.fsum(mpmath.exp(x - top) for x in logits))
        return [x - log_norm for x in logits]


def assert_matches_mp(scores, sensitivity, epsilon, monotone):
    ours = exponential_mechanism_log_probabilities(scores, sensitivity, epsilon, monotone=monotone)
    ref = mp_log_probabilities(scores, sensitivity, epsilon, monotone)
    for a, b in zip(ours, ref):
        if b < -740:                      # below the float64 range: exp underflows to 0
            assert a < -700 or a == -np.inf
        else:
            assert abs(a - float(b)) <= 1e-12 * (1 + abs(float(b))), (a, b)
    probs = exponential_mechanism_probabilities(scores, sensitivity, epsilon, monotone=monotone)
    assert abs(probs.sum() - 1) < 1e-12


@pytest.mark.claim("core:Exponential mechanism probabilities")
@given(scores=st.lists(finite, min_size=1, max_size=40), sensitivity=positive, epsilon=positive,
       monotone=st.booleans())
def test_exponential_probabilities_match_mpmath(scores, sensitivity, epsilon, monotone):
    assert_matches_mp(scores, sensitivity, epsilon, monotone)


@pytest.mark.claim("core:Exponential mechanism probabilities")
@pytest.mark.parametrize("scores,sensitivity,epsilon", [
    (1e15 + np.arange(3000.0), 1.0, 2e-3),                     # huge offset, thousands of candidates
    (np.linspace(-1e300, 1e300, 2000), 1e298, 1.0),            # scores near the float range
    (np.array([1.7e308, -1.7e308, 1.6e308]), 1e308, 3.0),       # score differences beyond the float range
    (np.array([1e-300, 0.0, 2e-300, -1e-300]), 1e-300, 2.0),     # tiny scores and sensitivity
    (np.array([1.0, 2.0, 1.5]), 1e-310, 1e-300),               # subnormal sensitivity, c = 1e10 / 2
    (np.array([1.0, 2.0, 2.0 - 1e-15]), 1e-320, 1e300),         # eps / sensitivity beyond the float range
    (np.zeros(5000), 1.0, 1.0),                                 # uniform over many candidates
])
def test_exponential_probabilities_are_stable_for_extreme_inputs(scores, sensitivity, epsilon):
    for monotone in (False, True):
        logp = exponential_mechanism_log_probabilities(scores, sensitivity, epsilon, monotone=monotone)
        assert not np.isnan(logp).any()
        assert_matches_mp(scores, sensitivity, epsilon, monotone)


@pytest.mark.claim("core:Exponential mechanism probabilities")
def test_exponential_sampling_frequencies_match_probabilities():
    """Chi-square, 2*10^5 draws, false alarm ALPHA. Control: the law at twice epsilon is rejected."""
    scores, sensitivity, epsilon = np.array([0.0, 1.0, 2.5, -1.0, 2.0, 0.5]), 1.0, 1.2
    for monotone in (False, True):
        draws = exponential_mechanism(scores, sensitivity, epsilon, np.random.default_rng(11 + monotone),
                                      monotone=monotone, n_draws=200_000)
        counts = np.bincount(draws, minlength=6)
        p = exponential_mechanism_probabilities(scores, sensitivity, epsilon, monotone=monotone)
        assert chi_square_p(counts, p) > ALPHA
        wrong = exponential_mechanism_probabilities(scores, sensitivity, 2 * epsilon, monotone=monotone)
        assert chi_square_p(counts, wrong) < ALPHA     # negative control


@pytest.mark.claim("core:Exponential mechanism probabilities")
def test_exponential_sampling_never_selects_probability_zero_candidates():
    scores = np.array([0.0, 1e6, -1e6, 1e6 - 1.0])
    draws = exponential_mechanism(scores, 1.0, 2.0, np.random.default_rng(3), n_draws=100_000)
    assert set(np.unique(draws)) <= {1, 3}


def neighbouring_scores(draw, monotone):
    m = draw(st.integers(1, 12))
    s = np.array(draw(st.lists(st.floats(-50, 50), min_size=m, max_size=m)))
    sensitivity = draw(st.floats(0.01, 10))
    frac = np.array(draw(st.lists(st.floats(0, 1) if monotone else st.floats(-1, 1), min_size=m, max_size=m)))
    sign = draw(st.sampled_from([-1.0, 1.0])) if monotone else 1.0
    return s, s + sign * frac * sensitivity, sensitivity


@pytest.mark.claim("core:Exponential mechanism privacy")
@given(data=st.data(), epsilon=st.floats(0.01, 5), monotone=st.booleans())
def test_exponential_log_probability_ratio_is_at_most_epsilon(data, epsilon, monotone):
    s, s2, sensitivity = neighbouring_scores(data.draw, monotone)
    assume(np.max(np.abs(s2 - s)) <= sensitivity)
    a = exponential_mechanism_log_probabilities(s, sensitivity, epsilon, monotone=monotone)
    b = exponential_mechanism_log_probabilities(s2, sensitivity, epsilon, monotone=monotone)
    assert np.max(np.abs(a - b)) <= epsilon * (1 + 1e-9) + 1e-12


@pytest.mark.claim("core:Exponential mechanism privacy")
def test_exponential_privacy_is_tight_and_monotone_form_fails_without_monotonicity():
    """Exact values: s=(0,0) -> s'=(Delta,-Delta). General form: ratio exactly e^eps for large eps limit;
    the monotone form on this non-monotone change exceeds eps (negative control)."""
    epsilon, sensitivity = 1.0, 1.0
    s, s2 = np.array([0.0, 0.0]), np.array([1.0, -1.0])
    general = np.abs(exponential_mechanism_log_probabilities(s, sensitivity, epsilon)
                     - exponential_mechanism_log_probabilities(s2, sensitivity, epsilon)).max()
    # log((e^{eps}+1)/2) = log((e+1)/2) = 0.6201... (mpmath.log((mpmath.e+1)/2), 50 digits)
    assert general == pytest.approx(float(mpmath.log((mpmath.e + 1) / 2)), rel=1e-13)
    assert general <= epsilon
    mono = np.abs(exponential_mechanism_log_probabilities(s, sensitivity, epsilon, monotone=True)
                  - exponential_mechanism_log_probabilities(s2, sensitivity, epsilon, monotone=True)).max()
    # log((e^2+1)/2) = 1.4338... > eps
    assert mono == pytest.approx(float(mpmath.log((mpmath.e ** 2 + 1) / 2)), rel=1e-13)
    assert mono > epsilon


# ---------------------------------------------------------------------------
# Report noisy max / min

@pytest.mark.claim("core:Gumbel report-noisy-max is the exponential mechanism")
@pytest.mark.parametrize("seed,scores,sensitivity,scale", [
    (1, [0.0, 1.0, 2.0], 1.0, 1.0),
    (2, [3.0, -1.0, 0.5, 2.5, 2.9], 0.5, 2.0),
])
def test_gumbel_report_noisy_max_has_the_exponential_mechanism_law(seed, scores, sensitivity, scale):
    """Chi-square of 2*10^5 Gumbel-RNM draws against the EM at eps = 2*Delta/b; false alarm ALPHA per check.
    Control: the EM at eps = Delta/b (half) is rejected."""
    scores = np.array(scores)
    eps = 2 * sensitivity / scale
    draws = report_noisy_max(scores, sensitivity, scale, np.random.default_rng(seed), noise="gumbel",
                             n_draws=200_000)
    counts = np.bincount(draws, minlength=scores.size)
    assert chi_square_p(counts, exponential_mechanism_probabilities(scores, sensitivity, eps)) > ALPHA
    assert chi_square_p(counts, exponential_mechanism_probabilities(scores, sensitivity, eps / 2)) < ALPHA
    # monotone form of the EM at eps = Delta/b is the same law
    assert np.allclose(exponential_mechanism_probabilities(scores, sensitivity, eps),
                       exponential_mechanism_probabilities(scores, sensitivity, eps / 2, monotone=True))
    mins = report_noisy_min(scores, sensitivity, scale, np.random.default_rng(seed + 100), noise="gumbel",
                            n_draws=200_000)
    counts = np.bincount(mins, minlength=scores.size)
    assert chi_square_p(counts, exponential_mechanism_probabilities(-scores, sensitivity, eps)) > ALPHA
    assert chi_square_p(counts, exponential_mechanism_probabilities(scores, sensitivity, eps)) < ALPHA


def _laplace_pdf(x, mu, b):
    return math.exp(-abs(x - mu) / b) / (2 * b)


def _laplace_cdf(x, mu, b):
    z = (x - mu) / b
    return 0.5 * math.exp(z) if z < 0 else 1 - 0.5 * math.exp(-z)


def laplace_rnm_probabilities(scores, b):
    """P(argmax_i (s_i + Lap_i(b)) = i) = int f_i(x) prod_{j != i} F_j(x) dx, by adaptive quadrature
    (scipy.integrate.quad, breakpoints at the kinks s_j, tails beyond 60 b below 1e-26)."""
    scores = [float(v) for v in scores]
    lo, hi = min(scores) - 60 * b, max(scores) + 60 * b
    out = []
    for i, si in enumerate(scores):
        others = [sj for j, sj in enumerate(scores) if j != i]

        def integrand(x, si=si, others=others):
            val = _laplace_pdf(x, si, b)
            for sj in others:
                val *= _laplace_cdf(x, sj, b)
            return val
        value, _ = integrate.quad(integrand, lo, hi, points=sorted(set(scores)), limit=200,
                                  epsabs=1e-14, epsrel=1e-11)
        out.append(value)
    return np.array(out)


@pytest.mark.claim("core:Laplace report-noisy-max selection law")
def test_laplace_report_noisy_max_frequencies_match_quadrature():
    """Chi-square, 2*10^5 draws on 3 candidates, false alarm ALPHA per check. Control: the Gumbel law rejected."""
    scores, b = np.array([0.0, 0.8, 1.5]), 1.0
    p = laplace_rnm_probabilities(scores, b)
    assert abs(p.sum() - 1) < 1e-9
    draws = report_noisy_max(scores, 1.0, b, np.random.default_rng(5), n_draws=200_000)
    counts = np.bincount(draws, minlength=3)
    assert chi_square_p(counts, p) > ALPHA
    assert chi_square_p(counts, exponential_mechanism_probabilities(scores, 1.0, 2.0)) < ALPHA  # control
    mins = report_noisy_min(scores, 1.0, b, np.random.default_rng(6), n_draws=200_000)
    assert chi_square_p(np.bincount(mins, minlength=3), laplace_rnm_probabilities(-scores, b)) > ALPHA


@pytest.mark.claim("core:Laplace report-noisy-max privacy")
@given(data=st.data(), monotone=st.booleans())
def test_laplace_report_noisy_max_exact_privacy_loss(data, monotone):
    """Exact (quadrature) privacy loss on 3 candidates: <= 2*Delta/b in general, <= Delta/b if monotone."""
    s = np.array(data.draw(st.lists(st.floats(-3, 3), min_size=3, max_size=3)))
    sensitivity = data.draw(st.floats(0.1, 2))
    b = data.draw(st.floats(0.3, 3))
    if monotone:
        sign = data.draw(st.sampled_from([-1.0, 1.0]))
        step = sign * sensitivity * np.array(data.draw(st.lists(st.floats(0, 1), min_size=3, max_size=3)))
    else:
        step = sensitivity * np.array(data.draw(st.lists(st.floats(-1, 1), min_size=3, max_size=3)))
    p, q = laplace_rnm_probabilities(s, b), laplace_rnm_probabilities(s + step, b)
    loss = np.max(np.abs(np.log(p) - np.log(q)))
    bound = (1 if monotone else 2) * sensitivity / b
    assert loss <= bound * (1 + 1e-7) + 1e-9


@pytest.mark.claim("core:Laplace report-noisy-max privacy")
def test_laplace_report_noisy_max_monotone_bound_fails_for_non_monotone_change():
    """Negative control: s=(0,0) -> (1,-1), b=1: candidate 1 drops from 1/2 to e^-2 (closed form
    P(L1 - L2 > 2) = e^-2 for Laplace(1) differences), a loss log(e^2/2) = 1.3068... > Delta/b = 1."""
    p = laplace_rnm_probabilities([0.0, 0.0], 1.0)
    q = laplace_rnm_probabilities([1.0, -1.0], 1.0)
    assert q[1] == pytest.approx(math.exp(-2), rel=1e-8)
    loss = np.max(np.abs(np.log(p) - np.log(q)))
    assert loss == pytest.approx(2 - math.log(2), rel=1e-8)
    assert 1.0 < loss <= 2.0


@pytest.mark.claim("core:Mechanism ledger events")
@given(scores=st.lists(finite, min_size=1, max_size=8), sensitivity=positive, scale=positive,
       noise=st.sampled_from(["laplace", "gumbel"]), monotone=st.booleans(), seed=seeds,
       relation=st.sampled_from(["replace-one", "add-remove"]))
def test_selection_mechanisms_record_one_event(scores, sensitivity, scale, noise, monotone, seed, relation):
    ledger = Ledger()
    rng = np.random.default_rng(seed)
    i = report_noisy_max(scores, sensitivity, scale, rng, noise=noise, monotone=monotone, ledger=ledger,
                         relation=relation, label="rnm")
    j = report_noisy_min(scores, sensitivity, scale, rng, noise=noise, monotone=monotone, ledger=ledger,
                         relation=relation, label="rnmin")
    k = exponential_mechanism(scores, sensitivity, scale, rng, monotone=monotone, ledger=ledger,
                              relation=relation, label="em")
    assert all(isinstance(x, int) and 0 <= x < len(scores) for x in (i, j, k))
    e1, e2, e3 = ledger.events
    for e in (e1, e2):
        assert (e.kind, e.norm, e.sensitivity, e.noise_scale, e.noise, e.monotone, e.relation) == (
            "report_noisy_max", "score", sensitivity, scale, noise, monotone, relation)
    assert (e3.kind, e3.norm, e3.sensitivity, e3.epsilon, e3.monotone, e3.relation, e3.label) == (
        "exponential", "score", sensitivity, scale, monotone, relation, "em")


def test_batch_mode_refuses_a_ledger():
    with pytest.raises(ParameterError) as info:
        gaussian_mechanism(0.0, 1.0, 1.0, np.random.default_rng(0), ledger=Ledger(), n_draws=3)
    assert info.value.name == "ledger"


def test_batch_mode_is_fast_enough_for_the_audit_harness():
    """10^6 draws are produced vectorised (a functional check of the shape; speed is for benchmarks)."""
    rng = np.random.default_rng(0)
    assert report_noisy_max([0.0, 1.0, 2.0], 1.0, 1.0, rng, n_draws=10**6).shape == (10**6,)
    assert exponential_mechanism([0.0, 1.0, 2.0], 1.0, 1.0, rng, n_draws=10**6).shape == (10**6,)
    assert truncated_geometric(10, rng, n_draws=10**6).shape == (10**6,)


# ---------------------------------------------------------------------------
# Truncated geometric law

@pytest.mark.claim("core:Truncated geometric law")
@pytest.mark.parametrize("M", [0, 1, 2, 5, 20, 60, 200])
def test_truncated_geometric_pmf_and_moments_match_mpmath(M):
    p = truncated_geometric_pmf(M)
    assert p.shape == (M + 1,)
    with mpmath.workdps(60):
        C = 1 / mpmath.fsum(mpmath.mpf(2) ** -k for k in range(M + 1))       # C_M = [sum 2^-k]^-1
        ref = [C * mpmath.mpf(2) ** -k for k in range(M + 1)]
        for a, b in zip(p, ref):
            assert abs(a - float(b)) <= 1e-15 * float(b)
        # E[1/p_N] = M + 1 and E[2^N] = C_M (M + 1): exact identities, evaluated at 60 digits
        assert mpmath.fsum(pk / pk for pk in ref) == M + 1
        assert abs(mpmath.fsum(pk * mpmath.mpf(2) ** k for k, pk in enumerate(ref)) - C * (M + 1)) < 1e-50
    assert abs(p.sum() - 1) < 1e-15
    assert abs(np.sum(p * (1 / p)) - (M + 1)) < 1e-9 * (M + 1)


@pytest.mark.claim("core:Truncated geometric law")
@pytest.mark.parametrize("M,seed", [(0, 1), (1, 2), (4, 3), (12, 4)])
def test_truncated_geometric_frequencies_pass_chi_square(M, seed):
    """Chi-square, 10^5 draws, false alarm ALPHA per M. Control (M <= 4): the law of an untruncated
    geometric with its tail lumped at M (a plausible wrong normalisation) is rejected."""
    draws = truncated_geometric(M, np.random.default_rng(seed), n_draws=100_000)
    assert draws.min() >= 0 and draws.max() <= M
    counts = np.bincount(draws, minlength=M + 1)
    if M == 0:
        assert counts.tolist() == [100_000]
        return
    assert chi_square_p(counts, truncated_geometric_pmf(M)) > ALPHA
    if M <= 4:   # the control has power only where truncation moves mass noticeably (2^-(M+1) >= 1/32)
        untruncated = 2.0 ** -np.arange(1, M + 2)      # P(G=k) = 2^-(k+1), with the tail mass lumped at M
        untruncated[-1] += 1 - untruncated.sum()
        assert chi_square_p(counts, untruncated) < ALPHA


def test_truncated_geometric_large_M_stays_in_range():
    draws = truncated_geometric(10**9, np.random.default_rng(0), n_draws=10_000)
    assert draws.min() >= 0 and draws.max() <= 53
    assert isinstance(truncated_geometric(3, np.random.default_rng(0)), int)


# ---------------------------------------------------------------------------
# Determinism

def _all_calls(rng, n_draws=None):
    return [
        gaussian_mechanism([1.0, 2.0], 1.0, 0.5, rng, n_draws=n_draws),
        laplace_mechanism([1.0, 2.0], 1.0, 0.5, rng, n_draws=n_draws),
        exponential_mechanism([0.0, 1.0, 0.3], 1.0, 1.0, rng, n_draws=n_draws),
        exponential_mechanism([0.0, 1.0, 0.3], 1.0, 1.0, rng, monotone=True, n_draws=n_draws),
        report_noisy_max([0.0, 1.0, 0.3], 1.0, 0.5, rng, n_draws=n_draws),
        report_noisy_max([0.0, 1.0, 0.3], 1.0, 0.5, rng, noise="gumbel", n_draws=n_draws),
        report_noisy_min([0.0, 1.0, 0.3], 1.0, 0.5, rng, n_draws=n_draws),
        truncated_geometric(6, rng, n_draws=n_draws),
    ]


@pytest.mark.claim("core:Mechanism determinism")
@given(seed=seeds, n_draws=st.sampled_from([None, 1, 17]))
def test_same_seed_gives_identical_bits(seed, n_draws):
    a = _all_calls(np.random.default_rng(seed), n_draws)
    b = _all_calls(np.random.default_rng(seed), n_draws)
    for x, y in zip(a, b):
        assert type(x) is type(y)
        assert np.asarray(x).tobytes() == np.asarray(y).tobytes()


@pytest.mark.claim("core:Mechanism determinism")
def test_mechanisms_draw_only_from_the_given_generator():
    """The global numpy state is neither read nor advanced; different seeds give different noise."""
    np.random.seed(0)
    before = np.random.get_state()[1].copy()
    a = _all_calls(np.random.default_rng(1), 50)
    assert np.array_equal(np.random.get_state()[1], before)
    b = _all_calls(np.random.default_rng(2), 50)
    assert not np.array_equal(a[0], b[0])


# ---------------------------------------------------------------------------
# Input validation

rng0 = np.random.default_rng(0)

BAD_CALLS = [
    # (callable, error type, parameter name)
    (lambda: gaussian_mechanism([1.0], 1.0, 0.0, rng0), ParameterError, "sigma"),
    (lambda: gaussian_mechanism([1.0], -1.0, 1.0, rng0), ParameterError, "sensitivity"),
    (lambda: gaussian_mechanism([np.nan], 1.0, 1.0, rng0), NonFiniteError, "value"),
    (lambda: gaussian_mechanism([], 1.0, 1.0, rng0), ShapeError, "value"),
    (lambda: gaussian_mechanism([1.0], 1.0, np.inf, rng0), NonFiniteError, "sigma"),
    (lambda: gaussian_mechanism([1.0], 1.0, 1.0, 42), ParameterError, "rng"),
    (lambda: gaussian_mechanism([1.0], 1.0, 1.0, rng0, relation="swap"), ParameterError, "relation"),
    (lambda: gaussian_mechanism([1.0], 1.0, 1.0, rng0, n_draws=0), ParameterError, "n_draws"),
    (lambda: gaussian_mechanism([1.0], 1.0, 1.0, rng0, ledger=[]), ParameterError, "ledger"),
    (lambda: laplace_mechanism([1.0], 1.0, -2.0, rng0), ParameterError, "scale"),
    (lambda: laplace_mechanism([1.0], np.nan, 1.0, rng0), NonFiniteError, "sensitivity"),
    (lambda: laplace_mechanism("abc", 1.0, 1.0, rng0), ParameterError, "value"),
    (lambda: exponential_mechanism([1.0, 2.0], 1.0, 0.0, rng0), ParameterError, "epsilon"),
    (lambda: exponential_mechanism([1.0, 2.0], 1.0, -1.0, rng0), ParameterError, "epsilon"),
    (lambda: exponential_mechanism([1.0, 2.0], 1.0, np.inf, rng0), NonFiniteError, "epsilon"),
    (lambda: exponential_mechanism([1.0, 2.0], 0.0, 1.0, rng0), ParameterError, "sensitivity"),
    (lambda: exponential_mechanism([1.0, 2.0], -1.0, 1.0, rng0), ParameterError, "sensitivity"),
    (lambda: exponential_mechanism([], 1.0, 1.0, rng0), ShapeError, "scores"),
    (lambda: exponential_mechanism([1.0, np.nan], 1.0, 1.0, rng0), NonFiniteError, "scores"),
    (lambda: exponential_mechanism([[1.0, 2.0]], 1.0, 1.0, rng0), ShapeError, "scores"),
    (lambda: exponential_mechanism([1.0], 1.0, 1.0, rng0, monotone="yes"), ParameterError, "monotone"),
    (lambda: exponential_mechanism_log_probabilities([np.inf], 1.0, 1.0), NonFiniteError, "scores"),
    (lambda: exponential_mechanism_probabilities([1.0], 1.0, 0.0), ParameterError, "epsilon"),
    (lambda: report_noisy_max([1.0], 1.0, 1.0, rng0, noise="normal"), ParameterError, "noise"),
    (lambda: report_noisy_max([1.0], -1.0, 1.0, rng0), ParameterError, "sensitivity"),
    (lambda: report_noisy_max([1.0], 1.0, 0.0, rng0), ParameterError, "scale"),
    (lambda: report_noisy_max([], 1.0, 1.0, rng0), ShapeError, "scores"),
    (lambda: report_noisy_min([np.nan], 1.0, 1.0, rng0), NonFiniteError, "scores"),
    (lambda: truncated_geometric(-1, rng0), ParameterError, "M"),
    (lambda: truncated_geometric(2.5, rng0), ParameterError, "M"),
    (lambda: truncated_geometric(2, None), ParameterError, "rng"),
    (lambda: truncated_geometric_pmf(True), ParameterError, "M"),
]


@pytest.mark.claim("core:Mechanism input validation")
@pytest.mark.parametrize("call,error,name", BAD_CALLS)
def test_bad_inputs_raise_specific_errors(call, error, name):
    with pytest.raises(error) as info:
        call()
    assert info.value.name == name


junk = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-3, 3),
    st.just([]),
    st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=1, max_size=4),
    st.lists(st.lists(st.floats(-1, 1), min_size=1, max_size=2), min_size=1, max_size=2),
    st.sampled_from([None, "abc", "laplace", True, np.array([1.0, 2.0]), {"a": 1}]),
)

PUBLIC = [
    lambda a, b, c, rng: gaussian_mechanism(a, b, c, rng),
    lambda a, b, c, rng: laplace_mechanism(a, b, c, rng),
    lambda a, b, c, rng: exponential_mechanism(a, b, c, rng),
    lambda a, b, c, rng: exponential_mechanism(a, b, c, rng, monotone=True),
    lambda a, b, c, rng: exponential_mechanism_log_probabilities(a, b, c),
    lambda a, b, c, rng: exponential_mechanism_probabilities(a, b, c),
    lambda a, b, c, rng: report_noisy_max(a, b, c, rng),
    lambda a, b, c, rng: report_noisy_max(a, b, c, rng, noise="gumbel"),
    lambda a, b, c, rng: report_noisy_min(a, b, c, rng),
    lambda a, b, c, rng: report_noisy_max(a, 1.0, 1.0, rng, noise=b, monotone=c),
    lambda a, b, c, rng: gaussian_mechanism(1.0, 1.0, 1.0, rng, relation=a, n_draws=b),
    lambda a, b, c, rng: truncated_geometric(a, rng, n_draws=b),
    lambda a, b, c, rng: truncated_geometric_pmf(a),
]


@pytest.mark.claim("core:Mechanism input validation")
@pytest.mark.parametrize("index", range(len(PUBLIC)))
@given(a=junk, b=junk, c=junk, seed=seeds)
def test_junk_inputs_raise_package_errors_or_give_nan_free_results(index, a, b, c, seed):
    """Every public function, driven with arbitrary inputs: either a package error or a NaN-free result."""
    assert_package_error_or_nan_free(lambda: PUBLIC[index](a, b, c, np.random.default_rng(seed)))


@pytest.mark.claim("core:Laplace report-noisy-max selection law")
@pytest.mark.parametrize("noise", ["laplace", "gumbel"])
def test_single_draws_are_the_batch_mode_draws(noise):
    """The law tests run the batch mode; an algorithm runs single draws. They must be the same
    computation: k single calls on one generator give exactly the first k batch outputs
    (a scale changed in one path only would break this)."""
    scores = np.array([0.0, 0.7, 1.5, -0.3])
    rng = np.random.default_rng(5)
    single = [report_noisy_max(scores, 1.0, 0.9, rng, noise=noise) for _ in range(300)]
    batch = report_noisy_max(scores, 1.0, 0.9, np.random.default_rng(5), noise=noise, n_draws=300)
    assert single == batch.tolist()
