"""Calibration of a family: for a `set_cost` with one symbolic parameter θ (p-discounted r, Ha's delta, a
utility's u(1/2), F-beta's beta), the exact values of θ where each property holds, and where the scheme fits
each setting.

A property's truth can only change where one of its comparisons changes sign. So we collect every comparison
the properties make on this matrix (a cell against its members' mean, minimum and maximum, two cells of a row,
and, for Property 1, each candidate witness of `engines.witnesses` against the members' expected costs), find
where each difference is zero, and decide every property exactly (the ordinary pipeline, at an exact value) at
each such point and at one rational point strictly between consecutive points.

Zeros are exact when the difference is a rational function of θ (sympy's real roots: rationals or algebraic
numbers). Otherwise (θ in an exponent) they are isolated by certified interval bisection (python-flint), and
a zero is kept as an exact rational only when an exact test proves the difference vanishes there; a zero that
is only enclosed makes that point, and so the status of the nearby endpoints, undecided, and the report says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

import sympy as sp

from verifier.analysis.design.zeros import simplest, zeros
from verifier.analysis.pipeline import analyse
from verifier.engines.witnesses import candidate_witnesses
from verifier.errors import SpecError
from verifier.scheme import Scheme
from verifier.scheme.exact import build_scheme
from verifier.spec.model import Parameter, Spec
from verifier.verdict import Truth



@dataclass
class Piece:
    low: sp.Expr | None  # None: unbounded
    high: sp.Expr | None
    verdicts: dict[str, str] | None  # None: undecided here (an enclosed zero, or the formulas are undefined)
    reason: str = ""
    groups: set = field(default_factory=set)  # an enclosed zero: whose comparisons ("cells", or a set for P1)
    possible: set = field(default_factory=set)  # the sets proved possible here

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
        return _runs(self.pieces, test)

    def changes_at(self, point: sp.Expr) -> list[str]:
        """The properties whose verdict differs between the point and a neighbouring piece."""
        for i, piece in enumerate(self.pieces):
            if piece.point and piece.low == point and piece.verdicts is not None:
                out = set()
                for j in (i - 1, i + 1):
                    if 0 <= j < len(self.pieces) and self.pieces[j].verdicts is not None:
                        out |= {p for p, v in piece.verdicts.items() if self.pieces[j].verdicts[p] != v}
                return sorted(out, key=lambda p: int(p[1:]))
        return []


def _runs(pieces: list[Piece], test) -> list[tuple]:
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
    for low, high, low_in, high_in in runs:
        out.append((low, high, low_in and low is not None, high_in and high is not None))
    return out


def calibrate(spec: Spec, timeout_ms: int = 20_000) -> Calibration:
    scheme = build_scheme(spec)
    if len(scheme.symbols) != 1:
        raise _error(spec, "parameters", f"calibration takes exactly one symbolic parameter; this spec has "
                     f"{len(scheme.symbols)} ({', '.join(map(str, scheme.symbols)) or 'none'})",
                     "one parameter without 'value' (fix the others with value:)")
    theta = scheme.symbols[0]
    if any(scheme.det(h, y).has(theta) for h in range(scheme.K) for y in range(scheme.K)):
        raise _error(spec, "set_cost", f"the determinate costs depend on {theta}", "determinate costs that do "
                     "not depend on the calibrated parameter")
    if next(iter(p for p in spec.parameters.values() if p.value is None)).per_class:
        raise _error(spec, "parameters", "a per-class parameter cannot be calibrated as one number",
                     "one scalar parameter")
    low, high = _admissible(scheme, theta)
    points, enclosed = set(), []
    for difference, group in _differences(scheme, theta):
        exact, approximate = zeros(difference, theta, low, high)
        points |= set(exact)
        enclosed += [(lo, hi, group) for lo, hi in approximate]
    points |= {end for end in (low, high) if end is not None}
    fuzzy = _merged(enclosed)
    ordered = sorted(points, key=lambda v: sp.N(v, 30))
    marks: list[tuple] = sorted([(sp.N(v, 30), "point", v) for v in ordered] +
                                [(sp.N(sp.Rational(lo.numerator, lo.denominator), 30), "fuzzy", (lo, hi, g))
                                 for lo, hi, g in fuzzy], key=lambda m: m[0])
    pieces: list[Piece] = []
    previous = None  # the right end of the last mark (None: unbounded below)
    for _, kind, mark in marks:
        left = mark if kind == "point" else sp.Rational(mark[0].numerator, mark[0].denominator)
        if not (previous is None and low is not None and kind == "point" and mark == low) and \
                not (previous is not None and previous == left):
            pieces.append(_decided(spec, theta, previous, left, timeout_ms))
        if kind == "point":
            pieces.append(_decided(spec, theta, mark, mark, timeout_ms))
            previous = mark
        else:
            hi = sp.Rational(mark[1].numerator, mark[1].denominator)
            pieces.append(Piece(left, hi, None, f"a zero of a comparison ({', '.join(sorted(mark[2]))}) is only "
                                                f"enclosed in [{float(mark[0])}, {float(mark[1])}]", groups=mark[2]))
            previous = hi
    if high is None or previous != high:
        pieces.append(_decided(spec, theta, previous, None if high is None else high, timeout_ms))
    _settle_fuzzy(pieces)
    return Calibration(str(theta), pieces, [(lo, hi) for lo, hi, _ in fuzzy])


def _merged(enclosed):
    out = []
    for lo, hi, group in sorted(enclosed, key=lambda e: e[0]):
        if out and out[-1][1] >= lo:
            out[-1] = (out[-1][0], max(hi, out[-1][1]), out[-1][2] | {group})
        else:
            out.append((lo, hi, {group}))
    return out


def _settle_fuzzy(pieces: list[Piece]) -> None:
    """Inside an enclosed zero, a property none of whose comparisons vanish there keeps its neighbours' common
    verdict. Property 1's comparisons are grouped by set: it holds throughout when some set whose comparisons
    do not vanish there is possible on both sides."""
    for i, piece in enumerate(pieces):
        if piece.verdicts is not None or not piece.groups or not 0 < i < len(pieces) - 1:
            continue
        before, after = pieces[i - 1], pieces[i + 1]
        if before.verdicts is None or after.verdicts is None:
            continue
        touched = {"P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9", "P10"} if "cells" in piece.groups else set()
        verdicts = {}
        for pid, verdict in before.verdicts.items():
            if pid == "P1" and after.verdicts[pid] == verdict == "holds":
                steady = (before.possible & after.possible) - {g for g in piece.groups if g != "cells"}
                verdicts[pid] = verdict if steady else None
            elif pid not in touched and pid != "P1" and after.verdicts[pid] == verdict:
                verdicts[pid] = verdict
            else:
                verdicts[pid] = None
        if all(v is not None for v in verdicts.values()):
            piece.verdicts, piece.reason = verdicts, piece.reason + "; no verdict changes inside it"


def _decided(spec: Spec, theta, a, b, timeout_ms) -> Piece:
    value = a if a == b and a is not None else _inside(a, b)
    if not isinstance(value, sp.Rational):
        return Piece(a, b, None, f"{theta} = {value} is irrational: the properties are decided at rational values")
    fixed = Parameter(str(theta), False, Fraction(int(value.p), int(value.q)), f"parameters.{theta}", None)
    try:
        analysis = analyse(replace(spec, parameters={**spec.parameters, str(theta): fixed}), timeout_ms,
                           optimality=False)
    except SpecError as exc:
        return Piece(a, b, None, f"undefined at {theta} = {value}: {exc.message}")
    possible = {_label(e.members) for e in analysis.possibility if e.status is Truth.TRUE}
    return Piece(a, b, {r.property.id: r.verdict.value for r in analysis.results}, possible=possible)


def _inside(a, b) -> sp.Rational:
    """A simple rational strictly between a and b (either may be None: unbounded)."""
    if a is None and b is None:
        return sp.Integer(0)
    if a is None:
        return sp.floor(b) - 1
    if b is None:
        return sp.floor(a) + 1
    lo, hi = _rational_below(b), _rational_above(a)
    middle = simplest(Fraction(int(hi.p), int(hi.q)), Fraction(int(lo.p), int(lo.q)))
    return sp.Rational(middle.numerator, middle.denominator)


def _rational_above(x) -> sp.Rational:
    return x if isinstance(x, sp.Rational) else sp.Rational(str(sp.N(x, 30))) + sp.Rational(1, 10**25)


def _rational_below(x) -> sp.Rational:
    return x if isinstance(x, sp.Rational) else sp.Rational(str(sp.N(x, 30))) - sp.Rational(1, 10**25)


def _float(x) -> float:
    return float(sp.N(x, 20))


def _admissible(scheme: Scheme, theta) -> tuple[sp.Expr | None, sp.Expr | None]:
    """The assumptions on θ as one interval [low, high] (None: unbounded); open ends are handled by the
    point verdicts (an end excluded by a strict assumption makes the point undefined, never a verdict)."""
    low, high = None, None
    for condition, text in scheme.assumptions:
        solved = sp.solve_univariate_inequality(condition, theta, relational=False) if condition.has(theta) else None
        if solved is None:
            continue
        if not isinstance(solved, sp.Interval):
            raise _error(scheme.spec, "assume", f"the assumption {text!r} does not give one interval of {theta}",
                         "bounds such as 'r >= 0' and 'r <= 1'")
        if solved.start.is_finite and (low is None or solved.start > low):
            low = solved.start
        if solved.end.is_finite and (high is None or solved.end < high):
            high = solved.end
    return low, high


def _label(members) -> str:
    return ",".join(map(str, sorted(members)))


def _differences(scheme: Scheme, theta) -> list[tuple[sp.Expr, str]]:
    """Every comparison the properties make, as a difference, with its group: "cells" for Properties 2-10,
    the set's label for the candidate witnesses of Property 1."""
    out: dict[sp.Expr, str] = {}
    det = [[scheme.det(h, y) for y in range(scheme.K)] for h in range(scheme.K)]
    if not all(isinstance(v, sp.Rational) for row in det for v in row):
        raise _error(scheme.spec, "cost", "calibration needs rational determinate costs (Property 1's candidate "
                     "witnesses are computed exactly from them)", "rational determinate costs")
    for members in scheme.indeterminate_sets:
        column = {y: scheme.members_costs(members, y) for y in range(scheme.K)}
        for y in range(scheme.K):
            cost = scheme.cost(members, y)
            for other in (scheme.mean(members, y), min(column[y]), max(column[y])):
                out.setdefault(cost - other, "cells")
            for y2 in range(y + 1, scheme.K):
                out.setdefault(cost - scheme.cost(members, y2), "cells")
        fractions = [[Fraction(int(v.p), int(v.q)) for v in row] for row in det]
        for p in candidate_witnesses(fractions, members):
            expected = sp.Add(*[sp.Rational(q.numerator, q.denominator) * scheme.cost(members, y)
                                for y, q in enumerate(p) if q])
            best = min(sum(q * fractions[h][y] for y, q in enumerate(p)) for h in members)
            out.setdefault(expected - sp.Rational(best.numerator, best.denominator), _label(members))
    return [(d, group) for d, group in out.items() if d.has(theta)]


def _error(spec: Spec, key: str, message: str, expected: str) -> SpecError:
    mark = spec.marks.get(key) or spec.marks.get("")
    return SpecError(message, file=spec.path, key=key, line=mark.line if mark else None,
                     column=mark.column if mark else None, expected=expected)


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
                return [pid for pid in test_pids if pieces[j].verdicts[pid] != "holds"]
    return []
