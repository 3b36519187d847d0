"""The suite: every test-vector case with the property suite's declarations (docs/conformance.md).

:func:`cases` gives the cases of :data:`reference.oracle.cases.CASES` (or those of one algorithm id) as
conform, ``vectors`` and the kill matrix run them, and :func:`write_vectors` writes them as JSON vectors.
For each case, :func:`declare` fills in which invariants hold for its algorithm's output
(:mod:`reference.oracle.properties`), which convergence claim is measured (on one case per algorithm: a
rate fit is the costly property), and why the properties that do not apply do not; a case that declares
a field itself keeps it (its ``not_applicable`` entries are merged over these). Kept apart from the cases
so those stay readable and the per-paper case modules can be added without touching this file.
"""

from __future__ import annotations

import json
from dataclasses import replace as _replace
from pathlib import Path

import numpy as np

from .cases import CASES
from .cases.erm_geometry import _mirror_noiseless
from .cases.heavy_tailed import _cwme_noiseless
from .cases.lasso import _lasso_noiseless
from .cases.online import _online_fs, _pigd_noiseless
from .properties import FALSE_ALARM_BUDGET, Feasible, Holds, PointMass, Rate, Sparse, ZeroNoise, rate_confidence
from .statistics import DistanceTo
from .vectors import VectorCase, canonical_id, run_case, vector_filename

_NO_SET = "the output is unconstrained (a point of R^d)"
_NO_SPARSITY = "the algorithm promises no sparsity"
_NO_RATE_MECHANISM = "a mechanism: no convergence claim"


def _index_in_range(kwargs, out) -> bool:
    k = np.asarray(kwargs["scores"]).size
    return float(out) == int(out) and 0 <= int(out) < k


def _argmax(kwargs):
    return int(np.argmax(np.asarray(kwargs["scores"], dtype=float)))


# lasso: Frank-Wolfe from theta_1 = 0 with T - 1 steps on the l1 ball; the rate of Theorem 2.5 / 1.1

def _lasso_rate_kwargs(selection: str, calibration: str):
    def make(n, gen):
        """y = X theta_0 with ||theta_0||_1 = 1, X in {-1, 1}^(n x 20): L* = 0; eps = 8, T of Theorem 2.5."""
        from ..algorithms import lasso

        n = int(n)
        X = gen.choice(np.array([-1.0, 1.0]), size=(n, 20))
        theta0 = gen.choice(np.array([-1.0, 1.0]), size=20) / 20
        gamma = "paper" if calibration == "paper" else "exact"
        return {"X": X, "y": X @ theta0, "epsilon": 8.0, "delta": 1e-5, "radius": 1.0,
                "T": lasso.horizon(n, 8.0, 1.0, gamma=gamma), "calibration": calibration, "selection": selection}
    return make


def _lasso_excess(kwargs, theta) -> float:
    from ..algorithms import lasso

    return lasso.lasso_loss(np.asarray(theta, dtype=float), kwargs["X"], kwargs["y"])    # L* = 0 here


def _lasso_properties(case):
    selection, calibration = case.name.split("-")[:2]
    props = {
        "invariants": (
            Feasible(lambda kw: _l1_ball(kw), what="the l1 ball of radius c"),
            Sparse(lambda kw: kw["T"] - 1, what="theta_T is a convex combination of theta_1 = 0 and T - 1 "
                                                "vertices +-c e_j", setting={"T": 4}),
            ZeroNoise({"epsilon": float("inf")}, _lasso_noiseless, rtol=1e-12, atol=1e-13,
                      what="Algorithm 1, exact selections"),
        ),
        "not_applicable": {"privacy": "no worst pair for full runs at this size; the audit "
                                      "(python -m reference audit --paper lasso) carries the exact and sampled pairs"},
    }
    if selection == "laplace" and calibration == "paper":
        props["rate"] = Rate(_lasso_rate_kwargs(selection, calibration), _lasso_excess,
                             grid=(500.0, 1000.0, 2000.0, 4000.0, 8000.0), repeats=16,
                             deep_grid=(500.0, 1000.0, 2000.0, 4000.0, 8000.0, 16000.0), deep_repeats=10,
                             claimed=-2.0 / 3.0, nearest_wrong=-0.5,
                             what="excess risk against n (p = 20, eps = 8, T of Theorem 2.5)")
    else:
        props["not_applicable"]["rate"] = "measured once per algorithm, on the laplace-paper case"
    return props


def _l1_ball(kw):
    from ..geometry.sets import L1Ball

    return L1Ball(np.asarray(kw["X"]).shape[1], kw["radius"])


# The argument that sets the noise, and the power the noise scale goes with (VectorCase.noise_knob), for
# the cases whose noise is a power of one argument only approximately: the exponent is the local one at
# the case's parameters (measured from the calibration functions: PIGD's printed beta goes like
# epsilon^-1/2, its certified beta like epsilon^-0.79 at epsilon = 1; the tree's certified sigma like
# epsilon^-0.71 to -0.84), so that ScaledNoise(case, 0.8) runs the reference at about 0.8 x its noise.
_KNOBS = {   # (algorithm id or its prefix, case-name prefix) -> knob
    ("saddle_point:", ""): ("epsilon", -1.0),        # the step eta is proportional to epsilon: sampling noise ~ 1/eta
    ("heavy_tailed:CDPCWME", ""): ("rho", -0.5), ("heavy_tailed:DPCWME", ""): ("epsilon", -1.0),
    ("heavy_tailed:Algorithm 4", ""): ("rho", -0.5),
    # not the Theorem 5.7 case: there rho also sets tau (and with it the clip and the sensitivity)
    ("heavy_tailed:Algorithm 2", "cwme-"): ("rho", -0.5), ("heavy_tailed:Algorithm 2", "nsme-"): ("rho", -0.5),
    ("online:Algorithm 2", "paper"): ("epsilon", -0.5), ("online:Algorithm 2", "certified"): ("epsilon", -0.8),
    ("online:Algorithm 4", "paper"): ("epsilon", -0.5), ("online:Algorithm 4", "certified"): ("epsilon", -0.75),
    ("online:Algorithm 5", "paper"): ("epsilon", -0.5), ("online:Algorithm 5", "certified"): ("epsilon", -0.84),
}


def _knob(case):
    for (algorithm, name), knob in _KNOBS.items():
        if case.algorithm.startswith(algorithm) and case.name.startswith(name):
            return knob
    return None


def _declare(case):
    """The property fields of one case (empty when nothing is declared for its algorithm yet)."""
    fields = _declare_properties(case)
    knob = _knob(case)
    if fields and knob is not None:
        fields["noise_knob"] = knob
    return fields


def _declare_properties(case):
    a = case.algorithm
    if a == "core:gaussian_mechanism":
        return {"invariants": (ZeroNoise({"sigma": 0.0}, lambda kw: kw["value"], rtol=0.0, atol=0.0,
                                         what="the value itself"),),
                "not_applicable": {"feasibility": _NO_SET, "sparsity": _NO_SPARSITY, "rate": _NO_RATE_MECHANISM}}
    if a == "core:laplace_mechanism":
        return {"invariants": (ZeroNoise({"scale": 0.0}, lambda kw: kw["value"], rtol=0.0, atol=0.0,
                                         what="the value itself"),),
                "not_applicable": {"feasibility": _NO_SET, "sparsity": _NO_SPARSITY, "rate": _NO_RATE_MECHANISM}}
    if a in ("core:exponential_mechanism", "core:report_noisy_max"):
        knob = {"epsilon": float("inf")} if a == "core:exponential_mechanism" else {"scale": 0.0}
        return {"invariants": (Holds(_index_in_range, "the output is the index of one of the k candidates"),
                               ZeroNoise(knob, _argmax, rtol=0.0, atol=0.0, what="the argmax of the scores")),
                "not_applicable": {"sparsity": "the output is an index", "rate": _NO_RATE_MECHANISM,
                                   "privacy": "no worst pair declared: the exact audit of selection mechanisms "
                                              "is in python -m reference audit --paper core"}}
    if a == "core:report_noisy_min":
        return {"invariants": (Holds(_index_in_range, "the output is the index of one of the k candidates"),
                               ZeroNoise({"scale": 0.0}, lambda kw: int(np.argmin(np.asarray(kw["scores"], dtype=float))),
                                         rtol=0.0, atol=0.0, what="the argmin of the scores")),
                "not_applicable": {"sparsity": "the output is an index", "rate": _NO_RATE_MECHANISM,
                                   "privacy": "audited on the two-candidate cases (their worst pair)"}}
    if a == "core:truncated_geometric":
        def in_support(kw, out) -> bool:
            return float(out) == int(out) and 0 <= int(out) <= kw["M"]
        return {"invariants": (Holds(in_support, "the draw is an integer in {0, ..., M}"),),
                "not_applicable": {"sparsity": "the output is an integer", "rate": "a sampler: no convergence claim",
                                   "privacy": "a public sampler (saddle_point Algorithm 2's level): no privacy claim",
                                   "zero-noise": "a law, not a noisy release: nothing to switch off"}}
    if a == "core:private_prefix_sums":
        return {"invariants": (ZeroNoise({"sigma": 0.0}, lambda kw: np.cumsum(np.asarray(kw["xs"], dtype=float), axis=0),
                                         rtol=1e-12, atol=1e-12, what="the exact prefix sums"),),
                "not_applicable": {"feasibility": "prefix sums are unconstrained", "sparsity": _NO_SPARSITY,
                                   "rate": "a counter: no convergence claim",
                                   "privacy": "audited on the scalar-T7 case (its worst pair)",
                                   "law": "checked on the scalar-T7 case"}}
    if a == "lasso:Algorithm 2":
        return _lasso_properties(case)
    if a == "erm_geometry:Algorithm 1":
        return _mirror_properties(case)
    if a.startswith("saddle_point:"):
        return _saddle_properties(case)
    if a.startswith("heavy_tailed:"):
        return _heavy_tailed_properties(case)
    if a.startswith("online:"):
        return _online_properties(case)
    return {}


# erm_geometry Algorithm 1: theta_priv in the unit ball; noiseless = mirror descent without noise

def _mirror_ball(kw):
    from ..geometry.sets import L1Ball, L2Ball, Simplex

    p, geometry = np.asarray(kw["X"]).shape[1], kw["geometry"]
    if geometry == "simplex-entropy":
        return Simplex(p)
    return L1Ball(p, 1.0) if geometry.startswith("l1") else L2Ball(p, 1.0)


def _mirror_properties(case):
    zero = ZeroNoise({"epsilon": float("inf")}, _mirror_noiseless, rtol=1e-9, atol=1e-12,
                     what="mirror descent with b_t = 0")
    theorem = "theorem" in case.name      # T and eta follow from epsilon: epsilon = inf has no (T, eta)
    return {"invariants": (Feasible(_mirror_ball, what="the case's set (the unit l1 or l2 ball, or the simplex)"),)
            + (() if theorem else (zero,)),
            "not_applicable": {"sparsity": "mirror descent's iterates are dense",
                               "privacy": "no worst pair for full runs at this size; the audit "
                                          "(python -m reference audit --paper erm_geometry) carries them",
                               "rate": "not declared yet: Theorem 3.2's rate needs T ~ n^2 steps "
                                       "(tests/erm_geometry/test_utility.py measures it on the reference)",
                               **({"zero-noise": "Theorem 3.2's T and eta follow from epsilon: epsilon = inf "
                                                 "(no noise) has no T; the other cases check it"}
                                  if theorem else {})}}


# saddle_point: (x, y) in the simplices; outputs are averages of sampled vertices

def _multiples_of(count_key: str, label: str):
    def holds(kw, out) -> bool:
        k = kw[count_key]
        v = np.asarray(out, dtype=float) * k
        return bool(np.all(np.abs(v - np.round(v)) <= 1e-9 * k))
    return Holds(holds, f"every coordinate is a multiple of 1/{count_key} ({label})", property="sparsity")


def _saddle_properties(case):
    from ..geometry.sets import Simplex

    a = case.algorithm
    privacy = ("no worst pair declared: the privacy of vertex sampling is audited exactly (exponential "
               "mechanism) in python -m reference audit --paper saddle_point")
    zero = "no zero-noise setting: the privacy is the vertex sampling itself (no additive noise to switch off)"
    if a in ("saddle_point:Algorithm 1", "saddle_point:Algorithm 3"):
        dx, dy = np.asarray(case.make_kwargs()["atoms"]).shape[1:]      # the output is (x, y) stacked
        inv = (Feasible(lambda kw: Simplex(dx), part=lambda out: np.asarray(out)[:dx], what="the simplex (x)"),
               Feasible(lambda kw: Simplex(dy), part=lambda out: np.asarray(out)[dx:], what="the simplex (y)"))
        na = {"privacy": privacy, "zero-noise": zero,
              "rate": "not declared yet: Theorem 3.1's gap rate needs n up to 32000 "
                      "(tests/saddle_point/test_utility.py measures it on the reference)"}
        if a == "saddle_point:Algorithm 1":
            inv += (_multiples_of("T", "x and y are the empirical laws of T vertex draws, line 3"),)
        else:
            na["sparsity"] = "the number of vertices averaged is random (random stopping)"
        return {"invariants": inv, "not_applicable": na}
    if a == "saddle_point:Algorithm 5":
        return {"invariants": (Feasible(lambda kw: Simplex(np.asarray(kw["a"]).shape[1]), what="the simplex"),
                               Sparse(lambda kw: kw["K"], what="the output is the mean of K vertices of x_T"),
                               _multiples_of("K", "the mean of K vertices")),
                "not_applicable": {"privacy": privacy, "zero-noise": zero,
                                   "rate": "not declared yet (Theorem 4.2; tests/saddle_point measures it)"}}
    return {}


# heavy_tailed

def _cwme_rate_kwargs(n, gen):
    """Lomax data (k = 4 moments, d = 1, mu = 0.7) and Corollary 4.2's tau, beta for rho = 1e-4."""
    from ..algorithms import heavy_tailed as ht

    n = int(n)
    s = ht.schedule_cor42(n, 1, 4.0, rho=1e-4, strict=False)
    X = ht.heavy_tailed_data(n, 1, 4.0, gen, mu=np.array([0.7]), distribution="lomax")
    return {"X": X, "rho": 1e-4, "tau": s.tau, "beta": s.beta, "calibration": "paper"}


def _heavy_tailed_properties(case):
    from ..geometry.sets import L2Ball

    a = case.algorithm
    no_pair = "no worst pair declared: python -m reference audit --paper heavy_tailed audits the estimators"
    unconstrained = "the estimate is a point of R^d (no constraint set)"
    if a == "heavy_tailed:Algorithm 3":
        return {"invariants": (PointMass(what="Algorithm 3's estimate"),),
                "not_applicable": {"privacy": "not private (the non-private building block)",
                                   "zero-noise": "no noise (not private)", "feasibility": unconstrained,
                                   "sparsity": _NO_SPARSITY,
                                   "rate": "its error bound is tested on the reference (tests/heavy_tailed)"}}
    if a in ("heavy_tailed:Algorithm 1", "heavy_tailed:Algorithm 2"):
        na = {"privacy": no_pair, "sparsity": "projected gradient iterates are dense",
              "rate": "not declared yet: Theorems 5.x's rates (tests/heavy_tailed/test_rates.py, deep)",
              "zero-noise": "no single noise knob in the case's inputs" if a.endswith("2") else
              "Algorithm 1 with the non-private oracle has no noise"}
        # Algorithm 1 with the non-private oracle draws nothing: its law is a point mass at the reference's w_priv
        point = (PointMass(what="w_priv of Algorithm 1 with the non-private oracle"),) if a.endswith("1") else ()
        return {"invariants": (Feasible(lambda kw: L2Ball(np.asarray(kw["X"]).shape[1], kw["radius"]),
                                        what="the l2 ball of the given radius"),) + point,
                "not_applicable": na}
    if a in ("heavy_tailed:CDPCWME", "heavy_tailed:DPCWME"):
        knob = "rho" if a.endswith(":CDPCWME") else "epsilon"
        props = {"invariants": (ZeroNoise({knob: float("inf")}, _cwme_noiseless, rtol=0.0, atol=0.0,
                                          what="Algorithm 3 with the estimator's bucket count"),),
                 "not_applicable": {"privacy": no_pair, "feasibility": unconstrained, "sparsity": _NO_SPARSITY}}
        if a == "heavy_tailed:CDPCWME" and case.name.startswith("paper"):
            props["rate"] = Rate(_cwme_rate_kwargs, lambda kw, est: abs(float(np.asarray(est)[0]) - 0.7),
                                 grid=(1e4, 3e4, 1e5, 3e5, 1e6), repeats=16,
                                 deep_grid=(1e4, 3e4, 1e5, 3e5, 1e6, 3e6), deep_repeats=40,
                                 claimed=-0.75, nearest_wrong=-0.5,
                                 what="|mu_tilde - mu| against n (Corollary 4.2: d = 1, k = 4, rho = 1e-4, Lomax)")
        else:
            props["not_applicable"]["rate"] = ("measured once, on CDPCWME's paper case" if a.endswith(":CDPCWME")
                                               else "Corollary 4.2's DPCWME rate is measured on the reference "
                                                    "(tests/heavy_tailed/test_rates.py)")
        return props
    if a == "heavy_tailed:Algorithm 4":
        return {"not_applicable": {"privacy": no_pair, "feasibility": unconstrained, "sparsity": _NO_SPARSITY,
                                   "zero-noise": "rho = inf leaves the smoothing of psi_c: no closed noiseless "
                                                 "output declared",
                                   "rate": "Theorem 4.3's rate is measured on the reference (tests/heavy_tailed)"}}
    return {}


# online

def _pigd_rate_kwargs(calibration):
    def make(T, gen):
        """Family (Q) losses as tests/online/test_regret.py draws them (d = 2, a = 1, unit ball)."""
        from ..algorithms import online as ol
        from ..geometry.sets import L2Ball

        T = int(T)
        kw = {"g": gen.uniform(-0.5, 0.5, (T, 2)), "a": np.ones(T), "c": gen.uniform(-0.3, 0.3, (T, 2)),
              "radius": 1.0, "epsilon": 1.0, "delta": 1e-3, "alpha": 1.0, "x1": np.zeros(2),
              "calibration": calibration}
        kw["L"] = max(f.lipschitz(L2Ball(2, 1.0)) for f in _online_fs(kw))
        return kw
    return make


def _online_regret(kw, decisions):
    from ..algorithms import online as ol
    from ..geometry.sets import L2Ball

    return ol.regret(_online_fs(kw), decisions, L2Ball(2, kw["radius"]))


def _online_properties(case):
    a = case.algorithm
    no_pair = "no worst pair declared: python -m reference audit --paper online audits the streams"
    if a == "online:Algorithm 2":
        def in_ball(kw, out):
            return bool(np.all(np.linalg.norm(np.asarray(out, dtype=float), axis=1) <= kw["radius"] + 1e-9))
        props = {"invariants": (Holds(in_ball, "every released decision xhat_t lies in the l2 ball (line 9)"),
                                ZeroNoise({"epsilon": float("inf")}, _pigd_noiseless, rtol=1e-12, atol=1e-12,
                                          what="IGD's iterates")),
                 "not_applicable": {"privacy": no_pair, "sparsity": _NO_SPARSITY}}
        if case.name == "paper-T12-d2":
            props["not_applicable"]["law"] = (
                "the printed noise at epsilon = 1 (beta about 75) puts every decision on the sphere: the output "
                "law does not depend on the noise scale (0.8 x the noise rejected in 0 of 200 repeats at 1000 "
                "runs); the law is checked on paper-eps2500-T12-d2")
        else:   # 0.8 x the noise rejected in 0.9975 of repeats at 1500 runs (certified; 0.955 at 1000)
            props.update(statistic=DistanceTo(_pigd_noiseless, case.make_kwargs),
                         n_runs=1500 if case.name.startswith("certified") else 1000)
        if case.name == "certified-T12-d2":
            props["rate"] = Rate(_pigd_rate_kwargs("certified"), _online_regret,
                                 grid=(100.0, 200.0, 400.0, 800.0, 1600.0), repeats=4,
                                 claimed=0.5, nearest_wrong=1.0, what="regret against T (Theorem 4, d = 2, eps = 1)")
        else:
            props["not_applicable"]["rate"] = "measured once, on the certified-T12-d2 case"
        return props
    if a == "online:Algorithm 4":
        return {"not_applicable": {"privacy": no_pair, "feasibility": "PQFTL plays unconstrained decisions",
                                   "sparsity": _NO_SPARSITY,
                                   "zero-noise": "not declared yet (the tree noise of eps = inf)",
                                   "rate": "Theorem 8's polylog regret is measured on the reference "
                                           "(tests/online/test_regret.py)"},
                # the median |decision coordinate|: PQFTL's decisions are ratios with heavy tails, where the
                # last decision's signed coordinate barely moves with the noise (power 0 at 1000 runs)
                # 0.8 x the noise rejected in 1.00 of repeats at 2000 runs (paper; 0.94 at 1000), 1.00 at 1000
                # (certified)
                "statistic": lambda out: float(np.median(np.abs(np.asarray(out, dtype=float)))),
                "n_runs": 2000 if case.name.startswith("paper") else 1000}
    if a == "online:Algorithm 5":
        return {"invariants": (ZeroNoise({"epsilon": float("inf")},
                                         lambda kw: np.cumsum(np.asarray(kw["W"], dtype=float), axis=0),
                                         rtol=1e-12, atol=1e-12, what="the exact prefix sums"),),
                "not_applicable": {"privacy": no_pair, "feasibility": "prefix sums are unconstrained",
                                   "sparsity": _NO_SPARSITY, "rate": "a counter: no convergence claim"},
                "statistic": DistanceTo(lambda kw: np.cumsum(np.asarray(kw["W"], dtype=float), axis=0),
                                                    case.make_kwargs), "n_runs": 1000}
    return {}


def declare(case: VectorCase) -> VectorCase:
    """The case with the declarations of :func:`_declare` filled into the fields it leaves at their defaults."""
    fields = _declare(case)
    if not fields:
        return case
    out = {}
    if "invariants" in fields and not case.invariants:
        out["invariants"] = fields["invariants"]
    if "rate" in fields and case.rate is None:
        out["rate"] = fields["rate"]
    if "statistic" in fields and case.statistic is None:
        out["statistic"] = fields["statistic"]
        out["n_runs"] = fields.get("n_runs", case.n_runs)
    if "noise_knob" in fields and case.noise_knob is None:
        out["noise_knob"] = fields["noise_knob"]
    if "not_applicable" in fields:
        out["not_applicable"] = {**fields["not_applicable"], **case.not_applicable}
    return _replace(case, **out)


# ---- the declared cases: what conform, vectors and the kill matrix run

def cases(algorithm: str | None = None) -> list[VectorCase]:
    """The vector cases, or those of one algorithm id (in either spelling, see :func:`canonical_id`)."""
    declared = _declared_cases()
    if algorithm is not None:
        algorithm = canonical_id(algorithm, {c.algorithm for c in declared})
    return [c for c in declared if algorithm is None or c.algorithm == algorithm]


_DECLARED: dict = {}


def _declared_cases() -> list[VectorCase]:
    """The cases with the property suite's declarations (:func:`declare`) filled in, and each check's share of
    its id's false-alarm budget (:func:`with_levels`); computed once per list of cases."""
    key = tuple(id(c) for c in CASES)
    if _DECLARED.get("key") != key:
        _DECLARED.update(key=key, cases=with_levels([declare(c) for c in CASES]))
    return _DECLARED["cases"]


def random_checks(id_cases: list[VectorCase]) -> int:
    """How many checks of one id can fail a correct candidate by chance: a law check per case with a statistic,
    a privacy audit per case with a worst pair, a rate fit per case with a :class:`Rate`."""
    return sum((c.statistic is not None) + (c.neighbour is not None) + (c.rate is not None) for c in id_cases)


def false_alarm_share(algorithm: str, declared: list[VectorCase] | None = None) -> float:
    """Each random check's level for ``algorithm``: FALSE_ALARM_BUDGET split equally among its
    :func:`random_checks` (the union bound keeps the id's false-alarm rate at most FALSE_ALARM_BUDGET)."""
    mine = [c for c in (declared if declared is not None else _declared_cases()) if c.algorithm == algorithm]
    return FALSE_ALARM_BUDGET / max(1, random_checks(mine))


def with_levels(declared: list[VectorCase]) -> list[VectorCase]:
    """The cases with their checks' levels set to the id's share (:func:`false_alarm_share`): ``law_alpha``,
    ``privacy_beta`` and the rate's confidence (:func:`reference.oracle.properties.rate_confidence`)."""
    shares = {a: false_alarm_share(a, declared) for a in {c.algorithm for c in declared}}
    out = []
    for c in declared:
        share = shares[c.algorithm]
        rate = None if c.rate is None else _replace(c.rate, confidence=rate_confidence(share))
        out.append(_replace(c, law_alpha=share, privacy_beta=share, rate=rate))
    return out


def write_vectors(out_dir: Path, algorithm: str | None = None) -> list[Path]:
    """Run every case (or those of ``algorithm``) and write one JSON vector per case to ``out_dir``."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    vectors = [(case, run_case(case)) for case in cases(algorithm)]   # all computed before any write
    paths = []
    for case, vector in vectors:
        path = out_dir / vector_filename(case)
        path.write_text(json.dumps(vector, indent=1) + "\n", encoding="utf-8")
        paths.append(path)
    return paths
