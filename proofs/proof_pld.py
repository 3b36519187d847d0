"""High-precision (mpmath, 50 digits) reference values for the PLD accountant (reference/privacy/pld.py).

The exact profile of two composed Laplace mechanisms (eps0 each) is

    delta_2(eps) = E_{L}[D_1(eps - L)],   D_1(t) = 0 (t >= eps0), 1 - e^{-(eps0 - t)/2} (|t| < eps0),
                                                   1 - e^t (t <= -eps0),

with L the Laplace loss: atoms eps0 (mass 1/2) and -eps0 (mass e^{-eps0}/2) and density
e^{-(eps0 - l)/2}/4 on (-eps0, eps0). ``delta2`` below evaluates it with mpmath.quad split at
the kinks; each hard-coded value carries the expression and precision that produced it.
"""

from __future__ import annotations

import mpmath
import pytest

from flint import arb, ctx

from reference.privacy import accounting as acc
from reference.privacy import pld
from reference.privacy.ledger import FrozenLedger, MechanismEvent
from verifier import integral, piecewise

DPS = 50


def d1(t, e0):
    if t >= e0:
        return mpmath.mpf(0)
    if t >= -e0:
        return -mpmath.expm1(-(e0 - t) / 2)
    return -mpmath.expm1(t)


def delta2(eps, e0):
    """Exact delta(eps) of two composed Laplace mechanisms with eps0 = e0 (mpmath quadrature)."""
    e0, eps = mpmath.mpf(e0), mpmath.mpf(eps)
    f = lambda l: d1(eps - l, e0) * mpmath.exp(-(e0 - l) / 2) / 4
    pts = sorted({-e0, e0} | {p for p in (eps - e0, eps + e0) if -e0 < p < e0})
    return d1(eps - e0, e0) / 2 + mpmath.exp(-e0) / 2 * d1(eps + e0, e0) + mpmath.quad(f, pts)


def d1_b(t, E):
    """D_1(t) on balls, with the verifier's case split at its kinks t = E and t = -E (D_1 is continuous there)."""
    return piecewise(t - E,
                     lambda: piecewise(t + E, lambda: 1 - t.exp(), lambda: 1 - (-(E - t) / 2).exp()),
                     lambda: 0 * t)


def delta2_b(eps: str, e0: str) -> arb:
    """The same delta_2 on Arb balls, certified. The integral over the loss l in (-E, E) is cut where D_1(eps - l)
    changes branch, l = eps - E and l = eps + E, each clamped into [-E, E] (a piece of length 0 integrates to 0):
    on [-E, p1] eps - l >= E (D_1 = 0), on [p1, p2] |eps - l| <= E, on [p2, E] eps - l <= -E. Each piece is one
    analytic branch, integrated by Arb; the atoms in closed form. No branch is decided on a float."""
    E, e = arb(e0), arb(eps)
    p1 = (e - E).max(-E).min(E)
    p2 = (e + E).max(-E).min(E)
    density = lambda l: (-(E - l) / 2).exp() / 4                       # noqa: E731
    middle = integral(lambda l: (1 - (-(E - (e - l)) / 2).exp()) * density(l), p1, p2)
    low = integral(lambda l: (1 - (e - l).exp()) * density(l), p2, E)
    atoms = d1_b(e - E, E) / 2 + (-E).exp() / 2 * d1_b(e + E, E)
    return atoms + middle + low


POINTS = [
    # (eps0, eps, delta2(eps, eps0)) with mp.dps = 50
    ("1", "1", "0.2418366753592082204952505812610244331976"),
    ("1", "0.5", "0.350495989981104777685185992453006619666"),
    ("0.5", "0.2", "0.1956159447572328391066804898226087136756"),
    ("2", "1", "0.6095222197402477993667591761629780876512"),
    ("0.3", "0.1", "0.1238491190446695232241834496493892717911"),
]


@pytest.mark.rigorous(method="certified integral (Arb) at the named points", points="(eps0, eps) in POINTS")
@pytest.mark.claim("core:PLD composition")
@pytest.mark.parametrize("e0, eps, ref", POINTS)
def test_two_laplace_reference_points(e0, eps, ref, certificate):
    with ctx.workprec(256):
        got_b = delta2_b(eps, e0)
        assert abs(got_b - arb(ref)) <= arb(ref) * arb("1e-35")
    certificate.point()
    with mpmath.workdps(DPS):
        ref_mp = mpmath.mpf(ref)
    c = pld.compose(pld.ledger_parts([("laplace", float(e0))] * 2, pld.grid_step([("laplace", float(e0))] * 2)))
    got = pld.pld_delta(c, float(eps))
    assert got >= float(ref_mp)                         # an upper bound, to the last digit
    assert got <= float(ref_mp) * (1 + 1e-6)            # and a tight one


@pytest.mark.rigorous(method="certified integral (Arb) at the named points", points="(eps0, eps) in POINTS")
@pytest.mark.claim("core:certify")
@pytest.mark.parametrize("e0, eps, ref", POINTS)
def test_certify_at_the_reference_delta_is_not_below_eps(e0, eps, ref, certificate):
    """At delta = delta_2(eps) the exact epsilon is eps itself: certify may not return less. The reference delta
    (the float of ref) is within 1e-35 of the certified delta_2(eps)."""
    with ctx.workprec(256):
        assert abs(delta2_b(eps, e0) - arb(ref)) <= arb(ref) * arb("1e-35")
    certificate.point()
    event = MechanismEvent("laplace", float(e0), "l1", noise_scale=1.0)
    got = acc.certify(FrozenLedger((event, event)), float(mpmath.mpf(ref))).epsilon
    assert got >= float(eps) * (1 - 1e-15)
    assert got <= float(eps) + 1e-5
