"""The float a report shows for an exact number: its correctly rounded value (round to nearest, ties to even).

Every float beside an exact value in a report is made here, once, from the exact value itself, never from a
sum or difference of floats (which rounds at every step: the mean of 1/5 over five instances summed in floats is
0.19999999999999998, not 0.2). A rational rounds as `Fraction.__float__` does, correctly; an irrational number is
enclosed in a python-flint ball, tightened until both of its ends round to the same float (round to nearest is
monotone, so the value between them rounds there too: an irrational number is never halfway between two floats).

Owns: `rounded`, `rounded_all`. May import: python-flint, `formula.enclose` (sympy on first use only).
"""

from __future__ import annotations

import math
from fractions import Fraction

PRECISIONS = (64, 128, 256, 1024, 4096)


def rounded(x) -> float:
    """The float nearest to the exact value `x` (an int, a Fraction, a sympy number); ±inf beyond the floats'
    range. A value python-flint cannot enclose (rare: a function it lacks) is rounded from sympy's 60 digits."""
    if isinstance(x, (int, Fraction)):
        return _of_fraction(Fraction(x))
    if isinstance(x, float):
        return x
    if getattr(x, "is_Rational", False):
        return _of_fraction(Fraction(int(x.p), int(x.q)))
    # only a sympy Number can be infinite here (oo, -oo); asking an expression `is_infinite` runs sympy's
    # assumptions (4 of the 7 s a 10-class JSON record took)
    if getattr(x, "is_Number", False) and x.is_infinite:
        return math.inf if x.is_extended_positive else -math.inf
    return _of_irrational(x)


def rounded_all(values) -> list[float]:
    """`rounded` of each value, in order."""
    return [rounded(v) for v in values]


def _of_fraction(q: Fraction) -> float:
    try:
        return float(q)  # Fraction.__float__ divides the integers with correct rounding
    except OverflowError:
        return math.inf if q > 0 else -math.inf


def _of_irrational(x) -> float:
    import flint

    from verifier.formula.enclose import Unsupported, enclose  # sympy only for irrational values

    for prec in PRECISIONS:
        try:
            ball = enclose(x, prec)
        except Unsupported:
            break
        if not ball.is_finite():
            continue
        with flint.ctx.workprec(prec):  # a ball's ends are rounded to the context's precision: at the default 53
            # bits they were two adjacent floats and every irrational value went on to sympy's 60 digits
            ends = ball.lower(), ball.upper()
        low, high = (_of_fraction(_exact(end)) for end in ends)
        if low == high:
            return low
    from verifier.lazy_sympy import sympy as sp

    value = sp.N(x, 60)
    return float(value) if value.is_real else math.nan


def _exact(end) -> Fraction:
    """An arb with radius 0 (a ball's end) as the Fraction it is."""
    man, exp = (int(v) for v in end.man_exp())
    return Fraction(man * 2 ** exp) if exp >= 0 else Fraction(man, 2 ** -exp)
