"""Arrays of real numbers for the fast path: exact rationals where a cell is rational, a certified float
enclosure everywhere.

A `Cells` holds, for every element, an enclosure [lo, hi] (float64, lo <= value <= hi) and, where `exact` is
set, the exact value num/den (integers; one common denominator per array). Every float operation is rounded
to nearest and then widened by one ulp outward (`np.nextafter`), which encloses the result of a correctly
rounded IEEE operation (+ - * / sqrt); functions that IEEE does not round correctly (powers, log, exp) are
computed with python-flint `arb` balls on the distinct arguments. Comparisons answer 1 (true), 0 (false)
or -1 (undecided): exactly where both sides are exact, by separated enclosures otherwise, never by a float
guess. Undecided elements go to the exact interpreter, one cell at a time.

Owns: vectorised arithmetic and certified comparisons of cost arrays. May import: numpy, flint.
"""

from __future__ import annotations

import math
from fractions import Fraction

import flint
import numpy as np

from verifier.formula.rationals import (
    MAX_DEN_BITS,
    SAFE,
    CellsError,
    add_exact,
    common,
    down,
    enclose_ratio,
    exact_nonzero,
    exact_sign,
    magnitude,
    mul_exact,
    root,
    scale,
    up,
)

TRUE, FALSE, UNDECIDED = 1, 0, -1


class Cells:
    """An array of real numbers: a certified float enclosure [lo, hi] for every element and, where `exact` is set, its
    exact value num/den (see the module docstring)."""

    __slots__ = ("lo", "hi", "num", "den", "exact")

    def __init__(self, lo, hi, num=None, den: int = 1, exact=None):
        self.lo, self.hi = lo, hi
        self.num, self.den = num, den
        self.exact = exact if exact is not None else np.zeros(lo.shape, dtype=bool)

    # -- construction --------------------------------------------------------------------------------------
    @staticmethod
    def rational(value: Fraction | int, shape=()) -> "Cells":
        """The exact rational `value` in every element of an array of `shape`."""
        value = Fraction(value)
        num = np.full(shape, 0, dtype=object if abs(value.numerator) >= SAFE else np.int64)
        num[...] = value.numerator
        return Cells.from_exact(num, value.denominator)

    @staticmethod
    def from_exact(num: np.ndarray, den: int, exact: np.ndarray | None = None) -> "Cells":
        """The exact values num/den where `exact` is set (everywhere by default), with their enclosures; the other
        elements have no value yet (an unbounded enclosure)."""
        num = np.asarray(num)
        exact = np.ones(num.shape, dtype=bool) if exact is None else exact
        if num.dtype == object and num.size and magnitude(num) < SAFE:
            num = num.astype(np.int64)
        lo, hi = enclose_ratio(num, den)
        if not exact.all():  # elements that are not exact have no value here yet: an empty claim
            lo, hi = np.where(exact, lo, -np.inf), np.where(exact, hi, np.inf)
        return Cells(lo, hi, num, den, exact)

    @staticmethod
    def enclosure(lo, hi) -> "Cells":
        """Values known only by an enclosure [lo, hi], with no exact value; a NaN bound becomes an infinite one."""
        lo, hi = np.asarray(lo, dtype=np.float64), np.asarray(hi, dtype=np.float64)
        return Cells(np.where(np.isnan(lo), -np.inf, lo), np.where(np.isnan(hi), np.inf, hi))

    def with_enclosure(self, lo, hi) -> "Cells":
        """The same values with another valid enclosure: the tighter of the two is kept."""
        return Cells(np.maximum(self.lo, lo), np.minimum(self.hi, hi), self.num, self.den, self.exact)

    @property
    def shape(self):
        """The shape of the array (that of `lo` and `hi`)."""
        return self.lo.shape

    @property
    def all_exact(self) -> bool:
        """Whether every element holds its exact value."""
        return bool(self.exact.all())

    def fraction(self, index) -> Fraction | None:
        """The exact value of one element, when it is exact."""
        if self.num is None or not self.exact[index]:
            return None
        return Fraction(int(self.num[index]), self.den)

    def take(self, index) -> "Cells":
        """Elements (numpy indexing), keeping exactness."""
        num = None if self.num is None else self.num[index]
        return Cells(self.lo[index], self.hi[index], num, self.den, self.exact[index])

    def transpose(self) -> "Cells":
        """The transposed array, keeping exactness."""
        num = None if self.num is None else self.num.T
        return Cells(self.lo.T, self.hi.T, num, self.den, self.exact.T)

    def broadcast(self, shape) -> "Cells":
        """A read-only view broadcast to `shape`, keeping exactness."""
        num = None if self.num is None else np.broadcast_to(self.num, shape)
        return Cells(np.broadcast_to(self.lo, shape), np.broadcast_to(self.hi, shape), num, self.den,
                     np.broadcast_to(self.exact, shape))

    # -- arithmetic ---------------------------------------------------------------------------------------
    def __neg__(self) -> "Cells":
        num = None if self.num is None else -self.num
        return Cells(-self.hi, -self.lo, num, self.den, self.exact)

    def __add__(self, other: "Cells") -> "Cells":
        lo, hi = down(self.lo + other.lo), up(self.hi + other.hi)
        return _with_exact(lo, hi, self, other, add_exact)

    def __sub__(self, other: "Cells") -> "Cells":
        return self + (-other)

    def __mul__(self, other: "Cells") -> "Cells":
        with np.errstate(invalid="ignore", over="ignore"):
            products = [self.lo * other.lo, self.lo * other.hi, self.hi * other.lo, self.hi * other.hi]
            lo, hi = down(np.minimum.reduce(products)), up(np.maximum.reduce(products))
        return _with_exact(lo, hi, self, other, mul_exact)

    def reciprocal(self) -> "Cells":
        """1/x; every element must certainly be non-zero (exactly, or by its enclosure)."""
        nonzero = np.where(self.exact, exact_nonzero(self), (self.lo > 0) | (self.hi < 0))
        if not nonzero.all():
            raise CellsError("a divisor may be 0")
        with np.errstate(divide="ignore", over="ignore"):
            lo, hi = down(1.0 / self.hi), up(1.0 / self.lo)
        out = Cells.enclosure(lo, hi)
        if self.num is not None and self.exact.any():
            out = _exact_reciprocal(self, out)
        return out

    def __truediv__(self, other: "Cells") -> "Cells":
        return self * other.reciprocal()

    def power(self, exponent: Fraction) -> "Cells":
        """x ** exponent for one exact rational exponent."""
        if exponent.denominator == 1:
            return self._integer_power(int(exponent))
        if not ((self.lo >= 0) | (self.exact & (exact_sign(self) >= 0))).all():
            raise CellsError("a fractional power of a number that may be negative")
        e = flint.arb(flint.fmpq(exponent.numerator, exponent.denominator))
        out = arb_map(lambda x, low: x ** e if x > 0 else _touching_zero(x, low, e) if exponent > 0 else None,
                      self)
        return _exact_roots(self, exponent, out)

    def _integer_power(self, n: int) -> "Cells":
        if n < 0:
            return self._integer_power(-n).reciprocal()
        out = Cells.rational(1, self.shape)
        base = self
        while n:  # square-and-multiply keeps the enclosure tight enough and the work logarithmic
            if n & 1:
                out = out * base
            n >>= 1
            if n:
                base = base.square()
        return out

    def square(self) -> "Cells":
        """x * x, with the lower bound raised to 0 where the enclosure of x contains 0."""
        out = self * self
        nonneg = np.maximum(out.lo, 0.0)  # x*x >= 0 even where the enclosure of x contains 0
        return Cells(nonneg, out.hi, out.num, out.den, out.exact)

    def minimum(self, other: "Cells") -> "Cells":
        """The elementwise minimum, chosen by certified comparison; where the order is undecided, the hull of both (not
        exact)."""
        return _select(compare(self, "<=", other), self, other)

    def maximum(self, other: "Cells") -> "Cells":
        """The elementwise maximum, chosen by certified comparison; where the order is undecided, the hull of both (not
        exact)."""
        return _select(compare(self, ">=", other), self, other)


def where(condition: np.ndarray, a: Cells, b: Cells) -> Cells:
    """Elementwise a where condition else b (condition certain, a boolean array)."""
    shape = np.broadcast_shapes(condition.shape, a.shape, b.shape)
    lo = np.where(condition, a.lo, b.lo)
    hi = np.where(condition, a.hi, b.hi)
    exact = np.where(condition, a.exact, b.exact)
    if a.num is None and b.num is None or not exact.any():
        return Cells(np.broadcast_to(lo, shape), np.broadcast_to(hi, shape), None, 1, np.broadcast_to(exact, shape))
    an, bn, den = common(a, b)
    num = np.where(condition, an, bn)
    num = np.where(exact, num, 0)
    return Cells(lo, hi, num, den, exact)


def _select(choice: np.ndarray, a: Cells, b: Cells) -> Cells:
    if (choice == UNDECIDED).any():  # min/max of two values whose order is not certain: hull of both
        lo = np.minimum(np.where(choice == TRUE, a.lo, b.lo), np.where(choice == UNDECIDED, a.lo, np.inf))
        hi = np.maximum(np.where(choice == TRUE, a.hi, b.hi), np.where(choice == UNDECIDED, a.hi, -np.inf))
        picked = where(choice == TRUE, a, b)
        exact = picked.exact & (choice != UNDECIDED)
        num = None if picked.num is None else np.where(exact, picked.num, 0)
        return Cells(lo, hi, num, picked.den, exact)
    return where(choice == TRUE, a, b)


def compare(a: Cells, op: str, b: Cells) -> np.ndarray:
    """Elementwise truth of `a op b`: 1 true, 0 false, -1 undecided (int8)."""
    if op in (">", ">="):
        return compare(b, "<" if op == ">" else "<=", a)
    if op == "!=":
        eq = compare(a, "==", b)
        return np.where(eq == UNDECIDED, UNDECIDED, 1 - eq).astype(np.int8)
    shape = np.broadcast_shapes(a.shape, b.shape)
    with np.errstate(invalid="ignore"):
        if op == "<":
            yes, no = a.hi < b.lo, a.lo >= b.hi
        elif op == "<=":
            yes, no = a.hi <= b.lo, a.lo > b.hi
        elif op == "==":
            yes, no = np.zeros(shape, bool), (a.hi < b.lo) | (a.lo > b.hi)
        else:
            raise ValueError(op)
    truth = np.where(yes, TRUE, np.where(no, FALSE, UNDECIDED)).astype(np.int8)
    both = np.broadcast_to(a.exact & b.exact, shape)
    if a.num is not None and b.num is not None and both.any():
        an, bn, _ = common(a, b)
        diff = an - bn
        exact_truth = {"<": diff < 0, "<=": diff <= 0, "==": diff == 0}[op]
        truth = np.where(both, np.asarray(exact_truth, dtype=bool).astype(np.int8), truth).astype(np.int8)
    return np.broadcast_to(truth, shape)


def _touching_zero(x, low: float, e):
    """x**e for x in [low, upper] with low >= 0 (a ball may reach below its lower end) and e > 0: x**e is
    increasing, so [0, upper**e] holds it."""
    if low < 0:
        return None
    return flint.arb(0).union(flint.arb(x.upper()) ** e)


def arb_map(fn, cells: Cells) -> Cells:
    """Apply an arb function to each distinct enclosure [a, b]: `fn(ball, a)` returns an arb ball containing the
    image, or None when the function may be undefined there."""
    flat_lo, flat_hi = cells.lo.reshape(-1), cells.hi.reshape(-1)
    pairs = np.stack([flat_lo, flat_hi], axis=1)
    unique, inverse = np.unique(pairs, axis=0, return_inverse=True)
    lo, hi = np.empty(len(unique)), np.empty(len(unique))
    for i, (a, b) in enumerate(unique):
        if not (math.isfinite(a) and math.isfinite(b)):
            raise CellsError("a value has no finite enclosure")
        x = flint.arb(float(a)) if a == b else flint.arb(float(a)).union(flint.arb(float(b)))  # floats are exact

        y = fn(x, float(a))
        if y is None or not y.is_finite():
            raise CellsError("a function's argument may lie outside its domain")
        lo[i], hi[i] = float(y.lower()), float(y.upper())
    lo, hi = down(lo), up(hi)
    inverse = inverse.reshape(-1)
    return Cells.enclosure(lo[inverse].reshape(cells.shape), hi[inverse].reshape(cells.shape))


# -- exact parts that build cells ----------------------------------------------------------------------
def _with_exact(lo, hi, a: Cells, b: Cells, op) -> Cells:
    exact = a.exact & b.exact
    if a.num is None or b.num is None or not exact.any():
        return Cells(lo, hi, None, 1, np.zeros(np.shape(lo), bool))
    num, den = op(a, b, exact)
    if den.bit_length() > MAX_DEN_BITS:
        return Cells(lo, hi, None, 1, np.zeros(np.shape(lo), bool))
    num = np.where(exact, num, 0)
    if num.dtype == object and magnitude(num) < SAFE:
        num = num.astype(np.int64)
    exact_lo, exact_hi = enclose_ratio(num, den)  # the exact value's own enclosure is the tighter one
    return Cells(np.where(exact, np.maximum(lo, exact_lo), lo), np.where(exact, np.minimum(hi, exact_hi), hi),
                 num, den, exact)


def _exact_reciprocal(c: Cells, out: Cells) -> Cells:
    """den/num per element: exact where the distinct numerators have a modest common multiple."""
    values = np.unique(np.asarray(c.num[c.exact], dtype=object))
    multiple = 1
    for v in values:
        multiple = math.lcm(multiple, abs(int(v)))
        if multiple.bit_length() > MAX_DEN_BITS:
            return out  # too many distinct divisors: the enclosure alone
    # (a bound of 128 bits here lost exactness at 1/len(Y) from 89 classes on, lcm(1..89) > 2^128, and with it
    # the matrix-free route of intervals and size caps; MAX_DEN_BITS is what `_with_exact` keeps anyway)
    safe = np.where(c.exact, c.num, 1)
    num = scale(np.ones(c.shape, np.int64), multiple * c.den)
    num = np.asarray(num, dtype=object) // np.asarray(safe, dtype=object)
    return _with_exact(out.lo, out.hi, Cells.from_exact(num, multiple, c.exact), Cells.rational(1, c.shape),
                       mul_exact)


def _exact_roots(base: Cells, exponent: Fraction, out: Cells) -> Cells:
    """Where the base is exact and a perfect power, (num/den)^(p/q) is rational: keep it exact."""
    if base.num is None or not base.exact.any():
        return out
    p, q = exponent.numerator, exponent.denominator
    flat = np.asarray(np.where(base.exact, base.num, -1), dtype=object).reshape(-1)
    values, inverse = np.unique(flat, return_inverse=True)
    rd = root(base.den, q)
    roots = [None if int(v) < 0 or rd is None or (r := root(int(v), q)) is None or (r == 0 and p < 0)
             else Fraction(r, rd) ** p for v in values]
    known = [f for f in roots if f is not None]
    if not known:
        return out
    den = math.lcm(*(f.denominator for f in known))
    nums = np.array([0 if f is None else f.numerator * (den // f.denominator) for f in roots], dtype=object)
    ok = np.array([f is not None for f in roots])
    inverse = inverse.reshape(-1)
    exact = ok[inverse].reshape(base.shape) & base.exact
    exact_cells = Cells.from_exact(np.where(exact, nums[inverse].reshape(base.shape), 0), den, exact)
    lo = np.where(exact, exact_cells.lo, out.lo)
    hi = np.where(exact, exact_cells.hi, out.hi)
    return Cells(lo, hi, exact_cells.num, exact_cells.den, exact)
