"""The audit rows of lasso (reference/audit/cases_lasso.py): exact rows within the claim with their
negative controls flagged, one empirical row run small, and the rate row's shape."""

from __future__ import annotations

import pytest

from reference.audit import cases_lasso as cases
from reference.audit.cases import ExactCase, PrivacyCase, RateCase
from reference.audit.exact import exact_epsilon


def test_every_privacy_row_has_both_calibrations_and_a_control():
    rows = cases.audit_cases()
    assert sum(isinstance(c, ExactCase) for c in rows) == 4
    assert sum(isinstance(c, PrivacyCase) for c in rows) == 2
    assert any(isinstance(c, RateCase) and c.claim == "lasso:Theorem 1.1 rate" for c in rows)


@pytest.mark.claim("lasso:Theorem 2.4")
def test_exact_rows_within_the_claim_and_controls_flagged():
    for case in cases.audit_cases():
        if isinstance(case, ExactCase):
            p, q = case.distributions()
            cp, cq = case.negative_control()
            assert float(exact_epsilon(p, q, case.claimed_delta)) <= case.claimed_epsilon
            assert float(exact_epsilon(cp, cq, case.claimed_delta)) > case.claimed_epsilon
    paper = next(c for c in cases.audit_cases() if isinstance(c, ExactCase))
    assert paper.certify() == pytest.approx(0.8016, abs=1e-3)   # 3 steps of sqrt(2)/sqrt(4 ln 1000) each


def test_exact_law_is_a_distribution_over_the_transcripts():
    law = cases.transcript_law((1.0, -1.0), 5, 0.7)
    assert len(law) == 16 and abs(sum(law) - 1) < 1e-40


@pytest.mark.claim("lasso:Theorem 2.4")
def test_tight_pair_rows_detect_a_control_2x_off():
    """The exact rows at the p = 2 pair: within the claim (and the certified epsilon) for both calibrations,
    and the control at half the smallest certified noise above the claim (exact 4.18 > 4)."""
    rows = [c for c in cases.audit_cases() if isinstance(c, ExactCase) and "tight pair" in c.title]
    assert len(rows) == 2
    for case in rows:
        p, q = case.distributions()
        exact = float(exact_epsilon(p, q, case.claimed_delta))
        assert exact <= case.claimed_epsilon and exact <= case.certify()
        cp, cq = case.negative_control()
        assert float(exact_epsilon(cp, cq, case.claimed_delta)) > case.claimed_epsilon


@pytest.mark.claim("lasso:Theorem 2.4")
def test_lasso_search_finds_the_rows_pair_and_the_rows_say_why_they_are_loose():
    """Over one-record pairs on a grid of [-1, 1]^2 (p = 1, T = 4, certified lambda) the exact transcript epsilon is
    at most 0.249 of the certified 1.0, at the rows' pair; the white-box rows carry the reason (audit-E04)."""
    from reference.audit import cases_lasso as cl
    from reference.audit.runner import run_case

    value, a, b = cl.lasso_search()
    assert {a, b} == set(map(tuple, cl.PAIR)) and value == pytest.approx(0.2487, abs=1e-4)
    rows = [c for c in cl.audit_cases() if getattr(c, "audit", "") == "white-box"]
    assert len(rows) == 4
    row = run_case(next(c for c in rows if c.calibration == "certified" and "T=4" in c.title))
    assert row.tightness == pytest.approx(value, rel=1e-6) and "audit-E04" in row.tightness_note
