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


def test_mutants_conform_on_a_local_dask_cluster_gives_the_local_verdicts():
    """``mutants --conform --scheduler``: core-M01 (Laplace at half the scale) and core-M55 (report-noisy-max
    returning the exact argmax), one task each on the cluster, get the verdicts and details of the local run."""
    distributed = pytest.importorskip("dask.distributed")
    from reference.audit.runner import make_executor
    from reference.mutants import all_mutants
    from reference.mutants.conform import run_conform_matrix

    chosen = [m for m in all_mutants("core") if m.id in ("core-M01", "core-M55")]
    properties = ("replay", "law")
    local = run_conform_matrix(chosen, properties=properties)
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    try:
        executor = make_executor(scheduler=cluster.scheduler_address)
        remote = run_conform_matrix(chosen, properties=properties, executor=executor)
        executor.shutdown()
    finally:
        cluster.close()
    assert [r.status for r in local] == ["rejected", "rejected"]
    for a, b in zip(local, remote):
        assert (a.mutant.id, a.status, a.rejected_by, a.verdicts, a.details) == \
               (b.mutant.id, b.status, b.rejected_by, b.verdicts, b.details)
