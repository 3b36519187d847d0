"""Every id's conform function gives the float's result, bit for bit, when its numbers are NumPy scalars (issue 35).

For the first case of each id in ``python -m reference list``, every float argument exactly representable in
float32 is passed as ``np.float32`` (the others as ``np.float64``) and every int as ``np.int64``; the result
(every field, recursively) must equal the plain-Python call's at the same seed. Under NumPy 2's promotion rules
an np.float32 that reaches the arithmetic unconverted computes in float32 (PGIGA's alpha and GIGA's
step_constant did: outputs off by 3e-10 and 4e-9); the package converts each number where it checks it. That
this test fails when a conversion is missing is the kill matrix's online-M52.
"""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np
import pytest

from reference.oracle.cases import CASES
from reference.oracle.vectors import resolve

FIRST = {}
for _case in CASES:
    FIRST.setdefault(_case.algorithm, _case)


def _numpy_scalar(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    if isinstance(value, int):
        return np.int64(value)
    return np.float32(value) if float(np.float32(value)) == value else np.float64(value)


def _differences(a, b, path="result"):
    """Where two results differ (arrays bit for bit, floats exactly, objects field by field)."""
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        return [d for f in dataclasses.fields(a) for d in _differences(getattr(a, f.name), getattr(b, f.name),
                                                                       f"{path}.{f.name}")]
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return [f"{path}: lengths {len(a)} and {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in _differences(x, y, f"{path}[{i}]")]
    if isinstance(a, dict):
        if a.keys() != b.keys():
            return [f"{path}: keys"]
        return [d for k in a for d in _differences(a[k], b[k], f"{path}[{k!r}]")]
    if isinstance(a, (np.ndarray, np.generic)) or isinstance(b, (np.ndarray, np.generic)):
        a, b = np.asarray(a), np.asarray(b)
        same = a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b, equal_nan=a.dtype.kind == "f")
        return [] if same else [f"{path}: {a.dtype}{a.shape} and {b.dtype}{b.shape} differ"]
    if isinstance(a, (int, float, str, bool, type(None))):
        same = a == b or (isinstance(a, float) and isinstance(b, float) and a != a and b != b)
        return [] if same and type(a) is type(b) else [f"{path}: {a!r} ({type(a).__name__}) and {b!r} ({type(b).__name__})"]
    if isinstance(a, np.random.Generator):       # a generator a result keeps: compare where it stands
        return _differences(a.bit_generator.state, b.bit_generator.state, path)
    if hasattr(a, "__dict__"):
        return _differences(vars(a), vars(b), path)
    return [] if a == b else [f"{path}: {a!r} and {b!r}"]


@pytest.mark.parametrize("algorithm", sorted(FIRST))
def test_numpy_scalars_give_the_float_result(algorithm):
    case = FIRST[algorithm]
    function = resolve(case.reference)
    kwargs = case.make_kwargs()
    converted = {k: _numpy_scalar(v) for k, v in kwargs.items()}
    if all(converted[k] is kwargs[k] for k in kwargs):
        pytest.skip(f"{algorithm}'s first case passes no Python number")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # printed calibrations warn (PrivacyWarning); both calls alike
        want = function(**kwargs, rng=np.random.default_rng(5))
        got = function(**converted, rng=np.random.default_rng(5))
    assert not _differences(want, got), _differences(want, got)[:5]

