"""Definition 4 (possibility of an indeterminate prediction) for every set, with exact certificates.

Floats search, exact arithmetic decides. One block-diagonal HiGHS LP covers all sets at once:
    max t_Y  s.t.  E_p[c_Y − c_ŷ] + t_Y <= 0 (ŷ in Y),  p in the simplex.
Y is possible iff t_Y* > 0; the primal p is then a witness, and otherwise the dual λ is a Ville certificate
(c_Y >= Σ λ_ŷ c_ŷ element-wise, λ in the simplex over Y). Both are rationalised and re-checked exactly;
when neither survives and the data are rational, an exact rational simplex decides; else `unknown`.
"""

from __future__ import annotations

from fractions import Fraction

import highspy
import numpy as np

from verifier.engines.canonical import RationalGrid, canonical_mixture, canonical_witness
from verifier.engines.highs import quiet_highs
from verifier.formula import certified
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import Scheme
from verifier.verdict import SetPossibility, Truth

_DENOMINATORS = (1_000, 1_000_000, 10**12)


def analyse_possibility(scheme: Scheme, sets: list[frozenset[int]] | None = None
                        ) -> dict[frozenset[int], SetPossibility]:
    """Every indeterminate set (or the `sets` given)."""
    sets = scheme.indeterminate_sets if sets is None else sets
    needed = set(sets) | {frozenset((h,)) for h in range(scheme.K)}
    floats = {(m, y): certified.to_float(scheme.cost(m, y)) for m in needed for y in range(scheme.K)}
    primal, dual = _solve_all(scheme, sets, floats)
    out = {}
    for members in sets:
        p, t = primal.get(members, (None, 0.0))
        lam = dual.get(members)
        out[members] = _decide(scheme, members, p, t, lam)
    return out


def _solve_all(scheme: Scheme, sets, floats):
    """One LP for all sets (independent blocks; HiGHS solves them in a single call)."""
    K = scheme.K
    width = K + 1
    starts, index, value = [0], [], []
    lower, upper = [], []
    col_lower, col_upper = [], []
    for block, members in enumerate(sets):
        base = block * width
        spread = max(abs(floats[(members, y)] - floats[(frozenset((h,)), y)]) for h in members for y in range(K))
        for h in sorted(members):  # E_p[c_Y − c_ŷ] + t <= 0
            for y in range(K):
                index.append(base + y)
                value.append(floats[(members, y)] - floats[(frozenset((h,)), y)])
            index.append(base + K)
            value.append(1.0)
            starts.append(len(index))
            lower.append(-highspy.kHighsInf)
            upper.append(0.0)
        index.extend(range(base, base + K))  # Σ p = 1
        value.extend([1.0] * K)
        starts.append(len(index))
        lower.append(1.0)
        upper.append(1.0)
        col_lower += [0.0] * K + [-highspy.kHighsInf]
        col_upper += [1.0] * K + [spread + 1.0]
    lp = highspy.HighsLp()
    lp.num_col_ = width * len(sets)
    lp.num_row_ = len(lower)
    cost = np.zeros(lp.num_col_)
    cost[K::width] = -1.0  # maximise Σ t_Y
    lp.col_cost_ = cost
    lp.col_lower_ = np.array(col_lower)
    lp.col_upper_ = np.array(col_upper)
    lp.row_lower_ = np.array(lower)
    lp.row_upper_ = np.array(upper)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.start_ = np.array(starts, dtype=np.int32)
    lp.a_matrix_.index_ = np.array(index, dtype=np.int32)
    lp.a_matrix_.value_ = np.array(value)
    solver = quiet_highs()
    solver.passModel(lp)
    solver.run()
    primal, dual = {}, {}
    if solver.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return primal, dual  # every set then goes to the exact fallback or `unknown`
    solution = solver.getSolution()
    x, row_dual = list(solution.col_value), list(solution.row_dual)
    row = 0
    for block, members in enumerate(sets):
        base = block * width
        primal[members] = (x[base:base + K], float(x[base + K]))
        dual[members] = {h: abs(float(row_dual[row + i])) for i, h in enumerate(sorted(members))}
        row += len(members) + 1
    return primal, dual


def _decide(scheme: Scheme, members, p, t: float, lam) -> SetPossibility:
    witness_first = t > 1e-9
    if witness_first and p is not None:  # the witness the exact LP picks, whatever HiGHS found
        found = _canonical_witness(scheme, members, p, t)
        if found is not None:
            return found
    if not witness_first:  # the certificate the exact rule picks, whatever HiGHS's duals were
        found = _canonical_certificate(scheme, members)
        if found is not None:
            return found
    attempts = [_try_witnesses, _try_certificates] if witness_first else [_try_certificates, _try_witnesses]
    for attempt in attempts:
        found = attempt(scheme, members, p, lam)
        if found is not None:
            return found
    exact = _exact_lp(scheme, members)
    if exact is not None:
        return exact
    return SetPossibility(members, Truth.UNKNOWN, method="lp",
                          reason=f"the LP optimum is {t:.3g}, and neither a witness p nor a certificate λ could "
                                 "be confirmed exactly (irrational data; no exact LP fallback)")


def _grid(scheme: Scheme, members) -> RationalGrid | None:
    """Y's row, then its members' singletons, exact or floored (`engines.canonical`)."""
    K = scheme.K
    cells = [[scheme.cost(members, y) for y in range(K)]]
    cells += [[scheme.det(h, y) for y in range(K)] for h in sorted(members)]
    try:
        return RationalGrid.from_cells(cells)
    except (TypeError, ValueError, OverflowError):
        return None


def _canonical_certificate(scheme: Scheme, members) -> SetPossibility | None:
    """Definition 4's certificate λ: the mixture of Y's members' rows that the exact rule picks
    (`engines.canonical_mixture`, at t = 0), confirmed on the true matrix: the same λ on every machine."""
    grid = _grid(scheme, members)
    mixture = canonical_mixture(grid, 0, Fraction(0)) if grid is not None else None
    if mixture is None:
        return None
    order = sorted(members)
    lam = {h: sp.Integer(0) for h in order}
    lam.update({order[j - 1]: sp.Rational(v.numerator, v.denominator) for j, v in mixture.items()})
    return check_certificate(scheme, members, lam)


def _canonical_witness(scheme: Scheme, members, p, t: float) -> SetPossibility | None:
    """Definition 4's witness from the exact LP max t s.t. E_p[c_Y − c_ŷ] + t <= 0 (ŷ in Y): its one optimum,
    simplified and confirmed (`engines.canonical`): the same point on every machine."""
    grid = _grid(scheme, members)
    if grid is None:
        return None
    held: list[SetPossibility] = []

    def confirm(q: list[Fraction]) -> bool:
        found = check_witness(scheme, members, [sp.Rational(x.numerator, x.denominator) for x in q])
        held[:] = [found] if found is not None else []
        return found is not None

    witness = canonical_witness(grid, 0, (np.asarray(p, dtype=float), float(t)), [], confirm)
    return held[0] if witness is not None and held else None


def _rationalise(values, denominator: int) -> list[Fraction] | None:
    fracs = [max(Fraction(float(v)).limit_denominator(denominator), Fraction(0)) for v in values]
    total = sum(fracs)
    return None if total <= 0 else [f / total for f in fracs]


def _try_witnesses(scheme, members, p, lam):
    if p is None:
        return None
    seen = set()
    for d in _DENOMINATORS:
        candidate = _rationalise(p, d)
        if candidate is None or tuple(candidate) in seen:
            continue
        seen.add(tuple(candidate))
        found = check_witness(scheme, members, [sp.Rational(f.numerator, f.denominator) for f in candidate])
        if found is not None:
            return found
    return None


def _try_certificates(scheme, members, p, lam):
    order = sorted(members)
    candidates = []
    if lam:
        for d in _DENOMINATORS:
            r = _rationalise([lam[h] for h in order], d)
            if r is not None:
                candidates.append(r)
    candidates.append([Fraction(1, len(order))] * len(order))  # Proposition 1: the uniform mixture
    candidates += [[Fraction(int(i == j)) for j in range(len(order))] for i in range(len(order))]
    seen = set()
    for cand in candidates:
        if tuple(cand) in seen:
            continue
        seen.add(tuple(cand))
        lam_exact = {h: sp.Rational(f.numerator, f.denominator) for h, f in zip(order, cand)}
        found = check_certificate(scheme, members, lam_exact)
        if found is not None:
            return found
    return None


def check_witness(scheme: Scheme, members, p: list[sp.Rational], method: str = "lp") -> SetPossibility | None:
    """p (exact, in the simplex) is a witness iff E_p[c_ŷ − c_Y] > 0 for every ŷ in Y (certified)."""
    if len(p) != scheme.K or any(x < 0 for x in p) or sum(p) != 1:
        return None
    margins = []
    for h in sorted(members):
        terms = [(p[y], scheme.det(h, y)) for y in range(scheme.K) if p[y]]
        terms += [(-p[y], scheme.cost(members, y)) for y in range(scheme.K) if p[y]]
        if certified.linear_sign(terms).value != 1:
            return None
        margins.append(sp.Add(*[k * v for k, v in terms]))
    margin = margins[0] if len(margins) == 1 else _smallest(margins)
    return SetPossibility(members, Truth.TRUE, witness=tuple(p), margin=margin, method=method)


def check_certificate(scheme: Scheme, members, lam: dict[int, sp.Rational], method: str = "lp"):
    """λ (exact, in the simplex over Y) proves impossibility iff c_Y(y) >= Σ λ_ŷ c_ŷ(y) for all y."""
    if any(v < 0 for v in lam.values()) or sum(lam.values()) != 1:
        return None
    for y in range(scheme.K):
        terms = [(sp.Integer(1), scheme.cost(members, y))] + [(-k, scheme.det(h, y)) for h, k in lam.items() if k]
        if certified.linear_sign(terms).value not in (0, 1):
            return None
    return SetPossibility(members, Truth.FALSE, certificate=dict(lam), method=method)


def _smallest(values):
    best = values[0]
    for v in values[1:]:
        if certified.compare(v, best).value == -1:
            best = v
    return best


def _exact_lp(scheme: Scheme, members) -> SetPossibility | None:
    """Rational data only: sympy's exact simplex on the primal (witness) and the dual (certificate).

    The free variables are shifted (s = t + M >= 0) instead of split into t+ − t-: sympy 1.14's simplex
    can report an 'oscillating system' on the split form of small LPs.
    """
    order = sorted(members)
    K = scheme.K
    cells = [scheme.cost(members, y) for y in range(K)] + [scheme.det(h, y) for h in order for y in range(K)]
    if not all(c.is_Rational for c in cells):
        return None
    from sympy.solvers.simplex import linprog as exact_linprog

    bound = 1 + max(abs(scheme.cost(members, y) - scheme.det(h, y)) for h in order for y in range(K))
    try:
        # primal: p_0..p_{K-1}, s = t + M; E_p[c_Y − c_ŷ] + s <= M; minimise −s
        A = [[scheme.cost(members, y) - scheme.det(h, y) for y in range(K)] + [1] for h in order]
        optimum, x = exact_linprog([0] * K + [-1], A=A, b=[bound] * len(order), A_eq=[[1] * K + [0]], b_eq=[1])
        if -optimum - bound > 0:
            return check_witness(scheme, members, list(x[:K]), method="exact LP")
        # dual: λ over Y and s = u + M with Σ λ c_ŷ(y) − c_Y(y) <= u; minimise u
        A = [[scheme.det(h, y) for h in order] + [-1] for y in range(K)]
        b = [scheme.cost(members, y) - bound for y in range(K)]
        optimum, x = exact_linprog([0] * len(order) + [1], A=A, b=b, A_eq=[[1] * len(order) + [0]], b_eq=[1])
    except Exception:  # sympy's simplex failing is no verdict: the caller reports `unknown`
        return None
    if optimum - bound <= 0:
        return check_certificate(scheme, members, dict(zip(order, x[: len(order)])), method="exact LP")
    return None
