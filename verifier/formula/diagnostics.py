"""Formula errors as a compiler reports them: where the offending token sits (in the formula and, through its
`Origin`, in the spec file), the line to show with a caret under it, and what a syntax error most likely means
(`=` for `==`, `&&` for `and`, a bracket never closed, ...).

Owns: `Origin` (how a formula's characters map to file positions), `located_error`, `node_span`,
`operator_span` and `syntax_problem`. Nothing here evaluates spec text: it reads characters (and asks `ast`
to parse a variant of a formula, never to run it).
"""

from __future__ import annotations

import ast
from typing import Protocol

from verifier.errors import Mark, SpecError


class Origin(Protocol):
    """Where a formula came from: `locate(start, end)` gives (line, column, the file's line, [lo, hi) in that
    line) of the formula's characters [start, end) in the spec file, or None when it cannot say exactly."""

    def locate(self, start: int, end: int) -> tuple[int, int, str, int, int] | None:
        """The position in the spec file of the formula's characters [start, end), or None (see the class)."""


def located_error(source: str, origin: Origin | None, where: dict, message: str, span: tuple[int, int] | None,
                  text: str | None, expected: str | None) -> SpecError:
    """A SpecError for the characters `span` = [start, end) of a formula's `source`: positioned at the token in
    the file when `origin` maps it exactly, else at the formula's own start (`where` gives file, key and the
    formula's mark), with the line and a caret under the token."""
    mark: Mark | None = where.get("mark")
    line, column = (mark.line, mark.column) if mark else (None, None)
    snippet = None
    if span is not None:
        start, end = max(0, min(span[0], len(source))), max(0, min(span[1], len(source)))
        end = max(end, start + 1)
        found = _locate(origin, start, end)
        if found is not None:
            line, column, text_line, low, high = found
            snippet = (text_line, low, high)
        else:  # the formula itself, the line of it that holds the token
            first = source.rfind("\n", 0, start) + 1
            last = source.find("\n", start)
            last = len(source) if last < 0 else last
            snippet = (source[first:last], start - first, min(end, last) - first)
    return SpecError(message, file=where.get("file"), key=where.get("key"), line=line, column=column, text=text,
                     expected=expected, snippet=snippet)


def _locate(origin: Origin | None, start: int, end: int):
    if origin is None:
        return None
    try:
        return origin.locate(start, end)
    except Exception:  # a position we cannot vouch for is no position: fall back to the formula's start
        return None


def node_span(source: str, node: ast.AST) -> tuple[int, int] | None:
    """The node's characters [start, end) in `source` (ast counts UTF-8 bytes per line; we count characters)."""
    try:
        start = _offset(source, node.lineno, node.col_offset)
        end = _offset(source, node.end_lineno, node.end_col_offset)
    except (AttributeError, TypeError):  # a node made by us, not by the parser
        return None
    return (start, end) if start is not None and end is not None and end > start else None


def _offset(source: str, lineno: int, col: int) -> int | None:
    lines = source.split("\n")
    if not 1 <= lineno <= len(lines):
        return None
    before = sum(len(line) + 1 for line in lines[:lineno - 1])
    return before + len(lines[lineno - 1].encode("utf-8")[:col].decode("utf-8", "ignore"))


def operator_span(source: str, node: ast.AST, word: str, index: int = 0) -> tuple[int, int] | None:
    """Where the operator `word` of a BinOp (or the `index`-th of a Compare) sits: between its operands."""
    if isinstance(node, ast.BinOp):
        left, right = node_span(source, node.left), node_span(source, node.right)
    elif isinstance(node, ast.Compare):
        operands = [node.left, *node.comparators]
        left, right = node_span(source, operands[index]), node_span(source, operands[index + 1])
    else:
        return None
    if left is None or right is None:
        return None
    at = source.find(word, left[1], right[0])
    return (at, at + len(word)) if at >= 0 else None


# -- syntax errors -------------------------------------------------------------------------------------------
_PAIRS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = {v: k for k, v in _PAIRS.items()}


def syntax_problem(source: str, exc: SyntaxError) -> tuple[str, tuple[int, int], str | None]:
    """(what is wrong, its characters in `source`, what was expected) for a formula Python cannot parse: the
    common slips by name, else Python's own words at Python's position."""
    tokens = list(_scan(source))
    for check in (_quotes, _brackets, _operators):
        found = check(source, tokens)
        if found is not None:
            return found
    if "\n" in source and _parses("(" + source + "\n)"):
        at = source.index("\n")
        return ("the formula goes on after a line break, which ends it", (at - 1, at),
                "the whole formula in parentheses, or a folded block (>) instead of a literal one (|)")
    start = _syntax_offset(source, exc)
    end = _syntax_offset(source, exc, end=True)
    if start is None:  # Python's parser gives no column when the text ends too early
        last = len(source.rstrip()) - 1
        return ("formula is not valid expression syntax (it ends in the middle of an expression)",
                (last, last + 1), None)
    if end is None or end <= start:
        end = start + 1
    return f"formula is not valid expression syntax ({exc.msg})", (start, end), None


def _parses(text: str) -> bool:
    try:
        ast.parse(text, mode="eval")  # parsed only, never run
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _syntax_offset(source: str, exc: SyntaxError, end: bool = False) -> int | None:
    lineno = exc.end_lineno if end else exc.lineno
    column = exc.end_offset if end else exc.offset
    if not lineno or not column:
        return None
    lines = source.split("\n")
    if not 1 <= lineno <= len(lines):
        return None
    before = sum(len(line) + 1 for line in lines[:lineno - 1])
    return before + min(max(column - 1, 0), len(lines[lineno - 1]))


def _scan(source: str):
    """(kind, start, text) of each quote, bracket and operator character outside quoted text; kind 'open
    quote' for a quote never closed."""
    i = 0
    while i < len(source):
        ch = source[i]
        if ch in "'\"":
            quote = source[i:i + 3] if source[i:i + 3] in ("'''", '"""') else ch
            close = source.find(quote, i + len(quote))
            if close < 0:
                yield "open quote", i, ch
                return
            i = close + len(quote)
            continue
        if ch == "#":  # Python would read the rest as a comment
            yield "comment", i, ch
        elif ch in "([{)]}":
            yield "bracket", i, ch
        elif ch in "=!<>&|:+-*/%@^~":
            yield "op", i, ch
        i += 1


def _quotes(source, tokens):
    for kind, at, ch in tokens:
        if kind == "open quote":
            return (f"the quote {ch} is never closed", (at, at + 1),
                    f"a closing {ch}, as in 'a' for the class a")
        if kind == "comment":
            return ("'#' is not part of the formula language (YAML comments go outside the quotes)", (at, at + 1),
                    None)
    return None


def _brackets(source, tokens):
    stack: list[tuple[int, str]] = []
    for kind, at, ch in tokens:
        if kind != "bracket":
            continue
        if ch in _PAIRS:
            stack.append((at, ch))
        elif not stack:
            return f"`{ch}` has no matching `{_CLOSERS[ch]}`", (at, at + 1), f"a `{_CLOSERS[ch]}` before it"
        elif _PAIRS[stack[-1][1]] != ch:
            what = stack[-1][1]
            return (f"`{ch}` does not close the `{what}` before it", (at, at + 1),
                    f"`{_PAIRS[what]}` to close the `{what}` first")
        else:
            stack.pop()
    if stack:
        at, ch = stack[-1]
        return f"`{ch}` is never closed", (at, at + 1), f"a `{_PAIRS[ch]}` to close it"
    return None


def _operators(source, tokens):
    ops = [(at, ch) for kind, at, ch in tokens if kind == "op"]
    text = {at: ch for at, ch in ops}
    for at, ch in ops:
        pair = ch + text.get(at + 1, "")
        if pair in ("&&", "||"):
            word = "and" if ch == "&" else "or"
            return f"`{pair}` is not an operator here; did you mean `{word}`?", (at, at + 2), f"`{word}`"
    for at, ch in ops:
        if ch == "!" and text.get(at + 1) != "=":
            return "`!` is not an operator here; did you mean `not`?", (at, at + 1), "`not`"
    for at, ch in ops:
        if ch == "=" and text.get(at - 1) is None and text.get(at + 1) is None:
            return "`=` is assignment; did you mean `==`?", (at, at + 1), "`==` to compare"
    return None
