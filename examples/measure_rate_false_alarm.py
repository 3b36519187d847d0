"""Measure the rate check's false-alarm rate: the reference as its own candidate, drawing its own noise.

    python -m examples.measure_rate_false_alarm [--repeats 300] [--first K] [--json FILE] [ID_SUBSTRING ...]
    python -m examples.measure_rate_false_alarm --pairwise FILE [FILE ...]

For each case with a :class:`reference.oracle.properties.Rate`: the reference's fit is the one
:func:`reference.oracle.conform.rate_check` makes (the package's seeds); the candidate is the reference
called with a fresh generator on every run (the data of every repeat stays the package's, as for any
candidate; the noise is the candidate's own, as a correct port that draws its noise its own way has).
``repeats`` such candidates are fitted, each at several confidences: the configured one, and the two at
which the normal approximation of :func:`reference.oracle.properties.rate_confidence` predicts a 10% and
a 5% failure rate (where failures are countable). Every fit is the one conform makes (the percentile
interval widened by :func:`reference.audit.rates.small_sample_inflation`), every verdict conform's
(:func:`reference.oracle.conform.rate_verdict`). Prints, per confidence, the observed failure count
against the prediction, and the spread of the candidate's slope against the one the intervals assume
(the intervals' half-width over z_c): their ratio is the factor by which the intervals are too narrow.
``--first K`` numbers the candidates from K (their seeds), so that runs can be split and their JSON files
merged: ``--pairwise`` reads such files (of one case) and prints the rates over every ordered pair of
candidates as (reference, candidate), which is the rate over the reference's seed too, beside the rate
against the package's reference.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np
from scipy import special

from reference.oracle.conform import _rate_fit, rate_errors, rate_verdict, wrong_clause_asked
from reference.oracle.suite import cases
from reference.oracle.vectors import resolve


def confidence_for(predicted_failure: float) -> float:
    """The confidence at which two independent equal-width normal intervals fail to overlap with
    probability ``predicted_failure`` (the normal approximation of rate_confidence, without the
    nearest-wrong clause)."""
    z = float(special.ndtri(1.0 - predicted_failure / 2.0)) / np.sqrt(2.0)
    return float(1.0 - 2.0 * special.ndtr(-z))


def predicted_failure(confidence: float) -> float:
    z = float(special.ndtri((1.0 + confidence) / 2.0))
    return float(2.0 * special.ndtr(-np.sqrt(2.0) * z))


def own_noise(function, seed: int):
    """``function`` with the generator it is handed replaced by a fresh one per call (its own noise)."""
    states = iter(np.random.SeedSequence(seed).generate_state(100_000))

    def candidate(**kwargs):
        kwargs["rng"] = np.random.default_rng(int(next(states)))
        return function(**kwargs)
    return candidate


def failed(fit, ref, nearest_wrong) -> bool:
    """rate_check's verdict on a fit against the reference's."""
    return rate_verdict(fit, ref, nearest_wrong) != ""


def measure(case, repeats: int, confidences: list[float], seed: int = 1, first: int = 0) -> dict:
    import warnings

    reference = resolve(case.reference)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        grid, ref_errs = rate_errors(case, reference)
        refs = {c: _rate_fit(grid, ref_errs, c) for c in confidences}
        rows = []
        for k in range(first, first + repeats):
            _, errs = rate_errors(case, own_noise(reference, seed * 1_000_003 + k))
            fits = {c: _rate_fit(grid, errs, c) for c in confidences}
            rows.append({"seed": k, "slope": fits[confidences[0]].slope, "errors": errs.tolist(),
                         "intervals": {repr(c): [f.lower, f.upper] for c, f in fits.items()},
                         "failed": {repr(c): failed(fits[c], refs[c], case.rate.nearest_wrong) for c in confidences},
                         "clause_asked": {repr(c): bool(wrong_clause_asked(fits[c], refs[c], case.rate.nearest_wrong))
                                          for c in confidences}})
    return {"algorithm": case.algorithm, "case": case.name, "grid": list(grid), "repeats_per_grid": ref_errs.shape[1],
            "nearest_wrong": case.rate.nearest_wrong, "reference_errors": ref_errs.tolist(),
            "reference": {repr(c): [refs[c].slope, refs[c].lower, refs[c].upper] for c in confidences},
            "confidences": confidences,
            "wrong_clause_asked": {repr(c): int(sum(r["clause_asked"][repr(c)] for r in rows)) for c in confidences},
            "candidates": rows}


def summary(result: dict, confidences: list[float]) -> str:
    slopes = np.array([r["slope"] for r in result["candidates"]])
    ref_slope = result["reference"][repr(confidences[0])][0]
    lines = [f"{result['algorithm']} {result['case']}: {len(slopes)} candidates; candidate slope mean "
             f"{slopes.mean():.4f} sd {slopes.std(ddof=1):.4f}; reference slope {ref_slope:.4f} "
             f"({(ref_slope - slopes.mean()) / slopes.std(ddof=1):+.2f} sd from the candidates' mean)"]
    for c in confidences:
        z = float(special.ndtri((1.0 + c) / 2.0))
        widths = np.array([u - lo for lo, u in (r["intervals"][repr(c)] for r in result["candidates"])])
        assumed_sd = np.median(widths) / (2 * z)
        fails = sum(r["failed"][repr(c)] for r in result["candidates"])
        lines.append(f"  confidence {c:.6f}: failed {fails} / {len(slopes)} (predicted {predicted_failure(c):.3g}); "
                     f"median interval sd {assumed_sd:.4f}, observed slope sd / interval sd "
                     f"{slopes.std(ddof=1) / assumed_sd:.2f}; wrong clause asked of "
                     f"{result['wrong_clause_asked'][repr(c)]} / {len(slopes)}")
    return "\n".join(lines)


class _Fit:
    def __init__(self, lower, upper):
        self.lower, self.upper = lower, upper

    def excludes(self, value):
        return not (self.lower <= value <= self.upper)


def pairwise(files: list[str]) -> str:
    """The rates over every ordered pair of the candidates in ``files`` (one case), and against the reference."""
    results = [json.load(open(f, encoding="utf-8")) for f in files]
    rows = [row for res in results for r in res for row in r["candidates"]]
    head = results[0][0]
    seeds = [row["seed"] for row in rows]
    if len(set(seeds)) != len(seeds):
        raise SystemExit("the files share candidates (the same seeds): run them with different --first")
    wrong = head["nearest_wrong"]
    lines = [f"{head['algorithm']} {head['case']}: {len(rows)} candidates, {len(rows) * (len(rows) - 1)} ordered pairs"]
    for c in head["confidences"]:
        fits = [_Fit(*row["intervals"][repr(c)]) for row in rows]
        ref = _Fit(*head["reference"][repr(c)][1:])
        apart = clause = asked = 0
        for i, r in enumerate(fits):
            for j, f in enumerate(fits):
                if i == j:
                    continue
                v = rate_verdict(f, r, wrong)
                apart += v == "apart"
                clause += v == "wrong"
                asked += bool(wrong_clause_asked(f, r, wrong))
        pairs = len(fits) * (len(fits) - 1)
        against = sum(rate_verdict(f, ref, wrong) != "" for f in fits)
        asked_ref = sum(bool(wrong_clause_asked(f, ref, wrong)) for f in fits)
        lines.append(f"  confidence {c:.6f} (predicted {predicted_failure(c):.3g}): pairwise {(apart + clause) / pairs:.3g} "
                     f"({apart} apart + {clause} by the clause, asked of {asked / pairs:.2f} of the pairs); against the "
                     f"package's reference {against} / {len(fits)} (clause asked of {asked_ref})")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("only", nargs="*")
    parser.add_argument("--repeats", type=int, default=300)
    parser.add_argument("--first", type=int, default=0, help="the first candidate's number (its seed)")
    parser.add_argument("--json", default="")
    parser.add_argument("--pairwise", nargs="+", default=[], metavar="FILE")
    args = parser.parse_args(argv)
    if args.pairwise:
        print(pairwise(args.pairwise))
        return 0
    results = []
    for case in cases():
        if case.rate is None or (args.only and not any(s in case.algorithm for s in args.only)):
            continue
        confidences = [case.rate.confidence, confidence_for(0.10), confidence_for(0.05), confidence_for(0.01)]
        start = time.process_time()
        result = measure(case, args.repeats, confidences, first=args.first)
        result["cpu_seconds"] = time.process_time() - start
        results.append(result)
        print(summary(result, confidences), f"\n  cpu {result['cpu_seconds']:.0f}s", flush=True)
        if args.json:
            with open(args.json, "w", encoding="utf-8") as fh:
                json.dump(results, fh)
    return 0


if __name__ == "__main__":
    sys.exit(main())
