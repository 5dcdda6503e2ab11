"""Points of a symbolic parameter's range: the admissible interval from the assumptions, whether a value
meets them (certified signs, also at irrational values), and a simple rational strictly inside an interval.
Used by the symbolic pipeline (`symbolic_optimality`), and shared with the calibrations of `designing`
(`designing.calibrate`, `designing.power_mean_calibration`), which sit above this layer.
"""

from __future__ import annotations

from fractions import Fraction

import flint

from verifier.analysis.zeros import simplest
from verifier.errors import SpecError
from verifier.formula import certified
from verifier.formula.certified import PRECISIONS
from verifier.formula.enclose import Unsupported, enclose
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import Scheme
from verifier.spec.model import Spec


def admits(condition, theta, value) -> bool | None:
    """An assumption at θ = value, decided by certified signs (None: undecided)."""
    if value.is_Rational:
        at = condition.subs(theta, value)
        return True if at is sp.true else False if at is sp.false else None
    if isinstance(condition, (sp.And, sp.Or)):
        parts = [admits(c, theta, value) for c in condition.args]
        if isinstance(condition, sp.And):
            return False if False in parts else None if None in parts else True
        return True if True in parts else None if None in parts else False
    if isinstance(condition, sp.Not):
        inner = admits(condition.args[0], theta, value)
        return None if inner is None else not inner
    if not isinstance(condition, sp.core.relational.Relational):
        return None
    sign = certified.compare(condition.lhs.subs(theta, value), condition.rhs.subs(theta, value)).value
    if sign is None:
        return None
    return {">=": sign >= 0, ">": sign > 0, "<=": sign <= 0, "<": sign < 0, "==": sign == 0, "!=": sign != 0}[
        condition.rel_op]


def strictly_between(a, x, b) -> bool:
    """Whether a < x < b, certified (a or b None: unbounded on that side); False when a comparison is undecided."""
    return (a is None or certified.compare(a, x).value == -1) and (b is None or certified.compare(x, b).value == -1)


def inside(a, b) -> sp.Rational:
    """A simple rational strictly between a and b (either may be None: unbounded), or `a` itself when none is
    certified to be (ends closer than 2^-4096, or not enclosable): callers check with `strictly_between`."""
    if a is None and b is None:
        return sp.Integer(0)
    if a is None:
        return sp.floor(b) - 1
    if b is None:
        return sp.floor(a) + 1
    for precision in PRECISIONS:  # the ends' enclosures narrowed until they part
        try:
            lo, hi = rational_below(b, precision), rational_above(a, precision)
        except Unsupported:
            break
        if hi < lo:
            middle = simplest(Fraction(int(hi.p), int(hi.q)), Fraction(int(lo.p), int(lo.q)))
            return sp.Rational(middle.numerator, middle.denominator)
    # no certified point: a is returned, which no caller takes as inside (each checks `strictly_between` and
    # says that no rational point was proved to lie between the ends)
    return a


def rational_above(x, precision: int = PRECISIONS[0]) -> sp.Rational:
    """x when it is rational, else a rational certified above x: the upper end of an interval enclosure."""
    return x if isinstance(x, sp.Rational) else _bound(x, +1, precision)


def rational_below(x, precision: int = PRECISIONS[0]) -> sp.Rational:
    """x when it is rational, else a rational certified below x: the lower end of an interval enclosure."""
    return x if isinstance(x, sp.Rational) else _bound(x, -1, precision)


def _bound(x, side: int, precision: int) -> sp.Rational:
    """An end of an enclosure of x (side +1: above, -1: below), re-checked by a certified comparison; at higher
    precisions when the first is too wide or fails. Raises Unsupported when x cannot be enclosed."""
    for prec in [p for p in PRECISIONS if p >= precision]:
        ball = enclose(x, prec)
        if not ball.is_finite():
            continue
        try:
            with flint.ctx.workprec(prec):  # the end rounded outward at this precision, not the context's 53 bits
                mantissa, exponent = (ball.upper() if side > 0 else ball.lower()).man_exp()
        except ValueError:  # not an exact dyadic end: try a finer enclosure
            continue
        mantissa, exponent = int(mantissa), int(exponent)
        end = sp.Integer(mantissa * 2**exponent) if exponent >= 0 else sp.Rational(mantissa, 2**-exponent)
        if certified.compare(end, x).value == side:
            return end
    raise Unsupported(f"{x} could not be bounded by a certified rational")


def admissible_range(scheme: Scheme, theta) -> tuple[sp.Expr | None, sp.Expr | None]:
    """The assumptions on θ as one interval [low, high] (None: unbounded); open ends are handled by the
    point verdicts (an end excluded by a strict assumption makes the point undefined, never a verdict)."""
    low, high = None, None
    for condition, text in scheme.assumptions:
        if not condition.has(theta):
            continue
        try:  # a chained "0 <= r <= 1" is a conjunction: the intersection of its parts' solutions
            solved = sp.S.Reals
            for part in condition.args if isinstance(condition, sp.And) else (condition,):
                if part.has(theta):
                    solved = solved.intersect(sp.solve_univariate_inequality(part, theta, relational=False))
        except (AttributeError, NotImplementedError, TypeError, ValueError):
            solved = None
        if not isinstance(solved, sp.Interval):
            raise spec_error(scheme.spec, "assume", f"the assumption {text!r} does not give one interval of {theta}",
                         "bounds such as 'r >= 0' and 'r <= 1'")
        if solved.start.is_finite and (low is None or _above(scheme, solved.start, low)):
            low = solved.start
        if solved.end.is_finite and (high is None or _above(scheme, high, solved.end)):
            high = solved.end
    if low is not None and high is not None and _above(scheme, low, high):
        raise spec_error(scheme.spec, "assume", f"the assumptions admit no value of {theta} (they bound it below by "
                         f"{low} and above by {high})", f"assumptions that some value of {theta} meets")
    return low, high


def _above(scheme: Scheme, a, b) -> bool:
    """a > b between two bounds of the assumptions, by certified signs (never sympy's own comparison, which may
    fall back to floats); bounds too close to order are refused with the spec's location."""
    sign = certified.compare(a, b).value
    if sign is None:
        raise spec_error(scheme.spec, "assume", f"the bounds {a} and {b} of the assumptions could not be ordered",
                         "bounds that differ by more than 2^-4096, or rational bounds")
    return sign > 0


def spec_error(spec: Spec, key: str, message: str, expected: str) -> SpecError:
    """A SpecError at the spec's `key` (or at the file's start), with the message and what was expected."""
    mark = spec.marks.get(key) or spec.marks.get("")
    return SpecError.at(message, mark, file=spec.path, key=key, expected=expected)
