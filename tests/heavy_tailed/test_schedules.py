"""The parameter schedules of Theorems 5.2, 5.5, B.8 and the CDP Fano bound of Theorem 1.4, each recomputed here
from the theorem's printed formula at generic (n, d, rho, k, q, M, R) (constants != 1, d > 1, T not a power of
two), so that a dropped exponent (tau without q), a step M/(R T) for M/(R sqrt T), or Fano without its log 2 fails.
Nothing is copied from the code: every expected value is the paper's formula evaluated in the test."""

from __future__ import annotations

import math

import pytest

from reference.algorithms import heavy_tailed as ht
from reference.errors import ParameterError

GENERIC = [  # n, d, rho, k, M, R
    (10**6, 3, 0.7, 3.5, 2.5, 4.0),
    (3 * 10**5, 2, 2.3, 2.0, 0.6, 7.5),
    (4 * 10**6, 5, 0.15, 6.0, 1.7, 0.9),
]


def thm52_expected(n, d, rho, k, M, R):
    """Theorem 5.2: tau = (sqrt(rho) n / (M d^(3/2)))^(1/k), T = R^2 rho n^2 / (tau^2 d^4) (floored, E04),
    eta = M / (R sqrt T); Lemma B.2's proof: beta = (alpha/M)^(2d), alpha = n^-3, m = ceil(4 log(2d/beta))."""
    tau = (rho ** 0.5 * n / (M * d ** 1.5)) ** (1 / k)
    T_real = R ** 2 * rho * n ** 2 / (tau ** 2 * d ** 4)
    T = max(1, math.floor(T_real))
    eta = M / (R * T ** 0.5)
    m = math.ceil(4 * (math.log(2 * d) - 2 * d * math.log(1 / (M * n ** 3))))
    return tau, T_real, T, eta, m


@pytest.mark.claim("heavy_tailed:Theorem 5.2 schedule")
@pytest.mark.parametrize("n, d, rho, k, M, R", GENERIC)
def test_schedule_thm52_is_the_theorem(n, d, rho, k, M, R):
    tau, T_real, T, eta, m = thm52_expected(n, d, rho, k, M, R)
    assert T > 1 and T & (T - 1)                      # T > 1 and not a power of two: eta/T and eta/sqrt T differ
    s = ht.schedule_thm52(n, d, rho, k, M=M, R=R, strict=False)
    assert s.tau == pytest.approx(tau, rel=1e-12)
    assert s.T_real == pytest.approx(T_real, rel=1e-12) and s.T == T
    assert s.eta == pytest.approx(eta, rel=1e-12)
    assert s.m == m and s.batch == n


@pytest.mark.claim("heavy_tailed:Theorem B.8 schedule")
@pytest.mark.parametrize("n, d, rho, k, M, R", GENERIC)
@pytest.mark.parametrize("beta", [0.05, 0.3])
def test_schedule_thmB8_is_the_theorem(n, d, rho, k, M, R, beta):
    """Theorem B.8: Theorem 5.2's T, eta, tau, with m = d log(d M n / beta) (rounded up)."""
    tau, T_real, T, eta, _ = thm52_expected(n, d, rho, k, M, R)
    s = ht.schedule_thmB8(n, d, rho, k, beta, M=M, R=R, strict=False)
    assert s.tau == pytest.approx(tau, rel=1e-12) and s.T == T and s.eta == pytest.approx(eta, rel=1e-12)
    assert s.m == math.ceil(d * math.log(d * M * n / beta)) and s.beta == beta


@pytest.mark.claim("heavy_tailed:Theorem 5.5 schedule")
@pytest.mark.parametrize("n, d, rho, k, M, R", GENERIC)
@pytest.mark.parametrize("q", [0.5, 0.8, 1.7, 2.0])
def test_schedule_thm55_is_the_theorem(n, d, rho, k, M, R, q):
    """Theorem 5.5: tau = (sqrt(rho) n / (M d^q))^(1/2), T = R^2 rho n^2 / (tau^2 d^2), eta = M/(R sqrt T)."""
    tau = (rho ** 0.5 * n / (M * d ** q)) ** 0.5
    T_real = R ** 2 * rho * n ** 2 / (tau ** 2 * d ** 2)
    T = max(1, math.floor(T_real))
    s = ht.schedule_thm55(n, d, rho, q, M=M, R=R, strict=False)
    assert s.tau == pytest.approx(tau, rel=1e-12)
    assert s.T_real == pytest.approx(T_real, rel=1e-12) and s.T == T
    assert s.eta == pytest.approx(M / (R * T ** 0.5), rel=1e-12)
    assert s.m is None and s.beta is None


def fano_expected(r, M, a, kl, rho, n):
    """Theorem 1.4 as printed: (r/2) max{1 - (beta + log 2)/log M, 1 - (rho (n^2 a^2 + n a (1 - a)) + log 2)/log M}."""
    return r / 2 * max(1 - (kl + math.log(2)) / math.log(M),
                       1 - (rho * (n * n * a * a + n * a * (1 - a)) + math.log(2)) / math.log(M))


@pytest.mark.claim("heavy_tailed:Theorem 1.4")
@pytest.mark.parametrize("r, M, a, kl, rho, n, active", [
    (0.7, 300, 0.02, 1.3, 0.9, 150, "classical"),     # KL small: the classical term is the max
    (2.5, 1000, 0.001, 40.0, 0.3, 900, "private"),    # KL large: the private term is the max
    (1.3, 57, 0.01, 0.8, 2.0, 40, "classical"),
])
def test_fano_cdp_bound_is_the_theorem_with_each_term_active(r, M, a, kl, rho, n, active):
    classical = 1 - (kl + math.log(2)) / math.log(M)
    private = 1 - (rho * (n * n * a * a + n * a * (1 - a)) + math.log(2)) / math.log(M)
    assert (classical > private) == (active == "classical") and max(classical, private) > 0
    got = ht.fano_cdp_bound(r, M, a, kl, rho, n)
    assert got == pytest.approx(fano_expected(r, M, a, kl, rho, n), rel=1e-13)
    # the log 2 of each term is visible: dropping it moves the value by (r/2) log 2 / log M
    assert abs(got - r / 2 * max(classical, private)) <= 1e-13
    assert abs(got - r / 2 * (max(classical, private) + math.log(2) / math.log(M))) > 1e-3


@pytest.mark.claim("heavy_tailed:Bad input")
@pytest.mark.parametrize("k", [1.0, 1.2, 1.5, 1.99])
def test_moment_order_below_two_is_refused(k):
    """Definition 2.11 defines the k-th moment bound for k >= 2 only (and every rate assumes it)."""
    with pytest.raises(ParameterError, match="k >= 2"):
        ht.check_moment_order(k)
    with pytest.raises(ParameterError):
        ht.schedule_thm52(10**6, 2, 1.0, k, strict=False)
    assert ht.check_moment_order(2) == 2.0


def _slope(xs, ys):
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


@pytest.mark.claim("heavy_tailed:Remark 5.3")
@pytest.mark.parametrize("k, rho", [(2.0, 0.4), (3.5, 2.0), (8.0, 1.0)])
def test_remark_5_3_naive_schedule_is_worse_than_theorem_5_2(k, rho):
    """Remark 5.3 (d = 1): the naive tau = (sqrt(rho) n / sqrt T)^(1/k) with T = (sqrt(rho) n)^((2k-2)/(2k-1))
    gives error 1/sqrt(T) + (1/tau)^(k-1), decaying as n^(-(k-1)/(2k-1)); Theorem 5.2's schedule at d = 1 gives
    the private term (1/(n sqrt rho)) tau with tau = (sqrt(rho) n / M)^(1/k), decaying as n^(-(k-1)/k). Both are
    evaluated at the code's schedules (schedule_remark53, schedule_thm52) over n = 1e6 .. 1e12 and their fitted
    exponents compared with the remark's; the ratio naive / Theorem 5.2 grows without bound (quadratically better
    as k -> infinity)."""
    ns = [10 ** e for e in range(6, 13, 2)]
    naive, ours = [], []
    for n in ns:
        s = ht.schedule_remark53(n, rho, k)
        naive.append(1 / math.sqrt(s.T_real) + (1 / s.tau) ** (k - 1))
        t = ht.schedule_thm52(n, 1, rho, k, strict=False)
        ours.append(t.tau / (n * math.sqrt(rho)))
    assert _slope(ns, naive) == pytest.approx(-(k - 1) / (2 * k - 1), abs=0.01)
    assert _slope(ns, ours) == pytest.approx(-(k - 1) / k, abs=1e-9)
    assert naive[-1] / ours[-1] > naive[0] / ours[0] > 0


@pytest.mark.claim("heavy_tailed:Remark 5.6")
@pytest.mark.parametrize("q", [0.5, 1.0, 1.6])
def test_remark_5_6_d_exponents_of_theorem_5_5(q):
    """Theorem 5.5's two terms, from the proof (Theorem 3.1's M B with Lemma B.4's bias d^(3/2) tau/n + sqrt(d)/tau),
    evaluated at the code's schedule_thm55 over d = 2 .. 64: the non-private term M d^(3/2) tau / n grows as
    d^((3-q)/2) and the private M sqrt(d) / tau as d^((1+q)/2) (Remark 5.6: d^(5/4) and d^(3/4) at q = 1/2, both
    d at q = 1, the d / sqrt(n) that improves on [WXDX20]'s d / n^(1/3)); each decays as n^(-1/2)."""
    n, rho, M = 10 ** 9, 0.8, 1.3
    ds = [2, 4, 8, 16, 32, 64]
    first, second = [], []
    for d in ds:
        s = ht.schedule_thm55(n, d, rho, q, M=M, strict=False)
        first.append(M * d ** 1.5 * s.tau / n)
        second.append(M * math.sqrt(d) / s.tau)
    assert _slope(ds, first) == pytest.approx((3 - q) / 2, abs=1e-9)
    assert _slope(ds, second) == pytest.approx((1 + q) / 2, abs=1e-9)
    ns = [10 ** 7, 10 ** 8, 10 ** 9]
    s_n = [ht.schedule_thm55(nn, 8, rho, q, M=M, strict=False) for nn in ns]
    assert _slope(ns, [M * 8 ** 1.5 * s.tau / nn for s, nn in zip(s_n, ns)]) == pytest.approx(-0.5, abs=1e-9)
    assert _slope(ns, [M * math.sqrt(8) / s.tau for s in s_n]) == pytest.approx(-0.5, abs=1e-9)


@pytest.mark.claim("heavy_tailed:Schedules")
@pytest.mark.parametrize("n, d, rho, k, lam, L", [
    (10**6, 3, 0.7, 3.5, 0.6, 2.2),
    (5 * 10**5, 2, 2.3, 2.0, 1.0, 1.0),
    (3 * 10**6, 5, 0.4, 6.0, 0.3, 4.0),
])
def test_schedule_thm57_is_the_theorem(n, d, rho, k, lam, L):
    """Theorem 5.7 as resolved in heavy_tailed-E05, recomputed from the formulas: G0 = sqrt(d/n) + sqrt(d)
    (sqrt(d)/(sqrt(rho) n))^((k-1)/k), T = ceil(log((lam+L) G0/(lam L)) / log(1 - lam L/(lam+L)^2)), eta = 1/(lam+L),
    and Lemma B.5's truncation tau = (sqrt(rho) n / (sqrt(d) T^(3/2)))^(1/k) (the per-call budget rho/T and the
    batch n/T both enter it: T^(3/2), not T^(1/2)); beta = min(1/2, T d/n + d (sqrt(d) T^(3/2)/(sqrt(rho) n))^((2k-2)/k)),
    m = ceil(4 log(2d/beta)), batches of floor(n/T). T > 1 at every row, so a wrong power of T is seen."""
    q = lam * L / (lam + L) ** 2
    G0 = (d / n) ** 0.5 + d ** 0.5 * (d ** 0.5 / (rho ** 0.5 * n)) ** ((k - 1) / k)
    T = max(1, math.ceil(math.log((lam + L) * G0 / (lam * L)) / math.log(1 - q)))
    assert T > 1
    tau = (rho ** 0.5 * n / (d ** 0.5 * T ** 1.5)) ** (1 / k)
    beta = min(0.5, T * d / n + d * (d ** 0.5 * T ** 1.5 / (rho ** 0.5 * n)) ** ((2 * k - 2) / k))
    s = ht.schedule_thm57(n, d, rho, k, lam=lam, L=L, strict=False)
    assert s.T == T and s.eta == pytest.approx(1 / (lam + L), rel=1e-14)
    assert s.tau == pytest.approx(tau, rel=1e-12)
    assert s.beta == pytest.approx(beta, rel=1e-12)
    assert s.m == math.ceil(4 * math.log(2 * d / beta)) and s.batch == n // T
