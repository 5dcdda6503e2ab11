"""What `verify design` says when no matrix meets the firm demands: the conflicts, a correction, the least change.

Only what was checked is said. Each conflict listed is infeasible and minimal (each part needed for it), but
dropping one part may leave another conflict, so no sentence says that it would not; a correction was re-solved
feasible, and "smallest" is said only when every smaller removal was refuted.
"""

from __future__ import annotations

from verifier.designing import MAX_CONFLICTS, Completion, Diagnosis
from verifier.report.design.words import bound_json, bound_words, frac_text, to_json


def why_not_text(c: Completion) -> str:
    """Only what was checked: each conflict is infeasible and minimal; a correction was re-solved feasible."""
    d = c.diagnosis
    lines = [f"verify design: no extended matrix for {c.spec.name!r} meets the firm demands of the "
             f"{c.request.setting} setting.", "",
             "A minimal conflict: these cannot all hold together, and each is needed for this conflict:"]
    alone = {True: "  (dropping only this one leaves a matrix)", False: "  (dropping only this one leaves a conflict)"}
    lines += [f"  - {part}" + alone.get(d.lifted_alone.get(part), "") for part in c.conflict.parts]
    shown = d.conflicts[:MAX_CONFLICTS]
    if d.complete and len(shown) == 1:
        lines.append("It is the only minimal conflict (the search is complete).")
    else:
        how = ("the search is complete" if d.complete else f"more than {MAX_CONFLICTS} exist; the search stopped "
               f"after finding {len(d.conflicts)}" if d.more else f"there may be more: {d.stopped}")
        lines += ["", f"{'Every minimal conflict' if d.complete else 'Minimal conflicts found'} ({how}):"]
        lines += [f"  {n}. " + "; ".join(p.label for p in mus) for n, mus in enumerate(shown, 1)]
        if len(d.conflicts) > len(shown):
            lines.append(f"  ... and {len(d.conflicts) - len(shown):,} more found (all of them in --format json)")
    lines += [""] + correction_lines(d)
    r = c.repair
    if r is None:
        lines += ["", "No change of fixed cells can help: " + (
            "the spec fixes no set cell." if not c.problem.fixed_cells else
            "the firm demands conflict with the determinate costs whatever the set cells are.")]
    else:
        lines += ["", f"Least change of the fixed cells, every demand kept: the least total change (L1); its "
                      f"{bound_words(r.least_change, True)}. With a margin of {r.margin}, these values give a matrix "
                      f"that meets every firm demand (total change {r.total}):"]
        lines += [f"  {label}: {old} -> {new}" for label, old, new in r.changes]
    return "\n".join(lines) + "\n"


def correction_lines(d: Diagnosis) -> list[str]:
    """The smallest correction (or why none was established) in words, with what dropping each part alone does."""
    kept = "necessary demands are never dropped: no scheme without one fits the setting"
    if d.correction is None:
        if d.no_correction is not None:
            return [f"No correction ({kept}): the necessary demands " + "; ".join(p.label for p in d.no_correction)
                    + " cannot hold together with these determinate costs, so the determinate costs must change."]
        return [f"No correction was established ({d.stopped})."]
    k, cells = len(d.correction), sum(p.cell is not None for p in d.correction)
    how = ", ".join(f"{n} {w}{'s' if n > 1 else ''} {v}" for n, w, v in ((cells, "fixed cell", "left open"),
                                                                         (k - cells, "demand", "dropped")) if n)
    head = (f"{'Smallest correction' if d.smallest else 'A correction'} ({k} part{'s' if k > 1 else ''}; {kept}): "
            f"without {'these' if k > 1 else 'it'} ({how}), a matrix meets every other demand and fixed cell "
            "(checked)")
    if d.smallest:
        head += "." if k == 1 else ("; removing fewer of the fixed cells and non-necessary demands never does "
                                    "(each such removal leaves a conflict found intact).")
    else:
        head += (f", and putting back any one of them brings a conflict back (checked); not proved the smallest "
                 f"({d.stopped})" + (f": removing fewer than {d.lower_bound:,} fixed cells and non-necessary "
                                     "demands never works (each such removal leaves a conflict found intact)."
                                     if d.lower_bound > 1 else "."))
    return [head, "To follow it:"] + [f"  - {p.label}: {p.advice()}" for p in d.correction]


def why_not_json(c: Completion) -> dict:
    """`conflict`: one minimal conflict; `conflicts`: every one found (all of them when `conflicts_complete`;
    `more_conflicts`: more than MAX_CONFLICTS exist); `correction`: parts whose removal leaves a matrix (checked),
    `smallest` when no fewer can."""
    d = c.diagnosis
    fix = None if d.correction is None else {
        "parts": [p.label for p in d.correction], "advice": [p.advice() for p in d.correction],
        "smallest": d.smallest, "no_fewer_than": d.lower_bound,
        "over": "fixed cells and the demands that are not necessary in the setting"}
    return {"conflict": c.conflict.parts, "dropping_one_alone_leaves_a_matrix": d.lifted_alone,
            "conflicts": [[p.label for p in mus] for mus in d.conflicts], "conflicts_complete": d.complete,
            "more_conflicts": d.more, "correction": fix,
            "no_correction": None if d.no_correction is None else [p.label for p in d.no_correction],
            "search_stopped": d.stopped or None}


def impossible_json(c: Completion) -> dict:
    """An impossible design as JSON: the record of `to_json`, with why not and the repair."""
    r = c.repair
    repair = None if r is None else {
        "least_change": bound_json(r.least_change), "total": frac_text(r.total), "margin": frac_text(r.margin),
        "changes": [{"cell": cell, "fixed": frac_text(old), "repaired": frac_text(new)}
                    for cell, old, new in r.changes]}
    return to_json(c) | {"why_not": why_not_json(c) | {"repair": repair}}
