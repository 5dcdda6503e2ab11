"""Optimality of every set of a class-symmetric scheme, one set per size (`all` or `{max_size: k}` by symmetry).

With every relabelling of the classes fixing the scheme, c_Y(y) is a_n when y ∈ Y and b_n when y ∉ Y (|Y| = n),
and every set of one size has the status of {1..n}. The regions where Y is the unique minimiser, or a minimiser,
are convex and unchanged by the relabellings that fix Y, so averaging a point of them over those relabellings
stays inside: Y is alone (tied, never) iff it is so along the segment p(s) = s/n on Y, (1 − s)/(K − n) off Y,
s in [0, 1]. Along it a set Z of m classes, j of them in Y, costs E[c_Z] − E[c_Y] = g_{m,j}(s), linear in s and
in j, so for each size m the two extreme j bound every other set of that size: at most 2 · top lines per size.
Y is alone iff min over the lines is > 0 at some s; the witness is a rational s (checked exactly on every line),
the certificate a mixture of at most two lines (types) whose combination is <= 0 at s = 0 and at s = 1, i.e.
c_Y dominates the mixture of the types, each spread evenly over the sets of its type: that is the averaged
Ville certificate, re-checked by `check.orbit_optimality` on the representatives' exact rows.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from verifier.formula import certified
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import ClassSet, Scheme
from verifier.verdict import SetOptimality

_DENOMINATORS = (1_000, 1_000_000, 10**12)
_TOLERANCE = 1e-12


def representative(n: int) -> ClassSet:
    """The set {1..n} that stands for every set of n classes."""
    return frozenset(range(n))


def type_set(K: int, n: int, m: int, j: int) -> ClassSet:
    """A set of m classes with j of them in {1..n} (the others right after it)."""
    return frozenset(range(j)) | frozenset(range(n, n + m - j))


def types(K: int, n: int, top: int) -> list[tuple[int, int]]:
    """(m, j) for the two extreme j of every allowed size m, other than Y = {1..n} itself."""
    out = []
    for m in range(1, top + 1):
        low, high = max(0, m - (K - n)), min(m, n)
        if m == n:
            high = min(high, n - 1)
        if low <= high:
            out += [(m, low)] + ([(m, high)] if high != low else [])
    return out


def line_terms(rows: dict, K: int, n: int, m: int, j: int, s: sp.Rational) -> list[tuple[sp.Rational, sp.Expr]]:
    """E_p(s)[c_Z] − E_p(s)[c_Y] for Z of type (m, j), as Σ coefficient · cell over the representatives' cells."""
    a_m, b_m = rows[representative(m)][0], (rows[representative(m)][m] if m < K else sp.Integer(0))
    a_n, b_n = rows[representative(n)][0], (rows[representative(n)][n] if n < K else sp.Integer(0))
    q = (sp.Rational(j, n) * s) + (sp.Rational(m - j, K - n) * (1 - s) if n < K else sp.Integer(0))
    return [(q, a_m), (1 - q, b_m), (-s, a_n), (-(1 - s), b_n)]


def orbit_optimality(scheme: Scheme) -> dict[ClassSet, SetOptimality]:
    """Each size's status on its representative set (singletons: {first class}, and every singleton when few)."""
    K, top = scheme.K, scheme.orbits.largest
    out = {representative(n): _one(scheme, n, top) for n in range(1, top + 1)}
    first = out[representative(1)]
    if K <= 64:  # every singleton by relabelling the first (class 0 <-> y)
        for y in range(1, K):
            out[frozenset({y})] = _relabelled(first, 0, y)
    return out


def _relabelled(entry: SetOptimality, a: int, b: int) -> SetOptimality:
    def move(z):
        return frozenset(b if c == a else a if c == b else c for c in z)

    witness = None
    if entry.witness is not None:
        w = list(entry.witness)
        w[a], w[b] = w[b], w[a]
        witness = tuple(w)
    return SetOptimality(move(entry.members), entry.status, witness=witness,
                         tied_with=tuple(move(z) for z in entry.tied_with),
                         certificate=None if entry.certificate is None else {move(z): v for z, v in
                                                                            entry.certificate.items()},
                         margin=entry.margin, margin_is_bound=entry.margin_is_bound, reason=entry.reason)


def _one(scheme: Scheme, n: int, top: int) -> SetOptimality:
    K, rows, members = scheme.K, scheme.rows, representative(n)
    kinds = types(K, n, top)
    if not kinds:  # the only allowed set
        return SetOptimality(members, "alone", witness=_point(K, n, sp.Integer(1)))
    ends = np.array([[_float(line_terms(rows, K, n, m, j, sp.Integer(e))) for e in (0, 1)] for m, j in kinds])
    alpha, beta = ends[:, 0], ends[:, 1] - ends[:, 0]
    s_star, t_star = _best_s(alpha, beta, n == K)
    if t_star > _TOLERANCE:
        for s in _rationals(s_star, n == K):
            found = _alone(scheme, n, kinds, s)
            if found is not None:
                return found
    certificate, strict = _certificate(scheme, n, kinds, alpha, beta, s_star)
    if certificate is not None and strict:
        return SetOptimality(members, "never", certificate=certificate)
    tie = _tie(scheme, n, kinds, s_star) if t_star >= -1e-9 else None
    if certificate is not None and tie is not None:
        return SetOptimality(members, "tied", witness=tie[0], tied_with=tie[1], certificate=certificate)
    return SetOptimality(members, "unknown", certificate=certificate,
                         reason=f"the best margin along the symmetric segment is {t_star:.3g}, and no witness or "
                                "certificate could be confirmed exactly")


def _best_s(alpha: np.ndarray, beta: np.ndarray, full: bool) -> tuple[float, float]:
    """argmax over s in [0, 1] of min_i alpha_i + beta_i s (concave): bisection on the active slope."""
    def value(s):
        return float(np.min(alpha + beta * s))

    if full:
        return 1.0, value(1.0)
    low, high = 0.0, 1.0
    for _ in range(80):
        mid = (low + high) / 2
        g = alpha + beta * mid
        active = beta[g <= g.min() + 1e-15 * (1 + abs(g.min()))]
        if active.min() > 0:
            low = mid
        elif active.max() < 0:
            high = mid
        else:
            low = high = mid
            break
    best = max((0.0, (low + high) / 2, 1.0), key=value)
    return best, value(best)


def _rationals(s: float, full: bool):
    if full:
        yield sp.Integer(1)
        return
    seen = set()
    for d in _DENOMINATORS:
        x = min(max(Fraction(s).limit_denominator(d), Fraction(0)), Fraction(1))
        if x not in seen:
            seen.add(x)
            yield sp.Rational(x.numerator, x.denominator)


def _point(K: int, n: int, s: sp.Rational) -> tuple[sp.Rational, ...]:
    inside, outside = s / n, ((1 - s) / (K - n) if n < K else sp.Integer(0))
    return tuple(inside if y < n else outside for y in range(K))


def _signs(scheme: Scheme, n: int, kinds, s) -> list[int | None]:
    return [certified.linear_sign(line_terms(scheme.rows, scheme.K, n, m, j, s)).value for m, j in kinds]


def _alone(scheme: Scheme, n: int, kinds, s) -> SetOptimality | None:
    signs = _signs(scheme, n, kinds, s)
    if any(x != 1 for x in signs):
        return None
    margin = None
    terms = [line_terms(scheme.rows, scheme.K, n, m, j, s) for m, j in kinds]
    if all(v.is_Rational for t in terms for _, v in t):
        margin = min(sp.Add(*[k * v for k, v in t]) for t in terms)
    return SetOptimality(representative(n), "alone", witness=_point(scheme.K, n, s), margin=margin)


def _tie(scheme: Scheme, n: int, kinds, s_star: float):
    for s in _rationals(s_star, n == scheme.K):
        signs = _signs(scheme, n, kinds, s)
        if all(x is not None and x >= 0 for x in signs) and 0 in signs:
            tied = tuple(type_set(scheme.K, n, m, j) for (m, j), x in zip(kinds, signs) if x == 0)
            return _point(scheme.K, n, s), tied
    return None


def _certificate(scheme: Scheme, n: int, kinds, alpha, beta, s_star: float):
    """At most two types whose mixture is <= 0 at both ends of the segment: (mixture, strict) or (None, False)."""
    K, rows = scheme.K, scheme.rows
    g = alpha + beta * s_star
    order = np.argsort(g)
    candidates: list[list[tuple[int, Fraction]]] = [[(int(i), Fraction(1))] for i in order[:3]]
    up = [int(i) for i in order if beta[i] > 0][:2]
    down = [int(i) for i in order if beta[i] < 0][:2]
    for i in up:
        for k in down:
            w = -beta[k] / (beta[i] - beta[k])
            exact = _exact_weight(scheme, n, kinds[i], kinds[k])
            for x in ([exact] if exact is not None else []) + [Fraction(w).limit_denominator(d) for d in _DENOMINATORS]:
                if 0 < x < 1:
                    candidates.append([(i, x), (k, 1 - x)])
    weak = None
    for mix in candidates:  # a strict certificate if any (`never`), else the first weak one (`tied`)
        signs = []
        for end in (sp.Integer(0), sp.Integer(1)):
            if n == K and end == 0:
                continue
            terms = [(sp.Rational(w.numerator, w.denominator) * k, v) for i, w in mix
                     for k, v in line_terms(rows, K, n, *kinds[i], end)]
            signs.append(certified.linear_sign(terms).value)
        if all(x is not None and x <= 0 for x in signs):
            certificate = {type_set(K, n, *kinds[i]): sp.Rational(w.numerator, w.denominator) for i, w in mix}
            if all(x == -1 for x in signs):
                return certificate, True
            weak = weak or certificate
    return weak, False


def _exact_weight(scheme: Scheme, n: int, first, second) -> Fraction | None:
    """The weight of `first` that cancels the two lines' slopes, when their cells are rational."""
    K, rows = scheme.K, scheme.rows
    slopes = []
    for kind in (first, second):
        ends = [line_terms(rows, K, n, *kind, sp.Integer(e)) for e in (0, 1)]
        if not all(v.is_Rational for t in ends for _, v in t):
            return None
        v0, v1 = (sum((Fraction(int(k.p), int(k.q)) * Fraction(int(v.p), int(v.q)) for k, v in t), Fraction(0))
                  for t in ends)
        slopes.append(v1 - v0)
    b1, b2 = slopes
    return -b2 / (b1 - b2) if b1 != b2 else None


def _float(terms) -> float:
    return float(sum(float(k) * certified.to_float(v) for k, v in terms))
