"""High-precision (mpmath, 50 digits) checks of erm_geometry's constants and calibrations.

Each hard-coded reference value carries beside it the mpmath expression and the working
precision that produced it (scipy.special test style).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, strategies as st

from fractions import Fraction

import sympy as sp
from flint import acb, arb, ctx

from reference.algorithms import erm_geometry as eg
from reference.geometry import width
from verifier import ncdf, prove, within



@pytest.fixture(autouse=True, scope="module")
def _fifty_digits():
    """50 digits for this module's tests only (mpmath.workdps restores the caller's precision, so
    the suite does not depend on the order modules run in)."""
    with mpmath.workdps(50), ctx.workprec(256):
        yield


def gdp_delta_b(eps, mu):
    """Exact delta(eps) of mu-GDP on Arb balls (certified)."""
    return ncdf(-eps / mu + mu / 2) - eps.exp() * ncdf(-eps / mu - mu / 2)


def _gdp_delta(eps, mu):
    eps, mu = mpmath.mpf(eps), mpmath.mpf(mu)
    return mpmath.ncdf(-eps / mu + mu / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / mu - mu / 2)


@pytest.mark.rigorous(method="ball arithmetic at the named points", points="the listed (eps, delta, T)")
@pytest.mark.claim("erm_geometry:Theorem 3.1")
@pytest.mark.parametrize("eps", ["0.1", "0.5", "1"])
@pytest.mark.parametrize("delta", ["1e-12", "1e-6", "1e-3", "0.1"])
@pytest.mark.parametrize("T", [1, 10, 1000, 10**6])
def test_paper_sigma_of_algorithm_1_is_within_the_claim_exactly(eps, delta, T, certificate):
    """The T-step transcript of Algorithm 1 is exactly mu-GDP with mu = (2L/n) sqrt(T)/sigma
    = eps/(2 sqrt(2) ln(T/delta)) (independent of L and n); its exact delta(eps) is <= delta (certified)."""
    eps_, delta_ = mpmath.mpf(eps), mpmath.mpf(delta)
    sigma = mpmath.sqrt(32 * T * mpmath.log(T / delta_) ** 2) / (eps_ * 1)   # L = 1, n = 1
    eb, db = arb(eps), arb(delta)
    sigma_b = (32 * T * (T / db).log() ** 2).sqrt() / eb
    mu_b = 2 * arb(T).sqrt() / sigma_b
    assert within(mu_b, eb / (2 * arb(2).sqrt() * (T / db).log()), "1e-45")
    assert gdp_delta_b(eb, mu_b) <= db
    certificate.point(2)
    # and the float implementation of line 1 agrees with the 50-digit value
    assert eg.paper_sigma_algorithm1(float(eps), float(delta), 1.0, 1, T) == pytest.approx(float(sigma), rel=1e-13)


@pytest.mark.rigorous(method="branch and bound over (eps, ln 1/delta)", domain="eps in (0, 1], delta in [1e-12, 0.1], every T >= 1 (the statement's narrowed domain)")
@pytest.mark.claim("erm_geometry:Theorem 3.1")
def test_paper_sigma_of_algorithm_1_for_every_eps_delta_and_T(certificate):
    """For EVERY eps in [0, 1], delta in [1e-12, 0.1] and T >= 1: mu = eps/(2 sqrt 2 ln(T/delta)) is largest at
    T = 1, and delta_GDP(eps; mu) increases in mu (its mu-derivative is a normal density, checked symbolically), so
    it suffices to take T = 1. There eps/mu = 2 sqrt2 t exactly (t = ln(1/delta) in [2.30, 27.7], a superset), and
    delta_GDP <= Phi(mu/2 - eps/mu) (the dropped term e^eps Phi(.) is >= 0): proved < e^-t / 1000 on the box."""
    def f(e, t):
        return 1 - 1000 * ncdf(e / (4 * arb(2).sqrt() * t) - 2 * arb(2).sqrt() * t) * t.exp()
    certificate.add(prove(f, [(0, 1), ("2.30", "27.7")], claim="Thm 3.1 sigma, T = 1, every eps, delta"))
    e_, m_ = sp.symbols("epsilon mu", positive=True)
    Phi = lambda z: (1 + sp.erf(z / sp.sqrt(2))) / 2   # noqa: E731
    d = sp.diff(Phi(-e_ / m_ + m_ / 2) - sp.exp(e_) * Phi(-e_ / m_ - m_ / 2), m_)
    assert sp.simplify(sp.expand(d / (sp.exp(-(e_ / m_ - m_ / 2) ** 2 / 2) / sp.sqrt(2 * sp.pi)))) == 1
    certificate.point()


@pytest.mark.rigorous(method="ball arithmetic at the named point", points="the catalogue's point")
@pytest.mark.claim("erm_geometry:Theorem 3.1")
def test_paper_sigma_margin_at_catalogue_point(certificate):
    # delta_GDP(1; 1/(2 sqrt2 ln(1e7))) ~ 3.4e-457 (catalogue P01), certified
    mu = 1 / (2 * arb(2).sqrt() * (arb(100) / arb("1e-5")).log())
    value = gdp_delta_b(arb(1), mu)
    assert value < arb("1e-450")
    certificate.point()


@pytest.mark.rigorous(method="symbolic identity (every k > e) + ball arithmetic at the named k", domain="every k > e (symbolic); the package at the listed k")
@pytest.mark.claim("erm_geometry:Claim 3.5")
@pytest.mark.parametrize("k", [8, 9, 20, 100, 10**4, 10**9])
def test_k_to_the_one_minus_one_over_q_is_e(k, certificate):
    """q = ln k/(ln k - 1): 1 - 1/q = 1/ln k, so k^(1 - 1/q) = e for every k > e (sympy), and 1 < q <= 2 iff
    ln k >= 2; the package's q against the certified value."""
    lk = sp.symbols("l", positive=True)
    q_s = lk / (lk - 1)
    assert sp.simplify(1 - 1 / q_s - 1 / lk) == 0
    qb = arb(k).log() / (arb(k).log() - 1)
    assert within(arb(k) ** (1 - 1 / qb), arb(1).exp(), "1e-45") and 1 < qb <= 2
    assert abs(arb(eg.lq_exponent(k)) - qb) <= qb * arb("1e-15")
    certificate.point(3)


@pytest.mark.rigorous(method="ball arithmetic, every k in 2..7", points="every k in 2..7")
@pytest.mark.claim("erm_geometry:Claim 3.5")
def test_q_formula_needs_k_at_least_8_and_q2_fallback_still_gives_the_claim(certificate):
    # ln k >= 2 iff k >= e^2 = 7.389...: below it q = ln k/(ln k - 1) > 2 (or undefined, or negative)
    assert arb(7).log() < 2 < arb(8).log()
    for k in range(2, 8):
        assert eg.lq_exponent(k) == 2.0
        assert arb(k).sqrt() < arb(1).exp()     # ||a||_1 <= sqrt(k) ||a||_2 < e ||a||_2
    certificate.point(7)


@pytest.mark.evidence("hypothesis examples, float arithmetic")
@pytest.mark.claim("erm_geometry:Claim 3.5")
@given(st.lists(st.floats(-10, 10, allow_nan=False), min_size=2, max_size=40))
def test_l1_at_most_e_times_lq(a):
    a = np.array(a)
    if not np.any(a):
        return
    a = a / np.max(np.abs(a))      # both sides are homogeneous; avoids underflow of |a_i|^q
    k = len(a)
    q = eg.lq_exponent(k)
    assert np.sum(np.abs(a)) <= math.e * np.linalg.norm(a, ord=q) * (1 + 1e-12)


@pytest.mark.rigorous(method="exact rationals at the named point", points="q = 2 and the named x, y")
@pytest.mark.claim("erm_geometry:Fact 3.4")
def test_fact_3_4_modulus_is_one_half_at_q_2_exactly(certificate):
    """At q = 2, Psi = ||.||^2/4 has Bregman divergence ||x - y||^2/4 = (1/2)(||x - y||^2/2): modulus 1/2, not 1."""
    certificate.point()
    x, y = [Fraction(1), Fraction(2), Fraction(-3)], [Fraction(1, 2), Fraction(-1), Fraction(2)]
    psi = lambda v: sum(t * t for t in v) / 4  # noqa: E731
    grad = lambda v: [t / 2 for t in v]  # noqa: E731
    bregman = psi(x) - psi(y) - sum(g * (a - b) for g, a, b in zip(grad(y), x, y))
    half_sq = sum((a - b) ** 2 for a, b in zip(x, y)) / 2
    assert bregman / half_sq == Fraction(1, 2)


@pytest.mark.rigorous(method="exact rationals", domain="the proof's constants (the statement names these numbers)")
@pytest.mark.claim("erm_geometry:Theorem 5.8 constants")
def test_lower_bound_proof_constants(certificate):
    F = Fraction
    tau = F(1, 1000)
    assert F(11, 10) * tau <= F(4, 100) ** 2                   # sqrt(1.1 tau) = 0.03316... <= 0.04
    assert F(11, 10) * 3 / 4 <= F(91, 100) ** 2                # sqrt(1.1 * 3/4) = 0.90829... <= 0.91
    assert F(5, 100) ** 2 >= F(11, 10) * tau                   # 0.0025 >= 0.0011
    assert 1 - F(91, 100) - F(4, 100) == F(5, 100)
    c_max = (F(1, 10) * tau - 4 * tau ** 2) / 3                # 3.2e-5: tau + 4 tau^2 + 3c <= 1.1 tau
    assert c_max == F(32, 10**6)
    assert tau + 4 * tau ** 2 + 3 * c_max == F(11, 10) * tau
    certificate.point(6)


@pytest.mark.rigorous(method="ball arithmetic at the named point", points="the named (eps, delta) and data")
@pytest.mark.claim("erm_geometry:Algorithm 2 privacy")
def test_objective_perturbation_violation_at_50_digits(certificate):
    """Catalogue P10: n = 10, eps = 1, delta = 1e-3, zeta = 0.2, event {theta_priv = -1} = {b >= cbar + abar + zeta}."""
    sb = 2 * (2 * arb(1000).log()).sqrt() / 10
    assert ncdf(-arb("1.9") / sb) - arb(1).exp() * ncdf(-arb("2.2") / sb) > arb("1e-3")       # violation, certified
    kb = 2 * (8 * arb(2000).log() + 4).sqrt() / 10
    assert ncdf(-arb("1.9") / kb) - arb(1).exp() * ncdf(-arb("2.2") / kb) < 0
    certificate.point(2)
    sigma = 2 * mpmath.sqrt(2 * mpmath.log(1000)) / 10
    # mpmath.mp.dps = 30: 2*sqrt(2*log(1000))/10 = 0.743384437769967689...
    assert mpmath.almosteq(sigma, mpmath.mpf("0.743384437769967689"), rel_eps=mpmath.mpf(10) ** -17)
    pd = 1 - mpmath.ncdf(mpmath.mpf("1.9") / sigma)    # 0.005296010969172368 (mp.dps = 30)
    pdp = 1 - mpmath.ncdf(mpmath.mpf("2.2") / sigma)   # 0.001541004590508693 (mp.dps = 30)
    assert mpmath.almosteq(pd, mpmath.mpf("0.005296010969172368"), rel_eps=mpmath.mpf(10) ** -15)
    assert mpmath.almosteq(pdp, mpmath.mpf("0.001541004590508693"), rel_eps=mpmath.mpf(10) ** -15)
    assert pd - mpmath.e * pdp > mpmath.mpf("1e-3")    # 1.107126e-3: violation
    # the KST12 variance L^2 (8 ln(2/delta) + 4 eps)/(n eps)^2 on the same event
    kst = 2 * mpmath.sqrt(8 * mpmath.log(2000) + 4) / 10
    assert (1 - mpmath.ncdf(mpmath.mpf("1.9") / kst)) - mpmath.e * (1 - mpmath.ncdf(mpmath.mpf("2.2") / kst)) < 0
    assert float(sigma) == pytest.approx(eg.paper_sigma_algorithm2(1.0, 1e-3, 2.0, 10), rel=1e-14)
    assert float(kst) == pytest.approx(eg.kst_sigma_algorithm2(1.0, 1e-3, 2.0, 10), rel=1e-14)


@pytest.mark.rigorous(method="certified integrals (Arb) at the named p", points="the listed p")
@pytest.mark.claim("erm_geometry:Section 2.2 Gaussian widths")
@pytest.mark.parametrize("p,l2,l1,simplex", [
    # mpmath.mp.dps = 30: sqrt(2)*gamma((p+1)/2)/gamma(p/2); quad(1-(2 ncdf(x)-1)^p, [0, inf]);
    # quad(1-ncdf(x)^p, [0, inf]) - quad(ncdf(x)^p, [-inf, 0]) (catalogue section 1.5)
    (2, "1.2533141373155", "1.12837916709551", "0.564189583547756"),
    (10, "3.08432775979986", "1.88071569382116", "1.53875273083517"),
    (100, "9.97503163955105", "2.74695768780612", "2.50759363644168"),
])
def test_gaussian_widths_against_mpmath(p, l2, l1, simplex, certificate):
    """The catalogue's widths against certified enclosures: Arb integrals on [0, X] (and [-X, 0]), X = 15, with the
    tails enclosed (1 - (2 Phi - 1)^p <= 2p (1 - Phi), 1 - Phi^p <= p (1 - Phi), int_X^inf (1 - Phi) <= phi(X),
    int_{-inf}^{-X} Phi^p <= phi(X)); the name is historical (mpmath was the reference before)."""
    with ctx.workprec(128):
        r2 = arb(2).sqrt()
        Phi = lambda x: (1 + (x / r2).erf()) / 2       # noqa: E731
        X = arb(15)
        phiX = (-X * X / 2).exp() / (2 * arb.pi()).sqrt()
        g2 = r2 * (arb(p + 1) / 2).gamma() / (arb(p) / 2).gamma()
        g1 = acb.integral(lambda x, _: 1 - (2 * Phi(x) - 1) ** p, 0, X).real + arb(0).union(2 * p * phiX)
        gs = (acb.integral(lambda x, _: 1 - Phi(x) ** p, 0, X).real + arb(0).union(p * phiX)
              - acb.integral(lambda x, _: Phi(x) ** p, -X, 0).real - arb(0).union(phiX))
        for got, ref in ((g2, l2), (g1, l1), (gs, simplex)):
            assert abs(got - arb(ref)) <= arb("1e-13") * arb(ref)
        # the widths the theorems use come from reference.geometry.width (one implementation)
        assert abs(arb(width.width_l2_ball(p)) - g2) <= arb("1e-12") * g2
        assert abs(arb(width.width_l1_ball(p)[0]) - g1) <= arb("1e-10") * g1
        assert abs(arb(width.width_simplex(p)[0]) - gs) <= arb("1e-10") * gs
        # Section 1: the l2 ball's width is below sqrt(p); the l1 ball's below sqrt(2 ln 2p)
        assert g2 < arb(p).sqrt() and g1 <= (2 * arb(2 * p).log()).sqrt()
    certificate.point(8)


@pytest.mark.rigorous(method="ball arithmetic at the named p", points="the listed p")
@pytest.mark.claim("erm_geometry:Fact 2.3")
@pytest.mark.parametrize("p", [1, 10, 100, 1000])
def test_expected_w_at_most_g2_plus_r2_for_the_l2_ball_exactly(p, certificate):
    """Q = unit l2 ball: W = ||g||^2, E W = p exactly; G^2 = 2 Gamma((p+1)/2)^2/Gamma(p/2)^2; r = 1."""
    G = arb(2).sqrt() * (arb(p + 1) / 2).gamma() / (arb(p) / 2).gamma()
    assert p <= G ** 2 + 1
    certificate.point()


@pytest.mark.rigorous(method="symbolic (sympy) + the Gaussian Poincare inequality (cited); ball arithmetic at the witness",
                      domain="every set Q with r = sup_Q ||theta||_2 < inf, every dimension; the integrand at one certified point")
@pytest.mark.claim("erm_geometry:Fact 2.3")
def test_fact_2_3_for_every_set_and_the_integrand_witness(certificate):
    """S(b) = sup_Q <b, theta> is r-Lipschitz in b (|S(b) - S(b')| <= sup_Q |<b - b', theta>| <= r ||b - b'||), so the
    Gaussian Poincare inequality (Var f(b) <= E ||grad f(b)||^2 for b ~ N(0, I); Boucheron-Lugosi-Massart 2013,
    Theorem 3.20) gives Var S <= r^2, and E W = E S^2 = Var S + (E S)^2 <= r^2 + G^2 (G = E S, the width): sympy checks the
    identity E S^2 = Var S + (E S)^2 and the Cauchy-Schwarz step. The integrand of (7), 2 exp(-(x - G^2)/(2 r^2)), is not
    an upper bound on P[W >= x]: Q the unit l2 ball of R^100, W = ||b||^2 ~ chi^2_100, x = G^2 + 10, where the exact tail
    P[chi^2_100 >= x] = e^(-x/2) sum_(j<50) (x/2)^j/j! (p even) is certified > 10 times the integrand."""
    ES, ES2 = sp.symbols("E_S E_S2", real=True)
    var = ES2 - ES ** 2
    assert sp.simplify(ES2 - (var + ES ** 2)) == 0
    u, r, w = sp.symbols("u r w", nonnegative=True)                 # |<d, theta>| <= ||d|| ||theta|| = u v, v = r - w <= r
    assert sp.simplify(u * r - u * (r - w) - u * w) == 0 and (u * w).is_nonnegative
    certificate.point(2)
    with ctx.workprec(256):
        p = 100
        G2 = 2 * ((arb(p + 1) / 2).gamma() / (arb(p) / 2).gamma()) ** 2
        x = G2 + 10
        term, tail = arb(1), arb(0)
        for j in range(p // 2):
            tail += term
            term = term * (x / 2) / (j + 1)
        tail *= (-x / 2).exp()
        integrand = 2 * (-(x - G2) / 2).exp()
        assert tail > 10 * integrand
        assert tail <= 2 * (-(x.sqrt() - G2.sqrt()) ** 2 / 2).exp()
    certificate.point(2)


@pytest.mark.evidence("one point, uncertified mpmath incomplete gamma")
@pytest.mark.claim("erm_geometry:Fact 2.3")
def test_paper_integrand_of_equation_7_is_not_an_upper_bound():
    """(7) bounds P[W >= x] by 2 exp(-(x - G^2)/(2 r^2)). For the unit l2 ball in R^100 (W ~ chi^2_100)
    at x = G^2 + 10 the true tail is far larger: the step does not follow from (6)."""
    p = 100
    G2 = 2 * (mpmath.gamma(mpmath.mpf(p + 1) / 2) / mpmath.gamma(mpmath.mpf(p) / 2)) ** 2
    x = G2 + 10
    tail = mpmath.gammainc(mpmath.mpf(p) / 2, x / 2, mpmath.inf, regularized=True)   # P[chi^2_100 >= x]
    integrand = 2 * mpmath.exp(-(x - G2) / 2)
    assert tail > 10 * integrand
    # while the valid form from (6), 2 exp(-(sqrt(x) - G)^2 / (2 r^2)), does bound it
    assert tail <= 2 * mpmath.exp(-(mpmath.sqrt(x) - mpmath.sqrt(G2)) ** 2 / 2)
