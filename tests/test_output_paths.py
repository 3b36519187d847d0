"""Output paths are checked before any work (issue: a whole audit ran, then a traceback).

Each bad path is refused with a one-line error and exit 2, quickly (the audit would take minutes:
a refusal in well under 10 s shows no row ran); ``-`` sends the JSON to standard output.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from reference._outputs import OutputPathError, check_output_dir, check_output_file
from reference.cli import main


@pytest.mark.parametrize("argv", [
    ["audit", "--json", "/nonexistent/dir/x.json"],
    ["audit", "--quick", "--plots", "{file}"],
    ["mutants", "--json", "/nonexistent/x.json"],
    ["mutants", "--markdown", "{dir}"],
    ["vectors", "--out", "{file}"],
    ["vectors", "--out", "{file}/sub"],
    ["experiments", "online", "--plots", "{file}"],
])
def test_a_bad_output_path_is_refused_before_any_work(argv, tmp_path, capsys):
    afile = tmp_path / "afile"
    afile.write_text("x")
    argv = [a.format(file=afile, dir=tmp_path) for a in argv]
    start = time.perf_counter()
    assert main(argv) == 2
    assert time.perf_counter() - start < 10.0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: --"), err


def test_the_audit_refusal_from_a_fresh_process_is_fast_and_one_line():
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "reference", "audit", "--json", "/nonexistent/dir/x.json"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert time.perf_counter() - start < 10.0
    assert out.stderr.strip() == "error: --json /nonexistent/dir/x.json: the directory /nonexistent/dir does not exist"
    assert "Traceback" not in out.stderr and out.stdout == ""


def test_good_paths_pass_and_checks_can_fail(tmp_path):
    check_output_file(str(tmp_path / "new.json"), "--json")
    check_output_file("-", "--json")
    check_output_dir(str(tmp_path / "a" / "b"), "--out")     # made when written
    check_output_dir(str(tmp_path), "--out")
    with pytest.raises(OutputPathError):
        check_output_file(str(tmp_path), "--json")           # a folder where a file is needed
    with pytest.raises(OutputPathError):
        check_output_dir("-", "--plots")


def test_mutants_json_dash_writes_the_report_to_standard_output(capsys):
    assert main(["mutants", "--id", "core-M01", "--json", "-", "--workers", "1"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)                         # standard output is the JSON alone
    assert [m["id"] for m in report["mutants"]] == ["core-M01"]
    assert "core-M01" in captured.err                         # the table went to standard error


@pytest.mark.parametrize("argv, extra", [
    (["experiments", "online", "--quick", "--plots", "{dir}"], "plots"),
    (["audit", "--quick", "--plots", "{dir}"], "plots"),
    (["audit", "--quick", "--scheduler", "tcp://127.0.0.1:1"], "dask"),
    (["conform", "reference.algorithms.heavy_tailed:cdpnsme", "--algorithm", "heavy_tailed:Algorithm 4",
      "--scheduler", "tcp://127.0.0.1:1"], "dask"),
])
def test_an_option_whose_extra_is_missing_is_refused_before_any_work(argv, extra, tmp_path, capsys, monkeypatch):
    """``experiments online --quick --plots DIR`` without matplotlib once worked a minute and died in a
    traceback. With the extra's module hidden (installed or not), every such option exits 2 at once with one
    line naming the extra; the folder is not even created."""
    import importlib.util

    hidden = {"matplotlib", "distributed"}
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a, **k: None if name in hidden else real_find_spec(name, *a, **k))
    target = tmp_path / "plots"
    argv = [a.replace("{dir}", str(target)) for a in argv]
    start = time.process_time()
    assert main(argv) == 2
    assert time.process_time() - start < 2.0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"'{extra}' extra" in err[0], err
    assert not target.exists()
