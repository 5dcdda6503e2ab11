"""What `verify evaluate` says when it compares classifiers, as JSON and text: per pair the exact difference of
mean costs, its paired bootstrap interval and the paired tests with Holm-adjusted p-values; over several data
sets the Friedman / Iman-Davenport test, average ranks and Nemenyi's critical difference. Every number is
labelled as what it is: exact, a statistical estimate, or a p-value (adjusted or not), never a verdict."""

from __future__ import annotations

import textwrap

from verifier.using.compare import CI_METHOD, SIGN_TEST, Comparison, PairComparison
from verifier.using.compare.friedman import TEST, Friedman
from verifier.using.compare.over_datasets import TEST as OVER_TEST
from verifier.using.compare.over_datasets import DatasetPair

EFFECTS_ORIENTATION = ("a minus b: positive when a costs more (rank-biserial r of the signed ranks of a − b, "
                       "Cliff's delta over all pairs of instances)")
DISAGREE = ("the two tests ask different questions: Wilcoxon's weighs each difference by its rank (is the median "
            "difference zero?), the sign test only counts who costs less (is the share of wins one half?)")


def comparison_json(c: Comparison) -> dict:
    """Every float is finite here (NaN is not JSON): undefined p-values and statistics are null."""
    out = {"alpha": c.alpha, "holm_family": c.tested, "pairs_mode": c.mode,
           "compared_with": [{"dataset": d, "classifier": name} for d, name in c.references],
           "pairs_planned": c.planned, "pairs_done": len(c.pairs), "pairs_note": c.note, "cut": c.cut,
           "pairs": [_pair_json(p) for p in c.pairs]}
    if c.friedman is not None:
        out["friedman"] = _friedman_json(c.friedman)
        out["over_datasets"] = {"test": OVER_TEST, "note": c.over_datasets_note,
                                "pairs": [_dataset_pair_json(p) for p in c.over_datasets]}
    else:
        out["friedman_not_run"] = c.why_no_friedman
    return out


def _pair_json(p: PairComparison) -> dict:
    return {"a": p.a, "b": p.b, "dataset": p.dataset, "n": p.n, "mean_difference": str(p.difference),
            "mean_difference_float": p.difference_float, "lower_mean_cost": p.lower,
            "ci": {"level": p.level, "low": p.ci[0], "high": p.ci[1], "method": CI_METHOD},
            "a_lower": p.a_lower, "b_lower": p.b_lower, "ties": p.ties, "undecided_signs": p.undecided,
            "test": p.test, "method": p.method, "zero_method": "wilcox", "statistic": p.statistic,
            "p_value": p.p_value, "p_holm": p.p_holm, "significant": p.significant, "signed_ranks_favour": p.favours,
            "test_favours": p.favours,
            "effect_sizes": {"rank_biserial": p.rank_biserial, "cliffs_delta": p.cliffs_delta,
                             "mean_difference": p.difference_float, "orientation": EFFECTS_ORIENTATION},
            "sign_test": {"test": SIGN_TEST, "p_value": p.sign_p, "p_holm": p.sign_p_holm,
                          "significant": p.sign_significant, "more_wins": p.more_wins}}


def _dataset_pair_json(p: DatasetPair) -> dict:
    return {"a": p.a, "b": p.b, "datasets": p.datasets, "a_lower": p.a_lower, "b_lower": p.b_lower, "ties": p.ties,
            "test": p.test, "method": p.method, "zero_method": "wilcox", "statistic": p.statistic,
            "p_value": p.p_value, "p_holm": p.p_holm, "significant": p.significant,
            "rank_biserial": p.rank_biserial, "test_favours": p.test_favours, "lower_mean_cost": p.lower_mean_cost,
            "sign_test": {"test": SIGN_TEST, "p_value": p.sign_p, "p_holm": p.sign_p_holm}}


def _friedman_json(f: Friedman) -> dict:
    return {"test": TEST, "datasets": len(f.datasets), "dataset_names": f.datasets, "classifiers": f.classifiers,
            "left_out": f.left_out, "df": f.df[0],
            "statistic": None if f.chi2_corrected is None else float(f.chi2_corrected),
            "statistic_exact": None if f.chi2_corrected is None else str(f.chi2_corrected),
            "p_value": f.p_corrected, "printed": "tie-corrected (scipy.stats.friedmanchisquare's)",
            "tie_correction_factor": str(f.tie_factor),
            "uncorrected": {"statistic": float(f.chi2), "statistic_exact": str(f.chi2), "p_value": f.p_value,
                            "note": "Demšar's formula without tie correction; Iman-Davenport's F_F uses it"},
            "iman_davenport": {"statistic": None if f.ff is None else float(f.ff),
                               "statistic_exact": None if f.ff is None else str(f.ff), "p_value": f.ff_p_value,
                               "df": list(f.df)},
            "average_ranks": {c: float(r) for c, r in f.ranks.items()},
            "average_ranks_exact": {c: str(r) for c, r in f.ranks.items()},
            "nemenyi_critical_difference": f.critical_difference, "significant": f.significant,
            "significance_from": "iman_davenport" if f.ff_p_value is not None else "uncorrected chi-square",
            "different": [list(pair) for pair in f.different],
            "mean_cost_over_datasets": {c: str(v) for c, v in f.mean_costs.items()},
            "order_disagreements": [list(pair) for pair in f.disagreements]}


def comparison_text(c: Comparison) -> list[str]:
    """The comparison of the classifiers as text lines: the method, each pair's difference, interval and tests, and over
    several data sets the Friedman test."""
    lines = ["", f"Comparison of the classifiers (level alpha = {c.alpha})"]
    if c.note:
        lines += _wrapped(f"{c.note[0].upper()}{c.note[1:]}.", 2)
    if c.mode == "best" and c.references:
        lines += _wrapped("Each classifier is compared with the best of its data set (the lowest mean cost): " +
                          "; ".join(name if d is None else f"{name} on data set {d}" for d, name in c.references) +
                          ".", 2)
    elif c.mode == "against" and c.references:
        lines += _wrapped(f"Each classifier is compared with {c.references[0][1]} (--pairs).", 2)
    if c.pairs:
        lines += _wrapped(f"Per pair, on the same instances: the difference of mean costs (exact); its {_pct(c.level)} "
                          "paired bootstrap percentile interval (a statistical estimate); the Wilcoxon signed-rank "
                          "test, two-sided, zero differences dropped (zero_method 'wilcox'), its null distribution "
                          "as scipy's method='auto' chooses, and the exact sign test on the non-zero differences, "
                          f"their p-values Holm-adjusted over the {c.tested:,} pair(s) tested" +
                          (f" (of the {c.planned:,} planned; the rest were cut by the time limit)" if c.cut else "") +
                          "; effect sizes beside them (rank-biserial r, Cliff's delta: statistical estimates).", 2)
    elif c.cut:
        lines += _wrapped(f"No pair was compared before the time limit ({c.planned:,} planned).", 2)
    else:
        lines.append("  No two classifiers share a data set: nothing to compare pair by pair.")
    for p in c.pairs:
        lines += _pair_text(p, c.tested, c.alpha)
    if c.friedman is None:
        lines += _wrapped(f"{c.why_no_friedman}.", 2)
    else:
        lines += _friedman_text(c.friedman)
        lines += _over_datasets_text(c)
    return lines


def _over_datasets_text(c: Comparison) -> list[str]:
    """Demšar's comparison of two classifiers over the data sets, pair by pair."""
    if not c.over_datasets:
        return []
    run = sum(p.p_value is not None for p in c.over_datasets)
    lines = _wrapped(f"Two classifiers at a time over the {c.over_datasets[0].datasets:,} data sets (Demšar 2006, "
                     "Section 3.1.3): the Wilcoxon signed-rank test on the differences of their mean costs, one per "
                     f"data set, p-values Holm-adjusted over these {run:,} pair(s); counts of data sets exact.", 2)
    if c.over_datasets_note:
        lines += _wrapped(f"{c.over_datasets_note}.", 4)
    for p in c.over_datasets:
        counts = (f"{p.a} vs {p.b}: lower mean cost on {p.a_lower:,} data set(s) for {p.a}, {p.b_lower} for {p.b}, "
                  f"equal on {p.ties}")
        if p.p_value is None:
            lines += _wrapped(f"{counts}; Wilcoxon not run (p undefined)", 4)
            continue
        method = {"exact": "exact distribution", "permutation": "exact permutation distribution",
                  "asymptotic": "normal approximation, tie-corrected"}[p.method]
        lines += _wrapped(f"{counts}; Wilcoxon ({method}) p-value {p.p_value:.4g}, Holm-adjusted {p.p_holm:.4g}, "
                          f"{'significant' if p.significant else 'not significant'} at {c.alpha}, "
                          f"{favours_text(p.test_favours, p.lower_mean_cost, 'averaged over the data sets')}; "
                          "rank-biserial r = "
                          f"{p.rank_biserial:+.3f} (+ when {p.a} costs more); sign test p-value {p.sign_p:.4g}, "
                          f"Holm-adjusted {p.sign_p_holm:.4g}", 4)
    return lines


def _pair_text(p: PairComparison, tested: int, alpha: float) -> list[str]:
    where = f" on data set {p.dataset}" if p.dataset is not None else ""
    lines = [f"  {p.a} vs {p.b}{where} ({p.n:,} instances)"]
    lines += _wrapped(f"mean cost {p.a} − {p.b}: {p.difference} (exact) ≈ {p.difference_float:.4f}", 4)
    lines += [f"    {_pct(p.level)} interval [{p.ci[0]:.4f}, {p.ci[1]:.4f}] (paired bootstrap percentile, a "
              "statistical estimate)"]
    lines += _wrapped(f"{p.a} costs less on {p.a_lower:,} instance(s), {p.b} on {p.b_lower}, equal on {p.ties} "
                      "(exact counts)", 4)
    if p.undecided:
        lines.append(f"    ({p.undecided} of these differences could not be signed exactly; their float sign used)")
    if p.p_value is None:
        lines.append("    Wilcoxon: not run, no non-zero difference (p undefined)")
        return lines
    method = {"exact": "exact distribution", "permutation": "exact permutation distribution",
              "asymptotic": "normal approximation, tie-corrected"}[p.method]
    verdict = "significant" if p.significant else "not significant"
    lines += [f"    Wilcoxon ({method}, as scipy's method='auto' chooses): p-value {p.p_value:.4g}",
              f"      p-value Holm-adjusted over {tested:,} pairs: {p.p_holm:.4g}, {verdict} at {alpha}",
              *_wrapped(favours_text(p.favours, p.lower), 6),
              *_wrapped(f"effect: rank-biserial r = {p.rank_biserial:+.3f} (matched pairs; + when {p.a} costs "
                        "more)", 6)]
    if p.cliffs_delta is not None:
        lines += _wrapped(f"Cliff's delta = {p.cliffs_delta:+.3f} (over all pairs of instances; + when {p.a} costs "
                          "more)", 6)
    wins = (f"{p.more_wins} costs less more often ({max(p.a_lower, p.b_lower)} against "
            f"{min(p.a_lower, p.b_lower)})" if p.more_wins else "each costs less equally often")
    sign_verdict = "significant" if p.sign_significant else "not significant"
    lines += _wrapped(f"sign test (exact binomial): {wins}; p-value {p.sign_p:.4g}, Holm-adjusted over {tested} "
                      f"pairs {p.sign_p_holm:.4g}, {sign_verdict} at {alpha}", 4)
    if p.more_wins is not None and p.lower is not None and p.more_wins != p.lower:
        lines += _wrapped(f"note: {p.more_wins} costs less more often, yet {p.lower} has the lower mean cost: the "
                          "sign test counts who costs less, not by how much", 6)
    if p.sign_significant != p.significant:
        lines += _wrapped(f"the tests disagree: {DISAGREE}; here the Wilcoxon test is {verdict} and the sign test "
                          f"{sign_verdict}", 6)
    return lines


def friedman_sentence(comparison: dict) -> str:
    """The Friedman test in one sentence from evaluate's JSON record (the notebook's display), as the console
    says it: χ²_F, tie-corrected only when mean costs tied; the significance from the p-value that gates
    Nemenyi's test (Iman-Davenport's F_F, or χ²_F's when F_F is infinite)."""
    f = comparison.get("friedman")
    if f is None:
        return comparison.get("friedman_not_run") or ""
    u, alpha = f["uncorrected"], comparison["alpha"]
    chi2 = f"chi2_F = {u['statistic_exact']}, p-value {u['p_value']:.4g}"
    if f["tie_correction_factor"] == "1":
        chi2 += " (no tied mean costs: the tie correction changes nothing)"
    elif f["statistic_exact"] is None:
        chi2 += " (uncorrected; tie-corrected undefined: every data set ties all the classifiers)"
    else:
        chi2 = (f"chi2 = {f['statistic_exact']} tie-corrected, p-value {f['p_value']:.4g}; uncorrected " + chi2)
    d = f["iman_davenport"]
    ff = ("Iman-Davenport F_F infinite" if d["statistic_exact"] is None else
          f"Iman-Davenport F_F = {d['statistic_exact']}, p-value " +
          ("undefined" if d["p_value"] is None else f"{d['p_value']:.4g}"))
    gate = "Iman-Davenport's" if f["significance_from"] == "iman_davenport" else "chi2_F's"
    verdict = "significant" if f["significant"] else "not significant"
    exact = f["average_ranks_exact"]
    ranks = ", ".join(f"{c} {r}" + ("" if "/" not in r else f" ≈ {f['average_ranks'][c]:.3f}")
                      for c, r in sorted(exact.items(), key=lambda item: f["average_ranks"][item[0]]))
    named = ("average ranks further apart than CD: " + ("; ".join(f"{a} vs {b}" for a, b in f["different"])
                                                        or "no pair") if f["significant"] else
             "no pair is named (Nemenyi's test follows only a significant test)")
    return (f"Friedman test over {f['datasets']:,} data sets: {chi2}; {ff}; by {gate} p-value {verdict} at {alpha}; "
            f"average ranks (1 = lowest mean cost) {ranks}; Nemenyi critical difference CD = "
            f"{f['nemenyi_critical_difference']:.4f}; {named}.")


def favours_text(favours: str | None, lower: str | None, where: str = "") -> str:
    """Which classifier the Wilcoxon test's signed ranks favour and, when the lower mean cost is the other one,
    both (the test concerns the ranks of the differences, not their mean)."""
    if favours is None:
        return "the Wilcoxon test's signed ranks favour neither"
    if lower is None or lower == favours:
        return f"the Wilcoxon test's signed ranks favour {favours}" + ("" if lower is None else
                                                                        ", which has the lower mean cost" +
                                                                        (f" {where}" if where else "") + " too")
    return (f"the Wilcoxon test's signed ranks favour {favours}, yet {lower} has the lower mean cost"
            + (f" {where}" if where else "")
            + ": the test concerns the ranks of the differences, not their mean")


def _friedman_text(f: Friedman) -> list[str]:
    k, n = len(f.classifiers), len(f.datasets)
    order = sorted(f.classifiers, key=lambda c: f.ranks[c])
    lines = _wrapped(f"Over {n:,} data sets, the {k} classifiers present on every one: Friedman test on the "
                     "per-data-set mean costs (Demšar 2006).", 2)
    if f.left_out:
        lines += _wrapped(f"left out (missing from some data set): {', '.join(f.left_out)}", 4)
    lines += _wrapped("average ranks (1 = lowest mean cost; exact): " +
                      ", ".join(f"{c} {_exact(f.ranks[c])}" for c in order), 4)
    ff = "infinite (every data set ranks the classifiers alike)" if f.ff is None else _exact(f.ff, 4)
    gate = "Iman-Davenport" if f.ff_p_value is not None else "chi-square (F_F is infinite)"
    lines += _friedman_chi2(f)
    lines += [f"    Iman-Davenport F_F = {ff} (from the uncorrected chi2_F)",
              (f"      p-value {f.ff_p_value:.4g} (F, {f.df[0]} and {f.df[1]} df)" if f.ff_p_value is not None else
               "      p-value undefined (the F approximation needs N(k-1) > chi2_F)"),
              f"    by the {gate} p-value: {'significant' if f.significant else 'not significant'} at {f.alpha}",
              f"    Nemenyi critical difference CD = {f.critical_difference:.4f} (k = {k}, N = {n}, alpha = {f.alpha}; "
              "a statistical threshold)"]
    if f.significant:
        lines += _wrapped("average ranks further apart than CD: " +
                          ("; ".join(f"{a} vs {b}" for a, b in f.different) or "no pair"), 4)
    else:
        lines.append(f"    no pair is named: Nemenyi's test follows only a significant {gate} test")
    if n <= 10 or k <= 5:
        lines += _wrapped(f"Demšar's rule of thumb for the chi-square approximation is N > 10 and k > 5; with N = {n} "
                          f"and k = {k} its p-value is rough (exact critical values for small N and k exist in tables)",
                          4)
    if f.disagreements:
        lines += _wrapped("the average-rank order and the mean-cost order (each data set's mean cost averaged over "
                          "the data sets, exact) disagree: " +
                          "; ".join(f"{x} ranks better, {y} costs less" for x, y in f.disagreements), 4)
    return lines


def _friedman_chi2(f: Friedman) -> list[str]:
    """The tie-corrected χ² first (scipy's and autorank's), then the uncorrected one (Demšar's, F_F's)."""
    df = f"chi-square, {f.df[0]} df"
    if f.tie_factor == 1:
        return [f"    Friedman chi2_F = {_exact(f.chi2, 4)} (exact from the ranks; no tied mean costs, so the tie "
                "correction changes nothing)", f"      p-value {f.p_value:.4g} ({df})"]
    if f.chi2_corrected is None:
        lines = ["    Friedman chi2, tie-corrected: undefined (every data set ties all the classifiers)"]
    else:
        lines = _wrapped(f"Friedman chi2 = {_exact(f.chi2_corrected, 4)} (tie-corrected, the one printed by "
                         "scipy.stats.friedmanchisquare and autorank; exact from the ranks)", 4)
        lines.append(f"      p-value {f.p_corrected:.4g} ({df})")
    return lines + _wrapped(f"without the tie correction (Demšar's formula, which Iman-Davenport's F_F uses): "
                            f"chi2_F = {_exact(f.chi2, 4)}, p-value {f.p_value:.4g} ({df}); tie correction factor "
                            f"{_exact(f.tie_factor, 4)}", 4)


def wrapped(text: str, indent: int) -> list[str]:
    """`text` wrapped to the report's width, indented (continuation lines two more)."""
    return _wrapped(text, indent)


def _wrapped(text: str, indent: int) -> list[str]:
    if text and len(text) + indent <= 108 and " " not in text[:1] + text[-1:] and text.isprintable():
        return [" " * indent + text]  # what textwrap gives for a short printable line, without its cost
    return textwrap.wrap(text, width=108, initial_indent=" " * indent, subsequent_indent=" " * (indent + 2),
                         break_on_hyphens=False)


def _exact(x, digits: int = 3) -> str:
    return str(x) if x.denominator == 1 else f"{x} ≈ {float(x):.{digits}f}"


def _pct(level: float) -> str:
    return f"{level * 100:g}%"
