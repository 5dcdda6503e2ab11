"""The values and list functions of the vectorised interpreter (`vector`): class-index arrays, lists along a
trailing axis with a presence mask, and the reducers (sum, mean, prod, min, max, genmean) that fold them.

Owns: the grid values and their reducers. May import: `formula.cells`, `formula.cell_sums`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from verifier.errors import DoesNotApply
from verifier.formula.cell_sums import masked_sum
from verifier.formula.cells import FALSE, TRUE, UNDECIDED, Cells, CellsError, compare, where


class NotVectorised(DoesNotApply):
    """This formula (here) needs the exact cell-by-cell interpreter; the message says why."""


@dataclass(frozen=True)
class Cls:
    """Class indices over the grid (int array)."""

    index: np.ndarray


@dataclass(frozen=True)
class Lst:
    """A list along the trailing axis: values and which of them are present."""

    cells: Cells
    mask: np.ndarray


class _SetY:
    pass


SET_Y = _SetY()


def lift_all(local: dict) -> dict:
    """The outer values, one trailing axis more (inside a comprehension or list)."""
    out = {}
    for name, v in local.items():
        if isinstance(v, Cells):
            out[name] = Cells(v.lo[..., None], v.hi[..., None], None if v.num is None else v.num[..., None],
                              v.den, v.exact[..., None])
        elif isinstance(v, Cls):
            out[name] = Cls(v.index[..., None])
        elif isinstance(v, np.ndarray):
            out[name] = v[..., None]
        else:
            out[name] = v
    return out


def stack(values: tuple[Cells, ...]) -> Cells:
    """Scalar values as one array along a new leading axis."""
    return concat([v.broadcast(()).take(np.newaxis) for v in values], axis=0)


def concat(parts: list[Cells], axis: int) -> Cells:
    """Arrays joined along `axis`, keeping exact values over their common denominator where there are any."""
    lo = np.concatenate([p.lo for p in parts], axis=axis)
    hi = np.concatenate([p.hi for p in parts], axis=axis)
    exact = np.concatenate([p.exact for p in parts], axis=axis)
    if not exact.any():
        return Cells(lo, hi, None, 1, exact)
    den = math.lcm(*(p.den for p in parts))
    nums = [np.where(p.exact, p.num, 0) if p.num is not None else np.zeros(p.shape, np.int64) for p in parts]
    nums = [n.astype(object) * (den // p.den) if den // p.den != 1 else n for n, p in zip(nums, parts)]
    num = np.concatenate([np.asarray(n, dtype=object) for n in nums], axis=axis)
    return Cells.from_exact(num, den, exact)


def _masked(lst: Lst, neutral: Fraction) -> Cells:
    return where(lst.mask, lst.cells, Cells.rational(neutral, (1,) * lst.cells.lo.ndim))


def _nonempty(lst: Lst, what: str) -> Lst:
    if (lst.mask.sum(axis=-1) == 0).any():  # as the exact interpreter: an empty list has no sum or product
        raise CellsError(f"{what} of an empty list")
    return lst


def _sum(lst: Lst) -> Cells:
    return masked_sum(lst.cells, lst.mask)


def _count(lst: Lst) -> Cells:
    return Cells.from_exact(lst.mask.sum(axis=-1).astype(np.int64), 1)


def _mean(lst: Lst) -> Cells:
    count = _count(lst)
    if (count.num == 0).any():
        raise CellsError("the mean of an empty list")
    return _sum(lst) / count


def _fold(lst: Lst, step, neutral: Fraction) -> Cells:
    x = _masked(lst, neutral).broadcast(lst.mask.shape)
    out = x.take((Ellipsis, 0))
    for i in range(1, x.shape[-1]):
        out = step(out, x.take((Ellipsis, i)))
    return out


def _extreme(lst: Lst, kind: str) -> Cells:
    if (lst.mask.sum(axis=-1) == 0).any():
        raise CellsError(f"{kind} of an empty list")
    present = lst.mask
    cells = lst.cells.broadcast(np.broadcast_shapes(lst.cells.shape, present.shape))
    out = None
    for i in range(cells.shape[-1]):
        item = cells.take((Ellipsis, i))
        here = present[..., i]
        if out is None:
            out, seen = item, here
            continue
        better = item.minimum(out) if kind == "min" else item.maximum(out)
        out = where(here & ~seen, item, where(here, better, out))
        seen = seen | here
    return out


REDUCERS = {
    "sum": lambda lst: _sum(_nonempty(lst, "sum")),
    "mean": _mean,
    "prod": lambda lst: _fold(_nonempty(lst, "prod"), lambda a, b: a * b, Fraction(1)),
    "min": lambda lst: _extreme(lst, "min"),
    "max": lambda lst: _extreme(lst, "max"),
}


def constant_exponent(value: Cells) -> Fraction:
    """One exact rational, the same in every cell (exponents must be such)."""
    if value.num is None or not value.exact.all():
        raise NotVectorised("an exponent that is not an exact rational constant")
    flat = np.asarray(value.num).reshape(-1)
    if flat.size and (flat != flat[0]).any():
        raise NotVectorised("an exponent that varies from cell to cell")
    return Fraction(int(flat[0]) if flat.size else 0, value.den)


def power(base: Cells, exponent: Cells) -> Cells:
    """base ** exponent for an exact rational exponent, the same in every cell, with numerator and denominator at most
    1000; else NotVectorised."""
    e = constant_exponent(exponent)
    if abs(e.numerator) > 1000 or e.denominator > 1000:
        raise NotVectorised("a large exponent")
    return base.power(e)


def genmean(p: Fraction, lst: Lst) -> Cells:
    """Eq. 12-13 (p = 0: the geometric mean), as the exact interpreter defines it."""
    # compared on the values before masking broadcasts them (often the K x K costs, not sets x K x K)
    if _present(compare(lst.cells, "<", Cells.rational(0)) != FALSE, lst.mask):
        raise CellsError("genmean of a value that may be negative")
    if p == 1:
        return _mean(lst)
    count = _count(lst)
    return _sole_where_single(lst, count, _genmean(p, lst, count))


def _present(flags: np.ndarray, mask: np.ndarray) -> bool:
    """Whether a flagged value is present in some list."""
    return bool(flags.any() and (flags & mask).any())


def _genmean(p: Fraction, lst: Lst, count: Cells) -> Cells:
    if p == 0:
        x = _masked(lst, Fraction(0))
        zero = compare(x, "==", Cells.rational(0)) * lst.mask
        if (zero == UNDECIDED).any():
            raise CellsError("genmean of a value that may be 0")
        product = _fold(Lst(x, lst.mask), lambda a, b: a * b, Fraction(1))
        out = product
        for n in np.unique(count.num):
            out = where(count.num == n, product.power(Fraction(1, int(n))), out)
        return where((zero == TRUE).any(axis=-1), Cells.rational(0, count.shape), out)
    if p < 0 and _present(compare(lst.cells, "==", Cells.rational(0)) != FALSE, lst.mask):
        raise CellsError("genmean with a negative exponent of a value that may be 0")
    # x^p on the values as they are, before masking broadcasts them; absent values of x^(-p) count as 1
    powered = lst.cells.power(p) if p > 0 else \
        where(lst.mask, lst.cells, Cells.rational(1, (1,) * lst.cells.lo.ndim)).power(p)
    return (_sum(Lst(powered, lst.mask)) / count).power(1 / p)


def _sole_where_single(lst: Lst, count: Cells, out: Cells) -> Cells:
    """A list of one value has that value as its power mean, exactly ((x^p)^(1/p) = x for x >= 0): the singleton
    rows stay exact where the powers went through enclosures (sqrt(3)^2)."""
    single = count.num == 1
    if not single.any():
        return out
    shape = np.broadcast_shapes(lst.cells.shape, lst.mask.shape)
    at = np.broadcast_to(lst.mask, shape).argmax(axis=-1)[..., None]  # the one present value of a single list

    def pick(a: np.ndarray) -> np.ndarray:
        return np.take_along_axis(np.broadcast_to(a, shape), at, axis=-1)[..., 0]

    x = lst.cells
    sole = Cells(pick(x.lo), pick(x.hi), None if x.num is None else pick(x.num), x.den, pick(x.exact))
    return where(single, sole, out)


def certain_sign(x: Cells) -> bool:
    """Whether every element's enclosure lies on one side of 0 (lo >= 0 or hi <= 0), so its sign is certain."""
    return bool(((x.lo >= 0) | (x.hi <= 0)).all())


def absolute(x: Cells) -> Cells:
    """The elementwise absolute value: a certified enclosure, exact where the value is."""
    lo = np.where(x.lo >= 0, x.lo, np.where(x.hi <= 0, -x.hi, 0.0))
    hi = np.maximum(np.abs(x.lo), np.abs(x.hi))
    out = Cells.enclosure(lo, hi)
    if x.num is not None and x.exact.any():
        num = np.where(x.exact,
                       np.abs(x.num) if x.num.dtype != object else np.vectorize(abs, otypes=[object])(x.num), 0)
        return Cells(out.lo, out.hi, num, x.den, x.exact)
    return out
