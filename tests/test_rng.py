"""Recording and replaying randomness: the basis of test vectors and conformance."""

from __future__ import annotations

import json

import numpy as np
import pytest

from reference._validate import check_rng
from reference.errors import ParameterError
from reference.rng import Draw, RecordingRng, ReplayRng


def _consumer(rng):
    a = rng.normal(0.0, 2.0, size=3)
    b = rng.laplace(scale=1.5)
    c = rng.integers(0, 10, size=2)
    return a, b, c


def test_recording_does_not_change_the_stream():
    plain = _consumer(np.random.default_rng(7))
    recorder = RecordingRng(np.random.default_rng(7))
    recorded = _consumer(recorder)
    for x, y in zip(plain, recorded):
        np.testing.assert_array_equal(x, y)
    assert [d.method for d in recorder.draws] == ["normal", "laplace", "integers"]


def test_replay_through_json_is_bit_identical():
    recorder = RecordingRng(np.random.default_rng(11))
    expected = _consumer(recorder)
    wire = json.loads(json.dumps([d.__dict__ for d in recorder.draws]))
    replay = ReplayRng(wire)
    got = _consumer(replay)
    for x, y in zip(expected, got):
        np.testing.assert_array_equal(x, y)
        assert np.asarray(x).dtype == np.asarray(y).dtype
    assert replay.exhausted


def test_replay_refuses_a_different_request():
    replay = ReplayRng([Draw("normal", {"arg0": 0.0, "arg1": 1.0}, 0.5)])
    with pytest.raises(ParameterError):
        replay.laplace(0.0, 1.0)
    replay = ReplayRng([])
    with pytest.raises(ParameterError):
        replay.normal(0.0, 1.0)


def test_check_rng_accepts_generators_and_stand_ins_only():
    check_rng(np.random.default_rng(0))
    check_rng(RecordingRng(np.random.default_rng(0)))
    check_rng(ReplayRng([]))
    with pytest.raises(ParameterError):
        check_rng(np.random.RandomState(0))
    with pytest.raises(ParameterError):
        check_rng(42)


def test_check_array_refuses_complex_input():
    from reference._validate import check_array

    with pytest.raises(ParameterError, match="not complex"):
        check_array([1.0, 2.0 + 1e-9j], "x")
