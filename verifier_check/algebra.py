"""Exact values of the formula language: polynomials with rational coefficients over canonical atoms.

An atom is a string:
  "$name"       a symbolic parameter (where costs are derived for every admissible value at once)
  "#n"          an integer n >= 2 (a prime, or a cofactor not factored further) to a fractional power in
                (0, 1): every product of roots of rationals has one form, so sqrt(2) sqrt(8) is 4
  "log:n"       log n for such an n: the log of a rational is their integer combination (log 8 = 3 log 2)
  "exp:x"       e^x for a rational x != 0; the exponentials of one monomial are merged into one
  "log(K)", "exp(K)", "pow(K,e)", "inv(K)"   that function of the irrational value whose key is K
  "genmean(K;K1;...)"   a power mean whose exponent depends on the parameters (its lemmas read it whole)
A monomial is a sorted tuple of (atom, exponent); a value maps monomials to nonzero Fractions. Where the rules
above reach, equal values have equal forms, so ties cancel exactly (log 3 against (2/3)(3/2) log 3); the sign
of what is left comes from rational bounds of its atoms (`bounds`); the functions of the language on these
values are in `arithmetic`.
"""

import math
from fractions import Fraction

from verifier_check.limits import MAX_BITS, MAX_EXP, MAX_TERMS, Malformed, Undecided, sized
from verifier_check.reals import iroot

NESTED = {}  # key of an atom over a value -> (function, the value, its parameter)
_PRODUCTS, _FACTORS = {}, {}


class Value:
    """An exact number: {monomial: Fraction}, no zero coefficient (the empty monomial is the rational part)."""

    __slots__ = ("terms",)

    def __init__(self, terms):
        self.terms = terms

    def __add__(self, other):
        out = dict(self.terms)
        for m, q in other.terms.items():
            s = out.get(m, 0) + q
            if s:
                out[m] = sized(s)
            else:
                out.pop(m, None)
        return Value(out)

    def __neg__(self):
        return Value({m: -q for m, q in self.terms.items()})

    def __sub__(self, other):
        return self + (-other)

    def __mul__(self, other):
        if len(other.terms) == 1 and () in other.terms:
            return self.scaled(other.terms[()])
        if len(self.terms) == 1 and () in self.terms:
            return other.scaled(self.terms[()])
        out = {}
        for m1, q1 in self.terms.items():
            for m2, q2 in other.terms.items():
                c, m = product(m1, m2)
                s = out.get(m, 0) + c * q1 * q2
                if s:
                    out[m] = sized(s)
                else:
                    out.pop(m, None)
            if len(out) > MAX_TERMS:
                raise Undecided(f"a value of more than {MAX_TERMS:,} terms, beyond the checker's exact arithmetic")
        return Value(out)

    def scaled(self, q):
        """The value times the rational q."""
        return Value({m: sized(q * c) for m, c in self.terms.items()}) if q else Value({})

    def rational(self):
        """The value as a Fraction, or None when it is not rational."""
        if not self.terms:
            return Fraction(0)
        return self.terms[()] if len(self.terms) == 1 and () in self.terms else None

    def atoms(self):
        """Every atom the value's monomials use."""
        return {a for m in self.terms for a, _ in m}

    def symbolic(self):
        """Whether the value depends on a parameter (directly or inside a nested atom's key)."""
        return any("$" in a for a in self.atoms())

    def key(self):
        """A string that names the value's form exactly: equal forms, equal keys, and different forms, different
        keys (the repr of its terms: an atom's name, which holds class names, is quoted, never joined raw)."""
        return repr(tuple((tuple((a, str(e)) for a, e in m), str(q)) for m, q in sorted(self.terms.items())))

    def __repr__(self):
        parts = [str(q) if not m else f"{q}*{'*'.join(a if e == 1 else f'{a}^{e}' for a, e in m)}"
                 for m, q in sorted(self.terms.items())]
        return " + ".join(parts[:3]) + (" + ..." if len(parts) > 3 else "") if parts else "0"


def const(q):
    """A rational as a value."""
    q = Fraction(q)
    return Value({(): q} if q else {})


ZERO, ONE = const(0), const(1)


def parameter(name):
    """A symbolic parameter as a value."""
    return Value({(("$" + name, 1),): Fraction(1)})


def product(m1, m2):
    """(rational factor, monomial) of the product of two monomials, with roots and exponentials merged."""
    if not m1 or not m2:
        return Fraction(1), m1 or m2
    hit = _PRODUCTS.get((m1, m2))
    if hit is None:
        exps = dict(m1)
        for a, e in m2:
            exps[a] = exps.get(a, 0) + e
        hit = _PRODUCTS[m1, m2] = normal(exps)
    return hit


def normal(exps):
    """(rational factor, monomial): whole powers of "#n" moved into the factor, exponentials merged."""
    coef, x, out = Fraction(1), Fraction(0), {}
    for a, e in exps.items():
        if a.startswith("exp:"):
            x += Fraction(a[4:]) * e
        elif a.startswith("#"):
            whole = math.floor(e)
            if whole:
                coef = sized(coef * Fraction(int(a[1:])) ** whole)
            if e - whole:
                out[a] = Fraction(e - whole)
        elif e:
            out[a] = e
    if x:
        if abs(x) > MAX_EXP:
            raise Undecided(f"e^{x}: an exponential beyond e^{MAX_EXP}, the checker's bound")
        out["exp:" + str(x)] = 1
    return coef, tuple(sorted(out.items()))


# -- integers as primes --------------------------------------------------------------------------------------
_SMALL = [p for p in range(2, 1 << 12) if all(p % d for d in range(2, math.isqrt(p) + 1))]


def factor(n):
    """{prime (or unfactored cofactor): exponent} of an integer n >= 1: trial division by the primes below 4096,
    then a perfect-power check of what is left (enough for canonical forms; a cofactor left whole is sound)."""
    if n in _FACTORS:
        return _FACTORS[n]
    out, rest = {}, n
    for p in _SMALL:
        if p * p > rest:
            break
        while rest % p == 0:
            out[p] = out.get(p, 0) + 1
            rest //= p
    if rest > 1:
        base, power = rest, 1
        for k in range(min(rest.bit_length(), 64), 1, -1):
            r = iroot(rest, k)
            if r ** k == rest:
                base, power = r, k
                break
        for b, e in (factor(base).items() if base != rest else [(base, 1)]):
            out[b] = out.get(b, 0) + e * power
    if len(_FACTORS) < 100_000:
        _FACTORS[n] = out
    return out


def rational_power(q, e):
    """q^e for a rational q > 0 and a rational exponent e, in canonical form."""
    exps = {}
    for part, sign in ((q.numerator, 1), (q.denominator, -1)):
        for p, k in factor(part).items():
            exps["#" + str(p)] = exps.get("#" + str(p), 0) + sign * k * e
    coef, mono = normal({a: e - math.floor(e) for a, e in exps.items()})
    for a, e in exps.items():  # the whole powers, possibly negative
        whole = math.floor(e)
        if whole:
            if abs(whole) * int(a[1:]).bit_length() > MAX_BITS:
                raise Malformed(f"a power beyond the checker's bound of {MAX_BITS} bits")
            coef = sized(coef * Fraction(int(a[1:])) ** whole)
    return Value({mono: coef})
