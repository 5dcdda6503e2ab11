"""What `verify evaluate SPEC --scores FILE` says, as text and JSON: per data set the VACC of every classifier
(exact, or between exact bounds, labelled which), where abstaining pays, the cheapest classifier per scenario,
the differential cost of each pair, Lemma 1 on the data and the re-check; in JSON every grid, exact."""

from __future__ import annotations

import textwrap
from fractions import Fraction

from verifier.using.abstention import TRIVIAL, AbstentionCurves, ClassifierCurves, Difference

WIDTH = 110
SHOWN_SCENARIOS = 5  # windows printed per classifier
PAIRS_SHOWN = 15  # pairs' differential costs printed by default per data set (five classifiers and the trivial)


def _wrap(text: str, indent: int = 0) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=" " * indent, subsequent_indent=" " * (indent + 2),
                         break_on_hyphens=False, break_long_words=False)


def _num(x: Fraction, digits: int = 4) -> str:
    return str(x) if x.denominator == 1 else f"{float(x):.{digits}f}"


def _at(curves: AbstentionCurves, s: int) -> str:
    return ", ".join(f"{name} = {_num(v, 3)}" for name, v in zip(curves.parameters, curves.scenarios[s].values))


def _grid_text(curves: AbstentionCurves) -> str:
    parts = [f"{name} from {_num(g[0], 3)} to {_num(g[-1], 3)} ({len(g):,} points)"
             for name, g in zip(curves.parameters, curves.grids)]
    excluded = len(curves.scenarios) - len(curves.admissible)
    note = ""
    if excluded:
        reasons = list(dict.fromkeys(s.excluded.removeprefix("outside the assumption ") for s in curves.scenarios
                                     if s.excluded))
        note = f"; {excluded:,} left out, outside the assumptions ({', '.join(reasons)})"
    return " x ".join(parts) + f": {len(curves.admissible):,} cost scenarios" + note


def abstention_lines(curves: AbstentionCurves, verbose: bool = True) -> list[str]:
    """The whole text (`verbose`), or the default's: the first PAIRS_SHOWN pairs' differential costs per data set."""
    lines = _wrap(f"Abstention cost curves (Friedel, Rückert & Kramer) of {curves.path}, {_grid_text(curves)}.")
    lines += _wrap("Each classifier abstains between two thresholds l < u (predicting P above u and N below l); "
                   "at each scenario the window of least expected cost on these data is chosen exactly (ties: the "
                   "narrowest window, else the lowest threshold). VACC is the volume under the least normalised "
                   "cost (false negatives cost 1, false positives mu, abstaining nu; Eq. 7) over mu and nu in "
                   "[0, 1], whatever the spec's parameters.")
    for dataset in dict.fromkeys(c.dataset for c in curves.classifiers):
        mine = [c for c in curves.classifiers if c.dataset == dataset]
        lines += [""] + ([f"Data set {dataset}:"] if dataset is not None else [])
        lines += _table(curves, mine)
        lines += _cheapest(curves, mine)
        lines += _difference_table([d for d in curves.differences if d.first.dataset == dataset],
                                   None if verbose else PAIRS_SHOWN)
        lines += _checks(mine, any(s.nu != s.nu_n for s in curves.scenarios if s.excluded is None))
    if curves.note:
        lines += [""] + _wrap(f"Differential costs: {curves.note}.")
    return lines


def _table(curves: AbstentionCurves, mine: list[ClassifierCurves]) -> list[str]:
    """One line per classifier, each column as wide as its widest cell (no padding beyond it)."""
    rows = [["classifier", "VACC", "abstaining pays", "cost", "abstains on"]]
    for c in mine:
        pays = c.volume.pays_low if c.volume.exact else None
        pays_text = f"{float(pays):.1%} of [0,1]²" if pays is not None else \
            f"{float(c.volume.pays_low):.1%}-{float(c.volume.pays_high):.1%}"
        costs = [x for x in c.costs if x is not None]
        rates = [Fraction(w.abstained, c.n) for w in c.windows if w is not None]
        name = "trivial" if c.name == TRIVIAL else c.name
        vacc = f"{float(c.volume.low):.5f}" + (" (exact)" if c.volume.exact else f"-{float(c.volume.high):.5f}")
        rows.append([name[:16], vacc, pays_text, f"{_num(min(costs))}-{_num(max(costs))}",
                     f"{float(min(rates)):.1%}-{float(max(rates)):.1%}"])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [("  " + "  ".join(v.ljust(w) for v, w in zip(r, widths))).rstrip() for r in rows]
    if not mine[0].positives or not mine[0].negatives:
        only = "P" if mine[0].negatives == 0 else "N"
        lines += _wrap(f"Every instance here is {only}: predicting {only} everywhere costs nothing in the normal form, "
                       "so every classifier's least cost is that of always being right, and VACC is 0; a validation "
                       "set with both classes is needed to compare abstention windows.", 2)
    lines += _wrap(f"(n = {mine[0].n:,}: {mine[0].positives:,} P, {mine[0].negatives:,} N; 'trivial' always "
                   "predicts P, always N or always abstains, whichever is cheaper; cost and abstention rate: their "
                   "range over the scenarios, the cost in the spec's terms)", 2)
    return lines


def _cheapest(curves: AbstentionCurves, mine: list[ClassifierCurves]) -> list[str]:
    wins = {c.label: 0 for c in mine}
    ties = 0
    for s in curves.admissible:
        costs = [(c.costs[s], c.label) for c in mine]
        least = min(x for x, _ in costs)
        best = [label for x, label in costs if x == least]
        if len(best) > 1:
            ties += 1
        else:
            wins[best[0]] += 1
    text = ", ".join(f"{label.replace(TRIVIAL, 'trivial')} at {n:,}" for label, n in wins.items() if n)
    return _wrap(f"Cheapest per scenario: {text or 'none alone'}" + (f"; tied at {ties:,}" if ties else "") + ".", 2)


def _difference_table(differences: list[Difference], shown: int | None = None) -> list[str]:
    """One row per pair: at how many scenarios each is cheaper (and by how much at most), and the VACC gap; the
    first `shown` pairs (None: all), then how many more."""
    if not differences:
        return []
    rows = [["first - second", "first cheaper", "second cheaper", "equal", "VACC gap"]]
    for d in differences[:shown]:
        cells = []
        for sign in (-1, 1):
            best = d.extreme(sign)
            cells.append(f"{d.count(sign):,}" + (f" (by ≤ {_num(best[0])})" if best else ""))
        gap = _num(d.first.volume.low - d.second.volume.low, 5) if d.first.volume.exact and d.second.volume.exact \
            else "bounded"
        rows.append([f"{d.first.name} - {d.second.name}"[:30], *cells, f"{d.count(0):,}", gap])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [("  " + "  ".join(v.rjust(w) if i >= 3 else v.ljust(w) for i, (v, w) in enumerate(zip(r, widths))))
             .rstrip() for r in rows]
    if shown is not None and len(differences) > shown:
        lines.append(f"  and {len(differences) - shown:,} more pairs: all of them with -v or in --format json")
    return ["  Differential cost per scenario (the spec's expected cost of the first minus the second):"] + lines


def _checks(mine: list[ClassifierCurves], two_costs: bool = False) -> list[str]:
    checked = sum(c.recheck.checked for c in mine)
    total = sum(c.recheck.scenarios for c in mine)
    beyond = sum(c.recheck.beyond_lemma for c in mine)
    holds = all(c.recheck.lemma_holds for c in mine)
    lines = _wrap(f"Re-checked: {checked:,} of {total:,} optimal windows by an independent exact search over every "
                  "window" + (" (an even sample: the rest within the budget)" if checked < total else "") + ".", 2)
    if beyond:
        line = "nu_N >= mu (1 - nu_P) (abstaining costs nu_P on P, nu_N on N)" if two_costs else "nu >= mu/(1 + mu)"
        lines += _wrap(f"Lemma 1 on these data: at the {beyond:,} re-checked scenarios with {line}, "
                       + ("no abstaining window is cheaper than the best threshold." if holds else
                          "some abstaining window is cheaper than the best threshold (Lemma 1 is refuted: report "
                          "this as a bug)."), 2)
    return lines
