"""With two parameters, where a set is alone or a minimiser, as a condition on the signs of a few polynomials,
proposed by sampling the plane's cells and proved by z3.

Y's status is the same wherever the factors of `analysis.sign_factors` keep their signs. Lines through the
admissible box (its edges and LINES more per parameter) cross every factor's zero set at points found by
certified root isolation (python-flint); the edges' ends and a simple rational between two consecutive crossings
are the samples, and Y's status at each is decided exactly (`WitnessCover.status_at`: the polytope's vertices in
rationals). The fewest factors whose signs separate the samples inside from those outside are chosen greedily;
the patterns inside are widened into a short sum of products (the patterns no sample showed left free), read
as "f > 0" and "f < 0", with "f = 0" told apart only where some sample lies on the zero set. Two candidates are
offered: that sum (an open set when no zero was sampled) and the complement of the sum for the outside (a
closed one). A candidate is kept only when z3 proves it: where it fails, no p gives the status (a question over
the parameters and p); where it holds, named witnesses p(θ) give it (`analysis.witness_cover`, questions over
the parameters alone). Where either cannot tell (near a curved boundary z3's questions over the witnesses grow
hard), the set's exact region from the elimination of p (`exact`, given by the caller: a formula in the
parameters alone, equal to where the status holds) decides instead: two questions over the parameters. A point
z3 finds against it becomes a sample, up to ROUNDS times. Samples only propose: what is stated is what z3
proved.

Owns: `CellConditions`. May import: scheme, formula, errors, verdict, `analysis.sign_factors`,
`analysis.sign_formulas`, `analysis.witness_cover`,
`analysis.zeros`, `analysis.parameter_range`.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from verifier.analysis.parameter_range import admissible_range, rational_above, rational_below
from verifier.analysis.sign_factors import Factor, decisive_factors
from verifier.analysis.sign_formulas import formula, separating, sum_of_products, truth_at
from verifier.analysis.witness_cover import WitnessCover
from verifier.analysis.zeros import simplest
from verifier.errors import SpecError
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import ClassSet, Scheme
from verifier.verdict import Optimal

LINES = 5  # lines across the admissible box per parameter
ROUNDS = 10  # z3 counterexamples turned into samples, per condition (a tie at one corner took 8)
SPAN = 4  # the width given to a range unbounded on one side (both: [-SPAN, SPAN])
SEED_DENOMINATOR = 2**64  # samples offered as seeds for witnesses: the simple ones (crossings, box edges)


class CellConditions:
    """Per set, samples of the plane's cells with the set's exact status at each, and the conditions proved."""

    def __init__(self, scheme: Scheme, questions, proof_ms: int,
                 exact: Callable[[ClassSet, bool], sp.Basic | None] | None = None):
        self.scheme, self.questions, self.proof_ms, self.exact = scheme, questions, proof_ms, exact
        self.box = [self._range(s) for s in scheme.symbols]
        self.samples: dict[ClassSet, dict[tuple[Fraction, ...], str | None]] = {}
        self.factors: dict[ClassSet, list[Factor]] = {}
        self.covers: dict[ClassSet, WitnessCover] = {}
        self.hard: set[tuple[ClassSet, bool]] = set()  # sets whose witness questions could not tell

    def condition(self, members: ClassSet, strict: bool) -> sp.Basic | None:
        """A condition z3 proves exactly where Y is alone (strict) or a minimiser, or None."""
        self._sampled(members)
        for _ in range(ROUNDS + 1):
            candidates = self._candidates(members, strict)
            if not candidates:
                return None
            learned = False
            for candidate in candidates:
                found = self._disagreement(members, candidate, strict)
                if found is None:
                    return candidate
                if found is not False:
                    learned = self._learn(members, candidate, strict, found) or learned
            if not learned:
                return None
        return None

    def _sampled(self, members: ClassSet) -> None:
        """The set's factors, and its status at every crossing sample (once)."""
        if members in self.factors:
            return
        self.factors[members] = decisive_factors(self.scheme, members)
        self.samples[members] = {}
        for point in self._crossing_samples(self.factors[members]):
            status = self._status(members, point)
            if status is not None:
                self._add(members, point, alone=status == Optimal.ALONE, minimiser=status != Optimal.NEVER)

    def first_sample(self, members: ClassSet, status: Optimal) -> dict | None:
        """The first sampled parameter point (in sampling order) where the set has that exact status."""
        self._sampled(members)
        wanted = {Optimal.ALONE: (True, True), Optimal.TIED: (False, True), Optimal.NEVER: (False, False)}[status]
        for point, (_, alone, minimiser) in self.samples[members].items():
            if (alone, minimiser) == wanted and all(isinstance(x, Fraction) for x in point):
                return {s.name: sp.Rational(x.numerator, x.denominator) for s, x in zip(self.scheme.symbols, point)}
        return None

    def _disagreement(self, members: ClassSet, candidate, strict: bool):
        """z3's verdict on the candidate: where it fails no p gives the status (a question over θ and p, which
        z3 settles well), and where it holds named witnesses give it (`analysis.witness_cover`). Once either
        cannot tell for the set, the exact region decides instead: the candidate is equivalent to it (two
        questions over θ alone)."""
        key = (members, strict)
        if key not in self.hard:
            found = self.questions.disagreement(members, candidate, strict, self.proof_ms, mixture=False)
            if found is None:
                index = 1 if strict else 2
                seeds = [dict(zip(self.scheme.symbols, [sp.Rational(x.numerator, x.denominator) for x in point]))
                         for point, sample in self.samples[members].items()
                         if sample[index] and all(isinstance(x, Fraction) and x.denominator < SEED_DENOMINATOR
                                                  for x in point)]
                found = self._cover(members).disagreement(candidate, strict, self.proof_ms, seeds=seeds)
            if found is not False:
                return found
            self.hard.add(key)  # its questions run to their budget: not asked again for this set
        region = self.exact(members, strict) if self.exact is not None else None
        if region is None:
            return False
        found = self.questions.beyond(candidate, region, self.proof_ms)  # holds, but not the status
        return found if found is not None else self.questions.beyond(region, candidate, self.proof_ms)

    def _cover(self, members: ClassSet) -> WitnessCover:
        if members not in self.covers:
            self.covers[members] = WitnessCover(self.scheme, members)
        return self.covers[members]

    def _add(self, members: ClassSet, point: tuple, alone: bool | None, minimiser: bool | None) -> None:
        signs = tuple(f.sign_at(point) for f in self.factors[members])
        if None in signs:
            return
        known = self.samples[members].get(point, (signs, None, None))
        self.samples[members][point] = (signs, alone if alone is not None else known[1],
                                        minimiser if minimiser is not None else known[2])

    def _learn(self, members: ClassSet, candidate, strict: bool, values: dict) -> bool:
        """A counterexample of z3's as a sample: at its exact point (rational or algebraic) the candidate and the
        status disagree, so the status there is the candidate's opposite (z3 showed a p, or a mixture)."""
        point = tuple(values[s.name] for s in self.scheme.symbols)
        holds = truth_at(candidate, dict(zip(self.scheme.symbols, point)))
        if holds is None:
            return False
        point = tuple(_fraction(v) if v.is_Rational else v for v in point)
        before = len(self.samples[members]), self.samples[members].get(point)
        if strict:  # holds but not alone (a mixture no worse), or fails but alone (a p)
            self._add(members, point, alone=not holds, minimiser=True if not holds else None)
        else:  # holds but never a minimiser (a mixture strictly better), or fails but a minimiser
            self._add(members, point, alone=False if holds else None, minimiser=not holds)
        return (len(self.samples[members]), self.samples[members].get(point)) != before

    def _candidates(self, members: ClassSet, strict: bool) -> list[sp.Basic]:
        factors = self.factors[members]
        index = 1 if strict else 2
        rows = [(sample[0], sample[index]) for sample in self.samples[members].values() if sample[index] is not None]
        if not rows:
            return []
        chosen = separating(rows, len(factors))
        if chosen is None:
            return []
        atoms = [factors[i].expr for i in chosen]
        inside = formula(sum_of_products(rows, chosen, True), atoms)
        outside = formula(sum_of_products(rows, chosen, False), atoms)
        return list(dict.fromkeys([inside, sp.to_nnf(sp.Not(outside), simplify=False)]))

    def _status(self, members: ClassSet, point: tuple[Fraction, ...]) -> str | None:
        """Y's exact status at a rational point (its polytope's vertices, in Fractions), None outside the
        assumptions."""
        values = {s: sp.Rational(x.numerator, x.denominator) for s, x in zip(self.scheme.symbols, point)}
        for condition, _ in self.scheme.assumptions:
            held = condition.subs(values) if hasattr(condition, "subs") else condition
            if held is not sp.true and held is not True:
                return None
        return self._cover(members).status_at(values)

    def _crossing_samples(self, factors: list[Factor]) -> list[tuple[Fraction, ...]]:
        out: dict[tuple[Fraction, ...], None] = {}
        for axis in (0, 1):
            lo, hi = self.box[axis]
            other_lo, other_hi = self.box[1 - axis]
            # the box's edges (where assumptions bind, statuses often change) and LINES lines inside
            values = [lo, hi] + [simplest(lo + (hi - lo) * Fraction(i, LINES), lo + (hi - lo) * Fraction(i + 1, LINES))
                                 for i in range(LINES)]
            for value in values:
                cuts = sorted({other_lo, other_hi, *[r for f in factors for r in _real_roots(f.along(axis, value))
                                                     if other_lo < r < other_hi]})
                for x in [other_lo, other_hi] + [simplest(a, b) for a, b in zip(cuts, cuts[1:])]:
                    out.setdefault((value, x) if axis == 0 else (x, value))
        return list(out)

    def _range(self, symbol) -> tuple[Fraction, Fraction]:
        try:
            low, high = admissible_range(self.scheme, symbol)
        except SpecError:
            low = high = None
        lo = None if low is None else _fraction(rational_below(low))
        hi = None if high is None else _fraction(rational_above(high))
        if lo is None and hi is None:
            return Fraction(-SPAN), Fraction(SPAN)
        if lo is None:
            return hi - SPAN, hi
        if hi is None:
            return lo, lo + SPAN
        return lo, hi


def _real_roots(poly) -> list[Fraction]:
    """The real roots of a univariate rational polynomial, each as the midpoint of its certified enclosure."""
    if poly.degree() < 1:
        return []
    numerator = poly.numer()
    out = []
    for root, _ in numerator.complex_roots():
        if root.imag == 0:
            mantissa, exponent = root.real.mid().man_exp()
            out.append(Fraction(int(mantissa)) * Fraction(2) ** int(exponent))
    return out


def _fraction(x) -> Fraction:
    x = sp.Rational(x)
    return Fraction(int(x.p), int(x.q))
