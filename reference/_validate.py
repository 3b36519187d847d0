"""Shared precondition checks. Each raises an error from :mod:`reference.errors`.

These are the only place where the package decides what "a valid epsilon" or
"a finite array" means, so every public function says the same thing the same way.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction

import numpy as np

from .errors import AssumptionViolation, NonFiniteError, ParameterError, ShapeError


def _real(value: object, name: str) -> float:
    # a Python float is a real number: only other types go through the (slower) abstract-class check
    if type(value) is not float and (isinstance(value, bool)
                                     or not isinstance(value, (numbers.Real, np.floating, np.integer))):
        raise ParameterError(name, "a real number", value)
    value = float(value)
    if not math.isfinite(value):
        raise NonFiniteError(name, "a finite real number", value)
    return value


def _exact(value: object):
    """The exact rational value of a real number that is not a Python float (a NumPy scalar, an int, a
    Fraction), or None when ``float(value)`` is already exact (a float, a NumPy float of <= 64 bits)."""
    if type(value) is float or isinstance(value, (np.float16, np.float32, np.float64)):
        return None
    if isinstance(value, (numbers.Integral, np.integer)):
        return Fraction(int(value))
    if isinstance(value, numbers.Rational):
        return Fraction(value.numerator, value.denominator)
    if hasattr(value, "as_integer_ratio"):       # np.longdouble, decimal.Decimal
        return Fraction(*value.as_integer_ratio())
    return None


def real_toward(value: object, name: str, up: bool) -> float:
    """A real number as a Python float, rounded toward the safe side when it is not exactly a float:
    ``up`` gives the smallest float >= value (a sensitivity, an epsilon, a delta), otherwise the largest
    float <= value (a noise scale). So a NumPy scalar, an int or a Fraction certifies exactly as the float
    it denotes, and never a privacy parameter rounded the unsafe way."""
    result = _real(value, name)
    exact = _exact(value)
    if exact is not None and Fraction(result) != exact:
        if up and Fraction(result) < exact:
            result = math.nextafter(result, math.inf)
        elif not up and Fraction(result) > exact:
            result = math.nextafter(result, -math.inf)
    return result


def check_epsilon(value: object, name: str = "epsilon") -> float:
    """epsilon: a finite real number > 0."""
    value = _real(value, name)
    if value <= 0:
        raise ParameterError(name, "epsilon > 0", value)
    return value


def check_delta(value: object, name: str = "delta", allow_zero: bool = False) -> float:
    """delta in (0, 1), or [0, 1) when ``allow_zero``."""
    value = _real(value, name)
    if allow_zero:
        if not 0 <= value < 1:
            raise ParameterError(name, "0 <= delta < 1", value)
    elif not 0 < value < 1:
        raise ParameterError(name, "0 < delta < 1", value)
    return value


def check_positive(value: object, name: str) -> float:
    value = _real(value, name)
    if value <= 0:
        raise ParameterError(name, f"{name} > 0", value)
    return value


def check_nonnegative(value: object, name: str) -> float:
    value = _real(value, name)
    if value < 0:
        raise ParameterError(name, f"{name} >= 0", value)
    return value


def check_probability(value: object, name: str, open_interval: bool = True) -> float:
    value = _real(value, name)
    ok = 0 < value < 1 if open_interval else 0 <= value <= 1
    if not ok:
        raise ParameterError(name, f"0 < {name} < 1" if open_interval else f"0 <= {name} <= 1", value)
    return value


def check_int(value: object, name: str, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, np.integer)):
        raise ParameterError(name, f"an integer >= {minimum}", value)
    value = int(value)
    if value < minimum:
        raise ParameterError(name, f"{name} >= {minimum}", value)
    return value


def check_array(value: object, name: str, ndim: int | None = None, shape: tuple | None = None,
                allow_empty: bool = False) -> np.ndarray:
    """A finite float64 array (a new array; the caller's is never modified)."""
    try:
        complex_input = np.iscomplexobj(value)
    except (TypeError, ValueError):   # ragged or odd input: the conversion below reports it
        complex_input = False
    if complex_input:   # numpy would drop the imaginary part with only a warning
        raise ParameterError(name, "an array of real numbers (not complex)", "complex entries")
    try:
        arr = np.array(value, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ParameterError(name, "an array of real numbers", type(value).__name__) from exc
    if ndim is not None and arr.ndim != ndim:
        raise ShapeError(name, f"a {ndim}-dimensional array", f"shape {arr.shape}")
    if shape is not None:
        for want, got in zip(shape, arr.shape):
            if want is not None and want != got:
                raise ShapeError(name, f"shape {shape}", f"shape {arr.shape}")
    if arr.size == 0 and not allow_empty:
        raise ShapeError(name, "a non-empty array", f"shape {arr.shape}")
    if not np.isfinite(arr).all():
        raise NonFiniteError(name, "finite entries (no NaN or infinity)", non_finite_where(arr, name))
    return arr


def non_finite_where(arr: np.ndarray, name: str) -> str:
    """Where an array's first non-finite entry is, for an error message: ``"X[2, 1] = nan, the first of 3"``."""
    arr = np.asarray(arr)
    bad = np.argwhere(~np.isfinite(arr))
    if not len(bad):
        return "no non-finite entries"
    first = tuple(int(i) for i in bad[0])
    where = f"{name}[{', '.join(map(str, first))}]" if first else name
    return f"{where} = {float(arr[first])!r}, the first of {len(bad)} non-finite entries"


def check_rng(rng: object, name: str = "rng") -> np.random.Generator:
    """A numpy Generator, or a recording/replaying stand-in from :mod:`reference.rng`."""
    if type(rng) is np.random.Generator:   # the common case, without the import below
        return rng
    from .rng import RngProxy      # looked up at call time (the conform kill matrix's copies patch it)

    if not isinstance(rng, (np.random.Generator, RngProxy)):
        raise ParameterError(name, "a numpy.random.Generator (pass np.random.default_rng(seed))",
                             type(rng).__name__)
    return rng


def check_rows_norm_bound(X: np.ndarray, bound: float, ord: float, name: str = "X",
                          rtol: float = 1e-12) -> None:
    """Every row of X has norm <= bound (the data assumption of a privacy proof).

    A tiny relative tolerance absorbs floating-point rounding of data that were
    normalised exactly onto the sphere; anything beyond it is a violation.
    """
    norms = np.linalg.norm(np.atleast_2d(X), ord=ord, axis=1)
    worst = float(np.max(norms)) if norms.size else 0.0
    if worst > bound * (1 + rtol):
        raise AssumptionViolation(
            f"every row of {name} has l{ord:g}-norm <= {bound:g}",
            f"largest row norm is {worst:.6g}; the privacy proof needs the bound, nothing is clipped",
        )
