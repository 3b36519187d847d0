"""Non-finite input errors name the first offending index (issue 15)."""

from __future__ import annotations

import numpy as np
import pytest

from reference._validate import check_array
from reference.algorithms.lasso import private_lasso
from reference.errors import NonFiniteError


def test_check_array_names_the_first_non_finite_entry():
    X = np.zeros((4, 3))
    X[2, 1], X[3, 2] = np.inf, np.nan
    with pytest.raises(NonFiniteError, match=r"X\[2, 1\] = inf, the first of 2 non-finite entries"):
        check_array(X, "X")
    with pytest.raises(NonFiniteError, match=r"v = nan"):
        check_array(float("nan"), "v")


@pytest.mark.parametrize("which", ["X", "y"])
def test_private_lasso_names_where_the_nan_is(which):
    X, y = np.zeros((6, 3)), np.zeros(6)
    if which == "X":
        X[4, 2] = np.nan
    else:
        y[5] = np.nan
    where = r"X\[4, 2\]" if which == "X" else r"y\[5\]"
    with pytest.raises(NonFiniteError, match=where + " = nan"):
        private_lasso(X, y, 1.0, 1e-5, np.random.default_rng(0))
