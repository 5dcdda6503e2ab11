"""What `decide` and `evaluate` return (`UseReport`), and what both read the same way: a numeric scheme from a
spec, a distribution given as text, a dict or a list, and the overall time bound."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from verifier import limits, numbers
from verifier.analysis.pipeline import build
from verifier.api.entry import Source, checked_time_limit, load
from verifier.api.use.kept import kept
from verifier.errors import SpecError, UsageError, few_of
from verifier.report.output import NoPicture, PictureBytes, why_no_use_picture
from verifier.report.use import score_table
from verifier.using import Comparison, Scores, Sweep
from verifier.using.inputs.probabilities import distribution_values, normalised

if TYPE_CHECKING:
    from verifier.report.use import ExtraStats
    from verifier.scheme import Scheme
    from verifier.spec import Spec
    from verifier.using.abstention import AbstentionCurves
    from verifier.using.evaluate import Surface
    from verifier.using.operating import Conditions


@dataclass
class UseReport:
    """What `decide` and `evaluate` return: the text the command prints, the JSON record (`to_json()`), the job's
    result (scores, a sweep, a surface, curves, conditions), a notebook display and the pictures."""

    repr_name = "UseReport"  # the type its one-line repr names (a class attribute, not a field)
    text: str
    record: dict
    prediction: list[str] | list[list[str]] | None = None
    scores: list[Scores] = field(default_factory=list)
    sweep: Sweep | None = None
    title: str = ""
    summary_text: str = ""  # a batch's summary, which the command line writes to standard error
    comparison: Comparison | None = None  # evaluate's paired tests and, over several data sets, Friedman's
    surface: Surface | None = None  # two sweeps with probabilities: `using.evaluate.cost_surface.Surface`
    abstention: AbstentionCurves | None = None  # evaluate --scores: the abstention cost curves
    conditions: Conditions | None = None  # evaluate --scores --threshold-choice: operating-condition uncertainty
    bayes: tuple | None = field(default=None, repr=False)  # extra_stats(): baycomp's posteriors, for figures()
    verbose_text: str = ""  # the answer, then every detail (verify evaluate -v); "": the text is all there is
    quiet_text: str = ""  # the answer alone (--quiet); "": the text

    def shown(self, verbose: bool = False, quiet: bool = False) -> str:
        """The text the command prints: the answer first, every detail with `verbose`, the answer alone with
        `quiet` (each the default text when the result has no such view)."""
        if verbose:
            return self.verbose_text or self.text
        return (self.quiet_text or self.text) if quiet else self.text

    def to_json(self) -> dict:
        """The JSON record (what the command writes with --format json)."""
        return self.record

    def __repr__(self) -> str:  # one line: the prediction, the classifiers' mean costs, or the swept parameter
        from verifier.report.use import notebook as use_notebook  # loads rich: only when shown

        return use_notebook.use_repr(self)

    def _repr_html_(self) -> str:
        from verifier.report.use import notebook as use_notebook  # loads rich: only when shown

        return use_notebook.use_html(self)

    def _repr_markdown_(self) -> str:
        from verifier.report.use import notebook as use_notebook  # loads rich: only when shown

        return use_notebook.use_markdown(self)

    def records(self) -> list[dict]:
        """The scores as one dict per classifier (floats, the exact mean cost as text, the interval's ends)."""
        return score_table.records(self.scores)

    def table(self, fmt: str = "markdown") -> str:
        """The classifiers x measures table for a paper: 'csv', 'markdown' or 'latex' (booktabs)."""
        if fmt not in score_table.FORMATS:
            raise UsageError(f"table format {fmt!r}: expected one of {', '.join(score_table.FORMATS)}")
        if not self.scores:
            raise UsageError("this result holds no scores (a table comes from verify evaluate without --sweep)")
        return score_table.table(self.scores, fmt)

    def rank_table(self, fmt: str = "markdown", transposed: bool = False) -> str:
        """The data sets x classifiers table of mean costs and ranks, best of each data set marked, average ranks
        last: 'csv', 'markdown' or 'latex' (booktabs; transposed: classifiers as rows). Several data sets only."""
        from verifier.report.use import rank_table

        if fmt not in rank_table.FORMATS:
            raise UsageError(f"rank table format {fmt!r}: expected one of {', '.join(rank_table.FORMATS)}")
        if self.comparison is None or self.comparison.friedman is None:
            why = self.comparison.why_no_friedman if self.comparison is not None else None
            raise UsageError("the ranks table needs classifiers compared over several data sets" +
                             (f": {why}" if why else ""))
        return rank_table.table(rank_table.rank_table(self.comparison.friedman, self.scores), fmt, transposed)

    def extra_stats(self, rope: float = 0.01, hierarchical: bool = False) -> ExtraStats:
        """Benjamini-Hochberg beside Holm, and over several data sets Conover's post-hoc test, Shaffer's and
        Bergmann-Hommel's adjustments of every pair after Friedman, and the Bayesian signed-rank test (rope: the
        half-width of the region of practical equivalence of mean costs), from statsmodels, scikit-posthocs and
        baycomp: the optional extra, pip install 'verify-set-costs[stats]'. hierarchical: also baycomp's
        hierarchical test on the per-instance costs (needs pystan: pip install 'verify-set-costs[hierarchical]').
        The result is the nested dict of the JSON, shown in a notebook as tables (`ExtraStats`: `to_frame()`)."""
        if self.comparison is None:
            raise UsageError("these results hold no comparison of classifiers (evaluate set predictions of two "
                             "classifiers or more, without --sweep)")
        from verifier.using.compare import bayes_pairs, extra_statistics

        self.bayes = bayes_pairs(self.comparison, self.scores, rope, hierarchical)
        from verifier.report.use import ExtraStats  # its display loads the notebook pieces: only here

        return ExtraStats(extra_statistics(self.comparison, self.scores, rope, hierarchical, self.bayes))

    def to_frame(self):
        """The scores as a pandas DataFrame, one row per classifier (pandas is optional: pip install pandas)."""
        from verifier.report.use import data_frame

        return data_frame(self.records())

    def figures(self, directory: str | None = None, formats: tuple[str, ...] = ("svg", "pdf"), *,
                layout: str = "column", width: float | None = None, shared_scales: bool = True,
                time_limit: float | None = limits.DEFAULT_TIME_LIMIT_S) -> dict:
        """Every picture of an abstention evaluation (each classifier's maps, each pair's differential cost), or
        after extra_stats() over several data sets baycomp's plot of each Bayesian comparison, as its own file,
        `<spec stem>-<picture>.<format>`: {file name: bytes}, or written into `directory` and {file name: path}.
        `layout`: the maps' four panels 'column' (stacked), 'grid' (2 x 2, compact) or 'row' (side by side);
        `width`: inches (None: one column, 3.5; two columns for 'row', 7.16); `shared_scales`: the classifiers
        compared on a data set share each map's colour scale (False: each its own). Other results have no such
        pictures: a usage error says so. `time_limit`: seconds for drawing them all (None: no bound), checked
        before each picture; those left are named in the result's `cut`."""
        from verifier.report.use import use_figures

        seconds = checked_time_limit(time_limit)
        deadline = None if seconds is None else time.monotonic() + seconds
        return use_figures(self, directory, formats, deadline=deadline, limit=seconds, layout=layout, width=width,
                           shared_scales=shared_scales)

    def picture(self, fmt: str = "svg") -> PictureBytes | NoPicture:
        """The mean-cost curves of a sweep (the heat maps of a surface), the abstention maps of `--scores`, or
        else the critical difference diagram of a comparison over several data sets, as SVG, PDF or PNG bytes
        (`PictureBytes`: bytes, shown as the picture in a notebook); without any, `NoPicture` (empty bytes,
        false) saying why."""
        if fmt not in ("svg", "pdf", "png"):
            raise UsageError(f"picture format {fmt!r}: expected svg, pdf or png")
        drawn = self._drawn(fmt)
        return NoPicture(why_no_use_picture(self)) if drawn is None else PictureBytes(drawn, fmt, self.title)

    def _drawn(self, fmt: str) -> bytes | None:
        if self.surface is not None:
            from verifier.report.figures import surface_figure

            return surface_figure(self.surface, self.title, fmt)
        if self.conditions is not None:  # one classifier: its cost curves; several: their losses by certainty
            from verifier.report.figures.conditions_plot import pictures as condition_pictures
            from verifier.using.operating import GRID

            drawn = condition_pictures(self.conditions, GRID, self.title)
            return drawn[0 if len(self.conditions.classifiers) == 1 else -1].render(fmt)
        if self.abstention is not None:  # one classifier: its maps; several: the first two's differential cost
            from verifier.report.figures.abstention_plot import pictures

            drawn = pictures(self.abstention, self.title)
            real = [c for c in self.abstention.classifiers if c.name != "trivial"]
            return drawn[0 if len(real) < 2 else len(self.abstention.classifiers)].render(fmt)
        if self.sweep is None:
            if self.comparison is None or self.comparison.friedman is None:
                return None
            from verifier.report.figures import cd_figure

            return cd_figure(self.comparison.friedman, self.title, fmt)
        from verifier.report.figures import curve_figure

        return curve_figure(self.sweep, self.title, fmt)


class BatchReport(UseReport):
    """A batch's report whose CSV and JSON record are made when read: the command line writes the CSV block by
    block (`write_text`) and never reads the record (a million rows' predictions as lists of names, built for
    nothing); the API builds each on first read (`text`, `record`, `to_json()`, `prediction`). `blocks()`
    gives the CSV's texts in order, `make_record()` the record."""

    def __init__(self, blocks, make_record, summary_text: str = ""):
        self._blocks, self._make = blocks, make_record
        self._text: str | None = None  # made on first read
        self._record: dict | None = None  # made on first read
        super().__init__(None, None, summary_text=summary_text)  # type: ignore[arg-type]  # None: made when read

    @property
    def text(self) -> str:
        """The CSV, made on first read (the command line writes it block by block instead: `write_text`)."""
        if self._text is None:
            self._text = "".join(self._blocks())
        return self._text

    @text.setter
    def text(self, value) -> None:  # the dataclass's __init__ sets it (None: made on first read)
        self._text = value

    def write_text(self, stream) -> None:
        """Write the CSV to `stream` one block at a time (the whole text only if it was already made)."""
        if self._text is not None:
            stream.write(self._text)
            return
        for part in self._blocks():
            stream.write(part)

    @property
    def record(self) -> dict:
        """The JSON record, made on first read (`make_record()`)."""
        if self._record is None:
            self._record = self._make()
        return self._record

    @record.setter
    def record(self, value) -> None:
        self._record = value

    def __reduce__(self):  # pickled (or copied) as the plain report it stands for: its text and record made
        return UseReport, (self.text, self.record, self.prediction, [], None, "", self.summary_text)

    @property
    def prediction(self):
        """Each row's predicted set as a list of class names: the record's `predictions`."""
        return self.record["predictions"]

    @prediction.setter
    def prediction(self, value) -> None:  # always the record's (the dataclass's __init__ passes None)
        pass


def numeric_scheme(source: Source | Spec, what: str) -> tuple[Spec, Scheme]:
    """The spec of `source` and its scheme built as `verify SPEC` builds it; a symbolic parameter is a SpecError
    (`what` names the command that needs every parameter fixed)."""
    spec = load(source)
    symbolic = [name for name, p in spec.parameters.items() if p.value is None]
    if symbolic:
        raise unfixed(spec, symbolic, what)
    return spec, kept(spec, ("built",), lambda: build(spec))  # a prepared spec's: built once


def unfixed(spec: Spec, symbolic: list[str], what: str) -> SpecError:
    """The error for a spec whose parameters `symbolic` have no value where `what` needs every one fixed, located
    at its `parameters` key."""
    mark = spec.marks.get("parameters")
    return SpecError(f"{what} needs every parameter fixed; {', '.join(symbolic)} is symbolic", file=spec.path,
                     key="parameters", line=mark.line if mark else None, column=mark.column if mark else None,
                     expected="a value for each parameter ({value: ...}), or verify evaluate --sweep for one")


def as_p(p, classes, where: str = "p") -> list[Fraction]:
    """`p` (text 'h=0.1,b=0.3,n=0.6', a dict by class name or a list in class order) as an exact distribution
    over `classes`, checked (within 1e-6 of summing to 1, divided by its exact sum); `where` names it in a usage
    error."""
    return as_distribution(p, classes, where)[0]


def as_distribution(p, classes, where: str = "p") -> tuple[list[Fraction], Fraction]:
    """`as_p`, and the exact sum the given values had (1, or within 1e-6 of it: then `p` was divided by it)."""
    if isinstance(p, str):
        return normalised(distribution_values(p, classes, where), classes, where)
    if isinstance(p, dict):
        unknown = [k for k in p if k not in classes]
        if unknown:
            raise UsageError(f"{where}: unknown class {unknown[0]!r}; the spec's classes are "
                             f"{few_of(classes, unknown[0])}")
        values = [p.get(c, 0) for c in classes]
    else:
        try:
            values = list(p)
        except TypeError:
            raise UsageError(f"{where}: {p!r} is not a distribution (text, a dict or a list)") from None
        if len(values) != len(classes):
            raise UsageError(f"{where}: {len(values)} probabilities for {len(classes):,} classes")
    exact = [exact_arg(v, where) for v in values]
    return normalised(exact, classes, where)


def exact_arg(value, where: str) -> Fraction:
    """A number from a Python caller or an option as an exact rational (`numbers.exact_value`); what is not one
    is a usage error that `where` names."""
    try:
        return numbers.exact_value(value)
    except numbers.NumberError as exc:
        raise UsageError(f"{where}: {exc}") from None


def stopped_within(seconds: float | None, work):
    """`work()` under the overall time bound: (its result, None), or (None, the stop) when the bound passed first.
    What `work` filled in by then is the caller's to report, after the bound (a report made inside it would be
    stopped again)."""
    seconds = checked_time_limit(seconds)
    try:
        with limits.time_limit(seconds):
            return work(), None
    except limits.STOPS as caught:
        return None, limits.stop_of(caught)


def within(seconds: float | None, what: str, work):
    """Run `work()` under the overall time bound; past it, a usage error that says what to do."""
    seconds = checked_time_limit(seconds)
    try:
        with limits.time_limit(seconds):
            return work()
    except limits.TimeLimitReached as stop:
        raise UsageError(f"{stop} before {what} was done; raise the time limit (--time-limit), or "
                         "split the input") from None
