"""The building blocks' audit cases (the `core` rows of `python -m reference audit`), on small budgets.

Each test runs one case of reference/audit/cases_core.py with fewer draws than the
audit command and asserts: no violation on the calibrated mechanism (false-alarm
probability <= beta = 0.05 for the fixed seeds of the audit), the negative control
flagged, and the accountant's certificate equal to the claim.
"""

from __future__ import annotations

import numpy as np
import pytest

from reference.audit import cases_core
from reference.audit.runner import run_case

CASES = {case.claim: case for case in cases_core.audit_cases()}


def _check(row, *, exact=False):
    assert row.verdict == "confirmed", row
    assert row.negative_control_detected is True, row
    assert row.certified_epsilon == pytest.approx(row.claimed_epsilon, rel=1e-9)
    if exact:
        assert row.exact_epsilon <= row.claimed_epsilon
    else:
        assert row.epsilon_lower_bound <= row.claimed_epsilon


@pytest.mark.claim("core:Laplace mechanism privacy")
def test_laplace_mechanism_audit():
    row = run_case(CASES["core:Laplace mechanism privacy"], samples=100_000)
    _check(row)
    assert row.epsilon_lower_bound > 0.95      # tight: the worst-case event is declared in advance


@pytest.mark.claim("core:Gaussian mechanism privacy")
def test_gaussian_mechanism_audit():
    row = run_case(CASES["core:Gaussian mechanism privacy"], samples=100_000)
    _check(row)
    assert row.mu_lower_bound <= row.claimed_mu
    assert row.mu_lower_bound > 0.85 * row.claimed_mu


@pytest.mark.claim("core:Exponential mechanism privacy")
@pytest.mark.claim("core:Exponential mechanism exact profile")
def test_exponential_mechanism_exact_audit_over_2000_vertices():
    row = run_case(CASES["core:Exponential mechanism privacy"])
    _check(row, exact=True)
    assert row.exact_epsilon > 0.99
    assert row.samples == 0


@pytest.mark.claim("core:Laplace report-noisy-max privacy")
def test_laplace_noisy_max_exact_audit():
    row = run_case(CASES["core:Laplace report-noisy-max privacy"])
    _check(row, exact=True)


@pytest.mark.claim("core:Gumbel report-noisy-max privacy")
def test_gumbel_noisy_max_audit():
    row = run_case(CASES["core:Gumbel report-noisy-max privacy"], samples=50_000)
    _check(row)


@pytest.mark.claim("core:Tree aggregation privacy")
def test_tree_aggregation_audit():
    row = run_case(CASES["core:Tree aggregation privacy"], samples=2_000)
    _check(row)
    assert row.mu_lower_bound <= row.claimed_mu


@pytest.mark.claim("core:Gaussian mean release rate")
@pytest.mark.claim("core:Rate fit")
def test_gaussian_mean_release_rate_row_with_its_negative_control():
    """The core rate row, quick grid: consistent with -1, its interval excludes -1/2, and the control
    (noise decaying like n^-1/2) is refused by the same rule, so the row can fail."""
    from reference.audit.standards import assert_rate
    from reference.audit.rates import RateFit

    row = run_case(CASES["core:Gaussian mean release rate"], quick=True)
    assert row.verdict == "consistent", row.detail
    assert row.excludes_nearest_wrong is True and row.nearest_wrong_slope == -0.5
    assert row.negative_control_detected is True and not row.failed
    assert row.negative_control_measured == pytest.approx(-0.5, abs=0.05)
    assert_rate(RateFit(row.fitted_slope, row.slope_lower, row.slope_upper, 0.0, 0.95, 2000), -1.0, -0.5)


@pytest.mark.claim("core:Tree aggregation privacy")
@pytest.mark.parametrize("T", [1, 5, 8, 13])
def test_vectorised_tree_sampler_is_the_line_by_line_tree(T):
    """The audit's vectorised tree draws, from the same generator, exactly the numbers of n
    line-by-line trees run one after another (reference/privacy/tree.py): the same law, bit for bit.
    Its batch statistic equals the per-run one."""
    from reference.audit.cases_core import tree_one_run, tree_statistic, tree_statistic_batch, tree_vectorised

    stream = np.linspace(-1.0, 1.0, T)
    n, sigma = 7, 0.37
    fast = tree_vectorised(stream, np.random.default_rng(11), n, sigma=sigma, sensitivity=1.0)
    rng = np.random.default_rng(11)
    slow = np.array([tree_one_run(stream, rng, sigma=sigma, sensitivity=1.0) for _ in range(n)])
    assert np.array_equal(fast, slow)
    if T & (T - 1) == 0:
        assert np.array_equal(tree_statistic_batch(fast), np.array([tree_statistic(o) for o in slow]))
