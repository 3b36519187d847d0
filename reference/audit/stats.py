"""Distinguishability statistics: Clopper-Pearson bounds and lower bounds on epsilon and mu.

The argument (Kairouz-Oh-Viswanath hypothesis-testing view of DP): if a mechanism
M is (epsilon, delta)-DP then for every event E and every neighbouring pair,
P(M(D') in E) <= e^epsilon P(M(D) in E) + delta, so

    epsilon >= ln((P(M(D') in E) - delta) / P(M(D) in E)).

Replacing the unknown probabilities by a Clopper-Pearson lower bound on the
numerator rate and an upper bound on the denominator rate, each at level b/2,
gives a lower bound on epsilon that holds with probability >= 1 - b. If M is
mu-GDP (Dong-Roth-Su), every test has power <= Phi(Phi^{-1}(size) + mu), so

    mu >= Phi^{-1}(P(M(D') in E)) - Phi^{-1}(P(M(D) in E)),

and the same bounds on the two rates give a lower bound on mu.

The event E is {S > t} or {S <= t} for a scalar statistic S of the output; its
threshold is chosen by a declared rule (:mod:`reference.audit.cases`): a fixed
Bonferroni-corrected grid, or a held-out split.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special

from .._validate import check_probability
from ..claims import Claim
from ..errors import AuditError, ParameterError
from .cases import Bonferroni, HeldOut


def _check_counts(k, n) -> tuple[np.ndarray, np.ndarray]:
    k = np.asarray(k)
    n = np.asarray(n)
    if not (np.issubdtype(k.dtype, np.integer) and np.issubdtype(n.dtype, np.integer)):
        if not (np.all(k == np.floor(k)) and np.all(n == np.floor(n))):
            raise ParameterError("k, n", "integer counts", (k, n))
    if np.any(n < 1):
        raise ParameterError("n", "n >= 1 trials", n)
    if np.any(k < 0) or np.any(k > n):
        raise ParameterError("k", "0 <= k <= n", k)
    return k.astype(float), n.astype(float)


def clopper_pearson_lower(k, n, alpha: float):
    """One-sided lower confidence bound on a binomial rate at level ``alpha``.

    The largest p with P(Bin(n, p) >= k) <= alpha, i.e. the alpha quantile of
    Beta(k, n - k + 1); 0 when k = 0. Vectorised over k and n.
    """
    check_probability(alpha, "alpha")
    k, n = _check_counts(k, n)
    with np.errstate(invalid="ignore"):
        out = special.betaincinv(k, n - k + 1, alpha)
    out = np.where(k == 0, 0.0, out)
    return float(out) if out.ndim == 0 else out


def clopper_pearson_upper(k, n, alpha: float):
    """One-sided upper confidence bound on a binomial rate at level ``alpha``.

    The 1 - alpha quantile of Beta(k + 1, n - k); 1 when k = n.
    """
    check_probability(alpha, "alpha")
    k, n = _check_counts(k, n)
    with np.errstate(invalid="ignore"):
        out = special.betaincinv(k + 1, n - k, 1 - alpha)
    out = np.where(k == n, 1.0, out)
    return float(out) if out.ndim == 0 else out


def epsilon_lower_bound(k_num, n_num, k_den, n_den, delta: float, alpha: float):
    """ln((CP_lo(k_num/n_num) - delta) / CP_hi(k_den/n_den)), each bound at level alpha/2, floored at 0.

    Valid at confidence 1 - alpha for an (epsilon, delta)-DP mechanism.
    """
    lo = np.asarray(clopper_pearson_lower(k_num, n_num, alpha / 2)) - delta
    hi = np.asarray(clopper_pearson_upper(k_den, n_den, alpha / 2))
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(lo > 0, np.log(np.maximum(lo, 1e-300) / hi), 0.0)
    out = np.maximum(out, 0.0)
    return float(out) if out.ndim == 0 else out


def mu_lower_bound(k_num, n_num, k_den, n_den, alpha: float):
    """Phi^{-1}(CP_lo(num)) - Phi^{-1}(CP_hi(den)), each at level alpha/2, floored at 0.

    Valid at confidence 1 - alpha for a mu-GDP mechanism.
    """
    lo = np.asarray(clopper_pearson_lower(k_num, n_num, alpha / 2))
    hi = np.asarray(clopper_pearson_upper(k_den, n_den, alpha / 2))
    with np.errstate(divide="ignore", invalid="ignore"):
        out = special.ndtri(lo) - special.ndtri(hi)
    out = np.where(np.isfinite(out), out, 0.0)
    out = np.maximum(out, 0.0)
    return float(out) if out.ndim == 0 else out


def gaussian_epsilon(delta: float, mu: float) -> float:
    """epsilon(delta) of mu-GDP: the root of Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) = delta.

    Used only to turn a lower bound on mu into the (epsilon, delta) curve it
    implies; the package's accountant has its own (independent) version.
    """
    if mu <= 0:
        return 0.0

    def d(eps: float) -> float:
        return float(special.ndtr(-eps / mu + mu / 2) - math.exp(eps) * special.ndtr(-eps / mu - mu / 2))

    if d(0.0) <= delta:
        return 0.0
    lo, hi = 0.0, 1.0
    while d(hi) > delta:
        hi *= 2
        if hi > 1e6:
            return math.inf
    for _ in range(200):
        mid = (lo + hi) / 2
        if d(mid) > delta:
            lo = mid
        else:
            hi = mid
    return hi


# ---------------------------------------------------------------------------
# Threshold tests on two samples of a scalar statistic.

@dataclass(frozen=True)
class TestResult:
    """The chosen (or best Bonferroni) test and what it certifies."""

    epsilon_lower_bound: float
    threshold: float
    event: str
    order: str
    k_num: int
    n_num: int
    k_den: int
    n_den: int
    level: float           # the level alpha each reported bound was computed at
    rule: str
    mu_lower_bound: float | None = None


def _event_counts(sorted_x: np.ndarray, thresholds: np.ndarray, event: str) -> np.ndarray:
    above = sorted_x.size - np.searchsorted(sorted_x, thresholds, side="right")   # #{x > t}
    return above if event == "upper" else sorted_x.size - above


def _all_tests(x_d: np.ndarray, x_dp: np.ndarray, thresholds: np.ndarray, events, orders):
    """Yield (t, event, order, k_num, n_num, k_den, n_den) for each combination, vectorised over t."""
    sd, sdp = np.sort(x_d), np.sort(x_dp)
    for event in events:
        cd = _event_counts(sd, thresholds, event)
        cdp = _event_counts(sdp, thresholds, event)
        for order in orders:
            if order == "forward":    # P_{D'}(E) against P_D(E)
                yield event, order, cdp, sdp.size, cd, sd.size
            else:
                yield event, order, cd, sd.size, cdp, sdp.size


def _best(x_d, x_dp, thresholds, events, orders, delta, alpha, criterion):
    best = None
    for event, order, kn, nn, kd, nd in _all_tests(x_d, x_dp, thresholds, events, orders):
        if criterion == "epsilon":
            values = epsilon_lower_bound(kn, nn, kd, nd, delta, alpha)
        else:
            values = mu_lower_bound(kn, nn, kd, nd, alpha)
        values = np.atleast_1d(values)
        i = int(np.argmax(values))
        if best is None or values[i] > best[0]:
            best = (float(values[i]), float(thresholds[i]), event, order, int(np.atleast_1d(kn)[i]), nn,
                    int(np.atleast_1d(kd)[i]), nd)
    return best


def _check_sample(x, name: str) -> np.ndarray:
    x = np.asarray(x, dtype=float).ravel()
    if x.size < 1:
        raise AuditError(f"{name}: no samples (N must be >= 1)")
    if not np.all(np.isfinite(x)):
        raise AuditError(f"{name}: the statistic returned NaN or infinity; a lower bound cannot be sound")
    return x


def distinguish(x_d, x_dp, *, delta: float, beta: float, rule, criterion: str = "epsilon") -> TestResult:
    """Lower bound (epsilon, or mu when ``criterion='mu'``) at confidence 1 - beta from two samples.

    x_d: the statistic on draws from M(D); x_dp: on draws from M(D').
    rule: :class:`Bonferroni` (every declared test at level beta/m, the largest
    bound reported) or :class:`HeldOut` (test chosen on the first ``fraction``
    of each sample, evaluated once on the rest at level beta).
    """
    check_probability(beta, "beta")
    if not 0 <= delta < 1:
        raise ParameterError("delta", "0 <= delta < 1", delta)
    if criterion not in ("epsilon", "mu"):
        raise ParameterError("criterion", "'epsilon' or 'mu'", criterion)
    x_d = _check_sample(x_d, "statistic on D")
    x_dp = _check_sample(x_dp, "statistic on D'")

    if isinstance(rule, Bonferroni):
        tests = rule.tests()
        level = beta / len(tests)
        thresholds = np.array(sorted(set(rule.thresholds)), dtype=float)
        best = _best(x_d, x_dp, thresholds, rule.events, rule.orders, delta, level, criterion)
        value, t, event, order, kn, nn, kd, nd = best
        name = f"Bonferroni over {len(tests)} declared tests"
    elif isinstance(rule, HeldOut):
        h_d = max(1, math.ceil(rule.fraction * x_d.size))
        h_dp = max(1, math.ceil(rule.fraction * x_dp.size))
        if h_d >= x_d.size or h_dp >= x_dp.size:
            raise AuditError("HeldOut rule needs at least 2 samples per side (one to choose, one to evaluate)")
        pooled = np.concatenate([x_d[:h_d], x_dp[:h_dp]])
        qs = np.unique(np.quantile(pooled, np.linspace(0, 1, rule.candidates + 2)[1:-1]))
        _, t, event, order, *_ = _best(x_d[:h_d], x_dp[:h_dp], qs, ("upper", "lower"),
                                       ("forward", "backward"), delta, beta, criterion)
        rest_d, rest_dp = x_d[h_d:], x_dp[h_dp:]
        (event, order, kn, nn, kd, nd), = [
            (e, o, int(np.atleast_1d(a)[0]), b, int(np.atleast_1d(c)[0]), d)
            for e, o, a, b, c, d in _all_tests(rest_d, rest_dp, np.array([t]), (event,), (order,))]
        level = beta
        if criterion == "epsilon":
            value = epsilon_lower_bound(kn, nn, kd, nd, delta, level)
        else:
            value = mu_lower_bound(kn, nn, kd, nd, level)
        name = f"held-out split ({rule.fraction:g} chooses among {qs.size} thresholds)"
    else:
        raise ParameterError("rule", "a Bonferroni or HeldOut rule", rule)

    eps = float(value) if criterion == "epsilon" else float(epsilon_lower_bound(kn, nn, kd, nd, delta, level))
    mu = float(value) if criterion == "mu" else None
    return TestResult(eps, float(t), event, order, int(kn), int(nn), int(kd), int(nd), level, name, mu)


CLAIMS = (
    Claim("core:Clopper-Pearson bounds", "constant",
          "clopper_pearson_lower/upper are the exact one-sided Clopper-Pearson bounds: at the bound the binomial "
          "tail equals alpha (checked with mpmath at 50 digits and against scipy.stats.beta quantiles).",
          "Clopper-Pearson 1934"),
    Claim("core:Clopper-Pearson audit soundness", "invariant",
          "On exactly calibrated mechanisms the distinguishability lower bound exceeds the true epsilon (or mu) "
          "with probability at most beta, and on the negative controls (half the noise) it flags the violation "
          "with probability at least 0.9, for every threshold rule (Bonferroni grid, held-out split).",
          "Kairouz-Oh-Viswanath 2015 (testing view of DP); Dong-Roth-Su 2022 (GDP trade-off); Jagielski et al. 2020"),
    Claim("core:Audit input validation", "invariant",
          "The auditor rejects N < 1, beta outside (0, 1), statistics or samplers returning NaN, and samplers whose "
          "output type changes between calls, with an AuditError or ParameterError, and writes no report.",
          "docs/architecture.md (conventions: preconditions); docs/audit.md (assumptions)"),
)
