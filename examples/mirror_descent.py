"""A vectorised NumPy port of noisy mirror descent, written from the paper.

Talwar, Thakurta, Zhang, "Private empirical risk minimization beyond the worst case: the effect of the
constraint set geometry" (/work/shared/seeds/000_*): Algorithm 1, A_Noise-MD (Section 3.1), on the loss
1/2 (<x, theta> - y)^2 with declared l2-Lipschitz constant L = 2 (rows with ||x||_2 <= 1, |y| <= 1).
Vectorised: the full gradient is two matrix products, and the T noise vectors b_1..b_T are one
``rng.standard_normal((T, p))`` call before the loop (b_t does not depend on theta_t, so drawing them
first is the same algorithm and the same stream of values).

It takes the arguments of the function ``python -m reference conform --algorithm "erm_geometry:Algorithm 1"``
calls (``reference.oracle.cases.erm_geometry:mirror_descent_squared_loss``) and returns theta_priv. Check it with

    python -m reference conform examples.mirror_descent:noisy_mirror_descent --algorithm "erm_geometry:Algorithm 1"

Where the paper is open or garbled the port follows the reference's recorded resolutions (docs/errata.md):

- line 4 (erm_geometry-E01): theta_(t+1) = argmin_C eta <g_t + b_t, theta> + B_Psi(theta, theta_t);
- line 2 (erm_geometry-E02): theta_1 = argmin_C Psi (0 on the balls, the uniform point on the simplex);
- ``geometry="l1-lq"``: C the unit l1 ball (k = 2p vertices), Psi = c ||theta||_q^2 with q = ln k/(ln k - 1)
  (q = 2 when k < 8) and c = k^(2(1 - 1/q)) / (2 (q - 1) r^2), the constant that makes Psi 1-strongly
  convex in ||.||_1 / r (erm_geometry-E08); ``"l1-lq-paper-constant"``: Fact 3.4 as printed,
  Psi = ||theta||_{Q,q}^2 / (4 (q-1)) in the quotient norm ||theta||_{Q,q} = 2^(1/q - 1) ||theta||_q / r,
  i.e. c = 2^(2/q - 2) / (4 (q - 1) r^2); ``"l2-euclidean"``: C the unit l2 ball, Psi = ||theta||^2 / 2 (the
  step is a projection); ``"simplex-entropy"``: C the probability simplex, Psi = sum theta_i ln theta_i (the
  step is exponentiated gradient, theta_1 the uniform point);
- ``eta`` a number or the T + 1 step sizes eta_1..eta_(T+1); ``T = eta = "theorem-3.2"``: Theorem 3.2's
  T = floor(r_Q^2 eps^2 n^2 / (ln^2(n/delta) (r_Q^2 + G_Q^2))) and eta = sqrt(R_Psi) / (L r_Q sqrt(T)) as in the
  proof (erm_geometry-E04), with r_Q = 1, G_Q the Gaussian width of Q (E max_j |g_j| for the l1 ball, which
  is Q for the l_q and entropy potentials; E ||g||_2 for the l2 ball) and R_Psi = max_C Psi - min_C Psi
  (c, 1/2, ln p);
- the noise: sigma * standard_normal, sigma^2 = 32 L^2 T log^2(T/delta) / (eps n)^2 (line 1, natural log)
  for ``calibration="paper"``; for ``"certified"`` the smallest sigma the reference's accountant certifies
  for T Gaussian steps of l2 sensitivity 2 L / n (replace-one), asked of the accountant as a user would.

Replay needs the noise requested as the reference requests it: ``standard_normal`` scaled by sigma.
``rng.normal(0, sigma, ...)`` returns bitwise the same numbers but asks for normal(scale=sigma), which the
replay refuses as another distribution (docs/conformance.md); the law check passes either.
"""

from __future__ import annotations

import math

import numpy as np

LIPSCHITZ = 2.0


def paper_sigma(epsilon: float, delta: float, n: int, T: int) -> float:
    """Line 1: sigma = sqrt(32 L^2 T log^2(T/delta)) / (eps n)."""
    return math.sqrt(32.0 * LIPSCHITZ ** 2 * T * math.log(T / delta) ** 2) / (epsilon * n)


class _LqStep:
    """Psi(theta) = c ||theta||_q^2 on the l1 ball of radius r: gradient, its inverse, the Bregman step."""

    def __init__(self, p: int, r: float = 1.0, printed: bool = False):
        k = 2 * p
        self.q = math.log(k) / (math.log(k) - 1.0) if k >= 8 else 2.0
        self.qs = self.q / (self.q - 1.0)                       # dual exponent
        if printed:     # Fact 3.4 as printed: ||.||_{Q,q}^2 / (4 (q - 1)), ||.||_{Q,q} = 2^(1/q - 1) ||.||_q / r
            self.c = 2.0 ** (2.0 / self.q - 2.0) / (4.0 * (self.q - 1.0) * r * r)
        else:
            self.c = k ** (2.0 * (1.0 - 1.0 / self.q)) / (2.0 * (self.q - 1.0) * r * r)
        self.r = r
        self.start = None                                        # theta_1 = 0
        self.range = self.c * r * r                              # max over the ball (a vertex) minus min (0)

    @staticmethod
    def _power_map(v, a, scale):
        # scale * ||v||_a^(2-a) sign(v) |v|^(a-1): the gradient of (scale/2) ||v||_a^2, computed scale-free
        m = float(np.max(np.abs(v)))
        if m == 0.0:
            return np.zeros_like(v)
        u = v / m
        norm_u = float(np.sum(np.abs(u) ** a)) ** (1.0 / a)
        return scale * m * norm_u ** (2.0 - a) * np.sign(u) * np.abs(u) ** (a - 1.0)

    def grad(self, theta):                                       # grad Psi
        return self._power_map(theta, self.q, 2.0 * self.c)

    def dual_grad(self, z):                                      # (grad Psi)^-1 = grad Psi*
        return self._power_map(z, self.qs, 1.0 / (2.0 * self.c))

    def __call__(self, theta, g, eta):
        """argmin_{||y||_1 <= r} eta <g, y> + B_Psi(y, theta) = argmin psi(y) - <z, y>, z = grad Psi(theta) - eta g.
        Unconstrained: y = grad Psi*(z); else the l1 multiplier lam > 0 with ||grad Psi*(soft(z, lam))||_1 = r,
        found by bisection to the last bit (the l1 norm is continuous and decreasing in lam)."""
        z = self.grad(theta) - eta * g
        y = self.dual_grad(z)
        if np.sum(np.abs(y)) <= self.r:
            return y

        def at(lam):
            return self.dual_grad(np.sign(z) * np.maximum(np.abs(z) - lam, 0.0))

        lo, hi = 0.0, float(np.max(np.abs(z)))
        while True:
            mid = 0.5 * (lo + hi)
            if not lo < mid < hi:
                break
            if np.sum(np.abs(at(mid))) > self.r:
                lo = mid
            else:
                hi = mid
        y = at(hi)
        s = float(np.sum(np.abs(y)))
        return y * (self.r / s) if s > self.r else y


def _euclidean_step(theta, g, eta, r=1.0):
    """argmin_{||y||_2 <= r} eta <g, y> + ||y - theta||^2 / 2: the projection of theta - eta g."""
    y = theta - eta * g
    norm = float(np.linalg.norm(y))
    return y * (r / norm) if norm > r else y


_euclidean_step.start, _euclidean_step.range = None, 0.5       # theta_1 = 0; max ||theta||^2/2 on the ball


class _EntropyStep:
    """Psi(theta) = sum theta_i ln theta_i on the simplex: exponentiated gradient from the uniform point."""

    def __init__(self, p: int):
        self.start, self.range = np.full(p, 1.0 / p), math.log(p)

    def __call__(self, theta, g, eta):
        logits = np.log(theta) - eta * g
        w = np.exp(logits - np.max(logits))
        return w / np.sum(w)


def _width_l1_ball(p: int) -> float:
    """E max_j |g_j| = int_0^inf 1 - P(|g_1| <= x)^p dx for g ~ N(0, I_p)."""
    from scipy import integrate, special

    def tail(x):
        return -math.expm1(p * math.log1p(-special.erfc(x / math.sqrt(2.0))))

    split = math.sqrt(2.0 * math.log(2.0 * p))
    return (integrate.quad(tail, 0.0, split, epsabs=1e-13, epsrel=1e-12)[0]
            + integrate.quad(tail, split, math.inf, epsabs=1e-13, epsrel=1e-12)[0])


def theorem_3_2(n: int, p: int, epsilon: float, delta: float, geometry: str, range_psi: float) -> tuple[int, float]:
    """Theorem 3.2's (T, eta) as its proof sets them (erm_geometry-E04), r_Q = 1, L = 2."""
    width = (math.sqrt(2.0) * math.gamma((p + 1) / 2.0) / math.gamma(p / 2.0) if geometry == "l2-euclidean"
             else _width_l1_ball(p))
    T = max(1, math.floor(epsilon ** 2 * n ** 2 / (math.log(n / delta) ** 2 * (1.0 + width ** 2))))
    return T, math.sqrt(range_psi) / (LIPSCHITZ * math.sqrt(T))


def noisy_mirror_descent(X, y, epsilon, delta, T, eta, geometry, calibration, rng):
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise ValueError(f"X must be (n, p) and y (n,); got {X.shape} and {y.shape}")
    if not (np.all(np.isfinite(X)) and np.all(np.isfinite(y))):
        raise ValueError("X and y must be finite")
    if np.max(np.linalg.norm(X, axis=1)) > 1.0 + 1e-12 or np.max(np.abs(y)) > 1.0:   # unit rows round
        raise ValueError("the privacy proof's Lipschitz constant 2 needs every ||x_i||_2 <= 1 and |y_i| <= 1; "
                         "nothing is clipped")
    n, p = X.shape
    if geometry in ("l1-lq", "l1-lq-paper-constant"):
        step = _LqStep(p, printed=geometry == "l1-lq-paper-constant")
    elif geometry == "l2-euclidean":
        step = _euclidean_step
    elif geometry == "simplex-entropy":
        step = _EntropyStep(p)
    else:
        raise ValueError("geometry must be 'l1-lq', 'l1-lq-paper-constant', 'l2-euclidean' or 'simplex-entropy', "
                         f"not {geometry!r}")
    if not (epsilon > 0 and 0 < delta < 1):
        raise ValueError("need epsilon > 0 and 0 < delta < 1")
    if isinstance(T, str) or isinstance(eta, str):
        if T != "theorem-3.2" or eta != "theorem-3.2":
            raise ValueError("T and eta: numbers, or both 'theorem-3.2'")
        T, eta = theorem_3_2(n, p, epsilon, delta, geometry, step.range)
    if not (int(T) == T and T >= 1):
        raise ValueError("need an integer T >= 1")
    T = int(T)
    etas = np.broadcast_to(np.asarray(eta, dtype=float), (T + 1,))   # eta_1 .. eta_(T+1)
    if not np.all(etas > 0):
        raise ValueError("step sizes must be positive")
    # Line 1: the noise scale
    if calibration == "paper":
        sigma = paper_sigma(epsilon, delta, n, T)
    elif calibration == "certified":
        from reference.privacy.accounting import certified_gaussian_sigma

        sigma = certified_gaussian_sigma(2.0 * LIPSCHITZ / n, T, epsilon, delta, rel_tol=1e-6)
    else:
        raise ValueError(f"calibration must be 'paper' or 'certified', not {calibration!r}")
    b = sigma * rng.standard_normal((T, p))               # b_1 .. b_T, all at once
    theta = np.zeros(p) if step.start is None else step.start.copy()   # line 2: theta_1 = argmin_C Psi
    iterates = np.empty((T, p))
    row_norms = np.linalg.norm(X, axis=1)
    for t in range(T):                                    # line 3: t = 1 .. T
        iterates[t] = theta
        r = X @ theta - y
        if np.max(np.abs(r) * row_norms) > LIPSCHITZ * (1 + 1e-12):
            raise ValueError(f"a record's gradient exceeds the declared Lipschitz constant {LIPSCHITZ} "
                             "(need ||x||_2 <= 1, |y| <= 1)")
        g = X.T @ r / n                                   # grad L(theta_t; D)
        theta = step(theta, g + b[t], etas[t + 1])        # line 4 with eta_(t+1) (this is step t + 1; etas[i] is eta_(i+1))
    return iterates.mean(axis=0)                          # line 5: (1/T) sum_{t=1}^T theta_t
