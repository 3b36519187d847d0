"""The kill matrix: realistic wrong implementations (mutants) and the checks that reject them.

A reference is worth what its checks can tell apart. Each :class:`Mutant` is one realistic
wrong version of the package's code, written as a *source edit*: in ``file`` the text
``find`` (which must occur exactly once) is replaced by ``replace``. The edit is what a
careless port would do: half the noise, noise drawn but not added, the replace-one factor
2 lost, the wrong step or averaging, a clip dropped.

Each paper keeps its mutants beside the others in ``reference/mutants/catalogue_<paper>.py``
as a module-level tuple ``MUTANTS``; :func:`all_mutants` discovers them by name, so a paper
adds its catalogue without editing this file.

:func:`run_mutant` copies the package, its tests and proofs into a temporary folder,
applies the edit there (the working tree is never touched), runs ``checks`` (pytest node
ids or paths) with ``PYTHONPATH`` pointing at the copy, and reports which of them failed:
those are the checks that *kill* the mutant. A mutant no check kills is a hole in the
suite, unless it is equivalent (it computes the same law as the right code), in which case
``equivalent`` says why.

``python -m reference mutants`` runs the catalogue and prints the matrix;
tests/test_kill_matrix.py checks the catalogue's shape and runs the ``fast`` mutants in the
default test run; the whole matrix runs under ``--deep``.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import pkgutil
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ParameterError

#: The bug classes of the kill matrix. A mutant names the one it stands for.
BUG_CLASSES: dict[str, str] = {
    "noise-scale": "noise scale off by a constant factor (x0.5, x0.8, ...)",
    "noise-not-added": "noise drawn but not added (at one step, or at all steps)",
    "sensitivity": "a sensitivity off by a constant, e.g. the replace-one factor 2 lost",
    "composition": "the per-step budget composed wrongly (over sqrt(T) or T-1 instead of T, ...)",
    "exp-mech-factor": "the exponential mechanism's factor 2 (score sensitivity) lost",
    "noise-law": "noise drawn from the wrong distribution or with the wrong dependence on epsilon",
    "noise-dependence": "noise correlated across steps or reused at two steps, every release's marginal law "
                        "intact (only a white-box audit of the whole transcript sees it)",
    "step-size": "the wrong step size: constant where the paper's decays, the wrong schedule or constant",
    "step-index": "a step or round index off by one",
    "averaging": "the last iterate instead of the average, or the reverse, or the wrong weights",
    "sign": "a wrong sign: the wrong vertex, ascent instead of descent",
    "tree": "binary-tree aggregation bookkeeping: the wrong leaf or node set",
    "geometry": "the wrong mirror map, norm, dual norm or projection",
    "clip": "a clip (or truncation) dropped or at the wrong level",
    "estimator": "the wrong statistic: the mean for the median, the wrong bucket or sample",
    "selection": "the wrong selection: argmax for argmin, the exact choice instead of the noisy one",
    "data-use": "data ignored or used twice, the wrong sample or neighbour",
    "accountant": "the accountant wrong: rounding toward the user, an invalid method in the minimum",
    "audit": "the audit harness wrong: Bonferroni at beta, a control reported detected unconditionally",
    "stopping": "a stopping rule or budget filter wrong",
}

_ID = re.compile(r"^[a-z_]+-M\d{2,3}$")
#: What is copied into the mutant's sandbox (relative to the repository root).
_COPIED = ("reference", "tests", "proofs", "examples", "conftest.py", "pyproject.toml")   # tests import examples/


@dataclass(frozen=True)
class Mutant:
    """One realistic wrong implementation, as a source edit.

    id: ``<paper>-M<nn>`` (e.g. ``lasso-M03``), stable. target: what it breaks, an algorithm
    id as ``python -m reference list`` shows it or a building block (``core:gaussian_mechanism``).
    bug_class: a key of :data:`BUG_CLASSES`. description: the wrong line in words.
    file: repository-relative path; find: text occurring exactly once in it; replace: the
    wrong text. checks: pytest node ids or paths (repository-relative) that should kill it.
    fast: also run by the default test run. equivalent: non-empty when no check can kill it,
    saying why. deep: the checks that kill it need ``--deep``.
    """

    id: str
    target: str
    bug_class: str
    description: str
    file: str
    find: str
    replace: str
    checks: tuple[str, ...]
    fast: bool = False
    equivalent: str = ""
    deep: bool = False

    def __post_init__(self) -> None:
        if not _ID.match(self.id):
            raise ParameterError("Mutant.id", "of the form '<paper>-M<nn>'", self.id)
        if self.bug_class not in BUG_CLASSES:
            raise ParameterError("Mutant.bug_class", f"one of {sorted(BUG_CLASSES)}", self.bug_class)
        if self.find == self.replace:
            raise ParameterError("Mutant.replace", "different from find", self.replace)
        if not self.checks and not self.equivalent:
            raise ParameterError("Mutant.checks", "at least one check (or an equivalence reason)", self.checks)

    @property
    def paper(self) -> str:
        return self.id.partition("-")[0]


@dataclass
class MutantResult:
    """The outcome of running one mutant's checks: ``status`` is ``killed``, ``survived``,
    ``equivalent`` or ``broken`` (the edit did not apply, or the copy failed to import)."""

    mutant: Mutant
    status: str
    killed_by: list[str] = field(default_factory=list)
    seconds: float = 0.0
    detail: str = ""

    def as_json(self) -> dict:
        m = self.mutant
        return {"id": m.id, "paper": m.paper, "target": m.target, "bug_class": m.bug_class,
                "description": m.description, "file": m.file, "status": self.status,
                "killed_by": self.killed_by, "checks": list(m.checks), "fast": m.fast,
                "deep": m.deep, "equivalent": m.equivalent, "seconds": round(self.seconds, 1),
                "detail": self.detail}


def repository_root() -> Path:
    """The checkout this package was imported from (it must hold tests/ to run mutants)."""
    root = Path(__file__).resolve().parents[2]
    if not (root / "tests").is_dir():
        raise ParameterError("repository", "a source checkout with tests/ beside reference/ "
                             "(mutants run the test suite; an installed wheel has none)", str(root))
    return root


def all_mutants(paper: str | None = None) -> list[Mutant]:
    """Every mutant of every ``catalogue_<paper>`` module, ordered by id; ids are unique."""
    found: dict[str, Mutant] = {}
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("catalogue_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        for m in getattr(module, "MUTANTS", ()):
            if m.id in found:
                raise ParameterError("Mutant.id", "unique across catalogues", m.id)
            found[m.id] = m
    mutants = sorted(found.values(), key=lambda m: (m.paper, int(m.id.rpartition("M")[2])))
    return [m for m in mutants if paper is None or m.paper == paper]


def apply_edit(mutant: Mutant, root: Path) -> None:
    """Apply the mutant's edit to the copy at ``root``; the text must occur exactly once."""
    path = root / mutant.file
    text = path.read_text(encoding="utf-8")
    count = text.count(mutant.find)
    if count != 1:
        raise ParameterError(f"{mutant.id}.find", f"text occurring exactly once in {mutant.file}",
                             f"{count} occurrences")
    path.write_text(text.replace(mutant.find, mutant.replace), encoding="utf-8")


def _one_process() -> list[str]:
    """pytest options for a mutant's checks: one process (the project's addopts ask pytest-xdist for
    two workers; a mutant's few checks run faster without them, and run_matrix already runs mutants
    side by side). Nothing where pytest-xdist is not installed."""
    return ["-n", "0"] if importlib.util.find_spec("xdist") is not None else []


def _failed_nodes(output: str) -> list[str]:
    nodes = []
    for line in output.splitlines():
        for prefix in ("FAILED ", "ERROR "):
            if line.startswith(prefix):
                nodes.append(line[len(prefix):].split(" - ")[0].strip())
    return nodes


def run_mutant(mutant: Mutant, *, root: Path | None = None, timeout: float = 900.0,
               extra_args: tuple[str, ...] = ()) -> MutantResult:
    """Run the mutant's checks against a patched copy of the package; see the module docstring."""
    if mutant.equivalent:
        return MutantResult(mutant, "equivalent", detail=mutant.equivalent)
    root = repository_root() if root is None else root
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix=f"mutant-{mutant.id}-") as tmp:
        sandbox = Path(tmp)
        for name in _COPIED:
            src = root / name
            if src.is_dir():
                shutil.copytree(src, sandbox / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            elif src.exists():
                shutil.copy2(src, sandbox / name)
        try:
            apply_edit(mutant, sandbox)
        except ParameterError as exc:
            return MutantResult(mutant, "broken", detail=str(exc))
        env = dict(os.environ)
        env["PYTHONPATH"] = str(sandbox) + os.pathsep + env.get("PYTHONPATH", "")
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        args = [sys.executable, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider", "--no-header",
                "-W", "ignore::pytest.PytestUnraisableExceptionWarning", *_one_process(), *extra_args]
        if mutant.deep:
            args.append("--deep")
        try:
            proc = subprocess.run(args + list(mutant.checks), cwd=sandbox, env=env, capture_output=True,
                                  text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return MutantResult(mutant, "broken", seconds=time.perf_counter() - start,
                                detail=f"checks did not finish within {timeout:.0f} s")
    seconds = time.perf_counter() - start
    out = proc.stdout + proc.stderr
    if proc.returncode == 0:
        return MutantResult(mutant, "survived", seconds=seconds)
    if proc.returncode == 1:
        return MutantResult(mutant, "killed", _failed_nodes(out), seconds)
    # 2: interrupted or collection error, 3: internal error, 4: usage error, 5: no tests
    tail = "\n".join(out.strip().splitlines()[-8:])
    return MutantResult(mutant, "broken", _failed_nodes(out), seconds,
                        f"pytest exit {proc.returncode}: {tail}")


def run_matrix(mutants: list[Mutant], *, workers: int | None = None, timeout: float = 900.0,
               progress=None) -> list[MutantResult]:
    """Run many mutants (each in its own subprocess), ``workers`` at a time; results in input order."""
    from concurrent.futures import ThreadPoolExecutor

    workers = workers or max(1, (os.cpu_count() or 1))
    root = repository_root()
    results: list[MutantResult | None] = [None] * len(mutants)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(run_mutant, m, root=root, timeout=timeout): i for i, m in enumerate(mutants)}
        for future in futures:
            i = futures[future]
            results[i] = future.result()
            if progress is not None:
                progress(results[i])
    return [r for r in results if r is not None]
