"""The cells of a certificate (docs/certificates.md): an exact rational as a "p/q" string, or an irrational cell
as its defining expression in a small grammar with a rational enclosure.

The grammar is JSON prefix lists, so that the standalone checker parses it with `json` alone:
  "p/q" | "n"                 a rational (an integer)
  ["+", e1, e2, ...]          a sum
  ["*", e1, e2, ...]          a product
  ["^", e, n]                 an integer power n (negative: a reciprocal)
  ["root", e, n]              the real n-th root (n >= 2) of e >= 0
  ["log", e]                  the natural logarithm of e > 0
  ["exp", e]                  the exponential
A rational power e**(p/q) is ["^", ["root", e, q], p]. Anything else (pi, trigonometry, a symbol) has no
encoding: the cell is written with "expr": null and the claims that read it are not covered.
"""

from __future__ import annotations

from fractions import Fraction

from verifier.errors import DoesNotApply, UsageError
from verifier.lazy_sympy import sympy as sp

DIGITS = 40  # the enclosure's precision; the checker derives its own bounds and checks they lie inside it


class NotEncodable(DoesNotApply):
    """A cell outside the certificate grammar."""


def rational(value) -> str:
    """An exact rational as "p/q" ("n" for an integer)."""
    q = Fraction(int(value.p), int(value.q)) if isinstance(value, sp.Rational) else Fraction(value)
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def cell(value: sp.Expr):
    """A cell of the certificate: "p/q", or {"expr": tree, "enclosure": [low, high]} (expr null when the value
    is outside the grammar or beyond the checker's bounds: its claims are then not covered, never malformed)."""
    import verifier_check

    if value.is_Rational and max(len(str(abs(value.p))), len(str(value.q))) <= verifier_check.MAX_DIGITS:
        return rational(value)
    try:
        tree = encode(value)
        verifier_check.bounds(verifier_check.grammar(tree, "cell"), verifier_check.BITS[0], "cell")
    except (NotEncodable, verifier_check.Malformed):
        tree = None
    except verifier_check.Undecided:  # a sign its bounds cannot show at this precision: the checker may at more
        pass
    ends = enclosure(value)
    if any(max(map(len, e.lstrip("-").split("/"))) > verifier_check.MAX_DIGITS for e in ends):
        raise UsageError(f"--certificate: the cell {str(value)[:60]} is too large or too small to write within the "
                         f"checker's bound of {verifier_check.MAX_DIGITS:,} digits")
    return {"expr": tree, "enclosure": ends}


def encode(value: sp.Expr):
    """The grammar's tree of a sympy expression (NotEncodable outside the grammar)."""
    if value.is_Rational:
        return rational(value)
    if value is sp.E:
        return ["exp", "1"]
    if isinstance(value, sp.Add):
        return ["+", *(encode(a) for a in value.args)]
    if isinstance(value, sp.Mul):
        return ["*", *(encode(a) for a in value.args)]
    if isinstance(value, sp.Pow) and value.exp.is_Rational:
        base, exp = encode(value.base), value.exp
        if exp.q == 1:
            return ["^", base, int(exp.p)]
        rooted = ["root", base, int(exp.q)]
        return rooted if exp.p == 1 else ["^", rooted, int(exp.p)]
    if isinstance(value, sp.log) and len(value.args) == 1:
        return ["log", encode(value.args[0])]
    if isinstance(value, sp.exp):
        return ["exp", encode(value.args[0])]
    raise NotEncodable(str(value))


def enclosure(value: sp.Expr) -> list[str]:
    """Rational bounds around the value, widened well beyond the evaluation's error (the checker re-derives
    its own bounds and refutes an enclosure that does not contain them)."""
    approx = sp.Rational(sp.N(value, DIGITS + 10))
    slack, scale = (abs(approx) + 1) * sp.Rational(1, 10 ** DIGITS), 10 ** (DIGITS + 10)  # ends on a decimal grid
    return [rational(sp.Rational(sp.floor((approx - slack) * scale), scale)),
            rational(sp.Rational(sp.ceiling((approx + slack) * scale), scale))]
