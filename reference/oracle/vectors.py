"""Test vectors: inputs, seed, the exact noise draws the reference consumed, and outputs.

In the manner of conformance suites' vectors, each :class:`VectorCase` names the
algorithm it exercises (an id such as ``core:gaussian_mechanism`` or
``lasso:Algorithm 2``), fixed inputs, a seed, and how to read a comparable output
from the result. :func:`run_case` runs the reference with a
:class:`~reference.rng.RecordingRng`, so the written vector carries every draw; an
implementation in any language replays those draws and must reproduce the output
within the case's stated tolerance. ``python -m reference vectors --out DIR`` writes
one JSON file per case; the format is documented in docs/conformance.md.

Cases live here (not in the algorithm modules) because this module, like the
auditor, sits above the algorithms: it runs them and reads their results.
"""

from __future__ import annotations

import contextlib
import importlib
import re
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from ..errors import ParameterError
from ..rng import RecordingRng, ReplayRng
from ..rng import _plain as _jsonable   # arrays and numpy scalars to plain JSON values

FORMAT_VERSION = 1


class ConformError(RuntimeError):
    """A failure of conform's own computation (its statistic, the reference's side of a check), not of the
    candidate: the verdict text says so, and never reads "raised ..." as if the candidate had raised it."""


class CandidateRaised(Exception):
    """The candidate raised while conform called it (the message names the exception and the run)."""


def resolve(target: str) -> Callable:
    """'package.module:function' -> the function."""
    module, sep, name = target.partition(":")
    if not sep or not module or not name:
        raise ParameterError("target", "be of the form 'package.module:function'", target)
    try:
        obj = importlib.import_module(module)
    except ImportError as exc:
        raise ParameterError("target", "name an importable module", module) from exc
    for part in name.split("."):
        if not hasattr(obj, part):
            raise ParameterError("target", f"name something defined in {module}", name)
        obj = getattr(obj, part)
    if not callable(obj):
        raise ParameterError("target", "name a callable", target)
    return obj


@dataclass(frozen=True)
class VectorCase:
    """One fixed run of an algorithm, replayable by another implementation."""

    algorithm: str
    name: str
    reference: str                              # 'module:function' of the reference implementation
    make_kwargs: Callable[[], dict]             # deterministic inputs (everything but rng)
    seed: int = 0
    output: Callable[[Any], Any] = lambda result: result
    statistic: Callable[[Any], float] | None = None   # scalar summary for distribution checks
    rtol: float = 1e-12
    atol: float = 1e-12
    n_runs: int = 2000                          # runs per side of the distribution check
    array_args: tuple[str, ...] = field(default=())
    # The argument that sets the noise, and the power of it the noise scale goes with
    # (("sigma", 1): noise ~ sigma; ("epsilon", -1): noise ~ 1/epsilon). It lets the harness build
    # an under-noised candidate (the reference at 0.8 x its noise) to measure the law check's power.
    noise_knob: tuple[str, float] | None = None
    # The privacy property: the candidate run on the case's inputs and on ``neighbour()`` (the worst
    # neighbouring input), ``privacy_runs`` times each; a Clopper-Pearson lower bound on epsilon (or
    # on mu, for Gaussian-DP claims) of ``privacy_statistic`` must not exceed the claim.
    neighbour: Callable[[], dict] | None = None
    claimed_epsilon: float | None = None
    claimed_delta: float = 0.0
    claimed_mu: float | None = None
    privacy_statistic: Callable[[Any], float] | None = None
    privacy_runs: int = 100_000
    # The levels of the case's two checks that can fail a correct candidate by chance: the law check's alpha
    # and the privacy audit's beta. reference.oracle.suite sets them to the case's share of its id's
    # false-alarm budget (FALSE_ALARM_BUDGET: the union over every law check, privacy audit and rate fit of
    # one id is at most 1e-3; docs/conformance.md).
    law_alpha: float = 1e-3
    privacy_beta: float = 1e-3
    # The reference takes ``n_draws=k`` (the building blocks' batch mode for audit harnesses: k independent
    # outputs from one call): the harness then draws the reference's side of the law check and the privacy
    # control (the reference at a scaled noise) in one call. The candidate is always called once per run.
    batch: bool = False
    # The property suite (reference.oracle.properties): the invariants that hold for this algorithm's output
    # (Feasible, Holds, Sparse, ZeroNoise), its convergence claim (a Rate), and for every property that
    # does not apply, why (property name -> reason; conform reports it as n/a with that reason).
    invariants: tuple = ()
    rate: Any = None
    not_applicable: dict = field(default_factory=dict)


def run_case(case: VectorCase, function: Callable | None = None) -> dict:
    """Run the reference (or ``function``) on the case, recording every draw."""
    function = resolve(case.reference) if function is None else function
    kwargs = case.make_kwargs()
    rng = RecordingRng(np.random.default_rng(case.seed))
    output = case.output(function(**kwargs, rng=rng))
    return {
        "format": FORMAT_VERSION,
        "algorithm": case.algorithm,
        "case": case.name,
        "reference": case.reference,
        "seed": case.seed,
        "bit_generator": "PCG64 via numpy.random.default_rng(seed)",
        "inputs": _jsonable(kwargs),
        "draws": [{"method": d.method, "kwargs": d.kwargs, "value": d.value} for d in rng.draws],
        "output": _jsonable(output),
        "tolerance": {"rtol": case.rtol, "atol": case.atol},
    }


def _inputs(vector: dict, case: VectorCase) -> dict:
    return {k: (np.asarray(v) if k in case.array_args else v) for k, v in vector["inputs"].items()}


def replay(vector: dict, case: VectorCase, function: Callable) -> tuple[bool, str]:
    """Run ``function`` on the vector's inputs and draws; compare with the recorded output."""
    rng = ReplayRng(vector["draws"])
    try:
        got = case.output(function(**_inputs(vector, case), rng=rng))
    except Exception as exc:  # report, do not crash the whole conformance run
        return False, f"raised {type(exc).__name__}: {exc}"
    if not rng.exhausted:
        return False, "consumed fewer draws than the reference"
    want = np.asarray(vector["output"], dtype=float)
    got = np.asarray(_jsonable(got), dtype=float)
    if want.shape != got.shape:
        return False, f"output shape {got.shape}, reference {want.shape}"
    if not np.allclose(got, want, rtol=case.rtol, atol=case.atol):
        return False, f"max |difference| {np.max(np.abs(got - want)):.3g} beyond rtol={case.rtol}, atol={case.atol}"
    return True, "identical within tolerance"


def _spelling(text: str) -> str:
    return re.sub(r"[\s:_]+", "_", text.strip()).lower()


def canonical_id(text: str, known) -> str:
    """The id in ``known`` that ``text`` spells: ``lasso:Algorithm 2``, ``lasso_Algorithm_2`` (as in vector
    file names) and ``lasso:algorithm_2`` are one id. Raises ParameterError naming the known ids."""
    known = sorted(set(known))
    if not isinstance(text, str):
        raise ParameterError("algorithm", f"one of {known}", text)
    if text in known:
        return text
    matches = [k for k in known if _spelling(k) == _spelling(text)]
    if len(matches) != 1:
        raise ParameterError("algorithm", f"one of {known} (':' or '_' and spaces or '_' are interchangeable)",
                             text)
    return matches[0]


def _portable(text: str) -> str:
    """Letters, digits, '.', '+' and '-' kept; every other run of characters one '_' (no spaces, colons,
    slashes or parentheses in a file name another language's tooling has to open)."""
    return re.sub(r"[^A-Za-z0-9.+-]+", "_", text).strip("_")


def vector_filename(case: VectorCase) -> str:
    """``<algorithm>__<case>.json`` in portable characters, e.g.
    ``erm_geometry_Algorithm_1_Section_3.3__l2-euclidean-scalar-cov-n40-p5-T10.json``."""
    return f"{_portable(case.algorithm)}__{_portable(case.name)}.json"


class ScaledNoise:
    """The reference with its noise multiplied by ``factor`` (through the case's noise knob):
    the realistic wrong implementation a law check must reject (0.8 x the noise)."""

    def __init__(self, case: VectorCase, factor: float):
        if case.noise_knob is None:
            raise ParameterError("case.noise_knob", "the argument that sets the noise", case.name)
        self.case, self.factor = case, float(factor)
        self.function = resolve(case.reference)

    def __call__(self, **kwargs):
        name, power = self.case.noise_knob
        kwargs[name] = kwargs[name] * self.factor ** (1.0 / power)
        return self.function(**kwargs)


def _batchable(case: VectorCase, function: Callable) -> bool:
    """Whether ``function`` is the case's reference, or the reference at a scaled noise, on a case whose
    reference has a batch mode (``case.batch``): the harness's own side of a check, never a candidate."""
    if not case.batch:
        return False
    if isinstance(function, ScaledNoise):
        return function.case.reference == case.reference
    try:
        return function is resolve(case.reference)
    except ParameterError:
        return False


def outputs(case: VectorCase, function: Callable, kwargs: dict, seeds) -> list:
    """``case.output`` of ``function`` run on ``kwargs`` once per seed (a fresh ``default_rng(seed)`` each). The
    reference's side (the reference, or it at a scaled noise: :func:`_batchable`) of a case whose reference has
    a batch mode is drawn in one call, ``n_draws=len(seeds)`` from ``default_rng(seeds[0])``: the same i.i.d.
    law, without a Python call per run. A candidate is always called once per run."""
    seeds = list(seeds)
    if seeds and _batchable(case, function):
        return [case.output(o) for o in function(**kwargs, rng=np.random.default_rng(seeds[0]), n_draws=len(seeds))]
    return [case.output(function(**kwargs, rng=np.random.default_rng(s))) for s in seeds]


def _finite_entries(out) -> str:
    """'' when ``out`` is all finite numbers, else what is not (for the verdict's text)."""
    try:
        arr = np.asarray(_jsonable(out), dtype=float)
    except Exception as exc:   # not numbers at all
        return f"the output is not numbers ({type(exc).__name__}: {exc})"
    bad = int(np.sum(~np.isfinite(arr)))
    return f"the output has {bad} non-finite entr{'y' if bad == 1 else 'ies'} (of {arr.size})" if bad else ""


def statistics(case: VectorCase, function: Callable, kwargs: dict, seeds, statistic: Callable, *,
               side: str = "candidate") -> np.ndarray:
    """``statistic`` of ``function``'s output on ``kwargs`` per seed (:func:`outputs`), each failure attributed:

    - the candidate's call raised: :class:`CandidateRaised` ("the candidate raised ...", with the run);
    - conform's statistic raised, or is not finite, on the candidate's output: a :class:`ConformError` when the
      output is finite numbers (a numerical failure of conform's own), else a :class:`CandidateRaised`-free
      message naming the candidate's non-finite or unreadable output (its output is what is wrong);
    - anything on the reference's side (``side="reference"``): a :class:`ConformError`."""
    seeds = list(seeds)
    if side == "reference" or _batchable(case, function):      # the harness's own side (batched where it can be)
        side = "reference"
        try:
            outs = outputs(case, function, kwargs, seeds)
        except Exception as exc:
            raise ConformError(f"conform's own reference sample failed: {type(exc).__name__}: {exc}") from exc
        pairs = list(enumerate(outs, start=1))
    else:
        pairs = []
        for i, s in enumerate(seeds, start=1):
            try:
                result = function(**kwargs, rng=np.random.default_rng(s))
            except Exception as exc:
                raise CandidateRaised(f"the candidate raised {type(exc).__name__}: {exc} (run {i} of {len(seeds)})") \
                    from exc
            try:
                pairs.append((i, case.output(result)))
            except Exception as exc:
                raise CandidateRaised(f"the candidate's result could not be read as the case's output (run {i}): "
                                      f"{type(exc).__name__}: {exc}") from exc
    values = []
    whose = "the reference's" if side == "reference" else "the candidate's"
    for i, out in pairs:
        try:
            value = float(statistic(out))
        except Exception as exc:
            bad = _finite_entries(out)
            if bad and side != "reference":
                raise CandidateRaised(f"{bad} (run {i}): conform's statistic could not be computed on it "
                                      f"({type(exc).__name__}: {exc})") from exc
            raise ConformError(f"conform's own statistic failed on {whose} output (run {i}; "
                               f"{'output: ' + bad if bad else 'a finite output'}): {type(exc).__name__}: {exc}") \
                from exc
        if not np.isfinite(value):
            bad = _finite_entries(out)
            if bad and side != "reference":
                raise CandidateRaised(f"{bad} (run {i}): conform's law statistic is {value}, not a finite statistic")
            raise ConformError(f"conform's own statistic is not finite ({value}) on {whose} "
                               f"{'output (' + bad + ')' if bad else 'finite output'} (run {i}): a numerical failure "
                               f"of conform, not of the candidate")
        values.append(value)
    return np.array(values)


def law_check_power(case: VectorCase, factor: float = 0.8, repeats: int = 100, alpha: float | None = None,
                    seed: int = 1, n_runs: int | None = None) -> tuple[int, int]:
    """How often the distribution check rejects the reference run at ``factor`` x its noise:
    (rejections, repeats), each repeat with fresh seeds. With ``factor=1`` it measures the false
    alarm rate (the candidate is the reference itself). ``n_runs``: runs a side (the case's by default);
    ``alpha``: the check's level (the case's, ``case.law_alpha``, by default)."""
    candidate = ScaledNoise(case, factor) if factor != 1.0 else resolve(case.reference)
    seeds = np.random.SeedSequence(seed).generate_state(repeats)
    rejected = sum(not distribution_check(case, candidate, n_runs=n_runs, alpha=alpha, seed=int(s))[0]
                   for s in seeds)
    return rejected, repeats


# The reference's side of the law and privacy checks, kept only inside reference_side_cache() (None: off).
_REFERENCE_SIDE: dict | None = None


@contextlib.contextmanager
def reference_side_cache():
    """Within the block, the reference's side of :func:`distribution_check` (its sample) and the privacy
    control (the reference at a scaled noise, :class:`ScaledNoise`) are computed once per case, run count
    and seed, and reused. For running many candidates against the same cases (the conform kill matrix,
    reference/mutants/conform.py); off by default, so that a change to the reference is always seen."""
    global _REFERENCE_SIDE
    previous, _REFERENCE_SIDE = _REFERENCE_SIDE, ({} if _REFERENCE_SIDE is None else _REFERENCE_SIDE)
    try:
        yield
    finally:
        _REFERENCE_SIDE = previous


def privacy_check(case: VectorCase, function: Callable, runs: int | None = None, beta: float | None = None,
                  seed: int = 20261123) -> tuple[bool, float, str]:
    """Empirical privacy of ``function`` at the case's worst neighbouring pair.

    The candidate runs ``runs`` times on the case's inputs and on ``case.neighbour()`` with seeds
    spawned from one SeedSequence; :func:`reference.audit.stats.distinguish` (held-out threshold
    choice, Clopper-Pearson at confidence 1 - beta) turns ``privacy_statistic`` into a lower bound
    on epsilon (or mu). The check fails when the lower bound exceeds the claim: a false alarm
    against a private candidate has probability at most beta (the case's ``privacy_beta`` by default: its share
    of the id's false-alarm budget). Returns (passed, lower bound, message).
    """
    beta = case.privacy_beta if beta is None else float(beta)
    if _REFERENCE_SIDE is not None and isinstance(function, ScaledNoise) and function.case is case:
        key = ("privacy", case.algorithm, case.name, function.factor, runs, beta, seed)
        if key not in _REFERENCE_SIDE:
            _REFERENCE_SIDE[key] = _privacy_check(case, function, runs, beta, seed)
        return _REFERENCE_SIDE[key]
    return _privacy_check(case, function, runs, beta, seed)


def _privacy_check(case: VectorCase, function: Callable, runs: int | None, beta: float,
                   seed: int = 20261123) -> tuple[bool, float, str]:
    from ..audit.cases import HeldOut
    from ..audit.stats import distinguish

    if case.neighbour is None or case.privacy_statistic is None:
        raise ParameterError("case.neighbour", "a neighbouring input and a privacy statistic", case.name)
    runs = case.privacy_runs if runs is None else runs
    children = np.random.SeedSequence(seed).spawn(2 * runs)
    sides = []
    side = "reference" if isinstance(function, ScaledNoise) else "candidate"    # the control is the reference's
    try:
        for kwargs, seeds in ((case.make_kwargs(), children[:runs]), (case.neighbour(), children[runs:])):
            sides.append(statistics(case, function, kwargs, seeds, case.privacy_statistic, side=side))
    except (CandidateRaised, ConformError) as exc:
        return False, float("nan"), str(exc)
    if case.claimed_mu is not None:
        result = distinguish(sides[0], sides[1], delta=0.0, beta=beta, rule=HeldOut(), criterion="mu")
        bound, claim, name = result.mu_lower_bound, case.claimed_mu, "mu"
    else:
        result = distinguish(sides[0], sides[1], delta=case.claimed_delta, beta=beta, rule=HeldOut())
        bound, claim, name = result.epsilon_lower_bound, case.claimed_epsilon, "epsilon"
    ok = bound <= claim
    return ok, float(bound), (f"{name} lower bound {bound:.3f} {'<=' if ok else '>'} claimed {claim:.3f} "
                              f"({runs} runs a side, beta = {beta:.2g})")


#: Values closer than this (relative to their size, absolute below 1) are one category of the
#: chi-square law check: a port that sums in another order rounds differently, and a last-bit
#: difference is not a different law. Far below any noise the cases draw.
LEVEL_RTOL = 1e-9


def _levels(values: np.ndarray, rtol: float = LEVEL_RTOL) -> np.ndarray:
    """Each value's category: sorted distinct values, consecutive ones within ``rtol`` merged."""
    distinct = np.unique(values)
    starts = [0]
    for i in range(1, distinct.size):
        if distinct[i] - distinct[i - 1] > rtol * max(1.0, abs(distinct[i]), abs(distinct[i - 1])):
            starts.append(i)
    category_of_distinct = np.searchsorted(np.array(starts), np.arange(distinct.size), side="right") - 1
    return category_of_distinct[np.searchsorted(distinct, values)]


def two_sample_p_value(ours: np.ndarray, theirs: np.ndarray) -> tuple[float, str | None]:
    """The law check's test: chi-square homogeneity when the two samples take at most 50 distinct values
    (values within :data:`LEVEL_RTOL` of each other counted as one), else two-sample Kolmogorov-Smirnov.
    Returns (p value, test name); (1.0, None) when both samples are one and the same constant."""
    from scipy import stats

    ours, theirs = np.asarray(ours, dtype=float), np.asarray(theirs, dtype=float)
    category = _levels(np.concatenate([ours, theirs]))
    n_levels = int(category.max()) + 1 if category.size else 0
    if n_levels <= 50:
        mine, other = category[:ours.size], category[ours.size:]
        table = np.array([[np.sum(mine == k) for k in range(n_levels)], [np.sum(other == k) for k in range(n_levels)]])
        table = table[:, table.sum(axis=0) > 0]
        if table.shape[1] < 2:
            return 1.0, None
        return float(stats.chi2_contingency(table)[1]), "chi-square homogeneity"
    return float(stats.ks_2samp(ours, theirs).pvalue), "two-sample KS"


def law_check_power_resampled(case: VectorCase, factor: float = 0.8, runs: int | None = None, pool: int = 4,
                              repeats: int = 400, alpha: float | None = None, seed: int = 1) -> float:
    """:func:`law_check_power` estimated by resampling, for cases where each repeat costs minutes.

    One pool of ``pool * runs`` statistics is drawn from the reference and one from the reference at
    ``factor`` x its noise (fresh seeds); each of ``repeats`` law checks compares ``runs`` values drawn
    without replacement from each pool. A random subset of i.i.d. draws is itself i.i.d., so every
    repeat is a law check on valid samples; repeats share draws, so the estimate varies more than a
    binomial proportion would (with pool = 4 two subsamples share a quarter of their values on
    average). Returns the fraction of repeats that reject (at ``factor=1``: the false-alarm rate). ``alpha``:
    the check's level (the case's ``law_alpha`` by default).
    """
    alpha = case.law_alpha if alpha is None else float(alpha)
    runs = case.n_runs if runs is None else int(runs)
    candidate = ScaledNoise(case, factor) if factor != 1.0 else resolve(case.reference)
    reference = resolve(case.reference)
    kwargs = case.make_kwargs()
    children = np.random.SeedSequence(seed).spawn(2 * pool * runs)

    def sample(fn, seeds):
        return np.array([float(case.statistic(out)) for out in outputs(case, fn, kwargs, seeds)])

    ours, theirs = sample(reference, children[:pool * runs]), sample(candidate, children[pool * runs:])
    gen = np.random.default_rng(seed)
    rejected = 0
    for _ in range(repeats):
        p_value, test = two_sample_p_value(gen.choice(ours, runs, replace=False), gen.choice(theirs, runs, replace=False))
        rejected += test is not None and p_value < alpha
    return rejected / repeats


def distribution_check(case: VectorCase, function: Callable, n_runs: int | None = None, alpha: float | None = None,
                       seed: int = 20261121) -> tuple[bool, float, str]:
    """Black-box check: do ``function`` and the reference have the same output law?

    Both are run ``n_runs`` times on the case's inputs with independent seeds (spawned
    from one SeedSequence, so the check is deterministic). The case's scalar statistic is
    compared by a two-sample Kolmogorov-Smirnov test, or by a chi-square test of
    homogeneity when the statistic takes at most 50 distinct values. The false-alarm
    rate against a correct implementation is at most ``alpha`` (KS is conservative on
    ties; the case's ``law_alpha`` by default, its share of the id's false-alarm budget).
    Returns (passed, p_value, message).
    """
    alpha = case.law_alpha if alpha is None else float(alpha)
    if case.statistic is None:
        raise ParameterError("case.statistic", "a scalar summary for distribution checks", case.name)
    n_runs = case.n_runs if n_runs is None else n_runs
    reference = resolve(case.reference)
    children = np.random.SeedSequence(seed).spawn(2 * n_runs)
    kwargs = case.make_kwargs()

    try:
        key = ("law", case.algorithm, case.name, n_runs, seed)
        if _REFERENCE_SIDE is not None and key in _REFERENCE_SIDE:
            ours = _REFERENCE_SIDE[key]
        else:
            ours = statistics(case, reference, kwargs, children[:n_runs], case.statistic, side="reference")
            if _REFERENCE_SIDE is not None:
                _REFERENCE_SIDE[key] = ours
        theirs = statistics(case, function, kwargs, children[n_runs:], case.statistic)
    except (CandidateRaised, ConformError) as exc:
        return False, 0.0, str(exc)
    p_value, test = two_sample_p_value(ours, theirs)
    if test is None:
        return True, 1.0, "both always return the same value"
    ok = p_value >= alpha
    return ok, p_value, f"{test} p = {p_value:.3g} (alpha = {alpha:.2g}, {n_runs} runs each)"
