"""The audit rows of heavy_tailed (reference/audit/cases_heavy_tailed.py): both calibrations, a control on
every privacy row, certificates as the package's accountant computes them, samplers that run."""

from __future__ import annotations

import math

import numpy as np
import pytest

from reference.algorithms import heavy_tailed as ht
from reference.audit import cases_heavy_tailed as cases
from reference.audit.cases import PrivacyCase, RateCase


@pytest.mark.claim("heavy_tailed:Algorithm 4 privacy")
def test_rows_and_certificates():
    rows = cases.audit_cases()
    privacy = [c for c in rows if isinstance(c, PrivacyCase)]
    assert len(privacy) == 9 and any(isinstance(c, RateCase) for c in rows)
    assert sum(c.audit == "white-box" for c in privacy) == 2
    for c in privacy:
        assert c.negative_control is not None and c.negative_control_note
        cert = c.certify()
        if c.title.startswith("CDPNSME") and "paper" in c.title:
            assert cert > c.claimed_epsilon            # the printed Algorithm 4 noise is not certified at c = 0.1
        else:
            assert cert <= c.claimed_epsilon * (1 + 1e-12)
        rng = np.random.default_rng(0)
        out = c.sampler(c.dataset, rng, 3)
        assert len(out) == 3 and np.all(np.isfinite(np.asarray(out, dtype=float)))
    assert cases.rate_trial(1e4, np.random.default_rng(0)) > 0
    assert ht.smoothed_influence_sup(0.1) ** 2 * 2 > 1
