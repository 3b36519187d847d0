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


def test_private_lasso_warns_when_its_printed_noise_is_not_certified():
    """lasso-E02: at typical parameters the accountant cannot certify the printed lambda; the run says so
    (it used to return silently). The certified calibration at the same parameters is silent."""
    import warnings

    from reference.errors import PrivacyWarning

    rng = np.random.default_rng(1)
    X = rng.uniform(-1, 1, size=(200, 5))
    y = np.clip(X[:, 0] * 0.5, -1, 1)
    with pytest.warns(PrivacyWarning, match=r"private_lasso\(calibration='paper'\).*lasso-E02.*'certified'"):
        res = private_lasso(X, y, 1.0, 1e-6, np.random.default_rng(0), T=100)
    assert res.certified_epsilon > 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("error", PrivacyWarning)
        res = private_lasso(X, y, 1.0, 1e-6, np.random.default_rng(0), T=100, calibration="certified")
    assert res.certified_epsilon <= 1.0
