"""Optimality of every set (singletons included): is it the minimiser of E_p[c_Z] over all sets for some p?

Definition 4 only compares a set with its own members; a set can be possible and still never be the best
prediction. For each Y we decide exactly one of:
  alone  — a rational p at which Y is the unique minimiser (its decision region has interior);
  tied   — a p at which Y is a minimiser, and a mixture λ of other rows with Σ λ_Z c_Z ≤ c_Y in every column,
           which makes Y never the unique minimiser;
  never  — a mixture λ with Σ λ_Z c_Z < c_Y in every column (then some other set is cheaper at every p).
By LP duality, max t s.t. E_p[c_Y − c_Z] + t ≤ 0 (Z ≠ Y), p in the simplex, is > 0, = 0, < 0 in the three
cases, with p the witness and the duals λ the certificate. Floats search (sampling, then a cutting-plane LP in
HiGHS that adds only the sets that matter); witnesses and certificates are rationalised and confirmed exactly.
"""

from __future__ import annotations

from fractions import Fraction

import highspy
import numpy as np
import sympy as sp

from verifier.engines.expected import ExpectedCosts
from verifier.engines.highs import quiet_highs
from verifier.formula import certified
from verifier.scheme import ClassSet, Scheme
from verifier.verdict import SetOptimality

_DENOMINATORS = (1_000, 1_000_000, 10**12)
_TOLERANCE = 1e-9
_ROUNDS = 60  # cutting-plane rounds per set
_CHUNK = 256  # sample points evaluated at once


def analyse_optimality(scheme: Scheme, hints: dict[ClassSet, tuple] | None = None) -> dict[ClassSet, SetOptimality]:
    """Every set's optimality; `hints` are extra sample points (e.g. Definition 4 witnesses)."""
    costs = ExpectedCosts(scheme)
    with np.errstate(all="ignore"):  # huge costs overflow the float search; exact checks still decide
        found = _screen(costs, hints or {})
    out: dict[ClassSet, SetOptimality] = {}
    for members, p in found.items():
        result = _confirm_alone(costs, members, p)
        if result is not None:
            out[members] = result
    pending = [m for m in costs.sets if m not in out]
    if len(costs.sets) == 1:
        return {m: SetOptimality(m, "alone", witness=(sp.Integer(1),)) for m in costs.sets}
    if not np.all(np.isfinite(costs.search)):
        out.update({m: SetOptimality(m, "unknown", reason="some costs are too large for the LP search")
                    for m in pending})
        return out
    winners = sorted({costs.index[m] for m in found} | set(range(scheme.K)))
    for members, solved in _cutting_planes(costs, pending, winners).items():
        if solved is None:
            out[members] = SetOptimality(members, "unknown", reason="the LP search did not settle")
        else:
            out[members] = _decide(costs, members, *solved)
    return {m: out[m] for m in costs.sets}


def _screen(costs: ExpectedCosts, hints) -> dict[ClassSet, list[sp.Rational]]:
    """Sample points (vertices, the uniform distribution on every set, the hints) where one set is clearly best."""
    K, sets = costs.scheme.K, costs.sets
    points = [[Fraction(int(y in m), len(m)) for y in range(K)] for m in sets]
    points += [[_fraction(x) for x in p] for p in hints.values() if p is not None]
    best: dict[ClassSet, tuple[float, list[Fraction]]] = {}
    for start in range(0, len(points), _CHUNK):
        chunk = points[start:start + _CHUNK]
        values = np.array([[float(x) for x in p] for p in chunk]) @ costs.floats.T
        if values.shape[1] < 2:
            continue
        order = np.argpartition(values, 1, axis=1)[:, :2]
        for row, (a, b) in enumerate(order):
            first, second = values[row, a], values[row, b]
            if first > second:
                a, first, second = b, second, first
            gap = second - first
            if gap > 0 and gap > best.get(sets[a], (0.0, None))[0]:  # a candidate only: confirmed exactly
                best[sets[a]] = (gap, chunk[row])
    return {m: p for m, (_, p) in best.items()}


def _confirm_alone(costs: ExpectedCosts, members: ClassSet, p: list[Fraction]) -> SetOptimality | None:
    signs = costs.signs(p, members)
    i = costs.index[members]
    if any(s != 1 for j, s in enumerate(signs) if j != i):
        return None
    found = costs.margin(p, members) if len(costs.sets) > 1 else None
    margin, at_least = found if found is not None else (None, False)
    return SetOptimality(members, "alone", witness=_exact(p), margin=margin, margin_is_bound=at_least)


def _cutting_planes(costs: ExpectedCosts, pending: list[ClassSet], winners: list[int]):
    """max t_Y s.t. E_p[c_Y − c_Z] + t_Y <= 0 for Z in a growing active list, all pending Y in one LP per round;
    a round adds, per set, the constraints its current p violates most. Returns p, t and duals per set."""
    F = costs.search
    active = {m: _first_rows(costs, m, winners) for m in pending}
    done: dict[ClassSet, tuple | None] = {}
    todo = list(pending)
    for _ in range(_ROUNDS):
        if not todo:
            break
        solved = _solve_blocks(F, [(costs.index[m], active[m]) for m in todo])
        if solved is None:
            break
        still = []
        for m, (p, t, duals) in zip(todo, solved):
            i = costs.index[m]
            slack = F[i] @ p - F @ p + t  # > 0 where a constraint not yet in the LP is violated
            slack[i] = -np.inf
            slack[active[m]] = -np.inf
            violated = np.flatnonzero(slack > _TOLERANCE * (1 + abs(t)))
            if violated.size == 0:
                done[m] = (p, t, dict(zip(active[m], duals)))
            else:
                active[m] += [int(j) for j in violated[np.argsort(-slack[violated])][:64]]
                still.append(m)
        todo = still
    for m in todo:
        done[m] = None
    return done


def _first_rows(costs: ExpectedCosts, members: ClassSet, winners: list[int]) -> list[int]:
    """The singletons and the sets cheapest at the uniform distribution on Y: usually the binding ones."""
    i, K = costs.index[members], costs.scheme.K
    p = np.array([float(y in members) for y in range(K)]) / len(members)
    values = costs.search @ p
    values[i] = np.inf
    near = np.argsort(values)[:2 * K]
    return sorted(({int(j) for j in near} | set(range(K))) - {i})


def _solve_blocks(F, blocks: list[tuple[int, list[int]]]):
    """One HiGHS LP with an independent block per set: variables p (K) and t per block."""
    K = F.shape[1]
    width = K + 1
    values, columns, lower, col_bounds = [], [], [], []
    for b, (i, rows) in enumerate(blocks):
        base = b * width
        block = np.hstack([F[i] - F[rows], np.ones((len(rows), 1))])  # E_p[c_Y − c_Z] + t <= 0
        values += [block, np.r_[np.ones(K), 0.0][None, :]]  # Σ p = 1 (the t entry is an explicit zero)
        columns.append(np.arange(base, base + width))
        lower += [np.full(len(rows), -highspy.kHighsInf), [1.0]]
        col_bounds.append(1.0 + float(np.max(np.abs(F[rows] - F[i]))))
    counts = [v.shape[0] for v in values]
    index = np.concatenate([np.tile(columns[b], counts[2 * b] + 1) for b in range(len(blocks))])
    value = np.concatenate([v.ravel() for v in values])
    starts = np.arange(0, value.size + 1, width)
    lower = np.concatenate(lower)
    upper = np.concatenate([np.r_[np.zeros(len(rows)), 1.0] for _, rows in blocks])
    col_lower = np.concatenate([np.r_[np.zeros(K), -bound] for bound in col_bounds])
    col_upper = np.concatenate([np.r_[np.ones(K), bound] for bound in col_bounds])
    lp = highspy.HighsLp()
    lp.num_col_ = width * len(blocks)
    lp.num_row_ = len(lower)
    cost = np.zeros(lp.num_col_)
    cost[K::width] = -1.0
    lp.col_cost_ = cost
    lp.col_lower_ = col_lower
    lp.col_upper_ = col_upper
    lp.row_lower_ = lower
    lp.row_upper_ = upper
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.start_ = starts.astype(np.int32)
    lp.a_matrix_.index_ = index.astype(np.int32)
    lp.a_matrix_.value_ = value
    solver = quiet_highs()
    solver.passModel(lp)
    solver.run()
    if solver.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    solution = solver.getSolution()
    x, row_dual = np.array(solution.col_value), np.array(solution.row_dual)
    out, row = [], 0
    for b, (i, rows) in enumerate(blocks):
        base = b * width
        out.append((x[base:base + K], float(x[base + K]), [abs(float(v)) for v in row_dual[row:row + len(rows)]]))
        row += len(rows) + 1
    return out


def _decide(costs: ExpectedCosts, members: ClassSet, p, t: float, duals: dict[int, float]) -> SetOptimality:
    if t > _TOLERANCE:
        for candidate in _rationalised(p):
            found = _confirm_alone(costs, members, candidate)
            if found is not None:
                return found
    strict = t < -_TOLERANCE
    certificate, strictly = _certificate(costs, members, duals)
    if certificate is not None and strictly:
        return SetOptimality(members, "never", certificate=certificate)
    tie = _tie_witness(costs, members, p) if not strict else None
    if certificate is not None and tie is not None:
        witness, others = tie
        return SetOptimality(members, "tied", witness=witness, tied_with=others, certificate=certificate)
    if certificate is not None:
        return SetOptimality(members, "unknown", certificate=certificate,
                             reason="never the unique minimiser (certificate), but neither a p where it ties for "
                                    "the minimum nor a strict certificate could be confirmed exactly")
    return SetOptimality(members, "unknown", reason=f"the LP optimum is {t:.3g}, and no witness or certificate "
                                                    "could be confirmed exactly")


def _rationalised(values):
    seen = set()
    for d in _DENOMINATORS:
        fracs = [max(Fraction(float(v)).limit_denominator(d), Fraction(0)) for v in values]
        total = sum(fracs)
        if total <= 0:
            continue
        exact = tuple(x / total for x in fracs)
        if exact not in seen:
            seen.add(exact)
            yield list(exact)


def _fraction(x) -> Fraction:
    """An exact rational of any spelling (sympy Rational, Integer, int) as a Fraction."""
    value = sp.Rational(x) if isinstance(x, int) else x
    return Fraction(int(value.p), int(value.q))


def _exact(p: list[Fraction]) -> tuple[sp.Rational, ...]:
    return tuple(sp.Rational(x.numerator, x.denominator) for x in p)


def _tie_witness(costs: ExpectedCosts, members: ClassSet, p):
    for candidate in _rationalised(p):
        signs = costs.signs(candidate, members)
        if all(s is not None and s >= 0 for s in signs):
            others = tuple(z for z, s in zip(costs.sets, signs) if s == 0 and z != members)
            if others:
                return _exact(candidate), others
    return None


def _certificate(costs: ExpectedCosts, members: ClassSet, duals: dict[int, float]):
    """A mixture λ of other rows with Σ λ_Z c_Z ≤ c_Y in every column: (λ, strict in every column) or (None, _)."""
    order = [j for j, v in duals.items() if v > 1e-12]
    if not order:
        return None, False
    rows, K = costs.scheme.rows, costs.scheme.K
    for lam in _rationalised([duals[j] for j in order]):
        mix = {costs.sets[j]: sp.Rational(x.numerator, x.denominator) for j, x in zip(order, lam) if x}
        signs = []
        for y in range(K):
            terms = [(sp.Integer(1), rows[members][y])] + [(-x, rows[z][y]) for z, x in mix.items()]
            signs.append(certified.linear_sign(terms).value)
        if all(s is not None and s >= 0 for s in signs):
            return mix, all(s == 1 for s in signs)
    return None, False
