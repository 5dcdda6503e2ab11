"""What `verifier.verify` returns: a `Report` of one scheme, or a `ClassSweepReport` of one spec at several K.

A report answers the common questions from a small summary (verdicts, evidence in plain words, fit to the
filtering and choice settings, expectations) and renders every format on demand (JSON, console text,
Markdown, HTML, and `_repr_html_` for Jupyter). A report that came from the cache holds only the summary and
the outputs rendered before; anything else is made from a fresh analysis, run when first needed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from verifier.analysis.class_sweep import Sweep
from verifier.analysis.pipeline import Analysis
from verifier.api import arguments
from verifier.errors import UsageError
from verifier.lazy_sympy import sympy as sp
from verifier.properties import PROPERTIES
from verifier.report.check import brief, compact, console, html, json_record, markdown, words
from verifier.report.check import sweep as sweep_report
from verifier.report.output import notebook, write_reports
from verifier.report.text import DEFAULT_WIDTH

Remember = Callable[[dict, dict], None]  # (summary, outputs) -> stores them (the cache)


class _Rendered:
    """Summary fields, memoised outputs, and the analysis behind them (re-run lazily after a cache hit)."""

    def __init__(self, summary: dict, subject: Any = None, outputs: dict | None = None,
                 cached_at: str | None = None, rerun: Callable[[], Any] | None = None,
                 remember: Remember | None = None):
        self.summary = summary
        self._subject = subject
        self._outputs = dict(outputs or {})
        self.cached_at = cached_at  # when the cached result was stored; None for a fresh result
        self._rerun = rerun
        self._remember = remember

    @property
    def name(self) -> str:
        return self.summary["name"]

    @property
    def source(self) -> str:
        """The spec's path, or "<text>" / "<dict>" for a spec given as text or data."""
        return self.summary["source"]

    @property
    def expectations_met(self) -> bool:
        return self.summary["expectations_met"]

    def _subject_now(self):
        if self._subject is None:
            if self._rerun is None:
                raise UsageError("this report holds no analysis to render from")
            self._subject = self._rerun()
        return self._subject

    def _output(self, name: str, make: Callable[[Any], Any]):
        if name not in self._outputs:
            self._outputs[name] = make(self._subject_now())
            if getattr(self._subject, "cut_late", False):  # the time bound cut a part made on first use
                self._remember = None
            if self._remember is not None:
                self._remember(self.summary, self._outputs)
        return self._outputs[name]

    def to_json(self) -> dict:
        """The JSON report as a dict (a fresh copy each time)."""
        return dict(self._output("json", self._json))

    def to_text(self, width: int = DEFAULT_WIDTH, color: bool = False) -> str:
        """The console report as text (ANSI colours when `color`)."""
        width = arguments.width(width)
        return self._output(f"text:{width}:{bool(color)}", lambda s: self._text(s, width, bool(color)))

    def _json(self, subject) -> dict:
        raise NotImplementedError

    def _text(self, subject, width: int, color: bool) -> str:
        raise NotImplementedError


class Report(_Rendered):
    """The verification report of one scheme.

    `verdicts` maps P1..P10 to "holds" / "fails" / "unknown"; `evidence` says why, in plain words; `fits` maps
    "filtering" and "choice" to True, False or None (undecided); `matrix` is the extended cost matrix with
    exact (sympy) values; `analysis` gives every engine result, certificate and counterexample.
    """

    @classmethod
    def of(cls, analysis: Analysis, disagreements: list[str], **kwargs) -> "Report":
        """The report of a fresh analysis: its summary (verdicts, evidence, why, fits, expectations) made now, every
        output on demand."""
        a = analysis
        summary = {
            "kind": "report", "source": a.spec.path, "name": a.spec.name, "classes": list(a.scheme.classes),
            "verdicts": {r.property.id: r.verdict.value for r in a.results},
            "evidence": {r.property.id: words.explain(r, a.scheme) for r in a.results},
            "why": {r.property.id: brief.reason(r, a.scheme) for r in a.results},  # one line each
            "fits": {name: fit.fits for name, fit in a.settings.items()},
            "fit_lines": {name: brief.fit_line(fit) for name, fit in a.settings.items()},
            "setting": a.spec.setting,
            "expectations": {e.property_id: {"expected": e.expected, "actual": e.actual, "met": e.met}
                             for e in a.expectations},
            "expectations_met": a.expectations_met,
            "disagreements": disagreements,
        }
        return cls(summary, a, **kwargs)

    @property
    def classes(self) -> tuple[str, ...]:
        """The scheme's class names, in class order.

        >>> verifier.verify("specs/ha-numeric.yaml").classes
        ('a', 'b', 'c')
        """
        return tuple(self.summary["classes"])

    @property
    def verdicts(self) -> dict[str, str]:
        """Each property's verdict: P1..P10 -> "holds", "fails" or "unknown" (a fresh dict each time).

        >>> verifier.verify("specs/ha-numeric.yaml").verdicts["P3"]
        'fails'
        """
        return dict(self.summary["verdicts"])

    @property
    def evidence(self) -> dict[str, str]:
        """Why each verdict holds, in plain words: P1..P10 -> the witness, counterexample or reason, as the reports
        state it (a fresh dict each time).

        >>> verifier.verify("specs/ha-numeric.yaml").evidence["P1"][:25]
        '{a, b} is possible: p = ('
        """
        return dict(self.summary["evidence"])

    @property
    def fits(self) -> dict[str, bool | None]:
        """The fit to each setting of the paper's Table VIII: "filtering" and "choice" -> True (fits), False (does not)
        or None (undecided: a property it needs is unknown). A fresh dict each time.

        >>> verifier.verify("specs/ha-numeric.yaml").fits
        {'filtering': False, 'choice': False}
        """
        return dict(self.summary["fits"])

    @property
    def expectations(self) -> dict[str, dict]:
        """`expect:` of the spec: property -> {"expected", "actual", "met"}."""
        return {k: dict(v) for k, v in self.summary["expectations"].items()}

    @property
    def disagreements(self) -> list[str]:
        """What `cross_check=True` found decided differently by the second method (empty: none)."""
        return list(self.summary["disagreements"])

    @property
    def analysis(self) -> Analysis:
        """Everything the engines found (results with evidence, possibility certificates, settings)."""
        return self._subject_now()

    @property
    def matrix(self) -> dict[tuple[str, ...], tuple[sp.Expr, ...]]:
        """The extended matrix: each non-empty set (class names in class order) -> its exact costs c_Y(y),
        one per class in class order. Singletons first, then by size."""
        s = self.analysis.scheme
        return {tuple(s.classes[i] for i in sorted(m)): tuple(s.rows[m]) for m in s.all_sets}

    def to_markdown(self) -> str:
        """The Markdown report (summary, verdicts with evidence, fit to each setting, each set's facts, notation), made
        once and kept.

        >>> verifier.verify("specs/ha-numeric.yaml").to_markdown().splitlines()[0]
        "# Ha's class-selective rejection (numeric instance)"
        """
        return self._output("markdown", markdown.markdown)

    def certificate(self) -> dict:
        """The certificate (docs/certificates.md): the spec itself and every verdict's and set's evidence, for
        `verifier_check`, which derives the scheme from the spec and re-checks it with the Python standard library
        alone. Made by the run (`verify(..., certificate=True)`); a `UsageError` when it was not."""
        a = self.analysis
        if a.certificate_data is None:
            refused = a.parts.get("certificate refused")
            raise UsageError(refused or "no certificate was made by this run: " + (
                a.stopped if a.stopped else "verify(..., certificate=True) makes one within its time limit"))
        return a.certificate_data

    def to_html(self) -> str:
        """One self-contained HTML page (inline SVG pictures, no network, no JavaScript)."""
        return self._output("html", html.page)

    def _repr_html_(self) -> str:
        return self._output("fragment", html.fragment)

    def write(self, directory: str, taken: set[str] | None = None) -> list[str]:
        """Write <stem>.md, <stem>.html and <stem>.json into `directory` (safely: never through a symbolic
        link, never outside it); returns the paths written. Stems in `taken` are avoided, and the one used
        is added to it."""
        return write_reports(self.analysis, arguments.path(directory, "directory", False), taken)

    def figures(self, directory: str | None = None, formats: Sequence[str] = ("svg", "pdf"),
                taken: set[str] | None = None) -> dict[str, bytes] | dict[str, str]:
        """Every picture of the report (those the HTML shows) as its own file, one column wide: names
        `<spec stem>-<picture>.<format>` (e.g. `ha-numeric-ternary.svg`), formats svg, pdf (fonts embedded) or
        png. Without `directory`: {file name: bytes}; with one: the files are written there (created if needed,
        never through a symbolic link) and the result is {file name: path}."""
        from verifier.report.output import figure_files  # matplotlib loads only here

        formats = arguments.texts(formats, "formats", "formats (svg, pdf, png)")
        bad = [f for f in formats if f not in ("svg", "pdf", "png")]
        if bad or not formats:
            raise UsageError(f"figure formats {list(formats)!r}: expected some of svg, pdf, png")
        if directory is None:
            return figure_files.figure_files(self.analysis, tuple(formats))
        return figure_files.write_figures(self.analysis, arguments.path(directory, "directory", False), taken,
                                          tuple(formats))

    def __repr__(self) -> str:  # one line: the verdicts and the fit (the name cut to keep it under 200 characters)
        verdicts = ", ".join(f"{pid}={v}" for pid, v in self.summary["verdicts"].items())
        fits = ", ".join(f"{k}={'fits' if v else 'undecided' if v is None else 'no'}" for k, v in self.fits.items())
        return notebook.one_line("Report", self.name, f"{verdicts}; {fits}")

    def _json(self, analysis: Analysis) -> dict:
        return json_record.to_json(analysis)

    def json_streamed(self) -> dict | None:
        """The JSON record made as it is written, for a fresh analysis of millions of cells; else None."""
        return None if self._subject is None or "json" in self._outputs else json_record.streamed(self._subject)

    def _text(self, analysis: Analysis, width: int, color: bool) -> str:
        return console.to_text(analysis, width, color)

    def to_summary(self, width: int = DEFAULT_WIDTH, color: bool = False) -> str:
        """The compact console report (the command's default): verdicts with one line of why each, the fit to
        each setting and what to change; `to_text` is the full report (`verify -v`)."""
        width = arguments.width(width)
        return self._output(f"summary:{int(width)}:{bool(color)}",
                            lambda a: compact.to_text(a, int(width), bool(color)))


class ClassSweepReport(_Rendered):
    """One formula spec verified at every class count of a range (classes named "1".."K")."""

    @classmethod
    def of(cls, result: Sweep, **kwargs) -> "ClassSweepReport":
        """The report of a fresh class sweep: the verdicts per class count and each property's first failure."""
        summary = {
            "kind": "sweep", "source": result.spec.path, "name": result.spec.name, "counts": result.counts,
            "verdicts": {str(k): {r.property.id: r.verdict.value for r in result.analyses[k].results}
                         for k in result.counts},
            "first_failure": {p.id: result.first_failure(p.id) for p in PROPERTIES},
            "expectations_met": True, "disagreements": [],
        }
        return cls(summary, result, **kwargs)

    @property
    def counts(self) -> list[int]:
        """The class counts checked, in increasing order."""
        return list(self.summary["counts"])

    @property
    def verdicts(self) -> dict[int, dict[str, str]]:
        """K -> {"P1": "holds", ...}."""
        return {int(k): dict(v) for k, v in self.summary["verdicts"].items()}

    @property
    def first_failure(self) -> dict[str, int | None]:
        """Property -> the smallest class count at which it fails (None: it fails at none)."""
        return dict(self.summary["first_failure"])

    @property
    def sweep(self) -> Sweep:
        """The sweep behind the report (run again when the report came from the cache)."""
        return self._subject_now()

    def __repr__(self) -> str:
        return notebook.one_line("ClassSweepReport", self.name, f"K = {self.counts[0]}..{self.counts[-1]}; "
                                 + notebook.first_failures(self.first_failure))

    def _repr_html_(self) -> str:  # from the summary alone: a cached sweep shows without re-running
        return notebook.sweep_html(self.summary)

    def _repr_markdown_(self) -> str:
        return notebook.sweep_markdown(self.summary)

    def _json(self, result: Sweep) -> dict:
        return sweep_report.to_json(result)

    def _text(self, result: Sweep, width: int, color: bool) -> str:
        return sweep_report.to_text(result, width, color)


class EveryKReport(_Rendered):
    """One formula spec that treats every class alike, decided for every class count K >= low at once."""

    @classmethod
    def of(cls, spec, result, **kwargs) -> "EveryKReport":
        """The report of a fresh every-K result: each property's runs of K and its first failure."""
        summary = {
            "kind": "every_k", "source": spec.path, "name": spec.name, "low": result.low,
            "runs": {p.id: [[a, b, t.value] for a, b, t in result.runs(p.id)] for p in PROPERTIES},
            "first_failure": {p.id: result.first_failure(p.id) for p in PROPERTIES},
            "expectations_met": True, "disagreements": list(result.disagreements),
        }
        return cls(summary, (spec, result), **kwargs)

    @property
    def first_failure(self) -> dict[str, int | None]:
        """Property -> the smallest class count at which it fails (None: at none)."""
        return dict(self.summary["first_failure"])

    def __repr__(self) -> str:
        return notebook.one_line("EveryKReport", self.name, f"K ≥ {self.summary['low']}; "
                                 + notebook.first_failures(self.first_failure))

    def _repr_html_(self) -> str:
        return notebook.sweep_html(self.summary)

    def _repr_markdown_(self) -> str:
        return notebook.sweep_markdown(self.summary)

    def _json(self, subject) -> dict:
        from verifier.report.check import every_k as every_k_report  # loads z3 (the every-K engine), only here

        return every_k_report.to_json(*subject)

    def _text(self, subject, width: int, color: bool) -> str:
        from verifier.report.check import every_k as every_k_report

        spec, result = subject
        return every_k_report.to_text(spec, result, width, color)
