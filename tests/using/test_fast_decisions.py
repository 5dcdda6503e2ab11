"""The vectorised batch decisions keep the exactness claims: a p-file's rows (binary .npy and decimal CSV) get
the prediction and the tie count of the one-row exact path on random rows, exact ties and near ties (1e-15),
and the vectorised credal rules get the prediction, ties and exact expected costs of the one-set rule. The
floats' error bounds hold on random inputs, and rows the floats cannot separate do go to exact arithmetic."""

import os
import random
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import verifier
from verifier import numbers
from verifier.api.use.report import numeric_scheme
from verifier.engines.expected import ExpectedCosts
from verifier.using import BatchDecider, CredalBatchDecider
from verifier.using.decide import credal_batch, decide
from verifier.using.exact.exact_rows import _same_places_row, binary_rows, decimal_row, interval_rows

from conftest import SPECS

U65 = open(os.path.join(SPECS, "accuracy-u65.yaml")).read()
OBSTACLE = os.path.join(SPECS, "obstacle-discounted.yaml")


def _u65(tmp_path, K: int) -> str:
    path = tmp_path / f"u65-{K}.yaml"
    path.write_text(U65.replace("classes: [h, b, n]", f"classes: {K}").split("expect:")[0])
    return str(path)


def _tied_rows(K: int) -> list[list[float]]:
    """Binary rows where u65's sets tie exactly: p1 = 13t, p2 = 7t make {1} and {1, 2} cost the same (g(1/2) =
    13/20; K = 3 has no such optimum), then the same moved by 2^-50 either way (a difference near 6e-16), equal
    probabilities at the cut, zeros, and classes permuted so that the tie-break by class index matters."""
    base, scale = {12: ([13, 7, 5, 5, 5, 5, 4, 4, 4, 4, 4, 4], 64), 4: ([13, 7, 6, 6], 32), 3: ([13, 7, 12], 32)}[K]
    rows = [[x / scale for x in base]]
    for shift in (2.0 ** -50, -2.0 ** -50, 2.0 ** -52):
        r = list(rows[0])
        r[1] += shift
        r[2] -= shift
        rows.append(r)
    rows.append([1 / 4, 1 / 4] + [1 / (2 * (K - 2))] * (K - 2))  # two likeliest equal
    rows.append([1 / K] * K)  # every class equal
    rows.append([0.5, 0.5] + [0.0] * (K - 2))  # zeros tie at the cut
    rng = random.Random(5)
    for r in list(rows):
        for _ in range(3):
            rows.append(rng.sample(r, K))
    return rows


def _exact(row) -> list[F]:
    values = [numbers.exact(x) if isinstance(x, str) else F(x) for x in row]
    total = sum(values)
    return [x / total for x in values]


def _check_file(spec: str, path: str, rows, K: int, every: int = 1) -> dict:
    record = verifier.decide(spec, p_file=path).record
    _, scheme = numeric_scheme(spec, "verify decide")
    costs = ExpectedCosts(scheme)
    for i in range(0, len(rows), every):
        d = decide(scheme, _exact(rows[i]), costs)
        assert record["predictions"][i] == [scheme.classes[y] for y in sorted(d.prediction)], (i, rows[i])
        assert record["tied_optima"][i] == len(d.optimal), (i, rows[i])
    return record


@pytest.mark.parametrize("K", [12, 4])  # the class-symmetric route, then the product over every set
def test_npy_batch_equals_the_one_row_path_on_random_rows_ties_and_near_ties(tmp_path, K):
    spec = _u65(tmp_path, K)
    rng = np.random.default_rng(20261125)
    random_rows = rng.dirichlet(np.ones(K) * 0.5, size=150)
    random_rows[:20] *= 1 + 1e-7  # within the tolerance: divided by their exact sum
    rows = [list(r) for r in random_rows] + _tied_rows(K)
    path = tmp_path / "p.npy"
    np.save(path, np.array(rows))
    record = _check_file(spec, str(path), rows, K)
    assert record["rows_decided_exactly_one_by_one"] > 0  # the ties went to exact arithmetic
    assert record["rows_decided_exactly_one_by_one"] < len(rows) // 2  # the random rows did not
    assert record["rows_rescaled"] >= 20
    assert max(record["tied_optima"]) > 1
    tie = 150  # {1} and {1, 2} tie; checked once through the API's one-row path as well
    one = verifier.decide(spec, [F(x) for x in rows[tie]]).record
    assert one["prediction"] == record["predictions"][tie] == ["1"]
    assert len(one["optimal"]) == record["tied_optima"][tie] == 2


@pytest.mark.parametrize("K", [12, 3])
def test_csv_batch_equals_the_one_row_path_on_decimal_ties_and_near_ties(tmp_path, K):
    spec = _u65(tmp_path, K)
    rows = [[repr(x) for x in r] for r in _tied_rows(K)]
    if K == 3:  # {1} and {1, 2} tie at 1/2, below {1, 2, 3} (8/15); as fractions, then near it in decimals
        rows += [["1/2", "7/26", "3/13"], ["3/13", "1/2", "7/26"], ["0.5", "0.269230769230769", "0.230769230769231"]]
    rng = random.Random(11)
    for _ in range(60):  # exact decimals with ties and 1e-15 near ties
        cents = [rng.randint(0, 20) for _ in range(K)]
        cents[-1] += 100 - sum(cents) if sum(cents) < 100 else 0
        total = sum(cents)
        values = [F(c, total) for c in cents]
        text = [f"{float(v):.17f}" if rng.random() < 0.5 else str(v) for v in values]
        if rng.random() < 0.3:
            text[0] = str(numbers.exact(text[0]) + F(1, 10 ** 15))
        rows.append(text)
    rows.append(["1e-3", "0.999"] + ["0"] * (K - 2))  # an exponent, and zeros
    header = ",".join(str(i) for i in range(1, K + 1))
    path = tmp_path / "p.csv"
    path.write_text(header + "\n" + "\n".join(",".join(r) for r in rows) + "\n")
    rows = [[numbers.exact(x) for x in r] for r in rows]
    record = _check_file(spec, str(path), rows, K)
    assert record["rows_decided_exactly_one_by_one"] > 0


def test_exact_binary_and_decimal_rows():
    rng = np.random.default_rng(3)
    block = rng.dirichlet(np.ones(6), size=50)
    block[0, :2] = [5e-324, 0.0]  # a subnormal and a zero
    block[1] = [2.0 ** -1000, 1.0, 0, 0, 0, 2.0 ** -60]
    rows, shifts = binary_rows(block)
    for i in range(len(block)):
        values = [F(x) for x in block[i]]
        assert [F(n, rows.total[i]) for n in rows.num[i]] == [x / sum(values) for x in values]
        assert F(rows.total[i]) * F(2) ** shifts[i] == sum(values)
    texts = ["0.35", " 1/3", "2e-3", "7.", ".5", "1E+2", "0.000", "1e-400", "12345678901234567890.5"]
    num, den, floats = decimal_row(texts, lambda j: numbers.exact(texts[j]))
    assert [F(n, den) for n in num] == [numbers.exact(t) for t in texts]
    assert floats[7] > 0 and floats[6] == 0  # a positive value never rounds to a zero float
    assert floats[:6] == [float(F(t.strip())) for t in texts[:6]]


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 30), st.lists(st.integers(0, 10 ** 12), min_size=1, max_size=8), st.data())
def test_rows_of_equal_decimal_places_read_as_every_other_row(places, values, data):
    """The one-pass reading of a row whose values share their decimal places (0.250000) gives the integers,
    denominator and floats of the field-by-field reading; a row that breaks the pattern anywhere (another
    number of places, a space, an exponent, a sign, ten digits before the dot) is read field by field."""
    texts = [f"{v // 10 ** places % 10 ** 9}.{v % 10 ** places:0{places}d}" for v in values]
    assert _same_places_row(texts) is not None  # the pattern is read in one pass
    if data.draw(st.booleans()):
        j = data.draw(st.integers(0, len(texts) - 1))
        texts[j] = data.draw(st.sampled_from([texts[j] + "0", " " + texts[j], texts[j] + "e0", "+" + texts[j],
                                              "1234567890" + texts[j], texts[j].replace(".", ""), "1/3"]))
    num, den, floats = decimal_row(texts, lambda j: numbers.exact(texts[j]))
    exact = [numbers.exact(t) for t in texts]
    assert [F(n, den) for n in num] == exact
    assert floats == [float(x) for x in exact]


def _random_bounds(rng: random.Random, K: int, ties: bool) -> list[tuple[F, F]]:
    if ties and rng.random() < 0.3:  # the same interval for every class: every comparison ties
        w = F(rng.randint(0, 4), 20)
        return [(max(F(0), F(1, K) - w), min(F(1), F(1, K) + w))] * K
    weights = [rng.randint(0, 4) for _ in range(K)]
    weights[rng.randrange(K)] += 1
    p = [F(w, sum(weights)) for w in weights]
    out = []
    for x in p:
        shape = rng.random()
        if shape < 0.25:
            out.append((x, x))  # precise: equal probabilities tie exactly
        elif shape < 0.3:
            out.append((F(0), F(1)))
        else:
            step = F(1, rng.choice((4, 5, 10, 20)))
            out.append((max(F(0), x - rng.randint(0, 2) * step), min(F(1), x + rng.randint(0, 2) * step)))
    y = rng.randrange(K)
    lo, hi = out[y]
    if rng.random() < 0.3 and hi - lo > F(1, 10 ** 14) and sum(h for _, h in out) - F(1, 10 ** 15) >= 1:
        out[y] = (lo, hi - F(1, 10 ** 15))  # a near tie, still a non-empty set
    return out


def _label(names):
    return "{" + ", ".join(names) + "}"


@pytest.mark.parametrize("rule", ["maximality", "interval-dominance", "gamma-maximin"])
@pytest.mark.parametrize("K", [5, 3])
def test_vectorised_credal_rules_equal_the_one_set_rule(tmp_path, rule, K):
    spec = _u65(tmp_path, 5) if K == 5 else OBSTACLE
    _, scheme = numeric_scheme(spec, "verify decide")
    classes = scheme.classes
    rng = random.Random(1000 * K + len(rule))
    sets = [_random_bounds(rng, K, ties=True) for _ in range(200)]
    lines = [",".join(f"{c}_{end}" for c in classes for end in ("lo", "hi"))]
    lines += [",".join(str(x) for pair in bounds for x in pair) for bounds in sets]
    path = tmp_path / "sets.csv"
    path.write_text("\n".join(lines) + "\n")
    rows = verifier.decide(spec, intervals_file=str(path), rule=rule).record["rows"]
    for bounds, row in zip(sets, rows):
        text = ",".join(f"{c}={lo}:{hi}" for c, (lo, hi) in zip(classes, bounds))
        one = verifier.decide(spec, intervals_text=text, rule=rule).record
        assert row["prediction"] == one["prediction"], text
        assert row["expected_cost"] == one["expected_costs"][_label(row["prediction"])], text
        if rule == "gamma-maximin":
            assert row["ties"] == one["ties"], text
    decider = CredalBatchDecider(scheme, rule)
    decider.add(sets)
    assert decider.exact_comparisons > 0  # exact ties went to integers
    assert [r.prediction for r in decider.rows] == [frozenset(classes.index(c) for c in r["prediction"])
                                                      for r in rows]


def test_the_float_greedy_stays_within_its_proven_bound():
    rng = random.Random(9)
    K = 6
    sets = [_random_bounds(rng, K, ties=False) for _ in range(300)]
    block = interval_rows(sets, K)
    values = [[F(rng.randint(-50, 50), rng.randint(1, 30)) for _ in range(K)] for _ in range(20)]
    vectors = credal_batch.Vectors(values, K)
    floats = credal_batch.lower_floats(block, vectors)
    exact = credal_batch.lower_exact(block, np.arange(len(sets)), vectors)
    for i, bounds in enumerate(sets):
        for j, f in enumerate(values):
            lo = [a for a, _ in bounds]
            p, rest = list(lo), 1 - sum(lo)
            for y in sorted(range(K), key=lambda y: (f[y], y)):
                give = min(rest, bounds[y][1] - bounds[y][0])
                p[y] += give
                rest -= give
            assert exact[i][j] == sum(a * b for a, b in zip(p, f))
            assert abs(F(floats[i, j]) - exact[i][j]) <= F(vectors.bound[j])


def test_rows_given_as_fractions_take_the_same_route(tmp_path):
    """`BatchDecider.add` still takes lists of exact rows (evaluate --probabilities on arrays)."""
    spec = _u65(tmp_path, 9)
    _, scheme = numeric_scheme(spec, "verify decide")
    rows = [[F(1, 9)] * 9, [F(13, 64), F(7, 64)] + [F(44, 64 * 7)] * 7]
    decider = BatchDecider(scheme)
    decider.add(rows)
    assert decider.result.route == "symmetric" and decider.result.exact_rows == 1  # the tie; equal values sort exactly
    for row, prediction, count in zip(rows, decider.result.predictions, decider.result.tied_optima):
        d = decide(scheme, row)
        assert prediction == d.prediction and count == len(d.optimal)
