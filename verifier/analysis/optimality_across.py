"""Each set's optimality across every admissible parameter value, for any number of parameters.

z3 decides, per set, whether some admissible value and some p make it the unique minimiser, only a minimiser
in ties, or never one (`engines.parametric_optimality`; an unsat answer is the proof for every admissible
value). The evidence shown is exact and re-checked: at the parameter point of z3's model (rational, or a
rational near an algebraic one), the numeric engine decides the concrete scheme (`engines.optimality`) and the
independent checker re-checks it (`check.optimality`); its witness p (alone, tied) or certificate λ (never,
there) is printed with that point. A model that no rational point confirms leaves the set `unknown`, saying
so. Beyond six classes, a class-symmetric scheme is asked once per size (`size_questions`), every set of a
size sharing the answer; the evidence is still each set's own, from the exact decision at the point. `None`
when the costs or assumptions are beyond the SMT encoding: the one-parameter route then decides.

Owns: `optimality_across`, `evidence`, and `Points`, `rational_near` and `decided_near` (every set decided exactly
at a parameter point near a model), which `analysis.optimality_conditions` and `analysis.size_conditions` share.
May import: engines, check, scheme, formula, errors.
"""

from __future__ import annotations

from fractions import Fraction

from verifier.check.optimality import check_optimality
from verifier.engines.optimality import analyse_optimality
from verifier.engines.parametric_optimality import MAX_SETS, Answer, parametric_questions, size_questions
from verifier.errors import SpecError
from verifier.formula.enclose import Unsupported
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import ClassSet, Scheme, build_scheme
from verifier.scheme.orbits import NotSymmetric, build_reduced_scheme
from verifier.verdict import Optimal, SetOptimality

NEARBY = (10, 100, 1_000, 10**6, 10**12)  # denominators of the rationals tried near an algebraic model value


def optimality_across(scheme: Scheme) -> dict[ClassSet, SetOptimality] | None:
    """Every set's status across the parameters with its evidence at a point; None when z3 cannot be asked."""
    try:
        answers = parametric_questions(scheme)
    except Unsupported:
        answers = _by_size(scheme)
        if answers is None:
            return None
    points = Points(scheme)
    example = next((a.values for a in answers.values() if a.values is not None), None)
    return {m: evidence(scheme, m, a, points, example) for m, a in answers.items()}


def _by_size(scheme: Scheme) -> dict[ClassSet, Answer] | None:
    """Beyond MAX_SETS sets, a scheme proved class-symmetric (`scheme.orbits`, per-class parameters not moving
    with the classes) is asked once per size, and every set of n classes has the answer of {1..n}; None when
    it is not symmetric or a cost is beyond the SMT encoding."""
    if len(scheme.all_sets) <= MAX_SETS:
        return None  # asked set by set already, and beyond the encoding
    try:
        reduced = build_reduced_scheme(scheme.spec, classes=scheme.classes)
        if reduced.orbits.moves_parameters:
            return None  # a relabelling moves the parameters: sets of one size need not share a status
        by_size = size_questions(reduced)
    except (NotSymmetric, Unsupported, SpecError):
        return None
    return {m: by_size[len(m)] for m in scheme.all_sets if len(m) in by_size}


def evidence(scheme: Scheme, members: ClassSet, answer: Answer, points: "Points", example) -> SetOptimality:
    """z3's answer for one set, confirmed exactly at a rational parameter point near its model (or `example`)."""
    if answer.status == "unknown":
        return SetOptimality(members, "unknown", reason=answer.reason)
    wanted = {"alone": "alone", "minimiser": "tied", "never": "never"}[answer.status]
    candidates = rational_near(answer.values if answer.values is not None else example)
    for point in candidates:
        found = points.decide(point)
        entry = found.get(members) if found is not None else None
        if entry is None or entry.status != wanted:
            continue
        where = ", ".join(f"{name} = {value}" for name, value in point.items())
        return SetOptimality(members, wanted, witness=entry.witness, margin=entry.margin,
                             margin_is_bound=entry.margin_is_bound, tied_with=entry.tied_with,
                             certificate=entry.certificate, at=point, reason=_REASONS[wanted].format(where=where))
    if wanted == Optimal.NEVER and example is None:  # no admissible point was ever found, so none to show a λ at
        return SetOptimality(members, "never", reason=_REASONS["never"].split(";")[0])
    return SetOptimality(members, "unknown", reason=f"z3 says {_SAYS[answer.status]}, but no rational parameter "
                                                    "point near its model confirmed it exactly")


_REASONS = {
    "alone": "the unique best prediction for some p at {where} (checked exactly there)",
    "tied": "never the unique best prediction for any admissible parameter value (proved by z3: no admissible "
            "value and p make it cheaper than every other set); a minimiser in ties at {where}",
    "never": "never a best prediction for any admissible parameter value (proved by z3: no admissible value and "
             "p make it a minimiser); the certificate shown holds at {where}",
}
_SAYS = {"alone": "it is alone for some admissible value", "minimiser": "it is a minimiser only in ties",
         "never": "it is never a minimiser"}


def rational_near(values: dict[str, sp.Expr] | None) -> list[dict[str, sp.Rational]]:
    """The model's point when every value is rational, else rationals near it (nearest first by denominator)."""
    if values is None:
        return []
    if all(v.is_Rational for v in values.values()):
        return [dict(values)]
    out = []
    for limit in NEARBY:
        point = {}
        for name, v in values.items():
            f = Fraction(str(sp.N(v, 40))).limit_denominator(limit) if not v.is_Rational else None
            point[name] = v if v.is_Rational else sp.Rational(f.numerator, f.denominator)
        if point not in out:
            out.append(point)
    return out


def decided_near(points: "Points", members: ClassSet, status: str, values) -> tuple[dict | None, SetOptimality | None]:
    """A rational point near z3's parameter values where the numeric engine finds the set with that status
    (re-checked independently), and that finding; (None, None) when no rational point near them confirms it."""
    for point in rational_near(values):
        decided = points.decide(point)
        entry = decided.get(members) if decided is not None else None
        if entry is not None and entry.status == status:
            return point, entry
    return None, None


class Points:
    """Every set decided exactly at a parameter point (numeric engine, then the independent re-check), once per
    point; None outside the assumptions or where a formula is undefined."""

    def __init__(self, scheme: Scheme):
        self.scheme, self.seen = scheme, {}

    def decide(self, point: dict[str, sp.Rational]) -> dict | None:
        """Every set's optimality at this parameter point, decided exactly and re-checked (None: it could not be
        built or checked there); each point once."""
        key = tuple(sorted(point.items()))
        if key not in self.seen:
            self.seen[key] = self._decide(point)
        return self.seen[key]

    def _decide(self, point):
        symbols = {s.name: s for s in self.scheme.symbols}
        substitution = {symbols[name]: value for name, value in point.items() if name in symbols}
        for condition, _ in self.scheme.assumptions:  # exact: rational values in polynomial conditions
            held = condition.subs(substitution) if hasattr(condition, "subs") else condition
            if held is not sp.true and held is not True:
                return None
        try:
            concrete = build_scheme(self.scheme.spec, values=dict(point))
        except SpecError:
            return None
        found = analyse_optimality(concrete)
        check_optimality(concrete, found)
        return found
