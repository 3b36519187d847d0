"""The ledger rejects events a proof could not account for."""

from __future__ import annotations

import dataclasses

import pytest

from reference.errors import NonFiniteError, ParameterError
from reference.privacy.ledger import Ledger, MechanismEvent


def test_ledger_records_and_freezes():
    ledger = Ledger()
    e = MechanismEvent("gaussian", sensitivity=2.0, norm="l2", noise_scale=3.0, label="line 4")
    ledger.record(e)
    frozen = ledger.freeze()
    assert frozen.events == (e,)
    ledger.record(e)
    assert len(frozen) == 1 and len(ledger) == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        frozen.events = ()


@pytest.mark.parametrize("kwargs", [
    dict(kind="gaussian", sensitivity=1.0, norm="l2"),                       # no noise scale
    dict(kind="gaussian", sensitivity=-1.0, norm="l2", noise_scale=1.0),     # negative sensitivity
    dict(kind="laplace", sensitivity=1.0, norm="l1", noise_scale=0.0),       # zero noise
    dict(kind="pure", sensitivity=1.0, norm="l1"),                            # no epsilon
    dict(kind="approximate", sensitivity=1.0, norm="l1", epsilon=1.0, delta=1.0),
    dict(kind="gaussian", sensitivity=1.0, norm="l2", noise_scale=1.0, delta=0.1),
    dict(kind="report_noisy_max", sensitivity=1.0, norm="score", noise_scale=1.0, noise="normal"),
    dict(kind="teleport", sensitivity=1.0, norm="l2"),
    dict(kind="gaussian", sensitivity=1.0, norm="l7", noise_scale=1.0),
    dict(kind="gaussian", sensitivity=1.0, norm="l2", noise_scale=1.0, relation="swap"),
])
def test_invalid_events_are_refused(kwargs):
    with pytest.raises(ParameterError):
        MechanismEvent(**kwargs)


def test_non_finite_sensitivity_is_refused():
    with pytest.raises(NonFiniteError):
        MechanismEvent("gaussian", sensitivity=float("nan"), norm="l2", noise_scale=1.0)


def test_ledger_only_takes_events():
    with pytest.raises(ParameterError):
        Ledger().record({"kind": "gaussian"})


def test_a_claimed_event_is_never_certified():
    """A paper's unproved statement in a ledger makes the whole run uncertifiable (epsilon = inf)."""
    import math

    from reference.errors import AccountingError
    from reference.privacy.accounting import certify, event_epsilon

    ledger = Ledger()
    ledger.record(MechanismEvent("laplace", sensitivity=1.0, norm="l1", noise_scale=1.0))
    assert certify(ledger, 1e-5).epsilon < math.inf
    claimed = MechanismEvent("claimed", sensitivity=1.0, norm="l2", epsilon=1.0, delta=1e-3,
                             label="printed noise, refuted")
    ledger.record(claimed)
    certificate = certify(ledger, 1e-5)
    assert certificate.epsilon == math.inf and "printed noise, refuted" in certificate.method
    with pytest.raises(AccountingError):
        event_epsilon(claimed)
