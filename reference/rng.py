"""Randomness an oracle can record and replay.

Every randomized function of the package takes ``rng``. Normally that is a
``numpy.random.Generator``. For test vectors and conformance checks two stand-ins
are accepted as well:

- :class:`RecordingRng` wraps a Generator and records every draw (method, arguments,
  the values returned), so a test vector can carry the exact noise the reference
  consumed;
- :class:`ReplayRng` hands back recorded draws in order, checking that the caller
  asks for the same method and shape each time, so another implementation can be run
  on the reference's very noise and compared bit for bit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .errors import ParameterError

# The sampling methods the package's mechanisms and algorithms use.
SAMPLING_METHODS = ("normal", "standard_normal", "laplace", "gumbel", "exponential", "standard_exponential",
                    "uniform", "random", "integers", "choice", "geometric", "gamma", "standard_gamma",
                    "permutation", "binomial", "poisson")


@dataclass(frozen=True)
class Draw:
    method: str
    kwargs: dict
    value: Any   # list (array draws) or scalar


def _plain(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _args_to_kwargs(method: str, args: tuple, kwargs: dict) -> dict:
    """The call's arguments in the form they take after a JSON round trip (tuples as lists)."""
    out = {f"arg{i}": _plain(a) for i, a in enumerate(args)}
    out.update({k: _plain(v) for k, v in kwargs.items()})
    return out


class RngProxy:
    """Marker base: an object accepted wherever a Generator is."""


class RecordingRng(RngProxy):
    """Forwards to a Generator and records every sampling call and its result."""

    def __init__(self, generator: np.random.Generator):
        if not isinstance(generator, np.random.Generator):
            raise ParameterError("generator", "a numpy.random.Generator", type(generator).__name__)
        self._generator = generator
        self.draws: list[Draw] = []

    def __getattr__(self, name: str):
        attr = getattr(self._generator, name)
        if name not in SAMPLING_METHODS:
            return attr

        def recorded(*args, **kwargs):
            value = attr(*args, **kwargs)
            shown = value.tolist() if isinstance(value, np.ndarray) else (
                value.item() if isinstance(value, np.generic) else value)
            self.draws.append(Draw(name, _args_to_kwargs(name, args, kwargs), shown))
            return value

        return recorded


class ReplayRng(RngProxy):
    """Returns recorded draws in order; raises if the caller's request differs."""

    def __init__(self, draws: list[Draw] | list[dict]):
        self._draws = [d if isinstance(d, Draw) else Draw(d["method"], d["kwargs"], d["value"]) for d in draws]
        self._next = 0

    @property
    def exhausted(self) -> bool:
        return self._next == len(self._draws)

    def __getattr__(self, name: str):
        if name not in SAMPLING_METHODS:
            raise AttributeError(f"ReplayRng replays draws only; it has no {name!r}")

        def replay(*args, **kwargs):
            if self._next >= len(self._draws):
                raise ParameterError("rng", "no more draws than the reference consumed",
                                     f"extra call {name}")
            draw = self._draws[self._next]
            if draw.method != name or draw.kwargs != _args_to_kwargs(name, args, kwargs):
                raise ParameterError(
                    "rng", f"draw {self._next} requested as the reference did: {draw.method}({draw.kwargs})",
                    f"{name}({_args_to_kwargs(name, args, kwargs)})")
            self._next += 1
            # JSON keeps floats exactly (shortest round-trip repr); lists become arrays again.
            return np.asarray(draw.value) if isinstance(draw.value, list) else draw.value

        return replay
