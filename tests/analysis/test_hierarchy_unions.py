"""Unions of at most c nodes of a hierarchy (issue 41, item 6): `predictions: {hierarchy: TREE, unions: c}`.

The family is every union of at most c nodes of the tree, its leaves (the classes) included: checked against a
brute force written here, c = 1 is the hierarchy itself, a bad or too large c is a located error (exit 2),
`verify decide` chooses among the unions exactly as a brute force over the family's rows, and `verify design`
writes the family back with its `unions`.
"""

from __future__ import annotations

import io
import itertools
import json
import os
from fractions import Fraction
from pathlib import Path

import pytest

from verifier.analysis.pipeline import analyse
from verifier.cli import check
from verifier.spec import spec_from_text
from verifier.using.decide import decide

ANIMALS = Path(__file__).resolve().parents[2] / "specs" / "hierarchy-animals.yaml"
TREE = "{left: {ab: [a, b], c: null}, right: [d, {ef: [e, f]}]}"


def _spec(c, tree: str = TREE) -> str:
    return (f"name: t\nclasses: [a, b, c, d, e, f]\ncost: '0 if y == yhat else 1'\n"
            f"set_cost: '(0 if y in Y else 1) + 0.15 * (len(Y) - 1)'\n"
            f"predictions: {{hierarchy: {tree}, unions: {c}}}\n")


def _brute(nodes: list[frozenset], K: int, c: int) -> set[frozenset]:
    every = nodes + [frozenset((y,)) for y in range(K)]
    return {frozenset().union(*chosen) for i in range(1, c + 1) for chosen in itertools.combinations(every, i)
            if len(frozenset().union(*chosen)) > 1}


@pytest.mark.parametrize("c", [1, 2, 3, 6])
def test_the_family_is_every_union_of_at_most_c_nodes(c):
    tree = spec_from_text(_spec(1), "t.yaml").predictions
    family = spec_from_text(_spec(c), "t.yaml").predictions
    want = _brute([frozenset(m) for m in tree.listed_sets], 6, c)
    assert {frozenset(m) for m in family.listed_sets} == want
    assert list(family.listed_sets) == sorted(family.listed_sets, key=lambda m: (len(m), m))
    if c == 1:
        assert family == tree
    else:
        assert family.node_name((0, 1)) == "ab" and family.record(6)["unions"] == c
        assert f"unions of at most {c} nodes" in family.describe(6)


@pytest.mark.parametrize("value, expected", [("0", "an integer from 1 to 6"), ("yes", "an integer from 1 to 6"),
                                             ("7", "an integer from 1 to 6")])
def test_a_bad_union_count_is_a_located_error(tmp_path, value, expected):
    path = tmp_path / "bad.yaml"
    path.write_text(_spec(value), encoding="utf-8")
    err = io.StringIO()
    assert check([str(path), "--no-cache"], io.StringIO(), err) == 2
    message = err.getvalue()
    assert "bad.yaml:5:" in message and "predictions.unions" in message and expected in message
    assert "Traceback" not in message and sorted(os.listdir(tmp_path)) == ["bad.yaml"]


def test_too_many_unions_are_refused_before_they_are_made(tmp_path):
    leaves = ", ".join(f"c{i}" for i in range(400))
    path = tmp_path / "wide.yaml"
    path.write_text(f"name: wide\nclasses: [{leaves}]\ncost: '0 if y == yhat else 1'\nset_cost: '0.5'\n"
                    f"predictions: {{hierarchy: [{leaves}], unions: 3}}\n", encoding="utf-8")
    err = io.StringIO()
    assert check([str(path), "--no-cache"], io.StringIO(), err) == 2
    assert "predictions.unions" in err.getvalue() and "choices to look at" in err.getvalue()
    assert sorted(os.listdir(tmp_path)) == ["wide.yaml"]


def test_decide_over_unions_is_the_brute_force_over_the_family():
    spec = spec_from_text(_spec(2), "t.yaml")
    scheme = analyse(spec, 20000, optimality=False).scheme
    for p in ([Fraction(1, 2), 0, 0, Fraction(1, 2), 0, 0], [Fraction(2, 5), Fraction(1, 5), 0, 0, Fraction(2, 5), 0],
              [Fraction(1, 6)] * 6):
        d = decide(scheme, p)
        costs = {m: sum(Fraction(str(v)) * q for v, q in zip(scheme.rows[m], p)) for m in scheme.all_sets}
        low = min(costs.values())
        assert costs[d.prediction] == low and set(d.optimal) == {m for m, v in costs.items() if v == low}
    assert any(len(m) == 2 and m not in {frozenset({0, 1}), frozenset({4, 5})} for m in scheme.all_sets)


def test_the_animals_with_unions_of_two_nodes_check_and_write_back(tmp_path):
    text = ANIMALS.read_text(encoding="utf-8").replace("predictions:\n  hierarchy:",
                                                      "predictions:\n  unions: 2\n  hierarchy:")
    path = tmp_path / "animals-2.yaml"
    path.write_text(text, encoding="utf-8")
    out = io.StringIO()
    assert check([str(path), "--format", "json", "--no-cache"], out, io.StringIO()) in (0, 1)
    record = json.loads(out.getvalue())
    assert record["predictions"] == {"family": "hierarchy", "indeterminate_sets": 60, "unions": 2}
    nodes = {tuple(e["Y"]): e["node"] for e in record["possibility"]}
    assert nodes[("sparrow", "eagle")] == "birds" and nodes[("cat", "sparrow")] is None
    spec = spec_from_text(text, "a.yaml")
    (line,) = spec.predictions.spec_lines(spec.classes)
    assert line.endswith(", unions: 2}") and '"birds": ["sparrow", "eagle"]' in line
    again = spec_from_text(text.replace(text[text.index("predictions:"):text.index("setting:")], line + "\n"), "b.yaml")
    assert again.predictions == spec.predictions
    assert sorted(os.listdir(tmp_path)) == ["animals-2.yaml"]
