"""A power mean of rationals proved irrational, kept whole: enclosed in a few arb operations, made exact on demand.

The exact power mean of 90 member costs is a sympy tree of hundreds of radicals; building it took 50 ms, and
enclosing it walks every node again. Where only enclosures are read (a margin rounded down to a grid,
`engines.exact_floor`), `IrrationalMean` stands for it. It is made only when the mean is certainly irrational,
so that nothing that branches on "is every cell rational" sees a different answer. For a rational exponent
p = a/b ≠ 0 and rational values x_i ≥ 0, M = (S/n)^(1/p) with S = Σ x_i^p, a sum of positive real radicals.
If two terms have an irrational ratio, S^b is irrational: S^b = C rational would make S a rational multiple of
one b-th root, a linear relation with positive coefficients among the b-th roots of distinct b-th-power-free
integers, which are linearly independent over the rationals (Besicovitch; Mordell for every b), so M^a =
(S/n)^b and M are irrational. Otherwise every term is a rational multiple r_i of the first, x_0^p, and
M = x_0 (Σ r_i / n)^(1/p) is rational exactly when that power is. Each test is an exact integer root.

Owns: `IrrationalMean`, `irrational_mean`. May import: `formula.genmean`, `lazy_sympy`.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import flint

from verifier.formula.genmean import genmean
from verifier.lazy_sympy import sympy as sp


class IrrationalMean:
    """M_p(values), irrational: `ball(prec)` encloses it, `exact()` is the exact value (`genmean`)."""

    is_Rational = False

    def __init__(self, p: Fraction, values: list[tuple[int, int]], exact_values: tuple):
        self.p, self.values, self._exact_values = p, values, exact_values  # values: (numerator, denominator)

    def ball(self, prec: int) -> flint.arb:
        """An arb enclosure at `prec` bits: (Σ x^p / n)^(1/p), each distinct x^p enclosed once per precision."""
        a, b = self.p.numerator, self.p.denominator
        old = flint.ctx.prec
        flint.ctx.prec = prec
        try:
            total = flint.arb(0)
            for num, den in self.values:
                if num:
                    total += _power_ball(num, den, a, b, prec)
            return (total / len(self.values)) ** flint.arb(flint.fmpq(b, a))
        finally:
            flint.ctx.prec = old

    def exact(self) -> sp.Expr:
        """The exact mean, as the matrix holds it."""
        return genmean(sp.Rational(self.p.numerator, self.p.denominator), self._exact_values)


def irrational_mean(p: sp.Expr, values: tuple) -> IrrationalMean | None:
    """The power mean kept whole when it is proved irrational (see the module); None otherwise: the exponent
    0 or not rational, a value not a rational >= 0, a zero with a negative exponent, or a mean that may be
    rational (the caller then takes the exact value)."""
    if not (getattr(p, "is_Rational", False) and p != 0) or len(values) < 2:
        return None
    if not all(getattr(v, "is_Rational", False) for v in values):
        return None
    a, b = int(p.p), int(p.q)
    pairs = [(int(v.p), int(v.q)) for v in values]
    if any(num < 0 or (num == 0 and a < 0) for num, _ in pairs):
        return None
    nonzero = [pair for pair in pairs if pair[0]]
    if not nonzero:  # every value 0: the mean is 0
        return None
    first = nonzero[0]  # the terms x^p, each as a rational multiple of the first one's, where it is one
    ratios = [_ratio_power(num, den, *first, a, b) for num, den in nonzero]
    if None not in ratios:  # one radical class: M = x_0 (Σ ratios / n)^(1/p), rational when that power is
        share = sum(ratios, Fraction(0)) / len(pairs)
        if _rational_power(share.numerator, share.denominator, b, a) is not None:
            return None  # a rational mean
    return IrrationalMean(Fraction(a, b), pairs, tuple(values))


@lru_cache(maxsize=65_536)
def _ratio_power(num: int, den: int, first_num: int, first_den: int, a: int, b: int) -> Fraction | None:
    """(x / x_0)^(a/b) exactly when it is rational, else None (x = num/den, x_0 = first_num/first_den > 0)."""
    ratio = Fraction(num * first_den, den * first_num)
    return _rational_power(ratio.numerator, ratio.denominator, a, b)


@lru_cache(maxsize=65_536)
def _rational_power(num: int, den: int, a: int, b: int) -> Fraction | None:
    """(num/den)^(a/b) exactly when it is rational (num >= 0, b may be negative: the sign moves to a), else
    None."""
    if b < 0:
        a, b = -a, -b
    if num == 0:
        return Fraction(0) if a > 0 else None
    top, top_exact = sp.integer_nthroot(num ** abs(a), b)
    bottom, bottom_exact = sp.integer_nthroot(den ** abs(a), b)
    if not (top_exact and bottom_exact):
        return None
    root = Fraction(int(top), int(bottom))
    return root if a > 0 else 1 / root


@lru_cache(maxsize=65_536)
def _power_ball(num: int, den: int, a: int, b: int, prec: int) -> flint.arb:
    """(num/den)^(a/b) for num > 0, enclosed at `prec` bits (the caller sets the context's precision)."""
    return flint.arb(flint.fmpq(num, den)) ** flint.arb(flint.fmpq(a, b))
