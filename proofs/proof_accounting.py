"""High-precision (mpmath, 50 digits) checks of the accountant's constants and inequalities.

Each hard-coded reference value carries, beside it, the mpmath expression and the
working precision that produced it (scipy.special test style). Helpers below are
written from the papers' formulas, independently of reference/privacy/accounting.py.
"""

from __future__ import annotations

import warnings

import math
from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from flint import acb, arb, ctx

from reference.errors import PrivacyWarning
from reference.privacy import accounting as acc
from verifier import ball, bracket_root, integral, ncdf, piecewise, prove, within

DPS = 50


def profile(e, mu):
    """Balle-Wang 2018 Thm 8, mpmath: Phi(mu/2 - e/mu) - e^e Phi(-mu/2 - e/mu)."""
    return mpmath.ncdf(mu / 2 - e / mu) - mpmath.exp(e) * mpmath.ncdf(-mu / 2 - e / mu)


def classic_mu(e, d):
    """mu = Delta / sigma for the classic calibration sigma = sqrt(2 ln(1.25/d)) Delta / e."""
    return e / mpmath.sqrt(2 * mpmath.log(mpmath.mpf("1.25") / d))


@pytest.fixture(autouse=True)
def _precision():
    with mpmath.workdps(DPS), ctx.workprec(256):      # 256 bits = 77 digits for the point checks
        yield


def profile_b(e, mu):
    """The same profile on Arb balls (certified enclosure)."""
    return ncdf(mu / 2 - e / mu) - e.exp() * ncdf(-mu / 2 - e / mu)


def classic_gap(d: str):
    """eps -> delta - profile(eps, classic mu), on balls. With K = sqrt(2 ln(1.25/delta)), mu = eps/K and
    eps/mu = K exactly, so the form is defined (and equal to delta) at eps = 0."""
    def f(e):
        dd = arb(d)
        K = (2 * (arb("1.25") / dd).log()).sqrt()
        mu = e / K
        return dd - (ncdf(mu / 2 - K) - e.exp() * ncdf(-mu / 2 - K))
    return f


# ---------------------------------------------------------------------------
# The classic Gaussian calibration (Dwork-Roth Thm 3.22).

CLASSIC_POINTS = [
    # (eps, delta, exact delta of the classic sigma)
    # profile(mpf(1), classic_mu(mpf(1), mpf('1e-5'))), mp.dps = 50
    ("1", "1e-5", "4.1136919538184914192181037313630751810858731288329e-8"),
    # profile(mpf('0.5'), classic_mu(mpf('0.5'), mpf('1e-5'))), mp.dps = 50
    ("0.5", "1e-5", "1.6078539930874292162918024331731368287161502227325e-8"),
    # profile(mpf('0.1'), classic_mu(mpf('0.1'), mpf('1e-5'))), mp.dps = 50
    ("0.1", "1e-5", "2.6359406003174346397149122685831470343809450065049e-9"),
]


@pytest.mark.rigorous(method="ball arithmetic at the named points", points="(eps, delta) in CLASSIC_POINTS")
@pytest.mark.claim("core:Gaussian classic calibration")
@pytest.mark.parametrize("e, d, ref", CLASSIC_POINTS)
def test_classic_calibration_reference_points(e, d, ref, certificate):
    eb, db = arb(e), arb(d)
    got_b = profile_b(eb, eb / (2 * (arb("1.25") / db).log()).sqrt())
    assert within(got_b, ref, "1e-45") and arb(ref) < db
    certificate.point(2)
    e, d, ref = mpmath.mpf(e), mpmath.mpf(d), mpmath.mpf(ref)
    sigma = acc.classic_gaussian_sigma(float(e), float(d), 1.0)
    got = acc.gaussian_delta(float(e), 1.0 / sigma)
    assert got == pytest.approx(float(ref), rel=1e-12)


@pytest.mark.rigorous(method="branch and bound over (eps, ln 1/delta), the tail delta < 1e-20 by an exact rewrite + "
                             "A&S 7.1.13 + monotonicity", domain="every eps in [0, 1] and delta in (0, 1)")
@pytest.mark.claim("core:Gaussian classic calibration")
def test_classic_calibration_holds_for_every_eps_at_most_one(certificate):
    """For EVERY eps in [0, 1] and EVERY delta in (0, 1) the exact profile of the classic sigma is <= delta
    (t = ln(1/delta) in (0, inf)):

    * t in [0, 2.3] (delta >= 0.1): profile < delta, branch and bound;
    * t in [2.3, 46.06] (delta in [1e-20, 0.1], a superset): profile < delta / 20 (far from tight: the classic
      sigma over-pays at eps <= 1), branch and bound; the margin 1/20 is not slack chosen to pass: 1/50 is refuted;
    * t >= 46.06: with K = sqrt(2 (ln 1.25 + t)), mu = eps/K, a = K - mu/2, b = K + mu/2, the exact rewrite
      e^t profile = e^{eps/2 - mu^2/8} / 2.5 (erfcx(a/sqrt2) - erfcx(b/sqrt2)) (the exponents t - a^2/2 and
      t + eps - b^2/2 both equal eps/2 - mu^2/8 - ln 1.25: sympy); erfcx > 0, and erfcx(x) < 1/(x sqrt(pi)) for
      x > 0 (Abramowitz-Stegun 7.1.13), so e^t profile < e^{1/2} sqrt(2/pi) / (2.5 (K - 1/(2K))), which decreases
      in K: its value at t = 46.06 (one certified evaluation) is < 1/10."""
    def ratio(e, t):
        K = (2 * (arb("1.25").log() + t)).sqrt()
        mu = e / K
        return (ncdf(mu / 2 - K) - e.exp() * ncdf(-mu / 2 - K)) * t.exp()
    certificate.add(prove(lambda e, t: 1 - ratio(e, t), [(0, 1), (0, "2.3")], claim="classic profile < delta, delta >= 0.1"))
    certificate.add(prove(lambda e, t: 1 - 20 * ratio(e, t), [(0, 1), ("2.3", "46.06")],
                          claim="classic profile < delta/20, eps <= 1"))
    certificate.add(prove(lambda e, t: 1 - 50 * ratio(e, t), [(0, 1), ("2.3", "46.06")]), expect="refuted")
    # the tail t >= 46.06: the exponent identity, for every eps, t > 0 (sympy) ...
    e_, t_ = sp.symbols("epsilon t", positive=True)
    K_ = sp.sqrt(2 * (sp.log(sp.Rational(5, 4)) + t_))
    mu_ = e_ / K_
    a_, b_ = K_ - mu_ / 2, K_ + mu_ / 2
    for expo in (t_ - a_ ** 2 / 2, t_ + e_ - b_ ** 2 / 2):
        assert sp.simplify(sp.expand(expo - (e_ / 2 - mu_ ** 2 / 8 - sp.log(sp.Rational(5, 4))))) == 0
    # ... the rewrite at two points (certified), and the bound at t = 46.06, where K - 1/(2K) is smallest
    with ctx.workprec(256):
        for e, t in (("1", "50"), ("0.3", "100")):
            eb, tb = arb(e), arb(t)
            K = (2 * (arb("1.25").log() + tb)).sqrt()
            mu = eb / K
            erfcx = lambda x: x.erfc() * (x * x).exp()                   # noqa: E731
            rw = (eb / 2 - mu * mu / 8).exp() / arb("2.5") * (erfcx((K - mu / 2) / arb(2).sqrt())
                                                               - erfcx((K + mu / 2) / arb(2).sqrt()))
            assert abs(rw - ratio(eb, tb)) < arb("1e-30") * rw
        K0 = (2 * (arb("1.25").log() + arb("46.06"))).sqrt()
        assert arb("0.5").exp() * (2 / arb.pi()).sqrt() / (arb("2.5") * (K0 - 1 / (2 * K0))) < arb("0.1")
    certificate.point(5)


# Largest eps at which the classic calibration still gives (eps, 1e-5)-DP:
# findroot(lambda e: profile(e, classic_mu(e, mpf('1e-5'))) - mpf('1e-5'), (8, 9), solver='anderson'),
# mp.dps = 50
CLASSIC_FAILURE_EPS_1E5 = "8.4197713015363407378154365690582214340266792664458"


# The deltas the package and its tests use the classic calibration at, with the largest eps at which it
# still gives (eps, delta)-DP (mpmath findroot at 50 digits, for comparison with the certified bracket).
CLASSIC_DELTAS = ["1e-3", "1e-5", "1e-8", "1e-12"]


@pytest.mark.rigorous(method="certified bracket + branch and bound on both sides",
                      domain="delta = 1e-5 (the statement's; and three more deltas), every eps in [0, 30] (the statement's narrowed domain)")
@pytest.mark.claim("core:Gaussian classic calibration fails above 1")
@pytest.mark.parametrize("d", CLASSIC_DELTAS)
def test_classic_calibration_failure_threshold(d, certificate):
    """eps*(delta) bracketed to 1e-12 by certified signs; the calibration is (eps, delta)-DP for EVERY eps in
    [0, a] and fails for EVERY eps in [b, 30] (b - a <= 1e-12): a certificate of boxes on each side."""
    g = classic_gap(d)
    br = bracket_root(g, 1, 30, tol=1e-12)
    assert br.width <= 1e-12
    certificate.add(prove(g, [(0, br.a)], claim=f"classic DP on [0, eps*] at delta {d}", max_depth=64))
    certificate.add(prove(lambda e: -g(e), [(br.b, 30)], claim=f"classic fails on [eps*, 30] at delta {d}",
                          max_depth=64))
    if d == "1e-5":
        # the 8.41977130153634 and the 50-digit findroot value lie in the bracket
        assert float(br.a) <= 8.41977130153634 + 5e-15 and 8.41977130153634 - 5e-15 <= float(br.b)
        assert Fraction(int(br.a.p), int(br.a.q)) < Fraction(CLASSIC_FAILURE_EPS_1E5) < Fraction(int(br.b.p), int(br.b.q))


@pytest.mark.rigorous(method="branch and bound: witness", points="delta = 1e-5, eps in [0, 8.43]")
@pytest.mark.claim("core:Gaussian classic calibration fails above 1")
def test_classic_calibration_up_to_eps_8_43_is_refused_with_a_witness(certificate):
    """The deliberately false statement 'the classic calibration is (eps, 1e-5)-DP for every eps in (0, 8.43]'
    is refused: the verifier returns a witness eps in (eps*, 8.43] whose certified profile exceeds 1e-5."""
    g = classic_gap("1e-5")
    cert = certificate.add(prove(g, [(0, "8.43")], claim="classic DP up to 8.43 (false)"), expect="refuted")
    w = cert.witness_exact[0]
    assert Fraction(CLASSIC_FAILURE_EPS_1E5) < Fraction(int(w.p), int(w.q)) <= Fraction("8.43")
    assert g(ball(w)) < 0                                       # profile(w) > 1e-5, certified
    # while the true statement, up to 8.4197, is proved
    certificate.add(prove(g, [(0, "8.4197")], claim="classic DP up to 8.4197", max_depth=64))


# Largest eps at which the classic calibration still gives (eps, 1e-5)-DP, to 50 digits (see the bracket above).
@pytest.mark.rigorous(method="ball arithmetic at the named points", points="the 50-digit root at delta = 1e-5")
@pytest.mark.claim("core:Gaussian classic calibration fails above 1")
def test_classic_calibration_failure_threshold_at_delta_1e5(certificate):
    d = mpmath.mpf("1e-5")
    root = mpmath.mpf(CLASSIC_FAILURE_EPS_1E5)
    # the 50-digit root: |profile(root) - delta| < 1e-45, certified
    assert abs(classic_gap("1e-5")(arb(CLASSIC_FAILURE_EPS_1E5))) < arb("1e-45")
    certificate.point()
    # the package's float functions see the same boundary
    # and classic_gaussian_sigma warns (PrivacyWarning, core-A01) exactly where it fails
    for e, fails in ((float(root) * (1 - 1e-9), False), (float(root) * (1 + 1e-9), True), (9.0, True)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            sigma = acc.classic_gaussian_sigma(e, 1e-5, 1.0)
        assert (acc.gaussian_delta(e, 1.0 / sigma) > 1e-5) == fails
        assert any(issubclass(w.category, PrivacyWarning) for w in caught) == fails
    assert d == mpmath.mpf("1e-5")


# ---------------------------------------------------------------------------
# Advanced composition against the exact optimal composition (KOV15 Thm 3.3).

def kov_hom_b(e0, k, ep):
    """KOV15 Thm 3.3's delta of the k-fold eps0-DP composition at ep, on balls (exact binomials).

    The term i is C(k, i) max(0, e^{(k-i) eps0} - e^{ep + i eps0}); the difference falls with i, so once it is
    negative every later term is 0 too. That stop is the verifier's case split (piecewise): where the
    difference is certainly negative the sum of the terms from i on is 0, where it is certainly >= 0 the term is
    added to the rest, and where its sign is undecided the value is the union of both."""
    zero = arb(0)
    diffs = [((k - i) * e0).exp() - (ep + i * e0).exp() for i in range(k + 1)]
    total = zero                                   # sum of the terms i..k, folded from the last one
    for i in reversed(range(k + 1)):
        total = piecewise(diffs[i], zero, lambda i=i, rest=total: math.comb(k, i) * diffs[i].max(zero) + rest)
    return total / (1 + e0.exp()) ** k


def kov_hom(e0, k, ep):
    s = mpmath.fsum(mpmath.binomial(k, i) * max(0, mpmath.exp((k - i) * e0) - mpmath.exp(ep + i * e0))
                    for i in range(k + 1))
    return s / (1 + mpmath.exp(e0)) ** k


KOV_POINTS = [
    # (eps0, k, delta_total, KOV optimum, advanced composition)
    # optimum: 200 bisection steps on [0, k eps0] of kov_hom(eps0, k, x) <= delta_total, mp.dps = 50
    # advanced: sqrt(2 k log(1/delta_total)) eps0 + k eps0 expm1(eps0), mp.dps = 50
    ("0.1", 10, "1e-5", "0.99369117675933586216395180805754642246290009646579",
     "1.6225980474607939756746802200401251256181284567811"),
    ("0.1", 100, "1e-5", "4.306791372516506787102784849858604908947876439079",
     "5.850235092944557455684447133807268209899849212521"),
    ("0.01", 1000, "1e-6", "1.3654467099937559603308268019649227769215897238059",
     "1.7627598071107905004607489765252137395137961884154"),
    ("1", 20, "1e-3", "19.253526900694554922907506342556064030342630644988",
     "50.988217931872003957596693502019383969546683605724"),
]


@pytest.mark.rigorous(method="ball arithmetic at the named points", points="(eps0, k, delta) in KOV_POINTS")
@pytest.mark.claim("core:optimal composition")
@pytest.mark.claim("core:advanced composition")
@pytest.mark.parametrize("e0, k, dt, opt, adv", KOV_POINTS)
def test_advanced_against_exact_optimal_composition(e0, k, dt, opt, adv, certificate):
    e0m, dtm, optm = mpmath.mpf(e0), mpmath.mpf(dt), mpmath.mpf(opt)
    # the reference optimum meets the profile, and is the smallest (at 1e-40), certified
    e0b, dtb, optb = arb(e0), arb(dt), arb(opt)
    assert kov_hom_b(e0b, k, optb) <= dtb * (1 + arb("1e-40"))
    assert kov_hom_b(e0b, k, optb * (1 - arb("1e-40"))) > dtb
    advb = (2 * k * (1 / dtb).log()).sqrt() * e0b + k * e0b * e0b.expm1()
    assert within(advb, adv, "1e-45") and advb > optb
    certificate.point(4)
    got_opt = acc.optimal_homogeneous_composition(float(e0m), 0.0, k, float(dtm))
    got_adv, _ = acc.advanced_composition(float(e0m), 0.0, k, float(dtm))
    assert got_opt == pytest.approx(float(optm), rel=1e-14) and got_opt >= float(optm) * (1 - 1e-16)
    assert got_adv == pytest.approx(float(mpmath.mpf(adv)), rel=1e-14)
    assert mpmath.mpf(adv) > optm


@pytest.mark.rigorous(method="symbolic (sympy): KOV's sum as an expectation, the mean of the loss; Hoeffding's inequality "
                              "(Hoeffding 1963, Theorem 2); Bernoulli's inequality by induction",
                      domain="every k >= 1, eps > 0, delta in [0, 1], delta' in (0, 1)")
@pytest.mark.claim("core:advanced composition")
def test_advanced_never_below_optimal_for_every_k(certificate):
    """DRV's (eps_A, k delta + delta'), eps_A = sqrt(2k ln(1/delta')) eps + k eps (e^eps - 1), is never tighter than KOV's
    optimum, for EVERY k: KOV's profile at eps_A is <= k delta + delta', so the optimum (the smallest eps' whose
    profile is <= k delta + delta') is <= eps_A.

    1. KOV's pure term C(k,i)(e^((k-i)eps) - e^(eps' + i eps))/(1 + e^eps)^k = C(k,i) p^(k-i) (1-p)^i (1 - e^(eps' - L_i)),
       p = e^eps/(1 + e^eps), L_i = (k - 2i) eps (sympy, symbolic k, i): the pure profile is E[(1 - e^(eps' - L))_+]
       with L = sum of k independent +-eps steps (+eps with probability p), <= P(L > eps').
    2. E L = k eps (2p - 1) = k eps tanh(eps/2) (sympy), and e^eps - 1 - tanh(eps/2) = (e^eps - 1) e^eps/(1 + e^eps) > 0
       (sympy; u = e^eps - 1 > 0), so eps_A - E L >= t = sqrt(2k ln(1/delta')) eps.
    3. Hoeffding (steps in an interval of length 2 eps): P(L - E L >= t) <= exp(-2 t^2/(k (2 eps)^2)) = delta' (sympy).
    4. With delta > 0 each mechanism: KOV's profile is 1 - (1-delta)^k (1 - x), x the pure profile <= delta', and
       1 - (1-delta)^k (1-x) <= k delta + x: 1 - w^k = (1 - w) sum_{j<k} w^j <= k (1 - w) for w = 1 - delta in [0, 1]
       (w^j <= 1 by induction: w^j - w^(j+1) = w^j (1 - w) >= 0), and (1-delta)^k x <= x."""
    k, i = sp.symbols("k i", integer=True, nonnegative=True)
    e, ep = sp.symbols("epsilon epsilon_p", positive=True)
    p = sp.exp(e) / (1 + sp.exp(e))
    kov_term = (sp.exp((k - i) * e) - sp.exp(ep + i * e)) / (1 + sp.exp(e)) ** k
    expectation_term = p ** (k - i) * (1 - p) ** i * (1 - sp.exp(ep - (k - 2 * i) * e))
    assert sp.simplify(sp.powsimp(sp.expand_power_base(sp.expand(kov_term - expectation_term), force=True), force=True)) == 0
    assert sp.simplify((e * (2 * p - 1) - e * sp.tanh(e / 2)).rewrite(sp.exp)) == 0
    u = sp.symbols("u", positive=True)
    gap = (sp.exp(e) - 1 - sp.tanh(e / 2)).rewrite(sp.exp)
    assert sp.simplify(gap - (sp.exp(e) - 1) * sp.exp(e) / (1 + sp.exp(e))) == 0
    assert (u * (1 + u) / (2 + u)).is_positive                     # at u = e^eps - 1 > 0
    kk, L = sp.symbols("k_ L", positive=True)                        # L = ln(1/delta') > 0
    t = sp.sqrt(2 * kk * L) * e
    assert sp.simplify(sp.exp(-2 * t ** 2 / (kk * (2 * e) ** 2)) - sp.exp(-L)) == 0
    w, x, y = sp.symbols("w x y", nonnegative=True)                  # y = w^j >= 0, 1 - w >= 0 below
    onem = sp.symbols("one_minus_w", nonnegative=True)
    assert (y * onem).is_nonnegative                                 # w^j - w^(j+1) = w^j (1 - w)
    assert sp.simplify(sp.summation(w ** i, (i, 0, k - 1)) * (1 - w) - (1 - w ** k)).equals(0) or \
        sp.simplify(sp.factor(sp.summation(w ** i, (i, 0, k - 1)) * (1 - w)) - (1 - w ** k)) == 0
    certificate.point(7)


ADVANCED_KS = (1, 2, 3, 5, 8, 13, 30, 200)
ADVANCED_DELTAS = ("1e-3", "1e-8", "1e-15")


@pytest.mark.rigorous(method="branch and bound over eps0, every listed (k, delta)", points="eps0 in [0.001, 2] at the listed k and delta (the statement: every k, eps0, delta)")
@pytest.mark.claim("core:advanced composition")
def test_advanced_never_below_optimal_for_every_eps0(certificate):
    """DRV10's advanced composition is never below KOV15's optimal epsilon: for EVERY eps0 in [0.001, 2],
    k in ADVANCED_KS and delta in ADVANCED_DELTAS, the optimal profile at the advanced epsilon is <= delta
    (the optimum is the smallest eps with profile <= delta, and the profile decreases in eps).
    Certified on boxes of eps0; the package's optimum is then checked against it at the grid points."""
    for k in ADVANCED_KS:
        for dt in ADVANCED_DELTAS:
            def f(e0, k=k, dt=dt):
                adv = (2 * k * (1 / arb(dt)).log()).sqrt() * e0 + k * e0 * e0.expm1()
                return 1 - kov_hom_b(e0, k, adv) / arb(dt)
            certificate.add(prove(f, [("0.001", 2)], claim=f"adv >= opt, k = {k}, delta = {dt}", strict=True))
    for e0 in ("0.001", "0.1", "2"):
        for k in (2, 30):
            got_opt = acc.optimal_homogeneous_composition(float(e0), 0.0, k, 1e-8)
            assert kov_hom_b(arb(e0), k, ball(got_opt)) <= arb("1e-8")       # the package's optimum is feasible
            certificate.point()


# ---------------------------------------------------------------------------
# zCDP conversions (Bun-Steinke Prop 1.3; Canonne-Kamath-Steinke Prop 12 / Cor 13).

ZCDP_POINTS = [
    # (rho, delta, standard, tight, optimal order)
    # standard: rho + 2 sqrt(rho log(1/delta)); tight: g(a*) with
    # g(a) = a rho + log(1 - 1/a) + (log(1/delta) - log a)/(a - 1),
    # a* = findroot(lambda a: diff(g, a), 1 + sqrt(log(1/delta)/rho)); mp.dps = 50
    ("0.5", "1e-5", "5.2985259121880812075673688689048015276543772651458",
     "4.728386984943313899970548988479460080967592550461",
     "5.4318496702701024704386409747170928270698852615477"),
    ("0.01", "1e-10", "0.96970518243761624151347377378096030553087545302917",
     "0.86432118572417291574626663573774504437946086718087",
     "44.843663880856489767596891556062790787650681928508"),
    ("5", "1e-3", "16.753940002383998090657092021262878324559442908761",
     "15.458183166005558445728774316811181595346211928161",
     "2.1100490170211651568940308171151981695098920918028"),
]


@pytest.mark.rigorous(method="ball arithmetic at the named points", points="(rho, delta) in ZCDP_POINTS")
@pytest.mark.claim("core:zCDP to DP")
@pytest.mark.claim("core:zCDP to DP tight")
@pytest.mark.parametrize("rho, d, std, tight, alpha", ZCDP_POINTS)
def test_zcdp_conversions_reference_points(rho, d, std, tight, alpha, certificate):
    r, dm, a = mpmath.mpf(rho), mpmath.mpf(d), mpmath.mpf(alpha)
    # CKS20 Prop 12 in its delta form, at the order a and the tight epsilon, gives back delta (certified):
    # delta = exp((a-1)(a rho - eps)) / (a-1) * (1 - 1/a)^a
    rb, ab, eb, db = arb(rho), arb(alpha), arb(tight), arb(d)
    back = ((ab - 1) * (ab * rb - eb)).exp() / (ab - 1) * (1 - 1 / ab) ** ab
    assert within(back, d, "1e-40")
    assert within(rb + 2 * (rb * (1 / db).log()).sqrt(), std, "1e-45") and eb < arb(std)
    certificate.point(3)
    eps = mpmath.mpf(tight)
    got_std = acc.zcdp_to_dp(float(r), float(dm), "standard")
    got_tight = acc.zcdp_to_dp(float(r), float(dm), "tight")
    assert got_std == pytest.approx(float(mpmath.mpf(std)), rel=1e-15) and got_std >= float(mpmath.mpf(std))
    assert got_tight == pytest.approx(float(eps), rel=1e-12) and got_tight >= float(eps) * (1 - 1e-15)
    assert got_tight < got_std
    # inverses: the rho returned for these epsilons is the reference rho (to the search's accuracy)
    assert acc.zcdp_for_dp(float(mpmath.mpf(std)), float(dm), "standard") == pytest.approx(float(r), rel=1e-14)
    assert acc.zcdp_for_dp(float(eps), float(dm), "tight") == pytest.approx(float(r), rel=1e-9)


@pytest.mark.rigorous(method="symbolic (sympy), every rho > 0, L > 0", domain="every rho > 0 and delta in (0, 1) (L = ln 1/delta > 0)")
@pytest.mark.claim("core:zCDP to DP")
@pytest.mark.claim("core:zCDP to DP tight")
def test_standard_conversion_is_the_minimum_over_orders_of_the_rdp_bound(certificate):
    """BS16 Prop 1.3 is min over a > 1 of g(a) = a rho + L/(a-1), L = log(1/delta), attained at
    a - 1 = sqrt(L/rho): identities in rho, L > 0 (sympy), and g'' = 2L/(a-1)^3 > 0 (convex, so the
    stationary point is the minimum). And the tight conversion (CKS20 Prop 12) is below it for EVERY
    rho, delta: at that same order its bound is g(a) + log(1 - 1/a) - log(a)/(a - 1) < g(a) (both terms < 0
    for a > 1, sympy decides their signs from a = 1 + y, y > 0)."""
    r, L, y = sp.symbols("rho L y", positive=True)
    x = sp.symbols("x")
    g = x * r + L / (x - 1)
    a = 1 + sp.sqrt(L / r)
    assert sp.simplify(g.subs(x, a) - (r + 2 * sp.sqrt(r * L))) == 0
    assert sp.simplify(sp.diff(g, x).subs(x, a)) == 0
    assert sp.simplify(sp.diff(g, x, 2) - 2 * L / (x - 1) ** 3) == 0
    assert (2 * L / y ** 3).is_positive
    ay = 1 + y
    assert sp.simplify(1 - 1 / ay - y / (1 + y)) == 0 and sp.simplify(y / (1 + y) - 1).is_negative  # log(1-1/a) < 0
    assert sp.log(ay).is_positive                                                                # log(a)/(a-1) > 0
    certificate.point(6)


@pytest.mark.rigorous(method="symbolic identity + ball arithmetic", domain="every S, L > 0 (the filter's expression is the zCDP conversion); the package at one ledger")
@pytest.mark.claim("core:fully adaptive composition")
def test_filter_expression_equals_the_zcdp_conversion(certificate):
    """saddle_point-P06: sqrt(2 L S) + S/2 == rho + 2 sqrt(rho L) with rho = S/2, for every S, L > 0 (sympy);
    the package at 50 budgets 1/(j+3) (S an exact rational) against the certified value."""
    S_, L_ = sp.symbols("S L", positive=True)
    assert sp.simplify(sp.sqrt(2 * L_ * S_) + S_ / 2 - (S_ / 2 + 2 * sp.sqrt(S_ / 2 * L_))) == 0
    es = [Fraction(1, j + 3) for j in range(50)]
    S = sum(e * e for e in es)
    rho, Lb = ball(S / 2), -arb("1e-7").log()
    want = rho + 2 * (rho * Lb).sqrt()
    got, _ = acc.fully_adaptive_composition([float(e) for e in es], 1e-7)
    assert abs(ball(got) - want) <= want * arb("1e-14")
    certificate.point(2)


# ---------------------------------------------------------------------------
# The Gaussian profile against direct integration of the hockey-stick divergence.

GAUSS_QUAD = [
    # (eps, mu, delta): quad(lambda x: npdf(x) - exp(eps) * npdf(x, mu), [-inf, t - 10, t]),
    # t = mu/2 - eps/mu (where the integrand changes sign), mp.dps = 50
    ("1", "1", "0.126936737506643945800829624757766880415080650112"),
    ("0", "0.5", "0.19741265136584744848170758316206747856409496248206"),
    ("3", "2", "0.18381307654447215597010727020143692071534397015615"),
    ("10", "1", "9.812705826846955949223311118634289375750146948505e-23"),
    ("0.5", "0.1", "6.8565824558387265598349508132485917553514778066711e-9"),
]


def hockey_stick_b(e, mu):
    """int_{-inf}^{t} (phi(x) - e^eps phi(x - mu)) dx, t = mu/2 - eps/mu, certified: Arb's integral on
    [t - 40, t] plus the tail below t - 40, enclosed in [-e^eps Phi(t - 40 - mu), Phi(t - 40)]."""
    t = mu / 2 - e / mu
    lo = t - 40
    c = 1 / (2 * arb.pi()).sqrt()
    body = acb.integral(lambda x, _: c * ((-x * x / 2).exp() - e.exp() * (-(x - mu) ** 2 / 2).exp()), lo, t).real
    tail = (-e.exp() * ncdf(lo - mu)).union(ncdf(lo))
    return body + tail


@pytest.mark.rigorous(method="certified integral (Arb) at the named points", points="(eps, mu) in GAUSS_QUAD")
@pytest.mark.claim("core:Gaussian exact profile")
@pytest.mark.parametrize("e, mu, ref", GAUSS_QUAD)
def test_gaussian_profile_against_hockey_stick_integral(e, mu, ref, certificate):
    em, mum, refm = mpmath.mpf(e), mpmath.mpf(mu), mpmath.mpf(ref)
    eb, mub = arb(e), arb(mu)
    assert within(hockey_stick_b(eb, mub), ref, "1e-30") and within(profile_b(eb, mub), ref, "1e-30")
    certificate.point(2)
    got = acc.gaussian_delta(float(em), float(mum))
    assert got == pytest.approx(float(refm), rel=1e-14)
    assert got >= float(refm) * (1 - 1e-15)


@pytest.mark.rigorous(method="symbolic (sympy): the likelihood ratio's level set and the two Gaussian tails",
                      domain="every eps >= 0, mu > 0 (both orders of the pair)")
@pytest.mark.claim("core:Gaussian exact profile")
def test_gaussian_profile_is_the_hockey_stick_for_every_eps_and_mu(certificate):
    """P = N(mu, 1), Q = N(0, 1) (the mechanism rescaled by sigma). ln(P/Q)(x) = mu x - mu^2/2 is increasing (derivative
    mu > 0) and equals eps at t = eps/mu + mu/2, so (p - e^eps q)_+ is p - e^eps q on [t, inf) and 0 below: the
    hockey-stick divergence is int_t^inf (p - e^eps q) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu) (sympy). The
    other order (Q against P) is the same: x -> mu - x maps p to q and q to p."""
    x = sp.symbols("x", real=True)
    mu, eps = sp.symbols("mu epsilon", positive=True)
    p = sp.exp(-(x - mu) ** 2 / 2) / sp.sqrt(2 * sp.pi)
    q = sp.exp(-x ** 2 / 2) / sp.sqrt(2 * sp.pi)
    L = sp.simplify(sp.expand_log(sp.log(p / q), force=True))
    assert sp.simplify(L - (mu * x - mu ** 2 / 2)) == 0 and sp.diff(L, x) == mu
    t = eps / mu + mu / 2
    assert sp.simplify(L.subs(x, t) - eps) == 0
    Phi = lambda z: sp.erfc(-z / sp.sqrt(2)) / 2          # noqa: E731
    hs = sp.integrate(p, (x, t, sp.oo)) - sp.exp(eps) * sp.integrate(q, (x, t, sp.oo))
    assert sp.simplify((hs - (Phi(mu / 2 - eps / mu) - sp.exp(eps) * Phi(-mu / 2 - eps / mu))).rewrite(sp.erf)) == 0
    assert sp.simplify(p.subs(x, mu - x) - q) == 0 and sp.simplify(q.subs(x, mu - x) - p) == 0
    certificate.point(5)


@pytest.mark.evidence("one point, uncertified mpmath quadrature")
@pytest.mark.claim("core:Gaussian exact profile")
def test_gaussian_profile_live_quadrature_spot_check():
    em, mum = mpmath.mpf("2.5"), mpmath.mpf("1.7")
    t = mum / 2 - em / mum
    q = mpmath.quad(lambda x: mpmath.npdf(x) - mpmath.exp(em) * mpmath.npdf(x, mum), [-mpmath.inf, t - 10, t])
    assert acc.gaussian_delta(2.5, 1.7) == pytest.approx(float(q), rel=1e-14)
    assert acc.gaussian_epsilon(float(q), 1.7) == pytest.approx(2.5, rel=1e-13)


LAPLACE_QUAD = [
    # (eps, eps0, delta): quad(lambda x: exp(-|x|)/2 - exp(eps) exp(-|x - eps0|)/2, [-inf, 0, (eps0 - eps)/2]),
    # mp.dps = 50
    ("0.5", "1", "0.22119921692859513175482973302167935270322770957386"),
    ("0", "2", "0.63212055882855767840447622983853913255418886896823"),
    ("1", "1.5", "0.22119921692859513175482973302167935270322770957386"),
]


def laplace_hockey_b(e, e0):
    """int_{-inf}^{u} (e^{-|x|} - e^eps e^{-|x - eps0|}) / 2 dx, u = (eps0 - eps)/2 < eps0, certified: on
    x < min(0, u) the integrand is e^x (1 - e^{eps - eps0}) / 2 (closed form); on [0, max(0, u)] (empty when
    u <= 0) it is (e^{-x} - e^{eps - eps0 + x}) / 2, integrated by Arb. min and max are ball operations: no
    branch on the sign of u."""
    u = (e0 - e) / 2
    left = u.min(0).exp() * (1 - (e - e0).exp()) / 2
    return left + integral(lambda x: ((-x).exp() - (e - e0 + x).exp()) / 2, arb(0), u.max(0))


@pytest.mark.rigorous(method="symbolic (sympy): the privacy loss's three pieces and the two Laplace tails",
                      domain="every eps >= 0, eps0 = Delta/b > 0 (both orders of the pair)")
@pytest.mark.claim("core:Laplace exact profile")
def test_laplace_profile_for_every_eps_and_eps0(certificate):
    """P = Lap(Delta, b), Q = Lap(0, b), eps0 = Delta/b. ln(P/Q) = (|x| - |x - Delta|)/b is -eps0 on x <= 0,
    (2x - Delta)/b on [0, Delta] (increasing: derivative 2/b > 0) and eps0 on x >= Delta. For eps >= eps0,
    p <= e^eps0 q <= e^eps q everywhere: delta = 0. For 0 <= eps < eps0 the loss reaches eps at
    x* = (Delta + b eps)/2 in (0, Delta), so delta = int_{x*}^inf (p - e^eps q) = 1 - exp(-(eps0 - eps)/2) (sympy).
    The other order is the same: x -> Delta - x maps p to q."""
    x = sp.symbols("x", real=True)
    D, b, e = sp.symbols("Delta b epsilon", positive=True)
    e0 = D / b
    left, mid, right = -e0, (x - (D - x)) / b, e0                   # (|x| - |x - D|)/b on the three pieces
    xn, xm, xp = sp.symbols("x_n", negative=True), sp.symbols("x_m", positive=True), sp.symbols("x_p", positive=True)
    assert sp.simplify((sp.Abs(xn) - sp.Abs(xn - D)) / b - left) == 0
    assert sp.simplify((sp.Abs(D + xp) - sp.Abs(xp)) / b - right) == 0             # x = D + x_p >= D
    assert sp.diff(mid, x) == 2 / b and sp.simplify(mid.subs(x, 0) - left) == 0 and sp.simplify(mid.subs(x, D) - right) == 0
    xs = (D + b * e) / 2
    assert sp.simplify(mid.subs(x, xs) - e) == 0
    assert sp.simplify(D - xs - b * (e0 - e) / 2) == 0 and xs.is_positive       # x* < Delta iff eps < eps0
    # on [x*, Delta] p = e^((x - D)/b)/(2b), beyond Delta p's mass is 1/2; q = e^(-x/b)/(2b) on x >= x* > 0
    Pp = sp.integrate(sp.exp((x - D) / b) / (2 * b), (x, xs, D)) + sp.Rational(1, 2)
    Pq = sp.integrate(sp.exp(-x / b) / (2 * b), (x, xs, sp.oo))
    assert sp.simplify(Pp - sp.exp(e) * Pq - (1 - sp.exp(-(e0 - e) / 2))) == 0
    p = sp.exp(-sp.Abs(x - D) / b) / (2 * b)
    q = sp.exp(-sp.Abs(x) / b) / (2 * b)
    assert sp.simplify(p.subs(x, D - x) - q) == 0
    certificate.point(7)


@pytest.mark.rigorous(method="certified integral (Arb) at the named points", points="(eps, eps0) in LAPLACE_QUAD")
@pytest.mark.claim("core:Laplace exact profile")
@pytest.mark.parametrize("e, e0, ref", LAPLACE_QUAD)
def test_laplace_profile_against_hockey_stick_integral(e, e0, ref, certificate):
    eb, e0b = arb(e), arb(e0)
    hs = laplace_hockey_b(eb, e0b)
    assert within(hs, ref, "1e-40")
    assert within(1 - (-(e0b - eb) / 2).exp(), ref, "1e-40")      # the closed form, 0 <= eps < eps0
    certificate.point(2)
    got = acc.laplace_delta(float(e), float(e0))
    assert got == pytest.approx(float(mpmath.mpf(ref)), rel=1e-15)
    assert got >= float(mpmath.mpf(ref))
