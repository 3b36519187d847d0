"""Exact privacy profiles of mechanisms with finitely many outputs (mpmath, no sampling).

For two output distributions P = M(D) and Q = M(D') on the same finite set, the
hockey-stick divergence

    H_eps(P || Q) = sum_o max(P(o) - e^eps Q(o), 0)

is the smallest delta for which the pair satisfies the (eps, delta) inequality
in that direction (Barthe-Olmedo; Balle et al. 2018, Theorem 1 / the "privacy
profile"). The exact profile of the pair is max(H_eps(P||Q), H_eps(Q||P)), and
the exact epsilon at delta is the smallest eps >= 0 with profile <= delta.

Also here: the exact output distribution of the exponential mechanism (any
number of candidates, e.g. the 2p vertices of an l1 ball), and of report-noisy-max
with Laplace or Gumbel noise over a few candidates by numerical quadrature.
"""

from __future__ import annotations

from typing import Sequence

import mpmath
import numpy as np

from .._validate import check_array, check_epsilon, check_positive
from ..claims import Claim
from ..errors import ParameterError

DPS = 50   # working precision (decimal digits) of every computation here


def _distribution(p: Sequence, name: str) -> list:
    try:
        values = [mpmath.mpf(v) for v in p]
    except (TypeError, ValueError) as exc:
        raise ParameterError(name, "a sequence of probabilities", type(p).__name__) from exc
    if not values:
        raise ParameterError(name, "a non-empty distribution", p)
    for v in values:
        if not mpmath.isfinite(v) or v < 0:
            raise ParameterError(name, "finite probabilities >= 0", v)
    total = mpmath.fsum(values)
    if abs(total - 1) > mpmath.mpf("1e-9"):
        raise ParameterError(name, "probabilities summing to 1", float(total))
    return values


def _pair(p, q):
    P = _distribution(p, "p")
    Q = _distribution(q, "q")
    if len(P) != len(Q):
        raise ParameterError("p, q", "distributions over the same outcomes (same length)", (len(P), len(Q)))
    return P, Q


def hockey_stick(p: Sequence, q: Sequence, epsilon) -> mpmath.mpf:
    """H_eps(P || Q) = sum max(P - e^eps Q, 0), exactly (one direction)."""
    with mpmath.workdps(DPS):
        P, Q = _pair(p, q)
        e = mpmath.exp(mpmath.mpf(epsilon))
        return mpmath.fsum(max(a - e * b, 0) for a, b in zip(P, Q))


def exact_delta(p: Sequence, q: Sequence, epsilon) -> mpmath.mpf:
    """The exact privacy profile delta(eps) of the pair: max of both directions."""
    if epsilon < 0:
        raise ParameterError("epsilon", "epsilon >= 0", epsilon)
    return max(hockey_stick(p, q, epsilon), hockey_stick(q, p, epsilon))


def _epsilon_one_direction(P: list, Q: list, delta) -> mpmath.mpf:
    """Smallest eps >= 0 with H_eps(P||Q) <= delta, solved segment by segment.

    Between consecutive privacy-loss values L_i = ln(P_i/Q_i) the set of
    outcomes with L_i > eps is fixed, so H_eps = A - e^eps B there and the root
    is ln((A - delta)/B) exactly.
    """
    mass_inf = mpmath.fsum(a for a, b in zip(P, Q) if b == 0 and a > 0)
    if mass_inf > delta:
        return mpmath.inf
    items = sorted(((mpmath.log(a / b), a, b) for a, b in zip(P, Q) if a > 0 and b > 0),
                   key=lambda item: item[0], reverse=True)
    A, B = mass_inf, mpmath.mpf(0)
    for k, (L, a, b) in enumerate(items):
        if L <= 0:
            break
        A += a
        B += b
        nxt = items[k + 1][0] if k + 1 < len(items) else mpmath.mpf(0)
        lo = max(nxt, mpmath.mpf(0))
        if A - mpmath.exp(lo) * B > delta:     # the root lies in [lo, L]
            return mpmath.log((A - delta) / B)
        if lo == 0:
            break
    return mpmath.mpf(0)


def exact_epsilon(p: Sequence, q: Sequence, delta=0) -> mpmath.mpf:
    """The exact epsilon of the pair at delta: smallest eps >= 0 with both hockey-sticks <= delta.

    ``mpmath.inf`` when no finite epsilon works (an outcome possible under one
    input only, with more than delta mass).
    """
    if not 0 <= delta < 1:
        raise ParameterError("delta", "0 <= delta < 1", delta)
    with mpmath.workdps(DPS):
        P, Q = _pair(p, q)
        d = mpmath.mpf(delta)
        return max(_epsilon_one_direction(P, Q, d), _epsilon_one_direction(Q, P, d))


# ---------------------------------------------------------------------------
# Exact output distributions of discrete mechanisms.

def exponential_mechanism_exact(scores: Sequence[float], sensitivity: float, epsilon: float,
                                *, monotone: bool = False) -> list:
    """P(i) = exp(c*u_i) / sum_j exp(c*u_j), c = eps/(2*sensitivity) (eps/sensitivity if monotone).

    McSherry-Talwar 2007; Dwork-Roth Theorem 3.10. mpmath at 50 digits, so any
    number of candidates (the 2p vertices of an l1 ball, p = 1000) and any score scale.
    """
    u = check_array(scores, "scores", ndim=1)
    sensitivity = check_positive(sensitivity, "sensitivity")
    epsilon = check_epsilon(epsilon)
    with mpmath.workdps(DPS):
        c = mpmath.mpf(epsilon) / (mpmath.mpf(sensitivity) * (1 if monotone else 2))
        top = max(mpmath.mpf(float(x)) for x in u)
        w = [mpmath.exp(c * (mpmath.mpf(float(x)) - top)) for x in u]
        z = mpmath.fsum(w)
        return [x / z for x in w]


def _laplace_pdf(x, b):
    return mpmath.exp(-abs(x) / b) / (2 * b)


def _laplace_cdf(x, b):
    return mpmath.exp(x / b) / 2 if x < 0 else 1 - mpmath.exp(-x / b) / 2


def _gumbel_pdf(x, b):
    z = x / b
    return mpmath.exp(-(z + mpmath.exp(-z))) / b


def _gumbel_cdf(x, b):
    return mpmath.exp(-mpmath.exp(-x / b))


def noisy_max_exact(scores: Sequence[float], scale: float, *, noise: str = "laplace",
                    argmin: bool = False, dps: int = 30) -> list:
    """P(i = argmax_j (u_j + Z_j)), Z_j i.i.d. Laplace(scale) or Gumbel(scale), by quadrature.

    P(i) = integral f(x - u_i) prod_{j != i} F(x - u_j) dx, split at the scores
    (the kinks of the Laplace density). ``argmin`` gives report-noisy-min (the
    argmax of the negated scores). Meant for a few candidates (quadrature cost
    grows with their number). The Gumbel form equals the exponential mechanism
    with exp(u_i/scale) (Gumbel-max trick), a check of the quadrature.
    """
    u = check_array(scores, "scores", ndim=1)
    scale = check_positive(scale, "scale")
    if noise not in ("laplace", "gumbel"):
        raise ParameterError("noise", "'laplace' or 'gumbel'", noise)
    if argmin:
        u = -u
    pdf, cdf = (_laplace_pdf, _laplace_cdf) if noise == "laplace" else (_gumbel_pdf, _gumbel_cdf)
    with mpmath.workdps(dps):
        b = mpmath.mpf(scale)
        us = [mpmath.mpf(float(x)) for x in u]
        # Finite limits: outside them the integrand is below e^-120 relative to its
        # peak (Laplace tails e^{-|x|/b}; the Gumbel lower tail is doubly exponential).
        low = min(us) - (120 if noise == "laplace" else 8) * b
        high = max(us) + 120 * b
        points = [low] + sorted(set(us)) + [high]
        out = []
        for i, ui in enumerate(us):
            def integrand(x, i=i, ui=ui):
                value = pdf(x - ui, b)
                for j, uj in enumerate(us):
                    if j != i:
                        value *= cdf(x - uj, b)
                return value
            out.append(mpmath.quad(integrand, points))
        total = mpmath.fsum(out)
        # Quadrature error shows as total != 1; beyond 1e-12 the result is not "exact".
        if abs(total - 1) > mpmath.mpf("1e-12"):
            raise ParameterError("scores", "a noisy-max integral that converges (quadrature lost accuracy)",
                                 float(total))
        return out


def to_float_array(p: Sequence) -> np.ndarray:
    return np.array([float(x) for x in p], dtype=float)


CLAIMS = (
    Claim("core:Exact hockey-stick divergence", "constant",
          "exact_delta / exact_epsilon compute the privacy profile of two finite distributions exactly: randomized "
          "response matches its closed form, finer and finer discretisations of the Laplace and Gaussian shifts "
          "increase to the accountant's exact laplace_delta / gaussian_delta, and eps(delta) inverts delta(eps).",
          "Balle-Barthe-Gaboardi 2018 (privacy profiles); Balle-Wang 2018, Theorem 8"),
    Claim("core:Exponential mechanism exact profile", "constant",
          "The exact epsilon of the exponential mechanism on the worst-case pair over 2p candidates (p up to 1000) "
          "equals its closed form and is below the claimed epsilon, tending to it as p grows.",
          "McSherry-Talwar 2007; Dwork-Roth 2014, Theorem 3.10"),
    Claim("core:Noisy-max quadrature", "constant",
          "noisy_max_exact integrates the report-noisy-max law to 1e-12: Gumbel noise gives the softmax of "
          "u/b, two Laplace candidates give the closed-form law of a difference of Laplace variables.",
          "McKenna-Sheldon 2020, Sec. 2"),
)
