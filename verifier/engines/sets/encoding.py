"""A set-cost formula over a symbolic set: Y as K booleans b_0..b_{K-1}, |Y| as one real n, c_Y(y) as a z3 term.

The formula's tree is walked with the true class y fixed (one term per class). A sub-formula that does not read
the set is a number, evaluated exactly by the ordinary interpreter (`formula.evaluate`), so every constant of
the encoding is the one the builder computes; what reads the set is translated:

    y in Y                                 b_y
    len(Y)                                 n  (each question fixes it: n = k with Σ b = k)
    [f(v) for v in Y if cond]              the items (b_i ∧ cond(i), f(i)) for every class i
    len of such a list                     Σ If(guard, 1, 0)
    sum / mean of [... for v in Y]         Σ If(b_i, f(i), 0), and that divided by n
    min / max of [... for v in Y]          an If-chain over the members
    a if cond else b, and/or/not, + - * /  If, And/Or/Not, the same arithmetic (exact rationals)
    abs(x), min(a, b), helper functions    If; If; the helper's body, inlined

What the encoding cannot express is refused with the reason (`NotEncodable`): sqrt, log, exp, prod and genmean
of a set-dependent value, a division by a set-dependent quantity other than n (or by an n-term that is 0 at
some size), a sum, mean, min or max of a list some set could leave empty (a filter other than one that drops a
single class, such as yh != y), a mean of a filtered list, a non-integer power, irrational constants. Nothing
here decides a property; `engines.sets.boolean` asks the questions.

Owns: `SetCostEncoding` (lists and their aggregates: `sets.lists`). May import: `engines.sets.lists`, `formula`,
`scheme`, `errors`, z3.
"""

from __future__ import annotations

import ast

import z3

from verifier.engines.sets.lists import NotEncodable, SymList, aggregate, as_list, length
from verifier.errors import SpecError
from verifier.formula.evaluate import Evaluator
from verifier.formula.parse import Formula
from verifier.formula.values import ClassRef, Vocabulary
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import Scheme

MAX_POWER = 8  # x ** k for a set-dependent x is k - 1 products; beyond this the encoding refuses
_ORDER = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
          ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b}


class _SetY:
    """The symbolic set Y itself."""


Y_SET = _SetY()


class SetCostEncoding:
    """c_Y(y) for every class y as a z3 term over the booleans `b` and the size `n` (fixed per question)."""

    def __init__(self, scheme: Scheme):
        spec = scheme.spec
        if spec.set_cost is None:
            raise NotEncodable("there is no 'set_cost' formula to encode")
        self.K, self.formula = scheme.K, spec.set_cost
        self.ctx = z3.Context()
        self.b = [z3.Bool(f"b{i}", self.ctx) for i in range(self.K)]
        self.n = z3.Real("n", self.ctx)
        self.zero, self.one = z3.RealVal(0, self.ctx), z3.RealVal(1, self.ctx)
        vocab = Vocabulary(scheme.classes, scheme.parameters, spec.functions)
        if scheme.given is not None:
            vocab.determinate = lambda h, y: scheme.given[(h, y)]
        self.functions = spec.functions
        self.evaluator = Evaluator(vocab)
        self.size_divisors: list = []  # divisors that depend on n only: each must be non-zero at every size
        self._costs: dict[int, z3.ArithRef] = {}
        self._symbolic_memo: dict = {}

    def cost(self, y: int) -> z3.ArithRef:
        """c_Y(y) as a z3 term over the booleans b and the size n, made once per class."""
        if y not in self._costs:
            value = self._enc(self.formula, self.formula.tree, {"Y": Y_SET, "y": ClassRef(y)}, 0)
            self._costs[y] = self.real(value, "the set cost")
        return self._costs[y]

    def encode_all(self) -> list[z3.ArithRef]:
        """Every class's term, and the check that no divisor in n vanishes at a size 2..K."""
        terms = [self.cost(y) for y in range(self.K)]
        for divisor in {d.get_id(): d for d in self.size_divisors}.values():
            for k in range(2, self.K + 1):
                value = z3.simplify(z3.substitute(divisor, (self.n, z3.RealVal(k, self.ctx))))
                if z3.is_rational_value(value) and value.as_fraction() == 0:
                    raise NotEncodable(f"the set cost divides by {divisor}, which is 0 for sets of {k} classes")
        return terms

    # -- values -----------------------------------------------------------------------------------------------
    def real(self, value, what: str) -> z3.ArithRef:
        """A value as a z3 real: exact rationals only; NotEncodable (naming `what`) for an irrational number or a
        non-number."""
        if isinstance(value, z3.ArithRef):
            return value
        if isinstance(value, sp.Expr) and not isinstance(value, bool) and value.is_Rational:
            return z3.RealVal(f"{value.p}/{value.q}", self.ctx)
        if isinstance(value, sp.Expr) and value.is_number:
            raise NotEncodable(f"{what} involves the irrational number {value}; the encoding is exact over "
                               "rationals only")
        raise NotEncodable(f"{what} is not a number here")

    def boolean(self, value, what: str) -> z3.BoolRef:
        """A value as a z3 condition; NotEncodable (naming `what`) for anything else."""
        if isinstance(value, z3.BoolRef):
            return value
        if isinstance(value, bool) or value in (sp.true, sp.false):
            return z3.BoolVal(bool(value), self.ctx)
        raise NotEncodable(f"{what} is not a condition here")

    def _is_symbolic(self, value) -> bool:
        return value is Y_SET or isinstance(value, (z3.ExprRef, SymList))

    def _reads_set(self, node: ast.AST, local: dict) -> bool:
        names = frozenset(k for k, v in local.items() if self._is_symbolic(v))
        key = (id(node), names)
        if key not in self._symbolic_memo:
            self._symbolic_memo[key] = any(isinstance(sub, ast.Name) and sub.id in names for sub in ast.walk(node))
        return self._symbolic_memo[key]

    # -- the walk ---------------------------------------------------------------------------------------------
    def _enc(self, f: Formula, node: ast.AST, local: dict, depth: int):
        if not self._reads_set(node, local):
            return self._exact(f, node, local)
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            raise NotEncodable(f"'{ast.unparse(node)}' reads the set in a way the encoding does not cover")
        return method(f, node, local, depth)

    def _exact(self, f: Formula, node: ast.AST, local: dict):
        """A sub-formula that does not read the set: the ordinary interpreter's exact value."""
        concrete = {k: v for k, v in local.items() if not self._is_symbolic(v)}
        try:
            return self.evaluator._guarded(Formula(f.source, node, f.file, f.key, f.mark, f.origin), concrete)
        except SpecError as exc:
            raise NotEncodable(f"'{ast.unparse(node)}' cannot be evaluated for every class ({exc.message})") \
                from None

    def _Name(self, f, node, local, depth):
        return local[node.id]

    def _ListComp(self, f, node, local, depth):
        gen = node.generators[0]
        if local.get(getattr(gen.iter, "id", None)) is not Y_SET or not isinstance(gen.target, ast.Name):
            raise NotEncodable(f"'{ast.unparse(node)}' is a comprehension over something other than Y")
        items, symbolic_filter, dropped = [], False, 0
        for i in range(self.K):
            inner = {**local, gen.target.id: ClassRef(i)}
            guards, keep = [self.b[i]], True
            for cond in gen.ifs:
                value = self._enc(f, cond, inner, depth)
                if isinstance(value, z3.BoolRef):
                    guards.append(value)
                    symbolic_filter = True
                elif not _truth(value, "a comprehension's filter"):
                    keep, dropped = False, dropped + 1
                    break
            if keep:
                items.append((z3.And(*guards) if len(guards) > 1 else guards[0], self._enc(f, node.elt, inner, depth)))
        whole = not symbolic_filter and not dropped
        count = self.n if whole else z3.Sum([z3.If(g, self.one, self.zero) for g, _ in items] or [self.zero])
        # a filter that drops one class only (yh != y) leaves a member of every set of two or more
        return SymList(items, count, not symbolic_filter and dropped <= 1)

    _GeneratorExp = _ListComp

    def _List(self, f, node, local, depth):
        values = [self._enc(f, elt, local, depth) for elt in node.elts]
        return SymList([(True, v) for v in values], len(values), bool(values))

    def _Call(self, f, node, local, depth):
        name = node.func.id
        args = [self._enc(f, arg, local, depth) for arg in node.args]
        if name in self.functions:
            fn = self.functions[name]
            if len(args) != len(fn.params) or depth >= 32:
                raise NotEncodable(f"{name}() cannot be inlined here")
            return self._enc(fn.body, fn.body.tree, dict(zip(fn.params, args)), depth + 1)
        if name == "len" and len(args) == 1:
            return self.n if args[0] is Y_SET else length(args[0], self)
        if name in ("sum", "mean", "min", "max"):
            return aggregate(name, as_list(args), self)
        if name == "abs" and len(args) == 1:
            x = self.real(args[0], "abs()'s argument")
            return z3.If(x >= 0, x, -x)
        raise NotEncodable(f"{name}() of a value that depends on the set is beyond the encoding (linear and "
                           "piecewise-linear arithmetic over rationals: sums, means, min, max, counts, conditions)")

    def _BinOp(self, f, node, local, depth):
        left = self.real(self._enc(f, node.left, local, depth), f"'{ast.unparse(node.left)}'")
        right_value = self._enc(f, node.right, local, depth)
        op = type(node.op)
        if op is ast.Pow:
            if not (isinstance(right_value, sp.Expr) and right_value.is_Integer and 0 <= right_value <= MAX_POWER):
                raise NotEncodable(f"'{ast.unparse(node)}': a power of a set-dependent value needs an integer "
                                   f"exponent 0..{MAX_POWER}")
            out = self.one
            for _ in range(int(right_value)):
                out = out * left
            return out
        right = self.real(right_value, f"'{ast.unparse(node.right)}'")
        if op is ast.Add:
            return left + right
        if op is ast.Sub:
            return left - right
        if op is ast.Mult:
            return left * right
        if op is ast.Div:
            if z3.is_rational_value(right):
                if right.as_fraction() == 0:
                    raise NotEncodable(f"'{ast.unparse(node)}' divides by 0")
                return left / right
            if any(not z3.eq(x, self.n) for x in _constants(right)):
                raise NotEncodable(f"'{ast.unparse(node)}' divides by a quantity that depends on the members of the "
                                   "set (only divisions by numbers and by expressions in len(Y) are linear)")
            self.size_divisors.append(right)
            return left / right
        raise NotEncodable(f"the operator in '{ast.unparse(node)}' is beyond the encoding")

    def _UnaryOp(self, f, node, local, depth):
        value = self._enc(f, node.operand, local, depth)
        if isinstance(node.op, ast.Not):
            return z3.Not(self.boolean(value, f"'{ast.unparse(node.operand)}'"))
        x = self.real(value, f"'{ast.unparse(node.operand)}'")
        return -x if isinstance(node.op, ast.USub) else x

    def _BoolOp(self, f, node, local, depth):
        want_all = isinstance(node.op, ast.And)
        parts = []
        for operand in node.values:
            value = self._enc(f, operand, local, depth)
            if isinstance(value, z3.BoolRef):
                parts.append(value)
            elif _truth(value, f"'{ast.unparse(operand)}'") is not want_all:
                return not want_all
        if not parts:
            return want_all
        return z3.And(*parts) if want_all else z3.Or(*parts)

    def _IfExp(self, f, node, local, depth):
        test = self._enc(f, node.test, local, depth)
        if not isinstance(test, z3.BoolRef):
            return self._enc(f, node.body if _truth(test, f"'{ast.unparse(node.test)}'") else node.orelse, local,
                             depth)
        body, orelse = self._enc(f, node.body, local, depth), self._enc(f, node.orelse, local, depth)
        if isinstance(body, z3.BoolRef) or isinstance(orelse, z3.BoolRef) or isinstance(body, bool):
            return z3.If(test, self.boolean(body, "a branch"), self.boolean(orelse, "a branch"))
        return z3.If(test, self.real(body, f"'{ast.unparse(node.body)}'"),
                     self.real(orelse, f"'{ast.unparse(node.orelse)}'"))

    def _Compare(self, f, node, local, depth):
        left = self._enc(f, node.left, local, depth)
        parts = []
        for op, right_node in zip(node.ops, node.comparators):
            right = self._enc(f, right_node, local, depth)
            if isinstance(op, (ast.In, ast.NotIn)):
                if not isinstance(left, ClassRef) or right is not Y_SET:
                    raise NotEncodable(f"'{ast.unparse(node)}': 'in' needs a class on the left and Y on the right")
                part = self.b[left.index] if isinstance(op, ast.In) else z3.Not(self.b[left.index])
            elif isinstance(left, ClassRef) or isinstance(right, ClassRef) or type(op) not in _ORDER:
                raise NotEncodable(f"'{ast.unparse(node)}' compares classes with a set-dependent value")
            else:
                part = _ORDER[type(op)](self.real(left, "a compared value"), self.real(right, "a compared value"))
            parts.append(part)
            left = right
        return z3.And(*parts) if len(parts) > 1 else parts[0]


def _truth(value, what: str) -> bool:
    if isinstance(value, bool):
        return value
    if value is sp.true or value is sp.false:
        return bool(value)
    raise NotEncodable(f"{what} is not a condition here")


def _constants(term: z3.ExprRef) -> list[z3.ExprRef]:
    """The uninterpreted constants (b_i, n) a term reads."""
    seen, out, stack = set(), [], [term]
    while stack:
        t = stack.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            out.append(t)
        stack.extend(t.children())
    return out
