"""A witness deep inside a set's decision region at one exact value of θ, for carrying across a small piece.

The engines' witness is simple and printable, and may sit near the edge of the region: one of its
comparisons then vanishes close by, and the piece it is carried over must be cut there. The point of largest
margin, p maximising t subject to E_p[c_Z] − E_p[c_Y] >= t for every Z ≠ Y and p in the simplex, stays
alone over a neighbourhood as wide as its margin allows. Floats only search for it (HiGHS through scipy);
the point is rationalised and kept only when every comparison is proved > 0 at that exact value (certified
signs), so the witness is exact and checked; across a piece it rests on the caller's zero-exclusion proof.

Owns: `central_witness`, `alone_at`. May import: formula, lazy_sympy.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from verifier.formula import certified
from verifier.formula.arith import collecting
from verifier.lazy_sympy import sympy as sp

DENOMINATORS = (1_000, 1_000_000, 10**9)  # rationalisations tried, simplest first


def central_witness(rows: dict, members: frozenset, K: int) -> tuple | None:
    """The rationalised largest-margin p at which `members` is the unique minimiser for the exact costs `rows`
    (set -> K exact costs, one value of θ), proved exactly; None when the float search finds no positive
    margin or no rationalisation is proved."""
    others = [z for z in rows if z != members]
    if not others:
        return None
    try:
        own = [certified.to_float(c) for c in rows[members]]
        gaps = np.array([[certified.to_float(rows[z][y]) - own[y] for y in range(K)] for z in others])
    except (TypeError, ValueError, OverflowError):
        return None
    from scipy.optimize import linprog  # on first use: scipy's libraries are large (a tight --memory cap)

    # variables (p_0 .. p_{K-1}, t): minimise −t with t − gaps·p <= 0, Σ p = 1, p >= 0, t free
    upper = np.hstack([-gaps, np.ones((len(others), 1))])
    found = linprog(np.r_[np.zeros(K), -1.0], A_ub=upper, b_ub=np.zeros(len(others)),
                    A_eq=np.r_[np.ones(K), 0.0].reshape(1, -1), b_eq=[1.0],
                    bounds=[(0, None)] * K + [(None, None)], method="highs")
    if found.status != 0 or not found.x[K] > 0:
        return None
    for limit in DENOMINATORS:
        rounded = [max(Fraction(float(x)).limit_denominator(limit), Fraction(0)) for x in found.x[:K]]
        total = sum(rounded)
        if total <= 0:
            continue
        p = tuple(sp.Rational(x.numerator, x.denominator) / sp.Rational(total.numerator, total.denominator)
                  for x in rounded)
        if alone_at(rows, members, p, K):
            return p
    return None


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
