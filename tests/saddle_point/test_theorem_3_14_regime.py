"""Why the audit's Theorem 3.14 row on the pure-equilibrium game fitted gap/(M+1) at -0.36 on n = 4k..256k
(saddle_point-E14): the sizes, not the reference.

Algorithm 3 under Theorem 3.14's recipe takes tau ~ Gamma / E[2^(N+1) + 2] steps of size eta. Mirror descent with exact
gradients, the same eta and tau, no sampling, no batches and no privacy (written here) has, on the pure game, the gap of
its averaged iterates rising from about 0.3 ell/(eta tau) to exactly ell/(eta tau) (ell = log dx + log dy, the mirror-
descent bound's first term) as eta tau grows from 1 to about 25, that is n from 4k to 16M: on the audit's grid the gap
sits in that transition (eta tau = 1.3 .. 5), and the fitted slope there is the transition's and the 1/(M+1) divisor's.
From n = 16M on, gap eta tau = ell and gap/(M+1) falls at -0.51. Algorithm 3 reproduces the exact-gradient gap within
10% at the audit's sizes, and a y-player that descends does not: the slowness is the dynamics, the reference is right.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from reference.algorithms import saddle_point as sp
from reference.audit import cases_saddle_point as cases


def _recipe(n, game):
    p = sp.theorem_3_14_parameters(int(n), cases.RATE_EPS, cases.RATE_DELTA, 4, 4, game.lipschitz, game.lipschitz, 0.0)
    M, Gamma = p["M"], p["Gamma"]
    eta = min(p["step_cap"], p["eta_priv"])
    C = 1 / (2 * (1 - 2.0 ** -(M + 1)))
    cost = sum(C * 2.0 ** -k * (2.0 ** (k + 1) + 2) for k in range(M + 1))    # E[2^(N+1) + 2], N ~ TGeom(M)
    tau = int((Gamma - (2 ** (M + 1) + 2)) / cost) + 1
    return M, eta, tau


def _exact_gradient_gap(game, eta, tau, *, y_descends=False):
    """Entropic mirror descent on the population game with exact gradients, x_1 = y_1 uniform, tau steps of size
    eta; the duality gap of the averaged iterates."""
    x, y = np.full(4, 0.25), np.full(4, 0.25)
    sx, sy = np.zeros(4), np.zeros(4)
    for _ in range(tau):
        sx, sy = sx + x, sy + y
        gx, gy = game.gradient(x, y)
        x = sp.entropic_step(x, gx, eta)
        y = sp.entropic_step(y, gy if y_descends else -gy, eta)
    return sp.duality_gap(game, sx / tau, sy / tau)


@pytest.fixture(scope="module")
def pure():
    return cases._rate_game(64_000, np.random.default_rng(0), "pure")


@pytest.mark.claim("saddle_point:Theorem 3.14")
def test_pure_game_gap_reaches_the_mirror_descent_term_only_at_large_n(pure):
    """gap eta tau <= ell at every n of 4k .. 64M and equals it (within 1%) from 16M on (ell = log 16); the slope of
    gap/(M+1) is -0.36 +- 0.05 on the audit's 4k..256k and -0.5 +- 0.03 on 16M..64M."""
    ell = math.log(16)
    small, large = [], []
    for n in (4e3, 1.6e4, 6.4e4, 2.56e5, 1.6e7, 3.2e7, 6.4e7):
        M, eta, tau = _recipe(n, pure)
        gap = _exact_gradient_gap(pure, eta, tau)
        assert gap * eta * tau <= ell * (1 + 1e-9)
        if n >= 1.6e7:
            assert gap * eta * tau == pytest.approx(ell, rel=0.01)
            large.append((n, gap / (M + 1)))
        else:
            assert gap * eta * tau < 0.75 * ell          # the transition
            small.append((n, gap / (M + 1)))

    def slope(points):
        x, y = np.log([p[0] for p in points]), np.log([p[1] for p in points])
        return float(np.polyfit(x, y, 1)[0])

    assert slope(small) == pytest.approx(-0.36, abs=0.05)
    assert slope(large) == pytest.approx(-0.5, abs=0.03)


@pytest.mark.claim("saddle_point:Theorem 3.14")
@pytest.mark.parametrize("n", [64_000, 256_000])
def test_algorithm_3_reproduces_the_exact_gradient_dynamics_at_the_audit_sizes(pure, n):
    """The mean gap of 6 runs of Algorithm 3 (the audit row's trial) is within 10% of the exact-gradient mirror descent
    with the same eta and tau (0.50 vs 0.48 at 64k, 0.39 vs 0.40 at 256k): the slow decay is the dynamics the recipe
    gives, not the sampling, the bias reduction or the noise. The same dynamics with the y-player descending (the
    audit's old negative control) end elsewhere (0.62: off by more than 25%)."""
    game = cases._rate_game(n, np.random.default_rng(0), "pure")
    M, eta, tau = _recipe(n, game)
    runs = [cases.theorem_3_14_trial(n, np.random.default_rng(s), kind="pure") * (M + 1) for s in range(6)]
    exact = _exact_gradient_gap(game, eta, tau)
    assert np.mean(runs) == pytest.approx(exact, rel=0.1)
    wrong = _exact_gradient_gap(game, eta, tau, y_descends=True)
    assert abs(wrong - exact) > 0.25 * exact
