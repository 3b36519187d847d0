"""A small branch-and-bound verifier over boxes, in ball arithmetic (Arb, through python-flint).

What it proves. A claim is ``f(x) > 0 for every x in a box`` (a box is a product of closed
intervals), with ``f`` written on ``flint.arb`` balls: Arb guarantees that the ball ``f(B)`` returned
for a ball ``B`` contains every value ``f(x)``, x in B (certified erf, erfc, exp, log, gamma, sqrt,
integrals...). :func:`prove` evaluates ``f`` on the whole box; where the enclosure is not settled
(it contains a non-positive value) it bisects the box along its widest side and tries the halves,
down to a depth limit and within a time limit. The answer is a :class:`Certificate`:

* ``proved``: the boxes that settle the claim (their union covers the domain) and, for each, the
  enclosure of ``f`` on it (certainly > 0). ``size`` is the number of boxes.
* ``refuted``: a witness box (a point, as a degenerate box) where the enclosure of ``f`` is
  certainly <= 0 (``< 0``, or ``<= 0`` for a claim of strict positivity); the claim is false there.
* ``undecided``: the depth or time limit was reached with boxes left unsettled (they are listed).
  Never reported as proved.

:func:`bracket_root` brackets a sign change of a one-variable function by certified bisection: two
points a < b with enclosures of opposite signs, b - a <= tol. A threshold is then stated as two
claims settled by :func:`prove` (``g > 0`` on [lo, a], ``g < 0`` on [b, hi]).

Where it is importable from: it is a plain module in proofs/ (not a package, and not collected:
pytest collects ``proof_*.py`` only). pytest puts proofs/ on ``sys.path`` for the tests in proofs/
(the default ``prepend`` import mode: proofs/ has no ``__init__.py``), so they write
``from verifier import prove``; elsewhere add proofs/ to ``sys.path`` first. It depends on nothing
in ``reference`` (the claims it checks are written independently of the package).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from fractions import Fraction

from flint import arb, ctx, fmpq

#: Working precision in bits for every evaluation (Arb tracks the rounding error itself; the
#: precision only decides how tight the enclosures are).
PREC = 128


def exact(v) -> fmpq:
    """An exact rational endpoint: ints, floats (their exact binary value), decimal strings
    ("8.43" is 843/100), Fractions, fmpq."""
    if isinstance(v, fmpq):
        return v
    f = v if isinstance(v, Fraction) else Fraction(v)
    return fmpq(f.numerator, f.denominator)


def ball(v) -> arb:
    """The ball of an exact endpoint (at the working precision), or an arb unchanged."""
    if isinstance(v, arb):
        return v
    return arb(exact(v))


def interval(lo, hi) -> arb:
    """A ball covering [lo, hi] (Arb stores a ball as midpoint and a 30-bit radius, so it may
    cover slightly more: harmless for a proof, which then holds on a superset)."""
    return ball(lo).union(ball(hi))


def lo_hi(x: arb) -> tuple[float, float]:
    """Float bounds of a ball (rounded outward), for reports."""
    return float(x.lower().lower().mid()), float(x.upper().upper().mid())


def _q_float(q: fmpq) -> float:
    return int(q.p) / int(q.q)


@dataclass
class Certificate:
    """The outcome of a claim: status, the settling boxes with their enclosures, a witness or the
    unsettled boxes, and the work done."""

    claim: str
    status: str                                   # "proved", "refuted" or "undecided"
    boxes: list = field(default_factory=list)     # [(box as [(lo, hi) floats]), enclosure str)]
    witness: list | None = None                   # [(x, x)] per coordinate, and its enclosure
    witness_value: str = ""
    witness_exact: list | None = None             # the witness point, exact rationals
    unsettled: list = field(default_factory=list)
    evaluations: int = 0
    seconds: float = 0.0
    max_depth_reached: int = 0

    @property
    def proved(self) -> bool:
        return self.status == "proved"

    @property
    def refuted(self) -> bool:
        return self.status == "refuted"

    @property
    def size(self) -> int:
        """Number of boxes in the certificate (settled boxes; 1 for a witness)."""
        return len(self.boxes) if self.proved else (1 if self.refuted else len(self.boxes))

    def summary(self) -> str:
        if self.proved:
            return (f"PROVED {self.claim}: {self.size} boxes, depth {self.max_depth_reached}, "
                    f"{self.evaluations} evaluations, {self.seconds:.2f} s")
        if self.refuted:
            return f"REFUTED {self.claim}: witness {self.witness}, f = {self.witness_value}"
        return (f"UNDECIDED {self.claim}: {len(self.unsettled)} boxes unsettled "
                f"(first {self.unsettled[:1]}), {self.size} settled, {self.seconds:.2f} s")


def _box_floats(box) -> list[tuple[float, float]]:
    return [(_q_float(a), _q_float(b)) for a, b in box]


def _split(box):
    """Halve the widest side (relative to the box's own scale is not needed: sides are compared
    as they are, so give the variables comparable scales)."""
    k = max(range(len(box)), key=lambda i: box[i][1] - box[i][0])
    a, b = box[k]
    m = (a + b) / 2
    left, right = list(box), list(box)
    left[k], right[k] = (a, m), (m, b)
    return left, right


def prove(f: Callable[..., arb], box: Sequence, *, claim: str = "f > 0", strict: bool = True,
          max_depth: int = 40, time_limit: float = 20.0, max_unsettled: int = 8) -> Certificate:
    """Try to prove ``f(x) > 0`` (``strict``) or ``f(x) >= 0`` for every x in ``box``.

    ``box`` is a sequence of (lo, hi) pairs or of arb balls. Bisection stops at ``max_depth``
    halvings of a box or after ``time_limit`` seconds: what is left is reported ``undecided``.
    A refutation is looked for at the midpoint of every box the enclosure does not settle.
    """
    with ctx.workprec(PREC):
        start = time.perf_counter()
        root = [(exact(a), exact(b)) for a, b in box]
        if any(a > b for a, b in root):
            raise ValueError(f"empty box {box}")
        stack = [(root, 0)]
        cert = Certificate(claim=claim, status="proved")

        def positive(y: arb) -> bool:
            return bool(y > 0) if strict else bool(y >= 0)

        def violated(y: arb) -> bool:
            return bool(y <= 0) if strict else bool(y < 0)

        while stack:
            b, depth = stack.pop()
            y = f(*[interval(lo, hi) for lo, hi in b])
            cert.evaluations += 1
            cert.max_depth_reached = max(cert.max_depth_reached, depth)
            if y.is_finite() and positive(y):
                cert.boxes.append((_box_floats(b), lo_hi(y)))
                continue
            point = [(lo + hi) / 2 for lo, hi in b]      # exact rationals inside the box
            yp = f(*[ball(p) for p in point])
            cert.evaluations += 1
            if yp.is_finite() and violated(yp):
                cert.status = "refuted"
                cert.witness = [(_q_float(p), _q_float(p)) for p in point]
                cert.witness_exact = point
                cert.witness_value = yp.str(10)
                cert.seconds = time.perf_counter() - start
                return cert
            if depth >= max_depth or time.perf_counter() - start > time_limit:
                cert.status = "undecided"
                cert.unsettled.append(_box_floats(b))
                if len(cert.unsettled) >= max_unsettled:
                    break
                continue
            left, right = _split(b)
            stack.append((right, depth + 1))
            stack.append((left, depth + 1))
        cert.seconds = time.perf_counter() - start
        return cert


def refute(f: Callable[..., arb], box: Sequence, **kw) -> Certificate:
    """:func:`prove` run for its witness: a claim expected to be false."""
    return prove(f, box, **kw)


@dataclass
class Bracket:
    """A certified sign change: enclosures of g at ``a`` and ``b`` have opposite signs, b - a <= tol."""

    a: fmpq
    b: fmpq
    ga: arb
    gb: arb
    steps: int

    @property
    def width(self) -> float:
        return _q_float(self.b - self.a)


def bracket_root(g: Callable[[arb], arb], lo, hi, *, tol: float = 1e-12, max_steps: int = 200) -> Bracket:
    """Certified bisection for a sign change of g on [lo, hi] (g(lo), g(hi) of certain, opposite signs).

    Raises ValueError when the end signs are not certain or a midpoint's sign cannot be decided
    at the working precision (then the root is located only to that midpoint's neighbourhood).
    """
    with ctx.workprec(PREC):
        a, b = exact(lo), exact(hi)
        ga, gb = g(ball(a)), g(ball(b))
        sa = 1 if ga > 0 else -1 if ga < 0 else 0
        sb = 1 if gb > 0 else -1 if gb < 0 else 0
        if sa == 0 or sb == 0 or sa == sb:
            raise ValueError(f"no certified sign change: g(lo) = {ga}, g(hi) = {gb}")
        steps = 0
        while _q_float(b - a) > tol:
            if steps >= max_steps:
                raise ValueError("bracket_root: step limit")
            m = (a + b) / 2
            gm = g(ball(m))
            steps += 1
            sm = 1 if gm > 0 else -1 if gm < 0 else 0
            if sm == 0:
                raise ValueError(f"sign of g undecided at {m} (enclosure {gm}): raise PREC")
            if sm == sa:
                a, ga = m, gm
            else:
                b, gb = m, gm
        return Bracket(a, b, ga, gb, steps)


# ---------------------------------------------------------------------------
# Ball helpers used by the claims (written once here, each from its textbook definition).

def ncdf(x: arb) -> arb:
    """Standard normal cdf Phi(x) = erfc(-x / sqrt 2) / 2 (certified)."""
    return (-x / arb(2).sqrt()).erfc() / 2


def npdf(x: arb) -> arb:
    return (-x * x / 2).exp() / (2 * arb.pi()).sqrt()


def certainly_below(x: arb, bound) -> bool:
    """Every value in the ball x is < bound."""
    return bool(x < ball(bound))


def within(x: arb, ref, rel) -> bool:
    """The ball x lies within relative distance ``rel`` of ``ref`` (every value in it)."""
    r = arb(ref) if isinstance(ref, str) else ball(ref)
    return bool(abs(x - r) <= abs(r) * ball(rel))
