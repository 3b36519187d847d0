"""The oracle harness: check another implementation against the reference, property by property.

``python -m reference conform MODULE:FUNCTION --algorithm ID`` runs the property suite on the
candidate, for every test-vector case of the algorithm id (see :mod:`reference.vector_cases`), and
gives one verdict per property (aggregated over the cases):

- **replay**: the candidate is called with the case's inputs and a
  :class:`~reference.rng.ReplayRng` holding the exact draws the reference consumed (by the stream
  of values: another shape or batching is fine); its output must equal the reference's within the
  case's tolerance. The check for a port that consumes randomness as the pseudocode does.
- **law**: the candidate and the reference are each run many times with fresh seeds; a two-sample
  test at alpha = 1e-3 compares the law of a scalar statistic of their outputs. The check for a
  black box that draws its noise its own way.
- **privacy** (cases that name their worst neighbouring input): an empirical distinguishability
  audit of the candidate itself at that pair, and beside it the same audit of the reference at half
  its noise, which must be flagged (else the check has no power and fails).
- **rate** (cases with a :class:`~reference.properties.Rate`): the candidate's error over a small
  grid, fitted by :func:`reference.audit.rates.fit_rate`, against the reference's fit on the same
  data and seeds: the intervals must overlap, and the candidate's must exclude the nearest wrong
  exponent where the reference's does.
- **accounting** (every case whose candidate reports a ledger or a claimed epsilon): the candidate's
  ledger, certified by this package's accountant, and its claimed epsilon equal the reference's for
  the same run (:mod:`reference.conformance_checks`).
- **validation** (every case): inputs outside the domain the privacy proof needs (epsilon <= 0, delta
  outside (0, 1), a negative scale, a NaN or a norm-violating data entry) are refused.
- **feasibility**, **sparsity**, **zero-noise** (the case's ``invariants``), **finite-shape** and
  **determinism** (every case): see :mod:`reference.properties`.

A property the case does not declare is reported ``n/a`` with the reason. The candidate passes
(exit 0) when every applicable property passes. ``--json`` prints the same as JSON
(:func:`conformance_report`; ``check_implementation(..., as_json=True)`` returns it).
The replay and law checks run under pytest too: ``pytest tests/test_conformance.py --impl
MODULE:FUNCTION --impl-algorithm ID``.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

import numpy as np

from .errors import ParameterError
from .conformance_checks import accounting_check, validation_check
from .properties import PROPERTIES, Rate, Refuses, ZeroNoise, generic_refusals
from .vectors import (VectorCase, ScaledNoise, _jsonable, cases, distribution_check, privacy_check, replay,
                      resolve, run_case)

# What --mode accepted before the property suite, mapped to property names.
_MODE_ALIASES = {"both": PROPERTIES, "all": PROPERTIES, "distribution": ("law",)}
INVARIANT_RUNS = 3     # seeds on which every declared invariant is checked


@dataclass(frozen=True)
class ConformanceRow:
    """One property on one case. ``status`` is ``pass``, ``fail`` or ``n/a`` (``passed`` is True
    for ``n/a``: a property that does not apply does not fail the candidate)."""

    algorithm: str
    case: str
    check: str
    passed: bool
    detail: str
    status: str = ""

    def __post_init__(self) -> None:
        if not self.status:
            object.__setattr__(self, "status", "pass" if self.passed else "fail")


@dataclass(frozen=True)
class PropertyVerdict:
    """One property of one algorithm, aggregated over its cases: ``fail`` if any case fails,
    ``pass`` if at least one applies and all that apply pass, ``n/a`` if none applies."""

    algorithm: str
    property: str
    verdict: str
    applicable: int
    passed: int
    detail: str
    cases: list = field(default_factory=list)


def _properties(mode: str | None) -> tuple[str, ...]:
    mode = mode or "all"
    chosen: list[str] = []
    for part in mode.split(","):
        part = part.strip()
        if part in _MODE_ALIASES:
            chosen += _MODE_ALIASES[part]
        elif part in PROPERTIES:
            chosen.append(part)
        else:
            raise ParameterError("mode", f"'all', or property names among {PROPERTIES} (comma-separated)", part)
    return tuple(p for p in PROPERTIES if p in chosen)


def _na(case: VectorCase, prop: str, default: str) -> str:
    return case.not_applicable.get(prop, default)


def case_refusals(case: VectorCase) -> tuple[Refuses, ...]:
    """The validation property's inputs for ``case``: its declared :class:`Refuses` and the generic ones
    (:func:`reference.properties.generic_refusals`) for the inputs it has."""
    declared = tuple(inv for inv in case.invariants if isinstance(inv, Refuses))
    return declared + generic_refusals(case.make_kwargs(), case.array_args)


def _seeds(case: VectorCase, k: int) -> list[int]:
    return [case.seed] + [int(s) for s in np.random.SeedSequence(case.seed).generate_state(k - 1)]


def _run(function: Callable, case: VectorCase, kwargs: dict, seed: int) -> Any:
    return case.output(function(**kwargs, rng=np.random.default_rng(seed)))


def _same(a, b) -> bool:
    a, b = np.asarray(_jsonable(a), dtype=float), np.asarray(_jsonable(b), dtype=float)
    return a.shape == b.shape and bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))))


def invariant_rows(case: VectorCase, function: Callable, props: tuple[str, ...],
                   runs: int = INVARIANT_RUNS) -> list[ConformanceRow]:
    """feasibility, sparsity, zero-noise, finite-shape and determinism of ``function`` on ``case``."""
    rows: list[ConformanceRow] = []

    def row(prop, ok, detail, status=""):
        rows.append(ConformanceRow(case.algorithm, case.name, prop, ok, detail, status))

    wanted = [p for p in ("feasibility", "sparsity", "finite-shape", "determinism") if p in props]
    outputs: list[tuple[int, Any]] = []
    if wanted:
        seeds = _seeds(case, runs)
        try:
            outputs = [(s, _run(function, case, case.make_kwargs(), s)) for s in seeds]
        except Exception as exc:   # report, do not crash the whole run
            for p in wanted:
                row(p, False, f"raised {type(exc).__name__}: {exc}")
            wanted = []
    if "finite-shape" in wanted:
        want = np.asarray(_jsonable(_run(resolve(case.reference), case, case.make_kwargs(), case.seed)), dtype=float)
        bad = []
        for s, out in outputs:
            got = np.asarray(_jsonable(out), dtype=float)
            if got.shape != want.shape:
                bad.append(f"seed {s}: shape {got.shape}, reference {want.shape}")
            elif not np.all(np.isfinite(got)):
                bad.append(f"seed {s}: {int(np.sum(~np.isfinite(got)))} non-finite entries")
        row("finite-shape", not bad, "; ".join(bad) if bad else
            f"shape {want.shape} and finite on {len(outputs)} seeds")
    if "determinism" in wanted:
        s, first = outputs[0]
        try:
            again = _run(function, case, case.make_kwargs(), s)
            ok = _same(first, again)
            detail = (f"seed {s} twice: the same output" if ok else
                      f"seed {s} twice: different outputs (randomness not only from rng?)")
        except Exception as exc:
            ok, detail = False, f"raised {type(exc).__name__}: {exc}"
        row("determinism", ok, detail)
    for prop, default in (("feasibility", "no constraint set declared for this case"),
                          ("sparsity", "the algorithm promises no sparsity here")):
        if prop not in wanted:
            continue
        declared = [inv for inv in case.invariants if inv.property == prop]
        if not declared:
            row(prop, True, _na(case, prop, default), "n/a")
            continue
        bad, good = [], []
        for inv in declared:
            kwargs = {**case.make_kwargs(), **inv.setting}
            shown = f" at {', '.join(f'{k}={v!r}' for k, v in inv.setting.items())}" if inv.setting else ""
            try:
                runs_here = outputs if not inv.setting else [(s, _run(function, case, kwargs, s)) for s, _ in outputs]
            except Exception as exc:
                bad.append(f"raised{shown} {type(exc).__name__}: {exc}")
                continue
            for s, out in runs_here:
                ok, detail = inv.check(kwargs, out)
                (good if ok else bad).append(f"seed {s}{shown}: {detail}")
        row(prop, not bad, "; ".join(bad[:3]) if bad else f"{good[0]} ({len(good)} checks)")
    if "zero-noise" in props:
        rows += _zero_noise_rows(case, function)
    return rows


def _zero_noise_rows(case: VectorCase, function: Callable) -> list[ConformanceRow]:
    declared = [inv for inv in case.invariants if isinstance(inv, ZeroNoise)]
    if not declared:
        return [ConformanceRow(case.algorithm, case.name, "zero-noise", True,
                               _na(case, "zero-noise", "no zero-noise setting declared for this case"), "n/a")]
    rows = []
    for inv in declared:
        kwargs = {**case.make_kwargs(), **inv.setting}
        shown = ", ".join(f"{k}={v!r}" for k, v in inv.setting.items())
        try:
            got = case.output(function(**kwargs, rng=np.random.default_rng(case.seed)))
        except (ValueError, ArithmeticError) as exc:    # a refusal (ParameterError is a ValueError)
            rows.append(ConformanceRow(case.algorithm, case.name, "zero-noise", True,
                                       f"the candidate does not accept {shown} ({type(exc).__name__}: {exc})",
                                       "n/a"))
            continue
        except Exception as exc:
            rows.append(ConformanceRow(case.algorithm, case.name, "zero-noise", False,
                                       f"at {shown}: raised {type(exc).__name__}: {exc}"))
            continue
        want = np.asarray(_jsonable(inv.expected({**case.make_kwargs(), **inv.setting})), dtype=float)
        got = np.asarray(_jsonable(got), dtype=float)
        if got.shape != want.shape:
            ok, detail = False, f"at {shown}: output shape {got.shape}, noiseless reference {want.shape}"
        elif np.allclose(got, want, rtol=inv.rtol, atol=inv.atol):
            ok, detail = True, f"at {shown}: the reference's noiseless output{' (' + inv.what + ')' if inv.what else ''}"
        else:
            ok, detail = False, (f"at {shown}: max |difference| {np.max(np.abs(got - want)):.3g} from the noiseless "
                                 f"output (rtol={inv.rtol:g}, atol={inv.atol:g})")
        rows.append(ConformanceRow(case.algorithm, case.name, "zero-noise", ok, detail))
    return rows


_REFERENCE_FITS: dict = {}


def rate_errors(case: VectorCase, function: Callable, deep: bool = False, seed: int = 20261125) -> tuple:
    """(grid, errors[i, r]) of ``function`` on the case's :class:`Rate`: the data of repeat r at grid
    value i is drawn from one seed, the run from another; both are the same for every implementation."""
    spec: Rate = case.rate
    grid = tuple(spec.deep_grid) if deep and spec.deep_grid else tuple(spec.grid)
    repeats = (spec.deep_repeats or spec.repeats) if deep else spec.repeats
    states = np.random.SeedSequence(seed).generate_state(2 * len(grid) * repeats).reshape(len(grid), repeats, 2)
    errors = np.empty((len(grid), repeats))
    for i, x in enumerate(grid):
        for r in range(repeats):
            kwargs = spec.kwargs(x, np.random.default_rng(int(states[i, r, 0])))
            out = case.output(function(**kwargs, rng=np.random.default_rng(int(states[i, r, 1]))))
            errors[i, r] = float(spec.error(spec.kwargs(x, np.random.default_rng(int(states[i, r, 0]))), out))
    return grid, errors


def rate_check(case: VectorCase, function: Callable, deep: bool = False) -> tuple[bool, str]:
    """The candidate's fitted slope against the reference's (see :class:`reference.properties.Rate`).

    Both fits use the same data and seeds; the intervals are at ``spec.confidence`` (0.99). Two
    independent 99% intervals of the same slope fail to overlap with probability about 3e-4 (normal
    approximation, equal widths), and common random numbers only lower it: that is the false-alarm
    rate against a correct candidate."""
    from .audit.rates import fit_rate

    spec: Rate = case.rate
    key = (case.algorithm, case.name, deep)
    if key not in _REFERENCE_FITS:
        grid, errs = rate_errors(case, resolve(case.reference), deep)
        _REFERENCE_FITS[key] = fit_rate(grid, errs, np.random.default_rng(7), confidence=spec.confidence)
    ref = _REFERENCE_FITS[key]
    try:
        grid, errs = rate_errors(case, function, deep)
        fit = fit_rate(grid, errs, np.random.default_rng(7), confidence=spec.confidence)
    except Exception as exc:
        return False, f"raised {type(exc).__name__}: {exc}"
    shown = (f"{spec.what}: slope {fit.slope:.3f} [{fit.lower:.3f}, {fit.upper:.3f}], reference {ref.slope:.3f} "
             f"[{ref.lower:.3f}, {ref.upper:.3f}] ({spec.confidence:.0%}; paper {spec.claimed:.3g}; "
             f"grid {', '.join(f'{x:g}' for x in grid)} x {errs.shape[1]})")
    if fit.upper < ref.lower or fit.lower > ref.upper:
        return False, "intervals do not overlap: " + shown
    if spec.nearest_wrong is not None and ref.excludes(spec.nearest_wrong) and not fit.excludes(spec.nearest_wrong):
        return False, f"does not exclude the nearest wrong exponent {spec.nearest_wrong:.3g}: " + shown
    return True, shown


def check_implementation(target: str | Callable, algorithm: str, mode: str = "all", n_runs: int | None = None,
                         alpha: float = 1e-3, deep: bool = False, as_json: bool = False):
    """Every case of ``algorithm``, every property ``mode`` selects ('all', or comma-separated property
    names of :data:`reference.properties.PROPERTIES`; 'both' and 'distribution' as before).
    Returns the rows, or with ``as_json`` the report of :func:`conformance_report`."""
    function = resolve(target) if isinstance(target, str) else target
    props = _properties(mode)
    algorithm = cases(algorithm)[0].algorithm      # the canonical spelling
    rows: list[ConformanceRow] = []
    for case in cases(algorithm):
        def row(prop, ok, detail, status=""):
            rows.append(ConformanceRow(case.algorithm, case.name, prop, ok, detail, status))

        if "replay" in props:
            ok, detail = replay(run_case(case), case, function)
            row("replay", ok, detail)
        if "law" in props:
            if case.statistic is None:
                row("law", True, _na(case, "law", "no scalar statistic declared for this case"), "n/a")
            else:
                ok, _, detail = distribution_check(case, function, n_runs=n_runs, alpha=alpha)
                row("law", ok, detail)
        if "privacy" in props:
            if case.neighbour is None:
                row("privacy", True, _na(case, "privacy", "no worst neighbouring pair declared for this case"), "n/a")
            else:
                ok, _, detail = privacy_check(case, function)
                # The same check on the reference at half its noise: it must flag that, or it has no power here.
                control_ok, _, control = privacy_check(case, ScaledNoise(case, 0.5))
                detail += f"; control (reference at 0.5 x noise): {control} -> {'missed' if control_ok else 'flagged'}"
                row("privacy", ok and not control_ok, detail)
        if "accounting" in props:
            status, detail = accounting_check(case, function, resolve(case.reference))
            row("accounting", status != "fail", detail, status)
        if "rate" in props:
            if case.rate is None:
                row("rate", True, _na(case, "rate", "no convergence claim declared for this case"), "n/a")
            else:
                ok, detail = rate_check(case, function, deep=deep)
                row("rate", ok, detail)
        rows += invariant_rows(case, function, props)
        if "validation" in props:
            if not case_refusals(case):
                row("validation", True, _na(case, "validation", "no invalid input declared or derived for this case"),
                    "n/a")
            for refusal in case_refusals(case):
                status, detail = validation_check(case, function, refusal)
                row("validation", status != "fail", detail, status)
    rows.sort(key=lambda r: PROPERTIES.index(r.check))
    if as_json:
        return conformance_report(rows, target if isinstance(target, str) else repr(target), algorithm, deep)
    return rows


def verdicts(rows: list[ConformanceRow]) -> list[PropertyVerdict]:
    """One verdict per (algorithm, property), in :data:`PROPERTIES` order."""
    out = []
    keys = sorted({(r.algorithm, r.check) for r in rows}, key=lambda k: (k[0], PROPERTIES.index(k[1])))
    for algorithm, prop in keys:
        mine = [r for r in rows if r.algorithm == algorithm and r.check == prop]
        applicable = [r for r in mine if r.status != "n/a"]
        failed = [r for r in applicable if r.status == "fail"]
        if failed:
            verdict, detail = "fail", "; ".join(f"{r.case}: {r.detail}" for r in failed)
        elif applicable:
            verdict, detail = "pass", applicable[0].detail if len(applicable) == 1 else \
                f"{len(applicable)} cases; e.g. {applicable[0].case}: {applicable[0].detail}"
        else:
            reasons = list(dict.fromkeys(r.detail for r in mine))
            verdict, detail = "n/a", "; ".join(reasons)
        out.append(PropertyVerdict(algorithm, prop, verdict, len(applicable), len(applicable) - len(failed),
                                   detail, [r.case for r in (failed or applicable)]))
    return out


def conformance_report(rows: list[ConformanceRow], target: str, algorithm: str, deep: bool = False) -> dict:
    """The JSON form: ``passed`` (every applicable property passed), ``failed`` (property names),
    ``properties`` (one verdict each) and ``rows`` (one per property per case)."""
    props = verdicts(rows)
    failed = [v.property for v in props if v.verdict == "fail"]
    return {"target": target, "algorithm": algorithm, "deep": deep, "passed": not failed, "failed": failed,
            "properties": [asdict(v) for v in props], "rows": [asdict(r) for r in rows]}


def format_report(report: dict) -> str:
    """The text table: one line per property (verdict, cases passed of applicable, detail), then the
    per-case rows that failed, then which properties failed."""
    lines = [f"conform {report['target']} as {report['algorithm']}" + (" (deep)" if report["deep"] else ""), ""]
    width = max(len(p) for p in PROPERTIES)
    lines.append(f"{'property':<{width}}  verdict  cases  detail")
    for v in report["properties"]:
        mark = {"pass": "PASS", "fail": "FAIL", "n/a": "n/a"}[v["verdict"]]
        count = f"{v['passed']}/{v['applicable']}" if v["applicable"] else "-"
        lines.append(f"{v['property']:<{width}}  {mark:<7}  {count:<5}  {v['detail']}")
    failed_rows = [r for r in report["rows"] if r["status"] == "fail"]
    if failed_rows:
        lines += ["", "failed checks:"]
        lines += [f"FAIL  {r['check']:<{width}}  {r['case']:<30} {r['detail']}" for r in failed_rows]
    lines.append("")
    lines.append("conforms: every applicable property passed" if report["passed"] else
                 f"does not conform: failed {', '.join(report['failed'])}")
    return "\n".join(lines)


def run_conform_command(args: argparse.Namespace) -> int:
    mode = getattr(args, "mode", "all") or "all"
    report = check_implementation(args.target, args.algorithm, mode=mode, deep=bool(getattr(args, "deep", False)),
                                  as_json=True)
    if getattr(args, "json", False):
        print(json.dumps(report, indent=1))
    else:
        print(format_report(report))
    return 0 if report["passed"] else 1
