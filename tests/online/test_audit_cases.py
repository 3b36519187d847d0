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
    assert len(rows) == 8 and all(isinstance(c, PrivacyCase) for c in rows)
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
