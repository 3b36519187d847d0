"""The suite does not depend on the order its tests run in (issue 8).

Global mpmath precision set by one module changed the results of another (32 failures in one
order, none in the default one). No module may set ``mpmath.mp.dps`` or ``mpmath.mp.prec``;
high-precision code runs inside ``with mpmath.workdps(...)``. ``pytest --shuffle SEED`` (conftest.py)
runs the suite in a random order to show the rest.
"""

from __future__ import annotations

import re
from pathlib import Path

import mpmath

ROOT = Path(__file__).resolve().parents[1]
GLOBAL_PRECISION = re.compile(r"^[^#\n]*\bmp\.(dps|prec)\s*=(?!=)", re.MULTILINE)


def test_no_module_sets_global_mpmath_precision():
    offenders = []
    for folder in ("reference", "tests", "proofs"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for match in GLOBAL_PRECISION.finditer(path.read_text(encoding="utf-8")):
                line = path.read_text(encoding="utf-8")[:match.start()].count("\n") + 1
                offenders.append(f"{path.relative_to(ROOT)}:{line}")
    assert not offenders, ("global mpmath precision set (use `with mpmath.workdps(...)`): " + ", ".join(offenders))


def test_the_pattern_finds_an_assignment_and_ignores_comments_and_contexts():
    set_dps, set_prec = "mpmath.mp." + "dps = 50\n", "    mp." + "prec = 200\n"   # split: not a hit here
    assert GLOBAL_PRECISION.search(set_dps)
    assert GLOBAL_PRECISION.search(set_prec)
    assert not GLOBAL_PRECISION.search("# produced at mp.dps = 50\n")
    assert not GLOBAL_PRECISION.search("with mpmath.workdps(50):\n")
    assert not GLOBAL_PRECISION.search("assert mpmath.mp.dps == 15\n")


def test_precision_is_the_default_after_collection():
    """Every module of the suite is imported by now: none left a different global precision behind."""
    assert mpmath.mp.dps == 15 and mpmath.mp.prec == 53
