"""The vocabulary the ten properties are written in: terms, comparisons, quantifiers, and `Property`.

Each property is a quantifier prefix over (Y, y, y2) followed by an atom built from a few terms:
  cost(Y, y)    c_Y(y), the extended matrix entry
  mean(Y, y)    c̄_Y(y), the mean of the determinate costs c_ŷ(y) over ŷ in Y
  min / max     min / max of c_ŷ(y) over ŷ in Y
  sorted(Y, y)  C_Y(y), the sorted vector (c_ŷ(y))_{ŷ in Y}
  possible(Y)   ∃ p in the simplex: E_p[c_Y] < min_{ŷ in Y} E_p[c_ŷ]   (Definition 4)
Engines (enumeration, LP, and later SMT or intervals) interpret these definitions; none keeps its own copy.
Y always ranges over indeterminate sets (|Y| >= 2).
"""

from __future__ import annotations

from dataclasses import dataclass

from verifier.plain_enum import PlainStrEnum


@dataclass(frozen=True)
class Term:
    """One term of an atom at the class variable v (y or y′): c_Y(v), the mean, min or max of the member costs c_ŷ(v)
    over ŷ in Y, or their sorted vector C_Y(v)."""

    kind: str  # "cost" | "mean" | "min" | "max" | "sorted"
    cls: str = "y"  # which class variable: "y" or "y2"

    def describe(self) -> str:
        """The term in the paper's notation."""
        v = "y′" if self.cls == "y2" else "y"
        return {"cost": f"c_Y({v})", "mean": f"c̄_Y({v})", "min": f"min_ŷ∈Y c_ŷ({v})",
                "max": f"max_ŷ∈Y c_ŷ({v})", "sorted": f"C_Y({v})"}[self.kind]


@dataclass(frozen=True)
class Compare:
    """The atom `lhs op rhs` between two terms (on sorted vectors, multiset equality or inequality only)."""

    op: str  # "<", "<=", ">=", "==", "!=" ; on "sorted" terms only "==" and "!=" (multiset equality)
    lhs: Term
    rhs: Term

    def describe(self) -> str:
        """The comparison in the paper's notation."""
        sym = {"<": "<", "<=": "≤", ">=": "≥", "==": "=", "!=": "≠"}[self.op]
        return f"{self.lhs.describe()} {sym} {self.rhs.describe()}"


@dataclass(frozen=True)
class Implies:
    """The atom premise ⇒ conclusion."""

    premise: Compare
    conclusion: Compare

    def describe(self) -> str:
        """The implication in the paper's notation."""
        return f"{self.premise.describe()} ⇒ {self.conclusion.describe()}"


@dataclass(frozen=True)
class Both:
    """The atom: both comparisons hold."""

    first: Compare
    second: Compare

    def describe(self) -> str:
        """The conjunction in the paper's notation."""
        return f"{self.first.describe()} and {self.second.describe()}"


@dataclass(frozen=True)
class Possible:
    """The atom 'Y is possible' (Definition 4): under some probability p, Y costs strictly less in expectation than each
    of its members."""

    def describe(self) -> str:
        """Definition 4 in the paper's notation."""
        return "∃p: E_p[c_Y] < min_ŷ∈Y E_p[c_ŷ]"


Atom = Compare | Implies | Both | Possible


class QuantifierKind(PlainStrEnum):
    """`Quantifier.kind`: for every, or for some."""

    FORALL = "forall"
    EXISTS = "exists"


@dataclass(frozen=True)
class Quantifier:
    """One quantifier of a property's prefix: for every or there exists, over Y (the indeterminate sets) or a class
    variable y, y′ (all classes, those in Y, or those outside Y)."""

    kind: QuantifierKind
    var: str  # "Y" | "y" | "y2"
    domain: str  # for Y: "indeterminate"; for y, y2: "classes" | "in Y" | "not in Y"

    def describe(self) -> str:
        """The quantifier in the paper's notation (y′ ranges over the classes other than y)."""
        v = {"Y": "Ŷ", "y": "y", "y2": "y′"}[self.var]
        where = {"indeterminate": "indeterminate Ŷ", "classes": "Ω", "in Y": "Ŷ", "not in Y": "Ω∖Ŷ"}[self.domain]
        distinct = " (y′ ≠ y)" if self.var == "y2" else ""
        q = "∀" if self.kind == QuantifierKind.FORALL else "∃"
        return f"{q} {v} ∈ {where}{distinct}" if self.var != "Y" else f"{q} {where}"


@dataclass(frozen=True)
class Property:
    """One of the ten properties: its quantifier prefix over (Y, y, y′), its atom, a plain sentence for people, and what
    is then true of every set when a 'for every' property holds or an 'exists' property fails."""

    id: str
    name: str
    quantifiers: tuple[Quantifier, ...]
    atom: Atom
    plain: str  # one sentence for people
    everywhere: str = ""  # what is true when a "for every" property holds, or an "exists" property fails

    @property
    def number(self) -> int:
        """The property's number (1 for P1)."""
        return int(self.id[1:])

    def statement(self) -> str:
        """The formal statement: the quantifier prefix, then the atom."""
        return ", ".join(q.describe() for q in self.quantifiers) + ": " + self.atom.describe()
