"""Comparing classifiers pair by pair on the same instances of one data set, by their per-instance costs under
the scheme: the exact difference of mean costs, a paired bootstrap interval of it, the Wilcoxon signed-rank test
and the exact sign test, both with p-values Holm-adjusted over every pair tested, and effect sizes
(verifier.using.compare.signed_ranks). `compare` adds, with several data sets, the Friedman test over them
(verifier.using.compare.friedman) and Demšar's Wilcoxon test of two classifiers over the data sets
(verifier.using.compare.over_datasets, Holm over its own pairs).

Exact values (mean costs, their differences, the counts of instances where one classifier costs less) stay
exact: signs of per-instance differences are decided on the exact costs. Intervals and p-values are statistical
estimates in floats, labelled as such, never verdicts. scipy.stats is imported only when a test runs.

Which pairs (`pairs`): every pair within each data set ('all'), each classifier against the best of its data set
(the lowest exact mean cost, 'best'), or each against a named classifier. By default every pair, unless that is
more than MAX_DEFAULT_PAIRS pairs: then 'best', and the comparison says so. Holm's family is the pairs tested.
The pairs are computed in chunks, all pairs of a chunk at once (`pairs.pair_chunk`), into a `Comparison` the
caller may hold: when a time limit stops the work, the pairs done are kept and `finish` adjusts their p-values."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from verifier import limits
from verifier.errors import UsageError, did_you_mean
from verifier.formula import certified
from verifier.numbers import shown
from verifier.using.compare.friedman import Friedman, friedman_test
from verifier.using.compare.over_datasets import DatasetPair, dataset_pairs
from verifier.using.compare.pairs import (
    CHUNK_PAIRS,
    CHUNK_VALUES,
    CI_METHOD,
    EXACT,
    NORMAL,
    SIGN_TEST,
    WILCOXON,
    ExactSigns,
    PairComparison,
    pair_chunk,
)
from verifier.using.evaluate import Scores, resample_means

__all__ = ["CI_METHOD", "EXACT", "NORMAL", "SIGN_TEST", "WILCOXON", "Comparison", "PairComparison", "check_pairs",
           "compare", "finish", "holm"]

NAMED = "name:"  # --pairs name:best: the classifier named best, not the mode
MAX_DEFAULT_PAIRS = 1000  # beyond this many pairs in all, the default compares each classifier with the best
CHUNK_SECONDS = 0.5  # a chunk of pairs doubles while it takes less than half this: what a time limit may drop
MAX_CHUNK_PAIRS = 20_000
ONE_DATASET = ("Friedman/Nemenyi compare classifiers over several data sets (Demšar 2006); these predictions come "
               "from one data set: add a 'dataset' column or give one file per data set")


@dataclass(kw_only=True)
class Comparison:
    """The statistical comparison of an evaluation's classifiers: each pair on the instances of its data set
    (Holm-adjusted at `alpha`), the Friedman test over the data sets, and each pair over the data sets; the
    differences of mean costs exact, p-values and intervals statistical floats, never verdicts."""

    alpha: float
    level: float
    pairs: list[PairComparison]
    tested: int  # the pairs with a p-value: the size of Holm's family
    friedman: Friedman | None
    why_no_friedman: str | None
    mode: str = "all"  # 'all' pairs, each against the 'best' of its data set, or each 'against' a named one
    references: list[tuple[str | None, str]] = field(default_factory=list)  # (data set, the classifier compared with)
    planned: int = 0  # the pairs to compare
    note: str | None = None  # why the default is not every pair; data sets without the named classifier
    cut: str | None = None  # what a time limit left undone (None: everything planned was done)
    over_datasets: list[DatasetPair] = field(default_factory=list)  # Demšar's Wilcoxon over the data sets
    over_datasets_note: str | None = None  # why not every pair of classifiers is compared over the data sets


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjustment: the i-th smallest of m p-values times (m - i + 1), made monotone and capped
    at 1, given back in the input order (equal p-values keep their input order)."""
    p = np.asarray(p_values, dtype=float)
    m = len(p)
    order = np.argsort(p, kind="stable")
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(np.minimum(1.0, (m - np.arange(m)) * p[order])) if m else []
    return adjusted.tolist()


def check_pairs(pairs, names: list[str], where: str = "these predictions") -> str | None:
    """`pairs` as given (None, 'all', 'best', a classifier's name, or name:NAME for a classifier named all or
    best), refused with the names it could mean; the result is None, 'all', 'best' or 'name:NAME'."""
    if pairs is None or pairs in ("all", "best"):
        return pairs
    if not isinstance(pairs, str):
        raise UsageError(f"--pairs: expected all, best or a classifier's name, not {shown(pairs)}")
    name = pairs[len(NAMED):] if pairs.startswith(NAMED) else pairs
    if name not in names:
        listed = ", ".join(names[:10]) + (f", ... ({len(names)} in all)" if len(names) > 10 else "")
        raise UsageError(f"--pairs {shown(pairs)}: no classifier of {where} has that name"
                         f"{did_you_mean(name, names)} (expected all, best, or one of: {listed}; name:NAME names a "
                         "classifier called all or best)")
    return NAMED + name


def compare(scores: list[Scores], alpha: float = 0.05, level: float = 0.95, pairs: str | None = None,
            into: Comparison | None = None) -> Comparison:
    """Every comparison of `scores` (grouped by data set): the Friedman test over the data sets first, then the
    pairs chosen by `pairs`, chunk by chunk into `into` (a fresh Comparison when None), then Holm."""
    c = into if into is not None else Comparison(alpha=alpha, level=level, pairs=[], tested=0, friedman=None,
                                                 why_no_friedman=None)
    groups: dict[str | None, list[Scores]] = {}
    for s in scores:
        groups.setdefault(s.dataset, []).append(s)
    for group in groups.values():
        _paired(group)
    mode = check_pairs(pairs, list(dict.fromkeys(s.name for s in scores)))
    plan = _plan(groups, mode, c)
    c.friedman, c.why_no_friedman = (friedman_test(groups, alpha) if len(groups) >= 2 else (None, ONE_DATASET))
    if c.friedman is not None:
        c.over_datasets, c.over_datasets_note = dataset_pairs(groups, c.friedman.classifiers, c.friedman.ranks)
    for group, ia, ib in plan:
        signs = ExactSigns(group)
        resampled = _resampled(group)
        most = max(1, CHUNK_VALUES // max(1, group[0].n))  # memory: pairs x instances per chunk
        step, start = min(CHUNK_PAIRS, most), 0
        while start < len(ia):
            limits.check_time()  # the alarm stops the main thread; other threads stop here, between chunks
            began = time.monotonic()
            c.pairs.extend(pair_chunk(group, signs, resampled, ia[start:start + step], ib[start:start + step], level))
            start += step
            if time.monotonic() - began < CHUNK_SECONDS / 2:  # larger chunks, fewer scipy calls
                step = min(2 * step, most, MAX_CHUNK_PAIRS)
    return finish(c)


def finish(c: Comparison, cut: str | None = None) -> Comparison:
    """Holm's adjustment over the pairs done (every pair planned, or those done before `cut`)."""
    tested = [p for p in c.pairs if p.p_value is not None]
    for p, adjusted, sign_adjusted in zip(tested, holm([p.p_value for p in tested]),
                                          holm([p.sign_p for p in tested])):
        p.p_holm, p.significant, p.sign_p_holm = adjusted, adjusted < c.alpha, sign_adjusted
        p.sign_significant = sign_adjusted < c.alpha
    c.tested, c.cut = len(tested), cut
    run = [p for p in c.over_datasets if p.p_value is not None]
    for p, adjusted, sign_adjusted in zip(run, holm([p.p_value for p in run]), holm([p.sign_p for p in run])):
        p.p_holm, p.significant, p.sign_p_holm = adjusted, adjusted < c.alpha, sign_adjusted
    if cut is not None and c.friedman is None and c.why_no_friedman is None:
        c.why_no_friedman = f"the Friedman test was not run: {cut}"
    return c


def _plan(groups: dict, mode: str | None, c: Comparison) -> list[tuple[list[Scores], np.ndarray, np.ndarray]]:
    """The pairs to compare, per data set, as index arrays into its scores; sets c.mode, references, planned."""
    every = sum(len(g) * (len(g) - 1) // 2 for g in groups.values())
    if mode is None:
        mode = "all" if every <= MAX_DEFAULT_PAIRS else "best"
        if mode == "best":
            c.note = (f"{every:,} pairs in all is more than {MAX_DEFAULT_PAIRS:,}: each classifier is compared with "
                      "the best of its data set (the lowest mean cost); --pairs all compares every pair")
    plan, missing = [], []
    for dataset, group in groups.items():
        if mode == "all":
            ia, ib = np.triu_indices(len(group), 1)
        else:
            names = [s.name for s in group]
            if mode != "best" and mode[len(NAMED):] not in names:
                missing.append(dataset)
                continue
            ref = _best(group) if mode == "best" else names.index(mode[len(NAMED):])
            c.references.append((dataset, group[ref].name))
            ia = np.array([i for i in range(len(group)) if i != ref], dtype=np.int64)
            ib = np.full(len(ia), ref, dtype=np.int64)
        if len(ia):
            plan.append((group, ia, ib))
    if missing:
        c.note = (f"{mode[len(NAMED):]} is not in data set(s) {', '.join(str(d) for d in missing)}: no pairs there")
    c.mode = "against" if mode not in ("all", "best") else mode
    c.planned = sum(len(ia) for _, ia, _ in plan)
    return plan


def _best(group: list[Scores]) -> int:
    """The index of the lowest mean cost, decided exactly (floats where nothing decides); the first of equals."""
    best = 0
    for i in range(1, len(group)):
        sign = certified.compare(group[i].mean_cost, group[best].mean_cost).value
        if sign is None:
            sign = int(np.sign(group[i].mean_cost_float - group[best].mean_cost_float))
        if sign < 0:
            best = i
    return best


def _resampled(group: list[Scores]) -> np.ndarray:
    """The group's resampled mean costs (C x B): those the scores hold, or drawn afresh (the same draws)."""
    if all(getattr(s, "resampled", None) is not None for s in group):
        return np.stack([s.resampled for s in group])
    return resample_means(np.stack([np.asarray(s.costs, dtype=float) for s in group]))


def _paired(scores: list[Scores]) -> None:
    where = f" on data set {scores[0].dataset!r}" if scores[0].dataset is not None else ""
    sizes = {s.n for s in scores}
    if len(sizes) > 1:
        raise UsageError(f"the classifiers{where} were not scored on the same instances (" +
                         ", ".join(f"{s.name}: {s.n}" for s in scores) + "); paired tests need equal lengths")
    for s in scores[1:]:
        if s.truth is not None and scores[0].truth is not None and not np.array_equal(s.truth, scores[0].truth):
            i = int(np.flatnonzero(s.truth != scores[0].truth)[0])
            raise UsageError(f"{scores[0].name} and {s.name}{where} have different true classes at instance {i}; "
                             "paired tests need the same instances in the same order")
