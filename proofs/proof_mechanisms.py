"""High-precision checks of the mechanisms' constants and of the identities behind their accounting.

Every hard-coded reference value carries, beside it, the mpmath expression and the
working precision that produced it. Integrals are evaluated by ``mpmath.quad`` at 50
digits, split at the kinks of the integrands.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import sympy as sp

from fractions import Fraction

from flint import acb, arb, ctx

from reference.privacy.mechanisms import exponential_mechanism_probabilities, truncated_geometric_pmf
from reference.privacy.tree import tree_sensitivity

from verifier import prove, prove_halfline, xlogx

DPS = 50


@pytest.mark.rigorous(method="ball arithmetic at the named points", points="the listed scores")
@pytest.mark.claim("core:Exponential mechanism probabilities")
@pytest.mark.parametrize("scores,sensitivity,epsilon,expected", [
    # Z = 1 + exp(1/2) + e;  [1/Z, exp(1/2)/Z, e/Z]                         (mpmath, mp.dps = 50)
    ([0.0, 1.0, 2.0], 1.0, 1.0, [0.1863237232258475770238007, 0.3071958857184983970731571,
                                 0.5064803910556540259030421]),
    # Z = sum_i exp(i/1000), i = 0..2;  exp(i/1000)/Z; the offset 1e15 cancels  (mpmath, mp.dps = 50)
    ([1e15, 1e15 + 1, 1e15 + 2], 1.0, 2e-3, [0.3330000556110972101884286, 0.3333332222222499999935185,
                                             0.3336667221666527898180528]),
])
def test_exponential_mechanism_reference_values(scores, sensitivity, epsilon, expected, certificate):
    got = exponential_mechanism_probabilities(scores, sensitivity, epsilon)
    with ctx.workprec(256):
        c = arb(epsilon) / (2 * arb(sensitivity))
        top = max(scores)
        w = [(c * (arb(v) - arb(top))).exp() for v in scores]       # the floats exactly; shifted (same law)
        Z = sum(w, arb(0))
        for wi, g, e in zip(w, got, expected):
            pb = wi / Z
            assert abs(arb(g) - pb) <= pb * arb("2e-15") and abs(arb(e) - pb) <= pb * arb("2e-15")
    certificate.point(len(scores))
    np.testing.assert_allclose(got, expected, rtol=2e-15, atol=0)
    # the monotone form at epsilon/2 is the same law
    np.testing.assert_allclose(exponential_mechanism_probabilities(scores, sensitivity, epsilon / 2, monotone=True),
                               expected, rtol=2e-15, atol=0)


@pytest.mark.rigorous(method="symbolic (sympy): change of variables u = e^(-x/b) and a Laplace-transform integral",
                      domain="every number of candidates, every score vector, every b > 0 (max and min)")
@pytest.mark.claim("core:Gumbel report-noisy-max is the exponential mechanism")
def test_gumbel_max_is_the_softmax_for_every_scores_and_b(certificate):
    """P(argmax_j (s_j + G_j) = i) = int g_b(x - s_i) prod_{j != i} G_b(x - s_j) dx, g_b(y) = (1/b) e^(-y/b) G_b(y),
    G_b(y) = exp(-e^(-y/b)). With a_j = e^(s_j/b) and R = sum_{j != i} a_j (any number of other candidates:
    prod_j exp(-u a_j) = exp(-u R)), the integrand is (1/b) u a_i exp(-u (a_i + R)) at u = e^(-x/b), and
    du = -(u/b) dx maps x in (-inf, inf) onto u in (inf, 0): the probability is a_i int_0^inf exp(-u (a_i + R)) du
    = a_i / (a_i + R), the softmax exp(s_i/b)/sum_j exp(s_j/b) (sympy, every s_i, R, b). report_noisy_min is the
    same on the scores -s."""
    x, si = sp.symbols("x s_i", real=True)
    b, R, u = sp.symbols("b R u", positive=True)
    G = lambda y: sp.exp(-sp.exp(-y / b))                      # noqa: E731
    g = lambda y: sp.exp(-y / b) * G(y) / b                     # noqa: E731
    assert sp.simplify(sp.diff(G(x), x) - g(x)) == 0            # g_b is the density of G_b
    ai = sp.exp(si / b)
    U = sp.exp(-x / b)
    integrand = g(x - si) * sp.exp(-U * R)                      # prod_{j != i} G_b(x - s_j) = exp(-U R)
    assert sp.simplify(integrand - U * ai * sp.exp(-U * (ai + R)) / b) == 0
    assert sp.simplify(sp.diff(U, x) + U / b) == 0              # du = -(u/b) dx
    assert sp.limit(U, x, -sp.oo) == sp.oo and sp.limit(U, x, sp.oo) == 0
    a = sp.symbols("a", positive=True)                          # a_i = e^(s_i/b) > 0
    assert sp.simplify(sp.integrate(a * sp.exp(-u * (a + R)), (u, 0, sp.oo)) - a / (a + R)) == 0
    certificate.point(6)


@pytest.mark.evidence("two points, uncertified mpmath quadrature")
@pytest.mark.claim("core:Gumbel report-noisy-max is the exponential mechanism")
@pytest.mark.parametrize("scores,b", [([0.0, 1.0, 2.0], 1.0), ([0.3, -1.2, 0.0, 2.5], 0.7)])
def test_gumbel_max_selection_probabilities_are_the_softmax(scores, b):
    """P(argmax_i (s_i + G_i) = i) = int g_b(x - s_i) prod_{j != i} G_b(x - s_j) dx (Gumbel(b) density g_b,
    cdf G_b(y) = exp(-exp(-y/b))), evaluated by mpmath.quad at 50 digits, equals exp(s_i/b)/sum_j exp(s_j/b),
    which is the package's exponential mechanism at epsilon = 2*Delta/b for any Delta."""
    with mpmath.workdps(DPS):
        s = [mpmath.mpf(v) for v in scores]
        B = mpmath.mpf(b)

        def cdf(y):
            return mpmath.exp(-mpmath.exp(-y / B))

        def pdf(y):
            return mpmath.exp(-y / B - mpmath.exp(-y / B)) / B

        probs = []
        for i in range(len(s)):
            def f(x, i=i):
                val = pdf(x - s[i])
                for j in range(len(s)):
                    if j != i:
                        val *= cdf(x - s[j])
                return val
            # Finite range: below min(s) - 8b every Gumbel cdf factor is < exp(-e^8); above max(s) + 130b the
            # density is < e^-130. (Infinite ranges make mpmath evaluate exp(-e^(1e30)): far too slow.)
            lo, hi = min(s) - 8 * B, max(s) + 130 * B
            points = [lo, min(s), max(s) + 2 * B, max(s) + 10 * B, max(s) + 30 * B, max(s) + 70 * B, hi]
            probs.append(mpmath.quad(f, points))
        softmax = [mpmath.exp(v / B) / mpmath.fsum(mpmath.exp(u / B) for u in s) for v in s]
        for p, q in zip(probs, softmax):
            assert abs(p - q) < mpmath.mpf(10) ** -40
    for delta in (0.25, 1.0, 4.0):
        ours = exponential_mechanism_probabilities(scores, delta, 2 * delta / b)
        np.testing.assert_allclose(ours, [float(q) for q in softmax], rtol=1e-14)


@pytest.mark.rigorous(method="symbolic identity + branch and bound over the half-line r >= 0 (r = s/(1 - s))",
                      domain="every r > 0")
@pytest.mark.claim("core:Laplace report-noisy-max privacy")
def test_laplace_noisy_max_loss_is_between_r_and_2r_for_every_r(certificate):
    """r < 2r - log(1 + r) < 2r for EVERY r > 0, i.e. 0 < log(1 + r) < r. The first: log is increasing, log 1 = 0.
    The second: r - log(1 + r) = (r^2 / 2) h(r) with h(r) = 2F1(1, 2; 3; -r) (sympy checks the identity for every
    r > 0), so it holds iff h > 0, which the verifier proves for every r >= 0 (r = 0, where the difference
    vanishes to second order, included) over the half-line: r = s/(1 - s), s in [0, 1 - 2^-40] by boxes, and
    the end (r = inf included) by r h(r) = 2 (1 - log(1 + r)/r) = 2 (1 + t log t / (1 - t)), t = 1 - s = 1/(1 + r)
    (xlogx gives t log t its limit 0). And (2r - log(1+r))/(2r) -> 1: at r = 1e6 it is > 0.99999."""
    r_ = sp.symbols("r", positive=True)
    assert sp.simplify(r_ ** 2 / 2 * sp.hyperexpand(sp.hyper([1, 2], [3], -r_)) - (r_ - sp.log(1 + r_))) == 0
    h = lambda r: (-r).hypgeom_2f1(1, 2, 3)                             # noqa: E731
    end = lambda t: 2 * (1 + xlogx(t) / (1 - t))                        # noqa: E731
    certificate.add(prove_halfline(h, 0, at_infinity=end, claim="2F1(1, 2; 3; -r) > 0 for r >= 0"))
    with ctx.workprec(128):
        R = arb(10) ** 6
        assert (2 * R - (1 + R).log()) / (2 * R) > arb("0.99999")
        for r in ("0.001", "1", "1000"):                                  # h is the closed form at points
            rb = arb(r)
            assert abs(h(rb) * rb * rb / 2 - (rb - rb.log1p())) < arb("1e-30")
    certificate.point(4)


@pytest.mark.rigorous(method="certified integral (Arb) at the named r", points="the listed r")
@pytest.mark.claim("core:Laplace report-noisy-max privacy")
@pytest.mark.parametrize("r", [0.01, 0.1, 0.5, 1.0, 2.0, 8.0])
def test_laplace_noisy_max_worst_pair_loss_lies_strictly_between_r_and_2r(r, certificate):
    """Two candidates, b = 1, scores (0, 0) -> (r, -r) (Delta = r, not monotone). Candidate 1 keeps
    probability 1/2 -> P(Z1 - Z0 > 2r) = e^{-2r}(1 + r)/2 (closed form of the Laplace difference law),
    so the loss is 2r - log(1 + r): above the monotone bound r for every r > 0, below the general bound 2r,
    and (2r - log(1+r)) / (2r) -> 1: the factor 2 of the general bound cannot be improved.
    The probability is also evaluated as int f(z) P(Z > z + 2r) dz by mpmath.quad at 50 digits."""
    with mpmath.workdps(DPS):
        R = mpmath.mpf(r)

        def pdf(z):
            return mpmath.exp(-abs(z)) / 2

        def survival(y):
            return mpmath.exp(-y) / 2 if y >= 0 else 1 - mpmath.exp(y) / 2

        quad = mpmath.quad(lambda z: pdf(z) * survival(z + 2 * R), [-mpmath.inf, -2 * R, 0, mpmath.inf])
        closed = mpmath.exp(-2 * R) * (1 + R) / 2
        assert abs(quad - closed) < mpmath.mpf(10) ** -40
        loss = mpmath.log(mpmath.mpf(1) / 2 / closed)
        assert abs(loss - (2 * R - mpmath.log(1 + R))) < mpmath.mpf(10) ** -40
        assert R < loss < 2 * R
    with ctx.workprec(256):
        Rb = arb(r)
        # P(Z1 - Z0 > 2r) = int f(z) S(z + 2r) dz, split at -2r and 0 and cut at +-80 (the rest < e^-80)
        half = arb(1) / 2
        pieces = [(-80, -2 * Rb, lambda z: (z.exp() / 2) * (1 - (z + 2 * Rb).exp() / 2)),
                  (-2 * Rb, 0, lambda z: (z.exp() / 2) * ((-(z + 2 * Rb)).exp() / 2)),
                  (0, 80, lambda z: ((-z).exp() / 2) * ((-(z + 2 * Rb)).exp() / 2))]
        q = sum((acb.integral(lambda z, _, f=f: f(z), a, b).real for a, b, f in pieces), arb(0))
        q += arb(0).union(2 * (-arb(80)).exp())        # the two cut tails, each in [0, e^-80]
        closed = (-2 * Rb).exp() * (1 + Rb) / 2
        assert abs(q - closed) < arb("1e-30")
        loss = (half / closed).log()
        assert abs(loss - (2 * Rb - (1 + Rb).log())) < arb("1e-40")
        assert Rb < loss < 2 * Rb
    certificate.point(3)
    if r == 1.0:
        # 2 - log(2) = 1.30685281944005469058276787854   (mpmath: 2 - mpmath.log(2), mp.dps = 50)
        assert float(loss) == pytest.approx(1.30685281944005469058276787854, rel=1e-15)


@pytest.mark.rigorous(method="exact rationals at the named M", points="the listed M")
@pytest.mark.claim("core:Truncated geometric law")
@pytest.mark.parametrize("M,C", [
    (0, 1.0),                              # 1/(2(1 - 2^-1))            (mpmath, mp.dps = 50)
    (1, 0.6666666666666666666666667),      # 1/(2(1 - 2^-2)) = 2/3      (mpmath, mp.dps = 50)
    (10, 0.5002442598925256472887152),     # 1/(2(1 - 2^-11))           (mpmath, mp.dps = 50)
    (60, 0.5000000000000000002168404),     # 1/(2(1 - 2^-61))           (mpmath, mp.dps = 50)
])
def test_truncated_geometric_normalising_constant(M, C, certificate):
    exact = 1 / (2 * (1 - Fraction(1, 2 ** (M + 1))))
    assert abs(Fraction(C) - exact) <= exact * Fraction(1, 2**52)        # the table (a double), against the exact constant
    assert abs(Fraction(float(truncated_geometric_pmf(M)[0])) - exact) <= exact * Fraction(1, 10**15)
    certificate.point()
    p = truncated_geometric_pmf(M)
    assert p[0] == pytest.approx(C, rel=1e-15)
    np.testing.assert_allclose(p[1:] / p[:-1], 0.5, rtol=0, atol=0)     # exact halving, atom to atom


@pytest.mark.rigorous(method="symbolic summation (sympy), every M", domain="every M >= 0 (the law's identities; the sampler's "
                                                                            "frequencies are tests/' chi-square)")
@pytest.mark.claim("core:Truncated geometric law")
def test_truncated_geometric_identities_for_every_M(certificate):
    """For every M >= 0, with p_k = C_M 2^-k on {0..M}, C_M = 1/(2(1 - 2^-(M+1))): sum p_k = 1, E[1/p_N] = M + 1 and
    E[2^N] = C_M (M + 1) (sympy sums over a symbolic M)."""
    k, M = sp.symbols("k M", nonnegative=True, integer=True)
    CM = 1 / (2 * (1 - sp.Integer(2) ** (-(M + 1))))
    pk = CM * sp.Integer(2) ** (-k)
    assert sp.simplify(sp.summation(pk, (k, 0, M)) - 1) == 0
    assert sp.simplify(sp.summation(pk * (1 / pk), (k, 0, M)) - (M + 1)) == 0
    assert sp.simplify(sp.summation(pk * sp.Integer(2) ** k, (k, 0, M)) - CM * (M + 1)) == 0
    certificate.point(3)


@pytest.mark.rigorous(method="symbolic (sympy): floor facts per level, the count of levels, the l2 norm",
                      domain="every T >= 1, every item t <= T (the dyadic nodes; that the package's tree populates exactly "
                             "these: tests/)")
@pytest.mark.claim("core:Tree sensitivity")
def test_tree_sensitivity_for_every_T(certificate):
    """Node (h, j) covers j 2^h + 1 .. (j + 1) 2^h and is populated once (j + 1) 2^h <= T. Item t lies in exactly one
    node per level h: j = floor((t - 1)/2^h) (floor(y) <= y < floor(y) + 1 at y = (t - 1)/2^h gives
    j 2^h + 1 <= t <= (j + 1) 2^h; any other j' misses t). A populated node has 2^h <= (j + 1) 2^h <= T, i.e.
    h <= log2 T, i.e. h <= floor(log2 T) (h an integer): at most floor(log2 T) + 1 populated nodes contain t, exactly
    that many for t = 1 (j = 0, node [1, 2^h] populated iff 2^h <= T). Each contains the item once, so its sum moves
    by the item's change Delta, and the node vector by sqrt(sum ||Delta||^2) = sqrt(floor(log2 T) + 1) ||Delta||."""
    y = sp.symbols("y", real=True)
    assert bool(sp.floor(y) <= y) and bool(sp.frac(y) < 1) and bool(sp.frac(y) >= 0)   # y = floor(y) + frac(y)
    assert (sp.floor(y) + sp.frac(y)).rewrite(sp.floor) == y or sp.simplify(sp.frac(y).rewrite(sp.floor) - (y - sp.floor(y))) == 0
    t, h, j = sp.symbols("t h j", integer=True, nonnegative=True)
    two_h = sp.Integer(2) ** h
    # from j <= (t - 1)/2^h < j + 1 (multiply by 2^h > 0): j 2^h + 1 <= t and t - 1 < (j + 1) 2^h, i.e. t <= (j + 1) 2^h
    assert sp.simplify(((t - 1) / two_h) * two_h - (t - 1)) == 0 and two_h.is_positive
    # populated: (j + 1) 2^h <= T with j >= 0 forces 2^h <= T: (j + 1) 2^h - 2^h = j 2^h >= 0
    assert sp.simplify((j + 1) * two_h - two_h - j * two_h) == 0 and (j * two_h).is_nonnegative
    T = sp.symbols("T", integer=True, positive=True)
    hh = sp.symbols("hh", real=True)
    l = sp.symbols("l", nonnegative=True)                  # l = ln T; 2^h <= T iff h ln 2 <= l (ln increasing)
    assert sp.log(2).is_positive and sp.simplify((hh * sp.log(2) - l) / sp.log(2) - (hh - l / sp.log(2))) == 0
    # levels h = 0 .. floor(log2 T): floor(log2 T) + 1 of them; the l2 norm of that many copies of Delta
    c, D = sp.symbols("c D", positive=True)
    assert sp.simplify(sp.sqrt(c * D ** 2) - sp.sqrt(c) * D) == 0
    certificate.point(6)
    for T_ in (1, 2, 3, 1023, 1024, 10**6 + 7):          # floor(log2 T) + 1 is T.bit_length(), exactly
        assert T_.bit_length() == 1 + max(hv for hv in range(64) if 2 ** hv <= T_)
    certificate.point(6)


@pytest.mark.rigorous(method="ball arithmetic at the named points", points="the listed T")
@pytest.mark.claim("core:Tree sensitivity")
def test_tree_sensitivity_reference_values(certificate):
    assert abs(arb(tree_sensitivity(1024, 1.0)) - arb(11).sqrt()) <= arb(11).sqrt() * arb("1e-15")
    assert abs(arb(tree_sensitivity(1023, 2.0)) - 2 * arb(10).sqrt()) <= arb(10).sqrt() * arb("2e-15")
    certificate.point(2)
    # sqrt(11) = 3.316624790355399849114933   (mpmath: mpmath.sqrt(11), mp.dps = 50); floor(log2 1024) + 1 = 11
    assert tree_sensitivity(1024, 1.0) == pytest.approx(3.316624790355399849114933, rel=1e-15)
    assert tree_sensitivity(1023, 2.0) == pytest.approx(2 * math.sqrt(10), rel=1e-15)
    assert tree_sensitivity(1, 3.0) == 3.0
