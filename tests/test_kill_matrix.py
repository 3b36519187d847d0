"""The kill matrix (reference/mutants/): the catalogue is well formed, and its mutants are killed.

The default run checks every mutant's edit still applies (its text occurs exactly once, so a
catalogue cannot go stale silently) and runs the ``fast`` mutants; ``--deep`` runs them all.
"""

from __future__ import annotations

import pytest

from reference.claims import PAPERS, all_algorithms
from reference.mutants import BUG_CLASSES, Mutant, all_mutants, repository_root, run_mutant
from reference.errors import ParameterError

MUTANTS = all_mutants()


def test_catalogue_ids_are_unique_and_papers_known():
    ids = [m.id for m in MUTANTS]
    assert len(ids) == len(set(ids))
    for m in MUTANTS:
        assert m.paper in PAPERS, m.id
        assert m.bug_class in BUG_CLASSES, m.id


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.id for m in MUTANTS])
def test_mutant_edit_applies_exactly_once(mutant):
    text = (repository_root() / mutant.file).read_text(encoding="utf-8")
    assert text.count(mutant.find) == 1, f"{mutant.id}: its text occurs {text.count(mutant.find)} times in {mutant.file}"
    for check in mutant.checks:
        path = check.split("::")[0]
        assert (repository_root() / path).exists(), f"{mutant.id}: check {check} names no file"


def test_every_registered_algorithm_of_a_catalogued_paper_has_mutants():
    """Once a paper has a catalogue, every algorithm it registers has a mutant (target
    ``<paper>:<number>``, as ``python -m reference list`` shows it)."""
    targets = {m.target for m in MUTANTS}
    papers = {m.paper for m in MUTANTS}
    missing = sorted(f"{a.paper}:{a.number}" for a in all_algorithms()
                     if a.paper in papers and f"{a.paper}:{a.number}" not in targets)
    assert not missing, f"algorithms without a mutant in the kill matrix: {missing}"


def test_mutant_refuses_a_malformed_entry():
    with pytest.raises(ParameterError):
        Mutant("bad id", "core:x", "noise-scale", "d", "f", "a", "b", ("t",))
    with pytest.raises(ParameterError):
        Mutant("core-M99", "core:x", "not-a-class", "d", "f", "a", "b", ("t",))
    with pytest.raises(ParameterError):
        Mutant("core-M99", "core:x", "noise-scale", "d", "f", "a", "b", ())


def test_a_mutant_whose_checks_pass_is_reported_survived():
    """The runner itself can fail: an edit no listed check looks at survives."""
    m = Mutant("core-M98", "core:laplace_mechanism", "noise-scale", "a comment edit",
               "reference/privacy/mechanisms.py", "out = arr + rng.laplace(0.0, scale, shape)",
               "out = arr + rng.laplace(0.0, scale, shape)  # edited",
               ("tests/privacy/test_mechanisms.py::test_laplace_noise_passes_ks_and_wrong_scale_is_rejected",))
    result = run_mutant(m)
    assert result.status == "survived", result.detail


FAST = [m for m in MUTANTS if m.fast and not m.equivalent]
DEEP = [m for m in MUTANTS if not m.fast and not m.equivalent]


@pytest.fixture(scope="session")
def fast_results(request) -> dict:
    """The fast mutants this session selected, run two at a time (each is its own subprocess of pytest on a
    copy of the package, so the default run uses both cores here); results by id.

    Built once per run: the default run distributes whole files (``--dist loadfile``, pyproject.toml), so every
    item of this file runs in one worker, and the fixture is session-scoped. (Under ``--dist loadgroup`` with
    pytest 9 the items were split over both workers and each built the fixture: the whole matrix ran twice,
    two setups of 310-330 s in one default run.)"""
    from reference.mutants import run_matrix

    wanted = {item.callspec.params["mutant"].id for item in request.session.items
              if item.originalname == "test_fast_mutant_is_killed" and hasattr(item, "callspec")}
    return {r.mutant.id: r for r in run_matrix([m for m in FAST if m.id in wanted], workers=2)}


@pytest.mark.parametrize("mutant", FAST, ids=[m.id for m in FAST])
def test_fast_mutant_is_killed(mutant, fast_results):
    result = fast_results[mutant.id]
    assert result.status == "killed", f"{mutant.id} {result.status}: {result.detail}"


@pytest.mark.deep
@pytest.mark.parametrize("mutant", DEEP, ids=[m.id for m in DEEP])
def test_mutant_is_killed(mutant):
    result = run_mutant(mutant)
    assert result.status == "killed", f"{mutant.id} {result.status}: {result.detail}"
