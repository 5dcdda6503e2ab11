"""Each open cell's exact range by small exact linear programs, where the demands' form allows it.

The demands are an And/Or tree of linear relations in the cells and one margin m > 0 (`designing.linear`).
When the margin only ever makes a relation harder (a smaller margin is always easier), the cells fall into
*blocks* that no relation ties together, and every disjunction is either local to one block or a choice
between branches each inside one block (Property 1's "some set is possible", P9's "some set ..."):

- take the designed matrix z* (a point of the feasible set, checked exactly here);
- for a block B, when every such choice has a branch holding at z* outside B, then fixing the other blocks at
  z* (with the smaller of the two margins) completes any values of B's own demands: the range of a cell of B
  is its range under B's own demands alone, and nothing else can shrink it;
- B's own demands are a union of polyhedra (the local disjunctions multiplied out, at most MAX_BRANCHES);
  on each, the cell's range is the interval between two exact LP optima over the closure m >= 0, each end
  attained when some positive margin keeps it (one more LP); the union of these intervals is the range.

Every LP is searched by HiGHS and confirmed exactly (`designing.exact_lp`: exact vertex and dual
certificate, or z3). The work is bounded by the number of blocks, branches and cells, never by a time
limit: a cell this cannot decide (a choice that only its own block meets at z*, too many branches, an LP not
confirmed) is left to the caller's quantifier elimination.

Owns: `lp_ranges`. May import: `designing.linear`, `designing.exact_lp`, `designing.problem`,
`engines.margins`, errors.
"""

from __future__ import annotations

from fractions import Fraction

import z3

from verifier.designing import linear
from verifier.designing.exact_lp import Block, solve_blocks
from verifier.designing.problem import DesignProblem
from verifier.engines.margins import Interval
from verifier.errors import DoesNotApply

M = linear.MARGIN
MAX_BRANCHES = 256  # polyhedra one block's own disjunctions may multiply out to


def lp_ranges(problem: DesignProblem, conditions: list[z3.BoolRef], values: dict[str, Fraction],
              margin: Fraction, timeout_ms: int) -> dict[str, list[Interval]]:
    """{cell key: its exact range as disjoint sorted intervals} for every open cell decided this way, given
    the designed cells' `values` (by cell key) and their `margin`; cells left out are not decided."""
    try:
        atoms, disjunctions, ok = linear.split(list(conditions) + list(problem.t.side))
    except linear.NotLinear:
        return {}
    if not ok or not all(_margin_monotone(a) for node in [*atoms, *disjunctions] for a in _atoms(node)):
        return {}
    names = {cell.key: str(problem.var(cell)) for cell in problem.cells}
    point = {names[key]: value for key, value in values.items()} | {M: margin}
    if margin <= 0 or not all(a.holds(point) for a in atoms) or \
            not all(linear.holds(d, point) for d in disjunctions):
        return {}
    try:
        blocks = _Blocks(atoms, disjunctions, list(names.values()), point, timeout_ms)
    except _Undecided:
        return {}
    wanted: dict[str, list[str]] = {}  # block -> its open cells' keys
    for cell in problem.open_cells:
        wanted.setdefault(blocks.find(names[cell.key]), []).append(cell.key)
    ranges: dict[str, list[Interval]] = {}
    for block, keys in wanted.items():
        found = blocks.ranges(block, [names[k] for k in keys])
        if found is not None:
            ranges.update(zip(keys, found))
    return ranges


class _Undecided(DoesNotApply):
    """The demands' form is beyond this route."""


class _Blocks:
    """The demands split by block: each block's own relations and disjunctions, and the choices across blocks,
    around a feasible point."""

    def __init__(self, atoms, disjunctions, cells: list[str], point: dict[str, Fraction], timeout_ms: int):
        self.find, self.point, self.timeout_ms = _joined(atoms, disjunctions, cells), point, timeout_ms
        self.own: dict[str, list] = {}  # block -> its own atoms and local disjunctions
        self.loose: list = []  # relations of the margin alone: every block's own
        self.choices: list[tuple[str, ...]] = []  # disjunctions whose branches lie in different blocks
        for a in atoms:
            block = self.block_of(a)
            (self.loose if block is None else self.own.setdefault(block, [])).append(a)
        for d in disjunctions:
            homes = {self.block_of(k) for k in d[1]}
            if None in homes:
                raise _Undecided("a branch names no cell")
            if len(homes) == 1:
                self.own.setdefault(homes.pop(), []).append(d)
            else:
                self.choices.append(d)

    def block_of(self, node) -> str | None:
        """The block of a relation or branch (None: it names no cell, only the margin or constants)."""
        names = [v for a in _atoms(node) for v in a.variables if v != M]
        return self.find(names[0]) if names else None

    def nodes(self, block: str) -> list:
        return self.own.get(block, []) + self.loose

    def ranges(self, block: str, cells: list[str]) -> list[list[Interval]] | None:
        """The cells' ranges (all in `block`): their range under the block's own demands, once every choice is met
        by another block at one feasible point; else only if the block meeting those choices itself changes
        nothing (the truth lies between the two)."""
        outer = _within(self.nodes(block), cells, self.timeout_ms)
        if outer is None:
            return None
        mine = self._met_only_by(block)
        if not mine:
            return outer
        inner = _within(self.nodes(block) + [("or", [k for k in d[1] if self.block_of(k) == block]) for d in mine],
                        cells, self.timeout_ms)
        return outer if inner == outer else None

    def _met_only_by(self, block: str) -> list:
        """The choices no other block meets at the feasible point, after moving single other blocks to meet
        them where one LP finds such a move (the moved point is kept: it is feasible too)."""
        def missing(point):
            return [d for d in self.choices
                    if not any(self.block_of(k) != block and linear.holds(k, point) for k in d[1])]
        left = missing(self.point)
        for d in list(left):
            for kid in d[1]:
                other = self.block_of(kid)
                if other == block or d not in left:
                    continue
                moved = self._moved(other, kid)
                if moved is not None and len(missing(moved)) < len(left) and all(
                        c in left for c in missing(moved)):
                    self.point, left = moved, missing(moved)
        return left

    def _moved(self, block: str, kid) -> dict[str, Fraction] | None:
        """The feasible point with `block` moved to meet branch `kid` too (its own demands kept, the margin
        the smaller of the two); None when no LP finds one."""
        for atoms in _branches(self.nodes(block) + [kid]) or []:
            p = _Polyhedron(atoms, [])
            (answer,) = solve_blocks([p.block({p.index[M]: Fraction(-1)})], self.timeout_ms)
            if answer.status == "optimal" and answer.objective < 0:
                margin = min(self.point[M], -answer.objective)
                return self.point | {v: x for v, x in answer.values.items() if v != M} | {M: margin}
        return None


def _within(nodes, cells: list[str], timeout_ms: int) -> list[list[Interval]] | None:
    """Each cell's range under `nodes` alone (m > 0); None beyond MAX_BRANCHES or when an LP is not confirmed."""
    branches = _branches(nodes)
    return None if branches is None else _ranges(branches, cells, timeout_ms)


def _atoms(node):
    if isinstance(node, linear.Atom):
        yield node
    elif isinstance(node, tuple):
        for kid in node[1]:
            yield from _atoms(kid)


def _margin_monotone(atom: linear.Atom) -> bool:
    """Whether a larger margin can only make the relation harder (so any smaller positive margin also serves)."""
    c = dict(atom.coeffs).get(M, Fraction(0))
    return c == 0 or (c > 0 and not atom.equality)


def _joined(atoms, disjunctions, cells):
    """A find() over variables: two cells share a block when one relation, or one branch, names both."""
    parent: dict[str, str] = {}

    def find(v: str) -> str:
        while parent.setdefault(v, v) != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    def join(node) -> None:
        names = sorted({v for a in _atoms(node) for v in a.variables if v != M})
        for v in names[1:]:
            parent[find(v)] = find(names[0])
    for v in cells:
        find(v)
    for a in atoms:
        join(a)
    for d in disjunctions:
        for kid in d[1]:
            join(kid)
    return find


def _branches(nodes) -> list[list[linear.Atom]] | None:
    """The conjunction of `nodes` multiplied out into polyhedra (lists of atoms); None beyond MAX_BRANCHES."""
    out: list[list[linear.Atom]] = [[]]
    for node in nodes:
        options = _dnf(node)
        if options is None or len(out) * len(options) > MAX_BRANCHES:
            return None
        out = [a + b for a in out for b in options]
    return out


def _dnf(node) -> list[list[linear.Atom]] | None:
    if node is True:
        return [[]]
    if node is False:
        return []
    if isinstance(node, linear.Atom):
        return [[node]]
    parts = [_dnf(kid) for kid in node[1]]
    if any(p is None for p in parts):
        return None
    if node[0] == "or":
        out = [branch for p in parts for branch in p]
        return out if len(out) <= MAX_BRANCHES else None
    out = [[]]
    for p in parts:
        if len(out) * len(p) > MAX_BRANCHES:
            return None
        out = [a + b for a in out for b in p]
    return out


def _ranges(branches: list[list[linear.Atom]], cells: list[str], timeout_ms: int) -> list[list[Interval]] | None:
    """Each cell's range over the union of the polyhedra (margin m > 0); None if an LP is not confirmed."""
    lps = [_Polyhedron(atoms, cells) for atoms in branches]
    feasible = solve_blocks([p.block({p.index[M]: Fraction(-1)}) for p in lps], timeout_ms)
    if any(a.status not in ("optimal", "infeasible") for a in feasible):
        return None
    lps = [p for p, a in zip(lps, feasible) if a.status == "optimal" and a.objective < 0]  # some m > 0
    questions = [(p, x, sign) for p in lps for x in cells for sign in (1, -1)]  # sign 1: the lowest x
    ends = solve_blocks([p.block({p.index[x]: Fraction(sign)}) for p, x, sign in questions], timeout_ms)
    if any(a.status not in ("optimal", "unbounded") for a in ends):
        return None
    values = [a.values[x] if a.status == "optimal" else None for a, (_, x, _) in zip(ends, questions)]
    finite = [k for k, v in enumerate(values) if v is not None]
    kept = solve_blocks([_pinned_margin(questions[k][0], questions[k][1], values[k]) for k in finite],
                        timeout_ms)
    if any(a.status != "optimal" for a in kept):
        return None
    attained = {k: a.objective < 0 for k, a in zip(finite, kept)}  # the end is kept at some margin m > 0
    pieces: dict[str, list[Interval]] = {x: [] for x in cells}
    for k in range(0, len(questions), 2):
        pieces[questions[k][1]].append(Interval(values[k], values[k + 1], attained.get(k, False),
                                                attained.get(k + 1, False)))
    return [union(pieces[x]) for x in cells]


def _pinned_margin(p: _Polyhedron, x: str, value: Fraction) -> Block:
    """The largest margin with x held at `value`: positive when that end of x's range is attained."""
    return p.block({p.index[M]: Fraction(-1)}, (x, value))


class _Polyhedron:
    """One branch: its atoms as LP rows over its block's variables and the margin, with 0 <= m <= 1 (a smaller
    margin is always easier, so capping it changes no range)."""

    def __init__(self, atoms: list[linear.Atom], cells: list[str]):
        names = sorted({v for a in atoms for v in a.variables if v != M} | set(cells))
        self.variables = names + [M]
        self.index = {v: i for i, v in enumerate(self.variables)}
        m = self.index[M]
        self.rows = [({self.index[v]: c for v, c in a.coeffs}, -a.const, a.equality) for a in atoms]
        self.rows += [({m: Fraction(1)}, Fraction(1), False), ({m: Fraction(-1)}, Fraction(0), False)]

    def block(self, cost: dict[int, Fraction], pinned: tuple[str, Fraction] | None = None) -> Block:
        rows = list(self.rows)
        if pinned is not None:
            rows.append(({self.index[pinned[0]]: Fraction(1)}, pinned[1], True))
        return Block(self.variables, rows, cost)


def union(pieces: list[Interval]) -> list[Interval]:
    """The union of intervals as disjoint sorted intervals (touching ends joined when either is closed)."""
    def start(i: Interval):
        return (i.low is not None, i.low if i.low is not None else 0, not i.low_closed)
    out: list[Interval] = []
    for piece in sorted(pieces, key=start):
        last = out[-1] if out else None
        if last is None or not (last.high is None or piece.low is None or piece.low < last.high or
                                (piece.low == last.high and (last.high_closed or piece.low_closed))):
            out.append(piece)
        elif piece.high is None or (last.high is not None and piece.high > last.high):
            out[-1] = Interval(last.low, piece.high, last.low_closed, piece.high_closed)
        elif piece.high == last.high:
            out[-1] = Interval(last.low, last.high, last.low_closed, last.high_closed or piece.high_closed)
    return out
