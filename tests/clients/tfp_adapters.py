"""TF Privacy's tree aggregation behind the reference's ``conform`` signatures (tensorflow-privacy 0.9.0,
tensorflow 2.15.1; ``pip install .[clients]``, tox env ``clients``).

TF Privacy ships the tree of the online paper's Algorithm 5 (PrivateSum) in its production form (DP-FTRL):
``tree_aggregation.TreeAggregator`` (the plain tree: each released cumulative sum carries the noise of the
dyadic nodes that tile it), ``tree_aggregation.EfficientTreeAggregator`` (Honaker 2015: every node's value
is re-estimated from its own noisy sum and its children's, a lower-variance read-out of the same noisy nodes)
and ``tree_aggregation_query.TreeCumulativeSumQuery`` (the ``DPQuery`` a TF Privacy user builds with
``build_l2_gaussian_query``: records clipped to ``clip_norm``, Gaussian node noise of standard deviation
``clip_norm * noise_multiplier``, ``use_efficient=True`` by default). The functions here call them as a TF
Privacy user does and give the result the signature conform calls:

==============================  =================================================================================
core:private_prefix_sums        ``tree_aggregator_prefix_sums``: ``TreeAggregator(GaussianNoiseGenerator(
                                noise_std=sigma))`` gives the cumulative *noise* of each step (the aggregator
                                never sees the data, as in its docstring's example); the adapter adds it to the
                                exact prefix sums (float64). ``norm_bound`` is checked here (TF sees no items).
                                ``query_prefix_sums``: ``TreeCumulativeSumQuery.build_l2_gaussian_query(
                                clip_norm, noise_multiplier=sigma / clip_norm, use_efficient=False)``, one record
                                per step (``accumulate_record`` then ``get_noised_result``); ``clip_norm`` is the
                                case's ``norm_bound``, else the largest item norm (nothing clipped). float32 end to
                                end, as TF Privacy computes.
                                ``efficient_*``: the same with ``EfficientTreeAggregator`` / ``use_efficient=True``
                                (the query's default): a different law (module docstring of test_tfp_tree.py).
online:Algorithm 5              ``query_private_sum``: sigma = reference.algorithms.online:tree_sigma(R, T,
                                epsilon, delta, calibration) (the contract's function for a port without an
                                accountant; TF Privacy calibrates nothing itself), then the query above at
                                ``clip_norm = R``, ``noise_multiplier = sigma / R``; ``tree_aggregator_private_sum``:
                                ``TreeAggregator`` noise at that sigma added to the float64 sums.
==============================  =================================================================================

Randomness: TF Privacy's ``GaussianNoiseGenerator`` draws ``tf.random.stateless_normal`` at a seed pair that
advances by +1 (both entries) per node. The adapters draw the pair from ``rng`` (two integers below 2^62), so a
seed gives the same run (determinism) and runs are independent: two runs seeded ``(s, u)`` and ``(s + 1, u + 1)``
would share all but one node's noise (measured: tests/clients/test_tfp_tree.py). The seed enters the compiled
program through the public ``GaussianNoiseGenerator.make_state`` and the aggregator's / query's public
``reset_state`` (what ``RestartQuery`` does), so one ``tf.function`` is traced per (T, item shape, variant) and
then runs one stream in about 1.5 ms of CPU (eager TF costs about 0.1 s per tree step).

Wrong variants (each must be rejected by conform; tests/clients/test_tfp_tree.py): ``*_half_noise`` (half the
standard deviation), ``*_level_noise`` (a ``ValueGenerator`` seeded by the node's level instead of its index:
every node of one level carries the same noise) and ``*_shifted`` (the tree stepped once before the first item:
release t carries the noise of the tiling of [1, t + 1], the node layout shifted by one leaf), for both ids.
"""

from __future__ import annotations

import collections
import functools
import os

import numpy as np

from reference.errors import ParameterError, ShapeError

_SEED_BOUND = 2 ** 62


@functools.lru_cache(maxsize=1)
def _tf():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    from tensorflow_privacy.privacy.dp_query import tree_aggregation, tree_aggregation_query

    try:   # the shared 2-core machine: one TF thread (only possible before TF's first op)
        tf.config.threading.set_intra_op_parallelism_threads(1)
        tf.config.threading.set_inter_op_parallelism_threads(1)
    except RuntimeError:
        pass
    return tf, tree_aggregation, tree_aggregation_query


def _stream(xs, name="xs") -> np.ndarray:
    arr = np.asarray(xs, dtype=float)
    if arr.ndim == 0 or arr.shape[0] < 1:
        raise ShapeError(name, "a stream of items along axis 0", f"shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ParameterError(name, "finite numbers", "non-finite entries")
    return arr


def _nonnegative(value, name) -> float:
    v = float(value)
    if not (np.isfinite(v) and v >= 0):
        raise ParameterError(name, "a finite number >= 0", value)
    return v


def _seeds(rng):
    tf = _tf()[0]
    return tf.constant(rng.integers(0, _SEED_BOUND, size=2), dtype=tf.int64)


def _level_generator_class():
    """A ``ValueGenerator`` (TF Privacy's public base class) that seeds each node's stateless draw by the node's
    *level* instead of its index: every node of a level gets the same noise (a wrong variant). The k-th node a
    ``TreeAggregator`` creates (k = 0 at init, then one per step) sits at level = the number of trailing ones of
    k (the lowest level that switches from a right child to a left child)."""
    tf, ta, _ = _tf()
    State = collections.namedtuple("LevelSeededState", ["base", "count", "stddev"])

    class LevelSeededNoise(ta.ValueGenerator):
        def __init__(self, specs):
            self._specs = specs

        def initialize(self):
            return State(tf.constant([0, 0], tf.int64), tf.constant(0, tf.int64), tf.constant(1.0, tf.float32))

        def make_state(self, seeds, stddev):
            return State(tf.cast(seeds, tf.int64), tf.constant(0, tf.int64), tf.cast(stddev, tf.float32))

        def next(self, state):
            k = state.count
            level = tf.constant(0, tf.int64)
            bits = k
            while tf.equal(tf.math.floormod(bits, 2), 1):
                level += 1
                bits = tf.math.floordiv(bits, 2)
            noise = tf.random.stateless_normal(self._specs.shape, seed=state.base + level, stddev=state.stddev)
            return noise, State(state.base, k + 1, state.stddev)

    return LevelSeededNoise


@functools.lru_cache(maxsize=64)
def _noise_program(T: int, shape: tuple, efficient: bool, variant: str):
    """A compiled run of T steps of TF Privacy's aggregator: (seeds, stddev) -> the (T, *shape) cumulative noise."""
    tf, ta, _ = _tf()
    spec = tf.TensorSpec(shape, tf.float32)
    gen = (_level_generator_class()(spec) if variant == "level" else
           ta.GaussianNoiseGenerator(noise_std=1.0, specs=spec, seed=0))
    agg = (ta.EfficientTreeAggregator if efficient else ta.TreeAggregator)(gen)

    @tf.function(input_signature=[tf.TensorSpec([2], tf.int64), tf.TensorSpec([], tf.float32)])
    def run(seeds, stddev):
        state = agg.init_state()
        state = agg.reset_state(state._replace(value_generator_state=gen.make_state(seeds, stddev)))
        if variant == "shifted":
            _, state = agg.get_cumsum_and_update(state)
        out = []
        for _ in range(T):
            noise, state = agg.get_cumsum_and_update(state)
            out.append(noise)
        return tf.stack(out)

    return run


@functools.lru_cache(maxsize=64)
def _query_program(T: int, shape: tuple, clip_norm: float, noise_multiplier: float, efficient: bool):
    """A compiled run of ``TreeCumulativeSumQuery`` over T steps, one record a step: (seeds, records) -> the
    (T, *shape) released noisy cumulative sums (float32)."""
    tf, ta, tq = _tf()
    spec = tf.TensorSpec(shape, tf.float32)
    stddev = clip_norm * noise_multiplier
    # what build_l2_gaussian_query(clip_norm, noise_multiplier, spec, noise_seed=0, use_efficient) builds, through
    # the public constructor so that the generator (and its make_state) is in hand
    gen = ta.GaussianNoiseGenerator(noise_std=stddev, specs=spec, seed=0)

    def l2_clip_fn(record_as_list, clip):
        clipped, _ = tf.clip_by_global_norm(record_as_list, clip)
        return clipped

    query = tq.TreeCumulativeSumQuery(record_specs=spec, noise_generator=gen, clip_fn=l2_clip_fn,
                                      clip_value=clip_norm, use_efficient=efficient)
    template = tf.zeros(shape, tf.float32)

    @tf.function(input_signature=[tf.TensorSpec([2], tf.int64), tf.TensorSpec((T,) + shape, tf.float32)])
    def run(seeds, records):
        state = query.initial_global_state()
        tree = state.tree_state
        # reseed the tree through the public API (as RestartQuery restarts it): the generator's state at this seed
        tree = tree._replace(value_generator_state=gen.make_state(seeds, stddev))
        state = query.reset_state(tf.zeros(shape, tf.float32), state._replace(tree_state=tree))
        out = []
        for t in range(T):
            params = query.derive_sample_params(state)
            sample = query.initial_sample_state(template)
            sample = query.accumulate_record(params, sample, records[t])
            released, state, _event = query.get_noised_result(sample, state)
            out.append(released)
        return tf.stack(out)

    return run


def _aggregator_sums(xs, sigma, rng, sensitivity, norm_bound, efficient, variant, scale=1.0):
    xs = _stream(xs)
    sigma = _nonnegative(sigma, "sigma")
    _nonnegative(sensitivity, "sensitivity")
    if norm_bound is not None:
        bound = _nonnegative(norm_bound, "norm_bound")
        norms = np.linalg.norm(xs.reshape(xs.shape[0], -1), axis=1)
        if np.any(norms > bound * (1 + 1e-12)):
            raise ParameterError("xs", f"items of l2 norm <= norm_bound = {bound:g} (nothing is clipped)",
                                 f"an item of norm {norms.max():.6g}")
    tf = _tf()[0]
    run = _noise_program(xs.shape[0], tuple(xs.shape[1:]), efficient, variant)
    noise = run(_seeds(rng), tf.constant(sigma * scale, tf.float32)).numpy().astype(float)
    return np.cumsum(xs, axis=0) + noise


def _query_sums(xs, sigma, rng, clip_norm, efficient, scale=1.0):
    xs = _stream(xs)
    sigma = _nonnegative(sigma, "sigma")
    if clip_norm is None:
        clip_norm = float(np.max(np.linalg.norm(xs.reshape(xs.shape[0], -1), axis=1))) or 1.0
    clip_norm = float(clip_norm)
    if not clip_norm > 0:
        raise ParameterError("clip_norm", "> 0 (TF Privacy refuses clip_norm <= 0)", clip_norm)
    run = _query_program(xs.shape[0], tuple(xs.shape[1:]), clip_norm, sigma * scale / clip_norm, efficient)
    tf = _tf()[0]
    return run(_seeds(rng), tf.constant(xs, tf.float32)).numpy().astype(float)


# ---- core:private_prefix_sums ----------------------------------------------------------------------------

def tree_aggregator_prefix_sums(xs, sigma, sensitivity, rng, norm_bound=None):
    """``TreeAggregator`` noise added to the exact prefix sums."""
    return _aggregator_sums(xs, sigma, rng, sensitivity, norm_bound, False, "plain")


def efficient_tree_aggregator_prefix_sums(xs, sigma, sensitivity, rng, norm_bound=None):
    """``EfficientTreeAggregator`` (Honaker's variance-reduced read-out) noise added to the exact prefix sums."""
    return _aggregator_sums(xs, sigma, rng, sensitivity, norm_bound, True, "plain")


def tree_aggregator_prefix_sums_half_noise(xs, sigma, sensitivity, rng, norm_bound=None):
    """Wrong: half the node noise's standard deviation."""
    return _aggregator_sums(xs, sigma, rng, sensitivity, norm_bound, False, "plain", scale=0.5)


def tree_aggregator_prefix_sums_level_noise(xs, sigma, sensitivity, rng, norm_bound=None):
    """Wrong: node noise seeded by level, so every node of a level carries the same draw."""
    return _aggregator_sums(xs, sigma, rng, sensitivity, norm_bound, False, "level")


def tree_aggregator_prefix_sums_shifted(xs, sigma, sensitivity, rng, norm_bound=None):
    """Wrong: the tree stepped once before the first item (release t carries the tiling of [1, t + 1])."""
    return _aggregator_sums(xs, sigma, rng, sensitivity, norm_bound, False, "shifted")


def query_prefix_sums(xs, sigma, sensitivity, rng, norm_bound=None):
    """``TreeCumulativeSumQuery`` (plain tree), ``clip_norm`` = ``norm_bound`` (else the largest item norm)."""
    _nonnegative(sensitivity, "sensitivity")
    return _query_sums(xs, sigma, rng, norm_bound, False)


def efficient_query_prefix_sums(xs, sigma, sensitivity, rng, norm_bound=None):
    """``TreeCumulativeSumQuery`` with its default ``use_efficient=True``."""
    _nonnegative(sensitivity, "sensitivity")
    return _query_sums(xs, sigma, rng, norm_bound, True)


# ---- online:Algorithm 5 (PrivateSum) ---------------------------------------------------------------------

def _private_sum(W, R, epsilon, delta, calibration, rng, efficient, scale=1.0):
    from reference.algorithms.online import tree_sigma

    W = _stream(W, "W")
    sigma = tree_sigma(R, W.shape[0], epsilon, delta, calibration)
    norms = np.linalg.norm(W.reshape(W.shape[0], -1), axis=1)
    if np.any(norms > float(R) * (1 + 1e-12)):
        raise ParameterError("W", f"items of l2 norm <= R = {float(R):g} (TF Privacy would clip them)",
                             f"an item of norm {norms.max():.6g}")
    return _query_sums(W, sigma, rng, float(R), efficient, scale=scale)


def query_private_sum(W, R, epsilon, delta, calibration, rng):
    """``TreeCumulativeSumQuery`` (plain tree) at the contract's sigma, clip_norm = R."""
    return _private_sum(W, R, epsilon, delta, calibration, rng, False)


def efficient_query_private_sum(W, R, epsilon, delta, calibration, rng):
    """The same with ``use_efficient=True`` (the query's default)."""
    return _private_sum(W, R, epsilon, delta, calibration, rng, True)


def query_private_sum_half_noise(W, R, epsilon, delta, calibration, rng):
    """Wrong: noise_multiplier halved."""
    return _private_sum(W, R, epsilon, delta, calibration, rng, False, scale=0.5)


def _aggregator_private_sum(W, R, epsilon, delta, calibration, rng, variant):
    from reference.algorithms.online import tree_sigma

    W = _stream(W, "W")
    sigma = tree_sigma(R, W.shape[0], epsilon, delta, calibration)
    return _aggregator_sums(W, sigma, rng, 2.0 * float(R), float(R), False, variant)


def tree_aggregator_private_sum(W, R, epsilon, delta, calibration, rng):
    """``TreeAggregator`` noise at the contract's sigma added to the exact prefix sums (items checked <= R)."""
    return _aggregator_private_sum(W, R, epsilon, delta, calibration, rng, "plain")


def tree_aggregator_private_sum_level_noise(W, R, epsilon, delta, calibration, rng):
    """Wrong: node noise seeded by level (one draw per level)."""
    return _aggregator_private_sum(W, R, epsilon, delta, calibration, rng, "level")


def tree_aggregator_private_sum_shifted(W, R, epsilon, delta, calibration, rng):
    """Wrong: the tree stepped once before the first item."""
    return _aggregator_private_sum(W, R, epsilon, delta, calibration, rng, "shifted")
