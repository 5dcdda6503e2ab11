"""Optimality of every set (singletons included): is it the minimiser of E_p[c_Z] over all sets for some p?

Definition 4 only compares a set with its own members; a set can be possible and still never be the best
prediction. For each Y we decide exactly one of:
  alone  — a rational p at which Y is the unique minimiser (its decision region has interior);
  tied   — a p at which Y is a minimiser, and a mixture λ of other rows with Σ λ_Z c_Z ≤ c_Y in every column,
           which makes Y never the unique minimiser;
  never  — a mixture λ with Σ λ_Z c_Z < c_Y in every column (then some other set is cheaper at every p).
By LP duality, max t s.t. E_p[c_Y − c_Z] + t ≤ 0 (Z ≠ Y), p in the simplex, is > 0, = 0, < 0 in the three
cases, with p the witness and the duals λ the certificate. Floats search (sampling, then a cutting-plane LP in
HiGHS that adds only the sets that matter, `cutting_planes`, one set per orbit of the matrix's relabellings,
`automorphisms`); witnesses and certificates are rationalised and confirmed exactly, moved ones too.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from verifier.engines.automorphisms import class_automorphisms, orbits
from verifier.engines.canonical import canonical_mixture, canonical_tie, canonical_witness, exact_optimum
from verifier.engines.cutting_planes import TOLERANCE as _TOLERANCE
from verifier.engines.cutting_planes import cutting_planes
from verifier.engines.expected import ExpectedCosts
from verifier.formula import certified
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import ClassSet, Scheme
from verifier.verdict import Optimal, SetOptimality

_DENOMINATORS = (1_000, 1_000_000, 10**12)
_CHUNK = 256  # sample points evaluated at once
# tie points and certificates by the exact rule (two LPs over every other set, per set) up to every subset of 10
# classes; beyond (families batch by batch), the cutting-plane LP's own point and duals, rationalised and
# confirmed exactly: HiGHS is deterministic (no BLAS), and the rule cost 8 times the whole optimality there
CANONICAL_MAX_SETS = 1023


def analyse_optimality(scheme: Scheme, hints: dict[ClassSet, tuple] | None = None) -> dict[ClassSet, SetOptimality]:
    """Every set's optimality; `hints` are extra sample points (e.g. Definition 4 witnesses)."""
    costs = ExpectedCosts(scheme)
    with np.errstate(all="ignore"):  # huge costs overflow the float search; exact checks still decide
        found = _screen(costs, hints or {})
    out: dict[ClassSet, SetOptimality] = {}
    out.update(found)
    pending = [m for m in costs.sets if m not in out]
    if len(costs.sets) == 1:
        return {m: SetOptimality(m, "alone", witness=(sp.Integer(1),)) for m in costs.sets}
    if not np.all(np.isfinite(costs.search)):
        out.update({m: SetOptimality(m, "unknown", reason="some costs are too large for the LP search")
                    for m in pending})
        return out
    moves = class_automorphisms(costs.sets, costs.floats, scheme.K)
    orbit = orbits(pending, moves)
    representatives = [m for m in pending if orbit[m][1] is None]
    solutions = _search(costs, representatives, out)
    retry = []
    for members in pending:  # the other sets of each orbit: the representative's answer, moved and confirmed
        start, sigma = orbit[members]
        if sigma is None:
            continue
        if out[start].status == Optimal.ALONE:  # its exact witness, relabelled: only the confirmation is left
            witness = [Fraction(0)] * scheme.K
            for y, x in enumerate(out[start].witness):
                witness[int(sigma[y])] = _fraction(x)
            result = _confirm_alone(costs, members, witness)
        else:
            moved = _moved(costs, solutions.get(start), sigma)
            result = _decide(costs, members, *moved) if moved is not None else None
        if result is None or result.status == Optimal.UNKNOWN:
            retry.append(members)
        else:
            out[members] = result
    _search(costs, retry, out)
    return {m: out[m] for m in costs.sets}


def _search(costs: ExpectedCosts, pending: list[ClassSet], out: dict) -> dict:
    """Decide the pending sets by the cutting-plane LP (into `out`); returns the LP solution of each."""
    if not pending:
        return {}
    searched = cutting_planes(costs.search, {m: costs.index[m] for m in pending},
                              {m: _first_rows(costs, m) for m in pending})
    for members, solved in searched.items():
        if solved is None:
            out[members] = SetOptimality(members, "unknown", reason="the LP search did not settle")
        else:
            out[members] = _decide(costs, members, *solved)
    return searched


def _moved(costs: ExpectedCosts, solved, sigma: np.ndarray):
    """An LP solution (p, t, duals) for Y as one for σY: p'(σy) = p(y), the dual of Z on σZ."""
    if solved is None:
        return None
    p, t, duals = solved
    moved_p = np.empty_like(p)
    moved_p[sigma] = p
    moved_duals = {costs.index[frozenset(int(sigma[y]) for y in costs.sets[j])]: v for j, v in duals.items()}
    return moved_p, t, moved_duals


def _screen(costs: ExpectedCosts, hints) -> dict[ClassSet, SetOptimality]:
    """Each set's first point, in a fixed order (the uniform distribution on every set in set order, then the
    hints in set order), at which it is the unique minimiser, confirmed exactly: the order, not the floats,
    picks the point. Certified bounds only skip the points where a set is certainly not alone."""
    K, sets = costs.scheme.K, costs.sets
    points = [[Fraction(int(y in m), len(m)) for y in range(K)] for m in sets]
    points += [[_fraction(x) for x in p] for p in hints.values() if p is not None]
    if len(sets) < 2:
        return {}
    out: dict[ClassSet, SetOptimality] = {}
    for start in range(0, len(points), _CHUNK):
        chunk = points[start:start + _CHUNK]
        low, high = costs.bounds_many(chunk)
        best_other = _best_other(high)
        maybe = low < best_other  # not certainly beaten by another set at this point
        for k, j in zip(*np.nonzero(maybe)):
            members = sets[int(j)]
            if members not in out:
                found = _confirm_alone(costs, members, chunk[int(k)])
                if found is not None:
                    out[members] = found
    return out


def _best_other(high: np.ndarray) -> np.ndarray:
    """For every point (row) and set (column), the least upper bound among the other sets."""
    if np.isnan(high).any():  # NaN sorts last
        order = np.argsort(high, axis=1, kind="stable")[:, :2]
        rows = np.arange(high.shape[0])
        best, first, second = order[:, 0], high[rows, order[:, 0]], high[rows, order[:, 1]]
    else:  # a partial sort: with a tie for the least, either index gives the same bounds
        best = np.argmin(high, axis=1)
        first, second = high[np.arange(high.shape[0]), best], np.partition(high, 1, axis=1)[:, 1]
    return np.where(np.arange(high.shape[1])[None, :] == best[:, None], second[:, None], first[:, None])


def _confirm_alone(costs: ExpectedCosts, members: ClassSet, p: list[Fraction]) -> SetOptimality | None:
    signs = costs.signs(p, members)  # its own entry is 0
    if signs.count(1) != len(signs) - 1:
        return None
    found = costs.margin(p, members) if len(costs.sets) > 1 else None
    margin, at_least = found if found is not None else (None, False)
    return SetOptimality(members, "alone", witness=_exact(p), margin=margin, margin_is_bound=at_least)


def _first_rows(costs: ExpectedCosts, members: ClassSet) -> list[int]:
    """The singletons and the sets cheapest at the uniform distribution on Y: usually the binding ones."""
    i, K = costs.index[members], costs.scheme.K
    p = np.array([float(y in members) for y in range(K)]) / len(members)
    values = costs.search @ p
    values[i] = np.inf
    near = np.argsort(values)[:K]
    return sorted(({int(j) for j in near} | set(range(K))) - {i})


def _decide(costs: ExpectedCosts, members: ClassSet, p, t: float, duals: dict[int, float]) -> SetOptimality:
    if t > _TOLERANCE:
        found = _canonical_alone(costs, members, p, t, duals)
        if found is not None:
            return found
        for candidate in _rationalised(p):  # no exact proof of one optimum: the LP's point, confirmed exactly
            found = _confirm_alone(costs, members, candidate)
            if found is not None:
                return found
    strict = t < -_TOLERANCE
    certificate, strictly = _canonical_certificate(costs, members, p, t)
    if certificate is None or (strict and not strictly):  # the float LP's duals, rationalised and confirmed
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


def _canonical_alone(costs: ExpectedCosts, members: ClassSet, p, t: float,
                     duals: dict[int, float]) -> SetOptimality | None:
    """Alone at the point the exact lexicographic LP picks (`engines.canonical`), whatever the float LP found;
    the float LP's binding rows only seed the exact one."""
    grid = costs.grid()
    if grid is None:
        return None
    held: list[SetOptimality] = []

    def confirm(p: list[Fraction]) -> bool:
        found = _confirm_alone(costs, members, p)
        held[:] = [found] if found is not None else []
        return found is not None

    seed = [j for j, v in sorted(duals.items()) if v > 1e-12]
    witness = canonical_witness(grid, costs.index[members], _proposal(costs, p, t), seed, confirm)
    return held[0] if witness is not None and held else None


def _proposal(costs: ExpectedCosts, p, t: float) -> tuple[np.ndarray, float]:
    """The float LP's (p, t) in the grid's units (it ran on the costs scaled by their largest value)."""
    scale = float(np.max(np.abs(costs.floats))) if costs.floats.size else 1.0
    return np.asarray(p, dtype=float), float(t) * (scale if np.isfinite(scale) and scale > 0 else 1.0)


def _canonical_certificate(costs: ExpectedCosts, members: ClassSet, p, t: float):
    """The certificate the exact rule picks (`engines.canonical_mixture`): at the LP's exact optimum when it
    is negative (strict: `never`), else at 0; confirmed on the true matrix. (λ, strict) or (None, False)."""
    grid = costs.grid() if len(costs.sets) <= CANONICAL_MAX_SETS else None
    if grid is None:
        return None, False
    i = costs.index[members]
    optimum = exact_optimum(grid, i, _proposal(costs, p, t)) if p is not None else None
    targets = [optimum] if optimum is not None and optimum < 0 else []
    for target in targets + [Fraction(0)]:
        mixture = canonical_mixture(grid, i, target)
        if mixture is None:
            continue
        mix = {costs.sets[j]: sp.Rational(x.numerator, x.denominator) for j, x in sorted(mixture.items())}
        signs = _mixture_signs(costs, members, mix)
        if all(s is not None and s >= 0 for s in signs):
            return mix, all(s == 1 for s in signs)
    return None, False


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


def _float(x) -> float:
    """A float near an exact rational of any spelling (a search point only)."""
    return x / 1 if isinstance(x, int) else int(x.p) / int(x.q)


def _fraction(x) -> Fraction:
    """An exact rational of any spelling (sympy Rational, Integer, int) as a Fraction."""
    value = sp.Rational(x) if isinstance(x, int) else x
    return Fraction(int(value.p), int(value.q))


def _exact(p: list[Fraction]) -> tuple[sp.Rational, ...]:
    return tuple(sp.Rational(x.numerator, x.denominator) for x in p)


def _tie_witness(costs: ExpectedCosts, members: ClassSet, p):
    """A p at which Y ties for the minimum, with the sets it ties with. For a rational scheme, the exact LP's
    point (least Σ w·p among the points where Y is a minimiser, `engines.canonical`), so that no solver path
    chooses it; otherwise the LP's point rationalised."""
    grid = costs.grid() if costs.rational and len(costs.sets) <= CANONICAL_MAX_SETS else None
    if grid is not None:
        point = canonical_tie(grid, costs.index[members], sorted(members))
        if point is not None:
            found = _tie_at(costs, members, point)
            if found is not None:
                return found
    for candidate in _rationalised(p):
        found = _tie_at(costs, members, candidate)
        if found is not None:
            return found
    return None


def _tie_at(costs: ExpectedCosts, members: ClassSet, candidate: list[Fraction]):
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
    for lam in _rationalised([duals[j] for j in order]):
        mix = {costs.sets[j]: sp.Rational(x.numerator, x.denominator) for j, x in zip(order, lam) if x}
        signs = _mixture_signs(costs, members, mix)
        if all(s is not None and s >= 0 for s in signs):
            return mix, all(s == 1 for s in signs)
    return None, False


def _mixture_signs(costs: ExpectedCosts, members: ClassSet, mix: dict) -> list[int | None]:
    """The certified sign of c_Y(y) − Σ λ_Z c_Z(y) in every column (None where undecided)."""
    rows = costs.scheme.rows
    return [certified.linear_sign([(sp.Integer(1), rows[members][y])] + [(-x, rows[z][y]) for z, x in mix.items()]
                                  ).value for y in range(costs.scheme.K)]
