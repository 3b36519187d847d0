"""Certified calibrations are tight: the accountant certifies the claim itself, not less (issue 34).

``calibration="certified"`` promises the *smallest* noise (or the largest step) whose ledger the package's
accountant certifies within the claim. A test that only checks certified <= claimed passes a calibration whose
noise is 5% too large (removing ``items=T - 1`` from PQFTL's tree noise did, at T = 1024): here the certified
epsilon (or rho) of the run's ledger must *equal* the claimed one within the accountant's tolerance:

    claim (1 - REL_TOL) <= certify(ledger, delta).epsilon <= claim (1 + 1e-12).

REL_TOL = 1e-5: the calibrations solve for the noise scale to a relative 1e-7
(accounting.calibrate_noise_scale) and certify rounds up; the largest gap measured over the cases below is
1.1e-6 (erm_geometry Algorithm 1). A noise scale 5% too large moves a Gaussian or Laplace certificate by at
least 4.7% (epsilon falls at least like 1/scale where delta is small), 4700 x the tolerance.

The instances are the oracle's certified vector cases (reference.oracle.suite: every algorithm id with a
certified mode, generic inputs), each run by the function the case names, plus the instances of the issue
(PQFTL at T = 1024 and T = 1000, R and alpha != 1). Where a run's ledger cannot equal the claim by design, the
test says why and checks the equality on the ledger the calibration was solved for.
"""

from __future__ import annotations

import importlib
import math
import warnings

import numpy as np
import pytest

from reference.algorithms import heavy_tailed as ht
from reference.algorithms import online as ol
from reference.algorithms import saddle_point as sp
from reference.privacy import accounting
from reference.privacy.ledger import Ledger

REL_TOL = 1e-5


def assert_certified_equals_claim(certified: float, claim: float, what: str) -> None:
    """Not above the claim (soundness) and not below it by more than REL_TOL (tightness)."""
    assert certified <= claim * (1 + 1e-12), f"{what}: certified {certified!r} above the claim {claim!r}"
    assert certified >= claim * (1 - REL_TOL), (
        f"{what}: certified {certified!r} is {1 - certified / claim:.3%} below the claim {claim!r}: the certified "
        "noise is larger than the accountant needs")


def _certified_cases():
    from reference.oracle import suite
    return [c for c in suite.cases() if c.make_kwargs().get("calibration") == "certified"]


# Certified cases whose function (a plain-data conform wrapper) returns no ledger, or whose run cannot equal its
# claim by design: each is checked by a test of its own below (named here), or the reason it is not.
ELSEWHERE = {
    "lasso:Theorem 2.6": "not checked here: the conform wrapper returns theta_T only (no ledger)",
    "erm_geometry:Algorithm 2": "not an accountant calibration: one 'approximate' event carrying KST12's (eps, delta) "
                                "at this variance, which uses the whole delta (certify refuses it at the same delta)",
    "saddle_point:Algorithm 4": "not checked here: the result carries no ledger (its claim composes Algorithm 3, the "
                                "Frank-Wolfe runs and the exponential mechanism by parts)",
    "online:Algorithm 5": "the conform wrapper returns arrays; test_private_sum_certified_is_tight",
    "heavy_tailed:DPCWME": "pure epsilon (no delta): test_dpcwme_certified_is_tight",
    "saddle_point:Algorithm 3": "a run stops before the worst-case 2 Gamma vertices the step is solved for; "
                                "test_algorithm3_certified_step_is_tight_for_the_worst_case_ledger",
}


CASES = _certified_cases()


@pytest.mark.claim("core:certify")
@pytest.mark.parametrize("case", [c for c in CASES if c.algorithm not in ELSEWHERE],
                         ids=lambda c: f"{c.algorithm}/{c.name}")
def test_certified_vector_case_certifies_exactly_its_claim(case):
    kw = case.make_kwargs()
    module, name = case.reference.split(":")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = getattr(importlib.import_module(module), name)(**kw, rng=np.random.default_rng(case.seed))
    ledger = res.ledger
    assert len(ledger) > 0
    if "rho" in kw:                                  # heavy_tailed: rho-zCDP claims, the ledger's rho
        got, claim = ht.ledger_rho(ledger), float(kw["rho"])
    else:
        claim = getattr(res, "claimed_epsilon", None) or float(kw["epsilon"])
        delta = getattr(res, "claimed_delta", None) or getattr(res, "delta", None) or kw["delta"]
        got = accounting.certify(ledger, delta).epsilon
    assert_certified_equals_claim(got, claim, f"{case.algorithm} {case.name}")


def test_every_certified_id_is_covered():
    """Every algorithm id with a certified vector case is checked above or by a named test below."""
    ids = {c.algorithm for c in CASES}
    assert {"online:Algorithm 4", "online:Algorithm 1", "online:Algorithm 2", "online:Algorithm 3",
            "online:Algorithm 6", "heavy_tailed:CDPCWME", "heavy_tailed:Algorithm 4", "heavy_tailed:Algorithm 2",
            "saddle_point:Algorithm 1", "saddle_point:Algorithm 5", "lasso:Algorithm 2", "lasso:Corollary 2.7",
            "erm_geometry:Algorithm 1", "erm_geometry:Algorithm 4", "erm_geometry:Algorithm 5"} <= ids
    assert set(ELSEWHERE) <= ids
    # PQFTL's case at T = 16 is where items = T - 1 matters (15 items lie in 4 nodes, 16 in 5)
    assert any(c.algorithm == "online:Algorithm 4" and len(c.make_kwargs()["y"]) == 16 for c in CASES)


# ---------------------------------------------------------------------------
# PQFTL: the instance


def _pqftl_stream(T, d, R, alpha, rng):
    fs = []
    for _ in range(T):
        v = rng.standard_normal(d)
        v *= R * rng.uniform(0.5, 1.0) / np.linalg.norm(v)
        fs.append(ol.SquaredLoss(v, R * rng.uniform(-1, 1), alpha))
    return fs


@pytest.mark.claim("online:Theorem 7")
@pytest.mark.parametrize("T", [1024, 1000, 17])
def test_pqftl_certified_ledger_certifies_exactly_epsilon(T):
    """PQFTL, calibration="certified", eps = 0.9, delta = 1e-5, R = 1.3, alpha = 0.7, d = 3: the ledger of the run
    (two Gaussian tree events) certifies eps to REL_TOL. The trees hold T - 1 items: at T = 1024 item 1 lies in 10
    nodes, not 11, and noise solved for 11 is sqrt(11/10) = 4.9% larger (measured with items=T - 1 removed from
    pqftl: certifies 0.8542, 5.1% below eps; the T = 16 vector case 16.85 for 20, 15.7% below); at
    T = 1000 (999 and 1000 items both in 10 nodes) and T = 17 (16 items: 5 nodes, 17: 5) the count is the same."""
    eps, delta, R, alpha, d = 0.9, 1e-5, 1.3, 0.7, 3
    rng = np.random.default_rng(T)
    fs = _pqftl_stream(T, d, R, alpha, rng)
    res = ol.pqftl(fs, T, eps, delta, R, alpha, np.random.default_rng(T + 1), calibration="certified")
    assert len(res.ledger) == 2
    assert {e.sensitivity for e in res.ledger.events} == {2 * R * R * math.sqrt((T - 1).bit_length())}
    assert_certified_equals_claim(accounting.certify(res.ledger, delta).epsilon, eps, f"PQFTL T = {T}")


# ---------------------------------------------------------------------------
# The certified modes whose case functions return no ledger


@pytest.mark.claim("online:Theorem 9")
@pytest.mark.parametrize("T, R", [(8, 1.2), (11, 0.7)])
def test_private_sum_certified_is_tight(T, R):
    """Algorithm 5 alone (certified sigma for T items, bound R): the ledger's one tree event certifies eps."""
    eps, delta = 0.7, 1e-3
    led, B = Ledger(), None
    rng = np.random.default_rng(T)
    for t in range(1, T + 1):
        _, B = ol.private_sum(R * rng.uniform(-1, 1, 2) / math.sqrt(2), B, t, R, eps, delta, T, rng,
                              calibration="certified", ledger=led if t == 1 else None)
    assert_certified_equals_claim(accounting.certify(led, delta).epsilon, eps, f"PrivateSum T = {T}")


@pytest.mark.claim("heavy_tailed:Theorem 4.1 DP")
@pytest.mark.parametrize("n, d", [(200, 2), (301, 3)])
def test_dpcwme_certified_is_tight(n, d):
    """DPCWME certified: the Laplace event's epsilon (sensitivity / scale, l1) is the claimed eps."""
    X = ht.heavy_tailed_data(n, d, 3, np.random.default_rng(n))
    r = ht.dpcwme(X, 0.8, 2.5, 0.1, np.random.default_rng(1), calibration="certified")
    assert_certified_equals_claim(sum(accounting.event_epsilon(e) for e in r.ledger), 0.8, "DPCWME")


@pytest.mark.claim("saddle_point:Proposition 3.17")
@pytest.mark.parametrize("n, B, eps", [(512, 4, 30.0), (700, 3, 12.0)])
def test_algorithm3_certified_step_is_tight_for_the_worst_case_ledger(n, B, eps):
    """Algorithm 3's step is solved before the levels N_t are drawn, for the most vertices a run can draw (2 Gamma:
    the loop admits per player at most Gamma = sum of 2^(N_t+1) + 2). A run stops earlier, so its own ledger certifies
    less than the claim (measured 0.83-0.86 of it on the vector cases); the ledger of 2 Gamma copies of the run's
    vertex event certifies the claim itself."""
    delta = 1e-3
    rng = np.random.default_rng(n)
    game = sp.QuadraticSaddle(rng.uniform(-1.5, 1.5, (4, 3, 2)), rng.integers(0, 4, n), weights=np.full(4, 0.25))
    res = sp.private_smd_bias_reduced(game, eps, delta, np.random.default_rng(B), B=B, calibration="certified",
                                      keep_iterates=False)
    run_cert = accounting.certify(res.ledger, delta).epsilon
    assert run_cert <= eps * (1 + 1e-12)
    event = res.ledger.events[0]
    assert len(set(res.ledger.events)) == 1 and len(res.ledger) <= 2 * res.Gamma
    worst = Ledger()
    for _ in range(2 * res.Gamma):
        worst.record(event)
    assert_certified_equals_claim(accounting.certify(worst, delta).epsilon, eps, "Algorithm 3, 2 Gamma vertices")
