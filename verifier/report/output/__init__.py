"""What every report writes and shows, whichever job made it: files, figure files and notebook pieces.

Owns: the report files of `--report DIR` and the one atomic writer of every output (`files`), where output goes
and the rule that no output is one of the command's inputs (`paths`), each picture as its own files
(`figure_files`), what `picture()` and `figures()` return (`picture_bytes`) and the notebook pieces every
result uses (`notebook`).

May import: `report.check` (the check report's formats, written by `files`), `report.figures`, `report.text`,
and everything below `report`. Never `report.design` or `report.use`.
"""

from typing import TYPE_CHECKING

from verifier.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from verifier.report.output.files import prepare_directory, stem_for, write_output, write_reports
    from verifier.report.output.paths import (
        figure_stem,
        planned_stems,
        refuse_overwriting_inputs,
        refuse_reports_over_inputs,
        reserved_for_others,
    )
    from verifier.report.output.picture_bytes import Figures, NoPicture, PictureBytes, why_no_use_picture

_FROM = {"Figures": "picture_bytes", "NoPicture": "picture_bytes", "PictureBytes": "picture_bytes",
         "figure_stem": "paths",
         "planned_stems": "paths", "prepare_directory": "files", "refuse_overwriting_inputs": "paths",
         "refuse_reports_over_inputs": "paths", "reserved_for_others": "paths", "stem_for": "files",
         "why_no_use_picture": "picture_bytes", "write_output": "files", "write_reports": "files"}
__all__, __getattr__, __dir__ = lazy_exports(__name__, globals(), _FROM)
