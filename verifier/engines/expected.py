"""Expected costs E_p[c_Z] of every set Z at once, with exact signs: the vectorised comparison behind optimality.

For a rational scheme the matrix is scaled to integers once (python-flint fmpz_mat), so one product gives every
E_p[c_Z] exactly for a rational p. Otherwise each cell is a certified 64-bit arb ball, kept as float centre and
radius; one numpy product, widened by a proven rounding bound, encloses every E_p[c_Z], and the few
differences those enclosures cannot decide go to `certified.linear_sign` on the exact cells. Plain floats are
kept alongside for searching only.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

import flint
import numpy as np

from verifier.engines.exact_floor import floor_of_enclosure, margin_floor
from verifier.formula import certified
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import ClassSet, Scheme


class ExpectedCosts:
    """Expected costs E_p[c_Z] of every set Z with exact signs (see the module docstring): the matrix as integers for a
    rational scheme, as certified enclosures otherwise, and as floats for the search."""

    def __init__(self, scheme: Scheme):
        self.scheme = scheme
        self.sets: list[ClassSet] = scheme.all_sets
        self.index = {m: i for i, m in enumerate(self.sets)}
        self.last_values: list[int] | None = None
        self.last_bounds = None
        if getattr(scheme, "cells", None) is not None and scheme.cells.rows.exact.all():
            self._from_arrays(scheme.cells.rows)  # a rational scheme: its integers, without a cell-by-cell pass
            return
        if getattr(scheme, "cells", None) is not None and self._from_enclosures(scheme.cells.rows):
            return  # the fast path's certified enclosures: no exact cell is made unless a comparison needs it
        K, cells = scheme.K, [scheme.rows[m] for m in self.sets]
        self.floats = np.array([[certified.to_float(v) for v in row] for row in cells], dtype=float)
        largest = float(np.max(np.abs(self.floats))) if self.floats.size else 0.0
        # the search works on costs scaled to at most 1: LPs and samples do not care, HiGHS' tolerances do
        self.search = self.floats / largest if np.isfinite(largest) and largest > 0 else self.floats
        self.rational = all(v.is_Rational for row in cells for v in row)
        if self.rational:
            self.scale = lcm(*(int(v.q) for row in cells for v in row))
            self.ints = flint.fmpz_mat(len(cells), K,
                                       [int(v.p) * (self.scale // int(v.q)) for row in cells for v in row])
        else:  # cell enclosures as float centre and radius (the radius absorbs the conversion of the centre)
            balls = [certified.ball(v) for row in cells for v in row]
            self.bounded = all(b is not None for b in balls)
            if self.bounded:
                mids = np.array([float(b.mid()) for b in balls]).reshape(len(cells), K)
                rads = np.array([float(b.rad()) for b in balls]).reshape(len(cells), K)
                self.mids, self.rads = mids, rads * (1 + _U) + np.abs(mids) * _U + _TINY
                self.bounded = bool(np.all(np.isfinite(self.mids)) and np.all(np.isfinite(self.rads)))

    def _from_arrays(self, rows) -> None:
        """The fast path's matrix of a rational scheme (same set order): its exact integers."""
        self.floats = (rows.lo + rows.hi) / 2
        largest = float(np.max(np.abs(self.floats))) if self.floats.size else 0.0
        self.search = self.floats / largest if np.isfinite(largest) and largest > 0 else self.floats
        self.rational = True
        self.scale = rows.den
        self.ints = flint.fmpz_mat(rows.shape[0], rows.shape[1], [int(v) for v in np.asarray(rows.num).flat])

    def _from_enclosures(self, rows) -> bool:
        """Centre and radius from the fast path's certified [lo, hi] per cell (False when some cell has no
        finite enclosure; then the cells are read one by one)."""
        lo, hi = np.asarray(rows.lo, dtype=float), np.asarray(rows.hi, dtype=float)
        if not (np.all(np.isfinite(lo)) and np.all(np.isfinite(hi))):
            return False
        mids = (lo + hi) / 2
        # |value - mid| <= (hi - lo)/2 + the rounding of the mid and of the half-width, each below one ulp
        rads = (hi - lo) / 2 * (1 + _U) + np.abs(mids) * _U + _TINY
        self.floats, self.rational, self.bounded = mids, False, True
        self.mids, self.rads = mids, rads
        largest = float(np.max(np.abs(mids))) if mids.size else 0.0
        self.search = mids / largest if np.isfinite(largest) and largest > 0 else mids
        return True

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
        if not self.bounded:
            return [self._exact_sign(p, z, members) for z in self.sets]
        low, high = self._bounds(p)
        self.last_bounds = (low, high)
        above, below = low > high[i], high < low[i]
        out: list[int | None] = (above.astype(int) - below.astype(int)).tolist()
        for j in np.flatnonzero(~(above | below)).tolist():  # overlapping enclosures: the exact comparison
            out[j] = 0 if j == i else self._exact_sign(p, self.sets[j], members)
        out[i] = 0
        return out

    def bounds_many(self, points: list[list[Fraction]]) -> tuple[np.ndarray, np.ndarray]:
        """Certified lower and upper bounds of E_p[c_Z] for every point (rows) and set (columns): a float
        product in any summation order, widened by Higham's bound (a screen: it only rules sets out)."""
        w = np.array([[float(x) for x in p] for p in points])
        if self.rational:
            mids = self.floats
            rads = np.abs(mids) * _U + _TINY
        elif getattr(self, "bounded", False):
            mids, rads = self.mids, self.rads
        else:
            shape = (len(points), len(self.sets))
            return np.full(shape, -np.inf), np.full(shape, np.inf)
        with np.errstate(all="ignore"):
            centre = w @ mids.T
            error = w @ rads.T + (w.shape[1] + 4) * _U * (w @ np.abs(mids).T) + _TINY
            low, high = centre - error, centre + error
            low, high = low - np.abs(low) * _U - _TINY, high + np.abs(high) * _U + _TINY
        low[~np.isfinite(low)], high[~np.isfinite(high)] = -np.inf, np.inf
        return low, high

    def grid(self):
        """The exact matrix of the canonical LP (`engines.canonical.RationalGrid`), made once; None when some
        cell has no finite enclosure."""
        if getattr(self, "_grid", False) is not False:
            return self._grid
        from verifier.engines.canonical import RationalGrid

        if self.rational:
            self._grid = RationalGrid.exact(self.ints, self.scale)
        elif getattr(self, "bounded", False):
            lo = np.nextafter(self.mids - self.rads, -np.inf)
            hi = np.nextafter(self.mids + self.rads, np.inf)
            rows = self.scheme.rows
            self._grid = RationalGrid.floored(lo, hi, lambda r, c: rows[self.sets[r]][c])
        else:
            self._grid = None
        return self._grid

    def _bounds(self, p: list[Fraction]):
        """Certified lower and upper bounds of every E_p[c_Z]: the float products widened by Higham's bound
        for a K-term dot product (the weights are rounded too), then by one more rounding for the subtraction."""
        w = np.array([float(x) for x in p])
        centre = self.mids @ w
        error = self.rads @ w + (len(p) + 4) * _U * (np.abs(self.mids) @ w) + _TINY
        low, high = centre - error, centre + error
        return low - np.abs(low) * _U - _TINY, high + np.abs(high) * _U + _TINY

    def _exact_sign(self, p, z: ClassSet, members: ClassSet) -> int | None:
        if z == members:
            return 0
        rows, p = self.scheme.rows, [sp.Rational(x.numerator, x.denominator) for x in p]
        terms = [(x, rows[z][y]) for y, x in enumerate(p) if x] + [(-x, rows[members][y]) for y, x in enumerate(p) if x]
        return certified.linear_sign(terms).value

    def margin(self, p: list[Fraction], members: ClassSet) -> tuple[sp.Expr, bool] | None:
        """After `signs` found Y alone at p: (the gap to the next best set, exact) for rational schemes, or
        (a rational lower bound of it, True) otherwise."""
        i = self.index[members]
        if self.rational and self.last_values is not None:
            mine = self.last_values[i]
            gap = min(v - mine for j, v in enumerate(self.last_values) if j != i)
            return gap * self.last_unit, False
        if getattr(self, "last_bounds", None) is None:
            return None
        low, high = self.last_bounds
        others = np.delete(low, i)
        if not others.size:
            return None
        # every set that may be the nearest: its lower bound is below the least upper bound of any gap; when
        # they are few and rational, the least of their exact gaps is the margin, exactly
        gap_low, gap_high = low - high[i], high - low[i]
        gap_low[i], gap_high[i] = np.inf, np.inf
        slack = 4 * _U * float(np.max(np.abs(np.concatenate([low, high])))) + _TINY  # the subtractions' rounding
        candidates = np.flatnonzero(gap_low - slack <= np.min(gap_high) + slack)
        if not len(candidates):
            return None
        nearest = [self.sets[int(j)] for j in candidates]
        exact = self._exact_gap(p, members, nearest)
        if exact is not None:
            return exact, False
        # the exact gap rounded down to a fixed number of bits: the float bounds only chose the candidates,
        # or enclose the gap tightly enough that every machine's rounding is the same
        floored = floor_of_enclosure(float(np.min(others) - high[i]) * (1 - 4 * _U) - _TINY,
                                     float(np.min(np.delete(high, i)) - low[i]) * (1 + 4 * _U) + _TINY)
        if floored is not None:
            return floored, True
        rows = self.scheme.rows
        forms = [[(x, rows[z][y]) for y, x in enumerate(p) if x]
                 + [(-x, rows[members][y]) for y, x in enumerate(p) if x]
                 for z in nearest]
        return margin_floor(forms)

    def _exact_gap(self, p: list[Fraction], members: ClassSet, candidates: list[ClassSet]) -> sp.Rational | None:
        """min over the candidates Z of E_p[c_Z] − E_p[c_Y] when all their cells are exact rationals: from the
        arrays' integers when the fast path built the matrix, else from the exact rows."""
        cells = getattr(self.scheme, "cells", None)
        index = getattr(self.scheme.rows, "index", None)
        if cells is not None and index is not None:
            rows = [index[z] for z in candidates + [members]]
            if not cells.rows.exact[rows].all():
                return None
            q = lcm(*(x.denominator for x in p))
            weights = [x.numerator * (q // x.denominator) for x in p]
            totals = [sum(w * int(n) for w, n in zip(weights, cells.rows.num[r])) for r in rows]
            return sp.Rational(min(totals[:-1]) - totals[-1], q * cells.rows.den)
        rows = self.scheme.rows
        if not all(v.is_Rational for z in candidates + [members] for v in rows[z]):
            return None
        mine = [Fraction(int(v.p), int(v.q)) for v in rows[members]]
        gap = min(sum((x * (Fraction(int(a.p), int(a.q)) - b) for x, a, b in zip(p, rows[z], mine)), Fraction(0))
                  for z in candidates)
        return sp.Rational(gap.numerator, gap.denominator)


_U = 2.0 ** -52  # twice the unit roundoff: generous for every single rounding
_TINY = 1e-300  # absorbs underflow
