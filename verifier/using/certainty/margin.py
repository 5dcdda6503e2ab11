"""The certainty margin of a two-class scheme: where `decide` predicts the indeterminate set {a, b}.

With two classes, p_b = 1 − p_a, so every set's expected cost is linear in the signed margin d = p_a − p_b
(d ∈ [−1, 1], p_a = (1 + d)/2): E_Y(d) = (c_Y(a) + c_Y(b))/2 + d·(c_Y(a) − c_Y(b))/2. `decide` predicts
{a, b} exactly where its expected cost is strictly below both singletons' (of tied optima the smaller set is
reported), which is an open interval lo < d < hi, each end exact (a rational from the costs), or empty. When
lo = −hi (a scheme that treats both classes alike), this reads: {a, b} iff the minimum certainty |p_a − p_b|
is below m = hi, i.e. iff the maximum doubt exceeds 1/m.

Owns: `Margin`, `two_class_margin`. May import: `scheme`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from verifier.scheme import Scheme


@dataclass
class Margin:
    """{a, b} is predicted iff lo < p_a − p_b < hi (`empty`: never). `symmetric`: lo = −hi, so iff the minimum
    certainty is below `hi`."""
    classes: tuple[str, str]
    lo: Fraction
    hi: Fraction
    empty: bool
    reason: str = ""

    @property
    def symmetric(self) -> bool:
        """Whether {a, b} is ever predicted and lo = −hi: then iff the minimum certainty is below `hi`."""
        return not self.empty and self.lo == -self.hi

    def text(self) -> str:
        """The margin as one sentence, its ends exact."""
        a, b = self.classes
        if self.empty:
            return f"Certainty margin: {{{a}, {b}}} is never predicted ({self.reason})"
        if self.symmetric:
            return (f"Certainty margin: {{{a}, {b}}} is predicted iff the minimum certainty |p_{a} − p_{b}| < "
                    f"{self.hi} (the maximum doubt > {1 / self.hi}), exactly; a singleton otherwise")
        return (f"Certainty margin: {{{a}, {b}}} is predicted iff {self.lo} < p_{a} − p_{b} < {self.hi}, exactly "
                "(not symmetric: the classes' costs differ); a singleton otherwise")

    def to_json(self) -> dict:
        """The margin as JSON: its ends as exact fraction strings, whether it is symmetric, and `text`."""
        return {"classes": list(self.classes), "empty": self.empty, "lo": str(self.lo), "hi": str(self.hi),
                "symmetric": self.symmetric, "minimum_certainty_below": str(self.hi) if self.symmetric else None,
                "text": self.text()}


def _rational(v) -> Fraction | None:
    if not getattr(v, "is_Rational", False):
        return None
    return Fraction(int(v.p), int(v.q))


def two_class_margin(scheme: Scheme) -> Margin | None:
    """The exact interval of p_a − p_b where a two-class scheme predicts {a, b}; None for K ≠ 2 or a cost that
    is not a rational number (no exact interval then)."""
    if scheme.K != 2:
        return None
    a, b, both = frozenset({0}), frozenset({1}), frozenset({0, 1})
    line = {}  # each set's expected cost as (value at d = 0, slope in d)
    for members in (a, b, both):
        ca, cb = _rational(scheme.cost(members, 0)), _rational(scheme.cost(members, 1))
        if ca is None or cb is None:
            return None
        line[members] = ((ca + cb) / 2, (ca - cb) / 2)
    names = (scheme.classes[0], scheme.classes[1])
    if scheme.family_restricted and both not in scheme.all_sets:
        return Margin(names, Fraction(0), Fraction(0), True, "the spec's family does not allow it")
    lo, hi = Fraction(-1), Fraction(1)
    for single in (a, b):  # E_both(d) < E_single(d)  <=>  (s_both − s_single)·d < v_single − v_both
        slope = line[both][1] - line[single][1]
        gap = line[single][0] - line[both][0]
        if slope == 0:
            if gap <= 0:
                return Margin(names, Fraction(0), Fraction(0), True, "its expected cost is never below "
                              f"{{{scheme.classes[min(single)]}}}'s")
            continue
        bound = gap / slope
        if slope > 0:
            hi = min(hi, bound)
        else:
            lo = max(lo, bound)
    if lo >= hi:
        return Margin(names, lo, hi, True, "its expected cost is never below both singletons' at once")
    return Margin(names, lo, hi, False)
