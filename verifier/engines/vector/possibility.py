"""Definition 4 for every indeterminate set without one LP per set.

Two cheap exact tests settle most sets at once: the uniform distribution on Y is a witness when
Σ_{y in Y} c_ŷ(y) > Σ_{y in Y} c_Y(y) for every member ŷ (then E_p[c_Y] < E_p[c_ŷ]); the uniform mixture of
the members is a Ville certificate when c_Y(y) >= c̄_Y(y) for every class y (Proposition 1). Both are decided
on exact or certified arrays. The sets neither settles go to the block LP of `engines.possibility`, whose
witnesses and certificates are confirmed exactly, one set at a time.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import numpy as np

from verifier.engines.possibility import _DENOMINATORS, _rationalise, _solve_all, analyse_possibility, check_witness
from verifier.engines.vector.terms import CHUNK_CELLS, TermArrays
from verifier.engines.vector.two_point import screened_pairs
from verifier.engines.vector.uniform import uniform_tests
from verifier.formula.cells import TRUE, Cells, CellsError, compare
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import ClassSet, Scheme
from verifier.uniform_point import UniformPoint
from verifier.verdict import SetPossibility, Truth


class LazyWitness(SetPossibility):
    """Possible, with a confirmed witness p; the exact margin is computed when something reads it."""

    def __init__(self, members: ClassSet, witness: tuple, scheme: Scheme, method: str):
        self._scheme = scheme
        self._decimal: float | None | object = UNSET  # margin_decimal, once made
        super().__init__(members, Truth.TRUE, witness=witness, margin=None, method=method)

    @property
    def margin(self):
        """The exact margin of the witness, computed on first read (None when it cannot be)."""
        if self._margin is None and self._scheme is not None:
            self._margin = _rational_margin(self._scheme, self.members, self.witness)
            if self._margin is None:
                self._margin = _margin_over_rational_members(self._scheme, self.members, self.witness)
            if self._margin is None:  # irrational cells: the exact interpreter and certified comparisons
                checked = check_witness(self._scheme, self.members, list(self.witness), method=self.method)
                self._margin = checked.margin if checked is not None else None
        return self._margin

    def quick_margin(self) -> sp.Expr | None:
        """The margin exactly when every cell involved is rational (integers, no sympy), else None (the caller
        shows `margin_decimal`, read off the certified enclosures)."""
        if self._margin is not None or self._scheme is None:
            return self._margin
        exact = _rational_margin(self._scheme, self.members, self.witness)
        if exact is not None:
            self._margin = exact
        return exact

    def margin_decimal(self) -> float | None:
        """The margin's 4-digit decimal read off the certified cell enclosures when both ends of its enclosure
        print alike (display only; None otherwise, and the caller rounds the exact margin)."""
        if self._decimal is not UNSET:
            return self._decimal  # type: ignore[return-value]
        if self._scheme is None or getattr(self._scheme, "cells", None) is None:
            return None
        rows, s = self._scheme.cells.rows, self._scheme.rows.index[self.members]
        order = sorted(self.members)
        p = np.array([as_float(x) for x in self.witness])
        with np.errstate(all="ignore"):
            low = float(np.min(rows.lo[order] @ p) - rows.hi[s] @ p)
            high = float(np.min(rows.hi[order] @ p) - rows.lo[s] @ p)
            slack = 1e-12 * float(np.max(np.abs(rows.lo[order + [s]]) + np.abs(rows.hi[order + [s]])) + 1e-300)
        low, high = low - slack, high + slack  # the float products' rounding, far below 4 digits
        if not (np.isfinite(low) and np.isfinite(high)):
            return None
        first, last = f"{low:.4g}", f"{high:.4g}"
        return float(first) if first == last and float(first) != 0 else None

    @margin.setter
    def margin(self, value):
        self._margin = value

    def __getstate__(self):  # pickled with its margin, not with the scheme
        state = dict(self.__dict__)
        state["_margin"] = self.margin
        state["_scheme"] = None
        return state


UNSET = object()  # a margin_decimal not yet made (`vector.margin_decimals` fills many at once)


def _nonzero(x) -> bool:
    """x != 0 for a weight; a sympy rational by its numerator (its `!=` sympifies the 0 each time)."""
    numerator = getattr(x, "p", None)
    return numerator != 0 if isinstance(numerator, int) else x != 0


def _support(witness: tuple) -> list[int]:
    """The classes of nonzero weight; sympy's zero (one object, most weights over many classes) needs no call."""
    zero = sp.S.Zero
    return [y for y, x in enumerate(witness) if x is not zero and _nonzero(x)]


def as_float(x) -> float:
    """A rational weight's float, correctly rounded (Python's int division), without sympy's mpmath route."""
    numerator, denominator = getattr(x, "p", None), getattr(x, "q", None)
    if isinstance(numerator, int) and isinstance(denominator, int):
        return numerator / denominator
    return float(x)


def _rational_margin(scheme: Scheme, members: ClassSet, witness: tuple) -> sp.Rational | None:
    """min over ŷ in Y of E_p[c_ŷ] − E_p[c_Y], in integers, when every cell involved is an exact rational."""
    cells = scheme.cells
    s = scheme.rows.index[members]
    support = _support(witness)
    order = sorted(members)
    rows = cells.rows
    if not (rows.exact[s, support].all() and rows.exact[np.ix_(order, support)].all()):
        return None
    weights, q = _integer_weights(witness, support)
    mine = _dot(weights, rows.num[s, support])
    gap = min(_dot(weights, rows.num[h, support]) for h in order) - mine
    return sp.Rational(gap, q * rows.den)


def _margin_over_rational_members(scheme: Scheme, members: ClassSet, witness: tuple) -> sp.Expr | None:
    """min over ŷ in Y of E_p[c_ŷ] − E_p[c_Y] when the members' rows are exact rationals on the support (the
    minimum is then taken in Fractions) and only the set's own row is irrational: one exact sum, no
    comparison of irrational numbers (the witness itself was confirmed when the set was found possible)."""
    cells = scheme.cells
    support = _support(witness)
    order = sorted(members)
    rows = cells.rows
    if not rows.exact[np.ix_(order, support)].all():
        return None
    weights, q = _integer_weights(witness, support)
    best = Fraction(min(_dot(weights, rows.num[h, support]) for h in order), q * rows.den)
    own = scheme.rows[members]
    return _best_minus(best, tuple((witness[y], own[y]) for y in support))


def _integer_weights(witness: tuple, support: list[int]) -> tuple[list[int], int]:
    """The witness on its support as integers over a common denominator q."""
    q = math.lcm(*(int(witness[y].q) for y in support))
    return [int(witness[y].p) * (q // int(witness[y].q)) for y in support], q


def _dot(weights: list[int], numerators) -> int:
    return sum(w * int(n) for w, n in zip(weights, numerators))  # Python integers: exact at any size


@lru_cache(maxsize=100_000)
def _best_minus(best: Fraction, terms: tuple) -> sp.Expr:
    """best − Σ w·v, made once per distinct margin (at 9 classes 502 witnesses share 150 margins)."""
    return sp.Add(sp.Rational(best.numerator, best.denominator), *[-w * v for w, v in terms])  # one flatten


def analyse_possibility_fast(scheme: Scheme, terms: TermArrays) -> dict[ClassSet, SetPossibility]:
    """Definition 4 for every indeterminate set: the uniform tests on the arrays first, then a search, the block LP, and
    the exact per-set analysis for what is left; in table order."""
    sets = scheme.indeterminate_sets
    witness, certificate = uniform_tests(terms)  # the uniform p, then the uniform λ (Proposition 1)
    out: dict[ClassSet, SetPossibility] = {}
    uniform = {n: sp.Rational(1, n) for n in range(2, scheme.K + 1)}
    zero = sp.Integer(0)
    for s in np.flatnonzero(witness):
        m = sets[s]
        # the set itself and one value, read as the K-tuple (thousands of sets of hundreds of classes)
        out[m] = LazyWitness(m, UniformPoint(scheme.K, m, uniform[len(m)], zero), scheme, "uniform p")
    for s in np.flatnonzero(certificate):
        m = sets[s]
        out[m] = SetPossibility(m, Truth.FALSE, certificate={h: uniform[len(m)] for h in sorted(m)},
                                method="uniform λ (Proposition 1)")
    rest = [s for s, m in enumerate(sets) if m not in out]
    if rest:
        out.update(_by_search(scheme, terms, rest))
    rest = [s for s, m in enumerate(sets) if m not in out]
    if rest:
        out.update(_by_lp(scheme, terms, rest))
    rest = [m for m in sets if m not in out]
    if rest:  # what the arrays could not confirm: the exact per-set path
        out.update(analyse_possibility(scheme, rest))
    return {m: out[m] for m in sets}


def _by_search(scheme: Scheme, terms: TermArrays, rest: list[int]) -> dict[ClassSet, SetPossibility]:
    """Cheap candidate witnesses for many sets at once, screened in floats and confirmed on the arrays: the
    uniform distribution on the first and last member, then (for the sets that screen left open) on any two
    classes. A chunk of sets at a time, each candidate's expected costs gathered from its two classes (no
    sets x K array of probabilities)."""
    K = terms.K
    det_by_class = (terms.det.lo + terms.det.hi).T / 2  # [y, h]: the midpoint of c_h(y)
    out: dict[ClassSet, SetPossibility] = {}
    step = max(1, CHUNK_CELLS // K)
    left: list[int] = []
    for own in (True, False):
        todo, left = (rest, []) if own else (left, [])
        for start in range(0, len(todo), step):
            rows = np.array(todo[start:start + step])
            pairs = screened_pairs(terms, rows, det_by_class, own)
            left += [int(r) for r, pair in zip(rows, pairs) if pair is None]
            out.update(_confirmed_pairs(scheme, terms, rows, pairs))
    return out


def _confirmed_pairs(scheme: Scheme, terms: TermArrays, rows: np.ndarray, pairs: list) -> dict:
    """The screened pairs whose uniform distribution the arrays confirm as Definition 4 witnesses."""
    K = terms.K
    half, zero = Fraction(1, 2), Fraction(0)  # shared: K fresh zeros per set were millions of objects
    half_sp, zero_sp = sp.Rational(1, 2), sp.Integer(0)
    picked = [i for i, pair in enumerate(pairs) if pair is not None]
    if not picked:
        return {}
    ps = [[half if y in pairs[i] else zero for y in range(K)] for i in picked]
    out = {}
    for i, good in zip(picked, _witnesses_hold(terms, rows[picked], ps)):
        if good:
            m = scheme.indeterminate_sets[rows[i]]
            out[m] = LazyWitness(m, tuple(half_sp if y in pairs[i] else zero_sp for y in range(K)), scheme,
                                 "two-point p")
    return out


def _by_lp(scheme: Scheme, terms: TermArrays, rest: list[int]) -> dict[ClassSet, SetPossibility]:
    """One block LP on the enclosures' midpoints; its witnesses and certificates, rationalised, are confirmed
    on the arrays (certified enclosure arithmetic; a certificate's exact ties go to the exact path)."""
    sets = [scheme.indeterminate_sets[s] for s in rest]
    mid = (terms.cost.lo + terms.cost.hi) / 2
    det_mid = (terms.det.lo + terms.det.hi) / 2
    floats = {(frozenset((h,)), y): float(det_mid[h, y]) for h in range(scheme.K) for y in range(scheme.K)}
    for s, m in zip(rest, sets):
        floats.update({(m, y): float(mid[s, y]) for y in range(scheme.K)})
    primal, dual = _solve_all(scheme, sets, floats)
    out: dict[ClassSet, SetPossibility] = {}
    witnesses = [(s, m, primal[m][0]) for s, m in zip(rest, sets) if m in primal and primal[m][1] > 1e-9]
    for denominator in _DENOMINATORS:
        todo = [(s, m, p) for s, m, p in witnesses if m not in out]
        if not todo:
            break
        exact = [_rationalise(p, denominator) for _, _, p in todo]
        keep = [(t, q) for t, q in zip(todo, exact) if q is not None]
        if not keep:
            continue
        rows = np.array([s for (s, _, _), _ in keep])
        ok = _witnesses_hold(terms, rows, [q for _, q in keep])
        for ((s, m, _), q), good in zip(keep, ok):
            if good:
                out[m] = LazyWitness(m, tuple(sp.Rational(f.numerator, f.denominator) for f in q), scheme, "lp")
    certificates = [(s, m, dual[m]) for s, m in zip(rest, sets) if m not in out and m in dual]
    for s, m, lam in certificates:
        order = sorted(m)
        q = _rationalise([lam[h] for h in order], _DENOMINATORS[1])
        if q is not None and _certificate_holds(terms, s, dict(zip(order, q))):
            out[m] = SetPossibility(m, Truth.FALSE, certificate={h: sp.Rational(f.numerator, f.denominator)
                                                                  for h, f in zip(order, q)}, method="lp")
    return out


def _probabilities(rows: list[list[Fraction]], K: int) -> Cells:
    lo = np.array([[float(f) for f in q] for q in rows])
    return Cells.enclosure(np.maximum(np.nextafter(lo, -np.inf), 0.0), np.nextafter(lo, np.inf))


def _witnesses_hold(terms: TermArrays, rows: np.ndarray, ps: list[list[Fraction]]) -> np.ndarray:
    """E_p[c_ŷ] − E_p[c_Y] > 0 for every member ŷ, certainly, for each (row, p); False where the arrays cannot
    tell (those sets go to the exact path)."""
    step = max(1, CHUNK_CELLS // terms.K)  # a chunk of sets at a time: each support class makes (sets, K) arrays
    try:
        width = max([1] + [sum(1 for f in q if f) for q in ps])  # one width for all: the same padded sums
        return np.concatenate([_witnesses_certain(terms, rows[i:i + step], ps[i:i + step], width)
                               for i in range(0, len(rows), step)] or [np.zeros(0, bool)])
    except CellsError:
        return np.zeros(len(rows), bool)


def _witnesses_certain(terms: TermArrays, rows: np.ndarray, ps: list[list[Fraction]], width: int) -> np.ndarray:
    """E_p[c_h] and E_p[c_Y] gathered over each p's support (a few classes), not multiplied out over K x K."""
    n = len(rows)
    support = [[y for y, f in enumerate(q) if f] for q in ps]
    index, weight = np.zeros((n, width), dtype=np.int64), np.zeros((n, width))
    for i, s in enumerate(support):  # padding: the row's first class again, with a weight of exactly 0
        index[i] = s + [s[0]] * (width - len(s)) if s else 0
        weight[i, :len(s)] = [float(ps[i][y]) for y in s]
    det_by_class = terms.det.transpose()  # [y, h]
    cost = terms.cost.take(rows)
    own = mine = None
    for j in range(width):
        w = Cells.enclosure(np.maximum(np.nextafter(weight[:, j], -np.inf), 0.0),
                            np.where(weight[:, j] > 0, np.nextafter(weight[:, j], np.inf), 0.0))
        part_own = det_by_class.take(index[:, j]) * w.take((slice(None), None))  # (n, K_h): p_y c_h(y)
        part_mine = cost.take((np.arange(n), index[:, j])) * w  # (n,): p_y c_Y(y)
        own = part_own if own is None else own + part_own
        mine = part_mine if mine is None else mine + part_mine
    beats = compare(own, ">", mine.take((slice(None), None))) == TRUE
    return (beats | ~terms.members[rows]).all(axis=1)


def _certificate_holds(terms: TermArrays, s: int, lam: dict[int, Fraction]) -> bool:
    """c_Y(y) >= Σ λ_ŷ c_ŷ(y) for every y, certainly (ties in exact cells included)."""
    try:
        return _certificate_certain(terms, s, lam)
    except CellsError:
        return False


def _certificate_certain(terms: TermArrays, s: int, lam: dict[int, Fraction]) -> bool:
    mix = None
    for h, f in lam.items():
        part = terms.det.take(slice(h, h + 1)) * Cells.rational(f, (1, 1))
        mix = part if mix is None else mix + part
    return bool((compare(terms.cost.take(slice(s, s + 1)), ">=", mix) == TRUE).all())
