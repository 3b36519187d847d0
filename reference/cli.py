"""Command line: ``python -m reference {list,claims,audit,conform,vectors,trace,mutants}``.

The contract is in docs/architecture.md. Only this module knows the command line.
"""

from __future__ import annotations

import argparse
import json
import sys

from . import claims as registry


LIST_WIDTH = 120


def _count(n: int, noun: str) -> str:
    """``1 mutant``, ``2 mutants``."""
    return f"{n} {noun}" + ("" if n == 1 else "s")


def list_entries() -> list[dict]:
    """Every registered algorithm and building block: id, name, the function, and what conform calls.

    ``id`` is ``<paper>:<number>``, the id ``conform --algorithm``, ``vectors --algorithm`` and the kill
    matrix take. ``conform_function`` is the function the test vectors run (its full ``signature``); it can
    differ from ``function`` (lasso's Algorithm 2 is implemented by the shared polytope Frank-Wolfe, its
    vectors run ``private_lasso``). ``call`` is what a candidate is called with and may return: the
    keyword ``arguments`` the cases pass (``sometimes``: in some cases only), the return forms accepted
    (``returns``, ``fields``) and the reference function for the certified noise (``certified_noise``).
    ``None`` when the entry has no test vectors yet.
    """
    import inspect

    from .oracle.conform import call_contract
    from .oracle.cases import CASES
    from .oracle.vectors import resolve

    def signature(target: str) -> str:
        """The parameters as a caller writes them (annotations left out, defaults kept)."""
        params = [p.replace(annotation=inspect.Parameter.empty)
                  for p in inspect.signature(resolve(target)).parameters.values()]
        return str(inspect.Signature(params))

    out = []
    for kind, entries in (("algorithm", registry.all_algorithms()), ("building block", registry.all_building_blocks())):
        for a in entries:
            ident = f"{a.paper}:{a.number}"
            vector_cases = [c for c in CASES if c.algorithm == ident]
            conform = sorted({c.reference for c in vector_cases})
            out.append({
                "kind": kind, "id": ident, "paper": a.paper, "number": a.number, "name": a.name,
                "section": a.section, "function": a.function, "function_signature": signature(a.function),
                "conform_id": ident if vector_cases else None,
                "conform_function": conform[0] if len(conform) == 1 else (conform or None),
                "signature": signature(conform[0]) if len(conform) == 1 else None,
                # what a candidate is called with and may return (reference.oracle.conform.call_contract)
                "call": call_contract(ident) if vector_cases else None,
                "vector_cases": [c.name for c in vector_cases],
            })
    return out


def _cmd_list(args: argparse.Namespace) -> int:
    import textwrap

    entries = list_entries()
    if args.json:
        from ._meta import report_metadata

        print(json.dumps({"metadata": report_metadata(command="list"),
                          "algorithms": [e for e in entries if e["kind"] == "algorithm"],
                          "building_blocks": [e for e in entries if e["kind"] == "building block"]}, indent=2))
        return 0
    n_alg = sum(e["kind"] == "algorithm" for e in entries)
    papers = sorted({e["paper"] for e in entries if e["kind"] == "algorithm"})
    intro = (f"{n_alg} algorithms of {len(papers)} papers ({', '.join(papers)}) and {len(entries) - n_alg} building "
             "blocks. The id is what 'conform --algorithm', 'vectors --algorithm' and the kill matrix take; "
             "':' and '_', ' ' and '_' are interchangeable (lasso:Algorithm 2 = lasso_Algorithm_2). 'conform calls' "
             "is the function the test vectors run; a candidate checked with conform is called with the "
             "'arguments' (keywords) and may return either form of 'returns'; 'certified noise' is the reference "
             "function that gives the noise the package's accountant certifies, for a port without an accountant "
             "(where the model is Gaussian the constants state it and a port can recompute it; selections by "
             "report-noisy-min or the exponential mechanism are recomputable by the recipe in docs/conformance.md, "
             "'Recomputing the certified noise of the selections', and the function is the package's value); "
             "'fixed' is a choice the paper leaves free that the reference makes (and the cases do not pass), which "
             "a port must make alike.")
    print(textwrap.fill(intro, LIST_WIDTH))
    id_w = max(len("id"), *(len(e["id"]) for e in entries))
    label_w = len("certified noise")

    def wrapped(label: str, text: str) -> list[str]:
        return textwrap.wrap(text, LIST_WIDTH, initial_indent=f"    {label:<{label_w}}  ",
                             subsequent_indent=" " * (label_w + 8), break_on_hyphens=False)

    for kind, heading in (("algorithm", "Algorithms"), ("building block", "Building blocks (mechanisms)")):
        print(f"\n{heading}\n")
        print(f"{'id':<{id_w}}  name")
        print(f"{'-' * id_w}  {'-' * (LIST_WIDTH - id_w - 2)}")
        for e in (x for x in entries if x["kind"] == kind):
            print(textwrap.fill(e["name"], LIST_WIDTH, initial_indent=f"{e['id']:<{id_w}}  ",
                                subsequent_indent=" " * (id_w + 2)))
            lines = wrapped("source", e["section"]) if e["section"] else []
            same = e["conform_function"] == e["function"]
            lines += wrapped("function", e["function"] + ("  (conform calls this)" if same else ""))
            if not same:
                lines += wrapped("conform calls", e["conform_function"] if e["conform_function"]
                                 else "- (no test vectors for this id yet)")
            if e["call"]:
                call = e["call"]
                lines += wrapped("arguments", ", ".join(call["arguments"]) + (
                    f" (in some cases also: {', '.join(call['sometimes'])})" if call["sometimes"] else ""))
                lines += wrapped("returns", call["returns"])
                lines += wrapped("certified noise", call["certified_noise"])
                if call.get("fixed"):
                    lines += wrapped("fixed", call["fixed"])
                if call.get("readings"):
                    lines += wrapped("readings", "; ".join(call["readings"]))
                for constant in call.get("constants", []):
                    lines += wrapped("constant", constant)
            print("\n".join(lines))
    return 0


def _cmd_claims(args: argparse.Namespace) -> int:
    rows = registry.claims_table(args.paper)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    import textwrap

    checked = sum(r["status"] == "checked" for r in rows)
    for r in rows:                          # 120 columns: the id and kind, then the statement and tests below
        mark = "x" if r["status"] == "checked" else " "
        print(f"[{mark}] {r['id']}  ({r['kind']})")
        print(textwrap.fill(r["statement"], LIST_WIDTH, initial_indent="      ", subsequent_indent="      "))
        proofs = r.get("proofs", {})
        rig, ev = proofs.get("rigorous", 0), proofs.get("evidence", 0)
        if r["kind"] == "constant" or rig or ev:
            # proofs/: the kind of the rigorous evidence (over the statement's domain, or at points), then the counts
            label = {"domain": "proved over its domain", "point": "certified at points only",
                     "none": "no rigorous proof"}[r.get("rigorous", "none")]
            print(f"      proofs/: {label} ({proofs.get('domain', 0)} domain, {proofs.get('point', 0)} point, "
                  f"{ev} evidence)")
        for node in r["tests"]:
            print(textwrap.fill(node, LIST_WIDTH, initial_indent="      - ", subsequent_indent="          ",
                                break_on_hyphens=False, break_long_words=True))
    print(f"\n{checked} of {len(rows)} claims checked by a test")
    return 0


def _cmd_trace(args: argparse.Namespace) -> int:
    from . import traceability

    papers = [args.paper] if args.paper else [k for k in registry.PAPERS
                                              if any(a.paper == k for a in registry.all_algorithms())
                                              or any(c.paper == k for c in registry.all_claims().values())]
    stale = []
    for key in papers:
        if args.write:
            traceability.page_path(key).write_text(traceability.updated_page(key), encoding="utf-8")
            print(f"wrote {traceability.page_path(key)}")
        elif args.check:
            if not traceability.is_current(key):
                stale.append(key)
        else:
            print(traceability.generate(key))
    if stale:
        print(f"stale traceability pages (run: python -m reference trace --write): {stale}", file=sys.stderr)
        return 1
    if args.check:
        print(f"traceability pages current (docs/<paper>.md): {', '.join(papers)}")
    return 0


def _cmd_audit(args: argparse.Namespace) -> int:
    from .audit.runner import run_audit_command

    return run_audit_command(args)


def _cmd_conform(args: argparse.Namespace) -> int:
    from .oracle.conform import run_conform_command

    if args.scheduler is None and args.workers is None:
        return run_conform_command(args)
    from .audit.runner import make_executor

    executor = make_executor(args.workers, args.scheduler)     # the cases run there, one task each
    try:
        return run_conform_command(args, executor=executor)
    finally:
        executor.shutdown()


def _cmd_vectors(args: argparse.Namespace) -> int:
    from .oracle.suite import write_vectors

    paths = write_vectors(args.out, args.algorithm)
    for path in paths:
        print(path)
    return 0


def _cmd_mutants(args: argparse.Namespace) -> int:
    from .mutants import all_mutants, run_matrix
    from .mutants.report import matrix_table, write_json, write_markdown

    if getattr(args, "conform", False):
        return _cmd_mutants_conform(args)
    mutants = all_mutants(args.paper)
    if args.id:
        wanted = set(args.id)
        mutants = [m for m in mutants if m.id in wanted]
        missing = wanted - {m.id for m in mutants}
        if missing:
            print(f"error: no mutant with id {sorted(missing)}", file=sys.stderr)
            return 2
    if args.fast:
        mutants = [m for m in mutants if m.fast]
    if not mutants:
        print(f"error: no mutants registered{' for paper ' + args.paper if args.paper else ''}", file=sys.stderr)
        return 2
    print(f"running {_count(len(mutants), 'mutant')}, {args.workers or 'all'} at a time ...", file=sys.stderr)
    results = run_matrix(mutants, workers=args.workers, timeout=args.timeout,
                         progress=lambda r: print(f"  {r.mutant.id:<20} {r.status:<10} {r.seconds:6.1f} s",
                                                  file=sys.stderr))
    to_stdout = args.json == "-"
    print(matrix_table(results), file=sys.stderr if to_stdout else sys.stdout)
    if args.json:
        write_json(results, args.json)
    if args.markdown:
        write_markdown(results, args.markdown)
    return 0 if all(r.status in ("killed", "equivalent") for r in results) else 1


def _cmd_mutants_conform(args: argparse.Namespace) -> int:
    """``mutants --conform``: each mutant whose target has vector cases, as a black box to conform."""
    from .mutants import all_mutants
    from .mutants import conform as mc

    if args.from_json:
        results = mc.merge([mc.load_json(path) for path in args.from_json])
        for r in results:          # runs that predate the field: whether the cases run the edit (seconds each)
            if r.status == "survived" and not r.rejected_through and not r.reached:
                r.reached = {True: "yes", False: "no", None: "import"}[mc.exercised(r.mutant)]
        print(mc.table(results))
        if args.markdown:
            mc.write_markdown(results, args.markdown)
        return 0
    mutants = all_mutants(args.paper)
    if args.id:
        missing = set(args.id) - {m.id for m in mutants}
        if missing:
            print(f"error: no mutant with id {sorted(missing)}", file=sys.stderr)
            return 2
        mutants = [m for m in mutants if m.id in set(args.id)]
    if args.fast:
        mutants = [m for m in mutants if m.fast]
    skipped = [m for m in mutants if not mc.is_conform_target(m)]
    mutants = [m for m in mutants if m not in skipped]
    if skipped:
        print(f"{_count(len(skipped), 'mutant')} left out: their targets have no vector cases "
              f"({', '.join(sorted({m.target for m in skipped}))})", file=sys.stderr)
    if not mutants:
        print("error: no mutant whose target has vector cases", file=sys.stderr)
        return 2
    print(f"conform on {_count(len(mutants), 'mutant')}, {args.workers or 1} at a time ...", file=sys.stderr)
    done: list = []

    def write_json(results, final: bool = False) -> None:
        from ._meta import report_metadata

        payload = {"metadata": report_metadata(command="mutants --conform"), "summary": mc.summary(results),
                   "complete": len(results) == len(mutants), "mutants": [r.as_json() for r in results]}
        if args.json == "-":     # standard output: written once, at the end
            if final:
                print(json.dumps(payload, indent=2))
            return
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(payload, fh, indent=2)
            fh.write("\n")

    def progress(r) -> None:
        print(f"  {r.mutant.id:<20} {r.status:<9} {', '.join(r.rejected_by):<30} {r.seconds:6.1f} s", file=sys.stderr)
        done.append(r)
        if args.json:            # rewritten after every mutant, so a long run leaves what it measured
            write_json(done)

    from .oracle.conform import _properties

    properties = _properties(args.mode) if args.mode else None
    executor = None
    if getattr(args, "scheduler", None):
        from .audit.runner import make_executor

        executor = make_executor(scheduler=args.scheduler)     # one task per mutant on the cluster
    try:
        results = mc.run_conform_matrix(mutants, first=args.first, timeout=args.timeout, workers=args.workers or 1,
                                        progress=progress, properties=properties, executor=executor)
    finally:
        if executor is not None:
            executor.shutdown()
    print(mc.table(results), file=sys.stderr if args.json == "-" else sys.stdout)
    if args.json:
        write_json(results, final=True)
    if args.markdown:
        mc.write_markdown(results, args.markdown)
    return 0 if all(r.status == "rejected" or r.note for r in results) else 1


def _cmd_experiments(args: argparse.Namespace) -> int:
    from .experiments import run_experiments

    print(run_experiments(args.key, quick=args.quick, plots=args.plots))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m reference", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("list", help="algorithms and building blocks: id, name, function, what conform calls")
    p.add_argument("--json", action="store_true",
                   help="print {\"metadata\": ..., \"algorithms\": [...], \"building_blocks\": [...]}")
    p.set_defaults(func=_cmd_list)

    p = sub.add_parser("experiments", help="a paper's experiments reproduced on generated data (Markdown tables)")
    from .experiments import available

    p.add_argument("key", help=f"paper key: {', '.join(available())}")
    p.add_argument("--quick", action="store_true", help="smaller T, fewer runs")
    p.add_argument("--plots", default=None, metavar="DIR", help="write PNG plots to DIR (needs the 'plots' extra)")
    p.set_defaults(func=_cmd_experiments)

    p = sub.add_parser("claims", help="every claim: id, kind, statement, tests, status")
    p.add_argument("--paper", choices=sorted(registry.PAPERS), help="only this paper's claims")
    p.add_argument("--json", action="store_true", help="print a JSON list")
    p.set_defaults(func=_cmd_claims)

    p = sub.add_parser("trace", help="per-paper traceability page: paper lines -> code, claims -> tests")
    p.add_argument("--paper", choices=sorted(registry.PAPERS), help="only this paper (default: all with content)")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help="rewrite the generated part of docs/<paper>.md")
    group.add_argument("--check", action="store_true", help="exit 1 if a page is not current")
    p.set_defaults(func=_cmd_trace)

    p = sub.add_parser("audit", help="run the checks and print claimed vs certified vs measured")
    p.add_argument("--paper", choices=sorted(registry.PAPERS), help="only this paper")
    p.add_argument("--quick", action="store_true", help="fewer samples (under a minute on 2 idle cores)")
    p.add_argument("--json", metavar="FILE", help="also write {\"metadata\": ..., \"rows\": [...]} to FILE")
    p.add_argument("--wide", action="store_true", help="one long line per row with every field (default: fits "
                                                        "120 columns, the case and notes below each row)")
    p.add_argument("--plots", metavar="DIR", help="write PNG plots to DIR (needs the 'plots' extra)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run trials on a Dask cluster (needs the 'dask' extra)")
    p.add_argument("--workers", type=int, default=None, help="process-pool size (default: all cores)")
    p.add_argument("--from-json", metavar="FILE", help="run nothing: print the table of a finished run's JSON and, "
                                                        "with --plots, redraw its figures (docs/img from "
                                                        "docs/audit-results.json)")
    p.set_defaults(func=_cmd_audit)

    p = sub.add_parser("conform", help="check another implementation against the reference",
                       description="Two answers: 'does it conform?' (the properties of its released outputs and "
                                   "of its own claim: law, privacy, claim, rate, feasibility, sparsity, zero-noise, "
                                   "finite-shape, determinism, validation) sets the exit status; 'is it bit-exact?' "
                                   "(replay, and accounting against the reference's ledger) is always reported and "
                                   "sets the exit status only with --require. docs/conformance.md.")
    p.add_argument("target", metavar="MODULE:FUNCTION")
    p.add_argument("--algorithm", required=True, help="the algorithm id it implements (see 'list')")
    p.add_argument("--mode", default="all",
                   help="which properties run: 'all' (the default) or comma-separated names among replay, law, "
                        "privacy, accounting, claim, rate, feasibility, sparsity, zero-noise, finite-shape, "
                        "determinism, validation ('both' = all, 'distribution' = law, as before). replay or "
                        "accounting named here also decide the exit status")
    p.add_argument("--require", default=None, metavar="NAMES",
                   help="comparisons with the reference that also decide the exit status: 'replay' (bit-exact), "
                        "'accounting' (the reference's ledger), both comma-separated, or 'all'")
    p.add_argument("--reading", action="append", default=[], metavar="NAME=VALUE",
                   help="the candidate's reading of a choice the paper leaves open (docs/errata.md), e.g. "
                        "tree_log=ln for online Algorithms 4 and 5, scof_average=query_points for heavy_tailed Algorithms 1 "
                        "and 2 (repeatable); the verdict says 'under reading'")
    p.add_argument("--unseeded", action="store_true",
                   help="the candidate takes no seed (it ignores rng): determinism is n/a (conform also detects a "
                        "candidate that never draws from the rng it is passed)")
    p.add_argument("--json", action="store_true", help="print the report as JSON (the two answers, verdict per "
                                                       "property, rows per case)")
    p.add_argument("--deep", action="store_true", help="the rate check on its larger grid (minutes, not seconds)")
    p.add_argument("--workers", type=int, default=None,
                   help="run the cases in a pool of N processes (the same report as a serial run, bit for bit)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the cases on a Dask cluster (needs the 'dask' extra; the workers must import "
                        "MODULE); the same report as a local run")
    p.set_defaults(func=_cmd_conform)

    p = sub.add_parser("mutants", help="the kill matrix: realistic wrong implementations and the checks that kill them")
    p.add_argument("--paper", choices=sorted(registry.PAPERS), help="only this paper's mutants")
    p.add_argument("--id", action="append", help="only this mutant (repeatable)")
    p.add_argument("--fast", action="store_true", help="only the mutants the default test run also runs")
    p.add_argument("--json", metavar="FILE", help="also write {\"mutants\": [...]} to FILE")
    p.add_argument("--markdown", metavar="FILE", help="also write the matrix as a Markdown page (docs/kill-matrix.md)")
    p.add_argument("--workers", type=int, default=None, help="mutants run at once (default: all cores)")
    p.add_argument("--timeout", type=float, default=900.0, help="seconds allowed per mutant (default 900)")
    p.add_argument("--conform", action="store_true",
                   help="instead of the test suite, hand each mutant whose target has vector cases to conform as a "
                        "black box and report which property rejects it (docs/conformance.md)")
    p.add_argument("--first", action="store_true", help="with --conform: stop each mutant at its first failing property")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="with --conform: run the mutants on a Dask cluster, one task each (needs the 'dask' extra)")
    p.add_argument("--from-json", metavar="FILE", action="append",
                   help="with --conform: print (and --markdown) the results a --conform --json run wrote, without "
                        "running (repeatable: the runs are merged, e.g. a replay run and a black-box run)")
    p.add_argument("--mode", default=None,
                   help="with --conform: which properties, as conform's --mode (default all; e.g. 'replay', or "
                        "'law,privacy,accounting,rate,feasibility,sparsity,zero-noise,finite-shape,determinism,"
                        "validation' for black boxes)")
    p.set_defaults(func=_cmd_mutants)

    p = sub.add_parser("vectors", help="write JSON test vectors (inputs, seed, draws, outputs)")
    p.add_argument("--out", required=True, metavar="DIR", help="folder to write the vectors into")
    p.add_argument("--algorithm", help="only this algorithm id")
    p.set_defaults(func=_cmd_vectors)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        from ._outputs import check_extras, check_output_paths

        check_output_paths(args)          # before any work: a bad output path costs nothing
        check_extras(args)                # nor does an option whose optional extra is missing
        return args.func(args)
    except BrokenPipeError:  # e.g. `python -m reference claims | head`
        return 0
    except Exception as exc:  # a clear one-line error, not a traceback, for known errors
        from .errors import ReferenceSpecError

        if isinstance(exc, ReferenceSpecError):
            print(f"error: {exc}", file=sys.stderr)
            return 2
        raise
