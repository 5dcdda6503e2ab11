"""Where a property holds, as a condition a person can read (for properties that hold only for some values).

The satisfaction obligation is already quantifier-free in the parameters, except for P1's witness
distributions p, which enter linearly: we eliminate them by Fourier–Motzkin, deciding the sign of each
parametric coefficient from the assumptions with z3 (z3's own nonlinear quantifier elimination is not
available). The result is simplified by z3 under the assumptions, read back into sympy, and each linear
inequality is solved for one parameter ("nu < mu/(mu + 1)"); x ≤ b and x ≥ b together are written x = b
(`equalities`).
"""

from __future__ import annotations

import z3

from verifier.analysis.conditions import formula_text, one_parameter_set, relation_text, set_text
from verifier.engines import obligations
from verifier.engines.smt.engine import SmtEngine
from verifier.errors import DoesNotApply
from verifier.formula.enclose import Unsupported
from verifier.lazy_sympy import sympy as sp
from verifier.properties import Possible, Property

MAX_REGION_ATOMS = 12
# sympy's factoring of the eliminated conditions grows steeply with the parameters (a sum of 24 in a set cost:
# 9 s; of 40: past 200 s); beyond this many the verdicts and their points stand, with no region in words
MAX_REGION_PARAMETERS = 16


def region(engine: SmtEngine, prop: Property) -> tuple[str, sp.Basic] | None:
    """A condition on the parameters equivalent under the assumptions to "prop holds": (readable text,
    sympy formula), or None when none could be derived."""
    if len(engine.scheme.symbols) > MAX_REGION_PARAMETERS:
        return None
    try:
        if isinstance(prop.atom, Possible):
            formula = sp.Or(*[_eliminate_witness(engine, m) for m in engine.scheme.indeterminate_sets])
        else:
            formula = obligations.satisfaction(engine.scheme, prop).formula
        simplified = _simplify(engine, formula)
    except (DoesNotApply, z3.Z3Exception):  # Unsupported, _CannotEliminate
        return None
    if simplified is None:
        return None
    atoms = list(sp.And.make_args(simplified))
    if len(atoms) > MAX_REGION_ATOMS or any(a.has(sp.Or) and len(a.args) > MAX_REGION_ATOMS for a in atoms):
        return None
    found = one_parameter_set(engine.scheme, simplified)
    if found is not None:  # one parameter: the exact set, as `verify design` prints the pieces
        return set_text(engine.scheme.symbols[0].name, found), simplified
    return _readable(engine, simplified), simplified


class _CannotEliminate(DoesNotApply):
    pass


def readable_condition(scheme, formula: sp.Basic, timeout_ms: int, logic: bool = True) -> tuple[str, sp.Basic]:
    """A combination of regions (And / Or / Not of them: where a setting's demands are met), simplified under the
    assumptions by z3 and written as the regions are; the formula itself when z3 cannot simplify it. `logic`:
    then simplified as a boolean formula by sympy too (absorbing repeated atoms; slow with many relations)."""
    engine = SmtEngine(scheme, lambda *_: None, timeout_ms)
    try:
        simplified = _simplify(engine, formula)
    except (Unsupported, z3.Z3Exception):
        simplified = None
    simplified = formula if simplified is None else simplified
    if logic and len(simplified.atoms(sp.core.relational.Relational)) <= MAX_REGION_ATOMS:
        simplified = sp.simplify_logic(simplified, form="dnf")  # repeated, absorbed atoms: (A and B) or A is A
    return _readable(engine, simplified), simplified


def _sign(engine: SmtEngine, value: sp.Expr) -> int:
    """The sign of a parametric coefficient for every admissible value, or _CannotEliminate."""
    if not value.free_symbols:
        return int(sp.sign(value))
    t = engine.translator
    x = t.expr(value)
    for sign, bad in ((1, x <= 0), (-1, x >= 0), (0, x != 0)):
        if engine.solve(bad)[0] == z3.unsat:
            return sign
    raise _CannotEliminate(f"the sign of {value} depends on the parameters")


def _eliminate_witness(engine: SmtEngine, members) -> sp.Basic:
    """∃p in the simplex with E_p[c_Y] < E_p[c_ŷ] (ŷ in Y), with p eliminated: a condition on parameters."""
    formula, p = obligations.possible(engine.scheme, members)
    if formula is sp.false or formula is sp.true:  # decided already (e.g. a set possible for no value)
        return formula
    last = p[-1]
    constraints = []  # (expression, strict): expression > 0 or >= 0
    for part in sp.And.make_args(formula):
        if isinstance(part, sp.Equality):
            continue  # Σ p = 1, used below to eliminate the last coordinate
        expr = (part.lhs - part.rhs) if isinstance(part, (sp.StrictGreaterThan, sp.GreaterThan)) \
            else (part.rhs - part.lhs)
        strict = isinstance(part, (sp.StrictGreaterThan, sp.StrictLessThan))
        constraints.append((sp.expand(expr.subs(last, 1 - sp.Add(*p[:-1]))), strict))
    for v in p[:-1]:
        constraints = _fourier_motzkin(engine, constraints, v)
    parts = []
    for expr, strict in constraints:
        expr = sp.factor(expr)
        if not expr.free_symbols:
            if (expr > 0) if strict else (expr >= 0):
                continue
            return sp.false
        parts.append(sp.Gt(expr, 0) if strict else sp.Ge(expr, 0))
    return sp.And(*parts)


def _fourier_motzkin(engine: SmtEngine, constraints, v):
    upper, lower, rest = [], [], []
    for expr, strict in constraints:
        a = sp.expand(expr).coeff(v)
        sign = _sign(engine, a)
        (rest if sign == 0 else lower if sign > 0 else upper).append((a, sp.expand(expr - a * v), strict))
    out = [(r, s) for _, r, s in rest]
    for a, r, s in lower:  # a v + r > 0 with a > 0
        for b, q, t in upper:  # b v + q > 0 with b < 0  =>  (-b)(a v + r) + a (b v + q) = a q - b r > 0
            out.append((sp.expand(a * q - b * r), s or t))
    return out


def _without_extrema(formula: sp.Basic) -> sp.Basic:
    """A comparison with a max or min on one side, as the and/or of comparisons with its arguments
    ("nu <= Max(0, mu)" is "nu <= 0 or nu <= mu"): z3 would write it with if-then-else, which reads back into no
    condition a person reads."""
    if isinstance(formula, (sp.And, sp.Or, sp.Not)):
        return formula.func(*[_without_extrema(a) for a in formula.args])
    if not isinstance(formula, (sp.LessThan, sp.StrictLessThan, sp.GreaterThan, sp.StrictGreaterThan)):
        return formula
    small, large = (formula.lhs, formula.rhs) if isinstance(formula, (sp.LessThan, sp.StrictLessThan)) \
        else (formula.rhs, formula.lhs)
    below = sp.Lt if isinstance(formula, (sp.StrictLessThan, sp.StrictGreaterThan)) else sp.Le
    if isinstance(large, (sp.Max, sp.Min)):  # small below the max of some: below one; below the min: below all
        parts = [_without_extrema(below(small, a)) for a in large.args]
        return sp.Or(*parts) if isinstance(large, sp.Max) else sp.And(*parts)
    if isinstance(small, (sp.Max, sp.Min)):  # the max below: all below; the min below: one below
        parts = [_without_extrema(below(a, large)) for a in small.args]
        return sp.And(*parts) if isinstance(small, sp.Max) else sp.Or(*parts)
    return formula


def _simplify(engine: SmtEngine, formula: sp.Basic) -> sp.Basic | None:
    formula = _without_extrema(formula)
    t = engine.translator
    goal = z3.Goal(ctx=engine.ctx)
    goal.add(*engine.assumptions, *t.side, t.boolean(formula))
    tactic = z3.Then(*[z3.Tactic(name, ctx=engine.ctx) for name in ("simplify", "propagate-ineqs",
                                                                    "ctx-solver-simplify")])
    result = z3.TryFor(tactic, engine.timeout_ms)(goal)
    if len(result) != 1:
        return None
    assumed = {str(a) for a in engine.assumptions}
    kept = [f for f in result[0] if str(f) not in assumed]
    for fact in list(kept):  # drop what the assumptions and the other conjuncts already imply
        others = [g for g in kept if g is not fact]
        if engine.solve(z3.Not(fact), extra=others)[0] == z3.unsat:
            kept = others
    kept = [_without_impossible(engine, f) for f in kept]
    names = {s.name: s for s in engine.scheme.symbols}
    return sp.And(*[_to_sympy(f, names) for f in kept])


def _without_impossible(engine: SmtEngine, fact: z3.BoolRef) -> z3.BoolRef:
    """A disjunction without the alternatives no admissible value meets ("nu ≤ 0" beside "mu ≥ nu" when
    nu > 0 is assumed), each proved impossible by z3 under the assumptions."""
    if not z3.is_or(fact):
        return fact
    possible = [a for a in fact.children() if engine.solve(a)[0] != z3.unsat]
    return fact if not possible else possible[0] if len(possible) == 1 else z3.Or(possible)


def _to_sympy(e: z3.ExprRef, names: dict[str, sp.Symbol]) -> sp.Basic:
    if z3.is_rational_value(e):
        return sp.Rational(e.numerator_as_long(), e.denominator_as_long())
    if z3.is_true(e):
        return sp.true
    if z3.is_false(e):
        return sp.false
    if z3.is_const(e):
        if e.decl().name() not in names:
            raise Unsupported(f"auxiliary variable {e} in a region")
        return names[e.decl().name()]
    args = [_to_sympy(c, names) for c in e.children()]
    kind = e.decl().kind()
    table = {z3.Z3_OP_ADD: lambda: sp.Add(*args), z3.Z3_OP_MUL: lambda: sp.Mul(*args),
             z3.Z3_OP_SUB: lambda: args[0] - sp.Add(*args[1:]), z3.Z3_OP_UMINUS: lambda: -args[0],
             z3.Z3_OP_DIV: lambda: args[0] / args[1], z3.Z3_OP_POWER: lambda: args[0] ** args[1],
             z3.Z3_OP_LT: lambda: sp.Lt(*args), z3.Z3_OP_LE: lambda: sp.Le(*args),
             z3.Z3_OP_GT: lambda: sp.Gt(*args), z3.Z3_OP_GE: lambda: sp.Ge(*args),
             z3.Z3_OP_EQ: lambda: sp.Eq(*args), z3.Z3_OP_NOT: lambda: sp.Not(args[0]),
             z3.Z3_OP_AND: lambda: sp.And(*args), z3.Z3_OP_OR: lambda: sp.Or(*args),
             z3.Z3_OP_TO_REAL: lambda: args[0]}
    if kind not in table:
        raise Unsupported(f"cannot read {e.decl().name()} back from z3")
    return table[kind]()


def _readable(engine: SmtEngine, formula: sp.Basic) -> str:
    if formula is sp.true:
        return "every admissible value"
    if formula is sp.false:
        return "no admissible value"
    if isinstance(formula, sp.Or):
        return " or ".join(sorted(f"({_readable(engine, a)})" for a in formula.args))
    return " and ".join(sorted(_isolate(engine, a) if not isinstance(a, sp.Or) else f"({_readable(engine, a)})"
                               for a in sp.And.make_args(formula)))


def _isolate(engine: SmtEngine, relation: sp.Basic) -> str:
    """Solve a relation for one parameter when it is linear in it with a coefficient of known sign."""
    if not isinstance(relation, sp.core.relational.Relational) or isinstance(relation, (sp.Eq, sp.Ne)):
        return formula_text(relation)
    expr = sp.expand(relation.lhs - relation.rhs)  # relation: expr op 0
    for symbol in engine.scheme.symbols:  # the first declared parameter that can be isolated
        if not expr.has(symbol) or not expr.is_polynomial(symbol) or sp.Poly(expr, symbol).degree() != 1:
            continue
        a = expr.coeff(symbol)
        try:
            sign = _sign(engine, a)
        except _CannotEliminate:
            continue
        if sign == 0:
            continue
        bound = -(expr - a * symbol) / a
        # a rational function is put in lowest terms by cancel (factor's form is canonical either way);
        # simplify would first import sympy.physics (0.5 s of a 1.4 s `verify specs/ha.yaml`)
        bound = sp.factor(sp.cancel(bound) if bound.is_rational_function() else sp.simplify(bound))
        flipped = {sp.StrictLessThan: sp.StrictGreaterThan, sp.LessThan: sp.GreaterThan,
                   sp.StrictGreaterThan: sp.StrictLessThan, sp.GreaterThan: sp.LessThan}
        op = type(relation) if sign > 0 else flipped[type(relation)]
        return relation_text(op(symbol, bound, evaluate=False))
    return relation_text(relation)


def equalities(formula: sp.Basic) -> sp.Basic:
    """x ≤ b and x ≥ b, in a conjunction, written x = b (where a set is a minimiser but not alone)."""
    parts = list(sp.And.make_args(formula))
    for le in [a for a in parts if isinstance(a, sp.LessThan)]:
        ge = next((a for a in parts if isinstance(a, sp.GreaterThan) and (a.lhs, a.rhs) == (le.lhs, le.rhs)), None)
        if ge is not None:
            parts = [a for a in parts if a is not le and a is not ge] + [sp.Eq(le.lhs, le.rhs)]
    return sp.And(*parts)
