"""The private Frank-Wolfe variants of the shared module on general sets (the LASSO instance is
tested in tests/lasso/): lasso Algorithm 2 over an explicit polytope, and the general-convex
variant of lasso Theorem 2.6 = erm_geometry Appendix B Algorithm 5."""

from __future__ import annotations

import math

import numpy as np
import pytest

from reference.algorithms import frank_wolfe as fw
from reference.errors import ParameterError
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
