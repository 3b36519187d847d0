"""Losses of linear models: gradients, Lipschitz / smoothness / curvature constants, LASSO constants.

Reference values: central finite differences, the subgradient inequality, explicit witnesses
written out here (Hoelder-tight theta and x), sampling of the curvature definition
(erm_geometry Def 5.1 = lasso Def 2.1, factor 2/gamma^2), and for the LASSO the column formula
8 scale r^2 max_j (1/n) sum_i x_ij^2, computed independently of the vertex-pair search.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.errors import AssumptionViolation, NonFiniteError, ParameterError, ShapeError
from reference.geometry.sets import L1Ball, L2Ball, Simplex
from reference.losses import (HingeLoss, HuberLoss, LogisticLoss, SquaredLoss, dual_norm, lasso_constants)

ORD = {"l1": 1, "l2": 2, "linf": np.inf}
coords = st.floats(-3, 3, allow_nan=False)


def vec(d):
    return st.lists(coords, min_size=d, max_size=d).map(np.array)


def scaled_to(v, norm, bound):
    """v rescaled to have ||v||_norm <= bound (0 stays 0)."""
    n = np.linalg.norm(v, ORD[norm])
    return v if n <= bound else v * (bound / n)


SMOOTH = [SquaredLoss(1.0), SquaredLoss(0.5), LogisticLoss(), HuberLoss(0.7)]
ALL = SMOOTH + [HingeLoss()]


def labels(loss, rng, n):
    return rng.choice([-1.0, 1.0], size=n) if loss.binary_labels else rng.uniform(-1, 1, size=n)


# ---------------------------------------------------------------------------
# Gradients

@pytest.mark.claim("core:Loss gradients")
@given(st.integers(1, 5).flatmap(lambda d: st.tuples(vec(d), vec(d))), st.integers(0, 10**6))
def test_gradient_matches_finite_differences(tx, seed):
    theta, x = tx
    rng = np.random.default_rng(seed)
    h = 1e-6
    for loss in SMOOTH:
        y = float(labels(loss, rng, 1)[0])
        fd = np.array([(loss.value(theta + h * e, x, y) - loss.value(theta - h * e, x, y)) / (2 * h)
                       for e in np.eye(theta.size)])
        np.testing.assert_allclose(loss.gradient(theta, x, y), fd, rtol=1e-5, atol=1e-5)


@pytest.mark.claim("core:Loss gradients")
@given(st.integers(1, 5).flatmap(lambda d: st.tuples(vec(d), vec(d), vec(d))), st.sampled_from([-1.0, 1.0]))
def test_hinge_gradient_is_a_subgradient(txo, y):
    theta, x, other = txo
    loss = HingeLoss()
    g = loss.gradient(theta, x, y)
    assert loss.value(other, x, y) >= loss.value(theta, x, y) + g @ (other - theta) - 1e-12


@pytest.mark.claim("core:Loss gradients")
def test_hinge_subgradient_at_the_kink_is_the_documented_zero():
    loss = HingeLoss()
    theta, x = np.array([0.5, 0.0]), np.array([2.0, 3.0])      # y <theta, x> = 1 exactly
    np.testing.assert_array_equal(loss.gradient(theta, x, 1.0), [0.0, 0.0])
    np.testing.assert_array_equal(loss.gradient(theta, x, -1.0), x)   # y z = -1 < 1: -y x


@pytest.mark.claim("core:Loss gradients")
def test_batch_values_gradients_and_risk_agree_with_single_records():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(6, 4))
    theta = rng.normal(size=4)
    for loss in ALL:
        y = labels(loss, rng, 6)
        vals = loss.value(theta, X, y)
        grads = loss.gradient(theta, X, y)
        assert vals.shape == (6,) and grads.shape == (6, 4)
        for i in range(6):
            assert vals[i] == pytest.approx(loss.value(theta, X[i], y[i]))
            np.testing.assert_allclose(grads[i], loss.gradient(theta, X[i], y[i]))
        assert loss.risk(theta, X, y) == pytest.approx(np.mean(vals))
        np.testing.assert_allclose(loss.risk_gradient(theta, X, y), grads.mean(axis=0))
        # the batch forms the erm_geometry checks and objective sums take: row i is record i's (to rounding: X @ theta
        # and the rows' own products may round differently)
        np.testing.assert_allclose(loss.values(theta, X, y), [loss.value(theta, X[i], y[i]) for i in range(6)],
                                   rtol=1e-14, atol=1e-15)
        np.testing.assert_allclose(loss.gradients(theta, X, y),
                                   [loss.gradient(theta, X[i], y[i]) for i in range(6)], rtol=1e-14, atol=1e-15)
        assert loss.values(theta, X[:1], y[:1]).shape == (1,) and loss.gradients(theta, X[:1], y[:1]).shape == (1, 4)
    # closed forms
    assert SquaredLoss().value(np.array([1.0, 2.0]), np.array([1.0, 1.0]), 1.0) == 4.0
    assert LogisticLoss().value(np.zeros(2), np.ones(2), 1.0) == pytest.approx(math.log(2))
    assert HuberLoss(1.0).value(np.array([3.0]), np.array([1.0]), 0.0) == pytest.approx(2.5)
    assert HingeLoss().value(np.array([0.25]), np.array([2.0]), 1.0) == pytest.approx(0.5)


# ---------------------------------------------------------------------------
# Lipschitz constants

@pytest.mark.claim("core:Loss Lipschitz constants")
@given(st.sampled_from(["l1", "l2", "linf"]), st.integers(1, 6).flatmap(lambda d: st.tuples(vec(d), vec(d))),
       st.floats(0.1, 3), st.floats(0.1, 3), st.floats(0, 2), st.integers(0, 10**6))
def test_lipschitz_constant_bounds_every_gradient(norm, tx, B, F, Y, seed):
    theta = scaled_to(tx[0], norm, B)
    x = scaled_to(tx[1], dual_norm(norm), F)
    rng = np.random.default_rng(seed)
    for loss in ALL:
        y = float(rng.choice([-1.0, 1.0])) if loss.binary_labels else float(rng.uniform(-Y, Y))
        L = loss.lipschitz(norm, feature_bound=F, theta_bound=B, label_bound=Y)
        g = loss.gradient(theta, x, y)
        assert np.linalg.norm(g, ORD[dual_norm(norm)]) <= L * (1 + 1e-12) + 1e-15


@pytest.mark.claim("core:Loss Lipschitz constants")
@pytest.mark.parametrize("norm", ["l1", "l2", "linf"])
def test_lipschitz_constants_are_attained(norm):
    d, B, F, Y = 4, 1.5, 0.8, 0.6
    # Hoelder-tight pairs: ||theta|| = B, ||x||_* = F, <theta, x> = B F
    if norm == "l1":
        theta, x = B * np.eye(d)[0], F * np.ones(d)
    elif norm == "l2":
        theta, x = B * np.eye(d)[0], F * np.eye(d)[0]
    else:
        theta, x = B * np.ones(d), F * np.eye(d)[0]
    assert theta @ x == pytest.approx(B * F)
    dn = ORD[dual_norm(norm)]
    cases = [(SquaredLoss(1.0), -Y, 2 * (B * F + Y) * F),
             (SquaredLoss(0.5), -Y, (B * F + Y) * F),
             (HuberLoss(0.5), -Y, min(0.5, B * F + Y) * F),
             (HuberLoss(5.0), -Y, min(5.0, B * F + Y) * F),
             (LogisticLoss(), -1.0, F / (1 + math.exp(-B * F)))]
    for loss, y, expected in cases:
        L = loss.lipschitz(norm, feature_bound=F, theta_bound=B, label_bound=Y)
        assert L == pytest.approx(expected, rel=1e-13)
        assert np.linalg.norm(loss.gradient(theta, x, y), dn) == pytest.approx(L, rel=1e-12)
    hinge = HingeLoss()
    assert np.linalg.norm(hinge.gradient(np.zeros(d), x, 1.0), dn) == pytest.approx(
        hinge.lipschitz(norm, feature_bound=F))
    # without a theta bound the logistic constant is the supremum F (approached, never exceeded)
    assert LogisticLoss().lipschitz(norm, feature_bound=F) == F
    far = np.linalg.norm(LogisticLoss().gradient(40 * theta, x, -1.0), dn)
    assert F * (1 - 1e-12) < far <= F


# ---------------------------------------------------------------------------
# Smoothness and curvature

def _curvature_ratio(loss, x, y, t1, t2, gamma):
    t3 = t1 + gamma * (t2 - t1)
    return 2 / gamma ** 2 * (loss.value(t3, x, y) - loss.value(t1, x, y) - (t3 - t1) @ loss.gradient(t1, x, y))


def _random_point(C, rng):
    return C.project(rng.normal(size=C.dim) * 2)


@pytest.mark.claim("core:Loss curvature constant")
@given(st.sampled_from(["l1", "l2"]), st.integers(1, 5), st.floats(0.2, 2), st.floats(0.2, 2),
       st.integers(0, 10**6))
def test_sampled_curvature_never_exceeds_the_constant(norm, d, r, F, seed):
    rng = np.random.default_rng(seed)
    C = L1Ball(d, r) if norm == "l1" else L2Ball(d, r)
    x = scaled_to(rng.normal(size=d), dual_norm(norm), F)
    for loss in SMOOTH:
        y = float(labels(loss, rng, 1)[0])
        gamma_bound = loss.curvature(C, norm=norm, feature_bound=F)
        for _ in range(10):
            ratio = _curvature_ratio(loss, x, y, _random_point(C, rng), _random_point(C, rng), rng.uniform(0.01, 1))
            assert ratio <= gamma_bound * (1 + 1e-9) + 1e-12
        # smoothness: ||grad(a) - grad(b)||_* <= beta ||a - b||
        a, b = _random_point(C, rng), _random_point(C, rng)
        beta = loss.smoothness(norm, feature_bound=F)
        lhs = np.linalg.norm(loss.gradient(a, x, y) - loss.gradient(b, x, y), ORD[dual_norm(norm)])
        assert lhs <= beta * np.linalg.norm(a - b, ORD[norm]) * (1 + 1e-9) + 1e-12


@pytest.mark.claim("core:Loss curvature constant")
@pytest.mark.parametrize("scale", [1.0, 0.5, 2.0])
def test_squared_loss_curvature_is_attained_at_the_diameter(scale):
    d, r, F = 5, 1.3, 0.9
    loss = SquaredLoss(scale)
    x = F * np.ones(d)                                    # ||x||_inf = F, <2 r e_1, x> = 2 r F
    for gamma in (1.0, 0.3, 1e-3):
        ratio = _curvature_ratio(loss, x, 0.2, -r * np.eye(d)[0], r * np.eye(d)[0], gamma)
        assert ratio == pytest.approx(loss.curvature(L1Ball(d, r), norm="l1", feature_bound=F), rel=1e-9)
    # l2 ball: x = F e_1, end points -r e_1, r e_1
    ratio = _curvature_ratio(loss, F * np.eye(d)[0], 0.0, -r * np.eye(d)[0], r * np.eye(d)[0], 0.5)
    assert ratio == pytest.approx(loss.curvature(L2Ball(d, r), norm="l2", feature_bound=F), rel=1e-12)


@pytest.mark.claim("core:Loss curvature constant")
def test_empirical_curvature_of_the_squared_loss():
    rng = np.random.default_rng(4)
    n, d, r = 7, 4, 1.2
    X = rng.uniform(-1, 1, size=(n, d))
    y = rng.uniform(-1, 1, size=n)
    for scale in (1.0, 0.5):
        loss = SquaredLoss(scale)
        C = L1Ball(d, r)
        emp = loss.empirical_curvature(C, X)
        # independent: the convex quadratic (1/n)||X w||^2 over w in C - C = 2 r B_1 peaks at +-2 r e_j
        assert emp == pytest.approx(8 * scale * r ** 2 * np.max(np.mean(X ** 2, axis=0)), rel=1e-12)
        j = int(np.argmax(np.mean(X ** 2, axis=0)))
        t1, t2 = -r * np.eye(d)[j], r * np.eye(d)[j]
        t3 = t1 + 0.4 * (t2 - t1)
        ratio = 2 / 0.4 ** 2 * (loss.risk(t3, X, y) - loss.risk(t1, X, y) - (t3 - t1) @ loss.risk_gradient(t1, X, y))
        assert ratio == pytest.approx(emp, rel=1e-10)
        for _ in range(50):
            a, b, g = _random_point(C, rng), _random_point(C, rng), rng.uniform(0.01, 1)
            c = a + g * (b - a)
            ratio = 2 / g ** 2 * (loss.risk(c, X, y) - loss.risk(a, X, y) - (c - a) @ loss.risk_gradient(a, X, y))
            assert ratio <= emp * (1 + 1e-9)
        # l2 ball: 4 r^2 lambda_max(X^T X / n) times phi''
        top = np.max(np.linalg.eigvalsh(X.T @ X / n))
        assert loss.empirical_curvature(L2Ball(d, r), X) == pytest.approx(2 * scale * 4 * r ** 2 * top)
        # simplex: vertex pairs e_i - e_j
        S = Simplex(d)
        pairs = max(np.mean((X[:, i] - X[:, k]) ** 2) for i in range(d) for k in range(d))
        assert loss.empirical_curvature(S, X) == pytest.approx(2 * scale * pairs)


# ---------------------------------------------------------------------------
# The LASSO constants

@pytest.mark.claim("core:LASSO constants")
@pytest.mark.parametrize("scale, L1, gamma", [(1.0, 4.0, 8.0), (0.5, 2.0, 4.0)])
def test_lasso_constants_match_the_catalogue_and_are_attained(scale, L1, gamma):
    d, n = 5, 10
    c = lasso_constants(d, scale=scale)
    assert (c.lipschitz_l1, c.curvature, c.l1_norm_of_set, c.num_vertices) == (L1, gamma, 1.0, 2 * d)
    loss = SquaredLoss(scale)
    # Lipschitz attained: theta = e_1, x = 1 (all ones), y = -1: |grad_j| = 2 scale * 2 * 1
    assert np.max(np.abs(loss.gradient(np.eye(d)[0], np.ones(d), -1.0))) == L1
    # curvature attained at theta_1 = -e_j, theta_2 = e_j with a column of +-1
    assert _curvature_ratio(loss, np.ones(d), 0.0, -np.eye(d)[0], np.eye(d)[0], 0.5) == pytest.approx(gamma)
    # score sensitivity 2 L1 ||C||_1 / n attained (catalogue lasso §1.5): theta = e_k, records differ in x_j
    k, j = 0, 1
    x, x2 = np.zeros(d), np.zeros(d)
    x[k] = x2[k] = 1.0
    x[j], x2[j] = 1.0, -1.0
    theta = np.eye(d)[k]
    delta_grad = (loss.gradient(theta, x, -1.0) - loss.gradient(theta, x2, -1.0)) / n   # replace one record
    s = np.eye(d)[j]                                                                    # the vertex e_j
    assert abs(s @ delta_grad) == pytest.approx(c.score_sensitivity(n))
    assert c.score_sensitivity(n) == 2 * L1 / n


@pytest.mark.claim("core:LASSO constants")
def test_lasso_paper_curvature_bound_is_a_factor_two_short():
    """lasso Remark 1 / §2.2 print Gamma <= 4 max_theta (1/n)||X theta||^2 for the scale-1 loss; the
    definition's factor 2/gamma^2 gives exactly twice that (docs/errata.md core-G03)."""
    rng = np.random.default_rng(8)
    X = rng.choice([-1.0, 1.0], size=(6, 3))
    printed = 4 * max(np.mean((X @ v) ** 2) for v in L1Ball(3).vertices())
    exact = SquaredLoss(1.0).empirical_curvature(L1Ball(3), X)
    assert exact == pytest.approx(2 * printed)
    assert printed == pytest.approx(4.0)          # a column of +-1 entries: the paper's "<= 4"


# ---------------------------------------------------------------------------
# Bad input

@pytest.mark.claim("core:Loss input validation")
def test_bad_loss_inputs_raise_specific_errors():
    with pytest.raises(ParameterError):
        SquaredLoss(0.0)
    with pytest.raises(ParameterError):
        HuberLoss(-1.0)
    with pytest.raises(ParameterError):
        LogisticLoss().value(np.zeros(2), np.ones(2), 0.5)            # labels must be +-1
    with pytest.raises(ParameterError):
        HingeLoss().gradient(np.zeros(2), np.ones(2), 2.0)
    with pytest.raises(ShapeError):
        SquaredLoss().value(np.zeros(3), np.ones(2), 0.0)
    with pytest.raises(ShapeError):
        SquaredLoss().value(np.zeros(2), np.ones((3, 2)), np.zeros(2))
    with pytest.raises(NonFiniteError):
        SquaredLoss().gradient(np.array([np.nan, 0.0]), np.ones(2), 0.0)
    with pytest.raises(NonFiniteError):
        SquaredLoss().value(np.zeros(2), np.ones(2), np.inf)
    with pytest.raises(ParameterError):
        SquaredLoss().lipschitz("l1", feature_bound=1.0)               # unbounded without theta/label bounds
    with pytest.raises(ParameterError):
        SquaredLoss().lipschitz("l3", feature_bound=1.0, theta_bound=1.0, label_bound=1.0)
    with pytest.raises(ParameterError):
        LogisticLoss().lipschitz("l2", feature_bound=-1.0)
    with pytest.raises(ParameterError):
        HingeLoss().smoothness("l2", feature_bound=1.0)
    with pytest.raises(ParameterError):
        HingeLoss().curvature(L1Ball(2), norm="l1", feature_bound=1.0)
    with pytest.raises(AssumptionViolation):
        SquaredLoss().check_data(np.array([[0.5, 1.5]]), np.array([0.0]), norm="l1", feature_bound=1.0)
    with pytest.raises(AssumptionViolation):
        SquaredLoss().check_data(np.array([[0.5, 0.5]]), np.array([2.0]), norm="l1", feature_bound=1.0,
                                 label_bound=1.0)
    SquaredLoss().check_data(np.array([[0.5, -1.0]]), np.array([1.0]), norm="l1", feature_bound=1.0, label_bound=1.0)
    with pytest.raises(ParameterError):
        lasso_constants(3).score_sensitivity(0)


@pytest.mark.claim("core:Loss Lipschitz constants")
def test_dual_norms_and_data_checks():
    """Hoelder pairs l1 with linf: a Lipschitz constant w.r.t. l1 needs features bounded in linf, and the
    data check reads the bound in that norm. The record (1, 1, 1, 1) has linf norm 1 and l1 norm 4."""
    assert (dual_norm("l1"), dual_norm("l2"), dual_norm("linf")) == ("linf", "l2", "l1")
    X, y = np.ones((1, 4)), np.zeros(1)
    SquaredLoss().check_data(X, y, norm="l1", feature_bound=1.0)            # ||x||_inf = 1: admitted
    with pytest.raises(AssumptionViolation):
        SquaredLoss().check_data(X, y, norm="linf", feature_bound=1.0)      # ||x||_1 = 4 > 1
    with pytest.raises(AssumptionViolation):
        SquaredLoss().check_data(X, y, norm="l2", feature_bound=1.0)        # ||x||_2 = 2 > 1


@pytest.mark.claim("core:Loss Hessians")
@pytest.mark.parametrize("loss", [SquaredLoss(), SquaredLoss(0.5), LogisticLoss()],
                         ids=["squared", "squared-0.5", "logistic"])
def test_hessian_is_the_jacobian_of_the_gradient(loss):
    """Central differences of the gradient (an independent computation) against hessian; rank one; bounded
    by phi_second_bound ||x||^2. Built-in losses used to have no hessian, so objective perturbation's
    lambda_max check never ran (issue 15)."""
    rng = np.random.default_rng(3)
    for _ in range(5):
        theta, x = rng.normal(size=4), rng.normal(size=4)
        y = 1.0 if rng.random() < 0.5 else -1.0
        H = loss.hessian(theta, x, y)
        h = 1e-5
        fd = np.array([(loss.gradient(theta + h * e, x, y) - loss.gradient(theta - h * e, x, y)) / (2 * h)
                       for e in np.eye(4)])
        assert np.allclose(H, fd, rtol=1e-6, atol=1e-8)
        assert np.linalg.matrix_rank(H, tol=1e-12) <= 1
        assert np.linalg.eigvalsh(H).max() <= loss.phi_second_bound() * float(x @ x) * (1 + 1e-12)


@pytest.mark.claim("core:Loss Hessians")
def test_losses_that_are_not_twice_differentiable_have_no_hessian():
    assert HingeLoss().hessian is None and HuberLoss().hessian is None
    with pytest.raises(ShapeError):
        LogisticLoss().hessian(np.zeros(2), np.ones((3, 2)), np.ones(3))


@pytest.mark.claim("core:Loss input validation")
def test_non_finite_input_errors_name_the_first_offending_index():
    """The NaN error used to say only 'non-finite entries'; it names where (issue 15)."""
    X = np.ones((5, 3))
    X[3, 1], X[4, 0] = np.nan, np.inf
    with pytest.raises(NonFiniteError, match=r"X\[3, 1\] = nan, the first of 2"):
        SquaredLoss().check_data(X, np.zeros(5), norm="l2", feature_bound=2.0)
