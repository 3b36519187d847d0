"""Convergence claims of erm_geometry: Theorem 3.2, equations (13)-(16), Corollary 3.6, Theorem A.1.

Monte-Carlo assertions are one-sided with a 4-standard-error margin (false-alarm rate about
3e-5 per assertion under a normal approximation); seeds are fixed, so the run is deterministic.
Slopes are least-squares fits of log(mean excess) on log(n) or log(T).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

from reference.algorithms import erm_geometry as eg
from reference.geometry.sets import GroupL1L2Ball, L1Ball, L2Ball, NuclearBall, Simplex
from reference.geometry.width import width_l2_ball
from reference.audit.rates import fit_rate
from reference.audit.standards import assert_bound_bites, assert_rate

from .convergence import l1_vs_l2_table, linear_excess, loglog_slope, private_md_excess, signal_data
from .helpers import LinearLoss, MatrixLinearLoss, SquaredLoss, unit_rows


def _mean_se(values):
    v = np.asarray(values, dtype=float)
    return float(v.mean()), float(v.std(ddof=1) / math.sqrt(len(v)))


def _theorem_3_2_excess(n, eps, delta, p, seeds, frozen_at=None):
    """Excesses of Algorithm 1 (paper calibration) on the linear loss over the unit l2 ball with the
    (T, eta) of the proof of Theorem 3.2, the explicit bound, and the trivial bound 2 ||gbar|| (the
    loss range over C). Control (``frozen_at=n0``): T, eta and sigma computed for n0 whatever the
    data's n (a port that never rescales with n; its excess does not decay)."""
    X, y = signal_data(n, p, seed=n)
    pot = eg.EuclideanPotential(L2Ball(p, 1.0))
    T, eta = eg.theorem_3_2_parameters(frozen_at or n, eps, delta, 1.0, pot)
    sigma = eg.paper_sigma_algorithm1(eps, delta, 1.0, frozen_at or n, T)
    ex = []
    for s in range(seeds):
        res = eg.noisy_mirror_descent(X, y, LinearLoss(), pot, epsilon=eps, delta=delta, lipschitz=1.0, T=T,
                                      eta=eta, rng=np.random.default_rng(s), sigma=sigma)
        ex.append(linear_excess(res.theta, X, pot.ball))
    return ex, eg.theorem_3_2_bound(pot, 1.0, res.sigma, T, eta), 2 * float(np.linalg.norm(X.mean(axis=0)))


@pytest.mark.claim("erm_geometry:Theorem 3.2")
def test_theorem_3_2_explicit_bound_and_rate_in_n():
    """Linear loss on the unit l2 ball in R^5, Euclidean potential, T and eta of the proof of
    Theorem 3.2, paper calibration, eps = 0.5, n = 800, 1600, 3200 (8 seeds each).

    Explicit bound R/(eta T) + eta (L^2 r^2 + sigma^2 (G^2 + r^2)): asserted only where it is below the
    loss range 2 ||gbar|| = 1.81 (n = 1600: 1.17; n = 3200: 0.63; at n = 800 it is 2.01 and could
    not fail, so it is not asserted there).
    Rate: the theorem is O(log(n/delta) ... / (eps n)), slope -1 up to log factors; on this grid
    the fitted slope is about -0.70 (the factor ln^2(T/delta)/ln(n/delta) and the burn-in from
    theta_1 = 0 flatten it; the bound's own slope here is -0.85). Asserted: the 95% bootstrap
    interval is consistent with -1 allowing 0.3 for those log factors (relation at_most) and
    excludes the nearest wrong exponent -1/2 (a sqrt(n) rate). Negative control: the same fit for a
    run whose T, eta and sigma are those of n = 800 at every n (no decay) is refused by the same
    assertion."""
    p, eps, delta, ns = 5, 0.5, 1e-5, (800, 1600, 3200)
    errors = []
    for n in ns:
        ex, bound, trivial = _theorem_3_2_excess(n, eps, delta, p, 8)
        m, se = _mean_se(ex)
        if n >= 1600:
            assert_bound_bites(bound, trivial, what=f"Theorem 3.2 bound at n = {n}")
            assert m <= bound + 4 * se
        else:
            assert bound >= trivial      # the reason it is not asserted at n = 800
        errors.append(ex)
    fit = fit_rate(ns, errors, np.random.default_rng(0))
    assert_rate(fit, -1.0, -0.5, relation="at_most", tolerance=0.3, what="Theorem 3.2 rate in n")
    control = fit_rate(ns, [_theorem_3_2_excess(n, eps, delta, p, 8, frozen_at=800)[0] for n in ns],
                       np.random.default_rng(0))
    with pytest.raises(AssertionError):
        assert_rate(control, -1.0, -0.5, relation="at_most", tolerance=0.3, what="control")


@pytest.mark.claim("erm_geometry:eq (13)")
@pytest.mark.claim("erm_geometry:eq (14)")
def test_l1_ball_beats_l2_ball_at_the_same_p_and_grows_slower():
    """Same data, same (eps, delta), Theorem 3.2 parameters: at p = 128 the l1 ball's excess risk
    (l_q potential) is below the l2 ball's (Euclidean potential), and from p = 8 to p = 128 the l2
    ball's excess grows by a larger factor than the l1 ball's (sqrt(p) vs log p geometry).
    The measured table for larger n and p is in docs/erm_geometry.md (deep test below)."""
    rows = l1_vs_l2_table(ps=(8, 128), n=500, seeds=4)
    small, large = rows
    (m2, s2, _), (m1, s1, _) = large["l2"], large["l1"]
    assert m1 + 4 * s1 < m2 - 4 * s2
    assert large["l2"][0] / small["l2"][0] > large["l1"][0] / small["l1"][0]


@pytest.mark.deep
@pytest.mark.claim("erm_geometry:eq (13)")
@pytest.mark.claim("erm_geometry:eq (14)")
def test_l1_vs_l2_table_of_the_docs():
    rows = l1_vs_l2_table(ps=(8, 64, 512), n=2000, seeds=10)
    ratios = [r["l2"][0] / r["l1"][0] for r in rows]
    assert all(r > 1 for r in ratios) and ratios == sorted(ratios)


@pytest.mark.claim("erm_geometry:Corollary 3.6")
def test_noisy_mirror_descent_decays_like_one_over_sqrt_T():
    """Non-private noisy MD with Gaussian noise of a random covariance Sigma on the unit l2 ball
    (symmetric, Q = C), eta of Corollary 3.6. Mean excess <= 2 sqrt(R (L^2 r^2 + lambda_max (G^2 + r^2))/T)
    + 4 SE at every T, and slope in T <= -0.35 (the printed bound does not decay in T)."""
    p, n = 6, 50
    X, y = signal_data(n, p, seed=3)
    rng = np.random.default_rng(4)
    A = rng.standard_normal((p, p))
    Sigma = A @ A.T / p
    lam = float(np.linalg.eigvalsh(Sigma).max())
    pot = eg.EuclideanPotential(L2Ball(p, 1.0))
    Ts, means = (16, 64, 256, 1024), []
    for T in Ts:
        eta = eg.corollary_3_6_parameters(pot, 1.0, lam, T)
        ex = [linear_excess(eg.noisy_mirror_descent_nonprivate(X, y, LinearLoss(), pot, T=T, eta=eta, noise_cov=Sigma,
                                                               rng=np.random.default_rng(s)).theta, X, pot.ball)
              for s in range(12)]
        m, se = _mean_se(ex)
        assert m <= eg.corollary_3_6_bound(pot, 1.0, lam, T, eta) + 4 * se
        means.append(m)
    assert loglog_slope(Ts, means) <= -0.35   # measured -0.43 (seeded); the printed bound has slope 0


@pytest.mark.claim("erm_geometry:Theorem A.1")
def test_strongly_convex_steps_converge_faster():
    """Algorithm 1 with eta_t = 2/(Delta t) on a mu-strongly convex squared loss (Delta = 2 mu w.r.t.
    Psi = ||.||^2/2, see docs/errata.md), fixed sigma: the mean average-iterate excess is below the
    explicit Theorem A.1 bound Delta B(theta*, theta_1)/(2T) + 2K(H_(T+1) - 1)/(Delta T) and decays
    like log(T)/T (slope <= -0.6), faster than the constant-step 1/sqrt(T) of Theorem 3.2."""
    p, n, mu, sigma = 3, 40, 1.0, 0.5
    rng = np.random.default_rng(8)
    X, y = unit_rows(rng, n, p), rng.uniform(-1, 1, n)
    loss = SquaredLoss(mu)
    pot = eg.EuclideanPotential(L2Ball(p, 1.0))
    H = X.T @ X / n + mu * np.eye(p)
    star = np.linalg.solve(H, X.T @ y / n)
    assert np.linalg.norm(star) < 1   # interior minimiser: L* in closed form
    Lstar = eg.empirical_loss(loss, star, X, y)
    Lvec = lambda th: 0.5 * np.mean((th @ X.T - y) ** 2, axis=-1) + 0.5 * mu * np.sum(th * th, axis=-1)  # noqa: E731
    assert Lvec(star) == pytest.approx(Lstar, rel=1e-12)
    L = 1.0 + 1.0 + mu    # ||(x.theta - y) x + mu theta|| <= 2 + mu on the unit ball
    Ts, means = (32, 128, 512), []
    for T in Ts:
        ex = []
        for s in range(12):
            res = eg.noisy_mirror_descent(X, y, loss, pot, epsilon=1.0, delta=1e-5, lipschitz=L, T=T,
                                          eta=eg.strongly_convex_step_sizes(2 * mu), sigma=sigma,
                                          rng=np.random.default_rng(s))
            avg_loss = float(np.mean(Lvec(res.iterates[:T])))
            ex.append(avg_loss - Lstar)
        m, se = _mean_se(ex)
        bound = eg.theorem_A1_bound(pot, L, sigma, T, 2 * mu, pot.bregman(star, pot.minimizer()))
        assert m <= bound + 4 * se
        means.append(m)
    assert loglog_slope(Ts, means) <= -0.6   # measured -0.70 (seeded); log(T)/T has local slope -0.8 here


@pytest.mark.claim("erm_geometry:Theorem A.1")
def test_theorem_A1_T_and_steps():
    pot = eg.EuclideanPotential(L2Ball(4, 2.0))
    G = width_l2_ball(4)
    assert eg.theorem_A1_T(100, 0.5, pot) == math.floor((2.0 * 100 * 0.5) ** 2 / (G * G + 4.0))
    eta = eg.strongly_convex_step_sizes(3.0)
    assert [eta(t) for t in (1, 2, 10)] == [2 / 3, 1 / 3, 2 / 30]


def _random_pair_in_ball(rng, pot, shape):
    x = pot.ball.lmo(rng.standard_normal(shape)) * rng.random()
    y = pot.ball.lmo(rng.standard_normal(shape)) * rng.random()
    return x, y


@pytest.mark.claim("erm_geometry:eq (15)")
@given(seed=st.integers(0, 2**32 - 1), p=st.integers(2, 9), block=st.integers(1, 3), mix=st.floats(0, 1))
def test_group_potential_is_1_strongly_convex_and_its_range(seed, p, block, mix):
    pot = eg.GroupPotential(GroupL1L2Ball(p, min(block, p), 1.0))
    rng = np.random.default_rng(seed)
    a, b = _random_pair_in_ball(rng, pot, (p,))
    x = mix * a + (1 - mix) * b          # points inside the ball, some on blocks' boundaries
    y = b
    assert pot.bregman(x, y) >= 0.5 * pot.q_norm(x - y) ** 2 - 1e-12
    top = np.zeros(p)
    top[0] = 1.0
    assert pot.range == pytest.approx(pot.psi(top), rel=1e-12)   # max over C: a unit vector in one block
    mb = math.ceil(p / block)
    if mb >= 3:
        assert pot.range <= math.e * math.log(mb) / (1 + 1 / math.log(mb)) * (1 + 1e-12)   # O(log(p/k))


@pytest.mark.claim("erm_geometry:eq (16)")
@given(seed=st.integers(0, 2**32 - 1), m=st.integers(2, 4))
def test_nuclear_potential_is_1_strongly_convex_in_nuclear_norm(seed, m):
    pot = eg.NuclearPotential(NuclearBall((m, m), 1.0))
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((m, m))
    x *= rng.random() / np.linalg.norm(x, "nuc")
    y = rng.standard_normal((m, m))
    y *= rng.random() / np.linalg.norm(y, "nuc")
    assert pot.bregman(x, y) >= 0.5 * pot.q_norm(x - y) ** 2 - 1e-12


@pytest.mark.claim("erm_geometry:eq (16)")
def test_matrix_mirror_descent_stays_in_the_nuclear_ball():
    rng = np.random.default_rng(2)
    n, m = 15, 3
    X = rng.standard_normal((n, m, m))
    X /= np.linalg.norm(X.reshape(n, -1), axis=1)[:, None, None]
    pot = eg.NuclearPotential(NuclearBall((m, m), 1.0))
    res = eg.noisy_mirror_descent(X, np.zeros(n), MatrixLinearLoss(), pot, epsilon=1.0, delta=1e-5, lipschitz=1.0,
                                  T=20, eta=0.3, rng=np.random.default_rng(0))
    assert res.noise.shape == (20, m, m) and len(res.ledger) == 20
    for th in res.iterates:
        assert pot.ball.contains(th, atol=1e-10)


@pytest.mark.claim("erm_geometry:Fact 3.4")
@given(seed=st.integers(0, 2**32 - 1), p=st.integers(2, 12), radius=st.floats(0.3, 3.0))
def test_lq_potential_resolved_is_1_strongly_convex_in_Q_norm_and_printed_is_not_in_Qq(seed, p, radius):
    rng = np.random.default_rng(seed)
    ball = L1Ball(p, radius)
    pot = eg.LqPotential(ball)
    x, y = ball.lmo(rng.standard_normal(p)) * rng.random(), ball.project(rng.standard_normal(p))
    assert pot.bregman(x, y) >= 0.5 * pot.q_norm(x - y) ** 2 - 1e-12
    printed = eg.LqPotential(ball, constant="paper")
    qq = printed.quotient_norm   # ||.||_{Q,q} = 2^(1/q-1) ||.||_q / r on the l1 ball (Fact 3.4; test_fidelity.py)
    assert printed.bregman(x, y) >= 0.25 * qq(x - y) ** 2 * (1 - 1e-9) - 1e-15   # modulus 1/2 holds


@pytest.mark.claim("erm_geometry:Fact 3.4")
def test_printed_lq_constant_fails_modulus_one_somewhere():
    ball = L1Ball(4, 1.0)
    printed = eg.LqPotential(ball, constant="paper")
    x, y = np.array([0.5, 0, 0, 0]), np.array([-0.5, 0, 0, 0])
    qq = printed.quotient_norm   # the quotient norm of Fact 3.4, not ||.||_q (erm_geometry-E08)
    assert printed.bregman(x, y) < 0.5 * qq(x - y) ** 2


@pytest.mark.claim("erm_geometry:Theorem 3.2")
def test_arbitrary_theta_1_breaks_the_proof_step_and_argmin_psi_does_not():
    """The proof bounds B(theta*, theta_1) by max_C Psi for an 'arbitrary' theta_1 (erm_geometry-E02):
    Psi = ||.||^2/2 on the unit l2 ball, theta* = e_1, theta_1 = -e_1 gives B = 2 > max Psi = 1/2.
    With theta_1 = argmin_C Psi (the default) B(theta*, theta_1) <= R_Psi for every theta* in C."""
    pot = eg.EuclideanPotential(L2Ball(3, 1.0))
    e1 = np.array([1.0, 0, 0])
    assert pot.bregman(e1, -e1) == pytest.approx(2.0) and pot.range == pytest.approx(0.5)
    rng = np.random.default_rng(0)
    for p in _some_potentials():
        for _ in range(20):
            star = p.ball.lmo(rng.standard_normal(p.ball.shape)) * rng.random()
            if isinstance(p.ball, Simplex):
                star = rng.dirichlet(np.ones(p.ball.dim))
            assert p.bregman(star, p.minimizer()) <= p.range + 1e-12


def _some_potentials():
    return [eg.EuclideanPotential(L2Ball(3, 2.0)), eg.EuclideanPotential(L1Ball(3, 1.0)),
            eg.EntropyPotential(Simplex(4)), eg.LqPotential(L1Ball(5, 1.0)),
            eg.GroupPotential(GroupL1L2Ball(6, 2, 1.0))]


@pytest.mark.claim("erm_geometry:Claim A.2")
def test_claim_A2_needs_delta_over_2():
    """f = mu/2 ||theta||^2 is Delta = 2 mu strongly convex w.r.t. Psi = ||.||^2/2 in Section 2.2's sense
    (checked on random points); its linearisation gap is exactly (Delta/2) B, so Claim A.2's Delta B fails."""
    mu, Delta = 0.7, 1.4
    pot = eg.EuclideanPotential(L2Ball(3, 5.0))
    f = lambda th: 0.5 * mu * th @ th  # noqa: E731
    rng = np.random.default_rng(0)
    for _ in range(50):
        a, b, al = rng.standard_normal(3), rng.standard_normal(3), float(rng.random())
        lhs = f(al * a + (1 - al) * b)
        rhs = al * f(a) + (1 - al) * f(b) - Delta * al * (1 - al) / 2 * pot.bregman(a, b)
        assert lhs <= rhs + 1e-12
        gap = f(a) - f(b) - mu * b @ (a - b)
        assert gap == pytest.approx(Delta / 2 * pot.bregman(a, b), rel=1e-12)
        if np.any(a != b):
            assert gap < Delta * pot.bregman(a, b)
