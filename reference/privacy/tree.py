"""Binary-tree aggregation: private prefix sums of a stream (Gaussian node noise).

The stream ``x_1, ..., x_T`` (scalars or arrays of one fixed shape) arrives one
item at a time. The tree keeps, for every dyadic interval, the exact sum of the
items in it and, once all of them have arrived, a noisy copy of that sum; the
prefix sum ``W_t = x_1 + ... + x_t`` is released as the sum of the noisy copies of
the largest dyadic intervals that tile ``[1, t]``. This is the construction of
Dwork, Naor, Pitassi and Rothblum (STOC 2010) and Chan, Shi and Song (TISSEC
2011), used e.g. by the ``online`` paper's Algorithm 5 (PrivateSum); this module
knows no paper, the paper's line-by-line version lives with the paper.

Node bookkeeping (levels ``h >= 0``, index ``j >= 0``; all times 1-based):

* node ``(h, j)`` covers the positions ``j*2^h + 1 .. (j+1)*2^h`` and is
  *populated* at time ``(j+1)*2^h``, when its last item arrives; its Gaussian
  noise ``N(0, sigma^2 I)`` is drawn exactly once, then, and reused by every
  later query;
* inserting ``x_t`` populates the nodes ``(h, t/2^h - 1)`` for every ``h`` with
  ``2^h | t``, bottom-up, each from its children's *exact* sums (never from the
  noisy ones);
* the prefix ``[1, t]`` is covered by one node per 1-bit of ``t``: the number of
  nodes used is ``popcount(t) <= floor(log2 t) + 1``;
* after ``T`` inserts, ``2T - popcount(T)`` nodes are populated, and the
  populated nodes containing a fixed item number at most ``floor(log2 T) + 1``
  (attained by item 1).

Privacy accounting (recorded once, at construction, for the whole tree): changing
one item changes at most ``m = floor(log2 T) + 1`` node sums, each by the item's
change, of l2 norm at most ``sensitivity``. The vector of all node sums therefore
has l2 sensitivity ``sqrt(m) * sensitivity``, and since every node carries
independent ``N(0, sigma^2 I)`` noise, the whole set of noisy nodes (and so every
prefix sum released from them, by post-processing) is exactly one Gaussian
mechanism with that sensitivity. The tree records one ``gaussian`` event with
``sensitivity = sqrt(m) * sensitivity`` and ``noise_scale = sigma``. This is exact,
not a bound: item 1 lies in ``m`` populated nodes, so a change of item 1 of norm
``sensitivity`` moves the node vector by exactly ``sqrt(m) * sensitivity``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validate import check_array, check_int, check_nonnegative, check_rng
from ..claims import Algorithm, Claim
from ..errors import AssumptionViolation, NonFiniteError, ParameterError, ShapeError
from .ledger import RELATIONS, FrozenLedger, Ledger, MechanismEvent

__all__ = [
    "BinaryTreeAggregator",
    "TreePrefixSums",
    "private_prefix_sums",
    "prefix_nodes",
    "nodes_containing",
    "max_nodes_per_item",
    "tree_sensitivity",
]


def max_nodes_per_item(T):
    """``floor(log2 T) + 1``: the most populated nodes any one item lies in (item 1), for ``T`` items."""
    T = check_int(T, "T", minimum=1)
    return T.bit_length()          # == floor(log2 T) + 1, exactly, for integers


def tree_sensitivity(T, sensitivity):
    """l2 sensitivity of the vector of all node sums: ``sqrt(floor(log2 T) + 1) * sensitivity``."""
    sensitivity = check_nonnegative(sensitivity, "sensitivity")
    return math.sqrt(max_nodes_per_item(T)) * sensitivity


def prefix_nodes(t):
    """The nodes ``(h, j)`` whose sums tile ``[1, t]``, largest first: one per 1-bit of ``t``."""
    t = check_int(t, "t", minimum=1)
    nodes = []
    start = 0
    for h in range(t.bit_length() - 1, -1, -1):
        if (t >> h) & 1:
            nodes.append((h, start >> h))
            start += 1 << h
    return nodes


def nodes_containing(tau, T):
    """The nodes populated after ``T`` inserts that contain item ``tau`` (1-based), lowest first."""
    T = check_int(T, "T", minimum=1)
    tau = check_int(tau, "tau", minimum=1)
    if tau > T:
        raise ParameterError("tau", f"1 <= tau <= T = {T}", tau)
    out = []
    h = 0
    while (1 << h) <= T:
        j = (tau - 1) >> h
        if (j + 1) << h <= T:        # populated once its last item (j+1)*2^h has arrived
            out.append((h, j))
        h += 1
    return out


class BinaryTreeAggregator:
    """Online private prefix sums over a stream of at most ``T`` items.

    ``add(x)`` inserts the next item and returns the noisy prefix sum up to it;
    ``prefix_sum(t)`` returns the noisy prefix sum of the first ``t`` items (any
    ``t`` already inserted; it reuses the nodes' noise, drawn once).

    Parameters: ``T`` the horizon (number of items the tree is built for);
    ``sigma >= 0`` the per-node noise standard deviation (``0`` gives exact
    sums, allowed only without a ledger since it is not private);
    ``sensitivity`` the l2 bound on the change of one item between neighbouring
    streams under ``relation``; ``norm_bound`` (optional) an l2 bound every item
    must satisfy, checked on insertion (items are never clipped). The ledger
    event for the whole tree is recorded at construction (see the module docstring).
    """

    def __init__(self, T, sigma, rng, *, sensitivity, ledger=None, relation="replace-one", label="",
                 norm_bound=None):
        self.T = check_int(T, "T", minimum=1)
        self.sigma = check_nonnegative(sigma, "sigma")
        self.rng = check_rng(rng)
        self.sensitivity = check_nonnegative(sensitivity, "sensitivity")
        if not isinstance(relation, str) or relation not in RELATIONS:
            raise ParameterError("relation", f"one of {RELATIONS}", relation)
        if ledger is not None and not isinstance(ledger, Ledger):
            raise ParameterError("ledger", "None or a reference.privacy.ledger.Ledger", type(ledger).__name__)
        if not isinstance(label, str):
            raise ParameterError("label", "a string", type(label).__name__)
        self.norm_bound = None if norm_bound is None else check_nonnegative(norm_bound, "norm_bound")
        if ledger is not None:
            if self.sigma == 0:
                raise ParameterError("sigma", "sigma > 0 when a ledger is given (zero noise is not private)",
                                     self.sigma)
            ledger.record(MechanismEvent("gaussian", sensitivity=tree_sensitivity(self.T, self.sensitivity),
                                         norm="l2", relation=relation, noise_scale=self.sigma,
                                         label=label or f"binary tree, T={self.T}"))
        self.t = 0
        self.shape = None
        self._exact: dict[tuple[int, int], np.ndarray] = {}
        self._noisy: dict[tuple[int, int], np.ndarray] = {}

    def add(self, x):
        """Insert the next item ``x_t`` (populating its nodes) and return the noisy ``W_t``."""
        if self.t >= self.T:
            raise ParameterError("t", f"at most T = {self.T} items", self.t + 1)
        x = check_array(x, "x")
        if self.shape is None:
            self.shape = x.shape
        elif x.shape != self.shape:
            raise ShapeError("x", f"shape {self.shape} (the shape of the first item)", f"shape {x.shape}")
        if self.norm_bound is not None:
            norm = float(np.linalg.norm(x.ravel()))
            if norm > self.norm_bound * (1 + 1e-12):
                raise AssumptionViolation(f"every item has l2 norm <= {self.norm_bound:g}",
                                          f"item {self.t + 1} has norm {norm:.6g}; nothing is clipped")
        t = self.t + 1
        # The nodes completed by x_t: (h, t/2^h - 1) for every h with 2^h | t, bottom-up, each the sum of
        # its children's exact sums. Computed in full before the tree is changed, so that a float64
        # overflow is refused without leaving a half-written tree.
        exact_new, noisy_new = {}, {}
        h = 0
        while t % (1 << h) == 0:
            j = t // (1 << h) - 1
            if h == 0:
                exact = x
            else:
                left = exact_new.get((h - 1, 2 * j), self._exact.get((h - 1, 2 * j)))
                right = exact_new.get((h - 1, 2 * j + 1), self._exact.get((h - 1, 2 * j + 1)))
                with np.errstate(over="ignore", invalid="ignore"):
                    exact = left + right
            exact_new[(h, j)] = exact
            h += 1
        for node, exact in exact_new.items():          # noise drawn once per node, in bottom-up order
            if self.sigma > 0:
                with np.errstate(over="ignore"):
                    noisy_new[node] = exact + self.sigma * self.rng.standard_normal(self.shape)
            else:
                noisy_new[node] = exact.copy()
        for node in exact_new:
            if not (np.all(np.isfinite(exact_new[node])) and np.all(np.isfinite(noisy_new[node]))):
                raise NonFiniteError("x", "items whose node sums (and noisy node sums) stay finite in float64",
                                     f"overflow in node {node} at t={t}")
        self._exact.update(exact_new)
        self._noisy.update(noisy_new)
        self.t = t
        return self.prefix_sum(t)

    def prefix_sum(self, t=None):
        """The noisy sum of the first ``t`` items (default: all inserted so far)."""
        t = self.t if t is None else check_int(t, "t", minimum=1)
        if t > self.t:
            raise ParameterError("t", f"at most the number of items inserted ({self.t})", t)
        total = np.zeros(self.shape)
        for node in prefix_nodes(t):
            total = total + self._noisy[node]
        return total

    def nodes_used(self, t=None):
        """The populated nodes ``(h, j)`` summed to release ``W_t``."""
        t = self.t if t is None else check_int(t, "t", minimum=1)
        return prefix_nodes(t)

    def node_sums(self):
        """A copy of the exact node sums (the tree's secret state; for tests and audits, never released)."""
        return {node: value.copy() for node, value in self._exact.items()}

    def noisy_node_sums(self):
        """A copy of the noisy node sums populated so far."""
        return {node: value.copy() for node, value in self._noisy.items()}


@dataclass(frozen=True)
class TreePrefixSums:
    """Result of :func:`private_prefix_sums`.

    ``prefix_sums[t-1]`` is the released noisy ``W_t``; ``nodes_used[t-1]`` the
    nodes summed for it; ``ledger`` the one event recorded for the whole tree.
    """

    prefix_sums: np.ndarray
    nodes_used: tuple[tuple[tuple[int, int], ...], ...]
    ledger: FrozenLedger


def private_prefix_sums(xs, sigma, rng, *, sensitivity, relation="replace-one", label="", norm_bound=None):
    """All ``T = len(xs)`` noisy prefix sums of the stream ``xs`` (items along axis 0).

    Runs :class:`BinaryTreeAggregator` online over the stream; returns a
    :class:`TreePrefixSums` with its own ledger (empty when ``sigma == 0``).
    """
    xs = check_array(xs, "xs")
    if xs.ndim == 0:
        raise ShapeError("xs", "a stream of items along axis 0", f"shape {xs.shape}")
    ledger = Ledger()
    check_nonnegative(sigma, "sigma")
    tree = BinaryTreeAggregator(xs.shape[0], sigma, rng, sensitivity=sensitivity,
                                ledger=ledger if sigma > 0 else None, relation=relation, label=label,
                                norm_bound=norm_bound)
    out = np.empty(xs.shape)
    nodes = []
    for t in range(1, xs.shape[0] + 1):
        out[t - 1] = tree.add(xs[t - 1])
        nodes.append(tuple(tree.nodes_used(t)))
    return TreePrefixSums(out, tuple(nodes), ledger.freeze())


BUILDING_BLOCKS = (   # listed by `python -m reference list`
    Algorithm("core", "private_prefix_sums", "binary-tree aggregation: private prefix sums of a stream",
              "reference.privacy.tree:private_prefix_sums",
              "Dwork-Naor-Pitassi-Rothblum 2010; Chan-Shi-Song 2011, Sec. 3; docs/errata.md core-M04"),
)

CLAIMS = (
    Claim("core:Tree prefix nodes", "invariant",
          "The prefix [1, t] is released from popcount(t) <= floor(log2 t) + 1 populated nodes, one per level, "
          "which tile [1, t] exactly; after T inserts 2T - popcount(T) nodes are populated, each once.",
          "Dwork-Naor-Pitassi-Rothblum 2010; Chan-Shi-Song 2011, Sec. 3; reference/privacy/tree.py docstring"),
    Claim("core:Tree sensitivity", "sensitivity",
          "Changing one item changes exactly the populated nodes containing it, at most floor(log2 T) + 1 of "
          "them, each by the item's change, so the node vector moves by at most sqrt(floor(log2 T)+1) times the "
          "item sensitivity, the l2 sensitivity the tree's single gaussian ledger event records (the count and the "
          "sensitivity proved for every T for the dyadic nodes, an elementary argument whose steps sympy checks; that "
          "the package populates exactly those nodes: brute force in tests/).",
          "Chan-Shi-Song 2011, binary mechanism (Sec. 3); docs/errata.md core-M04"),
    Claim("core:Tree exactness without noise", "invariant",
          "With sigma = 0 the tree's prefix sums equal the exact cumulative sums (np.cumsum) for scalar and "
          "vector items.",
          "Chan-Shi-Song 2011, Sec. 3 (the tree stores exact node sums); reference/privacy/tree.py docstring"),
    Claim("core:Tree prefix noise law", "invariant",
          "The error of the released W_t is N(0, popcount(t) sigma^2 I), and Cov(W_s, W_t) error = "
          "(number of shared nodes) sigma^2 I.",
          "Chan-Shi-Song 2011, Sec. 3 (independent Gaussian noise per node)"),
)
