"""Every algorithm and building block that ``python -m reference list`` shows has test vectors, and the
reference conforms to its own vectors (docs/vectors.md).

By default each id is replayed (cheap: one run per case); the law and privacy self-checks of the ids
added with docs/vectors.md run with --deep (tests/test_conformance.py runs the older ids' law checks by
default). False alarms: replay is exact (no randomness in the check); the law check's false-alarm rate
is alpha = 1e-3 per case and the privacy check's beta = 0.05 per case, at fixed seeds (deterministic).
"""

from __future__ import annotations

import warnings

import pytest

from reference.cli import list_entries
from reference.conformance import check_implementation
from reference.errors import PrivacyWarning
from reference.vectors import cases

LISTED = [e["id"] for e in list_entries()]
# ids whose vectors are still being written (empty once every listed id has its cases)
PENDING: set[str] = {
    "erm_geometry:Algorithm 1 (Section 3.3)", "erm_geometry:Algorithm 2", "erm_geometry:Algorithm 3",
    "erm_geometry:Algorithm 4", "erm_geometry:Algorithm 5", "lasso:Algorithm 1", "lasso:Corollary 2.7",
    "lasso:Theorem 2.6", "online:Algorithm 1", "online:Algorithm 3", "online:Algorithm 6", "online:GIGA",
    "online:eq. (13)", "online:eq. (20)", "online:eq. (21)", "saddle_point:Algorithm 2", "saddle_point:Algorithm 4",
}
COVERED = [i for i in LISTED if i not in PENDING]


def _conform_function(ident: str) -> str:
    refs = sorted({c.reference for c in cases(ident)})
    assert len(refs) == 1, f"{ident}: one conform function per id (list shows it), got {refs}"
    return refs[0]


def test_every_listed_id_has_at_least_one_vector_case():
    with_cases = {c.algorithm for c in cases()}
    missing = [i for i in LISTED if i not in with_cases and i not in PENDING]
    assert not missing, f"listed ids without test vectors: {missing}"
    assert not (PENDING & with_cases), f"ids still marked pending that have cases: {PENDING & with_cases}"
    assert with_cases <= set(LISTED), f"cases for ids that list does not show: {with_cases - set(LISTED)}"


@pytest.mark.parametrize("ident", COVERED)
def test_the_reference_replays_its_own_vectors(ident):
    """``conform <the id's conform function> --algorithm ID --mode replay`` passes (tests/test_conformance.py
    also replays every case from its vector parsed back from JSON, as another language reads it)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PrivacyWarning)   # printed calibrations run on purpose
        rows = check_implementation(_conform_function(ident), ident, mode="replay")
    assert rows and all(r.check == "replay" for r in rows)
    failed = [(r.case, r.detail) for r in rows if not r.passed]
    assert not failed, failed


@pytest.mark.deep
@pytest.mark.parametrize("ident", COVERED)
def test_the_reference_passes_every_check_against_itself(ident):
    """The whole conform run (replay, law, privacy with its half-noise control) of the reference against
    itself: minutes for the algorithms on two cores, hence --deep."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PrivacyWarning)
        rows = check_implementation(_conform_function(ident), ident, mode="both")
    failed = [(r.case, r.check, r.detail) for r in rows if not r.passed]
    assert not failed, failed
