"""Where each prediction is the optimum on the probability simplex of a numeric three-class scheme: exact convex
polygons (the decision regions that the optimality LP of `engines.optimality` probes one set at a time).

Owns: the exact geometry of the ternary map. The region of a set A is {p in the simplex : E_p[c_A] <= E_p[c_B] for
every B}, an intersection of half-planes whose coefficients are the scheme's exact cells. In the coordinates
(p(y1), p(y2)), with p(y3) = 1 - p(y1) - p(y2), each constraint is a0·x + a1·y + b <= 0. A vertex is a point where
two independent constraints meet and every constraint holds; vertices are found by intersecting every pair of
the region's constraint lines (the other sets' boundaries and the simplex edges) exactly, and ordered
counter-clockwise by exact cross products. Every sign is exact: Fractions for a rational scheme, certified signs
(`formula.certified`) otherwise, after certified ball arithmetic has set aside the meeting points that are
plainly outside; a sign nothing can decide is taken as a tie and the region is marked inexact.

A region with interior is where its set is the unique optimum (boundaries are ties, of measure zero), so the
polygons with positive area tile the simplex. Sets with identical rows share one region (they tie everywhere).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cmp_to_key
from itertools import combinations

import flint

from verifier.formula import certified
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import ClassSet, Scheme


@dataclass(frozen=True)
class SimplexRegion:
    """The region of the simplex where a set is the optimal prediction: an exact convex polygon, its vertices
    counter-clockwise."""

    sets: tuple[ClassSet, ...]  # the optimal set (several only when their rows are identical)
    vertices: tuple[tuple[sp.Expr, sp.Expr, sp.Expr], ...]  # exact distributions p, counter-clockwise
    exact: bool = True  # False: some sign could not be decided and was taken as a tie (drawing only)

    @property
    def centroid(self) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
        """The average of the vertices: exact, and inside the region (where its label goes)."""
        n = len(self.vertices)
        return tuple(sum((v[i] for v in self.vertices), sp.Integer(0)) / n for i in range(3))

    @property
    def area(self) -> sp.Expr:
        """Exact area in the (p(y1), p(y2)) plane (the whole simplex has area 1/2)."""
        v = self.vertices
        twice = sum((v[i][0] * v[(i + 1) % len(v)][1] - v[(i + 1) % len(v)][0] * v[i][1] for i in range(len(v))),
                    sp.Integer(0))
        return twice / 2


MAX_DEGREE = 64  # beyond, in any atom (e.g. 2**(999/1000) is the atom 2**(1/1000) to the 999th): plain numbers


class _Field:
    """Exact arithmetic on the scheme's numbers: Fractions when every cell is rational; otherwise rational
    functions of the irrational atoms of the cells (log 2, 6^(1/3), ...; sympy's fraction field), where a number
    that is identically zero is a proved zero, and any other sign is certified (`formula.certified`). A sign
    nothing can decide counts as 0 and is remembered."""

    def __init__(self, cells: list[sp.Expr]):
        self.rational = all(v.is_Rational for v in cells)
        self.undecided = False
        self._field = None
        if not self.rational:
            from sympy.polys.fields import field
            from sympy.polys.polyutils import parallel_dict_from_expr

            try:  # sparse: a dense form of 2**(999/1000) beside other roots takes gigabytes
                reps, gens = parallel_dict_from_expr(cells, domain=sp.QQ)
                if gens and max((e for rep in reps for monomial in rep for e in monomial), default=0) <= MAX_DEGREE:
                    self._field = field(gens, sp.QQ)[0]
            except (sp.PolynomialError, sp.GeneratorsNeeded, sp.CoercionFailed):
                self._field = None  # plain sympy numbers, every sign certified

    def of(self, value: sp.Expr):
        if self.rational:
            return Fraction(int(value.p), int(value.q))
        return self._field(value) if self._field is not None else value

    def sign(self, value) -> int:
        if self.rational:
            return (value > 0) - (value < 0)
        if self._field is not None:
            if value == 0:
                return 0
            value = value.as_expr()
        found = certified.sign(sp.sympify(value)).value
        if found is None:
            self.undecided = True
            return 0
        return found

    def out(self, value) -> sp.Expr:
        if self.rational:
            return sp.Rational(value.numerator, value.denominator)
        return value.as_expr() if self._field is not None else value


def simplex_regions(scheme: Scheme) -> list[SimplexRegion]:
    """The regions with interior of a numeric three-class scheme, in the order of `scheme.all_sets`."""
    if scheme.K != 3 or scheme.symbolic:
        raise ValueError("simplex regions are drawn for numeric three-class schemes")
    sets = scheme.all_sets
    field = _Field([v for m in sets for v in scheme.rows[m]])
    rows = {m: [field.of(v) for v in scheme.rows[m]] for m in sets}
    balls = None if field.rational else {m: [certified.ball(v) for v in scheme.rows[m]] for m in sets}
    groups: list[list[ClassSet]] = []
    for m in sets:  # sets with identical rows tie everywhere: one region
        same = next((g for g in groups if all(field.sign(a - b) == 0 for a, b in zip(rows[g[0]], rows[m]))), None)
        if same is None:
            groups.append([m])
        else:
            same.append(m)
    out = []
    for group in groups:
        field.undecided = False
        polygon = _region(field, rows, group, [g[0] for g in groups if g is not group], balls)
        if polygon is not None:
            out.append(SimplexRegion(tuple(group), tuple((field.out(x), field.out(y), field.out(1 - x - y))
                                                          for x, y in polygon), not field.undecided))
    return out


def _line(d: list) -> tuple:
    """E_p[d] <= 0 as a0·x + a1·y + b <= 0 with x = p(y1), y = p(y2), p(y3) = 1 - x - y."""
    return d[0] - d[2], d[1] - d[2], d[2]


EDGES = ((-1, 0, 0), (0, -1, 0), (1, 1, -1))  # p(y1) >= 0, p(y2) >= 0, p(y3) >= 0


def _region(field: _Field, rows: dict, group: list, others: list, balls: dict | None) -> list | None:
    mine = rows[group[0]]
    constraints = [tuple(field.of(sp.Integer(c)) for c in e) for e in EDGES]
    enclosed = [tuple(flint.arb(c) for c in e) for e in EDGES]  # the same lines in ball arithmetic
    for other in others:
        a0, a1, b = _line([u - v for u, v in zip(mine, rows[other])])
        if field.sign(a0) == 0 and field.sign(a1) == 0:
            if field.sign(b) > 0:
                return None  # always dearer than `other`
            continue  # never dearer: no boundary
        constraints.append((a0, a1, b))
        known = balls is not None and None not in balls[group[0]] + balls[other]
        enclosed.append(_line([u - v for u, v in zip(balls[group[0]], balls[other])]) if known else None)
    points: list[tuple] = []
    seen: set[frozenset[int]] = set()  # pairs of lines already met at a vertex found (concurrent lines)
    for i, j in combinations(range(len(constraints)), 2):
        if frozenset((i, j)) in seen or (balls is not None and _certainly_outside(enclosed, i, j)):
            continue
        (a0, a1, b), (c0, c1, d) = constraints[i], constraints[j]
        det = a0 * c1 - a1 * c0
        if field.sign(det) == 0:
            continue  # parallel lines
        x, y = (a1 * d - c1 * b) / det, (c0 * b - a0 * d) / det
        signs = [0 if k in (i, j) else field.sign(k0 * x + k1 * y + kb)  # on lines i and j by construction
                 for k, (k0, k1, kb) in enumerate(constraints)]
        if all(s <= 0 for s in signs):
            tight = [k for k, s in enumerate(signs) if s == 0]
            seen.update(frozenset(pair) for pair in combinations(tight, 2))  # the same point again
            points.append((x, y))
    if len(points) < 3 or all(field.sign(_cross(points[0], points[1], p)) == 0 for p in points[2:]):
        return None  # empty, a point or a segment: never the unique optimum
    return _counter_clockwise(field, points)


def _certainly_outside(enclosed: list, i: int, j: int) -> bool:
    """Whether certified ball arithmetic already shows the meeting point of lines i and j violating some
    constraint (a cheap, sound filter: the exact arithmetic decides every point it lets through)."""
    if enclosed[i] is None or enclosed[j] is None:
        return False
    (a0, a1, b), (c0, c1, d) = enclosed[i], enclosed[j]
    det = a0 * c1 - a1 * c0
    if 0 in det:
        return False
    x, y = (a1 * d - c1 * b) / det, (c0 * b - a0 * d) / det
    return any(line is not None and line[0] * x + line[1] * y + line[2] > 0
               for k, line in enumerate(enclosed) if k not in (i, j))


def _cross(o, a, b):
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _counter_clockwise(field: _Field, points: list) -> list:
    """The vertices of a convex polygon in counter-clockwise order, from the lowest-then-leftmost one, by exact
    comparisons only (every other vertex is seen from it within a half-turn)."""
    def lower(p, q):
        s = field.sign(p[1] - q[1])
        return s < 0 or (s == 0 and field.sign(p[0] - q[0]) < 0)

    start = points[0]
    for p in points[1:]:
        if lower(p, start):
            start = p
    rest = [p for p in points if p is not start]

    def order(p, q):
        turn = field.sign(_cross(start, p, q))
        if turn:
            return -turn  # q to the left of start→p: p comes first
        near = field.sign((p[0] - start[0]) ** 2 + (p[1] - start[1]) ** 2 - (q[0] - start[0]) ** 2
                          - (q[1] - start[1]) ** 2)
        return near

    return [start] + sorted(rest, key=cmp_to_key(order))
