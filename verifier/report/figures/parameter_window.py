"""Which properties over two symbolic parameters are drawn as exact verdicts at sample points, and over which
windows of the parameters (`spot_question`), apart from the drawing, without matplotlib: the run makes those
verdicts before its analysis is sealed (`api.completion`) and `parameter_plot` draws the same question. Also the
float margins that trace an exact condition (`margin`), used by the drawing and by the test of whether a condition
can be drawn at all. Floats only trace; nothing here decides a verdict.
"""

from __future__ import annotations

import numpy as np

from verifier.lazy_sympy import sympy as sp

SPOT_POINTS = 9  # per axis, for the exact verdicts at sample points


def spot_question(analysis) -> tuple[list, list[tuple[float, float]]] | None:
    """The properties of a two-parameter scheme drawn at sample points (those that hold for some values only and
    have no drawable exact condition) and the two windows, or None when there are none."""
    s = analysis.scheme
    if not s.symbolic or len(s.symbols) != 2:
        return None
    unstated = []
    for r in analysis.results:
        formula = r.region_formula
        if formula is not None and formula not in (sp.true, sp.false) and drawable(formula, s.symbols):
            continue
        if (formula is not None and formula not in (sp.true, sp.false)) or r.holds_at is not None:
            unstated.append(r)  # holds for some values only, with no condition to draw: checked at points
    return (unstated, [window(analysis, x) for x in s.symbols]) if unstated else None


def drawable(formula, symbols) -> bool:
    """Whether the condition evaluates in floats (sympy functions without a numeric form cannot be drawn)."""
    probe = np.meshgrid(np.linspace(0.25, 2.0, 3), np.linspace(0.25, 2.0, 3))
    try:
        margin(formula, list(symbols), probe)
    except Exception:  # noqa: BLE001 - lambdify's failures are of many kinds
        return False
    return True


def window(analysis, symbol_: sp.Symbol) -> tuple[float, float]:
    """A window for one parameter: the assumptions' bounds where they give them, else around the exact
    examples of the report (counterexamples, values where a property holds, samples)."""
    s = analysis.scheme
    values = [float(v) for r in analysis.results for source in (r.evidence.parameters, r.holds_at) if source
              for k, v in source.items() if k == symbol_.name]
    values += [float(v) for sample in (analysis.symbolic.samples if analysis.symbolic else []) for k, v in
               sample.items() if k == symbol_.name]
    low, high = min(values + [0.0]), max(values + [1.0])
    low, high = low - 0.25 * (high - low) if low < 0 else low, high + 0.25 * (high - low)
    for condition, _ in s.assumptions:
        if condition.free_symbols == {symbol_}:
            try:
                solved = condition.as_set()
            except (NotImplementedError, TypeError, ValueError):
                continue
            if solved.inf.is_finite:
                low = max(low, float(solved.inf))
            if solved.sup.is_finite:
                high = min(high, float(solved.sup))
    return (low, high) if high > low else (low, low + 1.0)


def margin(formula, names, values):
    """A continuous function that is > 0 exactly where `formula` holds (min over And, max over Or)."""
    if formula is sp.true or formula is sp.false:
        return np.full_like(values[0], 1.0 if formula is sp.true else -1.0)
    if isinstance(formula, sp.And):
        return np.minimum.reduce([margin(a, names, values) for a in formula.args])
    if isinstance(formula, sp.Or):
        return np.maximum.reduce([margin(a, names, values) for a in formula.args])
    if isinstance(formula, sp.Not):
        return -margin(formula.args[0], names, values)
    difference = evaluate(formula.lhs - formula.rhs, names, values)
    if isinstance(formula, (sp.StrictGreaterThan, sp.GreaterThan)):
        return difference
    if isinstance(formula, (sp.StrictLessThan, sp.LessThan)):
        return -difference
    return -np.abs(difference) if isinstance(formula, sp.Eq) else np.abs(difference)


def evaluate(expr, names, values):
    """`expr` in floats over the grid `values` of the parameters `names` (NaN where undefined)."""
    with np.errstate(all="ignore"):
        out = sp.lambdify(names, expr, "numpy")(*values)
    return np.broadcast_to(np.asarray(out, dtype=float), values[0].shape)
