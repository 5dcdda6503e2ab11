"""The result of a calibration: pieces of the parameter's range with their verdicts, and the runs where a test
holds. A piece is a breakpoint or the open interval between two; a "fuzzy" piece is a zero known only to lie in a
certified enclosure, where a verdict is kept only when it is proved not to change (`settle`). A run never
reaches into an enclosure whose verdict is unproved: it stops at the enclosure's exact rational end, and the
enclosure itself is reported undecided (its zero may lie anywhere in it, even at its end, and more than one may).
A piece's verdicts come from the checked results at one value (`piece_from`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from verifier.lazy_sympy import sympy as sp
from verifier.properties import Level
from verifier.verdict import Verdict


@dataclass
class Piece:
    """One stretch of the parameter's range (a point or an open interval) with the verdicts that hold all along it, or
    why they are undecided there."""
    low: sp.Expr | None  # None: unbounded
    high: sp.Expr | None
    verdicts: dict[str, str] | None  # None: undecided here (an enclosed zero, or the formulas are undefined)
    reason: str = ""
    groups: set = field(default_factory=set)  # an enclosed zero: what its comparisons decide (ids, "P1 {a, b}")
    possible: set = field(default_factory=set)  # the sets proved possible here
    fuzzy: bool = False  # an enclosure of a zero that is not known exactly: its ends are not breakpoints
    admissible: bool = True  # False: an end excluded by a strict assumption
    undefined: bool = False  # the formulas are undefined at the value checked (e.g. 0 to a negative power)
    why: dict[str, str] = field(default_factory=dict)  # at an exact point: why the checker left each one unknown
    evidence: object = None  # (results, possibility) at the value that decided it, to carry across the piece
    open_low: bool = False  # a fuzzy piece whose end is an exact point decided on its own (an admissible end)
    open_high: bool = False
    cut: bool = False  # a stretch the time bound left undecided: its ends included as open_low/open_high say

    @property
    def point(self) -> bool:
        """Whether the piece is a single value."""
        return self.low is not None and self.low == self.high

    @property
    def low_in(self) -> bool:
        """Whether the piece contains its low end: a point and an enclosure do (unless that end is a point decided
        on its own), an open piece does not."""
        return self.point or ((self.fuzzy or self.cut) and not self.open_low)

    @property
    def high_in(self) -> bool:
        """Whether the piece contains its high end (see `low_in`)."""
        return self.point or ((self.fuzzy or self.cut) and not self.open_high)


@dataclass
class Calibration:
    """What `calibrate` returns: the verdicts piece by piece over the parameter's admissible values, the zeros only
    enclosed, and how the verdicts were carried."""
    parameter: str
    pieces: list[Piece]  # in order: point, open interval, point, ... covering the admissible values
    enclosed: list[tuple[Fraction, Fraction]] = field(default_factory=list)  # zeros known only to lie within
    method: str = ""  # how verdicts were carried between the exact values checked (empty: listed comparisons)
    route: str = "listed comparisons"  # or "power-mean lemmas", "carried evidence" (the JSON's "method")
    stopped: str = ""  # cut short by the overall time bound: where, and how much was decided (`cut`)

    def where(self, test) -> list[tuple[sp.Expr | None, sp.Expr | None, bool, bool]]:
        """Maximal runs of pieces where `test(verdicts)` is true: (low, high, low included, high included)."""
        return runs(self.pieces, test)

    @property
    def fits(self) -> dict:
        """{setting: the test of its fit (`fit_test`)} for the filtering and choice settings, in that order: what
        the calibration's picture colours each piece by."""
        return {setting: fit_test(setting) for setting in ("filtering", "choice")}


def runs(pieces: list[Piece], test) -> list[tuple]:
    """Maximal runs of consecutive pieces whose verdicts meet `test`, with exact ends: every piece of a run is
    proved for the whole of it (an open piece by its comparisons not vanishing there, an enclosure only where
    `settle` proved a verdict across it), so a run next to an unsettled enclosure ends at the enclosure's rational
    end, excluded."""
    out: list[list] = []
    previous_good = False
    for piece in pieces:
        good = piece.verdicts is not None and test(piece.verdicts)
        if good and previous_good:
            out[-1][1], out[-1][3] = piece.high, piece.high_in
        elif good:
            out.append([piece.low, piece.high, piece.low_in, piece.high_in])
        previous_good = good
    return [tuple(run) for run in out]


def settle(pieces: list[Piece], p1_listed: bool = True) -> None:
    """Where verdicts are missing (an enclosed zero, or a property the checker leaves unknown at an exact
    breakpoint), a property none of whose comparisons vanish there keeps its neighbours' common verdict: each
    difference is continuous and nonzero there, so its sign, and the property's truth, do not change. Property
    1's comparisons are grouped by set: it holds throughout when some set whose comparisons do not vanish there
    is possible on both sides (only when its candidate witnesses were listed: `p1_listed`). An enclosure that
    leaves one end to an exact point (an admissible end) is joined to its other neighbour alone: that point lies
    outside it, and the verdict there may differ. Verdicts the checker gave are never replaced."""
    for i, piece in enumerate(pieces):
        missing = piece.verdicts is None or None in piece.verdicts.values()
        if not missing or not piece.groups or not 0 < i < len(pieces) - 1 or not piece.admissible:
            continue
        if piece.verdicts is None and not piece.fuzzy:
            continue  # an exact point where the matrix is undefined: nothing there to keep
        sides = [pieces[j] for j, cut in ((i - 1, piece.open_low), (i + 1, piece.open_high)) if not cut]
        if not sides or any(side.verdicts is None for side in sides):
            continue
        touched = {g for g in piece.groups if not g.startswith("P1 ")}
        wavering = {g[3:] for g in piece.groups if g.startswith("P1 ")}  # sets whose possibility may change
        possible = set.intersection(*(set(side.possible) for side in sides))
        verdicts = {}
        for pid, verdict in sides[0].verdicts.items():
            if piece.verdicts is not None and piece.verdicts[pid] is not None:
                verdicts[pid] = piece.verdicts[pid]
            elif verdict is None or any(side.verdicts[pid] != verdict for side in sides):
                verdicts[pid] = None
            elif pid == "P1" and not p1_listed:  # no candidate witness was watched: nothing says it is kept
                verdicts[pid] = None
            elif pid == "P1" and verdict == Verdict.HOLDS:
                verdicts[pid] = verdict if possible - wavering else None
            elif pid == "P1":
                verdicts[pid] = None if wavering else verdict
            else:
                verdicts[pid] = None if pid in touched else verdict
        if any(v is not None for v in verdicts.values()):  # the others stay undecided (None) in this piece
            piece.verdicts = verdicts
            if piece.why:
                piece.reason = "; ".join(f"{pid}: {why}" for pid, why in piece.why.items() if verdicts[pid] is None)


def failing_cover(calibration: Calibration, tiers: list[list[tuple[str, bool]]]) -> tuple[list, list]:
    """Why no value meets the demands ((pid, must hold) pairs, in tiers: necessary ones first): demands picked
    greedily, tier by tier, each covering the most admissible pieces not yet covered where it is proved to fail (a
    verdict the checker gave: "fails" for a property that must hold, "holds" for one that must fail), each with
    every run where it fails; then the runs of admissible pieces where no demand is proved to fail (there some
    verdict is undecided)."""
    pieces = calibration.pieces

    def fails(piece: Piece, pid: str, holds: bool) -> bool:
        return piece.verdicts is not None and piece.verdicts.get(pid) == ("fails" if holds else "holds")

    left = {i for i, piece in enumerate(pieces) if piece.admissible}
    chosen = []
    for demands in tiers:
        while left and demands:
            gains = [{i for i in left if fails(pieces[i], *d)} for d in demands]
            best = max(range(len(demands)), key=lambda k: (len(gains[k]), -k))
            if not gains[best]:
                break
            pid, holds = demands[best]
            chosen.append((pid, holds, runs(pieces, lambda v, pid=pid, want="fails" if holds else "holds":
                                            v[pid] == want)))
            left -= gains[best]
    undecided, previous = [], None
    for i in sorted(left):
        piece = pieces[i]
        if previous == i - 1:
            undecided[-1][1], undecided[-1][3] = piece.high, piece.high_in
        else:
            undecided.append([piece.low, piece.high, piece.low_in, piece.high_in])
        previous = i
    return chosen, [tuple(run) for run in undecided]


def fit_test(setting: str, clean: bool = False):
    """The verdict test for "fits the setting" (every N holds), and with `clean` also no warning (every D
    holds, every U fails)."""
    from verifier.properties.settings import TABLE_VIII

    levels = TABLE_VIII[setting]

    def test(verdicts: dict[str, str]) -> bool:
        for pid, level in levels.items():
            if level == Level.N and verdicts[pid] != Verdict.HOLDS:
                return False
            if clean and ((level == Level.D and verdicts[pid] != Verdict.HOLDS)
                          or (level == Level.U and verdicts[pid] != Verdict.FAILS)):
                return False
        return True

    return test


def bounded_by(calibration: Calibration, low, high, test_pids: list[str], at_low: bool, included: bool) -> list[str]:
    """Which of `test_pids` stop holding (or start failing) at an end of a run: at the point itself when it is
    excluded, just beyond it when it is included."""
    pieces = calibration.pieces
    end = low if at_low else high
    for i, piece in enumerate(pieces):
        if piece.point and piece.low == end:
            j = i if not included else (i - 1 if at_low else i + 1)
            if 0 <= j < len(pieces) and pieces[j].verdicts is not None:
                return [pid for pid in test_pids if pieces[j].verdicts[pid] == Verdict.FAILS]
    return []


def piece_from(a, b, results, possible, theta, value) -> Piece:
    """Verdicts the checker confirmed; an unknown one stays undecided (None) with the checker's reason."""
    verdicts = {r.property.id: None if r.verdict is Verdict.UNKNOWN else r.verdict.value for r in results}
    why = {r.property.id: f"unknown to the checker at {theta} = {value} ({r.reason or 'no reason given'})"
           for r in results if r.verdict is Verdict.UNKNOWN}
    return Piece(a, b, verdicts, "; ".join(f"{pid}: {text}" for pid, text in why.items()), possible=possible, why=why)
