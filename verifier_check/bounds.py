"""Rational bounds of exact values (`algebra`) and their signs: each atom bounded in integers (`reals`), each
monomial as a product of intervals, each value as an integer sum over its coefficients' common denominator,
2^-64, then 2^-256, then 2^-1024 wide; a sign those bounds cannot show is Undecided, never guessed.
"""

import math
from fractions import Fraction

from verifier_check.algebra import NESTED
from verifier_check.limits import LIMIT, MAX_BITS, MAX_EXP, Malformed, Undecided, tick
from verifier_check.reals import exp_bounds, grid, log_bounds, root_bounds

BITS = (64, 256, 1024)
_BOUNDS, _SCALED = {}, {}


def atom_bounds(atom, b):
    """Rational bounds of one atom (to the first power), about 2^-b wide."""
    tick()
    if atom in _BOUNDS and _BOUNDS[atom][0] >= b:
        return _BOUNDS[atom][1]
    if atom[0] == "$":
        raise Undecided(f"the parameter {atom[1:]} has no value here")
    if atom.startswith("log:"):
        ends = log_bounds(Fraction(int(atom[4:])), b)
    elif atom.startswith("exp:"):
        ends = exp_bounds(Fraction(atom[4:]), b)
    elif atom in NESTED:
        function, inner, e = NESTED[atom]
        lo, hi = interval(inner, b + 16)
        if function == "inv":
            if lo <= 0 <= hi:
                raise Undecided("a reciprocal of a value not separated from 0")
            ends = (1 / hi, 1 / lo)
        elif function == "log":
            if lo <= 0:
                raise Undecided("a log of a value not proved > 0")
            ends = (log_bounds(lo, b)[0], log_bounds(hi, b)[1])
        elif function == "exp":
            if max(-lo, hi) > MAX_EXP:
                raise Undecided(f"exp of a value beyond {MAX_EXP} in size")
            ends = (exp_bounds(lo, b)[0], exp_bounds(hi, b)[1])
        elif function == "pow":
            if lo < 0:
                raise Undecided("a root of a value not proved >= 0")
            ends = tuple(sorted((rooted(lo, e, b)[0], rooted(hi, e, b)[1]))) if e > 0 else \
                tuple(sorted((rooted(hi, e, b)[0], rooted(lo, e, b)[1])))
        else:
            raise Undecided("a power mean whose exponent depends on the parameters has no bounds of its own")
    else:
        raise Undecided(f"no bounds for {atom[:60]}")
    ends = grid(*ends, b + 4)
    if max(abs(ends[0]), abs(ends[1])) > LIMIT:
        raise Malformed(f"a value beyond 2^{MAX_BITS}, the checker's bound")
    _BOUNDS[atom] = (b, ends)
    return ends


def rooted(x, e, b):
    """Bounds of x^e for a rational x >= 0 and a rational exponent e = a/c (x^a's c-th root)."""
    if x == 0:
        if e < 0:
            raise Undecided("0 to a negative power")
        return Fraction(0), Fraction(0)
    a, c = e.numerator, e.denominator
    if abs(a) * max(x.numerator.bit_length(), x.denominator.bit_length()) > 4 * MAX_BITS:
        raise Undecided("a power too large to bound")
    return root_bounds(x ** a, c, b)


def power_bounds(lo, hi, e):
    """Bounds of x^e on [lo, hi]: an integer e (any sign of x), or a fraction (x >= 0)."""
    if isinstance(e, Fraction) and e.denominator != 1:
        return rooted(lo, e, 64)[0], rooted(hi, e, 64)[1]
    e = int(e)
    ends = sorted((lo ** e, hi ** e))
    return (0 if e % 2 == 0 and lo < 0 < hi else ends[0]), ends[1]


def monomial_bounds(m, b):
    """Bounds of a monomial, each atom bounded at 2^-b."""
    lo = hi = Fraction(1)
    for atom, e in m:
        if atom[0] == "#":  # n^(a/c): bounded as one root
            a, z = rooted(Fraction(int(atom[1:])), e, b)
        else:
            a, z = power_bounds(*atom_bounds(atom, b), e)
        options = (lo * a, lo * z, hi * a, hi * z)
        lo, hi = grid(min(options), max(options), b + 8)
    return lo, hi


def monomial_scaled(m, s):
    """Integer bounds (L, H) of a monomial times 2^s (cached: a scheme has few distinct monomials)."""
    hit = _SCALED.get((m, s))
    if hit is None:
        lo, hi = monomial_bounds(m, s + 8)
        hit = _SCALED[m, s] = (math.floor(lo * (1 << s)), math.ceil(hi * (1 << s)))
    return hit


def scaled(value, b):
    """(L, H, S, D): the value lies in [L, H] / (D 2^S), in integers (D the coefficients' common denominator)."""
    extra = max((abs(q.numerator).bit_length() for q in value.terms.values()), default=0) + \
        len(value.terms).bit_length()
    s, d = b + extra, math.lcm(*(q.denominator for q in value.terms.values())) if value.terms else 1
    low = high = 0
    for m, q in value.terms.items():
        k = q.numerator * (d // q.denominator)
        if not m:
            low, high = low + (k << s), high + (k << s)
            continue
        a, z = monomial_scaled(m, s)
        low, high = (low + k * a, high + k * z) if k > 0 else (low + k * z, high + k * a)
    return low, high, s, d


def interval(value, b):
    """Rational bounds of a value, about 2^-b wide when its coefficients are small."""
    low, high, s, d = scaled(value, b)
    return Fraction(low, d << s), Fraction(high, d << s)


def sign(value, where):
    """-1, 0 or 1: exact where no atom is left, else once bounds exclude 0; Undecided otherwise."""
    q = value.rational()
    if q is not None:
        return (q > 0) - (q < 0)
    if value.symbolic():
        raise Undecided(f"{where}: a sign that depends on the parameters")
    for b in BITS:
        low, high, _, _ = scaled(value, b)
        if low > 0 or high < 0:
            return 1 if low > 0 else -1
    raise Undecided(f"{where}: the bounds of its irrational terms do not separate it from 0")


def quick(value):
    """Integer bounds in units of 2^-64, or None: a fast first try before exact forms."""
    try:
        lo, hi = interval(value, BITS[0])
    except Undecided:
        return None
    return math.floor(lo * (1 << 64)), math.ceil(hi * (1 << 64))
