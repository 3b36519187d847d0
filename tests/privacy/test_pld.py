"""The PLD accountant (reference/privacy/pld.py) and its place in certify.

Reference values are independent of the code under test:

* exact profiles of compositions of Laplace mechanisms by scipy quadrature of the
  recursion D_k(t) = E_{L_k}[D_{k-1}(t - L_k)], started from the closed-form profile of one
  Laplace extended to every real t (tolerance 1e-11 absolute, from quad's epsabs);
* exact profiles of randomized responses by enumerating the sign patterns (mpmath);
* the Gaussian profile (Balle-Wang) integrated against a Laplace loss (quadrature);
* the issue's example ledgers, bracketed by an independent accountant (Google dp-accounting
  0.6.0, optimistic and pessimistic PLD at interval 1e-5, values recorded in ISSUE_13_EXAMPLES
  with the settings used).
"""

from __future__ import annotations

import itertools
import math
import time

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import integrate, special

from reference.privacy import accounting as acc
from reference.privacy import pld
from reference.privacy.ledger import FrozenLedger, MechanismEvent

from .pld_grid import events as grid_events
from .pld_grid import noisier, random_grid

QUAD_TOL = 1e-11


# ---------------------------------------------------------------------------
# Independent exact profiles.

def laplace_profile_all_t(t: float, e0: float) -> float:
    """E[(1 - e^{t - L})_+] for one Laplace loss L (eps0 = e0), for every real t.

    t >= e0: 0; -e0 <= t < e0: 1 - e^{-(e0 - t)/2} (Laplace exact profile); t < -e0: every
    loss exceeds t and E_P[e^{-L}] = 1, so 1 - e^t.
    """
    if t >= e0:
        return 0.0
    if t >= -e0:
        return -math.expm1(-(e0 - t) / 2)
    return -math.expm1(t)


def laplace_expect(f, e0: float, kinks=()) -> float:
    """E[f(L)] for one Laplace loss: atoms e0 (1/2), -e0 (e^{-e0}/2), density e^{-(e0-l)/2}/4 between.
    ``kinks``: where f is not smooth; quad integrates piece by piece between them."""
    edges = sorted({-e0, e0, *(k for k in kinks if -e0 < k < e0)})
    cont = 0.0
    for a, b in zip(edges[:-1], edges[1:]):
        piece, _ = integrate.quad(lambda l: f(l) * 0.25 * math.exp(-(e0 - l) / 2), a, b,
                                  epsabs=QUAD_TOL / (10 * len(edges)), epsrel=1e-12, limit=200)
        cont += piece
    return 0.5 * f(e0) + 0.5 * math.exp(-e0) * f(-e0) + cont


def laplace_composition_profile(eps: float, e0s) -> float:
    """Exact delta(eps) of the composition of Laplace mechanisms with these eps0 (k <= 3)."""
    def d(t, rest):
        if len(rest) == 1:
            return laplace_profile_all_t(t, rest[0])
        # d(s, rest[1:]) has kinks where s is a signed sum of rest[1:] (the atoms of their losses)
        sums = {float(np.dot(signs, rest[1:])) for signs in itertools.product((1.0, -1.0), repeat=len(rest) - 1)}
        return laplace_expect(lambda l: d(t - l, rest[1:]), rest[0], kinks=[t - s for s in sums])
    return d(eps, list(e0s))


def rr_profile(eps: float, e0s, delta0: float = 0.0) -> float:
    """Exact delta(eps) of composed (e0_i, delta0) randomized responses, enumerating the 2^k sign
    patterns (float64 sums of positive terms: relative error ~1e-15)."""
    e = np.asarray(e0s, dtype=float)
    signs = np.array(list(itertools.product((1.0, -1.0), repeat=e.size)))
    loss = signs @ e
    prob = np.prod(1 / (1 + np.exp(-signs * e)), axis=1)
    on = loss > eps
    total = float(np.sum(prob[on] * -np.expm1(eps - loss[on])))
    keep = (1 - delta0) ** e.size
    return 1 - keep + keep * total


def exact_epsilon(profile, delta: float, hi: float) -> float:
    """The smallest eps with profile(eps) <= delta, by bisection on an exact profile."""
    lo = 0.0
    if profile(0.0) <= delta:
        return 0.0
    for _ in range(45):                  # relative 1e-13 of the bracket
        mid = 0.5 * (lo + hi)
        if profile(mid) <= delta:
            hi = mid
        else:
            lo = mid
    return hi


def composed(items, h=None):
    h = pld.grid_step(items) if h is None else h
    return pld.compose(pld.ledger_parts(items, h))


def ledger(events) -> FrozenLedger:
    return FrozenLedger(tuple(events))


def lap(b, sens=1.0):
    return MechanismEvent("laplace", sens, "l1", noise_scale=b)


# ---------------------------------------------------------------------------
# Soundness: never below an exact value.

@pytest.mark.claim("core:PLD composition")
@settings(max_examples=20)
@given(st.lists(st.floats(0.05, 2.5), min_size=1, max_size=2), st.floats(0.0, 1.0))
def test_pld_delta_is_never_below_the_exact_laplace_profile(e0s, frac):
    eps = frac * sum(e0s)
    exact = laplace_composition_profile(eps, e0s)
    c = composed([("laplace", e) for e in e0s])
    got = pld.pld_delta(c, eps)
    assert got >= exact - QUAD_TOL
    # and tight: connect-the-dots moves a mass by at most one grid step h (near an atom, delta by ~h/2)
    assert got <= exact * (1 + 2e-4) + c.h


@pytest.mark.claim("core:PLD composition")
@pytest.mark.parametrize("e0s", [(0.5, 0.5, 0.5), (1.0, 0.3, 0.7)])
@pytest.mark.parametrize("frac", [0.1, 0.5, 0.9])
def test_three_laplace_compositions_against_nested_quadrature(e0s, frac):
    eps = frac * sum(e0s)
    exact = laplace_composition_profile(eps, e0s)
    got = pld.pld_delta(composed([("laplace", e) for e in e0s]), eps)
    assert exact - QUAD_TOL <= got <= exact * (1 + 2e-4) + QUAD_TOL


@pytest.mark.claim("core:certify")
@pytest.mark.claim("core:PLD composition")
@pytest.mark.parametrize("e0s, delta", [((1.0, 1.0), 1e-3), ((2.0, 0.5), 1e-5), ((1.0,), 1e-4)])
def test_certify_meets_the_exact_laplace_profile(e0s, delta):
    c = acc.certify(ledger([lap(1.0, e) for e in e0s]), delta)
    assert laplace_composition_profile(c.epsilon, e0s) <= delta + QUAD_TOL
    exact = exact_epsilon(lambda e: laplace_composition_profile(e, e0s), delta, sum(e0s))
    assert exact <= c.epsilon <= exact * (1 + 1e-3) + 1e-9
    assert c.method == "PLD (connect-the-dots)"


@pytest.mark.claim("core:certify")
@pytest.mark.claim("core:PLD composition")
@settings(max_examples=15)
@given(st.lists(st.floats(0.05, 1.5), min_size=2, max_size=10), st.floats(-9.0, -2.0))
def test_heterogeneous_pure_events_are_composed_exactly(e0s, log10_delta):
    """Heterogeneous eps-DP steps: certify meets the exact profile of their worst case
    (randomized responses) and is within 0.1% of its exact epsilon."""
    delta = 10.0 ** log10_delta
    events = [MechanismEvent("pure", 0.0, "l1", epsilon=e) for e in e0s]
    c = acc.certify(ledger(events), delta)
    assert rr_profile(c.epsilon, e0s) <= delta * (1 + 1e-12)
    exact = exact_epsilon(lambda e: rr_profile(e, e0s), delta, sum(e0s))
    assert c.epsilon <= exact * (1 + 1e-3) + 1e-9


@pytest.mark.claim("core:PLD composition")
@pytest.mark.parametrize("e0, d0, k", [(0.5, 1e-6, 6), (1.0, 1e-4, 4)])
def test_approximate_events_as_mass_at_infinity(e0, d0, k):
    items = [("rr", e0, d0)] * k
    c = composed(items)
    for eps in (0.0, 0.5, 1.5, e0 * k * 0.8):
        exact = float(rr_profile(eps, [e0] * k, d0))
        assert exact * (1 - 1e-12) <= pld.pld_delta(c, eps) <= exact + 1e-3 * exact + 1e-12


def gaussian_profile_all_t(t: float, mu: float) -> float:
    return float(special.ndtr(mu / 2 - t / mu) - math.exp(t) * special.ndtr(-mu / 2 - t / mu))


@pytest.mark.claim("core:PLD composition")
@pytest.mark.parametrize("mu, e0", [(1.0, 1.0), (2.5, 0.4), (0.3, 2.0)])
@pytest.mark.parametrize("frac", [0.2, 0.6])
def test_gaussian_plus_laplace_against_quadrature(mu, e0, frac):
    eps = frac * (e0 + mu * mu / 2 + 2 * mu)
    exact = laplace_expect(lambda l: gaussian_profile_all_t(eps - l, mu), e0)
    got = pld.pld_delta(composed([("laplace", e0), ("gaussian", mu)]), eps)
    assert exact - QUAD_TOL <= got <= exact * (1 + 1e-3) + QUAD_TOL


@pytest.mark.claim("core:PLD composition")
@pytest.mark.parametrize("split", [(0.5, 0.5), (0.9, 0.1), (0.2, 0.3, 0.5), (1 / 3, 1 / 3, 1 / 3)])
@pytest.mark.parametrize("e0", [0.3, 1.0, 3.0])
def test_one_dimensional_laplace_dominates_every_split_of_the_l1_budget(split, e0):
    """A vector Laplace query with l1 sensitivity Delta may move Delta spread over coordinates;
    the PLD accountant uses the one-dimensional pair. Its profile is never below that of a split
    (exact quadrature), so it covers the vector case (docs/accountant.md)."""
    parts = [e0 * s for s in split]
    for frac in (0.0, 0.1, 0.3, 0.5, 0.7, 0.9):
        eps = frac * e0
        assert laplace_composition_profile(eps, parts) <= laplace_profile_all_t(eps, e0) + QUAD_TOL


# ---------------------------------------------------------------------------
# The machinery: floating-point bound, inversion, grid.

@pytest.mark.claim("core:PLD composition")
@pytest.mark.parametrize("lam", [0.0, 0.7, 3.0])
def test_fft_error_bound_covers_the_direct_convolution(lam):
    parts = pld.ledger_parts([("laplace", 0.3)] * 5 + [("rr", 0.2, 0.0)] * 3 + [("gaussian", 0.8)], 1e-2)
    c = pld.compose(parts, lam)
    direct = np.array([1.0])
    log_z = 0.0
    for p, n in parts:
        x, lz = pld._tilted(p, lam)
        for _ in range(n):
            direct = np.convolve(direct, x)            # non-negative sums: relative error only
            log_z += lz
    assert c.y.size == direct.size and c.log_z == pytest.approx(log_z, rel=1e-12)
    assert np.max(np.abs(c.y - direct) - 1e-12 * direct) <= c.err
    assert c.err < 1e-12


@pytest.mark.claim("core:PLD composition")
@given(st.floats(0.05, 2.0), st.integers(1, 60), st.floats(-10.0, -1.5))
def test_pld_epsilon_inverts_pld_delta(e0, k, log10_delta):
    delta = 10.0 ** log10_delta
    c = composed([("laplace", e0)] * k)
    eps = pld.pld_epsilon(c, delta)
    assert pld.pld_delta(c, eps) <= delta
    if eps > 1e-9:
        assert pld.pld_delta(c, eps * (1 - 1e-6) - 1e-9) > delta


@pytest.mark.claim("core:PLD composition")
def test_a_finer_grid_only_tightens_and_stays_above_the_exact_value():
    e0s, delta = (1.0, 1.0), 1e-3
    exact = exact_epsilon(lambda e: laplace_composition_profile(e, e0s), delta, 2.0)
    values = [pld.pld_epsilon(composed([("laplace", 1.0)] * 2, h), delta) for h in (0.1, 0.02, 0.004)]
    assert exact <= values[2] <= values[1] <= values[0]
    assert values[2] - exact <= 1e-4


# ---------------------------------------------------------------------------
# certify: the issue's examples, monotonicity, speed.

#: The issue's example ledgers with an independent bracket of their exact epsilon: Google
#: dp-accounting 0.6.0, PrivacyLossDistribution from_laplace_mechanism / from_gaussian_mechanism
#: (sensitivity 1), value_discretization_interval=1e-5, self_compose / compose,
#: get_epsilon_for_delta; "pessimistic" is pessimistic_estimate=True (connect-the-dots, an upper
#: bound), "optimistic" is pessimistic_estimate=False, use_connect_dots=False (a lower bound).
#: Recorded on 2026-11-23 (tests/privacy/test_accounting_crosscheck.py recomputes this kind of value
#: under tox -e crosscheck).
ISSUE_13_EXAMPLES = [
    # (name, events, delta, optimistic, pessimistic)
    ("50 Laplace eps0 1", [lap(1.0)] * 50, 1e-5, 39.5783647174685, 39.57878932109237),
    ("464 Laplace eps0 1.795", [lap(1 / 1.795)] * 464, 8.4e-10, 591.16082742598, 591.1644878259644),
    ("7 Gaussian sigma 1.137 + 181 Laplace eps0 0.833",
     [MechanismEvent("gaussian", 1.0, "l2", noise_scale=1.137)] * 7 + [lap(1 / 0.833)] * 181, 1.5e-9,
     104.75183406368848, 104.75329381491726),
    ("1000 Laplace b 10", [lap(10.0)] * 1000, 1e-5, 17.423416402081358, 17.423651987498953),
]


@pytest.mark.claim("core:certify")
@pytest.mark.parametrize("name, events, delta, optimistic, pessimistic", ISSUE_13_EXAMPLES,
                         ids=[e[0] for e in ISSUE_13_EXAMPLES])
def test_issue_13_examples_match_the_independent_pld_within_one_percent(name, events, delta, optimistic,
                                                                         pessimistic):
    """certify on the issue's ledgers: never below dp-accounting's optimistic value (a lower bound of the
    exact epsilon) and at most 1% above its pessimistic one (issue 13's target; measured: within 0.005%).
    Before the PLD, certify gave 45.68, 739.6, 136.7 and 17.787 on these ledgers (issue 13)."""
    c = acc.certify(ledger(events), delta)
    assert c.epsilon >= optimistic
    assert c.epsilon <= 1.01 * pessimistic
    assert c.method == "PLD (connect-the-dots)"


@pytest.mark.claim("core:certify")
def test_certify_is_monotone_in_the_noise_on_the_issue_ledger():
    """1000 Laplace events with b = 10 + 0.001 i are each noisier than b = 10: their certificate
    is at most the 1000 x (b = 10) one (before the PLD: 17.916 > 17.787)."""
    hetero = acc.certify(ledger([lap(10 + 0.001 * i) for i in range(1000)]), 1e-5).epsilon
    homo = acc.certify(ledger([lap(10.0)] * 1000), 1e-5).epsilon
    assert hetero <= homo


@pytest.mark.claim("core:certify")
@pytest.mark.parametrize("name, spec, delta", random_grid(), ids=lambda v: v if isinstance(v, str) else "")
def test_certify_is_monotone_in_the_noise_on_the_crosscheck_grid(name, spec, delta):
    """Every event of a crosscheck-grid ledger made noisier (independent factors in [1, 1.5]): the
    certificate never grows (relative 1e-9 for the grid step, which moves with the support)."""
    rng = np.random.default_rng([ord(c) for c in name])
    more = noisier(spec, rng)
    before = acc.certify(grid_events(spec), delta).epsilon
    after = acc.certify(grid_events(more), delta).epsilon
    assert after <= before * (1 + 1e-9)


@pytest.mark.claim("core:certify")
@settings(max_examples=10)
@given(st.lists(st.floats(0.2, 5.0), min_size=2, max_size=30), st.integers(0, 29), st.floats(1.0, 2.0))
def test_certify_never_grows_when_one_event_gets_more_noise(scales, j, factor):
    j %= len(scales)
    more = list(scales)
    more[j] *= factor
    before = acc.certify(ledger([lap(b) for b in scales]), 1e-6).epsilon
    after = acc.certify(ledger([lap(b) for b in more]), 1e-6).epsilon
    assert after <= before * (1 + 1e-9)


@pytest.mark.claim("core:certify")
def test_the_pld_candidate_is_not_used_where_kov_is_exact():
    c = acc.certify(ledger([MechanismEvent("pure", 0.0, "l1", epsilon=0.5)] * 20), 1e-6)
    assert "PLD (connect-the-dots)" not in dict(c.candidates)
    assert c.method == "optimal (KOV)"


#: The 1000-event ledgers of the speed benchmark (docs/accountant.md, "Speed").
SPEED_LEDGERS = {
    "1000 Laplace b = 10 + 0.001 i": [lap(10 + 0.001 * i) for i in range(1000)],
    "1000 Laplace b = 10": [lap(10.0)] * 1000,
    "1000 Gaussian sigma = 30": [MechanismEvent("gaussian", 1.0, "l2", noise_scale=30.0)] * 1000,
    "1000 Gumbel report-noisy-max b = 20": [MechanismEvent("report_noisy_max", 1.0, "score", noise_scale=20.0,
                                                           noise="gumbel")] * 1000,
    "500 Gaussian + 500 Laplace": ([MechanismEvent("gaussian", 1.0, "l2", noise_scale=30.0)] * 500
                                   + [lap(10.0)] * 500),
    "1000 pure steps, 1000 distinct eps": [MechanismEvent("pure", 0.0, "l1", epsilon=0.05 + 1e-4 * i)
                                           for i in range(1000)],
}


@pytest.mark.parametrize("name", list(SPEED_LEDGERS))
def test_certify_speed_for_1000_events(name):
    """A benchmark with a generous bound: certify's CPU time (time.process_time, the best of 3, so that
    other processes on a shared machine do not count) for 1000 events is under 1 s. The idle-machine
    figures (the issue's target: under 0.1 s) are in docs/accountant.md; pytest -s prints them."""
    led = ledger(SPEED_LEDGERS[name])
    best = math.inf
    for _ in range(3):
        t = time.process_time()
        acc.certify(led, 1e-5)
        best = min(best, time.process_time() - t)
    print(f"certify, {name}: {best:.3f} s (CPU)")
    assert best < 1.0
