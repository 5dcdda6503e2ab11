"""JUnit XML for CI dashboards (Jenkins, GitLab, GitHub test reporters): one suite per spec, one case per property.

Input is what `report_json.to_json` returns per spec (or the CLI's `{"spec", "error"}` record for a spec that
could not be verified), so this module never touches an Analysis and can also convert saved JSON reports.
Mapping: an unmet expectation is a <failure>; an `unknown` verdict is <skipped> (CI shows it, but it is not a
regression unless an expectation says otherwise); an invalid spec is a single <error> case; the rest pass.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from verifier.verdict import Verdict

# XML 1.0 forbids most control characters even when escaped; spec text quoted in messages could carry them.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _clean(text) -> str:
    return _NOT_XML.sub("\ufffd", "" if text is None else str(text))


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs) -> ET.Element:
    node = ET.SubElement(parent, tag, {k.rstrip("_"): _clean(v) for k, v in attrs.items()})
    if text:
        node.text = _clean(text)
    return node


def _details(prop: dict, expected: str | None) -> str:
    lines = [f"verdict: {prop.get('verdict')}"]
    if expected is not None:
        lines.append(f"expected: {expected}")
    for key in ("statement", "explanation", "reason"):
        if prop.get(key) and not (key == "reason" and prop[key] in (prop.get("explanation") or "")):
            lines.append(f"{key}: {prop[key]}")  # the reason is often already part of the explanation
    return "\n".join(lines)


def _case(suite: ET.Element, path: str, pid: str, prop: dict, expect: dict | None) -> str:
    """Add one property's testcase; returns its outcome: passed, failure or skipped."""
    case = _sub(suite, "testcase", classname=path, name=f"{pid} {prop.get('name', '')}".strip())
    verdict = prop.get("verdict")
    expected = expect.get("expected") if expect else None
    explanation = prop.get("explanation") or ""
    if expect and not expect.get("met", True):
        actual = expect.get("actual", verdict)
        _sub(case, "failure", _details(prop, expected), type="unmet expectation",
             message=f"expected {expected}, got {actual}: {explanation}")
        return "failure"
    if verdict == Verdict.UNKNOWN:
        _sub(case, "skipped", message=f"unknown: {prop.get('reason') or explanation}")
        _sub(case, "system-out", _details(prop, expected))
        return "skipped"
    _sub(case, "system-out", _details(prop, expected))
    return "passed"


def _suite(root: ET.Element, record: dict) -> dict[str, int]:
    path = str(record.get("spec", "?"))
    suite = _sub(root, "testsuite", name=f"verify: {path}")
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    if "error" in record:
        case = _sub(suite, "testcase", classname=path, name="valid spec")
        message = str(record["error"])
        _sub(case, "error", message, type="invalid spec", message=message.splitlines()[0] if message else "")
        counts.update(tests=1, errors=1)
    elif "properties" in record:
        if record.get("name"):
            _sub(_sub(suite, "properties"), "property", name="scheme", value=record["name"])
        expects = record.get("expect") or {}
        for pid, prop in record["properties"].items():
            outcome = _case(suite, path, pid, prop, expects.get(pid))
            counts["tests"] += 1
            if outcome == "failure":
                counts["failures"] += 1
            elif outcome == "skipped":
                counts["skipped"] += 1
        for key, expect in expects.items():  # `expect: {certificate: checks}`: a case of its own
            if key not in record["properties"]:
                verdict = "checks" if expect.get("met") else str(expect.get("actual"))
                outcome = _case(suite, path, key, {"verdict": verdict, "explanation": f"the {key} {verdict}"}, expect)
                counts["tests"] += 1
                counts["failures"] += outcome == "failure"
    else:  # e.g. a --classes sweep record: it has verdicts per class count, not per-property evidence
        raise ValueError(f"{path}: not a verify JSON report record (no 'properties' and no 'error')")
    for key in ("tests", "failures", "errors", "skipped"):  # attributes after children: set in fixed order
        suite.set(key, str(counts[key]))
    return counts


def to_junit(records: list[dict]) -> str:
    """JUnit XML text (UTF-8, deterministic: no timestamps or durations) for a list of JSON report records."""
    if isinstance(records, dict):  # the CLI prints a bare object for a single spec
        records = [records]
    root = ET.Element("testsuites", {"name": "verify"})
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for record in records:
        for key, value in _suite(root, record).items():
            totals[key] += value
    for key, value in totals.items():
        root.set(key, str(value))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
