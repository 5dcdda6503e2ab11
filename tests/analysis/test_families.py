"""Restricted prediction families (`predictions:`, DESIGN.md §7): reading, verdicts, decisions, scores, design.

The verdicts over a family are compared with a brute force straight from the §2 table restricted to the
family's sets (`test_brute_force.brute_verdicts`, Fractions, nothing from verifier), P1 with an exact rational
LP per allowed set; decisions with the argmin over the allowed rows in Fractions. `predictions: all` and an
explicit list of every set give today's answers exactly.
"""

from __future__ import annotations

import io
import itertools
import json
import random
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import verifier.engines.vector.decide as vector_decide
from verifier.analysis.pipeline import analyse
from verifier.cli import check
from verifier.errors import SpecError
from verifier.spec import spec_from_data, spec_from_text
from verifier.spec.family import Family
from verifier.verdict import Truth

from brute_force import brute_verdicts, lp_possible
from conftest import SPECS as SPEC_DIR

SPECS = Path(SPEC_DIR)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
VALUES = [F(0), F(1, 2), F(1), F(3, 2), F(2), F(3)]


def names(K):
    return [f"c{i}" for i in range(K)]


@st.composite
def families(draw):
    K = draw(st.integers(3, 6))
    kind = draw(st.sampled_from(["intervals", "max_size", "hierarchy", "sets"]))
    if kind == "intervals":
        return K, "intervals"
    if kind == "max_size":
        return K, {"max_size": draw(st.integers(2, K))}
    if kind == "hierarchy":  # two or three groups of consecutive classes
        cut = sorted(draw(st.sets(st.integers(1, K - 1), min_size=1, max_size=2)))
        bounds = [0, *cut, K]
        tree = {f"g{i}": names(K)[a:b] for i, (a, b) in enumerate(zip(bounds, bounds[1:]))}
        return K, {"hierarchy": tree}
    every = [c for n in range(2, K + 1) for c in itertools.combinations(range(K), n)]
    chosen = draw(st.lists(st.sampled_from(every), min_size=1, max_size=6, unique=True))
    return K, {"sets": [[names(K)[i] for i in c] for c in chosen]}


@st.composite
def schemes(draw):
    """(K, family, det, rows over the family's sets): set entries free or exactly the mean, min or max."""
    K, family = draw(families())
    det = [[F(0) if h == y else draw(st.sampled_from(VALUES[1:])) for y in range(K)] for h in range(K)]
    sets = [frozenset(c) for c in spec_family(K, family).indeterminate(K)]
    rows = {}
    for Y in sets:
        row = []
        for y in range(K):
            col = [det[h][y] for h in sorted(Y)]
            how = draw(st.sampled_from(["free", "mean", "half", "min", "max"]))
            row.append(draw(st.sampled_from(VALUES)) if how == "free" else
                       {"mean": sum(col) / len(col), "half": sum(col) / len(col) / 2, "min": min(col),
                        "max": max(col)}[how])
        rows[Y] = row
    return K, family, det, rows


def spec_family(K, family) -> Family:
    return spec_from_data(_data(K, family, [[0] * K for _ in range(K)], None)).predictions


def _data(K, family, det, rows):
    n = names(K)
    data = {"name": "family", "classes": n, "predictions": family,
            "cost_matrix": {n[h]: [str(v) for v in det[h]] for h in range(K)}}
    if rows is None:
        data["set_cost"] = "min([c(yh, y) for yh in Y])"
    else:
        data["set_costs"] = {",".join(n[i] for i in sorted(Y)): [str(v) for v in row] for Y, row in rows.items()}
    return data


@SETTINGS
@given(schemes())
def test_family_verdicts_match_brute_force_over_the_family(data):
    K, family, det, rows = data
    a = analyse(spec_from_data(_data(K, family, det, rows)))
    assert [m for m in a.scheme.indeterminate_sets] == list(rows)  # the family's rows, in table order
    got = {pid: a.by_id[pid].verdict.value for pid in brute_verdicts(K, det, rows)}
    assert got == brute_verdicts(K, det, rows)
    possible = {Y: lp_possible(K, det, row, Y) for Y, row in rows.items()}
    assert {e.members: e.status is Truth.TRUE for e in a.possibility} == possible
    assert a.by_id["P1"].verdict.value == ("holds" if any(possible.values()) else "fails")


@SETTINGS
@given(schemes(), st.lists(st.integers(0, 20), min_size=6, max_size=6))
def test_optimal_sets_and_decisions_minimise_over_the_family(data, weights):
    K, family, det, rows = data
    spec = spec_from_data(_data(K, family, det, rows))
    a = analyse(spec)
    table = {frozenset((h,)): det[h] for h in range(K)} | rows
    assert set(a.optimality) == set(table)  # `optimal` is among the allowed sets only
    p = [F(w + 1) for w in weights[:K]]
    p = [x / sum(p) for x in p]
    expected = {Y: sum(x * c for x, c in zip(p, row)) for Y, row in table.items()}
    best = min(expected.values())
    from verifier.using.decide import decide

    d = decide(a.scheme, p)
    assert set(d.optimal) == {Y for Y, v in expected.items() if v == best}


@pytest.mark.parametrize("family", ["intervals", {"max_size": 3}, {"sets": [["c0", "c2"], ["c1", "c2", "c3"]]}])
def test_pairs_by_groups_agree_with_the_dense_grid(family, monkeypatch):
    # P5, P8, P9 decided by group sizes (large families) against the S x K x K grid, on irrational cells too
    rng = random.Random(7)
    for _ in range(8):
        K = rng.randint(4, 7)
        det = [[F(0) if h == y else F(rng.randint(1, 4)) for y in range(K)] for h in range(K)]
        formula = rng.choice(["genmean(1/2, [c(yh, y) for yh in Y])", "min([c(yh, y) for yh in Y]) if y in Y "
                              "else max([c(yh, y) for yh in Y])", "sqrt(sum([c(yh, y) for yh in Y]))",
                              "rank(y) / len(Y) if y in Y else 1"])
        data = _data(K, family, det, None) | {"set_cost": formula}
        answers = []
        for limit in (10**12, -1):
            monkeypatch.setattr(vector_decide, "PAIRS_GRID_LIMIT", limit)
            a = analyse(spec_from_data(data))
            answers.append([(r.property.id, r.verdict.value, r.evidence.instances, str(r.evidence.binding))
                            for r in a.results])
        assert answers[0] == answers[1], formula


def test_all_and_a_list_of_every_set_give_todays_answers():
    text = (SPECS / "obstacle-p-discounted-cautious.yaml").read_text()
    base = analyse(spec_from_text(text))
    every = ", ".join("[" + ", ".join(c) + "]" for n in (2, 3) for c in itertools.combinations("hbn", n))
    for extra in ("predictions: all\n", f"predictions: {{sets: [{every}]}}\n", "predictions: {max_size: 3}\n"):
        other = analyse(spec_from_text(text + extra))
        assert [(r.verdict, r.evidence.instances, str(r.evidence.binding)) for r in other.results] == \
            [(r.verdict, r.evidence.instances, str(r.evidence.binding)) for r in base.results]
        assert {m: e.status for m, e in other.optimality.items()} == {m: e.status for m, e in base.optimality.items()}


def test_families_enumerate_their_own_sets():
    assert Family("intervals").count(100) == 4950 == len(Family("intervals").indeterminate(100))
    assert Family("max_size", max_size=2).count(200) == 19900
    assert Family("intervals").indeterminate(4) == [(0, 1), (1, 2), (2, 3), (0, 1, 2), (1, 2, 3), (0, 1, 2, 3)]
    tree = spec_from_text("name: t\nclasses: [a, b, c, d, e]\ncost: '0 if y == yhat else 1'\n"
                          "set_cost: 'min([c(yh, y) for yh in Y])'\n"
                          "predictions: {hierarchy: {x: [a, b], y: {z: [c, d], w: e}}}\n").predictions
    assert tree.indeterminate(5) == [(0, 1), (2, 3), (2, 3, 4), (0, 1, 2, 3, 4)]
    assert tree.node_name((2, 3)) == "z"


BASE = "name: t\nclasses: [a, b, c, d]\ncost: '0 if y == yhat else 1'\nset_cost: 'min([c(yh, y) for yh in Y])'\n"


@pytest.mark.parametrize("text, key, words", [
    ("predictions: intervalls\n", "predictions", "did you mean 'intervals'"),
    ("predictions: {max_size: 9}\n", "predictions.max_size", "from 2 to 4"),
    ("predictions: {max_size: 1}\n", "predictions.max_size", "from 2 to 4"),
    ("predictions: {max_size: true}\n", "predictions.max_size", "whole number"),
    ("predictions: {hierarchy: {x: [a, b], y: [c]}}\n", "predictions.hierarchy", "d are not leaves"),
    ("predictions: {hierarchy: {x: [a, b], y: [c, d, e]}}\n", "predictions.hierarchy.y[2]", "unknown class 'e'"),
    ("predictions: {hierarchy: {x: [a, b], y: [c, d, a]}}\n", "predictions.hierarchy.y[2]", "appears twice"),
    ("predictions: {sets: [[a, e]]}\n", "predictions.sets[0]", "unknown class"),
    ("predictions: {sets: [[a, b], 'b,a']}\n", "predictions.sets[1]", "listed twice"),
    ("predictions: {sets: [[a, a]]}\n", "predictions.sets[0]", "repeated"),
    ("predictions: {sets: [[a, b], []]}\n", "predictions.sets[1]", "a listed set is empty"),
    ("predictions: {pairs: 2}\n", "predictions.pairs", "unknown prediction family"),
    ("predictions: intervals\nset_costs: {'a,c': [1, 1, 1, 1]}\n", "set_costs.a,c", "not in the prediction family"),
])
def test_bad_families_are_located_errors(text, key, words):
    with pytest.raises(SpecError) as info:
        spec_from_text(BASE + text, "fam.yaml")
    problems = info.value.problems
    assert any(p.key == key and words in str(p) for p in problems), [str(p) for p in problems]
    assert all(p.file == "fam.yaml" for p in problems)


def test_more_than_64_classes_need_a_family():
    with pytest.raises(SpecError, match="up to 1,000 with a restricted"):
        spec_from_text("name: t\nclasses: 65\ncost: '0 if y == yhat else 1'\n")
    spec = spec_from_text("name: t\nclasses: 200\ncost: '0 if y == yhat else 1'\npredictions: {max_size: 2}\n"
                          "set_cost: '1/2 if y in Y else 1'\n")
    assert spec.predictions.count(200) == 19900
    with pytest.raises(SpecError, match="sets of 1001|from 2 to 1,000"):
        spec_from_text("name: t\nclasses: 1001\ncost: '0 if y == yhat else 1'\npredictions: intervals\n")


def test_reports_name_the_family_and_all_says_nothing_new():
    out = io.StringIO()
    assert check([str(SPECS / "hierarchy-animals.yaml"), "--format", "json", "--no-cache"], out, io.StringIO()) == 0
    record = json.loads(out.getvalue())
    assert record["predictions"] == {"family": "hierarchy", "indeterminate_sets": 4}
    assert [row["Y"] for row in record["matrix"]][9:] == [["sparrow", "eagle"], ["cat", "dog", "horse"],
                                                         ["salmon", "trout", "shark", "eel"], record["classes"]]
    out = io.StringIO()
    check([str(SPECS / "hierarchy-animals.yaml"), "--no-cache"], out, io.StringIO())
    assert "predictions: the nodes of the class hierarchy: 4 indeterminate sets" in " ".join(out.getvalue().split())
    out = io.StringIO()
    check([str(SPECS / "table-vi.yaml"), "--format", "json", "--no-cache"], out, io.StringIO())
    assert "predictions" not in json.loads(out.getvalue())


def test_evaluate_refuses_a_prediction_outside_the_family(tmp_path):
    pred = tmp_path / "pred.csv"
    pred.write_text('true,predicted\ncat,"cat,dog,horse"\neel,"salmon,eel"\n')
    err = io.StringIO()
    assert check(["evaluate", str(SPECS / "hierarchy-animals.yaml"), str(pred)], io.StringIO(), err) == 2
    assert f"{pred}:3: classifier predicts {{salmon, eel}}, which is not an allowed prediction" in err.getvalue()
    pred.write_text('true,predicted\ncat,"cat,dog,horse"\neel,"salmon,trout,shark,eel"\n')
    out = io.StringIO()
    assert check(["evaluate", str(SPECS / "hierarchy-animals.yaml"), str(pred), "--format", "json"], out,
                 io.StringIO()) == 0
    assert json.loads(out.getvalue())["scores"][0]["n"] == 2


def test_decide_picks_the_best_allowed_set():
    out = io.StringIO()
    assert check(["decide", str(SPECS / "hierarchy-animals.yaml"), "--p", "cat=0.4,dog=0.35,sparrow=0.25",
                  "--format", "json"], out, io.StringIO()) == 0
    # {cat, dog} would be cheaper, but only the nodes are allowed: the mammals node or the root
    assert json.loads(out.getvalue())["prediction"] in (["cat", "dog", "horse"], ["cat"])


def test_batch_decisions_over_intervals_equal_one_by_one(tmp_path):
    rng = np.random.default_rng(3)
    spec = spec_from_text((SPECS / "ordinal-intervals-10.yaml").read_text())
    a = analyse(spec)
    from verifier.using.decide import decide
    from verifier.using.decide.batch import decide_batch

    rows = [[F(int(x), 1000) for x in r] for r in rng.multinomial(1000, [0.1] * 10, size=40)]
    batch = decide_batch(a.scheme, rows)
    assert batch.predictions == [decide(a.scheme, r).prediction for r in rows]
    assert all(len(m) == 1 or max(m) - min(m) == len(m) - 1 for m in batch.predictions)  # intervals only


def test_design_completes_the_allowed_rows_only(tmp_path):
    from verifier.designing import make_request
    from verifier.designing.complete import complete

    spec = spec_from_text("name: five ordered\nclasses: 5\ncost: 'abs(rank(yhat) - rank(y))'\n"
                          "predictions: intervals\n", "five.yaml", open_cells=True)
    done = complete(spec, make_request("choice"), ranges=False)
    assert done.feasible
    assert len(done.problem.cells) == 10 * 5  # 10 intervals of two classes or more, not 26 sets
    designed = spec_from_text(done.text)
    assert designed.predictions.kind == "intervals"
    assert done.check.settings["choice"].fits


def test_credal_rules_on_a_family_never_crash_and_say_when_the_classes_are_not_allowed():
    bounds = "cat=0.3:0.5,sparrow=0.3:0.5,dog=0:0.2,eagle=0:0.2,salmon=0:0.1"
    out = io.StringIO()
    assert check(["decide", str(SPECS / "hierarchy-animals.yaml"), "--intervals", bounds, "--format", "json"], out,
                 io.StringIO()) == 0
    record = json.loads(out.getvalue())
    assert record["in_family"] is False and record["expected_costs"] == {}
    out = io.StringIO()
    assert check(["decide", str(SPECS / "hierarchy-animals.yaml"), "--intervals", bounds, "--rule", "gamma-maximin",
                  "--format", "json"], out, io.StringIO()) == 0
    record = json.loads(out.getvalue())
    assert record["in_family"] is True and len(record["expected_costs"]) == 13  # the 9 classes and 4 nodes


def test_cross_check_skips_what_is_beyond_its_budget_and_says_so():
    out = io.StringIO()
    assert check(["--cross-check", "--format", "json", "--no-cache",
                  str(SPECS / "large" / "ordinal-intervals-100.yaml")], out,
                 io.StringIO()) == 0
    notes = {c["property"]: c["note"] for c in json.loads(out.getvalue())["cross_check"]}
    assert notes["P1"].startswith("skipped: 100 classes") and "beyond the brute force's budget" in notes["P5"]


def test_the_100_class_interval_spec_keeps_its_pinned_verdicts():
    # specs/large/ (not in `verify specs/`, whose reports are committed): 4,950 intervals, 505,000 cells
    out = io.StringIO()
    assert check([str(SPECS / "large" / "ordinal-intervals-100.yaml"), "--format", "json", "--no-cache"], out,
                 io.StringIO()) == 0
    record = json.loads(out.getvalue())
    assert "".join(v["verdict"][0].upper() for v in record["properties"].values()) == "HHHHHFHFHH"
    assert record["expectations_met"] and record["predictions"]["indeterminate_sets"] == 4950
    assert record["properties"]["P6"]["counterexample"]["Y"] == ["1", "2"]
    assert (record["settings"]["filtering"]["fits"], record["settings"]["choice"]["fits"]) == (False, True)
    # issue 41, item 4: which intervals can be the unique best prediction (beyond 1,023 sets, batch by batch)
    statuses = [entry["status"] for entry in record["optimality"]]
    assert len(statuses) == 5050 and set(statuses) == {"alone"}  # every interval, singletons included
    widest = next(e for e in record["optimality"] if len(e["Y"]) == 100)
    assert widest["witness"]["margin_is_lower_bound"] is True and widest["witness"]["margin_decimal"] > 0


def test_exact_refuses_a_family_beyond_its_cells_as_a_usage_error():
    err = io.StringIO()
    assert check([str(SPECS / "large" / "ordinal-intervals-100.yaml"), "--exact", "--no-cache"], io.StringIO(),
                 err) == 2
    assert "--exact) is limited to 49,140 cells" in err.getvalue()


def test_pairs_the_groups_cannot_separate_go_to_the_grid_or_say_unknown(monkeypatch):
    # log(3) and log(27)/3 are the same number written twice: enclosures overlap, no lemma applies
    text = ("name: ties\nclasses: 4\ncost: '0 if y == yhat else 1'\npredictions: intervals\n"
            "set_cost: '(log(3) if rank(y) == 1 else log(27) / 3) if y in Y else 1'\n")
    monkeypatch.setattr(vector_decide, "PAIRS_GRID_LIMIT", -1)
    a = analyse(spec_from_text(text))
    assert a.by_id["P8"].verdict.value == "holds"  # the grid decided the ties exactly, one by one
    monkeypatch.setattr(vector_decide, "DENSE_GRID_MAX", 0)
    a = analyse(spec_from_text(text))
    p8 = a.by_id["P8"]
    assert p8.verdict.value == "unknown" and "too close for certified enclosures" in p8.reason
