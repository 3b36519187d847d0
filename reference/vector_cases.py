"""The test-vector cases: fixed, small inputs for each algorithm an implementation may claim.

Each case's ``algorithm`` is the id given to ``conform --algorithm`` and to
``pytest --impl-algorithm``. Inputs are deliberately small, so a vector stays readable
and replaying it is quick in any language.
"""

from __future__ import annotations

import numpy as np

from .vectors import VectorCase

_M = "reference.privacy.mechanisms"

CASES: list[VectorCase] = [
    VectorCase(
        algorithm="core:gaussian_mechanism", name="vector-3d", reference=f"{_M}:gaussian_mechanism",
        make_kwargs=lambda: {"value": np.array([0.5, -1.0, 2.0]), "sensitivity": 1.0, "sigma": 1.5},
        seed=1, array_args=("value",), statistic=lambda out: float(np.asarray(out)[0]),
    ),
    VectorCase(
        algorithm="core:laplace_mechanism", name="vector-3d", reference=f"{_M}:laplace_mechanism",
        make_kwargs=lambda: {"value": np.array([0.5, -1.0, 2.0]), "sensitivity": 1.0, "scale": 2.0},
        seed=2, array_args=("value",), statistic=lambda out: float(np.asarray(out)[0]),
    ),
    VectorCase(
        algorithm="core:exponential_mechanism", name="five-candidates", reference=f"{_M}:exponential_mechanism",
        make_kwargs=lambda: {"scores": np.array([0.0, 1.0, 2.0, 0.5, 1.5]), "sensitivity": 1.0, "epsilon": 1.0},
        seed=3, array_args=("scores",), statistic=float,
    ),
    VectorCase(
        algorithm="core:report_noisy_max", name="laplace-five-candidates", reference=f"{_M}:report_noisy_max",
        make_kwargs=lambda: {"scores": np.array([0.0, 1.0, 2.0, 0.5, 1.5]), "sensitivity": 1.0, "scale": 2.0,
                             "noise": "laplace"},
        seed=4, array_args=("scores",), statistic=float,
    ),
    VectorCase(
        algorithm="core:report_noisy_max", name="gumbel-five-candidates", reference=f"{_M}:report_noisy_max",
        make_kwargs=lambda: {"scores": np.array([0.0, 1.0, 2.0, 0.5, 1.5]), "sensitivity": 1.0, "scale": 2.0,
                             "noise": "gumbel"},
        seed=5, array_args=("scores",), statistic=float,
    ),
]
