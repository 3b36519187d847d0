"""The accountant at scale (issue 35): many distinct parameters, long homogeneous ledgers.

Two shortcuts keep ``certify`` lean, and each is checked here against a computation that does not take it:

* KOV's optimal composition sums only the terms i >= i0 of its binomial sum; the head below i0 is replaced by
  its Chernoff bound, at most ``KOV_HEAD_FRACTION`` x the delta sought (:func:`_kov_head`). Checked: the bound
  is above the exact head (summed term by term in mpmath), the profile with it is an upper bound of the full
  sum within that fraction, and the epsilon found is the one the full sum gives.
* A ledger of more than ``WINDOW_MAX_PARTS`` distinct parts is composed on a window with its parts dealt into
  groups (:func:`pld._window_blocks`). Checked against the exact epsilon of 33 distinct randomized responses
  (their losses lie on one lattice, so the exact privacy-loss distribution is a product of binomials
  convolved on it), and against the same window without groups.

The costs themselves are measured by ``python -m examples.benchmark_accountant`` (docs/accountant.md), not here.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from scipy import signal, stats

from reference.privacy import accounting as acc
from reference.privacy import pld
from reference.privacy.ledger import Ledger, MechanismEvent


def _exact_head(eps0: float, k: int, i0: int) -> mpmath.mpf:
    """sum_{i < i0} C(k, i) e^{(k-i) eps0} / (1 + e^eps0)^k, term by term."""
    with mpmath.workdps(60):
        e0 = mpmath.mpf(eps0)
        total = mpmath.fsum(mpmath.binomial(k, i) * mpmath.exp((k - i) * e0) for i in range(i0))
        return total / (1 + mpmath.exp(e0)) ** k


@pytest.mark.claim("core:optimal composition")
@pytest.mark.parametrize("eps0, k, target", [(0.05, 3000, 1e-5), (0.2, 1500, 1e-8), (0.01, 20000, 1e-6)])
def test_kov_head_bound_is_above_the_exact_head_and_negligible(eps0, k, target):
    with mpmath.workdps(60):
        i0, bound = acc._kov_head(mpmath.mpf(eps0), k, mpmath.mpf(target))
    assert i0 > 0                                        # the shortcut is taken
    exact = _exact_head(eps0, k, i0)
    assert exact <= bound <= mpmath.mpf(target) * acc.KOV_HEAD_FRACTION
    assert bound < 1e6 * exact                           # a Chernoff bound, not a vacuous one


@pytest.mark.claim("core:optimal composition")
@pytest.mark.parametrize("eps0, k, delta", [(0.05, 3000, 1e-5), (0.2, 1500, 1e-8), (0.002, 100_000, 1e-5)])
def test_kov_with_the_head_bounded_is_the_full_sum(eps0, k, delta):
    """The truncated profile is an upper bound of the full sum within KOV_HEAD_FRACTION x delta, and the epsilon
    it certifies is the one the full sum certifies (the full sum's profile there is <= delta, and a relative
    1e-9 below it is > delta)."""
    eps = acc.optimal_homogeneous_composition(eps0, 0.0, k, delta)
    with mpmath.workdps(40 + len(str(k))):
        e0 = mpmath.mpf(eps0)
        for point in (eps, eps * (1 - 1e-9), eps * 0.9):
            full = acc._kov_hom_profile(e0, k, mpmath.mpf(point))
            cut = acc._kov_hom_profile(e0, k, mpmath.mpf(point), mpmath.mpf(delta))
            assert full <= cut <= full + mpmath.mpf(delta) * acc.KOV_HEAD_FRACTION
        assert acc._kov_hom_profile(e0, k, mpmath.mpf(eps)) <= delta
        assert acc._kov_hom_profile(e0, k, mpmath.mpf(eps * (1 - 1e-9))) > delta


def _lattice_rr_epsilon(multiples, counts, unit: float, delta: float) -> float:
    """The exact epsilon of RR(m_g unit) x k_g composed: under P each response flips with probability
    1/(1 + e^{e_g}), so the loss is sum_g (k_g - 2 i_g) e_g, i_g ~ Binomial(k_g, .), on the lattice unit Z.
    Its law is the binomials convolved on that lattice; delta(eps) = E[(1 - e^{eps - L})_+], by bisection."""
    pmf = np.array([1.0])
    low = 0                                              # lattice index of pmf[0]
    for m, k in zip(multiples, counts):
        p = stats.binom.pmf(np.arange(k + 1), k, 1 / (1 + math.exp(m * unit)))[::-1]   # loss -k m .. k m
        step = np.zeros(2 * k * m + 1)
        step[::2 * m] = p
        pmf = np.clip(signal.fftconvolve(pmf, step), 0.0, None)
        low -= k * m
    loss = (low + np.arange(pmf.size)) * unit

    def profile(eps: float) -> float:
        above = loss > eps
        return float(np.sum(pmf[above] * -np.expm1(eps - loss[above])))

    lo, hi = 0.0, float(loss[-1])
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if profile(mid) <= delta else (mid, hi)
    return hi


@pytest.mark.claim("core:PLD composition")
def test_grouped_window_is_tight_against_the_exact_lattice_epsilon(monkeypatch):
    """33 distinct randomized responses RR(0.002 m), m = 10 .. 42, 300 each (9900 events) at 1e-6, with the
    grouping threshold WINDOW_MAX_PARTS set to 32 (the package's is larger, a speed choice; the exact reference
    below costs seconds per part): one part more, so the window composes them in groups. The PLD epsilon is never
    below the exact one and within 1.001 of it, and within 1e-6 relative of the same window without groups
    (grouping changes rounding only: a part dropped or counted twice would move it by a whole event)."""
    monkeypatch.setattr(pld, "WINDOW_MAX_PARTS", 32)
    unit, delta = 0.002, 1e-6
    multiples = list(range(10, 43))
    counts = [300] * len(multiples)
    assert len(multiples) > pld.WINDOW_MAX_PARTS
    exact = _lattice_rr_epsilon(multiples, counts, unit, delta)
    items = [("rr", m * unit, 0.0) for m, k in zip(multiples, counts) for _ in range(k)]
    calls = []
    real = pld.compose_window

    def spy(*args, **kwargs):
        calls.append(kwargs.get("groups"))
        return real(*args, **kwargs)

    pld.compose_window = spy
    try:
        ours = pld.epsilon_for_items(items, delta)
    finally:
        pld.compose_window = real
    assert calls and all(g == pld.WINDOW_MAX_PARTS for g in calls)        # the grouped window ran
    assert exact * (1 - 1e-9) <= ours <= exact * 1.001

    # the same window, one block per part (the route a ledger of at most WINDOW_MAX_PARTS parts takes)
    h = pld.grid_step(items, delta)
    parts = pld.ledger_parts(items, h)
    lam = pld.saddle_tilt(parts, ours)
    mean, var = pld.tilted_moments(parts, lam)
    half = pld.WINDOW_SDS * math.sqrt(var) / h + 2
    n = pld.sfft.next_fast_len(int(2 * half) + 1, real=True)
    start = math.floor(mean / h - half)
    grouped = pld.pld_epsilon(pld.compose_window(parts, lam, start, n, groups=pld.WINDOW_MAX_PARTS), delta)
    single = pld.pld_epsilon(pld.compose_window(parts, lam, start, n), delta)
    assert grouped == pytest.approx(single, rel=1e-6)
    # and dropping one part from one group would not pass that comparison
    dropped = pld.pld_epsilon(pld.compose_window(parts[1:], lam, start, n, groups=pld.WINDOW_MAX_PARTS), delta)
    assert dropped != pytest.approx(single, rel=1e-6)


@pytest.mark.claim("core:PLD composition")
def test_grouped_window_error_bound_counts_the_groups_rounding():
    """Each group enters the window with the 2-norm error bound of its own composition (its rounding, which the
    window's FFT term does not see); the window's allowance holds at least their sum, and is still a small part
    of delta at the epsilon found."""
    items = [("laplace", 0.01 + 0.0005 * j) for j in range(40) for _ in range(400)]
    delta = 1e-6
    h = pld.grid_step(items, delta)
    parts = pld.ledger_parts(items, h)
    lam = pld.saddle_tilt(parts, pld._clt_guess(parts, delta))
    mean, var = pld.tilted_moments(parts, lam)
    half = pld.WINDOW_SDS * math.sqrt(var) / h + 2
    n = pld.sfft.next_fast_len(int(2 * half) + 1, real=True)
    start = math.floor(mean / h - half)
    blocks = list(pld._window_blocks(parts, lam, 8, n))
    assert len(blocks) == 8 and sum(b[2] for b in blocks) == 8
    group_rounding = sum(b[5] for b in blocks)
    assert group_rounding > 0
    grouped = pld.compose_window(parts, lam, start, n, groups=8)
    assert grouped.err >= group_rounding
    eps = pld.pld_epsilon(grouped, delta)
    from dataclasses import replace
    assert pld.pld_delta(replace(grouped, err=0.0), eps) >= delta * (1 - 1e-3)


@pytest.mark.claim("core:PLD composition")
@pytest.mark.parametrize("count", [1, 2, 3, 100, 833, 4096, 99_999])
def test_spectrum_power_meets_its_rounding_bound(count):
    """The count-fold power of a spectrum (|z| <= 1), taken by repeated squaring, is within the 4 u count that the
    composition's error bounds charge for it, against mpmath at 40 digits; near-unit moduli (the low frequencies
    of a distribution's spectrum) and small ones both. Any slip in the squaring (a factor missed or doubled) is
    off by far more than that."""
    rng = np.random.default_rng(count)
    z = np.exp(1j * rng.uniform(-np.pi, np.pi, 200)) * np.concatenate((1 - rng.uniform(0, 1e-6, 100),
                                                                       rng.uniform(0, 1, 100)))
    got = pld._spectrum_power(z, count)
    with mpmath.workdps(40):
        exact = np.array([complex(mpmath.mpc(complex(v)) ** count) for v in z])
    err = np.max(np.abs(got - exact))
    assert err <= 4 * pld._U * count


@pytest.mark.claim("core:PLD composition")
def test_window_width_leaves_a_negligible_tail(monkeypatch):
    """The window is +- WINDOW_SDS tilted sds (12 today). What lies above it enters delta through its Chernoff bound,
    which on a ledger of 200 distinct Laplace scales, 100 events each, is under 1e-30 of delta; the epsilon is the
    one a window of +- 30 sds gives, to 1e-8 relative. Negative control: at +- 2 sds the same bound is 3e-6 of
    delta and the epsilon moves by 1e-4 relative (asserted: 1e-7 of delta, 1e-6 relative) (so the check can see a window that is too narrow)."""
    items = [("laplace", 0.002 + 0.00009 * j) for j in range(200) for _ in range(100)]
    delta = 1e-6
    tails = []
    real = pld.upper_tail_bound

    def spy(parts, t):
        tails.append(real(parts, t))
        return tails[-1]

    monkeypatch.setattr(pld, "upper_tail_bound", spy)
    package_sds = pld.WINDOW_SDS
    results = {}
    for sds in (package_sds, 30.0, 2.0):
        monkeypatch.setattr(pld, "WINDOW_SDS", sds)
        tails.clear()
        results[sds] = (pld.epsilon_for_items(items, delta), max(tails))
    ours, ours_tail = results[package_sds]
    assert ours_tail <= 1e-30 * delta
    assert ours == pytest.approx(results[30.0][0], rel=1e-8)
    narrow, narrow_tail = results[2.0]
    assert narrow_tail > 1e-7 * delta                         # 3.2e-6 of delta measured
    assert narrow > ours * (1 + 1e-6)


# ---------------------------------------------------------------------------
# An independent review's mutants of the windowed composition (issue 35): three edits that made certify return
# less than the true epsilon passed the suite until these tests. Each reference value is computed here from
# binomial laws (scipy), never from the accountant.

def _rr_pair_delta(eps: float, k1: int, e1: float, k2: int, e2: float, d1: float = 0.0) -> float:
    """delta(eps) of k1 (e1, d1)-randomized responses composed with k2 RR(e2): with probability 1 - (1 - d1)^k1 some
    approximate step reveals (infinite loss); else the loss is e1 (k1 - 2 i) + e2 (k2 - 2 j), i and j the flips,
    Binomial(k, 1 / (1 + e^e))."""
    i, j = np.arange(k1 + 1), np.arange(k2 + 1)
    li = stats.binom.logpmf(i, k1, 1 / (1 + math.exp(e1)))
    lj = stats.binom.logpmf(j, k2, 1 / (1 + math.exp(e2)))
    finite = 0.0
    for a in range(k1 + 1):                          # one row of the double sum at a time (k up to 2 10^4)
        loss = e1 * (k1 - 2 * a) + e2 * (k2 - 2 * j)
        keep = loss > eps
        finite += float(np.sum(np.exp(li[a] + lj[keep]) * -np.expm1(eps - loss[keep])))
    reveal = -math.expm1(k1 * math.log1p(-d1))
    return reveal + (1 - reveal) * finite


@pytest.mark.claim("core:PLD composition")
def test_windowed_approximate_events_count_their_delta_every_time():
    """5000 (0.01, 1.9e-9)-DP steps and 5000 Laplace(b = 100) steps at 1e-5 (the windowed route). Thresholding each
    Laplace output at Delta/2 is post-processing, a RR(eps') with eps' = ln((1 - t)/t), t = e^{-1/(2b)}/2, so that
    composition's delta is at most the ledger's: at the certified epsilon it must be <= 1e-5 (its own epsilon is
    5.02201, certify's 5.02435). An independent reviewer's mutant counting a part's delta_i once instead of count
    times certified 4.372 (13% below)."""
    ledger = Ledger()
    for _ in range(5000):
        ledger.record(MechanismEvent("approximate", 1.0, "l1", epsilon=0.01, delta=1.9e-9))
    for _ in range(5000):
        ledger.record(MechanismEvent("laplace", 1.0, "l1", noise_scale=100.0))
    cert = acc.certify(ledger, 1e-5)
    t = math.exp(-1 / 200) / 2
    e_thresholded = math.log((1 - t) / t)
    assert _rr_pair_delta(cert.epsilon, 5000, 0.01, 5000, e_thresholded, 1.9e-9) <= 1e-5
    assert _rr_pair_delta(4.3723, 5000, 0.01, 5000, e_thresholded, 1.9e-9) > 1e-5     # the mutant's answer fails


@pytest.mark.claim("core:PLD composition")
def test_windowed_epsilon_is_not_below_the_exact_one_on_a_lattice():
    """20000 RR(2^-8) and 20000 RR(2^-7) at 1e-6: the parameters lie on the grid (h = 2^-13), so the discretisation
    adds almost nothing (certify is 6.6e-7 above the exact 6.2255929) and a window read one cell low shows: an
    independent reviewer's mutant rotating it by one cell certified 1.0e-6 below the exact epsilon. The exact delta
    at the certified epsilon must not exceed 1e-6 (to the float sum's 1e-9)."""
    ledger = Ledger()
    for e in (2.0 ** -8, 2.0 ** -7):
        for _ in range(20000):
            ledger.record(MechanismEvent("pure", 1.0, "l1", epsilon=e))
    cert = acc.certify(ledger, 1e-6)
    assert _rr_pair_delta(cert.epsilon, 20000, 2.0 ** -8, 20000, 2.0 ** -7) <= 1e-6 * (1 + 1e-9)
    assert _rr_pair_delta(cert.epsilon * (1 - 1.04e-6), 20000, 2.0 ** -8, 20000, 2.0 ** -7) > 1e-6 * (1 + 1e-9)


@pytest.mark.claim("core:certify")
@pytest.mark.parametrize("first", [True, False])
def test_events_differing_only_in_monotone_are_certified_apart(first):
    """50 Laplace report-noisy-max events at b = 1 declared monotone (eps 1) and 50 not (eps 2): the exact epsilon of
    50 RR(1) and 50 RR(2) at 1e-6 is 141.403; an accountant that took the two kinds of event for one (a conversion
    cache keyed without ``monotone``) certified 83.53 with the monotone ones first."""
    ledger = Ledger()
    for monotone in ((True, False) if first else (False, True)):
        for _ in range(50):
            ledger.record(MechanismEvent("report_noisy_max", 1.0, "l1", noise_scale=1.0, monotone=monotone,
                                         noise="laplace"))
    cert = acc.certify(ledger, 1e-6)
    assert _rr_pair_delta(cert.epsilon, 50, 1.0, 50, 2.0) <= 1e-6 * (1 + 1e-9)
    assert _rr_pair_delta(83.53, 50, 1.0, 50, 2.0) > 1e-6


@pytest.mark.claim("core:PLD composition")
def test_a_folded_block_carries_its_error_times_the_fold():
    """A block longer than the window is folded onto it; its 2-norm error bound then grows by sqrt(ceil(size / n))
    (r entries summed into one), and the window's allowance must hold at least that sum over the blocks (forced
    here: 400 Laplace items of 100 scales, 4 groups, a 4096-point window; no certify ledger reaches it today)."""
    items = [("laplace", 0.05 + 0.001 * (j % 100)) for j in range(400)]
    h = 2.0 ** -9
    parts = pld.ledger_parts(items, h)
    n = 4096
    blocks = list(pld._window_blocks(parts, 0.3, 4, n))
    assert any(b[0].size > n for b in blocks)                       # the fold happens
    folded = sum(math.sqrt(math.ceil(b[0].size / n)) * b[5] for b in blocks)
    window = pld.compose_window(parts, 0.3, -2048, n, groups=4)
    assert window.err >= folded > sum(b[5] for b in blocks)


@pytest.mark.claim("core:heterogeneous composition")
def test_kov_35_on_a_two_valued_ledger_is_the_closed_form():
    """KOV Theorem 3.5 on 1000 steps at 0.1 and 1000 at 0.2, delta' = 1e-6, against the formula at 50 digits (its
    third term wins): the exact sum of squares weights each distinct epsilon by its count (an independent reviewer's
    mutant squaring the counts gave 300.0, the basic sum)."""
    eps = [0.1] * 1000 + [0.2] * 1000
    with mpmath.workdps(50):
        es = [mpmath.mpf(0.1), mpmath.mpf(0.2)]
        drift = sum(1000 * e * mpmath.tanh(e / 2) for e in es)
        sq = sum(1000 * e * e for e in es)
        d = mpmath.mpf(1e-6)
        exact = min(sum(1000 * e for e in es),
                    drift + mpmath.sqrt(2 * sq * mpmath.log(mpmath.e + mpmath.sqrt(sq) / d)),
                    drift + mpmath.sqrt(2 * sq * mpmath.log(1 / d)))
        got = acc.heterogeneous_composition(eps, 1e-6)[0]
        assert exact <= got <= exact * (1 + mpmath.mpf(10) ** -12)
