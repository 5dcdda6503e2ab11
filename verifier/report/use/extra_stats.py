"""The text of `verify evaluate --extra-stats` (the optional extra `stats`, verifier.using.compare.posthoc): each number
labelled with the library and the method that gave it. Decides nothing."""

from __future__ import annotations

from verifier.report.use.comparison import favours_text, wrapped


def extra_text(record: dict, alpha: float) -> list[str]:
    """The extra statistics of `posthoc.extra_statistics`, as report lines."""
    lines = ["", "Further statistics (the optional extra 'stats'; statistical estimates)"]
    pairs = record["pairs"]["p_bh"]
    if pairs:
        lines += wrapped(f"Per pair, the Wilcoxon p-value adjusted by {record['pairs']['adjustment']}, beside "
                         "Holm's:", 2)
        for p in pairs:
            where = f" on data set {p['dataset']}" if p["dataset"] is not None else ""
            lines += wrapped(f"{p['a']} vs {p['b']}{where}: Holm {p['p_holm']:.4g}, Benjamini-Hochberg "
                             f"{p['p_bh']:.4g} ({'significant' if p['significant_bh'] else 'not significant'} at "
                             f"{alpha}); {favours_text(p['test_favours'], p['lower_mean_cost'])}", 4)
    over = record.get("over_datasets")
    if over and over["p_bh"]:
        lines += wrapped("Over the data sets, the Wilcoxon p-values adjusted by Benjamini-Hochberg:", 2)
        for p in over["p_bh"]:
            lines += wrapped(f"{p['a']} vs {p['b']}: Holm {p['p_holm']:.4g}, Benjamini-Hochberg {p['p_bh']:.4g}; "
                             f"{favours_text(p['test_favours'], p['lower_mean_cost'], 'averaged over the data sets')}",
                             4)
    conover = record.get("conover_friedman")
    if conover:
        lines += wrapped(f"{conover['test']}:", 2)
        lines += [f"    {p['a']} vs {p['b']}: p-value {p['p_holm']:.4g}, {_rank_words(p)}" for p in conover["p_holm"]]
    lines += all_pairs_text(record.get("all_pairs_after_friedman"))
    for key in ("bayesian_signed_rank", "bayesian_hierarchical"):
        bayes = record.get(key)
        if bayes and bayes["pairs"]:
            lines += wrapped(f"{bayes['test']}, rope = {bayes['rope']:g}:", 2)
            lines += wrapped_pairs(bayes["pairs"])
        if bayes and bayes.get("note"):
            lines += wrapped(f"{bayes['note'][0].upper()}{bayes['note'][1:]}.", 2)
    return lines


def wrapped_pairs(pairs: list[dict]) -> list[str]:
    """One line per pair of the Bayesian test: its three posterior probabilities."""
    out = []
    for p in pairs:
        out += wrapped(f"{p['a']} vs {p['b']}: P({p['a']} costs less) = {p['p_a_lower']:.3f}, P(practically "
                       f"equivalent) = {p['p_equivalent']:.3f}, P({p['b']} costs less) = {p['p_b_lower']:.3f}", 4)
        if p.get("on_rope_edge"):
            out += wrapped(f"({p['on_rope_edge']})", 6)
    return out


def all_pairs_text(record: dict | None) -> list[str]:
    """Shaffer's and Bergmann-Hommel's adjusted p-values of every pair after Friedman
    (verifier.using.compare.all_pairs)."""
    if not record:
        return []
    if not record["pairs"]:
        return wrapped(f"All pairwise comparisons after Friedman: {record['note']}.", 2)
    lines = wrapped(f"All pairwise comparisons after Friedman: {record['shaffer']}" +
                    (f"; and {record['bergmann_hommel']}" if record["bergmann_hommel"] else "") +
                    f"; significant when the adjusted p-value is at most {record['alpha']}:", 2)
    for p in record["pairs"]:
        text = (f"{p['a']} vs {p['b']}: z = {p['z']:.3f}, p-value {p['p_value']:.4g}, Shaffer {p['p_shaffer']:.4g} "
                f"({'significant' if p['significant_shaffer'] else 'not significant'})")
        if "p_bergmann_hommel" in p:
            text += (f", Bergmann-Hommel {p['p_bergmann_hommel']:.4g} "
                     f"({'significant' if p['significant_bergmann_hommel'] else 'not significant'})")
        lines += wrapped(text + (f"; {_rank_words(p)}" if "lower_average_rank" in p else ""), 4)
    if record["note"]:
        lines += wrapped(f"{record['note']}.", 4)
    return lines


def _rank_words(p: dict) -> str:
    """A rank test's side: the classifier of lower (better) average rank."""
    return "equal average ranks" if p["lower_average_rank"] is None else \
        f"{p['lower_average_rank']} of lower average rank"
