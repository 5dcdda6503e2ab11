"""Mean cost as a scheme's parameter sweeps a range (the paper's Fig. 3 for p-discounted costs): for each
classifier, the exact mean cost as a function of the one symbolic parameter, Σ count · c_Ŷ(y)(θ) / N, and its
values on a grid (floats, for the picture and the data; the exact expression is reported beside them); a
percentile bootstrap band per curve (the same resampled instances at every grid point, so the band is a
smooth statistical estimate, labelled as one); and where two curves cross, exactly (`crossings`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from verifier.errors import UsageError
from verifier.formula.arith import BuiltinError
from verifier.formula.rounded import rounded
from verifier.lazy_sympy import sympy as sp
from verifier.numbers import shown
from verifier.scheme import Scheme
from verifier.using.evaluate.cell_costs import CellCosts, RowCosts
from verifier.using.evaluate.crossings import Crossing, crossings
from verifier.using.evaluate.scores import BOOTSTRAP, SEED, grouped
from verifier.using.inputs import Predictions, exact_number

MAX_POINTS = 2001


@dataclass
class Curve:
    """One classifier's mean cost as an exact expression in the swept parameter, with its float values and
    bootstrap band at the grid points."""

    name: str
    expression: sp.Expr  # exact mean cost in the parameter
    values: list[float | None]  # at each grid point (None outside the assumptions, or where undefined)
    band: list[tuple[float, float] | None] = field(default_factory=list)  # bootstrap interval at each point
    reached: int | None = None  # grid points done when the time limit cut the sweep (None: every point)


@dataclass
class Sweep:
    """Mean cost curves over one parameter's grid: each classifier's curve, the grid points outside the
    assumptions, and where every pair of curves crosses."""

    parameter: str
    grid: list[Fraction]
    curves: list[Curve]
    excluded: list[Fraction]  # grid points outside the spec's assumptions
    crossings: list[Crossing] = field(default_factory=list)  # every pair of curves, over the admissible grid range
    level: float = 0.95  # of the bootstrap bands
    planned: list[str] = field(default_factory=list)  # every classifier to sweep, in order
    cut: str | None = None  # what the time limit left undone, when it cut the sweep


def parse_sweep(text: str, parameters: list[str]) -> tuple[str, list[Fraction]]:
    """'r=0.1:2:20': the parameter, from, to, and the number of points (exact grid points)."""
    name, sep, rest = text.partition("=")
    parts = rest.split(":")
    if not sep or len(parts) != 3:
        raise UsageError(f"--sweep {shown(text)}: expected NAME=FROM:TO:POINTS, e.g. r=0.1:2:20")
    if name.strip() not in parameters:
        raise UsageError(f"--sweep: {name.strip()!r} is not a symbolic parameter of the spec "
                         f"({', '.join(parameters) or 'it has none'})")
    low, high = exact_number(parts[0], "--sweep FROM"), exact_number(parts[1], "--sweep TO")
    points = parts[2].strip()
    if not (points.isascii() and points.isdigit() and len(points) <= 6) or not 2 <= int(points) <= MAX_POINTS \
            or low >= high:
        raise UsageError(f"--sweep {shown(text)}: FROM < TO and 2 to {MAX_POINTS:,} points are expected")
    count = int(parts[2])
    return name.strip(), [low + (high - low) * i / (count - 1) for i in range(count)]


def sweep(scheme: Scheme, predictions: list[Predictions], parameter: str, grid: list[Fraction],
          level: float = 0.95, costs: CellCosts | None = None, into: Sweep | None = None) -> Sweep:
    """The mean cost of each classifier's sets as `parameter` takes the values of `grid`; `costs`: the cells'
    exact costs where the scheme holds some sets only (`cell_costs.costs_of`; default: its rows). `into`: the
    sweep to fill as it goes (every point appended when done), so that what the time limit stops keeps them."""
    costs = costs or RowCosts(scheme)
    symbol = next(s for s in scheme.symbols if s.name == parameter)
    points = {x: sp.Rational(x.numerator, x.denominator) for x in grid}
    out = into if into is not None else Sweep(parameter, grid, [], [], level=level)
    out.parameter, out.grid, out.level, out.planned = parameter, grid, level, [p.name for p in predictions]
    excluded = out.excluded = [x for x in grid if any(condition.subs(symbol, points[x]) is sp.false
                                                      for condition, _ in scheme.assumptions)]
    curves = out.curves
    for pred in predictions:
        cells, inverse = grouped(pred)
        n = len(pred.truth)
        cell_costs = costs.costs([(members, y) for members, y, _ in cells])
        expr = sp.Add(*[count * cost for (_, _, count), cost in zip(cells, cell_costs)]) / n
        resampled = _resampled_counts(inverse, len(cells), n)
        values, band = [], []
        curves.append(Curve(pred.name, expr, values, band, reached=0))
        for x in grid:
            value, interval = None, None
            if x not in excluded:
                try:
                    exact = expr.subs(symbol, points[x])
                    if exact.is_finite and exact.is_real:
                        value = rounded(exact)
                        cell_values = np.array([rounded(c.subs(symbol, points[x])) for c in cell_costs])
                        interval = _band(resampled @ cell_values / n, level)
                except BuiltinError:  # undefined there (e.g. a power mean of a zero with a negative exponent)
                    value = None
            band.append(interval)
            values.append(value)
            curves[-1].reached = len(values)
        curves[-1].reached = None
    kept = [x for x in grid if x not in excluded]
    out.crossings = crossings(curves, symbol, kept[0], kept[-1]) if len(kept) > 1 else []
    return out


def cut_short(s: Sweep, stop) -> Sweep:
    """The sweep as the time limit `stop` left it: each curve's points done (the others not reached), no
    crossings (they need whole curves), and `cut` saying what was left."""
    done = [c for c in s.curves if c.reached is None]
    current = next((c for c in s.curves if c.reached is not None), None)
    parts = [f"{len(done):,} of {len(s.planned):,} classifiers swept at every grid point"]
    if current is not None:
        del current.values[current.reached:]  # a point appended as the stop came, not yet counted
        del current.band[current.reached:]  # a band computed for a point whose value was not kept
        missing = len(s.grid) - current.reached  # not reached: no value, as the JSON's `points_done` says
        current.values.extend([None] * missing)
        current.band.extend([None] * missing)
        parts.append(f"{current.name} at {current.reached:,} of {len(s.grid):,} grid points")
    left = s.planned[len(s.curves):]
    if left:
        parts.append("not swept: " + ", ".join(left[:5]) + (f", ... ({len(left):,} in all)" if len(left) > 5 else ""))
    s.crossings = []
    s.cut = f"{stop}: " + "; ".join(parts) + "; where the curves cross was not computed (raise --time-limit, or " \
        "sweep fewer points)"
    return s


def _resampled_counts(inverse: np.ndarray, cells: int, n: int) -> np.ndarray:
    """How often each (set, true class) cell occurs in each bootstrap resample of the instances (B x cells)."""
    rng = np.random.default_rng(SEED)
    out = np.empty((BOOTSTRAP, cells))
    block = max(1, min(100, 4_000_000 // n))
    for start in range(0, BOOTSTRAP, block):
        rows = min(block, BOOTSTRAP - start)
        idx = inverse[rng.integers(0, n, size=(rows, n))]
        for r in range(rows):
            out[start + r] = np.bincount(idx[r], minlength=cells)
    return out


def _band(means: np.ndarray, level: float) -> tuple[float, float]:
    tail = (1 - level) / 2
    return float(np.quantile(means, tail)), float(np.quantile(means, 1 - tail))
