"""Meta-tests of the claims registry: every claim is tested, every marker is known."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from reference.claims import KINDS, PAPERS, Claim, all_algorithms, all_claims, claim_tests, scan_test_file
from reference.errors import ParameterError


def test_every_registered_claim_has_a_test():
    tests = claim_tests()
    untested = sorted(cid for cid in all_claims() if not tests.get(cid))
    assert not untested, f"registered claims with no test naming them: {untested}"


def test_every_claim_marker_names_a_registered_claim():
    known = all_claims()
    unknown = sorted(cid for cid in claim_tests() if cid not in known)
    assert not unknown, f"tests name unregistered claims: {unknown}"


def test_claims_have_valid_kinds_and_papers():
    for claim in all_claims().values():
        assert claim.kind in KINDS
        assert claim.paper in PAPERS
        assert claim.statement.strip()


def test_algorithms_resolve_to_functions():
    import importlib

    for alg in all_algorithms():
        module, _, name = alg.function.partition(":")
        assert callable(getattr(importlib.import_module(module), name)), alg


@pytest.mark.parametrize("bad", ["no-colon", "unknownpaper:Thm 1", "core:"])
def test_claim_id_must_be_paper_and_locator(bad):
    with pytest.raises(ParameterError):
        Claim(bad, "privacy", "a statement")


def test_claim_kind_must_be_known():
    with pytest.raises(ParameterError):
        Claim("core:x", "vibes", "a statement")


def test_static_scan_reads_functions_classes_and_pytestmark(tmp_path):
    """The scanner the CLI uses must see all three ways of naming a claim."""
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_demo.py").write_text(
        "import pytest\n"
        "pytestmark = pytest.mark.claim('core:A')\n"
        "@pytest.mark.claim('core:B')\n"
        "def test_one():\n    pass\n"
        "@pytest.mark.claim('core:C')\n"
        "class TestGroup:\n"
        "    @pytest.mark.claim('core:D')\n"
        "    def test_two(self):\n        pass\n"
        "def helper():\n    pass\n"
    )
    found = scan_test_file(tests / "test_demo.py", tmp_path)
    assert found == {
        "core:A": ["tests/test_demo.py::test_one", "tests/test_demo.py::TestGroup::test_two"],
        "core:B": ["tests/test_demo.py::test_one"],
        "core:C": ["tests/test_demo.py::TestGroup::test_two"],
        "core:D": ["tests/test_demo.py::TestGroup::test_two"],
    }


def test_static_scan_agrees_with_pytest_collection(request):
    """What the CLI reports as a claim's tests is what pytest actually collects."""
    scanned = {(cid, node) for cid, nodes in claim_tests().items() for node in nodes}
    collected = set()
    for item in request.session.items:
        node = item.nodeid.split("[")[0]
        for mark in item.iter_markers("claim"):
            collected.add((mark.args[0], node))
    # The session may be a subset (-k, a single file): compare on the files it collected.
    files = {item.nodeid.split("::")[0] for item in request.session.items}
    scanned_here = {(c, n) for c, n in scanned if n.split("::")[0] in files}
    assert scanned_here == collected


def test_claims_json_contract():
    out = subprocess.run([sys.executable, "-m", "reference", "claims", "--json"],
                         capture_output=True, text=True, check=True).stdout
    rows = json.loads(out)
    assert isinstance(rows, list)
    for row in rows:
        assert {"id", "paper", "locator", "kind", "statement", "tests", "status"} <= set(row)
        assert row["status"] == ("checked" if row["tests"] else "unchecked")
    assert [r["id"] for r in rows] == sorted(all_claims())


def test_claim_sources_cite_the_paper_or_a_document_in_the_repository():
    """A user of the package has the papers and this repository, not the design notes or the catalogues
    the package was built from (issue 15): every source is non-empty and cites neither; errata ids cited
    exist in docs/errata.md."""
    import re

    from reference.claims import project_root

    errata = (project_root() / "docs" / "errata.md").read_text(encoding="utf-8")
    for cid, claim in all_claims().items():
        source = claim.source
        assert source.strip(), cid
        assert not re.search(r"DESIGN|catalogue|AMB\d|\bissue \d|shared/", source), (cid, source)
        for erratum in re.findall(r"\b[a-z_]+-[A-Z]\d\d\b", source):
            assert f"### {erratum}:" in errata, (cid, erratum)


def test_every_rigorous_proof_says_whether_it_covers_the_domain_or_points():
    """The two kinds of rigorous evidence are kept apart: each @rigorous test in proofs/ carries exactly one of
    domain= / points= (the registry derives a claim's kind from them), a test whose method says it evaluates only 'at
    the named' points (no 'every', no symbolic step) is never labelled domain unless the claim is about those points (then its domain text says so),
    and claims --json carries the derived kind."""
    import ast

    from reference.claims import claims_table, project_root, rigorous_scope

    root = project_root()
    bad, named = [], []
    for path in sorted((root / "proofs").glob("proof_*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                kind, text = rigorous_scope(node.decorator_list)
                if kind in ("", "invalid"):
                    bad.append(f"{path.name}::{node.name}")
                src = ast.get_source_segment(path.read_text(encoding="utf-8"), node.decorator_list[0]) or ""
                only_points = "at the named" in src and "every" not in src and "symbolic" not in src
                if kind == "domain" and only_points and "names" not in text:
                    named.append(f"{path.name}::{node.name}")
    assert not bad, f"proofs/ tests without exactly one of @rigorous(domain=|points=) / @evidence: {bad}"
    assert not named, f"tests evaluating at named points labelled domain: {named}"
    rows = claims_table()
    assert all(r["rigorous"] in ("domain", "point", "none") for r in rows)
    for r in rows:
        p = r["proofs"]
        assert p["rigorous"] == p["domain"] + p["point"]
        assert r["rigorous"] == ("domain" if p["domain"] else "point" if p["point"] else "none"), r["id"]
    assert any(r["rigorous"] == "domain" for r in rows) and any(r["rigorous"] == "point" for r in rows)


def test_rigorous_scope_reads_the_marker(tmp_path):
    """The kind is read from the marker's keywords, and a rigorous marker with neither (or both) is invalid."""
    import ast

    from reference.claims import rigorous_scope

    def scope(decorator):
        return rigorous_scope(ast.parse(f"@{decorator}\ndef test_x(): pass").body[0].decorator_list)

    assert scope('pytest.mark.rigorous(method="m", domain="every x > 0")') == ("domain", "every x > 0")
    assert scope('pytest.mark.rigorous(method="m", points="x = 1")') == ("point", "x = 1")
    assert scope('pytest.mark.evidence("grid")') == ("evidence", "grid")
    assert scope('pytest.mark.rigorous(method="m")')[0] == "invalid"
    assert scope('pytest.mark.rigorous(method="m", domain="a", points="b")')[0] == "invalid"
