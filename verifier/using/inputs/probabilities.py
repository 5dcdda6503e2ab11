"""Probabilities written by a user, read exactly: a distribution ('h=0.1,b=0.3,n=0.6'), probability intervals
('h=0:0.2,b=0.3:0.4') or one vertex of a credal set. Decimals are exact (0.1 is 1/10), as in specs; a class
left out has probability 0 (intervals: [0, 1]). A distribution must sum to 1 within 1e-6, and is then divided by
its exact sum: the rule of every entry point (files, arrays, typed rows). Anything else is a usage error that
quotes the text."""

from __future__ import annotations

from fractions import Fraction

from verifier import numbers
from verifier.errors import UsageError, few_of


def exact_number(text: str, where: str) -> Fraction:
    """An exact rational from '0.35', '1/3' or '2e-3' (no floats, no nan/inf; bounded length and exponent)."""
    try:
        return numbers.exact(text)
    except numbers.NumberError as exc:
        raise UsageError(f"{where}: {exc}") from None


def _pairs(text: str, option: str, classes: tuple[str, ...]) -> list[tuple[int, str]]:
    if not text or not text.strip():
        raise UsageError(f"{option}: empty; write {_example(classes, option)}")
    out, seen = [], set()
    for part in text.split(","):
        name, sep, value = part.partition("=")
        name = name.strip()
        if not sep:
            raise UsageError(f"{option} {text!r}: {part.strip()!r} is not CLASS=VALUE; "
                             f"write {_example(classes, option)}")
        if name not in classes:
            raise UsageError(f"{option}: unknown class {name!r}; the spec's classes are {few_of(classes, name)}")
        if name in seen:
            raise UsageError(f"{option}: class {name!r} is given twice")
        seen.add(name)
        out.append((classes.index(name), value))
    return out


def class_values(text: str, option: str, classes: tuple[str, ...]) -> list[tuple[int, str]]:
    """(class index, value text) of each CLASS=VALUE in `text`, refused (located) when malformed, unknown or
    given twice."""
    return _pairs(text, option, classes)


def _example(classes: tuple[str, ...], option: str) -> str:
    if option == "--intervals":
        return ",".join(f"{c}=0:1" for c in classes[:3])
    return ",".join(f"{c}={Fraction(1, len(classes)) if len(classes) <= 3 else 0}" for c in classes[:3])


def distribution(text: str, classes: tuple[str, ...], option: str = "--p") -> list[Fraction]:
    """The exact distribution 'h=0.1,b=0.3,n=0.6' writes (a class left out: 0), refused unless it sums to 1
    within 1e-6 with no negative value (then divided by its exact sum)."""
    return checked(distribution_values(text, classes, option), classes, option)


def distribution_values(text: str, classes: tuple[str, ...], option: str = "--p") -> list[Fraction]:
    """The exact values 'h=0.1,b=0.3,n=0.6' gives each class (a class left out: 0), not yet checked."""
    p = [Fraction(0)] * len(classes)
    for i, value in _pairs(text, option, classes):
        p[i] = exact_number(value, f"{option} {classes[i]}")
    return p


def normalised(p: list[Fraction], classes: tuple[str, ...], where: str) -> tuple[list[Fraction], Fraction]:
    """`p` divided by its exact sum, and that sum, when it is a distribution by the one rule of every entry point
    (a file's rows, an array's, a typed one): no negative value and a sum within 1e-6 of 1; else a located
    UsageError."""
    negative = [classes[i] for i, x in enumerate(p) if x < 0]
    if negative:
        raise UsageError(f"{where}: negative probability for {', '.join(negative)}")
    total = sum(p, Fraction(0))
    if abs(total - 1) > ROW_TOLERANCE:
        raise UsageError(f"{where}: the probabilities sum to {total_text(total)}; expected non-negative "
                         "probabilities summing to 1 (within 1e-6)")
    return (p if total == 1 else [x / total for x in p]), total


def checked(p: list[Fraction], classes: tuple[str, ...], where: str) -> list[Fraction]:
    """`p` as a distribution (`normalised`: divided by its exact sum, within 1e-6 of 1)."""
    return normalised(p, classes, where)[0]


def intervals(text: str, classes: tuple[str, ...]) -> list[tuple[Fraction, Fraction]]:
    """The exact probability intervals 'h=0:0.2,b=0.3:0.4' write (a class left out: [0, 1]), refused unless each
    lies in [0, 1] and some distribution fits them all."""
    bounds = [(Fraction(0), Fraction(1))] * len(classes)
    for i, value in _pairs(text, "--intervals", classes):
        low, sep, high = value.partition(":")
        if not sep:
            raise UsageError(f"--intervals {classes[i]}={value.strip()!r}: expected LOW:HIGH, e.g. 0.3:0.4")
        lo, hi = exact_number(low, f"--intervals {classes[i]}"), exact_number(high, f"--intervals {classes[i]}")
        if not 0 <= lo <= hi <= 1:
            raise UsageError(f"--intervals {classes[i]}: [{lo}, {hi}] is not an interval inside [0, 1]")
        bounds[i] = (lo, hi)
    if sum(lo for lo, _ in bounds) > 1 or sum(hi for _, hi in bounds) < 1:
        raise UsageError("--intervals: no distribution fits (the lower bounds sum above 1 or the upper bounds "
                         "below 1)")
    return bounds


ROW_TOLERANCE = Fraction(1, 10**6)


def total_text(x: Fraction) -> str:
    """An exact sum for a message: as a fraction when short, else in decimals that keep its distance to 1."""
    if len(str(x)) <= 40:
        return str(x)
    from decimal import Context

    context = Context(prec=6, Emin=-10**9, Emax=10**9)
    gap = x - 1
    if gap and abs(gap) < Fraction(1, 10**6):  # 1 + 1e-400 must not print as 1
        shown = context.divide(context.create_decimal(abs(gap.numerator)), context.create_decimal(gap.denominator))
        return f"1 {'+' if gap > 0 else '-'} {shown:.3E}"
    return f"{context.divide(context.create_decimal(x.numerator), context.create_decimal(x.denominator)):.6G}"
