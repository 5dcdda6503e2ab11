"""A uniform witness held as its set reads as the tuple it stands for."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from verifier.uniform_point import UniformPoint


@given(st.integers(1, 12).flatmap(lambda K: st.tuples(st.just(K), st.frozensets(st.integers(0, K - 1), min_size=1))))
def test_reads_as_its_tuple(case):
    K, support = case
    value, zero = f"1/{len(support)}", "0"
    point = UniformPoint(K, support, value, zero)
    tup = tuple(value if y in support else zero for y in range(K))
    assert len(point) == K and tuple(point) == tup and list(point) == list(tup)
    assert point == tup and tup == point and hash(point) == hash(tup) and repr(point) == repr(tup)
    assert [point[y] for y in range(-K, K)] == list(tup) * 2 and point[1:3] == tup[1:3]
    assert list(enumerate(point)) == list(enumerate(tup)) and (point.count(value), point.index(tup[0])) == \
        (tup.count(value), tup.index(tup[0]))
    assert pickle.loads(pickle.dumps(point)) == tup
    for bad in (K, -K - 1):
        with pytest.raises(IndexError):
            point[bad]
