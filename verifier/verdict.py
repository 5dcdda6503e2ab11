"""Verdicts and the evidence they carry.

Owns: the result types every engine returns and every report reads. May import: `properties` only.

Truth values are Kleene's three: a universal statement fails as soon as one instance certainly fails, is
unknown when some instance could not be decided, and holds only when every instance certainly holds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from verifier.lazy_sympy import sympy as sp
from verifier.plain_enum import PlainStrEnum
from verifier.properties import Property


class Truth(PlainStrEnum):
    """Kleene's three truth values of one instance (a `str`: the JSON writes the value)."""

    TRUE = "true"
    FALSE = "false"
    UNKNOWN = "unknown"

    @staticmethod
    def of(flag: bool) -> "Truth":
        """TRUE or FALSE for a decided instance."""
        return Truth.TRUE if flag else Truth.FALSE

    def __and__(self, other: "Truth") -> "Truth":
        if Truth.FALSE in (self, other):
            return Truth.FALSE
        return Truth.UNKNOWN if Truth.UNKNOWN in (self, other) else Truth.TRUE

    def __invert__(self) -> "Truth":
        return {Truth.TRUE: Truth.FALSE, Truth.FALSE: Truth.TRUE, Truth.UNKNOWN: Truth.UNKNOWN}[self]


class Verdict(PlainStrEnum):
    """What a property's check concludes (a `str`: the JSON and the reports write the value)."""

    HOLDS = "holds"
    FAILS = "fails"
    UNKNOWN = "unknown"

    @staticmethod
    def of(truth: Truth) -> "Verdict":
        """The verdict a statement's truth value gives: holds, fails or unknown."""
        return {Truth.TRUE: Verdict.HOLDS, Truth.FALSE: Verdict.FAILS, Truth.UNKNOWN: Verdict.UNKNOWN}[truth]


class Optimal(PlainStrEnum):
    """`SetOptimality.status`: whether a set minimises E_p[c_Y] over all sets for some p (DESIGN.md section 6)."""

    ALONE = "alone"  # the unique minimiser at some p (its decision region has interior)
    TIED = "tied"  # a minimiser at some p, but only together with another set
    NEVER = "never"  # a minimiser at no p (certificate)
    UNKNOWN = "unknown"  # not decided


class EvidenceKind(PlainStrEnum):
    """`Evidence.kind`: what a verdict rests on."""

    COUNTEREXAMPLE = "counterexample"  # one instance that breaks the statement
    WITNESS = "witness"  # one instance that makes an existential statement true
    EXHAUSTIVE = "exhaustive"  # every instance decided
    CERTIFICATES = "certificates"  # one certificate per set (P1: Ville's λ)
    PROOF = "proof"  # a symbolic proof (z3, intervals) over every admissible value
    LEMMA = "lemma"  # a named lemma from premises the checker re-derives
    NONE = "none"  # nothing to show (unknown)


@dataclass
class Side:
    """One evaluated term of a comparison: what it is ("c_Y(y)") and its exact value."""

    label: str
    value: sp.Expr | tuple[sp.Expr, ...]


@dataclass
class Comparison:
    """One evaluated atom at one binding (Y, y, y2). Names are made only when shown (most are discarded)."""

    truth: Truth
    values: tuple
    describe: Callable[[], tuple[str, str, str]]  # -> (atom text, left label, right label)
    reason: str = ""  # why it is unknown, when it is

    @property
    def text(self) -> str:
        """The atom as read, e.g. "c_{a, b}(a) < mean_{a, b}(a)"."""
        return self.describe()[0]

    @property
    def sides(self) -> list[Side]:
        """The two evaluated terms, each named and with its exact value."""
        _, left, right = self.describe()
        return [Side(left, self.values[0]), Side(right, self.values[1])]


@dataclass
class Binding:
    """The instance a comparison speaks of: the indeterminate set Y and the classes y and y′ bound to it."""

    members: frozenset[int]
    y: int | None = None
    y2: int | None = None


@dataclass
class SetPossibility:
    """Definition 4 for one indeterminate set, with its certificate (both exact rationals)."""

    members: frozenset[int]
    status: Truth  # TRUE possible, FALSE impossible, UNKNOWN undecided
    witness: tuple[sp.Rational, ...] | None = None  # p over all classes: E_p[c_Y] < min E_p[c_ŷ]
    certificate: dict[int, sp.Rational] | None = None  # λ over Y: c_Y >= Σ λ_ŷ c_ŷ element-wise
    margin: sp.Expr | None = None  # min_ŷ E_p[c_ŷ] − E_p[c_Y] at the witness
    method: str = ""
    reason: str = ""


@dataclass
class SetOptimality:
    """Whether a set (singletons included) minimises the expected cost E_p[c_Y] over all non-empty sets for
    some p. Unlike Definition 4, this compares the set with every other set, not only with its own members."""

    members: frozenset[int]
    status: Optimal
    witness: tuple[sp.Rational, ...] | None = None  # alone: Y is the unique minimiser at p; tied: a minimiser
    tied_with: tuple[frozenset[int], ...] = ()  # tied: the other minimisers at the witness
    certificate: dict[frozenset[int], sp.Rational] | None = None  # λ over other sets: Σ λ_Z c_Z ≤ c_Y
    # in every column (tied: so never the unique minimiser), or < in every column (never: never a minimiser)
    margin: sp.Expr | None = None  # alone: the gap to the next best set at the witness
    margin_is_bound: bool = False  # the margin is a certified rational lower bound of the gap, not the gap
    reason: str = ""
    at: dict | None = None  # one symbolic parameter: the value where the witness (or tie) was found
    where: list | None = None  # one symbolic parameter: (low, high, status) over the admissible range
    # two or more parameters, where the status changes: (status, condition text, parameter point or None, the
    # SetOptimality found there, re-checked, the condition as a sympy formula), one per status some value has
    conditions: tuple | None = None

    def __post_init__(self) -> None:
        self.status = Optimal(self.status)  # engines may name it by its value


@dataclass(frozen=True)
class LemmaProof:
    """A verdict proved by a named lemma from premises about the exponent and the K x K determinate costs,
    never by listing sets; the checker re-derives each premise from the scheme."""

    name: str  # e.g. "power mean"
    statement: str  # the lemma, in words
    premises: tuple[str, ...]  # e.g. ("p<1", "no-cost-equal-to-diagonal"), see `check.lemma`
    exponent: sp.Expr
    cases: tuple = ()  # symbolic exponent: (case of p, the proof at an admissible value there, that Scheme)
    excluded: tuple[str, ...] = ()  # the cases of p no admissible value falls in


@dataclass
class Evidence:
    """What a verdict rests on: its kind, the instance and comparisons that show it (a counterexample or witness),
    Definition 4's certificates, how many instances were decided, or the lemma that proves it."""

    kind: EvidenceKind
    binding: Binding | None = None
    comparisons: list[Comparison] = field(default_factory=list)
    possibility: list[SetPossibility] = field(default_factory=list)
    instances: int = 0  # how many instances the verdict rests on
    parameters: dict[str, sp.Expr] | None = None  # symbolic schemes: the admissible values of a counterexample
    concrete: object = None  # the numeric Scheme at those values (the counterexample lives there)
    lemma: LemmaProof | None = None  # kind "lemma": what proves it

    def __post_init__(self) -> None:
        self.kind = EvidenceKind(self.kind)  # engines may name it by its value


@dataclass
class PropertyResult:
    """One property's verdict on a scheme, with its evidence, the reason in plain words, and whether the
    independent checker confirmed it; for symbolic schemes, where it holds."""

    property: Property
    verdict: Verdict
    evidence: Evidence
    reason: str = ""  # plain words: why it holds, fails, or is unknown
    tight: bool = False  # P6/P7: holds, but only with equality everywhere
    checked: bool = False  # the independent checker confirmed the evidence
    check_note: str = ""
    region: str | None = None  # symbolic schemes: where the property holds, as a readable condition
    holds_at: dict | None = None  # symbolic schemes: an admissible value where a failing property holds
    holds_nowhere: bool = False  # symbolic schemes: proved to hold for no admissible value (z3 unsat)
    region_formula: object = None  # the same region as a sympy formula (for tests and tools)
    unsupported: bool = False  # the SMT encoding could not express it (the interval engine may)
