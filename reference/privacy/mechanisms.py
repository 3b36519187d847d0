"""The noise-adding and selection mechanisms every paper builds on.

Each mechanism takes the quantity it privatises, the sensitivity of that quantity
(in the norm the mechanism needs, under the stated neighbouring ``relation``), its
noise scale (or, for the exponential mechanism, its epsilon), and an explicit
``rng: numpy.random.Generator``. It draws only from that generator, and when a
``ledger`` is passed it records exactly one :class:`~reference.privacy.ledger.MechanismEvent`
saying what the accountant needs to certify the call. Calibration (turning a
target epsilon into a noise scale) is the caller's business.

How each mechanism consumes the generator (so that another implementation can
replay the draws bit for bit):

==========================  =====================================================
gaussian_mechanism          ``value + sigma * rng.standard_normal(shape)``
laplace_mechanism           ``value + rng.laplace(0.0, scale, shape)``
exponential_mechanism       one ``rng.random()`` per output, inverse CDF over the
                            candidates in index order
report_noisy_max / _min     one noise draw per candidate (``rng.laplace(0, b)`` or
                            ``rng.gumbel(0, b)``), then argmax (first index on ties)
truncated_geometric         one ``rng.random()`` per output, inverse CDF on 0..M
==========================  =====================================================

Batch mode (``n_draws=k``) is for the audit harness only: ``k`` independent outputs
on the same input, stacked on axis 0, computed vectorised; the ledger must then be
``None`` (an audit measures a mechanism, it does not run an algorithm).

Sources: Dwork and Roth, *The Algorithmic Foundations of Differential Privacy*
(2014): Laplace mechanism Thm 3.6, report noisy max Claim 3.9, exponential
mechanism Thm 3.10, Gaussian mechanism Thm A.1 / Thm 3.22; McSherry and Talwar
(FOCS 2007) for the exponential mechanism and its monotone form; McKenna and
Sheldon, "Permute-and-Flip" (NeurIPS 2020), for the equivalence of report noisy
max with Gumbel noise and the exponential mechanism (the Gumbel-max trick) and the
``2*Delta/b`` privacy of Laplace report noisy max on general scores.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import logsumexp

from .._validate import check_array, check_int, check_nonnegative, check_positive, check_rng
from ..claims import Algorithm, Claim
from ..errors import ParameterError
from .ledger import RELATIONS, Ledger, MechanismEvent

__all__ = [
    "gaussian_mechanism",
    "laplace_mechanism",
    "exponential_mechanism",
    "exponential_mechanism_log_probabilities",
    "exponential_mechanism_probabilities",
    "report_noisy_max",
    "report_noisy_min",
    "truncated_geometric",
    "truncated_geometric_pmf",
]

# Largest block of noise drawn at once in batch mode (entries), to bound memory.
_BLOCK = 1 << 22


# ---------------------------------------------------------------------------
# Shared checks

def _check_common(rng, ledger, relation, label, n_draws):
    check_rng(rng)
    if ledger is not None and not isinstance(ledger, Ledger):
        raise ParameterError("ledger", "None or a reference.privacy.ledger.Ledger", type(ledger).__name__)
    if not isinstance(relation, str) or relation not in RELATIONS:
        raise ParameterError("relation", f"one of {RELATIONS}", relation)
    if not isinstance(label, str):
        raise ParameterError("label", "a string", type(label).__name__)
    if n_draws is not None:
        n_draws = check_int(n_draws, "n_draws", minimum=1)
        if ledger is not None:
            raise ParameterError("ledger", "None when n_draws is given (batch mode is for the audit harness)",
                                 "a Ledger")
    return n_draws


def _check_scores(scores):
    return check_array(scores, "scores", ndim=1)


def _check_bool(value, name):
    if not isinstance(value, (bool, np.bool_)):
        raise ParameterError(name, "True or False", value)
    return bool(value)


def _record(ledger, event):
    if ledger is not None:
        ledger.record(event)


# ---------------------------------------------------------------------------
# Additive noise

def gaussian_mechanism(value, sensitivity, sigma, rng, *, ledger=None, relation="replace-one", label="",
                       n_draws=None):
    """Release ``value + N(0, sigma^2 I)``.

    ``sensitivity`` is the l2 sensitivity of ``value`` under ``relation`` (the
    largest l2 distance between the values on neighbouring datasets). Records a
    ``gaussian`` event (norm ``l2``, ``noise_scale = sigma``); its privacy is the
    exact profile of a Gaussian shift ``mu = sensitivity / sigma`` (Dwork-Roth
    Thm A.1 gives the classic calibration; the accountant computes the exact one).

    Returns a float for a scalar ``value``, else an array of ``value``'s shape;
    with ``n_draws=k`` an array of shape ``(k,) + value.shape``.
    Noise: ``sigma * rng.standard_normal(shape)``.
    """
    n_draws = _check_common(rng, ledger, relation, label, n_draws)
    arr = check_array(value, "value")
    sensitivity = check_nonnegative(sensitivity, "sensitivity")
    sigma = check_positive(sigma, "sigma")
    shape = arr.shape if n_draws is None else (n_draws,) + arr.shape
    out = arr + sigma * rng.standard_normal(shape)
    _record(ledger, MechanismEvent("gaussian", sensitivity=sensitivity, norm="l2", relation=relation,
                                   noise_scale=sigma, label=label))
    if n_draws is None and arr.ndim == 0:
        return float(out)
    return out


def laplace_mechanism(value, sensitivity, scale, rng, *, ledger=None, relation="replace-one", label="",
                      n_draws=None):
    """Release ``value + Lap(scale)`` i.i.d. in every coordinate.

    ``sensitivity`` is the l1 sensitivity of ``value`` under ``relation``. The
    release is ``(sensitivity / scale)``-DP (Dwork-Roth Thm 3.6). Records a
    ``laplace`` event (norm ``l1``, ``noise_scale = scale``).

    Returns a float for a scalar ``value``, else an array of ``value``'s shape;
    with ``n_draws=k`` an array of shape ``(k,) + value.shape``.
    Noise: ``rng.laplace(0.0, scale, shape)``.
    """
    n_draws = _check_common(rng, ledger, relation, label, n_draws)
    arr = check_array(value, "value")
    sensitivity = check_nonnegative(sensitivity, "sensitivity")
    scale = check_positive(scale, "scale")
    shape = arr.shape if n_draws is None else (n_draws,) + arr.shape
    out = arr + rng.laplace(0.0, scale, shape)
    _record(ledger, MechanismEvent("laplace", sensitivity=sensitivity, norm="l1", relation=relation,
                                   noise_scale=scale, label=label))
    if n_draws is None and arr.ndim == 0:
        return float(out)
    return out


# ---------------------------------------------------------------------------
# Exponential mechanism

def exponential_mechanism_log_probabilities(scores, sensitivity, epsilon, *, monotone=False):
    """Natural logarithms of the exponential mechanism's selection probabilities.

    ``log P(i) = c * score_i - log sum_j exp(c * score_j)`` with
    ``c = epsilon / (2 * sensitivity)``, or ``c = epsilon / sensitivity`` when
    ``monotone`` (McSherry-Talwar; Dwork-Roth Thm 3.10 and the remark after it).
    Higher score means more likely. ``sensitivity`` is the largest change of any
    one score between neighbours (> 0).

    Stable for huge scores and many candidates: the scores are shifted by their
    maximum before scaling (computed on ``score / 4`` so that the shift itself
    cannot overflow; dividing by 4 is exact in binary floating point), so the
    largest logit is exactly 0 and the normaliser lies in ``[0, log m]``; the
    factor ``c`` is applied as mantissa and binary exponent, so extreme ratios
    ``epsilon / sensitivity`` neither overflow nor lose precision.
    Candidates whose probability underflows get ``-inf`` (never NaN).
    """
    s = _check_scores(scores)
    sensitivity = check_positive(sensitivity, "sensitivity")
    epsilon = check_positive(epsilon, "epsilon")
    monotone = _check_bool(monotone, "monotone")
    # c = epsilon / sensitivity (monotone) or epsilon / (2 * sensitivity), kept as
    # mantissa * 2**exponent so that neither c nor 2 * sensitivity can overflow or
    # go subnormal, whatever the magnitudes of epsilon and sensitivity.
    eps_m, eps_e = math.frexp(epsilon)
    sen_m, sen_e = math.frexp(sensitivity)
    c_mantissa = eps_m / sen_m                                 # in (1/2, 2)
    c_exponent = eps_e - sen_e - (0 if monotone else 1)
    quarter = s / 4.0
    shifted = quarter - quarter.max()          # (s_i - max s) / 4: <= 0, finite, exactly 0 at the maximiser
    d_m, d_e = np.frexp(shifted)
    with np.errstate(over="ignore", under="ignore"):
        # logit_i = c * (s_i - max s) = c_mantissa * d_m * 2**(c_exponent + d_e + 2); it is
        # -inf only when its true value is below -1.8e308 (probability 0 in float64), never NaN.
        logits = np.ldexp(c_mantissa * d_m, d_e + (c_exponent + 2))
    return logits - logsumexp(logits)


def exponential_mechanism_probabilities(scores, sensitivity, epsilon, *, monotone=False):
    """The exponential mechanism's selection probabilities (``exp`` of the log form)."""
    return np.exp(exponential_mechanism_log_probabilities(scores, sensitivity, epsilon, monotone=monotone))


def _inverse_cdf(probabilities, rng, size):
    """Indices drawn by inverse CDF: one ``rng.random()`` per output."""
    cdf = np.cumsum(probabilities)
    u = rng.random(size) * cdf[-1]
    # side="right": index i is chosen iff cdf[i-1] <= u < cdf[i], so zero-probability
    # atoms are never chosen, and u < cdf[-1] keeps the index in range.
    return np.searchsorted(cdf, u, side="right")


def exponential_mechanism(scores, sensitivity, epsilon, rng, *, monotone=False, ledger=None,
                          relation="replace-one", label="", n_draws=None):
    """Select index ``i`` with probability proportional to ``exp(epsilon*score_i/(2*sensitivity))``.

    With ``monotone=True`` the factor is ``exp(epsilon*score_i/sensitivity)``; this
    is epsilon-DP only when, between any two neighbours, all scores move in the
    same direction (McSherry-Talwar; Dwork-Roth Thm 3.10 and remark). Either form
    is ``epsilon``-DP under its condition. Records an ``exponential`` event with
    the mechanism's own ``epsilon`` and the score sensitivity.

    Returns an ``int``; with ``n_draws=k`` an int array of shape ``(k,)``.
    Sampling: inverse CDF over the log-space probabilities
    (:func:`exponential_mechanism_log_probabilities`), one ``rng.random()`` per output.
    """
    n_draws = _check_common(rng, ledger, relation, label, n_draws)
    logp = exponential_mechanism_log_probabilities(scores, sensitivity, epsilon, monotone=monotone)
    p = np.exp(logp)
    idx = _inverse_cdf(p, rng, 1 if n_draws is None else n_draws)
    _record(ledger, MechanismEvent("exponential", sensitivity=float(sensitivity), norm="score",
                                   relation=relation, epsilon=float(epsilon), monotone=bool(monotone),
                                   label=label))
    return int(idx[0]) if n_draws is None else idx


# ---------------------------------------------------------------------------
# Report noisy max / min

def _noisy_argmax(s, scale, rng, noise, n_draws):
    """argmax of s + noise, once (n_draws None) or n_draws times. One code path for both, so the
    law tests of the batch mode also test what an algorithm's single draws run."""
    draw = rng.laplace if noise == "laplace" else rng.gumbel
    total = 1 if n_draws is None else n_draws
    m = s.size
    rows = max(1, _BLOCK // m)
    out = np.empty(total, dtype=np.intp)
    for start in range(0, total, rows):
        k = min(rows, total - start)
        out[start:start + k] = np.argmax(s + draw(0.0, scale, (k, m)), axis=1)
    return int(out[0]) if n_draws is None else out


def report_noisy_max(scores, sensitivity, scale, rng, *, noise="laplace", monotone=False, ledger=None,
                     relation="replace-one", label="", n_draws=None):
    """Return ``argmax_i (score_i + Z_i)`` with ``Z_i`` i.i.d. Laplace(scale) or Gumbel(scale).

    ``sensitivity`` (Delta) is the largest change of any one score between
    neighbours; ``scale`` is ``b``. Privacy, by noise:

    * ``noise="laplace"``: ``(2*Delta/b)``-DP for general scores, ``(Delta/b)``-DP
      when the scores are monotone (all move in the same direction between
      neighbours). Dwork-Roth Claim 3.9 proves the monotone case (counting
      queries); the general factor 2 is the standard shift argument, see McKenna
      and Sheldon (2020), Sec. 2.
    * ``noise="gumbel"``: the Gumbel-max trick makes the output law exactly the
      exponential mechanism's with ``P(i) ∝ exp(score_i / b)``, i.e. the
      exponential mechanism at ``epsilon = 2*Delta/b`` (general) or its monotone
      form at ``epsilon = Delta/b`` (McKenna-Sheldon 2020, Sec. 2; Dwork-Roth Thm 3.10).

    The same accounting holds for both noises, so the recorded
    ``report_noisy_max`` event (norm ``score``, ``noise_scale = b``, ``noise``,
    ``monotone``) is certified as ``(2*Delta/b)``-DP, or ``(Delta/b)``-DP when
    ``monotone``. Ties (probability 0) go to the first index.

    Returns an ``int``; with ``n_draws=k`` an int array of shape ``(k,)``.
    """
    n_draws = _check_common(rng, ledger, relation, label, n_draws)
    s = _check_scores(scores)
    sensitivity = check_nonnegative(sensitivity, "sensitivity")
    scale = check_positive(scale, "scale")
    if not isinstance(noise, str) or noise not in ("laplace", "gumbel"):
        raise ParameterError("noise", "'laplace' or 'gumbel'", noise)
    monotone = _check_bool(monotone, "monotone")
    result = _noisy_argmax(s, scale, rng, noise, n_draws)
    _record(ledger, MechanismEvent("report_noisy_max", sensitivity=sensitivity, norm="score",
                                   relation=relation, noise_scale=scale, monotone=monotone, noise=noise,
                                   label=label))
    return result


def report_noisy_min(scores, sensitivity, scale, rng, *, noise="laplace", monotone=False, ledger=None,
                     relation="replace-one", label="", n_draws=None):
    """Report noisy max on the negated scores: lower score means more likely.

    Defined as ``report_noisy_max(-scores, ...)``, i.e. ``argmax_i(-score_i + Z_i)``
    (equivalently ``argmin_i(score_i - Z_i)``). For Laplace noise this has the same
    law as ``argmin_i(score_i + Z_i)`` (the Laplace law is symmetric); for Gumbel
    noise it is the exponential mechanism with ``P(i) ∝ exp(-score_i / b)``.
    Negation changes no sensitivity, so the privacy statement and the recorded
    ``report_noisy_max`` event are those of :func:`report_noisy_max`. Frank-Wolfe
    uses it to select the vertex minimising ``<v, gradient>``.
    """
    s = _check_scores(scores)
    return report_noisy_max(-s, sensitivity, scale, rng, noise=noise, monotone=monotone, ledger=ledger,
                            relation=relation, label=label, n_draws=n_draws)


# ---------------------------------------------------------------------------
# Truncated geometric law (saddle_point catalogue §6.2)

def truncated_geometric_pmf(M):
    """Probabilities ``p_k = C_M 2^{-k}``, ``k = 0..M``, of the truncated geometric law TGeom(M).

    ``C_M = [sum_{k=0}^M 2^{-k}]^{-1} = [2(1 - 2^{-(M+1)})]^{-1}`` (saddle_point
    catalogue §2.2 / §6.2, after Ghazi et al. 2024, Def. 5.1). Returns an array of
    length ``M + 1``; ``p_N`` is the entry at ``N`` (Alg. 2 of saddle_point divides by it).
    """
    M = check_int(M, "M", minimum=0)
    k = np.arange(M + 1, dtype=float)
    c = 1.0 / (2.0 * (1.0 - 2.0 ** (-(M + 1))))
    return c * np.exp2(-k)


def truncated_geometric(M, rng, *, n_draws=None):
    """Draw ``N ~ TGeom(M)``: ``P(N = k) = C_M 2^{-k}`` for ``k in {0, ..., M}``.

    Exact inverse CDF on the ``M + 1`` atoms, one ``rng.random()`` per output:
    ``N`` is the least ``k`` with ``u < F(k)``, where
    ``F(k) = (1 - 2^{-(k+1)}) / (1 - 2^{-(M+1)})``. Data-independent (no
    privacy event is recorded). Representational limit: with 53-bit uniforms the
    atoms ``k >= 53`` (total probability below ``2^{-53}``) are never drawn; see
    docs/errata.md core-E01.

    Returns an ``int``; with ``n_draws=k`` an int array of shape ``(k,)``.
    """
    check_rng(rng)
    M = check_int(M, "M", minimum=0)
    if n_draws is not None:
        n_draws = check_int(n_draws, "n_draws", minimum=1)
    top = min(M, 64)   # F(k) == 1.0 in float64 for every k >= 53 when M > 64
    k = np.arange(top + 1, dtype=float)
    cdf = (1.0 - np.exp2(-(k + 1))) / (1.0 - 2.0 ** (-(M + 1)))
    if top == M:
        cdf[-1] = 1.0      # F(M) = 1 exactly (guards against rounding)
    u = rng.random(1 if n_draws is None else n_draws)
    idx = np.minimum(np.searchsorted(cdf, u, side="right"), top)
    return int(idx[0]) if n_draws is None else idx


# ---------------------------------------------------------------------------
# Claims about these mechanisms (each checked by tests/privacy/test_mechanisms.py)

_THIS = "reference.privacy.mechanisms:"
BUILDING_BLOCKS = (   # listed by `python -m reference list`; the ids are conform's and the kill matrix's
    Algorithm("core", "gaussian_mechanism", "Gaussian mechanism: value + N(0, sigma^2 I)",
              _THIS + "gaussian_mechanism", "Dwork-Roth 2014, Thm A.1; exact profile: Balle-Wang 2018"),
    Algorithm("core", "laplace_mechanism", "Laplace mechanism: value + Lap(scale) per coordinate",
              _THIS + "laplace_mechanism", "Dwork-Roth 2014, Thm 3.6"),
    Algorithm("core", "exponential_mechanism", "exponential mechanism over finitely many candidates",
              _THIS + "exponential_mechanism", "McSherry-Talwar 2007; Dwork-Roth 2014, Thm 3.10"),
    Algorithm("core", "report_noisy_max", "report-noisy-max (Laplace or Gumbel noise)",
              _THIS + "report_noisy_max", "Dwork-Roth 2014, Claim 3.9; docs/errata.md core-M03"),
    Algorithm("core", "report_noisy_min", "report-noisy-min: report-noisy-max of the negated scores",
              _THIS + "report_noisy_min", "docs/errata.md core-M02"),
    Algorithm("core", "truncated_geometric", "truncated geometric law on {0, ..., M}",
              _THIS + "truncated_geometric", "Ghazi et al. 2024, Def. 5.1; docs/errata.md core-M01"),
)

CLAIMS = (
    Claim("core:Gaussian mechanism", "invariant",
          "gaussian_mechanism adds N(0, sigma^2 I) noise that does not depend on the data, so on neighbouring "
          "values (same seed) the outputs differ by exactly the data change, bounded by the recorded l2 "
          "sensitivity; the noise passes a goodness-of-fit test against N(0, sigma^2).",
          "Dwork-Roth 2014, Thm A.1"),
    Claim("core:Laplace mechanism", "invariant",
          "laplace_mechanism adds i.i.d. Laplace(b) noise that does not depend on the data, so on neighbouring "
          "values (same seed) the outputs differ by exactly the data change, bounded by the recorded l1 "
          "sensitivity; the noise passes a goodness-of-fit test against Laplace(0, b).",
          "Dwork-Roth 2014, Thm 3.6"),
    Claim("core:Exponential mechanism probabilities", "constant",
          "The exponential mechanism selects i with probability exp(c*s_i)/sum_j exp(c*s_j), c = eps/(2*Delta) "
          "(eps/Delta when monotone), agreeing with a 50-digit mpmath computation even for huge scores and "
          "thousands of candidates; sampled frequencies match these probabilities.",
          "McSherry-Talwar 2007; Dwork-Roth 2014, Def. 3.4"),
    Claim("core:Exponential mechanism privacy", "privacy",
          "For score vectors whose entries change by at most Delta, every selection probability changes by a "
          "factor at most exp(eps); the monotone form keeps this only for monotone changes, and fails without it.",
          "Dwork-Roth 2014, Thm 3.10 and remark"),
    Claim("core:Gumbel report-noisy-max is the exponential mechanism", "invariant",
          "argmax_i(s_i + Gumbel(b)) has the law of the exponential mechanism with eps = 2*Delta/b "
          "(P(i) proportional to exp(s_i/b)); report_noisy_min with Gumbel noise has P(i) proportional to "
          "exp(-s_i/b).",
          "McKenna-Sheldon 2020 (permute-and-flip), Sec. 2; Gumbel-max trick"),
    Claim("core:Laplace report-noisy-max selection law", "invariant",
          "The selection frequencies of Laplace report-noisy-max (and min) match the probabilities "
          "integral f_i(x) prod_{j != i} F_j(x) dx computed by numerical quadrature.",
          "Dwork-Roth 2014, Sec. 3.3"),
    Claim("core:Laplace report-noisy-max privacy", "privacy",
          "Laplace(b) report-noisy-max is (2*Delta/b)-DP for scores changing by at most Delta, and (Delta/b)-DP "
          "when the change is monotone; the monotone bound fails for non-monotone changes (exact quadrature).",
          "Dwork-Roth 2014, Claim 3.9; McKenna-Sheldon 2020, Sec. 2"),
    Claim("core:Mechanism ledger events", "sensitivity",
          "Each mechanism records exactly one ledger event carrying the sensitivity, norm, noise scale or "
          "epsilon, relation and (for report-noisy-max) noise and monotonicity it was called with.",
          "reference/privacy/ledger.py event table"),
    Claim("core:Truncated geometric law", "constant",
          "truncated_geometric(M) has P(N=k) = C_M 2^-k on {0..M}, C_M = 1/(2(1-2^-(M+1))); the pmf sums to 1, "
          "E[1/p_N] = M+1 and E[2^N] = C_M (M+1) (mpmath), and sampled frequencies pass a chi-square test.",
          "Ghazi et al. 2024, Def. 5.1 (as used by saddle_point); docs/errata.md core-M01"),
    Claim("core:Mechanism determinism", "invariant",
          "Every randomized mechanism returns bit-identical results for generators built from the same seed.",
          "docs/architecture.md (conventions: randomness)"),
    Claim("core:Mechanism input validation", "invariant",
          "Bad inputs (epsilon <= 0, non-finite values, negative sensitivity, empty or NaN scores, wrong rng) raise "
          "a ParameterError naming the parameter; no public mechanism returns NaN.",
          "docs/architecture.md (conventions: preconditions)"),
)
