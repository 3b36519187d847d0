"""Theorem 3.20's utility (Algorithm 4, reconstructed): with probability at least 1 - beta the selected candidate's gap
is within alpha_3 + (the gap estimates' error) + 4 alpha_2 of the best candidate's, the proof's chain
Gap(x_i*, y_i*) <= s_i* + e_i* + 2 alpha_2 <= min_i s_i + alpha_3 + e_i* + 2 alpha_2 <= min_i Gap_i + alpha_3 + e_i*
+ 4 alpha_2 (Proof 3.25, events E_1..E_4).

What each term is here: Gap_i the exact population duality gap of candidate i (duality_gap's best responses);
alpha_3 = (2 Delta_s/eps)(log k + log(4/beta)) the exponential mechanism's (Theorem 3.24, probability >= 1 - beta/4);
alpha_2 the held-out scores' deviation from the population at the points they evaluate, whose Hoeffding bound is
B0 sqrt(2 log(8 k k'/beta)/m) (probability >= 1 - beta/4); e_i* the Frank-Wolfe estimates' suboptimality, measured
exactly: the paper bounds it by 4 R_FW through PVRFW (Theorem 3.22, Remark 3.23), which is not implemented
(saddle_point-E09: the package's private Frank-Wolfe stands in), so R_FW is replaced by the measured error and
Theorem 3.14's part (min_i Gap_i <= alpha_4) is Theorem 3.14's own claim.

At these sizes Hoeffding's alpha_2 is 8-20x the realised deviation and 4 alpha_2 exceeds the spread of the
candidates' gaps, so the chain with alpha_2 cannot fail; it is asserted with the realised deviation (and the realised
deviation is checked against alpha_2 in every run). The competitor, a selection that ignores the scores (uniform over
the k candidates), fails the same chain in about half of its draws.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from reference.algorithms import saddle_point as sp

from .test_utility import _structured_game


def _terms(game, res, eps, beta):
    A, P, R, u, v = game.A_bar, game.P, game.R, game.u_bar, game.v_bar
    Ah, uh, vh = game.batch_mean(res.parts[("holdout",)])

    def F_holdout(x, y):
        return float(x @ Ah @ y + 0.5 * x @ P @ x - 0.5 * y @ R @ y + uh @ x - vh @ y)

    gaps, errors, deviation = [], [], 0.0
    for i, (x, y) in enumerate(res.candidates):
        upper = game.value(x, sp.simplex_qp_min(R, -(A.T @ x - v)))        # max_y F(x_i, y)
        lower = game.value(sp.simplex_qp_min(P, A @ y + u), y)              # min_x F(x, y_i)
        gaps.append(upper - lower)
        errors.append((upper - max(game.value(x, yh) for yh in res.y_hats[i]))
                      + (min(game.value(xh, y) for xh in res.x_hats[i]) - lower))
        for yh in res.y_hats[i]:
            deviation = max(deviation, abs(F_holdout(x, yh) - game.value(x, yh)))
        for xh in res.x_hats[i]:
            deviation = max(deviation, abs(F_holdout(xh, y) - game.value(xh, y)))
    m = len(res.parts[("holdout",)])
    alpha3 = 2 * res.score_sensitivity / eps * (math.log(res.k) + math.log(4 / beta))
    alpha2 = res.range_bound * math.sqrt(2 * math.log(8 * res.k * res.k_prime / beta) / m)
    return np.array(gaps), np.array(errors), deviation, alpha3, alpha2


def _check(n, beta, B, eps, runs, seed):
    atoms = _structured_game(np.random.default_rng(0))
    game = sp.QuadraticSaddle(atoms, np.random.default_rng(seed).integers(0, 8, size=n), weights=np.full(8, 1 / 8))
    fails, uniform_fails, worst_ratio = 0, 0.0, 0.0
    for s in range(runs):
        res = sp.private_boosted_saddle_point(game, eps, 1e-3, np.random.default_rng(1000 * seed + s), beta=beta, B=B)
        gaps, errors, deviation, alpha3, alpha2 = _terms(game, res, eps, beta)
        assert np.all(errors >= -1e-12) and np.all(gaps >= -1e-12)
        worst_ratio = max(worst_ratio, deviation / alpha2)

        def within(j):
            return gaps[j] <= gaps.min() + alpha3 + errors[j] + 4 * deviation

        fails += not within(res.index)
        uniform_fails += np.mean([not within(j) for j in range(res.k)])
    # E_2 (Hoeffding) at its claimed probability 1 - beta/4: here in every run
    assert worst_ratio <= 1.0
    # the chain fails only off E_3 (probability <= beta/4, exact from the mechanism's law); false alarm 1e-3
    limit = stats.binom.ppf(1 - 1e-3, runs, beta / 4)
    assert fails <= limit
    assert uniform_fails > limit, (uniform_fails, limit)
    return fails, uniform_fails, worst_ratio, limit


@pytest.mark.claim("saddle_point:Theorem 3.20")
@pytest.mark.parametrize("n,beta,B,eps", [(6000, 0.25, 4, 4.0), (9000, 0.1, 5, 2.0)])
def test_theorem_3_20_selected_gap_is_within_the_chain_of_the_best(n, beta, B, eps):
    """40 runs each on the 4x4 structured game (k = 4, k' = 7 at beta = 1/4; k = 6, k' = 9 at beta = 1/10): the
    algorithm's chain failed in 0 runs of 40 (limit 8 and 5 at false alarm 1e-3), uniform selection in about 23 and 19;
    the realised deviation is at most 0.13 and 0.045 alpha_2."""
    _check(n, beta, B, eps, 40, 1)


@pytest.mark.deep
@pytest.mark.claim("saddle_point:Theorem 3.20")
def test_theorem_3_20_chain_over_many_runs():
    """The same on 300 runs at beta = 1/4 (about 20 s)."""
    _check(6000, 0.25, 4, 4.0, 300, 2)
