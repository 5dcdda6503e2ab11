"""The data sets x classifiers table of `verify evaluate` over several data sets (Demšar 2006, Table 6): each
data set's mean cost of each classifier with its rank within the data set (1 = lowest mean cost; mean costs
equal exactly share the average of their ranks), the best of each data set marked (the lowest mean cost,
compared exactly; none marked where all are equal), and the average ranks the Friedman test uses as the last
row. On the console, and for papers as CSV, Markdown or LaTeX (booktabs; `transposed`: classifiers as rows, for
many data sets). The classifiers are those of the Friedman test (present on every data set)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from fractions import Fraction

from verifier.formula.rounded import rounded
from verifier.report.text import markdown_cell
from verifier.report.use.decisions import spreadsheet_safe
from verifier.report.use.score_table import latex_escape
from verifier.using.compare import Friedman, ranks

FORMATS = ("csv", "markdown", "latex")
LEGEND = ("mean cost per data set, its rank within the data set in parentheses (1 = lowest mean cost; equal mean "
          "costs share the average rank); {mark}: the best of the data set, the lowest mean cost compared exactly "
          "(none marked where all are equal); last row: the average ranks of the Friedman test")


@dataclass
class RankTable:
    """The data sets x classifiers table: the exact mean costs, the ranks within each data set, the best marked and the
    average ranks."""
    classifiers: list[str]
    datasets: list[str]
    costs: list[list]  # [data set][classifier] exact mean cost
    ranks: list[list[Fraction]]  # [data set][classifier]
    best: list[set[int]]  # per data set, the classifiers marked best
    average: list[Fraction]  # per classifier


def rank_table(f: Friedman, scores) -> RankTable:
    """The table of the Friedman test `f`, the mean costs taken from `scores` (verifier.using.Scores)."""
    by = {(str(s.dataset), s.name): s.mean_cost for s in scores}
    costs = [[by[(d, c)] for c in f.classifiers] for d in f.datasets]
    ranked = [ranks(row) for row in costs]
    best = [{j for j, r in enumerate(row) if r == min(row)} if len(set(row)) > 1 else set() for row in ranked]
    return RankTable(f.classifiers, f.datasets, costs, ranked, best, [f.ranks[c] for c in f.classifiers])


def _cost(v) -> str:
    return f"{rounded(v):.4f}"


def _rank(r: Fraction) -> str:
    return str(r.numerator) if r.denominator == 1 else f"{float(r):g}"


def console_lines(t: RankTable) -> list[str]:
    """The table for the console: data sets as rows, '*' beside the best of each."""
    head = ["data set"] + t.classifiers
    rows = [[d] + [f"{_cost(c)} ({_rank(r)})" + ("*" if j in best else " ")
                   for j, (c, r) in enumerate(zip(costs, rr))]
            for d, costs, rr, best in zip(t.datasets, t.costs, t.ranks, t.best)]
    rows.append(["average rank"] + [f"{float(r):.3f} " for r in t.average])
    widths = [max(len(r[c]) for r in [head] + rows) for c in range(len(head))]

    def line(r: list[str]) -> str:
        return "  ".join(v.ljust(w) if c == 0 else v.rjust(w) for c, (v, w) in enumerate(zip(r, widths)))

    rule = "-" * len(line(head))
    return [line(head), rule] + [line(r) for r in rows[:-1]] + [rule, line(rows[-1])]


def rank_json(t: RankTable) -> dict:
    """Per data set, each classifier's exact rank and the classifiers marked best."""
    return {"ranks": {d: {c: str(r) for c, r in zip(t.classifiers, rr)} for d, rr in zip(t.datasets, t.ranks)},
            "best": {d: [t.classifiers[j] for j in sorted(best)] for d, best in zip(t.datasets, t.best)}}


def legend(mark: str) -> str:
    """What the table's cells and marks are."""
    return LEGEND.format(mark=mark)


def table(t: RankTable, fmt: str, transposed: bool = False) -> str:
    """The table for a paper: 'csv', 'markdown' or 'latex' (transposed: classifiers as rows; LaTeX only)."""
    if fmt == "csv":
        return _csv(t)
    if fmt == "markdown":
        return _markdown(t)
    return _latex(t, transposed)


def _csv(t: RankTable) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["dataset", "classifier", "mean_cost", "mean_cost_exact", "rank", "best"])
    for d, costs, rr, best in zip(t.datasets, t.costs, t.ranks, t.best):
        for j, c in enumerate(t.classifiers):
            writer.writerow([spreadsheet_safe(d), spreadsheet_safe(c), rounded(costs[j]), str(costs[j]),
                             float(rr[j]), j in best])
    for c, r in zip(t.classifiers, t.average):
        writer.writerow(["(average rank)", spreadsheet_safe(c), "", "", float(r), ""])
    return out.getvalue()


def _markdown(t: RankTable) -> str:
    def name(text):
        return markdown_cell(text).replace("*", "\\*")

    lines = ["| data set | " + " | ".join(name(c) for c in t.classifiers) + " |",
             "|:---|" + "---:|" * len(t.classifiers)]
    for d, costs, rr, best in zip(t.datasets, t.costs, t.ranks, t.best):
        cells = [(f"**{_cost(c)}**" if j in best else _cost(c)) + f" ({_rank(r)})"
                 for j, (c, r) in enumerate(zip(costs, rr))]
        lines.append(f"| {name(d)} | " + " | ".join(cells) + " |")
    lines.append("| average rank | " + " | ".join(f"{float(r):.3f}" for r in t.average) + " |")
    return "\n".join(lines) + "\n\n" + legend("bold") + ".\n"


def _latex(t: RankTable, transposed: bool) -> str:
    cell = [[(rf"\textbf{{{_cost(c)}}}" if j in best else _cost(c)) + f" ({_rank(r)})"
             for j, (c, r) in enumerate(zip(costs, rr))] for costs, rr, best in zip(t.costs, t.ranks, t.best)]
    average = [f"{float(r):.3f}" for r in t.average]
    if transposed:  # classifiers as rows, data sets as columns, the average rank last
        head = ["classifier"] + t.datasets + ["average rank"]
        body = [[c] + [cell[i][j] for i in range(len(t.datasets))] + [average[j]] for j, c in enumerate(t.classifiers)]
        names = [[latex_escape(row[0])] + row[1:] for row in body]
        lines = [r"\begin{tabular}{l" + "r" * (len(head) - 1) + "}", r"\toprule",
                 " & ".join(latex_escape(h) for h in head) + r" \\", r"\midrule"]
        lines += [" & ".join(row) + r" \\" for row in names]
    else:
        lines = [r"\begin{tabular}{l" + "r" * len(t.classifiers) + "}", r"\toprule",
                 " & ".join(latex_escape(h) for h in ["data set"] + t.classifiers) + r" \\", r"\midrule"]
        lines += [" & ".join([latex_escape(d)] + row) + r" \\" for d, row in zip(t.datasets, cell)]
        lines += [r"\midrule", " & ".join(["average rank"] + average) + r" \\"]
    return "\n".join([r"% requires \usepackage{booktabs}"] + lines +
                     [r"\bottomrule", r"\end{tabular}", "% " + legend("bold")]) + "\n"
