"""The stripes of a plane's decomposition swept left to right, each line's roots ordered from the line before it.

Between two section values the roots in the box of every polynomial move without meeting (that is what the
sections are for), so a stripe's roots, bottom to top, are the previous stripe's with only the polynomials
that vanish at a point of the section value between them (a crossing, a double root, a root leaving through
an edge) moved. Those few are isolated again and placed among the others by sign evaluations: the sign of an
unmoved polynomial q at a root r says how many of q's roots lie below r, up to parity, which settles it when q
has one root in the box and otherwise q's roots are isolated too. Everything else about a line (a root's
value, whether it is rational, a point between two roots) is computed only when a new pattern needs it.

Each swept line is checked against a direct evaluation at the top of the box (every sign must be its bottom
sign flipped once per root); a line that fails, or any doubt, is lifted in full instead. The result is the
same patterns as lifting every stripe in full (`tests/analysis/test_plane_decomposition.py` compares them).

Owns: `Line`, `sweep`, `walk`, `Redo`. May import: errors, `analysis.real_algebraic`,
`analysis.plane_polynomials`.
"""

from __future__ import annotations

from fractions import Fraction

from verifier.analysis.plane_polynomials import at as _at
from verifier.analysis.plane_polynomials import fmpq as _fmpq
from verifier.analysis.plane_polynomials import less as _less
from verifier.analysis.real_algebraic import Real, order, sign_at, simplest_between
from verifier.errors import DoesNotApply

MOVED_SHARE = 3  # a line with more than a third of its polynomials moved is lifted in full


class Redo(DoesNotApply):
    """A swept line could not be placed with certainty: lift it in full."""


class Line:
    """The roots in the box on the line a = rational: their owners bottom to top, and every polynomial's sign just
    above the bottom edge; values are isolated on demand (`decomposition.roots_in_box`)."""

    def __init__(self, decomposition, a: Fraction, owners: list[int], bottom: list[int]):
        self.d, self.a, self.owners, self.bottom = decomposition, a, owners, bottom
        self._lines: dict[int, object] = {}
        self.occurrence = _occurrences(owners)

    def line(self, i: int):
        """Polynomial i on this line, a polynomial in b."""
        if i not in self._lines:
            self._lines[i] = _at(self.d.in_b[i], self.a)
        return self._lines[i]

    def roots(self, i: int) -> list[Real]:
        """Polynomial i's roots in the box on this line, ascending."""
        return self.d.roots_in_box(i, self.a, self.line(i))

    def value(self, k: int) -> Real:
        """The k-th root from the bottom."""
        return self.roots(self.owners[k])[self.occurrence[k]]

    def rational_value(self, k: int) -> Fraction | None:
        """The k-th root when rational, else None (a line of degree two or more without a linear factor has no
        rational root: no isolation needed)."""
        line = self.line(self.owners[k])
        if line.degree() >= 2 and all(f.degree() != 1 for f, _ in line.numer().factor()[1]):
            return None
        x = self.value(k)
        return x if isinstance(x, Fraction) else None


def full(decomposition, a: Fraction) -> Line:
    """A line with every polynomial's roots isolated and ordered."""
    b_lo = decomposition.box[1][0]
    probe = Line(decomposition, a, [], [])
    found: dict[object, tuple[Real, int]] = {}
    for i in decomposition.active:
        if not probe.line(i).is_zero():
            for r in probe.roots(i):
                found.setdefault(r if isinstance(r, Fraction) else r.key, (r, i))
    owner = {id(r): i for r, i in found.values()}
    owners = [owner[id(r)] for r in order([r for r, _ in found.values()])]
    line = Line(decomposition, a, owners, [])
    line._lines = probe._lines
    line.bottom = _bottom(line, range(len(decomposition.polys)), b_lo, owners)
    _check(line)
    return line


def swept(previous: Line, a: Fraction, moved: set[int]) -> Line:
    """The line at a from the previous one, only the `moved` polynomials isolated again (raises Redo)."""
    d = previous.d
    b_lo = d.box[1][0]
    probe = Line(d, a, [], [])
    kept = [o for o in previous.owners if o not in moved]
    count: dict[int, int] = {}
    for o in kept:
        count[o] = count.get(o, 0) + 1
    occurrence = _occurrences(kept)
    bottom = list(previous.bottom)
    placed: list[tuple[int, int]] = []  # (position among the kept, owner), bottom to top
    new = [(r, i) for i in sorted(moved) if i in d.active_set and not probe.line(i).is_zero() for r in probe.roots(i)]
    owner = {id(r): i for r, i in new}
    for r in order([r for r, _ in new]):
        def above(k: int) -> bool:  # r above the k-th kept root?
            q = kept[k]
            if k == 0 and q == previous.owners[0]:
                return True  # the bottom edge's root, below every other (its bottom sign is the one above it)
            s = sign_at(probe.line(q), r)
            if s == 0:
                raise Redo("a moved root lies on another polynomial")
            below = 0 if s == previous.bottom[q] else 1  # parity of q's roots below r
            if count[q] == 1:
                return below == 1
            return _less(probe.roots(q)[occurrence[k]], r)
        lo, hi = placed[-1][0] if placed else 0, len(kept)
        while lo < hi:
            mid = (lo + hi) // 2
            if above(mid):
                lo = mid + 1
            else:
                hi = mid
        placed.append((lo, owner[id(r)]))
    owners = list(kept)
    for position, i in reversed(placed):
        owners.insert(position, i)
    changed = moved | {i for i in d.vertical}
    line = Line(d, a, owners, bottom)
    line._lines = probe._lines
    for i, s in zip(sorted(changed), _bottom(line, sorted(changed), b_lo, owners)):
        bottom[i] = s
    _check(line)
    return line


def sweep(decomposition, stripes: list[Fraction], moved: list[set[int]]) -> list[Line]:
    """Every stripe's line, left to right: `moved[k]` the polynomials vanishing somewhere on the section value
    between stripe k and k + 1."""
    lines: list[Line] = []
    share = max(1, len(decomposition.active) // MOVED_SHARE)
    for k, a in enumerate(stripes):
        line = None
        if lines and len(moved[k - 1]) <= share:
            try:
                line = swept(lines[-1], a, moved[k - 1])
            except Redo:
                line = None
        lines.append(line if line is not None else full(decomposition, a))  # full: a Redo is not decomposed
    return lines


def walk(line: Line) -> list[tuple[int, ...]]:
    """Every pattern on the line (as `_Decomposition._lift` records them, points made only when needed); the
    patterns of its open cells. The bottom edge is the first root, the top edge the last."""
    d, a, owners = line.d, line.a, line.owners
    d.spend(len(owners))
    signs = list(line.bottom)
    out = []
    d.add(_zero(signs, owners[0]), (a, d.box[1][0]))
    for k in range(1, len(owners) + 1):
        if k < len(owners):
            d.add(tuple(signs), lambda k=k: (a, simplest_between(line.value(k - 1), line.value(k))))
            out.append(tuple(signs))
        if k == len(owners):
            break
        i = owners[k]
        b = line.rational_value(k)
        d.add(_zero(signs, i), None if b is None else (a, b))
        signs[i] = -signs[i]
    return out


def _zero(signs: list[int], i: int) -> tuple[int, ...]:
    """The signs with polynomial i's set to 0 (on its root)."""
    out = list(signs)
    out[i] = 0
    return tuple(out)


def _occurrences(owners: list[int]) -> list[int]:
    seen: dict[int, int] = {}
    out = []
    for o in owners:
        out.append(seen.get(o, 0))
        seen[o] = out[-1] + 1
    return out


def _bottom(line: Line, indices, b_lo: Fraction, owners: list[int]) -> list[int]:
    """Each polynomial's sign just above the bottom edge: its sign there, or (zero there: the bottom edge's own
    polynomial) its sign between the edge and the next root."""
    out = []
    for i in indices:
        s = sign_at(line.line(i), b_lo)
        if s == 0:
            s = sign_at(line.line(i), simplest_between(b_lo, line.value(1)) if len(owners) > 1 else b_lo + 1)
        out.append(s)
    return out


def _check(line: Line) -> None:
    """Every polynomial's sign just below the top edge, evaluated, must be its bottom sign flipped once per root
    below: else the placement was wrong (raises Redo)."""
    owners = line.owners
    if len(owners) < 2:
        raise Redo("no roots to sweep")
    flips: dict[int, int] = {}
    for o in owners[1:-1]:  # the bottom signs are above the bottom edge's root already
        flips[o] = flips.get(o, 0) + 1
    top = simplest_between(line.value(len(owners) - 2), line.value(len(owners) - 1))
    x, y = _fmpq(line.a), _fmpq(top)
    polys = line.d.polys
    line.d.spend(len(line.d.active))
    for i in line.d.active:
        expected = line.bottom[i] * (-1 if flips.get(i, 0) % 2 else 1)
        value = polys[i](x, y)  # one evaluation of the polynomial itself: no line to specialise
        if (value > 0) - (value < 0) != expected:
            raise Redo("the signs at the top did not follow the roots")
