"""How an audit of one claim is described: the case interface.

Every claim the ``audit`` command checks is described by one *case*. A paper
module contributes its cases in ``reference/audit/cases_<paper>.py`` by defining

    def audit_cases() -> list:          # PrivacyCase | ExactCase | RateCase
        ...

The runner (:mod:`reference.audit.runner`) discovers every
``reference.audit.cases_*`` module, calls ``audit_cases()`` (lazily, only when
an audit runs, so importing the module must stay cheap), runs each case and
prints one row per case. The claim a case names must be registered (a
``Claim`` in some module's ``CLAIMS``); its paper and kind come from there.

There are three kinds of case.

:class:`PrivacyCase` -- empirical privacy by distinguishability. The runner
    draws ``samples`` outputs of ``sampler`` on ``dataset`` and on ``neighbour``
    (in seeded chunks of ``chunk`` draws, each chunk seeded by
    ``numpy.random.SeedSequence`` spawning, so the result is bit-identical
    however the chunks are spread over workers), maps them to scalars with
    ``statistic``, and turns threshold counts into a Clopper-Pearson lower bound
    on epsilon at confidence ``1 - beta`` with the declared ``thresholds`` rule.
    The same is run on ``negative_control`` (a deliberately mis-calibrated
    sampler); the row records whether the audit flagged it. With
    ``gaussian_mu`` set the runner also reports a Gaussian-DP lower bound on mu.

:class:`ExactCase` -- exact privacy profile of a mechanism with finitely many
    outputs: ``distributions()`` returns the exact output probabilities on the
    two neighbours, the runner computes the hockey-stick divergence exactly
    (mpmath). No sampling error.

:class:`RateCase` -- a convergence rate: ``trial(x, rng)`` runs the algorithm
    once at grid value ``x`` (n, T, d, ...) and returns the error the theorem
    bounds; the runner repeats it, fits the log-log slope with a bootstrap
    confidence interval and compares it with ``claimed_slope``.

Every callable in a case must be picklable (a module-level function, or
``functools.partial`` of one) because trials run in a process pool.

Worked example (a Laplace mechanism with sensitivity 1 and scale 1 claims
1-DP; the negative control uses half the noise)::

    import functools
    import numpy as np
    from reference.audit.cases import PrivacyCase, Bonferroni

    def laplace_sampler(value, rng, n, *, scale):
        # n independent outputs of the mechanism on the dataset whose query is `value`
        return value + rng.laplace(0.0, scale, size=n)

    def audit_cases():
        return [PrivacyCase(
            claim="core:Laplace mechanism",
            title="Laplace, sensitivity 1, scale 1",
            sampler=functools.partial(laplace_sampler, scale=1.0),
            dataset=0.0, neighbour=1.0,          # worst case: the query moves by the full sensitivity
            claimed_epsilon=1.0,
            certified_epsilon=1.0,               # what the accountant certifies for this noise
            negative_control=functools.partial(laplace_sampler, scale=0.5),
            negative_control_note="half the noise (true epsilon 2)",
            thresholds=Bonferroni(thresholds=(0.5, 1.0, 1.5)),
            worst_case="the output is the query plus noise; any pair at full sensitivity is worst",
        )]

Samplers that run a whole algorithm once per output can be wrapped with
:func:`repeat`: ``sampler=repeat(my_one_run)`` where ``my_one_run(data, rng)``
returns one output, and ``statistic=per_output(my_scalar)`` maps each output to a float.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..errors import ParameterError

EVENTS = ("upper", "lower")          # the event {S > t} or {S <= t}
ORDERS = ("forward", "backward")     # forward: P_{D'}(E) against P_D(E); backward: the reverse
RELATIONS = ("equal", "at_most", "at_least")
AUDITS = ("black-box", "white-box")   # what a privacy row looks at: the output only, or the whole transcript


# ---------------------------------------------------------------------------
# Threshold rules: how the threshold of the distinguishing test is chosen
# without peeking at the data it is evaluated on.

@dataclass(frozen=True)
class Bonferroni:
    """A declared grid of tests, evaluated all, with Bonferroni correction.

    Each test is (threshold t, event, order): event ``upper`` is {S > t},
    ``lower`` is {S <= t}; order ``forward`` bounds
    ln((P_{D'}(E) - delta) / P_D(E)), ``backward`` the same with D and D'
    swapped. With m tests in the grid each runs at level beta/m, so the largest
    of the m lower bounds is valid at confidence 1 - beta. A single threshold
    with a single event and order is the "fixed in advance" rule.
    """

    thresholds: tuple[float, ...]
    events: tuple[str, ...] = EVENTS
    orders: tuple[str, ...] = ORDERS

    def __post_init__(self) -> None:
        if not self.thresholds:
            raise ParameterError("Bonferroni.thresholds", "at least one threshold", self.thresholds)
        for t in self.thresholds:
            if not isinstance(t, (int, float)) or not math.isfinite(t):
                raise ParameterError("Bonferroni.thresholds", "finite real numbers", t)
        if not self.events or any(e not in EVENTS for e in self.events):
            raise ParameterError("Bonferroni.events", f"a non-empty subset of {EVENTS}", self.events)
        if not self.orders or any(o not in ORDERS for o in self.orders):
            raise ParameterError("Bonferroni.orders", f"a non-empty subset of {ORDERS}", self.orders)

    def tests(self) -> list[tuple[float, str, str]]:
        return [(float(t), e, o) for t in self.thresholds for e in self.events for o in self.orders]


@dataclass(frozen=True)
class HeldOut:
    """Choose the test on a held-out split, evaluate it once on the rest.

    The first ``fraction`` of each side's chunks (rounded up to whole chunks,
    at least one) is used only to choose (threshold, event, order) among
    ``candidates`` quantiles of the held-out statistics, maximising the
    Clopper-Pearson lower bound computed on the held-out part; the remaining
    chunks evaluate that one test at level beta. No correction is needed
    because the evaluation data never influenced the choice.
    """

    fraction: float = 0.1
    candidates: int = 200

    def __post_init__(self) -> None:
        if not 0 < self.fraction < 1:
            raise ParameterError("HeldOut.fraction", "0 < fraction < 1", self.fraction)
        if not isinstance(self.candidates, int) or self.candidates < 1:
            raise ParameterError("HeldOut.candidates", "an integer >= 1", self.candidates)


ThresholdRule = Bonferroni | HeldOut


# ---------------------------------------------------------------------------
# Cases

def _check_claim_id(claim: str) -> None:
    if not isinstance(claim, str) or ":" not in claim:
        raise ParameterError("claim", "a claim id '<paper>:<locator>'", claim)


def _check_eps_delta(epsilon: float, delta: float, owner: str) -> None:
    if not isinstance(epsilon, (int, float)) or not math.isfinite(epsilon) or epsilon <= 0:
        raise ParameterError(f"{owner}.claimed_epsilon", "a finite epsilon > 0", epsilon)
    if not isinstance(delta, (int, float)) or not 0 <= delta < 1:
        raise ParameterError(f"{owner}.claimed_delta", "0 <= delta < 1", delta)


CALIBRATIONS = ("", "paper", "certified")


def _check_audit(case, owner: str) -> None:
    if case.audit not in AUDITS:
        raise ParameterError(f"{owner}.audit", f"one of {AUDITS}", case.audit)
    target = case.tightness_target
    if target is not None and not (isinstance(target, (int, float)) and 0 < target <= 1):
        raise ParameterError(f"{owner}.tightness_target", "a target in (0, 1], or None", target)
    if not isinstance(case.in_quick, bool):
        raise ParameterError(f"{owner}.in_quick", "True or False", case.in_quick)
    if not isinstance(case.retired, str):
        raise ParameterError(f"{owner}.retired", "a reason (str), or '' for a live row", case.retired)


def _check_calibration(case, owner: str) -> None:
    if case.calibration not in CALIBRATIONS:
        raise ParameterError(f"{owner}.calibration", f"one of {CALIBRATIONS}", case.calibration)
    if not isinstance(case.erratum, str):
        raise ParameterError(f"{owner}.erratum", "an errata id such as 'lasso-E02' (or '')", case.erratum)


@dataclass(frozen=True)
class PrivacyCase:
    """An empirical (distinguishability) audit of one privacy claim.

    sampler(data, rng, n) -> n outputs on axis 0 (an ndarray, or a list of n outputs)
    statistic(outputs) -> ndarray of n finite floats; ``None`` when the sampler
        already returns n scalars (shape (n,) or (n, 1)).
    dataset, neighbour: the neighbouring pair (anything picklable); ``worst_case``
        says why the pair maximises the privacy loss.
    claimed_epsilon, claimed_delta: the claim under audit.
    certified_epsilon: what the accountant certifies at ``claimed_delta`` for the
        noise actually used (``None`` if the accountant cannot certify it); or
        ``certify`` a picklable zero-argument callable computing it when run.
    negative_control: a sampler with the same signature, deliberately
        mis-calibrated (half the noise, or sensitivity off by 2); the audit must
        flag it (lower bound above ``claimed_epsilon``).
    gaussian_mu: for Gaussian-type claims, the mu of the claimed mu-GDP (e.g.
        sensitivity/sigma); the runner then also reports a lower bound on mu and
        the (epsilon, delta) it implies on the Gaussian curve. The mu test uses
        ``mu_thresholds`` (default: ``thresholds``); each of the two tests then
        runs at level beta/2.
    calibration, erratum: which calibration the case runs (``"paper"``: the noise as printed;
        ``"certified"``: the package's accountant's; ``""``: a building block) and the
        docs/errata.md entry about it. A refuted or unproven row of a ``"paper"`` case is
        reported as a finding about the paper, citing ``erratum``.
    samples / quick_samples: draws per side (full / ``--quick``); chunk: draws per
        seeded trial (the unit of parallel work).
    audit: ``"black-box"`` (the default: the released output through a scalar statistic) or
        ``"white-box"`` (the statistic is the log-likelihood ratio of the whole released transcript,
        every noisy release given the previous ones; :mod:`reference.audit.whitebox`).
    exact: optional picklable zero-argument callable returning the exact epsilon at
        ``claimed_delta`` of what the sampler releases at this pair (an independent computation:
        GDP for a Gaussian transcript with a known mean shift, the composed PLD of independent
        steps, an enumeration of a finite transcript law). A value above the claim refutes it.
    tightness_target: the tightness (measured / certified) the row is meant to reach; when the row
        falls short, ``tightness_note`` says why (e.g. the exact value that shows the accountant is
        loose at this pair, with its erratum).
    in_quick: ``False`` keeps an expensive row out of ``--quick`` (the full audit runs it).
    retired: non-empty (the reason, naming the row that audits the same thing instead) retires the
        row: neither audit runs it, but it still counts for the keys, so every other row keeps its key
        and the retired key is never reused (docs/audit.md, "Retired rows").
    """

    claim: str
    title: str
    sampler: Callable[..., Any]
    dataset: Any
    neighbour: Any
    claimed_epsilon: float
    negative_control: Callable[..., Any]
    negative_control_note: str
    claimed_delta: float = 0.0
    statistic: Callable[[Any], Any] | None = None
    thresholds: ThresholdRule = field(default_factory=HeldOut)
    certified_epsilon: float | None = None
    certify: Callable[[], float | None] | None = None
    gaussian_mu: float | None = None
    mu_thresholds: ThresholdRule | None = None
    samples: int = 1_000_000
    quick_samples: int = 200_000
    chunk: int = 50_000
    worst_case: str = ""
    calibration: str = ""
    erratum: str = ""
    audit: str = "black-box"
    exact: Callable[[], float] | None = None
    tightness_target: float | None = None
    tightness_note: str = ""
    in_quick: bool = True
    retired: str = ""

    def __post_init__(self) -> None:
        _check_claim_id(self.claim)
        _check_eps_delta(self.claimed_epsilon, self.claimed_delta, "PrivacyCase")
        _check_calibration(self, "PrivacyCase")
        _check_audit(self, "PrivacyCase")
        if self.exact is not None and not callable(self.exact):
            raise ParameterError("PrivacyCase.exact", "a callable() -> exact epsilon, or None", self.exact)
        if not callable(self.sampler):
            raise ParameterError("PrivacyCase.sampler", "callable(data, rng, n)", self.sampler)
        if not callable(self.negative_control):
            raise ParameterError("PrivacyCase.negative_control",
                                 "a mis-calibrated sampler (every privacy audit needs one)", self.negative_control)
        if self.statistic is not None and not callable(self.statistic):
            raise ParameterError("PrivacyCase.statistic", "callable or None", self.statistic)
        if not isinstance(self.thresholds, (Bonferroni, HeldOut)):
            raise ParameterError("PrivacyCase.thresholds", "a Bonferroni or HeldOut rule", self.thresholds)
        if self.mu_thresholds is not None and not isinstance(self.mu_thresholds, (Bonferroni, HeldOut)):
            raise ParameterError("PrivacyCase.mu_thresholds", "a Bonferroni or HeldOut rule, or None",
                                 self.mu_thresholds)
        for name in ("samples", "quick_samples", "chunk"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ParameterError(f"PrivacyCase.{name}", "an integer >= 1", value)
        if self.gaussian_mu is not None and not (isinstance(self.gaussian_mu, (int, float)) and self.gaussian_mu > 0):
            raise ParameterError("PrivacyCase.gaussian_mu", "mu > 0 or None", self.gaussian_mu)


@dataclass(frozen=True)
class ExactCase:
    """An exact privacy profile of a mechanism with finitely many outputs.

    distributions() -> (p, q): the exact output probabilities on D and D' over
        the same finite list of outcomes (sequences of floats or mpmath numbers,
        each summing to 1). The runner computes the hockey-stick divergence in
        both directions with mpmath and the exact epsilon at ``claimed_delta``.
    negative_control() -> (p, q): the same for a mis-calibrated mechanism; its
        exact epsilon must exceed ``claimed_epsilon``.
    calibration, erratum: which calibration the case runs (``"paper"``: the noise as printed;
        ``"certified"``: the package's accountant's; ``""``: a building block) and the
        docs/errata.md entry about it. A refuted or unproven row of a ``"paper"`` case is
        reported as a finding about the paper, citing ``erratum``.
    audit, tightness_target, tightness_note, in_quick, retired: as for :class:`PrivacyCase` (an exact law of
        the whole transcript, or of a sufficient statistic of it, is ``"white-box"``).
    """

    claim: str
    title: str
    distributions: Callable[[], tuple[Sequence, Sequence]]
    claimed_epsilon: float
    negative_control: Callable[[], tuple[Sequence, Sequence]]
    negative_control_note: str
    claimed_delta: float = 0.0
    certified_epsilon: float | None = None
    certify: Callable[[], float | None] | None = None
    worst_case: str = ""
    calibration: str = ""
    erratum: str = ""
    audit: str = "black-box"
    tightness_target: float | None = None
    tightness_note: str = ""
    in_quick: bool = True
    retired: str = ""

    def __post_init__(self) -> None:
        _check_claim_id(self.claim)
        _check_eps_delta(self.claimed_epsilon, self.claimed_delta, "ExactCase")
        _check_calibration(self, "ExactCase")
        _check_audit(self, "ExactCase")
        if not callable(self.distributions):
            raise ParameterError("ExactCase.distributions", "callable() -> (p, q)", self.distributions)
        if not callable(self.negative_control):
            raise ParameterError("ExactCase.negative_control",
                                 "a mis-calibrated variant (every privacy audit needs one)", self.negative_control)


@dataclass(frozen=True)
class RateCase:
    """A convergence-rate check: fitted log-log slope against the theorem's exponent.

    trial(x, rng) -> float: the error of one run at grid value x (must be > 0).
    grid / quick_grid: the grid values (at least 3, all > 0, distinct).
    repeats / quick_repeats: independent runs per grid value.
    claimed_slope: the exponent the theorem states (error ~ x**claimed_slope).
    relation: ``equal`` (consistent when the slope's confidence interval
        contains claimed_slope +- tolerance), ``at_most`` (the theorem is an upper
        bound: inconsistent only when the interval lies wholly above
        claimed_slope + tolerance), or ``at_least``.
    bound(x) -> float: optional explicit bound from the proof; the mean error at
        every grid value must not exceed it.
    nearest_wrong_slope: the nearest wrong exponent the claim names (-1/2 for a
        -2/3 claim, 1 for sqrt(T)); the row records whether the slope's interval
        excludes it (a check that cannot tell the two apart is weak).
    negative_control(x, rng) -> float: a trial with a wrong exponent (a mutant of
        the algorithm, or the same error at the nearest wrong exponent); the runner
        fits it on the same grid and repeats, and the row records whether the same
        rule refuses it (``negative_control_detected``), exactly as for privacy rows.
        ``negative_control_note`` says what it is.
    in_quick: False keeps a row too slow for ``--quick`` to the full audit (as for PrivacyCase).

    Verdict (see the runner): ``consistent`` only when the interval is consistent
    with the claim under ``relation``/``tolerance`` *and* contains the claimed
    exponent (and the explicit bound, if any, holds); ``inconsistent`` when the
    relation is violated or the bound fails; ``unproven`` when the relation allows
    the fit but its interval excludes the claimed exponent.
    """

    claim: str
    title: str
    trial: Callable[[float, Any], float]
    grid: tuple[float, ...]
    claimed_slope: float
    repeats: int = 20
    quick_grid: tuple[float, ...] | None = None
    quick_repeats: int | None = None
    relation: str = "at_most"
    tolerance: float = 0.0
    bound: Callable[[float], float] | None = None
    confidence: float = 0.95
    nearest_wrong_slope: float | None = None
    negative_control: Callable[[float, Any], float] | None = None
    negative_control_note: str = ""
    in_quick: bool = True

    def __post_init__(self) -> None:
        _check_claim_id(self.claim)
        if not isinstance(self.in_quick, bool):
            raise ParameterError("RateCase.in_quick", "True or False", self.in_quick)
        if self.nearest_wrong_slope is not None:
            if not isinstance(self.nearest_wrong_slope, (int, float)) or not math.isfinite(self.nearest_wrong_slope) \
                    or self.nearest_wrong_slope == self.claimed_slope:
                raise ParameterError("RateCase.nearest_wrong_slope",
                                     "a finite exponent different from claimed_slope, or None", self.nearest_wrong_slope)
        if self.negative_control is not None and not callable(self.negative_control):
            raise ParameterError("RateCase.negative_control", "callable(x, rng) -> float, or None",
                                 self.negative_control)
        for name in ("grid", "quick_grid"):
            grid = getattr(self, name)
            if grid is None and name == "quick_grid":
                continue
            if len(grid) < 3 or len(set(grid)) != len(grid) or any(not (x > 0) for x in grid):
                raise ParameterError(f"RateCase.{name}", "at least 3 distinct grid values > 0", grid)
        for name in ("repeats", "quick_repeats"):
            value = getattr(self, name)
            if value is None and name == "quick_repeats":
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 2:
                raise ParameterError(f"RateCase.{name}", "an integer >= 2", value)
        if self.relation not in RELATIONS:
            raise ParameterError("RateCase.relation", f"one of {RELATIONS}", self.relation)
        if not 0 < self.confidence < 1:
            raise ParameterError("RateCase.confidence", "0 < confidence < 1", self.confidence)
        if not callable(self.trial):
            raise ParameterError("RateCase.trial", "callable(x, rng) -> float", self.trial)


Case = PrivacyCase | ExactCase | RateCase


# ---------------------------------------------------------------------------
# Helpers for samplers that run a whole algorithm once per output.

@dataclass(frozen=True)
class repeat:  # noqa: N801 - used like a function: sampler=repeat(one_run)
    """Turn ``one_run(data, rng) -> output`` into a sampler ``(data, rng, n) -> list of n outputs``."""

    one_run: Callable[[Any, Any], Any]

    def __call__(self, data: Any, rng: Any, n: int) -> list:
        return [self.one_run(data, rng) for _ in range(n)]


@dataclass(frozen=True)
class per_output:  # noqa: N801 - used like a function: statistic=per_output(score)
    """Turn ``f(output) -> float`` into a statistic ``(outputs) -> ndarray`` over a batch."""

    f: Callable[[Any], float]

    def __call__(self, outputs: Any) -> Any:
        import numpy as np

        return np.array([float(self.f(o)) for o in outputs], dtype=float)
