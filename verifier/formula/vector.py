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
from fractions import Fraction

import numpy as np

from verifier.formula.cells import TRUE, UNDECIDED, Cells, CellsError, arb_map, compare, where
from verifier.formula.parse import Formula
from verifier.formula.values import UserFunction
from verifier.formula.vector_lists import (
    REDUCERS,
    SET_Y,
    Cls,
    Lst,
    NotVectorised,
    absolute,
    certain_sign,
    concat,
    constant_exponent,
    genmean,
    lift_all,
    power,
    stack,
)

MAX_CALL_DEPTH = 32
MAX_NODES = 200_000  # formula nodes walked per spec (each an array operation); a runaway formula stops here


class VectorEvaluator:
    """The vectorised interpreter of the formula language: evaluates a formula on whole grids of classes and sets at
    once as `Cells`, or raises NotVectorised for the exact interpreter to take over."""

    def __init__(self, classes: tuple[str, ...], params: dict[str, Cells | tuple[Cells, ...]],
                 functions: dict[str, UserFunction], determinate: Cells | None = None):
        self.K = len(classes)
        self._class_index = {name: i for i, name in enumerate(classes)}
        self.params = params
        self.functions = functions
        self.determinate = determinate
        self.members: np.ndarray | None = None  # (n, K) booleans: the sets along axis 0
        self.nodes = 0
        self._calls: dict = {}  # within one formula: a user function called again on the same arrays

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
        """Evaluate a formula that reads no class and no set: one value."""
        return self._number(formula, {}, 0)

    def _number(self, formula: Formula, local: dict, rank: int) -> Cells:
        self._calls = {}
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
        column = stack(table)
        return column.take(key.index)

    def _List(self, f, node, local, rank, depth):
        values = [self._as_number(self._eval(f, e, lift_all(local), rank + 1, depth)) for e in node.elts]
        if not values:
            raise NotVectorised("an empty list")
        shape = np.broadcast_shapes(*(v.shape for v in values))
        parts = [v.broadcast(shape[:-1] + (1,)) if v.shape[-1] == 1 else v.broadcast(shape) for v in values]
        cells = concat(parts, axis=rank)
        return Lst(cells, np.ones(cells.shape, bool))

    def _ListComp(self, f, node, local, rank, depth):
        gen = node.generators[0]
        if len(node.generators) != 1 or not isinstance(gen.target, ast.Name) or local.get("Y") is not SET_Y or \
                not (isinstance(gen.iter, ast.Name) and gen.iter.id == "Y") or self.members is None:
            raise NotVectorised("only comprehensions over Y are vectorised")
        if any(isinstance(v, Lst) for v in local.values()) or rank != 2:
            raise NotVectorised("nested comprehensions are not vectorised")
        K = self.K
        inner = lift_all(local)
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
            return power(left, right)
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
            key = (name, rank, *map(id, args))  # the same array objects (kept alive by the entry): a pure call
            if key not in self._calls:
                self._calls[key] = (args, self._eval(fn.body, fn.body.tree, dict(zip(fn.params, args)), rank,
                                                     depth + 1))
            return self._calls[key][1]
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
        reducer = REDUCERS.get(name)
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
            return genmean(constant_exponent(self._as_number(args[0])), args[1])
        if len(args) != 1:
            raise NotVectorised(f"{name}() here")
        x = self._as_number(args[0])
        if name == "abs":
            return where(compare(x, ">=", Cells.rational(0)) == TRUE, x, -x) if certain_sign(x) else absolute(x)
        if name == "sqrt":
            return x.power(Fraction(1, 2))
        if name == "log":
            return arb_map(lambda v, _: v.log() if v > 0 else None, x)
        if name == "exp":
            return arb_map(lambda v, _: v.exp() if abs(v) <= 10_000 else None, x)
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
