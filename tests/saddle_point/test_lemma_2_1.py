"""Lemma 2.1 (function-value approximation in expectation, as reconstructed): for f L1-smooth w.r.t. a norm,
deterministic x^1..x^K (different from each other) and independent x~^k with E x~^k = x^k,

    |E f(x~) - f(x_bar)| <= (L1 / (2 K^2)) sum_k E||x~^k - x^k||^2,   x_bar, x~ the averages.

Everything is exact: the laws of the x~^k are finite, the expectations are sums over the product of their supports
(written here, not the package's vertex enumeration, which serves only as a cross-check where the two apply). The
constant 1/2 is tight: f = +-(L1/2)||z||_2^2 meets the bound with equality, so the bound with 1/(4 K^2) (the 1/2
lost twice) fails there, and so does the bound with the 1/K^2 weakened to 1/K^3 (the independence that makes the
cross terms vanish, assumed for sums of K terms it does not have)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import special

from reference.algorithms import saddle_point as sp


def _expectation(func, supports):
    """E func(x~^1, ..., x~^K) for independent finite laws: supports[k] = (points (m_k, d), probabilities (m_k,))."""
    total = 0.0
    for choice in itertools.product(*[range(len(p)) for _, p in supports]):
        prob = float(np.prod([supports[k][1][j] for k, j in enumerate(choice)]))
        total = total + prob * func([supports[k][0][j] for k, j in enumerate(choice)])
    return total


def _unbiased_laws(rng, K, d):
    """K different centres x^k and, around each, a different finite zero-mean law: a symmetric pair +-v, three
    points with weights (0.2, 0.5, 0.3) summing to zero, and vertex-like asymmetric two-point laws."""
    centres = rng.uniform(-1, 1, (K, d))
    supports = []
    for k in range(K):
        kind = k % 3
        if kind == 0:
            v = rng.normal(0, 0.8, d)
            pts, prob = np.array([v, -v]), np.array([0.5, 0.5])
        elif kind == 1:
            a, b = rng.normal(0, 0.6, d), rng.normal(0, 0.6, d)
            c = -(0.2 * a + 0.5 * b) / 0.3
            pts, prob = np.array([a, b, c]), np.array([0.2, 0.5, 0.3])
        else:
            u = rng.normal(0, 1.1, d)
            pts, prob = np.array([u, -0.25 * u]), np.array([0.2, 0.8])
        assert np.allclose(prob @ pts, 0, atol=1e-14)
        supports.append((centres[k] + pts, prob))
    return centres, supports


def _bound(L1, K, centres, supports, norm, constant=0.5, power=2):
    second = sum(float(p @ np.array([norm(z - centres[k]) ** 2 for z in pts])) for k, (pts, p) in enumerate(supports))
    return constant * L1 / K ** power * second


@pytest.mark.claim("saddle_point:Lemma 2.1")
@pytest.mark.parametrize("K,d", [(2, 3), (3, 2), (4, 3), (5, 2)])
def test_lemma_2_1_l2_smooth_functions_and_the_constant_is_tight(K, d):
    """Euclidean norm. f1 = (1/2) z^T Q z with Q symmetric of spectral norm L1 = 1.7 (mixed signs: -f1 is smooth
    too), f2 = 2.3 log-sum-exp (L1 = 2.3: its Hessian diag(p) - p p^T has norm <= 1) plus 0.4 ||z||^2 (L1 = 3.1):
    both meet the bound. f3 = +-(L1/2)||z||^2 meets it with equality (to 1e-12), where constant 1/4 and the power
    K^3 fail."""
    rng = np.random.default_rng(10 * K + d)
    centres, supports = _unbiased_laws(rng, K, d)
    x_bar = centres.mean(axis=0)
    l2 = lambda v: float(np.linalg.norm(v))          # noqa: E731
    A = rng.normal(size=(d, d))
    Q = (A + A.T) / 2
    Q *= 1.7 / np.abs(np.linalg.eigvalsh(Q)).max()
    cases = [
        (lambda z: 0.5 * z @ Q @ z, 1.7),
        (lambda z: 2.3 * special.logsumexp(z) + 0.4 * z @ z, 2.3 + 0.8),
    ]
    for f, L1 in cases:
        gap = abs(_expectation(lambda zs: f(np.mean(zs, axis=0)), supports) - f(x_bar))
        assert gap <= _bound(L1, K, centres, supports, l2) * (1 + 1e-12)
    for sign in (1.0, -1.0):
        L1 = 1.3
        f = lambda z: sign * 0.5 * L1 * z @ z          # noqa: E731
        gap = abs(_expectation(lambda zs: f(np.mean(zs, axis=0)), supports) - f(x_bar))
        bound = _bound(L1, K, centres, supports, l2)
        assert gap == pytest.approx(bound, rel=1e-12)
        assert gap > _bound(L1, K, centres, supports, l2, constant=0.25)          # control: constant halved
        assert gap > _bound(L1, K, centres, supports, l2, power=3)                # control: 1/K^3


@pytest.mark.claim("saddle_point:Lemma 2.1")
@pytest.mark.parametrize("K", [1, 2, 3])
def test_lemma_2_1_l1_norm_with_vertex_sampling_at_different_means(K):
    """l1 norm, the setting of Algorithm 1: x^k in the simplex (different for every k), x~^k = e_J, J ~ x^k (vertex
    sampling). f = 1.9 log-sum-exp(W z) with the rows of W in [-1, 1] (L1 = 1.9 w.r.t. ||.||_1, since
    z^T W^T H W z <= ||W z||_inf^2 <= ||z||_1^2) meets the bound with E||e_J - x^k||_1^2 = 4 sum_j x_j (1-x_j)^2
    computed from the law. Where the means coincide, the expectation equals the package's exact multinomial
    enumeration (vertex_average_expectation), a second method."""
    d = 4
    rng = np.random.default_rng(100 + K)
    centres = rng.dirichlet(np.ones(d) * 0.8, K)
    W = rng.uniform(-1, 1, (3, d))
    f = lambda z: 1.9 * special.logsumexp(W @ z)      # noqa: E731
    supports = [(np.eye(d), c) for c in centres]
    l1 = lambda v: float(np.abs(v).sum())              # noqa: E731
    gap = abs(_expectation(lambda zs: f(np.mean(zs, axis=0)), supports) - f(centres.mean(axis=0)))
    bound = _bound(1.9, K, centres, supports, l1)
    assert bound == pytest.approx(1.9 / (2 * K ** 2) * sum(4 * float(c @ (1 - c) ** 2) for c in centres), rel=1e-12)
    assert gap <= bound
    same = [(np.eye(d), centres[0])] * K
    mine = _expectation(lambda zs: f(np.mean(zs, axis=0)), same)
    assert mine == pytest.approx(float(sp.vertex_average_expectation(f, centres[0], K)), rel=1e-12)
