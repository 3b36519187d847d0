"""The conformance oracle is one package, reference/oracle/, whose imports form a DAG.

Every import of every oracle module is read with ``ast``, function-level imports included, and the graph
among the oracle's modules must have no cycle. The rest of the package sits below the oracle: only the
command line (reference/cli.py) and the conform kill matrix (reference/mutants/conform.py) import it, and
the oracle imports neither of them. The twelve modules it replaced are gone from the top of reference/.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "reference"
ORACLE = PACKAGE / "oracle"
# the modules above the oracle that may import it
ORACLE_USERS = {"reference.cli", "reference.mutants.conform"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules(under: Path) -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(under.rglob("*.py"))}


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules ``name`` imports anywhere in its text (module level or inside functions), relative
    imports resolved; ``from package import submodule`` counts the submodule."""
    is_package = path.name == "__init__.py"
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                base = base[:len(base) - node.level + (1 if is_package else 0)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            out.add(module)
            out |= {f"{module}.{alias.name}" for alias in node.names if f"{module}.{alias.name}" in known}
    return out


def _graph() -> dict[str, set[str]]:
    modules = _modules(ORACLE)
    return {name: _imports(name, path, set(modules)) & set(modules) - {name} for name, path in modules.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of ``graph`` as a list of modules, or None (depth-first search, three colours)."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_oracle_imports_form_a_dag():
    graph = _graph()
    assert {"reference.oracle.vectors", "reference.oracle.suite", "reference.oracle.conform",
            "reference.oracle.cases", "reference.oracle.cases.online"} <= set(graph)
    assert _cycle(graph) is None, f"import cycle: {' -> '.join(_cycle(graph))}"


def test_the_cycle_finder_finds_a_cycle():
    """The check can fail: a back edge (vectors importing the suite, as the old vectors.py did) is a cycle."""
    graph = _graph()
    graph["reference.oracle.vectors"] = graph["reference.oracle.vectors"] | {"reference.oracle.suite"}
    assert _cycle(graph) is not None


def test_the_layers_point_down():
    """statistics and properties import no oracle module; vectors only those; the per-paper cases not the
    suite or the driver; nothing in the oracle imports the command line or the mutants."""
    graph = _graph()
    assert graph["reference.oracle.statistics"] == set()
    assert graph["reference.oracle.properties"] == set()
    assert graph["reference.oracle.vectors"] <= {"reference.oracle.statistics", "reference.oracle.properties"}
    above_cases = {"reference.oracle.suite", "reference.oracle.checks", "reference.oracle.conform"}
    for name, deps in graph.items():
        if name.startswith("reference.oracle.cases"):
            assert not deps & above_cases, (name, deps & above_cases)
    for name, path in _modules(ORACLE).items():
        outside = {m for m in _imports(name, path, set()) if m.startswith(("reference.cli", "reference.mutants"))}
        assert not outside, (name, outside)


def test_only_the_command_line_and_the_conform_matrix_import_the_oracle():
    modules = {n: p for n, p in _modules(PACKAGE).items() if not n.startswith("reference.oracle")}
    users = {name for name, path in modules.items()
             if any(m == "reference.oracle" or m.startswith("reference.oracle.") for m in _imports(name, path, set()))}
    assert users <= ORACLE_USERS, users - ORACLE_USERS


def test_no_oracle_module_is_left_at_the_top_of_reference():
    old = ["vectors", "vector_cases", "vector_cases_core", "vector_cases_erm_geometry", "vector_cases_lasso",
           "vector_cases_online", "vector_cases_saddle_point", "vector_properties", "vector_statistics",
           "conformance", "conformance_checks", "properties"]
    assert not [name for name in old if (PACKAGE / f"{name}.py").exists()]
