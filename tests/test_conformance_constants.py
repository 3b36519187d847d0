"""The contract an outsider ports from (issue 31): ``list --json``'s ``call.constants`` and ``certified_noise`` name,
per id, the constants and the public functions a port needs. Each named function must import, and each must give
what the reference uses on the id's cases (read from the reference's result or ledger, never recomputed by the same
call): a name that drifted from the code, or a function that is not the one the reference calls, fails here.
"""

from __future__ import annotations

import importlib
import math
import re
import warnings

import numpy as np
import pytest

from reference.oracle.conform import CERTIFIED_NOISE, CONSTANTS
from reference.oracle.suite import cases
from reference.oracle.vectors import resolve

_NAME = re.compile(r"(reference(?:\.\w+)+):(\w+)")


def _named_functions():
    names = set()
    for text in [*CERTIFIED_NOISE.values(), *(t for v in CONSTANTS.values() for t in v)]:
        names.update(_NAME.findall(text))
    return sorted(names)


def test_every_id_has_constants():
    ids = {c.algorithm for c in cases()}
    assert ids <= set(CONSTANTS), sorted(ids - set(CONSTANTS))


@pytest.mark.parametrize("module, attribute", _named_functions())
def test_every_named_function_imports(module, attribute):
    obj = getattr(importlib.import_module(module), attribute)
    # a function or class, or a named constant (UPPER_CASE, a number: erm_geometry's LIPSCHITZ = 2)
    assert callable(obj) or (attribute.isupper() and isinstance(obj, (int, float))), f"{module}:{attribute}"


def _runs(algorithm, **only):
    """(case, kwargs, the reference's result) for every case of ``algorithm`` (seeded as the case is)."""
    out = []
    for case in cases(algorithm):
        kw = case.make_kwargs()
        if any(kw.get(k) != v for k, v in only.items()):
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out.append((case, kw, resolve(case.reference)(**kw, rng=np.random.default_rng(case.seed))))
    assert out, algorithm
    return out


# ---- saddle_point ----------------------------------------------------------------------------------------------

def test_saddle_point_algorithm3_certified_and_printed_eta_are_the_named_functions():
    from reference.algorithms import saddle_point as sp

    seen = set()
    for case, kw, res in _runs("saddle_point:Algorithm 3"):
        L0 = sp.QuadraticSaddle(kw["atoms"], np.asarray(kw["data"])).lipschitz
        Gamma, M = sp.algorithm3_budget(len(kw["data"]), kw["B"])
        assert (Gamma, M) == (res.Gamma, res.M) == (len(kw["data"]) // (2 * kw["B"]), int(math.log2(Gamma)) - 3)
        if kw["calibration"] == "certified":
            assert sp.certified_eta_algorithm3(kw["epsilon"], kw["delta"], L0, kw["B"], Gamma) == res.eta
            assert sp.paper_eta_algorithm3(kw["epsilon"], kw["delta"], L0, kw["B"], Gamma) != res.eta
        else:
            assert sp.paper_eta_algorithm3(kw["epsilon"], kw["delta"], L0, kw["B"], Gamma) == res.eta
        # the ledger's per-vertex epsilon is 2 eta (5 L0 / B): the sensitivity the contract names
        assert {e.epsilon for e in res.ledger} == {2.0 * res.eta * (5.0 * L0 / kw["B"])}
        seen.add(kw["calibration"])
    assert seen == {"paper", "certified"}


def test_saddle_point_algorithm5_step_is_the_named_functions_under_the_cap():
    from reference.algorithms import saddle_point as sp

    seen = set()
    for case, kw, res in _runs("saddle_point:Algorithm 5"):
        a, b = np.asarray(kw["a"]), np.asarray(kw["b"])
        T, K, tau = len(b), kw["K"], kw["tau"]
        L0 = sp.SimplexLeastSquares(a, b).lipschitz
        # L0 as the contract states it: max_i ||a_i||_inf max over the vertices |a_ij - b_i|
        assert L0 == pytest.approx(float(np.max(np.abs(a).max(1) * np.abs(a - b[:, None]).max(1))), rel=1e-15)
        cap = 1.0 / (8.0 * L0 * tau * T)
        if kw["calibration"] == "certified":
            eta = sp.certified_eta_algorithm5(kw["epsilon"], kw["delta"], L0, T, K, tau)
        else:
            t0 = math.ceil(T / tau)
            N = sp.algorithm5_sample_count(K, T, tau, t0, rule="catalogue")
            assert N == K * (t0 + math.ceil((T - t0) / tau) + 1)
            eta = sp.paper_eta_algorithm5(kw["epsilon"], kw["delta"], L0, T, N)
        assert min(eta, cap) == res.eta, (case.name, eta, cap, res.eta)
        seen.add((kw["calibration"], eta < cap))
    # both calibrations, and cases where the cap binds and where it does not
    assert {c for c, _ in seen} == {"paper", "certified"} and {b for _, b in seen} == {True, False}, seen


def test_saddle_point_algorithm4_counts_split_and_noise_are_the_named_functions():
    from reference.algorithms import frank_wolfe as fw
    from reference.algorithms import saddle_point as sp

    for case, kw, res in _runs("saddle_point:Algorithm 4"):
        n = len(kw["data"])
        k, kp = sp.boosting_counts(kw["beta"])
        if "k" in kw:
            k, kp = kw["k"], kw["k_prime"]
        assert (k, kp) == (res.k, res.k_prime)
        size3, size_fw, m = sp.boosting_part_sizes(n, k, kp)
        assert size3 == len(res.parts[("alg3", 0)]) and size_fw == len(res.parts[("fw_y", 0, 0)])
        assert m == len(res.parts[("holdout",)])
        L0 = sp.QuadraticSaddle(kw["atoms"], np.asarray(kw["data"])).lipschitz
        lam = sp.boosting_noise_scale(L0, size_fw, kw["fw_T"], kw["epsilon"], kw["delta"], kw["calibration"])
        fw_events = [e for key, ledger in res.part_ledgers.items() if key[0] != "alg3" and key[0] != "holdout"
                     for e in ledger]
        assert fw_events and {e.noise_scale for e in fw_events} == {lam}
        assert {e.sensitivity for e in fw_events} == {2 * L0 / size_fw}
        # the selection: sensitivity 4 B0 / m, B0 = max |atoms| on the bilinear game
        assert res.range_bound == float(np.abs(kw["atoms"]).max())
        assert res.score_sensitivity == pytest.approx(4 * res.range_bound / m, rel=1e-15)
        # each Algorithm 3 part's step is saddle_point:Algorithm 3's on n // (3k) records
        Gamma, _ = sp.algorithm3_budget(size3, kw["B"])
        eta3 = (sp.certified_eta_algorithm3 if kw["calibration"] == "certified" else sp.paper_eta_algorithm3)(
            kw["epsilon"], kw["delta"], L0, kw["B"], Gamma)
        assert {e.epsilon for e in res.part_ledgers[("alg3", 0)]} == {2.0 * eta3 * (5.0 * L0 / kw["B"])}
        if kw["calibration"] == "paper":
            assert lam == fw.paper_laplace_scale(L0, 1.0, kw["fw_T"], size_fw, kw["epsilon"], kw["delta"])


def test_the_line1_counts_are_the_printed_formulas_at_generic_beta():
    from reference.algorithms import saddle_point as sp

    # k = ceil(log2(4/beta)), k' = ceil(log2(8k/beta)): by hand at beta 0.09 (log2 44.4 = 5.47, log2 533.3 = 9.06)
    # and 0.6 (log2 6.67 = 2.74, log2 40 = 5.32)
    assert sp.boosting_counts(0.09) == (6, 10) and sp.boosting_counts(0.6) == (3, 6)


def test_saddle_point_algorithm2_weight_is_the_truncated_geometric_pmf():
    from reference.algorithms import saddle_point as sp
    from reference.oracle.cases import saddle_point as spc

    for case, kw, out in _runs("saddle_point:Algorithm 2"):
        if "cubic" in kw or "a" in kw:
            continue
        game = sp.QuadraticSaddle(kw["atoms"], np.asarray(kw["data"]))
        res = sp.bias_reduced_gradient(game, kw["x"], kw["y"], kw["N"], kw["batch"], kw["M"],
                                       np.random.default_rng(case.seed))
        C_M = 1.0 / (2.0 * (1.0 - 2.0 ** -(kw["M"] + 1)))
        assert res.weight == pytest.approx(1.0 / (C_M * 2.0 ** -kw["N"]), rel=1e-14)
        assert np.array_equal(np.r_[res.gx, res.gy], out)
    cubic = spc.CubicSaddle(np.ones((1, 2, 2)) * 0.7, np.zeros(3, dtype=int), 0.8)
    assert cubic.lipschitz == pytest.approx(0.7 + 0.4)


def test_saddle_point_algorithm1_and_5_l0_are_the_games():
    from reference.algorithms import saddle_point as sp

    atoms = np.array([[[0.3, -0.9], [0.2, 0.4]]])
    assert sp.QuadraticSaddle(atoms, np.zeros(4, dtype=int)).lipschitz == pytest.approx(0.9)


# ---- lasso -----------------------------------------------------------------------------------------------------

def test_lasso_noise_scale_horizon_and_sensitivity_are_the_named_functions():
    from reference.algorithms import lasso

    for algorithm in ("lasso:Algorithm 2", "lasso:Corollary 2.7"):
        for case, kw, res in _runs(algorithm):
            n = np.asarray(kw["X"]).shape[0]
            c = kw["radius"]
            if algorithm == "lasso:Corollary 2.7":
                gamma = "paper" if kw["calibration"] == "paper" else "exact"
                assert lasso.horizon(n, kw["epsilon"], c, gamma=gamma) == res.T
            else:
                assert kw["T"] == res.T
            assert lasso.lasso_noise_scale(n, res.T, kw["epsilon"], kw["delta"], radius=c,
                                           calibration=kw["calibration"], selection=kw["selection"]) == res.noise_scale
            assert lasso.score_sensitivity(n, c) == res.score_sensitivity == pytest.approx(4 * c * (c + 1) / n)
            assert lasso.lipschitz_l1(c) == 2 * (c + 1)


def test_lasso_loss_is_eq_2_without_the_half():
    from reference.algorithms import lasso

    X, y, theta = np.array([[1.0, 0.0], [0.5, -1.0]]), np.array([0.2, -0.3]), np.array([0.4, 0.1])
    assert lasso.lasso_loss(theta, X, y) == pytest.approx(((0.4 - 0.2) ** 2 + (0.2 - 0.1 + 0.3) ** 2) / 2)


# ---- heavy_tailed ----------------------------------------------------------------------------------------------

def test_heavy_tailed_estimators_noise_is_the_named_functions():
    from reference.algorithms import heavy_tailed as ht

    for case, kw, res in _runs("heavy_tailed:CDPCWME"):
        n, d = np.asarray(kw["X"]).shape
        m = kw.get("m") or ht.bucket_count(d, kw["beta"])
        assert m == res.m == (kw.get("m") or math.ceil(4 * math.log(2 * d / kw["beta"])))
        sens = ht.cwme_sensitivity(n, d, kw["tau"], m)
        assert sens == res.sensitivity == pytest.approx((1 if m % 2 else 0.5) * 6 * kw["tau"] * math.sqrt(d) / (n // m))
        if kw["calibration"] == "certified":
            assert ht.certified_sigma(sens, kw["rho"]) == res.noise_scale
        elif kw.get("beta") is not None:
            assert ht.cwme_paper_sigma(n, d, kw["tau"], kw["rho"], kw["beta"]) == res.noise_scale
    for case, kw, res in _runs("heavy_tailed:DPCWME"):
        n, d = np.asarray(kw["X"]).shape
        sens = ht.cwme_sensitivity(n, d, kw["tau"], ht.bucket_count(d, kw["beta"]), norm="l1")
        assert sens == res.sensitivity
        expected = (ht.certified_laplace_scale(sens, kw["epsilon"]) if kw["calibration"] == "certified"
                    else ht.cwme_paper_laplace_scale(n, d, kw["tau"], kw["epsilon"], kw["beta"]))
        assert expected == res.noise_scale
    for case, kw, res in _runs("heavy_tailed:Algorithm 4"):
        n, d = np.asarray(kw["X"]).shape
        sens = ht.nsme_sensitivity(n, d, kw["tau"], kw["c"])
        assert sens == res.sensitivity == pytest.approx(2 * ht.smoothed_influence_sup(kw["c"]) * kw["tau"] *
                                                         math.sqrt(d) / n)
        expected = (ht.certified_sigma(sens, kw["rho"]) if kw["calibration"] == "certified"
                    else ht.nsme_paper_sigma(n, d, kw["tau"], kw["rho"]))
        assert expected == res.noise_scale


def test_heavy_tailed_algorithm2_per_step_sigma_is_the_named_function():
    from reference.algorithms import heavy_tailed as ht
    from reference.geometry.sets import L2Ball

    checked = 0
    for case in cases("heavy_tailed:Algorithm 2"):
        kw = case.make_kwargs()
        if kw["calibration"] != "certified" or isinstance(kw["T"], str):
            continue
        X = np.asarray(kw["X"], dtype=float)
        n, d = X.shape
        res = ht.cdp_sco(X, ht.squared_loss_gradients, L2Ball(d, kw["radius"]), kw["rho"], kw["T"], kw["eta"],
                         np.random.default_rng(case.seed), oracle=kw["oracle"], tau=kw["tau"], beta=kw["beta"],
                         c=kw["c"], calibration="certified", mode=kw["mode"])
        rows = n if kw["mode"] == "convex" else n // kw["T"]
        sens = (ht.cwme_sensitivity(rows, d, kw["tau"], ht.bucket_count(d, kw["beta"])) if kw["oracle"] == "cwme"
                else ht.nsme_sensitivity(rows, d, kw["tau"], kw["c"]))
        sigma = ht.certified_sigma(sens, kw["rho"] / kw["T"])
        assert {e.noise_scale for e in res.ledger} == {sigma} and len(res.ledger) == kw["T"]
        checked += 1
    assert checked >= 2


# ---- core ------------------------------------------------------------------------------------------------------

def test_core_tree_sensitivity_and_nodes_are_the_named_functions():
    from reference.privacy import tree

    for case, kw, res in _runs("core:private_prefix_sums"):
        T = np.asarray(kw["xs"]).shape[0]
        (event,) = res.ledger
        assert event.sensitivity == tree.tree_sensitivity(T, kw["sensitivity"]) == pytest.approx(
            math.sqrt(math.floor(math.log2(T)) + 1) * kw["sensitivity"])
        for t in range(1, T + 1):
            assert len(tree.prefix_nodes(t)) == bin(t).count("1")


def test_core_gaussian_certified_sigma_is_tight_for_the_accountant():
    from reference.privacy import accounting
    from reference.privacy.ledger import Ledger, MechanismEvent

    for eps, delta, sens in ((1.0, 1e-5, 0.6), (0.3, 1e-3, 1.3)):
        sigma = accounting.analytic_gaussian_sigma(eps, delta, sens)
        for scale, ok in ((sigma * 1.0001, True), (sigma * 0.98, False)):
            ledger = Ledger()
            ledger.record(MechanismEvent("gaussian", sensitivity=sens, norm="l2", noise_scale=scale))
            assert (accounting.certify(ledger.freeze(), delta).epsilon <= eps * (1 + 1e-9)) == ok


def test_core_truncated_geometric_pmf_is_the_stated_law():
    from reference.privacy.mechanisms import truncated_geometric_pmf

    for M in (0, 3, 7):
        C = 1.0 / (2.0 * (1.0 - 2.0 ** -(M + 1)))
        assert np.allclose(truncated_geometric_pmf(M), [C * 2.0 ** -k for k in range(M + 1)], rtol=1e-15)


def _vertex_ledger_epsilon(eps0: float, sens: float, count: int, delta: float) -> float:
    from reference.privacy import accounting
    from reference.privacy.ledger import Ledger, MechanismEvent

    ledger = Ledger()
    for _ in range(count):
        ledger.record(MechanismEvent("exponential", sensitivity=sens, norm="score", epsilon=eps0))
    return accounting.certify(ledger.freeze(), delta).epsilon


def test_saddle_point_certified_steps_are_the_largest_the_accountant_certifies():
    """Not only the function the reference calls: at the named certified step the ledger of the run's vertex draws
    (eps0 = 2 eta sens each) certifies within epsilon, and at 1.02 x the step it does not (the step is tight)."""
    from reference.algorithms import saddle_point as sp

    checked = 0
    for algorithm in ("saddle_point:Algorithm 3", "saddle_point:Algorithm 5"):
        for case, kw, res in _runs(algorithm, calibration="certified"):
            if algorithm.endswith("3"):
                L0 = sp.QuadraticSaddle(kw["atoms"], np.asarray(kw["data"])).lipschitz
                Gamma, _ = sp.algorithm3_budget(len(kw["data"]), kw["B"])
                eta, sens, count = sp.certified_eta_algorithm3(kw["epsilon"], kw["delta"], L0, kw["B"], Gamma), \
                    5.0 * L0 / kw["B"], 2 * Gamma
            else:
                T = len(kw["b"])
                L0 = sp.SimplexLeastSquares(kw["a"], kw["b"]).lipschitz
                eta = sp.certified_eta_algorithm5(kw["epsilon"], kw["delta"], L0, T, kw["K"], kw["tau"])
                sens = 2.0 * L0 * T
                count = sp.algorithm5_sample_count(kw["K"], T, kw["tau"], math.ceil(T / kw["tau"]))
            assert _vertex_ledger_epsilon(2 * eta * sens, eta * sens, count, kw["delta"]) <= kw["epsilon"] * (1 + 1e-9)
            assert _vertex_ledger_epsilon(2 * 1.02 * eta * sens, 1.02 * eta * sens, count, kw["delta"]) > kw["epsilon"]
            checked += 1
    assert checked >= 3
