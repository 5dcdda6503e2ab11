"""The critical difference diagram of Demšar (2006, Fig. 1) for `verify evaluate` over several data sets: the
average ranks on an axis (1 = lowest mean cost), Nemenyi's critical difference as a bar above it, and thick
lines joining the classifiers whose average ranks lie within the critical difference of each other (drawn only
after a significant Iman-Davenport test, see verifier.using.compare.friedman; otherwise one line joins them all).
Drawn with matplotlib as SVG (deterministic text) or PNG; classifier names are plain text, never mathtext. The
picture decides nothing."""

from __future__ import annotations

from verifier.report.figures.picture import figure_bytes, plt


def groups(ranks: list[float], cd: float) -> list[tuple[int, int]]:
    """Maximal runs (i, j) of the sorted ranks with ranks[j] − ranks[i] ≤ cd: the classifiers Nemenyi's test
    does not tell apart, as the thick lines of the diagram (runs of one classifier are left out)."""
    out, last = [], -1
    for i in range(len(ranks)):
        j = i
        while j + 1 < len(ranks) and ranks[j + 1] - ranks[i] <= cd:
            j += 1
        if j > i and j > last:
            out.append((i, j))
            last = j
    return out


def cd_figure(f, title: str, fmt: str) -> bytes:
    """The diagram of `f` (`using.Friedman`, the ranks and tests `verify evaluate` computed), as bytes of `fmt`."""
    names = sorted(f.classifiers, key=lambda c: (f.ranks[c], f.classifiers.index(c)))
    ranks = [float(f.ranks[c]) for c in names]
    k = len(names)
    joined = groups(ranks, f.critical_difference) if f.significant else [(0, k - 1)]
    step, top = 0.32, -0.18 - 0.12 * len(joined)
    left = (k + 1) // 2
    fig, ax = plt.subplots(figsize=(6.4, 1.5 + step * left))
    ax.plot([1, k], [0, 0], color="black", lw=1)
    for r in range(1, k + 1):
        ax.plot([r, r], [0, 0.08], color="black", lw=1)
        ax.text(r, 0.14, str(r), ha="center", va="bottom", fontsize=8)
    cd = f.critical_difference
    ax.plot([1, 1 + cd], [0.62, 0.62], color="black", lw=1.2)
    for x in (1, 1 + cd):
        ax.plot([x, x], [0.56, 0.68], color="black", lw=1.2)
    ax.text(1 + cd / 2, 0.72, f"CD = {cd:.3f}", ha="center", va="bottom", fontsize=8)
    for g, (i, j) in enumerate(joined):
        y = -0.12 - 0.12 * g
        ax.plot([ranks[i] - 0.03, ranks[j] + 0.03], [y, y], color="black", lw=3, solid_capstyle="butt")
    for position, (name, rank) in enumerate(zip(names, ranks)):
        if position < left:  # the better half is labelled on the left, the worse on the right
            y, end, align = top - step * position, 1 - 0.25, "right"
        else:
            y, end, align = top - step * (k - 1 - position), k + 0.25, "left"
        ax.plot([rank, rank, end], [0, y, y], color="black", lw=0.8)
        ax.text(end + (-0.05 if align == "right" else 0.05), y, f"{name} ({rank:.3f})", ha=align, va="center",
                fontsize=8)
    ax.set_xlim(1 - 0.3 - 0.1 * k, k + 0.3 + 0.1 * k)
    ax.set_ylim(top - step * left, 1.0)
    ax.axis("off")
    name, p = ("Iman-Davenport", f.ff_p_value) if f.ff_p_value is not None else ("Friedman chi-square", f.p_value)
    verdict = (f"{name} p = {p:.3g} < {f.alpha}" if f.significant else
               f"{name} p = {p:.3g} ≥ {f.alpha}: no pair told apart")
    # no spec name drawn (`title` goes into the file's metadata): what the ranks are and the test's verdict
    ax.set_title(f"average ranks over {len(f.datasets)} data sets (1 = lowest mean cost); {verdict}", fontsize=8)
    return figure_bytes(fig, fmt, title)
