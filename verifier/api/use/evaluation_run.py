"""What `evaluate` has done so far (`Run`), and the report made of it: everything when it finished, or, when the
time limit stopped it, what was done (scores first) and a statement of what was cut, in the text and as `cut` in
the record. The report is made after the bound, so that a stopped evaluation still shows its scores."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from verifier import limits
from verifier.api.use.probabilities import decided_json, decided_lines
from verifier.api.use.report import UseReport
from verifier.report.use import answer_first, rank_table, score_table
from verifier.report.use import comparison as words_comparison
from verifier.report.use import scores as words
from verifier.using import Comparison, Scores, finish

if TYPE_CHECKING:
    from verifier.spec import Spec
    from verifier.using import ProbabilityPredictions
    from verifier.using.evaluate import Surface, Sweep


@dataclass
class Run:
    """The evaluation's progress: filled as it goes, kept when the time limit stops it."""

    stage: str = "reading the predictions"
    spec: Spec | None = None
    alpha: float = 0.05
    decided: list[ProbabilityPredictions] = field(default_factory=list)
    planned: list[str] = field(default_factory=list)  # every classifier to score (with its data set)
    scores: list[Scores] = field(default_factory=list)
    intervals: bool = False  # the bootstrap intervals are computed
    comparison: Comparison | None = None
    surface: list[Surface] = field(default_factory=list)  # the Surface being made, when two sweeps draw one
    swept: Sweep | None = None  # the Sweep being made, when one sweep draws curves

    def report(self, stop: limits.TimeLimitReached | None = None) -> UseReport:
        """The result: complete, or cut by `stop` (what was done, then what was cut)."""
        cut = self._cut(stop) if stop is not None else None
        spec = self.spec
        assert spec is not None  # read before the first classifier is scored, and a report is made of scores
        scores = self.scores
        record: dict = {"spec": spec.path, "scores": [{**words.scores_json(s), "dataset": s.dataset} for s in scores]}
        lines = (decided_lines(self.decided) if self.decided else []) + score_lines(scores)
        if self.decided:
            record["decided_from_probabilities"] = decided_json(self.decided)
        c = self.comparison
        summary: list[str] | None = None  # over several data sets: the answer first (report.use.answer_first)
        quiet: list[str] = []  # with the summary: the answer alone
        if c is not None:
            finish(c, cut["comparison"] if cut else None)
            record["comparison"] = words_comparison.comparison_json(c)
            lines += words_comparison.comparison_text(c)
            if c.friedman is not None:
                ranked = rank_table.rank_table(c.friedman, scores)
                record["comparison"]["friedman"]["per_dataset"] = rank_table.rank_json(ranked)
                lines += ["", "  Mean costs and ranks per data set:"] + \
                    ["    " + line for line in rank_table.console_lines(ranked)] + \
                    words_comparison.wrapped(rank_table.legend("*") + ".", 4)
                summary = answer_first.summary_lines(c, record["comparison"], ranked)
                quiet = answer_first.answer_lines(c, record["comparison"], ranked)
        record["cut"] = cut
        stopped = [""] + words_comparison.wrapped(f"Stopped: {cut['text']}.", 0) if cut is not None else []
        title = f"{spec.name}: critical difference diagram (Nemenyi, alpha = {self.alpha})"
        full = _text(lines + stopped)
        if summary is None:
            return UseReport(full, record, scores=scores, comparison=c, title=title)
        return UseReport(_text(summary + stopped), record, scores=scores, comparison=c, title=title,
                         verbose_text=_text(summary + ["", "In full:", ""]) + full, quiet_text=_text(quiet + stopped))

    def _cut(self, stop: limits.TimeLimitReached) -> dict:
        """What the time limit left undone, as data and as one sentence."""
        limit = f"the time limit of {stop.seconds:g} s"
        scored, total = len(self.scores), len(self.planned)
        parts, comparison_cut = [], None
        if scored < total:
            left = self.planned[scored:]
            parts.append(f"scores: {scored:,} of {total:,} classifiers scored before {limit}; not scored: "
                         + ", ".join(left[:5]) + (f", ... ({len(left):,} in all)" if len(left) > 5 else ""))
        if not self.intervals:
            computed = sum(s.interval is not None for s in self.scores)
            parts.append("bootstrap intervals of the mean costs: not computed" if not computed else
                         f"bootstrap intervals of the mean costs: {computed:,} of {scored:,} computed")
        c = self.comparison
        pairs_done = len(c.pairs) if c is not None else 0
        if c is not None and self.stage != "done":
            if c.planned == 0 and c.friedman is None and c.why_no_friedman is None:
                comparison_cut = f"the comparisons were not started before {limit}"
            else:
                comparison_cut = f"pairwise comparisons: {pairs_done:,} of {c.planned:,} pairs done before {limit}"
            parts.append(comparison_cut + ("; Holm's adjustment is over the pairs done" if pairs_done else ""))
        elif c is None and total > 1:
            parts.append("pairwise comparisons and the Friedman test: not run")
        text = f"{stop}: " + "; ".join(parts) + " (raise --time-limit" + \
            (", or compare fewer pairs with --pairs best or --pairs NAME)" if c is not None or total > 1 else ")")
        return {"text": text, "seconds": stop.seconds, "stage": self.stage, "classifiers": total,
                "classifiers_scored": scored, "intervals": self.intervals,
                "pairs_planned": c.planned if c is not None else None, "pairs_done": pairs_done,
                "comparison": comparison_cut}


def _text(lines: list[str]) -> str:
    """Lines as the console prints them (no trailing blanks), so that a notebook's block is the same text."""
    return "".join(line.rstrip() + "\n" for line in lines)


def score_lines(scores) -> list[str]:
    """The scores table, one per data set when the predictions name data sets."""
    datasets = list(dict.fromkeys(s.dataset for s in scores))
    if datasets == [None]:
        return score_table.console_lines(scores)
    lines = []
    for d in datasets:
        lines += [f"Data set {d}:"] + [f"  {line}" if line else line for line in
                                        score_table.console_lines([s for s in scores if s.dataset == d])]
    return lines
