"""Certified signs of exact numbers: the only place where numbers are compared for a verdict.

Order of methods: exact rationals; arb intervals that tighten until 0 is excluded; an exact zero test
(structural, minimal polynomial for algebraic numbers, log-expansion rewrites) so that ties are recognised
as ties. When nothing decides, the answer is `None` with the reason, and the caller reports `unknown`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import flint

from verifier.formula.enclose import Unsupported, enclose
from verifier.lazy_sympy import sympy as sp

PRECISIONS = (64, 256, 1024, 4096)


@dataclass(frozen=True)
class Sign:
    """A certified sign: its `value` (None when undecided), the `method` that decided it, and why not when undecided."""

    value: int | None  # -1, 0, 1, or None when undecided
    method: str  # "rational", "interval", "exact-zero", or "undecided"
    reason: str = ""


def compare(a: sp.Expr, b: sp.Expr) -> Sign:
    """The certified sign of a - b."""
    if a is b or (hash(a) == hash(b) and a == b):  # sympy's == sympifies: ask the hash first
        return Sign(0, "rational" if getattr(a, "is_Rational", False) else "exact-zero")
    if a.is_Rational and b.is_Rational:
        d = a - b
        return Sign((d.p > 0) - (d.p < 0), "rational")
    ba, bb = ball(a), ball(b)
    if ba is not None and bb is not None:  # cheap separation first; the exact path only when they overlap
        if ba > bb:
            return Sign(1, "interval")
        if ba < bb:
            return Sign(-1, "interval")
    return sign(a - b)


@lru_cache(maxsize=200_000)
def sign(expr: sp.Expr) -> Sign:
    """The certified sign of one exact real number."""
    if expr.is_Rational:
        return Sign((expr.p > 0) - (expr.p < 0), "rational")
    if expr.free_symbols:
        return Sign(None, "undecided", f"depends on parameters {sorted(map(str, expr.free_symbols))}")
    try:
        for prec in PRECISIONS:
            ball = enclose(expr, prec)
            if not ball.is_finite():
                return Sign(None, "undecided", f"{expr} has no finite enclosure")
            if ball > 0:
                return Sign(1, "interval")
            if ball < 0:
                return Sign(-1, "interval")
    except Unsupported as exc:
        return Sign(None, "undecided", str(exc))
    if is_exact_zero(expr):
        return Sign(0, "exact-zero")
    return Sign(None, "undecided",
                f"{expr} lies within 2^-{PRECISIONS[-1]} of 0 and no exact test proves it is 0")


def is_exact_zero(expr: sp.Expr) -> bool:
    """True only when a value-preserving rewrite turns `expr` into 0 (never a numerical judgement)."""
    candidates = [sp.expand(expr)]
    if _is_algebraic(expr):
        x = sp.Dummy("x")
        try:
            if sp.minimal_polynomial(expr, x) == x:
                return True
        except (NotImplementedError, ValueError):
            pass
    for rewrite in (lambda e: sp.expand_log(e, factor=True), sp.logcombine, sp.radsimp, sp.powsimp):
        try:
            candidates.append(sp.expand(rewrite(candidates[0])))
        except (NotImplementedError, ValueError, TypeError):
            continue
    return any(c == 0 for c in candidates) or _log_tie(candidates[0])


def _log_tie(expr: sp.Expr) -> bool:
    """a − b = 0 with a, b > 0 by their logs: log a − log b, each log of a product or power expanded over bases
    certified positive, as N / D over products of logs; a factor of N that combines to log w with w = 1 proved
    (minimal polynomial) makes it 0. E.g. ((1 + √5)/4)^(log 2 / log(√5 − 1)) = 1/2, since ((1 + √5)/4)(√5 − 1) = 1:
    the ties of power means at the breakpoints `analysis.exp_sums` finds, s = log u / log g."""
    terms = sp.Add.make_args(expr)
    if len(terms) != 2:
        return False
    a, b = terms if _positive(terms[0]) else terms[::-1]
    if not (_positive(a) and _positive(-b)):
        return False
    try:
        a, b = _rational_powers(a), _rational_powers(-b)  # 4^(log u / log 2) = exp(2 log u) = u^2
        t = sp.expand_log(sp.log(a), force=True) - sp.expand_log(sp.log(b), force=True)
        if not all(_positive(node.args[0]) for node in t.atoms(sp.log)):
            return False  # force=True splits logs as if every base were positive: only then is it exact
        numerator, denominator = sp.fraction(sp.together(t))
        if not (_positive(denominator) or _positive(-denominator)):
            return False
        for factor, _ in sp.factor_list(numerator)[1]:
            combined = sp.logcombine(factor, force=True)
            if combined == 0 or (isinstance(combined, sp.log) and _is_algebraic(combined.args[0]) and
                                 sp.minimal_polynomial(combined.args[0] - 1, sp.Dummy("x")).is_Symbol):
                return True
    except (NotImplementedError, ValueError, TypeError, sp.PolynomialError):
        return False
    return False


def _rational_powers(expr: sp.Expr) -> sp.Expr:
    """q^e = exp(e·log q) for a positive rational q (log q split over its primes, which is exact)."""
    def rational_power(n) -> bool:
        return isinstance(n, sp.Pow) and n.base.is_Rational and n.base > 0 and not n.exp.is_Rational

    return expr.replace(rational_power, lambda n: sp.exp(sp.expand_log(n.exp * sp.log(n.base), force=True)))


def _positive(expr: sp.Expr) -> bool:
    value = ball(expr)
    return value is not None and value > 0


def _is_algebraic(expr: sp.Expr) -> bool:
    nodes = sp.preorder_traversal(expr)
    for node in nodes:
        if isinstance(node, (sp.Add, sp.Mul, sp.Rational)):
            continue
        if isinstance(node, sp.CRootOf):  # a real algebraic number: minimal_polynomial handles it
            nodes.skip()
            continue
        if isinstance(node, sp.Pow) and node.exp.is_Rational:
            continue
        return False
    return True


@lru_cache(maxsize=500_000)
def ball(expr: sp.Expr):
    """A cached 64-bit enclosure of one cell (None when it cannot be enclosed)."""
    try:
        value = enclose(expr, PRECISIONS[0])
    except Unsupported:
        return None
    return value if value.is_finite() else None


def to_float(expr: sp.Expr) -> float:
    """A float near the value, for searching only (LP data, plot coordinates); never for a verdict."""
    try:
        if expr.is_Rational:
            return float(Fraction(int(expr.p), int(expr.q)))
        b = ball(expr)
        return float(b.mid()) if b is not None else float(sp.N(expr, 17))
    except OverflowError:  # a search hint only: saturate, the exact checks still decide
        return float("inf") if certified_positive(expr) else float("-inf")


def certified_positive(expr: sp.Expr) -> bool:
    """Whether the value is certified > 0 (False when it is <= 0 or undecided)."""
    return sign(expr).value == 1


def linear_sign(terms: list[tuple[sp.Rational, sp.Expr]]) -> Sign:
    """The certified sign of Σ coefficient·value, trying exact rationals, then cached balls, then `sign`."""
    if all(v.is_Rational for _, v in terms):
        total = sum((Fraction(int(k.p), int(k.q)) * Fraction(int(v.p), int(v.q)) for k, v in terms), Fraction(0))
        return Sign((total > 0) - (total < 0), "rational")
    balls = [ball(v) for _, v in terms]
    if all(b is not None for b in balls):
        total = sum((flint.arb(flint.fmpq(int(k.p), int(k.q))) * b for (k, _), b in zip(terms, balls)),
                    flint.arb(0))
        if total > 0:
            return Sign(1, "interval")
        if total < 0:
            return Sign(-1, "interval")
    return sign(sp.Add(*[k * v for k, v in terms]))
