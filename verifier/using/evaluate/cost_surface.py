"""Mean cost over two symbolic parameters (Friedel et al.'s cost surfaces, for any number of classes): at each
grid point (θ1, θ2), every row's Bayes-optimal set under the scheme at exactly those values, decided as `decide`
and `--probabilities` decide it (`BatchDecider`: floats pre-screen under a proven bound, exact arithmetic
decides what they cannot separate, ties resolved by the stated rule), then per classifier the exact mean cost
(Eq. 4: the mean of c_Ŷ(y)), the indeterminacy rate (the share of rows whose set has several classes) and the
average set size.

The scheme is built once with its parameters symbolic; at a point each distinct cell is substituted with the
exact rationals (`point_scheme`). Points outside the spec's assumptions are left out and listed, as are points
where some cost is undefined (a power mean of a zero with a negative exponent, say).

Owns: `Surface`, `SurfaceGrid`, `FixedSets`, `parse_sweeps`, `point_scheme`, `surface`, `lowest`, `cheapest`.
May import: `using`, `scheme`, `formula`, `limits`, `errors`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from verifier import limits
from verifier.engines.expected import ExpectedCosts
from verifier.errors import UsageError
from verifier.formula import certified
from verifier.formula.arith import BuiltinError
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import ClassSet, Scheme
from verifier.using.decide import BatchDecider
from verifier.using.evaluate.curves import parse_sweep

if TYPE_CHECKING:
    from verifier.using.exact import ExactRows

MAX_SURFACE_POINTS = 201 * 201  # grid points in all (each axis is also bounded by parse_sweep)

Exact = Fraction | sp.Expr  # a mean cost: a Fraction when rational, else the exact sympy number
Point = tuple[Fraction, Fraction]


@dataclass
class SurfaceGrid:
    """One classifier's values, indexed [i][j] for the first parameter's i-th and the second's j-th grid
    point; None where the point is left out."""

    name: str
    mean_cost: list[list[Exact | None]]
    rate: list[list[Fraction | None]]  # indeterminacy (abstention) rate: rows whose set has 2 classes or more
    size: list[list[Fraction | None]]  # average set size
    ties: int = 0  # row decisions (over every point) with several optimal sets: the stated rule picked one
    undecided: int = 0  # row decisions where some set was not separated exactly from the one reported


@dataclass
class FixedSets:
    """Set predictions as given (no decision): only their mean cost changes from point to point."""

    sets: list[ClassSet]


@dataclass
class Surface:
    """The cost surface over a grid of two parameters: each classifier's exact values at every grid point done,
    and the points left out (outside the assumptions, a cost undefined, or not reached before a time limit)."""

    parameters: tuple[str, str]
    grids: tuple[list[Fraction], list[Fraction]]
    classifiers: list[SurfaceGrid]
    rows: int
    excluded: list[Point] = field(default_factory=list)  # outside (or not shown inside) the assumptions
    undefined: list[Point] = field(default_factory=list)  # some cost undefined there
    exact_rows: int = 0  # row decisions the floats left to exact arithmetic
    decided: bool = True  # the sets are decided at each point (False: set predictions, as given)
    done: int = 0  # grid points done, in the order of `points` (all of them unless a time limit came first)
    not_reached: int = 0  # grid points a time limit left out

    def points(self):
        """(i, j, θ1, θ2) of every grid point, first parameter outermost."""
        for i, a in enumerate(self.grids[0]):
            for j, b in enumerate(self.grids[1]):
                yield i, j, a, b


def parse_sweeps(texts: list[str], parameters: list[str]) -> list[tuple[str, list[Fraction]]]:
    """Two sweeps 'mu=0:1:21', 'nu=0:1:21' of two different symbolic parameters, the only ones of the spec."""
    if len(texts) != 2:
        raise UsageError(f"--sweep is given {len(texts):,} times; one sweep draws curves, two a surface, no more")
    sweeps = [parse_sweep(t, parameters) for t in texts]
    if sweeps[0][0] == sweeps[1][0]:
        raise UsageError(f"--sweep names {sweeps[0][0]!r} twice; a surface sweeps two different parameters")
    if len(sweeps[0][1]) * len(sweeps[1][1]) > MAX_SURFACE_POINTS:
        raise UsageError(f"--sweep: {len(sweeps[0][1])} x {len(sweeps[1][1]):,} grid points, more than the "
                         f"{MAX_SURFACE_POINTS:,} a surface takes; use fewer points")
    return sweeps


def point_scheme(scheme: Scheme, values: dict[sp.Symbol, sp.Rational], cache: dict | None = None) -> Scheme | None:
    """The numeric scheme at exact parameter values (None when some cost is undefined or not a finite real
    there). `cache` shares the substitution of identical cells (and may come filled: {cell: its value})."""
    cache = {} if cache is None else cache
    if any(not (v.is_real and v.is_finite) for v in cache.values()):
        return None

    def at(e: sp.Expr) -> sp.Expr:
        value = cache.get(e)
        if value is None:
            value = cache[e] = e.xreplace(values) if e.free_symbols else e
            if not (value.is_real and value.is_finite):
                raise BuiltinError(f"{e} is {value}")
        return value

    try:
        rows = {m: tuple(at(e) for e in row) for m, row in scheme.rows.items()}
        given = None if scheme.given is None else {k: at(e) for k, e in scheme.given.items()}
    except (BuiltinError, TypeError, ZeroDivisionError):
        return None
    fixed = {name: (tuple(values.get(v, v) for v in value) if isinstance(value, tuple) else values.get(value, value))
             for name, value in scheme.parameters.items()}
    return replace(scheme, rows=rows, parameters=fixed, given=given, cells=None, orbits=None, assumptions=[],
                   side_conditions=[], _labels={}, _columns={})


def admitted(scheme: Scheme, values: dict[sp.Symbol, sp.Rational]) -> bool:
    """Whether every assumption is shown true at the point (a condition not decided there counts as outside)."""
    return all(condition.xreplace(values) is sp.true for condition, _ in scheme.assumptions)


def surface(scheme: Scheme, inputs: list[tuple[str, list[ExactRows] | FixedSets, np.ndarray]],
            sweeps: list[tuple[str, list[Fraction]]], into: list | None = None) -> Surface:
    """`inputs`: (classifier, its exact row blocks (or `FixedSets`), its true class indices), in order.
    The symbolic `scheme` has exactly the two swept parameters. The Surface is appended to `into` before any
    point is done, and counts the points done (`done`): what a time limit stops keeps them."""
    (first, grid1), (second, grid2) = sweeps
    symbols = {s.name: s for s in scheme.symbols}
    s1, s2 = symbols[first], symbols[second]
    rows = len(inputs[0][2]) if inputs else 0
    blank = lambda: [[None] * len(grid2) for _ in grid1]  # noqa: E731 - a fresh grid per measure
    grids = [SurfaceGrid(name, blank(), blank(), blank()) for name, _, _ in inputs]
    out = Surface((first, second), (grid1, grid2), grids, rows,
                  decided=not all(isinstance(blocks, FixedSets) for _, blocks, _ in inputs))
    if into is not None:
        into.append(out)
    truths = [np.asarray(truth, dtype=np.int64) for _, _, truth in inputs]
    index = {m: k for k, m in enumerate(scheme.all_sets)}  # the same sets, in the same order, at every point
    cells = {e for row in scheme.rows.values() for e in row if e.free_symbols}
    partial, partial_row = None, None
    for i, j, a, b in out.points():
        limits.check_time()  # between grid points, so that --time-limit stops a long surface
        values = {s1: sp.Rational(a.numerator, a.denominator), s2: sp.Rational(b.numerator, b.denominator)}
        out.done = i * len(grid2) + j  # the points before this one (a stop from here on leaves this one out)
        if not admitted(scheme, values):
            out.excluded.append((a, b))
            out.done += 1
            continue
        if partial_row != i:  # the first parameter substituted once per row of the grid: simpler cells
            partial, partial_row = _substituted(cells, {s1: values[s1]}), i
        at = None if partial is None else point_scheme(scheme, values, _substituted(partial, {s2: values[s2]}))
        if at is None:
            out.undefined.append((a, b))
            out.done += 1
            continue
        costs = None
        for grid, (_, blocks, _), truth in zip(grids, inputs, truths):
            if isinstance(blocks, FixedSets):
                grid.mean_cost[i][j], grid.rate[i][j], grid.size[i][j] = _measures(at, blocks.sets, truth, index)
                continue
            costs = costs or ExpectedCosts(at)  # once per point, shared by the classifiers
            decider = BatchDecider(at, costs)
            for block in blocks:
                decider.add(block)
            result = decider.result
            out.exact_rows += result.exact_rows
            grid.ties += sum(1 for n in result.tied_optima if n > 1)
            grid.undecided += len(result.undecided)
            grid.mean_cost[i][j], grid.rate[i][j], grid.size[i][j] = _measures(at, result.predictions, truth, index)
        out.done += 1
    return out


def _substituted(cells, values: dict) -> dict | None:
    """Each cell (a dict's keys, or a set of them) with `values` put in: {original cell: value}."""
    items = cells.items() if isinstance(cells, dict) else ((e, e) for e in cells)
    try:
        return {e: v.xreplace(values) if v.free_symbols else v for e, v in items}
    except (BuiltinError, TypeError, ZeroDivisionError):  # undefined once the first parameter is in: point_scheme
        return None  # says so at each point


def _measures(scheme: Scheme, predictions, truth: np.ndarray, index: dict) -> tuple[Exact, Fraction, Fraction]:
    """The exact mean cost, the indeterminacy rate and the average set size of one point's predictions
    (`index`: each set's position in `scheme.all_sets`; the counts are integers, the costs exact)."""
    n, K, sets = len(predictions), scheme.K, scheme.all_sets
    codes = np.fromiter(map(index.__getitem__, predictions), dtype=np.int64, count=n)
    counts = np.bincount(codes * K + truth, minlength=len(sets) * K)
    rational, total, exact_total, indeterminate, size = True, Fraction(0), sp.Integer(0), 0, 0
    for code in np.flatnonzero(counts).tolist():
        count, members, y = int(counts[code]), sets[code // K], code % K
        indeterminate += count if len(members) > 1 else 0
        size += count * len(members)
        cost = scheme.cost(members, y)
        if cost.is_Rational:
            total += count * Fraction(int(cost.p), int(cost.q))
        else:
            rational = False
            exact_total += count * cost
    mean = total / n if rational else (exact_total + sp.Rational(total.numerator, total.denominator)) / n
    return mean, Fraction(indeterminate, n), Fraction(size, n)


def compare(a: Exact, b: Exact) -> int | None:
    """The exact sign of a - b (None when no certified comparison decides it)."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return (a > b) - (a < b)
    return certified.compare(_sympy(a), _sympy(b)).value


def _sympy(x: Exact) -> sp.Expr:
    return sp.Rational(x.numerator, x.denominator) if isinstance(x, Fraction) else x


def lowest(values: list[list[Exact | None]]) -> tuple[Exact | None, list[tuple[int, int]], int]:
    """The least value over the admitted points, every (i, j) where it is reached, and how many comparisons
    were left undecided (irrational costs only; such a point is not counted as reaching the least)."""
    best, where, undecided = None, [], 0
    for i, row in enumerate(values):
        for j, v in enumerate(row):
            if v is None:
                continue
            sign = -1 if best is None else compare(v, best)
            if sign is None:
                undecided += 1
            elif sign < 0:
                best, where = v, [(i, j)]
            elif sign == 0:
                where.append((i, j))
    return best, where, undecided


def cheapest(s: Surface) -> dict[str, int]:
    """With several classifiers: at how many admitted points each has the least mean cost alone ('tied': several
    share it; 'undecided': some comparison was not decided exactly)."""
    counts = {g.name: 0 for g in s.classifiers} | {"tied": 0, "undecided": 0}
    for i, j, _, _ in s.points():
        values = [(g.name, g.mean_cost[i][j]) for g in s.classifiers]
        if any(v is None for _, v in values):
            continue
        best, names, open_ = values[0][1], [values[0][0]], False
        for name, v in values[1:]:
            sign = compare(v, best)
            if sign is None:
                open_ = True
            elif sign < 0:
                best, names = v, [name]
            elif sign == 0:
                names.append(name)
        key = "undecided" if open_ else names[0] if len(names) == 1 else "tied"
        counts[key] += 1
    return counts
