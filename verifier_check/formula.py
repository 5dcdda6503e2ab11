"""The formula language of a spec, interpreted here a second time (the tool has its own interpreter).

A formula is Python expression syntax: `ast.parse` builds its tree (it executes nothing), every node is checked
against the whitelist below, and this file walks the tree over exact values (`algebra`). The vocabulary: y,
yhat, Y, K, parameters (per-class ones as eta[y] or eta['a']), functions, class names in quotes, numbers (exact
as written: 0.35 is 7/20), + - * / **, comparisons, and/or/not, `a if c else b`, `y in Y`, comprehensions over
Y, and len rank c sum prod mean min max abs sqrt log exp genmean. Anything else is Malformed: the spec is not
one the tool could have read. Where the parameters are symbolic, a comparison, a min or max, a divisor or a
fractional power of an expression in them is Undecided (not covered): the checker's proofs over every
admissible value read polynomials only.
"""

import ast
from fractions import Fraction

from verifier_check import arithmetic, bounds
from verifier_check.algebra import Value, const
from verifier_check.functions import BUILTINS, ClassRef, Functions
from verifier_check.limits import (
    MAX_FORMULA_CHARS,
    MAX_FORMULA_DEPTH,
    MAX_FORMULA_NODES,
    MAX_LITERAL_DIGITS,
    MAX_STEPS,
    Malformed,
    Undecided,
    tick,
)

ALLOWED = (ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.BinOp, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow,
           ast.UnaryOp, ast.USub, ast.UAdd, ast.Not, ast.IfExp, ast.Compare, ast.Eq, ast.NotEq, ast.Lt, ast.LtE,
           ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.Call, ast.Constant, ast.Name, ast.Load, ast.Subscript, ast.List,
           ast.ListComp, ast.GeneratorExp, ast.comprehension, ast.Store)
MAX_CALL_DEPTH = 32


class Formula:
    """A formula of the spec, parsed and whitelisted: its text, tree and place in the certificate."""

    def __init__(self, text, where):
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_FORMULA_CHARS:
            raise Malformed(f"{where}: expected a formula (text of at most {MAX_FORMULA_CHARS:,} characters)")
        self.source, self.where = text.strip(), where
        try:
            self.tree = ast.parse(self.source, mode="eval").body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            raise Malformed(f"{where}: {self.source[:60]!r} is not an expression of the formula language") from None
        nodes, stack = 0, [(self.tree, 0)]
        while stack:
            node, depth = stack.pop()
            nodes += 1
            if nodes > MAX_FORMULA_NODES or depth > MAX_FORMULA_DEPTH:
                raise Malformed(f"{where}: more than {MAX_FORMULA_NODES} nodes or {MAX_FORMULA_DEPTH} levels")
            self._whitelist(node)
            chain = isinstance(node, ast.BinOp)
            stack.extend((c, depth if chain and c is node.left else depth + 1) for c in ast.iter_child_nodes(node))

    def _whitelist(self, node):
        problem = None
        if not isinstance(node, ALLOWED):
            problem = f"{type(node).__name__} is not allowed"
        elif isinstance(node, ast.Name) and node.id.startswith("_"):
            problem = f"the name {node.id!r}"
        elif isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, (complex, bytes))):
            problem = f"the constant {node.value!r}"
        elif isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(
                node.value, bool) and sum(ch.isdigit() for ch in self.literal(node)) > MAX_LITERAL_DIGITS:
            problem = "a number literal of too many digits"
        elif isinstance(node, ast.Call) and (not isinstance(node.func, ast.Name) or node.keywords):
            problem = "only named functions with plain arguments can be called"
        elif isinstance(node, ast.Subscript) and not isinstance(node.value, ast.Name):
            problem = "only per-class parameters can be indexed"
        elif isinstance(node, (ast.ListComp, ast.GeneratorExp)) and (
                len(node.generators) != 1 or node.generators[0].is_async or
                not isinstance(node.generators[0].target, ast.Name) or
                not (isinstance(node.generators[0].iter, ast.Name) and node.generators[0].iter.id == "Y")):
            problem = "a comprehension runs over Y only, with one plain variable"
        if problem:
            raise Malformed(f"{self.where}: {problem} in the formula language (text: {self.source[:60]!r})")

    def literal(self, node):
        """The source text of a number literal."""
        return (ast.get_source_segment(self.source, node) or repr(node.value)).replace("_", "")

    def number(self, node):
        """The exact value of a number literal, from its source text (0.35 is 7/20)."""
        if isinstance(node.value, int):
            return Fraction(node.value)
        text = self.literal(node)
        mantissa, _, exponent = text.lower().partition("e")
        if exponent and abs(int(exponent)) > 1000:
            raise Malformed(f"{self.where}: a number literal's exponent beyond 1000")
        return Fraction(text)


class Interpreter(Functions):
    """Evaluates formulas over exact values: `classes` (names), `params` (name -> Value, or a tuple of them per
    class), `functions` (name -> (argument names, Formula)), `det` (c(yh, y): a function of two class indices)."""

    def __init__(self, classes, params, functions, det=None):
        self.classes, self.params, self.functions, self.det = classes, params, functions, det
        self.index = {name: i for i, name in enumerate(classes)}
        self.steps, self.calls, self.means = 0, {}, {}

    def number(self, formula, local):
        """The formula's value, which must be a number."""
        value = self.eval(formula, formula.tree, local, 0)
        if not isinstance(value, Value):
            raise Malformed(f"{formula.where}: the formula gives {kind(value)}, not a number")
        return value

    def truth(self, formula, local):
        """The formula's value, which must be a condition."""
        value = self.eval(formula, formula.tree, local, 0)
        if not isinstance(value, bool):
            raise Malformed(f"{formula.where}: the formula gives {kind(value)}, not a condition")
        return value

    def eval(self, f, node, local, depth):
        """One node's value."""
        self.steps += 1
        if self.steps & 1023 == 0:
            tick()
            if self.steps > MAX_STEPS:
                raise Malformed(f"{f.where}: evaluating the spec's formulas took more than {MAX_STEPS:,} steps")
        return getattr(self, "_" + type(node).__name__)(f, node, local, depth)

    def _Constant(self, f, node, local, depth):
        if isinstance(node.value, bool):
            return node.value
        if isinstance(node.value, str):
            if node.value not in self.index:
                raise Malformed(f"{f.where}: {node.value!r} is not a class")
            return ClassRef(self.index[node.value])
        return const(f.number(node))

    def _Name(self, f, node, local, depth):
        if node.id in local:
            return local[node.id]
        if node.id == "K":
            return const(len(self.classes))
        if node.id in self.params and not isinstance(self.params[node.id], tuple):
            return self.params[node.id]
        raise Malformed(f"{f.where}: the name {node.id!r} is not defined here")

    def _Subscript(self, f, node, local, depth):
        table = self.params.get(node.value.id)
        key = self.eval(f, node.slice, local, depth)
        if not isinstance(table, tuple) or not isinstance(key, ClassRef):
            raise Malformed(f"{f.where}: {node.value.id}[...] needs a per-class parameter and a class")
        return table[key.index]

    def _List(self, f, node, local, depth):
        return tuple(self.eval(f, e, local, depth) for e in node.elts)

    def _ListComp(self, f, node, local, depth):
        gen, domain = node.generators[0], local.get("Y")
        if not isinstance(domain, frozenset):
            raise Malformed(f"{f.where}: Y is not available in this formula")
        out = []
        for i in sorted(domain):
            inner = {**local, gen.target.id: ClassRef(i)}
            if all(self.condition(f, c, inner, depth) for c in gen.ifs):
                out.append(self.eval(f, node.elt, inner, depth))
        return tuple(out)

    _GeneratorExp = _ListComp

    def _UnaryOp(self, f, node, local, depth):
        value = self.eval(f, node.operand, local, depth)
        if isinstance(node.op, ast.Not):
            return not self.boolean(f, value)
        value = self.numeric(f, value)
        return -value if isinstance(node.op, ast.USub) else value

    def _BinOp(self, f, node, local, depth):
        spine = []  # a + b + ... + z iteratively: a long chain is not deep nesting
        while isinstance(node, ast.BinOp):
            spine.append(node)
            node = node.left
        value = self.numeric(f, self.eval(f, node, local, depth))
        for op in reversed(spine):
            right = self.numeric(f, self.eval(f, op.right, local, depth))
            if isinstance(op.op, ast.Add):
                value = value + right
            elif isinstance(op.op, ast.Sub):
                value = value - right
            elif isinstance(op.op, ast.Mult):
                value = value * right
            elif isinstance(op.op, ast.Div):
                value = value * arithmetic.inverse(right, f.where)
            else:
                e = right.rational()
                if e is None:
                    raise Undecided(f"{f.where}: a power whose exponent is not a rational number")
                value = arithmetic.power(value, e, f.where)
        return value

    def _BoolOp(self, f, node, local, depth):
        want = isinstance(node.op, ast.And)
        for operand in node.values:  # short-circuit, as Python reads it
            if self.condition(f, operand, local, depth) != want:
                return not want
        return want

    def _IfExp(self, f, node, local, depth):
        return self.eval(f, node.body if self.condition(f, node.test, local, depth) else node.orelse, local, depth)

    def _Compare(self, f, node, local, depth):
        left = self.eval(f, node.left, local, depth)
        for op, right_node in zip(node.ops, node.comparators):
            right = self.eval(f, right_node, local, depth)
            if not self.compare(f, op, left, right):
                return False
            left = right
        return True

    def compare(self, f, op, left, right):
        """One comparison: a class in Y, two classes, or two numbers (exactly)."""
        if isinstance(op, (ast.In, ast.NotIn)):
            if not isinstance(left, ClassRef) or not isinstance(right, frozenset):
                raise Malformed(f"{f.where}: 'in' needs a class and the set Y")
            return (left.index in right) == isinstance(op, ast.In)
        if isinstance(left, ClassRef) or isinstance(right, ClassRef):
            if not (isinstance(left, ClassRef) and isinstance(right, ClassRef)) or \
                    not isinstance(op, (ast.Eq, ast.NotEq)):
                raise Malformed(f"{f.where}: classes compare with == and != only, with classes")
            return (left == right) == isinstance(op, ast.Eq)
        s = self.sign(f, self.numeric(f, left) - self.numeric(f, right))
        return {ast.Eq: s == 0, ast.NotEq: s != 0, ast.Lt: s < 0, ast.LtE: s <= 0, ast.Gt: s > 0,
                ast.GtE: s >= 0}[type(op)]

    def sign(self, f, value):
        """The exact sign of a number; Undecided for a sign that depends on the parameters."""
        if value.symbolic():
            raise Undecided(f"{f.where}: the formula branches on the parameters (a comparison, min, max or abs of "
                            "an expression in them), beyond the checker's polynomials")
        return bounds.sign(value, f.where)

    def _Call(self, f, node, local, depth):
        name = node.func.id
        args = [self.eval(f, a, local, depth) for a in node.args]
        if name in self.functions:
            names, body = self.functions[name]
            if len(args) != len(names) or depth >= MAX_CALL_DEPTH:
                raise Malformed(f"{f.where}: {name}() takes {len(names)} arguments (and calls nest at most "
                                f"{MAX_CALL_DEPTH} deep)")
            key = (name, tuple(map(keyed, args)))
            if key not in self.calls:
                self.calls[key] = self.eval(body, body.tree, dict(zip(names, args)), depth + 1)
            return self.calls[key]
        if name not in BUILTINS:
            raise Malformed(f"{f.where}: unknown function {name!r}")
        return getattr(self, "call_" + name)(f, args)

    def condition(self, f, node, local, depth):
        """A node that must give a condition."""
        return self.boolean(f, self.eval(f, node, local, depth))

    def boolean(self, f, value):
        """A condition, or Malformed."""
        if not isinstance(value, bool):
            raise Malformed(f"{f.where}: expected a condition, got {kind(value)}")
        return value

    def numeric(self, f, value):
        """A number, or Malformed."""
        if not isinstance(value, Value):
            raise Malformed(f"{f.where}: expected a number, got {kind(value)}")
        return value


def keyed(value):
    """A hashable name of any value of the language (for remembering function calls)."""
    if isinstance(value, Value):
        return ("v", value.key())
    if isinstance(value, ClassRef):
        return ("c", value.index)
    if isinstance(value, frozenset):
        return ("s", tuple(sorted(value)))
    if isinstance(value, tuple):
        return ("l", tuple(map(keyed, value)))
    return ("b", value)


def kind(value):
    """What a value of the language is, in words."""
    return ("a condition" if isinstance(value, bool) else "a class" if isinstance(value, ClassRef) else
            "the set Y" if isinstance(value, frozenset) else "a list" if isinstance(value, tuple) else "a number")


def mentions(formula, name):
    """Whether a formula uses the name (an assumption that uses y holds for every class y)."""
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(formula.tree))
