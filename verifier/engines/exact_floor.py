"""Exact numbers rounded down to a grid: the same bound on every machine, whatever enclosed them.

A float product in another summation order moves a certified bound in its last bits; a bound rounded down
to a fixed grid from the exact value does not move. Each function decides the rounding from an enclosure
(floats from any machine, then arb balls of rising precision) and, at a grid point, from the exact sign.
- `floor_scaled`: ⌊c·2^bits⌋ of an exact cell (the canonical LP's data);
- `margin_floor`: min over linear forms Σ coefficient·cell, rounded down to MARGIN_BITS significant bits;
- `floor_of_enclosure`: the same rounding read off a float enclosure, when the enclosure settles it.

Owns: `floor_scaled`, `margin_floor`, `floor_of_enclosure`, `MARGIN_BITS`. May import: `formula`,
`lazy_sympy`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from math import floor

import flint

from verifier.formula import certified
from verifier.formula.enclose import Unsupported, enclose
from verifier.formula.irrational_mean import IrrationalMean
from verifier.lazy_sympy import sympy as sp

# significant bits of a printed lower bound of an irrational margin: 7 decimal digits, more than any display
# shows, and few enough that the float enclosures of a witness's gap (about 1e-12 wide relative to a gap on
# 100 classes) settle the rounding almost always; at 40 bits they settled almost none and every gap went to arb
# (ordinal-intervals-100 JSON: 96 s against 8 s)
MARGIN_BITS = 24
PRECISIONS = (128, 512, 2048)  # arb precisions tried before the exact sign at a grid point


def floor_scaled(cell: sp.Expr, bits: int) -> int:
    """⌊cell · 2^bits⌋ exactly: arb enclosures of rising precision, then an exact sign at the grid point."""
    if cell.is_Rational:
        return floor(Fraction(int(cell.p), int(cell.q)) * 2**bits)
    for prec in PRECISIONS:
        try:
            ball = enclose(cell, prec)
        except Unsupported:
            break
        with flint.ctx.workprec(prec):  # the scaling and the ends at the ball's precision, not the default 53 bits
            lo, hi = _ends(ball * 2**bits)
        if lo is not None and floor(lo) == floor(hi):
            return floor(lo)
    guess = floor(Fraction(certified.to_float(cell)) * 2**bits)
    for k in (guess + 1, guess):  # the floor is the largest grid point k with cell >= k / 2^bits
        s = certified.sign(cell - sp.Rational(k, 2**bits)).value
        if s is not None and s >= 0:
            return k
    return guess - 1  # undecided ties: a grid point below, still a floor of the LP's data


def floor_of_enclosure(lo: float, hi: float) -> sp.Rational | None:
    """The exact value rounded down to MARGIN_BITS significant bits, when a certified enclosure [lo, hi] of
    it (from any machine's floats) already determines it: then every machine prints the same bound."""
    if not (lo > 0 and hi >= lo and math.isfinite(hi)):
        return None
    low, high = _floor_bits(Fraction(lo)), _floor_bits(Fraction(hi))
    return sp.Rational(low.numerator, low.denominator) if low == high else None


def _floor_bits(x: Fraction) -> Fraction:
    scale = Fraction(2) ** (MARGIN_BITS - 1 - _exponent(x))
    return Fraction(floor(x * scale)) / scale


def margin_floor(forms: list[list[tuple[Fraction, sp.Expr]]]) -> tuple[sp.Rational, bool] | None:
    """min over the forms of Σ coefficient·cell: (exactly, False) when every cell is rational, else (the
    exact minimum rounded down to MARGIN_BITS significant bits, True); None when it is not certainly
    positive. A cell may be an `IrrationalMean` (enclosed whole, made exact only for a sign at a grid
    point)."""
    if all(v.is_Rational for form in forms for _, v in form):
        total = min(sum((k * Fraction(int(v.p), int(v.q)) for k, v in form), Fraction(0)) for form in forms)
        return (sp.Rational(total.numerator, total.denominator), False) if total > 0 else None
    for prec in PRECISIONS:
        ends = [_form_ends(form, prec) for form in forms]
        if any(e is None for e in ends):
            return None
        lo, hi = min(e[0] for e in ends), min(e[1] for e in ends)
        if lo <= 0:
            continue
        e_lo, e_hi = _exponent(lo), _exponent(hi)
        if e_lo == e_hi:
            scale = Fraction(2) ** (MARGIN_BITS - 1 - e_lo)
            if floor(lo * scale) == floor(hi * scale):
                value = Fraction(floor(lo * scale)) / scale
                return sp.Rational(value.numerator, value.denominator), True
    if lo <= 0:
        return None
    e = _exponent(hi)  # a grid point inside the enclosure: is the exact minimum at or above it?
    scale = Fraction(2) ** (MARGIN_BITS - 1 - e)
    point = Fraction(floor(hi * scale)) / scale
    above = all(certified.linear_sign(_shifted(form, point)).value in (0, 1) for form in forms)
    value = point if above and point > 0 else Fraction(floor(lo * scale)) / scale
    return (sp.Rational(value.numerator, value.denominator), True) if value > 0 else None


def _shifted(form, point: Fraction):
    """The form minus the point, every cell exact."""
    return [(sp.Rational(k.numerator, k.denominator), _exact_cell(v)) for k, v in form] + \
        [(sp.Rational(-point.numerator, point.denominator), sp.Integer(1))]


def _form_ends(form, prec: int) -> tuple[Fraction, Fraction] | None:
    total = flint.arb(0)
    old = flint.ctx.prec
    flint.ctx.prec = prec
    try:
        for k, v in form:
            try:
                cell = v.ball(prec) if isinstance(v, IrrationalMean) else enclose(v, prec)
            except Unsupported:
                return None
            total += flint.arb(flint.fmpq(k.numerator, k.denominator)) * cell
        lo, hi = _ends(total)  # still at `prec`: the ends rounded to 53 bits would lose what the precision won
    finally:
        flint.ctx.prec = old
    return (lo, hi) if lo is not None else None


def _ends(ball) -> tuple[Fraction | None, Fraction | None]:
    if not ball.is_finite():
        return None, None
    return _exact(ball.lower()), _exact(ball.upper())


def _exact(x) -> Fraction:
    man, exp = x.man_exp()
    man, exp = int(man), int(exp)
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2**-exp)


def _exponent(x: Fraction) -> int:
    """⌊log2 x⌋ of a positive rational, exactly."""
    e = x.numerator.bit_length() - x.denominator.bit_length()
    return e if Fraction(2) ** e <= x else e - 1


def _exact_cell(v):
    return v.exact() if isinstance(v, IrrationalMean) else v
