"""Parse spec formulas with `ast` and a whitelist. Nothing here ever evaluates spec text.

A formula is Python expression *syntax* only: `ast.parse` builds a tree, and every node is checked against
the whitelist below before the interpreter in `formula_eval` walks it. Number literals are re-read from the
source text as exact fractions (0.35 is 7/20, never a binary float).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from fractions import Fraction

from verifier.errors import Mark, SpecError

MAX_FORMULA_CHARS = 5000
MAX_AST_NODES = 2000
MAX_LITERAL_DIGITS = 300

# Node types a formula may contain, with what to say when something else appears.
_ALLOWED = (
    ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.BinOp, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow,
    ast.UnaryOp, ast.USub, ast.UAdd, ast.Not, ast.IfExp, ast.Compare, ast.Eq, ast.NotEq, ast.Lt, ast.LtE,
    ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.Call, ast.Constant, ast.Name, ast.Load, ast.Subscript, ast.List,
    ast.ListComp, ast.GeneratorExp, ast.comprehension, ast.Store,  # Store: only comprehension targets exist
)
_FORBIDDEN_WORDS = {
    ast.Attribute: "attribute access ('.')",
    ast.Lambda: "lambda",
    ast.NamedExpr: "assignment expressions (':=')",
    ast.JoinedStr: "f-strings",
    ast.FormattedValue: "f-strings",
    ast.Dict: "dict literals",
    ast.Set: "set literals",
    ast.SetComp: "set comprehensions",
    ast.DictComp: "dict comprehensions",
    ast.Starred: "starred arguments",
    ast.Slice: "slices",
    ast.Tuple: "tuples",
    ast.Await: "await",
    ast.Yield: "yield",
    ast.YieldFrom: "yield",
    ast.FloorDiv: "'//'",
    ast.Mod: "'%'",
    ast.MatMult: "'@'",
    ast.BitAnd: "bitwise operators",
    ast.BitOr: "bitwise operators",
    ast.BitXor: "bitwise operators",
    ast.LShift: "bitwise operators",
    ast.RShift: "bitwise operators",
    ast.Invert: "bitwise operators",
    ast.Is: "'is'",
    ast.IsNot: "'is not'",
}
ALLOWED_SUMMARY = (
    "numbers, class names in quotes, y, yhat, Y, K, parameters, functions, + - * / **, comparisons, "
    "and/or/not, 'a if cond else b', 'y in Y', len, rank, c, sum, min, max, mean, prod, genmean, abs, sqrt, "
    "log, exp, and list comprehensions over Y"
)


@dataclass(frozen=True)
class Formula:
    """A validated formula: its source text, its tree, and where it came from (for error messages)."""

    source: str
    tree: ast.expr
    file: str
    key: str
    mark: Mark | None

    def error(self, message: str, node: ast.AST | None = None, expected: str | None = None) -> SpecError:
        """A SpecError pointing at this formula (and at the node's column inside it when given)."""
        col = getattr(node, "col_offset", None)
        if col is not None:
            segment = ast.get_source_segment(self.source, node) or self.source
            if segment != self.source:  # a column inside a lone number such as 1e999 would only confuse
                message = f"{message} at column {col + 1} of the formula"
            text = segment
        else:
            text = self.source
        return SpecError(
            message,
            file=self.file,
            key=self.key,
            line=self.mark.line if self.mark else None,
            column=self.mark.column if self.mark else None,
            text=text,
            expected=expected,
        )

    def number(self, node: ast.Constant) -> Fraction:
        """The exact value of a number literal, read from its source text."""
        if isinstance(node.value, int):  # ints are exact in the tree already (0x1f, 1_000, ...)
            return Fraction(node.value)
        segment = ast.get_source_segment(self.source, node) or repr(node.value)
        return Fraction(segment.replace("_", ""))


def parse_formula(text: object, file: str, key: str, mark: Mark | None) -> Formula:
    """Parse and whitelist-check one formula. Raises SpecError naming file, key, position and text."""
    if not isinstance(text, str):
        raise SpecError("a formula must be a string", file=file, key=key, text=repr(text),
                        line=mark.line if mark else None, column=mark.column if mark else None)
    where = dict(file=file, key=key, line=mark.line if mark else None, column=mark.column if mark else None)
    if len(text) > MAX_FORMULA_CHARS:
        raise SpecError(f"formula longer than {MAX_FORMULA_CHARS} characters", text=text, **where)
    if not text.strip():
        raise SpecError("empty formula", text=text, expected="an expression", **where)
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise SpecError(f"formula is not valid expression syntax ({exc.msg}, column {exc.offset})",
                        text=text, expected=ALLOWED_SUMMARY, **where) from None
    except (RecursionError, MemoryError, ValueError):
        raise SpecError("formula is nested too deeply to parse", text=text[:60], **where) from None
    formula = Formula(text.strip(), tree.body, file, key, mark)
    _check(formula, tree)
    return formula


MAX_DEPTH = 60


def _depth(node: ast.AST) -> int:
    """Nesting depth, not counting left-associative operator chains (a + b + c is flat to us)."""
    best, stack = 0, [(node, 0)]
    while stack:
        current, level = stack.pop()
        best = max(best, level)
        for child in ast.iter_child_nodes(current):
            same_chain = (isinstance(current, ast.BinOp) and child is current.left) or (
                isinstance(current, ast.UnaryOp) and isinstance(child, ast.UnaryOp))
            stack.append((child, level if same_chain else level + 1))
    return best


def _check(formula: Formula, tree: ast.AST) -> None:
    if _depth(tree) > MAX_DEPTH:
        raise formula.error(f"the formula is nested more than {MAX_DEPTH} levels deep",
                            expected="fewer nested parentheses or calls")
    count = 0
    for node in ast.walk(tree):
        count += 1
        if count > MAX_AST_NODES:
            raise formula.error(f"formula has more than {MAX_AST_NODES} syntax nodes")
        if not isinstance(node, _ALLOWED):
            what = _FORBIDDEN_WORDS.get(type(node), type(node).__name__)
            raise formula.error(f"{what} not allowed in formulas", node, expected=ALLOWED_SUMMARY)
        _check_node(formula, node)


def _check_node(formula: Formula, node: ast.AST) -> None:
    if isinstance(node, ast.Name):
        if node.id.startswith("_"):
            raise formula.error(f"name '{node.id}' is not allowed (names may not start with '_')", node)
    elif isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool) or value is None or isinstance(value, str):
            if value is None:
                raise formula.error("'None' is not a value in formulas", node)
            return
        if isinstance(value, complex):
            raise formula.error("complex numbers are not allowed", node, expected="a real number")
        if not isinstance(value, (int, float)):
            raise formula.error(f"literal of type {type(value).__name__} not allowed", node)
        segment = ast.get_source_segment(formula.source, node) or ""
        digits = sum(ch.isdigit() for ch in segment)
        if digits > MAX_LITERAL_DIGITS:
            raise formula.error(f"number literal with more than {MAX_LITERAL_DIGITS} digits", node)
        if isinstance(value, float):
            _, _, exponent = segment.lower().partition("e")
            if exponent and abs(int(exponent.replace("_", ""))) > 1000:
                raise formula.error("number literal exponent too large", node,
                                    expected="an exponent in [-1000, 1000]")
    elif isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name):
            raise formula.error("only named functions can be called", node)
        if node.keywords:
            raise formula.error("keyword arguments are not allowed", node)
    elif isinstance(node, ast.Subscript):
        if not isinstance(node.value, ast.Name):
            raise formula.error("only per-class parameters can be indexed, as in eta[y]", node)
    elif isinstance(node, (ast.ListComp, ast.GeneratorExp)):
        if len(node.generators) != 1:
            raise formula.error("a comprehension may have one 'for' only", node)
    elif isinstance(node, ast.comprehension):
        if node.is_async:
            raise formula.error("async comprehensions are not allowed", node.target)
        if not isinstance(node.target, ast.Name):
            raise formula.error("a comprehension variable must be a plain name", node.target)
        if not (isinstance(node.iter, ast.Name) and node.iter.id == "Y"):
            raise formula.error("comprehensions may only run over the predicted set Y", node.iter,
                                expected="'for yh in Y'")
