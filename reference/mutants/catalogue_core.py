"""Mutants of the building blocks: mechanisms, accountant, tree, audit harness.

See reference/mutants/__init__.py for the shape of a mutant and how it runs.
"""

from __future__ import annotations

from . import Mutant

MUTANTS = (
    Mutant(
        id="core-M01", target="core:laplace_mechanism", bug_class="noise-scale",
        description="Laplace noise at half the scale the event records",
        file="reference/privacy/mechanisms.py",
        find="out = arr + rng.laplace(0.0, scale, shape)",
        replace="out = arr + rng.laplace(0.0, 0.5 * scale, shape)",
        checks=("tests/privacy/test_mechanisms.py::test_laplace_noise_passes_ks_and_wrong_scale_is_rejected",),
        fast=True,
    ),
)
