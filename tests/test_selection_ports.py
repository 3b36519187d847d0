"""The third outsider pass (issue 31, examples/selection_ports.py): two readings its look-up list found the contract
silent on, each deciding conform's law on one case (the contract now states both; docs/conformance.md "Outsider
ports", "Third pass").

- saddle_point Algorithm 3's stopping rule: the worst-case check before N_t is drawn (the reference's reading) against
  drawing N_t and stopping when that step does not fit. On paper-game3x2-n256-B2 (300 runs a side, chi-square
  homogeneity at the case's alpha 2.5e-4) the wrong reading measured p = 1.9e-9, the port 0.51.
- saddle_point Algorithm 5's learner gradient weighted by alpha_t = t, against unweighted. On
  paper-linear-d2-n10-K100-tau1-eps290 the unweighted reading measured p = 1e-293.

Fixed seeds (conform's own); a correct port fails a case's law with probability at most the case's alpha.
"""

from __future__ import annotations

import pytest

from reference.oracle.conform import check_implementation

P = "examples.selection_ports"


def _law(function: str, algorithm: str, case: str):
    rows = check_implementation(f"{P}:{function}", algorithm, mode="law", only_case=case)
    law = [r for r in rows if r.check == "law" and r.status != "n/a"]
    assert law, rows
    return law


@pytest.mark.parametrize("function, algorithm, case, conforms", [
    ("bias_reduced", "saddle_point:Algorithm 3", "paper-game3x2-n256-B2", True),
    ("bias_reduced_draw_then_stop", "saddle_point:Algorithm 3", "paper-game3x2-n256-B2", False),
    ("sco_anytime", "saddle_point:Algorithm 5", "paper-linear-d2-n10-K100-tau1-eps290", True),
    ("sco_anytime_without_alpha", "saddle_point:Algorithm 5", "paper-linear-d2-n10-K100-tau1-eps290", False),
])
def test_a_silent_reading_decides_the_law(function, algorithm, case, conforms):
    law = _law(function, algorithm, case)
    assert all(r.passed for r in law) is conforms, [r.detail for r in law]
