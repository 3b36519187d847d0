"""The test-vector cases: fixed, small inputs for each algorithm an implementation may claim.

Each case's ``algorithm`` is the id given to ``conform --algorithm`` and to
``pytest --impl-algorithm``. Inputs are deliberately small, so a vector stays readable
and replaying it is quick in any language.
"""

from __future__ import annotations

import numpy as np

from .vector_statistics import DistanceTo, WeightedDecisionError, WhitenedTreeError
from .vectors import VectorCase


def mirror_descent_squared_loss(X, y, epsilon, delta, T, eta, geometry, calibration, rng):
    """erm_geometry Algorithm 1 in plain data, the entry point of the ``erm_geometry:Algorithm 1`` vectors.

    The loss is 1/2 (<x, theta> - y)^2 with declared l2-Lipschitz constant 2 (rows with
    ||x||_2 <= 1, |y| <= 1, theta in a unit ball or the simplex); ``geometry`` names the set and potential:
    ``"l1-lq"`` (unit l1 ball, the l_q potential of Fact 3.4 with its resolved constant),
    ``"l1-lq-paper-constant"`` (the same with Fact 3.4's printed constant), ``"l2-euclidean"`` (unit l2
    ball, 1/2 ||theta||^2) or ``"simplex-entropy"`` (the probability simplex, the negative entropy:
    exponentiated gradient). ``eta`` a step size, or the T + 1 step sizes eta_1..eta_(T+1) (line 4 at
    step t uses eta_(t+1)). ``T = eta = "theorem-3.2"``: Theorem 3.2's (T, eta) for this n, epsilon,
    delta, L = 2 and potential (:func:`mirror_parameters`). An implementation claiming this algorithm
    takes the same arguments and returns theta_priv; the reference returns its result (theta_priv in
    ``.theta``, the run's ``.ledger``), which the vectors read through :func:`_theta_of`.
    """
    from .algorithms import erm_geometry as eg

    X = np.asarray(X, dtype=float)
    potential = _mirror_potential(geometry, X.shape[1])
    T, eta = mirror_parameters(X.shape[0], epsilon, delta, T, eta, potential)
    result = eg.noisy_mirror_descent(X, y, _mirror_loss(), potential, epsilon=epsilon, delta=delta, lipschitz=2.0,
                                     T=T, eta=eta, rng=rng, calibration=calibration)
    return result


THEOREM_3_2 = "theorem-3.2"


def _mirror_potential(geometry: str, p: int):
    """The set and potential a ``geometry`` of the erm_geometry Algorithm 1 vectors names."""
    from .algorithms import erm_geometry as eg
    from .errors import ParameterError
    from .geometry.sets import L1Ball, L2Ball, Simplex

    potentials = {"l1-lq": lambda: eg.LqPotential(L1Ball(p, 1.0)),
                  "l1-lq-paper-constant": lambda: eg.LqPotential(L1Ball(p, 1.0), constant="paper"),
                  "l2-euclidean": lambda: eg.EuclideanPotential(L2Ball(p, 1.0)),
                  "simplex-entropy": lambda: eg.EntropyPotential(Simplex(p))}
    if geometry not in potentials:
        raise ParameterError("geometry", f"one of {sorted(potentials)}", geometry)
    return potentials[geometry]()


def _mirror_loss():
    from .losses import SquaredLoss

    return SquaredLoss(scale=0.5)


def mirror_parameters(n, epsilon, delta, T, eta, potential):
    """(T, eta) as given, or Theorem 3.2's (proof variant, erm_geometry-E04) when both are ``"theorem-3.2"``:
    T = floor(r_Q^2 eps^2 n^2 / (ln^2(n/delta) (r_Q^2 + G_Q^2))), eta = sqrt(R_Psi) / (L r_Q sqrt(T)), L = 2."""
    from .algorithms import erm_geometry as eg
    from .errors import ParameterError

    if isinstance(T, str) or isinstance(eta, str):
        if T != THEOREM_3_2 or eta != THEOREM_3_2:
            raise ParameterError("T, eta", f"numbers, or both {THEOREM_3_2!r}", (T, eta))
        return eg.theorem_3_2_parameters(n, epsilon, delta, 2.0, potential)
    return T, eta


_M = "reference.privacy.mechanisms"


def _first_coordinate(out) -> float:
    return float(np.asarray(out)[0])


class _first_noise_magnitude:  # noqa: N801 - used like a function
    """|output[0] - value[0]|: the size of the first coordinate's noise. A law check on it sees a
    wrong noise scale directly (the signed output mixes both tails and needs about 2x the runs)."""

    def __init__(self, value0: float):
        self.value0 = value0

    def __call__(self, out) -> float:
        return abs(float(np.asarray(out)[0]) - self.value0)


def _additive_case(mechanism: str, name: str, sensitivity: float, noise: float, seed: int,
                   privacy_runs: int) -> VectorCase:
    """A case of the Gaussian (``noise`` = sigma) or Laplace (``noise`` = b) mechanism on the value (0.5, -1, 2).
    Its worst pair moves the first coordinate by the whole sensitivity; the claim is mu = Delta / sigma
    (Gaussian, mu-GDP) or epsilon = Delta / b (Laplace). The law check reads the first coordinate's noise size."""
    knob = "sigma" if mechanism == "gaussian" else "scale"

    def inputs(first: float = 0.5) -> dict:
        return {"value": np.array([first, -1.0, 2.0]), "sensitivity": sensitivity, knob: noise}

    claim = {"claimed_mu": sensitivity / noise} if mechanism == "gaussian" else {"claimed_epsilon": sensitivity / noise}
    return VectorCase(
        algorithm=f"core:{mechanism}_mechanism", name=name, reference=f"{_M}:{mechanism}_mechanism",
        make_kwargs=inputs, seed=seed, array_args=("value",), statistic=_first_noise_magnitude(0.5), n_runs=4000,
        noise_knob=(knob, 1.0), neighbour=lambda: inputs(first=0.5 + sensitivity),
        privacy_statistic=_first_coordinate, privacy_runs=privacy_runs, **claim,
    )


CASES: list[VectorCase] = [
    # the worst pair: the first coordinate moves by the whole l2 (l1) sensitivity; mu = 1 / 1.5, epsilon = 1 / 2
    _additive_case("gaussian", "vector-3d", sensitivity=1.0, noise=1.5, seed=1, privacy_runs=40_000),
    _additive_case("laplace", "vector-3d", sensitivity=1.0, noise=2.0, seed=2, privacy_runs=40_000),
    # The same mechanisms at a sensitivity other than 1: the noise is sigma * N(0, 1) (Laplace(b)) whatever
    # Delta is, and the claim mu = Delta / sigma (epsilon = Delta / b) scales with it. At Delta = 1 a port
    # that multiplies its noise by Delta (reads sigma as a noise multiplier) is indistinguishable; here it
    # draws 0.6 x the noise: replay parts at the first output, the law check (4000 runs) rejects it at
    # p < 1e-30, and the privacy audit at this worst pair, 10000 runs a side (enough here: measured lower
    # bounds mu 1.09 > 0.667, epsilon 0.74 > 0.5; the reference's 0.635 and 0.428), flags it.
    _additive_case("gaussian", "sensitivity0.6-vector-3d", sensitivity=0.6, noise=0.9, seed=12, privacy_runs=10_000),
    _additive_case("laplace", "sensitivity0.6-vector-3d", sensitivity=0.6, noise=1.2, seed=13, privacy_runs=10_000),
    VectorCase(
        algorithm="core:exponential_mechanism", name="five-candidates", reference=f"{_M}:exponential_mechanism",
        make_kwargs=lambda: {"scores": np.array([0.0, 1.0, 2.0, 0.5, 1.5]), "sensitivity": 1.0, "epsilon": 1.0},
        seed=3, array_args=("scores",), noise_knob=("epsilon", -1.0),
    ),
    VectorCase(
        algorithm="core:report_noisy_max", name="laplace-five-candidates", reference=f"{_M}:report_noisy_max",
        make_kwargs=lambda: {"scores": np.array([0.0, 1.0, 2.0, 0.5, 1.5]), "sensitivity": 1.0, "scale": 2.0,
                             "noise": "laplace"},
        seed=4, array_args=("scores",), noise_knob=("scale", 1.0),
    ),
    VectorCase(
        algorithm="core:report_noisy_max", name="gumbel-five-candidates", reference=f"{_M}:report_noisy_max",
        make_kwargs=lambda: {"scores": np.array([0.0, 1.0, 2.0, 0.5, 1.5]), "sensitivity": 1.0, "scale": 2.0,
                             "noise": "gumbel"},
        seed=5, array_args=("scores",), noise_knob=("scale", 1.0),
    ),
]

# Law-check cases for the selection mechanisms. The five-candidate cases above are for replay; their
# selection law moves too little with the noise for a law check to see 0.8 x the noise (measured:
# rejected in 7 to 12 of 20 repeats at 4000 runs). With two candidates whose gap puts the
# selection probability near 0.08, the law is as sensitive to the noise scale as a two-point
# selection can be (the derivative of the mean selected score in epsilon is its variance,
# largest near a gap of 4.8 / epsilon), and 4000 runs a side reject 0.8 x the noise in at least
# 99% of repeats (docs/conformance.md has the measured power).
CASES += [
    VectorCase(
        algorithm="core:exponential_mechanism", name="two-candidates-law", reference=f"{_M}:exponential_mechanism",
        make_kwargs=lambda: {"scores": np.array([0.0, 4.8]), "sensitivity": 1.0, "epsilon": 1.0},
        seed=6, array_args=("scores",), statistic=float, n_runs=4000, noise_knob=("epsilon", -1.0),
    ),
    # The monotone form (P(i) ∝ exp(epsilon score_i / Delta), for scores that all move one way between
    # neighbours) at Delta = 0.8: the same two-point design, the gap 2.4 Delta / epsilon = 1.92 putting the
    # low candidate's probability near 0.08. A port that ignores ``monotone`` (keeps the general factor 2)
    # selects it with probability 0.23 instead: the law check rejects it at p ~ 0.
    VectorCase(
        algorithm="core:exponential_mechanism", name="monotone-two-candidates-law",
        reference=f"{_M}:exponential_mechanism",
        make_kwargs=lambda: {"scores": np.array([0.0, 1.92]), "sensitivity": 0.8, "epsilon": 1.0, "monotone": True},
        seed=14, array_args=("scores",), statistic=float, n_runs=4000, noise_knob=("epsilon", -1.0),
    ),
] + [
    VectorCase(
        algorithm="core:report_noisy_max", name=f"{noise}-two-candidates-law", reference=f"{_M}:report_noisy_max",
        make_kwargs=(lambda noise=noise, gap=gap: {"scores": np.array([0.0, gap]), "sensitivity": 1.0, "scale": 1.0,
                                                   "noise": noise}),
        seed=7, array_args=("scores",), statistic=float, n_runs=4000, noise_knob=("scale", 1.0),
    )
    for noise, gap in (("laplace", 2.4), ("gumbel", 2.4))
]


def _lasso_data(n: int, p: int, seed: int) -> dict:
    """A small LASSO instance inside the paper's domain (|X_ij| <= 1, |y_i| <= 1), fixed by seed."""
    gen = np.random.default_rng(seed)
    X = gen.uniform(-1.0, 1.0, size=(n, p))
    theta_star = np.zeros(p)
    theta_star[0] = 0.6
    y = X @ theta_star + 0.1 * gen.uniform(-1.0, 1.0, size=n)      # |y| <= 0.7 by construction
    return {"X": X, "y": y}


def _lasso_kwargs(selection: str, calibration: str) -> dict:
    # n = 400: the selection noise is comparable to the score gaps, so the output law depends
    # on the noise scale and the distribution check has power (at n = 40 the noise swamps
    # the scores and halving it goes unnoticed: measured p = 0.18).
    return {**_lasso_data(400, 6, 7), "epsilon": 1.0, "delta": 1e-5, "radius": 1.0, "T": 12,
            "calibration": calibration, "selection": selection}


_LASSO = "reference.algorithms.lasso:private_lasso"


def _lasso_noiseless(kwargs):
    """Algorithm 1 (non-private Frank-Wolfe) with the case's T and step sizes 2/(t+2): Algorithm 2 with
    lambda = 0 (epsilon = inf), the reference's noiseless output."""
    from .algorithms import frank_wolfe as fw
    from .algorithms import lasso

    X, y = np.asarray(kwargs["X"], dtype=float), np.asarray(kwargs["y"], dtype=float)
    p = X.shape[1]
    return fw.frank_wolfe(lasso.LassoGradient(X, y), fw.SignedBasis(p, kwargs["radius"]), np.zeros(p),
                          kwargs["T"], keep_iterates=False).theta


def _theta_of(result):
    """theta_T: the reference returns a result with ``.theta``; a port may return theta itself."""
    return result.theta if hasattr(result, "theta") else result

CASES += [
    VectorCase(
        algorithm="lasso:Algorithm 2", name=f"{selection}-{calibration}-n400-p6-T12", reference=_LASSO,
        make_kwargs=(lambda s=selection, c=calibration: _lasso_kwargs(s, c)),
        seed=11, array_args=("X", "y"), output=_theta_of, noise_knob=("epsilon", -1.0),
        # the l2 distance from Algorithm 1's noiseless theta_T, 2000 runs a side: 0.8 x the noise rejected in
        # 0.99 to 1.00 of repeats (theta_1 at 400 runs: 0.12 to 0.31; docs/conformance.md)
        statistic=DistanceTo(_lasso_noiseless, lambda s=selection, c=calibration: _lasso_kwargs(s, c),
                                         norm=2),
        n_runs=2000,
        # The selections are exact; theta is a convex combination of the selected vertices
        # with the paper's step sizes, so a port may differ only by rounding.
        rtol=1e-12, atol=1e-13,
    )
    for selection, calibration in (("laplace", "paper"), ("laplace", "certified"), ("gumbel", "paper"),
                                   ("gumbel", "certified"),
                                   # the exponential mechanism sampled directly (one uniform a step, inverse
                                   # CDF): the gumbel law, another use of the stream; certified at the Gumbel
                                   # selections' scale
                                   ("exponential", "certified"))
] + [
    # epsilon = 50: the selection noise is small against the score gaps, so theta_T sits near Algorithm 1's
    # noiseless theta_T and a port that steps with mu_(t+1) = 2/(t+3) where line 5 says mu_t (lasso-M16) moves
    # the distance's law; at epsilon = 1 the noise hides the step
    VectorCase(
        algorithm="lasso:Algorithm 2", name="laplace-certified-n400-p6-T12-eps50", reference=_LASSO,
        make_kwargs=lambda: {**_lasso_kwargs("laplace", "certified"), "epsilon": 50.0},
        seed=14, array_args=("X", "y"), output=_theta_of, noise_knob=("epsilon", -1.0),
        statistic=DistanceTo(_lasso_noiseless,
                                         lambda: {**_lasso_kwargs("laplace", "certified"), "epsilon": 50.0}, norm=2),
        n_runs=2000, rtol=1e-12, atol=1e-13,
    ),
]


def _mirror_noiseless(kw):
    """The loop of Algorithm 1 with b_t = 0 (Section 3.3's noisy mirror descent at covariance 0): the
    reference's noiseless output (at the T and eta of the case, Theorem 3.2's where it asks for them)."""
    from .algorithms import erm_geometry as eg

    X = np.asarray(kw["X"], dtype=float)
    pot = _mirror_potential(kw["geometry"], X.shape[1])
    T, eta = mirror_parameters(X.shape[0], kw["epsilon"], kw["delta"], kw["T"], kw["eta"], pot)
    return eg.noisy_mirror_descent_nonprivate(X, kw["y"], _mirror_loss(), pot, T=T, eta=eta,
                                              noise_cov=0.0, rng=np.random.default_rng(0), lipschitz=2.0).theta


def _mirror_kwargs(geometry: str, calibration: str) -> dict:
    gen = np.random.default_rng(21)
    X = gen.normal(size=(60, 5))
    X /= np.linalg.norm(X, axis=1, keepdims=True)          # unit rows: ||x||_2 = 1
    y = gen.uniform(-1.0, 1.0, size=60)
    return {"X": X, "y": y, "epsilon": 1.0, "delta": 1e-5, "T": 8, "eta": 0.2, "geometry": geometry,
            "calibration": calibration}


CASES += [
    VectorCase(
        algorithm="erm_geometry:Algorithm 1", name=f"{geometry}-{calibration}-n60-p5-T8",
        reference="reference.vector_cases:mirror_descent_squared_loss", output=_theta_of,
        make_kwargs=(lambda g=geometry, c=calibration: _mirror_kwargs(g, c)),
        seed=31, array_args=("X", "y"), noise_knob=("epsilon", -1.0),
        # The statistic is the l2 distance from the noiseless mirror descent's theta: 0.8 x the noise
        # rejected in 1.00 of repeats at 400 runs for the certified noise, 0.985 for the printed one (l1-lq),
        # which runs 800 (theta_1, the statistic before: 0.01, and the printed noise swamped it;
        # docs/conformance.md).
        statistic=DistanceTo(_mirror_noiseless, lambda g=geometry, c=calibration: _mirror_kwargs(g, c),
                                         norm=2),
        n_runs=400 if calibration == "certified" else 800,
        # the l_q mirror step solves for a multiplier by a root find: a port agrees to rounding
        rtol=1e-9, atol=1e-12,
    )
    for geometry in ("l1-lq", "l2-euclidean") for calibration in ("paper", "certified")
]


def _decreasing_eta(T: int) -> np.ndarray:
    """eta_t = 0.4 / sqrt(t), t = 1..T+1: a schedule that varies in t, so a port that steps with eta_t where
    line 4 says eta_(t+1) (the printed index, as the proof reads it, erm_geometry-E01) moves its output."""
    return 0.4 / np.sqrt(np.arange(1, T + 2))


# The paths the four cases above do not run: a step schedule, the simplex with the entropy potential,
# Fact 3.4's printed constant, and Theorem 3.2's (T, eta). All certified (the accountant's sigma, which
# leaves the output law room to show the path); the same data.
_MIRROR_PATHS = {
    "l2-euclidean-certified-eta-decreasing-n60-p5-T8": ("l2-euclidean", {"eta": _decreasing_eta(8)}),
    "simplex-entropy-certified-n60-p5-T8": ("simplex-entropy", {"eta": 0.5}),
    # eta = 0.05 keeps the iterates inside the ball, where the constant sets the step length (at 0.2 they reach
    # the boundary and a constant 1.83 x larger barely moves the output law: KS p 0.44 at 150 runs, 3e-36 here)
    "l1-lq-paper-constant-certified-n60-p5-T8": ("l1-lq-paper-constant", {"eta": 0.05}),
    "l1-lq-certified-theorem-3.2-n60-p5": ("l1-lq", {"T": THEOREM_3_2, "eta": THEOREM_3_2}),
    # the l2 ball's Gaussian width G_Q = E||g||_2 = 2.13 (p = 5) enters T = 42 at epsilon = 4; its upper bound
    # sqrt(p) = 2.24 gives T = 39 (at epsilon = 1 both give T = 2: the floor hides the width)
    "l2-euclidean-certified-theorem-3.2-eps4-n60-p5": ("l2-euclidean", {"T": THEOREM_3_2, "eta": THEOREM_3_2,
                                                                        "epsilon": 4.0}),
}


def _mirror_path_kwargs(name: str) -> dict:
    geometry, changes = _MIRROR_PATHS[name]
    return {**_mirror_kwargs(geometry, "certified"), **changes}


CASES += [
    VectorCase(
        algorithm="erm_geometry:Algorithm 1", name=name,
        reference="reference.vector_cases:mirror_descent_squared_loss", output=_theta_of,
        make_kwargs=(lambda name=name: _mirror_path_kwargs(name)),
        seed=32, array_args=("X", "y") + (("eta",) if np.ndim(_MIRROR_PATHS[name][1].get("eta", 0.0)) else ()),
        # Theorem 3.2's T grows with epsilon: no knob scales only the noise there
        noise_knob=None if "theorem" in name else ("epsilon", -1.0),
        statistic=DistanceTo(_mirror_noiseless, lambda name=name: _mirror_path_kwargs(name), norm=2),
        n_runs=400, rtol=1e-9, atol=1e-12,
    )
    for name in _MIRROR_PATHS
]


# ---- saddle_point (Algorithms 1, 3, 5 as reconstructed; docs/saddle_point.md)

def _records(data) -> np.ndarray:
    """Record indices as integers (vectors carry them through JSON as numbers)."""
    arr = np.asarray(data, dtype=float)
    if not np.all(arr == np.round(arr)):
        from .errors import ParameterError

        raise ParameterError("data", "integer record indices", "non-integers")
    return arr.astype(np.intp)


def saddle_point_matrix_game(atoms, data, epsilon, delta, T, K, calibration, rng, eta=None):
    """saddle_point Algorithm 1 on the bilinear game x^T A_z y (records index ``atoms``); ``eta`` (optional)
    fixes the step (calibration "explicit"). Returns the result: (x, y) stacked is the vector's output
    (:func:`_saddle_xy`), ``.ledger`` and ``.claimed_epsilon`` the run's accounting (a port may return the
    stacked (x, y) itself)."""
    from .algorithms import saddle_point as sp

    return sp.private_smd_vertices(sp.QuadraticSaddle(atoms, _records(data)), epsilon, delta, rng, T=T, K=K,
                                   eta=eta, calibration=calibration, keep_iterates=False)


def _x_of(result):
    """x: the reference returns its result (``.x``); a port may return x itself."""
    return result.x if hasattr(result, "x") else result


def _saddle_xy(result):
    """(x, y) stacked: the reference returns its result (``.x``, ``.y``); a port may return the stack itself."""
    return np.r_[result.x, result.y] if hasattr(result, "y") else result


def saddle_point_bias_reduced(atoms, data, epsilon, delta, B, calibration, rng):
    """saddle_point Algorithm 3 (with Algorithm 2) on the bilinear game; returns the result ((x, y) stacked by
    :func:`_saddle_xy`; its ``.ledger`` and ``.claimed_epsilon``; a port may return the stack itself)."""
    from .algorithms import saddle_point as sp

    res = sp.private_smd_bias_reduced(sp.QuadraticSaddle(atoms, _records(data)), epsilon, delta, rng, B=B,
                                      calibration=calibration, keep_iterates=False)
    return res


def saddle_point_sco(a, b, epsilon, delta, K, tau, calibration, rng):
    """saddle_point Algorithm 5 on (1/2)(<a_i, x> - b_i)^2 over the simplex; returns the result (the K-vertex
    output in ``.x``, read by :func:`_x_of`; ``.ledger``, ``.claimed_epsilon``; a port may return x itself)."""
    from .algorithms import saddle_point as sp

    return sp.private_sco_anytime(sp.SimplexLeastSquares(a, b), epsilon, delta, rng, K=K, tau=tau,
                                  calibration=calibration, keep_iterates=False)


def _game_kwargs(n: int) -> dict:
    gen = np.random.default_rng(41)
    return {"atoms": gen.uniform(-1.0, 1.0, size=(3, 3, 2)), "data": gen.integers(0, 3, size=n)}


_VC = "reference.vector_cases"

CASES += [
    VectorCase(
        algorithm="saddle_point:Algorithm 1", name=f"{calibration}-game3x2-n60-T20",
        reference=f"{_VC}:saddle_point_matrix_game", output=_saddle_xy,
        make_kwargs=(lambda c=calibration: {**_game_kwargs(60), "epsilon": 4.0, "delta": 1e-3, "T": 20, "K": 2,
                                            "calibration": c}),
        seed=51, array_args=("atoms", "data"), statistic=lambda out: float(np.asarray(out)[0]), n_runs=300,
    )
    for calibration in ("paper", "certified")
] + [
    # An explicit step (calibration "explicit"): the run's claimed epsilon is Proposition 3.3's, inverted at
    # this eta; a replay and accounting case (the law is the paper case's at another step)
    VectorCase(
        algorithm="saddle_point:Algorithm 1", name="explicit-eta0.05-game3x2-n60-T20",
        reference=f"{_VC}:saddle_point_matrix_game", output=_saddle_xy,
        make_kwargs=lambda: {**_game_kwargs(60), "epsilon": 4.0, "delta": 1e-3, "T": 20, "K": 2,
                             "calibration": "explicit", "eta": 0.05},
        seed=54, array_args=("atoms", "data"),
        not_applicable={"law": "replay and accounting case (the paper and certified cases carry the law check)"},
    ),
] + [
    VectorCase(
        algorithm="saddle_point:Algorithm 3", name="paper-game3x2-n256-B2",
        reference=f"{_VC}:saddle_point_bias_reduced", output=_saddle_xy,
        make_kwargs=lambda: {**_game_kwargs(256), "epsilon": 4.0, "delta": 1e-3, "B": 2, "calibration": "paper"},
        seed=52, array_args=("atoms", "data"), statistic=lambda out: float(np.asarray(out)[0]), n_runs=300,
    ),
    VectorCase(
        algorithm="saddle_point:Algorithm 5", name="paper-d4-n80-K3-tau5", reference=f"{_VC}:saddle_point_sco", output=_x_of,
        make_kwargs=lambda: {"a": np.random.default_rng(43).uniform(-1, 1, (80, 4)),
                             "b": np.random.default_rng(44).uniform(-1, 1, 80), "epsilon": 2.0, "delta": 1e-3,
                             "K": 3, "tau": 5, "calibration": "paper"},
        seed=53, array_args=("a", "b"), statistic=lambda out: float(np.asarray(out)[0]), n_runs=300,
    ),
]


def _estimate_of(result):
    """The estimate: the reference returns its result (``.estimate``, ``.ledger``); a port may return the array."""
    return result.estimate if hasattr(result, "estimate") else result


def _decisions_of(result):
    """The released decisions: the reference returns its result (``.decisions``, ``.ledger``,
    ``.claimed_epsilon``); a port may return the decisions themselves."""
    return result.decisions if hasattr(result, "decisions") else result


def _w_priv_of(result):
    """w_priv: the reference returns its result (``.w_priv``, ``.ledger``); a port may return w_priv itself."""
    return result.w_priv if hasattr(result, "w_priv") else result


# ---- heavy_tailed (docs/heavy_tailed.md)

def heavy_tailed_algorithm3(X, tau, beta, rng):
    """heavy_tailed Algorithm 3 (non-private, deterministic; ``rng`` is accepted and not used)."""
    from .algorithms import heavy_tailed as ht

    return ht.high_dimensional_mean(X, tau, beta)


def heavy_tailed_scof(X, eta, T, radius, tau, beta, mode, rng):
    """heavy_tailed Algorithm 1 on l(w, x) = ||w - x||^2 / 2 over the l2 ball of ``radius``, with the
    non-private Algorithm 3 as MeanOracle; returns w_priv."""
    from .algorithms import heavy_tailed as ht
    from .geometry.sets import L2Ball

    X = np.asarray(X, dtype=float)

    def oracle(G, r, ledger):
        return ht.high_dimensional_mean(G, tau, beta)

    return ht.scof(X, ht.squared_loss_gradients, L2Ball(X.shape[1], radius), eta, T, oracle, rng, mode=mode).w_priv


def heavy_tailed_cdp_sco(X, rho, T, eta, radius, tau, beta, c, oracle, mode, calibration, rng, k=None):
    """heavy_tailed Algorithm 2 on l(w, x) = ||w - x||^2 / 2 over the l2 ball of ``radius``; returns w_priv.

    ``T = eta = tau = beta = "theorem-5.7"`` (with ``k``, the moment order, the CDPCWME oracle and the strongly
    convex mode): Theorem 5.7's parameters for this loss, which is lam = 1 strongly convex and L = 1 smooth
    (:func:`reference.algorithms.heavy_tailed.schedule_thm57`, resolved as heavy_tailed-E05: T, eta = 1/(lam + L),
    tau and CDPCWME's bucket count m)."""
    from .algorithms import heavy_tailed as ht
    from .errors import ParameterError
    from .geometry.sets import L2Ball

    X = np.asarray(X, dtype=float)
    m = None
    if any(isinstance(v, str) for v in (T, eta, tau, beta)):
        if any(v != THEOREM_5_7 for v in (T, eta, tau, beta)) or (oracle, mode) != ("cwme", "strongly_convex"):
            raise ParameterError("T, eta, tau, beta", f"numbers, or all {THEOREM_5_7!r} with the cwme oracle in the "
                                 "strongly convex mode", (T, eta, tau, beta, oracle, mode))
        if X.ndim != 2:
            raise ParameterError("X", "an (n, d) array", X.shape)
        s = ht.schedule_thm57(X.shape[0], X.shape[1], rho, k, lam=1.0, L=1.0, strict=False)
        T, eta, tau, beta, m = s.T, s.eta, s.tau, None, s.m
    return ht.cdp_sco(X, ht.squared_loss_gradients, L2Ball(X.shape[1], radius), rho, T, eta, rng, oracle=oracle,
                      tau=tau, beta=beta, c=c, calibration=calibration, mode=mode, m=m)


THEOREM_5_7 = "theorem-5.7"


def _ht_data(n: int, d: int, seed: int) -> np.ndarray:
    gen = np.random.default_rng(seed)
    return 0.3 + gen.standard_t(3.5, size=(n, d))        # heavy-tailed, a few records beyond 3 tau


_HT = "reference.algorithms.heavy_tailed"


def _first(out) -> float:
    return float(np.asarray(out)[0])


def _cwme_noiseless(kw):
    """Algorithm 3 with CDPCWME's / DPCWME's bucket count: their estimate before the noise."""
    from .algorithms import heavy_tailed as ht

    X = np.asarray(kw["X"], dtype=float)
    return ht.high_dimensional_mean(X, kw["tau"], None, m=ht.bucket_count(X.shape[1], kw["beta"]))


def _cwme_kwargs(seed: int, calibration: str, **budget) -> dict:
    return {"X": _ht_data(200, 2, seed), **budget, "tau": 3.0, "beta": 0.2, "calibration": calibration}


def _cwme_low_noise_kwargs(calibration: str, beta: float) -> dict:
    """``calibration``: "certified", or "printed" for the paper's sigma (the case name does not start with
    "paper": the rate is declared once, on paper-n200-d2)."""
    return {"X": _ht_data(300, 3, 69), "rho": 2000.0, "tau": 1.5, "beta": beta,
            "calibration": "paper" if calibration == "printed" else calibration}


def _nsme_mean(X, tau: float, c: float) -> np.ndarray:
    """CDPNSME's lines 3-6 without line 7's noise: (tau/n) sum_i psi_c(x_i(j)/tau) per coordinate."""
    from .algorithms import heavy_tailed as ht

    X = np.asarray(X, dtype=float)
    return np.array([tau / X.shape[0] * float(np.sum(ht.smoothed_influence(X[:, j] / tau, c)))
                     for j in range(X.shape[1])])


def _nsme_kwargs(calibration: str) -> dict:
    return {"X": _ht_data(200, 2, 65), "rho": 2.0, "tau": 3.0, "c": 0.3, "calibration": calibration}


def _sco_kwargs(oracle: str, mode: str, calibration: str) -> dict:
    return {"X": _ht_data(240, 2, 66), "rho": 4.0, "T": 4, "eta": 0.5, "radius": 5.0, "tau": 3.0, "beta": 0.5,
            "c": 1.0, "oracle": oracle, "mode": mode, "calibration": calibration}


def _sco_noiseless(kw):
    """Algorithm 1 with the case's T, eta, mode and its oracle without the noise (Algorithm 3 with CDPCWME's
    bucket count, or CDPNSME's smoothed mean): the Algorithm 2 case without its noise."""
    from .algorithms import heavy_tailed as ht
    from .geometry.sets import L2Ball

    X = np.asarray(kw["X"], dtype=float)
    m = ht.bucket_count(X.shape[1], kw["beta"])

    def oracle(G, r, ledger):
        if kw["oracle"] == "cwme":
            return ht.high_dimensional_mean(G, kw["tau"], None, m=m)
        return _nsme_mean(G, kw["tau"], kw["c"])

    return ht.scof(X, ht.squared_loss_gradients, L2Ball(X.shape[1], kw["radius"]), kw["eta"], kw["T"], oracle,
                   np.random.default_rng(0), mode=kw["mode"]).w_priv


def _thm57_kwargs() -> dict:
    return {"X": _ht_data(240, 2, 66), "rho": 4.0, "T": THEOREM_5_7, "eta": THEOREM_5_7, "radius": 5.0,
            "tau": THEOREM_5_7, "beta": THEOREM_5_7, "c": 1.0, "oracle": "cwme", "mode": "strongly_convex",
            "calibration": "certified", "k": 4.0}


def _thm57_noiseless(kw):
    """Algorithm 1 with Theorem 5.7's T, eta, tau and m and the non-private Algorithm 3 as oracle: the
    Theorem 5.7 case without its noise."""
    from .algorithms import heavy_tailed as ht
    from .geometry.sets import L2Ball

    X = np.asarray(kw["X"], dtype=float)
    s = ht.schedule_thm57(X.shape[0], X.shape[1], kw["rho"], kw["k"], lam=1.0, L=1.0, strict=False)

    def oracle(G, r, ledger):
        return ht.high_dimensional_mean(G, s.tau, None, m=s.m)

    return ht.scof(X, ht.squared_loss_gradients, L2Ball(X.shape[1], kw["radius"]), s.eta, s.T, oracle,
                   np.random.default_rng(0), mode="strongly_convex").w_priv


CASES += [
    VectorCase(
        algorithm="heavy_tailed:Algorithm 3", name="n90-d3-tau2-beta0.2", reference=f"{_VC}:heavy_tailed_algorithm3",
        make_kwargs=lambda: {"X": _ht_data(90, 3, 61), "tau": 2.0, "beta": 0.2},
        seed=60, array_args=("X",),
    ),
    VectorCase(
        algorithm="heavy_tailed:Algorithm 1", name="strongly-convex-n120-d2-T4", reference=f"{_VC}:heavy_tailed_scof",
        make_kwargs=lambda: {"X": _ht_data(120, 2, 62), "eta": 0.5, "T": 4, "radius": 5.0, "tau": 2.0, "beta": 0.5,
                             "mode": "strongly_convex"},
        seed=61, array_args=("X",),
    ),
    # the clip of line 6 binds in the buckets the median keeps: at tau = 0.5 (3 tau = 1.5) most buckets of
    # 14 samples hold a record beyond 3 tau, and every coordinate's median moves by 0.08 or more without the
    # clip or with it after averaging (heavy_tailed-M01, M03); at tau = 2 the clip binds only in discarded
    # buckets. tau < 10 is outside Theorem 4.1's accuracy assumption, not its lines
    VectorCase(
        algorithm="heavy_tailed:Algorithm 3", name="n300-d3-tau0.5-beta0.2", reference=f"{_VC}:heavy_tailed_algorithm3",
        make_kwargs=lambda: {"X": _ht_data(300, 3, 61), "tau": 0.5, "beta": 0.2},
        seed=66, array_args=("X",),
    ),
    # the convex mode (w_priv the average of w^1..w^T, heavy_tailed-M11) on a ball of radius 0.25 < ||mu||
    # (about 0.43), so line 10's projection binds from w^2 on (heavy_tailed-M24)
    VectorCase(
        algorithm="heavy_tailed:Algorithm 1", name="convex-n120-d2-T5-radius0.25", reference=f"{_VC}:heavy_tailed_scof",
        make_kwargs=lambda: {"X": _ht_data(120, 2, 62), "eta": 0.4, "T": 5, "radius": 0.25, "tau": 2.0, "beta": 0.5,
                             "mode": "convex"},
        seed=67, array_args=("X",),
    ),
] + [
    VectorCase(
        algorithm="heavy_tailed:CDPCWME", name=f"{calibration}-n200-d2", reference=f"{_HT}:cdpcwme",
        make_kwargs=(lambda c=calibration: _cwme_kwargs(63, c, rho=2.0)),
        seed=62, array_args=("X",), output=_estimate_of, n_runs=1000,
        statistic=DistanceTo(_cwme_noiseless, lambda c=calibration: _cwme_kwargs(63, c, rho=2.0)),
    )
    for calibration in ("paper", "certified")
] + [
    # rho = 2000, tau = 1.5, n = 300, d = 3: the noise (sigma about 0.01) below the gap between the two middle
    # bucket means, so the law of the l1 distance from Algorithm 3's estimate sees which median is taken.
    # beta = 0.2 gives m = ceil(4 ln 30) = 14 buckets (even: footnote 9's mean of the two middle values; a
    # port taking the upper one is rejected), beta = 0.25 gives m = 13 (odd: one middle value)
    VectorCase(
        algorithm="heavy_tailed:CDPCWME", name=f"{calibration}-m{m}-rho2000-n300-d3-tau1.5", reference=f"{_HT}:cdpcwme",
        make_kwargs=(lambda c=calibration, b=beta: _cwme_low_noise_kwargs(c, b)),
        seed=69, array_args=("X",), output=_estimate_of, n_runs=1000, noise_knob=("rho", -0.5),
        statistic=DistanceTo(_cwme_noiseless, lambda c=calibration, b=beta: _cwme_low_noise_kwargs(c, b)),
    )
    for calibration, beta, m in (("certified", 0.2, 14), ("printed", 0.25, 13))
] + [
    VectorCase(
        algorithm="heavy_tailed:DPCWME", name=f"{calibration}-n200-d2", reference=f"{_HT}:dpcwme",
        make_kwargs=(lambda c=calibration: _cwme_kwargs(64, c, epsilon=2.0)),
        seed=63, array_args=("X",), output=_estimate_of, n_runs=1000,
        statistic=DistanceTo(_cwme_noiseless, lambda c=calibration: _cwme_kwargs(64, c, epsilon=2.0)),
    )
    for calibration in ("paper", "certified")
] + [
    VectorCase(
        algorithm="heavy_tailed:Algorithm 4", name=f"{calibration}-c0.3-n200-d2", reference=f"{_HT}:cdpnsme",
        make_kwargs=(lambda c=calibration: _nsme_kwargs(c)),
        # the l1 distance from lines 3-6's mean (line 7's noise): 0.8 x the noise rejected in 1.00 of resampled
        # law checks at 1000 runs (the first coordinate at 600 runs: 0.01; docs/conformance.md)
        seed=64, array_args=("X",), output=_estimate_of, n_runs=1000,
        statistic=DistanceTo(lambda kw: _nsme_mean(kw["X"], kw["tau"], kw["c"]),
                                         lambda c=calibration: _nsme_kwargs(c)),
        rtol=1e-10, atol=1e-12,     # psi_c: closed form / quadrature, a port agrees to rounding
    )
    for calibration in ("paper", "certified")
] + [
    VectorCase(
        algorithm="heavy_tailed:Algorithm 2", name=f"{oracle}-{mode}-{calibration}-n240-d2",
        reference=f"{_VC}:heavy_tailed_cdp_sco", output=_w_priv_of,
        make_kwargs=(lambda o=oracle, m=mode, c=calibration: _sco_kwargs(o, m, c)),
        # the l2 distance from the noiseless run: 0.8 x the noise rejected in 1.00 of resampled law checks at
        # 1000 runs (the first coordinate at 250 runs: 0.0025 to 0.0125; docs/conformance.md)
        seed=65, array_args=("X",), n_runs=1000, rtol=1e-10, atol=1e-12,
        statistic=DistanceTo(_sco_noiseless, lambda o=oracle, m=mode, c=calibration: _sco_kwargs(o, m, c),
                                         norm=2),
    )
    for oracle, mode, calibration in (("cwme", "convex", "certified"), ("cwme", "strongly_convex", "paper"),
                                      ("nsme", "convex", "certified"))
] + [
    # Theorem 5.7's parameters (k = 4; n = 240, d = 2, rho = 4: T = 6, eta = 1/(lam + L) = 1/2, tau = 2.19,
    # m = 17 buckets of the 40-record batches) computed by the conform function. The statistic is the l2
    # distance from the noiseless run of the same schedule: the step 1/L (heavy_tailed-M30) keeps only the last
    # noisy estimate, and the law check rejects it with p <= 1.3e-7 in 5 of 5 simulated repeats at 250 runs
    # (the first coordinate: p from 0.006 to 0.69). No noise knob: rho also sets Theorem 5.7's tau (2.19 at rho = 4,
    # 2.32 at 4 / 0.64), and with it the clip and the sensitivity, so scaling rho is not "the same run with less noise"
    VectorCase(
        algorithm="heavy_tailed:Algorithm 2", name="theorem5.7-k4-certified-n240-d2",
        reference=f"{_VC}:heavy_tailed_cdp_sco", output=_w_priv_of, make_kwargs=_thm57_kwargs, seed=68, array_args=("X",),
        statistic=DistanceTo(_thm57_noiseless, _thm57_kwargs, norm=2), n_runs=250,
        rtol=1e-10, atol=1e-12,
    ),
]


# --- online (Jain-Kothari-Thakurta) ---------------------------------------------------------
# Plain-data entry points: the losses as arrays, the result as the released decisions.


def online_pigd_quadratic(g, a, c, radius, epsilon, delta, L, alpha, x1, calibration, rng):
    """online Algorithm 2 on family (Q) losses f_t = <g_t, x> + (a_t/2)||x - c_t||^2 over the l2 ball of
    ``radius``; returns the result: the released decisions xhat_1..xhat_T, a (T, d) array, in ``.decisions``."""
    from .algorithms import online as ol
    from .geometry.sets import L2Ball

    g, c = np.asarray(g, dtype=float), np.asarray(c, dtype=float)
    fs = [ol.QuadraticLoss(g[t], float(a[t]), c[t]) for t in range(g.shape[0])]
    return ol.private_igd(fs, L2Ball(g.shape[1], radius), g.shape[0], epsilon, delta, L, alpha, rng,
                          calibration=calibration, x1=np.asarray(x1, dtype=float))


def online_pqftl(V, y, epsilon, delta, R, alpha, calibration, rng):
    """online Algorithm 4 on the stream (v_t, y_t) (rows of V, entries of y); returns the result (xhat_1..xhat_T
    in ``.decisions``)."""
    from .algorithms import online as ol

    V = np.asarray(V, dtype=float)
    fs = [ol.SquaredLoss(V[t], float(y[t]), alpha) for t in range(V.shape[0])]
    return ol.pqftl(fs, V.shape[0], epsilon, delta, R, alpha, rng, calibration=calibration)


def online_private_sum(W, R, epsilon, delta, calibration, rng):
    """online Algorithm 5 called once per item of W (rows); returns the released prefix sums (T, d)."""
    from .algorithms import online as ol

    W = np.asarray(W, dtype=float)
    B, out = None, []
    for t in range(1, W.shape[0] + 1):
        S, B = ol.private_sum(W[t - 1], B, t, R, epsilon, delta, W.shape[0], rng, calibration=calibration)
        out.append(S)
    return np.array(out)


def _online_quadratic(T: int, d: int, seed: int, a: float = 1.0) -> dict:
    rng = np.random.default_rng(seed)
    return {"g": rng.uniform(-0.5, 0.5, (T, d)), "a": np.full(T, a), "c": rng.uniform(-0.3, 0.3, (T, d))}


def _sum11_kwargs() -> dict:
    return {"W": np.random.default_rng(74).uniform(-0.7, 0.7, (11, 2)), "R": 1.0, "epsilon": 1.0, "delta": 1e-3,
            "calibration": "paper"}


def _sum3_kwargs() -> dict:
    return {"W": np.random.default_rng(78).uniform(-0.7, 0.7, (3, 2)), "R": 1.3, "epsilon": 0.5, "delta": 1e-3,
            "calibration": "certified"}


def _sum8_kwargs() -> dict:
    return {"W": np.random.default_rng(79).uniform(-0.8, 0.8, (8, 2)), "R": 1.2, "epsilon": 0.7, "delta": 1e-3,
            "calibration": "certified"}


def _exact_sums(kw):
    """Algorithm 5's releases without noise: the exact prefix sums (np.cumsum)."""
    return np.cumsum(np.asarray(kw["W"], dtype=float), axis=0)


def _pqftl16_kwargs() -> dict:
    return {"V": np.random.default_rng(81).uniform(-0.7, 0.7, (16, 2)), "y": np.random.default_rng(82).uniform(-1, 1, 16),
            "epsilon": 20.0, "delta": 1e-2, "R": 1.0, "alpha": 0.7, "calibration": "certified"}


def _pqftl_noiseless(kw):
    """PQFTL without the trees' noise: QFTL (eq. (21)) from xhat_1 = 0 on the same (v_t, y_t)."""
    from .algorithms import online as ol

    V = np.asarray(kw["V"], dtype=float)
    fs = [ol.SquaredLoss(V[t], float(kw["y"][t]), kw["alpha"]) for t in range(V.shape[0])]
    return ol.qftl(fs, kw["alpha"], d=V.shape[1]).decisions


def _pigd_alpha_kwargs() -> dict:
    return {**_online_quadratic(12, 2, 75, a=0.6), "radius": 1.0, "epsilon": 64.0, "delta": 1e-3, "L": 1.7,
            "alpha": 0.6, "x1": np.zeros(2), "calibration": "certified"}


def _pigd_x1_kwargs() -> dict:
    return {**_online_quadratic(16, 2, 75, a=0.6), "radius": 1.0, "epsilon": 256.0, "delta": 1e-3, "L": 1.7,
            "alpha": 0.6, "x1": np.array([0.5, -0.3]), "calibration": "certified"}


def _pigd_noiseless(kw):
    from .vector_properties import _pigd_noiseless as noiseless   # IGD's iterates (Algorithm 2 with b_t = 0)

    return noiseless(kw)


class _round_weighted_distance:  # noqa: N801 - used like a function
    """sum_t t ||xhat_t - x_t||_1 over the rounds' decisions (rows), x_t the noiseless decisions: round t's
    noise is beta / t in PIGD, so each round weighs alike (the plain distance is the first rounds' noise)."""

    def __init__(self, noiseless, make_kwargs):
        self.noiseless, self.make_kwargs, self._value = noiseless, make_kwargs, None

    def __call__(self, out) -> float:
        if self._value is None:
            self._value = np.asarray(self.noiseless(self.make_kwargs()), dtype=float)
        rounds = np.arange(1, self._value.shape[0] + 1, dtype=float)
        return float(np.sum(rounds * np.sum(np.abs(np.asarray(out, dtype=float) - self._value), axis=1)))


CASES += [
    VectorCase(
        algorithm="online:Algorithm 2", name=f"{calibration}-T12-d2", reference=f"{_VC}:online_pigd_quadratic", output=_decisions_of,
        make_kwargs=(lambda cal=calibration: {**_online_quadratic(12, 2, 71), "radius": 1.0, "epsilon": 1.0,
                                              "delta": 1e-3, "L": 2.5, "alpha": 1.0, "x1": np.zeros(2),
                                              "calibration": cal}),
        seed=70, array_args=("g", "a", "c", "x1"),
    )
    for calibration in ("paper", "certified")
] + [
    # The printed noise at epsilon = 1 saturates the projection (every decision on the sphere), so the
    # law check of the printed calibration runs at epsilon = 2500, where beta / t is about 0.3.
    VectorCase(
        algorithm="online:Algorithm 2", name="paper-eps2500-T12-d2", reference=f"{_VC}:online_pigd_quadratic", output=_decisions_of,
        make_kwargs=lambda: {**_online_quadratic(12, 2, 71), "radius": 1.0, "epsilon": 2500.0, "delta": 1e-3,
                             "L": 2.5, "alpha": 1.0, "x1": np.zeros(2), "calibration": "paper"},
        seed=73, array_args=("g", "a", "c", "x1"),
    ),
    # alpha = a_t = 0.6 and L = 1.7 (not 1): the step 1/(alpha t) and the certified sensitivity 2L/alpha
    # differ from 1/t and 2L here (online-M05, online-M03). epsilon = 64 puts the late rounds' noise beta / t
    # (0.10 at t = 11) below the gap between the iterates of eta = 1/(alpha t) and of 1/t (0.07 to 0.14), and
    # the statistic weighs round t by t (the noise of round t is beta / t): a step without the alpha is
    # rejected in 20 of 20 simulated law checks (median p 7e-19), where the plain l1 distance, dominated by
    # the first rounds, rejects it in 13 of 20 at epsilon = 32 (docs/conformance.md)
    VectorCase(
        algorithm="online:Algorithm 2", name="certified-alpha0.6-L1.7-T12-d2-eps64", reference=f"{_VC}:online_pigd_quadratic", output=_decisions_of,
        make_kwargs=_pigd_alpha_kwargs, seed=74, array_args=("g", "a", "c", "x1"),
        statistic=_round_weighted_distance(lambda kw: _pigd_noiseless(kw), _pigd_alpha_kwargs), n_runs=1500,
        noise_knob=("epsilon", -0.57),     # the certified beta's local power of epsilon at 64
    ),
] + [
    # x_1 = (0.5, -0.3) != 0 and T = 16 (a power of two), epsilon = 256: the first implicit steps move x_1
    # by a step-size-dependent amount, and the late rounds' noise beta / t stays below the gap between the
    # iterates of eta_t = 1/(alpha t) and 1/(alpha (t + 1)). The round-weighted l1 distance rejects a step
    # index off by one in 10 of 10 simulated law checks at 1000 runs (median p 3e-62), where at x_1 = 0
    # (the other cases) the same statistic rejects it in 0 of 10 at epsilon = 64 and 6 of 10 at 256
    VectorCase(
        algorithm="online:Algorithm 2", name="certified-alpha0.6-L1.7-T16-d2-eps256-x1", reference=f"{_VC}:online_pigd_quadratic",
        output=_decisions_of, make_kwargs=_pigd_x1_kwargs, seed=79, array_args=("g", "a", "c", "x1"),
        statistic=_round_weighted_distance(lambda kw: _pigd_noiseless(kw), _pigd_x1_kwargs), n_runs=1000,
        noise_knob=("epsilon", -0.53),     # the certified beta's local power of epsilon at 256
    ),
] + [
    VectorCase(
        algorithm="online:Algorithm 4", name=f"{calibration}-T10-d2", reference=f"{_VC}:online_pqftl", output=_decisions_of,
        make_kwargs=(lambda cal=calibration: {"V": np.random.default_rng(72).uniform(-0.7, 0.7, (10, 2)),
                                              "y": np.random.default_rng(73).uniform(-1, 1, 10), "epsilon": 5.0,
                                              "delta": 1e-2, "R": 1.0, "alpha": 1.0, "calibration": cal}),
        seed=71, array_args=("V", "y"), rtol=1e-9, atol=1e-12,
    )
    for calibration in ("paper", "certified")
] + [
    # R = 1.3 (a public bound above the data's ||v|| and |y|, not 1): the certified u-tree's items y v have
    # norm up to R^2 != R (online-M11 calibrates it for R: 0.77 x the noise). epsilon = 10 keeps the noise
    # (sigma ~ R^2) as far below t alpha I as at R = 1, epsilon = 5: at alpha = 0.6, epsilon = 5 the decisions'
    # heavy tails hid 0.77 x the noise (median p 0.005 at 1000 runs); here p < 1e-16
    VectorCase(
        algorithm="online:Algorithm 4", name="certified-R1.3-T10-d2", reference=f"{_VC}:online_pqftl", output=_decisions_of,
        make_kwargs=lambda: {"V": np.random.default_rng(76).uniform(-0.7, 0.7, (10, 2)),
                             "y": np.random.default_rng(77).uniform(-1, 1, 10), "epsilon": 10.0, "delta": 1e-2,
                             "R": 1.3, "alpha": 1.0, "calibration": "certified"},
        seed=75, array_args=("V", "y"), rtol=1e-9, atol=1e-12,
        noise_knob=("epsilon", -0.68),     # the certified sigma's local power of epsilon at 10
    ),
] + [
    # T = 16 (a power of two), alpha = 0.7, epsilon = 20: the trees' noise (sigma about 0.8) small beside
    # t alpha I from the first rounds on, so each decision is to first order a fixed linear image of its
    # round's tree noise. The law: those errors, weighted by t and whitened by an honest tree's covariance
    # over rounds (WeightedDecisionError): tree noise shared within a level changes their dependence, and
    # is rejected; the median |coordinate| of the other cases is blind to it (0 of 10 at 1000 runs)
    VectorCase(
        algorithm="online:Algorithm 4", name="certified-alpha0.7-T16-d2-eps20", reference=f"{_VC}:online_pqftl",
        output=_decisions_of, make_kwargs=_pqftl16_kwargs, seed=78, array_args=("V", "y"), rtol=1e-9, atol=1e-12,
        statistic=WeightedDecisionError(_pqftl_noiseless, _pqftl16_kwargs), n_runs=1000,
        noise_knob=("epsilon", -0.65),     # the certified sigma's local power of epsilon at 20
    ),
] + [
    VectorCase(
        algorithm="online:Algorithm 5", name="paper-T11-d2", reference=f"{_VC}:online_private_sum",
        make_kwargs=_sum11_kwargs, seed=72, array_args=("W",),
        statistic=WhitenedTreeError(_exact_sums, _sum11_kwargs), n_runs=1000,
    ),
    # the certified tree at epsilon = 0.5 (not 1: online-M10 calibrates at sqrt(epsilon)) and T = 3, where an
    # item lies in floor(log2 T) + 1 = 2 nodes (online-M27 counts 1: 0.71 x the noise); R = 1.3
    VectorCase(
        algorithm="online:Algorithm 5", name="certified-T3-d2-eps0.5", reference=f"{_VC}:online_private_sum",
        make_kwargs=_sum3_kwargs, seed=76, array_args=("W",),
        statistic=WhitenedTreeError(_exact_sums, _sum3_kwargs), n_runs=1000,
    ),
    # T = 8 = 2^3: an item lies in floor(log2 8) + 1 = 4 populated nodes, where ceil(log2 8) = 3 (a port
    # counting ceil(log2 T) nodes calibrates sqrt(3/4) = 0.87 x the noise; at T = 3, 7 or 11 the two counts
    # agree). The whitened law sees every release, both coordinates and the dependence between releases
    VectorCase(
        algorithm="online:Algorithm 5", name="certified-T8-d2-eps0.7-R1.2", reference=f"{_VC}:online_private_sum",
        make_kwargs=_sum8_kwargs, seed=77, array_args=("W",),
        statistic=WhitenedTreeError(_exact_sums, _sum8_kwargs), n_runs=1000,
        noise_knob=("epsilon", -0.84),     # the certified sigma's local power of epsilon at 0.7
    ),
]


# ---- the cases added per paper in their own modules (reference/vector_cases_<paper>.py); their conform
# functions are named by those modules' paths.
from . import vector_cases_core as _core  # noqa: E402
from . import vector_cases_erm_geometry as _erm_geometry  # noqa: E402
from . import vector_cases_lasso as _lasso  # noqa: E402
from . import vector_cases_online as _online  # noqa: E402
from . import vector_cases_saddle_point as _saddle_point  # noqa: E402

CASES += _core.CASES + _erm_geometry.CASES + _lasso.CASES + _online.CASES + _saddle_point.CASES
