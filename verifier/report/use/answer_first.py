"""The answer first: what `verify evaluate` prints by default when it compares classifiers over several data sets.
The across-data-set answer (Friedman, Iman-Davenport, Nemenyi's critical difference, the average ranks: the very
sentence a notebook shows, so that both say the same), one line per data set (mean costs and ranks), one line per
pair of classifiers over the data sets, and a count of the pairs within each data set, each line at most 80
columns so that it all fits a first screen. The per-data-set scores and pairs follow only with -v; --quiet keeps
the answer and the per-data-set lines. Nothing here computes: every number is the comparison's or its record's."""

from __future__ import annotations

import textwrap

from verifier.report.use.comparison import friedman_sentence
from verifier.report.use.rank_table import RankTable, console_lines
from verifier.using.compare import Comparison

SCREEN = 80  # columns of the first screen
PAIRS_SHOWN = 10  # pairs over the data sets listed by default; all of them with -v
SIGNIFICANT_NAMED = 4  # significant pairs within data sets named by default


def _wrap(text: str, indent: int = 2) -> list[str]:
    return textwrap.wrap(text, SCREEN, initial_indent=" " * indent, subsequent_indent=" " * (indent + 2),
                         break_on_hyphens=False, break_long_words=False)


def answer_lines(c: Comparison, record: dict, ranked: RankTable) -> list[str]:
    """The across-data-set answer and one line per data set: what --quiet prints."""
    f = c.friedman
    k, n = len(f.classifiers), len(f.datasets)
    lines = [f"Over {n:,} data sets, the {k:,} classifiers present on every one (alpha = {c.alpha}):"]
    lines += _wrap(friedman_sentence(record))
    if f.left_out:
        lines += _wrap(f"Left out (missing from some data set): {', '.join(f.left_out)}.")
    if n <= 10 or k <= 5:
        lines += _wrap(f"With N = {n:,} data sets and k = {k:,} classifiers, below Demšar's N > 10 and k > 5, the "
                       "chi-square p-value is rough.")
    if f.disagreements:
        lines += _wrap("The average-rank order and the order of mean costs averaged over the data sets disagree: " +
                       "; ".join(f"{x} ranks better, {y} costs less" for x, y in f.disagreements) + ".")
    lines += ["", "Mean cost and rank per data set (rank 1 = lowest; * the best, compared exactly):"]
    lines += ["  " + line for line in console_lines(ranked)]
    return lines


def summary_lines(c: Comparison, record: dict, ranked: RankTable) -> list[str]:
    """The default text: the answer, the pairs over the data sets, the pairs within each, and where the rest is."""
    lines = answer_lines(c, record, ranked) + _over_datasets(c) + _within(c)
    return lines + ["", "More: -v or --report DIR (scores and pairs of each data set); --format json."]


def _over_datasets(c: Comparison) -> list[str]:
    pairs = c.over_datasets
    if not pairs:
        return []
    run = sum(p.p_value is not None for p in pairs)
    lines = [""] + _wrap(f"Pairs over the {pairs[0].datasets:,} data sets: Wilcoxon on the mean costs, Holm over "
                         f"{run:,}; wins: the data sets where a, b has the lower mean cost, or neither (exact).", 0)
    rows = [[f"{p.a} vs {p.b}", f"{p.a_lower:,}/{p.b_lower:,}/{p.ties:,}",
             "not run" if p.p_value is None else f"{p.p_holm:.4g}",
             "" if p.p_value is None else ("significant" if p.significant else "not significant"),
             "" if p.p_value is None else (f"favours {p.test_favours}" if p.test_favours else "favours neither")
             + ("" if p.lower_mean_cost in (None, p.test_favours) else f" (lower mean: {p.lower_mean_cost})")]
            for p in pairs[:PAIRS_SHOWN]]
    head = ["pair", "wins a/b/tie", "p (Holm)", f"at {c.alpha}", "the test"]
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    for r in [head] + rows:
        lines.append(("  " + "  ".join(v.rjust(w) if i in (1, 2) else v.ljust(w)
                                       for i, (v, w) in enumerate(zip(r, widths)))).rstrip())
    if len(pairs) > PAIRS_SHOWN:
        lines.append(f"  and {len(pairs) - PAIRS_SHOWN:,} more pairs with -v")
    if c.over_datasets_note:
        lines += _wrap(f"{c.over_datasets_note[0].upper()}{c.over_datasets_note[1:]}.")
    return lines


def _within(c: Comparison) -> list[str]:
    """The pairs compared on the instances of each data set, counted, and the significant ones named."""
    if not c.pairs:
        return []
    significant = [p for p in c.pairs if p.significant]
    named = "; ".join(f"{p.a} vs {p.b} on {p.dataset}" for p in significant[:SIGNIFICANT_NAMED])
    more = len(significant) - SIGNIFICANT_NAMED
    which = {"best": ", each classifier against the best of its data set",
             "against": f", each against {c.references[0][1] if c.references else 'the one named'}"}.get(c.mode, "")
    text = (f"Pairs within each data set, on its instances: {len(c.pairs):,} compared{which} (Wilcoxon signed-rank, "
            f"Holm over {c.tested:,}); {len(significant):,} significant at {c.alpha}" +
            (f": {named}" + (f", and {more:,} more" if more > 0 else "") if significant else "") + ".")
    return [""] + _wrap(text, 0) + (_wrap(f"{c.note[0].upper()}{c.note[1:]}.") if c.note else [])
