"""Algorithms 1, 2, 3, 5 of saddle_point line by line: closed-form trajectories, single pass, the
output rule, determinism, and bad input (iterates off the simplex, gradients beyond the l_inf
Lipschitz bound, batch schedules exceeding n) refused with an error naming the constraint.

Independent references: the sample-free push/pull game (tests/saddle_point/helpers.py), whose
iterates are x_{t+1} = softmax(-eta sum_{s<=t} c_s) with c_s the batch mean of the rows' constants,
computed here from the paper's line 6, and the anytime online-to-batch identity
x_t = sum_{s<=t} s w_s / (t (t+1) / 2) recomputed from the learner's iterates.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import softmax

from reference.algorithms import saddle_point as sp
from reference.errors import AssumptionViolation, ParameterError, ShapeError

from .helpers import CubicSaddle, push_pull_game, random_game


@pytest.mark.claim("saddle_point:Algorithm 1 lines")
def test_algorithm1_iterates_are_the_closed_form_entropic_steps():
    B, T, eta = 4, 6, 0.7
    flip = (1, 9, 10, 22)
    game = push_pull_game(B, T, flip=flip)
    res = sp.private_smd_vertices(game, 1.0, 1e-3, np.random.default_rng(1), T=T, K=2, eta=eta)
    c = np.where(np.isin(np.arange(B * T), flip), -1.0, 1.0)       # grad_x f = c (1, -1)
    cum = 0.0
    for t in range(T):
        want = softmax(-eta * cum * np.array([1.0, -1.0]))
        np.testing.assert_allclose(res.iterates_x[t], want, rtol=1e-12, atol=1e-15)
        cum += c[t * B:(t + 1) * B].mean()
    assert res.data_used == B * T and res.calibration == "explicit"


@pytest.mark.claim("saddle_point:Algorithm 1 lines")
def test_algorithm1_y_player_ascends_and_x_player_descends():
    """A 2x2 game where y's best response is e_1 whatever x: the y iterate moves towards e_1, x away
    from the row with the larger payoff (a sign error in line 6 reverses either)."""
    A = np.array([[2.0, -1.0], [1.0, -2.0]]) / 2
    game = sp.QuadraticSaddle(A, np.zeros(400, dtype=int))
    res = sp.private_smd_vertices(game, 1.0, 1e-3, np.random.default_rng(2), T=100, eta=0.2)
    assert res.iterates_y[-1][0] > 0.95
    assert res.iterates_x[-1][1] > 0.95


@pytest.mark.claim("saddle_point:Algorithm 1 lines")
def test_one_record_moves_only_the_iterates_after_its_batch():
    """Single pass, disjoint batches (A3): record i is in batch floor(i / B) only."""
    B, T = 3, 5
    base = sp.private_smd_vertices(push_pull_game(B, T), 1.0, 1e-3, np.random.default_rng(0), T=T, eta=0.5)
    for i in range(B * T):
        res = sp.private_smd_vertices(push_pull_game(B, T, flip=(i,)), 1.0, 1e-3, np.random.default_rng(0),
                                      T=T, eta=0.5)
        s = i // B
        np.testing.assert_array_equal(res.iterates_x[:s + 1], base.iterates_x[:s + 1])
        assert np.all(np.abs(res.iterates_x[s + 1:] - base.iterates_x[s + 1:]).max(axis=1) > 0)


@pytest.mark.claim("saddle_point:Algorithm 1 lines")
def test_outputs_are_averages_of_sampled_vertices():
    """Line 8 (Alg 1) / line 11 (Alg 3): the output is the mean of T (tau) vertices, not of iterates."""
    rng = np.random.default_rng(3)
    game = random_game(rng, n=600)
    for res in (sp.private_smd_vertices(game, 1.0, 1e-3, rng, T=40),
                sp.private_smd_bias_reduced(game, 1.0, 1e-3, rng, B=2)):
        for out, idx, d in ((res.x, res.samples_x, game.dx), (res.y, res.samples_y, game.dy)):
            assert idx.size == res.T
            np.testing.assert_allclose(out, np.bincount(idx, minlength=d) / res.T, atol=1e-15)
            np.testing.assert_allclose(out * res.T, np.round(out * res.T), atol=1e-9)


@pytest.mark.claim("saddle_point:Algorithm 2 estimator")
def test_algorithm2_is_the_multilevel_combination_of_its_four_terms():
    rng = np.random.default_rng(4)
    game = random_game(rng, n=64)
    x, y = np.full(game.dx, 1 / game.dx), np.full(game.dy, 1 / game.dy)
    M = 3
    for N in range(M + 1):
        g = sp.bias_reduced_gradient(game, x, y, N, np.arange(2 * 2 ** (N + 1)), M, rng)
        pN = 2.0 ** -N / (2 * (1 - 2.0 ** -(M + 1)))               # C_M 2^-N
        G0, Gp, Go, Ge = g.terms
        assert g.weight == pytest.approx(1 / pN, rel=1e-15)
        np.testing.assert_allclose(g.gx, G0[0] + (Gp[0] - (Go[0] + Ge[0]) / 2) / pN, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(g.gy, G0[1] + (Gp[1] - (Go[1] + Ge[1]) / 2) / pN, rtol=1e-12, atol=1e-14)


@pytest.mark.claim("saddle_point:Algorithm 3 stopping rule")
def test_algorithm3_step_count_follows_the_stopping_rule():
    """tau is the first t with sum_{s<=t} (2^(N_s+1) + 2) + 2^(M+1) + 2 > Gamma, and each batch is
    fresh (data used = B sum 2^(N_t+1))."""
    rng = np.random.default_rng(5)
    game = random_game(rng, n=2048)
    for seed in range(5):
        res = sp.private_smd_bias_reduced(game, 1.0, 1e-3, np.random.default_rng(seed), B=4)
        Gamma, M = sp.algorithm3_budget(2048, 4)
        assert (Gamma, M) == (256, 5)
        cost = 2.0 ** (res.levels + 1) + 2
        reserve = 2 ** (M + 1) + 2
        assert cost.sum() + reserve > Gamma                     # it stopped because the next step might not fit
        assert cost[:-1].sum() + reserve <= Gamma               # the last step was allowed before its level
        assert res.data_used == 4 * int((2 ** (res.levels + 1)).sum()) <= 2048
        assert len(res.ledger) == 2 * int(cost.sum())


@pytest.mark.claim("saddle_point:Lemma 4.1")
def test_algorithm5_averages_are_the_anytime_online_to_batch_weights():
    rng = np.random.default_rng(6)
    prob = sp.SimplexLeastSquares(rng.uniform(-1, 1, (300, 5)), rng.uniform(-1, 1, 300))
    res = sp.private_sco_anytime(prob, 1.0, 1e-3, rng, K=3, tau=7, eta=0.002)
    w, xs = res.iterates_w, res.iterates_x
    t = np.arange(1, len(w) + 1)
    want = np.cumsum(t[:, None] * w, axis=0) / (t * (t + 1) / 2)[:, None]
    np.testing.assert_allclose(xs, want, rtol=1e-10, atol=1e-13)
    # the learner's step: w_{t+1} proportional to w_t exp(-eta t g_t), g_t the record gradient at x_hat_t
    for s in range(len(w) - 1):
        g = (prob.a[s] @ res.estimates[s] - prob.b[s]) * prob.a[s]
        np.testing.assert_allclose(w[s + 1], softmax(np.log(w[s]) - res.eta * (s + 1) * g), rtol=1e-10)
    # stale estimates: refreshed at t <= t0 and every tau steps after, otherwise repeated
    for s in range(1, len(w)):
        tt = s + 1
        if not (tt <= res.t0 or (tt - res.t0) % res.tau == 0):
            np.testing.assert_array_equal(res.estimates[s], res.estimates[s - 1])
    # Lemma 4.1 deterministic inequality with F the empirical objective and every vertex u
    F = prob
    grads = [prob.a.T @ (prob.a @ x - prob.b) / prob.n for x in xs]
    A_T = len(w) * (len(w) + 1) / 2
    for j in range(prob.d):
        u = np.eye(prob.d)[j]
        rhs = sum((s + 1) * grads[s] @ (w[s] - u) for s in range(len(w)))
        assert A_T * (F.value(xs[-1]) - F.value(u)) <= rhs + 1e-9


@pytest.mark.claim("saddle_point:Determinism")
def test_same_seed_same_bits():
    game = random_game(np.random.default_rng(7), n=300)
    a = sp.private_smd_bias_reduced(game, 1.0, 1e-3, np.random.default_rng(11), B=2)
    b = sp.private_smd_bias_reduced(game, 1.0, 1e-3, np.random.default_rng(11), B=2)
    np.testing.assert_array_equal(a.x, b.x)
    np.testing.assert_array_equal(a.levels, b.levels)
    c = sp.private_smd_vertices(game, 1.0, 1e-3, np.random.default_rng(11), T=30)
    d = sp.private_smd_vertices(game, 1.0, 1e-3, np.random.default_rng(11), T=30)
    np.testing.assert_array_equal(c.samples_x, d.samples_x)


# ---------------------------------------------------------------------------
# Bad input


@pytest.mark.claim("saddle_point:Bad input")
def test_iterates_off_the_simplex_are_refused():
    game = random_game(np.random.default_rng(8))
    rng = np.random.default_rng(0)
    with pytest.raises(AssumptionViolation, match="simplex"):
        sp.private_smd_vertices(game, 1.0, 1e-3, rng, T=10, x1=[0.5, 0.5, 0.5, -0.5])
    with pytest.raises(AssumptionViolation, match="interior"):
        sp.private_smd_vertices(game, 1.0, 1e-3, rng, T=10, y1=[1.0, 0.0, 0.0])
    with pytest.raises(AssumptionViolation, match="simplex"):
        sp.bias_reduced_gradient(game, [0.3, 0.3, 0.3, 0.3], [1 / 3] * 3, 0, np.arange(2), 2, rng)
    with pytest.raises(ShapeError):
        sp.private_smd_vertices(game, 1.0, 1e-3, rng, T=10, x1=[0.5, 0.5])


@pytest.mark.claim("saddle_point:Bad input")
def test_gradients_beyond_the_linf_lipschitz_bound_are_refused():
    rng = np.random.default_rng(9)
    atoms = rng.uniform(-1, 1, (3, 2, 2))
    with pytest.raises(AssumptionViolation, match="Lipschitz"):
        sp.QuadraticSaddle(atoms * 2.0, rng.integers(0, 3, 50), lipschitz=1.0)
    with pytest.raises(AssumptionViolation, match="L0"):
        sp.SimplexLeastSquares(rng.uniform(-1, 1, (20, 3)), rng.uniform(-1, 1, 20), lipschitz=0.1)
    cubic = CubicSaddle(atoms, rng.integers(0, 3, 64), a=1.0)
    cubic.lipschitz = 0.05                      # a declared L0 the gradients exceed
    with pytest.raises(AssumptionViolation, match="L0"):
        sp.private_smd_vertices(cubic, 1.0, 1e-3, np.random.default_rng(0), T=4)
    with pytest.raises(AssumptionViolation, match="L0"):
        sp.bias_reduced_gradient(cubic, [0.5, 0.5], [0.5, 0.5], 1, np.arange(8), 2, np.random.default_rng(0))


@pytest.mark.claim("saddle_point:Bad input")
def test_batch_schedules_exceeding_n_are_refused():
    game = random_game(np.random.default_rng(10), n=100)
    rng = np.random.default_rng(0)
    with pytest.raises(ParameterError, match="T <= n"):
        sp.private_smd_vertices(game, 1.0, 1e-3, rng, T=101)
    with pytest.raises(ParameterError, match="exceeds the data"):
        sp.private_smd_vertices(game, 1.0, 1e-3, rng, T=20, B=6)
    with pytest.raises(ParameterError, match="exceeds the data"):
        sp.private_smd_bias_reduced(game, 1.0, 1e-3, rng, B=4, Gamma=30)
    with pytest.raises(ParameterError, match="Gamma"):
        sp.private_smd_bias_reduced(game, 1.0, 1e-3, rng, B=10)          # Gamma = 5 < 8: no level fits
    with pytest.raises(ParameterError, match="0..M"):
        sp.bias_reduced_gradient(game, [0.25] * 4, [1 / 3] * 3, 3, np.arange(16), 2, rng)
    prob = sp.SimplexLeastSquares(np.ones((10, 2)) / 2, np.zeros(10))
    with pytest.raises(ParameterError, match="t0"):
        sp.private_sco_anytime(prob, 1.0, 1e-3, rng, K=1, tau=2, t0=11)


@pytest.mark.claim("saddle_point:Bad input")
def test_bad_privacy_parameters_are_refused():
    game = random_game(np.random.default_rng(12), n=100)
    rng = np.random.default_rng(0)
    for eps, delta in ((0.0, 1e-3), (1.0, 0.0), (1.0, 1.0), (float("nan"), 1e-3)):
        with pytest.raises(ParameterError):
            sp.private_smd_vertices(game, eps, delta, rng, T=10)
    with pytest.raises(ParameterError, match="8 log"):
        sp.private_smd_vertices(game, 9.0, 0.4, rng, T=10)          # eps > 8 log(1/delta): Cor 3.6 fails
    with pytest.raises(ParameterError, match="calibration"):
        sp.private_smd_vertices(game, 1.0, 1e-3, rng, T=10, calibration="magic")


def test_batch_means_are_those_of_the_batch_read_whichever_was_read_before():
    """QuadraticSaddle keeps its last batch's means (Algorithm 2 takes four gradients on one batch): whatever batch
    comes next, the means are its records' plain averages (a second method: a loop over the records), and the kept
    arrays cannot be written to."""
    gen = np.random.default_rng(3)
    atoms, u, v = gen.uniform(-1, 1, (3, 3, 2)), gen.uniform(-1, 1, (3, 3)), gen.uniform(-1, 1, (3, 2))
    data = gen.integers(0, 3, size=40)
    game = sp.QuadraticSaddle(atoms, data, u=u, v=v)
    batches = [np.arange(0, 2), np.arange(0, 2), np.arange(2, 10), np.arange(0, 2), np.arange(10, 40), np.arange(0, 2),
               np.arange(5, 7), np.arange(7, 9)]
    for idx in batches:
        A, ub, vb = game.batch_mean(idx)
        np.testing.assert_allclose(A, sum(atoms[data[i]] for i in idx) / idx.size, rtol=1e-14, atol=1e-15)
        np.testing.assert_allclose(ub, sum(u[data[i]] for i in idx) / idx.size, rtol=1e-14, atol=1e-15)
        np.testing.assert_allclose(vb, sum(v[data[i]] for i in idx) / idx.size, rtol=1e-14, atol=1e-15)
        with pytest.raises(ValueError):
            A[0, 0] = 0.0
