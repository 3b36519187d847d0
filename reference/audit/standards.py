"""The power standards, as helpers tests call, so a weak check cannot be written by accident.

- :func:`assert_bound_bites`: an explicit utility bound is asserted only where it is below
  the trivial bound (the loss range over the constraint set) at the tested parameters;
  otherwise the assertion could not fail and the test is refused.
- :func:`assert_rate`: a rate check passes only if the fitted slope's interval is consistent
  with the claimed exponent *and* excludes the nearest wrong exponent the claim names
  (-1/2 for a -2/3 claim, T^1 for sqrt(T)); an interval too wide to tell them apart fails.
- :func:`assert_control_near`: a privacy test's negative control is at most ``factor`` (2 by
  default) off the claim, so the test detects an under-noised run that is realistically wrong.

Each raises ``AssertionError`` with a message naming the numbers, so pytest shows why.
"""

from __future__ import annotations

import math

from .rates import RateFit


def assert_bound_bites(bound: float, trivial: float, *, what: str = "bound") -> None:
    """Refuse a bound that cannot fail: ``bound`` must be finite and strictly below ``trivial``
    (the largest value the bounded quantity can take at these parameters, e.g. the loss range
    over C for an excess risk)."""
    if not (math.isfinite(bound) and math.isfinite(trivial)):
        raise AssertionError(f"{what}: bound {bound!r} and trivial bound {trivial!r} must be finite")
    if not bound < trivial:
        raise AssertionError(f"{what}: the asserted bound {bound:.4g} is not below the trivial bound "
                             f"{trivial:.4g}; no implementation could fail it at these parameters")


def assert_rate(fit: RateFit, claimed: float, nearest_wrong: float, *, relation: str = "equal",
                tolerance: float = 0.0, what: str = "rate") -> None:
    """The fit is consistent with ``claimed`` (``relation``/``tolerance`` as in
    :meth:`RateFit.consistent_with`) and its interval excludes ``nearest_wrong``."""
    if claimed == nearest_wrong:
        raise AssertionError(f"{what}: the nearest wrong exponent must differ from the claimed one")
    interval = f"slope {fit.slope:.3f} [{fit.lower:.3f}, {fit.upper:.3f}] ({fit.confidence:.0%})"
    if not fit.consistent_with(claimed, relation, tolerance):
        raise AssertionError(f"{what}: {interval} is inconsistent with the claimed exponent {claimed:.4g} "
                             f"(relation {relation}, tolerance {tolerance})")
    if not fit.excludes(nearest_wrong):
        raise AssertionError(f"{what}: {interval} does not exclude the nearest wrong exponent "
                             f"{nearest_wrong:.4g}; the check cannot tell {claimed:.4g} from it")


def assert_control_near(claimed: float, control: float, *, factor: float = 2.0,
                        what: str = "negative control") -> None:
    """The negative control's calibration (noise scale, or epsilon) is within ``factor`` of the
    claim's: max(claimed/control, control/claimed) <= factor, and it differs from the claim."""
    if not (claimed > 0 and control > 0):
        raise AssertionError(f"{what}: calibrations must be > 0, got {claimed!r} and {control!r}")
    ratio = max(claimed / control, control / claimed)
    if ratio == 1.0:
        raise AssertionError(f"{what}: the control is calibrated as the claim ({claimed!r}); it controls nothing")
    if ratio > factor:
        raise AssertionError(f"{what}: the control is {ratio:.3g}x off the claim ({control!r} vs {claimed!r}), "
                             f"more than {factor}x; a realistic under-noised bug could pass the test")
