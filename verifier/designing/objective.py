"""How a design picks one matrix among those that satisfy the request: a stated, linear objective.

- `closest` (the default, to `discounted`): least total absolute change (L1) from a named scheme's open cells:
  `discounted` (the mean of the members' costs, Eq. 10), `p-discounted=R` (generalized mean of exponent 1 − R,
  Eq. 14), `p-discounted-averse=R` (exponent 1 − R inside the set, 1 + R outside), `ha=DELTA` (the cheapest
  member's cost plus DELTA·(|Y| − 1), Ha's rule for any determinate costs), or any `set_cost` formula.
- `cautious`: the lowest total cost of the open cells (sets as cheap as the request allows); `bold`: the
  highest (least cautious).
- `minimize: EXPR` / `maximize: EXPR`: a linear expression in cells written cost('h,b', 'n').

A target that is irrational (a generalized mean with exponent 1/2) is rounded to 12 significant digits, and the
report says so: the target only steers the choice, the verdicts are computed on the exact designed matrix.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace
from fractions import Fraction

import z3

from verifier.designing.problem import DesignProblem
from verifier.errors import SpecError, UsageError
from verifier.formula.parse import parse_formula
from verifier.lazy_sympy import sympy as sp
from verifier.scheme.exact import build_scheme

FAMILIES = {
    "discounted": ("mean([c(yh, y) for yh in Y])", None),
    "p-discounted": ("genmean(1 - {v}, [c(yh, y) for yh in Y])", "r"),
    "p-discounted-averse": ("genmean(1 - {v}, [c(yh, y) for yh in Y]) if y in Y else "
                            "genmean(1 + {v}, [c(yh, y) for yh in Y])", "r"),
    "ha": ("min([c(yh, y) for yh in Y]) + {v} * (len(Y) - 1)", "delta"),
}
ROUNDING = Fraction(1, 10**12)


@dataclass
class Objective:
    """What the design optimises: the z3 expression, its direction, the side conditions it needs and the words for the
    report."""
    kind: str  # closest | cautious | bold | minimize | maximize
    text: str  # what the report says
    expression: z3.ArithRef
    minimize: bool
    side: list[z3.BoolRef]
    rounded: int = 0  # how many irrational targets were rounded


def make_objective(problem: DesignProblem, kind: str = "closest", to: str | None = None) -> Objective:
    """The objective named by `kind` (closest, cautious, bold, 'minimize: EXPR' or 'maximize: EXPR'); closest is
    measured to the scheme `to` (discounted by default). Raises UsageError for an unknown kind."""
    kind = kind.strip()
    if kind.startswith(("minimize:", "maximize:")):
        head, _, body = kind.partition(":")
        return Objective(head, f"{head} {body.strip()}", _linear(problem, body.strip()), head == "minimize", [])
    if kind in ("cautious", "bold"):
        total = z3.Sum([problem.var(c) for c in problem.open_cells] or [z3.RealVal(0, problem.ctx)])
        text = ("most cautious: the lowest total cost of the open cells" if kind == "cautious"
                else "least cautious: the highest total cost of the open cells")
        return Objective(kind, text, total, kind == "cautious", [])
    if kind != "closest":
        raise UsageError(f"unknown objective {kind!r}; expected closest, cautious, bold, 'minimize: EXPR' or "
                         "'maximize: EXPR'")
    name, formula = _target(to or "discounted")
    targets, rounded = _target_values(problem, formula)
    side, distance = [], []
    for cell in problem.open_cells:
        d = z3.Real(f"distance {cell.label}", problem.ctx)
        x, a = problem.var(cell), problem.value(targets[cell.key])
        side += [d >= x - a, d >= a - x]
        distance.append(d)
    expression = z3.Sum(distance or [z3.RealVal(0, problem.ctx)])
    return Objective("closest", f"closest (least total absolute change) to {name}", expression, True, side, rounded)


def _target(to: str) -> tuple[str, str]:
    name, _, value = to.partition("=")
    family = FAMILIES.get(name.strip().lower())
    if family is None:
        return f"the scheme {to!r}", to
    formula, parameter = family
    if parameter is None:
        if value:
            raise UsageError(f"--to {name} takes no value")
        return name.strip(), formula
    if not value:
        raise UsageError(f"--to {name} needs a value for {parameter}, e.g. --to {name.strip()}=1/2")
    try:
        number = Fraction(value.strip())
    except (ValueError, ZeroDivisionError):
        raise UsageError(f"--to {name}: {value!r} is not an exact number such as 1/2 or 0.25") from None
    return f"{name.strip()} with {parameter} = {number}", formula.format(v=f"({number})")


def _target_values(problem: DesignProblem, formula: str) -> tuple[dict[str, Fraction], int]:
    spec = problem.spec
    try:
        parsed = parse_formula(formula, "--to", "set_cost", None)
        target = build_scheme(replace(spec, set_cost=parsed, set_costs={}))
    except SpecError as exc:
        raise UsageError(f"--to: the target scheme cannot be evaluated on this spec: {exc}") from None
    if target.symbolic:
        raise UsageError("--to: the target scheme has symbolic parameters; give them values")
    out, rounded = {}, 0
    for cell in problem.open_cells:
        value = target.cost(cell.members, cell.y)
        if isinstance(value, sp.Rational):
            out[cell.key] = Fraction(int(value.p), int(value.q))
        else:
            approx = sp.N(value, 30)
            if not approx.is_real or not approx.is_finite:
                raise UsageError(f"--to: the target of {cell.label} is {value}, not a real number")
            out[cell.key] = Fraction(str(sp.N(value, 12)))
            rounded += 1
    return out, rounded


def _linear(problem: DesignProblem, text: str) -> z3.ArithRef:
    """A linear expression over cells, read from the whitelisted formula syntax (never evaluated by Python)."""
    try:
        formula = parse_formula(text, "--objective", "objective", None)
    except SpecError as exc:
        raise UsageError(f"--objective: {exc}") from None
    cells = {(tuple(sorted(c.members)), c.y): c for c in problem.cells}
    names = {n: i for i, n in enumerate(problem.spec.classes)}

    def walk(node) -> tuple[z3.ArithRef, bool]:  # (value, is a constant)
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            number = formula.number(node)
            return problem.value(Fraction(number)), True
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            value, constant = walk(node.operand)
            return (-value if isinstance(node.op, ast.USub) else value), constant
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
            (a, ca), (b, cb) = walk(node.left), walk(node.right)
            if isinstance(node.op, ast.Add):
                return a + b, ca and cb
            if isinstance(node.op, ast.Sub):
                return a - b, ca and cb
            if isinstance(node.op, ast.Mult) and (ca or cb):
                return a * b, ca and cb
            if isinstance(node.op, ast.Div) and cb and not z3.simplify(b == 0):
                return a / b, ca
            raise UsageError(f"--objective {text!r} is not linear in the cells")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "cost" and \
                len(node.args) == 2 and all(isinstance(a, ast.Constant) and isinstance(a.value, str)
                                            for a in node.args):
            members = tuple(sorted(names.get(p.strip(), -1) for p in node.args[0].value.strip("{}").split(",")))
            cell = cells.get((members, names.get(node.args[1].value.strip(), -1)))
            if cell is None or len(members) < 2:
                raise UsageError(f"--objective: no indeterminate cell cost({node.args[0].value!r}, "
                                 f"{node.args[1].value!r}); write cost('h,b', 'n') with this spec's class names")
            return problem.var(cell), False
        raise UsageError(f"--objective {text!r}: only numbers, + - * /, and cost('SET', 'CLASS') are allowed")

    value, _ = walk(formula.tree)
    return value
