"""Tests of reference/privacy/tree.py (binary-tree aggregation for private prefix sums).

Node sets are checked against an independent brute-force enumeration (every dyadic
interval ``(j 2^h, (j+1) 2^h]`` that fits in ``[1, T]``), exactness against
``np.cumsum``, and the noise law by chi-square / z tests at fixed seeds with the
false-alarm rates stated in each test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from scipy import stats

from reference.errors import AssumptionViolation, NonFiniteError, ParameterError, ShapeError
from reference.privacy.ledger import Ledger
from reference.privacy.tree import (
    BinaryTreeAggregator,
    max_nodes_per_item,
    nodes_containing,
    prefix_nodes,
    private_prefix_sums,
    tree_sensitivity,
)

from ..junk import assert_package_error_or_nan_free


def brute_populated(T):
    """Every dyadic node whose interval (j 2^h, (j+1) 2^h] lies inside [1, T]."""
    return {(h, j) for h in range(T.bit_length() + 1) for j in range(T + 1) if (j + 1) * 2**h <= T}


def interval(node):
    h, j = node
    return range(j * 2**h + 1, (j + 1) * 2**h + 1)


def greedy_cover(t):
    """Independent decomposition of [1, t]: from the left, the largest aligned block that fits."""
    nodes, start = [], 0
    while start < t:
        h = 0
        while start % 2 ** (h + 1) == 0 and start + 2 ** (h + 1) <= t:
            h += 1
        nodes.append((h, start // 2**h))
        start += 2**h
    return nodes


def floor_log2(n):
    return int(math.floor(math.log2(n)))   # exact for the integers used here (< 2^52)


# ---------------------------------------------------------------------------
# Node bookkeeping

@pytest.mark.claim("core:Tree prefix nodes")
def test_prefix_nodes_tile_the_prefix_with_popcount_nodes():
    for t in range(1, 1100):
        nodes = prefix_nodes(t)
        covered = [i for node in nodes for i in interval(node)]
        assert covered == list(range(1, t + 1))                       # an exact tiling, in order
        assert nodes == greedy_cover(t)
        assert len(nodes) == bin(t).count("1") <= floor_log2(t) + 1
        assert len({h for h, _ in nodes}) == len(nodes)                # at most one node per level
    for T in range(1, 600):
        assert max(len(prefix_nodes(t)) for t in range(1, T + 1)) == floor_log2(T + 1)


@pytest.mark.claim("core:Tree prefix nodes")
@pytest.mark.claim("core:Tree sensitivity")
def test_leaf_coverage_and_populated_count_match_brute_force():
    for T in list(range(1, 130)) + [255, 256, 257, 1000, 1024, 1025]:
        populated = brute_populated(T)
        assert len(populated) == 2 * T - bin(T).count("1")
        m = max_nodes_per_item(T)
        assert m == floor_log2(T) + 1
        taus = range(1, T + 1) if T < 130 else sorted({1, 2, 3, T // 2, T // 2 + 1, T - 1, T})
        for tau in taus:
            containing = {node for node in populated if tau in interval(node)}
            assert set(nodes_containing(tau, T)) == containing
            assert len(containing) <= m
        assert len(nodes_containing(1, T)) == m                        # attained by the first item


@pytest.mark.claim("core:Tree prefix nodes")
@pytest.mark.parametrize("T,d", [(1, 1), (8, 3), (37, 2), (64, 1)])
def test_each_node_is_populated_once_with_one_noise_draw(T, d):
    """Populated node set equals brute force; noise drawn once per node (the generator advanced by exactly
    #nodes * d normals) and reused by every later query."""
    rng = np.random.default_rng(99)
    tree = BinaryTreeAggregator(T, 1.0, rng, sensitivity=1.0)
    released = []
    for t in range(1, T + 1):
        released.append(tree.add(np.full(d, float(t))))
        assert set(tree.node_sums()) == brute_populated(t)          # no node before all its items arrive
    assert set(tree.noisy_node_sums()) == brute_populated(T)
    twin = np.random.default_rng(99)
    twin.standard_normal((len(brute_populated(T)), d))
    assert rng.standard_normal() == twin.standard_normal()
    for t in range(1, T + 1):
        np.testing.assert_array_equal(tree.prefix_sum(t), released[t - 1])


# ---------------------------------------------------------------------------
# Exactness and sensitivity

stream_shapes = st.sampled_from([(), (1,), (3,), (2, 2)])


@pytest.mark.claim("core:Tree exactness without noise")
@given(T=st.integers(1, 300), shape=stream_shapes, integer=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_zero_noise_gives_the_exact_prefix_sums(T, shape, integer, seed):
    gen = np.random.default_rng(seed)
    xs = gen.integers(-1000, 1000, (T,) + shape).astype(float) if integer else gen.normal(0, 1e3, (T,) + shape)
    result = private_prefix_sums(xs, 0.0, np.random.default_rng(0), sensitivity=1.0)
    exact = np.cumsum(xs, axis=0)
    if integer:
        np.testing.assert_array_equal(result.prefix_sums, exact)
    else:
        np.testing.assert_allclose(result.prefix_sums, exact, rtol=1e-12, atol=1e-9 * np.abs(xs).sum())
    assert len(result.ledger) == 0
    assert [list(n) for n in result.nodes_used] == [prefix_nodes(t) for t in range(1, T + 1)]


@pytest.mark.claim("core:Tree sensitivity")
@given(data=st.data())
def test_changing_one_item_moves_only_its_nodes_within_the_recorded_sensitivity(data):
    T = data.draw(st.integers(1, 200))
    d = data.draw(st.integers(1, 4))
    R = data.draw(st.floats(0.1, 10))
    tau = data.draw(st.integers(1, T))
    gen = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    xs = gen.normal(size=(T, d))
    xs *= R / np.maximum(np.linalg.norm(xs, axis=1, keepdims=True), R)       # rows in the ball of radius R
    ys = xs.copy()
    ys[tau - 1] = -xs[tau - 1] if data.draw(st.booleans()) else 0.0
    trees = []
    for stream in (xs, ys):
        tree = BinaryTreeAggregator(T, 0.0, np.random.default_rng(0), sensitivity=2 * R, norm_bound=R)
        for x in stream:
            tree.add(x)
        trees.append(tree.node_sums())
    a, b = trees
    changed = {node for node in a if not np.array_equal(a[node], b[node])}
    assert changed <= set(nodes_containing(tau, T))
    assert len(nodes_containing(tau, T)) <= floor_log2(T) + 1
    for node in nodes_containing(tau, T):
        np.testing.assert_allclose(a[node] - b[node], xs[tau - 1] - ys[tau - 1], atol=1e-12 * (1 + T * R))
    joint = math.sqrt(sum(float(np.sum((a[n] - b[n]) ** 2)) for n in a))
    ledger = Ledger()
    BinaryTreeAggregator(T, 1.0, np.random.default_rng(0), sensitivity=2 * R, ledger=ledger)
    (event,) = ledger.events
    assert (event.kind, event.norm, event.noise_scale) == ("gaussian", "l2", 1.0)
    assert event.sensitivity == pytest.approx(math.sqrt(floor_log2(T) + 1) * 2 * R, rel=1e-15)
    assert joint <= event.sensitivity * (1 + 1e-9)


@pytest.mark.claim("core:Tree sensitivity")
@pytest.mark.parametrize("T", [1, 2, 7, 8, 100, 1024])
def test_recorded_tree_sensitivity_is_attained_by_the_first_item(T):
    """Item 1 lies in floor(log2 T)+1 populated nodes, so its worst change attains sqrt(m) * Delta exactly."""
    xs = np.zeros((T, 2))
    ys = xs.copy()
    ys[0] = [3.0, 4.0]                       # change of l2 norm 5 = Delta
    sums = []
    for stream in (xs, ys):
        tree = BinaryTreeAggregator(T, 0.0, np.random.default_rng(0), sensitivity=5.0)
        for x in stream:
            tree.add(x)
        sums.append(tree.node_sums())
    joint = math.sqrt(sum(float(np.sum((sums[0][n] - sums[1][n]) ** 2)) for n in sums[0]))
    assert joint == pytest.approx(tree_sensitivity(T, 5.0), rel=1e-14)
    assert tree_sensitivity(T, 5.0) == pytest.approx(5.0 * math.sqrt(floor_log2(T) + 1), rel=1e-15)


# ---------------------------------------------------------------------------
# Noise law

@pytest.mark.claim("core:Tree prefix noise law")
def test_prefix_noise_variance_is_nodes_used_times_sigma_squared():
    """One tree over T=37 zero items of dimension d=20000: the d coordinates of each prefix error are i.i.d.
    N(0, k_t sigma^2), k_t = #nodes used. Chi-square variance test per t, two-sided, Bonferroni over the 37
    prefixes: overall false-alarm rate 1e-3. Negative control: the variances (k_t + 1) sigma^2 (one node too
    many) and ceil(ln t)-based counts are rejected.
    Covariances: Cov(err_s, err_t) = |N_s & N_t| sigma^2 by z-tests over all pairs, |z| < 5 (per-pair
    false alarm 5.7e-7, overall < 4e-4)."""
    T, d, sigma = 37, 20_000, 1.5
    tree = BinaryTreeAggregator(T, sigma, np.random.default_rng(2026), sensitivity=1.0)
    errors = np.array([tree.add(np.zeros(d)) for _ in range(T)])          # (T, d); exact sums are 0
    alpha = 1e-3 / T

    def p_two_sided(t, k):
        stat = np.sum(errors[t - 1] ** 2) / (k * sigma**2)
        cdf = stats.chi2.cdf(stat, d)
        return 2 * min(cdf, 1 - cdf)

    for t in range(1, T + 1):
        k = len(greedy_cover(t))
        assert len(tree.nodes_used(t)) == k
        assert p_two_sided(t, k) > alpha
        assert p_two_sided(t, k + 1) < alpha                                # negative control
    assert p_two_sided(7, max(1, math.ceil(math.log(7)))) < alpha           # ln-based count (2) is wrong at t=7

    for s in range(1, T + 1):
        for t in range(s + 1, T + 1):
            shared = len(set(greedy_cover(s)) & set(greedy_cover(t)))
            ks, kt = len(greedy_cover(s)), len(greedy_cover(t))
            cov = np.mean(errors[s - 1] * errors[t - 1]) / sigma**2
            se = math.sqrt((ks * kt + shared**2) / d)
            assert abs(cov - shared) / se < 5, (s, t, cov, shared)


# ---------------------------------------------------------------------------
# Online interface, ledger, determinism, validation

def test_online_queries_reuse_node_noise_and_ledger_has_one_event():
    ledger = Ledger()
    tree = BinaryTreeAggregator(10, 0.5, np.random.default_rng(4), sensitivity=2.0, ledger=ledger, label="V")
    outs = [tree.add([1.0, 2.0]) for _ in range(6)]
    for t, out in enumerate(outs, start=1):
        np.testing.assert_array_equal(tree.prefix_sum(t), out)
    np.testing.assert_array_equal(tree.prefix_sum(), outs[-1])
    assert len(ledger) == 1 and ledger.events[0].label == "V"
    assert ledger.events[0].sensitivity == pytest.approx(2.0 * math.sqrt(4), rel=1e-15)   # floor(log2 10)+1 = 4


def test_functional_form_records_the_tree_event():
    xs = np.ones((16, 3))
    result = private_prefix_sums(xs, 2.0, np.random.default_rng(0), sensitivity=1.0, relation="add-remove")
    (event,) = result.ledger.events
    assert (event.sensitivity, event.noise_scale, event.relation) == (math.sqrt(5), 2.0, "add-remove")
    assert result.prefix_sums.shape == (16, 3)


def test_same_seed_gives_identical_bits():
    xs = np.random.default_rng(1).normal(size=(23, 2))
    a = private_prefix_sums(xs, 1.0, np.random.default_rng(5), sensitivity=1.0).prefix_sums
    b = private_prefix_sums(xs, 1.0, np.random.default_rng(5), sensitivity=1.0).prefix_sums
    assert a.tobytes() == b.tobytes()


rng0 = np.random.default_rng(0)

BAD_CALLS = [
    (lambda: BinaryTreeAggregator(0, 1.0, rng0, sensitivity=1.0), ParameterError, "T"),
    (lambda: BinaryTreeAggregator(4, -1.0, rng0, sensitivity=1.0), ParameterError, "sigma"),
    (lambda: BinaryTreeAggregator(4, np.nan, rng0, sensitivity=1.0), NonFiniteError, "sigma"),
    (lambda: BinaryTreeAggregator(4, 1.0, rng0, sensitivity=-1.0), ParameterError, "sensitivity"),
    (lambda: BinaryTreeAggregator(4, 1.0, "seed", sensitivity=1.0), ParameterError, "rng"),
    (lambda: BinaryTreeAggregator(4, 0.0, rng0, sensitivity=1.0, ledger=Ledger()), ParameterError, "sigma"),
    (lambda: BinaryTreeAggregator(4, 1.0, rng0, sensitivity=1.0, relation="swap"), ParameterError, "relation"),
    (lambda: BinaryTreeAggregator(4, 1.0, rng0, sensitivity=1.0).add([np.inf]), NonFiniteError, "x"),
    (lambda: BinaryTreeAggregator(4, 1.0, rng0, sensitivity=1.0).prefix_sum(1), ParameterError, "t"),
    (lambda: private_prefix_sums([], 1.0, rng0, sensitivity=1.0), ShapeError, "xs"),
    (lambda: private_prefix_sums(3.0, 1.0, rng0, sensitivity=1.0), ShapeError, "xs"),
    (lambda: prefix_nodes(0), ParameterError, "t"),
    (lambda: nodes_containing(5, 4), ParameterError, "tau"),
    (lambda: max_nodes_per_item(1.5), ParameterError, "T"),
]


@pytest.mark.claim("core:Mechanism input validation")
@pytest.mark.parametrize("call,error,name", BAD_CALLS)
def test_bad_inputs_raise_specific_errors(call, error, name):
    with pytest.raises(error) as info:
        call()
    assert info.value.name == name


@pytest.mark.claim("core:Mechanism input validation")
def test_stream_misuse_is_refused():
    tree = BinaryTreeAggregator(2, 1.0, np.random.default_rng(0), sensitivity=1.0, norm_bound=1.0)
    tree.add([0.6, 0.8])
    with pytest.raises(ShapeError):
        tree.add([0.1, 0.1, 0.1])
    with pytest.raises(AssumptionViolation):
        tree.add([1.0, 1.0])                     # norm sqrt(2) > 1: refused, never clipped
    assert tree.t == 1
    tree.add([0.0, 1.0])
    with pytest.raises(ParameterError) as info:
        tree.add([0.0, 0.0])                     # beyond the horizon T = 2
    assert info.value.name == "t"


@pytest.mark.claim("core:Mechanism input validation")
def test_overflowing_node_sums_are_refused_without_changing_the_tree():
    tree = BinaryTreeAggregator(4, 0.0, np.random.default_rng(0), sensitivity=1.0)
    tree.add(1e308)
    with pytest.raises(NonFiniteError) as info:
        tree.add(1e308)                            # node (1, 0) would be inf
    assert info.value.name == "x" and tree.t == 1 and set(tree.node_sums()) == {(0, 0)}
    assert tree.add(-1e308) == 0.0


junk = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-3, 40),
    st.just([]),
    st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=1, max_size=5),
    st.lists(st.lists(st.floats(), min_size=1, max_size=2), min_size=1, max_size=3),
    st.sampled_from([None, "abc", True, np.array([1.0, 2.0]), {"a": 1}]),
)


def _drive_tree(a, b, c, rng):
    tree = BinaryTreeAggregator(a, b, rng, sensitivity=c)
    return [tree.add(x) for x in np.atleast_1d(np.asarray(c, dtype=float))]


PUBLIC = [
    lambda a, b, c, rng: private_prefix_sums(a, b, rng, sensitivity=c).prefix_sums,
    lambda a, b, c, rng: private_prefix_sums(a, 1.0, rng, sensitivity=1.0, norm_bound=b, relation=c).prefix_sums,
    _drive_tree,
    lambda a, b, c, rng: BinaryTreeAggregator(8, 1.0, rng, sensitivity=1.0, ledger=Ledger(), label=a).add(b),
    lambda a, b, c, rng: prefix_nodes(a),
    lambda a, b, c, rng: nodes_containing(a, b),
    lambda a, b, c, rng: max_nodes_per_item(a),
    lambda a, b, c, rng: tree_sensitivity(a, b),
]


@pytest.mark.claim("core:Mechanism input validation")
@pytest.mark.parametrize("index", range(len(PUBLIC)))
@given(a=junk, b=junk, c=junk, seed=st.integers(0, 2**32 - 1))
def test_junk_inputs_raise_package_errors_or_give_nan_free_results(index, a, b, c, seed):
    """Every public function of tree.py, driven with arbitrary inputs: a package error or a NaN-free result."""
    assert_package_error_or_nan_free(lambda: PUBLIC[index](a, b, c, np.random.default_rng(seed)))
