"""The accountant: composition and conversion theorems, and ``certify(ledger, delta)``.

Every function names the theorem it implements. Every number it returns is a
guarantee, so every number is rounded *against* the user: an epsilon, a delta or a
noise scale is computed in mpmath at (at least) 60 significant digits and then
turned into the next float *above* the exact value (``_up``); a budget the caller
may spend (a rho for a target epsilon) is turned into the float *below* (``_down``).
Root-finds keep the end of the bracket that is known to satisfy the guarantee and
return that end, so a failed or early-stopped search is loose, never wrong.

Conventions.

* ``mu`` of a Gaussian mechanism is ``sensitivity / sigma`` (the sensitivity is the
  l2 sensitivity under the neighbouring relation the caller uses).
* Privacy *profiles* (``gaussian_delta``, ``laplace_delta``) accept ``epsilon = 0``
  (the total-variation distance); composition theorems need ``epsilon > 0``.
* Guarantees hold for the neighbouring relation under which the sensitivities were
  computed; :func:`certify` reports the relations it saw.
* :func:`certify` reads a realised ledger. Its composition theorems assume the
  privacy parameters of the events were fixed before the run (they may depend on
  public inputs, not on earlier outputs). When an algorithm chooses them from its own
  outputs (random batch sizes, data-dependent stopping), use
  :class:`FullyAdaptiveFilter`, whose guarantee survives that.

Sources (keys used in the docstrings):

* [DR14]  Dwork, Roth. The Algorithmic Foundations of Differential Privacy (2014).
* [DRV10] Dwork, Rothblum, Vadhan. Boosting and differential privacy (FOCS 2010).
* [KOV15] Kairouz, Oh, Viswanath. The composition theorem for differential privacy (ICML 2015).
* [BS16]  Bun, Steinke. Concentrated differential privacy (TCC 2016).
* [CKS20] Canonne, Kamath, Steinke. The discrete Gaussian for differential privacy (NeurIPS 2020).
* [ALCKS20] Asoodeh, Liao, Calmon, Kosut, Sankar. A better bound gives a hundred rounds (2020).
* [BW18]  Balle, Wang. Improving the Gaussian mechanism for differential privacy (ICML 2018).
* [DRS22] Dong, Roth, Su. Gaussian differential privacy (JRSS-B 2022).
* [WRRW23] Whitehouse, Ramdas, Rogers, Wu. Fully-adaptive composition in differential privacy (ICML 2023).
* [ZDW22] Zhu, Dong, Wang. Optimal accounting of differential privacy via characteristic function (AISTATS 2022).
* [DGKKM22] Doroshenko, Ghazi, Kamath, Kumar, Manurangsi. Connect the dots: tighter discrete approximations
  of privacy loss distributions (PoPETs 2022).
* [DR19]  Durfee, Rogers. Practical differentially private top-k selection with pay-what-you-get
  composition (NeurIPS 2019).
* [DDR20] Dong, Durfee, Rogers. Optimal differential privacy composition for exponential mechanisms (ICML 2020).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import mpmath
import numpy as np
from scipy import optimize, special

from .._validate import (check_array, check_delta, check_epsilon, check_int,
                         check_nonnegative, check_positive)
from ..claims import Claim
from ..errors import AccountingError, ParameterError, warn_privacy
from . import bounded_range as _br
from . import pld as _pld
from .ledger import FrozenLedger, Ledger, MechanismEvent

__all__ = [
    "basic_composition", "advanced_composition", "optimal_homogeneous_composition",
    "heterogeneous_composition",
    "zcdp_of_gaussian", "zcdp_of_pure", "zcdp_compose", "zcdp_to_dp", "zcdp_for_dp",
    "classic_gaussian_sigma", "analytic_gaussian_sigma", "gaussian_delta", "gaussian_epsilon",
    "gdp_compose", "laplace_delta", "event_epsilon", "event_rho", "event_mu",
    "fully_adaptive_composition", "FullyAdaptiveFilter", "Certificate", "certify", "CLAIMS",
]

#: working precision (significant decimal digits) of every mpmath computation here
DPS = 60
#: above this many distinct terms, a sum of transcendental terms is taken in float64 with an explicit
#: relative margin instead of mpmath (heterogeneous_composition on long ledgers)
_MPMATH_TERMS = 64
_MARGIN = mpmath.mpf(10) ** -(DPS - 10)

CLAIMS = (
    Claim("core:basic composition", "accounting",
          "The adaptive composition of (eps_i, delta_i)-DP mechanisms is (sum eps_i, sum delta_i)-DP.",
          "Dwork-Roth 2014, Theorem 3.16"),
    Claim("core:advanced composition", "accounting",
          "k adaptive (eps, delta)-DP mechanisms compose to (sqrt(2k ln(1/delta')) eps + k eps (e^eps - 1), "
          "k delta + delta')-DP; never tighter than the optimal composition (proved for every k, eps, delta, delta': "
          "KOV's sum as an expectation of the loss, Hoeffding's inequality; also certified by branch and bound for "
          "every eps in [0.001, 2] at listed k).",
          "Dwork-Rothblum-Vadhan 2010; Dwork-Roth 2014, Theorem 3.20"),
    Claim("core:optimal composition", "accounting",
          "The exact privacy profile of k adaptive (eps, delta)-DP mechanisms is "
          "1 - (1-delta)^k (1 - sum_i C(k,i) max(0, e^{(k-i)eps} - e^{eps'+i eps}) / (1+e^eps)^k); "
          "the returned eps' is the smallest with profile <= delta_total (proofs/: the package's eps' certified at the "
          "listed (eps0, k, delta) only; the formula is KOV15 Theorem 3.3, cited, not re-proved).",
          "Kairouz-Oh-Viswanath 2015, Theorem 3.3"),
    Claim("core:heterogeneous composition", "accounting",
          "k adaptive eps_l-DP mechanisms compose to (min{sum eps_l, sum eps_l tanh(eps_l/2) + "
          "sqrt(2 sum eps_l^2 ln(e + sqrt(sum eps_l^2)/delta')), sum eps_l tanh(eps_l/2) + "
          "sqrt(2 sum eps_l^2 ln(1/delta'))}, delta')-DP.",
          "Kairouz-Oh-Viswanath 2015, Theorem 3.5"),
    Claim("core:zCDP of Gaussian", "accounting",
          "The Gaussian mechanism with l2 sensitivity Delta and noise N(0, sigma^2) is Delta^2/(2 sigma^2)-zCDP.",
          "Bun-Steinke 2016, Proposition 1.6"),
    Claim("core:zCDP of pure DP", "accounting", "An eps-DP mechanism is eps^2/2-zCDP.",
          "Bun-Steinke 2016, Proposition 1.4"),
    Claim("core:zCDP composition", "accounting", "zCDP parameters of adaptively composed mechanisms add.",
          "Bun-Steinke 2016, Lemma 1.7"),
    Claim("core:zCDP to DP", "accounting",
          "rho-zCDP implies (rho + 2 sqrt(rho ln(1/delta)), delta)-DP for every delta in (0,1).",
          "Bun-Steinke 2016, Proposition 1.3"),
    Claim("core:zCDP to DP tight", "accounting",
          "rho-zCDP implies (eps, delta)-DP with eps = inf_{a>1} a rho + ln(1-1/a) + (ln(1/delta) - ln a)/(a-1), "
          "which is never larger than the standard conversion.",
          "Canonne-Kamath-Steinke 2020, Proposition 12 and Corollary 13; Asoodeh et al. 2020"),
    Claim("core:Gaussian exact profile", "accounting",
          "The Gaussian mechanism with mu = Delta/sigma is (eps, delta)-DP exactly for "
          "delta >= Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu) (the hockey-stick divergence).",
          "Balle-Wang 2018, Theorem 8"),
    Claim("core:Gaussian analytic calibration", "accounting",
          "The analytic Gaussian calibration returns the smallest sigma (to float rounding, upward) "
          "whose exact profile meets (eps, delta).",
          "Balle-Wang 2018, Theorem 8 and Algorithm 1"),
    Claim("core:Gaussian classic calibration", "privacy",
          "sigma = sqrt(2 ln(1.25/delta)) Delta / eps gives (eps, delta)-DP for 0 < eps <= 1.",
          "Dwork-Roth 2014, Theorem 3.22 (Appendix A)"),
    Claim("core:Gaussian classic calibration fails above 1", "privacy",
          "For eps > 1 the classic calibration need not give (eps, delta)-DP: at delta = 1e-5 the exact "
          "profile of its sigma exceeds delta for every eps in [8.41977130..., 30] and stays below it on (1, 8.4197] "
          "(certified by branch and bound: proofs/proof_accounting.py; the statement is narrowed to eps <= 30, "
          "beyond 30 not proved).",
          "Dwork-Roth 2014, Theorem 3.22 states eps in (0,1); Balle-Wang 2018, Section 3"),
    Claim("core:GDP composition", "accounting",
          "The adaptive composition of mu_i-GDP mechanisms is sqrt(sum mu_i^2)-GDP, exactly for Gaussians.",
          "Dong-Roth-Su 2022, Corollary 3.3"),
    Claim("core:Laplace exact profile", "accounting",
          "The Laplace mechanism with eps0 = Delta/b has exact profile delta(eps) = 1 - exp(-(eps0 - eps)/2) "
          "for 0 <= eps < eps0 and 0 for eps >= eps0.",
          "Direct integration of the Laplace privacy-loss distribution; eps0-DP by Dwork-Roth 2014, Theorem 3.6"),
    Claim("core:fully adaptive composition", "accounting",
          "With adaptively chosen eps_t-DP steps, stopping before sqrt(2 ln(1/delta') sum eps_t^2) + "
          "sum eps_t^2 / 2 exceeds eps (or sum delta_t exceeds delta'') gives (eps, delta' + delta'')-DP.",
          "Whitehouse-Ramdas-Rogers-Wu 2023 (privacy filter for approximate DP / approximate zCDP); "
          "saddle_point Theorem 3.5"),
    Claim("core:certify", "accounting",
          "certify(ledger, delta) returns the minimum over the valid composition methods, rounded up; it is "
          "never below the exact epsilon where one exists and equals it (to rounding) for all-Gaussian ledgers "
          "(proofs/: certified at the reference ledgers only; a property of the package's floating-point code on "
          "every ledger, which the verifier cannot bound, checked on sampled ledgers in tests/).",
          "this package; the theorems above"),
)


# ---------------------------------------------------------------------------
# Conservative rounding of high-precision numbers.

def _mp(x) -> mpmath.mpf:
    return mpmath.mpf(x)


def _up(x) -> float:
    """A float >= x, for x an mpf computed at DPS digits.

    mpmath's result may sit a few units of its last (60th) digit below the true value;
    a relative margin of 10^-(DPS-10) covers that, then the float above is taken.
    """
    x = mpmath.mpf(x)
    if mpmath.isnan(x):
        raise AccountingError("internal: a NaN reached the accountant")
    x = x + abs(x) * _MARGIN
    f = float(x)
    if math.isfinite(f) and mpmath.mpf(f) < x:
        f = math.nextafter(f, math.inf)
    return f


def _down(x) -> float:
    """A float <= x (the mirror of :func:`_up`)."""
    x = mpmath.mpf(x)
    if mpmath.isnan(x):
        raise AccountingError("internal: a NaN reached the accountant")
    x = x - abs(x) * _MARGIN
    f = float(x)
    if math.isfinite(f) and mpmath.mpf(f) > x:
        f = math.nextafter(f, -math.inf)
    return f


def _q(x: float) -> Fraction:
    return Fraction(x)


def _up_q(x: Fraction) -> float:
    """The smallest float >= x, for an exact rational x."""
    f = float(x)
    if math.isfinite(f) and Fraction(f) < x:
        f = math.nextafter(f, math.inf)
    return f


def _up_ratio(n: int, d: int) -> float:
    """The smallest float >= n/d for integers n >= 0, d > 0 (what ``_up_q(Fraction(n, d))`` gives, without
    the Fraction machinery: Python's int / int is correctly rounded, so at most one step up is needed)."""
    f = n / d
    if math.isfinite(f):
        fn, fd = f.as_integer_ratio()
        if fn * d < n * fd:
            f = math.nextafter(f, math.inf)
    return f


def _div_up(a: float, b: float, factor: int = 1) -> float:
    """The smallest float >= factor * a / b (a >= 0, b > 0 floats, exact rational arithmetic)."""
    an, ad = float(a).as_integer_ratio()
    bn, bd = float(b).as_integer_ratio()
    return _up_ratio(factor * an * bd, ad * bn)


def _sum_up(values) -> float:
    """The smallest float >= the exact sum of the floats ``values``.

    ``math.fsum`` is correctly rounded (Shewchuk's exact partials); the exact residual of the
    values and minus that sum, again by ``fsum``, has the sign of the true residual (an exact sum
    of floats is a multiple of 2^-1074, so a non-zero one never rounds to 0): one step up when
    it is positive. The same float as summing Fractions and rounding up, without them."""
    xs = [float(v) for v in values]
    s = math.fsum(xs)
    if math.isfinite(s):
        xs.append(-s)
        if math.fsum(xs) > 0:
            s = math.nextafter(s, math.inf)
    return s


def _sum_of_squares_q(values, counts=None) -> Fraction:
    """The exact sum of the squares of the floats ``values``, each taken ``counts[i]`` times (once without
    ``counts``): integer arithmetic on a common power-of-two denominator (every float is n / 2^k)."""
    ratios = [float(v).as_integer_ratio() for v in values]
    if not ratios:
        return Fraction(0)
    counts = [1] * len(ratios) if counts is None else [int(c) for c in counts]
    big = max(d for _, d in ratios)                   # every d is a power of two, so d divides big
    total = sum(c * (n * (big // d)) ** 2 for (n, d), c in zip(ratios, counts))
    return Fraction(total, big * big)


def _sqrt_up_q(x: Fraction) -> float:
    """The smallest float >= sqrt(x), for an exact rational x >= 0 (no rounding error at all)."""
    f = math.sqrt(float(x))
    while Fraction(f) ** 2 < x:
        f = math.nextafter(f, math.inf)
    while f > 0 and Fraction(math.nextafter(f, 0.0)) ** 2 >= x:
        f = math.nextafter(f, 0.0)
    return f


def _check_mu(mu: object, name: str = "mu") -> float:
    return check_nonnegative(mu, name)


def _check_profile_epsilon(epsilon: object) -> float:
    return check_nonnegative(epsilon, "epsilon")


# ---------------------------------------------------------------------------
# Basic and advanced composition.

def _check_epsilons_deltas(epsilons, deltas):
    """Per-step parameters of a composition: epsilons >= 0, and deltas (default 0) of the same
    length, each in [0, 1)."""
    eps = check_array(epsilons, "epsilons", ndim=1)
    if np.any(eps < 0):
        raise ParameterError("epsilons", "every epsilon_i >= 0", eps.min())
    if deltas is None:
        return eps, np.zeros_like(eps)
    dels = check_array(deltas, "deltas", ndim=1)
    if dels.shape != eps.shape:
        raise ParameterError("deltas", f"the same length as epsilons ({eps.size})", dels.size)
    if np.any(dels < 0) or np.any(dels >= 1):
        raise ParameterError("deltas", "every delta_i in [0, 1)", dels.tolist())
    return eps, dels


def basic_composition(epsilons, deltas=None) -> tuple[float, float]:
    """Basic composition [DR14, Theorem 3.16].

    The adaptive composition of mechanisms M_i, each (eps_i, delta_i)-DP, is
    (sum eps_i, sum delta_i)-DP. Sums are exact (mpmath) and rounded up.
    ``deltas`` defaults to zeros (pure DP). Raises when the summed delta reaches 1.
    """
    eps, dels = _check_epsilons_deltas(epsilons, deltas)
    d_total = _sum_up(dels.tolist())
    if d_total >= 1:          # the exact sum is >= 1 exactly when its upward rounding is (1 is a float)
        raise AccountingError(f"the deltas sum to {d_total:.6g} >= 1: no guarantee")
    return _sum_up(eps.tolist()), d_total


def advanced_composition(epsilon, delta, k, delta_prime) -> tuple[float, float]:
    """Advanced ("strong") composition [DRV10, Theorem III.3; DR14, Theorem 3.20].

    For every delta' > 0 the k-fold adaptive composition of (eps, delta)-DP
    mechanisms is (eps', k delta + delta')-DP with

        eps' = sqrt(2 k ln(1/delta')) eps + k eps (e^eps - 1).

    This is the form lasso's [13] and erm_geometry's [25] cite (lasso catalogue §7.4).
    ``delta`` may be 0 (pure steps). Returns (eps', k delta + delta'), both rounded up.
    """
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta, "delta", allow_zero=True)
    k = check_int(k, "k", 1)
    delta_prime = check_delta(delta_prime, "delta_prime")
    with mpmath.workdps(DPS):
        e = _mp(epsilon)
        total = mpmath.sqrt(2 * k * mpmath.log(1 / _mp(delta_prime))) * e + k * e * mpmath.expm1(e)
        d_total = k * _mp(delta) + _mp(delta_prime)
        if d_total >= 1:
            raise AccountingError(f"k*delta + delta_prime = {float(d_total):.6g} >= 1: no guarantee")
        return _up(total), _up(d_total)


# ---------------------------------------------------------------------------
# Optimal composition of k homogeneous mechanisms (Kairouz-Oh-Viswanath).

#: the head of KOV's sum left out (see :func:`_kov_head`) is at most this fraction of the delta sought
KOV_HEAD_FRACTION = mpmath.mpf(10) ** -30


def _kov_head(eps0: mpmath.mpf, k: int, target: mpmath.mpf) -> tuple[int, mpmath.mpf]:
    """Where KOV's sums may start: (i0, bound) with bound >= sum_{i < i0} C(k,i) e^{(k-i) eps0} / (1+e^eps0)^k.

    The terms are the probabilities P(B = i) of B ~ Binomial(k, q), q = 1/(1 + e^eps0), so the head is
    P(B <= i0 - 1) <= exp(-k KL((i0-1)/k || q)) (Chernoff, for (i0-1)/k < q). i0 is placed about
    sqrt(2 ln(1/(target KOV_HEAD_FRACTION))) + 1 standard deviations below k q, so the head is negligible
    beside ``target``, and a sum of k terms becomes one of O(sqrt(k ln(1/target))) terms (10^5 steps:
    about 2000 instead of 50,000). (0, 0) where no head can be left out."""
    q = 1 / (1 + mpmath.exp(eps0))
    floor = target * KOV_HEAD_FRACTION
    if not floor > 0:
        return 0, mpmath.mpf(0)
    s = mpmath.sqrt(2 * mpmath.log(1 / floor)) + 1
    i0 = int(mpmath.floor(k * q - s * mpmath.sqrt(k * q * (1 - q))))
    if i0 <= 1:
        return 0, mpmath.mpf(0)
    a = mpmath.mpf(i0 - 1) / k
    kl = a * mpmath.log(a / q) + (1 - a) * mpmath.log((1 - a) / (1 - q))
    bound = mpmath.exp(-k * kl) * (1 + mpmath.mpf(10) ** -10)     # the margin covers mpmath's rounding
    if not bound <= floor:
        return 0, mpmath.mpf(0)
    return i0, bound


def _kov_hom_profile(eps0: mpmath.mpf, k: int, eps_prime: mpmath.mpf,
                     target: mpmath.mpf | None = None) -> mpmath.mpf:
    """sum_i C(k,i) max(0, e^{(k-i)eps0} - e^{eps'+i eps0}) / (1+e^eps0)^k (pure part): exact, or, given
    the ``target`` delta it will be compared with, an upper bound whose head i < i0 is replaced by its
    Chernoff bound (:func:`_kov_head`; at most KOV_HEAD_FRACTION x target above the exact value)."""
    i0, head = _kov_head(eps0, k, target) if target is not None else (0, mpmath.mpf(0))
    total = mpmath.mpf(0)
    c = mpmath.binomial(k, i0) if i0 else mpmath.mpf(1)
    up, down = mpmath.exp(eps0), mpmath.exp(-eps0)
    hi, lo = mpmath.exp((k - i0) * eps0), mpmath.exp(eps_prime + i0 * eps0)   # e^{(k-i) eps0}, e^{eps' + i eps0}
    for i in range(i0, k + 1):
        if (k - 2 * i) * eps0 <= eps_prime:
            break
        total += c * (hi - lo)
        c = c * (k - i) / (i + 1)
        hi, lo = hi * down, lo * up
    return total / mpmath.power(1 + up, k) + head


def _kov_profile(eps0, delta0, k, eps_prime, target=None):
    """Exact delta(eps') of the k-fold composition of (eps0, delta0)-DP mechanisms [KOV15, Thm 3.3]; given
    the ``target`` it is compared with, an upper bound within KOV_HEAD_FRACTION x target of it."""
    hom_target = None
    if target is not None:
        q = mpmath.power(1 - delta0, k)
        hom_target = 1 - (1 - target) / q
        if not hom_target > 0:
            hom_target = None
    return 1 - mpmath.power(1 - delta0, k) * (1 - _kov_hom_profile(eps0, k, eps_prime, hom_target))


def optimal_homogeneous_composition(epsilon, delta, k, delta_total) -> float:
    """Optimal composition [KOV15, Theorem 3.3]: the smallest eps' for ``delta_total``.

    The k-fold adaptive composition of (eps, delta)-DP mechanisms is
    (eps', delta_total)-DP if and only if (for the worst mechanisms)

        delta_total >= 1 - (1-delta)^k (1 - delta_hom(eps')),
        delta_hom(eps') = sum_{i=0}^{k} C(k,i) max(0, e^{(k-i)eps} - e^{eps'} e^{i eps}) / (1+e^eps)^k.

    (KOV15 state the region at the breakpoints eps' = (k-2i) eps; between them the
    profile of the dominating pair, k-fold (eps, delta) randomized response, is the
    formula above, linear in e^{eps'}.) delta_hom is continuous and decreasing, so
    the root is found exactly, piece by piece, in mpmath; the float returned is then
    checked against the profile and moved up until it satisfies it. Cost O(sqrt(k ln(1/delta))) terms: the
    head of the sums, below KOV_HEAD_FRACTION x delta_total, is bounded by Chernoff instead (:func:`_kov_head`).
    Returns 0.0 when delta_total already covers eps' = 0.
    """
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta, "delta", allow_zero=True)
    k = check_int(k, "k", 1)
    delta_total = check_delta(delta_total, "delta_total")
    # the profile is a difference of terms up to (1+e^eps)^k times larger than delta_total:
    # keep DPS digits beyond the ones that cancel
    # (and log10 k more, for the k products that replace the exponentials in the sums)
    dps = DPS + int(-math.log10(delta_total)) + 20 + len(str(k))
    with mpmath.workdps(dps):
        e0 = _mp(epsilon)
        q = mpmath.power(1 - _mp(delta), k)
        target = 1 - (1 - _mp(delta_total)) / q          # allowed delta_hom
        if target < 0:
            raise AccountingError(
                f"delta_total={delta_total} is below 1-(1-delta)^k = {float(1 - q):.6g}: "
                "no epsilon achieves it")
        scale = mpmath.power(1 + mpmath.exp(e0), k)
        t = target * scale
        # the sums start at i0: the head below it is below KOV_HEAD_FRACTION x target, so the root is
        # not in its pieces; it only shifts the root found by as much, and the check below, against an
        # upper bound of the profile, steps the float up if that shift bit
        i0 = _kov_head(e0, k, target)[0] if target > 0 else 0
        a = mpmath.mpf(0)
        b = mpmath.mpf(0)
        c = mpmath.binomial(k, i0) if i0 else mpmath.mpf(1)
        eps_prime = None
        up, down = mpmath.exp(e0), mpmath.exp(-e0)
        hi, lo = mpmath.exp((k - i0) * e0), mpmath.exp(i0 * e0)   # e^{(k-i) e0}, e^{i e0}
        down2 = down * down
        exp_lower = mpmath.exp((k - 2 * i0 - 2) * e0)              # e^{lower}
        for m in range(i0 + 1, k + 2):
            i = m - 1
            a += c * hi
            b += c * lo
            c = c * (k - i) / (i + 1)
            hi, lo = hi * down, lo * up
            lower = (k - 2 * m) * e0            # piece m is [lower, lower + 2 eps0]
            d_lower = a - exp_lower * b
            exp_lower *= down2
            if d_lower >= t or lower <= 0:
                eps_prime = mpmath.log((a - t) / b) if a > t else mpmath.mpf(-1)
                break
        if eps_prime is None or eps_prime <= 0:
            if _kov_profile(e0, _mp(delta), k, mpmath.mpf(0), _mp(delta_total)) <= _mp(delta_total):
                return 0.0
            eps_prime = mpmath.mpf(0)
        result = _up(eps_prime)
        # Verify the float against the exact profile (or an upper bound of it within KOV_HEAD_FRACTION x
        # delta_total); step up if rounding bit us.
        for _ in range(64):
            if _kov_profile(e0, _mp(delta), k, _mp(result), _mp(delta_total)) <= _mp(delta_total):
                return result
            result = math.nextafter(result, math.inf) if result > 0 else 5e-324
            result = max(result, _up(eps_prime * (1 + mpmath.mpf(10) ** -14)))
        raise AccountingError("optimal composition: could not verify the root (please report)")


def heterogeneous_composition(epsilons, delta_prime) -> tuple[float, float]:
    """Composition of heterogeneous pure steps [KOV15, Theorem 3.5]; returns (eps, delta'), rounded up.

    The k-fold adaptive composition of eps_l-DP mechanisms is (eps~, delta')-DP with

        eps~ = min{ sum eps_l,
                    sum eps_l (e^eps_l - 1)/(e^eps_l + 1) + sqrt(2 sum eps_l^2 ln(e + sqrt(sum eps_l^2)/delta')),
                    sum eps_l (e^eps_l - 1)/(e^eps_l + 1) + sqrt(2 sum eps_l^2 ln(1/delta')) }.

    (eps (e^eps - 1)/(e^eps + 1) = eps tanh(eps/2) <= eps^2/2, so the last term is never
    above the zCDP route's sqrt(2 sum eps^2 ln(1/delta')) + sum eps^2/2.) The tests
    check it against the exact composition of randomized responses.
    """
    eps = check_array(epsilons, "epsilons", ndim=1)
    if np.any(eps < 0):
        raise ParameterError("epsilons", "every epsilon_l >= 0", eps.min())
    delta_prime = check_delta(delta_prime, "delta_prime")
    values, counts = np.unique(eps, return_counts=True)
    sq_q = _sum_of_squares_q(values.tolist(), counts.tolist())         # exact
    with mpmath.workdps(DPS):
        d = _mp(delta_prime)
        if values.size <= _MPMATH_TERMS:
            drift = mpmath.fsum(int(c) * _mp(e) * mpmath.tanh(_mp(e) / 2) for e, c in zip(values.tolist(), counts))
        else:
            # many distinct epsilons (certify on long heterogeneous ledgers): each term e tanh(e/2) in
            # float64 is within a few units of roundoff (libm tanh within 2 ulp, one product) and fsum
            # is correctly rounded, so a relative 1e-12 inflation makes the sum an upper bound
            drift = _mp(math.fsum(e * math.tanh(e / 2) for e in eps.tolist())) * (1 + mpmath.mpf(10) ** -12)
        sq = _mp(sq_q.numerator) / sq_q.denominator
        second = drift + mpmath.sqrt(2 * sq * mpmath.log(mpmath.e + mpmath.sqrt(sq) / d))
        third = drift + mpmath.sqrt(2 * sq * mpmath.log(1 / d))
        basic = _sum_up(eps.tolist())                                   # exact sum, rounded up
        return min(basic, _up(second), _up(third)), delta_prime


# ---------------------------------------------------------------------------
# Zero-concentrated DP (Bun-Steinke).

def zcdp_of_gaussian(sensitivity, sigma) -> float:
    """zCDP of the Gaussian mechanism [BS16, Proposition 1.6]: rho = Delta^2 / (2 sigma^2)."""
    sensitivity = check_nonnegative(sensitivity, "sensitivity")
    sigma = check_positive(sigma, "sigma")
    sn, sd = float(sensitivity).as_integer_ratio()
    gn, gd = float(sigma).as_integer_ratio()
    return _up_ratio(sn * sn * gd * gd, 2 * sd * sd * gn * gn)


def zcdp_of_pure(epsilon) -> float:
    """zCDP of a pure eps-DP mechanism [BS16, Proposition 1.4]: rho = eps^2 / 2."""
    epsilon = check_nonnegative(epsilon, "epsilon")
    en, ed = float(epsilon).as_integer_ratio()
    return _up_ratio(en * en, 2 * ed * ed)


def zcdp_compose(rhos) -> float:
    """Composition of zCDP [BS16, Lemma 1.7]: the rhos of adaptively composed mechanisms add."""
    r = check_array(rhos, "rhos", ndim=1)
    if np.any(r < 0):
        raise ParameterError("rhos", "every rho_i >= 0", r.min())
    return _sum_up(r.tolist())


def _tight_conversion_mp(rho: mpmath.mpf, log_inv_delta: mpmath.mpf, h: mpmath.mpf) -> mpmath.mpf:
    """[CKS20, Cor 13] at order alpha = 1 + h: alpha rho + ln(1 - 1/alpha) + (ln(1/delta) - ln alpha)/(alpha - 1)."""
    alpha = 1 + h
    return alpha * rho + (mpmath.log(h) - mpmath.log1p(h)) + (log_inv_delta - mpmath.log1p(h)) / h


def _tight_conversion_float(t: float, rho: float, L: float) -> float:
    h = math.exp(min(t, 700.0))     # a search aid only; the bound is evaluated in mpmath
    return (1 + h) * rho + (t - math.log1p(h)) + (L - math.log1p(h)) / h


def zcdp_to_dp(rho, delta, method: str = "standard") -> float:
    """Convert rho-zCDP to (eps, delta)-DP; returns eps (rounded up).

    ``method="standard"`` [BS16, Proposition 1.3]: eps = rho + 2 sqrt(rho ln(1/delta)).

    ``method="tight"`` [CKS20, Proposition 12 / Corollary 13; ALCKS20]: rho-zCDP is
    (alpha, alpha rho)-RDP for every alpha > 1, which gives (eps, delta)-DP with

        eps = alpha rho + ln(1 - 1/alpha) + (ln(1/delta) - ln alpha) / (alpha - 1).

    Every alpha gives a valid eps, so the order is searched in floating point over
    t = ln(alpha - 1) (no cancellation as alpha -> 1: the order never gets closer to
    1 than 1 + 1e-12, where the ln(1/delta)/(alpha-1) term is astronomically large) and
    the bound is then evaluated in mpmath at that order. The result is never above the
    standard conversion (the standard optimum's order is also evaluated and the
    smaller kept) and never below 0 (a negative value certifies (0, delta)).
    """
    rho = check_nonnegative(rho, "rho")
    delta = check_delta(delta)
    if method not in ("standard", "tight"):
        raise ParameterError("method", "'standard' or 'tight'", method)
    if rho == 0:
        return 0.0
    with mpmath.workdps(DPS):
        r = _mp(rho)
        L = -mpmath.log(_mp(delta))
        standard = r + 2 * mpmath.sqrt(r * L)
        if method == "standard":
            return _up(standard)
        Lf = float(L)
        t_std = 0.5 * (math.log(Lf) - math.log(rho))       # alpha - 1 = sqrt(L / rho)
        lo = max(t_std - 40.0, math.log(1e-12))
        hi = max(t_std + 40.0, lo + 1.0)
        res = optimize.minimize_scalar(_tight_conversion_float, bounds=(lo, hi), args=(rho, Lf),
                                       method="bounded", options={"xatol": 1e-12})
        best = min(_tight_conversion_mp(r, L, mpmath.exp(_mp(t)))
                   for t in (float(res.x), t_std))
        best = min(best, standard)
        return _up(max(best, mpmath.mpf(0)))


def zcdp_for_dp(epsilon, delta, method: str = "standard") -> float:
    """The largest rho whose conversion ``zcdp_to_dp(rho, delta, method)`` is <= epsilon (rounded down).

    ``standard`` inverts [BS16, Prop 1.3] in closed form:
    sqrt(rho) = sqrt(ln(1/delta) + eps) - sqrt(ln(1/delta)), i.e.
    rho = eps^2 / (sqrt(ln(1/delta) + eps) + sqrt(ln(1/delta)))^2.

    ``tight`` inverts [CKS20, Cor 13]: for a fixed order alpha the bound is linear in
    rho, so rho = sup_alpha [eps - ln(1 - 1/alpha) - (ln(1/delta) - ln alpha)/(alpha-1)] / alpha;
    every alpha gives a valid rho, the best one is searched in floating point and
    evaluated in mpmath.
    """
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta)
    if method not in ("standard", "tight"):
        raise ParameterError("method", "'standard' or 'tight'", method)
    with mpmath.workdps(DPS):
        e = _mp(epsilon)
        L = -mpmath.log(_mp(delta))
        standard = e ** 2 / (mpmath.sqrt(L + e) + mpmath.sqrt(L)) ** 2
        if method == "standard":
            return _down(standard)
        Lf, ef = float(L), epsilon

        def neg_g(t: float) -> float:
            h = math.exp(min(t, 700.0))     # a search aid only; g is evaluated in mpmath
            return -(ef - (t - math.log1p(h)) - (Lf - math.log1p(h)) / h) / (1 + h)

        def g_mp(t) -> mpmath.mpf:
            h = mpmath.exp(_mp(t))
            return (e - (mpmath.log(h) - mpmath.log1p(h)) - (L - mpmath.log1p(h)) / h) / (1 + h)

        t_std = float(mpmath.log(mpmath.sqrt(L / standard)))            # standard optimum's order
        lo = max(t_std - 40.0, math.log(1e-12))
        hi = max(t_std + 40.0, lo + 1.0)
        res = optimize.minimize_scalar(neg_g, bounds=(lo, hi), method="bounded",
                                       options={"xatol": 1e-12})
        best = max(g_mp(res.x), g_mp(t_std), standard)
        return _down(best)


# ---------------------------------------------------------------------------
# The Gaussian mechanism: exact profile (Balle-Wang), calibrations, GDP.

def _gaussian_delta_mp(eps: mpmath.mpf, mu: mpmath.mpf) -> mpmath.mpf:
    """Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu), with enough digits to survive cancellation.

    The two terms agree in their leading digits when delta is much smaller than
    Phi(mu/2 - eps/mu) (relative gap about mu^2/eps); the working precision is raised
    until at least 30 significant digits of the difference remain.
    """
    if mu == 0:
        return mpmath.mpf(0)
    with mpmath.workdps(DPS):
        if mpmath.mpf(mu) / 2 - mpmath.mpf(eps) / mpmath.mpf(mu) < -50:
            # delta <= Phi(mu/2 - eps/mu) < Phi(-50) < 1e-400: far below the smallest float
            # (5e-324), so this upper bound rounds to the same float as the exact value
            return mpmath.mpf(10) ** -400
    dps = DPS
    while True:
        with mpmath.workdps(dps):
            e, m = mpmath.mpf(eps), mpmath.mpf(mu)
            first = mpmath.ncdf(m / 2 - e / m)
            value = first - mpmath.exp(e) * mpmath.ncdf(-m / 2 - e / m)
            if first == 0:
                return mpmath.mpf(0)
            lost = 0 if value <= 0 else float(mpmath.log10(first / value))
            if value > 0 and lost < dps - 30:
                return +value
            if dps > 5000:
                # Past 5000 digits delta is below 10^-4970 and rounds up to the smallest float.
                return mpmath.mpf(10) ** -4970
            dps = int(dps + max(lost, 40) + 30)


def gaussian_delta(epsilon, mu) -> float:
    """Exact privacy profile of the Gaussian mechanism [BW18, Theorem 8].

    For noise N(0, sigma^2) and l2 sensitivity Delta, mu = Delta/sigma, the mechanism
    is (eps, delta)-DP exactly when

        delta >= Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu).

    Computed in mpmath with adaptive precision (the two terms cancel when delta is
    tiny), so it is accurate down to delta ~ 1e-4970; returned rounded up (a delta
    below the smallest float comes back as 5e-324, an upper bound). eps >= 0.
    """
    epsilon = _check_profile_epsilon(epsilon)
    mu = _check_mu(mu)
    # Rounded up, but a probability: 1 is already a valid upper bound (at huge mu and eps = 0
    # the exact value 1 - 2 Phi(-mu/2) would otherwise round up past 1).
    return min(1.0, _up(_gaussian_delta_mp(_mp(epsilon), _mp(mu))))


def _log_gaussian_delta_float(eps: float, mu: float) -> float:
    """log of the [BW18] profile in float64 (scipy.special.log_ndtr); only a starting guess."""
    la = special.log_ndtr(mu / 2 - eps / mu)
    lb = special.log_ndtr(-mu / 2 - eps / mu)
    x = eps + lb - la
    if not x < 0:
        return -math.inf
    return float(la + math.log(-math.expm1(x)))


def _verified_boundary(ok, x0: float, ok_above: bool, floor: float = 0.0):
    """The boundary of a monotone predicate ``ok`` (an mpmath test), from a float guess x0 > 0.

    ``ok_above``: ok(x) holds for x above the boundary (else below it). Returns an mpf on
    the ok side, within a relative 1e-18 of the boundary. The bracket is grown from
    x0 (1 -/+ 1e-12) until ``ok`` holds on one end and fails on the other, then bisected;
    the returned end has been checked, so a poor guess costs time, never validity.
    """
    x0, floor = mpmath.mpf(x0), mpmath.mpf(floor)
    r = mpmath.mpf(10) ** -12
    lo, hi = max(x0 * (1 - r), floor), x0 * (1 + r)
    for _ in range(4000):
        lo_ok, hi_ok = ok(lo), ok(hi)
        if ok_above:
            if hi_ok and not lo_ok:
                break
            if lo_ok and lo <= floor:
                return floor
        elif lo_ok and not hi_ok:
            break
        r *= 4
        if ok_above:
            if not hi_ok:
                hi = x0 * (1 + r)
            if lo_ok:
                lo = max(x0 / (1 + r), floor)
        else:
            if not lo_ok:
                lo = x0 / (1 + r)
            if hi_ok:
                hi = x0 * (1 + r)
    else:
        raise AccountingError("internal: no bracket found (please report)")
    for _ in range(300):
        if hi - lo <= abs(hi) * mpmath.mpf(10) ** -18:
            break
        mid = (lo + hi) / 2
        if ok(mid) == ok_above:
            hi = mid
        else:
            lo = mid
    return hi if ok_above else lo


def _gaussian_epsilon_mp(delta: mpmath.mpf, mu: mpmath.mpf) -> mpmath.mpf:
    """The smallest eps >= 0 with exact profile <= delta, as a verified end of a bracket."""
    if mu == 0 or _gaussian_delta_mp(mpmath.mpf(0), mu) <= delta:
        return mpmath.mpf(0)
    rho = mu ** 2 / 2
    e_std = float(rho + 2 * mpmath.sqrt(rho * -mpmath.log(delta)))   # [BS16]: a valid upper end
    mu_f, log_d = float(mu), float(mpmath.log(delta))
    x0 = e_std
    try:
        g = lambda e: _log_gaussian_delta_float(e, mu_f) - log_d
        if g(0.0) > 0 and g(e_std) < 0 and math.isfinite(g(e_std)):
            x0 = optimize.brentq(g, 0.0, e_std, xtol=1e-300, rtol=1e-15, maxiter=200)
    except (ValueError, RuntimeError, OverflowError, ZeroDivisionError):
        pass
    if not x0 > 0:
        x0 = e_std
    return _verified_boundary(lambda e: _gaussian_delta_mp(e, mu) <= delta, x0, ok_above=True)


def gaussian_epsilon(delta, mu) -> float:
    """Inverse of the exact Gaussian profile [BW18, Theorem 8]: the smallest eps with delta(eps) <= delta.

    A float64 root of the log-space profile seeds a bracket that is checked and
    bisected in mpmath; the end returned always satisfies the exact profile (a bad
    seed costs time, not validity), and is rounded up. Returns 0.0 when the
    total-variation distance 2 Phi(mu/2) - 1 is already <= delta.
    """
    delta = check_delta(delta)
    mu = _check_mu(mu)
    with mpmath.workdps(DPS):
        return _up(_gaussian_epsilon_mp(_mp(delta), _mp(mu)))


def classic_gaussian_sigma(epsilon, delta, sensitivity) -> float:
    """The classic Gaussian calibration [DR14, Theorem 3.22]: sigma = sqrt(2 ln(1.25/delta)) Delta / eps.

    Dwork-Roth prove (eps, delta)-DP for eps in (0, 1) only. For eps > 1 the formula
    can fail (see the claim ``core:Gaussian classic calibration fails above 1`` and
    proofs/proof_accounting.py); this function still returns it, because papers print
    it, but :func:`analytic_gaussian_sigma` is what certifies. Rounded up. Outside its exact
    validity (eps > 1 where the exact profile at the returned sigma exceeds delta, e.g. eps above
    8.42 at delta = 1e-5) it warns with a :class:`~reference.errors.PrivacyWarning` (core-A01).
    """
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta)
    sensitivity = check_positive(sensitivity, "sensitivity")
    with mpmath.workdps(DPS):
        sigma = _up(mpmath.sqrt(2 * mpmath.log(mpmath.mpf(1.25) / _mp(delta))) * _mp(sensitivity) / _mp(epsilon))
    if epsilon > 1 and gaussian_delta(epsilon, sensitivity / sigma) > delta:
        warn_privacy(f"classic_gaussian_sigma({epsilon:g}, {delta:g}): the classic calibration is not "
                     f"({epsilon:g}, {delta:g})-DP here (exact profile: delta "
                     f"{gaussian_delta(epsilon, sensitivity / sigma):.3g})", "core-A01",
                     "analytic_gaussian_sigma(epsilon, delta, sensitivity)")
    return sigma


def analytic_gaussian_sigma(epsilon, delta, sensitivity) -> float:
    """Analytic Gaussian calibration [BW18, Theorem 8, Algorithm 1]: the smallest sigma giving (eps, delta)-DP.

    The exact profile increases with mu = Delta/sigma, so the largest admissible mu is
    found from a float64 guess by a bracket checked and bisected in mpmath (the end
    kept is admissible); sigma is Delta / mu rounded up, and the profile is re-checked
    at the returned float.
    """
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta)
    sensitivity = check_positive(sensitivity, "sensitivity")
    with mpmath.workdps(DPS):
        e, d = _mp(epsilon), _mp(delta)
        L = -mpmath.log(d)
        rho = e ** 2 / (mpmath.sqrt(L + e) + mpmath.sqrt(L)) ** 2
        mu_zcdp = float(mpmath.sqrt(2 * rho))                   # admissible by [BS16]
        x0 = mu_zcdp
        try:
            g = lambda m: _log_gaussian_delta_float(epsilon, m) - math.log(delta)
            hi = mu_zcdp
            while g(hi) < 0 and hi < 1e6:
                hi *= 2
            if g(mu_zcdp) < 0 < g(hi):
                x0 = optimize.brentq(g, mu_zcdp, hi, rtol=1e-15, maxiter=200)
        except (ValueError, RuntimeError, OverflowError, ZeroDivisionError):
            pass
        mu = _verified_boundary(lambda m: _gaussian_delta_mp(e, m) <= d, x0, ok_above=False)
        sigma = _up(_mp(sensitivity) / mu)
        while _gaussian_delta_mp(e, _mp(sensitivity) / _mp(sigma)) > d:   # rounding guard
            sigma = math.nextafter(sigma, math.inf)
        return sigma


def gdp_compose(mus) -> float:
    """Composition of Gaussian DP [DRS22, Corollary 3.3]: mu = sqrt(sum mu_i^2).

    Exact for Gaussian mechanisms: the composition of N(0,1) vs N(mu_i,1) pairs is
    N(0, I) vs N((mu_i), I), a single Gaussian pair with shift sqrt(sum mu_i^2).
    """
    m = check_array(mus, "mus", ndim=1)
    if np.any(m < 0):
        raise ParameterError("mus", "every mu_i >= 0", m.min())
    return _sqrt_up_q(_sum_of_squares_q(m.tolist()))


# ---------------------------------------------------------------------------
# The Laplace mechanism: exact profile.

def laplace_delta(epsilon, epsilon0) -> float:
    """Exact privacy profile of one Laplace mechanism with eps0 = Delta_1 / b (rounded up).

    With densities p = Lap(0, b) and q = Lap(Delta, b) the privacy loss ln(p/q) is
    eps0 left of 0, eps0 - 2x/b on [0, Delta], and -eps0 right of Delta. Integrating
    the hockey-stick divergence sup_S P(S) - e^eps Q(S) over {loss > eps}:

        delta(eps) = 1 - exp(-(eps0 - eps)/2)   for 0 <= eps < eps0,   0 for eps >= eps0.

    At eps = eps0 this is the eps0-DP of [DR14, Theorem 3.6]. proofs/ check the formula
    against mpmath quadrature of the divergence.
    """
    epsilon = _check_profile_epsilon(epsilon)
    epsilon0 = check_nonnegative(epsilon0, "epsilon0")
    if epsilon >= epsilon0:
        return 0.0
    with mpmath.workdps(DPS):
        return min(1.0, _up(-mpmath.expm1(-(_mp(epsilon0) - _mp(epsilon)) / 2)))   # a probability


# ---------------------------------------------------------------------------
# Fully adaptive composition (privacy filter).

def _filter_expression(sum_rho: mpmath.mpf, log_inv_delta: mpmath.mpf) -> mpmath.mpf:
    # sqrt(2 ln(1/delta') sum eps^2) + sum eps^2 / 2 with sum eps^2 = 2 * sum rho
    return mpmath.sqrt(4 * log_inv_delta * sum_rho) + sum_rho


def fully_adaptive_composition(epsilons, delta_prime, deltas=None) -> tuple[float, float]:
    """The fully adaptive composition bound [WRRW23] (saddle_point Theorem 3.5; catalogue §6.4).

    For eps_t-DP (or (eps_t, delta_t)-DP) steps whose parameters may be chosen
    adaptively, the interaction is (eps, delta' + sum delta_t)-DP with

        eps = sqrt(2 ln(1/delta') sum eps_t^2) + (1/2) sum eps_t^2,

    as long as these values are a stopping rule fixed in advance, i.e. a filter: see
    :class:`FullyAdaptiveFilter`. (The expression equals the standard zCDP conversion of
    rho = sum eps_t^2 / 2, which the tests check.) Returns (eps, delta), rounded up.
    """
    eps, dels = _check_epsilons_deltas(epsilons, deltas)
    delta_prime = check_delta(delta_prime, "delta_prime")
    with mpmath.workdps(DPS):
        sum_rho = mpmath.fsum(_mp(v) ** 2 for v in eps) / 2
        total = _filter_expression(sum_rho, -mpmath.log(_mp(delta_prime)))
        d_total = _mp(delta_prime) + mpmath.fsum(_mp(v) for v in dels)
        if d_total >= 1:
            raise AccountingError(f"delta' + sum delta_t = {float(d_total):.6g} >= 1: no guarantee")
        return _up(total), _up(d_total)


class FullyAdaptiveFilter:
    """Privacy filter for fully adaptive composition [WRRW23] (saddle_point Thm 3.5, catalogue §6.4).

    Budget (epsilon, delta) with delta = delta' + delta'': ``delta_for_steps`` is
    delta'' (what the steps' own deltas may use); the rest, delta', pays for the
    concentration. A step with privacy (eps_t, delta_t), chosen adaptively, may run only if

        sqrt(2 ln(1/delta') sum_{s<=t} eps_s^2) + (1/2) sum_{s<=t} eps_s^2 <= epsilon
        and sum_{s<=t} delta_s <= delta''

    (the paper's N(S) stops before the first step that would break this). Gaussian
    steps spend rho = mu^2/2 in the same sum (the [WRRW23] filter for approximate zCDP,
    of which the pure-DP filter is the case rho_t = eps_t^2/2). Comparisons use values
    rounded up, so the filter never admits a step the theorem would not.
    """

    def __init__(self, epsilon, delta, *, delta_for_steps=0.0):
        self.epsilon = check_epsilon(epsilon)
        self.delta = check_delta(delta)
        self.delta_for_steps = check_delta(delta_for_steps, "delta_for_steps", allow_zero=True)
        if self.delta_for_steps >= self.delta:
            raise ParameterError("delta_for_steps", f"< delta = {self.delta}", self.delta_for_steps)
        with mpmath.workdps(DPS):
            self._delta_prime = _mp(self.delta) - _mp(self.delta_for_steps)
            self._log_inv = -mpmath.log(self._delta_prime)
        self._rhos: list[float] = []
        self._deltas: list[float] = []
        with mpmath.workdps(DPS):
            self._sum_rho = mpmath.mpf(0)       # running sums (each step O(1))
        self._sum_delta = Fraction(0)

    @property
    def n_spent(self) -> int:
        return len(self._rhos)

    def _bound(self, extra_rho: float, extra_delta: float) -> tuple[float, float]:
        with mpmath.workdps(DPS):
            sum_rho = self._sum_rho + _mp(extra_rho)
            return (_up(_filter_expression(sum_rho, self._log_inv)),
                    _up_q(self._sum_delta + _q(extra_delta)))

    def spent_epsilon(self) -> float:
        """The filter expression for the steps spent so far (rounded up)."""
        return self._bound(0.0, 0.0)[0]

    def can_spend_rho(self, rho, delta=0.0) -> bool:
        rho = check_nonnegative(rho, "rho")
        delta = check_delta(delta, "delta", allow_zero=True)
        e, d = self._bound(rho, delta)
        return e <= self.epsilon and d <= self.delta_for_steps

    def can_spend(self, epsilon, delta=0.0) -> bool:
        """Would one more (epsilon, delta)-DP step keep the filter within budget?"""
        epsilon = check_nonnegative(epsilon, "epsilon")
        return self.can_spend_rho(zcdp_of_pure(epsilon), delta)

    def spend_rho(self, rho, delta=0.0) -> None:
        if not self.can_spend_rho(rho, delta):
            raise AccountingError(
                f"the filter stops here: one more step (rho={rho}, delta={delta}) would exceed "
                f"(epsilon={self.epsilon}, delta={self.delta})")
        self._rhos.append(float(rho))
        self._deltas.append(float(delta))
        with mpmath.workdps(DPS):
            self._sum_rho += _mp(rho)
        self._sum_delta += _q(delta)

    def spend(self, epsilon, delta=0.0) -> None:
        """Record one (epsilon, delta)-DP step; raises AccountingError if the filter must stop."""
        epsilon = check_nonnegative(epsilon, "epsilon")
        self.spend_rho(zcdp_of_pure(epsilon), delta)

    def can_spend_event(self, event: MechanismEvent) -> bool:
        rho, delta = _event_filter_cost(event)
        return self.can_spend_rho(rho, delta)

    def spend_event(self, event: MechanismEvent) -> None:
        rho, delta = _event_filter_cost(event)
        self.spend_rho(rho, delta)


def _event_filter_cost(event: MechanismEvent) -> tuple[float, float]:
    if event.kind == "gaussian":
        return event_rho(event), 0.0
    return zcdp_of_pure(event_epsilon(event)), float(event.delta)


# ---------------------------------------------------------------------------
# Ledger events and certification.

#: the largest privacy parameter of one event the accountant takes (an epsilon, or mu = Delta_2 / sigma):
#: beyond it the event is refused. Its square (a zCDP rho) stays a finite float, and no guarantee of
#: an event this weak means anything; a noise scale of 1e-300 lands here instead of overflowing.
MAX_EVENT_PARAMETER = 1e100


def _check_event(event: object) -> MechanismEvent:
    """Re-validate an event where it is certified: an event is a frozen dataclass, but one unpickled or
    altered with object.__setattr__ never ran its constructor's checks, and a negative scale or a NaN
    epsilon would otherwise reach the theorems (a negative Laplace scale reads as zero sensitivity and
    certified epsilon 0). Every field is checked as MechanismEvent's constructor checks it, and the
    event's privacy parameter must be at most MAX_EVENT_PARAMETER; errors name the field."""
    if not isinstance(event, MechanismEvent):
        raise ParameterError("event", "a MechanismEvent", type(event).__name__)
    if not isinstance(event.kind, str) or not isinstance(event.norm, str) or not isinstance(event.relation, str):
        raise ParameterError("kind", "kind, norm and relation given as strings", (event.kind, event.norm, event.relation))
    MechanismEvent.__post_init__(event)          # the constructor's checks, each naming its field
    if not isinstance(event.monotone, (bool, np.bool_)):
        raise ParameterError("monotone", "a bool", event.monotone)
    if event.kind == "gaussian" and event.norm != "l2":
        raise AccountingError(f"a gaussian event needs an l2 sensitivity, got norm={event.norm!r}")
    if event.kind == "laplace" and event.norm != "l1":
        raise AccountingError(f"a laplace event needs an l1 sensitivity, got norm={event.norm!r}")
    if event.kind == "claimed":
        raise AccountingError(f"a 'claimed' event is a paper's statement no theorem certifies: {event.label!r}")
    return event


def event_epsilon(event: MechanismEvent) -> float:
    """The epsilon of one ledger event (with its own ``event.delta``), rounded up.

    * ``laplace``: Delta_1 / b [DR14, Theorem 3.6].
    * ``report_noisy_max`` (Laplace or Gumbel noise of scale b): 2 Delta / b, or Delta / b when
      ``monotone`` [DR14, Claim 3.9 and Theorem 3.10; McSherry-Talwar 2007].
    * ``exponential``, ``pure``, ``approximate``: the stated epsilon.
    * ``gaussian``: no finite pure epsilon exists; raises AccountingError (use event_mu).
    """
    event = _check_event(event)
    if event.kind == "laplace":
        return _event_ratio(event, 1)
    if event.kind == "report_noisy_max":
        factor = 1 if event.monotone else 2
        return _event_ratio(event, factor)
    if event.kind in ("exponential", "pure", "approximate"):
        return _bounded_parameter(float(event.epsilon), "epsilon")
    raise AccountingError("a gaussian event is not eps-DP for any finite eps; use event_mu or event_rho")


def event_mu(event: MechanismEvent) -> float:
    """mu = Delta_2 / sigma of a ``gaussian`` event (it is mu-GDP [DRS22, Theorem 2.7]); rounded up."""
    event = _check_event(event)
    if event.kind != "gaussian":
        raise AccountingError(f"event_mu is defined for gaussian events, not {event.kind!r}")
    return _event_ratio(event, 1)


def _bounded_parameter(value: float, field: str) -> float:
    if not value <= MAX_EVENT_PARAMETER:
        raise ParameterError(field, f"an event privacy parameter <= {MAX_EVENT_PARAMETER:g} (the accountant's range)",
                             value)
    return value


def _event_ratio(event: MechanismEvent, factor: int) -> float:
    """factor * sensitivity / noise_scale rounded up, refused (naming noise_scale) beyond MAX_EVENT_PARAMETER:
    the ratio is compared in exact rationals before any float division can overflow."""
    ratio = Fraction(event.sensitivity) * factor / Fraction(event.noise_scale)
    if ratio > Fraction(MAX_EVENT_PARAMETER):
        raise ParameterError("noise_scale", f"factor * sensitivity / noise_scale <= {MAX_EVENT_PARAMETER:g} "
                             "(the accountant's range)", event.noise_scale)
    return _div_up(event.sensitivity, event.noise_scale, factor)


def event_rho(event: MechanismEvent) -> float:
    """zCDP rho of one event: Delta^2/(2 sigma^2) for gaussian [BS16, Prop 1.6], eps^2/2 for
    pure-DP kinds [BS16, Prop 1.4]. An ``approximate`` event has no rho (only delta-approximate
    zCDP); raises AccountingError."""
    event = _check_event(event)
    if event.kind == "gaussian":
        event_mu(event)                       # refuses a mu beyond the accountant's range
        return zcdp_of_gaussian(event.sensitivity, event.noise_scale)
    if event.kind == "approximate":
        raise AccountingError("an approximate (eps, delta) event has no zCDP rho; certify handles its delta")
    return zcdp_of_pure(event_epsilon(event))


def is_bounded_range(event: MechanismEvent) -> bool:
    """Whether an event is an eps-bounded-range mechanism with eps = :func:`event_epsilon`: the exponential
    mechanism and report-noisy-max with Gumbel noise (which is the exponential mechanism), general or
    monotone [DR19; DDR20]; see reference/privacy/bounded_range.py."""
    return event.kind == "exponential" or (event.kind == "report_noisy_max" and event.noise == "gumbel")


def _pld_items(kinds, pure, gaussian_mus) -> list[tuple]:
    """The events as PLD items (reference/privacy/pld.py): ('laplace', eps0) for a Laplace event,
    ('br', eps) for a bounded-range event (kind "br": the BR envelope pair), ('rr', eps, delta_i) for
    the other eps-DP and (eps, delta)-DP kinds (randomized response is their worst case [KOV15,
    Thm 3.3]), and one ('gaussian', sqrt(sum mu_i^2)) for all Gaussian events [DRS22, Cor 3.3].
    ``kinds`` and ``pure`` ((event_epsilon, delta) pairs) list the non-Gaussian events in order.
    Events with epsilon 0 are left out."""
    items: list[tuple] = []
    for kind, (eps, delta_i) in zip(kinds, pure):
        if eps <= 0:
            continue
        if kind == "br":
            items.append(("br", eps))
        else:
            items.append(("laplace", eps) if kind == "laplace" else ("rr", eps, delta_i))
    if gaussian_mus:
        items.append(("gaussian", gdp_compose(gaussian_mus)))
    return items


@dataclass(frozen=True)
class Certificate:
    """The tightest (epsilon, delta) the accountant proves for a ledger.

    ``method`` names the winning method; ``candidates`` lists (method, epsilon) for
    every method that applied; ``delta_of_events`` is the part of delta consumed by
    ``approximate`` events; ``relations`` the neighbouring relations of the events.
    """

    epsilon: float
    delta: float
    method: str
    candidates: tuple[tuple[str, float], ...] = ()
    n_events: int = 0
    delta_of_events: float = 0.0
    relations: tuple[str, ...] = ()


def certify(ledger, delta) -> Certificate:
    """Certify a run: the smallest epsilon such that the ledger's events compose to (epsilon, delta)-DP.

    Each ``approximate`` (eps_i, delta_i) event is dominated by a mixture that, with
    probability 1 - delta_i, is eps_i-DP [KOV15, Thm 3.3's dominating pair], so the
    composition is (eps, sum delta_i + delta_c)-DP whenever the events treated as
    eps_i-DP compose to (eps, delta_c); hence delta_c = delta - sum delta_i (error if
    <= 0). Candidates, each valid on its own, each rounded up:

    * ``basic``: [DR14, Thm 3.16] over the pure events, plus, when there are also Gaussian
      events, one exact GDP block [DRS22 Cor 3.3; BW18 Thm 8] at delta_c ("basic + GDP block");
    * ``advanced``: [DRV10] when all events are pure with one common epsilon;
    * ``optimal (KOV)``: [KOV15, Thm 3.3] when there are no Gaussian events, at the largest
      epsilon of the ledger (exact when it is homogeneous; "optimal (KOV) at the largest
      epsilon", an upper bound, otherwise: an eps_i-DP step is max eps_i-DP); with a common
      delta_i it uses the exact (1-delta_i)^k form;
    * ``heterogeneous (KOV Thm 3.5)``: [KOV15, Thm 3.5] when there are no Gaussian events;
    * ``zCDP (standard)`` / ``zCDP (tight)``: rho of every event added [BS16] and
      converted at delta_c [BS16 Prop 1.3; CKS20 Prop 12];
    * ``GDP (exact)``: when every event is Gaussian: exact [DRS22; BW18]. (Events of zero
      sensitivity are 0-DP and are left out of every method.)
    * ``BR concentration (DDR20)``: when there are bounded-range events (exponential mechanism,
      Gumbel report-noisy-max; :func:`is_bounded_range`) and no Gaussian one: the adaptive
      Azuma-Hoeffding bound of [DDR20, Sec. 7] with the other eps-DP events in the same sum
      (reference/privacy/bounded_range.py);
    * ``PLD (connect-the-dots)``: when there is a non-Gaussian event (and the ledger is not
      homogeneous eps-DP steps without Laplace or bounded-range ones, where ``optimal (KOV)`` is
      already exact): the privacy-loss distributions of the events' dominating pairs (Laplace;
      the BR envelope pair for bounded-range events; randomized response for the other eps-DP
      and (eps, delta)-DP kinds; one Gaussian block) composed
      by FFT with a discretisation that only raises delta [reference/privacy/pld.py;
      ZDW22 Thm 10; DGKKM22]. It uses the whole delta (the approximate events' deltas are
      inside the PLD as mass at +inf).

    Every event is re-validated here (:func:`_check_event`): an altered event is refused with a
    ParameterError naming its field. More noise never raises the certificate (to floating-point
    rounding): every candidate is monotone in each event's parameter, the PLD rounds parameters up
    onto a fixed grid and its grid step only gets finer (nested powers of two) with more noise.

    The certificate is the minimum. An empty ledger (or one whose events all have
    zero sensitivity) is (0, delta). A ledger holding a ``claimed`` event (a guarantee a
    paper states but no theorem certifies at that calibration) gets epsilon = inf, with
    the events' labels as the method.
    """
    if isinstance(ledger, (Ledger, FrozenLedger)):
        events = tuple(ledger)
    else:
        raise ParameterError("ledger", "a Ledger or FrozenLedger", type(ledger).__name__)
    delta = check_delta(delta)
    claimed = [e for e in events if isinstance(e, MechanismEvent) and e.kind == "claimed"]
    if claimed:
        # A claimed guarantee is not a proof: never report it as certified.
        return Certificate(math.inf, delta, "not certifiable: " + "; ".join(e.label or "claimed event" for e in claimed),
                           (), len(events), 0.0, tuple(sorted({e.relation for e in events})))
    for e in events:
        if not isinstance(e, MechanismEvent):
            raise ParameterError("event", "a MechanismEvent", type(e).__name__)
    # each distinct event is checked and converted once (long ledgers repeat a few events), in one pass
    value: dict = {}
    values = []
    for e in events:
        v = value.get(e)
        if v is None:
            _check_event(e)
            v = value[e] = event_mu(e) if e.kind == "gaussian" else (event_epsilon(e), float(e.delta))
        values.append(v)
    relations = tuple(sorted({e.relation for e in value}))
    n = len(events)

    gaussian_mus = [v for e, v in zip(events, values) if e.kind == "gaussian" and v > 0]
    pure = [v for e, v in zip(events, values) if e.kind != "gaussian"]
    delta_events_q = sum((_q(d) for _, d in pure if d != 0), Fraction(0))
    delta_c_q = _q(delta) - delta_events_q
    if delta_c_q <= 0:
        raise AccountingError(
            f"the approximate events already use delta = {float(delta_events_q):.6g} >= the target {delta}")
    delta_events = _up_q(delta_events_q)
    delta_c = -_up_q(-delta_c_q)          # rounded down
    if delta_c <= 0:
        raise AccountingError(f"the delta left after the approximate events ({float(delta_c_q):.3g}) "
                              "is not representable")
    pure_eps = [e for e, _ in pure if e > 0]
    pure_deltas = [d for e, d in pure]

    if not gaussian_mus and not pure_eps:
        return Certificate(0.0, delta, "empty ledger" if n == 0 else "zero sensitivity", (),
                           n, delta_events, relations)

    candidates: list[tuple[str, float]] = []
    # basic (with the Gaussians as one exact GDP block)
    if pure_eps:
        block = [gaussian_epsilon(delta_c, gdp_compose(gaussian_mus))] if gaussian_mus else []
        candidates.append(("basic" if not gaussian_mus else "basic + GDP block", _sum_up(pure_eps + block)))

    homogeneous = not gaussian_mus and len(set(pure_eps)) == 1
    if homogeneous:
        candidates.append(("advanced", advanced_composition(pure_eps[0], 0.0, len(pure_eps), delta_c)[0]))
    if pure_eps and not gaussian_mus:
        # KOV's exact optimum for k (eps0, delta0)-DP steps [KOV15, Thm 3.3]. On a heterogeneous ledger
        # it is applied at the largest epsilon: an eps_i-DP step is also max_i eps_i-DP, so it is an
        # upper bound there (the heterogeneous KOV bound), and it keeps certify monotone across the
        # homogeneous / heterogeneous boundary (one event made noisier never loses this candidate).
        e0, k = max(pure_eps), len(pure_eps)
        name = "optimal (KOV)" if homogeneous else "optimal (KOV) at the largest epsilon"
        common_delta = {d for e, d in pure if e > 0}
        if len(common_delta) == 1 and len(pure_eps) == len(pure):
            d0 = common_delta.pop()
            candidates.append((name, optimal_homogeneous_composition(e0, d0, k, delta)))
        else:
            candidates.append((name, optimal_homogeneous_composition(e0, 0.0, k, delta_c)))

    if pure_eps and not gaussian_mus:
        candidates.append(("heterogeneous (KOV Thm 3.5)", heterogeneous_composition(pure_eps, delta_c)[0]))

    # bounded-range events (exponential mechanism, Gumbel report-noisy-max): the adaptive concentration
    # bound of [DDR20, Sec. 7], the other pure events in the same martingale (bounded_range.py)
    kinds = ["br" if is_bounded_range(e) else e.kind for e in events if e.kind != "gaussian"]
    if not gaussian_mus and "br" in kinds:
        br_eps = [e for k, (e, _) in zip(kinds, pure) if k == "br" and e > 0]
        other_eps = [e for k, (e, _) in zip(kinds, pure) if k != "br" and e > 0]
        candidates.append(("BR concentration (DDR20)",
                           _br.bounded_range_composition(br_eps, other_eps, delta_c)))

    rho_of = {e: zcdp_of_pure(e) for e in set(pure_eps)}
    rho_of_mu = {m: zcdp_of_gaussian(m, 1.0) for m in set(gaussian_mus)}
    rho_total = zcdp_compose([rho_of[e] for e in pure_eps] + [rho_of_mu[m] for m in gaussian_mus])
    candidates.append(("zCDP (standard)", zcdp_to_dp(rho_total, delta_c, "standard")))
    candidates.append(("zCDP (tight)", zcdp_to_dp(rho_total, delta_c, "tight")))

    if gaussian_mus and not pure_eps and not any(d > 0 for d in pure_deltas):
        candidates.append(("GDP (exact)", gaussian_epsilon(delta, gdp_compose(gaussian_mus))))

    # PLD: every event by its dominating pair, composed exactly up to a pessimistic discretisation
    # (reference/privacy/pld.py). Left out where KOV is already the exact optimum (homogeneous
    # eps-DP steps that are not Laplace: their worst case is randomized response).
    items = _pld_items(kinds, pure, gaussian_mus)
    if pure_eps and not (homogeneous and all(it[0] == "rr" for it in items)):
        guess = min(e for _, e in candidates)
        candidates.append(("PLD (connect-the-dots)", _pld.epsilon_for_items(items, delta, guess=guess)))

    method, eps = min(candidates, key=lambda c: c[1])
    return Certificate(eps, delta, method, tuple(candidates), n, delta_events, relations)


# ---------------------------------------------------------------------------
# Calibration: the smallest noise that the accountant certifies (the "certified" calibrations).

def calibrate_noise_scale(ledger_for, epsilon, delta, *, guess: float, rel_tol: float = 1e-7) -> float:
    """The smallest noise scale s, to a relative ``rel_tol``, with certify(ledger_for(s), delta) <= epsilon.

    ``ledger_for(s)`` is the ledger a run with noise scale s records. Certification is monotone in
    s (every event kind's guarantee improves with more noise), so the boundary is found by
    bracketing and bisection; the returned s is a certified end of the final bracket, so it is
    never in the user's favour. ``guess`` starts the search: when it brackets the boundary within
    ``rel_tol`` (an exact formula gave it) two calls to :func:`certify` settle it.
    """
    epsilon, delta = check_epsilon(epsilon), check_delta(delta)
    guess = check_positive(guess, "guess")
    rel_tol = check_positive(rel_tol, "rel_tol")

    def ok(scale: float) -> bool:
        return certify(ledger_for(scale), delta).epsilon <= epsilon

    hi, lo = guess * (1 + rel_tol), guess * (1 - rel_tol)
    if not (ok(hi) and not ok(lo)):           # the guess does not bracket: grow a bracket around it
        hi = guess
        while not ok(hi):
            hi *= 2.0
            if hi > 1e300:
                raise AccountingError(f"no noise scale certifies epsilon = {epsilon} at delta = {delta}")
        lo = hi / 2.0
        while ok(lo):
            hi, lo = lo, lo / 2.0
            if lo < 1e-300:
                return hi
    while hi - lo > rel_tol * hi:
        mid = 0.5 * (lo + hi)
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi


@lru_cache(maxsize=1024)
def certified_gaussian_sigma(sensitivity, steps, epsilon, delta, *, rel_tol: float = 1e-7,
                             relation: str = "replace-one") -> float:
    """The smallest sigma (to ``rel_tol``) for which ``steps`` Gaussian events of this l2 sensitivity
    are certified (epsilon, delta)-DP by :func:`certify`. The analytic calibration of their GDP
    composition [BW18; DRS22] gives the starting guess (and, certify being exact for Gaussians,
    usually the answer)."""
    sensitivity = check_positive(sensitivity, "sensitivity")
    steps = check_int(steps, "steps", 1)
    epsilon, delta = check_epsilon(epsilon), check_delta(delta)

    def ledger_for(sigma: float) -> FrozenLedger:
        event = MechanismEvent("gaussian", sensitivity, "l2", relation, noise_scale=sigma, label="calibration probe")
        return FrozenLedger((event,) * steps)

    guess = analytic_gaussian_sigma(epsilon, delta, sensitivity * math.sqrt(steps))
    return calibrate_noise_scale(ledger_for, epsilon, delta, guess=guess, rel_tol=rel_tol)
