"""The lower-bound construction of Section 5.3 (Theorem 5.8, Lemma 5.10), checked on small sizes.

The fingerprinting code of Theorem 5.9 is cited, not constructed; the deterministic statements
(equation (23), Lemma 5.10, the construction's invariants) hold for any +-1 code with enough
consensus columns, which is what is checked here, with exact rational arithmetic where it matters.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, strategies as st

from reference.algorithms import erm_geometry as eg
from reference.errors import ParameterError

TAU = Fraction(1, 1000)


def _small_instance():
    """tau = 0.001, w = 1000, p = 64, k = tau w p = 64; tau p < 1, so every column must be a
    consensus column of every X_(i): all rows equal (catalogue P40)."""
    rng = np.random.default_rng(0)
    row = rng.choice([-1, 1], size=64)
    return eg.lower_bound_instance(np.tile(row, (1001, 1)), TAU)


def _instance_with_non_consensus_columns():
    """w = 1000, p = 2048, k = 2048 (tau p = 2.048): rows 0 and 1 each flip one column, so each X_(i)
    has >= p - 2 >= (1 - tau) p consensus columns."""
    rng = np.random.default_rng(1)
    row = rng.choice([-1, 1], size=2048)
    code = np.tile(row, (1001, 1))
    code[0, 0] *= -1
    code[1, 1] *= -1
    return eg.lower_bound_instance(code, TAU)


@pytest.mark.claim("erm_geometry:Theorem 5.8 construction")
def test_construction_invariants():
    inst = _small_instance()
    assert inst.k == 64 and inst.w == 1000 and inst.Y.shape == (64, 64)
    Y = inst.Y
    assert np.array_equal(Y.T @ Y, 64 * np.eye(64, dtype=np.int64))   # mutually orthogonal +-1 columns
    F0, l0 = inst.dataset(0)
    assert F0.shape == (inst.w + inst.k, inst.p)     # n = w + k (the paper's "w + wp" is a typo)
    assert np.max(np.abs(F0)) <= 1 and np.max(np.abs(l0)) <= 1   # the LASSO domain
    # D_i and D_j are neighbours: they differ in exactly one record (row j of X replaced by row i)
    code = _instance_with_non_consensus_columns().code
    inst2 = eg.lower_bound_instance(code, TAU)
    A, _ = inst2.dataset(0)
    B, _ = inst2.dataset(1)
    assert int(np.sum(np.any(A != B, axis=1))) == 1


@pytest.mark.claim("erm_geometry:Theorem 5.8 construction")
@given(st.lists(st.fractions(min_value=-1, max_value=1, max_denominator=50), min_size=8, max_size=8))
def test_hadamard_part_is_exactly_k_times_squared_norm(theta):
    Y = eg.hadamard_columns(16, 8)
    th = np.array(theta, dtype=object)
    lhs = eg.unnormalised_squared_loss(th, Y.astype(object), np.zeros(16, dtype=np.int64))
    assert lhs == 16 * sum(t * t for t in theta)


@pytest.mark.claim("erm_geometry:eq (23)")
@pytest.mark.parametrize("make", [_small_instance, _instance_with_non_consensus_columns])
def test_equation_23_exactly(make):
    inst = make()
    for i in (0, 1, 7):
        cols, signs = inst.consensus(i)
        assert len(cols) >= (1 - TAU) * inst.p
        # theta* = (sign)/p: exact in integers after scaling by p (loss scales by p^2)
        scaled = np.ones(inst.p, dtype=np.int64)
        scaled[cols] = signs
        F, labels = inst.dataset(i)
        value_times_p2 = int(eg.unnormalised_squared_loss(scaled, F, labels * inst.p))
        assert Fraction(value_times_p2, inst.p ** 2) <= (TAU + 4 * TAU * TAU) * inst.w


def _theta_with_few_agreements(draw_signs, weights, inst, i):
    cols, signs = inst.consensus(i)
    theta = np.zeros(inst.p)
    theta[cols] = np.asarray(draw_signs, dtype=float) * np.asarray(weights, dtype=float)
    return theta, cols, signs


@pytest.mark.claim("erm_geometry:Lemma 5.10")
@given(data=st.data())
def test_lemma_5_10_small_instance(data):
    """||theta||_1 <= 1 and fewer than 3p/4 sign agreements on consensus columns => L >= 1.1 tau w."""
    inst = _small_instance()
    cols, signs = inst.consensus(0)
    p = inst.p
    agree = data.draw(st.integers(0, 3 * p // 4 - 1))
    order = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1))).permutation(p)
    mass = data.draw(st.sampled_from(["agreeing", "uniform", "random"]))
    w = np.zeros(p)
    if mass == "agreeing":        # put all the mass where it helps the fit most
        w[order[:agree]] = 1.0
    elif mass == "uniform":
        w[:] = 1.0
    else:
        w = np.random.default_rng(agree).random(p)
    sign = -signs.astype(float)
    sign[order[:agree]] = signs[order[:agree]]
    zero = data.draw(st.booleans())
    if zero:
        w[order[agree:agree + 3]] = 0.0   # theta_j = 0 counts as disagreement
    total = data.draw(st.floats(0.0, 1.0))
    assume(w.sum() > 0)
    theta = sign * w / w.sum() * total
    assert np.sum(np.abs(theta)) <= 1 + 1e-12
    assert np.sum(np.sign(theta[cols]) == signs) < 3 * p / 4
    F, labels = inst.dataset(0)
    assert eg.unnormalised_squared_loss(theta, F.astype(float), labels.astype(float)) >= 1.1 * float(TAU) * inst.w


@pytest.mark.claim("erm_geometry:Lemma 5.10")
def test_lemma_5_10_with_non_consensus_columns_and_its_contrapositive():
    inst = _instance_with_non_consensus_columns()
    F, labels = inst.dataset(0)
    F, labels = F.astype(float), labels.astype(float)
    cols, signs = inst.consensus(0)
    rng = np.random.default_rng(3)
    p = inst.p
    for _ in range(20):
        agree = int(rng.integers(0, 3 * p // 4))
        sign = -np.ones(p)
        sign[cols] = -signs
        idx = rng.permutation(cols)[:agree]
        sign[idx] = signs[np.searchsorted(cols, idx)]
        theta = sign * rng.random(p)
        theta /= np.abs(theta).sum()
        assert eg.unnormalised_squared_loss(theta, F, labels) >= 1.1 * float(TAU) * inst.w
    # the good point of (23) has loss < 1.1 tau w and agrees on all consensus columns
    good = np.full(p, 1.0 / p)
    good[cols] = signs / p
    assert eg.unnormalised_squared_loss(good, F, labels) < 1.1 * float(TAU) * inst.w


def test_bad_construction_inputs():
    with pytest.raises(ParameterError, match="power of two"):
        eg.hadamard_columns(12, 4)
    with pytest.raises(ParameterError, match="tau w p an integer"):
        eg.lower_bound_instance(np.ones((4, 3), dtype=int), Fraction(1, 7))
    with pytest.raises(ParameterError, match="\\+-1 entries"):
        eg.lower_bound_instance(np.zeros((4, 3), dtype=int), TAU)
