"""A calibration cut short by the overall time bound (`verify design --time-limit`, `design(time_limit=)`).

The pieces decided before the bound keep their verdicts (each was decided by the checker at an exact value);
every other piece is undecided, with the bound as its reason; and `Calibration.stopped` says where the work
stopped and how much of it was done. Nothing is carried across a piece that was not decided: Property 1's
evidence, when it had not yet been carried across every open piece, is dropped there (undecided, saying why).

Owns: `Partial` (what a calibration has done so far) and `stopped_calibration`. May import: `limits`, the other
design modules.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from verifier import limits
from verifier.designing.pieces import Calibration, Piece


@dataclass
class Partial:
    """What a calibration has done so far, kept by `calibrate` as it goes."""

    stage: str = "building the matrix and the admissible range of the parameter"
    range: tuple | None = None  # the admissible (low, high), once known
    points: dict | None = None  # every breakpoint (with what vanishes there), once listed
    fuzzy: list = field(default_factory=list)  # zeros only enclosed: (low, high, groups)
    decided: dict = field(default_factory=dict)  # (a, b) -> the Piece decided there before the bound
    witnesses: bool = True  # Property 1 settled by its listed candidate witnesses (else carried by evidence)
    carried: bool = False  # Property 1's evidence was carried across every open piece (no cut left)
    listed: Calibration | None = None  # a finished answer of one route while another was being tried


def stopped_calibration(spec, state: Partial, stop: limits.TimeLimitReached, pieces_of, settle,
                        carried: str) -> Calibration:
    """The calibration as far as it got. `pieces_of(points, fuzzy, low, high, decide)` lays the pieces out
    between the breakpoints (`calibrate._pieces`); `settle` is `pieces.settle`; `carried` says how Property 1
    is carried across a piece when its witnesses are not listed."""
    reason = str(stop)
    if state.listed is not None:
        state.listed.stopped = (f"Stopped: {reason} while {state.stage}; the answer of the listed comparisons "
                                "(complete before that) is kept.")
        return state.listed
    name = next(n for n, p in spec.parameters.items() if p.value is None)
    low, high = state.range or (None, None)
    pieces = None
    if state.points is not None:
        def decided_or_cut(a, b) -> Piece:
            piece = state.decided.get((a, b))
            return replace(piece) if piece is not None else Piece(a, b, None, reason)

        try:
            pieces = pieces_of(state.points, state.fuzzy, low, high, decided_or_cut)
        except Exception:  # breakpoints that could not be ordered exactly: nothing of them is claimed
            state.fuzzy = []
    if pieces is None:
        pieces = [Piece(low, high, None, f"{reason} while {state.stage}")]
    else:
        if not state.witnesses and not state.carried:
            for piece in pieces:
                if not piece.point and piece.verdicts is not None and piece.verdicts.get("P1") is not None:
                    piece.verdicts = {**piece.verdicts, "P1": None}
                    piece.reason = f"P1: {reason} before its evidence was carried across this piece"
        settle(pieces, p1_listed=state.witnesses)
    whole = [p for p in pieces if p.admissible and not p.fuzzy]
    done = sum(1 for p in whole if p.verdicts is not None and None not in p.verdicts.values())
    cal = Calibration(name, _merged_cuts(pieces, reason), [(lo, hi) for lo, hi, _ in state.fuzzy],
                      method="" if state.witnesses else carried,
                      route="carried evidence" if not state.witnesses else "listed comparisons")
    cal.stopped = (f"Stopped: {reason} while {state.stage}; {done:,} of {len(whole):,} pieces of the parameter's range "
                   "were decided in full before that; what was not is listed as undecided.")
    return cal


def _merged_cuts(pieces: list[Piece], reason: str) -> list[Piece]:
    """Consecutive pieces the bound left untouched, as one undecided stretch (one line, not hundreds)."""
    out: list[Piece] = []
    for piece in pieces:
        cut = piece.verdicts is None and piece.reason == reason and piece.admissible
        if cut and out and out[-1].verdicts is None and out[-1].reason == reason and out[-1].admissible:
            first = out[-1]
            out[-1] = Piece(first.low, piece.high, None, reason, cut=True, open_low=not first.low_in,
                            open_high=not piece.high_in)
        else:
            out.append(piece)
    return out
