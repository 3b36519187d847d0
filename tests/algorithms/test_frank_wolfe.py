"""The shared Frank-Wolfe implementation: lasso Algorithm 1 / erm_geometry Algorithm 3 (non-private).

The private variants (lasso Algorithm 2, erm_geometry Algorithms 4-5) are tested in
tests/algorithms/test_frank_wolfe_private.py and tests/lasso/.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.optimize import linprog

from reference.algorithms import frank_wolfe as fw
from reference.errors import ParameterError, ShapeError


def quadratic(X, y):
    """L(theta) = (1/n) ||X theta - y||^2 and its gradient (an independent, direct formula)."""
    n = X.shape[0]
    return (lambda th: float(np.mean((X @ th - y) ** 2)),
            lambda th: 2.0 / n * X.T @ (X @ th - y))


def l1_minimum(X, y, radius, steps=1500):
    """A certified lower bound on min_{||theta||_1 <= radius} L: L(theta_K) - gap(theta_K)."""
    value, grad = quadratic(X, y)
    S = fw.SignedBasis(X.shape[1], radius)
    res = fw.frank_wolfe(grad, S, np.zeros(X.shape[1]), steps, keep_iterates=False)
    return value(res.theta) - fw.duality_gap(grad, S, res.theta)


data = st.tuples(st.integers(1, 12), st.integers(1, 6), st.integers(0, 2**32 - 1))


def make(n, p, seed):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1, 1, (n, p)), rng.uniform(-1, 1, n)


# ---------------------------------------------------------------------------
# Fact 2.3: the LMO over conv(S) is attained at a vertex


@pytest.mark.claim("lasso:Fact 2.3")
@pytest.mark.claim("erm_geometry:Fact 5.3")
@given(st.integers(1, 8), st.floats(0.1, 5), st.integers(0, 2**32 - 1))
def test_vertex_argmin_is_the_lmo_of_the_l1_ball(p, radius, seed):
    g = np.random.default_rng(seed).normal(size=p)
    S = fw.SignedBasis(p, radius)
    v = S.lmo(g)
    # independent: the LP min <g, u - w> s.t. sum(u + w) <= radius, u, w >= 0
    lp = linprog(np.concatenate([g, -g]), A_ub=np.ones((1, 2 * p)), b_ub=[radius],
                 bounds=[(0, None)] * (2 * p), method="highs")
    assert lp.status == 0
    assert g @ v == pytest.approx(lp.fun, abs=1e-9)
    assert g @ v == pytest.approx(-radius * np.max(np.abs(g)), rel=1e-12)


@pytest.mark.claim("lasso:Fact 2.3")
@pytest.mark.claim("erm_geometry:Fact 5.3")
@given(st.integers(2, 7), st.integers(1, 4), st.integers(0, 2**32 - 1))
def test_vertex_argmin_is_the_lmo_of_an_explicit_polytope(m, p, seed):
    rng = np.random.default_rng(seed)
    S = rng.normal(size=(m, p))
    g = rng.normal(size=p)
    vs = fw.ExplicitVertices(S)
    # independent: the LP over convex weights, min <g, S^T w>, sum w = 1, w >= 0
    lp = linprog(S @ g, A_eq=np.ones((1, m)), b_eq=[1.0], bounds=[(0, None)] * m, method="highs")
    assert vs.lmo(g) @ g == pytest.approx(lp.fun, abs=1e-9)


def test_signed_basis_order_and_ties():
    S = fw.SignedBasis(3, 2.0)
    assert np.array_equal(S.vertex(0), [2, 0, 0]) and np.array_equal(S.vertex(4), [0, -2, 0])
    assert S.coordinate(5) == (2, -1.0)
    # g = (1, -1, 0): <e_2, g> = -1 ties with <-e_1, g> = -1; the lowest index (e_2, index 1) wins
    assert S.argmin(np.array([1.0, -1.0, 0.0])) == 1
    # g = 0: every score ties, index 0 (+c e_1)
    assert S.argmin(np.zeros(3)) == 0
    with pytest.raises(ParameterError):
        S.vertex(6)


def test_as_vertex_set_accepts_arrays_and_objects():
    arr = np.array([[1.0, 0.0], [0.0, 1.0]])
    assert isinstance(fw.as_vertex_set(arr), fw.ExplicitVertices)

    class Poly:
        def vertices(self):
            return arr

    assert fw.as_vertex_set(Poly()).size == 2
    with pytest.raises(ParameterError):
        fw.as_vertex_set(object())


# ---------------------------------------------------------------------------
# Theorem 2.2 (explicit form) and the closed form of the weights


@pytest.mark.claim("lasso:Theorem 2.2")
@given(data, st.sampled_from([1, 2, 3, 5, 10, 40]), st.floats(0.2, 2.0))
def test_explicit_convergence_bound(nps, T, radius):
    """h_T <= (2 h_1 + 2 Gamma (T-1)) / (T (T+1)), Gamma = (8 c^2/n) max_j ||X_j||^2 (the exact
    curvature of the quadratic on the l1 ball, proofs/proof_lasso.py). A bound that could fail:
    with mu_t = 1/(T+2) it does (test_constant_step_size_does_not_converge)."""
    n, p, seed = nps
    X, y = make(n, p, seed)
    value, grad = quadratic(X, y)
    gamma = 8 * radius**2 / n * np.max(np.sum(X**2, axis=0))
    theta1 = fw.SignedBasis(p, radius).vertex(seed % (2 * p))
    res = fw.frank_wolfe(grad, fw.SignedBasis(p, radius), theta1, T)
    lstar = l1_minimum(X, y, radius)
    h1, hT = value(theta1) - lstar, value(res.theta) - lstar
    assert hT <= (2 * h1 + 2 * gamma * (T - 1)) / (T * (T + 1)) + 1e-9


@pytest.mark.claim("lasso:Theorem 2.2")
@pytest.mark.parametrize("T", [2, 3, 10, 100])
def test_linear_loss_meets_the_bound_with_equality(T):
    """Linear L = <c, theta> (Gamma = 0) from a vertex that is not optimal: every step selects the
    optimal vertex, and h_T = 2 h_1 / (T (T+1)) exactly (exact arithmetic)."""
    c = np.array([3.0, -1.0])
    S = fw.SignedBasis(2, 1.0)
    res = fw.frank_wolfe(lambda th: c, S, np.array([0.0, 1.0]), T)
    h1 = Fraction(-1) - Fraction(-3)  # L(e_2) - L(-e_1)
    weight = Fraction(2, T * (T + 1))
    hT = Fraction(float(c @ res.theta)) + 3
    assert abs(hT - weight * h1) < Fraction(1, 10**12)


@given(st.integers(1, 30), st.integers(0, 2**32 - 1))
def test_closed_form_of_the_iterate_weights(T, seed):
    """theta_T = (2 theta_1 + sum_t 2 (t+1) tilde_theta_t) / (T (T+1)) for mu_t = 2/(t+2)."""
    X, y = make(5, 3, seed)
    _, grad = quadratic(X, y)
    theta1 = np.array([0.2, -0.3, 0.1])
    res = fw.frank_wolfe(grad, fw.SignedBasis(3), theta1, T)
    t = np.arange(1, T)
    expect = (2 * theta1 + (2 * (t + 1))[:, None].T @ res.selected.reshape(T - 1, 3)) / (T * (T + 1))
    assert np.allclose(res.theta, expect.ravel(), atol=1e-13)


# ---------------------------------------------------------------------------
# Invariants: feasibility and sparsity


@pytest.mark.claim("lasso:§2 iterates feasible")
@given(data, st.integers(1, 60), st.sampled_from(["paper", "constant", "1/T", "jaggi"]))
def test_iterates_stay_in_the_l1_ball(nps, T, schedule):
    n, p, seed = nps
    X, y = make(n, p, seed)
    _, grad = quadratic(X, y)
    res = fw.frank_wolfe(grad, fw.SignedBasis(p, 0.7), np.zeros(p), T, step_size=schedule)
    assert res.iterates.shape == (T, p)
    assert np.all(np.sum(np.abs(res.iterates), axis=1) <= 0.7 + 1e-12)


@pytest.mark.claim("lasso:§2 iterates feasible")
@given(st.integers(3, 6), st.integers(1, 3), st.integers(1, 25), st.integers(0, 2**32 - 1))
def test_iterates_stay_in_an_explicit_polytope(m, p, T, seed):
    rng = np.random.default_rng(seed)
    S = fw.ExplicitVertices(rng.normal(size=(m, p)))
    c = rng.normal(size=p)
    res = fw.frank_wolfe(lambda th: th - c, S, S.vertex(0), T)
    assert all(S.contains(th) for th in res.iterates)


@pytest.mark.claim("lasso:§2 sparsity")
@given(data, st.integers(1, 40))
def test_support_grows_by_at_most_one_per_step(nps, T):
    n, p, seed = nps
    X, y = make(n, p, seed)
    _, grad = quadratic(X, y)
    res = fw.frank_wolfe(grad, fw.SignedBasis(p), np.zeros(p), T)
    nnz = np.count_nonzero(res.iterates, axis=1)
    assert np.all(nnz <= np.arange(T))          # ||theta_t||_0 <= t - 1
    assert np.count_nonzero(res.theta) <= min(T - 1, p)
    assert set(np.flatnonzero(res.theta)) <= {res.selected_index[k] % p for k in range(T - 1)}


# ---------------------------------------------------------------------------
# The companion's constant step size (docs/errata.md lasso-E01)


@pytest.mark.parametrize("T", [10, 100, 1000, 10000])
def test_constant_step_size_does_not_converge(T):
    """erm_geometry Alg 3-5 / Thm 5.2, 5.6 use a constant mu (1/T, 1/(T+2)). On a linear loss
    (Gamma = 0, so the claimed bound 2 Gamma (1 + beta)/(T + 2) is 0) the excess stays near
    e^{-1} h_1 for every T, while mu_t = 2/(t+2) drives it to 2 h_1/(T (T+1))."""
    c = np.array([1.0, 0.2])
    S = fw.SignedBasis(2, 1.0)
    theta1 = np.array([0.0, 1.0])          # L = 0.2; L* = -1 at -e_1; h_1 = 1.2
    h1 = 1.2
    for schedule in ("constant", "1/T"):
        res = fw.frank_wolfe(lambda th: c, S, theta1, T, step_size=schedule, keep_iterates=False)
        assert (c @ res.theta + 1) / h1 > 0.3
    res = fw.frank_wolfe(lambda th: c, S, theta1, T, keep_iterates=False)
    assert (c @ res.theta + 1) == pytest.approx(2 * h1 / (T * (T + 1)), rel=1e-6)  # cancellation in c@theta + 1


# ---------------------------------------------------------------------------
# Edge cases and bad input


def test_T_equal_one_returns_theta1_untouched():
    theta1 = np.array([0.5, -0.25])
    res = fw.frank_wolfe(lambda th: th, fw.SignedBasis(2), theta1, 1)
    assert np.array_equal(res.theta, theta1) and res.iterates.shape == (1, 2)
    assert res.selected.shape == (0, 2) and len(res.ledger) == 0


def test_results_are_read_only():
    res = fw.frank_wolfe(lambda th: th, fw.SignedBasis(2), np.zeros(2), 3)
    with pytest.raises(ValueError):
        res.theta[0] = 1.0


@pytest.mark.parametrize("T", [0, -1, 1.5, True])
def test_T_must_be_a_positive_integer(T):
    with pytest.raises(ParameterError, match="T"):
        fw.frank_wolfe(lambda th: th, fw.SignedBasis(2), np.zeros(2), T)


def test_bad_step_size_and_shapes():
    with pytest.raises(ParameterError, match="step_size"):
        fw.frank_wolfe(lambda th: th, fw.SignedBasis(2), np.zeros(2), 3, step_size="wrong")
    with pytest.raises(ParameterError, match="step_size"):
        fw.frank_wolfe(lambda th: th, fw.SignedBasis(2), np.zeros(2), 3, step_size=lambda t, T: 2.0)
    with pytest.raises(ShapeError, match="theta1"):
        fw.frank_wolfe(lambda th: th, fw.SignedBasis(2), np.zeros(3), 3)
    with pytest.raises(ShapeError, match="gradient"):
        fw.frank_wolfe(lambda th: np.zeros(5), fw.SignedBasis(2), np.zeros(2), 3)


def test_general_lmo_callable_matches_vertex_set():
    X, y = make(6, 3, 1)
    _, grad = quadratic(X, y)
    S = fw.SignedBasis(3)
    a = fw.frank_wolfe(grad, S, np.zeros(3), 15)
    b = fw.frank_wolfe(grad, S.lmo, np.zeros(3), 15)
    assert np.array_equal(a.theta, b.theta)
    assert np.all(b.selected_index == -1)


@given(st.integers(1, 6), st.floats(0.1, 3), st.integers(0, 2**32 - 1))
def test_signed_basis_agrees_with_geometry_l1_ball(p, radius, seed):
    from reference.geometry.sets import L1Ball

    ball = L1Ball(p, radius)
    S = fw.as_vertex_set(ball)
    assert isinstance(S, fw.SignedBasis)
    g = np.random.default_rng(seed).integers(-2, 3, p).astype(float)   # many ties
    assert np.array_equal(S.lmo(g), ball.lmo(g))
    assert np.array_equal(np.vstack([S.vertex(i) for i in range(S.size)]), ball.vertices())


def test_private_polytope_refuses_a_start_outside_the_polytope():
    """The score sensitivity recorded in the ledger assumes every iterate is in C (review finding)."""
    import numpy as np
    import pytest

    from reference.algorithms import frank_wolfe as fw
    from reference.errors import AssumptionViolation

    with pytest.raises(AssumptionViolation, match="theta_1 lies in C"):
        fw.private_frank_wolfe_polytope(lambda th: np.zeros(2), fw.SignedBasis(2, 1.0), np.array([5.0, 5.0]), 3,
                                        noise_scale=1.0, score_sensitivity=0.1, rng=np.random.default_rng(0))
