"""Measurements behind the convergence tests and the table of docs/erm_geometry.md.

Run ``python -m tests.erm_geometry.convergence`` to print the l1-ball vs l2-ball table
(seeded; the docs page quotes its output).
"""

from __future__ import annotations

import math

import numpy as np

from reference.algorithms import erm_geometry as eg
from reference.geometry.sets import L1Ball, L2Ball

from .helpers import LinearLoss


def signal_data(n: int, p: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Unit-norm features around the direction e_1: x_i = (e_1 + z_i / 2) / ||e_1 + z_i / 2||,
    z_i uniform on the sphere; the mean gradient of the linear loss has norm about 0.85."""
    rng = np.random.default_rng(seed)
    z = rng.standard_normal((n, p))
    z /= np.linalg.norm(z, axis=1, keepdims=True)
    X = np.eye(p)[0] + 0.5 * z
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    return X, np.zeros(n)


def linear_excess(theta, X, ball) -> float:
    """Excess empirical risk of the linear loss <x, theta> over C: <gbar, theta> - min_C <gbar, .>."""
    g = X.mean(axis=0)
    return float(g @ theta - g @ ball.lmo(g))


def private_md_excess(kind: str, n: int, p: int, seed: int, epsilon: float = 1.0, delta: float = 1e-5,
                      calibration: str = "paper") -> tuple[float, int]:
    """One run of Algorithm 1 with the Theorem 3.2 (proof) parameters on the linear loss; the
    potential of Section 3.2 for the set: Euclidean on the l2 ball (13), l_q on the l1 ball (14)."""
    X, y = signal_data(n, p, seed)
    ball = L2Ball(p, 1.0) if kind == "l2" else L1Ball(p, 1.0)
    pot = eg.EuclideanPotential(ball) if kind == "l2" else eg.LqPotential(ball)
    T, eta = eg.theorem_3_2_parameters(n, epsilon, delta, 1.0, pot)
    res = eg.noisy_mirror_descent(X, y, LinearLoss(), pot, epsilon=epsilon, delta=delta, lipschitz=1.0, T=T,
                                  eta=eta, rng=np.random.default_rng(10_000 + seed), calibration=calibration)
    return linear_excess(res.theta, X, ball), T


def l1_vs_l2_table(ps=(8, 64, 512), n: int = 2000, seeds: int = 10, epsilon: float = 1.0, delta: float = 1e-5):
    rows = []
    for p in ps:
        row = {"p": p}
        for kind in ("l2", "l1"):
            vals = [private_md_excess(kind, n, p, s, epsilon, delta) for s in range(seeds)]
            ex = np.array([v[0] for v in vals])
            row[kind] = (float(ex.mean()), float(ex.std(ddof=1) / math.sqrt(seeds)), vals[0][1])
        pot2 = eg.EuclideanPotential(L2Ball(p))
        pot1 = eg.LqPotential(L1Ball(p))
        row["G_l2"], row["G_l1"] = pot2.q_width, pot1.q_width
        rows.append(row)
    return rows


def loglog_slope(xs, ys) -> float:
    return float(np.polyfit(np.log(xs), np.log(ys), 1)[0])


if __name__ == "__main__":  # pragma: no cover - documentation helper
    print("| p | G(l2 ball) | G(l1 ball) | l2 ball: T | l2 ball: mean excess (SE) | l1 ball: T | l1 ball: mean excess (SE) | l2/l1 |")
    print("|---|---|---|---|---|---|---|---|")
    for r in l1_vs_l2_table():
        (m2, s2, t2), (m1, s1, t1) = r["l2"], r["l1"]
        print(f"| {r['p']} | {r['G_l2']:.3f} | {r['G_l1']:.3f} | {t2} | {m2:.4f} ({s2:.4f}) | {t1} | "
              f"{m1:.4f} ({s1:.4f}) | {m2 / m1:.2f} |")
