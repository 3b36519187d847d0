"""The kill matrix through the oracle: each mutant handed to ``conform`` as a black box.

The test-suite kill matrix (:func:`reference.mutants.run_mutant`) asks whether the package's own tests
reject a wrong implementation. This module asks the user's question instead: if someone brought this
wrong implementation to ``python -m reference conform``, which property would reject it?

For each catalogued mutant whose target has vector cases (:func:`conform_ids`):

1. the package is copied to a temporary folder under another name (``reference_mutant_<id>``) and the
   mutant's edit is applied there. The package imports itself only relatively, so the copy is
   self-contained (tests/test_package_copy.py) and imports beside the clean package in one process;
2. the candidate is the copy's own conform function for the id (the function the vector cases run,
   e.g. ``reference_mutant_lasso_m03.algorithms.lasso:private_lasso``), while the reference side of every
   check (recorded draws, law samples, the privacy control, rate fits) is the clean package;
3. :func:`reference.oracle.conform.check_implementation` runs each property of
   :data:`reference.oracle.properties.PROPERTIES` in turn, and the result records which properties failed
   (``rejected_by``), or that the mutant survived conform.

A mutant that survives is not necessarily a hole: an edit that changes only the ledger or the accountant's
certificate, or a path the vector cases do not run (another calibration, a default argument they
override), leaves every output unchanged, and no black-box check can see it. :data:`SURVIVOR_NOTES`
says, for each measured survivor, why (docs/conformance.md has the table). A survivor whose output law
differs from the reference's is a finding.

``python -m reference mutants --conform`` runs it (``--id``, ``--paper``, ``--first`` to stop at the first
failing property, ``--json FILE``, ``--markdown docs/conformance.md`` to rewrite the table there).
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import Mutant, apply_edit

#: Outcome of one mutant: ``rejected`` (some property failed), ``survived`` (every property passed or
#: did not apply), ``no-cases`` (its target has no vector cases: conform cannot be asked), ``broken``
#: (the copy did not build or import, or conform did not finish in time).
STATUSES = ("rejected", "survived", "no-cases", "broken")

#: Why a measured survivor is invisible to a black box (filled from the measured matrix; the reason is
#: checked against the mutant's edit by hand, see docs/conformance.md).
SURVIVOR_NOTES: dict[str, str] = {
    # -- no effect at the cases' parameters: a factor the cases set to 1, a branch they do not take
    "core-M15": "survives its target (the sampler's cases never run truncated_geometric_pmf, only its CDF); the "
                "pmf is Algorithm 2's weight 1/p_N, and the cubic Algorithm 2 case (where the correction it "
                "weighs is not zero) rejects it through saddle_point:Algorithm 2",
    "heavy_tailed-M53": "no effect at the cases' sizes: the strongly convex batch's extra sample (the (n/T + 1)-th) "
                        "lies beyond the m b samples Algorithm 3's whole buckets read (27 of 30 at n 120, T 4, m 9; "
                        "12 of 18 at n 144, T 8, m 12), so the output is the reference's bit for bit (replay passes); "
                        "the suite kills it",
    "online-M52": "no effect at the cases' parameters: the cases pass alpha as a Python float, where keeping the "
                  "caller's number changes nothing (only an np.float32 alpha computes in float32); the suite kills it",
    # -- not exercised: the cases never run the edited lines (reported by the line tracer)
    "online-M50": "not exercised: Section 4.1's perturbed-IGD update (_PerturbedIGDUpdate), which no vector case "
                  "runs; the suite kills it (tests/online/test_section_4_1.py)",
    "online-M51": "not exercised: Section 4.1's sensitivity perturbed_igd_sensitivity, which no vector case runs; "
                  "the suite kills it (tests/online/test_section_4_1.py)",
    "heavy_tailed-M39": "not exercised: CDPCWME's m path (Theorem 5.2's schedule gives m); the cases and the call "
                        "contract pass beta, from which m follows, so no case can give a disagreeing m and beta; "
                        "the suite kills it (tests/heavy_tailed)",
    "heavy_tailed-M52": "not exercised: the printed noise of CDPCWME's m path (Theorem 5.2's schedule); the cases "
                        "pass beta; the suite kills it (Lemma B.2's noise term, tests/heavy_tailed)",
    "heavy_tailed-M41": "not exercised: Theorem 5.5's schedule; the cases pass T, eta and tau (only Theorem 5.7's "
                        "parameters are computed by the conform function); the suite and the audit's rate row kill it",
    "heavy_tailed-M42": "not exercised: Theorem 5.2's schedule; the cases pass T, eta and tau; the suite and the "
                        "audit's rate row kill it",
    # -- no effect on the released values: a warning, a threshold or the ledger only
    "heavy_tailed-M40": "C_STAR only decides CDPNSME's PrivacyWarning (the released noise does not depend on it); "
                        "the suite's verifier kills it",
    "heavy_tailed-M49": "removes a PrivacyWarning only: outputs and ledger unchanged; the suite kills it",
    "online-M40": "ledger-only: PGIGA's ledger charges one round fewer; the released values are the reference's, "
                  "accounting rejects it (decides under --require accounting)",
    "saddle_point-M34": "no effect at the cases' parameters: the conform function's games are bilinear (atoms only), "
                        "where B0 = max|A| is the true range bound; the suite kills it on a game with linear terms",
    "saddle_point-M28": "on i.i.d. records the swapped part moves only the dependence between two Frank-Wolfe runs "
                        "(law p 0.64 at 2000 runs); records that differ by part would also reject a correct port "
                        "laying the parts out otherwise (saddle_point A10); replay and the suite reject it",
    "saddle_point-M41": "the Frank-Wolfe selections' half noise moves only which candidate scores best, and at the "
                        "cases' sizes the selection's law does not see it (law p above alpha); the ledger records each "
                        "selection's epsilon 2 Delta / lambda, which the halved Delta and halved lambda leave equal, so "
                        "accounting passes too: a privacy bug no output-only check sees here; replay and the suite "
                        "reject it (the named function's scale is stated in `list`)",
    # -- equivalent
    "core-M56": "equivalent: side='left' differs from side='right' only when u equals a CDF value exactly",
}


#: What a rejection means where it is not what it seems (shown beside the rejecting properties).
REJECTED_NOTES: dict[str, str] = {
    "core-M13": "its target was core:report_noisy_max until the catalogue named the edited function, "
                "report_noisy_min, whose cases reject it",
    "core-M10": "law only (the monotone case): replay's one uniform falls where both forms select the same index",
    "erm_geometry-M11": "on the Theorem 3.2 case only (T = eta = 'theorem-3.2'): G_Q sets T there (4 with the l1 "
                        "ball's width, 2 with the l2 ball's); where T and eta are given it changes nothing",
    "erm_geometry-M08": "on the decreasing-eta case only: with a constant eta, eta_t = eta_(t+1)",
    "erm_geometry-M16": "on the decreasing-eta case only: with a constant eta, eta_t = eta_(t+1)",
    # deterministic targets: their law is a point mass at the reference's output (PointMass), an exact output
    # comparison that any black box gets and that decides by default; the case that shows each edit
    "heavy_tailed-M01": "the point mass law on the n300-d3-tau0.5 case: the clip binds in the buckets the median keeps",
    "heavy_tailed-M03": "the point mass law on the n300-d3-tau0.5 case: the clip binds in the buckets the median keeps",
    "heavy_tailed-M11": "the point mass law on the convex-mode cases",
    "online-M16": "the point mass law on the alpha != 1 cases (0.6, 0.7)",
    # the selection's factor doubled: only the soft case (epsilon 0.3, k = 4) sees it, and there replay sees it
    # only when the selection's recorded uniform falls where the two laws differ
    "saddle_point-M16": "through the soft-selection case (paper-game3x2-n192-B1-k4-eps0.3); its replay rejection "
                        "is a chance of 0.26 at the case's seed (0.19 over seeds), the law check is the robust one",
    "saddle_point-M17": "through the soft-selection case (paper-game3x2-n192-B1-k4-eps0.3); its replay rejection "
                        "is a chance of 0.26 at the case's seed (0.19 over seeds), the law check is the robust one",
    # d2dda5a to 2026-12-02 the certified steps wrote these sensitivities themselves and the edits reached only the
    # ledger (accounting alone rejected them); now algorithm1/3/5_sensitivity is the one source of both
    "saddle_point-M08": "through algorithm1_sensitivity, the one source of the certified step and the ledger",
    "saddle_point-M12": "through algorithm5_sensitivity, the one source of the certified step and the ledger",
    "saddle_point-M14": "through algorithm3_sensitivity, the one source of the certified step and the ledger",
    "core-M38": "checked as erm_geometry:Algorithm 2 by name: the line tracer's one run of each case no longer "
                "reaches the l1 projection (the default run reports no cases), but law run 20 of 200 on "
                "l1-certified-n60-p5 does, and the copy raises there",
    "core-M39": "checked as erm_geometry:Algorithm 2 by name: the line tracer's one run of each case no longer "
                "reaches the l1 projection (the default run reports no cases), but law run 2 of 200 on "
                "l1-certified-n60-p5 does, and the copy raises there",
    "lasso-M05": "the point mass law (the conform function runs the package's default keep_iterates=True; the average "
                 "of the iterates stays in the ball and is as sparse as theta_T, so no invariant sees it)",
}


@dataclass
class ConformMutantResult:
    mutant: Mutant
    status: str
    algorithm: str = ""                                   # the conform id the copy was checked as
    rejected_by: list[str] = field(default_factory=list)  # properties that failed, in PROPERTIES order
    verdicts: dict[str, str] = field(default_factory=dict)  # property -> pass / fail / n/a / skipped
    details: dict[str, str] = field(default_factory=dict)   # property -> what conform said (failed ones)
    rejected_through: dict[str, list[str]] = field(default_factory=dict)  # other id -> properties (survivors)
    reached: str = ""      # survivors: do the cases run the edited lines? "yes", "no", "import" (module level)
    seconds: float = 0.0
    detail: str = ""

    @property
    def note(self) -> str:
        notes = SURVIVOR_NOTES if self.status == "survived" else REJECTED_NOTES
        return notes.get(self.mutant.id, "")

    def as_json(self) -> dict:
        m = self.mutant
        return {"id": m.id, "target": m.target, "bug_class": m.bug_class, "description": m.description,
                "file": m.file, "algorithm": self.algorithm, "status": self.status,
                "rejected_by": self.rejected_by, "verdicts": self.verdicts, "details": self.details,
                "rejected_through": self.rejected_through, "reached": self.reached, "equivalent": m.equivalent,
                "note": self.note, "seconds": round(self.seconds, 1),
                "detail": self.detail}


#: Edits that are no conform target, with the reason: conform holds an *implementation of an algorithm*
#: to the reference, and judges its accounting with this package's accountant; the accountant itself
#: and the lower-bound constructions are not what a port implements. They die in the test suite's kill
#: matrix (docs/kill-matrix.md); the accountant is also cross-checked against an independent one
#: (dp-accounting, ``tox -e crosscheck``, docs/accountant.md).
NO_CONFORM_TARGET: dict[str, str] = {
    "reference/privacy/accounting.py": "an edit of the accountant, conform's judge of every candidate's ledger "
                                       "(the suite's kill matrix and tox -e crosscheck check the accountant)",
    "reference/privacy/pld.py": "an edit of the accountant's PLD composition (the suite's kill matrix and "
                                "tox -e crosscheck check it)",
    "reference/privacy/bounded_range.py": "an edit of the accountant's bounded-range composition (the suite's kill "
                                          "matrix checks it)",
    "heavy_tailed:Theorem 1.4": "a lower-bound construction (Theorem 1.4): no algorithm a port implements",
    "heavy_tailed:Lemma 6.3": "a lower-bound construction (Lemma 6.3): no algorithm a port implements",
    "core:audit": "an edit of the audit harness (python -m reference audit), not of an algorithm: the suite's "
                  "kill matrix checks it",
    "online:Theorem 10": "an edit of an audit case (reference/audit), not of an algorithm: the suite's kill matrix "
                         "checks it",
    "core:conform": "an edit of conform's own property checks (the judge, not a candidate): the suite's kill "
                    "matrix checks it",
    "core:replay": "an edit of conform's own replay machinery (ReplayRng, the vectors), the judge rather than a "
                   "candidate: the suite's kill matrix checks it",
}

#: Shared code with no vector cases of its own (the sets, mirror maps and losses the algorithms call): its
#: mutants are checked through the algorithms whose cases run the edited lines (:func:`_caller_ids`), for
#: :data:`CALLER_PROPERTIES`, as a port of those algorithms with the same slip would be.
SHARED_TARGETS = ("core:geometry", "core:losses")


SHARED_UNUSED = ("shared library code that no algorithm's vector case runs (e.g. the box set, the Huber loss, the "
                 "generic mirror-map chooser; or a module-level edit the line tracer cannot place): no port of a "
                 "listed algorithm, as its cases run it, contains the edit; the suite's kill matrix checks it")


def is_conform_target(mutant: Mutant) -> bool:
    """Can conform be asked about the mutant: its target has cases, or it is shared code the cases call."""
    return bool(conform_ids(mutant)) or (mutant.target in SHARED_TARGETS and not no_conform_target(mutant))


def no_conform_target(mutant: Mutant) -> str:
    """Why the mutant is no conform target ('' if it is one): :data:`NO_CONFORM_TARGET` by file or target."""
    return NO_CONFORM_TARGET.get(mutant.file) or NO_CONFORM_TARGET.get(mutant.target, "")


def conform_ids(mutant: Mutant) -> list[str]:
    """The conform ids whose vector cases run the mutant's target: the target itself when it has cases;
    otherwise the ids whose cases call the target's registered function (``lasso:Corollary 2.7`` is
    ``private_lasso``, the function the ``lasso:Algorithm 2`` cases run); for a target that is no
    registered id (``core:binary_tree``), the ids whose cases' function is defined in the edited file
    (``reference.privacy.tree:private_prefix_sums``)."""
    from ..claims import all_algorithms, all_building_blocks
    from ..oracle.cases import CASES

    if no_conform_target(mutant):
        return []
    ids = {c.algorithm for c in CASES}
    if mutant.target in ids:
        return [mutant.target]
    functions = {f"{a.paper}:{a.number}": a.function for a in (*all_algorithms(), *all_building_blocks())}
    if mutant.target in functions:
        return sorted({c.algorithm for c in CASES if c.reference == functions[mutant.target]})
    module = mutant.file.removesuffix(".py").replace("/", ".")
    return sorted({c.algorithm for c in CASES if c.reference.partition(":")[0] == module})


def _package_dir() -> Path:
    return Path(__file__).resolve().parents[1]


def _copy_name(mutant: Mutant) -> str:
    return "reference_mutant_" + mutant.id.replace("-", "_").lower()


@contextlib.contextmanager
def mutated_package(mutant: Mutant):
    """Import a copy of the package with the mutant's edit, under another name; yields that name.

    The copy's ``check_rng`` is told to accept the clean package's ReplayRng (the harness's generator
    stand-in; the copy's own RngProxy class is another class object). Everything of the copy is removed
    from ``sys.modules`` and ``sys.path`` afterwards."""
    from .. import rng as clean_rng

    package = _package_dir()
    root_name = package.name
    if not mutant.file.startswith(f"{root_name}/"):
        raise ValueError(f"{mutant.id} edits {mutant.file}, not the package: conform cannot run it")
    name = _copy_name(mutant)
    with tempfile.TemporaryDirectory(prefix=f"conform-{mutant.id}-") as tmp:
        shutil.copytree(package, Path(tmp) / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        # the edit names the file as reference/...; in the copy it is <name>/...
        edit = dataclasses.replace(mutant, file=f"{name}/{mutant.file[len(root_name) + 1:]}")
        apply_edit(edit, Path(tmp))
        sys.path.insert(0, tmp)
        importlib.invalidate_caches()
        try:
            importlib.import_module(name)
            copy_rng = importlib.import_module(f"{name}.rng")
            copy_rng.RngProxy = (clean_rng.RngProxy, copy_rng.RngProxy)   # isinstance takes nested tuples
            yield name
        finally:
            sys.path.remove(tmp)
            for module in [m for m in sys.modules if m == name or m.startswith(f"{name}.")]:
                del sys.modules[module]


class _Timeout(BaseException):
    """The mutant's time is up. A BaseException, not an Exception: conform turns any Exception raised inside a
    candidate into that property's FAIL, and a timeout that fired inside the candidate's law check would
    otherwise be recorded as the law rejecting the mutant (saddle_point-M28 was, at 900 s) instead of as a
    broken run."""


@contextlib.contextmanager
def _time_limit(seconds: float | None):
    """Raise _Timeout after ``seconds`` (main thread, Unix); no limit where SIGALRM is unavailable."""
    if not seconds or not hasattr(signal, "SIGALRM") or not _in_main_thread():
        yield
        return

    def expire(signum, frame):
        raise _Timeout()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, float(seconds))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0.0)
        signal.signal(signal.SIGALRM, previous)


def _in_main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def _file_ids(mutant: Mutant) -> list[str]:
    """The conform ids whose cases' function is defined in the file the mutant edits."""
    from ..oracle.cases import CASES

    module = mutant.file.removesuffix(".py").replace("/", ".")
    return sorted({c.algorithm for c in CASES if c.reference.partition(":")[0] == module})


def _check_as(name: str, algorithm: str, properties: tuple[str, ...], first: bool, deep: bool,
              verdicts_out: dict, details_out: dict) -> list[str]:
    """Conform's properties on the copy ``name``'s conform function for ``algorithm``; returns the
    properties that failed (and fills ``verdicts_out`` / ``details_out``)."""
    from ..oracle.conform import check_implementation, verdicts
    from ..oracle.suite import cases
    from ..oracle.vectors import resolve

    references = sorted({c.reference for c in cases(algorithm)})
    if len(references) != 1:
        raise ValueError(f"{algorithm}'s cases run {references}: one conform function expected")
    module, _, function = references[0].partition(":")
    candidate = resolve(f"{name}{module[len(_package_dir().name):]}:{function}")
    failed: list[str] = []
    for prop in properties:
        if first and failed:
            verdicts_out.setdefault(prop, "skipped")
            continue
        try:
            rows = check_implementation(candidate, algorithm, mode=prop, deep=deep)
            (verdict,) = [v for v in verdicts(rows) if v.property == prop]
            outcome, said = verdict.verdict, verdict.detail
        except _Timeout:
            raise
        except Exception as exc:   # the harness itself stopped on the candidate's output
            outcome, said = "fail", f"conform raised {type(exc).__name__}: {exc}"
        if verdicts_out.get(prop) != "fail":
            verdicts_out[prop] = outcome
        if outcome == "fail":
            failed.append(prop)
            details_out[prop] = (details_out.get(prop, "") + f" [{algorithm}] " + said).strip()[:600]
    return failed


def _edited_lines(path: Path, mutant: Mutant) -> tuple[set[int], bool]:
    """The line numbers the edit's replacement occupies in the edited copy, and whether the edit is at
    module level (a line without indentation, or a ``def``: run at import, not by the cases)."""
    text = path.read_text(encoding="utf-8")
    # the edit starts where ``find`` starts in the clean file (the text before it is unchanged; the
    # replacement may also occur earlier in the file)
    start = (_package_dir().parent / mutant.file).read_text(encoding="utf-8").index(mutant.find)
    first = text.count("\n", 0, start) + 1
    lines = set(range(first, first + mutant.replace.count("\n") + 1))
    line_start = text.rfind("\n", 0, start) + 1
    head = text[line_start:start] + mutant.replace
    module_level = not head[:1].isspace() or head.lstrip().startswith(("def ", "class ", "@"))
    return lines, module_level


def _ids_running_the_edit(name: str, mutant: Mutant, algorithms, *, stop_at_first: bool) -> list[str] | None:
    """The ids among ``algorithms`` some case of which runs the edited lines of the copy ``name``: each case's
    conform function run once under a line tracer, an id's cases stopping at its first hit (and every id at
    the first hit with ``stop_at_first``). ``None`` when the edit is at module level (it runs at import, so
    tracing the calls cannot tell)."""
    import warnings

    import numpy as np

    from ..oracle.suite import cases
    from ..oracle.vectors import resolve

    copy_file = Path(importlib.import_module(name).__file__).parent / mutant.file.split("/", 1)[1]
    lines, module_level = _edited_lines(copy_file, mutant)
    if module_level:
        return None
    target, hit = str(copy_file), []

    def tracer(frame, event, arg):
        if frame.f_code.co_filename != target:
            return None
        if event == "line" and frame.f_lineno in lines:
            hit.append(frame.f_lineno)
        return tracer

    found = []
    for algorithm in algorithms:
        for case in cases(algorithm):
            module, _, function = case.reference.partition(":")
            fn = resolve(f"{name}{module[len(_package_dir().name):]}:{function}")
            previous = sys.gettrace()
            sys.settrace(tracer)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    fn(**case.make_kwargs(), rng=np.random.default_rng(case.seed))
            except Exception:
                pass
            finally:
                sys.settrace(previous)
            if hit:
                found.append(algorithm)
                hit.clear()
                break
        if found and stop_at_first:
            break
    return found


def exercised(mutant: Mutant, algorithms: list[str] | None = None) -> bool | None:
    """Do the vector cases run the edited lines? Runs the copy's conform function once on each case of
    ``algorithms`` (default :func:`conform_ids` and the other ids of the edited file) under a line tracer.
    ``None`` when the edit is at module level (it runs at import, so tracing the calls cannot tell)."""
    ids = (conform_ids(mutant) + [a for a in _file_ids(mutant) if a not in conform_ids(mutant)]
           if algorithms is None else list(algorithms))
    with mutated_package(mutant) as name:
        found = _ids_running_the_edit(name, mutant, ids, stop_at_first=True)
    return None if found is None else bool(found)


#: The properties a building block's mutant is checked for through the algorithms whose cases call the edited
#: lines (:func:`_caller_ids`): the output checks only (every caller's privacy audit and rate fit would cost
#: minutes per mutant).
CALLER_PROPERTIES = ("replay", "law")


def _caller_ids(name: str, mutant: Mutant, exclude) -> list[str]:
    """The conform ids, other than ``exclude``, some case of which runs the edited lines of the copy ``name``
    (:func:`_ids_running_the_edit`): the algorithms that call a building block, e.g. saddle_point Algorithm 2
    for truncated_geometric_pmf. Empty for an edit at module level (it runs at import)."""
    from ..oracle.suite import cases

    others = sorted({c.algorithm for c in cases()} - set(exclude))
    return _ids_running_the_edit(name, mutant, others, stop_at_first=False) or []


def conform_mutant(mutant: Mutant, *, properties: tuple[str, ...] | None = None, first: bool = False,
                   timeout: float | None = 900.0, deep: bool = False,
                   algorithms: list[str] | None = None, through: bool = True) -> ConformMutantResult:
    """Run conform's properties on the mutated copy's conform function (see the module docstring).

    ``properties``: which (default: all of PROPERTIES, in order). ``first``: stop at the first that fails
    (the others are reported ``skipped``). ``timeout``: seconds for the whole mutant. ``algorithms``: the
    conform ids to check the copy as (default :func:`conform_ids`). ``through``: when the mutant survives
    its target's cases, also check the copy as the other ids whose conform function lives in the edited
    file (a building block's mutant seen through another entry point, e.g. report_noisy_min's edit
    through the ``core:report_noisy_min`` cases) and, for a building block (a ``core:`` target) that still
    survives, as the algorithms whose cases run the edited lines (:func:`_caller_ids`), for
    :data:`CALLER_PROPERTIES` only, stopping at the first that rejects it (truncated_geometric_pmf's edit
    through saddle_point Algorithm 2); what rejects it there is in ``rejected_through``."""
    from ..oracle.properties import PROPERTIES

    properties = tuple(PROPERTIES if properties is None else properties)
    ids = conform_ids(mutant) if algorithms is None else list(algorithms)
    shared = not ids and algorithms is None and is_conform_target(mutant)
    if not ids and not shared:
        return ConformMutantResult(mutant, "no-cases",
                                   detail=no_conform_target(mutant) or f"no vector cases run {mutant.target}")
    start = time.perf_counter()
    result = ConformMutantResult(mutant, "survived", algorithm=", ".join(ids))
    try:
        with _time_limit(timeout), mutated_package(mutant) as name:
            if shared:       # shared code: its conform ids are the algorithms whose cases run the edit
                ids = _caller_ids(name, mutant, set())
                if not ids:
                    return ConformMutantResult(mutant, "no-cases", detail=SHARED_UNUSED)
                result.algorithm = ", ".join(ids)
                properties = tuple(p for p in properties if p in CALLER_PROPERTIES)
                first = True
            for algorithm in ids:
                if shared and result.rejected_by:
                    break    # one caller that rejects it is enough (each caller's law check costs seconds)
                for prop in _check_as(name, algorithm, properties, first, deep, result.verdicts, result.details):
                    if prop not in result.rejected_by:
                        result.rejected_by.append(prop)
            if not result.rejected_by and through and algorithms is None and not shared:
                file_ids = [a for a in _file_ids(mutant) if a not in ids]
                for algorithm in file_ids:
                    seen: dict = {}
                    failed = _check_as(name, algorithm, properties, True, deep, seen, result.details)
                    if failed:
                        result.rejected_through[algorithm] = failed
                caller_properties = tuple(p for p in properties if p in CALLER_PROPERTIES)
                if not result.rejected_through and mutant.target.startswith("core:") and caller_properties:
                    for algorithm in _caller_ids(name, mutant, set(ids) | set(file_ids)):
                        failed = _check_as(name, algorithm, caller_properties, True, deep, {}, result.details)
                        if failed:
                            result.rejected_through[algorithm] = failed
                            break
    except _Timeout:
        result.status, result.detail = "broken", f"conform did not finish within {timeout:.0f} s"
    except Exception as exc:   # the copy did not build or import
        result.status, result.detail = "broken", f"{type(exc).__name__}: {exc}"
    else:
        result.status = "rejected" if result.rejected_by else "survived"
    if result.status == "survived" and not result.rejected_through:
        try:
            result.reached = {True: "yes", False: "no", None: "import"}[exercised(mutant, algorithms)]
        except Exception as exc:     # not worth failing the row over
            result.reached = f"unknown ({type(exc).__name__})"
    result.rejected_by.sort(key=PROPERTIES.index)
    result.seconds = time.perf_counter() - start
    return result


def observable_mutants(paper: str | None = None) -> list[Mutant]:
    """The catalogued mutants conform can be asked about (their target has vector cases)."""
    from . import all_mutants

    return [m for m in all_mutants(paper) if is_conform_target(m)]


def run_conform_matrix(mutants: list[Mutant], *, first: bool = False, timeout: float = 900.0,
                       workers: int = 1, progress=None,
                       properties: tuple[str, ...] | None = None, executor=None) -> list[ConformMutantResult]:
    """:func:`conform_mutant` for each mutant; results in input order. ``workers=1``: one after the other
    in this process (the copies import side by side and are removed after each); more: a process pool.
    ``executor`` (e.g. a Dask cluster's, ``mutants --conform --scheduler``): one task per mutant there, each
    worker keeping the reference side's cache for its lifetime; each mutant's copy is made by its task, on
    its worker. The verdicts do not depend on where a mutant ran (every check draws from its case's seeds)."""
    from ..oracle.vectors import reference_side_cache

    if executor is not None:
        futures = [executor.submit(_conform_mutant_task, m, first, timeout, properties) for m in mutants]
        results = []
        for future in futures:
            results.append(future.result())
            if progress is not None:
                progress(results[-1])
        return results
    if workers <= 1:
        results = []
        with reference_side_cache():     # the reference's side of law / privacy checks, once per case
            for m in mutants:
                r = conform_mutant(m, first=first, timeout=timeout, properties=properties)
                results.append(r)
                if progress is not None:
                    progress(r)
        return results
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=workers, initializer=_cache_in_worker) as pool:
        futures = [pool.submit(conform_mutant, m, first=first, timeout=timeout, properties=properties)
                   for m in mutants]
        results = []
        for future in futures:
            results.append(future.result())
            if progress is not None:
                progress(results[-1])
    return results


def _cache_in_worker() -> None:
    from ..oracle.vectors import reference_side_cache

    reference_side_cache().__enter__()     # for the worker's lifetime


_WORKER_CACHED = []


def _conform_mutant_task(mutant: Mutant, first: bool, timeout: float, properties) -> ConformMutantResult:
    """:func:`conform_mutant` as an executor's task: the first task a worker runs enters the reference side's
    cache for the worker's lifetime (what :func:`_cache_in_worker` does for a process pool)."""
    if not _WORKER_CACHED:
        _cache_in_worker()
        _WORKER_CACHED.append(True)
    return conform_mutant(mutant, first=first, timeout=timeout, properties=properties)


# ---- reports


def merge(runs: list[list[ConformMutantResult]]) -> list[ConformMutantResult]:
    """One result per mutant from several runs of the matrix (e.g. a ``--mode replay`` run and a black-box
    ``--mode law,privacy,... --first`` run): rejected if any run rejected it, the failing properties and
    their details united, a property's verdict ``fail`` if it failed in any run; in first-seen order."""
    from ..oracle.properties import PROPERTIES

    out: dict[str, ConformMutantResult] = {}
    for run in runs:
        for r in run:
            have = out.get(r.mutant.id)
            if have is None:
                out[r.mutant.id] = ConformMutantResult(r.mutant, r.status, r.algorithm, list(r.rejected_by),
                                                       dict(r.verdicts), dict(r.details),
                                                       dict(r.rejected_through), r.reached, r.seconds, r.detail)
                continue
            have.reached = have.reached or r.reached
            for prop, verdict in r.verdicts.items():
                if have.verdicts.get(prop) in (None, "skipped") or verdict == "fail":
                    have.verdicts[prop] = verdict
            have.rejected_by = sorted(set(have.rejected_by) | set(r.rejected_by), key=PROPERTIES.index)
            have.details.update({k: v for k, v in r.details.items() if k not in have.details})
            for algorithm, props in r.rejected_through.items():
                have.rejected_through[algorithm] = sorted(set(have.rejected_through.get(algorithm, [])) | set(props),
                                                          key=PROPERTIES.index)
            have.seconds += r.seconds
            if "rejected" in (have.status, r.status):
                have.status = "rejected"
            elif "broken" in (have.status, r.status):
                have.status, have.detail = "broken", have.detail or r.detail
    return list(out.values())


def load_json(path: str | Path) -> list[ConformMutantResult]:
    """The results a ``mutants --conform --json FILE`` run wrote (possibly a partial run), for writing the
    table again without running the matrix (``--from-json``). Mutants are looked up in the catalogue."""
    import json

    from . import all_mutants

    catalogue = {m.id: m for m in all_mutants()}
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    out = []
    for row in data["mutants"]:
        if row["id"] not in catalogue:
            continue
        out.append(ConformMutantResult(
            catalogue[row["id"]], row["status"], algorithm=row.get("algorithm", ""),
            rejected_by=list(row.get("rejected_by", [])), verdicts=dict(row.get("verdicts", {})),
            details=dict(row.get("details", {})), rejected_through=dict(row.get("rejected_through", {})),
            seconds=float(row.get("seconds", 0.0)), detail=row.get("detail", ""), reached=row.get("reached", "")))
    return out


def summary(results: list[ConformMutantResult]) -> str:
    from collections import Counter

    counts = Counter(r.status for r in results)
    asked = counts["rejected"] + counts["survived"]
    through = sum(r.status == "survived" and bool(r.rejected_through) for r in results)
    return (f"{len(results)} mutants: {counts['rejected']} of {asked} rejected by conform on their target's cases"
            + (f", {through} more through another entry point (of the edited file, or an algorithm calling it)"
               if through else "")
            + f", {counts['survived'] - through} survived, {counts['no-cases']} without vector cases, "
            f"{counts['broken']} broken")


def _raises(r: ConformMutantResult) -> str:
    """' (the copy raises ...)' when the copy fails on the cases' inputs rather than computing a wrong output."""
    # finite-shape runs the copy on fresh generators: "raised" there is the copy failing, not replay refusing
    said = r.details.get("finite-shape", "")
    if "raised" in said:
        import re

        kinds = sorted(set(re.findall(r"raised (\w+)", said)))
        return f" (the copy raises {', '.join(kinds)} on the cases' inputs)"
    return ""


def _why(r: ConformMutantResult) -> str:
    if r.status == "rejected":
        return ", ".join(r.rejected_by) + _raises(r) + (f" ({r.note})" if r.note else "")
    if r.status == "survived":
        through = "; ".join(f"rejected through {a} by {', '.join(ps)}" for a, ps in r.rejected_through.items())
        reached = {"no": "the cases never run the edited lines", "yes": "the cases run the edited lines",
                   "import": "a module-level edit"}.get(r.reached, "")
        text = "survived its target's cases" + (f" ({through})" if through else f" ({reached})" if reached else "")
        return text + (f": {r.note}" if r.note else "")
    return f"{r.status}: {r.detail}"


def table(results: list[ConformMutantResult]) -> str:
    lines = [f"{'mutant':<17} {'conform id':<28} {'status':<9} rejected by / why"]
    for r in results:
        lines.append(f"{r.mutant.id:<17} {r.algorithm or r.mutant.target:<28} {r.status:<9} {_why(r)}")
    lines += ["", summary(results)]
    return "\n".join(lines)


BEGIN, END = "<!-- conform-kill-matrix:begin -->", "<!-- conform-kill-matrix:end -->"


def markdown(results: list[ConformMutantResult]) -> str:
    out = [BEGIN, "", f"**{summary(results)}.** Generated by `python -m reference mutants --conform ... "
           "--markdown docs/conformance.md` (the commands above).", "",
           "| mutant | conform id | bug class | the wrong line | rejected by (or why it survives) |",
           "|---|---|---|---|---|"]
    for r in results:
        m = r.mutant
        why = _why(r) if r.status != "rejected" else (", ".join(f"**{p}**" for p in r.rejected_by) + _raises(r)
                                                       + (f" ({r.note})" if r.note else ""))
        out.append(f"| {m.id} | {r.algorithm or m.target} | {m.bug_class} | {m.description.replace('|', '/')} | "
                   f"{why.replace('|', '/')} |")
    out += ["", END]
    return "\n".join(out)


def write_markdown(results: list[ConformMutantResult], path: str | Path) -> None:
    """Write the table into ``path`` between the BEGIN / END markers (the rest of the page is kept),
    or as the whole file when it has no markers."""
    path = Path(path)
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    block = markdown(results)
    if BEGIN in text and END in text:
        head, _, rest = text.partition(BEGIN)
        _, _, tail = rest.partition(END)
        text = head + block + tail
    else:
        text = block + "\n"
    path.write_text(text, encoding="utf-8")
