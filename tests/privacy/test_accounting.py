"""Property tests of the accountant (reference/privacy/accounting.py).

Reference values come from independent computations written here (direct sums,
closed forms, scipy quadrature), never from the code under test. Hypothesis
draws parameters; every property is one that a wrong formula or a wrong rounding
direction would break.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import assume, given, strategies as st
from scipy import integrate, special, stats

from reference.errors import AccountingError, NonFiniteError, ParameterError, PrivacyWarning, ShapeError
from reference.privacy import accounting as acc
from reference.privacy import bounded_range as br
from reference.privacy.ledger import FrozenLedger, Ledger, MechanismEvent

eps_st = st.floats(min_value=1e-3, max_value=5.0, allow_nan=False, allow_infinity=False)
small_eps_st = st.floats(min_value=1e-3, max_value=1.0)
delta_st = st.floats(min_value=1e-12, max_value=0.2)
log_delta_st = st.floats(min_value=-30.0, max_value=-1.0).map(lambda t: 10.0 ** t)
mu_st = st.floats(min_value=1e-2, max_value=10.0)
rho_st = st.floats(min_value=1e-6, max_value=100.0)
k_st = st.integers(min_value=1, max_value=200)


# ---------------------------------------------------------------------------
# Independent reference computations.

def kov_profile_direct(eps0: float, delta0: float, k: int, eps_prime: float) -> mpmath.mpf:
    """KOV15 Thm 3.3 profile, written from the paper's sum with mpmath binomials."""
    with mpmath.workdps(50):
        e0, ep = mpmath.mpf(eps0), mpmath.mpf(eps_prime)
        s = mpmath.fsum(mpmath.binomial(k, i) * max(mpmath.mpf(0), mpmath.exp((k - i) * e0) - mpmath.exp(ep + i * e0))
                        for i in range(k + 1))
        hom = s / (1 + mpmath.exp(e0)) ** k
        return 1 - (1 - mpmath.mpf(delta0)) ** k * (1 - hom)


def kov_breakpoint_delta(eps0: float, k: int, i: int) -> mpmath.mpf:
    """KOV15 Thm 3.3 as printed: delta_i at eps' = (k - 2i) eps0 (pure case)."""
    with mpmath.workdps(50):
        e0 = mpmath.mpf(eps0)
        s = mpmath.fsum(mpmath.binomial(k, l) * (mpmath.exp((k - l) * e0) - mpmath.exp((k - 2 * i + l) * e0))
                        for l in range(i))
        return s / (1 + mpmath.exp(e0)) ** k


def gaussian_delta_float(eps: float, mu: float) -> float:
    """The Balle-Wang profile in float64 log space (scipy.special.log_ndtr)."""
    la = special.log_ndtr(mu / 2 - eps / mu)
    lb = special.log_ndtr(-mu / 2 - eps / mu)
    return math.exp(la) * -math.expm1(eps + lb - la)


def hockey_stick_quad(eps: float, mu: float) -> float:
    """sup_S P(S) - e^eps Q(S) for P = N(0,1), Q = N(mu,1), by scipy quadrature over {p > e^eps q}."""
    threshold = mu / 2 - eps / mu    # p(x) > e^eps q(x)  <=>  x < threshold
    c = 1 / math.sqrt(2 * math.pi)
    f = lambda x: c * (math.exp(-x * x / 2) - math.exp(eps - (x - mu) ** 2 / 2))
    val, _ = integrate.quad(f, -np.inf, threshold, epsabs=1e-14, epsrel=1e-12)
    return val


def ulp_above(x: float, n: int = 4) -> float:
    for _ in range(n):
        x = math.nextafter(x, math.inf)
    return x


# ---------------------------------------------------------------------------
# Basic composition.

@pytest.mark.claim("core:basic composition")
@given(st.lists(st.floats(min_value=0.0, max_value=10.0), min_size=1, max_size=20),
       st.data())
def test_basic_is_the_exact_sum_rounded_up(epsilons, data):
    deltas = data.draw(st.lists(st.floats(min_value=0.0, max_value=0.04),
                                min_size=len(epsilons), max_size=len(epsilons)))
    e, d = acc.basic_composition(epsilons, deltas)
    exact_e = sum(Fraction(x) for x in epsilons)
    exact_d = sum(Fraction(x) for x in deltas)
    assert Fraction(e) >= exact_e and Fraction(d) >= exact_d
    assert e <= ulp_above(float(exact_e), 1) and d <= ulp_above(float(exact_d), 1)


@pytest.mark.claim("core:basic composition")
@given(eps_st, st.floats(min_value=0.0, max_value=0.5))
def test_basic_of_one_mechanism_is_the_identity(e, d):
    assert acc.basic_composition([e], [d]) == (e, d)


@pytest.mark.claim("core:basic composition")
@given(st.lists(eps_st, min_size=1, max_size=10), st.integers(0, 9), st.floats(min_value=0.0, max_value=1.0))
def test_basic_is_monotone_in_each_epsilon(epsilons, j, bump):
    j = j % len(epsilons)
    bigger = list(epsilons)
    bigger[j] += bump
    assert acc.basic_composition(bigger)[0] >= acc.basic_composition(epsilons)[0]


@pytest.mark.parametrize("args, error", [
    (([],), ShapeError),
    (([1.0, 2.0], [0.1]), ParameterError),
    (([1.0, -0.5],), ParameterError),
    (([1.0, float("nan")],), NonFiniteError),
    (([1.0], [1.5]), ParameterError),
    (([0.5] * 3, [0.4] * 3), AccountingError),
])
def test_basic_rejects_bad_input(args, error):
    with pytest.raises(error):
        acc.basic_composition(*args)


# ---------------------------------------------------------------------------
# Advanced composition and the optimal (KOV) composition.

@pytest.mark.claim("core:advanced composition")
@given(eps_st, k_st, log_delta_st)
def test_advanced_matches_the_printed_formula(e, k, dp):
    got, d = acc.advanced_composition(e, 0.0, k, dp)
    printed = math.sqrt(2 * k * math.log(1 / dp)) * e + k * e * (math.exp(e) - 1)
    assert got == pytest.approx(printed, rel=1e-12)
    assert d >= dp


@pytest.mark.claim("core:advanced composition")
@given(eps_st, k_st, log_delta_st, st.floats(min_value=1.0, max_value=2.0), st.integers(1, 50))
def test_advanced_is_monotone(e, k, dp, factor, extra):
    base = acc.advanced_composition(e, 0.0, k, dp)[0]
    assert acc.advanced_composition(e * factor, 0.0, k, dp)[0] >= base
    assert acc.advanced_composition(e, 0.0, k + extra, dp)[0] >= base
    assert acc.advanced_composition(e, 0.0, k, min(dp * 2, 0.5))[0] <= base


@pytest.mark.claim("core:advanced composition")
@pytest.mark.claim("core:optimal composition")
@given(st.floats(min_value=1e-3, max_value=2.0), st.integers(1, 120), log_delta_st,
       st.sampled_from([0.0, 1e-9, 1e-6]))
def test_advanced_never_beats_the_exact_optimum(e, k, dp, d0):
    adv, d_total = acc.advanced_composition(e, d0, k, dp)
    opt = acc.optimal_homogeneous_composition(e, d0, k, d_total)
    assert opt <= adv


@pytest.mark.claim("core:optimal composition")
@given(eps_st, st.sampled_from([1e-12, 1e-8, 1e-4]))
def test_optimal_composition_of_one_mechanism_is_the_identity(e, d0):
    got = acc.optimal_homogeneous_composition(e, d0, 1, d0)
    assert e <= got <= ulp_above(e, 2)


@pytest.mark.claim("core:optimal composition")
@given(eps_st, delta_st)
def test_optimal_composition_of_one_pure_mechanism_closed_form(e, t):
    """k = 1: (e^eps - e^eps')/(1 + e^eps) = t  =>  eps' = ln(e^eps - t (1 + e^eps))."""
    closed = math.log(math.exp(e) - t * (1 + math.exp(e))) if math.exp(e) > t * (1 + math.exp(e)) else 0.0
    got = acc.optimal_homogeneous_composition(e, 0.0, 1, t)
    assert got == pytest.approx(max(closed, 0.0), rel=1e-12, abs=1e-12)


@pytest.mark.claim("core:optimal composition")
@given(st.floats(min_value=1e-2, max_value=2.0), st.integers(2, 60), delta_st, st.sampled_from([0.0, 1e-9]))
def test_optimal_is_the_smallest_epsilon_meeting_the_profile(e, k, dt, d0):
    assume(dt > 1.01 * k * d0)
    got = acc.optimal_homogeneous_composition(e, d0, k, dt)
    assert 0 <= got <= k * e * (1 + 1e-15)
    assert kov_profile_direct(e, d0, k, got) <= dt
    if got > 0:
        assert kov_profile_direct(e, d0, k, got * (1 - 1e-9)) > dt


@pytest.mark.claim("core:optimal composition")
@given(st.floats(min_value=0.05, max_value=1.5), st.integers(2, 40), st.data())
def test_optimal_reproduces_the_printed_breakpoints(e, k, data):
    """At delta_total = KOV's delta_i the optimum is (k - 2i) eps0 (KOV15 Thm 3.3 as printed)."""
    i = data.draw(st.integers(1, (k - 1) // 2)) if k >= 3 else 1
    assume(k - 2 * i > 0)
    di = kov_breakpoint_delta(e, k, i)
    assume(1e-300 < di < 0.99)
    got = acc.optimal_homogeneous_composition(e, 0.0, k, float(di))
    assert got == pytest.approx((k - 2 * i) * e, rel=1e-9)


@pytest.mark.claim("core:optimal composition")
@given(st.floats(min_value=1e-2, max_value=1.0), st.integers(1, 60), delta_st, st.floats(1.0, 3.0), st.integers(1, 20))
def test_optimal_is_monotone(e, k, dt, factor, extra):
    base = acc.optimal_homogeneous_composition(e, 0.0, k, dt)
    assert acc.optimal_homogeneous_composition(e * factor, 0.0, k, dt) >= base
    assert acc.optimal_homogeneous_composition(e, 0.0, k + extra, dt) >= base
    assert acc.optimal_homogeneous_composition(e, 0.0, k, min(dt * factor, 0.9)) <= base


def test_optimal_refuses_an_unreachable_delta():
    with pytest.raises(AccountingError):
        acc.optimal_homogeneous_composition(0.5, 1e-3, 10, 1e-3)   # 1-(1-1e-3)^10 > 1e-3


@pytest.mark.parametrize("kwargs, error", [
    (dict(epsilon=0.0, delta=0.0, k=3, delta_prime=1e-5), ParameterError),
    (dict(epsilon=float("inf"), delta=0.0, k=3, delta_prime=1e-5), NonFiniteError),
    (dict(epsilon=1.0, delta=0.0, k=0, delta_prime=1e-5), ParameterError),
    (dict(epsilon=1.0, delta=0.0, k=2.5, delta_prime=1e-5), ParameterError),
    (dict(epsilon=1.0, delta=0.0, k=3, delta_prime=0.0), ParameterError),
    (dict(epsilon=1.0, delta=0.0, k=3, delta_prime=1.0), ParameterError),
    (dict(epsilon=1.0, delta=-1e-3, k=3, delta_prime=1e-5), ParameterError),
])
def test_advanced_rejects_bad_input(kwargs, error):
    with pytest.raises(error):
        acc.advanced_composition(**kwargs)


# ---------------------------------------------------------------------------
# zCDP.

@pytest.mark.claim("core:zCDP of Gaussian")
@given(st.floats(min_value=0.0, max_value=100.0), st.floats(min_value=1e-3, max_value=100.0))
def test_zcdp_of_gaussian_formula(s, sigma):
    got = acc.zcdp_of_gaussian(s, sigma)
    exact = Fraction(s) ** 2 / (2 * Fraction(sigma) ** 2)
    assert Fraction(got) >= exact and got <= ulp_above(float(exact), 1)


@pytest.mark.claim("core:zCDP of Gaussian")
@given(mu_st, log_delta_st)
def test_zcdp_of_gaussian_is_never_tighter_than_the_exact_profile(mu, d):
    """The zCDP route must certify at least the exact epsilon of the Gaussian (BW18)."""
    rho = acc.zcdp_of_gaussian(mu, 1.0)
    exact = acc.gaussian_epsilon(d, mu)
    assert acc.zcdp_to_dp(rho, d, "tight") >= exact * (1 - 1e-12)


@pytest.mark.claim("core:zCDP of pure DP")
@given(eps_st)
def test_zcdp_of_pure_formula(e):
    got = acc.zcdp_of_pure(e)
    assert Fraction(got) >= Fraction(e) ** 2 / 2 and got == pytest.approx(e * e / 2, rel=1e-15)


@pytest.mark.claim("core:zCDP of pure DP")
@given(st.floats(min_value=1e-3, max_value=3.0), log_delta_st)
def test_zcdp_of_pure_route_never_beats_the_exact_pure_profile(e, d):
    """An eps-DP mechanism is (eps', d)-DP only for eps' >= eps + ln(1-d)... The optimal profile of
    one eps-DP mechanism (KOV15, k=1) is the exact lower limit any valid route must respect."""
    exact = acc.optimal_homogeneous_composition(e, 0.0, 1, d)
    assert acc.zcdp_to_dp(acc.zcdp_of_pure(e), d, "tight") >= exact * (1 - 1e-12) or exact == e


@pytest.mark.claim("core:zCDP composition")
@given(st.lists(rho_st, min_size=1, max_size=20))
def test_zcdp_compose_adds_and_one_is_identity(rhos):
    assert acc.zcdp_compose(rhos[:1]) == rhos[0]
    got = acc.zcdp_compose(rhos)
    exact = sum(Fraction(r) for r in rhos)
    assert Fraction(got) >= exact and got <= ulp_above(float(exact), 1)


@pytest.mark.claim("core:zCDP to DP")
@given(rho_st, log_delta_st, st.floats(1.0, 4.0))
def test_standard_conversion_formula_and_monotone(rho, d, factor):
    got = acc.zcdp_to_dp(rho, d)
    assert got == pytest.approx(rho + 2 * math.sqrt(rho * math.log(1 / d)), rel=1e-13)
    assert acc.zcdp_to_dp(rho * factor, d) >= got
    assert acc.zcdp_to_dp(rho, min(d * factor, 0.9)) <= got


@pytest.mark.claim("core:zCDP to DP")
@given(eps_st, log_delta_st)
def test_standard_conversion_round_trips(e, d):
    rho = acc.zcdp_for_dp(e, d, "standard")
    back = acc.zcdp_to_dp(rho, d, "standard")
    assert back <= e * (1 + 1e-14)
    assert back == pytest.approx(e, rel=1e-12)


@pytest.mark.claim("core:zCDP to DP tight")
@given(rho_st, log_delta_st, st.floats(1.0, 4.0))
def test_tight_conversion_is_below_standard_and_monotone(rho, d, factor):
    tight = acc.zcdp_to_dp(rho, d, "tight")
    assert 0 <= tight <= acc.zcdp_to_dp(rho, d, "standard")
    assert acc.zcdp_to_dp(rho * factor, d, "tight") >= tight * (1 - 1e-9)
    assert acc.zcdp_to_dp(rho, min(d * factor, 0.9), "tight") <= tight * (1 + 1e-9)


@pytest.mark.claim("core:zCDP to DP tight")
@given(rho_st, log_delta_st)
def test_tight_conversion_is_the_minimum_over_orders(rho, d):
    """No order on a fine grid gives a smaller bound than the one returned (CKS20 Cor 13)."""
    tight = acc.zcdp_to_dp(rho, d, "tight")
    L = math.log(1 / d)
    alphas = 1 + np.sqrt(L / rho) * np.exp(np.linspace(-6, 6, 2001))
    grid = alphas * rho + np.log1p(-1 / alphas) + (L - np.log(alphas)) / (alphas - 1)
    assert tight <= max(grid.min(), 0.0) * (1 + 1e-9) + 1e-300


@pytest.mark.claim("core:zCDP to DP tight")
@given(eps_st, log_delta_st)
def test_tight_conversion_round_trips(e, d):
    rho = acc.zcdp_for_dp(e, d, "tight")
    assert rho >= acc.zcdp_for_dp(e, d, "standard")
    back = acc.zcdp_to_dp(rho, d, "tight")
    assert back == pytest.approx(e, rel=1e-7)


@pytest.mark.claim("core:zCDP to DP tight")
@pytest.mark.parametrize("rho, delta", [(1e-12, 1e-5), (1e-9, 0.5), (1e6, 1e-5), (1e6, 0.9), (50.0, 1e-300)])
def test_tight_conversion_guards_extreme_orders(rho, delta):
    """An order drifting to 1 (or the optimiser failing) must not turn epsilon into 0 or NaN."""
    tight = acc.zcdp_to_dp(rho, delta, "tight")
    exact = acc.gaussian_epsilon(delta, math.sqrt(2 * rho))
    assert math.isfinite(tight) and tight >= exact * (1 - 1e-12)
    assert tight <= acc.zcdp_to_dp(rho, delta, "standard")


def test_zcdp_rejects_bad_input():
    with pytest.raises(ParameterError):
        acc.zcdp_to_dp(-1.0, 1e-5)
    with pytest.raises(ParameterError):
        acc.zcdp_to_dp(1.0, 0.0)
    with pytest.raises(ParameterError):
        acc.zcdp_to_dp(1.0, 1e-5, method="magic")
    with pytest.raises(ParameterError):
        acc.zcdp_for_dp(0.0, 1e-5)
    with pytest.raises(ParameterError):
        acc.zcdp_of_gaussian(-1.0, 1.0)
    with pytest.raises(ParameterError):
        acc.zcdp_of_gaussian(1.0, 0.0)
    with pytest.raises(ShapeError):
        acc.zcdp_compose([])


# ---------------------------------------------------------------------------
# Gaussian: exact profile, inverse, calibrations, GDP.

@pytest.mark.claim("core:Gaussian exact profile")
@given(st.floats(min_value=0.0, max_value=5.0), st.floats(min_value=0.2, max_value=5.0))
def test_gaussian_profile_matches_quadrature(e, mu):
    ref = hockey_stick_quad(e, mu)
    assume(ref > 1e-10)
    got = acc.gaussian_delta(e, mu)
    assert got >= ref * (1 - 1e-8)
    assert got == pytest.approx(ref, rel=1e-7)


@pytest.mark.claim("core:Gaussian exact profile")
@given(st.floats(min_value=0.0, max_value=20.0), st.floats(min_value=0.5, max_value=10.0))
def test_gaussian_profile_matches_log_space_float(e, mu):
    ref = gaussian_delta_float(e, mu)
    assume(ref > 1e-250)
    assert acc.gaussian_delta(e, mu) == pytest.approx(ref, rel=1e-8)


@pytest.mark.claim("core:Gaussian exact profile")
@given(st.floats(min_value=0.0, max_value=10.0), mu_st, st.floats(1.0, 2.0))
def test_gaussian_profile_is_monotone(e, mu, factor):
    base = acc.gaussian_delta(e, mu)
    assert 0 <= base < 1
    assert acc.gaussian_delta(e * factor + 1e-3, mu) <= base
    assert acc.gaussian_delta(e, mu * factor) >= base


@pytest.mark.claim("core:Gaussian exact profile")
@given(mu_st, log_delta_st)
def test_gaussian_epsilon_inverts_the_profile(mu, d):
    e = acc.gaussian_epsilon(d, mu)
    assert e >= 0
    assert acc.gaussian_delta(e, mu) <= d
    if e > 0:
        assert acc.gaussian_delta(e * (1 - 1e-9), mu) > d


@pytest.mark.claim("core:Gaussian exact profile")
@pytest.mark.parametrize("mu", [0.05, 1.0, 20.0])
def test_gaussian_epsilon_has_no_jumps_at_tiny_delta(mu):
    """eps(delta) is smooth and increasing as delta -> 1e-300 (no float underflow cliff)."""
    deltas = [10.0 ** -t for t in range(5, 301, 5)]
    eps = [acc.gaussian_epsilon(d, mu) for d in deltas]
    assert all(b > a for a, b in zip(eps, eps[1:]))
    # log eps(delta) is nearly linear in sqrt(ln 1/delta): consecutive steps differ by < 2x.
    steps = np.diff(eps)
    assert np.all(steps[1:] / steps[:-1] < 2.0) and np.all(steps[1:] / steps[:-1] > 0.5)


@pytest.mark.claim("core:Gaussian exact profile")
def test_gaussian_profile_edge_cases():
    assert acc.gaussian_delta(1.0, 0.0) == 0.0
    assert acc.gaussian_epsilon(1e-5, 0.0) == 0.0
    # eps = 0: total variation 2 Phi(mu/2) - 1
    assert acc.gaussian_delta(0.0, 1.0) == pytest.approx(2 * stats.norm.cdf(0.5) - 1, rel=1e-14)
    # a tiny but representable delta is positive, not flushed to 0
    assert 0 < acc.gaussian_delta(30.0, 1.0) < 1e-150
    with pytest.raises(ParameterError):
        acc.gaussian_delta(-1.0, 1.0)
    with pytest.raises(ParameterError):
        acc.gaussian_epsilon(1e-5, -1.0)


@pytest.mark.claim("core:Gaussian analytic calibration")
@given(eps_st, log_delta_st, st.floats(min_value=1e-2, max_value=100.0))
def test_analytic_sigma_is_the_smallest_valid_sigma(e, d, s):
    sigma = acc.analytic_gaussian_sigma(e, d, s)
    mu = s / sigma
    if Fraction(mu) > Fraction(s) / Fraction(sigma):    # the float division may round mu up
        mu = math.nextafter(mu, 0.0)
    assert acc.gaussian_delta(e, mu) <= d
    assert acc.gaussian_delta(e, s / (sigma * (1 - 1e-9))) > d


@pytest.mark.claim("core:Gaussian analytic calibration")
@given(small_eps_st, log_delta_st)
def test_analytic_sigma_never_needs_more_noise_than_classic(e, d):
    assert acc.analytic_gaussian_sigma(e, d, 1.0) <= acc.classic_gaussian_sigma(e, d, 1.0)


@pytest.mark.claim("core:Gaussian classic calibration")
@given(small_eps_st, st.floats(min_value=1e-30, max_value=0.5), st.floats(min_value=1e-2, max_value=100.0))
def test_classic_sigma_gives_eps_delta_for_eps_at_most_one(e, d, s):
    sigma = acc.classic_gaussian_sigma(e, d, s)
    assert sigma == pytest.approx(math.sqrt(2 * math.log(1.25 / d)) * s / e, rel=1e-14)
    assert acc.gaussian_delta(e, s / sigma) <= d


@pytest.mark.claim("core:Gaussian classic calibration fails above 1")
def test_classic_sigma_fails_at_eps_9_delta_1e5():
    """At eps = 9, delta = 1e-5 the classic sigma leaks more than delta (exact profile); it says so with a
    PrivacyWarning naming core-A01 and the analytic calibration (it used to return silently)."""
    with pytest.warns(PrivacyWarning, match="core-A01.*analytic_gaussian_sigma"):
        sigma = acc.classic_gaussian_sigma(9.0, 1e-5, 1.0)
    assert acc.gaussian_delta(9.0, 1.0 / sigma) > 1e-5
    # ... and the analytic calibration fixes it.
    assert acc.gaussian_delta(9.0, 1.0 / acc.analytic_gaussian_sigma(9.0, 1e-5, 1.0)) <= 1e-5


@pytest.mark.claim("core:Gaussian classic calibration fails above 1")
def test_classic_sigma_is_silent_where_it_holds():
    """eps = 8.4 < 8.4198 at delta = 1e-5 and every eps <= 1: the classic calibration holds, no warning."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", PrivacyWarning)
        for e in (0.1, 1.0, 2.0, 8.4):
            acc.classic_gaussian_sigma(e, 1e-5, 1.0)


def test_calibrations_reject_bad_input():
    for f in (acc.classic_gaussian_sigma, acc.analytic_gaussian_sigma):
        with pytest.raises(ParameterError):
            f(0.0, 1e-5, 1.0)
        with pytest.raises(ParameterError):
            f(1.0, 1.0, 1.0)
        with pytest.raises(ParameterError):
            f(1.0, 1e-5, -1.0)
        with pytest.raises(NonFiniteError):
            f(float("nan"), 1e-5, 1.0)


@pytest.mark.claim("core:GDP composition")
@given(st.lists(mu_st, min_size=1, max_size=30))
def test_gdp_compose(mus):
    assert acc.gdp_compose(mus[:1]) == mus[0]
    got = acc.gdp_compose(mus)
    assert got == pytest.approx(math.sqrt(sum(m * m for m in mus)), rel=1e-14)
    assert acc.gdp_compose(list(reversed(mus))) == got
    # composing k equal Gaussians equals one Gaussian with sensitivity sqrt(k) (exact; DRS22 Cor 3.3)
    k = len(mus)
    assert acc.gdp_compose([mus[0]] * k) == pytest.approx(mus[0] * math.sqrt(k), rel=1e-14)


@pytest.mark.claim("core:GDP composition")
@given(st.lists(st.floats(0.1, 2.0), min_size=2, max_size=4), st.floats(0.0, 3.0))
def test_gdp_composition_matches_the_product_measure(mus, e):
    """The composition of N(0,1) vs N(mu_i,1) is the product pair; its hockey-stick divergence,
    integrated along the direction of the shift (the likelihood ratio depends on that coordinate only),
    equals the profile at sqrt(sum mu_i^2)."""
    mu = math.sqrt(sum(m * m for m in mus))
    ref = hockey_stick_quad(e, mu)
    assume(ref > 1e-10)
    assert acc.gaussian_delta(e, acc.gdp_compose(mus)) == pytest.approx(ref, rel=1e-7)


# ---------------------------------------------------------------------------
# Laplace.

@pytest.mark.claim("core:Laplace exact profile")
@given(st.floats(min_value=0.0, max_value=5.0), st.floats(min_value=1e-2, max_value=5.0))
def test_laplace_profile_matches_quadrature(e, e0):
    """sup_S P(S) - e^eps Q(S) for P = Lap(0,1), Q = Lap(e0,1), integrated numerically."""
    p = lambda x: 0.5 * math.exp(-abs(x))
    q = lambda x: 0.5 * math.exp(-abs(x - e0))
    f = lambda x: max(0.0, p(x) - math.exp(e) * q(x))
    # integrate piecewise between the kinks of the integrand (0, e0 and where it reaches 0)
    cuts = sorted({-60.0, 0.0, e0, 60.0, min(max((e0 - e) / 2, 0.0), e0)})
    ref = sum(integrate.quad(f, a, b, epsabs=1e-15, epsrel=1e-13)[0] for a, b in zip(cuts, cuts[1:]))
    got = acc.laplace_delta(e, e0)
    assert got == pytest.approx(ref, rel=1e-9, abs=1e-14)
    assert got >= ref * (1 - 1e-12) - 1e-14


@pytest.mark.claim("core:Laplace exact profile")
@given(st.floats(min_value=0.0, max_value=5.0), st.floats(min_value=1e-2, max_value=5.0), st.floats(1.0, 2.0))
def test_laplace_profile_is_monotone_and_zero_at_eps0(e, e0, factor):
    base = acc.laplace_delta(e, e0)
    assert acc.laplace_delta(e * factor, e0) <= base
    assert acc.laplace_delta(e, e0 * factor) >= base
    assert acc.laplace_delta(e0, e0) == 0.0


# ---------------------------------------------------------------------------
# Ledger events.

def ev(kind, **kw):
    norms = {"gaussian": "l2", "laplace": "l1"}
    kw.setdefault("norm", norms.get(kind, "score"))
    kw.setdefault("sensitivity", 1.0)
    return MechanismEvent(kind, **kw)


@pytest.mark.claim("core:certify")
def test_event_guarantees_per_kind():
    assert acc.event_epsilon(ev("laplace", sensitivity=2.0, noise_scale=4.0)) == 0.5
    assert acc.event_epsilon(ev("report_noisy_max", noise_scale=4.0, noise="gumbel")) == 0.5
    assert acc.event_epsilon(ev("report_noisy_max", noise_scale=4.0, noise="laplace", monotone=True)) == 0.25
    assert acc.event_epsilon(ev("exponential", epsilon=0.3)) == 0.3
    assert acc.event_epsilon(ev("approximate", epsilon=0.3, delta=1e-6)) == 0.3
    assert acc.event_mu(ev("gaussian", sensitivity=3.0, noise_scale=2.0)) == 1.5
    assert acc.event_rho(ev("gaussian", sensitivity=3.0, noise_scale=2.0)) == 1.125
    assert acc.event_rho(ev("pure", epsilon=2.0, norm="l1")) == 2.0
    with pytest.raises(AccountingError):
        acc.event_epsilon(ev("gaussian", noise_scale=1.0))
    with pytest.raises(AccountingError):
        acc.event_mu(ev("laplace", noise_scale=1.0))
    with pytest.raises(AccountingError):
        acc.event_rho(ev("approximate", epsilon=0.3, delta=1e-6))
    with pytest.raises(AccountingError):   # a Gaussian needs an l2 sensitivity
        acc.event_mu(ev("gaussian", noise_scale=1.0, norm="l1"))
    with pytest.raises(AccountingError):   # a Laplace needs an l1 sensitivity
        acc.event_epsilon(ev("laplace", noise_scale=1.0, norm="l2"))
    with pytest.raises(ParameterError):
        acc.event_epsilon({"kind": "laplace"})


# ---------------------------------------------------------------------------
# Fully adaptive composition.

@pytest.mark.claim("core:fully adaptive composition")
@given(st.lists(st.floats(1e-3, 1.0), min_size=1, max_size=30), log_delta_st)
def test_fully_adaptive_bound_is_the_zcdp_conversion(epsilons, dp):
    """saddle_point-P06: the filter expression equals rho + 2 sqrt(rho ln 1/delta'), rho = sum eps^2 / 2."""
    e, d = acc.fully_adaptive_composition(epsilons, dp)
    rho = sum(x * x for x in epsilons) / 2
    assert e == pytest.approx(rho + 2 * math.sqrt(rho * math.log(1 / dp)), rel=1e-13)
    assert d >= dp


@pytest.mark.claim("core:fully adaptive composition")
@given(st.floats(0.02, 0.5), st.floats(0.1, 2.0), log_delta_st)
def test_filter_stops_exactly_where_the_theorem_says(e0, budget, d):
    """Homogeneous steps: the filter admits k steps iff sqrt(2 k e0^2 L) + k e0^2 / 2 <= budget."""
    L = math.log(1 / d)
    f = acc.FullyAdaptiveFilter(budget, d)
    while f.can_spend(e0):
        f.spend(e0)
        assert f.n_spent < 10 ** 6
    k = f.n_spent
    lhs = lambda k: math.sqrt(2 * k * e0 * e0 * L) + k * e0 * e0 / 2
    assert lhs(k) <= budget * (1 + 1e-12)
    assert lhs(k + 1) > budget * (1 - 1e-12)
    assert f.spent_epsilon() <= budget
    with pytest.raises(AccountingError):
        f.spend(e0)


@pytest.mark.claim("core:fully adaptive composition")
@given(st.floats(0.05, 1.0), log_delta_st, st.integers(1, 2000))
def test_filter_admits_saddle_point_corollary_3_6(eps, d, k):
    """saddle_point Cor 3.6: eps0 = eps / (2 sqrt(2 k ln 1/delta)) admits k steps when eps <= 8 ln(1/delta)."""
    assume(eps <= 8 * math.log(1 / d))
    e0 = eps / (2 * math.sqrt(2 * k * math.log(1 / d))) * (1 - 1e-12)
    e, _ = acc.fully_adaptive_composition([e0] * k, d)
    assert e <= eps


@pytest.mark.claim("core:fully adaptive composition")
def test_filter_with_step_deltas_and_events():
    f = acc.FullyAdaptiveFilter(1.0, 1e-5, delta_for_steps=4e-6)
    f.spend(0.1, 2e-6)
    f.spend(0.1, 2e-6)
    assert not f.can_spend(0.01, 1e-7)           # the steps' delta budget is used up
    assert f.can_spend(0.01)
    f.spend_event(ev("gaussian", sensitivity=0.1, noise_scale=1.0))
    with pytest.raises(ParameterError):
        acc.FullyAdaptiveFilter(1.0, 1e-5, delta_for_steps=1e-5)
    with pytest.raises(ParameterError):
        acc.FullyAdaptiveFilter(0.0, 1e-5)


# ---------------------------------------------------------------------------
# certify.

def ledger_of(events):
    led = Ledger()
    for e in events:
        led.record(e)
    return led.freeze()


@pytest.mark.claim("core:certify")
@pytest.mark.parametrize("delta", [1e-9, 0.3])
def test_certify_empty_ledger(delta):
    c = acc.certify(FrozenLedger(), delta)
    assert (c.epsilon, c.delta, c.n_events) == (0.0, delta, 0)


@pytest.mark.claim("core:certify")
@given(st.lists(st.tuples(st.floats(0.05, 3.0), st.floats(0.2, 50.0)), min_size=1, max_size=12), log_delta_st)
def test_certify_all_gaussian_equals_the_exact_gdp_value(pairs, d):
    events = [ev("gaussian", sensitivity=s, noise_scale=sig) for s, sig in pairs]
    c = acc.certify(ledger_of(events), d)
    mu_sq = sum((Fraction(s) / Fraction(sig)) ** 2 for s, sig in pairs)   # exact
    mu_up = math.sqrt(float(mu_sq))
    while Fraction(mu_up) ** 2 < mu_sq:
        mu_up = math.nextafter(mu_up, math.inf)
    # never below the exact value: the exact profile (at a mu no smaller than the true one) is met
    assert acc.gaussian_delta(c.epsilon, mu_up) <= d
    # and equal to it within rounding
    assert c.epsilon <= acc.gaussian_epsilon(d, mu_up) * (1 + 1e-12) + 1e-300
    if c.epsilon > 0:
        assert acc.gaussian_delta(c.epsilon * (1 - 1e-9), math.nextafter(mu_up, 0.0)) > d


@pytest.mark.claim("core:certify")
@given(st.lists(st.sampled_from(["laplace", "rnm", "exp", "pure", "gauss"]), min_size=1, max_size=25),
       st.floats(0.01, 1.0), log_delta_st)
def test_certify_is_the_minimum_of_valid_candidates_and_respects_exact_parts(kinds, scale, d):
    events = []
    for i, kind in enumerate(kinds):
        s = scale * (1 + (i % 3))
        if kind == "laplace":
            events.append(ev("laplace", sensitivity=s, noise_scale=4.0))
        elif kind == "rnm":
            events.append(ev("report_noisy_max", sensitivity=s, noise_scale=8.0, noise="laplace"))
        elif kind == "exp":
            events.append(ev("exponential", epsilon=s))
        elif kind == "pure":
            events.append(ev("pure", epsilon=s, norm="l1"))
        else:
            events.append(ev("gaussian", sensitivity=s, noise_scale=3.0))
    c = acc.certify(ledger_of(events), d)
    assert c.epsilon == min(e for _, e in c.candidates)
    assert (c.method, c.epsilon) in c.candidates
    names = [m for m, _ in c.candidates]
    assert "zCDP (tight)" in names
    assert ("basic" in names or "basic + GDP block" in names or "GDP (exact)" in names)
    # never below an exact lower limit: the composition is at least as revealing as its
    # Gaussian part (exact GDP) and as any single step at its worst case: a stated eps-DP step may be
    # randomized response (exact one-step optimum), a Laplace step has its exact profile, an
    # exponential mechanism may be any GRR_t, whose supremum is the BR envelope (bounded_range.py).
    mus = [acc.event_mu(e) for e in events if e.kind == "gaussian"]
    if mus:
        assert c.epsilon >= acc.gaussian_epsilon(d, acc.gdp_compose(mus))
    stated = [acc.event_epsilon(e) for e in events if e.kind == "pure"]
    if stated:
        assert c.epsilon >= acc.optimal_homogeneous_composition(max(stated), 0.0, 1, d)
        # ... and if all steps are stated eps-DP steps of one epsilon, at least the exact KOV value
        if len(stated) == len(events) and len(set(stated)) == 1:
            assert c.epsilon >= acc.optimal_homogeneous_composition(stated[0], 0.0, len(stated), d)
    for e in events:
        if e.kind == "laplace":
            assert acc.laplace_delta(c.epsilon, acc.event_epsilon(e)) <= d
        elif e.kind == "exponential":
            assert br.envelope_delta(c.epsilon, e.epsilon) <= d


@pytest.mark.claim("core:certify")
def test_certify_single_laplace_never_below_its_exact_profile():
    for e0 in (0.1, 1.0, 3.0):
        c = acc.certify(ledger_of([ev("laplace", sensitivity=e0, noise_scale=1.0)]), 1e-3)
        assert acc.laplace_delta(c.epsilon, e0) <= 1e-3
        assert c.epsilon <= e0


@pytest.mark.claim("core:certify")
def test_certify_approximate_events_consume_delta():
    led = ledger_of([ev("approximate", epsilon=0.5, delta=4e-6, norm="l1")] * 2)
    c = acc.certify(led, 1e-5)
    assert c.delta_of_events >= 8e-6 and c.delta == 1e-5
    # with delta_c = 2e-6 left, the basic bound 1.0 must be among the candidates
    assert dict(c.candidates)["basic"] == 1.0
    # the tight zCDP candidate is computed at the remaining delta, not at 1e-5
    rho = 2 * 0.125
    assert dict(c.candidates)["zCDP (tight)"] >= acc.zcdp_to_dp(rho, 1e-5 - 8e-6 + 1e-12, "tight")
    with pytest.raises(AccountingError):
        acc.certify(led, 8e-6)


@pytest.mark.claim("core:certify")
def test_certify_rejects_bad_input():
    with pytest.raises(ParameterError):
        acc.certify([ev("laplace", noise_scale=1.0)], 1e-5)
    with pytest.raises(ParameterError):
        acc.certify(FrozenLedger(), 0.0)
    with pytest.raises(AccountingError):
        acc.certify(ledger_of([ev("gaussian", noise_scale=1.0, norm="linf")]), 1e-5)


@pytest.mark.claim("core:certify")
def test_certify_negative_control_catches_an_under_report():
    """The 'never below the exact value' check used above flags a broken accountant:
    certifying k Gaussians as if they were one (forgetting composition)."""
    events = [ev("gaussian", sensitivity=1.0, noise_scale=5.0)] * 10
    broken = acc.gaussian_epsilon(1e-5, 1.0 / 5.0)
    exact = acc.gaussian_epsilon(1e-5, acc.gdp_compose([0.2] * 10))
    assert broken < exact
    assert acc.certify(ledger_of(events), 1e-5).epsilon >= exact


@pytest.mark.claim("core:zCDP to DP tight")
@pytest.mark.parametrize("rho", [1e-300, 1e-30, 1.0, 1e30, 1e300])
@pytest.mark.parametrize("delta", [1e-300, 0.5, 0.999999])
def test_conversions_stay_finite_and_ordered_at_extremes(rho, delta):
    """No NaN, no exception, tight <= standard, and the inverse never over-grants, across 600 decades."""
    std, tight = acc.zcdp_to_dp(rho, delta, "standard"), acc.zcdp_to_dp(rho, delta, "tight")
    assert 0 <= tight <= std and not math.isnan(tight)
    back = acc.zcdp_for_dp(min(rho, 1e300), delta, "tight")
    assert back >= acc.zcdp_for_dp(min(rho, 1e300), delta, "standard") >= 0
    if back > 0:
        assert acc.zcdp_to_dp(back, delta, "tight") <= min(rho, 1e300) * (1 + 1e-7)


@pytest.mark.claim("core:Gaussian exact profile")
@pytest.mark.parametrize("mu", [1e-300, 1e-8, 1e3, 1e8])
def test_gaussian_profile_at_extreme_mu(mu):
    for e in (0.0, 1e-300, 1.0, 1e8):
        d = acc.gaussian_delta(e, mu)
        assert 0 <= d <= 1     # 1 - 2 Phi(-500) rounds up to 1.0
    for delta in (1e-300, 0.5):
        e = acc.gaussian_epsilon(delta, mu)
        assert e >= 0 and acc.gaussian_delta(e, mu) <= delta


# ---------------------------------------------------------------------------
# Heterogeneous pure composition against the exact composition of randomized responses.

def rr_product_profile(epsilons, eps_prime) -> mpmath.mpf:
    """Exact delta(eps') of the product of eps_i randomized responses (the worst eps_i-DP pairs),
    by enumerating the 2^k outcomes: sum_s max(0, P(s) - e^eps' Q(s))."""
    import itertools
    with mpmath.workdps(40):
        es = [mpmath.mpf(e) for e in epsilons]
        total = mpmath.mpf(0)
        for signs in itertools.product((1, -1), repeat=len(es)):
            p = mpmath.fprod((mpmath.exp(e) if s > 0 else 1) / (1 + mpmath.exp(e)) for e, s in zip(es, signs))
            q = mpmath.fprod((1 if s > 0 else mpmath.exp(e)) / (1 + mpmath.exp(e)) for e, s in zip(es, signs))
            total += max(mpmath.mpf(0), p - mpmath.exp(eps_prime) * q)
        return total


@pytest.mark.claim("core:heterogeneous composition")
@pytest.mark.claim("core:certify")
@given(st.lists(st.floats(0.01, 1.5), min_size=1, max_size=7), st.floats(min_value=-12.0, max_value=-2.0))
def test_heterogeneous_and_certify_meet_the_exact_rr_profile(epsilons, log10_delta):
    d = 10.0 ** log10_delta
    het, _ = acc.heterogeneous_composition(epsilons, d)
    assert rr_product_profile(epsilons, het) <= d
    assert het <= acc.basic_composition(epsilons)[0]
    assert het <= acc.fully_adaptive_composition(epsilons, d)[0] * (1 + 1e-12)
    cert = acc.certify(ledger_of([ev("pure", epsilon=e, norm="l1") for e in epsilons]), d)
    assert rr_product_profile(epsilons, cert.epsilon) <= d


@pytest.mark.claim("core:heterogeneous composition")
@given(st.floats(1e-2, 1.0), st.integers(1, 100), log_delta_st)
def test_heterogeneous_never_beats_the_exact_homogeneous_optimum(e, k, d):
    assert acc.heterogeneous_composition([e] * k, d)[0] >= acc.optimal_homogeneous_composition(e, 0.0, k, d)


@pytest.mark.claim("core:certify")
def test_rr_profile_negative_control():
    """The enumeration flags an under-report: half the basic bound of two eps = 1 steps leaks more than 1e-3."""
    assert rr_product_profile([1.0, 1.0], 1.0) > 1e-3
    assert rr_product_profile([1.0, 1.0], 2.0) < 1e-30      # zero up to the 40-digit arithmetic


@pytest.mark.claim("core:Laplace exact profile")
@pytest.mark.parametrize("epsilon0", [1e-8, 1.0, 50.0, 700.0, 1e8])
@pytest.mark.parametrize("epsilon", [0.0, 1e-300, 1.0])
def test_rounded_up_profiles_stay_probabilities(epsilon0, epsilon):
    """Rounding a delta up must not carry it past 1 (it did at epsilon0 = 700, epsilon = 0)."""
    assert 0 <= acc.laplace_delta(epsilon, epsilon0) <= 1
    assert 0 <= acc.gaussian_delta(epsilon, epsilon0) <= 1


@pytest.mark.claim("core:certify")
@pytest.mark.parametrize("steps, eps, delta", [(1, 1.0, 1e-5), (50, 0.5, 1e-6), (1000, 2.0, 1e-9)])
def test_certified_gaussian_sigma_is_the_accountants_boundary(steps, eps, delta):
    """The calibration the 'certified' algorithms use: the returned sigma certifies, 0.1% less does not,
    and it agrees with the independent exact GDP calibration of the composition."""
    from reference.privacy.ledger import FrozenLedger, MechanismEvent

    sigma = acc.certified_gaussian_sigma(0.2, steps, eps, delta)

    def eps_at(s):
        event = MechanismEvent("gaussian", 0.2, "l2", noise_scale=s)
        return acc.certify(FrozenLedger((event,) * steps), delta).epsilon

    assert eps_at(sigma) <= eps < eps_at(0.999 * sigma)
    # independent: mu-GDP with mu = 0.2 sqrt(steps) / sigma has delta(eps) <= delta (scipy, DRS22 Cor 2.13)
    mu = 0.2 * math.sqrt(steps) / sigma
    exact = stats.norm.cdf(-eps / mu + mu / 2) - math.exp(eps) * stats.norm.cdf(-eps / mu - mu / 2)
    assert exact <= delta * (1 + 1e-6)


@pytest.mark.claim("core:certify")
def test_calibrate_noise_scale_finds_the_boundary_from_a_bad_guess():
    """Laplace steps from guesses far off on either side: same answer, and it is the boundary."""
    from reference.privacy.ledger import FrozenLedger, MechanismEvent

    def ledger_for(b):
        return FrozenLedger((MechanismEvent("laplace", 1.0, "l1", noise_scale=b),) * 10)

    answers = [acc.calibrate_noise_scale(ledger_for, 1.0, 1e-6, guess=g, rel_tol=1e-9) for g in (1e-3, 5.0, 1e4)]
    assert max(answers) / min(answers) - 1 < 3e-9
    b = answers[0]
    assert acc.certify(ledger_for(b), 1e-6).epsilon <= 1.0 < acc.certify(ledger_for(b * (1 - 1e-6)), 1e-6).epsilon


# ---------------------------------------------------------------------------
# Rounding direction, against independent high-precision values.

def _mp_phi(x):
    return mpmath.ncdf(x)


@pytest.mark.claim("core:certify")
@pytest.mark.claim("core:advanced composition")
@pytest.mark.claim("core:zCDP to DP")
def test_guarantees_are_rounded_against_the_user():
    """Every epsilon, delta or sigma the accountant returns is >= its exact value, and every budget it grants
    (a rho for a target epsilon) is <= it. Exact values are computed here at 80 digits from the printed
    formulas (exact rationals where the formula is rational); the cases are chosen so that the nearest
    float lies on the user's side, so an accountant rounding to nearest, or down, fails."""
    with mpmath.workdps(80):
        m = mpmath.mpf
        L5 = -mpmath.log(m(1e-5))
        upper = [
            # (returned value, exact value): the returned value must not be below
            (acc.advanced_composition(0.1, 0.0, 7, 1e-6)[0],
             mpmath.sqrt(2 * 7 * -mpmath.log(m(1e-6))) * m(0.1) + 7 * m(0.1) * mpmath.expm1(m(0.1))),
            (acc.zcdp_to_dp(0.3, 1e-5), m(0.3) + 2 * mpmath.sqrt(m(0.3) * L5)),
            (acc.classic_gaussian_sigma(0.7, 1e-5, 1.3),
             mpmath.sqrt(2 * mpmath.log(m(1.25) / m(1e-5))) * m(1.3) / m(0.7)),
            (acc.laplace_delta(0.3, 1.1), 1 - mpmath.exp(-(m(1.1) - m(0.3)) / 2)),
            (acc.gaussian_delta(0.5, 1.2), _mp_phi(m(0.6) - m(0.5) / m(1.2))
             - mpmath.exp(m(0.5)) * _mp_phi(-m(0.6) - m(0.5) / m(1.2))),
            (acc.fully_adaptive_composition([0.1, 0.3], 1e-5)[0],
             mpmath.sqrt(2 * L5 * (m(0.1) ** 2 + m(0.3) ** 2)) + (m(0.1) ** 2 + m(0.3) ** 2) / 2),
        ]
        for got, exact in upper:
            assert m(got) >= exact, (got, exact)
    exact_rationals = [
        (acc.basic_composition([0.3, 0.3, 0.3])[0], 3 * Fraction(0.3)),
        (acc.basic_composition([0.7, 0.1, 0.1])[0], Fraction(0.7) + 2 * Fraction(0.1)),
        (acc.zcdp_of_gaussian(1.0, 3.0), Fraction(1, 18)),
        (acc.zcdp_of_pure(0.7), Fraction(0.7) ** 2 / 2),
    ]
    for got, exact in exact_rationals:
        assert Fraction(got) >= exact, (got, exact)
    # budgets are rounded down
    with mpmath.workdps(80):
        e, L = mpmath.mpf(1.0), -mpmath.log(mpmath.mpf(1e-5))
        rho_exact = e ** 2 / (mpmath.sqrt(L + e) + mpmath.sqrt(L)) ** 2
        assert mpmath.mpf(acc.zcdp_for_dp(1.0, 1e-5)) <= rho_exact
    # the delta the approximate events consume, an exact rational sum: 1.1e-7 + 2.3e-7 + 3.7e-7 as floats sum to a
    # rational whose nearest float is below it, so a certificate rounding it to nearest reports less than is spent
    deltas = (1.1e-7, 2.3e-7, 3.7e-7)
    spent = sum((Fraction(d) for d in deltas), Fraction(0))
    assert Fraction(float(spent)) < spent                         # the case is one where rounding matters
    ledger = Ledger()
    for d in deltas:
        ledger.record(MechanismEvent("approximate", 1.0, "l1", epsilon=0.1, delta=d))
    assert Fraction(acc.certify(ledger, 1e-5).delta_of_events) >= spent


# ---------------------------------------------------------------------------
# certify on ledgers where one invalid candidate would win the minimum.

def rr_grouped_profile(groups, eps_prime) -> float:
    """Exact delta(eps') of the product of k_j randomized responses at eps_j (the worst eps_j-DP pairs),
    for groups [(eps_j, k_j)]: outcomes are counted by how many responses of each group flip, so the sum
    has prod (k_j + 1) terms, each a non-negative difference P - e^eps' Q evaluated in log space (no
    cancellation: float64 is accurate to ~1e-13 relative here); independent of the code under test."""
    from scipy.special import gammaln

    grids = np.meshgrid(*[np.arange(k + 1, dtype=float) for _, k in groups], indexing="ij")
    log_w = np.zeros_like(grids[0])
    log_p = np.zeros_like(grids[0])
    log_q = np.zeros_like(grids[0])
    for (e, k), i in zip(groups, grids):
        log_w += gammaln(k + 1) - gammaln(i + 1) - gammaln(k - i + 1)
        norm = k * np.logaddexp(0.0, e)
        log_p += (k - i) * e - norm
        log_q += i * e - norm
    gap = log_p - (eps_prime + log_q)
    keep = gap > 0
    terms = np.exp(log_w[keep] + log_p[keep]) * -np.expm1(-gap[keep])
    return math.fsum(terms.tolist())


@pytest.mark.claim("core:certify")
@pytest.mark.claim("core:heterogeneous composition")
@pytest.mark.parametrize("groups,delta", [
    (((0.05, 150), (0.1, 150)), 1e-6),     # many small steps: the concentration bounds win
    (((0.01, 1), (2.0, 3)), 1e-6),         # a tiny first step, then large ones
])
def test_certify_heterogeneous_pure_steps_meet_the_exact_rr_profile(groups, delta):
    """Deterministic: pure steps of two sizes (smaller first). The certificate, and the heterogeneous
    composition, meet the exact profile of the product of randomized responses (which dominates every
    eps_j-DP composition, KOV15 Thm 3.5). A homogeneous method applied at the first epsilon, or the
    concentration term without its factor 2, would under-report here."""
    events = [ev("pure", epsilon=e, norm="l1") for e, k in groups for _ in range(k)]
    cert = acc.certify(ledger_of(events), delta)
    assert rr_grouped_profile(groups, cert.epsilon) <= delta
    het, _ = acc.heterogeneous_composition([e for e, k in groups for _ in range(k)], delta)
    assert rr_grouped_profile(groups, het) <= delta
    # negative control: the profile check flags 0.9 of the certificate as an under-report
    assert rr_grouped_profile(groups, 0.9 * cert.epsilon) > delta


@pytest.mark.claim("core:certify")
def test_certify_mixed_ledger_is_never_below_its_pure_part():
    """A Laplace step (eps0 = 5) and a Gaussian step (mu = 0.5): the composition reveals at least what the
    Laplace step alone reveals, whose exact epsilon at delta is eps0 + 2 ln(1 - delta) (its profile
    1 - exp(-(eps0 - eps)/2) solved for eps). The exact GDP value of the Gaussian part alone (2.8) is not a
    valid candidate when pure events are present."""
    delta, e0 = 1e-6, 5.0
    events = [ev("laplace", sensitivity=e0, noise_scale=1.0), ev("gaussian", sensitivity=0.5, noise_scale=1.0)]
    cert = acc.certify(ledger_of(events), delta)
    laplace_alone = e0 + 2 * math.log1p(-delta)
    assert cert.epsilon >= laplace_alone
    assert cert.epsilon >= acc.gaussian_epsilon(delta, 0.5)
    assert acc.gaussian_epsilon(delta, 0.5) < laplace_alone          # the trap is live at these numbers
    assert "GDP (exact)" not in dict(cert.candidates)
