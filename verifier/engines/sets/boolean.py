"""Each property over every indeterminate set at once: the set is K booleans, the property's negation one z3
question per set size.

The property is read from its definition (`properties`): the quantifier over Y becomes the booleans b (with
Σ b = k, for each size k = 2..K, so that len(Y) and the means' divisor are the number k and everything stays
linear), the quantifiers over y and y′ become a conjunction or disjunction over the K classes (y in Y is b_y),
and the terms are z3 terms: c_Y(y) from `sets.encoding`, the mean Σ_i If(b_i, c_i(y), 0) / k, min and max as
If-chains over the members' costs, and C_Y(y) = C_Y(y′) as equal counts of each value. P1's "possible" is ∃p
in the simplex with E_p[c_Y] < E_p[c_ŷ] for each member ŷ; E_p[c_Y] = Σ_y p_y c_Y(y) stays linear by pushing
p_y into the If-branches of c_Y(y). A "for every set" property asks for a violation, a "some set" property for
an instance: unsat at every size proves the answer for every set; a model names a concrete set, which the
caller builds and checks like any other (the model itself decides nothing). Each question has its own time
limit (`limits.question_ms`); a size left undecided makes the verdict `unknown`, saying which.

Owns: `BooleanSetQueries`, `QueryOutcome`. May import: `engines.sets.encoding`, `properties`, `limits`, z3.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction

import z3

from verifier import limits
from verifier.engines.sets.encoding import SetCostEncoding
from verifier.properties import Both, Compare, Implies, Possible, Property, QuantifierKind


@dataclass
class QueryOutcome:
    """The answer for one property over every indeterminate set: proved (unsat at every size), a model's set found, or
    unknown (some size undecided), with the questions asked and the time taken."""

    status: str  # "proved": unsat at every size; "found": a model's set; "unknown": some size undecided
    members: frozenset[int] | None = None  # the model's set, when found
    questions: int = 0
    reason: str = ""
    seconds: float = 0.0


class BooleanSetQueries:
    """Decides a property over every indeterminate set at once, one z3 question per set size (see the module
    docstring)."""

    def __init__(self, encoding: SetCostEncoding, singletons: list[list[Fraction]], timeout_ms: int):
        self.enc, self.ctx, self.K = encoding, encoding.ctx, encoding.K
        self.b, self.n = encoding.b, encoding.n
        self.S = singletons  # S[ŷ][y] = c_ŷ(y), the singleton rows, exact
        self.timeout_ms = timeout_ms
        self._memo: dict = {}

    def decide(self, prop: Property) -> QueryOutcome:
        """Ask the property's negation (or, for a 'some set' property, its instance) at every set size."""
        start = time.perf_counter()
        top, inner = prop.quantifiers[0], prop.quantifiers[1:]
        if top.var != "Y" or top.domain != "indeterminate" or any(q.var not in ("y", "y2") for q in inner):
            return QueryOutcome("unknown", reason="its quantifiers are not over one set and its classes")
        if isinstance(prop.atom, Possible):
            if top.kind != QuantifierKind.EXISTS or inner:
                return QueryOutcome("unknown", reason="'possible' is encoded only as 'some set is possible'")
            outcome = self._ask(lambda k: self._possible(k))
        else:
            body = self._unroll(prop, inner, {})
            question = body if top.kind == QuantifierKind.EXISTS else z3.Not(body)
            outcome = self._ask(lambda k: z3.substitute(question, (self.n, self._real(k))))
        outcome.seconds = time.perf_counter() - start
        return outcome

    # -- questions ------------------------------------------------------------------------------------------------
    def _ask(self, at_size) -> QueryOutcome:
        undecided, asked = [], 0
        for k in range(2, self.K + 1):
            solver = z3.Solver(ctx=self.ctx)
            solver.set("timeout", limits.question_ms(self.timeout_ms))  # never past the overall bound
            if limits.RLIMIT:
                solver.set("rlimit", limits.RLIMIT)
            solver.add(z3.PbEq([(x, 1) for x in self.b], k), at_size(k))
            answer = solver.check()
            asked += 1
            if answer == z3.sat:
                model = solver.model()
                chosen = [z3.is_true(model.eval(x, model_completion=True)) for x in self.b]
                members = frozenset(i for i, inside in enumerate(chosen) if inside)
                return QueryOutcome("found", members, asked)
            if answer == z3.unknown:
                undecided.append(f"{k} ({solver.reason_unknown() or 'unknown'})")
        if undecided:
            return QueryOutcome("unknown", questions=asked,
                                reason=f"z3 gave no answer for the sets of size {', '.join(undecided)} (limit "
                                       f"{self.timeout_ms} ms per question)")
        return QueryOutcome("proved", questions=asked)

    # -- the definition, unrolled over the classes ------------------------------------------------------------------
    def _unroll(self, prop: Property, quants, binding: dict) -> z3.BoolRef:
        if not quants:
            return self._atom(prop.atom, binding)
        q, universal = quants[0], quants[0].kind == QuantifierKind.FORALL
        parts = []
        for v in range(self.K):
            if q.var == "y2" and v == binding["y"]:
                continue
            inner = self._unroll(prop, quants[1:], {**binding, q.var: v})
            where = {"classes": None, "in Y": self.b[v], "not in Y": z3.Not(self.b[v])}[q.domain]
            if where is None:
                parts.append(inner)
            else:
                parts.append(z3.Implies(where, inner) if universal else z3.And(where, inner))
        if not parts:
            return z3.BoolVal(universal, self.ctx)
        return z3.And(*parts) if universal else z3.Or(*parts)

    def _atom(self, atom, binding: dict) -> z3.BoolRef:
        if isinstance(atom, Compare):
            return self._compare(atom, binding)
        if isinstance(atom, Implies):
            return z3.Implies(self._compare(atom.premise, binding), self._compare(atom.conclusion, binding))
        if isinstance(atom, Both):
            return z3.And(self._compare(atom.first, binding), self._compare(atom.second, binding))
        raise NotImplementedError(f"no encoding for the atom {atom!r}")

    def _compare(self, atom: Compare, binding: dict) -> z3.BoolRef:
        y, y2 = binding[atom.lhs.cls], binding[atom.rhs.cls]
        if atom.lhs.kind == "sorted":
            same = self._same_multiset(y, y2)
            return same if atom.op == "==" else z3.Not(same)
        lhs, rhs = self._term(atom.lhs.kind, y), self._term(atom.rhs.kind, y2)
        return {"<": lambda: lhs < rhs, "<=": lambda: lhs <= rhs, ">=": lambda: lhs >= rhs,
                "==": lambda: lhs == rhs, "!=": lambda: lhs != rhs}[atom.op]()

    def _term(self, kind: str, y: int) -> z3.ArithRef:
        key = (kind, y)
        if key not in self._memo:
            column = [(self.b[i], self.S[i][y]) for i in range(self.K)]
            if kind == "cost":
                term = self.enc.cost(y)
            elif kind == "mean":
                term = z3.Sum([z3.If(g, self._real(v), self._real(0)) for g, v in column if v != 0]
                              or [self._real(0)]) / self.n
            elif kind in ("min", "max"):  # the first member present, in the order of its cost
                ordered = sorted(column, key=lambda item: item[1], reverse=kind == "max")
                term = self._real(ordered[-1][1])
                for g, v in reversed(ordered[:-1]):
                    term = z3.If(g, self._real(v), term)
            else:
                raise NotImplementedError(f"no encoding for the term {kind}")
            self._memo[key] = term
        return self._memo[key]

    def _same_multiset(self, y: int, y2: int) -> z3.BoolRef:
        """C_Y(y) = C_Y(y′): each value is taken by as many members in column y as in column y′."""
        parts = []
        for value in {self.S[i][y] for i in range(self.K)} | {self.S[i][y2] for i in range(self.K)}:
            left = {i for i in range(self.K) if self.S[i][y] == value}
            right = {i for i in range(self.K) if self.S[i][y2] == value}
            terms = [(self.b[i], 1) for i in left - right] + [(self.b[i], -1) for i in right - left]
            if terms:
                parts.append(z3.PbEq(terms, 0))
        return z3.And(*parts) if parts else z3.BoolVal(True, self.ctx)

    # -- P1: some set is possible -----------------------------------------------------------------------------------
    def _possible(self, k: int) -> z3.BoolRef:
        """∃p: p >= 0, Σ p = 1, and Σ_y p_y c_ŷ(y) > Σ_y p_y c_Y(y) for each member ŷ, at sets of size k."""
        p = [z3.Real(f"p{y}", self.ctx) for y in range(self.K)]
        at_k = (self.n, self._real(k))
        memo: dict = {}
        expected = z3.Sum([_scale(z3.simplify(z3.substitute(self.enc.cost(y), at_k)), p[y], memo)
                           for y in range(self.K)])
        parts = [x >= 0 for x in p] + [z3.Sum(p) == 1]
        for h in range(self.K):
            own = z3.Sum([self._real(self.S[h][y]) * p[y] for y in range(self.K) if self.S[h][y] != 0]
                         or [self._real(0)])
            parts.append(z3.Implies(self.b[h], own > expected))
        return z3.And(*parts)

    def _real(self, value) -> z3.ArithRef:
        value = Fraction(value)
        return z3.RealVal(f"{value.numerator}/{value.denominator}", self.ctx)


def _scale(term: z3.ArithRef, factor: z3.ArithRef, memo: dict) -> z3.ArithRef:
    """factor * term, with the factor pushed into sums and If-branches down to the numbers, so that a
    piecewise-linear term times a variable stays linear (what cannot be pushed stays a product)."""
    key = (term.get_id(), factor.get_id())
    if key in memo:
        return memo[key]
    if z3.is_rational_value(term):
        out = term * factor
    elif z3.is_app_of(term, z3.Z3_OP_ITE):
        cond, yes, no = term.children()
        out = z3.If(cond, _scale(yes, factor, memo), _scale(no, factor, memo))
    elif z3.is_add(term):
        out = z3.Sum([_scale(t, factor, memo) for t in term.children()])
    elif z3.is_sub(term):
        first, *rest = term.children()
        out = _scale(first, factor, memo) - z3.Sum([_scale(t, factor, memo) for t in rest])
    elif z3.is_app_of(term, z3.Z3_OP_UMINUS):
        out = -_scale(term.children()[0], factor, memo)
    elif z3.is_mul(term) and sum(not z3.is_rational_value(t) for t in term.children()) == 1:
        numbers = [t for t in term.children() if z3.is_rational_value(t)]
        other = next(t for t in term.children() if not z3.is_rational_value(t))
        out = z3.Product(*numbers, _scale(other, factor, memo)) if numbers else _scale(other, factor, memo)
    elif z3.is_div(term) and z3.is_rational_value(term.children()[1]):
        out = _scale(term.children()[0], factor, memo) / term.children()[1]
    else:
        out = term * factor
    memo[key] = out
    return out
