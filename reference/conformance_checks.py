"""Two of conform's properties that look at what a candidate says rather than what it releases.

- **accounting**: what the candidate reports about its own privacy equals what the reference reports
  for the same run. A candidate reports accounting in one or both of two ways:

  * a ledger: either it takes a ``ledger`` keyword (the building blocks do: conform then passes it a
    fresh ``Ledger`` of the candidate's own module, i.e. the class its module defines or imports under
    that name) or its result has a ``.ledger``. A ledger is any iterable of events with the fields of
    :class:`reference.privacy.ledger.MechanismEvent` (``kind``, ``sensitivity``, ``norm``,
    ``noise_scale``, ...; attributes or dict keys). Both ledgers are certified by *this package's*
    accountant (:func:`reference.privacy.accounting.certify`) at the case's ``delta`` (1e-6 when the
    case has none) plus the deltas the reference's approximate events consume, and the two epsilons
    must agree to ``ACCOUNTING_RTOL``: a ledger that records half the sensitivity certifies a smaller
    epsilon than the run spends, and is rejected; a ledger laid out differently that certifies the same
    privacy passes; a ledger laid out as the reference's (as many events, of the same kinds) must also
    record the same values in each (sensitivity, norm, noise scale, epsilon, delta, relation), since
    what it records is what the candidate reports. The first event where the two ledgers part is
    named in the row.
  * a claim: the result's ``claimed_epsilon`` (the epsilon the paper's statement claims at the run's
    calibration), compared with the reference's to ``ACCOUNTING_RTOL``.

  A candidate that reports neither is ``n/a`` for it (and so is a case whose reference reports
  neither): a black box that publishes no accounting cannot be held to one. This is the property
  that sees the kill matrix's "ledger only" mutants (docs/conformance.md).

- **validation**: the candidate refuses inputs outside the domain its privacy proof needs. Each
  :class:`reference.properties.Refuses` of the case (declared, or derived by
  :func:`reference.vector_properties.declare` from the case's inputs: epsilon <= 0, delta outside (0, 1),
  a negative noise scale, a non-finite or norm-violating data entry) runs the candidate on the case's
  inputs with the setting merged in; it must raise (any exception; the reference raises one of
  :mod:`reference.errors`, a ValueError). Returning an output, even a clipped or NaN one, fails.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
from typing import Any, Callable

import numpy as np

ACCOUNTING_RTOL = 1e-9
DEFAULT_DELTA = 1e-6


def _event_fields() -> tuple[str, ...]:
    from .privacy.ledger import MechanismEvent

    return tuple(f.name for f in dataclasses.fields(MechanismEvent))


def _as_event(e):
    """One foreign event (an object with MechanismEvent's fields, or a dict) as this package's event."""
    from .privacy.ledger import MechanismEvent

    get = (lambda k, d=None: e.get(k, d)) if isinstance(e, dict) else (lambda k, d=None: getattr(e, k, d))
    values = {k: get(k) for k in _event_fields() if get(k) is not None}
    return MechanismEvent(**values)


def _given_ledger(function: Callable):
    """A fresh ledger of the candidate's own kind when it takes ``ledger=`` (else None)."""
    try:
        params = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return None
    if "ledger" not in params:
        return None
    cls = getattr(inspect.getmodule(function), "Ledger", None)
    return cls() if isinstance(cls, type) else None


def accounting_report(function: Callable, kwargs: dict, seed: int) -> dict | None:
    """What ``function`` reports about the privacy of one run on ``kwargs`` with ``seed``:
    ``{"events": [...], "claimed_epsilon": float}`` (either may be missing), or None if nothing."""
    ledger = _given_ledger(function)
    extra = {} if ledger is None else {"ledger": ledger}
    raw = function(**kwargs, **extra, rng=np.random.default_rng(seed))
    report: dict[str, Any] = {}
    if ledger is None:
        ledger = getattr(raw, "ledger", None)
    if ledger is not None:
        report["events"] = [_as_event(e) for e in ledger]
    claimed = getattr(raw, "claimed_epsilon", None)
    if claimed is not None:
        report["claimed_epsilon"] = float(claimed)
    return report or None


def _delta(kwargs: dict) -> float:
    d = kwargs.get("delta")
    return float(d) if isinstance(d, (int, float)) and 0.0 < float(d) < 1.0 else DEFAULT_DELTA


def _certified(events, delta: float) -> float:
    from .privacy.accounting import certify
    from .privacy.ledger import FrozenLedger

    return certify(FrozenLedger(tuple(events)), delta).epsilon


def _close(a: float, b: float) -> bool:
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= ACCOUNTING_RTOL * max(abs(a), abs(b))


def _first_difference(mine, theirs) -> str | None:
    """Where two ledgers part (the first event and field; labels aside), or None if they record the same."""
    if len(mine) != len(theirs):
        return f"{len(mine)} events, the reference's {len(theirs)}"
    for i, (a, b) in enumerate(zip(mine, theirs)):
        for name in _event_fields():
            if name == "label":
                continue
            x, y = getattr(a, name), getattr(b, name)
            if isinstance(x, float) and isinstance(y, float) and _close(x, y):
                continue
            if x != y:
                return f"event {i} ({b.kind}): {name} = {x!r} where the reference records {y!r}"
    return None


def accounting_check(case, function: Callable, reference: Callable) -> tuple[str, str]:
    """(status, detail) of the accounting property on ``case``: 'pass', 'fail' or 'n/a'."""
    kwargs = case.make_kwargs()
    ref = accounting_report(reference, kwargs, case.seed)
    if ref is None:
        return "n/a", "the reference reports no accounting for this algorithm (no ledger, no claimed epsilon)"
    try:
        got = accounting_report(function, case.make_kwargs(), case.seed)
    except Exception as exc:
        return "fail", f"raised {type(exc).__name__}: {exc}"
    if got is None:
        return "n/a", ("the candidate reports no accounting (it takes no ledger= and its result has no .ledger "
                       "nor .claimed_epsilon): what it records cannot be checked")
    parts, ok = [], True
    if "events" in got and "events" in ref:
        # the case's delta on top of what the reference's (eps_i, delta_i) events consume themselves
        delta = _delta(kwargs) + sum(e.delta for e in ref["events"])
        try:
            eps_got = _certified(got["events"], delta)
        except Exception as exc:
            return "fail", f"its ledger cannot be certified ({type(exc).__name__}: {exc})"
        eps_ref = _certified(ref["events"], delta)
        same = _close(eps_got, eps_ref)
        difference = _first_difference(got["events"], ref["events"])     # None: the same recorded values
        # a ledger laid out as the reference's (as many events, of the same kinds) must record the same values
        same_layout = [e.kind for e in got["events"]] == [e.kind for e in ref["events"]]
        ok &= same and not (same_layout and difference)
        parts.append(f"its ledger certifies epsilon {eps_got:.6g} at delta {delta:g}, the reference's {eps_ref:.6g}"
                     + ("" if same or not difference else f" ({difference})"))
        if same and same_layout and difference:
            parts.append(f"its ledger records another value: {difference}")
    if "claimed_epsilon" in got and "claimed_epsilon" in ref:
        same = _close(got["claimed_epsilon"], ref["claimed_epsilon"])
        ok &= same
        parts.append(f"claimed epsilon {got['claimed_epsilon']:.6g}, the reference's {ref['claimed_epsilon']:.6g}")
    if not parts:
        return "n/a", (f"the candidate reports {sorted(got)}, the reference {sorted(ref)}: nothing in common to "
                       "compare")
    return ("pass" if ok else "fail"), "; ".join(parts)


def validation_check(case, function: Callable, refusal) -> tuple[str, str]:
    """(status, detail) of one :class:`reference.properties.Refuses` on ``case``."""
    kwargs = {**case.make_kwargs(), **refusal.change(case.make_kwargs())}
    try:
        out = function(**kwargs, rng=np.random.default_rng(case.seed))
    except Exception as exc:       # a refusal: the reference raises a ParameterError / DomainError
        return "pass", f"refuses {refusal.what} ({type(exc).__name__})"
    shown = np.asarray(case.output(out), dtype=float) if out is not None else out
    has_nan = shown is not None and bool(np.isnan(shown).any())
    return "fail", (f"accepts {refusal.what}: returned " + ("NaN" if has_nan else "an output") +
                    " instead of raising (the reference raises)")
