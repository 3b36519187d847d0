"""High-precision (mpmath, 50 digits) checks of the accountant's constants and inequalities.

Each hard-coded reference value carries, beside it, the mpmath expression and the
working precision that produced it (scipy.special test style). Helpers below are
written from the papers' formulas, independently of reference/privacy/accounting.py.
"""

from __future__ import annotations

import warnings

import mpmath
import pytest

from reference.errors import PrivacyWarning
from reference.privacy import accounting as acc

DPS = 50


def profile(e, mu):
    """Balle-Wang 2018 Thm 8, mpmath: Phi(mu/2 - e/mu) - e^e Phi(-mu/2 - e/mu)."""
    return mpmath.ncdf(mu / 2 - e / mu) - mpmath.exp(e) * mpmath.ncdf(-mu / 2 - e / mu)


def classic_mu(e, d):
    """mu = Delta / sigma for the classic calibration sigma = sqrt(2 ln(1.25/d)) Delta / e."""
    return e / mpmath.sqrt(2 * mpmath.log(mpmath.mpf("1.25") / d))


@pytest.fixture(autouse=True)
def _precision():
    with mpmath.workdps(DPS):
        yield


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


@pytest.mark.evidence("points or uncertified numerics (not yet restated)")
@pytest.mark.claim("core:Gaussian classic calibration")
@pytest.mark.parametrize("e, d, ref", CLASSIC_POINTS)
def test_classic_calibration_reference_points(e, d, ref):
    e, d, ref = mpmath.mpf(e), mpmath.mpf(d), mpmath.mpf(ref)
    assert abs(profile(e, classic_mu(e, d)) - ref) <= ref * mpmath.mpf(10) ** -45
    assert ref <= d
    sigma = acc.classic_gaussian_sigma(float(e), float(d), 1.0)
    got = acc.gaussian_delta(float(e), 1.0 / sigma)
    assert got == pytest.approx(float(ref), rel=1e-12)


@pytest.mark.evidence("points or uncertified numerics (not yet restated)")
@pytest.mark.claim("core:Gaussian classic calibration")
def test_classic_calibration_holds_for_eps_at_most_one_on_a_grid():
    """Grid: eps in {0.01, ..., 1} (25 points), delta in 10^-1 ... 10^-20: exact profile <= delta."""
    worst = mpmath.mpf(0)
    for j in range(1, 26):
        e = mpmath.mpf(j) / 25
        for t in range(1, 21):
            d = mpmath.mpf(10) ** -t
            ratio = profile(e, classic_mu(e, d)) / d
            worst = max(worst, ratio)
            assert ratio <= 1
    # the worst case is far from tight: the classic sigma over-pays at eps <= 1
    assert worst < mpmath.mpf("0.05")


# Largest eps at which the classic calibration still gives (eps, 1e-5)-DP:
# findroot(lambda e: profile(e, classic_mu(e, mpf('1e-5'))) - mpf('1e-5'), (8, 9), solver='anderson'),
# mp.dps = 50
CLASSIC_FAILURE_EPS_1E5 = "8.4197713015363407378154365690582214340266792664458"


@pytest.mark.evidence("points or uncertified numerics (not yet restated)")
@pytest.mark.claim("core:Gaussian classic calibration fails above 1")
def test_classic_calibration_failure_threshold_at_delta_1e5():
    d = mpmath.mpf("1e-5")
    root = mpmath.mpf(CLASSIC_FAILURE_EPS_1E5)   # parsed at 50 digits (the fixture sets the precision)
    assert abs(profile(root, classic_mu(root, d)) - d) < mpmath.mpf(10) ** -45
    # holds on a grid of (1, root), fails on a grid of (root, 30]
    for j in range(101, 842):
        e = mpmath.mpf(j) / 100
        assert profile(e, classic_mu(e, d)) <= d
    for j in range(842, 3001, 7):
        e = mpmath.mpf(j) / 100
        assert profile(e, classic_mu(e, d)) > d
    # the package's float functions see the same boundary
    # and classic_gaussian_sigma warns (PrivacyWarning, core-A01) exactly where it fails
    for e, fails in ((float(root) * (1 - 1e-9), False), (float(root) * (1 + 1e-9), True), (9.0, True)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            sigma = acc.classic_gaussian_sigma(e, 1e-5, 1.0)
        assert (acc.gaussian_delta(e, 1.0 / sigma) > 1e-5) == fails
        assert any(issubclass(w.category, PrivacyWarning) for w in caught) == fails


# ---------------------------------------------------------------------------
# Advanced composition against the exact optimal composition (KOV15 Thm 3.3).

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


@pytest.mark.evidence("points or uncertified numerics (not yet restated)")
@pytest.mark.claim("core:optimal composition")
@pytest.mark.claim("core:advanced composition")
@pytest.mark.parametrize("e0, k, dt, opt, adv", KOV_POINTS)
def test_advanced_against_exact_optimal_composition(e0, k, dt, opt, adv):
    e0m, dtm, optm = mpmath.mpf(e0), mpmath.mpf(dt), mpmath.mpf(opt)
    # the reference optimum meets the profile, and is the smallest (checked at 1e-40 below)
    assert kov_hom(e0m, k, optm) <= dtm * (1 + mpmath.mpf(10) ** -40)
    assert kov_hom(e0m, k, optm * (1 - mpmath.mpf(10) ** -40)) > dtm
    got_opt = acc.optimal_homogeneous_composition(float(e0m), 0.0, k, float(dtm))
    got_adv, _ = acc.advanced_composition(float(e0m), 0.0, k, float(dtm))
    assert got_opt == pytest.approx(float(optm), rel=1e-14) and got_opt >= float(optm) * (1 - 1e-16)
    assert got_adv == pytest.approx(float(mpmath.mpf(adv)), rel=1e-14)
    assert mpmath.mpf(adv) > optm


@pytest.mark.evidence("points or uncertified numerics (not yet restated)")
@pytest.mark.claim("core:advanced composition")
def test_advanced_never_below_optimal_on_a_grid():
    for e0 in ("0.001", "0.01", "0.1", "0.5", "1", "2"):
        for k in (1, 2, 5, 30, 200):
            for dt in ("1e-3", "1e-8", "1e-15"):
                got_opt = acc.optimal_homogeneous_composition(float(e0), 0.0, k, float(dt))
                e0m, dtm = mpmath.mpf(e0), mpmath.mpf(dt)
                adv = mpmath.sqrt(2 * k * mpmath.log(1 / dtm)) * e0m + k * e0m * mpmath.expm1(e0m)
                assert adv >= got_opt
                assert kov_hom(e0m, k, mpmath.mpf(got_opt)) <= dtm


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


@pytest.mark.evidence("points or uncertified numerics (not yet restated)")
@pytest.mark.claim("core:zCDP to DP")
@pytest.mark.claim("core:zCDP to DP tight")
@pytest.mark.parametrize("rho, d, std, tight, alpha", ZCDP_POINTS)
def test_zcdp_conversions_reference_points(rho, d, std, tight, alpha):
    r, dm, a = mpmath.mpf(rho), mpmath.mpf(d), mpmath.mpf(alpha)
    # CKS20 Prop 12 in its delta form, at the order a and the tight epsilon, gives back delta:
    # delta = exp((a-1)(a rho - eps)) / (a-1) * (1 - 1/a)^a
    eps = mpmath.mpf(tight)
    back = mpmath.exp((a - 1) * (a * r - eps)) / (a - 1) * (1 - 1 / a) ** a
    assert abs(back - dm) <= dm * mpmath.mpf(10) ** -40
    got_std = acc.zcdp_to_dp(float(r), float(dm), "standard")
    got_tight = acc.zcdp_to_dp(float(r), float(dm), "tight")
    assert got_std == pytest.approx(float(mpmath.mpf(std)), rel=1e-15) and got_std >= float(mpmath.mpf(std))
    assert got_tight == pytest.approx(float(eps), rel=1e-12) and got_tight >= float(eps) * (1 - 1e-15)
    assert got_tight < got_std
    # inverses: the rho returned for these epsilons is the reference rho (to the search's accuracy)
    assert acc.zcdp_for_dp(float(mpmath.mpf(std)), float(dm), "standard") == pytest.approx(float(r), rel=1e-14)
    assert acc.zcdp_for_dp(float(eps), float(dm), "tight") == pytest.approx(float(r), rel=1e-9)


@pytest.mark.evidence("points or uncertified numerics (not yet restated)")
@pytest.mark.claim("core:zCDP to DP")
def test_standard_conversion_is_the_minimum_over_orders_of_the_rdp_bound():
    """BS16 Prop 1.3 is min over a of a rho + log(1/delta)/(a-1), attained at a - 1 = sqrt(L/rho)."""
    for rho in ("0.001", "0.5", "20"):
        for d in ("1e-3", "1e-12"):
            r, L = mpmath.mpf(rho), -mpmath.log(mpmath.mpf(d))
            a = 1 + mpmath.sqrt(L / r)
            assert abs(a * r + L / (a - 1) - (r + 2 * mpmath.sqrt(r * L))) < mpmath.mpf(10) ** -45
            g = lambda x: x * r + L / (x - 1)
            assert mpmath.diff(g, a) == pytest.approx(0, abs=1e-30)


@pytest.mark.evidence("points or uncertified numerics (not yet restated)")
@pytest.mark.claim("core:fully adaptive composition")
def test_filter_expression_equals_the_zcdp_conversion():
    """saddle_point-P06: sqrt(2 L sum e^2) + sum e^2 / 2 == rho + 2 sqrt(rho L), rho = sum e^2/2 (40 digits)."""
    es = [mpmath.mpf(1) / (j + 3) for j in range(50)]
    L = -mpmath.log(mpmath.mpf("1e-7"))
    s = mpmath.fsum(e * e for e in es)
    rho = s / 2
    assert abs(mpmath.sqrt(2 * L * s) + s / 2 - (rho + 2 * mpmath.sqrt(rho * L))) < mpmath.mpf(10) ** -45
    got, _ = acc.fully_adaptive_composition([float(e) for e in es], 1e-7)
    assert got == pytest.approx(float(rho + 2 * mpmath.sqrt(rho * L)), rel=1e-14)


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


@pytest.mark.evidence("points or uncertified numerics (not yet restated)")
@pytest.mark.claim("core:Gaussian exact profile")
@pytest.mark.parametrize("e, mu, ref", GAUSS_QUAD)
def test_gaussian_profile_against_hockey_stick_integral(e, mu, ref):
    em, mum, refm = mpmath.mpf(e), mpmath.mpf(mu), mpmath.mpf(ref)
    assert abs(profile(em, mum) - refm) <= refm * mpmath.mpf(10) ** -30
    got = acc.gaussian_delta(float(em), float(mum))
    assert got == pytest.approx(float(refm), rel=1e-14)
    assert got >= float(refm) * (1 - 1e-15)


@pytest.mark.evidence("points or uncertified numerics (not yet restated)")
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


@pytest.mark.evidence("points or uncertified numerics (not yet restated)")
@pytest.mark.claim("core:Laplace exact profile")
@pytest.mark.parametrize("e, e0, ref", LAPLACE_QUAD)
def test_laplace_profile_against_hockey_stick_integral(e, e0, ref):
    got = acc.laplace_delta(float(e), float(e0))
    assert got == pytest.approx(float(mpmath.mpf(ref)), rel=1e-15)
    assert got >= float(mpmath.mpf(ref))
