"""Issue 40: logits under a scheme that treats every class alike are decided by a sort of each row (the best set
of each size is the likeliest classes, or the least likely), never by comparing every set. The sorted route
must give exactly the all-sets route's sets, tied counts and exact rows' verdicts, ties included (equal logits,
sizes whose sets all cost alike, a_k > b_k)."""

import math
import os
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.api.use.report import numeric_scheme
from verifier.using import LogitDecider, LogitRows, logit_rows

from conftest import SPECS

U65 = os.path.join(SPECS, "accuracy-u65.yaml")
_SCHEMES: dict = {}


def _scheme(tmp_dir, K: int, a: tuple, b: tuple):
    """A spec whose set cost is a[|Y|] inside Y and b[|Y|] outside (rational), built once per (K, a, b)."""
    key = (K, a, b)
    if key not in _SCHEMES:
        def chain(values):
            text = str(values[-1])
            for k in range(len(values) - 1, 0, -1):
                text = f"({values[k - 1]} if len(Y) == {k} else {text})"
            return text
        path = os.path.join(tmp_dir, f"alike-{len(_SCHEMES)}.yaml")
        with open(path, "w") as handle:
            handle.write(f"name: alike\nclasses: {K}\ncost: \"0 if yhat == y else 1\"\n"
                         f"set_cost: \"{chain(a)} if y in Y else {chain(b)}\"\n")
        _SCHEMES[key] = numeric_scheme(path, "test")[1]
    return _SCHEMES[key]


def _both(scheme, blocks):
    sorted_route, all_sets = LogitDecider(scheme, symmetric=True), LogitDecider(scheme, symmetric=False)
    assert sorted_route.ab is not None and all_sets.ab is None
    for block in blocks:
        sorted_route.add(block)
        all_sets.add(block)
    return sorted_route.result, all_sets.result


costs = st.integers(0, 4).map(lambda v: F(v, 4))


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 5).flatmap(lambda K: st.tuples(
    st.just(K), st.lists(costs, min_size=K, max_size=K), st.lists(costs, min_size=K, max_size=K),
    st.lists(st.lists(st.integers(-4, 4).map(lambda v: F(v, 2)), min_size=K, max_size=K), min_size=1,
             max_size=6),
    st.booleans())))
def test_property_sorted_logits_route_gives_the_all_sets_routes_sets(tmp_path_factory, case):
    K, a, b, rows, decimal = case
    scheme = _scheme(str(tmp_path_factory.getbasetemp()), K, tuple(a), tuple(b))
    floats = np.array([[float(x) for x in row] for row in rows])
    # the same rows as exact binary floats (.npy) or as rounded decimals (a CSV: the exact values decide)
    block = LogitRows(floats, [list(row) for row in rows]) if decimal else next(logit_rows(floats, K, "t"))
    mine, theirs = _both(scheme, [block])
    assert mine.predictions == theirs.predictions
    assert mine.tied_optima == theirs.tied_optima
    assert mine.undecided == theirs.undecided == []


def test_sorted_route_on_u65_at_ten_classes_equals_the_all_sets_route():
    """Random and tied rows at K = 10 (the benchmark's shape), and rows on a boundary between two sizes."""
    _, scheme = numeric_scheme(U65, "test")
    _, scheme10 = numeric_scheme(_ten(U65), "test")
    rng = np.random.default_rng(7)
    rows = np.concatenate([rng.normal(size=(400, 10)), np.round(rng.normal(size=(300, 10)) * 2) / 2,
                           np.log(rng.integers(1, 5, size=(300, 10))), np.zeros((2, 10))])
    # on u65's boundary between the top class and the top pair (p_2 = 7/13·p_1), within a rounding of it: the
    # floats cannot separate the two sizes, the exact comparison does
    near = [[a, a + math.log(7 / 13)] + [a - 50.0] * 8 for a in rng.uniform(-3, 3, size=20).tolist()]
    rows = np.concatenate([rows, np.array(near)])
    mine, theirs = _both(scheme10, logit_rows(rows, 10, "t"))
    assert mine.route == "softmax-symmetric" and theirs.route == "softmax"
    assert mine.predictions == theirs.predictions and mine.tied_optima == theirs.tied_optima
    assert mine.exact_rows > 0 and mine.undecided == []
    assert LogitDecider(scheme).ab is None  # three classes: below the sort's threshold, every set compared


def _ten(source):
    import tempfile

    import yaml

    data = yaml.safe_load(open(source))
    data["classes"], _ = 10, data.pop("expect", None)
    path = os.path.join(tempfile.mkdtemp(), "u65-10.yaml")
    with open(path, "w") as handle:
        yaml.safe_dump(data, handle)
    return path


@pytest.mark.parametrize("row, prediction, ties", [
    # p ≈ (0.45, 0.275, 0.275, ~0...): the top pair beats the top class and the top three (u65), and the pair is
    # {0, 1} or {0, 2}, equal logits at the cut: two optimal sets, the lower reported
    ([math.log(0.45 / 0.275), 0.0, 0.0] + [-30.0] * 7, frozenset({0, 1}), 2),
    ([0.0] * 10, frozenset(range(10)), 1),  # uniform: u65 predicts every class, one set
    ([1.0, 1.0] + [-30.0] * 8, frozenset({0, 1}), 1),  # two equal and far ahead: the pair, once
])
def test_sorted_route_counts_ties_from_equal_logits(row, prediction, ties):
    _, scheme = numeric_scheme(_ten(U65), "test")
    decider = LogitDecider(scheme)
    decider.add(next(logit_rows([row], 10, "t")))
    assert decider.result.predictions == [prediction] and decider.result.tied_optima == [ties]
