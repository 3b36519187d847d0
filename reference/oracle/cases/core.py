"""Test-vector cases of the core building blocks: the Gaussian, Laplace and exponential mechanisms and
report-noisy-max, then report-noisy-min, the truncated geometric law and binary-tree private prefix sums.

Each case calls the building block itself: their arguments are already plain arrays and numbers
(``private_prefix_sums`` returns a result object; the vector's output is its ``prefix_sums``).
docs/vectors.md says, per id, what is replayed and how.
"""

from __future__ import annotations

import numpy as np

from ..properties import Holds, Refuses, ZeroNoise
from ..statistics import WhitenedTreeError
from ..vectors import VectorCase

_M = "reference.privacy.mechanisms"
_TREE = "reference.privacy.tree:private_prefix_sums"

_FIVE = (0.0, 1.0, 2.0, 0.5, 1.5)


def _index(out) -> float:
    return float(out)


class _Item1Statistic:  # noqa: N801
    """sum_h W_(2^h) (first coordinate), h = 0..floor(log2 T): W_(2^h) is exactly the noisy node (h, 0),
    and the nodes (h, 0) are the ones containing item 1, so this sum is the likelihood-ratio statistic of
    the pair "item 1 changed" (a Gaussian shift of sqrt(m) sensitivity / sigma in units of its sd)."""

    def __init__(self, T: int):
        self.times = [2 ** h - 1 for h in range(T.bit_length())]   # 0-based rows of W_1, W_2, W_4, ...

    def __call__(self, prefix_sums) -> float:
        W = np.asarray(prefix_sums, dtype=float).reshape(len(prefix_sums), -1)
        return float(sum(W[t, 0] for t in self.times))


class _Item1OrLeak:  # noqa: N801
    """The item-1 statistic (:class:`_Item1Statistic`) plus ``bonus`` when the releases satisfy, to rounding,
    the relation W_1 + W_2 - W_3 = x_1 - x_3 of the case's own stream (first coordinate). With independent
    node noise that combination carries the noise n_(0,0) - n_(0,2), of variance 2 sigma^2, so the bonus
    never fires and the statistic is the likelihood-ratio one (an audit on it reaches the claimed mu). A tree
    whose level-0 nodes share one noise draw releases x_1 - x_3 exactly: the bonus fires on every run of the
    case's input and never on the neighbour's (whose x_1 differs), and the audit sees the leak (a statistic
    that sees the dependence between releases; any statistic is post-processing, so a private candidate
    still passes with probability >= 1 - beta)."""

    def __init__(self, T: int, xs, bonus: float = 1e3):
        self.item1, self.bonus = _Item1Statistic(T), float(bonus)
        x = np.asarray(xs, dtype=float).reshape(len(xs), -1)
        self.relation = float(x[0, 0] - x[2, 0])

    def __call__(self, prefix_sums) -> float:
        W = np.asarray(prefix_sums, dtype=float).reshape(len(prefix_sums), -1)
        r = W[0, 0] + W[1, 0] - W[2, 0]
        leak = abs(r - self.relation) <= 1e-9 * max(1.0, abs(self.relation))
        return self.item1(prefix_sums) + (self.bonus if leak else 0.0)


def _exact_prefix(kw):
    """The exact prefix sums of the case's stream (np.cumsum): the tree's output without noise."""
    return np.cumsum(np.asarray(kw["xs"], dtype=float), axis=0)


_STREAM = np.array([0.5, -0.25, 1.0, 0.0, -0.75, 0.25, 0.5])        # T = 7 scalar items, |x_t| <= 1
_SIGMA_TREE = 2.5    # claimed mu = sqrt(floor(log2 7) + 1) * 1 / 2.5 = sqrt(3) / 2.5 = 0.693


def _tree_kwargs(first: float = 0.5) -> dict:
    xs = _STREAM.copy()
    xs[0] = first
    return {"xs": xs, "sigma": _SIGMA_TREE, "sensitivity": 1.0}


def _tree8_kwargs() -> dict:
    xs = np.random.default_rng(23).uniform(-0.9, 0.9, (8, 2))
    return {"xs": xs, "sigma": 0.7, "sensitivity": 1.3, "norm_bound": 1.3}


def _item_above_the_bound(kwargs) -> dict:
    """The privacy proof's domain is ||x_t||_2 <= norm_bound: an item outside it must be refused, not clipped."""
    xs = np.array(kwargs["xs"], dtype=float)
    xs[3] = [0.0, 1.5]
    return {"xs": xs}


def _prefix_sums(result):
    return result.prefix_sums


def _index_in_range(kwargs, out) -> bool:
    k = np.asarray(kwargs["scores"]).size
    return float(out) == int(out) and 0 <= int(out) < k


def _level_in_range(kwargs, out) -> bool:
    return float(out) == int(out) and 0 <= int(out) <= kwargs["M"]


_MECHANISM = "a mechanism: no convergence claim"
_SELECTION_NA = {"sparsity": "the output is an index", "rate": _MECHANISM,
                 "zero-noise": "the scale must be > 0 (scale = 0 is refused, not a noiseless setting)"}
_SELECTION_INVARIANTS = (Holds(_index_in_range, "the output is the index of one of the k candidates"),)


# sigma = 0 is accepted (without a ledger event): the tree then releases the exact prefix sums
_EXACT_WITHOUT_NOISE = ZeroNoise({"sigma": 0.0}, lambda kw: np.cumsum(np.asarray(kw["xs"], dtype=float), axis=0),
                                 rtol=1e-12, atol=1e-12, what="the exact prefix sums (np.cumsum)")
_TREE_NA = {"feasibility": "prefix sums are unconstrained", "sparsity": "the algorithm promises no sparsity",
            "rate": "a counter: no convergence claim"}

# ---- The additive, exponential and report-noisy-max mechanisms: the first cases



def _first_coordinate(out) -> float:
    return float(np.asarray(out)[0])


class _first_noise_magnitude:  # noqa: N801 - used like a function
    """|output[0] - value[0]|: the size of the first coordinate's noise. A law check on it sees a
    wrong noise scale directly (the signed output mixes both tails and needs about 2x the runs)."""

    def __init__(self, value0: float):
        self.value0 = value0

    def __call__(self, out) -> float:
        return abs(float(np.asarray(out)[0]) - self.value0)


class _noise_sum:  # noqa: N801 - used like a function
    """sum_i (output_i - value_i): the sum of the noise over the coordinates. Independent coordinates give a
    symmetric law of variance d Var(noise); noise shared by the coordinates (one draw added to all) gives d^2
    Var(noise), one-sided noise (|Laplace|) a law with mean d E|noise|: a law check on it sees the joint law
    and the sign, which a statistic of one coordinate's noise size cannot."""

    def __init__(self, value):
        self.value = np.asarray(value, dtype=float)

    def __call__(self, out) -> float:
        return float(np.sum(np.asarray(out, dtype=float) - self.value))


class _FirstOrLeak:  # noqa: N801
    """The first coordinate (the likelihood-ratio statistic of the pair that moves it) plus ``bonus`` when
    output_0 - output_1 equals value_0 - value_1 of the case's own input, to rounding. With independent noise
    that difference carries the noise of two coordinates (a continuous law), so the bonus never fires and the
    audit is the first coordinate's; a mechanism adding one draw to every coordinate releases the difference
    exactly: the bonus fires on every run of the case's input and never on the neighbour's (whose first value
    differs), and the audit sees the leak (the tree's :class:`_Item1OrLeak` likewise)."""

    def __init__(self, value, bonus: float = 1e3):
        v = np.asarray(value, dtype=float)
        self.difference, self.bonus = float(v[0] - v[1]), float(bonus)

    def __call__(self, out) -> float:
        o = np.asarray(out, dtype=float)
        r = float(o[0] - o[1])
        leak = abs(r - self.difference) <= 1e-9 * max(1.0, abs(self.difference))
        return float(o[0]) + (self.bonus if leak else 0.0)


_ADDITIVE_VALUE = (0.5, -1.0, 2.0)


def _additive_case(mechanism: str, name: str, sensitivity: float, noise: float, seed: int,
                   privacy_runs: int, statistic: str = "first") -> VectorCase:
    """A case of the Gaussian (``noise`` = sigma) or Laplace (``noise`` = b) mechanism on the value (0.5, -1, 2).
    Its worst pair moves the first coordinate by the whole sensitivity; the claim is mu = Delta / sigma
    (Gaussian, mu-GDP) or epsilon = Delta / b (Laplace). The law check reads the first coordinate's noise size
    (``statistic="first"``, the most power against a wrong scale) or the noise summed over the coordinates
    (``"sum"``, which sees shared and one-sided noise); the privacy audit (first cases only) the first coordinate
    plus a leak bonus (:class:`_FirstOrLeak`)."""
    knob = "sigma" if mechanism == "gaussian" else "scale"

    def inputs(first: float = 0.5) -> dict:
        return {"value": np.array([first, *_ADDITIVE_VALUE[1:]]), "sensitivity": sensitivity, knob: noise}

    law = _first_noise_magnitude(0.5) if statistic == "first" else _noise_sum(_ADDITIVE_VALUE)
    if statistic == "first":
        claim = ({"claimed_mu": sensitivity / noise} if mechanism == "gaussian"
                 else {"claimed_epsilon": sensitivity / noise})
        privacy = dict(neighbour=lambda: inputs(first=0.5 + sensitivity), privacy_statistic=_FirstOrLeak(_ADDITIVE_VALUE),
                       privacy_runs=privacy_runs, **claim)
    else:
        privacy = dict(not_applicable={"privacy": "declared on the case of the same inputs whose law reads the "
                                                  "first coordinate"})
    return VectorCase(
        algorithm=f"core:{mechanism}_mechanism", name=name, reference=f"{_M}:{mechanism}_mechanism", batch=True,
        make_kwargs=inputs, seed=seed, array_args=("value",), statistic=law, n_runs=4000,
        noise_knob=(knob, 1.0), **privacy,
    )


CASES: list[VectorCase] = [
    # the worst pair: the first coordinate moves by the whole l2 (l1) sensitivity; mu = 1 / 1.5, epsilon = 1 / 2.
    # 10,000 runs a side: the control (the reference at half its noise) gives mu lower bounds 1.216 (sd 0.019)
    # and epsilon 0.874 (sd 0.021) over 20 seeds at beta 2.5e-4, 29 and 18 sd above the claims (docs/conformance.md)
    _additive_case("gaussian", "vector-3d", sensitivity=1.0, noise=1.5, seed=1, privacy_runs=10_000),
    _additive_case("laplace", "vector-3d", sensitivity=1.0, noise=2.0, seed=2, privacy_runs=10_000),
    # The same mechanisms at a sensitivity other than 1: the noise is sigma * N(0, 1) (Laplace(b)) whatever
    # Delta is, and the claim mu = Delta / sigma (epsilon = Delta / b) scales with it. At Delta = 1 a port
    # that multiplies its noise by Delta (reads sigma as a noise multiplier) is indistinguishable; here it
    # draws 0.6 x the noise: replay parts at the first output, the law check (4000 runs) rejects it at
    # p < 1e-30, and the privacy audit at this worst pair, 10000 runs a side, flags it (at beta
    # 2.5e-4, over 20 seeds: mu lower bounds 1.006, sd 0.020, against the claim 0.667; epsilon 0.719, sd 0.020,
    # against 0.5; flagged in 20 of 20).
    _additive_case("gaussian", "sensitivity0.6-vector-3d", sensitivity=0.6, noise=0.9, seed=12, privacy_runs=10_000),
    _additive_case("laplace", "sensitivity0.6-vector-3d", sensitivity=0.6, noise=1.2, seed=13, privacy_runs=10_000),
    # The joint law: the noise summed over the three coordinates. A port adding one draw to every coordinate
    # (not private: output_0 - output_1 is released exactly) or drawing one-sided noise (|Laplace|) passes a
    # statistic of one coordinate's noise size; on the sum the shared draw has 3 x the variance and the
    # one-sided noise a mean of 3 b (examples/randomized_ports.py, measured in docs/conformance.md).
    _additive_case("gaussian", "joint-vector-3d", sensitivity=1.0, noise=1.5, seed=15, privacy_runs=0,
                   statistic="sum"),
    _additive_case("laplace", "joint-vector-3d", sensitivity=1.0, noise=2.0, seed=16, privacy_runs=0,
                   statistic="sum"),
    VectorCase(
        algorithm="core:exponential_mechanism", name="five-candidates", reference=f"{_M}:exponential_mechanism",
        batch=True,
        make_kwargs=lambda: {"scores": np.array([0.0, 1.0, 2.0, 0.5, 1.5]), "sensitivity": 1.0, "epsilon": 1.0},
        seed=3, array_args=("scores",), noise_knob=("epsilon", -1.0),
    ),
    VectorCase(
        algorithm="core:report_noisy_max", name="laplace-five-candidates", reference=f"{_M}:report_noisy_max",
        batch=True,
        make_kwargs=lambda: {"scores": np.array([0.0, 1.0, 2.0, 0.5, 1.5]), "sensitivity": 1.0, "scale": 2.0,
                             "noise": "laplace"},
        seed=4, array_args=("scores",), noise_knob=("scale", 1.0),
    ),
    VectorCase(
        algorithm="core:report_noisy_max", name="gumbel-five-candidates", reference=f"{_M}:report_noisy_max",
        batch=True,
        make_kwargs=lambda: {"scores": np.array([0.0, 1.0, 2.0, 0.5, 1.5]), "sensitivity": 1.0, "scale": 2.0,
                             "noise": "gumbel"},
        seed=5, array_args=("scores",), noise_knob=("scale", 1.0),
    ),
]

# Law-check cases for the selection mechanisms. The five-candidate cases above are for replay; their
# selection law moves too little with the noise for a law check to see 0.8 x the noise (measured:
# rejected in 7 to 12 of 20 repeats at 4000 runs). With two candidates whose gap puts the
# selection probability near 0.08, the law is as sensitive to the noise scale as a two-point
# selection can be (the derivative of the mean selected score in epsilon is its variance,
# largest near a gap of 4.8 / epsilon), and 4000 runs a side reject 0.8 x the noise in at least
# 99% of repeats (docs/conformance.md has the measured power).
CASES += [
    VectorCase(
        algorithm="core:exponential_mechanism", name="two-candidates-law", reference=f"{_M}:exponential_mechanism",
        batch=True,
        make_kwargs=lambda: {"scores": np.array([0.0, 4.8]), "sensitivity": 1.0, "epsilon": 1.0},
        seed=6, array_args=("scores",), statistic=float, n_runs=4000, noise_knob=("epsilon", -1.0),
    ),
    # The monotone form (P(i) ∝ exp(epsilon score_i / Delta), for scores that all move one way between
    # neighbours) at Delta = 0.8: the same two-point design, the gap 2.4 Delta / epsilon = 1.92 putting the
    # low candidate's probability near 0.08. A port that ignores ``monotone`` (keeps the general factor 2)
    # selects it with probability 0.23 instead: the law check rejects it at p ~ 0.
    VectorCase(
        algorithm="core:exponential_mechanism", name="monotone-two-candidates-law",
        reference=f"{_M}:exponential_mechanism", batch=True,
        make_kwargs=lambda: {"scores": np.array([0.0, 1.92]), "sensitivity": 0.8, "epsilon": 1.0, "monotone": True},
        seed=14, array_args=("scores",), statistic=float, n_runs=4000, noise_knob=("epsilon", -1.0),
    ),
] + [
    VectorCase(
        algorithm="core:report_noisy_max", name=f"{noise}-two-candidates-law", reference=f"{_M}:report_noisy_max",
        batch=True,
        make_kwargs=(lambda noise=noise, gap=gap: {"scores": np.array([0.0, gap]), "sensitivity": 1.0, "scale": 1.0,
                                                   "noise": noise}),
        seed=7, array_args=("scores",), statistic=float, n_runs=4000, noise_knob=("scale", 1.0),
    )
    for noise, gap in (("laplace", 2.4), ("gumbel", 2.4))
]


CASES += [
    # ---- report-noisy-min: argmax(-score + Z) (docs/vectors.md: the selection rule a port must use)
    VectorCase(
        algorithm="core:report_noisy_min", name=f"{noise}-five-candidates", reference=f"{_M}:report_noisy_min",
        batch=True,
        make_kwargs=(lambda noise=noise: {"scores": np.array(_FIVE), "sensitivity": 1.0, "scale": 2.0,
                                          "noise": noise}),
        seed=8, array_args=("scores",), noise_knob=("scale", 1.0), invariants=_SELECTION_INVARIANTS,
        not_applicable={**_SELECTION_NA, "law": "replay case (the two-candidates cases carry the law check)",
                        "privacy": "declared on the two-candidates cases"},
    )
    for noise in ("laplace", "gumbel")
] + [
    # Law and privacy: two candidates, gap 2.4 (the selection probability near 0.1, where the law moves
    # most with the noise, see the report-noisy-max law cases). The neighbour moves each score by the
    # sensitivity 1 in opposite directions (not monotone): the claim is 2 Delta / b = 2. Exact privacy
    # loss of the pair (index law): 1.39 (Laplace) / 1.57 (Gumbel) at the calibrated noise, 3.1 / 3.6 at
    # half of it (the control), so the control is flagged and the claim is not met at equality.
    VectorCase(
        algorithm="core:report_noisy_min", name=f"{noise}-two-candidates-law", reference=f"{_M}:report_noisy_min",
        batch=True,
        make_kwargs=(lambda noise=noise: {"scores": np.array([2.4, 0.0]), "sensitivity": 1.0, "scale": 1.0,
                                          "noise": noise}),
        seed=9, array_args=("scores",), statistic=_index, n_runs=4000, noise_knob=("scale", 1.0),
        neighbour=(lambda noise=noise: {"scores": np.array([1.4, 1.0]), "sensitivity": 1.0, "scale": 1.0,
                                        "noise": noise}),
        claimed_epsilon=2.0, privacy_statistic=_index, privacy_runs=10_000,   # control: 2.75 / 3.19 (sd 0.06 / 0.09)
        invariants=_SELECTION_INVARIANTS, not_applicable=_SELECTION_NA,
    )
    for noise in ("laplace", "gumbel")
] + [
    # Three candidates, Gumbel noise: argmax(-score + G) selects the third (score 3) with probability 0.035;
    # a port taking argmin(score + G) (the Gumbel's sign flipped: -G is not a Gumbel) with 0.010. With two
    # candidates only G_1 - G_0 matters, whose law is symmetric, so the two-candidate cases cannot tell them
    # apart; here 4000 runs a side give about 140 against 40 selections of the third.
    VectorCase(
        algorithm="core:report_noisy_min", name="gumbel-three-candidates-law", reference=f"{_M}:report_noisy_min",
        batch=True,
        make_kwargs=lambda: {"scores": np.array([0.0, 1.0, 3.0]), "sensitivity": 1.0, "scale": 1.0,
                             "noise": "gumbel"},
        seed=17, array_args=("scores",), statistic=_index, n_runs=4000, noise_knob=("scale", 1.0),
        invariants=_SELECTION_INVARIANTS,
        not_applicable={**_SELECTION_NA, "privacy": "declared on the two-candidates cases"},
    ),
] + [
    # ---- truncated geometric TGeom(M): one rng.random() per draw, inverse CDF on 0..M
    VectorCase(
        algorithm="core:truncated_geometric", name=f"M{M}", reference=f"{_M}:truncated_geometric", batch=True,
        make_kwargs=(lambda M=M: {"M": M}), seed=10 + M, statistic=_index, n_runs=4000,
        invariants=(Holds(_level_in_range, "the output is a level in 0..M"),),
        not_applicable={"privacy": "data-independent (no privacy claim)", "rate": "a sampler: no convergence claim",
                        "sparsity": "the output is a level", "zero-noise": "a sampler: nothing to switch off"},
    )
    for M in (0, 5, 60)
] + [
    # ---- binary-tree private prefix sums: one standard_normal(shape) per node, drawn when it is populated
    VectorCase(
        algorithm="core:private_prefix_sums", name="scalar-T7", reference=_TREE, make_kwargs=_tree_kwargs,
        # the law: the releases' errors whitened by an honest tree's covariance (sees the noise scale and the
        # dependence between releases: shared-level and fresh-per-release node noise are rejected)
        seed=20, array_args=("xs",), output=_prefix_sums, statistic=WhitenedTreeError(_exact_prefix, _tree_kwargs),
        n_runs=1000, noise_knob=("sigma", 1.0),
        # the worst pair: item 1 moves by the whole sensitivity; it lies in floor(log2 7) + 1 = 3 nodes
        neighbour=lambda: _tree_kwargs(first=-0.5), claimed_mu=np.sqrt(3.0) / _SIGMA_TREE,
        privacy_statistic=_Item1OrLeak(7, _tree_kwargs()["xs"]), privacy_runs=20_000,
        invariants=(_EXACT_WITHOUT_NOISE,), not_applicable=_TREE_NA,
    ),
    VectorCase(
        algorithm="core:private_prefix_sums", name="vector-T5-d2", reference=_TREE,
        make_kwargs=lambda: {"xs": np.array([[0.5, -0.5], [0.25, 0.0], [-0.5, 0.5], [0.0, 0.75], [0.5, 0.5]]),
                             "sigma": 0.5, "sensitivity": 1.0, "norm_bound": 1.0},
        seed=21, array_args=("xs",), output=_prefix_sums,
        invariants=(_EXACT_WITHOUT_NOISE, Refuses(_item_above_the_bound, "an item of l2 norm 1.5 > norm_bound = 1")),
        not_applicable={**_TREE_NA, "law": "replay case (scalar-T7 and vector-T8-d2 carry the law check)",
                        "privacy": "declared on scalar-T7"},
    ),
    # T = 8, a power of two (item 1 in floor(log2 8) + 1 = 4 nodes; the root covers the whole stream), d = 2,
    # sigma = 0.7 and sensitivity 1.3 (not 1); the whitened law on every release and both coordinates
    VectorCase(
        algorithm="core:private_prefix_sums", name="vector-T8-d2", reference=_TREE, make_kwargs=_tree8_kwargs,
        seed=22, array_args=("xs",), output=_prefix_sums, statistic=WhitenedTreeError(_exact_prefix, _tree8_kwargs),
        n_runs=1000, noise_knob=("sigma", 1.0),
        invariants=(_EXACT_WITHOUT_NOISE,),
        not_applicable={**_TREE_NA, "privacy": "declared on scalar-T7"},
    ),
]
