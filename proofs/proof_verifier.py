"""Tests of the branch-and-bound verifier (proofs/verifier.py): it proves true inequalities, refutes
false ones with a witness, and reports what its limits cannot settle as undecided, never as proved."""

from __future__ import annotations

import pytest
from flint import arb

from verifier import ball, bracket_root, ncdf, prove


@pytest.mark.rigorous(method="branch and bound")
def test_known_true_inequalities_are_proved(certificate):
    # exp(x) > 1 + x on [1/1000, 5] (strict away from 0)
    certificate.add(prove(lambda x: x.exp() - 1 - x, [("0.001", 5)], claim="exp(x) > 1 + x"))
    # log(1 + x) < x on [1/1000, 50]
    certificate.add(prove(lambda x: x - (1 + x).log(), [("0.001", 50)], claim="log(1 + x) < x"))
    # erf(x) < 1 on [0, 6] and Phi(x) > 1/2 on [1/100, 8]
    certificate.add(prove(lambda x: 1 - x.erf(), [(0, 6)], claim="erf < 1"))
    certificate.add(prove(lambda x: ncdf(x) - arb(1) / 2, [("0.01", 8)], claim="Phi > 1/2"))
    # two variables: x^2 + y^2 + 1/10 > 2 x y - ... (AM-GM with a margin): x^2 + y^2 - 2xy + 1/10 > 0
    c = certificate.add(prove(lambda x, y: (x - y) ** 2 + arb(1) / 10, [(-2, 2), (-3, 1)], claim="(x-y)^2 + 1/10 > 0"))
    assert c.size >= 1 and all(len(b) == 2 for b, _ in c.boxes)
    # x^2 - x + 0.26 > 0 on [0, 1] (minimum 0.01 at 1/2; x*x - x over a box loses the dependency:
    # needs bisection); Gamma(x) > 0.8856 on [1, 2] (minimum 0.88560319... at 1.4616...)
    c = certificate.add(prove(lambda x: x * x - x + arb("0.26"), [(0, 1)], claim="x^2 - x + 0.26 > 0"))
    assert c.size > 4
    certificate.add(prove(lambda x: x.gamma() - arb("0.8856"), [(1, 2)], claim="Gamma > 0.8856 on [1, 2]"))


@pytest.mark.rigorous(method="branch and bound")
def test_the_settled_boxes_cover_the_domain(certificate):
    c = certificate.add(prove(lambda x: x * x - x + arb("0.26"), [(0, 1)]))
    spans = sorted(b[0] for b, _ in c.boxes)
    assert spans[0][0] == 0 and spans[-1][1] == 1
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))       # contiguous, no gap


@pytest.mark.rigorous(method="branch and bound")
def test_known_false_inequalities_are_refuted_with_a_witness(certificate):
    c = certificate.add(prove(lambda x: x * x - 2, [(0, 3)], claim="x^2 > 2 on [0, 3]"), expect="refuted")
    (w, _), = c.witness
    assert 0 <= w <= 3 and w * w <= 2
    # a near miss: Gamma(x) > 0.8857 on [1, 2] is false only on a short interval around 1.4616
    c = certificate.add(prove(lambda x: x.gamma() - arb("0.8857"), [(1, 2)]), expect="refuted")
    (w, _), = c.witness
    assert 1.4 < w < 1.53 and ball(c.witness_exact[0]).gamma() < arb("0.8857")
    # a two-variable one: x y < 1 on [0, 2]^2
    c = certificate.add(prove(lambda x, y: 1 - x * y, [(0, 2), (0, 2)]), expect="refuted")
    assert c.witness[0][0] * c.witness[1][0] >= 1


@pytest.mark.rigorous(method="branch and bound")
def test_what_the_depth_limit_cannot_settle_is_undecided_never_proved(certificate):
    # false, but only at x = 1/3, which no dyadic midpoint hits: never refuted, never proved
    c = prove(lambda x: (x - arb(1) / 3) ** 2, [(0, 1)], max_depth=20)
    assert c.status == "undecided" and not c.proved and c.unsettled
    # true (x*x + 1e-30 > 0), but x*x of a ball around 0 dips below 0: at depth 12, undecided
    c = prove(lambda x: x * x + arb("1e-30"), [(-1, 1)], max_depth=12)
    assert c.status == "undecided" and not c.proved
    # the time limit: same outcome
    c = prove(lambda x: (x - arb(1) / 3) ** 2, [(0, 1)], max_depth=10**6, time_limit=0.05)
    assert c.status == "undecided"
    # a claim refuted at a point where the enclosure is exactly 0 (non-strict claims accept it)
    c = prove(lambda x: x * x, [(-1, 1)])
    assert c.status == "refuted"
    # erf(x) < 1 is true on [0, 30], but 1 - erf(x) < 2^-128 beyond x = 9.3: undecided at 128 bits
    c = prove(lambda x: 1 - x.erf(), [(0, 30)])
    assert c.status == "undecided" and min(b[0][0] for b in c.unsettled) > 9
    certificate.point(5)


@pytest.mark.rigorous(method="certified bisection")
def test_bracket_root_certifies_a_sign_change(certificate):
    with pytest.raises(ValueError):
        bracket_root(lambda x: x * x + 1, -1, 1)           # no sign change
    br = bracket_root(lambda x: x * x - 2, 1, 2, tol=1e-12)
    assert br.ga < 0 < br.gb and br.width <= 1e-12
    assert float(br.a) <= 2 ** 0.5 <= float(br.b)
    certificate.point(2)
