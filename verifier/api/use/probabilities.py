"""`evaluate(..., probabilities=...)`: a classifier's class probabilities turned into set predictions under the
verified scheme (each row's optimal set, as `decide` finds it), before they are scored.

`probabilities` is a file (a CSV with a header of class names, or an (N, K) `.npy`; the true classes in
`truth`; several files, one per classifier, on the same instances), an (N, K) array of any library or list of
rows in the spec's class order, or a data frame whose columns name the classes (the true classes in `y_true`),
or a dict from a classifier's name to such an array (several classifiers on the same instances).
"""

from __future__ import annotations

import os

from verifier.api.use.route import UseRoute
from verifier.errors import UsageError
from verifier.numbers import shown
from verifier.report.use import TIE_RULE
from verifier.using import (
    DistributionFile,
    LogitFile,
    ProbabilityPredictions,
    array_rows,
    logit_rows,
    predict_sets,
)
from verifier.using.inputs import labels as true_labels
from verifier.using.inputs import read_truth


def decided_predictions(route: UseRoute, probabilities, y_true, truth: str | None,
                        logits: bool = False) -> list[ProbabilityPredictions]:
    """Each classifier's optimal sets on `route`, as `decide --p-file` decides them there (`logits`: the rows are
    logits, decided on their softmax). Where the route decides no rows, its refusal, before any file is read."""
    scheme = route.deciding_scheme()  # (its refusal, if it decides none)
    out = []
    for name, where, blocks, labels, file in probability_sources(tuple(route.spec.classes), probabilities, y_true,
                                                                  truth, logits):
        decided = predict_sets(scheme, blocks, labels, name, where, route.decider)
        if file is not None:
            decided.rescaled = file.rescaled
        out.append(decided)
    return out


def probability_sources(classes: tuple[str, ...], probabilities, y_true, truth: str | None, logits: bool = False):
    """Each classifier's (name, where, its blocks of exact rows (read lazily), the true class indices, the
    `DistributionFile` or None), one at a time, so that a bad file is reported before the next is opened.
    `logits`: the rows are logits (blocks of `LogitRows`, a `LogitFile`)."""
    if isinstance(probabilities, (list, tuple)) and probabilities and \
            all(isinstance(p, (str, os.PathLike)) for p in probabilities):  # several files, one classifier each
        for path in probabilities:
            yield from probability_sources(classes, path, y_true, truth, logits)
        return
    if isinstance(probabilities, (str, os.PathLike)):
        path = os.fspath(probabilities)
        if truth is None:
            raise UsageError(f"--probabilities {path}: the true classes go in --truth FILE (class names one per line, "
                             "or a .npy of class indices)")
        labels = read_truth(truth, classes)
        blocks = (LogitFile if logits else DistributionFile)(path, classes, "--probabilities")
        name = os.path.splitext(os.path.basename(path))[0] or "classifier"
        yield name, f"--probabilities {path}", blocks.blocks(), labels, blocks
        return
    if truth is not None:
        raise UsageError("truth= names a file of true classes for a probabilities file; with arrays, give y_true")
    if y_true is None:
        raise UsageError("probabilities need the true classes: y_true")
    labels = true_labels(classes, y_true)
    named = probabilities if isinstance(probabilities, dict) else {"classifier": probabilities}
    for name, values in named.items():
        if not isinstance(name, str) or not name.strip():
            raise UsageError(f"probabilities: a classifier's name must be a non-empty text, got {shown(name)}")
        where = f"probabilities[{name!r}]" if isinstance(probabilities, dict) else "probabilities"
        if logits:
            yield name, where, logit_rows(values, len(classes), where), labels, None
            continue
        rows = array_rows(values, classes, where)  # a frame's columns by class name
        yield name, where, rows.blocks(), labels, rows


def decided_json(decided: list[ProbabilityPredictions]) -> list[dict]:
    """How each classifier's sets were decided, for the JSON record: its rows, those rescaled, tied or not
    separated exactly, and the tie rule."""
    return [{"classifier": d.predictions.name, "rows": d.rows, "rows_rescaled": d.rescaled, "rows_with_ties": d.ties,
             "undecided_rows": d.undecided, "tie_rule": TIE_RULE, **({"logits": True} if d.logits else {})}
            for d in decided]


def decided_lines(decided: list[ProbabilityPredictions]) -> list[str]:
    """The same in words: a line per classifier, the tie rule when a row had tied optima, then a blank line."""
    source = "the logits (on their softmax)" if any(d.logits for d in decided) else "the probabilities"
    lines = [f"Set predictions from {source}: each row's optimal set under the scheme, exactly, as verify "
             "decide finds it"]
    for d in decided:
        lines.append(f"  {d.predictions.name}: {d.rows:,} rows, {d.ties} with tied optima"
                     + (f", {d.rescaled} rescaled to sum to 1 exactly" if d.rescaled else "")
                     + (f", {len(d.undecided)} not separated exactly from a rival set" if d.undecided else ""))
    if any(d.ties for d in decided):
        lines.append(f"  Ties: {TIE_RULE}.")
    return lines + [""]
