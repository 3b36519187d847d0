"""The random (seeded) grid of ledgers on which certify is compared with Google's dp-accounting
(tests/privacy/test_accounting_crosscheck.py) and checked for monotonicity in the noise
(tests/privacy/test_pld.py). A ledger is a spec: a list of (kind, parameter, count) with kind
"laplace" (parameter b, l1 sensitivity 1), "gaussian" (sigma, l2 sensitivity 1) or "rr" (a
stated eps-DP step, whose worst case is randomized response)."""

from __future__ import annotations

import numpy as np

from reference.privacy.ledger import FrozenLedger, MechanismEvent

FAMILIES = ("laplace", "laplace_het", "rr", "rr_het", "mixed")


def random_grid(seed: int = 13, per_family: int = 4):
    """``per_family`` ledgers of each family; delta log-uniform on [1e-10, 1e-3]. Sizes are kept so
    that dp-accounting at interval 1e-5 composes each in a few seconds."""
    rng = np.random.default_rng(seed)
    grid = []
    for i in range(per_family):
        for family in FAMILIES:
            delta = float(10.0 ** rng.uniform(-10, -3))
            if family == "laplace":           # homogeneous
                spec = [("laplace", float(rng.uniform(1.0, 10.0)), int(rng.integers(2, 60)))]
            elif family == "laplace_het":     # 2 to 6 scales, several events each
                spec = [("laplace", float(rng.uniform(1.0, 10.0)), int(rng.integers(1, 12)))
                        for _ in range(int(rng.integers(2, 7)))]
            elif family == "rr":              # homogeneous randomized response
                spec = [("rr", float(rng.uniform(0.05, 1.0)), int(rng.integers(2, 40)))]
            elif family == "rr_het":          # every step its own epsilon (<= 12 steps: exact by enumeration)
                spec = [("rr", float(rng.uniform(0.05, 1.5)), 1) for _ in range(int(rng.integers(2, 13)))]
            else:                             # Gaussians and Laplaces
                spec = [("gaussian", float(rng.uniform(1.0, 8.0)), int(rng.integers(1, 10))),
                        ("laplace", float(rng.uniform(1.0, 10.0)), int(rng.integers(2, 30)))]
            grid.append((f"{family}-{i}", spec, delta))
    return grid


def events(spec):
    out = []
    for kind, param, count in spec:
        if kind == "laplace":
            e = MechanismEvent("laplace", 1.0, "l1", noise_scale=param)
        elif kind == "gaussian":
            e = MechanismEvent("gaussian", 1.0, "l2", noise_scale=param)
        elif kind == "rr":
            e = MechanismEvent("pure", 0.0, "l1", epsilon=param)
        else:
            raise ValueError(kind)
        out += [e] * count
    return FrozenLedger(tuple(out))


def noisier(spec, rng):
    """The same ledger with every event's noise raised by an independent factor in [1, 1.5] (an rr
    step's epsilon divided by it): each event is then at least as private."""
    out = []
    for kind, param, count in spec:
        for _ in range(count):
            f = float(rng.uniform(1.0, 1.5))
            out.append((kind, param / f if kind == "rr" else param * f, 1))
    return out


def _rr_profile(eps: float, eps0s) -> float:
    """Exact delta(eps) of composed randomized responses RR(eps0_i): enumeration of the 2^k sign
    patterns, or the binomial sum when all eps0_i are equal (sums of non-negative float terms)."""
    e = np.asarray(eps0s, dtype=float)
    if np.all(e == e[0]):
        from math import comb, exp, expm1, log1p
        k, e0 = e.size, float(e[0])
        log_p, log_q = -log1p(exp(-e0)), -log1p(exp(e0))     # P(+e0), P(-e0) under P
        total = 0.0
        for i in range(k + 1):                                   # i steps at -e0
            loss = (k - 2 * i) * e0
            if loss <= eps:
                break
            total += comb(k, i) * exp((k - i) * log_p + i * log_q) * -expm1(eps - loss)
        return total
    import itertools
    signs = np.array(list(itertools.product((1.0, -1.0), repeat=e.size)))
    loss = (signs * e).sum(axis=1)
    prob = np.prod(1 / (1 + np.exp(-signs * e)), axis=1)
    on = loss > eps
    return float(np.sum(prob[on] * -np.expm1(eps - loss[on])))


def exact_rr_epsilon_below(spec, delta: float) -> float:
    """A value at or below the exact epsilon of an all-"rr" spec at ``delta``: the lower end of a
    bisection of the exact profile (profile(lower) > delta), relative width 1e-12."""
    eps0s = [p for kind, p, c in spec for _ in range(c)]
    assert all(kind == "rr" for kind, _, _ in spec)
    lo, hi = 0.0, float(sum(eps0s))
    if _rr_profile(0.0, eps0s) <= delta:
        return 0.0
    while hi - lo > 1e-12 * hi:
        mid = 0.5 * (lo + hi)
        if _rr_profile(mid, eps0s) <= delta:
            hi = mid
        else:
            lo = mid
    return lo
