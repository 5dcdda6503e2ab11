"""Optimality of every set of a restricted family beyond a thousand sets (up to 100,000: intervals,
hierarchies, listed sets, `{max_size: k}`), batch by batch, on the fast path's arrays.

Each batch of sets goes through three exact steps, the cheap ones first:
  1. its uniform distribution: one certified product for the whole batch (integers for rational schemes, the
     cells' certified enclosures otherwise) shows the sets that are strictly cheapest there: `alone`, with the
     exact margin (rational) or a certified lower bound;
  2. dominance: a set whose row is strictly above another allowed set's row in every column (checked exactly,
     against the few sets cheapest at its uniform distribution) is `never`, with that set as certificate;
  3. the rest: the cutting-plane LP of `engines.optimality`, whose witnesses and certificates are rationalised
     and confirmed exactly, as for a thousand sets.
The caller (`analysis.optimality_route`) re-checks each batch independently and bounds the time; floats only
search here.
"""

from __future__ import annotations

from fractions import Fraction
from collections.abc import Iterator

import numpy as np
from verifier.lazy_sympy import sympy as sp

from verifier.engines.expected import ExpectedCosts, _TINY, _U
from verifier.engines.automorphisms import class_automorphisms, orbits
from verifier.engines.optimality import _confirm_alone, _decide, _fraction, _moved, _search
from verifier.scheme import ClassSet, Scheme
from verifier.verdict import SetOptimality

_NEAR = 8  # sets tried as a single dominating row, the cheapest at the set's uniform distribution


class FamilyOptimality:
    """Decides the sets of a large numeric scheme on arrays, a batch at a time (`batches`)."""

    def __init__(self, scheme: Scheme, hints: dict[ClassSet, tuple] | None = None):
        self.scheme, self.hints = scheme, hints or {}
        self.costs = ExpectedCosts(scheme)
        rows = scheme.cells.rows
        self.sets = self.costs.sets
        self.members = np.zeros((len(self.sets), scheme.K), dtype=bool)
        for i, m in enumerate(self.sets):
            self.members[i, sorted(m)] = True
        self.num = None
        if rows.exact.all() and rows.num is not None and np.asarray(rows.num).dtype != object:
            num = np.asarray(rows.num, dtype=np.int64)
            if int(np.abs(num).max(initial=0)) * scheme.K < 2**62:  # sums of K cells stay exact in int64
                self.num, self.den = num, rows.den
        self.lo, self.hi = np.asarray(rows.lo, dtype=float), np.asarray(rows.hi, dtype=float)
        with np.errstate(all="ignore"):  # centre and radius of each cell's enclosure (as `ExpectedCosts`)
            self.mids = (self.lo + self.hi) / 2
            self.rads = (self.hi - self.lo) / 2 * (1 + _U) + np.abs(self.mids) * _U + _TINY
        self.solutions: dict = {}  # the LP solution of each set searched, moved along the relabellings
        self.batch = int(max(8, min(256, 4_000_000 // max(1, len(self.sets)))))

    def batches(self) -> Iterator[dict[ClassSet, SetOptimality]]:
        """Every set's entry, a batch at a time: first the sets found strictly cheapest at some set's uniform
        distribution, then the others (hints, dominance, LPs), in table order."""
        if len(self.sets) == 1:
            yield {self.sets[0]: SetOptimality(self.sets[0], "alone", witness=(sp.Integer(1),))}
            return
        found: set[ClassSet] = set()
        for start in range(0, len(self.sets), self.batch):
            with np.errstate(all="ignore"):
                batch = self._screen(list(range(start, min(start + self.batch, len(self.sets)))))
            batch = {m: e for m, e in batch.items() if m not in found}
            found.update(batch)
            if batch:
                yield batch
        # more points, the same way, for the sets not found yet: their Definition 4 witnesses, and distributions
        # weighted towards their first and last classes (where an interval's or a node's edges bind)
        K = self.scheme.K
        points = [(np.array([int(x.p) / int(x.q) for x in p]), (lambda p=p: tuple(p)))
                  for m, p in self.hints.items() if p is not None and m in self.costs.index and m not in found]
        points += [(_edges(K, m, w, float), (lambda m=m, w=w: _edges(K, m, w, sp.Integer)))
                   for w in EDGE_WEIGHTS for m in self.sets if m not in found and len(m) > 2]
        for start in range(0, len(points), self.batch):
            part = points[start:start + self.batch]
            with np.errstate(all="ignore"):
                batch = self._screen_at([make for _, make in part], np.array([w for w, _ in part]).T,
                                        np.ones(len(part), dtype=np.int64))
            batch = {m: e for m, e in batch.items() if m not in found}
            found.update(batch)
            if batch:
                yield batch
        rest = [m for m in self.sets if m not in found]
        moves = class_automorphisms(self.sets, self.costs.floats, self.scheme.K) if rest else []
        orbit = orbits(rest, moves)  # one LP per orbit of the matrix's relabellings (reversing ordinal classes)
        first = [self.costs.index[m] for m in rest if orbit[m][1] is None]
        decided: dict[ClassSet, SetOptimality] = {}
        for start in range(0, len(first), self.batch):
            batch = self.decide(first[start:start + self.batch])
            decided.update(batch)
            yield batch
        moved = {m: self._moved(m, decided[orbit[m][0]], orbit[m][1]) for m in rest if orbit[m][1] is not None}
        retry = [self.costs.index[m] for m, e in moved.items() if e is None or e.status == "unknown"]
        done = {m: e for m, e in moved.items() if e is not None and e.status != "unknown"}
        for start in range(0, len(done), self.batch):
            yield dict(list(done.items())[start:start + self.batch])
        for start in range(0, len(retry), self.batch):
            yield self.decide(retry[start:start + self.batch])

    def _moved(self, members: ClassSet, start: SetOptimality, sigma) -> SetOptimality | None:
        """The representative's answer along σ, confirmed exactly (None: the set goes to its own LP)."""
        if start.status == "alone":
            witness = [Fraction(0)] * self.scheme.K
            for y, x in enumerate(start.witness):
                witness[int(sigma[y])] = _fraction(x)
            return _confirm_alone(self.costs, members, witness)
        solved = self.solutions.get(start.members)
        moved = _moved(self.costs, solved, sigma)
        return _decide(self.costs, members, *moved) if moved is not None else None

    def decide(self, rows: list[int]) -> dict[ClassSet, SetOptimality]:
        """The sets no uniform distribution showed alone: a Definition 4 witness, dominance, then LPs."""
        out: dict[ClassSet, SetOptimality] = {}
        for i in rows:
            hint = self.hints.get(self.sets[i])
            if hint is not None:
                found = _confirm_alone(self.costs, self.sets[i], [_fraction(x) for x in hint])
                if found is not None:
                    out[self.sets[i]] = found
        left = [i for i in rows if self.sets[i] not in out]
        for i in left:
            found = self._dominated(i)
            if found is not None:
                out[self.sets[i]] = found
        pending = [self.sets[i] for i in left if self.sets[i] not in out]
        if pending and not np.all(np.isfinite(self.costs.search)):
            out.update({m: SetOptimality(m, "unknown", reason="some costs are too large for the LP search")
                        for m in pending})
        elif pending:
            self.solutions.update(_search(self.costs, pending, out))
        return {self.sets[i]: out[self.sets[i]] for i in rows}

    def _screen(self, rows: list[int]) -> dict[ClassSet, SetOptimality]:
        """At the uniform distribution on each of these sets, the set strictly cheapest there (certified), if
        any: `alone`, with the gap to the next best (exact for rational schemes, else a certified lower bound)."""
        W = self.members[rows].T.astype(np.int64)  # K x B: the sums over each set's classes (p times |Y|)
        sizes = W.sum(axis=0)
        columns = np.arange(len(rows))
        out: dict[ClassSet, SetOptimality] = {}
        if self.num is not None:
            values = self.num @ W
            best = values.argmin(axis=0)
            mine = values[best, columns]
            values[best, columns] = np.iinfo(np.int64).max
            gaps = values.min(axis=0) - mine
            for k in np.flatnonzero(gaps > 0).tolist():
                m = self.sets[int(best[k])]
                out.setdefault(m, SetOptimality(m, "alone", witness=_uniform(self.scheme.K, self.sets[rows[k]]),
                                                margin=sp.Rational(int(gaps[k]), int(self.den) * int(sizes[k]))))
            return out
        K = self.scheme.K
        return self._screen_at([lambda m=self.sets[i]: _uniform(K, m) for i in rows], W.astype(float), sizes)

    def _screen_at(self, points: list, Wf: np.ndarray, sizes) -> dict[ClassSet, SetOptimality]:
        """The set strictly cheapest at each point, by the cells' certified enclosures. `points`: makers of the
        exact points (called for the winners only); `Wf`: the points times `sizes` as floats (K x B), exact or
        rounded, which the error bound covers."""
        out: dict[ClassSet, SetOptimality] = {}
        mids, rads = self.mids, self.rads
        if not (np.all(np.isfinite(mids)) and np.all(np.isfinite(rads))) or not points:
            return out
        columns = np.arange(len(points))
        centre = mids @ Wf
        error = rads @ Wf + (self.scheme.K + 4) * _U * (np.abs(mids) @ Wf) + _TINY
        low, high = centre - error, centre + error
        low, high = low - np.abs(low) * _U - _TINY, high + np.abs(high) * _U + _TINY
        best = centre.argmin(axis=0)
        mine = high[best, columns]
        low[best, columns] = np.inf
        gap = np.nextafter(np.nextafter(low.min(axis=0) - mine, -np.inf), -np.inf)
        for k in np.flatnonzero(gap > 0).tolist():
            m = self.sets[int(best[k])]
            if m in out:
                continue
            out[m] = SetOptimality(m, "alone", witness=points[k](),
                                   margin=sp.Rational(Fraction(float(gap[k]))) / int(sizes[k]), margin_is_bound=True)
        return out

    def _dominated(self, i: int) -> SetOptimality | None:
        """`never` by a single allowed set whose row is strictly below this one in every column."""
        p = self.members[i].astype(float) / self.members[i].sum()
        values = self.costs.search @ p
        values[i] = np.inf
        for j in np.argsort(values)[:_NEAR].tolist():
            if self.num is not None:
                strictly = bool(np.all(self.num[j] < self.num[i]))
            else:
                strictly = bool(np.all(self.hi[j] < self.lo[i]))
            if strictly:
                return SetOptimality(self.sets[i], "never", certificate={self.sets[j]: sp.Integer(1)})
        return None


EDGE_WEIGHTS = (sp.Rational(1, 4), sp.Rational(1, 2))  # the share of each of the two edge classes, at most


def _edges(K: int, members: ClassSet, weight: sp.Rational, kind):
    """A distribution on the set with `weight` (or less, for small sets) on its first and its last class, the
    rest spread evenly over the classes between: exact (kind sp.Integer) or as a float array (kind float)."""
    first, last, n = min(members), max(members), len(members)
    edge = min(weight, sp.Rational(2, n))
    inner = (1 - 2 * edge) / (n - 2)
    if kind is float:
        out = np.zeros(K)
        out[sorted(members)] = float(inner)
        out[[first, last]] = float(edge)
        return out
    zero = sp.Integer(0)
    return tuple(edge if y in (first, last) else inner if y in members else zero for y in range(K))


def _uniform(K: int, members: ClassSet) -> tuple[sp.Rational, ...]:
    share = sp.Rational(1, len(members))
    return tuple(share if y in members else sp.Integer(0) for y in range(K))
