"""Objective perturbation's silent defaults, made loud (issue 15).

Each test fails on the old behaviour: the printed calibration ran silently, a wrong lambda_max was
accepted with the package's own losses (they had no Hessian), and rows of norm 5 surfaced as a solver
failure or after the solve instead of as the Lipschitz violation, before any solver runs.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from reference.algorithms import erm_geometry as eg
from reference.errors import AssumptionViolation, PrivacyWarning
from reference.geometry.sets import L2Ball
from reference.losses import HuberLoss, LogisticLoss, SquaredLoss

pytestmark = pytest.mark.claim("erm_geometry:Algorithm 2 privacy")


def _data(n=40, p=3, scale=1.0):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, p))
    X *= scale / np.linalg.norm(X, axis=1, keepdims=True)
    return X, np.where(rng.random(n) < 0.5, -1.0, 1.0)


def _run(X, y, loss, *, lipschitz=1.0, lambda_max=0.25, calibration="certified", solver_spy=None):
    return eg.objective_perturbation(X, y, loss, L2Ball(X.shape[1], 1.0), epsilon=1.0, delta=1e-5,
                                     lipschitz=lipschitz, lambda_max=lambda_max, rng=np.random.default_rng(1),
                                     calibration=calibration)


def test_the_default_paper_calibration_warns_with_its_erratum_and_the_alternative():
    X, y = _data()
    with pytest.warns(PrivacyWarning, match=r"erm_geometry-E13.*calibration='certified'"):
        eg.objective_perturbation(X, y, LogisticLoss(), L2Ball(3, 1.0), epsilon=1.0, delta=1e-5, lipschitz=1.0,
                                  lambda_max=0.25, rng=np.random.default_rng(1))       # default: "paper"
    with warnings.catch_warnings():
        warnings.simplefilter("error", PrivacyWarning)
        res = _run(X, y, LogisticLoss())                                                # certified: silent
    assert res.ledger.events[0].kind == "approximate"     # the logistic Hessian has rank one: KST12 applies


def test_a_wrong_lambda_max_is_refused_with_the_builtin_losses():
    """The logistic loss's per-record Hessian at theta = 0 is x x^T / 4: lambda_max = 0.01 is wrong."""
    X, y = _data()
    with pytest.raises(AssumptionViolation, match=r"eigenvalues in \[lambda_min, lambda_max\].*0\.25.*0\.01"):
        _run(X, y, LogisticLoss(), lambda_max=0.01)
    with pytest.raises(AssumptionViolation, match="eigenvalues"):
        _run(X, y, SquaredLoss(0.5), lipschitz=2.0, lambda_max=0.5)       # phi'' = 1: lambda_max must be >= 1


def test_a_loss_without_hessian_says_the_check_cannot_run():
    X, y = _data()
    with pytest.warns(PrivacyWarning, match="HuberLoss gives no hessian.*cannot be checked"):
        res = _run(X, y, HuberLoss(), lambda_max=1.0)
    assert res.ledger.events[0].kind == "claimed"


def test_rows_of_norm_5_are_a_lipschitz_violation_reported_before_any_solver_runs(monkeypatch):
    X, y = _data(scale=5.0)
    calls = []
    monkeypatch.setattr(eg, "_solve_over_ball", lambda *a, **k: calls.append(1) or (_ for _ in ()).throw(
        AssertionError("the solver ran")))
    with pytest.raises(AssumptionViolation, match=r"Lipschitz constant 1 \(record \d+ has 2\.5 at theta_0, before"):
        _run(X, y, LogisticLoss())
    assert calls == []
