"""What `verify evaluate` says when it compares classifiers: the statistical tests, each labelled as what it is
(p-values at a level, never verdicts)."""

from __future__ import annotations

from verifier.analysis.use.compare import Friedman, PairTest


def comparison_json(pairs: list[PairTest], friedman: Friedman | None, alpha: float) -> dict:
    """Every float is finite here (NaN is not JSON): undefined tests are left out or given as null."""
    out = {"alpha": alpha, "wilcoxon": [{"a": p.a, "b": p.b, "statistic": p.statistic, "p_value": p.p_value,
                                         "better": p.better, "note": p.note} for p in pairs]}
    if friedman is not None:
        out["friedman"] = {"statistic": friedman.statistic, "p_value": friedman.p_value,
                           "average_ranks": friedman.ranks, "nemenyi_critical_difference": friedman.critical_difference,
                           "different": [list(pair) for pair in friedman.different]}
    return out


def comparison_text(pairs: list[PairTest], friedman: Friedman | None, alpha: float) -> list[str]:
    lines = ["", f"Paired comparison of per-instance costs (Wilcoxon signed-rank, level {alpha}):"]
    for p in pairs:
        if p.p_value is None:
            lines.append(f"  {p.a} vs {p.b}: {p.note}")
        else:
            verdict = f"{p.better} costs less (significant)" if p.better else "no significant difference"
            lines.append(f"  {p.a} vs {p.b}: p = {p.p_value:.4g}; {verdict}")
    if friedman is None and len({p.a for p in pairs} | {p.b for p in pairs}) >= 3:
        lines.append("Friedman: not applicable (every classifier costs the same on every instance)")
    if friedman is not None:
        ranks = ", ".join(f"{name} {rank:.3f}" for name, rank in sorted(friedman.ranks.items(), key=lambda t: t[1]))
        lines.append(f"Friedman: p = {friedman.p_value:.4g}; average ranks (1 = cheapest): {ranks}; Nemenyi "
                     f"critical difference {friedman.critical_difference:.4f}")
        lines.append("  ranks differ significantly (Nemenyi, after a significant Friedman test): " +
                     ("; ".join(f"{a} vs {b}" for a, b in friedman.different) or "no pair"))
    return lines
