"""The optimal prediction for a precise distribution: the non-empty set of least expected cost (Eq. 2 over
every set of the extended matrix), all tied optima, and the exact expected cost of the best candidates.

Floats pick the likely best set; `engines.expected` then gives the certified sign of E_p[c_Z] − E_p[c_Y] for
every set Z at once (exact integers for rational schemes, certified balls otherwise), so the optimum and its
ties are exact. A difference no enclosure or exact method decides is reported as an undecided tie, never
guessed.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from verifier.engines.expected import ExpectedCosts
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import ClassSet, Scheme

SHOWN_CANDIDATES = 5  # expected costs listed: the optimum, its ties, and the next best sets


@dataclass
class Decision:
    """The decision for one precise distribution `p`: every set of least expected cost (exact ties), the sets
    no method could compare with the optimum, and the best candidates' exact expected costs."""

    p: list[Fraction]
    optimal: list[ClassSet]  # every set of least expected cost (exact ties)
    undecided: list[ClassSet]  # sets whose difference to the optimum no method decided
    expected: list[tuple[ClassSet, sp.Expr]]  # the best candidates, in order of expected cost

    @property
    def prediction(self) -> ClassSet:
        """The reported optimum: of tied optima, the smallest set, then the first in class order."""
        return min(self.optimal, key=lambda m: (len(m), sorted(m)))  # of tied optima, the smallest first


def expected_cost(scheme: Scheme, members: ClassSet, p: list[Fraction]) -> sp.Expr:
    """E_p[c_Y] = Σ_y p(y)·c_Y(y) for the set Y = `members`, an exact sympy expression."""
    return sp.Add(*[sp.Rational(x.numerator, x.denominator) * scheme.cost(members, y) for y, x in enumerate(p) if x])


def decide(scheme: Scheme, p: list[Fraction], costs: ExpectedCosts | None = None) -> Decision:
    """The optimal prediction for the exact distribution `p`, its ties decided exactly (or reported undecided,
    never guessed). `costs`: the scheme's expected-cost arrays, when already made."""
    costs = costs or ExpectedCosts(scheme)
    sets = costs.sets
    guess = sets[int(np.argmin(costs.floats @ np.array([float(x) for x in p])))]
    seen = set()
    while True:  # move to any set certainly cheaper (floats may have guessed wrong); at most a few steps
        seen.add(guess)
        signs = costs.signs(p, guess)
        cheaper = [z for z, s in zip(sets, signs) if s == -1]
        if not cheaper:
            break
        guess = next((z for z in cheaper if z not in seen), cheaper[0])
    optimal = [z for z, s in zip(sets, signs) if s == 0]
    undecided = [z for z, s in zip(sets, signs) if s is None]
    order = np.argsort(costs.floats @ np.array([float(x) for x in p]), kind="stable")
    shown = list(optimal)
    for j in order:
        if len(shown) >= max(SHOWN_CANDIDATES, len(optimal)):
            break
        if sets[j] not in shown:
            shown.append(sets[j])
    return Decision(list(p), optimal, undecided, [(m, expected_cost(scheme, m, p)) for m in shown])
