"""Randomness an oracle can record and replay.

Every randomized function of the package takes ``rng``. Normally that is a
``numpy.random.Generator``. For test vectors and conformance checks two stand-ins
are accepted as well:

- :class:`RecordingRng` wraps a Generator and records every draw (method, arguments,
  the values returned), so a test vector can carry the exact noise the reference
  consumed;
- :class:`ReplayRng` hands back recorded draws in order, checking that the caller
  asks for the same values of the same distributions with the same parameters (in any
  shape or batching), so another implementation can be run on the reference's very
  noise and compared bit for bit.
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


# How each elementwise sampling method's arguments are named (numpy.random.Generator's signatures),
# and the canonical distribution it draws from: a request is turned into one scalar draw per output
# element, (distribution, its parameters for that element), so that the same values requested in
# another shape or batching replay identically.
_ELEMENTWISE: dict[str, tuple[str, tuple[tuple[str, Any], ...]]] = {
    # method: (canonical distribution, ((parameter, default), ...)); _REQUIRED means no default
    "normal": ("normal", (("loc", 0.0), ("scale", 1.0))),
    "standard_normal": ("normal", ()),
    "laplace": ("laplace", (("loc", 0.0), ("scale", 1.0))),
    "gumbel": ("gumbel", (("loc", 0.0), ("scale", 1.0))),
    "exponential": ("exponential", (("scale", 1.0),)),
    "standard_exponential": ("exponential", ()),
    "uniform": ("uniform", (("low", 0.0), ("high", 1.0))),
    "random": ("uniform", ()),
    "integers": ("integers", (("low", None), ("high", None))),
    "geometric": ("geometric", (("p", None),)),
    "gamma": ("gamma", (("shape", None), ("scale", 1.0))),
    "standard_gamma": ("gamma", (("shape", None),)),
    "binomial": ("binomial", (("n", None), ("p", None))),
    "poisson": ("poisson", (("lam", 1.0),)),
}
# The parameters a canonical distribution is compared on (those a method leaves out take these values).
_CANONICAL_DEFAULTS = {"normal": {"loc": 0.0, "scale": 1.0}, "laplace": {"loc": 0.0, "scale": 1.0},
                       "gumbel": {"loc": 0.0, "scale": 1.0}, "exponential": {"scale": 1.0},
                       "uniform": {"low": 0.0, "high": 1.0}, "gamma": {"scale": 1.0}}


@dataclass(frozen=True)
class ScalarDraw:
    """One element of the stream: which distribution, its parameters, the value, and where the
    reference drew it (call index and element index within that call)."""

    distribution: str
    params: tuple[tuple[str, float], ...]
    value: Any
    call: int
    element: int

    def describe(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params)
        return f"{self.distribution}({args})"


def _split_request(method: str, kwargs: dict) -> tuple[str, dict, Any]:
    """A call (as recorded: positional arguments as arg0, arg1, ...) -> (distribution, params, size)."""
    distribution, names = _ELEMENTWISE[method]
    given = dict(kwargs)
    positional = sorted((k for k in given if k.startswith("arg") and k[3:].isdigit()), key=lambda k: int(k[3:]))
    order = [n for n, _ in names] + ["size"]
    for i, key in enumerate(positional):
        if i >= len(order):
            raise ParameterError("rng", f"at most {len(order)} positional arguments to {method}", len(positional))
        given[order[i]] = given.pop(key)
    size = given.pop("size", None)
    endpoint = bool(given.pop("endpoint", False))
    given.pop("dtype", None)
    params = {n: given.pop(n, default) for n, default in names}
    if given:
        raise ParameterError("rng", f"only the arguments numpy's {method} takes", sorted(given))
    if method == "integers":
        if params["high"] is None:
            params["low"], params["high"] = 0, params["low"]
        if endpoint:
            params["high"] = np.asarray(params["high"]) + 1
    if method == "standard_gamma":
        params["scale"] = 1.0
    for name, value in _CANONICAL_DEFAULTS.get(distribution, {}).items():
        params.setdefault(name, value)
    if any(v is None for v in params.values()):
        raise ParameterError("rng", f"every required argument of {method}", params)
    return distribution, params, size


def _elements(method: str, kwargs: dict, value: Any = None) -> tuple[str, list[dict], tuple[int, ...]]:
    """The per-element parameters of a call and the shape of what it returns."""
    distribution, params, size = _split_request(method, kwargs)
    arrays = {k: np.asarray(v, dtype=float) for k, v in params.items()}
    if size is None:
        shape = np.broadcast_shapes(*(a.shape for a in arrays.values())) if arrays else ()
    else:
        shape = (int(size),) if np.ndim(size) == 0 else tuple(int(x) for x in size)
    broadcast = {k: np.broadcast_to(a, shape).ravel() for k, a in arrays.items()}
    count = int(np.prod(shape)) if shape else 1
    per_element = [{k: float(b[i]) for k, b in sorted(broadcast.items())} for i in range(count)]
    return distribution, per_element, shape


# numpy draws these location-scale laws from the standard one: normal(loc, scale) = loc + scale * z with z
# its standard_normal, laplace and gumbel likewise, exponential(scale) = scale * standard_exponential,
# uniform(low, high) = low + (high - low) * random(). (location, scale) of each, as functions of the params.
_FROM_STANDARD = {
    "normal": lambda p: (p["loc"], p["scale"]), "laplace": lambda p: (p["loc"], p["scale"]),
    "gumbel": lambda p: (p["loc"], p["scale"]), "exponential": lambda p: (0.0, p["scale"]),
    "uniform": lambda p: (p["low"], p["high"] - p["low"]),
}


def _from_standard(entry: ScalarDraw, params: dict):
    """The value a request with ``params`` gets from the reference's *standard* draw ``entry`` (loc 0, scale 1;
    uniform on [0, 1)), computed as numpy computes it from the same standard variate, so bit for bit what the
    candidate's own generator would return had it drawn that variate: a port asking ``normal(0, s)`` where the
    reference drew ``standard_normal()`` and multiplied by s gets s z, the reference's value. None when the
    reference's draw is not standard (then the parameters must match, as before) or the law has no
    location-scale form."""
    rescale = _FROM_STANDARD.get(entry.distribution)
    if rescale is None or dict(entry.params) != _CANONICAL_DEFAULTS.get(entry.distribution):
        return None
    if dict(entry.params).keys() != params.keys():
        return None
    loc, scale = rescale(params)
    if not (np.isfinite(loc) and np.isfinite(scale) and scale >= 0):
        return None
    if entry.distribution == "exponential":
        return scale * entry.value
    return loc + scale * entry.value


class ReplayRng(RngProxy):
    """Hands back recorded draws; raises, saying where, if the caller's requests part from them.

    ``mode="stream"`` (the default) compares the *sequence of values* of each distribution and
    their parameters: a candidate may request the reference's draws in another shape or batching
    (one ``laplace(0, b, size=12)`` where the reference made ``laplace(0, b, size=(1, 12))``, or
    twelve scalar calls), and spelled another way (``random()`` for ``uniform(0, 1)``,
    ``standard_normal`` for ``normal(0, 1)``). What must match, element by element and in
    order, is the distribution and its parameters (within ``rtol``; the values returned are the
    reference's, bit for bit). ``choice`` and ``permutation`` are replayed call by call.

    ``mode="calls"`` is the strict form: each call must repeat the reference's method and
    arguments exactly.
    """

    def __init__(self, draws: list[Draw] | list[dict], *, mode: str = "stream", rtol: float = 1e-12):
        if mode not in ("stream", "calls"):
            raise ParameterError("mode", "'stream' or 'calls'", mode)
        self._draws = [d if isinstance(d, Draw) else Draw(d["method"], d["kwargs"], d["value"]) for d in draws]
        self._mode = mode
        self._rtol = float(rtol)
        self._next = 0            # next recorded call (calls mode, and whole-call methods in stream mode)
        self._stream: list[ScalarDraw | Draw] = []
        if mode == "stream":
            for j, d in enumerate(self._draws):
                if d.method not in _ELEMENTWISE:
                    self._stream.append(d)
                    continue
                distribution, per_element, _ = _elements(d.method, d.kwargs)
                values = np.asarray(d.value).ravel().tolist()
                if len(values) != len(per_element):
                    raise ParameterError("draws", f"draw {j}: as many values as its shape asks",
                                         f"{len(values)} values for {len(per_element)} elements")
                for i, (params, v) in enumerate(zip(per_element, values)):
                    self._stream.append(ScalarDraw(distribution, tuple(params.items()), v, j, i))
        self._position = 0        # next element of the stream

    @property
    def exhausted(self) -> bool:
        if self._mode == "calls":
            return self._next == len(self._draws)
        return self._position == len(self._stream)

    def __getattr__(self, name: str):
        if name not in SAMPLING_METHODS:
            raise AttributeError(f"ReplayRng replays draws only; it has no {name!r}")
        if self._mode == "calls":
            return lambda *args, **kwargs: self._replay_call(name, args, kwargs)
        return lambda *args, **kwargs: self._replay_stream(name, args, kwargs)

    def _replay_call(self, name: str, args: tuple, kwargs: dict):
        if self._next >= len(self._draws):
            raise ParameterError("rng", "no more draws than the reference consumed", f"extra call {name}")
        draw = self._draws[self._next]
        if draw.method != name or draw.kwargs != _args_to_kwargs(name, args, kwargs):
            raise ParameterError(
                "rng", f"draw {self._next} requested as the reference did: {draw.method}({draw.kwargs})",
                f"{name}({_args_to_kwargs(name, args, kwargs)})")
        self._next += 1
        # JSON keeps floats exactly (shortest round-trip repr); lists become arrays again.
        return np.asarray(draw.value) if isinstance(draw.value, list) else draw.value

    def _replay_stream(self, name: str, args: tuple, kwargs: dict):
        requested = _args_to_kwargs(name, args, kwargs)
        if name not in _ELEMENTWISE:   # choice, permutation: the whole call must repeat the reference's
            entry = self._stream[self._position] if self._position < len(self._stream) else None
            if not isinstance(entry, Draw) or entry.method != name or entry.kwargs != requested:
                where = entry.describe() if isinstance(entry, ScalarDraw) else (
                    f"{entry.method}({entry.kwargs})" if entry else "nothing (the reference's draws are used up)")
                raise ParameterError("rng", f"stream element {self._position}: the reference drew {where}",
                                     f"{name}({requested})")
            self._position += 1
            return np.asarray(entry.value) if isinstance(entry.value, list) else entry.value
        distribution, per_element, shape = _elements(name, requested)
        if self._position + len(per_element) > len(self._stream):
            raise ParameterError("rng", f"at most {len(self._stream) - self._position} more values "
                                 f"(the reference drew {len(self._stream)} in all)",
                                 f"{name} asking for {len(per_element)}")
        values = []
        for i, params in enumerate(per_element):
            entry = self._stream[self._position + i]
            ok = (isinstance(entry, ScalarDraw) and entry.distribution == distribution
                  and dict(entry.params).keys() == params.keys()
                  and all(np.isclose(params[k], v, rtol=self._rtol, atol=0.0) for k, v in entry.params))
            if not ok and isinstance(entry, ScalarDraw) and entry.distribution == distribution:
                scaled = _from_standard(entry, params)      # the reference's standard draw, rescaled as numpy does
                if scaled is not None:
                    values.append(scaled)
                    continue
            if not ok:
                wanted = ScalarDraw(distribution, tuple(params.items()), None, -1, i).describe()
                where = (f"{entry.describe()} (its call {entry.call}, element {entry.element})"
                         if isinstance(entry, ScalarDraw) else f"{entry.method}({entry.kwargs})")
                raise ParameterError("rng", f"stream element {self._position + i} as the reference drew it: {where}",
                                     f"{name}(...) element {i} = {wanted}")
            values.append(entry.value)
        self._position += len(per_element)
        dtype = np.int64 if distribution in ("integers", "geometric", "binomial", "poisson") else np.float64
        if shape == ():
            return values[0]
        return np.asarray(values, dtype=dtype).reshape(shape)
