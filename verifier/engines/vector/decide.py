"""The fast path's engine: each property decided for all its instances at once, from its definition.

It reads the same quantifier prefix and atom as the exact engine (`properties`). Atoms are evaluated as
arrays over (Y, y, y′) with three truth values: exact comparisons where both sides are exact rationals,
separated enclosures otherwise, and undecided where neither decides. Undecided instances that can change
the verdict or its evidence are decided one by one by the exact engine, in the exact engine's order, so
the verdict and the first counterexample are the ones the exact path finds. The quantifiers are then
folded with Kleene's logic, counting instances as the exact walk does. The evidence for the decisive set
is produced by the exact engine's walk at that one set: exact values, exact comparisons.
"""

from __future__ import annotations

import numpy as np

from verifier.engines.enumerate import EnumerationEngine, Outcome
from verifier.engines.vector.pairs import decide_pairs
from verifier.engines.vector.possibility import analyse_possibility_fast
from verifier.engines.vector.terms import CHUNK_CELLS, shared_terms
from verifier.formula import certified
from verifier.formula.cells import FALSE, TRUE, UNDECIDED, compare
from verifier.formula.symmetry import member_cost_symmetric
from verifier.properties import Both, Compare, Implies, Possible, Property, QuantifierKind
from verifier.scheme import Scheme
from verifier.verdict import PropertyResult, Truth, Verdict

RESOLVE_LIMIT = 20_000  # instances decided one by one exactly, per property, before the answer is `unknown`
DENSE_GRID_MAX = 100_000_000  # beyond, a grid of sets x K x K would not fit in memory: `unknown`, with why
PAIRS_GRID_LIMIT = 2_000_000  # sets x K x K beyond which two-class properties are decided by groups (`pairs`)
EXACT_WALK_CLASSES = 12  # up to here, a property with more undecided instances is walked by the exact engine
_TRUTH = {TRUE: Truth.TRUE, FALSE: Truth.FALSE, UNDECIDED: Truth.UNKNOWN}


class VectorEngine:
    """The fast path's engine: decides each property for all its instances at once on the scheme's arrays, with the
    exact engine for undecided instances and the evidence (see the module docstring)."""

    def __init__(self, scheme: Scheme):
        self.scheme = scheme
        self.exact = EnumerationEngine(scheme)  # exact instances and evidence
        self.terms = shared_terms(scheme.cells, self._same_determinate)
        self.sets = scheme.indeterminate_sets
        self.symmetric = _symmetry_lemma(scheme)
        self.resolved = 0  # instances the exact engine decided for us (for tests and benchmarks)
        self.over_limit = 0  # undecided instances left undecided by the last property (beyond RESOLVE_LIMIT)

    @property
    def possibility(self):
        """Definition 4 for every indeterminate set by the array tests (`analyse_possibility_fast`), made on first use
        and shared with the exact engine."""
        if self.exact._possibility is None:
            self.exact._possibility = analyse_possibility_fast(self.scheme, self.terms)
        return self.exact._possibility

    def decide(self, prop: Property) -> PropertyResult:
        """Decide the property over all its instances at once; the verdict and its evidence are the exact engine's."""
        if isinstance(prop.atom, Possible):
            truth = np.array([_code(self.possibility[m].status) for m in self.sets], dtype=np.int8)
            domains: list[np.ndarray] = []
        elif len(prop.quantifiers) == 3 and (grid := self.terms.count * self.scheme.K ** 2) > PAIRS_GRID_LIMIT and \
                ((grouped := decide_pairs(self, prop)) is not None or grid > DENSE_GRID_MAX):
            if grouped is not None:  # two classes: group sizes, not a K x K grid
                return self.exact.result(prop, grouped)
            result = self.exact.result(prop, Outcome(Truth.UNKNOWN, None, [], 0))
            result.reason = (f"costs of one set lie too close for certified enclosures to tell equal from unequal, "
                             f"and the {grid:,}-instance grid that would decide them one by one is beyond "
                             f"{DENSE_GRID_MAX:,}")
            return result
        else:
            domains = self._domains(prop)
            truth = self._atoms(prop, len(domains))
            self.over_limit = 0
            truth = self._resolve(prop, truth, domains)
        if self.over_limit and self.scheme.K <= EXACT_WALK_CLASSES:  # too many ties for one by one: the exact
            return self.exact.decide(prop)  # engine's own walk, so the answer is the exact path's
        result = self.exact.result(prop, self._outcome(prop, truth, domains))
        if self.over_limit and result.verdict is Verdict.UNKNOWN:
            result.reason = (f"{self.over_limit:,} instances lie too close for certified float enclosures and are "
                             f"more than the {RESOLVE_LIMIT:,} that are decided one by one exactly")
        return result

    def release(self, coming: list[Property]) -> None:
        """Free the derived arrays (each as large as the matrix) that the next of the `coming` properties does not
        read, keeping the two-class ids any of them still reads."""
        kinds = {term.kind for prop in coming[:1] for term in _terms(prop.atom)}
        self.terms.keep(kinds, {prop.quantifiers[1].domain for prop in coming if len(prop.quantifiers) == 3})

    def sets_not_holding(self, prop: Property) -> tuple[list, int, bool]:
        """The sets where a "for every set" property is not certainly true (where a repair is needed), how many
        of its innermost instances are certainly false, and whether some are undecided by the arrays."""
        domains = self._domains(prop)
        truth = self._atoms(prop, len(domains))
        sub = self._fold(prop, truth, domains)[0]
        false = int(((truth == FALSE) & domains[-1]).sum()) if domains else 0
        undecided = bool(((truth == UNDECIDED) & domains[-1]).any()) if domains else True
        return [self.sets[i] for i in np.flatnonzero(sub != TRUE)], false, undecided

    def instance_truth(self, prop: Property) -> tuple[np.ndarray, np.ndarray]:
        """For a property over (Y, y): the certified truth of its atom at every [set, class] (TRUE, FALSE or
        UNDECIDED, nothing resolved exactly) and the mask of the instances it quantifies over."""
        domains = self._domains(prop)
        if len(domains) != 1:
            raise ValueError(f"{prop.id} does not range over one class")
        return self._atoms(prop, 1), domains[0]

    # -- domains and atoms ---------------------------------------------------------------------------------
    def _domains(self, prop: Property) -> list[np.ndarray]:
        M = self.terms.members
        S, K = M.shape
        of = {"classes": np.ones((S, K), bool), "in Y": M, "not in Y": ~M}
        out = []
        for level, q in enumerate(prop.quantifiers[1:], start=1):
            if level == 1:
                out.append(of[q.domain])
            else:
                distinct = ~np.eye(K, dtype=bool)[None, :, :]
                out.append(out[0][:, :, None] & of[q.domain][:, None, :] & distinct)
        return out

    def _atoms(self, prop: Property, depth: int) -> np.ndarray:
        atom = prop.atom
        if isinstance(atom, Compare):
            return self._compare(atom, depth)
        if isinstance(atom, Implies):
            premise, conclusion = self._compare(atom.premise, depth), self._compare(atom.conclusion, depth)
            return np.where(premise == FALSE, TRUE, np.where(premise == TRUE, conclusion,
                            np.where(conclusion == TRUE, TRUE, UNDECIDED))).astype(np.int8)
        if isinstance(atom, Both):
            first, second = self._compare(atom.first, depth), self._compare(atom.second, depth)
            return np.where((first == FALSE) | (second == FALSE), FALSE,
                            np.where((first == TRUE) & (second == TRUE), TRUE, UNDECIDED)).astype(np.int8)
        raise TypeError(f"no interpretation for atom {atom!r}")

    def _compare(self, atom: Compare, depth: int) -> np.ndarray:
        if atom.lhs.kind == "sorted":
            same = self._same_multisets(depth)
            return (same if atom.op == "==" else ~same).astype(np.int8)
        lhs = self._place(self.terms.value(atom.lhs.kind), atom.lhs.cls, depth)
        rhs = self._place(self.terms.value(atom.rhs.kind), atom.rhs.cls, depth)
        truth = _compare_by_sets(lhs, atom.op, rhs)
        if self.symmetric and atom.op in ("==", "!=") and {atom.lhs.cls, atom.rhs.cls} == {"y", "y2"} \
                and atom.lhs.kind == atom.rhs.kind == "cost":
            same = self._same_multisets(depth)  # the lemma: equal member costs, equal set cost
            truth = np.where(same & (truth == UNDECIDED), TRUE if atom.op == "==" else FALSE, truth)
        return np.asarray(truth, dtype=np.int8)

    @staticmethod
    def _place(cells, cls: str, depth: int):
        if depth < 2:
            return cells
        return cells.take((slice(None), slice(None), None)) if cls == "y" else cells.take((slice(None), None))

    def _same_multisets(self, depth: int) -> np.ndarray:
        keys = self.terms.multiset_keys()
        return (keys[:, :, None, :] == keys[:, None, :, :]).all(axis=-1)

    def _same_determinate(self, h: int, y: int, h2: int, y2: int) -> bool:
        return certified.compare(self.scheme.det(h, y), self.scheme.det(h2, y2)).value == 0

    # -- exact decisions where the arrays cannot decide ------------------------------------------------------
    def _resolve(self, prop: Property, truth: np.ndarray, domains: list[np.ndarray]) -> np.ndarray:
        """Decide exactly the undecided instances of every set before the first decisive one."""
        undecided = (truth == UNDECIDED) & domains[-1]
        if not undecided.any():
            return truth
        sub = self._fold(prop, truth, domains)[0]
        decisive = FALSE if prop.quantifiers[0].kind == QuantifierKind.FORALL else TRUE
        stop = _first(sub == decisive, len(sub))
        pending = undecided & (np.arange(len(sub)) < stop).reshape((-1,) + (1,) * (truth.ndim - 1))
        pending &= (sub == UNDECIDED).reshape((-1,) + (1,) * (truth.ndim - 1))
        truth = truth.copy()
        for count, index in enumerate(np.argwhere(pending)):
            if count >= RESOLVE_LIMIT:
                break
            s, *ys = (int(i) for i in index)
            outcome = self.exact.atom_at(prop, self.sets[s], *(ys + [None] * (2 - len(ys))))
            truth[tuple(index)] = _code(outcome.truth)
            self.resolved += 1
        self.over_limit = max(0, int(pending.sum()) - RESOLVE_LIMIT)
        return truth

    # -- folding the quantifiers -------------------------------------------------------------------------------
    def _fold(self, prop: Property, truth: np.ndarray, domains: list[np.ndarray]):
        """Kleene truth and instance counts per set, folding the inner quantifiers (innermost first), a chunk of
        sets at a time (each set folds alone; the counts' temporaries are 8 bytes an instance, several at once)."""
        S = len(truth)
        step = max(1, CHUNK_CELLS // max(1, int(np.prod(truth.shape[1:]))))
        if S <= step:
            return _fold_sets(prop, truth, domains)
        parts = [_fold_sets(prop, truth[i:i + step], [d[i:i + step] for d in domains]) for i in range(0, S, step)]
        return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])

    def _outcome(self, prop: Property, truth: np.ndarray, domains: list[np.ndarray]) -> Outcome:
        sub, counts = self._fold(prop, truth, domains)
        top = prop.quantifiers[0].kind
        decisive = FALSE if top == QuantifierKind.FORALL else TRUE
        first = _first(sub == decisive, len(sub))
        if first < len(sub):
            before = int(counts[:first].sum())
            outcome = self.exact.walk_at(prop, self.sets[first])
            if _code(outcome.truth) != decisive:
                return Outcome(Truth.UNKNOWN, None, [], before,)
            outcome.instances = before + (outcome.instances if domains else 1)
            return outcome
        total = int(counts.sum())
        unknown = _first(sub == UNDECIDED, len(sub))
        if unknown < len(sub):
            outcome = self.exact.walk_at(prop, self.sets[unknown])
            if outcome.truth is not Truth.UNKNOWN:  # decided after all (e.g. beyond the resolve limit)
                outcome = Outcome(Truth.UNKNOWN, outcome.binding, outcome.comparisons, total)
            outcome.instances = total
            return outcome
        return Outcome(Truth.TRUE if top == QuantifierKind.FORALL else Truth.FALSE, None, [], total)


def _fold_sets(prop: Property, truth: np.ndarray, domains: list[np.ndarray]):
    counts = domains[-1].astype(np.int64) if domains else np.ones(truth.shape, np.int64)
    for level in range(len(domains), 0, -1):
        kind = prop.quantifiers[level].kind
        mask = domains[level - 1]
        truth, counts = _reduce(truth, counts, mask, kind, axis=level)
    return truth, counts


def _reduce(truth: np.ndarray, counts: np.ndarray, mask: np.ndarray, kind: str, axis: int):
    decisive = FALSE if kind == QuantifierKind.FORALL else TRUE
    hit = mask & (truth == decisive)
    unknown = (mask & (truth == UNDECIDED)).any(axis=axis)
    any_hit = hit.any(axis=axis)
    settled = FALSE if kind == QuantifierKind.FORALL else TRUE
    other = TRUE if kind == QuantifierKind.FORALL else FALSE
    folded = np.where(any_hit, settled, np.where(unknown, UNDECIDED, other)).astype(np.int8)
    cumulative = np.cumsum(np.where(mask, counts, 0), axis=axis)
    first = np.argmax(hit, axis=axis)
    at_first = np.take_along_axis(cumulative, np.expand_dims(first, axis), axis=axis).squeeze(axis)
    total = np.take(cumulative, -1, axis=axis)
    return folded, np.where(any_hit, at_first, total)


def _compare_by_sets(lhs, op: str, rhs) -> np.ndarray:
    """`compare` a chunk of sets at a time: its temporaries (eight bytes an instance, several at once) stay of a
    chunk's size; the answer is one byte an instance."""
    S = lhs.shape[0]
    step = max(1, CHUNK_CELLS // max(1, int(np.prod(np.broadcast_shapes(lhs.shape, rhs.shape)[1:]))))
    if S <= step:
        return compare(lhs, op, rhs)
    return np.concatenate([compare(lhs.take(slice(i, i + step)), op, rhs.take(slice(i, i + step)))
                           for i in range(0, S, step)])


def _terms(atom) -> list:
    """The terms an atom compares (none for possibility)."""
    if isinstance(atom, Compare):
        return [atom.lhs, atom.rhs]
    if isinstance(atom, Implies):
        return _terms(atom.premise) + _terms(atom.conclusion)
    if isinstance(atom, Both):
        return _terms(atom.first) + _terms(atom.second)
    return []


def _first(flags: np.ndarray, default: int) -> int:
    return int(np.argmax(flags)) if flags.any() else default


def _code(truth: Truth) -> int:
    return {Truth.TRUE: TRUE, Truth.FALSE: FALSE, Truth.UNKNOWN: UNDECIDED}[truth]


def _symmetry_lemma(scheme: Scheme) -> bool:
    """The set cost depends on y only through C_Y(y), and C_Y(y) is built from the same costs as c(yh, y)."""
    spec, cells = scheme.spec, scheme.cells
    if spec.set_cost is None or spec.set_costs or cells.determinate is None:
        return False
    if not member_cost_symmetric(spec.set_cost, spec.functions):
        return False
    return bool((compare(cells.singletons, "==", cells.determinate) == TRUE).all())
