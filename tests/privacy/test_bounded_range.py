"""Bounded-range (BR) events: the envelope pair, the adaptive concentration bound, the nonadaptive
optimum of Dong-Durfee-Rogers 2020, and their place in certify (reference/privacy/bounded_range.py).

Independent references (mpmath brute force, never the code under test):

* generalized randomized response GRR_t profiles maximised over a grid of t;
* exact laws of exponential mechanisms / Gumbel report-noisy-max (reference/audit/exact.py);
* the optimal *nonadaptive* composition by enumerating the 2^k loss patterns of GRR_{t_1} x ... x
  GRR_{t_k} over a grid of (t_1, ..., t_k), every t_i free;
* the optimal *adaptive* composition by the recursion delta_j(x) = max_t [q_t delta_{j-1}(x - t) +
  (1 - q_t) delta_{j-1}(x - t + eps)] over a grid of t (every grid strategy is a strategy an
  adversary can play, so these values are lower bounds of the optimum: a certificate must exceed them).
"""

from __future__ import annotations

import itertools
import math

import mpmath
import numpy as np
import pytest

from reference.audit.exact import exponential_mechanism_exact, hockey_stick, noisy_max_exact
from reference.privacy import accounting as acc
from reference.privacy import bounded_range as br
from reference.privacy import pld
from reference.privacy.ledger import FrozenLedger, MechanismEvent


def _q(t, e):
    return (mpmath.exp(e) - mpmath.exp(t)) / mpmath.expm1(e)


def grr(x, t, e):
    """GRR_t's profile at any real x, written out again (mpmath)."""
    q = _q(t, e)
    return q * max(0, 1 - mpmath.exp(x - t)) + (1 - q) * max(0, 1 - mpmath.exp(x - t + e))


def sup_grr(x, e, n=2000):
    """max over a grid of n + 1 values of t of GRR_t's profile at x."""
    return max(grr(x, mpmath.mpf(e) * j / n, e) for j in range(n + 1))


def exp_event(e):
    return MechanismEvent("exponential", 1.0, "score", epsilon=e)


def gumbel_event(b, monotone=False):
    return MechanismEvent("report_noisy_max", 1.0, "score", noise_scale=b, noise="gumbel", monotone=monotone)


# ---------------------------------------------------------------------------
# The envelope pair.

@pytest.mark.claim("core:BR envelope pair")
@pytest.mark.parametrize("e", [0.3, 1.0, 2.5])
def test_envelope_profile_is_the_supremum_of_the_grr_profiles(e):
    with mpmath.workdps(30):
        for x in [-1.2 * e, -0.5 * e, -0.1 * e, 0.0, 0.2 * e, 0.5 * e, 0.9 * e, 1.1 * e]:
            env = br.envelope_delta(x, e)
            brute = sup_grr(x, e)
            assert brute <= env * (1 + mpmath.mpf(10) ** -20) + mpmath.mpf(10) ** -25
            assert env - brute <= 1e-6 * max(env, mpmath.mpf(10) ** -12)       # the grid's resolution


@pytest.mark.claim("core:BR envelope pair")
@pytest.mark.parametrize("seed", range(4))
def test_envelope_dominates_exponential_mechanisms_and_gumbel_noisy_max(seed):
    """Random exponential mechanisms (general and monotone) and Gumbel report-noisy-max on neighbouring
    scores (each moving by at most Delta = 1): both hockey-sticks at eps' are at most the envelope
    profile at the event's epsilon, and (the check can fail) some instance exceeds the envelope at
    half that epsilon."""
    rng = np.random.default_rng(seed)
    e = float(rng.uniform(0.3, 3.0))
    worst_ratio_half = 0.0
    for trial in range(6):
        m = int(rng.integers(2, 6))
        u = rng.uniform(-3, 3, m)
        monotone = trial % 2 == 1
        shift = rng.uniform(0, 1, m) if monotone else rng.uniform(-1, 1, m)
        shift[rng.integers(m)] = 1.0 if monotone else rng.choice([-1.0, 1.0])
        if trial < 4:
            p = exponential_mechanism_exact(list(u), 1.0, e, monotone=monotone)
            q = exponential_mechanism_exact(list(u + shift), 1.0, e, monotone=monotone)
        else:      # Gumbel noisy max at b = 2 Delta / eps (general) or Delta / eps (monotone) is eps-BR
            b = (1.0 if monotone else 2.0) / e
            p = noisy_max_exact(list(u), b, noise="gumbel")
            q = noisy_max_exact(list(u + shift), b, noise="gumbel")
        for x in (0.0, 0.1 * e, 0.3 * e, 0.6 * e):
            env = br.envelope_delta(x, e)
            for a, c in ((p, q), (q, p)):
                h = hockey_stick(a, c, x)
                assert h <= env + mpmath.mpf(10) ** -12
                half = br.envelope_delta(x, e / 2)
                if half > 0:
                    worst_ratio_half = max(worst_ratio_half, float(h / half))
                elif h > 0:
                    worst_ratio_half = math.inf
    assert worst_ratio_half > 1.0          # negative control: the envelope at eps/2 is exceeded


@pytest.mark.claim("core:BR envelope pair")
@pytest.mark.claim("core:PLD composition")
@pytest.mark.parametrize("e", [0.2, 1.0, 3.0])
def test_discretised_envelope_pld_is_an_upper_bound(e):
    """One envelope pair and two composed, discretised on a grid: delta never below the exact profile
    (closed form; for two, mpmath quadrature of the closed form against the envelope's loss density),
    and within 2e-4 relative (plus 1e-9) above it."""
    h = 1e-3 * e
    one = pld.compose([(pld.bounded_range_pld(e, h), 1)])
    two = pld.compose([(pld.bounded_range_pld(e, h), 2)])
    dens = lambda l: mpmath.exp((l - e) / 2) / (2 * -mpmath.expm1(-e))
    with mpmath.workdps(30):
        for frac in (0.0, 0.2, 0.5, 0.8):
            x = frac * e
            exact1 = br.envelope_delta(x, e)
            got1 = pld.pld_delta(one, x)
            assert exact1 <= got1 <= exact1 * (1 + 2e-4) + 1e-9
            x2 = 2 * frac * e
            exact2 = mpmath.quad(lambda l: dens(l) * br.envelope_delta(x2 - l, e), [-e, x2 - e, 0, e])
            got2 = pld.pld_delta(two, x2)
            assert exact2 <= got2 <= exact2 * (1 + 2e-4) + 1e-9


# ---------------------------------------------------------------------------
# The optimal nonadaptive composition [DDR20, Sec. 5] against a brute force with free t_i.

def nonadaptive_brute(e, ts, x):
    """Exact profile of GRR_{t_1} x ... x GRR_{t_k} at x: enumeration of the 2^k loss patterns (mpmath)."""
    total = mpmath.mpf(0)
    for pattern in itertools.product((0, 1), repeat=len(ts)):
        prob, loss = mpmath.mpf(1), mpmath.mpf(0)
        for t, s in zip(ts, pattern):
            q = _q(t, e)
            prob *= q if s == 0 else 1 - q
            loss += t if s == 0 else t - e
        if loss > x:
            total += prob * (1 - mpmath.exp(x - loss))
    return total


@pytest.mark.claim("core:BR nonadaptive optimal composition")
@pytest.mark.parametrize("k, e, x, n", [(2, 1.0, 0.5, 60), (2, 0.5, 0.2, 60), (3, 1.0, 1.0, 16),
                                        (3, 2.0, 2.5, 16)])
def test_nonadaptive_formula_matches_a_brute_force_over_free_t(k, e, x, n):
    """DDR20's nonadaptive optimum (all steps the same GRR_t, t maximised): no (t_1, ..., t_k) on a grid
    of free t's beats it (equal t's are the worst nonadaptive choice), and it equals the brute-force
    maximum over a fine grid of equal t's (enumerated patterns, mpmath) to the grid's resolution."""
    with mpmath.workdps(20):
        grid = [mpmath.mpf(e) * j / n for j in range(n + 1)]
        free = max(nonadaptive_brute(e, ts, x) for ts in itertools.combinations_with_replacement(grid, k))
        equal = max(nonadaptive_brute(e, [mpmath.mpf(e) * j / 1000] * k, x) for j in range(1001))
    formula = br.nonadaptive_delta(e, k, x)
    assert float(free) <= formula * (1 + 1e-9)
    assert float(equal) <= formula * (1 + 1e-9)
    assert formula <= float(equal) * (1 + 1e-5)


# ---------------------------------------------------------------------------
# The optimal adaptive composition (recursion over the adversary's t) and certify.

def adaptive_brute(k, x, e, n):
    """delta_k(x) of the best grid strategy: delta_1 = the envelope (the sup over t, checked above),
    delta_j(x) = max over n + 1 values of t of q_t delta_{j-1}(x - t) + (1 - q_t) delta_{j-1}(x - t + e)."""
    if k == 1:
        return br.envelope_delta(x, e)
    best = mpmath.mpf(0)
    for j in range(n + 1):
        t = mpmath.mpf(e) * j / n
        q = _q(t, e)
        best = max(best, q * adaptive_brute(k - 1, x - t, e, n) + (1 - q) * adaptive_brute(k - 1, x - t + e, e, n))
    return best


@pytest.mark.claim("core:BR nonadaptive optimal composition")
def test_adaptive_composition_of_br_steps_can_leak_more_than_the_nonadaptive_optimum():
    """[DDR20, Sec. 3.3]: the cost of adaptivity. k = 3, eps = 1, x = 1: a grid strategy already beats
    the nonadaptive optimum, so the nonadaptive formula is no certificate for an algorithm's ledger."""
    with mpmath.workdps(20):
        adaptive = adaptive_brute(3, 1.0, 1.0, 60)
    nonadaptive = br.nonadaptive_delta(1.0, 3, 1.0)
    assert adaptive > nonadaptive * 1.03


@pytest.mark.claim("core:certify")
@pytest.mark.claim("core:BR envelope pair")
@pytest.mark.parametrize("k, e, delta", [(2, 1.0, 1e-2), (2, 0.5, 1e-3), (3, 1.0, 1e-2), (3, 2.0, 0.05)])
def test_certify_meets_the_adaptive_optimum_of_br_steps(k, e, delta):
    """certify on k exponential-mechanism events: the best grid strategy of an adaptive adversary has
    delta <= the target at the certified epsilon (soundness), and certify beats the eps-DP accountant
    (KOV, the worst eps-DP steps), which these events had before."""
    c = acc.certify(FrozenLedger((exp_event(e),) * k), delta)
    with mpmath.workdps(20):
        assert adaptive_brute(k, c.epsilon, e, 40 if k == 3 else 200) <= delta
    assert c.epsilon < acc.optimal_homogeneous_composition(e, 0.0, k, delta)


@pytest.mark.claim("core:certify")
@pytest.mark.claim("core:BR adaptive composition")
@pytest.mark.parametrize("k, e, delta", [(20, 1.0, 1e-4), (200, 0.5, 1e-3), (1000, 0.1, 1e-5), (100, 0.5, 1e-8)])
def test_certify_of_long_br_ledgers_against_the_nonadaptive_optimum(k, e, delta):
    """Long ledgers (the adaptive optimum has no brute force here): certify and the concentration bound
    alone are never below DDR20's nonadaptive optimum (a lower bound of every valid certificate), and
    certify is within 40% of it (it is the tightest of the envelope PLD and the concentration bound;
    measured ratios in docs/accountant.md)."""
    lower = br.nonadaptive_epsilon(e, k, delta)
    c = acc.certify(FrozenLedger((exp_event(e),) * k), delta)
    conc = br.bounded_range_composition([e] * k, [], delta)
    assert c.epsilon >= lower
    assert conc >= lower
    assert c.epsilon <= 1.4 * lower
    assert c.epsilon < acc.optimal_homogeneous_composition(e, 0.0, k, delta)


# ---------------------------------------------------------------------------
# The concentration bound's pieces.

@pytest.mark.claim("core:BR adaptive composition")
@pytest.mark.parametrize("e", [0.05, 0.5, 1.0, 3.0])
def test_br_mean_is_the_largest_grr_mean_and_at_most_eps_squared_over_8(e):
    with mpmath.workdps(30):
        def mean(t):
            q = _q(t, e)
            return q * t + (1 - q) * (t - e)
        brute = max(mean(mpmath.mpf(e) * j / 4000) for j in range(4001))
        got = br.br_mean(e)
        assert brute <= got * (1 + mpmath.mpf(10) ** -20)
        assert got - brute <= 1e-6 * got
        assert got <= mpmath.mpf(e) ** 2 / 8


@pytest.mark.claim("core:BR adaptive composition")
def test_many_distinct_epsilons_use_the_mean_upper_bound():
    """Past 64 distinct epsilons the drift uses eps^2/8 >= mu(eps): the bound only grows."""
    eps = [0.1 + 1e-3 * i for i in range(80)]
    many = br.bounded_range_composition(eps, [], 1e-6)
    with mpmath.workdps(40):
        exact = (mpmath.fsum(br.br_mean(e) for e in eps)
                 + mpmath.sqrt(mpmath.fsum(mpmath.mpf(e) ** 2 for e in eps) * mpmath.log(mpmath.mpf(10) ** 6) / 2))
    assert many >= exact
    assert many <= exact + sum(e * e for e in eps) / 8


# ---------------------------------------------------------------------------
# certify's reading of the events.

@pytest.mark.claim("core:certify")
def test_certify_reads_exponential_and_gumbel_events_as_bounded_range():
    gumbel = acc.certify(FrozenLedger((gumbel_event(20.0),) * 1000), 1e-5)
    expo = acc.certify(FrozenLedger((exp_event(0.1),) * 1000), 1e-5)
    laplace_rnm = acc.certify(FrozenLedger((MechanismEvent("report_noisy_max", 1.0, "score", noise_scale=20.0,
                                                           noise="laplace"),) * 1000), 1e-5)
    assert gumbel.epsilon == expo.epsilon                      # Gumbel(b) noisy max is the exp. mechanism at 2/b
    assert gumbel.method in ("BR concentration (DDR20)", "PLD (connect-the-dots)")
    assert laplace_rnm.method == "optimal (KOV)"               # Laplace noise: not BR, eps-DP only
    assert gumbel.epsilon < 0.6 * laplace_rnm.epsilon


@pytest.mark.claim("core:certify")
@pytest.mark.parametrize("factor", [1.0, 1.3, 2.0])
def test_certify_of_br_ledgers_is_monotone_in_the_noise(factor):
    base = [gumbel_event(5.0 + 0.01 * i) for i in range(200)]
    more = [gumbel_event((5.0 + 0.01 * i) * factor * (1 + 0.1 * (i % 3))) for i in range(200)]
    mixed = base[:100] + [MechanismEvent("gaussian", 1.0, "l2", noise_scale=8.0)] * 50
    mixed_more = more[:100] + [MechanismEvent("gaussian", 1.0, "l2", noise_scale=8.0 * factor)] * 50
    for a, b in ((base, more), (mixed, mixed_more)):
        assert acc.certify(FrozenLedger(tuple(b)), 1e-6).epsilon <= acc.certify(FrozenLedger(tuple(a)), 1e-6).epsilon * (1 + 1e-9)


@pytest.mark.claim("core:PLD composition")
def test_large_epsilons_stay_sound():
    """Events at huge epsilons (vanishing noise, as the conformance limits run): certify stays finite; at
    eps = 200 the truncated quadrature (mass below eps - 160 moved up) is still an upper bound of the exact
    envelope and Laplace profiles; past 1000 the event gets the RR pair."""
    for e in (200.0, 5e3, 1e39):
        for ev in (exp_event(e), MechanismEvent("laplace", e, "l1", noise_scale=1.0)):
            c = acc.certify(FrozenLedger((ev,) * 3), 1e-5)
            assert math.isfinite(c.epsilon) and 0 < c.epsilon <= 3 * e * (1 + 1e-12)
    env = pld.compose([(pld.bounded_range_pld(200.0, 0.01), 1)])
    lap = pld.compose([(pld.laplace_pld(200.0, 0.01), 1)])
    for x in (0.0, 50.0, 150.0, 199.0):
        with mpmath.workdps(40):          # at eps 200 the closed form cancels 87 digits near x = 0
            exact = float(br.envelope_delta(x, 200.0))
        assert pld.pld_delta(env, x) >= exact
        assert pld.pld_delta(lap, x) >= acc.laplace_delta(x, 200.0)
