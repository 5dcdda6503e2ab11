"""A distribution p eliminated from a system linear in p whose coefficients are polynomials in the parameters:
"∃p in the simplex with E_p[d_i] > 0 (or >= 0) for every i" becomes a condition on the parameters alone.

Fourier–Motzkin, as `analysis.regions` does for Property 1, with two additions that keep it small and total:
- where a coefficient's sign depends on the parameters, the elimination splits into the cases > 0, < 0, = 0
  (each a condition added to the context, empty cases dropped by z3), so the result is a disjunction of cases;
- after each elimination, every inequality implied (z3, under the assumptions and the case) by the others is
  dropped, so the system stays near its irredundant size instead of growing quadratically per variable.
Signs and implications are decided by z3 (nonlinear real arithmetic, exact); nothing here is decided in
floating point; where z3 cannot tell within its (short) timeout, the elimination stays exact but larger (a sign
is split into cases, an inequality kept). Past MAX_CASES cases or MAX_ROWS inequalities, `NotEliminated` says so.

Owns: `eliminate`, `isolated`, `NotEliminated`. May import: `engines.smt`.
"""

from __future__ import annotations

import z3

from verifier.engines.smt.engine import SmtEngine
from verifier.errors import Unsettled
from verifier.lazy_sympy import sympy as sp

MAX_CASES = 12  # sign cases of the coefficients, before the elimination gives up
MAX_ROWS = 60  # inequalities at one step (after pruning), before it gives up
PRUNE_MS = 300  # one question "is this inequality implied by the others?" (unknown: it is kept)
PRUNE_BACKSTOP = 2  # its time backstop, as a multiple of PRUNE_MS


class NotEliminated(Unsettled):
    """p could not be eliminated within the bounds."""


def eliminate(engine: SmtEngine, differences: list[sp.Expr], p: list[sp.Symbol],
              strict: bool, max_cases: int = MAX_CASES) -> list[tuple[list, list]]:
    """∃p ≥ 0, Σp = 1: every difference > 0 (strict) or >= 0, as a condition on the parameters: its cases,
    [(the case's sign conditions, its inequalities)], each a list of sympy relations; the condition is the
    disjunction of their conjunctions (no case: nowhere; one case with nothing in it: everywhere)."""
    rest = 1 - sp.Add(*p[:-1])
    rows = [(x, False) for x in p[:-1]] + [(rest, False)]
    rows += [(sp.expand(d.subs(p[-1], rest)), strict) for d in differences]
    state = _State(engine)
    state.max_cases = max_cases
    cases = state.run(_clean(rows), list(p[:-1]), [])
    return [(context, [_relation(e, s) for e, s in kept]) for context, kept in cases]


def isolated(engine: SmtEngine, relation: sp.Basic) -> sp.Basic:
    """`expr > 0` (or >=) solved for the first parameter it is linear in with a coefficient of known sign
    (`delta < eta[a]·eta[b]/(eta[a] + eta[b])`): the same condition, in the form z3 proves fastest."""
    if not isinstance(relation, (sp.StrictGreaterThan, sp.GreaterThan)) or relation.rhs != 0:
        return relation
    expr = sp.expand(relation.lhs)
    for symbol in engine.scheme.symbols:
        if not expr.has(symbol) or not expr.is_polynomial(symbol) or sp.Poly(expr, symbol).degree() != 1:
            continue
        a = expr.coeff(symbol)
        s = _State(engine).sign(a, [])
        if s:
            bound = sp.factor(-(expr - a * symbol) / a)
            return (sp.Gt if s > 0 else sp.Lt)(symbol, bound) if isinstance(relation, sp.StrictGreaterThan) \
                else (sp.Ge if s > 0 else sp.Le)(symbol, bound)
    return relation


def _relation(expr: sp.Expr, strict: bool) -> sp.Basic:
    expr = sp.factor(expr)
    return sp.Gt(expr, 0) if strict else sp.Ge(expr, 0)


def _clean(rows):
    """Equal rows merged (strict wins), rows without parameters or p decided; None when one is false."""
    seen: dict = {}
    for expr, strict in rows:
        expr = sp.expand(expr)
        scale = sp.factor_terms(expr).as_coeff_Mul()[0]  # a positive number's multiple is the same row
        if scale.is_Rational and scale > 0 and scale != 1:
            expr = sp.expand(expr / scale)
        if not expr.free_symbols:
            if (expr > 0) if strict else (expr >= 0):
                continue
            return None
        seen[expr] = seen.get(expr, False) or strict
    return list(seen.items())


class _State:
    def __init__(self, engine: SmtEngine):
        self.engine, self.tr = engine, engine.translator
        self.cases = 0
        self.max_cases = MAX_CASES
        self.signs: dict = {}

    def _ask(self, *formulas, context=()) -> z3.CheckSatResult:
        """z3's answer; `unknown` (past the engine's short timeout) is never read as a proof: a sign it leaves
        open is split into cases, a row it cannot prove implied is kept, a case it cannot prove empty stays."""
        return self.engine.solve(*formulas, extra=[self.tr.boolean(c) for c in context])[0]

    def sign(self, a: sp.Expr, context: list) -> int | None:
        """The sign of a coefficient in the case `context`, or None when it depends on the parameters there."""
        if not a.free_symbols:
            return int(sp.sign(a))
        key = (a, tuple(context))
        if key not in self.signs:
            x = self.tr.expr(a)
            self.signs[key] = next((s for s, bad in ((1, x <= 0), (-1, x >= 0), (0, x != 0))
                                    if self._ask(bad, context=context) == z3.unsat), None)
        return self.signs[key]

    def run(self, rows, left: list, context: list) -> list[tuple[list, list]]:
        """[(case conditions, inequalities on the parameters)] covering every admissible value of the case."""
        if rows is None or (context and self._ask(context=context) == z3.unsat):
            return []
        if not left:
            return [(context, rows)]
        best = None
        for v in left:  # the variable with no undecided sign and the fewest new rows first
            low = up = undecided = 0
            unsure = None
            for expr, _ in rows:
                a = expr.coeff(v)
                if a == 0:
                    continue
                s = self.sign(a, context)
                if s is None:
                    undecided, unsure = undecided + 1, a
                else:
                    low, up = low + (s > 0), up + (s < 0)
            score = (undecided, low * up - low - up)
            if best is None or score < best[0]:
                best = (score, v, unsure)
        (undecided, _), v, unsure = best
        if undecided:
            out = []
            for case in (sp.Gt(unsure, 0), sp.Lt(unsure, 0), sp.Eq(unsure, 0)):
                self.cases += 1
                if self.cases > self.max_cases:
                    raise NotEliminated(f"more than {self.max_cases} cases of the signs of its coefficients")
                out += self.run(rows, left, context + [case])
            return out
        lower, upper, kept = [], [], []
        for expr, strict in rows:
            a = expr.coeff(v)
            s = self.sign(a, context) if a != 0 else 0
            (kept if s == 0 else lower if s > 0 else upper).append((a, sp.expand(expr - a * v), strict))
        new = [(r, s) for _, r, s in kept]
        for a, r, s in lower:  # a v + r > 0 with a > 0, b v + q > 0 with b < 0: a q - b r > 0
            for b, q, t in upper:
                new.append((a * q - b * r, s or t))
        new = _clean(new)
        if new is None:
            return []
        new = self.prune(new, context)
        if len(new) > MAX_ROWS:
            raise NotEliminated(f"more than {MAX_ROWS} inequalities after eliminating one coordinate of p")
        return self.run(new, [w for w in left if w != v], context)

    def prune(self, rows, context: list):
        """Drop each row that the assumptions, the case and the other rows imply (the largest first)."""
        def relation(row):
            x = self.tr.expr(row[0])
            return x > 0 if row[1] else x >= 0
        kept = list(rows)
        saved, self.engine.budget_ms = self.engine.budget_ms, PRUNE_MS  # a row it cannot drop soon stays
        # nonlinear questions can run without spending z3's work budget: a short backstop, as keeping a row is sound
        saved_backstop, self.engine.backstop = self.engine.backstop, PRUNE_BACKSTOP
        try:
            for row in sorted(rows, key=lambda r: (-sp.count_ops(r[0]), sp.default_sort_key(r[0]))):
                others = [relation(r) for r in kept if r is not row]
                if self._ask(z3.Not(relation(row)), *others, context=context) == z3.unsat:
                    kept = [r for r in kept if r is not row]
        finally:
            self.engine.budget_ms, self.engine.backstop = saved, saved_backstop
        return kept
