"""The property terms (c_Y(y), c̄_Y(y), min, max, C_Y(y)) for every indeterminate set and class at once.

Arrays are indexed [s, y] with s over the indeterminate sets in the paper's table order. Sums over members
are one matrix product: exact in integers where the cells are exact, and in floats widened by the rounding
bound of a K-term sum (|fl(Σ) − Σ| <= γ_K Σ|x|, γ_K = Ku/(1 − Ku), Higham, Accuracy and Stability, §3.1).
Multisets C_Y(y) get exact keys: the distinct determinate costs are numbered (equal numbers, equal cost,
decided exactly), and a key packs how often each number occurs, in base K + 1, so equal keys mean equal
multisets and nothing else.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from verifier.formula.cells import UNDECIDED, Cells, compare
from verifier.formula.rationals import SAFE, CellsError, magnitude, scale
from verifier.scheme.cells import SchemeCells

_U = 2.0**-53
CHUNK_CELLS = 1 << 19  # sets x classes per chunk of the arrays made from the matrix
BY_ROWS_CELLS = 1 << 17  # the same for a derived array's arithmetic: a dozen temporaries of a chunk at once
# up to this many cells (indeterminate sets x classes) every derived array is kept once made, and shared by the
# decisions and the repairs (`shared_terms`): 13 MB a term at most, where the 100-class intervals' mean, made
# four times over, took a tenth of the whole JSON run; beyond, each is freed when no coming property reads it
KEEP_CELLS = 1 << 19


def shared_terms(cells: SchemeCells, same_cost: Callable[[int, int, int, int], bool]) -> "TermArrays":
    """The term arrays of a matrix: one set per matrix up to KEEP_CELLS cells, kept on it; a fresh one beyond."""
    found = cells.derived.get("terms")
    if found is not None:
        return found
    terms = TermArrays(cells, same_cost)
    if terms.kept:
        cells.derived["terms"] = terms
    return terms


class TermArrays:
    """The property terms for every indeterminate set and class at once, as arrays [s, y] (see the module docstring)."""

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
        self.kept = self.count * K <= KEEP_CELLS  # small: every derived array stays once made

    @property
    def count(self) -> int:
        """The number of indeterminate sets."""
        return len(self.members)

    def value(self, kind: str) -> Cells:
        """c_Y(y) ("cost") or the members' mean, min or max, [s, y]. Each derived term is as large as the matrix
        (25 bytes a cell), made on first use and kept (the repairs read them cell by cell); `keep` frees the ones the
        next properties do not read, `forget` all of them."""
        if kind == "cost":
            return self.cost
        if kind == "mean":
            return self.cached("mean", self._mean)
        return self.cached(kind, lambda: self._extreme(kind))

    def cached(self, name: str, make):
        """A derived array, made once per scheme (several properties read the same one)."""
        if name not in self._cache:
            self._cache[name] = make()
        return self._cache[name]

    def forget(self) -> None:
        """Drop the derived arrays (sums, means, extremes, ids: each as large as the matrix); made again on use.
        A small matrix's (`kept`) stay."""
        if not self.kept:
            self._cache.clear()

    def keep(self, kinds: set[str], pair_domains: set[str]) -> None:
        """Keep only the derived arrays still wanted: the means, minima and maxima the next properties compare
        (`kinds`; made again in one matrix product when read later) and the ids of properties over two classes
        still to come (`pair_domains`, their domains of y; slower to make again, 8 bytes a cell each), so
        that at most one 25-byte-a-cell term is alive. The K x K cost numbers stay (small)."""
        if self.kept:
            return
        wanted = {"det_ids"} | (kinds & {"mean", "min", "max"})  # a mean not made yet is made from its own sums
        if pair_domains or "sorted" in kinds:
            wanted |= {"keys", "multiset_ids"}
        for name in list(self._cache):
            kept = name[1] in pair_domains if isinstance(name, tuple) else name in wanted
            if not kept:
                del self._cache[name]

    def member_sums(self) -> Cells:
        """Σ_{ŷ in Y} c_ŷ(y), [s, y]."""
        if "sum" not in self._cache:
            self._cache["sum"] = member_sums(self.members, self.det)
        return self._cache["sum"]

    def _mean(self) -> Cells:
        inverse = Cells.from_exact(self.sizes.reshape(-1, 1), 1).reciprocal()
        sums = self._cache.pop("sum", None)  # read again only through the mean (Definition 4's sums come first)
        if sums is not None:
            return by_rows(self.count, self.K, lambda rows: sums.take(rows) * inverse.take(rows))
        # each chunk's sums made and divided at once: the sums and the mean are never both whole
        return by_rows(self.count, self.K, lambda rows: _member_sums(self.members[rows], self.det)
                       * inverse.take(rows))

    def _extreme(self, kind: str) -> Cells:
        """min or max over each set's members, sets of one size at a time, from the members' gathered rows
        (Σ|Y| x K numbers: a family of a few thousand sets at 1,000 classes, not sets x K x K)."""
        S, K, det = self.count, self.K, self.det
        lo, hi, exact = np.empty((S, K)), np.empty((S, K)), np.zeros((S, K), bool)
        num = None if det.num is None else np.zeros((S, K), dtype=np.asarray(det.num).dtype)
        for size, rows, index in chunked(member_lists(self.members), max(1, CHUNK_CELLS // K)):
            out = det.take(index[:, 0])
            for i in range(1, size):
                row = det.take(index[:, i])
                out = out.minimum(row) if kind == "min" else out.maximum(row)
            lo[rows], hi[rows], exact[rows] = out.lo, out.hi, out.exact
            if num is not None and out.exact.any():  # picked among the members' own cells: one denominator
                if out.den != det.den:
                    raise CellsError("min/max of cells over different denominators")
                num[rows] = np.where(out.exact, out.num, 0)
        return Cells(lo, hi, num, det.den, exact)

    # -- multisets -------------------------------------------------------------------------------------------
    def multiset_keys(self) -> np.ndarray:
        """[s, y, part]: equal along the last axis exactly when the multisets C_Y(y) are equal."""
        if "keys" not in self._cache:
            ids = self.det_ids()
            distinct = int(ids.max()) + 1
            parts = []
            base = self.K + 1
            digits = _digits_per_key(self.K)
            for start in range(0, distinct, digits):
                weight = np.zeros(distinct, dtype=np.int64)
                span = range(start, min(distinct, start + digits))
                weight[list(span)] = base ** np.arange(len(span), dtype=np.int64)
                parts.append(self.members.astype(np.int64) @ weight[ids])  # [s, y]
            self._cache["keys"] = np.stack(parts, axis=-1)
        return self._cache["keys"]

    def det_ids(self) -> np.ndarray:
        """[h, y] -> a number per distinct exact value of the determinate costs (0, 1, ...)."""
        if "det_ids" not in self._cache:
            det = self.det
            if det.num is not None and det.exact.all():  # rationals over one denominator: equal numerators
                self._cache["det_ids"] = np.unique(np.asarray(det.num), return_inverse=True)[1].reshape(self.K, self.K)
            else:
                self._cache["det_ids"] = self._cost_numbers()
        return self._cache["det_ids"]

    def _cost_numbers(self) -> np.ndarray:
        """[h, y] -> a number per distinct exact value of the determinate costs, pair by pair."""
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


def member_lists(members: np.ndarray):
    """(size, rows, index): the sets (rows of `members`) of each size and their member classes, in class order."""
    sizes = members.sum(axis=1)
    for size in np.unique(sizes):
        rows = np.flatnonzero(sizes == size)
        yield int(size), rows, np.nonzero(members[rows])[1].reshape(len(rows), int(size))


def chunked(lists, step: int):
    """`member_lists` in chunks of at most `step` sets."""
    for size, rows, index in lists:
        for start in range(0, len(rows), step):
            yield size, rows[start:start + step], index[start:start + step]


def _digits_per_key(K: int) -> int:
    """How many base-(K + 1) digits (counts of a cost among the members, 0..K) fit below 2^62 in one key."""
    digits, top = 0, 1
    while top * (K + 1) < 2**62:
        top, digits = top * (K + 1), digits + 1
    return max(1, digits)


def member_sums(members: np.ndarray, det: Cells) -> Cells:
    """Σ_{ŷ in Y} c_ŷ(y) for the sets of `members` (rows) and every class y."""
    return by_rows(len(members), det.shape[1], lambda rows: _member_sums(members[rows], det))


def by_rows(S: int, K: int, make) -> Cells:
    """`make(rows)` for chunks of rows, put together over one common denominator: the temporaries of the
    arithmetic are then of a chunk's size, not of the matrix's (each chunk's denominator divides the one the
    whole array would have, so nothing is less exact)."""
    step = max(1, BY_ROWS_CELLS // max(1, K))
    if S <= step:
        return make(slice(0, S))
    lo, hi, exact = np.empty((S, K)), np.empty((S, K)), np.zeros((S, K), bool)
    num, den, nums = None, 1, []  # int64 numerators over the first chunk's denominator, written as they come
    for start in range(0, S, step):
        rows = slice(start, min(S, start + step))
        part = make(rows)
        lo[rows], hi[rows], exact[rows] = part.lo, part.hi, part.exact
        if part.num is None or not part.exact.any():
            continue
        if num is None and not nums and np.asarray(part.num).dtype == np.int64:
            num, den = np.zeros((S, K), dtype=np.int64), part.den
        if num is not None and part.den == den and np.asarray(part.num).dtype == np.int64:
            num[rows] = part.num
        else:  # another denominator, or Python integers: put together at the end
            nums.append((rows, part.num, part.den))
    if num is None and not nums:
        return Cells(lo, hi, None, 1, exact)
    if not nums:
        return Cells(lo, hi, num, den, exact)
    common = math.lcm(den, *(d for _, _, d in nums))
    small = all(magnitude(n) * (common // d) < SAFE for _, n, d in nums) and \
        (num is None or magnitude(num) * (common // den) < SAFE)
    whole = np.zeros((S, K), dtype=np.int64 if small else object) if num is None else \
        scale(num if small else num.astype(object), common // den)
    while nums:  # each chunk's numerators freed once copied
        rows, part_num, d = nums.pop()
        whole[rows] = scale(part_num, common // d)
    return Cells(lo, hi, whole, common, exact)


def _member_sums(members: np.ndarray, det: Cells) -> Cells:
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
