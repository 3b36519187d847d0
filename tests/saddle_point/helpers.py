"""Instances shared by the saddle_point tests."""

from __future__ import annotations

import numpy as np

from reference.algorithms import saddle_point as sp

PUSH = np.array([[1.0], [-1.0]])       # grad_x f = A y = (1, -1) for every y: pushes x towards e_2


def push_pull_game(B: int, T: int, *, flip: tuple[int, ...] = ()) -> sp.QuadraticSaddle:
    """dx = 2, dy = 1; atom 0 = PUSH, atom 1 = -PUSH. Every record is PUSH except the indices in
    ``flip``. grad_x f does not depend on (x, y), so the iterates x_t are deterministic: the
    vertex samples never feed back (a sample-free trajectory with a closed form)."""
    data = np.zeros(B * T, dtype=int)
    data[list(flip)] = 1
    return sp.QuadraticSaddle(np.stack([PUSH, -PUSH]), data)


def random_game(rng, *, m: int = 6, dx: int = 4, dy: int = 3, n: int = 400) -> sp.QuadraticSaddle:
    """A bilinear game x^T A_z y with atoms uniform in [-1, 1], population law uniform over atoms."""
    atoms = rng.uniform(-1.0, 1.0, size=(m, dx, dy))
    return sp.QuadraticSaddle(atoms, rng.integers(0, m, size=n), weights=np.full(m, 1.0 / m))


class CubicSaddle:
    """f(x, y; z) = x^T A_z y + (a/6) sum_j x_j^3 - (a/6) sum_j y_j^3: convex-concave on the simplices,
    second-order smooth with L2 = a (grad d_j f changes by a |x_j - x'_j| <= a ||x - x'||_1),
    not quadratic, so vertex sampling biases its gradient: E[x_hat_j^2] = x_j^2 + x_j (1 - x_j) / m
    for the mean x_hat of m vertices (binomial variance)."""

    def __init__(self, atoms, data, a: float):
        self.atoms, self.data, self.a = np.asarray(atoms, float), np.asarray(data), float(a)
        _, self.dx, self.dy = self.atoms.shape
        self.n = self.data.size
        self.lipschitz = float(np.abs(self.atoms).max() + self.a / 2)

    def batch_gradient(self, x, y, idx):
        A = self.atoms[self.data[idx]].mean(axis=0)
        return A @ y + 0.5 * self.a * x ** 2, A.T @ x - 0.5 * self.a * y ** 2

    def expected_gradient_at_vertex_mean(self, x, y, idx, m: float):
        """E grad F_B(x_hat, y_hat) for x_hat, y_hat means of m i.i.d. vertices (closed form)."""
        A = self.atoms[self.data[idx]].mean(axis=0)
        ex2 = x ** 2 + x * (1 - x) / m
        ey2 = y ** 2 + y * (1 - y) / m
        return A @ y + 0.5 * self.a * ex2, A.T @ x - 0.5 * self.a * ey2
