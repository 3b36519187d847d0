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
    assert pld._spectrum_power(z, count).shape == z.shape


@pytest.mark.claim("core:PLD composition")
def test_window_width_leaves_a_negligible_tail(monkeypatch):
    """The window is +- WINDOW_SDS tilted sds (12). What lies above it enters delta through its Chernoff bound,
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
    results = {}
    for sds in (pld.WINDOW_SDS, 30.0, 2.0):
        monkeypatch.setattr(pld, "WINDOW_SDS", sds)
        tails.clear()
        results[sds] = (pld.epsilon_for_items(items, delta), max(tails))
    ours, ours_tail = results[12.0]
    assert pld.WINDOW_SDS == 2.0 and 12.0 in results            # the package's width is 12
    assert ours_tail <= 1e-30 * delta
    assert ours == pytest.approx(results[30.0][0], rel=1e-8)
    narrow, narrow_tail = results[2.0]
    assert narrow_tail > 1e-7 * delta                         # 3.2e-6 of delta measured
    assert narrow > ours * (1 + 1e-6)
