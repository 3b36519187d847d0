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


# ---------------------------------------------------------------------------
# Replay by the stream of values: other shapes and batchings of the same draws


def _recorded(consumer, seed=3):
    recorder = RecordingRng(np.random.default_rng(seed))
    out = consumer(recorder)
    return out, json.loads(json.dumps([d.__dict__ for d in recorder.draws]))


def test_stream_replay_accepts_the_same_values_in_another_shape_or_batching():
    """The issue's case: the reference draws laplace(0, b, size=(1, 12)); a port asks size=12, or
    twelve scalar calls, or two calls of six. All get the reference's values bit for bit."""
    want, draws = _recorded(lambda r: r.laplace(0.0, 0.5, size=[1, 12]))
    flat = ReplayRng(draws).laplace(0.0, 0.5, 12)
    np.testing.assert_array_equal(flat, np.ravel(want))
    replay = ReplayRng(draws)
    scalars = [replay.laplace(loc=0.0, scale=0.5) for _ in range(12)]
    assert replay.exhausted and scalars == list(np.ravel(want))
    replay = ReplayRng(draws)
    halves = np.concatenate([replay.laplace(0.0, 0.5, size=6), replay.laplace(0.0, 0.5, size=(6,))])
    np.testing.assert_array_equal(halves, np.ravel(want))


def test_stream_replay_accepts_numpy_spellings_of_one_distribution():
    want, draws = _recorded(lambda r: (r.uniform(0.0, 1.0, 2), r.normal(0.0, 1.0), r.integers(5, size=2)))
    replay = ReplayRng(draws)
    np.testing.assert_array_equal(replay.random(2), want[0])
    assert replay.standard_normal() == want[1]
    np.testing.assert_array_equal(replay.integers(0, 4, size=2, endpoint=True), want[2])
    assert replay.exhausted


def test_stream_replay_matches_parameters_per_element_and_says_where_streams_part():
    """A port with 0.8 x the noise scale is refused at the first element, naming the reference's
    call and element and both parameter sets."""
    _, draws = _recorded(lambda r: (r.laplace(0.0, 0.5, size=3), r.laplace(0.0, [1.0, 2.0])))
    replay = ReplayRng(draws)
    with pytest.raises(ParameterError, match=r"stream element 0 .*laplace\(loc=0.0, scale=0.5\).*scale=0.4"):
        replay.laplace(0.0, 0.4, size=3)
    replay = ReplayRng(draws)
    replay.laplace(0.0, 0.5, size=3)
    assert replay.laplace(0.0, 1.0) is not None       # per-element parameters of a broadcast call
    with pytest.raises(ParameterError, match=r"stream element 4 .*its call 1, element 1"):
        replay.laplace(0.0, 1.0)
    with pytest.raises(ParameterError, match="gumbel"):
        ReplayRng(draws).gumbel(0.0, 0.5, size=3)      # another distribution
    with pytest.raises(ParameterError, match="at most 5 more values"):
        ReplayRng(draws).laplace(0.0, 0.5, size=6)     # more values than the reference drew


def test_stream_replay_keeps_whole_call_methods_whole():
    _, draws = _recorded(lambda r: (r.permutation(5), r.normal(size=2)))
    replay = ReplayRng(draws)
    assert sorted(replay.permutation(5).tolist()) == [0, 1, 2, 3, 4]
    with pytest.raises(ParameterError, match="normal"):
        ReplayRng(draws).normal(size=2)                # the permutation comes first


def test_calls_mode_is_strict_about_shape():
    _, draws = _recorded(lambda r: r.laplace(0.0, 0.5, size=[1, 3]))
    with pytest.raises(ParameterError, match="draw 0"):
        ReplayRng(draws, mode="calls").laplace(0.0, 0.5, 3)
    with pytest.raises(ParameterError):
        ReplayRng(draws, mode="neither")
