"""The console report (rich): matrix, possibility of every set, verdicts, fit to filtering and choice."""

from __future__ import annotations

import textwrap

from rich import box
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from verifier.analysis.pipeline import Analysis
from verifier.analysis.remedy import how_to_fit
from verifier.properties.settings import LEVELS, TABLE_VIII
from verifier.report.check import set_facts, words
from verifier.report.check.tables import MAX_ROWS, representatives
from verifier.report.text import DEFAULT_WIDTH, clean, grid, render_to_text
from verifier.report.text.math_text import console as math
from verifier.verdict import EvidenceKind, Verdict

MAX_COLUMNS = 48  # classes shown as columns of the matrix on the console (all of them in JSON and --report)

CONSOLE_SETS = " A set index is written as the set: c{a,b}(c) is c_Y(c) for Y = {a, b}."
VERDICT_STYLE = {Verdict.HOLDS: "bold green", Verdict.FAILS: "bold red", Verdict.UNKNOWN: "bold yellow"}


def to_text(analysis: Analysis, width: int = DEFAULT_WIDTH, color: bool = False) -> str:
    """The full console report (`verify -v`) of the analysis as text, `width` columns wide, with ANSI colours when
    `color`."""
    return render_to_text(lambda console: render(analysis, console), width, color)


def render(analysis: Analysis, console: Console) -> None:
    """Print the full console report to `console`: the matrix, each set's facts, the verdicts, the fit to each setting,
    the expectations and the cross-checks."""
    width = console.width
    console.print(_header(analysis))
    # the grids are already laid out to the width: printed without rich's line wrapping (seconds for 511 rows)
    console.print(_matrix(analysis, width), soft_wrap=True)
    console.print(_set_facts(analysis, width), soft_wrap=True)
    if analysis.decision is not None:
        console.print(_decision(analysis, width), soft_wrap=True)
    console.print(_properties(analysis))
    console.print()
    console.print(_settings(analysis, width))
    if analysis.expectations:
        console.print(_expectations(analysis))
    if analysis.cross_checks:
        console.print(_cross_checks(analysis, width), soft_wrap=True)


def _header(a: Analysis) -> Panel:
    s = a.spec
    lines = [Text(clean(s.name), style="bold"), Text(f"spec: {clean(s.path)}")]
    names = a.scheme.classes
    listed = ", ".join(names) if len(names) <= MAX_COLUMNS else \
        ", ".join(names[:MAX_COLUMNS - 1]) + f", …, {names[-1]} (all of them in --format json)"
    lines.append(Text(f"classes ({a.scheme.K}): {clean(listed)}"))
    family = a.scheme.spec.predictions.describe(a.scheme.K)
    if family:
        lines.append(Text(f"predictions: {family}"))
    if a.scheme.parameters:
        shown = ", ".join(f"{k} = {_param(v)}" if not _is_symbol(v) else f"{k} (symbolic)"
                          for k, v in a.scheme.parameters.items())
        lines.append(Text(f"parameters: {shown}"))
    if a.scheme.assumptions:
        lines.append(Text("assumptions: " + math(clean("; ".join(text for _, text in a.scheme.assumptions)))))
    if a.symbolic is not None and a.symbolic.admissible is not True:
        lines.append(Text("no admissible parameter value: " + math(a.results[0].reason), style="bold yellow"))
    if s.source:
        lines.append(Text(f"source: {clean(s.source)}"))
    if s.description:
        lines.append(Text(clean(s.description.strip()), style="dim"))
    if s.setting:
        lines.append(Text(f"intended setting: {s.setting}"))
    for note in a.scheme.notes:
        lines.append(Text(math(clean(note) if note.startswith("warning:") else f"note: {clean(note)}"), style="yellow"))
    return Panel(Group(*lines), title="verify", box=box.ROUNDED, expand=False)


def _is_symbol(value) -> bool:
    values = value if isinstance(value, tuple) else (value,)
    return any(getattr(v, "is_Symbol", False) for v in values)


def _param(value) -> str:
    if isinstance(value, tuple):
        return "(" + ", ".join(str(v) for v in value) + ")"
    return str(value)


def _matrix(a: Analysis, width: int) -> Text:
    s = a.scheme
    short = s.K > 5
    many = len(s.all_sets) > set_facts.LIST_ALL_UP_TO and s.orbits is None
    shown = representatives(s) if s.orbits is not None else s.all_sets[:MAX_ROWS] if many else s.all_sets
    columns = min(s.K, MAX_COLUMNS)  # a row of 1,000 classes folds into hundreds of lines
    rows = [[s.named(m).replace(", ", ",") if short else s.named(m),
             *[words.number(v, short=short, bare=short) for v in s.rows[m][:columns]], s.origin[m]] for m in shown]
    notes = ["entries that are not fractions are irrational, shown as 4-digit decimals; exact values in "
             "--format json"] if short else []
    if many:
        notes.append(f"the first {len(shown):,} of {len(s.all_sets):,} rows; all of them in --format json or --report")
    if columns < s.K:
        notes.append(f"the first {columns:,} of {s.K:,} columns; all of them in --format json or --report")
    if s.orbits is not None:
        notes.append("the first class and one set per size: by symmetry every other row, singletons included, is "
                     "one of these with the classes renamed")
    elif s.lemma is not None and not s.lemma.every_set:
        notes.append("the singletons and the few sets the power-mean route built; no other row is listed")
    return grid("Extended cost matrix c_Y(y) (rows: predicted sets; columns: true class)",
                ["Y", *[f"y = {c}" for c in s.classes[:columns]], "from"], rows, right=set(range(1, columns + 1)),
                breaks={sum(len(m) == 1 for m in shown)}, caption="; ".join(notes) or None, width=width)


def _set_facts(a: Analysis, width: int) -> Text:
    title = "Each predicted set: possible (Definition 4) and optimal for some p; every certificate is exact " \
            "and re-checked independently"
    if a.symbolic is not None:
        return grid("Possibility (Definition 4) over all admissible parameter values (z3; examples are exact)",
                    ["Y", "status", "evidence"], [[math(c) for c in row] for row in set_facts.symbolic_rows(a)],
                    caption=math(" ".join(set_facts.summary(a))),
                    width=width)
    rows = [[math(c) for c in row] for row in set_facts.rows(a)]
    if len(a.scheme.all_sets) > set_facts.LIST_ALL_UP_TO and len(rows) > MAX_ROWS:
        rows = rows[:MAX_ROWS] + [[f"… and {len(rows) - MAX_ROWS:,} more", "", "", "all in --format json"]]
    else:
        rows = rows[:]
    return grid(title, set_facts.HEADERS, rows, breaks={a.scheme.K},
                caption=math("\n".join(set_facts.summary(a))), width=width)


def _decision(a: Analysis, width: int) -> Text:
    d = a.decision
    rows = [[f"{words.number(r.low)} … {words.number(r.high)}", ", ".join(a.scheme.label(m) for m in r.optimal)]
            for r in d.regions]
    return grid(f"Optimal prediction as a function of {d.variable} (cf. the paper's Fig. 2); boundaries are exact",
                [d.variable, "optimal prediction(s)"], rows, width=width)


def _properties(a: Analysis) -> Table:
    table = Table(title="Properties (Yang, Destercke & Masson 2017)", box=box.SIMPLE_HEAD, title_justify="left")
    table.add_column("", style="bold")
    table.add_column("property", max_width=18)
    table.add_column("verdict")
    table.add_column("evidence", ratio=1)
    for r in a.results:
        verdict = Text(r.verdict.value + (" (tight)" if r.tight else ""), style=VERDICT_STYLE[r.verdict])
        evidence = math(words.explain(r, a.scheme))
        if r.checked and r.evidence.kind in (EvidenceKind.COUNTEREXAMPLE, EvidenceKind.WITNESS,
                                             EvidenceKind.CERTIFICATES):
            evidence += " [re-checked independently]"
        table.add_row(r.property.id, r.property.name, verdict,
                      Text.assemble(("says: ", "dim"), math(r.property.plain) + "\n", ("found: ", "dim"), evidence))
    table.caption = Text(words.NOTATION + CONSOLE_SETS, style="dim")
    table.caption_justify = "left"
    return table


def _settings(a: Analysis, width: int) -> Group:
    table = Table(title="Fit to the paper's Table VIII", box=box.SIMPLE_HEAD, title_justify="left")
    table.add_column("setting", style="bold")
    for i in range(1, 11):
        table.add_column(f"P{i}", justify="center")
    table.add_column("fit")
    by_id = a.by_id
    marks = {Verdict.HOLDS: "✓", Verdict.FAILS: "✗", Verdict.UNKNOWN: "?"}
    for setting, levels in TABLE_VIII.items():
        fit = a.settings[setting]
        cells = [f"{levels[pid]}{marks[by_id[pid].verdict]}" for pid in levels]
        style = {True: "green", False: "red", None: "yellow"}[fit.fits]
        name = setting + (" (intended)" if a.spec.setting == setting else "")
        table.add_row(name, *map(Text, cells), Text(fit.label, style=f"bold {style}"))
    notes = []
    for setting, fit in a.settings.items():
        if fit.failing_necessary:
            notes.append(f"{setting}: necessary {', '.join(fit.failing_necessary)} "
                         + ("fails" if len(fit.failing_necessary) == 1 else "fail"))
        if fit.unknown_necessary:
            notes.append(f"{setting}: necessary {', '.join(fit.unknown_necessary)} undecided")
        notes += [f"{setting}: warning: {math(w)}" for w in fit.warnings]
    notes.append(", ".join(f"{k} = {v}" for k, v in LEVELS.items()))
    return Group(table, Text("\n".join(notes)), *_how_to_fit(a, width), Text(""))


def _how_to_fit(a: Analysis, width: int) -> list[Text]:
    out = []
    for setting, remedy in how_to_fit(a).items():
        out.append(Text(f"\nTo fit the {setting} setting:", style="bold"))
        out += [Text(textwrap.fill(math(step), width - 1, initial_indent="  - ", subsequent_indent="    "))
                for step in remedy.steps]
    return out


def _expectations(a: Analysis) -> Table:
    table = Table(title="Expectations (expect:)", box=box.SIMPLE_HEAD, title_justify="left")
    table.add_column("property")
    table.add_column("expected")
    table.add_column("actual")
    table.add_column("")
    for e in a.expectations:
        table.add_row(e.property_id, e.expected, e.actual,
                      Text("met", "green") if e.met else Text("NOT MET", "bold red"))
    return table


def _cross_checks(a: Analysis, width: int) -> Text:
    rows = []
    for c in a.cross_checks:
        status = "DISAGREES" if c.disagrees else ("agrees" if c.second is not None else "skipped")
        rows.append([c.property_id, c.first, c.second or "—", status, c.note or c.method])
    return grid("Cross-check: every property decided again by an independent method",
                ["", "reported", "second", "", "second method / note"], rows, width=width)
