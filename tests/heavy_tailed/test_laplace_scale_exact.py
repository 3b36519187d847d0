"""heavy_tailed.certified_laplace_scale is the smallest float b with Delta_1 / b <= eps *exactly*.

The old loop compared the float quotient, which can round down to eps while the exact quotient lies above it by
less than an ulp: at (Delta_1, eps) = (8.3566..., 3.6825...) the old scale gave an exact Delta_1 / b above eps, so
the accountant (which divides exactly, rounding up) certified eps plus one ulp, not eps."""

from __future__ import annotations

import math
import random
from fractions import Fraction

from reference.algorithms.heavy_tailed import certified_laplace_scale

#: a pair where the float quotient of the old scale equals eps but the exact one exceeds it (found by search)
OLD_FAILURE = (8.3566337925132, 3.6824902454519313)


def _old_scale(sensitivity: float, eps: float) -> float:
    scale = sensitivity / eps
    while sensitivity / scale > eps:
        scale = math.nextafter(scale, math.inf)
    return scale


def test_the_old_float_comparison_fails_where_the_exact_one_holds():
    d, e = OLD_FAILURE
    assert Fraction(d) / Fraction(_old_scale(d, e)) > Fraction(e)          # the bug this guards against
    assert Fraction(d) / Fraction(certified_laplace_scale(d, e)) <= Fraction(e)


def test_the_scale_is_the_smallest_float_meeting_eps_exactly():
    rng = random.Random(11)
    for _ in range(2000):
        d, e = rng.uniform(0.01, 10.0), rng.uniform(0.01, 5.0)
        b = certified_laplace_scale(d, e)
        assert Fraction(d) / Fraction(b) <= Fraction(e)
        assert Fraction(d) / Fraction(math.nextafter(b, 0.0)) > Fraction(e)
