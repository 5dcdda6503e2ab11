"""`verify SPEC --report DIR`: <stem>.md (pull requests, design reviews), <stem>.html (one self-contained file:
inline SVG, no network, no JavaScript) and <stem>.json. File contents are deterministic (no timings), so the
committed reports of the bundled specs change only when a scheme or the tool's findings do."""

from __future__ import annotations

import html
import json
import os

from . import evidence_text as words
from .analysis import Analysis
from .desirability import LEVELS, TABLE_VIII
from .report_json import to_json
from .verdict import Truth

MAX_ROWS = 64  # matrix and possibility rows shown in Markdown/HTML before "and N more" (all are in the JSON)


def write_reports(analysis: Analysis, directory: str) -> list[str]:
    os.makedirs(directory, exist_ok=True)
    stem = os.path.splitext(os.path.basename(analysis.spec.path))[0]
    record = to_json(analysis)
    record.pop("seconds", None)
    paths = []
    for suffix, text in (("md", markdown(analysis)), ("html", page(analysis)),
                         ("json", json.dumps(record, indent=2, ensure_ascii=False) + "\n")):
        path = os.path.join(directory, f"{stem}.{suffix}")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        paths.append(path)
    return paths


def _summary(a: Analysis) -> list[str]:
    fits = ", ".join(f"{name}: **{fit.label}**" for name, fit in a.settings.items())
    lines = [f"Classes: {', '.join(a.scheme.classes)}. Fit to the paper's Table VIII: {fits}."]
    if a.scheme.parameters:
        lines.append("Parameters: " + ", ".join(_parameter(k, v) for k, v in a.scheme.parameters.items()) + ".")
    if a.scheme.assumptions:
        lines.append("Assumptions: " + "; ".join(t for _, t in a.scheme.assumptions) + ".")
    return lines + [f"Note: {n}" for n in a.scheme.notes]


def _parameter(name: str, value) -> str:
    values = value if isinstance(value, tuple) else (value,)
    if any(getattr(v, "is_Symbol", False) for v in values):
        return f"{name} (symbolic)"
    return f"{name} = " + (words.number(value) if not isinstance(value, tuple) else
                           "(" + ", ".join(words.number(v) for v in value) + ")")


def _rows(a: Analysis):
    s = a.scheme
    return [[s.label(m), *[words.number(v, short=s.K > 5) for v in s.rows[m]]] for m in s.all_sets]


def _possibility(a: Analysis):
    s = a.scheme
    if a.symbolic:
        return [[s.label(e.members), e.status, (f"possible at {words.values(e.possible_at)}" if e.possible_at else "")
                 + ("; " if e.possible_at and e.impossible_at else "")
                 + (f"impossible at {words.values(e.impossible_at)}" if e.impossible_at else "") or e.undecided]
                for e in a.symbolic.possibility]
    status = {Truth.TRUE: "possible", Truth.FALSE: "impossible", Truth.UNKNOWN: "undecided"}
    return [[s.label(e.members), status[e.status], words.possibility(s, e).split(": ", 1)[1]] for e in a.possibility]


def _md_table(headers, rows) -> list[str]:
    clean = lambda cell: str(cell).replace("|", "\\|").replace("\n", " ")  # noqa: E731
    out = ["| " + " | ".join(map(clean, headers)) + " |", "|" + "---|" * len(headers)]
    out += ["| " + " | ".join(map(clean, row)) + " |" for row in rows[:MAX_ROWS]]
    if len(rows) > MAX_ROWS:
        out.append(f"\n… and {len(rows) - MAX_ROWS} more rows (all in the JSON report)")
    return out


def markdown(a: Analysis) -> str:
    s = a.scheme
    out = [f"# {a.spec.name}", "", f"Spec: `{a.spec.path}`" + (f" — source: {a.spec.source}" if a.spec.source else ""), ""]
    out += _summary(a) + ["", "## Properties", ""]
    out += _md_table(["", "property", "verdict", "evidence"],
                     [[r.property.id, r.property.name, f"**{r.verdict.value}**" + (" (tight)" if r.tight else ""),
                       words.explain(r, s)] for r in a.results])
    out += ["", "## Fit to the filtering and choice settings", ""]
    out += _md_table(["setting", *[f"P{i}" for i in range(1, 11)], "fit"],
                     [[name, *[f"{lvl} {a.by_id[pid].verdict.value}" for pid, lvl in TABLE_VIII[name].items()],
                       a.settings[name].label] for name in TABLE_VIII])
    for name, fit in a.settings.items():
        out += [f"- {name}: {w}" for w in fit.warnings]
    out += ["", ", ".join(f"{k} = {v}" for k, v in LEVELS.items()), "", "## Extended cost matrix", ""]
    out += _md_table(["Y", *[f"y = {c}" for c in s.classes]], _rows(a))
    out += ["", "## Possibility of each indeterminate set (Definition 4)", ""]
    out += _md_table(["Y", "status", "evidence"], _possibility(a))
    if a.expectations:
        out += ["", "## Expectations", ""]
        out += _md_table(["property", "expected", "actual", ""],
                         [[e.property_id, e.expected, e.actual, "met" if e.met else "**NOT MET**"] for e in a.expectations])
    return "\n".join(out) + "\n"


_CSS = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.25em .5em;vertical-align:top}
th{background:#f3f3f3}.holds{color:#1b7f2a;font-weight:bold}.fails{color:#b3261e;font-weight:bold}
.unknown{color:#8a6d00;font-weight:bold}.num{text-align:right;font-family:monospace}figure{margin:1em 0}
.fits{background:#e7f5e9}.notfit{background:#fbe9e7}.undecided{background:#fff7d6}"""


def _html_table(headers, rows, classes=None) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    body = []
    for row in rows[:MAX_ROWS]:
        cells = "".join(f"<td class=\"{(classes or {}).get(i, '')}\">{c if isinstance(c, _Raw) else html.escape(str(c))}</td>"
                        for i, c in enumerate(row))
        body.append(f"<tr>{cells}</tr>")
    more = f"<p>… and {len(rows) - MAX_ROWS} more rows (all in the JSON report)</p>" if len(rows) > MAX_ROWS else ""
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>{more}"


class _Raw(str):
    """Markup we built ourselves (never spec text)."""


def page(a: Analysis) -> str:
    s = a.scheme
    e = html.escape
    verdict = lambda r: _Raw(f"<span class=\"{r.verdict.value}\">{r.verdict.value}</span>" + (" (tight)" if r.tight else ""))  # noqa: E731
    parts = [f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{e(a.spec.name)}</title>"
             f"<style>{_CSS}</style></head><body><h1>{e(a.spec.name)}</h1>",
             f"<p>Spec <code>{e(a.spec.path)}</code>" + (f"; source: {e(a.spec.source)}" if a.spec.source else "") + "</p>"]
    parts += [f"<p>{e(line.replace('**', ''))}</p>" for line in _summary(a)]
    parts.append("<section id=\"properties\"><h2>Properties</h2>" + _html_table(
        ["", "property", "verdict", "evidence"],
        [[r.property.id, r.property.name, verdict(r), words.explain(r, s)] for r in a.results]) + "</section>")
    fit_class = {True: "fits", False: "notfit", None: "undecided"}
    rows = [[name, *[f"{lvl} {a.by_id[pid].verdict.value}" for pid, lvl in TABLE_VIII[name].items()],
             _Raw(f"<span class=\"{fit_class[a.settings[name].fits]}\">{e(a.settings[name].label)}</span>")]
            for name in TABLE_VIII]
    warnings = "".join(f"<li>{e(name)}: {e(w)}</li>" for name, fit in a.settings.items() for w in fit.warnings)
    parts.append("<section id=\"settings\"><h2>Fit to the filtering and choice settings (Table VIII)</h2>"
                 + _html_table(["setting", *[f"P{i}" for i in range(1, 11)], "fit"], rows)
                 + (f"<ul>{warnings}</ul>" if warnings else "") + "</section>")
    from .plots import plots  # matplotlib loads only when a report file is written

    figures = "".join(f"<figure>{svg}<figcaption>{e(caption)}</figcaption></figure>" for caption, svg in plots(a))
    if figures:
        parts.append(f"<section id=\"plots\"><h2>Pictures</h2>{figures}</section>")
    parts.append("<section id=\"matrix\"><h2>Extended cost matrix</h2>" + _html_table(
        ["Y", *[f"y = {c}" for c in s.classes]], _rows(a), {i: "num" for i in range(1, s.K + 1)}) + "</section>")
    parts.append("<section id=\"possibility\"><h2>Possibility of each indeterminate set</h2>"
                 + _html_table(["Y", "status", "evidence"], _possibility(a)) + "</section>")
    if a.expectations:
        parts.append("<section id=\"expectations\"><h2>Expectations</h2>" + _html_table(
            ["property", "expected", "actual", ""],
            [[x.property_id, x.expected, x.actual, "met" if x.met else "NOT MET"] for x in a.expectations]) + "</section>")
    return "".join(parts) + "</body></html>\n"
