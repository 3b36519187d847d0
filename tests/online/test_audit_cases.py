"""The audit rows of online (reference/audit/cases_online.py): each privacy row has a control at most 2x off,
and the certified numbers the rows report are those the tests derive (paper rows above the claim, certified
rows within it)."""

from __future__ import annotations

import pytest

from reference.audit import cases_online as co
from reference.audit.cases import PrivacyCase
from reference.audit.standards import assert_control_near


def test_rows_and_controls():
    rows = co.audit_cases()
    assert len(rows) == 11 and all(isinstance(c, PrivacyCase) for c in rows)
    assert sum(c.audit == "white-box" for c in rows) == 3
    assert_control_near(co.pocp_beta("certified"), co.pocp_beta("certified", 0.5))
    for c in rows:
        assert "half the noise" in c.negative_control_note


@pytest.mark.claim("online:Theorem 10")
@pytest.mark.claim("online:Theorem 3")
def test_row_certificates():
    assert co.pocp_certified("certified") <= 3.0 and co.pocp_certified("paper") <= 3.0
    assert co.pigd_certified("paper") > 3.0 >= co.pigd_certified("certified")
    assert co.tree_certified("paper") > 0.1 >= co.tree_certified("certified")
    assert co.pol_certified("paper") > 1.0 >= co.pol_certified("certified")


def test_rows_point_the_test_at_the_neighbour():
    """Every row tests {S > t} forward, i.e. P_{D'}(S > t) against P_D(S > t): the statistic must be larger
    under the neighbour D' (a row pointed the other way can never flag anything, its control included)."""
    import numpy as np

    rng = np.random.default_rng(0)
    for case in co.audit_cases():
        assert case.thresholds.events == ("upper",) and case.thresholds.orders == ("forward",)
        if case.claim == "online:Theorem 10":      # one noisy point: compare the noise-free averages
            avg = lambda s: co.pol_one_run(s, rng, calibration="paper", result=True).extra["average"][0]
            assert avg(case.neighbour) > avg(case.dataset), case.title
            continue
        s_d = case.statistic(case.sampler(case.dataset, rng, 30))
        s_n = case.statistic(case.sampler(case.neighbour, rng, 30))
        assert np.mean(s_n) > np.mean(s_d), case.title
