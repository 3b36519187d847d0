"""Talwar, Thakurta, Zhang: Private ERM beyond the worst case (paper key ``erm_geometry``).

Seed: ../shared/seeds/000_b4c55cd604fd3d80.txt (arXiv 1411.5417, long version).
Neighbouring relation: replace-one (Definition 2.1, "differ in one record").

What lives here, each function following the paper's numbered lines:

- :func:`noisy_mirror_descent` -- Algorithm 1 (A_Noise-MD), Section 3.1; Theorems 3.1, 3.2,
  the instantiations of Section 3.2 (equations (13)-(16)) and Theorem A.1 (Appendix A).
  The potentials of Section 3.2 are the classes :class:`EuclideanPotential`,
  :class:`EntropyPotential`, :class:`LqPotential` (Fact 3.4 / Claim 3.5, for the l1 ball),
  :class:`GroupPotential` (grouped l1/l2 ball) and :class:`NuclearPotential` (matrices).
  Each potential pairs a mirror map of :mod:`reference.geometry.mirror` (EuclideanMap,
  NegativeEntropyMap, PNormMap, GroupNormMap, SchattenMap: psi, Bregman divergence, the exact
  mirror step of line 4, argmin and range over C) with the constraint set C of
  :mod:`reference.geometry.sets` it is used on and the body Q of the paper's analysis; only
  the paper's exponents and printed constants are chosen here. Gaussian widths come from
  :mod:`reference.geometry.width`.
- :func:`noisy_mirror_descent_nonprivate` -- the noisy, non-private variant of Section 3.3
  (Corollary 3.6): the same loop with mean-zero Gaussian noise of a given covariance.
- :func:`objective_perturbation` -- Algorithm 2, Section 4, Theorem 4.1 (both cases), solved
  with scipy to a stated optimality tolerance (a Frank-Wolfe duality gap, which bounds the
  suboptimality of a convex objective) that is part of the result.
- Frank-Wolfe (Algorithms 3, 4, 5) lives in :mod:`reference.algorithms.frank_wolfe` (one
  implementation shared with the ``lasso`` paper); :func:`private_frank_wolfe_polytope` and
  :func:`private_frank_wolfe_general` are this paper's thin wrappers (paper constants).
- :func:`lower_bound_datasets` -- the construction of Section 5.3 (Theorem 5.8, Lemma 5.10),
  checkable on small sizes with exact arithmetic.

Every departure from the printed text is a named parameter or an entry of
docs/errata.md, section ``erm_geometry`` (entries erm_geometry-E01 ...).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

import numpy as np
from scipy import optimize

from .._validate import (check_array, check_delta, check_epsilon, check_int, check_nonnegative,
                         check_positive, check_rng)
from ..claims import Algorithm, Claim
from ..errors import AssumptionViolation, ParameterError, ShapeError, warn_privacy
from ..geometry.mirror import (EuclideanMap, GroupNormMap, MirrorMap, NegativeEntropyMap, PNormMap,
                              SchattenMap)
from ..geometry.sets import ConstraintSet, GroupL1L2Ball, L1Ball, L2Ball, LinfBall, NuclearBall, Simplex
from ..geometry.width import width_group_ball, width_l1_ball, width_l2_ball
from ..privacy.ledger import FrozenLedger, Ledger, MechanismEvent

PAPER = "erm_geometry"

# ---------------------------------------------------------------------------
# Constraint sets: the sets of reference.geometry.sets (one implementation of membership,
# LMO, projection and radius for every paper). This paper uses the l2, l1 and l_inf balls,
# the probability simplex, the grouped l1/l2 ball and the nuclear-norm ball.

SETS = (L2Ball, L1Ball, LinfBall, Simplex, GroupL1L2Ball, NuclearBall)


def as_constraint_set(constraint_set: Any) -> ConstraintSet:
    """``constraint_set`` itself, checked to be one of the reference.geometry sets this paper uses."""
    if not isinstance(constraint_set, SETS):
        raise ParameterError("constraint_set", "an L2Ball / L1Ball / LinfBall / Simplex / GroupL1L2Ball / "
                             "NuclearBall of reference.geometry.sets", type(constraint_set).__name__)
    return constraint_set


def _require_set(constraint_set: Any, kinds: tuple, what: str) -> ConstraintSet:
    C = as_constraint_set(constraint_set)
    if not isinstance(C, kinds):
        raise ParameterError("ball", what, repr(C))
    return C


def same_set(a: ConstraintSet, b: ConstraintSet) -> bool:
    """True when a and b are the same set (same class, shape, radius and blocks)."""
    return (type(a) is type(b) and a.shape == b.shape and getattr(a, "r", None) == getattr(b, "r", None)
            and getattr(a, "sizes", None) == getattr(b, "sizes", None))


# ---------------------------------------------------------------------------
# Potentials of Section 3.2. A potential is a mirror map of reference.geometry.mirror (psi, its
# gradient, Bregman divergence, exact mirror step, argmin and range over C) paired with the set C
# it is used on and the body Q the paper's analysis measures it against (||.||_Q, ||.||_{Q*},
# r_Q = max_Q ||.||_2, G_Q = Gaussian width of Q). Line 4 of Algorithm 1 is the map's mirror step:
#     argmin_{theta in C}  eta <g, theta> + B_Psi(theta, theta_t).
# What is specific to this paper stays here: the exponent of Claim 3.5 and the printed constants
# of Fact 3.4 and of the nuclear-norm potential, as named options.

class Potential:
    """A mirror-descent potential Psi on C (Section 2.2 / 3.2): ``map`` (a reference.geometry MirrorMap)
    on the set ``ball`` (a reference.geometry set), 1-strongly convex w.r.t. ||.||_Q."""

    name = "potential"

    def __init__(self, mirror_map: MirrorMap, ball: ConstraintSet, q_radius: float, q_width: float):
        self.map = mirror_map
        self.ball = ball
        self._r_Q = float(q_radius)
        self._G_Q = float(q_width)

    @property
    def q_radius(self) -> float:
        """r_Q = ||Q||_2 = max_{u in Q} ||u||_2 (the paper's ||Q||_2 in Theorem 3.2, (12))."""
        return self._r_Q

    @property
    def q_width(self) -> float:
        """G_Q = E_b[max_{u in Q} <b, u>], the Gaussian width of Q (Section 2.2; Theorem 3.2)."""
        return self._G_Q

    r_Q = q_radius
    G_Q = q_width

    def psi(self, theta) -> float:
        return self.map.psi(theta)

    def grad(self, theta) -> np.ndarray:
        return self.map.grad(theta)

    def bregman(self, x, y) -> float:
        """B_Psi(x, y) = Psi(x) - Psi(y) - <grad Psi(y), x - y>."""
        return self.map.bregman(x, y)

    def minimizer(self) -> np.ndarray:
        """theta-dagger = argmin over C of Psi (the start point the proof needs, erm_geometry-E02)."""
        return self.map.minimiser(self.ball)

    def mirror_step(self, theta, g, eta: float) -> np.ndarray:
        """argmin_{theta' in C} eta <g, theta'> + B_Psi(theta', theta) (line 4, resolved form)."""
        return self.map.mirror_step(theta, g, eta, self.ball)

    @property
    def range(self) -> float:
        """R_Psi = max_C Psi - min_C Psi, the paper's "max Psi" of Theorem 3.2 (erm_geometry-E03)."""
        return self.map.psi_range(self.ball)

    R_Psi = range

    def q_norm(self, v) -> float:
        """||v||_Q, the norm Psi is 1-strongly convex in."""
        raise NotImplementedError

    def q_dual_norm(self, g) -> float:
        """||g||_{Q*} = max_{u in Q} <g, u>."""
        raise NotImplementedError


class EuclideanPotential(Potential):
    """Psi(theta) = 1/2 ||theta - theta0||_2^2 on an l2, l1 or linf ball or the simplex; Q = unit l2 ball.

    Section 3.2, "arbitrary convex set", equation (13): :class:`reference.geometry.mirror.EuclideanMap`
    centred at theta0; the mirror step is the Euclidean projection of theta_t - eta g onto C.
    """

    name = "euclidean"

    def __init__(self, ball: ConstraintSet, theta0: np.ndarray | None = None):
        ball = _require_set(ball, (L2Ball, L1Ball, LinfBall, Simplex),
                            "an l2, l1 or linf ball or the simplex for the Euclidean potential")
        if theta0 is None:
            theta0 = np.full(ball.dim, 1.0 / ball.dim) if isinstance(ball, Simplex) else np.zeros(ball.dim)
        theta0 = check_array(theta0, "theta0", ndim=1, shape=(ball.dim,))
        if not ball.contains(theta0):
            raise AssumptionViolation("theta0 lies in C (Section 3.2: 'some fixed theta0 in C')")
        self.theta0 = theta0
        super().__init__(EuclideanMap(center=theta0), ball, 1.0, width_l2_ball(ball.dim))

    def q_norm(self, v):
        return float(np.linalg.norm(v))

    def q_dual_norm(self, g):
        return float(np.linalg.norm(g))


class EntropyPotential(Potential):
    """Psi(theta) = sum_i theta_i log theta_i on the probability simplex; Q = unit l1 ball.

    Section 3.2 (simplex remark after (14)), Remark 3, Appendix A example (ii):
    :class:`reference.geometry.mirror.NegativeEntropyMap`, 1-strongly convex w.r.t. ||.||_1 on the
    simplex (Pinsker). The mirror step is exponentiated gradient.
    """

    name = "entropy"

    def __init__(self, ball: ConstraintSet):
        ball = _require_set(ball, (Simplex,), "the probability simplex for the entropy potential")
        super().__init__(NegativeEntropyMap(), ball, 1.0, width_l1_ball(ball.dim)[0])

    def q_norm(self, v):
        return float(np.sum(np.abs(v)))

    def q_dual_norm(self, g):
        return float(np.max(np.abs(g)))


def lq_exponent(k: int) -> float:
    """q of Claim 3.5: ln k/(ln k - 1) when that lies in (1, 2] (k >= 8), else 2 (erm_geometry-E08);
    the exponent of reference.geometry's ``PNormMap.paper_fact_3_4(k)``."""
    return PNormMap.paper_fact_3_4(k).p


class LqPotential(Potential):
    """Psi(theta) = c ||theta||_q^2 on the l1 ball of radius r (a polytope with k = 2p vertices).

    Fact 3.4 / Claim 3.5 / equation (14): :class:`reference.geometry.mirror.PNormMap` (exponent q,
    scale c). The l1 ball of radius r is conv(S), S = {+-r e_j} (k = 2p vertices); the quotient norm
    of Fact 3.4, ||theta||_{Q,q} = min{||lambda||_q : theta = sum_s lambda_s s}, is
    2^(1/q - 1) ||theta||_q / r (each +- pair splits the weight; core-G02), and ||.||_Q = ||.||_1 / r.
    ``constant``:

    - ``"resolved"`` (default): c = k^(2(1-1/q)) / (2 (q-1) r^2) (= e^2/(2(q-1) r^2) for the q of
      Claim 3.5), 1-strongly convex w.r.t. ||.||_Q, as Theorem 3.2 needs (erm_geometry-E08);
    - ``"paper"``: Psi = ||theta||_{Q,q}^2 / (4 (q-1)) as printed in Fact 3.4, i.e.
      c = 2^(2/q - 2) / (4 (q-1) r^2) (only 1/2-strongly convex w.r.t. ||.||_{Q,q}; the analysis of
      Theorem 3.2 does not cover it).

    The mirror step is PNormMap's: the dual map of the soft-thresholded dual point, the multiplier
    of the l1 constraint by a monotone root find, certified by its first-order residual.
    """

    name = "lq"

    def __init__(self, ball: ConstraintSet, q: float | None = None, constant: str = "resolved"):
        ball = _require_set(ball, (L1Ball,), "an l1 ball for the l_q potential of Fact 3.4")
        self.k = 2 * ball.dim
        self.q = lq_exponent(self.k) if q is None else float(q)
        if not 1.0 < self.q <= 2.0:
            raise ParameterError("q", "1 < q <= 2 (Fact 3.4)", self.q)
        r = ball.r
        if constant == "resolved":
            self.c = self.k ** (2.0 * (1.0 - 1.0 / self.q)) / (2.0 * (self.q - 1.0) * r * r)
        elif constant == "paper":   # ||theta||_{Q,q}^2/(4(q-1)) with ||.||_{Q,q} = 2^(1/q-1) ||.||_q / r
            self.c = 2.0 ** (2.0 / self.q - 2.0) / (4.0 * (self.q - 1.0) * r * r)
        else:
            raise ParameterError("constant", "'resolved' or 'paper'", constant)
        self.constant = constant
        super().__init__(PNormMap(self.q, scale=self.c), ball, r, r * width_l1_ball(ball.dim)[0])

    def q_norm(self, v):
        return float(np.sum(np.abs(v))) / self.ball.r

    def quotient_norm(self, v) -> float:
        """||v||_{Q,q} of Fact 3.4 on the l1 ball: 2^(1/q - 1) ||v||_q / r."""
        return 2.0 ** (1.0 / self.q - 1.0) * float(np.linalg.norm(np.ravel(v), ord=self.q)) / self.ball.r

    def q_dual_norm(self, g):
        return self.ball.r * float(np.max(np.abs(g)))


class GroupPotential(Potential):
    """Psi(theta) = 1/(kappa xi) sum_j ||theta^(j)/r||_2^kappa on the grouped l1/l2 ball (Section 3.2, (15)).

    :class:`reference.geometry.mirror.GroupNormMap` with its constants as resolved here
    (erm_geometry-E09): m_b blocks; kappa = 2 if m_b <= 2 else 1 + 1/ln m_b; xi = 1, 1/2,
    1/(e ln m_b) for m_b = 1, 2, >= 3 (the paper writes M for both the number of blocks and the
    exponent, and log(p/k)). Q = C / r scaled: ||.||_Q = grouped norm / r.
    """

    name = "group"

    def __init__(self, ball: ConstraintSet):
        ball = _require_set(ball, (GroupL1L2Ball,), "a grouped l1/l2 ball for the group potential")
        mirror_map = GroupNormMap(ball)
        self.kappa, self.xi = mirror_map.kappa, mirror_map.xi
        super().__init__(mirror_map, ball, ball.r, ball.r * width_group_ball(ball.sizes)[0])

    def q_norm(self, v):
        return self.ball.group_norm(v) / self.ball.r

    def q_dual_norm(self, g):
        g = np.asarray(g)
        return self.ball.r * float(max(np.linalg.norm(g[a:b]) for a, b in zip(self.ball.bounds[:-1],
                                                                               self.ball.bounds[1:])))


class NuclearPotential(Potential):
    """Psi(Theta) = c sum_i sigma_i(Theta/r)^(1+q), q = 1/(2 ln(2m)), on the nuclear ball (Section 3.2, (16)).

    :class:`reference.geometry.mirror.SchattenMap`; m = min(d1, d2). ``constant``: ``"resolved"``
    c = 4 sqrt(e) ln(2m) / (2^q (1+q)) (Ben-Tal and Nemirovski's constant; erm_geometry-E10) or
    ``"paper"`` c = 4 sqrt(e ln(2m)) / (2^q (1+q)) as printed.
    """

    name = "nuclear"

    def __init__(self, ball: ConstraintSet, constant: str = "resolved"):
        ball = _require_set(ball, (NuclearBall,), "a nuclear-norm ball for the spectral potential")
        m = min(ball.shape)
        q = 1.0 / (2.0 * math.log(2 * m))
        if constant == "resolved":
            mirror_map = SchattenMap(ball)
        elif constant == "paper":
            mirror_map = SchattenMap(ball, constant=4.0 * math.sqrt(math.e * math.log(2 * m)) / (2 ** q * (1 + q)))
        else:
            raise ParameterError("constant", "'resolved' or 'paper'", constant)
        self.m, self.q, self.c, self.constant = m, mirror_map.q, mirror_map.c, constant
        d1, d2 = ball.shape
        # G_Q: the upper bound sqrt(d1) + sqrt(d2) on E||G||_op (Gordon); the paper cites O(sqrt m)
        super().__init__(mirror_map, ball, ball.r, ball.r * (math.sqrt(d1) + math.sqrt(d2)))

    def q_norm(self, v):
        return float(np.sum(np.linalg.svd(np.asarray(v, dtype=float), compute_uv=False))) / self.ball.r

    def q_dual_norm(self, g):
        return self.ball.r * float(np.linalg.norm(np.asarray(g, dtype=float), ord=2))


# ---------------------------------------------------------------------------
# Data, losses, gradients and the Gaussian step.

def _check_data(X, y) -> tuple[np.ndarray, np.ndarray]:
    X = check_array(X, "X")
    if X.ndim < 2:
        raise ShapeError("X", "an array with one record per row (n, p) or (n, d1, d2)", f"shape {X.shape}")
    y = check_array(y, "y", ndim=1, shape=(X.shape[0],))
    return X, y


def check_loss_is_declared_lipschitz(loss: Any, theta: np.ndarray, X: np.ndarray, y: np.ndarray,
                                     lipschitz: float, *, norm: str = "l2", where: str = "") -> np.ndarray:
    """Per-record gradients at theta, each checked against the declared Lipschitz constant.

    The privacy proofs need ||grad l(theta; d)||_* <= L for the gradient actually used
    (erm_geometry-E22); this is where that is checked, on every step. Returns the (n, ...) array.
    """
    batch = getattr(loss, "gradients", None)  # optional vectorised form: all per-record gradients at once
    try:
        if batch is not None:
            grads = np.asarray(batch(theta, X, y), dtype=float)
        else:
            grads = np.array([np.asarray(loss.gradient(theta, X[i], y[i]), dtype=float)
                              for i in range(X.shape[0])])
    except ValueError as exc:   # e.g. numpy's matmul error when the records do not fit theta
        raise ShapeError("X", f"records the loss can pair with theta of shape {theta.shape}",
                         f"records of shape {X.shape[1:]}: {exc}") from exc
    if grads.shape[1:] != theta.shape:
        raise ShapeError("loss.gradient", f"a gradient of theta's shape {theta.shape}",
                         f"shape {grads.shape[1:]} (records of shape {X.shape[1:]})")
    if not np.all(np.isfinite(grads)):
        raise AssumptionViolation("the loss has finite gradients on C", where)
    flat = grads.reshape(grads.shape[0], -1)
    norms = np.max(np.abs(flat), axis=1) if norm == "linf" else np.linalg.norm(flat, axis=1)
    worst = int(np.argmax(norms))
    if norms[worst] > lipschitz * (1 + 1e-9):
        raise AssumptionViolation(
            f"every per-record gradient has {norm}-norm <= the declared Lipschitz constant {lipschitz:g}",
            f"record {worst} has {norms[worst]:.6g}{' ' + where if where else ''}; the sensitivity bound "
            "of the privacy proof needs it, nothing is clipped")
    return grads


def _empirical_loss(loss: Any, theta: np.ndarray, X: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean([loss.value(theta, X[i], y[i]) for i in range(X.shape[0])]))


def empirical_loss(loss: Any, theta, X, y) -> float:
    """L(theta; D) = (1/n) sum_i l(theta; d_i)."""
    X, y = _check_data(X, y)
    return _empirical_loss(loss, np.asarray(theta, dtype=float), X, y)


def _gaussian_step(value: np.ndarray, sensitivity: float, sigma: float, rng: np.random.Generator,
                   ledger: Ledger, label: str) -> np.ndarray:
    """value + N(0, sigma^2 I) by the package's Gaussian mechanism, which records one `gaussian` event."""
    from ..privacy.mechanisms import gaussian_mechanism

    return np.asarray(gaussian_mechanism(value, sensitivity, sigma, rng, ledger=ledger,
                                         relation="replace-one", label=label), dtype=float)


def _certified_epsilon(ledger: FrozenLedger, delta: float) -> float:
    """What the accountant certifies for a run's ledger at delta (cached on the events, as the
    Frank-Wolfe results do: an audit runs the same calibration 10^5 times)."""
    from .frank_wolfe import certified_epsilon

    return certified_epsilon(ledger, delta)


def _check_horizon(T: int, shape: tuple, what: str) -> None:
    """Refuse, naming T and the memory it needs, a horizon whose iterates and noise vectors
    (2T + 1 arrays of ``shape``) exceed the machine's memory, before anything is allocated."""
    from .frank_wolfe import _bytes, _physical_memory

    need = (2 * T + 1) * int(np.prod(shape)) * 8
    have = _physical_memory()
    if need > have:
        raise ParameterError("T", f"a horizon whose records fit in memory: T = {T} iterations of {what} at "
                                  f"dimension {shape} need {_bytes(need)} for the T + 1 iterates and T noise "
                                  f"vectors, this machine has {_bytes(have)}", T)


def certify_epsilon(ledger: FrozenLedger | Ledger, delta: float) -> float:
    """epsilon the package's accountant certifies for a ledger at delta (rounded up)."""
    from ..privacy.accounting import certify

    frozen = ledger.freeze() if isinstance(ledger, Ledger) else ledger
    return float(certify(frozen, delta).epsilon)


def _certified_epsilon_of_gaussians(sensitivity: float, sigma: float, steps: int, delta: float) -> float:
    ledger = Ledger([MechanismEvent("gaussian", sensitivity, "l2", "replace-one", noise_scale=sigma,
                                    label="calibration probe")] * steps)
    return certify_epsilon(ledger, delta)


def certified_gaussian_sigma(epsilon: float, delta: float, sensitivity: float, steps: int,
                             rel_tol: float = 1e-6) -> float:
    """Smallest sigma (to ``rel_tol`` relative) such that the accountant certifies ``steps`` Gaussian
    steps of the given l2 sensitivity within (epsilon, delta).

    Decided by the accountant itself (``certify`` of the very ledger the run records), so it is
    exactly as tight as the accountant: the returned sigma certifies, sigma (1 - rel_tol) does not.
    The search is the accountant's (:func:`reference.privacy.accounting.certified_gaussian_sigma`).
    """
    from ..privacy.accounting import certified_gaussian_sigma as calibrate

    return calibrate(sensitivity, steps, epsilon, delta, rel_tol=rel_tol)


def _step_sizes(eta: Any, T: int) -> np.ndarray:
    """eta as the paper's eta: [T+1] -> R; entry t is eta_t (entry 0 unused)."""
    out = np.full(T + 2, np.nan)
    if callable(eta):
        for t in range(1, T + 2):
            out[t] = float(eta(t))
    elif np.ndim(eta) == 0:
        out[1:] = check_positive(eta, "eta")
    else:
        seq = check_array(eta, "eta", ndim=1)
        if len(seq) != T + 1:
            raise ShapeError("eta", f"T + 1 = {T + 1} step sizes eta_1..eta_(T+1)", f"length {len(seq)}")
        out[1:] = seq
    if not np.all(out[1:] > 0) or not np.all(np.isfinite(out[1:])):
        raise ParameterError("eta", "positive finite step sizes", "non-positive or non-finite entries")
    return out


def _check_potential_matches(potential: Potential, constraint_set: Any) -> None:
    if not isinstance(potential, Potential):
        raise ParameterError("potential", "a Potential of this module (EuclideanPotential, LqPotential, ...)",
                             type(potential).__name__)
    if constraint_set is None:
        return
    ball = as_constraint_set(constraint_set)
    if not same_set(ball, potential.ball):
        raise AssumptionViolation(
            "the potential Psi is defined on the constraint set C of Algorithm 1",
            f"{potential.name} potential is defined on {potential.ball}, but C = {ball}")


# ---------------------------------------------------------------------------
# Algorithm 1: A_Noise-MD.

@dataclass(frozen=True)
class MirrorDescentResult:
    """Output of Algorithm 1 and its evidence.

    ``theta`` is theta_priv (line 5); ``iterates`` holds theta_1..theta_(T+1) (the last one is
    computed by the final step but not used by line 5); ``noise`` holds b_1..b_T; ``etas`` the
    step sizes eta_2..eta_(T+1) actually used. ``epsilon`` (also ``claimed_epsilon``) is the
    claimed epsilon at ``delta``; ``certified_epsilon`` what the package's accountant certifies for
    the ledger at ``delta`` (side by side: the printed sigma is not always certified,
    erm_geometry-E26). The non-private variant claims nothing: both are inf.
    """

    theta: np.ndarray
    iterates: np.ndarray
    noise: np.ndarray
    sigma: float
    T: int
    etas: np.ndarray
    calibration: str
    epsilon: float
    delta: float
    sensitivity: float
    ledger: FrozenLedger
    certified_epsilon: float = math.inf

    @property
    def claimed_epsilon(self) -> float:
        return self.epsilon


CALIBRATIONS = ("paper", "certified")


def paper_sigma_algorithm1(epsilon: float, delta: float, lipschitz: float, n: int, T: int) -> float:
    """Algorithm 1 line 1: sigma = sqrt(32 L^2 T log^2(T/delta)) / (eps n), natural log."""
    return math.sqrt(32.0 * lipschitz ** 2 * T * math.log(T / delta) ** 2) / (epsilon * n)


def noisy_mirror_descent(X, y, loss, potential: Potential, *, epsilon: float, delta: float,
                         lipschitz: float, T: int, eta, rng: np.random.Generator,
                         calibration: str = "paper", theta1=None, constraint_set=None,
                         sigma: float | None = None) -> MirrorDescentResult:
    """Algorithm 1 (A_Noise-MD) of ``erm_geometry``: differentially private mirror descent, Section 3.1.

    Claims: Theorem 3.1 (privacy), Theorem 3.2 (utility), equations (13)-(16) (Section 3.2
    instantiations, through the choice of ``potential``), Theorem A.1 (strongly convex
    parameterisation: pass ``eta=strongly_convex_step_sizes(Delta)``).

    Inputs (line 0): data X (n records) and labels y; ``loss`` with per-record ``value`` and
    ``gradient`` and declared l2-Lipschitz constant ``lipschitz`` (checked on every gradient
    used); (epsilon, delta); the set C and potential Psi (``potential`` carries its set; pass
    ``constraint_set`` to have the match checked); ``eta`` a constant, a function t -> eta_t, or
    the T+1 values eta_1..eta_(T+1); ``T`` >= 1.

    ``calibration="paper"`` uses line 1 as printed; ``"certified"`` the smallest sigma whose T
    Gaussian steps (replace-one sensitivity 2L/n) the accountant certifies within (epsilon, delta).
    ``sigma`` overrides both (``calibration`` is then reported as ``"explicit"``; the guarantee is
    only what the accountant certifies for the returned ledger).
    Resolved lines (docs/errata.md): line 4 as in the proof (erm_geometry-E01), theta_1 =
    argmin_C Psi by default (erm_geometry-E02).
    """
    X, y = _check_data(X, y)
    n = X.shape[0]
    epsilon, delta = check_epsilon(epsilon), check_delta(delta)
    L = check_positive(lipschitz, "lipschitz")
    T = check_int(T, "T", 1)
    rng = check_rng(rng)
    _check_potential_matches(potential, constraint_set)
    _check_horizon(T, potential.ball.shape, "Algorithm 1")
    etas = _step_sizes(eta, T)
    sensitivity = 2.0 * L / n  # replace-one: both the removed and the added record move the mean

    # Line 1: set the noise variance sigma^2 <- 32 L^2 T log^2(T/delta) / (eps n)^2
    if sigma is not None:
        sigma, calibration = check_positive(sigma, "sigma"), "explicit"
    elif calibration == "paper":
        sigma = paper_sigma_algorithm1(epsilon, delta, L, n, T)
    elif calibration == "certified":
        sigma = certified_gaussian_sigma(epsilon, delta, sensitivity, T)
    else:
        raise ParameterError("calibration", f"one of {CALIBRATIONS}", calibration)

    # Line 2: let theta_1 be a point of C (resolved: argmin_C Psi, which the utility proof needs)
    if theta1 is None:
        theta = potential.minimizer()
    else:
        theta = check_array(theta1, "theta1", shape=potential.ball.shape)
        if not potential.ball.contains(theta):
            raise AssumptionViolation("theta_1 is a point of C (Algorithm 1 line 2)")
    ledger = Ledger()
    iterates, noise = [theta], []

    # Line 3: for t = 1 to T
    for t in range(1, T + 1):
        # Line 4: theta_(t+1) = argmin_C <eta_(t+1) (grad L(theta_t; D) + b_t) - grad Psi(theta_t), theta> + Psi(theta)
        grads = check_loss_is_declared_lipschitz(loss, theta, X, y, L, where=f"at iteration t={t}")
        gradient = grads.mean(axis=0)
        noisy_gradient = _gaussian_step(gradient, sensitivity, sigma, rng, ledger,
                                        label=f"erm_geometry Algorithm 1 line 4, t={t}")
        noise.append(noisy_gradient - gradient)
        theta = potential.mirror_step(theta, noisy_gradient, etas[t + 1])
        iterates.append(theta)

    # Line 5: output theta_priv <- (1/T) sum_{t=1}^T theta_t
    theta_priv = np.mean(np.array(iterates[:T]), axis=0)
    frozen = ledger.freeze()
    certified = _certified_epsilon(frozen, delta)
    if calibration != "explicit" and certified > epsilon * (1 + 1e-9):   # the claim is not one we can prove
        warn_privacy(f"noisy_mirror_descent(calibration={calibration!r}): the accountant certifies epsilon "
                     f"{certified:.4g} > the claimed {epsilon:g} at delta {delta:g} for this run's noise",
                     "erm_geometry-E26", "calibration='certified' (the accountant's smallest certified sigma)")
    return MirrorDescentResult(theta_priv, np.array(iterates), np.array(noise), float(sigma), T,
                               etas[2:].copy(), calibration, epsilon, delta, sensitivity, frozen, certified)


def noisy_mirror_descent_nonprivate(X, y, loss, potential: Potential, *, T: int, eta,
                                    noise_cov, rng: np.random.Generator, theta1=None,
                                    lipschitz: float | None = None) -> MirrorDescentResult:
    """Noisy (non-private) mirror descent of Section 3.3 (Corollary 3.6), ``erm_geometry``.

    The loop of Algorithm 1 with b_t ~ N(0, Sigma) (``noise_cov`` = Sigma, a PSD matrix, or a
    scalar s for s*I): "the oracle that returns the gradient is noisy". No privacy, no ledger
    events. Corollary 3.6 asks for a symmetric C with Q = C (erm_geometry-E12).
    """
    X, y = _check_data(X, y)
    T = check_int(T, "T", 1)
    rng = check_rng(rng)
    _check_potential_matches(potential, None)
    _check_horizon(T, potential.ball.shape, "Algorithm 1 (Section 3.3)")
    etas = _step_sizes(eta, T)
    shape = potential.ball.shape
    dim = int(np.prod(shape))
    cov = np.asarray(noise_cov, dtype=float)
    cov = cov * np.eye(dim) if cov.ndim == 0 else check_array(cov, "noise_cov", ndim=2, shape=(dim, dim))
    if not np.allclose(cov, cov.T) or np.min(np.linalg.eigvalsh(cov)) < -1e-12:
        raise ParameterError("noise_cov", "a symmetric positive semi-definite covariance matrix", "not PSD")
    w, v = np.linalg.eigh(cov)
    root = (v * np.sqrt(np.maximum(w, 0.0))) @ v.T
    # Line 2: theta_1 = argmin_C Psi unless given
    theta = potential.minimizer() if theta1 is None else check_array(theta1, "theta1", shape=shape)
    if not potential.ball.contains(theta):
        raise AssumptionViolation("theta_1 is a point of C (Algorithm 1 line 2)")
    iterates, noise = [theta], []
    # Line 3: for t = 1 to T
    for t in range(1, T + 1):
        # Line 4: mirror step on the noisy gradient grad L(theta_t; D) + b_t, b_t ~ N(0, Sigma)
        if lipschitz is not None:
            grads = check_loss_is_declared_lipschitz(loss, theta, X, y, lipschitz, where=f"at t={t}")
        else:
            grads = np.array([loss.gradient(theta, X[i], y[i]) for i in range(X.shape[0])], dtype=float)
        b = (root @ rng.standard_normal(dim)).reshape(shape)
        noise.append(b)
        theta = potential.mirror_step(theta, grads.mean(axis=0) + b, etas[t + 1])
        iterates.append(theta)
    # Line 5: output the average of theta_1..theta_T
    theta_alg = np.mean(np.array(iterates[:T]), axis=0)
    return MirrorDescentResult(theta_alg, np.array(iterates), np.array(noise), float("nan"), T, etas[2:].copy(),
                               "nonprivate", float("inf"), 1.0, float("nan"), Ledger().freeze())


# ---- parameter choices of the theorems (T is rounded down and clamped to >= 1, erm_geometry-E04)

def theorem_3_2_parameters(n: int, epsilon: float, delta: float, lipschitz: float, potential: Potential,
                           variant: str = "proof") -> tuple[int, float]:
    """(T, eta) of Theorem 3.2. ``variant="proof"`` (default, erm_geometry-E04):
    T = r_Q^2 eps^2 n^2 / (log^2(n/delta) (r_Q^2 + G_Q^2)), eta = sqrt(R_Psi) / (L r_Q sqrt(T));
    ``"statement"``: T with an extra 1/L^2 and eta = 1/(L r_Q sqrt(T)) as printed in the theorem.
    """
    n = check_int(n, "n", 1)
    epsilon, delta, L = check_epsilon(epsilon), check_delta(delta), check_positive(lipschitz, "lipschitz")
    r, G, R = potential.q_radius, potential.q_width, potential.range
    denominator = math.log(n / delta) ** 2 * (r * r + G * G)
    if variant == "proof":
        T = max(1, int(math.floor(r * r * epsilon ** 2 * n * n / denominator)))
        return T, math.sqrt(R) / (L * r * math.sqrt(T))
    if variant == "statement":
        T = max(1, int(math.floor(r * r * epsilon ** 2 * n * n / (L * L * denominator))))
        return T, 1.0 / (L * r * math.sqrt(T))
    raise ParameterError("variant", "'proof' or 'statement'", variant)


def theorem_3_2_bound(potential: Potential, lipschitz: float, sigma: float, T: int, eta: float) -> float:
    """Explicit form of the Theorem 3.2 bound (from (11)-(12) with E||b||_{Q*}^2 <= sigma^2 (G_Q^2 + r_Q^2)):
    E L(theta_priv) - L* <= R_Psi/(eta T) + eta (L^2 r_Q^2 + sigma^2 (G_Q^2 + r_Q^2)),
    valid for theta_1 = argmin_C Psi, constant eta and Psi 1-strongly convex w.r.t. ||.||_Q.
    """
    r, G = potential.q_radius, potential.q_width
    return potential.range / (eta * T) + eta * (lipschitz ** 2 * r * r + sigma ** 2 * (G * G + r * r))


def corollary_3_6_parameters(potential: Potential, lipschitz: float, lambda_max: float, T: int) -> float:
    """Constant step of Corollary 3.6: eta = sqrt(R_Psi) / sqrt(T (L^2 r^2 + lambda_max (G^2 + r^2)))."""
    r, G = potential.q_radius, potential.q_width
    return math.sqrt(potential.range) / math.sqrt(T * (lipschitz ** 2 * r * r + lambda_max * (G * G + r * r)))


def corollary_3_6_bound(potential: Potential, lipschitz: float, lambda_max: float, T: int, eta: float) -> float:
    """R_Psi/(eta T) + eta (L^2 r^2 + lambda_max (G^2 + r^2)); with the step above this is
    2 sqrt(R_Psi (L^2 r^2 + lambda_max (G^2 + r^2)) / T), the intended form of Corollary 3.6."""
    r, G = potential.q_radius, potential.q_width
    return potential.range / (eta * T) + eta * (lipschitz ** 2 * r * r + lambda_max * (G * G + r * r))


def strongly_convex_step_sizes(strong_convexity: float) -> Callable[[int], float]:
    """eta_t = 2/(Delta t) of Theorem A.1 (the statement's choice; the proof writes 1/(Delta t), erm_geometry-E19).

    Delta is the paper's strong convexity w.r.t. Psi (Section 2.2, with the alpha(1-alpha)/2 form):
    a loss mu-strongly convex in the usual first-order sense has Delta = 2 mu for Psi = ||.||^2/2.
    """
    Delta = check_positive(strong_convexity, "strong_convexity")
    return lambda t: 2.0 / (Delta * t)


def theorem_A1_T(n: int, epsilon: float, potential: Potential) -> int:
    """T = (||C||_2 n eps)^2 / (G^2 + ||C||_2^2) of Theorem A.1, with ||C||_2 the l2 radius of C and
    G the width of Q (erm_geometry-E06, -E19)."""
    r = potential.ball.radius("l2")
    G = potential.q_width
    return max(1, int(math.floor((r * n * epsilon) ** 2 / (G * G + r * r))))


def theorem_A1_bound(potential: Potential, lipschitz: float, sigma: float, T: int, strong_convexity: float,
                     initial_divergence: float) -> float:
    """Explicit Theorem A.1 bound on (1/T) sum_t E L(theta_t) - L* (hence on the output, by (2)):
    Delta B(theta*, theta_1)/(2T) + 2 K (H_(T+1) - 1)/(Delta T), K = L^2 r_Q^2 + sigma^2 (G_Q^2 + r_Q^2),
    with eta_t = 2/(Delta t) (derived with the definition-consistent coefficient Delta/2, erm_geometry-E19)."""
    r, G = potential.q_radius, potential.q_width
    K = lipschitz ** 2 * r * r + sigma ** 2 * (G * G + r * r)
    harmonic = float(np.sum(1.0 / np.arange(1, T + 2)))
    return (strong_convexity * initial_divergence / (2 * T)
            + 2 * K * (harmonic - 1.0) / (strong_convexity * T))


# ---------------------------------------------------------------------------
# Algorithm 2: objective perturbation.

@dataclass(frozen=True)
class ObjectivePerturbationResult:
    """Output of Algorithm 2: theta_priv, the noise b, zeta (line 1), sigma, and the solver's
    certificate: ``optimality_gap`` is the Frank-Wolfe duality gap of the perturbed objective at
    theta_priv, an upper bound on its suboptimality (the objective is convex), and is <= ``tolerance``.
    ``epsilon`` (also ``claimed_epsilon``) is the claim at ``delta``; ``certified_epsilon`` what the
    accountant certifies for the ledger at ``delta``: inf for the printed noise (refuted) and for a
    KST12 calibration whose side conditions are unchecked, the claim when KST12's theorem applies."""

    theta: np.ndarray
    noise: np.ndarray
    zeta: float
    sigma: float
    optimality_gap: float
    tolerance: float
    solver: str
    calibration: str
    epsilon: float
    delta: float
    ledger: FrozenLedger
    certified_epsilon: float = math.inf

    @property
    def claimed_epsilon(self) -> float:
        return self.epsilon


def paper_sigma_algorithm2(epsilon: float, delta: float, lipschitz: float, n: int) -> float:
    """Algorithm 2 line 2 as printed: Var(b) = L^2 (2 log(1/delta)) / (n eps)^2."""
    return lipschitz * math.sqrt(2.0 * math.log(1.0 / delta)) / (n * epsilon)


def kst_sigma_algorithm2(epsilon: float, delta: float, lipschitz: float, n: int) -> float:
    """Kifer-Smith-Thakurta 2012 (the paper's [37]) calibration in averaged form:
    Var(b) = L^2 (8 log(2/delta) + 4 eps) / (n eps)^2 (erm_geometry-E13)."""
    return lipschitz * math.sqrt(8.0 * math.log(2.0 / delta) + 4.0 * epsilon) / (n * epsilon)


def _perturbed_objective(loss, X, y, zeta, theta0, b):
    n = X.shape[0]
    batch = getattr(loss, "gradients", None)    # optional vectorised forms: all n records in one call
    batch_values = getattr(loss, "values", None)

    def value_and_grad(theta):
        theta = np.asarray(theta, dtype=float)
        if batch_values is not None:
            vals = float(np.sum(np.asarray(batch_values(theta, X, y), dtype=float)))
        else:
            vals = sum(loss.value(theta, X[i], y[i]) for i in range(n))
        if batch is not None:
            grad = np.asarray(batch(theta, X, y), dtype=float).sum(axis=0)
        else:
            grad = sum(np.asarray(loss.gradient(theta, X[i], y[i]), dtype=float) for i in range(n))
        d = theta - theta0
        return (vals / n + 0.5 * zeta * float(d @ d) + float(b @ theta),
                grad / n + zeta * d + b)

    def grad_only(theta):
        theta = np.asarray(theta, dtype=float)
        if batch is not None:
            grad = np.asarray(batch(theta, X, y), dtype=float).mean(axis=0)
        else:
            grad = sum(np.asarray(loss.gradient(theta, X[i], y[i]), dtype=float) for i in range(n)) / n
        return grad + zeta * (theta - theta0) + b

    value_and_grad.grad_only = grad_only
    return value_and_grad


def _polish(value_and_grad, ball: ConstraintSet, theta: np.ndarray, smoothness: float, tol: float,
            max_iter: int = 20000) -> np.ndarray:
    """Accelerated projected gradient (FISTA with restart) from scipy's point, step 1/smoothness,
    until the Frank-Wolfe gap is <= tol/10 or the iteration cap."""
    grad = value_and_grad.grad_only
    step = 1.0 / smoothness if smoothness > 0 else 1e12
    x = ball.project(theta)
    z, t = x.copy(), 1.0
    for k in range(max_iter):
        g = grad(z)
        x_new = ball.project(z - step * g)
        t_new = 0.5 * (1 + math.sqrt(1 + 4 * t * t))
        if np.sum((z - x_new) * (x_new - x)) > 0:   # restart the momentum when it points uphill
            t_new, z = 1.0, x_new.copy()
        else:
            z = x_new + ((t - 1) / t_new) * (x_new - x)
        x, t = x_new, t_new
        if k % 10 == 0:
            gx = grad(x)
            if float(gx @ (x - ball.lmo(gx))) <= tol / 10:
                break
    return x


def _fw_gap(value_and_grad, ball: ConstraintSet, theta) -> float:
    g = value_and_grad(theta)[1]
    return float(g @ (theta - ball.lmo(g)))


def _solve_over_ball(value_and_grad, ball: ConstraintSet, start: np.ndarray, tol: float) -> tuple[np.ndarray, str]:
    """Minimise a smooth convex function over C with scipy; returns a feasible point."""
    p = ball.dim
    f = lambda th: value_and_grad(th)[0]  # noqa: E731
    jac = lambda th: value_and_grad(th)[1]  # noqa: E731
    if isinstance(ball, LinfBall):
        res = optimize.minimize(f, start, jac=jac, method="L-BFGS-B",
                                bounds=[(-ball.r, ball.r)] * p,
                                options={"ftol": 1e-15, "gtol": tol * 1e-3, "maxiter": 10000})
        return ball.project(res.x), "scipy L-BFGS-B (box bounds)"
    if isinstance(ball, L2Ball):
        cons = {"type": "ineq", "fun": lambda th: ball.r ** 2 - th @ th, "jac": lambda th: -2.0 * th}
        res = optimize.minimize(f, start, jac=jac, method="SLSQP", constraints=[cons],
                                options={"ftol": 1e-15, "maxiter": 1000})
        return ball.project(res.x), "scipy SLSQP (||theta||^2 <= r^2)"
    if isinstance(ball, (L1Ball, Simplex)):
        if isinstance(ball, Simplex):
            cons = [{"type": "eq", "fun": lambda th: np.sum(th) - 1.0, "jac": lambda th: np.ones(p)}]
            res = optimize.minimize(f, start, jac=jac, method="SLSQP", bounds=[(0.0, 1.0)] * p,
                                    constraints=cons, options={"ftol": 1e-15, "maxiter": 1000})
            return ball.project(res.x), "scipy SLSQP (simplex)"
        # theta = u - v with u, v >= 0, sum(u + v) <= r
        g2 = lambda uv: f(uv[:p] - uv[p:])  # noqa: E731
        j2 = lambda uv: np.concatenate([jac(uv[:p] - uv[p:]), -jac(uv[:p] - uv[p:])])  # noqa: E731
        cons = [{"type": "ineq", "fun": lambda uv: ball.r - np.sum(uv), "jac": lambda uv: -np.ones(2 * p)}]
        uv0 = np.concatenate([np.maximum(start, 0), np.maximum(-start, 0)])
        res = optimize.minimize(g2, uv0, jac=j2, method="SLSQP", bounds=[(0.0, None)] * (2 * p),
                                constraints=cons, options={"ftol": 1e-15, "maxiter": 1000})
        return ball.project(res.x[:p] - res.x[p:]), "scipy SLSQP (split l1)"
    raise ParameterError("constraint_set", "an l2, l1 or linf ball or the simplex for Algorithm 2", repr(ball))


def _check_inputs_at(loss, theta, X, y, lipschitz: float, lam_min: float, lam_max: float, where: str) -> None:
    """Algorithm 2's input assumptions at one point of C: every per-record gradient within the declared
    Lipschitz constant, and every per-record Hessian's eigenvalues in [lambda_min, lambda_max]. A loss
    without ``hessian`` cannot have its eigenvalue bounds checked: a PrivacyWarning says so."""
    check_loss_is_declared_lipschitz(loss, theta, X, y, lipschitz, where=where)
    hessian = getattr(loss, "hessian", None)
    if hessian is None:
        warn_privacy(f"objective_perturbation: the loss {type(loss).__name__} gives no hessian(theta, x, y), so "
                     "the declared lambda_max / lambda_min (which set zeta, line 1) cannot be checked",
                     "erm_geometry-E13", "a loss with a hessian method (every twice-differentiable loss in "
                     "reference.losses has one)", stacklevel=4)
        return
    for i in range(X.shape[0]):
        ev = np.linalg.eigvalsh(np.atleast_2d(np.asarray(hessian(theta, X[i], y[i]), dtype=float)))
        if ev.max() > lam_max * (1 + 1e-9) + 1e-12 or ev.min() < lam_min - 1e-9 * (1 + abs(lam_min)):
            raise AssumptionViolation(
                "every per-record Hessian has eigenvalues in [lambda_min, lambda_max] (Algorithm 2 input)",
                f"record {i} {where} has eigenvalues in [{ev.min():.6g}, {ev.max():.6g}], declared "
                f"[{lam_min:g}, {lam_max:g}]")


def objective_perturbation(X, y, loss, constraint_set, *, epsilon: float, delta: float, lipschitz: float,
                           lambda_max: float, lambda_min: float = 0.0, theta0=None,
                           rng: np.random.Generator, calibration: str = "paper", tol: float = 1e-8,
                           sigma: float | None = None) -> ObjectivePerturbationResult:
    """Algorithm 2 (objective perturbation [37]) of ``erm_geometry``, Section 4; Theorem 4.1 (both cases).

    Inputs (line 0): data, a twice-differentiable loss with per-record ``value`` / ``gradient``
    (and, if it has one, ``hessian``: then the declared eigenvalue bounds are checked at the
    solution), its l2-Lipschitz constant L (checked on every record at the solution), (epsilon,
    delta), the set C, bounds lambda_max >= lambda_min on the Hessian eigenvalues of every
    per-record loss over C, and a fixed theta0 in C (default: the origin / simplex centre).

    ``calibration="paper"``: Var(b) = 2 L^2 log(1/delta)/(n eps)^2 as printed -- NOT (eps, delta)-DP
    (erm_geometry-E13; tests/erm_geometry shows an exact violation of (1, 1e-3)); running it emits a
    :class:`~reference.errors.PrivacyWarning`;
    ``"certified"``: the KST12 variance L^2 (8 log(2/delta) + 4 eps)/(n eps)^2, whose guarantee
    is KST12's theorem (recorded as a stated event; the accountant cannot derive objective
    perturbation from composition). ``sigma`` overrides both.
    Before the solver runs, the Lipschitz constant and the eigenvalue bounds are checked at theta0
    (AssumptionViolation naming the record); a loss without ``hessian`` gets a PrivacyWarning.
    The argmin is computed with scipy and certified by a Frank-Wolfe gap <= ``tol``
    (privacy needs the exact minimiser, erm_geometry-E23); failing that, an error is raised.
    """
    X, y = _check_data(X, y)
    n, p = X.shape[0], X.shape[1]
    epsilon, delta = check_epsilon(epsilon), check_delta(delta)
    L = check_positive(lipschitz, "lipschitz")
    lam_max = check_nonnegative(lambda_max, "lambda_max")
    lam_min = float(lambda_min)
    if not math.isfinite(lam_min) or lam_min > lam_max:
        raise ParameterError("lambda_min", "finite and <= lambda_max", lambda_min)
    tol = check_positive(tol, "tol")
    rng = check_rng(rng)
    ball = as_constraint_set(constraint_set)
    if ball.shape != (p,) or not isinstance(ball, (L2Ball, L1Ball, LinfBall, Simplex)):
        raise ParameterError("constraint_set", f"an l2 / l1 / linf ball or simplex of dimension {p}", repr(ball))
    if theta0 is None:
        theta0 = np.full(p, 1.0 / p) if isinstance(ball, Simplex) else np.zeros(p)
    theta0 = check_array(theta0, "theta0", ndim=1, shape=(p,))
    if not ball.contains(theta0):
        raise AssumptionViolation("theta_0 lies in C (Algorithm 2 line 2: 'theta_0 in C is fixed')")

    # Line 1: zeta = max{2 lambda_max/(n eps) - min_{theta, d} lambda_min(Hessian), 0}
    zeta = max(2.0 * lam_max / (n * epsilon) - lam_min, 0.0)

    # Line 2: b ~ N(0, sigma^2 I); theta_priv = argmin_C L(theta; D) + zeta/2 ||theta - theta_0||^2 + <b, theta>
    if sigma is not None:
        sigma, calibration = check_positive(sigma, "sigma"), "explicit"
    elif calibration == "paper":
        sigma = paper_sigma_algorithm2(epsilon, delta, L, n)
    elif calibration == "certified":
        sigma = kst_sigma_algorithm2(epsilon, delta, L, n)
    else:
        raise ParameterError("calibration", f"one of {CALIBRATIONS}", calibration)
    if calibration == "paper":   # refuted (erm_geometry-E13): said at run time, not only in this docstring
        warn_privacy("objective_perturbation(calibration='paper'): Algorithm 2's printed noise is not "
                     f"({epsilon:g}, {delta:g})-DP in general (an exact violation of (1, 1e-3) is shown)",
                     "erm_geometry-E13", "calibration='certified' (KST12's noise)")
    # Before any solver runs: the data and the declared constants must meet the inputs' assumptions,
    # so a violation is reported as one, not as a solver failure on an objective the proof does not cover.
    _check_inputs_at(loss, theta0, X, y, L, lam_min, lam_max, "at theta_0, before solving")
    b = sigma * rng.standard_normal(p)
    objective = _perturbed_objective(loss, X, y, zeta, theta0, b)
    theta, solver = _solve_over_ball(objective, ball, theta0.copy(), tol)
    gap = _fw_gap(objective, ball, theta)
    if not gap <= tol:   # polish: the objective is (lambda_max + zeta)-smooth
        theta2 = _polish(objective, ball, theta, lam_max + zeta, tol)
        gap2 = _fw_gap(objective, ball, theta2)
        if gap2 < gap:
            theta, solver, gap = theta2, solver + ", polished by accelerated projected gradient", gap2
    if not gap <= tol:
        raise AssumptionViolation("objective perturbation returns the exact minimiser (its privacy proof needs it)",
                                  f"scipy reached a Frank-Wolfe gap of {gap:.3g} > tol = {tol:.3g}")
    check_loss_is_declared_lipschitz(loss, theta, X, y, L, where="at theta_priv")
    hessian = getattr(loss, "hessian", None)
    max_rank = None
    if hessian is not None:
        max_rank = 0
        for i in range(n):
            H = np.atleast_2d(np.asarray(hessian(theta, X[i], y[i]), dtype=float))
            ev = np.linalg.eigvalsh(H)
            if ev.max() > lam_max * (1 + 1e-9) + 1e-12 or ev.min() < lam_min - 1e-9 * (1 + abs(lam_min)):
                raise AssumptionViolation(
                    "every per-record Hessian has eigenvalues in [lambda_min, lambda_max] (Algorithm 2 input)",
                    f"record {i} at theta_priv has eigenvalues in [{ev.min():.6g}, {ev.max():.6g}]")
            max_rank = max(max_rank, int(np.linalg.matrix_rank(H)))

    # The ledger (the privacy of line 2's noise): KST12's theorem proves (epsilon, delta) for the
    # certified noise when its side conditions hold -- per-record Hessians of rank <= 1 with the
    # declared eigenvalue bounds. They are checked above at theta_priv when the loss gives its
    # Hessian; unchecked or failing, the guarantee is only claimed. The printed noise is refuted
    # (erm_geometry-E13) and an explicit sigma has no theorem behind it: "claimed" too, which the
    # accountant never certifies.
    proved = calibration == "certified" and max_rank is not None and max_rank <= 1
    if calibration == "paper":
        why = "privacy as stated by the paper ([37]); refuted, see docs/errata.md erm_geometry-E13"
    elif calibration == "explicit":
        why = "explicit noise: no theorem certifies this sigma"
    elif proved:
        why = "privacy by KST12's objective-perturbation theorem (rank <= 1 Hessians checked), not by composition"
    elif max_rank is None:
        why = "KST12 noise, but the loss gives no Hessian: KST12's side conditions are unchecked"
    else:
        why = f"KST12 noise, but a per-record Hessian has rank {max_rank} > 1: outside KST12's theorem"
    ledger = Ledger()
    ledger.record(MechanismEvent(
        "approximate" if proved else "claimed", 2.0 * L / n, "l2", "replace-one", epsilon=epsilon, delta=delta,
        label=f"erm_geometry Algorithm 2 objective perturbation ({calibration} noise, sigma={sigma!r}); {why}"))
    frozen = ledger.freeze()
    return ObjectivePerturbationResult(theta, b, zeta, float(sigma), gap, tol, solver, calibration,
                                       epsilon, delta, frozen,
                                       # one event: KST12's theorem (proved) gives (eps, delta); a claimed event nothing
                                       epsilon if proved else math.inf)


# ---------------------------------------------------------------------------
# Algorithms 3, 4, 5: Frank-Wolfe, in this paper's numbering, on the loop shared with ``lasso``
# (reference.algorithms.frank_wolfe.FrankWolfeRun owns the horizon, the step sizes and the records).

#: Frank-Wolfe step sizes by this paper's names. ``"paper"`` is the printed mu = 1/(T+2) (Algorithm 4
#: line 5, Algorithm 5 line 4; Theorem 5.2 sets mu = 1/T for Algorithm 3): a constant step, which does
#: not converge (erm_geometry-E15). ``"2/(t+2)"`` is the decaying step the utility proofs (Theorems 5.2,
#: 5.5, B.2 in explicit form, erm_geometry-E18) need. ``"1/(T+2)"`` and ``"1/T"`` name the constants.
FW_STEP_SIZES = ("paper", "2/(t+2)", "1/(T+2)", "1/T")


def _fw_schedule(step_size, printed: str):
    """The frank_wolfe.step_size_schedule name of this paper's step ``step_size`` (``printed`` is
    what ``"paper"`` means for the algorithm at hand); callables pass through."""
    if callable(step_size):
        return step_size
    if step_size not in FW_STEP_SIZES:
        raise ParameterError("step_size", f"one of {FW_STEP_SIZES} or a callable (t, T) -> mu", step_size)
    return printed if step_size == "paper" else step_size


def _data_gradient(loss, X, y, lipschitz: float, norm: str):
    """theta -> grad L(theta; D), checking every per-record gradient against the declared constant."""

    def gradient(theta):
        return check_loss_is_declared_lipschitz(loss, np.asarray(theta, dtype=float), X, y, lipschitz,
                                                norm=norm).mean(axis=0)

    return gradient


def frank_wolfe(gradient, lmo, theta1, T: int, *, step_size="paper", keep_iterates: bool = True):
    """Algorithm 3 (Frank-Wolfe) of ``erm_geometry``, Section 5.1; Theorem 5.2.

    ``gradient``: theta -> grad L(theta); ``lmo``: a set with ``.lmo(g)`` or a callable
    g -> argmin_{v in C} <g, v>; ``theta1`` a point of C; T - 1 steps. ``step_size="paper"`` is
    Theorem 5.2's mu = 1/T (Algorithm 3 takes mu as input), which does not converge
    (erm_geometry-E15); ``"2/(t+2)"`` does. Returns a
    :class:`reference.algorithms.frank_wolfe.FrankWolfeResult`.
    """
    from . import frank_wolfe as fw

    oracle = lmo.lmo if hasattr(lmo, "lmo") else lmo
    if not callable(oracle):
        raise ParameterError("lmo", "a callable g -> argmin_{v in C} <g, v>, or a set with .lmo", type(lmo).__name__)
    # Line 0: C, L and mu (here the schedule mu_1..mu_(T-1))
    # Line 1: choose an arbitrary theta_1 from C (given by the caller)
    run = fw.FrankWolfeRun(gradient, theta1, T, _fw_schedule(step_size, "1/T"), keep_iterates)
    # Line 2: for t = 1 to T - 1
    for t, theta, g, mu in run.steps():
        # Line 3: tilde_theta_t = argmin_{theta in C} <grad L(theta_t), theta - theta_t>
        vertex = np.asarray(oracle(g), dtype=float)
        # Line 4: theta_(t+1) = theta_t + mu (tilde_theta_t - theta_t)
        run.advance(t, theta + mu * (vertex - theta), mu, vertex)
    # Line 5: return theta_T
    return run.result()


def private_frank_wolfe_polytope(X, y, loss, vertices, *, epsilon: float, delta: float, lipschitz_l1: float,
                                 T: int, rng: np.random.Generator, calibration: str = "paper",
                                 theta1=None, step_size="paper", selection: str = "laplace",
                                 keep_iterates: bool = True, noise_scale: float | None = None):
    """Algorithm 4 (A_Noise-FW(polytope)) of ``erm_geometry``, Section 5.2; Theorems 5.4, 5.5.

    The loss is l1-Lipschitz with constant ``lipschitz_l1`` = L_1 (every per-record gradient has
    ||.||_inf <= L_1, checked at every step); C = conv(S) with S given by ``vertices`` (a
    :class:`reference.algorithms.frank_wolfe.VertexSet`, an (m, p) array, an ``L1Ball``);
    ||C||_1 = max_s ||s||_1. The score sensitivity is 2 L_1 ||C||_1 / n (replace-one).
    ``calibration="paper"``: line 3's printed Laplace scale L_1 ||C||_1 sqrt(8 T log(1/delta))/(n eps);
    ``"certified"``: the smallest scale the accountant certifies (erm_geometry-E16).
    ``step_size="paper"``: line 5's printed mu = 1/(T+2) (does not converge, erm_geometry-E15);
    ``"2/(t+2)"``: the converging step of the explicit Theorem 5.5 (see :func:`theorem_5_5_parameters`).
    ``selection``: ``"laplace"`` as printed; ``"gumbel"`` / ``"exponential"`` the exponential mechanism
    Section 5.2's text names. ``noise_scale`` overrides both calibrations (reported then only by
    what the accountant certifies). The result carries the claimed (epsilon, delta) and the epsilon
    the accountant certifies for the run's ledger.
    """
    from . import frank_wolfe as fw
    from ..privacy import mechanisms

    X, y = _check_data(X, y)
    n = X.shape[0]
    epsilon, delta = check_epsilon(epsilon), check_delta(delta)
    L1 = check_positive(lipschitz_l1, "lipschitz_l1")
    T = check_int(T, "T", 1)
    rng = check_rng(rng)
    S = fw.as_vertex_set(vertices)
    if S.dim != X.shape[1]:
        raise ShapeError("vertices", f"vertices in R^{X.shape[1]}", f"R^{S.dim}")
    if selection not in fw.SELECTIONS:
        raise ParameterError("selection", f"one of {fw.SELECTIONS}", selection)
    sensitivity = 2.0 * L1 * S.l1_norm / n   # replace-one: one record moves each score by 2 L_1 ||C||_1 / n
    if noise_scale is not None:
        scale = check_positive(noise_scale, "noise_scale")
    elif calibration == "paper":
        scale = fw.paper_laplace_scale(L1, S.l1_norm, T, n, epsilon, delta)
    elif calibration == "certified":
        scale = fw.certified_laplace_scale(sensitivity, T, epsilon, delta,
                                           noise="gumbel" if selection != "laplace" else "laplace")
    else:
        raise ParameterError("calibration", f"one of {CALIBRATIONS}", calibration)
    gradient = _data_gradient(loss, X, y, L1, "linf")
    ledger = Ledger()
    # Line 1: choose an arbitrary theta_1 from C (default: the origin)
    theta1 = np.zeros(S.dim) if theta1 is None else theta1
    run = fw.FrankWolfeRun(gradient, theta1, T, _fw_schedule(step_size, "1/(T+2)"), keep_iterates, dim=S.dim)
    if not S.contains(run.theta):
        raise AssumptionViolation("theta_1 lies in C = conv(S) (Algorithm 4 line 1)",
                                  "the score sensitivity holds only for iterates in C")
    # Line 2: for t = 1 to T - 1
    for t, theta, g, mu in run.steps():
        # Line 3: for all s in S, alpha_s <- <s, grad L(theta_t; D)> + Lap(L_1 ||C||_1 sqrt(8 T log(1/delta)) / (n eps))
        scores = S.scores(g)
        # Line 4: tilde_theta_t <- argmin_{s in S} alpha_s
        if selection == "exponential":   # P(s) ∝ exp(-<s, g>/lambda): epsilon_s = 2 sens / lambda
            index = int(mechanisms.exponential_mechanism(-scores, sensitivity, 2.0 * sensitivity / scale, rng,
                                                         ledger=ledger, label=f"erm_geometry Algorithm 4 line 4, t={t}"))
        else:
            index = fw.noisy_argmin(scores, scale, rng, noise=selection, sensitivity=sensitivity, ledger=ledger,
                                    label=f"erm_geometry Algorithm 4 line 4, t={t}")
        vertex = S.vertex(index)
        # Line 5: theta_(t+1) <- (1 - mu) theta_t + mu tilde_theta_t, where mu = 1/(T+2)
        run.advance(t, (1.0 - mu) * theta + mu * vertex, mu, vertex, index)
    # Line 6: output theta_priv = theta_T
    return run.result(noise_scale=scale, ledger=ledger, claimed=(epsilon, delta),
                      unproven=None if noise_scale is not None else (
                          f"erm_geometry Algorithm 4 (calibration={calibration!r})", "erm_geometry-E16",
                          "calibration='certified' (the accountant's smallest certified scale)"))


def theorem_5_5_parameters(n: int, epsilon: float, curvature: float, lipschitz_l1: float,
                           set_l1_norm: float) -> int:
    """T of Theorem 5.5: Gamma_L^(2/3) (n eps)^(2/3) / (L_1 ||C||_1)^(2/3), rounded up and at least 2
    (one step). Gamma_L is the curvature constant of Definition 5.1 (``curvature``)."""
    n = check_int(n, "n", 1)
    epsilon = check_epsilon(epsilon)
    Gamma = check_positive(curvature, "curvature")
    L1, C1 = check_positive(lipschitz_l1, "lipschitz_l1"), check_positive(set_l1_norm, "set_l1_norm")
    return max(2, math.ceil(Gamma ** (2 / 3) * (n * epsilon) ** (2 / 3) / (L1 * C1) ** (2 / 3)))


def theorem_B2_parameters(n: int, epsilon: float, curvature: float, lipschitz: float, width: float) -> int:
    """T of Theorem B.2: Gamma_L^(2/3) (n eps)^(2/3) / (L_2 G_C)^(2/3), rounded up and at least 2;
    G_C is the Gaussian width of C (``width``, e.g. reference.geometry.width.width_l2_ball(p))."""
    n = check_int(n, "n", 1)
    epsilon = check_epsilon(epsilon)
    Gamma = check_positive(curvature, "curvature")
    L2, G = check_positive(lipschitz, "lipschitz"), check_positive(width, "width")
    return max(2, math.ceil(Gamma ** (2 / 3) * (n * epsilon) ** (2 / 3) / (L2 * G) ** (2 / 3)))


def paper_sigma_algorithm5(epsilon: float, delta: float, lipschitz: float, n: int, T: int,
                           literal: bool = True) -> float:
    """Algorithm 5 line 3. Default (``literal=True``, the ``paper`` calibration): sigma^2 =
    32 L_2 T log^2(n/delta)/(n eps)^2 exactly as printed, computed by the one shared
    :func:`reference.algorithms.frank_wolfe.paper_gaussian_sigma` (lasso-E08). ``literal=False``:
    the resolution of erm_geometry-E17, 32 L_2^2 T log^2(T/delta)/(n eps)^2 as in the proof of
    Theorem B.2 and in Algorithm 1 (scale-correct in L_2)."""
    from . import frank_wolfe as fw

    if literal:
        return fw.paper_gaussian_sigma(lipschitz, T, n, epsilon, delta)
    return paper_sigma_algorithm1(epsilon, delta, lipschitz, n, T)


def private_frank_wolfe_general(X, y, loss, constraint_set, *, epsilon: float, delta: float,
                                lipschitz: float, T: int, rng: np.random.Generator,
                                calibration: str = "paper", theta1=None, step_size="paper",
                                literal_sigma: bool = True, keep_iterates: bool = True,
                                sigma: float | None = None):
    """Algorithm 5 (A_Noise-FW(Gen-convex)) of ``erm_geometry``, Appendix B; Theorems B.1, B.2.

    The loss is L_2-Lipschitz in l2 (``lipschitz``, checked on every gradient used); C one of this
    module's sets (its exact LMO is line 3's argmin). The l2 sensitivity of the gradient is
    2 L_2 / n (replace-one). ``calibration="paper"``: line 3's printed sigma (``literal_sigma=False``:
    the proof's, erm_geometry-E17); ``"certified"``: the accountant's smallest sigma for the T - 1
    Gaussian steps. ``step_size="paper"``: line 4's mu = 1/(T+2); ``"2/(t+2)"`` converges
    (:func:`theorem_B2_parameters`). ``sigma`` overrides both calibrations. The result carries the
    claimed and the certified epsilon.
    """
    from . import frank_wolfe as fw
    from ..privacy import mechanisms

    X, y = _check_data(X, y)
    n = X.shape[0]
    epsilon, delta = check_epsilon(epsilon), check_delta(delta)
    L2 = check_positive(lipschitz, "lipschitz")
    T = check_int(T, "T", 1)
    rng = check_rng(rng)
    ball = as_constraint_set(constraint_set)
    sensitivity = 2.0 * L2 / n   # replace-one
    explicit = sigma is not None
    if explicit:
        sigma = check_positive(sigma, "sigma")
    elif calibration == "paper":
        sigma = paper_sigma_algorithm5(epsilon, delta, L2, n, T, literal=literal_sigma)
    elif calibration == "certified":   # T - 1 Gaussian steps; the same accountant-driven search as Algorithm 1
        sigma = certified_gaussian_sigma(epsilon, delta, 2.0 * L2 / n, T - 1) if T > 1 else 1.0
    else:
        raise ParameterError("calibration", f"one of {CALIBRATIONS}", calibration)
    gradient = _data_gradient(loss, X, y, L2, "l2")
    ledger = Ledger()
    # Line 1: choose an arbitrary theta_1 from C (default: the LMO's point for the all-ones direction)
    theta1 = ball.lmo(np.ones(ball.shape)) if theta1 is None else check_array(theta1, "theta1", shape=ball.shape)
    if not ball.contains(theta1):
        raise AssumptionViolation("theta_1 is a point of C (Algorithm 5 line 1)")
    run = fw.FrankWolfeRun(gradient, theta1, T, _fw_schedule(step_size, "1/(T+2)"), keep_iterates)
    # Line 2: for t = 1 to T - 1
    for t, theta, g, mu in run.steps():
        # Line 3: tilde_theta_t = argmin_{theta in C} <grad L(theta_t; D) + b_t, theta>, b_t ~ N(0, sigma^2 I_p)
        noisy = mechanisms.gaussian_mechanism(g, sensitivity, sigma, rng, ledger=ledger,
                                              label=f"erm_geometry Algorithm 5 line 3, t={t}")
        vertex = np.asarray(ball.lmo(np.asarray(noisy, dtype=float)), dtype=float)
        # Line 4: theta_(t+1) <- (1 - mu) theta_t + mu tilde_theta_t, where mu = 1/(T+2)
        run.advance(t, (1.0 - mu) * theta + mu * vertex, mu, vertex)
    # Line 5: output theta_priv = theta_T
    return run.result(noise_scale=sigma, ledger=ledger, claimed=(epsilon, delta),
                      unproven=None if explicit else (
                          f"erm_geometry Algorithm 5 (calibration={calibration!r}, literal_sigma={literal_sigma})",
                          "erm_geometry-E17", "calibration='certified' (the accountant's smallest certified sigma)"))


# ---------------------------------------------------------------------------
# Section 5.3: the lower-bound construction (Theorem 5.8, Lemma 5.10), exact on small sizes.

def hadamard_columns(k: int, p: int) -> np.ndarray:
    """A k x p matrix of +-1 entries with mutually orthogonal columns: the first p columns of the
    Sylvester-Hadamard matrix of order k (k a power of two, k >= p)."""
    k, p = check_int(k, "k", 1), check_int(p, "p", 1)
    if k & (k - 1) or k < p:
        raise ParameterError("k", "a power of two with k >= p (Sylvester-Hadamard)", k)
    H = np.array([[1]], dtype=np.int64)
    while H.shape[0] < k:
        H = np.block([[H, H], [H, -H]])
    return H[:, :p]


@dataclass(frozen=True)
class LowerBoundInstance:
    """The datasets D_1..D_(w+1) of Section 5.3 built from a +-1 code matrix X ((w+1) x p).

    Every D_i holds the k rows z_j of Y with label 0 and the w rows x_j (j != i) of X with
    label 1; n = w + k records (the paper's 'n = w + wp' is a typo, erm_geometry-E20).
    """

    code: np.ndarray
    tau: Fraction
    w: int
    p: int
    k: int
    Y: np.ndarray

    def dataset(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """(features, labels) of D_i, i in 0..w (0-based): all rows of Y, then the rows of X but row i."""
        i = check_int(i, "i", 0)
        if i > self.w:
            raise ParameterError("i", f"0 <= i <= w = {self.w}", i)
        rows = np.delete(self.code, i, axis=0)
        features = np.vstack([self.Y, rows])
        labels = np.concatenate([np.zeros(self.k, dtype=np.int64), np.ones(self.w, dtype=np.int64)])
        return features, labels

    def consensus(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """(columns W_i, their signs s_j) of consensus columns of X_(i) (X without row i)."""
        rows = np.delete(self.code, i, axis=0)
        cols = np.nonzero(np.all(rows == rows[0], axis=0))[0]
        return cols, rows[0, cols]


def lower_bound_instance(code, tau: Fraction | str = Fraction(1, 1000)) -> LowerBoundInstance:
    """Section 5.3's construction from a code matrix X in {-1, 1}^((w+1) x p) and tau (default 0.001).

    k = tau w p must be an integer power of two >= p, so that Y has exactly k rows and the
    identity sum_j (z_j . theta)^2 = k ||theta||_2^2 behind equation (23) holds exactly.
    The fingerprinting code of Theorem 5.9 itself is not constructed (cited, not implementable
    here); any +-1 matrix can be passed, and the deterministic statements are checked on it.
    """
    code = np.asarray(code)
    if code.ndim != 2 or code.shape[0] < 2 or not np.all(np.isin(code, (-1, 1))):
        raise ParameterError("code", "a (w+1) x p matrix of +-1 entries with w >= 1", getattr(code, "shape", None))
    tau = Fraction(tau)
    if not 0 < tau < 1:
        raise ParameterError("tau", "0 < tau < 1", tau)
    w, p = code.shape[0] - 1, code.shape[1]
    k = tau * w * p
    if k.denominator != 1:
        raise ParameterError("tau", "tau w p an integer (k = tau w p rows of Y)", k)
    k = int(k)
    return LowerBoundInstance(code.astype(np.int64), tau, w, p, k, hadamard_columns(k, p))


def unnormalised_squared_loss(theta, features, labels):
    """sum_j (x_j . theta - y_j)^2 (the proof of Theorem 5.8 works with the un-normalised loss).

    Exact when theta holds Fractions (object array) and the data are integers."""
    theta = np.asarray(theta)
    residual = features.dot(theta) - labels
    return (residual * residual).sum()


# ---------------------------------------------------------------------------
# Registry: algorithms and claims (each claim is checked by a test naming it; `python -m reference
# claims --paper erm_geometry`). Kept at the end, as in every paper module, so that a reader
# opening this module beside the paper meets Algorithm 1 first.

ALGORITHMS = (
    Algorithm(PAPER, "Algorithm 1", "A_Noise-MD: differentially private mirror descent",
              "reference.algorithms.erm_geometry:noisy_mirror_descent", "Section 3.1"),
    Algorithm(PAPER, "Algorithm 1 (Section 3.3)", "noisy (non-private) mirror descent, Corollary 3.6",
              "reference.algorithms.erm_geometry:noisy_mirror_descent_nonprivate", "Section 3.3"),
    Algorithm(PAPER, "Algorithm 2", "objective perturbation",
              "reference.algorithms.erm_geometry:objective_perturbation", "Section 4"),
    # Algorithms 3-5: this paper's numbering, on the Frank-Wolfe loop shared with `lasso`.
    Algorithm(PAPER, "Algorithm 3", "Frank-Wolfe algorithm",
              "reference.algorithms.erm_geometry:frank_wolfe", "Section 5.1"),
    Algorithm(PAPER, "Algorithm 4", "A_Noise-FW(polytope): differentially private Frank-Wolfe (polytope case)",
              "reference.algorithms.erm_geometry:private_frank_wolfe_polytope", "Section 5.2"),
    Algorithm(PAPER, "Algorithm 5", "A_Noise-FW(Gen-convex): differentially private Frank-Wolfe (general convex case)",
              "reference.algorithms.erm_geometry:private_frank_wolfe_general", "Appendix B"),
)


def _c(locator: str, kind: str, statement: str, source: str = "") -> Claim:
    return Claim(f"{PAPER}:{locator}", kind, statement, source or locator)


CLAIMS = (
    # --- Algorithm 1: privacy, sensitivity, accounting
    _c("Theorem 3.1", "privacy",
       "Algorithm 1 (noisy mirror descent) with sigma^2 = 32 L^2 T log^2(T/delta)/(eps n)^2 is "
       "(eps, delta)-DP under replace-one neighbours, for 0 < eps <= 1 and 1e-12 <= delta <= 0.1 and every T "
       "(narrowed: proved over that box; other eps, delta not proved).", "Theorem 3.1"),
    _c("Theorem 3.1 sensitivity", "sensitivity",
       "Replacing one record moves the full-batch gradient of an L-Lipschitz (l2) loss by at most 2L/n "
       "in l2 norm, the sensitivity the Gaussian steps of Algorithm 1 (and 5) are calibrated to.",
       "Theorem 3.1 proof (Gaussian mechanism on the gradient)"),
    _c("Theorem 3.1 accounting", "accounting",
       "The ledger of one run of Algorithm 1 holds exactly T Gaussian events with sensitivity 2L/n and "
       "the line-1 sigma; for the paper calibration the accountant certifies it within the claimed "
       "(eps, delta) when eps <= 2 and delta <= 1e-3 (outside that range the printed sigma can fall short, "
       "erm_geometry-E26), and the certified calibration uses the smallest sigma that certifies (eps, delta).",
       "Theorem 3.1 with the strong composition theorem [25]"),
    # --- Algorithm 1: utility
    _c("Theorem 3.2", "utility",
       "With T and eta as in the proof of Theorem 3.2 the expected excess empirical risk of Algorithm 1 "
       "is at most R_Psi/(eta T) + eta (L^2 r_Q^2 + sigma^2 E||b/sigma||_{Q*}^2) (explicit form of "
       "the O(.) bound) and decays in n (rate -1 up to log factors).", "Theorem 3.2 and its proof, equations (2)-(12)"),
    _c("Remark 1", "constant",
       "The Theorem 3.2 bound is scale invariant: with the proof's T and eta it scales exactly with L, and "
       "(G_Q^2 + ||Q||^2) max Psi is unchanged under Q -> cQ, Psi -> Psi/c^2 (the statement's T is not "
       "invariant under rescaling the loss).", "Remark 1, Theorem 3.2"),
    _c("eq (2)", "invariant",
       "Jensen: the loss at the averaged output is at most the average loss of the iterates theta_1..theta_T.",
       "equation (2)"),
    _c("Claim 3.3", "invariant",
       "Convexity: L(theta_t) - L(theta*) <= <gamma_t, theta_t - theta*> for every iterate.", "Claim 3.3"),
    _c("eq (10)", "invariant",
       "Three-point identity: B(th*,th_t) - B(th*,th_t+1) - B(th_t+1,th_t) = <grad Psi(th_t) - grad Psi(th_t+1), "
       "th_t+1 - th*> exactly for the potentials used.", "equation (10)"),
    _c("Line 4 mirror step", "invariant",
       "The mirror step of line 4 (resolved form) returns the exact minimiser over C: it matches the closed "
       "form (Euclidean projection, exponentiated gradient) or satisfies the KKT conditions, and the iterates "
       "stay in C.", "Algorithm 1 line 4; equation (9) needs an exact step"),
    _c("eq (13)", "utility",
       "l2-ball instantiation (Euclidean potential, Q = unit l2 ball): excess risk grows like sqrt(p) "
       "at fixed n (the worst-case geometry).", "equation (13)"),
    _c("eq (14)", "utility",
       "l1-ball / polytope instantiation (l_q potential of Fact 3.4 with q = log k/(log k - 1)): the excess "
       "risk grows only logarithmically with p, so at the same p it is below the l2 ball's.", "equation (14)"),
    _c("eq (15)", "invariant",
       "Grouped l1/l2 ball: the potential of Section 3.2 (resolved constants) is 1-strongly convex w.r.t. "
       "the grouped norm on the unit ball and its maximum over C is 1/(kappa xi) = O(log(p/k)).",
       "Section 3.2, grouped l1 norm, equation (15)"),
    _c("eq (16)", "invariant",
       "Nuclear-norm ball: the spectral potential with q = 1/(2 log 2m) (resolved constant) is 1-strongly "
       "convex w.r.t. the nuclear norm on the unit ball; the matrix mirror step stays in the ball.",
       "Section 3.2, low-rank matrices, equation (16)"),
    _c("Fact 3.4", "constant",
       "Psi = ||.||_q^2/(4(q-1)) is only 1/2-strongly convex w.r.t. ||.||_q (the paper says 1); "
       "Psi = ||.||_q^2/(2(q-1)) is 1-strongly convex (Ball-Carlen-Lieb, cited); proved for every q in (1, 2] that "
       "both moduli are exact: a series at (1, 1) + t (1, -1) (sympy), and an exact witness at q = 2.", "Fact 3.4"),
    _c("Claim 3.5", "constant",
       "With q = ln k/(ln k - 1): k^(1-1/q) = e, hence ||a||_1 <= e ||a||_q for a in R^k.", "Claim 3.5"),
    _c("Corollary 3.6", "utility",
       "Noisy (non-private) mirror descent with Gaussian noise of covariance Sigma: excess risk at most "
       "R_Psi/(eta T) + eta (L^2 r^2 + lambda_max(Sigma)(G^2 + r^2)), decaying like 1/sqrt(T) "
       "(the printed bound does not decay in T: a typo).", "Corollary 3.6"),
    _c("Theorem A.1", "utility",
       "Strongly convex parameterisation (eta_t = 2/(Delta t)): excess risk decays like 1/n^2 up to logs, "
       "faster than the 1/n of Theorem 3.2.", "Theorem A.1"),
    _c("Section 2.2 Gaussian widths", "constant",
       "Gaussian widths used by the theorems: unit l2 ball sqrt(2) Gamma((p+1)/2)/Gamma(p/2) < sqrt(p); "
       "unit l1 ball E||g||_inf <= sqrt(2 ln 2p) (Section 1: Theta(sqrt(log p))), for every p <= 20000, resp. "
       "p <= 10^6 (narrowed: core:Gaussian width bounds' proofs; beyond, not proved).", "Sections 1 and 2.2"),
    _c("Claim A.2", "invariant",
       "Under Section 2.2's definition of Delta-strong convexity w.r.t. Psi, the first-order consequence has "
       "coefficient Delta/2: L(theta_t) - L* <= <gamma_t, theta_t - theta*> - (Delta/2) B(theta*, theta_t); "
       "Claim A.2's coefficient Delta fails (a quadratic is a counterexample).", "Claim A.2, Section 2.2"),
    _c("Fact 2.3", "constant",
       "E[W] <= G^2 + r^2 for W = (sup_Q <b, theta>)^2 (the conclusion of equation (7)); the paper's "
       "intermediate integrand of (7) is not an upper bound on P[W >= x] (proved for every Q with the Gaussian Poincare "
       "inequality, cited; the integrand's failure certified at one point, chi^2_100 at G^2 + 10).", "Fact 2.3 and equation (7)"),
    # --- Algorithm 2
    _c("Algorithm 2 privacy", "privacy",
       "Objective perturbation is (eps, delta)-DP ('follows from [37]'): false at the printed noise variance "
       "2 L^2 log(1/delta)/(n eps)^2 (an exact computation violates (1, 1e-3)); true at the KST12 "
       "calibration L^2 (8 log(2/delta) + 4 eps)/(n eps)^2 on the same instance.", "Section 4, Algorithm 2"),
    _c("Algorithm 2 line 1", "invariant",
       "zeta = max{2 lambda_max/(n eps) - lambda_min, 0}; under the hypothesis of Theorem 4.1(2) it is 0.",
       "Algorithm 2 line 1; Theorem 4.1 proof"),
    _c("Theorem 4.1(1)", "utility",
       "Per noise draw, L(theta_priv) - L(theta*) <= <b, theta_hat - theta_priv> + zeta/2 ||theta* - theta_0||^2 "
       "(equations (17)-(18)); in expectation the excess is O((L G sqrt(log 1/delta) + lambda_max ||C||^2)/(eps n)).",
       "Theorem 4.1 case 1"),
    _c("Theorem 4.1(2)", "utility",
       "Strongly convex case: per noise draw the excess is at most ||b||_{Q*}^2/Delta (the paper's (19) "
       "has 2||b||^2/Delta; its first line swaps theta* and theta_priv).", "Theorem 4.1 case 2"),
    # --- Frank-Wolfe (Algorithms 3, 4, 5 via reference.algorithms.frank_wolfe)
    _c("Theorem 5.2", "utility",
       "Frank-Wolfe with the printed constant step mu = 1/T converges at O(Gamma/T): false (a 1-D quadratic "
       "stays at excess 0.2707); with mu_t = 2/(t+2) the excess is <= (2 h_1 + 2 Gamma (T-1))/(T (T+1)).",
       "Theorem 5.2, Algorithm 3"),
    _c("Theorem 5.6", "utility",
       "Frank-Wolfe with an LMO error <= beta mu_t Gamma / 2 at every step: with mu_t = 2/(t+2), "
       "h_T <= 2 h_1/(T(T+1)) + 2 Gamma (1 + beta)(T-1)/(T(T+1)); the printed h_1-free form "
       "2 Gamma (1 + beta)/(T+2) fails (a linear loss with Gamma = 0 has h_T = 4/(T(T+1)) > 0).", "Theorem 5.6 ([34])"),
    _c("Section 5.3 constants", "constant",
       "LASSO (22) on the unit l1 ball with ||x||_inf <= 1, |y| <= 1: the l1-Lipschitz constant is 2 "
       "(attained) and the curvature constant of Definition 5.1 is 4 max_j (1/n) sum_i x_ij^2 <= 4.",
       "Section 5.3, Definition 5.1, Remark 5"),
    _c("Theorem 5.4 sensitivity", "sensitivity",
       "Replacing one record changes every score <s, grad L(theta; D)> of Algorithm 4 by at most "
       "2 L_1 ||C||_1 / n (L_1: l1-Lipschitz constant, so ||grad l||_inf <= L_1).", "Theorem 5.4 proof"),
    _c("Theorem 5.4", "privacy",
       "Algorithm 4 is (eps, delta)-DP at the printed Laplace scale L_1 ||C||_1 sqrt(8 T log(1/delta))/(n eps): "
       "the accountant certifies only about 2 eps for it (standard report-noisy-max + composition), while the "
       "exact profile on a worst-case 1-D instance stays within (eps, delta): unproven, not refuted.",
       "Theorem 5.4"),
    _c("Theorem 5.5", "utility",
       "Algorithm 4 (mu_t = 2/(t+2)) on LASSO: E excess <= 2h_1/(T(T+1)) + 2 Gamma (T-1)/(T(T+1)) + "
       "2 lambda H_|S| (T-1)(T+2)/(T(T+1)) (explicit form; the paper's log(n|S|) comes from a union bound); "
       "with the T of Theorem 5.5 the excess decays in n (rate -2/3 up to logs).",
       "Theorem 5.5 and its proof"),
    _c("Theorem B.1", "privacy",
       "Algorithm 5 is (eps, delta)-DP: its ledger (T-1 Gaussian steps of sensitivity 2 L_2/n) is certified with "
       "the resolved sigma^2 = 32 L_2^2 T log^2(T/delta)/(n eps)^2; the printed sigma (L_2 unsquared) is not "
       "scale-correct and fails for large L_2.", "Theorem B.1, Algorithm 5 line 3"),
    _c("Theorem B.2", "utility",
       "Algorithm 5 (mu_t = 2/(t+2)): E excess <= 2h_1/(T(T+1)) + 2 Gamma (T-1)/(T(T+1)) + 2 sigma G_C "
       "(T-1)(T+2)/(T(T+1)) (explicit form of (27)).", "Theorem B.2, equation (27)"),
    _c("Theorem 1.1", "constant",
       "On a polytope (the l1 ball, k = 2p vertices, resolved Fact 3.4 potential) Theorem 3.2's explicit bound is "
       "L sqrt(R_Psi (r^2 + G_Q^2)) (2 log(n/delta) + 32 log^2(T/delta)/log(n/delta))/(eps n), R_Psi = e^2 (ln k - 1)/2: "
       "of Theorem 1.1's polytope order L ||C||_2 log k log(n/delta)/(eps n) (ratio below e), while its ratio to the "
       "leading form L G_C log(n/delta)/(eps n) grows like sqrt(ln k) (the leading form is not derivable, AMB28).",
       "Theorem 1.1, Theorem 3.2, equation (14)"),
    _c("Remark 2", "privacy",
       "Objective perturbation uses the loss's smoothness for privacy: with the absolute loss (1-Lipschitz, no "
       "Hessian) at n = 1 the perturbed argmin is the record itself with probability P(|b| < 1) (0.21 at the printed "
       "sigma for (1, 1e-3)), which a neighbour never outputs, so delta >= 0.21 at every eps; the squared loss's "
       "output is a Gaussian shift (delta(10) < 1e-12). The package never releases that atom.", "Remark 2"),
    _c("Remark 3", "invariant",
       "Q symmetrises C: the symmetric hull of the probability simplex is the unit l1 ball (max(h(g), h(-g)) = "
       "||g||_inf); the potentials Remark 3 names are 1-strongly convex w.r.t. ||.||_Q: 1/2 ||theta||_2^2 (Bregman "
       "exactly 1/2 ||.||_2^2) and the negative entropy on the simplex (Bregman = KL >= 1/2 ||.||_1^2, modulus 1 sharp). "
       "Its 'Theorem 4.1 is a special case of Theorem A.1' is not a claim (AMB29).", "Remark 3"),
    _c("Corollary 5.7", "utility",
       "Algorithm 4 on LASSO (22) (unit l1 ball, ||x||_inf <= 1, |y| <= 1; L_1 = 2, Gamma <= 4, T of Theorem 5.5, "
       "mu_t = 2/(t+2)): E excess <= (9 + 16 sqrt(2) H_2p sqrt((1 + 1/A) ln(1/delta)))/A, A = (2 n eps)^(2/3), i.e. "
       "O(log(2p) sqrt(log(1/delta))/(n eps)^(2/3)); the printed log(np/delta) does not follow (AMB19, lasso-E06).",
       "Corollary 5.7, Theorem 5.5, Theorem 1.2"),
    _c("Remark 6", "utility",
       "Corollary 5.7's bound needs no restricted strong convexity or mutual incoherence: it holds on a design with "
       "repeated and negated columns (X^T X singular, coherence 1), where the start point fails it.", "Remark 6"),
    _c("Fact 2.2", "constant",
       "Dual norms: ||v||_{C*} = max_{w in C} |<w, v>| is r ||v||_inf, r ||v||_2, r ||v||_1 for the l1, l2, linf balls "
       "of radius r, the largest |<s, v>| over a symmetric polytope's vertices, r ||v||_op for the nuclear ball; the "
       "dual of l_q is l_q' (1/q + 1/q' = 1), attained by sign(v) |v|^(q'-1)/||v||_q'^(q'-1).", "Fact 2.2"),
    _c("Fact 5.3", "invariant",
       "Over C = conv(S) a linear function is minimised at a point of S: the vertex argmin is the LMO of C "
       "(the same statement as lasso Fact 2.3).", "Fact 5.3"),
    _c("Remark 4", "constant",
       "Gamma_L <= lambda ||C||_q^2 with lambda = max_{||v||_q = 1} ||Hessian v||_r (1/q + 1/r = 1) holds with ||C||_q "
       "the q-diameter (with equality for the LASSO loss on the l1 ball at q = 1), and fails with the radius.",
       "Remark 4, Definition 5.1"),
    _c("Remark 5", "constant",
       "For L = theta^T X^T X theta + <b, theta> on a polytope C, Definition 5.1 gives exactly "
       "Gamma = 2 max_{a, b in XC} ||a - b||^2 (= 8 max_C ||X theta||^2 for symmetric C), twice the printed bound, "
       "which is exceeded at a vertex pair (AMB20, core-G03).", "Remark 5, Definition 5.1"),
    _c("Theorem 1.3", "lower-bound",
       "The construction behind Theorem 1.3 / 5.8 has n = w + tau w p records, = w (1 + m^2) at tau = 1/1000, "
       "p = 1000 m^2, w = m/ln m, so the normalised gap c w/n = c/(1 + m^2) is Theta(1/(n ln n)^(2/3)) (ratio "
       "increasing to 3^(2/3)); the fingerprinting step (Theorem 5.9) is cited, not built.",
       "Theorem 1.3, Theorem 5.8 proof"),
    _c("Section 3.2 matrix noise", "privacy",
       "Algorithm 1 on matrices (nuclear ball) adds at every step a matrix of i.i.d. N(0, sigma^2) entries with the "
       "sigma of line 1, calibrated to the Frobenius sensitivity 2L/n of the gradient (attained); the ledger records "
       "exactly that.", "Section 3.2, low-rank matrices"),
    # --- Section 5.3 lower bound (deterministic parts)
    _c("eq (23)", "lower-bound",
       "In the construction of Section 5.3, theta* = sign/p on consensus columns has un-normalised loss "
       "at most (tau + 4 tau^2) w on D_i.", "equation (23)"),
    _c("Lemma 5.10", "lower-bound",
       "If ||theta||_1 <= 1 and L(theta; D_i) < 1.1 tau w then theta agrees in sign with at least 3p/4 "
       "consensus columns.", "Lemma 5.10"),
    _c("Theorem 5.8 construction", "lower-bound",
       "The Section 5.3 datasets lie in the LASSO domain (||x||_inf <= 1, |y| <= 1), the Hadamard part "
       "contributes exactly k ||theta||_2^2, and D_i, D_j differ in one record; n = w + k (not w + wp).",
       "Theorem 5.8 proof"),
    _c("Theorem 5.8 constants", "constant",
       "The numeric steps of the proof of Lemma 5.10 / Theorem 5.8 hold: sqrt(1.1 tau) <= 0.04, "
       "sqrt(1.1*3/4) <= 0.91, 0.05^2 >= 1.1 tau, and c <= (0.1 tau - 4 tau^2)/3.", "Lemma 5.10, Theorem 5.8"),
)
