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
from verifier import prove


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


@pytest.mark.rigorous(method="branch and bound over u in [0, 1]", points="every u in [0, 1] for the bound; the identity behind it only on hypothesis examples")
@pytest.mark.claim("online:Lemma 1")
def test_lemma_1_exponent_for_every_parameter(certificate):
    """Lemma 1's exponent is eps1 (sqrt(1 - u) + u/4) with u = eps1/(ln(T/delta) + eps1) in (0, 1) (the identity is
    checked at 50 digits on hypothesis examples below: evidence); the bound sqrt(1 - u) + u/4 <= 1 holds for EVERY
    u in [0, 1]: 1 - sqrt(1-u) = u/(1 + sqrt(1-u)) >= u/2 (branch and bound proves
    1/(1 + sqrt(1 - u)) - 1/4 > 0 on [0, 1])."""
    certificate.add(prove(lambda x: 1 / (1 + (1 - x).nonnegative_part().sqrt()) - arb(1) / 4, [(0, 1)], claim="sqrt(1-u) + u/4 <= 1"))


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


@pytest.mark.rigorous(method="symbolic identity (every eps > 0) + branch and bound", points="every eps > 0 for the identity (symbolic); tanh(eps/2) <= 2 eps on [1/1000, 50], the tails argued in words")
@pytest.mark.claim("online:Lemma 2")
def test_lemma_2_tight_for_randomized_response(certificate):
    """KL of randomized response = eps tanh(eps/2) for every eps > 0 (sympy), and eps tanh(eps/2) <= 2 eps^2 for
    every eps > 0, i.e. tanh(eps/2) <= 2 eps: the verifier proves it on [1/1000, 50]; beyond, tanh <= 1 < 100; below,
    tanh(x) <= x (tanh' = sech^2 <= 1) gives tanh(eps/2) <= eps/2."""
    e = sp.symbols("epsilon", positive=True)
    a = sp.exp(e) / (1 + sp.exp(e))
    kl_rr = a * sp.log(a / (1 - a)) + (1 - a) * sp.log((1 - a) / a)
    assert sp.simplify(sp.expand_log(sp.simplify(kl_rr - e * sp.tanh(e / 2)), force=True).rewrite(sp.exp)) == 0
    certificate.add(prove(lambda x: 2 * x - (x / 2).tanh(), [("0.001", 50)], claim="tanh(e/2) < 2e"))
    for eps in ("0.01", "1", "5"):
        with ctx.workprec(256):
            eb = arb(eps)
            ab = eb.exp() / (1 + eb.exp())
            klb = ab * (ab / (1 - ab)).log() + (1 - ab) * ((1 - ab) / ab).log()
            assert abs(klb - eb * (eb / 2).tanh()) < arb("1e-30")


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
