"""`--cross-check`: decide every property a second time by an independent method, and flag disagreement.

Second methods (none shares arithmetic with the first):
- numeric P2..P10: brute force over every instance with the checker's arithmetic (Fractions, mpmath
  intervals, sympy.simplify for ties) instead of the engine's python-flint comparisons;
- numeric P1: z3 decides each set's possibility from its exact SMT encoding (∃p) instead of HiGHS plus
  rationalised certificates, under a deterministic resource limit per set (sets beyond it are skipped);
- symbolic parameters: cvc5 decides each violation obligation that z3 decided.
Where no second method applies (terms beyond SMT, a cvc5 time limit), the check says "skipped" and why;
a skip is never counted as agreement. The cross-check runs within what is left of the run's overall time bound
(`--time-limit`): what it does not reach in time is skipped, with that reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from verifier import limits
from verifier.check.checker import Checker, _Unconfirmed
from verifier.engines import obligations
from verifier.engines.smt.translate import Translator
from verifier.formula.enclose import Unsupported
from verifier.properties import Possible, Property, Quantifier, QuantifierKind
from verifier.verdict import Binding, PropertyResult, Truth, Verdict


@dataclass
class CrossCheck:
    """One property's cross-check: the reported verdict, the second method's (None when skipped), which method, and why
    it was skipped or cut short."""

    property_id: str
    first: str  # the reported verdict
    second: str | None  # the second method's verdict; None when skipped
    method: str
    note: str = ""
    cut: str = ""  # skipped because the overall time bound came first: the stop ("the time limit of ... reached")

    @property
    def disagrees(self) -> bool:
        """Whether both verdicts are decided (holds or fails) and differ."""
        decided = {"holds", "fails"}
        return self.second in decided and self.first in decided and self.second != self.first


def cross_check(analysis, timeout_ms: int, seconds_left: float | None = None,
                time_limit_s: float | None = None) -> list[CrossCheck]:
    """The second opinion on every property, within the run's overall time bound: `seconds_left` of the
    `time_limit_s` the whole run was given (None: no bound). What is not re-checked by then is skipped, saying
    so (`CrossCheck.cut`), never counted as agreement."""
    out: list[CrossCheck] = []
    try:
        if seconds_left is not None and seconds_left <= 0:
            raise limits.TimeLimitReached(time_limit_s or 0.0)
        with limits.time_limit(seconds_left, shown=time_limit_s):
            for r in analysis.results:
                out.append(_second(analysis, r, timeout_ms))
    except limits.STOPS as caught:
        stop = limits.stop_of(caught)
        out += [CrossCheck(r.property.id, r.verdict.value, None, _method(analysis.scheme, r),
                           f"skipped: {stop} before it was re-checked", cut=str(stop))
                for r in analysis.results[len(out):]]
    return out


def _second(analysis, r: PropertyResult, timeout_ms: int) -> CrossCheck:
    if analysis.scheme.symbolic:
        check = _symbolic(analysis.scheme, r, timeout_ms)
    elif isinstance(r.property.atom, Possible):
        check = _possibility(analysis, r, timeout_ms)
    else:
        check = _brute_force(analysis.scheme, r)
    if check.second is None:
        limits.check_time()  # a solver cut short at the bound (its own limit was the time left): the bound is why
    return check


BRUTE_FORCE = "brute force over every instance (Fractions, mpmath intervals, sympy ties)"
Z3_POSSIBLE = "z3 on each set's exact encoding ∃p (instead of HiGHS and rationalised certificates)"
CVC5 = "cvc5 on the same violation obligation"


def _method(scheme, r: PropertyResult) -> str:
    return CVC5 if scheme.symbolic else Z3_POSSIBLE if isinstance(r.property.atom, Possible) else BRUTE_FORCE


# -- numeric: brute force with the checker's arithmetic --------------------------------------------------------
MAX_BRUTE_INSTANCES = 50_000  # one exact atom each (mpmath and sympy where cells are irrational)


def _brute_force(scheme, result: PropertyResult) -> CrossCheck:
    checker = Checker(scheme)
    method = BRUTE_FORCE
    count = _instances(checker, result.property)
    if count > MAX_BRUTE_INSTANCES:
        return CrossCheck(result.property.id, result.verdict.value, None, method,
                          f"skipped: {count:,} instances, beyond the brute force's budget of "
                          f"{MAX_BRUTE_INSTANCES:,}")
    try:
        truth = _walk(checker, result.property, result.property.quantifiers, {})
    except _Unconfirmed as exc:
        return CrossCheck(result.property.id, result.verdict.value, None, method, f"skipped: {exc}")
    return CrossCheck(result.property.id, result.verdict.value, "holds" if truth else "fails", method)


def _instances(checker: Checker, prop: Property) -> int:
    """How many innermost instances the brute force would evaluate (counted, not walked)."""
    total = 0
    for members in checker.scheme.indeterminate_sets:
        n = 1
        for q in prop.quantifiers[1:]:
            size = len(checker._domain(q.domain, members))
            n *= size - 1 if q.var == "y2" else size
        total += n
        if total > MAX_BRUTE_INSTANCES:
            break
    return total


def _walk(checker: Checker, prop: Property, quants: tuple[Quantifier, ...], binding: dict) -> bool:
    if not quants:
        return checker.atom(prop, Binding(binding["Y"], binding.get("y"), binding.get("y2")))
    q, rest = quants[0], quants[1:]
    if q.var == "Y":
        values = checker.scheme.indeterminate_sets
    else:
        values = checker._domain(q.domain, binding["Y"])
        if q.var == "y2":
            values = [v for v in values if v != binding["y"]]
    results = (_walk(checker, prop, rest, {**binding, q.var: v}) for v in values)
    return all(results) if q.kind == QuantifierKind.FORALL else any(results)


# -- numeric P1: cvc5 on each set's ∃p encoding ---------------------------------------------------------------------
RLIMIT_PER_SET = 1_000_000  # z3 resource units: deterministic, unlike wall-clock limits
MAX_SET_SIZE = 2  # larger sets (plus the reported witness set) are beyond the second method's budget
MAX_CLASSES = 16  # beyond, each set's encoding takes z3 seconds (a family of 100 classes: minutes in all)


def _possibility(analysis, result: PropertyResult, timeout_ms: int) -> CrossCheck:
    method = Z3_POSSIBLE
    disagreements, skipped, why = [], [], ""
    witness = result.evidence.binding.members if result.evidence.binding else None
    if analysis.scheme.K > MAX_CLASSES:
        return CrossCheck(result.property.id, result.verdict.value, None, method,
                          f"skipped: {analysis.scheme.K} classes, beyond the second method's {MAX_CLASSES}")
    for entry in analysis.possibility:
        if len(entry.members) > MAX_SET_SIZE and entry.members != witness:
            skipped.append(analysis.scheme.label(entry.members))
            why = why or f"more than {MAX_SET_SIZE:,} classes"
            continue
        answer = _z3_possible(analysis.scheme, entry.members, timeout_ms)
        if not isinstance(answer, bool):
            skipped.append(analysis.scheme.label(entry.members))
            why = answer
            continue
        if entry.status is not Truth.UNKNOWN and (entry.status is Truth.TRUE) != answer:
            disagreements.append(analysis.scheme.label(entry.members))
    if disagreements:
        return CrossCheck(result.property.id, result.verdict.value, "fails" if result.verdict is Verdict.HOLDS
                          else "holds", method, "sets classified differently: " + ", ".join(disagreements))
    checked = len(analysis.possibility) - len(skipped)
    decisive = any(e.status is Truth.TRUE for e in analysis.possibility
                   if analysis.scheme.label(e.members) not in skipped)
    if skipped and not (result.verdict is Verdict.HOLDS and decisive):
        return CrossCheck(result.property.id, result.verdict.value, None, method,
                          f"skipped: {len(skipped):,} set(s) beyond the second method, e.g. {skipped[0]} ({why})")
    note = f"{checked:,} of {len(analysis.possibility):,} sets classified alike"
    if skipped:  # P1 holds already on a set both methods call possible
        note += f"; {len(skipped)} beyond the second method ({why}), P1 rests on a set both call possible"
    return CrossCheck(result.property.id, result.verdict.value, result.verdict.value, method, note)


def _z3_possible(scheme, members, timeout_ms: int) -> bool | str:
    import z3

    ctx = z3.Context()
    t = Translator(ctx)
    try:
        formula = t.boolean(obligations.possible(scheme, members)[0])
    except Unsupported as exc:
        return f"z3 encoding: {exc}"
    solver = z3.Solver(ctx=ctx)
    solver.set("timeout", limits.question_ms(timeout_ms))
    solver.set("rlimit", RLIMIT_PER_SET)
    solver.add(formula, *t.side)
    answer = solver.check()
    if answer == z3.sat:
        return True
    return False if answer == z3.unsat else "z3 gave no answer within its limit"


# -- symbolic: cvc5 on the violation obligation ------------------------------------------------------------------
def _symbolic(scheme, result: PropertyResult, timeout_ms: int) -> CrossCheck:
    method = CVC5
    formula = obligations.violation(scheme, result.property).formula
    answer = _cvc5(scheme, [formula], timeout_ms, assumptions=True)
    if not isinstance(answer, bool) and result.verdict is Verdict.FAILS and result.evidence.concrete is not None:
        # beyond SMT: re-derive the failure at the counterexample's exact values by brute force instead
        again = _brute_force(result.evidence.concrete, result)
        again.method = ("brute force with independent arithmetic at the counterexample's values "
                        f"(cvc5 not applicable: {answer or 'no answer'})")
        return again
    if not isinstance(answer, bool):
        return CrossCheck(result.property.id, result.verdict.value, None, method, f"skipped: {answer or 'unknown'}")
    return CrossCheck(result.property.id, result.verdict.value, "fails" if answer else "holds", method)


def _cvc5(scheme, formulas, timeout_ms: int, assumptions: bool = False) -> bool | str | None:
    """True (sat), False (unsat), or a reason string when cvc5 cannot decide or encode it."""
    import cvc5.pythonic as cvc5

    t = Translator(backend=cvc5)
    try:
        parts = [t.boolean(f) for f in formulas]
        if assumptions:
            parts += [t.boolean(c) for c, _ in scheme.assumptions]
    except Unsupported as exc:
        return f"cvc5 encoding: {exc}"
    solver = cvc5.SolverFor("QF_NRA")
    solver.set("tlimit-per", limits.question_ms(timeout_ms))  # never past the overall bound
    solver.add(*parts, *t.side)
    answer = solver.check()
    if answer == cvc5.sat:
        return True
    if answer == cvc5.unsat:
        return False
    return "cvc5 gave no answer"
