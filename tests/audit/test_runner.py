"""Tests of the audit runner and the `audit` command: rows, JSON schema, seeds, errors, executors."""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import functools
import json
import subprocess
import sys

import numpy as np
import pytest

from reference.audit.cases import Bonferroni, ExactCase, PrivacyCase, RateCase, per_output, repeat
from reference.audit.runner import (SerialExecutor, chunk_seeds, discover_cases, make_executor, run_audit,
                                    run_audit_command, run_case)
from reference.errors import AuditError, ParameterError

JSON_FIELDS = {"claim", "paper", "kind", "verdict", "claimed_epsilon", "certified_epsilon", "epsilon_lower_bound",
               "exact_epsilon", "negative_control_detected", "samples", "seconds"}
CLAIM = "core:Laplace mechanism privacy"     # an audit claim registered by cases_core


def laplace(value, rng, n, *, scale):
    return value + rng.laplace(0.0, scale, n)


def nan_sampler(value, rng, n):
    out = value + rng.laplace(0.0, 1.0, n)
    out[n // 2] = np.nan
    return out


def type_changing(value, rng, n):
    """Returns floats on D and ints on D' (its output type changes between calls)."""
    x = value + rng.laplace(0.0, 1.0, n)
    return x if value == 0 else np.round(x).astype(int)


def one_run(value, rng, *, scale=1.0):
    return value + rng.laplace(0.0, scale, size=2)


def first(output):
    return output[0]


def tiny_case(**changes) -> PrivacyCase:
    fields = dict(claim=CLAIM, title="tiny Laplace", sampler=functools.partial(laplace, scale=1.0),
                  dataset=0.0, neighbour=1.0, claimed_epsilon=1.0, certified_epsilon=1.0,
                  negative_control=functools.partial(laplace, scale=0.5), negative_control_note="half the noise",
                  thresholds=Bonferroni(thresholds=(0.0, 1.0)), samples=40_000, quick_samples=20_000, chunk=5_000)
    fields.update(changes)
    return PrivacyCase(**fields)


def rate_trial(x, rng):
    return float(abs(rng.normal(0, 1 / np.sqrt(x), size=50)).mean())


def rr_pair(eps):
    e = np.exp(eps)
    return [e / (1 + e), 1 / (1 + e)], [1 / (1 + e), e / (1 + e)]


@pytest.mark.claim("core:Audit report")
def test_privacy_row_fields_and_verdict():
    row = run_case(tiny_case(), quick=True)
    assert row.verdict == "confirmed"
    assert row.negative_control_detected is True
    assert 0.8 < row.epsilon_lower_bound <= 1.0
    assert row.samples == 4 * 20_000
    assert JSON_FIELDS <= set(row.to_json())
    assert row.exact_epsilon is None


@pytest.mark.claim("core:Audit report")
def test_verdicts_unproven_and_refuted():
    assert run_case(tiny_case(certified_epsilon=None), samples=10_000).verdict == "unproven"
    # claiming eps 0.5 for an eps-1 mechanism: a valid lower bound exceeds the claim
    row = run_case(tiny_case(claimed_epsilon=0.5, certified_epsilon=1.0), samples=20_000)
    assert row.verdict == "refuted"
    exact = ExactCase(claim=CLAIM, title="RR", distributions=functools.partial(rr_pair, 1.0), claimed_epsilon=1.0,
                      certified_epsilon=1.0, negative_control=functools.partial(rr_pair, 2.0),
                      negative_control_note="RR at eps 2")
    row = run_case(exact)
    assert row.verdict == "confirmed" and row.exact_epsilon == pytest.approx(1.0)
    assert row.negative_control_detected and row.samples == 0


@pytest.mark.claim("core:Audit report")
def test_results_bit_identical_whatever_the_executor():
    """Serial, and a 2-process pool, give the same numbers: seeds come from SeedSequence spawning per chunk."""
    case = tiny_case(sampler=repeat(one_run), statistic=per_output(first),
                     negative_control=repeat(functools.partial(one_run, scale=0.5)), chunk=500)
    serial = run_case(case, samples=3_000)
    with cf.ProcessPoolExecutor(max_workers=2) as pool:
        pooled = run_case(case, samples=3_000, executor=pool)
    keys = ("epsilon_lower_bound", "negative_control_measured", "detail", "verdict")
    assert [getattr(serial, k) for k in keys] == [getattr(pooled, k) for k in keys]
    # chunk seeds depend on (case, side, index) only
    a = chunk_seeds(case, 0, 4)
    b = chunk_seeds(case, 0, 2)
    assert [s.generate_state(2).tolist() for s in a[:2]] == [s.generate_state(2).tolist() for s in b]


@pytest.mark.claim("core:Audit report")
def test_rate_case_row():
    """A correct rate (slope exactly -1/2) is 'consistent' when the bootstrap interval covers -1/2: with 8
    repeats that happens for about 93% of seeds (37 of 40 titles measured), so the verdict of a correct
    trial has a false-alarm rate of about 7%; the seed (from the title) is fixed."""
    case = RateCase(claim=CLAIM, title="mean |N(0, 1/n)| against n", trial=rate_trial, grid=(100, 400, 1600, 6400),
                    claimed_slope=-0.5, repeats=8, relation="equal", tolerance=0.05)
    row = run_case(case)
    assert row.verdict == "consistent"
    assert row.slope_lower <= -0.5 + 0.05 and row.slope_upper >= -0.5 - 0.05
    wrong = RateCase(claim=CLAIM, title="wrong exponent", trial=rate_trial, grid=(100, 400, 1600, 6400),
                     claimed_slope=-1.0, repeats=8, relation="equal")
    assert run_case(wrong).verdict == "inconsistent"


def fast_rate_trial(x, rng):
    """The same error at the nearest wrong exponent: mean |N(0, 1/n^2)| (slope -1)."""
    return float(abs(rng.normal(0, 1 / x, size=50)).mean())


@pytest.mark.claim("core:Audit report")
@pytest.mark.claim("core:Rate fit")
def test_rate_row_records_nearest_wrong_exponent_and_its_negative_control():
    """A rate row carries the nearest wrong exponent and a negative control, as privacy rows do: the right
    trial (slope -1/2) is consistent and its interval excludes -1; the control (slope -1) is refused by the
    same rule. A 'control' that is the right trial goes undetected and fails the row."""
    kw = dict(claim=CLAIM, title="rate row with controls", trial=rate_trial, grid=(100, 400, 1600, 6400),
              claimed_slope=-0.5, repeats=8, relation="equal", nearest_wrong_slope=-1.0,
              negative_control_note="the error at slope -1")
    row = run_case(RateCase(negative_control=fast_rate_trial, **kw))
    assert row.verdict == "consistent" and row.excludes_nearest_wrong is True
    assert row.nearest_wrong_slope == -1.0
    assert row.negative_control_detected is True and not row.failed
    assert row.negative_control_measured == pytest.approx(-1.0, abs=0.1)
    assert {"nearest_wrong_slope", "excludes_nearest_wrong", "negative_control_detected"} <= set(row.to_json())
    same = run_case(RateCase(negative_control=rate_trial, **kw))
    assert same.negative_control_detected is False and same.failed
    plain = run_case(RateCase(**{k: v for k, v in kw.items() if k != "nearest_wrong_slope"}))
    assert plain.negative_control_detected is None and plain.excludes_nearest_wrong is None
    with pytest.raises(ParameterError):
        RateCase(**{**kw, "nearest_wrong_slope": -0.5})


@pytest.mark.claim("core:Audit report")
def test_no_consistent_rate_verdict_when_the_interval_excludes_the_claim():
    """A tolerance, or an upper-bound relation, may allow a fit whose interval excludes the claimed exponent;
    such a row is 'unproven', never 'consistent' (slope -1/2 measured, -0.6 claimed with tolerance 0.15)."""
    kw = dict(claim=CLAIM, title="mean |N(0, 1/n)|", trial=rate_trial, grid=(100, 400, 1600, 6400), repeats=8)
    row = run_case(RateCase(claimed_slope=-0.6, relation="equal", tolerance=0.15, **kw))
    assert row.slope_upper < -0.45 and row.slope_lower > -0.6     # inside the tolerance, not at the claim
    assert row.verdict == "unproven"
    assert run_case(RateCase(claimed_slope=-0.3, relation="at_most", **kw)).verdict == "unproven"
    assert run_case(RateCase(claimed_slope=-0.7, relation="at_most", **kw)).verdict == "inconsistent"


def sqrt_bound(x, *, c):
    return c / np.sqrt(x)


@pytest.mark.claim("core:Audit report")
def test_rate_case_explicit_bound():
    """E|N(0, 1/x)| = sqrt(2/(pi x)) ~ 0.80/sqrt(x): a bound 1/sqrt(x) holds, 0.5/sqrt(x) does not."""
    kw = dict(claim=CLAIM, title="mean |N(0, 1/n)|", trial=rate_trial, grid=(100, 400, 1600), claimed_slope=-0.5,
              repeats=6, relation="at_most", tolerance=0.1)
    ok = run_case(RateCase(bound=functools.partial(sqrt_bound, c=1.0), **kw))
    assert ok.bound_respected is True and ok.verdict == "consistent"
    bad = run_case(RateCase(bound=functools.partial(sqrt_bound, c=0.5), **kw))
    assert bad.bound_respected is False and bad.verdict == "inconsistent"


@pytest.mark.claim("core:Audit input validation")
def test_bad_input_is_a_clear_error():
    with pytest.raises(ParameterError):
        run_case(tiny_case(), samples=0)                  # N < 1
    for beta in (0.0, 1.0, -1.0):
        with pytest.raises(ParameterError):
            run_case(tiny_case(), beta=beta)
    with pytest.raises(AuditError, match="NaN"):
        run_case(tiny_case(sampler=nan_sampler), samples=1_000)
    with pytest.raises(AuditError, match="type"):
        run_case(tiny_case(sampler=type_changing), samples=1_000)
    with pytest.raises(AuditError, match="not registered"):
        run_case(tiny_case(claim="core:No such claim"), samples=1_000)
    with pytest.raises(ParameterError):
        tiny_case(samples=0)
    with pytest.raises(ParameterError):
        tiny_case(negative_control=None)
    with pytest.raises(AuditError, match="worker"):
        with cf.ProcessPoolExecutor(max_workers=1) as pool:
            run_case(tiny_case(sampler=lambda v, r, n: v + r.laplace(0, 1, n)), samples=1_000, executor=pool)


def _args(tmp_path, **kw):
    base = dict(paper=None, quick=True, json=str(tmp_path / "audit.json"), plots=None, scheduler=None, workers=1)
    base.update(kw)
    return argparse.Namespace(**base)


@pytest.mark.claim("core:Audit report")
def test_command_writes_json_rows(tmp_path, capsys):
    exact = ExactCase(claim=CLAIM, title="RR", distributions=functools.partial(rr_pair, 1.0), claimed_epsilon=1.0,
                      certified_epsilon=1.0, negative_control=functools.partial(rr_pair, 2.0),
                      negative_control_note="RR at eps 2")
    status = run_audit_command(_args(tmp_path), cases=[tiny_case(), exact])
    assert status == 0
    out = capsys.readouterr()
    assert CLAIM in out.out and "[1/2]" in out.err
    rows = json.loads((tmp_path / "audit.json").read_text())["rows"]
    assert len(rows) == 2
    for row in rows:
        assert JSON_FIELDS <= set(row)
        assert row["paper"] == "core" and row["kind"] == "privacy"
        assert row["verdict"] in ("confirmed", "unproven", "refuted")
        assert isinstance(row["negative_control_detected"], bool)
    assert rows[0]["exact_epsilon"] is None and rows[1]["exact_epsilon"] == pytest.approx(1.0)


def disjoint_pair():
    return [1.0, 0.0], [0.0, 1.0]


@pytest.mark.claim("core:Audit report")
def test_infinite_epsilon_is_written_as_the_string_inf(tmp_path):
    case = ExactCase(claim=CLAIM, title="RR", distributions=functools.partial(rr_pair, 1.0), claimed_epsilon=1.0,
                     certified_epsilon=1.0, negative_control=disjoint_pair, negative_control_note="disjoint")
    assert run_audit_command(_args(tmp_path), cases=[case]) == 0
    row = json.loads((tmp_path / "audit.json").read_text())["rows"][0]
    assert row["negative_control_measured"] == "inf" and row["negative_control_detected"] is True


@pytest.mark.claim("core:Audit input validation")
def test_failed_audit_writes_no_report(tmp_path):
    with pytest.raises(AuditError):
        run_audit_command(_args(tmp_path), cases=[tiny_case(), tiny_case(sampler=nan_sampler)])
    assert not (tmp_path / "audit.json").exists()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.claim("core:Clopper-Pearson audit soundness")
def test_undetected_negative_control_fails_the_audit(tmp_path):
    """A 'negative control' that is not mis-calibrated passes: the audit must report failure (exit 1)."""
    case = tiny_case(negative_control=functools.partial(laplace, scale=1.0))
    row = run_case(case, samples=20_000)
    assert row.negative_control_detected is False and row.failed
    assert run_audit_command(_args(tmp_path), cases=[case]) == 1


@pytest.mark.claim("core:Clopper-Pearson audit soundness")
def test_exact_case_with_a_correct_control_reports_it_undetected(tmp_path):
    """Deterministic: an exact case whose 'negative control' is the correct mechanism (randomized response
    at the claimed epsilon) must report the control undetected and fail the audit; a control 10% off the
    claim is detected."""
    kw = dict(claim=CLAIM, title="RR", distributions=functools.partial(rr_pair, 1.0), claimed_epsilon=1.0,
              certified_epsilon=1.0, negative_control_note="the correct mechanism")
    case = ExactCase(negative_control=functools.partial(rr_pair, 1.0), **kw)
    row = run_case(case)
    assert row.negative_control_detected is False and row.failed
    assert row.negative_control_measured == pytest.approx(1.0)
    assert run_audit_command(_args(tmp_path), cases=[case]) == 1
    close = run_case(ExactCase(negative_control=functools.partial(rr_pair, 1.1), **kw))
    assert close.negative_control_detected is True and not close.failed


@pytest.mark.claim("core:Audit input validation")
def test_plots_without_matplotlib_is_a_clear_error(tmp_path):
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        proc = subprocess.run([sys.executable, "-m", "reference", "audit", "--paper", "core", "--quick",
                               "--plots", str(tmp_path / "p"), "--json", str(tmp_path / "a.json")],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 2
        assert "matplotlib" in proc.stderr and "plots" in proc.stderr
        assert not (tmp_path / "a.json").exists()
    else:
        run_audit_command(_args(tmp_path, plots=str(tmp_path / "p")), cases=[tiny_case()])
        assert list((tmp_path / "p").glob("*.png"))


@pytest.mark.claim("core:Audit report")
def test_executors():
    assert isinstance(make_executor(1), SerialExecutor)
    with pytest.raises(ParameterError):
        make_executor(0)
    pool = make_executor(2)
    assert isinstance(pool, cf.ProcessPoolExecutor)
    pool.shutdown()


@pytest.mark.claim("core:Audit report")
def test_dask_local_cluster_gives_the_same_numbers():
    distributed = pytest.importorskip("dask.distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    try:
        executor = make_executor(scheduler=cluster.scheduler_address)
        case = tiny_case()
        assert run_case(case, samples=10_000, executor=executor).detail == run_case(case, samples=10_000).detail
    finally:
        cluster.close()


@pytest.mark.claim("core:Audit report")
def test_discovery_finds_the_core_cases():
    claims = {c.claim for c in discover_cases("core")}
    assert {"core:Laplace mechanism privacy", "core:Gaussian mechanism privacy",
            "core:Exponential mechanism privacy", "core:Laplace report-noisy-max privacy",
            "core:Gumbel report-noisy-max privacy", "core:Tree aggregation privacy"} <= claims
    assert all(c.claim.startswith("core:") for c in discover_cases("core"))


def _exact_one():
    return 1.0


def _exact_two():
    return 2.0


@pytest.mark.claim("core:Audit report")
def test_white_box_row_reports_exact_and_tightness_and_says_why_it_falls_short():
    """tightness = measured / certified; an exact value above the claim refutes; a row below its target says
    why: 'sampling error only' when the exact value reaches the target, else the case's reason and exact/certified."""
    row = run_case(tiny_case(audit="white-box", exact=_exact_one, tightness_target=0.9), quick=True)
    assert row.audit == "white-box" and row.exact_epsilon == 1.0
    assert row.measured_epsilon == row.epsilon_lower_bound and row.tightness == pytest.approx(row.epsilon_lower_bound)
    if row.tightness < 0.9:
        assert "sampling error only" in row.tightness_note
    low = run_case(tiny_case(audit="white-box", exact=functools.partial(float, 0.5), tightness_target=1.0,
                             tightness_note="the ledger is loose"), quick=True)
    assert "the ledger is loose" in low.tightness_note and "exact 0.5 / certified 1 = 0.5" in low.tightness_note
    bad = run_case(tiny_case(exact=_exact_two), quick=True)
    assert bad.verdict == "refuted"
    assert row.to_json()["tightness"] == row.tightness and row.to_json()["audit"] == "white-box"
    with pytest.raises(ParameterError):
        tiny_case(audit="grey-box")
    with pytest.raises(ParameterError):
        tiny_case(tightness_target=1.5)


@pytest.mark.claim("core:Audit report")
def test_quick_skips_full_only_rows_and_keeps_the_full_audits_keys():
    cases = [tiny_case(title="a", in_quick=False), tiny_case(title="b")]
    rows = run_audit(cases=cases, quick=True)
    assert [r.title for r in rows] == ["b"] and rows[0].key == f"{CLAIM} #2"


@pytest.mark.claim("core:Audit report")
def test_retired_rows_never_run_and_keep_their_key():
    cases = [tiny_case(title="a", retired="audited by #3"), tiny_case(title="b"), tiny_case(title="c")]
    said = []
    for quick in (True, False):
        rows = run_audit(cases=cases, quick=quick, progress=said.append, samples=5_000)
        assert [(r.title, r.key) for r in rows] == [("b", f"{CLAIM} #2"), ("c", f"{CLAIM} #3")]
    assert any("retired" in s and f"{CLAIM} #1: audited by #3" in s for s in said)
    with pytest.raises(ParameterError):
        tiny_case(retired=True)


@pytest.mark.claim("core:Audit report")
def test_rows_run_in_parallel_on_a_pool_give_the_serial_numbers_in_the_table_order():
    """On a local process pool whole rows run side by side (both cores busy on rows whose time is spent in
    their own process); the rows are those of a serial run, number for number, in the same order; a
    case that cannot be pickled is refused with the pool's own error, as before."""
    cases = [tiny_case(title=t, sampler=repeat(one_run), statistic=per_output(first),
                       negative_control=repeat(functools.partial(one_run, scale=0.5)), chunk=500)
             for t in ("a", "b", "c")]
    cases.append(tiny_case(title="d", sampler=repeat(one_run), statistic=lambda x: x[..., 0],
                           negative_control=repeat(functools.partial(one_run, scale=0.5)), chunk=500))
    serial = run_audit(cases=cases[:3], samples=2_000)
    with cf.ProcessPoolExecutor(max_workers=2) as pool:
        pooled = run_audit(cases=cases[:3], samples=2_000, executor=pool)
        with pytest.raises(AuditError):            # the unpicklable statistic is refused by the pool's check
            run_audit(cases=cases, samples=2_000, executor=pool)
    keys = ("key", "title", "epsilon_lower_bound", "negative_control_measured", "detail", "verdict")
    assert [[getattr(r, k) for k in keys] for r in serial] == [[getattr(r, k) for k in keys] for r in pooled]
