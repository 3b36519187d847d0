"""The kill matrix through conform (reference/mutants/conform.py): mutants as black boxes.

Default run: the mutated copy is built and imported beside the clean package and removed afterwards;
the conform ids are found from the target; a few representative mutants are rejected with the property
named (replay for a port-like edit, the law check for a wrong noise scale, the privacy audit for half the
Gaussian noise), and a ledger-only mutant survives conform (its outputs are the reference's: no black box
can see it). The law and privacy checks use fixed seeds; against a correct candidate they fail with
probability at most their case's alpha and beta (shares of the id's false-alarm budget, 1e-3). The whole matrix is ``python -m reference mutants --conform``
(docs/conformance.md has the measured table); ``--deep`` runs it here.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

from reference.mutants import all_mutants
from reference.oracle.suite import cases
from reference.mutants.conform import (SURVIVOR_NOTES, conform_ids, conform_mutant, markdown, mutated_package,
                                       observable_mutants, run_conform_matrix)

MUTANTS = {m.id: m for m in all_mutants()}


@pytest.fixture(autouse=True)
def _quiet_paper_calibration():
    # the copies' private_lasso(calibration="paper") warns with their own PrivacyWarning class (lasso-E02)
    import warnings

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"private_lasso\(calibration='paper'\)")
        warnings.filterwarnings("ignore", message=r"objective_perturbation\(calibration='paper'\)")
        yield


def test_conform_ids_from_the_target_or_its_conform_function():
    assert conform_ids(MUTANTS["lasso-M13"]) == ["lasso:Algorithm 2"]
    assert conform_ids(MUTANTS["lasso-M23"]) == ["lasso:Corollary 2.7"]
    # core:binary_tree is no registered id: the cases whose function lives in the edited tree.py
    assert conform_ids(MUTANTS["core-M63"]) == ["core:private_prefix_sums"]
    no_cases = [m for m in all_mutants() if m.target == "core:accounting"]
    assert no_cases and all(conform_ids(m) == [] for m in no_cases)
    assert conform_mutant(no_cases[0]).status == "no-cases"


def test_mutated_copy_is_separate_and_removed_afterwards():
    import importlib

    import reference.privacy.mechanisms as clean

    m = MUTANTS["core-M01"]
    with mutated_package(m) as name:
        copy = importlib.import_module(f"{name}.privacy.mechanisms")
        assert copy is not clean and copy.__file__ != clean.__file__
        source = open(copy.__file__, encoding="utf-8").read()
        assert m.replace in source and m.find not in source
        assert m.find in open(clean.__file__, encoding="utf-8").read()      # the clean package is untouched
        # the copy draws half the noise the clean one does, on the same seed
        a = copy.laplace_mechanism(np.zeros(3), 1.0, 2.0, np.random.default_rng(0))
        b = clean.laplace_mechanism(np.zeros(3), 1.0, 2.0, np.random.default_rng(0))
        assert np.allclose(a, 0.5 * b)
    assert not any(k == name or k.startswith(name + ".") for k in sys.modules)
    assert not any(name in p for p in sys.path)


@pytest.mark.parametrize("mutant_id, properties, rejected_by", [
    ("lasso-M13", ("replay",), ["replay"]),                  # argmax for argmin: the streams agree, outputs part
    ("erm_geometry-M01", ("replay",), ["replay"]),           # half the printed sigma: the stream parts at draw 0
    ("core-M01", ("replay", "law"), ["replay", "law"]),      # Laplace at half the scale
    ("core-M55", ("replay", "law"), ["replay", "law"]),      # report-noisy-max returns the exact argmax
])
def test_representative_mutants_are_rejected_with_the_property_named(mutant_id, properties, rejected_by):
    r = conform_mutant(MUTANTS[mutant_id], properties=properties)
    assert r.status == "rejected" and r.rejected_by == rejected_by, (r.verdicts, r.details, r.detail)
    assert all(r.details[p] for p in rejected_by)


# The randomized mutants that replay alone rejected until a case put the wrong line in front of a small noise
# (docs/conformance.md, "A short horizon, a small noise"): the law check of that one case rejects the black box.
# Measured there: 1.00 of 200 resampled checks at the case's alpha; the clean reference passes the same check
# (tests/test_vector_coverage.py, --deep, runs every case's law against the reference itself).
LAW_CASES = {
    "online-M06": ("online:Algorithm 3", "certified-LG1-T3-d2-eps64-x1"),
    "heavy_tailed-M32": ("heavy_tailed:Algorithm 4", "certified-c0.002-n2000-d2-rho2000"),
    "lasso-M35": ("lasso:Theorem 2.6", "l2-certified-n400-p6-T2-eps16"),
    "lasso-M12": ("lasso:Algorithm 2", "laplace-certified-n400-p6-T2-eps0.3"),
    # likewise a case where the edit reaches the output law: Theorem 3.2's T = 2 against the width bound's 1, and
    # objective perturbation along a feature no record uses, where theta_5 = -b_5 / zeta (docs/conformance.md)
    "core-M61": ("erm_geometry:Algorithm 1", "l2-euclidean-certified-theorem-3.2-eps0.88-n60-p5"),
    "erm_geometry-M17": ("erm_geometry:Algorithm 2", "l2-paper-n60-p5-delta0.4-unused-feature"),
    "erm_geometry-M20": ("erm_geometry:Algorithm 2", "l2-paper-n60-p5-delta0.4-unused-feature"),
}
_SLOW_LAW_CASES = {"erm_geometry-M17", "erm_geometry-M20"}     # 400 solver runs a side: about 15 s each


@pytest.mark.parametrize("mutant_id", [pytest.param(m, marks=pytest.mark.deep) if m in _SLOW_LAW_CASES else m
                                       for m in sorted(LAW_CASES)])
def test_a_case_with_the_wrong_line_in_front_of_a_small_noise_rejects_the_black_box(mutant_id):
    from reference.oracle.vectors import distribution_check, resolve

    algorithm, name = LAW_CASES[mutant_id]
    (case,) = [c for c in cases(algorithm) if c.name == name]
    module, _, function = case.reference.partition(":")
    with mutated_package(MUTANTS[mutant_id]) as copy:
        candidate = resolve(f"{copy}{module[len('reference'):]}:{function}")
        passed, p_value, detail = distribution_check(case, candidate)
    assert not passed and p_value < case.law_alpha, detail


@pytest.mark.parametrize("mutant_id, case, said", [
    ("erm_geometry-M08", "l2-euclidean-certified-eta-decreasing-n60-p5-T8", "max |difference|"),   # eta_t for eta_(t+1)
    ("erm_geometry-M11", "l1-lq-certified-theorem-3.2-n60-p5", "consumed fewer draws"),   # G_Q of the l2 ball: T 2, not 4
])
def test_a_path_case_is_what_rejects_a_mutant_no_other_case_sees(mutant_id, case, said):
    """A constant eta hides the step index, and given T and eta hide G_Q: only the case on that path fails."""
    r = conform_mutant(MUTANTS[mutant_id], properties=("replay",), through=False)
    assert r.rejected_by == ["replay"], (r.verdicts, r.details, r.detail)
    assert f"{case}: {said}" in r.details["replay"]
    others = [c.name for c in cases("erm_geometry:Algorithm 1") if c.name != case]
    assert not any(f"{name}:" in r.details["replay"] for name in others), r.details["replay"]


def test_half_gaussian_noise_is_rejected_by_the_privacy_audit_of_the_black_box():
    r = conform_mutant(MUTANTS["core-M03"], properties=("privacy",))
    assert r.rejected_by == ["privacy"], (r.verdicts, r.details)
    assert "mu lower bound" in r.details["privacy"]


def test_a_ledger_only_mutant_is_invisible_to_the_outputs_and_rejected_by_accounting():
    """core-M62 records half the l1 sensitivity in the ledger; the released values are the reference's, so
    replay, the law and the output invariants pass it; the accounting property (its ledger certified by the
    clean accountant) rejects it, naming the event and the field."""
    r = conform_mutant(MUTANTS["core-M62"], properties=("replay", "law", "finite-shape"), through=False)
    assert r.status == "survived" and not r.rejected_by, r.details
    assert r.reached == "yes"            # the cases run the edited line; it changes only the ledger
    r = conform_mutant(MUTANTS["core-M62"], properties=("accounting",), through=False)
    assert r.status == "rejected" and r.rejected_by == ["accounting"], r.details
    assert "sensitivity = 0.5 where the reference records 1.0" in r.details["accounting"]
    # erm_geometry-M21 records sensitivity L/n in objective perturbation's (epsilon, delta) event: the
    # certificate does not use it, the ledger laid out as the reference's still reports a wrong value
    r = conform_mutant(MUTANTS["erm_geometry-M21"], properties=("accounting",), through=False)
    assert r.status == "rejected" and "its ledger records another value" in r.details["accounting"], r.details


def test_an_input_check_removed_is_rejected_by_validation():
    """core-M59 deletes the tree's norm-bound check: the item above the bound is then summed (not refused)."""
    r = conform_mutant(MUTANTS["core-M59"], properties=("validation",), through=False)
    assert r.status == "rejected" and r.rejected_by == ["validation"], r.details
    assert "norm_bound" in r.details["validation"]


def test_accountant_and_lower_bound_edits_are_no_conform_target_and_say_why():
    from reference.mutants.conform import no_conform_target

    for ident in ("core-M11", "core-M12", "heavy_tailed-M15", "heavy_tailed-M16"):
        assert conform_ids(MUTANTS[ident]) == [] and no_conform_target(MUTANTS[ident]), ident
    r = conform_mutant(MUTANTS["core-M11"])
    assert r.status == "no-cases" and "accountant" in r.detail


def test_an_edit_the_cases_never_run_is_reported_as_such():
    """core-M15 edits truncated_geometric_pmf; the core:truncated_geometric cases run the sampler only."""
    r = conform_mutant(MUTANTS["core-M15"], properties=("replay",), through=False)
    assert r.status == "survived" and r.reached == "no"


def test_a_building_blocks_survivor_is_checked_through_the_algorithms_that_call_it():
    """core-M15's pmf is saddle_point Algorithm 2's weight 1/p_N: the line tracer finds the algorithms whose
    cases run it, and replay rejects it on the cubic Algorithm 2 case (on the bilinear ones it weighs zero)."""
    r = conform_mutant(MUTANTS["core-M15"], properties=("replay",))
    assert r.status == "survived" and r.rejected_through == {"saddle_point:Algorithm 2": ["replay"]}, r.details
    assert "cubic" in r.details["replay"]
    assert "rejected through saddle_point:Algorithm 2 by replay" in markdown([r])


def test_a_survivor_of_its_target_is_checked_through_the_other_entry_points_of_its_file():
    """core-M13 edits report_noisy_min. Named with the target core:report_noisy_max (as the catalogue once
    did), its target's cases do not run it; the core:report_noisy_min cases do, and replay rejects it there."""
    import dataclasses

    mislabelled = dataclasses.replace(MUTANTS["core-M13"], target="core:report_noisy_max")
    r = conform_mutant(mislabelled, properties=("replay",))
    assert r.status == "survived" and r.rejected_through == {"core:report_noisy_min": ["replay"]}, r.details
    assert "rejected through core:report_noisy_min by replay" in markdown([r])
    # under its own target, the one that names the edited function, it is rejected outright
    r = conform_mutant(MUTANTS["core-M13"], properties=("replay",))
    assert r.status == "rejected" and r.rejected_by == ["replay"], r.details


def test_results_round_trip_through_json(tmp_path):
    import json

    from reference.mutants.conform import load_json, write_markdown

    r = conform_mutant(MUTANTS["lasso-M13"], properties=("replay",))
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"mutants": [r.as_json()]}))
    (back,) = load_json(path)
    assert back.as_json() == r.as_json()
    page = tmp_path / "page.md"
    page.write_text("intro\n<!-- conform-kill-matrix:begin -->\nold\n<!-- conform-kill-matrix:end -->\noutro\n")
    write_markdown([back], page)
    text = page.read_text()
    assert text.startswith("intro\n") and text.endswith("outro\n") and "old" not in text
    assert "| lasso-M13 | lasso:Algorithm 2 |" in text and "**replay**" in text


def test_the_measured_matrix_covers_the_catalogue_and_explains_its_survivors():
    """docs/conform-kill-matrix.json (the measured table) has a row for every catalogued mutant, and each row
    that survived its target's cases (and was rejected through no other entry point) has its reason in
    SURVIVOR_NOTES: a mutant catalogued after the last run, or a survivor nobody explained, fails here."""
    import json
    from pathlib import Path

    data = json.loads((Path(__file__).resolve().parents[1] / "docs" / "conform-kill-matrix.json").read_text())
    rows = {r["id"]: r for r in data["mutants"]}
    assert sorted(set(MUTANTS) - set(rows)) == []
    unexplained = sorted(i for i, r in rows.items()
                         if r["status"] == "survived" and not r["rejected_through"] and i not in SURVIVOR_NOTES)
    assert unexplained == []


def test_heavy_tailed_m53_survivor_note_arithmetic():
    """SURVIVOR_NOTES['heavy_tailed-M53']: at the strongly convex cases' sizes, Algorithm 3's whole buckets read
    fewer samples than a batch holds, so the batch's one extra sample (the mutant's inclusive end) is never read."""
    from reference.algorithms.heavy_tailed import bucket_count, bucket_size

    strongly = [c for c in cases("heavy_tailed:Algorithm 1") if c.make_kwargs().get("mode") == "strongly_convex"]
    assert len(strongly) == 2
    for case in strongly:
        kw = case.make_kwargs()
        n, d = np.asarray(kw["X"]).shape
        batch = n // kw["T"]
        m = bucket_count(d, kw["beta"])
        assert bucket_size(batch + 1, m) == bucket_size(batch, m) and m * bucket_size(batch, m) < batch


def test_first_stops_at_the_first_failing_property():
    r = conform_mutant(MUTANTS["core-M05"], properties=("replay", "law"), first=True)
    assert r.rejected_by == ["replay"] and r.verdicts["law"] == "skipped"


@pytest.mark.deep
def test_the_whole_conform_kill_matrix():
    """Every observable mutant is rejected by conform or is a survivor with a recorded reason (hours on
    2 cores)."""
    results = run_conform_matrix(observable_mutants())
    unexplained = [(r.mutant.id, r.status, r.detail) for r in results if r.status != "rejected" and not r.note]
    assert not unexplained


def test_reference_side_cache_is_opt_in_and_reused():
    import reference.oracle.vectors as vectors
    from reference.oracle.suite import cases
    from reference.oracle.vectors import distribution_check, reference_side_cache, resolve

    case = [c for c in cases("core:laplace_mechanism") if c.statistic is not None][0]
    assert vectors._REFERENCE_SIDE is None
    with reference_side_cache():
        first = distribution_check(case, resolve(case.reference), n_runs=200)
        (key,) = [k for k in vectors._REFERENCE_SIDE if k[0] == "law"]
        cached = vectors._REFERENCE_SIDE[key]
        assert distribution_check(case, resolve(case.reference), n_runs=200) == first
        assert vectors._REFERENCE_SIDE[key] is cached
    assert vectors._REFERENCE_SIDE is None


def test_law_check_accepts_a_candidate_equal_to_the_reference_up_to_rounding():
    """saddle_point Algorithm 2's gradient estimate, computed as the reference does and then scaled by
    (1 + 4e-16) (as a port that sums in another order would round): the same law. The chi-square branch
    once tabulated exact floats and rejected it (p = 0); values within LEVEL_RTOL are now one category."""
    from reference.oracle.suite import cases
    from reference.oracle.vectors import distribution_check, resolve

    case = [c for c in cases("saddle_point:Algorithm 2") if c.statistic is not None][0]
    reference = resolve(case.reference)

    def rounded(**kwargs):
        return np.asarray(reference(**kwargs), dtype=float) * (1 + 4e-16)

    ok, p_value, detail = distribution_check(case, rounded)
    assert ok, detail


def test_law_check_levels_merge_only_rounding_differences():
    """The merge is not a blindfold: values 1e-6 apart stay two categories (a discrete law that
    differs there is still rejected), while last-bit differences are one category."""
    from reference.oracle.vectors import _levels, two_sample_p_value

    assert list(_levels(np.array([1.0, 1.0 + 4e-16, 2.0, 2.0 * (1 - 2e-16)]))) == [0, 0, 1, 1]
    assert list(_levels(np.array([0.0, 1e-6, 1.0, 1.0 + 1e-6]))) == [0, 1, 2, 3]
    gen = np.random.default_rng(5)
    ours = gen.choice([0.0, 1e-6], size=2000, p=[0.5, 0.5])
    theirs = gen.choice([0.0, 1e-6], size=2000, p=[0.6, 0.4])  # another law on the same two levels
    p_value, test = two_sample_p_value(ours, theirs)
    assert test == "chi-square homogeneity" and p_value < 1e-6
    same, _ = two_sample_p_value(ours, ours * (1 + 4e-16))
    assert same == 1.0


@pytest.mark.deep      # the line tracer runs every vector case once: about 30 s
def test_shared_code_is_checked_through_the_algorithms_whose_cases_run_it():
    """core-M36 edits a mirror map in reference/geometry (no vector cases of its own): the erm_geometry
    Algorithm 1 cases run it, and replay rejects it there; core-M45 (the Huber loss) is run by no case,
    and says so."""
    r = conform_mutant(MUTANTS["core-M36"], properties=("replay",))
    assert r.status == "rejected" and r.rejected_by == ["replay"], r.details
    assert "erm_geometry:Algorithm 1" in r.algorithm
    r = conform_mutant(MUTANTS["core-M45"], properties=("replay",))
    assert r.status == "no-cases" and "no algorithm's vector case runs" in r.detail


def test_a_timeout_inside_the_candidate_stops_the_mutant_and_is_no_rejection():
    """The matrix's time limit fires wherever the mutant happens to be running, often inside its law check.
    conform turns an Exception raised inside a candidate into that property's FAIL; the timeout must get
    through (and the mutant be reported broken), not be recorded as the law rejecting it. A candidate that
    raises an ordinary error still fails the law, as before."""
    from reference.mutants.conform import _Timeout
    from reference.oracle.conform import check_implementation

    def times_out(**kwargs):
        raise _Timeout()

    def raises(**kwargs):
        raise RuntimeError("broken port")

    with pytest.raises(_Timeout):
        check_implementation(times_out, "core:laplace_mechanism", mode="law")
    rows = check_implementation(raises, "core:laplace_mechanism", mode="law")
    assert rows and all(r.status == "fail" and "RuntimeError" in r.detail for r in rows)
