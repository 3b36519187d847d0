"""The registry of every checkable claim of every paper, and of every algorithm.

A claim is a statement of a paper (or of a building block's source theorem) that
a test can check. It has a stable id ``<paper>:<locator>`` (``erm_geometry:Theorem 3.1``,
``core:Gaussian classic calibration``), a kind, and a one-line statement in this
package's own words.

Where claims live: any module of the package may define a module-level tuple
``CLAIMS`` of :class:`Claim` (and ``ALGORITHMS`` of :class:`Algorithm`); the
registry discovers them by walking the package, so a paper module registers its
claims beside its code without editing this file.

Which tests check a claim: tests carry ``@pytest.mark.claim("<id>")`` (or a
module-level ``pytestmark``). :func:`claim_tests` finds the markers by reading
the test files' syntax trees, without importing or running them, so
``python -m reference claims`` is fast. The meta-test
(tests/test_claims_registry.py) fails when a claim has no test or a marker
names an unknown claim.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .errors import ParameterError

#: What a claim's formula rests on, where the paper's text is not the whole story (saddle_point's seed
#: lost its formulas): the seed text itself, a cited source, a sibling paper by overlapping authors whose
#: definition is assumed identical ("sibling"), a derivation in this package, a reconstruction (a hypothesis
#: the tests then try hard), or a convention of this package that is no statement of the paper ("package").
#: Empty for papers whose text is intact.
BASES = ("", "seed", "source", "sibling", "derived", "reconstructed", "package")

KINDS = ("privacy", "sensitivity", "accounting", "utility", "lower-bound", "constant", "invariant")

PAPERS: dict[str, str] = {
    "core": "Building blocks: mechanisms, accounting and geometry, each citing its source theorem",
    "erm_geometry": "Talwar, Thakurta, Zhang - Private ERM beyond the worst case: the effect of the constraint set geometry",
    "heavy_tailed": "Kamath, Liu, Zhang - Improved rates for DP stochastic convex optimization with heavy-tailed data",
    "online": "Jain, Kothari, Thakurta - Differentially private online learning",
    "saddle_point": "Gonzalez, Guzman, Paquette - Mirror descent for DP stochastic saddle-point problems",
    "lasso": "Talwar, Thakurta, Zhang - Nearly-optimal private LASSO",
}

SEED_FILES: dict[str, str] = {
    "erm_geometry": "000_b4c55cd604fd3d80.txt",
    "heavy_tailed": "001_e5e2a2910354303b.txt",
    "online": "002_a3b672db490b4f84.txt",
    "saddle_point": "003_b320ffa2393cb150.txt",
    "lasso": "004_09cb2d1f0bb16a47.txt",
}


@dataclass(frozen=True)
class Claim:
    """One checkable statement. ``id`` is ``<paper>:<locator>``."""

    id: str
    kind: str
    statement: str
    source: str = ""
    basis: str = ""

    def __post_init__(self) -> None:
        paper, sep, locator = self.id.partition(":")
        if not sep or not locator.strip():
            raise ParameterError("Claim.id", "of the form '<paper>:<locator>'", self.id)
        if paper not in PAPERS:
            raise ParameterError("Claim.id", f"a paper key in {sorted(PAPERS)}", paper)
        if self.kind not in KINDS:
            raise ParameterError("Claim.kind", f"one of {KINDS}", self.kind)
        if not self.statement.strip():
            raise ParameterError("Claim.statement", "non-empty", self.statement)
        if self.basis not in BASES:
            raise ParameterError("Claim.basis", f"one of {BASES}", self.basis)

    @property
    def paper(self) -> str:
        return self.id.partition(":")[0]

    @property
    def locator(self) -> str:
        return self.id.partition(":")[2]


@dataclass(frozen=True)
class Algorithm:
    """An algorithm of a paper and the function that implements it."""

    paper: str
    number: str          # the paper's label, e.g. "Algorithm 1"
    name: str            # the paper's name for it
    function: str        # "reference.algorithms.erm_geometry:noisy_mirror_descent"
    section: str = ""


def _walk_modules():
    # the package this module belongs to, by name (a renamed copy, e.g. a mutant's, walks itself)
    package = importlib.import_module(__package__)

    for info in pkgutil.walk_packages(package.__path__, prefix=f"{__package__}."):
        if info.name.rsplit(".", 1)[-1] in ("__main__", "cli"):
            continue
        yield importlib.import_module(info.name)


@lru_cache(maxsize=1)
def _discover() -> tuple[dict[str, Claim], tuple[Algorithm, ...]]:
    claims: dict[str, Claim] = {}
    algorithms: list[Algorithm] = []
    for module in _walk_modules():
        for claim in getattr(module, "CLAIMS", ()):
            if claim.id in claims and claims[claim.id] != claim:
                raise ParameterError("Claim.id", "unique across the package", claim.id)
            claims[claim.id] = claim
        algorithms.extend(getattr(module, "ALGORITHMS", ()))
    return claims, tuple(algorithms)


def all_claims() -> dict[str, Claim]:
    """Every registered claim, by id, in a stable (sorted) order."""
    claims, _ = _discover()
    return dict(sorted(claims.items()))


def all_algorithms() -> tuple[Algorithm, ...]:
    _, algorithms = _discover()
    return tuple(sorted(algorithms, key=lambda a: (a.paper, a.number)))


@lru_cache(maxsize=1)
def all_building_blocks() -> tuple[Algorithm, ...]:
    """The building blocks (mechanisms a paper's algorithms call), from every module's ``BUILDING_BLOCKS``.

    Each is an :class:`Algorithm` of paper ``core`` whose ``number`` is the block's id
    (``core:gaussian_mechanism``, the id ``conform`` and the kill matrix use). They are listed by
    ``python -m reference list`` beside the algorithms; they have no line-by-line page.
    """
    blocks = [b for module in _walk_modules() for b in getattr(module, "BUILDING_BLOCKS", ())]
    return tuple(sorted(blocks, key=lambda b: b.number))


# ---------------------------------------------------------------------------
# Which tests name which claims: a static scan of tests/ and proofs/.

def project_root() -> Path:
    """The checkout that holds tests/ and proofs/ (the package's parent, when installed editable)."""
    here = Path(__file__).resolve().parent.parent
    for candidate in (here, Path.cwd()):
        if (candidate / "tests").is_dir():
            return candidate
    return here


def _claim_ids_in_decorators(decorators: list[ast.expr]) -> list[str]:
    found = []
    for dec in decorators:
        for node in ast.walk(dec):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "claim" and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.append(node.args[0].value)
    return found


def _module_pytestmark(tree: ast.Module) -> list[str]:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
            values = node.value.elts if isinstance(node.value, (ast.List, ast.Tuple)) else [node.value]
            return _claim_ids_in_decorators(values)
    return []


def scan_test_file(path: Path, root: Path) -> dict[str, list[str]]:
    """Map claim id -> pytest node ids (without parameters) for one test file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    rel = path.relative_to(root).as_posix()
    out: dict[str, list[str]] = {}
    module_ids = _module_pytestmark(tree)

    def visit(body, prefix, inherited):
        for node in body:
            if isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                visit(node.body, prefix + [node.name], inherited + _claim_ids_in_decorators(node.decorator_list))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                for cid in inherited + _claim_ids_in_decorators(node.decorator_list):
                    out.setdefault(cid, []).append("::".join([rel, *prefix, node.name]))

    visit(tree.body, [], module_ids)
    return out


def claim_tests(root: Path | None = None) -> dict[str, list[str]]:
    """Map claim id -> pytest node ids, for every test under tests/ and proofs/."""
    root = project_root() if root is None else root
    out: dict[str, list[str]] = {}
    for folder in ("tests", "proofs"):
        base = root / folder
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*.py")):
            if not (path.name.startswith("test_") or path.name.startswith("proof_")):
                continue
            for cid, nodes in scan_test_file(path, root).items():
                out.setdefault(cid, []).extend(nodes)
    return out


#: The kinds of a proofs/ test, read from its marker: ``rigorous(method=..., domain=...)`` is certified over
#: the whole domain the claim's statement names ("domain"); ``rigorous(method=..., points=...)`` is certified
#: at named points, a finite range or a part of that domain ("point"); ``evidence(reason)`` is not certified.
PROOF_KINDS = ("domain", "point", "evidence")


def rigorous_scope(decorators: list[ast.expr]) -> tuple[str, str]:
    """('domain' | 'point' | 'evidence' | '', the marker's domain/points/reason text) from a test's decorators;
    'invalid' when a ``rigorous`` marker has not exactly one of ``domain=`` / ``points=``."""
    for dec in decorators:
        for node in ast.walk(dec):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr == "evidence":
                text = node.args[0].value if node.args and isinstance(node.args[0], ast.Constant) else ""
                return "evidence", str(text)
            if node.func.attr == "rigorous":
                kw = {k.arg: k.value for k in node.keywords}
                scope = [k for k in ("domain", "points") if k in kw]
                if len(scope) != 1 or not isinstance(kw[scope[0]], ast.Constant):
                    return "invalid", ""
                return ("domain" if scope[0] == "domain" else "point"), str(kw[scope[0]].value)
    return "", ""


def _proof_kind(decorators: list[ast.expr]) -> str:
    """'domain', 'point' or 'evidence' (see :data:`PROOF_KINDS`) from a test's markers."""
    return rigorous_scope(decorators)[0]


def proof_kinds(root: Path | None = None) -> dict[str, str]:
    """Map proofs/ test node id -> 'domain' (certified over the domain the claim's statement names), 'point'
    (certified at named points, a finite range or a part of that domain) or 'evidence' (sampling or uncertified
    numerics), read from the markers (proofs/conftest.py defines them and refuses a test without one)."""
    root = project_root() if root is None else root
    out: dict[str, str] = {}
    base = root / "proofs"
    if not base.is_dir():
        return out
    for path in sorted(base.glob("proof_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        rel = path.relative_to(root).as_posix()
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                out[f"{rel}::{node.name}"] = _proof_kind(node.decorator_list)
    return out


def rigorous_kind(counts: dict[str, int]) -> str:
    """The kind of a claim's rigorous evidence from its proofs/ tests' kinds: 'domain' when one is certified over
    the statement's domain, else 'point' when one is certified at points, else 'none'."""
    return "domain" if counts.get("domain") else "point" if counts.get("point") else "none"


def built_papers() -> list[str]:
    """The papers with at least one registered claim or algorithm, in PAPERS order."""
    claims, algorithms = _discover()
    have = {c.paper for c in claims.values()} | {a.paper for a in algorithms}
    return [k for k in PAPERS if k in have]


def require_built(paper: str, what: str = "claims") -> None:
    """Raise :class:`NotBuiltError` for a known paper with nothing registered (ParameterError if unknown)."""
    from .errors import NotBuiltError

    if paper not in PAPERS:
        raise ParameterError("paper", f"one of {sorted(PAPERS)}", paper)
    if paper not in built_papers():
        raise NotBuiltError(paper, what, built_papers())


def claims_table(paper: str | None = None) -> list[dict]:
    """The registry as JSON-ready rows (the ``claims --json`` contract).

    A paper with nothing registered raises :class:`~reference.errors.NotBuiltError`, so
    ``claims --paper KEY`` of an unbuilt paper exits non-zero instead of listing nothing.
    """
    if paper is not None:
        require_built(paper, "claims")
    tests = claim_tests()
    kinds = proof_kinds()
    rows = []
    for cid, claim in all_claims().items():
        if paper is not None and claim.paper != paper:
            continue
        nodes = sorted(set(tests.get(cid, [])))
        proofs = {k: sum(kinds.get(n) == k for n in nodes) for k in PROOF_KINDS}
        proofs["rigorous"] = proofs["domain"] + proofs["point"]
        rows.append({
            "id": cid,
            "paper": claim.paper,
            "locator": claim.locator,
            "kind": claim.kind,
            "statement": claim.statement,
            "source": claim.source,
            "basis": claim.basis or "seed",
            "tests": nodes,
            "status": "checked" if nodes else "unchecked",
            # the proofs/ tests of the claim by kind: certified over the statement's domain, certified at points
            # (or on a part of the domain), evidence; "rigorous" counts the first two
            "proofs": proofs,
            "rigorous": rigorous_kind(proofs),
        })
    return rows
