"""Statistics from the optional extra `stats` (pip install 'verify-set-costs[stats]'), computed by the libraries
that define them, never re-derived: Benjamini-Hochberg adjusted p-values (statsmodels' multipletests,
'fdr_bh') beside Holm's for the paired Wilcoxon tests, and over several data sets Conover's post-hoc test after
Friedman (scikit-posthocs' posthoc_conover_friedman, Holm-adjusted there) and the Bayesian signed-rank test of
two classifiers over the data sets with a region of practical equivalence (baycomp's two_on_multiple: the
posterior probabilities that a costs less, that they are practically equivalent, that b costs less; a Monte
Carlo estimate, drawn with baycomp's random_state=SEED).

Everything here is a statistical estimate in floats, labelled as such. A missing library is a usage error that
names the extra to install."""

from __future__ import annotations

import importlib

import numpy as np

from verifier.errors import UsageError

EXTRA = "pip install 'verify-set-costs[stats]'"
SEED = 20170101
BH = "Benjamini-Hochberg false discovery rate adjustment (statsmodels.stats.multitest.multipletests, 'fdr_bh')"
CONOVER = ("Conover's post-hoc test after Friedman on the per-data-set mean costs (scikit-posthocs "
           "posthoc_conover_friedman), p-values Holm-adjusted over every pair")
BAYES = ("Bayesian signed-rank test over the data sets (Benavoli et al. 2017; baycomp.two_on_multiple) on the "
         "mean costs, region of practical equivalence ±rope: posterior probabilities, a Monte Carlo estimate "
         f"(random_state {SEED})")


def library(name: str, what: str):
    """The optional library `name`, or a usage error saying which extra brings it."""
    try:
        return importlib.import_module(name)
    except ImportError:
        raise UsageError(f"{what} needs {name}, an optional dependency: {EXTRA} (or pip install "
                         f"{name.replace('_', '-')})") from None


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


def bayesian_signed_rank(a: np.ndarray, b: np.ndarray, rope: float) -> tuple[float, float, float]:
    """baycomp's posterior probabilities (a costs less, practically equivalent within rope, b costs less) from
    the two classifiers' mean costs over the data sets (x = a's, y = b's: baycomp gives P(x larger), P(rope),
    P(y larger), and a larger cost is worse)."""
    baycomp = library("baycomp", "the Bayesian signed-rank test")
    more, rope_p, less = baycomp.two_on_multiple(np.asarray(a, float), np.asarray(b, float), rope=rope,
                                                 random_state=SEED)
    return float(less), float(rope_p), float(more)


def extra_statistics(comparison, scores, rope: float = 0.01) -> dict:
    """Every statistic of the extra for an evaluation's `comparison` (verifier.using.compare.Comparison) and its
    `scores`: BH beside Holm for the per-instance pairs and the pairs over the data sets, and with several data
    sets Conover's post-hoc test and the Bayesian signed-rank test of each pair over the data sets."""
    tested = [p for p in comparison.pairs if p.p_value is not None]
    out: dict = {"pairs": {"adjustment": BH, "p_bh": [
        {"a": p.a, "b": p.b, "dataset": p.dataset, "p_value": p.p_value, "p_holm": p.p_holm, "p_bh": bh,
         "significant_bh": bh < comparison.alpha}
        for p, bh in zip(tested, benjamini_hochberg([p.p_value for p in tested]))]}}
    f = comparison.friedman
    if f is None:
        return out
    by = {(str(s.dataset), s.name): s.mean_cost_float for s in scores}
    table = np.array([[by[(d, c)] for c in f.classifiers] for d in f.datasets])
    run = [p for p in comparison.over_datasets if p.p_value is not None]
    out["over_datasets"] = {"adjustment": BH, "p_bh": [
        {"a": p.a, "b": p.b, "p_value": p.p_value, "p_holm": p.p_holm, "p_bh": bh}
        for p, bh in zip(run, benjamini_hochberg([p.p_value for p in run]))]}
    if len(f.classifiers) >= 3:  # scikit-posthocs' Friedman needs three classifiers at least
        out["conover_friedman"] = {"test": CONOVER, "p_holm": [
            {"a": a, "b": b, "p_holm": p} for (a, b), p in conover_friedman(table, f.classifiers).items()]}
    column = {c: table[:, j] for j, c in enumerate(f.classifiers)}
    out["bayesian_signed_rank"] = {"test": BAYES, "rope": rope, "pairs": [
        dict(zip(("a", "b", "p_a_lower", "p_equivalent", "p_b_lower"),
                 (p.a, p.b, *bayesian_signed_rank(column[p.a], column[p.b], rope))))
        for p in comparison.over_datasets]}
    return out
