"""The lower-bound instances of heavy_tailed Section 6 / Appendix B: the packing, the CDP Fano bound, the losses.

References computed here independently: exact laws of two-point mixtures (mpmath), binomial sums (mpmath),
the closed forms of the two losses.
"""

from __future__ import annotations

import itertools
import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, strategies as st

from reference.algorithms import heavy_tailed as ht


@pytest.mark.claim("heavy_tailed:Lemma 6.3 packing")
@pytest.mark.parametrize("d", [8, 16, 32, 64])
def test_packing_code(d):
    V = ht.packing_code(d, np.random.default_rng(d))
    assert len(V) >= 2 ** (d / 8)
    assert np.all(V.sum(axis=1) == d // 2) and set(np.unique(V)) <= {0, 1}
    for a, b in itertools.combinations(range(len(V)), 2):
        assert np.sum(V[a] != V[b]) >= d / 8


@pytest.mark.claim("heavy_tailed:Lemma 6.3 packing")
@pytest.mark.parametrize("k", [2.0, 3.0, 4.5])
@pytest.mark.parametrize("p", [1e-3, 0.1, 0.5, 1.0])
def test_packing_law_facts(k, p):
    d = 16
    V = ht.packing_code(d, np.random.default_rng(1))
    laws = [ht.packing_law(v, p, k) for v in V]
    norm = p ** ((k - 1) / k) * math.sqrt(d / 2)
    means = []
    for (atoms, probs), v in zip(laws, V):
        mean = probs @ atoms
        means.append(mean)
        assert np.allclose(mean, p ** ((k - 1) / k) * v, rtol=1e-12)
        assert np.linalg.norm(mean) == pytest.approx(norm, rel=1e-12)
        # exact central k-th absolute moment of every coordinate (mpmath, two atoms)
        for j in range(d):
            P, a = mpmath.mpf(p), mpmath.mpf(atoms[1, j])
            m = P * a
            mom = (1 - P) * abs(0 - m) ** k + P * abs(a - m) ** k
            want = (1 - P) * (P ** (k - 1) + (1 - P) ** (k - 1)) if v[j] else 0
            assert abs(mom - want) <= mpmath.mpf(10) ** -12 * (1 + abs(want))
            assert mom <= 1 + 1e-12
    for a, b in itertools.combinations(range(len(V)), 2):
        assert np.linalg.norm(means[a] - means[b]) >= 0.5 * norm * (1 - 1e-12)
        # total variation: the atoms at 0 coincide, the others differ
        (xa, pa), (xb, pb) = laws[a], laws[b]
        tv = 0.5 * (abs(pa[0] - pb[0]) + pa[1] + pb[1]) if p < 1 else 1.0
        assert tv == pytest.approx(p, rel=1e-12)


@pytest.mark.claim("heavy_tailed:Theorem 1.4")
@pytest.mark.parametrize("n, a", [(1, 0.3), (7, 0.01), (50, 0.5), (200, 1e-3)])
def test_expected_squared_hamming_is_the_binomial_second_moment(n, a):
    A = mpmath.mpf(a)
    exact = mpmath.fsum(mpmath.binomial(n, j) * A ** j * (1 - A) ** (n - j) * j * j for j in range(n + 1))
    assert float(exact) == pytest.approx(n * n * a * a + n * a * (1 - a), rel=1e-12)
    # the code's private term is exactly that
    rho, M = 0.3, 10
    got = 1 - 2 * ht.fano_cdp_bound(1.0, M, a, 1e9, rho, n)
    assert got == pytest.approx((rho * float(exact) + math.log(2)) / math.log(M), rel=1e-12)


@pytest.mark.claim("heavy_tailed:Theorem 1.4")
@given(rho=st.floats(1e-3, 10), n=st.integers(1, 10**4), a=st.floats(0, 1), M=st.integers(2, 10**6))
def test_fano_bound_decreases_in_rho_n_and_alpha(rho, n, a, M):
    f = lambda **kw: ht.fano_cdp_bound(1.0, M, kw.get("a", a), 1e9, kw.get("rho", rho), kw.get("n", n))  # noqa: E731
    base = f()
    assert f(rho=rho * 2) <= base + 1e-15
    assert f(n=n + 1) <= base + 1e-15
    assert f(a=min(1.0, a * 1.5 + 1e-6)) <= base + 1e-15


@pytest.mark.claim("heavy_tailed:Theorem 1.4")
def test_the_proofs_packing_weight_needs_a_constant_below_one():
    d, rho, n = 64, 1.0, 10**4
    logM = (d / 8) * math.log(2)                     # |V| >= 2^(d/8)
    for c0, positive in ((1.0, False), (0.2, True)):
        p = ht.packing_weight(n, d, rho=rho, c0=c0)
        term = 1 - (rho * (n * n * p * p + n * p * (1 - p)) + math.log(2)) / logM
        assert (term > 0) == positive
        assert rho * n * n * p * p == pytest.approx(c0 * c0 * d, rel=1e-12)
        assert 2 * ht.fano_cdp_bound(1.0, 2 ** (d // 8), p, 1e9, rho, n) == pytest.approx(max(term, 1 - (1e9 + math.log(2)) / logM), rel=1e-12)


@pytest.mark.claim("heavy_tailed:Theorem 6.4 instance")
@given(seed=st.integers(0, 2**31), p=st.floats(0.01, 1), k=st.floats(2.0, 6))
def test_linear_loss_instance(seed, p, k):
    d = 16
    rng = np.random.default_rng(seed)
    V = ht.packing_code(d, np.random.default_rng(3))
    nu = V[rng.integers(len(V))]
    mu = p ** ((k - 1) / k) * nu
    w_nu = mu / np.linalg.norm(mu)
    risk = lambda w: -float(w @ mu)              # noqa: E731  L(w) = E -<w, x> = -<w, mu>
    for _ in range(20):
        w = rng.normal(size=d)
        w *= rng.uniform(0, 1) / np.linalg.norm(w)
        gap = risk(w) - risk(w_nu)
        assert gap == pytest.approx(np.linalg.norm(mu) * (1 - w @ w_nu), rel=1e-9, abs=1e-12)
        assert gap >= 0.5 * np.linalg.norm(mu) * np.linalg.norm(w - w_nu) ** 2 - 1e-12
    for a, b in itertools.combinations(range(len(V)), 2):
        wa, wb = V[a] / np.linalg.norm(V[a]), V[b] / np.linalg.norm(V[b])
        assert np.linalg.norm(wa - wb) >= 0.5 - 1e-12


@pytest.mark.claim("heavy_tailed:Theorem 6.4 instance")
def test_lemma_6_2_squared_loss_excess_is_half_the_squared_distance():
    rng = np.random.default_rng(0)
    atoms = rng.standard_t(3, size=(7, 3))
    probs = rng.dirichlet(np.ones(7))
    mu = probs @ atoms
    L = lambda w: float(probs @ (0.5 * np.sum((w - atoms) ** 2, axis=1)))     # noqa: E731
    for _ in range(10):
        w = rng.normal(size=3) * 3
        assert L(w) - L(mu) == pytest.approx(ht.squared_loss_excess_risk(w, mu), rel=1e-10, abs=1e-12)
    # gradients w - x have the central moments of the data (they are -(x - mu) shifted by w - mu)
    G = ht.squared_loss_gradients(np.ones(3), atoms)
    assert np.allclose(G - probs @ G, -(atoms - mu))


@pytest.mark.claim("heavy_tailed:Lemma 6.3")
@pytest.mark.claim("heavy_tailed:Theorem 6.1")
@pytest.mark.parametrize("k", [2.0, 4.0])
def test_lemma_6_3_private_lower_bound_from_the_packing(k):
    """Lemma 6.3's private term through Theorem 1.4 on the code's packing (d = 64, rho = 0.7, c0 = 0.2,
    heavy_tailed-E11): p = packing_weight, r = the smallest pairwise distance of the means p^((k-1)/k) nu
    (read off packing_law on the code's words), pairwise TV p; fano_cdp_bound is positive and equals
    c sqrt(d) (sqrt(d)/(sqrt(rho) n))^((k-1)/k) with the same c at n = 1e3, 1e4, 1e5 (the rate of Lemma 6.3;
    rho n^2 p^2 = c0^2 d is constant in n, and n p (1 - p) nearly so). Theorem 6.1 (through Lemma 6.2, excess = ||w - mu||^2/2 and Jensen)
    is its square over 2: d (sqrt(d)/(sqrt(rho) n))^((2k-2)/k) times a constant. An upper-bound run beside it:
    CDPCWME (rho-zCDP, Corollary 4.2's tau) on samples of Q_nu is not below the bound."""
    d, rho, c0 = 64, 0.7, 0.2
    V = ht.packing_code(d, np.random.default_rng(1))
    consts, consts61 = [], []
    for n in (10 ** 3, 10 ** 4, 10 ** 5):
        p = ht.packing_weight(n, d, rho=rho, c0=c0)
        assert p == pytest.approx(c0 * math.sqrt(d) / (n * math.sqrt(rho)), rel=1e-14)
        means = np.array([ht.packing_law(v, p, k)[1] @ ht.packing_law(v, p, k)[0] for v in V[:40]])
        r = min(float(np.linalg.norm(means[i] - means[j])) for i in range(len(means)) for j in range(i))
        r_code = p ** ((k - 1) / k) * math.sqrt(min(int(np.sum(V[i] != V[j])) for i in range(40) for j in range(i)))
        assert r == pytest.approx(r_code, rel=1e-9) and r >= p ** ((k - 1) / k) * math.sqrt(d / 8) * (1 - 1e-12)
        lb = ht.fano_cdp_bound(p ** ((k - 1) / k) * math.sqrt(d / 8), len(V), p, 1e9, rho, n)
        assert lb > 0
        rate = math.sqrt(d) * (math.sqrt(d) / (math.sqrt(rho) * n)) ** ((k - 1) / k)
        consts.append(lb / rate)
        consts61.append((lb ** 2 / 2) / (d * (math.sqrt(d) / (math.sqrt(rho) * n)) ** ((2 * k - 2) / k)))
        if n == 10 ** 3:
            rng = np.random.default_rng(7)
            tau = (math.sqrt(rho) * n / math.sqrt(d)) ** (1 / k)
            errs = []
            for v in V[:10]:
                atoms, probs = ht.packing_law(v, p, k)
                X = atoms[(rng.random(n) < probs[1]).astype(int)]
                errs.append(np.linalg.norm(ht.cdpcwme(X, rho, tau, 0.1, rng).estimate - probs @ atoms))
            assert np.mean(errs) >= lb
    # constant in n up to the (1 - p) of E[Bin(n, p)^2] = n^2 p^2 + n p (1 - p) (p = 1.6e-3 .. 1.6e-5)
    assert max(consts) / min(consts) == pytest.approx(1.0, abs=0.01)
    assert max(consts61) / min(consts61) == pytest.approx(1.0, abs=0.02)
