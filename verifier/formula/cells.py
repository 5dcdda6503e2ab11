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

SAFE = 2**62  # int64 magnitudes kept below this; beyond, exact numerators become Python ints (object arrays)
MAX_DEN_BITS = 4000  # a common denominator larger than this stops being exact (the enclosure remains)
TRUE, FALSE, UNDECIDED = 1, 0, -1


class CellsError(Exception):
    """An operation the fast path cannot carry out soundly (e.g. a divisor whose enclosure contains 0).

    The caller falls back to the exact interpreter, which decides or reports a located error."""


def _down(x: np.ndarray) -> np.ndarray:
    return np.nextafter(x, -np.inf)


def _up(x: np.ndarray) -> np.ndarray:
    return np.nextafter(x, np.inf)


class Cells:
    __slots__ = ("lo", "hi", "num", "den", "exact")

    def __init__(self, lo, hi, num=None, den: int = 1, exact=None):
        self.lo, self.hi = lo, hi
        self.num, self.den = num, den
        self.exact = exact if exact is not None else np.zeros(lo.shape, dtype=bool)

    # -- construction --------------------------------------------------------------------------------------
    @staticmethod
    def rational(value: Fraction | int, shape=()) -> "Cells":
        value = Fraction(value)
        num = np.full(shape, 0, dtype=object if abs(value.numerator) >= SAFE else np.int64)
        num[...] = value.numerator
        return Cells.from_exact(num, value.denominator)

    @staticmethod
    def from_exact(num: np.ndarray, den: int, exact: np.ndarray | None = None) -> "Cells":
        num = np.asarray(num)
        exact = np.ones(num.shape, dtype=bool) if exact is None else exact
        if num.dtype == object and num.size and _magnitude(num) < SAFE:
            num = num.astype(np.int64)
        lo, hi = _enclose_ratio(num, den)
        if not exact.all():  # elements that are not exact have no value here yet: an empty claim
            lo, hi = np.where(exact, lo, -np.inf), np.where(exact, hi, np.inf)
        return Cells(lo, hi, num, den, exact)

    @staticmethod
    def enclosure(lo, hi) -> "Cells":
        lo, hi = np.asarray(lo, dtype=np.float64), np.asarray(hi, dtype=np.float64)
        return Cells(np.where(np.isnan(lo), -np.inf, lo), np.where(np.isnan(hi), np.inf, hi))

    def with_enclosure(self, lo, hi) -> "Cells":
        """The same values with another valid enclosure: the tighter of the two is kept."""
        return Cells(np.maximum(self.lo, lo), np.minimum(self.hi, hi), self.num, self.den, self.exact)

    @property
    def shape(self):
        return self.lo.shape

    @property
    def all_exact(self) -> bool:
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

    def with_exact(self, values: dict[tuple, Fraction]) -> "Cells":
        """A copy where the given elements are the given exact rationals."""
        den = math.lcm(self.den, *(f.denominator for f in values.values()))
        num = np.zeros(self.shape, np.int64) if self.num is None else _scale(np.asarray(self.num), den // self.den)
        num = num.copy()
        if any(abs(f.numerator * (den // f.denominator)) >= SAFE for f in values.values()):
            num = num.astype(object)
        lo, hi, exact = self.lo.copy(), self.hi.copy(), self.exact.copy()
        for index, f in values.items():
            num[index] = f.numerator * (den // f.denominator)
            exact[index] = True
            point_lo, point_hi = _enclose_ratio(np.array([num[index]]), den)
            lo[index], hi[index] = max(lo[index], point_lo[0]), min(hi[index], point_hi[0])
        return Cells(lo, hi, num, den, exact)

    def transpose(self) -> "Cells":
        num = None if self.num is None else self.num.T
        return Cells(self.lo.T, self.hi.T, num, self.den, self.exact.T)

    def broadcast(self, shape) -> "Cells":
        num = None if self.num is None else np.broadcast_to(self.num, shape)
        return Cells(np.broadcast_to(self.lo, shape), np.broadcast_to(self.hi, shape), num, self.den,
                     np.broadcast_to(self.exact, shape))

    # -- arithmetic ---------------------------------------------------------------------------------------
    def __neg__(self) -> "Cells":
        num = None if self.num is None else -self.num
        return Cells(-self.hi, -self.lo, num, self.den, self.exact)

    def __add__(self, other: "Cells") -> "Cells":
        lo, hi = _down(self.lo + other.lo), _up(self.hi + other.hi)
        return _with_exact(lo, hi, self, other, _exact_add)

    def __sub__(self, other: "Cells") -> "Cells":
        return self + (-other)

    def __mul__(self, other: "Cells") -> "Cells":
        with np.errstate(invalid="ignore", over="ignore"):
            products = [self.lo * other.lo, self.lo * other.hi, self.hi * other.lo, self.hi * other.hi]
            lo, hi = _down(np.minimum.reduce(products)), _up(np.maximum.reduce(products))
        return _with_exact(lo, hi, self, other, _exact_mul)

    def reciprocal(self) -> "Cells":
        """1/x; every element must certainly be non-zero (exactly, or by its enclosure)."""
        nonzero = np.where(self.exact, _exact_nonzero(self), (self.lo > 0) | (self.hi < 0))
        if not nonzero.all():
            raise CellsError("a divisor may be 0")
        with np.errstate(divide="ignore", over="ignore"):
            lo, hi = _down(1.0 / self.hi), _up(1.0 / self.lo)
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
        if not ((self.lo >= 0) | (self.exact & (_exact_sign(self) >= 0))).all():
            raise CellsError("a fractional power of a number that may be negative")
        e = flint.arb(flint.fmpq(exponent.numerator, exponent.denominator))
        out = arb_map(lambda x: x ** e if x > 0 else (flint.arb(0) if x == 0 and exponent > 0 else None), self)
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
        out = self * self
        nonneg = np.maximum(out.lo, 0.0)  # x*x >= 0 even where the enclosure of x contains 0
        return Cells(nonneg, out.hi, out.num, out.den, out.exact)

    def minimum(self, other: "Cells") -> "Cells":
        return _select(compare(self, "<=", other), self, other)

    def maximum(self, other: "Cells") -> "Cells":
        return _select(compare(self, ">=", other), self, other)


def where(condition: np.ndarray, a: Cells, b: Cells) -> Cells:
    """Elementwise a where condition else b (condition certain, a boolean array)."""
    shape = np.broadcast_shapes(condition.shape, a.shape, b.shape)
    lo = np.where(condition, a.lo, b.lo)
    hi = np.where(condition, a.hi, b.hi)
    exact = np.where(condition, a.exact, b.exact)
    if a.num is None and b.num is None or not exact.any():
        return Cells(np.broadcast_to(lo, shape), np.broadcast_to(hi, shape), None, 1, np.broadcast_to(exact, shape))
    an, bn, den = _common(a, b)
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
        an, bn, _ = _common(a, b)
        diff = an - bn
        exact_truth = {"<": diff < 0, "<=": diff <= 0, "==": diff == 0}[op]
        truth = np.where(both, np.asarray(exact_truth, dtype=bool).astype(np.int8), truth).astype(np.int8)
    return np.broadcast_to(truth, shape)


def arb_map(fn, cells: Cells) -> Cells:
    """Apply an arb function to each distinct enclosure; `fn` returns an arb ball, or None when undefined."""
    flat_lo, flat_hi = cells.lo.reshape(-1), cells.hi.reshape(-1)
    pairs = np.stack([flat_lo, flat_hi], axis=1)
    unique, inverse = np.unique(pairs, axis=0, return_inverse=True)
    lo, hi = np.empty(len(unique)), np.empty(len(unique))
    for i, (a, b) in enumerate(unique):
        if not (math.isfinite(a) and math.isfinite(b)):
            raise CellsError("a value has no finite enclosure")
        x = flint.arb(float(a)) if a == b else flint.arb(float(a)).union(flint.arb(float(b)))  # floats are exact

        y = fn(x)
        if y is None or not y.is_finite():
            raise CellsError("a function's argument may lie outside its domain")
        lo[i], hi[i] = float(y.lower()), float(y.upper())
    lo, hi = _down(lo), _up(hi)
    inverse = inverse.reshape(-1)
    return Cells.enclosure(lo[inverse].reshape(cells.shape), hi[inverse].reshape(cells.shape))


# -- exact parts --------------------------------------------------------------------------------------------
def _enclose_ratio(num: np.ndarray, den: int):
    """Enclosure of num/den: two roundings (int -> float, division), each covered by one ulp outward."""
    if den.bit_length() > 1000:
        raise CellsError("a denominator too large for an enclosure")
    try:
        with np.errstate(over="ignore"):
            q = np.asarray(num, dtype=np.float64) / float(den)
    except OverflowError:
        q = np.array([_big_ratio(int(v), den) for v in np.asarray(num).flat]).reshape(np.shape(num))
    lo, hi = _down(_down(q)), _up(_up(q))
    zero = np.asarray(num == 0)
    lo, hi = np.where(zero, 0.0, lo), np.where(zero, 0.0, hi)
    if den == 1 and np.asarray(num).dtype != object:  # integers below 2^53 are floats exactly
        small = np.abs(np.asarray(num)) <= 2**53
        lo, hi = np.where(small, q, lo), np.where(small, q, hi)
    return lo, hi


def _big_ratio(n: int, d: int) -> float:
    try:
        return n / d  # Python divides big integers correctly rounded
    except OverflowError:
        return math.inf if n > 0 else -math.inf


def _common(a: Cells, b: Cells):
    """Numerators over one common denominator (exactness masks are the callers' business)."""
    den = math.lcm(a.den, b.den)
    an = _scale(a.num if a.num is not None else np.zeros(a.shape, np.int64), den // a.den)
    bn = _scale(b.num if b.num is not None else np.zeros(b.shape, np.int64), den // b.den)
    return an, bn, den


def _magnitude(num: np.ndarray) -> int:
    if num.size == 0:
        return 0
    if num.dtype == object:
        return max(abs(int(num.max())), abs(int(num.min())))
    return int(np.abs(num).max())


def _scale(num: np.ndarray, factor: int) -> np.ndarray:
    if factor == 1:
        return num
    if num.dtype != object and factor < SAFE and _magnitude(num) * factor < SAFE:
        return num * factor
    return num.astype(object) * factor


def _with_exact(lo, hi, a: Cells, b: Cells, op) -> Cells:
    exact = a.exact & b.exact
    if a.num is None or b.num is None or not exact.any():
        return Cells(lo, hi, None, 1, np.zeros(np.shape(lo), bool))
    num, den = op(a, b, exact)
    if den.bit_length() > MAX_DEN_BITS:
        return Cells(lo, hi, None, 1, np.zeros(np.shape(lo), bool))
    num = np.where(exact, num, 0)
    if num.dtype == object and _magnitude(num) < SAFE:
        num = num.astype(np.int64)
    exact_lo, exact_hi = _enclose_ratio(num, den)  # the exact value's own enclosure is the tighter one
    return Cells(np.where(exact, np.maximum(lo, exact_lo), lo), np.where(exact, np.minimum(hi, exact_hi), hi),
                 num, den, exact)


def _zeroed(c: Cells, exact) -> np.ndarray:
    return np.where(exact, c.num, 0)


def _exact_add(a: Cells, b: Cells, exact):
    an, bn, den = _common(a, b)
    an, bn = np.where(exact, an, 0), np.where(exact, bn, 0)
    if an.dtype != object and bn.dtype != object and _magnitude(an) + _magnitude(bn) >= SAFE:
        an = an.astype(object)
    return an + bn, den


def _exact_mul(a: Cells, b: Cells, exact):
    an, bn = _zeroed(a, exact), _zeroed(b, exact)
    if an.dtype != object and bn.dtype != object and _magnitude(an) * _magnitude(bn) >= SAFE:
        an = an.astype(object)
    num, den = an * bn, a.den * b.den
    g = _gcd_all(num, den)
    return (num // g, den // g) if g > 1 else (num, den)


def _gcd_all(num: np.ndarray, den: int) -> int:
    if num.dtype == object:
        g = den
        for v in num.flat:
            g = math.gcd(g, int(v))
            if g == 1:
                break
        return g
    return math.gcd(int(np.gcd.reduce(num.reshape(-1))) if num.size else 0, den)


def _exact_sign(c: Cells) -> np.ndarray:
    if c.num is None:
        return np.zeros(c.shape, np.int64)
    return np.sign(c.num).astype(np.int64) if c.num.dtype != object else np.vectorize(
        lambda v: (v > 0) - (v < 0), otypes=[np.int64])(c.num)


def _exact_nonzero(c: Cells) -> np.ndarray:
    return _exact_sign(c) != 0


def _exact_reciprocal(c: Cells, out: Cells) -> Cells:
    """den/num per element: exact where the distinct numerators have a modest common multiple."""
    values = np.unique(np.asarray(c.num[c.exact], dtype=object))
    multiple = 1
    for v in values:
        multiple = math.lcm(multiple, abs(int(v)))
        if multiple.bit_length() > 128:
            return out  # too many distinct divisors: the enclosure alone
    safe = np.where(c.exact, c.num, 1)
    num = _scale(np.ones(c.shape, np.int64), multiple * c.den)
    num = np.asarray(num, dtype=object) // np.asarray(safe, dtype=object)
    return _with_exact(out.lo, out.hi, Cells.from_exact(num, multiple, c.exact), Cells.rational(1, c.shape),
                       _exact_mul)


def _exact_roots(base: Cells, exponent: Fraction, out: Cells) -> Cells:
    """Where the base is exact and a perfect power, (num/den)^(p/q) is rational: keep it exact."""
    if base.num is None or not base.exact.any():
        return out
    p, q = exponent.numerator, exponent.denominator
    flat = np.asarray(np.where(base.exact, base.num, -1), dtype=object).reshape(-1)
    values, inverse = np.unique(flat, return_inverse=True)
    rd = _root(base.den, q)
    roots = [None if int(v) < 0 or rd is None or (r := _root(int(v), q)) is None or (r == 0 and p < 0)
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


def _root(n: int, q: int) -> int | None:
    """The exact q-th root of n >= 0, or None."""
    if n < 0:
        return None
    r = int(flint.fmpz(n).root(q))
    return r if r**q == n else None


def masked_sum(cells: Cells, mask: np.ndarray) -> Cells:
    """Σ along the last axis of the elements where `mask` is set; the enclosure is widened by the rounding
    bound of recursive summation, |fl(Σ) − Σ| <= γ_n Σ|x_i| with γ_n = nu/(1 − nu) (Higham, §3.1)."""
    x = where(mask, cells, Cells.rational(0, (1,) * cells.lo.ndim))
    n = x.shape[-1]
    gamma = (n * 2.0**-53) / (1 - n * 2.0**-53)
    with np.errstate(over="ignore", invalid="ignore"):
        lo = x.lo.sum(axis=-1) - gamma * np.abs(x.lo).sum(axis=-1) * (1 + 2.0**-50) - n * 2.0**-1074
        hi = x.hi.sum(axis=-1) + gamma * np.abs(x.hi).sum(axis=-1) * (1 + 2.0**-50) + n * 2.0**-1074
    lo, hi = _down(lo), _up(hi)
    lo = np.where((x.lo >= 0).all(axis=-1), np.maximum(lo, 0.0), lo)  # a sum of non-negatives is >= 0
    hi = np.where((x.hi <= 0).all(axis=-1), np.minimum(hi, 0.0), hi)
    out = Cells.enclosure(lo, hi)
    exact = x.exact.all(axis=-1)
    if x.num is None or not exact.any():
        return out
    num = np.where(x.exact, x.num, 0)
    if num.dtype == object or _magnitude(num) * n >= SAFE:
        total = num.astype(object).sum(axis=-1)
    else:
        total = num.sum(axis=-1)
    sums = Cells.from_exact(np.where(exact, total, 0), x.den, exact)
    return Cells(np.where(exact, np.maximum(out.lo, sums.lo), out.lo), np.where(exact, np.minimum(out.hi, sums.hi),
                 out.hi), sums.num, sums.den, exact)
