"""Second methods: this module's widths, mirror steps and noise against independent computations
(reference.geometry's implementations, Monte Carlo, chi-square), and a few formula-level facts."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from reference.algorithms import erm_geometry as eg
from reference.geometry.sets import GroupL1L2Ball, L1Ball, L2Ball, Simplex

from .helpers import LinearLoss, unit_rows

width = pytest.importorskip("reference.geometry.width")
mirror = pytest.importorskip("reference.geometry.mirror")
sets = pytest.importorskip("reference.geometry.sets")


@pytest.mark.claim("erm_geometry:Section 2.2 Gaussian widths")
@pytest.mark.parametrize("p", [1, 3, 17, 200])
def test_widths_the_theorems_use_are_the_geometry_widths_of_Q(p):
    """G_Q of each potential (the width Theorems 3.2 / A.1 and Corollary 3.6 use) is the Gaussian width of
    its body Q computed by reference.geometry.width, checked here against Monte Carlo (2e5 draws, 4-SE
    margin; false alarm about 6e-5 per value); Section 1's bounds: G(B_2) < sqrt p, G(B_1) <= sqrt(2 ln 2p)."""
    k = min(3, p)
    sizes = tuple([k] * (p // k) + ([p % k] if p % k else []))
    pots = [eg.EuclideanPotential(sets.L2Ball(p, 1.0)), eg.EntropyPotential(sets.Simplex(p)),
            eg.GroupPotential(sets.GroupL1L2Ball(p, k, 1.0))]
    if p >= 2:
        pots.append(eg.LqPotential(sets.L1Ball(p, 1.0)))
    g = np.random.default_rng(p).standard_normal((200_000, p))
    block_norms = np.stack([np.linalg.norm(g[:, a:a + s], axis=1) for a, s in zip(np.cumsum((0,) + sizes), sizes)],
                           axis=1)
    sups = {"euclidean": np.linalg.norm(g, axis=1), "entropy": np.max(np.abs(g), axis=1),
            "lq": np.max(np.abs(g), axis=1), "group": np.max(block_norms, axis=1)}
    for pot in pots:
        sup = sups[pot.name]
        assert pot.q_width == pytest.approx(sup.mean(), abs=4 * sup.std() / math.sqrt(len(sup)))
    assert eg.EuclideanPotential(sets.L2Ball(p, 1.0)).q_width == width.width_l2_ball(p) < math.sqrt(p)
    assert eg.EntropyPotential(sets.Simplex(p)).q_width == width.width_l1_ball(p)[0] <= math.sqrt(2 * math.log(2 * p))
    assert eg.GroupPotential(sets.GroupL1L2Ball(p, k, 1.0)).q_width == width.width_group_ball(sizes)[0]


@pytest.mark.claim("erm_geometry:Line 4 mirror step")
def test_mirror_steps_agree_with_the_geometry_module():
    rng = np.random.default_rng(0)
    for _ in range(20):
        g, eta = rng.standard_normal(6), float(rng.uniform(0.05, 3))
        x = rng.dirichlet(np.ones(6))
        ours = eg.EntropyPotential(Simplex(6)).mirror_step(x, g, eta)
        np.testing.assert_allclose(ours, mirror.NegativeEntropyMap().mirror_step(x, g, eta, sets.Simplex(6)),
                                   rtol=1e-12)
        for ours_ball, theirs in ((L2Ball(6, 1.5), sets.L2Ball(6, 1.5)), (L1Ball(6, 0.7), sets.L1Ball(6, 0.7))):
            y = ours_ball.project(rng.standard_normal(6))
            np.testing.assert_allclose(eg.EuclideanPotential(ours_ball).mirror_step(y, g, eta),
                                       mirror.EuclideanMap().mirror_step(y, g, eta, theirs), atol=1e-12)


@pytest.mark.claim("erm_geometry:Theorem 3.1 accounting")
def test_noise_actually_added_has_the_recorded_scale_and_is_fresh_each_step():
    """The ledger says sigma; the steps must use it. No projection is active (huge ball), so
    b_t = (theta_t - theta_(t+1))/eta - grad is recovered from the iterates alone. Two-sided
    chi-square test of the variance at level 1e-4 and lag-1 correlation within 4/sqrt(N)."""
    n, p, T = 10, 3, 1500
    X = unit_rows(np.random.default_rng(1), n, p)
    pot = eg.EuclideanPotential(L2Ball(p, 1e9))
    res = eg.noisy_mirror_descent(X, np.zeros(n), LinearLoss(), pot, epsilon=1.0, delta=1e-5, lipschitz=1.0, T=T,
                                  eta=0.5, rng=np.random.default_rng(2))
    recovered = (res.iterates[:-1] - res.iterates[1:]) / 0.5 - X.mean(axis=0)
    np.testing.assert_allclose(recovered, res.noise, atol=1e-6 * res.sigma)
    z = (res.noise / res.sigma).ravel()
    N = z.size
    chi2 = float(np.sum(z * z))
    assert stats.chi2.ppf(5e-5, N) <= chi2 <= stats.chi2.ppf(1 - 5e-5, N)
    lag = float(np.corrcoef(res.noise[:-1, 0], res.noise[1:, 0])[0, 1])
    assert abs(lag) <= 4 / math.sqrt(T)


@pytest.mark.claim("erm_geometry:Fact 2.3")
@pytest.mark.parametrize("kind", ["l1", "simplex"])
def test_concentration_of_the_sup(kind):
    """P[|W - G| >= u] <= 2 exp(-u^2/(2 alpha^2)), alpha = max_C ||theta||_2 = 1; 2e5 draws,
    one-sided 4-SE margin (false alarm about 3e-5 each)."""
    p, N = 20, 200_000
    g = np.random.default_rng(3).standard_normal((N, p))
    W = np.max(np.abs(g), axis=1) if kind == "l1" else np.max(g, axis=1)
    G = width.width_l1_ball(p)[0] if kind == "l1" else width.width_simplex(p)[0]
    assert np.mean(W) == pytest.approx(G, abs=4 * np.std(W) / math.sqrt(N))
    for u in (0.5, 1.0, 2.0):
        freq = np.mean(np.abs(W - G) >= u)
        assert freq <= 2 * math.exp(-u * u / 2) + 4 * math.sqrt(freq * (1 - freq) / N)
    assert np.mean(W * W) <= G * G + 1.0 + 4 * np.std(W * W) / math.sqrt(N)   # E W^2 <= G^2 + r^2


@pytest.mark.claim("erm_geometry:Corollary 3.6")
def test_section_3_3_width_fact_with_a_covariance():
    """E sup_C <sqrt(Sigma) b, theta> <= sqrt(lambda_max(Sigma)) G_C (Sudakov-Fernique, constant 1),
    C the unit l1 ball of R^8; 1e5 draws, 4-SE margin."""
    p, N = 8, 100_000
    rng = np.random.default_rng(5)
    A = rng.standard_normal((p, p))
    Sigma = A @ A.T / p
    w, v = np.linalg.eigh(Sigma)
    b = rng.standard_normal((N, p)) @ (v * np.sqrt(w)) @ v.T
    sup = np.max(np.abs(b), axis=1)
    assert sup.mean() <= math.sqrt(w.max()) * width.width_l1_ball(p)[0] + 4 * sup.std() / math.sqrt(N)


@pytest.mark.claim("erm_geometry:Remark 1")
def test_remark_1_scale_invariance_and_the_statement_T():
    """Remark 1. (a) With the proof's T and eta, rescaling the loss L -> cL leaves T unchanged and scales
    the explicit bound by exactly c (the statement's T changes: it is not dimensionless).
    (b) Q -> cQ with Psi -> Psi/c^2 leaves (G_Q^2 + ||Q||^2) max Psi unchanged (l1 ball of radius c,
    resolved l_q potential)."""
    pot = eg.LqPotential(L1Ball(10, 1.0))
    T1, eta1 = eg.theorem_3_2_parameters(500, 1.0, 1e-5, 1.0, pot, variant="proof")
    T3, eta3 = eg.theorem_3_2_parameters(500, 1.0, 1e-5, 3.0, pot, variant="proof")
    assert T1 == T3 and eta3 == pytest.approx(eta1 / 3)
    sig1 = eg.paper_sigma_algorithm1(1.0, 1e-5, 1.0, 500, T1)
    sig3 = eg.paper_sigma_algorithm1(1.0, 1e-5, 3.0, 500, T3)
    assert eg.theorem_3_2_bound(pot, 3.0, sig3, T3, eta3) == pytest.approx(3 * eg.theorem_3_2_bound(pot, 1.0, sig1, T1, eta1))
    S1, _ = eg.theorem_3_2_parameters(500, 1.0, 1e-5, 1.0, pot, variant="statement")
    S3, _ = eg.theorem_3_2_parameters(500, 1.0, 1e-5, 3.0, pot, variant="statement")
    assert S3 < S1      # the statement's T changes with the units of the loss
    # Q -> cQ with Psi -> Psi/c^2: the product (G^2 + r^2) * R is invariant (l1 ball of radius c, resolved l_q)
    for c in (0.5, 2.0, 7.0):
        scaled = eg.LqPotential(L1Ball(10, c))
        lhs = (scaled.q_width ** 2 + scaled.q_radius ** 2) * scaled.range / c ** 2
        rhs = (pot.q_width ** 2 + pot.q_radius ** 2) * pot.range
        assert lhs == pytest.approx(rhs, rel=1e-12)


@pytest.mark.claim("erm_geometry:Line 4 mirror step")
@pytest.mark.filterwarnings(r"ignore:objective_perturbation\(calibration='paper'\):reference.errors.PrivacyWarning")
@pytest.mark.filterwarnings(r"ignore:erm_geometry Algorithm 4 \(calibration='paper'\):reference.errors.PrivacyWarning")
def test_frank_wolfe_wrappers_and_objective_perturbation_are_deterministic_under_a_seed():
    from reference.algorithms import frank_wolfe as fw

    from .helpers import LassoLoss, SquaredLoss

    rng = np.random.default_rng(0)
    X, y = rng.uniform(-1, 1, (30, 4)), rng.uniform(-1, 1, 30)
    runs = [eg.private_frank_wolfe_polytope(X, y, LassoLoss(), fw.SignedBasis(4), epsilon=1.0, delta=1e-5,
                                            lipschitz_l1=2.0, T=15, rng=np.random.default_rng(9)) for _ in range(2)]
    assert np.array_equal(runs[0].iterates, runs[1].iterates)
    Xs = unit_rows(rng, 30, 4)
    ops = [eg.objective_perturbation(Xs, y, SquaredLoss(), L2Ball(4, 1.0), epsilon=1.0, delta=1e-3,
                                     lipschitz=2.0, lambda_max=1.0, rng=np.random.default_rng(4)) for _ in range(2)]
    assert np.array_equal(ops[0].theta, ops[1].theta) and np.array_equal(ops[0].noise, ops[1].noise)
