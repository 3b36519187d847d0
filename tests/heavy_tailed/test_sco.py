"""Algorithm 1 (SCOF) and Algorithm 2 (CDP-SCO) of heavy_tailed, line by line, and the refusals of bad input.

Reference used for Algorithm 1: with the exact mean oracle and l(w, x) = ||w - x||^2 / 2 on a ball large
enough never to project, w^t = xbar_t + (1 - eta)(w^{t-1} - xbar_t), xbar_t the mean of S_t (a recursion
written here from the paper's line 10, not by calling the code).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from reference.algorithms import heavy_tailed as ht
from reference.errors import ParameterError, ShapeError, NonFiniteError
from reference.geometry.sets import L2Ball


def exact_oracle(G, rng, ledger):
    return G.mean(axis=0)


@pytest.mark.claim("heavy_tailed:Algorithm 1")
@pytest.mark.parametrize("mode", ["convex", "strongly_convex"])
@pytest.mark.parametrize("T, eta", [(1, 0.5), (5, 0.3), (12, 0.9)])
def test_scof_iterates_follow_line_10(mode, T, eta):
    rng = np.random.default_rng(T)
    n, d = 61, 3
    X = rng.normal(size=(n, d)) + np.array([1.0, -2.0, 0.5])
    w0 = np.array([0.3, 0.0, -0.4])
    res = ht.scof(X, ht.squared_loss_gradients, L2Ball(d, 1e6), eta, T, exact_oracle, rng, mode=mode, w0=w0)
    b = n // T
    w = w0.copy()
    want = [w.copy()]
    for t in range(1, T + 1):
        xbar = X.mean(axis=0) if mode == "convex" else X[(t - 1) * b:t * b].mean(axis=0)
        w = xbar + (1 - eta) * (w - xbar)
        want.append(w.copy())
    want = np.array(want)
    assert np.allclose(res.iterates, want, rtol=1e-12, atol=1e-12)
    if mode == "convex":
        assert np.allclose(res.w_priv, want[1:].mean(axis=0), rtol=1e-12, atol=1e-12)
        q = ht.scof(X, ht.squared_loss_gradients, L2Ball(d, 1e6), eta, T, exact_oracle, rng, w0=w0,
                    average="query_points")
        assert np.allclose(q.w_priv, want[:-1].mean(axis=0), rtol=1e-12, atol=1e-12)
    else:
        assert np.allclose(res.w_priv, want[-1], rtol=1e-12, atol=1e-12)


@pytest.mark.claim("heavy_tailed:Algorithm 1")
@pytest.mark.parametrize("mode", ["convex", "strongly_convex"])
def test_scof_batches_and_projection(mode):
    """Convex: every call sees all n records; strongly convex: T disjoint contiguous batches of floor(n/T).
    Every iterate is the projection onto W of the previous one minus eta times the oracle's answer."""
    n, T = 23, 4
    X = np.column_stack([np.arange(n, dtype=float), np.full(n, 50.0)])
    seen = []

    def grads(w, S):
        seen.append(S[:, 0].astype(int).tolist())
        return ht.squared_loss_gradients(w, S)

    answers = []

    def noisy(G, rng, ledger):
        g = G.mean(axis=0) + rng.normal(size=G.shape[1])
        answers.append(g)
        return g

    W = L2Ball(2, 0.5)
    res = ht.scof(X, grads, W, 0.7, T, noisy, np.random.default_rng(0), mode=mode)
    if mode == "convex":
        assert seen == [list(range(n))] * T
    else:
        b = n // T
        assert seen == [list(range(t * b, (t + 1) * b)) for t in range(T)]
    for t in range(1, T + 1):
        assert np.allclose(res.iterates[t], W.project(res.iterates[t - 1] - 0.7 * answers[t - 1]), rtol=0, atol=1e-15)
        assert np.linalg.norm(res.iterates[t]) <= 0.5 * (1 + 1e-12)


@pytest.mark.claim("heavy_tailed:Algorithm 1")
def test_cdp_sco_is_scof_with_the_estimator_at_rho_over_T():
    """Same seed: Algorithm 2 equals Algorithm 1 run with CDPCWME(rho/T) as the oracle."""
    X = ht.heavy_tailed_data(300, 2, 3, np.random.default_rng(4))
    rho, T, eta = 0.6, 5, 0.2
    a = ht.cdp_sco(X, ht.squared_loss_gradients, L2Ball(2, 5.0), rho, T, eta, np.random.default_rng(9), tau=20.0,
                   beta=0.2)

    def orc(G, rng, ledger):
        return ht.cdpcwme(G, rho / T, 20.0, 0.2, rng, ledger=ledger).estimate

    b = ht.scof(X, ht.squared_loss_gradients, L2Ball(2, 5.0), eta, T, orc, np.random.default_rng(9))
    assert np.array_equal(a.iterates, b.iterates)


# ---------------------------------------------------------------------------
# Bad input


@pytest.mark.claim("heavy_tailed:Bad input")
def test_too_few_samples_for_the_buckets_names_the_smallest_n():
    m = ht.bucket_count(2, 0.1)            # ceil(4 ln 40) = 15
    X = np.zeros((m - 1, 2))
    with pytest.raises(ParameterError, match=f"smallest n that works is {m}"):
        ht.high_dimensional_mean(X, 10.0, 0.1)
    with pytest.raises(ParameterError, match=f"n >= m = {m}"):
        ht.cdpcwme(X, 1.0, 10.0, 0.1, np.random.default_rng(0))
    ht.high_dimensional_mean(np.zeros((m, 2)), 10.0, 0.1)       # n = m works
    # a schedule that needs more samples per call than it has names the smallest n that works
    with pytest.raises(ParameterError, match="smallest n that works is") as err:
        ht.schedule_thm52(1000, 10, 1.0, 2.0, strict=False)
    n_min = int(str(err.value).split("smallest n that works is ")[1].split()[0].rstrip("(),"))
    ht.schedule_thm52(n_min, 10, 1.0, 2.0, strict=False)
    with pytest.raises(ParameterError):
        ht.schedule_thm52(n_min - 1, 10, 1.0, 2.0, strict=False)


@pytest.mark.claim("heavy_tailed:Bad input")
def test_tau_below_10_is_refused_by_the_schedules_with_the_smallest_n():
    with pytest.raises(ParameterError, match="smallest n with tau >= 10 is") as err:
        ht.schedule_cor42(1000, 4, 4.0, rho=0.1)
    n_min = int(str(err.value).split("smallest n with tau >= 10 is ")[1].split()[0])
    assert ht.schedule_cor42(n_min, 4, 4.0, rho=0.1).tau >= 10
    assert (math.sqrt(0.1) * (n_min - 1) / 2) ** 0.25 < 10
    relaxed = ht.schedule_cor42(1000, 4, 4.0, rho=0.1, strict=False)
    assert relaxed.tau < 10 and "outside the theorem's assumption" in relaxed.notes
    with pytest.raises(ParameterError, match="R <= 10"):
        ht.schedule_thm52(10**6, 1, 1.0, 2.0, R=11.0)


@pytest.mark.claim("heavy_tailed:Bad input")
@pytest.mark.parametrize("k", [1.0, 0.5, -2, float("nan"), float("inf"), "x"])
def test_moment_order_k_at_most_1_refused(k):
    with pytest.raises(ParameterError, match="k"):
        ht.schedule_cor42(10**6, 1, k, rho=1.0)
    with pytest.raises(ParameterError, match="k"):
        ht.heavy_tailed_data(10, 1, k, np.random.default_rng(0))


@pytest.mark.claim("heavy_tailed:Bad input")
@pytest.mark.parametrize("bad", [0.0, -1.0, float("nan"), float("inf")])
def test_privacy_parameters_refused(bad):
    X = np.zeros((40, 1))
    rng = np.random.default_rng(0)
    with pytest.raises(ParameterError, match="rho"):
        ht.cdpcwme(X, bad, 10.0, 0.1, rng)
    with pytest.raises(ParameterError, match="rho"):
        ht.cdpnsme(X, bad, 10.0, rng)
    with pytest.raises(ParameterError, match="rho"):
        ht.cdp_sco(X, ht.squared_loss_gradients, L2Ball(1, 1.0), bad, 2, 0.1, rng, tau=10.0)
    with pytest.raises(ParameterError, match="epsilon"):
        ht.dpcwme(X, bad, 10.0, 0.1, rng)
    with pytest.raises(ParameterError, match="tau"):
        ht.cdpcwme(X, 1.0, bad, 0.1, rng)
    with pytest.raises(ParameterError, match="c"):
        ht.cdpnsme(X, 1.0, 10.0, rng, c=bad)


@pytest.mark.claim("heavy_tailed:Bad input")
def test_bad_data_and_options_refused():
    rng = np.random.default_rng(0)
    with pytest.raises(ShapeError):
        ht.cdpcwme(np.zeros(40), 1.0, 10.0, 0.1, rng)
    with pytest.raises(NonFiniteError):
        ht.cdpcwme(np.full((40, 1), np.nan), 1.0, 10.0, 0.1, rng)
    for beta in (0.0, 1.0, 1.5):
        with pytest.raises(ParameterError, match="beta"):
            ht.high_dimensional_mean(np.zeros((40, 1)), 10.0, beta)
    with pytest.raises(ParameterError, match="calibration"):
        ht.cdpcwme(np.zeros((40, 1)), 1.0, 10.0, 0.1, rng, calibration="tight")
    with pytest.raises(ParameterError, match="mode"):
        ht.scof(np.zeros((4, 1)), ht.squared_loss_gradients, L2Ball(1, 1.0), 0.1, 2, exact_oracle, rng, mode="x")
    with pytest.raises(ParameterError, match="smallest n that works is 5"):
        ht.scof(np.zeros((4, 1)), ht.squared_loss_gradients, L2Ball(1, 1.0), 0.1, 5, exact_oracle, rng,
                mode="strongly_convex")


@pytest.mark.claim("heavy_tailed:Bad input")
def test_visible_moment_excess_warns_with_the_estimate_and_privacy_is_unchanged():
    rng = np.random.default_rng(0)
    heavy = 5.0 * rng.standard_t(2.2, size=(20_000, 2))            # declared k = 4, gamma = 1: far off
    with pytest.warns(ht.HeavyTailWarning, match="coordinate 0"):
        est = ht.empirical_moment_check(heavy, 4.0)
    assert np.all(est > 10)
    ok = ht.heavy_tailed_data(20_000, 2, 4.0, rng)                   # E|X - mu|^4 = 1 exactly
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        est = ht.empirical_moment_check(ok, 4.0)
    assert np.all(est < 10)
    # the estimator's ledger does not look at the data's moments: same sensitivity for both data sets
    a = ht.cdpcwme(heavy, 1.0, 10.0, 0.1, rng).ledger.events[0]
    b = ht.cdpcwme(ok, 1.0, 10.0, 0.1, rng).ledger.events[0]
    assert (a.sensitivity, a.noise_scale) == (b.sensitivity, b.noise_scale)


@pytest.mark.claim("heavy_tailed:Algorithm 1")
def test_schedule_bucket_count_passes_through_when_beta_underflows():
    """Theorem 5.2's beta = (n^-3/M)^(2d) is below the smallest float at d = 20; the schedule's m is passed
    directly, and the printed noise is then the proof's 72 tau^2 m^2 d / (rho n^2)."""
    s = ht.schedule_thm52(10**6, 20, 1.0, 2.0, strict=False)
    assert s.beta == 0.0 and s.m == math.ceil(4 * (math.log(40) + 40 * math.log(1e18)))
    X = np.zeros((7000, 20))
    r = ht.cdpcwme(X, 0.5, 10.0, None, np.random.default_rng(0), m=s.m)
    assert r.m == s.m and r.noise_scale == pytest.approx(math.sqrt(72 * 100 * s.m ** 2 * 20 / (0.5 * 7000 ** 2)))
    res = ht.cdp_sco(X, ht.squared_loss_gradients, L2Ball(20, 1.0), 0.5, 2, 0.1, np.random.default_rng(0),
                     tau=10.0, beta=None, m=s.m)
    assert len(res.ledger) == 2 and res.certified_rho <= 0.5
