"""A vectorised NumPy port of noisy mirror descent, written from the paper.

Talwar, Thakurta, Zhang, "Private empirical risk minimization beyond the worst case: the effect of the
constraint set geometry" (/work/shared/seeds/000_*): Algorithm 1, A_Noise-MD (Section 3.1), on the loss
1/2 (<x, theta> - y)^2 with declared l2-Lipschitz constant L = 2 (rows with ||x||_2 <= 1, |y| <= 1).
Vectorised: the full gradient is two matrix products, and the T noise vectors b_1..b_T are one
``rng.standard_normal((T, p))`` call before the loop (b_t does not depend on theta_t, so drawing them
first is the same algorithm and the same stream of values).

It takes the arguments of the function ``python -m reference conform --algorithm "erm_geometry:Algorithm 1"``
calls (``reference.vector_cases:mirror_descent_squared_loss``) and returns theta_priv. Check it with

    python -m reference conform examples.mirror_descent:noisy_mirror_descent --algorithm "erm_geometry:Algorithm 1"

Where the paper is open or garbled the port follows the reference's recorded resolutions (docs/errata.md):

- line 4 (erm_geometry-E01): theta_(t+1) = argmin_C eta <g_t + b_t, theta> + B_Psi(theta, theta_t);
- line 2 (erm_geometry-E02): theta_1 = argmin_C Psi = 0 for both geometries here;
- ``geometry="l1-lq"``: C the unit l1 ball (k = 2p vertices), Psi = c ||theta||_q^2 with q = ln k/(ln k - 1)
  (q = 2 when k < 8) and c = k^(2(1 - 1/q)) / (2 (q - 1) r^2), the constant that makes Psi 1-strongly
  convex in ||.||_1 / r (erm_geometry-E08; Fact 3.4 prints 1/(4(q-1)) in the quotient norm);
  ``"l2-euclidean"``: C the unit l2 ball, Psi = ||theta||^2 / 2 (the step is a projection);
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

    def __init__(self, p: int, r: float = 1.0):
        k = 2 * p
        self.q = math.log(k) / (math.log(k) - 1.0) if k >= 8 else 2.0
        self.qs = self.q / (self.q - 1.0)                       # dual exponent
        self.c = k ** (2.0 * (1.0 - 1.0 / self.q)) / (2.0 * (self.q - 1.0) * r * r)
        self.r = r

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


def noisy_mirror_descent(X, y, epsilon, delta, T, eta, geometry, calibration, rng):
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise ValueError(f"X must be (n, p) and y (n,); got {X.shape} and {y.shape}")
    if not (epsilon > 0 and 0 < delta < 1 and int(T) == T and T >= 1):
        raise ValueError("need epsilon > 0, 0 < delta < 1 and an integer T >= 1")
    n, p = X.shape
    T = int(T)
    etas = np.broadcast_to(np.asarray(eta, dtype=float), (T + 1,))   # eta_1 .. eta_(T+1)
    if not np.all(etas > 0):
        raise ValueError("step sizes must be positive")
    if geometry == "l1-lq":
        step = _LqStep(p)
    elif geometry == "l2-euclidean":
        step = _euclidean_step
    else:
        raise ValueError(f"geometry must be 'l1-lq' or 'l2-euclidean', not {geometry!r}")
    # Line 1: the noise scale
    if calibration == "paper":
        sigma = paper_sigma(epsilon, delta, n, T)
    elif calibration == "certified":
        from reference.privacy.accounting import certified_gaussian_sigma

        sigma = certified_gaussian_sigma(2.0 * LIPSCHITZ / n, T, epsilon, delta, rel_tol=1e-6)
    else:
        raise ValueError(f"calibration must be 'paper' or 'certified', not {calibration!r}")
    b = sigma * rng.standard_normal((T, p))               # b_1 .. b_T, all at once
    theta = np.zeros(p)                                   # line 2: theta_1 = argmin_C Psi = 0
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
