"""Run audit cases and report, claim by claim: claimed, certified, measured, verdict.

API
---
run_case(case, *, quick=False, beta=0.05, executor=None, samples=None, progress=None) -> AuditRow
run_audit(paper=None, *, quick=False, beta=0.05, executor=None, cases=None, progress=None,
          samples=None) -> list[AuditRow]
run_audit_command(args, *, cases=None) -> int      (``python -m reference audit``)
discover_cases(paper=None) -> list[case]           (every reference.audit.cases_* module's audit_cases())
make_executor(workers=None, scheduler=None)        (a concurrent.futures executor)

Parallelism and seeds. A privacy case's draws are split into chunks of
``case.chunk`` draws; chunk i of side s (D, D', control on D, control on D') is
seeded by child i of ``SeedSequence([AUDIT_SEED, hash(claim, title), s])``. A
rate case's trial (grid index i, repeat r) is seeded by child i*repeats + r. The
chunks are the unit of work sent to the executor, and results are reassembled in
chunk order, so the numbers are bit-identical whatever the executor and however
many workers it has.

Verdicts (privacy): ``refuted`` when a statistically valid lower bound (at
confidence 1 - beta) or the exact epsilon exceeds the claimed epsilon (or the
lower bound on mu exceeds the claimed mu, for Gaussian claims); ``confirmed``
when not refuted and the accountant certifies the claimed epsilon;
``unproven`` otherwise. Rates: ``consistent`` (the relation holds and the
slope's interval contains the claimed exponent), ``inconsistent`` (the relation
or the explicit bound fails), ``unproven`` (allowed by the relation, but the
interval excludes the claimed exponent). A rate row's negative control is
detected when the same rule does not call it ``consistent``.
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import importlib
import json
import math
import os
import pickle
import pkgutil
import sys
import textwrap
import time
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Callable, Sequence

import numpy as np

from .._validate import check_probability
from ..claims import Claim
from ..errors import AuditError, ParameterError
from .cases import ExactCase, PrivacyCase, RateCase
from .exact import exact_epsilon
from .rates import fit_rate
from .stats import distinguish, gaussian_epsilon

AUDIT_SEED = 20_260_101          # the root of every seed the audit uses (fixed: audits are reproducible)
REL_TOL = 1e-9                   # floating-point slack when comparing a certified epsilon to a claim

VERDICTS = ("confirmed", "unproven", "refuted", "consistent", "inconsistent")


@dataclass
class AuditRow:
    """One row of the report. Fields that do not apply are None."""

    claim: str
    paper: str
    kind: str                       # the claim's kind (privacy, utility, ...)
    check: str                      # empirical | exact | rate
    title: str
    verdict: str
    key: str = ""                   # short stable key: the claim id and the case's place among its cases, "#k"
    claimed_epsilon: float | None = None
    claimed_delta: float | None = None
    certified_epsilon: float | None = None
    epsilon_lower_bound: float | None = None
    exact_epsilon: float | None = None
    claimed_mu: float | None = None
    mu_lower_bound: float | None = None
    gdp_epsilon: float | None = None            # epsilon at claimed_delta on the mu_lower_bound Gaussian curve
    negative_control_detected: bool | None = None
    negative_control_measured: float | None = None      # its epsilon lower bound (or exact epsilon)
    negative_control_mu_lower_bound: float | None = None
    negative_control_gdp_epsilon: float | None = None   # the control's mu bound as epsilon at claimed_delta
    negative_control_note: str | None = None
    claimed_slope: float | None = None
    fitted_slope: float | None = None
    slope_lower: float | None = None
    slope_upper: float | None = None
    bound_respected: bool | None = None
    relation: str | None = None                 # rate rows: equal | at_most | at_least (the rule's relation)
    tolerance: float | None = None              # rate rows: the rule's tolerance on the exponent
    confidence: float | None = None             # rate rows: confidence of the slope's bootstrap interval
    rule: str | None = None                     # rate rows: the rule the verdict used, in words
    calibration: str = ""                       # paper | certified | "" (a building block)
    erratum: str = ""                           # the docs/errata.md entry about this case
    finding: str = ""                           # set when a refuted/unproven row is a finding about the paper
    nearest_wrong_slope: float | None = None
    excludes_nearest_wrong: bool | None = None     # the slope's interval excludes the nearest wrong exponent
    audit: str = ""                             # privacy rows: black-box (output only) | white-box (whole transcript)
    measured_epsilon: float | None = None       # privacy rows: the best measured value (see measured_epsilon())
    tightness: float | None = None              # measured_epsilon / certified_epsilon
    tightness_target: float | None = None       # the tightness the row is meant to reach (white-box rows)
    tightness_note: str = ""                    # why a row falls short of its target (the exact value, erratum)
    samples: int = 0
    seconds: float = 0.0
    beta: float | None = None
    detail: str = ""
    plot_data: dict = field(default_factory=dict, repr=False)

    def to_json(self) -> dict:
        """The row as JSON values; an infinite epsilon (disjoint supports) is the string "inf". ``plot`` holds
        what the figures draw (a rate row's runs), so figures can be redrawn from the JSON alone."""
        out = asdict(self)
        out["plot"] = out.pop("plot_data")
        return {k: _jsonable(v) for k, v in out.items()}

    @classmethod
    def from_json(cls, data: dict) -> "AuditRow":
        """The row :meth:`to_json` wrote ("inf" back to infinity; a privacy row's plot from its fields when the
        file predates the ``plot`` member)."""
        names = {f.name for f in fields(cls)} - {"plot_data"}
        row = cls(**{k: _unjson(v) for k, v in data.items() if k in names})
        row.plot_data = _unjson(data.get("plot") or {})
        if not row.plot_data and row.check != "rate":
            exact = row.check == "exact"
            row.plot_data = {"claimed": row.claimed_epsilon,
                             "lower": row.exact_epsilon if exact else row.epsilon_lower_bound,
                             "certified": row.certified_epsilon, "control": row.negative_control_measured,
                             "gdp": row.gdp_epsilon, "control_gdp": row.negative_control_gdp_epsilon}
        return row

    @property
    def failed(self) -> bool:
        """The audit itself failed: a privacy check whose negative control went undetected."""
        return self.negative_control_detected is False


def _jsonable(v):
    """JSON values: +infinity as the string "inf", NaN as None, numpy scalars and tuples as Python's."""
    if isinstance(v, dict):
        return {k: _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, (np.floating, float)):
        v = float(v)
        return "inf" if math.isinf(v) and v > 0 else (None if math.isnan(v) else v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.bool_):
        return bool(v)
    return v


def _unjson(v):
    if isinstance(v, dict):
        return {k: _unjson(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_unjson(x) for x in v]
    return math.inf if v == "inf" else v


def read_json(path: str) -> tuple[dict, list[AuditRow]]:
    """The metadata and rows of an ``audit --json`` file."""
    with open(path, encoding="utf-8") as fh:
        payload = json.load(fh)
    return payload.get("metadata", {}), [AuditRow.from_json(r) for r in payload["rows"]]


# ---------------------------------------------------------------------------
# Executors

class SerialExecutor(cf.Executor):
    """Runs submitted calls at once in this process (workers=1, and tests)."""

    def submit(self, fn, /, *args, **kwargs):
        future: cf.Future = cf.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller through the future
            future.set_exception(exc)
        return future


def make_executor(workers: int | None = None, scheduler: str | None = None) -> cf.Executor:
    """A process pool of ``workers`` (default: all cores), serial for 1, or a Dask cluster's executor."""
    if scheduler is not None:
        try:
            from dask.distributed import Client
        except ImportError as exc:
            raise AuditError("--scheduler needs the optional 'dask' extra: pip install "
                             "'dp-optimization-reference[dask]'") from exc
        client = Client(scheduler)
        return client.get_executor()
    if workers is None:
        workers = os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ParameterError("workers", "an integer >= 1", workers)
    if workers == 1:
        return SerialExecutor()
    return cf.ProcessPoolExecutor(max_workers=workers)


# ---------------------------------------------------------------------------
# Seeds and chunks

def _case_key(case) -> int:
    digest = hashlib.sha256(f"{case.claim}\x00{case.title}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def chunk_seeds(case, side: int, n_chunks: int) -> list[np.random.SeedSequence]:
    """The seeds of a case's chunks (or trials) on one side; independent of how they are run."""
    return np.random.SeedSequence([AUDIT_SEED, _case_key(case), side]).spawn(n_chunks)


def _signature(outputs: Any, n: int) -> tuple:
    if isinstance(outputs, np.ndarray):
        if outputs.ndim == 0 or outputs.shape[0] != n:
            raise AuditError(f"the sampler returned an array of shape {outputs.shape}; expected {n} outputs on axis 0")
        return ("ndarray", outputs.dtype.kind, outputs.shape[1:])
    if isinstance(outputs, (list, tuple)):
        if len(outputs) != n:
            raise AuditError(f"the sampler returned {len(outputs)} outputs; expected {n}")
        kinds = {type(o).__name__ for o in outputs}
        shapes = {np.shape(o) for o in outputs}
        if len(kinds) != 1 or len(shapes) != 1:
            raise AuditError(f"the sampler's outputs change type or shape between calls: {sorted(kinds)}, "
                             f"{sorted(shapes)}")
        return ("list", kinds.pop(), shapes.pop())
    raise AuditError(f"the sampler must return an ndarray or a list of outputs, got {type(outputs).__name__}")


def _draw_chunk(sampler, statistic, data, seed: np.random.SeedSequence, n: int):
    """Worker: n outputs of sampler on data, mapped to n finite scalars. Returns (stats, signature)."""
    rng = np.random.default_rng(seed)
    outputs = sampler(data, rng, n)
    sig = _signature(outputs, n)
    if statistic is None:
        stats = np.asarray(outputs, dtype=float)
        if stats.ndim == 2 and stats.shape[1] == 1:
            stats = stats[:, 0]
        if stats.ndim != 1:
            raise AuditError(f"outputs of shape {np.shape(outputs)} need a statistic mapping each to a scalar")
    else:
        stats = np.asarray(statistic(outputs), dtype=float)
        if stats.shape != (n,):
            raise AuditError(f"the statistic returned shape {stats.shape}; expected ({n},)")
    if not np.all(np.isfinite(stats)):
        raise AuditError("the sampler or statistic returned NaN or infinity; no sound bound is possible")
    return stats, sig


def _run_trial(trial, x: float, seed: np.random.SeedSequence) -> float:
    value = trial(x, np.random.default_rng(seed))
    try:
        value = float(value)
    except (TypeError, ValueError) as exc:
        raise AuditError(f"a rate trial must return a float, got {type(value).__name__}") from exc
    if not math.isfinite(value) or value <= 0:
        raise AuditError(f"a rate trial returned {value!r} at x={x}; errors must be finite and > 0")
    return value


def _check_picklable(obj, what: str, executor) -> None:
    if isinstance(executor, SerialExecutor):
        return
    try:
        pickle.dumps(obj)
    except Exception as exc:  # noqa: BLE001
        raise AuditError(f"{what} cannot be sent to worker processes (use a module-level function or "
                         f"functools.partial, not a lambda or closure): {exc}") from exc


SIDES = ("D", "D'", "control on D", "control on D'")
PROGRESS_EVERY = 10.0            # seconds between progress lines inside one long case


def _sample_side(case: PrivacyCase, sampler, data, side: int, n_total: int, executor,
                 progress: Callable[[str], None] | None = None) -> tuple[np.ndarray, tuple]:
    sizes = [case.chunk] * (n_total // case.chunk)
    if n_total % case.chunk:
        sizes.append(n_total % case.chunk)
    seeds = chunk_seeds(case, side, len(sizes))
    futures = [executor.submit(_draw_chunk, sampler, case.statistic, data, s, k) for s, k in zip(seeds, sizes)]
    parts, sigs = [], set()
    last = time.perf_counter()
    for i, f in enumerate(futures, 1):
        stats, sig = f.result()
        parts.append(stats)
        sigs.add(sig)
        if progress and time.perf_counter() - last > PROGRESS_EVERY:
            last = time.perf_counter()
            progress(f"      {SIDES[side]}: {sum(sizes[:i])}/{n_total} draws")
    if len(sigs) != 1:
        raise AuditError(f"the sampler's output type changed between calls: {sorted(map(str, sigs))}")
    return np.concatenate(parts), sigs.pop()


# ---------------------------------------------------------------------------
# Running one case

def _claim_info(claim_id: str) -> tuple[str, str]:
    from ..claims import all_claims

    claims = all_claims()
    if claim_id not in claims:
        raise AuditError(f"audit case names claim {claim_id!r}, which is not registered in any CLAIMS")
    claim = claims[claim_id]
    return claim.paper, claim.kind


def _certified(case) -> float | None:
    if case.certify is not None:
        value = case.certify()
        return None if value is None else float(value)
    return None if case.certified_epsilon is None else float(case.certified_epsilon)


def _privacy_verdict(refuted: bool, certified: float | None, claimed: float) -> str:
    if refuted:
        return "refuted"
    if certified is not None and certified <= claimed * (1 + REL_TOL):
        return "confirmed"
    return "unproven"


def _run_privacy(case: PrivacyCase, row: AuditRow, n: int, beta: float, executor, progress=None) -> None:
    _check_picklable((case.sampler, case.negative_control, case.statistic, case.dataset, case.neighbour),
                     f"case {case.claim!r}", executor)
    gaussian = case.gaussian_mu is not None
    level = beta / 2 if gaussian else beta       # two claims (epsilon and mu) tested on the same draws

    def measure(sampler, first_side):
        x_d, sig_d = _sample_side(case, sampler, case.dataset, first_side, n, executor, progress)
        x_dp, sig_dp = _sample_side(case, sampler, case.neighbour, first_side + 1, n, executor, progress)
        if sig_d != sig_dp:
            raise AuditError(f"the sampler's output type differs between D and D': {sig_d} vs {sig_dp}")
        eps = distinguish(x_d, x_dp, delta=case.claimed_delta, beta=level, rule=case.thresholds)
        mu = None
        if gaussian:
            mu = distinguish(x_d, x_dp, delta=case.claimed_delta, beta=level,
                             rule=case.mu_thresholds or case.thresholds, criterion="mu")
        return eps, mu, (x_d, x_dp)

    eps, mu, _ = measure(case.sampler, 0)
    ctrl_eps, ctrl_mu, _ = measure(case.negative_control, 2)

    row.epsilon_lower_bound = eps.epsilon_lower_bound
    refuted = eps.epsilon_lower_bound > case.claimed_epsilon
    detected = ctrl_eps.epsilon_lower_bound > case.claimed_epsilon
    row.negative_control_measured = ctrl_eps.epsilon_lower_bound
    if gaussian:
        row.claimed_mu = float(case.gaussian_mu)
        row.mu_lower_bound = mu.mu_lower_bound
        if case.claimed_delta > 0:
            row.gdp_epsilon = gaussian_epsilon(case.claimed_delta, mu.mu_lower_bound)
        refuted = refuted or mu.mu_lower_bound > case.gaussian_mu
        detected = detected or ctrl_mu.mu_lower_bound > case.gaussian_mu
        row.negative_control_mu_lower_bound = ctrl_mu.mu_lower_bound
        if case.claimed_delta > 0:
            row.negative_control_gdp_epsilon = gaussian_epsilon(case.claimed_delta, ctrl_mu.mu_lower_bound)
    row.negative_control_detected = bool(detected)
    row.samples = 4 * n
    if case.exact is not None:
        row.exact_epsilon = float(case.exact())
        refuted = refuted or row.exact_epsilon > case.claimed_epsilon * (1 + REL_TOL)
    row.verdict = _privacy_verdict(refuted, row.certified_epsilon, case.claimed_epsilon)
    row.detail = (f"{eps.rule}; best test: S {'>' if eps.event == 'upper' else '<='} {eps.threshold:.4g}, "
                  f"{eps.order}, counts {eps.k_num}/{eps.n_num} vs {eps.k_den}/{eps.n_den}")
    row.plot_data = {"claimed": case.claimed_epsilon, "lower": eps.epsilon_lower_bound,
                     "certified": row.certified_epsilon, "control": ctrl_eps.epsilon_lower_bound,
                     "gdp": row.gdp_epsilon, "control_gdp": row.negative_control_gdp_epsilon}


def _run_exact(case: ExactCase, row: AuditRow) -> None:
    p, q = case.distributions()
    value = exact_epsilon(p, q, case.claimed_delta)
    cp, cq = case.negative_control()
    control = exact_epsilon(cp, cq, case.claimed_delta)
    row.exact_epsilon = float(value)
    row.negative_control_measured = float(control)
    row.negative_control_detected = bool(control > case.claimed_epsilon * (1 + REL_TOL))
    refuted = value > case.claimed_epsilon * (1 + REL_TOL)
    row.verdict = _privacy_verdict(refuted, row.certified_epsilon, case.claimed_epsilon)
    row.samples = 0
    row.detail = f"exact over {len(p)} outcomes (mpmath)"
    row.plot_data = {"claimed": case.claimed_epsilon, "lower": float(value),
                     "certified": row.certified_epsilon, "control": float(control)}


def _rate_verdict(fit, case: RateCase, bound_respected: bool | None) -> str:
    """consistent: the relation holds, the interval contains the claimed exponent, the bound (if any) holds;
    inconsistent: the relation or the bound fails; unproven: allowed by the relation (a tolerance, or an
    upper-bound theorem on a faster decay) but the interval excludes the claimed exponent."""
    if bound_respected is False or not fit.consistent_with(case.claimed_slope, case.relation, case.tolerance):
        return "inconsistent"
    if fit.excludes(case.claimed_slope):
        return "unproven"
    return "consistent"


def _fit_trials(case: RateCase, trial, side: int, grid, repeats: int, executor):
    seeds = chunk_seeds(case, side, len(grid) * repeats)
    futures = [executor.submit(_run_trial, trial, float(x), seeds[i * repeats + r])
               for i, x in enumerate(grid) for r in range(repeats)]
    values = np.array([f.result() for f in futures], dtype=float).reshape(len(grid), repeats)
    fit = fit_rate(grid, values, np.random.default_rng(np.random.SeedSequence([AUDIT_SEED, _case_key(case),
                                                                                99 + side])),
                   confidence=case.confidence)
    bound_respected = None
    if case.bound is not None:
        means = values.mean(axis=1)
        bound_respected = bool(all(m <= case.bound(x) for m, x in zip(means, grid)))
    return values, fit, bound_respected


def _run_rate(case: RateCase, row: AuditRow, quick: bool, executor) -> None:
    _check_picklable((case.trial, case.negative_control), f"case {case.claim!r}", executor)
    grid = tuple(case.quick_grid) if quick and case.quick_grid is not None else tuple(case.grid)
    repeats = case.quick_repeats if quick and case.quick_repeats is not None else case.repeats
    values, fit, row.bound_respected = _fit_trials(case, case.trial, 0, grid, repeats, executor)
    row.claimed_slope = case.claimed_slope
    row.fitted_slope, row.slope_lower, row.slope_upper = fit.slope, fit.lower, fit.upper
    row.relation, row.tolerance, row.confidence = case.relation, float(case.tolerance), float(case.confidence)
    row.rule = rate_rule(case.relation, case.claimed_slope, case.tolerance, case.confidence)
    row.verdict = _rate_verdict(fit, case, row.bound_respected)
    row.samples = len(grid) * repeats
    row.detail = (f"slope {fit.slope:.3f} [{fit.lower:.3f}, {fit.upper:.3f}]; rule: {row.rule}; "
                  f"over {len(grid)} grid values x {repeats} repeats")
    if case.nearest_wrong_slope is not None:
        row.nearest_wrong_slope = float(case.nearest_wrong_slope)
        row.excludes_nearest_wrong = bool(fit.excludes(case.nearest_wrong_slope))
        row.detail += (f"; {'excludes' if row.excludes_nearest_wrong else 'does NOT exclude'} the nearest wrong "
                       f"exponent {case.nearest_wrong_slope:g}")
    if case.negative_control is not None:
        ctrl_values, ctrl, ctrl_bound = _fit_trials(case, case.negative_control, 1, grid, repeats, executor)
        # detected: the same rule refuses the control the verdict 'consistent'
        row.negative_control_detected = _rate_verdict(ctrl, case, ctrl_bound) != "consistent"
        row.negative_control_measured = ctrl.slope
        row.negative_control_note = case.negative_control_note
        row.samples *= 2
        row.detail += (f"; negative control slope {ctrl.slope:.3f} [{ctrl.lower:.3f}, {ctrl.upper:.3f}] "
                       f"{'detected' if row.negative_control_detected else 'NOT detected'}")
    row.plot_data = {"grid": list(map(float, grid)), "means": values.mean(axis=1).tolist(),
                     "values": values.tolist(), "slope": fit.slope, "intercept": fit.intercept,
                     "lower": fit.lower, "upper": fit.upper, "claimed_slope": case.claimed_slope,
                     "nearest_wrong": row.nearest_wrong_slope, "control_slope": row.negative_control_measured,
                     "control_means": (ctrl_values.mean(axis=1).tolist() if case.negative_control is not None
                                       else None)}


def measured_epsilon(row: AuditRow) -> float | None:
    """The row's measured epsilon: the exact epsilon of an exact row; for a sampled row the larger of the
    distribution-free lower bound and, for a Gaussian claim, the epsilon its GDP lower bound on mu implies
    at the claimed delta (the Gaussian-DP route: for a Gaussian transcript that is the tight estimate)."""
    if row.check == "exact":
        return row.exact_epsilon
    values = [v for v in (row.epsilon_lower_bound, row.gdp_epsilon) if v is not None]
    return max(values) if values else None


def _set_tightness(row: AuditRow, case) -> None:
    """tightness = measured / certified; a row below its target says why (the case's note, and the exact value)."""
    row.measured_epsilon = measured_epsilon(row)
    row.tightness_target = getattr(case, "tightness_target", None)
    c, m = row.certified_epsilon, row.measured_epsilon
    if c is not None and m is not None and math.isfinite(c) and c > 0 and math.isfinite(m):
        row.tightness = m / c
    target = row.tightness_target
    if target is None:        # a black-box row that falls short keeps the case's note (see _note_short_black_box_rows)
        if row.audit == "black-box" and row.tightness is not None and row.tightness < BLACK_BOX_NOTE_BELOW:
            row.tightness_note = getattr(case, "tightness_note", "")
        return
    if row.tightness is not None and row.tightness >= target:
        return
    why = getattr(case, "tightness_note", "")
    if row.exact_epsilon is not None and c is not None and math.isfinite(c) and c > 0 and row.check != "exact":
        ratio = row.exact_epsilon / c
        exact = f"exact {_fmt(row.exact_epsilon)} / certified {_fmt(c)} = {_fmt(ratio, 3)}"
        if ratio >= target:
            why = (f"sampling error only: {exact} at this pair, so more draws close the gap "
                   f"({row.samples // 4} per side here)")
        else:
            why = (why + "; " if why else "") + exact
    row.tightness_note = f"tightness below the target {target:g}" + (f": {why}" if why else " (no reason given)")


def rate_rule(relation: str, claimed: float, tolerance: float, confidence: float) -> str:
    """The rule a rate verdict uses, in words (what :meth:`RateFit.consistent_with` checks, and the
    containment of the claimed exponent that :func:`_rate_verdict` adds for 'consistent')."""
    pct = f"{100 * confidence:g}%"
    contain = f"; 'consistent' also needs it to contain {claimed:.4g}"
    if relation == "equal":
        return (f"equal within {tolerance:g}: the {pct} interval must meet "
                f"[{claimed - tolerance:.4g}, {claimed + tolerance:.4g}]" + contain)
    if relation == "at_most":
        return (f"at most {claimed:.4g} (tolerance {tolerance:g}): the {pct} interval must not lie wholly "
                f"above {claimed + tolerance:.4g}" + contain)
    return (f"at least {claimed:.4g} (tolerance {tolerance:g}): the {pct} interval must not lie wholly "
            f"below {claimed - tolerance:.4g}" + contain)


def run_case(case, *, quick: bool = False, beta: float = 0.05, executor: cf.Executor | None = None,
             samples: int | None = None, progress: Callable[[str], None] | None = None,
             key: str | None = None) -> AuditRow:
    """Run one case; ``samples`` overrides the case's draws per side (tests use small values).

    ``key`` is the row's short stable key (:func:`run_audit` numbers a claim's cases "#1", "#2", ...;
    default: the claim id).
    """
    beta = check_probability(beta, "beta")
    if samples is not None and (isinstance(samples, bool) or not isinstance(samples, int) or samples < 1):
        raise ParameterError("samples", "an integer N >= 1 (draws per side)", samples)
    if not isinstance(case, (PrivacyCase, ExactCase, RateCase)):
        raise AuditError(f"not an audit case: {type(case).__name__}")
    executor = SerialExecutor() if executor is None else executor
    paper, kind = _claim_info(case.claim)
    start = time.perf_counter()
    check = "rate" if isinstance(case, RateCase) else "exact" if isinstance(case, ExactCase) else "empirical"
    row = AuditRow(claim=case.claim, paper=paper, kind=kind, check=check, title=case.title, verdict="unproven",
                   key=case.claim if key is None else key, beta=None if check == "rate" else beta,
                   calibration=getattr(case, "calibration", ""), erratum=getattr(case, "erratum", ""))
    if isinstance(case, (PrivacyCase, ExactCase)):
        row.claimed_epsilon = float(case.claimed_epsilon)
        row.claimed_delta = float(case.claimed_delta)
        row.certified_epsilon = _certified(case)
        row.negative_control_note = case.negative_control_note
    if isinstance(case, PrivacyCase):
        n = samples if samples is not None else (case.quick_samples if quick else case.samples)
        _run_privacy(case, row, n, beta, executor, progress)
    elif isinstance(case, ExactCase):
        _run_exact(case, row)
    else:
        _run_rate(case, row, quick, executor)
    for name in ("epsilon_lower_bound", "exact_epsilon", "mu_lower_bound", "fitted_slope"):
        value = getattr(row, name)
        if value is not None and math.isnan(value):
            raise AuditError(f"{case.claim}: the audit produced NaN for {name}")
    if check != "rate":
        row.audit = case.audit
        _set_tightness(row, case)
    if row.calibration == "paper" and row.verdict in ("refuted", "unproven", "inconsistent"):
        row.finding = f"finding about the paper: {row.verdict} for the calibration as printed" + (
            f"; erratum {row.erratum} (docs/errata.md)" if row.erratum else "")
    row.seconds = round(time.perf_counter() - start, 3)
    return row


# ---------------------------------------------------------------------------
# Discovery and the whole audit

def discover_cases(paper: str | None = None) -> list:
    """Every case of every ``reference.audit.cases_*`` module (``audit_cases()``), optionally one paper's."""
    package = importlib.import_module(__package__)   # this package by name (a renamed copy walks itself)

    found = []
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if not info.name.startswith("cases_"):
            continue
        module = importlib.import_module(f"{__package__}.{info.name}")
        make = getattr(module, "audit_cases", None)
        if make is None:
            continue
        for case in make():
            if not isinstance(case, (PrivacyCase, ExactCase, RateCase)):
                raise AuditError(f"{info.name}.audit_cases() returned a {type(case).__name__}, not a case")
            if paper is None or case.claim.partition(":")[0] == paper:
                found.append(case)
    return found


def run_audit(paper: str | None = None, *, quick: bool = False, beta: float = 0.05,
              executor: cf.Executor | None = None, cases: Sequence | None = None,
              progress: Callable[[str], None] | None = None, samples: int | None = None) -> list[AuditRow]:
    """Run every case (or the given ones) and return the rows; raises on the first error (no partial report)."""
    beta = check_probability(beta, "beta")
    todo = discover_cases(paper) if cases is None else list(cases)
    if cases is None and paper is not None and not todo:
        from ..claims import require_built
        from ..errors import NotBuiltError

        require_built(paper, "audit cases")      # unknown, or nothing registered at all
        built = sorted({c.claim.partition(":")[0] for c in discover_cases()})
        raise NotBuiltError(paper, "audit cases", built)
    keys, seen = [], {}
    for case in todo:                      # keys count every case, so --quick keeps the full audit's keys
        seen[case.claim] = seen.get(case.claim, 0) + 1
        keys.append(f"{case.claim} #{seen[case.claim]}")
    retired = [(k, c) for k, c in zip(keys, todo) if getattr(c, "retired", "")]
    if retired:                            # a retired row keeps its key (never reused) but never runs
        keys = [k for k, c in zip(keys, todo) if not getattr(c, "retired", "")]
        todo = [c for c in todo if not getattr(c, "retired", "")]
        if progress:
            progress("\n".join([f"{len(retired)} retired rows not run:"] + [
                textwrap.fill(f"{k}: {c.retired}", TABLE_WIDTH, initial_indent="  - ", subsequent_indent="    ")
                for k, c in retired]))
    if quick:
        skipped = [c for c in todo if not getattr(c, "in_quick", True)]
        keys = [k for k, c in zip(keys, todo) if getattr(c, "in_quick", True)]
        todo = [c for c in todo if getattr(c, "in_quick", True)]
        if skipped and progress:
            progress("\n".join([f"--quick: {len(skipped)} full-audit-only rows skipped:"] + [
                textwrap.fill(f"{c.claim}: {c.title}", TABLE_WIDTH, initial_indent="  - ", subsequent_indent="    ")
                for c in skipped]))
    if isinstance(executor, cf.ProcessPoolExecutor) and len(todo) > 1:
        rows = _run_rows_in_parallel(todo, keys, quick=quick, beta=beta, executor=executor, samples=samples,
                                     progress=progress)
    else:
        rows = []
        for i, (case, key) in enumerate(zip(todo, keys), 1):
            if progress:
                progress(f"[{i}/{len(todo)}] {case.claim} - {case.title} ...")
            row = run_case(case, quick=quick, beta=beta, executor=executor, samples=samples, progress=progress,
                           key=key)
            if progress:
                progress(f"[{i}/{len(todo)}]   {row.verdict} in {row.seconds:.1f} s")
            rows.append(row)
    _note_short_black_box_rows(rows)
    return rows


def _run_one_row(case_bytes: bytes, key: str, quick: bool, beta: float, samples: int | None) -> AuditRow:
    """A worker process runs one whole row, its chunks one after another (``SerialExecutor``)."""
    return run_case(pickle.loads(case_bytes), quick=quick, beta=beta, executor=SerialExecutor(), samples=samples,
                    key=key)


def _run_rows_in_parallel(todo, keys, *, quick, beta, executor, samples, progress) -> list[AuditRow]:
    """On a local process pool the rows themselves run in parallel, a whole row per worker: much of a row's
    time is spent in its own process (exact laws in mpmath, the accountant, white-box likelihoods), which
    chunk-level parallelism cannot share out. The numbers are the same as a serial run's (every chunk is
    seeded by its case and index, never by where it runs); the rows come back in the table's order. A case
    that cannot be pickled runs in this process afterwards, its chunks on the pool."""
    futures, local = {}, []
    seconds = _last_seconds()
    longest_first = sorted(range(len(todo)), key=lambda i: -seconds.get(keys[i], _expected_cost(todo[i], quick)))
    for i in longest_first:
        try:
            payload = pickle.dumps(todo[i])
        except Exception:          # noqa: BLE001 - a lambda or local function in the case: run it here
            local.append(i)
            continue
        futures[executor.submit(_run_one_row, payload, keys[i], quick, beta, samples)] = i
    rows: dict[int, AuditRow] = {}
    done = 0
    for future in cf.as_completed(futures):
        i = futures[future]
        rows[i] = future.result()              # an error in a row propagates: no partial report
        done += 1
        if progress:
            progress(f"[{done}/{len(todo)}] {todo[i].claim} - {todo[i].title}: {rows[i].verdict} in "
                     f"{rows[i].seconds:.1f} s")
    for i in local:
        rows[i] = run_case(todo[i], quick=quick, beta=beta, executor=executor, samples=samples, progress=progress,
                           key=keys[i])
        done += 1
        if progress:
            progress(f"[{done}/{len(todo)}] {todo[i].claim} - {todo[i].title}: {rows[i].verdict} in "
                     f"{rows[i].seconds:.1f} s")
    return [rows[i] for i in range(len(todo))]


def _last_seconds() -> dict[str, float]:
    """Each row's seconds in the committed full audit (docs/audit-results.json, in a source checkout), by key."""
    path = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "docs", "audit-results.json")
    try:
        with open(path, encoding="utf-8") as fh:
            return {r["key"]: float(r["seconds"]) for r in json.load(fh)["rows"]}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def _expected_cost(case, quick: bool) -> float:
    """A rough size of a row, to start the long ones first (so no worker is left with a long row at the end)."""
    if isinstance(case, PrivacyCase):
        return float(case.quick_samples if quick else case.samples) * (4 if case.gaussian_mu is not None else 2)
    if isinstance(case, RateCase):
        return 1e5
    return 1e3


BLACK_BOX_NOTE_BELOW = 0.75     # a black-box row (no target of its own) below this says why


def _note_short_black_box_rows(rows: list[AuditRow]) -> None:
    """A black-box privacy row with no tightness target of its own that reaches less than
    :data:`BLACK_BOX_NOTE_BELOW` of the certified epsilon says why: the case's own note, and the white-box
    row of the same claim and calibration, where there is one, with how far that row reaches (a black-box
    row sees the released output through one scalar statistic; the white-box row sees the transcript)."""
    for r in rows:
        if (r.audit != "black-box" or r.tightness_target is not None or r.tightness is None
                or r.tightness >= BLACK_BOX_NOTE_BELOW or r.tightness_note.startswith("black-box")):
            continue
        why = [r.tightness_note] if r.tightness_note else []
        c = r.certified_epsilon
        if r.exact_epsilon is not None and c is not None and math.isfinite(c) and c > 0:
            why.append(f"the released output's exact epsilon is {_fmt(r.exact_epsilon)} = "
                       f"{_fmt(r.exact_epsilon / c, 3)} of the certified {_fmt(c)} (the accountant does not see "
                       f"what makes this output more private); the sampled bound reaches "
                       f"{_fmt((r.measured_epsilon or 0.0) / r.exact_epsilon, 3)} of the exact value")
        if r.mu_lower_bound is not None and r.claimed_mu:
            why.append(f"on the Gaussian curve: mu >= {_fmt(r.mu_lower_bound)} = "
                       f"{_fmt(r.mu_lower_bound / r.claimed_mu, 3)} of the noise's mu {_fmt(r.claimed_mu)}")
        white = [w for w in rows if w.claim == r.claim and w.audit == "white-box" and w.tightness is not None]
        if white:
            best = max(white, key=lambda w: w.tightness)
            why.append(f"the white-box row {best.key} ({best.calibration or 'its'} calibration) reaches "
                       f"{_fmt(best.tightness, 3)} of its certified epsilon"
                       + (" (its note says why it falls short)" if best.tightness_note else ""))
        r.tightness_note = (f"black-box tightness {_fmt(r.tightness, 3)} (below {BLACK_BOX_NOTE_BELOW:g}): "
                            + ("; ".join(why) if why else "no reason given"))


def _fmt(value, digits: int = 4) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "NO"
    if isinstance(value, float):
        return "inf" if math.isinf(value) else f"{value:.{digits}g}"
    return str(value)


TABLE_WIDTH = 120                # the default table fits this many columns; --wide gives one long line per row


def _box(r: AuditRow) -> str:
    return {"black-box": "black", "white-box": "white"}.get(r.audit, "-")


def _claimed(r: AuditRow) -> str:
    if r.check == "rate":
        return f"slope {_fmt(r.claimed_slope)}"
    return f"eps {_fmt(r.claimed_epsilon)}" + (f", d {r.claimed_delta:.0e}" if r.claimed_delta else "")


def _measured(r: AuditRow) -> str:
    if r.check == "rate":
        return f"slope {_fmt(r.fitted_slope, 3)}"
    if r.check == "exact":
        return f"exact {_fmt(r.exact_epsilon)}"
    return f">= {_fmt(r.epsilon_lower_bound)}"


def _verdict(r: AuditRow) -> str:
    """The verdict cell; a refuted privacy row names what refuted it (the lower bound on epsilon, the exact
    epsilon, or the GDP lower bound on mu), so the reason is in the column, not only in the notes."""
    if r.verdict != "refuted" or r.check == "rate":
        return r.verdict
    by = []
    if r.exact_epsilon is not None and r.claimed_epsilon is not None and r.exact_epsilon > r.claimed_epsilon:
        by.append("exact")
    if (r.epsilon_lower_bound is not None and r.claimed_epsilon is not None
            and r.epsilon_lower_bound > r.claimed_epsilon):
        by.append("lb")
    if r.mu_lower_bound is not None and r.claimed_mu is not None and r.mu_lower_bound > r.claimed_mu:
        by.append("mu")
    return f"refuted:{by[0]}" if by else "refuted"     # the first of exact, lb, mu that exceeds its claim


def _notes(r: AuditRow) -> list[str]:
    """What a row says beyond its columns: the GDP estimate, the rate rule, a finding about the paper."""
    notes = []
    if r.mu_lower_bound is not None:
        gdp = f"GDP: mu >= {_fmt(r.mu_lower_bound)} (claimed mu {_fmt(r.claimed_mu)})"
        if r.gdp_epsilon is not None:
            gdp += f"; on the Gaussian curve that is eps {_fmt(r.gdp_epsilon)} at delta {r.claimed_delta:g}"
        notes.append(gdp)
    if r.check == "rate":
        conf = f"{100 * r.confidence:g}% " if r.confidence is not None else ""
        notes.append(f"fitted slope {_fmt(r.fitted_slope)}, {conf}interval [{_fmt(r.slope_lower)}, "
                     f"{_fmt(r.slope_upper)}]" + ("" if r.bound_respected is None else
                                                 f"; the proof's explicit bound is "
                                                 f"{'respected' if r.bound_respected else 'EXCEEDED'}"))
        notes.append(f"rule: {r.rule or r.relation}")
        if r.nearest_wrong_slope is not None:
            notes.append(f"the interval {'excludes' if r.excludes_nearest_wrong else 'does NOT exclude'} the nearest "
                         f"wrong exponent {_fmt(r.nearest_wrong_slope)}")
        if r.negative_control_detected is not None:
            notes.append(f"negative control ({r.negative_control_note}): slope {_fmt(r.negative_control_measured)}, "
                         f"{'detected' if r.negative_control_detected else 'NOT detected'}")
    if r.tightness_note:
        notes.append(r.tightness_note)
    if r.finding:
        notes.append(r.finding)
    elif r.erratum and r.verdict not in ("confirmed", "consistent"):
        notes.append(f"{r.verdict} for the {r.calibration or 'package'} calibration; see erratum {r.erratum} "
                     "(docs/errata.md)")
    if r.negative_control_detected is False:
        notes.append(f"AUDIT FAILED: the negative control ({r.negative_control_note}) was not detected")
    return notes


def _columns(rows: Sequence[AuditRow], header: tuple, cells: list[tuple]) -> list[int]:
    return [max(len(h), *(len(c[i]) for c in cells)) if cells else len(h) for i, h in enumerate(header)]


def format_table(rows: Sequence[AuditRow], wide: bool = False, width: int = TABLE_WIDTH) -> str:
    """The report. Default: at most ``width`` columns, each row's case title and notes on the lines below it,
    nothing cut. ``wide``: one line per row with every field (as wide as it needs)."""
    if wide:
        header = ("key", "case", "check", "box", "claimed", "certified", "exact", "measured", "tight", "verdict",
                  "neg.ctrl", "samples", "s", "notes")
        cells = [(r.key or r.claim, r.title, r.check, _box(r), _claimed(r), _fmt(r.certified_epsilon),
                  _fmt(r.exact_epsilon), _measured(r), _fmt(r.tightness, 3), _verdict(r),
                  _fmt(r.negative_control_detected), str(r.samples), f"{r.seconds:.1f}",
                  " | ".join(_notes(r))) for r in rows]
        widths = _columns(rows, header, cells)
        out = ["  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip(),
               "  ".join("-" * w for w in widths)]
        out.extend("  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip() for line in cells)
        return "\n".join(out)

    header = ("claim #k", "box", "claimed", "certified", "exact", "measured", "tight", "verdict", "ctrl",
              "samples", "s")
    cells = [(r.key or r.claim, _box(r), _claimed(r), _fmt(r.certified_epsilon), _fmt(r.exact_epsilon),
              _measured(r), _fmt(r.tightness, 3), _verdict(r), _fmt(r.negative_control_detected), str(r.samples),
              f"{r.seconds:.1f}") for r in rows]
    widths = _columns(rows, header, cells)
    rest = sum(widths[1:]) + 2 * (len(widths) - 1)
    widths[0] = max(len(header[0]), min(widths[0], width - rest))     # longer keys get a line of their own
    right = {9, 10}                                                     # numbers right-aligned

    def line(values) -> str:
        return "  ".join(v.rjust(w) if i in right else v.ljust(w)
                         for i, (v, w) in enumerate(zip(values, widths))).rstrip()

    indent = "    "
    out = [line(header), "  ".join("-" * w for w in widths)]
    for r, c in zip(rows, cells):
        if len(c[0]) > widths[0]:
            out.append(c[0])
            c = ("",) + c[1:]
        out.append(line(c))
        out.extend(textwrap.wrap(r.title, width, initial_indent=indent, subsequent_indent=indent + "  "))
        for note in _notes(r):
            out.extend(textwrap.wrap(note, width, initial_indent=indent + "- ", subsequent_indent=indent + "  "))
    return "\n".join(out)


LEGEND = (
    ("claim #k", "the registered claim (python -m reference claims) and the case's place among that "
                        "claim's cases; the line below is the case; the JSON has both as 'key' and 'title'."),
    ("claimed", "what the paper states: (eps, delta) for privacy, the exponent of the error in a rate."),
    ("certified", "the epsilon the package's accountant proves at the claimed delta for the noise actually "
                  "used ('-': it cannot prove any)."),
    ("measured", "'>= x': a lower bound on epsilon valid at confidence 1 - beta (distinguishing test on "
                 "sampled outputs); 'exact x': the exact epsilon of the output law (mpmath); 'slope x': the "
                 "fitted log-log slope of the error."),
    ("box", "privacy rows: 'black' (black-box) tests the released output through a scalar statistic; 'white' "
            "(white-box) tests the whole released transcript (every noisy release given the previous ones) with "
            "its log-likelihood ratio, the Neyman-Pearson optimal statistic, at the worst pair found."),
    ("exact", "the exact epsilon at the claimed delta of what the row releases at its pair, where it is computable "
              "(Gaussian transcripts: mu = ||shift|| / sigma on the GDP curve; independent steps: their composed "
              "privacy-loss distribution; finite transcripts: their exact law)."),
    ("tight", "tightness = measured / certified: how much of the accountant's epsilon the audit reaches (measured "
              "is the exact value of an exact row, else the larger of the lower bound and the GDP estimate). A "
              "row below its target says why below it, with the exact value where the accountant is loose."),
    ("confirmed", "not refuted, and the accountant certifies the claimed epsilon."),
    ("unproven", "privacy: not refuted, but the accountant cannot certify the claim (no leak was found, and no "
                 "proof the package can check covers it either); rate: allowed by the rule's tolerance, but the "
                 "interval excludes the claimed exponent."),
    ("refuted", "the measured lower bound (or the exact epsilon), or the GDP bound on mu, exceeds the claim; the "
                "column names which: 'refuted:lb' (the lower bound on eps), 'refuted:exact', "
                "'refuted:mu' (the GDP bound; mu and its claim in the notes)."),
    ("consistent", "the slope's bootstrap interval agrees with the claimed exponent under the rule printed "
                   "below the row (relation equal / at_most / at_least, with its tolerance) and contains it; "
                   "inconsistent: the relation (or an explicit bound) fails; a rate row the relation allows but "
                   "whose interval excludes the claimed exponent is 'unproven'. A rate row's ctrl is a trial "
                   "with a wrong exponent, detected when the same rule does not call it consistent."),
    ("ctrl", "the negative control: the same test run on a deliberately mis-calibrated variant (e.g. half the "
             "noise; for a rate, a run with the wrong exponent) must flag it; 'NO' means the audit itself failed "
             "(exit 1)."),
    ("GDP", "for Gaussian noise, 'mu >= m' is a lower bound on the Gaussian-DP parameter (claimed mu = "
            "sensitivity/sigma); the eps it implies on the Gaussian curve is evidence about the GDP claim, not a "
            "distribution-free bound."),
    ("finding", "a refuted or unproven row of a paper's printed calibration is the package's finding about "
                "the paper, not a failure of the package; its erratum in docs/errata.md says why and names the "
                "certified alternative (calibration=\"certified\")."),
)


def format_legend(rows: Sequence[AuditRow], width: int = TABLE_WIDTH) -> str:
    """The legend printed after the table (only the entries the rows use, and the column meanings)."""
    verdicts = {r.verdict for r in rows} | ({"consistent"} if any(r.check == "rate" for r in rows) else set())
    used = {"claim #k", "claimed", "certified", "measured", "ctrl"} | verdicts
    if any(r.check != "rate" for r in rows):
        used |= {"box", "exact", "tight"}
    if any(r.mu_lower_bound is not None for r in rows):
        used.add("GDP")
    if any(r.finding for r in rows):
        used.add("finding")
    out = ["Legend"]
    name_width = max(len(n) for n, _ in LEGEND)
    for name, text in LEGEND:
        if name in used:
            out.extend(textwrap.wrap(text, width, initial_indent=f"  {name:<{name_width}}  ",
                                     subsequent_indent=" " * (name_width + 4)))
    return "\n".join(out)


def _check_plots_available() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:
        raise AuditError("--plots needs the optional 'plots' extra (matplotlib): "
                         "pip install 'dp-optimization-reference[plots]'") from exc


VERDICT_COLOURS = {"confirmed": "#1a9850", "consistent": "#1a9850", "unproven": "#f08c00",
                   "refuted": "#d7301f", "inconsistent": "#d7301f"}


def _plot_privacy(plt, rows: Sequence[AuditRow], title: str):
    """One figure: a row per case; x is epsilon. Claimed |, certified triangle, measured (bar: lower bound,
    diamond: exact) coloured by verdict, GDP estimate o, negative control x on the same epsilon scale."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    n = len(rows)
    height = 1.0 * n + 2.4
    fig, ax = plt.subplots(figsize=(14, height))
    fig.subplots_adjust(left=0.29, right=0.78, top=1 - 0.6 / height, bottom=1.5 / height)
    ys = np.arange(n)[::-1]

    def control_eps(r):   # detection on the mu scale is shown as the epsilon it implies, like the row's GDP
        d = r.plot_data
        c = d["control"]
        if d.get("control_gdp") is not None and (c is None or d["control_gdp"] > c):
            return d["control_gdp"], True
        return c, False

    finite = [v for r in rows for v in (r.plot_data["claimed"], r.plot_data["lower"], r.plot_data["certified"],
                                        r.plot_data.get("gdp"))
              if v is not None and math.isfinite(v)]
    edge = max(2.5 * max(r.plot_data["claimed"] for r in rows), 1.15 * max(finite))
    # one large value (a refuted printed calibration's certificate of 54.7) must not squash the rows at
    # epsilon 0.1 against 0: past a factor 30 between the smallest and the largest value, x is logarithmic
    positive = [v for v in finite if v > 0]
    log_x = bool(positive) and edge / min(positive) > 30
    floor = min(positive) / 3 if log_x else 0.0

    def at(v: float) -> float:          # where a value is drawn: clipped to the axis (0 sits at a log axis' floor)
        return max(min(v, edge), floor)

    def fraction(v: float) -> float:    # how far along the axis a drawn value sits
        return math.log(v / floor) / math.log(edge / floor) if log_x else v / edge

    for y, r in zip(ys, rows):
        d = r.plot_data
        colour = VERDICT_COLOURS.get(r.verdict, "grey")
        ax.axhspan(y - 0.5, y + 0.5, color="0.96" if y % 2 else "white", zorder=0)
        measured = d["lower"]
        shown = at(measured) if measured is not None else None
        if r.check == "exact":
            ax.plot([shown], [y], "D", color=colour, markersize=9, zorder=4)
        else:
            if shown is not None and shown > floor:
                ax.barh(y, shown - floor, left=floor, height=0.36, color=colour, alpha=0.85, zorder=3)
        if measured is not None:
            ax.text(shown, y + 0.12, ("   exact " if r.check == "exact" else "   >= ") + f"{measured:.3g}", fontsize=8,
                    color=colour, va="bottom", ha="left", zorder=6,
                    bbox=dict(facecolor="white", alpha=0.8, edgecolor="none", pad=0.3))
        if d.get("gdp") is not None:
            ax.plot([at(d["gdp"])], [y], "o", mfc="none", mec=colour, mew=2, markersize=10, zorder=4)
        ax.plot([d["claimed"]], [y], "|", color="black", markersize=26, mew=3, zorder=5)
        if d["certified"] is not None and math.isfinite(d["certified"]):
            ax.plot([at(d["certified"])], [y + 0.28], "v", color="#2166ac", markersize=9, zorder=5)
        else:
            ax.text(d["claimed"], y + 0.28, "  not certifiable by the accountant", fontsize=7.5, color="#2166ac",
                    va="center", zorder=5)
        ctrl, via_gdp = control_eps(r)
        if ctrl is not None:
            cx = at(ctrl) if math.isfinite(ctrl) else edge
            ax.plot([cx], [y - 0.28], "x", color="#7b3294", markersize=10, mew=2.5, zorder=5)
            note = ("inf" if not math.isfinite(ctrl) else f"{ctrl:.3g}") + (" (GDP)" if via_gdp else "")
            if not math.isfinite(ctrl) or ctrl > edge:
                note = "-> " + note
            text = f"ctrl {note}" + ("" if r.negative_control_detected else " NOT DETECTED")
            left = fraction(cx) < 0.8
            ax.text(cx, y - 0.28, f"   {text}" if left else f"{text}   ", fontsize=7.5, color="#7b3294",
                    va="center", ha="left" if left else "right")
        verdict = r.verdict + (f"\nfinding about the paper:\n{r.erratum}" if r.finding else "")
        ax.text(1.01, y, verdict, transform=ax.get_yaxis_transform(), fontsize=9, color=colour, va="center",
                fontweight="bold")
    labels = [f"{r.key}\n" + textwrap.fill(r.title, 50) for r in rows]
    ax.set_yticks(ys, labels, fontsize=8.5)
    ax.set_ylim(-0.6, n - 0.4)
    if log_x:
        ax.set_xscale("log")
        ax.set_xlim(floor, edge * 1.05)
    else:
        ax.set_xlim(0, edge * 1.02)
    ax.set_xlabel("epsilon at the claimed delta (lower bounds at 95% confidence; exact values exact)"
                  + ("; log scale" if log_x else ""), fontsize=10)
    ax.set_title(title, fontsize=12, loc="left")
    handles = [Line2D([], [], color="black", marker="|", ls="none", markersize=14, mew=3, label="claimed epsilon"),
               Line2D([], [], color="#2166ac", marker="v", ls="none", markersize=8,
                      label="certified by the accountant (noise used)"),
               Patch(color="0.5", label="measured lower bound (sampled)"),
               Line2D([], [], color="0.5", marker="D", ls="none", markersize=8, label="exact epsilon"),
               Line2D([], [], color="0.5", marker="o", mfc="none", mew=2, ls="none", markersize=9,
                      label="GDP estimate as epsilon"),
               Line2D([], [], color="#7b3294", marker="x", ls="none", markersize=9, mew=2.5,
                      label="negative control (must exceed the claim)")]
    handles += [Patch(color=c, label=v) for v, c in VERDICT_COLOURS.items() if v in ("confirmed", "unproven",
                                                                                       "refuted")]
    fig.legend(handles=handles, fontsize=8.5, loc="lower center", bbox_to_anchor=(0.5, 0.0), ncol=5,
               frameon=False)
    return fig


def _plot_rate(plt, r: AuditRow):
    """log-log error against the grid: the runs, their means, the fit with its interval as a band, the claimed
    slope and the nearest wrong one (when the case names it), each through the means' centre."""
    d = r.plot_data
    if not d.get("grid"):
        return _plot_rate_summary(plt, r)
    grid = np.array(d["grid"], dtype=float)
    means = np.array(d["means"], dtype=float)
    fig, ax = plt.subplots(figsize=(7.5, 5.2))
    colour = VERDICT_COLOURS.get(r.verdict, "grey")
    if d.get("values"):
        vals = np.array(d["values"], dtype=float)
        for j in range(vals.shape[1]):
            ax.plot(grid, vals[:, j], ".", color="0.6", markersize=5, zorder=2,
                    label="single runs" if j == 0 else None)
    ax.plot(grid, means, "o", color="black", markersize=7, zorder=4, label="mean error")
    cx, cy = np.exp(np.mean(np.log(grid))), np.exp(np.mean(np.log(means)))
    xs = np.geomspace(grid.min(), grid.max(), 50)

    def through_centre(slope):
        return cy * (xs / cx) ** slope

    if d.get("lower") is not None:
        lo, hi = through_centre(d["lower"]), through_centre(d["upper"])
        ax.fill_between(xs, np.minimum(lo, hi), np.maximum(lo, hi), color=colour, alpha=0.2, zorder=1,
                        label=f"{100 * (r.confidence or 0.95):g}% interval of the slope "
                              f"[{d['lower']:.3f}, {d['upper']:.3f}]")
    ax.plot(xs, through_centre(d["slope"]), "-", color=colour, lw=2, zorder=3, label=f"fitted slope {d['slope']:.3f}")
    ax.plot(xs, through_centre(d["claimed_slope"]), "--", color="black", lw=1.8, zorder=3,
            label=f"claimed slope {d['claimed_slope']:.4g}" +
                  (f" ({r.relation}, tolerance {r.tolerance:g})" if r.relation else ""))
    if d.get("nearest_wrong") is not None:
        ax.plot(xs, through_centre(d["nearest_wrong"]), ":", color="#d7301f", lw=2, zorder=3,
                label=f"nearest wrong slope {d['nearest_wrong']:.4g}")
    if d.get("control_slope") is not None and d.get("control_means"):
        # the control's own runs on the same axes: its means and its fitted slope through their centre
        cm = np.array(d["control_means"], dtype=float)
        ccx, ccy = np.exp(np.mean(np.log(grid))), np.exp(np.mean(np.log(cm)))
        ax.plot(grid, cm, "s", color="#7b3294", markersize=6, zorder=4, mfc="none", mew=1.5)
        ax.plot(xs, ccy * (xs / ccx) ** d["control_slope"], "-.", color="#7b3294", lw=1.5, zorder=3,
                label=f"negative control (squares): fitted slope {d['control_slope']:.3f}, "
                      + ("detected" if r.negative_control_detected else "NOT detected"))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.xaxis.set_major_formatter(matplotlib_ticker().ScalarFormatter())
    ax.xaxis.set_minor_formatter(matplotlib_ticker().NullFormatter())
    ax.set_xticks(grid)
    ax.set_xticklabels([f"{g:g}" for g in grid], rotation=0, fontsize=9)
    ax.set_xlabel(_rate_axis(r.title), fontsize=10)
    ax.set_ylabel("error the theorem bounds (log scale)", fontsize=10)
    ax.set_title(f"{r.key}: {r.verdict}\n" + textwrap.fill(r.title, 75), fontsize=10, loc="left", color="black")
    ax.legend(fontsize=8, loc="best")
    ax.grid(True, which="major", alpha=0.3)
    fig.tight_layout()
    return fig


def _plot_rate_summary(plt, r: AuditRow):
    """A rate row whose runs the results file does not hold (written before the JSON kept them): the fitted
    slope with its interval against the claimed and the nearest wrong exponent, on one axis."""
    colour = VERDICT_COLOURS.get(r.verdict, "grey")
    fig, ax = plt.subplots(figsize=(7.5, 2.8))
    marks = [(r.claimed_slope, "claimed", "black", "--")]
    if r.nearest_wrong_slope is not None:
        marks.append((r.nearest_wrong_slope, "nearest wrong", "#d7301f", ":"))
    if r.negative_control_measured is not None:
        marks.append((r.negative_control_measured, "negative control", "#7b3294", "-."))
    if r.slope_lower is not None:
        ax.plot([r.slope_lower, r.slope_upper], [0, 0], "-", color=colour, lw=8, alpha=0.35,
                label=f"{100 * (r.confidence or 0.95):g}% interval [{r.slope_lower:.3f}, {r.slope_upper:.3f}]")
    ax.plot([r.fitted_slope], [0], "o", color=colour, markersize=9, label=f"fitted slope {r.fitted_slope:.3f}")
    for value, label, c, style in marks:
        if value is not None:
            ax.axvline(value, color=c, ls=style, lw=1.8, label=f"{label} {value:.4g}")
    ax.set_yticks([])
    ax.set_xlabel("log-log slope of the error", fontsize=10)
    ax.set_title(f"{r.key}: {r.verdict} (the runs are not stored in this results file)\n"
                 + textwrap.fill(r.title, 75), fontsize=9, loc="left")
    ax.legend(fontsize=7.5, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    fig.tight_layout()
    return fig


def matplotlib_ticker():
    import matplotlib.ticker

    return matplotlib.ticker


def _rate_axis(title: str) -> str:
    """The grid variable named in the case title ('... against n (...)', '... vs T'), else 'grid value'."""
    for marker in (" against ", " vs "):
        if marker in title:
            word = title.split(marker, 1)[1].split()[0].strip("(),:")
            if word:
                return f"{word} (log scale)"
    return "grid value (log scale)"


def plot_names(rows: Sequence[AuditRow]) -> list[str]:
    """The file names :func:`write_plots` gives, stable across runs (the docs link them): one
    ``privacy_<paper>.png`` per paper with privacy rows, one ``rate_<key>.png`` per rate row (its key, e.g.
    ``core:Gaussian mean release rate #1``, in letters, digits and ``_``)."""
    names = [f"privacy_{paper}.png" for paper in dict.fromkeys(r.paper for r in rows if r.check != "rate")]
    for r in rows:
        if r.check == "rate":
            names.append("rate_" + "".join(c if c.isalnum() else "_" for c in r.key or r.claim).strip("_") + ".png")
    return names


PLOT_STAMP_KEY = "Source"       # the PNG text chunk that names the results a figure was drawn from


def write_plots(rows: Sequence[AuditRow], directory: str, stamp: str = "") -> list[str]:
    """PNG plots a reader understands without the docs: one privacy figure per paper (claimed, certified,
    measured, negative control, verdict colours), one figure per rate row (fit, interval, claimed slope).

    ``stamp`` (e.g. the results file's sha256 and the run's commit) is printed at the foot of each figure and
    stored in its PNG text chunk ``Source``, so a test can tell a figure from the results it belongs to."""
    _check_plots_available()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(directory, exist_ok=True)
    written = []
    names = iter(plot_names(rows))
    privacy = [r for r in rows if r.check != "rate"]
    figures = [(_plot_privacy, [r for r in privacy if r.paper == paper],
                f"Privacy audit, {paper}: claimed vs certified vs measured epsilon")
               for paper in dict.fromkeys(r.paper for r in privacy)]
    figures += [(_plot_rate, r, None) for r in rows if r.check == "rate"]
    for draw, what, title in figures:
        fig = draw(plt, what, title) if title else draw(plt, what)
        if stamp:
            fig.text(0.995, 0.998, "drawn from " + stamp, fontsize=6, color="0.45", ha="right", va="top")
        path = os.path.join(directory, next(names))
        fig.savefig(path, dpi=90, metadata={PLOT_STAMP_KEY: stamp} if stamp else None)
        plt.close(fig)
        written.append(path)
    return written


def results_stamp(path: str, metadata: dict) -> str:
    """What figures drawn from the results file ``path`` are stamped with: its name, the sha256 of its bytes,
    and the run (commit, date, quick or full) its metadata names."""
    with open(path, "rb") as fh:
        digest = hashlib.sha256(fh.read()).hexdigest()
    run = ", ".join(str(x) for x in (str(metadata.get("git_commit", "?"))[:7], metadata.get("date_utc", "?"),
                                     metadata.get("mode", "?")))
    return f"{os.path.basename(path)} sha256 {digest} ({run})"


def audit_metadata(*, quick: bool, beta: float, paper: str | None = None, workers: int | None = None,
                   scheduler: str | None = None) -> dict:
    """The ``metadata`` object of an audit report: package, commit, date, versions, and how the audit ran."""
    from .._meta import report_metadata

    return report_metadata(command="audit", mode="quick" if quick else "full", quick=bool(quick), paper=paper,
                           beta=beta, confidence=1 - beta, audit_seed=AUDIT_SEED,
                           seeds="SeedSequence([audit_seed, sha256(claim, title), side]).spawn(chunks)",
                           workers=workers, scheduler=scheduler)


def write_json(rows: Sequence[AuditRow], path: str, metadata: dict | None = None) -> None:
    """Write {"metadata": {...}, "rows": [...]} atomically (a temporary file renamed into place)."""
    payload = {"metadata": metadata if metadata is not None else audit_metadata(quick=False, beta=0.05),
               "rows": [r.to_json() for r in rows]}
    text = json.dumps(payload, indent=2, allow_nan=False, default=float)
    if path == "-":                      # standard output
        sys.stdout.write(text + "\n")
        return
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmp, path)


def redraw_from_json(path: str, *, plots: str | None = None, paper: str | None = None, wide: bool = False) -> int:
    """``audit --from-json FILE``: the table, legend and (with ``--plots DIR``) the figures of a finished run,
    without running anything; each figure is stamped with the file's sha256 and the run's commit. This is how
    docs/img/ is made from docs/audit-results.json."""
    if not os.path.isfile(path):
        raise AuditError(f"--from-json {path}: no such file")
    metadata, rows = read_json(path)
    if paper:
        rows = [r for r in rows if r.paper == paper]
    _note_short_black_box_rows(rows)
    print(format_table(rows, wide=wide))
    print()
    print(format_legend(rows))
    print()
    print(f"{len(rows)} rows read from {path} (run of {str(metadata.get('git_commit', '?'))[:7]}, "
          f"{metadata.get('date_utc', '?')}, {metadata.get('mode', '?')}); nothing was run.")
    if plots:
        stamp = results_stamp(path, metadata)
        for written in write_plots(rows, plots, stamp=stamp):
            print(f"wrote {written}", file=sys.stderr)
    return 1 if any(r.failed for r in rows) else 0


def run_audit_command(args, *, cases: Sequence | None = None) -> int:
    """``python -m reference audit``: table on stdout, progress on stderr, optional JSON and plots.

    Exit status 0 when the audit ran and every negative control was detected, 1 when a
    negative control went undetected (the audit failed). Errors propagate (exit 2 in the CLI)
    and no report file is written.
    """
    paper = getattr(args, "paper", None)
    quick = bool(getattr(args, "quick", False))
    json_path = getattr(args, "json", None)
    plots = getattr(args, "plots", None)
    if plots:
        _check_plots_available()          # fail before spending minutes
    if getattr(args, "from_json", None):
        return redraw_from_json(args.from_json, plots=plots, paper=paper, wide=bool(getattr(args, "wide", False)))
    beta = getattr(args, "beta", 0.05)

    def progress(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    start = time.perf_counter()
    executor = make_executor(getattr(args, "workers", None), getattr(args, "scheduler", None))
    try:
        rows = run_audit(paper, quick=quick, beta=beta, executor=executor, cases=cases, progress=progress,
                         samples=getattr(args, "samples", None))
    finally:
        try:
            executor.shutdown(wait=True, cancel_futures=True)
        except TypeError:        # executors without cancel_futures (Dask's ClientExecutor)
            executor.shutdown(wait=True)
    total = time.perf_counter() - start
    # with --json - the JSON alone goes to standard output, the table to standard error
    out = sys.stderr if json_path == "-" else sys.stdout
    print(format_table(rows, wide=bool(getattr(args, "wide", False))), file=out)
    print(file=out)
    print(format_legend(rows), file=out)
    failed = [r.key for r in rows if r.failed]
    refuted = [r for r in rows if r.verdict in ("refuted", "inconsistent")]
    findings = [r for r in refuted if r.finding]
    counts = ", ".join(f"{sum(r.verdict == v for r in rows)} {v}" for v in VERDICTS if any(r.verdict == v for r in rows))
    summary = [f"{len(rows)} rows in {total:.1f} s (confidence {1 - beta:g}): {counts}."]
    if findings:
        summary.append(f"{len(findings)} of the {len(refuted)} refuted/inconsistent rows are findings about a "
                       "paper's printed calibration, not failures of the package (" +
                       ", ".join(f"{r.key}: {r.erratum or 'no erratum'}" for r in findings) + ").")
    others = [r.key for r in refuted if not r.finding]
    if others:
        summary.append("Refuted or inconsistent, and not a recorded finding about a paper: " + ", ".join(others))
    if failed:
        summary.append("AUDIT FAILED: negative control not detected for: " + ", ".join(failed))
    else:
        summary.append("Every negative control was detected: the audit ran soundly (exit 0).")
    print(file=out)
    for text in summary:
        print(textwrap.fill(text, TABLE_WIDTH, subsequent_indent="  "), file=out)
    if json_path:
        write_json(rows, json_path, audit_metadata(quick=quick, beta=beta, paper=paper,
                                                   workers=getattr(args, "workers", None),
                                                   scheduler=getattr(args, "scheduler", None)))
    if plots:
        stamp = results_stamp(json_path, json.load(open(json_path, encoding="utf-8"))["metadata"]) \
            if json_path and json_path != "-" else ""
        for path in write_plots(rows, plots, stamp=stamp):
            progress(f"wrote {path}")
    return 1 if failed else 0


CLAIMS = (
    Claim("core:Audit report", "invariant",
          "The audit runs every case, gives one row per claim with the JSON fields claim, paper, kind, verdict, "
          "claimed/certified epsilon, lower bound, exact epsilon, negative control, samples, seconds, a stable key "
          "and the whole case title; results are bit-identical however trials are split across workers; no report "
          "is written when the audit fails. The JSON carries the report's metadata (version, commit, date, quick or "
          "full, seed); the table fits 120 columns without cutting a title, each rate row prints its rule, a "
          "refuted or unproven row of a paper's printed calibration names its erratum, and a legend follows.",
          "docs/audit.md (the report, verdicts and legend)"),
)
