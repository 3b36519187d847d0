"""Lemmas A.1 and A.2 (Appendix A) on the package's heavy-tailed generators (Definition 2.11 with a known k-th
central moment gamma). Frequencies against the lemmas' probabilities with a binomial limit at false alarm 1e-6
(fixed seeds). Each check is run beside a variant it must reject (so the frequency test has power)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from reference.algorithms import heavy_tailed as ht


@pytest.mark.claim("heavy_tailed:Lemma A.1")
@pytest.mark.parametrize("distribution", ["student_t", "symmetric_lomax", "lomax"])
@pytest.mark.parametrize("k", [2.0, 3.0])
def test_lemma_a1_tail_bound_on_the_generators(distribution, k):
    """P(|X - mu| > a gamma^(1/k)) <= a^(-k) for a > 1 (Markov on |X - mu|^k), gamma = 2.5, mu = 1.7."""
    gamma, mu, R = 2.5, 1.7, 100_000
    X = ht.heavy_tailed_data(R, 1, k, np.random.default_rng(int(10 * k)), mu=np.array([mu]), gamma=gamma,
                             distribution=distribution)[:, 0]
    for a in (1.1, 1.5, 2.0, 3.0):
        hits = int(np.sum(np.abs(X - mu) > a * gamma ** (1 / k)))
        assert hits <= stats.binom.ppf(1 - 1e-6, R, a ** (-k))


@pytest.mark.claim("heavy_tailed:Lemma A.1")
@pytest.mark.parametrize("k", [2.0, 3.0, 5.0])
def test_lemma_a1_is_nearly_tight_on_the_packing_law(k):
    """On the two-point law Q = (1 - p) delta_0 + p delta_(p^(-1/k)) (packing_law, moment gamma =
    (1-p)(p^(k-1) + (1-p)^(k-1))), just below the far atom the tail probability p is at least 0.9 a^(-k): the
    lemma cannot be sharpened there, and a law whose moment is 1.5 x the declared one violates it."""
    p = 0.01
    atoms, probs = ht.packing_law(np.array([1.0]), p, k)
    mu = float(probs @ atoms[:, 0])
    gamma = float(probs @ np.abs(atoms[:, 0] - mu) ** k)
    assert gamma == pytest.approx((1 - p) * (p ** (k - 1) + (1 - p) ** (k - 1)), rel=1e-12)
    a = (atoms[1, 0] - mu) * (1 - 1e-9) / gamma ** (1 / k)
    tail = float(np.sum(probs[np.abs(atoms[:, 0] - mu) > a * gamma ** (1 / k)]))
    assert tail <= a ** (-k) and tail >= 0.9 * a ** (-k)
    # declared moment too small by 1.5x: the bound computed with it fails
    a_wrong = (atoms[1, 0] - mu) * (1 - 1e-9) / (gamma / 1.5) ** (1 / k)
    assert tail > a_wrong ** (-k)


@pytest.mark.claim("heavy_tailed:Lemma A.2")
@pytest.mark.parametrize("distribution", ["student_t", "lomax"])
def test_lemma_a2_sample_mean_within_10_over_sqrt_n(distribution):
    """|mean - mu| <= 10 / sqrt(n) with probability >= 0.99 (k-th moment at most 1, k = 2): 20,000 samples of
    n = 50 side by side. The constant 10 is loose (Chebyshev gives 1/100); the same frequency test rejects the
    bound with constant 1 (failure frequency far above 1%), so it has power."""
    n, R = 50, 20_000
    X = ht.heavy_tailed_data(n, R, 2.0, np.random.default_rng(3), distribution=distribution)
    err = np.abs(X.mean(axis=0))
    limit = stats.binom.ppf(1 - 1e-6, R, 0.01)
    assert np.sum(err > 10 / math.sqrt(n)) <= limit
    assert np.sum(err > 1 / math.sqrt(n)) > limit
