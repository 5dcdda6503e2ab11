"""What a prepared spec keeps: the scheme and arrays the use jobs build from it, made on first use and kept, so
that deciding or scoring many batches with one `verifier.prepare(spec)` builds them once.

Owns: `prepared`, `kept`. May import: `spec`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from verifier.spec import Spec

_MEMO = "_prepared_parts"  # the attribute of a prepared spec that holds what its jobs built
_T = TypeVar("_T")


def prepared(spec: Spec) -> Spec:
    """`spec`, marked so that what its jobs build from it (`kept`) is made once."""
    setattr(spec, _MEMO, getattr(spec, _MEMO, {}))
    return spec


def kept(spec: Spec, key: tuple, make: Callable[[], _T]) -> _T:
    """`make()`, once per key for a prepared spec (every time for any other: nothing outlives the call)."""
    memo = getattr(spec, _MEMO, None)
    if memo is None:
        return make()
    if key not in memo:
        memo[key] = make()
    return memo[key]
