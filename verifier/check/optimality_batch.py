"""Independent re-check of the optimality evidence of many sets at once (beyond a thousand sets, on arrays).

`check.optimality` reads every cell as an exact number first, which a family of thousands of sets cannot
afford; this reads the fast path's arrays instead, with its own arithmetic, as `check.possibility_batch`
does for Definition 4: exact integers (numpy int64 while no sum can reach 2^62, Python integers beyond) when
every cell involved is rational, else the cells' certified enclosures combined by outward-rounded sums
(Higham's bound). A witness must leave every other set strictly dearer (`alone`), or no cheaper (`tied`, with
the named ties exactly equal); a certificate's mixture must cost no more (less, for `never`) in every
column. What this cannot confirm goes to the checker's exact `sign_sum`, one comparison at a time; what that
cannot confirm becomes `unknown`.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

import numpy as np

from verifier.check.checker import Checker, _Unconfirmed
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import Scheme
from verifier.verdict import Optimal, SetOptimality

_U = 2.0 ** -52


def check_optimality_batch(scheme: Scheme, entries: dict[frozenset[int], SetOptimality],
                           checker: Checker | None = None, table: "_Arrays | None" = None) -> None:
    """Re-check in place; an entry whose evidence fails is downgraded to `unknown` with the reason. `table`
    (from `batch_table`, for many batches of one scheme): the arrays' views and per-row bounds, made once."""
    table = table or _Arrays(scheme, checker or Checker(scheme))
    settled = table.alone_at_once([e for e in entries.values() if e.status == Optimal.ALONE])
    for members, entry in list(entries.items()):
        if members in settled:
            continue
        try:
            table.check(entry)
        except _Unconfirmed as exc:
            entries[members] = SetOptimality(members, "unknown", reason=f"evidence not confirmed: {exc}")


def batch_table(scheme: Scheme, checker: Checker | None = None) -> "_Arrays":
    """What `check_optimality_batch` reads of the matrix, made once for all the batches of one scheme."""
    return _Arrays(scheme, checker or Checker(scheme))


class _Arrays:
    def __init__(self, scheme: Scheme, checker: Checker):
        self.scheme, self.checker = scheme, checker
        rows = scheme.cells.rows
        self.index = scheme.rows.index
        self.exact = np.asarray(rows.exact, dtype=bool)
        self.num = rows.num if rows.num is not None else None
        self.den = rows.den
        self.lo, self.hi = np.asarray(rows.lo, dtype=float), np.asarray(rows.hi, dtype=float)
        self._size: np.ndarray | None = None
        with np.errstate(all="ignore"):
            self.error = (scheme.K + 4) * _U * _row_max_size(self.lo, self.hi) * (1 + 4 * _U) + 1e-300 * scheme.K
        self.rational = bool(self.exact.all()) and self.num is not None
        if self.rational:
            num = np.asarray(self.num)
            self.largest = max(abs(int(num.max())), abs(int(num.min()))) if num.size else 0
            # the matrix's own int64 numerators when they are such (no copy of millions of cells)
            self.ints = np.asarray(num, dtype=np.int64) if num.dtype != object and self.largest < 2**62 \
                else num.astype(object)

    @property
    def size(self) -> np.ndarray:
        """max(|lo|, |hi|) per cell, made when a float comparison first needs it."""
        if self._size is None:
            self._size = np.maximum(np.abs(self.lo), np.abs(self.hi))
        return self._size

    def alone_at_once(self, entries: list[SetOptimality]) -> set[frozenset[int]]:
        """The `alone` entries whose witness leaves every other set strictly dearer, in one product (the rest
        go through `check`, one by one)."""
        K = self.scheme.K
        found = [(e.members, _integer_point(e.witness, K)) for e in entries if e.members in self.index]
        found = [(m, p) for m, p in found if p is not None]
        if self.rational and self.ints.dtype != object:  # only exact sums below 2^62 (Σ weights = q)
            found = [(m, p) for m, p in found if self.largest * p[2] < 2**62]
        elif self.rational:
            return set()
        if not found:
            return set()
        rows = np.arange(len(found))
        own = np.array([self.index[m] for m, _ in found])
        if self.rational:
            W = np.zeros((len(found), K), dtype=np.int64)
            for k, (_, (classes, weights, _)) in enumerate(found):
                W[k, classes] = weights
            if self.largest * max(p[2] for _, p in found) < 2**53:  # integers binary64 holds exactly, every
                values = _float_product(W.astype(float), self.ints)  # partial sum too: compared as they are
            else:
                values = W @ self.ints.T  # exact: every |sum| < 2^62
            mine = values[rows, own].copy()
            values[rows, own] = np.inf if values.dtype == float else np.iinfo(np.int64).max
            ok = values.min(axis=1) > mine
        else:
            W = np.zeros((len(found), K))
            for k, (_, (classes, weights, q)) in enumerate(found):
                W[k, classes] = np.array(weights, dtype=float) / q  # correctly rounded
            with np.errstate(all="ignore"):
                # Σ_y lo p (or hi p) is within (K + 4) u max_y |c| of the float product for any p with Σ p = 1
                # (p's rounding and the K-term sum, Higham); a lower bound of every set's cost, an upper one of Y's
                low = W @ self.lo.T
                low -= self.error
                low[rows, own] = np.inf
                low = low.min(axis=1)  # x - |x| u - tiny grows with x: rounding the least bound is rounding them all
                low -= np.abs(low) * _U + 1e-300
                high = np.einsum("ij,ij->i", W, self.hi[own]) + self.error[own]
                high += np.abs(high) * _U + 1e-300
                ok = low > high
        return {m for (m, _), good in zip(found, ok) if good}

    def check(self, entry: SetOptimality) -> None:
        s, members = self.scheme, entry.members
        if entry.status == Optimal.UNKNOWN:
            return
        if members not in self.index:
            raise _Unconfirmed(f"{s.label(members)} is not an allowed set")
        if entry.status in (Optimal.ALONE, Optimal.TIED):
            p = _distribution(entry.witness, s.K)
            if p is None:
                raise _Unconfirmed(f"the witness for {s.label(members)} is not a probability distribution")
            signs = self.signs(p, members)
            i = self.index[members]
            others = np.delete(signs, i)
            if entry.status == Optimal.ALONE and not (others == 1).all():
                raise _Unconfirmed(f"{s.label(members)} is not the unique minimiser at its witness")
            if entry.status == Optimal.TIED:
                if (others < 0).any():
                    raise _Unconfirmed(f"{s.label(members)} is not a minimiser at its witness")
                if not entry.tied_with or any(z not in self.index or z == members or signs[self.index[z]] != 0
                                              for z in entry.tied_with):
                    raise _Unconfirmed(f"the sets said to tie with {s.label(members)} do not tie")
        if entry.status in (Optimal.TIED, Optimal.NEVER):
            self._certificate(entry, strict=entry.status == Optimal.NEVER)

    def signs(self, p: list[Fraction], members) -> np.ndarray:
        """The exact sign of E_p[c_Z] − E_p[c_Y] for every allowed set Z."""
        i = self.index[members]
        if self.rational:
            q = lcm(*(x.denominator for x in p))
            w = [x.numerator * (q // x.denominator) for x in p]
            if self.ints.dtype != object and self.largest * sum(w) < 2**62:
                values = self.ints @ np.array(w, dtype=np.int64)
            else:
                values = self.ints.astype(object) @ np.array(w, dtype=object)
            return np.sign(np.array([int(v - values[i]) for v in values]) if values.dtype == object
                           else values - values[i]).astype(int)
        weights = np.array([float(x) for x in p])
        error = (len(p) + 4) * _U * (self.size @ weights) + 1e-300 * len(p)
        low, high = self.lo @ weights - error, self.hi @ weights + error
        above, below = low > high[i], high < low[i]
        out = above.astype(int) - below.astype(int)
        rows = self.scheme.rows
        for j in np.flatnonzero(~(above | below)).tolist():  # overlapping enclosures: exactly, one by one
            if j != i:
                z = rows.members(j)
                terms = [(_rational(x), rows[z][y]) for y, x in enumerate(p) if x] + \
                    [(-_rational(x), rows[members][y]) for y, x in enumerate(p) if x]
                out[j] = self.checker.sign_sum(terms)
        out[i] = 0
        return out

    def _certificate(self, entry: SetOptimality, strict: bool) -> None:
        s, members = self.scheme, entry.members
        lam = entry.certificate if isinstance(entry.certificate, dict) else None
        if not lam or members in lam or any(z not in self.index for z in lam) \
                or any(not isinstance(v, sp.Rational) or v < 0 for v in lam.values()) or sum(lam.values()) != 1:
            raise _Unconfirmed(f"the certificate for {s.label(members)} is not a mixture of other sets")
        i, used = self.index[members], [self.index[z] for z in lam]
        weights = [Fraction(int(v.p), int(v.q)) for v in lam.values()]
        if self.exact[[i] + used].all() and self.num is not None:  # c_Y − Σ λ c_Z in integers
            q = lcm(*(w.denominator for w in weights))
            slack = [q * int(self.num[i, y]) - sum(w.numerator * (q // w.denominator) * int(self.num[j, y])
                                                   for w, j in zip(weights, used)) for y in range(s.K)]
            signs = [(x > 0) - (x < 0) for x in slack]
        else:
            w = np.array([float(x) for x in weights])
            mix_hi = np.nextafter(w @ self.hi[used], np.inf) + (len(used) + 4) * _U * (w @ self.size[used]) + 1e-300
            gap = np.nextafter(self.lo[i] - mix_hi, -np.inf)
            signs = [1 if g > 0 else None for g in gap]
            rows = s.rows
            for y, sign in enumerate(signs):
                if sign is None:  # the enclosures do not decide this column: exactly
                    terms = [(sp.Integer(1), rows[members][y])] + [(-v, rows[z][y]) for z, v in lam.items() if v]
                    signs[y] = self.checker.sign_sum(terms)
        for y, sign in enumerate(signs):
            if sign < 0 or (strict and sign == 0):
                raise _Unconfirmed(f"the certificate for {s.label(members)} fails at y = {s.classes[y]}")


ROWS_AT_ONCE = 1 << 20  # cells of the matrix converted at a time (8 MB of floats)


def _row_max_size(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """max_y max(|lo|, |hi|) of each row, a slice of rows at a time (no matrix-sized temporary)."""
    step = max(1, ROWS_AT_ONCE // max(1, lo.shape[1]))
    return np.concatenate([np.maximum(np.abs(lo[a:a + step]), np.abs(hi[a:a + step])).max(axis=1, initial=0.0)
                           for a in range(0, lo.shape[0], step)]) if lo.shape[0] else np.zeros(0)


def _float_product(W: np.ndarray, ints: np.ndarray) -> np.ndarray:
    """W @ ints.T in binary64, the integers converted a slice of rows at a time."""
    out = np.empty((W.shape[0], ints.shape[0]))
    step = max(1, ROWS_AT_ONCE // max(1, ints.shape[1]))
    for a in range(0, ints.shape[0], step):
        out[:, a:a + step] = W @ ints[a:a + step].astype(float).T
    return out


def _distribution(witness, K: int) -> list[Fraction] | None:
    if witness is None or len(witness) != K:
        return None
    out = []
    for x in witness:  # read off the numerator and denominator: no sympy arithmetic per entry
        if isinstance(x, int) and not isinstance(x, bool):
            value = Fraction(x)
        elif isinstance(x, sp.Rational):
            value = _ZERO if x.p == 0 else Fraction(int(x.p), int(x.q))
        else:
            return None
        if value < 0:
            return None
        out.append(value)
    return out if sum(out) == 1 else None


_ZERO = Fraction(0)


def _integer_point(witness, K: int) -> tuple[list[int], list[int], int] | None:
    """(classes, integer weights, q) with p(y) = weight / q exactly, or None when the witness is not a
    probability distribution: integers only, no rational arithmetic per entry."""
    if witness is None or len(witness) != K:
        return None
    classes, pairs, zero = [], [], sp.S.Zero
    for y, x in enumerate(witness):
        if x is zero:
            continue
        if isinstance(x, int) and not isinstance(x, bool):
            n, d = x, 1
        elif isinstance(x, sp.Rational):
            n, d = int(x.p), int(x.q)
        else:
            return None
        if n < 0:
            return None
        if n:
            classes.append(y)
            pairs.append((n, d))
    q = lcm(*(d for _, d in pairs)) if pairs else 1
    weights = [n * (q // d) for n, d in pairs]
    return (classes, weights, q) if sum(weights) == q else None


def _rational(x: Fraction) -> sp.Rational:
    return sp.Rational(x.numerator, x.denominator)
