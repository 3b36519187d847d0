"""The oracle harness: check another implementation against the reference, property by property.

``python -m reference conform MODULE:FUNCTION --algorithm ID`` runs the property suite on the
candidate, for every test-vector case of the algorithm id (see :mod:`reference.oracle.cases`), and
gives one verdict per property (aggregated over the cases), in two groups that answer two questions:

**Does it conform?** (:data:`CONFORMANCE`; these set the exit status) The properties of what the
candidate releases, and of what it claims about itself:

- **law**: the candidate and the reference are each run many times with fresh seeds; a two-sample
  test compares the law of a scalar statistic of their outputs at the case's alpha (its share of the id's
  false-alarm budget, :data:`reference.oracle.properties.FALSE_ALARM_BUDGET`: 1e-3 over all of an id's
  law checks, privacy audits and rate fits). For a deterministic algorithm the law is a point mass at the
  reference's output (:class:`~reference.oracle.properties.PointMass`, :func:`point_mass_check`): the
  candidate, run on fresh generators, must return that output within a rounding tolerance.
- **privacy** (cases that name their worst neighbouring input): an empirical distinguishability
  audit of the candidate itself at that pair, and beside it the same audit of the reference at half
  its noise, which must be flagged (else the check has no power and fails).
- **claim** (a candidate that reports a ledger and a claimed epsilon): its ledger, certified by this
  package's accountant, covers its own claim (:func:`reference.oracle.checks.claim_check`).
- **rate** (cases with a :class:`~reference.oracle.properties.Rate`): the candidate's error over a small
  grid, fitted by :func:`reference.audit.rates.fit_rate`, against the reference's fit on the same
  data and seeds.
- **feasibility**, **sparsity**, **zero-noise** (the case's ``invariants``), **finite-shape** and
  **determinism** (every case; determinism only of a candidate that draws from ``rng``): see
  :mod:`reference.oracle.properties` and :func:`invariant_rows`.
- **validation** (every case): the input contract. Inputs outside the domain the privacy proof needs
  are refused (a ValueError, or an error naming the parameter); a TypeError is a call mismatch.

**Is it bit-exact?** (:data:`AGREEMENT`; always run and reported, they decide the exit status only
when asked: ``--require replay``, ``--require accounting``, or a ``--mode`` that runs nothing else)

- **replay**: the candidate is called with the case's inputs and a
  :class:`~reference.rng.ReplayRng` holding the exact draws the reference consumed; its output must
  equal the reference's within the case's tolerance. A correct port that draws its noise its own way
  (another order, another sign, another sampler) fails it and still conforms.
- **accounting**: the candidate's ledger (certified by this package's accountant) and claimed epsilon
  against the reference's for the same run (:mod:`reference.oracle.checks`).

A property the case does not declare is reported ``n/a`` with the reason. No exception of the candidate
stops the run: it becomes that property's FAIL with the exception. The candidate's result may be the
bare output or an object with the case's named fields (``python -m reference list`` shows both).
``--reading NAME=VALUE`` declares the candidate's reading of a choice the paper leaves open
(:data:`READINGS`, docs/errata.md); the reference's side is then computed under it and the verdict says
"conforms under reading ...". ``--json`` prints the same as JSON (:func:`conformance_report`;
``check_implementation(..., as_json=True)`` returns it). The replay and law checks run under pytest
too: ``pytest tests/test_conformance.py --impl MODULE:FUNCTION --impl-algorithm ID``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import sys
import textwrap
import warnings
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Iterable

import numpy as np

from ..errors import ParameterError, PrivacyWarning, ReferenceSpecError
from .checks import accounting_check, accounting_report, claim_check, validation_check
from .properties import PROPERTIES, PointMass, Rate, Refuses, ZeroNoise, generic_refusals
from .suite import cases
from .vectors import (ConformError, VectorCase, ScaledNoise, _jsonable, distribution_check, privacy_check, replay,
                      resolve, run_case)

#: The comparisons with the reference itself: "is it bit-exact?" (replay: the reference's draws give the
#: reference's output) and "does it report the reference's accounting?" (accounting). Always run and
#: reported; they decide the exit status only when asked (``--require``, or named in ``--mode``).
AGREEMENT = ("replay", "accounting")
#: The properties of what the candidate releases (and of its own claim): "does it conform?". They decide
#: the exit status.
CONFORMANCE = tuple(p for p in PROPERTIES if p not in AGREEMENT)

# What --mode accepted before the property suite, mapped to property names.
_MODE_ALIASES = {"both": PROPERTIES, "all": PROPERTIES, "distribution": ("law",)}
INVARIANT_RUNS = 3     # seeds on which every declared invariant is checked


@dataclass(frozen=True)
class ConformanceRow:
    """One property on one case. ``status`` is ``pass``, ``fail`` or ``n/a`` (``passed`` is True
    for ``n/a``: a property that does not apply does not fail the candidate)."""

    algorithm: str
    case: str
    check: str
    passed: bool
    detail: str
    status: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "passed", bool(self.passed))      # numpy.bool is not JSON
        object.__setattr__(self, "detail", str(self.detail))
        if not self.status:
            object.__setattr__(self, "status", "pass" if self.passed else "fail")


@dataclass(frozen=True)
class PropertyVerdict:
    """One property of one algorithm, aggregated over its cases: ``fail`` if any case fails,
    ``pass`` if at least one applies and all that apply pass, ``n/a`` if none applies.
    ``group``: ``conformance`` (a property of the released outputs) or ``agreement`` (a comparison with
    the reference); ``decides``: whether it sets the exit status in this run."""

    algorithm: str
    property: str
    verdict: str
    applicable: int
    passed: int
    detail: str
    cases: list = field(default_factory=list)
    group: str = "conformance"
    decides: bool = True


def _properties(mode: str | None) -> tuple[str, ...]:
    mode = mode or "all"
    chosen: list[str] = []
    for part in mode.split(","):
        part = part.strip()
        if part in _MODE_ALIASES:
            chosen += _MODE_ALIASES[part]
        elif part in PROPERTIES:
            chosen.append(part)
        else:
            raise ParameterError("mode", f"'all', or property names among {PROPERTIES} (comma-separated)", part)
    return tuple(p for p in PROPERTIES if p in chosen)


def _required(require: str | Iterable[str] | None) -> tuple[str, ...]:
    """``--require``: comma-separated among ``replay``, ``accounting``, ``all`` (both), ``none``."""
    if require is None:
        return ()
    parts = require.split(",") if isinstance(require, str) else list(require)
    out: list[str] = []
    for part in (p.strip() for p in parts):
        if part in ("", "none"):
            continue
        if part == "all":
            out += AGREEMENT
        elif part in AGREEMENT:
            out.append(part)
        elif part in CONFORMANCE:
            continue          # already decides
        else:
            raise ParameterError("require", f"comma-separated names among {AGREEMENT + ('all', 'none')}", part)
    return tuple(p for p in AGREEMENT if p in out)


def plan(mode: str | None = "all", require: str | Iterable[str] | None = None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the properties to run, those that decide the exit status). Every conformance property that runs
    decides; replay and accounting decide when ``require`` names them, or when ``mode`` runs no
    conformance property at all (``--mode replay`` asks "is it bit-exact?" and nothing else).
    ``require`` also runs what it names."""
    required = _required(require)
    run = tuple(p for p in PROPERTIES if p in set(_properties(mode)) | set(required))
    only_agreement = not any(p in CONFORMANCE for p in run)
    deciding = tuple(p for p in run if p in CONFORMANCE or p in required or only_agreement)
    return run, deciding


# ---- readings: choices the paper leaves open (docs/errata.md), declared by the candidate

@dataclass(frozen=True)
class Reading:
    """A choice the paper leaves open, recorded in docs/errata.md, that a port may make otherwise than the
    reference's default. ``values`` maps each accepted value to the reference's conform function that
    computes under it (``None``: the case's own function, the reference's default); ``algorithms`` the ids
    whose cases it changes."""

    name: str
    default: str
    values: dict
    algorithms: tuple[str, ...]
    errata: str
    what: str


def _online_private_sum_read(W, R, epsilon, delta, calibration, rng, log_base, inner_log_base):
    """online Algorithm 5 as reference.oracle.cases.online.online_private_sum, its printed sigma read with the given
    bases (online-E03: ``log_base`` of log^2 T and of the log T inside; online-E08: ``inner_log_base`` of the
    outer log of log(log T / delta))."""
    from ..algorithms import online as ol

    W = np.asarray(W, dtype=float)
    T = W.shape[0]
    sigma = None
    if calibration == "paper" and inner_log_base != "e":
        sigma = ol.tree_sigma(R, T, epsilon, delta, "paper", log_base=log_base, inner_log_base=inner_log_base)
    B, out = None, []
    for t in range(1, T + 1):
        S, B = ol.private_sum(W[t - 1], B, t, R, epsilon, delta, T, rng, calibration=calibration,
                              log_base=log_base, sigma=sigma)
        out.append(S)
    return np.array(out)


def online_private_sum_ln(W, R, epsilon, delta, calibration, rng):
    """online Algorithm 5 under the reading tree_log=ln (log^2 T and the log T inside natural)."""
    return _online_private_sum_read(W, R, epsilon, delta, calibration, rng, "e", "e")


def online_private_sum_inner_log2(W, R, epsilon, delta, calibration, rng):
    """online Algorithm 5 under the reading tree_inner_log=log2 (the outer log of log(log T / delta) in base 2)."""
    return _online_private_sum_read(W, R, epsilon, delta, calibration, rng, 2, 2)


def online_private_sum_ln_inner_log2(W, R, epsilon, delta, calibration, rng):
    """online Algorithm 5 under tree_log=ln and tree_inner_log=log2."""
    return _online_private_sum_read(W, R, epsilon, delta, calibration, rng, "e", 2)


def _online_pqftl_read(V, y, epsilon, delta, R, alpha, calibration, rng, log_base, inner_log_base):
    """online Algorithm 4 as reference.oracle.cases.online.online_pqftl, both trees' printed sigma read with the
    given bases (online-E03, online-E08)."""
    from ..algorithms import online as ol

    V = np.asarray(V, dtype=float)
    fs = [ol.SquaredLoss(V[t], float(y[t]), alpha) for t in range(V.shape[0])]
    return ol.pqftl(fs, V.shape[0], epsilon, delta, R, alpha, rng, calibration=calibration, log_base=log_base,
                    inner_log_base=inner_log_base)


def online_pqftl_ln(V, y, epsilon, delta, R, alpha, calibration, rng):
    """online Algorithm 4 under the reading tree_log=ln."""
    return _online_pqftl_read(V, y, epsilon, delta, R, alpha, calibration, rng, "e", "e")


def online_pqftl_inner_log2(V, y, epsilon, delta, R, alpha, calibration, rng):
    """online Algorithm 4 under the reading tree_inner_log=log2 (the outer log of log(log T / delta) in base 2)."""
    return _online_pqftl_read(V, y, epsilon, delta, R, alpha, calibration, rng, 2, 2)


def online_pqftl_ln_inner_log2(V, y, epsilon, delta, R, alpha, calibration, rng):
    """online Algorithm 4 under tree_log=ln and tree_inner_log=log2."""
    return _online_pqftl_read(V, y, epsilon, delta, R, alpha, calibration, rng, "e", 2)


_PKG = __package__ or "reference"

READINGS = {
    "tree_log": Reading(
        name="tree_log", default="log2", values={"log2": None, "ln": None},
        algorithms=("online:Algorithm 4", "online:Algorithm 5"), errata="online-E03",
        what="the base of log^2 T and of the log T inside the tree's printed sigma^2 = (R^2/eps) log^2 T "
             "log(log T / delta) (online Algorithm 5 line 3, PQFTL line 2; calibration='paper' only): log2 "
             "(the reference's default) or ln"),
    "tree_inner_log": Reading(
        name="tree_inner_log", default="ln", values={"ln": None, "log2": None},
        algorithms=("online:Algorithm 4", "online:Algorithm 5"), errata="online-E08",
        what="the base of the outer log of log(log T / delta) in the tree's printed sigma^2 (online Algorithm 5 "
             "line 3, and PQFTL's two trees through it; calibration='paper' only): ln (the reference's default, as "
             "Lemma 6's proof) or log2"),
    "scof_average": Reading(
        name="scof_average", default="paper", values={"paper": None, "query_points": None},
        algorithms=("heavy_tailed:Algorithm 1", "heavy_tailed:Algorithm 2"), errata="heavy_tailed-E06",
        what="which iterates the convex mode's w_priv averages (SCOF, Algorithm 1 line 11; Algorithm 2 line 3): "
             "w^1..w^T as Theorem 3.1 states (the reference's default, 'paper') or the query points w^0..w^(T-1), "
             "the average Appendix B.1's proof covers ('query_points'); the strongly convex mode's w^T is the same "
             "under both"),
}

_HT_CASES = f"{_PKG}.cases.heavy_tailed"

# (algorithm, the values of readings_for(algorithm) in their order) -> the reference's conform function under
# those readings (a name in this module, or a full module:function)
_READ_TARGETS = {
    ("online:Algorithm 5", ("ln", "ln")): "online_private_sum_ln",
    ("online:Algorithm 5", ("log2", "log2")): "online_private_sum_inner_log2",
    ("online:Algorithm 5", ("ln", "log2")): "online_private_sum_ln_inner_log2",
    ("online:Algorithm 4", ("ln", "ln")): "online_pqftl_ln",
    ("online:Algorithm 4", ("log2", "log2")): "online_pqftl_inner_log2",
    ("online:Algorithm 4", ("ln", "log2")): "online_pqftl_ln_inner_log2",
    ("heavy_tailed:Algorithm 1", ("query_points",)): f"{_HT_CASES}:heavy_tailed_scof_query_points",
    ("heavy_tailed:Algorithm 2", ("query_points",)): f"{_HT_CASES}:heavy_tailed_cdp_sco_query_points",
}


def parse_readings(readings: Iterable[str] | dict | None, algorithm: str | None = None) -> dict:
    """``["tree_log=ln", ...]`` (or a dict) -> {name: value}, checked against :data:`READINGS` (and, with
    ``algorithm``, against the ids each reading concerns)."""
    if not readings:
        return {}
    pairs = readings.items() if isinstance(readings, dict) else (r.partition("=")[::2] for r in readings)
    out = {}
    for name, value in pairs:
        name, value = str(name).strip(), str(value).strip()
        if name not in READINGS:
            raise ParameterError("reading", f"NAME=VALUE with NAME among {sorted(READINGS)}", name)
        if value not in READINGS[name].values:
            raise ParameterError(f"reading {name}", f"one of {sorted(READINGS[name].values)}", value)
        if algorithm is not None and algorithm not in READINGS[name].algorithms:
            raise ParameterError(f"reading {name}", f"given for {', '.join(READINGS[name].algorithms)}", algorithm)
        out[name] = value
    return out


def readings_for(algorithm: str) -> list[Reading]:
    return [r for r in READINGS.values() if algorithm in r.algorithms]


def _under_readings(case: VectorCase, readings: dict) -> VectorCase:
    """``case`` with its reference side computed under ``readings`` (unchanged under the defaults)."""
    concerned = readings_for(case.algorithm)
    values = tuple(readings.get(r.name, r.default) for r in concerned)
    if values == tuple(r.default for r in concerned):
        return case
    target = _READ_TARGETS[(case.algorithm, values)]
    return dataclasses.replace(case, reference=target if ":" in target else f"{_PKG}.conform:{target}")


# ---- the candidate's result: a bare output or an object with named fields

def _is_bare(result) -> bool:
    if isinstance(result, (np.ndarray, np.generic, int, float, bool)):
        return True
    if isinstance(result, (list, tuple)):
        try:
            return np.asarray(result, dtype=float).dtype.kind == "f"
        except (TypeError, ValueError):
            return False
    return False


def _reader(output: Callable) -> Callable:
    def read(result):
        """The output conform compares: the result itself when it is an array or a number, else the case's
        fields of it (``.theta``, ``.decisions``, ``.prefix_sums``, ...)."""
        return result if _is_bare(result) else output(result)
    read.fields_of = output
    return read


def _tolerant(case: VectorCase) -> VectorCase:
    """The case reading either return form, for every id (python -m reference list names the fields)."""
    if getattr(case.output, "fields_of", None) is not None:
        return case
    return dataclasses.replace(case, output=_reader(case.output))


#: Per id, the reference function that gives the certified noise to a port without an accountant (the
#: smallest noise this package's accountant certifies at the run's privacy parameters), with the arguments
#: the id's conform function passes it; or why none is needed. Paths are in reference.algorithms unless
#: they start with reference.privacy. Every private conform function also runs with
#: ``calibration="certified"`` and returns its ``.ledger`` (each event's ``noise_scale``).
_A, _P = "reference.algorithms.", "reference.privacy."
#: where the selections' certified noise (report-noisy-min, Gumbel / exponential mechanism) is written out as a recipe a
#: port recomputes with numpy alone (issue 31): the named function is then the package's value, not the only route
_RECIPE = ("recomputable by the recipe in docs/conformance.md, 'Recomputing the certified noise of the selections' "
           "(KOV{br}); the named function is the package's value")
_RECIPE_BR = _RECIPE.format(br=", DDR20 and the BR envelope pair's PLD: their minimum")
_RECIPE_KOV = _RECIPE.format(br=" alone: Laplace noise is not bounded-range")
_RECIPE_BOOST = _RECIPE.format(br=" for the Frank-Wolfe scale; the minimum of KOV, DDR20 and the BR envelope pair's "
                                  "PLD for the steps")
_RECIPE_SEL = _RECIPE.format(br=" for 'laplace'; for 'gumbel' / 'exponential' the minimum of KOV, DDR20 and the BR "
                                "envelope pair's PLD")
CERTIFIED_NOISE = {
    "core:gaussian_mechanism": f"{_P}accounting:analytic_gaussian_sigma(epsilon, delta, sensitivity): the "
                               "smallest sigma that is (epsilon, delta)-DP (the mechanism takes sigma itself)",
    "core:laplace_mechanism": "closed form: scale = sensitivity / epsilon is epsilon-DP (the mechanism takes scale)",
    "core:exponential_mechanism": "none needed: it takes epsilon itself (P(i) ~ exp(epsilon s_i / (2 sensitivity)), "
                                  "sensitivity instead of 2 sensitivity when monotone)",
    "core:report_noisy_max": "closed form: scale = 2 sensitivity / epsilon (Laplace or Gumbel noise) is "
                             f"epsilon-DP; {_P}accounting:certify certifies its ledger event",
    "core:report_noisy_min": "as core:report_noisy_max (the argmin of scores minus the noise)",
    "core:truncated_geometric": "none: a public sampler (no privacy claim)",
    "core:private_prefix_sums": f"{_P}accounting:analytic_gaussian_sigma(epsilon, delta, sensitivity * "
                                "sqrt(floor(log2 T) + 1)) (it takes sigma itself; the tree is one Gaussian mechanism "
                                "on all node sums, and an item lies in floor(log2 T) + 1 of them)",
    "lasso:Algorithm 1": "none: not private (plain Frank-Wolfe)",
    "lasso:Algorithm 2": f"{_A}lasso:lasso_noise_scale(n, T, epsilon, delta, radius=radius, "
                         f"calibration='certified', selection=selection) ({_RECIPE_SEL})",
    "lasso:Corollary 2.7": f"{_A}lasso:lasso_noise_scale(n, T, epsilon, delta, radius=radius, "
                           f"calibration='certified', selection=selection), T = {_A}lasso:horizon(n, epsilon, radius) "
                           f"({_RECIPE_SEL})",
    "lasso:Theorem 2.6": f"{_A}frank_wolfe:certified_gaussian_sigma(2 lipschitz / n, T, epsilon, delta)",
    "erm_geometry:Algorithm 1": f"{_A}erm_geometry:certified_gaussian_sigma(epsilon, delta, sensitivity, T)",
    "erm_geometry:Algorithm 1 (Section 3.3)": "none: the noise covariance is an input (noise_cov)",
    "erm_geometry:Algorithm 2": f"{_A}erm_geometry:kst_sigma_algorithm2(epsilon, delta, lipschitz, n) "
                                "(KST12's variance; the printed one is refuted, erm_geometry-E13)",
    "erm_geometry:Algorithm 3": "none: not private (Frank-Wolfe)",
    "erm_geometry:Algorithm 4": f"{_A}frank_wolfe:certified_laplace_scale(score_sensitivity, T, epsilon, delta, "
                                "noise='laplace' if selection == 'laplace' else 'gumbel') (score_sensitivity = 4/n; "
                                f"{_RECIPE_SEL})",
    "erm_geometry:Algorithm 5": f"{_P}accounting:certified_gaussian_sigma(sensitivity, T - 1, epsilon, delta)",
    "heavy_tailed:Algorithm 3": "none: not private (the non-private estimator)",
    "heavy_tailed:Algorithm 1": "none: the non-private oracle draws nothing",
    "heavy_tailed:CDPCWME": f"{_A}heavy_tailed:certified_sigma({_A}heavy_tailed:cwme_sensitivity(n, d, tau, m), rho)",
    "heavy_tailed:DPCWME": f"{_A}heavy_tailed:certified_laplace_scale(cwme_sensitivity(n, d, tau, m, norm='l1'), "
                           "epsilon)",
    "heavy_tailed:Algorithm 4": f"{_A}heavy_tailed:certified_sigma({_A}heavy_tailed:nsme_sensitivity(n, d, tau, c), "
                                "rho)",
    "heavy_tailed:Algorithm 2": f"per step, the oracle's: {_A}heavy_tailed:certified_sigma(cwme_sensitivity(...) or "
                                "nsme_sensitivity(...), the step's share of rho)",
    "online:Algorithm 1": f"{_A}online:pocp_noise_scale(lam, T, epsilon, delta, 'certified') (Theorem 1's guarantee, "
                          "(3 epsilon, 2 delta), not (epsilon, delta): the smallest beta whose T - 1 rounds, one "
                          "Gaussian of sensitivity sqrt(T - 1) lam at noise beta, certify it)",
    "online:Algorithm 2": f"{_A}online:pocp_noise_scale({_A}online:igd_sensitivity(L, alpha), T, epsilon, delta, "
                          "'certified') (at (3 epsilon, 2 delta), as Algorithm 1)",
    "online:Algorithm 3": f"{_A}online:pocp_noise_scale({_A}online:giga_sensitivity(G, alpha), T, epsilon, delta, "
                          "'certified', rounds=T - giga_warmup(LG, alpha)) (at Theorem 5's (3 epsilon, 2 delta))",
    "online:Algorithm 4": f"{_A}online:tree_sigma(R ** 2, T, epsilon, delta, 'certified', trees=2, items=T - 1) (both trees, T - 1 items each)",
    "online:Algorithm 5": f"{_A}online:tree_sigma(R, T, epsilon, delta, 'certified')",
    "online:Algorithm 6": f"{_A}online:pol_noise_scale(L, alpha, B, T, epsilon, delta, 'certified')",
    "online:eq. (13)": "none: not private (IGD)", "online:GIGA": "none: not private",
    "online:eq. (20)": "none: not private (FTL)", "online:eq. (21)": "none: not private (QFTL)",
    "saddle_point:Algorithm 1": f"the step eta: {_A}saddle_point:certified_eta_algorithm1(epsilon, delta, L0, n // T, "
                                f"K, T) (the accountant's largest eta for its vertex samples; {_RECIPE_BR})",
    "saddle_point:Algorithm 2": "none: a gradient estimator (no privacy claim of its own)",
    "saddle_point:Algorithm 3": f"the step eta: {_A}saddle_point:certified_eta_algorithm3(epsilon, delta, L0, B, "
                                f"n // (2 B)) (the accountant's largest eta for 2 Gamma vertex draws; {_RECIPE_BR})",
    "saddle_point:Algorithm 4": "its Algorithm 3 parts' steps (saddle_point:Algorithm 3's on n // (3k) records) and "
                                f"the Frank-Wolfe scale {_A}saddle_point:boosting_noise_scale(L0, n // (6 k k'), fw_T, "
                                f"epsilon, delta, 'certified') (both {_RECIPE_BOOST})",
    "saddle_point:Algorithm 5": f"the step: min({_A}saddle_point:certified_eta_algorithm5(epsilon, delta, L0, n, K, "
                                f"tau), 1 / (8 L0 tau n)) (the eta: {_RECIPE_BR})",
}


_EQ22 = ("loss: eq. (22), L(theta) = (1/n) sum_i (1/2) (<x_i, theta> - y_i)^2 (the factor 1/2: the per-record "
         "gradient is (<x_i, theta> - y_i) x_i); declared Lipschitz constant 2 (reference.oracle.cases.erm_geometry:"
         "LIPSCHITZ: |<x, theta> - y| <= 2 and ||x|| <= 1 on the cases' rows, ||x_i||_2 = 1, |y_i| <= 1, over unit balls)")
_FAMILY_Q = ("losses: family (Q), f_t(x) = <g_t, x> + (a_t / 2) ||x - c_t||_2^2 (rows of g and c, entries of a), over the "
             "l2 ball of radius; its implicit step (eq. (13)) has the closed form Pi((x_t - eta g_t + eta a_t c_t) / "
             "(1 + eta a_t)); a bound on its Lipschitz constant on the ball: max_t ||g_t|| + a_t (||c_t|| + radius)")
#: Per id, the constants a port needs that the paper leaves implicit or the package chose, each as a value or a
#: public function of the case's inputs (``list`` and ``list --json``: ``call.constants``). Issue 31: a port of
#: erm_geometry Algorithm 5 needed the loss's 1/2 and L_2 = 2, a port of saddle_point Algorithm 1 its certified eta.
CONSTANTS = {
    "erm_geometry:Algorithm 1": [_EQ22, f"sensitivity of a step's gradient: 2 L / n (replace-one), sigma "
                                        f"{_A}erm_geometry:certified_gaussian_sigma(epsilon, delta, 2 * 2 / n, T)"],
    "erm_geometry:Algorithm 1 (Section 3.3)": [_EQ22],
    "erm_geometry:Algorithm 2": [_EQ22, "lambda_max = 1 (the Hessian x x^T of a unit row), lambda_min = 0, "
                                        "theta_0 = 0; the minimiser is solved to a Frank-Wolfe gap <= 1e-12"],
    "erm_geometry:Algorithm 3": [_EQ22],
    "erm_geometry:Algorithm 4": [_EQ22 + "; L_1 = 2 (l_inf bound of the gradient) over the unit l1 ball",
                                 "S = {e_1..e_p, -e_1..-e_p} in that order (the selection's candidates)",
                                 "T - 1 noisy selections (lines 2-3 for t = 1..T-1); the certified scale composes "
                                 "those T - 1 (certified_laplace_scale takes T and composes T - 1): the smallest "
                                 "lambda, to 1e-7 relative and rounded up, whose T - 1 selections of score sensitivity "
                                 f"4/n certify at (epsilon, delta), {_RECIPE_SEL}; step_size "
                                 "'paper': the constant mu = 1/(T + 2) of every step (capital T, as printed), "
                                 "'2/(t+2)': the usual schedule"],
    "erm_geometry:Algorithm 5": [_EQ22 + "; L_2 = 2", "the gradient's l2 sensitivity 2 L_2 / n (replace-one); mu = "
                                 "1/(T + 2) as printed; T - 1 noisy steps (the certified sigma composes T - 1 "
                                 "Gaussian releases)"],
    "lasso:Theorem 2.6": ["loss: eq. (2), (1/n) sum_i (<x_i, theta> - y_i)^2 (no 1/2: the per-record gradient is "
                          "2 (<x_i, theta> - y_i) x_i); L_2 = the case's lipschitz (checked on every gradient over the "
                          "ball); sensitivity 2 L_2 / n", "mu_t = 2/(t + 2), theta_1 = 0"],
    "online:Algorithm 1": [_FAMILY_Q, "A = IGD, eta_t = 1/(alpha t); lam is lambda_A (the cases pass 2 L / alpha, "
                           "online-E02); round t adds N(0, beta^2 / t^2 I) to x_(t+1), then projects"],
    "online:Algorithm 2": [_FAMILY_Q, "sensitivity 2 L / alpha (Lemma 4 with its 1/alpha, online-E02: "
                           f"{_A}online:igd_sensitivity(L, alpha)); the printed beta uses 2 L (calibration='paper')"],
    "online:Algorithm 3": [_FAMILY_Q, f"t_q = {_A}online:giga_warmup(LG, alpha) = max(2, ceil(2 LG^2 / alpha^2)) "
                           "warm-up points (all x1 when given); eta_t = 2/(alpha t); sensitivity "
                           f"{_A}online:giga_sensitivity(G, alpha) = 4 G / alpha (online-E02)"],
    "online:Algorithm 4": ["losses: eq. (19) with its 1/2, f_t(x) = (1/2)(y_t - <v_t, x>)^2 + (alpha / 2)||x||^2 "
                           "(online-E06); R a public bound (||v_t|| <= R, |y_t| <= R, checked); the u-tree's items y v "
                           "have norm up to R^2 (online-E04); both trees hold the T - 1 items of rounds 1..T-1 "
                           "(online-E08)",
                           "certified sigma: each tree one Gaussian release of all its node sums, l2 sensitivity "
                           "2 R^2 sqrt(floor(log2(T - 1)) + 1) (the depth from the T - 1 items, not from T), the two "
                           "trees composed: the smallest sigma (to 1e-7 relative, rounded up) the accountant "
                           "certifies at (epsilon, delta); GDP-exact, so a port can recompute it",
                           f"printed sigmas (calibration='paper', lines 7-8 as printed): the V-tree's "
                           f"{_A}online:tree_sigma(R ** 2, T, epsilon / 2, delta / 2, 'paper'), the u-tree's "
                           f"{_A}online:tree_sigma(R, T, epsilon / 2, delta / 2, 'paper') (online-E04); line 3: "
                           "x_hat_1 = 0; a V-tree node's noise is a full d x d matrix of independent N(0, sigma^2) "
                           "entries (not symmetrised), a u-tree node's a vector of d"],
    "online:Algorithm 5": ["item t at leaf bin_k(t - 1), k = floor(log2 T) + 1 bits; an item lies in floor(log2 T) "
                           "+ 1 populated nodes; node change 2 R (replace-one, online-E03)"],
    "online:Algorithm 6": [_FAMILY_Q, "alpha = epsilon_g / x_star_bound^2; IGD on l(.; z_t) + (alpha/2)||x||^2 over "
                           "z_1..z_(T-1) from x1, eta_t = 1/(alpha t); the running sum starts at x1; sensitivity of the "
                           f"average {_A}online:pol_sensitivity(L, alpha, T) = 2 L (H_T - 1) / (alpha T) (online-E05)"],
    "online:eq. (13)": [_FAMILY_Q, "IGD: x_(t+1) = argmin_C (1/2)||x - x_t||^2 + eta_t f_t(x), eta_t = 1/(alpha t); the "
                        "output: the decisions x_1..x_T (T rows)"],
    "online:GIGA": [_FAMILY_Q, "x_(t+1) = Pi_C(x_t - eta_t grad f_t(x_t)), eta_t = step_constant / (alpha t); the "
                    "output: the decisions x_1..x_T"],
    "online:eq. (20)": [_FAMILY_Q, "FTL: x_(t+1) = argmin_C sum_(s <= t) f_s(x) = Pi_C((sum a c - sum g) / sum a); x_1 "
                        "given; the output: the decisions x_1..x_T"],
    "online:eq. (21)": ["losses: eq. (19) with its 1/2, f_t(x) = (1/2)(y_t - <v_t, x>)^2 + (alpha / 2)||x||^2; QFTL: "
                        "x_1 = 0, x_(t+1) = (t alpha I + sum_(s <= t) v_s v_s^T)^(-1) sum_(s <= t) y_s v_s; the output: "
                        "the decisions x_1..x_T"],
    # ---- issue 31, the remaining ids (the building blocks, lasso Algorithms 1-2 and Corollary 2.7, heavy_tailed,
    # saddle_point Algorithms 2-5); tests/test_conformance_constants.py imports every function named here and checks it
    # against what the reference uses on the id's cases
    "core:gaussian_mechanism": ["sensitivity: the l2 sensitivity of value under replace-one neighbours; the noise is "
                                "sigma times i.i.d. standard normals, one per coordinate of value (the output has "
                                "value's shape); the privacy is the exact Gaussian profile at mu = sensitivity / sigma "
                                f"({_P}accounting:analytic_gaussian_sigma(epsilon, delta, sensitivity) the smallest "
                                "(epsilon, delta)-DP sigma)"],
    "core:laplace_mechanism": ["sensitivity: the l1 sensitivity of value under replace-one neighbours; the noise is "
                               "i.i.d. Laplace(0, scale), density exp(-|z| / scale) / (2 scale), one per coordinate; "
                               "(sensitivity / scale)-DP"],
    "core:exponential_mechanism": ["sensitivity: the largest change of any one score between neighbours; returns the "
                                   "0-based index i with P(i) proportional to exp(epsilon scores_i / (2 sensitivity)) "
                                   "(exp(epsilon scores_i / sensitivity) when monotone): high scores are favoured"],
    "core:report_noisy_max": ["returns the 0-based argmax_i (scores_i + Z_i), Z_i i.i.d. Laplace(0, scale) (noise="
                              "'laplace') or Gumbel(0, scale) (noise='gumbel', location 0: then exactly the exponential "
                              "mechanism P(i) ~ exp(scores_i / scale)); (2 sensitivity / scale)-DP"],
    "core:report_noisy_min": ["returns the 0-based argmin_i (scores_i - Z_i), Z_i as core:report_noisy_max's "
                              "(the argmax of the negated scores)"],
    "core:truncated_geometric": [f"P(N = k) = C_M 2^-k for k = 0..M, C_M = 1 / (2 (1 - 2^-(M+1))): "
                                 f"{_P}mechanisms:truncated_geometric_pmf(M) (saddle_point Algorithm 3's level)"],
    "core:private_prefix_sums": ["the binary tree of Chan-Shi-Song: node (h, j) holds the sum of items j 2^h + 1 .. "
                                 "(j + 1) 2^h (1-based) plus its own N(0, sigma^2 I) noise, drawn once and reused by "
                                 f"every release that reads it; release t sums the popcount(t) nodes "
                                 f"{_P}tree:prefix_nodes(t) (one per 1-bit of t: the dyadic tiling of [1, t])",
                                 "an item lies in floor(log2 T) + 1 populated nodes: the tree is one Gaussian release of "
                                 f"l2 sensitivity {_P}tree:tree_sensitivity(T, sensitivity) = sqrt(floor(log2 T) + 1) "
                                 "sensitivity (replace-one); norm_bound, when given, is checked on every item (never "
                                 "clipped)"],
    "lasso:Algorithm 1": ["loss: eq. (2), L(theta) = (1/n) sum_i (<x_i, theta> - y_i)^2 (no 1/2: "
                          f"{_A}lasso:lasso_loss(theta, X, y)); gradient (2/n) X^T (X theta - y)",
                          "S = {c e_1, .., c e_p, -c e_1, .., -c e_p} in that order (c = radius; ties go to the first); "
                          "mu_t = 2/(t + 2); theta_1 = 0; T - 1 steps (theta_T returned)"],
    "lasso:Algorithm 2": ["loss: eq. (2) without a 1/2 (as lasso:Algorithm 1); |X_ij| <= 1 and |y_i| <= 1 are checked "
                          f"(never clipped); L_1 = {_A}lasso:lipschitz_l1(radius) = 2 (c + 1); score sensitivity "
                          f"{_A}lasso:score_sensitivity(n, radius) = 4 c (c + 1) / n (replace-one)",
                          "line 3-4: argmin_s (<s, grad L(theta_t)> + Z_s), Z_s i.i.d. Laplace(0, lambda) (selection "
                          "'laplace') or Gumbel(0, lambda) with the sign that makes it the exponential mechanism "
                          "P(s) ~ exp(-<s, grad> / lambda) ('gumbel', 'exponential'); mu_t = 2/(t + 2); T - 1 "
                          f"selections; lambda = {_A}lasso:lasso_noise_scale(n, T, epsilon, delta, radius=radius, "
                          "calibration=calibration, selection=selection) (the printed line 3 for 'paper'; for "
                          "'certified' the smallest lambda, to 1e-7 relative and rounded up, at which "
                          f"{_P}accounting:certify of T - 1 report_noisy_max events of score sensitivity 4 c (c + 1) / n "
                          f"and that noise (Gumbel for 'exponential') is within (epsilon, delta); {_RECIPE_SEL})"],
    "lasso:Corollary 2.7": ["as lasso:Algorithm 2, with T = "
                            f"{_A}lasso:horizon(n, epsilon, radius, gamma=...) = ceil((Gamma n epsilon / (L_1 c))^(2/3)): "
                            "gamma 'paper' (Gamma = 4 c^2, section 2.2's) for calibration='paper', 'exact' (8 c^2, "
                            "lasso-E03) for 'certified'"],
    "heavy_tailed:Algorithm 3": ["m = "
                                 f"{_A}heavy_tailed:bucket_count(d, beta) = ceil(4 ln(2d/beta)) buckets of b = n // m "
                                 "consecutive rows (the last n - m b rows unused); each coordinate clipped to "
                                 "[-3 tau, 3 tau]; per coordinate the median of the m bucket means (even m: the mean of "
                                 "the two middle ones, footnote 9)"],
    "heavy_tailed:Algorithm 1": ["loss: l(w, x) = ||w - x||^2 / 2 (gradient w - x) over the l2 ball of radius; the "
                                 "MeanOracle is heavy_tailed:Algorithm 3 at (tau, beta); convex mode: S_t = X, w_priv = "
                                 "(1/T) sum_{t=1..T} w^t; strongly convex: S_t the t-th of T blocks of n // T rows, "
                                 "w_priv = w^T; constant step eta"],
    "heavy_tailed:CDPCWME": ["heavy_tailed:Algorithm 3's mean (m = "
                             f"{_A}heavy_tailed:bucket_count(d, beta) = ceil(4 ln(2 d / beta)); the cases pass no m) "
                             "plus N(0, sigma^2 I); "
                             f"l2 sensitivity {_A}heavy_tailed:cwme_sensitivity(n, d, tau, m) = kappa 6 tau sqrt(d) / "
                             "(n // m), kappa = 1 for odd m, 1/2 for even m; sigma: "
                             f"{_A}heavy_tailed:certified_sigma(that, rho) = that / sqrt(2 rho) ('certified', "
                             "rho-zCDP of one Gaussian), "
                             f"{_A}heavy_tailed:cwme_paper_sigma(n, d, tau, rho, beta) = sqrt(1152 tau^2 d ln^2(2 d / beta) "
                             "/ (rho n^2)) ('paper', Theorem 4.1 as printed, natural log)"],
    "heavy_tailed:DPCWME": ["heavy_tailed:Algorithm 3's mean plus i.i.d. Laplace(0, b); l1 sensitivity "
                            f"{_A}heavy_tailed:cwme_sensitivity(n, d, tau, m, norm='l1'); b: "
                            f"{_A}heavy_tailed:certified_laplace_scale(that, epsilon) ('certified'), "
                            f"{_A}heavy_tailed:cwme_paper_laplace_scale(n, d, tau, epsilon, beta) ('paper')"],
    "heavy_tailed:Algorithm 4": ["mu_hat_j = (tau/n) sum_i psi_c(x_ij / tau), psi_c the smoothed influence "
                                 f"{_A}heavy_tailed:smoothed_influence(u, c) (phi of line 4 integrated against N(0, c) "
                                 "exactly; c the smoothing variance, heavy_tailed-E02); plus N(0, sigma^2 I); l2 "
                                 f"sensitivity {_A}heavy_tailed:nsme_sensitivity(n, d, tau, c) = 2 S(c) tau sqrt(d) / n; "
                                 f"sigma: {_A}heavy_tailed:certified_sigma(that, rho) ('certified'), "
                                 f"{_A}heavy_tailed:nsme_paper_sigma(n, d, tau, rho) ('paper')"],
    "heavy_tailed:Algorithm 2": ["heavy_tailed:Algorithm 1 (its loss and modes) with MeanOracle(rho / T): every step's "
                                 "oracle is CDPCWME (oracle='cwme': its m from beta) or Algorithm 4 (oracle='nsme', "
                                 "with c) on that step's rows (n rows in the convex mode, n // T in the strongly "
                                 "convex one) at budget rho / T; the certified sigma per step is "
                                 f"{_A}heavy_tailed:certified_sigma({_A}heavy_tailed:cwme_sensitivity(rows, d, tau, m) "
                                 "or nsme_sensitivity(rows, d, tau, c), rho / T); T = eta = tau = beta = 'theorem-5.7' "
                                 f"takes {_A}heavy_tailed:schedule_thm57(n, d, rho, k, lam=1, L=1, strict=False)"],
    "saddle_point:Algorithm 2": [f"L0 = {_A}saddle_point:QuadraticSaddle(atoms, data).lipschitz (cubic c: L0 + c/2); "
                                 "the multilevel weight 1/p_N, p_N = "
                                 f"{_P}mechanisms:truncated_geometric_pmf(M)[N] = C_M 2^-N; x~0, y~0 (one vertex each) then "
                                 "2^(N+1) vertices per player, the O half the first 2^N, the E half the last; G^0 is the "
                                 "gradient at the sampled vertices (x~0, y~0) themselves (not at the iterate x, y), G^+ at "
                                 "the means of all 2^(N+1) vertices, G^O and G^E at the means of the halves; all four "
                                 "gradients on the whole batch"],
    "saddle_point:Algorithm 3": ["x_1, y_1 uniform; step t = 1, 2, ...: the stopping rule (below) first, then line 3 "
                                 "draws N_t ~ TGeom(M), line 4 takes the batch S_t of the next B 2^(N_t + 1) records "
                                 "(consecutive from the first: 0-based records u_t .. u_t + B 2^(N_t + 1) - 1, u_t = B "
                                 "sum_(s<t) 2^(N_s + 1); Algorithm 2's one batch, saddle_point:Algorithm 2), line 5 "
                                 "(g_x, g_y) = saddle_point:Algorithm 2 at (x_t, y_t, N_t, S_t, M), line 6 x_(t+1) "
                                 "proportional to x_t exp(-eta g_x), line 7 y_(t+1) to y_t exp(+eta g_y), line 8 one "
                                 "output vertex from x_t and one from y_t (the iterates before lines 6-7); the draws "
                                 "in the order N_t, Algorithm 2's, line 8's x then y",
                                 "the stopping rule (line 2; saddle_point-E03), tested before N_t is drawn: step t "
                                 "runs iff sum_(s<t) (2^(N_s + 1) + 2) + 2^(M + 1) + 2 <= Gamma (the spent vertices "
                                 "per player plus the worst-case reserve of one step; never the level about to be "
                                 "drawn); no other test (the records cannot run out: B sum_(s<=tau) 2^(N_s + 1) <= "
                                 "B Gamma <= n / 2); tau = the number of steps run (the stopping time); the output: "
                                 "the means of the tau line-8 vertices of each player (x then y)",
                                 f"L0 = {_A}saddle_point:QuadraticSaddle(atoms, data).lipschitz = max |atoms| over every "
                                 "atom, used by a record or not (Algorithm 1's L0); (Gamma, M) = "
                                 f"{_A}saddle_point:algorithm3_budget(n, B) = (n // (2B), floor(log2 Gamma) - 3) "
                                 "(saddle_point-E03); n >= 16 B (Gamma >= 8, so that M >= 0), else a ParameterError "
                                 "naming n; Algorithm 2's sensitivity 5 L0 / B; N_t by "
                                 f"{_P}mechanisms:truncated_geometric(M, rng): one random() u, N_t = the least k with "
                                 "u < F(k), F(k) = (1 - 2^-(k+1)) / (1 - 2^-(M+1)) (inverse CDF; core:truncated_"
                                 "geometric); every vertex by docs/vectors.md's rule (one random() u, the index "
                                 "min(#{j : F_j <= u F_last}, d - 1), F the cumulative sums of the point)",
                                 f"certified eta = {_A}saddle_point:certified_eta_algorithm3(epsilon, delta, L0, B, Gamma) "
                                 "(the largest eta whose 2 Gamma vertex draws, each an exponential mechanism at eps0 = "
                                 f"2 eta (5 L0 / B), certify at (epsilon, delta); {_RECIPE_BR});"
                                 f" the printed one {_A}saddle_point:paper_eta_algorithm3(epsilon, delta, L0, B, Gamma) "
                                 "= epsilon B / (40 L0 sqrt(Gamma ln(1/delta))) (Proposition 3.17 as reconstructed, "
                                 "saddle_point-E01: Corollary 3.6's eps0 = epsilon / (2 sqrt(2 (2 Gamma) ln(1/delta))) "
                                 "= 2 eta (5 L0 / B))"],
    "saddle_point:Algorithm 4": [f"(k, k') = {_A}saddle_point:boosting_counts(beta) = (ceil(log2(4/beta)), "
                                 "ceil(log2(8k/beta))) unless the case passes k, k_prime; the split "
                                 f"{_A}saddle_point:boosting_part_sizes(n, k, k') (n // (3k), n // (6 k k'), the rest m "
                                 "held out); each Algorithm 3 part runs at (epsilon, delta) with B "
                                 "(its step: saddle_point:Algorithm 3's on n // (3k) records)",
                                 "the Frank-Wolfe runs (saddle_point-E09): lasso Algorithm 2 over the simplex's vertices "
                                 "from the uniform point, fw_T - 1 Laplace report-noisy-min steps, score sensitivity "
                                 f"2 L0 / (n // (6 k k')), lambda = {_A}saddle_point:boosting_noise_scale(L0, "
                                 f"n // (6 k k'), fw_T, epsilon, delta, calibration) ('certified': {_RECIPE_KOV}; "
                                 f"'paper': {_A}frank_wolfe:paper_laplace_scale(L0, 1, fw_T, n // (6 k k'), epsilon, "
                                 "delta) = L0 sqrt(8 fw_T ln(1/delta)) / ((n // (6 k k')) epsilon), lasso Algorithm 2's "
                                 "printed line 3 with L_1 = L0, ||C||_1 = 1 and fw_T (not fw_T - 1) under the root)",
                                 "run (i, j): the y-run on part fw_y(i, j) minimises -F(x_i, .), its scores "
                                 "<e_l, -A_bar^T x_i>; the x-run on part fw_x(i, j) minimises F(., y_i), its scores "
                                 "<e_l, A_bar y_i>; A_bar the mean of A_z over that part's records; step t selects "
                                 "argmin_l (score_l - Z_l), Z_l i.i.d. Laplace(0, lambda) (core:report_noisy_min), "
                                 "theta_(t+1) = (1 - mu_t) theta_t + mu_t e_l, mu_t = 2/(t + 2); the run returns "
                                 "theta_(fw_T): y_hat_ij, x_hat_ij",
                                 "line 8's score (the reconstructed box; the max / min over the k' runs is catalogue "
                                 f"A10's; {_A}saddle_point:boosting_scores): s_i = max_j F''(x_i, y_hat_ij) - "
                                 "min_j F''(x_hat_ij, y_i), F''(x, y) = x^T A'' y, A'' the mean of A_z over the m "
                                 "held-out records (the game's f averaged over them); the selection (line 10): the "
                                 "exponential mechanism at epsilon on -s_i with sensitivity 4 B0 / m, P(i) "
                                 "proportional to exp(-epsilon s_i / (2 (4 B0 / m))), B0 = max |atoms| (the bilinear "
                                 "game's range bound)"],
    "saddle_point:Algorithm 5": ["the loss: f(x; i) = (1/2)(<a_i, x> - b_i)^2 on the simplex (a an (n, d) array, b (n,)), "
                                 "gradient (<a_i, x> - b_i) a_i; "
                                 f"L0 = {_A}saddle_point:SimplexLeastSquares(a, b).lipschitz = max_i (||a_i||_inf "
                                 "max_x |<a_i, x> - b_i|), the largest per-record product (x over the simplex's "
                                 "vertices; not the product of the two maxima); T = n, one record a round: "
                                 "round t = 1..T uses record t (0-based row t - 1)",
                                 "line 1: w_1 = x_1 = the uniform point; round t: line 3 refreshes x_hat_t = the mean "
                                 "of K vertices drawn from x_t (the averaged iterate, not w_t) iff t <= t0 or "
                                 "(t - t0) % tau == 0, t0 = ceil(T / tau) (every round up to t0, then t0 + tau, "
                                 "t0 + 2 tau, ... <= T: floor((T - t0) / tau) refreshes after t0), else line 4 "
                                 "x_hat_t = x_hat_(t-1); line 5 g_t = grad f(x_hat_t; record t); line 6 w_(t+1) "
                                 "proportional to w_t exp(-step alpha_t g_t), alpha_t = t (the learner's loss is "
                                 "alpha_t <g_t, .>); line 7 x_(t+1) = (A_t x_t + alpha_(t+1) w_(t+1)) / A_(t+1), "
                                 "A_t = t (t + 1) / 2; the output: the mean of K vertices of x_T (the x the last round "
                                 "starts from)",
                                 "step = min(eta, 1 / (8 L0 tau T)) (the stability cap, saddle_point-E07), eta = "
                                 f"{_A}saddle_point:certified_eta_algorithm5(epsilon, delta, L0, T, K, tau) ('certified': "
                                 f"the largest eta whose N = {_A}saddle_point:algorithm5_sample_count(K, T, tau, t0) "
                                 "= K (t0 + floor((T - t0) / tau) + 1) (rule='loop', the draws the run makes) "
                                 f"exponential-mechanism draws at eps0 = 2 eta (2 L0 T) certify; {_RECIPE_BR}) "
                                 f"or {_A}saddle_point:paper_eta_algorithm5(epsilon, delta, L0, T, N) = epsilon / "
                                 "(8 L0 T sqrt(2 N ln(1/delta))) (Proposition 4.3 as reconstructed, saddle_point-E01: "
                                 "Corollary 3.6's eps0 = epsilon / (2 sqrt(2 N ln(1/delta))) = 2 eta (2 L0 T)), N = "
                                 f"{_A}saddle_point:algorithm5_sample_count(K, T, tau, t0, rule='catalogue') = "
                                 "K (t0 + ceil((T - t0) / tau) + 1) ('paper', saddle_point-E06: the catalogue's count, "
                                 "one refresh more than the loop's when tau does not divide T - t0: 90 against 87 on "
                                 "paper-d4-n80-K3-tau5)"],
    "saddle_point:Algorithm 1": [f"L0 = {_A}saddle_point:QuadraticSaddle(atoms, data).lipschitz (the game's l_inf "
                                 "gradient bound over the simplices: the max over every atom, used by a record or "
                                 "not, coordinate and vertex of |grad_x f| and |grad_y f|); B = n // T",
                                 "the game: atoms is an (m, dx, dy) array, record z is the index of A_z in it, "
                                 "f(x, y; z) = x^T A_z y, x (dx, the first axis) the minimising player, y (dy) the "
                                 "maximising one; line 5's batch gradient (A y_hat, A^T x_hat averaged over the batch "
                                 "B_t = records (t-1)B+1..tB) is taken at x_hat_t, y_hat_t, the means of line 4's K "
                                 "vertex samples of each player",
                                 "line 1: x_1 and y_1 are the uniform points of the simplices (unless x1 / y1 are "
                                 "given); line 3 samples one output vertex per player per step; line 8 outputs their "
                                 "averages over the T steps (x then y); the printed eta's log is natural: "
                                 "eps B / (16 L0 sqrt((K + 1) T ln(1/delta)))",
                                 f"certified eta = {_A}saddle_point:certified_eta_algorithm1(epsilon, delta, L0, B, K, "
                                 "T) (the cases' default output='independent'): the largest eta whose N = 2 (K + 1) T "
                                 "vertex draws, each an exponential mechanism (bounded range) at eps0 = 2 eta (2 L0 / B), "
                                 "the package's accountant certifies at (epsilon, delta) (to 1e-7 relative in 1 / eta, "
                                 f"rounded down; {_RECIPE_BR}); the printed one "
                                 f"{_A}saddle_point:paper_eta_algorithm1(epsilon, delta, L0, B, K, T)"],
}


class _Fields:
    """Records which attributes (and items) a case's reader takes from a result."""

    def __init__(self, seen: list, path: str = ""):
        self._seen, self._path = seen, path

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        path = f"{self._path}.{name}"
        if path not in self._seen:
            self._seen.append(path)
        return _Fields(self._seen, path)

    def __getitem__(self, index):
        path = f"{self._path}[{index}]"
        self._seen[:] = [p for p in self._seen if p != self._path] + [path]
        return _Fields(self._seen, path)


def return_fields(case: VectorCase) -> list[str]:
    """The named fields the case reads from an object result (``[]``: the result is the output itself)."""
    seen: list = []
    try:
        case.output(_Fields(seen))
    except Exception:
        pass
    return sorted(p for p in seen if re.fullmatch(r"\.\w+(\[\d+\])?", p))    # not numpy's own look-ups


def call_contract(algorithm: str) -> dict:
    """What a candidate for ``algorithm`` is called with and may return (``python -m reference list``,
    docs/conformance.md): the keyword arguments the cases pass (``always``: in every case; ``sometimes``:
    in some), the return forms, and the reference function for the certified noise."""
    mine = cases(algorithm)
    order: list[str] = []
    for c in mine:
        order += [k for k in c.make_kwargs() if k not in order]
    always = [k for k in order if all(k in c.make_kwargs() for c in mine)]
    fields = []
    for c in mine:
        fields += [f for f in return_fields(c) if f not in fields]
    if not fields:
        forms = "the output itself (an array or a number)"
    elif set(fields) == {".x", ".y"}:
        forms = "the output (x then y, stacked), or an object with .x and .y"
    else:
        forms = "the output itself, or an object with " + " and ".join(fields)
    readings = [f"--reading {r.name}={'|'.join([r.default] + [v for v in r.values if v != r.default])} "
                f"(default {r.default}; docs/errata.md {r.errata})" for r in readings_for(mine[0].algorithm)]
    return {"arguments": always + ["rng"], "sometimes": [k for k in order if k not in always],
            "returns": forms, "fields": fields,
            "certified_noise": CERTIFIED_NOISE.get(mine[0].algorithm, "not listed"), "readings": readings,
            "fixed": FIXED_CHOICES.get(mine[0].algorithm, ""), "constants": CONSTANTS.get(mine[0].algorithm, [])}


#: Per id, the choices the paper leaves free ("an arbitrary theta_1", "split S into disjoint parts") that the
#: reference fixes and the cases do not pass as arguments: a port must make the same choice for its outputs to
#: have the reference's law (docs/errata.md gives each resolution). Shown by ``list`` and the contract table.
FIXED_CHOICES = {
    "erm_geometry:Algorithm 1": "theta_1 = argmin_C Psi, the potential's minimiser (line 2; the utility proof's start)",
    "erm_geometry:Algorithm 1 (Section 3.3)": "theta_1 = argmin_C Psi, the potential's minimiser (line 2)",
    "erm_geometry:Algorithm 4": "theta_1 = 0, the origin (line 1's arbitrary point of C)",
    "erm_geometry:Algorithm 5": "theta_1 = the linear oracle's point of C for the all-ones direction, argmin_C "
                                "<1, theta> (line 1's arbitrary point of C)",
    "lasso:Algorithm 1": "theta_1 = 0 (public, data-independent)",
    "lasso:Algorithm 2": "theta_1 = 0 (public, data-independent)",
    "lasso:Corollary 2.7": "theta_1 = 0 (public, data-independent)",
    "lasso:Theorem 2.6": "theta_1 = 0 (public, data-independent)",
    "heavy_tailed:Algorithm 1": "w^0 = Proj_W(0) (heavy_tailed-E06)",
    "heavy_tailed:Algorithm 2": "w^0 = Proj_W(0) (heavy_tailed-E06)",
    "saddle_point:Algorithm 4": "line 2's parts are contiguous blocks of the records in this order: k parts of "
                                "n // (3k) for Algorithm 3, then for i < k, j < k' the y-run's and the x-run's "
                                "Frank-Wolfe parts of n // (6 k k') each, then the rest for scoring (the split's "
                                "layout is the reconstruction's, saddle_point A10)",
}


CONTRACT_BEGIN, CONTRACT_END = "<!-- call-contract:begin -->", "<!-- call-contract:end -->"


def call_contract_markdown() -> str:
    """The call contract of every id as a Markdown table (docs/conformance.md, between its markers)."""
    def cell(text: str) -> str:
        return text.replace("|", "\\|")

    lines = [CONTRACT_BEGIN, "", "Generated from the cases (`reference.oracle.conform.call_contract`; rewrite with "
             "`python -c \"from reference.oracle.conform import write_call_contract; "
             "write_call_contract('docs/conformance.md')\"`).", "",
             "| id | arguments (keywords, then rng) | returns | certified noise for a port without an accountant "
             "| fixed by the reference (the paper leaves it free) |",
             "|---|---|---|---|---|"]
    for algorithm in sorted({c.algorithm for c in cases()}):
        c = call_contract(algorithm)
        args = ", ".join(f"`{a}`" for a in c["arguments"])
        if c["sometimes"]:
            args += " (some cases also " + ", ".join(f"`{a}`" for a in c["sometimes"]) + ")"
        returns = "the output" + (", or " + " and ".join(f"`{f}`" for f in c["fields"]) if c["fields"] else "")
        lines.append(f"| {algorithm} | {args} | {cell(returns)} | {cell(c['certified_noise'])} "
                     f"| {cell(c['fixed']) or '-'} |")
    return "\n".join(lines + ["", CONTRACT_END])


def write_call_contract(path) -> None:
    from pathlib import Path

    path = Path(path)
    text = path.read_text(encoding="utf-8")
    head, _, rest = text.partition(CONTRACT_BEGIN)
    _, _, tail = rest.partition(CONTRACT_END)
    path.write_text(head + call_contract_markdown() + tail, encoding="utf-8")


def _na(case: VectorCase, prop: str, default: str) -> str:
    return case.not_applicable.get(prop, default)


def case_refusals(case: VectorCase) -> tuple[Refuses, ...]:
    """The validation property's inputs for ``case``: its declared :class:`Refuses` and the generic ones
    (:func:`reference.oracle.properties.generic_refusals`) for the inputs it has."""
    declared = tuple(inv for inv in case.invariants if isinstance(inv, Refuses))
    return declared + generic_refusals(case.make_kwargs(), case.array_args)


def _seeds(case: VectorCase, k: int) -> list[int]:
    return [case.seed] + [int(s) for s in np.random.SeedSequence(case.seed).generate_state(k - 1)]


def _run(function: Callable, case: VectorCase, kwargs: dict, seed: int) -> Any:
    return case.output(function(**kwargs, rng=np.random.default_rng(seed)))


def _draws_from(function: Callable, case: VectorCase, kwargs: dict, seed: int) -> tuple[Any, bool]:
    """(output, whether ``function`` drew from the generator it was passed): the generator's state before
    and after the call (nothing is wrapped, so a candidate that checks the generator's type still runs)."""
    gen = np.random.default_rng(seed)

    def used():    # its state, and the children spawned from it (a candidate may seed its own samplers so)
        return gen.bit_generator.state, gen.bit_generator.seed_seq.n_children_spawned

    before = used()
    out = case.output(function(**kwargs, rng=gen))
    return out, used() != before


_REFERENCE_DRAWS: dict = {}


def _reference_draws(case: VectorCase) -> bool:
    key = (case.algorithm, case.name, case.reference)
    if key not in _REFERENCE_DRAWS:
        _REFERENCE_DRAWS[key] = _draws_from(resolve(case.reference), case, case.make_kwargs(), case.seed)[1]
    return _REFERENCE_DRAWS[key]


def _same(a, b) -> bool:
    a, b = np.asarray(_jsonable(a), dtype=float), np.asarray(_jsonable(b), dtype=float)
    return a.shape == b.shape and bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))))


def _raised(exc: BaseException) -> str:
    return f"raised {type(exc).__name__}: {exc}"


def invariant_rows(case: VectorCase, function: Callable, props: tuple[str, ...],
                   runs: int = INVARIANT_RUNS, unseeded: bool = False) -> list[ConformanceRow]:
    """feasibility, sparsity, zero-noise, finite-shape and determinism of ``function`` on ``case``.

    Determinism is asked only of a candidate that takes its randomness from ``rng``: it is ``n/a`` when
    the candidate is declared unseeded (``unseeded``, ``--unseeded``) or never draws from the generator
    it is passed while the reference does on this case (OpenDP draws from the system's CSPRNG)."""
    rows: list[ConformanceRow] = []

    def row(prop, ok, detail, status=""):
        rows.append(ConformanceRow(case.algorithm, case.name, prop, ok, detail, status))

    def declared(prop):
        return [inv for inv in case.invariants if inv.property == prop]

    wanted = [p for p in ("feasibility", "sparsity", "finite-shape", "determinism") if p in props]
    outputs: list[tuple[int, Any]] = []
    drew = False
    if wanted:
        seeds = _seeds(case, runs)
        try:
            for s in seeds:
                out, used = _draws_from(function, case, case.make_kwargs(), s)
                drew |= used
                outputs.append((s, out))
        except Exception as exc:   # report, do not crash the whole run
            for p in wanted:
                if p in ("feasibility", "sparsity") and not declared(p):
                    default = ("no constraint set declared for this case" if p == "feasibility"
                               else "the algorithm promises no sparsity here")
                    row(p, True, _na(case, p, default), "n/a")
                else:
                    row(p, False, _raised(exc))
            wanted = []
    if "finite-shape" in wanted:
        want = np.asarray(_jsonable(_run(resolve(case.reference), case, case.make_kwargs(), case.seed)), dtype=float)
        bad = []
        for s, out in outputs:
            try:
                got = np.asarray(_jsonable(out), dtype=float)
            except Exception as exc:
                bad.append(f"seed {s}: not numbers ({type(exc).__name__}: {exc})")
                continue
            if got.shape != want.shape:
                bad.append(f"seed {s}: shape {got.shape}, reference {want.shape}")
            elif not np.all(np.isfinite(got)):
                bad.append(f"seed {s}: {int(np.sum(~np.isfinite(got)))} non-finite entries")
        row("finite-shape", not bad, "; ".join(bad) if bad else
            f"shape {want.shape} and finite on {len(outputs)} seeds")
    if "determinism" in wanted:
        if unseeded:
            row("determinism", True, "declared unseeded (--unseeded): the candidate takes no seed, so the same "
                                     "seed is not asked to give the same output", "n/a")
        elif not drew and _reference_draws(case):
            row("determinism", True, "unseeded: the candidate never drew from the rng it was passed (the reference "
                                     "does on this case), so its randomness comes from elsewhere and a seed cannot "
                                     "fix it; its law and privacy are judged on fresh runs", "n/a")
        else:
            s, first = outputs[0]
            try:
                again = _run(function, case, case.make_kwargs(), s)
                ok = _same(first, again)
                detail = (f"seed {s} twice: the same output" if ok else
                          f"seed {s} twice: different outputs (it draws from rng, but not only from rng)")
            except Exception as exc:
                ok, detail = False, _raised(exc)
            row("determinism", ok, detail)
    for prop, default in (("feasibility", "no constraint set declared for this case"),
                          ("sparsity", "the algorithm promises no sparsity here")):
        if prop not in wanted:
            continue
        if not declared(prop):
            row(prop, True, _na(case, prop, default), "n/a")
            continue
        bad, good = [], []
        for inv in declared(prop):
            kwargs = {**case.make_kwargs(), **inv.setting}
            shown = f" at {', '.join(f'{k}={v!r}' for k, v in inv.setting.items())}" if inv.setting else ""
            try:
                runs_here = outputs if not inv.setting else [(s, _run(function, case, kwargs, s)) for s, _ in outputs]
                for s, out in runs_here:
                    ok, detail = inv.check(kwargs, out)
                    (good if ok else bad).append(f"seed {s}{shown}: {detail}")
            except Exception as exc:
                bad.append(f"{shown.strip() or 'on the case'}: {_raised(exc)}")
        row(prop, not bad, "; ".join(bad[:3]) if bad else f"{good[0]} ({len(good)} checks)")
    if "zero-noise" in props:
        rows += _zero_noise_rows(case, function)
    return rows


_POINT_MASS_AT: dict = {}


def point_mass_check(case: VectorCase, function: Callable, inv: PointMass) -> tuple[bool, str]:
    """The law of a deterministic algorithm (:class:`reference.oracle.properties.PointMass`): ``function``, called
    with a fresh ``numpy.random.default_rng(seed)`` at ``inv.seeds`` seeds (the invariants' seeds), must return the
    reference's output at every one, within the declared tolerance. The reference's output is computed once per
    case, at the case's seed, and checked to be the same at a second seed (else the case is not deterministic and
    the declaration is wrong: a ReferenceSpecError)."""
    key = (case.algorithm, case.name, case.reference)
    if key not in _POINT_MASS_AT:
        reference, kwargs = resolve(case.reference), case.make_kwargs()
        first, second = (np.asarray(_jsonable(_run(reference, case, kwargs, s)), dtype=float)
                         for s in (case.seed, case.seed + 1))
        if not _same(first, second):
            raise ReferenceSpecError(f"{case.algorithm} {case.name} declares a point-mass law, but the reference's "
                                     f"output changes with the seed")
        _POINT_MASS_AT[key] = first
    want = _POINT_MASS_AT[key]
    outputs = []
    for s in _seeds(case, inv.seeds):
        try:
            outputs.append((s, _jsonable(_run(function, case, case.make_kwargs(), s))))
        except Exception as exc:
            return False, f"seed {s}: {_raised(exc)}"
    try:
        return inv.check(want, outputs)
    except (TypeError, ValueError) as exc:
        return False, f"the output is not numbers ({type(exc).__name__}: {exc})"


def _refuses_setting(exc: BaseException, setting: dict) -> bool:
    """A refusal of the zero-noise setting: a ValueError (ParameterError is one) naming one of its parameters."""
    from .checks import _names_parameter

    return isinstance(exc, (ValueError, ReferenceSpecError)) and _names_parameter(exc, tuple(setting))


def _zero_noise_rows(case: VectorCase, function: Callable) -> list[ConformanceRow]:
    declared = [inv for inv in case.invariants if isinstance(inv, ZeroNoise)]
    if not declared:
        return [ConformanceRow(case.algorithm, case.name, "zero-noise", True,
                               _na(case, "zero-noise", "no zero-noise setting declared for this case"), "n/a")]
    rows = []
    for inv in declared:
        kwargs = {**case.make_kwargs(), **inv.setting}
        shown = ", ".join(f"{k}={v!r}" for k, v in inv.setting.items())
        try:
            got = case.output(function(**kwargs, rng=np.random.default_rng(case.seed)))
        except Exception as exc:
            if _refuses_setting(exc, inv.setting):       # it refuses the setting, naming it: not asked of it
                rows.append(ConformanceRow(case.algorithm, case.name, "zero-noise", True,
                                           f"the candidate does not accept {shown} ({type(exc).__name__}: {exc})",
                                           "n/a"))
            else:
                rows.append(ConformanceRow(case.algorithm, case.name, "zero-noise", False,
                                           f"at {shown}: {_raised(exc)} (not a refusal naming "
                                           f"{', '.join(inv.setting)})"))
            continue
        want = np.asarray(_jsonable(inv.expected({**case.make_kwargs(), **inv.setting})), dtype=float)
        try:
            got = np.asarray(_jsonable(got), dtype=float)
        except Exception as exc:
            rows.append(ConformanceRow(case.algorithm, case.name, "zero-noise", False,
                                       f"at {shown}: the output is not numbers ({type(exc).__name__}: {exc})"))
            continue
        if got.shape != want.shape:
            ok, detail = False, f"at {shown}: output shape {got.shape}, noiseless reference {want.shape}"
        elif np.allclose(got, want, rtol=inv.rtol, atol=inv.atol):
            ok, detail = True, f"at {shown}: the reference's noiseless output{' (' + inv.what + ')' if inv.what else ''}"
        else:
            ok, detail = False, (f"at {shown}: max |difference| {np.max(np.abs(got - want)):.3g} from the noiseless "
                                 f"output (rtol={inv.rtol:g}, atol={inv.atol:g})")
        rows.append(ConformanceRow(case.algorithm, case.name, "zero-noise", ok, detail))
    return rows


_REFERENCE_FITS: dict = {}


def rate_errors(case: VectorCase, function: Callable, deep: bool = False, seed: int = 20261125) -> tuple:
    """(grid, errors[i, r]) of ``function`` on the case's :class:`Rate`: the data of repeat r at grid
    value i is drawn from one seed, the run from another; both are the same for every implementation."""
    spec: Rate = case.rate
    grid = tuple(spec.deep_grid) if deep and spec.deep_grid else tuple(spec.grid)
    repeats = (spec.deep_repeats or spec.repeats) if deep else spec.repeats
    states = np.random.SeedSequence(seed).generate_state(2 * len(grid) * repeats).reshape(len(grid), repeats, 2)
    errors = np.empty((len(grid), repeats))
    for i, x in enumerate(grid):
        for r in range(repeats):
            kwargs = spec.kwargs(x, np.random.default_rng(int(states[i, r, 0])))
            out = case.output(function(**kwargs, rng=np.random.default_rng(int(states[i, r, 1]))))
            errors[i, r] = float(spec.error(spec.kwargs(x, np.random.default_rng(int(states[i, r, 0]))), out))
    return grid, errors


def _clearly_excludes(fit, wrong: float, width: float | None = None) -> bool:
    """The interval lies at least ``width`` (its own width by default) beyond ``wrong`` (see :func:`rate_check`)."""
    width = fit.upper - fit.lower if width is None else width
    return fit.upper + width <= wrong or fit.lower - width >= wrong


def _widened(fit, factor: float):
    """``fit`` with its interval widened by ``factor`` about the slope (each side)."""
    return dataclasses.replace(fit, lower=fit.slope - factor * (fit.slope - fit.lower),
                               upper=fit.slope + factor * (fit.upper - fit.slope))


def _rate_fit(grid, errs, confidence: float):
    """:func:`reference.audit.rates.fit_rate`'s percentile interval widened by
    :func:`reference.audit.rates.small_sample_inflation` (a t and bootstrap-bias correction for few repeats)."""
    from ..audit.rates import fit_rate, small_sample_inflation

    fit = fit_rate(grid, errs, np.random.default_rng(7), confidence=confidence)
    return _widened(fit, small_sample_inflation(grid, errs, confidence))


def rate_check(case: VectorCase, function: Callable, deep: bool = False) -> tuple[bool, str]:
    """The candidate's fitted slope against the reference's (see :class:`reference.oracle.properties.Rate`).

    Both fits use the same data and seeds; the intervals are at ``spec.confidence`` (the id's share of its
    false-alarm budget, :func:`reference.oracle.properties.rate_confidence`). Two independent intervals of the
    same slope at confidence c fail to overlap with probability 2 (1 - Phi(sqrt(2) z_c)) (normal approximation,
    equal widths), and common random numbers only lower it. Each percentile interval is widened by
    :func:`reference.audit.rates.small_sample_inflation` (few repeats: the bootstrap's (r - 1) / r bias and an
    estimated variance, Student t at Welch-Satterthwaite's degrees of freedom): without it the intervals
    under-cover and a correct port failed far more often than the approximation says (docs/conformance.md).
    The nearest-wrong clause below is asked where the reference's interval lies the wider of the two intervals'
    widths beyond the wrong exponent (its own width alone let a narrow reference interval ask it of a correct
    candidate whose interval is wide by chance: 0.55% of pairs on lasso's case, measured). The candidate must also exclude the nearest wrong
    exponent where the reference's interval lies at least its own width beyond it (a correct candidate's
    interval reaches it only if its slope is more than that width above the reference's: at most
    1 - Phi(sqrt(2) z_c) more); where the reference's excludes it by less, the clause would fail correct
    candidates too often and is not asked."""
    spec: Rate = case.rate
    key = (case.algorithm, case.name, deep, spec.confidence)
    if key not in _REFERENCE_FITS:
        grid, errs = rate_errors(case, resolve(case.reference), deep)
        _REFERENCE_FITS[key] = _rate_fit(grid, errs, spec.confidence)
    ref = _REFERENCE_FITS[key]
    try:
        grid, errs = rate_errors(case, function, deep)
        fit = _rate_fit(grid, errs, spec.confidence)
    except Exception as exc:
        return False, f"raised {type(exc).__name__}: {exc}"
    shown = (f"{spec.what}: slope {fit.slope:.3f} [{fit.lower:.3f}, {fit.upper:.3f}], reference {ref.slope:.3f} "
             f"[{ref.lower:.3f}, {ref.upper:.3f}] ({spec.confidence:.2%}; paper {spec.claimed:.3g}; "
             f"grid {', '.join(f'{x:g}' for x in grid)} x {errs.shape[1]})")
    failure = rate_verdict(fit, ref, spec.nearest_wrong)
    if failure == "apart":
        return False, "intervals do not overlap: " + shown
    if failure == "wrong":
        return False, f"does not exclude the nearest wrong exponent {spec.nearest_wrong:.3g}: " + shown
    return True, shown


def wrong_clause_asked(fit, ref, nearest_wrong: float | None) -> bool:
    """Whether :func:`rate_check` asks the nearest-wrong clause of ``fit`` against ``ref``: the reference's
    interval lies the wider of the two intervals' widths beyond the wrong exponent."""
    wider = max(ref.upper - ref.lower, fit.upper - fit.lower)
    return nearest_wrong is not None and _clearly_excludes(ref, nearest_wrong, wider)


def rate_verdict(fit, ref, nearest_wrong: float | None) -> str:
    """:func:`rate_check`'s verdict on two (widened) fits: ``""`` (passes), ``"apart"`` (the intervals do not
    overlap) or ``"wrong"`` (the clause is asked and the candidate's interval does not exclude ``nearest_wrong``)."""
    if fit.upper < ref.lower or fit.lower > ref.upper:
        return "apart"
    if wrong_clause_asked(fit, ref, nearest_wrong) and not fit.excludes(nearest_wrong):
        return "wrong"
    return ""


def check_implementation(target: str | Callable, algorithm: str, mode: str = "all", n_runs: int | None = None,
                         alpha: float | None = None, deep: bool = False, as_json: bool = False, *,
                         require: str | Iterable[str] | None = None, readings: Iterable[str] | dict | None = None,
                         unseeded: bool = False, executor=None, only_case: str | None = None):
    """Every case of ``algorithm``, every property ``mode`` selects ('all', or comma-separated property
    names of :data:`reference.oracle.properties.PROPERTIES`; 'both' and 'distribution' as before) and every
    one ``require`` names (see :func:`plan`). ``readings``: the candidate's readings of choices the
    paper leaves open (``{"tree_log": "ln"}`` or ``["tree_log=ln"]``; :data:`READINGS`): the
    reference's side is computed under them. ``unseeded``: the candidate takes no seed (determinism
    n/a). Returns the rows, or with ``as_json`` the report of :func:`conformance_report`.

    No exception of the candidate (or of a check on its output) stops the run: it becomes that
    property's FAIL on that case, with the exception.

    ``executor`` (a ``concurrent.futures`` executor: a process pool, or a Dask cluster's): the cases run
    there, one task each (:func:`_case_rows`), and their rows are gathered in case order. Every check of a
    case draws from seeds of that case alone, so the rows, and the report, are the local run's bit for bit.
    ``target`` must then be a ``module:function`` string the workers can import. ``only_case``: run that
    case alone (what each task does)."""
    function = _resolve_target(target) if isinstance(target, str) else target
    props, deciding = plan(mode, require)
    algorithm = cases(algorithm)[0].algorithm      # the canonical spelling
    chosen = parse_readings(readings, algorithm)
    rows: list[ConformanceRow] = []
    case_list = [c for c in cases(algorithm) if only_case is None or c.name == only_case]
    distributed = executor is not None and only_case is None
    if distributed:
        if not isinstance(target, str):
            raise ParameterError("target", "a 'module:function' string when an executor runs the cases "
                                           "(its workers import it)", type(target).__name__)
        tasks = [executor.submit(_case_rows, target, algorithm, mode, n_runs, alpha, deep, require, chosen,
                                 unseeded, c.name) for c in case_list]
        for task in tasks:
            case_rows, caught = task.result()
            rows += case_rows
            for message, category, filename, lineno in caught:     # the workers' warnings, as if raised here
                warnings.warn_explicit(message, category, filename, lineno)
    for case in ([] if distributed else case_list):
        case = _tolerant(_under_readings(case, chosen))

        def row(prop, ok, detail, status=""):
            rows.append(ConformanceRow(case.algorithm, case.name, prop, ok, detail, status))

        def guarded(prop, check):
            try:
                check()
            except ConformError as exc:   # conform's own computation failed: said so, not put on the candidate
                row(prop, False, f"conform's own check failed (not the candidate's exception): {exc}")
            except Exception as exc:     # the candidate's exception (or a check on its output): a FAIL
                row(prop, False, f"stopped on the candidate: {_raised(exc)}")

        def do_replay():
            ok, detail = replay(run_case(case), case, function)
            row("replay", ok, detail)

        def do_law():
            point = [inv for inv in case.invariants if isinstance(inv, PointMass)]
            if case.statistic is None and point:
                for inv in point:
                    ok, detail = point_mass_check(case, function, inv)
                    row("law", ok, detail)
            elif case.statistic is None:
                row("law", True, _na(case, "law", "no scalar statistic declared for this case"), "n/a")
            else:
                ok, _, detail = distribution_check(case, function, n_runs=n_runs, alpha=alpha)
                row("law", ok, detail)

        def do_privacy():
            if case.neighbour is None:
                row("privacy", True, _na(case, "privacy", "no worst neighbouring pair declared for this case"), "n/a")
                return
            ok, _, detail = privacy_check(case, function)
            # The same check on the reference at half its noise: it must flag that, or it has no power here.
            control_ok, control_bound, control = privacy_check(case, ScaledNoise(case, 0.5))
            if np.isnan(control_bound):     # the control did not run: conform's failure, not a flag
                row("privacy", False, f"{detail}; control (reference at 0.5 x noise) did not run: {control}")
                return
            detail += f"; control (reference at 0.5 x noise): {control} -> {'missed' if control_ok else 'flagged'}"
            row("privacy", ok and not control_ok, detail)

        report: list = []

        def candidate_report():
            if not report:
                try:
                    report.append(accounting_report(function, case.make_kwargs(), case.seed))
                except Exception as exc:
                    report.append(exc)
            return report[0]

        def do_accounting():
            status, detail = accounting_check(case, function, resolve(case.reference), got=candidate_report())
            row("accounting", status != "fail", detail, status)

        def do_claim():
            status, detail = claim_check(case, function, resolve(case.reference), got=candidate_report())
            row("claim", status != "fail", detail, status)

        def do_rate():
            if case.rate is None:
                row("rate", True, _na(case, "rate", "no convergence claim declared for this case"), "n/a")
            else:
                ok, detail = rate_check(case, function, deep=deep)
                row("rate", ok, detail)

        def do_validation():
            refusals = case_refusals(case)
            if not refusals:
                row("validation", True, _na(case, "validation", "no invalid input declared or derived for this case"),
                    "n/a")
            for refusal in refusals:
                try:
                    status, detail = validation_check(case, function, refusal)
                except Exception as exc:
                    status, detail = "fail", f"{refusal.what}: {_raised(exc)}"
                row("validation", status != "fail", detail, status)

        for prop, check in (("replay", do_replay), ("law", do_law), ("privacy", do_privacy),
                            ("accounting", do_accounting), ("claim", do_claim), ("rate", do_rate)):
            if prop in props:
                guarded(prop, check)
        invariant_props = [p for p in ("feasibility", "sparsity", "zero-noise", "finite-shape", "determinism")
                           if p in props]
        if invariant_props:
            before = len(rows)
            try:
                rows += invariant_rows(case, function, props, unseeded=unseeded)
            except Exception as exc:
                del rows[before:]
                for p in invariant_props:
                    row(p, False, f"stopped on the candidate: {_raised(exc)}")
        if "validation" in props:
            guarded("validation", do_validation)
    rows.sort(key=lambda r: PROPERTIES.index(r.check))
    if as_json:
        return conformance_report(rows, target if isinstance(target, str) else repr(target), algorithm, deep,
                                  deciding=deciding, readings=chosen, mode=mode or "all", unseeded=unseeded)
    return rows


def _case_rows(target: str, algorithm: str, mode, n_runs, alpha, deep, require, readings, unseeded,
               case_name: str) -> tuple[list, list]:
    """One case of :func:`check_implementation`, as an executor's task: its rows, and the warnings its runs
    raised (message, category, file, line; PrivacyWarnings every time, as the command collects them)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PrivacyWarning)
        rows = check_implementation(target, algorithm, mode, n_runs, alpha, deep, False, require=require,
                                    readings=readings, unseeded=unseeded, only_case=case_name)
    return rows, [(str(w.message), w.category, w.filename, w.lineno) for w in caught]


def _resolve_target(target: str) -> Callable:
    """The candidate named ``module:function``; a module that fails to import is a usage error (exit 2)."""
    try:
        return resolve(target)
    except ReferenceSpecError:
        raise
    except Exception as exc:
        raise ParameterError("target", "an importable module:function", f"{target} ({type(exc).__name__}: {exc})") \
            from exc


def verdicts(rows: list[ConformanceRow], deciding: Iterable[str] | None = None) -> list[PropertyVerdict]:
    """One verdict per (algorithm, property), in :data:`PROPERTIES` order. ``deciding``: the properties
    that set the exit status (default: the conformance properties, :data:`CONFORMANCE`)."""
    deciding = set(CONFORMANCE if deciding is None else deciding)
    out = []
    keys = sorted({(r.algorithm, r.check) for r in rows}, key=lambda k: (k[0], PROPERTIES.index(k[1])))
    for algorithm, prop in keys:
        mine = [r for r in rows if r.algorithm == algorithm and r.check == prop]
        applicable = [r for r in mine if r.status != "n/a"]
        failed = [r for r in applicable if r.status == "fail"]
        if failed:
            verdict, detail = "fail", "; ".join(f"{r.case}: {r.detail}" for r in failed)
        elif applicable:
            n_cases = len({r.case for r in applicable})
            counted = f"{n_cases} cases" if n_cases == len(applicable) else f"{len(applicable)} checks on {n_cases} cases"
            verdict, detail = "pass", applicable[0].detail if len(applicable) == 1 else \
                f"{counted}; e.g. {applicable[0].case}: {applicable[0].detail}"
        else:
            reasons = list(dict.fromkeys(r.detail for r in mine))
            verdict, detail = "n/a", "; ".join(reasons)
        out.append(PropertyVerdict(algorithm, prop, verdict, len(applicable), len(applicable) - len(failed),
                                   detail, [r.case for r in (failed or applicable)],
                                   group="agreement" if prop in AGREEMENT else "conformance",
                                   decides=prop in deciding))
    return out


def _answer(props: list[PropertyVerdict], names) -> str:
    mine = [v for v in props if v.property in names]
    if not mine:
        return "not run"
    if any(v.verdict == "fail" for v in mine):
        return "no"
    return "yes" if any(v.verdict == "pass" for v in mine) else "n/a"


def conformance_report(rows: list[ConformanceRow], target: str, algorithm: str, deep: bool = False, *,
                       deciding: Iterable[str] | None = None, readings: dict | None = None, mode: str = "all",
                       unseeded: bool = False) -> dict:
    """The JSON form. Two answers, kept apart:

    - ``conforms``: "does it conform?", from the properties of the released outputs and of the candidate's
      own claim (:data:`CONFORMANCE`): ``answer`` yes / no, the properties that ``failed``;
    - ``bit_exact``: "is it bit-exact?", from replay (the reference's draws reproduce the reference's
      output), and ``accounting``: does it report the reference's ledger; each with ``answer`` yes / no /
      n/a / not run and ``decides`` (whether it sets the exit status in this run).

    ``passed`` is the exit status (0 when True): every deciding property that applies passed. ``failed``
    lists the deciding properties that failed, ``properties`` one verdict each (with ``group`` and
    ``decides``), ``rows`` one per property per case. ``readings``: the candidate's declared readings."""
    deciding = tuple(CONFORMANCE if deciding is None else deciding)
    props = verdicts(rows, deciding)
    failed = [v.property for v in props if v.verdict == "fail" and v.decides]
    conformance = [v for v in props if v.group == "conformance"]
    open_choices = {r.name: {"value": (readings or {}).get(r.name, r.default), "default": r.default,
                             "declared": r.name in (readings or {}),
                             "values": sorted(r.values), "errata": r.errata, "what": r.what}
                    for r in readings_for(algorithm)}

    def agreement(name: str) -> dict:
        (v,) = [x for x in props if x.property == name] or [None]
        return {"answer": _answer(props, (name,)), "decides": name in deciding,
                "detail": "" if v is None else v.detail}

    return {"target": target, "algorithm": algorithm, "deep": deep, "mode": mode, "unseeded": unseeded,
            "require": [p for p in AGREEMENT if p in deciding],
            "readings": open_choices,
            "passed": not failed, "failed": failed,
            "conforms": {"answer": _answer(conformance, CONFORMANCE),
                         "failed": [v.property for v in conformance if v.verdict == "fail"],
                         "properties": [v.property for v in conformance]},
            "bit_exact": agreement("replay"), "accounting": agreement("accounting"),
            "properties": [asdict(v) for v in props], "rows": [asdict(r) for r in rows]}


def _json_default(value):
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    return str(value)


def report_json(report: dict) -> str:
    """The report as JSON text (numpy scalars as plain values: ``--json`` always writes)."""
    return json.dumps(report, indent=1, default=_json_default)


def _under(report: dict) -> str:
    """' under reading ...' for the verdict line: the readings the candidate declared, or the reference's
    (and the alternatives) when it declared none."""
    readings = report.get("readings", {})
    if not readings:
        return ""
    declared = [f"{k}={v['value']}" for k, v in readings.items() if v.get("declared")]
    defaults = [f"{k}={v['value']}" for k, v in readings.items() if not v.get("declared")]
    if declared:
        return (f" under reading {', '.join(declared)} (declared; docs/errata.md)"
                + (f" and the reference's {', '.join(defaults)}" if defaults else ""))
    others = [f"--reading {k}={x}" for k, v in readings.items() for x in v["values"] if x != v["value"]]
    return f" under the reference's reading {', '.join(defaults)} (another: {', '.join(others)})"


REPORT_WIDTH = 120      # columns of the text report; a longer line wraps under its own detail column


def _fit(line: str, indent: int) -> list[str]:
    """``line`` within :data:`REPORT_WIDTH` columns, its continuation lines starting at column ``indent``
    (words are never split, so a name or a number stays whole)."""
    if len(line) <= REPORT_WIDTH:
        return [line]
    return textwrap.wrap(line, REPORT_WIDTH, subsequent_indent=" " * indent, break_long_words=False,
                         break_on_hyphens=False)


def format_report(report: dict) -> str:
    """The text form: the two answers in two tables (each property: verdict, cases passed of applicable,
    detail), the per-case rows that failed, then the answers and the exit status; every line within
    :data:`REPORT_WIDTH` columns (a long detail continues under the detail column)."""
    lines = [f"conform {report['target']} as {report['algorithm']}" + (" (deep)" if report["deep"] else "")]
    width = max(len(p) for p in PROPERTIES)
    detail_column = width + 2 + 7 + 2 + 6 + 2
    props = report["properties"]
    required = report.get("require", [])

    def table(group):
        out = [f"{'property':<{width}}  verdict  checks  detail"]
        for v in (x for x in props if x.get("group", "conformance") == group):
            mark = {"pass": "PASS", "fail": "FAIL", "n/a": "n/a"}[v["verdict"]]
            count = f"{v['passed']}/{v['applicable']}" if v["applicable"] else "-"
            note = "" if v.get("decides", True) or v["verdict"] != "fail" else " (reported; not required)"
            out += _fit(f"{v['property']:<{width}}  {mark:<7}  {count:<6}  {v['detail']}{note}", detail_column)
        return out

    if any(v.get("group", "conformance") == "conformance" for v in props):
        lines += ["", "Does it conform? Properties of the released outputs and of its own claim (they decide the "
                      "exit status):"] + table("conformance")
    if any(v.get("group") == "agreement" for v in props):
        how = ("decides the exit status here" if required else
               "reported; decides the exit status only with --require replay / --require accounting")
        lines += ["", f"Is it bit-exact? Replay of the reference's draws, and its accounting against the "
                      f"reference's ({how}):"] + table("agreement")
    failed_rows = [r for r in report["rows"] if r["status"] == "fail"]
    if failed_rows:
        lines += ["", "failed checks:"]
        deciding = {v["property"] for v in props if v.get("decides", True)}
        for r in failed_rows:
            lines += _fit(f"FAIL  {r['check']:<{width}}  {r['case']:<30} {r['detail']}"
                          + ("" if r["check"] in deciding else "  (reported; not required)"), 6 + width + 2)
    lines.append("")
    conf = report.get("conforms", {}).get("answer")
    under = _under(report)
    conform_failed = [p for p in report["failed"] if p not in ("replay", "accounting")]
    if conf in ("yes", "n/a") and not conform_failed:
        lines.append(f"conforms{under}: every applicable property of its outputs passed")
    elif conf == "no":
        lines.append(f"does not conform{under}: failed {', '.join(report.get('conforms', {}).get('failed', []))}")
    for key, name in (("bit_exact", "bit-exact (replay)"), ("accounting", "reports the reference's accounting")):
        a = report.get(key, {})
        if a.get("answer", "not run") != "not run":
            lines.append(f"{name}: {a['answer']}" + ("" if a.get("decides") else " (reported, not required)"))
    note = report.get("paper_calibration_warnings")
    if note:
        lines.append(_paper_warnings_line(note))
    lines.append(f"exit {'0' if report['passed'] else '1'}: " + ("every deciding property passed" if report["passed"]
                 else f"failed {', '.join(report['failed'])}"))
    return "\n".join(out for line in lines for out in _fit(line, 2))


def _paper_warnings_line(note: dict) -> str:
    errata = ", ".join(note["errata"]) or "docs/errata.md"
    return (f"note: {note['count']} runs at calibration='paper' raised PrivacyWarning ({errata}): the cases use "
            f"the printed noise on purpose")


def _check_collecting_paper_warnings(**kwargs) -> dict:
    """:func:`check_implementation` with the PrivacyWarnings of runs at ``calibration='paper'`` collected
    into the report's ``paper_calibration_warnings`` (count, errata ids, one message) instead of printed one
    by one: the vector cases use the paper's printed calibration on purpose, and the reference (or a port
    that warns as it does) says so on every such run. Any other warning is shown as usual."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PrivacyWarning)
        report = check_implementation(**kwargs)
    paper = [w for w in caught if issubclass(w.category, PrivacyWarning) and "calibration='paper'" in str(w.message)]
    shown = set()
    for w in caught:                   # the rest as the default filter shows them: once per text and place
        key = (str(w.message), w.category, w.filename, w.lineno)
        if not any(w is p for p in paper) and key not in shown:
            shown.add(key)
            warnings.showwarning(w.message, w.category, w.filename, w.lineno)
    if paper:
        errata = sorted({m for w in paper for m in re.findall(r"docs/errata\.md ([A-Za-z_]+-E\d+)", str(w.message))})
        report["paper_calibration_warnings"] = {"count": len(paper), "errata": errata,
                                                "example": str(paper[0].message)}
    return report


def run_conform_command(args: argparse.Namespace, executor=None) -> int:
    mode = getattr(args, "mode", "all") or "all"
    report = _check_collecting_paper_warnings(target=args.target, algorithm=args.algorithm, mode=mode,
                                              deep=bool(getattr(args, "deep", False)), as_json=True,
                                              require=getattr(args, "require", None),
                                              readings=getattr(args, "reading", None) or None,
                                              unseeded=bool(getattr(args, "unseeded", False)), executor=executor)
    if getattr(args, "json", False):
        if report.get("paper_calibration_warnings"):
            print(_paper_warnings_line(report["paper_calibration_warnings"]), file=sys.stderr)
        print(report_json(report))
    else:
        print(format_report(report))
    return 0 if report["passed"] else 1
