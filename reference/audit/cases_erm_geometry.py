"""Audit cases of erm_geometry's privacy theorems (and two rates), each for both calibrations.

Worst-case neighbours (why each pair maximises the privacy loss):

* Algorithm 1 (Theorem 3.1): p = 1, linear loss l(theta; d) = d theta with d in [-1, 1]
  (L = 1), C = a huge interval so no projection is active. The mean gradient moves by the
  full replace-one sensitivity 2/n at every step whatever theta is, so the transcript is a
  Gaussian shift at full sensitivity; with T = 2 the output -(gbar + b_1)/2 is a threshold
  statistic of that shift (a likelihood-ratio test loses nothing). Runs the algorithm itself.
* Algorithm 2 (the paper's "(eps, delta)-DP follows from [37]"): catalogue P10's instance,
  p = 1, C = [-1, 1], l(theta; (a, c)) = a theta^2/2 - c theta, n = 10; D' replaces (0, -1)
  by (1, 1), which moves both the curvature and the linear term (the Jacobian term of the
  objective-perturbation proof is where the printed calibration falls short). The output is
  binned exactly (its two atoms plus 400 cells of (-1, 1)): the exact epsilon of the binned
  output is a lower bound on the mechanism's.
* Algorithm 4 (Theorem 5.4) and Algorithm 5 (Theorem B.1): p = 1, C = [-1, 1], S = {+1, -1},
  linear loss; gbar = -1/n versus +1/n (one record flips sign): the two vertices' scores move
  apart by the full score sensitivity and the selection flips preference. The gradient does not
  depend on theta, so the T - 1 selections are i.i.d.; the exact law of the number of +1
  selections is the law of a sufficient statistic of the transcript.

Negative controls, each at most 2x off its row's claim (tests/erm_geometry/test_audit_cases.py
checks it): Algorithm 1 with half the certified sigma (the printed sigma is 6.7 times the certified
one and its exact epsilon here is 0.15, so no control within 2x of it violates the claim); for the
exact rows the control's exact epsilon lies in (eps, 2 eps]: Algorithm 2 with half the printed
noise (1.60) / 0.4 of KST12's (1.11; half of it, 0.95, is still within the claim); Algorithm 4 with
half the printed scale (1.57) / 0.45 of the certified one (1.13: the accountant's report-noisy-min
bound is about 2x loose here, half the certified scale gives exactly 1.00); Algorithm 5 with half
the certified (tight) sigma (1.63) for both rows (the printed sigma is 11 times larger).
"""

from __future__ import annotations

import functools
import math

import mpmath
import numpy as np

from ..geometry.sets import L2Ball
from .cases import Bonferroni, ExactCase, PrivacyCase, RateCase, repeat

N1, EPS1, DELTA1 = 10, 2.0, 0.01          # Algorithm 1 audit regime (see the module docstring)
N2, EPS2, DELTA2 = 10, 1.0, 1e-3          # Algorithm 2: catalogue P10
N4, EPS4, DELTA4, T4 = 20, 1.0, 1e-5, 50  # Algorithms 4 and 5
#: Factors of the negative controls (of the row's own calibration; Algorithm 5: of the certified sigma).
ALG2_CONTROL = {"paper": 0.5, "certified": 0.4}
ALG4_CONTROL = {"paper": 0.5, "certified": 0.45}
ALG5_CONTROL = 0.5


# ---------------------------------------------------------------------------
# Algorithm 1

class _Linear:
    def value(self, theta, x, y):
        return float(x[0] * theta[0])

    def gradient(self, theta, x, y):
        return np.array([x[0]], dtype=float)


def _alg1_data(flip: bool):
    X = np.ones((N1, 1))
    if flip:
        X[0, 0] = -1.0
    return X


@functools.lru_cache(maxsize=None)
def _alg1_potential():
    """The Euclidean potential on the ball of radius 1e6, built once per process (no state: the harness
    shares it between runs instead of validating the same ball every run)."""
    from ..algorithms import erm_geometry as eg

    return eg.EuclideanPotential(L2Ball(1, 1e6))


def alg1_one_run(X, rng, *, sigma):
    from ..algorithms import erm_geometry as eg

    return float(eg.noisy_mirror_descent(X, np.zeros(len(X)), _Linear(), _alg1_potential(), epsilon=EPS1,
                                         delta=DELTA1, lipschitz=1.0, T=2, eta=1.0, rng=rng, sigma=sigma).theta[0])


def _alg1_sigma(calibration: str) -> float:
    from ..algorithms import erm_geometry as eg

    if calibration == "paper":
        return eg.paper_sigma_algorithm1(EPS1, DELTA1, 1.0, N1, 2)
    return eg.certified_gaussian_sigma(EPS1, DELTA1, 2.0 / N1, 2)


def alg1_certify(calibration: str):
    from ..algorithms import erm_geometry as eg

    return eg._certified_epsilon_of_gaussians(2.0 / N1, _alg1_sigma(calibration), 2, DELTA1)


def _alg1_case(calibration: str) -> PrivacyCase:
    sigma = _alg1_sigma(calibration)
    return PrivacyCase(
        claim="erm_geometry:Theorem 3.1",
        title=f"Algorithm 1, {calibration} calibration, T = 2, (eps, delta) = ({EPS1:g}, {DELTA1:g}), n = {N1}",
        sampler=repeat(functools.partial(alg1_one_run, sigma=sigma)),
        statistic=None,
        dataset=_alg1_data(False), neighbour=_alg1_data(True),
        claimed_epsilon=EPS1, claimed_delta=DELTA1,
        certify=functools.partial(alg1_certify, calibration),
        gaussian_mu=(2.0 / N1) * math.sqrt(2) / sigma,
        negative_control=repeat(functools.partial(alg1_one_run, sigma=_alg1_sigma("certified") / 2)),
        negative_control_note="half the certified sigma (a 1.27-GDP output, eps about 3.3 at delta = 0.01)",
        thresholds=Bonferroni(thresholds=(-0.45, -0.5 + 2.7 * _alg1_sigma("certified") / 4)),
        samples=40_000, quick_samples=2_000, chunk=2_000,
        # --quick: at 2000 a side (three seeds) the control's mu >= 1.05 against the certified row's 0.90 (and
        # 0.13 for the paper row's)
        worst_case="linear loss: the mean gradient moves by the full 2/n at every step, for every theta",
        calibration=calibration, erratum="erm_geometry-E26",
    )


# ---------------------------------------------------------------------------
# Algorithm 1, white-box: the transcript of noisy gradients (reference/audit/whitebox.py)

WB1 = dict(n=10, T=10, eps=2.0, delta=0.01)        # the white-box row's regime: T = 10 composed steps


def wb1_sigma(factor: float = 1.0) -> float:
    from ..algorithms import erm_geometry as eg

    return factor * eg.certified_gaussian_sigma(WB1["eps"], WB1["delta"], 2.0 / WB1["n"], WB1["T"])


def wb1_data(flip: bool):
    X = np.ones((WB1["n"], 1))
    if flip:
        X[0, 0] = -1.0
    return X


def alg1_transcript_one_run(X, rng, *, sigma: float, T: int):
    """The releases of one run of Algorithm 1 itself (line 4's noisy gradients g_t + b_t, t = 1..T) at the
    linear loss l(theta; x) = x theta on a huge interval (no projection), step 1."""
    from ..algorithms import erm_geometry as eg

    res = eg.noisy_mirror_descent(X, np.zeros(len(X)), _Linear(), eg.EuclideanPotential(L2Ball(1, 1e6)),
                                  epsilon=WB1["eps"], delta=WB1["delta"], lipschitz=1.0, T=T, eta=1.0, rng=rng,
                                  sigma=sigma)
    return X.mean(axis=0) + res.noise          # (T, 1): the mean gradient (theta-free here) plus line 4's noise


def alg1_transcript_vectorised(X, rng, n, *, sigma: float, T: int):
    """n runs of Algorithm 1's releases at once (the white-box row's sampler). The loss is linear, so the mean
    gradient at every iterate is mean(X) whatever theta is; run i's T noise draws are row i of one (n, T, 1)
    standard-normal array, the order in which n line-by-line runs draw them from one generator
    (tests/erm_geometry/test_whitebox.py checks the numbers against :func:`alg1_transcript_one_run`)."""
    gbar = np.asarray(X, dtype=float).mean(axis=0)
    return gbar + sigma * rng.standard_normal((n, T) + gbar.shape)


def wb1_llr(releases):
    """The transcript's log-likelihood ratio ln p_{D'}/p_D at the row's sigma (its sign and ordering do not
    depend on sigma, so the half-noise control is tested with the same statistic)."""
    from .whitebox import gaussian_llr

    return gaussian_llr(releases, wb1_data(False).mean(axis=0), wb1_data(True).mean(axis=0), wb1_sigma())


def wb1_mu(factor: float = 1.0) -> float:
    """mu of the transcript at the pair: T steps, each mean gradient moving by |mean(D) - mean(D')|."""
    from .whitebox import gaussian_mu

    shift = float(abs(wb1_data(False).mean() - wb1_data(True).mean()))
    return gaussian_mu([shift] * WB1["T"], wb1_sigma(factor))


def wb1_exact() -> float:
    from .whitebox import gdp_epsilon

    return gdp_epsilon(wb1_mu(), WB1["delta"])


def wb1_certify() -> float:
    from ..algorithms import erm_geometry as eg

    return eg._certified_epsilon_of_gaussians(2.0 / WB1["n"], wb1_sigma(), WB1["T"], WB1["delta"])


def _alg1_whitebox_case() -> PrivacyCase:
    from .whitebox import gaussian_thresholds

    T, mu = WB1["T"], wb1_mu()
    return PrivacyCase(
        claim="erm_geometry:Theorem 3.1",
        title=f"Algorithm 1 transcript (T = {T} noisy gradients), certified calibration, "
              f"({WB1['eps']:g}, {WB1['delta']:g}), n = {WB1['n']}, transcript LLR",
        sampler=functools.partial(alg1_transcript_vectorised, sigma=wb1_sigma(), T=T),
        statistic=wb1_llr,
        dataset=wb1_data(False), neighbour=wb1_data(True),
        claimed_epsilon=WB1["eps"], claimed_delta=WB1["delta"],
        certify=wb1_certify, exact=wb1_exact,
        gaussian_mu=mu,
        negative_control=functools.partial(alg1_transcript_vectorised, sigma=wb1_sigma(0.5), T=T),
        negative_control_note="half the certified sigma (mu doubles)",
        thresholds=gaussian_thresholds(mu), mu_thresholds=gaussian_thresholds(mu, midpoint=True),
        samples=1_000_000, quick_samples=200_000, chunk=250_000,
        worst_case="linear loss: every step's mean gradient moves by the full replace-one 2/n whatever theta is, "
                   "so the transcript is a Gaussian shift with mu = sqrt(T) (2/n) / sigma (the ledger's)",
        calibration="certified", audit="white-box", tightness_target=0.9,
    )


# ---------------------------------------------------------------------------
# Algorithm 2: exact law of the binned output

def _alg2_law(sigma: float, abar: float, cbar: float, zeta: float, cells: int = 400):
    """Exact probabilities of theta = clip((cbar - b)/(abar + zeta)) in {-1}, (-1, 1) cut in cells, {1}."""
    with mpmath.workdps(40):
        s = mpmath.mpf(abar) + mpmath.mpf(zeta)
        sig = mpmath.mpf(sigma)
        c = mpmath.mpf(cbar)
        cdf_theta = lambda t: 1 - mpmath.ncdf((c - s * t) / sig)  # noqa: E731 - P[theta <= t] on (-1, 1)
        edges = [mpmath.mpf(-1) + 2 * mpmath.mpf(i) / cells for i in range(cells + 1)]
        law = [cdf_theta(edges[0])]                                   # the atom at -1
        law += [cdf_theta(edges[i + 1]) - cdf_theta(edges[i]) for i in range(cells)]
        law[-1] = law[-1]                                             # (interior cells)
        law.append(1 - cdf_theta(edges[-1]))                          # the atom at +1
        return law


def alg2_distributions(sigma_factor: float, calibration: str):
    from ..algorithms import erm_geometry as eg

    L = 2.0
    sigma = (eg.paper_sigma_algorithm2 if calibration == "paper" else eg.kst_sigma_algorithm2)(EPS2, DELTA2, L, N2)
    sigma *= sigma_factor
    zeta = 2.0 * 1.0 / (N2 * EPS2)
    return _alg2_law(sigma, 0.9, 0.8, zeta), _alg2_law(sigma, 1.0, 1.0, zeta)


def _alg2_case(calibration: str) -> ExactCase:
    return ExactCase(
        claim="erm_geometry:Algorithm 2 privacy",
        title=f"Algorithm 2, {'printed' if calibration == 'paper' else 'KST12'} noise, (1, 1e-3), n = 10",
        distributions=functools.partial(alg2_distributions, 1.0, calibration),
        claimed_epsilon=EPS2, claimed_delta=DELTA2,
        certified_epsilon=None,   # objective perturbation is not a composition of ledger events
        negative_control=functools.partial(alg2_distributions, ALG2_CONTROL[calibration], calibration),
        negative_control_note=("half the printed noise" if calibration == "paper"
                               else "0.4 of the KST12 noise (exact epsilon 1.11)"),
        worst_case="D' replaces (0, -1) by (1, 1): curvature and linear term move together (erratum E13)",
        calibration=calibration, erratum="erm_geometry-E13",
    )


# ---------------------------------------------------------------------------
# Algorithms 4 and 5: exact law of the number of +1 selections

def _binomial_law(trials: int, prob: float):
    with mpmath.workdps(40):
        p = mpmath.mpf(prob)
        return [mpmath.binomial(trials, j) * p ** j * (1 - p) ** (trials - j) for j in range(trials + 1)]


def _laplace_difference_cdf(x: float, lam: float):
    with mpmath.workdps(40):
        x, lam = mpmath.mpf(x), mpmath.mpf(lam)
        if x <= 0:
            return (2 - x / lam) * mpmath.exp(x / lam) / 4
        return 1 - (2 + x / lam) * mpmath.exp(-x / lam) / 4


def alg4_scale(calibration: str) -> float:
    from ..algorithms import frank_wolfe as fw

    if calibration == "paper":
        return fw.paper_laplace_scale(1.0, 1.0, T4, N4, EPS4, DELTA4)
    return fw.certified_laplace_scale(2.0 / N4, T4, EPS4, DELTA4)


def alg4_distributions(scale_factor: float, calibration: str):
    lam = alg4_scale(calibration) * scale_factor
    # vertex +1 wins when <+1, g> + Z1 < <-1, g> + Z2, i.e. Z1 - Z2 < -2 g
    law = lambda g: _binomial_law(T4 - 1, float(_laplace_difference_cdf(-2 * g, lam)))  # noqa: E731
    return law(-1.0 / N4), law(1.0 / N4)


def alg4_certify(calibration: str):
    from ..privacy.ledger import FrozenLedger, MechanismEvent
    from ..privacy import accounting

    ev = MechanismEvent("report_noisy_max", 2.0 / N4, "score", noise_scale=alg4_scale(calibration), noise="laplace")
    return float(accounting.certify(FrozenLedger((ev,) * (T4 - 1)), DELTA4).epsilon)


# Algorithm 4, white-box: the T - 1 Laplace noisy-min selections. The loss is linear, so every step's scores
# (g, -g) do not depend on theta: the selections are i.i.d. given the pair, and the transcript's privacy-loss
# distribution is the composition of T - 1 identical binary steps (whitebox.independent_steps_epsilon).

def alg4_step_law(g: float, lam: float) -> list:
    """[P(+1 selected), P(-1 selected)] at mean gradient g: +1 wins when g + Z_1 < -g + Z_2."""
    p = float(_laplace_difference_cdf(-2 * g, lam))
    return [p, 1.0 - p]


def alg4_exact(g: float, lam: float) -> float:
    from .whitebox import independent_steps_epsilon

    law = (alg4_step_law(g, lam), alg4_step_law(g + 2.0 / N4, lam))
    return independent_steps_epsilon([law] * (T4 - 1), DELTA4)


def alg4_search(offsets=None, calibration: str = "certified"):
    """The worst mean gradient g (D: g, D': g + 2/n, one record moved across [-1, 1]) for the exact epsilon of the
    whole transcript: (epsilon, g). The pair (g, g + 2/n) mirrors to (-g - 2/n, -g) (swap the vertices), so the
    default grid covers g in [-1, -1/n] in steps of 0.1."""
    lam = alg4_scale(calibration)
    offsets = np.round(np.linspace(-1.0, -0.1, 10), 12) if offsets is None else offsets
    return max((alg4_exact(float(g), lam), float(g)) for g in offsets)


WB4_OFFSET = -0.5           # alg4_search()'s maximiser on its grid (tests/erm_geometry/test_whitebox.py)


def wb4_data(neighbour: bool):
    """N4 records in [-1, 1] with mean WB4_OFFSET; the neighbour replaces a -1 by a +1 (mean + 2/n)."""
    n = N4
    rest = (n * WB4_OFFSET + 1.0) / (n - 1)
    x = np.full(n, rest)
    x[0] = 1.0 if neighbour else -1.0
    return x[:, None]


def alg4_selections_one_run(X, rng, *, scale: float):
    from ..algorithms import erm_geometry as eg
    from ..algorithms import frank_wolfe as fw

    res = eg.private_frank_wolfe_polytope(X, np.zeros(len(X)), _Linear(), fw.SignedBasis(1, 1.0), epsilon=EPS4,
                                          delta=DELTA4, lipschitz_l1=1.0, T=T4, rng=rng, noise_scale=scale,
                                          keep_iterates=False)
    return np.asarray(res.selected_index)


def alg4_selections_vectorised(X, rng, n, *, scale: float):
    """n runs' T - 1 selections at once: the scores <+-1, g> do not depend on theta (linear loss), and each step of
    a run draws its two Laplace variates as one (1, 2) block, so run i's draws are row i of one (n, T - 1, 2)
    array, the order of n line-by-line runs (tests/erm_geometry/test_whitebox.py)."""
    g = float(np.asarray(X, dtype=float).mean())
    scores = np.array([g, -g])                       # SignedBasis(1): index 0 is +1, index 1 is -1
    z = rng.laplace(0.0, scale, (n, T4 - 1, 2))
    return np.argmax(-scores + z, axis=-1)            # report-noisy-min = argmax of the negated scores


def wb4_distributions(scale_factor: float = 1.0):
    """Exact laws of the number of +1 selections (a sufficient statistic of the i.i.d. transcript) at the pair
    (WB4_OFFSET, WB4_OFFSET + 2/n), at the certified scale times ``scale_factor``."""
    lam = alg4_scale("certified") * scale_factor
    law = lambda g: _binomial_law(T4 - 1, alg4_step_law(g, lam)[0])  # noqa: E731
    return law(WB4_OFFSET), law(WB4_OFFSET + 2.0 / N4)


def _alg4_whitebox_case() -> ExactCase:
    return ExactCase(
        claim="erm_geometry:Theorem 5.4",
        title=f"Algorithm 4 transcript (T - 1 = {T4 - 1} Laplace noisy-min selections), certified scale, exact at "
              f"the worst mean gradient found ({WB4_OFFSET:g} vs {WB4_OFFSET + 2.0 / N4:g})",
        distributions=wb4_distributions,
        claimed_epsilon=EPS4, claimed_delta=DELTA4,
        certify=functools.partial(alg4_certify, "certified"),
        negative_control=functools.partial(wb4_distributions, ALG4_CONTROL["certified"]),
        negative_control_note="0.45 of the certified scale (exact epsilon 1.11)",
        worst_case="alg4_search over the mean gradient: the selections are i.i.d. given the pair (linear loss), "
                   "their count is sufficient, and its law is exact (mpmath)",
        calibration="certified", audit="white-box", tightness_target=0.75, erratum="audit-E04",
        tightness_note="the accountant composes each Laplace noisy-min step as randomized response at 2 Delta / "
                       "lambda (KOV, or the PLD's RR pair); a two-candidate Laplace step reaches that log-ratio "
                       "only in the far tail, and near the middle, where the composition's worst case lies, about "
                       "half of it: the exact epsilon of the whole transcript is 0.475 of the certified one",
    )


def _alg4_case(calibration: str) -> ExactCase:
    return ExactCase(
        claim="erm_geometry:Theorem 5.4",
        title=f"Algorithm 4, {calibration} Laplace scale, T = {T4}, n = {N4}, (1, 1e-5)",
        distributions=functools.partial(alg4_distributions, 1.0, calibration),
        claimed_epsilon=EPS4, claimed_delta=DELTA4,
        certify=functools.partial(alg4_certify, calibration),
        negative_control=functools.partial(alg4_distributions, ALG4_CONTROL[calibration], calibration),
        negative_control_note=("half the printed scale" if calibration == "paper"
                               else "0.45 of the certified scale (exact epsilon 1.13)"),
        worst_case="gbar = -1/n vs +1/n: the two vertices' scores swap order, moving by the full 2 L_1 ||C||_1 / n",
        calibration=calibration, erratum="erm_geometry-E16",
    )


def alg5_sigma(calibration: str) -> float:
    from ..algorithms import erm_geometry as eg

    if calibration == "paper":
        return eg.paper_sigma_algorithm5(EPS4, DELTA4, 1.0, N4, T4)
    return eg.certified_gaussian_sigma(EPS4, DELTA4, 2.0 / N4, T4 - 1)


def alg5_distributions(sigma_factor: float, calibration: str):
    sigma = alg5_sigma(calibration) * sigma_factor if sigma_factor == 1.0 else alg5_sigma("certified") * sigma_factor
    # the LMO of [-1, 1] returns +1 when g + b < 0
    with mpmath.workdps(40):
        law = lambda g: _binomial_law(T4 - 1, float(mpmath.ncdf(-mpmath.mpf(g) / sigma)))  # noqa: E731
        return law(-1.0 / N4), law(1.0 / N4)


def alg5_certify(calibration: str):
    from ..algorithms import erm_geometry as eg

    return eg._certified_epsilon_of_gaussians(2.0 / N4, alg5_sigma(calibration), T4 - 1, DELTA4)


def _alg5_case(calibration: str) -> ExactCase:
    return ExactCase(
        claim="erm_geometry:Theorem B.1",
        title=(f"Algorithm 5, {'printed' if calibration == 'paper' else 'certified'} sigma, "
               f"T = {T4}, n = {N4}"),
        distributions=functools.partial(alg5_distributions, 1.0, calibration),
        claimed_epsilon=EPS4, claimed_delta=DELTA4,
        certify=functools.partial(alg5_certify, calibration),
        negative_control=functools.partial(alg5_distributions, ALG5_CONTROL, calibration),
        negative_control_note="half the certified (tight) sigma",
        worst_case="gbar = -1/n vs +1/n: the LMO's choice flips with the sign of g + b",
        calibration=calibration, erratum="erm_geometry-E17",
    )


# ---------------------------------------------------------------------------
# Rates

def cor36_trial(T, rng, *, noise_growth=None):
    """Excess of noisy mirror descent at horizon T with Corollary 3.6's step, noise covariance I.
    ``noise_growth`` (the audit row's negative control) makes the noise covariance T / noise_growth,
    the per-step noise of a run calibrated as if its composition over T steps were paid twice
    (sigma ~ sqrt(T)); its excess stops decaying (slope near 0)."""
    from ..algorithms import erm_geometry as eg

    T = int(T)
    p = 4
    X = np.tile(np.eye(p)[0], (8, 1))
    pot = eg.EuclideanPotential(L2Ball(p, 1.0))
    eta = eg.corollary_3_6_parameters(pot, 1.0, 1.0, T)
    cov = 1.0 if noise_growth is None else T / float(noise_growth)
    res = eg.noisy_mirror_descent_nonprivate(X, np.zeros(8), _LinearP(), pot, T=T, eta=eta, noise_cov=cov, rng=rng)
    g = X.mean(axis=0)
    return float(g @ res.theta + np.linalg.norm(g))


class _LinearP:
    def value(self, theta, x, y):
        return float(x @ theta)

    def gradient(self, theta, x, y):
        return np.array(x, dtype=float)


def cor36_bound(T):
    from ..algorithms import erm_geometry as eg

    pot = eg.EuclideanPotential(L2Ball(4, 1.0))
    T = int(T)
    return eg.corollary_3_6_bound(pot, 1.0, 1.0, T, eg.corollary_3_6_parameters(pot, 1.0, 1.0, T))


def audit_cases() -> list:
    cases = []
    for calibration in ("paper", "certified"):
        cases += [_alg1_case(calibration), _alg2_case(calibration), _alg4_case(calibration), _alg5_case(calibration)]
    cases.append(_alg1_whitebox_case())
    cases.append(_alg4_whitebox_case())
    cases.append(RateCase(
        claim="erm_geometry:Corollary 3.6",
        title="noisy mirror descent (Sigma = I, unit l2 ball, p = 4): excess vs T",
        trial=cor36_trial, grid=(16.0, 64.0, 256.0, 1024.0), quick_grid=(16.0, 64.0, 256.0),
        # 99.9% intervals, 60 repeats (8 quick): measured false 'unproven' rate when the exponent is exactly
        # -1/2, 0 of 400 resampled designs (1% quick); it was about 6.5% at 95% and 20 repeats (erm_geometry-E27)
        claimed_slope=-0.5, repeats=60, quick_repeats=8, confidence=0.999, relation="at_most", tolerance=0.1,
        bound=cor36_bound,
        nearest_wrong_slope=0.0,
        negative_control=functools.partial(cor36_trial, noise_growth=16),
        negative_control_note="noise covariance T/16 (composition over T paid twice): no decay",
    ))
    return cases
