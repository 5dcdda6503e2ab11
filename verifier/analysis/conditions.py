"""Conditions on the parameters, simplified exactly and written as the paper writes them.

A region where a property holds, or the conjunction of several (where a scheme fits a setting), is a sympy
formula over the parameters. Read raw it can be empty ("w < 1/3 and w = 1") or in sympy's syntax ("Eq(w, 1)").
Here it is reduced exactly: with one parameter, to a set of reals intersected with the admissible values
(empty, points, intervals: the same notation as `verify design`); with several, the conjunction is asked of z3
under the assumptions, so that an empty one is said to be empty, and each relation is printed as = ≠ < ≤ > ≥,
products with · (2·nu).
Nothing here is decided in floating point.
"""

from __future__ import annotations

import re

from verifier.errors import DoesNotApply
from verifier.lazy_sympy import sympy as sp

RELATION_SIGNS = {sp.Eq: "=", sp.Ne: "≠", sp.StrictLessThan: "<", sp.LessThan: "≤",
                  sp.StrictGreaterThan: ">", sp.GreaterThan: "≥"}
NOWHERE = "no admissible value"


def term_text(value: sp.Basic) -> str:
    """One side of a relation as the paper writes it: a product with ·, a power with ^ (`mu > 2·nu`, not
    `mu > 2*nu`); parameters keep their names as the spec spells them."""
    return re.sub(r"(?<!\*)\*(?!\*)", "·", sp.sstr(value)).replace("**", "^")


def relation_text(relation: sp.Basic) -> str:
    """One relation in the paper's notation: `w = 1`, not `Eq(w, 1)`; `w ≤ 1/2`, not `w <= 1/2`."""
    for kind, sign in RELATION_SIGNS.items():
        if isinstance(relation, kind):
            return f"{term_text(relation.lhs)} {sign} {term_text(relation.rhs)}"
    return term_text(relation)


def formula_text(formula: sp.Basic) -> str:
    """A formula of relations joined by and/or/not, each relation in the paper's notation."""
    if formula is sp.true:
        return "every admissible value"
    if formula is sp.false:
        return NOWHERE
    if isinstance(formula, sp.Or):
        return " or ".join(sorted(f"({formula_text(a)})" for a in formula.args))
    if isinstance(formula, sp.And):
        return " and ".join(sorted(formula_text(a) if not isinstance(a, sp.Or) else f"({formula_text(a)})"
                                   for a in formula.args))
    if isinstance(formula, sp.Not):
        return f"not ({formula_text(formula.args[0])})"
    return relation_text(formula)


def one_parameter_set(scheme, formula: sp.Basic) -> sp.Set | None:
    """The admissible values of the scheme's one symbolic parameter where `formula` holds, as an exact set of
    reals; None when the scheme has several parameters or sympy cannot solve a relation exactly."""
    symbols = list(scheme.symbols)
    if len(symbols) != 1 or not formula.free_symbols <= set(symbols):
        return None
    (symbol,) = symbols
    try:
        admissible = sp.S.Reals
        for condition, _ in scheme.assumptions:
            if condition.free_symbols - {symbol}:
                return None
            admissible = admissible.intersect(_as_set(condition, symbol))
        found = admissible.intersect(_as_set(formula, symbol))
    except (NotImplementedError, TypeError, ValueError, _NotExact):
        return None
    return found if _exact_set(found) else None


class _NotExact(DoesNotApply):
    pass


def _as_set(condition: sp.Basic, symbol: sp.Symbol) -> sp.Set:
    if condition is sp.true:
        return sp.S.Reals
    if condition is sp.false:
        return sp.S.EmptySet
    return condition.as_set()


def _exact_set(s: sp.Set) -> bool:
    """Only unions of intervals and finite sets with explicit ends: a ConditionSet or an ImageSet is not an
    answer that can be printed as the paper would."""
    if isinstance(s, sp.Union):
        return all(_exact_set(a) for a in s.args)
    if s is sp.S.EmptySet or s is sp.S.Reals:
        return True
    if isinstance(s, sp.FiniteSet):
        return all(a.is_real for a in s)
    return isinstance(s, sp.Interval)


def set_text(name: str, s: sp.Set) -> str:
    """`w = 1`, `w in [0, 1/3)`, `w in [0, 1/3) ∪ {1}`, or `no admissible value`, in `verify design`'s
    notation for the pieces of a calibration."""
    if s is sp.S.EmptySet:
        return NOWHERE
    if isinstance(s, sp.FiniteSet) and len(s) == 1:
        return f"{name} = {term_text(next(iter(s)))}"
    return f"{name} in {_set_part(s)}"


def _set_part(s: sp.Set) -> str:
    if isinstance(s, sp.Union):
        return " ∪ ".join(_set_part(a) for a in sorted(s.args, key=lambda a: float(a.inf)))
    if isinstance(s, sp.FiniteSet):
        return "{" + ", ".join(term_text(a) for a in sorted(s, key=float)) + "}"
    if s is sp.S.Reals:
        return "(-inf, +inf)"
    low = "-inf" if s.start is sp.S.NegativeInfinity else term_text(s.start)
    high = "+inf" if s.end is sp.S.Infinity else term_text(s.end)
    return ("(" if s.left_open else "[") + low + ", " + high + (")" if s.right_open else "]")


def condition_text(scheme, formula: sp.Basic, satisfiable=None) -> tuple[str, bool | None]:
    """(text, empty) for a condition on the parameters: empty is True when no admissible value satisfies it,
    False when some does, None when that could not be decided. `satisfiable(formula) -> bool | None` (True,
    False, or None when undecided), asked under the scheme's assumptions, decides emptiness for several
    parameters."""
    found = one_parameter_set(scheme, formula)
    if found is not None:
        return set_text(scheme.symbols[0].name, found), found is sp.S.EmptySet
    if formula is sp.false:
        return NOWHERE, True
    found = satisfiable(formula) if satisfiable is not None else None
    empty = None if found is None else not found
    return (NOWHERE if empty else formula_text(formula)), empty


def joint_condition(scheme, formulas: list, texts: list[str]) -> tuple[str, bool | None]:
    """Where several conditions (each derived for one property, `texts` as printed) hold at once, simplified
    exactly: (text, empty). An empty conjunction is said to be empty, never printed as a condition."""
    written = " and ".join(f"({c})" if len(texts) > 1 else c for c in texts)
    if any(f is None for f in formulas):
        return written, None
    joint = sp.And(*formulas)
    found = one_parameter_set(scheme, joint)
    if found is not None:
        return set_text(scheme.symbols[0].name, found), found is sp.S.EmptySet
    if len(formulas) == 1:
        return written, None
    import z3  # several parameters: emptiness is z3's question (loaded only for parametric schemes)

    from verifier.engines.smt.engine import SmtEngine
    from verifier.formula.enclose import Unsupported

    engine = SmtEngine(scheme, None)

    def satisfiable(formula):
        try:
            answer = engine.solve(engine.translator.boolean(formula))[0]
        except (Unsupported, z3.Z3Exception):
            return None
        return True if answer == z3.sat else False if answer == z3.unsat else None

    text, empty = condition_text(scheme, joint, satisfiable)
    return (text if empty else written), empty
