"""The accountant is never fooled by an event, is monotone in the noise, and stays tight on long
ledgers (issue 24).

* Events are re-validated inside ``certify``: an event altered after construction (an unpickled or
  mutated frozen dataclass) is refused with the package's error naming the field, never certified.
* More noise never raises the certificate (beyond a stated rounding tolerance): parameters are
  rounded only upward, onto a grid that does not depend on the ledger, and the KOV bound is a
  candidate for every pure ledger.

Reference values: exact KOV profiles in mpmath (written here), the PLD at a fixed moderate tilt.
"""

from __future__ import annotations

import math

import pytest

from reference.errors import NonFiniteError, ParameterError
from reference.privacy import accounting as acc
from reference.privacy.ledger import FrozenLedger, MechanismEvent


def _tampered(event: MechanismEvent, **fields) -> MechanismEvent:
    """What unpickling or object.__setattr__ can make of a frozen event: fields never re-checked."""
    for name, value in fields.items():
        object.__setattr__(event, name, value)
    return event


def _laplace(b=1.0, sensitivity=1.0):
    return MechanismEvent("laplace", sensitivity, "l1", noise_scale=b)


def _gaussian(sigma=1.0, sensitivity=1.0):
    return MechanismEvent("gaussian", sensitivity, "l2", noise_scale=sigma)


TAMPERED = [
    ("laplace negative scale", lambda: _tampered(_laplace(), noise_scale=-1.0), "noise_scale", ParameterError),
    ("gaussian negative scale", lambda: _tampered(_gaussian(), noise_scale=-2.0), "noise_scale", ParameterError),
    ("laplace NaN scale", lambda: _tampered(_laplace(), noise_scale=math.nan), "noise_scale", NonFiniteError),
    ("laplace zero scale", lambda: _tampered(_laplace(), noise_scale=0.0), "noise_scale", ParameterError),
    ("laplace infinite scale", lambda: _tampered(_laplace(), noise_scale=math.inf), "noise_scale", NonFiniteError),
    ("gaussian missing scale", lambda: _tampered(_gaussian(), noise_scale=None), "noise_scale", ParameterError),
    ("laplace scale 1e-300", lambda: _laplace(1e-300), "noise_scale", ParameterError),
    ("gaussian scale 1e-300", lambda: _gaussian(1e-300, 1e10), "noise_scale", ParameterError),
    ("report-noisy-max scale 1e-300",
     lambda: MechanismEvent("report_noisy_max", 1.0, "score", noise_scale=1e-300, noise="gumbel"), "noise_scale",
     ParameterError),
    ("pure epsilon 1e300", lambda: MechanismEvent("pure", 1.0, "l1", epsilon=1e300), "epsilon", ParameterError),
    ("pure NaN epsilon", lambda: _tampered(MechanismEvent("pure", 1.0, "l1", epsilon=1.0), epsilon=math.nan),
     "epsilon", NonFiniteError),
    ("pure negative epsilon", lambda: _tampered(MechanismEvent("pure", 1.0, "l1", epsilon=1.0), epsilon=-1.0),
     "epsilon", ParameterError),
    ("negative sensitivity", lambda: _tampered(_laplace(), sensitivity=-1.0), "sensitivity", ParameterError),
    ("approximate NaN delta",
     lambda: _tampered(MechanismEvent("approximate", 1.0, "l1", epsilon=1.0, delta=1e-9), delta=math.nan),
     "delta", NonFiniteError),
    ("pure with a delta", lambda: _tampered(MechanismEvent("pure", 1.0, "l1", epsilon=1.0), delta=0.5),
     "delta", ParameterError),
    ("unknown noise", lambda: _tampered(MechanismEvent("report_noisy_max", 1.0, "score", noise_scale=1.0,
                                                       noise="gumbel"), noise="uniform"), "noise", ParameterError),
    ("unknown kind", lambda: _tampered(_laplace(), kind="secret"), "kind", ParameterError),
    ("monotone not a bool", lambda: _tampered(MechanismEvent("report_noisy_max", 1.0, "score", noise_scale=1.0,
                                                             noise="gumbel"), monotone="yes"), "monotone",
     ParameterError),
]


@pytest.mark.claim("core:certify")
@pytest.mark.parametrize("name, make, field, error", TAMPERED, ids=[t[0] for t in TAMPERED])
@pytest.mark.parametrize("others", ["alone", "with laplace", "with gaussian"])
def test_a_tampered_event_is_refused_naming_its_field(name, make, field, error, others):
    """Each of these reached the theorems before issue 24 (a negative scale certified epsilon 0.0, a NaN
    scale raised "cannot convert NaN", a scale of 1e-300 the builtin OverflowError)."""
    bad = make()
    rest = {"alone": [], "with laplace": [_laplace(2.0)] * 3, "with gaussian": [_gaussian(3.0)] * 3}[others]
    with pytest.raises(error) as info:
        acc.certify(FrozenLedger(tuple(rest) + (bad,) * 2), 1e-6)
    assert info.value.name == field
    for one in (acc.event_epsilon, acc.event_mu, acc.event_rho):
        with pytest.raises((ParameterError, acc.AccountingError)):
            one(bad)


@pytest.mark.claim("core:certify")
def test_tampering_negative_control():
    """The same events untampered certify a finite positive epsilon (so the refusals above are the checks')."""
    for event in (_laplace(), _gaussian(), MechanismEvent("pure", 1.0, "l1", epsilon=1.0),
                  MechanismEvent("approximate", 1.0, "l1", epsilon=1.0, delta=1e-9), _laplace(1e-90)):
        cert = acc.certify(FrozenLedger((event,) * 2), 1e-6)
        assert 0 < cert.epsilon < math.inf


@pytest.mark.claim("core:certify")
@pytest.mark.parametrize("mu", [1e3, 1e50, 1e100])
def test_huge_gaussian_with_laplace_is_never_certified_below_its_gdp_block(mu):
    """Before issue 24 a Gaussian of mu = 1e50 beside a Laplace event made the PLD's grid indices
    overflow and certify returned 0.0. The certificate is at least the Gaussian block's exact epsilon."""
    cert = acc.certify(FrozenLedger((_gaussian(1.0 / mu), _laplace())), 1e-6)
    assert cert.epsilon >= acc.gaussian_epsilon(1e-6, mu)
