"""The exact sign of row·p − b for every row of an integer matrix at one rational point, most of them read off
floats whose error is bounded.

A set's witness is checked against a thousand other rows at once (`engines.canonical`, `engines.least_point`).
Evaluating each row exactly in Python integers took most of those checks; a float product decides the rows far
from the bound, and only the rows within the proven error bound of it (the binding ones, a handful) are
evaluated exactly. The bound holds for any summation order, with or without fused multiply-add (any BLAS
kernel): each of the K products and sums adds at most one rounding of relative size 2^-53 to a quantity at most
Σ_y |row_y| |p_y|, and the inputs are correctly rounded. It is taken 2^3 times larger than that analysis gives,
and rows where a float overflows are evaluated exactly, so the signs are exact on every machine.

Owns: `ScreenedRows`. May import: nothing of verifier (numbers in, numbers out).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import lcm

import numpy as np

_UNIT = 2.0**-50  # 2^3 · the unit roundoff 2^-53: the margin over the error analysis
_TINY = 1e-290  # an absolute term for underflow (products below the normal range lose their relative bound)


class ScreenedRows:
    """Integer rows (a list of lists of one length), compared at exact rational points."""

    def __init__(self, rows: list[list[int]]):
        self.rows = rows
        width = len(rows[0]) if rows else 0
        try:
            self.floats = np.array(rows, dtype=float).reshape(len(rows), width)
        except OverflowError:  # an integer beyond the floats' range: infinite here, evaluated exactly below
            self.floats = np.array([[_float(v) for v in row] for row in rows], dtype=float).reshape(len(rows), width)
        self.magnitudes = np.abs(self.floats)
        self._factor = (width + 8) * _UNIT

    def signs(self, p: Sequence[Fraction], bound: Fraction) -> np.ndarray:
        """sign(row·p − bound) for every row, exactly (an int8 array of -1, 0, 1)."""
        bound = Fraction(bound)
        with np.errstate(all="ignore"):
            point = np.array([_float(x) for x in p])
            c = _float(bound)
            approx = self.floats @ point
            scale = self.magnitudes @ np.abs(point)
            diff = approx - c
            error = self._factor * 2 * scale + _UNIT * (np.abs(approx) + abs(c)) + _TINY
            clear = np.isfinite(diff) & np.isfinite(error) & (np.abs(diff) > error)
        out = np.where(clear, np.sign(np.nan_to_num(diff)), 0).astype(np.int8)
        unsure = np.flatnonzero(~clear)
        if unsure.size:
            q = lcm(*(Fraction(x).denominator for x in p))
            numerators = [Fraction(x).numerator * (q // Fraction(x).denominator) for x in p]
            limit = bound.numerator * q  # row·p vs bound  <=>  Σ row_y num_y · bound.den vs bound.num · q
            for j in unsure.tolist():
                value = sum(a * b for a, b in zip(self.rows[j], numerators, strict=True)) * bound.denominator
                out[j] = (value > limit) - (value < limit)
        return out


def _float(x) -> float:
    """The nearest float, or an infinity beyond the floats' range (such rows are then evaluated exactly)."""
    try:
        return float(x)
    except OverflowError:
        return float("inf") if x > 0 else float("-inf")
