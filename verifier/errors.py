"""The errors a user can cause, and where in a file they sit.

`SpecError` is the one error type a spec can cause: it always names file, key, position, text and expectation.
`UsageError` is a bad command line or API argument. Both end in exit status 2 at the command line. This module
imports nothing from the package (every layer may raise these).
"""

from __future__ import annotations

from dataclasses import dataclass


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

    def __post_init__(self) -> None:
        if not self.line:  # 0 is "no position" (data given to the Python API)
            self.line = self.column = None

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
            parts[0] += f" at key '{self.key}'"
        parts[0] += ":"
        parts.append(self.message.rstrip("."))
        if self.text is not None:
            shown = self.text if len(self.text) <= 120 else self.text[:117] + "..."
            parts.append(f"(text: {shown!r})")
        if self.expected:
            parts.append(f"— expected {self.expected}")
        return " ".join(parts) + "."

    @property
    def path(self) -> str | None:
        """The spec file (or None for text and dicts given to the Python API)."""
        return self.file


class UsageError(ValueError):
    """A bad command line (exit 2)."""
