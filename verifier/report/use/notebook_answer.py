"""Over several data sets a notebook shows the answer first, as the console does (`answer_first`): the Friedman
sentence (the console's very words) and the data sets x classifiers table of mean costs and ranks, the best of
each data set in bold, before the scores and the pairs. Every number is the result's record or its ranks."""

from __future__ import annotations

from verifier.formula.rounded import rounded
from verifier.report.output.notebook import e, md
from verifier.report.use import rank_table
from verifier.report.use.comparison import friedman_sentence


def _rank(r) -> str:
    return str(r.numerator) if r.denominator == 1 else f"{float(r):g}"


def answer_html(r) -> str:
    """The answer block, or "" without a Friedman test."""
    if r.comparison is None or r.comparison.friedman is None:
        return ""
    t = rank_table.rank_table(r.comparison.friedman, r.scores)
    rows = []
    for d, costs, ranks, best in zip(t.datasets, t.costs, t.ranks, t.best):
        cells = [f"{rounded(c):.4f} ({_rank(k)})" for c, k in zip(costs, ranks)]
        rows.append(f"<tr><td>{e(d)}</td>" + "".join(
            f'<td class="num">{"<strong>" + e(x) + "</strong>" if j in best else e(x)}</td>'
            for j, x in enumerate(cells)) + "</tr>")
    rows.append("<tr><td>average rank</td>" + "".join(f'<td class="num">{float(a):.3f}</td>' for a in t.average)
                + "</tr>")
    head = "".join(f"<th>{e(h)}</th>" for h in ["data set"] + t.classifiers)
    return (f"<p>{e(friedman_sentence(r.record['comparison']))}</p><table><thead><tr>{head}</tr></thead><tbody>"
            + "".join(rows) + f"</tbody></table><p>{e(rank_table.legend('bold'))}.</p>")


def answer_markdown(r) -> list[str]:
    """The answer block's Markdown lines, or none without a Friedman test."""
    if r.comparison is None or r.comparison.friedman is None:
        return []
    t = rank_table.rank_table(r.comparison.friedman, r.scores)
    return [md(friedman_sentence(r.record["comparison"])), "", rank_table.table(t, "markdown")]
