"""Where the files a command writes go, and the rule every writer obeys: no output is one of the command's inputs.

"The same file" means the same device and inode (`os.stat`), so a second name, a hard link, a symbolic link or
`dir/../dir/x` is caught as surely as the same spelling. Every option that writes a file (`--report`,
`--figures`, `-o`, `--plot`, and `Report.write`/`Report.figures` in Python) is checked by
`refuse_overwriting_inputs` before anything is written: a clash is a usage error (exit 2) naming the option,
the output and the input it would replace, as compilers refuse `cc x.c -o x.c`.

The names of the report and figure files are planned for the whole run before any work (`planned_stems`, in
command-line order, as if every spec succeeds), so that the check sees exactly the names that will be written
and a spec's names never depend on whether an earlier spec was valid.

Light on purpose (no solver, no sympy): the command checks its outputs before loading anything heavy.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable

from verifier.errors import UsageError

REPORT_SUFFIXES = ("md", "html", "json")
FIGURE_SUFFIXES = ("svg", "pdf", "png")
STDIN = ("-", "/dev/stdin")


def identity(path, stdin: bool = False) -> tuple[int, int] | None:
    """(device, inode) of the file `path` names, through links; None when there is none (or it cannot be
    read). With `stdin` (an input), '-' is standard input: the file it was redirected from, if any."""
    try:
        if stdin and path == "-":
            info = os.fstat(sys.stdin.fileno())
        else:
            info = os.stat(path)
    except (OSError, ValueError, TypeError, AttributeError):
        return None
    return info.st_dev, info.st_ino


def _inputs(inputs: Iterable) -> list[tuple[str, str, tuple[int, int]]]:
    out = []
    for item in inputs:
        what, path = item if isinstance(item, tuple) else ("input", item)
        if path is None:
            continue
        ident = identity(os.fspath(path) if isinstance(path, os.PathLike) else path, stdin=True)
        if ident is not None:
            out.append((what, str(path), ident))
    return out


def refuse_overwriting_inputs(outputs, inputs: Iterable) -> None:
    """A UsageError when an output is one of the inputs (same device and inode) or two outputs are one file.

    `outputs`: {option: path} or (option, path) pairs (a None path is no output); `inputs`: paths, or (what,
    path) pairs such as ("spec", "t.md") or ("--truth", "y.txt"), so that the message names the input."""
    pairs = list(outputs.items()) if isinstance(outputs, dict) else list(outputs)
    given = [(option, str(path), identity(path)) for option, path in pairs if path]
    known = _inputs(inputs)
    for option, path, ident in given:
        for what, source, source_ident in known:
            if ident is not None and ident == source_ident:
                same = "" if os.path.abspath(path) == os.path.abspath(source) else \
                    " (standard input)" if source == "-" else " (the same file by another name)"
                raise UsageError(f"{option} would write {path!r}, which is the input {what} {source!r}{same}; "
                                 "writing there would replace it, so nothing was written (choose another "
                                 "output)")
    seen: dict = {}
    for option, path, ident in given:  # a file not made yet: its directory's real path (through links) and name
        key = ident or os.path.join(os.path.realpath(os.path.dirname(os.path.abspath(path))), os.path.basename(path))
        if key in seen and seen[key] != (option, path):
            first, named = seen[key]
            raise UsageError(f"{first} writes {named!r} and {option} writes {path!r}: they name the same file; "
                             "one would write over the other, so nothing was written (give each "
                             "output its own name)")
        seen[key] = (option, path)


def stem_for(spec_path: str, taken: set[str] | None = None) -> str:
    """A file name stem inside the report directory, distinct from those already `taken` in this run."""
    name = "stdin" if spec_path in STDIN else os.path.splitext(os.path.basename(str(spec_path)))[0]
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", name).lstrip(".").lstrip("-") or "spec"
    chosen, n = stem, 2
    while taken is not None and chosen in taken:
        chosen, n = f"{stem}-{n}", n + 1
    if taken is not None:
        taken.add(chosen)
    return chosen


def figure_stem(spec_path: str, taken: set[str] | None = None) -> str:
    """The stem of a spec's figure files, distinct from the other specs' of this run (`taken`, shared with the
    report files: figure stems are kept there as "figures/<stem>", which no report stem can be)."""
    stem, chosen, n = stem_for(spec_path), stem_for(spec_path), 2
    while taken is not None and f"figures/{chosen}" in taken:
        chosen, n = f"{stem}-{n}", n + 1
    if taken is not None:
        taken.add(f"figures/{chosen}")
    return chosen


def planned_stems(paths: list[str], report: bool, figures: bool) -> list[set[str]]:
    """For each spec of the run, in order, the names it will use (its report stem, and "figures/<stem>" for its
    figures), allocated as the run would if every spec succeeds."""
    taken: set[str] = set()
    plan = []
    for path in paths:
        before = set(taken)
        if report:
            stem_for(path, taken)
        if figures:
            figure_stem(path, taken)
        plan.append(taken - before)
    return plan


def reserved_for_others(plan: list[set[str]], index: int) -> set[str]:
    """The names the other specs of the run hold: given as `taken`, spec `index` gets exactly its planned
    names (every name before them in its sequence is another spec's)."""
    return set().union(*(names for i, names in enumerate(plan) if i != index))


def refuse_reports_over_inputs(paths: list[str], report: str | None, figures: str | None,
                               inputs: Iterable, others: Iterable = ()) -> None:
    """Before any work: no report file (DIR/<stem>.md, .html, .json) and no figure file (DIR/<stem>-*.svg, .pdf,
    .png that exists now) of this run is one of `inputs`, nor another output of the run (`others`: (option,
    path) pairs such as ("--certificate", "DIR/s.md"))."""
    plan, others = planned_stems(paths, bool(report), bool(figures)), [(o, p) for o, p in others if p]
    outputs = list(others)
    for names in plan:
        for name in sorted(names):
            if name.startswith("figures/"):
                for option, path in others:
                    _refuse_a_figure_name(option, path, figures, name[len("figures/"):])
                outputs += [(f"--figures {figures!r}", p) for p in _existing_figures(figures, name[len("figures/"):])]
            else:
                outputs += [(f"--report {report!r}", os.path.join(report, f"{name}.{s}")) for s in REPORT_SUFFIXES]
    refuse_overwriting_inputs(outputs, inputs)


def _refuse_a_figure_name(option: str, path, directory: str, stem: str) -> None:
    """A figure's name is known only after the analysis: an output in the figures' directory that could be one
    (<stem>-<picture>.svg, .pdf or .png) is refused before any work."""
    name = os.path.basename(str(path))
    if os.path.realpath(os.path.dirname(os.path.abspath(path))) == os.path.realpath(directory) and \
            name.startswith(f"{stem}-") and name.rsplit(".", 1)[-1] in FIGURE_SUFFIXES:
        raise UsageError(f"{option} {str(path)!r} could be one of the figures --figures {directory!r} writes "
                         f"({stem}-<picture>.svg, .pdf, .png): one would write over the other, so nothing was "
                         "written (give it another name)")


def _existing_figures(directory: str, stem: str) -> list[str]:
    """The files in `directory` a figure of `stem` could replace (picture names are known only after the
    analysis; a file that does not exist yet cannot be an input)."""
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    return [os.path.join(directory, n) for n in sorted(names)
            if n.startswith(f"{stem}-") and n.rsplit(".", 1)[-1] in FIGURE_SUFFIXES]
