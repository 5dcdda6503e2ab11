"""Arguments of the Python API checked by type at the door: a wrong type (a number where text belongs, one
string where a list of them belongs, something not callable as `progress`) is a `UsageError` naming the
argument and what it takes, never an AttributeError or TypeError from deep inside."""

from __future__ import annotations

import os
from typing import Literal, overload

from verifier.errors import UsageError
from verifier.numbers import shown

MIN_WIDTH, MAX_WIDTH = 20, 10_000  # columns of a text report (rich cannot lay out narrower tables)


@overload
def text(value, name: str, takes: str, optional: Literal[False]) -> str: ...
@overload
def text(value, name: str, takes: str, optional: bool = True) -> str | None: ...


def text(value, name: str, takes: str, optional: bool = True) -> str | None:
    """`value` when it is text (or None, when `optional`); `takes` says what the argument holds."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise UsageError(f"{name} takes {takes}, not {shown(value)}")
    return value


def texts(value, name: str, takes: str) -> list[str]:
    """A list (or tuple) of text; one string alone is refused, since its characters would be read as items."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple, set, frozenset)):
        raise UsageError(f"{name} takes a list of {takes}, not {shown(value)}" +
                         (f"; write {name}=[{value!r}]" if isinstance(value, str) else ""))
    bad = [item for item in value if not isinstance(item, str)]
    if bad:
        raise UsageError(f"{name} takes a list of {takes}; {shown(bad[0])} is not text")
    return list(value)


@overload
def path(value, name: str, optional: Literal[False]) -> str: ...
@overload
def path(value, name: str, optional: bool = True) -> str | None: ...


def path(value, name: str, optional: bool = True) -> str | None:
    """A file or directory name: text or `os.PathLike` (or None, when `optional`)."""
    if value is None and optional:
        return None
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str) or not value:
        raise UsageError(f"{name} takes a path (text or os.PathLike), not {shown(value)}")
    return value


def flag(value, name: str) -> bool:
    """A yes-or-no argument: True or False (numpy's bools too); "no", 0 or None would pass a truth test unseen."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return bool(value)
    raise UsageError(f"{name} takes True or False, not {shown(value)}")


def choice(value, name: str, choices: tuple[str, ...]) -> str:
    """One of `choices` (text)."""
    if not isinstance(value, str) or value not in choices:
        raise UsageError(f"{name} takes one of {', '.join(repr(c) for c in choices)}, not {shown(value)}")
    return value


def callback(value, name: str):
    """A function (or None)."""
    if value is not None and not callable(value):
        raise UsageError(f"{name} takes a function called with one text argument (or None), not {shown(value)}")
    return value


def width(value) -> int:
    """Columns of a text report: a whole number from MIN_WIDTH to MAX_WIDTH."""
    number = None if isinstance(value, bool) or not hasattr(value, "__index__") else value.__index__()
    if number is None or not MIN_WIDTH <= number <= MAX_WIDTH:
        raise UsageError(f"width takes a whole number of columns from {MIN_WIDTH} to {MAX_WIDTH}, not "
                         f"{shown(value)}")
    return number
