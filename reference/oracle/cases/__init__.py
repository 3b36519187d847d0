"""The test-vector cases, one module per paper: fixed, small inputs for each algorithm an implementation
may claim.

Each case's ``algorithm`` is the id given to ``conform --algorithm`` and to ``pytest --impl-algorithm``.
Inputs are deliberately small, so a vector stays readable and replaying it is quick in any language.
:data:`CASES` collects the modules' cases as written; :func:`reference.oracle.suite.cases` gives them
with the property suite's declarations filled in (what ``conform`` and ``vectors`` run).
"""

from __future__ import annotations

from ..vectors import VectorCase
from . import core, erm_geometry, heavy_tailed, lasso, online, saddle_point

CASES: list[VectorCase] = [*core.CASES, *lasso.CASES, *erm_geometry.CASES, *saddle_point.CASES,
                           *heavy_tailed.CASES, *online.CASES]
