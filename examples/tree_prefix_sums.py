"""Binary-tree private prefix sums, vectorised, written from the papers (not from the reference's code).

The tree of Dwork-Naor-Pitassi-Rothblum (2010) and Chan-Shi-Song (2011, Sec. 3), as the ``online`` paper
(Jain-Kothari-Thakurta, /work/shared/seeds/002_*) writes it in Algorithm 5 (PrivateSum): node s at level h
holds the exact sum of its 2^h leaves and, once its last leaf has arrived, a noisy copy B_s + b_s with
b_s ~ N(0, sigma^2 I) drawn once; the prefix [1, t] is released as the sum of the noisy nodes of the 1-bits
of t (line 13: one node per level at most).

Here the tree is not built node by node. Node (h, j) covers items j 2^h + 1 .. (j+1) 2^h, and the prefix
[1, t] uses node (h, (t >> h) - 1) for every 1-bit h of t; since those nodes tile [1, t], the released
W_t is the exact prefix sum (one ``np.cumsum``) plus the sum of their noises. The noises of all populated
nodes are drawn up front, one ``rng.normal(0, sigma, (T >> h, ...))`` call per level h = 0 .. floor(log2 T)
(the reference draws ``standard_normal`` node by node as the nodes are populated: replay fails, the law
is the same).

Two conform ids:

- ``core:private_prefix_sums``: :func:`private_prefix_sums` (xs, sigma, rng, sensitivity, norm_bound), sigma given;
- ``online:Algorithm 5``: :func:`online_private_sum` (W, R, epsilon, delta, calibration, rng), Algorithm 5 called on
  every item of W: sigma from line 3 (``"paper"``: sigma^2 = (R^2/eps) log^2 T log(log T / delta), log T in base 2 and the outer log
  natural, the reference's readings online-E03 and online-E08) or the certified one (the smallest sigma the package's accountant
  certifies for one Gaussian release of l2 sensitivity 2 R sqrt(floor(log2 T) + 1): replace-one moves an item
  by at most 2R and item 1 lies in floor(log2 T) + 1 populated nodes; asked of
  ``reference.privacy.accounting.certified_gaussian_sigma``, the one thing imported from the reference).

``variant=`` (and the sibling functions at the bottom) gives the wrong implementations the oracle must
reject: ``"shared-level"`` (one noise draw per level, reused by every node of it: not private, a difference
of releases reveals items exactly), ``"fresh-per-release"`` (fresh node noise at every release, so releases
are independent: the tree's privacy argument and its law both change), ``"ceil-log"`` (the certified
calibration counting ceil(log2 T) nodes per item instead of floor(log2 T) + 1: too little noise at T = 2^k),
``"noise-0.8"``, ``"noiseless"``, ``"sensitivity-half"``, ``"last-prefix-half"`` (at T a power of two the last
release sums only items T/2 + 1 .. T: the item count off by one bit).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

VARIANTS = ("", "shared-level", "fresh-per-release", "ceil-log", "noise-0.8", "noiseless", "sensitivity-half",
            "last-prefix-half")


@dataclass(frozen=True)
class PrefixSums:
    prefix_sums: np.ndarray      # (T, ...): the released W_1 .. W_T
    sigma: float


def _stream(xs) -> np.ndarray:
    xs = np.asarray(xs, dtype=float)
    if xs.ndim == 0 or xs.shape[0] < 1:
        raise ValueError(f"xs must be a stream of items along axis 0, got shape {xs.shape}")
    if not np.all(np.isfinite(xs)):
        raise ValueError("every item of the stream must be finite")
    return xs


def levels(T: int) -> int:
    """floor(log2 T) + 1: the levels of populated nodes, and the number of them holding item 1."""
    return int(T).bit_length()


def tree_noise(T: int, shape: tuple, sigma: float, rng, variant: str = "") -> np.ndarray:
    """The noise of every release, (T, *shape): row t - 1 is the sum of the noises of the nodes tiling [1, t]."""
    if variant == "fresh-per-release":      # WRONG: every release redraws the noise of the nodes it uses
        counts = np.array([bin(t).count("1") for t in range(1, T + 1)], dtype=float)
        z = rng.normal(0.0, sigma, (T,) + shape)
        return z * np.sqrt(counts).reshape((T,) + (1,) * len(shape))
    per_level = []
    for h in range(levels(T)):
        if variant == "shared-level":       # WRONG: one draw for the whole level
            per_level.append(np.broadcast_to(rng.normal(0.0, sigma, (1,) + shape), ((T >> h),) + shape))
        else:
            per_level.append(rng.normal(0.0, sigma, ((T >> h),) + shape))
    out = np.zeros((T,) + shape)
    for t in range(1, T + 1):
        for h in range(levels(t)):
            if (t >> h) & 1:
                out[t - 1] += per_level[h][(t >> h) - 1]
    return out


def private_prefix_sums(xs, sigma, rng, *, sensitivity, relation="replace-one", label="", norm_bound=None,
                        variant="") -> PrefixSums:
    """All T noisy prefix sums of ``xs`` (items along axis 0) with node noise N(0, sigma^2 I)."""
    xs = _stream(xs)
    if not (math.isfinite(sigma) and sigma >= 0):
        raise ValueError(f"sigma must be a finite real >= 0, got {sigma!r}")
    if not (math.isfinite(sensitivity) and sensitivity >= 0):
        raise ValueError(f"sensitivity must be a finite real >= 0, got {sensitivity!r}")
    if norm_bound is not None:
        norms = np.linalg.norm(xs.reshape(xs.shape[0], -1), axis=1)
        if np.any(norms > norm_bound * (1 + 1e-12)):
            raise ValueError(f"an item has l2 norm {norms.max():.6g} > norm_bound = {norm_bound}; nothing is clipped")
    if variant == "noise-0.8":
        sigma = 0.8 * sigma
    elif variant == "noiseless":
        sigma = 0.0
    T = xs.shape[0]
    return PrefixSums(np.cumsum(xs, axis=0) + tree_noise(T, xs.shape[1:], sigma, rng, variant), float(sigma))


def line3_sigma(R: float, T: int, epsilon: float, delta: float, calibration: str, variant: str = "") -> float:
    """Algorithm 5 line 3 (``"paper"``), or the certified sigma of one tree (see the module docstring).
    ``variant="inner-log2"``: the outer log of log(log T / delta) read in base 2 (a reading the paper leaves
    open, docs/errata.md online-E08: declare it with ``--reading tree_inner_log=log2``)."""
    if calibration == "paper":
        lT = math.log2(T)
        if not lT / delta > 1:
            raise ValueError(f"need delta < log2 T for log(log T / delta) > 0; got delta = {delta}")
        inner = math.log2(lT / delta) if variant == "inner-log2" else math.log(lT / delta)
        return math.sqrt(R * R / epsilon * lT * lT * inner)
    if calibration == "certified":
        from reference.privacy.accounting import certified_gaussian_sigma

        nodes = math.ceil(math.log2(T)) if variant == "ceil-log" else levels(T)   # WRONG at T = 2^k: ceil
        return certified_gaussian_sigma(2.0 * R * math.sqrt(nodes), 1, epsilon, delta)
    raise ValueError(f"calibration must be 'paper' or 'certified', not {calibration!r}")


def online_private_sum(W, R, epsilon, delta, calibration, rng, *, variant="") -> np.ndarray:
    """online Algorithm 5 on every item of W (rows): the released W_hat_1 .. W_hat_T, (T, d)."""
    W = _stream(W)
    T = W.shape[0]
    if T < 2:
        raise ValueError("Algorithm 5 needs T >= 2 (log T > 0)")
    if not (R > 0 and math.isfinite(R)):
        raise ValueError(f"R must be a finite real > 0, got {R!r}")
    if not (epsilon > 0 and math.isfinite(epsilon)) or not (0 < delta < 1):
        raise ValueError(f"need epsilon > 0 and 0 < delta < 1, got {epsilon!r}, {delta!r}")
    if np.any(np.linalg.norm(W.reshape(T, -1), axis=1) > R * (1 + 1e-12)):
        raise ValueError(f"every ||w_t|| must be <= R = {R}; nothing is clipped")
    sigma = line3_sigma(R / 2 if variant == "sensitivity-half" else R, T, epsilon, delta, calibration, variant)
    if variant == "noise-0.8":
        sigma *= 0.8
    elif variant == "noiseless":
        sigma = 0.0
    out = np.cumsum(W, axis=0) + tree_noise(T, W.shape[1:], sigma, rng, variant)
    if variant == "last-prefix-half" and T & (T - 1) == 0:
        # WRONG: leaves labelled with ceil(log2 T) bits, so at T = 2^k the last prefix's label bin(T) overflows to
        # the label of the node of items T/2 + 1 .. T, whose noisy sum is released: half the items
        out[T - 1] = W[T // 2:].sum(axis=0) + rng.normal(0.0, sigma, W.shape[1:])
    return out


# ---- the wrong variants, as conform targets (examples.tree_prefix_sums:<name>)

def _bind(function, variant):
    def wrong(*args, **kwargs):
        return function(*args, **kwargs, variant=variant)
    wrong.__name__ = f"{function.__name__}_{variant.replace('-', '_').replace('.', '')}"
    wrong.__doc__ = f"{function.__name__} with variant={variant!r} (wrong on purpose)."
    return wrong


tree_shared_level = _bind(private_prefix_sums, "shared-level")
tree_fresh_per_release = _bind(private_prefix_sums, "fresh-per-release")
tree_noise_08 = _bind(private_prefix_sums, "noise-0.8")
tree_noiseless = _bind(private_prefix_sums, "noiseless")
sum_shared_level = _bind(online_private_sum, "shared-level")
sum_fresh_per_release = _bind(online_private_sum, "fresh-per-release")
sum_ceil_log = _bind(online_private_sum, "ceil-log")
sum_noise_08 = _bind(online_private_sum, "noise-0.8")
sum_noiseless = _bind(online_private_sum, "noiseless")
sum_sensitivity_half = _bind(online_private_sum, "sensitivity-half")
sum_last_prefix_half = _bind(online_private_sum, "last-prefix-half")
