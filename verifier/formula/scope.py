"""Which names, classes and calls a formula may use, checked on its tree before anything is evaluated, so that
every unknown name, misquoted class and wrong call of a formula is reported at once, each at its own column.

Owns: `Scope` (what one formula sees) and `check_formula` (the whitelist and the scope together). The
interpreter in `evaluate` still refuses the same things at run time; this is where they are first found.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from verifier.errors import SpecError, did_you_mean, few_of, listed
from verifier.formula.parse import Formula, whitelist_problems

MAX_PROBLEMS = 20  # per formula: beyond that, one line says how many more

# The builtins' names, spelled out so that checking a spec's names loads no sympy (formula.builtins does);
# tests/cli/test_width_and_hints.py holds them equal to the keys of builtins.BUILTINS.
BUILTIN_NAMES = ("abs", "exp", "genmean", "len", "log", "max", "mean", "min", "prod", "sqrt", "sum")
FUNCTIONS = tuple(sorted([*BUILTIN_NAMES, "c", "rank"]))
_SIGNATURES = {"len": ("len(Y)", 1, 1), "abs": ("abs(x)", 1, 1), "sqrt": ("sqrt(x)", 1, 1), "log": ("log(x)", 1, 1),
               "exp": ("exp(x)", 1, 1), "rank": ("rank(x)", 1, 1), "c": ("c(yh, y)", 2, 2),
               "genmean": ("genmean(p, xs)", 2, 2)}  # the others take a list or several numbers


@dataclass(frozen=True)
class Scope:
    """What one formula may name besides numbers: its local names (y, yhat, Y, a function's parameters), K,
    the spec's parameters (name -> per class?), its functions (name -> parameters) and its classes.
    `elsewhere` says why a name the spec knows is not available in this formula."""

    local: frozenset[str]
    params: dict[str, bool] = field(default_factory=dict)
    functions: dict[str, tuple[str, ...]] = field(default_factory=dict)
    classes: tuple[str, ...] = ()
    elsewhere: dict[str, str] = field(default_factory=dict)
    all_functions: bool = True  # False: some function could not be read, so an unknown call may be one

    def names(self) -> list[str]:
        """The names a formula here may use, as the message lists them."""
        plain = [n for n in self.local | {"K"}] + [n if not per else f"{n}[...]" for n, per in self.params.items()]
        return sorted(plain, key=lambda n: (n.lower(), n))


def check_formula(formula: Formula, scope: Scope | None) -> list[SpecError]:
    """Every problem of the formula: constructs outside the whitelist and, given its scope, names it may not
    use, classes that do not exist and calls with the wrong number of arguments (in file order)."""
    problems, flagged = whitelist_problems(formula)
    if scope is not None:
        problems += _Names(formula, scope, flagged).problems
    problems.sort(key=lambda e: (e.line or 0, e.column or 0))
    if len(problems) > MAX_PROBLEMS:
        more = len(problems) - MAX_PROBLEMS + 1
        problems = problems[:MAX_PROBLEMS - 1] + [formula.error(f"and {more} more problems in this formula")]
    return problems


class _Names:
    def __init__(self, formula: Formula, scope: Scope, flagged: set[int]):
        self.f, self.scope, self.flagged = formula, scope, flagged
        self.problems: list[SpecError] = []
        stack = [(formula.tree, scope.local, True)]  # (node, its local names, whether strings are classes)
        while stack:  # iteratively: a chain of 900 unary minuses is a legal formula
            stack.extend(reversed(self.visit(*stack.pop())))

    def visit(self, node: ast.AST, local: frozenset[str], strings: bool) -> list:
        """Check one node; returns its children to visit, with what they see."""
        if id(node) in self.flagged:
            return []
        if isinstance(node, (ast.ListComp, ast.GeneratorExp)) and node.generators:
            gen = node.generators[0]
            inner = local | {gen.target.id} if isinstance(gen.target, ast.Name) else local
            return [(gen.iter, local, strings), *[(part, inner, strings) for part in [*gen.ifs, node.elt]]]
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            self.name(node, local)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            known = self.call(node, local)  # the arguments of an unknown function mean nothing yet: 'zz' may be fine
            return [(arg, local, strings and known) for arg in node.args]
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            self.index(node, local)
            return [(node.slice, local, strings)]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and strings:
            self.string(node)
        return [(child, local, strings) for child in ast.iter_child_nodes(node)]

    def add(self, message: str, node: ast.AST, expected: str | None = None) -> None:
        self.problems.append(self.f.error(message, node, expected))

    def name(self, node: ast.Name, local: frozenset[str]) -> None:
        name, scope = node.id, self.scope
        if name in local or name in ("K", "True", "False") or (name in scope.params and not scope.params[name]):
            return
        if name in scope.params:
            self.add(f"'{name}' is a per-class parameter; did you mean `{name}[y]`?", node,
                     f"{name}[y] or {name}['{scope.classes[0] if scope.classes else 'a'}']")
        elif name in scope.elsewhere:
            self.add(f"'{name}' {scope.elsewhere[name]}", node, f"one of {listed(scope.names())}")
        elif name in scope.classes:
            self.add(f"class names are written in quotes: '{name}'", node, f"'{name}'")
        elif name in scope.functions or name in FUNCTIONS:
            self.add(f"'{name}' is a function; call it, as in {name}(...)", node, f"{name}(...)")
        else:
            choices = [*scope.local, "K", *scope.params, *scope.functions, *FUNCTIONS]
            hint = did_you_mean(name, choices)
            fix = f"{hint} (or declare it under `parameters:`)" if hint else ": declare it under `parameters:`"
            self.add(f"unknown name '{name}'{fix}", node, f"one of {listed(scope.names())}")

    def call(self, node: ast.Call, local: frozenset[str]) -> bool:
        """Check the function's name and argument count; False when the function is unknown."""
        name, scope = node.func.id, self.scope
        if name in scope.functions:
            params = scope.functions[name]
            signature, low, high = f"{name}({', '.join(params)})", len(params), len(params)
        elif name in FUNCTIONS:
            signature, low, high = _SIGNATURES.get(name, (f"{name}([...]) or {name}(a, b, ...)", 1, None))
        else:
            if not scope.all_functions:
                return False
            if name in scope.elsewhere:
                self.add(f"'{name}' {scope.elsewhere[name]}", node.func)
            elif name in scope.params:
                fix = f"; did you mean `{name}[...]`?" if scope.params[name] else ""
                self.add(f"'{name}' is a parameter, not a function{fix}", node.func,
                         f"{name}[y]" if scope.params[name] else name)
            else:
                self.add(f"unknown function '{name}'" + did_you_mean(name, [*scope.functions, *FUNCTIONS]),
                         node.func, f"one of {listed(sorted([*scope.functions, *FUNCTIONS]))}")
            return False
        count = len(node.args)
        if count < low or (high is not None and count > high):
            wanted = f"at least {low}" if high is None else str(low)
            self.add(f"{name}() takes {wanted} argument{'' if low == 1 else 's'}, got {count}", node, signature)
        return True

    def index(self, node: ast.Subscript, local: frozenset[str]) -> None:
        name = node.value.id
        if self.scope.params.get(name):
            return
        if name in self.scope.params or name in local or name == "K":
            self.add(f"'{name}' cannot be indexed (only per-class parameters can)", node,
                     "a per-class parameter, as in eta[y]")
        else:
            self.name(node.value, local)

    def string(self, node: ast.Constant) -> None:
        classes, value = self.scope.classes, node.value
        if not classes or value in classes:
            return
        if value.isdigit() and all(c.isdigit() for c in classes):
            return  # classes "1".."K": another class count (--classes) may have it; evaluation decides
        shown = ast.get_source_segment(self.f.source, node) or repr(value)
        self.add(f"{shown} is not a class" + did_you_mean(value, classes), node, f"one of {few_of(classes, value)}")
