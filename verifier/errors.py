"""The errors a user can cause, and where in a file they sit.

`SpecError` is the one error type a spec can cause: it always names file, key, position, text and expectation.
`UsageError` is a bad command line or API argument. Both end in exit status 2 at the command line. This module
imports nothing from the package (every layer may raise these). `DoesNotApply` and `Unsettled` are the bases of
the internal signals "this route does not apply" and "not decided", which never reach a user.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Mark:
    """A position in a spec file."""

    line: int  # 1-based; 0 when unknown (a spec given as data has no positions)
    column: int  # 1-based

    def __bool__(self) -> bool:
        return self.line > 0


@dataclass
class SpecError(Exception):
    """An invalid spec. Rendered as one paragraph; never as a traceback."""

    message: str
    file: str | None = None
    key: str | None = None
    line: int | None = None  # 1-based
    column: int | None = None  # 1-based
    text: str | None = None
    expected: str | None = None
    also: list["SpecError"] = field(default_factory=list)  # further independent problems in the same spec
    # the source line to show under the message, and the [start, end) characters of it to underline
    snippet: tuple[str, int, int] | None = None

    def __post_init__(self) -> None:
        if not self.line:  # 0 is "no position" (data given to the Python API)
            self.line = self.column = None

    @classmethod
    def at(cls, message: str, mark: Mark | None, **fields) -> "SpecError":
        """The error placed at `mark` (its line and column; no position when `mark` is None or has line 0), with
        the other fields (`file`, `key`, `text`, `expected`, ...) as given."""
        return cls(message, line=mark.line if mark else None, column=mark.column if mark else None, **fields)

    def located(self, **where) -> "SpecError":
        """Fill in location fields that are still unknown (inner code knows less than outer code)."""
        for name, value in where.items():
            if getattr(self, name) is None and value is not None:
                setattr(self, name, value)
        return self

    def __str__(self) -> str:
        where = self.file or "<spec>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        parts = [f"{where}: invalid spec"]
        if self.key:
            key = self.key if len(self.key) <= 80 else self.key[:60] + "..." + self.key[-12:]
            parts[0] += f" at key '{key}'"
        parts[0] += ":"
        parts.append(self.message.rstrip("."))
        if self.text is not None:
            shown = self.text if len(self.text) <= 120 else self.text[:117] + "..."
            parts.append(f"(text: {shown!r})")
        if self.expected:
            parts.append(f"— expected {self.expected}")
        text = " ".join(parts) + "."
        if self.snippet is not None:
            text += "\n" + caret_lines(*self.snippet)
        return "\n".join([text, *(str(other) for other in self.also)])

    @property
    def problems(self) -> list["SpecError"]:
        """This problem and the independent ones found with it, in file order."""
        return [self, *self.also]

    @property
    def path(self) -> str | None:
        """The spec file (or None for text and dicts given to the Python API)."""
        return self.file


class UsageError(ValueError):
    """A bad command line (exit 2)."""


class DoesNotApply(Exception):
    """Internal signal, never shown as such: a route, a fast path, an encoding or a lemma does not apply to this
    input (the message says why), and the caller takes the next way or reports the reason. Each route keeps its
    own subclass (`NotSymmetric`, `NotVectorised`, `Unsupported`, ...) beside the code that raises it."""


class Unsettled(Exception):
    """Internal signal, never shown as such: a question was asked and not decided (a solver's unknown, a
    budget spent, evidence that could not be confirmed exactly); the caller reports it as undecided or tries an
    exact path. Never a time limit or a resource stop: those are `limits.STOPS`, which these bases do not catch."""


SNIPPET_WIDTH = 100


def caret_lines(line: str, start: int, end: int) -> str:
    """Two indented lines, as compilers print them: `line` and a caret under its characters [start, end)
    (`^` under one character, `^~~~` under a longer token). Leading blanks are dropped, a long line is cut to a
    window around the caret, and unprintable characters are shown as '?' (never sent to a terminal)."""
    shown = "".join(" " if ch == "\t" else ch if ch.isprintable() else "?" for ch in line)
    lead = len(shown) - len(shown.lstrip())
    shown = shown.strip()
    start = min(max(start - lead, 0), len(shown))
    width = max(1, min(end - lead, len(shown)) - start)
    if len(shown) > SNIPPET_WIDTH:
        low = max(0, min(start - SNIPPET_WIDTH // 3, len(shown) - SNIPPET_WIDTH))
        high = low + SNIPPET_WIDTH
        before, after = ("..." if low else ""), ("..." if high < len(shown) else "")
        width = max(1, min(width, high - start))
        shown, start = before + shown[low:high] + after, start - low + len(before)
    return f"  {shown}\n  {' ' * start}^{'~' * (width - 1)}"


def listed(items, opening: str = "", closing: str = "") -> str:
    """Names as a spec writes them: 'K, Y, y' (or '[a, b]' and '{h, b}' with brackets), never Python's
    ['K', 'Y', 'y']."""
    return opening + ", ".join(str(item) for item in items) + closing


FEW = 8  # a message names at most this many of a long list (the nearest ones), and the count


def few_of(names, near=None, opening: str = "", closing: str = "") -> str:
    """Names for a message: all of them when there are at most FEW; else the count, the first and the last, and
    the few nearest to `near`, e.g. "the 1,000 classes 1 .. 1000 (the nearest to '2000': 200, 1000, 20)"
    rather than all 1,000."""
    names = [str(n) for n in names]
    if len(names) <= FEW:
        return listed(names, opening, closing)
    import difflib

    close = difflib.get_close_matches(str(near), names, n=FEW, cutoff=0.3) if near is not None else []
    return (f"the {len(names):,} classes {names[0]} .. {names[-1]}" +
            (f" (the nearest to {str(near)[:40]!r}: {listed(close)})" if close else ""))


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """'1 warning', '2 warnings' (`plural` for irregular nouns): never '2 warning(s)'."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def did_you_mean(word: str, choices) -> str:
    """'; did you mean 'cost'?' for a near miss among `choices`, else ''."""
    import difflib

    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    if not close:
        lowered = {str(c).lower(): str(c) for c in choices}
        close = [lowered[str(word).lower()]] if str(word).lower() in lowered else []
    return f"; did you mean '{close[0]}'?" if close else ""


def raise_all(errors: list[SpecError]) -> None:
    """Raise the first problem with the others attached in `also` (nothing when there is none)."""
    if errors:
        errors[0].also = errors[1:]
        raise errors[0]
