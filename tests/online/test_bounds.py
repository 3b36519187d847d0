"""The explicit intermediate bounds of the regret and privacy proofs: eq. (12) (the noise POCP adds, summed),
Lemma 3 (the per-round KL), eq. (31) (PQFTL's per-round deviation), and the dependence on eps and d that
Theorems 4 and 8 state. Independent references: mpmath (Gamma functions, harmonic numbers, the Gaussian KL in
closed form), scipy.stats."""

from __future__ import annotations

import functools
import math

import mpmath
import numpy as np
import pytest

from reference.algorithms import online as ol
from reference.geometry.sets import L2Ball


def printed_beta(lam, T, eps, delta):
    """Algorithm 1 line 7 in mpmath, with T^(0.5+c) = sqrt(T ln(2/delta)/2)."""
    T, eps, delta = mpmath.mpf(T), mpmath.mpf(eps), mpmath.mpf(delta)
    P = mpmath.sqrt(T * mpmath.log(2 / delta) / 2)
    return lam * P * mpmath.sqrt(2 / eps * (mpmath.log(T / delta) + mpmath.sqrt(eps) / P))


def expected_noise_sum(beta, T, d):
    """E sum_{t=1}^{T-1} ||b_{t+1}||, b_{t+1} ~ N(0, beta^2/t^2 I_d): the chi mean sqrt2 Gamma((d+1)/2)/Gamma(d/2)
    times beta H_{T-1}."""
    return mpmath.sqrt(2) * beta * mpmath.gamma((d + 1) / mpmath.mpf(2)) / mpmath.gamma(d / mpmath.mpf(2)) * \
        mpmath.harmonic(T - 1)


@pytest.mark.claim("online:eq. (12)")
def test_eq_12_final_bound_holds_and_its_first_step_does_not():
    """Eq. (12) bounds E sum_t ||b_{t+1}|| in three steps. Its first step replaces sum_{t=1}^{T-1} 1/t = H_{T-1}
    by the integral ln(T - 1), which is smaller (H_{T-1} > ln(T - 1) + 0.57): that step is false at every T.
    The final bound 2 sqrt(d) lambda sqrt(T) ln^2(T/delta)/sqrt(eps) still holds on the grid T in {2, 10, 1000,
    1e6}, d in {1, 2, 50}, eps in {1e-3, 1, 100}, delta in {1e-2, 1e-8} (margin >= 1.3 at the tightest point);
    with ln^2(T/delta) replaced by ln(T/delta) the bound fails (T = 1e6, d = 1, eps = 1, delta = 1e-8: the sum
    carries ln T from H_{T-1} and sqrt(ln(2/delta) ln(T/delta)) from beta)."""
    with mpmath.workdps(30):
        tight = mpmath.inf
        for T in (2, 10, 1000, 10**6):
            for d in (1, 2, 50):
                for eps in (1e-3, 1.0, 100.0):
                    for delta in (1e-2, 1e-8):
                        beta = printed_beta(1.0, T, eps, delta)
                        exact = expected_noise_sum(beta, T, d)
                        first_step = exact / mpmath.harmonic(T - 1) * mpmath.log(T - 1)
                        assert first_step < exact
                        final = 2 * mpmath.sqrt(d) * mpmath.sqrt(T) * mpmath.log(T / mpmath.mpf(delta)) ** 2 / \
                            mpmath.sqrt(eps)
                        assert exact <= final, (T, d, eps, delta)
                        tight = min(tight, final / exact)
        assert tight >= 1.3, tight
        T, delta = 10**6, mpmath.mpf(1e-8)
        exact = expected_noise_sum(printed_beta(1.0, T, 1.0, delta), T, 1)
        assert exact > 2 * mpmath.sqrt(T) * mpmath.log(T / delta)


@pytest.mark.claim("online:eq. (12)")
def test_pocp_drawn_noise_norms_sum_to_eq_12_expectation():
    """POCP (paper calibration, lambda = 1.3, T = 300, d = 3, eps = 0.5, delta = 1e-3) on C = ball of radius 1e5
    (no projection): sum_t ||xtilde_{t+1} - x_{t+1}|| over 40 runs; the mean is within 4 standard errors of the
    exact expectation sqrt2 beta Gamma(2)/Gamma(3/2) H_{T-1} (mpmath, beta recomputed from line 7). False alarm
    < 1e-4 (CLT, fixed seeds); 0.8x the noise is off by ~20%, ~10 standard errors."""
    T, d, lam, eps, delta = 300, 3, 1.3, 0.5, 1e-3
    with mpmath.workdps(30):
        beta = float(printed_beta(lam, T, eps, delta))
        want = float(expected_noise_sum(beta, T, d))
    C = L2Ball(d, 1e5)
    fs = [ol.QuadraticLoss(np.array([0.2, -0.1, 0.05]), 1.0, np.array([1.0, 2.0, -1.0]))] * T
    sums = []
    for s in range(40):
        res = ol.pocp(fs, C, ol.igd_update(1.0), lam, T, eps, delta, np.random.default_rng(s), x1=np.full(d, 0.5))
        assert res.noise_scale == pytest.approx(beta, rel=1e-12)
        sums.append(float(np.sum(np.linalg.norm(res.decisions[1:] - res.iterates[1:], axis=1))))
    m, se = np.mean(sums), np.std(sums, ddof=1) / math.sqrt(len(sums))
    assert abs(m - want) <= 4 * se, (m, want, se)
    assert 0.2 * want > 8 * se                                   # the check resolves a 20% error


@pytest.mark.claim("online:Lemma 3")
def test_lemma_3_per_round_kl_at_the_printed_beta():
    """Lemma 3: E ln(pdf[xtilde_{t+1}]/pdf[xtilde'_{t+1}]) <= 2 eps / T^(1+2c). For the Gaussian release of round t
    (shift <= lambda/t, noise beta/t) the expectation is the KL mu_1^2/2 with mu_1 = lambda/beta (closed form); at
    the printed beta it is below 2 eps/T^(1+2c) on the grid T in {2, 100, 1e5}, eps in {1e-3, 1, 100}, delta in
    {1e-2, 1e-8}, by the factor 8 (ln(T/delta) + sqrt(eps)/T^(0.5+c)) exactly (checked to 25 digits). The check
    can fail: beta divided by 3 sqrt(ln(T/delta) + sqrt(eps)/T^(0.5+c)) exceeds it at every grid point. Lemma 3's premise (pure sqrt(eps)/T^(0.5+c)-DP at each round) does not hold for Gaussian noise: the
    privacy loss N(mu_1^2/2, mu_1^2) exceeds sqrt(eps)/T^(0.5+c) with probability > 0 (computed), so the lemma's
    conclusion holds here by the closed form, not by its proof."""
    with mpmath.workdps(30):
        for T in (2, 100, 10**5):
            for eps in (1e-3, 1.0, 100.0):
                for delta in (1e-2, 1e-8):
                    if not delta < ol.DELTA_MAX:
                        continue
                    beta = printed_beta(1.0, T, eps, delta)
                    P = mpmath.sqrt(T * mpmath.log(2 / mpmath.mpf(delta)) / 2)          # T^(0.5 + c)
                    bound = 2 * mpmath.mpf(eps) / P ** 2
                    mu1 = 1 / beta
                    assert mu1 ** 2 / 2 <= bound, (T, eps, delta)
                    eps1 = mpmath.sqrt(eps) / P
                    margin = 8 * (mpmath.log(T / mpmath.mpf(delta)) + eps1)
                    assert abs(bound / (mu1 ** 2 / 2) / margin - 1) < mpmath.mpf(10) ** -25
                    small = beta / (3 * mpmath.sqrt(mpmath.log(T / mpmath.mpf(delta)) + eps1))
                    assert (1 / small) ** 2 / 2 > bound, (T, eps, delta)
                    tail = mpmath.ncdf((mu1 ** 2 / 2 - eps1) / mu1)                  # Pr[loss > eps1]
                    assert tail > 0


# ---------------------------------------------------------------------------
# Theorems 11 and 12: risk minimisation with POL (Algorithm 6) on linear losses l(x; z) = <z, x> over the unit
# ball, z = mu + U[-0.5, 0.5]^2: E l(x) = <mu, x>, x* = -mu/||mu||, excess risk <mu, x> + ||mu|| in closed form.

MU = np.array([0.45, -0.3])
POL_X1 = np.array([0.4, 0.5])               # the start point (data-blind output): excess <mu, x_1> + ||mu|| = 0.57


@functools.lru_cache(maxsize=None)
def _pol_runs(T, n, eps_g=0.4, eps_p=1.0, delta=1e-5, seed=0):
    """n independent datasets of size T; returns (excess of the average xtilde, of the release xhat, Theorem 11's
    bound for each dataset with its measured IGD regret)."""
    B, L = 1.0, float(np.linalg.norm(MU)) + math.sqrt(0.5)
    C = L2Ball(2, B)
    alpha, gamma = eps_g / B ** 2, 0.1
    Lp = L + alpha * B
    out = []
    for k in range(n):
        rng = np.random.default_rng(10**4 * seed + k)
        zs = MU + rng.uniform(-0.5, 0.5, (T, 2))
        data = [ol.QuadraticLoss(z, 0.0, np.zeros(2)) for z in zs]
        res = ol.private_offline_learning(data, C, eps_p, delta, eps_g, L, B, np.random.default_rng(k), x1=POL_X1,
                                          calibration="certified")
        assert res.extra["alpha"] == pytest.approx(alpha, rel=1e-15)
        reg_seq = [f.plus_ridge(alpha) for f in data]              # the online sequence IGD runs on
        R_A = ol.regret(reg_seq, res.iterates, C)
        lg = math.log(4 * math.log(T) / gamma)
        bound = (alpha / 2 * B ** 2 + R_A / T + 4 / T * math.sqrt(Lp ** 2 * R_A * lg / alpha)
                 + max(16 * Lp ** 2 / alpha, 6) * lg / T)
        excess = lambda x: float(MU @ x) + float(np.linalg.norm(MU))
        out.append((excess(res.extra["average"]), excess(res.decisions[0]), bound))
    return np.array(out)


@pytest.mark.claim("online:Theorem 11")
def test_theorem_11_average_iterate_excess_risk():
    """Theorem 11 (with probability >= 1 - gamma, gamma = 0.1): the excess risk of POL's average IGD iterate
    xtilde is at most (alpha/2)||x*||^2 + R_A/T + (4/T) sqrt(L'^2 R_A ln(4 ln T/gamma)/alpha) + max(16 L'^2/alpha, 6)
    ln(4 ln T/gamma)/T, R_A the measured regret of IGD on the alpha-regularised sequence, L' = L + alpha ||x*||.
    T = 5000, eps_g = 0.4 (alpha = 0.4), 10 datasets: at most 3 violations allowed (if the theorem holds, a false
    alarm has probability P[Bin(10, 0.1) > 3] = 0.013). The bound (~0.37) separates: the data-blind output x_1
    has excess 0.57 > bound on every dataset."""
    runs = _pol_runs(5000, 10)
    assert int(np.sum(runs[:, 0] > runs[:, 2])) <= 3, runs
    blind = float(MU @ POL_X1) + float(np.linalg.norm(MU))
    assert np.all(blind > runs[:, 2]), (blind, runs[:, 2])


@pytest.mark.claim("online:Theorem 12")
def test_theorem_12_pol_reaches_eps_g_with_enough_samples():
    """Theorem 12: with probability >= 1 - gamma POL's release xhat has excess risk <= eps_g once T >= C max(...).
    eps_g = 0.4, eps_p = 1, delta = 1e-5 (certified noise), gamma = 0.1: at T = 5000 at most 3 of 10 datasets may
    exceed eps_g (false alarm 0.013 as above; the runs of Theorem 11's test), and the data-blind x_1 (excess 0.57)
    exceeds it; at T = 5 the noise dominates and at least 5 of 15 datasets exceed eps_g (measured 7; were the
    guarantee to hold at T = 5 this would happen with probability P[Bin(15, 0.1) >= 5] = 0.013): the sample size
    the theorem asks for is not vacuous on this instance."""
    big = _pol_runs(5000, 10)
    assert int(np.sum(big[:, 1] > 0.4)) <= 3, big[:, 1]
    assert float(MU @ POL_X1) + float(np.linalg.norm(MU)) > 0.4
    small = _pol_runs(5, 15, seed=2)
    assert int(np.sum(small[:, 1] > 0.4)) >= 5, small[:, 1]


# ---------------------------------------------------------------------------
# eq. (31) and the eps / d dependence of Theorems 4 and 8


def _pqftl_deviation_ratios(noise_factor, runs=12, T=512, eps=20.0, seed=0):
    """PQFTL (certified, R = alpha = 1, d = 2) against QFTL on the same stream: for every round t whose (31)
    denominator alpha - 6 sigma_t sqrt(d) R/(alpha t) is positive, ||xhat_{t+1} - x_{t+1}|| divided by (31)'s
    right side sigma_t sqrt(d)/t (3 + 6R/alpha)/(alpha - 6 sigma_t sqrt(d) R/(alpha t)), with sigma the claimed
    (certified) sigma and sigma_t = sigma sqrt(popcount(t)) (the per-entry noise of the prefix sum, Theorem 9);
    the runs draw noise_factor x sigma. Returns (max ratio with sigma_t, max ratio with sigma as printed)."""
    d, R, alpha, delta = 2, 1.0, 1.0, 0.01
    sigma = ol.tree_sigma(R * R, T, eps, delta, "certified", trees=2, items=T - 1)
    t = np.arange(1, T)
    pop = np.array([bin(k).count("1") for k in t], dtype=float)
    best = best_printed = 0.0
    for r in range(runs):
        rng = np.random.default_rng(10**5 * seed + r)
        fs = []
        for _ in range(T):
            v = rng.standard_normal(d)
            v /= np.linalg.norm(v)
            fs.append(ol.SquaredLoss(v, float(np.clip(v @ np.array([0.6, -0.5]) + 0.1 * rng.standard_normal(), -1, 1)),
                                     alpha))
        res = ol.pqftl(fs, T, eps, delta, R, alpha, np.random.default_rng(10**5 * seed + r + 777),
                       calibration="certified", sigma=noise_factor * sigma)
        e = np.linalg.norm(res.decisions[1:] - ol.qftl(fs, alpha, d=d).decisions[1:], axis=1)
        for s_t, key in ((sigma * np.sqrt(pop), 0), (np.full(T - 1, sigma), 1)):
            den = alpha - 6 * s_t * math.sqrt(d) * R / (alpha * t)
            ok = den > 0
            bound = s_t * math.sqrt(d) / t * (3 + 6 * R / alpha) / den
            m = float(np.max(e[ok] / bound[ok]))
            if key == 0:
                best = max(best, m)
            else:
                best_printed = max(best_printed, m)
    return best, best_printed


@pytest.mark.claim("online:eq. (31)")
def test_eq_31_pqftl_deviation_per_round():
    """(31) restricted: ||xhat_{t+1} - x_{t+1}|| <= sigma sqrt(d)/t (3 + 6R/alpha)/|alpha - 6 sigma sqrt(d) R/(alpha t)|,
    on the rounds where the denominator is positive (the proof's event ||A_t||, ||beta_t|| <= 3 sigma sqrt(d)); 12 runs,
    T = 512, certified eps = 20, sigma the claimed sigma. As printed (with the node sigma) the pooled maximum ratio
    is 0.56 (measured; the bound is not guaranteed: a prefix sum's per-entry noise is sigma sqrt(popcount t), Theorem
    9, which (31) drops, and a development run at T = 1024 reached 1.1); with sigma_t = sigma sqrt(popcount t) it is
    0.19. Three times the noise exceeds the form with the node sigma (pooled maximum 1.54 over 6 runs), which is
    what the negative control asserts; the sigma sqrt(popcount t) form is not exceeded by it (0.53), so the control
    does not cover that form. (31) exactly as printed, on every round and with its absolute value, is
    test_eq_31_as_written. No false-alarm rate is claimed: the proof's event has probability < 1 per round; the
    pooled maxima are measured margins."""
    with_pop, printed = _pqftl_deviation_ratios(1.0)
    assert with_pop <= 0.4 and printed <= 1.0, (with_pop, printed)
    _, bad = _pqftl_deviation_ratios(3.0, runs=6, seed=1)
    assert bad > 1.0, bad


def _eq_31_as_written(seed, d=8, T=512, eps=100.0, R=1.0, alpha=1.0, delta=0.01):
    """One PQFTL run with the paper's trees (Algorithm 5 line 3's sigma, the node sigma, R = 1 so both trees draw
    it) against QFTL on the same stream. For every round t = 1..T-1: the noise the proof names, A_t = Vhat_t - V_t
    and beta_t = uhat_t - u_t, read exactly from the run's trees (the prefix nodes' Bhat_s - B_s); the deviation
    ||xhat_{t+1} - x_{t+1}||; and (31)'s right side as printed, sigma sqrt(d)/t (3 + 6R/alpha) /
    |alpha - 6 sigma sqrt(d) R/(alpha t)|, with its denominator's sign."""
    rng = np.random.default_rng(seed)
    x_true = np.zeros(d)
    x_true[:2] = (0.6, -0.5)
    V = rng.standard_normal((T, d))
    V /= np.linalg.norm(V, axis=1)[:, None]
    y = np.clip(V @ x_true + 0.1 * rng.standard_normal(T), -1.0, 1.0)
    fs = [ol.SquaredLoss(V[t], float(y[t]), alpha) for t in range(T)]
    res = ol.pqftl(fs, T, eps, delta, R, alpha, np.random.default_rng(seed + 99), calibration="paper")
    sigma = res.noise_scale
    assert res.extra["sigma_u"] == sigma
    BV, Bu = res.extra["trees"]
    x = ol.qftl(fs, alpha, d=d).decisions
    rows = []
    for t in range(1, T):
        nodes = BV.prefix_labels(t)
        A = sum(BV.B_hat[s] - BV.B[s] for s in nodes)
        b = sum(Bu.B_hat[s] - Bu.B[s] for s in nodes)
        den = alpha - 6 * sigma * math.sqrt(d) * R / (alpha * t)
        rows.append((len(nodes), np.linalg.norm(A, 2), np.linalg.norm(b), np.linalg.norm(res.decisions[t] - x[t]),
                     sigma * math.sqrt(d) / t * (3 + 6 * R / alpha) / abs(den), den))
    pop, nA, nb, dev, bound, den = np.array(rows).T
    return sigma, pop, nA, nb, dev, bound, den


@pytest.mark.claim("online:eq. (31)")
def test_eq_31_as_written():
    """(31) run exactly as printed: PQFTL with the paper's trees (sigma of Algorithm 5 line 3), d = 8, T = 512,
    eps = 100, delta = 0.01, R = alpha = 1, 3 runs; every round t = 1..T-1, the absolute value in the denominator,
    and the premise it rests on, ||A_t||_2 <= 3 sigma sqrt(d) and ||beta_t||_2 <= 3 sigma sqrt(d) each with
    probability >= 1 - exp(-d/2) = 0.982, checked on the noise the run drew (A_t, beta_t read from its trees).
    Measured: (a) the premise fails: ||A_t|| <= 3 sigma sqrt(d) on 21-23% of the rounds (100% of those whose prefix
    is one node, 14-16% of those with popcount(t) >= 3: a prefix sum's entries are N(0, popcount(t) sigma^2), as
    Theorem 9 says and (31) drops), ||beta_t|| on 89-95%; (b) (31) itself is violated on 10-13 of the 511 rounds
    per run (ratio up to 39), every one in the burn-in where alpha - 6 sigma sqrt(d) R/(alpha t) < 0: there (28)
    gives (alpha - ||A_t||/t) ||xhat - x|| <= ..., which bounds nothing, and the absolute value (30)-(31) take is
    not justified; (c) on the rounds with a positive denominator it holds (pooled maximum ratio 0.38, bound 0.6
    asserted) although (a)'s event fails there too (the bound's ||x_t|| <= 2R/alpha is loose). online-E09."""
    runs = [_eq_31_as_written(seed) for seed in range(3)]
    sigma = runs[0][0]
    pop, nA, nb, dev, bound, den = [np.concatenate(v) for v in zip(*[r[1:] for r in runs])]
    claim = 1 - math.exp(-8 / 2)
    evA, evb = nA <= 3 * sigma * math.sqrt(8), nb <= 3 * sigma * math.sqrt(8)
    assert evA.mean() < 0.3 < claim and evb.mean() < claim, (evA.mean(), evb.mean())
    assert evA[pop == 1].all() and evA[pop >= 3].mean() < 0.2, (evA[pop == 1].mean(), evA[pop >= 3].mean())
    viol = dev > bound
    assert viol.sum() >= 10 and np.all(den[viol] < 0), (viol.sum(), den[viol])
    assert float(np.max(dev[den > 0] / bound[den > 0])) < 0.6


def _pigd_noise_sum(eps, d, calibration, runs=6, T=100):
    """Mean over runs of sum_t ||xhat_t - x_t|| (the term Theorem 4's proof bounds via Theorem 2's (11)-(12)) for
    PIGD written as POCP with IGD (alpha = 1) and lambda = 2 (Theorem 4 is Theorem 2 with IGD's lambda), on a ball
    of radius 1e6 so that line 8's projection is inactive; delta = 1e-3."""
    C = L2Ball(d, 1e6)
    c = np.zeros(d)
    c[0] = 0.5
    fs = [ol.QuadraticLoss(np.zeros(d), 1.0, c)] * T
    tot = []
    for r in range(runs):
        res = ol.pocp(fs, C, ol.igd_update(1.0), 2.0, T, eps, 1e-3, np.random.default_rng(r), calibration=calibration,
                      x1=np.zeros(d))
        assert np.max(np.linalg.norm(res.decisions, axis=1)) < 1e6 / 2
        tot.append(float(np.sum(np.linalg.norm(res.decisions - res.iterates, axis=1))))
    return float(np.mean(tot))


@pytest.mark.claim("online:Theorem 4 dependence")
def test_theorem_4_eps_and_d_dependence():
    """Theorem 4's bound grows as sqrt(d)/sqrt(eps). The term its proof bounds, sum_t ||xhat_t - x_t||, measured
    (6 runs, T = 100, no projection): with the printed beta its exponent in eps over eps = 0.01..1 is -1/2 (within
    0.05) and in d over d = 4..64 is 1/2 (within 0.05; the chi mean grows as sqrt(d - 1/2)); with the certified beta
    the eps exponent is below -0.75 (the noise the guarantee needs grows as 1/eps at small eps), so the 1/sqrt(eps)
    of Theorem 4 describes the printed noise only."""
    epss = (0.01, 0.1, 1.0)
    fit = lambda xs, ys: float(np.polyfit(np.log(xs), np.log(ys), 1)[0])
    printed = fit(epss, [_pigd_noise_sum(e, 4, "paper") for e in epss])
    assert abs(printed + 0.5) < 0.05, printed
    ds = (4, 16, 64)
    dslope = fit(ds, [_pigd_noise_sum(1.0, d, "paper") for d in ds])
    assert abs(dslope - 0.5) < 0.05, dslope
    cert = fit(epss, [_pigd_noise_sum(e, 4, "certified") for e in epss])
    assert cert < -0.75, cert


def _pqftl_noise_term(eps, d, sigma=None, runs=5, T=256, t1=64, alpha=4.0, offset=0):
    """Median over runs of sum_{t > t1} ||xhat_t - x_t||: PQFTL (paper trees, R = 1, delta = 0.01) against QFTL on the
    same stream (v_t uniform on the unit sphere of R^d, y_t = <v_t, (0.6, -0.5, 0, ...)> + N(0, 0.01) clipped to
    [-1, 1]); the term Theorem 8's proof bounds by (24)'s first-order part and (31). The rounds t <= t1 hold (31)'s
    burn-in at every (eps, d) the test runs (6 sigma_t sqrt(d) R/(alpha t) < 0.2 past t1, even with the prefix sum's
    sigma_t = sigma sqrt(popcount t)). ``sigma`` overrides both trees'
    noise (the control)."""
    x_true = np.zeros(d)
    x_true[:2] = (0.6, -0.5)
    out = []
    for r in range(runs):
        rng = np.random.default_rng(10**6 * offset + 1000 * d + r)
        V = rng.standard_normal((T, d))
        V /= np.linalg.norm(V, axis=1)[:, None]
        y = np.clip(V @ x_true + 0.1 * rng.standard_normal(T), -1.0, 1.0)
        fs = [ol.SquaredLoss(V[t], float(y[t]), alpha) for t in range(T)]
        res = ol.pqftl(fs, T, eps, 0.01, 1.0, alpha, np.random.default_rng(10**6 * offset + 77 + r), sigma=sigma)
        q = ol.qftl(fs, alpha, d=d).decisions
        out.append(float(np.sum(np.linalg.norm(res.decisions[t1:] - q[t1:], axis=1))))
    return float(np.median(out))


@pytest.mark.claim("online:Theorem 8 dependence")
def test_theorem_8_eps_and_d_dependence():
    """Theorem 8: R_PQFTL(T) = O~(R^6 log(1/delta) sqrt(d) log^1.5 T/(sqrt(eps) alpha^3)); its sqrt(d)/sqrt(eps) is
    the dependence of (32)'s noise term, (24)'s first-order part R(2R^2/alpha + R + 2) ||xhat_t - x_t|| summed with
    (31)'s sigma sqrt(d)/t. Measured: the median over 5 runs (fresh stream and noise) of sum_{t > 64}
    ||xhat_t - x_t||, T = 256, alpha = 4, printed trees (Algorithm 5 line 3). Its fitted exponent in eps over
    eps = 1e3..1e5 (d = 4) is -1/2 within 0.05 (measured -0.500 at seed offsets 0-4), excluding -1 (noise
    calibrated as 1/eps) and 0; in d over d = 4, 16, 64 (eps = 1e4) it is 1/2 within 0.1 (measured 0.53-0.56: the
    (V_t/t + alpha I)^{-1} factor and the chi mean add a little), excluding 0 and 1. Negative control: trees whose
    noise does not scale with eps (sigma = 0.3 at every eps) give exponent 0 and fail the eps check. Past the burn-in
    the statistic is a sum of >= 190 rounds of Gaussian-driven deviations, so the medians are stable; no false-alarm
    rate is derived (the exponents are measured margins)."""
    epss = (1e3, 1e4, 1e5)
    fit = lambda xs, ys: float(np.polyfit(np.log(xs), np.log(ys), 1)[0])
    e_slope = fit(epss, [_pqftl_noise_term(e, 4) for e in epss])
    assert abs(e_slope + 0.5) < 0.05, e_slope
    ds = (4, 16, 64)
    d_slope = fit(ds, [_pqftl_noise_term(1e4, d) for d in ds])
    assert abs(d_slope - 0.5) < 0.1, d_slope
    control = fit(epss[::2], [_pqftl_noise_term(e, 4, sigma=0.3) for e in epss[::2]])
    assert not abs(control + 0.5) < 0.05, control
    assert abs(control) < 0.05, control


@pytest.mark.claim("online:eq. (32)")
def test_eq_32_pqftl_regret_bound_where_it_bites():
    """(32): R_PQFTL(T) <= R^4 (1 + 2R/alpha)^2 log T/alpha + 3 sqrt(d) R (2R^2/alpha + R + 2)(1 + 2R/alpha)(1 + log T)
    sqrt(log T) log sqrt(log T/delta)/sqrt(eps) (logs base 2, the package's reading; with probability >= 1 -
    exp(-d/2) by the paper). Paper calibration, R = alpha = 1, d = 2, delta = 0.01, T = 8192: the bound is above
    the data-blind learner's regret (xhat = 0, ~410) for eps <~ 3e3 at this T; at eps = 1e6 it is ~134 and the data-blind
    regret exceeds it, while the median of 3 PQFTL runs is below it. The bound does not separate at
    private eps: at eps = 1 its noise term alone is ~1.7e4."""
    import sys

    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
    from test_regret import pqftl_stream

    T, d, R, alpha, delta, eps = 8192, 2, 1.0, 1.0, 0.01, 1e6
    lT = math.log2(T)
    bound = (R ** 4 * (1 + 2 * R / alpha) ** 2 * lT / alpha
             + 3 * math.sqrt(d) * R * (2 * R * R / alpha + R + 2) * (1 + 2 * R / alpha) * (1 + lT)
             * math.sqrt(lT) * math.log2(math.sqrt(lT / delta)) / math.sqrt(eps))
    regs, blind = [], []
    for r in range(3):
        fs = pqftl_stream(T, 900 + r)
        res = ol.pqftl(fs, T, eps, delta, R, alpha, np.random.default_rng(r))
        regs.append(ol.regret(fs, res.decisions))
        blind.append(ol.regret(fs, np.zeros((T, d))))
    assert min(blind) > bound, (blind, bound)
    assert float(np.median(regs)) <= bound, (regs, bound)
