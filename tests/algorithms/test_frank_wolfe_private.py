"""The private Frank-Wolfe variants of the shared module on general sets (the LASSO instance is
tested in tests/lasso/): lasso Algorithm 2 over an explicit polytope, and the general-convex
variant of lasso Theorem 2.6 = erm_geometry Appendix B Algorithm 5."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from reference.algorithms import frank_wolfe as fw
from reference.errors import ParameterError, PrivacyWarning
from reference.geometry.sets import L2Ball
from reference.privacy import accounting


def quad_grad(c):
    return lambda th: 2 * (th - c)


@pytest.mark.claim("lasso:Algorithm 2 zero noise")
def test_polytope_variant_with_vanishing_noise_is_frank_wolfe_on_any_polytope():
    rng = np.random.default_rng(0)
    S = fw.ExplicitVertices(rng.normal(size=(7, 3)))
    c = rng.normal(size=3)
    exact = fw.frank_wolfe(quad_grad(c), S, S.vertex(0), 25)
    noisy = fw.private_frank_wolfe_polytope(quad_grad(c), S, S.vertex(0), 25, noise_scale=1e-13,
                                            score_sensitivity=1.0, rng=np.random.default_rng(1))
    assert np.array_equal(exact.selected_index, noisy.selected_index)
    assert len(noisy.ledger) == 24 and noisy.ledger.kinds() == {"report_noisy_max"}


@pytest.mark.claim("lasso:§2 iterates feasible")
def test_general_variant_iterates_stay_in_the_set():
    C = L2Ball(4, 2.0)
    rng = np.random.default_rng(3)
    res = fw.private_frank_wolfe_general(quad_grad(np.full(4, 3.0)), C, C.lmo(np.ones(4)), 30,
                                         sigma=0.5, l2_sensitivity=0.1, rng=rng)
    assert all(C.contains(th, 1e-12) for th in res.iterates)
    assert len(res.ledger) == 29 and res.ledger.kinds() == {"gaussian"}
    assert all(e.sensitivity == 0.1 and e.noise_scale == 0.5 for e in res.ledger)


@pytest.mark.claim("lasso:Algorithm 2 zero noise")
def test_general_variant_with_vanishing_noise_is_frank_wolfe():
    C = L2Ball(3, 1.0)
    g = quad_grad(np.array([2.0, -1.0, 0.5]))
    exact = fw.frank_wolfe(g, C, np.zeros(3), 20)
    noisy = fw.private_frank_wolfe_general(g, C, np.zeros(3), 20, sigma=1e-14, l2_sensitivity=1.0,
                                           rng=np.random.default_rng(0))
    assert np.allclose(exact.theta, noisy.theta, atol=1e-12)


@pytest.mark.claim("lasso:Theorem 2.6 privacy")
@pytest.mark.parametrize("eps, delta, T, n", [
    (0.1, 1e-6, 10, 100), (4.0, 1e-3, 100, 10_000),
    *[pytest.param(e, d, T, n, marks=pytest.mark.deep) for e in (0.1, 1.0, 4.0) for d in (1e-6, 1e-3)
      for T, n in ((10, 100), (100, 10_000), (1000, 10_000))]])
def test_printed_gaussian_noise_with_squared_lipschitz_is_certified(eps, delta, T, n):
    """Alg 5 with sigma^2 = 32 L_2^2 T ln^2(n/delta)/(n eps)^2 and l2 sensitivity 2 L_2 / n per step
    (replace-one) is certified (eps, delta)-DP by the accountant (catalogue P32: rho <= eps^2/(16 ln^2(n/delta)))."""
    L2 = 3.0
    sigma = fw.paper_gaussian_sigma(L2, T, n, eps, delta, square_lipschitz=True)
    from reference.privacy.ledger import FrozenLedger, MechanismEvent

    ev = MechanismEvent(kind="gaussian", sensitivity=2 * L2 / n, norm="l2", noise_scale=sigma)
    assert accounting.certify(FrozenLedger((ev,) * (T - 1)), delta).epsilon <= eps
    if T == 10:
        cert = fw.certified_gaussian_sigma(2 * L2 / n, T, eps, delta)
        assert cert <= sigma
        ev2 = MechanismEvent(kind="gaussian", sensitivity=2 * L2 / n, norm="l2", noise_scale=cert)
        assert accounting.certify(FrozenLedger((ev2,) * (T - 1)), delta).epsilon <= eps
        # negative control: 2% less than the certified sigma is not certified (the check has teeth)
        weak = MechanismEvent(kind="gaussian", sensitivity=2 * L2 / n, norm="l2", noise_scale=0.98 * cert)
        assert accounting.certify(FrozenLedger((weak,) * (T - 1)), delta).epsilon > eps


def test_printed_gaussian_noise_is_not_scale_invariant():
    """lasso-E08: as printed (L_2 not squared) scaling the loss by a multiplies the sensitivity by a and
    sigma by sqrt(a): the privacy parameter mu = sensitivity / sigma changes by sqrt(a)."""
    T, n, eps, delta = 50, 1000, 1.0, 1e-6
    for a in (0.25, 4.0, 100.0):
        mu1 = (2 * 1.0 / n) / fw.paper_gaussian_sigma(1.0, T, n, eps, delta)
        mua = (2 * a / n) / fw.paper_gaussian_sigma(a, T, n, eps, delta)
        assert mua / mu1 == pytest.approx(math.sqrt(a), rel=1e-12)
        fixed = (2 * a / n) / fw.paper_gaussian_sigma(a, T, n, eps, delta, square_lipschitz=True)
        assert fixed == pytest.approx((2 / n) / fw.paper_gaussian_sigma(1.0, T, n, eps, delta,
                                                                        square_lipschitz=True), rel=1e-12)


def test_bad_parameters_of_the_private_variants():
    S = fw.SignedBasis(2)
    for kw in (dict(noise_scale=0.0, score_sensitivity=1.0), dict(noise_scale=1.0, score_sensitivity=-1.0)):
        with pytest.raises(ParameterError):
            fw.private_frank_wolfe_polytope(lambda th: th, S, np.zeros(2), 3, rng=np.random.default_rng(0), **kw)
    with pytest.raises(ParameterError, match="selection"):
        fw.private_frank_wolfe_polytope(lambda th: th, S, np.zeros(2), 3, noise_scale=1.0, score_sensitivity=1.0,
                                        rng=np.random.default_rng(0), selection="max")
    with pytest.raises(ParameterError, match="rng"):
        fw.private_frank_wolfe_general(lambda th: th, S, np.zeros(2), 3, sigma=1.0, l2_sensitivity=1.0, rng=0)
    with pytest.raises(ParameterError, match="delta"):
        fw.paper_laplace_scale(4.0, 1.0, 10, 100, 1.0, 1.0)


# ---------------------------------------------------------------------------
# The loops tied to the paper's lines through their own draws (replay with the same stream)


def _replay_polytope(res, gradient, S, lam, seed):
    """Walk the paper's lines 3-5 of lasso Algorithm 2 with an independent copy of the stream:
    alpha_s = <s, grad L(theta_t)> + Z_s with Z_s = -Z'_s, Z' the Laplace(lambda) row the sampler draws
    (module docstring of frank_wolfe.noisy_argmin), tilde_theta_t = argmin alpha, theta_{t+1} =
    (1 - mu_t) theta_t + mu_t tilde_theta_t with mu_t = 2/(t+2), output the last iterate."""
    rng = np.random.default_rng(seed)
    theta = res.iterates[0]
    for t in range(1, res.T):
        g = gradient(theta)
        alpha = S.scores(g) - rng.laplace(0.0, lam, (1, S.size))[0]
        index = int(np.argmin(alpha))
        assert res.selected_index[t - 1] == index, f"step {t}: selected {res.selected_index[t - 1]}, line 4 gives {index}"
        mu = 2.0 / (t + 2.0)
        theta = (1.0 - mu) * theta + mu * S.vertex(index)
        assert np.allclose(res.iterates[t], theta, atol=1e-14, rtol=0), f"step {t}: line 5"
    assert np.array_equal(res.theta, res.iterates[-1]), "line 6 outputs theta_T"
    return theta


@pytest.mark.claim("lasso:Algorithm 2 zero noise")
@pytest.mark.parametrize("seed", range(3))
def test_algorithm_2_lines_3_to_6_replay_the_loop_draws(seed):
    """Algorithm 2 on a quadratic over an explicit polytope: every selection is the argmin of the
    noisy scores alpha_s built from the loop's own Laplace draws, every step is line 5, the output is
    theta_T. The scale is comparable to the score gaps, so the noise decides many steps."""
    gen = np.random.default_rng(100 + seed)
    S = fw.ExplicitVertices(gen.normal(size=(6, 3)))
    grad = quad_grad(gen.normal(size=3))
    lam = 0.5
    res = fw.private_frank_wolfe_polytope(grad, S, S.vertex(0), 15, noise_scale=lam, score_sensitivity=1.0,
                                          rng=np.random.default_rng(seed))
    _replay_polytope(res, grad, S, lam, seed)
    exact = fw.frank_wolfe(grad, S, S.vertex(0), 15)
    assert not np.array_equal(exact.selected_index, res.selected_index)   # the noise was used


@pytest.mark.claim("lasso:Algorithm 2 zero noise")
@pytest.mark.parametrize("calibration", ["paper", "certified"])
def test_private_lasso_replays_algorithm_2_line_by_line(calibration):
    """The same replay for private_lasso (Corollary 2.7: S = {+-e_j}, the scores (g, -g)) at a noise
    scale where the selections depend on the noise and on the data."""
    from reference.algorithms import lasso

    gen = np.random.default_rng(7)
    X = gen.choice([-1.0, 1.0], size=(400, 5))
    y = X @ np.array([0.5, -0.3, 0.0, 0.0, 0.2])
    res = lasso.private_lasso(X, y, 4.0, 1e-3, np.random.default_rng(3), T=25, calibration=calibration)
    grad = lambda th: 2.0 / 400 * X.T @ (X @ th - y)
    _replay_polytope(res, grad, fw.SignedBasis(5), res.noise_scale, 3)
    assert len(set(res.selected_index.tolist())) > 2


def test_noisy_argmin_is_the_argmin_of_the_noisy_scores():
    """Lines 3-4 as the paper writes them: argmin_s (<s, g> + Z_s), Z_s = -Z'_s from the sampler's stream;
    one ledger event per call with the score sensitivity and lambda."""
    from reference.privacy.ledger import Ledger

    scores = np.array([0.3, -0.2, 0.0, 0.9, -0.25, 0.1, 0.4])
    picks = set()
    for seed in range(60):
        ledger = Ledger()
        index = fw.noisy_argmin(scores, 0.7, np.random.default_rng(seed), sensitivity=0.2, ledger=ledger)
        Z = -np.random.default_rng(seed).laplace(0.0, 0.7, (1, 7))[0]
        assert index == int(np.argmin(scores + Z))
        (event,) = ledger.freeze().events
        assert event.sensitivity == 0.2 and event.noise_scale == 0.7 and event.kind == "report_noisy_max"
        picks.add(index)
    assert len(picks) >= 4


@pytest.mark.claim("lasso:Theorem 2.6 privacy")
def test_general_variant_line_3_replays_the_gaussian_draws():
    """Theorem 2.6 / erm_geometry Algorithm 5 line 3: tilde_theta_t = LMO(grad L(theta_t) + b_t) with
    b_t = sigma * (the loop's standard normal draws); line 4 with mu_t = 2/(t+2); output theta_T."""
    C = L2Ball(3, 1.0)
    grad = quad_grad(np.array([0.4, -0.2, 0.1]))
    sigma = 0.8
    res = fw.private_frank_wolfe_general(grad, C, C.lmo(np.ones(3)), 12, sigma=sigma, l2_sensitivity=0.1,
                                         rng=np.random.default_rng(5))
    rng = np.random.default_rng(5)
    theta = res.iterates[0]
    for t in range(1, 12):
        b = sigma * rng.standard_normal(3)
        vertex = C.lmo(grad(theta) + b)
        assert np.allclose(res.selected[t - 1], vertex, atol=1e-13, rtol=0), f"step {t}: line 3"
        mu = 2.0 / (t + 2.0)
        theta = (1.0 - mu) * theta + mu * vertex
        assert np.allclose(res.iterates[t], theta, atol=1e-13, rtol=0), f"step {t}: line 4"
    assert np.array_equal(res.theta, res.iterates[-1])
    exact = fw.frank_wolfe(grad, C, C.lmo(np.ones(3)), 12)
    assert not np.allclose(exact.theta, res.theta, atol=1e-3)    # the noise was used


def test_results_carry_claimed_and_certified_epsilon():
    """Issue 9: a private run given its claim reports the claimed and the certified epsilon side by side;
    certified = accounting.certify(ledger, delta) (above the claim for the paper's lasso lambda at these
    parameters: lasso-E02)."""
    from reference.algorithms import lasso

    S = fw.SignedBasis(3)
    grad = quad_grad(np.array([0.2, 0.0, -0.1]))
    lam = fw.paper_laplace_scale(4.0, 1.0, 100, 100, 1.0, 1e-6)
    with pytest.warns(PrivacyWarning, match=r"lasso Algorithm 2\).*lasso-E02.*certified_laplace_scale"):
        res = fw.private_frank_wolfe_polytope(grad, S, np.zeros(3), 100, noise_scale=lam, score_sensitivity=8 / 100,
                                              rng=np.random.default_rng(0), claimed=(1.0, 1e-6))
    assert res.claimed_epsilon == 1.0 and res.claimed_delta == 1e-6
    assert res.certified_epsilon == accounting.certify(res.ledger, 1e-6).epsilon
    assert res.certified_epsilon > 1.0
    with pytest.warns(PrivacyWarning, match=r"lasso Theorem 2.6\).*lasso-E08.*certified_gaussian_sigma"):
        gen = fw.private_frank_wolfe_general(grad, L2Ball(3, 1.0), np.zeros(3), 5, sigma=1.0, l2_sensitivity=0.1,
                                             rng=np.random.default_rng(0), claimed=(0.5, 1e-5))
    with warnings.catch_warnings():                     # a claim the accountant certifies: silent
        warnings.simplefilter("error", PrivacyWarning)
        fw.private_frank_wolfe_polytope(grad, S, np.zeros(3), 100, score_sensitivity=8 / 100,
                                        noise_scale=fw.certified_laplace_scale(8 / 100, 100, 1.0, 1e-6),
                                        rng=np.random.default_rng(0), claimed=(1.0, 1e-6))
        fw.private_frank_wolfe_general(grad, L2Ball(3, 1.0), np.zeros(3), 5, l2_sensitivity=0.1,
                                       sigma=fw.certified_gaussian_sigma(0.1, 5, 0.5, 1e-5),
                                       rng=np.random.default_rng(0), claimed=(0.5, 1e-5))
    assert gen.certified_epsilon == accounting.certify(gen.ledger, 1e-5).epsilon
    assert fw.frank_wolfe(grad, S, np.zeros(3), 5).certified_epsilon is None
    X = np.ones((100, 1)); y = np.zeros(100)
    paper = lasso.private_lasso(X, y, 1.0, 1e-6, np.random.default_rng(0), T=100, keep_iterates=False)
    certified = lasso.private_lasso(X, y, 1.0, 1e-6, np.random.default_rng(0), T=100, calibration="certified",
                                    keep_iterates=False)
    assert paper.claimed_epsilon == 1.0 < paper.certified_epsilon
    assert certified.certified_epsilon <= 1.0 == certified.claimed_epsilon


@pytest.mark.claim("lasso:Theorem 2.4 accounting")
@pytest.mark.claim("core:certify")
@pytest.mark.parametrize("noise", ["laplace", "gumbel"])
@pytest.mark.parametrize("T, eps", [(30, 1.0), (300, 0.1)])
def test_certified_selection_scale_is_the_accountants_boundary(noise, T, eps):
    """The certified lambda of lasso Algorithm 2 / erm_geometry Algorithm 4 (certified_laplace_scale, which
    searches certify's boundary): its ledger of T - 1 selections certifies <= eps, and 0.95 lambda does
    not. Since issue 13 Gumbel (exponential-mechanism) selections are read as bounded-range steps
    (reference/privacy/bounded_range.py), so they need about 1.7 times less noise than Laplace ones, whose
    eps-DP (KOV) reading is unchanged (docs/accountant.md, "Certified calibrations")."""
    delta = 1e-6
    lam = fw.certified_laplace_scale(1.0, T, eps, delta, noise=noise)
    assert accounting.certify(fw._selection_ledger(T - 1, 1.0, lam, noise), delta).epsilon <= eps
    assert accounting.certify(fw._selection_ledger(T - 1, 1.0, 0.95 * lam, noise), delta).epsilon > eps
    if noise == "gumbel":
        laplace = fw.certified_laplace_scale(1.0, T, eps, delta, noise="laplace")
        assert lam < laplace / 1.6
