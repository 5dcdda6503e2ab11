"""`verify SPEC --report DIR`: <stem>.md (pull requests, design reviews), <stem>.html (one self-contained file:
inline SVG, no network, no JavaScript) and <stem>.json. File contents are deterministic (no timings), so the
committed reports of the bundled specs change only when a scheme or the tool's findings do."""

from __future__ import annotations

import json
import os

from verifier.analysis.pipeline import Analysis
from verifier.report.html import page
from verifier.report.json_record import to_json
from verifier.report.markdown import markdown


def write_reports(analysis: Analysis, directory: str) -> list[str]:
    os.makedirs(directory, exist_ok=True)
    stem = os.path.splitext(os.path.basename(analysis.spec.path))[0]
    record = to_json(analysis)
    record.pop("seconds", None)
    paths = []
    for suffix, text in (("md", markdown(analysis)), ("html", page(analysis)),
                         ("json", json.dumps(record, indent=2, ensure_ascii=False) + "\n")):
        path = os.path.join(directory, f"{stem}.{suffix}")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        paths.append(path)
    return paths
