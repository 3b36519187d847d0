"""Regret (Definition 1) against the best fixed decision in hindsight (exact for family (Q) and for
eq. (19) on R^d): the explicit base-learner bounds, Theorem 2's bound where it bites, and the rates
of Theorems 4 and 8 with rate negative controls (reference/audit/rates.fit_rate, standards.assert_rate)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.algorithms import online as ol
from reference.audit.rates import fit_rate
from reference.audit.standards import assert_bound_bites, assert_rate
from reference.geometry.sets import L2Ball


def quad_stream(T, d, rng, a=1.0, r=1.0):
    return [ol.QuadraticLoss(rng.uniform(-0.5, 0.5, d), a, rng.uniform(-0.3, 0.3, d)) for _ in range(T)]


@pytest.mark.claim("online:IGD regret")
@given(T=st.integers(1, 60), d=st.integers(1, 3), seed=st.integers(0, 10**6), la=st.floats(-1, 1))
def test_igd_regret_explicit_bound(T, d, seed, la):
    rng = np.random.default_rng(seed)
    alpha = 10 ** la
    C = L2Ball(d, 1.0)
    fs = [ol.QuadraticLoss(rng.uniform(-1, 1, d), alpha * rng.uniform(1, 2), rng.uniform(-0.5, 0.5, d) / d)
          for _ in range(T)]
    x1 = ol.uniform_point(C, rng)
    run = ol.igd(fs, C, alpha, x1=x1)
    x_star, how = ol.best_fixed_decision(fs, C)
    assert how.startswith("exact")
    L = max(f.lipschitz(C) for f in fs)
    H = sum(1.0 / k for k in range(1, T + 1))
    bound = alpha / 2 * float(np.sum((x1 - x_star) ** 2)) + L * L / (2 * alpha) * H
    assert ol.regret(fs, run.decisions, C) <= bound * (1 + 1e-9) + 1e-9


@pytest.mark.claim("online:eq. (22)")
@given(T=st.integers(1, 40), d=st.integers(1, 3), lR=st.floats(-1.5, 1), la=st.floats(-1.5, 2),
       seed=st.integers(0, 10**6))
def test_qftl_regret_with_one_plus_log(T, d, lR, la, seed):
    rng = np.random.default_rng(seed)
    R, alpha = 10 ** lR, 10 ** la
    fs = []
    for _ in range(T):
        v = rng.standard_normal(d)
        fs.append(ol.SquaredLoss(R * v / np.linalg.norm(v), R * rng.choice([-1.0, 1.0]), alpha))
    run = ol.qftl(fs, alpha, d=d)
    bound = R ** 4 * (1 + 2 * R / alpha) ** 2 * (1 + math.log(T)) / alpha
    assert ol.regret(fs, run.decisions) <= bound * (1 + 1e-9)


@pytest.mark.claim("online:eq. (22)")
def test_qftl_regret_printed_log_fails_at_T1():
    """T = 1, alpha = v = y = 1: x_1 = 0 pays 1/2, x* = 1/2 pays 1/4: regret 1/4 > R^4 (...) log 1 = 0."""
    f = ol.SquaredLoss([1.0], 1.0, 1.0)
    reg = ol.regret([f], ol.qftl([f], 1.0, d=1).decisions)
    assert reg == pytest.approx(0.25)
    assert reg > 1 ** 4 * (1 + 2) ** 2 / 1 * math.log(1)


@pytest.mark.claim("online:QFTL norm")
@given(t=st.integers(1, 8), d=st.integers(1, 3), lR=st.floats(-1, 1.5), la=st.floats(-2, 2),
       seed=st.integers(0, 10**6))
def test_qftl_iterate_norm(t, d, lR, la, seed):
    rng = np.random.default_rng(seed)
    R, alpha = 10 ** lR, 10 ** la
    fs = [ol.SquaredLoss(R * rng.uniform(-1, 1, d) / math.sqrt(d), R * rng.uniform(-1, 1), alpha) for _ in range(t)]
    x = ol.qftl(fs + fs[:1], alpha, d=d).decisions[t]
    assert np.linalg.norm(x) <= min(R / (2 * math.sqrt(alpha)), R * R / alpha) * (1 + 1e-9)


@pytest.mark.claim("online:QFTL norm")
def test_qftl_printed_norm_bound_fails():
    """d = 1, v = y = R = 10, alpha = 100: x_{t+1} = 100 t / (100 t + 100 t) = 1/2 > 2R/alpha = 0.2."""
    fs = [ol.SquaredLoss([10.0], 10.0, 100.0)] * 4
    x = ol.qftl(fs, 100.0, d=1).decisions
    assert np.allclose(x[1:, 0], 0.5) and x[1, 0] > 2 * 10 / 100


def shifted_stream(T, d, rng, alpha=1.0, spread=(1.0, 1.5)):
    """Family (Q) losses whose minimiser sits away from 0 and from the start point: centres c_t around
    m = (0.5, -0.35, ...), linear parts g_t uniform in [-0.3, 0.3]^d, curvatures alpha U(spread) (data-dependent
    constants, none equal to 1). A learner that ignores the data pays a constant per round."""
    m = np.resize(np.array([0.5, -0.35]), d)
    return [ol.QuadraticLoss(rng.uniform(-0.3, 0.3, d), alpha * rng.uniform(*spread), m + rng.uniform(-0.3, 0.3, d))
            for _ in range(T)]


X1 = np.array([-0.3, 0.4])          # the start point (in C, away from x*, != 0)


def data_blind_regrets(fs, C, x1, seed):
    """The two learners that ignore the data, run beside the algorithm: uniform decisions on C (drawn from
    their own generator) and the fixed decision x_1."""
    rng = np.random.default_rng(seed)
    T = len(fs)
    uniform = ol.regret(fs, np.array([ol.uniform_point(C, rng) for _ in range(T)]), C)
    fixed = ol.regret(fs, np.tile(x1, (T, 1)), C)
    return uniform, fixed


def pocp_bound(d, L, lam, diam, T, eps, delta, base, gamma=1.0):
    """Theorem 2 (gamma = 1) / Corollary 1: 2 sqrt(d) L (lambda + ||C||) sqrt(T) ln^2(T/delta) / sqrt(eps gamma)
    + R_A(T), R_A the non-private run's measured regret."""
    return 2 * math.sqrt(d) * L * (lam + diam) * math.sqrt(T) * math.log(T / delta) ** 2 / math.sqrt(eps * gamma) + base


@pytest.mark.claim("online:Theorem 2")
def test_pocp_expected_regret_within_theorem_2():
    """POCP with IGD (lambda = 2L/alpha, printed beta), d = 2, T = 2000, delta = 0.01, x_1 = (-0.3, 0.4), on losses
    whose minimiser is x* ~ (0.5, -0.35). The bound separates only at eps >= ~1e5 at this T (at eps = 1e4 it is
    ~3700, above every learner's regret, the data-blind ones included: the sqrt(T) ln^2(T/delta) term needs
    T ~ 1e6 to fall below T x (a constant) at eps = 1e4); at eps = 1e6 it is 523 (measured). The mean of 5 runs
    plus 3 standard errors is below it (mean 5.8); uniform decisions on C (1080) and the fixed decision x_1
    (1509), run beside, exceed it."""
    rng = np.random.default_rng(1)
    d, T, eps, delta, alpha = 2, 2000, 1e6, 0.01, 1.0
    C = L2Ball(d, 1.0)
    fs = shifted_stream(T, d, rng, alpha)
    L = max(f.lipschitz(C) for f in fs)
    lam = ol.igd_sensitivity(L, alpha)
    base = ol.regret(fs, ol.igd(fs, C, alpha, x1=X1).decisions, C)
    regs = [ol.regret(fs, ol.pocp(fs, C, ol.igd_update(alpha), lam, T, eps, delta, np.random.default_rng(s),
                                  x1=X1).decisions, C) for s in range(5)]
    bound = pocp_bound(d, L, lam, 2.0, T, eps, delta, base)
    assert_bound_bites(bound, T * L * 2.0, what="Theorem 2")
    uniform, fixed = data_blind_regrets(fs, C, X1, 101)
    assert uniform > bound and fixed > bound, (uniform, fixed, bound)      # the check rejects data-blind output
    assert np.mean(regs) + 3 * np.std(regs, ddof=1) / math.sqrt(5) <= bound


def _pigd_regret(T, seed, constant_noise=False, calibration="certified"):
    rng = np.random.default_rng(seed)
    d, alpha = 2, 1.0
    C = L2Ball(d, 1.0)
    fs = quad_stream(T, d, rng)
    L = max(f.lipschitz(C) for f in fs)
    if not constant_noise:
        res = ol.private_igd(fs, C, T, 1.0, 1e-3, L, alpha, rng, calibration=calibration, x1=np.zeros(d))
        return ol.regret(fs, res.decisions, C)
    # rate negative control: the same IGD iterates, noise beta at every round instead of beta / t
    beta = ol.pocp_noise_scale(ol.igd_sensitivity(L, alpha), T, 1.0, 1e-3, "certified")
    xs = ol.igd(fs, C, alpha, x1=np.zeros(d)).decisions
    dec = [xs[0]] + [ol._project(C, x + beta * rng.standard_normal(d)) for x in xs[1:]]
    return ol.regret(fs, np.array(dec), C)


@pytest.mark.claim("online:Theorem 4")
def test_pigd_regret_rate_is_sqrt_T():
    """Theorem 4 under both calibrations (eps = 1, delta = 1e-3, alpha = 1, d = 2, T = 100..1600, 4 runs per T).
    Certified noise: the fitted exponent's 95% interval meets [0.3, 0.7] (1/2 with log factors) and excludes the
    nearest wrong exponent 1; measured 0.60-0.64, intervals within [0.56, 0.67]. Negative control: the same IGD
    iterates with noise beta at every round (not beta/t) is linear (interval above 0.9). The printed beta (line
    8): beta/t exceeds the unit ball's radius at every round at these T, the regret is linear (measured
    0.97-0.99, intervals within [0.94, 1.01]): the O~(sqrt T) of Theorem 4 is checked for the certified noise
    only (the claim says so)."""
    Ts = (100, 200, 400, 800, 1600)
    ys = [[_pigd_regret(T, 100 * T + r) for r in range(4)] for T in Ts]
    fit = fit_rate(Ts, ys, np.random.default_rng(0))
    assert_rate(fit, 0.5, 1.0, relation="equal", tolerance=0.2, what="PIGD regret in T (certified)")
    assert fit.upper < 0.75, fit
    ctrl = fit_rate(Ts, [[_pigd_regret(T, 100 * T + r, True) for r in range(4)] for T in Ts],
                    np.random.default_rng(0))
    assert ctrl.lower > 0.9, ctrl          # the control is linear: the check tells sqrt T from T
    Tp = Ts[:4]
    paper = fit_rate(Tp, [[_pigd_regret(T, 100 * T + r, calibration="paper") for r in range(4)] for T in Tp],
                     np.random.default_rng(0))
    assert paper.lower > 0.9, paper        # the printed beta: linear at these sizes


PQFTL = dict(d=2, R=1.3, alpha=0.7, eps=300.0, delta=0.01, K=15, Ts=(100, 256, 600, 1024))


def pqftl_stream(T, seed, R=1.0, alpha=1.0):
    """eq. (19) losses, d = 2: v_t = R s_t w_t with w_t uniform on the unit circle and s_t uniform in [0.6, 1] (so
    ||v_t|| <= R, a data-dependent norm), y_t = <v_t, (0.6, -0.5)> + N(0, 0.01 R^2) clipped to [-R, R]: x* is
    roughly a shrunk (0.6, -0.5), so predicting 0 pays a constant a round. tests/online/test_bounds.py uses the
    defaults R = alpha = 1 (with s_t = 1 there: the v_t are unit vectors and the stream is its earlier one)."""
    rng = np.random.default_rng(seed)
    x_true = np.array([0.6, -0.5])
    fs = []
    for _ in range(T):
        v = rng.standard_normal(2)
        v /= np.linalg.norm(v)
        if R != 1.0:
            v *= R * rng.uniform(0.6, 1.0)
        fs.append(ol.SquaredLoss(v, float(np.clip(v @ x_true + 0.1 * R * rng.standard_normal(), -R, R)), alpha))
    return fs


def burn_in(sigma, T):
    """The rounds where Theorem 8's proof has no bound: (31) needs alpha - 6 sigma_t sqrt(d) R/(alpha t) > 0, with
    sigma_t = sigma sqrt(floor(log2 T) + 1) the largest per-entry noise of a prefix sum (Theorem 9's utility);
    t0 = the last t where it fails (public: sigma, T, d, R, alpha)."""
    p = PQFTL
    return math.ceil(6 * sigma * math.sqrt(T.bit_length()) * math.sqrt(p["d"]) * p["R"] / p["alpha"] ** 2)


def pqftl_regrets(offset, noise_factor=1.0, Ts=None):
    """For each T of the grid: K independent runs (fresh stream, fresh noise) of PQFTL with the certified trees
    (R = 1.3, alpha = 0.7, eps = 300, delta = 0.01) times ``noise_factor``. Returns arrays of shape (len(Ts), K):
    PQFTL's regret, the data-blind learner's (xhat_t = xhat_1 = 0, the start point), and both restricted to the
    rounds after the burn-in t0 (the regret of the sub-stream t0 + 1..T against its best fixed decision)."""
    p = PQFTL
    out = {k: [] for k in ("all", "blind", "after", "blind_after")}
    for T in Ts or p["Ts"]:
        sigma = ol.tree_sigma(p["R"] ** 2, T, p["eps"], p["delta"], "certified", trees=2) * noise_factor
        t0 = burn_in(sigma / noise_factor, T)
        rows = {k: [] for k in out}
        for r in range(p["K"]):
            seed = 10**6 * offset + 1000 * T + r
            fs = pqftl_stream(T, seed, p["R"], p["alpha"])
            res = ol.pqftl(fs, T, p["eps"], p["delta"], p["R"], p["alpha"], np.random.default_rng(seed + 500),
                           calibration="certified", sigma=None if noise_factor == 1.0 else sigma)
            zero = np.zeros((T, p["d"]))
            rows["all"].append(ol.regret(fs, res.decisions))
            rows["blind"].append(ol.regret(fs, zero))
            rows["after"].append(ol.regret(fs[t0:], res.decisions[t0:]))
            rows["blind_after"].append(ol.regret(fs[t0:], zero[t0:]))
        for k in out:
            out[k].append(rows[k])
    return {k: np.array(v) for k, v in out.items()}


def median_slope(Ts, regs):
    """Least-squares slope of log(median over runs) on log T."""
    return float(np.polyfit(np.log(np.asarray(Ts, dtype=float)), np.log(np.median(regs, axis=1)), 1)[0])


def pqftl_theorem_8_verdict(offset, noise_factor=1.0, Ts=None):
    """The checks of Theorem 8's test at one seed offset, as (passed, details)."""
    Ts = Ts or PQFTL["Ts"]
    r = pqftl_regrets(offset, noise_factor, Ts)
    ratio = np.median(r["all"], axis=1) / np.median(r["blind"], axis=1)
    ok = bool(np.all(ratio <= 0.5))
    info = dict(ratio=ratio)
    if len(Ts) >= 3:
        s, bs = median_slope(Ts, r["after"]), median_slope(Ts, r["blind_after"])
        ok = ok and s < 0.5 and bs > 0.9
        info.update(slope=s, blind_slope=bs)
    return ok, info


@pytest.mark.claim("online:Theorem 8")
def test_pqftl_regret_is_polylog():
    """Theorem 8 where it separates: PQFTL (certified trees, eps = 300, delta = 0.01, R = 1.3, alpha = 0.7, d = 2,
    ||v_t|| varying in [0.6 R, R]) on T = 100, 256, 600, 1024 (powers of two and not), 15 independent runs per T
    (fresh stream and noise each), statistics over runs by the median. The competitor runs beside it on the same
    streams: the data-blind learner that keeps the start point xhat_1 = 0.
    (a) Rate, with the proof's conditioning made explicit: after the burn-in t0 (the rounds where (31)'s
    denominator alpha - 6 sigma_t sqrt(d) R/(alpha t) is not positive; t0 = 34..54 here) the medians' fitted
    exponent in T is below 1/2 (polylog, not sqrt T; measured 0.295 at offset 0) while the start point's on the
    same rounds is above 0.9 (1.16): it fails the exponent < 1/2 PQFTL meets. The burn-in rounds, where
    t alpha I + Vhat_t can be near-singular, make the whole-run regret heavy-tailed. (b) The whole-run median
    regret, burn-in included, is at most half the start point's at every T (measured at most 0.13). The
    false-alarm rate is not bounded analytically; measured over 20 seed offsets (0..19): 20 pass, exponents
    0.16-0.49, the start point's >= 1.12, ratios <= 0.28 (docs/online.md). Negative control: three times the noise
    fails (b) at T = 100, 256 at every offset (ratio 0.91-4.1 at T = 100)."""
    ok, info = pqftl_theorem_8_verdict(0)
    assert ok, info
    assert info["blind_slope"] > 0.9 and not info["blind_slope"] < 0.5      # the start point fails (a)
    bad, info3 = pqftl_theorem_8_verdict(0, noise_factor=3.0, Ts=PQFTL["Ts"][:2])
    assert not bad, info3                                # the negative control: 3x the noise fails


@pytest.mark.claim("online:Corollary 1")
def test_pocp_regret_quantile_within_corollary_1():
    """The same POCP-IGD runs (d = 2, T = 1000, delta = 0.01, x_1 = (-0.3, 0.4)), 20 seeds: the empirical
    0.9-quantile of the regret is below the gamma = 0.1 bound. At eps = 1e7 the bound (315) separates: uniform
    decisions (549) and the fixed x_1 (734), run beside, exceed it (at the earlier eps = 1e5 it did not)."""
    rng = np.random.default_rng(2)
    d, T, eps, delta, alpha, gamma = 2, 1000, 1e7, 0.01, 1.0, 0.1
    C = L2Ball(d, 1.0)
    fs = shifted_stream(T, d, rng, alpha)
    L = max(f.lipschitz(C) for f in fs)
    lam = ol.igd_sensitivity(L, alpha)
    base = ol.regret(fs, ol.igd(fs, C, alpha, x1=X1).decisions, C)
    regs = [ol.regret(fs, ol.pocp(fs, C, ol.igd_update(alpha), lam, T, eps, delta, np.random.default_rng(s),
                                  x1=X1).decisions, C) for s in range(20)]
    bound = pocp_bound(d, L, lam, 2.0, T, eps, delta, base, gamma)
    assert_bound_bites(bound, T * L * 2.0, what="Corollary 1")
    uniform, fixed = data_blind_regrets(fs, C, X1, 102)
    assert uniform > bound and fixed > bound, (uniform, fixed, bound)
    assert np.quantile(regs, 1 - gamma) <= bound


def theorem_6_stream(T, d, r, alpha, LG, seed):
    """Family (Q) losses with curvature varying with t: a_t ~ U[0.6 L_G, L_G] with one round at alpha and one at
    L_G (so alpha = min a_t, L_G = max a_t exactly), centres c_t around -0.7 r u (u a fixed unit vector), small
    linear parts. The start point x_1 = r u sits at the pole opposite the minimiser, so every warm-up round pays
    about a_t (1.7 r)^2 / 2: the warm-up's share of the regret is what the last term of Theorem 6 bounds."""
    rng = np.random.default_rng(seed)
    u = np.resize(np.array([0.6, -0.8, 0.3]), d)
    u /= np.linalg.norm(u)
    a = rng.uniform(0.6 * LG, LG, T)
    a[rng.integers(T)], a[rng.integers(T)] = alpha, LG
    fs = [ol.QuadraticLoss(rng.uniform(-0.05, 0.05, d) * LG, float(a_t), -0.7 * r * u + rng.uniform(-0.2, 0.2, d) * r)
          for a_t in a]
    return fs, r * u


def theorem_6_bound(d, G, LG, alpha, diam, T, eps, delta):
    """Theorem 6 as printed: 4 sqrt(d) (G/alpha + ||C||) G ln^2(T/delta) sqrt(T)/sqrt(eps) + (2G^2/alpha)(1 + ln T)
    + 2 L_G^2 G ||C||/alpha^2, ||C|| the diameter."""
    return (4 * math.sqrt(d) * (G / alpha + diam) * G * math.log(T / delta) ** 2 * math.sqrt(T) / math.sqrt(eps)
            + 2 * G * G / alpha * (1 + math.log(T)) + 2 * LG * LG * G * diam / alpha ** 2)


@pytest.mark.claim("online:Theorem 6")
def test_pgiga_expected_regret_within_theorem_6(monkeypatch):
    """Theorem 6 on a generic instance: d = 3, C the l2 ball of radius 1.3 (||C|| = 2.6), T = 8000, delta = 0.01,
    curvature varying with t in [alpha, L_G] = [0.45, 6.3] (t_q = ceil(2 L_G^2/alpha^2) = 392), G = 16.26 (the
    gradient bound over C), certified noise, x_1 at the pole opposite x*. At eps = 1e9 the bound (30591; its terms
    2280 + 11737 + 16573) separates: the fixed decision x_1 (98317) and uniform decisions on C (36550), run
    beside, exceed it; PGIGA's mean of 5 runs + 3 SE is 4914 (its warm-up rounds are ~4820 of it; sd 0.006). The
    false-alarm rate is nil in practice: the statistic sits 4e6 standard deviations below the bound.
    The warm-up t_q is visible: t_q = 2 G^2/alpha^2 (the Lipschitz constant G of f_t, the one line 2 calls
    L, in place of L_G; 2612 rounds) fails the same assertion (32824 > 30591). A shorter warm-up cannot fail an
    upper bound on regret: 2 L_G/alpha (28 rounds, 373) or 2 L_G^2/alpha (177 rounds, 2199) pay fewer
    data-blind rounds; starting GIGA before Lemma 5's 2 L_G^2/alpha^2 breaks the sensitivity, not the regret,
    and tests/online/test_algorithms.py::test_pgiga_and_giga_updates_are_line_7 rejects it (mutant online-M45)."""
    d, r, alpha, LG, T, eps, delta = 3, 1.3, 0.45, 6.3, 8000, 1e9, 0.01
    C = L2Ball(d, r)
    fs, x1 = theorem_6_stream(T, d, r, alpha, LG, 3)
    G = max(f.grad_bound(C) for f in fs)
    assert min(f.a for f in fs) == alpha and max(f.a for f in fs) == LG
    bound = theorem_6_bound(d, G, LG, alpha, 2 * r, T, eps, delta)
    assert_bound_bites(bound, T * G * 2 * r, what="Theorem 6")

    def statistic(runs):
        regs = [ol.regret(fs, ol.private_giga(fs, C, T, eps, delta, G, LG, alpha, np.random.default_rng(s),
                                              calibration="certified", x1=x1).decisions, C) for s in range(runs)]
        return np.mean(regs) + 3 * np.std(regs, ddof=1) / math.sqrt(runs)

    uniform, fixed = data_blind_regrets(fs, C, x1, 103)
    assert uniform > bound and fixed > bound, (uniform, fixed, bound)     # the data-blind learners fail it
    assert statistic(5) <= bound
    assert ol.giga_warmup(LG, alpha) == 392
    # the warm-up with G in place of L_G (2612 rounds of x_1) fails the same assertion
    monkeypatch.setattr(ol, "giga_warmup", lambda LG_, alpha_: math.ceil(2 * G * G / alpha_ ** 2))
    swapped = statistic(3)
    assert swapped > bound, (swapped, bound)
