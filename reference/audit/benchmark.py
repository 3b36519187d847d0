"""Power and tightness benchmark of the auditor (the table in docs/audit.md).

    python -m reference.audit.benchmark [--seeds 5]

Measures, over a few fixed seeds: the Laplace lower bound at epsilon 1 with 10^6
draws per side (target >= 0.98), the Gaussian-DP estimate for a Gaussian mechanism
calibrated exactly to (1, 1e-5) (target >= 0.97 of the true epsilon) and what the
direct (epsilon, delta) test reaches, the exact exponential-mechanism profile
over 2p = 2000 vertices, and the time of 10^6 vectorised draws per mechanism.
Not a test: speed depends on the machine (run it with ``nice`` on a shared one).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from .cases import Bonferroni, HeldOut
from .stats import distinguish, gaussian_epsilon

BETA = 0.05
N = 1_000_000


def _laplace(seed: int, rule) -> float:
    from ..privacy.mechanisms import laplace_mechanism

    rng = np.random.default_rng(seed)
    x = laplace_mechanism(0.0, 1.0, 1.0, rng, n_draws=N)
    y = laplace_mechanism(1.0, 1.0, 1.0, rng, n_draws=N)
    return distinguish(x, y, delta=0.0, beta=BETA, rule=rule).epsilon_lower_bound


def _gaussian(seed: int) -> dict:
    from ..privacy.accounting import analytic_gaussian_sigma
    from ..privacy.mechanisms import gaussian_mechanism

    delta = 1e-5
    sigma = analytic_gaussian_sigma(1.0, delta, 1.0)
    rng = np.random.default_rng(seed)
    x = gaussian_mechanism(0.0, 1.0, sigma, rng, n_draws=N)
    y = gaussian_mechanism(1.0, 1.0, sigma, rng, n_draws=N)
    mid = Bonferroni(thresholds=(0.5,), events=("upper",), orders=("forward",))
    mu_alone = distinguish(x, y, delta=delta, beta=BETA, rule=mid, criterion="mu").mu_lower_bound
    mu_audit = distinguish(x, y, delta=delta, beta=BETA / 2, rule=mid, criterion="mu").mu_lower_bound
    tails = Bonferroni(thresholds=tuple(0.5 + k * sigma for k in (1.5, 2.0, 2.5, 3.0, 3.5)),
                       events=("upper",), orders=("forward",))
    direct = distinguish(x, y, delta=delta, beta=BETA, rule=tails).epsilon_lower_bound
    held = distinguish(x, y, delta=delta, beta=BETA, rule=HeldOut()).epsilon_lower_bound
    return {"mu": 1.0 / sigma, "gdp_eps_alone": gaussian_epsilon(delta, mu_alone),
            "gdp_eps_audit": gaussian_epsilon(delta, mu_audit), "direct": direct, "held_out": held}


def _timing() -> dict:
    from ..privacy import mechanisms as m

    rng = np.random.default_rng(0)
    calls = {
        "laplace_mechanism": lambda: m.laplace_mechanism(0.0, 1.0, 1.0, rng, n_draws=N),
        "gaussian_mechanism": lambda: m.gaussian_mechanism(0.0, 1.0, 3.7, rng, n_draws=N),
        "exponential_mechanism (2000 candidates)": lambda: m.exponential_mechanism(np.zeros(2000), 1.0, 1.0, rng,
                                                                                  n_draws=N),
        "report_noisy_max laplace (2 candidates)": lambda: m.report_noisy_max(np.zeros(2), 1.0, 2.0, rng, n_draws=N),
        "report_noisy_max gumbel (10 candidates)": lambda: m.report_noisy_max(np.zeros(10), 1.0, 2.0, rng,
                                                                             noise="gumbel", n_draws=N),
    }
    out = {}
    for name, call in calls.items():
        call()
        best = np.inf
        for _ in range(3):
            start = time.perf_counter()
            call()
            best = min(best, time.perf_counter() - start)
        out[name] = best
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args(argv)
    seeds = range(args.seeds)
    fixed = Bonferroni(thresholds=(1.0,), events=("upper",), orders=("forward",))
    audit_rule = Bonferroni(thresholds=(0.0, 1.0))
    for name, rule in (("fixed t = Delta", fixed), ("Bonferroni, 8 tests (audit rule)", audit_rule),
                       ("held-out 10%", HeldOut())):
        values = [_laplace(s, rule) for s in seeds]
        print(f"Laplace eps=1, N=1e6/side, {name}: min {min(values):.4f}  median {np.median(values):.4f}")
    g = [_gaussian(s) for s in seeds]
    for key, label in (("gdp_eps_alone", "GDP estimate (mu test alone, level 0.05)"),
                       ("gdp_eps_audit", "GDP estimate (audit: level 0.025)"),
                       ("direct", "direct (eps, delta) test, 5 declared tail thresholds"),
                       ("held_out", "direct (eps, delta) test, held-out 10%")):
        values = [r[key] for r in g]
        print(f"Gaussian (1, 1e-5), N=1e6/side, {label}: min {min(values):.4f}  median {np.median(values):.4f}")
    from .cases_core import exponential_pair
    from .exact import exact_epsilon

    start = time.perf_counter()
    p, q = exponential_pair(1000, 1.0, 1.0)
    eps = exact_epsilon(p, q, 0)
    print(f"Exponential mechanism, 2p = 2000 vertices, exact epsilon {float(eps):.6f} "
          f"(claim 1) in {time.perf_counter() - start:.2f} s")
    for name, seconds in _timing().items():
        print(f"10^6 draws, {name}: {seconds:.3f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
