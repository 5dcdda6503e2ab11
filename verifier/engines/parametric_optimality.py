"""Every set's optimality across the parameters, any number of them: can Y be the unique best prediction for
some admissible parameter value, only in ties, or never?

Each is one existential question in nonlinear real arithmetic over the parameters θ and the distribution p,
which z3's nlsat decides completely for polynomial (and rational-power) costs:
  alone somewhere       ⟺ ∃θ admissible, p in the simplex: E_p[c_Z] > E_p[c_Y] for every set Z ≠ Y;
  a minimiser somewhere ⟺ ∃θ admissible, p in the simplex: E_p[c_Z] >= E_p[c_Y] for every Z ≠ Y.
unsat is a proof for every admissible value (never alone; never a minimiser). sat gives a model (θ, p); the
caller decides the set exactly at that θ (rational: the model's, or a rational near it) with the numeric
engine, whose witness or certificate is the evidence, re-checked independently. Costs beyond polynomials
(exp, log, a parameter in an exponent) raise `Unsupported`: the caller keeps its one-parameter route.

Owns: `parametric_questions`, `size_questions` (class-symmetric schemes: once per size), `piece_questions` (also
asked whether a condition on the parameters is exactly where a set is alone or a minimiser: `everywhere`, `proves`,
`point`), `Answer`. May import: `engines.smt.translate`, `limits`, `scheme`, `formula`.
"""

from __future__ import annotations

from dataclasses import dataclass

import z3

from verifier import limits
from verifier.engines.smt.translate import Translator, model_value
from verifier.formula.enclose import Unsupported
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import ClassSet, Scheme
from verifier.verdict import Optimal

DOMINANCE_MS = 200  # one "does this set cost no more than that one in every column?" question
QUESTION_MS = 10_000  # one set's question; past it the answer is `unknown` with z3's reason
MAX_SETS = 63  # six classes: one or two questions per set


@dataclass(frozen=True)
class Answer:
    """z3's answer for one set: `alone` (a model where it is alone), `minimiser` (never alone, proved, and a
    model where it ties), `never` (proved never a minimiser), or `unknown`; `values` the model's parameter
    values (exact sympy numbers: rational or algebraic) and `p` its distribution."""

    status: str
    values: dict[str, sp.Expr] | None = None
    p: tuple[sp.Expr, ...] | None = None
    reason: str = ""


def piece_questions(scheme: Scheme) -> "_Questions":
    """The per-piece questions of a scheme (`_Questions.on_piece`); raises Unsupported beyond the encoding."""
    if len(scheme.all_sets) > MAX_SETS:
        raise Unsupported(f"{len(scheme.all_sets):,} sets: decided across the parameters for up to {MAX_SETS}")
    return _Questions(scheme, z3.Context())


def parameter_questions(scheme: Scheme) -> "_Questions":
    """Questions over the parameters alone (`_Questions.beyond`), for a scheme of any number of sets."""
    return _Questions(scheme, z3.Context(), sets=[])


def parametric_questions(scheme: Scheme) -> dict[ClassSet, Answer]:
    """Each set's answer; raises Unsupported when a cost or an assumption is beyond the SMT encoding."""
    if len(scheme.all_sets) > MAX_SETS:
        raise Unsupported(f"{len(scheme.all_sets):,} sets: decided across the parameters for up to {MAX_SETS}")
    return _Questions(scheme, z3.Context()).all()  # a fresh context: answers never depend on earlier questions


def size_questions(reduced: Scheme) -> dict[int, Answer]:
    """A scheme proved class-symmetric at every admissible value (`scheme.orbits`, per-class parameters not
    moving): each size's answer, asked once per size. At fixed values every set of n classes has the status of
    {1..n}, decided along the symmetric segment p(s) (`engines.orbit_optimality`: s/n on Y, (1 − s)/(K − n) off
    it), where each other set of m classes, j of them in Y, differs from Y by a line in s and j: so "alone
    somewhere" is ∃θ, s in [0, 1] with every extreme line > 0 (>= 0: a minimiser), two lines per size. The
    model's p is that segment's point on {1..n}. Raises Unsupported beyond the SMT encoding."""
    from verifier.engines.orbit_optimality import line_terms, types

    questions = _Questions(reduced, z3.Context(), sets=[])
    K, top = reduced.K, reduced.orbits.largest
    s = sp.Symbol("s!segment", real=True)
    out = {}
    for n in range(1, top + 1):
        kinds = types(K, n, top)
        lines = [questions.tr.expr(sp.Add(*[q * cell for q, cell in line_terms(reduced.rows, K, n, m, j, s)]))
                 for m, j in kinds]
        t = questions.tr.var(s.name)
        segment = [t >= 0, t <= 1] if n < K else [t == 1]
        p = [t / n if y < n else (1 - t) / (K - n) for y in range(K)]
        alone = questions._ask(segment + [line > 0 for line in lines])
        if alone[0] == z3.sat:
            out[n] = Answer("alone", *questions._read(alone[1], p))
            continue
        if alone[0] == z3.unknown:
            out[n] = Answer("unknown", reason=f"z3 could not decide whether it is ever alone ({alone[2]})")
            continue
        tied = questions._ask(segment + [line >= 0 for line in lines])
        out[n] = Answer("minimiser", *questions._read(tied[1], p)) if tied[0] == z3.sat else Answer("never") \
            if tied[0] == z3.unsat else Answer("unknown", reason=f"never alone (proved), but z3 could not decide "
                                                                f"whether it is ever a minimiser ({tied[2]})")
    return out


class _Questions:
    def __init__(self, scheme: Scheme, ctx: z3.Context, sets=None):
        self.scheme, self.ctx = scheme, ctx
        self.tr = Translator(ctx)
        K = scheme.K
        self.assumed = [self.tr.boolean(c) for c, _ in scheme.assumptions]
        self.defined = [self.tr.boolean(c) for c, _ in scheme.side_conditions]
        self.p = [z3.Real(f"p!{y}", ctx) for y in range(K)]
        self.simplex = [z3.Sum(self.p) == 1] + [v >= 0 for v in self.p]
        self.expected = {m: z3.Sum([self.p[y] * self.tr.expr(scheme.rows[m][y]) for y in range(K)])
                         for m in (scheme.all_sets if sets is None else sets)}

    def all(self) -> dict[ClassSet, Answer]:
        return {m: self.one(m) for m in self.scheme.all_sets}

    def one(self, members: ClassSet) -> Answer:
        mine = self.expected[members]
        others = [e for z, e in self.expected.items() if z != members]
        answer, model, reason = self._ask([e > mine for e in others])
        if answer == z3.sat:
            return Answer("alone", *self._read(model))
        if answer == z3.unknown and not self._dominated(members):
            return Answer("unknown", reason=f"z3 could not decide whether it is ever alone ({reason})")
        answer, model, reason = self._ask([e >= mine for e in others])
        if answer == z3.sat:
            return Answer("minimiser", *self._read(model))
        if answer == z3.unknown:
            return Answer("unknown", reason=f"never alone (proved), but z3 could not decide whether it is ever a "
                                            f"minimiser ({reason})")
        return Answer("never")

    def on_piece(self, members: ClassSet, theta: str, low, high) -> str | None:
        """The set's one status on the open piece low < θ < high (None: an open end), when it is the same at
        every θ there: `alone`, `tied` or `never`, each proved for the whole piece; None when it changes inside
        or z3 cannot tell. "Not alone at θ" is existential too, by LP duality: some mixture λ of the other rows
        costs no more than Y's in every column (strictly less: never a minimiser)."""
        t = self.tr.var(theta)
        bounds = ([t > self.tr.real(low)] if low is not None else []) + \
                 ([t < self.tr.real(high)] if high is not None else [])
        mine = self.expected[members]
        others = [z for z in self.expected if z != members]
        alone = self._ask(bounds + [self.expected[z] > mine for z in others])[0]
        if alone == z3.sat:
            return "alone" if self._ask(bounds + self._mixture(members, others, strict=False))[0] == z3.unsat \
                else None
        if alone != z3.unsat:
            return None
        if self._ask(bounds + [self.expected[z] >= mine for z in others])[0] == z3.unsat:
            return "never"
        return "tied" if self._ask(bounds + self._mixture(members, others, strict=True))[0] == z3.unsat else None

    def everywhere(self, members: ClassSet, strict: bool) -> bool:
        """Alone (strict) or a minimiser at every admissible value, proved: no value has a mixture of the other
        rows that makes it not so (LP duality, as in `on_piece`)."""
        others = [z for z in self.expected if z != members]
        return self._ask(self._mixture(members, others, strict=not strict))[0] == z3.unsat

    def proves(self, members: ClassSet, condition, strict: bool, ms: int | None = None) -> bool:
        """z3 proves, under the assumptions, alone ⇔ condition (strict) or a minimiser ⇔ condition: where it
        holds no mixture of the other rows takes that away, and where it fails no p gives it."""
        holds = self.tr.boolean(condition)
        others = [z for z in self.expected if z != members]
        if self._ask([holds] + self._mixture(members, others, strict=not strict), ms)[0] != z3.unsat:
            return False
        return self._ask([z3.Not(holds)] + self._comparisons(members, strict), ms)[0] == z3.unsat

    def disagreement(self, members: ClassSet, condition, strict: bool, ms: int | None = None, mixture: bool = True):
        """As `proves`, with what z3 found: None when proved, the parameter values of a point where the condition
        and the status disagree when z3 finds one, False when it cannot tell. Without `mixture`, only "where the
        condition fails no p gives the status" is asked (the other direction proved elsewhere)."""
        holds = self.tr.boolean(condition)
        others = [z for z in self.expected if z != members]
        questions = [[z3.Not(holds)] + self._comparisons(members, strict)]
        if mixture:
            questions.insert(0, [holds] + self._mixture(members, others, strict=not strict))
        for question in questions:
            answer, model, _ = self._ask(question, ms)
            if answer == z3.sat:
                return self._read(model)[0]
            if answer != z3.unsat:
                return False
        return None

    def beyond(self, condition, region, ms: int) -> dict[str, sp.Expr] | None | bool:
        """A question over the parameters alone: the values of an admissible point where `condition` holds and
        `region` does not, None when z3 proves there is none, False when it cannot tell within `ms` of work."""
        answer, model, _ = self._ask([self.tr.boolean(condition), z3.Not(self.tr.boolean(region))], ms)
        if answer == z3.sat:
            return self._read(model)[0]
        return None if answer == z3.unsat else False

    def point(self, members: ClassSet, condition, status: str) -> Answer | None:
        """A model (parameter values and p) where the condition holds and the set has that status at p (alone:
        the unique minimiser; tied: a minimiser; never: any admissible value); None when there is none or z3
        cannot tell."""
        holds = [self.tr.boolean(condition)]
        extra = self._comparisons(members, status == Optimal.ALONE) if status != Optimal.NEVER else []
        answer, model, _ = self._ask(holds + extra)
        return Answer(status, *self._read(model)) if answer == z3.sat else None

    def _comparisons(self, members: ClassSet, strict: bool) -> list:
        mine = self.expected[members]
        return [(e > mine) if strict else (e >= mine) for z, e in self.expected.items() if z != members]

    def _mixture(self, members: ClassSet, others: list, strict: bool) -> list:
        """A mixture λ of the other rows no worse than Y in every column (strict: better in every column)."""
        lam = [z3.Real(f"lambda!{k}", self.ctx) for k in range(len(others))]
        rows = self.scheme.rows
        out = [z3.Sum(lam) == 1] + [v >= 0 for v in lam]
        for y in range(self.scheme.K):
            mixed = z3.Sum([v * self.tr.expr(rows[z][y]) for v, z in zip(lam, others)])
            out.append(mixed < self.tr.expr(rows[members][y]) if strict else mixed <= self.tr.expr(rows[members][y]))
        return out

    def _dominated(self, members: ClassSet) -> bool:
        """Whether another set costs no more than this one in every column for every admissible parameter value
        (proved by z3, one small question per set over the parameters alone): then no p makes this one the
        unique minimiser. Asked only when the question over the parameters and p together was left open."""
        mine = self.scheme.rows[members]
        for other in self.expected:
            if other == members:
                continue
            theirs = self.scheme.rows[other]
            worse = z3.Or([self.tr.expr(theirs[y]) > self.tr.expr(mine[y]) for y in range(self.scheme.K)])
            if self._ask_parameters([worse]) == z3.unsat:
                return True
        return False

    def _ask_parameters(self, formulas: list) -> z3.CheckSatResult:
        """z3's answer over the parameters alone, bounded by work (the same answer on every machine)."""
        solver = z3.Solver(ctx=self.ctx)
        solver.set("timeout", limits.question_ms(DOMINANCE_MS * limits.BACKSTOP))
        solver.set("rlimit", limits.work_budget(DOMINANCE_MS))
        solver.add(*self.assumed, *self.defined, *self.tr.side, *formulas)
        return solver.check()

    def _ask(self, comparisons: list, budget_ms: int | None = None) -> tuple:
        """z3's answer, a model when sat and its reason when unknown. With `budget_ms` the question is bounded by
        work (`limits.work_budget`: the same answer on every machine), else by QUESTION_MS and --rlimit."""
        solver = z3.Solver(ctx=self.ctx)
        if budget_ms is not None:
            solver.set("timeout", limits.question_ms(budget_ms * limits.BACKSTOP))
            solver.set("rlimit", limits.work_budget(budget_ms))
        else:
            solver.set("timeout", limits.question_ms(QUESTION_MS))
            if limits.RLIMIT:
                solver.set("rlimit", limits.RLIMIT)
        solver.add(*self.assumed, *self.defined, *self.tr.side, *self.simplex, *comparisons)
        answer = solver.check()
        return answer, solver.model() if answer == z3.sat else None, solver.reason_unknown()

    def _read(self, model, p=None) -> tuple[dict[str, sp.Expr], tuple[sp.Expr, ...]]:
        values = {s.name: model_value(model.eval(self.tr.var(s.name), model_completion=True))
                  for s in self.scheme.symbols}
        p = tuple(model_value(model.eval(v, model_completion=True)) for v in (self.p if p is None else p))
        return values, p
