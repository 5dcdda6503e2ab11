"""`evaluate`: the spec that was verified, used unchanged to score set-valued classifiers (mean cost, the usual
summaries of set predictions, paired comparisons), or their mean cost as a symbolic parameter sweeps a range."""

from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from verifier import limits
from verifier.analysis.pipeline import build
from verifier.api import arguments
from verifier.api.entry import checked_time_limit, load
from verifier.api.use.evaluation_run import Run
from verifier.api.use.evaluation_surface import surface_report, surface_use_report
from verifier.api.use.probabilities import decided_predictions
from verifier.api.use.report import Source, UseReport, exact_arg, unfixed
from verifier.api.use.requests import EvaluateRequest, sweep_texts
from verifier.api.use.route import use_route
from verifier.errors import UsageError
from verifier.numbers import shown
from verifier.report.use import scores as words
from verifier.using import (
    Predictions,
    add_intervals,
    frame_predictions,
    from_arrays,
    parse_sweep,
    read_datasets,
    read_predictions,
    score,
    sweep,
)
from verifier.using.compare import Comparison, check_pairs, compare
from verifier.using.evaluate import Sweep, costs_of, cut_short, row_keys

if TYPE_CHECKING:
    from collections.abc import Sequence
    from fractions import Fraction


def evaluate(source: Source, y_true=None, sets=None, *,
             predictions: str | list[str] | list[Predictions] | None = None,
             truth: str | None = None, f_beta: Sequence[float | str | Fraction] = (), level: float = 0.95,
             alpha: float = 0.05,
             sweep_text: str | list[str] | None = None, time_limit: float | None = limits.DEFAULT_TIME_LIMIT_S,
             probabilities=None, pairs: str | None = None, scores: str | None = None,
             threshold_choice: str | None = None, uncertainty=None, weight: str | None = None,
             logits: bool = False) -> UseReport:
    """Score set predictions: `y_true` and `sets` (lists, numpy arrays or pandas columns), a data frame as
    `y_true` alone (columns as in the CSV: true, predicted, optionally classifier and dataset), a `predictions`
    file (CSV, or `.npy` masks with `truth`) or a list of them (one data set each, named by the file stem unless
    the file has a dataset column). Or score a classifier's `probabilities` (an (N, K) array in the spec's
    class order with `y_true`, a dict of them by classifier, or a file with `truth`): each row's optimal set
    under the scheme is predicted first, as `decide` does. `sweep_text` 'r=0.1:2:20' sweeps a symbolic
    parameter instead; a list of two (['mu=0:1:21', 'nu=0:1:21']) with `probabilities` gives the surface of
    mean cost, indeterminacy rate and set size over two parameters, the sets decided afresh at each point (with
    set predictions: their mean cost at each point). `pairs`: 'all' (every pair of a data set), 'best' (each
    classifier against the one of lowest mean cost) or a classifier's name (each against it); None: 'all' up to
    1,000 pairs, else 'best'.
    `time_limit`: seconds for the whole evaluation (None: no bound); when it passes, the result holds what was
    done (scores first) and says what was cut (`cut` in the record).

    `scores`: a CSV of binary classifiers' scores (one column each, higher meaning the spec's first class more
    likely) with `truth` or a `true` column: abstention cost curves over one or two swept parameters
    (`sweep_text` a list of up to two texts), with VACC, exactly (Friedel, Rückert & Kramer). With
    `threshold_choice` ('score', 'rate' or 'optimal'): the expected loss when the spec's one cost parameter is
    known only up to a certainty `uncertainty` (a list of gammas: 0, positive numbers, 'inf'), the true value
    weighted by `weight` ('uniform' or 'beta:A,B'), Hernández-Orallo et al.'s operating-condition uncertainty.
    These jobs have their own entry points, which take arrays too and to which `evaluate` forwards by keyword:
    `abstention_curves`, `operating_conditions` and (two sweeps with `probabilities`) `cost_surface`.

    `logits`: `probabilities` holds logits (any finite reals), each row decided exactly on its softmax."""
    seconds = checked_time_limit(time_limit)
    logits = arguments.flag(logits, "logits")
    if logits and (probabilities is None or scores is not None or sweep_text or threshold_choice is not None
                   or uncertainty is not None or weight is not None):
        raise UsageError("--logits reads --probabilities FILE as logits, to score each row's optimal set on their "
                         "softmax (and --certainty); not with --scores, --sweep or --threshold-choice, which need "
                         "the probabilities themselves")
    scores = arguments.path(scores, "scores")
    if threshold_choice is not None or uncertainty is not None or weight is not None:
        from verifier.api.use.operating import operating_conditions

        if scores is None and probabilities is None:
            raise UsageError("--threshold-choice, --uncertainty and --weight evaluate binary scores (--scores FILE) "
                             "or class probabilities (--probabilities FILE), with --truth FILE")
        if sweep_text or predictions is not None or pairs is not None or f_beta:
            raise UsageError("--threshold-choice takes --scores or --probabilities, the certainties (--uncertainty) "
                             "and --weight; not --sweep, --pairs, --f-beta or predictions")
        return operating_conditions(source, y_true=None if scores is not None else y_true, y_score=scores,
                                    probabilities=probabilities, truth=arguments.path(truth, "truth"),
                                    method=threshold_choice or "score", uncertainty=uncertainty, weight=weight,
                                    time_limit=seconds)
    if scores is not None:
        from verifier.api.use.abstention import abstention_curves

        if predictions is not None or probabilities is not None or sets is not None or y_true is not None:
            raise UsageError("give scores (abstention cost curves) or predictions or probabilities, not several")
        if f_beta:
            raise UsageError("--f-beta scores set predictions; --scores draws abstention cost curves")
        return abstention_curves(source, y_score=scores, truth=arguments.path(truth, "truth"),
                                 sweep=_sweeps(sweep_text), pairs=pairs, time_limit=seconds)
    sweeps = _sweeps(sweep_text)
    if sweeps is not None and len(sweeps) > 1 and probabilities is not None:  # a surface over two parameters
        from verifier.api.use.evaluation_surface import cost_surface

        if predictions is not None or sets is not None or pairs is not None:
            raise UsageError(f"--sweep given {len(sweeps):,} times draws a surface of the probabilities' optimal sets "
                             "(or of set predictions, without --probabilities); --pairs does not combine with it")
        return cost_surface(source, y_true, probabilities, sweep=sweeps, truth=truth, time_limit=seconds)
    request = EvaluateRequest(source=source, y_true=y_true, sets=sets, predictions=predictions, truth=truth,
                              f_beta=f_beta, level=level, alpha=alpha, sweep_text=sweep_text,
                              probabilities=probabilities, pairs=pairs, logits=logits)
    run = Run()
    try:
        with limits.time_limit(seconds):
            swept = _evaluate(run, request)
    except limits.TimeLimitReached as stop:
        if run.surface and run.surface[0].done:  # a surface: the grid points done, made into a report here
            return surface_use_report(run.spec, run.surface[0], stop)
        if run.swept is not None and any(c.reached != 0 for c in run.swept.curves):  # a sweep: its points done
            return _sweep_report(run.spec, cut_short(run.swept, stop))
        if not run.scores:
            raise UsageError(f"{stop} while {run.stage}, before any classifier was scored; raise the time limit "
                             "(--time-limit), or split the input") from None
        return run.report(stop)
    return swept if swept is not None else run.report()


def _evaluate(run: Run, request: EvaluateRequest) -> UseReport | None:
    """Set predictions (or probabilities turned into them) scored, compared, or swept along one parameter (two:
    a surface of the sets as given); `run` keeps what was done when the time limit stops it."""
    run.stage = "reading the spec"
    spec = load(request.source)
    run.stage = "reading the predictions"
    classes = tuple(spec.classes)
    sweeps = _sweeps(request.sweep_text)
    truth = arguments.path(request.truth, "truth")
    predictions = _prediction_files(request.predictions)
    y_true, sets, probabilities, pairs = request.y_true, request.sets, request.probabilities, request.pairs
    f_beta, level, alpha, logits = request.f_beta, request.level, request.alpha, request.logits
    sweep_text = sweeps[0] if sweeps and len(sweeps) == 1 else None
    decided = []
    if probabilities is not None:
        if predictions is not None or sets is not None or sweep_text is not None:
            raise UsageError("give probabilities or set predictions, not both (one --sweep draws the curves of set "
                             "predictions; two --sweeps, a surface from probabilities too)")
        route = use_route(spec, "verify evaluate --probabilities" + (" --logits" if logits else ""), logits)
        run.stage = "deciding from the probabilities"
        decided = decided_predictions(route, probabilities, y_true, truth, logits)
        predictions, truth = [d.predictions for d in decided], None
    if predictions is None and sets is None and hasattr(y_true, "columns"):  # a data frame (pandas or alike)
        predictions = frame_predictions(classes, y_true)
    if predictions is None:
        if y_true is None or sets is None:
            raise UsageError("give y_true and sets, or a predictions file")
        found = [from_arrays(classes, y_true, sets)]
    elif isinstance(predictions, str):
        found = read_predictions(predictions, classes, truth)
    elif predictions and all(isinstance(p, str) for p in predictions):  # several files: one data set each
        found = read_datasets(list(predictions), classes, truth)
    else:
        found = list(predictions)
    if isinstance(f_beta, (str, bytes)) or not hasattr(f_beta, "__iter__"):
        raise UsageError(f"f_beta is a list of positive numbers, not {shown(f_beta)}")
    betas = [exact_arg(b, "--f-beta") for b in f_beta]
    if any(b <= 0 for b in betas):
        raise UsageError("--f-beta: beta must be positive")
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (level, alpha)) or \
            not 0 < level < 1 or not 0 < alpha < 1:
        raise UsageError("--level and --alpha must lie strictly between 0 and 1")
    if sweeps is not None:
        if pairs is not None:
            raise UsageError("--pairs chooses the paired comparisons of scores; --sweep draws curves instead")
        if len(sweeps) > 1:  # fixed sets: their mean cost at each point, nothing to decide
            run.spec = spec
            return surface_report(spec, sweeps, found=[replace(p, name=_label(p)) for p in found],
                                  within_family=lambda scheme, p: _within_family(spec, p), into=run.surface)
        run.spec, run.swept = spec, Sweep("", [], [], [])  # filled as it goes: a stop keeps the points done
        return _swept(spec, found, sweeps[0], level, run.swept)  # the one sweep
    sources = list(dict.fromkeys(p.source for p in found if p.source))
    check_pairs(pairs, list(dict.fromkeys(p.name for p in found)),
                ", ".join(sources) if sources else "these predictions")
    route = route if probabilities is not None else use_route(spec, "verify evaluate")
    for pred in found:
        _within_family(spec, pred)
    run.spec, run.decided, run.alpha, run.planned = spec, decided, alpha, [_label(p) for p in found]
    run.stage = "scoring the classifiers"
    for pred in found:
        limits.check_time()  # outside the main thread no alarm fires: stop between classifiers
        run.scores.append(score(route.costs, pred, betas, level, interval=False))
    run.stage = "resampling the instances (bootstrap intervals)"
    add_intervals(run.scores, level)
    run.intervals = True
    if len(run.scores) > 1:
        run.stage = "comparing the classifiers"
        run.comparison = Comparison(alpha=alpha, level=level, pairs=[], tested=0, friedman=None,
                                    why_no_friedman=None)
        compare(run.scores, alpha, level, pairs, into=run.comparison)
    run.stage = "done"
    return None


def _sweeps(value) -> list[str] | None:
    """`sweep_text` as a list of texts (None: no sweep); one text alone is one sweep."""
    return sweep_texts(value, "sweep_text")


def _label(pred: Predictions) -> str:
    return pred.name if pred.dataset is None else f"{pred.name} ({pred.dataset})"


def _prediction_files(predictions):
    """`predictions` as given, with paths as text; anything but a path, a list of paths or a list of
    `Predictions` is a UsageError."""
    if predictions is None or isinstance(predictions, (str, os.PathLike)):
        return arguments.path(predictions, "predictions")
    if isinstance(predictions, (list, tuple)) and predictions:
        if all(isinstance(p, (str, os.PathLike)) for p in predictions):
            return [arguments.path(p, "predictions") for p in predictions]
        if all(isinstance(p, Predictions) for p in predictions):
            return list(predictions)
    raise UsageError(f"predictions takes a file, a non-empty list of files or a list of Predictions, not "
                     f"{shown(predictions)}")


def _within_family(spec, pred) -> None:
    """A prediction outside the spec's `predictions:` family has no row to score: refuse it, naming the first
    such row (the family says which sets it allows, whether its matrix is built or not)."""
    if not spec.predictions.restricted or not len(pred.masks):
        return
    _, first = np.unique(row_keys(pred.masks), return_index=True)  # the distinct sets, at any number of classes
    outside = [(i, pred.masks[i]) for i in first.tolist()
               if not spec.predictions.allows(np.flatnonzero(pred.masks[i]))]
    if outside:
        i, row = min(outside, key=lambda t: t[0])
        K = len(spec.classes)
        family = spec.predictions.describe(K).split(":")[0]
        where = f" (data set {pred.dataset})" if pred.dataset is not None else ""
        at = (f"{pred.source}:{pred.lines[i]}: " if pred.lines else f"{pred.source}: " if pred.source else "")
        row_text = "" if pred.lines else f", instance {i + 1},"
        raise UsageError(f"{at}{pred.name}{where}{row_text} predicts "
                         "{" + ", ".join(spec.classes[c] for c in np.flatnonzero(row).tolist()) + "}, "
                         f"which is not an allowed prediction of {spec.path} (its 'predictions' are {family}); "
                         f"{len(outside):,} distinct set(s) outside the family in all")


def _swept(spec, found: list[Predictions], text: str, level: float = 0.95, into: Sweep | None = None) -> UseReport:
    found = [replace(p, name=f"{p.name} ({p.dataset})") if p.dataset is not None else p for p in found]
    symbolic = [name for name, p in spec.parameters.items() if p.value is None]
    name, grid = parse_sweep(text, symbolic)
    others = [s for s in symbolic if s != name]
    if others:
        raise unfixed(spec, others, "--sweep varies one parameter and")
    scheme = build(spec)
    for pred in found:
        _within_family(spec, pred)
    return _sweep_report(spec, sweep(scheme, found, name, grid, level, costs_of(scheme), into))


def _sweep_report(spec, s: Sweep) -> UseReport:
    """The report of a sweep, complete or cut short by the time limit (its `cut` says what was left)."""
    record = {"spec": spec.path, "sweep": words.sweep_json(s), "cut": None if s.cut is None else {"text": s.cut}}
    lines = words.sweep_lines(s)
    return UseReport("\n".join(lines) + "\n", record, sweep=s,
                     title=f"{spec.name}: mean cost as {s.parameter} varies")
