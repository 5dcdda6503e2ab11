"""The `classes:` key: a list of class names, or an integer K meaning classes "1".."K" (checked against the limit
before a single name is made: `classes: 1000000000` costs nothing).

Owns: `read_classes`. May import: `spec.model`, `spec.source`, `errors`.
"""

from __future__ import annotations

import re
import unicodedata

from verifier.spec.model import MAX_CLASSES
from verifier.spec.source import Located
from verifier.spec.source import shown as _show


def read_classes(node: Located, fail, limit: int = MAX_CLASSES) -> tuple[str, ...]:
    """The class names of `classes:` (a list of names, or K for "1".."K"), bounded before any name is made
    (`limit`: MAX_CLASSES for every set; more when `predictions:` restricts the family)."""
    if isinstance(node.value, int) and not isinstance(node.value, bool):
        k = node.value
        if not 2 <= k <= limit:  # before any name is made: classes: 1000000000 must cost nothing
            raise fail(f"{_count(k)} classes" if k >= 2 else f"{_count(k)} class(es) given", "classes",
                   node, _show(node), f"from 2 to {limit:,} classes{_beyond(limit)}")
        names = tuple(str(i) for i in range(1, k + 1))
    elif isinstance(node.value, list):
        if len(node.value) > limit:
            raise fail(f"{len(node.value):,} classes", "classes", node, f"a list of {len(node.value):,} names",
                   f"at most {limit:,} classes{_beyond(limit)}")
        names = []
        for item in node.value:
            if isinstance(item.value, bool) or not isinstance(item.value, (str, int)):
                raise fail("a class name must be a string", "classes", item, _show(item), "a name such as 'a'")
            name = str(item.value).strip()
            if not re.fullmatch(r"[^,\s'\"]+( [^,\s'\"]+)*", name) or \
                    any(unicodedata.category(ch) in ("Cc", "Cf") for ch in name):
                raise fail("a class name may not be empty or contain commas, quotes or control characters",
                           "classes", item, name)
            if name in names:
                raise fail(f"duplicate class '{name}'", "classes", item, name, "distinct class names")
            names.append(name)
        names = tuple(names)
    else:
        raise fail("'classes' must be a list of names or an integer", "classes", node, _show(node),
               "[a, b, c] or 3")
    if len(names) < 2:
        raise fail(f"{len(names)} class(es) given", "classes", node, _show(node), "at least 2 classes")
    if len(names) > limit:
        raise fail(f"{len(names):,} classes: the exact engine enumerates 2^K - 1 rows", "classes", node,
               len(names), f"at most {limit:,} classes{_beyond(limit)}")
    return names


def _count(k: int) -> str:
    return f"{k:,}" if abs(k) < 10**30 else f"a {len(str(abs(k)))}-digit number of"


def _beyond(limit: int) -> str:
    return " (up to 1,000 with a restricted 'predictions' family)" if limit == MAX_CLASSES else ""
