"""A list over a set's members summed as a matrix product gives what the sets x K x K grid gives: the same
exact cells with the same values, and enclosures that contain every true sum."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.formula import cell_sums
from verifier.formula.cells import Cells


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 6), st.integers(1, 12), st.integers(0, 2 ** 32), st.booleans())
def test_the_product_sum_is_the_grid_sum(K, S, seed, big):
    rng = np.random.default_rng(seed)
    den = 7
    num = rng.integers(-50, 50, size=(1, K, K)) * (10 ** 17 if big else 1)  # big: Python integers in the sums
    exact = rng.random((1, K, K)) < 0.7
    true = np.vectorize(lambda n: F(int(n), den), otypes=[object])(num)
    true = np.where(exact, true, true + F(1, 3))  # an inexact cell's value: known here, enclosed there
    lo = np.vectorize(lambda x: float(x) - 1e-9 * (abs(float(x)) + 1), otypes=[float])(true)
    hi = np.vectorize(lambda x: float(x) + 1e-9 * (abs(float(x)) + 1), otypes=[float])(true)
    cells = Cells(lo, hi, np.where(exact, num, 0).astype(object if big else np.int64), den, exact)
    members = rng.random((S, 1, K)) < 0.5
    mask = np.broadcast_to(members, (S, K, K)).copy()
    grid = cell_sums._grid_sum(cells, mask)
    assert cell_sums._as_product(cells, mask) is None or S * K >= cell_sums.PRODUCT_FROM
    product = cell_sums._product_sum(cells, members[:, 0, :], K)
    assert (grid.exact == product.exact).all()
    for s in range(S):
        for y in range(K):
            total = sum((true[0, y, m] for m in range(K) if members[s, 0, m]), F(0))
            for out in (grid, product):
                assert out.lo[s, y] <= total <= out.hi[s, y]
            if grid.exact[s, y]:
                assert F(int(grid.num[s, y]), grid.den) == F(int(product.num[s, y]), product.den) == total


def test_a_mask_that_changes_along_the_classes_or_an_unbounded_value_is_summed_on_the_grid(monkeypatch):
    monkeypatch.setattr(cell_sums, "PRODUCT_FROM", 0)
    cells = Cells.from_exact(np.arange(9).reshape(1, 3, 3), 1)
    uniform = np.broadcast_to(np.array([[[True, False, True]]]), (2, 3, 3)).copy()
    assert cell_sums._as_product(cells, uniform) is not None
    varying = uniform.copy()
    varying[1, 2, 1] = True
    assert cell_sums._as_product(cells, varying) is None
    unbounded = Cells(np.full((1, 3, 3), -np.inf), np.zeros((1, 3, 3)))
    assert cell_sums._as_product(unbounded, uniform) is None
    assert (cell_sums.masked_sum(cells, varying).num == cell_sums._grid_sum(cells, varying).num).all()


def test_a_power_mean_of_one_value_is_that_value_exactly():
    """genmean(p, [x]) = x for every p: the singleton rows come out of the arrays exact (sqrt(3) ** 2 no
    longer leaves an enclosure for the exact interpreter to repair), and the larger sets' cells are unchanged."""
    from verifier.scheme import cells as scheme_cells
    from verifier.spec.reader import spec_from_text

    for p in ("1/2", "0", "-1", "3"):
        spec = spec_from_text(f'name: p\nclasses: 5\ncost: "1 + rank(y) + 2 * rank(yhat)"\n'
                              f'set_cost: "genmean({p}, [c(yh, y) for yh in Y])"\n')
        rows = scheme_cells.build_cells(spec).rows
        assert rows.exact[:5].all()
        for h in range(5):
            for y in range(5):
                assert F(int(rows.num[h, y]), rows.den) == 1 + y + 2 * h  # rank counts from 0


def test_an_empty_member_set_sums_to_exactly_zero_by_both_routes():
    """The regression of K=2, S=1, seed=1505: no member present and no exact cell at all. The empty sum is
    exactly 0 (the grid sum said so, the product sum left an enclosure)."""
    for seed in (1505,):
        test_the_product_sum_is_the_grid_sum.hypothesis.inner_test(2, 1, seed, False)
    cells = Cells(np.full((1, 2, 2), 0.5), np.full((1, 2, 2), 0.75))  # no exact cell
    none = np.zeros((1, 2), dtype=bool)
    product = cell_sums._product_sum(cells, none, 2)
    grid = cell_sums._grid_sum(cells, np.zeros((1, 2, 2), dtype=bool))
    assert product.exact.all() and grid.exact.all()
    assert (product.lo == 0).all() and (product.hi == 0).all() and (product.num == 0).all()
