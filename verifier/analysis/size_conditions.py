"""Beyond the per-set questions (more sets than `engines.parametric_optimality` asks one by one), a scheme whose
classes are alike: where each size's sets are alone, only tied or never optimal, as exact conditions on two or
more parameters, as `analysis.optimality_conditions` states them set by set.

Every set of n classes has the status of {1..n}, decided along the symmetric segment p(s) = s/n on it,
(1 − s)/(K − n) off it (`engines.orbit_optimality`: averaging over the relabellings that fix the set keeps a
minimiser a minimiser). Along it each other set of type (m, j) differs from {1..n} by a line
g(s) = (1 − s)·g(0) + s·g(1), so "alone somewhere on the segment" is (1 − s, s) eliminated from "every line > 0"
(`analysis.simplex_elimination`, exact, case by case): a formula in the parameters alone, exactly where the
size is alone (>= 0: a minimiser). The condition stated is the shortest candidate (one case's inequalities, or
the whole result) z3 proves equivalent to it, a question over the parameters alone. In each region z3 gives a
point, and the numeric engine decides the scheme exactly at a rational point there, re-checked by the
independent checker (`optimality_across.Points`). Nothing is decided in floating point.

Owns: `size_conditions`. May import: engines, scheme, `analysis.conditions`, `analysis.regions`,
`analysis.simplex_elimination`, `analysis.optimality_across`.
"""

from __future__ import annotations

from dataclasses import replace

import z3

from verifier.analysis.conditions import formula_text
from verifier.analysis.optimality_across import Points, decided_near
from verifier.analysis.regions import equalities, readable_condition
from verifier.analysis.simplex_elimination import MAX_CASES, NotEliminated, eliminate, isolated
from verifier.engines.orbit_optimality import line_terms, representative, types
from verifier.engines.parametric_optimality import parameter_questions
from verifier.engines.smt.engine import SmtEngine
from verifier.errors import DoesNotApply, SpecError
from verifier.formula.enclose import Unsupported
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import ClassSet, Scheme
from verifier.scheme.orbits import build_reduced_scheme
from verifier.verdict import Optimal, SetOptimality

ELIMINATION_MS = 1_000  # one z3 question while eliminating s (bounded by work)
PROOF_MS = 1_000  # one direction of a candidate's equivalence to the eliminated region
TEXT_MS = 10_000  # one z3 question while simplifying a region's text
MAX_CANDIDATES = 8


def size_conditions(scheme: Scheme, across: dict[ClassSet, SetOptimality]) -> dict[ClassSet, SetOptimality]:
    """Each entry of `across` with `conditions` where its size's status changes; `across` unchanged when the
    scheme is not proved class-symmetric with parameters that stay in place, or is beyond the SMT encoding."""
    try:
        reduced = build_reduced_scheme(scheme.spec, classes=scheme.classes)
        if reduced.orbits.moves_parameters:
            return across
        state = _Sizes(scheme, reduced)
    except (DoesNotApply, Unsupported, SpecError, z3.Z3Exception):
        return across
    by_size: dict[int, tuple | None] = {}
    out = {}
    for members, entry in across.items():
        if entry.status not in (Optimal.ALONE, Optimal.TIED) or not members:
            out[members] = entry
            continue
        n = len(members)
        if n not in by_size:
            try:
                by_size[n] = state.parts(n, entry.status)
            except (NotEliminated, Unsupported, z3.Z3Exception) as exc:
                by_size[n] = None
                out[members] = replace(entry, reason=f"{entry.reason}; where its status changes is not stated as "
                                                     f"a condition on the parameters: {exc}")
                continue
        parts = by_size[n]
        out[members] = entry if not parts else replace(entry, conditions=state.moved(parts, members))
    return out


class _Sizes:
    def __init__(self, scheme: Scheme, reduced: Scheme):
        self.scheme, self.reduced, self.K = scheme, reduced, scheme.K
        self.engine = SmtEngine(reduced, lambda *_: None, ELIMINATION_MS)
        self.engine.budget_ms = ELIMINATION_MS  # bounded by work: the same conditions on every machine
        self.questions = parameter_questions(reduced)
        self.points = Points(scheme)
        self.top = reduced.orbits.largest

    def parts(self, n: int, status: str) -> tuple | None:
        """[(status, text, point, evidence, formula)] for {1..n}, or None when its status is the same
        everywhere (nothing to add)."""
        minimiser = self.proved(n, strict=False)
        alone = self.proved(n, strict=True) if status == Optimal.ALONE else sp.false
        parts = []
        for name, formula in ((Optimal.ALONE, alone), (Optimal.TIED, equalities(sp.And(minimiser, sp.Not(alone)))),
                              (Optimal.NEVER, sp.Not(minimiser))):
            found = self.questions.beyond(formula, sp.false, PROOF_MS)
            if found is None or found is False:
                continue  # empty under the assumptions, or z3 could not give a point
            at, evidence = decided_near(self.points, representative(n), name, found)
            try:
                text = readable_condition(self.reduced, formula, TEXT_MS, logic=isinstance(formula, sp.Or))[0]
            except (Unsupported, z3.Z3Exception, TypeError, ValueError):  # sympy could not read z3's form back
                text = formula_text(formula)
            parts.append((name, text, at, evidence, formula))
        return tuple(parts) if len(parts) > 1 else None

    def proved(self, n: int, strict: bool) -> sp.Basic:
        """Exactly where {1..n} is alone (strict) or a minimiser: the shortest candidate proved equivalent to
        the eliminated region, or the region itself."""
        s = sp.Symbol("s!segment", real=True)
        lines = [sp.expand(sp.Add(*[q * cell for q, cell in line_terms(self.reduced.rows, self.K, n, m, j, s)]))
                 for m, j in types(self.K, n, self.top)]
        relation = sp.Gt if strict else sp.Ge
        if n == self.K:  # the whole set: the segment is its one point s = 1
            return sp.And(*[isolated(self.engine, relation(line.subs(s, 1), 0)) for line in lines])
        p = [sp.Symbol("p!0", real=True), sp.Symbol("p!1", real=True)]
        found = eliminate(self.engine, [p[0] * line.subs(s, 0) + p[1] * line.subs(s, 1) for line in lines], p,
                          strict, max_cases=MAX_CASES)
        region = sp.Or(*[sp.And(*context, *rows) for context, rows in found])
        cases = [sp.And(*[isolated(self.engine, r) for r in rows]) for context, rows in found if context]
        whole = sp.Or(*[sp.And(*context, *[isolated(self.engine, r) for r in rows]) for context, rows in found])
        for candidate in sorted(cases, key=sp.count_ops)[:MAX_CANDIDATES - 1]:
            if all(self.questions.beyond(a, b, PROOF_MS) is None
                   for a, b in ((candidate, region), (region, candidate))):
                return candidate
        return whole  # the region itself, each relation solved for a parameter where it is linear in one

    def moved(self, parts: tuple, members: ClassSet) -> tuple:
        """The representative's conditions for another set of its size: the same conditions and points, the
        evidence of that set at each point (decided there with every set)."""
        if members == representative(len(members)):
            return parts
        out = []
        for status, text, at, evidence, formula in parts:
            decided = self.points.decide(at) if at is not None else None
            found = decided.get(members) if decided is not None else None
            out.append((status, text, at, found if found is not None and found.status == status else None, formula))
        return tuple(out)
