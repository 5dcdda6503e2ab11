"""Every set's optimality for a scheme with parameters: alone for some admissible value, only tied, or never
for any (`analysis.optimality_across`, any number of parameters), and, for one parameter θ, where that changes.

At one exact value of θ the numeric machinery decides every set (an LP search, then an exact witness p or an
exact mixture certificate λ, re-checked independently: `engines.optimality`, `check.optimality`). Its evidence
is then carried across an open piece of θ's range (`analysis.carry`): a witness p keeps Y the unique
minimiser wherever no E_p[c_Z] − E_p[c_Y] vanishes, a certificate keeps Y never optimal wherever no
c_Y(y) − Σ λ_Z c_Z(y) vanishes. Where one vanishes inside a piece, the piece is cut there and the parts are
decided again (a bounded number of times). Where a witness's comparison vanishes only within an enclosure (a
crossing certified bisection cannot place exactly), another witness is tried before the piece is cut beside the
enclosure: the largest-margin one at that value, or one moving affinely in θ from the point where the set ties
at an end of the piece to it (`analysis.central_witness`; each proved alone at the value, then carried the same
way). The ends of the range and the cuts are decided at those exact values.
A set is `alone` when it is alone at some checked value (that value and p are its evidence); `never` when
every piece and point of the admissible range is covered by a carried certificate (a proof for every
admissible value); `tied` when it is a minimiser somewhere, never alone, and never elsewhere; otherwise
`unknown`, saying why. `where` lists the pieces with their status.

Owns: `symbolic_optimality`. May import: engines, check, scheme, `analysis.parameter_range`, `analysis.carry` and
`analysis.central_witness` (points of θ's range and carrying), `analysis.optimality_across`,
`analysis.optimality_conditions`.
"""

from __future__ import annotations

from dataclasses import replace

from verifier.analysis.carry import crossings_inside
from verifier.analysis.central_witness import central_witness
from verifier.analysis.optimality_across import optimality_across
from verifier.analysis.optimality_conditions import optimality_conditions
from verifier.analysis.parameter_range import admissible_range, admits, inside, strictly_between
from verifier.analysis.plane_optimality import plane_optimality
from verifier.check.optimality import check_optimality
from verifier.engines.optimality import analyse_optimality
from verifier.engines.parametric_optimality import piece_questions
from verifier.errors import SpecError
from verifier.formula import certified
from verifier.formula.arith import collecting
from verifier.formula.enclose import Unsupported
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import Scheme, build_scheme
from verifier.verdict import Optimal, SetOptimality

MAX_VALUES = 48  # exact values of θ at which every set is decided, before what is left stays unknown
BOUNDARY_STEPS = 40  # narrowings of a piece where a set's status changes, looking for a rational point
MAX_SETS = 31  # five classes: one LP per set at each value
MARGIN = sp.Rational(1, 2**30)  # distance of a cut from an enclosed zero (enclosures are about 2^-40 wide)


def symbolic_optimality(scheme: Scheme) -> dict[frozenset[int], SetOptimality]:
    """Each set's status across the parameters (`analysis.optimality_across`, any number of them, polynomial
    costs), with the pieces of one parameter's range beside it (`where`, below); the pieces decide alone where
    the costs are beyond the SMT encoding."""
    if len(scheme.symbols) == 2:
        found = plane_optimality(scheme)  # exact and bounded by the degrees; None: beyond it, z3 below
        if found is not None:
            return found
    across = optimality_across(scheme) if scheme.symbols else None
    pieces = _by_pieces(scheme)
    if across is None:
        return pieces
    across = optimality_conditions(scheme, across, by_pieces=bool(pieces))  # where each status holds
    return {m: (replace(e, where=pieces[m].where) if e.status != Optimal.UNKNOWN else pieces[m]) if m in pieces else e
            for m, e in across.items()}


def _by_pieces(scheme: Scheme) -> dict[frozenset[int], SetOptimality]:
    if len(scheme.symbols) != 1 or len(scheme.all_sets) > MAX_SETS:
        return {}
    theta = scheme.symbols[0]
    try:
        low, high = admissible_range(scheme, theta)
    except SpecError:
        return {}
    if low is not None and high is not None and certified.compare(low, high).value != -1:
        return {}  # no admissible value, or a single one: nothing to carry across
    state = _Cover(scheme, theta, [c for c, _ in scheme.assumptions])
    try:
        pieces = state.cover(low, high)
    except (Unsupported, NotImplementedError, sp.PolynomialError) as exc:  # a report, never a traceback
        return {m: SetOptimality(m, "unknown", reason=f"not decided across {theta}: {exc}") for m in scheme.all_sets}
    return {m: _summary(scheme, theta, m, pieces) for m in scheme.all_sets}


class _Cover:
    def __init__(self, scheme: Scheme, theta, assumed):
        self.scheme, self.theta, self.assumed = scheme, theta, assumed
        self.values = 0
        self.concrete: dict = {}
        self.points: dict = {}
        try:  # polynomial costs: z3 decides a set's status on a whole piece (`engines.parametric_optimality`)
            self.questions = piece_questions(scheme)
        except Unsupported:
            self.questions = None

    def whole_piece(self, members, entry: SetOptimality | None, a, b) -> SetOptimality | None:
        """The set's status on the open piece (a, b) when z3 proves it the same at every θ there: the entry
        found inside when it agrees (its evidence), else the status with z3's proof as the reason."""
        if self.questions is None:
            return None
        try:
            status = self.questions.on_piece(members, self.theta.name, a, b)
        except Unsupported:
            return None
        if status is None:
            return None
        if entry is not None and entry.status == status:
            return entry
        return SetOptimality(members, status, reason=f"{status} for every {self.theta} in the piece (proved by z3)")

    def boundary(self, members, a, b):
        """Where the set's status changes inside (a, b), when that point is rational: the simplest rational of
        the part still mixed, narrowed until z3 proves the status the same on each side of it (then it is the
        point itself, decided exactly as a cut). None when the change is irrational (no such point within
        BOUNDARY_STEPS) or z3 cannot tell."""
        if self.questions is None or a is None or b is None:
            return None
        low, high = a, b
        for _ in range(BOUNDARY_STEPS):
            middle = inside(low, high)
            if not strictly_between(low, middle, high):
                return None
            try:
                left = self.questions.on_piece(members, self.theta.name, low, middle)
                right = self.questions.on_piece(members, self.theta.name, middle, high)
            except Unsupported:
                return None
            if left is not None and right is not None:
                return middle
            low, high = (low, middle) if left is None else (middle, high)
        return None

    def cover(self, low, high, cuts=(), ends: bool = True) -> list[tuple]:
        """[(low, high, {set: SetOptimality carried over the piece} or None, why, {set: SetOptimality at the
        value checked} or None, that value)] over [low, high]; points have low == high."""
        marks = [low, *cuts, high]
        out = [self.point(low)] if ends and low is not None else []
        for i, (a, b) in enumerate(zip(marks, marks[1:])):
            out += self.open_piece(a, b)
            if b is not None and (ends or i < len(marks) - 2):
                out.append(self.point(b))
        return out

    def decide(self, value) -> tuple[dict | None, str]:
        if any(admits(c, self.theta, value) is False for c in self.assumed):
            return None, "outside the assumptions"
        if self.values >= MAX_VALUES:
            return None, f"not checked: more than {MAX_VALUES:,} values of {self.theta} would be needed"
        self.values += 1
        try:
            concrete = build_scheme(self.scheme.spec, values={str(self.theta): value})
        except SpecError as exc:
            return None, f"undefined at {self.theta} = {value}: {exc.message}"
        found = analyse_optimality(concrete)
        check_optimality(concrete, found)
        self.concrete[value] = concrete  # its exact costs, for a central witness (`central_witness`)
        return found, ""

    def point(self, value) -> tuple:
        if not isinstance(value, sp.Rational):
            return (value, value, None, f"{self.theta} = {value} is irrational: not checked", None, value)
        found, why = self.decide(value)
        if found is not None:  # its ties may be carried into the pieces beside it (`_central`)
            self.points[value] = found
        return (value, value, found, why, found, value)

    def open_piece(self, a, b) -> list[tuple]:
        value = inside(a, b)
        if a is not None and b is not None and not strictly_between(a, value, b):
            return [(a, b, None, f"no rational point was proved to lie between {a} and {b}", None, value)]
        found, why = self.decide(value)
        if found is None:  # no exact value decided here: z3 may still settle each set on the whole piece
            settled = {m: self.whole_piece(m, None, a, b) for m in self.scheme.all_sets} if self.questions else {}
            if any(e is not None for e in settled.values()):
                return [(a, b, {m: e or SetOptimality(m, "unknown", reason=f"not decided on the piece: {why}")
                                for m, e in settled.items()}, "", None, value)]
            return [(a, b, None, why, None, value)]
        carried, cuts = {}, []
        for members, entry in found.items():
            whole = self.whole_piece(members, entry, a, b)
            if whole is not None:  # the same status on the whole piece: no cut needed for this set
                carried[members] = whole
                continue
            point = self.boundary(members, a, b)
            if point is not None:  # where its status changes: a cut, decided exactly, each side by z3
                carried[members] = SetOptimality(members, "unknown", reason="its status changes inside the piece")
                cuts.append(point)
                continue
            if self.questions is not None:  # z3 found no rational point where it changes: no cut walking to it
                carried[members] = SetOptimality(members, "unknown", reason="its status changes inside the piece, "
                                                 "at no rational point z3 could isolate")
                continue
            entry, inside_zeros, enclosed, why = self._central(members, entry, value, a, b)
            around = _around(enclosed, a, b) if enclosed and not why else []
            if around:  # crossings known only within enclosures: cut beside them, decide the small middle again
                carried[members] = SetOptimality(members, "unknown", reason="its witness may stop working inside")
                cuts += around
                continue
            if inside_zeros is None:
                why = why or "a deciding comparison vanishes at a point known only within an enclosure"
                carried[members] = SetOptimality(members, "unknown", reason=f"{entry.status} at {self.theta} = "
                                                 f"{value}; across the piece {why}")
            else:
                carried[members] = entry
                cuts += inside_zeros
        ordered = _distinct(cuts)
        if ordered and self.values < MAX_VALUES:
            return self.cover(a, b, ordered, ends=False)
        if cuts:  # too many values already, or cuts that could not be ordered exactly
            carried = {m: SetOptimality(m, "unknown", reason=f"{e.status} at {self.theta} = {value}; its evidence "
                                        f"may change inside the piece, beyond {MAX_VALUES:,} values checked")
                       for m, e in carried.items()}
        return [(a, b, carried, "", found, value)]

    def _central(self, members, entry: SetOptimality, value, a, b) -> tuple:
        """(entry, exact zeros inside or None, enclosures, why) of the evidence carried over (a, b): the entry's
        own, or, where a comparison of its witness vanishes only within an enclosure, another witness whose
        comparisons have no such zero: the central one at `value` (`central_witness`, proved alone there), or
        one moving from the point where the set ties at an end of the piece to the central one (where the set's
        region shrinks to a point at that end, no fixed witness serves a whole piece beside it)."""
        found, enclosed, why = self._carried(members, entry, a, b)
        if not enclosed or entry.status != Optimal.ALONE or value not in self.concrete:
            return entry, found, enclosed, why
        central = central_witness(self.concrete[value].rows, members, self.scheme.K)
        if central is None:
            return entry, found, enclosed, why
        candidates = [central] + [m for m in (self._moving(members, x, y, value, central) for x, y in ((a, b), (b, a)))
                                  if m is not None]
        cut_by = None
        for p in candidates:
            moved = replace(entry, witness=p, margin=None, margin_is_bound=False)
            again, still, why_not = self._carried(members, moved, a, b)
            if again is not None:
                return moved, again, [], ""
            if cut_by is None and not why_not:
                cut_by = (moved, None, still, "")
        return cut_by or (entry, found, enclosed, why)

    def _moving(self, members, end, other, value, central) -> tuple | None:
        """p(θ) = p0 + (θ − end)/(value − end)·(central − p0), affine in θ, where p0 is the point where the set
        ties at `end`: the central witness at `value`, and in the simplex on the whole piece (checked exactly at
        its ends, p being affine); None when there is no such tie or p leaves the simplex."""
        tie = self.points.get(end, {}).get(members) if end is not None and other is not None else None
        if tie is None or tie.status != Optimal.TIED or tie.witness is None:
            return None
        step = (self.theta - end) / (value - end)
        p = tuple(sp.expand(p0 + step * (c - p0)) for p0, c in zip(tie.witness, central))
        if any(certified.sign(x.subs(self.theta, other)).value not in (0, 1) for x in p):
            return None
        return p

    def _carried(self, members, entry: SetOptimality, a, b) -> tuple[list | None, list, str]:
        rows, K = self.scheme.rows, self.scheme.K
        with collecting():
            if entry.status == Optimal.ALONE:
                p = entry.witness
                differences = [sp.Add(*[p[y] * (rows[z][y] - rows[members][y]) for y in range(K) if p[y]])
                               for z in self.scheme.all_sets if z != members]
            elif entry.status == Optimal.NEVER:
                differences = [rows[members][y] - sp.Add(*[w * rows[z][y] for z, w in entry.certificate.items()])
                               for y in range(K)]
            else:
                return None, [], "its evidence (a tie, or none) holds at that value only"
        try:  # a witness's enclosures are all wanted: the piece may be cut beside each
            inside_zeros, enclosed, why = crossings_inside(differences, self.theta, a, b,
                                                           first_enclosure=entry.status != Optimal.ALONE)
        except Unsupported as exc:
            return None, [], str(exc)
        if why or enclosed:
            return None, enclosed, why  # why is "" when the zeros are only enclosed (the caller says so)
        return inside_zeros, [], ""


def _around(enclosed: list, a, b) -> list:
    """Rational cuts strictly inside (a, b) on either side of each enclosure, MARGIN to 2·MARGIN away from it:
    far enough that bisection separates the enclosed zero from the cut, close enough that the middle piece is
    small (a central witness found inside it is carried across it)."""
    out = []
    for lo, hi in enclosed:
        low, high = sp.Rational(lo.numerator, lo.denominator), sp.Rational(hi.numerator, hi.denominator)
        for x in (inside(low - 2 * MARGIN, low - MARGIN), inside(high + MARGIN, high + 2 * MARGIN)):
            if (a is None or certified.compare(a, x).value == -1) and \
                    (b is None or certified.compare(x, b).value == -1):
                out.append(x)
    return out


def _distinct(cuts: list) -> list:
    """The cuts in exact order, each once (equal values written differently are one cut)."""
    out: list = []
    for z in sorted(cuts, key=lambda v: sp.N(v, 30)):
        if not out or certified.compare(z, out[-1]).value != 0:
            out.append(z)
    if any(certified.compare(a, b).value != -1 for a, b in zip(out, out[1:])):
        return []  # not ordered exactly: no cut is trusted
    return out


def _summary(scheme: Scheme, theta, members, pieces) -> SetOptimality:
    where = [(lo, hi, carried[members].status if carried and members in carried else "unknown")
             for lo, hi, carried, why, _, _ in pieces if why != "outside the assumptions"]
    checked = [(found[members], value) for _, _, _, _, found, value in pieces if found and members in found]
    statuses = {status for _, _, status in where}
    alone = next(((e, v) for e, v in checked if e.status == Optimal.ALONE), None)
    if alone is not None:  # alone at an exact admissible value: that value and p are the evidence
        entry, value = alone
        return SetOptimality(members, "alone", witness=entry.witness, margin=entry.margin,
                             margin_is_bound=entry.margin_is_bound, where=where, at={str(theta): value})
    if statuses == {Optimal.NEVER}:
        return SetOptimality(members, "never", certificate=checked[0][0].certificate, where=where,
                             reason=f"never a minimiser, for every admissible {theta}: on each of the {len(where)} "
                                    "pieces and points of its range a mixture of other rows is cheaper in every "
                                    "column, checked exactly and carried where none of its comparisons vanishes")
    tied = next(((e, v) for e, v in checked if e.status == Optimal.TIED), None)
    if tied is not None and statuses <= {Optimal.NEVER, Optimal.TIED}:
        entry, value = tied
        return SetOptimality(members, "tied", witness=entry.witness, tied_with=entry.tied_with,
                             certificate=entry.certificate, where=where, at={str(theta): value},
                             reason=f"a minimiser at some admissible {theta}, never the unique one")
    reasons = [c[members].reason for _, _, c, _, _, _ in pieces if c and members in c and c[members].reason]
    reasons += [why for _, _, c, why, _, _ in pieces if c is None and why and why != "outside the assumptions"]
    return SetOptimality(members, "unknown", where=where,
                         reason="not decided for every admissible value: " + ("; ".join(reasons[:2]) or "no evidence"))
