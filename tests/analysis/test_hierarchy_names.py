"""Nodes by name (issue 41, item 5): over a hierarchy, reports, JSON and `verify decide` name the node (`birds`)
beside its classes, and `verify design` writes a hierarchy back as a hierarchy, with its names.

JSON only gains fields (`node`, `prediction_node`, `nodes`): `Y`, `prediction` and the rest keep their meaning
(DESIGN.md §4). Each test runs the command on a file and checks that nothing outside tmp_path changed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import verifier
from verifier.spec import spec_from_text

ANIMALS = Path(__file__).resolve().parents[2] / "specs" / "hierarchy-animals.yaml"
TREES = [
    "[[a, b], [c, [d, e]], f]",
    "{top: {x: [a, b], y: [[c, d], e], f: null}}",
    "{g: [a, [b, c]], h: [d, e, f]}",
    "{left: {ab: [a, b], c: null}, right: [d, {ef: [e, f]}]}",
]


def test_the_check_report_names_each_node_beside_its_classes(cli):
    code, text, _ = cli(ANIMALS, "-v", "--no-cache")
    assert code == 0
    assert "birds {sparrow, eagle}" in text and "fish {salmon, trout, shark, eel}" in text
    assert "{cat, dog, horse, sparrow, eagle, salmon, trout, shark, eel}" in text  # the unnamed root: classes only
    code, out, _ = cli(ANIMALS, "--format", "json", "--no-cache")
    record = json.loads(out)
    nodes = {tuple(e["Y"]): e["node"] for e in record["possibility"]}
    assert nodes[("sparrow", "eagle")] == "birds" and nodes[("cat", "dog", "horse")] == "mammals"
    assert nodes[tuple(record["classes"])] is None
    assert {tuple(e["Y"]): e["node"] for e in record["optimality"]}[("salmon", "trout", "shark", "eel")] == "fish"
    assert all("node" in row and "Y" in row for row in record["matrix"])  # added beside Y, nothing renamed


def test_a_family_that_is_not_a_hierarchy_gains_no_node_field(cli):
    code, out, _ = cli(ANIMALS.parent / "ordinal-intervals-10.yaml", "--format", "json", "--no-cache")
    record = json.loads(out)
    assert code == 0 and not any("node" in e for e in record["possibility"] + record["matrix"])


def test_decide_names_the_predicted_node(tmp_path, cli):
    p = "cat=0,dog=0,horse=0,sparrow=0.5,eagle=0.5,salmon=0,trout=0,shark=0,eel=0"
    code, out, _ = cli("decide", ANIMALS, "--p", p, "--format", "json")
    record = json.loads(out)
    assert code == 0 and record["prediction"] == ["sparrow", "eagle"] and record["prediction_node"] == "birds"
    code, text, _ = cli("decide", ANIMALS, "--p", p)
    assert code == 0 and "birds {sparrow, eagle}" in text
    rows = tmp_path / "p.csv"
    rows.write_text("cat,dog,horse,sparrow,eagle,salmon,trout,shark,eel\n0,0,0,0.5,0.5,0,0,0,0\n1,0,0,0,0,0,0,0,0\n"
                    "0.3,0.3,0.4,0,0,0,0,0,0\n", encoding="utf-8")
    code, out, _ = cli("decide", ANIMALS, "--p-file", rows, "--format", "json")
    record = json.loads(out)
    assert code == 0 and record["predictions"][0] == ["sparrow", "eagle"]
    assert record["nodes"]["sparrow,eagle"] == "birds" and record["nodes"]["cat"] is None
    assert {e["node"] for e in record["summary"]["predicted_sets"]} >= {"birds"}
    assert sorted(os.listdir(tmp_path)) == ["p.csv"]


@pytest.mark.parametrize("tree", TREES)
def test_a_hierarchy_written_back_reads_as_the_same_tree_with_the_same_names(tree):
    text = (f"name: t\nclasses: [a, b, c, d, e, f]\ncost: '0 if y == yhat else 1'\nset_cost: '0.5'\n"
            f"predictions: {{hierarchy: {tree}}}\n")
    spec = spec_from_text(text, "t.yaml")
    (line,) = spec.predictions.spec_lines(spec.classes)
    assert line.startswith("predictions: {hierarchy: ")
    again = spec_from_text(text.replace(f"predictions: {{hierarchy: {tree}}}", line), "u.yaml")
    assert again.predictions.kind == "hierarchy"
    assert again.predictions.listed_sets == spec.predictions.listed_sets
    assert again.predictions.node_names == spec.predictions.node_names


def test_design_writes_a_hierarchy_back_as_a_hierarchy(tmp_path):
    path = tmp_path / "tree-open.yaml"
    path.write_text("name: tree, to be completed\nclasses: [a, b, c, d]\ncost: '0 if y == yhat else 1'\n"
                    "set_costs:\n  'a,b': [null, null, 1, 1]\n  'c,d': [1, 1, null, null]\n"
                    "  'a,b,c,d': [null, null, null, null]\n"
                    "predictions:\n  hierarchy:\n    left: [a, b]\n    right: [c, d]\n", encoding="utf-8")
    result = verifier.design(str(path), setting="filtering")
    assert result.spec_text, result.record
    assert 'predictions: {hierarchy: {"left": ["a", "b"], "right": ["c", "d"]}}' in result.spec_text
    again = spec_from_text(result.spec_text, "designed.yaml")
    assert again.predictions.node_name((0, 1)) == "left" and again.predictions.node_name((2, 3)) == "right"
    assert sorted(os.listdir(tmp_path)) == ["tree-open.yaml"]
