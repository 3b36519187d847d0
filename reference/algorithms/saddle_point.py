"""Paper ``saddle_point``: Gonzalez, Guzman, Paquette, "Mirror descent algorithms with nearly
dimension-independent rates for differentially-private stochastic saddle-point problems"
(arXiv 2403.02912).

Seed ../shared/seeds/003_b320ffa2393cb150.txt; catalogue ../shared/spec/saddle_point.md.

A reference for a reconstruction
--------------------------------
The seed lost every formula and every algorithm box. What is implemented here follows the
catalogue's reconstruction, whose items carry a tag: ``[seed]`` (forced by the seed's prose),
``[source]`` (seen in an external excerpt), ``[derived]`` (derived in the catalogue or here from
the other items) and ``[reconstructed]`` (a hypothesis). Every claim registered below names its
``basis``; docs/errata.md (section saddle_point) lists what rests on a reconstruction and what the
tests contradicted. Nothing here may be cited as the paper's own statement.

What is here
------------
- Test problems on products of simplices with a computable duality gap (eq. (2)):
  :class:`QuadraticSaddle` (bilinear matrix games x^T A_z y, and convex-concave quadratics with a
  known saddle point) and :class:`SimplexLeastSquares` (DP-SCO on the simplex, §4).
- The vertex sampler P_x (§1 notation): :func:`sample_vertices`, the exponential mechanism with
  scores log x (each draw is recorded as one ``exponential`` ledger event).
- Algorithm 1 (:func:`private_smd_vertices`), Algorithm 2 (:func:`bias_reduced_gradient`),
  Algorithm 3 (:func:`private_smd_bias_reduced`), Algorithm 5 (:func:`private_sco_anytime`),
  with the two calibrations of the package: ``"paper"`` (the reconstructed Propositions 3.3, 3.17,
  4.3) and ``"certified"`` (the largest step the package's accountant certifies).
- The Maurey sparsification statements of §2 as exact computations
  (:func:`vertex_average_expectation`).
Algorithm 4 (:func:`private_boosted_saddle_point`) uses the package's private Frank-Wolfe for its gap
estimates, not AFKT21's variance-reduced one (docs/errata.md saddle_point-E09).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

import numpy as np
from scipy.optimize import linprog

from .._validate import (check_array, check_delta, check_epsilon, check_int, check_positive, check_probability,
                         check_rng)
from ..claims import Algorithm, Claim
from ..errors import AssumptionViolation, ParameterError, ShapeError, SolverError
from ..privacy.accounting import calibrate_noise_scale, certify
from ..privacy.ledger import FrozenLedger, Ledger, MechanismEvent
from ..privacy.mechanisms import (exponential_mechanism, exponential_mechanism_log_probabilities, truncated_geometric,
                                  truncated_geometric_pmf)
from . import frank_wolfe as fw

__all__ = [
    "QuadraticSaddle", "SimplexLeastSquares", "check_simplex", "sample_vertices", "vertex_event", "entropic_step",
    "duality_gap", "game_value", "simplex_qp_min",
    "private_smd_vertices", "bias_reduced_gradient", "private_smd_bias_reduced", "private_sco_anytime",
    "private_boosted_saddle_point", "boosting_scores", "BoostingResult",
    "SaddlePointResult", "BiasReducedResult", "SCOResult",
    "paper_eta_algorithm1", "paper_eta_algorithm3", "paper_eta_algorithm5",
    "algorithm1_sample_count", "algorithm5_sample_count", "theorem_3_1_parameters",
    "algorithm3_budget", "vertex_average_expectation", "CurvedSaddle", "theorem_3_14_parameters",
    "theorem_4_2_parameters", "BALANCED_BATCH_CONSTANT", "STABILITY_CONSTANT",
    "algorithm1_sensitivity", "algorithm3_sensitivity", "algorithm5_sensitivity", "boosting_score_sensitivity",
]

CALIBRATIONS = ("paper", "certified")
SIMPLEX_TOL = 1e-9          # |sum x - 1| and negative entries tolerated in an input point
LIPSCHITZ_RTOL = 1e-12      # rounding slack when checking a gradient against L0


def _declared_lipschitz(exact: float, lipschitz) -> float:
    """L0 as declared (default: the data's exact sup), refused when the data exceed it: nothing is clipped."""
    if lipschitz is None:
        return exact
    declared = check_positive(lipschitz, "lipschitz")
    if exact > declared * (1 + LIPSCHITZ_RTOL):
        raise AssumptionViolation(
            "every record's gradient has ||grad_x f||_inf, ||grad_y f||_inf <= L0 on the simplices "
            "(l_inf Lipschitz bound, §1)",
            f"the data reach {exact:.6g} > declared L0 = {declared:.6g}; nothing is clipped")
    return declared
QP_KKT_TOL = 1e-9           # simplex_qp_min accepts a KKT residual <= this: its value is within (2 + |lambda|) tau


# ---------------------------------------------------------------------------
# The simplex, vertex sampling, the entropic step


def check_simplex(x, name: str, *, interior: bool = False) -> np.ndarray:
    """A point of the standard simplex Delta_d (a new float array).

    Raises ShapeError / NonFiniteError for malformed input and AssumptionViolation naming the
    constraint for a point off the simplex (a negative entry, or entries not summing to 1 within
    1e-9). ``interior``: every entry > 0 (entropic mirror descent starts in the relative interior).
    Nothing is projected or renormalised.
    """
    x = check_array(x, name, ndim=1)
    if float(x.min()) < -SIMPLEX_TOL or abs(float(x.sum()) - 1.0) > SIMPLEX_TOL:
        raise AssumptionViolation(
            f"{name} lies on the standard simplex (x >= 0, sum x = 1)",
            f"min entry {float(x.min()):.3g}, sum {float(x.sum()):.12g}; nothing is projected")
    if interior and float(x.min()) <= 0.0:
        raise AssumptionViolation(f"{name} lies in the relative interior of the simplex (every entry > 0)",
                                  "entropic mirror descent cannot leave a face it starts on")
    return x


def vertex_event(epsilon0: float, score_sensitivity: float, label: str = "") -> MechanismEvent:
    """The ledger event of one vertex draw: an ``exponential`` event at epsilon0 (2 x the scores' sensitivity,
    Theorem 3.4)."""
    return MechanismEvent("exponential", sensitivity=float(score_sensitivity), norm="score",
                          epsilon=float(epsilon0), label=label)


def sample_vertices(x, K: int, rng, *, ledger: Ledger | None = None, event: MechanismEvent | None = None) -> np.ndarray:
    """Draw K i.i.d. vertices from P_x (P_x(e_j) = x_j, §1 notation) and return their indices.

    One ``rng.random()`` per draw, inverse CDF over the coordinates in index order. The law of
    one draw is the exponential mechanism with scores log x; when ``ledger`` is given, each draw
    is recorded as one ``event`` (see :func:`vertex_event`) for the accountant to compose.
    """
    cdf = np.cumsum(x)
    u = rng.random(K) * cdf[-1]
    idx = np.minimum(np.searchsorted(cdf, u, side="right"), x.size - 1)
    if ledger is not None and event is not None:
        for _ in range(K):
            ledger.record(event)
    return idx


def _check_gradient(g, L0: float, where: str) -> None:
    """A gradient the l_inf Lipschitz bound L0 (w.r.t. ||.||_1) forbids stops the run: the privacy
    proofs' sensitivity 2 L0 / B rests on it. Nothing is clipped."""
    worst = float(np.abs(g).max())
    if not worst <= L0 * (1 + LIPSCHITZ_RTOL):
        raise AssumptionViolation(f"||gradient||_inf <= L0 = {L0:.6g} (the l_inf Lipschitz bound of §1)",
                                  f"{where}: a gradient reaches {worst:.6g}; nothing is clipped")


def _vertex_mean(idx: np.ndarray, d: int) -> np.ndarray:
    """(1/K) sum_k e_{idx_k}: the Maurey estimator of §2."""
    return np.bincount(idx, minlength=d) / idx.size


def entropic_step(x: np.ndarray, g: np.ndarray, eta: float) -> np.ndarray:
    """x^+_j proportional to x_j exp(-eta g_j) (the entropic mirror step), computed in log space."""
    logits = np.log(x) - eta * g
    e = np.exp(logits - logits.max())
    return e / e.sum()


# ---------------------------------------------------------------------------
# Test problems


class QuadraticSaddle:
    """f(x, y; z) = x^T A_z y + (1/2) x^T P x - (1/2) y^T R y + u_z^T x - v_z^T y on Delta_dx x Delta_dy.

    Records are integers z in {0..m-1} indexing ``atoms`` (A_k, shape (m, dx, dy)); ``u``, ``v``
    per-atom linear terms (default 0); ``P``, ``R`` symmetric PSD (default 0: a bilinear matrix
    game). ``weights``: the population law of z over the atoms (default: the empirical law of
    ``data``); the duality gap and F are those of the population.

    ``lipschitz`` is L0 of §1 (joint, w.r.t. ||.||_1, i.e. ||grad_x f||_inf <= L0 and
    ||grad_y f||_inf <= L0 on the whole product of simplices, for every atom). The exact supremum
    is computed (an affine function of x and y attains its largest |.| at vertices); a declared L0
    below it raises AssumptionViolation: the privacy proofs need it. L2 = 0 (f is quadratic).
    """

    def __init__(self, atoms, data, *, P=None, R=None, u=None, v=None, weights=None, lipschitz=None):
        A = check_array(atoms, "atoms")
        if A.ndim == 2:
            A = A[None]
        if A.ndim != 3:
            raise ShapeError("atoms", "an (m, dx, dy) array of matrices (or one (dx, dy) matrix)", f"shape {A.shape}")
        m, dx, dy = A.shape
        data = np.asarray(data)
        if data.ndim != 1 or data.size == 0 or not np.issubdtype(data.dtype, np.integer):
            raise ShapeError("data", "a non-empty 1-d array of integer record indices", f"{data.dtype} {data.shape}")
        if data.min() < 0 or data.max() >= m:
            raise ParameterError("data", f"record indices in 0..{m - 1}", f"range {data.min()}..{data.max()}")
        self.atoms, self.data, self.m, self.dx, self.dy = A, data.astype(np.intp), m, dx, dy
        self._last_batch = None
        self.n = data.size
        self.P = np.zeros((dx, dx)) if P is None else check_array(P, "P", shape=(dx, dx))
        self.R = np.zeros((dy, dy)) if R is None else check_array(R, "R", shape=(dy, dy))
        for name, given, Q in (("P", P, self.P), ("R", R, self.R)):     # the default 0 is: only a given one is checked
            if given is not None and (not np.allclose(Q, Q.T) or np.linalg.eigvalsh(Q).min() < -1e-12):
                raise AssumptionViolation(f"{name} is symmetric positive semi-definite (f convex-concave)")
        self.u = np.zeros((m, dx)) if u is None else check_array(u, "u", shape=(m, dx))
        self.v = np.zeros((m, dy)) if v is None else check_array(v, "v", shape=(m, dy))
        if weights is None:
            w = np.bincount(self.data, minlength=m) / self.n
        else:
            w = check_simplex(weights, "weights")
            if w.size != m:
                raise ShapeError("weights", f"a law over the m = {m} atoms", f"length {w.size}")
        self.weights = w
        self.L0_exact = self._lipschitz_sup()
        self.lipschitz = _declared_lipschitz(self.L0_exact, lipschitz)
        self.A_bar = np.tensordot(w, A, axes=1)
        self.u_bar, self.v_bar = w @ self.u, w @ self.v

    def _lipschitz_sup(self) -> float:
        """max over atoms, coordinates and vertices of |grad_x f| and |grad_y f| (exact)."""
        gx = (self.atoms[:, :, :, None] + self.P[None, :, None, :] + self.u[:, :, None, None])   # (m, i, j, k)
        gy = (self.atoms[:, :, :, None] - self.R[None, None, :, :] - self.v[:, None, :, None])  # (m, i, j, l)
        return float(max(np.abs(gx).max(), np.abs(gy).max()))

    @classmethod
    def with_saddle_point(cls, atoms, data, x_star, y_star, *, P, R, weights=None):
        """The quadratic game whose every atom has gradient 0 at (x_star, y_star): u_k = -(A_k y* + P x*),
        v_k = A_k^T x* - R y*. With P, R positive definite, (x*, y*) is its unique saddle point."""
        A = check_array(atoms, "atoms")
        A = A[None] if A.ndim == 2 else A
        xs, ys = check_simplex(x_star, "x_star"), check_simplex(y_star, "y_star")
        P, R = check_array(P, "P", ndim=2), check_array(R, "R", ndim=2)
        u = -(A @ ys + (P @ xs)[None, :])
        v = np.einsum("mij,i->mj", A, xs) - (R @ ys)[None, :]
        return cls(A, data, P=P, R=R, u=u, v=v, weights=weights)

    def batch_mean(self, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(A_B, u_B, v_B): the means over the records idx (one batch of §3's F_B). The last batch's means are
        kept (read-only), keyed on its records: Algorithm 2 takes its four gradients on one batch."""
        z = self.data[idx]
        key = z.tobytes()
        if self._last_batch is not None and self._last_batch[0] == key:
            return self._last_batch[1]
        if idx.size < self.m:
            means = self.atoms[z].mean(axis=0), self.u[z].mean(axis=0), self.v[z].mean(axis=0)
        else:
            c = np.bincount(z, minlength=self.m) / idx.size
            means = (c @ self.atoms.reshape(self.m, -1)).reshape(self.dx, self.dy), c @ self.u, c @ self.v
        for a in means:
            a.setflags(write=False)
        self._last_batch = (key, means)
        return means

    def batch_gradient(self, x, y, idx) -> tuple[np.ndarray, np.ndarray]:
        """(grad_x F_B(x, y), grad_y F_B(x, y)) for the batch of records idx."""
        A, u, v = self.batch_mean(idx)
        return A @ y + self.P @ x + u, A.T @ x - self.R @ y - v

    def value(self, x, y) -> float:
        """The population objective F(x, y)."""
        return float(x @ self.A_bar @ y + 0.5 * x @ self.P @ x - 0.5 * y @ self.R @ y + self.u_bar @ x - self.v_bar @ y)

    def gradient(self, x, y) -> tuple[np.ndarray, np.ndarray]:
        return (self.A_bar @ y + self.P @ x + self.u_bar, self.A_bar.T @ x - self.R @ y - self.v_bar)


class CurvedSaddle:
    """A convex-concave game whose curvature depends on the record, with linear terms and a non-separable
    x-y coupling, on Delta_dx x Delta_dy:

        f(x, y; z) = x^T A_z y + (a_z/6) sum_i x_i^3 - (b_z/6) sum_j y_j^3 + (c_z/2) sum_ij C_ij x_i^2 y_j
                     + u_z^T x - v_z^T y,

    a_z, b_z, c_z >= 0 per atom, C >= 0 entrywise (shared). Convex in x (every x-term has a non-negative second
    derivative on x >= 0, y >= 0) and concave in y (linear in y but for -b_z y_j^3 / 6). Its gradient

        grad_x f = A_z y + (a_z/2) x^2 + c_z x * (C y) + u_z,   grad_y f = A_z^T x - (b_z/2) y^2 + (c_z/2) C^T x^2 - v_z

    is not affine and its curvature varies with the record, so Algorithm 2's multilevel correction
    G^+ - (G^O + G^E)/2 depends on the batch (it is zero for every quadratic game). The x-y coupling
    C_ij x_i^2 y_j makes grad_y depend on x^2 and grad_x on the product x (C y).

    Records are integers indexing the atoms (as QuadraticSaddle); ``weights`` the population law (default: the
    empirical law of ``data``). ``lipschitz``: an l_inf bound on the gradient over the simplices for every atom
    (default: the bound computed here, exact for grad_x; for grad_y the x-part is bounded by its extreme values
    at the vertices and at x = 0); a declared value below it raises AssumptionViolation.
    """

    def __init__(self, atoms, data, *, a, b, c=None, C=None, u=None, v=None, weights=None, lipschitz=None):
        base = QuadraticSaddle(atoms, data, u=u, v=v, weights=weights, lipschitz=None)
        self.atoms, self.data, self.m, self.dx, self.dy, self.n = base.atoms, base.data, base.m, base.dx, base.dy, base.n
        self.u, self.v, self.weights = base.u, base.v, base.weights
        m = self.m
        self.a = check_array(a, "a", shape=(m,))
        self.b = check_array(b, "b", shape=(m,))
        self.c = np.zeros(m) if c is None else check_array(c, "c", shape=(m,))
        self.C = np.zeros((self.dx, self.dy)) if C is None else check_array(C, "C", shape=(self.dx, self.dy))
        for name, arr in (("a", self.a), ("b", self.b), ("c", self.c), ("C", self.C)):
            if float(arr.min()) < 0:
                raise AssumptionViolation(f"{name} >= 0 entrywise (f convex in x, concave in y on the simplices)",
                                          f"min {float(arr.min()):.3g}")
        self.L0_exact = self._lipschitz_sup()
        self.lipschitz = _declared_lipschitz(self.L0_exact, lipschitz)
        w = self.weights
        self.A_bar = np.tensordot(w, self.atoms, axes=1)
        self.u_bar, self.v_bar = w @ self.u, w @ self.v
        self.a_bar, self.b_bar, self.c_bar = float(w @ self.a), float(w @ self.b), float(w @ self.c)

    def _lipschitz_sup(self) -> float:
        """grad_x f_i is affine in y and increasing in x_i >= 0: its extremes are at y = e_j, x_i in {0, 1}.
        grad_y f_j = (A^T x)_j + (c/2)(C^T x^2)_j - (b/2) y_j^2 - v_j: its x-part is convex (maximum at a
        vertex) and at least min_i A_ij (its value at a vertex with the c-term dropped), y_j^2 in [0, 1]."""
        A, a, b, c, C, u, v = self.atoms, self.a, self.b, self.c, self.C, self.u, self.v
        lo_x = A + u[:, :, None]                                              # (m, i, j) at x_i = 0
        hi_x = lo_x + 0.5 * a[:, None, None] + c[:, None, None] * C[None]     # at x_i = 1
        top_y = (A + 0.5 * c[:, None, None] * C[None]).max(axis=1) - v        # (m, j)
        low_y = A.min(axis=1) - v - 0.5 * b[:, None]
        return float(max(np.abs(lo_x).max(), np.abs(hi_x).max(), np.abs(top_y).max(), np.abs(low_y).max()))

    def _means(self, idx):
        z = self.data[np.asarray(idx, dtype=np.intp)]
        return (self.atoms[z].mean(axis=0), self.a[z].mean(), self.b[z].mean(), self.c[z].mean(),
                self.u[z].mean(axis=0), self.v[z].mean(axis=0))

    @staticmethod
    def _grad(A, a, b, c, C, u, v, x, y):
        return (A @ y + 0.5 * a * x ** 2 + c * x * (C @ y) + u,
                A.T @ x - 0.5 * b * y ** 2 + 0.5 * c * (C.T @ x ** 2) - v)

    def batch_gradient(self, x, y, idx):
        """(grad_x F_B(x, y), grad_y F_B(x, y)) for the batch of records idx."""
        A, a, b, c, u, v = self._means(idx)
        return self._grad(A, a, b, c, self.C, u, v, np.asarray(x, float), np.asarray(y, float))

    def gradient(self, x, y):
        """The population gradient."""
        return self._grad(self.A_bar, self.a_bar, self.b_bar, self.c_bar, self.C, self.u_bar, self.v_bar,
                          np.asarray(x, float), np.asarray(y, float))

    @staticmethod
    def _f(A, a, b, c, C, u, v, x, y) -> float:
        return float(x @ A @ y + a / 6 * np.sum(x ** 3) - b / 6 * np.sum(y ** 3) + 0.5 * c * (x ** 2) @ C @ y
                     + u @ x - v @ y)

    def value(self, x, y) -> float:
        """The population objective F(x, y)."""
        return self._f(self.A_bar, self.a_bar, self.b_bar, self.c_bar, self.C, self.u_bar, self.v_bar,
                       np.asarray(x, float), np.asarray(y, float))

    def record_value(self, x, y, z: int) -> float:
        """f(x, y; atom z)."""
        return self._f(self.atoms[z], self.a[z], self.b[z], self.c[z], self.C, self.u[z], self.v[z],
                       np.asarray(x, float), np.asarray(y, float))

    def best_responses(self, x, y) -> tuple[np.ndarray, np.ndarray]:
        """(argmin_x' F(x', y), argmax_y' F(x, y')): both inner problems are separable and convex on the simplex;
        their KKT points x'_i = (phi_i')^-1(lambda)_+ are found by bisection on the multiplier lambda."""
        x, y = np.asarray(x, float), np.asarray(y, float)
        # x-player: phi_i(s) = (a/6) s^3 + c (C y)_i s^2 / 2 ... derivative (a/2) s^2 + c (C y)_i s + g_i
        g = self.A_bar @ y + self.u_bar
        k = self.c_bar * (self.C @ y)
        xs = _separable_simplex_argmin(0.5 * self.a_bar, k, g)
        # y-player: maximise sum_j h_j y_j - (b/6) y_j^3, h = A^T x + (c/2) C^T x^2 - v: minimise the negation
        h = self.A_bar.T @ x + 0.5 * self.c_bar * (self.C.T @ x ** 2) - self.v_bar
        ys = _separable_simplex_argmin(0.5 * self.b_bar, np.zeros(self.dy), -h)
        return xs, ys

    def gap(self, x, y) -> float:
        """Gap(x, y) = max_y' F(x, y') - min_x' F(x', y) (eq. (2)), by :meth:`best_responses`."""
        xs, ys = self.best_responses(x, y)
        return self.value(x, ys) - self.value(xs, y)


def _separable_simplex_argmin(q: float, k: np.ndarray, g: np.ndarray) -> np.ndarray:
    """argmin over the simplex of sum_i (q/3) s_i^3 + (k_i/2) s_i^2 + g_i s_i, q >= 0, k >= 0 (convex on s >= 0).
    KKT: s_i = the root s >= 0 of q s^2 + k_i s + g_i = lambda (0 if g_i >= lambda), with sum s_i = 1; the sum is
    increasing in lambda, found by bisection to machine precision. q = 0 and k = 0: a vertex of least g."""
    if q == 0.0:
        return simplex_qp_min(np.diag(k), g)          # a quadratic (a vertex of least g when k = 0)

    def root(lam):
        r = np.maximum(lam - g, 0.0)
        den = k + np.sqrt(k * k + 4 * q * r)
        return np.where(r > 0, 2 * r / np.where(den > 0, den, 1.0), 0.0)   # stable root of q s^2 + k s - r = 0

    lo, hi = float(g.min()), float(g.min()) + q + float(k.max()) + 1.0       # sum(root(hi)) >= 1
    while root(hi).sum() < 1:
        hi = hi + 2 * (hi - lo)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if root(mid).sum() < 1:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-16 * max(1.0, abs(hi)):
            break
    s = root(hi)
    return s / s.sum()


class SimplexLeastSquares:
    """DP-SCO on the simplex (§4): f(x; z_i) = (1/2)(<a_i, x> - b_i)^2, x in Delta_d.

    L0 = max_i max_j |a_ij| max_{x in Delta} |<a_i, x> - b_i| (exact; ||grad f||_inf on the simplex),
    L1 = max_i ||a_i||_inf^2 (w.r.t. ||.||_1), L2 = 0. A declared ``lipschitz`` below the data's
    L0 raises AssumptionViolation.
    """

    def __init__(self, a, b, *, lipschitz=None):
        self.a = check_array(a, "a", ndim=2)
        self.n, self.d = self.a.shape
        self.b = check_array(b, "b", shape=(self.n,))
        reach = np.maximum(np.abs(self.a.max(axis=1) - self.b), np.abs(self.a.min(axis=1) - self.b))
        self.L0_exact = float(np.max(np.abs(self.a).max(axis=1) * reach))
        self.L1 = float(np.max(np.abs(self.a)) ** 2)
        if lipschitz is None:
            self.lipschitz = self.L0_exact
        else:
            self.lipschitz = check_positive(lipschitz, "lipschitz")
            if self.L0_exact > self.lipschitz * (1 + LIPSCHITZ_RTOL):
                raise AssumptionViolation("every record's gradient has ||grad f||_inf <= L0 on the simplex (§4)",
                                          f"the data reach {self.L0_exact:.6g} > declared L0 = {self.lipschitz:.6g}")

    def record_gradient(self, x, i: int) -> np.ndarray:
        return (self.a[i] @ x - self.b[i]) * self.a[i]

    def value(self, x) -> float:
        r = self.a @ x - self.b
        return float(0.5 * np.mean(r * r))

    def minimum(self) -> float:
        """min over the simplex of the empirical objective (exact: a convex QP by support enumeration)."""
        Q = self.a.T @ self.a / self.n
        c = -self.a.T @ self.b / self.n
        x = simplex_qp_min(Q, c)
        return self.value(x)


# ---------------------------------------------------------------------------
# Duality gap (eq. (2)) and the game value


def simplex_qp_min(Q, c) -> np.ndarray:
    """argmin over Delta_d of (1/2) z^T Q z + c^T z, Q PSD, by enumerating supports (KKT on each face).

    Exact up to rounding; meant for d <= 12 (tests). When Q = 0 the minimum is at a vertex.
    A support is accepted when its KKT conditions hold within tau = ``QP_KKT_TOL``: stationarity and
    sum z = 1 to tau, every gradient entry at least the multiplier lambda - tau. The returned z then has
    |f(z) - min f| <= (2 + |lambda|) tau + O(tau^2) (convexity: f(z) - f(z*) <= <grad f(z), z - z*>, and
    the sum of z is off by at most tau), with |lambda| <= max_i |grad f(z)_i|.
    Raises SolverError when no support satisfies the KKT conditions within tau.
    """
    Q, c = np.asarray(Q, float), np.asarray(c, float)
    d = c.size
    if not Q.any():
        z = np.zeros(d)
        z[int(np.argmin(c))] = 1.0
        return z
    if d > 12:
        raise ParameterError("d", "at most 12 for the support enumeration of a quadratic gap", d)
    best, best_val = None, math.inf
    for size in range(1, d + 1):
        for S in itertools.combinations(range(d), size):
            S = list(S)
            k = len(S)
            M = np.zeros((k + 1, k + 1))
            M[:k, :k] = Q[np.ix_(S, S)]
            M[:k, k] = 1.0
            M[k, :k] = 1.0
            rhs = np.concatenate([-c[S], [1.0]])
            sol = np.linalg.lstsq(M, rhs, rcond=None)[0]
            if np.abs(M @ sol - rhs).max() > QP_KKT_TOL or sol[:k].min() < -1e-12:
                continue
            z = np.zeros(d)
            z[S] = np.maximum(sol[:k], 0.0)
            grad = Q @ z + c
            lam = -sol[k]
            if grad.min() < lam - QP_KKT_TOL:   # some coordinate outside S would decrease the objective
                continue
            val = 0.5 * z @ Q @ z + c @ z
            if val < best_val:
                best, best_val = z, val
    if best is None:
        raise SolverError(f"simplex_qp_min: no support satisfies the KKT conditions within {QP_KKT_TOL:g}")
    return best


def duality_gap(problem: QuadraticSaddle, x, y) -> float:
    """Gap(x, y) = max_{y'} F(x, y') - min_{x'} F(x', y) of the population objective (eq. (2)); exact."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    A, P, R, u, v = problem.A_bar, problem.P, problem.R, problem.u_bar, problem.v_bar
    # max_y' F(x, y') = (1/2) x^T P x + u^T x - min_y' [(1/2) y'^T R y' - (A^T x - v)^T y']
    yb = simplex_qp_min(R, -(A.T @ x - v))
    xb = simplex_qp_min(P, A @ y + u)
    return problem.value(x, yb) - problem.value(xb, y)


def game_value(matrix) -> tuple[float, np.ndarray, np.ndarray]:
    """Value and optimal strategies of the matrix game min_x max_y x^T A y by linear programming
    (scipy linprog, HiGHS); independent of the algorithms (a second method for the gap)."""
    A = check_array(matrix, "matrix", ndim=2)
    dx, dy = A.shape
    # min t s.t. A^T x <= t 1, 1^T x = 1, x >= 0   (variables x, t)
    res = linprog(np.r_[np.zeros(dx), 1.0], A_ub=np.c_[A.T, -np.ones(dy)], b_ub=np.zeros(dy),
                  A_eq=np.r_[np.ones(dx), 0.0][None], b_eq=[1.0], bounds=[(0, None)] * dx + [(None, None)],
                  method="highs")
    res_y = linprog(np.r_[np.zeros(dy), -1.0], A_ub=np.c_[-A, np.ones(dx)], b_ub=np.zeros(dx),
                    A_eq=np.r_[np.ones(dy), 0.0][None], b_eq=[1.0], bounds=[(0, None)] * dy + [(None, None)],
                    method="highs")
    if res.status != 0 or res_y.status != 0:
        raise SolverError(f"game_value: linprog failed ({res.message}; {res_y.message})")
    return float(res.x[-1]), res.x[:dx], res_y.x[:dy]


# ---------------------------------------------------------------------------
# Calibrations (reconstructed closed forms; the accountant certifies or refutes them)


def _check_eps_range(epsilon: float, delta: float) -> None:
    """Cor 3.6's second condition epsilon <= 8 log(1/delta) (catalogue A5, the exact boundary)."""
    if epsilon > 8.0 * math.log(1.0 / delta):
        raise ParameterError("epsilon", f"epsilon <= 8 log(1/delta) = {8 * math.log(1 / delta):.6g} "
                             "(Corollary 3.6's second condition)", epsilon)


def algorithm1_sample_count(K: int, T: int, output: str = "independent") -> int:
    """N = 2(K+1)T vertices (K for the gradient and one for the output, per player and step; A2),
    or 2KT when the output reuses the gradient samples."""
    return 2 * (K + 1) * T if output == "independent" else 2 * K * T


#: The reconstructed privacy constants of the paper calibrations (docs/errata.md saddle_point-E01): Algorithm 1's
#: eps = 16 L0 eta sqrt((K+1) T log(1/delta)) / B (Proposition 3.3), Algorithm 3's eps = 40 L0 eta sqrt(Gamma
#: log(1/delta)) / B (Proposition 3.17), Algorithm 5's eps = 8 L0 T eta sqrt(2 N log(1/delta)) (Proposition 4.3).
PROP_3_3_CONSTANT = 16.0
PROP_3_17_CONSTANT = 40.0
PROP_4_3_CONSTANT = 8.0


def paper_eta_algorithm1(epsilon, delta, L0, B, K, T, output: str = "independent") -> float:
    """Proposition 3.3 (reconstructed): eta = eps B / (16 L0 sqrt((K+1) T log(1/delta))), i.e. the
    per-vertex eps0 = 4 eta L0 / B equals Cor 3.6's eps / (2 sqrt(2 N log(1/delta))), N = 2(K+1)T."""
    N = algorithm1_sample_count(K, T, output)
    eps0 = epsilon / (2.0 * math.sqrt(2.0 * N * math.log(1.0 / delta)))
    return eps0 * B / (4.0 * L0)


def theorem_3_1_parameters(n: int, epsilon: float, delta: float, dx: int, dy: int, L0: float,
                           *, smoothness: str = "quadratic", L1: float | None = None,
                           L2: float | None = None, batch_constant: float = 1.0) -> dict:
    """(K, B, T, step cap) of Theorem 3.1's recipe (catalogue §2.1, [derived], constants 1).

    ``quadratic`` (L2 = 0, eq. (7)): K = 1, B = ceil(sqrt(ell lambda) / eps); ``second`` (eq. (6)):
    K = ceil((L2/L0)^(4/5) (n eps)^(2/5) / (ell^(3/5) lambda^(1/5))); ``first`` (eq. (5)):
    K = ceil((L1/L0)^(4/3) (n eps)^(2/3) / (ell lambda^(1/3))); then B = ceil(sqrt(K ell lambda)/eps)
    clipped to [1, n], T = floor(n / B), and the non-private step cap sqrt(ell / T) / L0, where
    ell = log dx + log dy (R1) and lambda = log(1/delta). ``batch_constant`` multiplies B (the constant
    the recipe's ~ leaves open; docs/errata.md saddle_point-E05).
    """
    n = check_int(n, "n", 1)
    ell, lam = math.log(dx) + math.log(dy), math.log(1.0 / delta)
    ell = max(ell, math.log(2.0))
    if smoothness == "quadratic":
        K = 1
    elif smoothness == "second":
        K = max(1, math.ceil((L2 / L0) ** 0.8 * (n * epsilon) ** 0.4 / (ell ** 0.6 * lam ** 0.2)))
    elif smoothness == "first":
        K = max(1, math.ceil((L1 / L0) ** (4 / 3) * (n * epsilon) ** (2 / 3) / (ell * lam ** (1 / 3))))
    else:
        raise ParameterError("smoothness", "'quadratic', 'second' or 'first'", smoothness)
    B = min(n, max(1, math.ceil(batch_constant * math.sqrt(K * ell * lam) / epsilon)))
    T = max(1, n // B)
    return {"K": K, "B": B, "T": T, "step_cap": math.sqrt(ell / T) / L0}


@lru_cache(maxsize=256)
def _certified_step(epsilon: float, delta: float, sens: float, count: int, guess: float) -> float:
    """The largest step eta whose ledger of ``count`` vertex draws, each the exponential mechanism at
    eps0 = 2 eta sens, the accountant certifies within (epsilon, delta) (bisection on 1/eta; cached)."""
    def ledger_for(scale: float) -> FrozenLedger:
        ledger = Ledger()
        for e in _homogeneous_events(2.0 * sens / scale, sens / scale, count):
            ledger.record(e)
        return ledger.freeze()
    return 1.0 / calibrate_noise_scale(ledger_for, epsilon, delta, guess=1.0 / guess)


def _homogeneous_events(eps0: float, sens: float, count: int) -> list[MechanismEvent]:
    e = MechanismEvent("exponential", sensitivity=sens, norm="score", epsilon=eps0)
    return [e] * count


@lru_cache(maxsize=256)
def _certify_homogeneous(eps0: float, sens: float, count: int, delta: float) -> float:
    """certify() of a ledger of ``count`` vertex draws of eps0 each (cached: a rate study reruns the same
    ledger shape hundreds of times). Algorithms 1 and 5 record exactly such ledgers; tests compare."""
    ledger = Ledger()
    for e in _homogeneous_events(eps0, sens, count):
        ledger.record(e)
    return certify(ledger.freeze(), delta).epsilon


# ---------------------------------------------------------------------------
# Results


@dataclass(frozen=True)
class SaddlePointResult:
    """Output (x_tilde, y_tilde) of Algorithm 1 or 3 with its evidence.

    ``iterates_x``/``iterates_y``: the non-private iterates x_1..x_T (line 6), when kept;
    ``samples_x``/``samples_y``: the indices of the output vertices x_tilde_t (line 3 / line 8);
    ``epsilon0``: the per-vertex privacy of the reconstructed proof; ``claimed_epsilon``: what the
    paper's proposition claims at this step; ``certified_epsilon``: what the accountant certifies
    (for Algorithm 3, for the worst-case number of vertices its stopping rule allows).
    ``T``: the number of steps the loop ran (Algorithm 1: T; Algorithm 3: its stopping time tau, also in ``tau``);
    ``K``: the vertices per player behind each gradient (Algorithm 1), None for Algorithm 3 (2^(N_t+1) + 1 at
    step t, by the level N_t in ``levels``); ``n_samples``: the vertices drawn (both players); ``Gamma``, ``M``:
    Algorithm 3's budget and truncation level (None for Algorithm 1).
    """

    x: np.ndarray
    y: np.ndarray
    iterates_x: np.ndarray | None
    iterates_y: np.ndarray | None
    samples_x: np.ndarray
    samples_y: np.ndarray
    eta: float
    K: int | None
    T: int
    B: int
    calibration: str
    epsilon: float
    delta: float
    epsilon0: float
    n_samples: int
    claimed_epsilon: float
    certificate: tuple                      # (eps0, score sensitivity, number of draws, delta) certified
    ledger: FrozenLedger
    levels: np.ndarray | None = None        # Algorithm 3: N_1..N_tau
    data_used: int = 0
    tau: int | None = None                  # Algorithm 3: the stopping time (= T)
    Gamma: int | None = None                # Algorithm 3: the budget in vertices per player
    M: int | None = None                    # Algorithm 3: the truncation level of TGeom(M)

    @property
    def certified_epsilon(self) -> float:
        """What the accountant certifies at ``delta`` (computed on first use; cached)."""
        return _certify_homogeneous(*self.certificate)


# ---------------------------------------------------------------------------
# Algorithm 1


def _check_problem(problem) -> None:
    """A saddle problem: n records, dimensions dx, dy, the declared L0 ``lipschitz`` and
    ``batch_gradient(x, y, idx)`` (QuadraticSaddle, or any object with these attributes)."""
    if not all(hasattr(problem, a) for a in ("n", "dx", "dy", "lipschitz", "batch_gradient")):
        raise ParameterError("problem", "a saddle problem (n, dx, dy, lipschitz, batch_gradient), e.g. QuadraticSaddle",
                             type(problem).__name__)


def _starts(problem, x1, y1):
    x = np.full(problem.dx, 1.0 / problem.dx) if x1 is None else check_simplex(x1, "x1", interior=True)
    y = np.full(problem.dy, 1.0 / problem.dy) if y1 is None else check_simplex(y1, "y1", interior=True)
    if x.size != problem.dx or y.size != problem.dy:
        raise ShapeError("x1/y1", f"lengths ({problem.dx}, {problem.dy})", f"({x.size}, {y.size})")
    return x, y


def algorithm1_sensitivity(L0: float, B: int) -> float:
    """The l_inf change of Algorithm 1's batch gradient (B records, l_inf gradient bound L0) when one record is
    replaced: 2 L0 / B. The one source of both the certified step (:func:`certified_eta_algorithm1`) and the
    ledger's vertex events."""
    return 2.0 * L0 / B


def algorithm3_sensitivity(L0: float, B: int) -> float:
    """The l_inf change of Algorithm 2's estimate (Algorithm 3's gradient) when one record of its batch is replaced:
    (2^-N + 2 / C_M) L0 / B <= 5 L0 / B at every level N (Proposition 3.17's proof)."""
    return 5.0 * L0 / B


def algorithm5_sensitivity(L0: float, T: int) -> float:
    """The l_inf change of Algorithm 5's weighted cumulative gradient when one record is replaced:
    ||G_s - G_s'||_inf <= 2 L0 alpha_r <= 2 L0 T."""
    return 2.0 * L0 * T


def certified_eta_algorithm1(epsilon: float, delta: float, L0: float, B: int, K: int, T: int,
                             output: str = "independent") -> float:
    """Algorithm 1's certified step as a public function of its inputs (what ``private_smd_vertices(...,
    calibration="certified")`` uses): the largest eta whose N = :func:`algorithm1_sample_count` (K, T, output)
    vertex draws, each the exponential mechanism at eps0 = 2 eta (2 L0 / B), the accountant certifies within
    (epsilon, delta). L0 is the game's declared Lipschitz constant (``QuadraticSaddle(...).lipschitz``), B the
    batch size (n // T by default)."""
    epsilon, delta = check_epsilon(epsilon), check_delta(delta)
    L0, B = check_positive(L0, "L0"), check_int(B, "B", 1)
    N = algorithm1_sample_count(check_int(K, "K", 1), check_int(T, "T", 1), output)
    return _certified_step(epsilon, delta, algorithm1_sensitivity(L0, B), N,
                           paper_eta_algorithm1(epsilon, delta, L0, B, K, T, output))


def private_smd_vertices(problem: QuadraticSaddle, epsilon: float, delta: float, rng, *, T: int, K: int = 1,
                         B: int | None = None, eta: float | None = None, step_cap: float | None = None,
                         calibration: str = "paper", output: str = "independent", x1=None, y1=None,
                         keep_iterates: bool = True) -> SaddlePointResult:
    """Algorithm 1 of ``saddle_point``: private stochastic mirror descent with sampling from vertices (§2.1).

    Claims: Proposition 3.3 (privacy), Theorem 3.1 (utility, eqs. (5)-(7)), Lemmas 3.8 and 3.11.
    [reconstructed] box (catalogue §2.1): disjoint batches B_t of size B = floor(n / T) (single pass,
    A3); at each step K vertices per player give the Maurey estimates x_hat_t, y_hat_t at which the
    batch gradient is taken (line 5); the entropic step (line 6), the x-player descending, the
    y-player ascending; one more vertex per player per step (line 3) makes the output.

    Privacy: each vertex drawn from x_t is the exponential mechanism with scores
    -eta sum_{s<t} g_{x,s}, whose sensitivity is eta 2 L0 / B (one batch), hence eps0 = 4 eta L0 / B
    (Theorem 3.4); N = 2(K+1)T vertices are composed. ``calibration="paper"``: eta of Proposition
    3.3 (reconstructed); ``"certified"``: the largest eta whose ledger the accountant certifies
    within (epsilon, delta). ``eta`` overrides both (calibration "explicit"). The step is then
    min(eta, step_cap) (``step_cap``: Theorem 3.1's non-private sqrt(ell/T)/L0, None for none).
    ``output="reuse"`` outputs the mean of the gradient samples instead (A2; N = 2KT).
    """
    _check_problem(problem)
    epsilon, delta = check_epsilon(epsilon), check_delta(delta)
    rng = check_rng(rng)
    T, K = check_int(T, "T", 1), check_int(K, "K", 1)
    n, L0 = problem.n, problem.lipschitz
    if output not in ("independent", "reuse"):
        raise ParameterError("output", "'independent' or 'reuse'", output)
    if B is None:
        if T > n:
            raise ParameterError("T", f"T <= n = {n}: Algorithm 1 takes disjoint batches of size floor(n/T) >= 1", T)
        B = n // T
    B = check_int(B, "B", 1)
    if B * T > n:
        raise ParameterError("B", f"B T <= n = {n}: the batch schedule (T = {T} disjoint batches of {B}) "
                             "exceeds the data (single pass)", B)
    _check_eps_range(epsilon, delta)
    N = algorithm1_sample_count(K, T, output)
    sens = algorithm1_sensitivity(L0, B)    # l_inf change of one batch gradient (replace-one)
    # Parameters: the step (Proposition 3.3 or the accountant)
    if eta is not None:
        eta_priv, calibration = check_positive(eta, "eta"), "explicit"
    elif calibration == "paper":
        eta_priv = paper_eta_algorithm1(epsilon, delta, L0, B, K, T, output)
    elif calibration == "certified":
        eta_priv = certified_eta_algorithm1(epsilon, delta, L0, B, K, T, output)
    else:
        raise ParameterError("calibration", f"one of {CALIBRATIONS}", calibration)
    step = eta_priv if step_cap is None else min(eta_priv, check_positive(step_cap, "step_cap"))
    eps0 = 2.0 * step * sens
    ledger = Ledger()
    kw = dict(ledger=ledger, event=vertex_event(eps0, step * sens, "saddle_point Algorithm 1 vertex"))

    # Line 1: x_1 = uniform on Delta_dx, y_1 = uniform on Delta_dy
    x, y = _starts(problem, x1, y1)
    xs, ys, out_x, out_y = [], [], [], []
    for t in range(1, T + 1):
        if keep_iterates:
            xs.append(x)
            ys.append(y)
        # Line 3: sample the output vertices x_tilde_t ~ P_{x_t}, y_tilde_t ~ P_{y_t}
        if output == "independent":
            out_x.append(sample_vertices(x, 1, rng, **kw)[0])
            out_y.append(sample_vertices(y, 1, rng, **kw)[0])
        # Line 4: sample K vertices from each player's iterate; x_hat_t, y_hat_t their means
        ix = sample_vertices(x, K, rng, **kw)
        iy = sample_vertices(y, K, rng, **kw)
        x_hat, y_hat = _vertex_mean(ix, problem.dx), _vertex_mean(iy, problem.dy)
        if output == "reuse":
            out_x.append(ix)
            out_y.append(iy)
        # Line 5: g_t = batch gradient at (x_hat_t, y_hat_t), batch B_t = records (t-1)B+1 .. tB
        batch = np.arange((t - 1) * B, t * B)
        gx, gy = problem.batch_gradient(x_hat, y_hat, batch)
        _check_gradient(gx, L0, f"Algorithm 1 line 5, t={t} (x)")
        _check_gradient(gy, L0, f"Algorithm 1 line 5, t={t} (y)")
        # Line 6: x_{t+1} proportional to x_t exp(-eta g_x), y_{t+1} proportional to y_t exp(+eta g_y)
        x = entropic_step(x, gx, step)
        y = entropic_step(y, -gy, step)

    # Line 8: return the averages of the output vertices
    sx, sy = np.asarray(out_x).ravel(), np.asarray(out_y).ravel()
    x_out, y_out = _vertex_mean(sx, problem.dx), _vertex_mean(sy, problem.dy)
    frozen = ledger.freeze()
    claimed = PROP_3_3_CONSTANT * L0 * step * math.sqrt((N / 2) * math.log(1 / delta)) / B if calibration == "explicit" \
        else epsilon
    return SaddlePointResult(x_out, y_out, np.array(xs) if keep_iterates else None,
                             np.array(ys) if keep_iterates else None, sx, sy, step, K, T, B, calibration,
                             epsilon, delta, eps0, N, claimed,
                             (eps0, step * sens, N, delta), frozen, data_used=B * T)


# ---------------------------------------------------------------------------
# Algorithm 2


@dataclass(frozen=True)
class BiasReducedResult:
    """Algorithm 2's output g = (g_x, g_y) with its level N, weight 1/p_N and the four terms."""

    gx: np.ndarray
    gy: np.ndarray
    N: int
    weight: float
    terms: tuple


def bias_reduced_gradient(problem: QuadraticSaddle, x, y, N: int, batch, M: int, rng, *,
                          ledger: Ledger | None = None, event: MechanismEvent | None = None) -> BiasReducedResult:
    """Algorithm 2 of ``saddle_point``: the bias-reduced gradient oracle (§2.2, [reconstructed]).

    Claims: Lemma 3.15 (bias 2 L2 / 2^(M+1), second moment), the sensitivity 5 L0 / B of Prop 3.17.
    The level N ~ TGeom(M) is drawn by the caller; ``batch`` (record indices) is fresh and of
    size B 2^(N+1) (A6: shared by the four terms). Multilevel (Blanchet-Glynn) estimator over the
    number of sampled vertices:
    g = G^0 + (1/p_N) (G^+ - (G^O + G^E)/2), p_N = C_M 2^-N.
    """
    _check_problem(problem)
    x, y = check_simplex(x, "x"), check_simplex(y, "y")
    M = check_int(M, "M", 0)
    N = check_int(N, "N", 0)
    if N > M:
        raise ParameterError("N", f"a level in 0..M = {M}", N)
    batch = np.asarray(batch, dtype=np.intp)
    m = 2 ** (N + 1)
    if batch.ndim != 1 or batch.size == 0 or batch.min() < 0 or batch.max() >= problem.n:
        raise ParameterError("batch", f"a non-empty vector of record indices in 0..{problem.n - 1}", batch.shape)
    # Line 1: sample x_tilde^(0), y_tilde^(0) and 2^(N+1) i.i.d. vertices from each player's iterate
    kw = dict(ledger=ledger, event=event)
    ix0 = sample_vertices(x, 1, rng, **kw)
    iy0 = sample_vertices(y, 1, rng, **kw)
    ix = sample_vertices(x, m, rng, **kw)
    iy = sample_vertices(y, m, rng, **kw)
    # Line 2: the means of all 2^(N+1), of the first half (O) and of the second half (E)
    h = m // 2
    dx, dy = problem.dx, problem.dy
    xp, xo, xe = _vertex_mean(ix, dx), _vertex_mean(ix[:h], dx), _vertex_mean(ix[h:], dx)
    yp, yo, ye = _vertex_mean(iy, dy), _vertex_mean(iy[:h], dy), _vertex_mean(iy[h:], dy)
    # Line 3: the four batch gradients on S_N
    G0 = problem.batch_gradient(_vertex_mean(ix0, dx), _vertex_mean(iy0, dy), batch)
    Gp = problem.batch_gradient(xp, yp, batch)
    Go = problem.batch_gradient(xo, yo, batch)
    Ge = problem.batch_gradient(xe, ye, batch)
    for G in (G0, Gp, Go, Ge):
        _check_gradient(G[0], problem.lipschitz, "Algorithm 2 line 3 (x)")
        _check_gradient(G[1], problem.lipschitz, "Algorithm 2 line 3 (y)")
    # Line 4: g = G^0 + (1/p_N)(G^+ - (G^O + G^E)/2)
    weight = 1.0 / truncated_geometric_pmf(M)[N]
    gx = G0[0] + weight * (Gp[0] - 0.5 * (Go[0] + Ge[0]))
    gy = G0[1] + weight * (Gp[1] - 0.5 * (Go[1] + Ge[1]))
    return BiasReducedResult(gx, gy, N, weight, (G0, Gp, Go, Ge))


# ---------------------------------------------------------------------------
# Algorithm 3


def algorithm3_budget(n: int, B: int, Gamma: int | None = None, M: int | None = None) -> tuple[int, int]:
    """(Gamma, M) of Algorithm 3: Gamma = floor(n / (2B)) vertices per player, M = floor(log2 Gamma) - 3
    (the corrected reconstruction: the worst-case reserve 2^(M+1) + 2 is at most Gamma / 4 + 2;
    catalogue 'Corrections', docs/errata.md saddle_point-E03)."""
    n, B = check_int(n, "n", 1), check_int(B, "B", 1)
    Gamma = n // (2 * B) if Gamma is None else check_int(Gamma, "Gamma", 1)
    if Gamma * B > n:
        raise ParameterError("Gamma", f"Gamma B <= n = {n}: the data budget of Algorithm 3's stopping rule "
                             f"(B = {B}) exceeds the data", Gamma)
    if M is None:
        if Gamma < 8:
            raise ParameterError("n", f"n >= 16 B = {16 * B}: Algorithm 3 needs Gamma = floor(n/(2B)) >= 8 "
                                 "for a level M >= 0", n)
        M = int(math.floor(math.log2(Gamma))) - 3
    M = check_int(M, "M", 0)
    if 2 ** (M + 1) + 2 > Gamma:
        raise ParameterError("M", f"2^(M+1) + 2 <= Gamma = {Gamma}: otherwise not one step fits the budget", M)
    return Gamma, M


def paper_eta_algorithm3(epsilon, delta, L0, B, Gamma) -> float:
    """Proposition 3.17 (reconstructed): eta = eps B / (40 L0 sqrt(Gamma log(1/delta))), i.e. the
    per-vertex eps0 = 10 eta L0 / B equals eps / (4 sqrt(Gamma log(1/delta))), which admits 2 Gamma
    vertices in the fully adaptive filter (Theorem 3.5) when eps <= 8 log(1/delta)."""
    return epsilon * B / (PROP_3_17_CONSTANT * L0 * math.sqrt(Gamma * math.log(1.0 / delta)))


BALANCED_BATCH_CONSTANT = PROP_3_17_CONSTANT * math.sqrt(2.0)   # Theorem 3.14's B at which Prop 3.17's step equals the rate's step


def theorem_3_14_parameters(n: int, epsilon: float, delta: float, dx: int, dy: int, L0: float, L1: float,
                            L2: float = 0.0, *, batch_constant: float | None = None) -> dict:
    """(B, Gamma, M, step cap, L_tilde) of Theorem 3.14's recipe for Algorithm 3 (catalogue §2.3, [derived]).

    L_tilde^2 = L0^2 + (M+1) L1^2 ell + L2^2 (Lemma 3.15's second moment), ell = log dx + log dy, lambda = log(1/delta);
    B = ceil(c (L0 / L_tilde) sqrt((M+1) ell lambda) / eps) (>= 1), Gamma = floor(n/(2B)), M = floor(log2 Gamma) - 3
    (solved together: B and M depend on each other; a few fixed-point passes); the step is
    eta = min(sqrt(ell (M+1) / Gamma) / L_tilde, eta_priv), eta_priv Proposition 3.17's (pass ``step_cap`` to
    :func:`private_smd_bias_reduced`). ``batch_constant`` c: None takes c = 40 sqrt 2
    (``BALANCED_BATCH_CONSTANT``), the constant at which the two steps are equal when Gamma = n/(2B) (derived from
    Prop 3.17's 40: eta_priv = eps B^(3/2) sqrt 2 / (40 L0 sqrt(n lambda)) against sqrt(2 B ell (M+1) / n) / L_tilde);
    the recipe's "of order" leaves c open (docs/errata.md saddle_point-E10).
    """
    n = check_int(n, "n", 16)
    epsilon, delta = check_epsilon(epsilon), check_delta(delta)
    L0, L1 = check_positive(L0, "L0"), check_positive(L1, "L1")
    L2 = float(L2)
    if not (L2 >= 0 and math.isfinite(L2)):
        raise ParameterError("L2", "a finite L2 >= 0", L2)
    c = BALANCED_BATCH_CONSTANT if batch_constant is None else check_positive(batch_constant, "batch_constant")
    ell = max(math.log(dx) + math.log(dy), math.log(2.0))
    lam = math.log(1.0 / delta)
    B, seen = 1, set()
    while B not in seen:
        seen.add(B)
        Gamma = n // (2 * B)
        if Gamma < 8:
            raise ParameterError("n", f"n large enough for Theorem 3.14's batch (B = {B} leaves Gamma = {Gamma} < 8)", n)
        M = int(math.floor(math.log2(Gamma))) - 3
        L_tilde = math.sqrt(L0 ** 2 + (M + 1) * L1 ** 2 * ell + L2 ** 2)
        B = max(1, math.ceil(c * (L0 / L_tilde) * math.sqrt((M + 1) * ell * lam) / epsilon))
    Gamma = n // (2 * B)
    if Gamma < 8:
        raise ParameterError("n", f"n large enough for Theorem 3.14's batch (B = {B} leaves Gamma = {Gamma} < 8)", n)
    M = int(math.floor(math.log2(Gamma))) - 3
    L_tilde = math.sqrt(L0 ** 2 + (M + 1) * L1 ** 2 * ell + L2 ** 2)
    step_cap = math.sqrt(ell * (M + 1) / Gamma) / L_tilde
    return {"B": B, "Gamma": Gamma, "M": M, "L_tilde": L_tilde, "step_cap": step_cap,
            "eta_priv": paper_eta_algorithm3(epsilon, delta, L0, B, Gamma)}


def certified_eta_algorithm3(epsilon: float, delta: float, L0: float, B: int, Gamma: int) -> float:
    """Algorithm 3's certified step as a public function of its inputs (what ``private_smd_bias_reduced(...,
    calibration="certified")`` uses): the largest eta whose 2 Gamma vertex draws (the most its stopping rule allows,
    both players), each the exponential mechanism at eps0 = 2 eta (5 L0 / B) (Algorithm 2's sensitivity), the
    accountant certifies within (epsilon, delta). Gamma = floor(n / (2B)) (:func:`algorithm3_budget`), L0 the game's
    declared Lipschitz constant (``QuadraticSaddle(...).lipschitz``)."""
    epsilon, delta = check_epsilon(epsilon), check_delta(delta)
    L0, B, Gamma = check_positive(L0, "L0"), check_int(B, "B", 1), check_int(Gamma, "Gamma", 1)
    return _certified_step(epsilon, delta, algorithm3_sensitivity(L0, B), 2 * Gamma,
                           paper_eta_algorithm3(epsilon, delta, L0, B, Gamma))


def private_smd_bias_reduced(problem: QuadraticSaddle, epsilon: float, delta: float, rng, *, B: int,
                             Gamma: int | None = None, M: int | None = None, eta: float | None = None,
                             step_cap: float | None = None, calibration: str = "paper", x1=None, y1=None,
                             keep_iterates: bool = True) -> SaddlePointResult:
    """Algorithm 3 of ``saddle_point``: private SMD with bias-reduced sampling from vertices (§2.3).

    Claims: Proposition 3.17 (privacy), Theorem 3.14 (constant-probability gap), Lemma 3.15.
    [reconstructed] box with the catalogue's corrections: the stop decision for step t uses only
    N_1..N_{t-1} and the worst-case reserve 2^(M+1) + 2 (never the level about to be drawn);
    Gamma = floor(n/(2B)), M = floor(log2 Gamma) - 3. Each vertex is eps0 = 10 eta L0 / B private
    (Algorithm 2's sensitivity 5 L0 / B); a run draws at most 2 Gamma vertices.
    ``calibration="certified"``: the largest eta whose ledger of 2 Gamma such vertices the
    accountant certifies (the stopping time depends only on the data-independent levels).
    """
    _check_problem(problem)
    epsilon, delta = check_epsilon(epsilon), check_delta(delta)
    rng = check_rng(rng)
    n, L0 = problem.n, problem.lipschitz
    B = check_int(B, "B", 1)
    Gamma, M = algorithm3_budget(n, B, Gamma, M)
    _check_eps_range(epsilon, delta)
    sens = algorithm3_sensitivity(L0, B)
    if eta is not None:
        eta_priv, calibration = check_positive(eta, "eta"), "explicit"
    elif calibration == "paper":
        eta_priv = paper_eta_algorithm3(epsilon, delta, L0, B, Gamma)
    elif calibration == "certified":
        eta_priv = certified_eta_algorithm3(epsilon, delta, L0, B, Gamma)
    else:
        raise ParameterError("calibration", f"one of {CALIBRATIONS}", calibration)
    step = eta_priv if step_cap is None else min(eta_priv, check_positive(step_cap, "step_cap"))
    eps0 = 2.0 * step * sens
    ledger = Ledger()
    kw = dict(ledger=ledger, event=vertex_event(eps0, step * sens, "saddle_point Algorithm 3 vertex"))

    # Line 1: x_1, y_1 uniform; t = 1
    x, y = _starts(problem, x1, y1)
    xs, ys, out_x, out_y, levels = [], [], [], [], []
    spent, used = 0, 0
    reserve = 2 ** (M + 1) + 2
    # Line 2: while sum_{s<t} (2^(N_s+1) + 2) + (2^(M+1) + 2) <= Gamma
    while spent + reserve <= Gamma:
        t = len(levels) + 1
        if keep_iterates:
            xs.append(x)
            ys.append(y)
        # Line 3: sample N_t ~ TGeom(M)
        N = truncated_geometric(M, rng)
        # Line 4: a fresh batch S_t of B 2^(N_t+1) records
        size = B * 2 ** (N + 1)
        batch = np.arange(used, used + size)
        # Line 5: (g_x, g_y) = Algorithm 2(x_t, y_t, N_t, S_t)
        g = bias_reduced_gradient(problem, x, y, N, batch, M, rng, **kw)
        x_t, y_t = x, y
        # Line 6: x_{t+1} proportional to x_t exp(-eta g_x)
        x = entropic_step(x_t, g.gx, step)
        # Line 7: y_{t+1} proportional to y_t exp(+eta g_y)
        y = entropic_step(y_t, -g.gy, step)
        # Line 8: sample x_tilde_t ~ P_{x_t}, y_tilde_t ~ P_{y_t} (of the iterates before lines 6-7; the steps draw
        # nothing, so the draws come in the order line 5's, then line 8's)
        out_x.append(sample_vertices(x_t, 1, rng, **kw)[0])
        out_y.append(sample_vertices(y_t, 1, rng, **kw)[0])
        # Line 9: t = t + 1 (the budget spent: 2^(N_t+1) + 2 vertices per player)
        levels.append(N)
        spent += 2 ** (N + 1) + 2
        used += size
    # Line 10: tau = t - 1
    tau = len(levels)
    # Line 11: return the averages of the tau output vertices
    sx, sy = np.asarray(out_x, dtype=np.intp), np.asarray(out_y, dtype=np.intp)
    frozen = ledger.freeze()
    claimed = PROP_3_17_CONSTANT * L0 * step * math.sqrt(Gamma * math.log(1 / delta)) / B if calibration == "explicit" \
        else epsilon
    return SaddlePointResult(_vertex_mean(sx, problem.dx), _vertex_mean(sy, problem.dy),
                             np.array(xs) if keep_iterates else None, np.array(ys) if keep_iterates else None,
                             sx, sy, step, None, tau, B, calibration, epsilon, delta, eps0, len(frozen), claimed,
                             (eps0, step * sens, 2 * Gamma, delta), frozen, np.array(levels), used, tau, Gamma, M)


# ---------------------------------------------------------------------------
# Algorithm 5


@dataclass(frozen=True)
class SCOResult:
    """Output of Algorithm 5: the K-vertex sparsification x_hat of x_T (line 9), with x_T, the
    online-to-batch averages x_1..x_T and the learner's w_1..w_T when kept."""

    x: np.ndarray
    x_last: np.ndarray
    iterates_x: np.ndarray | None
    iterates_w: np.ndarray | None
    estimates: np.ndarray | None        # x_hat_1..x_hat_T (the points the gradients were taken at)
    eta: float
    K: int
    tau: int
    t0: int
    T: int
    calibration: str
    epsilon: float
    delta: float
    epsilon0: float
    n_samples: int
    claimed_epsilon: float
    certificate: tuple
    ledger: FrozenLedger

    @property
    def certified_epsilon(self) -> float:
        """What the accountant certifies at ``delta`` for the run's N draws (computed on first use)."""
        return _certify_homogeneous(*self.certificate)


def algorithm5_sample_count(K: int, T: int, tau: int, t0: int, *, rule: str = "loop") -> int:
    """Vertices Algorithm 5 draws: K at each of the first t0 steps, K every tau steps after, K for the output.

    ``rule="loop"``: what the loop draws, K (t0 + floor((T - t0) / tau) + 1) (refreshes at t = t0 + k tau);
    ``rule="catalogue"``: the catalogue's count K (t0 + ceil((T - t0) / tau) + 1) (Proof 4.4 as reconstructed),
    one refresh more when tau does not divide T - t0 (docs/errata.md saddle_point-E06). The paper
    calibration uses the catalogue's (larger, so conservative) count; the ledger holds the loop's draws.
    """
    if rule == "loop":
        return K * (t0 + (T - t0) // tau + 1)
    if rule == "catalogue":
        return K * (t0 + -(-(T - t0) // tau) + 1)
    raise ParameterError("rule", "'loop' or 'catalogue'", rule)


def paper_eta_algorithm5(epsilon, delta, L0, T, N) -> float:
    """Proposition 4.3 (reconstructed): eta = eps / (8 L0 T sqrt(2 N log(1/delta))), i.e. the per-vertex
    eps0 = 4 eta L0 T (alpha_T = T) equals Cor 3.6's eps / (2 sqrt(2 N log(1/delta)))."""
    return epsilon / (PROP_4_3_CONSTANT * L0 * T * math.sqrt(2.0 * N * math.log(1.0 / delta)))


STABILITY_CONSTANT = 8.0     # the 8 of the stability cap 1/(8 L0 tau T): a choice, the argument needs 4 (saddle_point-E07)


def theorem_4_2_parameters(n: int, epsilon: float, delta: float, d: int, L0: float, L1: float, *,
                           smoothness: str = "second", stability_constant: float = STABILITY_CONSTANT) -> dict:
    """(K, tau, t0, step caps) of Theorem 4.2's recipe for Algorithm 5 (catalogue §2.5, [derived], constants 1).

    ell = log d, lambda = log(1/delta). ``second`` (second-order smooth): K = floor(sqrt(n eps) / lambda^(1/4)),
    tau = ceil((L0/L1) K sqrt(lambda) / eps); ``first``: K = ceil((L1/L0)^(6/5) (n eps)^(4/5) / (ell^(7/5)
    lambda^(2/5))), tau = ceil((L0/L1)^(1/2) ell^(1/4) K^(3/4) sqrt(lambda) / eps). t0 = ceil(n / tau); the step is
    min(eta_priv, 1/(c L0 tau n), sqrt(ell) / (L0 n^(3/2))) with eta_priv Proposition 4.3's and c the stability
    constant (8 as reconstructed; pass ``step_cap`` = sqrt(ell)/(L0 n^(3/2)) to :func:`private_sco_anytime`).
    """
    n = check_int(n, "n", 2)
    epsilon, delta = check_epsilon(epsilon), check_delta(delta)
    L0, L1 = check_positive(L0, "L0"), check_positive(L1, "L1")
    ell, lam = max(math.log(d), math.log(2.0)), math.log(1.0 / delta)
    if smoothness == "second":
        K = max(1, int(math.sqrt(n * epsilon) / lam ** 0.25))
        tau = max(1, math.ceil((L0 / L1) * K * math.sqrt(lam) / epsilon))
    elif smoothness == "first":
        K = max(1, math.ceil((L1 / L0) ** 1.2 * (n * epsilon) ** 0.8 / (ell ** 1.4 * lam ** 0.4)))
        tau = max(1, math.ceil(math.sqrt(L0 / L1) * ell ** 0.25 * K ** 0.75 * math.sqrt(lam) / epsilon))
    else:
        raise ParameterError("smoothness", "'second' or 'first'", smoothness)
    tau = min(tau, n)
    t0 = math.ceil(n / tau)
    N = algorithm5_sample_count(K, n, tau, t0, rule="catalogue")
    return {"K": K, "tau": tau, "t0": t0, "eta_priv": paper_eta_algorithm5(epsilon, delta, L0, n, N),
            "stability_cap": 1.0 / (check_positive(stability_constant, "stability_constant") * L0 * tau * n),
            "step_cap": math.sqrt(ell) / (L0 * n ** 1.5)}


def certified_eta_algorithm5(epsilon: float, delta: float, L0: float, T: int, K: int, tau: int,
                             t0: int | None = None) -> float:
    """Algorithm 5's certified private step as a public function of its inputs (what ``private_sco_anytime(...,
    calibration="certified")`` uses before the stability cap): the largest eta whose N =
    :func:`algorithm5_sample_count` (K, T, tau, t0) vertex draws (the loop's count), each the exponential mechanism
    at eps0 = 2 eta (2 L0 T), the accountant certifies within (epsilon, delta). T = n (one record a step), t0 =
    ceil(T / tau) by default, L0 = ``SimplexLeastSquares(a, b).lipschitz``. The step the run takes is
    min(this, 1 / (8 L0 tau T)) (:data:`STABILITY_CONSTANT`, saddle_point-E07)."""
    epsilon, delta = check_epsilon(epsilon), check_delta(delta)
    L0, T = check_positive(L0, "L0"), check_int(T, "T", 1)
    K, tau = check_int(K, "K", 1), check_int(tau, "tau", 1)
    t0 = math.ceil(T / tau) if t0 is None else check_int(t0, "t0", 1)
    N = algorithm5_sample_count(K, T, tau, t0)
    return _certified_step(epsilon, delta, algorithm5_sensitivity(L0, T), N,
                           paper_eta_algorithm5(epsilon, delta, L0, T, N))


def private_sco_anytime(problem: SimplexLeastSquares, epsilon: float, delta: float, rng, *, K: int, tau: int,
                        t0: int | None = None, eta: float | None = None, step_cap: float | None = None,
                        calibration: str = "paper", keep_iterates: bool = True,
                        stability_constant: float = STABILITY_CONSTANT) -> SCOResult:
    """Algorithm 5 of ``saddle_point``: DP-SCO by entropic MD with anytime online-to-batch (§2.5, §4).

    Claims: Proposition 4.3 (privacy), Theorem 4.2 (rates), Lemma 4.1. [reconstructed] box: T = n
    steps, one record per step, weights alpha_t = t, A_t = t(t+1)/2; the private estimate x_hat is
    refreshed (K vertices from P_{x_t}) at every step t <= t0 and every tau steps after (t0
    default ceil(n / tau)), otherwise reused (stale); the learner w plays exponentiated gradient on
    alpha_t <g_t, .>; x_{t+1} = (A_t x_t + alpha_{t+1} w_{t+1}) / A_{t+1}; K vertices of x_T make the
    output. Each vertex is eps0 = 4 eta L0 T private (alpha_T = T bounds every weight).
    The step is min(eta_priv, 1/(c L0 tau T), step_cap) (the stability constraint of §2.5), c =
    ``stability_constant``: 8 as reconstructed, a choice twice as strict as the argument needs (4: then
    2 eta sum_{s=t'}^{t-1} alpha_s ||g_s - g_hat_s||_inf <= 1 still holds; docs/errata.md saddle_point-E07).
    """
    if not isinstance(problem, SimplexLeastSquares):
        raise ParameterError("problem", "a SimplexLeastSquares", type(problem).__name__)
    epsilon, delta = check_epsilon(epsilon), check_delta(delta)
    rng = check_rng(rng)
    K, tau = check_int(K, "K", 1), check_int(tau, "tau", 1)
    T, L0, d = problem.n, problem.lipschitz, problem.d
    t0 = math.ceil(T / tau) if t0 is None else check_int(t0, "t0", 1)      # x_hat_1 is drawn at t = 1
    if t0 > T:
        raise ParameterError("t0", f"t0 <= T = n = {T}", t0)
    _check_eps_range(epsilon, delta)
    N = algorithm5_sample_count(K, T, tau, t0)
    N_paper = algorithm5_sample_count(K, T, tau, t0, rule="catalogue")
    sens = algorithm5_sensitivity(L0, T)    # ||G_s - G_s'||_inf <= 2 L0 alpha_r <= 2 L0 T
    if eta is not None:
        eta_priv, calibration = check_positive(eta, "eta"), "explicit"
    elif calibration == "paper":
        eta_priv = paper_eta_algorithm5(epsilon, delta, L0, T, N_paper)
    elif calibration == "certified":
        eta_priv = certified_eta_algorithm5(epsilon, delta, L0, T, K, tau, t0)
    else:
        raise ParameterError("calibration", f"one of {CALIBRATIONS}", calibration)
    step = min(eta_priv, 1.0 / (check_positive(stability_constant, "stability_constant") * L0 * tau * T))
    if step_cap is not None:
        step = min(step, check_positive(step_cap, "step_cap"))
    eps0 = 2.0 * step * sens
    ledger = Ledger()
    kw = dict(ledger=ledger, event=vertex_event(eps0, step * sens, "saddle_point Algorithm 5 vertex"))

    # Line 1: w_1 = uniform, x_1 = w_1, A_1 = alpha_1 = 1
    w = np.full(d, 1.0 / d)
    x = w.copy()
    A = 1.0
    xs, ws, hats = [], [], []
    x_hat = None
    for t in range(1, T + 1):
        # x_T, the point line 9 sparsifies: the x_t the loop's last round starts from (x_T of the paper), not the
        # x_(T+1) its update would give
        x_T = x
        if keep_iterates:
            xs.append(x)
            ws.append(w)
        alpha = float(t)
        # Line 3: refresh the private estimate at t <= t0 and every tau steps after
        if t <= t0 or (t - t0) % tau == 0:
            x_hat = _vertex_mean(sample_vertices(x, K, rng, **kw), d)
        # Line 4: otherwise x_hat_t = x_hat_{t-1} (stale)
        # Line 5: g_t = grad f(x_hat_t; z_t)
        g = problem.record_gradient(x_hat, t - 1)
        _check_gradient(g, L0, f"Algorithm 5 line 5, t={t}")
        if keep_iterates:
            hats.append(x_hat)
        # Line 6: w_{t+1} proportional to w_t exp(-eta alpha_t g_t)
        w = entropic_step(w, alpha * g, step)
        # Line 7: A_{t+1} = A_t + alpha_{t+1}; x_{t+1} = (A_t x_t + alpha_{t+1} w_{t+1}) / A_{t+1}
        A_next = A + (t + 1)
        x = (A * x + (t + 1) * w) / A_next
        A = A_next
    # Line 9: K vertices of x_T sparsify the output
    out = _vertex_mean(sample_vertices(x_T, K, rng, **kw), d)
    frozen = ledger.freeze()
    claimed = PROP_4_3_CONSTANT * L0 * T * step * math.sqrt(2 * N_paper * math.log(1 / delta)) \
        if calibration == "explicit" \
        else epsilon
    return SCOResult(out, x_T, np.array(xs) if keep_iterates else None, np.array(ws) if keep_iterates else None,
                     np.array(hats) if keep_iterates else None, step, K, tau, t0, T, calibration, epsilon, delta,
                     eps0, N, claimed, (eps0, step * sens, N, delta), frozen)


# ---------------------------------------------------------------------------
# Algorithm 4


@dataclass(frozen=True)
class BoostingResult:
    """Output (x_{i*}, y_{i*}) of Algorithm 4 with its evidence.

    ``candidates``: the k pairs (x_i, y_i) from Algorithm 3; ``scores``: s_i (line 8);
    ``selection_log_probabilities``: the exponential mechanism's law over i (line 10);
    ``parts``: the record indices of every part (line 2): ``("alg3", i)``, ``("fw_y", i, j)``,
    ``("fw_x", i, j)``, ``("holdout",)``; ``part_ledgers``: each part's ledger (parallel composition:
    ``certified_epsilon`` is the largest part's certificate).
    """

    x: np.ndarray
    y: np.ndarray
    index: int
    candidates: tuple
    y_hats: tuple                           # y_hat_ij (line 6), per candidate
    x_hats: tuple                           # x_hat_ij (line 6), per candidate
    scores: np.ndarray
    selection_log_probabilities: np.ndarray
    score_sensitivity: float
    range_bound: float
    parts: dict
    part_ledgers: dict
    k: int
    k_prime: int
    calibration: str
    epsilon: float
    delta: float
    claimed_epsilon: float
    certified_epsilon: float


def _subproblem(problem: QuadraticSaddle, idx: np.ndarray) -> QuadraticSaddle:
    """The same game on the records idx (same atoms, population law and declared L0)."""
    return QuadraticSaddle(problem.atoms, problem.data[idx], P=problem.P, R=problem.R, u=problem.u, v=problem.v,
                           weights=problem.weights, lipschitz=problem.lipschitz)


def _range_sup(problem: QuadraticSaddle) -> float:
    """A bound on |f(x, y; z)| over the simplices and the atoms: max|A| + (max|P| + max|R|)/2 + max|u| + max|v|."""
    return float(np.abs(problem.atoms).max() + 0.5 * (np.abs(problem.P).max() + np.abs(problem.R).max())
                 + np.abs(problem.u).max() + np.abs(problem.v).max())


def boosting_scores(problem: QuadraticSaddle, candidates, y_hats, x_hats, holdout) -> np.ndarray:
    """Line 8: s_i = max_j F_{S''}(x_i, y_hat_ij) - min_j F_{S''}(x_hat_ij, y_i) on the held-out records."""
    A, u, v = problem.batch_mean(np.asarray(holdout, dtype=np.intp))

    def F(x, y):
        return float(x @ A @ y + 0.5 * x @ problem.P @ x - 0.5 * y @ problem.R @ y + u @ x - v @ y)

    return np.array([max(F(x, yh) for yh in y_hats[i]) - min(F(xh, y) for xh in x_hats[i])
                     for i, (x, y) in enumerate(candidates)])


def boosting_counts(beta: float) -> tuple[int, int]:
    """Line 1 of Algorithm 4: k = ceil(log2(4/beta)) candidates, k' = ceil(log2(8k/beta)) Frank-Wolfe runs per
    maximisation (what ``private_boosted_saddle_point`` computes when k, k_prime are not given)."""
    beta = check_probability(beta, "beta")
    k = math.ceil(math.log2(4.0 / beta))
    return k, math.ceil(math.log2(8.0 * k / beta))


def boosting_part_sizes(n: int, k: int, k_prime: int) -> tuple[int, int, int]:
    """Line 2's split (the reconstruction's layout, saddle_point A10): (n // (3k) records per Algorithm 3 part,
    n // (6 k k') per Frank-Wolfe part, m = the rest, held out for the scores). Raises when a part is empty."""
    n, k, kp = check_int(n, "n", 1), check_int(k, "k", 1), check_int(k_prime, "k_prime", 1)
    size3, size_fw = n // (3 * k), n // (6 * k * kp)
    if size3 < 1 or size_fw < 1:
        raise ParameterError("n", f"n >= 6 k k' = {6 * k * kp} records for Algorithm 4's split", n)
    return size3, size_fw, n - k * size3 - 2 * k * kp * size_fw


def boosting_score_sensitivity(L0: float, size_fw: int) -> float:
    """The score sensitivity of Algorithm 4's private Frank-Wolfe selections (line 6): a linear score over size_fw
    records with l_inf gradient bound L0 moves by at most 2 L0 / size_fw when one record is replaced. The one source
    of the certified scale and the selections' ledger events."""
    return 2.0 * L0 / size_fw


def boosting_noise_scale(L0: float, size_fw: int, fw_T: int, epsilon: float, delta: float,
                         calibration: str = "certified") -> float:
    """The Laplace scale lambda of Algorithm 4's private Frank-Wolfe runs (line 6; saddle_point-E09: lasso Algorithm
    2 over the simplex's vertices, score sensitivity 2 L0 / size_fw): ``"paper"`` lasso's printed L0 sqrt(8 fw_T
    log(1/delta)) / (size_fw epsilon) (||C||_1 = 1), ``"certified"`` the accountant's smallest scale for the fw_T - 1
    report-noisy-min steps (``frank_wolfe.certified_laplace_scale(2 L0 / size_fw, fw_T, epsilon, delta)``)."""
    L0, size_fw = check_positive(L0, "L0"), check_int(size_fw, "size_fw", 1)
    if calibration == "paper":
        return fw.paper_laplace_scale(L0, 1.0, fw_T, size_fw, epsilon, delta)
    if calibration == "certified":
        return fw.certified_laplace_scale(boosting_score_sensitivity(L0, size_fw), fw_T, epsilon, delta)
    raise ParameterError("calibration", f"one of {CALIBRATIONS}", calibration)


def private_boosted_saddle_point(problem: QuadraticSaddle, epsilon: float, delta: float, rng, *, beta: float,
                                 B: int, fw_T: int = 8, range_bound: float | None = None, k: int | None = None,
                                 k_prime: int | None = None, calibration: str = "paper") -> BoostingResult:
    """Algorithm 4 of ``saddle_point``: high-probability boosting (§3, Theorem 3.20; [reconstructed] box).

    Claims: Theorem 3.20 (privacy by parallel composition; the exponential-mechanism selection),
    Theorem 3.24 (its utility). k = ceil(log2(4/beta)) candidates from Algorithm 3 on disjoint thirds of the
    data; for each, k' = ceil(log2(8k/beta)) private Frank-Wolfe runs per maximisation on fresh records
    estimate the two halves of its gap; held-out records S'' (m of them) score the candidates; the
    exponential mechanism with sensitivity 4 B0 / m selects one.

    Deviation (docs/errata.md saddle_point-E09): the gap estimates use the package's private Frank-Wolfe
    over the simplex's vertices (lasso Algorithm 2 / Talwar-Thakurta-Zhang, Laplace report-noisy-min,
    ``fw_T`` steps, score sensitivity 2 L0 / |part|), not AFKT21's variance-reduced Frank-Wolfe (not
    implemented). ``calibration`` sets both Algorithm 3's step and the Frank-Wolfe noise ("paper": lasso's
    printed scale; "certified": the accountant's).
    """
    _check_problem(problem)
    if not isinstance(problem, QuadraticSaddle):
        raise ParameterError("problem", "a QuadraticSaddle (Algorithm 4 evaluates F on held-out records)",
                             type(problem).__name__)
    epsilon, delta = check_epsilon(epsilon), check_delta(delta)
    beta = check_probability(beta, "beta")
    rng = check_rng(rng)
    fw_T = check_int(fw_T, "fw_T", 2)
    if calibration not in CALIBRATIONS:
        raise ParameterError("calibration", f"one of {CALIBRATIONS}", calibration)
    B0 = _range_sup(problem)
    if range_bound is not None:
        range_bound = check_positive(range_bound, "range_bound")
        if B0 > range_bound * (1 + LIPSCHITZ_RTOL):
            raise AssumptionViolation("|f(x, y; z)| <= B0 on the simplices (Theorem 3.20's boundedness)",
                                      f"the data reach {B0:.6g} > declared B0 = {range_bound:.6g}")
        B0 = range_bound
    n, L0 = problem.n, problem.lipschitz
    # Line 1: k = ceil(log2(4/beta)) candidates, k' = ceil(log2(8k/beta)) Frank-Wolfe runs per maximisation
    k = boosting_counts(beta)[0] if k is None else check_int(k, "k", 1)
    kp = math.ceil(math.log2(8.0 * k / beta)) if k_prime is None else check_int(k_prime, "k_prime", 1)
    # Line 2: split S into disjoint parts: k thirds for Algorithm 3, 2 k k' sixths for Frank-Wolfe, S''
    size3, size_fw, _ = boosting_part_sizes(n, k, kp)
    parts, start = {}, 0
    for i in range(k):
        parts[("alg3", i)] = np.arange(start, start + size3)
        start += size3
    for i in range(k):
        for j in range(kp):
            for side in ("fw_y", "fw_x"):
                parts[(side, i, j)] = np.arange(start, start + size_fw)
                start += size_fw
    parts[("holdout",)] = np.arange(start, n)
    m = n - start
    ledgers: dict = {}
    candidates, y_hats, x_hats = [], [], []
    sens_fw = boosting_score_sensitivity(L0, size_fw)
    lam = boosting_noise_scale(L0, size_fw, fw_T, epsilon, delta, calibration)
    vertices_y, vertices_x = np.eye(problem.dy), np.eye(problem.dx)
    for i in range(k):
        # Line 5: (x_i, y_i) = Algorithm 3 on S_i
        res = private_smd_bias_reduced(_subproblem(problem, parts[("alg3", i)]), epsilon, delta, rng, B=B,
                                       calibration=calibration, keep_iterates=False)
        ledgers[("alg3", i)] = res.ledger
        x_i, y_i = res.x, res.y
        candidates.append((x_i, y_i))
        # Line 6: Frank-Wolfe maximising F(x_i, .) and minimising F(., y_i) on fresh parts, k' times each
        yh, xh = [], []
        for j in range(kp):
            A, u, v = problem.batch_mean(parts[("fw_y", i, j)])
            grad_y = lambda y, A=A, v=v, x_i=x_i: -(A.T @ x_i - problem.R @ y - v)          # minimise -F(x_i, .)
            r = fw.private_frank_wolfe_polytope(grad_y, vertices_y, np.full(problem.dy, 1.0 / problem.dy), fw_T,
                                                noise_scale=lam, score_sensitivity=sens_fw, rng=rng,
                                                keep_iterates=False, label="saddle_point Algorithm 4 line 6 (y)")
            ledgers[("fw_y", i, j)] = r.ledger
            yh.append(r.theta)
            A, u, v = problem.batch_mean(parts[("fw_x", i, j)])
            grad_x = lambda x, A=A, u=u, y_i=y_i: A @ y_i + problem.P @ x + u                 # minimise F(., y_i)
            r = fw.private_frank_wolfe_polytope(grad_x, vertices_x, np.full(problem.dx, 1.0 / problem.dx), fw_T,
                                                noise_scale=lam, score_sensitivity=sens_fw, rng=rng,
                                                keep_iterates=False, label="saddle_point Algorithm 4 line 6 (x)")
            ledgers[("fw_x", i, j)] = r.ledger
            xh.append(r.theta)
        y_hats.append(yh)
        x_hats.append(xh)
    # Line 8: s_i = max_j F_{S''}(x_i, y_hat_ij) - min_j F_{S''}(x_hat_ij, y_i)
    scores = boosting_scores(problem, candidates, y_hats, x_hats, parts[("holdout",)])
    # Line 9: the sensitivity of s w.r.t. S'': 4 B0 / m
    sens_s = 4.0 * B0 / m
    # Line 10: sample i* with probability proportional to exp(-eps s_i / (2 Delta_s))
    ledger = Ledger()
    logp = exponential_mechanism_log_probabilities(-scores, sens_s, epsilon)
    i_star = exponential_mechanism(-scores, sens_s, epsilon, rng, ledger=ledger,
                                   label="saddle_point Algorithm 4 line 10")
    ledgers[("holdout",)] = ledger.freeze()
    # Line 11: return (x_{i*}, y_{i*})
    # what the accountant certifies for each part's ledger (fw.certified_epsilon: certify, cached on the events,
    # which every run of the same inputs repeats)
    certified = max(fw.certified_epsilon(L, delta) for L in ledgers.values() if len(L))
    return BoostingResult(candidates[i_star][0], candidates[i_star][1], int(i_star), tuple(candidates),
                          tuple(map(tuple, y_hats)), tuple(map(tuple, x_hats)), scores, logp, sens_s, B0, parts,
                          ledgers, k, kp, calibration, epsilon, delta, epsilon, certified)


# ---------------------------------------------------------------------------
# Section 2: Maurey sparsification, exactly


def vertex_average_expectation(func: Callable[[np.ndarray], np.ndarray], x, K: int):
    """E func(x_tilde), x_tilde = (1/K) sum_k e_{J_k}, J_k i.i.d. ~ x: exact, by enumerating the
    multinomial counts (d + K - 1 choose K terms). Used by the Maurey lemmas of §2 (Lemma 2.1,
    Cor 2.3 / 2.4 / 2.6) and the telescoping of Algorithm 2 (Lemma 3.15)."""
    x = check_simplex(x, "x")
    K = check_int(K, "K", 1)
    d = x.size
    total = None
    logfact = [math.lgamma(i + 1) for i in range(K + 1)]
    for cut in itertools.combinations(range(K + d - 1), d - 1):
        counts = np.diff(np.r_[-1, cut, K + d - 1]) - 1
        with np.errstate(divide="ignore"):
            logp = logfact[K] - sum(logfact[c] for c in counts) + float(np.sum(counts * np.log(np.where(counts > 0, x, 1.0))))
        if np.any((counts > 0) & (x == 0)):
            continue
        term = math.exp(logp) * np.asarray(func(counts / K), dtype=float)
        total = term if total is None else total + term
    return total


# ---------------------------------------------------------------------------
# Registry

ALGORITHMS = (
    Algorithm("saddle_point", "Algorithm 1", "Private stochastic mirror descent with sampling from vertices",
              "reference.algorithms.saddle_point:private_smd_vertices", "§2.1 (reconstructed box)"),
    Algorithm("saddle_point", "Algorithm 2", "Bias-reduced gradient oracle (truncated geometric level)",
              "reference.algorithms.saddle_point:bias_reduced_gradient", "§2.2 (reconstructed box)"),
    Algorithm("saddle_point", "Algorithm 3", "Private SMD with bias-reduced sampling from vertices (random stopping)",
              "reference.algorithms.saddle_point:private_smd_bias_reduced", "§2.3 (reconstructed box)"),
    Algorithm("saddle_point", "Algorithm 4", "High-probability boosting: private gap estimates and exponential-mechanism "
              "selection", "reference.algorithms.saddle_point:private_boosted_saddle_point", "§3 (reconstructed box)"),
    Algorithm("saddle_point", "Algorithm 5", "DP-SCO by entropic mirror descent with anytime online-to-batch",
              "reference.algorithms.saddle_point:private_sco_anytime", "§2.5 / §4 (reconstructed box)"),
)

_CAT = "reconstruction: docs/errata.md saddle_point-E01"

CLAIMS = (
    Claim("saddle_point:Algorithm 1 lines", "invariant",
          "Algorithm 1 takes T disjoint batches of floor(n/T) records in one pass, evaluates each batch gradient at "
          "the means of K sampled vertices, and moves x by the entropic descent step and y by the ascent step; "
          "the output is the average of T sampled vertices per player (on a sample-free game the iterates "
          "equal softmax(-eta sum of batch gradients)).",
          f"seed Lemma 3.8 ('line 5', 'line 6'), Proof 3.7; {_CAT}", "reconstructed"),
    Claim("saddle_point:Vertex sampling law", "invariant",
          "A vertex drawn from P_x is e_j with probability x_j; the vertices Algorithms 1 and 3 output are drawn "
          "from the current iterates (randomized probability integral transform of a whole run is uniform).",
          "seed §1 notation ('P_x', 'E x_tilde = x')", "seed"),
    Claim("saddle_point:Theorem 3.4", "privacy",
          "The law of a vertex drawn from the entropic iterate x_t = softmax(-eta G_t) is the exponential mechanism "
          "with scores -G_t at epsilon 2 eta Delta: its log-probabilities move by at most 2 eta ||G_t - G'_t||_inf "
          "between neighbours.",
          f"Dwork-Roth Thm 3.10, as used in seed Proof 3.7; {_CAT}", "source"),
    Claim("saddle_point:Proposition 3.3 per-vertex", "privacy",
          "In Algorithm 1 each sampled vertex is eps0-DP given the past with eps0 = 4 eta L0 / B (one batch moves "
          "the cumulative gradient by 2 L0 / B in l_inf); on a worst-case pair the exact log-ratio reaches 0.99 eps0.",
          f"seed Proof 3.7 ('By L0-Lipschitzness ... Delta <= ...'); {_CAT}", "reconstructed"),
    Claim("saddle_point:Proposition 3.3", "privacy",
          "Algorithm 1 with eta = eps B / (16 L0 sqrt((K+1) T log(1/delta))) is (eps, delta)-DP: its ledger holds "
          "N = 2(K+1)T vertex draws of eps0 = eps / (2 sqrt(2 N log(1/delta))) each, which Corollary 3.6 (and the "
          "package's accountant) compose within (eps, delta) when eps <= 8 log(1/delta).",
          f"§3 Proposition 3.3 (constant lost in the seed); {_CAT}, -E04", "reconstructed"),
    Claim("saddle_point:Corollary 3.6", "constant",
          "k eps0-DP steps with eps0 = eps / (2 sqrt(2 k log(1/delta))) compose to (eps, delta)-DP by the bound "
          "sqrt(2 k log(1/delta)) eps0 + k eps0^2 / 2 <= eps exactly when eps <= 8 log(1/delta).",
          f"§3 Corollary 3.6 (second condition lost in the seed); {_CAT}", "reconstructed"),
    Claim("saddle_point:Algorithm 2 estimator", "invariant",
          "Algorithm 2 returns G^0 + (1/p_N)(G^+ - (G^O + G^E)/2) with p_N = C_M 2^-N, the four gradients on one "
          "fresh batch of B 2^(N+1) records at the means of 1, 2^(N+1) and the two halves of the vertices.",
          f"sibling GGKKM24 Alg. 3 transplanted; {_CAT}", "reconstructed"),
    Claim("saddle_point:Lemma 3.15", "utility",
          "The bias-reduced estimator telescopes: E g = E grad F(x_hat, y_hat) with 2^(M+1) vertices, so its bias is "
          "at most 2 L2 / 2^(M+1) per simplex and 4 L2 / 2^(M+1) for the joint (x, y) sampling (checked with "
          "closed-form expectations on a separable cubic and on a non-separable game with record-dependent curvature) "
          "while it draws only about M + 1 vertices per step.",
          f"seed ('the expected bias is roughly the same as if we were sampling 2^(M+1) times'); {_CAT}",
          "reconstructed"),
    Claim("saddle_point:Algorithm 2 sensitivity", "sensitivity",
          "Replacing one record of Algorithm 2's batch (size B 2^(N+1)) moves its output by at most "
          "(2^-N + 2 / C_M) L0 / B <= 5 L0 / B in l_inf, at every level N, for the same vertex draws.",
          f"§3 Proposition 3.17's proof; {_CAT}", "derived"),
    Claim("saddle_point:Algorithm 3 stopping rule", "invariant",
          "Algorithm 3 decides whether to run step t from N_1..N_(t-1) and the worst-case reserve 2^(M+1) + 2 only; "
          "with Gamma = floor(n/(2B)), M = floor(log2 Gamma) - 3 every run uses at most n/2 records (proofs/: the rule's "
          "arithmetic for every n, B with Gamma >= 8, i.e. M >= 0, the only case the package accepts, by induction over "
          "a run's steps; that the package's runs follow the rule: tests/).",
          "seed Proof 3.19; docs/errata.md saddle_point-E03", "reconstructed"),
    Claim("saddle_point:Proposition 3.17", "privacy",
          "Every run of Algorithm 3 at eta = eps B / (40 L0 sqrt(Gamma log(1/delta))) draws at most 2 Gamma vertices of "
          "eps0 = 10 eta L0 / B each, and its ledger replayed through the fully adaptive filter (Theorem 3.5) at "
          "(eps, delta) is never stopped when eps <= 8 log(1/delta) (Corollary 3.6's condition: at 2 Gamma draws the "
          "filter's expression is eps/2 + eps^2/(16 log(1/delta)); proved for every parameter).",
          f"§3 Proposition 3.17 (constant lost in the seed); {_CAT}, -E03", "reconstructed"),
    Claim("saddle_point:Theorem 3.5", "accounting",
          "The fully adaptive composition filter never admits a sequence of adaptively chosen per-step epsilons whose "
          "composition sqrt(2 log(1/delta) sum eps_i^2) + sum eps_i^2 / 2 exceeds its budget, and stops only when the "
          "next step would.",
          "Whitehouse-Ramdas-Rogers-Wu 2023; sibling GGKKM24 Thm A.4", "source"),
    Claim("saddle_point:Truncated geometric level", "constant",
          "The levels N_t drawn in Algorithm 3 follow TGeom(M): P(N = k) = C_M 2^-k, C_M = 1/(2(1 - 2^-(M+1))).",
          "sibling GGKKM24 Def. 5.1 (Ghazi-Guzman-Kamath-Kumar-Manurangsi 2024, assumed identical here); seed "
          "('truncated geometric ... normalizing constant')", "sibling"),
    Claim("saddle_point:Proposition 4.3", "privacy",
          "Algorithm 5 with eta = eps / (8 L0 T sqrt(2 N log(1/delta))), N = K (t0 + ceil((T - t0)/tau) + 1), records "
          "at most N vertex draws of eps0 = 4 eta L0 T (the loop draws K (t0 + floor((T - t0)/tau) + 1)), which compose "
          "within (eps, delta) when eps <= 8 log(1/delta) (Corollary 3.6's condition; proved for every parameter); every "
          "draw's exact log-ratio between neighbours is at most eps0.",
          f"§4 Proposition 4.3 and Proof 4.4 (constants lost in the seed); {_CAT}, -E06, -E07", "reconstructed"),
    Claim("saddle_point:Lemma 4.1", "invariant",
          "Algorithm 5's averages are the anytime online-to-batch weights x_t = sum_s s w_s / (t (t+1)/2), and "
          "A_T (F(x_T) - F(u)) <= sum_t t <grad F(x_t), w_t - u> for every u (Cutkosky 2019).",
          f"§4 Lemma 4.1 (Cutkosky 2019, anytime online-to-batch); {_CAT}", "reconstructed"),
    Claim("saddle_point:Duality gap", "invariant",
          "The duality gap of eq. (2) is >= 0, is 0 at the linear-programming solution of a matrix game and at the "
          "known saddle point of a convex-concave quadratic, and bounds max_y F(x, y) - value.",
          f"§1 eq. (2) (the duality gap; its formula is blank in the seed, the standard strong gap is taken); {_CAT}",
          "reconstructed"),
    Claim("saddle_point:Theorem 3.1 (7)", "utility",
          "For bilinear games (L2 = 0) Algorithm 1 with K = 1, B ~ sqrt(log d log(1/delta))/eps, T = n/B has expected "
          "duality gap decaying like n^(-1/2) (fitted exponent excludes the first-order rate's -1/3).",
          f"§3 Theorem 3.1 eq. (7); arXiv v1/v2 abstracts (rate); recipe: docs/errata.md saddle_point-E05", "derived"),
    Claim("saddle_point:Lemma 2.1", "constant",
          "For f L1-smooth w.r.t. a norm, deterministic x^1..x^K and independent x~^k with E x~^k = x^k: |E f(x~) - "
          "f(x_bar)| <= (L1 / (2 K^2)) sum_k E||x~^k - x^k||^2 (averages x~, x_bar); exact on finite laws with "
          "different means (l2 and l1 with vertex sampling), with equality for f = +-(L1/2)||z||_2^2, where the "
          "constant 1/4 fails.",
          f"seed Lemma 2.1 proof skeleton (telescoping, martingale differences, -f smooth); {_CAT}", "reconstructed"),
    Claim("saddle_point:Corollary 2.3", "constant",
          "Maurey with function values on the simplex: |E f(x_tilde) - f(x_bar)| <= (L1 / (2 K^2)) sum_k E||x_tilde^k - "
          "x^k||_1^2 <= 2 L1 / K for L1-smooth f, with equality (1/(2K))(sum_j x_j Q_jj - x^T Q x) for quadratics.",
          f"seed Lemma 2.1 proof skeleton; {_CAT}", "reconstructed"),
    Claim("saddle_point:Corollary 2.4", "constant",
          "For second-order smooth f the vertex-average gradient bias is at most 2 L2 / K, exactly proportional to "
          "1/K for a cubic.",
          f"§2 Corollary 2.4 (constant lost in the seed); {_CAT}", "reconstructed"),
    Claim("saddle_point:Corollary 2.6", "constant",
          "For L1-smooth f the vertex-average gradient bias is at most 4 L1 / sqrt(K), and the order 1/sqrt(K) is "
          "attained by f = (1/2) sum_j (x_j - 1/2)_+^2.",
          f"§2 Corollary 2.6 (constant lost in the seed); {_CAT}", "reconstructed"),
    Claim("saddle_point:Algorithm 4 split", "invariant",
          "Algorithm 4 splits the records into k disjoint parts of n/(3k) for Algorithm 3, 2 k k' of n/(6kk') for the "
          "Frank-Wolfe gap estimates and a held-out rest of at least n/3, k = ceil(log2(4/beta)), k' = ceil(log2(8k/beta)).",
          f"seed Proofs 3.21, 3.25 ('parallel composition', 'steps 5, 6, 10'); {_CAT}", "reconstructed"),
    Claim("saddle_point:Theorem 3.20", "utility",
          "With probability >= 1 - beta, Algorithm 4's selected candidate has Gap(x_i*, y_i*) <= min_i Gap(x_i, y_i) + "
          "alpha_3 + e_i* + 4 alpha_2 (Proof 3.25's chain): alpha_3 = (2 Delta_s/eps)(log k + log(4/beta)), alpha_2 the "
          "held-out deviation (within Hoeffding's B0 sqrt(2 log(8kk'/beta)/m)), e_i* the gap estimates' error measured "
          "exactly in place of 4 R_FW (PVRFW is not implemented, saddle_point-E09); uniform selection fails it. The "
          "alpha_4 part is Theorem 3.14's.",
          f"§3 Theorem 3.20, Proof 3.25, Theorem 3.24; {_CAT}, -E09", "reconstructed"),
    Claim("saddle_point:Theorem 3.20 selection", "privacy",
          "Algorithm 4 selects candidate i with probability proportional to exp(-eps s_i / (2 Delta_s)), Delta_s = 4 B0 / m; "
          "replacing a held-out record moves every score by at most Delta_s and every log-probability by at most eps; "
          "the run is as private as its worst part (parallel composition).",
          f"§3 Theorem 3.20, Proof 3.21; Dwork-Roth Thm 3.10; {_CAT}", "reconstructed"),
    Claim("saddle_point:Theorem 3.24", "utility",
          "The exponential mechanism's selection satisfies Pr[s_(i*) >= min_i s_i + (2 Delta/eps)(log k + t)] <= e^-t.",
          "§3 Theorem 3.24 (Dwork-Roth Thm 3.11)", "source"),
    Claim("saddle_point:Lemma 3.8", "utility",
          "On every path of Algorithm 1, Gap(x_bar, y_bar) <= 2 (log dx + log dy)/(eta T) + (eta/2T) sum (||g_t||^2 + "
          "||Delta_t||^2) + (1/T) sum <Delta_t, (x_t, y_t) - (u_t, v_t)>, with Delta_t the gradient error and (u_t, v_t) "
          "ghost mirror-descent iterates driven by it.",
          f"§3 Lemma 3.8 (seed: 'iterates of Algorithm 1 generated in line 6'; implicit in Juditsky-Nemirovski-Tauvel); {_CAT}",
          "reconstructed"),
    Claim("saddle_point:Lemma 3.11", "utility",
          "Averaging one vertex per iterate costs at most 8 L1 sqrt(log max(dx, dy) / T) + 4 L1 / T in expected duality "
          "gap over the gap of the averaged iterates (checked on Algorithm 1's output rule).",
          f"§3 Lemma 3.11 (statement lost, proof in the seed); {_CAT}", "reconstructed"),
    Claim("saddle_point:Determinism", "invariant",
          "Algorithms 1, 3 and 5 return bit-identical results for generators built from the same seed.",
          "docs/architecture.md (conventions: explicit randomness; a package convention, not a statement of the paper)",
          "package"),
    Claim("saddle_point:Algorithm 3 lines", "invariant",
          "Algorithm 3 reads a fresh batch of B 2^(N_t+1) records at step t (one record moves only the iterates after "
          "its step), moves x by the entropic descent step and y by the ascent step, and draws the output vertex of "
          "step t from (x_t, y_t), before the step (Algorithm 1's line 3 likewise).",
          f"seed ('Line 8 of Algorithm 3', 'fresh samples'); {_CAT}, -E11", "reconstructed"),
    Claim("saddle_point:Algorithm 5 lines", "invariant",
          "Algorithm 5's private estimates are means of K vertices drawn from the online-to-batch average x_t (not the "
          "learner's w_t), its output the mean of K vertices of x_T, and its step is capped by the stability "
          "constraint eta <= 1/(8 L0 tau T).",
          f"seed Proof 4.4 ('K times to sparsify the last iterate'); {_CAT}, -E07, -E11", "reconstructed"),
    Claim("saddle_point:Bad input", "invariant",
          "Iterates off the simplex, gradients beyond the declared l_inf Lipschitz bound, batch schedules exceeding n, "
          "epsilon > 8 log(1/delta) and malformed privacy parameters raise an error naming the constraint.",
          "docs/architecture.md (conventions: preconditions are checked; a package convention, not a statement of the "
          "paper)", "package"),
    Claim("saddle_point:Theorem 1.1", "utility",
          "Synthetic data through game (3): for every output of Algorithm 1 on the query game, the largest query error "
          "max_q |q(x_tilde) - q(P)| is at most Gap(x_tilde, y_tilde), and with Theorem 3.1 (7)'s recipe the error falls "
          "as n grows while the data-blind uniform histogram's does not.",
          f"§1 Theorem 1.1 and game (3) (the variant of Algorithm 1 that charges only the query player is not "
          f"implemented: docs/errata.md saddle_point-E13); {_CAT}", "reconstructed"),
    Claim("saddle_point:Theorem 3.1 (5)", "utility",
          "For first-order smooth games, Algorithm 1 with K of order (L1/L0)^(4/3) (n eps)^(2/3) / (ell lambda^(1/3)) and "
          "B of order sqrt(K ell lambda) / eps has expected gap of order (L0 + L1) [sqrt(ell/n) + (ell^(3/2) "
          "sqrt(lambda) / (n eps))^(1/3)]. Checked: the recipe's exponents (K like n^(2/3), B like n^(1/3)); the gap "
          "rate itself is not measured (docs/errata.md saddle_point-E13).",
          "§3 Theorem 3.1 eq. (5); arXiv abstracts and sciencestack (rate); recipe docs/errata.md saddle_point-E05",
          "derived"),
    Claim("saddle_point:Theorem 3.1 (6)", "utility",
          "For second-order smooth games, Algorithm 1 with K of order (L2/L0)^(4/5) (n eps)^(2/5) / (ell^(3/5) "
          "lambda^(1/5)) has expected gap of order (L0 + L1 + L2) [sqrt(ell/n) + (ell^(3/2) sqrt(lambda) / (n eps))^(2/5)]: "
          "checked: the recipe's K grows like n^(2/5) (its bias term 2 L2 / K falls like n^(-2/5)); the gap rate itself "
          "is not measured (docs/errata.md saddle_point-E13).",
          "§3 Theorem 3.1 eq. (6); arXiv v1 abstract (rate); recipe docs/errata.md saddle_point-E05", "derived"),
    Claim("saddle_point:Theorem 3.14", "utility",
          "Algorithm 3 with Theorem 3.14's recipe (B of order (L0/L_tilde) sqrt((M+1) ell lambda)/eps, Gamma = n/(2B), "
          "M = floor(log2 Gamma) - 3) has a duality gap of order M ell / sqrt(n eps): measured on a game with a pure and "
          "one with a mixed equilibrium, gap / (M+1) falls with n at a rate consistent with n^(-1/2).",
          "§3 Theorem 3.14; arXiv v1 abstract (rate); recipe docs/errata.md saddle_point-E10", "derived"),
    Claim("saddle_point:Theorem 4.2", "utility",
          "Algorithm 5 with Theorem 4.2's recipe has excess risk of order (L0 + L1) [sqrt(ell/n) + ell^(7/10) "
          "lambda^(1/5) / (n eps)^(2/5)] (first order) or (L0 + L1 + L2) [sqrt(ell/n) + ell lambda^(1/4) / sqrt(n eps)] "
          "(second order). Checked: the recipe's exponents (K like n^(4/5), resp. n^(1/2)) and that Proposition 4.3's step, "
          "not the stability cap, binds under it; the rate is not measured (docs/errata.md saddle_point-E10).",
          "§4 Theorem 4.2; arXiv abstracts (rates); recipe docs/errata.md saddle_point-E07, -E10", "derived"),
    Claim("saddle_point:Theorem 3.14 stopping time", "invariant",
          "Algorithm 3's stopping time tau satisfies Wald's identity E sum_{t<=tau} (2^(N_t+1) + 2) = E[tau] E[2^(N+1) + 2] "
          "and the Markov bound Pr[tau < T0] <= (T0 - 1) E[2^(N+1) + 2] / (Gamma - 2^(M+1) - 2) of Theorem 3.14's proof.",
          "seed Proof 3.19 ('Wald's identity', 'Markov'); bound as corrected in docs/errata.md saddle_point-E03",
          "reconstructed"),
    Claim("saddle_point:Lemma 3.15 second moment", "utility",
          "Algorithm 2's output has E ||g||_inf^2 <= L0^2 + (M+1) L1^2 ell + L2^2 (constant 1 on the tested games): it "
          "grows with M, not with the largest weight 2^M / C_M.",
          f"§3 Lemma 3.15 (second part; constant lost); {_CAT}", "reconstructed"),
    Claim("saddle_point:Lemma 2.8", "constant",
          "Maurey in high probability: Pr[|f(x_tilde) - f(x_bar)| >= beta D^2/(2K) + L D sqrt(2 log(2/gamma)/K)] <= gamma "
          "for L-Lipschitz, beta-smooth f and vertex samples with ||x_tilde^k - x^k|| <= D.",
          f"§2 Lemma 2.8 (seed proof: Azuma, 'Making t = ...'); {_CAT}", "reconstructed"),
    Claim("saddle_point:Lemma 2.10", "constant",
          "E max_j |f_j(x_tilde) - f_j(x_bar)|^2 <= (beta D^2/K)^2 + L^2 D^2 log(2d)/K up to a constant (1 on the tested "
          "instances): the maximum over d functions costs log d.",
          f"§2 Lemma 2.10 (seed proof: union bound, Mill's inequality); {_CAT}", "reconstructed"),
    Claim("saddle_point:Lemma 3.9", "constant",
          "Entropic mirror descent's regret: sum_t <zeta_t, v_t - u> <= log d + (1/2) sum_t ||zeta_t||_inf^2 for every "
          "sequence and every u in the simplex.",
          "§3 Lemma 3.9 (Juditsky-Nemirovski-Tauvel Corollary 2, as cited in the seed)", "source"),
    Claim("saddle_point:Corollary 2.12", "constant",
          "For second-order smooth f, E ||grad f(x_tilde) - grad f(x)||_inf^2 <= L1^2 log(2d)/K + L2^2/K^2 up to a constant "
          "(1 on the tested instances).",
          f"§2 Corollary 2.12 (seed proof: Lemma 2.10 with f_j = d_j f); {_CAT}", "reconstructed"),
    Claim("saddle_point:Corollary 2.14", "constant",
          "For first-order smooth f, E ||grad f(x_tilde) - grad f(x)||_inf^2 <= L0 L1 sqrt(log(2d)/K) + L1^2/K up to a "
          "constant (1 on the tested instances).",
          f"§2 Corollary 2.14 (form derived so that Theorem 4.2's log(d)^(7/10) comes out); {_CAT}", "reconstructed"),
    Claim("saddle_point:Algorithm 5 stability", "invariant",
          "Algorithm 5's averages satisfy x_{t+1} - x_t = alpha_{t+1} (w_{t+1} - x_t) / A_{t+1}, hence ||x_{t+1} - x_t||_1 "
          "<= 2 alpha_{t+1} / A_{t+1} = 4 / (t + 2).",
          f"§4 Lemma 4.1's weights alpha_t = t (seed: 'the average iterates satisfy ...'); {_CAT}", "reconstructed"),
)
