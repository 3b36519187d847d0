"""The package's exceptions.

Every public function checks what it can of its preconditions and raises one of
these with a message naming the parameter and the constraint it violated. Each
subclasses ``ValueError`` (or ``RuntimeError`` for audit failures) so callers who
only know the standard library still catch them.
"""

from __future__ import annotations


class ReferenceSpecError(Exception):
    """Base class of every error this package raises on purpose."""


_VERBS = {"be", "have", "name", "lie", "contain", "match"}


class ParameterError(ReferenceSpecError, ValueError):
    """A parameter is outside the range the paper (or the mathematics) allows.

    ``name`` is the parameter, ``constraint`` the condition it must satisfy, and
    ``value`` what was given.
    """

    def __init__(self, name: str, constraint: str, value: object = None):
        self.name = name
        self.constraint = constraint
        self.value = value
        shown = "" if value is None else f" (got {value!r})"
        # a constraint written as a verb phrase ("be of the form ...") reads "name must be ...";
        # a condition ("0 < beta < 1") reads "name must satisfy 0 < beta < 1"
        verb = "" if constraint.split(" ", 1)[0] in _VERBS else "satisfy "
        super().__init__(f"{name} must {verb}{constraint}{shown}")


class ShapeError(ParameterError):
    """Arrays have the wrong shape, are empty, or do not match each other."""


class NonFiniteError(ParameterError):
    """An input contains NaN or infinity."""


class AssumptionViolation(ReferenceSpecError, ValueError):
    """Data violate an assumption a privacy or utility proof needs.

    For example a feature vector outside the norm ball the sensitivity bound
    assumes, or a loss whose declared Lipschitz constant is exceeded on the data.
    The package never clips or repairs such data silently.
    """

    def __init__(self, assumption: str, detail: str = ""):
        self.assumption = assumption
        self.detail = detail
        super().__init__(f"assumption violated: {assumption}" + (f" ({detail})" if detail else ""))


class AccountingError(ReferenceSpecError, ValueError):
    """A ledger or composition request the accountant cannot certify."""


class AuditError(ReferenceSpecError, RuntimeError):
    """An audit cannot be carried out soundly (bad statistic, non-finite output, ...)."""


class SolverError(ReferenceSpecError, RuntimeError):
    """A numerical subproblem (root-find, LP, mirror step) could not certify its answer.

    Raised instead of returning a point whose optimality residual exceeds the stated tolerance.
    """


class NotBuiltError(ReferenceSpecError, LookupError):
    """A paper the package knows by name but has not built yet: nothing of it is registered."""

    def __init__(self, paper: str, what: str, built: list[str]):
        self.paper = paper
        super().__init__(f"paper {paper!r} is not built yet: it has no {what} registered "
                         f"(built: {', '.join(built)})")


class PrivacyWarning(UserWarning):
    """A calibration the package refutes or cannot certify was run.

    Raised (as a warning, so code that reproduces a paper as printed still runs) when an
    algorithm runs a paper's noise that the package has shown is not (epsilon, delta)-DP or
    cannot prove to be, or when a privacy precondition cannot be checked. The message names
    the erratum in docs/errata.md and the certified alternative. To make it an error:
    ``warnings.simplefilter("error", PrivacyWarning)``.
    """


def warn_privacy(what: str, erratum: str, alternative: str, stacklevel: int = 3) -> None:
    """Emit a :class:`PrivacyWarning`: ``what`` happened, see ``erratum``, use ``alternative`` instead."""
    import warnings

    warnings.warn(PrivacyWarning(f"{what} (docs/errata.md {erratum}); the certified alternative: {alternative}"),
                  stacklevel=stacklevel)
