"""Where two classifiers' mean-cost curves cross as the scheme's parameter θ varies: the exact values of θ at
which the ranking of two classifiers can flip ("for which r does the cautious classifier beat the precise
one?").

The difference of two mean costs, d(θ) = E_a(θ) − E_b(θ), is an exact expression in θ; its zeros on the swept
range come from `analysis.zeros` (exact for rational functions and for the power-mean forms, each
with the lemma it rests on; otherwise certified enclosures from interval bisection). Between consecutive
zeros, the sign of d is decided exactly at a rational point, so each piece says which classifier costs less
there, and a zero is a crossing when the sign differs on its two sides (a touching point is a tie only).
A zero known only to lie in a narrow certified interval is reported as that interval, never as a point.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

from verifier.analysis.zeros import simplest, zeros
from verifier.formula import certified
from verifier.formula.arith import BuiltinError
from verifier.formula.enclose import Unsupported
from verifier.lazy_sympy import sympy as sp

MAX_POINTS = 50  # zeros listed per pair; more means the curves coincide on a stretch, and the text says so


@dataclass
class Piece:
    """An open stretch (low, high) of the parameter between zeros (or the range's ends), and which classifier is
    cheaper there (decided exactly, or left undecided)."""

    low: Fraction
    high: Fraction
    cheaper: str | None  # the classifier of lower mean cost on (low, high); None: equal, or undecided
    sign: int | None  # sign of E_a − E_b on the open piece


@dataclass
class Crossing:
    """Where two classifiers' mean cost curves cross over the range: the exact zeros of E_a − E_b (or
    enclosures of them), the pieces between, or that the curves are identical."""

    a: str
    b: str
    points: list[sp.Expr] = field(default_factory=list)  # exact zeros of E_a − E_b in the range
    enclosures: list[tuple[Fraction, Fraction]] = field(default_factory=list)  # zeros known only to lie in these
    pieces: list[Piece] = field(default_factory=list)
    identical: bool = False  # the two curves are the same function of θ
    reason: str = ""  # why the zeros could not be found, when they could not
    equal_at: list[Fraction] = field(default_factory=list)  # ends of the range where both cost exactly the same

    @property
    def flips(self) -> list[sp.Expr | tuple[Fraction, Fraction]]:
        """The zeros where the cheaper classifier changes (the sign of the difference differs on both sides): the
        exact zero when it is the only one between the two pieces, else the stretch between them, which holds a
        flip (certified enclosures, or several zeros close together), never a rational standing in for a zero."""
        out = []
        for left, right in zip(self.pieces, self.pieces[1:]):
            if left.sign and right.sign and left.sign != right.sign:
                out.append(self.zero_between(left.high, right.low))
        return out

    def zero_between(self, a: Fraction, b: Fraction):
        """What lies between a piece ending at `a` and the next starting at `b`: the exact zero when it is the only
        one, the certified enclosure when it is the only one, else the stretch (a, b) itself."""
        ra, rb = sp.Rational(a.numerator, a.denominator), sp.Rational(b.numerator, b.denominator)
        points = [p for p in self.points if certified.compare(ra, p).value in (-1, 0) and
                  certified.compare(p, rb).value in (-1, 0)]
        boxes = [(lo, hi) for lo, hi in self.enclosures if hi >= a and lo <= b]
        if len(points) == 1 and not boxes:
            return points[0]
        if len(boxes) == 1 and not points:
            return boxes[0]
        return (a, b)


def crossings(curves, theta: sp.Symbol, low: Fraction, high: Fraction) -> list[Crossing]:
    """Every pair of curves (name, exact expression) on [low, high]."""
    return [_pair(a, b, theta, low, high) for a, b in combinations(curves, 2)]


def _pair(a, b, theta, low: Fraction, high: Fraction) -> Crossing:
    out = Crossing(a.name, b.name)
    d = sp.expand(a.expression - b.expression)
    if d == 0:
        out.identical = True
        return out
    try:
        points, boxes = zeros(d, theta, sp.Rational(low.numerator, low.denominator),
                              sp.Rational(high.numerator, high.denominator))
    except (Unsupported, NotImplementedError, BuiltinError, ValueError, TypeError) as exc:
        out.reason = f"the zeros of the difference could not be found ({exc})"
        return out
    points = sorted((p for p in points if p.is_real), key=lambda p: certified.to_float(p))
    if len(points) + len(boxes) > MAX_POINTS:
        out.reason = f"more than {MAX_POINTS} zeros: the curves coincide or touch along a stretch of {theta}"
        return out
    out.points, out.enclosures = points, sorted(boxes)
    out.pieces = _pieces(d, theta, low, high, points, out.enclosures, a.name, b.name)
    out.equal_at = [end for end in (low, high) if _sign_at(d, theta, end) == 0]  # an enclosure may end at a tie
    return out


def _sign_at(d, theta, x: Fraction) -> int | None:
    """The exact sign of d at the rational x (None when undecided or undefined there)."""
    try:
        return certified.sign(sp.nsimplify(d.subs(theta, sp.Rational(x.numerator, x.denominator)))).value
    except (BuiltinError, ValueError, TypeError, ZeroDivisionError):
        return None


def _pieces(d, theta, low: Fraction, high: Fraction, points, boxes, a: str, b: str) -> list[Piece]:
    """The open stretches between zeros (rational ends bracketing them), each with its exact sign of d."""
    marks = sorted([(Fraction(lo), Fraction(hi)) for lo, hi in boxes] +
                   [(_below(p), _above(p)) for p in points])
    out, start = [], low
    for lo, hi in marks + [(high, high)]:  # a stretch ends where the next mark begins, past every earlier mark
        end = min(lo, high)
        if start < end:
            sign = _sign_at(d, theta, simplest(start, end))
            cheaper = None if not sign else (a if sign < 0 else b)
            out.append(Piece(start, end, cheaper, sign))
        start = max(start, hi)
    return out


def _below(p: sp.Expr) -> Fraction:
    return _bracket(p, -1)


def _above(p: sp.Expr) -> Fraction:
    return _bracket(p, 1)


def _bracket(p: sp.Expr, side: int) -> Fraction:
    """A rational strictly on `side` of the irrational zero p (checked exactly), or p itself when rational."""
    if p.is_Rational:
        return Fraction(int(p.p), int(p.q))
    step = Fraction(1, 10**9)
    guess = Fraction(certified.to_float(p)).limit_denominator(10**12)
    for _ in range(40):
        x = guess + side * step
        if certified.compare(sp.Rational(x.numerator, x.denominator), p).value == side:
            return x
        step *= 2
    raise ValueError(f"no rational bracket found beside {p}")
