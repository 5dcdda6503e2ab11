"""`decide`: the spec that was verified, used unchanged to predict sets: the optimal set for a precise
distribution, for each row of a file, or for a credal set under a rule (one, or one per row of a file). A batch
ends with a summary (`UseReport.summary_text`, and `summary` in the record).

    >>> import verifier
    >>> verifier.decide("specs/obstacle-discounted.yaml", {"h": "0.1", "b": "0.3", "n": "0.6"}).prediction
    ['b']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from verifier import limits
from verifier.api import arguments
from verifier.api.use.batch_decisions import BatchDecisions
from verifier.api.use.report import Source, UseReport, as_distribution, as_p, numeric_scheme, within
from verifier.api.use.requests import DecideRequest
from verifier.api.use.route import Rows, RowsDecider, RowsSource, beyond, use_route
from verifier.errors import UsageError
from verifier.numbers import shown
from verifier.report.use import decisions as words
from verifier.scheme.orbits import Orbits
from verifier.using import BatchDecider, CredalBatchDecider, DistributionFile, IntervalsFile, array_rows, intervals
from verifier.using.decide import credal as credal_rules
from verifier.using.decide import decide as decide_precise
from verifier.using.inputs.array_like import is_matrix

if TYPE_CHECKING:
    from verifier.scheme import Scheme


def decide(source: Source, p=None, *, intervals_text: str | None = None, vertices: list | None = None,
           rule: str = "maximality", p_file: str | None = None, intervals_file: str | None = None,
           certainty: bool = False, logits: bool = False,
           time_limit: float | None = limits.DEFAULT_TIME_LIMIT_S) -> UseReport:
    """The optimal set for a precise `p` ('h=0.1,b=0.3,n=0.6', a dict or a list), for a credal set
    (`intervals_text` 'h=0:0.2,...' or `vertices`, with `rule`), for every row of `p_file`, or for every credal
    set of `intervals_file` (columns h_lo, h_hi, ..., with `rule`). `certainty`: with `p` or `p_file`, also the
    certainty and doubt of each decision (Berenbeim et al.; `api.certainty_report`). `logits`: `p` or the rows of
    `p_file` are logits, decided exactly on their softmax (with `certainty`, the raw variants on the logits).
    `time_limit`: seconds for the whole decision (None: no bound)."""
    return within(time_limit, "the decision",
                  lambda: _decide(DecideRequest(source=source, p=p, intervals_text=intervals_text, vertices=vertices,
                                                rule=rule, p_file=p_file, intervals_file=intervals_file,
                                                certainty=certainty, logits=logits)))


def _decide(request: DecideRequest) -> UseReport:
    source, p, vertices = request.source, request.p, request.vertices
    certainty, logits = arguments.flag(request.certainty, "certainty"), arguments.flag(request.logits, "logits")
    intervals_text, rule = request.intervals_text, request.rule
    intervals_text = arguments.text(intervals_text, "intervals_text", "probability intervals as text, e.g. "
                                    "'h=0:0.2,b=0.3:0.4'")
    rule = arguments.text(rule, "rule", "a rule's name as text", optional=False)
    p_file = arguments.path(request.p_file, "p_file")
    intervals_file = arguments.path(request.intervals_file, "intervals_file")
    if vertices is not None and (isinstance(vertices, (str, dict)) or not isinstance(vertices, (list, tuple))):
        raise UsageError(f"vertices takes a list of distributions (each text, a dict or a list), not "
                         f"{shown(vertices)}")
    given = [x is not None for x in (p, intervals_text, vertices, p_file, intervals_file)]
    if sum(given) != 1:
        raise UsageError("give exactly one of --p, --intervals, --intervals-file, --vertex (repeated) or --p-file")
    if logits and p_file is None and p is None:
        raise UsageError("--logits reads rows of logits from --p-file FILE (CSV with a header of class names, or an "
                         "(N, K) .npy) or one row from --p 'CLASS=LOGIT,...'; a credal set (--intervals, --vertex) "
                         "is made of probabilities, not logits")
    rows = p is not None and is_matrix(p)  # many rows in memory: decided as a file's rows are
    if (p_file is not None or rows) and not logits and not certainty:  # the route `evaluate` decides on too
        route = use_route(source, "verify decide --p-file" if p_file is not None else "verifier.decide(rows)")
        scheme = route.deciding_scheme()  # (its refusal, if it decides none)
        return _batch(scheme, route.decider(), DistributionFile(p_file, scheme.classes) if p_file is not None
                      else array_rows(p, scheme.classes, "p"))
    if p_file is not None and not logits:
        route = use_route(source, "verify decide --p-file")
        if route.family is not None:  # without the matrix: a family's masses, or a sort per row
            from verifier.api.use.certainty_report import decide_with_certainty

            return decide_with_certainty(route.deciding_scheme(), None, p_file, decider=route.decider())
        spec, scheme = route.spec, route.deciding_scheme()  # (its refusal, if it decides none)
    else:
        spec, scheme = numeric_scheme(source, "verify decide")
    if scheme.orbits is not None and spec.predictions.restricted:
        raise UsageError(f"{spec.path}: verify decide with --p, --intervals or --vertex compares every allowed set "
                         f"from the family's matrix; {spec.predictions.describe(scheme.K).split(' of the ')[0]} "
                         "are beyond its bounds (checked by symmetry instead); verify decide --p-file decides "
                         "without the matrix (a file of one row will do)")
    if scheme.orbits is not None or scheme.partial:
        symmetric = isinstance(scheme.orbits, Orbits) and scheme.orbits.symmetric  # orbits: None or Orbits
        alike = "its costs treat every class alike, which --p-file decides by a sort per row" + \
            (" from probabilities only (logits are compared set by set on their softmax)" if logits else "")
        raise beyond(spec, "verify decide", alike if symmetric else "its costs do not treat every class alike "
                     "(which would decide any number of classes by a sort per row)",
                     None if not symmetric else "give probabilities instead of logits, verify decide SPEC --p-file "
                     "FILE" if logits else "give the row in a file, verify decide SPEC --p-file FILE (a file of "
                     "one row will do)")
    classes = scheme.classes
    if rows and certainty:
        raise UsageError("certainty=True reads its rows from p_file (or takes one row in p); for rows in memory, "
                         "verifier.certainty(spec, probabilities, y_true) gives each row's certainty and doubt")
    if logits and p is not None and not rows:
        from verifier.api.use.logit_row import decide_logit_row

        return decide_logit_row(scheme, p, certainty)
    if certainty:
        from verifier.api.use.certainty_report import decide_with_certainty

        return decide_with_certainty(scheme, p, p_file, logits)
    if logits:
        from verifier.using import LogitDecider, LogitFile

        # --logits reads --p (rows of logits, or one row: decided above) or --p-file (checked above)
        return _batch(scheme, LogitDecider(scheme), LogitFile(p_file, scheme.classes) if p_file is not None
                      else LogitArray(p, scheme.classes))
    if p is not None:
        exact, total = as_distribution(p, classes)
        d = decide_precise(scheme, exact)
        record, text = words.decision_json(scheme, d), words.decision_text(scheme, d)
        if total != 1:  # within the tolerance: say what was decided on
            record["rescaled_from_sum"] = str(total)
            text += words.rescaled_sentence(total)
        return UseReport(text, record, record["prediction"])
    if p_file is not None:
        return _batch(scheme, BatchDecider(scheme), DistributionFile(p_file, scheme.classes))
    if intervals_file is not None:
        return _decide_intervals_file(scheme, intervals_file, rule)
    if intervals_text is not None:
        credal = credal_rules.CredalSet(len(classes), bounds=intervals(intervals_text, classes))
    else:
        if not vertices:
            raise UsageError("--vertex: a credal set needs at least one vertex")
        points = [as_p(v, classes, f"--vertex {i + 1}") for i, v in enumerate(vertices)]
        credal = credal_rules.CredalSet(len(classes), vertices=points)
    chosen = credal_rules.decide_credal(scheme, credal, rule)
    record = words.credal_json(scheme, credal, chosen)
    return UseReport(words.credal_text(scheme, credal, chosen), record, record["prediction"])


def _batch(scheme: Scheme, decider: RowsDecider[Rows], source: RowsSource[Rows]) -> BatchDecisions:
    """Every row of `source` decided by `decider`: the arrays, the CSV and the record (made when read), and the
    summary."""
    for rows in source.blocks():
        decider.add(rows)
    return BatchDecisions(scheme, decider.result, source.rescaled, decider.result.summary(), scheme.classes)


class LogitArray:
    """Rows of logits held in memory (any library's (N, K) array), as a file of logits is read: in blocks."""

    rescaled = 0  # logits are never rescaled

    def __init__(self, values, classes: tuple[str, ...]):
        self.values, self.K = values, len(classes)

    def blocks(self):
        """The rows, a block at a time (`LogitRows`)."""
        from verifier.using import logit_rows

        return logit_rows(self.values, self.K, "p")


def _decide_intervals_file(scheme, path: str, rule: str) -> UseReport:
    decider = CredalBatchDecider(scheme, rule)  # the rule, K and the costs are checked before the file is read
    lines: list[int] = []
    for block, where in IntervalsFile(path, scheme.classes).blocks():
        decider.add(block)
        lines += where
    summary = decider.summary()
    record = words.credal_batch_json(scheme, rule, decider.rows, lines, summary)
    return UseReport(words.credal_batch_csv(scheme, rule, decider.rows), record, record["predictions"],
                     summary_text=words.summary_text(scheme, summary))
