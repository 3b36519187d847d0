"""Three of conform's properties that look at what a candidate says rather than only at what it releases.

- **accounting** (a comparison with the reference, like replay: reported; it decides the exit status only
  with ``--require accounting``): what the candidate reports about its own privacy equals what the
  reference reports for the same run. A candidate reports accounting in one or both of two ways:

  * a ledger: either it takes a ``ledger`` keyword (the building blocks do: conform then passes it a
    fresh ``Ledger`` of the candidate's own module, i.e. the class its module defines or imports under
    that name) or its result has a ``.ledger``. A ledger is any iterable of events with the fields of
    :class:`reference.privacy.ledger.MechanismEvent` (``kind``, ``sensitivity``, ``norm``,
    ``noise_scale``, ...; attributes or dict keys). Both ledgers are certified by *this package's*
    accountant (:func:`reference.privacy.accounting.certify`) at the case's ``delta`` (1e-6 when the
    case has none) plus the deltas the reference's approximate events consume, and the two epsilons
    must agree to ``ACCOUNTING_RTOL``; a ledger laid out as the reference's (as many events, of the same
    kinds) must also record the same values in each. The first event where the two ledgers part is
    named in the row.
  * a claim: the result's ``claimed_epsilon``, compared with the reference's to ``ACCOUNTING_RTOL``.

  A candidate that reports neither is ``n/a`` for it (and so is a case whose reference reports neither).

- **claim** (a conformance property: it decides): the candidate's own ledger, certified by this package's
  accountant, covers the epsilon the candidate itself claims (:func:`claim_check`); ``n/a`` unless it
  reports both.

- **validation** (a conformance property): the input contract. Each :class:`reference.oracle.properties.Refuses`
  of the case runs the candidate on the case's inputs with the setting merged in; a ValueError (or an
  error of :mod:`reference.errors`, or any exception naming the changed parameter) is a refusal and
  passes; a TypeError is a call mismatch and fails as such; returning fails, showing what was returned
  (:func:`validation_check`).
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
    from ..privacy.ledger import MechanismEvent

    return tuple(f.name for f in dataclasses.fields(MechanismEvent))


def _as_event(e):
    """One foreign event (an object with MechanismEvent's fields, or a dict) as this package's event."""
    from ..privacy.ledger import MechanismEvent

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
    from ..privacy.accounting import certify
    from ..privacy.ledger import FrozenLedger

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


_REFERENCE_REPORTS: dict = {}


def reference_report(case, reference: Callable) -> dict | None:
    """The reference's :func:`accounting_report` on ``case`` (deterministic: computed once per case)."""
    key = (case.algorithm, case.name, case.reference)
    if key not in _REFERENCE_REPORTS:
        _REFERENCE_REPORTS[key] = accounting_report(reference, case.make_kwargs(), case.seed)
    return _REFERENCE_REPORTS[key]


def accounting_check(case, function: Callable, reference: Callable, got: Any = None) -> tuple[str, str]:
    """(status, detail) of the accounting property on ``case``: 'pass', 'fail' or 'n/a'.

    What the candidate reports against what the reference reports for the same run. This is a
    comparison with the reference (like replay): conform reports it, and it decides the exit status
    only when asked (``--require accounting``). ``got``: the candidate's :func:`accounting_report`
    when the caller has it (an exception instance if the candidate raised)."""
    kwargs = case.make_kwargs()
    ref = reference_report(case, reference)
    if ref is None:
        return "n/a", "the reference reports no accounting for this algorithm (no ledger, no claimed epsilon)"
    if got is None:
        got = _candidate_accounting(case, function)
    if isinstance(got, Exception):
        return "fail", f"raised {type(got).__name__}: {got}"
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


def _candidate_accounting(case, function: Callable):
    """What the candidate reports about its own accounting on ``case`` (accounting_report), or the exception it
    raised: the caller turns an exception into that property's FAIL."""
    try:
        return accounting_report(function, case.make_kwargs(), case.seed)
    except Exception as exc:
        return exc


def claim_check(case, function: Callable, reference: Callable, got: Any = None) -> tuple[str, str]:
    """(status, detail) of the claim property on ``case``: the candidate's own ledger, certified by this
    package's accountant, covers the epsilon the candidate itself claims (its result's ``claimed_epsilon``).

    The paper's printed calibrations do not always meet their own claims (docs/errata.md): where the
    reference's certificate on this case exceeds the reference's claim, the candidate's may exceed its
    own claim by the same factor, no more (its shortfall is then the paper's, not the port's). ``n/a``
    when the candidate reports no ledger or claims no epsilon: there is nothing of its own to cover.
    The values the reference records are not asked for here (that is ``accounting``)."""
    kwargs = case.make_kwargs()
    if got is None:
        got = _candidate_accounting(case, function)
    if isinstance(got, Exception):
        return "fail", f"raised {type(got).__name__}: {got}"
    if got is None or "events" not in got or "claimed_epsilon" not in got:
        has = [] if got is None else sorted(got)
        return "n/a", ("the candidate " + ("reports " + " and ".join(
            {"events": "a ledger", "claimed_epsilon": "a claimed epsilon"}[k] for k in has) + " only" if has
            else "reports no ledger and no claimed epsilon") + ": no claim of its own with a ledger to certify it")
    claimed = float(got["claimed_epsilon"])
    delta = _delta(kwargs) + sum(e.delta for e in got["events"])
    try:
        certified = _certified(got["events"], delta)
    except Exception as exc:
        return "fail", f"its ledger cannot be certified ({type(exc).__name__}: {exc})"
    shown = f"its ledger certifies epsilon {certified:.6g} at delta {delta:g}, it claims {claimed:.6g}"
    if not claimed > 0:
        return "fail", shown + ": a claimed epsilon must be positive"
    if certified <= claimed * (1 + ACCOUNTING_RTOL):
        return "pass", shown + " (covered)"
    allowed = 1.0
    ref = None
    try:
        ref = reference_report(case, reference)
    except Exception:      # the reference's side is only needed for the paper's own shortfall
        pass
    if ref is not None and "events" in ref and "claimed_epsilon" in ref and ref["claimed_epsilon"] > 0:
        ref_delta = _delta(kwargs) + sum(e.delta for e in ref["events"])
        ref_certified = _certified(ref["events"], ref_delta)
        allowed = max(1.0, ref_certified / ref["claimed_epsilon"])
        ref_shown = f"the reference's certifies {ref_certified:.6g} for its claim {ref['claimed_epsilon']:.6g}"
    else:
        ref_shown = "the reference reports no certifiable claim on this case"
    if allowed > 1.0 and certified <= claimed * allowed * (1 + ACCOUNTING_RTOL):
        return "pass", (shown + f": not covered, as the reference's is not on this case ({ref_shown}): the "
                                "paper's calibration falls short of its own claim (docs/errata.md), not the port")
    return "fail", shown + f": the certificate does not cover the candidate's own claim ({ref_shown})"


def _names_parameter(exc: BaseException, names) -> bool:
    """Whether ``exc`` names one of the parameters ``names`` (its ``.name``, or the name in its message)."""
    import re

    if getattr(exc, "name", None) in names:
        return True
    text = str(exc).lower()
    return any(re.search(rf"(?<![a-z0-9_]){re.escape(n.lower())}(?![a-z0-9_])", text) for n in names)


def _shown_output(out) -> str:
    """A short rendering of what a candidate returned (for a validation failure)."""
    try:
        arr = np.asarray(out, dtype=float)
    except Exception:
        return repr(out)[:120]
    text = np.array2string(arr.ravel()[:6], precision=4, separator=", ")
    more = f" ({arr.size} values)" if arr.size > 6 else ""
    return f"{text}{more}" + (" (NaN)" if bool(np.isnan(arr).any()) else "")


def validation_check(case, function: Callable, refusal, read: Callable | None = None) -> tuple[str, str]:
    """(status, detail) of one :class:`reference.oracle.properties.Refuses` on ``case``.

    The input contract: the candidate must refuse the input. A ``ValueError`` (every error of
    :mod:`reference.errors` that flags bad input is one) is a refusal, whatever its message; so is
    any other exception that names the changed parameter (a binding's ``RuntimeError("epsilon must
    be > 0")``). A ``TypeError`` is a call mismatch (the candidate does not take the arguments the
    cases pass), reported as such and failed: it says nothing about the input. Any other exception
    is a crash, not a refusal. Returning an output fails, and the row shows what was returned.
    ``read``: how to read the output from the result (``case.output`` by default)."""
    from ..errors import ReferenceSpecError

    read = case.output if read is None else read
    change = refusal.change(case.make_kwargs())
    kwargs = {**case.make_kwargs(), **change}
    try:
        out = function(**kwargs, rng=np.random.default_rng(case.seed))
    except TypeError as exc:
        return "fail", (f"call mismatch at {refusal.what}: TypeError: {exc} (the candidate does not take the "
                        "arguments the cases pass: python -m reference list shows them); not a refusal")
    except (ValueError, ReferenceSpecError) as exc:       # a refusal: the reference raises a ParameterError
        return "pass", f"refuses {refusal.what} ({type(exc).__name__})"
    except Exception as exc:
        if _names_parameter(exc, tuple(change)):
            return "pass", f"refuses {refusal.what} ({type(exc).__name__} naming {', '.join(change)})"
        return "fail", (f"crashes at {refusal.what}: {type(exc).__name__}: {exc} (neither a ValueError nor an "
                        f"error naming {', '.join(change)}: a crash, not a refusal)")
    try:
        shown = "None" if out is None else _shown_output(read(out))
    except Exception as exc:
        shown = f"a result conform cannot read ({type(exc).__name__}: {exc})"
    return "fail", (f"accepts {refusal.what}: returned "
                    + shown + " instead of raising (the reference raises)")
