"""The traceability generator ties '# Line k:' comments to real code lines and keeps hand-written text."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from reference import traceability
from reference.errors import ParameterError


def _demo_algorithm(x):
    # Line 1: start at zero
    y = 0
    # Line 2: add x
    y += x
    # Line 3a: return it
    return y


def test_algorithm_lines_point_at_the_comment_lines():
    rows = traceability.algorithm_lines(f"{__name__}:_demo_algorithm", Path(__file__).parents[1])
    source, start = inspect.getsourcelines(_demo_algorithm)
    assert [r[0] for r in rows] == ["1", "2", "3a"]
    assert [r[1] for r in rows] == ["start at zero", "add x", "return it"]
    for _, text, where in rows:
        path, lineno = where.rsplit(":", 1)
        assert path == "tests/test_traceability.py"
        assert text in source[int(lineno) - start]


def test_updated_page_keeps_hand_written_text(tmp_path, monkeypatch):
    (tmp_path / "docs").mkdir()
    page = tmp_path / "docs" / "core.md"
    page.write_text("# Intro by hand\n\n" + traceability.BEGIN.format(key="core") + "\nold\n"
                    + traceability.END + "\n\n## Notes by hand\n")
    new = traceability.updated_page("core", tmp_path)
    assert new.startswith("# Intro by hand\n\n<!-- BEGIN GENERATED")
    assert new.rstrip().endswith("## Notes by hand")
    assert "\nold\n" not in new
    page.write_text(new)
    assert traceability.is_current("core", tmp_path)


def test_unknown_paper_is_refused():
    with pytest.raises(ParameterError):
        traceability.generate("nonsense")


@pytest.mark.parametrize("key", ["core", "erm_geometry", "lasso", "heavy_tailed", "online"])
def test_committed_traceability_pages_are_current(key):
    """docs/<key>.md's generated part matches the code; regenerate with
    `python -m reference trace --write` after moving code lines or changing claims."""
    assert traceability.is_current(key), f"docs/{key}.md is stale: run python -m reference trace --write"
