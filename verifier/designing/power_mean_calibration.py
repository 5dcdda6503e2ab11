"""Calibration at any class count for a power-mean set cost, c_Y(y) = M_p(c_ŷ(y) : ŷ ∈ Y) with p = E(θ).

Listing every set's comparisons (`calibrate`) stops at 5 classes. Here no set is listed. The lemmas of
`engines.power_mean.lemmas` decide P2-P7 and P10 through the signs of p and p − 1 alone, so their verdicts can change
only where E(θ) crosses 0 or 1: those zeros, found exactly, cut the admissible range into pieces. Each piece and
each cut is decided by the ordinary pipeline at one exact value of θ (enumeration up to 16 classes, the
power-mean route beyond), with the independent checker. A verdict then covers a whole open piece when:
  - the property's shape is one the lemmas decide exactly (P2-P7, P10): it depends only on those signs;
  - a lemma proves it at that value (P1 fails for p >= 1; with c_y(y) = 0, P8 holds and P9 fails for p <= 0,
    and P1 holds for 0 <= p < 1 when some pair costs each other more than 0, the balanced-pair lemma): its
    premises are the same signs and the determinate costs;
  - the set that decides it there (P8's counterexample; P9's witness; P1's witness set with its distribution q)
    decides it at every θ of the piece: each of its comparisons, a difference of power means in θ, has no
    zero inside the piece (`zeros`: exact where it can, certified bisection otherwise). A zero inside splits
    the piece there, and the parts are decided again.
Otherwise the property is undecided on that piece and the report says why. Ends and cuts at irrational values
are decided only when the pipeline can run there; otherwise they stay undecided, saying so.

Owns: `calibrate_power_mean`. May import: the pipeline, `analysis.power_mean_route`, engines, formula, scheme,
spec, properties and the other design modules.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import cmp_to_key

from verifier.analysis.carry import deciding_differences, zeros_inside
from verifier.analysis.parameter_range import admissible_range, admits, inside, strictly_between
from verifier.analysis.pipeline import analyse
from verifier.analysis.power_mean_route import build_power_mean_scheme
from verifier.analysis.zeros import zeros
from verifier.designing.pieces import Calibration, Piece, piece_from
from verifier.engines.power_mean.lemmas import NotDecided, PowerMeanLemmas
from verifier.engines.power_mean.shapes import shape_of
from verifier.errors import SpecError
from verifier.formula import certified
from verifier.formula.arith import collecting
from verifier.formula.enclose import Unsupported
from verifier.formula.genmean import genmean
from verifier.lazy_sympy import sympy as sp
from verifier.properties import Possible
from verifier.spec.model import Parameter, Spec
from verifier.verdict import PropertyResult, Verdict

MAX_DECISIONS = 24  # pipeline runs at fixed values (pieces and cuts) before what is left stays undecided


def calibrate_power_mean(spec: Spec, timeout_ms: int, partial=None) -> Calibration:
    """The pieces of θ's admissible range with their verdicts; `NotPowerMean` when the route does not apply.
    `partial` (`cut.Partial`) is told the admissible range, for a stop at the time bound."""
    base = build_power_mean_scheme(spec)
    p = base.lemma.exponent
    (theta,) = base.symbols if len(base.symbols) == 1 else (None,)
    if theta is None or not p.free_symbols:
        raise Unsupported("calibration takes exactly one symbolic parameter, in the exponent of genmean")
    det = [[base.given[(h, y)] for y in range(base.K)] for h in range(base.K)]
    low, high = admissible_range(base, theta)
    if partial is not None:
        partial.range, partial.stage = (low, high), "deciding the pieces by the power-mean lemmas"
    cuts: list = []
    for target in (0, 1):  # the lemmas' verdicts change only where p crosses 0 or 1
        exact, enclosed = zeros(p - target, theta, low, high)
        if enclosed:
            raise Unsupported(f"where the exponent {p} equals {target} is known only within an enclosure")
        cuts += exact
    state = _State(spec, theta, p, det, timeout_ms, [c for c, _ in base.assumptions])
    pieces = state.cover(low, high, _ordered(cuts, low, high))
    return Calibration(str(theta), pieces, route="power-mean lemmas", method=(
        f"the power-mean lemmas (p = {p}): P2-P7 and P10 change only where p crosses 0 or 1; P1, P8 and P9 across "
        "a piece by a lemma or by the set deciding them there, whose comparisons do not vanish inside it"))


class _State:
    def __init__(self, spec: Spec, theta, p, det, timeout_ms: int, assumed):
        self.spec, self.theta, self.p, self.det = spec, theta, p, det
        self.timeout_ms, self.assumed = timeout_ms, assumed
        self.decisions = 0

    def cover(self, low, high, cuts: list, ends: bool = True) -> list[Piece]:
        """Pieces from low to high (None: unbounded): each cut a point, each gap an open piece; `ends`: the
        ends themselves too."""
        inner = [c for c in cuts if (low is None or _sign(c, low) > 0) and (high is None or _sign(c, high) < 0)]
        if low is not None and high is not None and _sign(low, high) == 0:
            return [self.point(low)] if ends else []
        marks = [low] + inner + [high]
        out: list[Piece] = [self.point(low)] if ends and low is not None else []
        for i, (a, b) in enumerate(zip(marks, marks[1:])):
            out += self.open_piece(a, b)
            if b is not None and (ends or i < len(marks) - 2):
                out.append(self.point(b))
        return out

    # -- one exact value -----------------------------------------------------------------------------------
    def run(self, value) -> tuple[list[PropertyResult] | None, str]:
        if self.decisions >= MAX_DECISIONS:
            return None, f"more than {MAX_DECISIONS:,} values would have to be checked"
        if not isinstance(value, sp.Rational):
            return None, (f"{self.theta} = {value} is irrational: the pipeline runs at rational values only, and "
                          "beyond 5 classes the matrix there is not built cell by cell")
        if any(admits(c, self.theta, value) is False for c in self.assumed):
            return None, "outside the assumptions"
        self.decisions += 1
        fixed = Parameter(str(self.theta), False, Fraction(int(value.p), int(value.q)), f"parameters.{self.theta}",
                          None)
        try:
            analysis = analyse(replace(self.spec, parameters={**self.spec.parameters, str(self.theta): fixed}),
                               self.timeout_ms, optimality=False)
        except SpecError as exc:
            return None, f"undefined at {self.theta} = {value}: {exc.message}"
        return analysis.results, ""

    def point(self, value) -> Piece:
        results, why = self.run(value)
        if results is None:
            return Piece(value, value, None, why, admissible=why != "outside the assumptions",
                         undefined=why.startswith("undefined"))
        return piece_from(value, value, results, set(), self.theta, value)

    def open_piece(self, a, b) -> list[Piece]:
        value = inside(a, b)
        if a is not None and b is not None and not strictly_between(a, value, b):
            return [Piece(a, b, None, f"no rational point was proved to lie strictly between {a} and {b}")]
        if any(admits(c, self.theta, value) is False for c in self.assumed):
            return [Piece(a, b, None, "outside the assumptions", admissible=False)]
        results, why = self.run(value)
        if results is None:
            return [Piece(a, b, None, why, undefined=why.startswith("undefined"))]
        lemmas = self._lemmas(value)
        verdicts, reasons, splits = {}, {}, []
        for r in results:
            pid = r.property.id
            verdict = None if r.verdict is Verdict.UNKNOWN else r.verdict.value
            shape = shape_of(r.property)
            if verdict is None:
                reasons[pid] = f"unknown to the checker at {self.theta} = {value} ({r.reason or 'no reason given'})"
            elif (shape is not None and shape.exact) or (lemmas is not None and lemmas.proof(pid) is not None):
                pass  # the lemmas: the same verdict wherever p has the same signs
            elif isinstance(r.property.atom, Possible) and verdict == Verdict.HOLDS and lemmas is not None \
                    and lemmas.possible_pair() is not None:
                pass  # the balanced-pair lemma: a pair is possible for every 0 <= p < 1
            else:
                found, why = self._across(r, a, b)
                if found is None:
                    verdict, reasons[pid] = None, f"{verdict} at {self.theta} = {value}; across ({a}, {b}): {why}"
                else:
                    splits += found
            verdicts[pid] = verdict
        if splits:  # a deciding comparison vanishes inside: decide the parts again
            return self.cover(a, b, _ordered(splits, a, b), ends=False)
        reason = "; ".join(f"{pid}: {text}" for pid, text in reasons.items())
        return [Piece(a, b, verdicts, reason, why=reasons)]

    def _lemmas(self, value) -> PowerMeanLemmas | None:
        try:
            return PowerMeanLemmas(self.p.subs(self.theta, value), self.det)
        except NotDecided:
            return None

    # -- a deciding set across a piece ---------------------------------------------------------------------
    def _across(self, result: PropertyResult, a, b) -> tuple[list | None, str]:
        """([] when the deciding evidence decides it on all of (a, b); the zeros inside otherwise) or (None, why)."""
        K = len(self.det)
        with collecting():
            found = deciding_differences(result, [], self._cell, K, 2 ** K - K - 1)
        if found is None:
            return None, ("no lemma proves it for every value there, and its verdict rests on more sets than were "
                          "built, so it cannot be carried from one value to another")
        return zeros_inside(found, self.theta, a, b)

    def _cell(self, members, y) -> sp.Expr:
        if len(members) == 1:
            (h,) = members
            return self.det[h][y]
        return genmean(self.p, tuple(self.det[h][y] for h in sorted(members)))


def _ordered(values: list, low, high) -> list:
    """Distinct values strictly inside (low, high) or at its ends, in exact order."""
    out = []
    for v in sorted(values, key=cmp_to_key(lambda x, y: _sign(x, y))):
        if (low is not None and _sign(v, low) < 0) or (high is not None and _sign(v, high) > 0):
            continue
        if not out or _sign(v, out[-1]) != 0:
            out.append(v)
    return out


def _sign(x, y) -> int:
    sign = certified.compare(x, y).value
    if sign is None:
        raise Unsupported(f"{x} and {y} could not be ordered exactly")
    return sign
