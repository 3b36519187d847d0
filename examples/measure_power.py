"""Measure the law check's power against the wrong variants of the ports, and its false alarms on the ports.

    python -m examples.measure_power [--pool 4] [--repeats 400] [ID_SUBSTRING ...]
    python -m examples.measure_power --scaled-noise [--skip ID ...] [ID_SUBSTRING ...]

For each (candidate, case) of tests/test_example_ports.py (the variants, and the correct ports on the same
cases): one pool of ``pool x n_runs`` statistics drawn from the reference and one from the candidate (fresh
seeds), then ``repeats`` law checks, each on ``n_runs`` values drawn without replacement from each pool
(:func:`reference.oracle.vectors.law_check_power_resampled`'s scheme, for a candidate that is not the reference
at a scaled noise). Prints the fraction rejected at the case's alpha (``case.law_alpha``: its share of the id's
false-alarm budget, docs/conformance.md), and at 1e-3 beside it: the power for a variant, the false-alarm rate
for a correct port. Repeats share draws, so the estimate varies more than a binomial proportion of independent
repeats would.

``--scaled-noise``: instead of the ports, every algorithm case with a law check and a noise knob
(``VectorCase.noise_knob``), the candidate being the reference at 0.8 x its noise
(:class:`reference.oracle.vectors.ScaledNoise`): the power table of docs/conformance.md ("The algorithm
cases"), at each case's alpha. ``--skip`` leaves out whole ids.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from reference.oracle.suite import cases
from reference.oracle.vectors import ScaledNoise, resolve, two_sample_p_value


def resampled_p_values(case, candidate, pool: int = 4, repeats: int = 400, seed: int = 7) -> np.ndarray:
    """The p-values of ``repeats`` resampled law checks (1.0 where both samples are one constant)."""
    runs = case.n_runs
    kwargs = case.make_kwargs()
    children = np.random.SeedSequence(seed).spawn(2 * pool * runs)

    def sample(fn, seeds):
        return np.array([float(case.statistic(case.output(fn(**kwargs, rng=np.random.default_rng(s))))) for s in seeds])

    ours = sample(resolve(case.reference), children[:pool * runs])
    theirs = sample(candidate, children[pool * runs:])
    gen = np.random.default_rng(seed)
    out = []
    for _ in range(repeats):
        p_value, test = two_sample_p_value(gen.choice(ours, runs, replace=False), gen.choice(theirs, runs, replace=False))
        out.append(p_value if test is not None else 1.0)
    return np.array(out)


def resampled_rejections(case, candidate, pool: int = 4, repeats: int = 400, alpha: float | None = None,
                         seed: int = 7):
    alpha = case.law_alpha if alpha is None else alpha
    p_values = resampled_p_values(case, candidate, pool, repeats, seed)
    return int(np.sum(p_values < alpha)), repeats


def main(argv=None) -> int:
    from tests.test_example_ports import PORTS, VARIANTS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("only", nargs="*")
    parser.add_argument("--pool", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=400)
    parser.add_argument("--ports", action="store_true", help="only the correct ports (false alarms)")
    parser.add_argument("--scaled-noise", action="store_true",
                        help="the algorithm cases against the reference at 0.8 x the noise")
    parser.add_argument("--skip", nargs="*", default=[], help="with --scaled-noise: ids left out")
    args = parser.parse_args(argv)
    if args.scaled_noise:
        jobs = [("0.8 x noise", c.algorithm, c.name) for c in cases()
                if not c.algorithm.startswith("core:") and c.statistic is not None and c.noise_knob is not None
                and c.algorithm not in args.skip]
    else:
        jobs = [] if args.ports else [(t, algorithm, case_name) for t, (algorithm, case_name, _) in VARIANTS.items()]
        jobs += [(target, algorithm, case_name) for target, algorithm, case_name in PORTS.values()]
    for target, algorithm, case_name in jobs:
        if args.only and not any(s in target or s in algorithm for s in args.only):
            continue
        (case,) = [c for c in cases(algorithm) if c.name == case_name]
        start = time.process_time()
        candidate = ScaledNoise(case, 0.8) if args.scaled_noise else resolve(target)
        try:
            p_values = resampled_p_values(case, candidate, args.pool, args.repeats)
        except Exception as exc:      # e.g. no 0.8 x candidate: the knob leaves the algorithm's domain
            print(f"{target:50} {algorithm:26} {case_name:42} not measured: {type(exc).__name__}: {exc}", flush=True)
            continue
        rejected, at_1e3 = int(np.sum(p_values < case.law_alpha)), int(np.sum(p_values < 1e-3))
        print(f"{target:50} {algorithm:26} {case_name:42} rejected {rejected:4d} / {args.repeats} at alpha "
              f"{case.law_alpha:.2g} ({at_1e3} at 1e-3; 1st percentile of p {np.quantile(p_values, 0.01):.2g}, 99th "
              f"{np.quantile(p_values, 0.99):.2g}) runs {case.n_runs} pool {args.pool} "
              f"cpu {time.process_time() - start:.0f}s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
