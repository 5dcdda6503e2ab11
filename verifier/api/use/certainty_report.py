"""`decide --certainty`: the decisions, with the certainty and doubt of each (Berenbeim et al.) and, for two
classes, the exact certainty margin below which the scheme predicts both (`using.certainty.margin`); and
`evaluate --certainty` (`certainty`): per classifier, the certainty of its decisions against the truth."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from verifier.api.use.report import BatchReport, Source, UseReport, as_p
from verifier.api.use.route import Rows, RowsDecider, RowsSource, use_route
from verifier.errors import UsageError
from verifier.report.output import PictureBytes
from verifier.report.use import certainty as words
from verifier.report.use import decisions
from verifier.using import BatchDecider, DistributionFile, LogitDecider, LogitFile, raw_certainty
from verifier.using.certainty import BlockCertainty, block_certainty, doubt_cost, pairwise, two_class_margin
from verifier.using.decide import decide as decide_precise

if TYPE_CHECKING:
    from collections.abc import Callable

    from verifier.scheme import Scheme
    from verifier.using.decide import BatchDecision

NO_MARGIN = ("Certainty margin: derived for two classes only (with more, the optimal set generally depends on more "
             "than the minimum certainty: e.g. u65 at K = 3 prefers the top pair to the top class iff p_2 > 7/13·p_1)")


def decide_with_certainty(scheme: Scheme, p, p_file: str | None, logits: bool = False,
                          decider: BatchDecider | None = None) -> UseReport:
    """`decide` for `p` or every row of `p_file`, with certainty columns, their summary and the margin;
    `logits`: the rows are logits, decided on their softmax, with the raw certainty and doubt of the logits.
    `decider`: the batch decider of the spec's route for rows of probabilities (default: `BatchDecider`)."""
    if p is None and p_file is None:
        raise UsageError("--certainty goes with --p or --p-file (a precise distribution), not a credal set")
    margin = two_class_margin(scheme)
    margin_text = margin.text() if margin is not None else NO_MARGIN if scheme.K > 2 else None
    if p is not None:
        d = decide_precise(scheme, as_p(p, scheme.classes))
        record = decisions.decision_json(scheme, d)
        j, chi, delta = pairwise(d.p)
        record["certainty"] = {"top": scheme.classes[j],
                               "pairwise_certainty": {c: str(x) for c, x in zip(scheme.classes, chi)},
                               "pairwise_doubt": {c: "inf" if x is None else str(x)
                                                  for c, x in zip(scheme.classes, delta)},
                               "tie": any(x is None for x in delta), "doubt_cost": doubt_cost(chi, j),
                               "note": words.NOTE}
        others = [x for i, x in enumerate(chi) if i != j]
        least = min(others) if others else None
        top = scheme.classes[j]
        about = "" if record["prediction"] == [top] else \
            f"; about {top}, not the optimal set {{{', '.join(record['prediction'])}}}"
        lines = [f"Certainty of the most probable class {top} over each other class (p_{top} − p_i, exact{about}): "
                 + ", ".join(f"{c} {x}" for i, (c, x) in enumerate(zip(scheme.classes, chi)) if i != j),
                 f"Minimum certainty {least}, maximum doubt "
                 + ("inf (a tie for the top class)" if least == 0 else f"{1 / least}" if least is not None else "0")
                 + f"; doubt cost θ ≈ {doubt_cost(chi, j):.6g} rad"]
        if margin is not None:
            record["certainty"]["margin"] = margin.to_json()
        if margin_text:
            lines.append(margin_text)
        return UseReport(decisions.decision_text(scheme, d) + "\n".join(lines) + "\n", record, record["prediction"])
    assert p_file is not None  # p or p_file, checked on entry
    if logits:
        result, rescaled, c = _measured(LogitFile(p_file, scheme.classes), LogitDecider(scheme), raw_certainty)
        if margin is not None:  # the margin is on p = softmax(y); for two classes p_j − p_i = tanh(ξ_i/2)
            margin_text = margin.text() + " " + words.RAW_MARGIN
    else:
        result, rescaled, c = _measured(DistributionFile(p_file, scheme.classes), decider or BatchDecider(scheme),
                                        block_certainty)
    summary = result.summary()
    shape = words.summary_json(c, logits)

    def make_record() -> dict:  # made when read (the command line's CSV never reads it)
        out = decisions.batch_json(scheme, result, rescaled, summary)
        out["certainty"] = {"summary": shape, "rows": words.rows_json(scheme.classes, c)}
        if logits:
            out["certainty"]["raw"] = True  # on the logits (Berenbeim et al.'s raw certainty and doubt)
        if margin is not None:
            out["certainty"]["margin"] = margin.to_json()
        return out
    extra = words.columns(scheme.classes, c, lambda x: '"' + decisions.spreadsheet_safe(x).replace('"', '""') + '"',
                          logits)
    return BatchReport(lambda: decisions.batch_csv_blocks(scheme, result, extra), make_record,
                       summary_text=decisions.summary_text(scheme, summary)
                       + words.summary_text(c, margin_text, logits, shape))


def _measured(source: RowsSource[Rows], decider: RowsDecider[Rows],
              measure: Callable[[Rows], BlockCertainty]) -> tuple[BatchDecision, int, BlockCertainty]:
    """Every block of `source` decided by `decider` and measured by `measure`: the decisions, the rows rescaled and
    the certainty of every row."""
    parts = []
    for rows in source.blocks():
        decider.add(rows)
        parts.append(measure(rows))
    return decider.result, source.rescaled, BlockCertainty.join(parts)


@dataclass
class CertaintyReport:
    """`certainty(...)` and `evaluate --probabilities ... --certainty`: per classifier, the certainty and doubt of
    its decisions, and between classifiers the paired test. Shown in a notebook as tables (and the console text in
    a monospace block); `records()` and `to_frame()` give one row per classifier, `picture(fmt)` the ECDF of each
    classifier's maximum doubt."""
    text: str
    record: dict
    classifiers: list = field(default_factory=list, repr=False)  # `using.evaluate.certainty_eval.ClassifierCertainty`
    pairs: list = field(default_factory=list, repr=False)
    verbose_text: str = field(default="", repr=False)  # every classifier's quantiles and outcomes, every pair (-v)

    TITLE = "Certainty and doubt of each decision"

    def to_json(self) -> dict:
        """The JSON record (what `verify evaluate --certainty --format json` adds)."""
        return self.record

    def __repr__(self) -> str:  # one line: the classifiers and their mean minimum certainty
        from verifier.report.output.notebook import items

        shown = [f"{r['classifier']} {r['mean_min_certainty']:.4g}" if r["mean_min_certainty"] is not None
                 else r["classifier"] for r in self.records()]
        line = f"<CertaintyReport of {len(shown):,} classifier(s), mean minimum certainty {items(shown)}>"
        return line if len(line) < 200 else line[:196] + "…>"

    def _repr_html_(self) -> str:  # tables, then the console's text in a monospace block, every detail folded
        from verifier.report.use import certainty_html

        return certainty_html(self.TITLE, self.record, self.text, self.verbose_text)

    def records(self) -> list[dict]:
        """One dict per classifier: rows, ties, the minimum certainty's mean and median, the maximum doubt's
        median, the doubt cost's mean, the rows right, wrong and indeterminate."""
        from verifier.report.use import certainty_records

        return certainty_records(self.record)

    def pair_records(self) -> list[dict]:
        """One dict per pair of classifiers: the paired test of the minimum certainty on the same rows."""
        from verifier.report.use import certainty_pair_records

        return certainty_pair_records(self.record)

    def to_frame(self):
        """The classifiers as a pandas DataFrame, one row each (pandas is optional: the `frames` extra)."""
        from verifier.report.use import data_frame

        return data_frame(self.records())

    def picture(self, fmt: str = "svg") -> PictureBytes:
        """The ECDF of each classifier's maximum doubt as SVG, PDF or PNG bytes (`PictureBytes`: shown as the
        picture in a notebook)."""
        from verifier.report.figures import doubt_figure

        if fmt not in ("svg", "pdf", "png"):
            raise UsageError(f"picture format {fmt!r}: expected svg, pdf or png")
        title = "Maximum doubt of each decision (ECDF)"
        return PictureBytes(doubt_figure([(c.name, c.certainty.max_doubt) for c in self.classifiers], title, fmt),
                            fmt, title)


def certainty(source: Source, probabilities, y_true=None, *, truth: str | None = None,
              alpha: float = 0.05, logits: bool = False) -> CertaintyReport:
    """The certainty and doubt (Berenbeim et al.) of each classifier's decisions under the spec's scheme:
    `probabilities` and `truth`/`y_true` as for `evaluate`; `logits`: they are logits (the raw variants)."""
    from itertools import combinations

    from verifier.api.use.probabilities import probability_sources
    from verifier.using.evaluate import certainty_of, paired_certainty

    route = use_route(source, "verify evaluate --certainty" + (" --logits" if logits else ""), logits)
    scheme = route.deciding_scheme()  # the decisions of `evaluate --probabilities`, on the same route (or its refusal)
    if probabilities is None:
        raise UsageError("--certainty in evaluate reads --probabilities (with --truth)")
    found = [certainty_of(scheme, name, blocks, labels, where, None if logits else route.decider)
             for name, where, blocks, labels, _ in probability_sources(scheme.classes, probabilities, y_true, truth,
                                                                       logits)]
    pairs = [paired_certainty(a, b) for a, b in combinations(found, 2)]
    record: dict = {"classifiers": [words.classifier_json(c, logits) for c in found],
                    "pairs": [words.pair_json(p) for p in pairs], "note": words.RAW_NOTE if logits else words.NOTE}
    if logits:
        record["raw"] = True
    margin = two_class_margin(scheme)
    text = words.evaluation_text(found, pairs, alpha, logits)
    brief = words.evaluation_summary(found, pairs, alpha, logits) if len(found) >= words.SUMMARY_FROM else text
    if margin is not None:
        record["margin"] = margin.to_json()
        text += "  " + margin.text() + "\n"
        brief += "  " + margin.text() + "\n"
    return CertaintyReport(brief, record, found, pairs, verbose_text="" if brief == text else text)
