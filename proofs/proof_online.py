"""High-precision (mpmath, 50 digits) checks of the constants and inequalities of paper ``online``.

- Algorithm 1 line 7: T^(0.5+c) = sqrt(T ln(2/delta)/2) and delta = 2 exp(-2 T^(2c)) (the Azuma choice of c),
  c > 0 iff delta < 2 e^-2; the code's beta equals the formula evaluated here.
- Lemma 1's per-step exponent: (lambda/beta) sqrt(2 ln(T/delta)) + lambda^2/(2 beta^2) = eps_1 (sqrt(1-u) + u/4)
  <= eps_1 with u = eps_1/(ln(T/delta) + eps_1) (catalogue P11).
- Lemma 2: KL(p||q) <= eps tanh(eps/2) <= 2 eps^2 for pairs with |ln(p/q)| <= eps, equality for randomized
  response (catalogue P12).
- The harmonic-sum facts behind eq. (12) and (35): H_{T-1} >= ln T (so (35)'s "<= 2L ln T / T" step fails),
  H_T - 1 <= ln T (the corrected sensitivity is still O(ln T / (alpha T))).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import sympy as sp
from flint import arb, ctx

from reference.algorithms import online as ol
from verifier import piecewise, prove, prove_halfline


@pytest.fixture(autouse=True, scope="module")
def _working_precision():
    """50 digits inside this module's tests only (a global setting leaked into other modules'
    tests and made the suite depend on its order; issue 8)."""
    with mpmath.workdps(50):
        yield


@pytest.mark.rigorous(method="ball arithmetic at the named points", points="the listed (T, delta)")
@pytest.mark.claim("online:Algorithm 1 line 7")
@pytest.mark.parametrize("T", [2, 3, 10, 1000, 10**6])
@pytest.mark.parametrize("delta", ["0.27", "0.1", "1e-2", "1e-8"])
def test_closed_forms_of_c(T, delta, certificate):
    with ctx.workprec(256):
        d, Tm = arb(delta), arb(T)
        c = ((2 / d).log() / 2).log() / (2 * Tm.log())
        assert abs(Tm ** (arb("0.5") + c) / (Tm * (2 / d).log() / 2).sqrt() - 1) < arb("1e-40")
        assert abs(2 * (-2 * Tm ** (2 * c)).exp() / d - 1) < arb("1e-40")
        assert (c > 0) if d < 2 * arb(-2).exp() else (c < 0)
        assert abs(arb(ol.pocp_c(T, float(delta))) - c) <= abs(c) * arb("1e-12") + arb("1e-15")
    certificate.point(4)


@pytest.mark.rigorous(method="symbolic (sympy) + branch and bound over u in [0, 1] and y in [0, 10], erfcx < 1/(y sqrt pi) "
                              "beyond (Abramowitz-Stegun 7.1.13)",
                      domain="every T >= 2, delta in (0, 2 e^-2), eps > 0")
@pytest.mark.claim("online:Lemma 1")
def test_lemma_1_for_every_parameter(certificate):
    """Lemma 1 for every T, delta, eps. With P = T^(0.5+c) = sqrt(T ln(2/delta)/2) (test_closed_forms_of_c_for_every_T_and_delta),
    eps1 = sqrt(eps)/P, l = ln(T/delta) > 0 and r = mu_1 = lambda/beta = 1/(P sqrt((2/eps)(l + eps1))):

    1. r = eps1/sqrt(2 (l + eps1)) and the exponent r sqrt(2 l) + r^2/2 = eps1 (sqrt(1 - u) + u/4), u = eps1/(l + eps1)
       in (0, 1) (sympy); sqrt(1 - u) + u/4 <= 1 for every u in [0, 1] (the verifier: 1/(1 + sqrt(1 - u)) - 1/4 > 0,
       as 1 - sqrt(1 - u) = u/(1 + sqrt(1 - u))). So eps1 >= r sqrt(2 l) + r^2/2, i.e. eps1/r - r/2 >= sqrt(2 l).
    2. The exact profile delta(eps1) = Phi(r/2 - eps1/r) - e^eps1 Phi(-r/2 - eps1/r) <= Phi(r/2 - eps1/r)
       <= Phi(-sqrt(2 l)) (Phi increasing) = erfcx(sqrt l) e^-l / 2 < e^-l = delta/T, since erfcx(y) < 2 for every y >= 0:
       the verifier proves 1 - erfc(y) e^(y^2)/2 > 0 on [0, 10]; beyond, erfcx(y) < 1/(y sqrt pi) < 1 (A-S 7.1.13)."""
    e1, l, P, eps = sp.symbols("epsilon_1 ell P epsilon", positive=True)
    E1 = sp.sqrt(eps) / P
    r_of_beta = 1 / (P * sp.sqrt(2 / eps * (l + E1)))
    assert sp.simplify(r_of_beta - E1 / sp.sqrt(2 * (l + E1))) == 0
    r = e1 / sp.sqrt(2 * (l + e1))
    u = e1 / (l + e1)
    assert sp.simplify(1 - u - l / (l + e1)) == 0
    expo = r * sp.sqrt(2 * l) + r ** 2 / 2
    # sqrt(1 - u) = sqrt(l/(l + eps1)); powdenest(force=True) merges roots of positive symbols (all are positive here)
    assert sp.simplify(sp.powdenest(sp.expand(expo - e1 * (sp.sqrt(l) / sp.sqrt(l + e1) + u / 4)), force=True)) == 0
    certificate.point(3)
    certificate.add(prove(lambda x: 1 / (1 + (1 - x).nonnegative_part().sqrt()) - arb(1) / 4, [(0, 1)], claim="sqrt(1-u) + u/4 <= 1"))
    certificate.add(prove(lambda y: 1 - (y * y).exp() * y.erfc() / 2, [(0, 10)], claim="erfcx(y) < 2 on [0, 10]"))
    with ctx.workprec(128):                       # the tail's bound at its start: 1/(10 sqrt pi) < 1
        assert 1 / (10 * arb.pi().sqrt()) < 1
    certificate.point()


@pytest.mark.evidence("hypothesis examples (mpmath, 50 digits)")
@pytest.mark.claim("online:Lemma 1")
@given(lT=st.floats(0.31, 6), ld=st.floats(-10, -1), le=st.floats(-4, 4))
def test_lemma_1_exponent(lT, ld, le):
    T, delta, eps = mpmath.mpf(10) ** lT, mpmath.mpf(10) ** ld, mpmath.mpf(10) ** le
    P = mpmath.sqrt(T * mpmath.log(2 / delta) / 2)
    eps1 = mpmath.sqrt(eps) / P
    beta_over_lam = P * mpmath.sqrt(2 / eps * (mpmath.log(T / delta) + eps1))
    r = 1 / beta_over_lam
    expo = r * mpmath.sqrt(2 * mpmath.log(T / delta)) + r * r / 2
    u = eps1 / (mpmath.log(T / delta) + eps1)
    assert abs(expo - eps1 * (mpmath.sqrt(1 - u) + u / 4)) <= mpmath.mpf(10) ** -40 * eps1
    assert expo <= eps1


def kl(p, q):
    return mpmath.fsum(pi * mpmath.log(pi / qi) for pi, qi in zip(p, q))


@pytest.mark.evidence("hypothesis examples (random distributions, mpmath)")
@pytest.mark.claim("online:Lemma 2")
@given(k=st.integers(2, 6), le=st.floats(-3, math.log10(5)), seed=st.integers(0, 10**6))
def test_lemma_2_kl_bound(k, le, seed):
    eps = mpmath.mpf(10) ** le
    rng = np.random.default_rng(seed)
    p = [mpmath.mpf(x) for x in rng.dirichlet(np.ones(k))]
    r = [mpmath.mpf(x) * eps for x in rng.uniform(-1, 1, k)]
    q = [pi * mpmath.exp(ri) for pi, ri in zip(p, r)]
    z = mpmath.fsum(q)
    q = [qi / z for qi in q]
    if max(abs(mpmath.log(pi / qi)) for pi, qi in zip(p, q)) > eps:
        return
    assert kl(p, q) <= eps * mpmath.tanh(eps / 2) * (1 + mpmath.mpf(10) ** -30)
    assert eps * mpmath.tanh(eps / 2) <= 2 * eps ** 2


@pytest.mark.rigorous(method="symbolic (sympy: convexity chord, identities) + branch and bound over the half-line eps >= 0 "
                              "(r = s/(1 - s), the end t = 1 - s by tanh <= 1)",
                      domain="every eps > 0 and every pair p, q with |ln(p/q)| <= eps")
@pytest.mark.claim("online:Lemma 2")
def test_lemma_2_for_every_eps_and_every_pair(certificate):
    """The whole chain, for every eps > 0 and every pair (finite or not) with |ln(p/q)| <= eps:

    1. KL(p||q) = E_q[h(w)], h(w) = w ln w, w = p/q in [a, b] = [e^-eps, e^eps], E_q[w] = 1. h'' = 1/w > 0, so h lies
       below its chord on [a, b] and KL <= h(a) + (h(b) - h(a)) (1 - a)/(b - a), the value of the two-point law
       (randomized response); sympy: that chord value is eps tanh(eps/2) for every eps > 0, so the bound is attained.
    2. eps tanh(eps/2) <= 2 eps^2 iff 2 - tanh(eps/2)/eps > 0, and tanh(eps/2)/eps = 1F1(1; 2; eps)/(1 + e^eps)
       (sympy, 1F1(1; 2; x) = (e^x - 1)/x): the verifier proves 2 - tanh(eps/2)/eps > 0 for every eps >= 0 by
       prove_halfline, written as 2 - 1F1(1; 2; eps)/(1 + e^eps) below eps = 1 (finite at 0) and as is above; its end (eps >= 2^40 - 1, eps = inf) by 2 - t/(1 - t) > 0, t = 1 - s = 1/(1 + eps),
       since tanh(eps/2)/eps <= 1/eps = t/(1 - t) (tanh <= 1).
    3. DRV's form is looser: eps (e^eps - 1) - eps tanh(eps/2) = eps (e^eps - 1) e^eps / (1 + e^eps) > 0 (sympy)."""
    e = sp.symbols("epsilon", positive=True)
    w = sp.symbols("w", positive=True)
    h = w * sp.log(w)
    assert sp.simplify(sp.diff(h, w, 2) - 1 / w) == 0 and (1 / w).is_positive
    a, b = sp.exp(-e), sp.exp(e)
    chord = h.subs(w, a) + (h.subs(w, b) - h.subs(w, a)) * (1 - a) / (b - a)
    assert sp.simplify(sp.expand_log(chord - e * sp.tanh(e / 2), force=True).rewrite(sp.exp)) == 0
    # the chord value is randomized response's KL (p = (e^eps, 1)/(1 + e^eps), q reversed)
    ra = sp.exp(e) / (1 + sp.exp(e))
    kl_rr = ra * sp.log(ra / (1 - ra)) + (1 - ra) * sp.log((1 - ra) / ra)
    assert sp.simplify(sp.expand_log(sp.simplify(kl_rr - e * sp.tanh(e / 2)), force=True).rewrite(sp.exp)) == 0
    x = sp.symbols("x", positive=True)
    assert sp.simplify(sp.hyper([1], [2], x).rewrite(sp.exp) - (sp.exp(x) - 1) / x) == 0 or \
        sp.simplify(sp.hyperexpand(sp.hyper([1], [2], x)) - (sp.exp(x) - 1) / x) == 0
    assert sp.simplify((sp.tanh(e / 2) / e).rewrite(sp.exp) - ((sp.exp(e) - 1) / e) / (1 + sp.exp(e))) == 0
    looser = e * (sp.exp(e) - 1) - e * sp.tanh(e / 2)
    assert sp.simplify(looser.rewrite(sp.exp) - e * (sp.exp(e) - 1) * sp.exp(e) / (1 + sp.exp(e))) == 0
    u = sp.symbols("u", positive=True)                     # u = e^eps - 1 > 0: exp(x) > 1 exactly on x > 0
    assert sp.solve_univariate_inequality(sp.exp(sp.Symbol("x", real=True)) > 1, sp.Symbol("x", real=True),
                                          relational=False) == sp.Interval.open(0, sp.oo)
    assert (e * u * (1 + u) / (2 + u)).is_positive
    certificate.point(6)
    # below eps = 1 the 1F1 form (finite at eps = 0), above it tanh(eps/2)/eps itself (the verifier's case split)
    f = lambda r: piecewise(r - 1, lambda: 2 - r.hypgeom_1f1(1, 2) / (1 + r.exp()),     # noqa: E731
                            lambda: 2 - (r / 2).tanh() / r)
    certificate.add(prove_halfline(f, 0, at_infinity=lambda t: 2 - t / (1 - t), claim="tanh(eps/2) < 2 eps, every eps > 0"))
    for eps in ("0.01", "1", "5"):
        with ctx.workprec(256):
            eb = arb(eps)
            ab = eb.exp() / (1 + eb.exp())
            klb = ab * (ab / (1 - ab)).log() + (1 - ab) * ((1 - ab) / ab).log()
            assert abs(klb - eb * (eb / 2).tanh()) < arb("1e-30")
    certificate.point(3)


@pytest.mark.rigorous(method="symbolic (sympy), every T > 1 and delta in (0, 2)", domain="every T > 1, delta in (0, 2)")
@pytest.mark.claim("online:Algorithm 1 line 7")
def test_closed_forms_of_c_for_every_T_and_delta(certificate):
    """With l = ln T > 0 and A = ln(2/delta)/2 > 0 (delta < 2): c = ln A/(2 l), T^(0.5 + c) = e^(l/2 + ln(A)/2) =
    sqrt(T A) for every such T, delta; delta = 2 exp(-2 T^(2c)) since T^(2c) = A; and c > 0 iff ln A > 0 iff
    ln(2/delta) > 2 iff delta < 2 e^-2 (the sign of c is the sign of ln A, l > 0)."""
    l, A = sp.symbols("l A", positive=True)
    T = sp.exp(l)
    c = sp.log(A) / (2 * l)
    assert sp.simplify(sp.powsimp(T ** (sp.Rational(1, 2) + c)) - sp.sqrt(T * A)) == 0
    assert sp.simplify(sp.powsimp(T ** (2 * c)) - A) == 0
    d = 2 * sp.exp(-2 * A)                                  # delta as a function of A, and back
    assert sp.simplify(sp.log(2 / d) / 2 - A) == 0
    assert sp.simplify(c * 2 * l - sp.log(A)) == 0          # sign(c) = sign(ln A) since 2 l > 0
    assert sp.solve_univariate_inequality(sp.log(2 / sp.Symbol("delta", positive=True)) > 2,
                                          sp.Symbol("delta", positive=True), relational=False) == sp.Interval.open(0, 2 * sp.exp(-2))
    certificate.point(5)


@pytest.mark.rigorous(method="symbolic (sympy): monotone steps from T = 1", domain="every integer T >= 1 (the harmonic facts behind eq. (35))")
@pytest.mark.claim("online:eq. (35)")
def test_harmonic_facts_for_every_T(certificate):
    """H_T - 1 <= ln T <= H_(T-1) for every integer T >= 1, by induction from T = 1 (all three are 0 there... H_0 = 0,
    H_1 - 1 = 0, ln 1 = 0): the steps are ln(1 + x) - x/(1 + x) >= 0 and x - ln(1 + x) >= 0 at x = 1/T, both 0 at
    x = 0 with derivatives x/(1 + x)^2 >= 0 and x/(1 + x) >= 0 for x >= 0 (sympy)."""
    x = sp.symbols("x", nonnegative=True)
    T = sp.symbols("T", positive=True, integer=True)
    up = sp.log(1 + x) - x / (1 + x)        # ln(T+1) - ln T - 1/(T+1) at x = 1/T: the step of ln T - (H_T - 1)
    lo = x - sp.log(1 + x)                  # 1/T - (ln(T+1) - ln T): the step of H_(T-1) - ln T
    assert sp.simplify(up.subs(x, 1 / T) - (sp.log(T + 1) - sp.log(T) - 1 / (T + 1))).rewrite(sp.log).equals(0)
    assert sp.simplify(lo.subs(x, 1 / T) - (1 / T - sp.log(T + 1) + sp.log(T))).equals(0)
    for g in (up, lo):
        assert g.subs(x, 0) == 0 and sp.simplify(sp.diff(g, x)).is_nonnegative
    certificate.point(6)


@pytest.mark.rigorous(method="ball arithmetic at the named T (H_n = digamma(n + 1) + Euler's gamma)", points="the listed T")
@pytest.mark.claim("online:eq. (35)")
@pytest.mark.parametrize("T", [2, 3, 10, 100, 10**4, 10**6])
def test_harmonic_facts(T, certificate):
    with ctx.workprec(256):
        H = lambda n: arb(n + 1).digamma() + arb.const_euler()   # noqa: E731
        assert H(T - 1) >= arb(T).log()          # (35)'s last step, sum_{t=2}^T 1/(t-1) <= ln T, is false
        assert H(T) - 1 <= arb(T).log()          # the corrected sum_{t=2}^T 1/t is <= ln T
    certificate.point(2)
    H = lambda n: mpmath.harmonic(n)    # noqa: E731
    assert ol.pol_sensitivity(1.0, 1.0, T) == pytest.approx(float(2 * (H(T) - 1) / T), rel=1e-12)
