"""The symbolic engine: decide each property for every admissible parameter value with z3.

`holds` rests on z3's unsat answer for (assumptions ∧ violation); `fails` on a model whose exact parameter
values are substituted back into the spec and re-checked by the exact numeric engine and by the independent
checker, which the caller passes in as `recheck` (the checker sits above the engines in the pipeline).
Terms z3 cannot express go to the interval engine; a time limit or an unreadable model gives `unknown`.
"""

from __future__ import annotations

from collections.abc import Callable

import z3

from verifier import limits
from verifier.engines import obligations
from verifier.engines.enumerate import EnumerationEngine
from verifier.engines.smt.translate import Translator, model_value
from verifier.errors import SpecError
from verifier.formula.enclose import Unsupported
from verifier.lazy_sympy import sympy as sp
from verifier.limits import DEFAULT_TIMEOUT_MS
from verifier.properties import PROPERTIES, Property, QuantifierKind
from verifier.scheme import Scheme
from verifier.scheme.orbits import partial_only, rebuild_at
from verifier.verdict import Evidence, PropertyResult, Verdict

Recheck = Callable[[Scheme, list[PropertyResult]], None]  # re-checks results in place (downgrades)


class SmtEngine:
    """The symbolic engine: decides each property for every admissible parameter value with z3, in a fresh context per
    scheme (see the module docstring)."""

    def __init__(self, scheme: Scheme, recheck: Recheck, timeout_ms: int = DEFAULT_TIMEOUT_MS):
        self.scheme = scheme
        self.recheck = recheck
        self.timeout_ms = timeout_ms
        # a deterministic work bound instead of the timeout (`limits.work_budget`), for questions whose unknown
        # changes what is printed; the timeout then is only a backstop
        self.budget_ms: int | None = None
        self.backstop = limits.BACKSTOP  # the time backstop, as a multiple of the work budget's time
        self.ctx = z3.Context()  # a fresh context per scheme: answers must not depend on earlier queries
        self.translator = Translator(self.ctx)
        self.unsupported_assumptions = ""
        try:
            self.assumptions = [self.translator.boolean(c) for c, _ in scheme.assumptions]
        except Unsupported as exc:  # e.g. exp or log in an assumption: no solver question can be asked
            self.assumptions = []
            self.unsupported_assumptions = str(exc)

    # -- solver plumbing ------------------------------------------------------------------------------------
    def solve(self, *formulas: z3.BoolRef,
              extra: list[z3.BoolRef] = ()) -> tuple[z3.CheckSatResult, z3.ModelRef | None, str]:
        """Ask z3 whether the assumptions, the auxiliary variables' definitions, `extra` and `formulas` hold together:
        (answer, a model when sat, z3's reason when unknown), within the time limit."""
        solver = z3.Solver(ctx=self.ctx)
        if self.budget_ms is not None:
            solver.set("timeout", limits.question_ms(self.budget_ms * self.backstop))
            solver.set("rlimit", limits.work_budget(self.budget_ms))
        else:
            solver.set("timeout", limits.question_ms(self.timeout_ms))  # never past the overall bound
            if limits.RLIMIT:
                solver.set("rlimit", limits.RLIMIT)
        solver.add(*self.assumptions, *self.translator.side, *extra, *formulas)
        answer = solver.check()
        if answer == z3.sat:
            return answer, solver.model(), ""
        return answer, None, solver.reason_unknown() if answer == z3.unknown else ""

    def parameters_of(self, model: z3.ModelRef) -> dict[str, sp.Expr]:
        """Exact values of every symbolic parameter in a model (unconstrained ones default to 0)."""
        out = {}
        for symbol in self.scheme.symbols:
            value = model.eval(self.translator.var(symbol.name), model_completion=True)
            out[symbol.name] = model_value(value)
        return out

    # -- checks before any property ----------------------------------------------------------------------------
    def admissible(self) -> tuple[bool | None, str]:
        """Whether some parameter value satisfies the assumptions: True, False (none does), or None with the reason."""
        if self.unsupported_assumptions:
            return None, f"the assumptions are beyond the SMT encoding ({self.unsupported_assumptions})"
        answer, _, reason = self.solve()
        if answer == z3.unsat:
            return False, "no parameter value satisfies the assumptions"
        return (True, "") if answer == z3.sat else (None, f"z3 could not decide the assumptions ({reason})")

    def check_defined(self) -> list[tuple[sp.Basic, str]]:
        """Every formula must be defined for every admissible value (a divisor never 0, a radicand >= 0...).
        Raises SpecError with the breaking value; returns the conditions z3 could not settle (the caller must
        certify them otherwise, or give no verdict)."""
        unsettled = []
        for condition, text in self.scheme.side_conditions:
            try:
                negated = z3.Not(self.translator.boolean(condition))
            except Unsupported:
                unsettled.append((condition, text))
                continue
            answer, model, _ = self.solve(negated)
            if answer == z3.unknown:
                unsettled.append((condition, text))
            if answer == z3.sat:
                values = ", ".join(f"{k} = {v}" for k, v in self.parameters_of(model).items())
                spec = self.scheme.spec
                mark = spec.marks.get("assume") or spec.marks.get("")
                raise SpecError.at(f"a formula is undefined for some admissible parameter values ({text} fails at "
                                   f"{values})", mark, file=spec.path, key="assume",
                                   expected="assumptions that keep every formula defined")
        return unsettled

    # -- properties ------------------------------------------------------------------------------------------------
    def decide(self, prop: Property) -> PropertyResult:
        """Decide the property for every admissible value: holds when z3 proves no value violates it (unsat); a model's
        exact values, re-checked, give fails; otherwise unknown, with the reason."""
        try:
            bad = obligations.violation(self.scheme, prop)
            formula = self.translator.boolean(bad.formula)
        except Unsupported as exc:
            return _unknown(prop, f"the SMT encoding cannot express it: {exc}", unsupported=True)
        answer, model, reason = self.solve(formula)
        if answer == z3.unsat:
            return PropertyResult(prop, Verdict.HOLDS, Evidence("proof", instances=0),
                                  reason="z3 proved that no admissible parameter value violates it (unsat)")
        if answer == z3.unknown:
            return _unknown(prop, f"z3 gave no answer ({reason or 'unknown'}; limit {self.timeout_ms} ms)")
        result = self.confirm(prop, self.parameters_of(model))
        if result.verdict is Verdict.UNKNOWN and self.scheme.orbits is not None and self.scheme.orbits.moves_parameters:
            return self._at_symmetric_values(prop, formula)
        return result

    def _at_symmetric_values(self, prop: Property, formula: z3.BoolRef) -> PropertyResult:
        """Per-class parameters, and a violation on the representatives at the solver's values that the concrete
        scheme there did not confirm (the other sets and classes may satisfy it). At values equal across
        classes the scheme is symmetric again and the representatives speak for every set: ask for such a
        violation."""
        answer, model, reason = self.solve(formula, extra=self._equal_per_class())
        if answer == z3.sat:
            result = self.confirm(prop, self.parameters_of(model))
            if result.verdict is Verdict.FAILS:
                return result
        return _unknown(prop, "the per-class parameters break the symmetry between classes: z3 found no proof "
                              "from the representative sets, and "
                              + ("no admissible violation with equal per-class values" if answer == z3.unsat
                                 else f"no answer with equal per-class values ({reason or answer})"))

    def confirm(self, prop: Property, values: dict[str, sp.Expr]) -> PropertyResult:
        """Substitute the solver's values into the spec and let the exact engine and the checker re-check."""
        try:
            concrete = rebuild_at(self.scheme, values)
        except SpecError as exc:
            return _unknown(prop, f"the solver's values {values} are not admissible on substitution: {exc}")
        result = EnumerationEngine(concrete).decide(prop)
        if partial_only(concrete) and prop.quantifiers[0].kind == QuantifierKind.EXISTS:
            return _unknown(prop, f"at {values} the per-class values differ, so the representative sets do not "
                                  "speak for every set")
        self.recheck(concrete, [result])
        if result.verdict is not Verdict.FAILS:
            return _unknown(prop, f"z3 reported a violation at {values}, but the exact re-check gives "
                                  f"{result.verdict.value} ({result.reason})")
        result.evidence.parameters = values
        result.evidence.concrete = concrete
        result.reason = "at the admissible parameter values " + ", ".join(f"{k} = {v}" for k, v in values.items())
        return result

    def holds_somewhere(self, prop: Property) -> dict[str, sp.Expr] | None:
        """An admissible value where the property holds, if there is one (for regions and reports)."""
        found, _ = self.where_it_holds(prop)
        return found

    def where_it_holds(self, prop: Property) -> tuple[dict[str, sp.Expr] | None, bool]:
        """(an admissible value where the property holds or None, proved to hold for no admissible value)."""
        try:
            good = obligations.satisfaction(self.scheme, prop)
            answer, model, _ = self.solve(self.translator.boolean(good.formula))
        except Unsupported:
            return None, False
        return (self.parameters_of(model), False) if answer == z3.sat else (None, answer == z3.unsat)

    def where_it_holds_symmetric(self, prop: Property) -> dict[str, sp.Expr] | None:
        """An admissible value, equal across classes for per-class parameters, where the property holds."""
        try:
            good = obligations.satisfaction(self.scheme, prop)
            answer, model, _ = self.solve(self.translator.boolean(good.formula), extra=self._equal_per_class())
        except Unsupported:
            return None
        return self.parameters_of(model) if answer == z3.sat else None

    def _equal_per_class(self) -> list[z3.BoolRef]:
        equal = []
        for value in self.scheme.parameters.values():
            if isinstance(value, tuple):
                names = [v.name for v in value if isinstance(v, sp.Symbol)]
                equal += [self.translator.var(n) == self.translator.var(names[0]) for n in names[1:]]
        return equal

    def decide_all(self) -> list[PropertyResult]:
        """The verdicts of the ten properties, in order."""
        return [self.decide(p) for p in PROPERTIES]


def _unknown(prop: Property, reason: str, unsupported: bool = False) -> PropertyResult:
    result = PropertyResult(prop, Verdict.UNKNOWN, Evidence("none"), reason=reason)
    result.unsupported = unsupported
    return result
