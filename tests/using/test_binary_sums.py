"""The .npy reader's vectorised exact row sums (`using.binary_sums`) against the Python-integer reading
(`exact_rows.binary_rows`) they stand in for: the same integers for every row, and a row's status (sums to 1,
within 1e-6, to be checked exactly) never wrong, on random, hostile and borderline rows."""

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.using.exact import binary_rows
from verifier.using.exact.binary_sums import CHECK, EXACT, RESCALED, fast_binary_rows

TAIL = [2.0 ** -k for k in range(1, 61)] + [2.0 ** -60]  # sums to 1 exactly, 60 bits deep


def _agree(block: np.ndarray) -> None:
    rows, status, low = fast_binary_rows(block)
    eager, shifts = binary_rows(block)
    assert [low[i] for i in range(len(low))] == shifts  # made row by row, when asked for
    for i in range(len(block)):
        assert rows.num[i] == eager.num[i] and rows.total[i] == eager.total[i]
        exact = Fraction(eager.total[i]) * Fraction(2) ** shifts[i]
        if status[i] == EXACT:
            assert exact == 1 and (block[i] >= 0).all()
        elif status[i] == RESCALED:
            assert exact != 1 and abs(exact - 1) <= Fraction(1, 10 ** 6) and (block[i] >= 0).all()
        else:
            assert status[i] == CHECK
    if len(block) >= 3:
        assert list(rows.rows(1, 3).num) == [eager.num[1], eager.num[2]]


def test_random_and_hostile_rows_agree_with_the_integer_reading():
    rng = np.random.default_rng(5)
    block = list(rng.dirichlet(np.ones(12), size=200))
    K = 12
    specials = [[1.0] + [0.0] * (K - 1), [0.5, 0.25, 0.25] + [0.0] * (K - 3), [1.5, -0.5] + [0.0] * (K - 2),
                [0.0] * K, [1e-300, 1.0] + [0.0] * (K - 2), [5e-324, 1.0 - 2 ** -53] + [0.0] * (K - 2),
                [1.0 + 1e-6, 0.0] + [0.0] * (K - 2), [1.0 + 0.999e-6] + [0.0] * (K - 1),
                [1 - 1e-6] + [0.0] * (K - 1), [2.0] + [0.0] * (K - 1), [2.5, 0.0] + [0.0] * (K - 2),
                [1 / 3, 1 / 3, 1 / 3] + [0.0] * (K - 3), [0.1] * 10 + [0.0, 0.0]]
    block += [np.array(r) for r in specials]
    _agree(np.array(block))
    status = fast_binary_rows(np.array(block))[1]
    assert {EXACT, RESCALED, CHECK} <= set(status.tolist())  # every branch is exercised
    assert status[200:204].tolist() == [EXACT, EXACT, CHECK, CHECK]  # one-hot, 1/2 1/4 1/4, a negative, zeros
    wide = np.array([TAIL])
    rows, status, _ = fast_binary_rows(wide)
    assert status.tolist() == [EXACT]
    _agree(wide)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.floats(min_value=0, max_value=2, allow_nan=False, allow_subnormal=True),
                         min_size=3, max_size=3), min_size=1, max_size=20))
def test_any_row_of_floats_agrees(rows):
    _agree(np.array(rows, dtype=np.float64))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=2 ** 20), min_size=2, max_size=6).filter(any),
       st.integers(min_value=-3, max_value=3))
def test_rows_near_one_agree(weights, nudge):
    """Rows that sum to 1 up to a few units in the last place: exactly 1, or not, told apart."""
    p = np.array(weights, dtype=np.float64) / sum(weights)
    p[0] = np.nextafter(p[0], 2.0) if nudge > 0 else np.nextafter(p[0], -1.0) if nudge < 0 and p[0] > 0 else p[0]
    _agree(p[None, :])


def test_rows_with_values_below_two_to_the_minus_65_are_settled_without_integers():
    """Peaked rows over many classes (a trained network's) hold values below 2^-65 in almost every row; their
    sum is too small to matter unless the rest is that close below 1, so such rows need no exact check."""
    block = np.random.default_rng(1).dirichlet(np.full(1000, 0.05), size=300)
    assert (block[block > 0] < 2.0 ** -65).any(axis=None)
    _agree(block)
    status = fast_binary_rows(block)[1]
    assert (status != CHECK).mean() > 0.95
    edge = np.array([[1.0, 1e-300, 0.0, 0.0], [1 - 2.0 ** -53, 5e-324, 0.0, 0.0],
                     [0.5, 0.5 - 2.0 ** -40, 2.0 ** -70, 0.0], [1 - 2e-6, 1e-300, 0.0, 0.0],
                     [0.5, 0.5 - 2.0 ** -54, 2.0 ** -54 - 2.0 ** -66, 2.0 ** -66]])  # the last sums to 1 exactly
    _agree(edge)
    assert fast_binary_rows(edge)[1].tolist() == [RESCALED, RESCALED, RESCALED, CHECK, CHECK]


def test_float_limb_sums_stay_exact_up_to_two_to_the_thirteen_classes():
    """Up to 2^13 classes the limbs are summed as doubles (every partial sum an integer of at most 2^53), beyond
    as int64: at both sides of that edge, rows whose limbs are as large as they get (values of 2, values one ulp
    below 2, a row summing to 1 through 2^-39 steps) read as the integers do."""
    for K in (1 << 13, (1 << 13) + 1):
        twos = np.full(K, 2.0)
        below = np.full(K, np.nextafter(2.0, 0.0))
        ones = np.zeros(K)
        ones[: 1 << 12] = 2.0 ** -12  # sums to 1 exactly
        steps = np.full(K, 2.0 ** -39)
        steps[0] = 1.0 - (K - 1) * 2.0 ** -39  # sums to 1 exactly, every limb in use
        _agree(np.array([twos, below, ones, steps, np.r_[np.full(K - 1, 1e-300), 1.0]]))
        _, status, _ = fast_binary_rows(np.array([ones, steps]))
        assert status.tolist() == [EXACT, EXACT]
