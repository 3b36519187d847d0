"""The accountant's cost at ledger shapes a user meets: CPU seconds and peak memory of ``certify``.

    python -m examples.benchmark_accountant [--peer] [--only NAME]

Each ledger is certified in a fresh subprocess (so the peak resident memory is that one certificate's, and no
cache carries over), at delta = 1e-5. With ``--peer`` (needs the ``crosscheck`` extra: dp-accounting), Google's
dp-accounting pessimistic PLD certifies the same ledger in its own subprocess, under a time limit, and the ratio
of our epsilon to its is printed. A benchmark, not a test: its numbers go in docs/accountant.md ("Cost").
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

DELTA = 1e-5
#: the ledgers: name -> (kind, number of events, number of distinct parameters)
LEDGERS = {
    "laplace 1e5 homogeneous": ("laplace", 100_000, 1),
    "gaussian 1e5 homogeneous": ("gaussian", 100_000, 1),
    "pure 1e5 homogeneous": ("pure", 100_000, 1),
    "mixed 1e5 homogeneous": ("mixed", 100_000, 1),
    "laplace 1e5 b = 10": ("laplace", 100_000, 0),
    "mixed 1e5 b = sigma = 10": ("mixed", 100_000, 0),
    "laplace 1e5 x 1e3 distinct": ("laplace", 100_000, 1000),
    "pure 1e5 x 1e3 distinct": ("pure", 100_000, 1000),
    "mixed 1e5 x 1e3 distinct": ("mixed", 100_000, 1000),
}


def _parameters(kind: str, events: int, distinct: int):
    """(kind of each event, its parameter) for the ledger: Laplace scales b_i with sensitivity 1 (eps_i = 1/b_i
    between 0.002 and 0.02), pure epsilons in the same range, Gaussian sigmas giving mu_i = 0.002 .. 0.02; the
    mixed ledger alternates the three kinds. ``distinct = 0``: every parameter 0.1 (b = sigma = 10, the
    long-ledger rows of docs/accountant.md, whose epsilon is in the hundreds)."""
    out = []
    for i in range(events):
        j = i % max(distinct, 1)
        eps = 0.1 if distinct == 0 else 0.002 + 0.018 * (j / max(distinct - 1, 1))
        k = kind if kind != "mixed" else ("laplace", "gaussian", "pure")[i % 3]
        out.append((k, eps))
    return out


def _ours(name: str) -> dict:
    import resource

    from reference.privacy.accounting import certify
    from reference.privacy.ledger import Ledger, MechanismEvent

    ledger = Ledger()
    for k, eps in _parameters(*LEDGERS[name]):
        if k == "laplace":
            ledger.record(MechanismEvent("laplace", 1.0, "l1", noise_scale=1.0 / eps))
        elif k == "gaussian":
            ledger.record(MechanismEvent("gaussian", 1.0, "l2", noise_scale=1.0 / eps))
        else:
            ledger.record(MechanismEvent("pure", 1.0, "l1", epsilon=eps))
    start = time.process_time()
    cert = certify(ledger, DELTA)
    cpu = time.process_time() - start
    return {"epsilon": cert.epsilon, "method": cert.method, "cpu": cpu,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def _peer(name: str) -> dict:
    """dp-accounting's pessimistic PLD of the same ledger, built as its users build one: a PLD per distinct
    event (sensitivity 1, the ledger's own replace-one sensitivity; pure steps as (eps, 0)-DP parameters),
    self-composed by its count, composed together, epsilon read at DELTA (value discretisation 1e-4)."""
    import resource
    from collections import Counter

    from dp_accounting.pld import common
    from dp_accounting.pld import privacy_loss_distribution as dpl

    groups = Counter(_parameters(*LEDGERS[name]))
    start = time.process_time()
    total = None
    for (k, eps), count in groups.items():
        if k == "laplace":
            one = dpl.from_laplace_mechanism(1.0 / eps, sensitivity=1.0, pessimistic_estimate=True,
                                             value_discretization_interval=1e-4)
        elif k == "gaussian":
            one = dpl.from_gaussian_mechanism(1.0 / eps, sensitivity=1.0, pessimistic_estimate=True,
                                              value_discretization_interval=1e-4)
        else:
            one = dpl.from_privacy_parameters(common.DifferentialPrivacyParameters(eps, 0.0),
                                              value_discretization_interval=1e-4)
        one = one.self_compose(count)
        total = one if total is None else total.compose(one)
    epsilon = total.get_epsilon_for_delta(DELTA)
    cpu = time.process_time() - start
    return {"epsilon": epsilon, "cpu": cpu, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def _run(which: str, name: str, timeout: float) -> dict:
    code = f"import json; from examples.benchmark_accountant import _{which}; print(json.dumps(_{which}({name!r})))"
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"stopped after {timeout:.0f} s"}
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", action="store_true", help="also run dp-accounting (the crosscheck extra)")
    parser.add_argument("--only", help="one ledger by name (substring)")
    parser.add_argument("--timeout", type=float, default=150.0, help="seconds allowed to each peer run")
    args = parser.parse_args(argv)
    if args.peer:
        import importlib.util

        if importlib.util.find_spec("dp_accounting") is None:
            print("error: --peer needs the optional 'crosscheck' extra (dp-accounting): "
                  "pip install 'dp-optimization-reference[crosscheck]'", file=sys.stderr)
            return 2
    names = [n for n in LEDGERS if args.only is None or args.only in n]
    print(f"{'ledger':<30} {'epsilon':>12} {'CPU s':>7} {'peak MB':>8}  method"
          + ("   | peer epsilon   CPU s  peak MB  ours/peer" if args.peer else ""))
    for name in names:
        ours = _run("ours", name, 600.0)
        if "error" in ours:
            line = f"{name:<30} {ours['error']}"
        else:
            line = (f"{name:<30} {ours['epsilon']:>12.6f} {ours['cpu']:>7.2f} {ours['peak_mb']:>8.0f}  "
                    f"{ours['method']}")
        if args.peer:
            peer = _run("peer", name, args.timeout)
            if "error" in peer:
                line += f"   | peer: {peer['error']}"
            else:
                ratio = ours.get("epsilon", float("nan")) / peer["epsilon"]
                line += f"   | {peer['epsilon']:>12.6f} {peer['cpu']:>7.2f} {peer['peak_mb']:>8.0f}  {ratio:.6f}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
