"""The report of a class sweep (`verify --classes LO..HI`): verdicts per class count and where each property
first fails, on the console and as JSON."""

from __future__ import annotations

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from verifier.analysis.class_sweep import Sweep
from verifier.properties import PROPERTIES
from verifier.report.check import words
from verifier.report.text import DEFAULT_WIDTH, clean, render_to_text
from verifier.report.text.math_text import console as math
from verifier.verdict import Verdict


def to_text(s: Sweep, width: int = DEFAULT_WIDTH, color: bool = False) -> str:
    """The class sweep as console text, `width` columns wide, with ANSI colours when `color`."""
    return render_to_text(lambda console: render(s, console), width, color)


def render(s: Sweep, console: Console) -> None:
    """Print the sweep's table (verdicts per class count, first failure) to `console`, then the evidence at each first
    failure."""
    table = Table(title=f"{clean(s.spec.name)}: verdicts for {s.counts[0]} to {s.counts[-1]:,} classes "
                        "(classes named 1..K)", title_justify="left", box=box.SIMPLE_HEAD)  # as the report's tables
    table.add_column("property")
    for k in s.counts:
        table.add_column(f"K={k}", justify="center")
    table.add_column("first fails at")
    style = {Verdict.HOLDS: "green", Verdict.FAILS: "red", Verdict.UNKNOWN: "yellow"}
    for prop in PROPERTIES:
        cells = [Text(s.analyses[k].by_id[prop.id].verdict.value, style[s.analyses[k].by_id[prop.id].verdict])
                 for k in s.counts]
        first = s.first_failure(prop.id)
        table.add_row(f"{prop.id} {prop.name}", *cells, "—" if first is None else f"K = {first}")
    console.print(table)
    for prop in PROPERTIES:
        first = s.first_failure(prop.id)
        if first is not None:
            a = s.analyses[first]
            console.print(Text(f"{prop.id} at K = {first}: " + math(words.explain(a.by_id[prop.id], a.scheme))))
    for k, why in s.stopped.items():  # a cut class count says so: its unknowns are the time limit's
        console.print(Text(f"Stopped early at K = {k}: {why}", "yellow"))


def to_json(s: Sweep) -> dict:
    """The class sweep as JSON data: the verdicts per class count and each property's first failure."""
    return {
        "spec": s.spec.path,
        "name": s.spec.name,
        "classes": s.counts,
        "verdicts": {str(k): {r.property.id: r.verdict.value for r in s.analyses[k].results} for k in s.counts},
        "first_failure": {p.id: s.first_failure(p.id) for p in PROPERTIES},
        "stopped": {str(k): why for k, why in s.stopped.items()},
    }
