"""Which names each formula of a spec sees (the spec format's contract: `y` and `yhat` in `cost`, `Y` and `y` in
`set_cost`, a function's own parameters in its body, ...), and the check of every formula the reader parsed
against the whitelist and its scope, so that all their problems are reported together.

Owns: `formula_problems`, `spec_identifier`, `bare_parameter`. May import: `formula`, `spec.model`, `errors`.
"""

from __future__ import annotations

import keyword
import re
from fractions import Fraction

from verifier.errors import SpecError
from verifier.formula.parse import Formula
from verifier.formula.scope import Scope, check_formula
from verifier.spec.model import Spec

_WHERE = {  # formula kind -> (its local names, why the other words of the language are not available there)
    "cost": ({"y", "yhat"}, {"Y": "(the predicted set) exists only in 'set_cost' and 'set_costs'; 'cost' is the "
                                  "cost of predicting the one class yhat"}),
    "set_cost": ({"Y", "y"}, {"yhat": "(a predicted class) exists only in 'cost' and 'cost_matrix'; here the "
                                      "prediction is the set Y, e.g. [c(yh, y) for yh in Y]"}),
    "assume": ({"y"}, {"Y": "(the predicted set) is not available in 'assume'",
                       "yhat": "(the predicted class) is not available in 'assume'"}),
}


def formula_problems(spec: Spec, parsed: list[Formula], params_known: bool = True,
                     functions_known: bool = True) -> list[SpecError]:
    """Every problem of every formula in `parsed`: the whitelist, and names against each one's scope. Names are
    not checked when the parameters could not be read (nor calls when the functions could not): they may exist."""
    scopes = _scopes(spec, functions_known) if params_known else {}
    problems: list[SpecError] = []
    for formula in parsed:
        problems += check_formula(formula, scopes.get(id(formula)))
    return problems


def _scopes(spec: Spec, functions_known: bool) -> dict[int, Scope]:
    params = {name: p.per_class for name, p in spec.parameters.items()}
    functions = {name: fn.params for name, fn in spec.functions.items()}
    out: dict[int, Scope] = {}

    def put(entry, kind: str) -> None:
        if isinstance(entry, Formula):
            local, elsewhere = _WHERE[kind]
            out[id(entry)] = Scope(frozenset(local), params, functions, spec.classes, elsewhere, functions_known)

    put(spec.cost, "cost")
    put(spec.set_cost, "set_cost")
    for row in (spec.cost_matrix or {}).values():
        for entry in row:
            put(entry, "cost")
    for row in (spec.set_costs or {}).values():
        for entry in row:
            put(entry, "set_cost")
    for formula in spec.assume or []:
        put(formula, "assume")
    for fn in spec.functions.values():
        others = {n: f"is not available in a function body; make it a parameter, as in "
                     f"{fn.name}({', '.join((*fn.params, n))})" for n in ("y", "yhat", "Y") if n not in fn.params}
        out[id(fn.body)] = Scope(frozenset(fn.params), params, functions, spec.classes, others, functions_known)
    constants = {n: "is a parameter; a parameter's value may use numbers and K only" for n in params}
    constants |= {n: "is a function of the spec; a parameter's value may use numbers, K and the built-in "
                     "functions only" for n in functions}
    constants |= {n: "is not available in a parameter's value (numbers and K only)" for n in ("y", "yhat", "Y")}
    for param in spec.parameters.values():
        for entry in param.value if isinstance(param.value, tuple) else (param.value,):
            if isinstance(entry, Formula):
                out[id(entry)] = Scope(frozenset(), {}, {}, spec.classes, constants)
    return out


def spec_identifier(name: str, local: bool = False) -> bool:
    """A name a spec may define: ASCII, not a Python keyword (None, import, lambda, ...) and, unless it is a
    function's own parameter (local to its body, so it may be called y), not a word of the formula language."""
    return bool(re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name)) and not keyword.iskeyword(name) \
        and (local or name not in _RESERVED)


_RESERVED = {"y", "yhat", "Y", "K", "c", "rank", "len", "sum", "min", "max", "mean", "prod", "genmean", "abs",
             "sqrt", "log", "exp", "True", "False", "and", "or", "not", "in", "if", "else", "for", "lambda"}


def bare_parameter(name: str, value, text: str) -> str:
    """What a parameter written as a bare value (`d: 0.5`) means, as the mapping DESIGN.md fixes: "write
    {d: {value: 0.5}}" (a list: a per-class value; anything else: the symbolic or the fixed form)."""
    if isinstance(value, list):
        return f"write {{{name}: {{per_class: true, value: {text}}}}}"
    if isinstance(value, (int, Fraction)) and not isinstance(value, bool):
        return f"write {{{name}: {{value: {text}}}}}"
    if isinstance(value, str) and any(ch.isdigit() for ch in value):  # a formula such as "1/2"
        return f"write {{{name}: {{value: \"{value}\"}}}}"
    return f"write {{{name}: {{}}}} for a symbolic real, or {{{name}: {{value: 0.5}}}} for a fixed value"
