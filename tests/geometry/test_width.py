"""Gaussian widths: exact values against Monte Carlo, bounds, the Monte Carlo interval.

False-alarm rates: every Monte Carlo comparison uses the rigorous concentration interval
of reference.geometry.width at confidence 1 - 1e-6, so each comparison would fail by chance
with probability <= 1e-6 (seeds are fixed, so the run is deterministic anyway). The coverage
test states its own rate below.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from reference.errors import ParameterError
from reference.geometry.sets import GroupL1L2Ball, L1Ball, L2Ball, LinfBall, NuclearBall, Polytope, Simplex
from reference.geometry.width import (GaussianWidth, gaussian_width, width_group_ball, width_l1_ball,
                                      width_l2_ball, width_linf_ball, width_simplex)

CONF = 1 - 1e-6


@pytest.mark.claim("core:Gaussian width exact values")
@pytest.mark.parametrize("C", [L2Ball(7, 1.3), L1Ball(50, 2.0), Simplex(30), Simplex(2),
                               GroupL1L2Ball(12, 3, 0.5), GroupL1L2Ball(9, [1, 3, 5], 1.0), LinfBall(6, 0.7)],
                         ids=lambda C: repr(C))
def test_exact_width_lies_in_the_monte_carlo_interval(C):
    exact = gaussian_width(C)
    assert exact.method in ("closed form", "quadrature")
    assert exact.lower <= exact.value <= exact.upper and exact.upper - exact.lower < 1e-10
    mc = gaussian_width(C, rng=np.random.default_rng(2024), n_samples=200_000, confidence=CONF,
                        method="monte carlo")
    assert mc.lower <= exact.value <= mc.upper, (exact, mc)


@pytest.mark.claim("core:Gaussian width exact values")
def test_exact_widths_agree_across_formulas():
    # l1 ball = grouped ball with blocks of size 1; l2 ball = grouped ball with one block
    for d in (1, 2, 5, 40):
        assert width_group_ball((1,) * d)[0] == pytest.approx(width_l1_ball(d)[0], rel=1e-12)
        assert width_group_ball((d,))[0] == pytest.approx(width_l2_ball(d), rel=1e-11)
    # d = 1: E|g| = sqrt(2/pi) (l1 and l2 ball), simplex {1}: 0; d = 2 simplex: E max(g1, g2) = 1/sqrt(pi)
    assert width_l1_ball(1)[0] == pytest.approx(math.sqrt(2 / math.pi), rel=1e-13)
    assert width_l2_ball(1) == pytest.approx(math.sqrt(2 / math.pi), rel=1e-13)
    assert width_simplex(1)[0] == 0.0
    # the box [-r, r]^1 is the l1 ball of R^1; a box is a product, so its width is additive in d
    assert width_linf_ball(1, 2.5) == pytest.approx(width_l1_ball(1, 2.5)[0], rel=1e-13)
    assert width_linf_ball(7) == pytest.approx(7 * width_l2_ball(1), rel=1e-13)
    assert width_simplex(2)[0] == pytest.approx(1 / math.sqrt(math.pi), rel=1e-12)
    # the width scales linearly with the radius
    assert gaussian_width(L1Ball(9, 3.0)).value == pytest.approx(3 * gaussian_width(L1Ball(9)).value, rel=1e-13)


@pytest.mark.claim("core:Gaussian width exact values")
def test_nuclear_ball_of_row_matrices_is_an_l2_ball():
    """{1 x d matrices with nuclear norm <= r} is the l2 ball: its Monte Carlo width must cover the closed form."""
    mc = gaussian_width(NuclearBall((1, 6), 2.0), rng=np.random.default_rng(5), n_samples=100_000, confidence=CONF)
    assert mc.method == "monte carlo"
    assert mc.lower <= width_l2_ball(6, 2.0) <= mc.upper


@pytest.mark.claim("core:Gaussian width bounds")
@pytest.mark.parametrize("d", [1, 2, 3, 10, 100, 1000, 10_000, 1_000_000])
def test_width_bounds(d):
    g2 = width_l2_ball(d)
    assert math.sqrt(d - 0.5) < g2 < math.sqrt(d)
    assert width_l1_ball(d)[0] <= math.sqrt(2 * math.log(2 * d))
    if d >= 2:
        assert width_simplex(d)[0] <= math.sqrt(2 * math.log(d))


@pytest.mark.claim("core:Gaussian width bounds")
def test_polytope_width_is_below_r_sqrt_2_ln_k():
    rng = np.random.default_rng(3)
    for k, d in ((5, 3), (40, 10), (200, 4)):
        V = rng.normal(size=(k, d))
        r = float(np.max(np.linalg.norm(V, axis=1)))
        w = gaussian_width(Polytope(V), rng=rng, n_samples=50_000, confidence=CONF)
        # the true width is >= w.lower with prob >= 1 - 1e-6 and <= r sqrt(2 ln k) by the claim
        assert w.lower <= r * math.sqrt(2 * math.log(k))


@pytest.mark.claim("core:Gaussian width Monte Carlo interval")
def test_monte_carlo_interval_covers_with_the_stated_confidence_and_a_shrunk_one_does_not():
    """200 independent intervals at confidence 0.9 for L1Ball(5) with N = 200 draws each.

    Misses ~ Binomial(200, <= 0.1): P(misses > 40) < 1e-4 (false-alarm rate of the first assert).
    Negative control: intervals ten times narrower must miss often (> 40 of 200); with the
    standard deviation of the mean ~ 0.04 and the shrunk half-width ~ 0.014 the expected miss
    rate is ~ 0.7, so this assert fails by chance with probability < 1e-20.
    """
    C = L1Ball(5)
    exact = gaussian_width(C).value
    rng = np.random.default_rng(99)
    misses = shrunk_misses = 0
    for _ in range(200):
        w = gaussian_width(C, rng=rng, n_samples=200, confidence=0.9, method="monte carlo")
        misses += not (w.lower <= exact <= w.upper)
        half = (w.upper - w.lower) / 20
        shrunk_misses += not (w.value - half <= exact <= w.value + half)
    assert misses <= 40
    assert shrunk_misses > 40


@pytest.mark.claim("core:Geometry input validation")
def test_bad_width_requests_raise():
    with pytest.raises(ParameterError):
        gaussian_width(Polytope(np.eye(3)))                 # Monte Carlo needs an rng
    with pytest.raises(ParameterError):
        gaussian_width(L1Ball(3), rng=np.random.default_rng(0), method="monte carlo", confidence=1.0)
    with pytest.raises(ParameterError):
        gaussian_width(L1Ball(3), method="exact")
    with pytest.raises(ParameterError):
        gaussian_width("l1 ball")
    with pytest.raises(ParameterError):
        gaussian_width(NuclearBall((2, 2)), rng=np.random.default_rng(0), n_samples=1)
    w = gaussian_width(L2Ball(3))
    assert isinstance(w, GaussianWidth) and all(math.isfinite(v) for v in (w.value, w.lower, w.upper))
