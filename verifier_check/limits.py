"""The checker's answers besides "checked", its bounds on every input, and the helpers that read one JSON value.

A claim is checked, `Refuted` (false, or its evidence does not prove it) or `Undecided` (not covered: this
checker cannot decide it, and says why). A file that is not a certificate, or asks for more than the bounds
below, is `Malformed` (exit 2, with its place); running past the time budget is `OverBudget`, a Malformed
that names the place reached. Every loop whose length a certificate chooses calls `tick`.
"""

import json
import math
import time
from fractions import Fraction

# digits of a rational above and below the line; bits of any value; integer exponents; root orders; the
# largest exp argument; nodes and depth of one formula; classes; sets of a family; cells the checker derives
MAX_DIGITS, MAX_BITS, MAX_POWER, MAX_ROOT, MAX_EXP = 1000, 12000, 1000, 100, 10_000
MAX_FORMULA_CHARS, MAX_FORMULA_NODES, MAX_FORMULA_DEPTH, MAX_LITERAL_DIGITS = 5000, 2000, 60, 300
MAX_CLASSES, MAX_SETS, MAX_CELLS, MAX_STEPS = 1000, 100_000, 5_000_000, 60_000_000
MAX_TERMS = 20_000  # terms of one exact value (a sum of radicals, a polynomial in the parameters)
LIMIT = 1 << MAX_BITS
DEADLINE, PLACE = [math.inf], ["certificate"]  # the time budget (--time-limit) and the place being checked


class Malformed(Exception):
    """Not a certificate, or beyond the checker's bounds: exit 2, with the place."""


class Refuted(Exception):
    """A claim is false, or its evidence does not prove it."""


class Undecided(Exception):
    """A claim this checker cannot decide: not covered, with the reason."""


class OverBudget(Malformed):
    """The check ran past its time budget: exit 2, with the place it had reached."""


def tick(where=None):
    """Stop at the time budget (called in every loop whose length the certificate or the spec chooses)."""
    if where:
        PLACE[0] = where
    if time.monotonic() > DEADLINE[0]:
        raise OverBudget(f"{PLACE[0]}: the check ran past its time budget (--time-limit)")


def sized(q, where=None):
    """A rational of at most MAX_BITS bits above and below (so that no value grows without end)."""
    if max(abs(q.numerator).bit_length(), q.denominator.bit_length()) > MAX_BITS:
        raise Malformed(f"{where or PLACE[0]}: a value beyond the checker's bound of {MAX_BITS} bits")
    return q


def rat(text, where):
    """A rational written "p/q" or "n" (no decimals or floats: exactness is the point)."""
    num, slash, den = text.partition("/") if isinstance(text, str) else ("", "", "")
    if max(len(num.lstrip("-")), len(den)) > MAX_DIGITS:
        raise Malformed(f"{where}: a rational of {len(text):,} characters, beyond the checker's bound of "
                        f"{MAX_DIGITS} digits above and below the line")
    digits = lambda s: s.isascii() and s.isdigit()  # noqa: E731 (ASCII only: int() reads other digits too)
    if not digits(num[1:] if num.startswith("-") else num) or slash and (not digits(den) or not int(den)):
        bad(where, 'a rational written "p/q" or "n"', text)
    return Fraction(int(num), int(den) if slash else 1)


def field(obj, key, kind, where):
    """obj[key], of type `kind` and never a bool; Malformed naming the place otherwise."""
    if not isinstance(obj, dict) or key not in obj:
        raise Malformed(f"{where}: missing key {key!r}")
    if not isinstance(obj[key], kind) or isinstance(obj[key], bool):
        bad(f"{where}.{key}", getattr(kind, "__name__", "a value"), obj[key])
    return obj[key]


def bad(where, expected, got):
    """Raise Malformed: at `where`, expected this, got that (as JSON, cut to 80 characters)."""
    raise Malformed(f"{where}: expected {expected}, got {json.dumps(got, default=repr)[:80]}")


def count(n, noun):
    """'1 set', '3 sets'."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def show(q, exact=True):
    """A rational in a message: exactly (or as a float) when short enough to print, else its size."""
    if max(abs(q.numerator).bit_length(), q.denominator.bit_length()) <= 3000 and (exact or abs(q) < 1 << 1000):
        return str(q) if exact else str(float(q))
    return f"(a rational of {abs(q.numerator).bit_length() + q.denominator.bit_length()} bits)"
