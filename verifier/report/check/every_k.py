"""The report of `verify --classes 2.. SPEC`: each property's verdict for every class count, as runs of K
("holds for K = 2..4, fails for every K ≥ 5"), with the counterexample at the first failing K, on the console
and as JSON."""

from __future__ import annotations

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from verifier.analysis.every_k import EveryKResult
from verifier.engines.every_k import EXACT_SIZES, TAIL
from verifier.properties import PROPERTIES
from verifier.report.check import words
from verifier.report.text import DEFAULT_WIDTH, clean, render_to_text
from verifier.report.text.math_text import console as math
from verifier.spec import Spec
from verifier.verdict import Truth

_WORD = {Truth.TRUE: "holds", Truth.FALSE: "fails", Truth.UNKNOWN: "unknown"}
_STYLE = {Truth.TRUE: "green", Truth.FALSE: "red", Truth.UNKNOWN: "yellow"}


def runs_text(result: EveryKResult, pid: str) -> str:
    """A property's verdicts over the class counts as runs, as "holds for K = 2..4; fails for every K ≥ 5"."""
    parts = []
    for first, last, truth in result.runs(pid):
        if last is None:
            parts.append(f"{_WORD[truth]} for every K ≥ {first}")
        elif first == last:
            parts.append(f"{_WORD[truth]} at K = {first}")
        else:
            parts.append(f"{_WORD[truth]} for K = {first}..{last}")
    return "; ".join(parts)


def how(result: EveryKResult) -> str:
    """How the verdicts for every K were decided, in one paragraph (the console's and the JSON's "method")."""
    return (f"Each property is decided per set size: exactly for sizes 2 to {EXACT_SIZES} (further where a tail "
            f"stays open), and for every size from {TAIL} on by one z3 question over the size; a property's "
            "verdict at K follows from its quantifiers over the sizes 2..K. Re-checked set by set (the symmetry "
            f"route) at K = {', '.join(map(str, sorted(result.rechecked)))}.")


def to_text(spec: Spec, result: EveryKResult, width: int = DEFAULT_WIDTH, color: bool = False) -> str:
    """The every-K report as console text, `width` columns wide, with ANSI colours when `color`."""
    return render_to_text(lambda console: render(spec, result, console), width, color)


def render(spec: Spec, result: EveryKResult, console: Console) -> None:
    """Print the every-K table to `console`, then how it was decided and the counterexample at each first failing K."""
    table = Table(title=f"{clean(spec.name)}: verdicts for every class count K ≥ {result.low} (classes 1..K)",
                  title_justify="left", box=box.SIMPLE_HEAD)  # the box of the report's own tables
    table.add_column("property")
    table.add_column("verdict by class count")
    table.add_column("first fails at")
    for prop in PROPERTIES:
        e = result.by_id(prop.id)
        first = result.first_failure(prop.id)
        table.add_row(f"{prop.id} {prop.name}", Text(runs_text(result, prop.id), _STYLE[e.beyond]),
                      "—" if first is None else f"K = {first}")
    console.print(table)
    console.print(Text(how(result)))
    for prop in PROPERTIES:
        first = result.first_failure(prop.id)
        if first is not None and first in result.rechecked:
            a = result.rechecked[first]
            console.print(Text(f"{prop.id} at K = {first}: " + math(words.explain(a.by_id[prop.id], a.scheme))))
        reasons = result.by_id(prop.id).tail_reasons
        if result.by_id(prop.id).beyond is Truth.UNKNOWN and reasons:
            console.print(Text(f"{prop.id} beyond K = {result.by_id(prop.id).last}: open ({math(reasons[0])})",
                               style="yellow"))
    for line in result.disagreements:
        console.print(Text(f"disagreement: {line}; that property is reported unknown from there on", style="red"))


def to_json(spec: Spec, result: EveryKResult) -> dict:
    """The every-K result as JSON data: each property's runs of K, its first failure and, when it stays unknown, why."""
    return {
        "spec": spec.path,
        "name": spec.name,
        "classes": f"{result.low}..",
        "every_k": {p.id: {"runs": [{"from": a, "to": b, "verdict": _WORD[t]} for a, b, t in result.runs(p.id)],
                           "first_failure": result.first_failure(p.id),
                           "open_because": result.by_id(p.id).tail_reasons
                           if result.by_id(p.id).beyond is Truth.UNKNOWN else []}
                    for p in PROPERTIES},
        "rechecked_at": sorted(result.rechecked),
        "disagreements": list(result.disagreements),
        "method": how(result),
    }
