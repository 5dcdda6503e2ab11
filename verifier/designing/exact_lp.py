"""Small linear programs: searched by HiGHS in floats, decided in exact rationals (the fast path's arithmetic).

`solve_blocks` poses many independent small programs (one per block of the design: the cells of one set,
which no demand's atom ties to another set's) as one sparse HiGHS program, then confirms each block's optimum
exactly: the rows HiGHS leaves tight are re-solved in Fractions for the exact vertex, every row is checked
exactly there, and optimality is certified by an exact dual solution (stationarity c + Σ y_i a_i = 0 over the
tight rows, y_i ≥ 0 on the inequalities): primal feasible + dual feasible + complementary slackness is the
LP optimality theorem, with nothing left to rounding. A block that is not confirmed this way is handed to z3
(exact, and small). Floats only ever choose which rows to try.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import z3
from scipy.optimize import linprog
from scipy.sparse import coo_matrix

from verifier import limits

TIGHT = 1e-7


@dataclass
class Block:
    """One small linear program: its variables, its rows (a·x <= b, or a·x == b) and the cost to minimise."""
    variables: list[str]
    rows: list[tuple[dict[int, Fraction], Fraction, bool]]  # (a, b, equality): a·x <= b or a·x == b
    cost: dict[int, Fraction]  # minimise cost·x


@dataclass
class Answer:
    """A block's answer: its status, and when optimal the exact values, the objective and what confirmed it."""
    status: str  # "optimal" | "infeasible" | "unbounded" | "unknown"
    values: dict[str, Fraction] | None = None
    objective: Fraction | None = None
    confirmed_by: str = ""  # "dual certificate" | "z3"


def solve_blocks(blocks: list[Block], timeout_ms: int) -> list[Answer]:
    """Solve the blocks as one sparse HiGHS program and confirm each block's optimum exactly (a dual certificate); a
    block not confirmed so is solved by z3. One answer per block, in order. When the whole program has no optimum (one
    block infeasible or unbounded), each block is posed alone, so that only that block goes to z3."""
    offsets, n = [], 0
    for b in blocks:
        offsets.append(n)
        n += len(b.variables)
    ub, eq = ([], [], [], []), ([], [], [], [])  # rows, cols, data, rhs
    where = []  # (is_eq, index) per block row
    for b, off in zip(blocks, offsets):
        places = []
        for a, rhs, equality in b.rows:
            target = eq if equality else ub
            i = len(target[3])
            for j, v in a.items():
                target[0].append(i), target[1].append(off + j), target[2].append(float(v))
            target[3].append(float(rhs))
            places.append((equality, i))
        where.append(places)
    c = np.zeros(n)
    for b, off in zip(blocks, offsets):
        for j, v in b.cost.items():
            c[off + j] = float(v)
    A_ub = coo_matrix((ub[2], (ub[0], ub[1])), shape=(len(ub[3]), n)).tocsr() if ub[3] else None
    A_eq = coo_matrix((eq[2], (eq[0], eq[1])), shape=(len(eq[3]), n)).tocsr() if eq[3] else None
    res = linprog(c, A_ub=A_ub, b_ub=ub[3] or None, A_eq=A_eq, b_eq=eq[3] or None, bounds=(None, None),
                  method="highs-ds", options={"time_limit": max(timeout_ms / 1000, 1.0)})
    if res.status != 0 and len(blocks) > 1:
        return [answer for b in blocks for answer in solve_blocks([b], timeout_ms)]
    out = []
    for b, off, places in zip(blocks, offsets, where):
        answer = None
        if res.status == 0:
            x = res.x[off:off + len(b.variables)]
            duals = [-(res.eqlin.marginals[i] if e else res.ineqlin.marginals[i]) for e, i in places]
            answer = _confirm(b, x, duals)
        out.append(answer or _z3(b, timeout_ms))
    return out


def _confirm(b: Block, x: np.ndarray, duals: list[float]) -> Answer | None:
    n = len(b.variables)
    tight = [k for k, (a, rhs, e) in enumerate(b.rows)
             if e or abs(sum(float(v) * x[j] for j, v in a.items()) - float(rhs)) <= TIGHT * (1 + abs(float(rhs)))]
    guess = [Fraction(float(v)).limit_denominator(10**9) for v in x]
    point = _solve([(b.rows[k][0], b.rows[k][1]) for k in tight], n, guess)
    if point is None or not all(_row_holds(r, point) for r in b.rows):
        return None
    exact_tight = [k for k, (a, rhs, e) in enumerate(b.rows) if _dot(a, point) == rhs]
    for support in ([k for k in exact_tight if abs(duals[k]) > 1e-9], exact_tight):
        columns = [{j: a[j] for j in a} for a, _, _ in (b.rows[k] for k in support)]
        # stationarity: for each variable j, Σ_k y_k a_k[j] = -c_j
        equations = [({i: col[j] for i, col in enumerate(columns) if j in col}, -b.cost.get(j, Fraction(0)))
                     for j in range(n)]
        y_guess = [Fraction(max(duals[k], 0.0) if not b.rows[k][2] else duals[k]).limit_denominator(10**9)
                   for k in support]
        y = _solve(equations, len(support), y_guess)
        if y is not None and all(y[i] >= 0 for i, k in enumerate(support) if not b.rows[k][2]):
            value = sum((v * point[j] for j, v in b.cost.items()), Fraction(0))
            return Answer("optimal", dict(zip(b.variables, point)), value, "dual certificate")
    return None


def _dot(a: dict[int, Fraction], point: list[Fraction]) -> Fraction:
    return sum((v * point[j] for j, v in a.items()), Fraction(0))


def _row_holds(row, point) -> bool:
    a, rhs, equality = row
    lhs = _dot(a, point)
    return lhs == rhs if equality else lhs <= rhs


def _solve(equations: list[tuple[dict[int, Fraction], Fraction]], n: int, guess: list[Fraction]) -> list | None:
    """A solution of the equations (exact Gauss-Jordan); free unknowns take the guessed values. None if none."""
    rows = [(dict(a), rhs) for a, rhs in equations]
    pivots: list[tuple[int, dict, Fraction]] = []
    for a, rhs in rows:
        for j, pa, pr in pivots:  # reduce by the earlier pivots
            f = a.get(j)
            if f:
                for k, v in pa.items():
                    a[k] = a.get(k, Fraction(0)) - f * v
                rhs -= f * pr
        a = {k: v for k, v in a.items() if v}
        if not a:
            if rhs != 0:
                return None
            continue
        j = min(a)
        f = a[j]
        a = {k: v / f for k, v in a.items()}
        rhs /= f
        for idx, (jj, pa, pr) in enumerate(pivots):  # keep earlier pivots reduced
            g = pa.get(j)
            if g:
                new = dict(pa)
                for k, v in a.items():
                    new[k] = new.get(k, Fraction(0)) - g * v
                pivots[idx] = (jj, {k: v for k, v in new.items() if v}, pr - g * rhs)
        pivots.append((j, a, rhs))
    solution = list(guess)
    pivot_set = {j for j, _, _ in pivots}
    for j, a, rhs in pivots:
        solution[j] = rhs - sum((v * solution[k] for k, v in a.items() if k != j and k not in pivot_set), Fraction(0))
    return solution


def _z3(b: Block, timeout_ms: int) -> Answer:
    ctx = z3.Context()
    xs = [z3.Real(v, ctx) for v in b.variables]

    def term(a):
        return z3.Sum([z3.RealVal(str(v), ctx) * xs[j] for j, v in a.items()] or [z3.RealVal(0, ctx)])
    opt = z3.Optimize(ctx=ctx)
    opt.set("timeout", limits.question_ms(timeout_ms))
    for a, rhs, equality in b.rows:
        opt.add(term(a) == z3.RealVal(str(rhs), ctx) if equality else term(a) <= z3.RealVal(str(rhs), ctx))
    handle = opt.minimize(term(b.cost))
    answer = opt.check()
    if answer == z3.unsat:
        return Answer("infeasible", confirmed_by="z3")
    if answer != z3.sat:
        return Answer("unknown")
    from verifier.engines.margins import bound

    low = bound(opt.lower(handle))
    if low.value is None or not low.attained:
        return Answer("unbounded", confirmed_by="z3")
    model = opt.model()
    values = {}
    for v, x in zip(b.variables, xs):
        r = model.eval(x, model_completion=True)
        values[v] = Fraction(r.numerator_as_long(), r.denominator_as_long())
    return Answer("optimal", values, low.value, "z3")
