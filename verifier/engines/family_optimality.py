"""Optimality of every set of a restricted family beyond a thousand sets (up to 100,000: intervals,
hierarchies, listed sets, `{max_size: k}`), batch by batch, on the fast path's arrays.

Three exact steps, the cheap ones first:
  1. points built from each set's own classes (uniform on it, weighted towards its first and last class), then
     its Definition 4 witness: one product per batch of points decides which set is strictly cheapest at each
     (`engines.family_witnesses`: exact integers for rational schemes, the cells' certified enclosures
     otherwise): `alone`, with the exact margin (rational) or a certified lower bound;
  2. dominance: a set whose row is strictly above another allowed set's row in every column (checked exactly,
     against the few sets cheapest at its uniform distribution) is `never`, with that set as certificate;
  3. the rest: the cutting-plane LP of `engines.optimality`, whose witnesses and certificates are rationalised
     and confirmed exactly, as for a thousand sets.
The caller (`analysis.optimality_route`) re-checks each batch independently and bounds the time; floats only
search here.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from functools import cached_property

import numpy as np

from verifier.engines.automorphisms import class_automorphisms, orbits
from verifier.engines.expected import ExpectedCosts
from verifier.engines.family_witnesses import SHAPES, Screen, exact_point, shape_point
from verifier.engines.optimality import _confirm_alone, _decide, _fraction, _moved, _search
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import ClassSet, Scheme
from verifier.verdict import Optimal, SetOptimality

_NEAR = 8  # sets tried as a single dominating row, the cheapest at the set's uniform distribution


class FamilyOptimality:
    """Decides the sets of a large numeric scheme on arrays, a batch at a time (`batches`)."""

    def __init__(self, scheme: Scheme, hints: dict[ClassSet, tuple] | None = None):
        self.scheme, self.hints = scheme, hints or {}
        rows = scheme.cells.rows
        self.sets: list[ClassSet] = scheme.all_sets  # the order of `ExpectedCosts`, made only if needed
        self.index = {m: i for i, m in enumerate(self.sets)}
        self.members = np.zeros((len(self.sets), scheme.K), dtype=bool)
        for i, m in enumerate(self.sets):
            self.members[i, sorted(m)] = True
        self.num = None
        if rows.exact.all() and rows.num is not None and np.asarray(rows.num).dtype != object:
            num = np.asarray(rows.num, dtype=np.int64)
            if int(np.abs(num).max(initial=0)) * scheme.K < 2**62:  # sums of K cells stay exact in int64
                self.num, self.den = num, rows.den
        self.lo, self.hi = np.asarray(rows.lo, dtype=float), np.asarray(rows.hi, dtype=float)
        self.solutions: dict = {}  # the LP solution of each set searched, moved along the relabellings
        # points per product: up to 2 M floats of expected costs at once (e.g. 396 points x 5,050 sets; 16 MB,
        # and as much in the re-check's own product)
        self.batch = int(max(8, min(1024, 2_000_000 // max(1, len(self.sets)))))

    def batches(self) -> Iterator[dict[ClassSet, SetOptimality]]:
        """Every set's entry, a batch at a time: first the sets found strictly cheapest at a point built from
        some set's own classes (`engines.family_witnesses`), then at their Definition 4 witnesses, then the
        others (dominance, LPs), in table order."""
        if len(self.sets) == 1:
            yield {self.sets[0]: SetOptimality(self.sets[0], "alone", witness=(sp.Integer(1),))}
            return
        found: set[ClassSet] = set()
        screen = Screen(self.scheme, self.sets)
        for shape in SHAPES:
            points = [point for point in (shape_point(m, shape) for m in self.sets if m not in found) if point]
            points += [] if shape != SHAPES[-1] else [  # and each set's Definition 4 witness
                exact_point(p) for m, p in self.hints.items()
                if p is not None and m in self.index and m not in found]
            for start in range(0, len(points), self.batch):
                batch = {m: e for m, e in screen.alone(points[start:start + self.batch]).items() if m not in found}
                found.update(batch)
                if batch:
                    yield batch
        del screen  # its arrays are freed before the LPs' own are made
        rest = [m for m in self.sets if m not in found]
        moves = class_automorphisms(self.sets, self.costs.floats, self.scheme.K) if rest else []
        orbit = orbits(rest, moves)  # one LP per orbit of the matrix's relabellings (reversing ordinal classes)
        first = [self.index[m] for m in rest if orbit[m][1] is None]
        decided: dict[ClassSet, SetOptimality] = {}
        for start in range(0, len(first), self.batch):
            batch = self.decide(first[start:start + self.batch])
            decided.update(batch)
            yield batch
        moved = {m: self._moved(m, decided[orbit[m][0]], orbit[m][1]) for m in rest if orbit[m][1] is not None}
        retry = [self.index[m] for m, e in moved.items() if e is None or e.status == Optimal.UNKNOWN]
        done = {m: e for m, e in moved.items() if e is not None and e.status != Optimal.UNKNOWN}
        for start in range(0, len(done), self.batch):
            yield dict(list(done.items())[start:start + self.batch])
        for start in range(0, len(retry), self.batch):
            yield self.decide(retry[start:start + self.batch])

    @cached_property
    def costs(self) -> ExpectedCosts:
        """The expected-cost engine of the LPs and dominance (matrix-sized arrays): made for the sets the
        screen leaves, never when it finds every set alone."""
        return ExpectedCosts(self.scheme)

    def _moved(self, members: ClassSet, start: SetOptimality, sigma) -> SetOptimality | None:
        """The representative's answer along σ, confirmed exactly (None: the set goes to its own LP)."""
        if start.status == Optimal.ALONE:
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
