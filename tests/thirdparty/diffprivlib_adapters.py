"""IBM diffprivlib's mechanisms behind the reference's ``conform`` signatures (measured with diffprivlib 0.6.6).

diffprivlib's mechanisms take ``epsilon`` / ``delta`` / ``sensitivity`` and calibrate the noise
themselves, so each adapter solves for the parameters that make diffprivlib's own calibration
land on the reference's noise:

=========================  ===========================================================================
core:laplace_mechanism     ``Laplace(epsilon=Delta / b, sensitivity=Delta)``: its scale
                           ``sensitivity / epsilon`` is b. diffprivlib's Laplace is scalar, so it runs
                           once per coordinate (its own accountant would charge d x epsilon; under the
                           reference's l1 sensitivity the vector release is Delta / b-DP).
core:gaussian_mechanism    ``GaussianAnalytic(epsilon=e*, delta=1e-5, sensitivity=Delta)`` with e* solved
                           (brentq on diffprivlib's own calibration) so that its sigma is the reference's;
                           :func:`gaussian_mechanism_classic` uses the classic ``Gaussian``, whose
                           theorem needs epsilon <= 1 (see :func:`classic_parameters`)
core:exponential_mechanism ``Exponential(epsilon, sensitivity=Delta, utility=scores, monotonic=monotone)``:
                           the same convention as the reference, P(i) ∝ exp(epsilon s_i / (2 Delta))
                           (``/ Delta`` when monotonic)
core:report_noisy_max      ``noise="gumbel"``: the Gumbel-max law is the exponential mechanism with
                           P(i) ∝ exp(s_i / b), i.e. ``Exponential(epsilon=2 Delta / b, sensitivity=Delta)``
                           (``Delta / b`` with ``monotonic=True``); ``noise="laplace"``: diffprivlib has
                           no noisy max, so each score goes through ``Laplace(epsilon=Delta / b,
                           sensitivity=Delta)`` and the argmax is taken here
=========================  ===========================================================================

Randomness: by default diffprivlib draws from ``secrets.SystemRandom`` (unseedable). The
adapters pass it ``numpy.random.RandomState(rng.bit_generator)`` instead, a legacy front end on
the harness's own generator, so that a fixed-seed check is reproducible; diffprivlib's samplers
are the same code on either source, except the Gaussian, which draws
``(standard_normal() + standard_normal()) / sqrt(2)`` from a RandomState and
``(normalvariate(0, 1) + normalvariate(0, 1)) / sqrt(2)`` from SystemRandom. ``secure=True``
runs the library's default source (docs/conformance.md measures both).

:func:`permute_and_flip` is diffprivlib's other selection mechanism, conformed to the
exponential mechanism to show what the law check says about a different but valid mechanism.
"""

from __future__ import annotations

import copy
import functools
import math

import numpy as np

from reference.errors import ParameterError

DELTA = 1e-5            # the delta at which the analytic Gaussian is asked for the reference's sigma


def _random_state(rng, secure: bool):
    if secure:
        return None
    if not isinstance(rng, np.random.Generator):
        raise ParameterError("rng", "a numpy.random.Generator", type(rng).__name__)
    return np.random.RandomState(rng.bit_generator)


def _with_rng(mechanism, rng, secure: bool):
    """A copy of a cached (calibrated) diffprivlib mechanism drawing from ``rng``. Calibrating the
    analytic Gaussian costs ~1 ms (a bisection in Python); the copy costs microseconds. ``_rng`` is
    the attribute diffprivlib's constructor sets from ``random_state`` (diffprivlib.mechanisms.base)."""
    from diffprivlib.utils import check_random_state

    mech = copy.copy(mechanism)
    mech._rng = check_random_state(_random_state(rng, secure), True)
    return mech


def _values(value) -> np.ndarray:
    arr = np.asarray(value, dtype=float)
    if not np.all(np.isfinite(arr)):
        raise ParameterError("value", "finite numbers", "non-finite entries")
    return arr


def _shaped(arr: np.ndarray, out: list):
    out = np.asarray(out, dtype=float).reshape(arr.shape)
    return float(out) if arr.ndim == 0 else out


@functools.lru_cache(maxsize=64)
def laplace_for(sensitivity: float, scale: float):
    """diffprivlib's Laplace whose scale ``sensitivity / epsilon`` is ``scale``."""
    from diffprivlib.mechanisms import Laplace

    if not sensitivity > 0 or not scale > 0:
        raise ParameterError("sensitivity, scale", "> 0 (diffprivlib's Laplace needs epsilon = Delta / b > 0)",
                             (sensitivity, scale))
    return Laplace(epsilon=sensitivity / scale, sensitivity=sensitivity)


def laplace_mechanism(value, sensitivity, scale, rng, *, secure=False):
    """core:laplace_mechanism by ``diffprivlib.mechanisms.Laplace`` (one call per coordinate)."""
    arr = _values(value)
    mech = _with_rng(laplace_for(float(sensitivity), float(scale)), rng, secure)
    return _shaped(arr, [mech.randomise(float(v)) for v in arr.ravel()])


@functools.lru_cache(maxsize=64)
def analytic_epsilon(sigma: float, sensitivity: float, delta: float = DELTA) -> float:
    """The epsilon at which diffprivlib's ``GaussianAnalytic(epsilon, delta, sensitivity)`` calibrates
    to ``sigma``: solved by brentq on its own calibration (its sigma decreases in epsilon)."""
    from diffprivlib.mechanisms import GaussianAnalytic
    from scipy.optimize import brentq

    def gap(eps):
        return GaussianAnalytic(epsilon=eps, delta=delta, sensitivity=sensitivity)._scale - sigma

    lo, hi = 1e-3, 1.0
    while gap(hi) > 0:
        hi *= 2
        if hi > 1e4:
            raise ParameterError("sigma", f"reachable by GaussianAnalytic at delta = {delta:g}", sigma)
    return float(brentq(gap, lo, hi, xtol=1e-15, rtol=4 * np.finfo(float).eps))


@functools.lru_cache(maxsize=64)
def gaussian_analytic_for(sensitivity: float, sigma: float):
    from diffprivlib.mechanisms import GaussianAnalytic

    if not sensitivity > 0 or not sigma > 0:
        raise ParameterError("sensitivity, sigma", "> 0", (sensitivity, sigma))
    return GaussianAnalytic(epsilon=analytic_epsilon(sigma, sensitivity), delta=DELTA, sensitivity=sensitivity)


def gaussian_mechanism(value, sensitivity, sigma, rng, *, secure=False):
    """core:gaussian_mechanism by ``diffprivlib.mechanisms.GaussianAnalytic`` at delta = 1e-5, epsilon solved
    so that its sigma is the reference's (one call per coordinate)."""
    arr = _values(value)
    mech = _with_rng(gaussian_analytic_for(float(sensitivity), float(sigma)), rng, secure)
    return _shaped(arr, [mech.randomise(float(v)) for v in arr.ravel()])


def classic_parameters(sigma: float, sensitivity: float, delta: float = DELTA) -> tuple[float, float]:
    """(epsilon, delta) at which diffprivlib's classic ``Gaussian`` (sigma = sqrt(2 ln(1.25/delta)) Delta /
    epsilon, epsilon <= 1) calibrates to ``sigma``: ``delta`` if that needs epsilon <= 1, else epsilon = 1
    and the delta that gives sigma (the classic theorem cannot express a smaller sigma at ``delta``)."""
    eps = math.sqrt(2 * math.log(1.25 / delta)) * sensitivity / sigma
    if eps <= 1.0:
        return eps, delta
    return 1.0, 1.25 * math.exp(-0.5 * (sigma / sensitivity) ** 2)


@functools.lru_cache(maxsize=64)
def gaussian_classic_for(sensitivity: float, sigma: float):
    from diffprivlib.mechanisms import Gaussian

    if not sensitivity > 0 or not sigma > 0:
        raise ParameterError("sensitivity, sigma", "> 0", (sensitivity, sigma))
    eps, delta = classic_parameters(sigma, sensitivity)
    if not delta < 1:
        raise ParameterError("sigma", "large enough for the classic Gaussian (delta < 1 at epsilon 1)", sigma)
    return Gaussian(epsilon=eps, delta=delta, sensitivity=sensitivity)


def gaussian_mechanism_classic(value, sensitivity, sigma, rng, *, secure=False):
    """core:gaussian_mechanism by diffprivlib's classic ``Gaussian`` at :func:`classic_parameters`."""
    arr = _values(value)
    mech = _with_rng(gaussian_classic_for(float(sensitivity), float(sigma)), rng, secure)
    return _shaped(arr, [mech.randomise(float(v)) for v in arr.ravel()])


def _utility(scores) -> list:
    arr = np.asarray(scores, dtype=float)
    if arr.ndim != 1 or arr.size == 0 or not np.all(np.isfinite(arr)):
        raise ParameterError("scores", "a non-empty 1-d array of finite numbers", scores)
    return [float(s) for s in arr]


def exponential_mechanism(scores, sensitivity, epsilon, rng, *, monotone=False, secure=False):
    """core:exponential_mechanism by ``diffprivlib.mechanisms.Exponential`` (same epsilon, sensitivity, monotonic)."""
    from diffprivlib.mechanisms import Exponential

    mech = Exponential(epsilon=float(epsilon), sensitivity=float(sensitivity), utility=_utility(scores),
                       monotonic=bool(monotone), random_state=_random_state(rng, secure))
    return int(mech.randomise())


def permute_and_flip(scores, sensitivity, epsilon, rng, *, monotone=False, secure=False):
    """diffprivlib's ``PermuteAndFlip`` at the exponential mechanism's parameters (the same epsilon-DP
    guarantee, McKenna-Sheldon 2020; a different selection law)."""
    from diffprivlib.mechanisms import PermuteAndFlip

    mech = PermuteAndFlip(epsilon=float(epsilon), sensitivity=float(sensitivity), utility=_utility(scores),
                          monotonic=bool(monotone), random_state=_random_state(rng, secure))
    return int(mech.randomise())


def report_noisy_max(scores, sensitivity, scale, rng, *, noise="laplace", monotone=False, secure=False):
    """core:report_noisy_max: Gumbel noise as diffprivlib's ``Exponential`` with P(i) ∝ exp(s_i / b);
    Laplace noise by diffprivlib's ``Laplace`` (scale b) on each score, then the argmax (first index on ties)."""
    s = _utility(scores)
    sensitivity, scale = float(sensitivity), float(scale)
    if noise == "gumbel":
        eps = (1.0 if monotone else 2.0) * sensitivity / scale
        return exponential_mechanism(s, sensitivity, eps, rng, monotone=monotone, secure=secure)
    if noise == "laplace":
        mech = _with_rng(laplace_for(sensitivity, scale), rng, secure)
        return int(np.argmax([mech.randomise(v) for v in s]))
    raise ParameterError("noise", "'laplace' or 'gumbel'", noise)
