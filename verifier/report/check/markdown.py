"""The Markdown report, for pull-request comments and design reviews."""

from __future__ import annotations

from verifier.analysis.pipeline import Analysis
from verifier.properties.settings import LEVELS, TABLE_VIII
from verifier.report.check import set_facts, words
from verifier.report.check.tables import SYMMETRY_ROWS, fit_steps, matrix_rows, rows_shown, summary
from verifier.report.text import code_span, markdown_cell
from verifier.report.text.math_text import markup
from verifier.report.text.safe_text import markdown as md


def _md_table(headers, rows) -> list[str]:
    out = ["| " + " | ".join(map(markdown_cell, headers)) + " |", "|" + "---|" * len(headers)]
    shown = rows_shown(len(headers))
    out += ["| " + " | ".join(map(markdown_cell, row)) + " |" for row in rows[:shown]]
    if len(rows) > shown:
        out.append(f"\n… and {len(rows) - shown:,} more rows (all in the JSON report)")
    return out


def markdown(a: Analysis) -> str:
    """The analysis as a Markdown report: the summary, the verdicts with their evidence, the fit to each setting, each
    set's facts and the notation."""
    s = a.scheme
    out = [f"# {' '.join(md(a.spec.name).split())}", "", f"Spec: {code_span(a.spec.path)}"
           + (f" — source: {md(a.spec.source)}" if a.spec.source else ""), ""]
    for line in summary(a):  # one paragraph each: consecutive lines would run together in Markdown
        out += [md(line), ""]
    out += ["## Properties", ""]
    out += _md_table(["", "property", "says", "verdict", "evidence"],
                     [[r.property.id, r.property.name, r.property.plain,
                       f"**{r.verdict.value}**" + (" (tight)" if r.tight else ""), words.explain(r, s)]
                      for r in a.results])
    out += ["", md(words.NOTATION)]
    out += ["", "## Fit to the filtering and choice settings", ""]
    out += _md_table(["setting", *[f"P{i}" for i in range(1, 11)], "fit"],
                     [[name, *[f"{lvl} {a.by_id[pid].verdict.value}" for pid, lvl in TABLE_VIII[name].items()],
                       a.settings[name].label] for name in TABLE_VIII])
    for name, fit in a.settings.items():
        out += [f"- {name}: {md(w)}" for w in fit.warnings]
    out += ["", ", ".join(f"{k} = {v}" for k, v in LEVELS.items())]
    for setting, steps in fit_steps(a):
        out += ["", f"### To fit the {setting} setting", ""] + [f"- {md(step)}" for step in steps]
    out += ["", "## Extended cost matrix", ""]
    out += _md_table(["Y", *[f"y = {c}" for c in s.classes]], matrix_rows(a))
    if s.orbits is not None:
        out += ["", SYMMETRY_ROWS]
    out += ["", "## Each predicted set: possible (Definition 4) and optimal for some p", ""]
    out += [md(line) + "\n" for line in set_facts.summary(a)]
    out += (_md_table(["Y", "status", "evidence"], set_facts.symbolic_rows(a)) if a.symbolic is not None
            else _md_table(set_facts.HEADERS, set_facts.rows(a)))
    if a.expectations:
        out += ["", "## Expectations", ""]
        out += _md_table(["property", "expected", "actual", ""],
                         [[e.property_id, e.expected, e.actual, "met" if e.met else "**NOT MET**"]
                          for e in a.expectations])
    return markup("\n".join(out)) + "\n"  # ≥ for >=, c<sub>a,b</sub> for c_{a, b}, after escaping
