"""The words and the data of a cost surface (`verify evaluate --probabilities ... --sweep A --sweep B`): per
classifier the range of its exact mean cost and where it is lowest, the ranges of its indeterminacy rate and
average set size; with several classifiers, at how many points each is the cheapest. The JSON holds the full
grids, each value exact (text such as "3/8") with its float beside it."""

from __future__ import annotations

import textwrap
from fractions import Fraction

from verifier.errors import counted
from verifier.formula.notation import paper_text
from verifier.formula.rounded import rounded
from verifier.lazy_sympy import sympy as sp
from verifier.report.use.decisions import TIE_RULE
from verifier.using.evaluate import Surface, SurfaceGrid, cheapest, lowest

WIDTH = 100
SHOWN_POINTS = 3  # points named where the lowest mean cost is reached; the count says how many in all


def _float(x) -> float | None:
    if x is None:
        return None
    return float(x) if isinstance(x, Fraction) else rounded(x)


def _text(x) -> str | None:
    return None if x is None else str(x)


def _shown(x) -> str:
    """An exact value as read: a short rational as written, else a 4-decimal float marked ≈ (the exact value is
    in the JSON)."""
    if isinstance(x, Fraction) and x.denominator <= 1000:
        return str(x)
    if isinstance(x, sp.Basic) and x.is_Rational and x.q <= 1000:
        return str(x)
    return f"≈{_float(x):.4f}"


def _exact(x) -> sp.Expr:
    return sp.Rational(x.numerator, x.denominator) if isinstance(x, Fraction) else x


def _range(values) -> tuple[Fraction, Fraction] | None:
    flat = [v for row in values for v in row if v is not None]
    return (min(flat), max(flat)) if flat else None


def _at(s: Surface, where: list[tuple[int, int]]) -> str:
    (a, b), shown = s.parameters, where[:SHOWN_POINTS]
    points = ", ".join(f"({s.grids[0][i]}, {s.grids[1][j]})" for i, j in shown)
    more = f" and {len(where) - SHOWN_POINTS:,} more point(s)" if len(where) > SHOWN_POINTS else ""
    return f"({a}, {b}) = {points}{more}"


def _between(what: str, low, high) -> str:
    return f"{what} {_shown(low)} everywhere" if low == high else f"{what} from {_shown(low)} to {_shown(high)}"


def _classifier_lines(s: Surface, g: SurfaceGrid) -> list[str]:
    best, where, undecided = lowest(g.mean_cost)
    if best is None:
        return [f"  {g.name}: no admitted grid point"]
    worst = -lowest([[None if v is None else -v for v in row] for row in g.mean_cost])[0]
    rate, size = _range(g.rate), _range(g.size)
    text = (f"  {g.name}: {_between('mean cost', best, worst)}; lowest at {_at(s, where)}"
            + (f" ({undecided} comparison(s) undecided)" if undecided else "")
            + f"; {_between('indeterminacy rate', *rate)}; {_between('average set size', *size)}")
    lines = textwrap.wrap(text, WIDTH, subsequent_indent="    ", break_on_hyphens=False)
    if g.undecided:
        lines.append(f"    {g.undecided:,} row decision(s) not separated exactly from a rival set")
    return lines


def surface_lines(s: Surface) -> list[str]:
    """What the console says of a surface."""
    (a, b), (ga, gb) = s.parameters, s.grids
    admitted = len(ga) * len(gb) - len(s.excluded) - len(s.undefined) - s.not_reached
    sets = ("each row's Bayes-optimal set, decided exactly at every grid point," if s.decided else
            "the set predictions as given")
    lines = textwrap.wrap(f"Mean cost (Eq. 4, exact) of {sets} as {a} goes from {ga[0]} to {ga[-1]} "
                          f"({len(ga):,} points) and {b} from {gb[0]} to "
                          f"{gb[-1]} ({len(gb):,} points); {s.rows:,} rows, "
                          f"{counted(admitted, 'admitted point')}:", WIDTH)
    for g in s.classifiers:
        lines += _classifier_lines(s, g)
    if s.excluded:
        lie = "lies outside the spec's assumptions and is" if len(s.excluded) == 1 else \
            "lie outside the spec's assumptions and are"
        lines.append(f"  {counted(len(s.excluded), 'grid point')} {lie} left out "
                     f"(e.g. {a} = {s.excluded[0][0]}, {b} = {s.excluded[0][1]}).")
    if s.undefined:
        leave = "leaves some cost undefined and is" if len(s.undefined) == 1 else "leave some cost undefined and are"
        lines.append(f"  {counted(len(s.undefined), 'grid point')} {leave} left out "
                     f"(e.g. {a} = {s.undefined[0][0]}, {b} = {s.undefined[0][1]}).")
    if len(s.classifiers) > 1:
        counts = cheapest(s)
        parts = [f"{g.name} at {counts[g.name]}" for g in s.classifiers]
        parts += [f"tied at {counts['tied']}"] if counts["tied"] else []
        parts += [f"undecided at {counts['undecided']}"] if counts["undecided"] else []
        lines += textwrap.wrap("Cheapest (least exact mean cost) per admitted point: " + ", ".join(parts) + ".",
                               WIDTH, subsequent_indent="  ")
    if any(g.ties for g in s.classifiers):
        lines.append(f"Ties between optimal sets: {TIE_RULE}.")
    return lines


def _grid_json(values) -> tuple[list, list]:
    return ([[_text(v) for v in row] for row in values], [[_float(v) for v in row] for row in values])


def surface_json(s: Surface) -> dict:
    """The full grids: [i][j] for the first parameter's i-th and the second's j-th point (null: left out)."""
    (a, b), (ga, gb) = s.parameters, s.grids
    classifiers = []
    for g in s.classifiers:
        best, where, undecided = lowest(g.mean_cost)
        entry = {"classifier": g.name}
        for key, values in (("mean_cost", g.mean_cost), ("indeterminacy_rate", g.rate), ("average_set_size", g.size)):
            entry[key], entry[f"{key}_float"] = _grid_json(values)
        entry["lowest_mean_cost"] = {"value": _text(best), "float": _float(best),
                                     "text": None if best is None else paper_text(_exact(best)),
                                     "at": [{a: str(ga[i]), b: str(gb[j])} for i, j in where],
                                     "undecided_comparisons": undecided}
        entry["rows_with_ties"], entry["undecided_rows"] = g.ties, g.undecided
        classifiers.append(entry)
    return {"parameters": [a, b], "grid": {a: [str(x) for x in ga], b: [str(x) for x in gb]},
            "rows": s.rows, "excluded": [{a: str(x), b: str(y)} for x, y in s.excluded],
            "undefined": [{a: str(x), b: str(y)} for x, y in s.undefined], "exact_row_decisions": s.exact_rows,
            "not_reached": s.not_reached,
            "sets": "decided at each point" if s.decided else "as given", "tie_rule": TIE_RULE if s.decided else None,
            "classifiers": classifiers,
            "cheapest": cheapest(s) if len(s.classifiers) > 1 else None}
