"""The result of a calibration: pieces of the parameter's range with their verdicts, and the runs where a test
holds. A piece is a breakpoint or the open interval between two; a "fuzzy" piece is a zero known only to lie in a
certified enclosure, where a verdict is kept only when it is proved not to change (`settle_fuzzy`), and a run that
stops there ends at an `Enclosed` point, never at a fake exact value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp


@dataclass
class Piece:
    low: sp.Expr | None  # None: unbounded
    high: sp.Expr | None
    verdicts: dict[str, str] | None  # None: undecided here (an enclosed zero, or the formulas are undefined)
    reason: str = ""
    groups: set = field(default_factory=set)  # an enclosed zero: what its comparisons decide (ids, "P1 {a, b}")
    possible: set = field(default_factory=set)  # the sets proved possible here
    fuzzy: bool = False  # an enclosure of a zero that is not known exactly: its ends are not breakpoints
    admissible: bool = True  # False: an end excluded by a strict assumption

    @property
    def point(self) -> bool:
        return self.low is not None and self.low == self.high


@dataclass
class Calibration:
    parameter: str
    pieces: list[Piece]  # in order: point, open interval, point, ... covering the admissible values
    enclosed: list[tuple[Fraction, Fraction]] = field(default_factory=list)  # zeros known only to lie within

    def where(self, test) -> list[tuple[sp.Expr | None, sp.Expr | None, bool, bool]]:
        """Maximal runs of pieces where `test(verdicts)` is true: (low, high, low included, high included)."""
        return runs(self.pieces, test)


@dataclass(frozen=True)
class Enclosed:
    """The end of a run at a zero known only to lie in [low, high] (certified): not an exact endpoint."""
    low: Fraction
    high: Fraction

    def __str__(self) -> str:
        return f"≈{float((self.low + self.high) / 2):.12g} (certified to within {float(self.high - self.low):.0e})"


def runs(pieces: list[Piece], test) -> list[tuple]:
    runs: list[list] = []
    previous_good = False
    for piece in pieces:
        good = piece.verdicts is not None and test(piece.verdicts)
        if good and previous_good:
            runs[-1][1], runs[-1][3] = piece.high, piece.point
        elif good:
            runs.append([piece.low, piece.high, piece.point, piece.point])
        previous_good = good
    out = []
    fuzzy = {(p.low, p.high): p for p in pieces
             if p.fuzzy and (p.verdicts is None or any(v is None for v in p.verdicts.values())) and
             not (p.verdicts is not None and test(p.verdicts))}
    for low, high, low_in, high_in in runs:
        below = next((p for (lo, hi), p in fuzzy.items() if hi == low), None)
        above = next((p for (lo, hi), p in fuzzy.items() if lo == high), None)
        out.append((Enclosed(_fraction(below.low), _fraction(below.high)) if below else low,
                    Enclosed(_fraction(above.low), _fraction(above.high)) if above else high,
                    low_in and low is not None and not below, high_in and high is not None and not above))
    return out


def _fraction(x) -> Fraction:
    return Fraction(int(x.p), int(x.q))


def settle_fuzzy(pieces: list[Piece]) -> None:
    """Inside an enclosed zero, a property none of whose comparisons vanish there keeps its neighbours' common
    verdict. Property 1's comparisons are grouped by set: it holds throughout when some set whose comparisons
    do not vanish there is possible on both sides."""
    for i, piece in enumerate(pieces):
        if piece.verdicts is not None or not piece.groups or not 0 < i < len(pieces) - 1:
            continue
        before, after = pieces[i - 1], pieces[i + 1]
        if before.verdicts is None or after.verdicts is None:
            continue
        touched = {g for g in piece.groups if not g.startswith("P1 ")}
        wavering = {g[3:] for g in piece.groups if g.startswith("P1 ")}  # sets whose possibility may change
        verdicts = {}
        for pid, verdict in before.verdicts.items():
            if pid == "P1" and after.verdicts[pid] == verdict == "holds":
                steady = (before.possible & after.possible) - wavering
                verdicts[pid] = verdict if steady else None
            elif pid == "P1" and not wavering and after.verdicts[pid] == verdict:
                verdicts[pid] = verdict
            elif pid not in touched and pid != "P1" and after.verdicts[pid] == verdict:
                verdicts[pid] = verdict
            else:
                verdicts[pid] = None
        if any(v is not None for v in verdicts.values()):  # the others stay undecided (None) in this piece
            piece.verdicts = verdicts


def fit_test(setting: str, clean: bool = False):
    """The verdict test for "fits the setting" (every N holds), and with `clean` also no warning (every D
    holds, every U fails)."""
    from verifier.properties.settings import TABLE_VIII

    levels = TABLE_VIII[setting]

    def test(verdicts: dict[str, str]) -> bool:
        for pid, level in levels.items():
            if level == "N" and verdicts[pid] != "holds":
                return False
            if clean and ((level == "D" and verdicts[pid] != "holds") or (level == "U" and verdicts[pid] != "fails")):
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
                return [pid for pid in test_pids if pieces[j].verdicts[pid] == "fails"]
    return []
