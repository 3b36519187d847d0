"""Mirror maps: Bregman divergences, gradients, strong convexity, mirror steps.

Reference values: finite differences, closed forms written out here (projection,
exponentiated gradient), scipy's SLSQP on the same subproblem, and the first-order
optimality residual.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy.optimize import minimize

from reference.errors import ParameterError, ShapeError
from reference.geometry.mirror import EuclideanMap, GroupNormMap, NegativeEntropyMap, PNormMap, SchattenMap
from reference.geometry.sets import GroupL1L2Ball, L1Ball, L2Ball, LinfBall, NuclearBall, Simplex, project_l1_ball

ps = st.floats(1.05, 2.0)
coords = st.floats(-5, 5, allow_nan=False)


def vec(d):
    return st.lists(coords, min_size=d, max_size=d).map(np.array)


def simplex_point(d):
    return st.lists(st.floats(1e-3, 1.0), min_size=d, max_size=d).map(lambda v: np.array(v) / np.sum(v))


def lp(v, p):
    return float(np.sum(np.abs(v) ** p)) ** (1 / p)


# ---------------------------------------------------------------------------
# Bregman divergence and gradients

@pytest.mark.claim("core:Bregman divergence")
@given(st.integers(1, 6).flatmap(lambda d: st.tuples(vec(d), vec(d))), ps)
def test_bregman_is_nonnegative_and_zero_iff_equal_euclidean_and_pnorm(xy, p):
    x, y = xy
    for m in (EuclideanMap(), PNormMap(p)):
        assert m.bregman(x, x) == 0.0 and m.bregman(y, y) == 0.0
        b = m.bregman(x, y)
        assert b >= 0 and math.isfinite(b)
        if np.max(np.abs(x - y)) > 1e-3:
            assert b > 0


@pytest.mark.claim("core:Bregman divergence")
@given(st.integers(2, 6).flatmap(lambda d: st.tuples(simplex_point(d), simplex_point(d))))
def test_entropy_bregman_is_kl(xy):
    x, y = xy
    m = NegativeEntropyMap()
    kl = float(np.sum(x * np.log(x / y)))
    assert m.bregman(x, y) == pytest.approx(kl, abs=1e-12)
    assert m.bregman(x, x) == 0.0
    if np.max(np.abs(x - y)) > 1e-3:
        assert m.bregman(x, y) > 0


@pytest.mark.claim("core:Bregman divergence")
@given(st.integers(1, 5).flatmap(vec), ps)
def test_gradients_match_central_finite_differences(x, p):
    assume(np.min(np.abs(x)) > 1e-2)            # |x|^p is smooth away from zero coordinates
    h = 1e-6
    for m in (EuclideanMap(center=np.ones_like(x) * 0.3), PNormMap(p), PNormMap(p, scale=0.7)):
        fd = np.array([(m.psi(x + h * e) - m.psi(x - h * e)) / (2 * h) for e in np.eye(x.size)])
        np.testing.assert_allclose(m.grad(x), fd, rtol=1e-5, atol=1e-6 * (1 + np.max(np.abs(x))))
    xs = np.abs(x) / np.sum(np.abs(x))
    e = NegativeEntropyMap()
    fd = np.array([(e.psi(xs + h * u) - e.psi(xs - h * u)) / (2 * h) for u in np.eye(x.size)])
    np.testing.assert_allclose(e.grad(xs), fd, rtol=1e-5, atol=1e-6)


@pytest.mark.claim("core:Bregman divergence")
@given(st.integers(1, 6).flatmap(vec), ps)
def test_dual_gradient_inverts_the_gradient(x, p):
    m = PNormMap(p, scale=0.8)
    np.testing.assert_allclose(m.dual_grad(m.grad(x)), x, rtol=1e-9, atol=1e-12 * (1 + np.max(np.abs(x))))


# ---------------------------------------------------------------------------
# Strong convexity

@pytest.mark.claim("core:Strong convexity of mirror maps")
@given(st.integers(2, 8).flatmap(lambda d: st.tuples(simplex_point(d), simplex_point(d))))
def test_entropy_is_1_strongly_convex_wrt_l1_on_the_simplex(xy):
    x, y = xy
    assert NegativeEntropyMap().bregman(x, y) >= 0.5 * float(np.sum(np.abs(x - y))) ** 2 - 1e-12


@pytest.mark.claim("core:Strong convexity of mirror maps")
@given(st.integers(1, 6).flatmap(lambda d: st.tuples(vec(d), vec(d))), ps)
def test_pnorm_map_is_1_strongly_convex_wrt_lp(xy, p):
    x, y = xy
    m = PNormMap(p)
    assert m.strong_convexity == pytest.approx(1.0)
    assert m.bregman(x, y) >= 0.5 * lp(x - y, p) ** 2 * (1 - 1e-9) - 1e-12


@pytest.mark.claim("core:Strong convexity of mirror maps")
@given(st.integers(3, 40), st.data())
def test_pnorm_map_for_l1_ball_modulus_wrt_l1(d, data):
    m = PNormMap.for_l1_ball(d)
    sc = m.strong_convexity_wrt("l1", d)
    assert m.p == pytest.approx(1 + 1 / math.log(d))
    assert sc == pytest.approx(math.exp(-2 / m.p), rel=1e-12) and sc >= math.exp(-2)
    x = L1Ball(d).project(np.array(data.draw(vec(d))))
    y = L1Ball(d).project(np.array(data.draw(vec(d))))
    assert m.bregman(x, y) >= 0.5 * sc * float(np.sum(np.abs(x - y))) ** 2 * (1 - 1e-9) - 1e-12


@pytest.mark.claim("core:Strong convexity of mirror maps")
@pytest.mark.parametrize("d", [1, 2, 5, 40])
def test_euclidean_modulus_wrt_other_norms(d):
    """1/2||x||_2^2 is 1-strongly convex w.r.t. l2 and linf and 1/d-strongly convex w.r.t. l1; the l1 modulus
    is attained along the all-ones direction (||v||_2^2 = ||v||_1^2 / d there), so no larger one holds."""
    m = EuclideanMap()
    assert m.strong_convexity_wrt("l2") == 1.0 and m.strong_convexity_wrt("linf") == 1.0
    sc = m.strong_convexity_wrt("l1", d)
    assert sc == pytest.approx(1.0 / d, rel=1e-15)
    rng = np.random.default_rng(d)
    for _ in range(50):
        x, y = rng.normal(size=d), rng.normal(size=d)
        assert m.bregman(x, y) >= 0.5 * sc * float(np.sum(np.abs(x - y))) ** 2 * (1 - 1e-12)
    x, y = np.full(d, 0.7), np.full(d, -0.2)                 # x - y along the all-ones direction
    assert m.bregman(x, y) == pytest.approx(0.5 * sc * float(np.sum(np.abs(x - y))) ** 2, rel=1e-12)


@pytest.mark.claim("core:Fact 3.4 normalisation")
@given(st.sampled_from([8, 12, 20, 100, 1000]), st.integers(2, 6).flatmap(lambda d: st.tuples(vec(d), vec(d))))
def test_paper_fact_3_4_potential_has_modulus_one_half(k, xy):
    x, y = xy
    m = PNormMap.paper_fact_3_4(k)
    assert m.p == pytest.approx(math.log(k) / (math.log(k) - 1))
    assert m.strong_convexity == pytest.approx(0.5)
    assert m.bregman(x, y) >= 0.25 * lp(x - y, m.p) ** 2 * (1 - 1e-9) - 1e-12


@pytest.mark.claim("core:Fact 3.4 normalisation")
@pytest.mark.parametrize("k", [8, 12, 20, 100, 1000, 10**6])
def test_paper_fact_3_4_potential_is_not_1_strongly_convex(k):
    """At x = (1, 1), y = x + t(1, -1): B_psi(y, x) / (1/2 ||y - x||_q^2) -> 1/2 as t -> 0 (< 1 as printed)."""
    m = PNormMap.paper_fact_3_4(k)
    x = np.array([1.0, 1.0])
    y = x + 1e-3 * np.array([1.0, -1.0])
    ratio = m.bregman(y, x) / (0.5 * lp(y - x, m.p) ** 2)
    assert ratio < 0.51


# ---------------------------------------------------------------------------
# Mirror steps

@pytest.mark.claim("core:Mirror step optimality")
@given(st.integers(1, 6), st.data(), st.floats(0.01, 5))
def test_euclidean_step_is_the_projection(d, data, eta):
    x0, g = np.array(data.draw(vec(d))), np.array(data.draw(vec(d)))
    for C in (L1Ball(d, 1.5), L2Ball(d, 0.7), Simplex(d)):
        x = C.project(x0)
        y = EuclideanMap().mirror_step(x, g, eta, C)
        np.testing.assert_allclose(y, C.project(x - eta * g))
        assert EuclideanMap().step_residual(x, g, eta, C, y) <= 1e-9 * (1 + np.max(np.abs(g)) * eta + d)
    C = NuclearBall((2, 3), 1.0)
    X, G = C.project(np.ones((2, 3))), np.arange(6.0).reshape(2, 3)
    np.testing.assert_allclose(EuclideanMap().mirror_step(X, G, 0.3, C), C.project(X - 0.3 * G))


@pytest.mark.claim("core:Mirror step optimality")
@given(st.integers(2, 7).flatmap(lambda d: st.tuples(simplex_point(d), vec(d))), st.floats(0.01, 5))
def test_entropy_step_is_exponentiated_gradient(xg, eta):
    x, g = xg
    m, C = NegativeEntropyMap(), Simplex(x.size)
    y = m.mirror_step(x, g, eta, C)
    w = [xi * math.exp(-eta * gi) for xi, gi in zip(x, g)]
    np.testing.assert_allclose(y, np.array(w) / sum(w), rtol=1e-12)
    assert C.contains(y)
    assert abs(m.step_residual(x, g, eta, C, y)) <= 1e-9 * (1 + eta * np.max(np.abs(g)))


@pytest.mark.claim("core:Mirror step optimality")
@given(st.integers(2, 12), st.data(), st.floats(0.01, 5), st.floats(0.2, 3))
def test_pnorm_step_on_l1_ball_and_simplex_satisfies_first_order_optimality(d, data, eta, r):
    m = PNormMap.for_l1_ball(d) if d >= 3 else PNormMap(1.5)
    g = np.array(data.draw(vec(d)))
    for C in (L1Ball(d, r), Simplex(d)):
        x = C.project(np.array(data.draw(vec(d))))
        y = m.mirror_step(x, g, eta, C)
        assert C.contains(y, atol=1e-9)
        scale = 1 + float(np.max(np.abs(m.grad(x)))) + eta * float(np.max(np.abs(g)))
        assert 0 <= m.step_residual(x, g, eta, C, y) + 1e-12 <= 1e-8 * scale * (1 + C.radius("l1"))


@pytest.mark.claim("core:Mirror step optimality")
def test_pnorm_step_with_p_2_is_the_l1_projection_and_beats_scipy():
    rng = np.random.default_rng(17)
    for _ in range(5):
        d = 6
        C = L1Ball(d, 1.0)
        x, g = C.project(rng.normal(size=d)), rng.normal(size=d) * 3
        np.testing.assert_allclose(PNormMap(2.0).mirror_step(x, g, 0.4, C), project_l1_ball(x - 0.4 * g, 1.0),
                                   atol=1e-12)
        m = PNormMap.for_l1_ball(d)
        y = m.mirror_step(x, g, 0.4, C)
        obj = lambda v: 0.4 * g @ v + m.bregman(v, x)  # noqa: E731
        # generic solver on v = a - b, a, b >= 0, sum(a + b) <= 1
        res = minimize(lambda ab: obj(ab[:d] - ab[d:]), x0=np.concatenate([np.maximum(x, 0), np.maximum(-x, 0)]),
                       method="SLSQP", bounds=[(0, None)] * (2 * d),
                       constraints=[{"type": "ineq", "fun": lambda ab: 1 - ab.sum()}],
                       options={"ftol": 1e-14, "maxiter": 1000})
        assert obj(y) <= res.fun + 1e-9
        # simplex as well
        S = Simplex(d)
        xs = S.project(rng.normal(size=d))
        ys = m.mirror_step(xs, g, 0.4, S)
        objs = lambda v: 0.4 * g @ v + m.bregman(v, xs)  # noqa: E731
        res = minimize(objs, x0=np.full(d, 1 / d), method="SLSQP", bounds=[(0, None)] * d,
                       constraints=[{"type": "eq", "fun": lambda v: v.sum() - 1}],
                       options={"ftol": 1e-14, "maxiter": 1000})
        assert objs(ys) <= res.fun + 1e-9


@pytest.mark.claim("core:Mirror step optimality")
def test_ranges_and_minimisers():
    assert NegativeEntropyMap().psi_range(Simplex(7)) == pytest.approx(math.log(7))
    np.testing.assert_allclose(NegativeEntropyMap().minimiser(Simplex(4)), [0.25] * 4)
    m = PNormMap(1.5)
    assert m.psi_range(L1Ball(5, 2.0)) == pytest.approx(m.scale * 4.0)         # psi(r e_j) - psi(0)
    assert EuclideanMap().psi_range(L2Ball(3, 2.0)) == pytest.approx(2.0)
    assert EuclideanMap().psi_range(Simplex(3)) == pytest.approx(0.5 - 0.5 / 3)
    box_map = EuclideanMap(center=np.array([0.5, -1.0]))     # farthest vertex of [-2, 2]^2 from c: (-2, 2)
    assert box_map.psi_range(LinfBall(2, 2.0)) == pytest.approx(0.5 * (2.5 ** 2 + 3.0 ** 2))
    np.testing.assert_array_equal(box_map.minimiser(LinfBall(2, 2.0)), [0.5, -1.0])


@pytest.mark.claim("core:Geometry input validation")
def test_bad_mirror_inputs_raise():
    with pytest.raises(ParameterError):
        PNormMap(1.0)
    with pytest.raises(ParameterError):
        PNormMap(2.5)
    with pytest.raises(ParameterError):
        PNormMap(1.5, scale=0.0)
    with pytest.raises(ParameterError):
        NegativeEntropyMap().grad(np.array([0.5, 0.0, 0.5]))
    with pytest.raises(ParameterError):
        NegativeEntropyMap().mirror_step(np.array([0.5, 0.5]), np.zeros(2), 1.0, L1Ball(2))
    with pytest.raises(ParameterError):
        NegativeEntropyMap().mirror_step(np.array([0.7, 0.7]), np.zeros(2), 1.0, Simplex(2))
    with pytest.raises(ParameterError):
        PNormMap(1.5).mirror_step(np.zeros(2), np.zeros(2), 1.0, L2Ball(2))
    with pytest.raises(ParameterError):
        EuclideanMap().mirror_step(np.zeros(2), np.zeros(2), 0.0, L2Ball(2))
    with pytest.raises(ShapeError):
        EuclideanMap().mirror_step(np.zeros(2), np.zeros(3), 1.0, L2Ball(2))
    with pytest.raises(ShapeError):
        PNormMap(1.5).bregman(np.zeros(2), np.zeros(3))
    with pytest.raises(ParameterError):
        PNormMap(1.5).strong_convexity_wrt("l1")        # needs the dimension


@pytest.mark.claim("core:Mirror step optimality")
def test_pnorm_step_refuses_to_return_an_uncertified_point(monkeypatch):
    """Negative control for the built-in optimality check: a solver returning a feasible but
    wrong point (here the starting point) must raise SolverError, not return it."""
    from reference.errors import SolverError

    m, C = PNormMap(1.5), L1Ball(4, 1.0)
    x, g = np.array([0.2, -0.1, 0.3, 0.0]), np.array([1.0, -2.0, 0.5, 3.0])
    monkeypatch.setattr(PNormMap, "_solve_step", lambda self, x, g, eta, C: x.copy())
    with pytest.raises(SolverError):
        m.mirror_step(x, g, 0.5, C)


# ---------------------------------------------------------------------------
# Maps tied to one set: GroupNormMap (grouped l1/l2 ball), SchattenMap (nuclear ball)

def _group_gauge(C, v):
    """sum_j ||v^(j)||_2 / r, written out here from the block bounds."""
    return sum(float(np.linalg.norm(v[a:b])) for a, b in zip(C.bounds[:-1], C.bounds[1:])) / C.r


def _point_in(C, rng):
    """A random point of C: a random direction scaled into the ball by its own gauge."""
    v = rng.standard_normal(C.shape)
    gauge = _group_gauge(C, v) if isinstance(C, GroupL1L2Ball) else float(np.linalg.norm(v, "nuc")) / C.r
    return v * (rng.random() / gauge)


@pytest.mark.claim("core:Group and Schatten maps")
@given(st.integers(0, 2**32 - 1), st.integers(1, 10), st.integers(1, 4), st.floats(0.3, 3.0))
def test_group_map_is_1_strongly_convex_in_the_gauge_with_its_range(seed, d, k, r):
    C = GroupL1L2Ball(d, min(k, d), r)
    m = GroupNormMap(C)
    rng = np.random.default_rng(seed)
    x, y = _point_in(C, rng), _point_in(C, rng)
    assert m.bregman(x, y) >= 0.5 * _group_gauge(C, x - y) ** 2 - 1e-12
    top = np.zeros(d)
    top[C.bounds[-2]] = r                      # one non-zero block of norm r: the max of psi over C
    assert m.psi_range(C) == pytest.approx(m.psi(top) - m.psi(m.minimiser(C)), rel=1e-12)
    assert m.psi(x) <= m.psi_range(C) * (1 + 1e-12)
    if len(C.sizes) >= 3:                      # O(log m) range
        assert m.psi_range(C) <= math.e * math.log(len(C.sizes)) * (1 + 1e-12)


@pytest.mark.claim("core:Group and Schatten maps")
@given(st.integers(0, 2**32 - 1), st.integers(2, 4), st.integers(2, 4), st.floats(0.3, 3.0))
def test_schatten_map_is_1_strongly_convex_in_the_nuclear_gauge_with_its_range(seed, d1, d2, r):
    C = NuclearBall((d1, d2), r)
    m = SchattenMap(C)
    rng = np.random.default_rng(seed)
    x, y = _point_in(C, rng), _point_in(C, rng)
    assert m.bregman(x, y) >= 0.5 * (float(np.linalg.norm(x - y, "nuc")) / r) ** 2 - 1e-12
    u, v = rng.standard_normal(d1), rng.standard_normal(d2)
    rank_one = r * np.outer(u / np.linalg.norm(u), v / np.linalg.norm(v))
    assert m.psi_range(C) == pytest.approx(m.psi(rank_one), rel=1e-12) and m.psi(m.minimiser(C)) == 0.0
    assert m.psi(x) <= m.psi_range(C) * (1 + 1e-12)


@pytest.mark.claim("core:Group and Schatten maps")
@pytest.mark.parametrize("C", [GroupL1L2Ball(6, 2, 1.0), GroupL1L2Ball(7, [1, 2, 4], 2.0), NuclearBall((3, 3), 1.0),
                               NuclearBall((2, 4), 0.5)], ids=repr)
def test_group_and_schatten_steps_stay_in_C_and_beat_a_generic_solver(C):
    m = GroupNormMap(C) if isinstance(C, GroupL1L2Ball) else SchattenMap(C)
    rng = np.random.default_rng(11)
    x = m.minimiser(C)
    for eta in (0.05, 0.7, 3.0):
        g = 2 * rng.standard_normal(C.shape)
        y = m.mirror_step(x, g, eta, C)
        assert C.contains(y, atol=1e-12)
        z = m.grad(x) - eta * g
        obj = lambda v: -float(np.sum(z * v.reshape(C.shape))) + m.psi(v.reshape(C.shape))  # noqa: E731
        gauge = ((lambda v: _group_gauge(C, v)) if isinstance(C, GroupL1L2Ball)
                 else (lambda v: float(np.linalg.norm(v.reshape(C.shape), "nuc")) / C.r))
        best = min((minimize(obj, s0, method="SLSQP", constraints=[{"type": "ineq", "fun": lambda v: 1 - gauge(v)}],
                             options={"ftol": 1e-14, "maxiter": 500})
                    for s0 in (np.full(C.dim, 1e-3), 0.5 * y.ravel())), key=lambda res: res.fun)
        feasible = best.x / max(1.0, gauge(best.x))    # SLSQP may end slightly outside C: scale it in
        assert obj(y.ravel()) <= obj(feasible) + 1e-9   # no feasible point does better than the step
        np.testing.assert_allclose(y.ravel(), best.x, atol=2e-3)
        x = y


@pytest.mark.claim("core:Group and Schatten maps")
def test_group_step_has_zero_first_order_residual_and_maps_refuse_other_sets():
    C = GroupL1L2Ball(9, 3, 1.5)
    m = GroupNormMap(C)
    rng = np.random.default_rng(3)
    x = m.minimiser(C)
    for _ in range(5):
        g = rng.standard_normal(9)
        y = m.mirror_step(x, g, 0.8, C)
        assert abs(m.step_residual(x, g, 0.8, C, y)) <= 1e-9
        x = y
    with pytest.raises(ParameterError):
        m.mirror_step(x, g, 0.8, GroupL1L2Ball(9, 3, 1.0))     # another radius: not this map's set
    with pytest.raises(ParameterError):
        GroupNormMap(L1Ball(4))
    with pytest.raises(ParameterError):
        SchattenMap(L2Ball(4))
    with pytest.raises(ParameterError):
        GroupNormMap(C, kappa=2.5)


@pytest.mark.claim("core:Group and Schatten maps")
def test_schatten_gradient_at_a_rank_deficient_matrix():
    """Review finding: at a rank-2 16 x 16 matrix the SVD left ~1e-16 singular values that, raised to
    q ~ 0.18, put spurious terms of size ~1e-3 into the gradient. Against the exact formula
    c (1 + q) sum_i s_i^q u_i v_i^T / r over the true nonzero singular values."""
    import numpy as np

    from reference.geometry.mirror import SchattenMap
    from reference.geometry.sets import NuclearBall

    rng = np.random.default_rng(4)
    m = 16
    U, _ = np.linalg.qr(rng.standard_normal((m, m)))
    V, _ = np.linalg.qr(rng.standard_normal((m, m)))
    sv = np.array([0.5, 0.2])
    x = (U[:, :2] * sv) @ V[:, :2].T                       # rank 2, nuclear norm 0.7 < r = 2
    phi = SchattenMap(NuclearBall((m, m), 2.0))
    r = 2.0
    exact = (U[:, :2] * (phi.c * (1 + phi.q) * (sv / r) ** phi.q)) @ V[:, :2].T / r
    assert np.linalg.norm(phi.grad(x) - exact, 2) < 1e-10


@pytest.mark.claim("core:Mirror step optimality")
@pytest.mark.parametrize("dim", [2, 3, 8, 17])
def test_ranges_on_the_l1_ball_and_simplex_equal_the_vertex_enumeration(dim):
    """psi_range on the l1 ball and the simplex is computed without a vertex list (max psi at a vertex in closed
    form); it equals max over the enumerated vertices minus psi at the minimiser, for centred and off-centre
    Euclidean maps and the p-norm maps, at radii other than 1."""
    rng = np.random.default_rng(dim)
    for r in (0.3, 2.5):
        ball = L1Ball(dim, r)
        maps = [PNormMap.for_l1_ball(max(dim, 3)), PNormMap(1.7, scale=0.9), EuclideanMap(),
                EuclideanMap(center=rng.normal(size=dim))]
        for m in maps:
            enumerated = max(m.psi(v) for v in ball.vertices()) - m.psi(m.minimiser(ball))
            assert m.psi_range(ball) == pytest.approx(enumerated, rel=1e-13, abs=1e-15)
    simplex = Simplex(dim)
    for m in (PNormMap(1.5), EuclideanMap(center=rng.normal(size=dim))):
        enumerated = max(m.psi(v) for v in simplex.vertices()) - m.psi(m.minimiser(simplex))
        assert m.psi_range(simplex) == pytest.approx(enumerated, rel=1e-13, abs=1e-15)


def test_the_l1_ball_range_at_a_million_coordinates_builds_no_vertex_list():
    """d = 2^20: the vertex list would be 2^21 x 2^20 floats (16 TiB); the range is the closed form scale r^2 - 0."""
    m = PNormMap.for_l1_ball(2 ** 20)
    assert m.psi_range(L1Ball(2 ** 20, 1.5)) == pytest.approx(m.scale * 1.5 ** 2, rel=1e-15)
