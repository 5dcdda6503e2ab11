"""The spec JSON Schema (verifier/spec/spec.schema.json): valid, accepts every bundled spec, rejects what the loader
rejects for the cases an editor should flag, and stays in step with verifier/spec/model.py and the properties as
data (verifier/properties/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from verifier import properties
from verifier.errors import SpecError
from verifier.spec import TOP_KEYS, load_spec
from verifier.spec.schema import schema, schema_text

SPECS = Path(__file__).resolve().parents[2] / "specs"
BASE = {"name": "t", "classes": ["a", "b"], "cost": "0 if yhat == y else 1", "set_cost": "0.5"}


@pytest.fixture(scope="module")
def validator() -> Draft202012Validator:
    return Draft202012Validator(schema())


def errors(validator, document) -> list[str]:
    return [e.message for e in validator.iter_errors(document)]


def loads(tmp_path: Path, document: dict) -> bool:
    """Does the real loader accept the document? (the ground truth the schema approximates)"""
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(document, allow_unicode=True), encoding="utf-8")
    try:
        load_spec(str(path))
    except SpecError:
        return False
    return True


def test_schema_is_a_valid_2020_12_schema():
    Draft202012Validator.check_schema(schema())
    assert schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema()["$id"] and schema()["title"]


def test_schema_text_round_trips():
    text = schema_text()
    assert json.loads(text) == schema()
    assert text == (Path(__file__).resolve().parents[2] / "verifier" / "spec" / "spec.schema.json").read_text("utf-8")


@pytest.mark.parametrize("path", sorted(SPECS.glob("*.yaml")), ids=lambda p: p.name)
def test_bundled_spec_validates(validator, path):
    assert errors(validator, yaml.safe_load(path.read_text(encoding="utf-8"))) == []


def test_top_level_keys_match_the_loader():
    s = schema()
    assert list(s["properties"]) == list(TOP_KEYS)
    assert s["additionalProperties"] is False
    assert set(s["required"]) == {"name", "classes"}
    for key, sub in s["properties"].items():
        assert sub.get("description") and sub.get("markdownDescription"), key


def test_expect_documents_every_property():
    expect = schema()["properties"]["expect"]["properties"]
    for p in properties.PROPERTIES:
        for key in (p.id, p.name):
            assert p.plain in expect[key]["description"]
            assert p.plain[1:] in expect[key]["markdownDescription"]


def alias_variants(p) -> list[str]:
    n = p.number
    return [p.id, p.id.lower(), str(n), f"property {n}", f"Property_{n}", p.name, p.name.upper(),
            p.name.replace(" ", "_"), p.name.replace(" ", "-"), p.name.replace("-", " "), p.name.replace("-", "_"),
            " " + p.name.title().replace(" ", "__") + " "]


@pytest.mark.parametrize("p", properties.PROPERTIES, ids=lambda p: p.id)
def test_expect_accepts_every_spelling_the_loader_accepts(validator, p):
    for key in alias_variants(p):
        assert properties.resolve(key) == p.id, key  # the spelling really is one the loader knows
        assert errors(validator, {**BASE, "expect": {key: "holds"}}) == [], key


VALID = {
    "integer classes": {**BASE, "classes": 3},
    "expect the certificate to check": {**BASE, "expect": {"certificate": "checks", "P1": "holds"}},
    "numeric class names": {**BASE, "classes": [1, 2, 3]},
    "symbolic parameter written as null": {**BASE, "parameters": {"d": None}, "assume": "d > 0"},
    "per-class value as a mapping": {**BASE, "parameters": {"eta": {"per_class": True, "value": {"a": 1, "b": "2"}}}},
    "per-class value as a list": {**BASE, "parameters": {"eta": {"per_class": True, "value": [1, 0.5]}}},
    "functions and numeric formulas": {**BASE, "functions": {"g(x, y)": "x + y", "h()": 1}, "set_cost": 2},
    "matrix and set rows": {"name": "t", "classes": ["a", "b"], "cost_matrix": {"a": [0, 1], "b": [1, "0"]},
                            "set_costs": {"{a, b}": [0.5, 0.5]}},
}


@pytest.mark.parametrize("document", list(VALID.values()), ids=list(VALID))
def test_valid_variants_accepted(validator, tmp_path, document):
    assert loads(tmp_path, document)
    assert errors(validator, document) == []


INVALID = {
    "unknown top-level key": {**BASE, "colour": "red"},
    "one class": {**BASE, "classes": ["a"]},
    "too many classes": {**BASE, "classes": 65},
    "duplicate class": {**BASE, "classes": ["a", "a"]},
    "class name with a comma": {**BASE, "classes": ["a,b", "c"]},
    "expect value maybe": {**BASE, "expect": {"P1": "maybe"}},
    "expect unknown property": {**BASE, "expect": {"P11": "holds"}},
    "expect a certificate to hold": {**BASE, "expect": {"certificate": "holds"}},
    "setting both": {**BASE, "setting": "both"},
    "missing name": {k: v for k, v in BASE.items() if k != "name"},
    "no costs at all": {"name": "t", "classes": ["a", "b"]},
    "cost and cost_matrix": {**BASE, "cost_matrix": {"a": [0, 1], "b": [1, 0]}},
    "reserved parameter name": {**BASE, "parameters": {"len": {}}},
    "unknown parameter field": {**BASE, "parameters": {"d": {"values": 1}}},
    "per-class value that is a number": {**BASE, "parameters": {"eta": {"per_class": True, "value": 1}}},
    "plain value that is a list": {**BASE, "parameters": {"r": {"value": [1, 2]}}},
    "bad function header": {**BASE, "functions": {"g": "1"}},
    "empty set key": {**BASE, "set_costs": {"a,": [1, 1]}},
    "boolean cost entry": {"name": "t", "classes": ["a", "b"], "cost_matrix": {"a": [0, True], "b": [1, 0]}},
}


@pytest.mark.parametrize("document", list(INVALID.values()), ids=list(INVALID))
def test_invalid_specs_rejected(validator, tmp_path, document):
    assert errors(validator, document), "the schema accepts it"
    assert not loads(tmp_path, document), "the loader accepts it: the schema is stricter than the ground truth"
