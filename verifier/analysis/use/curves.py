"""Mean cost as a scheme's parameter sweeps a range (the paper's Fig. 3 for p-discounted costs): for each
classifier, the exact mean cost as a function of the one symbolic parameter, Σ count · c_Ŷ(y)(θ) / N, and its
values on a grid (floats, for the picture and the data; the exact expression is reported beside them)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

from verifier.analysis.use.data import Predictions
from verifier.analysis.use.distribution import exact_number
from verifier.analysis.use.evaluate import grouped
from verifier.errors import UsageError
from verifier.numbers import shown
from verifier.formula.arith import BuiltinError
from verifier.formula import certified
from verifier.scheme import Scheme

MAX_POINTS = 2001


@dataclass
class Curve:
    name: str
    expression: sp.Expr  # exact mean cost in the parameter
    values: list[float | None]  # at each grid point (None outside the assumptions, or where undefined)


@dataclass
class Sweep:
    parameter: str
    grid: list[Fraction]
    curves: list[Curve]
    excluded: list[Fraction]  # grid points outside the spec's assumptions


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
        raise UsageError(f"--sweep {shown(text)}: FROM < TO and 2 to {MAX_POINTS} points are expected")
    count = int(parts[2])
    return name.strip(), [low + (high - low) * i / (count - 1) for i in range(count)]


def sweep(scheme: Scheme, predictions: list[Predictions], parameter: str, grid: list[Fraction]) -> Sweep:
    symbol = next(s for s in scheme.symbols if s.name == parameter)
    points = {x: sp.Rational(x.numerator, x.denominator) for x in grid}
    excluded = [x for x in grid if any(condition.subs(symbol, points[x]) is sp.false
                                       for condition, _ in scheme.assumptions)]
    curves = []
    for pred in predictions:
        cells, _ = grouped(pred)
        n = len(pred.truth)
        expr = sp.Add(*[count * scheme.cost(members, y) for members, y, count in cells]) / n
        values = []
        for x in grid:
            value = None
            if x not in excluded:
                try:
                    exact = expr.subs(symbol, points[x])
                    value = certified.to_float(exact) if exact.is_finite and exact.is_real else None
                except BuiltinError:  # undefined there (e.g. a power mean of a zero with a negative exponent)
                    value = None
            values.append(value)
        curves.append(Curve(pred.name, expr, values))
    return Sweep(parameter, grid, curves, excluded)
