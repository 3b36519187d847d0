"""Frank-Wolfe for the paper ``lasso`` (Talwar-Thakurta-Zhang, "Nearly-optimal private LASSO",
NeurIPS 2015, seed 004): Algorithm 1, Algorithm 2 and the general-convex variant of Theorem 2.6,
on one shared loop.

Each entry point below is written in the ``lasso`` paper's words: its docstring cites that paper's
algorithm and theorems, its ``# Line k`` comments are that paper's line numbers.

=======================================  =============================================
function                                 lasso
=======================================  =============================================
:func:`frank_wolfe`                      Algorithm 1 (§2), Theorem 2.2
:func:`private_frank_wolfe_polytope`     Algorithm 2 (§2.1), Theorems 2.4, 2.5; Cor 2.7
:func:`private_frank_wolfe_general`      Theorem 2.6 (no pseudocode: erm_geometry Alg 5)
=======================================  =============================================

The companion paper ``erm_geometry`` (same authors, seed 000) prints the same three algorithms as
its Algorithms 3, 4 and 5 with other numbers and a constant step; its wrappers live in
:mod:`reference.algorithms.erm_geometry` (they call the entry points below; an entry point in that
paper's numbering runs on the same loop). The loop, :class:`FrankWolfeRun`, owns what every
variant does alike (the horizon, the gradient handed to each step, the step sizes,
the records, the objective's ``after_step`` hook). How tilde_theta_t is chosen stays in each entry
point, where the reader of that paper expects it.

Step sizes: lasso's mu_t = 2/(t+2) is ``step_size="paper"`` (alias ``"2/(t+2)"``); erm_geometry's
printed constants are ``"1/(T+2)"`` and ``"1/T"`` (with a constant step the method does not
converge, docs/errata.md lasso-E01).

How the data are reached
------------------------
Every algorithm reaches the data only through ``gradient``: a callable ``theta -> grad L(theta; D)``.
It may also have a method ``after_step(theta_next, mu, vertex)``: the loop calls it right after
the step theta_{t+1} = (1 - mu_t) theta_t + mu_t tilde_theta_t, so that an objective can update a
cached quantity (the LASSO gradient changes by an affine term, see
:mod:`reference.algorithms.lasso`) instead of recomputing it. The hook changes no line of the
paper: ``gradient(theta)`` stays the definition, and tests check that the fast path equals it.

Constraint sets
---------------
Algorithm 2 needs the scores <s, g> of every vertex s of S. A :class:`VertexSet` gives them
without materialising S (for the l1 ball of R^10^4, S would be 1.6 GB): :class:`SignedBasis` is
{+-c e_j} in the canonical order [c e_1, ..., c e_p, -c e_1, ..., -c e_p] and
:class:`ExplicitVertices` any finite list. :func:`as_vertex_set` also accepts an array of
vertices, or a geometry ``L1Ball`` / ``Polytope`` (anything with ``.vertices()``). Ties in every
argmin are broken by the lowest index in that order.

Noise calibration is the caller's business (docs/architecture.md): :func:`paper_laplace_scale`
is line 3 of Algorithm 2 as printed, :func:`certified_laplace_scale` the smallest scale the
package's accountant certifies; :func:`paper_gaussian_sigma` is erm_geometry Algorithm 5 line 3 as
printed (the one place it is written), :func:`certified_gaussian_sigma` the accountant's. A
private run given ``claimed=(epsilon, delta)`` reports the claimed and the certified epsilon side
by side.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, fields
from functools import lru_cache
from operator import attrgetter
from typing import Callable

import numpy as np

from .._validate import (check_array, check_delta, check_epsilon, check_int, check_positive,
                         check_rng)
from ..claims import Algorithm, Claim
from ..errors import AssumptionViolation, ParameterError, ShapeError, warn_privacy
from ..privacy.ledger import FrozenLedger, Ledger, MechanismEvent

__all__ = [
    "FrankWolfeResult", "VertexSet", "SignedBasis", "ExplicitVertices", "as_vertex_set",
    "step_size_schedule", "FrankWolfeRun", "check_horizon_fits", "record_bytes", "certified_epsilon",
    "frank_wolfe", "noisy_argmin", "private_frank_wolfe_polytope", "private_frank_wolfe_general", "paper_laplace_scale", "certified_laplace_scale",
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

    theta        theta_T, the output (lasso Alg 1 line 5 / Alg 2 line 6)
    iterates     array (T, p): theta_1, ..., theta_T (None when ``keep_iterates=False``)
    selected     array (T-1, p): tilde_theta_1, ..., tilde_theta_{T-1} (None when ``keep_iterates=False``;
                 ``selected_index`` is always kept)
    selected_index  array (T-1,) of vertex indices (polytope variants; -1 when the LMO returned
                 a point not given by index, e.g. a general convex set)
    step_sizes   array (T-1,): mu_1, ..., mu_{T-1}
    T            the horizon (T - 1 updates are made)
    noise_scale  Laplace/Gumbel scale lambda (polytope), Gaussian sigma (general), 0 if none
    ledger       every mechanism invoked, in order (empty for the non-private algorithm)
    claimed_epsilon, claimed_delta  the guarantee the caller claims for the run (None if not given)
    certified_epsilon  what the package's accountant certifies for ``ledger`` at ``claimed_delta``
                 (None if no claim was given); above ``claimed_epsilon`` when the calibration used is
                 not certified (e.g. the paper's printed lambda, lasso-E02)
    """

    theta: np.ndarray
    iterates: np.ndarray | None
    selected: np.ndarray | None
    selected_index: np.ndarray
    step_sizes: np.ndarray
    T: int
    noise_scale: float
    ledger: FrozenLedger
    claimed_epsilon: float | None = None
    claimed_delta: float | None = None
    certified_epsilon: float | None = None

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
        theta = np.asarray(theta, dtype=float)
        # cached on the exact vertices and point: an audit or a law check starts every run from the same theta_1
        return _in_hull(self.S.shape, self.S.tobytes(), theta.shape, theta.tobytes())


@lru_cache(maxsize=256)
def _in_hull(shape: tuple, vertices: bytes, theta_shape: tuple, theta: bytes) -> bool:
    """Whether theta is a convex combination of the rows of S (a feasibility linear program)."""
    from scipy.optimize import linprog

    S = np.frombuffer(vertices, dtype=float).reshape(shape)
    point = np.frombuffer(theta, dtype=float).reshape(theta_shape)
    m = shape[0]
    res = linprog(np.zeros(m), A_eq=np.vstack([S.T, np.ones((1, m))]),
                  b_eq=np.concatenate([point, [1.0]]), bounds=[(0, None)] * m, method="highs")
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

#: Each schedule by the formula a paper prints (and the older names, kept as aliases).
STEP_FORMULAS = {"2/(t+2)": "paper", "1/(T+2)": "constant", "1/T": "1/T", "2/(t+1)": "jaggi"}


def step_size_schedule(step_size, T: int) -> np.ndarray:
    """mu_1, ..., mu_{T-1}.

    ``"2/(t+2)"`` (alias ``"paper"``, lasso's default): mu_t = 2/(t+2), lasso Theorem 2.2 and
    Algorithm 2 line 5. ``"1/(T+2)"`` (alias ``"constant"``): erm_geometry Algorithm 4 line 5 and
    Algorithm 5 line 4. ``"1/T"``: erm_geometry Theorem 5.2. ``"2/(t+1)"`` (alias ``"jaggi"``):
    Jaggi 2013's indexing, for comparison. A callable ``(t, T) -> mu`` is used as given (each mu
    must lie in [0, 1]). ``"paper"`` names lasso's printed line; erm_geometry's wrappers choose
    their own printed schedule by its formula.
    """
    T = check_int(T, "T", 1)
    t = np.arange(1, T, dtype=float)
    name = STEP_FORMULAS.get(step_size, step_size) if isinstance(step_size, str) else step_size
    if callable(name):
        mu = np.array([float(name(int(k), T)) for k in t])
    elif name == "paper":
        mu = 2.0 / (t + 2.0)
    elif name == "constant":
        mu = np.full(T - 1, 1.0 / (T + 2.0))
    elif name == "1/T":
        mu = np.full(T - 1, 1.0 / T)
    elif name == "jaggi":
        mu = 2.0 / (t + 1.0)
    else:
        raise ParameterError("step_size", f"one of {STEP_SIZES + tuple(STEP_FORMULAS)} or a callable "
                             "(t, T) -> mu", step_size)
    if mu.size and (not np.all(np.isfinite(mu)) or mu.min() < 0 or mu.max() > 1):
        raise ParameterError("step_size", "every mu_t in [0, 1] (keeps iterates in C)", mu)
    return mu


# ---------------------------------------------------------------------------
# The one loop every entry point shares


def _start(theta1, dim_hint: int | None) -> np.ndarray:
    theta = check_array(theta1, "theta1", ndim=1)
    if dim_hint is not None and theta.shape[0] != dim_hint:
        raise ShapeError("theta1", f"a vector of length {dim_hint}", f"shape {theta.shape}")
    return theta


def _checked_gradient(gradient, theta, p) -> np.ndarray:
    g = np.asarray(gradient(theta), dtype=float)
    if g.shape != (p,):
        raise ShapeError("gradient(theta)", f"a vector of length {p}", f"shape {g.shape}")
    if not np.isfinite(g).all():
        raise AssumptionViolation("the gradient is finite", "gradient(theta) returned NaN/inf")
    return g


def _physical_memory() -> int:
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, OSError, ValueError):      # pragma: no cover - not POSIX
        return 1 << 40


def _bytes(b: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if b < 1024 or unit == "PiB":
            return f"{b:.3g} {unit}"
        b /= 1024.0
    return f"{b:.3g} PiB"        # pragma: no cover


def record_bytes(T: int, p: int, keep_iterates: bool) -> int:
    """Bytes a run of horizon T in R^p records: mu_1..mu_{T-1} and the T - 1 selected indices
    (16 bytes a step), plus, with ``keep_iterates``, the (T, p) iterates and (T - 1, p) selections."""
    per_step = 16 + (16 * p if keep_iterates else 0)
    return per_step * T


def check_horizon_fits(T: int, p: int, keep_iterates: bool, *, memory: int | None = None) -> None:
    """Refuse, naming T and the memory it needs, a horizon whose records exceed the machine's
    physical memory (instead of numpy's MemoryError half-way through allocating them)."""
    need = record_bytes(T, p, keep_iterates)
    have = _physical_memory() if memory is None else int(memory)
    if need > have:
        what = ("the step sizes, the selected indices, the (T, p) iterates and the (T - 1, p) selections"
                if keep_iterates else "the step sizes and the selected indices")
        hint = "; keep_iterates=False stores no iterates" if keep_iterates else ""
        raise ParameterError(
            "T", f"a horizon whose records fit in memory: T = {T} steps at p = {p} need "
                 f"{_bytes(need)} for {what}, this machine has {_bytes(have)}{hint}", T)


class FrankWolfeRun:
    """The loop shared by every Frank-Wolfe entry point of both papers.

    It owns what every variant does the same way: the horizon (``for t = 1 to T - 1``), the
    gradient grad L(theta_t; D) handed to the step (checked for shape and finiteness), the
    step sizes mu_t, the records (iterates, selections, indices) and the objective's
    ``after_step`` hook. What differs between the variants (how tilde_theta_t is chosen and how
    theta_{t+1} is written) stays in each entry point, in its paper's words::

        run = FrankWolfeRun(gradient, theta1, T, step_size, keep_iterates)
        for t, theta, g, mu in run.steps():          # Line 2: for t = 1 to T - 1
            ...choose vertex (and its index)...       # the paper's selection line(s)
            run.advance(t, (1 - mu) * theta + mu * vertex, mu, vertex, index)
        return run.result(...)

    ``theta1`` must already be checked to lie in C by the caller (line 1). Records of a horizon
    too large for memory are refused before anything is allocated (:func:`check_horizon_fits`).
    """

    def __init__(self, gradient, theta1, T: int, step_size="paper", keep_iterates: bool = True, *,
                 dim: int | None = None):
        self.T = check_int(T, "T", 1)
        self.gradient = gradient
        self.theta = _start(theta1, dim)
        self.p = self.theta.shape[0]
        self.keep = bool(keep_iterates)
        check_horizon_fits(self.T, self.p, self.keep)
        self.mus = step_size_schedule(step_size, self.T)
        self.selected_index = np.full(self.T - 1, -1, dtype=np.int64)
        self.iterates = self.selected = None
        if self.keep:
            self.iterates = np.empty((self.T, self.p))
            self.iterates[0] = self.theta
            self.selected = np.empty((self.T - 1, self.p))

    def steps(self):
        """Yield (t, theta_t, grad L(theta_t; D), mu_t) for t = 1, ..., T - 1."""
        for t in range(1, self.T):
            yield t, self.theta, _checked_gradient(self.gradient, self.theta, self.p), self.mus[t - 1]

    def advance(self, t: int, theta_next, mu: float, vertex, index: int = -1) -> None:
        """Record step t: theta_{t+1} (computed by the caller, in its paper's form) and tilde_theta_t."""
        self.theta = theta_next
        hook = getattr(self.gradient, "after_step", None)
        if hook is not None:
            hook(theta_next, mu, vertex)
        self.selected_index[t - 1] = index
        if self.keep:
            self.selected[t - 1] = vertex
            self.iterates[t] = theta_next

    def result(self, *, noise_scale: float = 0.0, ledger: Ledger | None = None,
               claimed: tuple[float, float] | None = None,
               unproven: tuple[str, str, str] | None = None) -> "FrankWolfeResult":
        """The frozen result; with ``claimed = (epsilon, delta)`` also what the accountant
        certifies for the run's ledger at that delta (side by side with the claim).

        ``unproven = (who, erratum, alternative)``: when the accountant certifies more than the
        claimed epsilon, a :class:`~reference.errors.PrivacyWarning` says so, naming the run
        (``who``), the erratum of docs/errata.md and the certified alternative."""
        frozen = (ledger if ledger is not None else Ledger()).freeze()
        claimed_eps = claimed_delta = certified = None
        if claimed is not None:
            claimed_eps, claimed_delta = check_epsilon(claimed[0]), check_delta(claimed[1])
            certified = certified_epsilon(frozen, claimed_delta)
            if unproven is not None and certified > claimed_eps * (1 + 1e-9):
                who, erratum, alternative = unproven
                warn_privacy(f"{who}: the accountant certifies epsilon {certified:.4g} > the claimed "
                             f"{claimed_eps:g} at delta {claimed_delta:g} for this run's noise",
                             erratum, alternative, stacklevel=4)
        return FrankWolfeResult(
            theta=self.theta.copy(), iterates=self.iterates, selected=self.selected,
            selected_index=self.selected_index, step_sizes=self.mus, T=self.T,
            noise_scale=float(noise_scale), ledger=frozen, claimed_epsilon=claimed_eps,
            claimed_delta=claimed_delta, certified_epsilon=certified)


def certified_epsilon(ledger: FrozenLedger, delta: float) -> float:
    """``accounting.certify(ledger, delta).epsilon``, cached on the events (labels aside): every
    run of the same calibration records the same events, and an audit runs it 10^5 times."""
    key = tuple((type(ev), _EVENT_FIELDS(ev)) for ev in ledger.events)    # every field but the label
    return _certified_epsilon(key, float(delta))


#: the fields of a ledger event that the accountant reads (all but its label), in their order
_EVENT_FIELDS = attrgetter(*(f.name for f in fields(MechanismEvent) if f.name != "label"))


@lru_cache(maxsize=256)
def _certified_epsilon(events: tuple, delta: float) -> float:
    from ..privacy import accounting

    if not events:
        return 0.0
    return float(accounting.certify(FrozenLedger(tuple(kind(*values) for kind, values in events)), delta).epsilon)


# ---------------------------------------------------------------------------
# lasso Algorithm 1: Frank-Wolfe


def frank_wolfe(gradient, lmo, theta1, T: int, *, step_size="paper",
                keep_iterates: bool = True) -> FrankWolfeResult:
    """Frank-Wolfe (non-private): paper ``lasso``, Algorithm 1 (§2); Theorem 2.2.

    With mu_t = 2/(t+2) (``step_size="paper"``), L(theta_T) - L* = O(Gamma_L / T) (Theorem 2.2;
    the explicit form tested is (2 h_1 + 2 Gamma (T-1)) / (T (T+1))). The same algorithm is
    erm_geometry's Algorithm 3, whose wrapper lives in :mod:`reference.algorithms.erm_geometry`.

    gradient  callable theta -> grad L(theta) (may have ``after_step``, module docstring)
    lmo       linear minimisation oracle: a :class:`VertexSet` (Fact 2.3: the argmin over C is
              attained at a point of S), a set with ``.lmo(g)``, or a callable g -> argmin_C <g, v>
    theta1    the starting point theta_1 in C (public, data-independent)
    T         horizon: T - 1 updates, output theta_T; T = 1 returns theta_1
    step_size mu_t: "paper" = 2/(t+2), or another name of :func:`step_size_schedule`
    """
    oracle = _as_lmo(lmo)
    vs = lmo if isinstance(lmo, VertexSet) else None
    # Line 1: choose an arbitrary theta_1 from C (given by the caller)
    run = FrankWolfeRun(gradient, theta1, T, step_size, keep_iterates, dim=vs.dim if vs is not None else None)
    # Line 2: for t = 1 to T - 1
    for t, theta, g, mu in run.steps():
        # Line 3: tilde_theta_t = argmin_{theta in C} <grad L(theta_t), theta - theta_t>
        #         (the -theta_t term does not change the argmin; over conv(S) a vertex, Fact 2.3)
        if vs is not None:
            index = vs.argmin(g)
            vertex = vs.vertex(index)
        else:
            index = -1
            vertex = np.asarray(oracle(g), dtype=float)
        # Line 4: theta_{t+1} = theta_t + mu_t (tilde_theta_t - theta_t)
        run.advance(t, theta + mu * (vertex - theta), mu, vertex, index)
    # Line 5: return theta_T
    return run.result()


# ---------------------------------------------------------------------------
# lasso Algorithm 2: A_Noise-FW(polytope)


def noisy_argmin(scores, noise_scale: float, rng: np.random.Generator, *, noise: str = "laplace",
                 sensitivity: float, ledger: Ledger, relation: str = "replace-one", label: str = "") -> int:
    """Lines 3-4 of lasso Algorithm 2: alpha_s = <s, grad L(theta_t; D)> + Z_s for every s in S,
    Z_s i.i.d. Lap(lambda); return argmin_s alpha_s (its index in S's order).

    ``scores`` holds <s, grad L(theta_t; D)>; ``noise_scale`` is lambda. The draw is the
    package's tested sampler :func:`reference.privacy.mechanisms.report_noisy_min`, which also
    records the selection in the ledger (sensitivity ``sensitivity``, the general
    2 Delta / lambda bound). It draws Z'_s i.i.d. Lap(lambda) and returns
    argmax_s(-<s, g> + Z'_s) = argmin_s(<s, g> + Z_s) with Z_s = -Z'_s: the Laplace law is
    symmetric, so Z has exactly line 3's law, and with the same stream this function returns
    argmin(scores - Z') (tests/algorithms/test_frank_wolfe_private.py replays it).
    ``noise="gumbel"``: alpha_s = <s, g> - G_s with G_s i.i.d. Gumbel(lambda), which makes the
    argmin exactly the exponential mechanism P(s) ∝ exp(-<s, g> / lambda) of §2.1's text.
    """
    from ..privacy import mechanisms

    return int(mechanisms.report_noisy_min(scores, sensitivity, noise_scale, rng, noise=noise, ledger=ledger,
                                           relation=relation, label=label))


def private_frank_wolfe_polytope(gradient, vertices, theta1, T: int, *, noise_scale: float,
                                 score_sensitivity: float, rng: np.random.Generator,
                                 selection: str = "laplace", step_size="paper",
                                 relation: str = "replace-one", keep_iterates: bool = True,
                                 label: str = "noise-fw", claimed=None) -> FrankWolfeResult:
    """A_Noise-FW(polytope), differentially private Frank-Wolfe over C = conv(S): paper ``lasso``,
    Algorithm 2 (§2.1); privacy Theorem 2.4, utility Theorem 2.5, LASSO Corollary 2.7.

    gradient          callable theta -> grad L(theta; D) (may have ``after_step``)
    vertices          S: a :class:`VertexSet`, an (m, p) array, or a polytope with .vertices()
    theta1            public starting point in C
    T                 horizon; T - 1 noisy selections
    noise_scale       lambda of line 3; :func:`paper_laplace_scale` is line 3 as printed,
                      :func:`certified_laplace_scale` the accountant's smallest scale
    score_sensitivity the largest change of one score <s, grad L(theta; D)> between neighbouring
                      data sets (recorded in the ledger; for LASSO 2 L_1 ||C||_1 / n, replace-one)
    selection         ``"laplace"``: lines 3-4 as printed (argmin of alpha_s = <s, g> + Lap(lambda));
                      ``"gumbel"``: the same with Gumbel noise, exactly the exponential mechanism
                      P(s) ∝ exp(-<s, g>/lambda) that §2.1's text names; ``"exponential"``: that
                      mechanism sampled directly (same law as "gumbel", other use of the stream)
    step_size         mu_t of line 5: "paper" = 2/(t+2)
    claimed           optional (epsilon, delta): the result then carries the claimed epsilon and the
                      one the accountant certifies for the ledger, side by side; a PrivacyWarning
                      (lasso-E02) when the accountant certifies more than the claim

    erm_geometry's Algorithm 4 is the same algorithm (its wrapper lives in erm_geometry.py).
    """
    from ..privacy import mechanisms

    S = as_vertex_set(vertices)
    lam = check_positive(noise_scale, "noise_scale")
    sens = check_positive(score_sensitivity, "score_sensitivity")
    rng = check_rng(rng)
    if selection not in SELECTIONS:
        raise ParameterError("selection", f"one of {SELECTIONS}", selection)
    ledger = Ledger()
    # Line 1: choose an arbitrary theta_1 from C (public, given by the caller)
    run = FrankWolfeRun(gradient, theta1, T, step_size, keep_iterates, dim=S.dim)
    if not S.contains(run.theta):
        raise AssumptionViolation("theta_1 lies in C = conv(S) (Algorithm 2 line 1)",
                                  "the recorded score sensitivity holds only for iterates in C")
    # Line 2: for t = 1 to T - 1
    for t, theta, g, mu in run.steps():
        # Line 3: for all s in S, alpha_s <- <s, grad L(theta_t; D)> + Lap(lambda)
        scores = S.scores(g)                       # <s, grad L(theta_t; D)>, s in S (in S's order)
        # Line 4: tilde_theta_t <- argmin_{s in S} alpha_s
        if selection == "exponential":
            # P(s) ∝ exp(-<s,g>/lambda) = exp(eps_s * (-<s,g>) / (2 * sens)) with eps_s = 2 sens / lambda
            index = int(mechanisms.exponential_mechanism(
                -scores, sens, 2.0 * sens / lam, rng, ledger=ledger, relation=relation,
                label=f"{label} step {t}"))
        else:
            index = noisy_argmin(scores, lam, rng, noise=selection, sensitivity=sens, ledger=ledger,
                                 relation=relation, label=f"{label} step {t}")
        vertex = S.vertex(index)
        # Line 5: theta_{t+1} <- (1 - mu_t) theta_t + mu_t tilde_theta_t,  mu_t = 2/(t+2)
        run.advance(t, (1.0 - mu) * theta + mu * vertex, mu, vertex, index)
    # Line 6: output theta_priv = theta_T
    return run.result(noise_scale=lam, ledger=ledger, claimed=claimed,
                      unproven=("frank_wolfe.private_frank_wolfe_polytope (lasso Algorithm 2)", "lasso-E02",
                                "noise_scale=certified_laplace_scale(...)"))


# ---------------------------------------------------------------------------
# lasso Theorem 2.6: A_Noise-FW for a general convex C (the paper's pseudocode is erm_geometry's Algorithm 5)


def private_frank_wolfe_general(gradient, lmo, theta1, T: int, *, sigma: float,
                                l2_sensitivity: float, rng: np.random.Generator,
                                step_size="paper", relation: str = "replace-one",
                                keep_iterates: bool = True, label: str = "noise-fw-gen",
                                claimed=None) -> FrankWolfeResult:
    """A_Noise-FW, private Frank-Wolfe for a general convex C: paper ``lasso``, Theorem 2.6 (§2.1,
    "General C"). The lasso paper prints no pseudocode for it ("in the full version"); the full
    version is erm_geometry, Appendix B, Algorithm 5, whose lines the comments below number.

    Line 3 perturbs the linear objective: tilde_theta_t = argmin_C <grad L(theta_t; D) + b_t, theta>,
    b_t ~ N(0, sigma^2 I_p), then calls the exact LMO of C; the ledger records one Gaussian event of
    l2 sensitivity ``l2_sensitivity`` (2 L_2 / n under replace-one) per step. ``sigma``: Algorithm 5
    line 3 as printed is :func:`paper_gaussian_sigma` (the one place it is written);
    :func:`certified_gaussian_sigma` is the accountant's. ``step_size``: lasso's 2/(t+2) by default;
    Algorithm 5 line 4 prints mu = 1/(T+2) (``"1/(T+2)"``; lasso-E01). ``claimed``: as in
    :func:`private_frank_wolfe_polytope` (the warning names lasso-E08: the printed sigma is not
    scale-correct in L_2).
    """
    from ..privacy import mechanisms

    oracle = _as_lmo(lmo)
    sigma = check_positive(sigma, "sigma")
    sens = check_positive(l2_sensitivity, "l2_sensitivity")
    rng = check_rng(rng)
    ledger = Ledger()
    # Line 1: choose an arbitrary theta_1 from C
    run = FrankWolfeRun(gradient, theta1, T, step_size, keep_iterates)
    # Line 2: for t = 1 to T - 1
    for t, theta, g, mu in run.steps():
        # Line 3: tilde_theta_t = argmin_{theta in C} <grad L(theta_t; D) + b_t, theta>, b_t ~ N(0, sigma^2 I_p)
        noisy = mechanisms.gaussian_mechanism(g, sens, sigma, rng, ledger=ledger,
                                              relation=relation, label=f"{label} step {t}")
        vertex = np.asarray(oracle(np.asarray(noisy, dtype=float)), dtype=float)
        # Line 4: theta_{t+1} <- (1 - mu) theta_t + mu tilde_theta_t
        run.advance(t, (1.0 - mu) * theta + mu * vertex, mu, vertex)
    # Line 5: output theta_priv = theta_T
    return run.result(noise_scale=sigma, ledger=ledger, claimed=claimed,
                      unproven=("frank_wolfe.private_frank_wolfe_general (lasso Theorem 2.6)", "lasso-E08",
                                "sigma=certified_gaussian_sigma(...)"))


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
    """erm_geometry Algorithm 5 line 3 (the variant of lasso Theorem 2.6), the one place it is written:
    sigma^2 = 32 L_2 T ln^2(n/delta) / (n eps)^2, as printed (natural log).

    The log: line 3 prints log^2(n/delta); the proof of Theorem B.2 "recalls" log^2(T/delta). This
    package has one resolution, line 3's ln^2(n/delta) (docs/errata.md lasso-E08); erm_geometry's
    wrapper reads sigma from here. ``square_lipschitz=True``: L_2^2 in place of the printed L_2
    (the printed formula is not invariant under scaling the loss, lasso-E08), the form the claim
    ``lasso:Theorem 2.6 privacy`` certifies.
    """
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
