"""Section 2.1's privacy preliminaries as the package implements them: Lemma 2.3 (the DP / CDP conversions) and
Lemma 2.5 (the Laplace and Gaussian mechanisms' noise scales).

Reference values are the paper's formulas evaluated in mpmath (50 digits) and the divergences of Definitions 2.1 and
2.2 computed from the densities (mpmath closed forms and quadrature), never the package's own outputs. Each truth
check is run beside a wrong constant it must reject (a negative control that the same assertion flags)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from scipy import stats

from reference.algorithms import heavy_tailed as ht
from reference.privacy import accounting
from reference.privacy.ledger import Ledger
from reference.privacy.mechanisms import gaussian_mechanism, laplace_mechanism

EPSILONS = (0.3, 1.0, 2.5)
DELTAS = (1e-6, 1e-9)
ORDERS = ("1.001", "1.5", "2", "5", "20")


def _renyi_randomized_response(eps, alpha):
    """D_alpha between the two output laws of eps-randomized response (p = e^eps/(1 + e^eps)), the eps-DP
    mechanism whose divergences are the largest; mpmath, closed form."""
    p = mpmath.e ** eps / (1 + mpmath.e ** eps)
    q = 1 - p
    return mpmath.log(p ** alpha * q ** (1 - alpha) + q ** alpha * p ** (1 - alpha)) / (alpha - 1)


def _gaussian_delta(eps, mu):
    """The exact delta(eps) of a Gaussian shift mu (the rho = mu^2/2 CDP mechanism): Phi(-eps/mu + mu/2) -
    e^eps Phi(-eps/mu - mu/2) [BW18, Theorem 8], in mpmath."""
    return mpmath.ncdf(-eps / mu + mu / 2) - mpmath.e ** eps * mpmath.ncdf(-eps / mu - mu / 2)


@pytest.mark.claim("heavy_tailed:Lemma 2.3")
@pytest.mark.parametrize("eps", EPSILONS)
def test_lemma_2_3_a_pure_dp_is_half_eps_squared_cdp(eps):
    """(a) eps-DP => (eps^2/2)-CDP. The package's conversions (zcdp_of_pure, and event_rho of a Laplace event of
    epsilon eps) equal eps^2/2 in mpmath; the statement holds on eps-randomized response at every order checked
    (D_alpha <= alpha eps^2/2, Definition 2.2), and the conversion with half the constant (eps^2/4) is violated
    there at alpha -> 1 (D_alpha -> eps tanh(eps/2) > eps^2/4)."""
    with mpmath.workdps(50):
        e = mpmath.mpf(eps)
        rho = e ** 2 / 2
        assert accounting.zcdp_of_pure(eps) == pytest.approx(float(rho), rel=1e-15)
        assert accounting.zcdp_of_pure(eps) >= rho          # rounded up, never against the user
        ledger = Ledger()
        laplace_mechanism(0.0, 1.7, 1.7 / eps, np.random.default_rng(0), ledger=ledger)
        assert accounting.event_rho(ledger.events[0]) == pytest.approx(float(rho), rel=1e-14)
        divergences = [_renyi_randomized_response(e, mpmath.mpf(a)) for a in ORDERS]
        for a, D in zip(ORDERS, divergences):
            assert D <= mpmath.mpf(a) * rho
        # negative control: rho = eps^2/4 is violated near alpha = 1
        assert any(D > mpmath.mpf(a) * rho / 2 for a, D in zip(ORDERS, divergences))


@pytest.mark.claim("heavy_tailed:Lemma 2.3")
@pytest.mark.parametrize("eps", EPSILONS)
@pytest.mark.parametrize("delta", DELTAS)
def test_lemma_2_3_b_cdp_to_dp(eps, delta):
    """(b) (eps^2/2)-CDP => (eps^2/2 + eps sqrt(2 log(1/delta)), delta)-DP for every delta > 0. The package's
    zcdp_to_dp (standard) is that expression in mpmath (its rho + 2 sqrt(rho log(1/delta)) at rho = eps^2/2) and
    zcdp_for_dp inverts it; the statement holds on the Gaussian mechanism of shift mu = eps (exactly (eps^2/2)-CDP):
    its exact delta at the converted epsilon is <= delta. The conversion with sqrt(log(1/delta)) for
    sqrt(2 log(1/delta)) is refuted by the same exact delta."""
    with mpmath.workdps(50):
        e, d = mpmath.mpf(eps), mpmath.mpf(delta)
        rho = e ** 2 / 2
        paper = rho + e * mpmath.sqrt(2 * mpmath.log(1 / d))
        got = accounting.zcdp_to_dp(float(rho), delta)
        assert got == pytest.approx(float(paper), rel=1e-14)
        assert got >= paper * (1 - mpmath.mpf(10) ** -15)
        assert accounting.zcdp_for_dp(float(paper), delta) == pytest.approx(float(rho), rel=1e-12)
        # the tight conversion [CKS20] is never above the lemma's
        assert accounting.zcdp_to_dp(float(rho), delta, "tight") <= got
        # truth on the tight case (the Gaussian shift): exact delta at the lemma's epsilon is within delta
        assert _gaussian_delta(paper, e) <= d
        # negative control: the factor 2 under the root dropped
        control = rho + e * mpmath.sqrt(mpmath.log(1 / d))
        assert _gaussian_delta(control, e) > d


@pytest.mark.claim("heavy_tailed:Lemma 2.5")
@pytest.mark.parametrize("eps,sens,d", [(0.7, 2.3, 3), (1.9, 0.4, 4)])
def test_lemma_2_5_laplace_scale_is_delta_1_over_eps(eps, sens, d):
    """The Laplace mechanism with N_j ~ Lap(Delta_1/eps) is eps-DP. The package's calibration
    (certified_laplace_scale) is Delta_1/eps (mpmath, to rounding up), its ledger event certifies eps, and at
    that scale the privacy loss log p(y)/p'(y) of two outputs whose means differ by a vector of l1 norm Delta_1
    (mpmath, from the densities) never exceeds eps and reaches it beyond every coordinate; the scale Delta_1/(2 eps)
    exceeds eps there. The noise the mechanism draws is Lap(Delta_1/eps) (Kolmogorov-Smirnov, false alarm 1e-3),
    and a draw at 0.8 of the scale is rejected by the same test."""
    with mpmath.workdps(50):
        scale = ht.certified_laplace_scale(sens, eps)
        exact = mpmath.mpf(sens) / mpmath.mpf(eps)
        # the scale is rounded in floating point (Delta_1/b <= eps as floats): within 1e-15 of the exact ratio
        assert scale >= exact * (1 - mpmath.mpf(10) ** -15) and scale == pytest.approx(float(exact), rel=1e-15)
        ledger = Ledger()
        rng = np.random.default_rng(11)
        laplace_mechanism(np.zeros(d), sens, scale, rng, ledger=ledger)
        out = laplace_mechanism(np.zeros(d), sens, scale, rng, n_draws=20_000)
        assert accounting.event_epsilon(ledger.events[0]) <= eps * (1 + 1e-15)
        shift = np.array([sens * w for w in np.linspace(1.0, 2.0, d)]) / np.linspace(1.0, 2.0, d).sum()
        assert float(np.abs(shift).sum()) == pytest.approx(sens, rel=1e-14)

        def loss(y, b):
            b = mpmath.mpf(b)
            return sum((abs(mpmath.mpf(y[j]) - mpmath.mpf(shift[j])) - abs(mpmath.mpf(y[j]))) / b
                       for j in range(d))

        points = np.random.default_rng(5).normal(0.0, 3 * scale, (200, d))
        assert max(loss(y, scale) for y in points) <= eps * (1 + 1e-15)
        far = -10 * scale * np.ones(d)                    # beyond every coordinate: the loss is ||shift||_1 / b
        assert loss(far, scale) == pytest.approx(eps, rel=1e-12)
        assert loss(far, scale / 2) > eps                 # negative control: half the scale
    noise = out.ravel()
    assert stats.kstest(noise, stats.laplace(scale=scale).cdf).pvalue > 1e-3
    assert stats.kstest(0.8 * noise, stats.laplace(scale=scale).cdf).pvalue < 1e-3


@pytest.mark.claim("heavy_tailed:Lemma 2.5")
@pytest.mark.parametrize("rho,sens", [(0.05, 1.3), (0.8, 0.35)])
def test_lemma_2_5_gaussian_variance_is_delta_2_squared_over_2_rho(rho, sens):
    """The Gaussian mechanism with N ~ N(0, Delta_2^2/(2 rho) I) is rho-CDP. The package's calibration
    (certified_sigma) is Delta_2/sqrt(2 rho) (mpmath, to rounding up) and its ledger event certifies rho; at that
    variance the Renyi divergence of N(Delta, sigma^2) from N(0, sigma^2) (mpmath quadrature of Definition 2.2's
    footnote) is alpha rho at every order checked, so within rho alpha, while the variance Delta_2^2/(4 rho) gives
    2 alpha rho > alpha rho. The noise drawn has variance Delta_2^2/(2 rho) (Kolmogorov-Smirnov, false alarm 1e-3);
    0.8 of it is rejected by the same test."""
    with mpmath.workdps(30):
        sigma = ht.certified_sigma(sens, rho)
        exact = mpmath.mpf(sens) / mpmath.sqrt(2 * mpmath.mpf(rho))
        assert sigma >= exact and sigma == pytest.approx(float(exact), rel=1e-15)
        ledger = Ledger()
        gaussian_mechanism(np.zeros(3), sens, sigma, np.random.default_rng(12), ledger=ledger)
        out = gaussian_mechanism(np.zeros(3), sens, sigma, np.random.default_rng(13), n_draws=20_000)
        assert accounting.event_rho(ledger.events[0]) <= rho * (1 + 1e-15)

        def renyi(alpha, s):
            s, a, D = mpmath.mpf(s), mpmath.mpf(alpha), mpmath.mpf(sens)
            p = lambda x: mpmath.npdf(x, D, s)        # noqa: E731
            q = lambda x: mpmath.npdf(x, 0, s)        # noqa: E731
            integral = mpmath.quad(lambda x: p(x) ** a * q(x) ** (1 - a), [-mpmath.inf, D / 2, mpmath.inf])
            return mpmath.log(integral) / (a - 1)

        for alpha in ("1.5", "2", "6"):
            D = renyi(alpha, sigma)
            assert D == pytest.approx(float(mpmath.mpf(alpha) * rho), rel=1e-12)
            assert D <= mpmath.mpf(alpha) * rho * (1 + mpmath.mpf(10) ** -12)
            # negative control: the variance Delta_2^2/(4 rho)
            assert renyi(alpha, float(exact) / math.sqrt(2)) > 1.9 * mpmath.mpf(alpha) * rho
    noise = out.ravel()
    assert stats.kstest(noise, stats.norm(scale=sigma).cdf).pvalue > 1e-3
    assert stats.kstest(0.8 * noise, stats.norm(scale=sigma).cdf).pvalue < 1e-3
