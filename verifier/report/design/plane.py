"""What `verify design` says about a two-parameter scheme: where in the plane it fits the setting, fits with
warnings, or does not fit, as exact conditions (the properties' own, from the check report), then the map's
counts over the window; and the same as JSON. Decides nothing: every condition and status comes from
`designing.plane`.
"""

from __future__ import annotations

from fractions import Fraction

from verifier.designing.plane import GRID, PlaneMap
from verifier.properties import BY_ID


def _where(text: str, plane: PlaneMap) -> str:
    unknown = [pid for pid in plane.holds_where if plane.kind(pid) == "unknown"]
    return text or f"not known ({', '.join(unknown)}: no exact region)"


def _range(pair: tuple[Fraction, Fraction]) -> str:
    return f"[{_number(pair[0])}, {_number(pair[1])}]"


def _number(q: Fraction) -> str:
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def plane_lines(plane: PlaneMap, name: str) -> list[str]:
    """The design map in words: where the scheme fits the setting with and without warnings, the boundaries and the
    properties that do not change."""
    x, y = plane.parameters
    counts = plane.counts()
    lines = [f"{name}: where in the ({x}, {y}) plane the scheme fits the {plane.setting} setting (exact conditions "
             "from the check report's regions).",
             f"It fits (every necessary property holds) where: {_where(plane.fits_text, plane)}.",
             f"It fits without warnings (desirable properties hold, undesirable ones fail too) where: "
             f"{_where(plane.clean_text, plane)}."]
    if plane.boundaries:
        lines.append("Boundaries, one per property whose verdict changes in the plane:")
        lines += [f"  {pid} ({BY_ID[pid].name}) holds exactly where {plane.texts[pid]}" for pid in plane.boundaries]
    same = [f"{pid} {'holds' if plane.kind(pid) == 'everywhere' else 'fails'}" for pid in plane.holds_where
            if plane.kind(pid) in ("everywhere", "nowhere")]
    if same:
        lines.append("The same for every admissible value: " + ", ".join(same) + ".")
    unknown = [pid for pid in plane.holds_where if plane.kind(pid) == "unknown"]
    if unknown:
        lines.append("Not decided in the plane (no exact region): " + ", ".join(unknown) + ".")
    shown = ", ".join(f"{n:,} {status}" for status, n in counts.items())
    lines.append(f"Map: {GRID} × {GRID} points over {x} in {_range(plane.window[0])}, {y} in "
                 f"{_range(plane.window[1])}, each decided exactly: {shown} (--plot FILE draws it).")
    return lines


def plane_json(plane: PlaneMap) -> dict:
    """The design map as JSON data: the window, where it fits, the demands, each property's condition and the grid's
    counts."""
    x, y = plane.parameters
    return {"parameters": [x, y],
            "window": {x: [_number(v) for v in plane.window[0]], y: [_number(v) for v in plane.window[1]]},
            "fits_where": plane.fits_text or None,
            "fits_without_warnings_where": plane.clean_text or None,
            "firm": [{"property": pid, "must": "hold" if holds else "fail"} for pid, holds in plane.firm],
            "wishes": [{"property": pid, "must": "hold" if holds else "fail"} for pid, holds in plane.wishes],
            "boundaries": [{"property": pid, "holds_where": plane.texts[pid]} for pid in plane.boundaries],
            "properties": {pid: plane.texts[pid] for pid in plane.holds_where},
            "grid": {"points_per_side": GRID, "counts": plane.counts()}}
