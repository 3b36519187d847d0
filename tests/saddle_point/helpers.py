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


class SteepSaddle:
    """f(x, y; z) = x^T A_z y + (s_z/kappa) sum_j log cosh(kappa (x_j - theta)) - (s_z/kappa) sum_j log cosh(kappa (y_j - theta)):
    convex-concave (log cosh is convex), its curvature s_z kappa / cosh^2 depends on the record (s_z in [0, 1]) and is
    steep near theta, so Algorithm 2's correction G^+ - (G^O + G^E)/2 is of the order of s_z (not of the squared
    half-difference of the vertex means, as for a polynomial): the gradient (A y + s tanh(kappa (x - theta)),
    A^T x - s tanh(kappa (y - theta))) jumps by about 2 s where the vertex means straddle theta.
    L0 = max |A| + max s bounds ||grad||_inf on the simplices."""

    def __init__(self, atoms, data, s, *, kappa: float = 40.0, theta: float = 0.5):
        self.atoms, self.data, self.s = np.asarray(atoms, float), np.asarray(data), np.asarray(s, float)
        _, self.dx, self.dy = self.atoms.shape
        self.n, self.kappa, self.theta = self.data.size, float(kappa), float(theta)
        self.lipschitz = float(np.abs(self.atoms).max() + self.s.max())

    def batch_gradient(self, x, y, idx):
        z = self.data[idx]
        A, s = self.atoms[z].mean(axis=0), self.s[z].mean()
        return A @ y + s * np.tanh(self.kappa * (x - self.theta)), A.T @ x - s * np.tanh(self.kappa * (y - self.theta))


def curved_game(rng, *, m: int = 4, dx: int = 4, dy: int = 3, n: int = 400, data=None) -> sp.CurvedSaddle:
    """A CurvedSaddle with every term present and record-dependent: bilinear atoms in [-0.5, 0.5], curvatures
    a_z, b_z in [0, 3] and couplings c_z in [0, 1] drawn per atom (one atom flat: a = b = c = 0), C in [0, 1],
    linear terms u_z, v_z in [-0.4, 0.4]."""
    a, b, c = rng.uniform(0, 3, m), rng.uniform(0, 3, m), rng.uniform(0, 1, m)
    a[-1] = b[-1] = c[-1] = 0.0
    data = rng.integers(0, m, size=n) if data is None else np.asarray(data)
    return sp.CurvedSaddle(rng.uniform(-0.5, 0.5, (m, dx, dy)), data, a=a, b=b, c=c,
                           C=rng.uniform(0, 1, (dx, dy)), u=rng.uniform(-0.4, 0.4, (m, dx)),
                           v=rng.uniform(-0.4, 0.4, (m, dy)), weights=np.full(m, 1.0 / m))


def curved_gradient(game, x, y, idx):
    """grad F_B of a CurvedSaddle written here from its formula (not game.batch_gradient):
    d/dx_i f = (A y)_i + (a/2) x_i^2 + c x_i (C y)_i + u_i, d/dy_j f = (A^T x)_j - (b/2) y_j^2 + (c/2)(C^T x^2)_j - v_j."""
    z = np.asarray(game.data)[np.asarray(idx)]
    gx = np.zeros(game.dx)
    gy = np.zeros(game.dy)
    for r in z:
        A, a, b, c, u, v = game.atoms[r], game.a[r], game.b[r], game.c[r], game.u[r], game.v[r]
        gx += A @ y + a / 2 * x ** 2 + c * x * (game.C @ y) + u
        gy += A.T @ x - b / 2 * y ** 2 + c / 2 * (game.C.T @ x ** 2) - v
    return gx / z.size, gy / z.size


def draw(p, rng, k: int = 1) -> np.ndarray:
    """k vertices of P_p by inverse CDF, one rng.random() each (the package's convention, docs/vectors.md): the
    index is the number of cumulative sums <= u sum(p)."""
    cdf = np.cumsum(p)
    return np.array([min(int(np.sum(cdf <= rng.random() * cdf[-1])), p.size - 1) for _ in range(k)], dtype=int)


def _softmax_step(p, g, eta):
    z = np.log(p) - eta * g
    e = np.exp(z - z.max())
    return e / e.sum()


def replay_algorithm1(game, seed, *, T, K, eta, gradient, output="independent"):
    """Algorithm 1's box (lines 1-8), written here: the vertices are drawn in the box's order (line 3's output
    vertices, then line 4's K per player) from np.random.default_rng(seed). Returns the iterates (x_t), (y_t),
    the line-5 estimates (g_x,t), (g_y,t), the output vertices and the output."""
    rng = np.random.default_rng(seed)
    B = game.n // T
    x, y = np.full(game.dx, 1 / game.dx), np.full(game.dy, 1 / game.dy)
    X, Y, GX, GY, ox, oy = [], [], [], [], [], []
    for t in range(T):
        X.append(x)
        Y.append(y)
        if output == "independent":
            ox.append(draw(x, rng)[0])
            oy.append(draw(y, rng)[0])
        jx, jy = draw(x, rng, K), draw(y, rng, K)
        if output == "reuse":
            ox.extend(jx)
            oy.extend(jy)
        xh, yh = np.bincount(jx, minlength=game.dx) / K, np.bincount(jy, minlength=game.dy) / K
        gx, gy = gradient(game, xh, yh, np.arange(t * B, (t + 1) * B))
        GX.append(gx)
        GY.append(gy)
        x, y = _softmax_step(x, gx, eta), _softmax_step(y, -gy, eta)
    ox, oy = np.array(ox), np.array(oy)
    return dict(X=np.array(X), Y=np.array(Y), GX=np.array(GX), GY=np.array(GY), ox=ox, oy=oy,
                x=np.bincount(ox, minlength=game.dx) / ox.size, y=np.bincount(oy, minlength=game.dy) / oy.size)


def replay_algorithm3(game, seed, *, B, eta, gradient):
    """Algorithm 3's box (lines 1-11, with Algorithm 2 inside), written here: Gamma = floor(n/(2B)),
    M = floor(log2 Gamma) - 3, stop before step t when sum_{s<t} (2^(N_s+1) + 2) + 2^(M+1) + 2 > Gamma; the level
    by inverse CDF of TGeom(M) (N = least k with u < (1 - 2^-(k+1)) / (1 - 2^-(M+1))); Algorithm 2's vertices (one,
    one, 2^(N+1), 2^(N+1)), then line 8's output vertices, then lines 6-7. Returns the iterates, levels, estimates,
    output vertices and the output."""
    rng = np.random.default_rng(seed)
    Gamma = game.n // (2 * B)
    M = int(np.floor(np.log2(Gamma))) - 3
    CM = 1.0 / sum(2.0 ** -k for k in range(M + 1))
    x, y = np.full(game.dx, 1 / game.dx), np.full(game.dy, 1 / game.dy)
    X, Y, GX, GY, ox, oy, levels = [], [], [], [], [], [], []
    spent = used = 0
    while spent + 2 ** (M + 1) + 2 <= Gamma:
        X.append(x)
        Y.append(y)
        u = rng.random()
        N = next(k for k in range(M + 1) if k == M or u < (1 - 2.0 ** -(k + 1)) / (1 - 2.0 ** -(M + 1)))
        m = 2 ** (N + 1)
        batch = np.arange(used, used + B * m)
        j0x, j0y = draw(x, rng)[0], draw(y, rng)[0]
        jx, jy = draw(x, rng, m), draw(y, rng, m)
        mean = lambda j, d: np.bincount(j, minlength=d) / j.size
        G0 = gradient(game, np.eye(game.dx)[j0x], np.eye(game.dy)[j0y], batch)
        Gp = gradient(game, mean(jx, game.dx), mean(jy, game.dy), batch)
        Go = gradient(game, mean(jx[:m // 2], game.dx), mean(jy[:m // 2], game.dy), batch)
        Ge = gradient(game, mean(jx[m // 2:], game.dx), mean(jy[m // 2:], game.dy), batch)
        pN = CM * 2.0 ** -N
        gx = G0[0] + (Gp[0] - (Go[0] + Ge[0]) / 2) / pN
        gy = G0[1] + (Gp[1] - (Go[1] + Ge[1]) / 2) / pN
        GX.append(gx)
        GY.append(gy)
        ox.append(draw(x, rng)[0])
        oy.append(draw(y, rng)[0])
        x, y = _softmax_step(x, gx, eta), _softmax_step(y, -gy, eta)
        levels.append(N)
        spent += m + 2
        used += B * m
    ox, oy = np.array(ox), np.array(oy)
    return dict(X=np.array(X), Y=np.array(Y), GX=np.array(GX), GY=np.array(GY), ox=ox, oy=oy, levels=np.array(levels),
                used=used, Gamma=Gamma, M=M,
                x=np.bincount(ox, minlength=game.dx) / ox.size, y=np.bincount(oy, minlength=game.dy) / oy.size)
