"""The HTML report: one self-contained page (inline SVG, no network, no JavaScript), or a scoped fragment."""

from __future__ import annotations

import html

from verifier.analysis.pipeline import Analysis
from verifier.properties.settings import LEVELS, TABLE_VIII
from verifier.report.check import set_facts, words
from verifier.report.check.check_pictures import pictures
from verifier.report.check.tables import SYMMETRY_ROWS, fit_steps, matrix_rows, rows_shown, summary
from verifier.report.text import clean
from verifier.report.text.math_text import markup

# Every rule is confined to the report's root element, `.verify-report`, so that a notebook's own page keeps its
# styles. Inside the report, the rules name the root class twice (specificity 0,2,x): they then outrank the
# notebooks' own table rules (Jupyter's `.rendered_html td {text-align: right}`, JupyterLab's
# `.jp-RenderedHTMLCommon td`, their striped rows and centred tables) wherever their style sheets come.
_ROOT = ".verify-report"
_IN = ".verify-report.verify-report"
# Colours by role: (light theme, dark theme). The report picks one of each pair with CSS `light-dark()`, from its
# colour scheme: the reader's (prefers-color-scheme), unless the page says which theme it shows (JupyterLab's
# data-jp-theme-light, VS Code's vscode-light / vscode-dark / vscode-high-contrast body classes).
_COLOURS = {"text": ("#222", "#e3e3e3"), "back": ("#fff", "#1e1e1e"), "quiet": ("#555", "#a8a8a8"),
            "line": ("#ccc", "#4d4d4d"), "head": ("#f3f3f3", "#2b2b2b"), "holds": ("#1b7f2a", "#7fd491"),
            "fails": ("#b3261e", "#ff8c82"), "unknown": ("#8a6d00", "#e4c552"), "fits": ("#e7f5e9", "#1f3a25"),
            "notfit": ("#fbe9e7", "#47241f"), "undecided": ("#fff7d6", "#3b3317")}
_LIGHT_PAGES = '[data-jp-theme-light="true"] *,body.vscode-light *,body.vscode-high-contrast-light *'
_DARK_PAGES = ('[data-jp-theme-light="false"] *,body.vscode-dark *,'
               'body.vscode-high-contrast:not(.vscode-high-contrast-light) *')
_RULES = """h1,h2,h3{color:var(--vr-text);font-weight:600;line-height:1.25;margin:1em 0 .4em;padding:0;border:0}
h1{font-size:1.6em}
h2{font-size:1.35em}
h3{font-size:1.12em}
p,li{color:var(--vr-text);text-align:left}
code{background:var(--vr-head);color:inherit;font-size:.95em;padding:0 .2em;border-radius:3px}
table{border-collapse:collapse;border-spacing:0;border:0;margin:.5em 0 1.5em;table-layout:auto;width:auto;
font-size:1em;color:var(--vr-text)}
table th,table td{border:1px solid var(--vr-line);padding:.25em .5em;vertical-align:top;text-align:left;
background:var(--vr-back);color:var(--vr-text);line-height:1.4;white-space:normal;max-width:none}
table th{background:var(--vr-head);font-weight:600}
table td.num{text-align:right;font-family:ui-monospace,monospace}
.holds{color:var(--vr-holds);font-weight:bold}
.fails{color:var(--vr-fails);font-weight:bold}
.unknown{color:var(--vr-unknown);font-weight:bold}
.fits{background:var(--vr-fits)}
.notfit{background:var(--vr-notfit)}
.undecided{background:var(--vr-undecided)}
.notation,figcaption,summary{color:var(--vr-quiet)}
figure{margin:1em 0}
figure svg{background:#fff}
pre{background:var(--vr-head);color:var(--vr-text);padding:.5em .75em;margin:.5em 0 1em;border-radius:3px;
overflow-x:auto;white-space:pre;word-break:normal;overflow-wrap:normal;font-size:.92em;line-height:1.35;
text-align:left;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,'DejaVu Sans Mono',monospace}"""


def _scoped(rules: str) -> str:
    """The report's style sheet: its root (fonts, colours, theme), then `rules`, each confined to the root."""
    colours = ";".join(f"--vr-{role}:light-dark({light},{dark})" for role, (light, dark) in _COLOURS.items())
    out = [f"{_ROOT}{{color-scheme:light dark;{colours};color:var(--vr-text);background:var(--vr-back);"
           "font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:14px;line-height:1.45;"
           "text-align:left;padding:.25em 1em 1px}",
           f"{_ROOT}:is({_LIGHT_PAGES}){{color-scheme:light}}", f"{_ROOT}:is({_DARK_PAGES}){{color-scheme:dark}}"]
    for rule in filter(str.strip, rules.replace("\n", "").split("}")):
        selectors, body = rule.split("{", 1)
        out.append(",".join(f"{_IN} {s.strip()}" for s in selectors.split(",")) + "{" + body + "}")
    return "".join(out)


_SCOPED_CSS = _scoped(_RULES)
SCOPED_CSS = _SCOPED_CSS  # the same style for every result a notebook shows (report.output.notebook)
# the page: the same report filling the window (the browser's own canvas follows the colour scheme too)
_PAGE_CSS = ("body{margin:0}" + _SCOPED_CSS +
             f"{_IN}.verify-page{{min-height:100vh;box-sizing:border-box;padding:1em max(1em,calc(50% - 550px))}}")


def _html_table(headers, rows, classes=None) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    body = []
    shown = rows_shown(len(headers))
    for row in rows[:shown]:
        cells = "".join(f"<td class=\"{(classes or {}).get(i, '')}\">"
                        f"{c if isinstance(c, _Raw) else html.escape(str(c))}</td>"
                        for i, c in enumerate(row))
        body.append(f"<tr>{cells}</tr>")
    more = f"<p>… and {len(rows) - shown:,} more rows (all in the JSON report)</p>" if len(rows) > shown else ""
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>{more}"


class _Raw(str):
    """Markup we built ourselves (never spec text)."""


def _e(text: object) -> str:
    return html.escape(clean(text))


def page(a: Analysis) -> str:
    """One self-contained HTML file: inline CSS and SVG, no network, no JavaScript."""
    e = _e
    return (f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"color-scheme\" "
            f"content=\"light dark\"><title>{e(a.spec.name)}</title><style>{_PAGE_CSS}</style></head><body>"
            f"<div class=\"verify-report verify-page\"><h1>{e(a.spec.name)}</h1>" + "".join(_sections(a))
            + "</div></body></html>\n")


def fragment(a: Analysis) -> str:
    """The same report as one <div> with scoped styles, for embedding (a Jupyter cell's output)."""
    e = _e
    return (f"<div class=\"verify-report\"><style>{_SCOPED_CSS}</style><h2>{e(a.spec.name)}</h2>"
            + "".join(_sections(a)).replace("<h2>", "<h3>").replace("</h2>", "</h3>") + "</div>")


def _sections(a: Analysis) -> list[str]:
    s = a.scheme
    e = _e
    verdict = lambda r: _Raw(f"<span class=\"{r.verdict.value}\">{r.verdict.value}</span>"  # noqa: E731
                             + (" (tight)" if r.tight else ""))
    parts = [f"<p>Spec <code>{e(a.spec.path)}</code>" + (f"; source: {e(a.spec.source)}" if a.spec.source else "")
             + "</p>"]
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
                 + "<p class=\"legend\">" + e(", ".join(f"{k} = {v}" for k, v in LEVELS.items()))
                 + " (the paper's levels); then the property's verdict</p>"
                 + (f"<ul>{warnings}</ul>" if warnings else "")
                 + "".join(f"<h3>To fit the {e(setting)} setting</h3><ul>" + "".join(f"<li>{e(x)}</li>" for x in steps)
                           + "</ul>" for setting, steps in fit_steps(a)) + "</section>")
    drawn, notes = pictures(a)  # the same pictures as `Report.figures()` writes, inline
    if drawn:
        from verifier.report.figures import inline_svg  # matplotlib: only when there is something to draw
    figures = "".join(
        f"<figure id=\"figure-{e(p.name)}\">{inline_svg(p.render('svg'))}<figcaption>{e(p.caption)}</figcaption>"
        + (f"<details><summary>{e(p.details[0])}</summary><ul>" + "".join(f"<li>{e(d)}</li>" for d in p.details[1:])
           + "</ul></details>" if p.details else "") + "</figure>" for p in drawn)
    figures += "".join(f"<p>{e(note)}</p>" for note in notes)
    if figures:
        parts.append(f"<section id=\"plots\"><h2>Pictures</h2>{figures}</section>")
    parts.append("<section id=\"matrix\"><h2>Extended cost matrix</h2>" + _html_table(
        ["Y", *[f"y = {c}" for c in s.classes]], matrix_rows(a), {i: "num" for i in range(1, s.K + 1)})
        + (f"<p>{html.escape(SYMMETRY_ROWS)}</p>" if s.orbits is not None else "") + "</section>")
    facts = (_html_table(["Y", "status", "evidence"], set_facts.symbolic_rows(a)) if a.symbolic is not None
             else _html_table(set_facts.HEADERS, set_facts.rows(a)))
    parts.append("<section id=\"possibility\"><h2>Each predicted set: possible (Definition 4) and optimal for "
                 "some p</h2>" + "".join(f"<p>{e(line)}</p>" for line in set_facts.summary(a)) + facts + "</section>")
    if a.expectations:
        parts.append("<section id=\"expectations\"><h2>Expectations</h2>" + _html_table(
            ["property", "expected", "actual", ""],
            [[x.property_id, x.expected, x.actual, "met" if x.met else "NOT MET"] for x in a.expectations])
            + "</section>")
    # ≥ for >=, c<sub>a,b</sub> for c_{a, b}: on escaped text, never inside a picture's SVG
    return [p if p.startswith("<section id=\"plots\">") else markup(p) for p in parts]
