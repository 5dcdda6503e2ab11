"""Re-check a verdict proved by a lemma: re-derive each premise from the scheme itself, in exact Fractions or
sympy (the engine used certified balls), and confirm that the rows actually built are the power means the
lemma speaks of (to 40 digits, an independent evaluation of Eq. 12 with mpmath).

A verdict decided by exhaustion on that route (few classes: every indeterminate set built) is confirmed to
rest on every indeterminate set: `check_every_set` lists the sets afresh and finds each one's row.

Owns: `check_lemma`, `check_every_set`, `LemmaUnconfirmed`. May import: `scheme`, `verdict`.
"""

from __future__ import annotations

from itertools import combinations

import mpmath

from verifier.errors import Unsettled
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import Scheme
from verifier.verdict import LemmaProof


class LemmaUnconfirmed(Unsettled):
    """A lemma's premise or the rows it speaks of could not be confirmed; the message says which."""


def _sign(expr: sp.Expr) -> int:
    expr = sp.Rational(expr) if expr.is_Float else expr  # its exact binary value: the checker never guesses
    if expr.is_Rational:
        return (int(expr.p) > 0) - (int(expr.p) < 0)
    if sp.simplify(expr) == 0:
        return 0
    try:  # strict: sympy raises unless all 50 digits are guaranteed, so a sign read here is certain
        value = sp.N(expr, 50, strict=True)
    except Exception:  # noqa: BLE001 - precision exhausted, or not a number: not confirmed
        raise LemmaUnconfirmed(f"the sign of {expr} could not be confirmed") from None
    if not value.is_real or abs(value) < sp.Float("1e-40"):
        raise LemmaUnconfirmed(f"the sign of {expr} could not be confirmed")
    return 1 if value > 0 else -1


def _equal(a: sp.Expr, b: sp.Expr) -> bool:
    return _sign(a - b) == 0


def check_lemma(scheme: Scheme, proof: LemmaProof, memo: dict | None = None) -> str:
    """'' never: a confirmation note, or LemmaUnconfirmed naming the premise that fails. `memo` keeps premises
    already confirmed for this scheme (several properties rest on the same ones)."""
    memo = {} if memo is None else memo
    if proof.cases or proof.excluded:
        return _check_by_cases(scheme, proof, memo)
    K, p = scheme.K, proof.exponent
    given = scheme.given
    if given is None:
        raise LemmaUnconfirmed("the scheme has no determinate costs for the lemma to speak of")
    det = [[given[(h, y)] for y in range(K)] for h in range(K)]
    premise = {
        "power-mean-form": lambda: _rows_are_power_means(scheme, det, p),
        "singletons-are-costs": lambda: all(_equal(scheme.det(h, y), det[h][y]) for h in range(K) for y in range(K)),
        "nonnegative": lambda: all(_sign(v) >= 0 for row in det for v in row),
        "p<1": lambda: _sign(p - 1) < 0, "p<=1": lambda: _sign(p - 1) <= 0,
        "p>=1": lambda: _sign(p - 1) >= 0, "p<=0": lambda: _sign(p) <= 0,
        "zero-diagonal": lambda: all(_sign(det[y][y]) == 0 for y in range(K)),
        "no-cost-equal-to-diagonal": lambda: not any(_equal(det[h][y], det[y][y])
                                                     for y in range(K) for h in range(K) if h != y),
        "constant-off-diagonal": lambda: all(_equal(det[h][y], det[_first_other(y)][y])
                                             for y in range(K) for h in range(K) if h != y),
        "distinct-rows": lambda: not any(all(_equal(det[a][y], det[b][y]) for y in range(K))
                                         for a, b in combinations(range(K), 2)),
    }
    for name in proof.premises:
        if name not in premise:
            raise LemmaUnconfirmed(f"unknown premise '{name}'")
        if (name, p) not in memo:
            memo[(name, p)] = premise[name]()
        if not memo[(name, p)]:
            raise LemmaUnconfirmed(f"the premise '{name}' does not hold")
    return f"re-derived the {len(proof.premises)} premises of the {proof.name} lemma exactly"


def check_every_set(scheme: Scheme) -> None:
    """A scheme the power-mean route built for a few sets only: an exhaustive verdict there needs a row for
    every indeterminate set (LemmaUnconfirmed names a missing one). Other schemes list every set themselves."""
    if scheme.lemma is None or not scheme.partial:
        return
    for size in range(2, scheme.K + 1):
        for members in combinations(range(scheme.K), size):
            if frozenset(members) not in scheme.rows:
                names = ", ".join(scheme.classes[i] for i in members)
                raise LemmaUnconfirmed(f"the verdict rests on every indeterminate set, but the set {{{names}}} was "
                                       "not built")


CASE_CONDITIONS = {"p < 0": lambda p: sp.Lt(p, 0), "p = 0": lambda p: sp.Eq(p, 0),
                   "0 < p < 1": lambda p: sp.And(sp.Gt(p, 0), sp.Lt(p, 1)), "p = 1": lambda p: sp.Eq(p, 1),
                   "p > 1": lambda p: sp.Gt(p, 1)}
SIGN_PREMISES = {"p<1": lambda p: sp.Lt(p, 1), "p<=1": lambda p: sp.Le(p, 1), "p>=1": lambda p: sp.Ge(p, 1),
                 "p<=0": lambda p: sp.Le(p, 0)}


def _check_by_cases(scheme: Scheme, proof: LemmaProof, memo: dict) -> str:
    """A symbolic exponent: the cases cover the reals; each empty case has no admissible value (z3 unsat); in
    each other case the proof at its value holds, and its premises on p follow from the case (z3 unsat)."""
    import z3  # the solver stack, for symbolic proofs only

    named = [text for text, _, _ in proof.cases] + list(proof.excluded)
    if sorted(named) != sorted(CASE_CONDITIONS):
        raise LemmaUnconfirmed(f"the cases {named} do not cover every exponent")
    ctx = z3.Context()
    p = proof.exponent

    def impossible(*conditions) -> bool:
        solver = z3.Solver(ctx=ctx)
        solver.set("timeout", 20_000)  # an answer z3 does not give in time confirms nothing
        try:
            solver.add(*[_z3(c, ctx) for c, _ in scheme.assumptions], *[_z3(c, ctx) for c in conditions])
        except LemmaUnconfirmed:
            return False
        return solver.check() == z3.unsat

    for text in proof.excluded:
        if not impossible(CASE_CONDITIONS[text](p)):
            raise LemmaUnconfirmed(f"the case {text} was said to hold no admissible value")
    for text, at_value, concrete in proof.cases:
        check_lemma(concrete, at_value, {})
        for name in at_value.premises:
            if name in SIGN_PREMISES and not impossible(CASE_CONDITIONS[text](p), sp.Not(SIGN_PREMISES[name](p))):
                raise LemmaUnconfirmed(f"in the case {text}, '{name}' does not follow for every admissible value")
    return (f"re-checked the {len(proof.cases)} admissible case(s) of p (premises re-derived at a value in each, "
            f"and implied by the case) and the {len(proof.excluded)} empty one(s) with z3")


def _z3(node: sp.Basic, ctx):
    """Our own translation of polynomial conditions (the checker shares no code with the engines)."""
    import z3

    if node is sp.true or node is sp.false:
        return z3.BoolVal(bool(node), ctx)
    if isinstance(node, sp.Symbol):
        return z3.Real(node.name, ctx)
    if isinstance(node, sp.Rational):
        return z3.RealVal(f"{node.p}/{node.q}", ctx)
    args = [_z3(a, ctx) for a in node.args] if not isinstance(node, sp.Pow) else None
    ops = {sp.Add: lambda a: z3.Sum(*a), sp.Mul: lambda a: z3.Product(*a), sp.And: lambda a: z3.And(*a),
           sp.Or: lambda a: z3.Or(*a), sp.Not: lambda a: z3.Not(a[0]), sp.Lt: lambda a: a[0] < a[1],
           sp.Le: lambda a: a[0] <= a[1], sp.Gt: lambda a: a[0] > a[1], sp.Ge: lambda a: a[0] >= a[1],
           sp.Eq: lambda a: a[0] == a[1], sp.Ne: lambda a: a[0] != a[1]}
    if isinstance(node, sp.Pow) and node.exp.is_Integer and node.exp > 0:
        return z3.Product(*[_z3(node.base, ctx)] * int(node.exp))
    for kind, op in ops.items():
        if isinstance(node, kind) and args is not None:
            return op(args)
    raise LemmaUnconfirmed(f"the checker cannot express {node} for z3")


def _first_other(y: int) -> int:
    return 1 if y == 0 else 0


def _rows_are_power_means(scheme: Scheme, det, p: sp.Expr) -> bool:
    """Each built indeterminate row is M_p of its members' costs, to 40 digits (Eq. 12 evaluated afresh)."""
    with mpmath.workdps(60):
        exponent = mpmath.mpf(sp.N(p, 70))
        for members in scheme.indeterminate_sets:
            for y in range(scheme.K):
                values = [mpmath.mpf(sp.N(det[h][y], 70)) for h in sorted(members)]
                if exponent == 0:
                    mean = mpmath.mpf(0) if min(values) == 0 else mpmath.exp(mpmath.fsum(map(mpmath.log, values))
                                                                              / len(values))
                else:
                    mean = (mpmath.fsum(v ** exponent for v in values) / len(values)) ** (1 / exponent)
                built = mpmath.mpf(sp.N(scheme.cost(members, y), 70))
                if abs(built - mean) > mpmath.mpf(10) ** -40 * (1 + abs(mean)):
                    return False
    return True
