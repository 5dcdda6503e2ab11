"""Decisions over restricted families without the family's matrix (issue 41, item 2).

When the costs treat every class alike, `{max_size: k}` is decided by a top-k sort, a hierarchy by one pass
over its tree, intervals by prefix sums (`using.family_decide`). Each is compared with the generic product
(`using.decide` on the family's built matrix) and with a brute force in Fractions straight from the definition
(every allowed set's expected cost, the least one, ties counted, the first in table order reported), on rows
with ties, zeros and near ties. Beyond the family bounds `verify decide --p-file` answers, while the routes that
build the matrix still refuse, located at the `predictions` key and naming the route that would work.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from fractions import Fraction as F
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from verifier.analysis.pipeline import build
from verifier.spec import spec_from_text
from verifier.using.decide import BatchDecider, decide
from verifier.using.decide.family_decide import alike_route, route_for
from verifier.using.exact import rational_rows

ROOT = str(Path(__file__).resolve().parents[2])


def _spec(K: int, family: str, inside: str, outside: str, cost: str = "0 if y == yhat else 1") -> str:
    return (f"name: alike\nclasses: {K}\ncost: \"{cost}\"\n"
            f"set_cost: \"({inside}) if y in Y else ({outside})\"\npredictions: {family}\n")


def _tree(K: int) -> str:
    """A nested hierarchy over classes 1..K: pairs, then the pairs' pairs, then the root."""
    groups = [[str(i)] for i in range(1, K + 1)]
    level = 0
    while len(groups) > 1:
        merged = []
        for j in range(0, len(groups), 2):
            merged.append(groups[j] + groups[j + 1] if j + 1 < len(groups) else groups[j])
        groups, level = merged, level + 1
        if len(groups) == 2:
            break
    return "{hierarchy: {left: [" + ", ".join(_nest(groups[0])) + "], right: [" + ", ".join(_nest(groups[1])) + "]}}"


def _nest(classes: list[str]) -> list[str]:
    if len(classes) <= 2:
        return classes
    half = len(classes) // 2
    return ["[" + ", ".join(_nest(classes[:half])) + "]", "[" + ", ".join(_nest(classes[half:])) + "]"]


FAMILIES = {"max_size": lambda K: "{max_size: 3}", "hierarchy": _tree, "intervals": lambda K: "intervals"}
COSTS = [("1 - 0.6 / len(Y) ** 2", "1"),  # u65-like: grows with the size, the likeliest classes first
         ("0.5", "0.5"),  # every set and class alike: everything ties
         ("len(Y) / 4", "1 - len(Y) / 8"),  # the least likely classes at some sizes
         ("0.25 * len(Y)", "1")]


def _rows(K: int, rng: random.Random) -> list[list[F]]:
    rows = []
    for _ in range(40):
        kind = rng.randrange(4)
        if kind == 0:
            raw = [F(rng.randrange(0, 6)) for _ in range(K)]  # many equal values, zeros
        elif kind == 1:
            raw = [F(1)] * K  # uniform: every set of a size ties
        elif kind == 2:
            raw = [F(rng.randrange(1, 10 ** 6)) for _ in range(K)]
        else:
            base = rng.randrange(1, 100)
            raw = [F(base * 10 ** 9 + rng.randrange(-1, 2)) for _ in range(K)]  # near ties
        if not any(raw):
            raw[0] = F(1)
        total = sum(raw)
        rows.append([x / total for x in raw])
    return rows


def _brute(scheme, row: list[F]) -> tuple[frozenset, int]:
    """The least expected cost over the allowed sets, in Fractions from the scheme's exact cells."""
    allowed = list(scheme.all_sets)  # singletons, then the family's sets in table order
    values = []
    for members in allowed:
        costs = scheme.rows[members]
        values.append(sum(F(int(c.p), int(c.q)) * p for c, p in zip(costs, row)))
    low = min(values)
    best = [m for m, v in zip(allowed, values) if v == low]
    return min(best, key=lambda m: (len(m), sorted(m))), len(best)


@pytest.mark.parametrize("kind", sorted(FAMILIES))
@pytest.mark.parametrize("K", [5, 7])
@pytest.mark.parametrize("costs", COSTS)
def test_every_family_kind_decides_as_the_product_and_the_brute_force(kind, K, costs):
    spec = spec_from_text(_spec(K, FAMILIES[kind](K), *costs), f"{kind}.yaml")
    scheme = build(spec)
    lean, full = alike_route(spec), route_for(scheme)
    assert lean is not None and full is not None and lean.route == full.route
    assert (lean.a[1:], lean.b[1:]) == (full.a[1:], full.b[1:]) or kind == "hierarchy"
    rows = _rows(K, random.Random(K * 31 + len(costs[0])))
    block = rational_rows(rows, K)
    predictions, counts, _ = lean.decide(block)
    batch = BatchDecider(scheme)
    batch.add(rows)
    assert batch.result.route == lean.route
    for i, row in enumerate(rows):
        expected, ties = _brute(scheme, row)
        generic = decide(scheme, row)
        assert generic.prediction == expected and len(generic.optimal) == ties
        assert (predictions[i], counts[i]) == (expected, ties), (i, row)
        assert (batch.result.predictions[i], batch.result.tied_optima[i]) == (expected, ties)


def test_rounded_rows_with_equal_floats_are_decided_in_integers():
    """Decimal rows whose distinct values round to equal floats: the order at the cut is checked exactly."""
    K = 70
    spec = spec_from_text(_spec(K, "{max_size: 3}", "1 - 0.6 / len(Y) ** 2", "1"), "close.yaml")
    route = alike_route(spec)
    from verifier.using.exact import ExactRows
    big = 10 ** 30
    num = [[big + 2, big + 1, big] + [1] * (K - 3), [big, big, big] + [1] * (K - 3)]
    floats = np.array([[float(x) for x in row] for row in num])  # the three large values are equal floats
    block = ExactRows(floats, num, [sum(r) for r in num], 2.0 ** -53)
    predictions, counts, exact = route.decide(block)
    assert exact >= 1
    rows = [[F(x, sum(r)) for x in r] for r in num]
    for i, row in enumerate(rows):
        values = {}
        for n in (1, 2, 3):
            for members in combinations(range(K), n):
                values[frozenset(members)] = sum(
                    (1 - F(3, 5) / n ** 2 if y in members else 1) * p for y, p in enumerate(row))
        low = min(values.values())
        best = [m for m, v in values.items() if v == low]
        assert predictions[i] == min(best, key=lambda m: (len(m), sorted(m))) and counts[i] == len(best)


@pytest.mark.parametrize("K", [89, 300])
def test_intervals_of_hundreds_of_classes_keep_their_matrix_free_route(K):
    """Issue 65: 1 / len(Y) over sizes up to K has a common denominator lcm(1..K), past 2^128 from 89 classes on,
    where the fast path's reciprocal used to give up exactness and with it this route (a fallback at 100
    classes, a refusal at 300). Every interval's expected cost in Fractions from prefix sums is the brute force."""
    spec = spec_from_text(_spec(K, "intervals", "1 - 0.6 / len(Y)", "1"), "wide.yaml")
    route = alike_route(spec)
    assert route is not None and route.route == "intervals"
    rng = random.Random(K)
    rows = []
    for _ in range(4):
        raw = [F(rng.randrange(0, 4) ** 3) for _ in range(K)]  # runs of zeros, equal values: ties of sizes
        raw[rng.randrange(K)] += 1
        rows.append([x / sum(raw) for x in raw])
    rows.append([F(1, 2) if y in (10, 11) else F(0) for y in range(K)])  # {11}, {12} and {11, 12} tie at 7/10
    predictions, counts, _ = route.decide(rational_rows(rows, K))
    for i, row in enumerate(rows):
        prefix = [F(0)]
        for p in row:
            prefix.append(prefix[-1] + p)
        values = {}
        for lo in range(K):
            for hi in range(lo + 1, K + 1):
                n, mass = hi - lo, prefix[hi] - prefix[lo]
                values[frozenset(range(lo, hi))] = 1 - F(3, 5) * mass / n
        low = min(values.values())
        best = [m for m, v in values.items() if v == low]
        assert predictions[i] == min(best, key=lambda m: (len(m), sorted(m))) and counts[i] == len(best), i
    assert predictions[-1] == frozenset({10}) and counts[-1] == 3


def test_costs_that_single_out_a_class_take_no_shortcut():
    spec = spec_from_text(_spec(6, "{max_size: 3}", "1 - 0.6 / len(Y) ** 2", "1 + rank(y) / K"), "ranked.yaml")
    assert alike_route(spec) is None and route_for(build(spec)) is None
    cost = "0 if y == yhat else 1 + rank(y) / K"  # the costs the formula reads distinguish classes
    assert alike_route(spec_from_text(_spec(6, "{max_size: 3}", "c(y, y)", "1", cost), "read.yaml")) is None


def _verify(*argv: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "verifier", *argv], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env=dict(os.environ, PYTHONPATH=ROOT, VERIFY_NO_CACHE="1"))


def test_beyond_the_family_bounds_decide_answers_and_checking_refuses_located(tmp_path):
    spec = tmp_path / "top3.yaml"
    spec.write_text(_spec(100, "{max_size: 3}", "1 - 0.6 / len(Y) ** 2", "1"), encoding="utf-8")
    rng = np.random.default_rng(4)
    P = rng.dirichlet(np.full(100, 0.05), size=30)
    P[0] = 0
    P[0, [7, 3, 50]] = [0.4, 0.4, 0.2]  # {4} and {8} tie (0.76 each; the pair costs 0.88): {4} is reported
    np.save(tmp_path / "p.npy", P)
    before = sorted(os.listdir(tmp_path))
    done = _verify("decide", str(spec), "--p-file", str(tmp_path / "p.npy"), "--format", "json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    import json
    record = json.loads(done.stdout)
    assert record["route"] == "symmetric" and len(record["predictions"]) == 30
    assert all(1 <= len(p) <= 3 for p in record["predictions"])
    top = [sorted(np.argsort(-P[i], kind="stable")[:len(record["predictions"][i])] + 1) for i in range(30)]
    assert [sorted(int(c) for c in p) for p in record["predictions"]] == [list(map(int, t)) for t in top]
    assert record["predictions"][0] == ["4"] and record["tied_optima"][0] == 2
    checked = _verify(str(spec), "--no-cache", cwd=tmp_path)  # class-symmetric: checked by symmetry (item 1)
    assert checked.returncode in (0, 1) and "by symmetry" in checked.stdout, checked.stderr
    single = _verify("decide", str(spec), "--p", ",".join(f"{i}={1 if i == 1 else 0}" for i in range(1, 101)),
                     cwd=tmp_path)
    assert single.returncode == 2 and "Traceback" not in single.stderr
    assert "166,650 indeterminate sets" in single.stderr and "--p-file decides without the matrix" in single.stderr
    assert sorted(os.listdir(tmp_path)) == before


def test_beyond_the_bounds_costs_that_are_not_alike_are_refused_located(tmp_path):
    spec = tmp_path / "ranked.yaml"
    spec.write_text(_spec(100, "{max_size: 3}", "1 - 0.6 / len(Y) ** 2", "1 + rank(y) / K"), encoding="utf-8")
    np.save(tmp_path / "p.npy", np.full((2, 100), 0.01))
    done = _verify("decide", str(spec), "--p-file", str(tmp_path / "p.npy"), cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{spec}:5:" in done.stderr and "costs that do not treat every class alike" in done.stderr
    assert "166,750 sets of 100 classes" in done.stderr and "the symmetry route does not apply" in done.stderr
    checked = _verify(str(spec), "--no-cache", cwd=tmp_path)  # the same refusal, located, when checking
    assert checked.returncode == 2 and f"{spec}:5:" in checked.stderr and "key 'predictions'" in checked.stderr
    assert "checking a spec" in checked.stderr and "Traceback" not in checked.stderr


def test_the_partial_order_is_the_stable_sort_where_it_is_read():
    """`{max_size: k}` reads the first k + 1 classes of each order only: they are the stable sort's, ties at the
    boundary included (rows of few distinct values, zeros, one-hot rows)."""
    from verifier.using.decide.symmetric import _leading
    rng = np.random.default_rng(3)
    for values in (3, 10, 1000):
        key = rng.integers(0, values, size=(200, 60)).astype(float)
        key[:20] = 0
        key[:20, 5] = 1  # one-hot rows: the boundary value 0 has equals far outside
        for width in (1, 2, 4, 6, 59):
            for sign in (1, -1):
                full = np.argsort(sign * key, axis=1, kind="stable")[:, :width]
                assert (_leading(sign * key, width) == full).all()
