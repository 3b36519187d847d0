"""Numbers of any real type: NumPy scalars, Python ints and Fractions give the result the float they denote gives.

A regression once made ``certify`` crash with builtin errors on events the constructor had accepted
(``noise_scale=np.float32(2)`` raised TypeError inside ``Fraction``, ``np.int64(2)`` OverflowError). The
events now store Python floats; a value that is not exactly a float (a Fraction such as 1/3, a large int) is
rounded toward the safe side: a sensitivity, an epsilon or a delta up, a noise scale down.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.errors import ParameterError
from reference.privacy.accounting import certify
from reference.privacy.ledger import Ledger, MechanismEvent
from reference.privacy.mechanisms import gaussian_mechanism, laplace_mechanism, report_noisy_max

# Values exact in float32, in int and in Fraction: k / 4 for small k, so every type denotes the same number.
_QUARTERS = st.integers(min_value=1, max_value=64).map(lambda k: k / 4)
_TYPES = {
    "float": float,
    "np.float64": np.float64,
    "np.float32": np.float32,
    "np.float16": np.float16,
    "Fraction": Fraction,
    "np.longdouble": np.longdouble,
}


def _as(type_name: str, value: float):
    return _TYPES[type_name](value)


def _ledger(specs, convert) -> Ledger:
    ledger = Ledger()
    for kind, sensitivity, scale, epsilon in specs:
        if kind == "gaussian":
            ledger.record(MechanismEvent("gaussian", convert(sensitivity), "l2", noise_scale=convert(scale)))
        elif kind == "laplace":
            ledger.record(MechanismEvent("laplace", convert(sensitivity), "l1", noise_scale=convert(scale)))
        else:
            ledger.record(MechanismEvent("pure", convert(sensitivity), "l1", epsilon=convert(epsilon)))
    return ledger


_SPECS = st.lists(st.tuples(st.sampled_from(["gaussian", "laplace", "pure"]), _QUARTERS, _QUARTERS,
                            st.integers(min_value=1, max_value=8).map(lambda k: k / 8)),
                  min_size=1, max_size=4)


@given(specs=_SPECS, type_name=st.sampled_from(sorted(_TYPES)))
def test_certify_is_the_same_for_every_numeric_type(specs, type_name):
    """The certificate of a ledger whose numbers are NumPy scalars, Fractions or long doubles is the float
    ledger's, bit for bit (the numbers are exact in every type, so there is nothing to round)."""
    want = certify(_ledger(specs, float), 1e-5).epsilon
    got = certify(_ledger(specs, lambda v: _as(type_name, v)), 1e-5).epsilon
    assert got == want


@pytest.mark.parametrize("value", [np.int64(2), np.int32(2), 2, np.uint8(2)])
def test_integer_noise_scales_certify(value):
    """Integer noise scales (np.int64 once raised OverflowError inside certify) certify as the float 2.0."""
    ledger = Ledger()
    ledger.record(MechanismEvent("laplace", 1.0, "l1", noise_scale=value))
    ledger.record(MechanismEvent("gaussian", np.float32(1), "l2", noise_scale=value))
    reference = Ledger()
    reference.record(MechanismEvent("laplace", 1.0, "l1", noise_scale=2.0))
    reference.record(MechanismEvent("gaussian", 1.0, "l2", noise_scale=2.0))
    assert certify(ledger, 1e-5).epsilon == certify(reference, 1e-5).epsilon


def test_inexact_values_round_to_the_safe_side():
    """1/3 is no float: its sensitivity and epsilon round up, its noise scale down, so the certificate of the
    Fraction ledger is at least that of the exact rational (never the unsafe rounding), and it is within one
    ulp's effect of the nearest-float ledger."""
    third = Fraction(1, 3)
    event = MechanismEvent("laplace", third, "l1", noise_scale=third)
    assert Fraction(event.sensitivity) > third and Fraction(event.noise_scale) < third
    assert type(event.sensitivity) is float and type(event.noise_scale) is float
    pure = MechanismEvent("pure", 1.0, "l1", epsilon=third)
    assert Fraction(pure.epsilon) > third
    big = MechanismEvent("laplace", 2**60 + 1, "l1", noise_scale=2**60 + 1)   # no float is 2^60 + 1
    assert Fraction(big.sensitivity) > 2**60 + 1 > Fraction(big.noise_scale)
    # the unsafe direction would be the plain float(): it rounds 1/3's sensitivity down
    assert Fraction(float(third)) < third


@pytest.mark.parametrize("bad", [True, "2", None, complex(2, 0), np.array([2.0])])
def test_non_real_numbers_are_refused(bad):
    with pytest.raises(ParameterError):
        MechanismEvent("laplace", 1.0, "l1", noise_scale=bad)


@given(sensitivity=_QUARTERS, scale=_QUARTERS, type_name=st.sampled_from(sorted(_TYPES)),
       seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_mechanisms_are_the_same_for_every_numeric_type(sensitivity, scale, type_name, seed):
    """The Gaussian and Laplace mechanisms and report-noisy-max give the float's output and ledger, bit for bit,
    when their sensitivity and scale are NumPy scalars, Fractions or long doubles."""
    value = np.array([0.5, -1.25, 3.0])
    for mechanism in (gaussian_mechanism, laplace_mechanism, report_noisy_max):
        want_ledger, got_ledger = Ledger(), Ledger()
        want = mechanism(value, sensitivity, scale, np.random.default_rng(seed), ledger=want_ledger)
        got = mechanism(value, _as(type_name, sensitivity), _as(type_name, scale), np.random.default_rng(seed),
                        ledger=got_ledger)
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
        assert got_ledger.events == want_ledger.events
