"""Decisions from imprecise probabilities: a credal set given by probability intervals or by its vertices,
exact lower and upper expectations, and the rules of Troffaes' survey that produce sets of classes.

Lower expectations are exact linear programs: over a list of vertices the least value at a vertex; over
probability intervals the greedy solution (start every class at its lower bound, then give the remaining mass
to the cheapest classes first, up to their upper bounds), which is optimal for that LP and ends at a vertex,
reported as the extreme point where the bound is reached. E-admissibility asks whether some distribution of the
set makes a class optimal: an exact LP decided by z3, its witness re-checked in rationals.

The rules compare the determinate predictions (classes), as in the paper's Example 4, and predict the classes
no other dominates; Γ-minimax instead picks, among every set of the extended matrix, the one of least upper
expected cost. Costs must be rational here (irrational costs would need certified LPs). What the scheme
contributes (its exact rows, a z3 context) is built once in `SchemeRows`, which a batch shares across its sets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import z3

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product

from verifier.errors import UsageError
from verifier.plain_enum import PlainStrEnum
from verifier.scheme import ClassSet, Scheme


class Rule(PlainStrEnum):
    """The rules a credal set decides by (`--rule`), in the order the command lists them."""

    MAXIMALITY = "maximality"  # the classes no other dominates by a positive lower expectation of the difference
    INTERVAL_DOMINANCE = "interval-dominance"  # the classes whose lower expected cost is below every upper one
    E_ADMISSIBILITY = "e-admissibility"  # the classes optimal for some distribution of the set
    GAMMA_MAXIMIN = "gamma-maximin"  # the set of least upper expected cost (Γ-minimax)


RULES = tuple(Rule)
MAX_CREDAL_CLASSES = 12  # the vertices of an interval credal set number up to K·2^(K-1)


class CredalSet:
    """A credal set over K classes, given by probability intervals (`bounds`: (lower, upper) per class) or by
    its vertices, with exact lower and upper expectations."""

    def __init__(self, K: int, bounds: list[tuple[Fraction, Fraction]] | None = None,
                 vertices: list[list[Fraction]] | None = None):
        if K > MAX_CREDAL_CLASSES:
            raise UsageError(f"imprecise probabilities work on at most {MAX_CREDAL_CLASSES:,} classes, not {K}")
        self.K, self.bounds = K, bounds
        self._vertices = vertices

    @property
    def vertices(self) -> list[tuple[Fraction, ...]]:
        """The extreme points: given, or those of the intervals (all coordinates but one at a bound)."""
        if self._vertices is None:
            found: list[tuple[Fraction, ...]] = []
            for free in range(self.K):
                others = [i for i in range(self.K) if i != free]
                for ends in product((0, 1), repeat=len(others)):
                    p = [Fraction(0)] * self.K
                    for i, end in zip(others, ends):
                        p[i] = self.bounds[i][end]
                    p[free] = 1 - sum(p, Fraction(0))
                    lo, hi = self.bounds[free]
                    if lo <= p[free] <= hi and tuple(p) not in found:
                        found.append(tuple(p))
            self._vertices = sorted(found)
        return [tuple(v) for v in self._vertices]

    def lower(self, c: list[Fraction]) -> tuple[Fraction, tuple[Fraction, ...]]:
        """min over the set of Σ p(y)·c(y), and an extreme point where it is reached."""
        if self.bounds is None:
            return min(((_dot(v, c), tuple(v)) for v in self.vertices), key=lambda t: t[0])
        p = [lo for lo, _ in self.bounds]
        rest = 1 - sum(p, Fraction(0))
        for y in sorted(range(self.K), key=lambda y: (c[y], y)):
            give = min(rest, self.bounds[y][1] - self.bounds[y][0])
            p[y] += give
            rest -= give
        return _dot(p, c), tuple(p)

    def upper(self, c: list[Fraction]) -> tuple[Fraction, tuple[Fraction, ...]]:
        """max over the set of Σ p(y)·c(y) (minus the lower expectation of −c), and an extreme point where it
        is reached."""
        value, p = self.lower([-x for x in c])
        return -value, p

    def contains(self, p) -> bool:
        """Membership of an interval credal set (vertex sets are checked through their weights)."""
        return sum(p, Fraction(0)) == 1 and all(lo <= x <= hi for x, (lo, hi) in zip(p, self.bounds))


def _dot(p, c) -> Fraction:
    return sum((a * b for a, b in zip(p, c)), Fraction(0))


def rational_row(scheme: Scheme, members: ClassSet) -> list[Fraction]:
    """The set's costs c_Y(y) for every class y as exact Fractions; a UsageError when one is not rational."""
    row = []
    for y in range(scheme.K):
        v = scheme.cost(members, y)
        if not getattr(v, "is_Rational", False):
            raise UsageError(f"imprecise probabilities need rational costs; c_{scheme.label(members)}"
                             f"({scheme.classes[y]}) = {v} is not rational")
        row.append(Fraction(int(v.p), int(v.q)))
    return row


class SchemeRows:
    """What the rules need of a scheme, built once and shared by every credal set decided under it (a batch):
    the exact rows of the cost matrix, each computed on first use, and one z3 context for e-admissibility."""

    def __init__(self, scheme: Scheme):
        self.scheme = scheme
        self._rows: dict[ClassSet, list[Fraction]] = {}
        self.det = [self.row(frozenset((i,))) for i in range(scheme.K)]  # the determinate predictions' rows
        self._context = None

    def row(self, members: ClassSet) -> list[Fraction] | None:
        """The set's exact row; None for a set outside the spec's prediction family (it has no row)."""
        if members not in self.scheme.rows:
            return None
        if members not in self._rows:
            self._rows[members] = rational_row(self.scheme, members)
        return self._rows[members]

    @property
    def context(self) -> "z3.Context":
        """The z3 context every e-admissibility check under this scheme shares, made on first use."""
        if self._context is None:
            import z3  # only e-admissibility needs z3; the other rules never load it

            self._context = z3.Context()
        return self._context


@dataclass
class Comparison:
    """One determinate prediction dominating another under a rule, with the exact quantity that decided it."""

    better: int  # class index
    worse: int
    value: Fraction  # the quantity that decided it (a lower expectation, or a gap of bounds)
    at: tuple[Fraction, ...] | None  # the extreme point where the lower expectation is reached


@dataclass
class CredalDecision:
    """What a rule decided for one credal set: the prediction and its evidence (the dominances, e-admissibility's
    witnesses, gamma-maximin's bounds and tied sets), and the classes z3 left undecided."""

    rule: str
    prediction: list[int] | ClassSet  # classes, or the chosen set (gamma-maximin)
    dominances: list[Comparison] = field(default_factory=list)
    witnesses: dict[int, tuple[Fraction, ...]] = field(default_factory=dict)  # e-admissibility: p per class
    bounds: dict[ClassSet, tuple[Fraction, Fraction]] = field(default_factory=dict)  # set -> (lower, upper)
    ties: list[ClassSet] = field(default_factory=list)
    undecided: list[int] = field(default_factory=list)  # e-admissibility: classes z3 gave no answer for


def decide_credal(scheme: Scheme, credal: CredalSet, rule: str, rows: SchemeRows | None = None) -> CredalDecision:
    """The prediction of `rule` for `credal`. `rows`: the scheme's rows built once for many credal sets (made
    here when not given, so that one set and a batch take the same path)."""
    if rule not in RULES:
        raise UsageError(f"--rule {rule!r}: expected one of {', '.join(RULES)}")
    rows = rows if rows is not None else SchemeRows(scheme)
    K, det = scheme.K, rows.det
    out = CredalDecision(rule, [])
    if rule == Rule.GAMMA_MAXIMIN:
        for members in scheme.all_sets:
            row = rows.row(members)
            out.bounds[members] = (credal.lower(row)[0], credal.upper(row)[0])
        best = min(u for _, u in out.bounds.values())
        out.ties = sorted((m for m, (_, u) in out.bounds.items() if u == best), key=lambda m: (len(m), sorted(m)))
        out.prediction = out.ties[0]
        return out
    if rule == Rule.E_ADMISSIBILITY:
        for i in range(K):
            p = _admissible_at(credal, det, i, rows.context)
            if p == "unknown":
                out.undecided.append(i)
            elif p is not None:
                out.witnesses[i] = p
        out.prediction = sorted(out.witnesses)
    else:
        for i in range(K):
            for j in range(K):
                if i == j:
                    continue
                if rule == Rule.MAXIMALITY:  # i ≻ j iff the lower expectation of c_j − c_i is positive
                    value, at = credal.lower([b - a for a, b in zip(det[i], det[j])])
                else:  # interval dominance: i ≻ j iff the lower expectation of c_j exceeds the upper of c_i
                    value, at = credal.lower(det[j])[0] - credal.upper(det[i])[0], None
                if value > 0:
                    out.dominances.append(Comparison(i, j, value, at))
        dominated = {c.worse for c in out.dominances}
        out.prediction = [i for i in range(K) if i not in dominated]
    members = frozenset(out.prediction)
    row = rows.row(members) if members else None
    if row is not None:  # undominated classes outside a restricted family have no row, hence no expected cost
        out.bounds[members] = (credal.lower(row)[0], credal.upper(row)[0])
    return out


def _admissible_at(credal: CredalSet, det: list[list[Fraction]], i: int,
                   ctx: "z3.Context") -> tuple[Fraction, ...] | str | None:
    """A distribution of the credal set under which class i has the least expected cost, None when z3 proves
    there is none, or "unknown" when z3 gives no answer (never read as "not admissible"). A fresh solver in
    `ctx` (shared by a batch: making a context costs more than this small LP)."""
    import z3
    K = credal.K
    solver = z3.Solver(ctx=ctx)
    if credal.bounds is not None:
        p = [z3.Real(f"p{y}", ctx) for y in range(K)]
        for x, (lo, hi) in zip(p, credal.bounds):
            solver.add(x >= _q(lo, ctx), x <= _q(hi, ctx))
    else:
        weights = [z3.Real(f"w{v}", ctx) for v in range(len(credal.vertices))]
        solver.add(*[w >= 0 for w in weights], z3.Sum(weights) == 1)
        p = [z3.Sum([w * _q(v[y], ctx) for w, v in zip(weights, credal.vertices)]) for y in range(K)]
    solver.add(z3.Sum(p) == 1)
    for j in range(K):
        solver.add(z3.Sum([x * _q(det[i][y] - det[j][y], ctx) for y, x in enumerate(p)]) <= 0)
    answer = solver.check()
    if answer == z3.unknown:
        return "unknown"
    if answer == z3.unsat:
        return None
    model = solver.model()

    def read(x) -> Fraction:
        v = model.eval(x, model_completion=True)
        return Fraction(v.numerator_as_long(), v.denominator_as_long())

    if credal.bounds is not None:
        witness = tuple(read(x) for x in p)
        inside = credal.contains(witness)
    else:  # rebuilt from the weights, so that it is a convex combination of the vertices by construction
        w = [read(x) for x in weights]
        witness = tuple(sum((wv * v[y] for wv, v in zip(w, credal.vertices)), Fraction(0)) for y in range(K))
        inside = all(x >= 0 for x in w) and sum(w, Fraction(0)) == 1
    # re-checked in rationals: in the set, and class i no dearer than any other there
    if not inside or not all(_dot(witness, det[i]) <= _dot(witness, det[j]) for j in range(K)):
        raise RuntimeError(f"z3's witness for class {i} does not re-check: {witness}")
    return witness


def _q(x: Fraction, ctx) -> "z3.ArithRef":
    import z3
    return z3.RealVal(f"{x.numerator}/{x.denominator}", ctx)
