"""Invariants of the online algorithms: no noise feedback, zero-noise reductions, stopped streams,
bad input; the base learners against independent computations (FTL / QFTL closed forms by scipy)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import optimize

from reference.algorithms import online as ol
from reference.errors import AssumptionViolation, ParameterError, ShapeError
from reference.geometry.sets import L2Ball, LinfBall


def quad_stream(T, d, seed, alpha=1.0):
    rng = np.random.default_rng(seed)
    return [ol.QuadraticLoss(rng.uniform(-0.5, 0.5, d), alpha, rng.uniform(-0.3, 0.3, d)) for _ in range(T)]


def sq_stream(T, d, seed, R=1.0, alpha=1.0):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(T):
        v = rng.uniform(-1, 1, d)
        v *= R * rng.uniform(0, 1) / np.linalg.norm(v)
        out.append(ol.SquaredLoss(v, R * rng.uniform(-1, 1), alpha))
    return out


@pytest.mark.claim("online:No feedback")
def test_nonprivate_state_is_identical_across_noise_seeds():
    C = L2Ball(2, 1.0)
    fs = quad_stream(40, 2, 0)
    L = max(f.lipschitz(C) for f in fs)
    runs = [ol.private_igd(fs, C, 40, 1.0, 1e-3, L, 0.5, np.random.default_rng(s), x1=np.zeros(2)) for s in (1, 2)]
    assert np.array_equal(runs[0].iterates, runs[1].iterates)
    assert not np.array_equal(runs[0].decisions, runs[1].decisions)
    # the non-private state is IGD's, recomputed here from eq. (13) (family (Q): exact prox) with eta = 1/(0.5 t)
    x, ref = np.zeros(2), [np.zeros(2)]
    for t, f in enumerate(fs[:-1], start=1):
        eta = 1.0 / (0.5 * t)
        y = (x - eta * f.g + eta * f.a * f.c) / (1 + eta * f.a)
        x = y * min(1.0, 1.0 / np.linalg.norm(y))
        ref.append(x)
    assert np.allclose(runs[0].iterates, np.array(ref), rtol=1e-13, atol=1e-15)
    assert np.allclose(ol.igd(fs, C, 0.5, x1=np.zeros(2)).decisions, np.array(ref)[:40], rtol=1e-13, atol=1e-15)


def test_pgiga_and_giga_updates_are_line_7():
    """x_{t+1} = Pi_C(x_t - eta_t grad f_t(x_t)), eta_t = 2/(alpha t) for PGIGA after the warm-up, recomputed here."""
    C = L2Ball(2, 1.0)
    fs = quad_stream(30, 2, 9, alpha=0.8)
    G = max(f.grad_bound(C) for f in fs)
    res = ol.private_giga(fs, C, 30, 1.0, 1e-3, G, 1.0, 0.5, np.random.default_rng(0))
    tq = res.extra["warmup"]
    assert tq == 8                              # ceil(2 * 1^2 / 0.5^2)
    X = res.iterates
    for t in range(tq, 30):
        y = X[t - 1] - 2.0 / (0.5 * t) * fs[t - 1].grad(X[t - 1])
        assert np.allclose(X[t], y * min(1.0, 1.0 / np.linalg.norm(y)), rtol=1e-13, atol=1e-15)
    run = ol.giga(fs, C, 0.5, x1=np.zeros(2)).decisions
    x = np.zeros(2)
    for t in range(1, 30):
        y = x - 1.0 / (0.5 * t) * fs[t - 1].grad(x)
        x = y * min(1.0, 1.0 / np.linalg.norm(y))
        assert np.allclose(run[t], x, rtol=1e-13, atol=1e-15)


@pytest.mark.claim("online:No feedback")
def test_zero_noise_reductions():
    C = L2Ball(2, 1.0)
    fs = quad_stream(20, 2, 1)
    res = ol.pocp(fs, C, ol.igd_update(1.0), 1.0, 20, 1.0, 1e-3, np.random.default_rng(0), x1=np.zeros(2),
                  beta=1e-12)
    assert np.allclose(res.decisions, res.iterates, atol=1e-9)
    # PQFTL with sigma = 0 is QFTL: Algorithm 5 with sigma = 0 inside Algorithm 4's lines
    sq = sq_stream(30, 3, 2)
    q = ol.qftl(sq, 1.0, d=3)
    V, u, x = np.zeros((3, 3)), np.zeros(3), [np.zeros(3)]
    BV = Bu = None
    for t, f in enumerate(sq[:-1], start=1):
        V_hat, BV = ol.private_sum(np.outer(f.v, f.v), BV, t, 1.0, 1.0, 0.1, 30, np.random.default_rng(0), sigma=0.0)
        u_hat, Bu = ol.private_sum(f.y * f.v, Bu, t, 1.0, 1.0, 0.1, 30, np.random.default_rng(0), sigma=0.0)
        x.append(np.linalg.solve(t * np.eye(3) + V_hat, u_hat))
    assert np.allclose(np.array(x), q.decisions, rtol=1e-12, atol=1e-14)


@pytest.mark.claim("online:No feedback")
@pytest.mark.parametrize("T,x1", [(9, 0.37), (16, -0.8)])
def test_pol_releases_the_average_of_x1_and_the_igd_iterates(T, x1):
    """Algorithm 6 lines 6-14 recomputed here: losses z_t x on R (L = 0.2), B = 1, eps_g = 0.1 so alpha = 0.1,
    x_1 != 0; line 9's IGD step on z_t x + (alpha/2) x^2 with eta_t = 1/(alpha t) is x_{t+1} = (t x_t - z_t/alpha)
    / (t + 1), projected onto [-B, B]; line 6 starts the sum at s = x_1 and line 12 divides by T. The average is
    compared to 1e-12, and the released decision (eps_p = 1e8: beta ~ 5e-5, certified) lies within
    6 beta of it: the decision is read, not only the average."""
    rng = np.random.default_rng(T)
    z = rng.uniform(-0.2, 0.2, T)
    alpha, B = 0.1, 1.0
    xs = [x1]
    for t in range(1, T):                                   # lines 7-11: only z_1..z_{T-1} enter
        xs.append(float(np.clip((t * xs[-1] - z[t - 1] / alpha) / (t + 1), -B, B)))
    want = sum(xs) / T
    data = [ol.QuadraticLoss([v], 0.0, [0.0]) for v in z]
    pol = ol.private_offline_learning(data, None, 1e8, 1e-5, 0.1, 0.2, B, np.random.default_rng(1), d=1,
                                      x1=np.array([x1]), calibration="certified")
    assert pol.extra["alpha"] == pytest.approx(alpha, rel=1e-15)
    assert pol.extra["average"][0] == pytest.approx(want, rel=1e-12, abs=1e-15)
    assert np.allclose(pol.iterates[:, 0], xs, rtol=1e-12, atol=1e-15)
    assert 0 < pol.noise_scale < 1e-4           # eps_p = 1e8
    assert abs(pol.decisions[0, 0] - want) <= 6 * pol.noise_scale
    assert abs(want - float(np.mean(xs[1:]))) > 100 * pol.noise_scale       # x_1 (not 0) is in the sum


def test_ftl_and_qftl_are_the_leaders():
    C = L2Ball(2, 10.0)
    fs = quad_stream(12, 2, 3)
    run = ol.ftl(fs, C, x1=np.zeros(2))
    for t in range(1, 12):
        sol = optimize.minimize(lambda x: sum(f(x) for f in fs[:t]), np.zeros(2), tol=1e-12).x
        assert np.allclose(run.decisions[t], sol, atol=1e-6)
    sq = sq_stream(10, 2, 4)
    q = ol.qftl(sq, 1.0, d=2)
    for t in range(1, 10):
        sol = optimize.minimize(lambda x: sum(f(x) for f in sq[:t]), np.zeros(2), tol=1e-12).x
        assert np.allclose(q.decisions[t], sol, atol=1e-6)
    # Algorithm 4 line 1's un-halved loss would give a different leader (errata online-E06)
    V = sum(np.outer(f.v, f.v) for f in sq[:5])
    u = sum(f.y * f.v for f in sq[:5])
    assert not np.allclose(np.linalg.solve(V + 2.5 * np.eye(2), u), q.decisions[5])


@pytest.mark.parametrize("loss", ["squared", "logistic"])
def test_constrained_prox_is_the_minimiser(loss):
    rng = np.random.default_rng(5)
    C = L2Ball(3, 0.5)
    for _ in range(5):
        f = (ol.SquaredLoss(rng.uniform(-2, 2, 3), 2.0, 0.3) if loss == "squared"
             else ol.LogisticLoss(rng.uniform(-3, 3, 3), 1, 0.3))
        x_t, eta = rng.uniform(-0.3, 0.3, 3), 3.0
        x = f.prox(x_t, eta, C)
        obj = lambda z: 0.5 * np.sum((z - x_t) ** 2) + eta * f(z)
        cons = {"type": "ineq", "fun": lambda z: 0.25 - z @ z}
        ref = optimize.minimize(obj, np.zeros(3), constraints=[cons], method="SLSQP", tol=1e-14).x
        assert obj(x) <= obj(ref) + 1e-9
        assert np.linalg.norm(x) <= 0.5 + 1e-12


@pytest.mark.claim("online:Stopped stream")
def test_stopped_stream_returns_what_was_released():
    C = L2Ball(2, 1.0)
    fs = quad_stream(50, 2, 6)
    L = max(f.lipschitz(C) for f in fs)
    full = ol.private_igd(fs, C, 50, 1.0, 1e-3, L, 1.0, np.random.default_rng(0), x1=np.zeros(2))
    part = ol.private_igd(iter(fs[:10]), C, 50, 1.0, 1e-3, L, 1.0, np.random.default_rng(0), x1=np.zeros(2))
    assert full.complete and not part.complete and part.rounds == 10
    assert part.decisions.shape == (11, 2)
    assert np.array_equal(part.decisions, full.decisions[:11])       # same draws, same order
    assert part.ledger.events[0].sensitivity == pytest.approx(np.sqrt(10) * full.sensitivity)
    assert part.certified_epsilon < full.certified_epsilon
    sq = sq_stream(20, 2, 7)
    p = ol.pqftl(sq[:5], 20, 1.0, 1e-2, 1.0, 1.0, np.random.default_rng(0))
    assert p.rounds == 5 and p.decisions.shape == (6, 2) and len(p.ledger) == 2


@pytest.mark.claim("online:Bad input")
def test_bad_input_is_refused():
    C = L2Ball(1, 1.0)
    fs = [ol.QuadraticLoss([0.5], 1.0, [0.0])] * 5
    rng = np.random.default_rng(0)
    with pytest.raises(ParameterError, match="at most T"):
        ol.private_igd(fs + fs, C, 5, 1.0, 1e-3, 1.5, 1.0, rng, x1=np.zeros(1))
    with pytest.raises(AssumptionViolation, match="Lipschitz"):
        ol.private_igd([ol.QuadraticLoss([3.0], 1.0, [0.0])], C, 5, 1.0, 1e-3, 1.5, 1.0, rng, x1=np.zeros(1))
    with pytest.raises(AssumptionViolation, match="strongly convex"):
        ol.private_igd([ol.QuadraticLoss([0.1], 0.5, [0.0])], C, 5, 1.0, 1e-3, 1.5, 1.0, rng, x1=np.zeros(1))
    with pytest.raises(ParameterError, match="alpha"):
        ol.private_igd(fs, C, 5, 1.0, 1e-3, 1.5, 0.0, rng, x1=np.zeros(1))
    with pytest.raises(ParameterError, match="alpha"):
        ol.private_igd(fs, C, 5, 1.0, 1e-3, 1.5, -1.0, rng, x1=np.zeros(1))
    with pytest.raises(ParameterError):
        ol.private_igd(fs, C, 5, 0.0, 1e-3, 1.5, 1.0, rng, x1=np.zeros(1))
    with pytest.raises(ParameterError):
        ol.private_igd(fs, C, 5, 1.0, 0.3, 1.5, 1.0, rng, x1=np.zeros(1))
    with pytest.raises(ParameterError):
        ol.private_igd(fs, C, 5, 1.0, 1e-3, 1.5, 1.0, rng, x1=np.array([2.0]))
    with pytest.raises(ShapeError):
        ol.private_igd([ol.QuadraticLoss([0.1, 0.1], 1.0, [0.0, 0.0])], C, 5, 1.0, 1e-3, 1.5, 1.0, rng,
                       x1=np.zeros(1))
    with pytest.raises(AssumptionViolation, match="G"):
        ol.private_giga([ol.QuadraticLoss([3.0], 1.0, [0.0])], C, 5, 1.0, 1e-3, 1.5, 1.0, 1.0, rng)
    with pytest.raises(AssumptionViolation, match="R"):
        ol.pqftl([ol.SquaredLoss([2.0], 0.5, 1.0)], 5, 1.0, 1e-2, 1.0, 1.0, rng)
    with pytest.raises(AssumptionViolation, match="R"):
        ol.pqftl([ol.SquaredLoss([0.5], 1.5, 1.0)], 5, 1.0, 1e-2, 1.0, 1.0, rng)
    with pytest.raises(ParameterError, match="at most T"):
        ol.pqftl([ol.SquaredLoss([0.5], 0.5, 1.0)] * 6, 5, 1.0, 1e-2, 1.0, 1.0, rng)
    with pytest.raises(AssumptionViolation, match="Lipschitz"):
        ol.private_offline_learning([ol.QuadraticLoss([0.5], 0.0, [0.0])] * 3, None, 1.0, 1e-5, 0.1, 0.2, 1.0,
                                    rng, d=1)
    with pytest.raises(ParameterError):
        ol.SquaredLoss([1.0], float("nan"), 1.0)
    with pytest.raises(ParameterError):
        ol.LogisticLoss([1.0], 0, 1.0)
    with pytest.raises(ParameterError, match="calibration"):
        ol.private_igd(fs, C, 5, 1.0, 1e-3, 1.5, 1.0, rng, calibration="exact")


def test_results_carry_both_epsilons():
    C = LinfBall(2, 1.0)
    fs = quad_stream(10, 2, 8)
    G = max(f.grad_bound(C) for f in fs)
    r = ol.private_giga(fs, C, 10, 0.5, 1e-3, G, 1.0, 1.0, np.random.default_rng(0))
    assert (r.claimed_epsilon, r.claimed_delta) == (1.5, 2e-3)
    assert r.certified_epsilon > 0 and r.decisions.shape == (10, 2) and r.extra["warmup"] == 2
    with pytest.raises(Exception):
        r.decisions = None


@pytest.mark.claim("online:Theorem 3")
@pytest.mark.parametrize("T", [33, 64])
def test_pigd_is_pocp_with_igd(T):
    """Algorithm 2 is Algorithm 1 with IGD (eta_t = 1/(alpha t)) as the OCP algorithm (§3.3): private_igd runs
    pocp with igd_update (its own parts: line 2's noise constant and the per-round L, alpha checks), and with the
    same beta and generator it releases bit-for-bit the stream of a direct pocp(..., igd_update(alpha),
    lambda = 2L/alpha) call, x_1 drawn from C by both, with PIGD's ledger label."""
    C = L2Ball(3, 0.9)
    fs = quad_stream(T, 3, 40 + T, alpha=0.7)
    L = max(f.lipschitz(C) for f in fs)
    beta = 2.3
    a = ol.private_igd(fs, C, T, 1.0, 1e-3, L, 0.7, np.random.default_rng(T), beta=beta)
    b = ol.pocp(fs, C, ol.igd_update(0.7), ol.igd_sensitivity(L, 0.7), T, 1.0, 1e-3, np.random.default_rng(T),
                beta=beta)
    assert np.array_equal(a.decisions, b.decisions) and np.array_equal(a.iterates, b.iterates)
    assert np.array_equal(a.costs, b.costs)
    assert a.ledger.events[0].sensitivity == b.ledger.events[0].sensitivity
    assert a.ledger.events[0].label.startswith("PIGD line 8:") and b.ledger.events[0].label.startswith("Algorithm 1 line 7:")
    assert np.linalg.norm(a.decisions[0]) > 0                          # x_1 drawn from C, not 0


def test_pigd_lines_name_the_pocp_lines_that_run_them():
    """Algorithm 2 runs inside pocp (Algorithm 1 with A = IGD): every `# Line k` comment of private_igd for k = 3..9
    names the Algorithm 1 line of ol.PIGD_AS_POCP, pocp has a `# Line j` comment for each such j, and the map covers
    Algorithm 2's lines 3..9 exactly. A comment pointing at another line (or a line 7 said to be line 7) fails."""
    from pathlib import Path

    from reference.traceability import algorithm_lines

    root = Path(ol.__file__).resolve().parents[2]
    igd = {k: text for k, text, _ in algorithm_lines("reference.algorithms.online:private_igd", root)}
    pocp = {k for k, _, _ in algorithm_lines("reference.algorithms.online:pocp", root)}
    assert set(ol.PIGD_AS_POCP) == {str(k) for k in range(3, 10)} <= set(igd)
    for k, j in ol.PIGD_AS_POCP.items():
        assert f"-> Algorithm 1 line {j}" in igd[k], (k, igd[k])
        assert j in pocp, j
    # the map is the one the run follows: PIGD is pocp with A = IGD and line 2's beta, draw for draw
    rng_fs = np.random.default_rng(5)
    C = L2Ball(3, 0.7)
    fs = [ol.QuadraticLoss(rng_fs.uniform(-0.5, 0.5, 3), 0.6 * rng_fs.uniform(1, 2), rng_fs.uniform(-0.3, 0.3, 3))
          for _ in range(37)]
    L = max(f.lipschitz(C) for f in fs)
    a = ol.private_igd(fs, C, 37, 2.0, 1e-3, L, 0.6, np.random.default_rng(9), calibration="certified")
    beta = ol.pocp_noise_scale(ol.igd_sensitivity(L, 0.6), 37, 2.0, 1e-3, "certified")
    b = ol.pocp(fs, C, ol.igd_update(0.6), ol.igd_sensitivity(L, 0.6), 37, 2.0, 1e-3, np.random.default_rng(9),
                calibration="certified", beta=beta)
    np.testing.assert_array_equal(a.decisions, b.decisions)
