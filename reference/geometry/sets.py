"""Constraint sets: membership, linear minimisation oracle, support function, projection.

Every set C here is closed, convex, bounded and non-empty, and offers

- ``contains(x, atol)``  membership up to an absolute tolerance;
- ``lmo(g)``             a linear minimisation oracle, argmin_{v in C} <g, v>. Ties are
                         broken deterministically (lowest index in :meth:`vertices` order;
                         documented per set), and the answer is an extreme point of C;
- ``support(g)``         the support function h_C(g) = max_{v in C} <g, v> = <g, lmo(-g)>;
- ``project(x)``         the Euclidean projection argmin_{v in C} ||v - x||_2;
- ``diameter(norm)``     max_{u, v in C} ||u - v||;
- ``radius(norm)``       max_{v in C} ||v|| (about the origin, as the proofs of
                         erm_geometry need it; see erm_geometry-AMB06);
- ``vertices()``         the vertex list, for polytopes (L1Ball, Simplex, Polytope);
- ``shape`` / ``dim``    the shape of a point and its number of coordinates; the balls keep their
                         radius parameter in the public attribute ``r``;
- ``Polytope.gauge(x)`` / ``dual_gauge(b)``: the Minkowski norm of conv(C u -C) and its dual.

Answers that come from a numerical solver are certified before they are returned: the polytope
projection checks its variational inequality, membership recomputes the LP weights' residual;
an uncertified answer raises :class:`reference.errors.SolverError`.

Norm names: ``"l1"``, ``"l2"``, ``"linf"`` (also 1, 2, numpy.inf) for vectors; for the
matrix set :class:`NuclearBall` also ``"nuclear"``, ``"frobenius"`` (= ``"l2"`` of the
vectorised matrix) and ``"operator"``; ``"l1"`` / ``"linf"`` are then entrywise.

Sources: the l1-ball and simplex projections are the sort-based algorithm of Duchi,
Shalev-Shwartz, Singer and Chandra (ICML 2008, Fig. 1; also Condat 2016). The polytope
projection is Wolfe's minimum-norm-point algorithm (Wolfe 1976) applied to the vertices
shifted by the point. Polytope membership is a linear program (scipy.optimize.linprog).
"""

from __future__ import annotations

import itertools
import math
from abc import ABC, abstractmethod

import numpy as np
from scipy.optimize import linprog

from ..claims import Claim
from .._validate import check_array, check_int, check_nonnegative, check_positive
from ..errors import ParameterError, ShapeError, SolverError

__all__ = [
    "ConstraintSet", "L2Ball", "L1Ball", "LinfBall", "Simplex", "Polytope", "NuclearBall", "GroupL1L2Ball",
    "project_simplex", "project_l1_ball", "vector_norm",
]

_NORM_ALIASES = {
    "l1": "l1", 1: "l1", "1": "l1",
    "l2": "l2", 2: "l2", "2": "l2", "euclidean": "l2",
    "linf": "linf", "inf": "linf", math.inf: "linf", "max": "linf",
    "nuclear": "nuclear", "nuc": "nuclear", "trace": "nuclear",
    "frobenius": "l2", "fro": "l2",
    "operator": "operator", "spectral": "operator", "op": "operator",
}


def _norm_name(norm: object, allowed: tuple[str, ...]) -> str:
    try:
        name = _NORM_ALIASES.get(norm) if not isinstance(norm, str) else _NORM_ALIASES.get(norm.lower())
    except TypeError:
        name = None
    if name is None or name not in allowed:
        raise ParameterError("norm", f"one of {allowed}", norm)
    return name


def vector_norm(x: np.ndarray, norm: object) -> float:
    """||x|| for norm in l1 / l2 / linf (of the flattened array)."""
    name = _norm_name(norm, ("l1", "l2", "linf"))
    flat = np.ravel(x)
    if name == "l1":
        return float(np.sum(np.abs(flat)))
    if name == "l2":
        return float(np.linalg.norm(flat))
    return float(np.max(np.abs(flat))) if flat.size else 0.0


def _l2(x: np.ndarray) -> float:
    """||x||_2 without overflow or underflow (scaled by the largest entry)."""
    m = float(np.max(np.abs(x))) if x.size else 0.0
    if m == 0.0 or not math.isfinite(m):
        return m
    return m * float(np.linalg.norm(x / m))


def project_simplex(x: np.ndarray, total: float = 1.0) -> np.ndarray:
    """Euclidean projection onto {v >= 0, sum v = total}, exact (sort-based).

    Duchi et al. 2008, Fig. 1: sort u descending, find the largest j with
    u_j - (sum_{i<=j} u_i - total)/j > 0, threshold tau = (sum_{i<=rho} u_i - total)/rho,
    answer max(x - tau, 0).
    """
    x = check_array(x, "x", ndim=1)
    total = check_positive(total, "total")
    # The projection is unchanged by x -> x + c 1 (sum v is fixed); shifting by max(x) keeps the
    # arithmetic at the scale of total even for huge |x| (x = [1e20] must give [1]).
    x = x - np.max(x)
    u = np.sort(x)[::-1]
    cumulative = np.cumsum(u) - total
    index = np.arange(1, x.size + 1)
    positive = np.nonzero(u - cumulative / index > 0)[0]
    rho = int(positive[-1]) + 1 if positive.size else 1   # j = 1 always qualifies in exact arithmetic
    tau = cumulative[rho - 1] / rho
    return np.maximum(x - tau, 0.0)


def project_l1_ball(x: np.ndarray, radius: float = 1.0) -> np.ndarray:
    """Euclidean projection onto {||v||_1 <= radius}, exact (Duchi et al. 2008, Fig. 1 + sign trick)."""
    x = check_array(x, "x", ndim=1)
    radius = check_positive(radius, "radius")
    if np.sum(np.abs(x)) <= radius:
        return x.copy()
    return np.sign(x) * project_simplex(np.abs(x), radius)


class ConstraintSet(ABC):
    """A closed, convex, bounded, non-empty subset of R^shape."""

    shape: tuple[int, ...]
    _norms: tuple[str, ...] = ("l1", "l2", "linf")

    @property
    def dim(self) -> int:
        """Number of coordinates (d1*d2 for a matrix set)."""
        return int(np.prod(self.shape))

    # -- input checks -------------------------------------------------------
    def _point(self, x: object, name: str = "x") -> np.ndarray:
        arr = check_array(x, name, ndim=len(self.shape))
        if arr.shape != self.shape:
            raise ShapeError(name, f"shape {self.shape}", f"shape {arr.shape}")
        return arr

    # -- the interface --------------------------------------------------------
    def contains(self, x: object, atol: float = 1e-9) -> bool:
        """True when x is in C up to the absolute tolerance atol (in the set's defining norm)."""
        x = self._point(x)
        atol = check_nonnegative(atol, "atol")
        return bool(self._excess(x) <= atol)

    @abstractmethod
    def _excess(self, x: np.ndarray) -> float:
        """How far outside C the point is, in the set's defining measure (<= 0 inside)."""

    def lmo(self, g: object) -> np.ndarray:
        """argmin_{v in C} <g, v>: an extreme point of C (deterministic tie-breaking)."""
        return self._lmo(self._point(g, "g"))

    @abstractmethod
    def _lmo(self, g: np.ndarray) -> np.ndarray: ...

    def support(self, g: object) -> float:
        """h_C(g) = max_{v in C} <g, v>."""
        g = self._point(g, "g")
        return float(np.sum(g * self._lmo(-g)))

    def project(self, x: object) -> np.ndarray:
        """Euclidean projection argmin_{v in C} ||v - x||_2 (Frobenius for matrices)."""
        return self._project(self._point(x))

    @abstractmethod
    def _project(self, x: np.ndarray) -> np.ndarray: ...

    def radius(self, norm: object = "l2") -> float:
        """max_{v in C} ||v|| (about the origin)."""
        return self._radius(_norm_name(norm, self._norms))

    def diameter(self, norm: object = "l2") -> float:
        """max_{u, v in C} ||u - v||."""
        return self._diameter(_norm_name(norm, self._norms))

    @abstractmethod
    def _radius(self, norm: str) -> float: ...

    def _diameter(self, norm: str) -> float:
        # Symmetric sets (C = -C): the diameter is twice the radius.
        return 2.0 * self._radius(norm)

    def vertices(self) -> np.ndarray:
        """The vertices of a polytope, one per row (shape (k,) + shape)."""
        raise ParameterError("C", "a polytope (this set has no finite vertex list)", type(self).__name__)

    @property
    def is_symmetric(self) -> bool:
        return True

    def __repr__(self) -> str:  # pragma: no cover - cosmetic
        return f"{type(self).__name__}{self._repr_args()}"

    def _repr_args(self) -> str:
        return f"(shape={self.shape})"


def _check_dim(dim: object) -> int:
    return check_int(dim, "dim", minimum=1)


class _NormBall(ConstraintSet):
    """A ball {x in R^dim : ||x|| <= radius} of a norm about the origin; the radius is ``r``."""

    def __init__(self, dim: int, radius: float = 1.0):
        self.shape = (_check_dim(dim),)
        self.r = check_positive(radius, "radius")

    def _repr_args(self) -> str:
        return f"(dim={self.dim}, radius={self.r})"


class L2Ball(_NormBall):
    """{x in R^dim : ||x||_2 <= radius}.

    LMO: -radius * g / ||g||_2; for g = 0 every point is optimal and the oracle returns
    the extreme point radius * e_1.
    """

    def _excess(self, x):
        return _l2(x) - self.r

    def _lmo(self, g):
        norm = _l2(g)
        if norm == 0.0:
            out = np.zeros(self.shape)
            out[0] = self.r
            return out
        m = float(np.max(np.abs(g)))
        u = g / m
        return -self.r * u / _l2(u)

    def support(self, g):
        return self.r * _l2(self._point(g, "g"))

    def _project(self, x):
        norm = _l2(x)
        if norm <= self.r:
            return x.copy()
        m = float(np.max(np.abs(x)))
        u = x / m
        return u * (self.r / _l2(u))

    def _radius(self, norm):
        # max ||v|| over the l2 ball: l1 -> r sqrt(d) (at the all-equal direction), l2 -> r, linf -> r.
        return {"l1": self.r * math.sqrt(self.dim), "l2": self.r, "linf": self.r}[norm]


class L1Ball(_NormBall):
    """{x in R^dim : ||x||_1 <= radius} = conv{+-radius e_j}.

    Vertex order (as in the lasso catalogue R-16): [r e_1, ..., r e_d, -r e_1, ..., -r e_d].
    LMO: the vertex minimising <g, v>, lowest index on ties (so g = 0 gives r e_1).
    """

    def _excess(self, x):
        return float(np.sum(np.abs(x))) - self.r

    def vertices(self):
        eye = np.eye(self.dim)
        return self.r * np.vstack([eye, -eye])

    def _lmo(self, g):
        scores = np.concatenate([self.r * g, -self.r * g])   # <g, v> for v in vertices() order
        k = int(np.argmin(scores))
        out = np.zeros(self.shape)
        out[k % self.dim] = self.r if k < self.dim else -self.r
        return out

    def support(self, g):
        return self.r * float(np.max(np.abs(self._point(g, "g"))))

    def _project(self, x):
        return project_l1_ball(x, self.r)

    def _radius(self, norm):
        # Extreme points +-r e_j have every p-norm equal to r.
        return self.r


class LinfBall(_NormBall):
    """{x in R^dim : ||x||_inf <= radius}, the box [-radius, radius]^dim = conv{-r, r}^dim.

    Vertex order: lexicographic over (-r, +r) per coordinate (itertools.product order), so the
    first vertex is (-r, ..., -r). LMO: v_j = -r where g_j >= 0 and +r where g_j < 0, which is
    the lowest-index optimal vertex (g_j = 0 gives -r). Projection: coordinatewise clipping.
    ``vertices()`` lists all 2^dim vertices and is refused above dim = 16.
    """

    def _excess(self, x):
        return (float(np.max(np.abs(x))) if x.size else 0.0) - self.r

    def vertices(self):
        if self.dim > 16:
            raise ParameterError("C", "a box of dimension <= 16 (it has 2^dim vertices)", self.dim)
        signs = np.array(list(itertools.product((-1.0, 1.0), repeat=self.dim)))
        return self.r * signs

    def _lmo(self, g):
        return -self.r * np.where(g >= 0, 1.0, -1.0)

    def support(self, g):
        return self.r * float(np.sum(np.abs(self._point(g, "g"))))

    def _project(self, x):
        return np.clip(x, -self.r, self.r)

    def _radius(self, norm):
        # attained at every vertex (+-r, ..., +-r)
        return {"l1": self.r * self.dim, "l2": self.r * math.sqrt(self.dim), "linf": self.r}[norm]


class Simplex(ConstraintSet):
    """The probability simplex {x in R^dim : x >= 0, sum x = 1} = conv{e_1, ..., e_d}.

    Membership tolerance: x_j >= -atol for all j and |sum x - 1| <= atol.
    LMO: e_j with j the lowest index minimising g_j.
    """

    def __init__(self, dim: int):
        self.shape = (_check_dim(dim),)

    def _repr_args(self) -> str:
        return f"(dim={self.dim})"

    @property
    def is_symmetric(self) -> bool:
        return False

    def _excess(self, x):
        return max(float(-np.min(x)), abs(float(np.sum(x)) - 1.0))

    def vertices(self):
        return np.eye(self.dim)

    def _lmo(self, g):
        out = np.zeros(self.shape)
        out[int(np.argmin(g))] = 1.0
        return out

    def support(self, g):
        return float(np.max(self._point(g, "g")))

    def _project(self, x):
        return project_simplex(x, 1.0)

    def _radius(self, norm):
        return 1.0   # at a vertex e_j, every p-norm is 1 (and no point of the simplex exceeds it)

    def _diameter(self, norm):
        if self.dim == 1:
            return 0.0
        return {"l1": 2.0, "l2": math.sqrt(2.0), "linf": 1.0}[norm]   # attained at e_1 - e_2


class Polytope(ConstraintSet):
    """conv{v_1, ..., v_k} for the given vertices (rows of a (k, dim) array).

    The vertices need not be extreme points (duplicates and interior points are allowed;
    the LMO and the support function only ever return or use the listed points).
    Membership: a linear program min ||V^T lambda - x||_inf over the simplex lambda
    (scipy.optimize.linprog, HiGHS); projection: Wolfe's minimum-norm-point algorithm.
    """

    def __init__(self, vertices: object):
        V = check_array(vertices, "vertices", ndim=2)
        if V.shape[0] < 1 or V.shape[1] < 1:
            raise ShapeError("vertices", "a (k, dim) array with k >= 1 vertices and dim >= 1", f"shape {V.shape}")
        self.V = V
        self.V.setflags(write=False)
        self.shape = (V.shape[1],)

    def _repr_args(self) -> str:
        return f"(k={self.V.shape[0]}, dim={self.dim})"

    @property
    def is_symmetric(self) -> bool:
        # Symmetric when -v is (up to rounding) a listed vertex for every listed vertex v.
        V = self.V
        dists = np.linalg.norm(V[:, None, :] + V[None, :, :], axis=2)
        return bool(np.all(np.min(dists, axis=1) <= 1e-12 * (1 + np.max(np.abs(V)))))

    def vertices(self):
        return self.V.copy()

    def _lmo(self, g):
        return self.V[int(np.argmin(self.V @ g))].copy()

    def support(self, g):
        return float(np.max(self.V @ self._point(g, "g")))

    def _excess(self, x):
        k = self.V.shape[0]
        d = self.dim
        # variables (lambda_1..lambda_k, t): minimise t
        c = np.zeros(k + 1)
        c[-1] = 1.0
        # V^T lambda - x <= t  and  x - V^T lambda <= t
        A_ub = np.vstack([np.hstack([self.V.T, -np.ones((d, 1))]),
                          np.hstack([-self.V.T, -np.ones((d, 1))])])
        b_ub = np.concatenate([x, -x])
        A_eq = np.hstack([np.ones((1, k)), np.zeros((1, 1))])
        res = linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=[1.0],
                      bounds=[(0, None)] * k + [(0, None)], method="highs")
        if res.status != 0:  # pragma: no cover - the LP is always feasible and bounded
            raise ParameterError("x", "a point the membership LP can decide", res.message)
        # The solver's t is only as exact as its feasibility tolerance (1e-7): recompute the
        # residual of the convex weights it found (clipped, renormalised), an honest upper bound.
        lam = np.maximum(res.x[:k], 0.0)
        lam = lam / np.sum(lam)
        return float(np.max(np.abs(lam @ self.V - x)))

    def gauge(self, x: object) -> float:
        """||x||_Q for Q = conv(v_1, .., v_k, -v_1, .., -v_k): min{||alpha||_1 : sum alpha_i v_i = x}.

        The Minkowski norm of erm_geometry Fact 3.4 / Thm 4.1 (an LP: alpha = a+ - a-, a+-, >= 0);
        +inf when x is outside the span of the vertices. Accurate to the LP solver's tolerances
        (HiGHS, feasibility 1e-10): about 1e-9 relative, not to the last bit.
        """
        x = self._point(x)
        # Scaling: with u_i = v_i/||v_i||_2 and beta_i = alpha_i ||v_i||_2 the LP is
        # min sum |beta_i| / ||v_i||_2 s.t. sum beta_i u_i = x/||x||_inf (zero vertices dropped), then
        # rescaled by ||x||_inf: unit columns and an O(1) right-hand side keep the solver's absolute
        # tolerances meaningful for vertices and points of any size.
        m_x = float(np.max(np.abs(x)))
        if m_x == 0.0:
            return 0.0
        norms = np.array([_l2(v) for v in self.V])
        keep = norms > 0
        if not np.any(keep):
            return math.inf
        if float(np.max(norms[keep]) / np.min(norms[keep])) > 1e12:
            raise ParameterError("vertices", "non-zero vertex norms within a factor 1e12 of each other "
                                 "(the gauge LP is too ill-conditioned to solve reliably otherwise)",
                                 f"norms from {np.min(norms[keep]):.3g} to {np.max(norms[keep]):.3g}")
        U = self.V[keep] / norms[keep][:, None]
        cost = 1.0 / norms[keep]
        res = linprog(np.concatenate([cost, cost]), A_eq=np.hstack([U.T, -U.T]), b_eq=x / m_x,
                      bounds=[(0, None)] * (2 * U.shape[0]), method="highs",
                      options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10})
        if res.status == 2:
            return math.inf
        if res.status != 0:  # pragma: no cover - bounded below by 0, so only infeasibility can occur
            raise ParameterError("vertices", "a gauge LP the solver can decide", res.message)
        return max(float(res.fun), 0.0) * m_x

    def dual_gauge(self, b: object) -> float:
        """||b||_{Q*} = max_{w in Q} <w, b> = max_i |<v_i, b>| (closed form)."""
        return float(np.max(np.abs(self.V @ self._point(b, "b"))))

    def _project(self, x):
        # Wolfe on the shifted vertices v_i - x; the answer is returned as the convex combination
        # sum lambda_i v_i (not x + w), so it is feasible even when |x| dwarfs the vertices.
        support, weights = _min_norm_point(self.V - x)
        p = weights @ self.V[support]
        # Certificate: <x - p, v_i - p> <= 0 for every vertex (the variational inequality), to rounding.
        gap = float(np.max((self.V - p) @ (x - p)))
        scale = 1.0 + float(np.max(np.sum(self.V * self.V, axis=1))) + float(x @ x)
        if gap > 1e-9 * scale:
            raise SolverError(f"polytope projection not certified: variational-inequality gap {gap:.3g}")
        return p

    def _radius(self, norm):
        return max(vector_norm(v, norm) for v in self.V)

    def _diameter(self, norm):
        # A norm of u - v is convex in (u, v): the max over C x C is at a pair of vertices.
        V = self.V
        diffs = V[:, None, :] - V[None, :, :]
        if norm == "l1":
            return float(np.max(np.sum(np.abs(diffs), axis=2)))
        if norm == "l2":
            return float(np.max(np.linalg.norm(diffs, axis=2)))
        return float(np.max(np.abs(diffs)))


def _min_norm_point(P: np.ndarray, max_iter: int = 10_000) -> tuple[list[int], np.ndarray]:
    """The point of minimum Euclidean norm in conv(rows of P) (Wolfe 1976), as (indices, weights).

    Major cycle: add the point minimising <w, p> while w is not optimal; minor cycle:
    move to the affine minimiser of the current corral, dropping points whose weight
    vanishes on the way. Terminates in finitely many steps; the tolerance guards rounding.
    """
    scale = float(np.max(np.sum(P * P, axis=1)))
    if scale == 0.0:
        return [0], np.array([1.0])
    tol = 1e-15 * scale
    first = int(np.argmin(np.sum(P * P, axis=1)))
    S = [first]
    lam = np.array([1.0])
    w = P[first].copy()
    for _ in range(max_iter):
        j = int(np.argmin(P @ w))
        if float(w @ w) - float(P[j] @ w) <= 1e-12 * scale or j in S:
            break
        S.append(j)
        lam = np.append(lam, 0.0)
        while True:
            Q = P[S]
            m = len(S)
            # affine minimiser: min ||Q^T a|| s.t. sum a = 1
            G = Q @ Q.T
            M = np.zeros((m + 1, m + 1))
            M[:m, :m] = G
            M[:m, m] = 1.0
            M[m, :m] = 1.0
            rhs = np.zeros(m + 1)
            rhs[m] = 1.0
            sol = np.linalg.lstsq(M, rhs, rcond=None)[0]
            alpha = sol[:m]
            if np.all(alpha > tol / scale):
                lam = alpha
                break
            neg = alpha <= tol / scale
            with np.errstate(divide="ignore", invalid="ignore"):
                ratios = np.where(neg, lam / (lam - alpha), np.inf)
            theta = float(np.min(ratios))
            theta = min(max(theta, 0.0), 1.0)
            lam = lam + theta * (alpha - lam)
            keep = lam > 1e-14
            if not np.any(keep):  # pragma: no cover - cannot happen: weights sum to one
                keep[int(np.argmax(lam))] = True
            S = [s for s, kflag in zip(S, keep) if kflag]
            lam = lam[keep]
            lam = lam / lam.sum()
        w = lam @ P[S]
    return S, lam


class NuclearBall(ConstraintSet):
    """{X in R^{d1 x d2} : ||X||_nuc <= radius} (sum of singular values).

    LMO: -radius u_1 v_1^T for the top singular pair of G (numpy's SVD sign convention);
    G = 0 gives radius e_1 e_1^T. Projection: SVD, then the l1-ball projection of the
    (non-negative) singular values. The ball is the convex hull of radius * (rank-one
    matrices u v^T with ||u||_2 = ||v||_2 = 1).
    """

    _norms = ("l1", "l2", "linf", "nuclear", "operator")

    def __init__(self, shape: tuple[int, int], radius: float = 1.0):
        if not isinstance(shape, (tuple, list)) or len(shape) != 2:
            raise ShapeError("shape", "a pair (d1, d2) of positive integers", shape)
        self.shape = (check_int(shape[0], "shape[0]"), check_int(shape[1], "shape[1]"))
        self.r = check_positive(radius, "radius")

    def _repr_args(self) -> str:
        return f"(shape={self.shape}, radius={self.r})"

    def _excess(self, x):
        return float(np.sum(np.linalg.svd(x, compute_uv=False))) - self.r

    def _lmo(self, g):
        if not np.any(g):
            out = np.zeros(self.shape)
            out[0, 0] = self.r
            return out
        U, s, Vt = np.linalg.svd(g)
        return -self.r * np.outer(U[:, 0], Vt[0])

    def support(self, g):
        return self.r * float(np.linalg.norm(self._point(g, "g"), 2))

    def _project(self, x):
        U, s, Vt = np.linalg.svd(x, full_matrices=False)
        if float(np.sum(s)) <= self.r:
            return x.copy()
        s_new = project_simplex(s, self.r)   # s >= 0, so the l1-ball projection is the simplex one
        return (U * s_new) @ Vt

    def _radius(self, norm):
        d1, d2 = self.shape
        # rank-one extreme points r u v^T: nuclear = frobenius = operator = r; entrywise l1 is
        # r ||u||_1 ||v||_1 <= r sqrt(d1 d2) (all-equal u, v); entrywise max <= r (u = e_1, v = e_1).
        return {"nuclear": self.r, "l2": self.r, "operator": self.r,
                "l1": self.r * math.sqrt(d1 * d2), "linf": self.r}[norm]


class GroupL1L2Ball(ConstraintSet):
    """{x : sum_j ||x^(j)||_2 <= radius} for consecutive blocks x^(j) of x.

    The grouped (k, l_{1,2}) ball of erm_geometry §3.2 with blocks of size k (the last block
    may be shorter: blocks are [0:k], [k:2k], ..., as in the paper's min{ik, p}).
    ``groups`` is either a block size k (int) or a list of block sizes summing to dim.
    LMO: the block j with the largest ||g^(j)||_2 (lowest index on ties), value
    -radius g^(j)/||g^(j)||_2 there; g = 0 gives radius e_1.
    """

    def __init__(self, dim: int, groups: object, radius: float = 1.0):
        dim = _check_dim(dim)
        self.shape = (dim,)
        self.r = check_positive(radius, "radius")
        if isinstance(groups, (int, np.integer)) and not isinstance(groups, bool):
            k = check_int(groups, "groups", minimum=1)
            if k > dim:
                raise ParameterError("groups", f"a block size <= dim = {dim}", k)
            sizes = [k] * (dim // k) + ([dim % k] if dim % k else [])
            self.block = k
        else:
            try:
                sizes = [check_int(s, "groups[i]", minimum=1) for s in groups]
            except TypeError as exc:
                raise ParameterError("groups", "a block size or a list of block sizes", groups) from exc
            if sum(sizes) != dim:
                raise ShapeError("groups", f"block sizes summing to dim = {dim}", sizes)
            self.block = max(sizes)
        self.sizes = tuple(sizes)
        self.bounds = tuple(np.cumsum([0] + sizes).tolist())

    def _repr_args(self) -> str:
        return f"(dim={self.dim}, sizes={self.sizes}, radius={self.r})"

    def block_norms(self, x: np.ndarray) -> np.ndarray:
        """The vector (||x^(1)||_2, ..., ||x^(m)||_2)."""
        x = np.asarray(x, dtype=float)
        return np.array([_l2(x[a:b]) for a, b in zip(self.bounds[:-1], self.bounds[1:])])

    def group_norm(self, x: object) -> float:
        """||x||_{(k, l_{1,2})} = sum of the block l2 norms."""
        return float(np.sum(self.block_norms(self._point(x))))

    def _excess(self, x):
        return float(np.sum(self.block_norms(x))) - self.r

    def _lmo(self, g):
        norms = self.block_norms(g)
        j = int(np.argmax(norms))
        a, b = self.bounds[j], self.bounds[j + 1]
        out = np.zeros(self.shape)
        if norms[j] == 0.0:
            out[0] = self.r
            return out
        out[a:b] = -self.r * g[a:b] / norms[j]
        return out

    def support(self, g):
        return self.r * float(np.max(self.block_norms(self._point(g, "g"))))

    def _project(self, x):
        norms = self.block_norms(x)
        if float(np.sum(norms)) <= self.r:
            return x.copy()
        # Projection shrinks each block along itself: new block norms are the simplex/l1
        # projection of the block-norm vector (the problem separates in the block norms).
        new = project_simplex(norms, self.r)
        out = np.zeros_like(x)
        for j, (a, b) in enumerate(zip(self.bounds[:-1], self.bounds[1:])):
            if norms[j] > 0:
                out[a:b] = x[a:b] * (new[j] / norms[j])
        return out

    def _radius(self, norm):
        # extreme points: a single block of l2 norm r; l1 of it is at most r sqrt(block size).
        return {"l2": self.r, "linf": self.r, "l1": self.r * math.sqrt(max(self.sizes))}[norm]


# ---------------------------------------------------------------------------
# Claims about these building blocks (checked in tests/geometry/test_sets.py).

CLAIMS = (
    Claim("core:LMO optimality", "invariant",
          "For every set, lmo(g) lies in C and attains min_{v in C} <g, v>; for polytopes it is the "
          "best listed vertex (lowest index on ties); support(g) = max_{v in C} <g, v>.",
          "Jaggi 2013 (linear minimisation oracle); erm_geometry Fact 5.3"),
    Claim("core:Euclidean projection", "invariant",
          "project(x) lies in C and is the nearest point: <x - P(x), v - P(x)> <= 0 for every v in C, "
          "i.e. support(x - P(x)) <= <x - P(x), P(x)>; exact sort-based for the simplex and l1 ball.",
          "Duchi, Shalev-Shwartz, Singer, Chandra 2008, Fig. 1; Wolfe 1976 for polytopes"),
    Claim("core:set radius and diameter", "constant",
          "radius(norm) = max_{v in C} ||v|| and diameter(norm) = max_{u,v in C} ||u - v||, in the "
          "stated norm, as closed forms per set (attained at listed extreme points).",
          "elementary; docs/errata.md erm_geometry-E06 (radius vs diameter)"),
    Claim("core:Symmetric gauge", "invariant",
          "Polytope.gauge(x) = min{||alpha||_1 : V^T alpha = x} is the Minkowski norm of conv(C u -C) and "
          "dual_gauge(b) = max_i |<v_i, b>| its dual: |<x, b>| <= gauge(x) dual_gauge(b), gauge = ||x||_1 / r "
          "for the vertices +-r e_j, and gauge(x) >= ||x||_2 / max_i ||v_i||_2.",
          "erm_geometry §2.2 (Minkowski norm, Fact 2.2), Fact 3.4, Thm 4.1 proof"),
    Claim("core:Geometry input validation", "invariant",
          "Sets, widths and mirror maps reject radius <= 0, non-finite or empty vertex lists, wrong shapes, "
          "unknown norms, p outside (1, 2], points outside a map's domain and missing rngs with a specific "
          "error from reference.errors; tiny and huge finite inputs give finite answers, never NaN.",
          "package convention (docs/architecture.md)"),
)
