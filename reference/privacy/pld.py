"""Privacy-loss-distribution (PLD) composition, discretised so that it stays an upper bound.

A mechanism M on neighbours D, D' is *dominated* by a pair of distributions (P, Q) when
every hockey-stick divergence of (M(D), M(D')) is at most that of (P, Q) [ZDW22, Def. 7].
Its privacy profile is then bounded by the profile of the pair, read off the
*privacy-loss distribution* omega, the law of L = ln(p(o)/q(o)) for o ~ P [SMM19]:

    delta(eps) = omega({+inf}) + E_omega[(1 - e^{eps - L})_+].

Dominating pairs compose: the adaptive composition of mechanisms dominated by
(P_i, Q_i) is dominated by (prod P_i, prod Q_i) [ZDW22, Theorem 10], whose loss is the
sum of independent losses, so its PLD is the convolution of the omegas. This module
builds the PLD of each ledger event, discretises it on a grid h Z, convolves by FFT
[KJH20] and inverts delta(eps).

Dominating pairs used (each symmetric: (Q, P) has the same PLD as (P, Q), so one
direction covers both orders of a neighbouring pair):

* ``laplace`` (eps0 = Delta_1 / b): Lap(0, b) against Lap(Delta_1, b) in one dimension.
  For a vector query the l1 budget may be split over coordinates; that the
  one-dimensional pair dominates every split is checked numerically in the tests
  (exact 2- and 3-coordinate profiles), not proved here: see docs/accountant.md.
* ``pure`` / ``report_noisy_max`` with Laplace noise (eps-DP): randomized response
  RR(eps), the worst eps-DP mechanism [KOV15, Thm 3.3; ZDW22, Prop. 8].
* ``exponential`` / ``report_noisy_max`` with Gumbel noise (eps-bounded-range [DR19; DDR20]):
  the *BR envelope* pair of :func:`bounded_range_pld`, which dominates every eps-BR mechanism
  and is strictly tighter than RR(eps) (reference/privacy/bounded_range.py has the proof).
* ``approximate`` (eps, delta): the (eps, delta) randomized response of [KOV15]:
  loss +inf with mass delta, +-eps with the rest.
* ``gaussian``: N(0, 1) against N(mu, 1), mu = Delta_2 / sigma, exact (rotation);
  all Gaussian events of a ledger form one block with mu = sqrt(sum mu_i^2) [DRS22].

Why the discretisation is an upper bound. Every mass is moved in one of three ways,
each of which can only increase delta(eps) for every eps, for one event and for any
composition:

1. *Connect the dots* [DGKKM22]: a mass m at loss l with l_j <= l <= l_{j+1} = l_j + h
   is split into m_hi = m (1 - e^{-(l - l_j)}) / (1 - e^{-h}) at l_{j+1} and m - m_hi at
   l_j. This keeps both the P-mass and the Q-mass (m e^{-l}); the split pair is a
   refinement of the original (merging the two outcomes gives it back), so it
   dominates it as an experiment, and so does any composition of such pairs.
2. *Tails*: loss mass above the grid is moved to +inf (counted in full in delta), mass
   below it to the lowest grid point. Both only raise losses, and delta of the
   composition, E[g(sum L_i)] with g increasing, only grows when a loss grows.
3. *Floating point*: every mass is inflated by a relative 1e-10 (covering quadrature
   and rounding in the masses), and the FFT's error is bounded entrywise with the
   standard FFT error analysis (Higham, Accuracy and Stability of Numerical
   Algorithms, 2nd ed., Thm 24.2, with eta = 8u) and added to every entry before it
   enters delta. Increasing masses only increases delta, and convolution of
   non-negative arrays is monotone.

4. *Windows* (long ledgers, :func:`compose_window`): the whole composition is one product of
   spectra of a length n shorter than the composed support. The cyclic convolution it computes
   holds, at each loss of the window, the true mass plus aliased masses from outside: an upper
   bound entrywise. The P-mass above the window is bounded by Chernoff and put at +inf; below
   the window nothing is needed for eps at or above it (a loss <= eps adds nothing to delta(eps)),
   and the epsilon search never goes below the window.

The grid step h is a power of two chosen from the accuracy wanted and the composed distribution
(:func:`grid_step`), not from the sum of the events' ranges alone, so the discretisation error
does not grow with the ledger; the window keeps the cost near O(sqrt(k)) grid points per ledger.

The FFT runs on an exponentially tilted copy of the masses (x_j proportional to
omega_j e^{lambda l_j}, lambda at the saddle point of the tail being read), so its
absolute rounding error is small *relative to the tail that sets delta*; untilting
multiplies it by e^{-lambda l}, which is tiny there. The tilt changes the accuracy, not
the validity: the bound above holds for every lambda >= 0.

Sources:

* [SMM19] Sommer, Meiser, Mohammadi. Privacy loss classes: the central limit theorem in
  differential privacy (PoPETs 2019).
* [KJH20] Koskela, Jalko, Honkela. Computing tight differential privacy guarantees using FFT
  (AISTATS 2020).
* [ZDW22] Zhu, Dong, Wang. Optimal accounting of differential privacy via characteristic
  function (AISTATS 2022).
* [DGKKM22] Doroshenko, Ghazi, Kamath, Kumar, Manurangsi. Connect the dots: tighter discrete
  approximations of privacy loss distributions (PoPETs 2022).
* [KOV15] Kairouz, Oh, Viswanath. The composition theorem for differential privacy (ICML 2015).
* [DRS22] Dong, Roth, Su. Gaussian differential privacy (JRSS-B 2022).
* [DR19] Durfee, Rogers. Practical differentially private top-k selection with pay-what-you-get
  composition (NeurIPS 2019): bounded-range mechanisms.
* [DDR20] Dong, Durfee, Rogers. Optimal differential privacy composition for exponential mechanisms
  (ICML 2020).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
from scipy import fft as sfft
from scipy import optimize, signal, special

from .._validate import check_delta, check_nonnegative, check_positive
from ..claims import Claim
from ..errors import AccountingError, ParameterError

__all__ = ["DiscretePLD", "laplace_pld", "randomized_response_pld", "bounded_range_pld", "gaussian_pld", "compose",
           "ComposedPLD", "pld_epsilon", "pld_delta", "CLAIMS"]

_U = 2.0 ** -53                 # unit roundoff of float64
_INFLATE = 1e-10                # relative inflation of every constructed mass
_GAUSS_TAIL = 12.0              # a Gaussian loss is kept on mean +- 12 sd; the rest moved (mass 3.6e-33)
_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(8)
_GL64 = np.polynomial.legendre.leggauss(64)
#: every epsilon of a Laplace / randomized-response / bounded-range item is rounded *up* to the grid
#: 2^(j / QUANT_PER_OCTAVE) (relative step 6.6e-7), so that nearly equal ones compose as one block. The
#: grid is fixed: it does not depend on the ledger (how many distinct values it has), so a noisier event
#: never gets a larger rounded epsilon, and more epsilon is always valid (the pair of a larger epsilon
#: dominates). Cost: at most 6.6e-7 relative on each event's epsilon (a coarser grid, 2^(j/8192), cost
#: 2.2e-5 relative in delta on two Laplace events, more than proofs/proof_pld.py's 1e-6 tightness).
QUANT_PER_OCTAVE = 1 << 20
#: above this epsilon a Laplace or bounded-range event gets the randomized-response pair RR(eps) (which
#: dominates every eps-DP event): at such magnitudes float64 cannot resolve its loss density near eps
#: (the unit in the last place of eps exceeds the quadrature's 1e-10 margin), and the certificate is
#: astronomically large anyway
_LARGE_EPS = 1000.0
#: the PLD is not computed when one event's loss can exceed this (a Gaussian of mu ~ 1400, an epsilon of
#: 1e6): grid indices would leave the integers float64 holds exactly, and such a ledger's certificate is
#: astronomically large anyway; :func:`epsilon_for_items` then returns inf (no PLD bound)
_PLD_RANGE = 1e6

CLAIMS = (
    Claim("core:PLD composition", "accounting",
          "The PLD accountant's epsilon is never below the exact epsilon of the composition of the events' "
          "dominating pairs (Laplace, randomized response, the BR envelope pair, Gaussian), because every discretisation step "
          "(connect-the-dots splitting, tail moves, floating-point inflation) can only increase delta(eps) (proofs/: "
          "certified at the reference points only; the argument for every ledger is about the package's code, which "
          "the verifier cannot bound: checked on sampled ledgers in tests/).",
          "Zhu-Dong-Wang 2022, Theorem 10; Doroshenko-Ghazi-Kamath-Kumar-Manurangsi 2022; Koskela-Jalko-Honkela 2020"),
)


@dataclass(frozen=True)
class DiscretePLD:
    """A privacy-loss distribution on the grid h Z: loss (offset + j) h carries P-mass masses[j];
    ``inf_mass`` sits at loss +inf. Masses are upper bounds (they may sum to slightly above 1)."""

    h: float
    offset: int
    masses: np.ndarray
    inf_mass: float = 0.0


def _split(losses: np.ndarray, masses: np.ndarray, h: float) -> tuple[int, np.ndarray]:
    """Connect-the-dots [DGKKM22]: each mass at loss l goes to the grid points around l so that its
    P-mass and its Q-mass (mass * e^{-l}) are both kept. Returns (offset, masses on the grid)."""
    losses = np.asarray(losses, dtype=float)
    masses = np.asarray(masses, dtype=float)
    t = losses / h
    if not np.all(np.abs(t) < 2.0 ** 52):
        raise AccountingError("internal: a loss outside the PLD grid's range (please report)")
    j = np.floor(t)
    r = losses - j * h                      # l - l_j in [0, h)
    r = np.clip(r, 0.0, h)
    hi = masses * (-np.expm1(-r)) / (-math.expm1(-h))
    hi = np.minimum(hi, masses)
    lo = masses - hi
    j = j.astype(np.int64)
    offset = int(j.min())
    size = int(j.max()) - offset + 2
    out = (np.bincount(j - offset, weights=lo, minlength=size)
           + np.bincount(j - offset + 1, weights=hi, minlength=size))
    return offset, out


def _finish(offset: int, masses: np.ndarray, h: float, inf_mass: float) -> DiscretePLD:
    nz = np.nonzero(masses > 0)[0]
    if nz.size == 0:
        return DiscretePLD(h, 0, np.array([1.0]), inf_mass)
    masses = masses[nz[0]:nz[-1] + 1] * (1 + _INFLATE)
    return DiscretePLD(h, offset + int(nz[0]), masses, min(1.0, inf_mass * (1 + _INFLATE)))


def _panels(a: float, b: float, h: float, density, max_panel: float):
    """Gauss-Legendre nodes and weights of int_a^b density, on panels that never cross a grid point
    (so each panel's integrand is smooth) and are at most ``max_panel`` long."""
    cuts = np.arange(math.ceil(a / h), math.floor(b / h) + 1) * h
    edges = np.unique(np.concatenate(([a], cuts[(cuts > a) & (cuts < b)], [b])))
    widths = np.diff(edges)
    sub = np.maximum(1, np.ceil(widths / max_panel)).astype(int)
    k = np.arange(int(sub.sum())) - np.repeat(np.cumsum(sub) - sub, sub)      # panel number within its cell
    starts = np.repeat(edges[:-1], sub) + k * np.repeat(widths / sub, sub)
    pw = np.repeat(widths / sub, sub)
    nodes = starts[:, None] + (pw[:, None] / 2) * (_GL_NODES[None, :] + 1)
    weights = (pw[:, None] / 2) * _GL_WEIGHTS[None, :] * density(nodes)
    return nodes.ravel(), weights.ravel()


def _cut(lo: float, hi: float) -> float:
    """Where the quadrature of a loss density proportional to e^{l/2} on (lo, hi) starts: 160 below hi
    (the mass further down, below e^{-80} of the total, is moved up to an atom there: losses only grow)."""
    return max(lo, hi - 160.0)


def laplace_pld(epsilon0: float, h: float) -> DiscretePLD:
    """PLD of Lap(0, b) against Lap(Delta, b), eps0 = Delta / b, discretised on h Z.

    Under P the loss ln(p/q)(x) = (|x - Delta| - |x|)/b is eps0 for x <= 0 (mass 1/2),
    -eps0 for x >= Delta (mass e^{-eps0}/2), and eps0 - 2x/b in between, with density
    (1/4) e^{-(eps0 - l)/2} on (-eps0, eps0) (it integrates to (1 - e^{-eps0})/2).
    """
    e0 = check_positive(epsilon0, "epsilon0")
    h = check_positive(h, "h")
    if e0 > _LARGE_EPS:
        return randomized_response_pld(e0, h)
    a = _cut(-e0, e0)
    nodes, weights = _panels(a, e0, h, lambda l: 0.25 * np.exp(-(e0 - l) / 2), max_panel=0.5)
    below = 0.5 * (math.exp(-(e0 - a) / 2) - math.exp(-e0))        # the density's mass on (-eps0, a)
    losses = np.concatenate(([e0, -e0, a], nodes))
    masses = np.concatenate(([0.5, 0.5 * math.exp(-e0), below], weights))
    offset, grid = _split(losses, masses, h)
    return _finish(offset, grid, h, 0.0)


def randomized_response_pld(epsilon: float, h: float, delta: float = 0.0) -> DiscretePLD:
    """PLD of the (eps, delta) randomized response of [KOV15], the worst (eps, delta)-DP pair:
    loss +inf with mass delta, +eps with mass (1-delta) e^eps/(1+e^eps), -eps with (1-delta)/(1+e^eps)."""
    e = check_positive(epsilon, "epsilon")
    h = check_positive(h, "h")
    delta = check_delta(delta, allow_zero=True)
    p_hi = (1 - delta) / (1 + math.exp(-e))
    p_lo = (1 - delta) * math.exp(-e) / (1 + math.exp(-e))
    offset, grid = _split(np.array([e, -e]), np.array([p_hi, p_lo]), h)
    return _finish(offset, grid, h, delta)


def bounded_range_pld(epsilon: float, h: float) -> DiscretePLD:
    """PLD of the BR envelope pair, which dominates every eps-bounded-range mechanism, on h Z.

    Its loss has no atom and the P-density e^{(l - eps)/2} / (2 (1 - e^{-eps})) on (-eps, eps);
    its profile is (e^{eps/2} - e^{x/2})^2 / (e^eps - 1) for 0 <= x <= eps, the supremum over
    t in [0, eps] of the profiles of the generalized randomized responses of [DDR20]
    (reference/privacy/bounded_range.py derives it and the tests check it against that supremum).
    """
    e = check_positive(epsilon, "epsilon")
    h = check_positive(h, "h")
    if e > _LARGE_EPS:
        return randomized_response_pld(e, h)
    c = 1.0 / (2.0 * -math.expm1(-e))
    a = _cut(-e, e)
    nodes, weights = _panels(a, e, h, lambda l: c * np.exp((l - e) / 2), max_panel=0.5)
    below = 2.0 * c * (math.exp((a - e) / 2) - math.exp(-e))            # the density's mass on (-eps, a)
    offset, grid = _split(np.concatenate(([a], nodes)), np.concatenate(([below], weights)), h)
    return _finish(offset, grid, h, 0.0)


def gaussian_pld(mu: float, h: float) -> DiscretePLD:
    """PLD of N(0, 1) against N(mu, 1): the loss is N(mu^2/2, mu^2) under P.

    Kept on mean +- 12 sd (Gauss-Legendre on panels of at most sd/4); the upper tail's
    mass Phi(-12) goes to +inf, the lower tail's to the lowest grid point.
    """
    mu = check_positive(mu, "mu")
    h = check_positive(h, "h")
    m, s = mu * mu / 2, mu
    a, b = m - _GAUSS_TAIL * s, m + _GAUSS_TAIL * s
    dens = lambda l: np.exp(-0.5 * ((l - m) / s) ** 2) / (s * math.sqrt(2 * math.pi))
    nodes, weights = _panels(a, b, h, dens, max_panel=s / 4)
    tail = float(special.ndtr(-_GAUSS_TAIL))
    losses = np.concatenate(([a], nodes))
    masses = np.concatenate(([tail], weights))
    # the lower tail (losses < a) is first raised to an atom at a, then split like every other mass
    offset, grid = _split(losses, masses, h)
    return _finish(offset, grid, h, tail)


# ---------------------------------------------------------------------------
# Composition.

@dataclass(frozen=True)
class ComposedPLD:
    """The composition, stored tilted: the P-mass at loss (offset + j) h is at most
    (max(y_j, 0) + err) * exp(log_z - lam * (offset + j) h); ``inf_mass`` at +inf (an upper bound)."""

    h: float
    offset: int
    y: np.ndarray
    err: float
    log_z: float
    lam: float
    inf_mass: float
    #: the bound holds for every eps >= floor (a windowed composition knows nothing below its window)
    floor: float = -math.inf

    def upper_masses(self, j0: int = 0) -> np.ndarray:
        """Upper bounds of the P-masses of entries j >= j0."""
        loss = (self.offset + np.arange(j0, self.y.size)) * self.h
        with np.errstate(divide="ignore"):
            logw = np.log(np.maximum(self.y[j0:], 0.0) + self.err) + self.log_z - self.lam * loss
        return np.exp(np.minimum(logw, 700.0))


def _tilted(p: DiscretePLD, lam: float) -> tuple[np.ndarray, float]:
    """x proportional to masses * e^{lam l}, summing to 1, and log of the normaliser."""
    loss = (p.offset + np.arange(p.masses.size)) * p.h
    with np.errstate(divide="ignore"):
        logm = np.log(p.masses) + lam * loss
    c = float(np.max(logm))
    x = np.exp(logm - c)
    s = float(x.sum())
    return x / s, c + math.log(s)


def _end_to_end(parts):
    """The parts' losses and log-masses laid end to end, with each part's start, size and count: per-part
    sums of a function of (loss, log-mass) are then one ``reduceat`` pass, however many parts there are."""
    loss = np.concatenate([(p.offset + np.arange(p.masses.size)) * p.h for p, _ in parts])
    with np.errstate(divide="ignore"):
        logm = np.concatenate([np.log(p.masses) for p, _ in parts])
    starts = np.cumsum([0] + [p.masses.size for p, _ in parts])[:-1]
    sizes = np.array([p.masses.size for p, _ in parts])
    counts = np.array([c for _, c in parts], dtype=float)
    return loss, logm, starts, sizes, counts


def saddle_tilt(parts, eps: float) -> float:
    """The tilt lambda >= 0 whose tilted composition has mean eps (0 if the untilted mean is already
    above). Only the accuracy depends on it, never the validity, so it is found roughly."""
    loss, logm, starts, sizes, counts = _end_to_end(parts)

    def f(lam: float) -> float:
        v = logm + lam * loss
        top = np.maximum.reduceat(v, starts)
        x = np.exp(v - np.repeat(top, sizes))
        means = np.add.reduceat(x * loss, starts) / np.add.reduceat(x, starts)
        return float((counts * means).sum()) - eps

    if f(0.0) >= 0:
        return 0.0
    # Keep the target inside the support. The tilted mean tends to the largest finite composed loss
    # `top` as lambda grows; an estimate at or above it (bounded-range events at small delta) would
    # send lambda to its cap, where the untilted FFT allowance e^{-lambda l} err dominates delta.
    # The target is kept at most 90% of the way from the untilted mean to `top`.
    top = float(sum(c * (p.offset + p.masses.size - 1) * p.h for p, c in parts))
    mean0 = f(0.0) + eps
    target = min(eps, mean0 + 0.9 * (top - mean0))
    if target < eps:
        return saddle_tilt(parts, target)
    hi = 1.0
    while f(hi) < 0 and hi < 1e4:
        hi *= 4.0
    if f(hi) < 0:
        return hi
    return float(optimize.brentq(f, 0.0, hi, xtol=1e-4, rtol=1e-3))


def _spectrum_power(z: np.ndarray, count: int) -> np.ndarray:
    """z ** count for an integer count >= 1, entrywise, by repeated squaring.

    Its rounding: a computed complex product is a b (1 + theta) with |theta| <= sqrt(2) gamma_2 [Higham,
    Lemma 3.5], and z^(j+k) computed from z^j and z^k carries the relative errors of both plus one theta, so by
    induction z^count carries at most (count - 1) sqrt(2) gamma_2 < 4 u count (to first order): with |z| <= 1
    the ``4 u count`` of the error bounds below. (NumPy's complex ``**`` with an integer goes through
    exp(count log z) and was measured at 4.1 u count on random spectra at count = 100, above that bound; it is
    also 50 times slower.)"""
    result, base = None, z
    while True:
        if count & 1:
            result = base.copy() if result is None else result * base
        count >>= 1
        if not count:
            return result
        base = base * base


def _power(x: np.ndarray, count: int) -> tuple[np.ndarray, float]:
    """The count-fold self-convolution of x (>= 0, summing to 1) by FFT, with its entrywise error bound."""
    if count == 1:
        return x, 0.0
    length = count * (x.size - 1) + 1
    n = sfft.next_fast_len(length, real=True)
    y = sfft.irfft(_spectrum_power(sfft.rfft(x, n), count), n)[:length]
    # Higham Thm 24.2 (eta = 8u) for the two transforms, and the complex power's rounding
    err = 8 * _U * math.log2(n) * (count * math.sqrt(float((x * x).sum())) + 1.0) + 4 * _U * count
    return np.maximum(y, 0.0), err


def _convolve(a: np.ndarray, ea: float, b: np.ndarray, eb: float) -> tuple[np.ndarray, float]:
    """a * b by FFT, with the entrywise error bound of the result from those of a and b."""
    length = a.size + b.size - 1
    n = sfft.next_fast_len(length, real=True)
    y = sfft.irfft(sfft.rfft(a, n) * sfft.rfft(b, n), n)[:length]
    sa, sb = float(a.sum()), float(b.sum())
    err = (ea * (sb + b.size * eb) + eb * sa + 24 * _U * math.log2(n) * (sa + a.size * ea) * (sb + b.size * eb))
    return np.maximum(y, 0.0), err


def compose(parts, lam: float = 0.0) -> ComposedPLD:
    """Compose ``parts`` = [(DiscretePLD, count), ...] (all on one grid h), tilted by ``lam``.

    Each part's count-fold power is taken in the Fourier domain; the powers are then
    convolved pairwise (a balanced tree, so every FFT is about as long as its result).
    Negative rounding noise is clipped at 0 (the true masses are >= 0), and the
    entrywise error bound is carried along.
    """
    parts = [(p, int(c)) for p, c in parts if int(c) > 0]
    if not parts:
        raise ParameterError("parts", "at least one (pld, count) with count >= 1", parts)
    h = parts[0][0].h
    if any(p.h != h for p, _ in parts):
        raise ParameterError("parts", "PLDs on one grid", sorted({p.h for p, _ in parts}))
    lam = check_nonnegative(lam, "lam")
    log_z, offset = 0.0, 0
    log_keep = 0.0                      # log prod (1 - inf_mass)^count
    level = []
    for p, c in parts:
        x, lz = _tilted(p, lam)
        log_z += c * lz
        offset += c * p.offset
        log_keep += c * math.log1p(-p.inf_mass) if p.inf_mass < 1 else -math.inf
        level.append(_power(x, c))
    while len(level) > 1:
        nxt = [_convolve(*level[i], *level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    y, err = level[0]
    inf_mass = min(1.0, -math.expm1(log_keep) * (1 + 1e-12) + (1e-300 if log_keep < 0 else 0.0))
    return ComposedPLD(h, offset, y, err, log_z, lam, inf_mass)


def _log_mgf(laid, lam: float) -> float:
    """log E[e^{lam L}] of the composition's finite loss: sum_i count_i log sum_j m_ij e^{lam l_ij}, the parts
    laid end to end by :func:`_end_to_end` (one reduceat pass however many parts there are)."""
    loss, logm, starts, sizes, counts = laid
    v = logm + lam * loss
    top = np.maximum.reduceat(v, starts)
    return float((counts * (top + np.log(np.add.reduceat(np.exp(v - np.repeat(top, sizes)), starts)))).sum())


def upper_tail_bound(parts, t: float) -> float:
    """An upper bound of the P-mass of the composition's finite losses >= t (Chernoff):
    P(L >= t) <= exp(log E[e^{lam L}] - lam t) for every lam >= 0, minimised roughly over lam (any
    lam gives a bound). A relative margin covers the rounding of the float log-sum-exps."""
    laid = _end_to_end(parts)
    res = optimize.minimize_scalar(lambda lam: _log_mgf(laid, lam) - lam * t, bounds=(0.0, 1e3), method="bounded",
                                   options={"xatol": 1e-6})
    lam = float(res.x)
    log_mgf = _log_mgf(laid, lam)
    margin = 1e-9 * (abs(log_mgf) + lam * abs(t)) + 1e-12
    return min(1.0, math.exp(min(log_mgf - lam * t + margin, 0.0)))


def compose_window(parts, lam: float, start: int, n: int, *, groups: int | None = None) -> ComposedPLD:
    """The composition on a window of n grid points, losses start*h ... (start + n - 1)*h, tilted by lam.

    The whole composition is one product in the Fourier domain of length n: prod_i X_i^count_i,
    X_i = DFT_n of part i's tilted masses. A DFT of length n shorter than the composed support
    computes the *cyclic* convolution: entry j holds the sum of the true (tilted) masses at every
    loss index congruent to j mod n. All masses are >= 0, so after rotating the window into place
    each entry is an upper bound of the true mass at its own loss (it also holds aliased masses from
    outside the window, which only adds mass). What lies outside the window is then accounted for
    pessimistically:

    * above the window, the P-mass of losses >= (start + n) h is bounded by Chernoff
      (:func:`upper_tail_bound`) and put at +inf (counted in full in delta);
    * below the window nothing is needed for eps >= start * h: a loss l <= eps adds nothing to
      delta(eps) = E[(1 - e^{eps - L})_+]. The result's ``floor`` records that its bound holds
      only from there on (the window is placed far below the epsilon being sought).

    The entrywise error bound is that of :func:`_power` with the parts' terms added: the computed
    spectra have |X_i| <= 1, so |prod a_i^c_i - prod b_i^c_i| <= sum_i c_i |a_i - b_i|.

    ``groups`` (for a ledger of many distinct parts, e.g. 10^3 noise scales): a window takes one
    transform of length n per distinct part, which at 10^3 parts and n ~ 10^6 costs tens of seconds,
    and composing the whole support instead takes gigabytes. The parts are then dealt into at most
    ``groups`` groups, each composed on its own (short) support by :func:`compose`, and each group
    enters the window as one block x_g (normalised to sum 1). Its error: :func:`compose`'s bound e_g
    is a bound of the 2-norm of the group's error vector d_g (it comes from Higham's normwise bound,
    and Young's inequality carries it through the convolutions), and folding r entries into one
    multiplies a 2-norm by at most sqrt(r). The block's spectrum then moves by D_g = DFT_n(d_g) with
    ||D_g||_2 = sqrt(n) ||d_g||_2 (Parseval); every factor having modulus <= 1 (up to the 1e-9
    margin), the product's spectrum moves by at most sum_g |D_g| at each frequency, and the inverse
    transform moves the window by at most ||sum_g D_g||_2 / sqrt(n) <= sum_g ||d_g||_2 in 2-norm,
    hence in every entry: sum_g sqrt(r_g) e_g is added to ``err``.
    """
    parts = [(p, int(c)) for p, c in parts if int(c) > 0]
    h = parts[0][0].h
    if any(p.h != h for p, _ in parts):
        raise ParameterError("parts", "PLDs on one grid", sorted({p.h for p, _ in parts}))
    lam = check_nonnegative(lam, "lam")
    spectrum = np.ones(n // 2 + 1, dtype=complex)
    log_z, offset, log_keep, weight, count, block_err = 0.0, 0, 0.0, 0.0, 0, 0.0
    for x, lz, c, x_offset, x_inf, x_err in _window_blocks(parts, lam, groups, n):
        if x.size > n:                          # a part longer than the window is itself folded (aliased)
            x_err *= math.sqrt(math.ceil(x.size / n))
            x = np.bincount(np.arange(x.size) % n, weights=x, minlength=n)
        spectrum *= _spectrum_power(sfft.rfft(x, n), c)
        log_z += c * lz
        offset += c * x_offset
        log_keep += c * (math.log1p(-x_inf) if x_inf < 1 else -math.inf)
        weight += c * math.sqrt(float((x * x).sum()))
        count += c
        block_err += c * x_err
    y = sfft.irfft(spectrum, n)
    err = 8 * _U * math.log2(n) * (weight + 1.0) + 4 * _U * count + block_err * (1 + 1e-9)
    # cyclic entry j holds loss indices offset + j (mod n); entry i of the window is index start + i
    y = np.roll(y, -((start - offset) % n))
    inf_mass = min(1.0, -math.expm1(log_keep) * (1 + 1e-12) + (1e-300 if log_keep < 0 else 0.0))
    inf_mass = min(1.0, (inf_mass + upper_tail_bound(parts, (start + n) * h)) * (1 + 1e-12))
    return ComposedPLD(h, start, np.maximum(y, 0.0), err, log_z, lam, inf_mass, floor=start * h)


def _window_blocks(parts, lam: float, groups: int | None, n: int):
    """The blocks :func:`compose_window` multiplies: (x, log normaliser, count, offset, inf_mass, 2-norm
    error bound of x) with x tilted by lam and summing to 1.

    One block per part; with ``groups`` and more parts than that, one block per group, the parts dealt
    largest support first, each to the group whose support is shortest so far. A group, or a part whose
    count-fold power is no longer than the window (n points), is composed on its own support by
    :func:`compose` and enters with count 1 and compose's error bound; a part whose power is longer enters
    itself (error 0), and its power is taken in the window's Fourier domain, where it aliases. (Powering a
    short part at the window's length costs a transform of length n and about log2(count) products of that
    length: 2.1 s against 0.4 s for 120 parts of 833 events each.)"""
    if groups is None or len(parts) <= groups:
        members = [[(p, c)] for p, c in parts]
    else:
        members = [[] for _ in range(groups)]
        sizes = [0] * groups
        for p, c in sorted(parts, key=lambda pc: -pc[1] * (pc[0].masses.size - 1)):
            g = sizes.index(min(sizes))
            members[g].append((p, c))
            sizes[g] += c * (p.masses.size - 1)
    for group in members:
        if len(group) == 1 and group[0][1] * (group[0][0].masses.size - 1) + 1 > n:
            p, c = group[0]
            x, lz = _tilted(p, lam)
            yield x, lz, c, p.offset, p.inf_mass, 0.0
            continue
        composed = compose(group, lam)
        total = float(composed.y.sum())
        yield (composed.y / total, composed.log_z + math.log(total), 1, composed.offset, composed.inf_mass,
               composed.err / total)


def tilted_moments(parts, lam: float) -> tuple[float, float]:
    """Mean and variance of the composed loss under the tilt lam (the finite part)."""
    mean = var = 0.0
    for p, c in parts:
        x, _ = _tilted(p, lam)
        loss = (p.offset + np.arange(p.masses.size)) * p.h
        m = float((x * loss).sum())
        mean += c * m
        var += c * float((x * (loss - m) ** 2).sum())
    return mean, var


def _delta_on_grid(c: ComposedPLD, j0: int):
    """delta at the grid losses l_k, k >= j0, and the suffix sums needed inside a grid cell."""
    w = np.minimum(c.upper_masses(j0), 1e300 / max(c.y.size, 1))     # entries above 1 only say delta > 1
    q = math.exp(-c.h)
    s0 = np.concatenate((np.cumsum(w[::-1])[::-1][1:], [0.0]))          # sum_{j > k} w_j
    # s1_k = sum_{j > k} w_j q^{j-k} = q (w_{k+1} + s1_{k+1})
    s1 = signal.lfilter([q], [1.0, -q], w[::-1])[::-1]
    s1 = np.concatenate((s1[1:], [0.0]))
    delta = c.inf_mass + s0 - s1
    return w, s0, s1, delta


def pld_delta(c: ComposedPLD, epsilon: float) -> float:
    """An upper bound of delta(eps) of the composition, for eps >= 0."""
    eps = check_nonnegative(epsilon, "epsilon")
    if eps < c.floor:
        return 1.0                      # below a window: no bound but the trivial one
    loss = (c.offset + np.arange(c.y.size)) * c.h
    keep = loss > eps
    if not np.any(keep):
        return min(1.0, c.inf_mass)
    j0 = int(np.argmax(keep))
    w = c.upper_masses(j0)
    return min(1.0, (c.inf_mass + float(np.sum(w * -np.expm1(eps - loss[j0:])))) * (1 + 1e-9))


def pld_epsilon(c: ComposedPLD, delta: float) -> float:
    """The smallest eps >= 0 whose upper-bounded delta(eps) is <= ``delta`` (math.inf if none)."""
    delta = check_delta(delta)
    target = delta / (1 + 1e-9)
    if c.inf_mass >= target:
        return math.inf
    loss = (c.offset + np.arange(c.y.size)) * c.h
    j0 = int(np.searchsorted(loss, 0.0, side="left"))        # first grid loss >= 0
    if j0 >= loss.size:
        return 0.0
    w, s0, s1, dgrid = _delta_on_grid(c, j0)
    ok = np.nonzero(dgrid <= target)[0]
    if ok.size == 0:                                        # cannot happen (delta at the top is inf_mass)
        raise AccountingError("internal: the PLD never meets delta (please report)")
    k = int(ok[0])
    lk = loss[j0 + k]
    # on [l_{k-1}, l_k] (or [0, l_k] at the bottom): delta(eps) = inf + W - e^{eps - l_k} V
    big_w = w[k] + s0[k]
    big_v = w[k] + s1[k]
    lower = loss[j0 + k - 1] if k > 0 else 0.0
    lower = max(lower, 0.0, c.floor)
    if big_v <= 0:
        eps = lk
    else:
        ratio = (c.inf_mass + big_w - target) / big_v
        eps = lk + math.log(ratio) if ratio > 0 else lk
        eps = min(max(eps, lower), lk)
    if eps <= 0 and pld_delta(c, 0.0) <= delta:
        return 0.0
    eps = eps * (1 + 1e-12) + 1e-300
    for t in range(80):                                     # verify; step up if rounding bit
        if pld_delta(c, eps) <= delta:
            return eps
        eps = eps + max(eps * 1e-12 * 2.0 ** t, 1e-15)
    raise AccountingError("internal: the PLD root could not be verified (please report)")


# ---------------------------------------------------------------------------
# Ledgers.

def _quantise_up(e: float, per_octave: int = QUANT_PER_OCTAVE) -> float:
    """The smallest 2^(j/per_octave) >= e (so a quantised epsilon is never smaller)."""
    j = math.ceil(math.log2(e) * per_octave)
    q = 2.0 ** (j / per_octave)
    while q < e:
        j += 1
        q = 2.0 ** (j / per_octave)
    return q


def _tally(items) -> dict:
    """{item: count} of a list of ledger items (a dict of counts is returned as it is): a long ledger repeats
    a few items, and every function below needs each distinct item once."""
    if isinstance(items, dict):
        return items
    counts: dict[tuple, int] = {}
    for it in items:
        counts[it] = counts.get(it, 0) + 1
    return counts


def quantised_items(items) -> dict:
    """The ledger items with every Laplace / rr / br epsilon rounded up to the fixed grid, grouped:
    {item: count}. (Gaussian items are exact: all Gaussian events are one block already.)"""
    merged: dict[tuple, int] = {}
    for it, c in _tally(items).items():
        if it[0] in ("laplace", "rr", "br"):
            it = (it[0], _quantise_up(it[1])) + tuple(it[2:])
        merged[it] = merged.get(it, 0) + c
    return merged


def ledger_parts(items, h: float):
    """Group ledger items ('laplace', eps0) / ('rr', eps, delta) / ('br', eps) / ('gaussian', mu) into
    (DiscretePLD, count)."""
    counts = quantised_items(items)
    parts = []
    for it, c in counts.items():
        if it[0] == "laplace":
            parts.append((laplace_pld(it[1], h), c))
        elif it[0] == "rr":
            parts.append((randomized_response_pld(it[1], h, it[2]), c))
        elif it[0] == "br":
            parts.append((bounded_range_pld(it[1], h), c))
        elif it[0] == "gaussian":
            parts.append((gaussian_pld(it[1], h), c))
        else:
            raise ParameterError("item", "'laplace', 'rr', 'br' or 'gaussian'", it[0])
    return parts


def _largest_loss(items) -> float:
    """The largest finite |loss| an item's discretised PLD can hold."""
    top = 0.0
    for it in _tally(items):
        if it[0] == "gaussian":
            top = max(top, it[1] * it[1] / 2 + _GAUSS_TAIL * it[1])
        else:
            top = max(top, it[1])
    return top


def _support_width(items) -> float:
    total = 0.0
    for it, c in _tally(items).items():
        if it[0] in ("laplace", "rr", "br"):
            total += c * 2 * it[1]
        else:
            total += c * 2 * _GAUSS_TAIL * it[1]
    return total


def item_moments(item) -> tuple[float, float]:
    """Mean and variance of one item's (finite) privacy loss under P, in closed form or by 64-point
    Gauss-Legendre quadrature of the loss density; used only to choose the grid step."""
    kind, e = item[0], item[1]
    if kind == "gaussian":
        return e * e / 2, e * e
    if kind == "rr" or e > _LARGE_EPS:
        m = e * math.tanh(e / 2)
        return m, max(e * e - m * m, 0.0)
    nodes, weights = _GL64
    l = e * nodes                                           # (-e, e)
    if kind == "laplace":
        dens = 0.25 * np.exp(-(e - l) / 2) * e * weights
        atoms, amass = np.array([e, -e]), np.array([0.5, 0.5 * math.exp(-e)])
    else:                                                   # "br": the BR envelope pair
        dens = np.exp((l - e) / 2) / (2 * -math.expm1(-e)) * e * weights
        atoms, amass = np.zeros(0), np.zeros(0)
    w = np.concatenate((dens, amass))
    x = np.concatenate((l, atoms))
    m = float((w * x).sum() / w.sum())
    return m, float((w * (x - m) ** 2).sum() / w.sum())


#: the grid step aims at a discretisation cost of at most this fraction of epsilon (the error model below)
ACCURACY = 2e-4
#: a long composition is computed on a window of +- this many (tilted) standard deviations around the
#: tilted mean (:func:`compose_window`), when that is much shorter than its whole support. Any width gives a
#: valid bound (what lies above the window is Chernoff-bounded into the infinite mass, what wraps in only adds
#: mass); 12 keeps that tail under 1e-40 of delta on every ledger measured (30 was used until issue 35: the
#: same epsilons to 3e-9 relative, at FFTs 2.5 times longer, which no longer fit in the cache)
WINDOW_SDS = 12.0
#: the window transforms every part at its full length, so a ledger of more distinct parts than this has them
#: dealt into this many groups first, each composed by compose()'s balanced tree on its own shorter support
#: (a speed choice: more groups cost more transforms of the window's length, fewer a deeper tree; 10^5 events of
#: 10^3 scales measured 1.4-1.6 s at 32 and 64 groups, 1.5-2.5 s at 128-256)
WINDOW_MAX_PARTS = 64
#: the composed PLD is never given more than this many grid points (memory: 8 bytes each, a few copies)
MAX_CELLS = 1 << 23


def grid_step(items, delta: float | None = None, *, cells: int = 1 << 17, finest: float = 1e-4) -> float:
    """The grid step h, a power of two (so the grids of two ledgers are nested: the coarser one's
    connect-the-dots PLD is a coarsening of the finer one's, hence never tighter).

    Without ``delta``: the composed support spread over about ``cells`` points, never finer than
    ``finest`` (more noise gives a narrower support and so a finer grid: the bound only improves).

    With ``delta``, the step is also set by the accuracy wanted, from the composed distribution rather
    than from the support: connect-the-dots moves each event's loss by less than h, adding at most
    h^2/4 to its variance and h^2/8 to its mean, so k events shift the composed loss's mean by
    k h^2/8 and its variance by k h^2/4. With the normal approximation eps ~ mean + z sd,
    z = sqrt(2 ln(1/delta)), epsilon moves by about k h^2/8 (1 + z/sd); h is chosen so that this is
    ACCURACY times the estimate mean + z sd. (The model only chooses h; the bound is valid for
    every h.) The grid never gets more than MAX_CELLS points over the support.
    """
    counts = _tally(items)
    width = _support_width(counts)
    h = max(width / cells, finest)
    if delta is not None:
        delta = check_delta(delta)
        mean = var = 0.0
        for it, c in counts.items():
            m, v = item_moments(it)
            mean, var = mean + c * m, var + c * v
        z = math.sqrt(2 * math.log(1 / delta))
        sd = math.sqrt(var)
        target = ACCURACY * max(mean + z * sd, 1e-3)
        h_accuracy = math.sqrt(8 * target / (sum(counts.values()) * (1 + z / max(sd, 1e-300))))
        window = max(3 * WINDOW_SDS * sd, 2 * _largest_loss(counts))       # about what is composed
        h = max(min(h, h_accuracy), min(width, window) / MAX_CELLS)
    return 2.0 ** math.floor(math.log2(h))


def _clt_guess(parts, delta: float) -> float:
    """mean + sd * sqrt(2 ln(1/delta)) of the composed loss (its finite part): a rough, usually slightly
    high, estimate of the epsilon at ``delta``, used only to place the tilt."""
    mean = var = 0.0
    for p, c in parts:
        loss = (p.offset + np.arange(p.masses.size)) * p.h
        w = p.masses / p.masses.sum()
        m = float((w * loss).sum())
        mean += c * m
        var += c * float((w * (loss - m) ** 2).sum())
    return mean + math.sqrt(var * 2 * math.log(1 / delta))


def _compose_for(parts, lam: float) -> ComposedPLD:
    """:func:`compose` on the whole support, or :func:`compose_window` on +- WINDOW_SDS tilted standard
    deviations around the tilted mean when that window is less than half the support (a ledger of more
    than WINDOW_MAX_PARTS distinct parts dealt into that many groups first)."""
    h = parts[0][0].h
    full = sum(c * (p.masses.size - 1) for p, c in parts) + 1
    mean, var = tilted_moments(parts, lam)
    half = WINDOW_SDS * math.sqrt(var) / h + 2
    n = sfft.next_fast_len(int(2 * half) + 1, real=True)
    if 2 * n >= full:
        return compose(parts, lam)
    start = math.floor(mean / h - half)
    return compose_window(parts, lam, start, n, groups=WINDOW_MAX_PARTS)


def epsilon_for_items(items, delta: float, *, guess: float | None = None, h: float | None = None) -> float:
    """The PLD epsilon of a list of ledger items at ``delta`` (see :func:`ledger_parts`).

    ``guess`` (an epsilon known to be valid, e.g. another method's) only places the FFT's tilt. The
    tilt is the saddle point at the smaller of ``guess`` and a CLT estimate, then re-placed at the
    epsilon found while the floating-point allowance is a visible part of delta (a tilt placed far
    above the answer makes that allowance dominate). Every pass gives a valid bound; the smallest
    is returned.
    """
    delta = check_delta(delta)
    items = _tally(items)
    if not items:
        return 0.0
    if _largest_loss(items) > _PLD_RANGE:
        return math.inf                 # outside the grid's range: no PLD bound (the other candidates remain)
    h = grid_step(items, delta) if h is None else check_positive(h, "h")
    parts = ledger_parts(items, h)
    best = math.inf
    start = _clt_guess(parts, delta)
    if guess is not None and math.isfinite(guess):
        start = min(start, guess)
    lam = saddle_tilt(parts, start)
    for _ in range(4):
        c = _compose_for(parts, lam)
        eps = pld_epsilon(c, delta)
        best = min(best, eps)
        if not math.isfinite(eps):
            break
        # another, re-tilted pass only when the floating-point allowance is a visible part of delta. With
        # grouped parts (more than WINDOW_MAX_PARTS) most of the allowance is the groups' own rounding
        # bound, which no tilt shrinks: there a pass is repeated only above 1e-4 of delta (10^5 events of
        # 10^3 scales: the allowance was 3e-5 of delta, and a second pass, as costly as the first, moved
        # epsilon by 7e-8 relative, upward)
        exact_part = pld_delta(replace(c, err=0.0), eps)
        visible = 1e-4 if len(parts) > WINDOW_MAX_PARTS else 1e-6
        if pld_delta(c, eps) <= exact_part * (1 + visible):
            break
        new_lam = saddle_tilt(parts, eps)
        if abs(new_lam - lam) <= 1e-3 * max(1.0, lam):
            break
        lam = new_lam
    return best
