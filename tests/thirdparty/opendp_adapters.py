"""OpenDP's mechanisms behind the reference's ``conform`` signatures (measured with opendp 0.16.0).

Each function takes the keyword arguments ``python -m reference conform`` passes for its
building block (see ``python -m reference list``) and maps them onto OpenDP's constructors:

=========================  ===========================================================================
core:laplace_mechanism     ``make_laplace(vector_domain(atom_domain(float), size=d), l1_distance(float),
                           scale=scale)``: OpenDP's Laplace ``scale`` is the reference's ``scale`` (b)
core:gaussian_mechanism    ``make_gaussian(..., l2_distance(float), scale=sigma)``: ``scale`` is the
                           standard deviation; the measure is zCDP (rho = (Delta / sigma)^2 / 2)
core:exponential_mechanism ``make_noisy_max(..., linf_distance(float, monotonic=monotone),
                           zero_concentrated_divergence(), scale=2 Delta / epsilon)`` (``Delta /
                           epsilon`` when monotone): Gumbel noise, so P(i) ∝ exp(epsilon s_i / (2 Delta))
core:report_noisy_max      ``noise="gumbel"``: ``make_noisy_max`` with the zCDP measure (Gumbel noise) at
                           ``scale=b``; ``noise="laplace"``: OpenDP has no Laplace noisy max, so the
                           scores go through ``make_laplace`` (scale b) and the argmax is taken here
=========================  ===========================================================================

``rng`` is accepted and ignored: OpenDP draws from the operating system's CSPRNG and cannot
be seeded, so these candidates are judged by the law check and the privacy audit, never by
replay, and their runs differ from one invocation to the next.

Two further candidates are OpenDP's *other* choices, conformed to show what the law check
says about a different but valid mechanism: :func:`noisy_max_pure` (``make_noisy_max`` with
the pure-DP measure, i.e. exponential noise: the permute-and-flip law) and
:func:`laplace_mechanism_grid_half` (``make_laplace`` with ``k=-1``: discrete Laplace on the
grid 2^-1).
"""

from __future__ import annotations

import functools

import numpy as np

from reference.errors import ParameterError


@functools.lru_cache(maxsize=1)
def _dp():
    import opendp.prelude as dp

    dp.enable_features("contrib")
    return dp


def _vector(value) -> np.ndarray:
    arr = np.asarray(value, dtype=float)
    if not np.all(np.isfinite(arr)):
        raise ParameterError("value", "finite numbers", "non-finite entries")
    return arr


def _shaped(arr: np.ndarray, out):
    out = np.asarray(out, dtype=float).reshape(arr.shape)
    return float(out) if arr.ndim == 0 else out


@functools.lru_cache(maxsize=64)
def laplace_measurement(size: int, scale: float, k: int | None = None):
    """OpenDP's Laplace measurement on float vectors of ``size`` entries, l1 input metric."""
    dp = _dp()
    space = dp.vector_domain(dp.atom_domain(T=float, nan=False), size=size), dp.l1_distance(T=float)
    return dp.m.make_laplace(*space, scale=scale, k=k)


@functools.lru_cache(maxsize=64)
def gaussian_measurement(size: int, sigma: float):
    """OpenDP's Gaussian measurement on float vectors of ``size`` entries, l2 input metric (zCDP)."""
    dp = _dp()
    space = dp.vector_domain(dp.atom_domain(T=float, nan=False), size=size), dp.l2_distance(T=float)
    return dp.m.make_gaussian(*space, scale=sigma)


@functools.lru_cache(maxsize=64)
def noisy_max_measurement(scale: float, monotone: bool, measure: str):
    """OpenDP's noisy max on float score vectors, l-infinity input metric; ``measure`` 'zCDP'
    (Gumbel noise) or 'pure' (exponential noise)."""
    dp = _dp()
    space = (dp.vector_domain(dp.atom_domain(T=float, nan=False)),
             dp.linf_distance(T=float, monotonic=monotone))
    out = dp.zero_concentrated_divergence() if measure == "zCDP" else dp.max_divergence()
    return dp.m.make_noisy_max(*space, out, scale=scale)


def _privacy_loss(meas, sensitivity):
    """OpenDP's privacy map at the caller's sensitivity, as an OpenDP user reads the loss before releasing.
    OpenDP's samplers never read the sensitivity (it enters the map only); the map refuses a negative one
    (``OpenDPException: FailedMap("sensitivity ...")``), so the adapter does not release on it."""
    return meas.map(float(sensitivity))


def laplace_mechanism(value, sensitivity, scale, rng, *, k=None):
    """core:laplace_mechanism by ``opendp.measurements.make_laplace`` (``rng`` unused)."""
    arr = _vector(value)
    if not scale > 0:
        raise ParameterError("scale", "> 0", scale)
    meas = laplace_measurement(max(arr.size, 1), float(scale), k)
    _privacy_loss(meas, sensitivity)
    return _shaped(arr, meas(arr.ravel().tolist()))


def laplace_mechanism_grid_half(value, sensitivity, scale, rng):
    """OpenDP's Laplace with ``k=-1``: input rounded to the grid 2^-1, discrete Laplace noise on it."""
    return laplace_mechanism(value, sensitivity, scale, rng, k=-1)


def gaussian_mechanism(value, sensitivity, sigma, rng):
    """core:gaussian_mechanism by ``opendp.measurements.make_gaussian`` (``rng`` unused)."""
    arr = _vector(value)
    if not sigma > 0:
        raise ParameterError("sigma", "> 0", sigma)
    meas = gaussian_measurement(max(arr.size, 1), float(sigma))
    _privacy_loss(meas, sensitivity)
    return _shaped(arr, meas(arr.ravel().tolist()))


def _scores(scores) -> list:
    arr = np.asarray(scores, dtype=float)
    if arr.ndim != 1 or arr.size == 0 or not np.all(np.isfinite(arr)):
        raise ParameterError("scores", "a non-empty 1-d array of finite numbers", scores)
    return arr.tolist()


def exponential_mechanism(scores, sensitivity, epsilon, rng, *, monotone=False):
    """core:exponential_mechanism by ``make_noisy_max`` with Gumbel noise (zCDP measure) at scale
    ``2 Delta / epsilon`` (``Delta / epsilon`` when monotone): P(i) ∝ exp(s_i / scale)."""
    if not sensitivity > 0 or not epsilon > 0:
        raise ParameterError("sensitivity, epsilon", "> 0", (sensitivity, epsilon))
    scale = (1.0 if monotone else 2.0) * float(sensitivity) / float(epsilon)
    return int(noisy_max_measurement(scale, bool(monotone), "zCDP")(_scores(scores)))


def report_noisy_max(scores, sensitivity, scale, rng, *, noise="laplace", monotone=False):
    """core:report_noisy_max: Gumbel noise by ``make_noisy_max`` (zCDP measure) at ``scale=b``;
    Laplace noise by ``make_laplace`` on the score vector (scale b), then the argmax (first index on ties)."""
    s = _scores(scores)
    if not scale > 0:
        raise ParameterError("scale", "> 0", scale)
    if noise == "gumbel":
        meas = noisy_max_measurement(float(scale), bool(monotone), "zCDP")
        _privacy_loss(meas, sensitivity)
        return int(meas(s))
    if noise == "laplace":
        meas = laplace_measurement(len(s), float(scale))
        _privacy_loss(meas, sensitivity)
        return int(np.argmax(meas(s)))
    raise ParameterError("noise", "'laplace' or 'gumbel'", noise)


def noisy_max_pure(scores, sensitivity, scale, rng, *, noise="laplace", monotone=False):
    """OpenDP's pure-DP noisy max (``make_noisy_max`` with ``max_divergence()``) at ``scale=b``, whatever
    ``noise`` asks: its noise is exponential, so its law is permute-and-flip's (McKenna-Sheldon 2020)."""
    if not scale > 0:
        raise ParameterError("scale", "> 0", scale)
    meas = noisy_max_measurement(float(scale), bool(monotone), "pure")
    _privacy_loss(meas, sensitivity)
    return int(meas(_scores(scores)))


def exponential_mechanism_pure(scores, sensitivity, epsilon, rng, *, monotone=False):
    """OpenDP's pure-DP selection at the exponential mechanism's epsilon: ``make_noisy_max`` with
    ``max_divergence()`` at ``scale = 2 Delta / epsilon`` (its privacy map gives exactly epsilon)."""
    if not sensitivity > 0 or not epsilon > 0:
        raise ParameterError("sensitivity, epsilon", "> 0", (sensitivity, epsilon))
    scale = (1.0 if monotone else 2.0) * float(sensitivity) / float(epsilon)
    return int(noisy_max_measurement(scale, bool(monotone), "pure")(_scores(scores)))
