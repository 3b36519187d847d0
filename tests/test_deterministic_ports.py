"""The deterministic ports of examples/deterministic_ports.py, judged by conform's default (output-only) answer.

Each correct port is written from its paper (vectorised, in its own order) and must conform: exit status 0
from the properties of what it releases, with replay reported beside it (it agrees to rounding)."""

from __future__ import annotations

import pytest

from examples.deterministic_ports import PORTS
from reference.oracle.conform import check_implementation


@pytest.mark.parametrize("algorithm", sorted(PORTS))
def test_correct_port_conforms_by_default(algorithm):
    function = PORTS[algorithm][0]
    report = check_implementation(f"examples.deterministic_ports:{function.__name__}", algorithm, as_json=True)
    assert report["passed"], (algorithm, report["failed"])
    assert report["bit_exact"]["answer"] == "yes", report["bit_exact"]
