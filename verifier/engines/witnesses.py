"""Possibility of a set whose row is unknown, without a witness variable: finitely many candidate distributions.

Y is possible (Definition 4) iff max over the simplex of g(p) = min_{ŷ∈Y} p·(c_ŷ − c_Y) is > 0. g is concave and
piecewise linear, with one piece per region R_ŷ = {p : ŷ minimises p·c_ŷ′ among Y's members}; these regions do
not depend on the row c_Y at all. The maximum of a linear function over a polytope is reached at a vertex, so
"Y is possible" is equivalent to "p·c_Y < min_ŷ p·c_ŷ at some vertex p of some R_ŷ": a finite disjunction of
linear conditions on c_Y once the determinate costs are numbers. This is what lets `verify design` ask for
Property 1 in linear arithmetic, with the row still open.

The vertices are the points of the simplex where K − 1 independent hyperplanes among {p_y = 0} and
{p·c_a = p·c_b, a, b ∈ Y} meet, solved exactly (python-flint rationals). Extra points are harmless (any p in
the simplex is a valid witness); every vertex of every R_ŷ is among them, so nothing is missed.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb

import flint

from verifier.errors import DoesNotApply
from verifier.lazy_sympy import sympy as sp

MAX_HYPERPLANE_CHOICES = 200_000  # beyond this the enumeration is not worth it (about K = 6 with |Y| = 6)


class TooManyCandidates(DoesNotApply):
    """The regions have too many hyperplanes to enumerate their vertices; the message says how many."""


def candidate_witnesses(det: list[list[Fraction]], members: frozenset[int]) -> list[tuple[Fraction, ...]]:
    """The vertices of the regions R_ŷ (ŷ ∈ Y) in the simplex, exactly; `det[h][y]` = c_h(y)."""
    K = len(det)
    order = sorted(members)
    planes: list[tuple[tuple[Fraction, ...], tuple[int, ...]]] = [
        (tuple(Fraction(int(i == y)) for i in range(K)), ()) for y in range(K)]
    for a, b in combinations(order, 2):
        normal = tuple(det[a][y] - det[b][y] for y in range(K))
        if any(normal):
            planes.append((normal, (a, b)))
    if comb(len(planes), K - 1) > MAX_HYPERPLANE_CHOICES:
        raise TooManyCandidates(f"{len(planes)} hyperplanes in {K} dimensions")
    found: dict[tuple[Fraction, ...], None] = {}
    for chosen in combinations(planes, K - 1):
        p = _solve([normal for normal, _ in chosen], K)
        if p is None or any(x < 0 for x in p) or p in found:
            continue
        if _vertex_of_a_region(p, det, order, [pair for _, pair in chosen if pair]):
            found[p] = None
    return list(found)


def _vertex_of_a_region(p, det, order, ties) -> bool:
    """p is a vertex of R_ŷ when ŷ is a minimiser at p and every tie used involves two minimisers."""
    expected = {h: sum(q * det[h][y] for y, q in enumerate(p)) for h in order}
    least = min(expected.values())
    best = {h for h, v in expected.items() if v == least}
    return all(a in best and b in best for a, b in ties)


def _solve(normals: list[tuple[Fraction, ...]], K: int) -> tuple[Fraction, ...] | None:
    """The unique p with normal·p = 0 for each normal and Σ p = 1, or None when not unique."""
    rows = [list(n) for n in normals] + [[Fraction(1)] * K]
    matrix = flint.fmpq_mat(K, K, [flint.fmpq(x.numerator, x.denominator) for row in rows for x in row])
    if matrix.det() == 0:
        return None
    rhs = flint.fmpq_mat(K, 1, [0] * (K - 1) + [1])
    solution = matrix.solve(rhs)
    return tuple(Fraction(int(solution[i, 0].p), int(solution[i, 0].q)) for i in range(K))


def possible_at_candidates(scheme, members: frozenset[int]) -> tuple[sp.Basic, list]:
    """∃p: E_p[c_Y] < E_p[c_ŷ] for every ŷ ∈ Y, as a disjunction over the candidate witnesses (linear in the
    row c_Y). The determinate rows must be rational numbers; the signature is that of `obligations.possible`."""
    from verifier.engines.obligations import conjunction, disjunction

    det = [[_rational(scheme.det(h, y)) for y in range(scheme.K)] for h in range(scheme.K)]
    options = []
    for p in candidate_witnesses(det, members):
        cost = sp.Add(*[sp.Rational(q.numerator, q.denominator) * scheme.cost(members, y)
                        for y, q in enumerate(p) if q], evaluate=False)
        bounds = [_less(cost, sum(q * det[h][y] for y, q in enumerate(p))) for h in sorted(members)]
        options.append(conjunction(bounds))
    return disjunction(options), []


def _less(cost: sp.Expr, bound: Fraction) -> sp.Basic:
    bound = sp.Rational(bound.numerator, bound.denominator)
    return sp.Lt(cost, bound) if not cost.free_symbols else sp.Lt(cost, bound, evaluate=False)


def _rational(value) -> Fraction:
    if not isinstance(value, sp.Rational):
        raise ValueError(f"the determinate cost {value} is not a rational number")
    return Fraction(int(value.p), int(value.q))
