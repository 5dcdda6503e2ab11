"""Many specs at a glance: one line per spec as it is verified (its name), then one table, schemes x P1-P10 plus the fit
to each setting and the expectations, as console text or as Markdown (for `$GITHUB_STEP_SUMMARY`). Names,
reasons and messages are escaped as in the report's .md (`safe_text`). Everything here reads a report's summary
(verdicts, one line of why, fits), so a cached result renders without the analysis."""

from __future__ import annotations

import os

from verifier.errors import counted
from verifier.properties import PROPERTIES
from verifier.report.text import code_span, markdown_cell
from verifier.report.text.math_text import markup

MARK = {"holds": "✓", "fails": "✗", "unknown": "?"}
FIT = {True: "✓", False: "✗", None: "?"}
SETTINGS = ("filtering", "choice")
LEGEND = ("✓ holds / fits, ✗ fails / does not fit, ? undecided; * the spec's intended setting; expect: its "
          "expect: block")


def _stem(path: str) -> str:
    return os.path.splitext(os.path.basename(str(path)))[0]


def _fit(summary: dict, setting: str) -> str:
    return FIT[summary["fits"].get(setting)] + ("*" if summary.get("setting") == setting else "")


def _expect(summary: dict) -> str:
    if not summary.get("expectations"):
        return "-"
    return "met" if summary["expectations_met"] else "NOT MET"


def unmet(summary: dict) -> str:
    """Which expectations broke: 'P3 expected holds, got fails; ...' ('' when every one is met)."""
    return "; ".join(f"{pid} expected {e['expected']}, got {e['actual']}"
                     for pid, e in summary.get("expectations", {}).items() if not e.get("met"))


def stem_width(paths: list[str]) -> int:
    """The column of the specs' names, shared by the lines streamed as each spec finishes and the table."""
    return min(max([len(_stem(p)) for p in paths] + [4]), 40)


def spec_line(summary: dict, path: str, width: int, stems: int = 0) -> str:
    """A spec's line as it finishes: its file stem and its name, aligned; the verdicts, fits and expectations are
    the table's, printed once after the last spec."""
    stem = _stem(path)
    stem = stem if len(stem) <= max(stems, 1) or not stems else stem[:stems - 1] + "…"
    line = f"{stem:<{stems}}  {summary['name']}"
    return line if len(line) <= width - 1 else line[:width - 2] + "…"


def text(items: list[tuple[str, dict]], width: int) -> str:
    """The summaries as one console table: a line per spec with a mark per property, the fit to each setting and the
    expectations, then the legend."""
    ids = [p.id for p in PROPERTIES]
    stems = [_stem(path) for path, _ in items]
    name_width = min(stem_width([path for path, _ in items]), max(12, width - 4 * len(ids) - 30))
    head = f"{'spec':<{name_width}}  " + " ".join(f"{i:<3}" for i in ids) + "  filtering  choice  expect"
    lines = [head, "─" * min(len(head), width - 1)]
    for stem, (_, summary) in zip(stems, items):
        stem = stem if len(stem) <= name_width else stem[:name_width - 1] + "…"
        marks = " ".join(f"{MARK[summary['verdicts'][i]]:<3}" for i in ids)
        lines.append(f"{stem:<{name_width}}  {marks}  {_fit(summary, 'filtering'):<9}  {_fit(summary, 'choice'):<6}"
                     f"  {_expect(summary)}")
    lines.append(LEGEND)
    return "\n".join(lines) + "\n"


def markdown(items: list[tuple[str, dict]], errors: list[tuple[str, str]] = ()) -> str:
    """The summaries as Markdown (for `$GITHUB_STEP_SUMMARY`): the table, then for a single spec each property's verdict
    and why, and the errors."""
    ids = [p.id for p in PROPERTIES]
    lines = ["## verify: " + (_md(items[0][1]['name']) if len(items) == 1 and not errors else
                              counted(len(items), "spec")), ""]
    if items:
        lines += ["| spec | " + " | ".join(ids) + " | filtering | choice | expect |",
                  "|:---|" + ":---:|" * len(ids) + ":---:|:---:|:---:|"]
        for path, summary in items:
            lines.append(f"| {_code(path)} | " + " | ".join(MARK[summary["verdicts"][i]] for i in ids) +
                         f" | {_fit(summary, 'filtering')} | {_fit(summary, 'choice')} | {_expect(summary)}"
                         + (f": {_md(unmet(summary))}" if unmet(summary) else "") + " |")
        lines += ["", LEGEND, ""]
    if len(items) == 1:
        summary = items[0][1]
        lines += ["| | property | verdict | why |", "|:---|:---|:---|:---|"]
        for p in PROPERTIES:
            lines.append(f"| {p.id} | {p.name} | {summary['verdicts'][p.id]} | "
                         f"{_md(summary.get('why', {}).get(p.id, ''))} |")
        lines.append("")
        lines += [f"- **{s}**{' (intended)' if summary.get('setting') == s else ''}: "
                  f"{_md(summary.get('fit_lines', {}).get(s, ''))}" for s in SETTINGS]
        lines.append("")
    for path, error in errors:
        lines.append(f"- {_code(path)}: invalid: {_md(error)}")
    return "\n".join(lines).rstrip() + "\n"


def _md(text: str) -> str:
    """A name, a reason or a message in a cell or on one line: escaped as the report's .md escapes it, with its
    mathematics typeset as there (≥, c<sub>a,b</sub>)."""
    return markup(markdown_cell(text))


def _code(path: str) -> str:
    """A spec's path as code in a table cell ('|' still ends a cell inside a code span)."""
    return code_span(path).replace("|", "\\|")
