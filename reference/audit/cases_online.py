"""Audit rows of paper ``online`` (Jain-Kothari-Thakurta): empirical privacy of whole released streams.

Each row runs the algorithm's own loop once per draw on a worst-case neighbouring pair and maps the
whole released stream to one scalar (the log-likelihood-ratio direction of the pair), with a
negative control at half the noise (the factor 2 a port can lose):

- Algorithm 1 (POCP, Theorem 1) with the extremal OCP algorithm (x_{t+1} moved by exactly lambda/t),
  x_{t+1} = (lam / 2t) s(f_1), s = +-1, whose sensitivity is exactly lam/t at every round, on a set
  so large that the projection never acts: the released stream is exactly Gaussian with
  mu = sqrt(T - 1) lam / beta, and the statistic sum_t t xhat_{t+1} is its likelihood ratio;
- Algorithm 2 (PIGD, Theorem 3) on online-E02's pair (f_1 = +-x + (alpha/2) x^2, alpha = 0.01),
  where the printed noise (2L, no 1/alpha) is refuted and the certified noise holds;
- Algorithm 5 (PrivateSum, Theorem 9), item 1 = +-R, the statistic the sum of the prefix sums at
  t = 1, 2, 4, ..., T (exactly the nodes holding item 1);
- Algorithm 6 (POL, Theorem 10) on online-E05's pair (z_1 = +-z0), the released point itself.

Importing this module is cheap; the rows are built by :func:`audit_cases`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from .cases import Bonferroni, PrivacyCase, per_output, repeat

# ---------------------------------------------------------------------------
# Algorithm 1: the extremal OCP algorithm


@dataclass(frozen=True)
class WorstUpdate:
    """x_{t+1} = (lam / 2t) s(f_1) with s = sign of f_1's linear coefficient: ||x_{t+1} - x'_{t+1}|| = lam/t."""

    lam: float

    def __call__(self, fs, xs, C):
        s = 1.0 if fs[0].g[0] >= 0 else -1.0
        return np.array([self.lam * s / (2.0 * len(fs))])


POCP = dict(T=8, lam=1.0, eps=1.0, delta=1e-3)


@functools.lru_cache(maxsize=None)
def pocp_losses(sign: float, T: int):
    """The stream f_1 = sign x, f_2..f_T = 0 (frozen losses: built once per process and sign, read-only)."""
    from ..algorithms.online import QuadraticLoss

    zero = QuadraticLoss([0.0], 0.0, [0.0])
    return (QuadraticLoss([float(sign)], 0.0, [0.0]),) + (zero,) * (T - 1)


def pocp_beta(calibration: str, factor: float = 1.0, **p) -> float:
    from ..algorithms.online import pocp_noise_scale

    p = {**POCP, **p}
    return factor * pocp_noise_scale(p["lam"], p["T"], p["eps"], p["delta"], calibration)


def pocp_one_run(sign, rng, *, calibration: str, factor: float = 1.0, result: bool = False):
    """The released xhat_2..xhat_T of one run of :func:`pocp` on the pair member ``sign``."""
    from ..algorithms.online import pocp
    from ..geometry.sets import L2Ball

    p = POCP
    beta = None if factor == 1.0 else pocp_beta(calibration, factor)
    res = pocp(pocp_losses(sign, p["T"]), L2Ball(1, 1e9 * p["lam"]), WorstUpdate(p["lam"]), p["lam"], p["T"],
               p["eps"], p["delta"], rng, calibration=calibration, x1=np.zeros(1), keep_iterates=False, beta=beta)
    return res if result else res.decisions[1:, 0]


def weighted_sum(stream, *, weights):
    """sum_t w_t o_t: the likelihood-ratio direction of a Gaussian stream with antisymmetric means."""
    return float(np.dot(np.asarray(weights, dtype=float), np.asarray(stream, dtype=float)))


def pocp_mu(calibration: str) -> float:
    p = POCP
    return math.sqrt(p["T"] - 1) * p["lam"] / pocp_beta(calibration)


def pocp_certified(calibration: str) -> float:
    return pocp_one_run(1.0, np.random.default_rng(0), calibration=calibration, result=True).certified_epsilon


# ---------------------------------------------------------------------------
# Algorithm 2: the pair of errata online-E02


PIGD = dict(T=50, eps=1.0, delta=1e-5, alpha=0.01, r=100.0)


@functools.lru_cache(maxsize=None)
def pigd_losses(sign: float):
    """The stream f_1 = sign x + (alpha/2) x^2, the rest (alpha/2) x^2 (frozen; built once per process and sign)."""
    from ..algorithms.online import QuadraticLoss

    p = PIGD
    rest = QuadraticLoss([0.0], p["alpha"], [0.0])
    return (QuadraticLoss([float(sign)], p["alpha"], [0.0]),) + (rest,) * (p["T"] - 1)


def pigd_L() -> float:
    return 1.0 + PIGD["alpha"] * PIGD["r"]


def pigd_one_run(sign, rng, *, calibration: str, factor: float = 1.0, result: bool = False):
    from ..algorithms.online import pocp_noise_scale, igd_sensitivity, private_igd
    from ..geometry.sets import L2Ball

    p = PIGD
    beta = None
    if factor != 1.0:
        lam = 2 * pigd_L() if calibration == "paper" else igd_sensitivity(pigd_L(), p["alpha"])
        beta = factor * pocp_noise_scale(lam, p["T"], p["eps"], p["delta"], calibration)
    res = private_igd(pigd_losses(sign), L2Ball(1, p["r"]), p["T"], p["eps"], p["delta"], pigd_L(), p["alpha"],
                      rng, calibration=calibration, x1=np.zeros(1), keep_iterates=result, beta=beta)
    return res if result else res.decisions[1:, 0]


def pigd_weights() -> np.ndarray:
    """t^2 (m_{t+1} - m'_{t+1}) / 2 for the pair: x_{t+1} = -+100/(t+1) (sign +-1), so weights -t^2/(t+1)."""
    t = np.arange(1, PIGD["T"], dtype=float)
    return -t * t / (t + 1)


def pigd_certified(calibration: str) -> float:
    return pigd_one_run(1.0, np.random.default_rng(0), calibration=calibration, result=True).certified_epsilon


# ---------------------------------------------------------------------------
# Algorithm 5


TREE = dict(T=16, R=1.0, eps=0.1, delta=1e-2, log_base="e")


def tree_one_run(first, rng, *, calibration: str, factor: float = 1.0):
    """The prefix sums W_hat_1..W_hat_T of Algorithm 5 on the stream (first, 0, ..., 0)."""
    from ..algorithms.online import private_sum, tree_sigma

    p = TREE
    sigma = factor * tree_sigma(p["R"], p["T"], p["eps"], p["delta"], calibration, log_base=p["log_base"])
    B = None
    out = []
    for t in range(1, p["T"] + 1):
        W, B = private_sum(np.array([first if t == 1 else 0.0]), B, t, p["R"], p["eps"], p["delta"], p["T"], rng,
                           sigma=sigma)
        out.append(W[0])
    return np.array(out)


def tree_sigma_of(calibration: str, factor: float = 1.0) -> float:
    from ..algorithms.online import tree_sigma

    p = TREE
    return factor * tree_sigma(p["R"], p["T"], p["eps"], p["delta"], calibration, log_base=p["log_base"])


def tree_vectorised_runs(first, rng, n, *, sigma: float):
    """n runs of :func:`tree_one_run` at once: the very same numbers from the same generator (the core tree
    sampler draws the nodes in private_sum's order; tests/online/test_audit_cases.py checks it bit for bit).
    The audit's sampler: the line-by-line loop costs ~1 ms per run, this ~1 us."""
    from .cases_core import tree_vectorised

    stream = np.zeros(TREE["T"])
    stream[0] = first
    return tree_vectorised(stream, rng, n, sigma=sigma, sensitivity=2 * TREE["R"])


def tree_statistic_batch(prefix_sums):
    from .cases_core import tree_statistic_batch as batch

    return batch(prefix_sums)


def tree_statistic(prefix):
    T = len(prefix)
    return float(sum(prefix[(1 << k) - 1] for k in range(T.bit_length()) if (1 << k) <= T))


def tree_certified(calibration: str) -> float:
    from ..algorithms.online import tree_sigma
    from ..privacy import accounting
    from ..privacy.ledger import Ledger
    from ..algorithms.online import PrivateSumTree

    p = TREE
    ledger = Ledger()
    PrivateSumTree(p["T"], tree_sigma(p["R"], p["T"], p["eps"], p["delta"], calibration, log_base=p["log_base"]),
                   None, bound=p["R"], ledger=ledger)
    return accounting.certify(ledger, p["delta"]).epsilon


# ---------------------------------------------------------------------------
# Algorithm 6: the pair of errata online-E05, shortened to T = 20


POL = dict(T=20, eps=1.0, delta=1e-5, eps_g=0.1, B=1.0, z0=0.2)


def pol_one_run(sign, rng, *, calibration: str, factor: float = 1.0, result: bool = False):
    from ..algorithms import online

    p = POL
    data = [online.QuadraticLoss([sign * p["z0"]], 0.0, [0.0])] + \
        [online.QuadraticLoss([0.0], 0.0, [0.0])] * (p["T"] - 1)
    if factor == 1.0:
        res = online.private_offline_learning(data, None, p["eps"], p["delta"], p["eps_g"], p["z0"], p["B"], rng,
                                              d=1, calibration=calibration, x1=np.zeros(1))
        return res if result else float(res.decisions[0, 0])
    # the same lines 1-12, then line 13 with factor x the calibrated noise
    res = online.private_offline_learning(data, None, p["eps"], p["delta"], p["eps_g"], p["z0"], p["B"],
                                          np.random.default_rng(0), d=1, calibration=calibration, x1=np.zeros(1))
    x_bar = res.extra["average"][0] + factor * res.noise_scale * rng.standard_normal()
    return float(np.clip(x_bar, -p["B"], p["B"]))


@functools.lru_cache(maxsize=None)
def pol_average(sign: float, calibration: str) -> tuple[float, float]:
    """Lines 1-12's average and line 13's noise scale on the pair member ``sign`` (no randomness: x1 is given
    and the iterates depend on the losses alone)."""
    res = pol_one_run(sign, np.random.default_rng(0), calibration=calibration, result=True)
    return float(res.extra["average"][0]), float(res.noise_scale)


def pol_vectorised(sign, rng, n, *, calibration: str, factor: float = 1.0):
    """n runs of :func:`pol_one_run` at once: the same numbers (to rounding) from the same generator (line 13
    draws one standard normal per run; line 14 projects onto [-B, B]); tests/online/test_audit_cases.py checks
    it against the algorithm's own loop. The audit's sampler (the loop costs ~1 ms per run)."""
    avg, scale = pol_average(float(sign), calibration)
    return np.clip(avg + factor * scale * rng.standard_normal(n), -POL["B"], POL["B"])


def _as_floats(outputs):
    return np.asarray(outputs, dtype=float)


def pol_certified(calibration: str) -> float:
    return pol_one_run(1.0, np.random.default_rng(0), calibration=calibration, result=True).certified_epsilon


# The control's noise factor per calibration. Half the certified noise is NOT a control here: line 13 clips the
# released point to [-B, B], and the clipped release at half the certified noise has exact epsilon 0.83 < 1 (it is
# private; no sample size could flag it). 0.35 of the certified noise has exact epsilon 1.47, inside (eps, 2 eps]
# (the package's "at most 2x off the claim", stated on true epsilon; tests/online/test_audit_cases.py).
POL_CONTROL = {"paper": 0.5, "certified": 0.35}


def pol_exact(calibration: str, factor: float = 1.0) -> float:
    """Exact epsilon at POL's delta of the released point clip(avg + N(0, s^2), -B, B) at the row's pair (avg = -+a),
    in closed form (scipy's normal law; no call to the accountant). The privacy loss is k x on (-B, B) with
    k = 2a/s^2 and ln(P'(B)/P(B)) on the atom at B (larger: tail ratio >= density ratio); the atom at -B has loss
    < 0. By symmetry both orders give the same value. H(eps) = sup_E P'(E) - e^eps P(E) is solved for delta."""
    from scipy.optimize import brentq
    from scipy.stats import norm

    p = POL
    res = pol_one_run(1.0, np.random.default_rng(0), calibration=calibration, result=True)
    a, s, bound = abs(float(res.extra["average"][0])), factor * float(res.noise_scale), p["B"]

    def hockey(eps: float) -> float:
        h = max(norm.sf((bound - a) / s) - math.exp(eps) * norm.sf((bound + a) / s), 0.0)
        lo = max(eps * s * s / (2 * a), -bound)          # {x : k x > eps} inside (-B, B)
        if lo < bound:
            h += (norm.cdf((bound - a) / s) - norm.cdf((lo - a) / s)) \
                - math.exp(eps) * (norm.cdf((bound + a) / s) - norm.cdf((lo + a) / s))
        return h

    if hockey(0.0) <= p["delta"]:
        return 0.0
    return float(brentq(lambda e: hockey(e) - p["delta"], 0.0, 100.0, xtol=1e-12))


def _identity(v):
    return v


# ---------------------------------------------------------------------------


def audit_cases() -> list:
    cases = []
    p = POCP
    for calibration in ("certified", "paper"):
        mu = pocp_mu(calibration)
        cases.append(PrivacyCase(
            claim="online:Theorem 1",
            title=f"POCP (Alg 1), extremal A, T={p['T']}, whole released stream, {calibration} noise",
            sampler=repeat(functools.partial(pocp_one_run, calibration=calibration)),
            statistic=per_output(functools.partial(weighted_sum, weights=np.arange(1, p["T"], dtype=float))),
            dataset=-1.0, neighbour=1.0,
            claimed_epsilon=3 * p["eps"], claimed_delta=2 * p["delta"],
            certify=functools.partial(pocp_certified, calibration),
            gaussian_mu=mu,
            negative_control=repeat(functools.partial(pocp_one_run, calibration=calibration, factor=0.5)),
            negative_control_note="half the noise (beta/2: the sensitivity's factor 2 lost)",
            thresholds=Bonferroni(thresholds=(0.0,), events=("upper",), orders=("forward",)),
            mu_thresholds=Bonferroni(thresholds=(0.0,), events=("upper",), orders=("forward",)),
            worst_case="x_{t+1} = (lam/2t) s(f_1) moves by exactly lam/t at every round (Assumption (1) with "
                       "equality); the projection never acts, so the stream is Gaussian and sum_t t xhat_{t+1} "
                       "is its likelihood ratio",
            # --quick: the certified control (true mu 2.05 against 1.02) is flagged at 3000 a side; the paper
            # row's (mu 0.22 against 0.11) needs 8000 (power about 0.99 there, 0.9 at 5000)
            samples=40_000, quick_samples=3_000 if calibration == "certified" else 8_000, chunk=2_000,
            calibration=calibration, erratum="online-E01" if calibration == "paper" else "",
        ))
    q = PIGD
    for calibration in ("paper", "certified"):
        cases.append(PrivacyCase(
            claim="online:Theorem 3",
            title=f"PIGD (Alg 2), alpha={q['alpha']}, T={q['T']}, C=[-{q['r']:g},{q['r']:g}], {calibration} noise",
            sampler=repeat(functools.partial(pigd_one_run, calibration=calibration)),
            statistic=per_output(functools.partial(weighted_sum, weights=pigd_weights())),
            dataset=-1.0, neighbour=1.0,
            claimed_epsilon=3 * q["eps"], claimed_delta=2 * q["delta"],
            certify=functools.partial(pigd_certified, calibration),
            negative_control=repeat(functools.partial(pigd_one_run, calibration=calibration, factor=0.5)),
            negative_control_note="half the noise",
            thresholds=Bonferroni(thresholds=(1600.0, 2400.0, 3200.0, 4000.0), events=("upper",), orders=("forward",)),
            calibration=calibration, erratum="online-E02" if calibration == "paper" else "",
            # certified: half the noise is below the claim even on the whole unprojected transcript (exact GDP:
            # mu 0.70, epsilon 2.77 < 3 at delta 2e-5; the ledger's 2L/alpha is not attained, online-E07), so no
            # sample size flags it. Retired (docs/audit.md, "Retired rows"): the white-box row #3 audits it.
            in_quick=calibration == "paper",
            retired="" if calibration == "paper" else (
                "retired: its control (half the noise) has true epsilon <= 2.77 < 3 even on the whole unprojected "
                "transcript, so no size could flag it; online:Theorem 3 #3 (white-box, transcript LLR, exact GDP) "
                "audits the certified calibration"),
            worst_case="online-E02's pair: f_1 = +-x + (alpha/2) x^2 moves x_2 by 1/alpha and every later iterate by "
                       "2/(alpha (t+1)); the weights are the likelihood-ratio direction of the unprojected stream",
            samples=20_000, quick_samples=1_000, chunk=1_000,    # --quick: refuted at 1000 (eps >= 4.0 > 3, 3 seeds)
        ))
    r = TREE
    for calibration in ("paper", "certified"):
        cases.append(PrivacyCase(
            claim="online:Theorem 9",
            title=f"PrivateSum (Alg 5), T={r['T']}, eps={r['eps']}, delta={r['delta']}, natural log, {calibration}",
            sampler=functools.partial(tree_vectorised_runs, sigma=tree_sigma_of(calibration)),
            statistic=tree_statistic_batch,
            dataset=-r["R"], neighbour=r["R"],
            claimed_epsilon=r["eps"], claimed_delta=r["delta"],
            certify=functools.partial(tree_certified, calibration),
            negative_control=functools.partial(tree_vectorised_runs, sigma=tree_sigma_of(calibration, 0.5)),
            negative_control_note="half the noise",
            thresholds=Bonferroni(thresholds=(0.0, 5.0), events=("upper",), orders=("forward",)),
            worst_case="item 1 = +R vs -R lies in floor(log2 T)+1 populated nodes; the statistic sums exactly them",
            calibration=calibration, erratum="online-E03" if calibration == "paper" else "",
            samples=100_000, quick_samples=20_000, chunk=5_000,
        ))
    s = POL
    for calibration in ("paper", "certified"):
        cases.append(PrivacyCase(
            claim="online:Theorem 10",
            title=f"POL (Alg 6), T={s['T']}, eps_g={s['eps_g']}, B={s['B']}, z0={s['z0']}, {calibration} noise",
            sampler=functools.partial(pol_vectorised, calibration=calibration),
            statistic=_as_floats,
            dataset=1.0, neighbour=-1.0,
            claimed_epsilon=s["eps"], claimed_delta=s["delta"],
            certify=functools.partial(pol_certified, calibration),
            exact=functools.partial(pol_exact, calibration),
            negative_control=functools.partial(pol_vectorised, calibration=calibration,
                                               factor=POL_CONTROL[calibration]),
            negative_control_note=("half the noise" if POL_CONTROL[calibration] == 0.5 else
                                   f"{POL_CONTROL[calibration]:g} of the noise (half the noise is private after "
                                   f"line 13's clipping: exact "
                                   f"{pol_exact(calibration, 0.5):.2g} < eps; this control's exact epsilon "
                                   f"{pol_exact(calibration, POL_CONTROL[calibration]):.3g} <= 2 eps)"),
            thresholds=Bonferroni(thresholds=(0.5, 0.9, 0.999), events=("upper",), orders=("forward",)),
            calibration=calibration, erratum="online-E05" if calibration == "paper" else "",
            worst_case="online-E05's pair: z_1 = +-z0 moves x_2 to -+1 and the average by 4 (H_T - 1)/T, the "
                       "sensitivity bound 2 L (H_T - 1)/(alpha T) with equality",
            samples=40_000, quick_samples=8_000, chunk=2_000,
        ))
    return cases + whitebox_cases()


# ---------------------------------------------------------------------------
# White-box rows (reference/audit/whitebox.py): the whole released transcript, its LLR, its exact epsilon.
#
# PIGD: the released stream is xtilde_{t+1} = x_{t+1} + N(0, beta^2/t^2) (line 9's projection is post-processing)
# with x_{t+1} computed from the losses alone, so the transcript is a Gaussian shift with a known mean:
# mu^2 = sum_t (t |x_{t+1} - x'_{t+1}| / beta)^2. The ledger records Lemma 4's bound 2L/(alpha t) per round; on
# a bounded C = [-r, r] an alpha-strongly convex L-Lipschitz loss moves x_{s+1} by at most
# min(2r, 2(L - alpha r)/(alpha (s+1))) (its gradient spends alpha r of L across C), and later rounds contract it
# by (s+1)/(t+1): the bound is attained up to the factor (1 - alpha r / L) t/(t+1), from the round s where the
# diameter stops capping. :func:`pigd_search` finds the worst pair over r and s; the row runs it.

WB_PIGD = dict(T=50, eps=1.0, delta=1e-5, alpha=0.01, L=1.0)


def wb_pigd_losses(sign: float, r: float, s: int):
    """The stream: f_s = sign (L - alpha r) x + (alpha/2) x^2, every other f_t = (alpha/2) x^2 (L-Lipschitz on
    [-r, r], alpha-strongly convex)."""
    from ..algorithms.online import QuadraticLoss

    p = WB_PIGD
    g = sign * (p["L"] - p["alpha"] * r)
    rest = QuadraticLoss([0.0], p["alpha"], [0.0])
    return [QuadraticLoss([g], p["alpha"], [0.0]) if t == s else rest for t in range(1, p["T"] + 1)]


def wb_pigd_means(sign: float, r: float, s: int) -> np.ndarray:
    """x_2..x_T of the stream (IGD on the losses alone, x_1 = 0): the means of the released xtilde."""
    from ..algorithms.online import igd
    from ..geometry.sets import L2Ball

    p = WB_PIGD
    run = igd(wb_pigd_losses(sign, r, s), L2Ball(1, r), p["alpha"], x1=np.zeros(1), T=p["T"])
    return np.asarray(run.decisions, dtype=float)[1:p["T"], 0]


def wb_pigd_beta(factor: float = 1.0) -> float:
    from ..algorithms.online import igd_sensitivity, pocp_noise_scale

    p = WB_PIGD
    return factor * pocp_noise_scale(igd_sensitivity(p["L"], p["alpha"]), p["T"], p["eps"], p["delta"], "certified")


def wb_pigd_mu(r: float, s: int, factor: float = 1.0) -> float:
    from .whitebox import gaussian_mu

    t = np.arange(1, WB_PIGD["T"], dtype=float)
    shift = np.abs(wb_pigd_means(1.0, r, s) - wb_pigd_means(-1.0, r, s))
    return gaussian_mu(shift, wb_pigd_beta(factor) / t)


def pigd_search(radii=(1.0, 2.0, 5.0, 10.0, 15.0, 20.0, 30.0, 50.0, 70.0, 100.0)):
    """Worst pair over the radius r of C and the round s of the differing loss: (mu / ledger mu, r, s)."""
    from ..algorithms.online import igd_sensitivity

    p = WB_PIGD
    ledger_mu = math.sqrt(p["T"] - 1) * igd_sensitivity(p["L"], p["alpha"]) / wb_pigd_beta()
    best = (0.0, None, None)
    for r in radii:
        if p["alpha"] * r >= p["L"]:
            continue
        for s in range(1, p["T"]):
            ratio = wb_pigd_mu(r, s) / ledger_mu
            if ratio > best[0]:
                best = (ratio, r, s)
    return best


WB_PIGD_PAIR = dict(r=10.0, s=8)          # pigd_search()'s maximiser (tests/online/test_whitebox.py checks it)


def wb_pigd_one_run(sign, rng, *, beta: float, result: bool = False):
    """One line-by-line run of :func:`reference.algorithms.online.private_igd` on the row's stream."""
    from ..algorithms.online import private_igd
    from ..geometry.sets import L2Ball

    p, q = WB_PIGD, WB_PIGD_PAIR
    res = private_igd(wb_pigd_losses(sign, q["r"], q["s"]), L2Ball(1, q["r"]), p["T"], p["eps"], p["delta"], p["L"],
                      p["alpha"], rng, calibration="certified", x1=np.zeros(1), keep_iterates=True, beta=beta)
    return res if result else res.decisions[1:, 0]


def wb_pigd_vectorised(sign, rng, n, *, beta: float):
    """n runs' released xtilde_2..xtilde_T at once: x_{t+1} from the losses, plus (beta/t) z with run i's T - 1
    draws in row i (the order n line-by-line runs draw them; their projections are the runs' decisions,
    tests/online/test_whitebox.py)."""
    q = WB_PIGD_PAIR
    means = wb_pigd_means(sign, q["r"], q["s"])
    t = np.arange(1, WB_PIGD["T"], dtype=float)
    return means + (beta / t) * rng.standard_normal((n, WB_PIGD["T"] - 1))


def wb_pigd_llr(releases):
    from .whitebox import gaussian_llr

    q = WB_PIGD_PAIR
    t = np.arange(1, WB_PIGD["T"], dtype=float)
    return gaussian_llr(releases, wb_pigd_means(-1.0, q["r"], q["s"]), wb_pigd_means(1.0, q["r"], q["s"]),
                        wb_pigd_beta() / t)


def wb_pigd_exact() -> float:
    from .whitebox import gdp_epsilon

    return gdp_epsilon(wb_pigd_mu(WB_PIGD_PAIR["r"], WB_PIGD_PAIR["s"]), 2 * WB_PIGD["delta"])


def wb_pigd_certified() -> float:
    return wb_pigd_one_run(1.0, np.random.default_rng(0), beta=wb_pigd_beta(), result=True).certified_epsilon


# PrivateSum (Algorithm 5): the released prefix sums, vectorised by the core tree sampler (the same draws in
# the same order as private_sum's nodes, tests/online/test_whitebox.py); T = 16 is a power of two, so the sum of
# the prefix sums at t = 1, 2, 4, 8, 16 is the transcript's LLR and mu = sqrt(k) 2R / sigma exactly.

WB_TREE = dict(T=16, R=1.0, eps=1.0, delta=1e-5)     # mu = 0.27: the regime where 1e6 draws measure mu to 2%


def wb_tree_certified() -> float:
    from ..algorithms.online import PrivateSumTree
    from ..privacy import accounting
    from ..privacy.ledger import Ledger

    p = WB_TREE
    ledger = Ledger()
    PrivateSumTree(p["T"], wb_tree_sigma(), None, bound=p["R"], ledger=ledger)
    return accounting.certify(ledger, p["delta"]).epsilon


def wb_tree_sigma(factor: float = 1.0) -> float:
    from ..algorithms.online import tree_sigma

    p = WB_TREE
    return factor * tree_sigma(p["R"], p["T"], p["eps"], p["delta"], "certified")


def wb_tree_stream(first: float) -> np.ndarray:
    out = np.zeros(WB_TREE["T"])
    out[0] = first
    return out


def wb_tree_vectorised(stream, rng, n, *, sigma: float):
    from .cases_core import tree_vectorised

    return tree_vectorised(stream, rng, n, sigma=sigma, sensitivity=2 * WB_TREE["R"])


def wb_tree_llr(prefix):
    from .cases_core import tree_statistic_batch

    return tree_statistic_batch(prefix)


def wb_tree_exact() -> float:
    from .whitebox import gaussian_mu, gdp_epsilon

    k = WB_TREE["T"].bit_length()           # item 1 lies in k populated nodes (T a power of two)
    return gdp_epsilon(gaussian_mu([2 * WB_TREE["R"]] * k, wb_tree_sigma()), WB_TREE["delta"])


# PQFTL (Algorithm 4): two trees (v v^T and y v) sharing one sigma. The transcript is every noisy node of both;
# item 1 lies in k populated nodes of each (T - 1 = 2^(k-1) items). The ledger records 2 R^2 per node per tree
# (8 R^4 in all); a rank-one PSD item moves its tree by ||v v^T - v' v'^T||_F <= sqrt(2) R^2, and jointly
# ||v v^T - v' v'^T||_F^2 + ||y v - y' v'||^2 <= 4.5 R^4 (|cos(v, v')| = 1/2, y' = -y): :func:`pqftl_search`.

WB_Q = dict(T=9, eps=1.0, delta=1e-5, R=1.0, alpha=1.0, d=2)


def wb_q_item(angle: float, y: float, norm: float = 1.0):
    R = WB_Q["R"]
    return norm * R * np.array([math.cos(angle), math.sin(angle)]), y * R


def pqftl_node_shift2(a, b) -> float:
    """||v v^T - v' v'^T||_F^2 + ||y v - y' v'||^2 for items a = (v, y), b = (v', y')."""
    (v, y), (w, z) = a, b
    return float(np.sum((np.outer(v, v) - np.outer(w, w)) ** 2) + np.sum((y * v - z * w) ** 2))


def pqftl_search(steps: int = 24):
    """Largest per-node squared shift over items on a grid (angle of v', norms of v and v', y and y' in [-R, R],
    v along e_1 by rotation invariance): (value / R^4, item, item')."""
    best = (0.0, None, None)
    grid = np.linspace(-1.0, 1.0, 9)
    for k in range(steps + 1):
        ang = math.pi * k / steps
        for nv in (0.5, 0.75, 1.0):
            for nw in (0.5, 0.75, 1.0):
                for y in grid:
                    for z in grid:
                        a, b = wb_q_item(0.0, y, nv), wb_q_item(ang, z, nw)
                        val = pqftl_node_shift2(a, b) / WB_Q["R"] ** 4
                        if val > best[0]:
                            best = (val, (0.0, float(y), nv), (ang, float(z), nw))
    return best


WB_Q_PAIR = ((0.0, 1.0), (math.pi / 3, -1.0))        # pqftl_search()'s maximiser: angle pi/3, y' = -y


def wb_q_sigma(factor: float = 1.0) -> float:
    from ..algorithms.online import tree_sigma

    p = WB_Q
    return factor * tree_sigma(p["R"] ** 2, p["T"], p["eps"], p["delta"], "certified", trees=2, items=p["T"] - 1)


def wb_q_losses(which: int):
    from ..algorithms.online import SquaredLoss

    v, y = wb_q_item(*WB_Q_PAIR[which])
    zero = SquaredLoss(np.zeros(WB_Q["d"]), 0.0, WB_Q["alpha"])
    return [SquaredLoss(v, y, WB_Q["alpha"])] + [zero] * (WB_Q["T"] - 1)


def _q_layout():
    """The order in which one PQFTL run draws its node noises: per round t = 1..T-1, the V-tree's completed
    nodes (leaf first, then ancestors bottom-up), then the u-tree's. Entries (tree, level, index, offset, size)."""
    d, out, off = WB_Q["d"], [], 0
    for t in range(1, WB_Q["T"]):
        for tree, size in (("V", d * d), ("u", d)):
            h = 0
            while t % (1 << h) == 0:
                out.append((tree, h, t // (1 << h) - 1, off, size))
                off += size
                h += 1
    return out, off


def wb_q_vectorised(which, rng, n, *, sigma: float):
    """n runs' noisy nodes of both trees at once, (n, total) in the run's draw order (tests/online/test_whitebox.py
    rebuilds the decisions from them and compares with line-by-line pqftl runs). Only item 1 is non-zero, so a
    node's exact sum is item 1's contribution when the node holds it, else 0."""
    layout, total = _q_layout()
    v, y = wb_q_item(*WB_Q_PAIR[which])
    mean = np.zeros(total)
    for tree, h, j, off, size in layout:
        if j == 0:                                   # the node [1, 2^h] holds item 1
            mean[off:off + size] = np.outer(v, v).ravel() if tree == "V" else y * v
    return mean + sigma * rng.standard_normal((n, total))


def wb_q_means(which: int) -> np.ndarray:
    return wb_q_vectorised(which, _ZeroRng(), 1, sigma=1.0)[0]


class _ZeroRng:
    def standard_normal(self, shape):
        return np.zeros(shape)


def wb_q_llr(nodes):
    from .whitebox import gaussian_llr

    return gaussian_llr(nodes, wb_q_means(0), wb_q_means(1), wb_q_sigma())


def wb_q_decisions(nodes) -> np.ndarray:
    """The decisions xhat_2..xhat_T the run computes from its noisy nodes (line 9), for the tie test."""
    layout, _ = _q_layout()
    d, a = WB_Q["d"], WB_Q["alpha"]
    noisy = {(tree, h, j): nodes[off:off + size] for tree, h, j, off, size in layout}
    out = []
    for t in range(1, WB_Q["T"]):
        V, u = np.zeros((d, d)), np.zeros(d)
        start = 0
        for h in range(t.bit_length() - 1, -1, -1):      # the dyadic blocks covering [1, t], largest first
            if t & (1 << h):
                j = start >> h
                V = V + noisy[("V", h, j)].reshape(d, d)
                u = u + noisy[("u", h, j)]
                start += 1 << h
        out.append(np.linalg.solve(t * a * np.eye(d) + V, u))
    return np.array(out)


def wb_q_mu(factor: float = 1.0) -> float:
    from .whitebox import gaussian_mu

    k = WB_Q["T"].bit_length()
    shift = math.sqrt(pqftl_node_shift2(wb_q_item(*WB_Q_PAIR[0]), wb_q_item(*WB_Q_PAIR[1])))
    return gaussian_mu([shift] * k, wb_q_sigma(factor))


def wb_q_exact() -> float:
    from .whitebox import gdp_epsilon

    return gdp_epsilon(wb_q_mu(), WB_Q["delta"])


def wb_q_certified() -> float:
    from ..algorithms.online import pqftl

    p = WB_Q
    return pqftl(wb_q_losses(0), p["T"], p["eps"], p["delta"], p["R"], p["alpha"], np.random.default_rng(0),
                 calibration="certified").certified_epsilon


def whitebox_cases() -> list:
    from .whitebox import gaussian_thresholds

    p, q = WB_PIGD, WB_PIGD_PAIR
    mu_ledger = math.sqrt(p["T"] - 1) * 2 * p["L"] / p["alpha"] / wb_pigd_beta()
    pigd = PrivacyCase(
        claim="online:Theorem 3",
        title=f"PIGD (Alg 2) transcript xtilde_2..xtilde_T, T={p['T']}, alpha={p['alpha']}, C=[-{q['r']:g},{q['r']:g}], "
              f"the differing loss at round {q['s']}, certified noise, transcript LLR",
        sampler=functools.partial(wb_pigd_vectorised, beta=wb_pigd_beta()),
        statistic=wb_pigd_llr, dataset=-1.0, neighbour=1.0,
        claimed_epsilon=3 * p["eps"], claimed_delta=2 * p["delta"],
        certify=wb_pigd_certified, exact=wb_pigd_exact, gaussian_mu=mu_ledger,
        negative_control=functools.partial(wb_pigd_vectorised, beta=wb_pigd_beta(0.5)),
        negative_control_note="half the noise (of the certified calibration)",
        thresholds=gaussian_thresholds(wb_pigd_mu(q["r"], q["s"])),
        mu_thresholds=gaussian_thresholds(0.0, midpoint=True),
        samples=1_000_000, quick_samples=100_000, chunk=100_000,
        worst_case="pigd_search over r and s: f_s = +-(L - alpha r) x + (alpha/2) x^2, the rest (alpha/2) x^2",
        calibration="certified", audit="white-box", tightness_target=0.9, erratum="online-E07",
        tightness_note="the ledger's Lemma 4 bound 2L/(alpha t) is not attainable on a bounded C (an alpha-strongly "
                       "convex loss spends alpha r of its Lipschitz constant across C, and the diameter caps the "
                       "early rounds); the worst pair pigd_search finds reaches this exact value",
        in_quick=False,
    )
    r = WB_TREE
    k = r["T"].bit_length()
    tree = PrivacyCase(
        claim="online:Theorem 9",
        title=f"PrivateSum (Alg 5) transcript, T={r['T']}, eps={r['eps']}, delta={r['delta']}, certified, vectorised "
              "tree, transcript LLR",
        sampler=functools.partial(wb_tree_vectorised, sigma=wb_tree_sigma()),
        statistic=wb_tree_llr, dataset=wb_tree_stream(-r["R"]), neighbour=wb_tree_stream(r["R"]),
        claimed_epsilon=r["eps"], claimed_delta=r["delta"],
        certify=wb_tree_certified, exact=wb_tree_exact,
        gaussian_mu=math.sqrt(k) * 2 * r["R"] / wb_tree_sigma(),
        negative_control=functools.partial(wb_tree_vectorised, sigma=wb_tree_sigma(0.5)),
        negative_control_note="half the noise (of the certified calibration)",
        thresholds=Bonferroni(thresholds=(2 * math.sqrt(k) * wb_tree_sigma(), 3 * math.sqrt(k) * wb_tree_sigma()),
                              events=("upper",), orders=("forward",)),
        mu_thresholds=Bonferroni(thresholds=(0.0,), events=("upper",), orders=("forward",)),
        samples=1_000_000, quick_samples=200_000, chunk=250_000,
        worst_case="item 1 = +R vs -R lies in k populated nodes, each moving by 2R (the ledger's sensitivity)",
        calibration="certified", audit="white-box", tightness_target=0.9,
    )
    pq = WB_Q
    pqftl_case = PrivacyCase(
        claim="online:Theorem 7",
        title=f"PQFTL (Alg 4) transcript: every noisy node of both trees, T={pq['T']}, d={pq['d']}, "
              f"({pq['eps']:g}, {pq['delta']:g}), certified, transcript LLR",
        sampler=functools.partial(wb_q_vectorised, sigma=wb_q_sigma()),
        statistic=wb_q_llr, dataset=0, neighbour=1,
        claimed_epsilon=pq["eps"], claimed_delta=pq["delta"],
        certify=wb_q_certified, exact=wb_q_exact,
        gaussian_mu=math.sqrt(2 * pq["T"].bit_length()) * 2 * pq["R"] ** 2 / wb_q_sigma(),
        negative_control=functools.partial(wb_q_vectorised, sigma=wb_q_sigma(0.5)),
        negative_control_note="half the noise (of the certified calibration)",
        thresholds=gaussian_thresholds(wb_q_mu()), mu_thresholds=gaussian_thresholds(0.0, midpoint=True),
        samples=1_000_000, quick_samples=100_000, chunk=50_000,
        worst_case="pqftl_search over items: v at angle pi/3 to v', |v| = |v'| = R, y = R, y' = -R (4.5 R^4 per node)",
        calibration="certified", audit="white-box", tightness_target=0.9, erratum="online-E07",
        tightness_note="the ledger records 2R^2 per node for each tree (8 R^4 jointly); rank-one PSD items move the "
                       "V-tree by at most sqrt(2) R^2 and both trees jointly by at most sqrt(4.5) R^2 "
                       "(pqftl_search), which this exact value reaches",
        in_quick=False,
    )
    return [pigd, tree, pqftl_case]
