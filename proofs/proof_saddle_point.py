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


def _cor36_b(eps0, k, delta):
    """Corollary 3.6's total on Arb balls (certified); delta a decimal string or ball."""
    L = (1 / (arb(delta) if isinstance(delta, str) else delta)).log()
    return (2 * k * L).sqrt() * eps0 + k * eps0 ** 2 / 2


def _close(x, y, rel):
    return bool(abs(x - y) <= abs(y) * arb(rel))


def _cor36(eps0, k, delta):
    L = mpmath.log(1 / mpmath.mpf(delta))
    return mpmath.sqrt(2 * k * L) * eps0 + k * eps0 ** 2 / 2


@pytest.mark.rigorous(method="symbolic, every eps, L, k > 0", domain="every eps, L = ln(1/delta), k > 0")
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


@pytest.mark.rigorous(method="ball arithmetic at the named grid points (the domain: the symbolic test above)", points="the 5 x 5 grid of (eps, delta) at the listed k")
@pytest.mark.claim("saddle_point:Corollary 3.6")
@pytest.mark.parametrize("k", [1, 7, 100, 10**4, 10**6])
def test_corollary_3_6_boundary_is_8_log_1_over_delta(k, certificate):
    with ctx.workprec(256):
        for eps_s in ("0.01", "0.5", "1", "3", "20"):
            for delta_s in ("1e-10", "1e-5", "0.01", "0.3", "0.9"):
                eps, delta = arb(eps_s), arb(delta_s)
                L = (1 / delta).log()
                eps0 = eps / (2 * (2 * k * L).sqrt())
                total = _cor36_b(eps0, k, delta)
                assert _close(total, eps / 2 + eps ** 2 / (16 * L), "1e-40")
                holds, boundary = total <= eps, eps <= 8 * L
                fails, beyond = total > eps, eps > 8 * L
                assert (holds and boundary) or (fails and beyond)          # both decided, and they agree
                certificate.point()


@pytest.mark.rigorous(method="ball arithmetic at the named points", points="the named points")
@pytest.mark.claim("saddle_point:Proposition 3.3")
@pytest.mark.parametrize("K,T,B", [(1, 10, 4), (3, 500, 20), (7, 2000, 1)])
def test_proposition_3_3_step_is_corollary_3_6_at_2_K_plus_1_T_draws(K, T, B, certificate):
    eps, delta, L0 = 0.7, 1e-6, 1.3
    eta = sp.paper_eta_algorithm1(eps, delta, L0, B, K, T)
    with ctx.workprec(256):
        e, d, l0 = arb(eps), arb(delta), arb(L0)        # the floats exactly
        boxed = e * B / (16 * l0 * ((K + 1) * T * (1 / d).log()).sqrt())
        assert _close(arb(eta), boxed, "1e-14")
        eps0 = 4 * boxed * l0 / B
        assert _cor36_b(eps0, 2 * (K + 1) * T, d) <= e
    certificate.point(2)


@pytest.mark.rigorous(method="ball arithmetic at the named points", points="the named points")
@pytest.mark.claim("saddle_point:Proposition 3.17")
@pytest.mark.parametrize("Gamma,B", [(8, 1), (256, 4), (50_000, 2)])
def test_proposition_3_17_step_admits_2_Gamma_draws_in_the_filter(Gamma, B, certificate):
    eps, delta, L0 = 1.0, 1e-5, 2.0
    with ctx.workprec(256):
        eta = arb(sp.paper_eta_algorithm3(eps, delta, L0, B, Gamma))
        d = arb(delta)
        eps0 = 10 * eta * arb(L0) / B                                # 2 eta (5 L0 / B)
        assert _close(eps0, arb(eps) / (4 * (Gamma * (1 / d).log()).sqrt()), "1e-14")
        # the filter expression (Theorem 3.5) at the worst-case 2 Gamma draws
        assert _cor36_b(eps0, 2 * Gamma, d) <= arb(eps)
    certificate.point(2)


@pytest.mark.rigorous(method="ball arithmetic and exact integers at the named point", points="the named points")
@pytest.mark.claim("saddle_point:Proposition 4.3")
def test_proposition_4_3_step_is_corollary_3_6_at_N_draws(certificate):
    eps, delta, L0, T, N = 0.5, 1e-7, 1.5, 1000, 4321
    with ctx.workprec(256):
        eta, d = arb(sp.paper_eta_algorithm5(eps, delta, L0, T, N)), arb(delta)
        assert _cor36_b(4 * eta * arb(L0) * T, N, d) <= arb(eps)
        assert _close(4 * eta * arb(L0) * T, arb(eps) / (2 * (2 * N * (1 / d).log()).sqrt()), "1e-14")
    certificate.point(4)
    assert sp.algorithm5_sample_count(3, 100, 7, 15, rule="catalogue") == 3 * (15 + math.ceil((100 - 15) / 7) + 1)
    # the loop refreshes at t = t0 + k tau <= T: floor((T - t0) / tau) times (saddle_point-E06)
    assert sp.algorithm5_sample_count(3, 100, 7, 15) == 3 * (15 + len(range(15 + 7, 101, 7)) + 1)


@pytest.mark.rigorous(method="exact rationals, every N <= M <= 64", points="every 0 <= N <= M <= 64 (the statement: every level)")
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


@pytest.mark.rigorous(method="exact rationals at the named M", points="the named points")
@pytest.mark.claim("saddle_point:Algorithm 2 sensitivity")
@pytest.mark.parametrize("M", [0, 1, 3, 10, 40])
def test_algorithm_2_sensitivity_constant_is_at_most_5(M, certificate):
    """The package's level law (floats) against the exact p_N = C_M 2^-N, and the constant, exactly."""
    CM = 1 / (2 * (1 - Fraction(1, 2 ** (M + 1))))
    p = truncated_geometric_pmf(M)
    for N in range(M + 1):
        exact = CM * Fraction(1, 2 ** N)
        assert abs(Fraction(float(p[N])) - exact) <= exact * Fraction(1, 10**15)
        # G^0: 2 L0 / (B 2^(N+1)); the multilevel term: (1/p_N) (1 + 1/2 + 1/2) 2 L0 / (B 2^(N+1))
        c = Fraction(2, 2 ** (N + 1)) + (1 / exact) * Fraction(4, 2 ** (N + 1))
        assert c == Fraction(1, 2 ** N) + 2 / CM and c <= 5
        certificate.point()


@pytest.mark.rigorous(method="exact rationals at the named M", points="the named points")
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


@pytest.mark.rigorous(method="exact integers at the named ratios", points="the named points")
@pytest.mark.claim("saddle_point:Algorithm 3 stopping rule")
@pytest.mark.parametrize("ratio", [64, 100, 1024, 1500, 4096, 65536])
def test_corrected_budget_reserves_at_most_a_quarter_and_the_catalogues_first_rule_does_not(ratio, certificate):
    """n / B = ratio. The corrected M = floor(log2 Gamma) - 3 keeps the reserve 2^(M+1) + 2 <= Gamma/4 + 2;
    the first reconstruction (A7: M = floor(log2(n/B)) - 2) reserves 50% or more of Gamma, all of it
    (no step runs) when n/B is a power of two (saddle_point-E03)."""
    Gamma, M = sp.algorithm3_budget(ratio, 1)
    assert 2 ** (M + 1) + 2 <= Fraction(Gamma, 4) + 2
    M_old = ratio.bit_length() - 1 - 2               # floor(log2(ratio)) - 2, in integers
    reserve_old = 2 ** (M_old + 1) + 2
    assert reserve_old >= Fraction(Gamma, 2)
    certificate.point(2)
    if ratio & (ratio - 1) == 0:
        assert reserve_old > Gamma


# ---------------------------------------------------------------------------
# The same claims over every parameter (symbolic; the tests above check the package's floats at points).

def _cor36_total(eps0, k, L):
    return sympy.sqrt(2 * k * L) * eps0 + k * eps0 ** 2 / 2


@pytest.mark.rigorous(method="symbolic (sympy), every eps, L = ln(1/delta), L0, B, K, T > 0",
                      domain="every eps, delta, L0, B > 0 and K, T >= 1 (eps <= 8 ln(1/delta): Corollary 3.6's condition)")
@pytest.mark.claim("saddle_point:Proposition 3.3")
def test_proposition_3_3_for_every_parameter(certificate):
    """eps0 = 4 eta L0 / B at eta = eps B / (16 L0 sqrt((K+1) T L)) is eps / (2 sqrt(2 N L)) with N = 2 (K+1) T, i.e.
    Corollary 3.6's calibration at k = N draws, whose total is eps/2 + eps^2/(16 L) <= eps iff eps <= 8 L (proved
    for every parameter in test_corollary_3_6_boundary_for_every_parameter; restated here at k = N)."""
    eps, L, L0, B, K, T = sympy.symbols("epsilon L L0 B K T", positive=True)
    eta = eps * B / (16 * L0 * sympy.sqrt((K + 1) * T * L))
    N = 2 * (K + 1) * T
    eps0 = 4 * eta * L0 / B
    assert sympy.simplify(eps0 - eps / (2 * sympy.sqrt(2 * N * L))) == 0
    assert sympy.simplify(_cor36_total(eps0, N, L) - (eps / 2 + eps ** 2 / (16 * L))) == 0
    assert sympy.factor(eps - (eps / 2 + eps ** 2 / (16 * L))) == sympy.factor(eps * (8 * L - eps) / (16 * L))
    certificate.point(3)


@pytest.mark.rigorous(method="symbolic (sympy), every eps, L = ln(1/delta), L0, B, Gamma > 0",
                      domain="every eps, delta, L0, B, Gamma > 0 with eps <= 8 ln(1/delta) (the filter's condition)")
@pytest.mark.claim("saddle_point:Proposition 3.17")
def test_proposition_3_17_for_every_parameter(certificate):
    """eps0 = 10 eta L0 / B at eta = eps B / (40 L0 sqrt(Gamma L)) is eps / (4 sqrt(Gamma L)); the filter's expression
    (Theorem 3.5) after j <= 2 Gamma such draws, sqrt(2 L j eps0^2) + j eps0^2 / 2, increases with j and at
    j = 2 Gamma equals eps/2 + eps^2/(16 L) <= eps iff eps <= 8 L: the filter never stops a run."""
    eps, L, L0, B, G, j = sympy.symbols("epsilon L L0 B Gamma j", positive=True)
    eta = eps * B / (40 * L0 * sympy.sqrt(G * L))
    eps0 = 10 * eta * L0 / B
    assert sympy.simplify(eps0 - eps / (4 * sympy.sqrt(G * L))) == 0
    total = _cor36_total(eps0, j, L)
    assert sympy.simplify(total.subs(j, 2 * G) - (eps / 2 + eps ** 2 / (16 * L))) == 0
    dj = sympy.simplify(sympy.diff(total, j))
    assert dj.is_positive                                   # every term positive for positive symbols
    assert sympy.factor(eps - (eps / 2 + eps ** 2 / (16 * L))) == sympy.factor(eps * (8 * L - eps) / (16 * L))
    certificate.point(4)


@pytest.mark.rigorous(method="symbolic (sympy), every eps, L = ln(1/delta), L0, T, N > 0",
                      domain="every eps, delta, L0, K, T, t0, tau with eps <= 8 ln(1/delta) (Corollary 3.6's condition)")
@pytest.mark.claim("saddle_point:Proposition 4.3")
def test_proposition_4_3_for_every_parameter(certificate):
    """eps0 = 4 eta L0 T at eta = eps / (8 L0 T sqrt(2 N L)) is eps / (2 sqrt(2 N L)), Corollary 3.6's calibration at
    k = N; the loop draws K (t0 + floor((T - t0)/tau) + 1) <= N (floor <= ceil) and the total increases with the
    number of draws j, so j <= N draws compose within eps/2 + eps^2/(16 L) <= eps when eps <= 8 L."""
    eps, L, L0, T, N, j = sympy.symbols("epsilon L L0 T N j", positive=True)
    eta = eps / (8 * L0 * T * sympy.sqrt(2 * N * L))
    eps0 = 4 * eta * L0 * T
    assert sympy.simplify(eps0 - eps / (2 * sympy.sqrt(2 * N * L))) == 0
    total = _cor36_total(eps0, j, L)
    assert sympy.simplify(total.subs(j, N) - (eps / 2 + eps ** 2 / (16 * L))) == 0
    assert sympy.simplify(sympy.diff(total, j)).is_positive
    x = sympy.symbols("x", real=True)                       # (T - t0)/tau
    assert bool(sympy.floor(x) <= x) and bool(sympy.ceiling(x) >= x)    # sympy's facts: floor(x) <= x <= ceil(x)
    certificate.point(4)


@pytest.mark.rigorous(method="symbolic (sympy), every integer 0 <= N <= M", domain="every level 0 <= N <= M, every M >= 0")
@pytest.mark.claim("saddle_point:Algorithm 2 sensitivity")
def test_algorithm_2_sensitivity_constant_for_every_level(certificate):
    """c(N, M) = 2/2^(N+1) + (1/p_N) 4/2^(N+1) with p_N = C_M 2^-N, C_M = 1/(2(1 - 2^-(M+1))) is 2^-N + 4 (1 - 2^-(M+1))
    for every N, M (sympy); with 2^N = 1 + w (w >= 0 for an integer N >= 0) and y = 2^-(M+1) > 0,
    5 - c = w/(1 + w) + 4 y > 0 (sympy decides the sign from the symbols' signs)."""
    N, M = sympy.symbols("N M", nonnegative=True, integer=True)
    two = sympy.Integer(2)
    CM = 1 / (2 * (1 - two ** (-(M + 1))))
    pN = CM * two ** (-N)
    c = 2 / two ** (N + 1) + (1 / pN) * 4 / two ** (N + 1)
    assert sympy.simplify(c - (two ** (-N) + 4 * (1 - two ** (-(M + 1))))) == 0
    w = sympy.symbols("w", nonnegative=True)
    y = sympy.symbols("y", positive=True)
    slack = 5 - (1 / (1 + w) + 4 * (1 - y))
    assert sympy.simplify(slack - (w / (1 + w) + 4 * y)) == 0 and (w / (1 + w) + 4 * y).is_positive
    certificate.point(2)


@pytest.mark.rigorous(method="symbolic summation (sympy), every M", domain="every M >= 0")
@pytest.mark.claim("saddle_point:Truncated geometric level")
def test_truncated_geometric_law_for_every_M(certificate):
    """sum_{k=0}^M C_M 2^-k = 1 for every M (the normalising constant), and 1/2 <= C_M <= 1."""
    k, M = sympy.symbols("k M", nonnegative=True, integer=True)
    CM = 1 / (2 * (1 - sympy.Integer(2) ** (-(M + 1))))
    assert sympy.simplify(sympy.summation(CM * sympy.Integer(2) ** (-k), (k, 0, M)) - 1) == 0
    y = sympy.symbols("y", positive=True)                   # y = 2^-(M+1) in (0, 1/2]: C_M = 1/(2(1 - y))
    assert sympy.solve_univariate_inequality(1 / (2 * (1 - y)) <= 1, y, relational=False).contains(sympy.Rational(1, 2))
    certificate.point(2)


@pytest.mark.rigorous(method="symbolic (sympy) + induction on the steps of a run",
                      domain="every n, B >= 1 with Gamma = floor(n/(2B)) >= 8, every run (the rule's arithmetic; the "
                             "package's runs: tests/)")
@pytest.mark.claim("saddle_point:Algorithm 3 stopping rule")
def test_stopping_rule_keeps_every_run_within_n_over_2_for_every_n_and_B(certificate):
    """Step t runs only if u_(t-1) + 2^(M+1) + 2 <= Gamma, u_(t-1) = sum_(s<t) (2^(N_s+1) + 2) batches of B records
    spent so far; a step spends 2^(N_t+1) + 2 <= 2^(M+1) + 2 (N_t <= M). Induction: u_0 = 0 <= Gamma, and a step that
    runs ends at u_t <= u_(t-1) + 2^(M+1) + 2 <= Gamma; so every run spends at most B Gamma = B floor(n/(2B)) <= n/2
    records (floor(x) <= x). The reserve: with j = floor(log2 Gamma), Gamma = 2^j + m, 0 <= m < 2^j, M = j - 3 and
    2^(M+1) = 2^j/4 <= Gamma/4 (sympy, every j >= 3 and m >= 0)."""
    n, B = sympy.symbols("n B", positive=True)
    x = sympy.symbols("x", real=True)
    assert bool(sympy.floor(x) <= x)
    assert sympy.simplify(B * (n / (2 * B)) - n / 2) == 0                  # B * x at x = n/(2B), and floor(x) <= x
    u, R, c = sympy.symbols("u R c", nonnegative=True)                      # spent, reserve, this step's cost <= R
    G = u + R + sympy.symbols("slack", nonnegative=True)                     # the rule: u + R <= Gamma
    assert (G - (u + c) - (R - c)).simplify().is_nonnegative                 # u + c <= Gamma whenever c <= R
    j = sympy.symbols("j", integer=True, nonnegative=True)
    m = sympy.symbols("m", nonnegative=True)
    Gamma = 2 ** j + m
    assert sympy.simplify(Gamma / 4 - 2 ** (j - 3 + 1) - m / 4) == 0 and (m / 4).is_nonnegative
    certificate.point(4)
