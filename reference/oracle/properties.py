"""The property suite conform runs on a candidate implementation, declared per test-vector case.

A :class:`~reference.oracle.vectors.VectorCase` says which properties hold for its algorithm:

- ``invariants``: :class:`Feasible` (the output lies in the constraint set, within a tolerance),
  :class:`Holds` (any other predicate of inputs and output, e.g. "the index is one of the k
  candidates"), :class:`Sparse` (at most so many nonzeros, e.g. a Frank-Wolfe iterate is a convex
  combination of at most t vertices) and :class:`ZeroNoise` (with the noise switched off, e.g.
  ``sigma=0``, the candidate returns the reference's noiseless output exactly, where the candidate
  accepts that setting);
- ``rate``: a :class:`Rate`, the convergence claim measured on a small grid for the candidate and
  for the reference (fitted by :func:`reference.audit.rates.fit_rate`) and compared;
- ``not_applicable``: for each property that does not apply, the reason (reported as ``n/a``).

Two invariants apply to every case and need no declaration: ``finite-shape`` (the output has the
reference's shape and is finite) and ``determinism`` (the same seed gives the same output). Two more
need none either (reference/oracle/checks.py): ``accounting`` (the candidate's own ledger or claimed
epsilon, where it reports one, equals the reference's) and ``validation`` (inputs outside the privacy
proof's domain are refused: :class:`Refuses`, declared or derived from the inputs by
:func:`generic_refusals`).
The law check of a randomized algorithm (``statistic``), privacy audit (``neighbour``) and replay are declared
by the case's older fields; the law of a deterministic algorithm is declared as an invariant, :class:`PointMass`
(a point mass at the reference's output: the candidate, run on fresh generators, must return that output within
a rounding tolerance). :data:`PROPERTIES` lists the names conform reports, in its order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

import numpy as np

# The property names conform reports (one verdict each per algorithm), in this order.
PROPERTIES = ("replay", "law", "privacy", "accounting", "claim", "rate", "feasibility", "sparsity", "zero-noise",
              "finite-shape", "determinism", "validation")


#: The false-alarm budget of one id: a correct candidate fails a default conform run of one algorithm id with
#: probability at most this, over the seeds its own runs draw. Three checks can fail a correct candidate by
#: chance (every other property is exact): each case's law check (level ``alpha``), each privacy audit (its
#: Clopper-Pearson bound at confidence ``1 - beta``) and the rate fit; the budget is split equally among an id's
#: such checks (:func:`reference.oracle.suite.false_alarm_share`), so by the union bound the id's false-alarm rate
#: is at most the budget (docs/conformance.md, "The false-alarm budget").
FALSE_ALARM_BUDGET = 1e-3


def rate_confidence(share: float) -> float:
    """The confidence of a :class:`Rate`'s two bootstrap intervals such that a correct candidate fails the rate
    check with probability about ``share`` at most. Two independent intervals of one slope at confidence c
    (half-width z sd, z = Phi^-1((1 + c) / 2)), normal and of equal widths, fail to overlap with probability
    2 (1 - Phi(sqrt(2) z)); the nearest-wrong clause of :func:`reference.oracle.conform.rate_check` applies only
    where the reference's interval lies the wider interval's width beyond the wrong exponent, so a correct candidate
    reaches it with probability at most 1 - Phi(sqrt(2) z) more. c solves 3 (1 - Phi(sqrt(2) z)) = share. The
    approximation holds for rate_check's intervals because each is widened for its few repeats
    (:func:`reference.audit.rates.small_sample_inflation`; measured in docs/conformance.md: the plain percentile
    intervals failed up to 50 x more often)."""
    from scipy import special

    z = float(special.ndtri(1.0 - share / 3.0)) / np.sqrt(2.0)
    return float(1.0 - 2.0 * special.ndtr(-z))


def _part(part, output):
    return np.asarray(output if part is None else part(output), dtype=float)


@dataclass(frozen=True)
class Feasible:
    """The output (or ``part(output)``) lies in ``constraint(kwargs)``, a
    :class:`reference.geometry.sets.ConstraintSet` built from the case's inputs, within ``atol``
    in the set's defining norm."""

    constraint: Callable[[dict], Any]
    part: Callable[[Any], Any] | None = None
    atol: float = 1e-9
    what: str = ""
    setting: dict = field(default_factory=dict)     # inputs changed for this check, as for Sparse
    property: ClassVar[str] = "feasibility"

    def check(self, kwargs: dict, output: Any) -> tuple[bool, str]:
        C = self.constraint(kwargs)
        x = _part(self.part, output)
        if x.shape != tuple(C.shape):
            return False, f"{self.what or 'output'} has shape {x.shape}, the set {tuple(C.shape)}"
        excess = float(C._excess(x))
        label = self.what or type(C).__name__
        if excess <= self.atol:
            return True, f"in {label} (excess {max(excess, 0.0):.2g} <= {self.atol:g})"
        return False, f"outside {label} by {excess:.3g} (> {self.atol:g})"


@dataclass(frozen=True)
class Holds:
    """``predicate(kwargs, output) -> bool`` holds; reported under ``property`` (feasibility by default)."""

    predicate: Callable[[dict, Any], bool]
    what: str
    property: str = "feasibility"
    setting: dict = field(default_factory=dict)     # inputs changed for this check, as for Sparse

    def check(self, kwargs: dict, output: Any) -> tuple[bool, str]:
        ok = bool(self.predicate(kwargs, output))
        return ok, (f"holds: {self.what}" if ok else f"violated: {self.what}")


@dataclass(frozen=True)
class Sparse:
    """At most ``max_support(kwargs)`` entries of the output (or ``part(output)``) are nonzero
    (|x_i| > ``atol``); e.g. Frank-Wolfe on the l1 ball from theta_1 = 0 after T - 1 steps."""

    max_support: Callable[[dict], int]
    part: Callable[[Any], Any] | None = None
    atol: float = 0.0
    what: str = ""
    # inputs changed for this check (e.g. {"T": 4}, so that T - 1 vertices are fewer than p coordinates
    # and the bound can fail); the candidate is run again on the case's inputs with these merged in
    setting: dict = field(default_factory=dict)
    property: ClassVar[str] = "sparsity"

    def check(self, kwargs: dict, output: Any) -> tuple[bool, str]:
        x = _part(self.part, output)
        support, allowed = int(np.sum(np.abs(x) > self.atol)), int(self.max_support(kwargs))
        why = f" ({self.what})" if self.what else ""
        if support <= allowed:
            return True, f"{support} nonzeros <= {allowed}{why}"
        return False, f"{support} nonzeros > {allowed}{why}"


@dataclass(frozen=True)
class ZeroNoise:
    """With ``setting`` (arguments that switch the noise off, e.g. ``{"sigma": 0.0}``) merged into the
    case's inputs, the candidate's output equals ``expected(kwargs)`` (the reference's noiseless
    output; ``kwargs`` already carries the setting) within ``rtol``/``atol``. A candidate that
    raises a ValueError (ParameterError is one) or ArithmeticError on the setting does not accept it: the
    property is then n/a for it; any other exception is a failure."""

    setting: dict
    expected: Callable[[dict], Any]
    rtol: float = 1e-12
    atol: float = 1e-12
    what: str = ""
    property: ClassVar[str] = "zero-noise"


#: The relative tolerance of a :class:`PointMass` (normwise: to the output's largest entry). A correct port that
#: sums in another order, vectorises, or goes through BLAS moves the deterministic cases' outputs by at most
#: about 1e-15 relative (measured: docs/conformance.md, "Deterministic ids: the law is a point mass"); the wrong
#: deterministic ports of the kill matrix by 1e-4 and more. 1e-9 is LEVEL_RTOL, the law check's own "the same
#: value up to rounding" (reference.oracle.vectors), five orders above the first and below the second.
POINT_MASS_RTOL = 1e-9


@dataclass(frozen=True)
class PointMass:
    """The law of a deterministic algorithm: a point mass at the reference's output. The candidate, called
    with a fresh ``numpy.random.Generator`` (not the reference's draws) at ``seeds`` seeds, must return the
    reference's output every time, within ``rtol`` times the output's largest entry plus ``atol`` (normwise,
    so that an entry the paper makes 0 and a port computes as a rounding residue is not judged relatively);
    an output that changes with the seed fails (a deterministic algorithm's output does not depend on
    ``rng``). Reported under ``law``; exact (no false alarm), so it takes no share of the false-alarm budget.
    The case's instance must be free of exact ties (every argmax/argmin the algorithm takes wins by far more
    than rounding), or a correct port could take the other branch."""

    rtol: float = POINT_MASS_RTOL
    atol: float = 1e-12
    seeds: int = 3
    what: str = "the reference's output"
    property: ClassVar[str] = "law"

    def allowed(self, want: np.ndarray) -> float:
        scale = float(np.max(np.abs(want))) if want.size else 0.0
        return self.atol + self.rtol * scale

    def check(self, want: Any, outputs: list) -> tuple[bool, str]:
        """``outputs``: (seed, the candidate's output) pairs. (passed, detail naming the largest deviation)."""
        want = np.asarray(want, dtype=float)
        allowed = self.allowed(want)
        scale = max(float(np.max(np.abs(want))) if want.size else 0.0, 1e-300)
        worst, worst_seed, got0 = 0.0, None, None
        for seed, out in outputs:
            got = np.asarray(out, dtype=float)
            if got.shape != want.shape:
                return False, f"seed {seed}: output shape {got.shape}, the reference's {want.shape}"
            if not np.all(np.isfinite(got)):
                return False, f"seed {seed}: {int(np.sum(~np.isfinite(got)))} non-finite entries"
            dev = float(np.max(np.abs(got - want))) if want.size else 0.0
            if worst_seed is None or dev > worst:
                worst, worst_seed = dev, seed
            got0 = got if got0 is None else got0
        spread = max((float(np.max(np.abs(np.asarray(o, dtype=float) - got0))) for _, o in outputs), default=0.0) \
            if want.size else 0.0
        bound = f"{allowed:.2g} = {self.rtol:g} x max|output| + {self.atol:g}"
        if spread > allowed:
            return False, (f"the output changes with the seed (by up to {spread:.3g} > {bound} over "
                           f"{len(outputs)} seeds): a deterministic algorithm's output does not depend on rng")
        if worst > allowed:
            return False, (f"not {self.what}: largest deviation {worst:.3g} ({worst / scale:.2g} relative) at seed "
                           f"{worst_seed} > {bound}")
        return True, (f"point mass: {self.what} on {len(outputs)} seeds, largest deviation {worst:.2g} "
                      f"({worst / scale:.2g} relative; allowed {allowed:.2g})")


@dataclass(frozen=True)
class Rate:
    """A convergence claim measured on the candidate and on the reference.

    ``kwargs(x, rng)``: the candidate's inputs at grid value ``x`` (data drawn from ``rng``);
    ``error(kwargs, output)``: the error of ``case.output`` of one run (excess risk, duality gap,
    regret, estimation error; > 0). Both implementations run ``repeats`` times per grid value with
    the same data and the same seeds (common random numbers); :func:`reference.audit.rates.fit_rate`
    fits each at ``confidence``. The candidate passes when its slope interval overlaps the
    reference's and, if the reference's interval excludes ``nearest_wrong``, its own does too.
    ``deep_grid`` / ``deep_repeats`` replace the grid under ``--deep``. ``claimed`` is the paper's
    exponent (reported beside the fits).
    """

    kwargs: Callable[[float, np.random.Generator], dict]
    error: Callable[[dict, Any], float]
    grid: tuple[float, ...]
    claimed: float
    nearest_wrong: float | None = None
    repeats: int = 6
    deep_grid: tuple[float, ...] | None = None
    deep_repeats: int | None = None
    what: str = "error against n"
    confidence: float = 0.99
    property: ClassVar[str] = "rate"


@dataclass(frozen=True)
class Refuses:
    """The candidate must raise on the case's inputs with ``change(kwargs)`` merged in (a dict of the
    arguments to replace): an input outside the domain the privacy proof needs (``what`` says which)."""

    change: Callable[[dict], dict]
    what: str
    property: ClassVar[str] = "validation"


def _with_nan(kwargs: dict, name: str) -> dict:
    arr = np.array(kwargs[name], dtype=float)
    arr.flat[0] = np.nan
    return {name: arr}


def generic_refusals(kwargs: dict, array_args: tuple[str, ...] = ()) -> tuple[Refuses, ...]:
    """The refusals every case gets from its inputs (the package's standard: bad input gets a clear
    error): epsilon 0 and -1, delta 1.5 and -0.1, rho, a noise scale or a sensitivity of -1, and a NaN
    in the first array argument."""
    out = []
    if isinstance(kwargs.get("epsilon"), (int, float)):
        out += [Refuses(lambda kw: {"epsilon": 0.0}, "epsilon = 0"),
                Refuses(lambda kw: {"epsilon": -1.0}, "epsilon = -1")]
    if isinstance(kwargs.get("delta"), (int, float)):
        out += [Refuses(lambda kw: {"delta": 1.5}, "delta = 1.5"),
                Refuses(lambda kw: {"delta": -0.1}, "delta = -0.1")]
    for name in ("rho", "sigma", "scale", "sensitivity"):
        if isinstance(kwargs.get(name), (int, float)):
            out.append(Refuses(lambda kw, name=name: {name: -1.0}, f"{name} = -1"))
    if array_args:
        name = array_args[0]
        out.append(Refuses(lambda kw, name=name: _with_nan(kw, name), f"a NaN in {name}"))
    return tuple(out)
