"""Measure the peer-accountant table of docs/accountant.md: every ledger of peers.ledgers() through certify,
TF Privacy's RDP and tree accountants, the PRV accountant, dp-accounting's PLD bracket and Opacus's RDP and
PRV accountants (Gaussian ledgers only).

    python -m tests.clients.accountant_table [--json FILE] [--max-events N] [--max-T T] [--only NAME,...]

Each (ledger, accountant) runs in a fresh Python process, one at a time: the ledger is built and the
accountant's modules imported first, then ``resource.getrusage`` is read before and after the call. CPU is
the call's ``time.process_time()`` difference; peak memory is the rise of the process's peak resident set
(ru_maxrss) over its value before the call (so imports and the ledger are not counted; an accountant whose
peak stays below the imports' shows 0). Not a test: no test is timed. Needs the ``clients`` extra.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

CHILD = r"""
import json, resource, sys, time, warnings
warnings.simplefilter("ignore")
from tests.clients import peers as P
spec = [s for s in P.ledgers(10**5, 2**20) if s.name == sys.argv[1]][0]
name = sys.argv[2]
fn = P.ACCOUNTANTS[name]
spec.ledger()
# import the accountant's modules before measuring (a call on a one-event ledger of the same kinds)
try:
    fn(P.LedgerSpec("warm", spec.family, tuple((k, s, c, 1) for k, s, c, _ in spec.blocks), spec.trees))
except Exception:
    pass
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0 = time.process_time()
try:
    out = fn(spec)
    err = None
except Exception as e:
    out, err = None, f"{type(e).__name__}: {e}"[:200]
cpu = time.process_time() - t0
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"result": out, "error": err, "cpu_s": cpu, "peak_mb": (after - before) / 1024}))
"""

ORDER = ("certify", "tfp-rdp", "tfp-tree", "prv", "dp-pld", "opacus-rdp", "opacus-prv")


def measure(spec_name: str, accountant: str, timeout: float = 900.0) -> dict:
    try:
        proc = subprocess.run([sys.executable, "-c", CHILD, spec_name, accountant], capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"result": None, "error": f"timeout after {timeout:.0f} s", "cpu_s": None, "peak_mb": None}
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if not lines:
        return {"result": None, "error": proc.stderr.strip().splitlines()[-1][:200] if proc.stderr else "no output",
                "cpu_s": None, "peak_mb": None}
    return json.loads(lines[-1])


def table(max_events=10 ** 5, max_T=2 ** 20, only=None) -> list[dict]:
    from . import peers as P

    rows = []
    for spec in P.ledgers(max_events, max_T):
        exact = P.exact_epsilon(spec)
        row = {"ledger": spec.name, "family": spec.family, "events": spec.events, "exact": exact, "peers": {}}
        for name in ORDER:
            if only and name not in only:
                continue
            if name == "tfp-tree" and spec.trees is None:
                continue
            if name.startswith("opacus") and spec.family not in ("gaussian", "tree"):
                continue        # Opacus accounts Gaussian steps only
            row["peers"][name] = measure(spec.name, name)
            print(spec.name, name, row["peers"][name], flush=True)
        # the tightest sound value: the exact one where known, else the smallest upper bound reported
        uppers = [m["result"]["epsilon"] for n, m in row["peers"].items() if m.get("result") and n != "prv-estimate"]
        row["tightest"] = exact if exact is not None else (min(uppers) if uppers else None)
        rows.append(row)
    return rows


def markdown(rows) -> str:
    def cell(m, tight):
        if m is None:
            return "-"
        if m.get("error"):
            return f"fails ({m['error'][:60]})"
        r = m["result"]
        if r is None:
            return "n/a"
        ratio = r["epsilon"] / tight if tight else float("nan")
        extra = f"; estimate {r['estimate']:.6g}" if "estimate" in r else ""
        extra += f"; optimistic {r['optimistic']:.6g}" if "optimistic" in r else ""
        return f"{r['epsilon']:.6g} ({ratio:.5f}{extra}; {m['cpu_s']:.2f} s, {m['peak_mb']:.0f} MB)"

    head = "| ledger | exact | " + " | ".join(ORDER) + " |\n|---|---|" + "---|" * len(ORDER) + "\n"
    body = ""
    for row in rows:
        tight = row["tightest"]
        body += (f"| {row['ledger']} | {row['exact']:.6g} | " if row["exact"] is not None else f"| {row['ledger']} | - | ")
        body += " | ".join(cell(row["peers"].get(n), tight) for n in ORDER) + " |\n"
    return head + body


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--json", default=None)
    p.add_argument("--max-events", type=int, default=10 ** 5)
    p.add_argument("--max-T", type=int, default=2 ** 20)
    p.add_argument("--only", default=None)
    a = p.parse_args(argv)
    rows = table(a.max_events, a.max_T, a.only.split(",") if a.only else None)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    print(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
