"""`decide` and `evaluate`: the spec that was verified, used unchanged to predict sets and to score set-valued
classifiers.

    >>> import verifier
    >>> verifier.decide("specs/obstacle-discounted.yaml", {"h": "0.1", "b": "0.3", "n": "0.6"}).prediction
    ['b']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from verifier.analysis.pipeline import build
from verifier.analysis.use import credal as credal_rules
from verifier.analysis.use.batch import BatchDecider
from verifier.analysis.use.compare import friedman_nemenyi, wilcoxon_pairs
from verifier.analysis.use.curves import Sweep, parse_sweep, sweep
from verifier.analysis.use.data import Predictions, frame_predictions, from_arrays, read_predictions
from verifier.analysis.use.decide import decide as decide_precise
from verifier.analysis.use.distribution import checked, distribution, intervals
from verifier.analysis.use.evaluate import Scores, score
from verifier.analysis.use.p_file import DistributionFile
from verifier import limits
from verifier.api.verify import Source, checked_time_limit, load
from verifier import numbers
from verifier.errors import SpecError, UsageError
from verifier.numbers import shown
from verifier.report import use as words


@dataclass
class UseReport:
    text: str
    record: dict
    prediction: list[str] | list[list[str]] | None = None
    scores: list[Scores] = field(default_factory=list)
    sweep: Sweep | None = None
    title: str = ""

    def to_json(self) -> dict:
        return self.record

    def picture(self, fmt: str = "svg") -> bytes | None:
        """The mean-cost curves of a sweep as SVG or PNG bytes (None without a sweep)."""
        if fmt not in ("svg", "png"):
            raise UsageError(f"picture format {fmt!r}: expected svg or png")
        if self.sweep is None:
            return None
        from verifier.report.curve_plot import curve_figure

        return curve_figure(self.sweep, self.title, fmt)


def _numeric_scheme(source: Source, what: str):
    spec = load(source)
    symbolic = [name for name, p in spec.parameters.items() if p.value is None]
    if symbolic:
        raise _unfixed(spec, symbolic, what)
    return spec, build(spec)


def _unfixed(spec, symbolic: list[str], what: str) -> SpecError:
    mark = spec.marks.get("parameters")
    return SpecError(f"{what} needs every parameter fixed; {', '.join(symbolic)} is symbolic", file=spec.path,
                     key="parameters", line=mark.line if mark else None, column=mark.column if mark else None,
                     expected="a value for each parameter ({value: ...}), or verify evaluate --sweep for one")


def _as_p(p, classes, where: str = "p") -> list[Fraction]:
    if isinstance(p, str):
        return distribution(p, classes, where)
    if isinstance(p, dict):
        unknown = [k for k in p if k not in classes]
        if unknown:
            raise UsageError(f"{where}: unknown class {unknown[0]!r}; the spec's classes are {', '.join(classes)}")
        values = [p.get(c, 0) for c in classes]
    else:
        try:
            values = list(p)
        except TypeError:
            raise UsageError(f"{where}: {p!r} is not a distribution (text, a dict or a list)") from None
        if len(values) != len(classes):
            raise UsageError(f"{where}: {len(values)} probabilities for {len(classes)} classes")
    exact = [_number(v, where) for v in values]
    return checked(exact, classes, where)


def _number(value, where: str) -> Fraction:
    try:
        return numbers.exact_value(value)
    except numbers.NumberError as exc:
        raise UsageError(f"{where}: {exc}") from None


def _within(seconds: float | None, what: str, work):
    """Run `work()` under the overall time bound; past it, a usage error that says what to do."""
    seconds = checked_time_limit(seconds)
    try:
        with limits.time_limit(seconds):
            return work()
    except limits.TimeLimitReached as stop:
        raise UsageError(f"{stop} before {what} was done; raise the time limit (--time-limit), or "
                         "split the input") from None


def decide(source: Source, p=None, *, intervals_text: str | None = None, vertices: list | None = None,
           rule: str = "maximality", p_file: str | None = None,
           time_limit: float | None = limits.DEFAULT_TIME_LIMIT_S) -> UseReport:
    """The optimal set for a precise `p` ('h=0.1,b=0.3,n=0.6', a dict or a list), for a credal set
    (`intervals_text` 'h=0:0.2,...' or `vertices`, with `rule`), or for every row of `p_file`. `time_limit`:
    seconds for the whole decision (None: no bound)."""
    return _within(time_limit, "the decision", lambda: _decide(source, p, intervals_text, vertices, rule, p_file))


def _decide(source: Source, p, intervals_text, vertices, rule: str, p_file) -> UseReport:
    given = [x is not None for x in (p, intervals_text, vertices, p_file)]
    if sum(given) != 1:
        raise UsageError("give exactly one of --p, --intervals, --vertex (repeated) or --p-file")
    spec, scheme = _numeric_scheme(source, "verify decide")
    if scheme.orbits is not None or scheme.partial:
        raise UsageError(f"verify decide enumerates every set; {spec.path} has {scheme.K} classes, beyond that")
    classes = scheme.classes
    if p is not None:
        d = decide_precise(scheme, _as_p(p, classes))
        record = words.decision_json(scheme, d)
        return UseReport(words.decision_text(scheme, d), record, record["prediction"])
    if p_file is not None:
        source, decider = DistributionFile(p_file, classes), BatchDecider(scheme)
        for rows in source.blocks():
            decider.add(rows)
        record = words.batch_json(scheme, decider.result, source.rescaled)
        return UseReport(words.batch_csv(scheme, decider.result), record, record["predictions"])
    if intervals_text is not None:
        credal = credal_rules.CredalSet(len(classes), bounds=intervals(intervals_text, classes))
    else:
        if not vertices:
            raise UsageError("--vertex: a credal set needs at least one vertex")
        points = [_as_p(v, classes, f"--vertex {i + 1}") for i, v in enumerate(vertices)]
        credal = credal_rules.CredalSet(len(classes), vertices=points)
    d = credal_rules.decide_credal(scheme, credal, rule)
    record = words.credal_json(scheme, credal, d)
    return UseReport(words.credal_text(scheme, credal, d), record, record["prediction"])


def evaluate(source: Source, y_true=None, sets=None, *, predictions: str | list[Predictions] | None = None,
             truth: str | None = None, f_beta: list = (), level: float = 0.95, alpha: float = 0.05,
             sweep_text: str | None = None, time_limit: float | None = limits.DEFAULT_TIME_LIMIT_S) -> UseReport:
    """Score set predictions: `y_true` and `sets` (lists, numpy arrays or pandas columns), a data frame as
    `y_true` alone (columns as in the CSV: true, predicted, optionally classifier), or a `predictions` file
    (CSV, or `.npy` masks with `truth`). `sweep_text` 'r=0.1:2:20' sweeps a symbolic parameter instead.
    `time_limit`: seconds for the whole evaluation (None: no bound)."""
    return _within(time_limit, "the evaluation", lambda: _evaluate(source, y_true, sets, predictions, truth,
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
    betas = [_number(b, "--f-beta") for b in f_beta]
    if any(b <= 0 for b in betas):
        raise UsageError("--f-beta: beta must be positive")
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (level, alpha)) or \
            not 0 < level < 1 or not 0 < alpha < 1:
        raise UsageError("--level and --alpha must lie strictly between 0 and 1")
    if sweep_text is not None:
        return _swept(spec, found, sweep_text)
    spec, scheme = _numeric_scheme(spec, "verify evaluate")
    if scheme.orbits is not None or scheme.partial:
        raise UsageError(f"verify evaluate reads every set's costs; {spec.path} has {scheme.K} classes, beyond that")
    scores = [score(scheme, pred, betas, level) for pred in found]
    record = {"spec": spec.path, "scores": [words.scores_json(s) for s in scores]}
    lines = words.scores_text(scores)
    if len(scores) > 1:
        pairs, friedman = wilcoxon_pairs(scores, alpha), friedman_nemenyi(scores, alpha)
        record["comparison"] = words.comparison_json(pairs, friedman, alpha)
        lines += words.comparison_text(pairs, friedman, alpha)
    return UseReport("\n".join(lines) + "\n", record, scores=scores)


def _swept(spec, found: list[Predictions], text: str) -> UseReport:
    symbolic = [name for name, p in spec.parameters.items() if p.value is None]
    name, grid = parse_sweep(text, symbolic)
    others = [s for s in symbolic if s != name]
    if others:
        raise _unfixed(spec, others, "--sweep varies one parameter and")
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
