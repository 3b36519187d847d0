"""The record of every mechanism an algorithm ran.

An algorithm creates a :class:`Ledger`, passes it to each mechanism it invokes,
and returns ``ledger.freeze()`` with its result. The accountant
(:mod:`reference.privacy.accounting`) reads nothing but the ledger to certify a
run, so a ledger must say everything the privacy proof needs: which mechanism,
the sensitivity of what it privatised (in which norm, under which neighbouring
relation), and its noise scale or privacy parameter.

Kinds of event and the parameters each carries (``noise_scale`` is the standard
deviation for Gaussian noise and the scale ``b`` for Laplace / Gumbel noise):

==========================  ===========  ============  ===============================
kind                        norm         noise_scale   epsilon / delta
==========================  ===========  ============  ===============================
``gaussian``                ``l2``       sigma         --
``laplace``                 ``l1``       b             --
``exponential``             ``score``    --            epsilon (the mechanism's own)
``report_noisy_max``        ``score``    b             -- (``noise`` = laplace|gumbel)
``pure``                    any          --            epsilon (a stated eps-DP step)
``approximate``             any          --            epsilon, delta (stated)
``claimed``                 any          --            epsilon, delta (claimed only)
==========================  ===========  ============  ===============================

``pure`` and ``approximate`` are for steps whose guarantee a cited theorem proves at
the calibration used (the label names the theorem). ``claimed`` is for a step whose
guarantee a paper states but no theorem the package trusts supports at this calibration
(for instance a printed noise scale the audit refutes, or a caller's own noise scale).
The accountant refuses to certify a ledger that holds one: ``certify`` returns an
infinite epsilon, so a claimed guarantee is never reported as a proved one.

``score`` means: the largest change of any one candidate's score between
neighbours (the l_inf change of the score vector).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

from .._validate import check_delta, check_nonnegative, check_positive, real_toward
from ..errors import ParameterError

KINDS = ("gaussian", "laplace", "exponential", "report_noisy_max", "pure", "approximate", "claimed")
NORMS = ("l1", "l2", "linf", "score")
RELATIONS = ("replace-one", "add-remove")


@dataclass(frozen=True)
class MechanismEvent:
    """One invocation of a mechanism, with what the accountant needs to certify it."""

    kind: str
    sensitivity: float
    norm: str
    relation: str = "replace-one"
    noise_scale: float | None = None
    epsilon: float | None = None
    delta: float = 0.0
    monotone: bool = False
    noise: str | None = None
    label: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ParameterError("kind", f"one of {KINDS}", self.kind)
        if self.norm not in NORMS:
            raise ParameterError("norm", f"one of {NORMS}", self.norm)
        if self.relation not in RELATIONS:
            raise ParameterError("relation", f"one of {RELATIONS}", self.relation)
        check_nonnegative(self.sensitivity, "sensitivity")
        if self.kind in ("gaussian", "laplace", "report_noisy_max"):
            if self.noise_scale is None:
                raise ParameterError("noise_scale", f"given for a {self.kind} event", None)
            check_positive(self.noise_scale, "noise_scale")
        if self.kind in ("exponential", "pure", "approximate", "claimed"):
            if self.epsilon is None:
                raise ParameterError("epsilon", f"given for a {self.kind} event", None)
            check_positive(self.epsilon, "epsilon")
        if self.kind == "approximate":
            check_delta(self.delta)
        elif self.kind == "claimed":
            check_delta(self.delta, allow_zero=True)
        elif self.delta != 0.0:
            raise ParameterError("delta", f"0 for a {self.kind} event", self.delta)
        if self.kind == "report_noisy_max" and self.noise not in ("laplace", "gumbel"):
            raise ParameterError("noise", "'laplace' or 'gumbel' for report_noisy_max", self.noise)
        # Store every number as a Python float (NumPy scalars, ints and Fractions accepted), rounded toward
        # the safe side where it is not exactly a float: the accountant then reads floats only.
        object.__setattr__(self, "sensitivity", real_toward(self.sensitivity, "sensitivity", up=True))
        if self.noise_scale is not None:
            object.__setattr__(self, "noise_scale", real_toward(self.noise_scale, "noise_scale", up=False))
        if self.epsilon is not None:
            object.__setattr__(self, "epsilon", real_toward(self.epsilon, "epsilon", up=True))
        object.__setattr__(self, "delta", real_toward(self.delta, "delta", up=True))


@dataclass(frozen=True)
class FrozenLedger:
    """An immutable ledger, returned with an algorithm's result."""

    events: tuple[MechanismEvent, ...] = ()

    def __iter__(self) -> Iterator[MechanismEvent]:
        return iter(self.events)

    def __len__(self) -> int:
        return len(self.events)

    def kinds(self) -> set[str]:
        return {e.kind for e in self.events}


@dataclass
class Ledger:
    """A growing list of mechanism events, filled in while an algorithm runs."""

    events: list[MechanismEvent] = field(default_factory=list)

    def record(self, event: MechanismEvent) -> None:
        if not isinstance(event, MechanismEvent):
            raise ParameterError("event", "a MechanismEvent", type(event).__name__)
        self.events.append(event)

    def freeze(self) -> FrozenLedger:
        return FrozenLedger(tuple(self.events))

    def __iter__(self) -> Iterator[MechanismEvent]:
        return iter(self.events)

    def __len__(self) -> int:
        return len(self.events)
