"""The functions of the formula language on exact values (`algebra`): the reciprocal, powers and roots, log and
exp, each in canonical form where one exists (a root of a rational as primes to fractional powers, the log of a
rational as a combination of logs of primes), else as an atom over the irrational value; undefined arguments (a
division by zero, a log of a number <= 0, a negative number to a fractional power) are Malformed at their place.
"""

from fractions import Fraction

from verifier_check.algebra import NESTED, ONE, ZERO, Value, const, factor, normal, rational_power
from verifier_check.bounds import sign
from verifier_check.limits import MAX_EXP, MAX_POWER, MAX_ROOT, Malformed, Undecided, sized


def nested(function, value, parameter=None):
    """The atom of a function of an irrational value, as a value."""
    atom = f"{function}({value.key()}" + (f",{parameter})" if parameter is not None else ")")
    NESTED.setdefault(atom, (function, value, parameter))
    return Value({((atom, 1),): Fraction(1)})


def radical_only(value):
    """(c, monomial) when the value is one term over roots and exponentials (c > 0), else None."""
    if len(value.terms) != 1:
        return None
    (m, c), = value.terms.items()
    return (c, m) if c > 0 and all(a[0] == "#" or a.startswith("exp:") for a, _ in m) else None


def inverse(value, where):
    """1 / value; a division by zero is Malformed (the spec's formula is undefined there)."""
    q = value.rational()
    if q is not None:
        if not q:
            raise Malformed(f"{where}: a division by zero")
        return const(1 / q)
    if value.symbolic():
        raise Undecided(f"{where}: a parameter in a divisor, beyond the checker's polynomials")
    one = radical_only(value) or radical_only(-value)
    if one is not None:
        c, m = one
        coef, mono = normal({a: -e for a, e in m})
        return Value({mono: sized(coef / c) * (1 if value.terms[m] > 0 else -1)})
    if sign(value, where) == 0:
        raise Malformed(f"{where}: a division by zero")
    return nested("inv", value)


def power(base, e, where):
    """base ** e for a rational exponent e (integer, or a root of a value >= 0)."""
    if abs(e) > MAX_POWER:
        raise Malformed(f"{where}: the exponent {e} is beyond the checker's bound ({MAX_POWER})")
    if e.denominator == 1:
        n, out, square = abs(int(e)), ONE, base
        while n:
            if n & 1:
                out = out * square
            n >>= 1
            if n:
                square = square * square
        return inverse(out, where) if e < 0 else out
    if e.denominator > MAX_ROOT:
        raise Malformed(f"{where}: a root of order {e.denominator}, beyond the checker's bound ({MAX_ROOT})")
    if base.symbolic():
        raise Undecided(f"{where}: a fractional power of an expression in the parameters")
    s = sign(base, where)
    if s < 0:
        raise Malformed(f"{where}: a negative number to a fractional power")
    if s == 0:
        if e < 0:
            raise Malformed(f"{where}: 0 to a negative power")
        return ZERO
    q = base.rational()
    if q is not None:
        return rational_power(q, e)
    one = radical_only(base)
    if one is not None:
        c, m = one
        coef, mono = normal({a: x * e for a, x in m})
        return rational_power(c, e) * Value({mono: coef})
    return nested("pow", base, e)


def log(value, where):
    """The natural logarithm of a value > 0."""
    if value.symbolic():
        raise Undecided(f"{where}: the log of an expression in the parameters")
    if sign(value, where) <= 0:
        raise Malformed(f"{where}: the log of a number <= 0")
    one = radical_only(value)
    if one is None:
        return nested("log", value)
    c, m = one
    out = ZERO
    for part, s in ((c.numerator, 1), (c.denominator, -1)):
        for p, k in factor(part).items():
            out = out + Value({((f"log:{p}", 1),): Fraction(s * k)})
    for a, e in m:
        if a.startswith("exp:"):
            out = out + const(Fraction(a[4:]))
        else:
            out = out + Value({((f"log:{a[1:]}", 1),): Fraction(e)})
    return out


def exp(value, where):
    """e to the power value."""
    if value.symbolic():
        raise Undecided(f"{where}: the exponential of an expression in the parameters")
    q = value.rational()
    if q is not None:
        if abs(q) > MAX_EXP:
            raise Malformed(f"{where}: exp of a value beyond {MAX_EXP} in size, the checker's bound")
        return Value({((f"exp:{q}", 1),): Fraction(1)}) if q else ONE
    return nested("exp", value)
