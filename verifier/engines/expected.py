"""Expected costs E_p[c_Z] of every set Z at once, with exact signs: the vectorised comparison behind optimality.

For a rational scheme the matrix is scaled to integers once (python-flint fmpz_mat), so one product gives every
E_p[c_Z] exactly for a rational p. Otherwise each cell is a certified 64-bit arb ball and one arb_mat product
encloses every E_p[c_Z]; the few differences whose balls contain 0 go to `certified.linear_sign` on the exact
cells. Floats (numpy) are kept alongside for searching only.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

import flint
import numpy as np
import sympy as sp

from verifier.formula import certified
from verifier.scheme import ClassSet, Scheme


class ExpectedCosts:
    def __init__(self, scheme: Scheme):
        self.scheme = scheme
        self.sets: list[ClassSet] = scheme.all_sets
        self.index = {m: i for i, m in enumerate(self.sets)}
        K, cells = scheme.K, [scheme.rows[m] for m in self.sets]
        self.floats = np.array([[certified.to_float(v) for v in row] for row in cells], dtype=float)
        self.rational = all(v.is_Rational for row in cells for v in row)
        self.last_values: list[int] | None = None
        if self.rational:
            self.scale = lcm(*(int(v.q) for row in cells for v in row))
            self.ints = flint.fmpz_mat(len(cells), K, [int(v.p) * (self.scale // int(v.q)) for row in cells for v in row])
        else:
            balls = [certified.ball(v) for row in cells for v in row]
            self.balls = None if any(b is None for b in balls) else flint.arb_mat(len(cells), K, balls)

    def signs(self, p: list[Fraction], members: ClassSet) -> list[int | None]:
        """For every set Z (in `sets` order), the certified sign of E_p[c_Z] − E_p[c_Y]; None when undecided."""
        i = self.index[members]
        if self.rational:
            denominator = lcm(*(x.denominator for x in p))
            column = flint.fmpz_mat(len(p), 1, [x.numerator * (denominator // x.denominator) for x in p])
            values = [int(v) for v in (self.ints * column).entries()]
            mine = values[i]
            self.last_unit = sp.Rational(1, self.scale * denominator)  # E_p[c_Z] = values[Z] · last_unit
            self.last_values = values
            return [(v > mine) - (v < mine) for v in values]
        if self.balls is None:
            return [self._exact_sign(p, z, members) for z in self.sets]
        column = flint.arb_mat(len(p), 1, [flint.arb(flint.fmpq(x.numerator, x.denominator)) for x in p])
        values = (self.balls * column).entries()
        mine = values[i]
        out: list[int | None] = []
        for z, v in zip(self.sets, values):
            d = v - mine
            out.append(0 if z == members else 1 if d > 0 else -1 if d < 0 else self._exact_sign(p, z, members))
        return out

    def _exact_sign(self, p, z: ClassSet, members: ClassSet) -> int | None:
        if z == members:
            return 0
        rows, p = self.scheme.rows, [sp.Rational(x.numerator, x.denominator) for x in p]
        terms = [(x, rows[z][y]) for y, x in enumerate(p) if x] + [(-x, rows[members][y]) for y, x in enumerate(p) if x]
        return certified.linear_sign(terms).value

    def gap(self, p: list[Fraction], z: ClassSet, members: ClassSet) -> sp.Expr:
        """E_p[c_Z] − E_p[c_Y] as an exact expression (from the last `signs` call when it was exact)."""
        if self.rational and self.last_values is not None:
            return (self.last_values[self.index[z]] - self.last_values[self.index[members]]) * self.last_unit
        rows, p = self.scheme.rows, [sp.Rational(x.numerator, x.denominator) for x in p]
        return sp.Add(*[x * (rows[z][y] - rows[members][y]) for y, x in enumerate(p) if x])
