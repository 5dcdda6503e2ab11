"""The Boolean side of the sign cells (`analysis.sign_cells`): which factors separate the samples inside a
region from those outside, the samples' sign patterns as a short sum of products, that sum read back as sign
conditions, and a condition's truth at an exact point. Nothing here is proved: z3 proves what these propose.

Owns: `separating`, `sum_of_products`, `formula`, `truth_at`. May import: formula.
"""

from __future__ import annotations

import numpy as np

from verifier.formula import certified
from verifier.lazy_sympy import sympy as sp

MAX_CHOSEN = 6  # factors in one condition, before the search gives up


def separating(rows, count: int, limit: int = MAX_CHOSEN) -> list[int] | None:
    """Greedily, the factors whose signs separate the samples inside from those outside, the fewest mixed pairs
    left first, the first factor on ties (None: more than `limit` would be needed)."""
    if not rows:
        return []
    signs = np.array([r[0] for r in rows], dtype=np.int64).reshape(len(rows), -1) + 1  # 0, 1, 2
    inside = np.array([bool(r[1]) for r in rows])
    key = np.zeros(len(rows), dtype=np.int64)  # the chosen factors' signs, as one number per sample
    chosen: list[int] = []
    while True:
        if _conflicts(key, inside) == 0:
            return chosen
        if len(chosen) >= limit:
            return None
        _, key = np.unique(key, return_inverse=True)  # renumbered: the keys stay small
        best = None
        for i in range(count):
            if i in chosen:
                continue
            conflicts = _conflicts(key * 3 + signs[:, i], inside)
            if best is None or conflicts < best[0]:
                best = (conflicts, i)
        chosen.append(best[1])
        key = key * 3 + signs[:, best[1]]


def _conflicts(key: np.ndarray, inside: np.ndarray) -> int:
    """Pairs of samples with one key, one inside and one outside."""
    _, groups = np.unique(key, return_inverse=True)
    ins = np.bincount(groups, weights=inside)
    outs = np.bincount(groups, weights=~inside)
    return int((ins * outs).sum())


def sum_of_products(rows, chosen: list[int], inside: bool):
    """The samples' patterns inside (or outside) as a short sum of products: per factor one variable "f > 0",
    and a second "f < 0" when some sample lies on its zero set; the patterns no sample showed are left free.
    Each pattern inside is widened greedily (a literal dropped while the product still covers no pattern
    outside, in a fixed order), then a greedy cover keeps the fewest products covering every pattern inside."""
    zeros = [any(signs[i] == 0 for signs, _ in rows) for i in chosen]
    variables, atoms = [], []
    for k in range(len(chosen)):
        variables.append(sp.Symbol(f"pos{k}"))
        atoms.append((k, 1))
        if zeros[k]:
            variables.append(sp.Symbol(f"neg{k}"))
            atoms.append((k, -1))

    def pattern(signs):
        return tuple(int(signs[chosen[k]] == side) for k, side in atoms)
    seen = {pattern(signs): flag for signs, flag in rows}
    wanted = sorted(k for k, flag in seen.items() if flag == inside)
    others = [k for k, flag in seen.items() if flag != inside]
    cubes: list[tuple] = []
    for k in wanted:
        cube = dict(enumerate(k))
        for v in range(len(k)):
            trial = {i: b for i, b in cube.items() if i != v}
            if not any(all(o[i] == b for i, b in trial.items()) for o in others):
                cube = trial
        key = tuple(sorted(cube.items()))
        if key not in cubes:
            cubes.append(key)
    kept, left = [], set(wanted)
    while left:  # the cube covering the most patterns still uncovered, the first in order on ties
        best = max(cubes, key=lambda c: sum(all(w[i] == b for i, b in c) for w in left))
        kept.append(best)
        left = {w for w in left if not all(w[i] == b for i, b in best)}
    expression = sp.Or(*[sp.And(*[variables[i] if b else sp.Not(variables[i]) for i, b in c]) for c in kept])
    return expression, dict(zip(variables, atoms)), zeros


def formula(sop, factors: list) -> sp.Basic:
    """The sum of products read back as sign conditions: "f > 0" and "f < 0" as they are; without a variable
    for "f < 0", not "f > 0" is "f < 0" (the zero set, which no sample showed, left out)."""
    expression, atoms, zeros = sop

    def literal(variable, negated: bool):
        k, side = atoms[variable]
        f = factors[k]
        if side == 1:
            return (sp.Le(f, 0) if zeros[k] else sp.Lt(f, 0)) if negated else sp.Gt(f, 0)
        return sp.Ge(f, 0) if negated else sp.Lt(f, 0)

    def read(e):
        if isinstance(e, sp.Symbol):
            return literal(e, False)
        if isinstance(e, sp.Not):
            return literal(e.args[0], True)
        if e in (sp.true, sp.false):
            return e
        return e.func(*[read(a) for a in e.args])
    return read(expression)


def truth_at(formula: sp.Basic, values: dict):
    """A condition's truth at an exact (possibly algebraic) point by certified signs; None when undecided."""
    if formula in (sp.true, sp.false):
        return formula == sp.true
    if isinstance(formula, (sp.And, sp.Or)):
        parts = [truth_at(a, values) for a in formula.args]
        if None in parts:
            return None
        return all(parts) if isinstance(formula, sp.And) else any(parts)
    if isinstance(formula, sp.Not):
        inner = truth_at(formula.args[0], values)
        return None if inner is None else not inner
    value = certified.sign(sp.expand(formula.lhs - formula.rhs).subs(values)).value
    if value is None:
        return None
    return {sp.Gt: value > 0, sp.Ge: value >= 0, sp.Lt: value < 0, sp.Le: value <= 0, sp.Eq: value == 0,
            sp.Ne: value != 0}[type(formula)]
