"""The Section 5 reproduction (reference/experiments/online.py): the generated data satisfy the public bounds
the algorithms check, and the command is wired (the tables themselves are in docs/online.md)."""

from __future__ import annotations

import numpy as np
import pytest

from reference.cli import build_parser
from reference.errors import ParameterError
from reference.experiments import online as ex
from reference.experiments import run_experiments


def test_generated_data_respect_the_bounds():
    fs = ex.olr_data(500, np.random.default_rng(0))
    assert max(np.linalg.norm(f.v) for f in fs) <= 1.0 + 1e-12 and max(abs(f.y) for f in fs) <= 1.0
    a, y, w = ex.logistic_data(500, np.random.default_rng(1))
    assert np.all(np.linalg.norm(a, axis=1) <= 1.0 + 1e-12) and set(np.unique(y)) <= {-1.0, 1.0}
    assert np.linalg.norm(w) == pytest.approx(4.0)


@pytest.mark.deep
def test_small_olr_table_runs():
    rows = ex.olr_table(64)
    assert rows[0][0].startswith("QFTL") and len(rows) == 9
    assert all(np.isfinite(r[2]) for r in rows)


def test_command_is_wired():
    args = build_parser().parse_args(["experiments", "online", "--quick"])
    assert args.key == "online" and args.quick
    with pytest.raises(ParameterError):
        run_experiments("nonsense")
