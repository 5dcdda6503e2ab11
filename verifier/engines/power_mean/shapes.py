"""Which power-mean lemma can speak to a property, read from the property's own definition (its quantifier
prefix and atom in `properties.catalogue`), never from its id. A definition of a shape with no rule here is an
explicit skip: the property is then settled by the sets built, or it is unknown, saying so.

The shapes, for c_Y(y) = M_p of the members' costs:
  bounds        ∀Ŷ ∀y ∈ Ω: c_Y(y) >= min (or <= max)              the bounds lemma, for every p
  multiset      ∀Ŷ ∀y ∀y′: C_Y(y) = C_Y(y′) ⇒ c_Y(y) = c_Y(y′)     the multiset lemma, for every p
  vs-mean       ∀Ŷ, ∀ or ∃ y in a domain: c_Y(y) op c̄_Y(y)        the power-mean inequality (supported
                combinations of quantifier, domain and op only)
  equal-in-Y    ∀Ŷ ∀y, y′ ∈ Ŷ: c_Y(y) = c_Y(y′)                   the zero-mean lemma (p <= 0, zero diagonal)
  differs-in-Y  ∃Ŷ ∃y, y′ ∈ Ŷ: ... and c_Y(y) ≠ c_Y(y′)            the same lemma, refuting it
  possible      ∃Ŷ: Ŷ is possible                                 the power-mean inequality, refuting it (p >= 1)

Owns: `Shape`, `shape_of`. May import: `properties`.
"""

from __future__ import annotations

from dataclasses import dataclass

from verifier.properties import Both, Compare, Implies, Possible, Property, QuantifierKind, Term

COST, MEAN, MIN, MAX, SORTED = Term("cost"), Term("mean"), Term("min"), Term("max"), Term("sorted")
COST2, SORTED2 = Term("cost", "y2"), Term("sorted", "y2")

# (quantifier over y, its domain, op): the vs-mean combinations whose rule `PowerMeanLemmas` knows
VS_MEAN_RULES = {("forall", "not in Y", "<="), ("forall", "not in Y", ">="), ("forall", "in Y", "<"),
                 ("exists", "classes", "<")}


@dataclass(frozen=True)
class Shape:
    """The shape of a property's definition that a power-mean lemma speaks to (see the module docstring), with the
    details the vs-mean and differs-in-Y rules need."""

    kind: str  # "bounds", "multiset", "vs-mean", "equal-in-Y", "differs-in-Y", "possible"
    op: str = ""  # vs-mean: how c_Y(y) compares with the mean
    domain: str = ""  # vs-mean: where y ranges ("in Y", "not in Y", "classes")
    quantifier: str = ""  # vs-mean: "forall" or "exists" over y
    lists_differ: bool = False  # differs-in-Y: the two members' own cost lists must differ too

    @property
    def exact(self) -> bool:
        """The lemmas alone decide it at every exponent, through the sign of p - 1 and the K x K costs."""
        return self.kind in ("bounds", "multiset", "vs-mean")


def shape_of(prop: Property) -> Shape | None:
    """The lemma shape of a property's definition, or None where no lemma rule applies."""
    q, atom = prop.quantifiers, prop.atom
    if not q or q[0].var != "Y" or q[0].domain != "indeterminate":
        return None
    every_set, rest = q[0].kind == QuantifierKind.FORALL, q[1:]
    kinds = {x.kind for x in rest}
    domains = {x.domain for x in rest}
    if not rest:
        return Shape("possible") if not every_set and isinstance(atom, Possible) else None
    if every_set and len(rest) == 1 and isinstance(atom, Compare) and atom.lhs == COST:
        y = rest[0]
        if y.kind == QuantifierKind.FORALL and y.domain == "classes" \
                and (atom.op, atom.rhs) in ((">=", MIN), ("<=", MAX)):
            return Shape("bounds")
        if atom.rhs == MEAN and (y.kind, y.domain, atom.op) in VS_MEAN_RULES:
            return Shape("vs-mean", atom.op, y.domain, y.kind)
        return None
    if len(rest) != 2:
        return None
    if (every_set and kinds == {QuantifierKind.FORALL} and domains == {"classes"} and isinstance(atom, Implies)
            and atom.premise == Compare("==", SORTED, SORTED2) and atom.conclusion == Compare("==", COST, COST2)):
        return Shape("multiset")
    if every_set and kinds == {QuantifierKind.FORALL} and domains == {"in Y"} and atom == Compare("==", COST, COST2):
        return Shape("equal-in-Y")
    if not every_set and kinds == {QuantifierKind.EXISTS} and domains == {"in Y"}:
        parts = (atom.first, atom.second) if isinstance(atom, Both) else (atom,)
        if Compare("!=", COST, COST2) in parts and all(
                c in (Compare("!=", COST, COST2), Compare("!=", SORTED, SORTED2)) for c in parts):
            return Shape("differs-in-Y", lists_differ=Compare("!=", SORTED, SORTED2) in parts)
    return None
