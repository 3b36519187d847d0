"""Issue 31's two saddle_point survivors, through ``python -m reference conform`` (examples/saddle_point_ports.py).

- Algorithm 5 with line 7's online-to-batch weight index shifted (alpha_t where the box has alpha_(t+1)) passed every
  output-only property: the output's K <= 100 vertices hid the 0.004 the shift moves x_T by. The case
  paper-weights-d2-n12-K1700-tau1-eps4400-delta1e-300 (K = 1700 vertices, the step 0.80 of the stability cap) rejects
  it: 400 of 400 resampled law checks at the case's alpha 1.7e-4 (1000 runs a side; p 99th percentile 2.6e-7); the
  independent port that weights correctly: 0 of 400 (docs/conformance.md, issue 31 section).
- Algorithm 4's cases passed k_prime in. The case certified-game3x2-n400-beta0.09-line1-counts passes beta only; a port
  computing k' = ceil(log2(4k/beta)) instead of ceil(log2(8k/beta)) runs on 359 records where line 2's split needs
  6 k k' = 360 and the reference refuses: validation rejects it (deterministic: no false-alarm rate).

The law checks use fixed seeds; the reference passes its own case at the case's alpha by construction of its share of
the id's false-alarm budget 1e-3.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys

import numpy as np

P = "examples.saddle_point_ports"
ALG5_CASE = "paper-weights-d2-n12-K1700-tau1-eps4400-delta1e-300"
ALG4_CASE = "certified-game3x2-n400-beta0.09-line1-counts"


def _conform_cli(target: str, algorithm: str, *extra: str):
    root = pathlib.Path(__file__).resolve().parents[1]
    return subprocess.run([sys.executable, "-m", "reference", "conform", target, "--algorithm", algorithm, *extra],
                          cwd=root, capture_output=True, text=True, timeout=900)


def test_algorithm5_with_its_online_to_batch_weight_shifted_exits_1_and_the_port_exits_0():
    wrong = _conform_cli(f"{P}:sco_weight_shifted", "saddle_point:Algorithm 5", "--mode", "law")
    assert wrong.returncode == 1, wrong.stdout[-3000:] + wrong.stderr[-2000:]
    failed = [line for line in wrong.stdout.splitlines() if line.startswith("FAIL  law")]
    assert failed and all(ALG5_CASE in line for line in failed), wrong.stdout[-3000:]
    right = _conform_cli(f"{P}:sco", "saddle_point:Algorithm 5")
    assert right.returncode == 0, right.stdout[-3000:] + right.stderr[-2000:]
    assert ALG5_CASE in right.stdout or "6 cases" in right.stdout


def test_algorithm4_port_with_k_prime_off_exits_1_and_the_port_computing_line_1_exits_0():
    wrong = _conform_cli(f"{P}:boosted_k_prime_4k", "saddle_point:Algorithm 4", "--mode",
                         "validation,feasibility,finite-shape")
    assert wrong.returncode == 1, wrong.stdout[-3000:] + wrong.stderr[-2000:]
    assert f"FAIL  validation    {ALG4_CASE} accepts n = 6 k k' - 1 = 359 records" in wrong.stdout, wrong.stdout[-3000:]
    right = _conform_cli(f"{P}:boosted", "saddle_point:Algorithm 4", "--mode", "validation,feasibility,finite-shape",
                         "--require", "replay")
    assert right.returncode == 0, right.stdout[-3000:] + right.stderr[-2000:]


def test_the_line1_case_leaves_k_and_k_prime_to_the_candidate_and_the_old_cases_still_pass_them():
    """The new case's inputs hold beta and no k, k_prime; the reference computes k = 6, k' = 10 from beta = 0.09
    (line 1 as printed: ceil(log2(4/0.09)) = ceil(5.47), ceil(log2(48/0.09)) = ceil(9.06)); the older cases keep
    theirs (the behaviour they had)."""
    from reference.oracle.suite import cases
    from reference.oracle.vectors import resolve

    mine = {c.name: c for c in cases("saddle_point:Algorithm 4")}
    kw = mine[ALG4_CASE].make_kwargs()
    assert "k" not in kw and "k_prime" not in kw and kw["beta"] == 0.09
    res = resolve(mine[ALG4_CASE].reference)(**kw, rng=np.random.default_rng(0))
    assert (res.k, res.k_prime) == (6, 10)
    assert all("k_prime" in c.make_kwargs() for name, c in mine.items() if name != ALG4_CASE)
