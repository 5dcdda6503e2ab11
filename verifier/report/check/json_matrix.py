"""The JSON record's matrix (DESIGN.md §4): every row's exact costs as strings, beside each its float.

Up to 1,023 sets each cell is printed from its exact value; beyond, a rational cell from the arrays' exact
numerator and an irrational one as null, its decimal read off its certified enclosure, each distinct text and
decimal made once. Also the small renderings the rest of the record shares: a value's exact text and correctly
rounded float, a set's class names and its node.

Owns: `matrix_rows`, `MATRIX_SYMBOLIC_SETS`, `shared`, `exact_text`, `decimal_of`, `names_of`, `node_of`.
May import: `report.check.words`.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from verifier.report.check import words


def exact_text(value) -> str | list[str]:
    """An exact value's text (a tuple's, one per entry)."""
    if isinstance(value, tuple):
        return [exact_text(v) for v in value]
    return words.exact(value)


def decimal_of(value) -> float | list[float] | None:
    """An exact value's correctly rounded float, None for one with a parameter (a tuple's, one per entry)."""
    if isinstance(value, tuple):
        return [decimal_of(v) for v in value]
    return None if words.symbolic(value) else words.float_of(value)


def node_of(s, members) -> dict:
    """Over a hierarchy, the node's name beside its classes (null for an unnamed node or a single class)."""
    return {"node": s.node(members)} if s.hierarchy is not None else {}


def names_of(s, members) -> list[str]:
    """A set's class names, in class order."""
    return [s.classes[i] for i in sorted(members)]


MATRIX_SYMBOLIC_SETS = 1023  # beyond: rational cells from the arrays, irrational ones by their defining form


def matrix_rows(s) -> Iterator[dict]:
    """Every row, exact; the decimals of a fast-path matrix come from its certified enclosures (one float
    format per cell instead of one exact evaluation), the exact interpreter's cells from the exact values."""
    cells = s.cells
    index = getattr(s.rows, "index", None)
    if cells is not None and index is not None and len(s.all_sets) > MATRIX_SYMBOLIC_SETS:
        yield from _large_matrix(s, cells, index)
        return
    for m in s.all_sets:
        row = s.rows[m]
        if cells is None or index is None:
            decimals = [decimal_of(v) for v in row]
        else:
            k = index[m]
            decimals = [_enclosed_decimal(cells.rows.lo[k, y], cells.rows.hi[k, y], v) for y, v in enumerate(row)]
        yield {"Y": names_of(s, m)} | node_of(s, m) | {"costs": [exact_text(v) for v in row], "decimal": decimals,
                                                       "from": s.origin[m]}


def _large_matrix(s, cells, index) -> Iterator[dict]:
    """Thousands of rows: a rational cell is written from the arrays' exact numerator (no sympy, each distinct
    text once); an irrational one is null, its decimal read off the certified enclosure (its exact value is the
    spec's formula at that set: `verify` and the Python API evaluate it on demand)."""
    rows = cells.rows
    num, den, exact = rows.num, rows.den, rows.exact
    texts: dict = {}  # numerator -> (exact text, correctly rounded float), each distinct one made once
    enclosed: dict = {}  # (lo, hi) -> display decimal: 15,510 distinct enclosures among 494,704 irrational cells
    numbers: dict = {}  # each distinct nonzero decimal one float object (8 bytes a cell, not 32)
    for m in s.all_sets:
        k = index[m]
        costs: list = []
        decimals: list = []
        numerators = num[k].tolist() if num is not None else [0] * s.K  # no numerators: no cell is exact
        for is_exact, n, lo, hi in zip(exact[k].tolist(), numerators, rows.lo[k].tolist(), rows.hi[k].tolist(),
                                       strict=True):
            if is_exact:
                text = texts.get(n)
                if text is None:
                    value = Fraction(int(n), den)
                    text = texts[n] = (str(value), shared(numbers, float(value)))
                costs.append(text[0])
                decimals.append(text[1])
            else:  # irrational: null, its decimal from the enclosure (a sign of zero never changes it)
                decimal = enclosed.get((lo, hi), _UNSET)
                if decimal is _UNSET:
                    decimal = enclosed[(lo, hi)] = shared(numbers, _enclosed_decimal(lo, hi, None))
                costs.append(None)
                decimals.append(decimal)
        yield {"Y": names_of(s, m)} | node_of(s, m) | {"costs": costs, "decimal": decimals, "from": s.origin[m]}


_UNSET = object()


def shared(numbers: dict, value: float | None):
    """One object per distinct value (zeros kept as they are: 0.0 and -0.0 are equal keys but print apart)."""
    if not value:
        return value
    return numbers.setdefault(value, value)


def _enclosed_decimal(lo: float, hi: float, value) -> float | None:
    """The correctly rounded float of a value certified to lie in [lo, hi]: that float when the enclosure is
    one point, else from the exact value; with none at hand (an irrational cell of thousands of sets, its exact
    text null), a display rounding: 4 significant digits, read off the enclosure when both ends print alike."""
    if lo == hi or value is not None:
        return (float(lo) or 0.0) if lo == hi else decimal_of(value)
    low, high = f"{lo:.4g}", f"{hi:.4g}"
    return float(low) or 0.0 if low == high else float(f"{(lo + hi) / 2:.4g}")
