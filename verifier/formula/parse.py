"""Parse spec formulas with `ast` and a whitelist. Nothing here ever evaluates spec text.

A formula is Python expression *syntax* only: `ast.parse` builds a tree, and every node is checked against
the whitelist below before the interpreter in `formula_eval` walks it. Number literals are re-read from the
source text as exact fractions (0.35 is 7/20, never a binary float). `parse_syntax` only parses (the spec reader
checks the whitelist and the names of all formulas together, in `scope`); `parse_formula` does both for one
formula.
"""

from __future__ import annotations

import ast
import io
import tokenize
from dataclasses import dataclass, field
from fractions import Fraction

from verifier.errors import Mark, SpecError, raise_all
from verifier.formula.diagnostics import Origin, located_error, node_span, operator_span, syntax_problem

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
    origin: Origin | None = field(default=None, compare=False, repr=False)  # its characters in the file

    def error(self, message: str, node: ast.AST | None = None, expected: str | None = None,
              span: tuple[int, int] | None = None) -> SpecError:
        """A SpecError pointing at this formula: at the node (or at `span`, characters of the source) in the
        file when given, with the line and a caret under it."""
        node_at = node_span(self.source, node) if node is not None else None
        text = self.source[node_at[0]:node_at[1]] if node_at else self.source
        return located_error(self.source, self.origin, dict(file=self.file, key=self.key, mark=self.mark), message,
                             span or node_at, text, expected)

    def number(self, node: ast.Constant) -> Fraction:
        """The exact value of a number literal, read from its source text."""
        if isinstance(node.value, int):  # ints are exact in the tree already (0x1f, 1_000, ...)
            return Fraction(node.value)
        segment = ast.get_source_segment(self.source, node) or repr(node.value)
        return Fraction(segment.replace("_", ""))


def parse_formula(text: object, file: str, key: str, mark: Mark | None, origin: Origin | None = None) -> Formula:
    """Parse and whitelist-check one formula. Raises SpecError naming file, key, position and text (every
    construct outside the whitelist at once)."""
    formula = parse_syntax(text, file, key, mark, origin)
    raise_all(whitelist_problems(formula)[0])
    return formula


def parse_syntax(text: object, file: str, key: str, mark: Mark | None, origin: Origin | None = None) -> Formula:
    """Parse one formula (its tree is not whitelist-checked yet: `whitelist_problems` does that). Raises
    SpecError for text that is not an expression, or too long or deep to be read safely."""
    where = dict(file=file, key=key, line=mark.line if mark else None, column=mark.column if mark else None)
    if not isinstance(text, str):
        raise SpecError("a formula must be a string", text=repr(text), **where)
    if len(text) > MAX_FORMULA_CHARS:
        raise SpecError(f"formula longer than {MAX_FORMULA_CHARS} characters", text=text, **where)
    if not text.strip():
        raise SpecError("empty formula", text=text, expected="an expression", **where)
    source = text.strip()
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError as exc:
        message, span, expected = syntax_problem(source, exc)
        raise located_error(source, origin, dict(file=file, key=key, mark=mark), message, span, source,
                            expected or ALLOWED_SUMMARY) from None
    except (RecursionError, MemoryError, ValueError):
        raise SpecError("formula is nested too deeply to parse", text=text[:60], **where) from None
    comment = _comment_at(source)
    if comment is not None:  # ast drops a comment silently: "1 # + foo" would mean 1
        raise located_error(source, origin, dict(file=file, key=key, mark=mark), "`#` would start a comment and "
                            "silently drop the rest of the formula; formulas have no comments",
                            (comment, comment + 1), source, "the formula without `#`")
    formula = Formula(source, tree.body, file, key, mark, origin)
    if _depth(tree) > MAX_DEPTH:
        raise formula.error(f"the formula is nested more than {MAX_DEPTH} levels deep",
                            expected="fewer nested parentheses or calls")
    if sum(1 for _ in ast.walk(tree)) > MAX_AST_NODES:
        raise formula.error(f"formula has more than {MAX_AST_NODES:,} syntax nodes")
    return formula


MAX_DEPTH = 60


def _comment_at(source: str) -> int | None:
    """The offset of a `#` outside string literals (a Python comment), or None."""
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                row, column = token.start
                return sum(len(line) for line in source.splitlines(keepends=True)[:row - 1]) + column
    except (tokenize.TokenError, SyntaxError):
        return None
    return None


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


def whitelist_problems(formula: Formula) -> tuple[list[SpecError], set[int]]:
    """Every construct of the formula outside the whitelist, in source order, and the ids of their nodes (whose
    insides are not examined further: one problem per offending construct)."""
    problems: list[tuple[tuple[int, int], SpecError]] = []
    flagged: set[int] = set()
    stack: list[ast.AST] = [formula.tree]
    while stack:
        node = stack.pop()
        problem = _problem(formula, node)
        if problem is not None:
            at = node.iter if isinstance(node, ast.comprehension) else node
            problems.append(((getattr(at, "lineno", 0), getattr(at, "col_offset", 0)), problem))
            if isinstance(node, ast.BinOp) and type(node.op) in _OPERATOR_HINTS:
                stack.extend([node.right, node.left])  # a wrong operator: its operands are examined still
            elif isinstance(node, ast.Compare):  # one report per comparison chain; its operands are examined
                others = [op for op in node.ops if type(op) not in _OPERATOR_HINTS]
                stack.extend(reversed([node.left, *others, *node.comparators]))
            else:
                flagged.add(id(node))
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))
    return [p for _, p in sorted(problems, key=lambda item: item[0])], flagged


_OPERATOR_HINTS = {  # an operator of Python that a formula writer most likely meant as something else
    ast.BitXor: ("^", "`^` is not a power in formulas; did you mean `**`?", "x ** 2 for a power"),
    ast.BitAnd: ("&", "`&` is not a logical operator in formulas; did you mean `and`?", "`and`"),
    ast.BitOr: ("|", "`|` is not a logical operator in formulas; did you mean `or`?", "`or`"),
    ast.FloorDiv: ("//", "`//` (floor division) is not allowed in formulas; did you mean `/`?", "`/` (exact)"),
    ast.Is: ("is", "`is` is not allowed in formulas; did you mean `==`?", "`==`"),
    ast.IsNot: ("is", "`is not` is not allowed in formulas; did you mean `!=`?", "`!=`"),
    ast.Mod: ("%", "`%` (remainder) is not allowed in formulas", ALLOWED_SUMMARY),
    ast.MatMult: ("@", "`@` is not allowed in formulas; did you mean `*`?", "`*`"),
    ast.LShift: ("<<", "bitwise operators not allowed in formulas", ALLOWED_SUMMARY),
    ast.RShift: (">>", "bitwise operators not allowed in formulas", ALLOWED_SUMMARY),
}


def _problem(formula: Formula, node: ast.AST) -> SpecError | None:
    if isinstance(node, (ast.BinOp, ast.Compare)):
        ops = [node.op] if isinstance(node, ast.BinOp) else node.ops
        index = next((i for i, op in enumerate(ops) if type(op) in _OPERATOR_HINTS), None)
        if index is not None:
            word, message, expected = _OPERATOR_HINTS[type(ops[index])]
            return formula.error(message, node, expected=expected,
                                 span=operator_span(formula.source, node, word, index))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
        start = node_span(formula.source, node)
        return formula.error("`~` is not allowed in formulas; did you mean `not`?", node, expected="`not`",
                             span=(start[0], start[0] + 1) if start else None)
    if not isinstance(node, _ALLOWED):
        what = _FORBIDDEN_WORDS.get(type(node), type(node).__name__)
        return formula.error(f"{what} not allowed in formulas", node, expected=ALLOWED_SUMMARY)
    try:
        _check_node(formula, node)
    except SpecError as problem:
        return problem
    return None


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
            raise formula.error(f"number literal with more than {MAX_LITERAL_DIGITS:,} digits", node)
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
            raise formula.error("comprehensions may only run over the predicted set Y, not over "
                                f"{_what(node.iter)}", node.iter, expected="`for yh in Y`")


def _what(node: ast.AST) -> str:
    """What a comprehension runs over, in words."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return "a list"
    if isinstance(node, ast.Name):
        return f"'{node.id}'"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return f"the result of {node.func.id}(...)"
    return "an expression"


@dataclass(frozen=True)
class UserFunction:
    """A spec's helper function (`functions: {g(x): ...}`): its name, parameter names and parsed body."""

    name: str
    params: tuple[str, ...]
    body: Formula
