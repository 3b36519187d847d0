"""Privacy of saddle_point's Algorithms 1, 2, 3 and 5 (the reconstructed Propositions 3.3, 3.17, 4.3).

Independent references (none calls the code under test):
- the entropic iterate of the sample-free push/pull game in closed form, softmax(-eta sum c_s (1, -1));
- the log-probability ratio of softmax laws, computed here with scipy's log_softmax;
- Corollary 3.6's formula eps0 = eps / (2 sqrt(2 N log(1/delta))) and Prop 3.17's / 4.3's steps, written
  from the catalogue (the paper's reconstruction) and compared with the ledgers;
- the truncated geometric law C_M 2^-k in mpmath.
The per-vertex statements are exact; the sampled law tests use a randomized probability integral
transform (uniform exactly when each vertex is drawn from its iterate), Kolmogorov-Smirnov at a
fixed seed (false-alarm rate 1e-3 per test).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats
from scipy.special import log_softmax

from reference.algorithms import saddle_point as sp
from reference.privacy import accounting
from reference.privacy.mechanisms import exponential_mechanism_log_probabilities

from .helpers import push_pull_game, random_game


def _pit(samples, probs, rng):
    """Randomized PIT: F(J - 1) + V p_J, uniform when J ~ probs."""
    cdf = np.cumsum(probs, axis=1)
    rows = np.arange(len(samples))
    below = np.where(samples > 0, cdf[rows, np.maximum(samples - 1, 0)], 0.0)
    return below + rng.random(len(samples)) * probs[rows, samples]


@pytest.mark.claim("saddle_point:Vertex sampling law")
def test_output_vertices_are_drawn_from_the_iterates_along_whole_runs():
    rng = np.random.default_rng(20)
    game = random_game(rng, m=5, dx=6, dy=4, n=3000)
    r1 = sp.private_smd_vertices(game, 4.0, 1e-3, np.random.default_rng(1), T=1500, eta=0.05)
    r3 = sp.private_smd_bias_reduced(game, 4.0, 1e-3, np.random.default_rng(2), B=1, eta=0.1)
    for res in (r1, r3):
        for samples, iterates in ((res.samples_x, res.iterates_x), (res.samples_y, res.iterates_y)):
            assert len(samples) == len(iterates)
            assert np.ptp(iterates, axis=0).max() > 0.05           # the iterates move: not a fixed law
            u = _pit(samples, iterates, np.random.default_rng(3))
            assert stats.kstest(u, "uniform").pvalue > 1e-3


@pytest.mark.claim("saddle_point:Vertex sampling law")
def test_vertex_sampler_frequencies_match_x():
    x = np.array([0.5, 1e-3, 0.2, 0.0, 0.299])
    idx = sp.sample_vertices(x, 200_000, np.random.default_rng(21))
    counts = np.bincount(idx, minlength=x.size)
    assert counts[3] == 0
    keep = x > 0
    assert stats.chisquare(counts[keep], 200_000 * x[keep]).pvalue > 1e-3


@pytest.mark.claim("saddle_point:Theorem 3.4")
def test_iterate_is_the_exponential_mechanism_of_the_cumulative_gradients():
    """x_t = softmax(-eta G_t) is the exponential mechanism with scores -G_t, sensitivity Delta, at
    epsilon 2 eta Delta: the package's exponential mechanism gives the same law."""
    B, T, eta = 5, 6, 0.9
    flip = (0, 7, 12, 13)
    res = sp.private_smd_vertices(push_pull_game(B, T, flip=flip), 1.0, 1e-3, np.random.default_rng(0), T=T,
                                  eta=eta)
    c = np.where(np.isin(np.arange(B * T), flip), -1.0, 1.0)
    G = np.cumsum([0.0] + [c[s * B:(s + 1) * B].mean() for s in range(T - 1)])
    Delta = 2.0 / B
    for t in range(T):
        logp = exponential_mechanism_log_probabilities(-G[t] * np.array([1.0, -1.0]), Delta, 2 * eta * Delta)
        np.testing.assert_allclose(np.log(res.iterates_x[t]), logp, rtol=1e-10, atol=1e-12)


@pytest.mark.claim("saddle_point:Proposition 3.3 per-vertex")
@pytest.mark.claim("saddle_point:Theorem 3.4")
@pytest.mark.parametrize("position", [0, 3, 7])
def test_per_vertex_privacy_loss_is_at_most_eps0_and_reaches_it(position):
    """Worst pair: every record pushes x away from e_1 except one record of the first batch that pulls
    (S') or pushes (S). The exact log-ratio of the vertex law at step 2 tends to 4 eta L0 / B when x_2^1
    is tiny; eta = 20, B = 8 put it within 1% of eps0 = 10."""
    B, T, eta = 8, 3, 20.0
    S = sp.private_smd_vertices(push_pull_game(B, T), 1.0, 1e-3, np.random.default_rng(0), T=T, eta=eta)
    S2 = sp.private_smd_vertices(push_pull_game(B, T, flip=(position,)), 1.0, 1e-3, np.random.default_rng(0),
                                 T=T, eta=eta)
    eps0 = S.epsilon0
    assert eps0 == pytest.approx(4 * eta * 1.0 / B, rel=1e-15)
    assert {e.epsilon for e in S.ledger} == {eps0}
    loss = np.abs(np.log(S.iterates_x) - np.log(S2.iterates_x)).max()
    # independent: the closed-form iterates of the pair at step 2
    a = log_softmax(-eta * np.array([1.0, -1.0]))
    b = log_softmax(-eta * (B - 2) / B * np.array([1.0, -1.0]))
    assert loss == pytest.approx(np.abs(a - b).max(), rel=1e-9)
    assert loss <= eps0 * (1 + 1e-12)
    assert loss >= 0.99 * eps0


@pytest.mark.claim("saddle_point:Proposition 3.3")
@pytest.mark.parametrize("K,T,output", [(1, 40, "independent"), (3, 25, "independent"), (2, 30, "reuse")])
def test_algorithm1_ledger_is_proposition_3_3(K, T, output):
    eps, delta = 1.0, 1e-5
    game = random_game(np.random.default_rng(22), n=400)
    res = sp.private_smd_vertices(game, eps, delta, np.random.default_rng(0), T=T, K=K, output=output)
    N = 2 * (K + 1) * T if output == "independent" else 2 * K * T
    B = 400 // T
    eps0 = eps / (2 * math.sqrt(2 * N * math.log(1 / delta)))        # Cor 3.6, from the catalogue
    assert len(res.ledger) == res.n_samples == N
    assert all(e.kind == "exponential" and e.epsilon == pytest.approx(eps0, rel=1e-12) for e in res.ledger)
    assert res.eta == pytest.approx(eps0 * B / (4 * game.lipschitz), rel=1e-12)
    # Cor 3.6's composition of the ledger, and the accountant's certificate
    comp = math.sqrt(2 * N * math.log(1 / delta)) * eps0 + N * eps0 ** 2 / 2
    assert comp <= eps
    assert res.certified_epsilon <= eps and res.claimed_epsilon == eps


@pytest.mark.claim("saddle_point:Proposition 3.3")
def test_algorithm1_certified_calibration_is_tight_and_larger_than_the_papers():
    eps, delta = 1.0, 1e-5
    game = random_game(np.random.default_rng(23), n=200)
    paper = sp.private_smd_vertices(game, eps, delta, np.random.default_rng(0), T=20)
    cert = sp.private_smd_vertices(game, eps, delta, np.random.default_rng(0), T=20, calibration="certified")
    assert cert.certified_epsilon <= eps
    assert cert.certified_epsilon >= 0.999 * eps
    assert accounting.certify(cert.ledger, delta).epsilon == cert.certified_epsilon
    assert cert.eta > 1.5 * paper.eta          # Cor 3.6 spends only half of eps on its first term
    assert paper.certified_epsilon < 0.6 * eps


@pytest.mark.claim("saddle_point:Algorithm 2 sensitivity")
@given(seed=st.integers(0, 10**6), N=st.integers(0, 4), pos=st.integers(0, 10**6))
def test_algorithm2_moves_by_at_most_5_L0_over_B(seed, N, pos):
    M, B = 4, 3
    rng = np.random.default_rng(seed)
    atoms = rng.uniform(-1, 1, (2, 3, 3))
    atoms[1] = -np.sign(atoms[0])                 # the replacing record: opposite signs, |entries| = 1
    size = B * 2 ** (N + 1)
    data = np.zeros(size, dtype=int)
    data2 = data.copy()
    data2[pos % size] = 1
    g1, g2 = (sp.bias_reduced_gradient(sp.QuadraticSaddle(atoms, d, lipschitz=1.0), [0.2, 0.3, 0.5],
                                       [0.6, 0.1, 0.3], N, np.arange(size), M, np.random.default_rng(seed + 1))
              for d in (data, data2))
    CM = 1 / (2 * (1 - 2.0 ** -(M + 1)))
    bound = (2.0 ** -N + 2 / CM) / B
    move = max(np.abs(g1.gx - g2.gx).max(), np.abs(g1.gy - g2.gy).max())
    assert move <= bound * (1 + 1e-12) and bound <= 5.0 / B


@pytest.mark.claim("saddle_point:Proposition 3.17")
@pytest.mark.claim("saddle_point:Algorithm 3 stopping rule")
def test_algorithm3_runs_stay_within_the_data_and_the_filter():
    eps, delta, B, n = 1.0, 1e-5, 2, 1200
    game = random_game(np.random.default_rng(24), n=n)
    Gamma, M = sp.algorithm3_budget(n, B)
    eps0 = eps / (4 * math.sqrt(Gamma * math.log(1 / delta)))            # Prop 3.17 from the catalogue
    for seed in range(12):
        res = sp.private_smd_bias_reduced(game, eps, delta, np.random.default_rng(seed), B=B)
        assert res.epsilon0 == pytest.approx(eps0, rel=1e-12)
        assert res.data_used <= n // 2
        assert len(res.ledger) <= 2 * Gamma
        filt = accounting.FullyAdaptiveFilter(eps, delta)
        for event in res.ledger:
            filt.spend_event(event)                   # raises AccountingError if the filter must stop
        assert res.certified_epsilon <= eps


@pytest.mark.claim("saddle_point:Theorem 3.5")
@given(steps=st.lists(st.floats(1e-4, 0.6), min_size=1, max_size=60), eps=st.floats(0.2, 3.0),
       delta=st.floats(1e-8, 0.2))
def test_filter_never_lets_adversarial_steps_exceed_the_budget(steps, eps, delta):
    filt = accounting.FullyAdaptiveFilter(eps, delta)
    spent = []
    for e in steps:
        if not filt.can_spend(e):
            # it stops only when the next step would break the bound (checked independently, mpmath)
            with mpmath.workdps(40):
                s = mpmath.fsum(mpmath.mpf(v) ** 2 for v in spent + [e])
                assert mpmath.sqrt(2 * mpmath.log(1 / mpmath.mpf(delta)) * s) + s / 2 > eps * (1 - 1e-12)
            break
        filt.spend(e)
        spent.append(e)
    if spent:
        assert accounting.fully_adaptive_composition(spent, delta)[0] <= eps * (1 + 1e-12)


@pytest.mark.claim("saddle_point:Truncated geometric level")
def test_algorithm3_levels_follow_the_truncated_geometric_law():
    game = random_game(np.random.default_rng(25), n=4096)
    levels = np.concatenate([sp.private_smd_bias_reduced(game, 1.0, 1e-3, np.random.default_rng(s), B=1,
                                                         keep_iterates=False).levels for s in range(6)])
    M = sp.algorithm3_budget(4096, 1)[1]
    with mpmath.workdps(30):
        CM = 1 / (2 * (1 - mpmath.mpf(2) ** -(M + 1)))
        p = np.array([float(CM * mpmath.mpf(2) ** -k) for k in range(M + 1)])
    counts = np.bincount(levels, minlength=M + 1)
    expected = levels.size * p
    # pool the sparse tail so each cell expects >= 5
    k = int(np.argmax(np.cumsum(expected[::-1])[::-1] < 5)) or M + 1
    obs = np.r_[counts[:k - 1], counts[k - 1:].sum()]
    exp = np.r_[expected[:k - 1], expected[k - 1:].sum()]
    assert stats.chisquare(obs, exp).pvalue > 1e-3


@pytest.mark.claim("saddle_point:Proposition 4.3")
def test_algorithm5_ledger_and_exact_per_vertex_loss():
    eps, delta, n, d, K, tau = 1.0, 1e-5, 200, 4, 3, 7
    rng = np.random.default_rng(26)
    a, b = rng.uniform(-1, 1, (n, d)), rng.uniform(-1, 1, n)
    prob = sp.SimplexLeastSquares(a, b, lipschitz=2.0)
    res = sp.private_sco_anytime(prob, eps, delta, np.random.default_rng(0), K=K, tau=tau)
    t0 = math.ceil(n / tau)
    N_paper = K * (t0 + math.ceil((n - t0) / tau) + 1)          # the catalogue's count (Proof 4.4)
    N = K * (t0 + len(range(t0 + tau, n + 1, tau)) + 1)           # the draws of the loop
    assert N < N_paper                                          # tau does not divide n - t0 here
    assert res.n_samples == len(res.ledger) == N
    eta = min(eps / (8 * 2.0 * n * math.sqrt(2 * N_paper * math.log(1 / delta))), 1 / (8 * 2.0 * tau * n))
    assert res.eta == pytest.approx(eta, rel=1e-12)
    assert res.epsilon0 == pytest.approx(4 * eta * 2.0 * n, rel=1e-12)
    assert res.certified_epsilon <= eps
    # exact loss along the run: replay the same private estimates on the neighbour (record 0 replaced)
    a2, b2 = a.copy(), b.copy()
    a2[0], b2[0] = -np.sign(a[0]), 1.0
    for aa, bb, want in ((a, b, res.iterates_x), (a2, b2, None)):
        w = np.full(d, 1 / d)
        xs, x, A = [], w.copy(), 1.0
        for t in range(1, n + 1):
            xs.append(x)
            g = (aa[t - 1] @ res.estimates[t - 1] - bb[t - 1]) * aa[t - 1]
            w = np.exp(log_softmax(np.log(w) - res.eta * t * g))
            x = (A * x + (t + 1) * w) / (A + t + 1)
            A += t + 1
        if want is not None:
            np.testing.assert_allclose(np.array(xs), want, rtol=1e-9)
        else:
            loss = np.abs(np.log(np.array(xs)) - np.log(res.iterates_x)).max()
            assert 0 < loss <= res.epsilon0
