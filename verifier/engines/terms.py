"""Values of the property terms (c_Y(y), c̄_Y(y), min, max, C_Y(y)) on a scheme, decided exactly.

Shared by the enumeration engine; cached, since every property reads the same few thousand cells.
"""

from __future__ import annotations

from verifier.formula import certified
from verifier.lazy_sympy import sympy as sp
from verifier.properties import Compare, Term
from verifier.scheme import Scheme
from verifier.verdict import Binding, Comparison, Truth

_SYMBOL = {"<": "<", "<=": "≤", ">=": "≥", "==": "=", "!=": "≠"}


class TermValues:
    """The property terms of a scheme at one set and class, exact and cached, and the comparisons that atoms make of
    them."""

    def __init__(self, scheme: Scheme):
        self.scheme = scheme
        self._mean: dict[tuple[frozenset, int], sp.Expr] = {}
        self._multiset: dict[tuple[frozenset, int], tuple] = {}

    def value(self, term: Term, members: frozenset[int], y: int):
        """The term's exact value at (members, y): a number, None for a min or max that could not be decided, or the
        members' costs for `sorted`."""
        s = self.scheme
        if term.kind == "cost":
            return s.cost(members, y)
        if term.kind == "mean":
            key = (members, y)
            if key not in self._mean:
                self._mean[key] = s.mean(members, y)
            return self._mean[key]
        if term.kind in ("min", "max"):
            return _extreme(s.members_costs(members, y), -1 if term.kind == "min" else 1)
        if term.kind == "sorted":
            return s.members_costs(members, y)
        raise ValueError(term.kind)

    def multiset_key(self, members: frozenset[int], y: int):
        """An exact canonical key when every member cost is rational (fast path for C_Y(y) = C_Y(y′))."""
        key = (members, y)
        if key not in self._multiset:
            costs = self.scheme.members_costs(members, y)
            self._multiset[key] = tuple(sorted(costs)) if all(c.is_Rational for c in costs) else None
        return self._multiset[key]

    def compare(self, atom: Compare, binding: Binding) -> Comparison:
        """Decide an atom's comparison at a binding, exactly: true, false, or unknown with the reason, with both
        sides."""
        s = self.scheme
        y_of = {"y": binding.y, "y2": binding.y2}
        lhs_class, rhs_class = y_of[atom.lhs.cls], y_of[atom.rhs.cls]
        if atom.lhs.kind == "sorted":  # multiset premises first: most are decided by an exact key
            same = self._same_multiset(binding.members, lhs_class, rhs_class)
            truth = same if atom.op == "==" else ~same
            lhs, rhs = s.members_costs(binding.members, lhs_class), s.members_costs(binding.members, rhs_class)
            reason = "" if truth is not Truth.UNKNOWN else "could not decide equality of the cost multisets"
            return Comparison(truth, (lhs, rhs), self._describer(atom, binding), reason)
        lhs = self.value(atom.lhs, binding.members, lhs_class)
        rhs = self.value(atom.rhs, binding.members, rhs_class)
        values = (lhs, rhs)

        describe = self._describer(atom, binding)
        if lhs is None or rhs is None:
            return Comparison(Truth.UNKNOWN, values, describe, "could not decide the min/max of the member costs")
        sign = certified.compare(lhs, rhs)
        if sign.value is None:
            return Comparison(Truth.UNKNOWN, values, describe, sign.reason)
        truth = {"<": sign.value < 0, "<=": sign.value <= 0, ">=": sign.value >= 0, "==": sign.value == 0,
                 "!=": sign.value != 0}[atom.op]
        return Comparison(Truth.of(truth), values, describe)

    def _describer(self, atom: Compare, binding: Binding):
        s = self.scheme

        def describe() -> tuple[str, str, str]:
            left, right = _label(atom.lhs, s, binding), _label(atom.rhs, s, binding)
            return f"{left} {_SYMBOL[atom.op]} {right}", left, right

        return describe

    def _same_multiset(self, members, y, y2) -> Truth:
        a, b = self.multiset_key(members, y), self.multiset_key(members, y2)
        if a is not None and b is not None:
            return Truth.of(a == b)
        return same_multiset(self.scheme.members_costs(members, y), self.scheme.members_costs(members, y2))


def same_multiset(first, second) -> Truth:
    """Certified multiset equality by matching equal elements (at most K x K exact comparisons)."""
    remaining = list(second)
    undecided = False
    for x in first:
        for i, z in enumerate(remaining):
            sign = certified.compare(x, z)
            if sign.value == 0:
                del remaining[i]
                break
            if sign.value is None:
                undecided = True
        else:
            return Truth.UNKNOWN if undecided else Truth.FALSE
    return Truth.TRUE


def _extreme(values, want: int):
    best = values[0]
    for v in values[1:]:
        sign = certified.compare(v, best)
        if sign.value is None:
            return None
        if sign.value == want:
            best = v
    return best


def _label(term: Term, scheme: Scheme, binding: Binding) -> str:
    y = binding.y if term.cls == "y" else binding.y2
    return term_label(term.kind, scheme.label(binding.members), scheme.classes[y])


def term_label(kind: str, set_label: str, cls: str) -> str:
    """How a term is written at one set and class: c_{1, 2}(3), mean_{1, 2}(3), C_{1, 2}(3), ..."""
    return {"cost": f"c_{set_label}({cls})", "mean": f"mean_{set_label}({cls})", "min": f"min_{set_label}({cls})",
            "max": f"max_{set_label}({cls})", "sorted": f"C_{set_label}({cls})"}[kind]
