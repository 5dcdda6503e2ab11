"""Where a comparison's difference d(θ) is zero, for θ in [low, high]: exact points, or certified enclosures.

Routes, each stated with the lemma it rests on:
- rational functions of θ: the real roots of the numerator, and of the denominator (a pole: the sign may change
  there too, and the matrix is undefined), exactly (sympy: rationals or algebraic numbers);
- power means against a number, Σ w_i M_{e(θ)}(xs_i) − k with weights of one sign and e affine in θ (a cell
  against its members' mean, minimum or maximum; a candidate witness's expected cost for Property 1): M_s is
  non-decreasing in s and strictly increasing unless all values are equal (the power-mean inequality), so d
  is monotone. With one mean, w·M_s(X) = m vanishes for s > 0 exactly where Σ_{x∈X} x^s − |X|·m^s does, an
  exponential sum solved in closed form when its bases are powers of one rational (`exp_sums`: log u / log g);
  otherwise bisection on the exact signs at rational points brackets the zero crossing, which is exact when an
  exact test proves a simple rational in the bracket is a zero;
- two power means of the same exponent and size, M_s(A) − M_s(B): for s > 0 its sign is that of
  G(s) = Σ_{a∈A} a^s − Σ_{b∈B} b^s (zeros contribute nothing), an exponential sum, whose number of real zeros,
  with multiplicity, is at most the number V of sign changes of its coefficients ordered by base (Laguerre's
  rule of signs). Zeros found exactly at candidate points, with multiplicities from exact derivative tests,
  that account for all V leave no other zero; failing that, every zero of G in closed form (`exp_sums`), as
  M_{0,2,3} = M_{1,1,2} where 3^s = 2, at s = log 2 / log 3;
- otherwise: certified interval bisection (python-flint); what it cannot exclude is returned as an enclosure.
  Stretches next to an end are first taken out of it where a lemma proves them free of zeros: the common
  exponent of the means tends to 0 there (`vanishing_exponent`: the means with the most positive values lead),
  or d is exactly 0 there and its derivative keeps one sign (`end_zero`: the mean value theorem).
"""

from __future__ import annotations

from fractions import Fraction

import flint

from verifier.analysis.end_zero import zero_end
from verifier.analysis.exp_sums import power_sum_coefficients, zeros_in
from verifier.analysis.vanishing_exponent import flat_end
from verifier.formula import certified
from verifier.formula.enclose import Unsupported, enclose
from verifier.formula.genmean import genmean_class
from verifier.lazy_sympy import sympy as sp

WIDTH = Fraction(1, 2**40)
BUDGET = 20_000  # enclosure evaluations per difference on the fallback route


def zeros(d: sp.Expr, theta: sp.Symbol, low, high) -> tuple[list[sp.Expr], list[tuple[Fraction, Fraction]]]:
    """The zeros of d(θ) in [low, high] (either may be None for a rational function): exact points, and enclosures [a,
    b] of those only bracketed (see the module docstring for the routes)."""
    together = sp.together(d)
    numerator, denominator = sp.fraction(together)
    if together.is_rational_function(theta):
        if sp.Poly(numerator, theta).is_zero:
            return [], []
        roots = set(sp.Poly(numerator, theta).real_roots()) | set(sp.Poly(denominator, theta).real_roots())
        # certified, and a root kept unless it is proved outside: an extra breakpoint costs an exact point check,
        # a missing one would hide a change of sign
        return [r for r in roots if (low is None or certified.compare(r, low).value != -1)
                and (high is None or certified.compare(r, high).value != 1)], []
    if low is None or high is None:
        raise Unsupported(f"{theta} appears beyond rational functions ({d}); calibrating it needs assumptions that "
                          f"bound {theta} on both sides")
    lo, hi = _fraction(low), _fraction(high)
    if _monotone_combination(d, theta):
        return _monotone(d, theta, lo, hi)
    pair = _two_means(d, theta)
    if pair is not None:
        found = _laguerre(pair, theta, lo, hi)
        if found is None and _sum_form(pair, theta, lo, hi):
            found = zeros_in(pair[0], power_sum_coefficients(pair[1], pair[2]), theta, lo, hi)
        if found is not None:
            return found, []
        power_sums = _power_sums(pair, theta, lo, hi)
        if power_sums is not None:  # same zeros where the exponent is > 0, and tight enclosures near 0
            return _bisect(power_sums, theta, lo, hi)
    return _bisect_past_ends(d, theta, lo, hi)


def _bisect_past_ends(d, theta, lo: Fraction, hi: Fraction):
    """Certified bisection, skipping what the end lemmas prove: a stretch next to an end that `flat_end` (the
    exponent tends to 0 there) or `zero_end` (d is exactly 0 there) proves free of zeros past that end is not
    searched (the bisection's grid stays that of [lo, hi]); the end itself is an exact zero when d is proved 0
    there (a lemma is not used at an end whose sign is undecided)."""
    exact, free = [], []
    for end, other in ((lo, hi), (hi, lo)):
        reach = flat_end(d, theta, end, other)
        if reach is None:
            reach = zero_end(d, theta, end, other)
        at_end = _sign_at(d, theta, end)
        if reach is None or at_end is None:  # the end itself undecided: leave it to the bisection's enclosure
            continue
        free.append((min(end, reach), max(end, reach)))
        if at_end == 0:
            exact.append(sp.Rational(end.numerator, end.denominator))
    found, enclosed = _bisect(d, theta, lo, hi, free)
    return exact + found, enclosed


def _power_sums(pair, theta, lo: Fraction, hi: Fraction) -> sp.Expr | None:
    """G(e(θ)) when the exponent e is >= 0 on all of [lo, hi]: for e > 0 it has the sign of the difference of
    the two means, and at e = 0 an extra zero is only an extra breakpoint (points are decided exactly)."""
    exponent, A, B = pair
    ends = [exponent.subs(theta, sp.Rational(x.numerator, x.denominator)) for x in (lo, hi)]
    if any(certified.sign(e).value in (-1, None) for e in ends):  # not proved >= 0: the general route
        return None
    return sp.Add(*[v**exponent for v in A if v != 0]) - sp.Add(*[v**exponent for v in B if v != 0])


def _sum_form(pair, theta, lo: Fraction, hi: Fraction) -> bool:
    """Whether M_e(A) = M_e(B) exactly where Σ_A a^e = Σ_B b^e, for e ≠ 0 on [lo, hi] (same sizes): when e >= 0
    there (zeros contribute nothing for e > 0, and e = 0 only at an end), or when every value is positive
    (x ↦ x^(1/e) is injective for any e ≠ 0). At e = 0 both sums have |A| = |B| terms: a root, hence a
    breakpoint, decided exactly there."""
    _, A, B = pair
    return _power_sums(pair, theta, lo, hi) is not None or all(v.is_Rational and v > 0 for v in (*A, *B))


def _fraction(x) -> Fraction:
    return Fraction(int(x.p), int(x.q))


def _affine(e: sp.Expr, theta) -> bool:
    return sp.Poly(e, theta).degree() == 1 if e.is_polynomial(theta) else False


def _monotone_combination(d, theta) -> bool:
    """d = Σ w_i M_e(xs_i) + k with every w_i of one sign, one exponent e affine in θ, numeric values: a sum of
    power means that all move the same way as θ does, so d is monotone."""
    weights, exponent = [], None
    for term in sp.Add.make_args(d):
        if not term.has(theta):
            continue
        weight, mean = sp.Integer(1), term
        if isinstance(term, sp.Mul):
            numbers = [f for f in term.args if not f.has(theta)]
            means = [f for f in term.args if f.has(theta)]
            if len(means) != 1:
                return False
            weight, mean = sp.Mul(*numbers), means[0]
        if not isinstance(mean, genmean_class()) or not weight.is_number or any(v.has(theta) for v in mean.args[1:]):
            return False
        if exponent is None:
            exponent = mean.args[0]
        if mean.args[0] != exponent:
            return False
        weights.append(weight)
    return exponent is not None and _affine(exponent, theta) and \
        (all(w.is_positive for w in weights) or all(w.is_negative for w in weights))


def _sign_at(d, theta, x: Fraction) -> int | None:
    try:
        return certified.sign(d.subs(theta, sp.Rational(x.numerator, x.denominator))).value
    except Exception:  # noqa: BLE001 - undefined or too large to evaluate: no sign
        return None


def _monotone(d, theta, lo: Fraction, hi: Fraction):
    """d is monotone on [lo, hi] (power-mean inequality): its zero set is one point or empty here, since a
    strictly monotone function vanishes at most once."""
    a, b = _sign_at(d, theta, lo), _sign_at(d, theta, hi)
    if a is None or b is None:
        return _bisect(d, theta, lo, hi)
    exact = [sp.Rational(x.numerator, x.denominator) for x, s in ((lo, a), (hi, b)) if s == 0]
    if exact or a == b:
        return exact, []
    inside = _one_mean_zero(d, theta, lo, hi)  # exactly one zero lies strictly inside: in closed form?
    if inside is not None:
        return [inside], []
    left, right = lo, hi
    for _ in range(200):
        if right - left <= WIDTH:
            break
        middle = simplest(left, right)
        s = _sign_at(d, theta, middle)
        if s is None:
            return _bisect(d, theta, left, right)
        if s == 0:
            return [sp.Rational(middle.numerator, middle.denominator)], []
        left, right = (middle, right) if s == a else (left, middle)
    return [], [(left, right)]


def _two_means(d, theta):
    terms = sp.Add.make_args(d)
    if len(terms) != 2:
        return None
    plus = [t for t in terms if isinstance(t, genmean_class())]
    minus = [-t for t in terms if isinstance(-t, genmean_class())]
    if len(plus) != 1 or len(minus) != 1:
        return None
    A, B = plus[0], minus[0]
    if A.args[0] != B.args[0] or len(A.args) != len(B.args) or not _affine(A.args[0], theta) or \
            any(v.has(theta) for v in A.args[1:] + B.args[1:]):
        return None
    return A.args[0], A.args[1:], B.args[1:]


def _laguerre(pair, theta, lo: Fraction, hi: Fraction) -> list[sp.Expr] | None:
    """Zeros of M_s(A) − M_s(B) for s = e(θ) > 0, or None when the lemma does not settle them."""
    exponent, A, B = pair
    if _power_sums(pair, theta, lo, hi) is None:
        return None  # the power-sum form has the mean's zeros only where the exponent is > 0
    coefficients = power_sum_coefficients(A, B)
    bases = [b for b, c in coefficients.items() if c]
    if any(not (b.is_Rational and b > 0) for b in bases):
        return None  # the sign rule needs the bases in exact order: rational bases only
    bases.sort()
    signs = [coefficients[b] > 0 for b in bases]
    changes = sum(x != y for x, y in zip(signs, signs[1:]))
    s = sp.Dummy("s")
    G = sp.Add(*[coefficients[b] * b**s for b in bases])
    ends = [sp.Rational(lo.numerator, lo.denominator), sp.Rational(hi.numerator, hi.denominator)]
    candidates = {sp.Integer(0), sp.Integer(1)} | {exponent.subs(theta, t) for t in ends}
    counted, inside = 0, []
    for s0 in candidates:
        multiplicity = _multiplicity(G, s, s0, changes)
        if multiplicity is None:
            return None
        counted += multiplicity
        if multiplicity and s0 > 0:
            t0 = sp.solve(sp.Eq(exponent, s0), theta)[0]
            if ends[0] <= t0 <= ends[1] or ends[1] <= t0 <= ends[0]:
                inside.append(t0)
    if counted < changes:
        return None  # some zero of G was not found exactly: the lemma leaves it open
    return inside  # zeros at s <= 0 lie where the power-sum form does not apply: decided at points


def _one_mean_zero(d, theta, lo: Fraction, hi: Fraction) -> sp.Expr | None:
    """d = w·M_e(X) + k with one power mean and numbers: for e ≠ 0 (`_sum_form`) it vanishes exactly where
    Σ_{x∈X} x^e − |X|·m^e does, m = −k/w. Called when d changes sign on [lo, hi] and is strictly monotone there,
    so exactly one zero lies inside (where e > 0); returned when the closed form finds exactly one there."""
    means = [t for t in sp.Add.make_args(d) if t.has(theta)]
    if len(means) != 1:
        return None
    weight, mean = means[0].as_coeff_Mul()
    constant = d - means[0]
    if not (isinstance(mean, genmean_class()) and weight.is_Rational and weight != 0 and constant.is_Rational):
        return None
    exponent, values = mean.args[0], mean.args[1:]
    level = -constant / weight
    if not (level.is_positive and all(v.is_Rational for v in values)) or not _affine(exponent, theta) or \
            not _sum_form((exponent, values, (level,) * len(values)), theta, lo, hi):
        return None
    coefficients = power_sum_coefficients(values, ())
    coefficients[level] = coefficients.get(level, 0) - len(values)
    found = zeros_in(exponent, coefficients, theta, lo, hi)
    ends = (sp.Rational(lo.numerator, lo.denominator), sp.Rational(hi.numerator, hi.denominator))
    inside = [t for t in found or [] if t not in ends and  # at e = 0 the sums always agree: ask d itself
              (exponent.subs(theta, t) != 0 or _sign_at(d, theta, _fraction(t)) == 0)]
    return inside[0] if len(inside) == 1 else None


def _multiplicity(G, s, s0, bound: int) -> int | None:
    for k in range(bound + 1):
        value = sp.diff(G, s, k).subs(s, s0)
        sign = certified.sign(sp.expand_log(value, force=True)).value
        if sign is None:
            return None
        if sign != 0:
            return k
    return bound + 1


def simplest(lo: Fraction, hi: Fraction) -> Fraction:
    """A simple rational strictly inside (lo, hi): the smallest denominator up to 64, then powers of two."""
    den = 1
    while True:
        num = (lo * den).__floor__() + 1
        if Fraction(num, den) < hi:
            return Fraction(num, den)
        den = den + 1 if den < 64 else den * 2


def _bisect(d, theta, lo: Fraction, hi: Fraction, free=()):
    """Certified isolation: sub-intervals whose enclosure excludes 0, or that lie in a stretch of `free` (proved
    to hold no zero but maybe at its end, which the caller decides), are dropped; the rest, once narrow, are
    merged into clusters; a cluster is an exact zero only when it is one narrow interval whose simplest
    rational is proved a zero, and an enclosure otherwise."""
    stack, narrow, spent = [(lo, hi)], [], 0
    while stack:
        a, b = stack.pop()
        if any(s <= a and b <= t for s, t in free):
            continue
        spent += 1
        if spent > BUDGET:
            narrow += stack + [(a, b)]
            break
        try:
            ball = enclose(d, 128, {theta: flint.arb(flint.fmpq(*_nd((a + b) / 2)), flint.fmpq(*_nd((b - a) / 2)))})
            if ball > 0 or ball < 0:
                continue
        except (Unsupported, ValueError, ZeroDivisionError):
            pass
        if b - a <= WIDTH:
            narrow.append((a, b))
            continue
        middle = (a + b) / 2
        stack += [(middle, b), (a, middle)]
    exact, enclosed = [], []
    for a, b in _clusters(narrow):
        candidate = simplest(a - WIDTH, b + WIDTH)
        if b - a <= 2 * WIDTH and _sign_at(d, theta, candidate) == 0:
            exact.append(sp.Rational(candidate.numerator, candidate.denominator))
        else:
            enclosed.append((a, b))
    return exact, enclosed


def _clusters(narrow):
    out = []
    for a, b in sorted(narrow):
        if out and out[-1][1] >= a:
            out[-1] = (out[-1][0], max(b, out[-1][1]))
        else:
            out.append((a, b))
    return out


def _nd(x: Fraction) -> tuple[int, int]:
    return x.numerator, x.denominator
