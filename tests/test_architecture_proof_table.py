"""docs/architecture.md, "Claims and the kind of their proof": the table lists every registered claim with a proofs/
test, once, with the registry's kind of rigorous evidence, and the counts above it are the table's.

A claim that gains a proofs/ test without a row (lasso:Corollary 2.7 did, unnoticed, until this test), a row whose
kind the registry no longer gives, or a count not recomputed after an edit fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

from reference.claims import claims_table

DOC = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"


def _section() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("### Claims and the kind of their proof")
    end = text.find("\n## ", start)
    return text[start:] if end < 0 else text[start:end]


def _rows(section: str) -> list[list[str]]:
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| claim")]
    return [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in rows]


def test_every_claim_with_a_proofs_test_has_one_row_with_the_registrys_kind():
    registry = {r["id"]: r["rigorous"] for r in claims_table() if any(t.startswith("proofs/") for t in r["tests"])}
    rows = _rows(_section())
    ids = [r[0] for r in rows]
    assert len(ids) == len(set(ids)), "a claim listed twice"
    assert set(ids) == set(registry), (sorted(set(registry) - set(ids)), sorted(set(ids) - set(registry)))
    assert {r[0]: r[1] for r in rows} == registry


def test_the_counts_are_the_tables():
    section = _section()
    rows = _rows(section)
    decisions = [r[2] for r in rows]
    named = sum(d.startswith("about named points") for d in decisions)
    stated = sum(d.startswith("proved over its stated domain") for d in decisions)
    narrowed = sum(d.startswith("proved over a narrowed domain") for d in decisions)
    not_proved = sum(d.startswith("not proved") for d in decisions)
    assert named + stated + narrowed + not_proved == len(rows)          # every decision is one of the four
    flat = " ".join(section.split())
    assert f"Every registered claim with a proofs/ test ({len(rows)})" in flat
    quantified = len(rows) - named
    share = round(100 * (stated + narrowed) / quantified)
    expected = (f"Counts: {named} about named points; of the {quantified} quantified, {stated} proved over their "
                f"stated domain, {narrowed} over a narrowed domain ({stated + narrowed} of {quantified}, {share}%), "
                f"{not_proved} not proved")
    assert expected in flat, re.search(r"Counts:[^.]*", flat).group(0)
