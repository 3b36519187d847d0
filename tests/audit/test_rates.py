"""Tests of the convergence-rate fit (log-log slope with a bootstrap interval)."""

from __future__ import annotations

import numpy as np
import pytest

from reference.audit.rates import RateFit, fit_rate
from reference.errors import AuditError, ParameterError

GRID = np.array([100, 200, 400, 800, 1600, 3200])


def _power_law(rng, slope, repeats, noise=0.3, c=2.0):
    """errors[i, r] = c * x_i^slope * lognormal noise (mean-one), so log(mean) has slope `slope`."""
    z = rng.normal(0, noise, size=(GRID.size, repeats))
    return c * GRID[:, None] ** slope * np.exp(z - noise ** 2 / 2)


@pytest.mark.claim("core:Rate fit")
@pytest.mark.parametrize("slope", [-0.5, -1.0, 0.25])
def test_fit_recovers_slope_and_rejects_a_wrong_one(slope):
    rng = np.random.default_rng(11)
    fit = fit_rate(GRID, _power_law(rng, slope, 40), rng)
    assert isinstance(fit, RateFit)
    assert fit.lower <= slope <= fit.upper
    assert fit.upper - fit.lower < 0.15
    assert fit.consistent_with(slope, "equal")
    assert not fit.consistent_with(slope - 0.5, "equal")
    assert fit.consistent_with(slope + 0.5, "at_most")        # a looser upper bound is fine
    assert not fit.consistent_with(slope - 0.5, "at_most")    # a faster claimed rate is not
    assert fit.consistent_with(slope - 0.5, "at_least")


@pytest.mark.claim("core:Rate fit")
def test_fit_is_deterministic_under_a_seed():
    data = _power_law(np.random.default_rng(0), -0.5, 10)
    a = fit_rate(GRID, data, np.random.default_rng(5))
    b = fit_rate(GRID, data.tolist(), np.random.default_rng(5))
    assert a == b


@pytest.mark.claim("core:Rate fit")
def test_fit_rejects_bad_input():
    rng = np.random.default_rng(0)
    good = _power_law(rng, -0.5, 5)
    with pytest.raises(ParameterError):
        fit_rate(GRID[:2], good[:2], rng)                  # fewer than 3 grid values
    with pytest.raises(ParameterError):
        fit_rate(GRID, good[:, :1], rng)                   # a single repeat
    with pytest.raises(ParameterError):
        fit_rate(-GRID, good, rng)
    with pytest.raises(ParameterError):
        fit_rate(GRID, good, "not an rng")
    bad = good.copy()
    bad[1, 1] = np.nan
    with pytest.raises(AuditError):
        fit_rate(GRID, bad, rng)
    bad[1, 1] = 0.0
    with pytest.raises(AuditError):
        fit_rate(GRID, bad, rng)


@pytest.mark.deep
@pytest.mark.claim("core:Rate fit")
def test_bootstrap_coverage_over_seeds():
    """The 95% interval covers the true slope in at least 88% of 200 seeds (percentile bootstrap is slightly
    liberal with 10 repeats; below 88% would be a real defect). False-alarm rate of this check: < 1%."""
    covered = 0
    for seed in range(200):
        rng = np.random.default_rng(1000 + seed)
        fit = fit_rate(GRID, _power_law(rng, -0.5, 10), rng, n_boot=1000)
        covered += fit.lower <= -0.5 <= fit.upper
    assert covered / 200 >= 0.88
