"""``conform ... --scheduler ADDRESS`` on a local Dask cluster gives the local run's JSON (issue 35). Runs where
dask.distributed is installed (tox -e extras); skipped otherwise. The process-pool variant, which needs nothing
extra, is tests/test_conform_executor.py."""

from __future__ import annotations

import pytest

from reference.cli import main

TARGET, ALGORITHM, MODE = "reference.algorithms.heavy_tailed:cdpnsme", "heavy_tailed:Algorithm 4", "law,validation"


def test_conform_on_a_local_dask_cluster_prints_the_local_json(capsys):
    distributed = pytest.importorskip("dask.distributed")
    argv = ["conform", TARGET, "--algorithm", ALGORITHM, "--mode", MODE, "--json"]
    assert main(argv) == 0
    local = capsys.readouterr().out
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    try:
        assert main(argv + ["--scheduler", cluster.scheduler_address]) == 0
        assert capsys.readouterr().out == local
    finally:
        cluster.close()
