"""Independent re-check of every set's optimality evidence (alone / tied / never).

Shares no arithmetic with the engines: rational schemes are scaled to integers and multiplied with numpy int64
(or Python integers when the bound of 2^62 could be passed); other schemes use the checker's mpmath interval
cells, turned into float bounds widened by a proven rounding bound (Higham's γ_n), and the rare undecided
comparison goes to the checker's exact `sign_sum`. Evidence that does not survive becomes `unknown`.
"""

from __future__ import annotations

import math
from math import lcm

import numpy as np
import sympy as sp

from verifier.check.checker import Checker, _Unconfirmed
from verifier.scheme import Scheme
from verifier.verdict import SetOptimality

_UNIT = 2.0 ** -52


def check_optimality(scheme: Scheme, entries: dict[frozenset[int], SetOptimality],
                     checker: Checker | None = None) -> None:
    """Re-check in place; an entry whose evidence fails is downgraded to `unknown` with the reason."""
    table = _Table(scheme, checker or Checker(scheme))
    for members, entry in entries.items():
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
            boxes = [[self.checker._cell(v) for v in row] for row in cells]
            self.low = np.array([[_down(float(b.a)) for b in row] for row in boxes])
            self.high = np.array([[_up(float(b.b)) for b in row] for row in boxes])
            self.size = np.maximum(np.abs(self.low), np.abs(self.high))

    def check(self, entry: SetOptimality) -> None:
        s, members = self.scheme, entry.members
        if entry.status in ("alone", "tied"):
            p = _rationals(entry.witness)
            if p is None or len(p) != s.K or any(x < 0 for x in p) or sum(p) != 1:
                raise _Unconfirmed(f"the witness for {s.label(members)} is not a probability distribution")
            signs = self.signs(p, members)
            others = [(z, sign) for z, sign in zip(self.sets, signs) if z != members]
            if entry.status == "alone" and any(sign != 1 for _, sign in others):
                raise _Unconfirmed(f"{s.label(members)} is not the unique minimiser at its witness")
            if entry.status == "tied":
                if any(sign < 0 for _, sign in others):
                    raise _Unconfirmed(f"{s.label(members)} is not a minimiser at its witness")
                if not entry.tied_with or any(signs[self.index[z]] != 0 for z in entry.tied_with):
                    raise _Unconfirmed(f"the sets said to tie with {s.label(members)} do not tie")
        if entry.status in ("tied", "never"):
            self._certificate(entry, strict=entry.status == "never")

    def _certificate(self, entry: SetOptimality, strict: bool) -> None:
        s, members = self.scheme, entry.members
        weights = _rationals(list(entry.certificate.values())) if isinstance(entry.certificate, dict) else None
        lam = dict(zip(entry.certificate, weights)) if weights is not None else None
        if not lam or members in lam or any(z not in s.rows for z in lam) or any(v < 0 for v in lam.values()) or sum(lam.values()) != 1:
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
            else:
                values = self.ints @ np.array(weights, dtype=object)
            mine = values[i]
            return [int(v > mine) - int(v < mine) for v in values]
        weights = np.array([float(x) for x in p])
        error = (len(p) + 4) * _UNIT * (self.size @ weights) + 1e-300 * len(p)
        low, high = self.low @ weights - error, self.high @ weights + error
        out = []
        for j, z in enumerate(self.sets):
            if j == i:
                out.append(0)
            elif low[j] > high[i]:
                out.append(1)
            elif high[j] < low[i]:
                out.append(-1)
            else:
                rows = self.scheme.rows
                terms = [(x, rows[z][y]) for y, x in enumerate(p) if x] + [(-x, rows[members][y]) for y, x in enumerate(p) if x]
                out.append(self.checker.sign_sum(terms))
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


def _down(x: float) -> float:
    return math.nextafter(x, -math.inf)


def _up(x: float) -> float:
    return math.nextafter(x, math.inf)
