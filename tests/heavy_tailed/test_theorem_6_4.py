"""Theorem 6.4's bound (Appendix B.9): every rho-CDP algorithm has worst-case excess risk
Omega(sqrt(d/n) + sqrt(d) min(1, (sqrt(d)/(sqrt(rho) n))^((k-1)/k))) on the linear loss l(w, x) = -<w, x> over the
unit ball, for data whose gradient coordinates have k-th central moments at most 1.

Both terms are computed from B.9's constructions with the package's code (packing_code, packing_law, fano_cdp_bound)
and (14): L(w) - L(w_nu) >= ||mu_nu|| ||w - w_nu||^2 / 2, so Fano's bound lb on max_nu E||w - w_nu|| gives the excess
bound ||mu|| lb^2 / 2. What is checked: each term has the claimed dependence on n (its ratio to the claimed shape is the
same constant at every n of the grid, while the ratio to the nearest wrong shape drifts by orders of magnitude),
the data meet the moment condition exactly, the min(1, .) saturates where p = 1, and a rho-CDP algorithm run on the
instances (Algorithm 2 with CDPCWME at Theorem 5.2's schedule) is not below the bound (the bound would fail if its
constant were too large). The non-private construction is B.9's Gaussian packing with the noise scaled to meet the
moment condition for k > 2 (heavy_tailed-E18) and Lemma 6.3's code (heavy_tailed-E17); the private one the
packing Q_nu with c0 = 0.2 (heavy_tailed-E11).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from reference.algorithms import heavy_tailed as ht
from reference.geometry.sets import L2Ball

D, RHO, C_PRIVATE, C_STAT = 64, 0.7, 0.2, 0.3
NS = (10, 100, 10 ** 3, 10 ** 4, 10 ** 5, 10 ** 6, 10 ** 7)


@pytest.fixture(scope="module")
def code():
    V = ht.packing_code(D, np.random.default_rng(1))
    W = V / np.linalg.norm(V, axis=1)[:, None]
    r = min(float(np.linalg.norm(W[i] - W[j])) for i in range(len(V)) for j in range(i))
    D2 = max(float(np.sum((V[i] - V[j]) ** 2)) for i in range(len(V)) for j in range(i))
    return V, r, D2


def _gaussian_scale(k):
    """s_k = (E|Z|^k)^(-1/k), E|Z|^k = 2^(k/2) Gamma((k+1)/2)/sqrt(pi) (mpmath): N(mu, s_k^2 I) has coordinate k-th
    central moment exactly 1."""
    with mpmath.workdps(30):
        m = 2 ** (mpmath.mpf(k) / 2) * mpmath.gamma((mpmath.mpf(k) + 1) / 2) / mpmath.sqrt(mpmath.pi)
        return float(m ** (-1 / mpmath.mpf(k))), float(m)


def _statistical_term(n, k, V, r, D2):
    """B.9's Gaussian packing: mu_nu = (p/sqrt d) nu, p = C_STAT s_k sqrt(d/n) (<= 1), Q_nu = N(mu_nu, s_k^2 I); the
    n-sample KL is at most n p^2 D2/(2 d s_k^2); Fano's classical term (the private one disabled by TV 1) gives lb."""
    s, _ = _gaussian_scale(k)
    p = min(1.0, C_STAT * s * math.sqrt(D / n))
    kl = n * (p / math.sqrt(D)) ** 2 * D2 / (2 * s * s)
    lb = ht.fano_cdp_bound(r, len(V), 1.0, kl, RHO, n)
    return 0.5 * (p / math.sqrt(2)) * lb * lb, p, lb


def _private_term(n, k, V, r):
    """The packing Q_nu with p = min(1, C_PRIVATE sqrt(d)/(n sqrt(rho))), ||mu_nu|| = p^((k-1)/k) sqrt(d/2); CDP Fano
    (the classical term disabled by a huge KL) gives lb."""
    p = ht.packing_weight(n, D, rho=RHO, c0=C_PRIVATE)
    lb = ht.fano_cdp_bound(r, len(V), p, 1e9, RHO, n)
    return 0.5 * p ** ((k - 1) / k) * math.sqrt(D / 2) * lb * lb, p, lb


@pytest.mark.claim("heavy_tailed:Theorem 6.4")
@pytest.mark.parametrize("k", [2.0, 4.0])
def test_theorem_6_4_each_term_has_the_claimed_shape(code, k):
    """On n = 10 ... 1e7: the statistical term over sqrt(d/n) and the private term over sqrt(d) (sqrt(d)/(sqrt(rho)
    n))^((k-1)/k) are each bounded between positive constants (the first constant to 1e-9: 0.0031 at k = 2, 0.0024 at
    k = 4; the second within 2x, settled from n = 1000 on: 0.00058 and 0.00039), so their maximum is at least the
    smallest constant over 2 times Theorem 6.4's expression at every n. The nearest wrong shapes drift: the private term over the strongly
    convex shape d (.)^((2k-2)/k) and the statistical term over the strongly convex d/n (Theorem 6.1's two terms)
    both change by more than 10x across the grid. At n = 1 the private packing has p = 1 (min(1, .) saturated) and its bound is a
    constant fraction of sqrt(d), below the loss range 2 ||mu||."""
    V, r, D2 = code
    stat, priv, wrong_priv, wrong_stat = [], [], [], []
    for n in NS:
        S, ps, lbs = _statistical_term(n, k, V, r, D2)
        P, pp, lbp = _private_term(n, k, V, r)
        assert lbs > 0 and lbp > 0 and ps < 1 and pp < 1
        shape_p = math.sqrt(D) * (math.sqrt(D) / (math.sqrt(RHO) * n)) ** ((k - 1) / k)
        stat.append(S / math.sqrt(D / n))
        priv.append(P / shape_p)
        wrong_priv.append(P / (D * (math.sqrt(D) / (math.sqrt(RHO) * n)) ** ((2 * k - 2) / k)))
        wrong_stat.append(S / (D / n))
    c = min(stat + priv)
    for n, S, P in zip(NS, stat, priv):
        total = math.sqrt(D / n) + math.sqrt(D) * min(1.0, (math.sqrt(D) / (math.sqrt(RHO) * n)) ** ((k - 1) / k))
        shape_p = math.sqrt(D) * (math.sqrt(D) / (math.sqrt(RHO) * n)) ** ((k - 1) / k)
        assert max(S * math.sqrt(D / n), P * shape_p) >= 0.5 * c * total * (1 - 1e-9)
    assert min(stat) > 0 and max(stat) / min(stat) - 1 < 1e-9
    # the private constant moves only through E[Bin(n, p)^2]'s n p (1 - p) at small n: within 2x, and settled from
    # n = 1000 on
    assert min(priv) > 0 and max(priv) / min(priv) < 2 and max(priv[2:]) / min(priv[2:]) - 1 < 1e-2
    for ratios in (wrong_priv, wrong_stat):
        assert max(ratios) / min(ratios) > 10
    P1, p1, lb1 = _private_term(1, k, V, r)
    assert p1 == 1.0 and lb1 > 0
    assert 0 < P1 < 2 * math.sqrt(D / 2) and P1 / math.sqrt(D) > 1e-3      # below the loss range 2 ||mu||


@pytest.mark.claim("heavy_tailed:Theorem 6.4")
@pytest.mark.parametrize("k", [2.0, 4.0])
def test_theorem_6_4_gaussian_packing_meets_the_moment_condition_only_when_scaled(code, k):
    """Theorem 6.4 requires every gradient coordinate's k-th central moment <= 1. B.9's N(mu_nu, I) has E|Z|^k =
    2^(k/2) Gamma((k+1)/2)/sqrt(pi): 1 at k = 2, 3 at k = 4 (violated for every k > 2, heavy_tailed-E18); N(mu_nu,
    s_k^2 I) meets it with equality (mpmath), and a Monte Carlo of 400,000 draws agrees within 2%. With the scaled
    noise Fano's classical term stays positive at C_STAT = 0.3 (it needs C_STAT < 0.389, E17) and turns negative at
    the printed constant 1."""
    V, r, D2 = code
    s, moment = _gaussian_scale(k)
    assert (moment > 1) == (k > 2) and (k != 2 or moment == pytest.approx(1.0, rel=1e-14))
    assert s ** k * moment == pytest.approx(1.0, rel=1e-12)
    z = s * np.random.default_rng(4).standard_normal(400_000)
    assert np.mean(np.abs(z) ** k) == pytest.approx(1.0, rel=0.02)
    n = 10 ** 4
    _, _, lb = _statistical_term(n, k, V, r, D2)
    assert lb > 0
    p = s * math.sqrt(D / n)                                        # the printed c0 = 1
    kl = n * (p / math.sqrt(D)) ** 2 * D2 / (2 * s * s)
    assert 1 - (kl + math.log(2)) / math.log(len(V)) < 0


@pytest.mark.claim("heavy_tailed:Theorem 6.4")
def test_theorem_6_4_a_cdp_algorithm_is_not_below_the_statistical_term(code):
    """Algorithm 2 (CDPCWME, Theorem 5.2's tau, T and eta, beta = 1/10, rho = 0.7) on n = 4096 samples of 8 of the
    scaled Gaussian Q_nu (k = 4) has mean excess not below the statistical term's bound (Fano bounds the average over
    nu)."""
    V, r, D2 = code
    k, n = 4.0, 4096
    S, p, _ = _statistical_term(n, k, V, r, D2)
    s, _ = _gaussian_scale(k)
    rng = np.random.default_rng(9)
    excess = []
    for v in V[:8]:
        mu = p / math.sqrt(D) * v
        X = mu + s * rng.standard_normal((n, D))
        M, R = 2.0, float(np.linalg.norm(mu))
        tau = (math.sqrt(RHO) * n / (M * D ** 1.5)) ** (1 / k)
        T = max(1, math.floor(R * R * RHO * n * n / (tau * tau * D ** 4)))
        res = ht.cdp_sco(X, lambda w, S_: -np.asarray(S_, dtype=float), L2Ball(D, 1.0), RHO, T,
                         M / (R * math.sqrt(T)), rng, tau=tau, beta=0.1)
        excess.append(float(np.linalg.norm(mu) - res.w_priv @ mu))
    assert S > 0 and np.mean(excess) >= S
