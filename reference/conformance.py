"""The oracle harness: check another implementation against the reference.

``python -m reference conform MODULE:FUNCTION --algorithm ID`` runs, for every
test-vector case of the algorithm id (see :mod:`reference.vector_cases`):

1. **replay**: the candidate is called with the case's inputs and a
   :class:`~reference.rng.ReplayRng` holding the exact draws the reference consumed;
   its output must equal the reference's within the case's tolerance. This is the
   check for an implementation that follows the pseudocode and consumes randomness in
   the same order (a port, a vectorised rewrite).
2. **distribution**: the candidate and the reference are each run many times with
   fresh seeds; a two-sample test at a stated alpha compares the law of a scalar
   statistic of their outputs. This is the check for a black box that draws its noise
   its own way.
3. **privacy** (cases that name their worst neighbouring input): an empirical
   distinguishability audit of the candidate itself at that pair, and beside it the same
   audit of the reference at half its noise, which must be flagged (else the check is
   reported as having no power and fails).

A candidate passes when every case passes the distribution check, and the replay
check where it consumes draws as the reference does (``--mode`` chooses).
The same checks run under pytest: ``pytest tests/test_conformance.py --impl MODULE:FUNCTION
--impl-algorithm ID``.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

from .vectors import ScaledNoise, cases, distribution_check, privacy_check, replay, resolve, run_case


@dataclass(frozen=True)
class ConformanceRow:
    algorithm: str
    case: str
    check: str
    passed: bool
    detail: str


def check_implementation(target: str, algorithm: str, mode: str = "both", n_runs: int | None = None,
                         alpha: float = 1e-3) -> list[ConformanceRow]:
    function = resolve(target)
    rows = []
    for case in cases(algorithm):
        if mode in ("both", "replay"):
            ok, detail = replay(run_case(case), case, function)
            rows.append(ConformanceRow(case.algorithm, case.name, "replay", ok, detail))
        if mode in ("both", "distribution") and case.statistic is not None:
            ok, _, detail = distribution_check(case, function, n_runs=n_runs, alpha=alpha)
            rows.append(ConformanceRow(case.algorithm, case.name, "distribution", ok, detail))
        if mode in ("both", "privacy") and case.neighbour is not None:
            ok, _, detail = privacy_check(case, function)
            # The same check on the reference at half its noise: it must flag that, or it has no power here.
            control_ok, _, control = privacy_check(case, ScaledNoise(case, 0.5))
            detail += f"; control (reference at 0.5 x noise): {control} -> {'missed' if control_ok else 'flagged'}"
            rows.append(ConformanceRow(case.algorithm, case.name, "privacy", ok and not control_ok, detail))
    return rows


def run_conform_command(args: argparse.Namespace) -> int:
    mode = getattr(args, "mode", "both") or "both"
    rows = check_implementation(args.target, args.algorithm, mode=mode)
    for row in rows:
        mark = "PASS" if row.passed else "FAIL"
        print(f"{mark}  {row.algorithm:<32} {row.case:<28} {row.check:<13} {row.detail}")
    failed = sum(not r.passed for r in rows)
    print(f"\n{len(rows) - failed} of {len(rows)} checks passed", file=sys.stderr)
    return 1 if failed else 0
