"""The one error type a spec can cause: it always names file, key, position, text and expectation."""

from __future__ import annotations

from dataclasses import dataclass


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


class UsageError(Exception):
    """A bad command line (exit 2)."""
