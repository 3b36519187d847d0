"""Bounded-range mechanisms: the exponential mechanism and Gumbel report-noisy-max [DR19; DDR20].

A mechanism M is *eps-bounded-range* (eps-BR) when for all neighbours D, D' the privacy loss
ln(P(o)/Q(o)) (P = M(D), Q = M(D')) takes values in an interval of length eps. The exponential
mechanism with P(o) ∝ exp(eps u(D, o) / (2 Delta)) is eps-BR: the loss is eps/(2 Delta) (u(D, o) -
u(D', o)) plus a constant, and u(D, o) - u(D', o) lies in [-Delta, Delta]; its monotone form
(factor eps / Delta, all scores moving one way) is eps-BR too (its differences u(D, o) - u(D', o)
all lie in [0, Delta] or all in [-Delta, 0]) [DR19]. Report-noisy-max with Gumbel(b) noise *is* the exponential mechanism P(o) ∝ exp(u(o) / b)
(Gumbel-max), so it is (2 Delta / b)-BR, or (Delta / b)-BR when monotone: the ledger's
``event_epsilon`` of both kinds is their BR parameter. (Report-noisy-max with Laplace noise is
not an exponential mechanism and is not treated as BR.) eps-BR implies eps-DP; the converse fails,
and BR composes better.

Worst cases. Write L for the loss under P and t = ess sup L, so L lies in [t - eps, t] and
0 <= t <= eps (E_P[e^{-L}] = 1 forces L to take both signs or be 0). Every hockey-stick divergence
H_a(P || Q) = E_Q[(u - a)_+] with u = e^L in [e^{t-eps}, e^t], E_Q[u] = 1, is a convex function of
u, so for a fixed mean it is largest when u sits on the two end points: the pair is *dominated* by
the *generalized randomized response* GRR_t with loss t (P-mass q_t) or t - eps (mass 1 - q_t),

    q_t = (e^eps - e^t) / (e^eps - 1)                                            [DDR20, Sec. 4]

(the same convexity bounds E_P[L] = E_Q[u ln u], which is used below). GRR_t's profile is
delta_t(x) = q_t (1 - e^{x - t})_+ + (1 - q_t)(1 - e^{x - t + eps})_+.

The envelope pair. For 0 <= x <= eps, sup_t delta_t(x) = sup_t (e^eps - e^t)(1 - e^{x - t}) / (e^eps - 1)
is attained at e^t = e^{(eps + x)/2} and equals

    delta*(x) = (e^{eps/2} - e^{x/2})^2 / (e^eps - 1),

which is exactly the profile of the pair whose loss has, under P, the density
e^{(l - eps)/2} / (2 (1 - e^{-eps})) on (-eps, eps) and no atom (integrate (1 - e^{x - l}) against
it). That pair is symmetric ((Q, P) has the same loss law), and so is the family {GRR_t}
((Q_t, P_t) is GRR_{eps - t}), so the profiles also agree for x < 0 (H_a(P||Q) = 1 - a + a
H_{1/a}(Q||P)). Hence the envelope pair dominates every eps-BR mechanism, for both orders of the
neighbours, and [ZDW22, Theorem 10] composes such dominating pairs adaptively:
:func:`reference.privacy.pld.bounded_range_pld` is that pair's PLD. It is tighter than RR(eps)
(delta*(0) = tanh(eps/4) against tanh(eps/2)) and than Laplace at eps0 = eps.

The envelope is one pair for every step, so its composition is looser than the optimal
*adaptive* composition of BR steps (which [DDR20, Sec. 6] write as a recursion over the adversary's
choices of t, with no efficient general formula): for k = 3, eps = 1 the envelope gives delta(1) =
0.126 where the adaptive optimum is 0.0998 (tests/privacy/test_bounded_range.py computes both).
Two more bounds are therefore kept:

* :func:`bounded_range_composition`, the efficiently computable adaptive bound of [DDR20, Sec. 7]
  (their Proposition 4 in the ICML version): each step's loss lies in an interval of length eps_i
  whose place is fixed before the step, and its conditional mean is at most
  mu(eps_i) = max_t E[L_t] = eps_i / (e^{eps_i} - 1) - 1 + ln((e^{eps_i} - 1) / eps_i) (the mean
  of GRR_t at e^t = (e^eps - 1)/eps), so Azuma-Hoeffding gives
  P(sum L_i > sum mu(eps_i) + sqrt(ln(1/delta) sum eps_i^2 / 2)) <= delta, and delta(eps) <= P(L > eps).
  Pure eps_j-DP steps enter the same martingale with an interval of length 2 eps_j and mean at
  most eps_j tanh(eps_j / 2) [KOV15, Thm 3.5's proof; DRV10]. Valid adaptively; it wins for
  long ledgers (its drift k mu(eps) ~ k eps^2/8 is the adaptive optimum's, the envelope's is
  ~ k eps^2/6).
* :func:`nonadaptive_delta` / :func:`nonadaptive_epsilon`: the optimal *nonadaptive* homogeneous
  composition of [DDR20, Sec. 5], delta(x) = max_t sum_i C(k,i) q_t^{k-i} (1 - q_t)^i
  (1 - e^{x - k t + i eps})_+ (all steps the same GRR_t). **Not** a certificate: an algorithm's
  steps are chosen adaptively, and [DDR20, Sec. 3.3] show adaptive composition of BR steps can
  leak more (k = 3 above: 0.0949 nonadaptive against 0.0998 adaptive). It is a lower bound of
  what any valid accountant can certify for k exponential mechanisms (GRR_t is itself an
  exponential mechanism on two outcomes), so the tests use it to measure how tight certify is.

Sources: [DR19] Durfee, Rogers. Practical differentially private top-k selection with
pay-what-you-get composition (NeurIPS 2019). [DDR20] Dong, Durfee, Rogers. Optimal differential
privacy composition for exponential mechanisms (ICML 2020; arXiv 1909.13830). [ZDW22] Zhu, Dong,
Wang (AISTATS 2022). [KOV15] Kairouz, Oh, Viswanath (ICML 2015). [DRV10] Dwork, Rothblum, Vadhan
(FOCS 2010).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
from scipy import optimize, special

from .._validate import check_array, check_delta, check_epsilon, check_int, check_nonnegative
from ..claims import Claim
from ..errors import ParameterError

__all__ = ["grr_q", "grr_delta", "envelope_delta", "br_mean", "bounded_range_composition",
           "nonadaptive_delta", "nonadaptive_epsilon", "CLAIMS"]

DPS = 60
_MARGIN = mpmath.mpf(10) ** -(DPS - 10)
#: above this many distinct epsilons the mean terms use their upper bounds eps^2/8 (BR) and
#: eps^2/2 (pure) in exact rational arithmetic instead of mpmath (long heterogeneous ledgers)
_MPMATH_TERMS = 64

CLAIMS = (
    Claim("core:BR envelope pair", "accounting",
          "The pair whose privacy loss has P-density e^{(l - eps)/2} / (2(1 - e^{-eps})) on (-eps, eps) has "
          "profile (e^{eps/2} - e^{x/2})^2/(e^eps - 1) = sup_t of the generalized randomized responses' "
          "profiles, so it dominates every eps-bounded-range mechanism (exponential mechanism, Gumbel "
          "report-noisy-max).",
          "Dong-Durfee-Rogers 2020, Sec. 4 (reduction to generalized randomized response); derived in "
          "reference/privacy/bounded_range.py"),
    Claim("core:BR adaptive composition", "accounting",
          "k adaptive eps_i-BR mechanisms compose to (sum mu(eps_i) + sqrt(ln(1/delta) sum eps_i^2 / 2), delta)-DP, "
          "mu(e) = e/(e^e - 1) - 1 + ln((e^e - 1)/e).",
          "Dong-Durfee-Rogers 2020, Sec. 7 (Proposition 4 of the ICML version)"),
    Claim("core:BR nonadaptive optimal composition", "accounting",
          "The optimal nonadaptive composition of k eps-BR mechanisms has profile "
          "max_t sum_i C(k,i) q_t^{k-i} (1-q_t)^i (1 - e^{x - k t + i eps})_+, q_t = (e^eps - e^t)/(e^eps - 1); "
          "adaptive composition can exceed it.",
          "Dong-Durfee-Rogers 2020, Sec. 5 and Sec. 3.3"),
)


def _up(x) -> float:
    x = mpmath.mpf(x)
    x = x + abs(x) * _MARGIN
    f = float(x)
    if math.isfinite(f) and mpmath.mpf(f) < x:
        f = math.nextafter(f, math.inf)
    return f


def grr_q(t, epsilon):
    """q_t = (e^eps - e^t) / (e^eps - 1): the P-mass of GRR_t's loss-t outcome (mpmath)."""
    t, e = mpmath.mpf(t), mpmath.mpf(epsilon)
    return (mpmath.exp(e) - mpmath.exp(t)) / mpmath.expm1(e)


def grr_delta(x, t, epsilon):
    """Profile of GRR_t at any real x: q_t (1 - e^{x-t})_+ + (1 - q_t)(1 - e^{x-t+eps})_+ (mpmath)."""
    x, t, e = mpmath.mpf(x), mpmath.mpf(t), mpmath.mpf(epsilon)
    q = grr_q(t, e)
    return q * max(0, -mpmath.expm1(x - t)) + (1 - q) * max(0, -mpmath.expm1(x - t + e))


def envelope_delta(x, epsilon):
    """Profile of the BR envelope pair at any real x (closed form; mpmath): (e^{eps/2} - e^{x/2})^2 /
    (e^eps - 1) on [0, eps], 0 above eps, and 1 - e^x + e^x delta*(-x) below 0 (the pair is symmetric)."""
    x, e = mpmath.mpf(x), mpmath.mpf(epsilon)
    if x >= e:
        return mpmath.mpf(0)
    if x >= 0:
        return (mpmath.exp(e / 2) - mpmath.exp(x / 2)) ** 2 / mpmath.expm1(e)
    return -mpmath.expm1(x) + mpmath.exp(x) * envelope_delta(-x, e)


def br_mean(epsilon):
    """mu(eps) = max_t E_P[L] over GRR_t = eps/(e^eps - 1) - 1 + ln((e^eps - 1)/eps) (mpmath), the largest
    mean privacy loss (KL divergence) of an eps-BR mechanism; at most eps^2/8."""
    e = mpmath.mpf(epsilon)
    if e == 0:
        return mpmath.mpf(0)
    return e / mpmath.expm1(e) - 1 + mpmath.log(mpmath.expm1(e) / e)


def bounded_range_composition(br_epsilons, pure_epsilons, delta_prime) -> float:
    """Adaptive composition of eps_i-BR and eps_j-DP steps by concentration [DDR20, Sec. 7]; rounded up.

        eps~ = sum_i mu(eps_i) + sum_j eps_j tanh(eps_j / 2)
               + sqrt(ln(1/delta') (sum_i eps_i^2 + 4 sum_j eps_j^2) / 2),

    the delta' tail of the Azuma-Hoeffding bound on the summed privacy loss (see the module
    docstring). With more than 64 distinct epsilons the mean terms are replaced by their upper bounds
    eps_i^2/8 and eps_j^2/2 (exact rationals), which keeps long heterogeneous ledgers fast.
    """
    br = check_array(br_epsilons, "br_epsilons", ndim=1) if len(br_epsilons) else np.zeros(0)
    pure = check_array(pure_epsilons, "pure_epsilons", ndim=1) if len(pure_epsilons) else np.zeros(0)
    if np.any(br < 0) or np.any(pure < 0):
        raise ParameterError("epsilons", "every epsilon >= 0", min(br.min(initial=0), pure.min(initial=0)))
    delta_prime = check_delta(delta_prime, "delta_prime")
    bv, bc = np.unique(br, return_counts=True)
    pv, pc = np.unique(pure, return_counts=True)
    with mpmath.workdps(DPS):
        if bv.size + pv.size <= _MPMATH_TERMS:
            drift = (mpmath.fsum(int(c) * br_mean(e) for e, c in zip(bv.tolist(), bc))
                     + mpmath.fsum(int(c) * mpmath.mpf(e) * mpmath.tanh(mpmath.mpf(e) / 2)
                                   for e, c in zip(pv.tolist(), pc)))
        else:
            drift = (mpmath.fsum(int(c) * mpmath.mpf(e) ** 2 / 8 for e, c in zip(bv.tolist(), bc))
                     + mpmath.fsum(int(c) * mpmath.mpf(e) ** 2 / 2 for e, c in zip(pv.tolist(), pc)))
        sq = (mpmath.fsum(int(c) * mpmath.mpf(e) ** 2 for e, c in zip(bv.tolist(), bc))
              + 4 * mpmath.fsum(int(c) * mpmath.mpf(e) ** 2 for e, c in zip(pv.tolist(), pc)))
        return _up(drift + mpmath.sqrt(sq * mpmath.log(1 / mpmath.mpf(delta_prime)) / 2))


# ---------------------------------------------------------------------------
# The optimal nonadaptive composition (a lower-bound reference, not a certificate).

def _nonadaptive_at(t, e: float, k: int, x: float) -> np.ndarray:
    """sum_i C(k,i) q_t^{k-i} (1 - q_t)^i (1 - e^{x - kt + i eps})_+ in float64 (log-space binomials), for
    an array of t in [0, eps]."""
    t = np.atleast_1d(np.asarray(t, dtype=float))
    i = np.arange(k + 1)[:, None]
    loss = k * t[None, :] - i * e
    with np.errstate(divide="ignore", invalid="ignore"):
        log_q = np.log(np.maximum(math.exp(e) - np.exp(t), 0.0)) - math.log(math.expm1(e))
        log_1q = np.log(np.expm1(t)) - math.log(math.expm1(e))
        logc = special.gammaln(k + 1) - special.gammaln(i + 1) - special.gammaln(k - i + 1)
        logw = (logc + np.where(k - i > 0, (k - i) * log_q[None, :], 0.0)
                + np.where(i > 0, i * log_1q[None, :], 0.0))
        terms = np.where(loss > x, np.exp(logw) * -np.expm1(np.minimum(x - loss, 0.0)), 0.0)
    return np.nan_to_num(terms, nan=0.0).sum(axis=0)


def nonadaptive_delta(epsilon, k, x) -> float:
    """The optimal nonadaptive profile of k eps-BR mechanisms at x >= 0 [DDR20, Sec. 5]: the maximum over
    t in [0, eps] of the k-fold GRR_t profile.

    The maximum is searched numerically (a grid of 513 values of t, then a bounded scalar search
    around the best), so the value returned is at most the optimum: a *lower* bound of the optimal
    delta, hence of what a valid accountant must certify. Not a certificate for adaptive composition
    (see the module docstring).
    """
    e = check_epsilon(epsilon)
    k = check_int(k, "k", 1)
    x = check_nonnegative(x, "x")
    grid = np.linspace(0.0, e, 513)
    vals = _nonadaptive_at(grid, e, k, x)
    j = int(np.argmax(vals))
    best = float(vals[j])
    lo, hi = grid[max(j - 1, 0)], grid[min(j + 1, grid.size - 1)]
    res = optimize.minimize_scalar(lambda t: -float(_nonadaptive_at(t, e, k, x)[0]), bounds=(lo, hi),
                                   method="bounded", options={"xatol": 1e-13 * e})
    return max(best, -float(res.fun))


def nonadaptive_epsilon(epsilon, k, delta) -> float:
    """The smallest x with :func:`nonadaptive_delta` <= delta, returned as the lower end of a bisection
    bracket (relative width 1e-10): a lower bound of the optimal nonadaptive epsilon (not a certificate)."""
    e = check_epsilon(epsilon)
    k = check_int(k, "k", 1)
    delta = check_delta(delta)
    if nonadaptive_delta(e, k, 0.0) <= delta:
        return 0.0
    lo, hi = 0.0, k * e
    while hi - lo > 1e-10 * hi:
        mid = 0.5 * (lo + hi)
        if nonadaptive_delta(e, k, mid) <= delta:
            hi = mid
        else:
            lo = mid
    return lo
