"""A small branch-and-bound verifier over boxes, in ball arithmetic (Arb, through python-flint).

What it proves. A claim is ``f(x) > 0 for every x in a box`` (a box is a product of closed
intervals with exact rational ends), with ``f`` written on balls: Arb guarantees that the ball
``f(B)`` returned for a ball ``B`` contains every value ``f(x)``, x in B (certified erf, erfc, exp,
log, gamma, sqrt, integrals...). :func:`prove` evaluates ``f`` on the whole box; where the enclosure
is not settled (it contains a non-positive value) it bisects the box along its widest side and tries
the halves, down to a depth limit and within a budget of evaluations. The answer is a
:class:`Certificate`:

* ``proved``: the boxes that settle the claim (their union covers the domain) and, for each, the
  enclosure of ``f`` on it (certainly > 0). ``size`` is the number of boxes.
* ``refuted``: a witness box (a point, as a degenerate box) where the enclosure of ``f`` is
  certainly <= 0 (``< 0``, or ``<= 0`` for a claim of strict positivity); the claim is false there.
* ``undecided``: the depth limit or the budget was reached with boxes left unsettled (they are
  listed). Never reported as proved.

The verifier checks its input. ``f`` does not receive Arb balls but :class:`Ball` s: they do ball
arithmetic (``+ - * / **``, ``abs``, and the certified functions listed in :data:`Ball.FUNCTIONS`)
and refuse every way out of it: comparisons, ``bool()``, ``float()``, ``int()``, ``.mid()``,
``.lower()``, ``.str()`` and any other attribute raise :class:`GuardError`, and so does a Python
float operand (``x * 0.1``: write ``arb("0.1")`` or a ``Fraction``). A Python ``if`` on a ball, or an
``f`` that rebuilds its value from ``float(x.mid())``, is then an error, not a proof (a branch decided
at the midpoint is false on the rest of the box). A piecewise ``f`` is written with the verifier's
own case split :func:`piecewise` (the value of ``below`` where ``g < 0``, of ``above`` where
``g >= 0``): where the sign of ``g`` is certain on the box one branch is evaluated, elsewhere the
union of both (a sound enclosure of the piecewise function); ``prove(..., splits=...)`` cuts the box
at known breakpoints first. Integrals go through :func:`integral` (Arb's certified integration, the
integrand receiving guarded balls too). The guard is against accidents, not against a determined
author: ``Ball._v`` is the raw ball.

The budget is deterministic: ``max_evaluations`` evaluations of ``f`` (and ``max_depth`` halvings of a
box), never wall-clock seconds, so a proof does not depend on how loaded the machine is.

Unbounded domains. Boxes are bounded. A claim over ``[lo, inf)`` is written in a compact variable in
which it is finite at the end, and the claim's function is *defined* through that variable, so that
the change of variables is the code itself and needs no separate argument: e.g. ``c >= c0`` as
``v = 1/sqrt(c)`` in ``[0, 1/sqrt(c0)]`` with ``h(v)`` finite at ``v = 0``, or ``r >= 0`` as
``s = r/(1 + r)`` in ``[0, 1]`` (:func:`prove_halfline` does the latter: ``f`` is evaluated at
``r = s/(1 - s)`` on boxes of s away from 1, and the box at ``s = 1`` is settled by ``at_infinity``,
a function of ``t = 1 - s`` that the caller writes in a form finite at ``t = 0``). A box that reaches
infinity and is not closed that way is left unsettled: never proved.

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

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import Callable, Sequence

from flint import acb, arb, ctx, fmpq, fmpz

#: Working precision in bits for every evaluation (Arb tracks the rounding error itself; the
#: precision only decides how tight the enclosures are).
PREC = 128

#: Default budget of one :func:`prove`: evaluations of ``f`` (box enclosures and midpoint probes).
MAX_EVALUATIONS = 200_000


class GuardError(TypeError):
    """``f`` tried to leave ball arithmetic (a comparison, ``bool``, ``float``, ``.mid()``, a float
    operand...): a claim so written is not checked by the verifier."""


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


# ---------------------------------------------------------------------------
# The guarded ball handed to f.

def _operand(o, where: str):
    """The raw Arb value of an operand of ball arithmetic; a float, bool or str is refused."""
    if isinstance(o, Ball):
        return o._v
    if isinstance(o, (arb, acb)):
        return o
    if isinstance(o, bool):
        raise GuardError(f"{where}: a bool operand ({o!r}) in f: a claim must not branch on or convert its balls")
    if isinstance(o, (int, fmpz, fmpq)):
        return arb(o)
    if isinstance(o, Fraction):
        return arb(fmpq(o.numerator, o.denominator))
    raise GuardError(f"{where}: a {type(o).__name__} operand ({o!r}) in f: only balls, ints and exact rationals "
                     f"enter a claim (write arb('0.1') or Fraction(1, 10) for a constant; a float is how a value "
                     f"rebuilt from float(x.mid()) gets in)")


def _refuse(what: str):
    def method(self, *args, **kwargs):
        raise GuardError(f"{what} of a ball inside f: the verifier's balls refuse to become floats or booleans "
                         f"(a Python branch or a float is decided at one point and false on the rest of the box); "
                         f"write a case split with verifier.piecewise")
    method.__name__ = what
    return method


class Ball:
    """A ball as ``f`` sees it: ball arithmetic only (see the module docstring)."""

    __slots__ = ("_v",)

    #: Certified functions a Ball forwards to Arb (each returns a ball enclosing the function's values).
    FUNCTIONS = frozenset({
        "exp", "expm1", "log", "log1p", "sqrt", "rsqrt", "root", "erf", "erfc", "erfinv", "erfcinv",
        "gamma", "lgamma", "rgamma", "digamma", "tanh", "sinh", "cosh", "sech", "sin", "cos", "tan",
        "atan", "asin", "acos", "atanh", "asinh", "acosh", "lambertw", "nonnegative_part", "max", "min",
        "union", "real", "imag", "hypgeom_2f1", "hypgeom_0f1", "hypgeom_1f1",
    })

    def __init__(self, v):
        if isinstance(v, Ball):
            v = v._v
        if not isinstance(v, (arb, acb)):
            raise GuardError(f"Ball of a {type(v).__name__}")
        object.__setattr__(self, "_v", v)

    def __getattr__(self, name):
        if name.startswith("_"):          # protocol probes (arb's own _mpf_, numpy's __array__...): absent
            raise AttributeError(name)
        raise GuardError(f".{name} of a ball inside f: the verifier's balls refuse to become floats or booleans "
                         f"(allowed: arithmetic and {sorted(Ball.FUNCTIONS)}); write a case split with "
                         f"verifier.piecewise")

    def __setattr__(self, name, value):
        raise GuardError("a Ball is immutable")

    # arithmetic: Ball op x and x op Ball give Balls (written flat: f runs millions of these)
    def __add__(self, o): return _mk(self._v + (o._v if type(o) is Ball else _operand(o, "+")))
    def __radd__(self, o): return _mk(_operand(o, "+") + self._v)
    def __sub__(self, o): return _mk(self._v - (o._v if type(o) is Ball else _operand(o, "-")))
    def __rsub__(self, o): return _mk(_operand(o, "-") - self._v)
    def __mul__(self, o): return _mk(self._v * (o._v if type(o) is Ball else _operand(o, "*")))
    def __rmul__(self, o): return _mk(_operand(o, "*") * self._v)
    def __truediv__(self, o): return _mk(self._v / (o._v if type(o) is Ball else _operand(o, "/")))
    def __rtruediv__(self, o): return _mk(_operand(o, "/") / self._v)

    def __pow__(self, o):
        if type(o) is int:
            return _mk(self._v ** o)
        return _mk(self._v ** _operand(o, "**"))

    def __rpow__(self, o): return _mk(_operand(o, "**") ** self._v)
    def __neg__(self): return _mk(-self._v)
    def __pos__(self): return self
    def __abs__(self): return _mk(abs(self._v))

    # every way out of ball arithmetic raises
    __bool__ = _refuse("bool()")
    __float__ = _refuse("float()")
    __int__ = _refuse("int()")
    __index__ = _refuse("int()")
    __complex__ = _refuse("complex()")
    __round__ = _refuse("round()")
    __trunc__ = _refuse("trunc()")
    __floor__ = _refuse("floor()")
    __ceil__ = _refuse("ceil()")
    __lt__ = _refuse("a comparison <")
    __le__ = _refuse("a comparison <=")
    __gt__ = _refuse("a comparison >")
    __ge__ = _refuse("a comparison >=")
    __eq__ = _refuse("a comparison ==")
    __ne__ = _refuse("a comparison !=")
    __format__ = _refuse("format()")
    __str__ = _refuse("str()")
    __hash__ = None

    def __repr__(self):                 # for tracebacks only (not parseable as a number)
        return "<verifier.Ball>"


_SET_V = Ball._v.__set__


def _forward(name):
    def method(self, *args):
        if args:
            return _mk(getattr(self._v, name)(*[_operand(a, f".{name}()") for a in args]))
        return _mk(getattr(self._v, name)())
    method.__name__ = name
    return method


for _name in Ball.FUNCTIONS:
    setattr(Ball, _name, _forward(_name))


def _mk(v) -> Ball:
    """A Ball around an Arb value (the fast path of the arithmetic above)."""
    b = object.__new__(Ball)
    _SET_V(b, v)
    return b


def _raw(y, what="f"):
    """The Arb value of what a claim returned (a Ball, an arb, or an exact constant)."""
    if isinstance(y, Ball):
        return y._v
    if isinstance(y, arb):
        return y
    return _operand(y, f"the value of {what}")


def piecewise(g, below, above):
    """The verifier's case split: the value of ``below`` where ``g < 0``, of ``above`` where ``g >= 0``.

    ``below`` and ``above`` are values or functions of no argument (evaluated only when needed, so a
    branch may be undefined on the other side). On a ball where the sign of ``g`` is certain, the one
    branch; where it is not, the union of both, which contains the piecewise function's value at every
    point (each point takes one of the two). Works on Balls (inside ``f``) and on plain arbs (at points)."""
    gv = _raw(g, "piecewise's g")
    guarded = isinstance(g, Ball)

    def value(branch):
        v = branch() if callable(branch) else branch
        return _raw(v, "a piecewise branch")

    if gv >= 0:
        out = value(above)
    elif gv < 0:
        out = value(below)
    else:
        out = value(below).union(value(above))
    return Ball(out) if guarded else out


def integral(fn, a, b):
    """int_a^b fn(x) dx, certified (Arb's ``acb.integral``; the real part), for an integrand analytic on a
    neighbourhood of [a, b]; ``fn`` receives guarded balls. ``a``, ``b`` may be Balls (a degenerate
    interval, a == b, gives 0)."""
    guarded = isinstance(a, Ball) or isinstance(b, Ball)
    res = acb.integral(lambda x, _: _raw(fn(Ball(x)), "the integrand"), _raw(a, "a"), _raw(b, "b")).real
    return Ball(res) if guarded else res


def xlogx(x):
    """x log x, with its limit 0 at x = 0 (which plain Arb, log 0 = -inf, cannot give), for x in the ball and
    x >= 0 (the function's domain: a ball reaching below 0, as Arb's cover of [0, b] may by a rounding, is taken
    on its part in [0, inf)). On [a, b] within [0, 1/e] x log x decreases (its derivative log x + 1 < 0), so its
    values lie in [b log b, a log a] (0 for a = 0); beyond 1/e, Arb's x * log(x) on the ball."""
    guarded = isinstance(x, Ball)
    v = _raw(x, "xlogx's argument")
    lo, hi = arb(v.lower()).max(arb(0)), arb(v.upper())
    if hi < 0 or not hi.is_finite():
        out = arb("nan")
    elif hi <= (-arb(1)).exp():
        top = arb(0) if lo.is_zero() else lo * lo.log()
        out = top if hi.is_zero() else (hi * hi.log()).union(top)
    elif lo > 0:
        out = v * v.log()
    else:
        out = arb("nan")
    return _mk(out) if guarded else out


# ---------------------------------------------------------------------------
# Certificates and branch and bound.

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
    max_depth_reached: int = 0
    parts: list = field(default_factory=list)     # sub-certificates (prove_halfline)

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
                    f"{self.evaluations} evaluations")
        if self.refuted:
            return f"REFUTED {self.claim}: witness {self.witness}, f = {self.witness_value}"
        return (f"UNDECIDED {self.claim}: {len(self.unsettled)} boxes unsettled "
                f"(first {self.unsettled[:1]}), {self.size} settled, {self.evaluations} evaluations")


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


def _pieces(root, splits):
    """The root box cut at the breakpoints ``splits`` ({coordinate: [points]}), each inside its side."""
    sides = []
    for k, (a, b) in enumerate(root):
        cuts = sorted({exact(p) for p in (splits or {}).get(k, ())} | {a, b})
        if cuts[0] < a or cuts[-1] > b:
            raise ValueError(f"split point outside side {k} of the box")
        sides.append(list(zip(cuts, cuts[1:])) or [(a, b)])
    return [list(p) for p in product(*sides)]


def evaluate(f: Callable[..., arb], *args) -> arb:
    """f on guarded balls (its arguments: intervals (lo, hi), balls or exact numbers); the raw enclosure."""
    balls = [Ball(interval(*a)) if isinstance(a, tuple) else Ball(ball(a)) for a in args]
    return _raw(f(*balls))


def prove(f: Callable[..., arb], box: Sequence, *, claim: str = "f > 0", strict: bool = True,
          max_depth: int = 40, max_evaluations: int = MAX_EVALUATIONS, max_unsettled: int = 8,
          splits: dict | None = None) -> Certificate:
    """Try to prove ``f(x) > 0`` (``strict``) or ``f(x) >= 0`` for every x in ``box``.

    ``box`` is a sequence of (lo, hi) pairs (exact ends: ints, Fractions, decimal strings, fmpq, floats
    by their exact value). ``f`` receives :class:`Ball` s (refusing comparisons and conversions: see the
    module docstring). Bisection stops at ``max_depth`` halvings of a box or after ``max_evaluations``
    evaluations of ``f``: what is left is reported ``undecided``. ``splits`` ({coordinate: [points]})
    cuts the box at known breakpoints of a :func:`piecewise` ``f`` before bisecting. A refutation is
    looked for at the midpoint of every box the enclosure does not settle.
    """
    with ctx.workprec(PREC):
        root = [(exact(a), exact(b)) for a, b in box]
        if any(a > b for a, b in root):
            raise ValueError(f"empty box {box}")
        stack = [(p, 0) for p in reversed(_pieces(root, splits))]
        cert = Certificate(claim=claim, status="proved")

        def positive(y: arb) -> bool:
            return bool(y > 0) if strict else bool(y >= 0)

        def violated(y: arb) -> bool:
            return bool(y <= 0) if strict else bool(y < 0)

        while stack:
            b, depth = stack.pop()
            y = _raw(f(*[Ball(interval(lo, hi)) for lo, hi in b]))
            cert.evaluations += 1
            cert.max_depth_reached = max(cert.max_depth_reached, depth)
            if y.is_finite() and positive(y):
                cert.boxes.append((_box_floats(b), lo_hi(y)))
                continue
            point = [(lo + hi) / 2 for lo, hi in b]      # exact rationals inside the box
            yp = _raw(f(*[Ball(ball(p)) for p in point]))
            cert.evaluations += 1
            if yp.is_finite() and violated(yp):
                cert.status = "refuted"
                cert.witness = [(_q_float(p), _q_float(p)) for p in point]
                cert.witness_exact = point
                cert.witness_value = yp.str(10)
                return cert
            if depth >= max_depth or cert.evaluations >= max_evaluations:
                cert.status = "undecided"
                cert.unsettled.append(_box_floats(b))
                if len(cert.unsettled) >= max_unsettled:
                    break
                continue
            left, right = _split(b)
            stack.append((right, depth + 1))
            stack.append((left, depth + 1))
        return cert


def refute(f: Callable[..., arb], box: Sequence, **kw) -> Certificate:
    """:func:`prove` run for its witness: a claim expected to be false."""
    return prove(f, box, **kw)


def prove_halfline(f: Callable[..., arb], lo=0, *, at_infinity: Callable[..., arb] | None = None,
                   t_end=Fraction(1, 2 ** 40), claim: str = "f > 0 on [lo, inf)", **kw) -> Certificate:
    """Try to prove ``f(r) > 0`` for EVERY r >= lo, by the change of variables r = lo + s/(1 - s), s in [0, 1).

    The verifier evaluates ``f`` at ``r = lo + s/(1 - s)`` on boxes of s in [0, 1 - t_end]; the end
    s in [1 - t_end, 1] (r >= lo + (1 - t_end)/t_end, and r = inf) is settled by ``at_infinity(t)``,
    t = 1 - s in [0, t_end]: the caller writes there a function whose positivity implies f's (f times a
    positive weight, rewritten so that it is finite at t = 0, i.e. at r = inf). Without ``at_infinity``
    the end box is left unsettled (a true claim is then ``undecided``, a false one is refuted if a
    midpoint falls where it fails). The two parts are in ``parts``; a witness is reported in r. ``splits``
    ({0: [points of s]}) cut the s-box only; the end box is searched without them."""
    lo_q, te = exact(lo), exact(t_end)
    if not 0 < te < 1:
        raise ValueError("t_end must lie in (0, 1)")

    def in_s(s):
        return f(lo_q + s / (1 - s))

    body = prove(in_s, [(0, 1 - te)], claim=f"{claim} [s-box]", **kw)
    cert = Certificate(claim=claim, status=body.status, evaluations=body.evaluations,
                       max_depth_reached=body.max_depth_reached, boxes=list(body.boxes), parts=[body])
    if body.refuted:
        (s,) = body.witness_exact
        r = lo_q + s / (1 - s)
        cert.witness, cert.witness_exact, cert.witness_value = [(_q_float(r), _q_float(r))], [r], body.witness_value
        return cert
    if at_infinity is None:
        cert.status = "undecided"
        cert.unsettled = list(body.unsettled) + [[(_q_float(1 - te), 1.0)]]
        return cert
    with ctx.workprec(PREC):                      # the rewrite agrees in sign with f where both are finite
        for k in (1, 2, 3):
            t = te * fmpq(k, 4)
            ya, yf = evaluate(at_infinity, t), evaluate(f, lo_q + (1 - t) / t)
            if (ya > 0 and yf < 0) or (ya < 0 and yf > 0):
                raise ValueError(f"at_infinity({t}) = {ya} and f = {yf} have opposite signs: not a rewrite of f")
    end_kw = {k: v for k, v in kw.items() if k != "splits"}    # the splits are points of s, not of t
    end = prove(at_infinity, [(0, te)], claim=f"{claim} [end, t = 1 - s]", **end_kw)
    cert.parts.append(end)
    cert.evaluations += end.evaluations
    cert.boxes += end.boxes
    cert.unsettled = list(body.unsettled) + list(end.unsettled)
    if end.refuted:
        (t,) = end.witness_exact
        if t == 0:
            cert.status, cert.witness, cert.witness_exact = "refuted", [(float("inf"), float("inf"))], [None]
        else:
            r = lo_q + (1 - t) / t
            cert.status, cert.witness, cert.witness_exact = "refuted", [(_q_float(r), _q_float(r))], [r]
        cert.witness_value = end.witness_value
    elif body.proved and end.proved:
        cert.status = "proved"
    else:
        cert.status = "undecided"
    return cert


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
    ``g`` receives guarded :class:`Ball` s, as in :func:`prove`.

    Raises ValueError when the end signs are not certain or a midpoint's sign cannot be decided
    at the working precision (then the root is located only to that midpoint's neighbourhood).
    """
    with ctx.workprec(PREC):
        a, b = exact(lo), exact(hi)
        ga, gb = evaluate(g, a), evaluate(g, b)
        sa = 1 if ga > 0 else -1 if ga < 0 else 0
        sb = 1 if gb > 0 else -1 if gb < 0 else 0
        if sa == 0 or sb == 0 or sa == sb:
            raise ValueError(f"no certified sign change: g(lo) = {ga}, g(hi) = {gb}")
        steps = 0
        while _q_float(b - a) > tol:
            if steps >= max_steps:
                raise ValueError("bracket_root: step limit")
            m = (a + b) / 2
            gm = evaluate(g, m)
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
