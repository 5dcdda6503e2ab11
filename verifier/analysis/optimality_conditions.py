"""With two or more parameters, where each set is alone, only tied or never optimal, as exact conditions on
the parameters ("alone where nu < mu/(mu + 1); only tied where nu = mu/(mu + 1); never where nu > mu/(mu + 1)"),
each with a parameter point and its evidence there.

Where a set's status is the same for every admissible value (z3 proves it: `everywhere`), nothing is added.
Otherwise the distribution p is eliminated from "some p makes Y the unique minimiser" (and "a minimiser"):
`analysis.simplex_elimination`, exact, case by case. The candidate conditions are the whole result and each
of its cases' inequalities alone (often one of them is the whole answer); a condition is kept only when z3
proves it exactly where the set has that status under the assumptions (`proves`: both directions, by LP
duality). The regions alone, tied (a minimiser, not alone) and never (not a minimiser) are then written as the
check report writes regions (`analysis.regions.readable_condition`); in each, z3 gives a point and p, and the
numeric engine decides the set exactly at a rational point there, re-checked by the independent checker
(`optimality_across.Points`). When no condition is proved, the set keeps its status with one example point and
the reason. With two parameters the sign cells propose first (`analysis.sign_cells`). The elimination of p,
completed with up to REGION_CASES sign cases, is the set's exact region: a candidate equivalent to it (two
questions over the parameters alone) needs no other proof, the region itself is stated when no shorter
candidate is, and a set z3 could not decide over the parameters and p together is settled by asking whether
its regions are empty. Nothing is decided in floating point.

Owns: `optimality_conditions`. May import: engines, check, scheme, `analysis.regions`,
`analysis.simplex_elimination`, `analysis.optimality_across`.
"""

from __future__ import annotations

from dataclasses import replace

import z3

from verifier.analysis.conditions import formula_text
from verifier.analysis.optimality_across import Points, decided_near, evidence
from verifier.analysis.regions import equalities, readable_condition
from verifier.analysis.sign_cells import CellConditions
from verifier.analysis.sign_factors import TooManyFactors
from verifier.analysis.simplex_elimination import MAX_CASES, NotEliminated, eliminate, isolated
from verifier.analysis.size_conditions import size_conditions
from verifier.analysis.witness_cover import WitnessCover
from verifier.engines.parametric_optimality import MAX_SETS, Answer, piece_questions
from verifier.engines.smt.engine import SmtEngine
from verifier.formula.enclose import Unsupported
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import ClassSet, Scheme
from verifier.verdict import Optimal, SetOptimality

TIMEOUT_MS = 10_000  # one z3 question while simplifying a region's text
ELIMINATION_MS = 1_000  # one z3 question while eliminating p (unknown: a sign split, an inequality kept)
MAX_CANDIDATES = 8  # conditions offered to z3 per status, smallest first
PROOF_MS = 3_000  # one direction of one candidate's proof
MAX_COVER_ROWS = 24  # the polytope's rows (other sets and p >= 0) up to which witnesses are named (4 classes: 18)
REGION_CASES = 64  # sign cases of the exact region, asked when witnesses cannot tell (random 3-class: up to 60)
CELL_PROOF_MS = 1_000  # one question of a sign-cell condition's proof (many small ones)
# beyond: each set keeps its status with a point (40 parameters took 2 minutes, and no one reads such a condition)
MAX_CONDITION_PARAMETERS = 8


def optimality_conditions(scheme: Scheme, across: dict[ClassSet, SetOptimality],
                          by_pieces: bool = False) -> dict[ClassSet, SetOptimality]:
    """Each entry of `across`, with `conditions` where its status changes across two or more parameters, or
    across one when its range is not cut into pieces (`by_pieces`) and the classes are alike."""
    if len(scheme.symbols) == 1 and not by_pieces:
        return size_conditions(scheme, across)
    if not 2 <= len(scheme.symbols) <= MAX_CONDITION_PARAMETERS:
        return across
    if len(scheme.all_sets) > MAX_SETS:
        return size_conditions(scheme, across)  # classes alike: one set per size
    try:
        questions = piece_questions(scheme)
    except Unsupported:
        return across
    state = _State(scheme, questions)
    return {m: state.one(m, e) for m, e in across.items()}


class _State:
    def __init__(self, scheme: Scheme, questions):
        self.scheme, self.questions = scheme, questions
        self.engine = SmtEngine(scheme, lambda *_: None, ELIMINATION_MS)
        self.engine.budget_ms = ELIMINATION_MS  # bounded by work: the same conditions on every machine
        self.points = Points(scheme)
        self.p = [sp.Symbol(f"p!{y}", real=True) for y in range(scheme.K)]
        self.cells = CellConditions(scheme, questions, CELL_PROOF_MS, self.region) \
            if len(scheme.symbols) == 2 else None
        self.covers: dict[ClassSet, WitnessCover] = {}
        self.eliminated: dict[tuple[ClassSet, bool], list | NotEliminated] = {}

    def one(self, members: ClassSet, entry: SetOptimality) -> SetOptimality:
        if entry.status == Optimal.UNKNOWN and self.cells is not None:
            entry = self.alone_at_a_sample(members, entry)
        if entry.status == Optimal.UNKNOWN:
            try:
                entry = self.settled_by_region(members, entry)
            except (Unsupported, z3.Z3Exception):
                pass  # its reason stands
        if entry.status not in (Optimal.ALONE, Optimal.TIED):
            return entry  # never: proved for every admissible value; unknown: its reason stands
        try:
            if self.questions.everywhere(members, strict=entry.status == Optimal.ALONE):
                return entry  # the same status everywhere: nothing to add
            minimiser = self.proved(members, strict=False)
            alone = self.proved(members, strict=True) if entry.status == Optimal.ALONE else sp.false
        except (NotEliminated, Unsupported, z3.Z3Exception) as exc:
            return replace(entry, reason=f"{entry.reason}; where its status changes is not stated as a condition "
                                         f"on the parameters: {exc}")
        parts = []
        for status, formula in (("alone", alone), ("tied", equalities(sp.And(minimiser, sp.Not(alone)))),
                                ("never", sp.Not(minimiser))):
            found = self.questions.point(members, formula, status)  # z3 asked of the condition it proved
            if found is None:
                continue  # empty under the assumptions (z3: unsat), or z3 could not give a point
            try:
                text = readable_condition(self.scheme, formula, TIMEOUT_MS, logic=isinstance(formula, sp.Or))[0]
            except (Unsupported, z3.Z3Exception, TypeError, ValueError):  # sympy could not read z3's form back
                text = formula_text(formula)
            at, evidence = decided_near(self.points, members, status, found.values)
            parts.append((status, text, at, evidence, formula))
        return replace(entry, conditions=tuple(parts)) if len(parts) > 1 else entry

    def alone_at_a_sample(self, members: ClassSet, entry: SetOptimality) -> SetOptimality:
        """Where z3 could not tell whether the set is ever alone: the first sample of the sign cells at which it
        is, decided there again by the numeric engine and re-checked independently (the entry unchanged when
        no sample shows it alone)."""
        try:
            point = self.cells.first_sample(members, Optimal.ALONE)
        except TooManyFactors:
            return entry
        decided = self.points.decide(point) if point is not None else None
        found = decided.get(members) if decided is not None else None
        if found is None or found.status != Optimal.ALONE:
            return entry
        where = ", ".join(f"{name} = {value}" for name, value in point.items())
        return SetOptimality(members, Optimal.ALONE, witness=found.witness, margin=found.margin,
                             margin_is_bound=found.margin_is_bound, at=point,
                             reason=f"the unique best prediction for some p at {where} (checked exactly there)")

    def cases(self, members: ClassSet, strict: bool, max_cases: int) -> list[tuple[list, list]]:
        """p eliminated from "some p makes the set alone (strict) or a minimiser": its cases (as `eliminate`),
        kept for the set; NotEliminated past `max_cases` sign cases."""
        key = (members, strict)
        known = self.eliminated.get(key)
        if known is None or (isinstance(known, NotEliminated) and known.args[1] < max_cases):
            rows, K = self.scheme.rows, self.scheme.K
            differences = [sp.Add(*[self.p[y] * (rows[z][y] - rows[members][y]) for y in range(K)])
                           for z in self.scheme.all_sets if z != members]
            try:
                known = eliminate(self.engine, differences, self.p, strict, max_cases=max_cases)
            except NotEliminated as exc:
                known = NotEliminated(str(exc), max_cases)
            self.eliminated[key] = known
        if isinstance(known, NotEliminated):
            raise NotEliminated(known.args[0])
        return known

    def region(self, members: ClassSet, strict: bool) -> sp.Basic | None:
        """Exactly where the set is alone (strict) or a minimiser, as a formula in the parameters: the elimination
        of p with every sign case it needs (exact: each sign z3 could not decide is split, each row kept unless
        z3 proves it implied); None when it needs more than REGION_CASES cases."""
        try:
            found = self.cases(members, strict, REGION_CASES)
        except NotEliminated:
            return None
        return sp.Or(*[sp.And(*context, *rows) for context, rows in found])

    def settled_by_region(self, members: ClassSet, entry: SetOptimality) -> SetOptimality:
        """Where z3 could not tell whether the set is ever alone (a question over the parameters and p): its exact
        regions (`region`), asked over the parameters alone. A point in one gives the status, confirmed exactly
        at a rational point near it; both empty: never a minimiser. The entry unchanged when nothing settles."""
        for strict, status in ((True, "alone"), (False, "minimiser")):
            region = self.region(members, strict)
            found = False if region is None else self.questions.beyond(region, sp.false, CELL_PROOF_MS)
            if found is False:
                return entry
            if found is not None:
                return self._confirmed(members, Answer(status, found), entry)
        anywhere = self.questions.beyond(sp.true, sp.false, CELL_PROOF_MS)
        return entry if anywhere is None or anywhere is False else \
            self._confirmed(members, Answer("never", anywhere), entry)

    def _confirmed(self, members: ClassSet, answer: Answer, entry: SetOptimality) -> SetOptimality:
        found = evidence(self.scheme, members, answer, self.points, answer.values)
        return entry if found.status == Optimal.UNKNOWN else found

    def condition(self, members: ClassSet, strict: bool) -> sp.Basic:
        """A condition on the parameters that z3 proves exactly where the set is alone (strict) or a minimiser."""
        # with two parameters the sign cells came first; the elimination completed is then the answer itself
        found = self.cases(members, strict, REGION_CASES if self.cells is not None else MAX_CASES)
        cases = [sp.And(*[isolated(self.engine, r) for r in rows]) for context, rows in found if context]
        whole = sp.Or(*[sp.And(*context, *[isolated(self.engine, r) for r in rows]) for context, rows in found])
        # each case's inequalities alone, solved for a parameter (z3 proves x < a/b faster than x·b < a), then all
        candidates = list(dict.fromkeys(sorted(cases, key=sp.count_ops)[:MAX_CANDIDATES - 1] + [whole]))
        exact = sp.Or(*[sp.And(*context, *rows) for context, rows in found])  # where the status holds, exactly
        for candidate in candidates:
            if self._equivalent(candidate, exact):
                return candidate
            # with two parameters the LP-duality proofs rarely settle what the equivalence left open (each up to
            # 30 s): the eliminated region itself is the answer, exact by construction
            if self.cells is None and self._proves(members, candidate, strict):
                return candidate
        if self.cells is not None:
            return whole
        raise NotEliminated(f"no condition found was proved to be exactly where it is "
                            f"{'alone' if strict else 'a minimiser'}")

    def _equivalent(self, candidate, exact) -> bool:
        """z3 proves the candidate equivalent to the eliminated region (two questions over the parameters)."""
        return all(self.questions.beyond(a, b, CELL_PROOF_MS) is None
                   for a, b in ((candidate, exact), (exact, candidate)))

    def _proves(self, members: ClassSet, candidate, strict: bool) -> bool:
        """z3 proves the candidate exactly where the set is alone (strict) or a minimiser (`proves`: both
        directions, the second by LP duality over a mixture of the other rows). When that is not settled, named
        witnesses p(θ) may settle the second direction (`analysis.witness_cover`, questions over the parameters
        alone) after z3 proves the first (where it fails, no p gives the status)."""
        if self.questions.proves(members, candidate, strict, PROOF_MS):
            return True
        if len(self.scheme.rows) - 1 + self.scheme.K > MAX_COVER_ROWS:
            return False
        if self.questions.disagreement(members, candidate, strict, PROOF_MS, mixture=False) is not None:
            return False
        if members not in self.covers:
            self.covers[members] = WitnessCover(self.scheme, members)
        return self.covers[members].disagreement(candidate, strict, CELL_PROOF_MS) is None

    def proved(self, members: ClassSet, strict: bool) -> sp.Basic:
        """A condition proved exactly where the set is alone (strict) or a minimiser. With two parameters the
        sign cells first (`analysis.sign_cells`: measured faster and more often proved on random schemes), then
        eliminating p; otherwise eliminating p (`condition`)."""
        if self.cells is None:
            return self.condition(members, strict)
        try:
            found = self.cells.condition(members, strict)
        except TooManyFactors:
            found = None
        if found is not None:
            return _isolated_formula(self.engine, found)
        try:
            return self.condition(members, strict)
        except NotEliminated as exc:
            raise NotEliminated(f"no condition was proved from the signs of its comparisons' minors; {exc}") from exc


def _isolated_formula(engine, formula: sp.Basic) -> sp.Basic:
    """Each relation of an and/or formula solved for a parameter where it is linear in one (`isolated`)."""
    if isinstance(formula, (sp.And, sp.Or)):
        return formula.func(*[_isolated_formula(engine, a) for a in formula.args])
    return _isolated(engine, formula)


def _isolated(engine, relation: sp.Basic) -> sp.Basic:
    if isinstance(relation, (sp.StrictLessThan, sp.LessThan)) and relation.rhs == 0:
        relation = (sp.Gt if isinstance(relation, sp.StrictLessThan) else sp.Ge)(-relation.lhs, 0)
    if isinstance(relation, (sp.And, sp.Or)):
        return _isolated_formula(engine, relation)
    return isolated(engine, relation)
