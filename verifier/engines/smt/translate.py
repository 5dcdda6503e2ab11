"""Translate exact sympy formulas to SMT (nonlinear real arithmetic), deal-solver style.

A registry maps sympy node types to solver constructions; rational powers become auxiliary variables
(s >= 0, s^q = x^p); anything else (log, exp, a parameter in an exponent) raises `Unsupported`, which the
caller turns into the interval engine or an explicit `unknown`. The backend is z3 by default; cvc5's
pythonic API has the same shape and serves as the independent second solver of `--cross-check`.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import z3

from verifier.formula.enclose import Unsupported
from verifier.lazy_sympy import sympy as sp

_EXPR: dict[type, Callable] = {}
_BOOL: dict[type, Callable] = {}


def _register(table, *kinds):
    def register(fn):
        for kind in kinds:
            table[kind] = fn
        return fn

    return register


class Translator:
    """One translation context: variables by name, auxiliary constraints, and a cache of translated nodes."""

    def __init__(self, ctx=None, backend=z3):
        self.b = backend
        self.ctx = ctx if ctx is not None else (z3.main_ctx() if backend is z3 else None)
        self.variables: dict[str, z3.ArithRef] = {}
        self.side: list[z3.BoolRef] = []  # constraints defining the auxiliary variables
        self._cache: dict[sp.Basic, z3.ExprRef] = {}
        self._aux = 0

    def var(self, name: str) -> z3.ArithRef:
        """The solver's real variable of that name, made on first use."""
        if name not in self.variables:
            self.variables[name] = self.b.Real(name, self.ctx)
        return self.variables[name]

    def fresh(self, hint: str) -> z3.ArithRef:
        """A new auxiliary real variable, named after `hint`."""
        self._aux += 1
        return self.b.Real(f"{hint}!{self._aux}", self.ctx)

    def real(self, value) -> z3.ArithRef:
        """An exact rational as a solver constant."""
        f = Fraction(int(value.p), int(value.q)) if isinstance(value, sp.Rational) else Fraction(value)
        return self.b.RealVal(f"{f.numerator}/{f.denominator}", self.ctx)

    def expr(self, node: sp.Basic) -> z3.ArithRef:
        """A sympy number expression as a solver term; Unsupported when it cannot be expressed."""
        return self._translate(node, _EXPR, "number")

    def boolean(self, node: sp.Basic) -> z3.BoolRef:
        """A sympy condition as a solver formula; Unsupported when it cannot be expressed."""
        if node is sp.true or node is True:
            return self.b.BoolVal(True, self.ctx)
        if node is sp.false or node is False:
            return self.b.BoolVal(False, self.ctx)
        return self._translate(node, _BOOL, "condition")

    def _translate(self, node, table, what):
        hit = self._cache.get(node)
        if hit is not None:
            return hit
        fn = table.get(type(node))
        if fn is None:
            fn = next((f for kind, f in table.items() if isinstance(node, kind)), None)
        if fn is None:
            raise Unsupported(f"no SMT translation for the {what} {type(node).__name__}: {node}")
        value = fn(self, node)
        self._cache[node] = value
        return value


@_register(_EXPR, sp.Symbol)
def _symbol(t: Translator, node):
    return t.var(node.name)


@_register(_EXPR, sp.Integer, sp.Rational)
def _number(t: Translator, node):
    return t.real(node)


@_register(_EXPR, sp.Add)
def _add(t: Translator, node):
    return t.b.Sum([t.expr(a) for a in node.args])


@_register(_EXPR, sp.Mul)
def _mul(t: Translator, node):
    return t.b.Product([t.expr(a) for a in node.args])


@_register(_EXPR, sp.Pow)
def _pow(t: Translator, node):
    base, exponent = node.args
    if not exponent.is_Rational:
        raise Unsupported(f"a power with a non-rational exponent: {node}")
    b = t.expr(base)
    if exponent.is_Integer:
        n = int(exponent)
        power = t.b.Product([b] * abs(n)) if n else t.real(sp.Integer(1))
        return power if n >= 0 else 1 / power
    p, q = int(exponent.p), int(exponent.q)
    # root = base^(|p|/q): root >= 0 and root^q = base^|p| where the base is >= 0. Where it is negative the
    # power is undefined (definedness is checked separately); an unconditional equation would silently
    # remove those parameter values from every question, assumptions included.
    root = t.fresh("root")
    t.side += [root >= 0, t.b.Implies(b >= 0, t.b.Product([root] * q) == t.b.Product([b] * abs(p)))]
    return root if p > 0 else 1 / root


@_register(_EXPR, sp.Piecewise)
def _piecewise(t: Translator, node):
    result = None
    for value, condition in reversed(node.args):
        v = t.expr(value)
        result = v if result is None or condition is sp.true else t.b.If(t.boolean(condition), v, result)
    return result


@_register(_EXPR, sp.Min, sp.Max)
def _minmax(t: Translator, node):
    values = [t.expr(a) for a in node.args]
    out = values[0]
    for v in values[1:]:
        out = t.b.If(v < out, v, out) if isinstance(node, sp.Min) else t.b.If(v > out, v, out)
    return out


@_register(_EXPR, sp.Abs)
def _abs(t: Translator, node):
    x = t.expr(node.args[0])
    return t.b.If(x >= 0, x, -x)


_RELATIONS = {sp.StrictLessThan: lambda a, b: a < b, sp.LessThan: lambda a, b: a <= b,
              sp.StrictGreaterThan: lambda a, b: a > b, sp.GreaterThan: lambda a, b: a >= b,
              sp.Equality: lambda a, b: a == b, sp.Unequality: lambda a, b: a != b}


@_register(_BOOL, *_RELATIONS)
def _relation(t: Translator, node):
    return _RELATIONS[type(node)](t.expr(node.lhs), t.expr(node.rhs))


@_register(_BOOL, sp.And)
def _and(t: Translator, node):
    return t.b.And([t.boolean(a) for a in node.args])


@_register(_BOOL, sp.Or)
def _or(t: Translator, node):
    return t.b.Or([t.boolean(a) for a in node.args])


@_register(_BOOL, sp.Not)
def _not(t: Translator, node):
    return t.b.Not(t.boolean(node.args[0]))


@_register(_BOOL, sp.Implies)
def _implies(t: Translator, node):
    return t.b.Implies(t.boolean(node.args[0]), t.boolean(node.args[1]))


def model_value(value: z3.ExprRef) -> sp.Expr:
    """An exact sympy number for a z3 model value: a rational, or an algebraic number as a CRootOf."""
    if z3.is_rational_value(value):
        return sp.Rational(value.numerator_as_long(), value.denominator_as_long())
    if z3.is_algebraic_value(value):
        x = sp.Symbol("x")
        coefficients = value.poly()
        poly = sp.Poly(sum(sp.Integer(c) * x**i for i, c in enumerate(_coefficients(coefficients))), x)
        approx = value.approx(30)
        target = sp.Rational(approx.numerator_as_long(), approx.denominator_as_long())
        roots = sp.Poly(poly, x).real_roots()
        return min(roots, key=lambda r: abs(sp.N(r - target, 40)))
    raise Unsupported(f"cannot read the model value {value}")


def _coefficients(poly) -> list[int]:
    """Integer coefficients (constant term first) of z3's defining polynomial of an algebraic number."""
    return [int(str(c)) for c in poly]
