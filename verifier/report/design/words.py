"""What `verify design` says: the designed spec with its justification, and JSON (why not: `report.design.why_not`).

The justification is plain text, written as YAML comments above the designed spec (so the file carries its own
explanation) and printed as is when the spec goes to a file. Only what the solver and the checker established
is said: exact bounds, open or closed ends, a hull marked as a hull.
"""

from __future__ import annotations

from fractions import Fraction

from verifier.designing import Completion, failing_cover, fit_test
from verifier.engines.margins import Bound, Interval
from verifier.errors import counted
from verifier.formula.rounded import rounded
from verifier.properties import BY_ID, PROPERTIES, Level
from verifier.properties.settings import TABLE_VIII
from verifier.verdict import Verdict


def frac_text(x: Fraction | None) -> str | None:
    """An exact rational as a JSON string ("3/8"), None kept."""
    return None if x is None else str(x)


def bound_words(b: Bound, minimize: bool) -> str:
    """An optimum's bound in words: its value and whether it is attained, or "unbounded"."""
    if b.value is None:
        return "unbounded"
    word = "attained" if b.attained else "not attained: strict inequalities only approach it"
    return f"{'infimum' if minimize else 'supremum'} is {b.value} ({word})"


def justification(c: Completion) -> list[str]:
    """The designed spec's justification, line by line: the demands, the objective and margin, the freedom left per cell
    and the checker's verdicts."""
    s = c.solution
    lines = [f"verify design: {c.spec.name}, for the {c.request.setting} setting", ""]
    lines.append("Demands (the paper's Table VIII for this setting, and the options):")
    for d in c.kept:
        lines.append(f"  {d.label}: {d.why}" + ("" if d.firm else " (a wish, met)"))
    for d, conflict in c.dropped:
        lines.append(f"  {d.label}: {d.why} (a wish, NOT met: {_wish_conflict(d, conflict)})")
    lines.append("")
    if s.unbounded:
        lines.append(f"Objective: {c.objective.text}: unbounded under these demands; the matrix below is one "
                     "feasible matrix, not an optimum. Fix some cells, or add a demand that bounds it (--with P10 "
                     "bounds every cell by its members' largest cost).")
    else:
        lines.append(f"Objective: {c.objective.text}: {s.objective_value} at this margin; with the margin free, "
                     f"its {bound_words(s.objective_bound, c.objective.minimize)}.")
    if c.objective.rounded:
        lines.append(f"  ({counted(c.objective.rounded, 'irrational target value')} rounded to 12 significant digits; "
                     "the costs are exact.)")
    if s.largest_margin.value == s.margin_cap and s.largest_margin.attained:
        largest = f"any up to {s.margin_cap} at least (the search stops at the largest determinate cost)"
    else:
        largest = ("up to " if s.largest_margin.attained else "below ") + str(s.largest_margin.value)
    lines.append(f"Margin: every strict inequality the demands ask for holds with a margin of at least {s.margin} "
                 f"(possible margins: {largest}; --margin to choose).")
    if c.check is not None:
        fits = "; ".join(f"{name}: {fit.label}" for name, fit in c.check.settings.items())
        verdicts = ", ".join(f"{r.property.id} {r.verdict.value}" for r in c.check.results)
        lines.append(f"Checked by the checker: {verdicts}. Settings: {fits}.")
    if c.ranges:
        lines += ["", "Freedom left: each open cell's exact set of values with the others free, under the same "
                      "demands (strict ends open):"]
        width = max(len(r.cell.label) for r in c.ranges)
        for r in c.ranges:
            tag = "forced" if r.forced else ""
            lines.append(f"  {r.cell.label.ljust(width)}  {r.text()}" + (f"   {tag}" if tag else ""))
        forced = sum(r.forced for r in c.ranges)
        lines.append(f"  {forced:,} of {counted(len(c.ranges), 'open cell')} forced; the others are a matter of taste "
                     "within their range (jointly constrained: not every combination is allowed).")
    lines += region_lines(c)
    return lines


def _wish_conflict(wish, conflict) -> str:
    """The wish's minimal conflict (it includes the wish): the other parts it cannot hold together with."""
    others = [part for part in conflict.parts if not part.startswith(wish.label + " (")]
    if not others:
        return "no matrix with these determinate costs meets it"
    return "it cannot hold together with " + "; ".join(others) + " (a minimal conflict)"


MAX_PIECES_SHOWN = 6


def region_lines(c: Completion) -> list[str]:
    """Each pictured pair of open cells: the region as exact convex pieces (bounds, corners, whether it ends)."""
    lines = []
    for r in c.regions:
        pair = f"({r.x.label}, {r.y.label})"
        if not r.exact:
            lines += ["", f"Region of {pair}: not computed (z3 gave no answer in time, or the region has too many "
                      "pieces to draw); raise --timeout, or fix more cells. The ranges above still hold."]
            continue
        count = len(r.pieces)
        size = "one convex piece" if count == 1 else f"{count} convex pieces (they may overlap)"
        lines += ["", f"Region of {pair}, the other cells free: {size}:" if count else
                  f"Region of {pair}: empty."]
        for n, piece in enumerate(r.pieces[:MAX_PIECES_SHOWN], 1):
            bounds = ", ".join(h.text(r.x.label, r.y.label) for h in piece.supporting()) or "no bound"
            excluded = set(piece.open_vertices())
            (x0, y0), (x1, y1) = r.frame
            corners = [f"({p[0]}, {p[1]})" + (" excluded" if p in excluded else "") for p in piece.vertices
                       if p[0] not in (x0, x1) and p[1] not in (y0, y1)]
            lines.append(f"  {n}. {bounds}; corners {', '.join(corners) or 'none'}; "
                         + ("bounded" if piece.bounded else "unbounded"))
        if count > MAX_PIECES_SHOWN:
            lines.append(f"  ... and {count - MAX_PIECES_SHOWN:,} more (all of them in --format json)")
    return lines


def region_json(c: Completion) -> list[dict]:
    """The feasible regions on pairs of open cells as JSON data: each piece's bounds, vertices and edges."""
    out = []
    for r in c.regions:
        entry = {"cells": [r.x.label, r.y.label], "exact": r.exact, "chosen": None if r.chosen is None else
                 [str(v) for v in r.chosen], "frame": [[str(v) for v in corner] for corner in r.frame], "pieces": []}
        for piece in r.pieces:
            entry["pieces"].append({
                "bounds": [{"a": str(h.a), "b": str(h.b), "c": str(h.c), "relation": "=" if h.equal else
                            ("<" if h.strict else "<="), "text": h.text(r.x.label, r.y.label)}
                           for h in piece.supporting()],
                "vertices": [[str(v) for v in p] for p in piece.vertices],
                "excluded_vertices": [[str(v) for v in p] for p in piece.open_vertices()],
                "edges": [kind for *_, kind in piece.edges()], "bounded": piece.bounded})
        out.append(entry)
    return out


def _interval(i: Interval) -> dict:
    return {"low": frac_text(i.low), "high": frac_text(i.high), "low_closed": i.low_closed,
            "high_closed": i.high_closed}


def bound_json(b: Bound) -> dict:
    """A bound as JSON data: its value (a string, or null) and whether it is attained."""
    return {"value": frac_text(b.value), "attained": b.attained}


def to_json(c: Completion) -> dict:
    """The design as JSON data: the demands and objective, and when designed the values, margin, freedom per cell,
    regions and the checker's verdicts."""
    out = {"spec": c.spec.path, "name": c.spec.name, "setting": c.request.setting,
           "status": "designed" if c.feasible else "impossible",
           "demands": [{"property": d.pid, "holds": d.holds, "firm": d.firm, "why": d.why} for d in c.request.demands],
           "objective": {"kind": c.objective.kind, "text": c.objective.text, "minimize": c.objective.minimize,
                         "rounded_targets": c.objective.rounded}}
    if not c.feasible:
        return out  # `report.design.why_not.impossible_json` adds why
    s = c.solution
    out["dropped_wishes"] = [{"property": d.pid, "holds": d.holds, "conflict": x.parts} for d, x in c.dropped]
    out["objective"] |= {"value": None if s.unbounded else frac_text(s.objective_value), "unbounded": s.unbounded,
                         "margin_free_bound": bound_json(s.objective_bound)}
    out["margin"] = {"used": frac_text(s.margin), "largest": bound_json(s.largest_margin)}
    ranges = {r.cell.key: r for r in c.ranges}
    cells = {}
    for cell in c.problem.cells:
        entry = {"value": frac_text(s.values[cell.key]), "fixed": cell.given is not None}
        if cell.key in ranges:
            r = ranges[cell.key]
            entry |= {"range": [_interval(i) for i in r.intervals], "range_exact": r.exact, "forced": r.forced}
        cells[cell.label] = entry
    out["cells"] = cells
    if c.regions:
        out["regions"] = region_json(c)  # each bound: a·x + b·y + c (relation) 0, x and y the two cells
    if c.check is not None:
        out["verdicts"] = {r.property.id: r.verdict.value for r in c.check.results}
        out["fits"] = {name: fit.fits for name, fit in c.check.settings.items()}
    out["spec_text"] = c.text
    return out


def _end(x) -> str:
    if x is None:
        return "-inf"
    return str(x) if x.is_Rational else f"{_exact(x)} (≈ {rounded(x):.12g})"  # 12 digits of the correctly rounded float


def _exact(x) -> str:
    """An exact end as written by hand: 1 - log(2)/log(3), not -log(2)/log(3) + 1."""
    import sympy as sp

    return sp.sstr(x, order="rev-lex")


def run_text(low, high, low_in, high_in) -> str:
    """A run of the parameter as an interval, "[a, b)" or "(a, +inf)", or "{a}" for a single point."""
    if low is not None and low == high:
        return f"{{{_end(low)}}}"  # a single point
    return ("[" if low_in else "(") + _end(low) + ", " + ("+inf" if high is None else _end(high)) + \
        ("]" if high_in else ")")


def where_text(p: str, runs) -> str:
    """Where a claim is proved: "at r = 1" for a single point, else "for r in" its runs."""
    if _lone_point(runs):
        return f"at {p} = {_end(runs[0][0])}"
    return f"for {p} in " + " ∪ ".join(run_text(*r) for r in runs)


def _lone_point(runs) -> bool:
    return len(runs) == 1 and runs[0][0] is not None and runs[0][0] == runs[0][1]


def calibration_lines(cal, name: str, bounded) -> list[str]:
    """`bounded(low, high, low_in, high_in, setting)` -> (low reasons, high reasons)."""
    p = cal.parameter
    how = cal.method or "verdicts change only where a comparison's difference vanishes"
    lines = [f"Calibration of {p} for {name}: where each property holds, exactly (each verdict decided by the "
             f"checker at an exact value of {p}; {how})."]
    # cut short by the time bound, "no admissible value" would claim what was never decided
    none = f"no value of {p} decided before the time limit" if cal.stopped else f"no admissible {p}"
    for prop in PROPERTIES:
        runs = cal.where(lambda v, pid=prop.id: v[pid] == Verdict.HOLDS)
        lines.append(f"  {prop.id:<4} {prop.name:<34} " + (f"holds {where_text(p, runs)}" if runs else
                                                              f"holds for {none}"))
    for setting in ("filtering", "choice"):
        runs = cal.where(fit_test(setting))
        clean = cal.where(fit_test(setting, clean=True))
        if not runs:
            lines.append(f"  {setting}: fits for {none}")
            continue
        parts = []
        for run in runs:
            low_why, high_why = bounded(*run, setting)
            why = []
            for pids, side in ((low_why, "below"), (high_why, "above")):
                if pids:
                    why.append(f"{', '.join(pids)} {'fails' if len(pids) == 1 else 'fail'} {side} it")
            parts.append(f" ({'; '.join(why)})" if why else "")
        lines.append(f"  {setting}: fits " + (where_text(p, runs) + parts[0] if _lone_point(runs) else
                                              f"for {p} in " + " ∪ ".join(run_text(*r) + why
                                                                          for r, why in zip(runs, parts))))
        lines.append(f"  {setting}: fits without warnings " + (where_text(p, clean) if clean else f"for {none}"))
    for piece in _undecided(cal):
        which = "every property" if piece.verdicts is None else \
            ", ".join(pid for pid, v in piece.verdicts.items() if v is None)
        stretch = run_text(piece.low, piece.high, piece.low_in, piece.high_in)
        lines.append(f"  undecided for {p} in {stretch} ({which}): {piece.reason}")
    return lines


def no_fit(cal, setting: str, firm, stopped: bool = False) -> tuple[str, dict]:
    """Why no admissible value meets the firm demands: the demands that fail, each with where it fails (exactly,
    as the checker decided), together covering every value; necessary properties first, as far as they go.
    `stopped`: the time bound cut the calibration, so only "none found among the decided pieces" is claimed."""
    order = [prop.id for prop in PROPERTIES]
    demands = sorted(((d.pid, d.holds) for d in firm), key=lambda d: order.index(d[0]))
    necessary = [d for d in demands if TABLE_VIII[setting][d[0]] == Level.N]
    chosen, undecided = failing_cover(cal, [necessary, [d for d in demands if d not in necessary]])
    p = cal.parameter
    parts = [f"{pid} ({BY_ID[pid].name}) " + ("fails " if holds else "holds, and it is asked to fail, ") +
             " and ".join(f"at {p} = {_end(r[0])}" if r[0] is not None and r[0] == r[1] else
                          f"for every {p} in {run_text(*r)}" for r in runs) for pid, holds, runs in chosen]
    if undecided:
        parts.append(f"for {p} in " + " ∪ ".join(run_text(*r) for r in undecided) + " no firm demand is proved to "
                     "fail, but not all are proved to hold (undecided, see above)")
    lead = (f"No value of {p} meeting the firm demands of the {setting} setting was found before the time limit"
            if stopped else f"No admissible value of {p} meets the firm demands of the {setting} setting")
    text = lead + ": " + "; ".join(parts) + "."

    def runs_json(runs):
        return [{"low": _json_end(lo), "high": _json_end(hi), "low_closed": a, "high_closed": b}
                for lo, hi, a, b in runs]

    return text, {"failing": [{"property": pid, "must": "hold" if holds else "fail", "where": runs_json(runs)}
                              for pid, holds, runs in chosen], "undecided": runs_json(undecided)}


def _json_end(x):
    return None if x is None else _exact(x)


def calibration_json(cal, bounded) -> dict:
    """The calibration as JSON data: where each property holds, where each setting is fitted (with and without
    warnings), with exact ends."""
    def runs(test, setting=None):
        out = []
        for low, high, low_in, high_in in cal.where(test):
            entry = {"low": _json_end(low), "high": _json_end(high), "low_closed": low_in, "high_closed": high_in}
            if setting:
                entry["bounded_below_by"], entry["bounded_above_by"] = bounded(low, high, low_in, high_in, setting)
            out.append(entry)
        return out

    return {"parameter": cal.parameter, "method": cal.route,
            "holds": {prop.id: runs(lambda v, pid=prop.id: v[pid] == Verdict.HOLDS) for prop in PROPERTIES},
            "fits": {s: runs(fit_test(s), s) for s in ("filtering", "choice")},
            "fits_without_warnings": {s: runs(fit_test(s, clean=True)) for s in ("filtering", "choice")},
            "undecided": [{"low": _text_end(piece.low), "high": _text_end(piece.high), "low_closed": piece.low_in,
                           "high_closed": piece.high_in, "reason": piece.reason,
                           "properties": [p.id for p in PROPERTIES if piece.verdicts is None or
                                          piece.verdicts[p.id] is None]} for piece in _undecided(cal)]}


def _text_end(x):
    return None if x is None else str(x)  # unbounded: null, not the text "None"


def _undecided(cal) -> list:
    return [piece for piece in cal.pieces if piece.admissible and
            (piece.verdicts is None or any(v is None for v in piece.verdicts.values()))]
