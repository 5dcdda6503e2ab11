"""What `verify evaluate` says about each classifier, as text and JSON: exact scores as exact strings, the
bootstrap interval labelled as a statistical estimate; and a sweep's curves."""

from __future__ import annotations

import textwrap
from fractions import Fraction

from verifier.errors import counted
from verifier.formula.notation import POWER_MEAN_LEGEND, paper_text
from verifier.formula.rounded import rounded
from verifier.report.text import grid
from verifier.using import Crossing, Scores, Sweep

WIDTH = 110
MAX_GRID_ROWS = 21  # grid points listed in the text; all of them in JSON


def _frac(x: Fraction | None) -> str | None:
    return None if x is None else str(x)


def scores_json(s: Scores) -> dict:
    """A classifier's scores as JSON data: mean cost (exact, and float) with its bootstrap interval, determinacy,
    accuracies, u65, u80 and F-beta."""
    return {"classifier": s.name, "n": s.n, "mean_cost": str(s.mean_cost), "mean_cost_float": s.mean_cost_float,
            "bootstrap_interval": (None if s.interval is None else
                                   {"level": s.level, "low": s.interval[0], "high": s.interval[1]}),
            "determinacy": str(s.determinacy), "mean_set_size": str(s.mean_size),
            "single_set_accuracy": _frac(s.single_accuracy), "set_accuracy": str(s.set_accuracy),
            "discounted_accuracy": str(s.discounted_accuracy), "u65": str(s.u65), "u80": str(s.u80),
            "f_beta": {b: str(v) for b, v in s.f_beta.items()}}


def sweep_json(s: Sweep) -> dict:
    """A parameter sweep as JSON data: the grid, each classifier's exact mean cost curve with its values and band, and
    the crossings."""
    return {"parameter": s.parameter, "grid": [str(x) for x in s.grid], "excluded": [str(x) for x in s.excluded],
            "band_level": s.level, "band_method": "percentile bootstrap, the same resamples at every grid point "
                                                  "(a statistical estimate)",
            "curves": [{"classifier": c.name, "mean_cost": str(c.expression),
                        "mean_cost_text": paper_text(c.expression),
                        "values": c.values, "band": [None if b is None else list(b) for b in c.band],
                        "points_done": len(s.grid) if c.reached is None else c.reached}
                       for c in s.curves],
            "crossings": [_crossing_json(c) for c in s.crossings], "cut": s.cut}


def _crossing_json(c: Crossing) -> dict:
    return {"a": c.a, "b": c.b, "identical": c.identical,
            "zeros": [{"value": str(p), "text": paper_text(p), "float": rounded(p)} for p in c.points],
            "enclosed_zeros": [[str(lo), str(hi)] for lo, hi in c.enclosures],
            "flips_at": [{"enclosed_in": [str(f[0]), str(f[1])]} if isinstance(f, tuple) else {"value": str(f)}
                         for f in c.flips],
            "pieces": [{"low": str(p.low), "high": str(p.high), "cheaper": p.cheaper} for p in c.pieces],
            "undecided": c.reason or None}


def _point(p, name: str) -> str:
    if isinstance(p, tuple):  # rounded outward: the printed stretch holds the certified one
        return f"some {name} in {_box(*p)} (certified enclosure)"
    return f"{name} = {paper_text(p)}" + ("" if p.is_Rational else f" ≈ {rounded(p):.10g}")


def _box(lo, hi) -> str:
    """An enclosure as written, rounded outward: the printed interval holds the certified one."""
    return f"[{stretch_end(Fraction(lo), False)}, {stretch_end(Fraction(hi), True)}]"


def stretch_end(x: Fraction, up: bool) -> str:
    """A stretch's end as written: exact when short, else a 12-digit decimal rounded inward (up for a low end,
    down for a high one), so the printed stretch never reaches past the proved one (an enclosure's end 1 - 2^-40
    is never printed as 1)."""
    if x.denominator < 10**6:
        return str(x)
    digits = 12
    while abs(x) * 10**digits < 10**11 and digits < 60:  # twelve significant digits
        digits += 1
    scaled = x * 10**digits
    n = -((-scaled.numerator) // scaled.denominator) if up else scaled.numerator // scaled.denominator
    whole, part = divmod(abs(n), 10**digits)  # written out exactly (no decimal context rounds it)
    tail = str(part).rjust(digits, "0").rstrip("0")
    return ("-" if n < 0 else "") + str(whole) + (f".{tail}" if tail else "")


def sweep_lines(s: Sweep) -> list[str]:
    """The curves as exact expressions in the paper's notation, their values at the grid points, and where each
    pair's order flips."""
    name, grid = s.parameter, s.grid
    lines = [f"Mean cost (Eq. 4, exact) as {name} goes from {grid[0]} to {grid[-1]} ({len(grid):,} points):"]
    for c in s.curves:
        lines += textwrap.wrap(f"  {c.name}: {paper_text(c.expression)}", WIDTH, subsequent_indent="    ",
                               break_on_hyphens=False)
    if any("M_{" in paper_text(c.expression) for c in s.curves):
        lines.append(f"  where {POWER_MEAN_LEGEND}")
    if s.excluded:
        lie = "lies outside the spec's assumptions and is" if len(s.excluded) == 1 else \
            "lie outside the spec's assumptions and are"
        lines.append(f"  {counted(len(s.excluded), 'grid point')} {lie} left out "
                     f"(from {s.excluded[0]} to {s.excluded[-1]}).")
    lines += grid_values(s)
    if s.cut:
        lines += [""] + textwrap.wrap(f"Stopped: {s.cut}.", WIDTH, subsequent_indent="  ")
    if s.crossings:
        lines += [""] + textwrap.wrap(f"Where the curves cross (exact zeros of the difference of mean costs; the "
                                      f"order between them decided exactly at a rational {name}):", WIDTH)
    for c in s.crossings:
        lines += textwrap.wrap(crossing_sentence(c, name), WIDTH, subsequent_indent="    ")
    if s.curves:
        lines.append(f"The plot's bands are {int(round(s.level * 100))}% percentile bootstrap intervals of each mean "
                     "cost (statistical estimates).")
    return lines


def grid_values(s: Sweep) -> list[str]:
    """The mean costs at the grid points inside the assumptions (rounded; the exact expressions are above), at
    most MAX_GRID_ROWS of them evenly spaced, the first and the last always."""
    kept = [i for i, x in enumerate(s.grid) if x not in s.excluded]
    if not kept or not s.curves:
        return []
    step = max(1, -(-(len(kept) - 1) // (MAX_GRID_ROWS - 1)))
    shown = sorted(set(kept[::step]) | {kept[-1]})
    rows = [[str(s.grid[i])] + [_value(c, i) for c in s.curves] for i in shown]
    title = "Mean cost at the grid points (rounded to 4 decimals):"
    caption = (None if len(shown) == len(kept) else
               f"{len(shown):,} of the {len(kept):,} grid points, every {_nth(step)}; all of them in --format json.")
    table = grid(title, [s.parameter] + [c.name for c in s.curves], rows,
                 right=set(range(1, len(s.curves) + 1)), caption=caption, width=WIDTH)
    return [""] + table.plain.rstrip("\n").split("\n")


def _value(c, i: int) -> str:
    if c.reached is not None and i >= c.reached:
        return "not reached"  # the time limit cut the sweep first
    return "undefined" if c.values[i] is None else f"{c.values[i]:.4f}"


def _nth(n: int) -> str:
    return {2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def crossing_sentence(c: Crossing, name: str) -> str:
    """One pair's sentence. A crossing is written one way throughout: an exact zero by its exact value (the
    stretches either side end at it: the sign of the difference is constant between consecutive exact zeros), an
    enclosure by its ends rounded outward, which are also where the stretches beside it end."""
    if c.identical:
        return f"  {c.a} and {c.b}: the same mean cost for every {name}"
    if c.reason:
        return f"  {c.a} vs {c.b}: undecided: {c.reason}"
    ends = {}  # the printed ends of the stretches that meet at a single exact zero
    for left, right in zip(c.pieces, c.pieces[1:]):
        zero = c.zero_between(left.high, right.low)
        if not isinstance(zero, tuple):
            ends[left.high] = ends[right.low] = paper_text(zero)
    order = "; ".join((f"{p.cheaper} costs less" if p.cheaper else "equal or undecided") +
                      f" for {name} in ({ends.get(p.low) or stretch_end(p.low, True)}, "
                      f"{ends.get(p.high) or stretch_end(p.high, False)})" for p in c.pieces)
    flips = c.flips
    head = f"  {c.a} vs {c.b}: " + ("the order flips at " + ", ".join(_point(f, name) for f in flips)
                                    if flips else "no crossing")
    undecided = [_open_box(c, lo, hi, name) for lo, hi in c.enclosures if (lo, hi) not in flips]
    ties = [f"both cost exactly the same at {name} = {x}" for x in c.equal_at  # an enclosure's tie is said there
            if not any(x in (lo, hi) for lo, hi in c.enclosures if (lo, hi) not in flips)]
    return "; ".join(part for part in [head, order, *ties, *undecided] if part)


def _open_box(c: Crossing, lo: Fraction, hi: Fraction, name: str) -> str:
    """A certified enclosure that is not a flip, in plain words: the difference of the two mean costs is too
    close to 0 there for certified interval bisection to decide its sign, so neither a crossing nor its absence
    is proved on that stretch (a tie decided exactly at an end of the range is said as such)."""
    tie = [x for x in c.equal_at if x in (lo, hi)]
    if tie:
        low, high = (f"[{stretch_end(lo, False)}", f"{tie[0]})") if tie[0] == hi else \
            (f"({tie[0]}", f"{stretch_end(hi, True)}]")
        return (f"both cost exactly the same at {name} = {tie[0]}, but for {name} in {low}, {high} which costs less "
                f"is not decided (their difference is too close to 0 there for certified interval arithmetic to "
                f"tell its sign)")
    return (f"for {name} in {_box(lo, hi)} which costs less is not decided: their difference is too close to 0 "
            f"there for certified interval arithmetic to tell its sign, so the curves may cross there or not")
