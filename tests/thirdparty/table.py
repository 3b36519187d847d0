"""Measure the third-party table of docs/conformance.md.

    python -m tests.thirdparty.table            # law checks and privacy audits (~15 min on two cores)
    python -m tests.thirdparty.table --law      # law checks only (~1 min)

Prints one markdown row per (candidate, case, check) with conform's settings: law check at the case's alpha
(4000 runs a side), privacy audit at the case's beta and runs (10,000 a side for the Laplace and Gaussian
cases; 40,000 for the selection pairs, harness.SELECTION_RUNS) with the reference at half its noise as the
control. OpenDP cannot be seeded, so its rows vary between runs.
"""

from __future__ import annotations

import argparse
import functools
import importlib.metadata
import sys

from . import harness as H


def candidates():
    from . import diffprivlib_adapters as D
    from . import opendp_adapters as O

    return [
        ("opendp", "make_laplace", O.laplace_mechanism, "core:laplace_mechanism"),
        ("opendp", "make_laplace(k=-1)", O.laplace_mechanism_grid_half, "core:laplace_mechanism"),
        ("opendp", "make_gaussian", O.gaussian_mechanism, "core:gaussian_mechanism"),
        ("opendp", "make_noisy_max(zCDP)", O.exponential_mechanism, "core:exponential_mechanism"),
        ("opendp", "make_noisy_max(pure)", O.exponential_mechanism_pure, "core:exponential_mechanism"),
        ("opendp", "make_noisy_max(zCDP) / make_laplace + argmax", O.report_noisy_max, "core:report_noisy_max"),
        ("opendp", "make_noisy_max(pure)", O.noisy_max_pure, "core:report_noisy_max"),
        ("diffprivlib", "Laplace", D.laplace_mechanism, "core:laplace_mechanism"),
        ("diffprivlib", "Laplace (secure)", functools.partial(D.laplace_mechanism, secure=True),
         "core:laplace_mechanism"),
        ("diffprivlib", "GaussianAnalytic", D.gaussian_mechanism, "core:gaussian_mechanism"),
        ("diffprivlib", "GaussianAnalytic (secure)", functools.partial(D.gaussian_mechanism, secure=True),
         "core:gaussian_mechanism"),
        ("diffprivlib", "Gaussian (classic)", D.gaussian_mechanism_classic, "core:gaussian_mechanism"),
        ("diffprivlib", "Exponential", D.exponential_mechanism, "core:exponential_mechanism"),
        ("diffprivlib", "PermuteAndFlip", D.permute_and_flip, "core:exponential_mechanism"),
        ("diffprivlib", "Exponential / Laplace + argmax", D.report_noisy_max, "core:report_noisy_max"),
    ]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--law", action="store_true", help="law checks only")
    args = parser.parse_args(argv)
    versions = {p: importlib.metadata.version(p) for p in ("opendp", "diffprivlib", "numpy", "scikit-learn")}
    print("versions: " + ", ".join(f"{k} {v}" for k, v in versions.items()))
    print("| library | mechanism | building block | case | check | verdict | value | claim | control |")
    print("|---|---|---|---|---|---|---|---|---|")
    for library, name, fn, algorithm in candidates():
        rows = [H.law_row(library, name, case, fn) for case in H.law_cases(algorithm)]
        if not args.law and "secure" not in name:
            rows += [H.privacy_row(library, name, case, fn) for case in H.privacy_cases(algorithm)]
        for r in rows:
            value = f"p = {r.value:.3g}" if r.check == "law" else f"{r.value:.3f}"
            claim = "" if r.claim is None else f"{r.claim:.3f}"
            control = "" if r.control is None else f"{r.control:.3f}"
            print(f"| {library} | {name} | {algorithm} | {r.case} | {r.check} | {'pass' if r.passed else 'REJECT'} "
                  f"| {value} | {claim} | {control} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
