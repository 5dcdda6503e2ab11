"""Every class count at once, for schemes that treat every class alike.

Each property's atom is evaluated per set size n and per placement of the named classes (inside or outside
Y; `formula.by_size`), exactly for n = 2..EXACT_SIZES and, for every n from TAIL on, as one condition on
n = TAIL + m decided by z3 over all real m >= 0 (which covers every integer m): "always", "never", or open.
The verdict at K then follows from the property's own quantifiers: Y ranges over the sizes 2..K, and a class
outside Y exists only when n < K (two when n < K - 1). For K >= TAIL + 2 every size beyond EXACT_SIZES has
the same answers, so the verdict is the same for every such K.

P1 uses a symmetric witness: if some p makes Y beat each of its members, so does its average over the
permutations fixing Y, which is uniform inside Y (mass a) and outside (mass 1 - a); the gap is linear in a,
so Y is possible iff the gap is positive at a = 1, or at a = 0 when some class lies outside Y.

Owns: `EveryK`, `decide_every_k`. May import: `properties`, `formula`, `engines.smt.translate`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import z3

from verifier.engines.smt.translate import Translator
from verifier.formula import certified
from verifier.formula.by_size import M, NotBySize, SizeEvaluator, Token
from verifier.formula.enclose import Unsupported
from verifier.lazy_sympy import sympy as sp
from verifier.properties import Both, Compare, Implies, Possible, Property, QuantifierKind
from verifier.verdict import Truth

EXACT_SIZES = 16
TAIL = EXACT_SIZES + 1
SEARCH_SIZES = 48  # where the tail stays open: sizes checked exactly up to here, for the first change
FIRST, SECOND = Token("first"), Token("second")
TOKEN = {"y": FIRST, "y2": SECOND}


@dataclass
class EveryK:
    """A property's verdict at every class count: exactly for K = 2..last, and `beyond` for every larger K, with the
    reasons why some size from TAIL on stayed open."""

    property: Property
    verdicts: dict[int, Truth]  # K = 2..last exactly
    beyond: Truth  # every K > last
    last: int = TAIL + 1
    tail_reasons: list[str] = field(default_factory=list)  # why some size from TAIL on stayed open

    def at(self, K: int) -> Truth:
        """The verdict at K classes."""
        return self.verdicts.get(K, self.beyond)


class _Atoms:
    """Truth of the atom per (placement, size): exact for small sizes, one z3 question for the tail."""

    def __init__(self, ev: SizeEvaluator, timeout_ms: int):
        self.ev, self.timeout_ms = ev, timeout_ms
        self._cache: dict = {}
        self.reasons: list[str] = []

    def truth(self, prop: Property, where: tuple, n) -> Truth:
        key = (prop.id, where, n)
        if key not in self._cache:
            self._cache[key] = self._tail(prop, where) if n == "tail" else self._exact(prop, where, n)
        return self._cache[key]

    def _exact(self, prop, where, n: int) -> Truth:
        try:
            value = self._atom(prop, where, n)
        except NotBySize:
            return Truth.UNKNOWN
        return value if isinstance(value, Truth) else Truth.of(bool(value))

    def _tail(self, prop, where) -> Truth:
        try:
            value = self._atom(prop, where, TAIL + M)
        except NotBySize as exc:
            self.reasons.append(str(exc))
            return Truth.UNKNOWN
        if isinstance(value, (bool, Truth)):
            return value if isinstance(value, Truth) else Truth.of(value)
        t = Translator(z3.Context())
        try:
            formula, sides = t.boolean(value), [t.expr(s) != 0 for s in self.ev.sides]
        except Unsupported as exc:
            self.reasons.append(f"beyond the SMT encoding ({exc})")
            return Truth.UNKNOWN
        m = t.var(M.name)
        for claim, negated in ((Truth.TRUE, z3.Not(formula)), (Truth.FALSE, formula)):
            solver = z3.Solver(ctx=t.ctx)
            solver.set("timeout", self.timeout_ms)
            solver.add(m >= 0, *t.side, *sides, negated)
            if solver.check() == z3.unsat:
                nonzero = z3.Solver(ctx=t.ctx)
                nonzero.add(m >= 0, *t.side, z3.Or([s == 0 for s in [t.expr(x) for x in self.ev.sides]] or
                                                   [z3.BoolVal(False, t.ctx)]))
                if nonzero.check() == z3.unsat:
                    return claim
        self.reasons.append(f"z3 could not settle {value} for every size from {TAIL} on")
        return Truth.UNKNOWN

    # -- the atom at one size -----------------------------------------------------------------------------
    def _atom(self, prop: Property, where: tuple, n):
        place = dict(where)
        atom = prop.atom
        if isinstance(atom, Possible):
            return self._possible(n, place["a"])
        named = frozenset(TOKEN[v] for v, side in place.items() if side == "in")
        if isinstance(atom, Compare):
            return self._compare(atom, named, n)
        if isinstance(atom, Implies):
            premise = self._compare(atom.premise, named, n)
            return _or(_not(premise), self._compare(atom.conclusion, named, n))
        if isinstance(atom, Both):
            return _and(self._compare(atom.first, named, n), self._compare(atom.second, named, n))
        raise NotBySize(f"no size-wise reading of {atom!r}")

    def _possible(self, n, a: str):
        """Y = the size-n set containing FIRST; a = "in": p uniform on Y; "out": p on SECOND outside Y."""
        named = frozenset({FIRST})
        if a == "in":  # every member is the truth with the same cost c_Y(FIRST), by symmetry
            column = [(self.ev.singleton(FIRST, t), k) for t, k in self.ev.members(named, n)]
            mean_member = sp.Add(*[k * v for v, k in column]) / n  # E_p[c_h] with h = FIRST, p uniform on Y
            return _relation(">", mean_member - self.ev.row(named, n, FIRST), sp.Integer(0))
        return _relation(">", self.ev.singleton(FIRST, SECOND) - self.ev.row(named, n, SECOND), sp.Integer(0))

    def _term(self, kind: str, cls: str, named, n):
        y = TOKEN[cls]
        if kind == "cost":
            return self.ev.row(named, n, y)
        column = [(self.ev.singleton(t, y), k) for t, k in self.ev.members(named, n)]
        if kind == "mean":
            return sp.Add(*[k * v for v, k in column]) / n
        if kind == "sorted":
            return column
        values = [v for v, _ in column]
        return certified_pick(values, kind)

    def _compare(self, atom: Compare, named, n):
        lhs, rhs = (self._term(t.kind, t.cls, named, n) for t in (atom.lhs, atom.rhs))
        if atom.lhs.kind == "sorted":
            same = _same_bag(lhs, rhs)
            return same if atom.op == "==" else _not(same)
        return _relation(atom.op, lhs, rhs)


def certified_pick(values, kind):
    """The min (kind 'min') or max of the values, chosen by certified comparison (sympy's Min or Max where the order
    cannot be decided)."""
    from verifier.formula.arith import pick

    return pick(values, -1 if kind == "min" else 1)


def _relation(op: str, a: sp.Expr, b: sp.Expr):
    if (a - b).free_symbols:
        return {"<": sp.Lt, "<=": sp.Le, ">=": sp.Ge, ">": sp.Gt, "==": sp.Eq, "!=": sp.Ne}[op](a, b, evaluate=False)
    s = certified.compare(a, b).value
    if s is None:
        return Truth.UNKNOWN
    return {"<": s < 0, "<=": s <= 0, ">=": s >= 0, ">": s > 0, "==": s == 0, "!=": s != 0}[op]


def _same_bag(a, b):
    """Two bags of determinate costs (constants) with multiplicities (numbers or TAIL + m - k)."""
    def merged(bag):
        out: list[list] = []
        for v, k in bag:
            for entry in out:
                s = certified.compare(entry[0], v).value
                if s is None:
                    raise NotBySize("member costs that cannot be told apart exactly")
                if s == 0:
                    entry[1] += k
                    break
            else:
                out.append([v, k])
        return out

    left, right = merged(a), merged(b)
    if len(left) != len(right):
        return False
    for v, k in left:
        match = [w for w in right if certified.compare(w[0], v).value == 0]
        if not match or sp.expand(match[0][1] - k) != 0:
            return False
    return True


def _not(x):
    if isinstance(x, Truth):
        return ~x
    return (not x) if isinstance(x, bool) else sp.Not(x)


def _and(x, y):
    if isinstance(x, Truth) or isinstance(y, Truth):
        return _truth(x) & _truth(y)
    if isinstance(x, bool) and isinstance(y, bool):
        return x and y
    return sp.And(x, y)


def _or(x, y):
    if isinstance(x, Truth) or isinstance(y, Truth):
        return ~(~_truth(x) & ~_truth(y))
    if isinstance(x, bool) and isinstance(y, bool):
        return x or y
    return sp.Or(x, y)


def _truth(x) -> Truth:
    if isinstance(x, Truth):
        return x
    if isinstance(x, bool):
        return Truth.of(x)
    return Truth.UNKNOWN  # a symbolic condition at a concrete size cannot occur; stay safe


def decide_every_k(prop: Property, ev: SizeEvaluator, timeout_ms: int = 10000, atoms: _Atoms | None = None) -> EveryK:
    """The property's verdict at every class count K >= 2 at once, for a class-blind scheme (see the module docstring);
    `atoms` shares the per-size atom answers across properties."""
    atoms = atoms or _Atoms(ev, timeout_ms)
    for exact in (EXACT_SIZES, SEARCH_SIZES):
        verdicts = {K: _at(prop, atoms, K, exact) for K in range(2, exact + 2)}
        beyond = _at(prop, atoms, None, exact)
        if beyond is not Truth.UNKNOWN:
            break
    kinds = {q.kind for q in prop.quantifiers}
    # an instance found at K exists at every larger K: a "for every" failure and a "some" success persist
    if beyond is Truth.UNKNOWN and kinds == {QuantifierKind.FORALL} and Truth.FALSE in verdicts.values():
        beyond = Truth.FALSE
    if beyond is Truth.UNKNOWN and kinds == {QuantifierKind.EXISTS} and Truth.TRUE in verdicts.values():
        beyond = Truth.TRUE
    return EveryK(prop, verdicts, beyond, exact + 1, list(dict.fromkeys(atoms.reasons)))


def new_atoms(ev: SizeEvaluator, timeout_ms: int) -> _Atoms:
    """A fresh cache of per-size atom answers, for `decide_every_k` to share across properties."""
    return _Atoms(ev, timeout_ms)


def _sizes(K: int | None, exact: int) -> list[tuple[object, int]]:
    """(size or "tail", how many classes lie outside Y) for every set size at class count K (None: every K >
    exact + 1, where the tail stands for the sizes K - 2 or less, K - 1 and K)."""
    if K is not None:
        return [(n if n <= exact else "tail", K - n) for n in range(2, K + 1)]
    return [(n, 2) for n in range(2, exact + 1)] + [("tail", 2), ("tail", 1), ("tail", 0)]


def _at(prop: Property, atoms: _Atoms, K: int | None, exact: int) -> Truth:
    sizes = _sizes(K, exact)
    if isinstance(prop.atom, Possible):
        return _fold("exists", [_fold("exists", [atoms.truth(prop, (("a", a),), n) for a in ("in", "out")
                                                 if a == "in" or outside >= 1]) for n, outside in sizes])
    return _fold(prop.quantifiers[0].kind, [_classes(prop, atoms, 1, (), n, outside) for n, outside in sizes])


def _classes(prop: Property, atoms: _Atoms, depth: int, where: tuple, n, outside: int) -> Truth:
    if depth == len(prop.quantifiers):
        return atoms.truth(prop, where, n)
    q = prop.quantifiers[depth]
    sides = {"in Y": ["in"], "not in Y": ["out"], "classes": ["in", "out"]}[q.domain]
    used_out = sum(1 for _, s in where if s == "out")
    children = [_classes(prop, atoms, depth + 1, where + ((q.var, side),), n, outside) for side in sides
                if side == "in" or used_out < outside]
    return _fold(q.kind, children)


def _fold(kind: str, truths: list[Truth]) -> Truth:
    if kind == QuantifierKind.FORALL:
        out = Truth.TRUE
        for t in truths:
            out = out & t
        return out
    out = Truth.FALSE
    for t in truths:
        out = ~(~out & ~t)
    return out
