"""Optimal predictions of a two-class scheme as a function of q = p(second class), exactly (the paper's Fig. 2).

Each row's expected cost is a line in q; the lower envelope of the lines gives the decision regions. The
breakpoints are exact (rational for rational costs), and every comparison is certified.
"""

from __future__ import annotations

from dataclasses import dataclass

from verifier.formula import certified
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import Scheme


@dataclass
class Region:
    """An open interval (low, high) of q with the rows of least expected cost throughout it."""

    low: sp.Expr
    high: sp.Expr
    optimal: list[frozenset[int]]  # the rows of minimal expected cost inside (low, high)


@dataclass
class BinaryDecision:
    """The decision regions of a two-class scheme along q = p(second class), in order."""

    variable: str  # e.g. "p(n)"
    regions: list[Region]

    def boundaries(self) -> list[sp.Expr]:
        """The breakpoints between consecutive regions."""
        return [r.high for r in self.regions[:-1]]


def expected_cost(scheme: Scheme, members: frozenset[int], q: sp.Expr) -> sp.Expr:
    """E_q[c_Y] = (1 - q) c_Y(first class) + q c_Y(second class), exactly."""
    return (1 - q) * scheme.cost(members, 0) + q * scheme.cost(members, 1)


def binary_decision(scheme: Scheme) -> BinaryDecision | None:
    """The exact decision regions of a two-class scheme (the paper's Fig. 2), merged where the optimal rows are the
    same; None for any other class count."""
    if scheme.K != 2:
        return None
    rows = scheme.all_sets
    points = {sp.Integer(0), sp.Integer(1)}
    for i, a in enumerate(rows):
        for b in rows[i + 1:]:
            da = scheme.cost(a, 0) - scheme.cost(b, 0)  # difference of the lines at q = 0
            slope = da - (scheme.cost(a, 1) - scheme.cost(b, 1))
            if certified.sign(slope).value in (None, 0):
                continue
            q = sp.nsimplify(da / slope) if (da / slope).is_Rational else da / slope
            if certified.sign(q).value == 1 and certified.compare(q, sp.Integer(1)).value == -1:
                points.add(q)
    ordered = _sort(list(points))
    regions: list[Region] = []
    for low, high in zip(ordered, ordered[1:]):
        middle = (low + high) / 2
        costs = {m: expected_cost(scheme, m, middle) for m in rows}
        best = [m for m in rows if all(certified.compare(costs[m], costs[o]).value in (0, -1) for o in rows)]
        if regions and regions[-1].optimal == best:
            regions[-1].high = high
        else:
            regions.append(Region(low, high, best))
    return BinaryDecision(f"p({scheme.classes[1]})", regions)


def _sort(values: list[sp.Expr]) -> list[sp.Expr]:
    from functools import cmp_to_key

    def cmp(a, b):
        value = certified.compare(a, b).value
        if value is None:
            raise ValueError(f"cannot order {a} and {b}")
        return value

    return sorted(values, key=cmp_to_key(cmp))
