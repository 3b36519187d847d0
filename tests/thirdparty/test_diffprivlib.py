"""IBM diffprivlib's Laplace, Gaussian and exponential mechanisms conformed to the reference's building blocks.

Runs only where diffprivlib is installed (``pip install .[thirdparty]``; tox env ``thirdparty``).
The privacy audits (conform's runs a side; 40,000 for the selection pairs) are also marked ``deep``.

False alarms: the adapters draw diffprivlib's randomness from the harness's seeded generator, so
every check here is deterministic; over the choice of seed a correct mechanism would fail a law check
with probability at most its case's alpha and a privacy audit with probability at most its beta (the
settings of ``python -m reference conform``: the id's share of its false-alarm budget, 2.5e-4 or 5e-4).
The secure-source law checks (diffprivlib's default, ``secrets.SystemRandom``) are not reproducible: each
fails a correct mechanism with probability at most its alpha.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

pytestmark = pytest.mark.thirdparty
pytest.importorskip("diffprivlib")

from reference.privacy.accounting import analytic_gaussian_sigma, classic_gaussian_sigma, gaussian_delta  # noqa: E402
from reference.privacy.mechanisms import exponential_mechanism_probabilities  # noqa: E402

from . import diffprivlib_adapters as D  # noqa: E402
from . import harness as H  # noqa: E402

CANDIDATES = [
    (D.laplace_mechanism, "core:laplace_mechanism", "conforms"),
    (D.gaussian_mechanism, "core:gaussian_mechanism", "conforms"),           # GaussianAnalytic
    (D.gaussian_mechanism_classic, "core:gaussian_mechanism", "conforms"),   # classic Gaussian
    (D.exponential_mechanism, "core:exponential_mechanism", "conforms"),
    (D.permute_and_flip, "core:exponential_mechanism", "rejected"),          # a different (valid) law
    (D.report_noisy_max, "core:report_noisy_max", "conforms"),
]

LAW = [(fn, case, expect) for fn, algorithm, expect in CANDIDATES for case in H.law_cases(algorithm)]
PRIVACY = [(fn, case) for fn, algorithm, _ in CANDIDATES for case in H.privacy_cases(algorithm)]


@pytest.mark.parametrize("fn, case, expect", LAW, ids=[f"{f.__name__}-{c.name}" for f, c, _ in LAW])
def test_law_check(fn, case, expect):
    row = H.law_row("diffprivlib", fn.__name__, case, fn)
    if expect == "conforms":
        assert row.passed, row.detail
    else:
        assert not row.passed, row.detail


@pytest.mark.parametrize("fn, case, expect", LAW, ids=[f"{f.__name__}-{c.name}" for f, c, _ in LAW])
def test_law_check_with_the_default_secure_source(fn, case, expect):
    secure = functools.partial(fn, secure=True)
    row = H.law_row("diffprivlib", fn.__name__ + " (secure)", case, secure)
    assert row.passed == (expect == "conforms"), row.detail


@pytest.mark.deep
@pytest.mark.parametrize("fn, case", PRIVACY, ids=[f"{f.__name__}-{c.name}" for f, c in PRIVACY])
def test_privacy_audit_at_the_worst_pair_with_its_control(fn, case):
    row = H.privacy_row("diffprivlib", fn.__name__, case, fn)
    assert row.passed, row.detail


# ---- diffprivlib's calibrations against the reference's (deterministic, no sampling)

@pytest.mark.parametrize("epsilon, delta", [(0.5, 1e-5), (1.0, 1e-5), (2.0, 1e-5), (1.0, 1e-3), (4.0, 1e-8)])
def test_analytic_gaussian_calibration_agrees_with_the_reference(epsilon, delta):
    """GaussianAnalytic (Balle-Wang 2018, bisection on float erf) and the reference's analytic_gaussian_sigma
    (its own root find) are two computations of the same sigma. They agree to 1e-8; where they differ
    (2e-9 at (4, 1e-8)), diffprivlib's is the larger: the exact profile (mpmath) of its sigma stays at or
    below the target delta."""
    from diffprivlib.mechanisms import GaussianAnalytic

    ours = analytic_gaussian_sigma(epsilon, delta, 1.0)
    theirs = GaussianAnalytic(epsilon=epsilon, delta=delta, sensitivity=1.0)._scale
    assert theirs == pytest.approx(ours, rel=1e-8)
    assert gaussian_delta(epsilon, 1.0 / theirs) <= delta * (1 + 1e-9)


def test_classic_gaussian_is_the_textbook_formula_and_refuses_epsilon_above_one():
    """diffprivlib's Gaussian is sigma = sqrt(2 ln(1.25/delta)) Delta / epsilon (Dwork-Roth Thm A.1), only for
    epsilon <= 1; at (1, 1e-5) it asks 1.30 x the analytic sigma."""
    from diffprivlib.mechanisms import Gaussian

    assert Gaussian(epsilon=1.0, delta=1e-5, sensitivity=1.0)._scale == pytest.approx(
        classic_gaussian_sigma(1.0, 1e-5, 1.0), rel=1e-12)
    with pytest.raises(ValueError):
        Gaussian(epsilon=1.5, delta=1e-5, sensitivity=1.0)
    ratio = classic_gaussian_sigma(1.0, 1e-5, 1.0) / analytic_gaussian_sigma(1.0, 1e-5, 1.0)
    assert 1.25 < ratio < 1.35


def test_adapters_land_on_the_reference_sigma():
    assert D.gaussian_analytic_for(1.0, 1.5)._scale == pytest.approx(1.5, rel=1e-12)
    assert D.gaussian_classic_for(1.0, 1.5)._scale == pytest.approx(1.5, rel=1e-12)
    # sigma = 1.5 at Delta = 1 needs epsilon = 3.2 at delta = 1e-5 classically: only (1, 0.41) is expressible
    eps, delta = D.classic_parameters(1.5, 1.0)
    assert eps == 1.0 and delta == pytest.approx(1.25 * np.exp(-1.125))


@pytest.mark.parametrize("monotone", [False, True])
def test_exponential_probabilities_are_the_reference_convention(monotone):
    """Exponential(epsilon, sensitivity, utility, monotonic) selects with exp(epsilon u / (2 Delta))
    (exp(epsilon u / Delta) when monotonic): its cumulative probabilities are the reference's."""
    from diffprivlib.mechanisms import Exponential

    scores = [0.0, 1.0, 2.0, 0.5, 1.5]
    mech = Exponential(epsilon=1.3, sensitivity=0.7, utility=scores, monotonic=monotone)
    ours = np.cumsum(exponential_mechanism_probabilities(np.array(scores), 0.7, 1.3, monotone=monotone))
    np.testing.assert_allclose(mech._probabilities, ours, rtol=1e-12)
    other = np.cumsum(exponential_mechanism_probabilities(np.array(scores), 0.7, 1.3, monotone=not monotone))
    assert not np.allclose(mech._probabilities, other, rtol=1e-3)


def test_permute_and_flip_has_its_own_law():
    """Two candidates (gap g): permute-and-flip picks the low one with P = exp(-epsilon g / (2 Delta)) / 2
    (McKenna-Sheldon 2020), not the exponential mechanism's 1 / (1 + exp(epsilon g / (2 Delta))).
    Two-sided binomial tests at alpha = 1e-3 (4000 runs, fixed seed)."""
    from scipy.stats import binomtest

    gap, n = 4.8, 4000
    rng = np.random.default_rng(0)
    low = sum(D.permute_and_flip([0.0, gap], 1.0, 1.0, rng) == 0 for _ in range(n))
    assert binomtest(low, n, np.exp(-gap / 2) / 2).pvalue >= 1e-3
    assert binomtest(low, n, 1.0 / (1.0 + np.exp(gap / 2))).pvalue < 1e-3
