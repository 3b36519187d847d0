"""Small losses with exactly known constants, used by the erm_geometry tests.

Each has per-record ``value`` / ``gradient`` (the interface Algorithm 1 and 2 use) and a
vectorised ``gradients`` (all records at once) for speed; tests check the two agree.
"""

from __future__ import annotations

import numpy as np


class LinearLoss:
    """l(theta; (x, y)) = <x, theta>: gradient x, l2-Lipschitz constant max ||x||_2, Hessian 0."""

    def value(self, theta, x, y):
        return float(np.sum(np.asarray(x) * theta))

    def gradient(self, theta, x, y):
        return np.array(x, dtype=float)

    def gradients(self, theta, X, y):
        return np.array(X, dtype=float)


class SquaredLoss:
    """l(theta; (x, y)) = 1/2 (<x, theta> - y)^2 + mu/2 ||theta||^2 (mu = 0 by default).

    On the l2 ball of radius r with ||x||_2 <= 1, |y| <= 1: gradient norm <= (r + 1) + mu r,
    Hessian x x^T + mu I with eigenvalues in [mu, 1 + mu].
    """

    def __init__(self, mu: float = 0.0):
        self.mu = mu

    def value(self, theta, x, y):
        return float(0.5 * (x @ theta - y) ** 2 + 0.5 * self.mu * theta @ theta)

    def gradient(self, theta, x, y):
        return (x @ theta - y) * np.asarray(x, dtype=float) + self.mu * theta

    def gradients(self, theta, X, y):
        return (X @ theta - y)[:, None] * X + self.mu * theta[None, :]

    def hessian(self, theta, x, y):
        return np.outer(x, x) + self.mu * np.eye(len(x))


class ScalarQuadratic:
    """p = 1: l(theta; (a, c)) = a/2 theta^2 - c theta with a in [0, 1], c in [-1, 1] (catalogue P10).

    On [-1, 1]: lambda_max = 1, lambda_min = 0, l2-Lipschitz constant 2.
    """

    def value(self, theta, x, y):
        return float(0.5 * x[0] * theta[0] ** 2 - y * theta[0])

    def gradient(self, theta, x, y):
        return np.array([x[0] * theta[0] - y])

    def hessian(self, theta, x, y):
        return np.array([[x[0]]])


class MatrixLinearLoss:
    """l(Theta; (A, y)) = <A, Theta> (Frobenius): gradient A, Lipschitz max ||A||_F."""

    def value(self, theta, x, y):
        return float(np.sum(x * theta))

    def gradient(self, theta, x, y):
        return np.array(x, dtype=float)


def unit_rows(rng, n, p):
    X = rng.standard_normal((n, p))
    return X / np.linalg.norm(X, axis=1, keepdims=True)


class LassoLoss:
    """Equation (22): l(theta; (x, y)) = 1/2 (<x, theta> - y)^2 with ||x||_inf <= 1, |y| <= 1 on the unit
    l1 ball: ||grad||_inf <= 2 (L_1 = 2), curvature Gamma = 4 max_j (1/n) sum_i x_ij^2 <= 4."""

    def value(self, theta, x, y):
        return float(0.5 * (x @ theta - y) ** 2)

    def gradient(self, theta, x, y):
        return (x @ theta - y) * np.asarray(x, dtype=float)

    def gradients(self, theta, X, y):
        return (X @ theta - y)[:, None] * X
