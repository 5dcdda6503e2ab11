"""`verify evaluate` on every family `verify decide` handles (issue 51, item 3), at 100 and 1,000 classes.

Each family kind (intervals, `{max_size: k}`, a hierarchy, explicit sets, every set beyond enumeration) is
evaluated two ways: from probabilities (each row's optimal set decided, then scored), whose sets must be the ones
`verify decide --p-file` answers on the same rows; and from given sets (decide's own, or random ones), whose mean
cost must be what the spec's costs say, recomputed here in Fractions (or sympy surds) from the definition, not
through the tool's routes. Where rows cannot be decided, the refusal is one complete sentence naming the bound
and what works. Sets past the 64th class were KeyErrors (a 64-bit mask per set); `grouped` is pinned to the
order the mask gave below 63 classes. No test here asserts wall-clock time (benchmarks/bench_evaluate_families.py).
"""

from __future__ import annotations

import io
import json
import os
from csv import DictReader
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import verifier
from verifier.api.use.probabilities import decided_predictions
from verifier.api.use.route import use_route
from verifier.lazy_sympy import sympy as sp
from verifier.using.evaluate.scores import grouped
from verifier.using.inputs import Predictions

from conftest import SPECS

U65 = ("functions: {g(x): \"-0.6 * x**2 + 1.6 * x\"}\ncost: \"0 if y == yhat else 1\"\n"
       "set_cost: \"1 - g(1 / len(Y)) if y in Y else 1\"\n")
INTERVALS_100 = os.path.join(SPECS, "large", "ordinal-intervals-100.yaml")
L1_40 = os.path.join(SPECS, "ordinal-l1-40.yaml")


def u65(members, y) -> F:
    if y not in members:
        return F(1)
    x = F(1, len(members))
    return 1 - (F(16, 10) * x - F(6, 10) * x * x)


def _spec(path, K: int, predictions: str | None, costs: str = U65) -> str:
    path.write_text(f"name: u65 over {K} classes\nclasses: {K}\n{costs}"
                    + (f"predictions: {predictions}\n" if predictions else ""), encoding="utf-8")
    return str(path)


def _tree(levels: list[int]) -> str:
    """A balanced hierarchy over classes 1..prod(levels), as YAML flow: groups of groups ... of leaves."""
    leaf = iter(range(1, int(np.prod(levels)) + 1))

    def node(depth: int) -> str:
        if depth == len(levels) - 1:
            return "[" + ", ".join(str(next(leaf)) for _ in range(levels[depth])) + "]"
        return "[" + ", ".join(node(depth + 1) for _ in range(levels[depth])) + "]"

    return "{hierarchy: " + node(0) + "}"


def _rows(tmp_path, K: int, n: int, seed: int = 3):
    """Peaked rows (a few likely classes, as a trained classifier's) and random truths, saved as .npy."""
    rng = np.random.default_rng(seed)
    P = rng.dirichlet(np.full(K, 0.05), size=n)
    P[0] = 0
    P[0, [K - 1, K - 2]] = 0.5  # a tie past the 64th class
    truth = rng.integers(0, K, n)
    truth[:3] = [K - 1, K - 2, 70 % K]
    p, t = tmp_path / f"p{K}.npy", tmp_path / f"t{K}.npy"
    np.save(p, P)
    np.save(t, truth)
    return str(p), str(t), truth


def _csv(path, truth, sets: list[list[str]]) -> str:
    lines = ["true,predicted"] + [f'{y + 1},"{",".join(m)}"' for y, m in zip(truth.tolist(), sets)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def _decided_and_scored(tmp_path, spec: str, K: int, n: int, cost=u65):
    """decide's sets, evaluate's sets from the same probabilities, and both evaluations' scores, checked equal;
    the mean cost recomputed from decide's sets with `cost` in Fractions."""
    p, t, truth = _rows(tmp_path, K, n)
    answered = verifier.decide(spec, p_file=p).record
    sets = answered["predictions"]
    route = use_route(spec, "verify evaluate --probabilities")
    (mine,) = decided_predictions(route, p, None, t)
    assert [[str(c + 1) for c in np.flatnonzero(row)] for row in mine.predictions.masks] == sets
    assert mine.ties == sum(1 for c in answered["tied_optima"] if c > 1)
    from_p = verifier.evaluate(spec, probabilities=p, truth=t).record["scores"][0]
    from_sets = verifier.evaluate(spec, predictions=_csv(tmp_path / "sets.csv", truth, sets)).record["scores"][0]
    for key in ("n", "mean_cost", "determinacy", "mean_set_size", "set_accuracy", "u65", "u80"):
        assert from_p[key] == from_sets[key], key
    expected = sum((cost([int(c) - 1 for c in m], int(y)) for m, y in zip(sets, truth.tolist())), F(0)) / n
    assert F(from_p["mean_cost"]) == expected
    return answered, from_p


@pytest.mark.parametrize("kind", ["max_size", "hierarchy", "intervals", "sets"])  # every set: at most 64 classes
def test_at_a_hundred_classes_evaluate_decides_as_decide_and_scores_as_the_costs_say(tmp_path, kind):
    rng = np.random.default_rng(11)
    listed = [sorted(rng.choice(100, size=int(rng.integers(2, 6)), replace=False).tolist()) for _ in range(40)]
    listed += [[63, 64, 99], list(range(60, 100))]
    family = {"max_size": "{max_size: 3}", "hierarchy": _tree([10, 10]), "intervals": "intervals",
              "sets": "{sets: [" + ", ".join("[" + ", ".join(str(c + 1) for c in m) + "]" for m in listed) + "]}"}[kind]
    spec = _spec(tmp_path / "u65.yaml", 100, family)
    answered, _ = _decided_and_scored(tmp_path, spec, 100, 60)
    # row 0 is 1/2 on classes 99 and 100: the pair costs 0.35, each alone 0.5, and tie where the pair is not allowed
    pair = kind in ("max_size", "intervals")
    assert (answered["predictions"][0], answered["tied_optima"][0]) == ((["99", "100"], 1) if pair else (["99"], 2))


LINEAR = "cost: \"0 if y == yhat else 1\"\nset_cost: \"len(Y) / 50 if y in Y else 1\"\n"


def linear(members, y) -> F:
    """|Y|/50 when y ∈ Y, else 1: alike, with small denominators (u65's over every interval of 1,000 classes put
    lcm(1..1000)^2 under the arrays' cells, which then hold enclosures, and no route proves them alike)."""
    return F(len(members), 50) if y in members else F(1)


@pytest.mark.parametrize("kind", ["max_size", "hierarchy", "intervals"])
def test_at_a_thousand_classes_evaluate_decides_as_decide_and_scores_as_the_costs_say(tmp_path, kind):
    family = {"max_size": "{max_size: 5}", "hierarchy": _tree([10, 10, 10]), "intervals": "intervals"}[kind]
    costs = U65 if kind != "intervals" else LINEAR
    spec = _spec(tmp_path / "alike.yaml", 1000, family, costs)
    answered, _ = _decided_and_scored(tmp_path, spec, 1000, 200, u65 if kind != "intervals" else linear)
    assert answered["route"] == {"max_size": "symmetric"}.get(kind, kind)  # never the family's matrix


def test_the_issue_s_intervals_with_singletons_past_the_64th_class_score_zero():
    truth = np.arange(0, 100, 2)
    masks = np.zeros((50, 100), dtype=bool)
    masks[np.arange(50), truth] = True
    record = verifier.evaluate(INTERVALS_100, [str(y + 1) for y in truth], masks).record["scores"][0]
    assert (record["n"], record["mean_cost"], record["determinacy"], record["set_accuracy"]) == (50, "0", "1", "1")


def test_given_intervals_of_a_hundred_classes_cost_their_power_means(tmp_path):
    """Irrational cells, each compared with M_(1/2) of the members' |i - j| computed here."""
    rng = np.random.default_rng(5)
    rows, truth = [], []
    for _ in range(40):
        first = int(rng.integers(0, 100))
        last = int(rng.integers(first, min(100, first + 8)))
        rows.append([str(c + 1) for c in range(first, last + 1)])
        truth.append(int(rng.integers(0, 100)))
    rows[0], truth[0] = [str(c) for c in range(60, 71)], 99
    record = verifier.evaluate(INTERVALS_100, predictions=_csv(tmp_path / "i.csv", np.array(truth), rows)).record
    expected = sp.Integer(0)
    for m, y in zip(rows, truth):
        d = [abs(int(c) - 1 - y) for c in m]
        expected += sp.Integer(d[0]) if len(d) == 1 else (sum(sp.sqrt(x) for x in d) / len(d)) ** 2
    mean = sp.sympify(record["scores"][0]["mean_cost"])
    assert abs(sp.N(mean - expected / 40, 60)) < sp.Float("1e-50")


def test_beyond_enumeration_given_sets_are_scored_and_rows_refused_in_one_sentence(tmp_path, cli):
    """ordinal-l1-40: 2^40 - 1 sets, not alike. Given sets cost what the power mean says; rows of probabilities
    are refused by evaluate and decide alike, naming the bound and what works."""
    rng = np.random.default_rng(8)
    sets = [sorted(rng.choice(40, size=int(rng.integers(1, 5)), replace=False).tolist()) for _ in range(30)]
    truth = rng.integers(0, 40, 30)
    csv = _csv(tmp_path / "l1.csv", truth, [[str(c + 1) for c in m] for m in sets])
    code, out, err = cli("evaluate", L1_40, csv, "--format", "json")
    assert code == 0, err
    mean = sp.sympify(json.loads(out)["scores"][0]["mean_cost"])
    expected = sum(((sum(sp.sqrt(abs(c - int(y))) for c in m) / len(m)) ** 2 for m, y in zip(sets, truth)),
                   sp.Integer(0)) / 30
    assert abs(sp.N(mean - expected, 60)) < sp.Float("1e-50")
    np.save(tmp_path / "p.npy", np.full((2, 40), 1 / 40))
    np.save(tmp_path / "t.npy", np.array([0, 1]))
    for argv in (["evaluate", L1_40, "--probabilities", str(tmp_path / "p.npy"), "--truth", str(tmp_path / "t.npy")],
                 ["decide", L1_40, "--p-file", str(tmp_path / "p.npy")]):
        code, out, err = cli(*argv)
        assert code == 2 and out == "" and "Traceback" not in err, err
        assert f"{L1_40} has 40 classes (1,099,511,627,775 sets), beyond the 16 classes whose sets are " \
            "enumerated, and its costs do not treat every class alike" in err
        assert "restrict its predictions to a family" in err and "verify evaluate SPEC PREDICTIONS" in err
        assert err.rstrip().endswith("the costs of the predicted sets only."), err


def test_beyond_enumeration_costs_that_treat_classes_alike_are_decided_and_scored(tmp_path, cli):
    """u65 over all 2^40 - 1 sets: decide --p-file and evaluate decide by a sort per row (the best set of each
    size is the likeliest classes), checked against that rule in Fractions; --p says to use --p-file."""
    spec = _spec(tmp_path / "u65.yaml", 40, None)
    answered, _ = _decided_and_scored(tmp_path, spec, 40, 50)
    P = np.load(tmp_path / "p40.npy")
    for row, predicted in zip(P.tolist(), answered["predictions"]):
        p = [F(x) for x in row]
        order = sorted(range(40), key=lambda c: (-p[c], c))
        values = [sum(u65(order[:k], y) * p[y] for y in range(40)) for k in range(1, 41)]
        k = values.index(min(values)) + 1
        assert sorted(predicted, key=int) == sorted((str(c + 1) for c in order[:k]), key=int)
    code, _, err = cli("decide", spec, "--p", "1=1")
    assert code == 2 and "its costs treat every class alike, which --p-file decides by a sort per row" in err
    assert "verify decide SPEC --p-file FILE (a file of one row will do)" in err, err


def test_a_family_beyond_its_bounds_scores_given_sets_and_refuses_rows_located(tmp_path, cli):
    """Intervals of 1,000 classes with costs that single out classes (500,500 sets: beyond the matrix's bounds):
    given sets are scored from their own rows (the mean of l1 costs, in Fractions here); rows are refused at the
    spec's `predictions` key, naming the bound and what works."""
    costs = "cost: \"abs(rank(yhat) - rank(y))\"\nset_cost: \"sum([c(yh, y) for yh in Y]) / len(Y)\"\n"
    spec = _spec(tmp_path / "l1.yaml", 1000, "intervals", costs)
    rng = np.random.default_rng(2)
    sets, truth = [], rng.integers(0, 1000, 25)
    for _ in range(25):
        first = int(rng.integers(0, 990))
        sets.append(list(range(first, first + int(rng.integers(1, 10)))))
    csv = _csv(tmp_path / "i.csv", truth, [[str(c + 1) for c in m] for m in sets])
    record = verifier.evaluate(spec, predictions=csv).record["scores"][0]
    expected = sum((F(sum(abs(c - int(y)) for c in m), len(m)) for m, y in zip(sets, truth)), F(0)) / 25
    assert F(record["mean_cost"]) == expected
    p, t, _ = _rows(tmp_path, 1000, 3)
    code, out, err = cli("evaluate", spec, "--probabilities", p, "--truth", t)
    assert code == 2 and out == "" and f"{spec}:5:" in err and "key 'predictions'" in err, err
    assert "500,500 sets of 1000 classes" in err and "verify evaluate scores set predictions given in a file" in err


def test_a_set_outside_a_family_beyond_its_bounds_is_refused_by_its_line(tmp_path, cli):
    spec = _spec(tmp_path / "top5.yaml", 1000, "{max_size: 5}")
    csv = _csv(tmp_path / "p.csv", np.array([0, 1]), [["1"], [str(c) for c in range(990, 997)]])
    code, out, err = cli("evaluate", spec, csv)
    assert code == 2 and f"{csv}:3: classifier predicts {{990, 991, 992, 993, 994, 995, 996}}" in err, err
    assert "its 'predictions' are sets of at most 5 classes" in err


def test_every_measure_at_a_thousand_classes(tmp_path, cli):
    """Two classifiers at {max_size: 5} of 1,000 classes: the paired tests, --certainty (its outcomes are the
    decided sets': a reduced scheme's representatives decided them before), the table and the scorer."""
    spec = _spec(tmp_path / "top5.yaml", 1000, "{max_size: 5}")
    p, t, truth = _rows(tmp_path, 1000, 120)
    q = tmp_path / "q.npy"
    np.save(q, 0.5 * np.load(p) + 0.5 * np.random.default_rng(9).dirichlet(np.full(1000, 0.05), size=120))
    code, out, err = cli("evaluate", spec, "--probabilities", p, "--probabilities", str(q), "--truth", t,
                         "--certainty", "--format", "json")
    assert code == 0, err
    record = json.loads(out)
    assert len(record["comparison"]["pairs"]) == 1
    for scores, certain in zip(record["scores"], record["certainty"]["classifiers"]):
        outcomes = certain["by_outcome"]
        assert F(outcomes["right"]["rows"] + outcomes["wrong"]["rows"], 120) == F(scores["determinacy"])
    code, out, err = cli("evaluate", spec, "--probabilities", p, "--truth", t, "--table", "csv")
    assert code == 0 and out.count("\n") == 2, err

    class Model:
        classes_ = np.arange(1000)

        def predict_proba(self, X):
            return np.load(p)

    negated = verifier.scorer(spec)(Model(), None, truth)
    assert negated == -float(F(record["scores"][0]["mean_cost"]))


def test_one_sweep_beyond_enumeration_reads_the_given_sets_costs(tmp_path):
    path = tmp_path / "sym.yaml"
    path.write_text("name: r over 40 classes\nclasses: 40\nparameters:\n  r: {}\ncost: \"0 if y == yhat else 1\"\n"
                    "set_cost: \"1 - r / len(Y) if y in Y else 1\"\n", encoding="utf-8")
    sets = [[0], [3, 50 % 40], [1, 2, 39], [5, 6]]
    truth = np.array([0, 3, 7, 6])
    csv = _csv(tmp_path / "s.csv", truth, [[str(c + 1) for c in m] for m in sets])
    curve = verifier.evaluate(str(path), predictions=csv, sweep_text="r=0:1:3").sweep.curves[0]
    for r, value in zip((F(0), F(1, 2), F(1)), curve.values):
        exact = sum(((1 - r / len(m)) if int(y) in m else F(1) for m, y in zip(sets, truth)), F(0)) / 4
        assert value == float(exact)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 62), st.integers(1, 40), st.randoms(use_true_random=False))
def test_grouped_orders_cells_as_the_sets_binary_numbers_at_any_size(K, n, rnd):
    truth = np.array([rnd.randrange(K) for _ in range(n)])
    masks = np.array([[rnd.random() < 0.3 for _ in range(K)] for _ in range(n)], dtype=bool).reshape(n, K)
    masks[np.arange(n), truth] = True
    cells, inverse = grouped(Predictions("x", truth, masks))
    keys = [(sum(1 << c for c in m), y) for m, y, _ in cells]
    assert keys == sorted(set(keys)) and sum(c for _, _, c in cells) == n
    assert all(cells[j][0] == frozenset(np.flatnonzero(masks[i]).tolist()) and cells[j][1] == truth[i]
               for i, j in enumerate(inverse.tolist()))
    wide = np.zeros((n, K + 1000), dtype=bool)  # the same sets moved past the 64th class, in the same order
    wide[:, 1000:] = masks
    shifted, again = grouped(Predictions("x", truth + 1000, wide))
    assert [(frozenset(c - 1000 for c in m), y - 1000, c) for m, y, c in shifted] == cells
    assert (again == inverse).all()


def test_decide_certainty_on_the_family_route_keeps_its_columns(tmp_path, cli):
    """`decide --p-file --certainty` on `{max_size: 5}` of 1,000 classes: decided without the matrix, with the
    certainty columns (they were dropped on this route), and the sets evaluate decides."""
    spec = _spec(tmp_path / "top5.yaml", 1000, "{max_size: 5}")
    p, t, _ = _rows(tmp_path, 1000, 20)
    code, out, err = cli("decide", spec, "--p-file", p, "--certainty", "--quiet")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "row,prediction,tied_optima,undecided,top,min_certainty,max_doubt,doubt_cost,tie"
    (mine,) = decided_predictions(use_route(spec, "verify evaluate --probabilities"), p, None, t)
    sets = [row["prediction"].split(",") for row in DictReader(io.StringIO(out))]
    assert sets == [[str(c + 1) for c in np.flatnonzero(m)] for m in mine.predictions.masks]


def test_a_surface_beyond_enumeration_is_refused_in_one_sentence_naming_what_works(tmp_path, cli):
    path = tmp_path / "two.yaml"
    path.write_text("name: two parameters over 40 classes\nclasses: 40\nparameters:\n  r: {}\n  s: {}\n"
                    "cost: \"0 if y == yhat else 1\"\nset_cost: \"1 - r / len(Y) if y in Y else s\"\n",
                    encoding="utf-8")
    csv = _csv(tmp_path / "s.csv", np.array([0, 1]), [["1"], ["2", "3"]])
    code, out, err = cli("evaluate", str(path), csv, "--sweep", "r=0:1:3", "--sweep", "s=0:1:3")
    assert code == 2 and out == "" and "Traceback" not in err
    assert f"{path} has 40 classes, beyond the 16 classes whose sets are all built" in err
    assert err.rstrip().endswith("draws the curves of set predictions from the predicted sets' costs only"), err
