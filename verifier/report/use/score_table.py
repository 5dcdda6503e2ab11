"""The classifiers x measures table of `verify evaluate`: the same numbers side by side, on the console (measures
as rows, one column per classifier, so that it fits 80 columns), and for papers as CSV, Markdown or LaTeX
(booktabs) with classifiers as rows and the best value of each column marked.

"Best" is decided exactly (Fractions, or certified comparison of exact mean costs), only for measures with a
direction: mean cost (lower), set accuracy, accuracy of the determinate predictions, discounted accuracy, u65,
u80, F-beta (higher). Determinacy and mean set size describe a classifier's caution and have no better end.
The bootstrap interval is a statistical estimate and is labelled as one; it never decides what is best.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from fractions import Fraction

from verifier.formula import certified
from verifier.formula.rounded import rounded
from verifier.lazy_sympy import sympy as sp
from verifier.report.text import markdown_cell
from verifier.report.use.decisions import spreadsheet_safe
from verifier.using import Scores

FORMATS = ("csv", "markdown", "latex")


@dataclass(frozen=True)
class Measure:
    """One column of the scores table: its key, its header, and whether lower or higher is better."""
    key: str  # the record's and the CSV's column name
    title: str  # the header in the console, Markdown and LaTeX
    better: str | None  # "low", "high", or None for a descriptive measure

    def value(self, s: Scores):
        """This measure's value in a classifier's scores."""
        if self.key == "mean_cost":
            return s.mean_cost
        if self.key.startswith("f_beta_"):
            return s.f_beta[self.key[len("f_beta_"):]]
        return {"determinacy": s.determinacy, "mean_set_size": s.mean_size, "set_accuracy": s.set_accuracy,
                "determinate_accuracy": s.single_accuracy, "discounted_accuracy": s.discounted_accuracy,
                "u65": s.u65, "u80": s.u80}[self.key]


def measures(scores: list[Scores]) -> list[Measure]:
    """The measures of the scores table, in column order: the fixed ones, then each F-beta the scores have."""
    betas = list(dict.fromkeys(b for s in scores for b in s.f_beta))
    return [Measure("mean_cost", "mean cost", "low"), Measure("determinacy", "determinacy", None),
            Measure("mean_set_size", "mean set size", None), Measure("set_accuracy", "set accuracy", "high"),
            Measure("determinate_accuracy", "determinate accuracy", "high"),
            Measure("discounted_accuracy", "discounted accuracy", "high"), Measure("u65", "u65", "high"),
            Measure("u80", "u80", "high")] + [Measure(f"f_beta_{b}", f"F{b}", "high") for b in betas]


def best(scores: list[Scores], m: Measure) -> set[int]:
    """The rows holding the best value of `m` within their data set, decided exactly; none where the measure
    has no direction, where a data set has one row, or where an exact comparison is undecided (never a
    float's guess). Values from different data sets are never compared."""
    groups: dict = {}
    for i, s in enumerate(scores):
        groups.setdefault(getattr(s, "dataset", None), []).append(i)
    return set().union(*(_best_of(scores, m, rows) for rows in groups.values()))


def _best_of(scores: list[Scores], m: Measure, rows: list[int]) -> set[int]:
    values = {i: m.value(scores[i]) for i in rows}
    present = [i for i in rows if values[i] is not None]
    if m.better is None or len(present) < 2:
        return set()
    top = [present[0]]
    for i in present[1:]:
        sign = _compare(values[i], values[top[0]])  # exact
        if sign is None:
            return set()
        if sign == 0:
            top.append(i)
        elif (sign < 0) == (m.better == "low"):
            top = [i]
    return set(top) if len(top) < len(present) else set()  # all equal: nothing stands out


def _compare(a, b) -> int | None:
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return (a > b) - (a < b)
    return certified.compare(_expr(a), _expr(b)).value


def _expr(v) -> sp.Expr:
    return sp.Rational(v.numerator, v.denominator) if isinstance(v, Fraction) else v


def _float(v) -> float | None:
    if v is None:
        return None
    return float(v) if isinstance(v, Fraction) else rounded(v)


def _exact(v) -> str | None:
    return None if v is None else str(v)


def records(scores: list[Scores]) -> list[dict]:
    """One dict per classifier: each measure as a float, the exact mean cost as text, the interval's ends."""
    out = []
    for s in scores:
        row = {"classifier": s.name}
        if getattr(s, "dataset", None) is not None:
            row["dataset"] = s.dataset
        row["n"] = s.n
        for m in measures(scores):
            row[m.key] = _float(m.value(s))
            if m.key == "mean_cost":
                row["mean_cost_exact"] = _exact(s.mean_cost)
                row["ci_low"], row["ci_high"] = s.interval if s.interval is not None else (None, None)
                row["ci_level"] = s.level
        out.append(row)
    return out


def _shown(v, digits: int = 4) -> str:
    f = _float(v)
    return "n/a" if f is None else f"{f:.{digits}f}"


def _label(s: Scores) -> str:
    dataset = getattr(s, "dataset", None)
    return s.name if dataset is None else f"{s.name} ({dataset})"


def _interval(s: Scores) -> str:
    return "[not computed]" if s.interval is None else f"[{s.interval[0]:.3f}, {s.interval[1]:.3f}]"


def console_lines(scores: list[Scores]) -> list[str]:
    """Measures as rows, classifiers as columns; * marks the best (exactly), the interval is an estimate."""
    ms = measures(scores)
    marks = {m.key: best(scores, m) for m in ms}
    level = int(round(scores[0].level * 100))
    head = ["measure"] + [_label(s) for s in scores]
    rows = [["n"] + [f"{s.n:,}" for s in scores]]
    for m in ms:
        rows.append([m.title + (" (Eq. 4)" if m.key == "mean_cost" else "")] +
                    [_shown(m.value(s)) + ("*" if i in marks[m.key] else " ") for i, s in enumerate(scores)])
        if m.key == "mean_cost":
            rows.append([f"  {level}% bootstrap interval"] +
                        [_interval(s) + " " for s in scores])
    widths = [max(len(r[c]) for r in [head] + rows) for c in range(len(head))]
    lines = ["  ".join(h.ljust(w) if c == 0 else h.rjust(w) for c, (h, w) in enumerate(zip(head, widths)))]
    lines.append("-" * len(lines[0]))
    lines += ["  ".join(v.ljust(w) if c == 0 else v.rjust(w) for c, (v, w) in enumerate(zip(r, widths)))
              for r in rows]
    note = "* best of the row, compared exactly (mean cost lower; accuracies, u65, u80, F-beta higher)" \
        if any(marks.values()) else ""
    exact = [f"  {_label(s)}: {s.mean_cost}" for s in scores if not s.mean_cost.is_Integer]
    lines += ([note] if note else []) + (["Mean cost, exact (Eq. 4):"] + exact if exact else [])
    lines.append(f"The interval is a {level}% percentile bootstrap interval of the mean cost (a statistical "
                 "estimate).")
    return lines


def table(scores: list[Scores], fmt: str) -> str:
    """The table for a paper: classifiers as rows, measures as columns, best values marked."""
    if fmt == "csv":
        return _csv(scores)
    ms = measures(scores)
    marks = {m.key: best(scores, m) for m in ms}
    level = int(round(scores[0].level * 100))
    has_dataset = any(getattr(s, "dataset", None) is not None for s in scores)
    head = ["classifier"] + (["dataset"] if has_dataset else []) + \
        [f"mean cost ({level}% CI)" if m.key == "mean_cost" else m.title for m in ms]
    body = []
    for i, s in enumerate(scores):
        cells = []
        for m in ms:
            text = _shown(m.value(s))
            if m.key == "mean_cost":
                text = (text, _interval(s))
            cells.append((text, i in marks[m.key]))
        body.append(([s.name] + ([s.dataset or ""] if has_dataset else []), cells))
    where = bold_scope(scores)
    return _markdown(head, body, where) if fmt == "markdown" else _latex(head, body, level, where)


def bold_scope(scores: list[Scores]) -> str:
    """What the bold marks: the best of each column, within each data set when there are several (`best`)."""
    several = len({getattr(s, "dataset", None) for s in scores}) > 1
    return "best of the column within each data set" if several else "best of the column"


def _markdown(head, body, where: str) -> str:
    def cell(text, bold):
        value, ci = (text, None) if isinstance(text, str) else text
        value = f"**{value}**" if bold else value
        return value if ci is None else f"{value} {ci}"

    lines = ["| " + " | ".join(_md_escape(h) for h in head) + " |",
             "|" + "|".join([":---"] * (len(head) - len(body[0][1])) + ["---:"] * len(body[0][1])) + "|"]
    for names, cells in body:
        lines.append("| " + " | ".join([_md_escape(n) for n in names] + [cell(t, b) for t, b in cells]) + " |")
    lines.append("")
    lines.append(f"Bold: {where}, compared exactly. CI: percentile bootstrap interval of the mean cost "
                 "(a statistical estimate).")
    return "\n".join(lines) + "\n"


def _md_escape(text: str) -> str:
    """A classifier's or a data set's name in a cell, escaped as the report's .md escapes names; '*' too, since
    the best values of a column are marked in bold."""
    return markdown_cell(text).replace("*", "\\*")


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def latex_escape(text: str) -> str:
    """The text with LaTeX's special characters escaped."""
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text)


def _latex(head, body, level: int, where: str) -> str:
    def cell(text, bold):
        value, ci = (text, None) if isinstance(text, str) else text
        value = rf"\textbf{{{value}}}" if bold else value
        return value if ci is None else f"{value} {{\\scriptsize {ci}}}"

    names = len(head) - len(body[0][1])
    lines = [r"% requires \usepackage{booktabs}",
             r"\begin{tabular}{" + "l" * names + "r" * len(body[0][1]) + "}", r"\toprule",
             " & ".join(latex_escape(h) for h in head) + r" \\", r"\midrule"]
    for row_names, cells in body:
        lines.append(" & ".join([latex_escape(n) for n in row_names] + [cell(t, b) for t, b in cells]) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}",
              f"% bold: {where}, compared exactly; CI: {level}% percentile bootstrap interval of the mean "
              "cost (a statistical estimate)"]
    return "\n".join(lines) + "\n"


def _csv(scores: list[Scores]) -> str:
    rows = records(scores)
    keys = list(dict.fromkeys(k for r in rows for k in r))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(keys)
    for r in rows:
        writer.writerow([spreadsheet_safe(r[k]) if k in ("classifier", "dataset") else
                         ("" if r.get(k) is None else r[k]) for k in keys])
    return out.getvalue()
