"""Proofs without enumeration for power-mean set costs, c_Y(y) = M_p(c_ŷ(y) : ŷ ∈ Y) (the paper's Eq. 12-14).

For non-negative x_1..x_n (n >= 2) the power mean M_p (M_0 the geometric mean, M_1 the arithmetic mean) obeys:
  (bounds)      min x <= M_p(x) <= max x, for every p;
  (multiset)    M_p(x) depends only on the multiset of the x;
  (power mean)  M_p(x) < M_1(x) when p < 1 and M_p(x) > M_1(x) when p > 1, unless all x are equal, in which
                case every mean is that value (with a zero among the x, M_0 = 0 < M_1 unless all are 0).
So each property becomes a condition on the exponent and on the K x K determinate costs, which is checked
exactly here in K^2 comparisons, never over 2^K sets. Where a set breaks a property, the set is named
(`failing_sets`): the caller builds its row and the ordinary engines find the counterexample, exactly.
Where the lemmas decide nothing (P8 and P9 for p > 0, P1 for p < 1), only a search over small sets can.

Owns: `PowerMeanLemmas`, `Premises`. May import: `scheme`, `verdict`, `formula.certified`, `properties`.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from verifier.engines.power_mean.shapes import shape_of
from verifier.errors import Unsettled
from verifier.formula import certified
from verifier.lazy_sympy import sympy as sp
from verifier.properties import BY_ID
from verifier.verdict import LemmaProof


class NotDecided(Unsettled):
    """An exact comparison the lemmas need could not be settled; the message says which."""


def same(a: sp.Expr, b: sp.Expr) -> bool:
    """Whether a = b, decided exactly; NotDecided when it cannot be."""
    value = certified.compare(a, b).value
    if value is None:
        raise NotDecided(f"whether {a} equals {b} could not be decided exactly")
    return value == 0


@dataclass(frozen=True)
class Premises:
    """The exact facts about p and the K x K determinate costs c[ŷ][y] that the lemmas rest on; each names its
    witness pair when it is false."""

    p_vs_1: int  # sign of p - 1
    p_sign: int  # sign of p
    zero_diagonal: bool  # c_y(y) = 0 for every y
    equal_to_diagonal: tuple[int, int] | None  # (y, ŷ ≠ y) with c_ŷ(y) = c_y(y)
    unequal_off_diagonal: tuple[int, int, int] | None  # (y, ŷ1, ŷ2), both ≠ y, with c_ŷ1(y) ≠ c_ŷ2(y)
    identical_rows: tuple[int, int] | None  # ŷ1 ≠ ŷ2 with c_ŷ1(y) = c_ŷ2(y) for every y
    positive_pair: tuple[int, int] | None = None  # a ≠ b with c_b(a) > 0 and c_a(b) > 0

    @staticmethod
    def of(p: sp.Expr, det: list[list[sp.Expr]]) -> "Premises":
        """The premises for the exponent p and the K x K determinate costs det[ŷ][y], each compared exactly (NotDecided
        when some comparison cannot be settled)."""
        K = len(det)
        p_vs_1, p_sign = certified.compare(p, sp.Integer(1)).value, certified.sign(p).value
        if p_vs_1 is None or p_sign is None:
            raise NotDecided(f"the exponent {p} could not be compared with 0 and 1 exactly")
        equal_to_diagonal = next(((y, h) for y in range(K) for h in range(K)
                                  if h != y and same(det[h][y], det[y][y])), None)
        unequal = None
        for y in range(K):
            others = [h for h in range(K) if h != y]
            first = others[0] if others else None
            odd = next((h for h in others[1:] if not same(det[h][y], det[first][y])), None)
            if odd is not None:
                unequal = (y, first, odd)
                break
        identical = next(((a, b) for a, b in combinations(range(K), 2)
                          if all(same(det[a][y], det[b][y]) for y in range(K))), None)
        positive = next(((a, b) for a, b in combinations(range(K), 2)
                         if certified.sign(det[b][a]).value == 1 and certified.sign(det[a][b]).value == 1), None)
        return Premises(p_vs_1, p_sign, all(same(det[y][y], sp.Integer(0)) for y in range(K)),
                        equal_to_diagonal, unequal, identical, positive)


POWER_MEAN = ("the power-mean inequality: M_p(x) < mean(x) for p < 1 and M_p(x) > mean(x) for p > 1 unless all "
              "x are equal, when every mean is that value")
PAIR = ("with c_a(a) = c_b(b) = 0, x = c_b(a) > 0 and z = c_a(b) > 0, the distribution q_a = z/(x + z), "
        "q_b = x/(x + z) gives both members the expected cost u = xz/(x + z), and the pair E_q[c_{a,b}] = "
        "q_a M_p(0, x) + q_b M_p(z, 0) = 2^(1 - 1/p) u < u for 0 < p < 1 (0 for p = 0): {a, b} is possible for "
        "every 0 <= p < 1")
BOUNDS = "a power mean lies between the least and the greatest of its values: min x <= M_p(x) <= max x"
MULTISET = "a power mean depends only on the multiset of its values"


SHAPE_PREMISES = ("power-mean-form", "singletons-are-costs", "nonnegative")  # shared by every lemma here


SIGN_PREMISE = {"<": "p<1", "<=": "p<=1", ">=": "p>=1"}  # op between c_Y(y) and the mean -> what p must be
SIGN_HOLDS = {"<": lambda s: s < 0, "<=": lambda s: s <= 0, ">=": lambda s: s >= 0}  # ... as a sign of p - 1
OP_RANGE = {"<": "< 1", "<=": "<= 1", ">=": ">= 1"}
OUT_OF_RANGE = {"<": ">= 1", "<=": "> 1", ">=": "< 1"}


class PowerMeanLemmas:
    """What the lemmas prove for each property, given the premises, and which sets break it when they show one.
    Each property is read through its definition's shape (`power_mean.shapes`), never its id."""

    def __init__(self, p: sp.Expr, det: list[list[sp.Expr]]):
        self.p, self.K = p, len(det)
        self.facts = Premises.of(p, det)

    def proof(self, pid: str) -> LemmaProof | None:
        """A proof that P holds (a "for every" property) or fails everywhere (a "some" property), or None."""
        f, shape = self.facts, shape_of(BY_ID[pid])
        kind = shape.kind if shape else None
        if kind == "bounds":
            return self._proof("bounds", BOUNDS, ())
        if kind == "multiset":
            return self._proof("multiset", MULTISET, ())
        if kind == "vs-mean":
            sign_ok = SIGN_HOLDS[shape.op](f.p_vs_1)
            if shape.domain == "not in Y" and (sign_ok or f.unequal_off_diagonal is None):
                return self._proof("power mean", POWER_MEAN, (SIGN_PREMISE[shape.op],) if sign_ok
                                   else ("constant-off-diagonal",))
            if shape.domain == "in Y" and sign_ok and f.equal_to_diagonal is None:
                return self._proof("power mean", POWER_MEAN, (SIGN_PREMISE[shape.op], "no-cost-equal-to-diagonal"))
            if shape.domain == "classes" and sign_ok and f.identical_rows is None:
                return self._proof("power mean", POWER_MEAN, (SIGN_PREMISE[shape.op], "distinct-rows"))
        if kind in ("equal-in-Y", "differs-in-Y") and f.p_sign <= 0 and f.zero_diagonal:
            # a correct set has a member costing 0 at the truth, and M_p with p <= 0 of values with a 0 is 0
            return self._proof("zero mean", "a power mean with exponent p <= 0 of values that include 0 is 0, so "
                               "every set containing the truth costs 0", ("p<=0", "zero-diagonal"))
        if kind == "possible" and f.p_vs_1 >= 0:
            return self._proof("power mean", POWER_MEAN + "; so E_p[c_Y] >= the mean of its members' expected costs "
                               ">= the least of them, for every p: no indeterminate set is possible", ("p>=1",))
        return None

    def possible_pair(self) -> tuple[int, int] | None:
        """A pair {a, b} the balanced-pair lemma shows possible for every 0 <= p < 1 (PAIR), when the premises
        hold here: p < 1, c_y(y) = 0 for every y, c_b(a) > 0 and c_a(b) > 0."""
        if self.facts.p_vs_1 >= 0 or not self.facts.zero_diagonal:
            return None
        return self.facts.positive_pair

    def failing_sets(self, pid: str) -> list[frozenset[int]]:
        """Sets where the lemmas show P breaks (its row is then built and checked by the ordinary engines)."""
        f, shape = self.facts, shape_of(BY_ID[pid])
        if shape is None or shape.kind != "vs-mean" or self.proof(pid) is not None:
            return []
        if shape.domain == "not in Y":  # a set missing y whose members cost differently there
            return [frozenset(f.unequal_off_diagonal[1:])]
        if not SIGN_HOLDS[shape.op](f.p_vs_1):  # the wrong side of the mean, or equal to it, at every column
            return [frozenset((0, 1))]
        pair = f.equal_to_diagonal if shape.domain == "in Y" else f.identical_rows
        return [frozenset(pair)] if pair else []

    def search(self, pid: str) -> str | None:
        """Which float search may find a set that settles P where the lemmas do not: "possible" (a pair some
        distribution makes possible), "moves" (a set whose cost moves with its true member), "moves-lists-differ"
        (the same, between members whose own cost lists differ), or None."""
        shape = shape_of(BY_ID[pid])
        if shape is None or shape.exact or self.proof(pid) is not None:
            return None
        return {"possible": "possible", "equal-in-Y": "moves",
                "differs-in-Y": "moves-lists-differ" if shape.lists_differ else "moves"}[shape.kind]

    def undecided(self, pid: str) -> str:
        """Why the lemmas leave P open (said when no set built settles it either)."""
        shape = shape_of(BY_ID[pid])
        kind = shape.kind if shape else None
        return {"possible": "no lemma shows a set possible or none possible for p < 1",
                "equal-in-Y": "for p > 0 (or a nonzero c_y(y)) no lemma shows every correct set's cost independent "
                              "of the truth",
                "differs-in-Y": "for p > 0 (or a nonzero c_y(y)) no lemma shows some correct set's cost depends on "
                                "the truth"}.get(kind, "no lemma rule applies to its definition")

    def condition(self, pid: str, names: tuple[str, ...]) -> str | None:
        """What the lemmas say P needs, as a sentence saying why it is not met here; None where they say nothing.
        Exact ("exactly when") for the vs-mean shapes; necessary for "possible" and "differs-in-Y", sufficient
        for "equal-in-Y"."""
        f, p, shape = self.facts, self.p, shape_of(BY_ID[pid])
        kind = shape.kind if shape else None
        exactly = "By the power-mean inequality it holds exactly when the exponent p of genmean is "
        if kind == "vs-mean" and shape.domain == "not in Y":
            why = [f"p = {p}"] + ([self._unequal(names)] if f.unequal_off_diagonal else [])
            return (f"{exactly}{OP_RANGE[shape.op]}, or when at each true class y every other class costs the same; "
                    f"here {', and '.join(why)}")
        if kind == "vs-mean":
            why = [] if SIGN_HOLDS[shape.op](f.p_vs_1) else [f"p = {p} {OUT_OF_RANGE[shape.op]}"]
            if shape.domain == "in Y" and f.equal_to_diagonal:
                y, h = f.equal_to_diagonal
                why.append(f"at y = {names[y]} the class {names[h]} costs c_y(y)")
            if shape.domain == "classes" and f.identical_rows:
                why.append(f"{names[f.identical_rows[0]]} and {names[f.identical_rows[1]]} have the same row")
            rest = ("no other class costs c_y(y) at a true class y" if shape.domain == "in Y"
                    else "no two classes have the same row of costs")
            return f"{exactly}{OP_RANGE[shape.op]} and {rest}; here {', and '.join(why)}"
        if kind == "possible" and f.p_vs_1 >= 0:
            return (f"It needs the exponent p of genmean < 1: for p >= 1 no indeterminate set is ever optimal; "
                    f"here p = {p}")
        if kind == "equal-in-Y":
            return ("An exponent p <= 0 with c_y(y) = 0 for every class y would make it hold: every set containing "
                    "the truth would then cost 0")
        if kind == "differs-in-Y" and f.p_sign <= 0 and f.zero_diagonal:
            return f"It needs an exponent p > 0 or some c_y(y) != 0; here p = {p} <= 0 and every c_y(y) = 0"
        return None

    def _unequal(self, names: tuple[str, ...]) -> str:
        y, a, b = self.facts.unequal_off_diagonal
        return f"at y = {names[y]} the classes {names[a]} and {names[b]} cost differently"

    def _proof(self, name: str, statement: str, premises: tuple[str, ...]) -> LemmaProof:
        # genmean refuses negative values, so only the arithmetic mean (p = 1) may meet them
        shared = ("power-mean-form", "singletons-are-costs") + (("nonnegative",) if self.facts.p_vs_1 else ())
        return LemmaProof(name, statement, shared + premises, self.p)


def premise_words(name: str, p: sp.Expr) -> str:
    """A premise in words, for reports."""
    return {"power-mean-form": "c_Y(y) is M_p of the members' costs c_ŷ(y), ŷ in Y (the formula's shape)",
            "singletons-are-costs": "the singleton rows are the costs c(ŷ, y) the formula reads",
            "nonnegative": "every determinate cost is >= 0",
            "p<1": f"p = {p} < 1", "p<=1": f"p = {p} <= 1", "p>=1": f"p = {p} >= 1", "p<=0": f"p = {p} <= 0",
            "zero-diagonal": "c_y(y) = 0 for every class y",
            "no-cost-equal-to-diagonal": "no other class costs c_y(y) at a true class y",
            "constant-off-diagonal": "at each true class y, every other class costs the same",
            "distinct-rows": "no two classes have the same row of costs"}[name]
