"""Mutants of the oracle harness (reference/rng.py, reference/oracle/vectors.py, reference/oracle/conform.py,
reference/oracle/checks.py).

Ids core-M300 and up, so they never clash with the building blocks' catalogue.
"""

from __future__ import annotations

from . import Mutant

MUTANTS = (
    Mutant(
        id="core-M300", target="core:replay", bug_class="noise-scale",
        description="stream replay compares the distribution but not its parameters (0.8 x the noise replays)",
        file="reference/rng.py",
        find="                  and all(np.isclose(params[k], v, rtol=self._rtol, atol=0.0) for k, v in entry.params))",
        replace="                  )",
        checks=("tests/test_rng.py::test_stream_replay_matches_parameters_per_element_and_says_where_streams_part",),
    ),
    Mutant(
        id="core-M301", target="core:replay", bug_class="data-use",
        description="replay accepts a candidate that consumed fewer draws than the reference",
        file="reference/oracle/vectors.py",
        find="    if not rng.exhausted:\n        return False, \"consumed fewer draws than the reference\"",
        replace="    if False:\n        return False, \"consumed fewer draws than the reference\"",
        checks=("tests/test_conformance.py",),
    ),
    Mutant(
        id="core-M302", target="core:conform", bug_class="data-use",
        description="the accounting property compares only the certificates: a ledger that records a wrong value "
                    "the certificate does not use (a sensitivity in an (epsilon, delta) event) passes",
        file="reference/oracle/checks.py",
        find="        ok &= same and not (same_layout and difference)",
        replace="        ok &= same",
        checks=("tests/test_mutants_conform.py::"
                "test_a_ledger_only_mutant_is_invisible_to_the_outputs_and_rejected_by_accounting",),
    ),
    Mutant(
        id="core-M303", target="core:conform", bug_class="data-use",
        description="the validation property passes a candidate that returns an output (clipped or NaN) where it "
                    "must refuse the input",
        file="reference/oracle/checks.py",
        find='    return "fail", (f"accepts {refusal.what}: returned "',
        replace='    return "pass", (f"accepts {refusal.what}: returned "',
        checks=("tests/test_conformance_properties.py::"
                "test_validation_fails_a_port_that_clips_or_returns_nan_and_passes_one_that_refuses",),
    ),
    Mutant(
        id="core-M304", target="core:conform", bug_class="data-use",
        description="replay always decides the exit status: a correct port that draws its noise its own way "
                    "fails conform by default (one answer again, not two)",
        file="reference/oracle/conform.py",
        find="    deciding = tuple(p for p in run if p in CONFORMANCE or p in required or only_agreement)",
        replace="    deciding = tuple(run)",
        checks=("tests/test_conformance_verdict.py::"
                "test_a_correct_port_that_draws_its_own_noise_conforms_and_is_not_bit_exact",),
    ),
    Mutant(
        id="core-M305", target="core:conform", bug_class="data-use",
        description="the validation property counts a TypeError (a call mismatch) as a refusal",
        file="reference/oracle/checks.py",
        find='        return "fail", (f"call mismatch at {refusal.what}: TypeError: {exc} (the candidate does not take the "',
        replace='        return "pass", (f"call mismatch at {refusal.what}: TypeError: {exc} (the candidate does not take the "',
        checks=("tests/test_conformance_verdict.py::"
                "test_validation_a_value_error_is_a_refusal_a_type_error_a_call_mismatch",),
    ),
    Mutant(
        id="core-M306", target="core:conform", bug_class="data-use",
        description="determinism is asked of a candidate that never draws from the rng it is passed (an unseedable "
                    "sampler such as OpenDP's fails instead of n/a)",
        file="reference/oracle/conform.py",
        find="        elif not drew and _reference_draws(case):",
        replace="        elif False:",
        checks=("tests/test_conformance_verdict.py::"
                "test_determinism_is_n_a_for_an_unseeded_candidate_and_fails_a_partly_seeded_one",),
    ),
    Mutant(
        id="core-M307", target="core:conform", bug_class="data-use",
        description="the claim property lets any candidate fall short of its own claim (the paper's shortfall "
                    "allowance applied whatever the reference's certificate)",
        file="reference/oracle/checks.py",
        find="    if allowed > 1.0 and certified <= claimed * allowed * (1 + ACCOUNTING_RTOL):",
        replace="    if True:",
        checks=("tests/test_conformance_verdict.py::"
                "test_claim_requires_the_certificate_to_cover_the_candidates_own_claim",),
    ),
)
