"""The worst-case neighbour search on tiny instances, and the documented worst-case pairs."""

from __future__ import annotations

import math

import numpy as np
import pytest

from reference.audit import cases_core
from reference.audit.exact import exact_epsilon
from reference.audit.search import laplace_noisy_max_law, search_pairs, softmax_law


@pytest.mark.claim("core:Worst-case neighbour search")
def test_laplace_noisy_max_two_candidates():
    """Claim 2 Delta/b = 1 (b = 2): nothing above it; the maximiser is the documented far-apart family;
    the monotone calibration b = Delta (negative control) is flagged by the same search."""
    found = search_pairs(laplace_noisy_max_law(2.0), 2, 1.0, span=40, step=1.0)
    assert found.epsilon <= 1.0
    assert abs(found.scores[1] - found.scores[0]) == 40           # the largest gap on the lattice
    # the documented pair (gap 40) attains the search's maximum (up to double vs 50-digit arithmetic)
    p, q = cases_core.laplace_noisy_max_pair(1.0, 2.0)
    assert float(exact_epsilon(p, q)) == pytest.approx(found.epsilon, abs=5e-3)
    g = 40.0
    assert float(exact_epsilon(p, q)) == pytest.approx(1.0 + math.log((1 + (g - 2) / 4) / (1 + g / 4)), rel=1e-12)
    control = search_pairs(laplace_noisy_max_law(1.0), 2, 1.0, span=40, step=1.0)
    assert control.epsilon > 1.0


@pytest.mark.claim("core:Worst-case neighbour search")
def test_exponential_mechanism_three_candidates():
    """EM at eps 1 (softmax of u/b with b = 2 Delta/eps): no lattice pair above 1; half the declared
    sensitivity (b = Delta/eps) flagged."""
    found = search_pairs(softmax_law(2.0), 3, 1.0, span=6, step=1.0)
    assert 0.99 < found.epsilon <= 1.0
    assert search_pairs(softmax_law(1.0), 3, 1.0, span=6, step=1.0).epsilon > 1.0


@pytest.mark.claim("core:Worst-case neighbour search")
def test_laplace_noisy_max_three_candidates_small_lattice():
    found = search_pairs(laplace_noisy_max_law(2.0), 3, 1.0, span=1, step=1.0)
    assert found.epsilon <= 1.0
    assert search_pairs(laplace_noisy_max_law(1.0), 3, 1.0, span=1, step=1.0).epsilon > 1.0


@pytest.mark.deep
@pytest.mark.claim("core:Worst-case neighbour search")
def test_laplace_noisy_max_three_candidates_wide_lattice():
    found = search_pairs(laplace_noisy_max_law(2.0), 3, 1.0, span=6, step=1.0)
    assert 0.99 < found.epsilon <= 1.0


@pytest.mark.claim("core:Worst-case neighbour search")
def test_quadrature_law_matches_closed_form():
    law = laplace_noisy_max_law(1.5)
    three = law(np.array([0.0, 0.7, -0.4]))
    assert three.sum() == pytest.approx(1.0) and np.all(three > 0)
    # two candidates through the 3-candidate quadrature with a third far below
    far = law(np.array([0.0, 1.0, -200.0]))
    assert far[:2] == pytest.approx(law(np.array([0.0, 1.0])), rel=1e-9)
