"""Frank-Wolfe: the one implementation shared by the papers ``lasso`` and ``erm_geometry``.

Which algorithm of which paper each function is (the two papers are by the same authors;
``lasso`` = Talwar-Thakurta-Zhang, "Nearly-optimal private LASSO", NeurIPS 2015, seed 004;
``erm_geometry`` = Talwar-Thakurta-Zhang, "Private ERM beyond the worst case", seed 000):

=======================================  ==========================  =============================
function                                 lasso                       erm_geometry
=======================================  ==========================  =============================
:func:`frank_wolfe`                      Algorithm 1, Thm 2.2        Algorithm 3, Thm 5.2
:func:`private_frank_wolfe_polytope`     Algorithm 2, Thm 2.4-2.5    Algorithm 4, Thm 5.4-5.5
:func:`private_frank_wolfe_general`      Thm 2.6 (no pseudocode)     Appendix B Algorithm 5, B.1-B.2
=======================================  ==========================  =============================

The papers differ in the step size (lasso: mu_t = 2/(t+2); erm_geometry Alg 3-5: a constant
mu, 1/T in Thm 5.2 and 1/(T+2) in Alg 4-5). The canonical choice here is lasso's
``step_size="paper"`` = 2/(t+2); the companion's constants are available as
``step_size="constant"`` (mu = 1/(T+2)) and ``step_size="1/T"`` for reproduction only: with a
constant step the method does not converge (docs/errata.md, lasso-E01).

How the data are reached
------------------------
Every algorithm reaches the data only through ``gradient``: a callable ``theta -> grad L(theta; D)``.
It may also have a method ``after_step(theta_next, mu, vertex)``: the loop calls it right after
line "theta_{t+1} = (1 - mu_t) theta_t + mu_t tilde_theta_t", so that an objective can update a
cached quantity (the LASSO residual X theta - y changes by a rank-one term, see
:mod:`reference.algorithms.lasso`) instead of recomputing it. The hook changes no line of the
paper: ``gradient(theta)`` stays the definition, and tests check that the fast path equals it.

Constraint sets
---------------
The polytope algorithm needs the scores <s, g> of every vertex s of S. A :class:`VertexSet`
gives them without materialising S (for the l1 ball of R^10^4, S would be 1.6 GB):
:class:`SignedBasis` is {+-c e_j} in the canonical order [c e_1, ..., c e_p, -c e_1, ..., -c e_p]
and :class:`ExplicitVertices` any finite list. :func:`as_vertex_set` also accepts an array of
vertices, or a geometry ``L1Ball`` / ``Polytope`` (anything with ``.vertices()``). Ties in every
argmin are broken by the lowest index in that order.

Noise calibration is the caller's business (docs/architecture.md): :func:`paper_laplace_scale`
is line 3 of Algorithm 2 verbatim, :func:`certified_laplace_scale` the smallest scale the
package's accountant certifies; likewise :func:`paper_gaussian_sigma` /
:func:`certified_gaussian_sigma` for the general variant.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

import numpy as np

from .._validate import (check_array, check_delta, check_epsilon, check_int, check_positive,
                         check_rng)
from ..claims import Algorithm, Claim
from ..errors import AssumptionViolation, ParameterError, ShapeError
from ..privacy.ledger import FrozenLedger, Ledger

__all__ = [
    "FrankWolfeResult", "VertexSet", "SignedBasis", "ExplicitVertices", "as_vertex_set",
    "step_size_schedule", "frank_wolfe", "private_frank_wolfe_polytope",
    "private_frank_wolfe_general", "paper_laplace_scale", "certified_laplace_scale",
    "paper_gaussian_sigma", "certified_gaussian_sigma", "duality_gap",
]

STEP_SIZES = ("paper", "constant", "1/T", "jaggi")
SELECTIONS = ("laplace", "gumbel", "exponential")


# ---------------------------------------------------------------------------
# Results


def _frozen(a: np.ndarray | None) -> np.ndarray | None:
    if a is None:
        return None
    a = np.asarray(a)
    a.setflags(write=False)
    return a


@dataclass(frozen=True)
class FrankWolfeResult:
    """What a Frank-Wolfe run returns.

    theta        theta_T, the output (line 5 of Alg 1 / line 6 of Alg 2)
    iterates     array (T, p): theta_1, ..., theta_T (None when ``keep_iterates=False``)
    selected     array (T-1, p): tilde_theta_1, ..., tilde_theta_{T-1} (None when ``keep_iterates=False``;
                 ``selected_index`` is always kept)
    selected_index  array (T-1,) of vertex indices (polytope variants; -1 when the LMO returned
                 a point not given by index, e.g. a general convex set)
    step_sizes   array (T-1,): mu_1, ..., mu_{T-1}
    T            the horizon (T - 1 updates are made)
    noise_scale  Laplace/Gumbel scale lambda (polytope), Gaussian sigma (general), 0 if none
    ledger       every mechanism invoked, in order (empty for the non-private algorithm)
    """

    theta: np.ndarray
    iterates: np.ndarray | None
    selected: np.ndarray | None
    selected_index: np.ndarray
    step_sizes: np.ndarray
    T: int
    noise_scale: float
    ledger: FrozenLedger

    def __post_init__(self) -> None:
        for name in ("theta", "iterates", "selected", "selected_index", "step_sizes"):
            object.__setattr__(self, name, _frozen(getattr(self, name)))


# ---------------------------------------------------------------------------
# Vertex sets


class VertexSet:
    """A finite set S = {s_0, ..., s_{m-1}} in R^p given by its scores.

    ``scores(g)`` is the vector (<s_i, g>)_i; ``vertex(i)`` is s_i; ``l1_norm`` is
    ||C||_1 = max_s ||s||_1 (Algorithm 2's input); ``argmin(g)`` is Fact 2.3's LMO over S with the
    lowest-index tie-break.
    """

    dim: int
    size: int
    l1_norm: float

    def scores(self, g: np.ndarray) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    def vertex(self, i: int) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    def argmin(self, g: np.ndarray) -> int:
        return int(np.argmin(self.scores(g)))

    def lmo(self, g: np.ndarray) -> np.ndarray:
        return self.vertex(self.argmin(g))

    def contains(self, theta: np.ndarray, atol: float = 1e-12) -> bool:  # pragma: no cover
        raise NotImplementedError


class SignedBasis(VertexSet):
    """S = {+-c e_j : j = 1..p}, the 2p vertices of the l1 ball of radius c (lasso §2.2).

    Canonical order: index i < p is +c e_{i}, index p + i is -c e_{i} (0-based).
    """

    def __init__(self, dim: int, radius: float = 1.0):
        self.dim = check_int(dim, "dim", 1)
        self.radius = check_positive(radius, "radius")
        self.size = 2 * self.dim
        self.l1_norm = self.radius

    def scores(self, g: np.ndarray) -> np.ndarray:
        g = np.asarray(g, dtype=float)
        return np.concatenate((self.radius * g, -self.radius * g))

    def vertex(self, i: int) -> np.ndarray:
        v = np.zeros(self.dim)
        j, sign = self.coordinate(i)
        v[j] = sign * self.radius
        return v

    def coordinate(self, i: int) -> tuple[int, float]:
        """(j, sign) with s_i = sign * c * e_j."""
        i = int(i)
        if not 0 <= i < self.size:
            raise ParameterError("i", f"0 <= i < {self.size}", i)
        return (i, 1.0) if i < self.dim else (i - self.dim, -1.0)

    def contains(self, theta: np.ndarray, atol: float = 1e-12) -> bool:
        return bool(np.sum(np.abs(theta)) <= self.radius + atol)


class ExplicitVertices(VertexSet):
    """A polytope conv(S) given by the rows of an (m, p) array S."""

    def __init__(self, vertices):
        S = check_array(vertices, "vertices", ndim=2)
        self.S = S
        self.size, self.dim = S.shape
        self.l1_norm = float(np.max(np.sum(np.abs(S), axis=1)))

    def scores(self, g: np.ndarray) -> np.ndarray:
        return self.S @ np.asarray(g, dtype=float)

    def vertex(self, i: int) -> np.ndarray:
        return self.S[int(i)].copy()

    def contains(self, theta: np.ndarray, atol: float = 1e-9) -> bool:
        from scipy.optimize import linprog

        m = self.size
        res = linprog(np.zeros(m), A_eq=np.vstack([self.S.T, np.ones((1, m))]),
                      b_eq=np.concatenate([theta, [1.0]]), bounds=[(0, None)] * m, method="highs")
        return bool(res.status == 0)


def as_vertex_set(C) -> VertexSet:
    """A :class:`VertexSet` from a VertexSet, an (m, p) array of vertices, a
    :class:`reference.geometry.sets.L1Ball` (no vertex matrix is built) or anything with
    ``.vertices()`` (e.g. :class:`reference.geometry.sets.Polytope`)."""
    if isinstance(C, VertexSet):
        return C
    if isinstance(C, np.ndarray) or isinstance(C, (list, tuple)):
        return ExplicitVertices(C)
    from ..geometry.sets import L1Ball

    if isinstance(C, L1Ball):   # same vertex order and tie-break (geometry docstring, R-16)
        return SignedBasis(C.dim, C.r)
    if hasattr(C, "vertices"):
        return ExplicitVertices(C.vertices())
    raise ParameterError("vertices", "a VertexSet, an (m, p) array of vertices, or a polytope "
                         "with .vertices()", type(C).__name__)


def _as_lmo(lmo) -> Callable[[np.ndarray], np.ndarray]:
    if isinstance(lmo, VertexSet):
        return lmo.lmo
    if hasattr(lmo, "lmo"):
        return lmo.lmo
    if callable(lmo):
        return lmo
    raise ParameterError("lmo", "a callable g -> argmin_{v in C} <g, v>, or a set with .lmo",
                         type(lmo).__name__)


# ---------------------------------------------------------------------------
# Step sizes


def step_size_schedule(step_size, T: int) -> np.ndarray:
    """mu_1, ..., mu_{T-1}.

    ``"paper"``: mu_t = 2/(t+2) (lasso Thm 2.2 and Alg 2 line 5; canonical).
    ``"constant"``: mu = 1/(T+2) (erm_geometry Alg 4 line 5 and Alg 5 line 4).
    ``"1/T"``: mu = 1/T (erm_geometry Thm 5.2).
    ``"jaggi"``: mu_t = 2/(t+1) (Jaggi 2013's indexing; comparison only).
    A callable ``(t, T) -> mu`` is used as given (each mu must lie in [0, 1]).
    """
    T = check_int(T, "T", 1)
    t = np.arange(1, T, dtype=float)
    if callable(step_size):
        mu = np.array([float(step_size(int(k), T)) for k in t])
    elif step_size == "paper":
        mu = 2.0 / (t + 2.0)
    elif step_size == "constant":
        mu = np.full(T - 1, 1.0 / (T + 2.0))
    elif step_size == "1/T":
        mu = np.full(T - 1, 1.0 / T)
    elif step_size == "jaggi":
        mu = 2.0 / (t + 1.0)
    else:
        raise ParameterError("step_size", f"one of {STEP_SIZES} or a callable (t, T) -> mu",
                             step_size)
    if mu.size and (not np.all(np.isfinite(mu)) or mu.min() < 0 or mu.max() > 1):
        raise ParameterError("step_size", "every mu_t in [0, 1] (keeps iterates in C)", mu)
    return mu


# ---------------------------------------------------------------------------
# Helpers shared by the three loops


def _start(theta1, dim_hint: int | None) -> np.ndarray:
    theta = check_array(theta1, "theta1", ndim=1)
    if dim_hint is not None and theta.shape[0] != dim_hint:
        raise ShapeError("theta1", f"a vector of length {dim_hint}", f"shape {theta.shape}")
    return theta


def _after_step(gradient, theta_next, mu, vertex) -> None:
    hook = getattr(gradient, "after_step", None)
    if hook is not None:
        hook(theta_next, mu, vertex)


def _checked_gradient(gradient, theta, p) -> np.ndarray:
    g = np.asarray(gradient(theta), dtype=float)
    if g.shape != (p,):
        raise ShapeError("gradient(theta)", f"a vector of length {p}", f"shape {g.shape}")
    if not np.all(np.isfinite(g)):
        raise AssumptionViolation("the gradient is finite", "gradient(theta) returned NaN/inf")
    return g


def _records(theta, T: int, keep: bool):
    """Preallocated (T, p) iterates and (T-1, p) selections (None when not kept: at p = 10^4 and
    T = 3420 each is 270 MB), and the list of selected indices."""
    if not keep:
        return None, None, []
    iterates = np.empty((T, theta.shape[0]))
    iterates[0] = theta
    return iterates, np.empty((T - 1, theta.shape[0])), []


def _result(theta, iterates, selected, selected_index, mus, T, scale, ledger) -> FrankWolfeResult:
    return FrankWolfeResult(
        theta=theta.copy(), iterates=iterates, selected=selected,
        selected_index=np.array(selected_index, dtype=np.int64),
        step_sizes=np.array(mus, dtype=float),
        T=T, noise_scale=float(scale), ledger=ledger.freeze(),
    )


# ---------------------------------------------------------------------------
# Algorithm 1 (lasso) = Algorithm 3 (erm_geometry): Frank-Wolfe


def frank_wolfe(gradient, lmo, theta1, T: int, *, step_size="paper",
                keep_iterates: bool = True) -> FrankWolfeResult:
    """Frank-Wolfe (non-private).

    Paper ``lasso``, Algorithm 1 (§2), convergence Theorem 2.2 (mu_t = 2/(t+2) gives
    L(theta_T) - L* = O(Gamma/T)); paper ``erm_geometry``, Algorithm 3 (§5.1), Theorem 5.2.

    gradient  callable theta -> grad L(theta) (may have ``after_step``, module docstring)
    lmo       linear minimisation oracle: a :class:`VertexSet`, a set with ``.lmo(g)``, or a
              callable g -> argmin_{v in C} <g, v>
    theta1    the starting point theta_1 in C (public, data-independent)
    T         horizon: T - 1 updates, output theta_T; T = 1 returns theta_1
    step_size "paper" (2/(t+2)), "constant" (1/(T+2)), "1/T", "jaggi", or callable (t, T)
    """
    T = check_int(T, "T", 1)
    oracle = _as_lmo(lmo)
    vs = lmo if isinstance(lmo, VertexSet) else None
    mus = step_size_schedule(step_size, T)
    ledger = Ledger()
    # Line 1: choose an arbitrary theta_1 from C (given by the caller)
    theta = _start(theta1, vs.dim if vs is not None else None)
    p = theta.shape[0]
    iterates, selected, selected_index = _records(theta, T, keep_iterates)
    # Line 2: for t = 1 to T - 1
    for t in range(1, T):
        mu = mus[t - 1]
        g = _checked_gradient(gradient, theta, p)
        # Line 3: tilde_theta_t = argmin_{theta in C} <grad L(theta_t), theta - theta_t>
        #         (the -theta_t term does not change the argmin)
        if vs is not None:
            index = vs.argmin(g)
            vertex = vs.vertex(index)
        else:
            index = -1
            vertex = np.asarray(oracle(g), dtype=float)
        # Line 4: theta_{t+1} = theta_t + mu_t (tilde_theta_t - theta_t)
        theta = theta + mu * (vertex - theta)
        _after_step(gradient, theta, mu, vertex)
        selected_index.append(index)
        if keep_iterates:
            selected[t - 1] = vertex
            iterates[t] = theta
    # Line 5: return theta_T
    return _result(theta, iterates, selected, selected_index, mus, T, 0.0, ledger)


# ---------------------------------------------------------------------------
# Algorithm 2 (lasso) = Algorithm 4 (erm_geometry): private Frank-Wolfe, polytope case


def private_frank_wolfe_polytope(gradient, vertices, theta1, T: int, *, noise_scale: float,
                                 score_sensitivity: float, rng: np.random.Generator,
                                 selection: str = "laplace", step_size="paper",
                                 relation: str = "replace-one", keep_iterates: bool = True,
                                 label: str = "noise-fw") -> FrankWolfeResult:
    """A_Noise-FW(polytope): differentially private Frank-Wolfe over C = conv(S).

    Paper ``lasso``, Algorithm 2 (§2.1); privacy Theorem 2.4, utility Theorem 2.5, LASSO
    Corollary 2.7. Paper ``erm_geometry``, Algorithm 4 (§5.2); Theorems 5.4, 5.5.

    gradient          callable theta -> grad L(theta; D) (may have ``after_step``)
    vertices          S: a :class:`VertexSet`, an (m, p) array, or a polytope with .vertices()
    theta1            public starting point in C
    T                 horizon; T - 1 noisy selections
    noise_scale       lambda, the scale of the noise added to every score (line 3); obtain it
                      from :func:`paper_laplace_scale` or :func:`certified_laplace_scale`
    score_sensitivity the largest change of one score <s, grad L(theta; D)> between
                      neighbouring data sets, for every theta in C and s in S (recorded in the
                      ledger; for LASSO 2 L_1 ||C||_1 / n under replace-one)
    selection         ``"laplace"``: line 3-4 as printed (report-noisy-min, Lap(lambda) noise);
                      ``"gumbel"``: the same with Gumbel(lambda) noise, which is exactly the
                      exponential mechanism P(s) ∝ exp(-<s, g>/lambda) that §2.1's text names;
                      ``"exponential"``: that exponential mechanism sampled directly (same
                      distribution as "gumbel", different use of the random stream).
    step_size         "paper" = 2/(t+2) (lasso, canonical); "constant" = 1/(T+2) (erm_geometry)
    """
    from ..privacy import mechanisms

    T = check_int(T, "T", 1)
    S = as_vertex_set(vertices)
    lam = check_positive(noise_scale, "noise_scale")
    sens = check_positive(score_sensitivity, "score_sensitivity")
    rng = check_rng(rng)
    if selection not in SELECTIONS:
        raise ParameterError("selection", f"one of {SELECTIONS}", selection)
    mus = step_size_schedule(step_size, T)
    ledger = Ledger()
    # Line 1: choose an arbitrary theta_1 from C (public, given by the caller)
    theta = _start(theta1, S.dim)
    if not S.contains(theta):
        raise AssumptionViolation("theta_1 lies in C = conv(S) (Algorithm 2 line 1)",
                                  "the recorded score sensitivity holds only for iterates in C")
    p = theta.shape[0]
    iterates, selected, selected_index = _records(theta, T, keep_iterates)
    # Line 2: for t = 1 to T - 1
    for t in range(1, T):
        mu = mus[t - 1]
        g = _checked_gradient(gradient, theta, p)
        # Line 3: for all s in S, alpha_s <- <s, grad L(theta_t; D)> + Lap(lambda)
        scores = S.scores(g)
        # Line 4: tilde_theta_t <- argmin_{s in S} alpha_s   (report-noisy-min: lines 3-4 together)
        if selection == "exponential":
            # P(s) ∝ exp(-<s,g>/lambda) = exp(eps_s * (-<s,g>) / (2 * sens)) with eps_s = 2 sens / lambda
            index = mechanisms.exponential_mechanism(
                -scores, sens, 2.0 * sens / lam, rng, ledger=ledger, relation=relation,
                label=f"{label} step {t}")
        else:
            index = mechanisms.report_noisy_min(
                scores, sens, lam, rng, noise=selection, ledger=ledger, relation=relation,
                label=f"{label} step {t}")
        index = int(index)
        vertex = S.vertex(index)
        # Line 5: theta_{t+1} <- (1 - mu_t) theta_t + mu_t tilde_theta_t,  mu_t = 2/(t+2)
        theta = (1.0 - mu) * theta + mu * vertex
        _after_step(gradient, theta, mu, vertex)
        selected_index.append(index)
        if keep_iterates:
            selected[t - 1] = vertex
            iterates[t] = theta
    # Line 6: output theta_priv = theta_T
    return _result(theta, iterates, selected, selected_index, mus, T, lam, ledger)


# ---------------------------------------------------------------------------
# lasso Thm 2.6 = erm_geometry Appendix B Algorithm 5: private Frank-Wolfe, general convex C


def private_frank_wolfe_general(gradient, lmo, theta1, T: int, *, sigma: float,
                                l2_sensitivity: float, rng: np.random.Generator,
                                step_size="paper", relation: str = "replace-one",
                                keep_iterates: bool = True,
                                label: str = "noise-fw-gen") -> FrankWolfeResult:
    """A_Noise-FW(Gen-convex): private Frank-Wolfe with a Gaussian-perturbed linear objective.

    Paper ``erm_geometry``, Appendix B, Algorithm 5; privacy Theorem B.1, utility Theorem B.2.
    Paper ``lasso``: the algorithm A_Noise-FW of Theorem 2.6 (§2.1, "General C"; the paper gives
    no pseudocode and defers to the full version, i.e. erm_geometry Algorithm 5).

    Line 3 perturbs the gradient, b_t ~ N(0, sigma^2 I_p), and calls the exact LMO of C; the
    ledger records one Gaussian event of l2 sensitivity ``l2_sensitivity`` (the sensitivity of
    grad L(theta; D): 2 L_2 / n under replace-one) per step. The printed step mu = 1/(T+2) is
    ``step_size="constant"``; the canonical default is lasso's 2/(t+2) (docs/errata.md).
    """
    from ..privacy import mechanisms

    T = check_int(T, "T", 1)
    oracle = _as_lmo(lmo)
    sigma = check_positive(sigma, "sigma")
    sens = check_positive(l2_sensitivity, "l2_sensitivity")
    rng = check_rng(rng)
    mus = step_size_schedule(step_size, T)
    ledger = Ledger()
    # Line 1: choose an arbitrary theta_1 from C
    theta = _start(theta1, None)
    p = theta.shape[0]
    iterates, selected, selected_index = _records(theta, T, keep_iterates)
    # Line 2: for t = 1 to T - 1
    for t in range(1, T):
        mu = mus[t - 1]
        g = _checked_gradient(gradient, theta, p)
        # Line 3: tilde_theta_t = argmin_{theta in C} <grad L(theta_t; D) + b_t, theta>,
        #         b_t ~ N(0, sigma^2 I_p)
        noisy = mechanisms.gaussian_mechanism(g, sens, sigma, rng, ledger=ledger,
                                              relation=relation, label=f"{label} step {t}")
        vertex = np.asarray(oracle(np.asarray(noisy, dtype=float)), dtype=float)
        # Line 4: theta_{t+1} <- (1 - mu) theta_t + mu tilde_theta_t
        theta = (1.0 - mu) * theta + mu * vertex
        _after_step(gradient, theta, mu, vertex)
        selected_index.append(-1)
        if keep_iterates:
            selected[t - 1] = vertex
            iterates[t] = theta
    # Line 5: output theta_priv = theta_T
    return _result(theta, iterates, selected, selected_index, mus, T, sigma, ledger)


# ---------------------------------------------------------------------------
# Calibration


def paper_laplace_scale(lipschitz_l1: float, set_l1_norm: float, T: int, n: int,
                        epsilon: float, delta: float) -> float:
    """lambda = L_1 ||C||_1 sqrt(8 T log(1/delta)) / (n epsilon): lasso Alg 2 line 3, verbatim
    (= erm_geometry Alg 4 line 3). Natural log; T (not T - 1) under the root, as printed."""
    L1 = check_positive(lipschitz_l1, "lipschitz_l1")
    c1 = check_positive(set_l1_norm, "set_l1_norm")
    T = check_int(T, "T", 1)
    n = check_int(n, "n", 1)
    eps = check_epsilon(epsilon)
    d = check_delta(delta)
    return L1 * c1 * math.sqrt(8.0 * T * math.log(1.0 / d)) / (n * eps)


def _selection_ledger(steps: int, sensitivity: float, scale: float, noise: str) -> FrozenLedger:
    from ..privacy.ledger import MechanismEvent

    ev = MechanismEvent(kind="report_noisy_max", sensitivity=sensitivity, norm="score",
                        noise_scale=scale, noise=noise)
    return FrozenLedger(tuple([ev] * steps))


def certified_laplace_scale(score_sensitivity: float, T: int, epsilon: float, delta: float, *,
                            noise: str = "laplace", rel_tol: float = 1e-7) -> float:
    """The smallest lambda (up to ``rel_tol``, rounded up) whose run of T - 1 report-noisy-min
    steps the package's accountant certifies (epsilon, delta)-DP: bisection on
    ``accounting.certify`` of the very ledger the run will record. Returns +inf never: T = 1
    (no step) returns the smallest positive float."""
    sens = check_positive(score_sensitivity, "score_sensitivity")
    T = check_int(T, "T", 1)
    eps = check_epsilon(epsilon)
    d = check_delta(delta)
    if noise not in ("laplace", "gumbel"):
        raise ParameterError("noise", "'laplace' or 'gumbel'", noise)
    return _certified_laplace_scale(sens, T, eps, d, noise, float(rel_tol))


@lru_cache(maxsize=512)
def _certified_laplace_scale(sens: float, T: int, eps: float, d: float, noise: str, rel_tol: float) -> float:
    # cached: the accountant is deterministic and a calibration is asked for once per run
    from ..privacy import accounting

    steps = T - 1
    if steps == 0:
        return float(np.finfo(float).tiny)

    # per-step (2 sens / lambda)-DP, basic composition: lambda = 2 sens steps / eps always suffices
    return accounting.calibrate_noise_scale(lambda scale: _selection_ledger(steps, sens, scale, noise), eps, d,
                                            guess=2.0 * sens * steps / eps, rel_tol=rel_tol)


def paper_gaussian_sigma(lipschitz_l2: float, T: int, n: int, epsilon: float, delta: float, *,
                         square_lipschitz: bool = False) -> float:
    """sigma with sigma^2 = 32 L_2 T log^2(n/delta) / (n epsilon)^2: erm_geometry Alg 5 line 3 as
    printed (natural log). ``square_lipschitz=True`` gives the resolution L_2^2 (the printed
    formula is not invariant under scaling the loss; docs/errata.md)."""
    L2 = check_positive(lipschitz_l2, "lipschitz_l2")
    T = check_int(T, "T", 1)
    n = check_int(n, "n", 1)
    eps = check_epsilon(epsilon)
    d = check_delta(delta)
    L = L2 * L2 if square_lipschitz else L2
    return math.sqrt(32.0 * L * T * math.log(n / d) ** 2) / (n * eps)


def certified_gaussian_sigma(l2_sensitivity: float, T: int, epsilon: float, delta: float, *,
                             rel_tol: float = 1e-7) -> float:
    """The smallest sigma (rounded up, up to ``rel_tol``) for which the accountant certifies the
    T - 1 Gaussian steps of Algorithm 5 (epsilon, delta)-DP."""
    from ..privacy import accounting

    sens = check_positive(l2_sensitivity, "l2_sensitivity")
    T = check_int(T, "T", 1)
    eps = check_epsilon(epsilon)
    d = check_delta(delta)
    if T == 1:
        return float(np.finfo(float).tiny)
    return accounting.certified_gaussian_sigma(sens, T - 1, eps, d, rel_tol=rel_tol)


def duality_gap(gradient, lmo, theta) -> float:
    """The Frank-Wolfe gap <grad L(theta), theta - LMO(grad L(theta))> >= L(theta) - L*
    (for convex L): a certificate of optimality used to bound L* from below."""
    theta = np.asarray(theta, dtype=float)
    g = np.asarray(gradient(theta), dtype=float)
    v = np.asarray(_as_lmo(lmo)(g), dtype=float)
    return float(g @ (theta - v))


# ---------------------------------------------------------------------------
# Registry

ALGORITHMS = (
    Algorithm("lasso", "Algorithm 1", "Frank-Wolfe algorithm",
              "reference.algorithms.frank_wolfe:frank_wolfe", "§2"),
    Algorithm("lasso", "Algorithm 2", "A_Noise-FW(polytope): differentially private Frank-Wolfe (polytope case)",
              "reference.algorithms.frank_wolfe:private_frank_wolfe_polytope", "§2.1"),
    Algorithm("lasso", "Theorem 2.6", "A_Noise-FW: private Frank-Wolfe for a general convex set (Gaussian width)",
              "reference.algorithms.frank_wolfe:private_frank_wolfe_general", "§2.1"),
)

CLAIMS = (
    Claim("lasso:Fact 2.3", "invariant",
          "Over C = conv(S) a linear function is minimised at a point of S; the vertex argmin "
          "equals the LMO of the convex hull.", "lasso §2.1 Fact 2.3"),
    Claim("lasso:Theorem 2.2", "utility",
          "Frank-Wolfe with mu_t = 2/(t+2) satisfies L(theta_T) - L* <= (2 h_1 + 2 Gamma (T-1)) / "
          "(T (T+1)) = O(Gamma/T) (explicit form of the paper's O(.), derived for its indexing).",
          "lasso §2 Theorem 2.2"),
    Claim("lasso:§2 iterates feasible", "invariant",
          "Every Frank-Wolfe iterate is a convex combination of points of C, so stays in C "
          "(projection free).", "lasso §2, text after Theorem 2.2"),
    Claim("lasso:§2 sparsity", "invariant",
          "theta_T is a convex combination of theta_1 and at most T - 1 points of S; with theta_1 = 0 "
          "on the l1 ball, ||theta_T||_0 <= T - 1 <= T.", "lasso §2, text after Theorem 2.2"),
    Claim("lasso:Algorithm 2 zero noise", "invariant",
          "With vanishing noise Algorithm 2 selects what Algorithm 1 selects (exact Frank-Wolfe), "
          "and the same seed gives bit-identical runs.", "lasso Algorithms 1-2"),
    Claim("lasso:Theorem 2.6 privacy", "privacy",
          "The general-convex variant (erm_geometry Alg 5) with sigma^2 = 32 L_2^2 T ln^2(n/delta)/(n eps)^2 "
          "(L_2 squared, lasso-E08) and l2 sensitivity 2 L_2/n per step is certified (eps, delta)-DP by the "
          "accountant.", "lasso Theorem 2.6; erm_geometry Theorem B.1"),
)
