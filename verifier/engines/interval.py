"""Certified interval branch-and-bound over the parameter box, for terms z3 cannot express.

Used when a parameter sits in an exponent or under log/exp (e.g. genmean with exponent 1 - r). First the
corners of the admissible box (closed boundaries such as r = 0 and r = 1 are examined, not skipped) and a
grid of rational points are checked exactly by substitution; a failure there is a counterexample. Then
boxes are bisected until the violation formula is certainly false on each (python-flint arb, Kleene
logic); boxes still undecided at the finest width are named in an `unknown`. P1 is proved box by box with a
witness distribution p found at the box's centre and certified on the whole box.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import flint
import z3

from verifier import limits
from verifier.engines import obligations
from verifier.engines.smt.engine import SmtEngine
from verifier.errors import SpecError
from verifier.formula.enclose import Unsupported, condition_truth, enclose
from verifier.formula.genmean import EXPONENT_FACTS, genmean_class
from verifier.lazy_sympy import sympy as sp
from verifier.properties import Possible, Property
from verifier.scheme.orbits import rebuild_at
from verifier.verdict import Evidence, PropertyResult, Truth, Verdict

PRECISION = 96
MAX_BOXES = 1500
MIN_WIDTH = Fraction(1, 2**12)
GRID = 4  # exact checks at GRID + 1 points per parameter (corners included)

Box = tuple[tuple[Fraction, Fraction], ...]


class IntervalEngine:
    """The interval engine: decides properties whose terms z3 cannot express by exact checks at points and certified
    bisection of the admissible parameter box."""

    def __init__(self, smt: SmtEngine):
        self.smt = smt
        self.scheme = smt.scheme
        self.symbols = smt.scheme.symbols
        self.box = self._bounds()
        self.facts = self._exponent_facts()

    def _exponent_facts(self) -> dict:
        """For each generalized-mean exponent p: is p <= 1 (or >= 1) for every admissible value? (z3)"""

        facts = {}
        exponents = {g.args[0] for row in self.scheme.rows.values() for cell in row
                     for g in cell.atoms(genmean_class())}
        for p in exponents:
            try:
                x = self.smt.translator.expr(p)
            except Unsupported:
                continue
            facts[p] = {name for name, bad in (("le1", x > 1), ("ge1", x < 1), ("ge0", x < 0))
                        if self.smt.solve(bad)[0] == z3.unsat}
        return facts

    def _bounds(self) -> Box | None:
        """The smallest box containing the admissible values (z3 optimises each parameter)."""
        bounds = []
        for symbol in self.symbols:
            x = self.smt.translator.var(symbol.name)
            ends = []
            for goal in ("minimize", "maximize"):
                opt = z3.Optimize(ctx=self.smt.ctx)
                opt.set("timeout", limits.question_ms(self.smt.timeout_ms))
                opt.add(*self.smt.assumptions, *self.smt.translator.side)
                handle = getattr(opt, goal)(x)
                if opt.check() != z3.sat:
                    return None
                value = _closure(handle.value())
                if value is None:
                    return None  # unbounded: no box to search
                ends.append(value)
            bounds.append(tuple(ends))
        return tuple(bounds)

    def decide(self, prop: Property) -> PropertyResult:
        """Decide the property on the admissible box: a failure at a corner or grid point is a counterexample; it holds
        when bisection certifies every box; else unknown, naming the boxes left."""
        if self.box is None:
            return _unknown(prop, "the SMT encoding cannot express it and the parameters are not bounded by the "
                                  "assumptions, so no interval search is possible")
        for point in self._points():
            failing = self._fails_at(prop, point)
            if failing is not None:
                return failing
        try:
            undecided = self._prove(prop)
        except Unsupported as exc:
            return _unknown(prop, f"neither z3 nor intervals can express it: {exc}")
        if not undecided:
            return PropertyResult(prop, Verdict.HOLDS, Evidence("proof", instances=0),
                                  reason="certified interval bisection over the whole admissible box")
        return _unknown(prop, "no counterexample found, but intervals could not decide it on "
                              + _describe(self.symbols, undecided))

    # -- exact checks at points -------------------------------------------------------------------------------
    def _points(self, side: bool = True):
        axes = [[lo + (hi - lo) * Fraction(i, GRID) for i in range(GRID + 1)] for lo, hi in self.box]
        for point in itertools.product(*axes):
            values = {s.name: sp.Rational(v.numerator, v.denominator) for s, v in zip(self.symbols, point)}
            if self._admissible(values, side):
                yield values

    def _admissible(self, values, side: bool = True) -> bool:
        """Certified at the point: every assumption (and side condition) surely true there."""
        conditions = self.scheme.assumptions + (self.scheme.side_conditions if side else [])
        return all(self._at(c, values) is True for c, _ in conditions)

    def _at(self, condition, values) -> bool | None:
        point = tuple((Fraction(int(values[s.name].p), int(values[s.name].q)),) * 2 for s in self.symbols)
        try:
            return self._truth(condition, point)
        except Unsupported:
            return None

    def undefined_somewhere(self, conditions) -> str:
        """Side conditions z3 could not settle: a SpecError at an exact admissible value that breaks one, ""
        when intervals certify them on the whole admissible box, else a description of where they could not."""
        if self.box is None:
            return "the parameters are not bounded by the assumptions, so intervals cannot check it"
        for values in self._points(side=False):
            for condition, text in conditions:
                if self._at(condition, values) is False:
                    mark = self.scheme.spec.marks.get("assume") or self.scheme.spec.marks.get("")
                    raise SpecError(f"a formula is undefined at an admissible value ({text} fails at "
                                    + ", ".join(f"{k} = {v}" for k, v in values.items()) + ")",
                                    file=self.scheme.spec.path, key="assume", line=mark.line if mark else None,
                                    expected="assumptions that keep every formula defined")
        try:
            undecided = self._bisect(lambda box: all(self._truth(c, box) is True for c, _ in conditions))
        except Unsupported as exc:
            return str(exc)
        return _describe(self.symbols, undecided) if undecided else ""

    def _fails_at(self, prop: Property, values) -> PropertyResult | None:
        result = self.smt.confirm(prop, values)
        return result if result.verdict is Verdict.FAILS else None

    # -- bisection ------------------------------------------------------------------------------------------------
    def _prove(self, prop: Property) -> list[Box]:
        """Boxes on which the property could not be certified (empty: it holds on the whole box)."""
        if isinstance(prop.atom, Possible):
            check = self._p1_safe
        else:
            violation = obligations.violation(self.scheme, prop).formula
            check = lambda box: self._truth(violation, box) is False  # noqa: E731
        return self._bisect(check)

    def _bisect(self, check) -> list[Box]:
        """Bisect the admissible box until `check` certifies each piece; return the pieces it could not."""
        work, undecided, boxes = [self.box], [], 0
        while work:
            box = work.pop()
            boxes += 1
            if self._assumptions_truth(box) is False or check(box):
                continue
            widest = max(range(len(box)), key=lambda i: box[i][1] - box[i][0])
            lo, hi = box[widest]
            if hi - lo <= MIN_WIDTH or boxes > MAX_BOXES:
                undecided.append(box)
                continue
            middle = (lo + hi) / 2
            work += [box[:widest] + ((lo, middle),) + box[widest + 1:],
                     box[:widest] + ((middle, hi),) + box[widest + 1:]]
        return _merge(undecided)

    def _env(self, box: Box) -> dict:
        return {s: _ball(lo, hi) for s, (lo, hi) in zip(self.symbols, box)}

    def _truth(self, condition, box: Box) -> bool | None:
        env = self._env(box)
        token = EXPONENT_FACTS.set(self.facts)
        try:
            return condition_truth(condition, lambda node: enclose(node, PRECISION, env))
        finally:
            EXPONENT_FACTS.reset(token)

    def _assumptions_truth(self, box: Box) -> bool | None:
        parts = [self._truth(c, box) for c, _ in self.scheme.assumptions]
        return False if False in parts else (None if None in parts else True)

    def _p1_safe(self, box: Box) -> bool:
        """Some set has one witness p (found at the box's centre) that certifiably works on the whole box."""
        centre = {s.name: sp.Rational((lo + hi) / 2) for s, (lo, hi) in zip(self.symbols, box)}
        if not self._admissible(centre):
            return False
        from verifier.engines.enumerate import EnumerationEngine

        try:
            concrete = rebuild_at(self.scheme, centre)
        except SpecError:  # e.g. a power too large to compute exactly at this value: no witness from here
            return False
        for entry in EnumerationEngine(concrete).possibility.values():
            if entry.status is not Truth.TRUE:
                continue
            members, p = entry.members, entry.witness
            gaps = [sp.Gt(sp.Add(*[p[y] * (self.scheme.det(h, y) - self.scheme.cost(members, y))
                                   for y in range(self.scheme.K)]), 0) for h in sorted(members)]
            if self._truth(sp.And(*gaps), box) is True:
                return True
        return False


def _closure(value: z3.ExprRef) -> Fraction | None:
    """An optimum as a rational; a strict bound (r > 0 gives 0 + epsilon) becomes its closure."""
    epsilons = [c for c in _constants(value) if c.decl().name() == "epsilon"]
    if epsilons:
        value = z3.simplify(z3.substitute(value, *[(e, z3.RealVal(0, value.ctx)) for e in epsilons]))
    if z3.is_int_value(value):
        return Fraction(value.as_long())
    if z3.is_rational_value(value):
        return Fraction(value.numerator_as_long(), value.denominator_as_long())
    return None  # oo, or something we cannot read


def _constants(e: z3.ExprRef):
    if z3.is_const(e) and not z3.is_rational_value(e) and not z3.is_int_value(e):
        yield e
    for child in e.children():
        yield from _constants(child)


def _ball(lo: Fraction, hi: Fraction) -> flint.arb:
    mid, rad = (lo + hi) / 2, (hi - lo) / 2
    return flint.arb(flint.fmpq(mid.numerator, mid.denominator), flint.fmpq(rad.numerator, rad.denominator))


def _merge(boxes: list[Box]) -> list[Box]:
    """Join adjacent undecided boxes along the first parameter, for a short description."""
    boxes = sorted(boxes)
    out: list[Box] = []
    for box in boxes:
        if out and out[-1][1:] == box[1:] and out[-1][0][1] == box[0][0]:
            out[-1] = ((out[-1][0][0], box[0][1]),) + box[1:]
        else:
            out.append(box)
    return out


def _describe(symbols, boxes: list[Box]) -> str:
    shown = [" × ".join(f"{s.name} ∈ [{lo}, {hi}]" for s, (lo, hi) in zip(symbols, box)) for box in boxes[:4]]
    more = f" and {len(boxes) - 4:,} more box(es)" if len(boxes) > 4 else ""
    return "; ".join(shown) + more


def _unknown(prop: Property, reason: str) -> PropertyResult:
    return PropertyResult(prop, Verdict.UNKNOWN, Evidence("none"), reason=reason)
