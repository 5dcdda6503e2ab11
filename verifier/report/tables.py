"""The rows Markdown and HTML reports share: summary lines, the extended matrix, the possibility of each set."""

from __future__ import annotations

from verifier.analysis.pipeline import Analysis
from verifier.report import words
from verifier.verdict import Truth

MAX_ROWS = 64  # matrix and possibility rows shown in Markdown/HTML before "and N more" (all are in the JSON)


def summary(a: Analysis) -> list[str]:
    fits = ", ".join(f"{name}: **{fit.label}**" for name, fit in a.settings.items())
    lines = [f"Classes: {', '.join(a.scheme.classes)}. Fit to the paper's Table VIII: {fits}."]
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


def possibility_rows(a: Analysis):
    s = a.scheme
    if a.symbolic:
        return [[s.label(e.members), e.status, (f"possible at {words.values(e.possible_at)}" if e.possible_at else "")
                 + ("; " if e.possible_at and e.impossible_at else "")
                 + (f"impossible at {words.values(e.impossible_at)}" if e.impossible_at else "") or e.undecided]
                for e in a.symbolic.possibility]
    status = {Truth.TRUE: "possible", Truth.FALSE: "impossible", Truth.UNKNOWN: "undecided"}
    return [[s.label(e.members), status[e.status], words.possibility(s, e).split(": ", 1)[1]] for e in a.possibility]
