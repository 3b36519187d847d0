"""Losses of linear models, loss(theta; (x, y)) = phi(<theta, x>, y), with their constants.

Each loss offers
- ``value(theta, x, y)``      one record (x of shape (p,), y a number) -> float, or n records
                              (x of shape (n, p), y of shape (n,)) -> array (n,);
- ``gradient(theta, x, y)``   the gradient in theta, phi'(<theta, x>, y) x: (p,) or (n, p);
                              for the hinge loss a subgradient (stated on the class);
- ``values(theta, X, y)``, ``gradients(theta, X, y)``: the same for the n rows of X, always (n,) and
                              (n, p) (the batch forms the erm_geometry algorithms' per-record checks take);
- ``risk(theta, X, y)``, ``risk_gradient(theta, X, y)``: the empirical average (1/n) sum_i;
- ``lipschitz(norm, feature_bound=F, theta_bound=B, label_bound=Y)``: the Lipschitz constant in
  theta w.r.t. ``norm`` (l1, l2 or linf) over {||theta|| <= B} for records with
  ||x||_* <= F (the DUAL norm of x: l1 <-> linf, l2 <-> l2) and |y| <= Y. It is the exact
  supremum sup |phi'(<theta, x>, y)| ||x||_* (tight: attained, or approached, as stated per loss);
- ``smoothness(norm, feature_bound=F)``: beta with ||grad l(a) - grad l(b)||_* <= beta ||a - b||,
  namely sup phi'' * F^2 (the Hessian is phi'' x x^T);
- ``curvature(C, norm=..., feature_bound=F)``: the Frank-Wolfe curvature constant (Clarkson 2010,
  Jaggi 2013; erm_geometry Def 5.1 / lasso Def 2.1 with the factor 2/gamma^2) of one record's loss
  on C, maximised over records with ||x||_* <= F:
        Gamma = sup 2/gamma^2 (l(theta_3) - l(theta_1) - <theta_3 - theta_1, grad l(theta_1)>)
              <= sup phi'' * sup_{u, v in C} <u - v, x>^2 = sup phi'' * F^2 * diam_norm(C)^2,
  with equality for the squared loss (attained at the diameter's end points and an x
  attaining Hoelder's inequality);
- ``empirical_curvature(C, X)``: the same for the empirical risk on the data X:
  sup phi'' * max_{u, v in C} (1/n) ||X (u - v)||_2^2 (exact for the squared loss;
  computed over vertex pairs for polytopes, by the top eigenvalue for an l2 ball).

Labels: logistic and hinge losses take y in {-1, +1}; squared and Huber losses any real y.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

import numpy as np
from scipy import special

from ._validate import check_array, check_nonnegative, check_positive, check_rows_norm_bound
from .claims import Claim
from .errors import ParameterError, ShapeError

__all__ = ["LinearModelLoss", "SquaredLoss", "LogisticLoss", "HingeLoss", "HuberLoss",
           "dual_norm", "LassoConstants", "lasso_constants"]

_DUAL = {"l1": "linf", "l2": "l2", "linf": "l1"}


def dual_norm(norm: str) -> str:
    """The dual of l1 / l2 / linf (Hoelder: |<theta, x>| <= ||theta|| ||x||_*)."""
    if norm not in _DUAL:
        raise ParameterError("norm", "one of 'l1', 'l2', 'linf'", norm)
    return _DUAL[norm]


_ORD = {"l1": 1, "l2": 2, "linf": np.inf}


class LinearModelLoss(ABC):
    """loss(theta; (x, y)) = phi(<theta, x>, y) for a convex phi(., y)."""

    name: str = ""
    binary_labels: bool = False
    smooth: bool = True

    # -- phi and its derivatives in the prediction z = <theta, x> ------------------------------
    @abstractmethod
    def phi(self, z: np.ndarray, y: np.ndarray) -> np.ndarray: ...

    @abstractmethod
    def dphi(self, z: np.ndarray, y: np.ndarray) -> np.ndarray: ...

    @abstractmethod
    def phi_second_bound(self) -> float:
        """sup over z, y of phi''(z, y) (the smoothness of phi in z)."""

    # -- input handling --------------------------------------------------------------------------
    def _inputs(self, theta, x, y):
        theta = check_array(theta, "theta", ndim=1)
        x = check_array(x, "x")
        if x.ndim not in (1, 2):
            raise ShapeError("x", "a record (p,) or records (n, p)", f"shape {x.shape}")
        single = x.ndim == 1
        X = x[None, :] if single else x
        if X.shape[1] != theta.size:
            raise ShapeError("x", f"{theta.size} features (the length of theta)", f"shape {x.shape}")
        yv = check_array(y, "y")
        if yv.ndim == 0:
            yv = yv.reshape(1)
        if yv.ndim != 1:
            raise ShapeError("y", "a label or a 1-d array of labels", f"shape {yv.shape}")
        if yv.size != X.shape[0]:
            raise ShapeError("y", f"{X.shape[0]} labels (one per record)", f"shape {yv.shape}")
        if self.binary_labels and not np.all(np.abs(yv) == 1.0):
            raise ParameterError("y", f"labels in {{-1, +1}} for the {self.name} loss", yv)
        return theta, X, yv, single

    def value(self, theta: object, x: object, y: object):
        """phi(<theta, x>, y) per record (a float for one record)."""
        theta, X, yv, single = self._inputs(theta, x, y)
        out = self.phi(X @ theta, yv)
        return float(out[0]) if single else out

    def gradient(self, theta: object, x: object, y: object) -> np.ndarray:
        """phi'(<theta, x>, y) x per record ((p,) for one record, (n, p) for n records)."""
        theta, X, yv, single = self._inputs(theta, x, y)
        G = self.dphi(X @ theta, yv)[:, None] * X
        return G[0] if single else G

    def values(self, theta: object, X: object, y: object) -> np.ndarray:
        """phi(<theta, x_i>, y_i) for the n records (rows of X) at once: shape (n,), entry i what
        ``value(theta, X[i], y[i])`` gives (:meth:`value` on the (n, p) array; the algorithms' per-record sums use it
        in place of n calls, and read it only where a loss offers it)."""
        return self.value(theta, check_array(X, "X", ndim=2), y)

    def gradients(self, theta: object, X: object, y: object) -> np.ndarray:
        """phi'(<theta, x_i>, y_i) x_i for the n records at once: shape (n, p), row i what
        ``gradient(theta, X[i], y[i])`` gives (:meth:`gradient` on the (n, p) array; the per-record Lipschitz
        check uses it)."""
        return self.gradient(theta, check_array(X, "X", ndim=2), y)

    def phi_second(self, z: np.ndarray, y: np.ndarray) -> np.ndarray:
        """phi''(z, y), for losses twice differentiable in z (the others have ``hessian = None``)."""
        raise ParameterError("loss", "a twice-differentiable loss", self.name)

    def hessian(self, theta: object, x: object, y: object) -> np.ndarray:
        """phi''(<theta, x>, y) x x^T for one record ((p, p)); rank <= 1.

        Objective perturbation (erm_geometry Algorithm 2) checks its declared lambda_max / lambda_min
        and KST12's rank condition with it. Losses that are not twice differentiable (hinge, Huber)
        set ``hessian = None``, and that check then says it cannot run.
        """
        theta, X, yv, single = self._inputs(theta, x, y)
        if not single:
            raise ShapeError("x", "one record (p,)", f"shape {np.shape(x)}")
        return float(self.phi_second(X @ theta, yv)[0]) * np.outer(X[0], X[0])

    def risk(self, theta: object, X: object, y: object) -> float:
        """(1/n) sum_i phi(<theta, x_i>, y_i)."""
        theta, Xa, yv, _ = self._inputs(theta, X, y)
        return float(np.mean(self.phi(Xa @ theta, yv)))

    def risk_gradient(self, theta: object, X: object, y: object) -> np.ndarray:
        """(1/n) sum_i phi'(<theta, x_i>, y_i) x_i."""
        theta, Xa, yv, _ = self._inputs(theta, X, y)
        return (self.dphi(Xa @ theta, yv) @ Xa) / Xa.shape[0]

    # -- constants -------------------------------------------------------------------------------
    @abstractmethod
    def _dphi_sup(self, zmax: float | None, label_bound: float | None) -> float:
        """sup |phi'(z, y)| over |z| <= zmax (None: all z) and admissible |y| <= label_bound."""

    def lipschitz(self, norm: str, *, feature_bound: float, theta_bound: float | None = None,
                  label_bound: float | None = None) -> float:
        """Lipschitz constant in theta w.r.t. ``norm`` for ||x||_{dual(norm)} <= feature_bound."""
        dual_norm(norm)
        F = check_nonnegative(feature_bound, "feature_bound")
        B = None if theta_bound is None else check_nonnegative(theta_bound, "theta_bound")
        Y = None if label_bound is None else check_nonnegative(label_bound, "label_bound")
        zmax = None if B is None else B * F               # |<theta, x>| <= ||theta|| ||x||_*  (Hoelder, tight)
        return self._dphi_sup(zmax, Y) * F

    def smoothness(self, norm: str, *, feature_bound: float) -> float:
        """beta w.r.t. ``norm``: sup phi'' * feature_bound^2 (Hessian phi'' x x^T, ||x||_* <= F)."""
        dual_norm(norm)
        F = check_nonnegative(feature_bound, "feature_bound")
        return self.phi_second_bound() * F * F

    def curvature(self, C, *, norm: str, feature_bound: float) -> float:
        """Frank-Wolfe curvature (Def 5.1, factor 2/gamma^2) of one record's loss on C, sup over ||x||_* <= F.

        = sup phi'' * (F * diam_norm(C))^2: an upper bound for every loss, and the exact value
        for the squared loss.
        """
        return self.smoothness(norm, feature_bound=feature_bound) * C.diameter(norm) ** 2

    def empirical_curvature(self, C, X: object) -> float:
        """Curvature (Def 5.1) of the empirical risk on data X: sup phi'' max_{u,v in C} (1/n)||X(u-v)||^2.

        Exact for the squared loss. Polytopes (anything with vertices()): max over vertex pairs
        (a convex quadratic of (u, v) is maximal at a pair of vertices); L2Ball: 4 r^2 lambda_max(X^T X / n).
        """
        from .geometry.sets import L2Ball
        Xa = check_array(X, "X", ndim=2)
        if Xa.shape[1] != C.dim:
            raise ShapeError("X", f"{C.dim} columns (the dimension of C)", f"shape {Xa.shape}")
        n = Xa.shape[0]
        if isinstance(C, L2Ball):
            top = float(np.max(np.linalg.eigvalsh(Xa.T @ Xa / n)))
            return self.phi_second_bound() * 4.0 * C.r ** 2 * max(top, 0.0)
        V = C.vertices()
        XV = V @ Xa.T                                     # (k, n): <v, x_i>
        best = 0.0
        for a in range(V.shape[0]):
            diff = XV[a][None, :] - XV                    # rows: X(v_a - v_b)
            best = max(best, float(np.max(np.sum(diff * diff, axis=1))) / n)
        return self.phi_second_bound() * best

    def check_data(self, X: object, y: object, *, norm: str, feature_bound: float,
                   label_bound: float | None = None) -> None:
        """Raise AssumptionViolation unless every ||x_i||_{dual(norm)} <= F (and |y_i| <= Y when given)."""
        Xa = check_array(X, "X", ndim=2)
        yv = check_array(y, "y", ndim=1)
        check_rows_norm_bound(Xa, check_nonnegative(feature_bound, "feature_bound"), _ORD[dual_norm(norm)], "X")
        if label_bound is not None:
            check_rows_norm_bound(yv[:, None], check_nonnegative(label_bound, "label_bound"), np.inf, "y")
        if self.binary_labels and not np.all(np.abs(yv) == 1.0):
            raise ParameterError("y", f"labels in {{-1, +1}} for the {self.name} loss", yv)


class SquaredLoss(LinearModelLoss):
    """phi(z, y) = scale * (z - y)^2.

    ``scale=1`` is lasso eq. (2) (L = (1/n) sum (<x_i, theta> - y_i)^2); ``scale=1/2`` is
    erm_geometry eq. (22). phi' = 2 scale (z - y), phi'' = 2 scale.
    Lipschitz: 2 scale (B F + Y) F, attained at theta = B * (a unit vector attaining Hoelder with x),
    y = -Y sign(<theta, x>). Needs theta_bound and label_bound (unbounded otherwise).
    """

    name = "squared"

    def __init__(self, scale: float = 1.0):
        self.scale = check_positive(scale, "scale")

    def phi(self, z, y):
        return self.scale * (z - y) ** 2

    def dphi(self, z, y):
        return 2.0 * self.scale * (z - y)

    def phi_second(self, z, y):
        return np.full(np.shape(z), 2.0 * self.scale)

    def phi_second_bound(self):
        return 2.0 * self.scale

    def _dphi_sup(self, zmax, label_bound):
        if zmax is None or label_bound is None:
            raise ParameterError("theta_bound and label_bound",
                                 "both given: the squared loss is Lipschitz only on a bounded set", None)
        return 2.0 * self.scale * (zmax + label_bound)


class LogisticLoss(LinearModelLoss):
    """phi(z, y) = ln(1 + exp(-y z)), y in {-1, +1}.

    phi' = -y sigmoid(-y z), |phi'| < 1; phi'' = sigmoid(z) sigmoid(-z) <= 1/4 (attained at z = 0).
    Lipschitz: F * sigmoid(B F) when ||theta|| <= B (attained at y z = -B F); F without a
    theta bound (a supremum, approached as y z -> -infinity).
    """

    name = "logistic"
    binary_labels = True

    def phi(self, z, y):
        return np.logaddexp(0.0, -y * z)

    def dphi(self, z, y):
        return -y * special.expit(-y * z)

    def phi_second(self, z, y):
        return special.expit(z) * special.expit(-z)

    def phi_second_bound(self):
        return 0.25

    def _dphi_sup(self, zmax, label_bound):
        return 1.0 if zmax is None else float(special.expit(zmax))


class HingeLoss(LinearModelLoss):
    """phi(z, y) = max(0, 1 - y z), y in {-1, +1}.

    Subgradient used: -y x where y z < 1, and 0 where y z >= 1 (at the kink y z = 1 the
    subdifferential is the segment {-t y x : t in [0, 1]}; we take its end point 0). Lipschitz: F (attained wherever
    y z < 1, e.g. theta = 0). Not smooth: smoothness and curvature raise ParameterError.
    """

    name = "hinge"
    binary_labels = True
    smooth = False
    hessian = None          # not twice differentiable: no Hessian to check bounds with

    def phi(self, z, y):
        return np.maximum(0.0, 1.0 - y * z)

    def dphi(self, z, y):
        return np.where(y * z < 1.0, -y, 0.0)

    def phi_second_bound(self):
        raise ParameterError("loss", "a smooth loss (the hinge loss has a kink at y<theta, x> = 1, "
                             "so no finite smoothness or curvature constant)", self.name)

    def _dphi_sup(self, zmax, label_bound):
        return 1.0


class HuberLoss(LinearModelLoss):
    """phi(z, y) = r^2/2 if |r| <= delta else delta |r| - delta^2/2, with r = z - y.

    phi' = clip(r, -delta, delta); phi'' = 1 on |r| < delta, else 0 (sup 1).
    Lipschitz: F min(delta, B F + Y) (attained: |r| reaches min(delta, B F + Y)); F delta without bounds.
    """

    name = "huber"
    hessian = None          # phi'' jumps at |r| = delta: not twice differentiable, as KST12 needs

    def __init__(self, delta: float = 1.0):
        self.delta = check_positive(delta, "delta")

    def phi(self, z, y):
        r = np.abs(z - y)
        return np.where(r <= self.delta, 0.5 * r * r, self.delta * r - 0.5 * self.delta ** 2)

    def dphi(self, z, y):
        return np.clip(z - y, -self.delta, self.delta)

    def phi_second_bound(self):
        return 1.0

    def _dphi_sup(self, zmax, label_bound):
        if zmax is None or label_bound is None:
            return self.delta
        return min(self.delta, zmax + label_bound)


# ---------------------------------------------------------------------------
# The LASSO constants (lasso §2.2, Cor 2.7; erm_geometry §5.3, eq. (22), Cor 5.7)

@dataclass(frozen=True)
class LassoConstants:
    """Exact constants of L(theta; D) = (scale/n) sum (<x_i, theta> - y_i)^2 on {||theta||_1 <= radius}
    with ||x_i||_inf <= 1 and |y_i| <= 1.

    lipschitz_l1      sup ||grad l(theta; d)||_inf = 2 scale (radius + 1)             (attained)
    curvature         sup over data of Gamma (Def 2.1/5.1) = 8 scale radius^2         (attained)
    l1_norm_of_set    ||C||_1 = max_{s in S} ||s||_1 = radius
    num_vertices      |S| = 2 p
    """

    dim: int
    radius: float
    scale: float
    lipschitz_l1: float
    curvature: float
    l1_norm_of_set: float
    num_vertices: int

    def score_sensitivity(self, n: int) -> float:
        """Replace-one sensitivity of a vertex score <s, grad L(theta; D)>: 2 L1 ||C||_1 / n (attained for p >= 2)."""
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ParameterError("n", "an integer >= 1", n)
        return 2.0 * self.lipschitz_l1 * self.l1_norm_of_set / n


def lasso_constants(dim: int, *, radius: float = 1.0, scale: float = 1.0) -> LassoConstants:
    """The LASSO constants, derived from the general formulas of :class:`SquaredLoss`.

    scale = 1: lasso eq. (2) -> L1 = 4, Gamma = 8 (unit ball); scale = 1/2: erm_geometry eq. (22)
    -> L1 = 2, Gamma = 4. The lasso paper prints Gamma <= 4 for its normalisation (a factor 2
    off under its own Def 2.1; docs/errata.md core-G03).
    """
    from .geometry.sets import L1Ball
    C = L1Ball(dim, radius)
    loss = SquaredLoss(scale)
    L1 = loss.lipschitz("l1", feature_bound=1.0, theta_bound=C.radius("l1"), label_bound=1.0)
    gamma = loss.curvature(C, norm="l1", feature_bound=1.0)
    return LassoConstants(C.dim, C.r, loss.scale, L1, gamma, C.radius("l1"), 2 * C.dim)


CLAIMS = (
    Claim("core:Loss gradients", "invariant",
          "gradient(theta, x, y) = phi'(<theta, x>, y) x is the gradient of value (finite differences) for "
          "the squared, logistic and Huber losses, and a subgradient of the hinge loss (subgradient "
          "inequality), per record and averaged.",
          "elementary calculus"),
    Claim("core:Loss Hessians", "invariant",
          "hessian(theta, x, y) = phi''(<theta, x>, y) x x^T is the Jacobian of gradient (finite differences) for "
          "the squared and logistic losses, has rank <= 1 and top eigenvalue <= phi_second_bound ||x||_2^2; the "
          "hinge and Huber losses, not twice differentiable, have hessian = None.",
          "erm_geometry Section 4 (Algorithm 2's lambda_max input); KST12's rank-one Hessian condition"),
    Claim("core:Loss Lipschitz constants", "constant",
          "lipschitz(norm, F, B, Y) bounds ||grad l(theta; x, y)||_* for all ||theta|| <= B, ||x||_* <= F, "
          "|y| <= Y, and is attained (approached for logistic without a theta bound).",
          "Hoelder's inequality; erm_geometry §2.2 (Lipschitz w.r.t. a norm <=> dual-norm gradient bound)"),
    Claim("core:Loss curvature constant", "constant",
          "The Frank-Wolfe curvature (factor 2/gamma^2) of a linear-model loss on C is at most "
          "sup phi'' F^2 diam(C)^2, with equality for the squared loss at the diameter's end points; the "
          "empirical version is sup phi'' max_{u,v in C} (1/n)||X(u - v)||^2, exact for the squared loss.",
          "Clarkson 2010; Jaggi 2013; erm_geometry Def 5.1 and Remarks 4-5; lasso Def 2.1 and Remark 1"),
    Claim("core:LASSO constants", "constant",
          "For (scale/n) sum (<x_i, theta> - y_i)^2 on the l1 ball of radius r with ||x||_inf <= 1, |y| <= 1: "
          "L1 = 2 scale (r + 1), Gamma = 8 scale r^2, vertex-score sensitivity 2 L1 r / n, all attained "
          "(lasso normalisation scale = 1: 4, 8, 8/n; erm_geometry eq. (22) scale = 1/2: 2, 4, 4/n).",
          "lasso §2.2 / Cor 2.7; erm_geometry §5.3, Cor 5.7; docs/errata.md core-G03, lasso-E03"),
    Claim("core:Loss input validation", "invariant",
          "Losses reject labels outside {-1, +1} (logistic, hinge), mismatched shapes, non-finite inputs, "
          "negative bounds and unknown norms with a specific error; the squared loss has no Lipschitz constant "
          "without theta and label bounds and the hinge loss no smoothness (ParameterError, never inf or NaN); "
          "check_data raises AssumptionViolation on data outside the stated norm bounds.",
          "docs/architecture.md (conventions: preconditions); docs/errata.md erm_geometry-E22"),
)
