"""Witnesses of `alone` for many sets at once: a few distributions built from each set's own classes, every
one of them decided in one product per batch (the search and the exact decision share it).

A set that is the unique best prediction at some p usually is so at a p concentrated on its own classes. Each
set Y (classes y_1 < ... < y_n) is tried, while undecided, at these points in turn (`SHAPES`):
  - 1/4 on y_1 and 1/4 on y_n, the other half spread evenly over Y without its first and last s classes
    (s = 1, then 2 after the uniform point): where an interval's or a node's edges bind (ordinal costs: 4,732
    of the 5,050 intervals of 100 classes at s = 1, every one of them with the next two);
  - uniform on Y;
  - 1/2 on y_1 and 1/2 on y_n, and the set's Definition 4 witness.
At each point the cheapest set (whichever it is) is `alone` when that is certain: for a rational scheme from
the exact integers (numpy int64 while no sum can reach 2^62), with the exact margin; otherwise from the cells'
certified enclosures [centre ± radius], E_p[c_Z] being within `bound[Z]` of the float product for every
distribution p (Higham's bound for a K-term dot product, the rounding of p and of the radii included, all
with Σ p = 1), with a certified lower bound of the margin. Floats never decide alone: a gap that the bound
does not clear leaves the set to the next point, then to the LPs of `engines.family_optimality`.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

import numpy as np

from verifier.engines.exact_floor import floor_of_enclosure, margin_floor
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import ClassSet, Scheme
from verifier.verdict import SetOptimality

_U = 2.0 ** -52  # twice the unit roundoff: generous for every single rounding
_TINY = 1e-300  # absorbs underflow
SHAPES = ("edges 1", "uniform", "edges 2", "ends")

Point = tuple[tuple[int, ...], tuple[int, ...], int]  # classes, integer weights, their sum q: p(y) = weight / q


def shape_point(members: ClassSet, shape: str) -> Point | None:
    """The point of this shape on the set (None when it repeats another shape's point or has no inside)."""
    ordered = tuple(sorted(members))
    n = len(ordered)
    if shape == "uniform":
        return ordered, (1,) * n, n
    if n <= 2:  # uniform already
        return None
    if shape == "ends":
        return (ordered[0], ordered[-1]), (1, 1), 2
    trim = int(shape.split()[1])
    inner = n - 2 * trim
    if inner <= 0 or (trim == 2 and n <= 4):  # nothing left inside
        return None
    # 1/4 = inner/(4 inner) on each end, 1/(2 inner) = 2/(4 inner) on each inner class, none on the trimmed ones
    classes = (ordered[0],) + ordered[trim:n - trim] + (ordered[-1],)
    return classes, (inner,) + (2,) * inner + (inner,), 4 * inner


def exact_point(witness: tuple) -> Point:
    """A Definition 4 witness (K exact rationals) as a point."""
    pairs = [(y, int(x.p), int(x.q)) for y, x in enumerate(witness) if x != 0]
    q = lcm(*(d for _, _, d in pairs))
    return tuple(y for y, _, _ in pairs), tuple(n * (q // d) for _, n, d in pairs), q


def _centres_and_bounds(lo: np.ndarray, hi: np.ndarray, K: int) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's centre, and each row's bound on a product's error, a slice of rows at a time (no
    matrix-sized temporaries beside the centres). |c - mid| <= rad (as `ExpectedCosts`); over any p with
    Σ p = 1 the product's error is at most the row's largest radius plus (K + 4) u times its largest |centre|
    (p's rounding, the K-term sum)."""
    mids, bound = np.empty(lo.shape), np.empty(lo.shape[0])
    step = max(1, (1 << 18) // max(1, K))
    with np.errstate(all="ignore"):
        for a in range(0, lo.shape[0], step):
            l, h = lo[a:a + step], hi[a:a + step]
            m = mids[a:a + step]
            np.add(l, h, out=m)
            m /= 2
            rads = (h - l) / 2 * (1 + _U) + np.abs(m) * _U + _TINY
            bound[a:a + step] = rads.max(axis=1, initial=0.0) + (K + 4) * _U * np.abs(m).max(axis=1, initial=0.0)
    return mids, bound * (1 + 4 * _U) + _TINY


class Screen:
    """Certifies, for a batch of points, the set strictly cheapest at each (see the module's note)."""

    def __init__(self, scheme: Scheme, sets: list[ClassSet]):
        self.scheme, self.sets, self.K = scheme, sets, scheme.K
        rows = scheme.cells.rows
        self.num = None
        if rows.exact.all() and rows.num is not None and np.asarray(rows.num).dtype != object:
            num = np.asarray(rows.num, dtype=np.int64)
            self.largest = int(np.abs(num).max(initial=0))
            if self.largest * scheme.K < 2**62:
                self.num, self.den = num, int(rows.den)
        self.mids = self.bound = None
        if self.num is None:  # exact integers need neither centres nor bounds
            self.mids, self.bound = _centres_and_bounds(np.asarray(rows.lo, dtype=float),
                                                        np.asarray(rows.hi, dtype=float), self.K)
        self.usable = self.num is not None or bool(  # far from overflow: no product can reach infinity
            np.all(np.isfinite(self.bound)) and float(np.abs(self.mids).max(initial=0.0)) < 1e300)
        self._exact: dict[tuple[int, int], sp.Rational] = {}
        self._num_float: np.ndarray | None = None

    def alone(self, points: list[Point]) -> dict[ClassSet, SetOptimality]:
        """{set: `alone` entry} for the points at which one set is certainly the strictly cheapest."""
        if not points or not self.usable or len(self.sets) < 2:
            return {}
        if self.num is not None:
            return self._integers(points)
        W = np.zeros((len(points), self.K))  # points as rows: each reduction below runs along memory
        for k, (classes, weights, q) in enumerate(points):
            W[k, list(classes)] = np.array(weights, dtype=float) / q  # correctly rounded, as the bound assumes
        rows = np.arange(len(points))
        with np.errstate(all="ignore"):
            values = W @ self.mids.T  # B x sets
            best = values.argmin(axis=1)
            high = values[rows, best] + self.bound[best]
            high += np.abs(high) * _U + _TINY
            least = values[rows, best] - self.bound[best]  # the winner's lower bound
            least -= np.abs(least) * _U + _TINY
            values[rows, best] = np.inf
            upper = (values + self.bound).min(axis=1)  # the runner-up's upper bound
            upper += np.abs(upper) * _U + _TINY
            values -= self.bound  # lower bounds, up to one rounding (below)
            low = values.min(axis=1)
            low -= np.abs(low) * _U + _TINY
            gap = np.nextafter(np.nextafter(low - high, -np.inf), -np.inf)
            top = np.nextafter(np.nextafter(upper - least, np.inf), np.inf)
        out: dict[ClassSet, SetOptimality] = {}
        for k in np.flatnonzero(gap > 0).tolist():
            m = self.sets[int(best[k])]
            if m not in out:
                witness = self._witness(points[k])
                margin = floor_of_enclosure(float(gap[k]), float(top[k])) or \
                    self._margin(m, witness, np.flatnonzero(values[k] <= upper[k]).tolist())
                out[m] = SetOptimality(m, "alone", witness=witness, margin=margin, margin_is_bound=margin is not None)
        return out

    def _margin(self, members: ClassSet, witness: tuple, nearest: list[int]) -> sp.Rational | None:
        """The gap at the witness rounded down to a fixed number of bits from the exact cells, where the float
        enclosure holds a rounding point (rare): the same on every machine."""
        p = [Fraction(int(x.p), int(x.q)) for x in witness]
        rows, support = self.scheme.rows, [y for y, x in enumerate(p) if x]
        # a lazy matrix gives the witness's cells only, its irrational power means kept whole
        cell = getattr(rows, "for_enclosure", None) or (lambda z, y: rows[z][y])
        mine = {y: cell(members, y) for y in support}
        forms = [[(p[y], cell(z, y)) for y in support] + [(-p[y], mine[y]) for y in support]
                 for z in (self.sets[j] for j in nearest) if z != members]
        found = margin_floor(forms)
        return found[0] if found is not None else None

    def _integers(self, points: list[Point]) -> dict[ClassSet, SetOptimality]:
        """Exactly, in int64: each point scaled by its common denominator (sums bounded below 2^62)."""
        keep = [k for k, (_, _, q) in enumerate(points) if self.largest * q < 2**62]  # Σ weights = q
        if not keep:
            return {}
        W = np.zeros((len(keep), self.K), dtype=np.int64)
        for row, k in enumerate(keep):
            classes, weights, _ = points[k]
            W[row, list(classes)] = weights
        rows = np.arange(len(keep))
        if self.largest * max(points[k][2] for k in keep) < 2**53:
            # every product and partial sum is an integer below 2^53, which binary64 holds exactly (fused or
            # not): BLAS gives the exact sums, far faster than numpy's integer product
            if self._num_float is None:
                self._num_float = self.num.T.astype(float)
            values = (W.astype(float) @ self._num_float).astype(np.int64)
        else:
            values = W @ self.num.T
        best = values.argmin(axis=1)
        mine = values[rows, best]
        values[rows, best] = np.iinfo(np.int64).max
        gaps = values.min(axis=1) - mine
        out: dict[ClassSet, SetOptimality] = {}
        for row in np.flatnonzero(gaps > 0).tolist():
            m, point = self.sets[int(best[row])], points[keep[row]]
            if m not in out:
                out[m] = SetOptimality(m, "alone", witness=self._witness(point),
                                       margin=sp.Rational(int(gaps[row]), self.den * point[2]))
        return out

    def _witness(self, point: Point) -> tuple[sp.Rational, ...]:
        """The exact point as K sympy rationals (each distinct weight made once)."""
        out = [sp.S.Zero] * self.K
        classes, weights, q = point
        for y, w in zip(classes, weights):
            value = self._exact.get((w, q))
            if value is None:
                value = self._exact[(w, q)] = sp.Rational(w, q)
            out[y] = value
        return tuple(out)
