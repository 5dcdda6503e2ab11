"""Calibration of a family: for a `set_cost` with one symbolic parameter θ (p-discounted r, Ha's delta, a
utility's u(1/2), F-beta's beta), the exact values of θ where each property holds, and where the scheme fits
each setting.

A property's truth can only change where one of its comparisons changes sign. So we collect every comparison
the properties make on this matrix (`comparisons`: over each quantifier's domain, a guarded comparison only where
its multiset premise holds; for Property 1, each candidate witness of `engines.witnesses` against the members'
expected costs), find where each difference is zero, and decide every property exactly at each such point and at
one rational point strictly between consecutive points: the ordinary pipeline at a rational value; at an
irrational one (the spec format takes rationals only) the same engine and checker on the exact matrix there.

Zeros are exact when the difference is a rational function of θ (sympy's real roots: rationals or algebraic
numbers), or an exponential sum whose bases are powers of one rational (log u / log g, `exp_sums`). Otherwise
(θ in an exponent) they are isolated by certified interval bisection (python-flint), and a zero is kept as an
exact rational only when an exact test proves the difference vanishes there; a zero that is only enclosed makes
its whole enclosure undecided (the zero may lie anywhere in it, at its ends too), and the report says so: no
verdict is claimed inside it beyond what `settle` proves for all of it, nor beyond an exact point at its end.
Where verdicts are missing (an enclosure, or a property the checker leaves unknown at a point), a property none
of whose comparisons vanish there keeps its neighbours' common verdict (`pieces.settle`).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import cmp_to_key

from verifier import limits
from verifier.analysis.carry import carry_possibility
from verifier.analysis.parameter_range import admissible_range, admits, inside, spec_error, strictly_between
from verifier.analysis.pipeline import analyse
from verifier.analysis.power_mean_route import NotPowerMean
from verifier.analysis.zeros import zeros
from verifier.check.checker import check_results
from verifier.designing.comparisons import differences
from verifier.designing.cut import Partial, stopped_calibration
from verifier.designing.pieces import Calibration, Piece, bounded_by, fit_test, piece_from, settle
from verifier.designing.power_mean_calibration import calibrate_power_mean
from verifier.engines.enumerate import EnumerationEngine
from verifier.errors import DoesNotApply, SpecError
from verifier.formula import certified
from verifier.formula.enclose import Unsupported
from verifier.lazy_sympy import sympy as sp
from verifier.limits import MAX_DESIGN_CLASSES
from verifier.properties import PROPERTIES
from verifier.scheme.exact import build_scheme
from verifier.spec.model import Parameter, Spec
from verifier.verdict import Truth

CARRIED_MAX_CLASSES = 12  # the symbolic matrix of every set is built (4,083 rows) and its comparisons listed
MAX_CARRY_ROUNDS = 6  # refinements of the cuts where Property 1's evidence may stop working
CARRIED = ("the comparisons of Properties 2-10 listed for every set, so those verdicts change only where one "
           "vanishes; Property 1 carried across each piece by the witness or the certificates found there, and the "
           "piece cut where one of their comparisons vanishes")


def calibrate(spec: Spec, timeout_ms: int = 20_000, time_limit_s: float | None = None) -> Calibration:
    """`time_limit_s` bounds the work: what is not decided by then is undecided, saying so (`Calibration.stopped`)."""
    if spec.set_cost is None or spec.open_cells:
        raise spec_error(spec, "parameters", "a symbolic parameter is calibrated through a 'set_cost' formula; open "
                     "cells are designed for numeric determinate costs", "a 'set_cost' formula using the parameter, "
                     "or numeric parameters (value:) with open cells")
    K, family = len(spec.classes), spec.predictions
    small = (2 ** MAX_DESIGN_CLASSES - MAX_DESIGN_CLASSES - 1) * MAX_DESIGN_CLASSES  # set cells of 5 classes
    if family.restricted and (family.count(K) * K > small or K > 12):
        raise spec_error(spec, "predictions", f"calibration works on at most {small:,} set cells (and 12 classes); the "
                     f"family has {family.count(K):,} set rows of {K} cells", "a smaller family or fewer classes")
    state = Partial()
    try:
        with limits.time_limit(time_limit_s):
            if K > MAX_DESIGN_CLASSES and not family.restricted:
                return _beyond_listing(spec, timeout_ms, state)
            listed = _calibrate(spec, timeout_ms, state=state)
            if _complete(listed) or family.restricted:
                return listed
            state.listed, state.stage = listed, "trying the power-mean lemmas on what was left undecided"
            return _more_decided(spec, timeout_ms, listed)
    except limits.STOPS as caught:
        return stopped_calibration(spec, state, limits.stop_of(caught), _pieces, settle, CARRIED)
    except (Unsupported, NotImplementedError) as exc:
        raise spec_error(spec, "set_cost", f"the parameter's breakpoints cannot be found exactly ({exc})",
                     "a parameter entering as a rational function or as a generalized-mean exponent, bounded "
                     "on both sides by 'assume'") from None


def _beyond_listing(spec: Spec, timeout_ms: int, state: Partial) -> Calibration:
    """Beyond 5 classes Property 1's candidate witnesses are not listed: a power-mean set cost goes through its
    lemmas; any other formula, up to CARRIED_MAX_CLASSES, through the listed comparisons of Properties 2-10 with
    Property 1 carried by its evidence."""
    K = len(spec.classes)
    try:
        return calibrate_power_mean(spec, timeout_ms, state)
    except NotPowerMean as exc:
        if K > CARRIED_MAX_CLASSES:
            raise spec_error(spec, "classes", f"beyond {CARRIED_MAX_CLASSES:,} classes, calibration works for a "
                             f"power-mean set cost, genmean(E, [c(yh, y) for yh in Y]) with the parameter in E; "
                             f"here {exc}", f"at most {CARRIED_MAX_CLASSES:,} classes, a power-mean set cost, or a "
                             "restricted 'predictions' family") from None
        return _calibrate(spec, timeout_ms, witnesses=False, state=state)
    # a power mean is not listed beyond 5 classes even where its lemmas leave a piece undecided: its comparisons
    # are power means in θ, each needing certified bisection, by the thousand


def _complete(cal: Calibration) -> bool:
    """Every admissible piece where the formulas are defined has every verdict (an enclosed zero included, when
    its verdicts were settled)."""
    return all(piece.verdicts is not None and None not in piece.verdicts.values()
               for piece in cal.pieces if piece.admissible and not piece.undefined)


def _more_decided(spec: Spec, timeout_ms: int, listed: Calibration) -> Calibration:
    """Where listing the comparisons leaves pieces undecided (a zero only enclosed, a verdict the checker left
    open), a power-mean set cost may be settled by its lemmas instead: that answer is taken when it is complete."""
    try:
        lemmas = calibrate_power_mean(spec, timeout_ms)
    except (DoesNotApply, NotImplementedError):  # NotPowerMean, Unsupported
        return listed
    return lemmas if _complete(lemmas) else listed


def _calibrate(spec: Spec, timeout_ms: int, witnesses: bool = True, state: Partial | None = None) -> Calibration:
    """`witnesses`: watch Property 1's candidate witnesses of every set (up to 5 classes); otherwise Property 1
    is carried across each piece by the evidence found there (`carry`), and cut where that evidence may fail."""
    scheme = build_scheme(spec)
    if len(scheme.symbols) != 1:
        raise spec_error(spec, "parameters", f"calibration takes exactly one symbolic parameter (two are mapped, "
                     f"one scalar each); this spec has {len(scheme.symbols)} "
                     f"({', '.join(map(str, scheme.symbols)) or 'none'})",
                     "one or two parameters without 'value' (fix the others with value:)")
    theta = scheme.symbols[0]
    if any(scheme.det(h, y).has(theta) for h in range(scheme.K) for y in range(scheme.K)):
        raise spec_error(spec, "set_cost", f"the determinate costs depend on {theta}", "determinate costs that do "
                     "not depend on the calibrated parameter")
    if next(iter(p for p in spec.parameters.values() if p.value is None)).per_class:
        raise spec_error(spec, "parameters", "a per-class parameter cannot be calibrated as one number",
                     "one scalar parameter")
    low, high = admissible_range(scheme, theta)
    state = state or Partial()
    state.range, state.witnesses, state.stage = (low, high), witnesses, "listing the comparisons and their zeros"
    assumed = [condition for condition, _ in scheme.assumptions]
    points: dict[sp.Expr, set] = {}  # each exact zero, with what the comparisons vanishing there decide
    enclosed = []
    for difference, group in differences(scheme, theta, witnesses):
        exact, approximate = zeros(difference, theta, low, high)
        for x in exact:
            points.setdefault(x, set()).update(group)
        enclosed += [(lo, hi, group) for lo, hi in approximate]
    fuzzy = _merged(enclosed)
    points = _outside_enclosures(points, fuzzy)
    for end in (low, high):
        if end is not None:
            points.setdefault(end, set())
    decided = state.decided  # (a, b) -> Piece: each piece is decided once, however often the cuts are refined
    state.points, state.fuzzy, state.stage = points, fuzzy, "deciding the pieces between the breakpoints"

    def decide(a, b) -> Piece:
        if (a, b) not in decided:
            decided[(a, b)] = _decided(spec, theta, a, b, timeout_ms, assumed)
        return replace(decided[(a, b)])

    for _ in range(MAX_CARRY_ROUNDS):
        pieces = _pieces(points, fuzzy, low, high, decide)
        cuts = [] if witnesses else carry_possibility(pieces, scheme.cost, scheme.K, len(scheme.indeterminate_sets),
                                                      theta)
        if not cuts:
            state.carried = True
            break
        for x in cuts:
            points.setdefault(x, set()).add("P1")
    else:
        for piece in pieces:  # still cut after the last round: what was not carried stays undecided
            if not piece.point and piece.verdicts and piece.verdicts.get("P1") is not None and not witnesses:
                piece.verdicts["P1"] = None
                piece.reason = f"P1: its evidence kept changing after {MAX_CARRY_ROUNDS} rounds of cuts"
    settle(pieces, p1_listed=witnesses)
    return Calibration(str(theta), pieces, [(lo, hi) for lo, hi, _ in fuzzy],
                       method="" if witnesses else CARRIED,
                       route="listed comparisons" if witnesses else "carried evidence")


def _pieces(points: dict, fuzzy: list, low, high, decide) -> list[Piece]:
    """Point, open piece, point, ...: every breakpoint and every gap, each decided at one exact value."""
    marks = _distinct(sorted([(v, "point", v) for v in points] +
                             [(sp.Rational(lo.numerator, lo.denominator), "fuzzy", (lo, hi, g)) for lo, hi, g in fuzzy],
                             key=cmp_to_key(_exact_order)), points)
    pieces: list[Piece] = []
    previous = None  # the right end of the last mark (None: unbounded below)
    for _, kind, mark in marks:
        left = mark if kind == "point" else sp.Rational(mark[0].numerator, mark[0].denominator)
        if not (previous is None and low is not None and kind == "point" and mark == low) and \
                not (previous is not None and previous == left):
            pieces.append(decide(previous, left))
        if kind == "point":
            pieces.append(decide(mark, mark))
            pieces[-1].groups = points[mark]
            previous = mark
        else:
            hi = sp.Rational(mark[1].numerator, mark[1].denominator)
            pieces.append(Piece(left, hi, None, f"a zero of a comparison deciding {', '.join(sorted(mark[2]))} is "
                                                "only enclosed in this stretch (certified bisection: where in it, "
                                                "and how many, is not known)",
                                groups=mark[2], fuzzy=True))
            previous = hi
    if high is None or previous != high:
        pieces.append(decide(previous, None if high is None else high))
    for before, piece, after in zip([None] + pieces, pieces, pieces[1:] + [None]):
        if piece.fuzzy:  # an end shared with a point decided exactly (an admissible end) belongs to that point
            piece.open_low = before is not None and before.point and before.low == piece.low
            piece.open_high = after is not None and after.point and after.low == piece.high
    return pieces


def _exact_order(a, b) -> int:
    """Breakpoints ordered by certified comparison (never by their decimal approximations)."""
    sign = certified.compare(a[0], b[0]).value
    if sign is None:
        raise Unsupported(f"two breakpoints, {a[0]} and {b[0]}, could not be ordered exactly")
    return sign


def _outside_enclosures(points: dict, fuzzy: list) -> dict:
    """An exact zero inside an enclosure of another zero joins it: that stretch is settled as one."""
    out = {}
    for x, group in points.items():
        inside = next((f for f in fuzzy if certified.compare(_rational(f[0]), x).value in (-1, 0) and
                       certified.compare(x, _rational(f[1])).value in (-1, 0)), None)
        if inside is None:
            out[x] = group
        else:
            inside[2].update(group)
    return out


def _distinct(marks: list, points: dict) -> list:
    """One mark per breakpoint: equal exact points written differently (log 4 / log 9 and log 2 / log 3) are
    merged, with their groups."""
    out = []
    for mark in marks:
        if out and mark[1] == out[-1][1] == "point" and certified.compare(mark[0], out[-1][0]).value == 0:
            points[out[-1][2]] |= points[mark[2]]
            continue
        out.append(mark)
    return out


def _rational(x: Fraction) -> sp.Rational:
    return sp.Rational(x.numerator, x.denominator)


def _merged(enclosed):
    out = []
    for lo, hi, group in sorted(enclosed, key=lambda e: e[0]):
        if out and out[-1][1] >= lo:
            out[-1] = (out[-1][0], max(hi, out[-1][1]), out[-1][2] | group)
        else:
            out.append((lo, hi, set(group)))
    return out


def _decided(spec: Spec, theta, a, b, timeout_ms, assumptions=()) -> Piece:
    value = a if a == b and a is not None else inside(a, b)
    if any(admits(condition, theta, value) is False for condition in assumptions):
        return Piece(a, b, None, "outside the assumptions", admissible=False)
    if a != b and not strictly_between(a, value, b):
        return Piece(a, b, None, f"no rational point was proved to lie strictly between {a} and {b}")
    if not isinstance(value, sp.Rational):
        return _decided_at_irrational(spec, theta, value, assumptions)
    fixed = Parameter(str(theta), False, Fraction(int(value.p), int(value.q)), f"parameters.{theta}", None)
    try:
        analysis = analyse(replace(spec, parameters={**spec.parameters, str(theta): fixed}), timeout_ms,
                           optimality=False)
    except SpecError as exc:
        return Piece(a, b, None, f"undefined at {theta} = {value}: {exc.message}", undefined=True)
    possible = {analysis.scheme.label(e.members) for e in analysis.possibility if e.status is Truth.TRUE}
    piece = piece_from(a, b, analysis.results, possible, theta, value)
    piece.evidence = (analysis.results, analysis.possibility)
    return piece


def _decided_at_irrational(spec: Spec, theta, value, assumptions) -> Piece:
    """A breakpoint known exactly but irrational (an algebraic root, or log u / log g from `exp_sums`): the
    spec format takes rational values only, so the same engine and checker run on the exact matrix at θ =
    value (cell by cell: every comparison is a certified sign, and ties are recognised by exact zero tests)."""
    if any(admits(condition, theta, value) is None for condition in assumptions):
        return Piece(value, value, None, f"the assumptions could not be decided exactly at {theta} = {value}")
    try:
        scheme = build_scheme(spec, values={str(theta): value})
        engine = EnumerationEngine(scheme)
        results = [engine.decide(prop) for prop in PROPERTIES]
        check_results(scheme, results)
    except SpecError as exc:
        return Piece(value, value, None, f"undefined at {theta} = {value}: {exc.message}", undefined=True)
    possible = {scheme.label(m) for m, e in engine.possibility.items() if e.status is Truth.TRUE}
    piece = piece_from(value, value, results, possible, theta, value)
    piece.evidence = (results, [engine.possibility[m] for m in scheme.indeterminate_sets])
    return piece


__all__ = ["Calibration", "Piece", "bounded_by", "calibrate", "fit_test"]
