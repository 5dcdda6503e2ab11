"""How results show themselves in a notebook: the pieces shared by every result (a one-line quoted name, HTML in
the report's scoped style, Markdown with user text escaped), and `design`'s result as HTML and Markdown.

A notebook shows `_repr_html_` (Jupyter, JupyterLab, VS Code) or `_repr_markdown_`; both say the same as the
command's text, which the HTML keeps whole in a collapsed block. Every spec, class and classifier name is
escaped: no text from a spec or a data file reaches the page as markup.
"""

from __future__ import annotations

import html as _html
import re

from verifier.report.check import SCOPED_CSS
from verifier.report.text.safe_text import clean
from verifier.report.text.safe_text import markdown as _md_clean


def quoted(text: object, limit: int = 50) -> str:
    """A name on one line, quoted as Python does, cut to `limit` characters (a repr's part)."""
    text = " ".join(clean(text).split())
    return repr(text if len(text) <= limit else text[:limit - 1] + "…")


def e(text: object) -> str:
    """Text for HTML: control characters dropped, markup escaped."""
    return _html.escape(clean(text))


def md(text: object) -> str:
    """Text for one line of Markdown (a table cell, a list item): shown as written."""
    text = " ".join(_md_clean(text).split())  # backslashes, HTML and links are escaped there
    return re.sub(r"([|*_`\[\]#])", r"\\\1", text)


def fenced(text: str, language: str = "text") -> str:
    """A Markdown code block that no backtick run inside `text` can close."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{clean(text).rstrip()}\n{fence}"


def box(title: str, body: str) -> str:
    """One result as HTML: the report's root element with its scoped styles, a heading, then `body`."""
    return f'<div class="verify-report"><style>{SCOPED_CSS}</style><h3>{title}</h3>{body}</div>'


def pre(text: str) -> str:
    """Console text as the console shows it: escaped, in a monospace block whose lines never wrap or break a word
    (the report's style sheet: `white-space:pre`, `word-break:normal`; wide blocks scroll), so columns hold."""
    return f'<pre class="console">{e(text.rstrip())}</pre>'


def details(summary: str, text: str) -> str:
    """Text kept whole but folded (no script: <details> opens by itself)."""
    return f"<details><summary>{e(summary)}</summary>{pre(text)}</details>" if text.strip() else ""


def table(head: list[str], rows: list[list[object]], numeric: set[int] = frozenset()) -> str:
    """An HTML table of plain text cells (escaped); the columns in `numeric` are right-aligned."""
    cls = lambda i: ' class="num"' if i in numeric else ""  # noqa: E731
    return ("<table><thead><tr>" + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr></thead><tbody>"
            + "".join("<tr>" + "".join(f"<td{cls(i)}>{e(c)}</td>" for i, c in enumerate(r)) + "</tr>" for r in rows)
            + "</tbody></table>")


def md_table(head: list[str], rows: list[list[object]], numeric: set[int] = frozenset()) -> str:
    """A Markdown table of the cells (escaped); the columns in `numeric` are right-aligned."""
    align = ["---:" if i in numeric else ":---" for i in range(len(head))]
    return "\n".join(["| " + " | ".join(md(h) for h in head) + " |", "|" + "|".join(align) + "|"]
                     + ["| " + " | ".join(md(c) for c in r) + " |" for r in rows])


def items(values: list[str], limit: int = 160) -> str:
    """Values joined with ', ' up to about `limit` characters, then how many more (a repr's part)."""
    out = ""
    for i, v in enumerate(values):
        part = v if not out else f", {v}"
        if out and len(out) + len(part) > limit:
            return f"{out}, … {len(values) - i:,} more"
        out += part
    return out


# -- design ------------------------------------------------------------------------------------------------
def design_answer(r) -> str:
    """The main answer of a `DesignReport`, in a few words."""
    from verifier.designing import DesignStatus  # loaded by a design report only
    record = r.record
    if r.status == DesignStatus.DESIGNED:
        filled = sum(not c.get("fixed", False) for c in record.get("cells", {}).values())
        return f"{filled:,} open cell{'s' * (filled != 1)} filled"
    if r.status == DesignStatus.CALIBRATED:
        return f"{r.calibration.parameter} = {record.get('value')}"
    if r.status == DesignStatus.IMPOSSIBLE:
        n = len(r.conflicts) or 1
        found = f"{n} minimal conflict{'s' * (n != 1)}" + (" (all)" if r.conflicts_complete else "")
        fix = "" if r.correction is None else \
            f", smallest correction {len(r.correction)} part{'s' * (len(r.correction) != 1)}"
        return found + fix
    if r.status == DesignStatus.STOPPED:  # the time bound came first: nothing is claimed about what was not decided
        return "the time limit was reached before an answer (see the text for what was decided)"
    return f"no value of {r.calibration.parameter} meets the firm demands" if r.calibration is not None else r.status


def design_repr(r) -> str:
    """A DesignReport's one-line repr: status, setting, answer and the spec's name."""
    return (f"<DesignReport {r.status} for {r.record.get('setting', '?')}: {design_answer(r)}; "
            f"{quoted(r.record.get('name', ''))}>")


def _design_title(r) -> str:
    return f"{r.status.capitalize()} for the {r.record.get('setting', '?')} setting: {r.record.get('name', '')}"


def _cells(r) -> tuple[list[str], list[list[str]]]:
    cells = r.record.get("cells", {})
    return (["cell", "value", "its exact set of values (the others free)"],
            [[label, c.get("value", ""), r.ranges.get(label, "")] for label, c in cells.items()
             if not c.get("fixed", False)])


def _conflicts(r) -> list[list[str]]:
    return r.conflicts or ([r.conflict] if r.conflict else [])


def design_html(r) -> str:
    """A DesignReport as HTML for a notebook: the answer, the designed cells or the conflicts and correction, the text
    and the spec."""
    from verifier.designing import DesignStatus  # loaded by a design report only
    parts = [f"<p><strong>{e(r.status)}</strong>: {e(design_answer(r))}</p>"]
    if r.status == DesignStatus.DESIGNED:
        head, rows = _cells(r)
        parts.append(table(head, rows, {1}))
    if r.status == DesignStatus.IMPOSSIBLE:
        complete = " (every one: the search is complete)" if r.conflicts_complete else ""
        parts.append(f"<p>Minimal conflicts{e(complete)}: the parts of each cannot all hold together.</p><ol>"
                     + "".join("<li>" + "; ".join(e(part) for part in c) + "</li>" for c in _conflicts(r)) + "</ol>")
        if r.correction is not None:
            parts.append("<p>Smallest correction" + (" (no smaller one exists)" if r.correction_smallest else "")
                         + ": without " + "; ".join(e(part) for part in r.correction) + "</p>")
    parts.append(f"<h3>Why</h3>{pre(r.text)}")
    if r.spec_text:
        shown = "designed" if r.status == DesignStatus.DESIGNED else "calibrated"
        parts.append(f"<h3>The {shown} spec</h3>{pre(r.spec_text)}")
    return box(e(_design_title(r)), "".join(parts))


def design_markdown(r) -> str:
    """A DesignReport as Markdown: the answer, the designed cells or the conflicts and correction, the text and the
    spec."""
    from verifier.designing import DesignStatus  # loaded by a design report only
    parts = [f"### {md(_design_title(r))}", "", f"**{r.status}**: {md(design_answer(r))}", ""]
    if r.status == DesignStatus.DESIGNED:
        parts += [md_table(*_cells(r), {1}), ""]
    if r.status == DesignStatus.IMPOSSIBLE:
        parts += ["Minimal conflicts" + (" (every one: the search is complete)" if r.conflicts_complete else "")
                  + ":", ""] + [f"{i}. " + "; ".join(md(p) for p in c) for i, c in enumerate(_conflicts(r), 1)] + [""]
        if r.correction is not None:
            parts += ["Smallest correction: without " + "; ".join(md(p) for p in r.correction), ""]
    parts += [fenced(r.text), ""]
    if r.spec_text:
        parts += [fenced(r.spec_text, "yaml"), ""]
    return "\n".join(parts)


# -- reports of `verify` and `sweep_classes` ---------------------------------------------------------------
def one_line(kind: str, name: str, answer: str) -> str:
    """`<kind 'name': answer>` in under 200 characters: the name is cut first, then the answer."""
    budget = 196 - len(kind) - len(answer) - 6
    line = f"<{kind} {quoted(name, max(20, budget))}: {answer}>"
    return line if len(line) < 200 else line[:197] + "…>"


def first_failures(first: dict) -> str:
    """Each property's first failing class count in one phrase, or "no property fails"."""
    failing = [f"{pid} at K = {k}" for pid, k in first.items() if k is not None]
    return "first failures: " + items(failing, 110) if failing else "no property fails"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _verdict(v: str) -> str:
    return f'<span class="{e(v)}">{e(v)}</span>'


def _runs(runs: list) -> list[tuple[str, str]]:
    """An every-K report's runs of class counts as (range, verdict): [2, None, 'true'] -> ('K ≥ 2', 'holds')."""
    said = {"true": "holds", "false": "fails"}
    return [(f"K ≥ {a}" if b is None else f"K = {a}" if a == b else f"K = {a}..{b}", said.get(str(t), "unknown"))
            for a, b, t in runs]


def sweep_html(summary: dict) -> str:
    """A class sweep (or an every-K report): each property's verdict at each class count, and its first failure."""
    first = summary["first_failure"]
    if summary["kind"] == "every_k":
        head = ["", "verdict by class count K", "first fails at"]
        rows = "".join(f"<tr><td>{e(pid)}</td><td>" + "; ".join(f"{_verdict(v)} for {e(k)}" for k, v in _runs(runs))
                       + f'</td><td class="num">{e(first[pid] or "never")}</td></tr>'
                       for pid, runs in summary["runs"].items())
        title = f"{summary['name']}: every class count K ≥ {summary['low']}"
    else:
        counts = summary["counts"]
        head = ["", *[f"K = {k}" for k in counts], "first fails at"]
        rows = "".join(f"<tr><td>{e(pid)}</td>" + "".join(f"<td>{_verdict(summary['verdicts'][str(k)][pid])}</td>"
                                                          for k in counts)
                       + f'<td class="num">{e(first[pid] or "never")}</td></tr>' for pid in first)
        title = f"{summary['name']}: K = {counts[0]}..{counts[-1]}"
    return box(e(title), "<table><thead><tr>" + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr></thead>"
               f"<tbody>{rows}</tbody></table><p>{e(_sentence(first_failures(first)))}.</p>")


def sweep_markdown(summary: dict) -> str:
    """A class sweep's summary as Markdown: the verdicts by class count as a table, and the first failures."""
    first = summary["first_failure"]
    if summary["kind"] == "every_k":
        title = f"{summary['name']}: every class count K ≥ {summary['low']}"
        head = ["", "verdict by class count K", "first fails at"]
        rows = [[pid, "; ".join(f"{v} for {k}" for k, v in _runs(runs)), first[pid] or "never"]
                for pid, runs in summary["runs"].items()]
    else:
        counts = summary["counts"]
        title = f"{summary['name']}: K = {counts[0]}..{counts[-1]}"
        head = ["", *[f"K = {k}" for k in counts], "first fails at"]
        rows = [[pid, *[summary["verdicts"][str(k)][pid] for k in counts], first[pid] or "never"] for pid in first]
    return f"### {md(title)}\n\n{md_table(head, rows)}\n\n{md(_sentence(first_failures(first)))}.\n"
