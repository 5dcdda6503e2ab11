"""Evaluate a whitelisted formula for every cell of a grid at once (the fast path's interpreter).

The same trees as `evaluate`, walked once per grid instead of once per cell. A grid has named axes: for
`set_cost`, axis 0 runs over sets (a membership matrix) and axis 1 over the true class y; for `cost`, axis 0
over yhat and axis 1 over y. Each list comprehension over Y adds one trailing axis over the classes, masked by
membership, that its reducer (sum, mean, min, max, prod, genmean, len) folds away. Numbers are `Cells`: exact
rationals where rational, certified enclosures everywhere.

Anything this interpreter cannot carry out soundly (a comparison its enclosures cannot decide, a divisor
that may be 0, a construct it does not vectorise) raises `NotVectorised` with the reason; the caller then
uses the exact interpreter, which decides it or reports a located error. Nothing here guesses.

Owns: the vectorised walk. May import: `formula.cells`, `formula.parse`, `formula.values` (no sympy).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from verifier.formula.cells import UNDECIDED, Cells, CellsError, FALSE, TRUE, arb_map, compare, masked_sum, where
from verifier.formula.parse import Formula
from verifier.formula.values import UserFunction

MAX_CALL_DEPTH = 32
MAX_NODES = 200_000  # formula nodes walked per spec (each an array operation); a runaway formula stops here


class NotVectorised(Exception):
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


class VectorEvaluator:
    def __init__(self, classes: tuple[str, ...], params: dict[str, Cells | tuple[Cells, ...]],
                 functions: dict[str, UserFunction], determinate: Cells | None = None):
        self.K = len(classes)
        self._class_index = {name: i for i, name in enumerate(classes)}
        self.params = params
        self.functions = functions
        self.determinate = determinate
        self.members: np.ndarray | None = None  # (n, K) booleans: the sets along axis 0
        self.nodes = 0

    # -- grids ------------------------------------------------------------------------------------------------
    def determinate_grid(self, formula: Formula) -> Cells:
        """c_yhat(y) for all yhat (axis 0) and y (axis 1)."""
        K = self.K
        local = {"yhat": Cls(np.arange(K).reshape(K, 1)), "y": Cls(np.arange(K).reshape(1, K))}
        return self._number(formula, local, 2).broadcast((K, K))

    def determinate_cell(self, formula: Formula, yhat: int, y: int) -> Cells:
        """One entry of a cost matrix written as a formula."""
        local = {"yhat": Cls(np.array([[yhat]])), "y": Cls(np.array([[y]]))}
        return self._number(formula, local, 2).broadcast((1, 1))

    def set_grid(self, formula: Formula, members: np.ndarray, y: np.ndarray | None = None) -> Cells:
        """c_Y(y) for the sets of `members` (axis 0) and every class y (axis 1), or the classes `y` given."""
        self.members = members
        ys = np.arange(self.K) if y is None else y
        local = {"Y": SET_Y, "y": Cls(ys.reshape(1, -1))}
        try:
            return self._number(formula, local, 2).broadcast((len(members), len(ys)))
        finally:
            self.members = None

    def constant(self, formula: Formula) -> Cells:
        return self._number(formula, {}, 0)

    def _number(self, formula: Formula, local: dict, rank: int) -> Cells:
        try:
            value = self._eval(formula, formula.tree, local, rank, 0)
        except CellsError as exc:
            raise NotVectorised(str(exc)) from None
        except RecursionError:
            raise NotVectorised("the formula is nested too deeply") from None
        if not isinstance(value, Cells):
            raise NotVectorised("the formula does not give a number everywhere")
        if not (np.isfinite(value.lo).all() and np.isfinite(value.hi).all()):
            raise NotVectorised("some value has no finite enclosure")
        return value

    # -- the walk ---------------------------------------------------------------------------------------------
    def _eval(self, f: Formula, node: ast.AST, local: dict, rank: int, depth: int):
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise NotVectorised(f"the formulas need more than {MAX_NODES:,} array operations")
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            raise NotVectorised(f"{type(node).__name__} is not vectorised")
        return method(f, node, local, rank, depth)

    def _Expression(self, f, node, local, rank, depth):
        return self._eval(f, node.body, local, rank, depth)

    def _Constant(self, f, node, local, rank, depth):
        if isinstance(node.value, bool):
            return np.full((1,) * rank, node.value)
        if isinstance(node.value, str):
            if node.value not in self._class_index:
                raise NotVectorised(f"'{node.value}' is not a class")
            return Cls(np.full((1,) * rank, self._class_index[node.value]))
        return Cells.rational(f.number(node), (1,) * rank)

    def _Name(self, f, node, local, rank, depth):
        name = node.id
        if name in local:
            return local[name]
        if name == "K":
            return Cells.rational(self.K, (1,) * rank)
        if name in ("True", "False"):
            return np.full((1,) * rank, name == "True")
        value = self.params.get(name)
        if isinstance(value, Cells):
            return value.broadcast((1,) * rank) if value.shape == () else value
        raise NotVectorised(f"the name '{name}' is not vectorised here")

    def _Subscript(self, f, node, local, rank, depth):
        table = self.params.get(node.value.id)
        key = self._eval(f, node.slice, local, rank, depth)
        if not isinstance(table, tuple) or not isinstance(key, Cls):
            raise NotVectorised("only per-class parameters indexed by a class are vectorised")
        column = _stack(table)
        return column.take(key.index)

    def _List(self, f, node, local, rank, depth):
        values = [self._as_number(self._eval(f, e, _lift_all(local), rank + 1, depth)) for e in node.elts]
        if not values:
            raise NotVectorised("an empty list")
        shape = np.broadcast_shapes(*(v.shape for v in values))
        parts = [v.broadcast(shape[:-1] + (1,)) if v.shape[-1] == 1 else v.broadcast(shape) for v in values]
        cells = _concat(parts, axis=rank)
        return Lst(cells, np.ones(cells.shape, bool))

    def _ListComp(self, f, node, local, rank, depth):
        gen = node.generators[0]
        if len(node.generators) != 1 or not isinstance(gen.target, ast.Name) or \
                not (isinstance(gen.iter, ast.Name) and gen.iter.id == "Y") or self.members is None:
            raise NotVectorised("only comprehensions over Y are vectorised")
        if any(isinstance(v, Lst) for v in local.values()) or rank != 2:
            raise NotVectorised("nested comprehensions are not vectorised")
        K = self.K
        inner = _lift_all(local)
        inner[gen.target.id] = Cls(np.arange(K).reshape((1,) * rank + (K,)))
        mask = self.members.reshape((len(self.members),) + (1,) * (rank - 1) + (K,))
        for cond in gen.ifs:
            mask = mask & self._truth(f, cond, inner, rank + 1, depth)
        element = self._as_number(self._eval(f, node.elt, inner, rank + 1, depth))
        shape = np.broadcast_shapes(element.shape, mask.shape)
        return Lst(element, np.broadcast_to(mask, shape))  # values stay small until a reducer masks them

    _GeneratorExp = _ListComp

    def _UnaryOp(self, f, node, local, rank, depth):
        value = self._eval(f, node.operand, local, rank, depth)
        if isinstance(node.op, ast.Not):
            return ~self._as_truth(value)
        number = self._as_number(value)
        return -number if isinstance(node.op, ast.USub) else number

    def _BinOp(self, f, node, local, rank, depth):
        left = self._as_number(self._eval(f, node.left, local, rank, depth))
        right = self._as_number(self._eval(f, node.right, local, rank, depth))
        op = type(node.op)
        if op is ast.Add:
            return left + right
        if op is ast.Sub:
            return left - right
        if op is ast.Mult:
            return left * right
        if op is ast.Div:
            return left / right
        if op is ast.Pow:
            return _power(left, right)
        raise NotVectorised(f"operator {op.__name__}")

    def _BoolOp(self, f, node, local, rank, depth):
        values = [self._truth(f, v, local, rank, depth) for v in node.values]
        out = values[0]
        for v in values[1:]:
            out = (out & v) if isinstance(node.op, ast.And) else (out | v)
        return out

    def _IfExp(self, f, node, local, rank, depth):
        test = self._truth(f, node.test, local, rank, depth)
        if test.all():
            return self._eval(f, node.body, local, rank, depth)
        if not test.any():
            return self._eval(f, node.orelse, local, rank, depth)
        body = self._eval(f, node.body, local, rank, depth)
        orelse = self._eval(f, node.orelse, local, rank, depth)
        if isinstance(body, Cls) and isinstance(orelse, Cls):
            return Cls(np.where(test, body.index, orelse.index))
        if isinstance(body, np.ndarray) and isinstance(orelse, np.ndarray):
            return np.where(test, body, orelse)
        return where(test, self._as_number(body), self._as_number(orelse))

    def _Compare(self, f, node, local, rank, depth):
        left = self._eval(f, node.left, local, rank, depth)
        out = None
        for op, right_node in zip(node.ops, node.comparators):
            right = self._eval(f, right_node, local, rank, depth)
            part = self._compare_pair(op, left, right, rank)
            out = part if out is None else out & part
            left = right
        return out

    def _compare_pair(self, op, left, right, rank) -> np.ndarray:
        if isinstance(op, (ast.In, ast.NotIn)):
            if not isinstance(left, Cls) or right is not SET_Y or self.members is None:
                raise NotVectorised("'in' needs a class and Y")
            index = left.index
            n = len(self.members)
            rows = np.arange(n).reshape((n,) + (1,) * (index.ndim - 1))
            inside = self.members[rows, index]
            return inside if isinstance(op, ast.In) else ~inside
        if isinstance(left, Cls) and isinstance(right, Cls) and isinstance(op, (ast.Eq, ast.NotEq)):
            same = left.index == right.index
            return same if isinstance(op, ast.Eq) else ~same
        symbol = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
        if type(op) not in symbol:
            raise NotVectorised("comparison")
        truth = compare(self._as_number(left), symbol[type(op)], self._as_number(right))
        if (truth == UNDECIDED).any():
            raise NotVectorised("a comparison inside the formula is too close to call with enclosures")
        return truth == TRUE

    def _Call(self, f, node, local, rank, depth):
        name = node.func.id
        if name in self.functions:
            fn = self.functions[name]
            if depth >= MAX_CALL_DEPTH or len(node.args) != len(fn.params):
                raise NotVectorised(f"the call of {name}()")
            args = [self._eval(f, a, local, rank, depth) for a in node.args]
            return self._eval(fn.body, fn.body.tree, dict(zip(fn.params, args)), rank, depth + 1)
        args = [self._eval(f, a, local, rank, depth) for a in node.args]
        if name == "c":
            if self.determinate is None or len(args) != 2 or not all(isinstance(a, Cls) for a in args):
                raise NotVectorised("c(yh, y) here")
            return self.determinate.take(tuple(np.broadcast_arrays(args[0].index, args[1].index)))
        if name == "rank":
            if len(args) != 1 or not isinstance(args[0], Cls):
                raise NotVectorised("rank() here")
            return Cells.from_exact(args[0].index.astype(np.int64), 1)
        if name == "len":
            if args and args[0] is SET_Y and self.members is not None:
                n = len(self.members)
                return Cells.from_exact(self.members.sum(axis=1).reshape((n,) + (1,) * (rank - 1)), 1)
            if len(args) == 1 and isinstance(args[0], Lst):
                return Cells.from_exact(args[0].mask.sum(axis=-1), 1)
            raise NotVectorised("len() here")
        reducer = _REDUCERS.get(name)
        if reducer is not None:
            if len(args) == 1 and isinstance(args[0], Lst):
                return reducer(args[0])
            if name in ("min", "max", "sum") and len(args) >= 2:  # min(a, b): elementwise
                values = [self._as_number(a) for a in args]
                out = values[0]
                for v in values[1:]:
                    out = out.minimum(v) if name == "min" else out.maximum(v) if name == "max" else out + v
                return out
            raise NotVectorised(f"{name}() here")
        if name == "genmean":
            if len(args) != 2 or not isinstance(args[1], Lst):
                raise NotVectorised("genmean() here")
            return _genmean(_constant(self._as_number(args[0])), args[1])
        if len(args) != 1:
            raise NotVectorised(f"{name}() here")
        x = self._as_number(args[0])
        if name == "abs":
            return where(compare(x, ">=", Cells.rational(0)) == TRUE, x, -x) if _certain_sign(x) else _abs(x)
        if name == "sqrt":
            return x.power(Fraction(1, 2))
        if name == "log":
            return arb_map(lambda v: v.log() if v > 0 else None, x)
        if name == "exp":
            return arb_map(lambda v: v.exp() if abs(v) <= 10_000 else None, x)
        raise NotVectorised(f"the function {name}()")

    # -- coercions ----------------------------------------------------------------------------------------------
    def _truth(self, f, node, local, rank, depth) -> np.ndarray:
        return self._as_truth(self._eval(f, node, local, rank, depth))

    @staticmethod
    def _as_truth(value) -> np.ndarray:
        if isinstance(value, np.ndarray) and value.dtype == bool:
            return value
        raise NotVectorised("a condition was expected")

    @staticmethod
    def _as_number(value) -> Cells:
        if isinstance(value, Cells):
            return value
        raise NotVectorised("a number was expected")


def _lift_all(local: dict) -> dict:
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


def _stack(values: tuple[Cells, ...]) -> Cells:
    return _concat([v.broadcast(()).take(np.newaxis) for v in values], axis=0)


def _concat(parts: list[Cells], axis: int) -> Cells:
    lo = np.concatenate([p.lo for p in parts], axis=axis)
    hi = np.concatenate([p.hi for p in parts], axis=axis)
    exact = np.concatenate([p.exact for p in parts], axis=axis)
    if not exact.any():
        return Cells(lo, hi, None, 1, exact)
    den = 1
    for p in parts:
        den = np.lcm(den, p.den) if den < 2**62 and p.den < 2**62 else den * p.den
    den = int(den)
    nums = [np.where(p.exact, p.num, 0) if p.num is not None else np.zeros(p.shape, np.int64) for p in parts]
    nums = [n.astype(object) * (den // p.den) if den // p.den != 1 else n for n, p in zip(nums, parts)]
    num = np.concatenate([np.asarray(n, dtype=object) for n in nums], axis=axis)
    return Cells.from_exact(num, den, exact)


def _masked(lst: Lst, neutral: Fraction) -> Cells:
    return where(lst.mask, lst.cells, Cells.rational(neutral, (1,) * lst.cells.lo.ndim))


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


_REDUCERS = {
    "sum": _sum,
    "mean": _mean,
    "prod": lambda lst: _fold(lst, lambda a, b: a * b, Fraction(1)),
    "min": lambda lst: _extreme(lst, "min"),
    "max": lambda lst: _extreme(lst, "max"),
}


def _constant(value: Cells) -> Fraction:
    """One exact rational, the same in every cell (exponents must be such)."""
    if value.num is None or not value.exact.all():
        raise NotVectorised("an exponent that is not an exact rational constant")
    flat = np.asarray(value.num).reshape(-1)
    if flat.size and (flat != flat[0]).any():
        raise NotVectorised("an exponent that varies from cell to cell")
    return Fraction(int(flat[0]) if flat.size else 0, value.den)


def _power(base: Cells, exponent: Cells) -> Cells:
    e = _constant(exponent)
    if abs(e.numerator) > 1000 or e.denominator > 1000:
        raise NotVectorised("a large exponent")
    return base.power(e)


def _genmean(p: Fraction, lst: Lst) -> Cells:
    """Eq. 12-13 (p = 0: the geometric mean), as the exact interpreter defines it."""
    x = _masked(lst, Fraction(0))
    if (compare(x, "<", Cells.rational(0)) != FALSE).any():
        raise CellsError("genmean of a value that may be negative")
    if p == 1:
        return _mean(lst)
    count = _count(lst)
    if p == 0:
        zero = compare(x, "==", Cells.rational(0)) * lst.mask
        if (zero == UNDECIDED).any():
            raise CellsError("genmean of a value that may be 0")
        product = _fold(Lst(x, lst.mask), lambda a, b: a * b, Fraction(1))
        out = product
        for n in np.unique(count.num):
            out = where(count.num == n, product.power(Fraction(1, int(n))), out)
        return where((zero == TRUE).any(axis=-1), Cells.rational(0, count.shape), out)
    if p < 0 and ((compare(x, "==", Cells.rational(0)) != FALSE) & lst.mask).any():
        raise CellsError("genmean with a negative exponent of a value that may be 0")
    # x^p on the values as they are (often the K x K determinate costs), before masking broadcasts them
    powered = lst.cells.power(p) if p > 0 else where(lst.mask, x, Cells.rational(1, (1,) * x.lo.ndim)).power(p)
    return (_sum(Lst(powered, lst.mask)) / count).power(1 / p)


def _certain_sign(x: Cells) -> bool:
    return bool(((x.lo >= 0) | (x.hi <= 0)).all())


def _abs(x: Cells) -> Cells:
    lo = np.where(x.lo >= 0, x.lo, np.where(x.hi <= 0, -x.hi, 0.0))
    hi = np.maximum(np.abs(x.lo), np.abs(x.hi))
    out = Cells.enclosure(lo, hi)
    if x.num is not None and x.exact.any():
        num = np.where(x.exact, np.abs(x.num) if x.num.dtype != object else np.vectorize(abs, otypes=[object])(x.num), 0)
        return Cells(out.lo, out.hi, num, x.den, x.exact)
    return out


