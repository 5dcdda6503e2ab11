"""The rows Markdown and HTML reports share: summary lines, the extended matrix, how to fit each setting."""

from __future__ import annotations

from verifier.analysis.pipeline import Analysis
from verifier.report import words
from verifier.analysis.remedy import how_to_fit

MAX_ROWS = 64  # matrix and possibility rows shown in Markdown/HTML before "and N more" (all are in the JSON)


def summary(a: Analysis) -> list[str]:
    fits = ", ".join(f"{name}: **{fit.label}**" for name, fit in a.settings.items())
    lines = [a.spec.description.strip()] if a.spec.description else []
    lines.append(f"Classes: {', '.join(a.scheme.classes)}. Fit to the paper's Table VIII: {fits}.")
    if a.spec.setting:
        lines.append(f"Intended setting: {a.spec.setting}.")
    if a.scheme.parameters:
        lines.append("Parameters: " + ", ".join(parameter(k, v) for k, v in a.scheme.parameters.items()) + ".")
    if a.scheme.assumptions:
        lines.append("Assumptions: " + "; ".join(t for _, t in a.scheme.assumptions) + ".")
    return lines + [f"Note: {n}" for n in a.scheme.notes]


def parameter(name: str, value) -> str:
    values = value if isinstance(value, tuple) else (value,)
    if any(getattr(v, "is_Symbol", False) for v in values):
        return f"{name} (symbolic)"
    return f"{name} = " + (words.number(value) if not isinstance(value, tuple) else
                           "(" + ", ".join(words.number(v) for v in value) + ")")


def matrix_rows(a: Analysis):
    s = a.scheme
    return [[s.label(m), *[words.number(v, short=s.K > 5) for v in s.rows[m]]] for m in s.all_sets]


def fit_steps(a: Analysis) -> list[tuple[str, list[str]]]:
    """(setting, what would make the scheme fit it) for each setting it does not fit."""
    return [(setting, remedy.steps) for setting, remedy in how_to_fit(a).items()]
