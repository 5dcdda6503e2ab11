"""The HTML report: one self-contained page (inline SVG, no network, no JavaScript), or a scoped fragment."""

from __future__ import annotations

import html

from verifier.analysis.pipeline import Analysis
from verifier.properties.settings import TABLE_VIII
from verifier.report import words
from verifier.report.safe_text import clean
from verifier.report import set_facts
from verifier.report.tables import MAX_ROWS, fit_steps, matrix_rows, summary


_CSS = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.25em .5em;vertical-align:top}
th{background:#f3f3f3}.holds{color:#1b7f2a;font-weight:bold}.fails{color:#b3261e;font-weight:bold}
.unknown{color:#8a6d00;font-weight:bold}.num{text-align:right;font-family:monospace}figure{margin:1em 0}
.fits{background:#e7f5e9}.notfit{background:#fbe9e7}.undecided{background:#fff7d6}"""


def _scoped(css: str, scope: str) -> str:
    """The same rules confined to one element, so that a notebook's own styles are left alone."""
    out = [f"{scope}{{font-family:system-ui,sans-serif;color:#222}}"]
    for rule in filter(str.strip, css.replace("\n", "").split("}")):
        selectors, body = rule.split("{", 1)
        if selectors.strip() != "body":
            out.append(",".join(f"{scope} {s.strip()}" for s in selectors.split(",")) + "{" + body + "}")
    return "".join(out)


_SCOPED_CSS = _scoped(_CSS, ".verify-report")


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


def _e(text: object) -> str:
    return html.escape(clean(text))


def page(a: Analysis) -> str:
    """One self-contained HTML file: inline CSS and SVG, no network, no JavaScript."""
    e = _e
    return (f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{e(a.spec.name)}</title>"
            f"<style>{_CSS}</style></head><body><h1>{e(a.spec.name)}</h1>" + "".join(_sections(a)) + "</body></html>\n")


def fragment(a: Analysis) -> str:
    """The same report as one <div> with scoped styles, for embedding (a Jupyter cell's output)."""
    e = _e
    return (f"<div class=\"verify-report\"><style>{_SCOPED_CSS}</style><h2>{e(a.spec.name)}</h2>"
            + "".join(_sections(a)).replace("<h2>", "<h3>").replace("</h2>", "</h3>") + "</div>")


def _sections(a: Analysis) -> list[str]:
    s = a.scheme
    e = _e
    verdict = lambda r: _Raw(f"<span class=\"{r.verdict.value}\">{r.verdict.value}</span>" + (" (tight)" if r.tight else ""))  # noqa: E731
    parts = [f"<p>Spec <code>{e(a.spec.path)}</code>" + (f"; source: {e(a.spec.source)}" if a.spec.source else "") + "</p>"]
    parts += [f"<p>{e(line.replace('**', ''))}</p>" for line in summary(a)]
    parts.append("<section id=\"properties\"><h2>Properties</h2>" + _html_table(
        ["", "property", "says", "verdict", "evidence"],
        [[r.property.id, r.property.name, r.property.plain, verdict(r), words.explain(r, s)] for r in a.results])
        + f"<p class=\"notation\">{e(words.NOTATION)}</p></section>")
    fit_class = {True: "fits", False: "notfit", None: "undecided"}
    rows = [[name, *[f"{lvl} {a.by_id[pid].verdict.value}" for pid, lvl in TABLE_VIII[name].items()],
             _Raw(f"<span class=\"{fit_class[a.settings[name].fits]}\">{e(a.settings[name].label)}</span>")]
            for name in TABLE_VIII]
    warnings = "".join(f"<li>{e(name)}: {e(w)}</li>" for name, fit in a.settings.items() for w in fit.warnings)
    parts.append("<section id=\"settings\"><h2>Fit to the filtering and choice settings (Table VIII)</h2>"
                 + _html_table(["setting", *[f"P{i}" for i in range(1, 11)], "fit"], rows)
                 + (f"<ul>{warnings}</ul>" if warnings else "")
                 + "".join(f"<h3>To fit the {e(setting)} setting</h3><ul>" + "".join(f"<li>{e(x)}</li>" for x in steps)
                           + "</ul>" for setting, steps in fit_steps(a)) + "</section>")
    from verifier.report.plots import plots  # matplotlib loads only when a report file is written

    figures = "".join(f"<figure>{svg}<figcaption>{e(caption)}</figcaption></figure>" for caption, svg in plots(a))
    if figures:
        parts.append(f"<section id=\"plots\"><h2>Pictures</h2>{figures}</section>")
    parts.append("<section id=\"matrix\"><h2>Extended cost matrix</h2>" + _html_table(
        ["Y", *[f"y = {c}" for c in s.classes]], matrix_rows(a), {i: "num" for i in range(1, s.K + 1)}) + "</section>")
    facts = (_html_table(["Y", "status", "evidence"], set_facts.symbolic_rows(a)) if a.symbolic is not None
             else _html_table(set_facts.HEADERS, set_facts.rows(a)))
    parts.append("<section id=\"possibility\"><h2>Each predicted set: possible (Definition 4) and optimal for "
                 "some p</h2>" + "".join(f"<p>{e(line)}</p>" for line in set_facts.summary(a)) + facts + "</section>")
    if a.expectations:
        parts.append("<section id=\"expectations\"><h2>Expectations</h2>" + _html_table(
            ["property", "expected", "actual", ""],
            [[x.property_id, x.expected, x.actual, "met" if x.met else "NOT MET"] for x in a.expectations]) + "</section>")
    return parts
