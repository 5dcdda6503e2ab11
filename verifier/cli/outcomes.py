"""Running every spec of a `verify` command and turning the outcomes into output and an exit status.

One spec prints its compact report (its full report with -v). Several specs print one line each as they
finish, then one table, schemes x P1-P10 plus fit (every full report with -v). `--format json|junit|markdown`
prints one document at the end; Markdown is the table (and, for one spec, each verdict's reason), for
`$GITHUB_STEP_SUMMARY`.
"""

from __future__ import annotations

import os
import textwrap
from typing import TextIO

from verifier.cli.exit_codes import ExitCode
from verifier.cli.run import Outcome, run
from verifier.limits import PROGRESS_STAGES as STAGES
from verifier.report.check import summary_table
from verifier.report.output import planned_stems, reserved_for_others
from verifier.report.text import write_json
from verifier.version import __version__


def run_all(paths: list[str], args, stdout: TextIO, stderr: TextIO, width: int, color: bool,
            show_progress: bool) -> list[Outcome]:
    """Verify each spec in turn with a progress bar, printing each text report and its notes as it finishes; returns the
    outcomes in order."""
    # report and figure names planned for the whole run (as the pre-check saw them): two specs never share one
    plan = planned_stems(paths, bool(args.report), bool(getattr(args, "figures", None)))
    outcomes = []
    many = len(paths) > 1
    with _progress(stderr, show_progress) as progress:
        task = progress.add_task("verifying", total=len(paths) * STAGES)
        for index, path in enumerate(paths):
            name = os.path.basename(path)
            progress.update(task, completed=index * STAGES, description=f"verifying {name}")
            mode = "full" if args.verbose else "none" if many else "compact"
            outcome = run(path, args, width, color, reserved_for_others(plan, index),
                          step=_stepper(progress, task, name, index), text=mode)
            outcomes.append(outcome)
            if show_progress:
                progress.stop()  # the bar is cleared (transient) before anything is printed, then resumed
            if args.format == "text" and not outcome.error:  # stream reports as they finish
                _print_one(outcome, args, stdout, width, color, many, first=len(outcomes) == 1,
                           stems=summary_table.stem_width(paths))
            if outcome.error:
                print(outcome.error, file=stderr)
            if outcome.written:
                print("verify: wrote " + ", ".join(outcome.written), file=stderr)
            for note in outcome.notes:
                print(note, file=stderr)
            progress.update(task, completed=(index + 1) * STAGES)
            if show_progress and index + 1 < len(paths):
                progress.start()
    return outcomes


def _print_one(outcome: Outcome, args, stdout: TextIO, width: int, color: bool, many: bool, first: bool,
               stems: int = 0) -> None:
    if many and not args.verbose and not args.classes:  # the name only: the table after the last says the rest
        stdout.write(summary_table.spec_line(outcome.summary, outcome.path, width, stems) + "\n")
        return
    if many and not first:
        from rich.rule import Rule

        from verifier.report.text import terminal

        terminal.console(stdout, width, color).print(Rule())
    if outcome.cached_at:
        print(textwrap.fill(f"(cached result from {outcome.cached_at} for this exact spec, options and verify "
                            f"{__version__}; --no-cache to verify afresh)", max(20, width - 1)), file=stdout)
    stdout.write(outcome.text)


class _NoProgress:
    """The bar when none is shown (not a terminal, or --quiet): it does nothing, and loads no rich, so that an
    invalid spec is told before any display library loads."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None

    def add_task(self, *args, **kwargs) -> int:
        return 0

    def update(self, *args, **kwargs) -> None:
        return None

    stop = start = lambda self: None


def _progress(stderr: TextIO, show: bool):
    if not show:
        return _NoProgress()
    from rich.console import Console
    from rich.progress import Progress

    return Progress(console=Console(file=stderr, force_terminal=True), transient=True)


def _stepper(progress, task, name: str, index: int):
    """Each stage moves the bar a little within this spec's share (never past it)."""
    done = [0]

    def step(text: str) -> None:
        done[0] = min(done[0] + 1, STAGES - 1)
        progress.update(task, completed=index * STAGES + done[0], description=f"verifying {name}: {text}",
                        refresh=True)  # stages can be quicker than the bar's own refresh: show each one

    return step


def report_all(outcomes: list[Outcome], args, stdout: TextIO, stderr: TextIO, width: int, color: bool) -> int:
    """Print the outcomes as the format asks (JSON, JUnit, Markdown, or the table of several specs) and the unmet
    requirements; returns the exit status."""
    records = []
    for o in outcomes:
        record = dict(o.record)
        if o.cached_at:
            record["cached"] = {"stored_at": o.cached_at, "verify_version": __version__}
        records.append(record)
    valid = [o for o in outcomes if not o.error]
    if args.format == "json":
        # in slices: a family's matrix is millions of cells, never one text
        write_json(records[0] if len(records) == 1 else records, stdout)
    elif args.format == "junit":
        from verifier.report.check import to_junit

        stdout.write(to_junit(records))
    elif args.format == "markdown":
        stdout.write(summary_table.markdown([(o.path, o.summary) for o in valid],
                                            [(o.path, o.error) for o in outcomes if o.error]))
    unfit = [f"{o.path} does not fit the {s} setting" for o in valid for s in args.require
             if o.fits.get(s) is not True]
    if args.format == "text" and len(outcomes) > 1:
        if valid and not args.classes:
            stdout.write("\n" + summary_table.text([(o.path, o.summary) for o in valid], width))
        unmet = [o for o in valid if not o.expectations_met]
        print(f"{len(valid):,} verified, {len(outcomes) - len(valid):,} invalid, {len(unmet):,} with unmet "
              f"expectations (of {len(outcomes):,} specs)" + "".join(f"\n  {o.path}: expectations not met: "
                                        f"{summary_table.unmet(o.summary) or 'see its report'}" for o in unmet),
              file=stdout)
    for line in unfit:
        print(f"verify: required setting not fitted: {line}", file=stderr)
    disagreements = [d for o in outcomes for d in o.disagreements]
    for line in disagreements:
        print(f"verify: CROSS-CHECK DISAGREEMENT: {line}", file=stderr)
    if any(o.error for o in outcomes):
        return ExitCode.INVALID
    if disagreements or unfit or not all(o.expectations_met for o in outcomes):
        return ExitCode.UNMET
    return ExitCode.OK
