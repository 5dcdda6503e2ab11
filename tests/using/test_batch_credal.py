"""`verify decide --intervals-file`: one interval credal set per row, each decided exactly as the same intervals
typed as one set (`--intervals`); the file read strictly (located errors); the summary that ends every batch
(p-file and intervals-file); and the p-file's `tied_optima`."""

import json
import os
import random
from collections import Counter
from fractions import Fraction as F

import pytest

import verifier
from verifier.using.decide.credal import RULES
from verifier.using.inputs import intervals_file

from conftest import SPECS

OBSTACLE = os.path.join(SPECS, "obstacle-discounted.yaml")  # classes h, b, n
U65 = os.path.join(SPECS, "accuracy-u65.yaml")
EXAMPLE_3 = "0,0.2,0.3,0.4,0.4,0.6"  # the paper's Example 3, as h_lo,h_hi,b_lo,b_hi,n_lo,n_hi
HEADER = "h_lo,h_hi,b_lo,b_hi,n_lo,n_hi"
FOUR = """name: four ordered classes
classes: [a, b, c, d]
cost_matrix:
  a: [0, 1, 2, 3]
  b: [1, 0, 1, 2]
  c: [2, 1, 0, 1]
  d: [3, 2, 1, 0]
set_cost: "min([c(yh, y) for yh in Y]) + 0.25 * (len(Y) - 1)"
"""


def _write(folder, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text)
    return str(path)


def _random_bounds(rng: random.Random, K: int) -> list[tuple[F, F]]:
    """Intervals around a random distribution (so never empty), with small denominators so that ties, points
    (lo = hi) and whole [0, 1] intervals come up."""
    weights = [rng.randint(0, 6) for _ in range(K)]
    weights[rng.randrange(K)] += 1
    p = [F(w, sum(weights)) for w in weights]
    bounds = []
    for x in p:
        shape = rng.random()
        if shape < 0.15:
            bounds.append((x, x))
        elif shape < 0.25:
            bounds.append((F(0), F(1)))
        else:
            step = F(1, rng.choice((4, 5, 10, 20, 7)))
            bounds.append((max(F(0), x - rng.randint(0, 3) * step), min(F(1), x + rng.randint(0, 3) * step)))
    return bounds


def _label(names: list[str]) -> str:
    return "{" + ", ".join(names) + "}"


@pytest.fixture(scope="module")
def four_spec(tmp_path_factory):
    return _write(tmp_path_factory.mktemp("four"), "four.yaml", FOUR)


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("K", [3, 4])
def test_each_row_is_decided_as_the_same_intervals_given_as_one_set(tmp_path, four_spec, K, rule):
    spec, classes = (OBSTACLE, ("h", "b", "n")) if K == 3 else (four_spec, ("a", "b", "c", "d"))
    rng = random.Random(20261125 + K)
    sets = [_random_bounds(rng, K) for _ in range(200)]
    lines = [",".join(f"{c}_{end}" for c in classes for end in ("lo", "hi"))]
    lines += [",".join(str(x) for lo_hi in bounds for x in lo_hi) for bounds in sets]
    batch = verifier.decide(spec, intervals_file=_write(tmp_path, "sets.csv", "\n".join(lines) + "\n"), rule=rule)
    rows = batch.record["rows"]
    assert len(rows) == 200 and batch.record["rule"] == rule
    for bounds, row in zip(sets, rows):
        text = ",".join(f"{c}={lo}:{hi}" for c, (lo, hi) in zip(classes, bounds))
        one = verifier.decide(spec, intervals_text=text, rule=rule).record
        assert row["prediction"] == one["prediction"], text
        assert row["undecided"] == one["undecided"], text
        if row["prediction"]:
            assert row["expected_cost"] == one["expected_costs"][_label(row["prediction"])], text
        if rule == "gamma-maximin":
            assert row["ties"] == one["ties"], text
    assert batch.prediction == [row["prediction"] for row in rows]
    counts = Counter(tuple(row["prediction"]) for row in rows)
    summary = batch.record["summary"]
    assert {tuple(s["set"]): s["count"] for s in summary["predicted_sets"]} == counts
    assert summary["rows"] == 200
    assert F(summary["determinacy"]) == F(sum(n for m, n in counts.items() if len(m) == 1), 200)


HAND = "\n".join([HEADER, EXAMPLE_3, "", EXAMPLE_3, "0,1,0,1,0,1", "1,1,0,0,0,0"]) + "\n"


def test_the_summary_counts_a_hand_made_file(tmp_path):
    path = _write(tmp_path, "hand.csv", HAND)
    result = verifier.decide(OBSTACLE, intervals_file=path, rule="maximality")
    assert result.prediction == [["b"], ["b"], ["h", "b", "n"], ["h"]]
    assert [row["line"] for row in result.record["rows"]] == [2, 4, 5, 6]  # the blank line 3 is skipped
    summary = result.record["summary"]
    assert summary["predicted_sets"] == [{"set": ["b"], "count": 2}, {"set": ["h"], "count": 1},
                                         {"set": ["h", "b", "n"], "count": 1}]
    assert (summary["determinacy"], summary["determinacy_float"]) == ("3/4", 0.75)
    assert (summary["mean_set_size"], summary["rows_with_ties"], summary["rows_with_undecided"]) == ("3/2", 0, 0)
    assert result.text.splitlines() == ["row,prediction,rule,tied_sets,undecided_classes",
                                        '0,"b",maximality,1,0', '1,"b",maximality,1,0',
                                        '2,"h,b,n",maximality,1,0', '3,"h",maximality,1,0']
    assert "determinacy (single-class predictions): 3/4" in result.summary_text
    assert "{b} 2, {h} 1, {h, b, n} 1" in result.summary_text


def test_gamma_maximin_ties_are_counted_and_listed(tmp_path):
    # the point (1/2, 1/2, 0): {h}, {b} and {h, b} all cost 1/2 (the p-file's three tied optima); Example 3: {b}
    path = _write(tmp_path, "ties.csv", "\n".join([HEADER, "0.5,0.5,0.5,0.5,0,0", EXAMPLE_3]) + "\n")
    result = verifier.decide(OBSTACLE, intervals_file=path, rule="gamma-maximin")
    assert [row["ties"] for row in result.record["rows"]] == [[["h"], ["b"], ["h", "b"]], [["b"]]]
    assert result.prediction == [["h"], ["b"]]  # the smallest tied set, then the first in class order
    assert result.record["summary"]["rows_with_ties"] == 1
    assert result.text.splitlines()[1:] == ['0,"h",gamma-maximin,3,0', '1,"b",gamma-maximin,1,0']


@pytest.mark.parametrize("text, expected", [
    ("h_lo,h_hi,b_lo,b_hi\n0,1,0,1\n", "sets.csv:1: the header 'h_lo,h_hi,b_lo,b_hi' lacks the column(s) n_lo, n_hi"),
    ("h_lo,h_hi,b_lo,b_hi,n_lo\n0,1,0,1,0\n", "lacks the column(s) n_hi"),
    (HEADER + "\n" + EXAMPLE_3 + "\n0.5,0.2,0,1,0,1\n", "sets.csv:3: class 'h': h_lo '0.5' exceeds h_hi '0.2'"),
    (HEADER + "\n0.5,0.6,0.4,0.5,0.3,1\n", "sets.csv:2: an empty credal set: the *_lo columns sum to 6/5, above 1"),
    (HEADER + "\n0,0.2,0,0.3,0,0.4\n", "sets.csv:2: an empty credal set: the *_hi columns sum to 9/10, below 1"),
    ("h_lo,h_hi,b_lo,b_hi,n_low,n_hi\n" + EXAMPLE_3 + "\n",
     "sets.csv:1: unknown column 'n_low' (column 5; did you mean 'n_lo'?)"),
    (HEADER + ",id\n" + EXAMPLE_3 + ",7\n", "sets.csv:1: unknown column 'id' (column 7)"),
    (HEADER + "\n0,abc,0.3,0.4,0.4,0.6\n", "sets.csv:2: column 'h_hi': 'abc' is not a number"),
    (HEADER + "\n0,0.2,0.3,0.4,0.4,\n", "sets.csv:2: column 'n_hi': '' is not a number"),
    (HEADER + "\n0,1.5,0.3,0.4,0.4,0.6\n", "sets.csv:2: column 'h_hi': '1.5' is outside [0, 1]"),
    (HEADER + "\n0,0.2,0.3,0.4\n", "sets.csv:2: 4 field(s)"),
    (HEADER + "\n", "sets.csv: no rows"),
])
def test_bad_rows_and_headers_are_located_errors(tmp_path, text, expected, cli):
    path = _write(tmp_path, "sets.csv", text)
    with pytest.raises(verifier.UsageError) as caught:
        verifier.decide(OBSTACLE, intervals_file=path)
    assert expected in str(caught.value) and "--intervals-file" in str(caught.value)
    code, out, err = cli("decide", OBSTACLE, "--intervals-file", path)
    assert code == 2 and out == "" and expected in err and "Traceback" not in err


def test_the_rule_is_checked_before_the_file_is_read(tmp_path, cli):
    code, _, err = cli("decide", OBSTACLE, "--intervals-file", tmp_path / "absent.csv", "--rule", "maximin")
    assert code == 2 and "--rule: invalid choice: 'maximin'" in err and "did you mean 'maximality'" in err


def test_rows_come_in_blocks_and_are_bounded(tmp_path, monkeypatch):
    rows = [HEADER] + [EXAMPLE_3, "0,1,0,1,0,1", "1,1,0,0,0,0"] * 5
    path = _write(tmp_path, "many.csv", "\n".join(rows) + "\n")
    whole = verifier.decide(OBSTACLE, intervals_file=path).record
    monkeypatch.setattr(intervals_file, "BLOCK_ROWS", 4)
    assert verifier.decide(OBSTACLE, intervals_file=path).record == whole
    monkeypatch.setattr(intervals_file, "MAX_ELEMENTS", 6 * 10)  # ten rows of three classes
    with pytest.raises(verifier.UsageError, match=r"many.csv:12: more than 10 rows"):
        verifier.decide(OBSTACLE, intervals_file=path)


def test_credal_csv_cells_cannot_start_a_spreadsheet_formula(tmp_path, cli):
    spec = _write(tmp_path, "inj.yaml", 'name: injection\nclasses: ["=1+1", safe]\ncost: "0 if yhat == y else 1"\n'
                  'set_cost: "(0 if y in Y else 1) + 0.3 * (len(Y) - 1)"\n')
    path = _write(tmp_path, "sets.csv", "=1+1_lo,=1+1_hi,safe_lo,safe_hi\n0.9,1,0,0.1\n0,0.1,0.9,1\n")
    code, out, err = cli("decide", spec, "--intervals-file", path)
    assert code == 0, err
    assert out.splitlines()[1:] == ['0,"\'=1+1",maximality,1,0', '1,"safe",maximality,1,0']


def test_the_command_writes_the_csv_on_stdout_and_the_summary_on_stderr(tmp_path, cli):
    path = _write(tmp_path, "hand.csv", HAND)
    code, out, err = cli("decide", OBSTACLE, "--intervals-file", path, "--rule", "interval-dominance")
    assert code == 0, err
    assert out.splitlines()[0] == "row,prediction,rule,tied_sets,undecided_classes" and "Summary" not in out
    assert err.startswith("Summary of 4 rows:") and "mean set size:" in err
    code, out, err = cli("decide", OBSTACLE, "--intervals-file", path, "--rule", "e-admissibility",
                         "--format", "json")
    record = json.loads(out)
    assert code == 0 and err == "" and record["rule"] == "e-admissibility" and record["summary"]["rows"] == 4
    assert set(record) == {"rule", "predictions", "rows", "summary"}
    code, out, err = cli("decide", OBSTACLE, "--intervals-file", path, "--p", "h=1")
    assert code == 2 and "give exactly one of" in err and "--intervals-file" in err


def test_the_p_file_batch_names_its_tied_optima_and_ends_with_a_summary(tmp_path, cli):
    path = _write(tmp_path, "p.csv", "h,b,n\n0.1,0.3,0.6\n0.5,0.5,0\n0.8,0.1,0.1\n")
    record = verifier.decide(OBSTACLE, p_file=path).record
    assert "optimal_counts" not in record
    one = verifier.decide(OBSTACLE, "h=0.5,b=0.5,n=0").record
    assert record["tied_optima"] == [1, len(one["optimal"]), 1] and len(one["optimal"]) > 1
    summary = record["summary"]
    assert summary["predicted_sets"] == [{"set": ["h"], "count": 2}, {"set": ["b"], "count": 1}]
    assert (summary["determinacy"], summary["mean_set_size"], summary["rows_with_ties"]) == ("1", "1", 1)
    code, out, err = cli("decide", U65, "--p-file", path)
    assert code == 0 and out.splitlines()[0] == "row,prediction,tied_optima,undecided"
    assert "Summary of 3 rows:" in err and "Summary" not in out
