"""Numbers typed by a user (options, data files, API arguments), read exactly and within bounds.

One reader for every place a number arrives as text, so that all of them accept the same forms (0.35, 1/3,
2e-3, with ASCII digits only: Python's `int` and `Fraction` also take Arabic-Indic and other Unicode digits)
and all of them refuse, with a reason, what exact arithmetic cannot afford: a literal longer than
`MAX_CHARS` (Python itself refuses integer text beyond 4,300 digits, with a ValueError deep in a library)
or an exponent beyond `MAX_EXPONENT`. This module imports nothing from the package.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

MAX_CHARS = 400  # characters in one number; 0.1234... with 400 digits is more precision than any input needs
MAX_EXPONENT = 1000  # |e| in 1e-400: an exact value of at most a few thousand bits
MAX_BITS = 3000  # numerator and denominator of an exact value (the spec's own limit on costs)

_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE]([+-]?[0-9]+))?")
_RATIO = re.compile(r"[+-]?[0-9]+/[0-9]+")
FORMS = "0.35, 1/3 or 2e-3"


class NumberError(ValueError):
    """Not a number this tool reads exactly, with the reason (callers add where it was)."""


def exact(text: str, fractions: bool = True) -> Fraction:
    """The exact rational that decimal (or, with `fractions`, a/b) text denotes."""
    if not isinstance(text, str):
        raise NumberError(f"{shown(text)} is not text")
    t = text.strip()
    if len(t) > MAX_CHARS:
        raise NumberError(f"a number of {len(t)} characters is longer than the {MAX_CHARS} this tool reads")
    decimal = _DECIMAL.fullmatch(t)
    if decimal is None and not (fractions and _RATIO.fullmatch(t)):
        raise NumberError(f"{shown(text)} is not a number (write {FORMS if fractions else '0.35 or 2e-3'}, "
                          "with the digits 0-9)")
    if decimal is not None and decimal.group(1) is not None and abs(int(decimal.group(1))) > MAX_EXPONENT:
        raise NumberError(f"{shown(text)}: the exponent is beyond ±{MAX_EXPONENT}")
    try:
        value = Fraction(t)
    except ZeroDivisionError:
        raise NumberError(f"{shown(text)} divides by zero") from None
    if value.numerator.bit_length() > MAX_BITS or value.denominator.bit_length() > MAX_BITS:
        raise NumberError(f"{shown(text)} is too large for exact arithmetic (more than {MAX_BITS} bits)")
    return value


def exact_value(value) -> Fraction:
    """An exact rational from what a Python caller passes: text as above, an int, a Fraction, or a float read
    as the shortest decimal that prints it (0.1 is 1/10, as if typed). Bools, NaN, infinities, other types and
    numbers beyond `MAX_BITS` are refused."""
    if isinstance(value, str):
        return exact(value)
    if isinstance(value, bool) or type(value).__name__ in ("bool_", "bool"):  # numpy's bool is no int
        raise NumberError(f"{value!r} is a truth value, not a number")
    if isinstance(value, Fraction) or (hasattr(value, "numerator") and hasattr(value, "denominator")
                                       and not isinstance(value, float)):  # int, numpy integers, Fraction
        try:
            result = Fraction(int(value.numerator), int(value.denominator))
        except (TypeError, ValueError, ZeroDivisionError):
            raise NumberError(f"a {type(value).__name__} that is not a rational number") from None
    elif isinstance(value, float) or type(value).__name__ in ("float16", "float32", "float64", "longdouble"):
        as_float = float(value)
        if not math.isfinite(as_float):
            raise NumberError(f"{as_float!r} is not a finite number")
        result = Fraction(repr(as_float) if isinstance(value, float) else str(value))  # numpy float32: its own shortest
    else:
        raise NumberError(f"a {type(value).__name__} is not a number")
    if result.numerator.bit_length() > MAX_BITS or result.denominator.bit_length() > MAX_BITS:
        raise NumberError(f"a number of more than {MAX_BITS} bits is too large for exact arithmetic")
    return result


def positive_seconds(text: str, maximum: float) -> float:
    """A positive, finite time bound no larger than `maximum` seconds (solvers take milliseconds as int32)."""
    try:
        value = float(exact(text, fractions=False))
    except (NumberError, OverflowError):
        raise NumberError(f"{shown(text)} is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0 or value > maximum:
        raise NumberError(f"{shown(text)} seconds: expected a number above 0 and at most {maximum:g}")
    return value


def shown(text) -> str:
    """A user's text for a message: repr, cut short when long (a 5,000-digit number is not echoed)."""
    try:
        shown = repr(text)
    except ValueError:  # Python refuses to print an integer of more than 4,300 digits
        return f"an integer of {text.bit_length()} bits" if isinstance(text, int) else f"a {type(text).__name__}"
    return shown if len(shown) <= 60 else shown[:40] + "...'" + f" ({len(str(text))} characters)"
