"""Tests of the exact privacy profiles: hockey-stick divergence, exponential mechanism, noisy-max quadrature.

Reference values come from closed forms (randomized response, the exponential
mechanism's worst pair, the law of a difference of Laplace variables, softmax) or
from the accountant's independent exact Laplace / Gaussian profiles.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.audit.exact import (exact_delta, exact_epsilon, exponential_mechanism_exact, hockey_stick,
                                   noisy_max_exact)
from reference.errors import ParameterError


def _randomized_response(eps):
    with mpmath.workdps(50):
        e = mpmath.exp(mpmath.mpf(eps))
        return [e / (1 + e), 1 / (1 + e)], [1 / (1 + e), e / (1 + e)]


@pytest.mark.claim("core:Exact hockey-stick divergence")
@pytest.mark.parametrize("eps", [0.1, 1.0, 3.0])
def test_randomized_response_closed_form(eps):
    """RR with parameter eps: delta(e') = (e^eps - e^e')/(1 + e^eps) for e' < eps, 0 beyond; eps(0) = eps."""
    p, q = _randomized_response(eps)
    with mpmath.workdps(50):
        for e2 in (0.0, eps / 3, eps / 2):
            want = (mpmath.exp(eps) - mpmath.exp(e2)) / (1 + mpmath.exp(eps))
            assert abs(exact_delta(p, q, e2) - want) < mpmath.mpf("1e-40")
        assert exact_delta(p, q, eps + 0.01) < mpmath.mpf("1e-45")
        assert abs(exact_epsilon(p, q, 0) - eps) < mpmath.mpf("1e-40")


def _binned_shift(cdf, shift, edges):
    """Exact bin probabilities of X and X + shift on the bins given by edges (plus the two tails)."""
    a = np.concatenate([[0.0], cdf(edges), [1.0]])
    b = np.concatenate([[0.0], cdf(edges - shift), [1.0]])
    return np.diff(a), np.diff(b)


@pytest.mark.claim("core:Exact hockey-stick divergence")
def test_binned_laplace_increases_to_accountant_profile():
    """Binning is post-processing: the binned profile is <= the exact one and converges as bins shrink."""
    accounting = pytest.importorskip("reference.privacy.accounting")
    from scipy import stats

    eps0 = 1.0
    for eps in (0.0, 0.3, 0.7):
        exact = accounting.laplace_delta(eps, eps0)
        previous = 0.0
        for width in (0.5, 0.1, 0.02):
            edges = np.arange(-20, 21 + width / 2, width)
            p, q = _binned_shift(lambda x: stats.laplace.cdf(x, scale=1 / eps0), 1.0, edges)
            p, q = p / p.sum(), q / q.sum()
            d = float(exact_delta(p, q, eps))
            assert d <= exact + 1e-12
            assert d >= previous - 1e-12
            previous = d
        assert previous == pytest.approx(exact, abs=5e-3)


@pytest.mark.claim("core:Exact hockey-stick divergence")
def test_binned_gaussian_increases_to_accountant_profile():
    accounting = pytest.importorskip("reference.privacy.accounting")
    from scipy import stats

    mu = 1.0
    for eps in (0.0, 0.5, 1.5):
        exact = accounting.gaussian_delta(eps, mu)
        edges = np.arange(-12, 13, 0.01)
        p, q = _binned_shift(stats.norm.cdf, mu, edges)
        p, q = p / p.sum(), q / q.sum()
        d = float(exact_delta(p, q, eps))
        assert d <= exact + 1e-12
        assert d == pytest.approx(exact, abs=2e-3)


@pytest.mark.claim("core:Exact hockey-stick divergence")
@given(st.lists(st.floats(0.01, 1.0), min_size=2, max_size=8), st.integers(0, 2 ** 32 - 1),
       st.floats(1e-6, 0.3))
def test_epsilon_inverts_delta(weights, seed, delta):
    """delta(eps(delta)) = delta whenever eps(delta) > 0, and delta(eps) <= delta beyond it."""
    rng = np.random.default_rng(seed)
    p = np.array(weights) / sum(weights)
    q = rng.dirichlet(np.ones(len(weights)))
    eps = exact_epsilon(p, q, delta)
    assert eps >= 0
    if eps > 0:
        assert abs(exact_delta(p, q, eps) - delta) < mpmath.mpf("1e-30")
    with mpmath.workdps(50):
        assert exact_delta(p, q, eps + mpmath.mpf("1e-20")) <= delta + mpmath.mpf("1e-40")


@pytest.mark.claim("core:Exact hockey-stick divergence")
def test_disjoint_support_gives_infinite_epsilon_and_bad_input_raises():
    assert exact_epsilon([1, 0], [0, 1], 0.5) == mpmath.inf
    assert exact_epsilon([0.5, 0.5, 0], [0.5, 0.4, 0.1], 0.2) < mpmath.inf
    with pytest.raises(ParameterError):
        exact_delta([0.5, 0.5], [1.0], 0.1)
    with pytest.raises(ParameterError):
        exact_delta([0.5, 0.6], [0.5, 0.5], 0.1)
    with pytest.raises(ParameterError):
        exact_delta([1.5, -0.5], [0.5, 0.5], 0.1)
    with pytest.raises(ParameterError):
        exact_epsilon([0.5, 0.5], [0.5, 0.5], 1.0)
    with pytest.raises(ParameterError):
        hockey_stick([], [], 0.0)


def _em_worst_closed_form(p, c):
    """Exact eps of the EM on u = 0 vs u' = (+D, -D, ..., -D) over m = 2p candidates, c*D = eps/2."""
    with mpmath.workdps(50):
        m = 2 * p
        c = mpmath.mpf(c)
        up = mpmath.log(m * mpmath.exp(c) / (mpmath.exp(c) + (m - 1) * mpmath.exp(-c)))
        down = mpmath.log((mpmath.exp(2 * c) + m - 1) / m)
        return max(up, down)


@pytest.mark.claim("core:Exponential mechanism exact profile")
@pytest.mark.parametrize("p", [1, 10, 1000])
def test_exponential_mechanism_worst_pair_closed_form(p):
    eps = 1.0
    u = np.zeros(2 * p)
    u2 = np.full(2 * p, -1.0)
    u2[0] = 1.0
    P = exponential_mechanism_exact(u, 1.0, eps)
    Q = exponential_mechanism_exact(u2, 1.0, eps)
    got = exact_epsilon(P, Q, 0)
    want = _em_worst_closed_form(p, eps / 2)
    assert abs(got - want) < mpmath.mpf("1e-40")
    assert got <= eps
    if p == 1000:
        assert got > 0.99 * eps       # nearly tight with many candidates


@pytest.mark.claim("core:Exponential mechanism exact profile")
def test_package_exponential_mechanism_probabilities_agree_with_mpmath():
    mechanisms = pytest.importorskip("reference.privacy.mechanisms")
    rng = np.random.default_rng(3)
    for scores in (rng.normal(size=2000) * 5, np.array([1e6, 1e6 - 1, 0.0]), np.linspace(-3, 3, 7)):
        for monotone in (False, True):
            want = np.array([float(x) for x in exponential_mechanism_exact(scores, 0.7, 1.3, monotone=monotone)])
            got = mechanisms.exponential_mechanism_probabilities(scores, 0.7, 1.3, monotone=monotone)
            assert np.allclose(got, want, rtol=1e-10, atol=1e-300)


@pytest.mark.claim("core:Noisy-max quadrature")
@pytest.mark.parametrize("scores,scale", [([0.0, 1.0], 1.0), ([0.3, -1.0, 2.0], 0.5), ([0.0, 0.0, 0.0, 1.0], 2.0)])
def test_gumbel_quadrature_is_softmax(scores, scale):
    got = noisy_max_exact(scores, scale, noise="gumbel")
    with mpmath.workdps(30):
        w = [mpmath.exp(mpmath.mpf(s) / scale) for s in scores]
        want = [x / mpmath.fsum(w) for x in w]
    for a, b in zip(got, want):
        assert abs(a - b) < mpmath.mpf("1e-15")


@pytest.mark.claim("core:Noisy-max quadrature")
@pytest.mark.parametrize("gap,b", [(0.0, 1.0), (1.0, 1.0), (2.5, 0.5)])
def test_two_laplace_candidates_closed_form(gap, b):
    """P(u1 + Z1 > u2 + Z2) = F_D(gap), D = Z2 - Z1, F_D(d) = 1 - e^{-d/b}(1 + d/(2b))/2 for d >= 0."""
    got = noisy_max_exact([gap, 0.0], b)
    want = 1 - math.exp(-gap / b) * (1 + gap / (2 * b)) / 2
    assert float(got[0]) == pytest.approx(want, rel=1e-13)
    # report-noisy-min picks the smaller score with the same probability
    got_min = noisy_max_exact([0.0, gap], b, argmin=True)
    assert float(got_min[0]) == pytest.approx(want, rel=1e-13)
