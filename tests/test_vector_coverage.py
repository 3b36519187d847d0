"""Every algorithm and building block that ``python -m reference list`` shows has test vectors, and the
reference conforms to its own vectors (docs/vectors.md).

By default each id is replayed (cheap: one run per case); the law and privacy self-checks of the ids
added with docs/vectors.md run with --deep (tests/test_conformance.py runs the older ids' law checks by
default). False alarms: replay is exact (no randomness in the check); the law check's false-alarm rate
is the case's alpha and the privacy check's its beta (each a share of the id's false-alarm budget, 1e-3
over all its law checks, privacy audits and rate fits), at fixed seeds (deterministic).
"""

from __future__ import annotations

import warnings

import pytest

from reference.cli import list_entries
from reference.oracle.conform import check_implementation
from reference.errors import PrivacyWarning
from reference.oracle.suite import cases

LISTED = [e["id"] for e in list_entries()]


def _conform_function(ident: str) -> str:
    refs = sorted({c.reference for c in cases(ident)})
    assert len(refs) == 1, f"{ident}: one conform function per id (list shows it), got {refs}"
    return refs[0]


def test_every_listed_id_has_at_least_one_vector_case():
    with_cases = {c.algorithm for c in cases()}
    missing = [i for i in LISTED if i not in with_cases]
    assert not missing, f"listed ids without test vectors: {missing}"
    assert with_cases <= set(LISTED), f"cases for ids that list does not show: {with_cases - set(LISTED)}"


CHEAP = "replay,accounting,feasibility,sparsity,zero-noise,finite-shape,determinism,validation"


@pytest.mark.parametrize("ident", LISTED)
def test_the_reference_conforms_to_its_own_vectors_in_replay_and_invariants(ident):
    """``conform <the id's conform function> --algorithm ID --mode replay,...`` passes: replay of every case
    (tests/test_conformance.py also replays each from its vector parsed back from JSON, as another language
    reads it) and the declared invariants on a few seeds."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PrivacyWarning)   # printed calibrations run on purpose
        rows = check_implementation(_conform_function(ident), ident, mode=CHEAP)
    assert {r.check for r in rows if r.status == "pass"} >= {"replay", "finite-shape", "determinism"}
    failed = [(r.case, r.check, r.detail) for r in rows if r.status == "fail"]
    assert not failed, failed


def test_every_case_states_why_each_property_it_lacks_does_not_apply():
    """A property a case does not declare is reported n/a with a reason: the cases added with
    docs/vectors.md name that reason themselves (not the harness's generic one)."""
    from reference.oracle.properties import PROPERTIES

    for case in cases():
        if not case.reference.startswith("reference.oracle.cases.") and case.algorithm not in NEW_BLOCKS:
            continue
        # replay, finite-shape, determinism, accounting, claim and validation apply to every case without a
        # declaration
        declared = {inv.property for inv in case.invariants} | {"replay", "finite-shape", "determinism",
                                                                "accounting", "claim", "validation"}
        declared |= {"law"} if case.statistic is not None else set()
        declared |= {"privacy"} if case.neighbour is not None else set()
        declared |= {"rate"} if case.rate is not None else set()
        lacking = set(PROPERTIES) - declared - set(case.not_applicable)
        assert not lacking, f"{case.algorithm} {case.name}: no reason given for {sorted(lacking)}"


NEW_BLOCKS = {"core:report_noisy_min", "core:truncated_geometric", "core:private_prefix_sums"}


@pytest.mark.deep
@pytest.mark.parametrize("ident", LISTED)
def test_the_reference_passes_every_check_against_itself(ident):
    """The whole conform run (replay, law, privacy with its half-noise control) of the reference against
    itself: minutes for the algorithms on two cores, hence --deep."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PrivacyWarning)
        rows = check_implementation(_conform_function(ident), ident, mode="both")
    failed = [(r.case, r.check, r.detail) for r in rows if not r.passed]
    assert not failed, failed


# The added cases whose law check rejected the reference at 0.8 x its noise in 10 of 10 repeats
# (docs/conformance.md, "The cases added with docs/vectors.md").
POWERFUL = {
    "core:report_noisy_min": ("laplace-two-candidates-law", "gumbel-two-candidates-law"),
    "core:private_prefix_sums": ("scalar-T7",),
    "erm_geometry:Algorithm 1 (Section 3.3)": ("l2-euclidean-scalar-cov-n40-p5-T10", "l1-lq-full-cov-n40-p5-T10"),
    "erm_geometry:Algorithm 4": ("laplace-paper-paper-n300-p12-T8-eps8", "laplace-certified-2_(t+2)-n300-p12-T8-eps8"),
    "erm_geometry:Algorithm 5": ("l2-certified-n300-p12-T8",),
    "online:Algorithm 1": ("igd-paper-T12-d2-eps2500", "igd-certified-T12-d2-eps1"),
    "online:Algorithm 3": ("paper-LG1-T12-d2-eps2500", "certified-LG1-T12-d2-eps8", "certified-LG1-T3-d2-eps64-x1"),
    "online:Algorithm 6": ("paper-T100-d2", "certified-T100-d2"),
    "heavy_tailed:Algorithm 4": ("certified-c0.002-n2000-d2-rho2000",),
    "lasso:Theorem 2.6": ("l2-certified-n400-p6-T2-eps16",),
    "lasso:Algorithm 2": ("laplace-certified-n400-p6-T2-eps0.3",),
}
POWERFUL_CASES = [c for ident, names in POWERFUL.items() for c in cases(ident) if c.name in names]


def test_the_powerful_cases_exist():
    assert len(POWERFUL_CASES) == sum(len(v) for v in POWERFUL.values())
    assert all(c.statistic is not None and c.noise_knob is not None for c in POWERFUL_CASES)


@pytest.mark.deep
@pytest.mark.parametrize("case", POWERFUL_CASES, ids=[f"{c.algorithm}-{c.name}" for c in POWERFUL_CASES])
def test_law_check_power_of_the_added_cases(case):
    """At least 9 of 10 fresh repeats reject the reference at 0.8 x its noise (a power of 0.99 gives 8 or
    fewer with probability 0.004), and none of 10 rejects the reference itself (the case's alpha, <= 1e-3,
    a check)."""
    from reference.oracle.vectors import law_check_power

    assert law_check_power(case, 0.8, repeats=10)[0] >= 9
    assert law_check_power(case, 1.0, repeats=10) == (0, 10)
