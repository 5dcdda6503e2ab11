"""`verify evaluate ... --figures DIR` and `UseReport.figures()`: the pictures of an abstention evaluation as
files (or, after --extra-stats over several data sets, baycomp's plots of the Bayesian comparisons), named and
written as `figure_files` writes a check's (`<spec stem>-<picture>.<format>`, a directory created
if needed, each file through a temporary file renamed over its name, never overwriting an input)."""

from __future__ import annotations

import os
import time

from verifier.errors import UsageError
from verifier.report.output import Figures, PictureBytes, figure_stem, refuse_overwriting_inputs
from verifier.report.output.files import _write_atomically, prepare_directory

FORMATS = ("svg", "pdf", "png")
MAX_NAME_BYTES = 255  # a file name's length on ext4, APFS and NTFS alike


def figure_options(layout, width) -> tuple[str, float | None]:
    """The figures' layout and width, checked: a usage error names what is allowed."""
    from verifier.report.figures import LAYOUTS, MAX_WIDTH, MIN_WIDTH

    if layout not in LAYOUTS:
        raise UsageError(f"figure layout {layout!r}: expected one of {', '.join(LAYOUTS)}")
    if width is None:
        return layout, None
    if isinstance(width, bool) or not isinstance(width, (int, float)) or not MIN_WIDTH <= width <= MAX_WIDTH:
        raise UsageError(f"figure width {width!r}: expected inches from {MIN_WIDTH:g} to {MAX_WIDTH:g} (one "
                         "column of a paper: 3.5, two columns: 7.16)")
    return layout, float(width)


def _now() -> float:
    return time.monotonic()


class Written(dict):
    """{file name: path} of the figures written; `cut` says which were not, when the time limit came first."""

    cut: str | None = None


def use_figures(result, directory: str | None, formats=("svg", "pdf"), inputs=(), deadline: float | None = None,
                limit: float | None = None, *, layout: str = "column", width: float | None = None,
                shared_scales: bool = True, others=()) -> dict:
    """The figures' files (or bytes, without `directory`). `deadline` (time.monotonic()): the run's time limit
    of `limit` seconds, checked before each picture (one takes about a second); those left are named in `cut`.
    `layout` (the abstention maps: 'column', 'grid' or 'row') and `width` (inches; None: one column, two for
    'row') as `figure_options` checks them; `shared_scales`: one colour scale per map for the classifiers
    compared on a data set (False: each classifier's own); `others`: the run's other outputs, (option, path),
    none of which a figure may be."""
    layout, width = figure_options(layout, width)
    if isinstance(formats, str) or not formats or any(f not in FORMATS for f in formats):
        raise UsageError(f"figure formats {formats!r}: expected some of {', '.join(FORMATS)}")
    curves = getattr(result, "abstention", None)
    conditions = getattr(result, "conditions", None)
    bayes = (getattr(result, "bayes", None) or ([], None))[0]
    if curves is None and conditions is None and not bayes:
        raise UsageError("no figure files apply to this result: --figures writes the maps of abstention cost "
                         "curves (verify evaluate SPEC --scores FILE --sweep ... --sweep ...), the cost curves "
                         "under operating-condition uncertainty (--scores FILE --threshold-choice METHOD) and "
                         "baycomp's plots of the Bayesian comparisons over several data sets (--extra-stats); "
                         "--plot draws a sweep's curves or a critical difference diagram")
    if curves is None and conditions is None:
        from verifier.report.figures import bayes_pictures

        drawn, path = bayes_pictures(bayes), result.record["spec"]
    elif conditions is not None:
        from verifier.report.figures.conditions_plot import pictures as condition_pictures
        from verifier.using.operating import GRID

        drawn, path = condition_pictures(conditions, GRID, result.title, width=width), conditions.path
    else:
        from verifier.report.figures.abstention_plot import pictures

        drawn, path = pictures(curves, result.title, layout=layout, width=width,
                               shared_scales=bool(shared_scales)), curves.path
    stem = figure_stem(path)
    files = {f"{stem}-{p.name}.{fmt}": p for p in drawn for fmt in formats}
    if len(files) < len(drawn) * len(formats):  # names are escaped injectively: a guard, not a case
        raise UsageError(f"--figures: two pictures of {path} would be written to the same file")
    long = next((name for name in files if len(name.encode()) > MAX_NAME_BYTES), None)
    if long is not None:
        raise UsageError(f"--figures: the file name {long[:60]!r}... is {len(long.encode())} bytes, beyond the "
                         f"{MAX_NAME_BYTES} a file system allows; shorten the classifier (or data set) names")
    if directory is None:  # pictures, shown as such in a notebook (bytes still: files, slices, comparisons)
        shown = Figures()
        for number, (name, p) in enumerate(files.items()):
            if deadline is not None and _now() >= deadline:
                shown.cut = _cut(limit, number, list(files), "drawn")
                shown.reason = f"stopped: {shown.cut}"
                break
            shown[name] = PictureBytes(p.render(name.rsplit(".", 1)[1]), name.rsplit(".", 1)[1], p.title)
        return shown
    prepare_directory(directory, "--figures")
    refuse_overwriting_inputs([("--figures", os.path.join(directory, name)) for name in files],
                              [("spec", path), *inputs])
    for option, other in others:  # another output of the run (--plot FILE): one would silently replace the other
        same = next((name for name in files if other and os.path.realpath(os.path.join(directory, name)) ==
                     os.path.realpath(other)), None)
        if same is not None:
            raise UsageError(f"{option} {other!r} is also one of the figures --figures {directory!r} writes "
                             f"({same}): one would write over the other, so nothing was written (give it another "
                             "name)")
    out = Written()
    for number, (name, picture) in enumerate(files.items()):
        if deadline is not None and _now() >= deadline:
            out.cut = _cut(limit, number, list(files), "written")
            break
        path = os.path.join(directory, name)
        _write_atomically(path, picture.render(name.rsplit(".", 1)[1]))
        out[name] = path
    return out


def _cut(limit: float | None, number: int, names: list[str], done: str) -> str:
    """What the time limit left undone: the figures not drawn or written."""
    left = names[number:]
    return (f"the time limit of {limit:g} s (--time-limit) was reached: {number:,} of {len(names):,} figure files "
            f"{done}; not {done}: {', '.join(left[:3])}" + (f", ... ({len(left):,} in all)" if len(left) > 3 else "")
            + " (raise --time-limit, or draw fewer pairs with --pairs best or --pairs NAME)")
