"""White-box row of saddle_point (reference/audit/cases_saddle_point.py): the instance's iterates are the ones its
exact transcript law uses, the search picks the row's batch, and the row reports its exact value and control."""

from __future__ import annotations

import math

import numpy as np
import pytest

from reference.algorithms import saddle_point as sp
from reference.audit import cases_saddle_point as cs
from reference.audit.runner import run_case


@pytest.mark.claim("saddle_point:Proposition 3.3")
def test_line_by_line_iterates_are_the_exact_laws_draws():
    """Line-by-line Algorithm 1 on the row's pair: x_1 = y_1 uniform, and from step 2 on both players' iterates
    give e_1 the probability the exact law uses (D and D'), whatever vertices were drawn."""
    for neighbour, which in ((False, 0), (True, 1)):
        game = cs.wb_game(cs.wb_data(cs.WB_K, neighbour))
        res = sp.private_smd_vertices(game, cs.WB["eps"], cs.WB["delta"], np.random.default_rng(3), T=cs.WB["T"],
                                      K=cs.WB["K"], calibration="certified")
        p = float(cs.wb_draw_law(cs.WB_K)[which][0])
        assert np.allclose(res.iterates_x[0], 0.5) and np.allclose(res.iterates_y[0], 0.5)
        assert np.allclose(res.iterates_x[1:, 0], p, rtol=1e-12) and np.allclose(res.iterates_y[1:, 0], p, rtol=1e-12)
        assert res.eta == pytest.approx(cs.wb_step())


@pytest.mark.claim("saddle_point:Proposition 3.3")
def test_whitebox_search_and_row():
    """Over k other pushes in batch 1, the exact transcript epsilon is 0.804 of the certified 1.0 (k = 7). Before
    issue 13's bounded-range accounting it was 0.448 (the accountant charged each exponential-mechanism draw as
    randomized response at eps0, audit-E04); now the draws are composed as eps0-bounded-range
    (reference/privacy/bounded_range.py), the certified step is larger and the row meets its 0.75 target.
    The control (twice the step) has exact epsilon 1.71, in (eps, 2 eps], and is flagged."""
    value, k = cs.saddle_search()
    assert k == cs.WB_K and value == pytest.approx(0.8045, abs=1e-4)
    row = run_case(cs._whitebox_case())
    assert row.audit == "white-box" and row.verdict == "confirmed" and row.negative_control_detected
    assert row.certified_epsilon == pytest.approx(1.0, abs=1e-6)
    assert row.tightness == pytest.approx(value, rel=1e-6) and 1.0 < row.negative_control_measured <= 2.0
    assert row.tightness >= 0.75
