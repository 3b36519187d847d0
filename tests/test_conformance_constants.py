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


# ---- the third pass (issue 31): the facts an outsider still looked up for saddle_point Algorithms 3, 4, 5, each checked
# against the code from the text of list's constants (the formulas written here are the contract's, not the code's)

def _stated_vertices(x, K, rng):
    """docs/vectors.md's vertex rule: one random() u per vertex, index min(#{j : F_j <= u F_last}, d - 1)."""
    F = np.cumsum(x)
    u = rng.random(K) * F[-1]
    return np.minimum((F[None, :] <= u[:, None]).sum(axis=1), x.size - 1)


def _stated_algorithm5(a, b, step, K, tau, rng, *, learner_weight=True, refresh_offset=True):
    """saddle_point Algorithm 5 as list's constants state it (items 1-4 of the third pass); the two switches are the
    outsider's wrong readings (no alpha_t in the learner's step; refresh when t % tau == 0)."""
    T, d = a.shape
    t0 = math.ceil(T / tau)
    w = np.full(d, 1.0 / d)
    x, A, x_hat = w.copy(), 1.0, None
    for t in range(1, T + 1):
        x_T = x
        if t <= t0 or ((t - t0) if refresh_offset else t) % tau == 0:
            x_hat = np.bincount(_stated_vertices(x, K, rng), minlength=d) / K
        g = (a[t - 1] @ x_hat - b[t - 1]) * a[t - 1]
        w = w * np.exp(-step * (t if learner_weight else 1.0) * g)
        w = w / w.sum()
        A_next = A + (t + 1)
        x = (A * x + (t + 1) * w) / A_next
        A = A_next
    return np.bincount(_stated_vertices(x_T, K, rng), minlength=d) / K, x_T


def test_saddle_point_algorithm5_stated_loop_replays_the_reference_and_the_outsiders_readings_do_not():
    """list's constants for Algorithm 5 (loss, start, where the gradient is taken, alpha_t in the learner's step,
    the refresh offset t - t0) replay the reference's output bit for bit on every case; the two readings the third
    outsider weighed (no alpha_t; t % tau) do not."""
    from reference.oracle.conform import CONSTANTS

    text = " ".join(CONSTANTS["saddle_point:Algorithm 5"])
    for phrase in ("(1/2)(<a_i, x> - b_i)^2", "w_1 = x_1 = the uniform point", "(t - t0) % tau == 0",
                   "w_t exp(-step alpha_t g_t), alpha_t = t", "round t = 1..T uses record t"):
        assert phrase in text, phrase
    wrong = {"learner_weight": 0, "refresh_offset": 0}
    for case, kw, res in _runs("saddle_point:Algorithm 5"):
        a, b = np.asarray(kw["a"], dtype=float), np.asarray(kw["b"], dtype=float)
        out, x_T = _stated_algorithm5(a, b, res.eta, kw["K"], kw["tau"], np.random.default_rng(case.seed))
        assert np.array_equal(out, res.x), case.name
        assert np.allclose(x_T, res.x_last, rtol=0, atol=1e-12), case.name
        for switch in wrong:
            o, xt = _stated_algorithm5(a, b, res.eta, kw["K"], kw["tau"], np.random.default_rng(case.seed),
                                       **{switch: False})
            wrong[switch] += not (np.array_equal(o, res.x) and np.allclose(xt, res.x_last, rtol=0, atol=1e-12))
    assert all(wrong.values()), wrong


def test_saddle_point_algorithm5_stated_counts_and_printed_eta():
    from reference.algorithms import saddle_point as sp

    for K, T, tau in ((3, 80, 5), (7, 33, 4), (2, 12, 1), (5, 101, 10)):
        t0 = math.ceil(T / tau)
        assert sp.algorithm5_sample_count(K, T, tau, t0) == K * (t0 + math.floor((T - t0) / tau) + 1)
        assert sp.algorithm5_sample_count(K, T, tau, t0, rule="catalogue") == K * (t0 + math.ceil((T - t0) / tau) + 1)
    # the example the contract gives: paper-d4-n80-K3-tau5
    assert (sp.algorithm5_sample_count(3, 80, 5, 16, rule="catalogue"), sp.algorithm5_sample_count(3, 80, 5, 16)) \
        == (90, 87)
    for eps, delta, L0, T, N in ((2.0, 1e-5, 0.7, 80, 90), (0.3, 1e-9, 2.5, 33, 14)):
        stated = eps / (8 * L0 * T * math.sqrt(2 * N * math.log(1 / delta)))
        assert sp.paper_eta_algorithm5(eps, delta, L0, T, N) == pytest.approx(stated, rel=1e-14)
        eps0 = eps / (2 * math.sqrt(2 * N * math.log(1 / delta)))          # Corollary 3.6 at N draws
        assert 2 * stated * (2 * L0 * T) == pytest.approx(eps0, rel=1e-14)


def test_saddle_point_algorithm3_stated_stopping_rule_batches_and_printed_eta():
    """The stopping rule list states (before N_t is drawn: spent + 2^(M+1) + 2 <= Gamma), the batch B 2^(N_t+1) and the
    records used, checked on every case's run: each of the tau steps passed the test and step tau + 1 fails it."""
    from reference.algorithms import saddle_point as sp
    from reference.errors import ParameterError

    for case, kw, res in _runs("saddle_point:Algorithm 3"):
        spent, reserve = 0, 2 ** (res.M + 1) + 2
        for N in res.levels:
            assert spent + reserve <= res.Gamma
            spent += 2 ** (int(N) + 1) + 2
        assert spent + reserve > res.Gamma, case.name
        assert res.tau == len(res.levels) >= 1
        assert res.data_used == kw["B"] * sum(2 ** (int(N) + 1) for N in res.levels) <= len(kw["data"]) // 2
    for eps, delta, L0, B, Gamma in ((4.0, 1e-3, 0.9, 2, 64), (0.5, 1e-8, 1.7, 5, 13)):
        stated = eps * B / (40 * L0 * math.sqrt(Gamma * math.log(1 / delta)))
        assert sp.paper_eta_algorithm3(eps, delta, L0, B, Gamma) == pytest.approx(stated, rel=1e-14)
        eps0 = eps / (2 * math.sqrt(2 * (2 * Gamma) * math.log(1 / delta)))   # Corollary 3.6 at 2 Gamma draws
        assert 2 * stated * (5 * L0 / B) == pytest.approx(eps0, rel=1e-14)
    # n >= 16 B: the smallest n runs with M = 0, one fewer record is refused naming n
    for B in (1, 3):
        assert sp.algorithm3_budget(16 * B, B) == (8, 0)
        with pytest.raises(ParameterError, match="n"):
            sp.algorithm3_budget(16 * B - 1, B)


def test_truncated_geometric_is_the_stated_inverse_cdf():
    """N = the least k with u < F(k), F(k) = (1 - 2^-(k+1)) / (1 - 2^-(M+1)), u one random(): replayed on 300 seeds per M.
    The reversed reading (the least k with 1 - u < F(k)) disagrees on some seeds."""
    from reference.privacy.mechanisms import truncated_geometric

    for M in (0, 2, 5):
        F = [(1 - 2.0 ** -(k + 1)) / (1 - 2.0 ** -(M + 1)) for k in range(M + 1)]
        reversed_differs = 0
        for seed in range(300):
            u = np.random.default_rng(seed).random()
            N = truncated_geometric(M, np.random.default_rng(seed))
            assert N == next(k for k in range(M + 1) if u < F[k] or k == M)
            reversed_differs += N != next(k for k in range(M + 1) if 1 - u < F[k] or k == M)
        assert reversed_differs > 0 or M == 0


def test_saddle_point_algorithm4_stated_score_and_paper_lambda():
    from reference.algorithms import frank_wolfe as fw
    from reference.algorithms import saddle_point as sp

    gen = np.random.default_rng(7)
    atoms = gen.uniform(-1.3, 1.3, size=(4, 3, 2))
    game = sp.QuadraticSaddle(atoms, gen.integers(0, 4, size=50))
    holdout = np.arange(31, 50)
    A2 = atoms[game.data[holdout]].mean(axis=0)

    def point(d):
        p = gen.uniform(0.1, 1.0, d)
        return p / p.sum()

    candidates = [(point(3), point(2)) for _ in range(3)]
    y_hats = [[point(2) for _ in range(2)] for _ in range(3)]
    x_hats = [[point(3) for _ in range(2)] for _ in range(3)]
    stated = [max(x @ A2 @ yh for yh in y_hats[i]) - min(xh @ A2 @ y for xh in x_hats[i])
              for i, (x, y) in enumerate(candidates)]
    assert np.allclose(sp.boosting_scores(game, candidates, y_hats, x_hats, holdout), stated, rtol=1e-13, atol=0)
    for L0, size_fw, fw_T, eps, delta in ((0.9, 10, 4, 4.0, 1e-3), (2.2, 37, 9, 0.3, 1e-7)):
        stated_lam = L0 * math.sqrt(8 * fw_T * math.log(1 / delta)) / (size_fw * eps)
        assert sp.boosting_noise_scale(L0, size_fw, fw_T, eps, delta, "paper") == pytest.approx(stated_lam, rel=1e-14)
        assert fw.paper_laplace_scale(L0, 1, fw_T, size_fw, eps, delta) == pytest.approx(stated_lam, rel=1e-14)


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
