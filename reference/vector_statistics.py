"""Law statistics shared by the test-vector cases (reference/vector_cases*.py).

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
