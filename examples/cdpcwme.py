"""CDPCWME (rho-CDP coordinate-wise median-of-means), vectorised, written from the paper.

Kamath, Liu, Zhang, heavy-tailed DP-SCO (/work/shared/seeds/001_*), Algorithm 3 (High-Dimensional Mean
Estimator, Sec. B.3) plus Gaussian noise (CDPCWME, Theorem 4.1); conform id ``heavy_tailed:CDPCWME``.

- line 2: m = 4 log(2d/beta) buckets, natural log, rounded up (heavy_tailed-E04); b = floor(n/m) samples a
  bucket, the trailing n - m b unused;
- lines 3-7: every sample clipped to [-3 tau, 3 tau] coordinate-wise, then averaged per bucket (one
  ``reshape(m, b, d).mean(axis=1)``);
- line 9: the coordinate-wise median of the m bucket means; for even m the mean of the two middle values
  (footnote 9), computed here from one ``np.sort`` (not ``np.median``);
- the noise: N(0, sigma^2 I_d), d standard normals by Box-Muller from ``rng.random`` uniforms, scaled by
  sigma (the reference asks for ``standard_normal``; ``rng.normal(0, sigma, d)`` would replay bit for bit,
  this sampler does not: replay refuses this port, the law is the same). sigma: ``"paper"``
  Theorem 4.1 as printed, sigma^2 = 1152 tau^2 d log^2(2d/beta) / (rho n^2); ``"certified"`` the smallest
  sigma the package certifies rho-zCDP for Algorithm 3's exact l2 sensitivity. Both the sensitivity and
  the certification are asked of the reference (``cwme_sensitivity``, ``certified_sigma``): what is certified
  is by definition what the reference's accountant certifies, and the exact sensitivity of the median
  depends on m's parity (heavy_tailed's even-m fix), which this port follows instead of restating.
- rho = inf: no noise (Algorithm 3's estimate).

``variant=`` and the siblings at the bottom are wrong on purpose: ``"upper-middle"`` (even m: the upper of
the two middle bucket means as the median), ``"noise-0.8"``, ``"noiseless"``, ``"sensitivity-half"``.
"""

from __future__ import annotations

import math

import numpy as np


def _buckets(n: int, d: int, beta: float) -> tuple[int, int]:
    value = 4.0 * math.log(2.0 * d / beta)
    m = max(1, math.ceil(value - 1e-12 * value))
    if n < m:
        raise ValueError(f"n = {n} < m = {m}: a bucket would be empty")
    return m, n // m


def median_of_means(X: np.ndarray, tau: float, m: int, b: int, variant: str = "") -> np.ndarray:
    means = np.clip(X[:m * b], -3.0 * tau, 3.0 * tau).reshape(m, b, X.shape[1]).mean(axis=1)
    s = np.sort(means, axis=0)
    if m % 2 == 1:
        return s[m // 2]
    if variant == "upper-middle":             # WRONG: the upper middle value for even m
        return s[m // 2]
    return 0.5 * (s[m // 2 - 1] + s[m // 2])


def cdpcwme(X, rho, tau, beta, rng, *, calibration="paper", variant="") -> np.ndarray:
    """The private estimate mu_tilde in R^d."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.size == 0 or not np.all(np.isfinite(X)):
        raise ValueError(f"X must be a non-empty finite (n, d) array, got shape {X.shape}")
    if not (isinstance(rho, (int, float)) and rho > 0):
        raise ValueError(f"rho must be > 0, got {rho!r}")
    if not (isinstance(tau, (int, float)) and math.isfinite(tau) and tau > 0):
        raise ValueError(f"tau must be a finite real > 0, got {tau!r}")
    if not (isinstance(beta, (int, float)) and 0 < beta < 1):
        raise ValueError(f"beta must be in (0, 1), got {beta!r}")
    n, d = X.shape
    m, b = _buckets(n, d, beta)
    mu_hat = median_of_means(X, tau, m, b, variant)
    if math.isinf(rho) or variant == "noiseless":
        return mu_hat
    if calibration == "paper":
        L = math.log(2.0 * d / beta)
        sigma = math.sqrt(1152.0 * tau * tau * d * L * L / (rho * n * n))
        if variant == "sensitivity-half":
            sigma *= 0.5                      # sigma is proportional to the sensitivity
    elif calibration == "certified":
        from reference.algorithms.heavy_tailed import certified_sigma, cwme_sensitivity

        sens = cwme_sensitivity(n, d, tau, m, norm="l2", which="tight")
        sigma = certified_sigma(0.5 * sens if variant == "sensitivity-half" else sens, rho)
    else:
        raise ValueError(f"calibration must be 'paper' or 'certified', not {calibration!r}")
    if variant == "noise-0.8":
        sigma *= 0.8
    return mu_hat + sigma * box_muller(rng, d)


def box_muller(rng, d: int) -> np.ndarray:
    """d standard normals from 2 ceil(d/2) uniforms (Box-Muller): another sampler than the reference's."""
    k = (d + 1) // 2
    u1 = 1.0 - rng.random(k)                      # in (0, 1]: log(u1) is finite
    u2 = rng.random(k)
    r = np.sqrt(-2.0 * np.log(u1))
    return np.concatenate([r * np.cos(2.0 * np.pi * u2), r * np.sin(2.0 * np.pi * u2)])[:d]


def _bind(variant):
    def wrong(*args, **kwargs):
        return cdpcwme(*args, **kwargs, variant=variant)
    wrong.__name__ = f"cdpcwme_{variant.replace('-', '_').replace('.', '')}"
    wrong.__doc__ = f"cdpcwme with variant={variant!r} (wrong on purpose)."
    return wrong


cdpcwme_upper_middle = _bind("upper-middle")
cdpcwme_noise_08 = _bind("noise-0.8")
cdpcwme_noiseless = _bind("noiseless")
cdpcwme_sensitivity_half = _bind("sensitivity-half")
