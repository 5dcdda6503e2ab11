"""`verify evaluate --report DIR`: the evaluation in files, every detail kept: `<stem>-evaluate.txt` (what -v
prints: the answer first, then each data set's scores and each pair's tests), `<stem>-evaluate.html` (a
self-contained page: what a notebook shows, the answer first, the console text in monospace blocks) and
`<stem>-evaluate.json` (what --format json prints). No file may be one of the inputs (refused before any file
is written)."""

from __future__ import annotations

import json
import os

from verifier.report.output import prepare_directory, refuse_overwriting_inputs, stem_for, write_output
from verifier.report.output.notebook import e

SUFFIXES = ("txt", "html", "json")


def report_paths(directory: str, spec_path: str) -> list[str]:
    """The files `--report DIR` writes for the spec, in the order of SUFFIXES."""
    stem = stem_for(spec_path)
    return [os.path.join(directory, f"{stem}-evaluate.{suffix}") for suffix in SUFFIXES]


def check_report(directory: str, spec_path: str, inputs) -> None:
    """Before any work: the directory can be written, and no report file is an input."""
    prepare_directory(directory)
    refuse_overwriting_inputs([("--report", path) for path in report_paths(directory, spec_path)], inputs)


def write_use_report(result, directory: str, spec_path: str, text: str, record: dict) -> list[str]:
    """Write the three files: `text` is the full console text (with -v's detail), `record` the JSON record."""
    from verifier.report.use.notebook import use_html  # loads rich: only when files are written

    paths = report_paths(directory, spec_path)
    title = e(getattr(result, "title", "") or "verify evaluate")
    page = (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="color-scheme" '
            f'content="light dark"><title>{title}</title></head><body>{use_html(result)}</body></html>\n')
    for path, body in zip(paths, (text, page, json.dumps(record, indent=2, ensure_ascii=False) + "\n")):
        write_output(path, body, "--report")
    return paths
