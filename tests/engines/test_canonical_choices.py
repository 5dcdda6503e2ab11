"""The printed certificate λ is the exact rule's one optimum, whatever the float LP proposed (issue 51: the same
bytes on every machine).

Compared with brute force: every vertex of {λ >= 0, Σ λ = 1, Σ_Z λ_Z (c_Z − c_i) <= t} enumerated exactly; the
canonical mixture must be the one vertex of least Σ u·λ. And the float proposal must not reach the result: a
different HiGHS method proposing gives the same mixture.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import verifier.engines.canonical as mixture_module
from verifier.engines.canonical import RationalGrid, canonical_mixture
from verifier.engines.least_point import MIX_WEIGHTS


def _solve(rows: list[list[Fraction]], right: list[Fraction]) -> list[Fraction] | None:
    """Gaussian elimination over the rationals; None when singular."""
    n = len(rows)
    a = [row[:] + [r] for row, r in zip(rows, right)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if a[r][col] != 0), None)
        if pivot is None:
            return None
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[r][col] != 0:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
    return [a[r][n] / a[r][r] for r in range(n)]


def _vertices(grid: RationalGrid, i: int, t: Fraction):
    """Every vertex of the certificate polytope, exactly (support S, |S| − 1 tight columns, Σ λ = 1)."""
    others = [j for j in range(grid.n) if j != i]
    d = {z: [Fraction(grid.num[z][y] - grid.num[i][y]) for y in range(grid.K)] for z in others}
    bound = t * grid.den
    found = set()
    for size in range(1, grid.K + 2):
        for support in combinations(others, size):
            for columns in combinations(range(grid.K), size - 1):
                rows = [[d[z][y] for z in support] for y in columns] + [[Fraction(1)] * size]
                lam = _solve(rows, [bound] * (size - 1) + [Fraction(1)])
                if lam is None or any(v < 0 for v in lam):
                    continue
                if all(sum(v * d[z][y] for z, v in zip(support, lam)) <= bound for y in range(grid.K)):
                    found.add(tuple(sorted((z, v) for z, v in zip(support, lam) if v)))
    return found


def _cost(grid: RationalGrid, i: int, mix) -> Fraction:
    index = {j: k for k, j in enumerate(j for j in range(grid.n) if j != i)}
    return sum((MIX_WEIGHTS[index[z]] * v for z, v in mix), Fraction(0))


matrices = st.integers(2, 3).flatmap(lambda K: st.lists(
    st.lists(st.integers(0, 4), min_size=K, max_size=K), min_size=3, max_size=6))


@settings(max_examples=200, deadline=None)
@given(matrices, st.integers(0, 5), st.sampled_from([Fraction(0), Fraction(-1), Fraction(-1, 3)]))
def test_the_mixture_is_the_one_least_vertex(numerators, row, t):
    grid = RationalGrid(numerators, 1)
    i = row % grid.n
    found = canonical_mixture(grid, i, t)
    vertices = _vertices(grid, i, t)
    if found is None:  # a certificate exists only where the polytope has a vertex, and then it is proved
        assert not vertices
        return
    mix = tuple(sorted(found.items()))
    assert mix in vertices
    best = min(_cost(grid, i, v) for v in vertices)
    assert _cost(grid, i, mix) == best
    assert [v for v in vertices if _cost(grid, i, v) == best] == [mix]


@pytest.mark.parametrize("numerators, i, t, expected", [
    # the degenerate vertex of p-discounted (every column tight): several tight columns prove it together
    ([[0, 6, 12], [6, 0, 12], [24, 24, 0], [3, 3, 12], [12, 15, 6], [15, 12, 6], [10, 10, 8]], 5, Fraction(0),
     {1: Fraction(1, 2), 2: Fraction(1, 2)}),
    # one row dominates weakly while the columns it ties in are tight: the earliest such row
    ([[0, 1, 2], [1, 0, 2], [4, 4, 0], [0, 0, 2], [0, 2, 0], [2, 0, 0], [0, 0, 0]], 0, Fraction(0),
     {3: Fraction(1)}),
    # at the LP's optimum (the most any mixture beats {a, b, c} by, -7/3) only the mean of the singletons does
    ([[0, 1, 1], [1, 0, 1], [1, 1, 0], [1, 1, 3], [1, 3, 1], [3, 1, 1], [3, 3, 3]], 6, Fraction(-7, 3),
     {0: Fraction(1, 3), 1: Fraction(1, 3), 2: Fraction(1, 3)}),
    # below the optimum: the earliest row that beats it by 4/3 in every column
    ([[0, 1, 1], [1, 0, 1], [1, 1, 0], [1, 1, 3], [1, 3, 1], [3, 1, 1], [3, 3, 3]], 6, Fraction(-4, 3),
     {0: Fraction(1)}),
])
def test_known_mixtures(numerators, i, t, expected):
    assert canonical_mixture(RationalGrid(numerators, 1), i, t) == expected


@settings(max_examples=100, deadline=None)
@given(matrices, st.integers(0, 5))
def test_the_proposal_does_not_reach_the_result(numerators, row):
    """Interior point and dual simplex propose different vertices on a face; the printed mixture is the same."""
    grid = RationalGrid(numerators, 1)
    i = row % grid.n
    from scipy import optimize

    original = optimize.linprog
    results = []
    for method in ("highs-ds", "highs-ipm"):
        def forced(*args, method=method, **kwargs):
            kwargs["method"] = method
            return original(*args, **kwargs)

        optimize.linprog = forced
        try:
            results.append(mixture_module.canonical_mixture(grid, i, Fraction(0)))
        finally:
            optimize.linprog = original
    if None not in results:
        assert results[0] == results[1]


VALUES = [Fraction(0), Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(2), Fraction(3)]


@st.composite
def random_schemes(draw):
    """A spec of 3 or 4 classes with random rational costs (0 on the diagonal)."""
    K = draw(st.sampled_from([3, 4]))
    names = "abcd"[:K]
    text = lambda v: f"{v.numerator}/{v.denominator}"  # noqa: E731
    sets = [c for n in range(2, K + 1) for c in combinations(range(K), n)]
    return {"name": "random", "classes": list(names),
            "cost_matrix": {names[h]: [text(Fraction(0) if y == h else draw(st.sampled_from(VALUES[1:])))
                                       for y in range(K)] for h in range(K)},
            "set_costs": {",".join(names[i] for i in Y): [text(draw(st.sampled_from(VALUES))) for _ in range(K)]
                          for Y in sets}}


@settings(max_examples=30, deadline=None)
@given(random_schemes())
def test_no_float_path_reaches_the_output(spec):
    """Every witness, tie point and certificate of a random rational scheme comes from an exact rule: the
    fallbacks that rationalise the float LP's point or duals are never needed (measured: 0 of about 1,400
    sets on 80 random schemes of 3 to 5 classes)."""
    import verifier
    from verifier.engines import optimality

    def refuse(*args, **kwargs):
        raise AssertionError("a float LP's point or duals reached the output")

    original = optimality._rationalised, optimality._certificate
    optimality._rationalised = refuse
    optimality._certificate = refuse
    try:
        verifier.verify(spec).to_json()
    finally:
        optimality._rationalised, optimality._certificate = original
