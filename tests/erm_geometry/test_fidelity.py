"""erm_geometry as a reader holding seed 000 sees it (issue 9): each test fails on the old behaviour.

- ``step_size="paper"`` is this paper's printed step (Algorithm 4 line 5 and Algorithm 5 line 4:
  mu = 1/(T+2); Algorithm 3 with Theorem 5.2's mu = 1/T), not the lasso paper's 2/(t+2), which is a
  named option (erm_geometry-E15);
- Theorems 5.5 and B.2 prescribe T: named functions give it;
- ``LqPotential(constant="paper")`` is the printed Psi = ||.||_{Q,q}^2/(4(q-1)) with the quotient norm
  of Fact 3.4, computed here from its definition by an independent minimisation;
- every result type carries the claimed and the certified epsilon side by side;
- the module opens with the algorithms (the claims registry closes it, as in every paper module) and names the
  paper's symbols (r_Q = ||Q||_2, G_Q, R_Psi = max Psi);
- a horizon too large for memory is refused naming T and the memory, and keep_iterates=False
  keeps no iterates.
"""

from __future__ import annotations

import inspect
import math

import numpy as np
import pytest
from scipy import optimize

from reference.algorithms import erm_geometry as eg
from reference.algorithms import frank_wolfe as fw
from reference.errors import ParameterError
from reference.geometry.sets import L1Ball, L2Ball, LinfBall
from reference.geometry.width import width_l2_ball
from reference.privacy.accounting import certify

from .helpers import LinearLoss, ScalarQuadratic, SquaredLoss, unit_rows


def _data(n=20, p=3, seed=0):
    rng = np.random.default_rng(seed)
    return unit_rows(rng, n, p) / 2, np.zeros(n)


@pytest.mark.claim("erm_geometry:Theorem 5.2")
@pytest.mark.filterwarnings(r"ignore:erm_geometry Algorithm 4 \(calibration='paper'\):reference.errors.PrivacyWarning")
def test_paper_step_is_this_papers_printed_mu():
    X, y = _data()
    kw = dict(epsilon=1.0, delta=1e-5, T=9, rng=np.random.default_rng(0))
    a4 = eg.private_frank_wolfe_polytope(X, y, LinearLoss(), L1Ball(3, 1.0), lipschitz_l1=1.0, **kw)
    a5 = eg.private_frank_wolfe_general(X, y, LinearLoss(), L2Ball(3, 1.0), lipschitz=1.0, **kw)
    for res in (a4, a5):
        assert np.array_equal(res.step_sizes, np.full(8, 1 / 11))           # mu = 1/(T+2), as printed
    a3 = eg.frank_wolfe(lambda th: X.mean(0), L2Ball(3, 1.0), np.zeros(3), 9)
    assert np.array_equal(a3.step_sizes, np.full(8, 1 / 9))                 # Theorem 5.2: mu = 1/T
    decaying = eg.private_frank_wolfe_polytope(X, y, LinearLoss(), L1Ball(3, 1.0), lipschitz_l1=1.0,
                                               step_size="2/(t+2)", **kw)
    np.testing.assert_allclose(decaying.step_sizes, [2 / (t + 2) for t in range(1, 9)], rtol=1e-15)
    with pytest.raises(ParameterError, match="step_size"):
        eg.private_frank_wolfe_general(X, y, LinearLoss(), L2Ball(3, 1.0), lipschitz=1.0, step_size="jaggi", **kw)


@pytest.mark.claim("erm_geometry:Theorem 5.5")
@pytest.mark.claim("erm_geometry:Theorem B.2")
def test_theorem_5_5_and_B2_parameters_are_the_printed_T():
    """T = Gamma^(2/3) (n eps)^(2/3) / (L_1 ||C||_1)^(2/3) (Theorem 5.5) and
    Gamma^(2/3) (n eps)^(2/3) / (L_2 G_C)^(2/3) (Theorem B.2), rounded up."""
    assert eg.theorem_5_5_parameters(1000, 1.0, 4.0, 2.0, 1.0) == math.ceil((4.0 * 1000) ** (2 / 3) / 2 ** (2 / 3))
    assert eg.theorem_5_5_parameters(1000, 1.0, 4.0, 2.0, 1.0) == 159     # 2000^(2/3) = 158.74
    G = width_l2_ball(4)
    assert eg.theorem_B2_parameters(500, 2.0, 4.0, 2.0, G) == math.ceil((4000) ** (2 / 3) / (2 * G) ** (2 / 3))
    assert eg.theorem_5_5_parameters(1, 1e-6, 1e-3, 10.0, 1.0) == 2           # at least one step
    with pytest.raises(ParameterError):
        eg.theorem_B2_parameters(10, 1.0, -1.0, 1.0, 1.0)


def _quotient_norm_by_definition(theta, r, q):
    """Fact 3.4: inf over real alpha with sum_s alpha_s s = theta of ||alpha||_q, vertices s = +-r e_j,
    by a generic minimiser over the free part (alpha_(j+) - alpha_(j-) = theta_j / r is fixed)."""
    p = len(theta)
    f = lambda u: float(np.sum(np.abs(theta / r + u) ** q + np.abs(u) ** q))  # alpha+ = theta/r + u, alpha- = u
    best = optimize.minimize(f, np.zeros(p), method="Nelder-Mead",
                             options={"xatol": 1e-12, "fatol": 1e-15, "maxiter": 20000})
    return best.fun ** (1 / q)


@pytest.mark.claim("erm_geometry:Fact 3.4")
def test_lq_paper_constant_is_the_printed_psi_in_the_quotient_norm():
    """The printed Psi = ||theta||_{Q,q}^2 / (4(q-1)), with ||.||_{Q,q} computed from Fact 3.4's
    definition (not ||.||_q / r, which is off by 2^(2 - 2/q))."""
    rng = np.random.default_rng(1)
    for p, r in ((4, 1.0), (5, 2.0)):
        pot = eg.LqPotential(L1Ball(p, r), constant="paper")
        for _ in range(3):
            theta = L1Ball(p, r).project(rng.standard_normal(p))
            qn = _quotient_norm_by_definition(theta, r, pot.q)
            assert pot.quotient_norm(theta) == pytest.approx(qn, rel=1e-6)
            assert pot.psi(theta) == pytest.approx(qn ** 2 / (4 * (pot.q - 1)), rel=1e-6)


def test_every_result_reports_claimed_and_certified_epsilon():
    X, y = _data(n=30, p=3, seed=2)
    eps, delta = 1.0, 1e-5
    a1 = eg.noisy_mirror_descent(X, y, LinearLoss(), eg.EuclideanPotential(L2Ball(3, 1.0)), epsilon=eps, delta=delta,
                                 lipschitz=1.0, T=5, eta=0.1, rng=np.random.default_rng(0))
    a4 = eg.private_frank_wolfe_polytope(X, y, LinearLoss(), L1Ball(3, 1.0), epsilon=eps, delta=delta,
                                         lipschitz_l1=1.0, T=6, rng=np.random.default_rng(0))
    a5 = eg.private_frank_wolfe_general(X, y, LinearLoss(), L2Ball(3, 1.0), epsilon=eps, delta=delta,
                                        lipschitz=1.0, T=6, rng=np.random.default_rng(0), calibration="certified")
    for res in (a1, a4, a5):
        assert res.claimed_epsilon == eps
        assert res.certified_epsilon == pytest.approx(float(certify(res.ledger, delta).epsilon), rel=1e-12)
    assert a5.certified_epsilon <= eps
    D = (np.array([[1.0]] * 9 + [[0.0]]), np.array([1.0] * 9 + [-1.0]))
    with pytest.warns(Warning):
        a2 = eg.objective_perturbation(*D, ScalarQuadratic(), LinfBall(1, 1.0), epsilon=1.0, delta=1e-3,
                                       lipschitz=2.0, lambda_max=1.0, rng=np.random.default_rng(0))
    assert a2.claimed_epsilon == 1.0 and a2.certified_epsilon == math.inf      # printed noise: refuted (E13)
    a2c = eg.objective_perturbation(*D, ScalarQuadratic(), LinfBall(1, 1.0), epsilon=1.0, delta=1e-3,
                                    lipschitz=2.0, lambda_max=1.0, rng=np.random.default_rng(0),
                                    calibration="certified")
    assert a2c.certified_epsilon == 1.0                                          # KST12's theorem applies


def test_module_opens_with_the_algorithms_and_names_the_papers_symbols():
    source = inspect.getsource(eg)
    registry = source.index("\nALGORITHMS = (")                      # the registry closes the module
    assert "Claim(" not in source[:registry] and "_c(" not in source[:registry]
    assert "\ndef noisy_mirror_descent(" in source[:registry]
    assert "\ndef " not in source[registry:].replace("\ndef _c(", "") and "\nclass " not in source[registry:]
    assert len(eg.CLAIMS) >= 30 and all(c.paper == "erm_geometry" for c in eg.CLAIMS)
    pot = eg.EuclideanPotential(L2Ball(3, 2.0))
    assert pot.r_Q == pot.q_radius == 1.0 and pot.G_Q == pot.q_width and pot.R_Psi == pot.range
    for name, symbol in (("q_radius", "r_Q"), ("q_width", "G_Q"), ("range", "R_Psi")):
        first = inspect.getdoc(getattr(eg.Potential, name)).splitlines()[0]
        assert symbol in first, (name, first)


def test_a_horizon_too_large_is_refused_naming_T_and_the_memory():
    X, y = _data()
    kw = dict(epsilon=1.0, delta=1e-5, rng=np.random.default_rng(0))
    with pytest.raises(ParameterError, match=r"T = 1000000000000 .* need .*TiB"):
        eg.noisy_mirror_descent(X, y, LinearLoss(), eg.EuclideanPotential(L2Ball(3, 1.0)), lipschitz=1.0,
                                T=10 ** 12, eta=0.1, **kw)
    with pytest.raises(ParameterError, match=r"T = 1000000000000 .*keep_iterates=False"):
        eg.private_frank_wolfe_polytope(X, y, LinearLoss(), L1Ball(3, 1.0), lipschitz_l1=1.0, T=10 ** 12, **kw)
    res = eg.private_frank_wolfe_general(X, y, LinearLoss(), L2Ball(3, 1.0), lipschitz=1.0, T=50,
                                         keep_iterates=False, **kw)
    assert res.iterates is None and res.selected is None and res.theta.shape == (3,)
