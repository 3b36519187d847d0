"""High-precision (mpmath, 50 digits) checks of saddle_point's reconstructed constants.

Each compares the package's closed forms with the catalogue's formulas (../shared/spec/saddle_point.md)
evaluated independently here: Corollary 3.6's calibration and its boundary eps <= 8 log(1/delta);
Propositions 3.3, 3.17 and 4.3 as instances of it; Algorithm 2's sensitivity constant; the truncated
geometric moments Algorithm 3 relies on; the corrected stopping budget of Algorithm 3.
"""

from __future__ import annotations

import math

import mpmath
import pytest

from fractions import Fraction

import sympy
from flint import arb, ctx

from reference.algorithms import saddle_point as sp
from reference.privacy.mechanisms import truncated_geometric_pmf


@pytest.fixture(autouse=True, scope="module")
def _working_precision():
    """50 digits inside this module's tests only (a global setting leaked into other modules'
    tests and made the suite depend on its order; issue 8)."""
    with mpmath.workdps(50):
        yield


def _cor36(eps0, k, delta):
    L = mpmath.log(1 / mpmath.mpf(delta))
    return mpmath.sqrt(2 * k * L) * eps0 + k * eps0 ** 2 / 2


@pytest.mark.rigorous(method="symbolic, every eps, L, k > 0")
@pytest.mark.claim("saddle_point:Corollary 3.6")
def test_corollary_3_6_boundary_for_every_parameter(certificate):
    """With eps0 = eps/(2 sqrt(2 k L)): sqrt(2 k L) eps0 + k eps0^2/2 = eps/2 + eps^2/(16 L) for every eps, k, L > 0,
    and eps/2 + eps^2/(16 L) <= eps iff eps <= 8 L (the difference is eps (eps - 8L)/(16 L))."""
    eps, k, L = sympy.symbols("epsilon k L", positive=True)
    e0 = eps / (2 * sympy.sqrt(2 * k * L))
    total = sympy.sqrt(2 * k * L) * e0 + k * e0 ** 2 / 2
    assert sympy.simplify(total - (eps / 2 + eps ** 2 / (16 * L))) == 0
    assert sympy.simplify(eps / 2 + eps ** 2 / (16 * L) - eps - eps * (eps - 8 * L) / (16 * L)) == 0
    certificate.point(2)


@pytest.mark.evidence("grid of (eps, delta, k), mpmath")
@pytest.mark.claim("saddle_point:Corollary 3.6")
@pytest.mark.parametrize("k", [1, 7, 100, 10**4, 10**6])
def test_corollary_3_6_boundary_is_8_log_1_over_delta(k):
    for eps_s in ("0.01", "0.5", "1", "3", "20"):
        for delta_s in ("1e-10", "1e-5", "0.01", "0.3", "0.9"):
            eps, delta = mpmath.mpf(eps_s), mpmath.mpf(delta_s)
            L = mpmath.log(1 / delta)
            eps0 = eps / (2 * mpmath.sqrt(2 * k * L))
            total = _cor36(eps0, k, delta)
            assert mpmath.almosteq(total, eps / 2 + eps ** 2 / (16 * L), 1e-40)
            assert (total <= eps) == (eps <= 8 * L)


@pytest.mark.evidence("points; the package's step against mpmath (50 digits, uncertified)")
@pytest.mark.claim("saddle_point:Proposition 3.3")
@pytest.mark.parametrize("K,T,B", [(1, 10, 4), (3, 500, 20), (7, 2000, 1)])
def test_proposition_3_3_step_is_corollary_3_6_at_2_K_plus_1_T_draws(K, T, B):
    eps, delta, L0 = 0.7, 1e-6, 1.3
    eta = sp.paper_eta_algorithm1(eps, delta, L0, B, K, T)
    boxed = mpmath.mpf(eps) * B / (16 * mpmath.mpf(L0) * mpmath.sqrt((K + 1) * T * mpmath.log(1 / mpmath.mpf(delta))))
    assert mpmath.almosteq(eta, boxed, 1e-14)
    eps0 = 4 * boxed * mpmath.mpf(L0) / B
    assert _cor36(eps0, 2 * (K + 1) * T, delta) <= eps


@pytest.mark.evidence("points; the package's step against mpmath (50 digits, uncertified)")
@pytest.mark.claim("saddle_point:Proposition 3.17")
@pytest.mark.parametrize("Gamma,B", [(8, 1), (256, 4), (50_000, 2)])
def test_proposition_3_17_step_admits_2_Gamma_draws_in_the_filter(Gamma, B):
    eps, delta, L0 = 1.0, 1e-5, 2.0
    eta = mpmath.mpf(sp.paper_eta_algorithm3(eps, delta, L0, B, Gamma))
    eps0 = 10 * eta * L0 / B                                     # 2 eta (5 L0 / B)
    assert mpmath.almosteq(eps0, eps / (4 * mpmath.sqrt(Gamma * mpmath.log(1 / mpmath.mpf(delta)))), 1e-14)
    # the filter expression (Theorem 3.5) at the worst-case 2 Gamma draws
    assert _cor36(eps0, 2 * Gamma, delta) <= eps


@pytest.mark.evidence("points; the package's step against mpmath (50 digits, uncertified)")
@pytest.mark.claim("saddle_point:Proposition 4.3")
def test_proposition_4_3_step_is_corollary_3_6_at_N_draws():
    eps, delta, L0, T, N = 0.5, 1e-7, 1.5, 1000, 4321
    eta = mpmath.mpf(sp.paper_eta_algorithm5(eps, delta, L0, T, N))
    assert _cor36(4 * eta * L0 * T, N, delta) <= eps
    assert mpmath.almosteq(4 * eta * L0 * T, eps / (2 * mpmath.sqrt(2 * N * mpmath.log(1 / mpmath.mpf(delta)))), 1e-14)
    assert sp.algorithm5_sample_count(3, 100, 7, 15, rule="catalogue") == 3 * (15 + math.ceil((100 - 15) / 7) + 1)
    # the loop refreshes at t = t0 + k tau <= T: floor((T - t0) / tau) times (saddle_point-E06)
    assert sp.algorithm5_sample_count(3, 100, 7, 15) == 3 * (15 + len(range(15 + 7, 101, 7)) + 1)


@pytest.mark.rigorous(method="exact rationals, every N <= M <= 64")
@pytest.mark.claim("saddle_point:Algorithm 2 sensitivity")
def test_algorithm_2_sensitivity_constant_is_at_most_5_for_every_level(certificate):
    """c(N, M) = 2/2^(N+1) + (1/p_N) 4/2^(N+1) = 2^-N + 2/C_M <= 5 for every 0 <= N <= M <= 64, exactly
    (C_M = 1/(2(1 - 2^-(M+1))), p_N = C_M 2^-N); and for every M: 2^-N + 4(1 - 2^-(M+1)) < 1 + 4 = 5."""
    n = 0
    for M in range(65):
        CM = 1 / (2 * (1 - Fraction(1, 2 ** (M + 1))))
        for N in range(M + 1):
            pN = CM * Fraction(1, 2 ** N)
            c = Fraction(2, 2 ** (N + 1)) + (1 / pN) * Fraction(4, 2 ** (N + 1))
            assert c == Fraction(1, 2 ** N) + 2 / CM and c <= 5
            n += 1
    certificate.point(n)


@pytest.mark.evidence("points, mpmath (50 digits)")
@pytest.mark.claim("saddle_point:Algorithm 2 sensitivity")
@pytest.mark.parametrize("M", [0, 1, 3, 10, 40])
def test_algorithm_2_sensitivity_constant_is_at_most_5(M):
    CM = 1 / (2 * (1 - mpmath.mpf(2) ** -(M + 1)))
    p = truncated_geometric_pmf(M)
    for N in range(M + 1):
        assert mpmath.almosteq(p[N], CM * mpmath.mpf(2) ** -N, 1e-15)
        # G^0: 2 L0 / (B 2^(N+1)); the multilevel term: (1/p_N) (1 + 1/2 + 1/2) 2 L0 / (B 2^(N+1))
        c = 2 / mpmath.mpf(2) ** (N + 1) + (1 / (CM * mpmath.mpf(2) ** -N)) * 4 / mpmath.mpf(2) ** (N + 1)
        assert mpmath.almosteq(c, mpmath.mpf(2) ** -N + 2 / CM, 1e-40)
        assert c <= 5


@pytest.mark.rigorous(method="exact rationals at the named M")
@pytest.mark.claim("saddle_point:Truncated geometric level")
@pytest.mark.parametrize("M", [0, 2, 5, 12])
def test_truncated_geometric_moments(M, certificate):
    CM = 1 / (2 * (1 - Fraction(1, 2 ** (M + 1))))
    p = [CM * Fraction(1, 2 ** k) for k in range(M + 1)]
    assert sum(p) == 1
    assert sum(pk * 2 ** (k + 1) for k, pk in enumerate(p)) == 2 * CM * (M + 1)
    assert sum(pk * (1 / pk) for pk in p) == M + 1     # E[1/p_N] = M + 1
    assert Fraction(1, 2) <= CM <= 1
    certificate.point(4)


@pytest.mark.evidence("points; the package's budget at six ratios (exact integers, but a sample of n/B)")
@pytest.mark.claim("saddle_point:Algorithm 3 stopping rule")
@pytest.mark.parametrize("ratio", [64, 100, 1024, 1500, 4096, 65536])
def test_corrected_budget_reserves_at_most_a_quarter_and_the_catalogues_first_rule_does_not(ratio):
    """n / B = ratio. The corrected M = floor(log2 Gamma) - 3 keeps the reserve 2^(M+1) + 2 <= Gamma/4 + 2;
    the first reconstruction (A7: M = floor(log2(n/B)) - 2) reserves 50% or more of Gamma, all of it
    (no step runs) when n/B is a power of two (saddle_point-E03)."""
    Gamma, M = sp.algorithm3_budget(ratio, 1)
    assert 2 ** (M + 1) + 2 <= Gamma / 4 + 2
    M_old = int(math.floor(math.log2(ratio))) - 2
    reserve_old = 2 ** (M_old + 1) + 2
    assert reserve_old >= Gamma / 2
    if ratio & (ratio - 1) == 0:
        assert reserve_old > Gamma
