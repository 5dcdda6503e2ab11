"""The feasible region of a design seen on two open cells at a time, the others free: exact convex pieces.

For two or three open cells this is the whole picture of the freedom left (one plane, or the three pairwise
planes); for more, the designer names the cells to look at. The region is the projection of the same feasible
set as the per-cell ranges (strict relations strict), computed by quantifier elimination (`engines.plane`);
vertices are exact, and each edge is known to be included, excluded (a strict bound) or cut by the frame (the
region goes on). The frame holds every finite vertex, the designed point and the finite ends of the ranges.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import z3

from verifier.designing.problem import Cell, DesignProblem
from verifier.engines.plane import Piece, Point, finite_vertices, pieces, plane_condition
from verifier.errors import UsageError

MAX_REGION_CELLS = 3


@dataclass
class Region:
    """The feasible region seen on two open cells: exact convex pieces in a frame, with the designed point."""
    x: Cell
    y: Cell
    pieces: list[Piece]
    frame: tuple[Point, Point]
    chosen: Point | None  # the designed values of the two cells
    exact: bool  # False: z3 gave no answer in time, or the disjunctive form was too large; nothing is drawn

    @property
    def bounded(self) -> bool:
        """Whether every piece is bounded."""
        return all(p.bounded for p in self.pieces)


def pick_cells(problem: DesignProblem, names: list[str]) -> list[Cell]:
    """The cells to picture: those named ('h,b:n', the set then the class), or every open cell if 2 or 3."""
    open_cells = problem.open_cells
    if not names:
        return open_cells if 2 <= len(open_cells) <= MAX_REGION_CELLS else []
    classes = list(problem.spec.classes)
    chosen: list[Cell] = []
    for name in names:
        members, sep, label = name.rpartition(":")
        parts = [p.strip() for p in members.strip().strip("{}").split(",")]
        if not sep or any(p not in classes for p in parts) or label.strip() not in classes:
            raise UsageError(f"--region {name!r}: expected an open cell written SET:CLASS with this spec's class "
                             f"names, e.g. {','.join(classes[:2])}:{classes[-1]}")
        key = frozenset(classes.index(p) for p in parts)
        cell = next((c for c in open_cells if c.members == key and c.y == classes.index(label.strip())), None)
        if cell is None:
            raise UsageError(f"--region {name!r}: not an open cell of this spec (open cells are set rows given as "
                             "null, or every set cell when no set row is given)")
        if cell not in chosen:
            chosen.append(cell)
    if not 2 <= len(chosen) <= MAX_REGION_CELLS:
        raise UsageError(f"--region: name two or three distinct open cells, not {len(chosen)}")
    return chosen


def regions(problem: DesignProblem, conditions: list[z3.BoolRef], cells: list[Cell],
            chosen: dict[str, Fraction] | None, timeout_ms: int) -> list[Region]:
    """The feasible region on each pair of the cells, the other cells and the margin free (one Region per pair, not
    exact where quantifier elimination gave no answer)."""
    body = conditions + [problem.margin > 0] + list(problem.t.side)
    variables = [problem.margin] + list(problem.t.variables.values())
    out = []
    for a, b in combinations(cells, 2):
        x, y = problem.var(a), problem.var(b)
        others = [v for v in variables if not (v.eq(x) or v.eq(y))]
        point = (chosen[a.key], chosen[b.key]) if chosen else None
        conjunctions = plane_condition(body, x, y, others, timeout_ms)
        if conjunctions is None:
            out.append(Region(a, b, [], ((Fraction(0), Fraction(0)), (Fraction(1), Fraction(1))), point, False))
            continue
        frame = _frame(finite_vertices(conjunctions) + ([point] if point else []))
        out.append(Region(a, b, pieces(conjunctions, frame), frame, point, True))
    return out


def _frame(points: list[Point]) -> tuple[Point, Point]:
    """A frame with every point strictly inside and some room around them (a quarter of the span, at least 1)."""
    if not points:
        return (Fraction(-1), Fraction(-1)), (Fraction(1), Fraction(1))
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    pad_x = max((max(xs) - min(xs)) / 4, Fraction(1))
    pad_y = max((max(ys) - min(ys)) / 4, Fraction(1))
    return (min(xs) - pad_x, min(ys) - pad_y), (max(xs) + pad_x, max(ys) + pad_y)
