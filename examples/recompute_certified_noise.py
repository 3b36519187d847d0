"""The certified noise of the report-noisy-min / bounded-range selections, recomputed without the package.

An outsider's implementation of the recipe in docs/conformance.md, "Recomputing the certified noise of the
selections" (issue 31): numpy and scipy only. It never imports ``reference.privacy`` (the accountant); only the
``__main__`` printout imports ``reference.algorithms`` to put the package's value beside the recipe's.

A homogeneous ledger of k selections, each eps0-DP, is certified at (epsilon, delta) by the minimum of

* ``kov``: the optimal composition of k eps0-DP steps [KOV15, Thm 3.3], i.e. the exact profile of k-fold
  randomized response RR(eps0) (every selection: Laplace or Gumbel report-noisy-min, exponential mechanism);
* ``ddr20``: the adaptive concentration bound of bounded-range steps [DDR20, Sec. 7] (Gumbel / exponential only);
* ``envelope``: the k-fold composition of the BR envelope pair's privacy-loss distribution (Gumbel / exponential
  only), computed by FFT on a grid with connect-the-dots discretisation [DGKKM22] and an exponential tilt.

The certified noise is found by bisection to 1e-7 relative, the certified end kept (lambda rounded up, eta down).

    python -m examples.recompute_certified_noise
"""

from __future__ import annotations

import math

import numpy as np
from scipy import fft as sfft
from scipy import optimize, special

REL_TOL = 1e-7                  # the package's bisection tolerance on the noise scale
PLD_ACCURACY = 1e-5             # the recipe's own discretisation target (relative, in epsilon)
MAX_GRID = 1 << 22              # at most this many points in the composed grid
MIN_GRID = 1 << 17              # and at least this many (the error model is a CLT one: poor for a few steps)


# ---------------------------------------------------------------------------
# The three candidates, each as delta(epsilon) of k steps of parameter eps0 (and the DDR20 epsilon in closed form).

def kov_delta(eps0: float, k: int, epsilon: float) -> float:
    """Profile of k-fold RR(eps0): sum_i C(k,i) p^(k-i) (1-p)^i (1 - e^(epsilon - (k-2i) eps0))_+, p = e^eps0/(1+e^eps0)."""
    i = np.arange(k + 1)
    loss = (k - 2 * i) * eps0
    logw = (special.gammaln(k + 1) - special.gammaln(i + 1) - special.gammaln(k - i + 1)
            - (k - i) * np.log1p(math.exp(-eps0)) - i * np.log1p(math.exp(eps0)))
    keep = loss > epsilon
    return float(np.sum(np.exp(logw[keep]) * -np.expm1(epsilon - loss[keep])))


def br_mean(eps0: float) -> float:
    """mu(eps0) = eps0/(e^eps0 - 1) - 1 + ln((e^eps0 - 1)/eps0): the largest mean loss of an eps0-BR step."""
    return eps0 / math.expm1(eps0) - 1.0 + math.log(math.expm1(eps0) / eps0)


def ddr20_epsilon(eps0: float, k: int, delta: float) -> float:
    """[DDR20, Sec. 7]: k mu(eps0) + sqrt(k eps0^2 ln(1/delta) / 2)."""
    return k * br_mean(eps0) + math.sqrt(k * eps0 * eps0 * math.log(1.0 / delta) / 2.0)


def envelope_grid(eps0: float, m: int) -> tuple[np.ndarray, np.ndarray]:
    """The BR envelope pair's loss law on the grid h Z, h = eps0 / m: losses (-m..m) h and their P-masses.

    P-density of the loss: c e^((l - eps0)/2) on (-eps0, eps0), c = 1 / (2 (1 - e^-eps0)); the Q-density is that
    times e^-l. Each cell [a, b] = [jh, (j+1)h] has P-mass p = 2c e^(-eps0/2) (e^(b/2) - e^(a/2)) and Q-mass
    q = 2c e^(-eps0/2) (e^(-a/2) - e^(-b/2)); connect-the-dots puts y at b and p - y at a keeping both masses:
    y = (p e^-a - q) / (e^-a - e^-b).
    """
    h = eps0 / m
    c = 1.0 / (2.0 * -math.expm1(-eps0))
    a = np.arange(-m, m) * h
    b = a + h
    p = 2.0 * c * math.exp(-eps0 / 2) * (np.exp(b / 2) - np.exp(a / 2))
    q = 2.0 * c * math.exp(-eps0 / 2) * (np.exp(-a / 2) - np.exp(-b / 2))
    y = (p * np.exp(-a) - q) / (np.exp(-a) - np.exp(-b))
    y = np.clip(y, 0.0, p)
    w = np.zeros(2 * m + 1)
    w[:-1] += p - y                     # to the cell's lower end a = (j) h
    w[1:] += y                          # to its upper end b = (j + 1) h
    return np.arange(-m, m + 1) * h, w


def _grid_points(eps0: float, k: int, delta: float) -> int:
    """m = points per eps0: the connect-the-dots error model (each step's loss moved by < h: mean + h^2/8, variance
    + h^2/4) aims at PLD_ACCURACY x the CLT estimate of epsilon, capped so the composed grid stays under MAX_GRID."""
    mean, var = k * eps0 * eps0 / 6.0, k * eps0 * eps0 / 3.0             # the envelope's moments, to O(eps0^4)
    z = math.sqrt(2.0 * math.log(1.0 / delta))
    sd = math.sqrt(var)
    h = math.sqrt(8.0 * PLD_ACCURACY * max(mean + z * sd, 1e-3) / (k * (1.0 + z / sd)))
    m = max(math.ceil(eps0 / h), math.ceil(MIN_GRID / (2 * k)))       # short ledgers: at least MIN_GRID points
    return min(m, max(16, MAX_GRID // (2 * k)))


def envelope_delta(eps0: float, k: int, epsilon: float, delta_hint: float) -> float:
    """delta(epsilon) = E[(1 - e^(epsilon - L))_+] of the k-fold composed envelope loss L (an FFT of the tilted law).

    The grid masses are tilted by e^(lam l) (lam: the saddle point, where the tilted mean of L is epsilon), the
    k-th power of their spectrum is taken, and the result is untilted; this keeps the FFT's rounding (1e-16 of
    the largest entry) far below the tail that sets delta. ``delta_hint`` only sets the grid's fineness."""
    m = _grid_points(eps0, k, delta_hint)
    loss, w = envelope_grid(eps0, m)

    def tilted_mean(lam):
        x = w * np.exp(lam * (loss - eps0))
        return float((x * loss).sum() / x.sum())

    target = epsilon / k
    if tilted_mean(0.0) >= target:
        lam = 0.0
    elif target >= loss[-1] * (1 - 1e-12):
        lam = 50.0 / eps0
    else:
        hi = 1.0 / eps0
        while tilted_mean(hi) < target:
            hi *= 2.0
        lam = optimize.brentq(lambda t: tilted_mean(t) - target, 0.0, hi, xtol=1e-12 / eps0)
    x = w * np.exp(lam * (loss - eps0))
    log_z = math.log(x.sum()) + lam * eps0                   # ln sum_j w_j e^(lam l_j)
    x = x / x.sum()
    size = k * 2 * m + 1                                     # the composed support: (-km..km) h, no wrap-around
    n = sfft.next_fast_len(size, real=True)
    y = sfft.irfft(sfft.rfft(x, n) ** k, n)[:size]
    total = np.arange(-k * m, k * m + 1) * (eps0 / m)
    keep = (total > epsilon) & (y > 0)
    log_mass = np.log(y[keep]) + k * log_z - lam * total[keep]   # untilt: the composed P-masses
    return float(np.sum(np.exp(log_mass) * -np.expm1(epsilon - total[keep])))


def envelope_epsilon(eps0: float, k: int, delta: float) -> float:
    """The smallest epsilon with envelope_delta <= delta (bisection to 1e-9 relative)."""
    lo, hi = 0.0, k * eps0
    if envelope_delta(eps0, k, 0.0, delta) <= delta:
        return 0.0
    while hi - lo > 1e-9 * hi:
        mid = 0.5 * (lo + hi)
        if envelope_delta(eps0, k, mid, delta) <= delta:
            hi = mid
        else:
            lo = mid
    return hi


def kov_epsilon(eps0: float, k: int, delta: float) -> float:
    lo, hi = 0.0, k * eps0
    if kov_delta(eps0, k, 0.0) <= delta:
        return 0.0
    while hi - lo > 1e-12 * hi:
        mid = 0.5 * (lo + hi)
        if kov_delta(eps0, k, mid) <= delta:
            hi = mid
        else:
            lo = mid
    return hi


def certified_epsilon(eps0: float, k: int, delta: float, *, bounded_range: bool,
                      candidates=("kov", "ddr20", "envelope")) -> float:
    """The certified epsilon: the minimum of the candidates that apply (ddr20 and envelope: bounded range only)."""
    values = []
    if "kov" in candidates:
        values.append(kov_epsilon(eps0, k, delta))
    if bounded_range and "ddr20" in candidates:
        values.append(ddr20_epsilon(eps0, k, delta))
    if bounded_range and "envelope" in candidates:
        values.append(envelope_epsilon(eps0, k, delta))
    return min(values)


def certifies(eps0: float, k: int, epsilon: float, delta: float, *, bounded_range: bool,
              candidates=("kov", "ddr20", "envelope")) -> bool:
    """certified_epsilon(eps0, k, delta) <= epsilon, read as: some candidate's delta(epsilon) is <= delta."""
    if "kov" in candidates and kov_delta(eps0, k, epsilon) <= delta:
        return True
    if not bounded_range:
        return False
    if "ddr20" in candidates and ddr20_epsilon(eps0, k, delta) <= epsilon:
        return True
    if "nonadaptive" in candidates and nonadaptive_epsilon(eps0, k, delta) <= epsilon:
        return True                     # not a certificate: only to show the mistake (see nonadaptive_epsilon)
    return "envelope" in candidates and envelope_delta(eps0, k, epsilon, delta) <= delta


# ---------------------------------------------------------------------------
# The searches.

def smallest_scale(eps0_of, k: int, epsilon: float, delta: float, *, bounded_range: bool,
                   candidates=("kov", "ddr20", "envelope"), rel_tol: float = REL_TOL) -> float:
    """The smallest noise scale s (to rel_tol, the certified upper end) whose k steps of eps0_of(s) certify."""
    def ok(s):
        return certifies(eps0_of(s), k, epsilon, delta, bounded_range=bounded_range, candidates=candidates)

    hi = 1.0
    while not ok(hi):
        hi *= 2.0
    lo = hi / 2.0
    while ok(lo):
        hi, lo = lo, lo / 2.0
    while hi - lo > rel_tol * hi:
        mid = 0.5 * (lo + hi)
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi


def selection_scale(score_sensitivity: float, T: int, epsilon: float, delta: float, noise: str, **kw) -> float:
    """lasso Algorithm 2 / erm_geometry Algorithm 4: lambda for T - 1 report-noisy-min steps, eps0 = 2 sens / lambda
    (noise 'laplace': KOV alone; 'gumbel', the exponential selection's too: the minimum of the three)."""
    if T == 1:
        return float(np.finfo(float).tiny)
    return smallest_scale(lambda s: 2.0 * score_sensitivity / s, T - 1, epsilon, delta,
                          bounded_range=(noise == "gumbel"), **kw)


def saddle_eta(epsilon: float, delta: float, sens: float, count: int, **kw) -> float:
    """saddle_point Algorithms 1, 3, 5: the largest eta whose ``count`` exponential-mechanism draws at
    eps0 = 2 eta sens certify; the search is on 1/eta (its certified upper end), eta = 1/that."""
    return 1.0 / smallest_scale(lambda s: 2.0 * sens / s, count, epsilon, delta, bounded_range=True, **kw)


def nonadaptive_epsilon(eps0: float, k: int, delta: float) -> float:
    """DDR20's optimal *nonadaptive* composition (max over t of k-fold GRR_t; Sec. 5): a lower bound, not a
    certificate (adaptive composition can leak more). Shown only as the other way a port can go wrong."""
    ts = np.linspace(0.0, eps0, 401)[1:-1]

    def delta_at(x):
        i = np.arange(k + 1)[:, None]
        q = (math.exp(eps0) - np.exp(ts)) / math.expm1(eps0)
        logw = (special.gammaln(k + 1) - special.gammaln(i + 1) - special.gammaln(k - i + 1)
                + (k - i) * np.log(q)[None, :] + i * np.log1p(-q)[None, :])
        loss = k * ts[None, :] - i * eps0
        return float(np.max(np.sum(np.where(loss > x, np.exp(logw) * -np.expm1(np.minimum(x - loss, 0)), 0), 0)))

    lo, hi = 0.0, k * eps0
    while hi - lo > 1e-9 * hi:
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if delta_at(mid) <= delta else (mid, hi)
    return hi


if __name__ == "__main__":
    from reference.algorithms import frank_wolfe, lasso, saddle_point

    print("lasso:Algorithm 2 / erm_geometry:Algorithm 4 (certified lambda; T - 1 selections)")
    print(f"{'case':<44}{'recipe':>12}{'package':>12}{'rel diff':>10}{'DDR20 only':>12}{'nonadaptive':>13}")
    for n, c, T, eps, delta, sel in [(400, 1.0, 12, 1.0, 1e-5, "gumbel"), (1000, 0.5, 16, 0.5, 1e-6, "exponential"),
                                     (300, 2.0, 33, 2.0, 1e-8, "gumbel"), (400, 1.0, 12, 1.0, 1e-5, "laplace")]:
        sens = 4 * c * (c + 1) / n
        noise = "gumbel" if sel == "exponential" else sel
        ours = selection_scale(sens, T, eps, delta, noise)
        theirs = lasso.lasso_noise_scale(n, T, eps, delta, radius=c, calibration="certified", selection=sel)
        extra = ""
        if noise == "gumbel":
            ddr = selection_scale(sens, T, eps, delta, noise, candidates=("kov", "ddr20"))
            na = selection_scale(sens, T, eps, delta, noise, candidates=("nonadaptive",), rel_tol=1e-5)
            extra = f"{ddr:>12.6g}{na:>13.6g}"
        print(f"{f'lasso n={n} c={c} T={T} ({eps}, {delta:g}) {sel}':<44}{ours:>12.7g}{theirs:>12.7g}"
              f"{ours / theirs - 1:>10.1e}{extra}")
    for n, T, eps, delta in [(500, 20, 1.0, 1e-6), (800, 64, 4.0, 1e-9)]:
        ours = selection_scale(4.0 / n, T, eps, delta, "gumbel")
        theirs = frank_wolfe.certified_laplace_scale(4.0 / n, T, eps, delta, noise="gumbel")
        print(f"{f'erm Alg 4 n={n} T={T} ({eps}, {delta:g}) gumbel':<44}{ours:>12.7g}{theirs:>12.7g}"
              f"{ours / theirs - 1:>10.1e}")
    print("\nsaddle_point:Algorithm 1 (certified eta; N = 2 (K + 1) T draws at eps0 = 2 eta (2 L0 / B))")
    for eps, delta, L0, B, K, T in [(1.0, 1e-5, 1.5, 25, 1, 8), (2.0, 1e-6, 3.0, 10, 3, 16), (6.0, 1e-12, 1.0, 5, 4, 100)]:
        ours = saddle_eta(eps, delta, 2 * L0 / B, 2 * (K + 1) * T)
        theirs = saddle_point.certified_eta_algorithm1(eps, delta, L0, B, K, T)
        N, eps0 = 2 * (K + 1) * T, 4 * theirs * L0 / B
        which = min((("KOV", kov_epsilon(eps0, N, delta)), ("DDR20", ddr20_epsilon(eps0, N, delta)),
                     ("envelope", envelope_epsilon(eps0, N, delta))), key=lambda c: c[1])[0]
        print(f"{f'eps={eps} delta={delta:g} L0={L0} B={B} K={K} T={T} (N={N})':<52}{ours:>12.7g}{theirs:>12.7g}"
              f"{ours / theirs - 1:>10.1e}  winner at the package's eta: {which}")
