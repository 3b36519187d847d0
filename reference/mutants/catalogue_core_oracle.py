"""Mutants of the oracle harness (reference/rng.py, reference/vectors.py, reference/conformance.py).

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
        file="reference/vectors.py",
        find="    if not rng.exhausted:\n        return False, \"consumed fewer draws than the reference\"",
        replace="    if False:\n        return False, \"consumed fewer draws than the reference\"",
        checks=("tests/test_conformance.py",),
    ),
)
