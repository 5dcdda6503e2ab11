"""JUnit XML from JSON report records: suites, cases, failures for unmet expectations, skipped for `unknown`,
an error for an invalid spec, and well-formed deterministic output."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from verifier import properties
from verifier.cli import check
from verifier.report.check import to_junit

SPECS = Path(__file__).resolve().parents[2] / "specs"
UNMET = ('name: unmet\nclasses: [a, b]\ncost_matrix:\n  a: [0, 1]\n  b: [1, 0]\nset_costs:\n  "a,b": [0.5, 0.5]\n'
         "expect: {P8: holds, P9: holds}\n")  # P9 fails here: c_{a,b} is the same for both members
UNSAT = ('name: unsatisfiable\nclasses: [a, b]\nparameters:\n  d: {}\nassume: ["d > 1", "d < 0"]\n'
         'cost: "0 if yhat == y else 1"\nset_cost: "d"\n')
INVALID = "name: broken\nclasses: [a]\ncost: '0'\n"


def records(*paths) -> list[dict]:
    out, err = io.StringIO(), io.StringIO()
    check(["--format", "json", *map(str, paths)], out, err)
    payload = json.loads(out.getvalue())
    return payload if isinstance(payload, list) else [payload]


@pytest.fixture(scope="module")
def tmp_specs(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("junit")
    paths = {}
    for name, text in (("unmet", UNMET), ("unsat", UNSAT), ("invalid", INVALID)):
        paths[name] = folder / f"{name}.yaml"
        paths[name].write_text(text, encoding="utf-8")
    return paths


@pytest.fixture(scope="module")
def report(tmp_specs) -> tuple[list[dict], str, ET.Element]:
    recs = records(SPECS / "ha-numeric.yaml", SPECS / "ha.yaml", tmp_specs["unmet"], tmp_specs["unsat"],
                   tmp_specs["invalid"])
    text = to_junit(recs)
    return recs, text, ET.fromstring(text.encode("utf-8"))


def suite(root: ET.Element, path) -> ET.Element:
    (found,) = [s for s in root.iter("testsuite") if s.get("name") == f"verify: {path}"]
    return found


def test_structure_and_counts(report):
    recs, _, root = report
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert len(suites) == len(recs) == 5
    for s in suites:
        cases = s.findall("testcase")
        assert int(s.get("tests")) == len(cases)
        assert int(s.get("failures")) == sum(c.find("failure") is not None for c in cases)
        assert int(s.get("errors")) == sum(c.find("error") is not None for c in cases)
        assert int(s.get("skipped")) == sum(c.find("skipped") is not None for c in cases)
    for key in ("tests", "failures", "errors", "skipped"):
        assert int(root.get(key)) == sum(int(s.get(key)) for s in suites)


def test_bundled_specs_pass(report):
    _, _, root = report
    for name in ("ha-numeric.yaml", "ha.yaml"):
        s = suite(root, f"{SPECS / name}")
        cases = s.findall("testcase")
        assert [c.get("name") for c in cases] == [f"{p.id} {p.name}" for p in properties.PROPERTIES]
        assert {c.get("classname") for c in cases} == {str(SPECS / name)}
        assert (s.get("tests"), s.get("failures"), s.get("errors"), s.get("skipped")) == ("10", "0", "0", "0")
        p3 = next(c for c in cases if c.get("name") == "P3 reward rightful cautiousness")
        assert p3.find("system-out").text.startswith("verdict: fails")


def test_unmet_expectation_is_a_failure(report, tmp_specs):
    _, _, root = report
    s = suite(root, tmp_specs["unmet"])
    assert s.get("failures") == "1"
    (failed,) = [c for c in s.findall("testcase") if c.find("failure") is not None]
    assert failed.get("name") == "P9 correctness cost-sensitivity"
    message = failed.find("failure").get("message")
    assert message.startswith("expected holds, got fails: ") and len(message) > len("expected holds, got fails: ")


def test_unknown_verdicts_are_skipped_unless_an_expectation_breaks(report, tmp_specs):
    recs, _, root = report
    (rec,) = [r for r in recs if r["spec"] == str(tmp_specs["unsat"])]
    assert {p["verdict"] for p in rec["properties"].values()} == {"unknown"}
    s = suite(root, tmp_specs["unsat"])
    assert (s.get("tests"), s.get("skipped"), s.get("failures")) == ("10", "10", "0")
    for case in s.findall("testcase"):
        assert case.find("skipped").get("message").startswith("unknown: no parameter value satisfies")
    # the same unknowns with an expectation on P1: that case becomes a failure, not a skip
    rec = json.loads(json.dumps(rec))
    rec["expect"] = {"P1": {"expected": "holds", "actual": "unknown", "met": False}}
    s = ET.fromstring(to_junit([rec])).find("testsuite")
    assert (s.get("skipped"), s.get("failures")) == ("9", "1")
    assert s.find("testcase/failure").get("message").startswith("expected holds, got unknown")


def test_invalid_spec_is_one_error(report, tmp_specs):
    _, _, root = report
    s = suite(root, tmp_specs["invalid"])
    (case,) = s.findall("testcase")
    assert (s.get("tests"), s.get("errors")) == ("1", "1")
    assert case.get("classname") == str(tmp_specs["invalid"])
    assert "class" in case.find("error").get("message")


def test_output_is_deterministic_utf8(report):
    recs, text, _ = report
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>')
    assert to_junit(recs) == text
    assert "timestamp" not in text and "Ŷ" in text  # statements keep their symbols
    ET.fromstring(to_junit([{"spec": "x.yaml", "error": "bad \x01 byte"}]).encode("utf-8"))  # still well-formed


def test_rejects_records_it_cannot_map():
    with pytest.raises(ValueError):
        to_junit([{"spec": "x.yaml", "verdicts": {}}])
