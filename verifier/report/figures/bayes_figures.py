"""baycomp's own plots of the Bayesian comparisons over the data sets (`verify evaluate --extra-stats --figures
DIR`, UseReport.figures() after extra_stats()): for each pair its posterior as baycomp draws it, a simplex of the
three probabilities (a costs less, practically equivalent, b costs less) or, when the region of practical
equivalence is never likely, a histogram of P(b costs less). Drawn by baycomp.Posterior.plot with the names in
the order (a, b): its left corner is a's lower cost, since baycomp was given the negated costs."""

from __future__ import annotations

import re

from verifier.report.figures.picture import Picture

KINDS = {"signed-rank": "Bayesian signed-rank test", "hierarchical": "Bayesian hierarchical test"}


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "classifier"


def bayes_pictures(pairs, document: str = "") -> list[Picture]:
    """A picture per Bayesian comparison (verifier.using.compare.bayes_over_datasets.BayesPair), distinct names."""
    out, taken = [], set()
    for p in pairs:
        name, n = f"bayes-{p.test}-{_slug(p.a)}-vs-{_slug(p.b)}", 2
        while name in taken:  # two classifier names with the same slug
            name, n = f"bayes-{p.test}-{_slug(p.a)}-vs-{_slug(p.b)}-{n}", n + 1
        taken.add(name)
        left, rope, right = p.probabilities
        out.append(Picture(name, f"{KINDS[p.test]}: {p.a} vs {p.b}",
                           f"baycomp's posterior of {p.a} against {p.b}: P({p.a} costs less) = {left:.3f}, "
                           f"P(practically equivalent) = {rope:.3f}, P({p.b} costs less) = {right:.3f}.",
                           lambda p=p: p.posterior.plot((p.a, p.b)), document))
    return out
