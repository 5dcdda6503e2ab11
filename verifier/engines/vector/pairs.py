"""Properties over two classes (P5, P8, P9) decided by equivalence classes instead of a sets x K x K grid.

Their atoms compare one term at y and at y′ for equality: C_Y(y) = C_Y(y′) (the members' cost multisets) and
c_Y(y) = c_Y(y′). Both are equivalence relations, so at one set the ordered pairs y ≠ y′ of each of the four
cases (equal multisets or not, equal costs or not) are counted from group sizes, Σ n_g (n_g − 1). Each (set,
class) gets an exact multiset id (the members' sorted cost numbers) and an exact cost id: the rational value;
for an irrational cell, its enclosure where it is apart from every other cell of the set, or the symmetry
lemma (equal member costs, equal set cost) where it overlaps cells of the same multiset. A set where some
overlap is decided neither way is left to the grid. Work and memory: Σ|Y| x K numbers, not S x K x K.

Owns: `decide_pairs`. May import: `engines.enumerate`, `properties`, `formula.cells`, numpy.
"""

from __future__ import annotations

import numpy as np

from verifier.engines.enumerate import Outcome
from verifier.engines.vector.terms import CHUNK_CELLS, chunked, member_lists
from verifier.formula.cells import FALSE, TRUE, UNDECIDED
from verifier.properties import Both, Compare, Implies, Property, QuantifierKind
from verifier.verdict import Truth

_CASES = [(c, v) for c in (True, False) for v in (True, False)]  # (equal multisets, equal costs)


def decide_pairs(engine, prop: Property) -> Outcome | None:
    """The property's outcome (as the dense path gives it), or None when this method does not apply (another
    atom shape, or overlapping enclosures it cannot decide and no set that decides the verdict)."""
    shape = _shape(prop)
    if shape is None:
        return None
    truth_of, inner = shape
    terms = engine.terms
    M = terms.members
    S, K = M.shape
    D = {"classes": np.ones((S, K), bool), "in Y": M, "not in Y": ~M}[prop.quantifiers[1].domain]
    multiset = terms.cached("multiset_ids", lambda: multiset_ids(M, terms.det_ids()))
    cost, unresolved = terms.cached(("cost_ids", prop.quantifiers[1].domain),
                                    lambda: cost_ids(terms.cost, D, multiset if engine.symmetric else None))
    n = D.sum(axis=1).astype(np.int64)
    equal_c = _pairs_in_groups(D, multiset)
    equal_v = _pairs_in_groups(D, cost)
    equal_both = _pairs_in_groups(D, multiset * (int(cost.max(initial=0)) + 1) + cost)
    count = {(True, True): equal_both, (True, False): equal_c - equal_both, (False, True): equal_v - equal_both,
             (False, False): n * (n - 1) - equal_c - equal_v + equal_both}
    decisive = FALSE if inner == QuantifierKind.FORALL else TRUE
    hits = sum(count[case] for case in _CASES if truth_of[case] == bool(decisive))
    sub = np.where(hits > 0, decisive, 1 - decisive).astype(np.int8)
    sub[unresolved] = UNDECIDED
    top = FALSE if prop.quantifiers[0].kind == QuantifierKind.FORALL else TRUE
    first = int(np.argmax(sub == top)) if (sub == top).any() else S
    if first < S:
        return _evidence(engine, prop, first, D[first], multiset[first], cost[first], truth_of, decisive,
                         int((n[:first] * (n[:first] - 1)).sum()))
    if unresolved.any():
        return None  # the grid decides those sets (exactly, one instance at a time where it must)
    return Outcome(Truth.TRUE if top == FALSE else Truth.FALSE, None, [], int((n * (n - 1)).sum()))


def _shape(prop: Property):
    """(truth of the atom for each case, inner quantifier kind) when the property is ∀/∃ Y, Q y ∈ D, Q y′ ∈ D
    over an atom of ==/!= comparisons of one term at y and y′; None otherwise."""
    q = prop.quantifiers
    if len(q) != 3 or q[1].domain != q[2].domain or q[1].kind != q[2].kind:
        return None

    def value(atom, case):
        if isinstance(atom, Compare):
            if atom.op not in ("==", "!=") or atom.lhs.kind != atom.rhs.kind \
                    or atom.lhs.kind not in ("sorted", "cost") or {atom.lhs.cls, atom.rhs.cls} != {"y", "y2"}:
                raise ValueError
            same = case[0] if atom.lhs.kind == "sorted" else case[1]
            return same if atom.op == "==" else not same
        if isinstance(atom, Implies):
            return (not value(atom.premise, case)) or value(atom.conclusion, case)
        if isinstance(atom, Both):
            return value(atom.first, case) and value(atom.second, case)
        raise ValueError

    try:
        return {case: value(prop.atom, case) for case in _CASES}, q[1].kind
    except ValueError:
        return None


def multiset_ids(members: np.ndarray, det_ids: np.ndarray) -> np.ndarray:
    """[s, y]: equal within a set exactly when the multisets (c_ŷ(y))_{ŷ ∈ Y} are equal (det_ids numbers the
    distinct exact determinate costs; ids of different sets are not compared). Sets of one size at a time:
    their member lists, sorted per class."""
    S, K = members.shape
    out = np.zeros((S, K), dtype=np.int64)
    base = int(det_ids.max(initial=0)) + 1
    for size, rows, index in chunked(member_lists(members), max(1, CHUNK_CELLS // K)):  # ids agree within a set
        values = np.sort(det_ids[index], axis=1)  # (sets, size, K): each class's member costs, sorted
        if size * max(1, base - 1).bit_length() <= 62:  # pack the sorted list into one exact integer
            packed = np.zeros((len(rows), K), dtype=np.int64)
            for i in range(int(size)):
                packed = packed * base + values[:, i, :]
            out[rows] = packed
        else:
            out[rows] = _row_ids(values.transpose(0, 2, 1).reshape(-1, int(size))).reshape(len(rows), K)
    step = max(1, CHUNK_CELLS // K)
    for start in range(0, S, step):  # small numbers (products of ids cannot overflow), a chunk of sets at a time
        part = out[start:start + step]
        part[...] = np.unique(part, return_inverse=True)[1].reshape(part.shape)
    return out


def _row_ids(rows: np.ndarray) -> np.ndarray:
    """Numbers equal exactly when the rows are equal: a hash groups them, and every row is then compared with
    its group's first row, element by element (a collision falls back to sorting the rows themselves)."""
    weights = np.random.default_rng(20171).integers(1, 2**62, size=rows.shape[1], dtype=np.uint64) | np.uint64(1)
    with np.errstate(over="ignore"):
        hashed = (rows.astype(np.uint64) * weights).sum(axis=1, dtype=np.uint64)
    _, first, inverse = np.unique(hashed, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    if (rows == rows[first[inverse]]).all():
        return inverse
    return np.unique(rows, axis=0, return_inverse=True)[1].reshape(-1)


def cost_ids(cost, domain: np.ndarray, multiset: np.ndarray | None):
    """[s, y] numbers equal within a set exactly when the costs c_Y(y) are equal, and the sets where some
    overlapping enclosures are not decided (rationals by value; irrational cells apart from the others by their
    enclosure; overlapping ones equal by the symmetry lemma when `multiset` is given and they share it).
    Numbers compare within a set only: sets are numbered a chunk at a time, so the temporaries (a dozen
    arrays) are of a chunk's size, not of the matrix's."""
    S, K = cost.shape
    ids, unresolved = np.zeros((S, K), dtype=np.int64), np.zeros(S, dtype=bool)
    step = max(1, CHUNK_CELLS // K)
    for start in range(0, S, step):
        rows = slice(start, min(S, start + step))
        part = cost.take(rows)
        ids[rows], unresolved[rows] = _chunk_ids(part, domain[rows], None if multiset is None else multiset[rows])
    return ids, unresolved


def _chunk_ids(cost, domain: np.ndarray, multiset: np.ndarray | None):
    S, K = cost.shape
    lo = np.where(domain, cost.lo, np.inf)
    hi = np.where(domain, cost.hi, np.inf)
    order = np.argsort(lo, axis=1, kind="stable")
    lo_s, hi_s = np.take_along_axis(lo, order, 1), np.take_along_axis(hi, order, 1)
    reach = np.maximum.accumulate(hi_s, axis=1)
    starts = np.ones((S, K), bool)
    starts[:, 1:] = ~(lo_s[:, 1:] <= reach[:, :-1])  # a cell apart from everything before it opens a cluster
    cluster_sorted = np.cumsum(starts, axis=1) - 1
    cluster = np.empty_like(cluster_sorted)
    np.put_along_axis(cluster, order, cluster_sorted, 1)
    exact = cost.exact & domain
    inexact = domain & ~cost.exact
    key = np.arange(S)[:, None] * K + cluster  # one number per (set, cluster)
    size = np.bincount(key[domain], minlength=S * K)
    loose = np.bincount(key[inexact], minlength=S * K) > 0
    lemma = np.zeros(S * K, bool)
    if multiset is not None:
        pairs = np.unique(key[domain] * (int(multiset.max(initial=0)) + 1) + multiset[domain])
        lemma = np.bincount(pairs // (int(multiset.max(initial=0)) + 1), minlength=S * K) == 1
    bad = (size > 1) & loose & ~lemma
    unresolved = bad.reshape(S, K).any(axis=1)
    value = np.zeros((S, K), dtype=np.int64)
    if exact.any() and cost.num is not None:
        value[exact] = np.unique(np.asarray(cost.num)[exact], return_inverse=True)[1].reshape(-1)
    value = np.where(loose.reshape(-1)[key], 0, value)  # one id per cluster that is irrational or lemma-equal
    ids = np.unique(key * (int(value.max(initial=0)) + 1) + value, return_inverse=True)[1]
    return ids.reshape(S, K), unresolved


def _pairs_in_groups(domain: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Per set: the ordered pairs y ≠ y′ of the domain with equal ids, Σ n_g (n_g − 1) (a chunk of sets at a
    time: the sort's temporaries stay of a chunk's size)."""
    S, K = domain.shape
    out = np.zeros(S, dtype=np.int64)
    step = max(1, CHUNK_CELLS // K)
    for start in range(0, S, step):
        rows = slice(start, min(S, start + step))
        s, y = np.nonzero(domain[rows])
        part = ids[rows]
        width = int(part.max(initial=0)) + 1
        groups, counts = np.unique(s * width + part[s, y], return_counts=True)
        out[rows] = np.bincount(groups // width, weights=(counts * (counts - 1)).astype(np.float64),
                                minlength=len(part)).astype(np.int64)
    return out


def _evidence(engine, prop, s: int, domain, multiset, cost, truth_of, decisive: int, before: int) -> Outcome:
    """The first decisive pair at set s in the exact walk's order (y, then y′, in class order), decided again by
    the exact engine."""
    classes = np.flatnonzero(domain)
    n = len(classes)
    ms, cs = multiset[classes], cost[classes]
    equal_c, equal_v = _group_sizes(ms), _group_sizes(cs)
    equal_both = _group_sizes(np.unique(ms, return_inverse=True)[1].reshape(-1) * (n + 1)
                              + np.unique(cs, return_inverse=True)[1].reshape(-1))
    count = {(True, True): equal_both, (True, False): equal_c - equal_both, (False, True): equal_v - equal_both,
             (False, False): (n - 1) - equal_c - equal_v + equal_both}
    hits = sum(count[case] for case in _CASES if truth_of[case] == bool(decisive))
    if not (hits > 0).any():
        return Outcome(Truth.UNKNOWN, None, [], before)
    i = int(np.argmax(hits > 0))
    y = classes[i]
    others = classes[classes != y]
    same_c, same_v = multiset[others] == multiset[y], cost[others] == cost[y]
    wanted = np.zeros(len(others), bool)
    for case in _CASES:
        if truth_of[case] == bool(decisive):
            wanted |= (same_c == case[0]) & (same_v == case[1])
    j = int(np.argmax(wanted))
    outcome = engine.exact.atom_at(prop, engine.sets[s], int(y), int(others[j]))
    if outcome.truth is Truth.UNKNOWN or (outcome.truth is Truth.TRUE) != bool(decisive):
        return Outcome(Truth.UNKNOWN, None, [], before)
    outcome.instances = before + i * (n - 1) + j + 1
    return outcome


def _group_sizes(keys: np.ndarray) -> np.ndarray:
    """For each element, how many others share its key."""
    _, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
    return counts[inverse.reshape(-1)] - 1
