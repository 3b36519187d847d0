"""The deterministic ports of examples/deterministic_ports.py, judged by conform's default (output-only) answer.

Each correct port is written from its paper (vectorised, in its own order) and must conform: exit status 0
from the properties of what it releases, its law (a point mass at the reference's output, within rounding)
passing, with replay reported beside it (it agrees to rounding). Each wrong variant, a misreading of the same
text, must be rejected by the default answer, and by the property named here (the measured table in
examples/README.md): the law (its output is not the reference's on at least one case), and feasibility too
where it leaves the ball. Everything is deterministic (no draws, fixed cases): no false-alarm rate to state."""

from __future__ import annotations

import pytest

from examples.deterministic_ports import PORTS
from reference.oracle.conform import check_implementation

# variants whose output also leaves the constraint set; every other one is rejected by the law alone
LEAVES_THE_SET = {"lasso_frank_wolfe_unit_ball", "scof_no_projection", "giga_no_projection", "ftl_unconstrained"}

WRONG = [(algorithm, f"{function.__name__}_{variant.replace('-', '_')}")
         for algorithm, (function, variants) in sorted(PORTS.items()) for variant in variants]


def _verdicts(report):
    return {p["property"]: p["verdict"] for p in report["properties"]}


@pytest.mark.parametrize("algorithm", sorted(PORTS))
def test_correct_port_conforms_by_default(algorithm):
    function = PORTS[algorithm][0]
    report = check_implementation(f"examples.deterministic_ports:{function.__name__}", algorithm, as_json=True)
    assert report["passed"], (algorithm, report["failed"])
    assert _verdicts(report)["law"] == "pass"          # judged by its output, not only by replay
    assert report["bit_exact"]["answer"] == "yes", report["bit_exact"]


@pytest.mark.parametrize("algorithm, name", WRONG, ids=[name for _, name in WRONG])
def test_wrong_variant_is_rejected_by_default_naming_the_property(algorithm, name):
    report = check_implementation(f"examples.deterministic_ports:{name}", algorithm, as_json=True)
    expected = {"law", "feasibility"} if name in LEAVES_THE_SET else {"law"}
    assert not report["passed"]
    assert set(report["failed"]) == expected, report["failed"]
    law = [row for row in report["rows"] if row["check"] == "law" and not row["passed"]]
    assert law and all(row["detail"].startswith("not ") and "largest deviation" in row["detail"] for row in law), law
    assert report["bit_exact"]["answer"] == "no"         # replay sees it too (reported, not required)


def test_every_id_has_two_to_five_wrong_variants():
    assert len(PORTS) == 8
    assert all(2 <= len(variants) <= 5 for _, variants in PORTS.values())
