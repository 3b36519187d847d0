"""A small search for worst-case neighbouring pairs on tiny instances of selection mechanisms.

For a selection mechanism whose output law ``law(u)`` depends on a score vector u
(m candidates) and is invariant to adding a constant to every score, the pure
privacy loss of a pair is max_i |ln law(u)_i - ln law(u')_i|. Neighbouring score
vectors satisfy |u_i - u'_i| <= Delta; the loss is largest at the corners
d = u' - u in {-Delta, 0, Delta}^m (each probability is monotone in each score),
so the search runs over u on a lattice of step ``step`` (with u_0 = 0) and every
corner d. This checks the documented worst-case pairs of reference.audit.cases_core:
no pair on the lattice is worse than the claim, and the documented pair is the
search's maximiser (or as close to the claim as the search gets).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
from scipy import integrate, special

from .._validate import check_int, check_positive
from ..claims import Claim

CLAIMS = (
    Claim("core:Worst-case neighbour search", "invariant",
          "On tiny instances (2 or 3 candidates, scores on a lattice) no neighbouring score pair gives the "
          "exponential mechanism or Laplace report-noisy-max a larger privacy loss than their claims, the loss "
          "approaches the claim along the documented worst-case pairs, and the search flags the negative controls.",
          "McSherry-Talwar 2007; Dwork-Roth 2014 Claim 3.9 and Theorem 3.10"),
)


@dataclass(frozen=True)
class SearchResult:
    epsilon: float           # largest pure privacy loss found
    scores: tuple            # u of the worst pair
    neighbour: tuple         # u' of the worst pair
    pairs: int               # number of pairs evaluated


def softmax_law(scale: float) -> Callable[[np.ndarray], np.ndarray]:
    """Law of the exponential mechanism P ∝ exp(u / scale) (= Gumbel(scale) report-noisy-max)."""
    scale = check_positive(scale, "scale")

    def law(u):
        return special.softmax(np.asarray(u, dtype=float) / scale)
    return law


def laplace_noisy_max_law(scale: float) -> Callable[[np.ndarray], np.ndarray]:
    """Law of Laplace(scale) report-noisy-max, by double-precision quadrature (for the search only)."""
    b = check_positive(scale, "scale")

    def cdf(x):
        return np.where(x < 0, 0.5 * np.exp(np.minimum(x, 0) / b), 1 - 0.5 * np.exp(-np.maximum(x, 0) / b))

    def law(u):
        u = np.asarray(u, dtype=float)
        if u.size == 2:     # closed form: P(u0 + Z0 > u1 + Z1) = F_D(u0 - u1), D a difference of Laplaces
            g = u[0] - u[1]
            tail = 0.5 * math.exp(-abs(g) / b) * (1 + abs(g) / (2 * b))
            # the small probability is computed directly (1 - (1 - tail) would lose it to cancellation)
            return np.array([1 - tail, tail]) if g >= 0 else np.array([tail, 1 - tail])
        out = []
        lo, hi = u.min() - 40 * b, u.max() + 40 * b     # tails beyond: below e^-40
        for i in range(u.size):
            others = np.delete(u, i)

            def f(x, i=i, others=others):
                return math.exp(-abs(x - u[i]) / b) / (2 * b) * float(np.prod(cdf(x - others)))
            out.append(integrate.quad(f, lo, hi, points=sorted(set(u.tolist())), limit=200,
                                      epsabs=1e-15, epsrel=1e-10)[0])
        out = np.array(out)
        return out / out.sum()
    return law


def pure_loss(p: np.ndarray, q: np.ndarray) -> float:
    """max_i |ln p_i - ln q_i| (inf if one is zero where the other is not)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        d = np.abs(np.log(p) - np.log(q))
    d = np.where((p == 0) & (q == 0), 0.0, d)
    return float(np.max(d))


def search_pairs(law: Callable[[np.ndarray], np.ndarray], m: int, sensitivity: float, *,
                 span: float, step: float) -> SearchResult:
    """Largest pure privacy loss over u in {0} x (step-lattice in [-span, span])^(m-1) and corners d."""
    m = check_int(m, "m", minimum=2)
    sensitivity = check_positive(sensitivity, "sensitivity")
    step = check_positive(step, "step")
    lattice = np.arange(-span, span + step / 2, step)
    cache: dict[tuple, np.ndarray] = {}

    def cached(u):
        key = tuple(np.round(u - u[0], 9))
        if key not in cache:
            cache[key] = law(np.array(key))
        return cache[key]

    best = (-1.0, (), ())
    pairs = 0
    corners = [np.array(c) * sensitivity for c in itertools.product((-1, 0, 1), repeat=m)]
    for rest in itertools.product(lattice, repeat=m - 1):
        u = np.array((0.0,) + rest)
        p = cached(u)
        for d in corners:
            loss = pure_loss(p, cached(u + d))
            pairs += 1
            if loss > best[0]:
                best = (loss, tuple(u), tuple(u + d))
    return SearchResult(best[0], best[1], best[2], pairs)
