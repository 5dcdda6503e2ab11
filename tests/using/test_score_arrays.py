"""Scores handed in as arrays (issue 53, item 2): `abstention_curves` and `operating_conditions` take `y_true` and
`y_score` as `sklearn.metrics.roc_curve` does, each float taken as its exact binary value, and give the same JSON,
byte for byte, as a scores file holding the same numbers; bad arrays are usage errors naming the argument."""

import json
import os
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import verifier
from verifier.errors import UsageError
from verifier.using.abstention import exact_ranks

from conftest import ROOT, SPECS

FRIEDEL = os.path.join(SPECS, "friedel-abstention-symbolic.yaml")
PROPORTION = os.path.join(ROOT, "examples", "operating-conditions", "cost-proportion.yaml")
SWEEP = ["mu=0:1:4", "nu=0:1:4"]


def exact_text(x: float) -> str:
    """The float's exact decimal expansion: the same number, written as a scores file holds it."""
    return str(Decimal(float(x)))


def write_csv(path, y_true, columns: dict) -> str:
    names = list(columns)
    rows = [",".join(["true", *names])] + [",".join([t, *(exact_text(columns[n][i]) for n in names)])
                                            for i, t in enumerate(y_true)]
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def dumped(result) -> str:
    return json.dumps(result.to_json(), indent=2, ensure_ascii=False)


scores_floats = st.floats(min_value=-1e3, max_value=1e3, allow_nan=False, allow_infinity=False).filter(
    lambda x: len(exact_text(x)) <= 400)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.lists(st.tuples(scores_floats, scores_floats, st.booleans()), min_size=2, max_size=25))
def test_arrays_and_a_scores_file_of_the_same_numbers_give_the_same_json(tmp_path_factory, data):
    y_true = ["P" if p else "N" for _, _, p in data]
    columns = {"svm": np.array([a for a, _, _ in data]), "nb": np.array([b for _, b, _ in data])}
    path = write_csv(tmp_path_factory.mktemp("csv") / "scores.csv", y_true, columns)
    from_file = verifier.abstention_curves(FRIEDEL, y_score=path, sweep=SWEEP)
    from_arrays = verifier.abstention_curves(FRIEDEL, y_true, columns, sweep=SWEEP)
    assert dumped(from_arrays) == dumped(from_file)
    assert from_arrays.text == from_file.text
    # and evaluate(scores=FILE), the command line's route, is the same again
    assert dumped(verifier.evaluate(FRIEDEL, scores=path, sweep_text=SWEEP)) == dumped(from_file)


def test_a_float_is_its_binary_value_not_the_decimal_it_prints(tmp_path):
    """0.1 and 0.1 + 2**-56... are distinct scores; 0.1 (the float) is not 1/10: the thresholds say so."""
    ranks, texts = exact_ranks(np.array([0.1, 0.30000000000000004, 0.3, 0.1]), "y_score")
    assert ranks.tolist() == [0, 2, 1, 0]
    assert Fraction(texts[0]) == Fraction(0.1) != Fraction(1, 10)
    ints, texts = exact_ranks([3, 1, 3], "y_score")
    assert ints.tolist() == [1, 0, 1] and texts == ("1", "3")
    mixed, texts = exact_ranks(np.array([Fraction(1, 3), "0.5", Decimal("0.25"), 2], dtype=object), "y_score")
    assert mixed.tolist() == [1, 2, 0, 3] and [Fraction(t) for t in texts] == [Fraction(1, 4), Fraction(1, 3),
                                                                                Fraction(1, 2), 2]


def test_texts_in_an_array_are_read_as_a_scores_file_reads_them(tmp_path):
    y_true = ["P", "N", "P", "N", "P", "N"]
    texts = ["0.1", "0.2", "0.30", "0.3", "1e-1", "0.7"]
    path = tmp_path / "s.csv"
    path.write_text("true,a\n" + "\n".join(f"{t},{s}" for t, s in zip(y_true, texts)) + "\n")
    assert dumped(verifier.abstention_curves(FRIEDEL, y_true, {"a": texts}, sweep=SWEEP)) == \
        dumped(verifier.abstention_curves(FRIEDEL, y_score=str(path), sweep=SWEEP))


def test_operating_conditions_from_arrays_match_the_scores_file(tmp_path):
    rng = np.random.default_rng(3)
    truth = rng.random(30) < 0.5
    y_true = np.where(truth, "P", "N")  # the spec's classes
    columns = {"tree": rng.random(30) / 2 + truth / 2, "forest": (rng.random(30) / 2 + truth / 3).round(2)}
    path = write_csv(tmp_path / "scores.csv", list(y_true), columns)
    for method in ("score", "rate", "optimal"):
        by_file = verifier.operating_conditions(PROPORTION, y_score=path, method=method, uncertainty=["0", "inf"])
        by_arrays = verifier.operating_conditions(PROPORTION, y_true, columns, method=method,
                                                  uncertainty=["0", "inf"])
        assert dumped(by_arrays) == dumped(by_file), method
        assert type(by_arrays).__name__ == "ConditionsReport"


def test_a_pandas_frame_and_a_named_column_are_classifiers_by_name():
    pandas = pytest.importorskip("pandas")
    rng = np.random.default_rng(5)
    truth = rng.random(20) < 0.5
    frame = pandas.DataFrame({"svm": rng.normal(size=20) + truth, "nb": rng.normal(size=20) + truth})
    y_true = pandas.Series(np.where(truth, "P", "N"))
    by_frame = verifier.abstention_curves(FRIEDEL, y_true, frame, sweep=SWEEP)
    by_dict = verifier.abstention_curves(FRIEDEL, list(y_true), {c: frame[c].tolist() for c in frame}, sweep=SWEEP)
    assert dumped(by_frame) == dumped(by_dict)
    assert [c.name for c in by_frame.curves.classifiers] == ["svm", "nb", "trivial"]
    one = verifier.abstention_curves(FRIEDEL, y_true, frame["nb"], sweep=SWEEP)
    assert [c.name for c in one.curves.classifiers] == ["nb", "trivial"]
    plain = verifier.abstention_curves(FRIEDEL, y_true, frame["nb"].to_numpy(), sweep=SWEEP)
    assert [c.name for c in plain.curves.classifiers] == ["classifier", "trivial"]


@pytest.mark.parametrize("y_true, y_score, expected", [
    (["P", "N", "P"], [0.1, 0.2], "y_score: 2 scores for the 3 true classes of y_true"),
    (["P", "N"], np.array([[0.1, 0.2], [0.3, 0.4]]), "y_score: an array of shape (2, 2); expected one score per"),
    (["P", "N"], [0.1, float("nan")], "y_score[1]: nan; expected a finite number"),
    (["P", "N"], {"a": [0.1, float("inf")]}, "y_score['a'][1]: inf; expected a finite number"),
    (["P", "N"], {1: [0.1, 0.2]}, "y_score: a classifier's name is 1 (a int); expected a non-empty text"),
    (["P", "N"], {"a": [True, False]}, "y_score['a']: truth values (dtype bool)"),
    (["P", "N"], {"a": ["0.1", "high"]}, "y_score['a'][1]: 'high' is not a number"),
    (["P", "N"], {"a": [0.1, None]}, "y_score['a'][1]: None (a NoneType); expected a finite number"),
    (["P", "N"], {}, "y_score: no classifier"),
    (["P", "N"], {"trivial": [0.1, 0.2]}, "a classifier is named 'trivial'"),
    (["P", "X"], [0.1, 0.2], "y_true[1]: unknown class 'X'"),
    ([["P", "N"]], [0.1, 0.2], "y_true: an array of shape (1, 2); expected one true class per instance"),
    (None, [0.1, 0.2], "y_true: the true classes are needed with y_score"),
    (["P", "N"], None, "y_score: no scores given"),
])
def test_bad_arrays_are_usage_errors_naming_the_argument_and_the_value(y_true, y_score, expected):
    with pytest.raises(UsageError) as caught:
        verifier.abstention_curves(FRIEDEL, y_true, y_score, sweep=SWEEP)
    assert expected in str(caught.value)


def test_bad_arrays_are_refused_by_operating_conditions_too():
    with pytest.raises(UsageError, match=r"y_score\[1\]: nan"):
        verifier.operating_conditions(PROPORTION, ["P", "N"], [0.2, float("nan")])
    with pytest.raises(UsageError, match="scores or probabilities, not both"):
        verifier.operating_conditions(PROPORTION, ["P"], [0.2], probabilities=[[0.5, 0.5]])


def test_a_scores_file_takes_its_true_classes_from_a_file_named_by_y_true_or_truth(tmp_path):
    scores, truth = tmp_path / "scores.csv", tmp_path / "truth.txt"
    scores.write_text("a\n0.9\n0.2\n0.6\n0.4\n")
    truth.write_text("P\nN\nN\nP\n")
    by_truth = verifier.abstention_curves(FRIEDEL, y_score=str(scores), truth=str(truth), sweep=SWEEP)
    by_y_true = verifier.abstention_curves(FRIEDEL, str(truth), str(scores), sweep=SWEEP)
    by_arrays = verifier.abstention_curves(FRIEDEL, ["P", "N", "N", "P"], {"a": ["0.9", "0.2", "0.6", "0.4"]},
                                           sweep=SWEEP)
    assert dumped(by_truth) == dumped(by_y_true) == dumped(by_arrays)
    with pytest.raises(UsageError, match="its true classes go in its 'true' column or in a file"):
        verifier.abstention_curves(FRIEDEL, ["P", "N", "N", "P"], str(scores), sweep=SWEEP)
    with pytest.raises(UsageError, match="truth= names a file of true classes for a scores file"):
        verifier.abstention_curves(FRIEDEL, ["P", "N", "N", "P"], [0.9, 0.2, 0.6, 0.4], truth=str(truth),
                                   sweep=SWEEP)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(min_value=0, max_value=2**32), st.booleans())
def test_probabilities_from_an_array_match_the_same_rows_from_a_npy_file(tmp_path, seed, rescale):
    """An in-memory (N, K) array is read by the `.npy` file's own path: `evaluate` and `operating_conditions` (which
    once counted an array's blocks as its rows) give the file's JSON (the file is named as the array's classifier)."""
    rng = np.random.default_rng(seed)
    P = rng.dirichlet([1, 1], size=40)
    if rescale:  # rows within 1e-6 of summing to 1: divided by their exact sum, and counted, on both paths
        P[::3] *= 1 + 1e-8
    y = rng.integers(0, 2, 40)
    np.save(tmp_path / "classifier.npy", P)
    np.save(tmp_path / "truth.npy", y)
    files = {"probabilities": str(tmp_path / "classifier.npy"), "truth": str(tmp_path / "truth.npy")}
    spec = tmp_path / "fixed.yaml"
    spec.write_text("name: fixed abstention\nclasses: [P, N]\nparameters:\n  mu: {}\n  nu: {value: 0.2}\n"
                    'assume: ["mu >= 0", "mu <= 1"]\ncost_matrix:\n  P: [0, mu]\n  N: [1, 0]\n'
                    'set_costs:\n  "P,N": [nu, nu]\n')
    conditions = [verifier.operating_conditions(str(spec), y_true=y, probabilities=P, uncertainty=["0", "1"]),
                  verifier.operating_conditions(str(spec), uncertainty=["0", "1"], **files)]
    assert dumped(conditions[0]) == dumped(conditions[1])
    numeric = tmp_path / "numeric.yaml"
    numeric.write_text(spec.read_text().replace("mu: {}", "mu: {value: 0.5}"))
    scored = [verifier.evaluate(str(numeric), y_true=y, probabilities=P), verifier.evaluate(str(numeric), **files)]
    assert dumped(scored[0]) == dumped(scored[1])
