"""Interpret whitelisted formula trees over exact values (our own tree walk; Python never evaluates them).

Values: sympy numbers (exact), bools, `ClassRef` (a class), frozensets of class indices (the set Y) and
tuples (lists). Comparisons between numbers go through `certified.compare`, so a condition such as
`x <= 0.5` is decided exactly even for irrational x.
"""

from __future__ import annotations

import ast

from verifier.errors import did_you_mean, few_of, listed
from verifier.formula import certified
from verifier.formula.arith import BuiltinError, guarded, sized
from verifier.formula.builtins import BUILTINS
from verifier.formula.parse import Formula
from verifier.formula.values import ClassRef, UserFunction, Vocabulary, check_real, kind
from verifier.lazy_sympy import sympy as sp

MAX_CALL_DEPTH = 32
MAX_STEPS = 6_000_000  # formula nodes evaluated per spec (about 15 s); a 12-class p-discounted spec needs 1.1 million


class Evaluator:
    """The exact interpreter of the formula language: evaluates a formula's tree to exact sympy values, within a step
    budget shared by the whole spec."""

    def __init__(self, vocabulary: Vocabulary, max_steps: int | None = None):
        self.vocab = vocabulary
        self._class_index = {name: i for i, name in enumerate(vocabulary.classes)}
        self.steps, self.max_steps = 0, max_steps or MAX_STEPS  # total work for the whole spec, not per formula
        # a user function is pure: with numbers only (no symbolic parameter anywhere, so no side condition),
        # a call repeated with the same arguments is answered once (h(x) * h(x) nested twenty times is 20
        # calls, not a million)
        self._calls: dict | None = None if any(_symbolic(v) for v in vocabulary.params.values()) else {}

    def number(self, formula: Formula, local: dict[str, object]) -> sp.Expr:
        """Evaluate a formula that must produce one finite real number."""
        value = self._guarded(formula, local)
        if isinstance(value, bool) or not isinstance(value, sp.Expr):
            raise formula.error(f"the formula gives {kind(value)}, not a number", expected="a number")
        return check_real(formula, formula.tree, value)

    def truth(self, formula: Formula, local: dict[str, object]) -> bool | sp.Basic:
        """Evaluate a formula that must produce a condition: a bool, or a sympy condition where it depends on
        parameters."""
        value = self._guarded(formula, local)
        if not isinstance(value, (bool, sp.logic.boolalg.Boolean)) or isinstance(value, sp.Expr):
            raise formula.error(f"the formula gives {kind(value)}, not a condition", expected="a condition")
        return value

    def _guarded(self, formula: Formula, local: dict[str, object]):
        try:
            return self._eval(formula, formula.tree, local, 0)
        except RecursionError:
            raise formula.error("the formula is nested too deeply to evaluate",
                                expected="fewer nested calls or parentheses") from None

    # -- the tree walk -------------------------------------------------------------------------------------
    def _eval(self, f: Formula, node: ast.AST, local: dict, depth: int):
        self.steps += 1
        if self.steps > self.max_steps:
            raise f.error(f"evaluating the spec's formulas took more than {self.max_steps:,} steps", node,
                          expected="formulas whose work does not explode (for example, no function that calls "
                                   "another function twice at every level)")
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:  # unreachable after the whitelist; kept so a gap can never execute anything
            raise f.error(f"{type(node).__name__} is not supported", node)
        return method(f, node, local, depth)

    def _Constant(self, f, node, local, depth):
        if isinstance(node.value, bool):
            return node.value
        if isinstance(node.value, str):
            if node.value not in self._class_index:
                raise f.error(f"'{node.value}' is not a class", node,
                              expected=f"one of {few_of(self.vocab.classes, node.value)}")
            return ClassRef(self._class_index[node.value])
        return sp.Rational(f.number(node))

    def _Name(self, f, node, local, depth):
        name = node.id
        if name in local:
            return local[name]
        if name == "K":
            return sp.Integer(len(self.vocab.classes))
        if name in self.vocab.params:
            value = self.vocab.params[name]
            if isinstance(value, tuple):
                raise f.error(f"'{name}' is a per-class parameter", node, expected=f"{name}[y] or {name}['class']")
            return value
        if name in ("True", "False"):
            return name == "True"
        context = sorted(set(local) | {"K"} | set(self.vocab.params))
        raise f.error(f"unknown name '{name}'" + did_you_mean(name, context), node,
                      expected=f"one of {listed(context)} or a function call")

    def _Subscript(self, f, node, local, depth):
        name = node.value.id
        table = self.vocab.params.get(name)
        if not isinstance(table, tuple):
            raise f.error(f"'{name}' cannot be indexed (only per-class parameters can)", node)
        key = self._eval(f, node.slice, local, depth)
        if not isinstance(key, ClassRef):
            raise f.error(f"'{name}[...]' needs a class, got {kind(key)}", node, expected="a class such as y or 'a'")
        return table[key.index]

    def _List(self, f, node, local, depth):
        return tuple(self._eval(f, elt, local, depth) for elt in node.elts)

    def _ListComp(self, f, node, local, depth):
        gen = node.generators[0]
        domain = local.get("Y")
        if not isinstance(domain, frozenset):
            raise f.error("'Y' is not available in this formula", gen.iter)
        out = []
        for index in sorted(domain):
            inner = {**local, gen.target.id: ClassRef(index)}
            keep = [self._condition(f, cond, inner, depth) for cond in gen.ifs]
            if any(k is not True and k is not False for k in keep):
                raise f.error("a comprehension filter may not depend on parameters", gen.ifs[0])
            if all(keep):
                out.append(self._eval(f, node.elt, inner, depth))
        return tuple(out)

    _GeneratorExp = _ListComp

    def _UnaryOp(self, f, node, local, depth):
        chain = []  # "- - - x" iteratively, for the same reason as in _BinOp
        while isinstance(node, ast.UnaryOp):
            chain.append(node.op)
            node = node.operand
        value = self._eval(f, node, local, depth)
        for op in reversed(chain):
            if isinstance(op, ast.Not):
                value = self._as_bool(f, node, value)
                value = (not value) if isinstance(value, bool) else sp.Not(value)
            else:
                number = self._as_number(f, node, value)
                value = -number if isinstance(op, ast.USub) else number
        return value

    def _BinOp(self, f, node, local, depth):
        # Walk the left spine iteratively: "1 + 1 + ... + 1" is a chain, not deep nesting.
        spine = []
        while isinstance(node, ast.BinOp):
            spine.append(node)
            node = node.left
        value = self._as_number(f, node, self._eval(f, node, local, depth))
        for op_node in reversed(spine):
            right = self._as_number(f, op_node.right, self._eval(f, op_node.right, local, depth))
            try:
                value = sized(BUILTINS["__" + type(op_node.op).__name__.lower()](value, right))
            except BuiltinError as exc:
                raise f.error(str(exc), op_node, expected=exc.expected) from None
        return value

    def _BoolOp(self, f, node, local, depth):
        want_all = isinstance(node.op, ast.And)
        symbolic = []
        for operand in node.values:
            # an operand is only evaluated where the earlier ones did not decide (short-circuit), so its side
            # conditions only apply there
            reached = sp.And(*symbolic) if want_all else sp.Not(sp.Or(*symbolic))
            with guarded(reached if symbolic else sp.true):
                value = self._condition(f, operand, local, depth)
            if value is (not want_all):
                return not want_all
            if value is not want_all:
                symbolic.append(value)
        if not symbolic:
            return want_all
        return sp.And(*symbolic) if want_all else sp.Or(*symbolic)

    def _IfExp(self, f, node, local, depth):
        test = self._condition(f, node.test, local, depth)
        if test is True or test is False:
            return self._eval(f, node.body if test else node.orelse, local, depth)
        # a condition on parameters: both branches must be numbers, joined piecewise; each branch's side
        # conditions (a divisor != 0, ...) only apply where that branch is taken
        with guarded(test):
            body = self._as_number(f, node.body, self._eval(f, node.body, local, depth))
        with guarded(sp.Not(test)):
            orelse = self._as_number(f, node.orelse, self._eval(f, node.orelse, local, depth))
        return sp.Piecewise((body, test), (orelse, True))

    def _Compare(self, f, node, local, depth):
        left = self._eval(f, node.left, local, depth)
        parts = []
        for op, right_node in zip(node.ops, node.comparators):
            right = self._eval(f, right_node, local, depth)
            part = self._compare_pair(f, node, op, left, right)
            if part is False:
                return False
            if part is not True:
                parts.append(part)
            left = right
        return sp.And(*parts) if parts else True

    def _compare_pair(self, f, node, op, left, right) -> bool | sp.Basic:
        if isinstance(op, (ast.In, ast.NotIn)):
            if not isinstance(left, ClassRef) or not isinstance(right, frozenset):
                raise f.error("'in' needs a class on the left and the set Y on the right", node)
            return (left.index in right) == isinstance(op, ast.In)
        if isinstance(left, ClassRef) or isinstance(right, ClassRef):
            if not (isinstance(left, ClassRef) and isinstance(right, ClassRef)):
                raise f.error(f"cannot compare {kind(left)} with {kind(right)}", node)
            if not isinstance(op, (ast.Eq, ast.NotEq)):
                raise f.error("classes can only be compared with == and != (use rank(x) for order)", node)
            return (left == right) == isinstance(op, ast.Eq)
        a, b = self._as_number(f, node, left), self._as_number(f, node, right)
        if a.free_symbols or b.free_symbols:  # a condition on parameters: kept as a relation
            return getattr(sp, _RELATION[type(op)])(a, b)
        s = certified.compare(a, b)
        if s.value is None:
            raise f.error(f"cannot decide the comparison exactly: {s.reason}", node)
        return {ast.Eq: s.value == 0, ast.NotEq: s.value != 0, ast.Lt: s.value < 0, ast.LtE: s.value <= 0,
                ast.Gt: s.value > 0, ast.GtE: s.value >= 0}[type(op)]

    def _Call(self, f, node, local, depth):
        name = node.func.id
        if name not in self.vocab.functions and name not in ("c", "rank") and \
                (name not in BUILTINS or name.startswith("__")):  # the name first: foo('zz') is about foo
            known = sorted([n for n in BUILTINS if not n.startswith("__")] + ["c", "rank"] + list(self.vocab.functions))
            raise f.error(f"unknown function '{name}'" + did_you_mean(name, known), node.func,
                          expected=f"one of {listed(known)}")
        args = [self._eval(f, arg, local, depth) for arg in node.args]
        if name in self.vocab.functions:
            return self._call_user(f, node, self.vocab.functions[name], args, depth)
        if name == "c":
            return self._determinate(f, node, args)
        if name == "rank":
            if len(args) != 1 or not isinstance(args[0], ClassRef):
                raise f.error("rank(x) takes one class", node, expected="rank(y) or rank(yhat)")
            return sp.Integer(args[0].index)
        builtin = BUILTINS[name]
        try:
            return sized(builtin(*args))
        except BuiltinError as exc:
            raise f.error(f"{name}(): {exc}", node, expected=exc.expected) from None

    def _call_user(self, f, node, fn: UserFunction, args, depth):
        if len(args) != len(fn.params):
            raise f.error(f"{fn.name}() takes {len(fn.params)} argument(s), got {len(args)}", node)
        if depth >= MAX_CALL_DEPTH:
            raise f.error(f"function calls nested deeper than {MAX_CALL_DEPTH} (recursion?)", node)
        key = (fn.name, tuple(args)) if self._calls is not None and not any(map(_symbolic, args)) else None
        if key is not None and key in self._calls:
            return self._calls[key]
        value = self._eval(fn.body, fn.body.tree, dict(zip(fn.params, args)), depth + 1)
        if key is not None and not _symbolic(value):
            if len(self._calls) >= MAX_REMEMBERED_CALLS:
                self._calls.clear()
            self._calls[key] = value
        return value

    def _determinate(self, f, node, args):
        if self.vocab.determinate is None:
            raise f.error("c(yh, y) needs determinate costs ('cost' or 'cost_matrix')", node)
        if len(args) != 2 or not all(isinstance(a, ClassRef) for a in args):
            raise f.error("c(yh, y) takes two classes", node, expected="c(yh, y)")
        return self.vocab.determinate(args[0].index, args[1].index)

    # -- coercions ------------------------------------------------------------------------------------------
    def _condition(self, f, node, local, depth) -> bool:
        return self._as_bool(f, node, self._eval(f, node, local, depth))

    def _as_bool(self, f, node, value) -> bool | sp.Basic:
        if isinstance(value, bool):
            return value
        if value is sp.true or value is sp.false:
            return bool(value)
        if isinstance(value, sp.logic.boolalg.Boolean) and not isinstance(value, sp.Expr):
            return value  # a condition on parameters
        raise f.error(f"expected a condition, got {kind(value)}", node, expected="a comparison or 'y in Y'")

    def _as_number(self, f, node, value) -> sp.Expr:
        if isinstance(value, sp.Expr):
            return value
        raise f.error(f"expected a number, got {kind(value)}", node, expected="a number")


MAX_REMEMBERED_CALLS = 100_000


def _symbolic(value) -> bool:
    """A value that depends on parameters (a number, condition or list of them), or one we cannot vouch for."""
    if isinstance(value, tuple):
        return any(map(_symbolic, value))
    if isinstance(value, (bool, ClassRef, frozenset)):
        return False
    return not isinstance(value, sp.Basic) or bool(value.free_symbols)


_RELATION = {ast.Eq: "Eq", ast.NotEq: "Ne", ast.Lt: "Lt", ast.LtE: "Le", ast.Gt: "Gt", ast.GtE: "Ge"}  # sympy's
