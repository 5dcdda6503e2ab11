"""`verify SPEC --figures DIR` and `Report.figures()`: each picture of a report as its own files, for a paper.

Names are stable: `<spec stem>-<picture>.<format>` (`ha-numeric-ternary.svg`, `friedel-abstention-symbolic-
region-P1.pdf`, `p-discounted-symbolic-calibration.svg`, `table-vii-decisions.svg`), the stem made as for the
report files (`paths.stem_for`). The figures are one column wide (3.5 inches); the SVG keeps its text as text, the
PDF embeds its TrueType fonts; both carry the title in their metadata and are deterministic (no dates). Files are
written the way the report files are: into a directory that is created if needed (a file there is refused), each
through a fresh temporary file renamed over its name, never through a symbolic link.
"""

from __future__ import annotations

import os

from verifier.report.output.files import _write_atomically, prepare_directory
from verifier.report.output.paths import figure_stem, refuse_overwriting_inputs
from verifier.report.output.picture_bytes import Figures, PictureBytes

__all__ = ["figure_files", "figure_stem", "write_figures"]

FORMATS = ("svg", "pdf")


def figure_files(analysis, formats=FORMATS, stem: str | None = None) -> Figures:
    """{file name: bytes} of every picture of the report, in every format (each a `PictureBytes`, which a
    notebook shows as the picture); when there is none, the empty `Figures` says why (`reason`)."""
    from verifier.report.check import pictures, why_none  # matplotlib loads only where a picture applies

    stem = stem or figure_stem(analysis.spec.path)
    drawn, notes = pictures(analysis)
    return Figures({f"{stem}-{p.name}.{fmt}": PictureBytes(p.render(fmt), fmt, p.title) for p in drawn
                    for fmt in formats}, reason="" if drawn else why_none(analysis, notes))


def write_figures(analysis, directory: str, taken: set[str] | None = None, formats=FORMATS) -> dict[str, str]:
    """Write every picture into `directory`; {file name: path written}."""
    prepare_directory(directory, "--figures")
    files = figure_files(analysis, formats, figure_stem(analysis.spec.path, taken))
    refuse_overwriting_inputs([("--figures", os.path.join(directory, name)) for name in files],
                              [("spec", analysis.spec.path)])
    out = Figures(reason=files.reason)
    for name, data in files.items():
        path = os.path.join(directory, name)
        _write_atomically(path, bytes(data))
        out[name] = path
    return out
