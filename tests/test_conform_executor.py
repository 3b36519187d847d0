"""conform on an executor (issue 35): the cases run as one task each, and the report is the serial run's, bit
for bit (every check of a case draws from seeds of that case alone). The Dask cluster variant is in
tests/audit/test_conform_dask.py (the ``extras`` tox environment)."""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor

import pytest

from reference.cli import main
from reference.errors import ParameterError
from reference.oracle import conform as cf

TARGET, ALGORITHM, MODE = "reference.algorithms.heavy_tailed:cdpnsme", "heavy_tailed:Algorithm 4", "law,validation"


def test_a_process_pool_gives_the_serial_report_and_its_paper_warnings():
    """heavy_tailed Algorithm 4 (four cases, two at the printed calibration below c*, which warn on every run):
    the same JSON, the PrivacyWarnings raised in the workers collected as the serial run collects them."""
    serial = cf._check_collecting_paper_warnings(target=TARGET, algorithm=ALGORITHM, mode=MODE, as_json=True)
    with ProcessPoolExecutor(2) as pool:
        pooled = cf._check_collecting_paper_warnings(target=TARGET, algorithm=ALGORITHM, mode=MODE, as_json=True,
                                                     executor=pool)
    assert serial["paper_calibration_warnings"]["count"] > 0
    assert cf.report_json(pooled) == cf.report_json(serial)
    assert len({r["case"] for r in serial["rows"]}) > 1                  # several cases, so several tasks


def test_the_command_with_workers_prints_the_serial_json(capsys):
    argv = ["conform", TARGET, "--algorithm", ALGORITHM, "--mode", MODE, "--json"]
    assert main(argv) == 0
    serial = capsys.readouterr().out
    assert main(argv + ["--workers", "2"]) == 0
    assert capsys.readouterr().out == serial
    assert json.loads(serial)["passed"] is True


def test_an_executor_needs_an_importable_target():
    """A callable cannot reach another process's import system: refused at once, naming the target."""
    from reference.algorithms.heavy_tailed import cdpnsme

    with ProcessPoolExecutor(1) as pool, pytest.raises(ParameterError, match="target"):
        cf.check_implementation(cdpnsme, ALGORITHM, mode=MODE, executor=pool)
