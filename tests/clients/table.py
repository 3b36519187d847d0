"""Measure the TF Privacy table of docs/conformance.md: every adapter of tfp_adapters.py through conform.

    python -m tests.clients.table [--json FILE] [--only NAME,...] [--mode MODE]

Runs ``check_implementation`` (conform's default properties, privacy audit included unless ``--mode`` says
otherwise) on each candidate one after the other (TF runs one at a time on the shared machine) and prints one
markdown row per candidate: the exit verdict, the law check's p per case, the privacy audit, zero-noise,
validation and the properties that failed, with the CPU seconds of the run. Needs the ``clients`` extra.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings


def candidates():
    from . import tfp_adapters as A

    core, alg5 = "core:private_prefix_sums", "online:Algorithm 5"
    return [
        ("TreeAggregator", A.tree_aggregator_prefix_sums, core),
        ("TreeCumulativeSumQuery (use_efficient=False)", A.query_prefix_sums, core),
        ("EfficientTreeAggregator", A.efficient_tree_aggregator_prefix_sums, core),
        ("TreeCumulativeSumQuery (default use_efficient=True)", A.efficient_query_prefix_sums, core),
        ("TreeAggregator, half the noise (wrong)", A.tree_aggregator_prefix_sums_half_noise, core),
        ("TreeAggregator, noise seeded by level (wrong)", A.tree_aggregator_prefix_sums_level_noise, core),
        ("TreeAggregator, stepped once before item 1 (wrong)", A.tree_aggregator_prefix_sums_shifted, core),
        ("TreeCumulativeSumQuery (use_efficient=False)", A.query_private_sum, alg5),
        ("TreeCumulativeSumQuery (default use_efficient=True)", A.efficient_query_private_sum, alg5),
        ("TreeCumulativeSumQuery, half noise_multiplier (wrong)", A.query_private_sum_half_noise, alg5),
        ("TreeAggregator", A.tree_aggregator_private_sum, alg5),
        ("TreeAggregator, noise seeded by level (wrong)", A.tree_aggregator_private_sum_level_noise, alg5),
        ("TreeAggregator, stepped once before item 1 (wrong)", A.tree_aggregator_private_sum_shifted, alg5),
    ]


def _detail(verdict: dict) -> str:
    return verdict.get("detail", "").replace("|", "/").replace("\n", " ")


def run(only=None, mode="all") -> list[dict]:
    from reference.errors import PrivacyWarning
    from reference.oracle.conform import check_implementation

    out = []
    for name, fn, algorithm in candidates():
        if only and fn.__name__ not in only:
            continue
        t0 = time.process_time()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PrivacyWarning)
            report = check_implementation(fn, algorithm, mode=mode, as_json=True)
        cpu = time.process_time() - t0
        verdicts = {v["property"]: v for v in report["properties"]}
        row = {"candidate": name, "function": fn.__name__, "algorithm": algorithm, "passed": report["passed"],
               "failed": report.get("failed"), "cpu_s": round(cpu, 1),
               "verdicts": {p: {"verdict": v["verdict"], "detail": _detail(v)} for p, v in verdicts.items()},
               "checks": [c for c in report.get("checks", []) if not c.get("ok", True)]}
        out.append(row)
        print(f"| {name} | {algorithm} | {'exit 0' if report['passed'] else 'exit 1'} | "
              + " | ".join(f"{p}: {verdicts[p]['verdict']}" for p in ("law", "privacy", "zero-noise", "validation")
                           if p in verdicts)
              + f" | failed: {report.get('failed')} | {cpu:.0f} s |", flush=True)
        print("    law: " + _detail(verdicts.get("law", {})), flush=True)
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--json", default=None)
    p.add_argument("--only", default=None, help="function names, comma-separated")
    p.add_argument("--mode", default="all")
    a = p.parse_args(argv)
    rows = run(a.only.split(",") if a.only else None, a.mode)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main())
