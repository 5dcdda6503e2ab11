"""The certainty floats against their exact values (issue 51): θ the correctly rounded exact value on every
row, including rows whose floats cancel (logits 8, 8.0000000000000001, -2.9: no tie, so θ is not π/2), rows near
ξ = 1 (θ near 0), near one-hot rows, ties and rows near midpoints between floats; the exact route correctly rounded;
the maximum doubt of an exact gap of 10^-15 is 1e15; the paired Wilcoxon test on minimum certainty ranks the exact
differences."""

from __future__ import annotations

import io
import json
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest

from verifier.cli import check
from verifier.using.certainty import block_certainty
from verifier.using.certainty.doubt import exact_doubt_cost
from verifier.using.exact import binary_rows, rational_rows
from verifier.using.inputs import LogitRows, raw_certainty

U = 2.0 ** -53


def _exact_theta(t: F):
    with mpmath.workprec(600):
        return mpmath.pi / 2 - 2 * mpmath.atan(mpmath.mpf(t.numerator) / t.denominator)


def _t(values: list[F], j: int) -> F:
    out = F(1)
    for i, v in enumerate(values):
        if i != j:
            out *= values[j] - v
    return out


def _correctly_rounded(theta: float, exact) -> bool:
    """θ is the float nearest to the exact value (mpmath at 600 bits, rounded once to 53)."""
    return theta == float(exact)


def test_the_issues_logit_row_is_no_tie_and_its_theta_is_correctly_rounded():
    exact = [F(8), F("8.0000000000000001"), F("-2.9")]
    c = raw_certainty(LogitRows(np.array([[8.0, 8.0, -2.9]]), [exact]))
    assert not c.tied[0] and c.top[0] == 1 and c.min_certainty[0] == 1e-16 and c.max_doubt[0] == 1e16
    assert c.theta[0] != np.pi / 2  # π/2 is a tie's θ
    assert c.theta[0] == float(_exact_theta(_t(exact, 1))) == 1.5707963267948943


def test_an_exact_gap_of_ten_to_the_minus_fifteen_has_doubt_ten_to_the_fifteen():
    c = raw_certainty(LogitRows(np.array([[1e-15, 0.0]]), [[F("1e-15"), F(0)]]))
    assert c.max_doubt[0] == 1e15  # 1/float(1e-15) is 999999999999999.9
    decimal = [F("0.5000000000000005"), F("0.4999999999999995")]  # a decimal row: its integers, rounded once
    assert block_certainty(rational_rows([decimal], 2)).max_doubt[0] == 1e15
    floats = np.array([[0.5 + 5e-16, 0.5 - 5e-16]])
    rows, _ = binary_rows(floats)  # a binary row: its doubles' exact sums, rounded once
    exact = [F(x) for x in floats[0].tolist()]
    assert block_certainty(rows).max_doubt[0] == float(sum(exact) / (exact[0] - exact[1]))  # not ...157.0


@pytest.mark.parametrize("K", [2, 3, 10, 40])
def test_binary_rows_minimum_certainty_and_doubt_are_correctly_rounded(K):
    rng = np.random.default_rng(K)
    P = rng.dirichlet(np.full(K, 0.3), 400)
    P[:4] *= 1e-300  # doubles too small for the error-free route: the integers answer
    P[4:8] *= 1e300
    P[8:12, :2] = [0.5 + 2 ** -40, 0.5 - 2 ** -40]
    rows, _ = binary_rows(P)
    c = block_certainty(rows)
    for i in range(len(P)):
        values = sorted((F(x) for x in P[i].tolist()), reverse=True)
        gap, total = values[0] - values[1], sum(values)
        if gap:
            assert (c.min_certainty[i], c.max_doubt[i]) == (float(gap / total), float(total / gap))


@pytest.mark.parametrize("K", [2, 3, 10])
def test_theta_is_correctly_rounded_on_rows_that_cancel(K):
    rng = np.random.default_rng(K)
    logits = [rng.normal(size=K) for _ in range(40)]
    logits += [np.r_[1.0 + rng.normal() * 1e-9, np.zeros(K - 1)] for _ in range(20)]  # ξ near 1: θ near 0
    logits += [np.r_[1.0, 1.0 + 2 ** -52, rng.normal(size=K - 2)] for _ in range(5)]
    for row in logits:
        c = raw_certainty(LogitRows(np.array([row])))
        values = [F(float(x)) for x in row]
        j = max(range(K), key=lambda i: (values[i], -i))
        assert _correctly_rounded(float(c.theta[0]), _exact_theta(_t(values, j)))
    for weights in (np.ones(K), np.full(K, 0.02)):
        P = rng.dirichlet(weights, 60)
        P[:10, 0] = 1.0  # one-hot rows (θ = 0 exactly at K = 2)
        P[:10, 1:] = 0.0
        rows, _ = binary_rows(P)
        c = block_certainty(rows)
        for i in range(len(P)):
            values = [F(x, rows.total[i]) for x in rows.num[i]]
            assert _correctly_rounded(float(c.theta[i]), _exact_theta(_t(values, int(c.top[i]))))


def test_the_exact_route_is_correctly_rounded():
    for t in (F(1, 3), F(999999, 1000000), F(1000001, 1000000), F(10) ** 30, F(1, 10 ** 30), F(7, 2)):
        assert exact_doubt_cost(t) == float(_exact_theta(t))
    assert exact_doubt_cost(F(1)) == 0.0 and exact_doubt_cost(F(0)) == np.pi / 2


def test_the_paired_certainty_test_ranks_exact_differences(tmp_path):
    """Minimum certainties 0.3 − 0.1 and 0.7 − 0.5 are both exactly 1/5 but 0.19999999999999998 and
    0.19999999999999996 in floats: the exact ranks tie them (W = 18, p = 1), the floats did not (W = 17)."""
    stats = pytest.importorskip("scipy.stats")
    a = ["0.3", "0.5", "0.6", "0.2", "0.15", "0.05", "0.4", "0.9"]
    b = ["0.1", "0.7", "0.2", "0.25", "0.4", "0.35", "0.3", "0.7"]
    for name, margins in (("A", a), ("B", b)):
        (tmp_path / f"{name}.csv").write_text("h,b\n" + "".join(
            f"{_decimal((1 + F(m)) / 2)},{_decimal((1 - F(m)) / 2)}\n" for m in margins))
    (tmp_path / "T.csv").write_text("h\n" * len(a))
    spec = tmp_path / "two.yaml"
    spec.write_text('name: two\nclasses: [h, b]\ncost: "0 if yhat == y else 1"\nset_cost: "0.35 if y in Y else 1"\n')
    out, err = io.StringIO(), io.StringIO()
    assert check(["evaluate", str(spec), "--probabilities", str(tmp_path / "A.csv"), "--probabilities",
                  str(tmp_path / "B.csv"), "--truth", str(tmp_path / "T.csv"), "--certainty", "--format", "json"],
                 out, err) == 0, err.getvalue()
    record = json.loads(out.getvalue())["certainty"]
    for c, margins in zip(record["classifiers"], (a, b)):  # means of the exact minimum certainties, rounded once
        assert c["min_certainty"]["mean"] == float(sum(map(F, margins)) / len(margins))
    (pair,) = record["pairs"]
    expected = stats.wilcoxon([float(F(x) - F(y)) for x, y in zip(a, b)])
    assert (pair["statistic"], pair["p_value"]) == (float(expected.statistic), float(expected.pvalue)) == (18.0, 1.0)
    assert pair["test_favours"] is None  # R+ = R− = 18


def _decimal(q: F) -> str:
    """The finite decimal q is (its denominator divides a power of ten)."""
    digits = 0
    while (q * 10 ** digits).denominator != 1:
        digits += 1
    n = int(q * 10 ** digits)
    return f"{n // 10 ** digits}.{n % 10 ** digits:0{digits}d}" if digits else str(n)


def _rows_and_exact(K: int, seed: int):
    """Rows of every kind the doubt cost meets, with their exact values: binary probabilities (Dirichlet,
    near one-hot, one-hot, ties, tiny gaps, scaled far from 1), binary logits (spread wide: θ below 0), and the
    same as decimals."""
    rng = np.random.default_rng(seed)
    P = rng.dirichlet(np.full(K, 0.5), 120)
    P[:5] = 0.0
    P[:5, 0] = 1.0
    P[5:10, 0], P[5:10, 1:] = 1 - 2.0 ** -45, 2.0 ** -45 / (K - 1)
    P[10:14, :2] = 0.5
    P[10:14, 2:] = 0.0
    P[14:18, 1] = P[14:18, 0] * (1 - 2.0 ** -52)  # a gap of one ulp
    P[18:22] *= 2.0 ** 300  # far from a sum of 1: the exact route
    Z = rng.normal(size=(120, K)) * 10.0 ** rng.integers(-3, 4, size=(120, 1))
    Z[:4, 1] = Z[:4, 0]
    return P, Z


@pytest.mark.parametrize("K", [2, 3, 5, 10, 40])
def test_theta_is_correctly_rounded_on_every_kind_of_row(K):
    P, Z = _rows_and_exact(K, K)
    rows, _ = binary_rows(P)
    c = block_certainty(rows)
    for i in range(len(P)):
        values = [F(x, rows.total[i]) for x in rows.num[i]]
        assert c.theta[i] == float(_exact_theta(_t(values, int(c.top[i])))), i
    c = raw_certainty(LogitRows(Z))
    for i in range(len(Z)):
        values = [F(x) for x in Z[i].tolist()]
        assert c.theta[i] == float(_exact_theta(_t(values, int(c.top[i])))), i
    decimals = [[F(f"{x:.6g}") for x in row] for row in np.abs(Z[:30]).tolist()]
    decimals = [[x / sum(r) for x in r] for r in decimals]
    c = block_certainty(rational_rows(decimals, K))
    for i, r in enumerate(decimals):
        assert c.theta[i] == float(_exact_theta(_t(r, int(c.top[i])))), i
    logits = [[F(f"{x:.6g}") for x in row] for row in Z[:30].tolist()]
    c = raw_certainty(LogitRows(np.array([[float(x) for x in r] for r in logits]), logits))
    for i, r in enumerate(logits):
        assert c.theta[i] == float(_exact_theta(_t(r, int(c.top[i])))), i


def test_the_exact_route_answers_where_ziv_test_cannot_settle(monkeypatch):
    """With the evaluation bound widened until no row is settled, every θ comes from the exact route: the
    same floats."""
    import verifier.using.certainty.doubt as doubt_cost

    P, Z = _rows_and_exact(4, 7)
    rows, _ = binary_rows(P)
    fast = (block_certainty(rows).theta, raw_certainty(LogitRows(Z)).theta)
    calls = []
    original = doubt_cost.exact_doubt_cost
    monkeypatch.setattr(doubt_cost, "exact_doubt_cost", lambda t: calls.append(t) or original(t))
    monkeypatch.setattr(doubt_cost, "EVALUATION", 2.0 ** -50)
    slow = (block_certainty(rows).theta, raw_certainty(LogitRows(Z)).theta)
    assert len(calls) >= len(P) + len(Z) - 10  # all but the rows of θ = 0
    assert all(np.array_equal(a, b) for a, b in zip(fast, slow))


def test_no_library_arctan_decides_a_bit(monkeypatch):
    """θ's bits come from IEEE +, −, ×, ÷ and python-flint only: numpy's arctan (whose last bits follow the
    CPU's SIMD kernel) is never called."""
    P, Z = _rows_and_exact(10, 3)
    rows, _ = binary_rows(P)
    expected = block_certainty(rows).theta

    def refuse(*args, **kwargs):
        raise AssertionError("numpy's arctan was called")

    monkeypatch.setattr(np, "arctan", refuse)
    assert np.array_equal(block_certainty(rows).theta, expected)
    raw_certainty(LogitRows(Z))


def test_the_summary_means_are_exact_means_rounded_once():
    from verifier.report.use.certainty import summary_json

    P, _ = _rows_and_exact(10, 11)
    rows, _ = binary_rows(P)
    c = block_certainty(rows)
    summary = summary_json(c)
    for key, values in (("min_certainty", c.min_certainty), ("doubt_cost", c.theta)):
        assert summary[key]["mean"] == float(sum(map(F, values.tolist()), F(0)) / len(values))
