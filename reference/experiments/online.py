"""Section 5 of paper ``online`` on synthetic data the package generates (no download).

5.1 Online linear regression with PQFTL (Algorithm 4) against QFTL, eq. (19) with alpha = 1: the paper's
synthetic set (d = 10, x* fixed, g_t Gaussian, y_t = g_t^T x* + noise of "standard variance 0.01", T = 10^5).
Algorithm 4 needs public bounds ||v_t|| <= R, |y_t| <= R, so the generator scales each g_t into the unit
ball (g_t ~ N(0, I/d), divided by max(1, ||g_t||)), takes ||x*|| = 1 and y_t clipped to [-1, 1]: R = 1 (a
property of the data set, stated here, not a clip inside the algorithm; catalogue A20). Reported: the
average regret R(T)/T against the best fixed x in hindsight (exact ridge), for each eps, both calibrations,
with the epsilon the accountant certifies for the paper's noise. delta = 0.01 (the paper does not say).

5.2 Online logistic regression with PIGD (Algorithm 2) against IGD: the Forest covertype data are not
shipped by any registry package here, so a synthetic stand-in is generated: a_t uniform in the unit ball of
R^10, labels from a logistic model with ||w*|| = 4, f_t = ln(1 + e^{-y a^T x}) + (alpha/2)||x||^2 with
alpha = 0.01 on the ball of radius 1/alpha (where the unconstrained prox stays); accuracy of the last
released point on 10^4 held-out points, mean of the runs; eps in {0.1, 1, 10, 20}, delta = 0.01, as the
paper's table.
"""

from __future__ import annotations

import math

import numpy as np

from ..algorithms import online as ol
from ..geometry.sets import L2Ball

PAPER_TABLE = {"IGD": 68.1, 20.0: 66.3, 10.0: 62.7, 1.0: 59.4, 0.1: 58.3}


def olr_data(T: int, rng, d: int = 10):
    x_star = rng.standard_normal(d)
    x_star /= np.linalg.norm(x_star)
    g = rng.standard_normal((T, d)) / math.sqrt(d)
    g /= np.maximum(1.0, np.linalg.norm(g, axis=1))[:, None]
    y = np.clip(g @ x_star + 0.01 * rng.standard_normal(T), -1.0, 1.0)
    return [ol.SquaredLoss(g[t], y[t], 1.0) for t in range(T)]


def olr_table(T: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    fs = olr_data(T, rng)
    rows = [("QFTL (non-private)", "-", ol.regret(fs, ol.qftl(fs, 1.0, d=10).decisions) / T, "-")]
    for eps in (0.01, 0.1, 1.0, 10.0):
        for cal in ("paper", "certified"):
            res = ol.pqftl(fs, T, eps, 0.01, 1.0, 1.0, np.random.default_rng(seed + 1), calibration=cal)
            rows.append((f"PQFTL {cal}", eps, ol.regret(fs, res.decisions) / T, res.certified_epsilon))
    return rows


def logistic_data(n: int, rng, d: int = 10, w_norm: float = 4.0, w=None):
    if w is None:
        w = rng.standard_normal(d)
        w *= w_norm / np.linalg.norm(w)
    a = rng.standard_normal((n, d))
    a *= (rng.random(n) ** (1.0 / d) / np.linalg.norm(a, axis=1))[:, None]
    y = np.where(rng.random(n) < 1.0 / (1.0 + np.exp(-a @ w)), 1.0, -1.0)
    return a, y, w


def logistic_table(T: int, runs: int = 3, seed: int = 0, alpha: float = 0.01):
    rng = np.random.default_rng(seed)
    d = 10
    C = L2Ball(d, 1.0 / alpha)
    L = 1.0 + alpha * (1.0 / alpha)
    out = {}
    for r in range(runs):
        a, y, w = logistic_data(T, rng, d)
        at, yt, _ = logistic_data(10_000, rng, d, w=w)
        fs = [ol.LogisticLoss(a[t], y[t], alpha) for t in range(T)]
        acc = lambda x: 100.0 * float(np.mean(np.sign(at @ x) == yt))
        out.setdefault(("IGD", "-"), []).append(acc(ol.igd(fs, C, alpha, x1=np.zeros(d)).decisions[-1]))
        for eps in (20.0, 10.0, 1.0, 0.1):
            for cal in ("paper", "certified"):
                res = ol.private_igd(fs, C, T, eps, 0.01, L, alpha, np.random.default_rng(seed + 100 * r + 1),
                                     calibration=cal, x1=np.zeros(d), keep_iterates=False)
                out.setdefault((f"PIGD {cal}", eps), []).append(acc(res.decisions[-1]))
                out.setdefault((f"PIGD {cal} certified eps", eps), []).append(res.certified_epsilon)
        out.setdefault(("majority class", "-"), []).append(100.0 * max(float(np.mean(yt == 1.0)),
                                                                        float(np.mean(yt == -1.0))))
    return out


EPS_51 = (0.01, 0.1, 1.0, 10.0)
EPS_52 = (20.0, 10.0, 1.0, 0.1)


def section5_numbers(quick: bool = False, seed: int = 0) -> dict:
    """The numbers behind Figure 2 (a) and the covertype table (Figure 2 (c)), with trivial baselines.

    5.1: average regret R(T)/T of QFTL, of PQFTL (both calibrations, with the epsilon the accountant certifies
    for the noise drawn), of the same PQFTL decisions projected onto the ball ||x|| <= min(R/(2 sqrt alpha),
    R^2/alpha) that holds every QFTL iterate (post-processing: same privacy), and of predicting 0.
    5.2: accuracy of IGD, PIGD (both calibrations, certified epsilon at 2 delta) and of the majority class.
    Figure 2 (b) (YearPrediction, d = 90, T ~ 4.6e5) is not reproduced: no registry package ships the data.
    """
    T1 = 10_000 if quick else 100_000
    T2 = 5_000 if quick else 50_000
    rng = np.random.default_rng(seed)
    fs = olr_data(T1, rng)
    d, R, alpha = 10, 1.0, 1.0
    bx = min(R / (2 * math.sqrt(alpha)), R * R / alpha)
    rows = []
    for eps in EPS_51:
        for cal in ("paper", "certified"):
            res = ol.pqftl(fs, T1, eps, 0.01, R, alpha, np.random.default_rng(seed + 1), calibration=cal)
            norms = np.maximum(np.linalg.norm(res.decisions, axis=1), 1e-300)
            projected = res.decisions * np.minimum(1.0, bx / norms)[:, None]
            rows.append({"eps": eps, "calibration": cal, "avg_regret": ol.regret(fs, res.decisions) / T1,
                         "projected_avg_regret": ol.regret(fs, projected) / T1,
                         "certified_epsilon": res.certified_epsilon})
    fig2a = {"T": T1, "d": d, "delta": 0.01, "qftl": ol.regret(fs, ol.qftl(fs, alpha, d=d).decisions) / T1,
             "predict_zero": ol.regret(fs, np.zeros((T1, d))) / T1, "paper_order": 1e-2, "rows": rows}
    tab = logistic_table(T2, runs=2 if quick else 3, seed=seed)
    cover = {"T": T2, "delta": 0.01, "igd": float(np.mean(tab[("IGD", "-")])),
             "majority": float(np.mean(tab[("majority class", "-")])), "paper_igd": PAPER_TABLE["IGD"],
             "rows": [{"eps": eps, "calibration": cal, "accuracy": float(np.mean(tab[(f"PIGD {cal}", eps)])),
                       "certified_epsilon": float(np.mean(tab[(f"PIGD {cal} certified eps", eps)])),
                       "paper": PAPER_TABLE[eps]} for eps in EPS_52 for cal in ("paper", "certified")]}
    return {"quick": quick, "seed": seed, "fig2a": fig2a, "covertype": cover}


def draw_figures(numbers: dict, outdir) -> list[str]:
    """Figure 2 (a) and the covertype panel (c) as PNG files in ``outdir`` from :func:`section5_numbers`'s
    output (deterministic: no timestamps in the files). Needs matplotlib (the ``plots`` extra)."""
    import os

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(outdir, exist_ok=True)
    meta = {"Software": None}
    a = numbers["fig2a"]
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for cal, style in (("paper", "o-"), ("certified", "s-")):
        rs = [r for r in a["rows"] if r["calibration"] == cal]
        ax.plot([r["eps"] for r in rs], [r["avg_regret"] for r in rs], style, label=f"PQFTL {cal}")
        ax.plot([r["eps"] for r in rs], [r["projected_avg_regret"] for r in rs], style.replace("-", "--"),
                label=f"PQFTL {cal}, projected")
    ax.axhline(a["qftl"], color="k", lw=1, label="QFTL (non-private)")
    ax.axhline(a["predict_zero"], color="r", lw=1, ls=":", label="predict 0")
    ax.axhline(a["paper_order"], color="g", lw=1, ls="-.", label="paper: ~1e-2")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("epsilon")
    ax.set_ylabel("average regret R(T)/T")
    ax.set_title(f"Figure 2 (a): synthetic, d = {a['d']}, T = {a['T']}, delta = {a['delta']}")
    ax.legend(fontsize=7)
    fig.tight_layout()
    p1 = os.path.join(outdir, "online_fig2a.png")
    fig.savefig(p1, dpi=80, metadata=meta)
    plt.close(fig)
    c = numbers["covertype"]
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    x = np.arange(len(EPS_52))
    paper = [next(r["paper"] for r in c["rows"] if r["eps"] == e) for e in EPS_52]
    ax.bar(x - 0.27, paper, 0.27, label="paper (covertype)")
    for k, cal in enumerate(("paper", "certified")):
        acc = [next(r["accuracy"] for r in c["rows"] if r["eps"] == e and r["calibration"] == cal) for e in EPS_52]
        ax.bar(x + 0.27 * k, acc, 0.27, label=f"PIGD {cal} (stand-in)")
    ax.axhline(c["igd"], color="k", lw=1, label="IGD (stand-in)")
    ax.axhline(c["majority"], color="r", lw=1, ls=":", label="majority class")
    ax.set_xticks(x, [f"eps = {e:g}" for e in EPS_52])
    ax.set_ylim(40, 80)
    ax.set_ylabel("accuracy (%)")
    ax.set_title(f"Figure 2 (c): logistic stand-in, T = {c['T']}")
    ax.legend(fontsize=7)
    fig.tight_layout()
    p2 = os.path.join(outdir, "online_covertype.png")
    fig.savefig(p2, dpi=80, metadata=meta)
    plt.close(fig)
    return [p1, p2]


def run(quick: bool = False, plots: str | None = None) -> str:
    """The report (Markdown tables); with ``plots`` a directory, also writes the numbers
    (online_section5.json) and the figures there."""
    import json
    import os

    num = section5_numbers(quick)
    a, c = num["fig2a"], num["covertype"]
    lines = [f"## Section 5.1 (Figure 2 (a)): online linear regression, synthetic, d = 10, T = {a['T']}, "
             "delta = 0.01", "",
             "| method | eps | average regret R(T)/T | projected onto ||x|| <= 1/2 | certified eps of the noise drawn |",
             "|---|---|---|---|---|",
             f"| QFTL (non-private) | - | {a['qftl']:.4g} | - | - |",
             f"| predict 0 (data-blind) | - | {a['predict_zero']:.4g} | - | - |"]
    for r in a["rows"]:
        lines.append(f"| PQFTL {r['calibration']} | {r['eps']:g} | {r['avg_regret']:.4g} | "
                     f"{r['projected_avg_regret']:.4g} | {r['certified_epsilon']:.4g} |")
    lines += ["", f"## Section 5.2 (Figure 2 (c)): online logistic regression (synthetic stand-in for covertype), "
              f"T = {c['T']}, delta = 0.01, accuracy of the last released point (%)", "",
              "| method | eps | measured accuracy | paper's table (covertype) | certified eps (at 2 delta; claim 3 eps) |",
              "|---|---|---|---|---|",
              f"| IGD (non-private) | - | {c['igd']:.1f} | {c['paper_igd']} | - |",
              f"| majority class (data-blind) | - | {c['majority']:.1f} | - | - |"]
    for r in c["rows"]:
        lines.append(f"| PIGD {r['calibration']} | {r['eps']:g} | {r['accuracy']:.1f} | "
                     f"{r['paper'] if r['calibration'] == 'paper' else ''} | {r['certified_epsilon']:.4g} |")
    report = "\n".join(lines) + "\n"
    if plots:
        os.makedirs(plots, exist_ok=True)
        with open(os.path.join(plots, "online_section5.json"), "w", encoding="utf-8") as fh:
            json.dump(num, fh, indent=1, sort_keys=True)
        for path in draw_figures(num, plots):
            report += f"\nwrote {path}"
        report += "\n"
    return report
