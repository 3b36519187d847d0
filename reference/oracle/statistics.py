"""Law statistics shared by the test-vector cases (reference/oracle/cases/).

Each is a callable on one output of a case's conform function (after ``case.output``), computed from
the case's inputs on first use and cached: the law check calls it thousands of times per case.
"""

from __future__ import annotations

import numpy as np


class DistanceTo:
    """||output - noiseless(make_kwargs())||_norm: the size of the noise that reached the output. Its law
    scales with the noise, so a law check on it sees a wrong noise scale directly, where one signed
    coordinate mixes both tails and barely moves (measured: 0.8 x the noise of CDPCWME is rejected in 15%
    of repeats at 1000 runs on the first coordinate, in 100% on this; docs/conformance.md). ``noiseless``
    is the reference's output with the noise switched off, computed by a second route (or any fixed
    point the output is compared with, e.g. a game's saddle point)."""

    def __init__(self, noiseless, make_kwargs, norm: float = 1):
        self.noiseless, self.make_kwargs, self.norm, self._value = noiseless, make_kwargs, norm, None

    def __call__(self, out) -> float:
        if self._value is None:
            self._value = np.asarray(self.noiseless(self.make_kwargs()), dtype=float)
        return float(np.linalg.norm(np.ravel(np.asarray(out, dtype=float) - self._value), ord=self.norm))


class EmpiricalLoss:
    """``scale`` * mean_i (<x_i, theta> - y_i)^2 at the output theta (X, y from the case's inputs): noisier
    selections or gradients give a worse objective, so its law moves with the noise scale. ``scale`` is the
    paper's normalisation (1/2 for erm_geometry's eq. (22), 1 for the LASSO's eq. (2)); a law check is
    invariant to it."""

    def __init__(self, make_kwargs, scale: float = 1.0):
        self.make_kwargs, self.scale, self.data = make_kwargs, float(scale), None

    def __call__(self, theta) -> float:
        if self.data is None:
            kw = self.make_kwargs()
            self.data = np.asarray(kw["X"], dtype=float), np.asarray(kw["y"], dtype=float)
        X, y = self.data
        r = X @ np.asarray(theta, dtype=float) - y
        return float(self.scale * np.mean(r * r))


def tree_release_covariance(T: int) -> np.ndarray:
    """The (T, T) covariance, in units of sigma^2, of the noise of a binary tree's releases W_1..W_T (the
    dyadic tree with independent node noise: node (h, j) covers items j 2^h + 1 .. (j+1) 2^h, and [1, t] is
    tiled by node (h, (t >> h) - 1) for each 1-bit h of t). Entry (s, t) counts the nodes W_s and W_t share
    (Chan-Shi-Song 2011, Sec. 3; the claim core:Tree prefix noise law). Computed here from the tiling, not
    from reference.privacy.tree."""
    def nodes(t):
        return {(h, (t >> h) - 1) for h in range(int(t).bit_length()) if (t >> h) & 1}
    tiles = [nodes(t) for t in range(1, T + 1)]
    return np.array([[len(a & b) for b in tiles] for a in tiles], dtype=float)


class WhitenedTreeError:
    """sum of z^2 over rounds and coordinates, z = C^(-1/2) (W - exact) with C the release covariance of an
    honest tree (:func:`tree_release_covariance`), for releases W_1..W_T (rows; any trailing shape) of a
    stream whose exact prefix sums are ``exact(make_kwargs())``. Against an honest tree it is sigma^2 times a
    chi-square with T x (entries per release) degrees of freedom; its law moves with the noise scale AND with
    the dependence between releases: node noise shared within a level, or drawn afresh at every release, has
    other covariances, so z is no longer white (the sum of squares of the raw errors, or of each release's
    error, has the same law under those: it sees every release but not how they depend on one another).
    ``rows``: use only the first ``rows`` releases (PQFTL's trees release T - 1 prefix sums)."""

    def __init__(self, exact, make_kwargs, rows: int | None = None):
        self.exact, self.make_kwargs, self.rows = exact, make_kwargs, rows
        self._value = self._white = None

    def _setup(self):
        exact = np.asarray(self.exact(self.make_kwargs()), dtype=float)
        T = exact.shape[0] if self.rows is None else self.rows
        self._value = exact[:T].reshape(T, -1)
        self._white = np.linalg.inv(np.linalg.cholesky(tree_release_covariance(T)))

    def __call__(self, out) -> float:
        if self._value is None:
            self._setup()
        T = self._value.shape[0]
        err = np.asarray(out, dtype=float)[:T].reshape(T, -1) - self._value
        return float(np.sum((self._white @ err) ** 2))


class WeightedDecisionError:
    """PQFTL's releases whitened as its trees': z = C^(-1/2) D, D_t = t (xhat_(t+1) - x_(t+1)) for t = 1..T-1,
    x the decisions without noise. To first order in the trees' noise, D_t is (alpha I + V_t / t)^(-1)
    (e^u_t - E^V_t x_(t+1)): a fixed linear image of the t-th release's noise, so D carries the trees'
    dependence between releases (shared or re-drawn node noise changes it) and their scale. Returns
    sum of z^2 over rounds and coordinates."""

    def __init__(self, noiseless, make_kwargs):
        self.noiseless, self.make_kwargs, self._value = noiseless, make_kwargs, None

    def __call__(self, out) -> float:
        if self._value is None:
            x = np.asarray(self.noiseless(self.make_kwargs()), dtype=float)
            T = x.shape[0]
            self._value = x
            self._t = np.arange(1, T, dtype=float)[:, None]
            self._white = np.linalg.inv(np.linalg.cholesky(tree_release_covariance(T - 1)))
        D = self._t * (np.asarray(out, dtype=float)[1:] - self._value[1:])
        return float(np.sum((self._white @ D) ** 2))
