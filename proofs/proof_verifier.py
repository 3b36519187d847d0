"""Tests of the branch-and-bound verifier (proofs/verifier.py): it proves true inequalities, refutes
false ones with a witness, and reports what its limits cannot settle as undecided, never as proved."""

from __future__ import annotations

import math
import re
from fractions import Fraction

import pytest
from flint import arb

from verifier import (GuardError, ball, bracket_root, interval, ncdf, piecewise, prove, prove_halfline,
                      xlogx)


@pytest.mark.rigorous(method="branch and bound", domain="the verifier's own behaviour (no claim)")
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


@pytest.mark.rigorous(method="branch and bound", domain="the verifier's own behaviour (no claim)")
def test_the_settled_boxes_cover_the_domain(certificate):
    c = certificate.add(prove(lambda x: x * x - x + arb("0.26"), [(0, 1)]))
    spans = sorted(b[0] for b, _ in c.boxes)
    assert spans[0][0] == 0 and spans[-1][1] == 1
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))       # contiguous, no gap


@pytest.mark.rigorous(method="branch and bound", domain="the verifier's own behaviour (no claim)")
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


@pytest.mark.rigorous(method="branch and bound", domain="the verifier's own behaviour (no claim)")
def test_what_the_depth_limit_cannot_settle_is_undecided_never_proved(certificate):
    # false, but only at x = 1/3, which no dyadic midpoint hits: never refuted, never proved
    c = prove(lambda x: (x - arb(1) / 3) ** 2, [(0, 1)], max_depth=20)
    assert c.status == "undecided" and not c.proved and c.unsettled
    # true (x*x + 1e-30 > 0), but x*x of a ball around 0 dips below 0: at depth 12, undecided
    c = prove(lambda x: x * x + arb("1e-30"), [(-1, 1)], max_depth=12)
    assert c.status == "undecided" and not c.proved
    # the budget of evaluations (deterministic, not seconds): same outcome, at exactly that count
    c = prove(lambda x: (x - arb(1) / 3) ** 2, [(0, 1)], max_depth=10**6, max_evaluations=500)
    again = prove(lambda x: (x - arb(1) / 3) ** 2, [(0, 1)], max_depth=10**6, max_evaluations=500)
    assert c.status == "undecided" and 500 <= c.evaluations <= 500 + 2 * 8      # 8 unsettled boxes listed
    assert again.evaluations == c.evaluations and again.unsettled == c.unsettled       # the same on any machine
    # a claim refuted at a point where the enclosure is exactly 0 (non-strict claims accept it)
    c = prove(lambda x: x * x, [(-1, 1)])
    assert c.status == "refuted"
    # erf(x) < 1 is true on [0, 30], but 1 - erf(x) < 2^-128 beyond x = 9.3: undecided at 128 bits
    c = prove(lambda x: 1 - x.erf(), [(0, 30)])
    assert c.status == "undecided" and min(b[0][0] for b in c.unsettled) > 9
    certificate.point(5)


@pytest.mark.rigorous(method="certified bisection", domain="the verifier's own behaviour (no claim)")
def test_bracket_root_certifies_a_sign_change(certificate):
    with pytest.raises(ValueError):
        bracket_root(lambda x: x * x + 1, -1, 1)           # no sign change
    br = bracket_root(lambda x: x * x - 2, 1, 2, tol=1e-12)
    assert br.ga < 0 < br.gb and br.width <= 1e-12
    assert float(br.a) <= 2 ** 0.5 <= float(br.b)
    certificate.point(2)


# ---------------------------------------------------------------------------
# The verifier checks its input: a claim that leaves ball arithmetic is an error, not a proof.

def _branching(x):
    return 1 - x if x >= arb("0.5") else arb(1)          # false on [0, 2]: 1 - x <= 0 for x >= 1


def _float_built(x):
    m = float(x.mid())                                     # the box's midpoint, as if it were the box
    return arb(1 - m) if m >= 0.5 else arb(1)


@pytest.mark.rigorous(method="branch and bound: errors and witnesses", domain="the verifier's own behaviour (no claim)")
@pytest.mark.parametrize("f, what", [
    (_branching, "a comparison"),
    (lambda x: arb(1) - x if arb("0.5") <= x else arb(1), "a comparison"),     # the ball on the right
    (lambda x: (1 - x) * (x >= 0.5) + 1, "a comparison"),
    (_float_built, ".mid"),
    (lambda x: arb(1 - float(x)), "float()"),
    (lambda x: arb(1) if x else arb(0), "bool()"),
    (lambda x: arb(math.exp(x)), "float()"),
    (lambda x: 1 - x * 0.5, "float operand"),
    (lambda x: arb(x.lower()) + 1, ".lower"),
    (lambda x: arb(str(x)), "str()"),
    (lambda x: x if x.is_finite() else arb(0), ".is_finite"),
])
def test_a_claim_that_leaves_ball_arithmetic_is_an_error_not_a_proof(f, what, certificate):
    """The issue's two tricks came back 'proved' while false; now f's balls refuse to become floats or booleans."""
    with pytest.raises(GuardError, match=re.escape(what)):
        prove(f, [(0, 2)])
    with pytest.raises(GuardError):
        bracket_root(f, 0, 2)
    certificate.point()


@pytest.mark.rigorous(method="branch and bound with the verifier's case split", domain="the verifier's own behaviour (no claim)")
def test_a_branch_written_with_the_case_split_is_checked(certificate):
    """The same piecewise claim through piecewise(): refuted with a witness where 1 - x <= 0; a true piecewise claim
    (1 - x/4 for x >= 1/2, 1 below; a jump at 1/2) proved, with and without the box cut at the breakpoint."""
    half = arb(1) / 2
    c = certificate.add(prove(lambda x: piecewise(x - half, arb(1), lambda: 1 - x), [(0, 2)]), expect="refuted")
    (w,) = c.witness_exact
    assert w >= 1                                                       # exactly where the claim fails
    true = lambda x: piecewise(x - half, arb(1), lambda: 1 - x / 4)    # noqa: E731
    cut = certificate.add(prove(true, [(0, 2)], splits={0: [Fraction(1, 2)]}))
    whole = certificate.add(prove(true, [(0, 2)]))
    assert any(b[0][1] == 0.5 for b, _ in cut.boxes) and whole.proved        # cut exactly at the breakpoint
    # a piece undefined on the other side (log of a negative) is never evaluated where the sign is certain
    certificate.add(prove(lambda x: piecewise(x - 1, arb(1), lambda: 1 + (x - 1).log1p() ** 2), [(0, 2)],
                          splits={0: [1]}))
    # at points (plain arb) the case split is the same function
    assert piecewise(arb("0.25") - half, arb(1), lambda: 1 - arb("0.25")) == 1
    assert piecewise(arb("1.5") - half, arb(1), lambda: 1 - arb("1.5")) < 0


@pytest.mark.rigorous(method="branch and bound over a half-line (change of variables r = s/(1 - s))", domain="the verifier's own behaviour (no claim)")
def test_unbounded_domains_are_handled_by_a_change_of_variables(certificate):
    """'log(1 + r) > 1e-4 r for all r' holds on every box the old convention picked ([1/1000, 1000]) and fails beyond
    r = 1.2e5: over the half-line it is refused with a witness. A true claim over the half-line, r - log(1 + r) > 0
    for r >= 1/1000, is proved: the s-boxes by the verifier, the end (t = 1 - s in [0, 2^-40], r = inf included)
    by t (r - log(1 + r)) = 1 - t (1 - lo) - t log1p(lo t) + t log t (xlogx: its limit 0 at t = 0)."""
    false = lambda r: (1 + r).log() - arb("1e-4") * r                     # noqa: E731
    certificate.add(prove(false, [("0.001", 1000)], claim="the false claim on a box"))
    c = certificate.add(prove_halfline(false, "0.001", claim="log(1 + r) > 1e-4 r for r >= 1/1000"),
                        expect="refuted")
    (w,) = c.witness_exact
    assert w > 120000 and false(ball(w)) < 0
    lo = Fraction(1, 1000)
    true = lambda r: r - (1 + r).log()                                       # noqa: E731
    end = lambda t: 1 - t * (1 - lo) - t * (lo * t).log1p() + xlogx(t)     # noqa: E731
    c = certificate.add(prove_halfline(true, lo, at_infinity=end, claim="log(1 + r) < r for r >= 1/1000"))
    assert [p.status for p in c.parts] == ["proved", "proved"]
    # split points of s cut the s-box (here at s = 1/2 and 3/4) and are not handed to the end box, whose t lies in
    # [0, t_end] (they used to be, and the end box refused them as outside its side)
    split = prove_halfline(true, lo, at_infinity=end, splits={0: [Fraction(1, 2), Fraction(3, 4)]})
    assert [p.status for p in split.parts] == ["proved", "proved"]
    assert len(split.parts[0].boxes) >= 3
    # without the end argument a true claim over a half-line is undecided, never proved
    assert prove_halfline(true, lo).status == "undecided"
    # an end function that is not a rewrite of f (opposite signs at sample points) is refused
    with pytest.raises(ValueError, match="not a rewrite"):
        prove_halfline(true, lo, at_infinity=lambda t: t - 1)
    # xlogx: its enclosure on [0, b] is [b log b, 0], and x log x on [1/1000, 1/100] lies within it
    v = xlogx(interval(0, "0.01"))
    assert v.upper() >= 0 and v.lower() <= arb("0.01") * arb("0.01").log() and v.lower() > arb("-0.047")
    for p in ("0.0001", "0.003", "0.01"):
        assert v.contains(ball(p) * ball(p).log())


@pytest.mark.rigorous(method="branch and bound, the budget counted in evaluations", domain="the verifier's own behaviour (no claim)")
def test_the_budget_is_deterministic(certificate):
    """Two runs of an undecided claim stop at the same box after the same number of evaluations (no clock)."""
    runs = [prove(lambda x: (x - arb(1) / 3) ** 2, [(0, 1)], max_depth=10**6, max_evaluations=2000) for _ in range(2)]
    assert runs[0].status == runs[1].status == "undecided"
    assert runs[0].evaluations == runs[1].evaluations and runs[0].unsettled == runs[1].unsettled
    assert 2000 <= runs[0].evaluations <= 2000 + 2 * 8
    certificate.point()
