"""Independent re-check of every set's optimality evidence (alone / tied / never).

Shares no arithmetic with the engines: rational schemes are scaled to integers and multiplied with numpy int64
(or Python integers when the bound of 2^62 could be passed); other schemes use float bounds of each distinct
cell (outward-rounded IEEE arithmetic, `float_bounds`, else the checker's mpmath intervals), products widened
by a proven rounding bound (Higham's γ_n), and the rare undecided comparison goes to the checker's exact
`sign_sum`. Evidence that does not survive becomes `unknown`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from math import lcm

import numpy as np

from verifier.check.checker import Checker, _Unconfirmed
from verifier.check.float_bounds import float_bounds
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import Scheme
from verifier.verdict import Optimal, SetOptimality

_UNIT = 2.0 ** -52


def check_optimality(scheme: Scheme, entries: dict[frozenset[int], SetOptimality],
                     checker: Checker | None = None) -> None:
    """Re-check in place; an entry whose evidence fails is downgraded to `unknown` with the reason."""
    table = _Table(scheme, checker or Checker(scheme))
    settled = table.alone_at_once([e for e in entries.values() if e.status == Optimal.ALONE])
    for members, entry in entries.items():
        if members in settled:
            continue
        try:
            table.check(entry)
        except _Unconfirmed as exc:
            entries[members] = SetOptimality(members, "unknown", reason=f"evidence not confirmed: {exc}")


class _Table:
    def __init__(self, scheme: Scheme, checker: Checker):
        self.scheme, self.checker = scheme, checker
        self.sets = scheme.all_sets
        self.index = {m: i for i, m in enumerate(self.sets)}
        cells = [scheme.rows[m] for m in self.sets]
        self.rational = all(v.is_Rational for row in cells for v in row)
        if self.rational:
            scale = lcm(*(int(v.q) for row in cells for v in row))
            ints = [[int(v.p) * (scale // int(v.q)) for v in row] for row in cells]
            self.largest = max(abs(x) for row in ints for x in row)
            self.ints = np.array(ints, dtype=object)
            self.ints64 = np.array(ints, dtype=np.int64) if self.largest < 2 ** 62 else None
        else:
            ends: dict = {}  # per distinct value: a 9-class matrix has 4,599 cells and 753 values
            self.low, self.high = np.empty((len(cells), scheme.K)), np.empty((len(cells), scheme.K))
            for r, row in enumerate(cells):
                for y, v in enumerate(row):
                    pair = ends.get(v)
                    if pair is None:
                        pair = float_bounds(v)
                        if pair is None:  # outside the float rules: the mpmath interval
                            box = self.checker._cell(v)
                            pair = (_down(float(box.a)), _up(float(box.b)))
                        ends[v] = pair
                    self.low[r, y], self.high[r, y] = pair
            self.size = np.maximum(np.abs(self.low), np.abs(self.high))

    def alone_at_once(self, entries: list[SetOptimality]) -> set[frozenset[int]]:
        """The `alone` entries whose witness shows them strictly cheapest, all in one matrix product (the
        same bounds as `signs`, column by column); the rest go through `check`, one by one."""
        K, witnesses = self.scheme.K, []
        for entry in entries:
            p = _rationals(entry.witness)
            if p is not None and len(p) == K and all(x.p >= 0 for x in p) and sum(map(_fraction, p)) == 1:
                witnesses.append((entry.members, p))
        if not witnesses:
            return set()
        own = np.array([self.index[m] for m, _ in witnesses])
        columns = np.arange(len(witnesses))
        if self.rational:
            if self.ints64 is None:
                return set()
            weights = []
            for _, p in witnesses:
                denominator = lcm(*(int(x.q) for x in p))
                weights.append([int(x.p) * (denominator // int(x.q)) for x in p])
            if any(self.largest * sum(w) >= 2 ** 62 for w in weights):
                return set()
            values = self.ints64 @ np.array(weights, dtype=np.int64).T  # E_p[c_Z], scaled, one column per entry
            mine = values[own, columns]
            low = values.copy()
            low[own, columns] = np.iinfo(np.int64).max
            ok = low.min(axis=0) > mine
        else:
            W = np.array([[int(x.p) / int(x.q) for x in p] for _, p in witnesses]).T
            error = (K + 4) * _UNIT * (self.size @ W) + 1e-300 * K
            low, high = self.low @ W - error, self.high @ W + error
            mine = high[own, columns]
            low[own, columns] = np.inf
            ok = low.min(axis=0) > mine
        return {m for (m, _), good in zip(witnesses, ok) if good}

    def check(self, entry: SetOptimality) -> None:
        s, members = self.scheme, entry.members
        if entry.status in (Optimal.ALONE, Optimal.TIED):
            p = _rationals(entry.witness)
            if p is None or len(p) != s.K or any(x.p < 0 for x in p) or sum(map(_fraction, p)) != 1:
                raise _Unconfirmed(f"the witness for {s.label(members)} is not a probability distribution")
            signs = self.signs(p, members)  # its own entry is 0
            if entry.status == Optimal.ALONE and signs.count(1) != len(signs) - 1:
                raise _Unconfirmed(f"{s.label(members)} is not the unique minimiser at its witness")
            if entry.status == Optimal.TIED:
                if min(signs) < 0:
                    raise _Unconfirmed(f"{s.label(members)} is not a minimiser at its witness")
                if not entry.tied_with or any(signs[self.index[z]] != 0 for z in entry.tied_with):
                    raise _Unconfirmed(f"the sets said to tie with {s.label(members)} do not tie")
        if entry.status in (Optimal.TIED, Optimal.NEVER):
            self._certificate(entry, strict=entry.status == Optimal.NEVER)

    def _certificate(self, entry: SetOptimality, strict: bool) -> None:
        s, members = self.scheme, entry.members
        weights = _rationals(list(entry.certificate.values())) if isinstance(entry.certificate, dict) else None
        lam = dict(zip(entry.certificate, weights)) if weights is not None else None
        if not lam or members in lam or any(z not in s.rows for z in lam) or any(v < 0 for v in lam.values()) \
                or sum(lam.values()) != 1:
            raise _Unconfirmed(f"the certificate for {s.label(members)} is not a mixture of other sets")
        for y in range(s.K):
            terms = [(sp.Integer(1), s.rows[members][y])] + [(-k, s.rows[z][y]) for z, k in lam.items() if k]
            sign = self.checker.sign_sum(terms)
            if sign < 0 or (strict and sign == 0):
                raise _Unconfirmed(f"the certificate for {s.label(members)} fails at y = {s.classes[y]}")

    def signs(self, p, members) -> list[int]:
        """The sign of E_p[c_Z] − E_p[c_Y] for every set Z."""
        i = self.index[members]
        if self.rational:
            denominator = lcm(*(int(x.q) for x in p))
            weights = [int(x.p) * (denominator // int(x.q)) for x in p]
            if self.ints64 is not None and self.largest * sum(weights) < 2 ** 62:
                values = self.ints64 @ np.array(weights, dtype=np.int64)
                return np.sign(values - values[i]).tolist()  # |values| < 2^62: the difference cannot overflow
            values = self.ints @ np.array(weights, dtype=object)
            mine = values[i]
            return [int(v > mine) - int(v < mine) for v in values]
        weights = np.array([int(x.p) / int(x.q) for x in p])
        error = (len(p) + 4) * _UNIT * (self.size @ weights) + 1e-300 * len(p)
        low, high = self.low @ weights - error, self.high @ weights + error
        above, below = low > high[i], high < low[i]
        out = (above.astype(int) - below.astype(int)).tolist()
        rows = self.scheme.rows
        for j in np.flatnonzero(~(above | below)).tolist():  # the enclosures overlap: exactly
            if j != i:
                z = self.sets[j]
                terms = [(x, rows[z][y]) for y, x in enumerate(p) if x] + \
                    [(-x, rows[members][y]) for y, x in enumerate(p) if x]
                out[j] = self.checker.sign_sum(terms)
        out[i] = 0
        return out


def _rationals(values) -> tuple[sp.Rational, ...] | None:
    """Exact rationals, or None when any value is not one (tampered or malformed evidence)."""
    if values is None:
        return None
    out = []
    for x in values:
        value = sp.Integer(x) if isinstance(x, int) and not isinstance(x, bool) else x
        if not isinstance(value, sp.Rational):
            return None
        out.append(value)
    return tuple(out)


def _fraction(x: sp.Rational) -> Fraction:
    return Fraction(int(x.p), int(x.q))


def _down(x: float) -> float:
    return math.nextafter(x, -math.inf)


def _up(x: float) -> float:
    return math.nextafter(x, math.inf)
