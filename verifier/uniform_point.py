"""A witness p that is uniform on a set: read as the K-tuple it stands for, held as the set and one value.

Thousands of sets of hundreds of classes each carry such a witness (Definition 4's uniform p); as tuples they
were 8 bytes a class per set, as large as a matrix of costs. Reads are a tuple's: length, index, iteration,
equality and hash with the tuple of the same entries.

Owns: `UniformPoint`. May import: nothing of the package.
"""

from __future__ import annotations

from collections.abc import Sequence


class UniformPoint(Sequence):
    """`value` at every class of `support` (a set of class indices, shared with the set it witnesses), `zero`
    at the other classes below K."""

    __slots__ = ("_K", "_support", "_value", "_zero")

    def __init__(self, K: int, support: frozenset[int], value, zero):
        self._K, self._support, self._value, self._zero = K, support, value, zero

    def __len__(self) -> int:
        return self._K

    def __getitem__(self, y):
        if isinstance(y, slice):
            return tuple(self)[y]
        y = int(y)
        if y < 0:
            y += self._K
        if not 0 <= y < self._K:
            raise IndexError("point index out of range")
        return self._value if y in self._support else self._zero

    def __iter__(self):
        value, zero, support = self._value, self._zero, self._support
        return (value if y in support else zero for y in range(self._K))

    def __eq__(self, other) -> bool:
        if isinstance(other, (tuple, UniformPoint)):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))
