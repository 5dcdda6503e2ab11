"""Carrying a verdict found at one value of θ across a piece of its range, on the evidence that decided it.

A verdict that rests on a few comparisons holds wherever those comparisons keep their signs: a "some set"
property that holds (a witness: Property 1's set with its distribution q, or P9's set and classes), a "for
every set" property that fails (a counterexample), and Property 1 failing, which rests on one Ville
certificate per indeterminate set (a mixture λ of its members with Σ λ_ŷ c_ŷ(y) <= c_Y(y) at every y). Each
comparison is a difference in θ; when none vanishes strictly inside the piece, the same evidence decides every
value there. A zero inside is where the evidence may stop working: the caller cuts the piece there and decides
the parts again.

Owns: `deciding_differences`, `zeros_inside`, `crossings_inside`. May import: `analysis.zeros`,
`analysis.parameter_range`, formula, properties, verdict.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from verifier.analysis.parameter_range import rational_above, rational_below
from verifier.analysis.zeros import zeros
from verifier.formula import certified
from verifier.formula.enclose import Unsupported
from verifier.lazy_sympy import sympy as sp
from verifier.properties import Possible, QuantifierKind
from verifier.verdict import PropertyResult, Truth, Verdict

Cell = Callable[[frozenset, int], sp.Expr]  # c_Y(y) as an expression in θ


def deciding_differences(result: PropertyResult, possibility, cell: Cell, K: int, sets: int) -> list[sp.Expr] | None:
    """The comparisons the verdict rests on, as differences in θ whose signs must not change (each is > 0, or
    >= 0 for a certificate, where the verdict was found); None when the verdict rests on every instance (a
    "for every set" property that holds, a "some set" one that fails, except Property 1's certificates, which
    count only when `possibility` has one for each of the `sets` indeterminate sets)."""
    universal = result.property.quantifiers[0].kind == QuantifierKind.FORALL
    decisive = result.verdict is (Verdict.FAILS if universal else Verdict.HOLDS)
    evidence = result.evidence
    if isinstance(result.property.atom, Possible):
        if result.verdict is Verdict.HOLDS:
            found = next((e for e in evidence.possibility or possibility if e.status is Truth.TRUE and
                          e.witness is not None and evidence.binding is not None and
                          e.members == evidence.binding.members), None)
            return None if found is None else _witness(found, cell, K)
        if result.verdict is Verdict.FAILS and len(possibility) == sets:
            return _certificates(possibility, cell, K)
        return None
    if not decisive or evidence.binding is None:
        return None
    binding = evidence.binding
    if binding.y is not None and binding.y2 is not None:
        return [cell(binding.members, binding.y) - cell(binding.members, binding.y2)]
    return None


def _witness(entry, cell: Cell, K: int) -> list[sp.Expr]:
    q = entry.witness
    own = sp.Add(*[q[y] * cell(entry.members, y) for y in range(K) if q[y]])
    return [sp.Add(*[q[y] * cell(frozenset((h,)), y) for y in range(K) if q[y]]) - own
            for h in sorted(entry.members)]


def _certificates(possibility, cell: Cell, K: int) -> list[sp.Expr] | None:
    out = []
    for entry in possibility:
        if entry.status is not Truth.FALSE or not entry.certificate:
            return None
        for y in range(K):
            mixture = sp.Add(*[weight * cell(frozenset((h,)), y) for h, weight in entry.certificate.items()])
            out.append(cell(entry.members, y) - mixture)
    return out


def zeros_inside(differences: list[sp.Expr], theta, a, b) -> tuple[list | None, str]:
    """([] when no difference vanishes strictly inside (a, b); the exact zeros inside otherwise), or (None, why)
    when a zero there is only enclosed or cannot be found. Identically zero differences never change sign."""
    inside, enclosed, why = crossings_inside(differences, theta, a, b, first_enclosure=True)
    if why:
        return None, why
    if enclosed:
        return None, "a deciding comparison vanishes at a point known only within an enclosure"
    return inside, ""


def crossings_inside(differences: list[sp.Expr], theta, a, b,
                     first_enclosure: bool = False) -> tuple[list, list[tuple[Fraction, Fraction]], str]:
    """(the exact zeros strictly inside (a, b), the enclosures [lo, hi] of zeros that overlap it, why not) over
    all differences; with `first_enclosure`, stops at the first enclosure. `why` is set when some difference's
    zeros could not be found (then nothing else counts)."""
    inside: list = []
    enclosures: list = []
    for d in dict.fromkeys(differences):  # many certificates share their differences
        if not d.has(theta):
            continue
        try:  # irrational ends (an earlier cut) are widened to rationals: zeros beyond them are dropped below
            exact, enclosed = zeros(d, theta, None if a is None else rational_below(a),
                                    None if b is None else rational_above(b))
        except (Unsupported, NotImplementedError) as exc:
            return [], [], f"the zeros of a deciding comparison could not be found ({exc})"
        enclosures += [(lo, hi) for lo, hi in enclosed if _overlaps(lo, hi, a, b)]
        if enclosures and first_enclosure:
            break
        inside += [z for z in exact if _strictly_inside(a, z, b)]
    return inside, enclosures, ""


def _strictly_inside(a, x, b) -> bool:
    return (a is None or certified.compare(a, x).value == -1) and (b is None or certified.compare(x, b).value == -1)


def _overlaps(lo: Fraction, hi: Fraction, a, b) -> bool:
    return (a is None or certified.compare(sp.Rational(hi.numerator, hi.denominator), a).value == 1) and \
        (b is None or certified.compare(sp.Rational(lo.numerator, lo.denominator), b).value == -1)


def carry_possibility(pieces, cell: Cell, K: int, sets: int, theta) -> list:
    """Property 1 across each open piece decided at one value: carried by its witness or its certificates, or
    cut where they may stop working (the cuts are returned, to be decided as points); where neither is possible
    its verdict there becomes undecided, with why. `pieces` keep their evidence (results, possibility)."""
    cuts: list = []
    for piece in pieces:
        if piece.point or piece.fuzzy or piece.verdicts is None or piece.verdicts.get("P1") is None \
                or piece.evidence is None:
            continue
        results, possibility = piece.evidence
        result = next(r for r in results if isinstance(r.property.atom, Possible))
        found = deciding_differences(result, possibility, cell, K, sets)
        inside, why = (None, "its evidence could not be followed in θ") if found is None else \
            zeros_inside(found, theta, piece.low, piece.high)
        if inside is None:
            _undecide(piece, f"{piece.verdicts['P1']} where checked, but across the piece {why}")
        else:
            cuts += inside
    return cuts


def _undecide(piece, why: str) -> None:
    piece.verdicts = {**piece.verdicts, "P1": None}
    piece.why = {**piece.why, "P1": why}
    piece.reason = "; ".join(f"{pid}: {text}" for pid, text in piece.why.items())
