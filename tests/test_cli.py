"""The command line as a newcomer meets it: list, ids in either spelling, unbuilt papers (issue 15)."""

from __future__ import annotations

import inspect
import json

import numpy as np
import pytest

from reference import claims as registry
from reference.cli import list_entries, main
from reference.oracle.cases import CASES
from reference.oracle.suite import cases
from reference.oracle.vectors import canonical_id, resolve


def test_list_has_a_header_both_kinds_and_fits_120_columns(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert max(map(len, out.splitlines())) <= 120
    assert "Algorithms" in out and "Building blocks" in out
    assert out.count("\nid ") == 2                      # one header per table
    for block in ("core:gaussian_mechanism", "core:laplace_mechanism", "core:exponential_mechanism",
                  "core:report_noisy_max", "core:private_prefix_sums"):
        assert block in out
    for a in registry.all_algorithms():
        assert f"{a.paper}:{a.number}" in out


def test_list_shows_the_function_conform_calls_and_its_arguments_fit_the_vectors():
    """The old list named lasso Algorithm 2's polytope Frank-Wolfe, whose signature the vectors' inputs do not
    fit (8 TypeErrors); every listed conform function must accept its vector cases' inputs."""
    entries = {e["id"]: e for e in list_entries()}
    assert entries["lasso:Algorithm 2"]["conform_function"] == "reference.algorithms.lasso:private_lasso"
    checked = 0
    for case in CASES:
        entry = entries[case.algorithm]
        assert entry["conform_function"] == case.reference
        inspect.signature(resolve(entry["conform_function"])).bind(**case.make_kwargs(), rng=np.random.default_rng(0))
        checked += 1
    assert checked == len(CASES)
    with pytest.raises(TypeError):   # what the old listing pointed at
        inspect.signature(resolve(entries["lasso:Algorithm 2"]["function"])).bind(
            **[c for c in CASES if c.algorithm == "lasso:Algorithm 2"][0].make_kwargs(), rng=None)


def test_list_json_is_an_object_with_metadata(capsys):
    assert main(["list", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert {"metadata", "algorithms", "building_blocks"} <= set(payload)
    assert payload["metadata"]["version"] and payload["metadata"]["command"] == "list"
    assert all(e["signature"] or e["conform_function"] is None for e in payload["algorithms"])


def test_claims_json_stays_a_list(capsys):
    assert main(["claims", "--paper", "core", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert isinstance(rows, list) and rows and {"id", "source", "status"} <= set(rows[0])


@pytest.mark.parametrize("spelling", ["lasso:Algorithm 2", "lasso_Algorithm_2", "lasso:algorithm_2",
                                      " lasso_algorithm 2 "])
def test_algorithm_ids_are_accepted_in_either_spelling(spelling):
    assert canonical_id(spelling, {c.algorithm for c in CASES}) == "lasso:Algorithm 2"
    assert [c.name for c in cases(spelling)] == [c.name for c in cases("lasso:Algorithm 2")]


def test_conform_takes_the_file_name_spelling(capsys):
    """The vector files are named core_gaussian_mechanism__...: that spelling used to exit 2."""
    status = main(["conform", "reference.privacy.mechanisms:gaussian_mechanism", "--algorithm",
                   "core_gaussian_mechanism", "--mode", "replay"])
    assert status == 0
    assert "core:gaussian_mechanism" in capsys.readouterr().out


def test_unknown_id_names_the_known_ones():
    from reference.errors import ParameterError

    with pytest.raises(ParameterError, match="lasso:Algorithm 2"):
        cases("lasso:Algorithm 9")


def _unbuilt() -> str:
    missing = [k for k in registry.PAPERS if k not in registry.built_papers()]
    if not missing:
        pytest.skip("every paper is built")
    return missing[0]


@pytest.mark.parametrize("argv", [["claims", "--paper"], ["audit", "--quick", "--paper"]])
def test_an_unbuilt_paper_is_named_as_such_with_a_non_zero_exit(argv, capsys):
    """`claims --paper heavy_tailed` used to print '0 of 0 claims checked' and `audit --paper online` an empty
    table, both with exit 0, while those papers were not built."""
    assert main(argv + [_unbuilt()]) == 2
    err = capsys.readouterr().err
    assert "not built yet" in err and "built: core" in err


def test_mutants_json_carries_metadata(tmp_path):
    from reference.mutants.report import write_json

    write_json([], tmp_path / "m.json")
    payload = json.loads((tmp_path / "m.json").read_text())
    assert payload["metadata"]["command"] == "mutants" and payload["metadata"]["version"]
    assert payload["mutants"] == []
