"""Pictures for the reports (matplotlib, SVG text): where each prediction is optimal, and where each property
holds over one or two symbolic parameters.

Plots are for people: floats place pixels here, and nothing drawn feeds a verdict. Exact boundaries are
labelled with their exact values. The SVG is deterministic (fixed hash salt, no date) so committed reports
only change when the scheme does.
"""

from __future__ import annotations

import io
import math

import sympy as sp

from verifier.formula import certified
from verifier.report.figures import plt  # the one matplotlib set-up: Agg, deterministic SVG, no mathtext
from verifier.verdict import Truth, Verdict

COLOURS = ["#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#eeca3b", "#b279a2", "#ff9da6", "#9d755d"]


def _svg(fig) -> str:
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None}, bbox_inches="tight")
    plt.close(fig)
    text = buffer.getvalue()
    return text[text.index("<svg"):]  # inline: drop the XML prolog and doctype


def plots(analysis) -> list[tuple[str, str]]:
    """(caption, svg) pairs that apply to this analysis."""
    out = []
    s = analysis.scheme
    if not s.symbolic and s.K == 2:
        out.append(("Optimal prediction as a function of the class probability (the paper's Fig. 2)", decision_line(analysis)))
    if not s.symbolic and s.K == 3:
        out.append(("Where each prediction is optimal on the probability simplex", simplex_map(analysis)))
    if s.symbolic and len(s.symbols) in (1, 2):
        out.append(("Where each property holds over the parameters (exact checks at grid points)", parameter_map(analysis)))
    return out


def _expected(scheme, members, p) -> float:
    return sum(p[y] * certified.to_float(scheme.cost(members, y)) for y in range(scheme.K))


def _optimal(scheme, p) -> frozenset:
    costs = {m: _expected(scheme, m, p) for m in scheme.all_sets}
    best = min(costs.values())
    winners = [m for m in scheme.all_sets if costs[m] <= best + 1e-12]
    return min(winners, key=len)  # drawing only: ties go to the smallest prediction


def decision_line(analysis) -> str:
    s, d = analysis.scheme, analysis.decision
    fig, ax = plt.subplots(figsize=(7, 1.6))
    colours = {m: COLOURS[i % len(COLOURS)] for i, m in enumerate(s.all_sets)}
    for region in d.regions:
        low, high = certified.to_float(region.low), certified.to_float(region.high)
        ax.axvspan(low, high, color=colours[region.optimal[0]], alpha=0.75)
        ax.text((low + high) / 2, 0.5, ", ".join(s.label(m) for m in region.optimal), ha="center", va="center")
    for boundary in d.boundaries():
        ax.axvline(certified.to_float(boundary), color="black", lw=1)
        ax.text(certified.to_float(boundary), 1.05, str(boundary), ha="center", va="bottom")
    for entry in analysis.possibility:
        if entry.status is Truth.TRUE:
            q = certified.to_float(entry.witness[1])
            ax.plot([q], [0.15], marker="v", color="black")
            ax.text(q, 0.02, "P1 witness", ha="center", va="bottom", fontsize=7)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_yticks([])
    ax.set_xlabel(d.variable)
    return _svg(fig)


def simplex_map(analysis, resolution: int = 48) -> str:
    s = analysis.scheme
    fig, ax = plt.subplots(figsize=(5.2, 4.8))
    corners = [(0.0, 0.0), (1.0, 0.0), (0.5, math.sqrt(3) / 2)]
    colours = {m: COLOURS[i % len(COLOURS)] for i, m in enumerate(s.all_sets)}
    seen = set()
    for i in range(resolution + 1):
        for j in range(resolution + 1 - i):
            p = (i / resolution, j / resolution, (resolution - i - j) / resolution)
            best = _optimal(s, p)
            seen.add(best)
            x = sum(w * c[0] for w, c in zip(p, corners))
            y = sum(w * c[1] for w, c in zip(p, corners))
            ax.plot([x], [y], marker="h", ms=4.2, color=colours[best], lw=0)
    for members, entry in analysis.optimality.items():  # only points where the set is the unique optimum
        if entry.status == "alone" and len(members) > 1:
            w = [certified.to_float(v) for v in entry.witness]
            x = sum(a * c[0] for a, c in zip(w, corners))
            y = sum(a * c[1] for a, c in zip(w, corners))
            ax.plot([x], [y], marker="*", ms=11, color="black")
            ax.annotate(f"{s.label(members)} alone best", (x, y), textcoords="offset points", xytext=(6, 4),
                        fontsize=7)
    for (x, y), name in zip(corners, s.classes):
        ax.text(x, y + (0.04 if y else -0.06), f"p({name}) = 1", ha="center")
    handles = [plt.Line2D([], [], marker="h", color=colours[m], lw=0, label=s.label(m)) for m in s.all_sets if m in seen]
    ax.legend(handles=handles, loc="upper right", fontsize=7, frameon=False)
    ax.set_aspect("equal")
    ax.axis("off")
    return _svg(fig)


def parameter_map(analysis, points: int = 24) -> str:
    """Exact numeric verdicts at grid points of the parameters (a picture of the region, not a proof)."""
    from verifier.engines.enumerate import EnumerationEngine
    from verifier.errors import SpecError
    from verifier.scheme.orbits import partial_only, rebuild_at

    s = analysis.scheme
    ranges = [_range(analysis, symbol) for symbol in s.symbols]
    mixed = [r.property for r in analysis.results if r.verdict is Verdict.FAILS and r.holds_at is not None]
    mixed = mixed or [r.property for r in analysis.results][:3]
    grid = [[lo + (hi - lo) * k / (points - 1) for k in range(points)] for lo, hi in ranges]
    cells = [(a,) for a in grid[0]] if len(grid) == 1 else [(a, b) for a in grid[0] for b in grid[1]]
    verdicts = {}
    for cell in cells:
        values = {sym.name: sp.nsimplify(v, rational=True) for sym, v in zip(s.symbols, cell)}
        try:
            concrete = rebuild_at(s, values)
        except SpecError:
            continue  # outside the assumptions or undefined there: left blank
        if partial_only(concrete):
            continue  # some sets only, at values the symmetry does not cover: no verdict to draw
        engine = EnumerationEngine(concrete)
        verdicts[cell] = {p.id: engine.decide(p).verdict for p in mixed}
    fig, axes = plt.subplots(1, len(mixed), figsize=(2.6 * len(mixed), 2.6 if len(grid) == 2 else 1.4), squeeze=False)
    colour = {Verdict.HOLDS: "#54a24b", Verdict.FAILS: "#e45756", Verdict.UNKNOWN: "#eeca3b"}
    for ax, prop in zip(axes[0], mixed):
        for cell, table in verdicts.items():
            x, y = cell[0], (cell[1] if len(cell) == 2 else 0.5)
            ax.plot([x], [y], marker="s", ms=5, lw=0, color=colour[table[prop.id]])
        ax.set_title(f"{prop.id} {prop.name}", fontsize=8)
        ax.set_xlabel(s.symbols[0].name)
        if len(grid) == 2:
            ax.set_ylabel(s.symbols[1].name)
        else:
            ax.set_yticks([])
    return _svg(fig)


def _range(analysis, symbol) -> tuple[float, float]:
    """A window for one parameter: the admissible box when bounded, else around the exact examples."""
    values = [float(v) for r in analysis.results for source in (r.evidence.parameters, r.holds_at) if source
              for k, v in source.items() if k == symbol.name]
    values += [float(v) for sample in (analysis.symbolic.samples if analysis.symbolic else []) for k, v in
               sample.items() if k == symbol.name]
    low = min(values + [0.0])
    high = max(values + [1.0])
    return low, high * 1.25 if high > 1 else high
