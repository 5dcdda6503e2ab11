"""The default console report: the answer to "does this scheme make sense?" on one screen, as pytest and ruff
print theirs. The spec's name, the verdict table (one line per property: verdict and why), the fit to each
setting of the paper's Table VIII and what to change, and the expectations; about 30 lines for a 3-class
scheme at 80 columns. The matrix, the full evidence, the witnesses and the notation are in the full report
(`verify -v`, and always in `--report` files).
"""

from __future__ import annotations

import textwrap

from rich.console import Console
from rich.text import Text

from verifier.analysis.pipeline import Analysis
from verifier.analysis.remedy import how_to_fit
from verifier.properties.settings import TABLE_VIII
from verifier.report.check import brief
from verifier.report.check.tables import parameter
from verifier.report.text import DEFAULT_WIDTH, clean, render_to_text
from verifier.report.text.math_text import console as math
from verifier.verdict import Verdict

STYLE = {Verdict.HOLDS: "green", Verdict.FAILS: "red", Verdict.UNKNOWN: "yellow"}
FIT_STYLE = {True: "green", False: "red", None: "yellow"}
MAX_STEP_LINES = 3  # per remedy step; the full list is behind -v


def to_text(analysis: Analysis, width: int = DEFAULT_WIDTH, color: bool = False) -> str:
    """The default console report of the analysis as text, `width` columns wide, with ANSI colours when `color`."""
    return render_to_text(lambda console: render(analysis, console), width, color)


def render(a: Analysis, console: Console) -> None:
    """Print the default console report to `console`: the name, the verdict table, the fit to each setting and the
    expectations."""
    width = console.width - 1
    s = a.spec
    console.print(Text(brief.clip(clean(s.name), width), style="bold"), soft_wrap=True)
    facts = [clean(str(s.path)), f"{a.scheme.K} classes" + (f": {', '.join(a.scheme.classes)}" if a.scheme.K <= 8
                                                             else "")]
    family = a.scheme.spec.predictions.describe(a.scheme.K)
    if family:
        facts.append(f"predictions: {family}")
    if a.scheme.parameters:
        facts.append("parameters: " + math(", ".join(parameter(k, v) for k, v in a.scheme.parameters.items())))
    if s.setting:
        facts.append(f"intended setting: {s.setting}")
    for line in textwrap.wrap(" · ".join(facts), width)[:2]:
        console.print(Text(line, style="dim"), soft_wrap=True)
    if a.stopped:
        console.print(Text(brief.clip(f"stopped early: {a.stopped}", width), style="yellow"), soft_wrap=True)
    for note in a.scheme.notes:  # warnings, and the drawback of modified initial costs (the paper counts it)
        if note.startswith(("warning:", "The set-cost formula modifies")):
            for line in textwrap.wrap(math(clean(note)), width):
                console.print(Text(line, style="yellow"), soft_wrap=True)
    console.print()
    for line in _verdicts(a, width) + [Text("")] + _fit(a, width):
        line.truncate(width, overflow="ellipsis")  # a console narrower than the table: every line still fits
        console.print(line, soft_wrap=True)
    if a.expectations:
        unmet = [e for e in a.expectations if not e.met]
        text = (f"expect: all {len(a.expectations)} met" if not unmet else
                f"expect: {len(unmet):,} of {len(a.expectations):,} NOT MET: " +
                "; ".join(f"{e.property_id} expected {e.expected}, got {e.actual}" for e in unmet))
        for line in _lines(text, width):  # which property broke is never cut off
            console.print(Text(line, style="green" if not unmet else "bold red"), soft_wrap=True)
    if a.cross_checks:
        bad = [c for c in a.cross_checks if c.disagrees]
        agree = sum(1 for c in a.cross_checks if c.second is not None and not c.disagrees)
        skipped = sum(1 for c in a.cross_checks if c.second is None)
        text = (f"cross-check: {agree:,} of {len(a.cross_checks):,} agree with a second, independent method"
                + (f"; {skipped} skipped (-v says why)" if skipped else "") if not bad
                else "cross-check: " + "; ".join(f"{c.property_id} DISAGREES (reported {c.first}, {c.method} gives "
                                                 f"{c.second})" for c in bad))
        for line in _lines(text, width):
            console.print(Text(line, style="bold red" if bad else "green"), soft_wrap=True)
        cut = [c.property_id for c in a.cross_checks if c.cut]
        if cut:  # on a line of its own: the reason is never clipped away
            stop = next(c.cut for c in a.cross_checks if c.cut)
            console.print(Text(brief.clip(f"cross-check stopped: {stop} before {len(cut):,} of {len(a.cross_checks):,} "
                                          f"were re-checked (skipped: {', '.join(cut)})", width), style="yellow"),
                          soft_wrap=True)
    for line in _lines("verify -v: the matrix, the full evidence and the witnesses; --report DIR: the same in "
                       "files", width):
        console.print(Text(line, style="dim"), soft_wrap=True)


def _lines(text: str, width: int) -> list[str]:
    """A message on as many lines as it needs (never cut with "…"), continued two columns in."""
    return textwrap.wrap(text, width, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False)


ONE_LINE_WHY = 48  # narrower than this, the reason goes on its own line under the verdict


def _verdicts(a: Analysis, width: int) -> list[Text]:
    verdicts = max(len(_verdict(r)) for r in a.results)
    names = min(max(len(r.property.name) for r in a.results), max(8, width - 5 - 2 - verdicts))
    left = 5 + names + 2 + verdicts + 2
    one_line = width - left >= ONE_LINE_WHY
    out = [Text(f"{'':5}{'property':<{names}}  {'verdict':<{verdicts}}" + ("  why" if one_line else ""),
                style="bold")]
    for r in a.results:
        why = math(brief.reason(r, a.scheme))
        row = Text.assemble(f"{r.property.id:<5}{brief.clip(r.property.name, names):<{names}}  ",
                            (f"{_verdict(r):<{verdicts}}", STYLE[r.verdict]))
        if one_line:
            out.append(row + Text("  " + brief.clip(why, width - left)))
        else:
            out += [row, Text("     " + brief.clip(why, width - 5), style="dim")]
    return out


def _verdict(r) -> str:
    return r.verdict.value + (" (tight)" if r.tight else "")


def _fit(a: Analysis, width: int) -> list[Text]:
    lines = [Text("Fit to the paper's Table VIII:", style="bold")]
    name_width = max(len(n) for n in TABLE_VIII) + len(" (intended)")
    for setting, fit in a.settings.items():
        name = setting + (" (intended)" if a.spec.setting == setting else "")
        # a warning is never cut: the line continues under itself, aligned after the setting's name
        said = textwrap.wrap(math(brief.fit_line(fit)), max(20, width - name_width - 4), break_long_words=False,
                             break_on_hyphens=False) or [""]
        lines.append(Text.assemble(f"  {name:<{name_width}}  ", (said[0], FIT_STYLE[fit.fits])))
        lines += [Text.assemble(" " * (name_width + 4), (more, FIT_STYLE[fit.fits])) for more in said[1:]]
    shown: dict[str, str] = {}
    for setting, remedy in how_to_fit(a, brief=True).items():
        lines.append(Text(f"To fit the {setting} setting:", style="bold"))
        steps = remedy.steps[:1] if remedy.condition else _merged(remedy.steps)  # the condition says it all
        fresh = [step for step in steps if step not in shown]
        repeated = [shown[step] for step in steps if step in shown]
        for step in fresh[:MAX_STEPS]:
            shown[step] = setting
            lines += [Text(w) for w in _wrapped(math(step), width)]
        if repeated:
            what = "the step" if len(repeated) == 1 else f"the {len(repeated)} steps"
            lines.append(Text(f"  - {'and ' if fresh else ''}{what} given above for the {repeated[0]} setting"))
        if len(fresh) > MAX_STEPS:
            lines.append(Text(f"  - and {len(fresh) - MAX_STEPS:,} more (verify -v)", style="dim"))
    return lines


MAX_STEPS = 4  # remedy steps shown per setting
VAGUE = "but no exact condition could be derived"


def _merged(steps: list[str]) -> list[str]:
    """Several 'holds somewhere, no exact condition' steps as one line naming the properties."""
    vague = [step for step in steps if step.endswith(VAGUE)]
    if len(vague) < 2:
        return steps
    ids = ", ".join(step.split(" ", 1)[0] for step in vague)
    return [f"{ids} hold at some admissible values, {VAGUE}"] + [step for step in steps if step not in vague]


def _wrapped(step: str, width: int) -> list[str]:
    wrapped = textwrap.wrap(step, width, initial_indent="  - ", subsequent_indent="    ")
    if len(wrapped) > MAX_STEP_LINES:
        rest = " ".join(w.strip() for w in wrapped[MAX_STEP_LINES - 1:])
        wrapped = wrapped[:MAX_STEP_LINES - 1] + ["    " + brief.clip(rest, width - 4)]
    return wrapped
