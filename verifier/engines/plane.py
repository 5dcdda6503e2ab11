"""The exact projection of a linear feasible set onto a plane of two variables, as convex pieces.

z3's quantifier elimination for linear real arithmetic turns "∃ the other variables: conditions" into a
condition on the two variables alone; that condition is put in disjunctive form over half-planes
a·x + b·y + c ⋈ 0 (⋈ one of ≤, <, =), so the set is a union of convex pieces, each with its strict edges
known. Vertices are exact rationals: each piece is clipped to a frame with exact arithmetic. The frame is a
drawing matter, chosen by the caller to contain every finite vertex, so a piece that reaches the frame is
unbounded there and the caller can say so.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import z3

from verifier.engines.margins import eliminate
from verifier.errors import DoesNotApply

Point = tuple[Fraction, Fraction]
MAX_PIECES = 400  # a disjunctive form larger than this is not drawn (the ranges per cell still stand)


@dataclass(frozen=True)
class HalfPlane:
    """a·x + b·y + c ≤ 0, < 0 (strict) or = 0 (equal)."""
    a: Fraction
    b: Fraction
    c: Fraction
    strict: bool = False
    equal: bool = False

    def value(self, p: Point) -> Fraction:
        """a·x + b·y + c at the point p."""
        return self.a * p[0] + self.b * p[1] + self.c

    def closed_holds(self, p: Point) -> bool:
        """Whether p lies in the closed half-plane (on the line, for an equality)."""
        v = self.value(p)
        return v == 0 if self.equal else v <= 0

    def tight(self, p: Point) -> bool:
        """Whether p lies on the boundary line."""
        return self.value(p) == 0

    def text(self, x: str, y: str) -> str:
        """The condition as text in the variables x and y, with a positive leading coefficient."""
        a, b, c = self.a, self.b, self.c
        if a < 0 or (a == 0 and b < 0):  # write it with a positive leading coefficient
            a, b, c, flip = -a, -b, -c, True
        else:
            flip = False
        op = "=" if self.equal else {(False, False): "≤", (True, False): "<", (False, True): "≥",
                                     (True, True): ">"}[(self.strict, flip)]
        left = " ".join(t for t in (_term(a, x, True), _term(b, y, a == 0)) if t)
        return f"{left} {op} {_number(-c)}"


def _number(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _term(k: Fraction, name: str, first: bool) -> str:
    if k == 0:
        return ""
    sign = "-" if k < 0 else ("" if first else "+")
    size = abs(k)
    body = name if size == 1 else f"{_number(size)}·{name}"
    return f"{sign}{body}" if first else f"{sign} {body}"


@dataclass(frozen=True)
class Piece:
    """One convex piece: its half-planes, and its exact vertices inside the frame (in order around it)."""
    constraints: tuple[HalfPlane, ...]
    vertices: tuple[Point, ...]
    bounded: bool

    def edges(self) -> list[tuple[Point, Point, str]]:
        """(u, v, kind) around the piece: kind 'open' (a strict bound), 'closed', or 'frame' (cut by the frame)."""
        n = len(self.vertices)
        out = []
        for i in range(n if n > 2 else n - 1):
            u, v = self.vertices[i], self.vertices[(i + 1) % n]
            on = [h for h in self.constraints if h.tight(u) and h.tight(v)]
            out.append((u, v, "open" if any(h.strict for h in on) else ("closed" if on else "frame")))
        return out

    def open_vertices(self) -> list[Point]:
        """Vertices a strict bound excludes (the ends of a segment, or corners where an open edge ends)."""
        return [p for p in self.vertices if any(h.strict and h.tight(p) for h in self.constraints)]

    def supporting(self) -> list[HalfPlane]:
        """The constraints that bound the piece (an edge, or all of a segment or point piece)."""
        need = 2 if len(self.vertices) > 2 else 1  # a segment's ends are bounds too
        return [h for h in self.constraints if sum(h.tight(v) for v in self.vertices) >= need]


def plane_condition(conditions: list[z3.BoolRef], x: z3.ArithRef, y: z3.ArithRef, others: list[z3.ArithRef],
                    timeout_ms: int) -> list[list[HalfPlane]] | None:
    """{(x, y) : ∃ others, conditions} as a disjunction of conjunctions of half-planes; None if not obtained."""
    try:
        return _disjuncts(eliminate(conditions, others, timeout_ms, x.ctx), x, y, True)
    except (z3.Z3Exception, ValueError, _TooLarge):
        return None


class _TooLarge(DoesNotApply):
    pass


def _disjuncts(node: z3.ExprRef, x, y, positive: bool) -> list[list[HalfPlane]]:
    if z3.is_true(node) or z3.is_false(node):
        return [[]] if z3.is_true(node) == positive else []
    if z3.is_not(node):
        return _disjuncts(node.arg(0), x, y, not positive)
    if z3.is_and(node) or z3.is_or(node):
        parts = [_disjuncts(child, x, y, positive) for child in node.children()]
        if z3.is_or(node) == positive:
            out = [conj for part in parts for conj in part]
        else:
            out = [[]]
            for part in parts:
                out = [a + b for a in out for b in part]
                if len(out) > MAX_PIECES:
                    raise _TooLarge()
        if len(out) > MAX_PIECES:
            raise _TooLarge()
        return out
    if z3.is_implies(node):
        return _disjuncts(z3.Or(z3.Not(node.arg(0)), node.arg(1)), x, y, positive)
    return _atom(node, x, y, positive)


def _atom(node, x, y, positive: bool) -> list[list[HalfPlane]]:
    if node.num_args() != 2 or not z3.is_arith(node.arg(0)):
        raise ValueError(f"not a linear relation: {node}")
    a, b, c = _linear(node.arg(0) - node.arg(1), x, y)  # the relation is on a·x + b·y + c against 0
    if a == 0 and b == 0:
        return [[]] if _constant_truth(node, c) == positive else []
    scale = abs(a) if a != 0 else abs(b)  # one scale per line, so that equal half-planes compare equal
    a, b, c = a / scale, b / scale, c / scale
    le, lt = HalfPlane(a, b, c), HalfPlane(a, b, c, strict=True)
    ge, gt = HalfPlane(-a, -b, -c), HalfPlane(-a, -b, -c, strict=True)
    sign = -1 if a < 0 or (a == 0 and b < 0) else 1
    eq = HalfPlane(sign * a, sign * b, sign * c, equal=True)
    if z3.is_le(node):
        return [[le]] if positive else [[gt]]
    if z3.is_lt(node):
        return [[lt]] if positive else [[ge]]
    if z3.is_ge(node):
        return [[ge]] if positive else [[lt]]
    if z3.is_gt(node):
        return [[gt]] if positive else [[le]]
    if z3.is_eq(node) or z3.is_distinct(node):
        equal = z3.is_eq(node) == positive
        return [[eq]] if equal else [[lt], [gt]]
    raise ValueError(f"not a linear relation: {node}")


def _constant_truth(node, c: Fraction) -> bool:
    for test, holds in ((z3.is_le, c <= 0), (z3.is_lt, c < 0), (z3.is_ge, c >= 0), (z3.is_gt, c > 0),
                        (z3.is_eq, c == 0), (z3.is_distinct, c != 0)):
        if test(node):
            return holds
    raise ValueError(f"not a linear relation: {node}")


def _linear(expr, x, y) -> tuple[Fraction, Fraction, Fraction]:
    def at(u: int, v: int) -> Fraction:
        value = z3.simplify(z3.substitute(expr, (x, z3.RealVal(u, x.ctx)), (y, z3.RealVal(v, x.ctx))))
        if not z3.is_rational_value(value):
            raise ValueError(f"not a condition on the two variables alone: {value}")
        return Fraction(value.numerator_as_long(), value.denominator_as_long())

    c = at(0, 0)
    a, b = at(1, 0) - c, at(0, 1) - c
    if at(2, 3) != 2 * a + 3 * b + c or at(-1, 5) != -a + 5 * b + c:
        raise ValueError(f"not linear in the two variables: {expr}")
    return a, b, c


def finite_vertices(conjunctions: list[list[HalfPlane]]) -> list[Point]:
    """Every point where two bounding lines of one conjunction meet inside its closure: the finite vertices."""
    out = []
    for conj in conjunctions:
        for g, h in combinations(conj, 2):
            det = g.a * h.b - g.b * h.a
            if det == 0:
                continue
            p = ((g.b * h.c - h.b * g.c) / det, (h.a * g.c - g.a * h.c) / det)
            if all(k.closed_holds(p) for k in conj):
                out.append(p)
    return out


def pieces(conjunctions: list[list[HalfPlane]], frame: tuple[Point, Point]) -> list[Piece]:
    """The non-empty convex pieces, clipped to `frame` ((x0, y0), (x1, y1)), which must contain every finite
    vertex strictly inside: a piece that reaches the frame is then unbounded."""
    (x0, y0), (x1, y1) = frame
    box = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    out: list[Piece] = []
    for conj in conjunctions:
        conj = list(dict.fromkeys(conj))
        polygon = box
        for h in conj:
            for closed in ([h] if not h.equal else [HalfPlane(h.a, h.b, h.c), HalfPlane(-h.a, -h.b, -h.c)]):
                polygon = _clip(polygon, closed)
        polygon = _distinct(polygon)
        if not polygon or any(h.strict and all(h.tight(p) for p in polygon) for h in conj):
            continue  # empty: nothing left, or a strict bound that removes all that is left
        touches = any(p[0] in (x0, x1) or p[1] in (y0, y1) for p in polygon)
        out.append(Piece(tuple(conj), tuple(polygon), not touches))
    return _without_contained(out)


def _without_contained(found: list[Piece]) -> list[Piece]:
    """Drop each piece that lies inside another kept piece (an exact z3 check on the two half-plane sets)."""
    if len(found) > 40:
        return found  # the quadratic check is not worth it; overlapping pieces are still a true union
    ctx = z3.Context()
    x, y = z3.Reals("x y", ctx)

    def holds(h: HalfPlane):
        v = _q(h.a, ctx) * x + _q(h.b, ctx) * y + _q(h.c, ctx)
        return v == 0 if h.equal else (v < 0 if h.strict else v <= 0)

    kept: list[Piece] = []
    for i, piece in enumerate(found):
        others = kept + found[i + 1:]
        inside = False
        for other in others:
            solver = z3.Solver(ctx=ctx)
            solver.add(*[holds(h) for h in piece.constraints])
            solver.add(z3.Or([z3.Not(holds(h)) for h in other.constraints] or [z3.BoolVal(False, ctx)]))
            if solver.check() == z3.unsat:
                inside = True
                break
        if not inside:
            kept.append(piece)
    return kept


def _q(v: Fraction, ctx) -> z3.ArithRef:
    return z3.RealVal(f"{v.numerator}/{v.denominator}", ctx)


def _clip(polygon: list[Point], h: HalfPlane) -> list[Point]:
    """Sutherland-Hodgman against the closed half-plane h.value ≤ 0, exactly."""
    out: list[Point] = []
    n = len(polygon)
    for i in range(n):
        p, q = polygon[i], polygon[(i + 1) % n]
        vp, vq = h.value(p), h.value(q)
        if vp <= 0:
            out.append(p)
        if (vp < 0 < vq) or (vq < 0 < vp):
            t = vp / (vp - vq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def _distinct(polygon: list[Point]) -> list[Point]:
    out: list[Point] = []
    for p in polygon:
        if p not in out:
            out.append(p)
    if len(out) >= 3 and _area2(out) == 0:  # a segment: keep its two ends
        ordered = sorted(out)
        out = [ordered[0], ordered[-1]]
    return out


def _area2(polygon: list[Point]) -> Fraction:
    return sum((p[0] * q[1] - q[0] * p[1] for p, q in zip(polygon, polygon[1:] + polygon[:1])), Fraction(0))
