"""Private LASSO (lasso §2.2, Algorithm 2 on the l1 ball): invariants, constants, bad input."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.algorithms import frank_wolfe as fw
from reference.algorithms import lasso
from reference.errors import AssumptionViolation, NonFiniteError, ParameterError, ShapeError

GRID = [-1.0, -0.5, 0.0, 0.5, 1.0]


@st.composite
def lasso_data(draw, nmax=12, pmax=6):
    n = draw(st.integers(1, nmax))
    p = draw(st.integers(1, pmax))
    entry = st.one_of(st.sampled_from(GRID), st.floats(-1, 1))
    X = np.array(draw(st.lists(entry, min_size=n * p, max_size=n * p))).reshape(n, p)
    y = np.array(draw(st.lists(entry, min_size=n, max_size=n)))
    return X, y


def make(n, p, seed):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1, 1, (n, p)), rng.uniform(-1, 1, n)


# ---------------------------------------------------------------------------
# Constants


def direct_gradient(theta, X, y):
    return 2.0 / X.shape[0] * X.T @ (X @ theta - y)


def theta_in_ball(draw, p, c):
    kind = draw(st.sampled_from(["vertex", "mix", "zero"]))
    if kind == "zero":
        return np.zeros(p)
    if kind == "vertex":
        return fw.SignedBasis(p, c).vertex(draw(st.integers(0, 2 * p - 1)))
    w = np.array(draw(st.lists(st.floats(-1, 1), min_size=p, max_size=p)))
    s = np.sum(np.abs(w))
    return (w / s) * c * draw(st.floats(0, 1)) if s > 0 else w   # w / s first: c / s overflows for subnormal s


@pytest.mark.claim("lasso:§2.2 Lipschitz constant")
@given(st.data(), st.integers(1, 6), st.sampled_from([0.5, 1.0, 2.0]))
def test_per_example_gradient_is_bounded_by_L1(data, p, c):
    x = np.array(data.draw(st.lists(st.sampled_from(GRID), min_size=p, max_size=p)))
    yv = data.draw(st.sampled_from(GRID))
    theta = theta_in_ball(data.draw, p, c)
    g = 2 * (x @ theta - yv) * x
    assert np.max(np.abs(g)) <= lasso.lipschitz_l1(c) * (1 + 1e-12)


@pytest.mark.claim("lasso:§2.2 Lipschitz constant")
@pytest.mark.parametrize("c", [0.5, 1.0, 3.0])
def test_lipschitz_witness_attains_the_bound(c):
    # theta = c e_1, x = 1, y = -1: 2 (c + 1) * 1, exact
    x, theta = np.ones(3), np.array([c, 0.0, 0.0])
    assert np.max(np.abs(2 * (x @ theta + 1) * x)) == lasso.lipschitz_l1(c) == 2 * (c + 1)


@pytest.mark.claim("lasso:Theorem 2.4 sensitivity")
@given(st.data(), lasso_data(), st.sampled_from([0.5, 1.0, 2.0]))
def test_score_sensitivity_under_replace_one(data, Xy, c):
    X, y = Xy
    n, p = X.shape
    i = data.draw(st.integers(0, n - 1))
    X2, y2 = X.copy(), y.copy()
    X2[i] = np.array(data.draw(st.lists(st.sampled_from(GRID), min_size=p, max_size=p)))
    y2[i] = data.draw(st.sampled_from(GRID))
    theta = theta_in_ball(data.draw, p, c)
    S = fw.SignedBasis(p, c)
    diff = S.scores(direct_gradient(theta, X, y)) - S.scores(direct_gradient(theta, X2, y2))
    assert np.max(np.abs(diff)) <= lasso.score_sensitivity(n, c) * (1 + 1e-12)


@pytest.mark.claim("lasso:Theorem 2.4 sensitivity")
@pytest.mark.parametrize("n", [1, 2, 7])
def test_score_sensitivity_witness_is_tight_and_twice_the_nominal(n):
    """theta = e_1, d = ((1, 1), -1), d' = ((1, -1), -1): the score of e_2 moves by 8/n exactly,
    twice the 'O(L_1 ||C||_1 / n)' = 4/n the paper's noise is scaled to (lasso-E02)."""
    X = np.zeros((n, 2)); y = np.zeros(n)
    X[0], y[0] = [1, 1], -1
    X2, y2 = X.copy(), y.copy()
    X2[0] = [1, -1]
    theta = np.array([1.0, 0.0])
    g1 = [Fraction(2, n) * sum(Fraction(X[r, j]) * (Fraction(X[r] @ theta) - Fraction(y[r])) for r in range(n))
          for j in range(2)]
    g2 = [Fraction(2, n) * sum(Fraction(X2[r, j]) * (Fraction(X2[r] @ theta) - Fraction(y2[r])) for r in range(n))
          for j in range(2)]
    assert abs(g1[1] - g2[1]) == Fraction(8, n)
    assert lasso.score_sensitivity(n) == 8 / n == 2 * lasso.lipschitz_l1(1.0) * 1.0 / n


@pytest.mark.claim("lasso:Algorithm 2 line 3")
@given(st.integers(1, 10**6), st.integers(1, 10**4), st.floats(0.01, 10), st.floats(1e-12, 0.5),
       st.sampled_from([0.5, 1.0, 2.0]))
def test_paper_noise_scale_is_line_3_verbatim(T, n, eps, delta, c):
    lam = lasso.lasso_noise_scale(n, T, eps, delta, radius=c, calibration="paper")
    L1 = 2 * (c + 1)
    assert lam == pytest.approx(L1 * c * math.sqrt(8 * T * math.log(1 / delta)) / (n * eps), rel=1e-14)


def test_horizon_of_theorem_2_5():
    # c = 1: T = ceil((2 n eps)^(2/3)) with Gamma = 8, ceil((n eps)^(2/3)) with the paper's 4
    assert lasso.horizon(4, 1.0) == 4                    # (8)^(2/3) = 4 exactly
    assert lasso.horizon(1000, 1.0) == math.ceil(2000 ** (2 / 3))
    assert lasso.horizon(1000, 1.0, gamma="paper") == 100
    assert lasso.horizon(1, 1e-6) == 1


# ---------------------------------------------------------------------------
# Invariants of the private algorithm


@pytest.mark.claim("lasso:§2 iterates feasible")
@pytest.mark.claim("lasso:§2 sparsity")
@given(lasso_data(), st.integers(1, 40), st.sampled_from([0.3, 1.0, 2.5]),
       st.sampled_from(["laplace", "gumbel", "exponential"]), st.integers(0, 2**32 - 1))
def test_private_iterates_in_ball_and_sparse(Xy, T, c, selection, seed):
    X, y = Xy
    res = lasso.private_lasso(X, y, 0.5, 1e-6, np.random.default_rng(seed), radius=c, T=T,
                              selection=selection)
    assert res.iterates.shape == (T, X.shape[1])
    assert np.all(np.sum(np.abs(res.iterates), axis=1) <= c * (1 + 1e-12))
    assert np.count_nonzero(res.theta) <= T - 1 <= T
    assert len(res.ledger) == T - 1


@pytest.mark.claim("lasso:Algorithm 2 zero noise")
@given(st.integers(1, 30), st.integers(1, 8), st.integers(2, 30), st.integers(0, 2**32 - 1))
def test_vanishing_noise_is_exact_frank_wolfe(n, p, T, seed):
    X, y = make(n, p, seed)
    exact = lasso.frank_wolfe_lasso(X, y, T)
    noisy = lasso.private_lasso(X, y, 1e13, 0.5, np.random.default_rng(seed), T=T)
    assert noisy.noise_scale < 1e-11
    assert np.array_equal(noisy.selected_index, exact.selected_index)
    assert np.allclose(noisy.theta, exact.theta, atol=1e-14)


@pytest.mark.claim("lasso:Algorithm 2 zero noise")
@pytest.mark.parametrize("selection", ["laplace", "gumbel", "exponential"])
def test_same_seed_same_bits(selection):
    X, y = make(40, 15, 3)
    a = lasso.private_lasso(X, y, 1.0, 1e-6, np.random.default_rng(11), selection=selection)
    b = lasso.private_lasso(X, y, 1.0, 1e-6, np.random.default_rng(11), selection=selection)
    c = lasso.private_lasso(X, y, 1.0, 1e-6, np.random.default_rng(12), selection=selection)
    assert np.array_equal(a.theta, b.theta) and np.array_equal(a.iterates, b.iterates)
    assert a.ledger == b.ledger
    assert not np.array_equal(a.selected_index, c.selected_index)


@pytest.mark.parametrize("mode", ["gradient", "residual"])
def test_incremental_gradient_equals_the_direct_gradient(mode):
    """The speed paths (affine gradient update / rank-one residual update) against the plain formula,
    along a private run: same selections, iterates and gradients to rounding."""
    X, y = make(200, 50, 5)
    res = lasso.private_lasso(X, y, 2.0, 1e-6, np.random.default_rng(0), T=80, incremental=mode)
    plain = lasso.private_lasso(X, y, 2.0, 1e-6, np.random.default_rng(0), T=80, incremental=False)
    assert np.array_equal(res.selected_index, plain.selected_index)
    assert np.allclose(res.iterates, plain.iterates, atol=1e-14)
    grad = lasso.LassoGradient(X, y, incremental=mode)
    g = grad(res.iterates[0])
    S = fw.SignedBasis(50)
    for t in range(79):
        grad.after_step(res.iterates[t + 1], res.step_sizes[t], S.vertex(res.selected_index[t]))
        g = grad(res.iterates[t + 1])
        assert np.allclose(g, direct_gradient(res.iterates[t + 1], X, y), atol=1e-12)
    # a point the cache does not belong to is computed from the definition
    other = res.iterates[40]
    assert np.allclose(grad(other), direct_gradient(other, X, y), atol=1e-13)
    with pytest.raises(ParameterError, match="incremental"):
        lasso.LassoGradient(X, y, incremental="fast")


def test_T_one_makes_no_draw_and_no_event():
    X, y = make(5, 3, 0)
    rng = np.random.default_rng(0)
    before = rng.bit_generator.state
    res = lasso.private_lasso(X, y, 1.0, 1e-6, rng, T=1)
    assert rng.bit_generator.state == before
    assert np.array_equal(res.theta, np.zeros(3)) and len(res.ledger) == 0


def test_ledger_events_are_what_the_proof_needs():
    X, y = make(30, 4, 1)
    res = lasso.private_lasso(X, y, 1.0, 1e-5, np.random.default_rng(0), T=7)
    assert len(res.ledger) == 6
    for ev in res.ledger:
        assert ev.kind == "report_noisy_max" and ev.norm == "score" and not ev.monotone
        assert ev.sensitivity == pytest.approx(8 / 30) and ev.noise_scale == res.noise_scale
        assert ev.relation == "replace-one" and ev.noise == "laplace"


# ---------------------------------------------------------------------------
# Bad input


@pytest.mark.claim("lasso:Bad input")
class TestBadInput:
    X, y = make(10, 3, 0)

    def run(self, **kw):
        args = dict(X=self.X, y=self.y, epsilon=1.0, delta=1e-6, rng=np.random.default_rng(0))
        args.update(kw)
        return lasso.private_lasso(args.pop("X"), args.pop("y"), args.pop("epsilon"),
                                   args.pop("delta"), args.pop("rng"), **args)

    def test_feature_outside_the_box(self):
        X = self.X.copy(); X[3, 1] = 1.0000001
        with pytest.raises(AssumptionViolation, match=r"\|\|x\|\|_inf <= 1"):
            self.run(X=X)
        with pytest.raises(AssumptionViolation, match=r"\|\|x\|\|_inf <= 1"):
            lasso.frank_wolfe_lasso(-X, self.y, 3)
        assert X[3, 1] == 1.0000001          # the caller's data are not clipped

    def test_response_outside_the_box(self):
        y = self.y.copy(); y[0] = -1.5
        with pytest.raises(AssumptionViolation, match=r"\|y\| <= 1"):
            self.run(y=y)

    @pytest.mark.parametrize("radius", [0.0, -1.0, float("nan")])
    def test_radius(self, radius):
        with pytest.raises(ParameterError, match="radius"):
            self.run(radius=radius)

    @pytest.mark.parametrize("T", [0, -3, 2.5])
    def test_horizon(self, T):
        with pytest.raises(ParameterError, match="T"):
            self.run(T=T)
        with pytest.raises(ParameterError, match="T"):
            lasso.frank_wolfe_lasso(self.X, self.y, T)

    @pytest.mark.parametrize("kw", [dict(epsilon=0.0), dict(epsilon=-1.0), dict(delta=0.0),
                                    dict(delta=1.0), dict(calibration="loose"), dict(selection="max"),
                                    dict(gamma="big"), dict(rng=np.random.RandomState(0))])
    def test_privacy_parameters(self, kw):
        with pytest.raises(ParameterError):
            self.run(**kw)

    def test_non_finite_and_shapes(self):
        X = self.X.copy(); X[0, 0] = np.nan
        with pytest.raises(NonFiniteError):
            self.run(X=X)
        with pytest.raises(ShapeError):
            self.run(y=self.y[:-1])
        with pytest.raises(ShapeError):
            self.run(X=self.X[0])
        with pytest.raises(ParameterError, match="theta1"):
            self.run(theta1=np.array([1.0, 1.0, 0.0]))


def test_companion_normalisation_gives_the_same_run():
    """erm_geometry eq. (22) uses (1/(2n)) sum (...)^2: half the loss, so half L_1 and half Gamma; with the
    noise scale of line 3 halved with it (same T), the selections are bit-identical (the Laplace draws
    scale exactly by 1/2). The choice of normalisation changes nothing (catalogue D-02, P21)."""
    X, y = make(60, 12, 9)
    T = 30
    res = lasso.private_lasso(X, y, 1.0, 1e-6, np.random.default_rng(5), T=T)
    half = lambda th: 0.5 * direct_gradient(th, X, y)          # gradient of (1/(2n)) ||X th - y||^2
    comp = fw.private_frank_wolfe_polytope(half, fw.SignedBasis(12), np.zeros(12), T,
                                           noise_scale=0.5 * res.noise_scale,
                                           score_sensitivity=0.5 * res.score_sensitivity,
                                           rng=np.random.default_rng(5))
    assert np.array_equal(comp.selected_index, res.selected_index)
    assert np.array_equal(comp.theta, res.theta)


def test_certified_bounds_on_the_optimum_bracket_it():
    """lasso_minimum_lower_bound: lower <= L* <= upper, on an instance with L* = 0 known exactly
    (y = X theta_0, ||theta_0||_1 = 1) and on one where the constraint binds (checked against scipy)."""
    rng = np.random.default_rng(2)
    X = rng.choice([-1.0, 1.0], size=(50, 6))
    theta0 = np.array([0.5, -0.25, 0.25, 0, 0, 0])
    lo, hi = lasso.lasso_minimum_lower_bound(X, X @ theta0, steps=3000)
    assert lo <= 0.0 <= hi and hi - lo < 1e-2
    from scipy.optimize import minimize

    y = rng.uniform(-1, 1, 50)
    lo, hi = lasso.lasso_minimum_lower_bound(X, y, radius=0.3, steps=3000)
    cons = {"type": "ineq", "fun": lambda z: 0.3 - np.sum(z)}
    sol = minimize(lambda z: lasso.lasso_loss(z[:6] - z[6:], X, y), np.zeros(12), bounds=[(0, None)] * 12,
                   constraints=[cons], method="SLSQP", options={"ftol": 1e-12, "maxiter": 500})
    assert lo - 1e-9 <= sol.fun <= hi + 1e-6
    assert lasso.excess_risk(np.zeros(6), X, y, lo) >= lasso.lasso_loss(np.zeros(6), X, y) - hi


def test_complex_data_and_an_absurd_horizon_are_refused():
    """Review findings: complex X was truncated to its real part; epsilon = 1e300 failed inside numpy."""
    import numpy as np
    import pytest

    from reference.algorithms import lasso
    from reference.errors import ParameterError

    X = np.zeros((3, 2), dtype=complex)
    X[0, 0] = 0.5 + 0.5j
    with pytest.raises(ParameterError, match="not complex"):
        lasso.private_lasso(X, np.zeros(3), 1.0, 1e-5, np.random.default_rng(0), T=2)
    with pytest.raises(ParameterError, match="^T must satisfy"):
        lasso.private_lasso(np.zeros((3, 2)), np.zeros(3), 1e300, 1e-5, np.random.default_rng(0))


# ---------------------------------------------------------------------------
# Fidelity to the paper (issue 9): one switch for every printed choice, line comments, big horizons


@pytest.mark.parametrize("n, eps", [(1000, 1.0), (500, 8.0), (37, 0.3)])
def test_paper_calibration_reproduces_every_printed_choice_of_section_2_2(n, eps):
    """calibration="paper" alone gives T of Theorem 2.5 with §2.2's Gamma = 4 (via Remark 1) and
    L_1 ||C||_1 = 4, i.e. T = ceil((n eps)^(2/3)), and line 3's lambda; "certified" gives the exact
    Gamma = 8 (T = ceil((2 n eps)^(2/3))) and the accountant's lambda. gamma= overrides either."""
    X, y = make(n, 3, 1)
    paper = lasso.private_lasso(X, y, eps, 1e-6, np.random.default_rng(0), keep_iterates=False)
    T_printed = math.ceil((n * eps) ** (2 / 3) - 1e-9)
    assert paper.T == T_printed and paper.gamma == "paper"
    assert paper.noise_scale == pytest.approx(4 * math.sqrt(8 * T_printed * math.log(1e6)) / (n * eps), rel=1e-13)
    cert = lasso.private_lasso(X, y, eps, 1e-6, np.random.default_rng(0), calibration="certified",
                               keep_iterates=False)
    assert cert.T == math.ceil((2 * n * eps) ** (2 / 3) - 1e-9) and cert.gamma == "exact"
    assert cert.certified_epsilon <= eps
    override = lasso.private_lasso(X, y, eps, 1e-6, np.random.default_rng(0), gamma="exact", keep_iterates=False)
    assert override.T == cert.T and override.calibration == "paper"


def test_private_lasso_line_comments_follow_algorithm_2():
    """The traceability rows of private_lasso name Algorithm 2's lines in order, none that the paper
    does not have (no line 0), and the loop's own lines 1-6 in order."""
    from reference.claims import project_root
    from reference.traceability import algorithm_lines

    rows = algorithm_lines("reference.algorithms.lasso:private_lasso", project_root())
    labels = [r[0] for r in rows]
    assert labels == ["1", "2-6"], labels
    loop = [r[0] for r in algorithm_lines("reference.algorithms.frank_wolfe:private_frank_wolfe_polytope",
                                          project_root())]
    assert loop == ["1", "2", "3", "4", "5", "6"], loop
    texts = " ".join(r[1] for r in algorithm_lines("reference.algorithms.frank_wolfe:private_frank_wolfe_polytope",
                                                   project_root()))
    assert "alpha_s" in texts and "argmin_{s in S} alpha_s" in texts


def test_a_horizon_too_large_for_memory_is_refused_naming_T_and_the_memory():
    """private_lasso(T=10**12) ends in an error naming T and the memory its records need (it used to
    be numpy's MemoryError); keep_iterates=False stores no (T, p) iterates at all."""
    X, y = make(10, 3, 0)
    with pytest.raises(ParameterError, match=r"T = 1000000000000 steps at p = 3 need .*TiB") as info:
        lasso.private_lasso(X, y, 1.0, 1e-6, np.random.default_rng(0), T=10**12)
    assert "keep_iterates=False" in str(info.value)
    with pytest.raises(ParameterError, match=r"^T must satisfy"):
        lasso.private_lasso(X, y, 1.0, 1e-6, np.random.default_rng(0), T=10**12, keep_iterates=False)
    # what each choice stores: 16 bytes a step without iterates, 16 (p + 1) with them
    assert fw.record_bytes(10**6, 10**4, False) == 16 * 10**6
    assert fw.record_bytes(10**6, 10**4, True) == 16 * (10**4 + 1) * 10**6
    fw.check_horizon_fits(10**6, 10**4, False, memory=10**9)
    with pytest.raises(ParameterError, match="160 GiB|149 GiB"):
        fw.check_horizon_fits(10**6, 10**4, True, memory=10**9)
    res = lasso.private_lasso(X, y, 1.0, 1e-6, np.random.default_rng(0), T=50, keep_iterates=False)
    assert res.iterates is None and res.selected_index.shape == (49,)


def test_step_sizes_are_named_by_the_formula_each_paper_prints():
    T = 7
    t = np.arange(1, T)
    assert np.array_equal(fw.step_size_schedule("2/(t+2)", T), 2 / (t + 2))
    assert np.array_equal(fw.step_size_schedule("paper", T), fw.step_size_schedule("2/(t+2)", T))
    assert np.array_equal(fw.step_size_schedule("1/(T+2)", T), np.full(T - 1, 1 / (T + 2)))
    assert np.array_equal(fw.step_size_schedule("1/T", T), np.full(T - 1, 1 / T))
    assert np.array_equal(fw.step_size_schedule("2/(t+1)", T), 2 / (t + 1))


def test_lower_bound_citations_name_the_right_erratum():
    """hard_instance's n = k + w item is lasso-E07 (it cited E08, the Gaussian-noise erratum)."""
    from reference.claims import project_root

    assert "lasso-E07" in lasso.hard_instance.__doc__ and "lasso-E08" not in lasso.hard_instance.__doc__
    errata = (project_root() / "docs" / "errata.md").read_text(encoding="utf-8")
    section = errata[errata.index("### lasso-E07"):errata.index("### lasso-E08")]
    assert "n = w + wp" in section
