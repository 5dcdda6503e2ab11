"""A class-blind formula evaluated at a set *size*, for every class count at once.

For a scheme that treats every class alike (`formula.equivariance`), the cost of a set depends only on its
size n and on which of the classes the formula names lie in it. Classes are tokens here: the truth and at most
one other named class ("first", "second"), and G, any other member of Y. A comprehension over Y yields each
named member once and G with multiplicity n minus the named members; lists are bags of (value, multiplicity)
and every reducer is order-blind (sum, prod, mean, min, max, genmean, len), so the bag determines the result.
Like the interpreter, sum, prod, mean, min and max also take numbers as arguments (`max(0.2 * len(Y), 0.5)`):
a bag of multiplicity 1 each. min and max are chosen by certified comparison; where a value depends on the
size (the tail) they stay sympy Min/Max, which the z3 translation turns into If-terms, exactly.
n is an integer (drop what has multiplicity 0) or `TAIL + m` with m a nonnegative integer symbol, meaning
every size from TAIL on (every multiplicity is then at least 1). Anything this cannot follow (per-class
parameters, K, nested comprehensions over Y, a condition that depends on the size) raises NotBySize.

Owns: `SizeEvaluator`, `NotBySize`, `Token`. May import: `formula` (parse, values, certified, genmean).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from verifier.errors import DoesNotApply
from verifier.formula import certified
from verifier.formula.arith import pick
from verifier.formula.values import UserFunction
from verifier.lazy_sympy import sympy as sp

M = sp.Symbol("m", integer=True, nonnegative=True)  # n = TAIL + m: every size from TAIL on


class NotBySize(DoesNotApply):
    """The formula uses something the size-wise evaluation cannot follow; the message says what."""


@dataclass(frozen=True)
class Token:
    """A class as the size-wise evaluation sees it: a class the formula names ("first", "second") or G, any other member
    of Y."""

    name: str  # "first", "second" (named classes) or "G" (any other member of Y)


G = Token("G")


@dataclass(frozen=True)
class SizedSet:
    """A set Y known only by the named tokens inside it and its size n (an int, or TAIL + m: every size from TAIL
    on)."""

    named: frozenset  # the named tokens inside Y
    n: object  # int or TAIL + m


class SizeEvaluator:
    """Evaluates a class-blind scheme's determinate and set-cost formulas by set size, for every class count at once;
    `sides` collects the divisors that must be nonzero."""

    def __init__(self, cost, set_cost, params: dict, functions: dict[str, UserFunction]):
        self.cost, self.set_cost, self.functions = cost, set_cost, functions
        self.params = params  # name -> number or scalar symbol (per-class parameters are refused)
        self.sides: list[sp.Expr] = []  # divisors met with a symbolic size: each must be nonzero

    # -- the public questions ------------------------------------------------------------------------------
    def det(self, h: Token, y: Token) -> sp.Expr:
        """The determinate cost c_h(y) of predicting class h when the truth is y."""
        return self._number(self.cost, {"yhat": h, "y": y})

    def row(self, named: frozenset, n, y: Token) -> sp.Expr:
        """The set cost c_Y(y) of the set Y holding the tokens `named` and n members in all, when the truth is y."""
        return self._number(self.set_cost, {"Y": SizedSet(frozenset(named), _size(n)), "y": y})

    def singleton(self, h: Token, y: Token) -> sp.Expr:
        """The singleton row c_{h}(y) the properties use (the set-cost formula may modify the costs): the
        diagonal or the off-diagonal entry, the same for every class by symmetry."""
        first, second = Token("first"), Token("second")
        return self.row(frozenset({first}), 1, first if h == y else second)

    def members(self, named: frozenset, n) -> list[tuple[Token, object]]:
        """Y as (token, multiplicity): the named members once, G for the rest (dropped when none)."""
        rest = _size(n) - len(named)
        out = [(t, sp.Integer(1)) for t in sorted(named, key=lambda t: t.name)]
        return out + ([(G, rest)] if rest != 0 else [])

    # -- the walk ---------------------------------------------------------------------------------------------
    def _number(self, formula, local) -> sp.Expr:
        value = self._in(formula, local, False)
        if not isinstance(value, sp.Expr):
            raise NotBySize(f"{formula.key} gives something other than a number")
        return value

    def _in(self, formula, local, inside):
        """Evaluate a formula (or a function body), number literals read from its own source text."""
        outer, self._formula = getattr(self, "_formula", None), formula
        try:
            return self._eval(formula.tree, local, inside)
        finally:
            self._formula = outer

    def _eval(self, node, local, inside):
        if isinstance(node, ast.Expression):
            return self._eval(node.body, local, inside)
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool):
                return node.value
            if isinstance(node.value, str):
                raise NotBySize(f"the class '{node.value}' is named")
            number = self._formula.number(node)  # exact, re-read from the source text as the interpreter does
            return sp.Rational(number.numerator, number.denominator)
        if isinstance(node, ast.Name):
            return self._name(node.id, local)
        if isinstance(node, ast.BinOp):
            return self._binop(node.op, _num(self._eval(node.left, local, inside)),
                               _num(self._eval(node.right, local, inside)))
        if isinstance(node, ast.UnaryOp):
            value = self._eval(node.operand, local, inside)
            if isinstance(node.op, ast.Not):
                return not _bool(value)
            return -_num(value) if isinstance(node.op, ast.USub) else _num(value)
        if isinstance(node, ast.BoolOp):
            values = [_bool(self._eval(v, local, inside)) for v in node.values]
            return all(values) if isinstance(node.op, ast.And) else any(values)
        if isinstance(node, ast.IfExp):
            test = _bool(self._eval(node.test, local, inside))
            return self._eval(node.body if test else node.orelse, local, inside)
        if isinstance(node, ast.Compare):
            return self._compare(node, local, inside)
        if isinstance(node, ast.Call):
            return self._call(node, local, inside)
        if isinstance(node, ast.List):
            return tuple((self._eval(e, local, inside), 1) for e in node.elts)
        if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
            return self._comprehension(node, local, inside)
        raise NotBySize(f"{type(node).__name__} is not followed by set size")

    def _name(self, name, local):
        if name in local:
            return local[name]
        if name == "K":
            raise NotBySize("the formula uses K, so its costs change with the class count")
        if name in self.params:
            value = self.params[name]
            if isinstance(value, tuple):
                raise NotBySize(f"'{name}' is a per-class parameter")
            return value
        raise NotBySize(f"unknown name '{name}'")

    def _binop(self, op, a, b):
        if isinstance(op, ast.Add):
            return a + b
        if isinstance(op, ast.Sub):
            return a - b
        if isinstance(op, ast.Mult):
            return a * b
        if isinstance(op, ast.Div):
            if not b.free_symbols and certified.compare(b, sp.Integer(0)).value in (0, None):
                raise NotBySize("a division by zero (or by a number that cannot be told from zero)")
            if M in b.free_symbols:
                self.sides.append(b)
            return a / b
        if isinstance(op, ast.Pow):
            if b.free_symbols or not b.is_Rational:
                raise NotBySize("a power whose exponent depends on the set size")
            if not a.free_symbols and certified.compare(a, sp.Integer(0)).value == -1 and not b.is_Integer:
                raise NotBySize("a fractional power of a negative number")
            return a ** b
        raise NotBySize(f"the operator {type(op).__name__}")

    def _compare(self, node, local, inside):
        left = self._eval(node.left, local, inside)
        for op, right_node in zip(node.ops, node.comparators):
            right = self._eval(right_node, local, inside)
            if isinstance(op, (ast.In, ast.NotIn)):
                if not isinstance(right, SizedSet) or not isinstance(left, Token):
                    raise NotBySize("'in' between a class and Y")
                ok = (left is G or left == G) or left in right.named
                ok = ok if isinstance(op, ast.In) else not ok
            elif isinstance(left, Token) or isinstance(right, Token):
                if not isinstance(op, (ast.Eq, ast.NotEq)) or left == G and right == G:
                    raise NotBySize("classes compared by order, or two members of Y compared")
                ok = (left == right) == isinstance(op, ast.Eq)
            else:
                ok = _holds(op, left, right)
            if not ok:
                return False
            left = right
        return True

    def _comprehension(self, node, local, inside):
        if inside:
            raise NotBySize("a comprehension over Y inside another one (pairs of members)")
        gen = node.generators[0]
        if len(node.generators) != 1 or not (isinstance(gen.iter, ast.Name) and gen.iter.id == "Y"):
            raise NotBySize("a comprehension not over Y")
        Y = local.get("Y")
        if not isinstance(Y, SizedSet):
            raise NotBySize("'Y' is not available in this formula")
        out = []
        for token, count in self.members(Y.named, Y.n):
            inner = {**local, gen.target.id: token}
            if all(_bool(self._eval(c, inner, True)) for c in gen.ifs):
                value = self._eval(node.elt, inner, True)
                if isinstance(value, tuple):
                    raise NotBySize("a list of lists")
                out.append((value, count))
        return tuple(out)

    def _call(self, node, local, inside):
        name = node.func.id
        args = [self._eval(a, local, inside) for a in node.args]
        if name in self.functions:
            fn = self.functions[name]
            return self._in(fn.body, dict(zip(fn.params, args)), inside)
        if name == "c":
            if len(args) != 2 or not all(isinstance(a, Token) for a in args):
                raise NotBySize("c() with something other than two classes")
            return self.det(*args) if args[0] != args[1] or args[0] != G else self.det(Token("first"), Token("first"))
        if name == "rank":
            raise NotBySize("rank() orders the classes")
        if name == "len":
            (x,) = args
            return x.n if isinstance(x, SizedSet) else sum((m for _, m in x), sp.Integer(0))
        return self._reduce(name, args)

    def _reduce(self, name, args):
        if name in ("sum", "mean", "prod", "min", "max"):
            bag = _bag(args, name)
            total = sum((m for _, m in bag), sp.Integer(0))
            if name == "sum":
                return sp.Add(*[m * v for v, m in bag])
            if name == "mean":
                return sp.Add(*[m * v for v, m in bag]) / total
            if name == "prod":
                return sp.Mul(*[v ** m for v, m in bag])
            return pick([v for v, _ in bag], -1 if name == "min" else 1)
        if name == "genmean":
            if len(args) != 2 or not isinstance(args[1], tuple):
                raise NotBySize("genmean() takes an exponent and one list")
            p, bag = args[0], _bag(args[1:], name)
            if p.free_symbols or not p.is_Rational:
                raise NotBySize("genmean with an exponent that is not a fixed rational")
            total = sum((m for _, m in bag), sp.Integer(0))
            if any(certified.compare(v, sp.Integer(0)).value != 1 for v, _ in bag if not v.free_symbols) and p <= 0:
                raise NotBySize("genmean with exponent <= 0 over a cost that may be 0")
            if p == 0:
                return sp.Mul(*[v ** (m / total) for v, m in bag])
            return (sp.Add(*[m * v ** p for v, m in bag]) / total) ** (1 / p)
        if name in ("abs", "sqrt", "log", "exp"):
            (x,) = args
            return {"abs": sp.Abs, "sqrt": sp.sqrt, "log": sp.log, "exp": sp.exp}[name](x)
        raise NotBySize(f"the function {name}()")


def _size(n) -> sp.Expr:
    """A set size: a Python int (one size) or TAIL + m (every size from TAIL on); never anything parsed."""
    if isinstance(n, int):
        return sp.Integer(n)
    if isinstance(n, sp.Expr):
        return n
    raise TypeError(f"a set size must be an int or a sympy expression, got {type(n).__name__}")


def _num(value) -> sp.Expr:
    if isinstance(value, bool) or not isinstance(value, sp.Expr):
        raise NotBySize("arithmetic on something other than numbers")
    return value


def _bag(args, name: str) -> tuple:
    """One non-empty list (a bag), or numbers given as arguments, f(a, b, c), each once."""
    if len(args) == 1 and isinstance(args[0], tuple):
        if not args[0]:
            raise NotBySize(f"{name}() of an empty list")
        return args[0]
    if not args or any(isinstance(a, (tuple, bool)) or not isinstance(a, sp.Expr) for a in args):
        raise NotBySize(f"{name}() of something other than one list or numbers (e.g. a list among other values)")
    return tuple((a, sp.Integer(1)) for a in args)


def _bool(value) -> bool:
    if isinstance(value, bool):
        return value
    if value is sp.true or value is sp.false:
        return bool(value)
    raise NotBySize("a condition that depends on the set size or on a parameter")


def _holds(op, a, b):
    if (a - b).free_symbols:  # e.g. len(Y) > 1 from a size TAIL + m on: sympy's assumptions decide it or not
        relation = {ast.Eq: sp.Eq, ast.NotEq: sp.Ne, ast.Lt: sp.Lt, ast.LtE: sp.Le, ast.Gt: sp.Gt,
                    ast.GtE: sp.Ge}[type(op)](a, b)
        return _bool(relation)
    s = certified.compare(a, b).value
    if s is None:
        raise NotBySize("a comparison that cannot be decided exactly")
    return {ast.Eq: s == 0, ast.NotEq: s != 0, ast.Lt: s < 0, ast.LtE: s <= 0, ast.Gt: s > 0,
            ast.GtE: s >= 0}[type(op)]
