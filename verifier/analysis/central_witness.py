"""A witness deep inside a set's decision region at one exact value of θ, for carrying across a small piece.

The engines' witness is simple and printable, and may sit near the edge of the region: one of its
comparisons then vanishes close by, and the piece it is carried over must be cut there. The point of largest
margin, p maximising t subject to E_p[c_Z] − E_p[c_Y] >= t for every Z ≠ Y and p in the simplex, stays
alone over a neighbourhood as wide as its margin allows. It is found exactly (z3's optimiser over the
rationals) for the costs' correctly rounded floats, so the same point on every machine; the point (or a
simpler one near it) is kept only when every comparison is proved > 0 at the exact costs (certified signs),
so the witness is exact and checked; across a piece it rests on the caller's zero-exclusion proof.

Owns: `central_witness`, `alone_at`. May import: formula, lazy_sympy, limits.
"""

from __future__ import annotations

from fractions import Fraction

import z3

from verifier import limits
from verifier.formula import certified
from verifier.formula.arith import collecting
from verifier.lazy_sympy import sympy as sp

DENOMINATORS = (1_000, 1_000_000, 10**9)  # rationalisations tried, simplest first
LP_MS = 2_000  # the exact optimiser on one small program (K + 1 variables)


def central_witness(rows: dict, members: frozenset, K: int) -> tuple | None:
    """The rationalised largest-margin p at which `members` is the unique minimiser for the exact costs `rows`
    (set -> K exact costs, one value of θ), proved exactly; None when the float search finds no positive
    margin or no rationalisation is proved."""
    others = [z for z in rows if z != members]
    if not others:
        return None
    try:  # the costs' correctly rounded floats, taken at their exact binary values: the same on every machine
        own = [Fraction(certified.to_float(c)) for c in rows[members]]
        gaps = [[Fraction(certified.to_float(rows[z][y])) - own[y] for y in range(K)] for z in others]
    except (TypeError, ValueError, OverflowError):
        return None
    optimum = _largest_margin(gaps, K)
    if optimum is None:
        return None
    for limit in DENOMINATORS:  # the simplest nearby point first, then the optimum itself
        rounded = [max(x.limit_denominator(limit), Fraction(0)) for x in optimum]
        total = sum(rounded)
        if total <= 0:
            continue
        p = tuple(sp.Rational(x.numerator, x.denominator) / sp.Rational(total.numerator, total.denominator)
                  for x in rounded)
        if alone_at(rows, members, p, K):
            return p
    p = tuple(sp.Rational(x.numerator, x.denominator) for x in optimum)
    return p if alone_at(rows, members, p, K) else None


def _largest_margin(gaps: list[list[Fraction]], K: int) -> list[Fraction] | None:
    """max t subject to gaps·p >= t, p in the simplex, solved exactly over the rationals (z3's optimiser, linear
    arithmetic: no float and no thread decides the point); None when the margin is not positive."""
    p = [z3.Real(f"p{y}") for y in range(K)]
    t = z3.Real("t")
    opt = z3.Optimize()
    opt.set("timeout", limits.question_ms(LP_MS))
    opt.add(z3.Sum(p) == 1, *[v >= 0 for v in p])
    opt.add(*[z3.Sum([z3.RealVal(str(g)) * v for g, v in zip(row, p)]) >= t for row in gaps])
    opt.maximize(t)
    if opt.check() != z3.sat:
        return None
    model = opt.model()
    value = model.eval(t, model_completion=True)
    if not z3.is_rational_value(value) or Fraction(value.as_fraction()) <= 0:
        return None
    return [Fraction(model.eval(v, model_completion=True).as_fraction()) for v in p]


def alone_at(rows: dict, members: frozenset, p, K: int) -> bool:
    """Whether `members` is the unique minimiser at p for the exact costs `rows`: every E_p[c_Z] − E_p[c_Y] > 0,
    proved by certified signs."""
    with collecting():
        for z in rows:
            if z == members:
                continue
            gap = sp.Add(*[p[y] * (rows[z][y] - rows[members][y]) for y in range(K) if p[y]])
            if certified.sign(gap).value != 1:
                return False
    return True
