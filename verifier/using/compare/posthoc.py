"""Statistics from the optional extra `stats` (pip install 'verify-set-costs[stats]'), computed by the libraries
that define them, never re-derived: Benjamini-Hochberg adjusted p-values (statsmodels' multipletests,
'fdr_bh') beside Holm's for the paired Wilcoxon tests, and over several data sets Conover's post-hoc test after
Friedman (scikit-posthocs' posthoc_conover_friedman, Holm-adjusted there), Shaffer's and Bergmann-Hommel's
adjustments of all pairwise comparisons after Friedman (verifier.using.compare.all_pairs: no library has them), and the
Bayesian comparisons of two classifiers over the data sets (verifier.using.compare.bayes_over_datasets: baycomp's
signed-rank test and, asked for, its hierarchical test), with their posterior probabilities.

Everything here is a statistical estimate in floats, labelled as such. A missing library is a usage error that
names the extra to install."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from verifier.errors import UsageError
from verifier.using.compare.all_pairs import all_pairs
from verifier.using.compare.bayes_over_datasets import (
    EXTRA,
    HIERARCHICAL,
    SEED,
    SIGNED_RANK,
    BayesPair,
    hierarchical,
    library,
    signed_rank,
    why_not_hierarchical,
    why_not_pair,
)

__all__ = ["EXTRA", "SEED", "library", "benjamini_hochberg", "conover_friedman", "bayes_pairs", "extra_statistics"]
BH = "Benjamini-Hochberg false discovery rate adjustment (statsmodels.stats.multitest.multipletests, 'fdr_bh')"
CONOVER = ("Conover's post-hoc test after Friedman on the per-data-set mean costs (scikit-posthocs "
           "posthoc_conover_friedman), p-values Holm-adjusted over every pair")


def benjamini_hochberg(p_values: list[float]) -> list[float]:
    """statsmodels' Benjamini-Hochberg adjusted p-values, in the input order."""
    if not p_values:
        return []
    multitest = library("statsmodels.stats.multitest", "the Benjamini-Hochberg adjustment")
    return [float(x) for x in multitest.multipletests(np.asarray(p_values, float), method="fdr_bh")[1]]


def conover_friedman(table: np.ndarray, names: list[str]) -> dict[tuple[str, str], float]:
    """scikit-posthocs' Conover test after Friedman on a (data sets x classifiers) table of mean costs:
    {(a, b): Holm-adjusted p-value} for every pair a before b in `names`."""
    posthocs = library("scikit_posthocs", "Conover's post-hoc test")
    p = np.asarray(posthocs.posthoc_conover_friedman(np.asarray(table, float), p_adjust="holm"))
    return {(names[i], names[j]): float(p[i, j]) for i in range(len(names)) for j in range(i + 1, len(names))}


def _lower_rank(ranks: dict, a: str, b: str) -> str | None:
    """The classifier of lower (better) average rank, which a rank test's small p favours; None when equal."""
    return None if ranks[a] == ranks[b] else a if ranks[a] < ranks[b] else b


def check_rope(rope) -> float:
    """The region of practical equivalence: a finite number at least 0 (a usage error otherwise)."""
    if isinstance(rope, bool) or not isinstance(rope, (int, float)) or not math.isfinite(rope) or rope < 0:
        raise UsageError(f"rope {rope!r}: expected a finite number at least 0 (the half-width of the region of "
                         "practical equivalence of mean costs)")
    return float(rope)


def bayes_pairs(comparison, scores, rope: float, with_hierarchical: bool = False) -> tuple[list[BayesPair], str | None]:
    """The Bayesian comparisons of each pair over the data sets (signed-rank; hierarchical too when asked and
    the data sets allow it), and why the hierarchical test was not run when it was asked for and was not."""
    f = comparison.friedman
    if f is None:
        return [], None
    rope = check_rope(rope)
    by = {(str(s.dataset), s.name): s for s in scores}
    out = []
    for p in comparison.over_datasets:
        exact = [by[(d, p.a)].mean_cost - by[(d, p.b)].mean_cost for d in f.datasets]
        exact = [Fraction(int(x.p), int(x.q)) for x in exact] if all(x.is_Rational for x in exact) else None
        out.append(signed_rank(p.a, p.b, np.array([by[(d, p.a)].mean_cost_float for d in f.datasets]),
                               np.array([by[(d, p.b)].mean_cost_float for d in f.datasets]), rope, exact))
    why = None
    if with_hierarchical:
        why = why_not_hierarchical({d: by[(d, f.classifiers[0])].n for d in f.datasets})
        skipped = []
        for p in comparison.over_datasets if why is None else []:
            costs = [np.stack([np.asarray(by[(d, c)].costs, float) for d in f.datasets]) for c in (p.a, p.b)]
            reason = why_not_pair(p.a, p.b, f.datasets, *costs)
            if reason is None:
                out.append(hierarchical(p.a, p.b, *costs, rope))
            else:
                skipped.append(reason)
        why = why or ("; ".join(skipped) if skipped else None)
    return out, why


def extra_statistics(comparison, scores, rope: float = 0.01, with_hierarchical: bool = False,
                     bayes: tuple[list[BayesPair], str | None] | None = None) -> dict:
    """Every statistic of the extra for an evaluation's `comparison`
    (verifier.using.compare.comparison.Comparison) and its `scores`: BH beside Holm for the per-instance pairs and
    the pairs over the data sets, and with several data sets Conover's post-hoc test, Shaffer's and
    Bergmann-Hommel's adjustments and the Bayesian tests of each pair over the data sets (`bayes`: those of
    `bayes_pairs`, computed here when not given)."""
    rope = check_rope(rope)
    tested = [p for p in comparison.pairs if p.p_value is not None]
    out: dict = {"pairs": {"adjustment": BH, "p_bh": [
        {"a": p.a, "b": p.b, "dataset": p.dataset, "p_value": p.p_value, "p_holm": p.p_holm, "p_bh": bh,
         "significant_bh": bh < comparison.alpha, "test_favours": p.favours, "lower_mean_cost": p.lower}
        for p, bh in zip(tested, benjamini_hochberg([p.p_value for p in tested]))]}}
    f = comparison.friedman
    if f is None:
        return out
    by = {(str(s.dataset), s.name): s.mean_cost_float for s in scores}
    table = np.array([[by[(d, c)] for c in f.classifiers] for d in f.datasets])
    run = [p for p in comparison.over_datasets if p.p_value is not None]
    out["over_datasets"] = {"adjustment": BH, "p_bh": [
        {"a": p.a, "b": p.b, "p_value": p.p_value, "p_holm": p.p_holm, "p_bh": bh, "test_favours": p.test_favours,
         "lower_mean_cost": p.lower_mean_cost}
        for p, bh in zip(run, benjamini_hochberg([p.p_value for p in run]))]}
    if len(f.classifiers) >= 3:  # scikit-posthocs' Friedman needs three classifiers at least
        out["conover_friedman"] = {"test": CONOVER, "p_holm": [
            {"a": a, "b": b, "p_holm": p, "lower_average_rank": _lower_rank(f.ranks, a, b)}
            for (a, b), p in conover_friedman(table, f.classifiers).items()]}
        out["all_pairs_after_friedman"] = all_pairs(f.classifiers, f.ranks, len(f.datasets), comparison.alpha)
        for row in out["all_pairs_after_friedman"]["pairs"]:
            row["lower_average_rank"] = _lower_rank(f.ranks, row["a"], row["b"])
    pairs, why = bayes if bayes is not None else bayes_pairs(comparison, scores, rope, with_hierarchical)
    for kind, key, test in (("signed-rank", "bayesian_signed_rank", SIGNED_RANK),
                            ("hierarchical", "bayesian_hierarchical", HIERARCHICAL)):
        chosen = [p for p in pairs if p.test == kind]
        if kind == "hierarchical" and not chosen and why is None:
            continue
        out[key] = {"test": test, "rope": rope, "seed": SEED, "note": why if kind == "hierarchical" else None,
                    "pairs": [dict(zip(("a", "b", "p_a_lower", "p_equivalent", "p_b_lower", "on_rope_edge"),
                                       (p.a, p.b, *p.probabilities, p.at_rope))) for p in chosen]}
    return out
