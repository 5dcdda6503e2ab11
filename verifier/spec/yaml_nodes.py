"""YAML text to PyYAML's node graph, fast and safe, with PyYAML's own messages when the text is not valid.

Composing builds nodes only (nothing is constructed from tags). libyaml's parser (`CSafeLoader`) composes a spec
of 100,000 listed sets in about a second where the pure-Python parser takes a minute; the cycle collector is
paused meanwhile (the graph is acyclic trees of fresh objects, and collecting over them made composing four
times slower). When libyaml refuses the text, the pure-Python parser reads it again to the same error, so that
every message and position is the one this tool always gave (and PyYAML's words are turned into ours here).

Owns: `compose`, `paused_collector`, `MAX_DEPTH`. May import: `errors`.
"""

from __future__ import annotations

import contextlib
import gc

import yaml

from verifier.errors import SpecError

MAX_DEPTH = 64

_Fast = getattr(yaml, "CSafeLoader", None)  # None when PyYAML was built without libyaml


if _Fast is not None:
    class _FastLoader(_Fast):  # type: ignore[misc, valid-type]
        """libyaml's safe loader whose tag resolution (regular expressions in Python, per scalar) is memoised:
        a spec repeats its class names thousands of times."""

        def __init__(self, stream):
            super().__init__(stream)
            self._tags: dict = {}

        def resolve(self, kind, value, implicit):
            key = (kind, value, implicit)
            tag = self._tags.get(key)
            if tag is None:
                tag = self._tags[key] = super().resolve(kind, value, implicit)
            return tag


@contextlib.contextmanager
def paused_collector():
    """No cyclic garbage collection inside the block (restored as it was after)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def compose(text: str, path: str) -> yaml.Node | None:
    """The node graph of one YAML document (None for an empty stream). Raises SpecError with a position."""
    if _Fast is not None and "\t" not in text:  # libyaml accepts tabs where PyYAML refuses them: keep one reading
        try:
            with paused_collector():
                return yaml.compose(text, Loader=_FastLoader)
        except (yaml.YAMLError, RecursionError, ValueError):  # ValueError: text libyaml cannot encode (a lone
            pass  # surrogate); read again below, for PyYAML's own message and position
    try:
        with paused_collector():
            return yaml.compose(text, Loader=yaml.SafeLoader)
    except RecursionError:  # PyYAML's composer recurses once per level: say where the nesting runs away
        line, column = _deepest(text)
        raise SpecError(f"not valid YAML for this tool: nesting deeper than {MAX_DEPTH} levels", file=path,
                        line=line, column=column, text=text.splitlines()[line - 1][:60] if line else None,
                        expected="a spec nested a few levels deep") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        message, expected = yaml_problem(exc)
        raise SpecError(
            f"not valid YAML: {message}",
            file=path,
            line=mark.line + 1 if mark else None,
            column=mark.column + 1 if mark else None,
            text=_line_at(text, mark),
            expected=expected,
        ) from None
    except yaml.YAMLError as exc:
        raise SpecError(f"not valid YAML: {exc}", file=path) from None


def yaml_problem(exc: yaml.MarkedYAMLError) -> tuple[str, str | None]:
    """PyYAML's problem in the tool's words: (what is wrong, what was expected)."""
    problem, context = exc.problem or "", exc.context or ""
    opened = exc.context_mark
    where = f" opened at line {opened.line + 1}, column {opened.column + 1}" if opened else ""
    if "flow sequence" in context:
        return f"the list [...]{where} is not closed", "a ']' after the last item (items separated by commas)"
    if "flow mapping" in context:
        return f"the mapping {{...}}{where} is not closed", "a '}' after the last 'key: value' pair"
    if "quoted scalar" in context:
        return f"the quoted text{where} is not closed", "the same quote character at its end"
    if "mapping values are not allowed" in problem:
        return ("a ':' inside a value; a value that contains ': ' must be quoted",
                "\"text: with a colon\" in quotes, or a nested mapping on its own indented lines")
    if "'\\t'" in problem or "\\t" in problem or "\t" in problem:
        return "a tab character; YAML indents with spaces only", "spaces instead of the tab"
    if "undefined alias" in problem:
        return problem.replace("found undefined alias", "the alias *name refers to no anchor &name:"), \
            "an anchor &name defined before the alias"
    if "<block end>" in problem or "block mapping" in context or "block collection" in context:
        return (("the indentation or a stray character breaks the structure "
                 f"({problem.replace('<block end>', 'the end of the block')})"),
                "keys of one mapping at the same indentation, and no text after a closed list or mapping")
    if "end of stream" in problem:
        return "the file ends in the middle of a value", "the value to be completed"
    return (problem or context or "unreadable YAML").replace("<stream end>", "the end of the file"), None


def _line_at(text: str, mark) -> str | None:
    if not mark:
        return None
    lines = text.splitlines()
    return lines[mark.line].strip() if 0 <= mark.line < len(lines) and lines[mark.line].strip() else None


def _deepest(text: str) -> tuple[int, int]:
    """Where brackets first open beyond MAX_DEPTH levels (1-based line and column), quotes aside; (0, 0) if
    nowhere (the nesting is then in indentation, which PyYAML follows far deeper than we allow anyway)."""
    depth, quote = 0, None
    for number, line in enumerate(text.splitlines(), 1):
        for column, ch in enumerate(line, 1):
            if quote:
                quote = None if ch == quote else quote
            elif ch in "'\"":
                quote = ch
            elif ch in "[{":
                depth += 1
                if depth > MAX_DEPTH:
                    return number, column
            elif ch in "]}":
                depth -= 1
    return 0, 0
