"""A vectorised NumPy port of private LASSO, written from the paper.

Talwar, Thakurta, Zhang, "Nearly-optimal private LASSO" (NeurIPS 2015; /work/shared/seeds/004_*):
Algorithm 2, A_Noise-FW(polytope), on the l1 ball of radius c (Section 2.2, Corollary 2.7). The vertex
set is S = {+c e_j, -c e_j}; at each step all 2p scores <s, grad L(theta_t; D)> are one vector, their
noise one ``rng.laplace(0, lam, 2p)`` call, and the selection one argmin.

It takes the arguments of the function ``python -m reference conform --algorithm "lasso:Algorithm 2"``
calls (``reference.algorithms.lasso:private_lasso``) and returns an object with ``.theta``. Check it with

    python -m reference conform examples.private_lasso:private_lasso --algorithm "lasso:Algorithm 2"

Choices the paper leaves open follow the reference's recorded resolutions (docs/errata.md), because the
replay check compares outputs on the reference's very draws:

- L_1 = 2 (c + 1) (the paper: O(1)); score sensitivity 2 L_1 c / n (replace-one); lasso-E05 for T's
  rounding (ceil), theta_1 = 0, the natural log, T under the root of line 3 as printed;
- Gamma = 4 c^2 for ``calibration="paper"`` (Remark 1 as printed) and 8 c^2 for ``"certified"`` (lasso-E03);
- the order of S: [c e_1, ..., c e_p, -c e_1, ..., -c e_p] (lasso-E05), ties to the lowest index;
- the sign of the noise. Line 3 writes alpha_s = <s, g> + Lap(lambda); the reference draws Z ~ Lap(lambda)
  and uses alpha_s = <s, g> - Z (report-noisy-max of the negated scores). Lap is symmetric, so -Z has line
  3's law: both are the paper's algorithm, and the law check cannot tell them apart. On the *same draws*
  they select differently, so a port that wants to pass replay uses the reference's sign (a port with
  ``+ Z`` passes the law check and fails replay; tests/test_examples.py shows both). Likewise Gumbel
  selection is argmin(<s, g> - G), G ~ Gumbel(0, lambda): the exponential mechanism P(s) ~ exp(-<s, g>/lambda).
- ``selection="exponential"`` samples that mechanism directly: one ``rng.random()`` u a step, and the first
  index whose cumulative probability exceeds u (inverse CDF, in S's order), with lambda certified as for
  Gumbel selections (the same law).

The one thing not computed here is the ``"certified"`` noise scale: it is, by definition, the smallest
lambda the reference's accountant certifies, so the port asks the accountant
(``reference.algorithms.frank_wolfe.certified_laplace_scale``), as a user of the oracle would.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class LassoResult:
    theta: np.ndarray          # theta_priv = theta_T
    selected: np.ndarray       # index into S of the vertex chosen at each of the T - 1 steps
    noise_scale: float         # lambda
    T: int


def _check(X, y, epsilon, delta, radius):
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise ValueError(f"X must be (n, p) and y (n,); got {X.shape} and {y.shape}")
    if not (np.all(np.isfinite(X)) and np.all(np.isfinite(y))):
        raise ValueError("X and y must be finite")
    if np.max(np.abs(X)) > 1.0 or np.max(np.abs(y)) > 1.0:
        raise ValueError("the privacy proof needs every |X_ij| <= 1 and |y_i| <= 1 (Section 2.2); nothing is clipped")
    if not (epsilon > 0 and 0 < delta < 1 and radius > 0):
        raise ValueError("need epsilon > 0, 0 < delta < 1, radius > 0")
    return X, y


def horizon(n: int, epsilon: float, radius: float, gamma: float) -> int:
    """Theorem 2.5: T = (Gamma n eps / (L_1 ||C||_1))^(2/3), rounded up (lasso-E05)."""
    value = (gamma * n * epsilon / (2.0 * (radius + 1.0) * radius)) ** (2.0 / 3.0)
    return max(1, math.ceil(value - 1e-9 * value))


def noise_scale(n: int, T: int, epsilon: float, delta: float, radius: float, calibration: str,
                selection: str) -> float:
    """lambda of line 3: as printed, L_1 ||C||_1 sqrt(8 T log(1/delta)) / (n eps); or the certified one."""
    L1 = 2.0 * (radius + 1.0)
    if calibration == "paper":
        return L1 * radius * math.sqrt(8.0 * T * math.log(1.0 / delta)) / (n * epsilon)
    if calibration == "certified":
        from reference.algorithms.frank_wolfe import certified_laplace_scale

        return certified_laplace_scale(2.0 * L1 * radius / n, T, epsilon, delta, noise=selection)
    raise ValueError(f"calibration must be 'paper' or 'certified', not {calibration!r}")


def private_lasso(X, y, epsilon, delta, rng, *, radius=1.0, T=None, calibration="paper",
                  selection="laplace") -> LassoResult:
    X, y = _check(X, y, epsilon, delta, radius)
    if selection not in ("laplace", "gumbel", "exponential"):
        raise ValueError(f"selection must be 'laplace', 'gumbel' or 'exponential', not {selection!r}")
    n, p = X.shape
    c = float(radius)
    if T is None:
        T = horizon(n, epsilon, c, (4.0 if calibration == "paper" else 8.0) * c * c)
    lam = noise_scale(n, T, epsilon, delta, c, calibration, "gumbel" if selection == "exponential" else selection)
    draw = rng.laplace if selection == "laplace" else rng.gumbel
    theta = np.zeros(p)                                   # line 1: theta_1 = 0
    selected = np.empty(max(T - 1, 0), dtype=np.intp)
    for t in range(1, T):                                 # line 2: t = 1 .. T - 1
        g = (2.0 / n) * (X.T @ (X @ theta - y))           # grad L(theta_t; D), L = (1/n) ||X theta - y||^2
        scores = np.concatenate([c * g, -c * g])          # <s, g> for every s in S at once
        if selection == "exponential":                    # P(s) ~ exp(-<s, g> / lambda), by inverse CDF
            w = np.exp(-(scores - scores.min()) / lam)
            cdf = np.cumsum(w)
            j = int(np.searchsorted(cdf, rng.random() * cdf[-1], side="right"))
        else:
            j = int(np.argmin(scores - draw(0.0, lam, 2 * p)))    # lines 3-4 (sign: see the module docstring)
        selected[t - 1] = j
        mu = 2.0 / (t + 2.0)                              # line 5
        theta = (1.0 - mu) * theta
        theta[j % p] += mu * (c if j < p else -c)
    return LassoResult(theta, selected, lam, T)           # line 6: theta_priv = theta_T


# ---------------------------------------------------------------------------------------------------------
# A second port that draws its noise its own way: every selection from uniforms, by the Gumbel-max trick.
#
# Line 3-4 select argmin_s <s, g> + noise. With Gumbel noise this is the exponential mechanism
# P(s) ~ exp(-<s, g> / lambda); the Gumbel-max trick samples it as argmax_s (-<s, g> / lambda + G_s) with
# G_s = -log(-log U_s), U_s uniform: 2p ``rng.random()`` values a step, transformed here (the reference asks
# for ``rng.gumbel``). For the Laplace selection the noise is Lap(lambda) by the inverse CDF of the same
# uniforms, added with line 3's printed sign (alpha_s = <s, g> + Lap(lambda)). So replay refuses this port on
# every case, and the law check passes it. ``variant=`` gives the wrong copies the oracle must reject.

def _uniform_open(rng, size):
    u = rng.random(size)
    return np.where(u == 0.0, np.nextafter(0.0, 1.0), u)


def private_lasso_gumbel_max(X, y, epsilon, delta, rng, *, radius=1.0, T=None, calibration="paper",
                             selection="laplace", variant="") -> np.ndarray:
    """Algorithm 2 on the l1 ball; returns theta_T (p,). ``variant``: "noise-0.8", "noiseless",
    "sensitivity-half" (wrong on purpose)."""
    X, y = _check(X, y, epsilon, delta, radius)
    if selection not in ("laplace", "gumbel", "exponential"):
        raise ValueError(f"selection must be 'laplace', 'gumbel' or 'exponential', not {selection!r}")
    n, p = X.shape
    c = float(radius)
    if T is None:
        T = horizon(n, epsilon, c, (4.0 if calibration == "paper" else 8.0) * c * c)
    noise_kind = "laplace" if selection == "laplace" else "gumbel"
    if variant == "sensitivity-half" and calibration == "certified":
        from reference.algorithms.frank_wolfe import certified_laplace_scale

        lam = certified_laplace_scale(0.5 * 2.0 * 2.0 * (c + 1.0) * c / n, T, epsilon, delta, noise=noise_kind)
    else:
        lam = {"sensitivity-half": 0.5, "noise-0.8": 0.8}.get(variant, 1.0) * noise_scale(
            n, T, epsilon, delta, c, calibration, noise_kind)
    theta = np.zeros(p)
    for t in range(1, T):
        g = (2.0 / n) * (X.T @ (X @ theta - y))
        scores = np.concatenate([c * g, -c * g])
        u = _uniform_open(rng, 2 * p)
        if variant == "noiseless" or lam == 0.0:         # (lam = 0 at epsilon = inf: no noise)
            j = int(np.argmin(scores))
        elif selection == "laplace":                     # Lap(lambda) by inverse CDF, line 3's "+"
            lap = -lam * np.sign(u - 0.5) * np.log1p(-2.0 * np.abs(u - 0.5))
            j = int(np.argmin(scores + lap))
        else:                                            # exponential mechanism by Gumbel-max
            j = int(np.argmax(-scores / lam - np.log(-np.log(u))))
        mu = 2.0 / (t + 2.0)
        theta = (1.0 - mu) * theta
        theta[j % p] += mu * (c if j < p else -c)
    return theta


def _bind(variant):
    def wrong(*args, **kwargs):
        return private_lasso_gumbel_max(*args, **kwargs, variant=variant)
    wrong.__name__ = f"lasso_{variant.replace('-', '_').replace('.', '')}"
    wrong.__doc__ = f"private_lasso_gumbel_max with variant={variant!r} (wrong on purpose)."
    return wrong


lasso_noise_08 = _bind("noise-0.8")
lasso_noiseless = _bind("noiseless")
lasso_sensitivity_half = _bind("sensitivity-half")
