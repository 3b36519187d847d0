"""Constraint sets: LMO, support, projection, radius/diameter, input validation.

Reference values are independent of the code under test: brute force over vertex lists,
closed forms, eigenvalues of G^T G (for the top singular value), and scipy's SLSQP.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.optimize import minimize

from reference.errors import NonFiniteError, ParameterError, ShapeError
from reference.geometry.sets import (GroupL1L2Ball, L1Ball, L2Ball, LinfBall, NuclearBall, Polytope, Simplex,
                                     project_l1_ball, project_simplex)

finite = st.floats(-50, 50, allow_nan=False, allow_infinity=False)
radii = st.floats(0.05, 20, allow_nan=False)


def vectors(dim_min=1, dim_max=8):
    return st.integers(dim_min, dim_max).flatmap(lambda d: st.lists(finite, min_size=d, max_size=d)).map(np.array)


def sigma_max(G):
    """Top singular value via the eigenvalues of G^T G (independent of the SVD used by the code)."""
    return math.sqrt(max(0.0, float(np.max(np.linalg.eigvalsh(G.T @ G)))))


def brute_support(C, g):
    """max over a vertex list, or closed forms written out here."""
    if isinstance(C, (L1Ball, Simplex, Polytope)):
        return float(np.max(C.vertices() @ g))
    if isinstance(C, L2Ball):
        return C.r * math.sqrt(float(g @ g))
    if isinstance(C, LinfBall):   # all 2^d sign vectors, enumerated here
        return max(C.r * float(np.dot(s, g)) for s in itertools.product((-1.0, 1.0), repeat=C.dim))
    if isinstance(C, NuclearBall):
        return C.r * sigma_max(g)
    if isinstance(C, GroupL1L2Ball):
        return C.r * max(math.sqrt(float(g[a:b] @ g[a:b])) for a, b in zip(C.bounds[:-1], C.bounds[1:]))
    raise AssertionError(C)


@st.composite
def sets_and_points(draw):
    kind = draw(st.sampled_from(["l2", "l1", "linf", "simplex", "polytope", "nuclear", "group"]))
    if kind == "nuclear":
        d1, d2 = draw(st.integers(1, 4)), draw(st.integers(1, 4))
        C = NuclearBall((d1, d2), draw(radii))
        g = np.array(draw(st.lists(finite, min_size=d1 * d2, max_size=d1 * d2))).reshape(d1, d2)
        x = np.array(draw(st.lists(finite, min_size=d1 * d2, max_size=d1 * d2))).reshape(d1, d2)
        return C, g, x
    d = draw(st.integers(1, 7))
    g = np.array(draw(st.lists(finite, min_size=d, max_size=d)))
    x = np.array(draw(st.lists(finite, min_size=d, max_size=d)))
    if kind == "l2":
        C = L2Ball(d, draw(radii))
    elif kind == "l1":
        C = L1Ball(d, draw(radii))
    elif kind == "linf":
        C = LinfBall(d, draw(radii))
    elif kind == "simplex":
        C = Simplex(d)
    elif kind == "group":
        C = GroupL1L2Ball(d, draw(st.integers(1, d)), draw(radii))
    else:
        k = draw(st.integers(1, 9))
        V = np.array(draw(st.lists(st.lists(st.floats(-5, 5, allow_nan=False), min_size=d, max_size=d),
                                   min_size=k, max_size=k)))
        C = Polytope(V)
    return C, g, x


def tol(*arrays):
    return 1e-9 * (1.0 + max(float(np.max(np.abs(a))) for a in arrays))


# ---------------------------------------------------------------------------
# LMO and support function

@pytest.mark.claim("core:LMO optimality")
@given(sets_and_points())
def test_lmo_is_feasible_and_optimal(case):
    C, g, _ = case
    v = C.lmo(g)
    assert v.shape == C.shape and np.all(np.isfinite(v))
    assert C.contains(v, atol=1e-9)
    # optimal: <g, v> equals min_C <g, .> = -support(-g), computed independently
    assert float(np.sum(g * v)) == pytest.approx(-brute_support(C, -g), abs=tol(g) * C.radius("l2") + 1e-12)
    assert C.support(g) == pytest.approx(brute_support(C, g), abs=tol(g) * C.radius("l2") + 1e-12)


@pytest.mark.claim("core:LMO optimality")
@given(st.integers(1, 6), st.data())
def test_polytope_lmo_is_lowest_index_best_vertex(d, data):
    k = data.draw(st.integers(1, 8))
    V = np.array(data.draw(st.lists(st.lists(st.integers(-3, 3), min_size=d, max_size=d),
                                    min_size=k, max_size=k)), dtype=float)
    g = np.array(data.draw(st.lists(st.integers(-3, 3), min_size=d, max_size=d)), dtype=float)
    scores = [float(v @ g) for v in V]                    # exact for small integers
    best = min(range(k), key=lambda i: (scores[i], i))    # lowest index among the minimisers
    np.testing.assert_array_equal(Polytope(V).lmo(g), V[best])


@pytest.mark.claim("core:LMO optimality")
@given(st.integers(1, 6), radii, st.data())
def test_l1_and_simplex_lmo_agree_with_their_vertex_polytopes(d, r, data):
    g = np.array(data.draw(st.lists(st.integers(-3, 3), min_size=d, max_size=d)), dtype=float)
    B = L1Ball(d, r)
    np.testing.assert_array_equal(B.lmo(g), Polytope(B.vertices()).lmo(g))
    S = Simplex(d)
    np.testing.assert_array_equal(S.lmo(g), Polytope(S.vertices()).lmo(g))
    Box = LinfBall(d, r)     # integer g: ties (g_j = 0) break to the lowest-index vertex
    np.testing.assert_array_equal(Box.lmo(g), Polytope(Box.vertices()).lmo(g))


@pytest.mark.claim("core:LMO optimality")
def test_lmo_beats_scipy_on_l2_and_nuclear_balls():
    """Against a generic constrained solver: no feasible point scipy finds does better."""
    rng = np.random.default_rng(7)
    for _ in range(5):
        g = rng.normal(size=4)
        C = L2Ball(4, 1.7)
        res = minimize(lambda v: g @ v, x0=np.zeros(4), method="SLSQP",
                       constraints=[{"type": "ineq", "fun": lambda v: 1.7 ** 2 - v @ v}])
        # SLSQP may end a hair outside the ball: compare within its feasibility slack
        slack = max(0.0, float(np.linalg.norm(res.x)) - 1.7) * float(np.linalg.norm(g))
        assert g @ C.lmo(g) <= res.fun + slack + 1e-9
        G = rng.normal(size=(2, 3))
        N = NuclearBall((2, 3), 0.8)
        # every unit-norm rank-one direction is feasible: sample many and compare
        U = rng.normal(size=(4000, 2))
        W = rng.normal(size=(4000, 3))
        U /= np.linalg.norm(U, axis=1, keepdims=True)
        W /= np.linalg.norm(W, axis=1, keepdims=True)
        sampled = 0.8 * np.einsum("ni,ij,nj->n", U, G, W)
        assert float(np.sum(G * N.lmo(G))) <= sampled.min() + 1e-12


@pytest.mark.claim("core:LMO optimality")
def test_lmo_of_zero_gradient_is_a_documented_extreme_point():
    assert L2Ball(3, 2.0).lmo(np.zeros(3)).tolist() == [2.0, 0.0, 0.0]
    assert L1Ball(3, 2.0).lmo(np.zeros(3)).tolist() == [2.0, 0.0, 0.0]
    assert Simplex(3).lmo(np.zeros(3)).tolist() == [1.0, 0.0, 0.0]
    assert LinfBall(3, 2.0).lmo(np.zeros(3)).tolist() == [-2.0, -2.0, -2.0]   # its first vertex
    assert LinfBall(3, 2.0).vertices()[0].tolist() == [-2.0, -2.0, -2.0]
    assert NuclearBall((2, 2), 1.0).lmo(np.zeros((2, 2))).tolist() == [[1.0, 0.0], [0.0, 0.0]]


# ---------------------------------------------------------------------------
# Projection

@pytest.mark.claim("core:Euclidean projection")
@given(sets_and_points())
def test_projection_is_feasible_and_satisfies_the_variational_inequality(case):
    C, _, x = case
    p = C.project(x)
    assert p.shape == C.shape and np.all(np.isfinite(p))
    assert C.contains(p, atol=1e-8 * (1 + float(np.max(np.abs(x)))))
    resid = x - p
    # <x - p, v - p> <= 0 for all v in C  <=>  support(x - p) <= <x - p, p>
    lhs = brute_support(C, resid)
    rhs = float(np.sum(resid * p))
    assert lhs <= rhs + 1e-8 * (1 + float(np.sum(x * x)))


@pytest.mark.claim("core:Euclidean projection")
@given(sets_and_points())
def test_projection_is_idempotent_and_fixes_points_of_the_set(case):
    C, g, x = case
    p = C.project(x)
    np.testing.assert_allclose(C.project(p), p, atol=1e-8 * (1 + float(np.max(np.abs(x)))))
    v = C.lmo(g)     # a point of C: projection leaves it where it is
    np.testing.assert_allclose(C.project(v), v, atol=1e-9 * (1 + float(np.max(np.abs(v)))))


@pytest.mark.claim("core:Euclidean projection")
def test_simplex_and_l1_projection_match_a_scipy_qp():
    rng = np.random.default_rng(11)
    for _ in range(6):
        d = int(rng.integers(2, 7))
        x = rng.normal(size=d) * 2
        # simplex
        res = minimize(lambda v: np.sum((v - x) ** 2), x0=np.full(d, 1 / d), method="SLSQP",
                       bounds=[(0, None)] * d, constraints=[{"type": "eq", "fun": lambda v: v.sum() - 1}],
                       options={"ftol": 1e-14, "maxiter": 500})
        p = project_simplex(x)
        assert np.sum((p - x) ** 2) <= res.fun + 1e-9
        np.testing.assert_allclose(p, res.x, atol=1e-5)
        # l1 ball of radius 0.7 by splitting v = a - b, a, b >= 0
        r = 0.7
        obj = lambda ab: np.sum((ab[:d] - ab[d:] - x) ** 2)  # noqa: E731
        res = minimize(obj, x0=np.zeros(2 * d), method="SLSQP", bounds=[(0, None)] * (2 * d),
                       constraints=[{"type": "ineq", "fun": lambda ab: r - ab.sum()}],
                       options={"ftol": 1e-14, "maxiter": 500})
        q = project_l1_ball(x, r)
        assert np.sum((q - x) ** 2) <= res.fun + 1e-9
        np.testing.assert_allclose(q, res.x[:d] - res.x[d:], atol=1e-5)


@pytest.mark.claim("core:Euclidean projection")
def test_projection_closed_forms():
    # l2 ball: radial scaling
    np.testing.assert_allclose(L2Ball(2, 1.0).project(np.array([3.0, 4.0])), [0.6, 0.8])
    # simplex: x = (2, 0, 0) -> e_1; x = (0.5, 0.5, 0.5) -> uniform
    np.testing.assert_allclose(Simplex(3).project(np.array([2.0, 0.0, 0.0])), [1, 0, 0])
    np.testing.assert_allclose(Simplex(3).project(np.array([0.5, 0.5, 0.5])), [1 / 3] * 3)
    # l1 ball: (3, 1) onto radius 1 -> (1, 0) (threshold 2)
    np.testing.assert_allclose(L1Ball(2, 1.0).project(np.array([3.0, -1.0])), [1.0, 0.0])
    np.testing.assert_allclose(L1Ball(2, 1.0).project(np.array([2.0, -1.5])), [0.75, -0.25])
    # nuclear ball: diag(3, 1) onto radius 1 -> diag(1, 0)
    np.testing.assert_allclose(NuclearBall((2, 2), 1.0).project(np.diag([3.0, 1.0])), np.diag([1.0, 0.0]),
                               atol=1e-12)


# ---------------------------------------------------------------------------
# Radius and diameter

@pytest.mark.claim("core:set radius and diameter")
@given(st.integers(1, 7), radii)
def test_radius_and_diameter_closed_forms(d, r):
    norms = {"l1": lambda v: np.abs(v).sum(), "l2": np.linalg.norm, "linf": lambda v: np.abs(v).max()}
    for C in (L1Ball(d, r), LinfBall(d, r), Simplex(d), Polytope(np.random.default_rng(d).normal(size=(5, d)))):
        V = C.vertices()
        for name, f in norms.items():
            # convex functions attain their max over a polytope at vertices (pairs of vertices)
            assert C.radius(name) == pytest.approx(max(f(v) for v in V), rel=1e-12)
            assert C.diameter(name) == pytest.approx(max(f(u - v) for u in V for v in V), rel=1e-12, abs=1e-15)
    B = L2Ball(d, r)
    assert B.radius("l2") == pytest.approx(r)
    assert B.radius("l1") == pytest.approx(np.abs(np.full(d, r / math.sqrt(d))).sum())  # attained
    assert B.diameter("l2") == pytest.approx(2 * r)
    G = GroupL1L2Ball(d, 2 if d >= 2 else 1, r)
    assert G.radius("l2") == pytest.approx(r) and G.diameter("l2") == pytest.approx(2 * r)


@pytest.mark.claim("core:set radius and diameter")
def test_nuclear_ball_radius_in_each_norm_is_attained():
    N = NuclearBall((2, 3), 1.5)
    uv = 1.5 * np.outer(np.ones(2) / math.sqrt(2), np.ones(3) / math.sqrt(3))
    assert N.contains(uv)
    assert N.radius("l1") == pytest.approx(np.abs(uv).sum())
    assert N.radius("frobenius") == pytest.approx(1.5) and N.radius("operator") == pytest.approx(1.5)
    assert N.diameter("nuclear") == pytest.approx(3.0)


# ---------------------------------------------------------------------------
# Bad input

@pytest.mark.claim("core:Geometry input validation")
def test_bad_inputs_raise_specific_errors():
    with pytest.raises(ParameterError):
        L2Ball(3, 0.0)
    with pytest.raises(ParameterError):
        L1Ball(3, -1.0)
    with pytest.raises(NonFiniteError):
        L1Ball(3, math.inf)
    with pytest.raises(ParameterError):
        LinfBall(3, -1.0)
    with pytest.raises(ParameterError):
        LinfBall(0, 1.0)
    with pytest.raises(ParameterError):
        LinfBall(17).vertices()          # 2^17 vertices: refused
    with pytest.raises(ParameterError):
        Simplex(0)
    with pytest.raises(ParameterError):
        L2Ball(2.5, 1.0)
    with pytest.raises(ShapeError):
        Polytope(np.zeros((0, 3)))
    with pytest.raises(ShapeError):
        Polytope([1.0, 2.0])
    with pytest.raises(NonFiniteError):
        Polytope([[0.0, np.nan], [1.0, 1.0]])
    with pytest.raises(NonFiniteError):
        Polytope([[0.0, np.inf]])
    with pytest.raises(ShapeError):
        NuclearBall((2,), 1.0)
    with pytest.raises(ShapeError):
        GroupL1L2Ball(5, [2, 2], 1.0)
    with pytest.raises(ParameterError):
        GroupL1L2Ball(3, 4, 1.0)
    C = L1Ball(3, 1.0)
    with pytest.raises(ShapeError):
        C.lmo(np.zeros(4))
    with pytest.raises(ShapeError):
        C.project(np.zeros((3, 1)))
    with pytest.raises(NonFiniteError):
        C.project(np.array([0.0, np.nan, 1.0]))
    with pytest.raises(NonFiniteError):
        C.contains(np.array([np.inf, 0.0, 0.0]))
    with pytest.raises(ParameterError):
        C.contains(np.zeros(3), atol=-1.0)
    with pytest.raises(ParameterError):
        C.radius("l3")
    with pytest.raises(ParameterError):
        L2Ball(2).vertices()
    with pytest.raises(ShapeError):
        NuclearBall((2, 2)).lmo(np.zeros(4))


@pytest.mark.claim("core:Geometry input validation")
def test_membership_tolerance_is_honoured():
    C = L1Ball(2, 1.0)
    assert C.contains([0.5, 0.5]) and not C.contains([0.5, 0.5 + 1e-6])
    assert C.contains([0.5, 0.5 + 1e-6], atol=1e-5)
    S = Simplex(3)
    assert S.contains([0.2, 0.3, 0.5]) and not S.contains([0.6, 0.6, -0.2])
    P = Polytope([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    assert P.contains([0.25, 0.25]) and P.contains([0.5, 0.5]) and not P.contains([0.6, 0.6])
    assert not P.contains([-1e-3, 0.5]) and P.contains([-1e-3, 0.5], atol=2e-3)
    # below the LP solver's own feasibility tolerance (1e-7): decided by the recomputed residual
    assert not P.contains([0.5, 0.5 + 1e-8]) and P.contains([0.5, 0.5 + 1e-8], atol=1e-7)


@pytest.mark.claim("core:Geometry input validation")
@given(sets_and_points(), st.sampled_from([1e-150, 1e-20, 1.0, 1e20, 1e100]))
def test_no_nan_at_extreme_magnitudes(case, magnitude):
    """Tiny and huge (finite) inputs give finite, feasible answers, never NaN."""
    C, g, x = case
    g, x = g * magnitude, x * magnitude
    v = C.lmo(g)
    p = C.project(x)
    assert np.all(np.isfinite(v)) and np.all(np.isfinite(p))
    assert C.contains(v, atol=1e-9) and C.contains(p, atol=1e-8 * C.radius("l2") + 1e-8)
    assert not math.isnan(C.support(g))


entries = st.one_of(st.just(0.0), st.floats(1e-3, 3), st.floats(-3, -1e-3))


@pytest.mark.claim("core:Symmetric gauge")
@given(st.integers(1, 5), st.data())
def test_symmetric_gauge_and_its_dual(d, data):
    """Entries 0 or of size in [1e-3, 3]: the LP is well conditioned (see the ill-conditioned case below)."""
    k = data.draw(st.integers(1, 7))
    V = np.array(data.draw(st.lists(st.lists(entries, min_size=d, max_size=d), min_size=k, max_size=k)))
    P = Polytope(V)
    alpha = np.array(data.draw(st.lists(entries, min_size=k, max_size=k)))
    x = alpha @ V                                           # in the span, with ||alpha||_1 feasible
    b = np.array(data.draw(st.lists(entries, min_size=d, max_size=d)))
    gx = P.gauge(x)
    tol = 1e-7 * (1 + np.sum(np.abs(alpha)))                # LP solver accuracy (HiGHS, 1e-10 feasibility)
    assert 0 <= gx <= np.sum(np.abs(alpha)) + tol
    assert abs(x @ b) <= (gx + tol) * P.dual_gauge(b) + 1e-9          # Hoelder for the pair
    r = float(np.max(np.linalg.norm(V, axis=1)))
    if r > 0:
        assert gx + tol >= np.linalg.norm(x) / r                    # erm_geometry-P36


@pytest.mark.claim("core:Geometry input validation")
def test_gauge_refuses_ill_conditioned_vertex_sets():
    with pytest.raises(ParameterError):
        Polytope([[1e-13, 0.0], [0.0, 1.0]]).gauge(np.array([1e-13, 0.0]))


@pytest.mark.claim("core:Symmetric gauge")
def test_gauge_of_the_l1_ball_vertices_is_the_scaled_l1_norm():
    B = L1Ball(4, 2.0)
    P = Polytope(B.vertices())
    x = np.array([0.5, -1.0, 0.0, 3.0])
    assert P.gauge(x) == pytest.approx(np.abs(x).sum() / 2.0, rel=1e-9)
    assert P.dual_gauge(x) == pytest.approx(2.0 * np.abs(x).max())
    assert Polytope([[1.0, 0.0]]).gauge(np.array([0.0, 1.0])) == math.inf    # outside the span


@pytest.mark.claim("core:Euclidean projection")
def test_polytope_projection_refuses_an_uncertified_point(monkeypatch):
    """Negative control for the built-in certificate: a min-norm-point routine that stops at a
    wrong vertex must make project() raise SolverError, not return the vertex."""
    import reference.geometry.sets as sets_module
    from reference.errors import SolverError

    P = Polytope([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    monkeypatch.setattr(sets_module, "_min_norm_point", lambda shifted: ([0], np.array([1.0])))
    with pytest.raises(SolverError):
        P.project(np.array([2.0, 2.0]))
