"""Paper ``lasso``: Talwar, Thakurta, Zhang, "Nearly-optimal private LASSO" (NeurIPS 2015).

Seed ../shared/seeds/004_09cb2d1f0bb16a47.txt; catalogue ../shared/spec/lasso.md.

What is here
------------
- The LASSO problem of §2.2: data D = {(x_i, y_i)} with ||x_i||_inf <= 1, |y_i| <= 1, loss
  eq. (2) L(theta; D) = (1/n) sum_i (<x_i, theta> - y_i)^2, constraint ||theta||_1 <= c
  (the paper fixes c = 1 and says the results extend to any c; ``radius`` here).
- Its exact constants (derived in proofs/proof_lasso.py): the per-example l1-Lipschitz
  constant L_1 = 2 (c + 1) (= 4 for c = 1; the paper: "O(1)"), the curvature bound
  Gamma = 8 c^2 (the paper's §2.2 / Remark 1: 4, a factor 2 short, docs/errata.md lasso-E03),
  the score sensitivity 2 L_1 c / n = 4 c (c + 1) / n under replace-one neighbours.
- :func:`frank_wolfe_lasso` (Algorithm 1 on the l1 ball) and :func:`private_lasso`
  (Algorithm 2 with S = {+-c e_j}, Corollary 2.7), both through the shared
  :mod:`reference.algorithms.frank_wolfe`. Two calibrations: ``"paper"`` (every printed choice
  of §2.2: Gamma = 4 c^2 in T, line 3's lambda) and ``"certified"`` (the exact Gamma and the
  smallest Laplace scale the package's accountant certifies).
- The hard instance of the lower bound (§3, Theorem 3.1, Lemma 3.3) on small sizes.

What makes it fast (no line of the paper is hidden)
---------------------------------------------------
Line 3 needs grad L(theta_t; D) = (2/n) X^T (X theta_t - y) at every step. :class:`LassoGradient`
returns exactly that, but keeps it between steps: line 5 moves theta to (1 - mu) theta_t + mu s with
s = +-c e_j, and the gradient of a quadratic is affine, so
grad L(theta_{t+1}) = (1 - mu) grad L(theta_t) + mu grad L(s), grad L(+-c e_j) = (2/n)(+-c X^T X_j - X^T y).
X^T y is computed once, X^T X_j once per distinct selected j; a step then costs O(p) plus 2p noise
draws. (``incremental="residual"`` keeps X theta instead: a one-column update plus one X^T r per
step.) The loop tells the gradient about line 5 through an explicit hook, the cache is used only
when the theta asked for is exactly the one it belongs to, and tests compare with the definition.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validate import check_delta, check_epsilon, check_int, check_positive, check_rng, non_finite_where
from ..claims import Algorithm, Claim
from ..errors import AssumptionViolation, NonFiniteError, ParameterError, ShapeError, warn_privacy
from ..privacy.ledger import FrozenLedger
from . import frank_wolfe as fw

__all__ = [
    "lipschitz_l1", "curvature_bound", "curvature", "score_sensitivity", "horizon",
    "check_lasso_data", "lasso_loss", "LassoGradient", "frank_wolfe_lasso", "private_lasso",
    "PrivateLassoResult", "lasso_noise_scale", "lasso_minimum_lower_bound", "excess_risk",
    "consensus_columns", "planted_code_matrix", "orthogonal_sign_matrix", "hard_instance",
    "hard_instance_loss", "comparison_point", "sign_agreement", "sign_reduction",
    "lemma_3_3_minimum",
]

CALIBRATIONS = ("paper", "certified")
GAMMAS = ("exact", "paper")


# ---------------------------------------------------------------------------
# Constants (proofs/proof_lasso.py derives and checks each)


def lipschitz_l1(radius: float = 1.0) -> float:
    """L_1 = sup_{||theta||_1 <= c, ||x||_inf <= 1, |y| <= 1} ||2 (<x, theta> - y) x||_inf = 2 (c + 1)."""
    c = check_positive(radius, "radius")
    return 2.0 * (c + 1.0)


def curvature_bound(radius: float = 1.0, *, gamma: str = "exact") -> float:
    """A public bound on the curvature constant (Def 2.1) of L(.; d) for every record d.

    ``"exact"``: 8 c^2 (attained: x = e_1, theta_1 = -c e_1, theta_2 = c e_1).
    ``"paper"``: 4 c^2, what §2.2 obtains from Remark 1 ("C_L <= 4 max (1/n) ||X theta||^2");
    Remark 1's constant is Clarkson's 1/gamma^2 convention, half of Def 2.1's (lasso-E03).
    """
    c = check_positive(radius, "radius")
    if gamma not in GAMMAS:
        raise ParameterError("gamma", f"one of {GAMMAS}", gamma)
    return (8.0 if gamma == "exact" else 4.0) * c * c


def curvature(X, radius: float = 1.0) -> float:
    """The exact curvature constant of L(.; D) on the l1 ball: (8 c^2 / n) max_j ||X[:, j]||^2."""
    X = np.asarray(X, dtype=float)
    c = check_positive(radius, "radius")
    return 8.0 * c * c / X.shape[0] * float(np.max(np.einsum("ij,ij->j", X, X)))


def score_sensitivity(n: int, radius: float = 1.0) -> float:
    """sup |<s, grad L(theta; D) - grad L(theta; D')>| over theta in C, s in S, replace-one
    neighbours: 2 L_1 ||C||_1 / n = 4 c (c + 1) / n (tight; the paper: O(L_1 ||C||_1 / n))."""
    n = check_int(n, "n", 1)
    c = check_positive(radius, "radius")
    return 2.0 * lipschitz_l1(c) * c / n


MAX_HORIZON = 10**8   # a larger T would not fit the iterate records in memory


def horizon(n: int, epsilon: float, radius: float = 1.0, *, gamma: str = "exact") -> int:
    """T of Theorem 2.5, T = (Gamma n eps / (L_1 ||C||_1))^(2/3), rounded up, at least 1
    (the paper leaves it real; lasso-E05). With c = 1: (2 n eps)^(2/3) for the exact Gamma = 8,
    (n eps)^(2/3) for the paper's 4."""
    n = check_int(n, "n", 1)
    eps = check_epsilon(epsilon)
    c = check_positive(radius, "radius")
    G = curvature_bound(c, gamma=gamma)
    value = (G * n * eps / (lipschitz_l1(c) * c)) ** (2.0 / 3.0)
    if not value <= MAX_HORIZON:
        raise ParameterError("T", f"at most {MAX_HORIZON:.0e} steps; Theorem 2.5's horizon for n = {n}, "
                             f"epsilon = {eps:g} is {value:.3g} (pass T explicitly)", value)
    # guard against 8.000000000000002 rounding the ceiling up when the value is an integer
    return max(1, math.ceil(value - 1e-9 * value))


# ---------------------------------------------------------------------------
# Data, loss, gradient


def check_lasso_data(X, y) -> tuple[np.ndarray, np.ndarray]:
    """X (n, p), y (n,) in the domain of §2.2 / Cor 2.7: every |X_ij| <= 1 and |y_i| <= 1.

    Raises ShapeError / NonFiniteError / AssumptionViolation naming the bound. Nothing is
    clipped. A float64 C-ordered X is used as is (no copy: a 10^4 x 10^4 design is 800 MB).
    """
    X = np.asarray(X)
    y = np.asarray(y)
    for name, arr in (("X", X), ("y", y)):
        if np.iscomplexobj(arr):   # astype would drop the imaginary part with only a warning
            raise ParameterError(name, "an array of real numbers (not complex)", str(arr.dtype))
    if X.dtype != np.float64:
        try:
            X = X.astype(np.float64)
        except (TypeError, ValueError) as exc:
            raise ParameterError("X", "an array of real numbers", str(X.dtype)) from exc
    if y.dtype != np.float64:
        try:
            y = y.astype(np.float64)
        except (TypeError, ValueError) as exc:
            raise ParameterError("y", "an array of real numbers", str(y.dtype)) from exc
    if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
        raise ShapeError("X", "a non-empty (n, p) array", f"shape {X.shape}")
    if y.shape != (X.shape[0],):
        raise ShapeError("y", f"a vector of length n = {X.shape[0]}", f"shape {y.shape}")
    lo, hi = float(X.min()), float(X.max())     # NaN propagates; no temporary copy of X
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise NonFiniteError("X", "finite entries (no NaN or infinity)", non_finite_where(X, "X"))
    if lo < -1.0 or hi > 1.0:
        raise AssumptionViolation(
            "every feature vector has ||x||_inf <= 1 (lasso §2.2, Cor 2.7)",
            f"X has entries in [{lo:.6g}, {hi:.6g}]; the privacy proof needs the bound, "
            "nothing is clipped")
    if not np.all(np.isfinite(y)):
        raise NonFiniteError("y", "finite entries (no NaN or infinity)", non_finite_where(y, "y"))
    if y.size and float(np.max(np.abs(y))) > 1.0:
        raise AssumptionViolation(
            "every response has |y| <= 1 (lasso §2.2, Cor 2.7)",
            f"largest |y| is {float(np.max(np.abs(y))):.6g}; nothing is clipped")
    return np.ascontiguousarray(X), y


def lasso_loss(theta, X, y) -> float:
    """eq. (2): L(theta; D) = (1/n) sum_i (<x_i, theta> - y_i)^2."""
    r = np.asarray(X) @ np.asarray(theta, dtype=float) - np.asarray(y)
    return float(r @ r) / r.shape[0]


class LassoGradient:
    """theta -> grad L(theta; D) = (2/n) X^T (X theta - y), with two exact speed-ups.

    ``incremental``:

    - ``"gradient"`` (or ``True``, the default): grad L is affine in theta, so after line 5
      (theta_{t+1} = (1 - mu) theta_t + mu s) grad L(theta_{t+1}) = (1 - mu) grad L(theta_t) + mu grad L(s),
      and for a vertex s = v e_j, grad L(s) = (2/n) (v X^T X_j - X^T y). X^T y is computed once and
      X^T X_j once per distinct selected coordinate j (cached), so a step costs O(p) plus, the first
      time j is selected, one product X^T X_j.
    - ``"residual"``: keep z = X theta; X theta_{t+1} = (1 - mu) z + mu v X_j (one column, O(n)); a step
      costs one product X^T (z - y).
    - ``False`` (or ``"none"``): recompute X theta and X^T (X theta - y) at every call.

    The cached value is used only when theta is bit-for-bit the point it belongs to; otherwise the
    gradient is computed from its definition. Tests compare all modes along whole runs.
    """

    MODES = ("gradient", "residual", "none")

    def __init__(self, X, y, *, incremental=True):
        mode = {True: "gradient", False: "none"}.get(incremental, incremental)
        if mode not in self.MODES:
            raise ParameterError("incremental", f"True, False or one of {self.MODES}", incremental)
        self.X = X
        self.y = y
        self.n = X.shape[0]
        self.mode = mode
        self._theta: np.ndarray | None = None
        self._z: np.ndarray | None = None          # X @ self._theta   ("residual")
        self._g: np.ndarray | None = None          # gradient at self._theta ("gradient")
        self._Xty: np.ndarray | None = None
        self._gram: dict[int, np.ndarray] = {}     # j -> X^T X[:, j]

    def _X_times(self, v: np.ndarray) -> np.ndarray:
        # X v over the support of v (FW iterates are sparse: ||theta_t||_0 <= t)
        nz = np.flatnonzero(v)
        if nz.size == 0:
            return np.zeros(self.n)
        if nz.size > self.X.shape[1] // 4:
            return self.X @ v
        return self.X[:, nz] @ v[nz]

    def _direct(self, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        z = self._X_times(theta)
        return z, (2.0 / self.n) * (self.X.T @ (z - self.y))

    def residual(self, theta) -> np.ndarray:
        """X theta - y."""
        theta = np.asarray(theta, dtype=float)
        if self.mode == "residual" and self._theta is not None and np.array_equal(theta, self._theta):
            return self._z - self.y
        return self._X_times(theta) - self.y

    def __call__(self, theta) -> np.ndarray:
        theta = np.asarray(theta, dtype=float)
        cached = self._theta is not None and np.array_equal(theta, self._theta)
        if self.mode == "gradient" and cached:
            return self._g.copy()
        if self.mode == "residual" and cached:
            return (2.0 / self.n) * (self.X.T @ (self._z - self.y))
        z, g = self._direct(theta)
        if self.mode != "none":
            self._theta, self._z, self._g = theta.copy(), z, g
        return g

    def after_step(self, theta_next, mu, vertex) -> None:
        """Line 5 moved theta_t to (1 - mu) theta_t + mu s; update the cache to theta_{t+1}."""
        if self.mode == "none" or self._theta is None:
            return
        vertex = np.asarray(vertex, dtype=float)
        nz = np.flatnonzero(vertex)
        if self.mode == "residual":
            self._z = (1.0 - mu) * self._z + mu * self._X_times(vertex)
        elif nz.size == 1:
            j = int(nz[0])
            if self._Xty is None:
                self._Xty = self.X.T @ self.y
            if j not in self._gram:
                self._gram[j] = self.X.T @ np.ascontiguousarray(self.X[:, j])
            grad_s = (2.0 / self.n) * (vertex[j] * self._gram[j] - self._Xty)
            self._g = (1.0 - mu) * self._g + mu * grad_s
        else:                      # not a signed basis vertex: fall back to the definition next call
            self._theta = None
            return
        self._theta = np.array(theta_next, dtype=float)


# ---------------------------------------------------------------------------
# Algorithm 1 and Algorithm 2 on the l1 ball


def _theta1(theta1, p: int, radius: float) -> np.ndarray:
    if theta1 is None:
        return np.zeros(p)      # public, data-independent; then ||theta_T||_0 <= T - 1
    theta1 = np.asarray(theta1, dtype=float)
    if theta1.shape != (p,):
        raise ShapeError("theta1", f"a vector of length p = {p}", f"shape {theta1.shape}")
    if not np.all(np.isfinite(theta1)):
        raise NonFiniteError("theta1", "finite entries", non_finite_where(theta1, "theta1"))
    if float(np.sum(np.abs(theta1))) > radius * (1 + 1e-12):
        raise ParameterError("theta1", f"a point of the l1 ball ||theta_1||_1 <= {radius:g}",
                             float(np.sum(np.abs(theta1))))
    return theta1


def frank_wolfe_lasso(X, y, T: int, *, radius: float = 1.0, theta1=None, step_size="paper",
                      keep_iterates: bool = True) -> fw.FrankWolfeResult:
    """Algorithm 1 (lasso §2) on the LASSO objective eq. (2) over the l1 ball of radius c.

    Thin wrapper over :func:`reference.algorithms.frank_wolfe.frank_wolfe` with the LMO of
    Fact 2.3 over S = {+-c e_j}. Theorem 2.2: L(theta_T) - L* = O(Gamma / T).
    """
    X, y = check_lasso_data(X, y)
    c = check_positive(radius, "radius")
    T = check_int(T, "T", 1)
    p = X.shape[1]
    return fw.frank_wolfe(LassoGradient(X, y), fw.SignedBasis(p, c), _theta1(theta1, p, c), T,
                          step_size=step_size, keep_iterates=keep_iterates)


@dataclass(frozen=True)
class PrivateLassoResult:
    """The output of :func:`private_lasso` and its evidence.

    theta: theta_priv = theta_T. iterates: (T, p) array or None. selected_index: the vertex
    chosen at each step (index into [c e_1..c e_p, -c e_1..-c e_p]). noise_scale: lambda.
    ledger: one selection event per step (T - 1 events). gamma: the curvature bound T was set
    from ("paper" = 4 c^2, "exact" = 8 c^2). claimed_epsilon, delta: the target (epsilon, delta)
    the run claims; certified_epsilon: what the package's accountant certifies for ``ledger`` at
    ``delta``, side by side with the claim: for ``calibration="paper"`` it is typically more
    than the claim (docs/errata.md lasso-E02), for ``"certified"`` at most the claim.
    """

    theta: np.ndarray
    iterates: np.ndarray | None
    selected_index: np.ndarray
    step_sizes: np.ndarray
    T: int
    noise_scale: float
    score_sensitivity: float
    calibration: str
    selection: str
    gamma: str
    claimed_epsilon: float
    certified_epsilon: float
    delta: float
    radius: float
    ledger: FrozenLedger


def lasso_noise_scale(n: int, T: int, epsilon: float, delta: float, *, radius: float = 1.0,
                      calibration: str = "paper", selection: str = "laplace") -> float:
    """lambda for Algorithm 2 on the LASSO.

    ``"paper"``: line 3 verbatim, L_1 ||C||_1 sqrt(8 T ln(1/delta)) / (n eps) with L_1 = 2 (c+1),
    ||C||_1 = c. ``"certified"``: the smallest scale for which the accountant certifies the
    T - 1 selections, each of score sensitivity 4 c (c+1) / n, (eps, delta)-DP.
    """
    c = check_positive(radius, "radius")
    if calibration == "paper":
        return fw.paper_laplace_scale(lipschitz_l1(c), c, T, n, epsilon, delta)
    if calibration == "certified":
        noise = "gumbel" if selection == "exponential" else selection
        return fw.certified_laplace_scale(score_sensitivity(n, c), T, epsilon, delta, noise=noise)
    raise ParameterError("calibration", f"one of {CALIBRATIONS}", calibration)


def private_lasso(X, y, epsilon: float, delta: float, rng: np.random.Generator, *,
                  radius: float = 1.0, T: int | None = None, calibration: str = "paper",
                  selection: str = "laplace", gamma: str | None = None, theta1=None,
                  step_size="paper", keep_iterates: bool = True,
                  incremental=True) -> PrivateLassoResult:
    """Private LASSO: Algorithm 2 A_Noise-FW(polytope) on the l1 ball (lasso §2.2, Corollary 2.7).

    Paper ``lasso``, Algorithm 2 (§2.1) instantiated as §2.2 says: S = {+-c e_j} (|S| = 2p,
    ||C||_1 = c), L_1 = 2 (c + 1) (the paper: O(1)), T from Theorem 2.5 unless given. Privacy:
    Theorem 2.4; utility: Theorem 2.5 / Corollary 2.7 / Theorem 1.1.

    ``calibration`` is the one switch between the paper as printed and the corrected constants:

    ============  ==========================================  ==========================================
                  ``"paper"`` (every printed choice of §2.2)  ``"certified"``
    ============  ==========================================  ==========================================
    Gamma         4 c^2 (§2.2 via Remark 1)                   8 c^2 (exact, Def 2.1; lasso-E03)
    T             Thm 2.5: (Gamma n eps / (L_1 c))^(2/3)      the same formula with the exact Gamma
    lambda        Alg 2 line 3 as printed                     the accountant's smallest certified scale
    mu_t          2/(t+2) (Alg 2 line 5)                      2/(t+2)
    ============  ==========================================  ==========================================

    Named options override single choices: ``gamma`` ("paper" | "exact"), ``T``, ``step_size``.

    X, y      data with every |X_ij| <= 1 and |y_i| <= 1 (checked; nothing is clipped)
    epsilon, delta   the claimed guarantee (epsilon > 0, 0 < delta < 1)
    rng       numpy Generator (same seed, same bits)
    radius    c > 0
    selection "laplace" (Alg 2 lines 3-4), "gumbel" or "exponential" (the exponential-mechanism
              form that §2.1's text names; same privacy bound, different output law)
    incremental  "gradient" (True, default), "residual" or False: how grad L(theta_t; D) is kept
              between steps (:class:`LassoGradient`); all give the same selections
    """
    X, y = check_lasso_data(X, y)
    eps = check_epsilon(epsilon)
    d = check_delta(delta)
    c = check_positive(radius, "radius")
    rng = check_rng(rng)
    if calibration not in CALIBRATIONS:
        raise ParameterError("calibration", f"one of {CALIBRATIONS}", calibration)
    if gamma is None:
        gamma = "paper" if calibration == "paper" else "exact"
    n, p = X.shape
    # Input of Algorithm 2 (§2.2): S = {+-c e_j}, ||C||_1 = c, L_1 = 2 (c + 1); T of Theorem 2.5
    # with Gamma = curvature_bound(c, gamma) unless T is given (public)
    T = horizon(n, eps, c, gamma=gamma) if T is None else check_int(T, "T", 1)
    fw.check_horizon_fits(T, p, keep_iterates)
    sens = score_sensitivity(n, c)
    # Line 1: theta_1 = 0 unless given (public, data-independent)
    start = _theta1(theta1, p, c)
    # Line 2-6: Algorithm 2's loop in frank_wolfe.private_frank_wolfe_polytope, with line 3's
    # lambda = L_1 ||C||_1 sqrt(8 T log(1/delta)) / (n eps) ("paper") or the accountant's ("certified")
    lam = lasso_noise_scale(n, T, eps, d, radius=c, calibration=calibration, selection=selection)
    res = fw.private_frank_wolfe_polytope(
        LassoGradient(X, y, incremental=incremental), fw.SignedBasis(p, c), start,
        T, noise_scale=lam, score_sensitivity=sens, rng=rng, selection=selection,
        step_size=step_size, keep_iterates=keep_iterates, label="private-lasso")
    certified = fw.certified_epsilon(res.ledger, d)
    if certified > eps * (1 + 1e-9):   # the claim this run makes is not one the package can prove
        warn_privacy(f"private_lasso(calibration={calibration!r}): the accountant certifies epsilon "
                     f"{certified:.4g} > the claimed {eps:g} at delta {d:g} for this run's noise",
                     "lasso-E02", "calibration='certified' (the accountant's smallest certified scale)")
    return PrivateLassoResult(
        theta=res.theta, iterates=res.iterates, selected_index=res.selected_index,
        step_sizes=res.step_sizes, T=T, noise_scale=lam, score_sensitivity=sens,
        calibration=calibration, selection=selection, gamma=gamma, claimed_epsilon=eps,
        certified_epsilon=certified, delta=d, radius=c, ledger=res.ledger)


# ---------------------------------------------------------------------------
# Excess risk (eq. (1)) with a certified optimum


def lasso_minimum_lower_bound(X, y, *, radius: float = 1.0, steps: int = 2000) -> tuple[float, float]:
    """(lower, upper) bounds on min_{||theta||_1 <= c} L(theta; D): run Algorithm 1 for ``steps``
    steps; upper = L(theta_K), lower = L(theta_K) - gap(theta_K) (Frank-Wolfe duality gap)."""
    X, y = check_lasso_data(X, y)
    c = check_positive(radius, "radius")
    grad = LassoGradient(X, y)
    S = fw.SignedBasis(X.shape[1], c)
    res = fw.frank_wolfe(grad, S, np.zeros(X.shape[1]), check_int(steps, "steps", 1),
                         keep_iterates=False)
    upper = lasso_loss(res.theta, X, y)
    return upper - fw.duality_gap(LassoGradient(X, y, incremental=False), S, res.theta), upper


def excess_risk(theta, X, y, lower_bound: float) -> float:
    """eq. (1) measured against a certified lower bound of the optimum (so it is an upper bound
    on the true excess risk, by at most the gap left in ``lower_bound``)."""
    return lasso_loss(theta, X, y) - lower_bound


# ---------------------------------------------------------------------------
# §3: the hard instance of the lower bound (Theorem 3.1, eq. (3), Lemma 3.3)


def consensus_columns(Xsub) -> tuple[np.ndarray, np.ndarray]:
    """(W, s): the consensus columns of a {-1, 1} matrix (all entries equal) and their signs."""
    Xsub = np.asarray(Xsub)
    allpos = np.all(Xsub == 1, axis=0)
    allneg = np.all(Xsub == -1, axis=0)
    W = np.flatnonzero(allpos | allneg)
    return W, np.where(allpos[W], 1, -1).astype(np.int64)


def planted_code_matrix(w: int, p: int, tau: float, rng: np.random.Generator) -> np.ndarray:
    """A synthetic X in {-1, 1}^{(w+1) x p} in which every X_(i) (row i removed) has at least
    (1 - tau) p consensus columns: ceil((1 - tau) p) columns are constant over all rows (random
    signs), the rest are random. It stands in for Theorem 3.2's padded Tardos code only on the
    LASSO side of the proof (eq. (3), Lemma 3.3); it has no tracing property (docs/lasso.md)."""
    w = check_int(w, "w", 1)
    p = check_int(p, "p", 1)
    tau = check_positive(tau, "tau")
    rng = check_rng(rng)
    n_cons = math.ceil((1.0 - tau) * p)
    X = rng.choice(np.array([-1, 1], dtype=np.int64), size=(w + 1, p))
    cols = rng.permutation(p)[:n_cons]
    X[:, cols] = rng.choice(np.array([-1, 1], dtype=np.int64), size=n_cons)[None, :]
    return X


def orthogonal_sign_matrix(k: int, p: int) -> np.ndarray:
    """Y in {-1, 1}^{k x p} with mutually orthogonal columns (Y^T Y = k I_p): Sylvester's
    Hadamard matrix of order 2^r >= p, first p columns, stacked k / 2^r times. Needs k a multiple
    of 2^r (the paper only says "possible as k >> p")."""
    from scipy.linalg import hadamard

    k = check_int(k, "k", 1)
    p = check_int(p, "p", 1)
    order = 1 << max(0, (p - 1).bit_length())
    if k % order:
        raise ParameterError("k", f"a multiple of {order} (the Hadamard order >= p = {p})", k)
    H = hadamard(order).astype(np.int64)[:, :p]
    return np.tile(H, (k // order, 1))


def hard_instance(Xcode, i: int, Y) -> tuple[np.ndarray, np.ndarray]:
    """D_i of §3 (0-based i): the k common records (z_j, 0), z_j the rows of Y, followed by the
    w records (x_j, 1) for the rows x_j of ``Xcode`` with j != i. Returns (features, labels);
    n = k + w (the paper writes w + wp, lasso-E07)."""
    Xcode = np.asarray(Xcode)
    Y = np.asarray(Y)
    i = check_int(i, "i", 0)
    if i >= Xcode.shape[0]:
        raise ParameterError("i", f"0 <= i < w + 1 = {Xcode.shape[0]}", i)
    if Y.shape[1] != Xcode.shape[1]:
        raise ShapeError("Y", f"p = {Xcode.shape[1]} columns", f"shape {Y.shape}")
    rows = np.delete(Xcode, i, axis=0)
    features = np.vstack([Y, rows]).astype(float)
    labels = np.concatenate([np.zeros(Y.shape[0]), np.ones(rows.shape[0])])
    return features, labels


def hard_instance_loss(theta, Xcode, i: int, k: int) -> float:
    """The un-normalised loss of §3 by its closed form: sum_{j != i} (x_j . theta - 1)^2 + k ||theta||_2^2
    (the last equality of the display, valid when Y^T Y = k I)."""
    theta = np.asarray(theta, dtype=float)
    rows = np.delete(np.asarray(Xcode, dtype=float), i, axis=0)
    r = rows @ theta - 1.0
    return float(r @ r + k * theta @ theta)


def comparison_point(Xcode, i: int) -> np.ndarray:
    """theta* in {-1/p, 1/p}^p with the signs of the consensus columns of X_(i) (eq. (3));
    +1/p on the other columns (the paper leaves them arbitrary)."""
    Xcode = np.asarray(Xcode)
    p = Xcode.shape[1]
    W, s = consensus_columns(np.delete(Xcode, i, axis=0))
    theta = np.full(p, 1.0 / p)
    theta[W] = s / p
    return theta


def sign_agreement(theta, Xcode, i: int) -> int:
    """|{j in W_i : sign(theta_j) = s_j}| (Lemma 3.3; sign(0) = 0 never agrees)."""
    W, s = consensus_columns(np.delete(np.asarray(Xcode), i, axis=0))
    return int(np.sum(np.sign(np.asarray(theta)[W]) == s))


def lemma_3_3_minimum(Xcode, i: int, k: int, fraction: float = 0.75) -> float:
    """min { L(theta; D_i) : ||theta||_1 <= 1, theta agrees in sign with < fraction * p consensus
    columns of X_(i) } for the un-normalised loss of §3, computed exactly.

    Lemma 3.3 says it is >= 1.1 tau w. Reduction (exact): on a consensus column x_{j,l} = s_l for
    every row, so the loss sees theta_W only through sum_l s_l theta_l and sum_l theta_l^2. A
    violating theta has >= |W| - m1 coordinates with s_l theta_l <= 0 (m1 = ceil(fraction p) - 1);
    call them G2 and the other m1 consensus coordinates G1. Averaging theta over permutations of
    G1 and of G2 keeps it feasible and does not increase the convex loss, so the minimum has a
    common value a on G1 (a real) and b on G2 (s_l theta_l = b <= 0). What is left is a convex QP in
    (a, b, theta_3) (theta_3 on the non-consensus columns), solved exactly by enumerating sign
    orthants and active sets (every candidate is a feasible point, and the minimiser is one of them).
    """
    import itertools

    Xcode = np.asarray(Xcode, dtype=float)
    p = Xcode.shape[1]
    rows = np.delete(Xcode, i, axis=0)
    W, s = consensus_columns(rows)
    S3 = np.setdiff1d(np.arange(p), W)
    m1 = math.ceil(fraction * p) - 1
    m2 = len(W) - m1
    if m2 <= 0:
        raise ParameterError("Xcode", f"more than {m1} consensus columns in X_(i)", len(W))
    r = len(S3)
    # z = (a, b, theta_3); row value = m1 a + m2 b + X_{j,S3} theta_3 (b is s_l theta_l on G2)
    A = np.column_stack([np.full(rows.shape[0], m1), np.full(rows.shape[0], m2), rows[:, S3]])
    Dg = np.concatenate([[m1, m2], np.ones(r)])
    H = 2.0 * (A.T @ A + k * np.diag(Dg))
    q = -2.0 * A.T @ np.ones(rows.shape[0])
    l1w = np.concatenate([[m1, m2], np.ones(r)])

    def value(z):
        res = A @ z - 1.0
        return float(res @ res + k * np.sum(Dg * z * z))

    best = math.inf
    dim = 2 + r
    for signs in itertools.product((1.0, -1.0), repeat=dim):
        if signs[1] > 0:          # b <= 0 on G2
            continue
        sg = np.array(signs)
        # constraints g(z) <= 0: -sg_i z_i <= 0 (orthant), sum l1w sg z - 1 <= 0 (the l1 ball)
        G = np.vstack([-np.diag(sg), (l1w * sg)[None, :]])
        h = np.concatenate([np.zeros(dim), [1.0]])
        for active in itertools.product((False, True), repeat=dim + 1):
            act = np.flatnonzero(active)
            Ga = G[act]
            kkt = np.block([[H, Ga.T], [Ga, np.zeros((len(act), len(act)))]])
            rhs = np.concatenate([-q, h[act]])
            try:
                sol = np.linalg.solve(kkt, rhs)
            except np.linalg.LinAlgError:
                continue
            z = sol[:dim]
            if np.all(G @ z <= h + 1e-12):
                best = min(best, value(z))
    return best


def sign_reduction(mechanism, Y):
    """The reduction of the proof of Theorem 3.1: from a LASSO mechanism A (features, labels,
    rng -> theta) build A'(X_(i)) = sign(A(D_i)), where D_i is the public records (z_j, 0) plus
    the rows of X_(i) labelled 1. A' touches X_(i) only through A, so a row change of X_(i) is a
    replace-one change of D_i and A' inherits A's (epsilon, delta)."""
    Y = np.asarray(Y)

    def reduced(Xsub, rng):
        Xsub = np.asarray(Xsub)
        features = np.vstack([Y, Xsub]).astype(float)
        labels = np.concatenate([np.zeros(Y.shape[0]), np.ones(Xsub.shape[0])])
        return np.sign(np.asarray(mechanism(features, labels, rng)))

    return reduced


# ---------------------------------------------------------------------------
# Registry

ALGORITHMS = (
    Algorithm("lasso", "Corollary 2.7", "private LASSO: Algorithm 2 on the l1 ball of radius c",
              "reference.algorithms.lasso:private_lasso", "Section 2.2"),
)

CLAIMS = (
    Claim("lasso:§2.2 Lipschitz constant", "constant",
          "For ||x||_inf <= 1, |y| <= 1 and ||theta||_1 <= c the per-example gradient has "
          "||grad||_inf <= 2 (c + 1) (= 4 at c = 1), attained; the paper says O(1).",
          "lasso §2.2"),
    Claim("lasso:§2.2 curvature", "constant",
          "The curvature constant (Def 2.1) of the LASSO loss on the l1 ball is exactly "
          "(8 c^2 / n) max_j ||X_j||^2 <= 8 c^2; the paper's 4 (Remark 1, §2.2) is short by a factor 2 (proved for "
          "every n, p and data: the ratio identity in sympy's matrix algebra, the triangle inequality, the vertex).",
          "lasso Def 2.1, Remark 1, §2.2"),
    Claim("lasso:Theorem 2.4 sensitivity", "sensitivity",
          "Between replace-one neighbours every vertex score <s, grad L(theta; D)> moves by at most "
          "2 L_1 ||C||_1 / n = 4 c (c + 1) / n, attained; the paper writes O(L_1 ||C||_1 / n).",
          "lasso §2.1, display after Theorem 2.4"),
    Claim("lasso:Theorem 2.4", "privacy",
          "Algorithm 2 (private LASSO) is (eps, delta)-DP under replace-one neighbours: checked by "
          "exact transcript laws on tiny instances (both calibrations) and an empirical audit with a "
          "negative control; the accountant certifies it for the certified calibration only.",
          "lasso §2.1 Theorem 2.4"),
    Claim("lasso:Theorem 2.4 per-step", "privacy",
          "One selection (report-noisy-min, Laplace(lambda) noise, scores of sensitivity Delta) is "
          "(2 Delta/lambda)-DP; for the +-e_j vertices the loss exceeds Delta/lambda, so the monotone "
          "bound does not apply.", "lasso §2.1 proof sketch of Theorem 2.4 ([3, Thm 5], [21])"),
    Claim("lasso:Theorem 2.4 accounting", "accounting",
          "The printed lambda is the advanced-composition calibration (Dwork-Roth Cor 3.21) for the "
          "nominal sensitivity L_1 ||C||_1/n with the monotone bound; the true ledger (sensitivity "
          "2 L_1 ||C||_1/n, general bound) is certified at more than eps, and the certified "
          "calibration at most eps.", "lasso §2.1 Theorem 2.4 and its proof sketch ([13])"),
    Claim("lasso:Algorithm 2 line 3", "constant",
          "The paper calibration uses lambda = L_1 ||C||_1 sqrt(8 T ln(1/delta)) / (n eps) exactly, "
          "with T (not T - 1) under the root.", "lasso Algorithm 2 line 3"),
    Claim("lasso:Bad input", "invariant",
          "Features outside [-1, 1], responses outside [-1, 1], radius <= 0, T < 1, eps <= 0 and "
          "delta outside (0, 1) are refused with an error naming the bound; nothing is clipped.",
          "lasso §2.2, Cor 2.7 domain"),
    Claim("lasso:Theorem 2.5", "utility",
          "Private Frank-Wolfe's expected excess risk is at most (2 h_1 + 2 Gamma (T-1) + lambda H_|S| "
          "(T(T+1) - 2)) / (T(T+1)) (the explicit form of Theorem 2.5's O(.), derived for mu_t = 2/(t+2)).",
          "lasso Theorem 2.5"),
    Claim("lasso:Theorem 1.1 rate", "utility",
          "With T and lambda as Section 2.2 prints them the excess risk of private LASSO decays in n at least "
          "like n^(-2/3) (fitted exponent at most -2/3, its interval excluding -1/2) and grows only "
          "logarithmically in p (Theorem 1.1 / Corollary 2.7 shape).",
          "lasso Theorem 1.1, Theorem 2.5, Corollary 2.7"),
    Claim("lasso:Corollary 2.7", "utility",
          "At Section 2.2's T and lambda (paper calibration), theta_1 = 0 and data with ||x||_inf <= 1, |y| <= 1, "
          "private LASSO has E excess <= (18 + 8 sqrt(2) H_2p sqrt((1 + 1/A) ln(1/delta))) / A, A = (n eps)^(2/3) "
          "(Theorem 2.5's explicit bound with Gamma <= 8, h_1 <= 1): Corollary 2.7 with Theorem 2.5's log factor "
          "log(2p) sqrt(log(1/delta)); the printed log(np/delta) does not follow from it (lasso-E06).",
          "lasso Corollary 2.7, Theorem 2.5"),
    Claim("lasso:Remark 2", "utility",
          "Corollary 2.7's bound needs no restricted strong convexity or mutual incoherence: it holds on a design "
          "with repeated and negated columns (X^T X singular, coherence 1), where the start point fails it.",
          "lasso Remark 2"),
    Claim("lasso:§2.2 normalisation", "invariant",
          "The companion's loss (1/(2n)) ||X theta - y||^2 with its constants halved (L_1 = 2, Gamma = 4: "
          "erm_geometry Algorithm 4 on eq. (22)) is the same run as private LASSO on (1/n) ||X theta - y||^2 "
          "(L_1 = 4, Gamma = 8): same T, lambda halved, same selections and output for the same seed.",
          "lasso §2.2, erm_geometry eq. (22) and Section 5.3"),
    Claim("lasso:Theorem 2.5 balance", "constant",
          "T = (Gamma n eps / (L_1 ||C||_1))^(2/3) equalises Gamma/T and L_1 ||C||_1 sqrt(T)/(n eps), both "
          "Gamma^(1/3) (L_1 ||C||_1)^(2/3) / (n eps)^(2/3).", "lasso Theorem 2.5"),
    Claim("lasso:Lemma 3.3 constants", "constant",
          "sqrt(1.1 tau) <= 0.04, sqrt(0.825) <= 0.91, 0.05^2 >= 1.1 tau, tau + 4 tau^2 < 1.1 tau at tau = "
          "0.001; the proof's constants hold for every tau <= 0.0019113.", "lasso §3 Lemma 3.3, eq. (4)"),
    Claim("lasso:Theorem 3.1 normalisation", "lower-bound",
          "With w = m/ln m and n = w (1 + m^2) the normalised bound c/(1 + m^2) is Theta(1/(n ln n)^(2/3)), "
          "the ratio rising to 3^(2/3) for every m >= 20 (narrowed: proved from m = 20 on, in x = ln m with monotone bounds; "
          "below 20 not claimed).", "lasso §3, end of the proof of Theorem 3.1"),
    Claim("lasso:§3 orthogonal design", "lower-bound",
          "With Y^T Y = k I the common records contribute sum_j (z_j . theta)^2 = k ||theta||^2.",
          "lasso §3, display before eq. (3)"),
    Claim("lasso:eq (3)", "lower-bound",
          "With at least (1 - tau) p consensus columns, theta* (signs of the consensus, magnitude 1/p) "
          "has ||theta*||_1 = 1 and un-normalised loss <= (tau + 4 tau^2) w on D_i.",
          "lasso §3 eq. (3)"),
    Claim("lasso:Lemma 3.3", "lower-bound",
          "If ||theta||_1 <= 1 and L(theta; D_i) < 1.1 tau w then theta agrees in sign with at least "
          "3p/4 consensus columns of X_(i).", "lasso §3 Lemma 3.3"),
    Claim("lasso:§3 neighbouring instances", "lower-bound",
          "The data sets D_i lie in the domain, have n = k + w records, and D_i, D_i' differ in "
          "exactly one record (a replace-one pair), so the sign reduction inherits (eps, delta).",
          "lasso §3, proof of Theorem 3.1"),
)
