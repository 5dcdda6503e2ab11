"""Proof obligations: a property's definition unrolled over the scheme's sets and classes.

For a scheme with symbolic parameters, `violation(scheme, prop)` is a quantifier-free sympy formula over the
parameters (and existential auxiliary variables) that is satisfiable exactly when some admissible value breaks
the property; `satisfaction` is the same for "the property holds". Quantifiers become And/Or over the
finite domains; P1's "possible" becomes ∃p (a witness distribution) and its negation, by Ville's theorem,
∃λ (a dominated mixture), so no quantifier alternation remains (DESIGN.md §2).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sympy.core.basic import Basic

from verifier.engines.domains import domain
from verifier.formula import certified
from verifier.formula.enclose import Unsupported
from verifier.lazy_sympy import sympy as sp
from verifier.properties import Both, Compare, Implies, Possible, Property, Quantifier, QuantifierKind, Term
from verifier.scheme import Scheme
from verifier.verdict import Truth

_REL = {"<": sp.Lt, "<=": sp.Le, ">=": sp.Ge, "==": sp.Eq, "!=": sp.Ne}


@dataclass
class Obligation:
    """A property's definition unrolled over the scheme: a quantifier-free sympy formula for its violation or
    satisfaction, with the existential auxiliaries (P1's p or λ)."""

    property: Property
    polarity: str  # "violation" or "satisfaction"
    formula: sp.Basic
    aux: list[sp.Symbol] = field(default_factory=list)  # existential auxiliaries (p or λ of P1)


def violation(scheme: Scheme, prop: Property) -> Obligation:
    """The formula, satisfiable exactly when some admissible parameter value breaks the property."""
    return _Unroller(scheme, prop, holds=False).obligation()


def satisfaction(scheme: Scheme, prop: Property, possible_as=None) -> Obligation:
    """`possible_as(scheme, members) -> (formula, aux)` replaces the witness-variable encoding of "Y is
    possible" (e.g. `witnesses.possible_at_candidates`, linear when the rows are unknown)."""
    return _Unroller(scheme, prop, holds=True, possible_as=possible_as).obligation()


def possible(scheme: Scheme, members: frozenset[int]) -> tuple[sp.Basic, list[sp.Symbol]]:
    """∃p in the simplex: E_p[c_Y] < E_p[c_ŷ] for every ŷ in Y (Definition 4). Relations are left unevaluated:
    sympy's assumption system would spend seconds per set deciding what z3 decides anyway."""
    tag = ",".join(map(str, sorted(members)))  # class indices: labels can collide ("a b" vs "ab")
    p = [sp.Symbol(f"p[{tag}][{i}]", real=True) for i in range(scheme.K)]
    parts = [sp.Ge(x, 0, evaluate=False) for x in p] + [sp.Eq(sp.Add(*p), 1, evaluate=False)]
    for h in sorted(members):
        gaps = [(p[y], scheme.det(h, y) - scheme.cost(members, y)) for y in range(scheme.K)]
        gap = sp.Add(*[sp.Mul(q, d, evaluate=False) for q, d in gaps if d != 0], evaluate=False)
        parts.append(sp.Gt(gap, 0, evaluate=False))
    return conjunction(parts), p


def impossible(scheme: Scheme, members: frozenset[int]) -> tuple[sp.Basic, list[sp.Symbol]]:
    """∃λ in the simplex over Y: c_Y(y) >= Σ λ_ŷ c_ŷ(y) for every y (Ville's alternative)."""
    tag = ",".join(map(str, sorted(members)))
    order = sorted(members)
    lam = [sp.Symbol(f"lambda[{tag}][{h}]", real=True) for h in order]
    parts = [sp.Ge(x, 0, evaluate=False) for x in lam] + [sp.Eq(sp.Add(*lam), 1, evaluate=False)]
    for y in range(scheme.K):
        mixture = sp.Add(*[sp.Mul(k, scheme.det(h, y), evaluate=False) for k, h in zip(lam, order)
                           if scheme.det(h, y) != 0], evaluate=False)
        parts.append(sp.Ge(scheme.cost(members, y), mixture, evaluate=False))
    return conjunction(parts), lam


def conjunction(parts: list) -> sp.Basic:
    """And, with true parts dropped and a false one deciding, built as is: sympy's constructor filters,
    canonicalises and sorts every relation (tens of seconds for the thousands of a 64-class obligation), and
    z3 decides them anyway."""
    return _lattice(sp.And, [x for x in parts if x is not sp.true], sp.false, sp.true)


def disjunction(parts: list) -> sp.Basic:
    """Or, with false parts dropped and a true one deciding, built as is (see `conjunction`)."""
    return _lattice(sp.Or, [x for x in parts if x is not sp.false], sp.true, sp.false)


def _lattice(op, kept: list, absorbing, identity) -> sp.Basic:
    if any(x is absorbing for x in kept):
        return absorbing
    unique = list(dict.fromkeys(kept))
    if len(unique) <= 1:
        return unique[0] if unique else identity
    node = Basic.__new__(op, *unique)  # what And/Or's constructor makes, minus the filtering and the sort
    node._argset = frozenset(unique)
    return node


class _Unroller:
    def __init__(self, scheme: Scheme, prop: Property, holds: bool, possible_as=None):
        self.scheme, self.prop, self.holds = scheme, prop, holds
        self.possible_as = possible_as or possible
        self.aux: list[sp.Symbol] = []

    def obligation(self) -> Obligation:
        formula = self._unroll(self.prop.quantifiers, {})
        return Obligation(self.prop, "satisfaction" if self.holds else "violation", formula, self.aux)

    def _unroll(self, quants: tuple[Quantifier, ...], binding: dict) -> sp.Basic:
        if not quants:
            return self._atom(binding)
        q = quants[0]
        index = len(self.prop.quantifiers) - len(quants)
        parts = [self._unroll(quants[1:], {**binding, q.var: v})
                 for v in domain(self.scheme, self.prop, index, binding)]
        conjunctive = (q.kind == QuantifierKind.FORALL) == self.holds  # holds: ∀→And, ∃→Or; fails: ∀→Or, ∃→And
        return conjunction(parts) if conjunctive else disjunction(parts)

    def _atom(self, b: dict) -> sp.Basic:
        atom = self.prop.atom
        if isinstance(atom, Possible):
            formula, aux = (self.possible_as if self.holds else impossible)(self.scheme, b["Y"])
            self.aux += aux
            return formula
        if isinstance(atom, Compare):
            value = self._compare(atom, b)
        elif isinstance(atom, Implies):
            value = sp.Or(sp.Not(self._compare(atom.premise, b)), self._compare(atom.conclusion, b))
        elif isinstance(atom, Both):
            value = sp.And(self._compare(atom.first, b), self._compare(atom.second, b))
        else:
            raise TypeError(f"no obligation for atom {atom!r}")
        return value if self.holds else sp.Not(value)

    def _term(self, term: Term, b: dict):
        members, y = b["Y"], b[term.cls]
        column = self.scheme.members_costs(members, y)
        return {"cost": lambda: self.scheme.cost(members, y), "mean": lambda: self.scheme.mean(members, y),
                "min": lambda: sp.Min(*column), "max": lambda: sp.Max(*column),
                "sorted": lambda: column}[term.kind]()

    def _compare(self, atom: Compare, b: dict) -> sp.Basic:
        lhs, rhs = self._term(atom.lhs, b), self._term(atom.rhs, b)
        if atom.lhs.kind == "sorted":
            same = multiset_equal(lhs, rhs)
            return same if atom.op == "==" else sp.Not(same)
        if not (lhs.free_symbols or rhs.free_symbols):
            sign = certified.compare(lhs, rhs)
            if sign.value is None:  # never let sympy decide it numerically
                raise Unsupported(f"undecidable comparison of {lhs} and {rhs}: {sign.reason}")
            return sp.true if _holds(atom.op, sign.value) else sp.false
        return _REL[atom.op](lhs, rhs)  # symbolic: sympy only decides structurally (e.g. x < x + 1)


def _holds(op: str, sign: int) -> bool:
    return {"<": sign < 0, "<=": sign <= 0, ">=": sign >= 0, "==": sign == 0, "!=": sign != 0}[op]


def multiset_equal(first, second) -> sp.Basic:
    """C_Y(y) = C_Y(y′) as multisets, as a formula: cancel identical entries, then compare what is left."""
    a, b = list(first), list(second)
    for x in list(a):
        if x in b:
            a.remove(x)
            b.remove(x)
    if not a:
        return sp.true
    if not any(v.free_symbols for v in a + b):
        from verifier.engines.terms import same_multiset

        truth = same_multiset(a, b).value
        if truth == Truth.UNKNOWN:
            raise Unsupported("undecidable equality of two cost multisets")
        return sp.true if truth == Truth.TRUE else sp.false
    for uniform, other in ((a, b), (b, a)):
        if all(v == uniform[0] for v in uniform):  # one value repeated: every other entry must equal it
            return sp.And(*[sp.Eq(v, uniform[0]) for v in other])
    # equal power sums of orders 1..n characterise a multiset of n reals (Newton's identities)
    return sp.And(*[sp.Eq(sp.Add(*[v**k for v in a]), sp.Add(*[v**k for v in b])) for k in range(1, len(a) + 1)])
