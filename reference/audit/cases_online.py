"""Audit rows of paper ``online`` (Jain-Kothari-Thakurta): empirical privacy of whole released streams.

Each row runs the algorithm's own loop once per draw on a worst-case neighbouring pair and maps the
whole released stream to one scalar (the log-likelihood-ratio direction of the pair), with a
negative control at half the noise (the factor 2 a port can lose):

- Algorithm 1 (POCP, Theorem 1) with the extremal OCP algorithm of catalogue P14,
  x_{t+1} = (lam / 2t) s(f_1), s = +-1, whose sensitivity is exactly lam/t at every round, on a set
  so large that the projection never acts: the released stream is exactly Gaussian with
  mu = sqrt(T - 1) lam / beta, and the statistic sum_t t xhat_{t+1} is its likelihood ratio;
- Algorithm 2 (PIGD, Theorem 3) on catalogue P21's pair (f_1 = +-x + (alpha/2) x^2, alpha = 0.01),
  where the printed noise (2L, no 1/alpha) is refuted and the certified noise holds;
- Algorithm 5 (PrivateSum, Theorem 9), item 1 = +-R, the statistic the sum of the prefix sums at
  t = 1, 2, 4, ..., T (exactly the nodes holding item 1);
- Algorithm 6 (POL, Theorem 10) on catalogue P22's pair (z_1 = +-z0), the released point itself.

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


def pocp_losses(sign: float, T: int):
    from ..algorithms.online import QuadraticLoss

    zero = QuadraticLoss([0.0], 0.0, [0.0])
    return [QuadraticLoss([float(sign)], 0.0, [0.0])] + [zero] * (T - 1)


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
# Algorithm 2: catalogue P21's pair


PIGD = dict(T=50, eps=1.0, delta=1e-5, alpha=0.01, r=100.0)


def pigd_losses(sign: float):
    from ..algorithms.online import QuadraticLoss

    p = PIGD
    rest = QuadraticLoss([0.0], p["alpha"], [0.0])
    return [QuadraticLoss([float(sign)], p["alpha"], [0.0])] + [rest] * (p["T"] - 1)


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
# Algorithm 6: catalogue P22's pair, shortened to T = 20


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


def pol_certified(calibration: str) -> float:
    return pol_one_run(1.0, np.random.default_rng(0), calibration=calibration, result=True).certified_epsilon


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
            samples=40_000, quick_samples=8_000, chunk=2_000,
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
            worst_case="catalogue P21: f_1 = +-x + (alpha/2) x^2 moves x_2 by 1/alpha and every later iterate by "
                       "2/(alpha (t+1)); the weights are the likelihood-ratio direction of the unprojected stream",
            samples=20_000, quick_samples=4_000, chunk=1_000,
        ))
    r = TREE
    for calibration in ("paper", "certified"):
        cases.append(PrivacyCase(
            claim="online:Theorem 9",
            title=f"PrivateSum (Alg 5), T={r['T']}, eps={r['eps']}, delta={r['delta']}, natural log, {calibration}",
            sampler=repeat(functools.partial(tree_one_run, calibration=calibration)),
            statistic=per_output(tree_statistic),
            dataset=-r["R"], neighbour=r["R"],
            claimed_epsilon=r["eps"], claimed_delta=r["delta"],
            certify=functools.partial(tree_certified, calibration),
            negative_control=repeat(functools.partial(tree_one_run, calibration=calibration, factor=0.5)),
            negative_control_note="half the noise",
            thresholds=Bonferroni(thresholds=(0.0, 5.0), events=("upper",), orders=("forward",)),
            worst_case="item 1 = +R vs -R lies in floor(log2 T)+1 populated nodes; the statistic sums exactly them",
            samples=100_000, quick_samples=20_000, chunk=5_000,
        ))
    s = POL
    for calibration in ("paper", "certified"):
        cases.append(PrivacyCase(
            claim="online:Theorem 10",
            title=f"POL (Alg 6), T={s['T']}, eps_g={s['eps_g']}, B={s['B']}, z0={s['z0']}, {calibration} noise",
            sampler=repeat(functools.partial(pol_one_run, calibration=calibration)),
            statistic=per_output(_identity),
            dataset=1.0, neighbour=-1.0,
            claimed_epsilon=s["eps"], claimed_delta=s["delta"],
            certify=functools.partial(pol_certified, calibration),
            negative_control=repeat(functools.partial(pol_one_run, calibration=calibration, factor=0.5)),
            negative_control_note="half the noise",
            thresholds=Bonferroni(thresholds=(0.5, 0.9, 0.999), events=("upper",), orders=("forward",)),
            worst_case="catalogue P22: z_1 = +-z0 moves x_2 to -+1 and the average by 4 (H_T - 1)/T, the "
                       "sensitivity bound 2 L (H_T - 1)/(alpha T) with equality",
            samples=40_000, quick_samples=8_000, chunk=2_000,
        ))
    return cases
