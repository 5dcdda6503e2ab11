"""`evaluate`: the spec that was verified, used unchanged to score set-valued classifiers (mean cost, the usual
summaries of set predictions, paired comparisons), or their mean cost as a symbolic parameter sweeps a range."""

from __future__ import annotations

from verifier import limits
from verifier.analysis.pipeline import build
from verifier.analysis.use.compare import friedman_nemenyi, wilcoxon_pairs
from verifier.analysis.use.curves import parse_sweep, sweep
from verifier.analysis.use.data import Predictions, frame_predictions, from_arrays, read_predictions
from verifier.analysis.use.evaluate import score
from verifier.api.use import Source, UseReport, exact_arg, numeric_scheme, unfixed, within
from verifier.api.verify import load
from verifier.errors import UsageError
from verifier.numbers import shown
from verifier.report import comparison, scores as words


def evaluate(source: Source, y_true=None, sets=None, *, predictions: str | list[Predictions] | None = None,
             truth: str | None = None, f_beta: list = (), level: float = 0.95, alpha: float = 0.05,
             sweep_text: str | None = None, time_limit: float | None = limits.DEFAULT_TIME_LIMIT_S) -> UseReport:
    """Score set predictions: `y_true` and `sets` (lists, numpy arrays or pandas columns), a data frame as
    `y_true` alone (columns as in the CSV: true, predicted, optionally classifier), or a `predictions` file
    (CSV, or `.npy` masks with `truth`). `sweep_text` 'r=0.1:2:20' sweeps a symbolic parameter instead.
    `time_limit`: seconds for the whole evaluation (None: no bound)."""
    return within(time_limit, "the evaluation", lambda: _evaluate(source, y_true, sets, predictions, truth,
                                                                   f_beta, level, alpha, sweep_text))


def _evaluate(source: Source, y_true, sets, predictions, truth, f_beta, level: float, alpha: float,
              sweep_text: str | None) -> UseReport:
    spec = load(source)
    classes = tuple(spec.classes)
    if predictions is None and sets is None and hasattr(y_true, "columns"):  # a data frame (pandas or alike)
        predictions = frame_predictions(classes, y_true)
    if predictions is None:
        if y_true is None or sets is None:
            raise UsageError("give y_true and sets, or a predictions file")
        found = [from_arrays(classes, y_true, sets)]
    elif isinstance(predictions, str):
        found = read_predictions(predictions, classes, truth)
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
    if sweep_text is not None:
        return _swept(spec, found, sweep_text)
    spec, scheme = numeric_scheme(spec, "verify evaluate")
    if scheme.orbits is not None or scheme.partial:
        raise UsageError(f"verify evaluate reads every set's costs; {spec.path} has {scheme.K} classes, beyond that")
    scores = [score(scheme, pred, betas, level) for pred in found]
    record = {"spec": spec.path, "scores": [words.scores_json(s) for s in scores]}
    lines = words.scores_text(scores)
    if len(scores) > 1:
        pairs, friedman = wilcoxon_pairs(scores, alpha), friedman_nemenyi(scores, alpha)
        record["comparison"] = comparison.comparison_json(pairs, friedman, alpha)
        lines += comparison.comparison_text(pairs, friedman, alpha)
    return UseReport("\n".join(lines) + "\n", record, scores=scores)


def _swept(spec, found: list[Predictions], text: str) -> UseReport:
    symbolic = [name for name, p in spec.parameters.items() if p.value is None]
    name, grid = parse_sweep(text, symbolic)
    others = [s for s in symbolic if s != name]
    if others:
        raise unfixed(spec, others, "--sweep varies one parameter and")
    scheme = build(spec)
    s = sweep(scheme, found, name, grid)
    record = {"spec": spec.path, "sweep": words.sweep_json(s)}
    lines = [f"Mean cost as {name} goes from {grid[0]} to {grid[-1]} ({len(grid)} points):"]
    for c in s.curves:
        shown = [v for v in c.values if v is not None]
        lines.append(f"  {c.name}: {c.expression}" + (f"  (from {shown[0]:.4f} to {shown[-1]:.4f})" if shown else ""))
    if s.excluded:
        lines.append(f"  {len(s.excluded)} grid point(s) lie outside the spec's assumptions and are left out "
                     f"(from {s.excluded[0]} to {s.excluded[-1]}).")
    return UseReport("\n".join(lines) + "\n", record, sweep=s, title=f"{spec.name}: mean cost as {name} varies")
