"""The checks run on the third-party adapters: the reference's law check and privacy audit.

Law check: :func:`reference.oracle.vectors.distribution_check` on every case of the building block that
has a law statistic (4000 runs a side at the case's alpha, its share of the id's false-alarm budget;
docs/conformance.md has its measured power against 0.8 x the noise). Privacy audit:
:func:`reference.oracle.vectors.privacy_check` at the reference's worst pair (the case's runs a side and beta),
with the reference at half its noise beside it as the control (it must be flagged, or the row has no power),
as ``python -m reference conform`` does.

The Laplace and Gaussian cases carry their worst pair (reference/oracle/cases/core.py). The
selection cases do not, so :func:`privacy_cases` gives them the pair the reference's own audit
uses for Gumbel report-noisy-max (reference/audit/cases_core.py): 20 candidates at score 0
against candidate 0 at +Delta and the other 19 at -Delta, the event "candidate 0 selected",
at Delta = 1 and epsilon = 1 (b = 2 Delta / epsilon = 2 for report-noisy-max).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from reference.oracle.suite import cases
from reference.oracle.vectors import ScaledNoise, VectorCase, distribution_check, privacy_check

SELECTION_CANDIDATES = 20
#: Runs a side of the selection pairs' audits (not conform cases: the selection ids declare no pair). The pair is
#: nearly tight (population loss 0.918 against the claim 1 for the exponential mechanism), so it runs more than
#: the Laplace and Gaussian cases' 10,000; beta is the selection id's share of its false-alarm budget.
SELECTION_RUNS = 40_000
ALGORITHMS = ("core:laplace_mechanism", "core:gaussian_mechanism", "core:exponential_mechanism",
              "core:report_noisy_max")


def law_cases(algorithm: str) -> list[VectorCase]:
    return [c for c in cases(algorithm) if c.statistic is not None]


def _is_first(index) -> float:
    return float(int(index) == 0)


def _selection_pair(m: int = SELECTION_CANDIDATES) -> tuple[np.ndarray, np.ndarray]:
    scores = np.zeros(m)
    neighbour = np.full(m, -1.0)
    neighbour[0] = 1.0
    return scores, neighbour


def privacy_cases(algorithm: str) -> list[VectorCase]:
    """The algorithm's cases with a worst neighbouring pair (built here for the selection mechanisms)."""
    own = [c for c in cases(algorithm) if c.neighbour is not None]
    if own:
        return own
    base = law_cases(algorithm)
    scores, neighbour = _selection_pair()
    if algorithm == "core:exponential_mechanism":
        params = [({"sensitivity": 1.0, "epsilon": 1.0}, base[0])]
    elif algorithm == "core:report_noisy_max":
        params = [({"sensitivity": 1.0, "scale": 2.0, "noise": c.make_kwargs()["noise"]}, c) for c in base]
    else:
        return []
    out = []
    for extra, case in params:
        label = extra.get("noise", "em")
        out.append(dataclasses.replace(
            case, name=f"{label}-worst-pair-{scores.size}",
            make_kwargs=(lambda extra=extra: {"scores": scores.copy(), **extra}),
            neighbour=(lambda extra=extra: {"scores": neighbour.copy(), **extra}),
            claimed_epsilon=1.0, claimed_mu=None, privacy_statistic=_is_first, privacy_runs=SELECTION_RUNS))
    return out


@dataclasses.dataclass(frozen=True)
class Row:
    library: str
    candidate: str
    algorithm: str
    case: str
    check: str
    passed: bool
    value: float          # law: p-value; privacy: the candidate's lower bound
    claim: float | None   # privacy: the claim (epsilon, or mu for the Gaussian)
    control: float | None  # privacy: the lower bound of the reference at half its noise
    detail: str


def law_row(library: str, candidate: str, case: VectorCase, function, **kwargs) -> Row:
    ok, p_value, detail = distribution_check(case, function, **kwargs)
    return Row(library, candidate, case.algorithm, case.name, "law", ok, p_value, None, None, detail)


def privacy_row(library: str, candidate: str, case: VectorCase, function, *, beta: float | None = None,
                seed: int = 20261123, runs: int | None = None) -> Row:
    """The candidate's audit and the reference's at half its noise (the control, which must be flagged), at
    conform's settings by default: the case's runs a side (``privacy_runs``) and level (``privacy_beta``, its
    share of the id's false-alarm budget)."""
    ok, bound, detail = privacy_check(case, function, runs=runs, beta=beta, seed=seed)
    c_ok, c_bound, c_detail = privacy_check(case, ScaledNoise(case, 0.5), runs=runs, beta=beta, seed=seed)
    claim = case.claimed_mu if case.claimed_mu is not None else case.claimed_epsilon
    detail += f"; control (reference at 0.5 x noise): {c_detail} -> {'missed' if c_ok else 'flagged'}"
    return Row(library, candidate, case.algorithm, case.name, "privacy", ok and not c_ok, bound, claim, c_bound,
               detail)


# ---- the population privacy loss at the selection pair (what the audit can at most find)

def selection_loss(law: str, m: int = SELECTION_CANDIDATES, epsilon: float = 1.0) -> float:
    """ln(P'(0) / P(0)) at the selection pair (Delta = 1), for the law ``law``: 'exponential' (and Gumbel
    noisy max), 'laplace' (Laplace noisy max, b = 2 / epsilon, by quadrature) or 'permute-and-flip'
    (closed form: candidate 0 is the maximiser of the neighbour and always accepted; each other
    candidate is accepted with probability q = exp(-epsilon), so P'(0) = (1 - (1 - q)^m) / (m q))."""
    if law == "exponential":
        c = epsilon / 2.0
        return math.log(m * math.exp(c) / (math.exp(c) + (m - 1) * math.exp(-c)))
    if law == "permute-and-flip":
        q = math.exp(-epsilon)
        return math.log((1 - (1 - q) ** m) / q)
    if law == "laplace":
        from scipy import integrate, stats

        b = 2.0 / epsilon
        lap = stats.laplace(scale=b)
        p0, _ = integrate.quad(lambda x: lap.pdf(x - 1.0) * lap.cdf(x + 1.0) ** (m - 1), -60 * b, 60 * b,
                               points=[-1.0, 1.0], limit=400)
        return math.log(m * p0)
    raise ValueError(law)
