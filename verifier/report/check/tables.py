"""The rows Markdown and HTML reports share: summary lines, the extended matrix, how to fit each setting."""

from __future__ import annotations

from collections.abc import Sequence

from verifier.analysis.pipeline import Analysis
from verifier.analysis.remedy import how_to_fit
from verifier.report.check import words

MAX_ROWS = 64  # matrix and possibility rows shown in Markdown/HTML before "and N more" (all are in the JSON)
MAX_CELLS = 2048  # and at most this many cells: 100 classes show 20 rows, not a 150 KB table


def rows_shown(columns: int) -> int:
    """How many rows of a table with this many columns a Markdown or HTML report shows."""
    return max(8, min(MAX_ROWS, MAX_CELLS // max(1, columns)))


class RowList(Sequence):
    """Rows made only when shown: a report of 65535 sets formats the 64 it prints, not all of them."""

    def __init__(self, items: list, make):
        self.items, self.make = items, make

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self.make(item) for item in self.items[index]]
        return self.make(self.items[index])


def summary(a: Analysis) -> list[str]:
    """The report's opening lines: the description, the classes and fit to each setting, the predictions, parameters,
    assumptions and notes."""
    fits = ", ".join(f"{name}: **{fit.label}**" for name, fit in a.settings.items())
    lines = [a.spec.description.strip()] if a.spec.description else []
    lines.append(f"Classes: {', '.join(a.scheme.classes)}. Fit to the paper's Table VIII: {fits}.")
    family = a.scheme.spec.predictions.describe(a.scheme.K)
    if family:  # with every set allowed, nothing new is said
        lines.append(f"Predictions: {family}; every property and every set's facts range over these sets only.")
    if a.spec.setting:
        lines.append(f"Intended setting: {a.spec.setting}.")
    if a.scheme.parameters:
        lines.append("Parameters: " + ", ".join(parameter(k, v) for k, v in a.scheme.parameters.items()) + ".")
    if a.scheme.assumptions:
        lines.append("Assumptions: " + "; ".join(t for _, t in a.scheme.assumptions) + ".")
    return lines + [f"Note: {n}" for n in a.scheme.notes]


def parameter(name: str, value) -> str:
    """A parameter and its value as the report writes it ("name (symbolic)" for a symbol)."""
    values = value if isinstance(value, tuple) else (value,)
    if any(getattr(v, "is_Symbol", False) for v in values):
        return f"{name} (symbolic)"
    return f"{name} = " + (words.number(value) if not isinstance(value, tuple) else
                           "(" + ", ".join(words.number(v) for v in value) + ")")


def representatives(s) -> list:
    """On the symmetry route: the first class and the set {1..n} of each size the family allows (every other row
    is one of these with the classes renamed)."""
    return [frozenset({0}), *s.orbits.sets]


SYMMETRY_ROWS = ("The first class and one set per size: by symmetry every other row, singletons included, is one "
                 "of these with the classes renamed.")


def matrix_rows(a: Analysis) -> RowList:
    """The rows of the extended matrix (a set and its costs), one per representative set on the symmetry route."""
    s = a.scheme
    return RowList(representatives(s) if s.orbits is not None else s.all_sets,
                   lambda m: [s.named(m), *[words.number(v, short=s.K > 5) for v in s.rows[m]]])


def fit_steps(a: Analysis) -> list[tuple[str, list[str]]]:
    """(setting, what would make the scheme fit it) for each setting it does not fit."""
    return [(setting, remedy.steps) for setting, remedy in how_to_fit(a).items()]
