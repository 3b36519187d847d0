"""conform's two answers and its robustness (reference/oracle/conform.py, reference/oracle/checks.py).

"Does it conform?" (the properties of the released outputs and of the candidate's own claim) sets the
exit status; "is it bit-exact?" (replay; and accounting against the reference's ledger) is always
reported and decides only when asked (``require``). Each test runs a candidate the verdict must
accept beside one it must reject, so each assertion is shown able to fail. The candidates are cheap
ports of the building blocks; the properties run are chosen per test (``mode``) to keep the default
run short. Law checks run at fixed seeds (deterministic), false alarm the case's alpha (<= 1e-3) each.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import types
import warnings
from pathlib import Path

import numpy as np
import pytest

from reference.oracle.conform import (AGREEMENT, CONFORMANCE, ConformanceRow, check_implementation, format_report,
                                   plan, report_json)
from reference.errors import ParameterError, PrivacyWarning
from reference.oracle.suite import cases
from reference.oracle.vectors import resolve

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PrivacyWarning)
        yield


def _v(report):
    return {v["property"]: v for v in report["properties"]}


def _flat(text: str) -> str:
    """The text report with its line wrapping undone (every run of whitespace one space)."""
    return " ".join(text.split())


# ---- candidates ------------------------------------------------------------------------------

def _checked(value, sensitivity, scale):
    value = np.asarray(value, dtype=float)
    if not np.all(np.isfinite(value)):
        raise ValueError("value must be finite")
    if not (sensitivity > 0 and scale >= 0):
        raise ValueError("sensitivity must be > 0 and scale >= 0")
    return value


def laplace_own_way(value, sensitivity, scale, rng):
    """A correct Laplace port that adds its noise with the other sign (same law, other values)."""
    value = _checked(value, sensitivity, scale)
    return value - rng.laplace(0.0, scale, value.shape)


def laplace_half_noise(value, sensitivity, scale, rng):
    value = _checked(value, sensitivity, scale)
    return value - rng.laplace(0.0, 0.5 * scale, value.shape)


def laplace_unseeded(value, sensitivity, scale, rng):
    """Ignores rng (as OpenDP does): the right law, no seed."""
    value = _checked(value, sensitivity, scale)
    return value + np.random.default_rng().laplace(0.0, scale, value.shape)


def laplace_partly_seeded(value, sensitivity, scale, rng):
    """Draws the first coordinate's noise from rng and the others' from an unseeded generator: the right law,
    and (a continuous law) other outputs for the same seed, always."""
    value = _checked(value, sensitivity, scale)
    noise = np.random.default_rng().laplace(0.0, scale, value.shape)
    noise.flat[0] = rng.laplace(0.0, scale)
    return value + noise


def laplace_parameter_error_inside(value, sensitivity, scale, rng):
    """Raises the package's own error from inside (a bug of the port on valid input)."""
    raise ParameterError("internal", "a state the port never reaches", scale)


def laplace_nan_output(value, sensitivity, scale, rng):
    value = _checked(value, sensitivity, scale)
    return value + np.nan


def laplace_runtime_error(value, sensitivity, scale, rng):
    raise RuntimeError("the binding's buffer is too small")


CHEAP = "replay,law,accounting,claim,zero-noise,finite-shape,determinism,validation"


# ---- the two answers --------------------------------------------------------------------------

def test_plan_separates_conformance_from_agreement():
    assert set(AGREEMENT) == {"replay", "accounting"} and not set(AGREEMENT) & set(CONFORMANCE)
    run, deciding = plan("all")
    assert "replay" in run and "replay" not in deciding and "law" in deciding
    assert "replay" in plan("all", "replay")[1] and "accounting" not in plan("all", "replay")[1]
    assert set(AGREEMENT) <= set(plan("all", "all")[1])
    assert plan("replay")[1] == ("replay",)              # only replay asked for: it answers
    assert plan("replay,law")[1] == ("law",)
    assert plan("law", "replay") == (("replay", "law"), ("replay", "law"))   # --require runs what it names
    with pytest.raises(ParameterError):
        plan("all", "bogus")


def test_a_correct_port_that_draws_its_own_noise_conforms_and_is_not_bit_exact():
    """Default: replay fails (reported, not deciding), every output property passes -> passed; asked for
    replay (require), the same run fails; a half-noise port fails the law whatever is required."""
    report = check_implementation(laplace_own_way, "core:laplace_mechanism", mode=CHEAP, as_json=True)
    v = _v(report)
    assert report["passed"] and report["failed"] == [], format_report(report)
    assert report["conforms"]["answer"] == "yes"
    assert report["bit_exact"] == {"answer": "no", "decides": False, "detail": v["replay"]["detail"]}
    assert v["replay"]["verdict"] == "fail" and not v["replay"]["decides"] and v["replay"]["group"] == "agreement"
    text = format_report(report)
    assert "Does it conform?" in text and "Is it bit-exact?" in text
    assert "conforms: every applicable property" in text and "bit-exact (replay): no (reported, not required)" in text
    assert text.rstrip().endswith("exit 0: every deciding property passed")

    required = check_implementation(laplace_own_way, "core:laplace_mechanism", mode=CHEAP, as_json=True,
                                    require="replay")
    assert not required["passed"] and required["failed"] == ["replay"], format_report(required)
    assert required["conforms"]["answer"] == "yes" and required["bit_exact"]["decides"]

    half = check_implementation(laplace_half_noise, "core:laplace_mechanism", mode=CHEAP, as_json=True)
    assert not half["passed"] and "law" in half["failed"] and half["conforms"]["answer"] == "no"


def test_the_command_exits_0_for_the_port_and_1_when_replay_is_required(tmp_path):
    (tmp_path / "confa_port.py").write_text(
        "import numpy as np\n"
        "def laplace(value, sensitivity, scale, rng):\n"
        "    value = np.asarray(value, dtype=float)\n"
        "    if not np.all(np.isfinite(value)) or not (sensitivity > 0 and scale >= 0):\n"
        "        raise ValueError('value, sensitivity, scale')\n"
        "    return value - rng.laplace(0.0, scale, value.shape)\n", encoding="utf-8")
    env = {**__import__("os").environ, "PYTHONPATH": f"{tmp_path}{__import__('os').pathsep}{ROOT}"}
    base = [sys.executable, "-m", "reference", "conform", "confa_port:laplace", "--algorithm", "core:laplace_mechanism",
            "--mode", "replay,zero-noise,finite-shape,determinism,validation"]

    def run(*extra):
        return subprocess.run(base + list(extra), capture_output=True, text=True, env=env, cwd=ROOT)

    ok = run()
    assert ok.returncode == 0 and "bit-exact (replay): no (reported, not required)" in ok.stdout, ok.stdout + ok.stderr
    req = run("--require", "replay", "--json")
    assert req.returncode == 1, req.stdout + req.stderr
    report = json.loads(req.stdout)
    assert report["failed"] == ["replay"] and report["conforms"]["answer"] == "yes" and report["bit_exact"]["decides"]
    bad = run("--require", "nonsense")
    assert bad.returncode == 2 and "require" in bad.stderr


# ---- robustness: no exception aborts the run; --json always writes --------------------------------

def test_an_exception_inside_the_candidate_is_that_propertys_fail_with_its_text():
    """A ParameterError raised inside the candidate used to abort the run from the law check (exit 2, no
    report); a RuntimeError likewise. Now every property that runs it fails, naming the exception."""
    for candidate, name in ((laplace_parameter_error_inside, "ParameterError"),
                            (laplace_runtime_error, "RuntimeError")):
        report = check_implementation(candidate, "core:laplace_mechanism", mode="law,finite-shape,determinism,"
                                      "feasibility,zero-noise", as_json=True)
        v = _v(report)
        for prop in ("law", "finite-shape", "determinism", "zero-noise"):
            assert v[prop]["verdict"] == "fail" and name in v[prop]["detail"], (prop, v[prop])
        assert v["feasibility"]["verdict"] == "n/a", v["feasibility"]     # declared n/a: stays n/a
        json.loads(report_json(report))


def test_a_non_finite_statistic_is_a_law_fail_not_an_abort():
    report = check_implementation(laplace_nan_output, "core:laplace_mechanism", mode="law", as_json=True)
    v = _v(report)["law"]
    assert v["verdict"] == "fail" and "finite" in v["detail"], v


def laplace_huge(value, sensitivity, scale, rng):
    """Finite outputs of 1e200 (a wrong port, but finite numbers): a statistic that squares them overflows."""
    return _checked(value, sensitivity, scale) + 1e200


def test_conforms_own_numerical_failures_are_reported_as_conforms_not_the_candidates():
    """Issue 31: a non-finite value of conform's own statistic read "raised ParameterError: output must be a finite
    statistic" as if the candidate had raised it. Now the verdict text says whose failure it is: the candidate's
    exception, the candidate's non-finite output, or conform's own statistic (on a finite output, or on the
    reference's side)."""
    import dataclasses

    from reference.oracle.vectors import distribution_check

    (case,) = [c for c in cases("core:laplace_mechanism") if c.statistic is not None][:1]
    # the candidate's own exception: named as the candidate's, with the run
    ok, _, detail = distribution_check(case, laplace_parameter_error_inside, n_runs=50)
    assert not ok and detail.startswith("the candidate raised ParameterError: internal") and "(run 1 of 50)" in detail
    # the candidate's NaN output: the output is named, the candidate did not raise
    ok, _, detail = distribution_check(case, laplace_nan_output, n_runs=50)
    assert not ok and "the output has" in detail and "non-finite" in detail and "raised" not in detail, detail
    # conform's statistic overflows on a finite output of the candidate: conform's failure
    squares = dataclasses.replace(case, statistic=lambda out: float(np.sum(np.square(np.asarray(out, dtype=float)))),
                                  batch=False)
    with np.errstate(over="ignore"):
        ok, _, detail = distribution_check(squares, laplace_huge, n_runs=50)
    assert not ok and detail.startswith("conform's own statistic is not finite (inf) on the candidate's finite output"), \
        detail
    assert "not of the candidate" in detail and "raised" not in detail
    # conform's statistic fails on the reference's own side: conform's failure, whatever the candidate
    broken = dataclasses.replace(case, statistic=lambda out: float("nan"))
    ok, _, detail = distribution_check(broken, laplace_own_way, n_runs=50)
    assert not ok and detail.startswith("conform's own statistic is not finite (nan) on the reference's"), detail
    # the same through the report: the law row names conform, not the candidate
    rows = [r for r in check_implementation(laplace_huge, "core:laplace_mechanism", mode="law") if r.status == "fail"]
    assert rows and all("the candidate raised" not in r.detail and "stopped on the candidate" not in r.detail
                        for r in rows), rows


def test_report_json_writes_numpy_booleans():
    """The privacy audit's ``bound <= claim`` is a numpy.bool; json.dumps refuses it (the negative control)."""
    with pytest.raises(TypeError):
        json.dumps({"passed": np.bool_(False)})
    row = ConformanceRow("core:x", "case", "privacy", np.bool_(False), "lower bound above the claim")
    assert row.passed is False and row.status == "fail"
    from dataclasses import asdict

    assert json.loads(report_json({"rows": [asdict(row)], "extra": np.float64(0.5), "flag": np.bool_(True)})) == {
        "rows": [{"algorithm": "core:x", "case": "case", "check": "privacy", "passed": False,
                  "detail": "lower bound above the claim", "status": "fail"}], "extra": 0.5, "flag": True}


# ---- the input contract ------------------------------------------------------------------------

def _validation(candidate, algorithm="core:laplace_mechanism"):
    return [r for r in check_implementation(candidate, algorithm, mode="validation") if r.check == "validation"]


def test_validation_a_value_error_is_a_refusal_a_type_error_a_call_mismatch():
    rows = _validation(laplace_own_way)
    assert rows and all(r.status == "pass" for r in rows), rows

    def wrong_signature(value, sens, scale, rng):       # the cases pass sensitivity=
        return laplace_own_way(value, sens, scale, rng)

    rows = _validation(wrong_signature)
    assert rows and all(r.status == "fail" and "call mismatch" in r.detail and "TypeError" in r.detail
                        for r in rows), rows


def test_validation_another_exception_passes_only_when_it_names_the_parameter():
    def names_it(value, sensitivity, scale, rng):
        value = np.asarray(value, dtype=float)
        if scale < 0:
            raise RuntimeError("scale must be >= 0")
        if sensitivity < 0:
            raise RuntimeError("bad sensitivity")
        if np.isnan(value).any():
            raise ArithmeticError("value has a NaN")
        return value - rng.laplace(0.0, scale, value.shape)

    def crashes(value, sensitivity, scale, rng):
        raise ZeroDivisionError("division by zero")

    status = {r.detail.split(" (")[0]: r.status for r in _validation(names_it)}
    assert status and all(s == "pass" for s in status.values()), status
    rows = _validation(crashes)
    assert rows and all(r.status == "fail" and "a crash, not a refusal" in r.detail for r in rows), rows


def test_validation_shows_what_a_candidate_returned_on_nan_input():
    def returns_on_nan(value, sensitivity, scale, rng):
        if scale < 0 or sensitivity < 0:
            raise ValueError("scale, sensitivity")
        value = np.asarray(value, dtype=float)
        return value - rng.laplace(0.0, scale, value.shape)

    nans = [r.detail for r in _validation(returns_on_nan) if "NaN in value" in r.detail]
    assert nans and all("returned [" in d and "nan" in d and "(NaN)" in d for d in nans), nans


def test_validation_reads_a_bare_or_unreadable_result_inside_its_guard():
    """core:private_prefix_sums' case output reads ``.prefix_sums``: a port returning the bare array on a NaN
    input used to crash the run with a traceback (validation_check read it outside its try)."""
    tree = resolve(cases("core:private_prefix_sums")[0].reference)

    def bare_prefix_sums(xs, sigma, rng, **_):
        return np.cumsum(np.asarray(xs, dtype=float), axis=0) + 0.0 * sigma   # refuses nothing

    with pytest.raises(AttributeError):      # what the case's own reader does with a bare array
        cases("core:private_prefix_sums")[0].output(np.zeros(7))
    rows = _validation(bare_prefix_sums, "core:private_prefix_sums")
    assert rows and all(r.status == "fail" and "returned [" in r.detail for r in rows), rows

    def unreadable(xs, sigma, rng, **_):
        return object()

    rows = _validation(unreadable, "core:private_prefix_sums")
    assert rows and all(r.status == "fail" and "cannot read" in r.detail for r in rows), rows
    rows = _validation(lambda **kw: tree(**kw).prefix_sums, "core:private_prefix_sums")
    assert rows and all(r.status == "pass" for r in rows), rows
    rows = check_implementation(lambda **kw: tree(**kw).prefix_sums, "core:private_prefix_sums", mode="replay")
    assert rows and all(r.status == "pass" for r in rows), rows         # the bare array is read as the output


# ---- zero-noise: a refusal must name the setting -------------------------------------------------

def test_zero_noise_is_n_a_only_for_a_refusal_naming_the_setting():
    def refuses_scale_zero(value, sensitivity, scale, rng):
        if scale <= 0:
            raise ValueError("scale must be > 0")
        return laplace_own_way(value, sensitivity, scale, rng)

    def divides_by_zero(value, sensitivity, scale, rng):
        return np.asarray(value, dtype=float) + 1.0 / scale * 0.0

    def unrelated_value_error(value, sensitivity, scale, rng):
        if scale == 0:
            raise ValueError("math domain error")
        return laplace_own_way(value, sensitivity, scale, rng)

    mode = "zero-noise"
    assert _v(check_implementation(refuses_scale_zero, "core:laplace_mechanism", mode=mode, as_json=True))[
        "zero-noise"]["verdict"] == "n/a"
    assert _v(check_implementation(laplace_own_way, "core:laplace_mechanism", mode=mode, as_json=True))[
        "zero-noise"]["verdict"] == "pass"
    for bad in (divides_by_zero, unrelated_value_error):
        v = _v(check_implementation(bad, "core:laplace_mechanism", mode=mode, as_json=True))["zero-noise"]
        assert v["verdict"] == "fail" and "not a refusal naming scale" in v["detail"], (bad.__name__, v)


# ---- determinism of an unseeded candidate ---------------------------------------------------------

def test_determinism_is_n_a_for_an_unseeded_candidate_and_fails_a_partly_seeded_one():
    mode = "determinism"
    v = _v(check_implementation(laplace_unseeded, "core:laplace_mechanism", mode=mode, as_json=True))["determinism"]
    assert v["verdict"] == "n/a" and "never drew from the rng" in v["detail"], v
    v = _v(check_implementation(laplace_partly_seeded, "core:laplace_mechanism", mode=mode, as_json=True))[
        "determinism"]
    assert v["verdict"] == "fail" and "not only from rng" in v["detail"], v
    v = _v(check_implementation(laplace_partly_seeded, "core:laplace_mechanism", mode=mode, as_json=True,
                                unseeded=True))["determinism"]
    assert v["verdict"] == "n/a" and "--unseeded" in v["detail"], v
    v = _v(check_implementation(laplace_own_way, "core:laplace_mechanism", mode=mode, as_json=True))["determinism"]
    assert v["verdict"] == "pass", v

    def seeds_a_child(value, sensitivity, scale, rng):        # takes its seed from rng without drawing from it
        return laplace_own_way(value, sensitivity, scale, rng.spawn(1)[0])

    v = _v(check_implementation(seeds_a_child, "core:laplace_mechanism", mode=mode, as_json=True))["determinism"]
    assert v["verdict"] == "pass", v


# ---- the candidate's own claim, and the reference's ledger (informational) --------------------------

def _lasso(**kw):
    from reference.algorithms.lasso import private_lasso

    return private_lasso(**kw)


def test_claim_requires_the_certificate_to_cover_the_candidates_own_claim():
    """The reference passes on every lasso case (on laplace-paper its printed noise certifies 1.31 for its
    claim 1, the paper's shortfall, lasso-E02, which a port may share and no more); a port claiming half the
    epsilon it spends fails; one that reports no claim is n/a."""
    def overclaims(**kw):
        res = _lasso(**kw)
        return types.SimpleNamespace(theta=res.theta, ledger=res.ledger, claimed_epsilon=res.claimed_epsilon / 2)

    def bare(**kw):
        return _lasso(**kw).theta

    ref = _v(check_implementation("reference.algorithms.lasso:private_lasso", "lasso:Algorithm 2", mode="claim",
                                  as_json=True))["claim"]
    assert ref["verdict"] == "pass" and ref["passed"] == ref["applicable"] == len(cases("lasso:Algorithm 2")), ref
    rows = check_implementation(overclaims, "lasso:Algorithm 2", mode="claim")
    assert rows and all(r.status == "fail" and "does not cover" in r.detail for r in rows), rows
    rows = check_implementation(bare, "lasso:Algorithm 2", mode="claim")
    assert rows and all(r.status == "n/a" for r in rows), rows


def test_a_ledger_that_differs_from_the_references_is_reported_and_decides_only_when_required():
    def under_reports(value, sensitivity, scale, rng, ledger=None):
        if ledger is not None:
            ledger.append({"kind": "laplace", "sensitivity": sensitivity, "norm": "l1", "noise_scale": 2 * scale})
        return laplace_own_way(value, sensitivity, scale, rng)

    under_reports.__module__ = __name__        # conform hands it a fresh ``Ledger`` of its module
    report = check_implementation(under_reports, "core:laplace_mechanism", mode="accounting,claim,finite-shape",
                                  as_json=True)
    v = _v(report)
    assert v["accounting"]["verdict"] == "fail" and not v["accounting"]["decides"] and report["passed"], v
    assert report["accounting"]["answer"] == "no"
    required = check_implementation(under_reports, "core:laplace_mechanism", mode="accounting,claim,finite-shape",
                                    as_json=True, require="accounting")
    assert not required["passed"] and required["failed"] == ["accounting"]


class Ledger(list):
    """The ledger class conform finds in this module (a list of event dicts)."""


# ---- readings: the tree's outer log -------------------------------------------------------------

def test_a_port_reading_the_tree_log_as_ln_conforms_under_that_reading():
    """online Algorithm 5 with the printed sigma in natural logs (docs/errata.md online-E03 leaves the base
    open): the law check rejects it under the reference's reading log2 and passes it under tree_log=ln,
    and the verdict says which reading it conforms under."""
    from reference.oracle.conform import online_private_sum_ln

    default = check_implementation(online_private_sum_ln, "online:Algorithm 5", mode="law", as_json=True)
    assert not default["passed"] and _v(default)["law"]["verdict"] == "fail", format_report(default)
    assert ("under the reference's reading tree_log=log2, tree_inner_log=ln (another: --reading tree_log=ln, "
            "--reading tree_inner_log=log2)") in _flat(format_report(default))
    ln = check_implementation(online_private_sum_ln, "online:Algorithm 5", mode="law,replay", as_json=True,
                              readings=["tree_log=ln"])
    assert ln["passed"] and _v(ln)["replay"]["verdict"] == "pass", format_report(ln)
    assert ln["readings"]["tree_log"]["value"] == "ln" and ln["readings"]["tree_log"]["errata"] == "online-E03"
    assert "conforms under reading tree_log=ln (declared; docs/errata.md)" in _flat(format_report(ln))
    from reference.oracle.conform import online_pqftl_ln

    pqftl = check_implementation(online_pqftl_ln, "online:Algorithm 4", mode="replay", as_json=True)
    assert not pqftl["passed"], format_report(pqftl)      # the paper case's draws are scaled otherwise
    pqftl = check_implementation(online_pqftl_ln, "online:Algorithm 4", mode="replay", as_json=True,
                                 readings={"tree_log": "ln"})
    assert pqftl["passed"], format_report(pqftl)
    # the inner log's base (online-E08), read as log2 by a port: rejected by default, conforms when declared
    from reference.oracle.conform import online_private_sum_inner_log2

    inner = check_implementation(online_private_sum_inner_log2, "online:Algorithm 5", mode="law", as_json=True)
    assert not inner["passed"], format_report(inner)
    inner = check_implementation(online_private_sum_inner_log2, "online:Algorithm 5", mode="law,replay", as_json=True,
                                 readings=["tree_inner_log=log2"])
    assert inner["passed"] and inner["bit_exact"]["answer"] == "yes", format_report(inner)
    # PQFTL's two trees carry the same printed sigma: the same reading is declarable for it (issue 31)
    from reference.oracle.conform import online_pqftl_inner_log2

    inner = check_implementation(online_pqftl_inner_log2, "online:Algorithm 4", mode="law", as_json=True)
    assert not inner["passed"], format_report(inner)
    inner = check_implementation(online_pqftl_inner_log2, "online:Algorithm 4", mode="law,replay", as_json=True,
                                 readings=["tree_inner_log=log2"])
    assert inner["passed"] and inner["bit_exact"]["answer"] == "yes", format_report(inner)
    assert inner["readings"]["tree_inner_log"]["errata"] == "online-E08"
    with pytest.raises(ParameterError):       # a reading of an id it does not concern
        check_implementation(online_pqftl_ln, "online:Algorithm 2", mode="replay", readings=["tree_inner_log=log2"])
    with pytest.raises(ParameterError):
        check_implementation(online_private_sum_ln, "online:Algorithm 5", mode="law", readings=["tree_log=log10"])
    with pytest.raises(ParameterError):
        check_implementation(online_private_sum_ln, "online:Algorithm 5", mode="law", readings=["base=ln"])


# ---- the return forms: a bare output or the named fields, for every id ------------------------------

IDS = sorted({c.algorithm for c in cases()})


def _bare(case):
    function = resolve(case.reference)

    def port(**kwargs):
        return case.output(function(**kwargs))     # the output itself, no result object
    return port


@pytest.mark.parametrize("algorithm", IDS)
def test_every_id_accepts_the_bare_output(algorithm):
    """A port returning the bare output (what the case compares) replays like the reference's result object
    (the first case of each id; the reference's own result objects replay on every case in
    tests/test_conformance.py). Without conform's reader the case's own ``output`` is applied to the bare
    array, which fails for the ids whose reader requires the field (core:private_prefix_sums above)."""
    from reference.oracle.conform import _tolerant
    from reference.oracle.vectors import replay, run_case

    case = cases(algorithm)[0]
    ok, detail = replay(run_case(case), _tolerant(case), _bare(case))
    assert ok, detail


# ---- the call contract (python -m reference list, docs/conformance.md) --------------------------------

def test_the_call_contract_lists_what_the_cases_pass_and_names_real_functions():
    """Per id: the arguments the cases pass bind to the conform function (and the reference's extra keywords,
    ledger= and label=, are not listed); the fields a result object must have; a certified-noise entry whose
    every named reference function exists. The negative controls: an argument the cases do not pass is not
    listed; a misspelt function would not resolve."""
    import inspect
    import re

    from reference.oracle.conform import CERTIFIED_NOISE, call_contract

    for algorithm in IDS:
        contract = call_contract(algorithm)
        assert contract["arguments"][-1] == "rng" and not {"ledger", "label"} & set(contract["arguments"])
        for case in cases(algorithm):
            kwargs = case.make_kwargs()
            assert set(contract["arguments"][:-1]) <= set(kwargs) <= set(contract["arguments"] + contract["sometimes"])
            inspect.signature(resolve(case.reference)).bind(**kwargs, rng=None)
        assert algorithm in CERTIFIED_NOISE, algorithm
        for target in re.findall(r"(reference\.[\w.]+:\w+)", CERTIFIED_NOISE[algorithm]):
            resolve(target)
    with pytest.raises(ParameterError):
        resolve("reference.algorithms.online:tree_sigma_certified")
    assert call_contract("core:private_prefix_sums")["fields"] == [".prefix_sums"]
    assert call_contract("saddle_point:Algorithm 1")["fields"] == [".x", ".y"]
    assert call_contract("core:laplace_mechanism")["fields"] == []


def test_list_shows_the_call_contract_and_the_docs_table_is_current(capsys):
    from reference.cli import main
    from reference.oracle.conform import call_contract_markdown

    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "arguments        xs, sigma, sensitivity, rng (in some cases also: norm_bound)" in out
    assert "returns          the output itself, or an object with .prefix_sums" in out
    assert "certified noise  reference.algorithms.lasso:lasso_noise_scale" in out
    assert "ledger=" not in out.split("Building blocks")[0]
    # every id has its row in docs/conformance.md with the same return forms and certified noise (the arguments
    # follow the cases, which other work extends: `list` is always current; regenerate the table with
    # python -c "from reference.oracle.conform import write_call_contract; write_call_contract('docs/conformance.md')")
    from reference.oracle.conform import CONTRACT_BEGIN, CONTRACT_END

    doc = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    doc = doc.split(CONTRACT_BEGIN, 1)[1].split(CONTRACT_END, 1)[0]
    rows = {line.split(" | ")[0][2:]: line for line in doc.splitlines() if line.startswith("| ")}
    for line in call_contract_markdown().splitlines():
        if not line.startswith("| ") or line.startswith(("| id |", "|---")):
            continue
        algorithm = line.split(" | ")[0][2:]
        assert algorithm in rows, f"no call-contract row for {algorithm} in docs/conformance.md"
        assert rows[algorithm].split(" | ")[2:] == line.split(" | ")[2:], (rows[algorithm], line)


def test_replay_hands_a_rescaled_standard_draw_bit_for_bit():
    """The reference draws standard_normal() and multiplies by sigma; a port asking normal(0, sigma) gets
    0 + sigma z, what numpy computes from the same variate (checked here against numpy itself), so it is
    bit-exact and replay says so. A port asking normal(0, 0.8 sigma) gets 0.8 sigma z and is refused."""
    from reference.oracle.vectors import replay, run_case

    z = np.random.default_rng(5).standard_normal(64)
    assert np.array_equal(np.random.default_rng(5).normal(0.3, 1.7, 64), 0.3 + 1.7 * z)

    def normal_port(value, sensitivity, sigma, rng):
        value = np.asarray(value, dtype=float)
        return value + rng.normal(0.0, sigma, size=value.shape)

    def under_noised(value, sensitivity, sigma, rng):
        return normal_port(value, sensitivity, 0.8 * sigma, rng)

    for case in cases("core:gaussian_mechanism"):
        assert replay(run_case(case), case, normal_port) == (True, "identical within tolerance")
        ok, detail = replay(run_case(case), case, under_noised)
        assert not ok and "max |difference|" in detail, detail


def test_paper_calibration_warnings_are_one_line_of_the_report_and_every_line_fits_120_columns():
    """conform's own runs at calibration='paper' (the vector cases use the printed noise on purpose) each raise
    the reference's PrivacyWarning (lasso-E02): the command collects them into one note line and the JSON's
    paper_calibration_warnings instead of printing them; any other warning still shows. Every line of the
    text report is at most 120 columns, a long detail wrapped under its column with no word lost."""
    from reference.oracle.conform import _check_collecting_paper_warnings

    reference = resolve("reference.algorithms.lasso:private_lasso")

    def port_that_warns(*args, **kwargs):
        warnings.warn("the port's own note", UserWarning)
        return reference(*args, **kwargs)

    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        report = _check_collecting_paper_warnings(target=port_that_warns, algorithm="lasso:Algorithm 2",
                                                  mode="replay", as_json=True)
    assert [str(w.message) for w in shown] == ["the port's own note"]          # shown once, as the default filter
    note = report["paper_calibration_warnings"]
    assert note["count"] >= 1 and note["errata"] == ["lasso-E02"] and "calibration='paper'" in note["example"]
    json.loads(report_json(report))
    report["properties"][0]["detail"] = " ".join(f"word{i}" for i in range(60))     # about 430 columns
    text = format_report(report)
    assert max(len(line) for line in text.splitlines()) <= 120
    assert " ".join(f"word{i}" for i in range(60)) in _flat(text)
    assert [line for line in text.splitlines() if line.startswith("note:")] == [
        f"note: {note['count']} runs at calibration='paper' raised PrivacyWarning (lasso-E02): the cases use the "
        f"printed noise on purpose"]
    del report["paper_calibration_warnings"]                  # a run without them has no note
    assert "note:" not in format_report(report)


# ---- readings: which iterates SCOF averages (heavy_tailed-E06) -------------------------------------------

def test_a_scof_port_averaging_the_query_points_conforms_under_that_reading():
    """heavy_tailed Algorithm 1's convex w_priv: Theorem 3.1 states the average of w^1..w^T (the reference's
    default), Appendix B.1's proof covers the query points w^0..w^(T-1) (docs/errata.md heavy_tailed-E06). An
    independent port averaging the query points (examples/deterministic_ports.py) is rejected by the point-mass
    law by default, and conforms, bit for bit, under --reading scof_average=query_points; the correct port is
    then rejected. Algorithm 2 (the private oracle) reads the same: replay under the reading."""
    from examples import deterministic_ports as ports
    from reference.oracle.cases.heavy_tailed import heavy_tailed_cdp_sco_query_points

    def w0(*args, **kwargs):
        return ports.scof(*args, **kwargs, variant="average-from-w0")

    default = check_implementation(w0, "heavy_tailed:Algorithm 1", as_json=True)
    assert _v(default)["law"]["verdict"] == "fail" and default["failed"] == ["law"], format_report(default)
    assert "--reading scof_average=query_points" in _flat(format_report(default))
    read = check_implementation(w0, "heavy_tailed:Algorithm 1", as_json=True, readings=["scof_average=query_points"])
    assert read["passed"] and read["bit_exact"]["answer"] == "yes", format_report(read)
    assert "conforms under reading scof_average=query_points (declared; docs/errata.md)" in _flat(format_report(read))
    statement = check_implementation(ports.scof, "heavy_tailed:Algorithm 1", mode="law", as_json=True,
                                     readings={"scof_average": "query_points"})
    assert _v(statement)["law"]["verdict"] == "fail", format_report(statement)
    assert check_implementation(heavy_tailed_cdp_sco_query_points, "heavy_tailed:Algorithm 2", mode="replay",
                                as_json=True, readings={"scof_average": "query_points"})["passed"]
    assert not check_implementation(heavy_tailed_cdp_sco_query_points, "heavy_tailed:Algorithm 2", mode="replay",
                                    as_json=True)["passed"]
    with pytest.raises(ParameterError):
        check_implementation(w0, "heavy_tailed:Algorithm 1", mode="law", readings=["scof_average=w0"])


# ---- the contract an outsider ports from: the constants per id (issue 31) --------------------------------------

def test_the_contract_names_the_constants_a_port_needed_and_the_certified_eta_is_a_public_function():
    """A port of erm_geometry Algorithm 5 needed the loss's factor 1/2 and L_2 = 2, recovered from the vectors; a
    port of saddle_point Algorithm 1 could get its certified eta only from the reference's result (issue 31). The
    contract now names both, and the named function gives the reference's eta on every certified case."""
    from reference.algorithms import saddle_point as sp
    from reference.oracle.conform import call_contract

    erm5 = " ".join(call_contract("erm_geometry:Algorithm 5")["constants"])
    assert "(1/2) (<x_i, theta> - y_i)^2" in erm5 and "L_2 = 2" in erm5, erm5
    sp1 = " ".join(call_contract("saddle_point:Algorithm 1")["constants"])
    assert "saddle_point:certified_eta_algorithm1(epsilon, delta, L0, B, K, T)" in sp1, sp1
    checked = 0
    for case in cases("saddle_point:Algorithm 1"):
        kw = case.make_kwargs()
        if kw["calibration"] != "certified" or kw.get("eta") is not None:
            continue
        got = resolve(case.reference)(**kw, rng=np.random.default_rng(0)).eta
        L0 = sp.QuadraticSaddle(kw["atoms"], np.asarray(kw["data"])).lipschitz
        n = len(kw["data"])
        assert sp.certified_eta_algorithm1(kw["epsilon"], kw["delta"], L0, n // kw["T"], kw["K"], kw["T"]) == got
        # the printed eta differs: the contract's function is not a restatement of the paper's
        assert sp.paper_eta_algorithm1(kw["epsilon"], kw["delta"], L0, n // kw["T"], kw["K"], kw["T"]) != got
        checked += 1
    assert checked >= 2
