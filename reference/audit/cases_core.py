"""Audit cases of the building blocks (the ``core`` claims): each mechanism against its claim.

Worst-case neighbours, per mechanism (why each pair maximises the privacy loss):

* Laplace (Dwork-Roth Thm 3.6): the output is the query plus noise, so only the
  shift matters; a pair whose queries differ by the full l1 sensitivity Delta
  (here 0 and Delta) attains the privacy loss Delta/b on every output beyond
  Delta (the ratio of the densities is exactly e^{Delta/b} there).
* Gaussian (Balle-Wang 2018; Dong-Roth-Su): the same shift argument in l2; the
  pair 0 and Delta is a worst case, and the likelihood-ratio test is a threshold
  on the output, so a scalar statistic loses nothing.
* Exponential mechanism over 2p candidates (McSherry-Talwar): the loss of
  candidate 0 is eps/(2 Delta) (u'_0 - u_0) + ln(Z/Z'); it is largest when
  candidate 0 gains Delta and every other candidate loses Delta, and it tends to
  eps as the mass of candidate 0 vanishes (many candidates, here 2p = 2000).
* Report-noisy-max with Laplace noise over 2 candidates: the two scores move
  apart (the low candidate gains Delta, the high one loses Delta) and the gap
  is large: u = (-40 Delta, 0), u' = (-39 Delta, -Delta). The loss of the low
  candidate is 2 Delta/b + ln((1 + (g - 2 Delta)/(2b)) / (1 + g/(2b))) for a gap
  g, increasing to the claim 2 Delta/b as g grows (the pair u = (0, 0) gives only
  0.59 of it). The search of reference.audit.search over small score lattices
  (2 and 3 candidates) finds this family as its maximiser and nothing above the claim.
* Report-noisy-max with Gumbel noise: the exponential mechanism with P ∝ e^{u/b},
  so the exponential mechanism's worst case (one candidate up, the others down).
* Binary-tree aggregation (Chan-Shi-Song): item 1 lies in floor(log2 T)+1
  populated nodes, the most of any item; with T a power of two, the prefix sums
  at t = 1, 2, 4, ..., T are exactly those nodes, so the sum of these prefix
  sums is the likelihood-ratio statistic of the whole released stream (every other
  prefix sum adds only nodes independent of item 1): a white-box row, whose exact
  epsilon is the GDP curve's at mu = sqrt(levels) Delta / sigma.

Every case has a negative control: half the noise, or the factor 2 lost when a
monotone calibration is used on non-monotone scores, or the tree's sqrt(levels)
forgotten.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ..claims import Claim
from .cases import Bonferroni, ExactCase, PrivacyCase, RateCase, per_output, repeat

DELTA = 1e-5            # the delta of the approximate-DP claims below

CLAIMS = (
    Claim("core:Laplace mechanism privacy", "privacy",
          "The Laplace mechanism with scale b on a query of l1 sensitivity Delta is (Delta/b)-DP; the audit "
          "finds no violation at Delta/b = 1 and flags the same mechanism with half the noise.",
          "Dwork-Roth 2014, Theorem 3.6"),
    Claim("core:Gaussian mechanism privacy", "privacy",
          "The Gaussian mechanism with sigma = analytic_gaussian_sigma(1, 1e-5, Delta) is (1, 1e-5)-DP and "
          "(Delta/sigma)-GDP; the audit finds no violation and flags the same mechanism with half the noise.",
          "Balle-Wang 2018, Theorem 8; Dong-Roth-Su 2022, Theorem 2.7"),
    Claim("core:Gumbel report-noisy-max privacy", "privacy",
          "Report-noisy-max with Gumbel(b) noise on scores of sensitivity Delta is (2 Delta/b)-DP; the audit "
          "finds no violation and flags the monotone calibration b = Delta/eps used on non-monotone scores.",
          "McKenna-Sheldon 2020, Sec. 2 (Gumbel-max trick); Dwork-Roth 2014, Theorem 3.10"),
    Claim("core:Gaussian mean release rate", "utility",
          "The Gaussian mechanism releasing the mean of n records (sensitivity 1/n) at noise sigma/n has "
          "E|error| = sqrt(2/pi) sigma / n: the audit's rate fit has slope -1, its interval excludes the "
          "nearest wrong exponent -1/2, and the same fit refuses a release whose noise decays like n^-1/2.",
          "Dwork-Roth 2014, Sec. 3.5 (noise of the Gaussian mechanism); the audit harness's rate row"),
    Claim("core:Tree aggregation privacy", "privacy",
          "Binary-tree prefix sums over T items with Gaussian node noise sigma are (sqrt(floor(log2 T)+1) "
          "Delta/sigma)-GDP; calibrated to (1, 1e-5) the audit finds no violation and flags sigma calibrated "
          "without the sqrt(levels) factor.",
          "Chan-Shi-Song 2011, Sec. 3; Dwork-Naor-Pitassi-Rothblum 2010"),
)


# ---------------------------------------------------------------------------
# Certified epsilon (from the accountant, by running the mechanism once with a ledger)

def _certify_one_call(call, delta: float) -> float | None:
    """Run ``call(ledger)`` once and certify the ledger: event_epsilon for pure, certify() otherwise."""
    try:
        from ..privacy import accounting
        from ..privacy.ledger import Ledger
    except ImportError:
        return None
    ledger = Ledger()
    call(ledger)
    if delta == 0:
        return float(sum(accounting.event_epsilon(e) for e in ledger))
    return float(accounting.certify(ledger, delta).epsilon)


# ---------------------------------------------------------------------------
# Samplers (module level, so worker processes can unpickle them)

def laplace_sampler(value, rng, n, *, sensitivity, scale):
    from ..privacy.mechanisms import laplace_mechanism

    return laplace_mechanism(value, sensitivity, scale, rng, n_draws=n)


def gaussian_sampler(value, rng, n, *, sensitivity, sigma):
    from ..privacy.mechanisms import gaussian_mechanism

    return gaussian_mechanism(value, sensitivity, sigma, rng, n_draws=n)


def noisy_max_sampler(scores, rng, n, *, sensitivity, scale, noise):
    from ..privacy.mechanisms import report_noisy_max

    return report_noisy_max(np.asarray(scores), sensitivity, scale, rng, noise=noise, n_draws=n)


def is_index(outputs, *, index):
    """Statistic: 1.0 where the selected candidate is ``index`` (the one whose score gained)."""
    return (np.asarray(outputs) == index).astype(float)


def tree_one_run(stream, rng, *, sigma, sensitivity):
    from ..privacy.tree import private_prefix_sums

    return private_prefix_sums(np.asarray(stream, dtype=float), sigma, rng, sensitivity=sensitivity).prefix_sums


def tree_vectorised(stream, rng, n, *, sigma, sensitivity):
    """n independent runs of the binary tree at once (the audit's sampler).

    The same law as ``repeat(tree_one_run)``, and with the same generator the very same numbers:
    the nodes are populated in the line-by-line tree's order (bottom-up at each insert), the n
    runs' node noises are drawn as one (n, nodes) array (row i holds run i's draws in that order),
    and every prefix sum adds its nodes in the tree's order. tests/audit/test_core_cases.py checks
    the outputs against :func:`reference.privacy.tree.private_prefix_sums` bit for bit.
    ``sensitivity`` is accepted for the sampler's signature (the stream already carries the change).
    """
    from ..privacy.tree import prefix_nodes

    xs = np.asarray(stream, dtype=float)
    T, shape = xs.shape[0], xs.shape[1:]
    exact, order = {}, []
    for t in range(1, T + 1):                      # Line: the nodes completed by x_t, bottom-up
        h = 0
        while t % (1 << h) == 0:
            j = t // (1 << h) - 1
            exact[(h, j)] = xs[t - 1] if h == 0 else exact[(h - 1, 2 * j)] + exact[(h - 1, 2 * j + 1)]
            order.append((h, j))
            h += 1
    z = rng.standard_normal((n, len(order)) + shape)
    noisy = {node: exact[node] + sigma * z[:, i] for i, node in enumerate(order)}
    out = np.empty((n,) + xs.shape)
    for t in range(1, T + 1):
        total = np.zeros((n,) + shape)
        for node in prefix_nodes(t):
            total = total + noisy[node]
        out[:, t - 1] = total
    return out


def tree_statistic_batch(prefix_sums):
    """:func:`tree_statistic` of every run in an (n, T) batch, summed in the same order."""
    ps = np.asarray(prefix_sums, dtype=float)
    total = 0
    for k in range(int(math.log2(ps.shape[1])) + 1):
        total = total + ps[:, (1 << k) - 1]
    return np.asarray(total, dtype=float)


def tree_statistic(prefix_sums):
    """Sum of the prefix sums at t = 1, 2, 4, ..., T (the nodes holding item 1, for T a power of two)."""
    T = len(prefix_sums)
    return float(sum(prefix_sums[(1 << k) - 1] for k in range(int(math.log2(T)) + 1)))


def exponential_pair(p: int, sensitivity: float, epsilon: float, *, declared_sensitivity: float | None = None,
                     monotone: bool = False):
    """Exact output laws of the exponential mechanism on the worst-case pair over 2p candidates.

    u = 0; u' = -Delta everywhere except candidate 0, which gains +Delta. The
    mechanism is the package's (its float64 log-probabilities, read exactly);
    ``declared_sensitivity`` is what the mechanism is told (the negative
    control tells it half the truth).
    """
    from ..privacy.mechanisms import exponential_mechanism_probabilities

    told = sensitivity if declared_sensitivity is None else declared_sensitivity
    u = np.zeros(2 * p)
    u2 = np.full(2 * p, -sensitivity)
    u2[0] = sensitivity
    P = exponential_mechanism_probabilities(u, told, epsilon, monotone=monotone)
    Q = exponential_mechanism_probabilities(u2, told, epsilon, monotone=monotone)
    return list(P / P.sum()), list(Q / Q.sum())


def laplace_noisy_max_pair(sensitivity: float, scale: float, gap: float = 40.0):
    """Exact output laws of Laplace report-noisy-max on (-gap Delta, 0) vs (-(gap-1) Delta, -Delta) (quadrature)."""
    from .exact import noisy_max_exact

    low = -gap * sensitivity
    return (noisy_max_exact([low, 0.0], scale, noise="laplace"),
            noisy_max_exact([low + sensitivity, -sensitivity], scale, noise="laplace"))


# ---------------------------------------------------------------------------
# The cases

def _laplace_case() -> PrivacyCase:
    sens, scale = 1.0, 1.0
    from ..privacy.mechanisms import laplace_mechanism

    return PrivacyCase(
        claim="core:Laplace mechanism privacy",
        title="Laplace, Delta = 1, b = 1 (epsilon 1)",
        sampler=functools.partial(laplace_sampler, sensitivity=sens, scale=scale),
        dataset=0.0, neighbour=sens,
        claimed_epsilon=sens / scale,
        certify=functools.partial(_certify_one_call, functools.partial(
            _call_laplace, laplace_mechanism, sens, scale), 0.0),
        negative_control=functools.partial(laplace_sampler, sensitivity=sens, scale=scale / 2),
        negative_control_note="half the noise (true epsilon 2)",
        thresholds=Bonferroni(thresholds=(0.0, sens)),
        worst_case="queries 0 and Delta: the density ratio is e^{Delta/b} on every output beyond Delta",
        samples=1_000_000, quick_samples=200_000,
    )


def _call_laplace(mech, sens, scale, ledger):
    mech(0.0, sens, scale, np.random.default_rng(0), ledger=ledger)


def _call_gaussian(mech, sens, sigma, ledger):
    mech(0.0, sens, sigma, np.random.default_rng(0), ledger=ledger)


def _call_rnm(mech, sens, scale, noise, ledger):
    mech(np.zeros(2), sens, scale, np.random.default_rng(0), noise=noise, ledger=ledger)


def _call_exponential(mech, sens, eps, ledger):
    mech(np.zeros(2), sens, eps, np.random.default_rng(0), ledger=ledger)


def _call_tree(T, sigma, sens, ledger):
    from ..privacy.tree import BinaryTreeAggregator

    BinaryTreeAggregator(T, sigma, np.random.default_rng(0), sensitivity=sens, ledger=ledger)


def _gaussian_case() -> PrivacyCase:
    from ..privacy.accounting import analytic_gaussian_sigma
    from ..privacy.mechanisms import gaussian_mechanism

    sens = 1.0
    sigma = analytic_gaussian_sigma(1.0, DELTA, sens)
    return PrivacyCase(
        claim="core:Gaussian mechanism privacy",
        title="Gaussian calibrated exactly to (1, 1e-5), Delta = 1",
        sampler=functools.partial(gaussian_sampler, sensitivity=sens, sigma=sigma),
        dataset=0.0, neighbour=sens,
        claimed_epsilon=1.0, claimed_delta=DELTA,
        certify=functools.partial(_certify_one_call, functools.partial(
            _call_gaussian, gaussian_mechanism, sens, sigma), DELTA),
        gaussian_mu=sens / sigma,
        negative_control=functools.partial(gaussian_sampler, sensitivity=sens, sigma=sigma / 2),
        negative_control_note="half the noise (mu doubles)",
        # Direct (eps, delta) test: thresholds in the tail, where the loss is large; declared in advance.
        thresholds=Bonferroni(thresholds=(sens / 2 + 2 * sigma, sens / 2 + 3 * sigma),
                              events=("upper",), orders=("forward",)),
        # GDP test: the midpoint between the two means (the best single threshold for estimating mu).
        mu_thresholds=Bonferroni(thresholds=(sens / 2,), events=("upper",), orders=("forward",)),
        worst_case="outputs 0 and Delta shifted by N(0, sigma^2): the likelihood ratio is monotone in the output",
        samples=2_000_000, quick_samples=200_000,   # 2e6: the GDP estimate within ~2% of mu
    )


def _exponential_case(p: int = 1000) -> ExactCase:
    from ..privacy.mechanisms import exponential_mechanism

    sens, eps = 1.0, 1.0
    return ExactCase(
        claim="core:Exponential mechanism privacy",
        title=f"exponential mechanism over 2p = {2 * p} vertices, epsilon 1 (exact)",
        distributions=functools.partial(exponential_pair, p, sens, eps),
        claimed_epsilon=eps,
        certify=functools.partial(_certify_one_call, functools.partial(
            _call_exponential, exponential_mechanism, sens, eps), 0.0),
        negative_control=functools.partial(exponential_pair, p, sens, eps, declared_sensitivity=sens / 2),
        negative_control_note="sensitivity declared as Delta/2 (the factor 2 of replace-one lost)",
        worst_case="candidate 0 gains Delta, all 2p - 1 others lose Delta",
    )


def _laplace_noisy_max_case() -> ExactCase:
    from ..privacy.mechanisms import report_noisy_max

    sens, eps = 1.0, 1.0
    scale = 2 * sens / eps
    return ExactCase(
        claim="core:Laplace report-noisy-max privacy",
        title="Laplace report-noisy-max, 2 candidates, b = 2 Delta / eps (exact quadrature)",
        distributions=functools.partial(laplace_noisy_max_pair, sens, scale),
        claimed_epsilon=eps,
        certify=functools.partial(_certify_one_call, functools.partial(
            _call_rnm, report_noisy_max, sens, scale, "laplace"), 0.0),
        negative_control=functools.partial(laplace_noisy_max_pair, sens, sens / eps),
        negative_control_note="monotone calibration b = Delta/eps on non-monotone scores",
        worst_case="scores (-40 Delta, 0) -> (-39 Delta, -Delta): the low candidate gains, the high one loses",
    )


def _gumbel_noisy_max_case() -> PrivacyCase:
    from ..privacy.mechanisms import report_noisy_max

    sens, eps, m = 1.0, 1.0, 20
    scale = 2 * sens / eps
    scores = np.zeros(m)
    neighbour = np.full(m, -sens)
    neighbour[0] = sens
    return PrivacyCase(
        claim="core:Gumbel report-noisy-max privacy",
        title=f"Gumbel report-noisy-max, {m} candidates, b = 2 Delta / eps (sampled)",
        sampler=functools.partial(noisy_max_sampler, sensitivity=sens, scale=scale, noise="gumbel"),
        statistic=functools.partial(is_index, index=0),
        dataset=scores, neighbour=neighbour,
        claimed_epsilon=eps,
        certify=functools.partial(_certify_one_call, functools.partial(
            _call_rnm, report_noisy_max, sens, scale, "gumbel"), 0.0),
        negative_control=functools.partial(noisy_max_sampler, sensitivity=sens, scale=sens / eps, noise="gumbel"),
        negative_control_note="monotone calibration b = Delta/eps on non-monotone scores (true epsilon ~2)",
        thresholds=Bonferroni(thresholds=(0.5,), events=("upper",), orders=("forward",)),
        worst_case="candidate 0 gains Delta, the others lose Delta; the event 'candidate 0 selected'",
        samples=1_000_000, quick_samples=200_000,
    )


def _tree_case() -> PrivacyCase:
    from ..privacy.accounting import analytic_gaussian_sigma

    T, sens = 8, 1.0
    levels = int(math.floor(math.log2(T))) + 1
    sigma = analytic_gaussian_sigma(1.0, DELTA, math.sqrt(levels) * sens)
    sigma_bad = analytic_gaussian_sigma(1.0, DELTA, sens)
    stream = np.zeros(T)
    neighbour = stream.copy()
    neighbour[0] = sens
    return PrivacyCase(
        claim="core:Tree aggregation privacy",
        title=f"binary-tree prefix sums, T = {T}, calibrated to (1, 1e-5) (vectorised tree, tied to the line-by-line one)",
        sampler=functools.partial(tree_vectorised, sigma=sigma, sensitivity=sens),
        statistic=tree_statistic_batch,
        dataset=stream, neighbour=neighbour,
        claimed_epsilon=1.0, claimed_delta=DELTA,
        certify=functools.partial(_certify_one_call, functools.partial(_call_tree, T, sigma, sens), DELTA),
        gaussian_mu=math.sqrt(levels) * sens / sigma,
        negative_control=functools.partial(tree_vectorised, sigma=sigma_bad, sensitivity=sens),
        negative_control_note=f"sigma calibrated for sensitivity Delta, forgetting sqrt({levels}) nodes per item",
        thresholds=Bonferroni(thresholds=tuple(levels * sens / 2 + k * math.sqrt(levels) * sigma for k in (2, 3)),
                              events=("upper",), orders=("forward",)),
        mu_thresholds=Bonferroni(thresholds=(levels * sens / 2,), events=("upper",), orders=("forward",)),
        worst_case="streams differing in item 1, which lies in floor(log2 T)+1 nodes; the statistic sums "
                   "the prefix sums at t = 1, 2, 4, 8, exactly those nodes",
        samples=1_000_000, quick_samples=200_000, chunk=250_000,   # vectorised: 1e6 per side in ~10 s
        audit="white-box", exact=functools.partial(tree_exact_epsilon, T, sigma, sens),
        tightness_target=0.9,
    )


def tree_exact_epsilon(T: int, sigma: float, sensitivity: float) -> float:
    """Exact epsilon at 1e-5 of the whole released stream at the pair: item 1 shifts its floor(log2 T)+1 nodes by
    Delta each and every prefix sum is a sum of nodes, so the transcript is a Gaussian shift with
    mu = sqrt(levels) Delta / sigma (reference/audit/whitebox.py, the GDP curve by scipy)."""
    from .whitebox import gaussian_mu, gdp_epsilon

    levels = int(math.floor(math.log2(T))) + 1
    return gdp_epsilon(gaussian_mu([sensitivity] * levels, sigma), DELTA)


def gaussian_mean_error(n, rng, *, exponent=1.0, sigma=1.0, draws=50):
    """Rate trial: the mean absolute error of the Gaussian mechanism releasing the mean of n records of
    sensitivity 1/n at noise sigma / n**exponent (exponent 1: the calibration sigma * Delta of the mean,
    so E|error| = sqrt(2/pi) sigma / n); averaged over ``draws`` releases."""
    from ..privacy.mechanisms import gaussian_mechanism

    noise_scale = sigma / float(n) ** exponent
    out = gaussian_mechanism(0.0, 1.0 / n, noise_scale, rng, n_draws=draws)
    return float(np.mean(np.abs(out)))


def _rate_case() -> RateCase:
    return RateCase(
        claim="core:Gaussian mean release rate",
        title="Gaussian mechanism on the mean of n records: |error| against n",
        trial=functools.partial(gaussian_mean_error, exponent=1.0),
        grid=(100.0, 400.0, 1600.0, 6400.0), quick_grid=(100.0, 400.0, 1600.0, 6400.0),
        claimed_slope=-1.0, repeats=20, quick_repeats=10, relation="equal",
        nearest_wrong_slope=-0.5,
        negative_control=functools.partial(gaussian_mean_error, exponent=0.5),
        negative_control_note="noise calibrated to the sum's sensitivity over sqrt(n) (error ~ n^-1/2)",
    )


def audit_cases() -> list:
    return [
        _laplace_case(),
        _gaussian_case(),
        _exponential_case(),
        _laplace_noisy_max_case(),
        _gumbel_noisy_max_case(),
        _tree_case(),
        _rate_case(),
    ]
