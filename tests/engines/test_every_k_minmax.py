"""`verify --classes 2..` with min, max and abs of numbers (not only of a list over Y): exact per size, and in
the tail (every size from 17 on) as z3 If-terms; compared with enumerating every set at K = 2..8, and with the
symmetry route where the verdict changes beyond that."""

from __future__ import annotations

import io
import json
import re

import pytest
import sympy as sp

from verifier.analysis.every_k import analyse_every_k
from verifier.analysis.pipeline import analyse
from verifier.cli import check
from verifier.engines.every_k import FIRST, TAIL
from verifier.formula.by_size import M, SizeEvaluator
from verifier.properties import PROPERTIES
from verifier.spec import spec_from_text

ZERO_ONE = "0 if yhat == y else 1"
SET_COSTS = [
    "min(1, 0.5 * len(Y)) if y not in Y else max(0, 0.6 - 0.1 * len(Y))",
    "max(0.2 * len(Y), 0.5)",
    "(0 if y in Y else 1) + max(0.2 * len(Y), 0.5) - 0.5",
    "(0 if y in Y else 1) + 0.22 * min(len(Y) - 1, 3)",
    "(0 if y in Y else 1) + min(1/3, 6 / len(Y))",
    "(0.9 if y in Y else 1) * max(0.25, 1 - 0.3 * abs(len(Y) - 3))",
    "min([0.7, 0.1 * len(Y), max(c(v, y) for v in Y)]) + (0 if y in Y else 0.5)",
    "abs(len(Y) - 4) / 10 + (0 if y in Y else 1)",
]
WORD = {"true": "holds", "false": "fails", "unknown": "unknown"}


def _spec(set_cost: str, cost: str = ZERO_ONE):
    return spec_from_text(f'name: t\nclasses: 3\ncost: "{cost}"\nset_cost: "{set_cost}"\n')


def _names(K: int) -> tuple[str, ...]:
    return tuple(str(i) for i in range(1, K + 1))


@pytest.fixture(scope="module")
def every_k():
    return {text: analyse_every_k(_spec(text), 2, 20000) for text in SET_COSTS}


@pytest.mark.parametrize("text", SET_COSTS)
def test_every_class_count_agrees_with_enumerating_every_set(text, every_k):
    result = every_k[text]
    assert not result.disagreements, result.disagreements
    for K in range(2, 9):  # every set of every class count, the ordinary fast path
        enumerated = analyse(_spec(text), classes=_names(K), optimality=False)
        full = {r.property.id: r.verdict.value for r in enumerated.results}
        mine = {p.id: WORD[result.by_id(p.id).at(K).value] for p in PROPERTIES}
        assert mine == full, (text, K)
        assert "unknown" not in mine.values(), (text, K)


@pytest.mark.parametrize("text", SET_COSTS)
def test_the_tail_is_decided_for_these_formulas(text, every_k):
    result = every_k[text]
    assert all(e.beyond.value != "unknown" for e in result.every), (text, [e.tail_reasons for e in result.every])


def test_a_min_that_stays_symbolic_in_the_tail_is_decided_by_z3_and_changes_where_the_sets_say():
    text = "(0 if y in Y else 1) + min(1/3, 6 / len(Y))"
    spec = _spec(text)
    evaluator = SizeEvaluator(spec.cost, spec.set_cost, {}, spec.functions)
    tail_cost = evaluator.row(frozenset({FIRST}), TAIL + M, FIRST)
    assert tail_cost.has(sp.Min)  # the tail question reaches z3 with the min as an If-term
    result = analyse_every_k(spec, 2, 20000)
    assert result.by_id("P3").beyond.value == "true"  # c_Y(y) <= 1/3 < the mean, for every size: proved by z3
    # 6 / n < 1/3 from n = 19: the set costs less than its cheapest member (P4), and, with a class outside,
    # less than the members' mean there (P6)
    assert result.first_failure("P4") == 19 and result.first_failure("P6") == 20
    for K in (19, 20):  # re-checked set by set by the symmetry route at the changes
        assert K in result.rechecked
    assert not result.disagreements


def test_the_command_line_answers_for_every_class_count(tmp_path):
    path = tmp_path / "minmax.yaml"
    path.write_text(f'name: t\nclasses: 3\ncost: "{ZERO_ONE}"\nset_cost: "{SET_COSTS[0]}"\n')
    out, err = io.StringIO(), io.StringIO()
    assert check([str(path), "--classes", "2..", "--no-cache", "--format", "json"], out, err) == 0, err.getvalue()
    record = json.loads(out.getvalue())["every_k"]
    assert record["P4"]["runs"] == [{"from": 2, "to": None, "verdict": "fails"}]
    assert record["P7"]["first_failure"] == 3


@pytest.mark.parametrize("set_cost, why", [
    ("min([c(v, y) for v in Y], len(Y))", "min() of something other than one list or numbers"),
    ("max(len(Y), K) / 10", "uses K"),
    ("max([min([c(v, w) for w in Y]) for v in Y])", "inside another one"),
    ("min(1, rank(y))", "rank()"),
])
def test_what_a_size_cannot_follow_is_still_refused_with_a_located_message(set_cost, why, tmp_path):
    path = tmp_path / "spec.yaml"
    path.write_text(f'name: t\nclasses: 3\ncost: "{ZERO_ONE}"\nset_cost: "{set_cost}"\n')
    out, err = io.StringIO(), io.StringIO()
    code = check([str(path), "--classes", "2..", "--no-cache"], out, err)
    assert code == 2 and why in err.getvalue() and "Traceback" not in err.getvalue(), err.getvalue()
    assert re.search(r"spec\.yaml:\d+:\d+: invalid spec at key 'set_cost'", err.getvalue())
