"""The ten properties of Yang, Destercke and Masson (2017), written once, as data (DESIGN.md §2).

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

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    kind: str  # "cost" | "mean" | "min" | "max" | "sorted"
    cls: str = "y"  # which class variable: "y" or "y2"

    def describe(self) -> str:
        v = "y′" if self.cls == "y2" else "y"
        return {"cost": f"c_Y({v})", "mean": f"c̄_Y({v})", "min": f"min_ŷ∈Y c_ŷ({v})",
                "max": f"max_ŷ∈Y c_ŷ({v})", "sorted": f"C_Y({v})"}[self.kind]


@dataclass(frozen=True)
class Compare:
    op: str  # "<", "<=", ">=", "==", "!=" ; on "sorted" terms only "==" and "!=" (multiset equality)
    lhs: Term
    rhs: Term

    def describe(self) -> str:
        sym = {"<": "<", "<=": "≤", ">=": "≥", "==": "=", "!=": "≠"}[self.op]
        return f"{self.lhs.describe()} {sym} {self.rhs.describe()}"


@dataclass(frozen=True)
class Implies:
    premise: Compare
    conclusion: Compare

    def describe(self) -> str:
        return f"{self.premise.describe()} ⇒ {self.conclusion.describe()}"


@dataclass(frozen=True)
class Both:
    first: Compare
    second: Compare

    def describe(self) -> str:
        return f"{self.first.describe()} and {self.second.describe()}"


@dataclass(frozen=True)
class Possible:
    def describe(self) -> str:
        return "∃p: E_p[c_Y] < min_ŷ∈Y E_p[c_ŷ]"


Atom = Compare | Implies | Both | Possible


@dataclass(frozen=True)
class Quantifier:
    kind: str  # "forall" | "exists"
    var: str  # "Y" | "y" | "y2"
    domain: str  # for Y: "indeterminate"; for y, y2: "classes" | "in Y" | "not in Y"

    def describe(self) -> str:
        v = {"Y": "Ŷ", "y": "y", "y2": "y′"}[self.var]
        where = {"indeterminate": "indeterminate Ŷ", "classes": "Ω", "in Y": "Ŷ", "not in Y": "Ω∖Ŷ"}[self.domain]
        distinct = " (y′ ≠ y)" if self.var == "y2" else ""
        q = "∀" if self.kind == "forall" else "∃"
        return f"{q} {v} ∈ {where}{distinct}" if self.var != "Y" else f"{q} {where}"


@dataclass(frozen=True)
class Property:
    id: str
    name: str
    quantifiers: tuple[Quantifier, ...]
    atom: Atom
    plain: str  # one sentence for people

    @property
    def number(self) -> int:
        return int(self.id[1:])

    def statement(self) -> str:
        return ", ".join(q.describe() for q in self.quantifiers) + ": " + self.atom.describe()


def _all(var, domain):
    return Quantifier("forall", var, domain)


def _some(var, domain):
    return Quantifier("exists", var, domain)


COST, MEAN, MIN, MAX, SORTED = Term("cost"), Term("mean"), Term("min"), Term("max"), Term("sorted")
COST2, SORTED2 = Term("cost", "y2"), Term("sorted", "y2")
EVERY_Y = _all("Y", "indeterminate")

PROPERTIES: tuple[Property, ...] = (
    Property("P1", "possibility", (_some("Y", "indeterminate"),), Possible(),
             "some indeterminate prediction is optimal for some probability distribution"),
    Property("P2", "indeterminacy permissiveness", (EVERY_Y, _some("y", "classes")), Compare("<", COST, MEAN),
             "no indeterminate row is element-wise >= the mean of its members' rows"),
    Property("P3", "reward rightful cautiousness", (EVERY_Y, _all("y", "in Y")), Compare("<", COST, MEAN),
             "a set containing the truth costs strictly less than the mean of its members' costs"),
    Property("P4", "non-dominance", (EVERY_Y, _all("y", "classes")), Compare(">=", COST, MIN),
             "a set never costs less than its cheapest member"),
    Property("P5", "permutation invariance", (EVERY_Y, _all("y", "classes"), _all("y2", "classes")),
             Implies(Compare("==", SORTED, SORTED2), Compare("==", COST, COST2)),
             "true classes with the same multiset of member costs get the same set cost"),
    Property("P6", "mistake aversion", (EVERY_Y, _all("y", "not in Y")), Compare(">=", COST, MEAN),
             "a wrong set costs at least the mean of its members' costs"),
    Property("P7", "cautiousness seeking", (EVERY_Y, _all("y", "not in Y")), Compare("<=", COST, MEAN),
             "a wrong set costs at most the mean of its members' costs"),
    Property("P8", "correctness cost-insensitivity", (EVERY_Y, _all("y", "in Y"), _all("y2", "in Y")),
             Compare("==", COST, COST2),
             "a set costs the same whichever of its members is the truth"),
    Property("P9", "correctness cost-sensitivity",
             (_some("Y", "indeterminate"), _some("y", "in Y"), _some("y2", "in Y")),
             Both(Compare("!=", SORTED, SORTED2), Compare("!=", COST, COST2)),
             "some set's cost depends on which of its members is the truth"),
    Property("P10", "upper boundedness", (EVERY_Y, _all("y", "classes")), Compare("<=", COST, MAX),
             "a set never costs more than its most expensive member"),
)

BY_ID = {p.id: p for p in PROPERTIES}


def _norm(text: str) -> str:
    return re.sub(r"[\s_\-]+", " ", text.strip().lower())


_ALIASES = {_norm(p.id): p.id for p in PROPERTIES} | {_norm(p.name): p.id for p in PROPERTIES}
_ALIASES |= {f"property {p.number}": p.id for p in PROPERTIES} | {str(p.number): p.id for p in PROPERTIES}


def resolve(name: str) -> str | None:
    """Map 'P3', 'p3', '3', 'reward rightful cautiousness' or 'reward_rightful_cautiousness' to 'P3'."""
    return _ALIASES.get(_norm(str(name)))
