"""Class symmetry: when every permutation of the classes leaves a scheme unchanged, one set per size stands for
all 2^K sets, and one or two classes per set for all K.

A scheme is *class-symmetric* when, for every permutation σ of the classes, c_σY(σy) = c_Y(y). Proved here
from three facts, never from enumerating sets:
  1. the set-cost formula cannot tell classes apart (`formula.equivariance`: no class names, no rank(), no
     per-class parameter whose values differ);
  2. the determinate costs c_ŷ(y) (the singleton rows, and the costs c(ŷ, y) the formula reads) are
     unchanged by the two permutations that generate all of them, the swap (1 2) and the cycle (1 2 ... K),
     checked exactly on the K x K matrices;
  3. symbolic per-class parameters move with the classes, and the assumptions, as a set of conditions, are
     unchanged by both generators (so the admissible values are).
With fixed values (numbers, or symbolic parameters that are not per-class) the stabiliser of a set Y, all
permutations of Y times all permutations of the rest, fixes the scheme: every instance (Y, y, y′) is
equivalent to one with Y = {1..n}, y and y′ among 1, 2, n+1, n+2. With symbolic per-class parameters a
permutation also moves the parameters, so only a leading run of "for every" quantifiers may be reduced (the
"for every admissible value" in front absorbs the permutation); later quantifiers range over all classes.

Owns: `Orbits`, `class_orbits` (the proof), `build_reduced_scheme`. May import: `spec`, `formula`,
`scheme.exact`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from math import comb

import numpy as np

from verifier.errors import DoesNotApply
from verifier.formula import certified
from verifier.formula.equivariance import class_blind
from verifier.lazy_sympy import sympy as sp
from verifier.properties import QuantifierKind
from verifier.scheme.exact import ClassSet, Scheme, build_scheme
from verifier.spec.model import Spec


def partial_only(scheme: Scheme) -> bool:
    """Rows for some sets, with no claim about the others: only a counterexample to a "for every set" property
    or a witness of a "some set" one found here speaks for the whole matrix."""
    return scheme.orbits is not None and not scheme.orbits.symmetric


class NotSymmetric(DoesNotApply):
    """The scheme could not be proved class-symmetric; the message says what singles a class out."""


@dataclass(frozen=True)
class Orbits:
    """The class symmetry of a scheme: whether it is proved (so one set per size and one or two classes per set stand
    for all), whether per-class parameters move with the classes, and the family's size bound."""

    K: int
    symmetric: bool  # proved class-symmetric (False: only some sets are built, with no claim about the rest)
    moves_parameters: bool = False  # symbolic per-class parameters permute with the classes
    top: int | None = None  # `predictions: {max_size: top}`: sets of at most top classes (closed under relabelling)

    @property
    def largest(self) -> int:
        """The largest set size the family allows (K, or `top`)."""
        return self.K if self.top is None else min(self.top, self.K)

    @property
    def sets(self) -> list[ClassSet]:
        """One indeterminate set per size: {1..n}, for every size the family allows."""
        return [frozenset(range(n)) for n in range(2, self.largest + 1)]

    def classes(self, domain: str, members: ClassSet, y: int | None, reduce: bool) -> list[int]:
        """The classes a quantifier over `domain` ranges over at the representative set `members` (y: the
        class already bound, for y′): one per orbit of the set's stabiliser when `reduce`, else all."""
        everything = range(self.K)
        inside, outside = sorted(members), [c for c in everything if c not in members]
        values = {"in Y": inside, "not in Y": outside, "classes": list(everything)}[domain]
        if reduce and self.symmetric:
            taken = {y} if y is not None else set()
            keep_in = [c for c in inside if c not in taken][:1]
            keep_out = [c for c in outside if c not in taken][:1]
            values = [c for c in values if c in keep_in or c in keep_out]
        return [c for c in values if c != y]

    def reducible(self, kinds: tuple[str, ...], depth: int) -> bool:
        """May the quantifier at `depth` (0 is Y) range over representatives? With fixed values, always: the
        reduction is exact. With per-class parameters that move with the classes, it is exact for a leading run
        of "for every" quantifiers (the "for every admissible value" in front absorbs the permutation) and,
        for a "some" quantifier, a restriction that keeps every witness real; so a proof from representatives
        stands, while a violation found there is confirmed on the concrete scheme, or sought at values equal
        across classes, where the reduction is exact again (`engines.smt.engine`). No property has a "for every"
        after a "some"."""
        if not self.symmetric:
            return False
        first_exists = kinds.index(QuantifierKind.EXISTS) if QuantifierKind.EXISTS in kinds else len(kinds)
        return depth < first_exists or all(k == QuantifierKind.EXISTS for k in kinds[first_exists:])

    def sets_represented(self) -> int:
        """How many indeterminate sets the representatives stand for: all 2^K - K - 1, or those of at most `top`
        classes."""
        if self.top is None:
            return 2 ** self.K - self.K - 1
        return sum(comb(self.K, n) for n in range(2, self.largest + 1))

    def describe(self) -> str:
        """The symmetry reduction in words, for reports."""
        head = (f"by symmetry (every permutation of the {self.K} classes leaves the scheme unchanged"
                + (", moving the per-class parameters with the classes" if self.moves_parameters else "") + "), ")
        sets, sizes = self.sets_represented(), self.largest - 1
        allowed = "" if self.top is None else f" of at most {self.largest:,} classes (the prediction family)"
        return (head + f"the {sets:,} indeterminate set{'s' if sets != 1 else ''}{allowed} reduce to {sizes} size"
                + ("s" if sizes != 1 else "") + ", each checked at one representative set {1..n}, with one true "
                "class inside it and, where there is one, one outside")


def build_reduced_scheme(spec: Spec, classes: tuple[str, ...] | None = None,
                         values: dict[str, sp.Expr] | None = None, prove: bool = True) -> Scheme:
    """Singletons and one set per size. With `prove`, raises NotSymmetric unless the scheme is class-symmetric;
    without, builds those rows and claims nothing about the others (enough for a counterexample to a
    "for every set" property, or a witness of a "some set" one)."""
    if classes is not None:
        spec = replace(spec, classes=classes)
    K = len(spec.classes)
    family = spec.predictions
    if family.kind not in ("all", "max_size"):  # intervals, hierarchies and lists are not closed under relabelling
        raise NotSymmetric(f"the prediction family ({family.kind}) is not closed under relabelling the classes")
    top = family.max_size if family.kind == "max_size" else None
    if prove:
        _syntactic(spec)
    probe = Orbits(K, symmetric=False, top=top)
    scheme = build_scheme(spec, values=values, sets=probe.sets)
    moves = any(isinstance(v, tuple) and any(isinstance(x, sp.Symbol) for x in v)
                for v in scheme.parameters.values())
    if prove:
        _uniform_values(spec, scheme)
        _semantic(scheme)
    scheme.orbits = Orbits(K, symmetric=prove, moves_parameters=moves and prove, top=top)
    if prove:
        scheme.notes.append(scheme.orbits.describe()[0].upper() + scheme.orbits.describe()[1:] + ".")
    return scheme


def _syntactic(spec: Spec) -> None:
    if spec.set_costs:
        raise NotSymmetric("the spec gives explicit rows in 'set_costs'")
    if spec.set_cost is None:
        raise NotSymmetric("there is no 'set_cost' formula")
    uniform = {name for name, param in spec.parameters.items() if param.per_class}  # values: `_uniform_values`
    for formula in [spec.set_cost] + list(spec.assume):
        why = class_blind(formula, spec.functions, uniform)
        if why:
            raise NotSymmetric(why)


def _uniform_values(spec: Spec, scheme: Scheme) -> None:
    """A per-class parameter the formulas read must be one symbol per class (moved with the classes) or one
    value for every class, as built (fixed values, or values substituted for symbols, as in a re-check)."""
    for name, value in scheme.parameters.items():
        if not isinstance(value, tuple):
            continue
        symbols = all(isinstance(v, sp.Symbol) for v in value)
        if symbols and len(set(value)) == len(value):
            continue
        if not symbols and all(not v.free_symbols for v in value) and all(
                v == value[0] or certified.compare(v, value[0]).value == 0 for v in value[1:]):
            continue
        raise NotSymmetric(f"the per-class parameter '{name}' has values that differ between classes")


def _semantic(scheme: Scheme) -> None:
    K = scheme.K
    generators = [[1, 0] + list(range(2, K)), [(i + 1) % K for i in range(K)]]
    tables = [{(h, y): scheme.det(h, y) for h in range(K) for y in range(K)}]  # the singleton rows
    if scheme.given is not None:
        tables.append(scheme.given)  # and what c(ŷ, y) reads in the set-cost formula, when they differ
    for sigma in generators:
        move = _parameter_map(scheme, sigma)
        for det, (h, y) in ((t, cell) for t in tables for cell in t):
            value = det[(h, y)]
            image = value.xreplace(move) if value.free_symbols else value
            other = det[(sigma[h], sigma[y])]
            if other != image and not (other.free_symbols | image.free_symbols and sp.simplify(other - image) == 0):
                raise NotSymmetric(f"the determinate costs distinguish classes: c_{scheme.classes[h]}"
                                   f"({scheme.classes[y]}) = {value} but c_{scheme.classes[sigma[h]]}"
                                   f"({scheme.classes[sigma[y]]}) = {other}")
        conditions = {c for c, _ in scheme.assumptions}
        if {c.xreplace(move) for c in conditions} != conditions:
            raise NotSymmetric("the assumptions single out some class")


def _parameter_map(scheme: Scheme, sigma: list[int]) -> dict[sp.Symbol, sp.Symbol]:
    move = {}
    for value in scheme.parameters.values():
        if isinstance(value, tuple):
            for i, symbol in enumerate(value):
                if isinstance(symbol, sp.Symbol):
                    move[symbol] = value[sigma[i]]
    return move


def rebuild_at(scheme: Scheme, values: dict[str, sp.Expr]) -> Scheme:
    """The same scheme at fixed parameter values, in the same shape: every set, or (for a reduced scheme)
    one set per size, proved symmetric at these values when it is, else built without that claim."""
    if scheme.orbits is None:
        return build_scheme(scheme.spec, values=values, classes=scheme.classes)
    try:
        return build_reduced_scheme(scheme.spec, scheme.classes, values)
    except NotSymmetric:
        return build_reduced_scheme(scheme.spec, scheme.classes, values, prove=False)


def blind_formulas(spec: Spec, scheme: Scheme | None = None) -> str:
    """'' when facts 1 and 3 of the lemma hold for `spec` (its formulas cannot tell classes apart, and the
    per-class parameters of the built `scheme`, when given, are one value for every class); else what singles a class
    out.
    Fact 2 (the determinate costs) is the caller's to check, on whatever rows it built."""
    try:
        _syntactic(spec)
        if scheme is not None:
            _uniform_values(spec, scheme)
    except NotSymmetric as exc:
        return str(exc)
    return ""


def arrays_alike(cells) -> str:
    """Fact 2 of the lemma on the fast path's arrays (`SchemeCells`): the singleton rows and the costs c(ŷ, y)
    the set-cost formula reads are exact, one value on the diagonal and one off it; '' when so, else why not."""
    K = cells.K
    for what, table in (("the singleton rows", cells.rows), ("the costs c(ŷ, y)", cells.determinate)):
        if table is None:
            continue
        if not np.asarray(table.exact)[:K].all():
            return f"{what} are not all exact rationals"
        num = np.asarray(table.num)[:K]
        diagonal = np.eye(K, dtype=bool)
        on, off = num[diagonal], num[~diagonal]
        if (on != on[0]).any() or (off.size and (off != off[0]).any()):
            return f"{what} distinguish classes"
    return ""
