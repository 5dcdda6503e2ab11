"""`design`: the paper's own question, answered. From determinate costs (and any fixed set cells), a completed
extended matrix for a setting, with the freedom left, or why none exists; from a family with one symbolic
parameter, the exact parameter values for which it fits each setting, and a calibrated spec.

    >>> import verifier
    >>> result = verifier.design("specs/design/obstacle-open.yaml", setting="filtering")
    >>> result.status, result.ranges["c_{h,b}(n)"]
    ('designed', '[2, +inf)')
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from verifier import limits, numbers
from verifier.analysis.pipeline import analyse
from verifier.analysis.stopped import GRACE_S
from verifier.analysis.zeros import simplest
from verifier.api import arguments
from verifier.api.entry import Source, checked_time_limit, checked_timeout_ms, load_in_time
from verifier.designing import (
    Calibration,
    Completion,
    DesignCheckFailed,
    DesignStatus,
    Request,
    bounded_by,
    calibrated_text,
    make_request,
)
from verifier.designing.calibrate import calibrate
from verifier.designing.complete import complete
from verifier.errors import UsageError
from verifier.properties import Level
from verifier.properties.settings import TABLE_VIII
from verifier.report.output import NoPicture, PictureBytes, notebook

if TYPE_CHECKING:
    from verifier.designing.plane import PlaneMap
from verifier.report.design import why_not, words
from verifier.spec.reader import spec_from_text
from verifier.version import __version__


@dataclass
class DesignReport:
    """What `design` returns: the status, the designed (or calibrated) spec, the text that justifies it and its JSON
    record, the freedom left per open cell, and when impossible the conflicts and the smallest correction. Shown as HTML
    or Markdown in a notebook."""
    status: DesignStatus  # "designed" | "impossible" (completion); "calibrated" | "no fit" (calibration);
    # "mapped" (two parameters: where the scheme fits, `plane`); "stopped" (the
    # time bound came before any answer: what was decided is in `text` and `record`)
    spec_text: str  # the designed spec ("" when impossible)
    text: str  # what the command prints about it
    record: dict  # JSON
    ranges: dict[str, str] = field(default_factory=dict)  # open cell -> its exact set of values
    completion: Completion | None = None
    calibration: Calibration | None = None
    plane: PlaneMap | None = None  # two parameters: where the scheme fits (`designing.plane.PlaneMap`)
    # when impossible: one minimal conflict, every one found (all of them when `conflicts_complete`), and the
    # parts whose removal leaves a matrix (checked; `correction_smallest` when no fewer parts can)
    conflict: list[str] = field(default_factory=list)
    conflicts: list[list[str]] = field(default_factory=list)
    conflicts_complete: bool = False
    correction: list[str] | None = None
    correction_smallest: bool = False

    def picture(self, fmt: str = "svg") -> PictureBytes | NoPicture:
        """The feasible region on pairs of open cells, or for a calibration the runs of the parameter where each
        property holds and each setting fits, as SVG, PDF or PNG bytes (`PictureBytes`: bytes, shown as the
        picture in a notebook); `NoPicture` (empty bytes, false) saying why when there is nothing to draw."""
        if fmt not in ("svg", "pdf", "png"):
            raise UsageError(f"picture format {fmt!r}: expected svg, pdf or png")
        if self.plane is not None:
            from verifier.report.figures.plane_map import plane_picture

            drawn = plane_picture(self.plane, self.record.get("name", ""))
            return PictureBytes(drawn.render(fmt), fmt, drawn.title)
        if self.calibration is not None:
            from verifier.report.figures import calibration_picture

            drawn = calibration_picture(self.calibration, self.record.get("name", ""))
            return PictureBytes(drawn.render(fmt), fmt, drawn.title)
        if self.completion is None or not self.completion.regions:
            why = (f"the design is {self.status}, so there is no feasible region" if not self.ok else
                   "no region to draw (it needs two or three open cells, or --region naming them)")
            return NoPicture(why)
        from verifier.report.figures.region_plot import figure

        c = self.completion
        title = (f"{c.spec.name}: {c.request.setting} setting, the feasible region on each pair of open cells "
                 "(the other open cells free)")
        return PictureBytes(figure(c.regions, title, fmt, c.spec.classes), fmt, title)

    @property
    def ok(self) -> bool:
        """Whether the design answered: a matrix designed, a parameter calibrated, or a plane where the scheme fits
        somewhere."""
        mapped = self.status == DesignStatus.MAPPED and self.plane is not None and self.plane.fits_somewhere is True
        return self.status in (DesignStatus.DESIGNED, DesignStatus.CALIBRATED) or mapped

    def to_json(self) -> dict:
        """The JSON record: a copy, so that editing it never changes the report (as `Report.to_json`)."""
        return copy.deepcopy(self.record)

    def __repr__(self) -> str:  # one line: the status and its answer (the dataclass's own would be pages long)
        return notebook.design_repr(self)

    def _repr_html_(self) -> str:
        return notebook.design_html(self)

    def _repr_markdown_(self) -> str:
        return notebook.design_markdown(self)


def design(source: Source, *, setting: str = "filtering", with_: Sequence[str] = (), without: Sequence[str] = (),
           free: Sequence[str] = (), objective: str = "closest", to: str | None = None,
           margin: Fraction | str | None = None, timeout: float = 20, ranges: bool = True,
           region: Sequence[str] = (), time_limit: float | None = limits.DEFAULT_TIME_LIMIT_S,
           progress: Callable[[str], None] | None = None) -> DesignReport:
    """Design for `setting`; `with_`/`without` demand that properties hold/fail, `free` drops a demand;
    `region` names two or three open cells ('h,b:n') whose feasible region to compute (by default every open
    cell when there are two or three; `DesignReport.picture()` draws it). `time_limit`: seconds for the whole
    design (None: no bound), as in `verify`; a calibration reports the pieces decided by then and lists the
    others as undecided with the reason, and status "stopped" says that no answer was reached in time.
    `progress(text)` is told each step of completing open cells (the command line's bar), as in `verify`."""
    with_, without, free, region = (arguments.texts(v, n, w) for v, n, w in (
        (with_, "with_", "properties"), (without, "without", "properties"), (free, "free", "properties"),
        (region, "region", "open cells such as 'h,b:n'")))
    arguments.text(objective, "objective", "text such as 'closest' or 'minimize: EXPR'", optional=False)
    arguments.text(to, "to", "a scheme's name or a set_cost formula, as text")
    request = make_request(setting, with_, without, free)
    progress = arguments.callback(progress, "progress")
    timeout_ms = checked_timeout_ms(timeout)
    time_limit = checked_time_limit(time_limit)
    spec, _ = load_in_time(source, time_limit, open_cells=True)  # reading counts against the bound too
    margin = _margin(margin)
    if any(p.value is None for p in spec.parameters.values()):
        if region:
            raise UsageError("--region applies to open cells; this spec calibrates a symbolic parameter instead")
        unknown = [p for p in spec.parameters.values() if p.value is None]
        if len(unknown) == 2 and not any(p.per_class for p in unknown):
            return _mapped(spec, request, timeout_ms, time_limit)
        return _calibrated(spec, request, timeout_ms, time_limit)
    from verifier.designing import Undecided

    started = time.monotonic()
    try:
        with limits.time_limit(time_limit):
            c = complete(spec, request, objective, to, margin, timeout_ms, ranges, region, progress=progress)
    except limits.STOPS as caught:
        return _stopped(spec, request, str(limits.stop_of(caught)))
    except Undecided:  # z3 cut at the bound (its own limit is the time left) rather than at --timeout
        if time_limit is None or time.monotonic() - started < time_limit - 0.05:
            raise
        return _stopped(spec, request, f"the time limit of {time_limit:g} s (--time-limit) was reached")
    if not c.feasible:
        d = c.diagnosis
        assert d is not None and c.conflict is not None  # an infeasible completion is always diagnosed
        return DesignReport(DesignStatus.IMPOSSIBLE, "", why_not.why_not_text(c), why_not.impossible_json(c),
                            completion=c,
                            conflict=list(c.conflict.parts), conflicts=[[p.label for p in m] for m in d.conflicts],
                            conflicts_complete=d.complete, correction=None if d.correction is None else
                            [p.label for p in d.correction], correction_smallest=d.smallest)
    return DesignReport(DesignStatus.DESIGNED, c.text, "\n".join(words.justification(c)) + "\n", words.to_json(c),
                        {r.cell.label: r.text() for r in c.ranges}, completion=c)


def _stopped(spec, request: Request, stop: str) -> DesignReport:
    """A completion cut short: it is one exact problem, answered whole, so nothing of it is kept."""
    text = (f"verify design: {stop} before a matrix for '{spec.name}' was designed for the {request.setting} "
            "setting: nothing was designed and no conflict was established (a completion is one exact problem, "
            "answered whole). Raise --time-limit (time_limit=) to let it finish.")
    record = {"spec": spec.path, "name": spec.name, "setting": request.setting, "status": "stopped",
              "stopped": text}
    return DesignReport(DesignStatus.STOPPED, "", text + "\n", record)


MARGIN_DIGITS = 100  # a spec reads number literals of at most 300 digits; the cells add the costs' own


def _margin(margin) -> Fraction | None:
    if margin is None:
        return None
    try:
        value = numbers.exact_value(margin)  # bounded: a 1e400 margin is refused, not carried through the LPs
    except numbers.NumberError as exc:
        raise UsageError(f"--margin {numbers.shown(margin)} is not an exact number such as 1/100 ({exc})") from None
    if value <= 0:
        shown = str(value) if len(str(value)) <= 40 else numbers.shown(str(value))
        raise UsageError(f"--margin must be positive, not {shown}")
    if max(value.numerator, value.denominator) >= 10 ** MARGIN_DIGITS:  # the designed spec must read back
        raise UsageError(f"--margin {numbers.shown(str(margin))}: expected a margin written with at most "
                         f"{MARGIN_DIGITS:,} digits above and below the fraction bar, such as 1/100 (the designed "
                         "cells are printed exactly in the spec)")
    return value


def _mapped(spec, request: Request, timeout_ms: int, time_limit: float | None = None) -> DesignReport:
    """Two parameters: the map of where the scheme fits the setting (`designing.plane`), no spec written."""
    from verifier.designing.plane import map_plane
    from verifier.report.design.plane import plane_json, plane_lines

    try:
        with limits.time_limit(time_limit):
            plane = map_plane(spec, request, timeout_ms, time_limit)
    except limits.STOPS as caught:
        return _stopped(spec, request, str(limits.stop_of(caught)))
    record = {"spec": spec.path, "name": spec.name, "setting": request.setting, "status": "mapped",
              "map": plane_json(plane)}
    return DesignReport(DesignStatus.MAPPED, "", "\n".join(plane_lines(plane, spec.name)) + "\n", record, plane=plane)


def _calibrated(spec, request: Request, timeout_ms: int, time_limit: float | None = None) -> DesignReport:
    started = time.monotonic()
    cal = calibrate(spec, timeout_ms, time_limit)

    def bounded(low, high, low_in, high_in, setting):
        necessary = [pid for pid, level in TABLE_VIII[setting].items() if level == Level.N]
        return (bounded_by(cal, low, high, necessary, True, low_in) if low is not None else [],
                bounded_by(cal, low, high, necessary, False, high_in) if high is not None else [])

    lines = words.calibration_lines(cal, spec.name, bounded)
    record = {"spec": spec.path, "name": spec.name, "setting": request.setting,
              "calibration": words.calibration_json(cal, bounded)}
    if cal.stopped:  # said first: every line below covers only what was decided before the bound
        lines.insert(1, cal.stopped)
        record["stopped"] = cal.stopped

    def firm(v):
        return all(v[d.pid] == ("holds" if d.holds else "fails") for d in request.firm)

    def wished(v):
        return firm(v) and all(v[d.pid] == ("holds" if d.holds else "fails") for d in request.wishes)

    runs = cal.where(wished) or cal.where(firm)
    if not runs:
        record["status"] = "stopped" if cal.stopped else "no fit"
        line, record["why_no_fit"] = words.no_fit(cal, request.setting, request.firm, stopped=bool(cal.stopped))
        lines.append(line)
        return DesignReport(record["status"], "", "\n".join(lines) + "\n", record, calibration=cal)
    value = _pick(*runs[0])
    how = (f"verify design {__version__} from {spec.path}: {cal.parameter} calibrated for the {request.setting} "
           f"setting, the simplest value in {words.run_text(*runs[0])}")
    draft = calibrated_text(spec, cal.parameter, value, request.setting, how, {})
    left = None if time_limit is None else max(time_limit - (time.monotonic() - started),
                                               min(GRACE_S, max(1.0, time_limit / 4)))
    analysis = analyse(spec_from_text(draft, "<calibrated>"), timeout_ms, time_limit_s=left)
    if analysis.stopped:  # the chosen value could not be checked in time: nothing unchecked is handed out
        record["status"] = "stopped"
        lines.append(f"Stopped: the time limit was reached before {cal.parameter} = {value} (the simplest value in "
                     f"{words.run_text(*runs[0])}) was checked; no calibrated spec. Raise --time-limit.")
        return DesignReport(DesignStatus.STOPPED, "", "\n".join(lines) + "\n", record, calibration=cal)
    verdicts = {r.property.id: r.verdict.value for r in analysis.results}
    if not firm(verdicts):
        raise DesignCheckFailed(f"the checker does not confirm the firm demands at {cal.parameter} = {value}")
    text = calibrated_text(spec, cal.parameter, value, request.setting, how, verdicts)
    lines.append(f"Chosen: {cal.parameter} = {value}, the simplest value in {words.run_text(*runs[0])} "
                 f"({'firm demands and wishes' if cal.where(wished) else 'firm demands'} of the "
                 f"{request.setting} setting met; checked)" + (", among the pieces decided before the time limit"
                                                                 if cal.stopped else "") + ".")
    record |= {"status": "calibrated", "value": str(value), "verdicts": verdicts, "spec_text": text}
    return DesignReport(DesignStatus.CALIBRATED, text, "\n".join(lines) + "\n", record, calibration=cal)


def _rational_end(x, inward: int) -> Fraction:
    """A rational end: exact when x is rational, else moved inward past a 40-digit approximation."""
    import sympy as sp

    if x.is_Rational:
        return Fraction(int(x.p), int(x.q))
    return Fraction(str(sp.Rational(str(sp.N(x, 40))))) + inward * Fraction(1, 10**38)


def _pick(low, high, low_in, high_in) -> Fraction:
    """The simplest rational in the run (an included rational end counts)."""
    import sympy as sp

    low = sp.Rational(low.numerator, low.denominator) if isinstance(low, Fraction) else low
    high = sp.Rational(high.numerator, high.denominator) if isinstance(high, Fraction) else high
    if low is not None and low == high:
        return Fraction(int(low.p), int(low.q))
    lo = None if low is None else _rational_end(low, +1)
    hi = None if high is None else _rational_end(high, -1)
    if lo is None and hi is None:
        return Fraction(0)
    if lo is None:
        assert hi is not None  # both None returned above
        return Fraction(int(hi.__floor__()) - 1)
    if hi is None:
        return Fraction(int(lo.__floor__()) + 1)
    inside = simplest(lo, hi)
    for end, included in ((low, low_in), (high, high_in)):
        if included and end.is_Rational and Fraction(int(end.p), int(end.q)).denominator < inside.denominator:
            return Fraction(int(end.p), int(end.q))
    return inside
