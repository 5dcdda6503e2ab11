"""With two parameters, every set's status (alone, tied, never) over the whole admissible plane, and where it
changes as exact conditions, from a cylindrical decomposition instead of questions to z3: bounded by the
degrees of the costs, so the same conditions on every machine.

Per set, the polynomials whose signs decide it (`analysis.sign_factors`: the factors of its comparison
matrix's minors), the assumptions' polynomials and the edges of the box the assumptions bound are decomposed
(`analysis.plane_cells`): every sign pattern they take, each with a point. The set's status at a pattern is read
from the signs alone (`analysis.sign_status`), so a curve or a point is decided as exactly as an open cell.
The condition for each status is then a formula in the fewest factors that separate its patterns from the
others (`analysis.sign_formulas`), checked against every pattern; no pattern the plane does not take
constrains it. Each status is shown at a rational point where the numeric engine decides the set again and
the independent checker re-checks it; a disagreement leaves the scheme to the z3 route.

Owns: `plane_optimality`, `plane_possibility`. May import: engines, scheme, errors, verdict,
`analysis.plane_cells`, `analysis.sign_factors`, `analysis.sign_status`, `analysis.sign_formulas`,
`analysis.optimality_across`, `analysis.polynomial_matrix`, `analysis.plane_text`.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import flint

from verifier.analysis.optimality_across import Points
from verifier.analysis.plane_cells import NotDecomposed, Shared, decompose
from verifier.analysis.plane_text import condition_text
from verifier.analysis.polynomial_matrix import as_flint, as_sympy, primitive
from verifier.analysis.sign_factors import Factor, TooManyFactors, comparison_rows, decisive_factors
from verifier.analysis.sign_formulas import formula, separating, sum_of_products
from verifier.analysis.sign_status import SignStatus
from verifier.engines.parametric_optimality import MAX_SETS
from verifier.errors import DoesNotApply
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import ClassSet, Scheme
from verifier.verdict import Optimal, SetOptimality

SIMPLE, LINE, SPAN = 4, 12, 4  # the simple points tried for display: denominators up to 4, 12 per axis
MAX_FACTORS = 24  # factors one condition may name before the scheme is left to the z3 route
ORDER = (Optimal.ALONE, Optimal.TIED, Optimal.NEVER)
_RELATIONS = {sp.StrictGreaterThan: lambda s: s > 0, sp.GreaterThan: lambda s: s >= 0,
              sp.StrictLessThan: lambda s: s < 0, sp.LessThan: lambda s: s <= 0,
              sp.Equality: lambda s: s == 0, sp.Unequality: lambda s: s != 0}


class NotPlanar(DoesNotApply):
    """The scheme is beyond this route (not two parameters, costs or assumptions not rational polynomials)."""


def plane_possibility(scheme: Scheme) -> tuple[str, sp.Basic] | None:
    """Where Property 1 holds across two parameters (some indeterminate set possible), as (text, formula);
    None when the scheme is beyond this route."""
    if len(scheme.symbols) != 2 or len(scheme.all_sets) > MAX_SETS:
        return None
    try:
        plane = _Plane(scheme)
        found = plane.possible()
        return condition_text(scheme, found, plane.box), found
    except (NotPlanar, NotDecomposed, TooManyFactors):
        return None


def plane_optimality(scheme: Scheme) -> dict[ClassSet, SetOptimality] | None:
    """Every set's status and conditions across two parameters; None when the scheme is beyond this route."""
    if len(scheme.symbols) != 2 or len(scheme.all_sets) > MAX_SETS:
        return None
    try:
        plane = _Plane(scheme)
        return {m: plane.one(m) for m in scheme.all_sets}
    except (NotPlanar, NotDecomposed, TooManyFactors):
        return None


class _Plane:
    def __init__(self, scheme: Scheme):
        self.scheme, self.symbols = scheme, list(scheme.symbols)
        self.ctx = flint.fmpq_mpoly_ctx.get(tuple(s.name for s in self.symbols), "lex")
        self.assumed = self._assumptions()
        self.box = tuple(self._range(i) for i in range(2))
        self.shared = Shared(self.box)  # what the sets' decompositions have in common, computed once
        self.points = Points(scheme)
        self.simple_points = _simple_points(self.box)

    def _assumptions(self) -> list[tuple[type, int, dict[sp.Expr, int]]]:
        """Each assumption as (relation, sign of its lex-leading coefficient, {factor: exponent}): its
        polynomial's sign is that sign times the product of the (primitive, positive) factors' signs."""
        out = []
        for condition, _ in self.scheme.assumptions:
            for part in condition.args if isinstance(condition, sp.And) else (condition,):
                if type(part) not in _RELATIONS:
                    raise NotPlanar(f"the assumption {part} is not a polynomial relation")
                poly = as_flint([[sp.expand(part.lhs - part.rhs)]], self.symbols)
                if poly is None:
                    raise NotPlanar(f"the assumption {part} is not a polynomial relation")
                poly = poly[0][0]
                terms = poly.to_dict()
                if not terms:
                    continue
                lead = 1 if terms[max(terms)] > 0 else -1
                factors = {as_sympy(primitive(f), self.symbols): e for f, e in poly.factor()[1] if not f.is_constant()}
                out.append((type(part), lead, factors))
        return out

    def _range(self, i: int) -> tuple[Fraction | None, Fraction | None]:
        """The box the assumptions bound parameter i to: its bounds in assumptions of that parameter alone and
        of degree one (a superset of the admissible values; None: unbounded)."""
        lo = hi = None
        symbol = self.symbols[i]
        for relation, lead, factors in self.assumed:
            if len(factors) != 1:
                continue
            (f, e), = factors.items()
            if e != 1 or f.free_symbols != {symbol} or sp.Poly(f, symbol).degree() != 1:
                continue
            a, b = sp.Poly(f, symbol).all_coeffs()  # f = a·x + b, a > 0: the sign of f is that of x − (−b/a)
            bound = Fraction(int((-b / a).p), int((-b / a).q))
            above = {sp.StrictGreaterThan: True, sp.GreaterThan: True, sp.StrictLessThan: False,
                     sp.LessThan: False}.get(relation)
            if relation is sp.Equality:
                lo = bound if lo is None else max(lo, bound)
                hi = bound if hi is None else min(hi, bound)
            elif above is not None:
                if (lead > 0) == above:
                    lo = bound if lo is None else max(lo, bound)
                else:
                    hi = bound if hi is None else min(hi, bound)
        return lo, hi

    def one(self, members: ClassSet) -> SetOptimality:
        self._polynomial(members)
        factors = decisive_factors(self.scheme, members)
        status = SignStatus(self.scheme, members, factors)
        rows, probe = self.patterns(factors, status.status)
        return self._entry(members, factors, rows, probe)

    def possible(self) -> sp.Basic:
        """Exactly where some indeterminate set is possible (Definition 4: for some p it costs strictly less
        than each of its members), as one formula over the factors of every such set's comparisons with its
        members, decomposed together."""
        against = {m: [frozenset((y,)) for y in sorted(m)] for m in self.scheme.indeterminate_sets}
        factors: dict[sp.Expr, Factor] = {}
        for members, singletons in against.items():
            self._polynomial(members, singletons)
            for f in decisive_factors(self.scheme, members, singletons):
                factors.setdefault(f.expr, f)
        ordered = list(factors.values())
        judges = [SignStatus(self.scheme, m, ordered, singletons).status for m, singletons in against.items()]
        rows, _ = self.patterns(ordered, lambda signs: any(j(signs) == Optimal.ALONE for j in judges))
        return self._condition(ordered, [(signs, judged, cell) for signs, judged, cell in rows], True)

    def _polynomial(self, members: ClassSet, against: list[ClassSet] | None = None) -> None:
        """Refuse (NotPlanar) a comparison whose costs are not polynomials with rational coefficients (a root,
        a quotient of parameters): such a scheme is left to the z3 route."""
        if as_flint(comparison_rows(self.scheme, members, against), self.symbols) is None:
            raise NotPlanar("a cost is not a polynomial with rational coefficients")

    def patterns(self, factors: list[Factor], judge) -> tuple[list, object]:
        """For every admissible sign pattern of the plane of `factors` (with the assumptions' and the box's
        polynomials), (its signs, `judge` of them, the cell); and the judge at a rational point (None outside
        the assumptions)."""
        if any(not isinstance(f.flint, flint.fmpq_mpoly) for f in factors):
            raise NotPlanar("a factor is not a rational polynomial")
        extra = self._extra([f.expr for f in factors])
        polys = [f.flint for f in factors] + [self._flint(e) for e in extra]
        cells = decompose(polys, self.box, self.shared)
        index = {f.expr: i for i, f in enumerate(factors)}
        index.update({e: len(factors) + k for k, e in enumerate(extra)})

        def probe(point: tuple[Fraction, Fraction]):
            x, y = (flint.fmpq(v.numerator, v.denominator) for v in point)
            signs = tuple((v > 0) - (v < 0) for v in (p(x, y) for p in polys))
            return judge(signs[:len(factors)]) if self._admits(signs, index) else None
        rows = []
        for cell in cells:
            if self._admits(cell.signs, index):
                signs = cell.signs[:len(factors)]
                rows.append((signs, judge(signs), cell))
        if any(not cell.sure for _, _, cell in rows):
            sure = {s for _, s, cell in rows if cell.sure}
            if {s for _, s, _ in rows} - sure:
                raise NotDecomposed("a status is taken only on a line whose patterns are offered as a superset")
        return rows, probe

    def _extra(self, exprs: list[sp.Expr]) -> list[sp.Expr]:
        """The assumptions' factors not already among the set's factors (the box's edges: `decompose`)."""
        out = []
        for _, _, factors in self.assumed:
            out.extend(f for f in factors if f not in exprs and f not in out)
        return out

    def _flint(self, expr: sp.Expr):
        return as_flint([[expr]], self.symbols)[0][0]

    def _admits(self, signs: tuple[int, ...], index: dict) -> bool:
        for relation, lead, factors in self.assumed:
            sign = lead
            for f, e in factors.items():
                sign *= signs[index[f]] ** e
            if not _RELATIONS[relation](sign):
                return False
        return True

    def _entry(self, members: ClassSet, factors: list[Factor], rows: list, probe) -> SetOptimality:
        sure = {s for _, s, cell in rows if cell.sure}
        if not sure:
            raise NotDecomposed("no admissible point was found")
        overall = next(s for s in ORDER if s in sure)
        simple = {}  # the simplest points of the box, by status: the points shown where they have one
        for point in self.simple_points:
            simple.setdefault(probe(point), point)
        shown = {s: self._shown(members, s, rows, simple.get(s)) for s in ORDER if s in sure}
        at, found = shown[overall]
        entry = SetOptimality(members, overall, witness=found.witness if found else None,
                              margin=found.margin if found else None,
                              margin_is_bound=found.margin_is_bound if found else False,
                              tied_with=found.tied_with if found else (),
                              certificate=found.certificate if found else None, at=at,
                              reason=_reason(overall, at))
        if len(sure) == 1:
            return entry
        parts = []
        for s in ORDER:
            if s in sure:
                condition = self._condition(factors, rows, s)
                text = condition_text(self.scheme, condition, self.box)
                parts.append((s.value, text, *shown[s], condition))
        return replace(entry, conditions=tuple(parts))

    def _shown(self, members: ClassSet, status: Optimal, rows: list,
               simple) -> tuple[dict | None, SetOptimality | None]:
        """A rational point with that status (a simple one of the box's, else a cell's), decided again there by
        the numeric engine and re-checked; (None, None) when the status is taken only at irrational points."""
        cells = [cell.point for _, s, cell in rows if s == status and cell.sure and cell.point is not None]
        for chosen in ([simple] if simple is not None else []) + cells[:1]:
            if chosen is not None:
                point = {sym.name: sp.Rational(x.numerator, x.denominator) for sym, x in zip(self.symbols, chosen)}
                decided = self.points.decide(point)
                found = decided.get(members) if decided is not None else None
                if found is None or found.status != status:
                    raise NotDecomposed(f"the numeric engine disagrees at {point}")
                return point, found
        return None, None

    def _condition(self, factors: list[Factor], rows: list, wanted) -> sp.Basic:
        """The formula in the fewest factors that holds at every admissible pattern judged `wanted` and at no
        other, checked pattern by pattern; then each literal the admissible patterns make an equality or always
        true written so ("f ≥ 0" where no admissible pattern has f > 0 is "f = 0")."""
        flagged = list({signs: judged == wanted for signs, judged, _ in rows}.items())
        if all(inside for _, inside in flagged):
            return sp.true
        chosen = separating(flagged, len(factors), limit=MAX_FACTORS)
        if chosen is None:
            raise NotDecomposed(f"more than {MAX_FACTORS} factors separate where it is {wanted}")
        sop = sum_of_products(flagged, chosen, True)
        taken = {i: {signs[i] for signs, _ in flagged} for i in chosen}
        stated = _tightened(formula(sop, [factors[i].expr for i in chosen]),
                            {factors[i].expr: taken[i] for i in chosen})
        holds = _compiled(stated, {f.expr: i for i, f in enumerate(factors)})
        if any(holds(signs) != inside for signs, inside in flagged):
            raise NotDecomposed("the condition does not match a pattern")
        return stated


def _tightened(stated: sp.Basic, taken: dict) -> sp.Basic:
    """Each literal `f op 0` read against the signs f takes on admissible patterns: true or false when they
    settle it, "f = 0" when only 0 is left on its side."""
    if isinstance(stated, (sp.And, sp.Or)):
        return stated.func(*[_tightened(a, taken) for a in stated.args])
    if not isinstance(stated, sp.core.relational.Relational):
        return stated
    signs = taken[stated.lhs]
    holding = {s for s in signs if _RELATIONS[type(stated)](s)}
    if holding == signs:
        return sp.true
    if not holding:
        return sp.false
    if holding == {0}:
        return sp.Eq(stated.lhs, 0)
    return stated


def _compiled(stated: sp.Basic, index: dict):
    """The formula's truth at a sign pattern, as a function (its atoms are `f op 0` for factors f)."""
    if stated in (sp.true, sp.false):
        return lambda signs, value=stated == sp.true: value
    if isinstance(stated, (sp.And, sp.Or)):
        parts = [_compiled(a, index) for a in stated.args]
        if isinstance(stated, sp.And):
            return lambda signs: all(p(signs) for p in parts)
        return lambda signs: any(p(signs) for p in parts)
    if isinstance(stated, sp.Not):
        inner = _compiled(stated.args[0], index)
        return lambda signs: not inner(signs)
    position, relation = index[stated.lhs], _RELATIONS[type(stated)]
    return lambda signs: relation(signs[position])


def _simple_points(box) -> list[tuple[Fraction, Fraction]]:
    """Points of the box whose coordinates have denominators up to SIMPLE (an unbounded side: SPAN wide),
    simplest first."""
    axes = []
    for lo, hi in box:
        lo = hi - SPAN if lo is None and hi is not None else lo
        lo = Fraction(0) if lo is None else lo
        hi = lo + SPAN if hi is None else hi
        values = {Fraction(n, d) for d in range(1, SIMPLE + 1)
                  for n in range(-(-lo.numerator * d // lo.denominator), hi.numerator * d // hi.denominator + 1)}
        axes.append(sorted(values, key=lambda v: (v.denominator, abs(v.numerator), v)))
    points = [(x, y) for x in axes[0][:LINE] for y in axes[1][:LINE]]
    return sorted(points, key=lambda p: (p[0].denominator + p[1].denominator,
                                         abs(p[0].numerator) + abs(p[1].numerator), p))


def _reason(status: Optimal, at: dict | None) -> str:
    where = ", ".join(f"{name} = {value}" for name, value in at.items()) if at else None
    decided = "decided exactly on every cell of a decomposition of the parameter plane"
    if status == Optimal.ALONE:
        return f"the unique best prediction for some p at {where} (checked exactly there)" if where else \
            f"the unique best prediction for some p at some admissible value ({decided})"
    if status == Optimal.TIED:
        return f"never the unique best prediction for any admissible parameter value ({decided}); a minimiser " \
               f"in ties" + (f" at {where}" if where else " at some admissible value")
    return f"never a best prediction for any admissible parameter value ({decided})" + \
        (f"; the certificate shown holds at {where}" if where else "")
