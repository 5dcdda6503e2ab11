"""The property terms (c_Y(y), c̄_Y(y), min, max, C_Y(y)) for every indeterminate set and class at once.

Arrays are indexed [s, y] with s over the indeterminate sets in the paper's table order. Sums over members
are one matrix product: exact in integers where the cells are exact, and in floats widened by the rounding
bound of a K-term sum (|fl(Σ) − Σ| <= γ_K Σ|x|, γ_K = Ku/(1 − Ku), Higham, Accuracy and Stability, §3.1).
Multisets C_Y(y) get exact keys: the distinct determinate costs are numbered (equal numbers, equal cost,
decided exactly), and a key packs how often each number occurs, in base K + 1, so equal keys mean equal
multisets and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from verifier.formula.cells import UNDECIDED, Cells, compare, where
from verifier.scheme.cells import SchemeCells

_U = 2.0**-53
_DIGITS_PER_KEY = 15  # (K + 1)^15 < 2^62 for K <= 16


class TermArrays:
    def __init__(self, cells: SchemeCells, same_cost: Callable[[int, int, int, int], bool]):
        """`same_cost(h, y, h2, y2)` decides exactly whether two determinate costs are equal (when the
        enclosures cannot)."""
        K = cells.K
        self.K = K
        self.members = cells.members[K:]
        self.sizes = cells.sizes[K:]
        self.cost = cells.rows.take(slice(K, None))
        self.det = cells.singletons
        self._same_cost = same_cost
        self._cache: dict[str, object] = {}

    @property
    def count(self) -> int:
        return len(self.members)

    def value(self, kind: str) -> Cells:
        if kind not in self._cache:
            self._cache[kind] = {"cost": lambda: self.cost, "mean": self._mean, "min": lambda: self._extreme("min"),
                                 "max": lambda: self._extreme("max")}[kind]()
        return self._cache[kind]

    def member_sums(self) -> Cells:
        """Σ_{ŷ in Y} c_ŷ(y), [s, y]."""
        if "sum" not in self._cache:
            self._cache["sum"] = member_sums(self.members, self.det)
        return self._cache["sum"]

    def _mean(self) -> Cells:
        return self.member_sums() * Cells.from_exact(self.sizes.reshape(-1, 1), 1).reciprocal()

    def _extreme(self, kind: str) -> Cells:
        out, seen = None, None
        for h in range(self.K):
            here = self.members[:, h:h + 1]
            row = self.det.take(slice(h, h + 1))  # (1, K)
            if out is None:
                out, seen = row.broadcast((self.count, self.K)), np.broadcast_to(here, (self.count, 1))
                continue
            better = row.minimum(out) if kind == "min" else row.maximum(out)
            out = where(here & ~seen, row, where(here, better, out))
            seen = seen | here
        return out

    # -- multisets -------------------------------------------------------------------------------------------
    def multiset_keys(self) -> np.ndarray:
        """[s, y, part]: equal along the last axis exactly when the multisets C_Y(y) are equal."""
        if "keys" not in self._cache:
            ids = self._cost_numbers()
            distinct = int(ids.max()) + 1
            parts = []
            base = self.K + 1
            for start in range(0, distinct, _DIGITS_PER_KEY):
                weight = np.zeros(distinct, dtype=np.int64)
                span = range(start, min(distinct, start + _DIGITS_PER_KEY))
                weight[list(span)] = base ** np.arange(len(span), dtype=np.int64)
                parts.append(self.members.astype(np.int64) @ weight[ids])  # [s, y]
            self._cache["keys"] = np.stack(parts, axis=-1)
        return self._cache["keys"]

    def _cost_numbers(self) -> np.ndarray:
        """[h, y] -> a number per distinct exact value of the determinate costs."""
        K, det = self.K, self.det
        ids = np.full((K, K), -1, dtype=np.int64)
        representatives: list[tuple[int, int]] = []
        order = np.lexsort((det.hi.reshape(-1), det.lo.reshape(-1)))
        for flat in order:
            h, y = divmod(int(flat), K)
            for number, (h2, y2) in enumerate(representatives):
                truth = compare(det.take((h, y)), "==", det.take((h2, y2)))
                if truth == UNDECIDED:
                    truth = int(self._same_cost(h, y, h2, y2))
                if truth == 1:
                    ids[h, y] = number
                    break
            else:
                ids[h, y] = len(representatives)
                representatives.append((h, y))
        return ids


def member_sums(members: np.ndarray, det: Cells) -> Cells:
    """Σ_{ŷ in Y} c_ŷ(y) for the sets of `members` (rows) and every class y."""
    K = det.shape[0]
    m = members.astype(np.float64)
    gamma = K * _U / (1 - K * _U)
    with np.errstate(over="ignore", invalid="ignore"):
        lo = m @ det.lo - gamma * (m @ np.abs(det.lo)) * (1 + 2.0**-50) - K * 2.0**-1074
        hi = m @ det.hi + gamma * (m @ np.abs(det.hi)) * (1 + 2.0**-50) + K * 2.0**-1074
    out = Cells.enclosure(np.nextafter(lo, -np.inf), np.nextafter(hi, np.inf))
    exact = (members.astype(np.int64) @ (~det.exact).astype(np.int64)) == 0
    if det.num is None or not exact.any():
        return out
    num = np.where(det.exact, det.num, 0)
    if num.dtype != object and int(np.abs(num).max(initial=0)) * K < 2**62:
        total = members.astype(np.int64) @ num.astype(np.int64)
    else:
        total = members.astype(object) @ num.astype(object)
    sums = Cells.from_exact(np.where(exact, total, 0), det.den, exact)
    return Cells(np.where(exact, np.maximum(out.lo, sums.lo), out.lo), np.where(exact, np.minimum(out.hi, sums.hi),
                 out.hi), sums.num, sums.den, exact)
