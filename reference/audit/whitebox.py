"""White-box transcript audits: the log-likelihood ratio of the whole released transcript.

A black-box row looks at an algorithm's output (theta_T) through one scalar. A white-box row looks
at everything the algorithm releases through its mechanisms -- every noisy gradient, every noisy tree
node, every selected vertex -- and uses the Neyman-Pearson optimal statistic for the pair (D, D'):

    LLR(o_1..o_k) = sum_t ln p_{D'}(o_t | o_<t) - ln p_D(o_t | o_<t),

each release's law given the previous releases (the algorithm's own per-step law, evaluated for
the other neighbour on the same transcript). Thresholding the LLR is the most powerful test at
every size, so the distinguishability bound it gives is the best a sampled audit can do.

Where the transcript's privacy-loss distribution is computable this module also gives its exact
epsilon, by an independent computation (none of it calls reference/privacy/accounting.py or pld.py):

* a Gaussian transcript with a known mean shift (the shift at step t does not depend on the
  previous releases, e.g. a linear loss, a tree of sums, an online iterate computed from the data
  only): the loss is exactly N(mu^2/2, mu^2) with mu = ||(shift_t / sigma_t)_t||_2, so the exact
  epsilon is the mu-GDP curve's (:func:`gdp_epsilon`, Dong-Roth-Su 2022 Cor. 2.13, by scipy);
* independent finite steps (selections whose laws do not depend on earlier selections at the pair):
  the composed privacy-loss distribution by exact enumeration of its atoms
  (:func:`independent_steps_epsilon`, mpmath);
* a finite transcript whose steps depend on each other: its exact law by enumeration (the lasso
  transcript of reference/audit/cases_lasso.py) and :func:`reference.audit.exact.exact_epsilon`.

Sampling lives here too, in vectorised form: the audit draws 10^6 transcripts per side in
seconds. Each vectorised sampler is tied to the line-by-line algorithm by a test (the same numbers
from the same generator, or a goodness-of-fit test at a stated level); the algorithms' own code is
never changed for speed.
"""

from __future__ import annotations

import math
from typing import Sequence

import mpmath
import numpy as np
from scipy import special

from ..errors import ParameterError
from .stats import gaussian_epsilon

DPS = 50


# ---------------------------------------------------------------------------
# Gaussian transcripts

def gaussian_llr(releases, mean_d, mean_dp, sigma) -> np.ndarray:
    """ln p_{D'}(o) - ln p_D(o) of releases o ~ N(mean, diag(sigma^2)), summed over the last axes.

    releases: (n, ...) array, one transcript per row; mean_d, mean_dp: the means of each release on
    D and D' (broadcast against ``releases``: per transcript when they depend on earlier releases);
    sigma: the noise scale of each release (broadcast likewise). Per coordinate the log-ratio is
    (m' - m)(o - (m + m')/2) / sigma^2.
    """
    o = np.asarray(releases, dtype=float)
    m, mp = np.asarray(mean_d, dtype=float), np.asarray(mean_dp, dtype=float)
    s = np.asarray(sigma, dtype=float)
    terms = (mp - m) * (o - (m + mp) / 2.0) / (s * s)
    terms = np.broadcast_to(terms, o.shape)
    return terms.reshape(o.shape[0], -1).sum(axis=1)


def gaussian_mu(shifts, sigmas) -> float:
    """mu = sqrt(sum (shift_t / sigma_t)^2): the GDP parameter of independent Gaussian releases whose
    means move by ``shifts`` (l2 norms, one per release) with noise ``sigmas``."""
    sh = np.asarray(shifts, dtype=float).ravel()
    sg = np.broadcast_to(np.asarray(sigmas, dtype=float), sh.shape)
    if np.any(sg <= 0) or not np.all(np.isfinite(sh)):
        raise ParameterError("sigmas", "noise scales > 0 and finite shifts", (shifts, sigmas))
    return float(math.sqrt(float(np.sum((sh / sg) ** 2))))


def gaussian_thresholds(mu: float, *, midpoint: bool = False):
    """The declared tests of a Gaussian transcript's LLR (N(-+mu^2/2, mu^2) on D / D'): the midpoint 0 (the mu
    test: its two rates give Phi^-1(TPR) - Phi^-1(FPR) = mu exactly), or the tail thresholds 2 mu and 3 mu above
    the midpoint (the direct (epsilon, delta) test), the event {LLR > t}, D' against D."""
    from .cases import Bonferroni

    ts = (0.0,) if midpoint else (2.0 * mu, 3.0 * mu)
    return Bonferroni(thresholds=ts, events=("upper",), orders=("forward",))


def gdp_epsilon(mu: float, delta: float) -> float:
    """Exact epsilon at delta of a Gaussian transcript whose privacy loss is N(mu^2/2, mu^2): the
    root of Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) = delta (scipy; independent of the
    accountant)."""
    if not 0 < delta < 1:
        raise ParameterError("delta", "0 < delta < 1 (a Gaussian transcript is never pure DP)", delta)
    return gaussian_epsilon(delta, float(mu))


# ---------------------------------------------------------------------------
# Independent finite steps: exact composition of their privacy-loss distributions

def _pld_atoms(p: Sequence, q: Sequence) -> list:
    """The atoms (loss, P-mass, Q-mass) of one finite pair, equal losses merged (mpmath)."""
    atoms: dict = {}
    for a, b in zip(p, q):
        a, b = mpmath.mpf(a), mpmath.mpf(b)
        if a == 0 and b == 0:
            continue
        loss = mpmath.inf if b == 0 else (-mpmath.inf if a == 0 else mpmath.log(a / b))
        key = loss if not mpmath.isfinite(loss) else mpmath.nstr(loss, 40)
        pa, pb, _ = atoms.get(key, (mpmath.mpf(0), mpmath.mpf(0), loss))
        atoms[key] = (pa + a, pb + b, loss)
    return [(loss, a, b) for a, b, loss in atoms.values()]


def _compose(x: list, y: list, digits: int) -> list:
    out: dict = {}
    for lx, ax, bx in x:
        for ly, ay, by in y:
            loss = lx + ly
            key = loss if not mpmath.isfinite(loss) else mpmath.nstr(loss, digits)
            pa, pb, _ = out.get(key, (mpmath.mpf(0), mpmath.mpf(0), loss))
            out[key] = (pa + ax * ay, pb + bx * by, loss)
    return [(loss, a, b) for a, b, loss in out.values()]


def _delta_of(atoms: list, eps) -> mpmath.mpf:
    e = mpmath.exp(eps)
    return mpmath.fsum(max(a - e * b, 0) for _, a, b in atoms)


def _eps_of(atoms: list, delta) -> mpmath.mpf:
    """Smallest eps >= 0 with sum max(P - e^eps Q, 0) <= delta, segment by segment (exact)."""
    inf_mass = mpmath.fsum(a for loss, a, b in atoms if loss == mpmath.inf)
    if inf_mass > delta:
        return mpmath.inf
    finite = sorted(((loss, a, b) for loss, a, b in atoms if mpmath.isfinite(loss) and loss > 0),
                    key=lambda t: t[0], reverse=True)
    A, B = inf_mass, mpmath.mpf(0)
    for k, (loss, a, b) in enumerate(finite):
        A += a
        B += b
        lo = finite[k + 1][0] if k + 1 < len(finite) else mpmath.mpf(0)
        if A - mpmath.exp(lo) * B > delta:
            return mpmath.log((A - delta) / B)
    return mpmath.mpf(0)


def _composed_atoms(steps: Sequence[tuple[Sequence, Sequence]], max_atoms: int | None = None):
    """The composed loss atoms of the steps in each direction (D against D', then D' against D).
    Call inside ``mpmath.workdps(DPS)``."""
    for forward in (True, False):
        atoms = [(mpmath.mpf(0), mpmath.mpf(1), mpmath.mpf(1))]
        for p, q in steps:
            a, b = (p, q) if forward else (q, p)
            atoms = _compose(atoms, _pld_atoms(a, b), 40)
            if max_atoms is not None and len(atoms) > max_atoms:
                raise ParameterError("steps", f"a composition of at most {max_atoms} distinct losses", len(atoms))
        yield atoms


def independent_steps_epsilon(steps: Sequence[tuple[Sequence, Sequence]], delta: float,
                              *, max_atoms: int = 200_000) -> float:
    """Exact epsilon at delta of the composition of independent finite steps (both directions).

    steps: [(p_1, q_1), ..., (p_k, q_k)], the output laws of step t on D and D' (the steps'
    laws must not depend on earlier outputs at the audited pair). The composed privacy loss is
    the sum of the steps' losses; its atoms are enumerated exactly in mpmath at 50 digits (equal
    losses, to 40 digits, merged), so repeated identical steps stay polynomial. Raises when the
    enumeration would exceed ``max_atoms`` atoms.
    """
    if not 0 <= delta < 1:
        raise ParameterError("delta", "0 <= delta < 1", delta)
    if not steps:
        raise ParameterError("steps", "at least one step", steps)
    with mpmath.workdps(DPS):
        return float(max(_eps_of(atoms, mpmath.mpf(delta)) for atoms in _composed_atoms(steps, max_atoms)))


def independent_steps_delta(steps: Sequence[tuple[Sequence, Sequence]], epsilon: float) -> float:
    """The exact privacy profile delta(eps) of the composition (both directions, the larger)."""
    with mpmath.workdps(DPS):
        return float(max(_delta_of(atoms, mpmath.mpf(epsilon)) for atoms in _composed_atoms(steps)))


# ---------------------------------------------------------------------------
# Laplace transcripts

def laplace_llr(releases, mean_d, mean_dp, scale) -> np.ndarray:
    """ln p_{D'}(o) - ln p_D(o) of releases o ~ mean + Lap(scale) i.i.d., summed over the last axes:
    per coordinate (|o - m| - |o - m'|) / b."""
    o = np.asarray(releases, dtype=float)
    m, mp = np.asarray(mean_d, dtype=float), np.asarray(mean_dp, dtype=float)
    terms = (np.abs(o - m) - np.abs(o - mp)) / np.asarray(scale, dtype=float)
    terms = np.broadcast_to(terms, o.shape)
    return terms.reshape(o.shape[0], -1).sum(axis=1)


def laplace_shift_epsilon(shift: float, scale: float, delta: float) -> float:
    """Exact epsilon at delta of one Laplace release whose mean moves by ``shift`` (one coordinate):
    eps0 = shift / b; delta(eps) = 1 - e^{(eps - eps0)/2} for 0 <= eps < eps0 (the privacy loss is
    eps0 with mass 1/2 and (eps0 - 2 x/b)-spread between), so eps(delta) = eps0 + 2 ln(1 - delta)
    (Balle et al. 2018, the Laplace profile), floored at 0."""
    eps0 = float(shift) / float(scale)
    if delta <= 0:
        return eps0
    return max(0.0, eps0 + 2.0 * math.log1p(-delta))




# ---------------------------------------------------------------------------
# The law a white-box statistic assumes: independent noise across releases

def noise_law_violations(residuals, alpha: float = 1e-3) -> list[str]:
    """Checks that standardised noise residuals (n transcripts x k releases) are i.i.d. N(0, 1) across the
    releases of a transcript, as the transcript's LLR assumes; returns the violations (empty when none).

    residuals[i, t] = (release t of run i - its mean given the earlier releases) / its noise scale. Two
    families of tests, Bonferroni over all of them at total level ``alpha``: each release's sum of squares
    against chi2(n), two-sided (a scale off); each pair of releases' sum of products over sqrt(n) against
    N(0, 1), two-sided (noise correlated across steps, or reused at two steps with every marginal law
    intact: the sum is then about n, sqrt(n) standard deviations out). The product sums use the normal
    approximation (n >= 200; the summands have variance 1 and kurtosis 9).
    """
    from scipy import stats

    r = np.asarray(residuals, dtype=float)
    if r.ndim != 2 or r.shape[0] < 200:
        raise ParameterError("residuals", "an (n, k) array with n >= 200 transcripts", r.shape)
    n, k = r.shape
    tests = k + k * (k - 1) // 2
    a = alpha / tests
    out = []
    lo, hi = stats.chi2.ppf(a / 2, n), stats.chi2.isf(a / 2, n)
    for t in range(k):
        s = float(np.sum(r[:, t] ** 2))
        if not lo < s < hi:
            out.append(f"release {t}: sum of squares {s:.1f} outside [{lo:.1f}, {hi:.1f}] (chi2({n}))")
    z = stats.norm.isf(a / 2)
    for s_ in range(k):
        for t in range(s_ + 1, k):
            c = float(np.dot(r[:, s_], r[:, t])) / math.sqrt(n)
            if abs(c) > z:
                out.append(f"releases {s_} and {t}: correlation statistic {c:.2f} beyond +-{z:.2f}")
    return out
