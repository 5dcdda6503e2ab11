"""Independent re-checking of every piece of evidence before it is reported.

Deliberately shares no arithmetic with the engines: it reads the scheme's rows and the property
definitions itself, decides signs with exact Fractions or mpmath interval arithmetic (the engines use
python-flint), and recognises ties with sympy.simplify (the engines use minimal polynomials and rewrites).
A result whose evidence does not survive becomes `unknown`, with the reason.
"""

from __future__ import annotations

from fractions import Fraction

from mpmath import iv

from verifier.check.lemma import LemmaUnconfirmed, check_every_set, check_lemma
from verifier.check.possibility_batch import check_possibility_batch
from verifier.check.structured import check_structured, is_structured
from verifier.errors import Unsettled
from verifier.lazy_sympy import sympy as sp
from verifier.properties import Both, Compare, Implies, Possible, Property, QuantifierKind
from verifier.scheme import Scheme
from verifier.verdict import Binding, EvidenceKind, PropertyResult, SetPossibility, Truth, Verdict

_DIGITS = (30, 120, 1300)  # up to ~4300 bits, as far as the engines go


class _Unconfirmed(Unsettled):
    pass


def check_results(scheme: Scheme, results: list[PropertyResult], checker: "Checker | None" = None) -> None:
    """Re-check each result in place; downgrade to unknown what cannot be confirmed. A `checker` given keeps
    its cell enclosures for the next checks of the same scheme."""
    checker = checker or Checker(scheme)
    for result in results:
        try:
            note = checker.check(result)
        except _Unconfirmed as exc:
            result.checked = False
            result.check_note = f"the independent checker could not confirm the evidence: {exc}"
            if result.verdict is not Verdict.UNKNOWN:
                result.reason = result.check_note
                result.verdict = Verdict.UNKNOWN
            continue
        result.checked = True
        result.check_note = note


class Checker:
    """Re-checks the evidence of each result on one scheme, with its own arithmetic (see the module docstring)."""

    def __init__(self, scheme: Scheme):
        self.scheme = scheme
        self._iv: dict[sp.Expr, object] = {}
        self._premises: dict = {}  # lemma premises already re-derived for this scheme

    # -- results ---------------------------------------------------------------------------------------------
    def check(self, result: PropertyResult) -> str:
        """Re-check a result's evidence: a note on what was re-checked, or _Unconfirmed with the reason it does not
        survive."""
        prop, evidence = result.property, result.evidence
        if evidence.kind == EvidenceKind.LEMMA:
            for entry in evidence.possibility:  # P1: the sets built still carry their own certificates
                self.check_possibility(entry)
            try:
                if is_structured(evidence.lemma):  # the boolean-set encoding: its terms against the builder's rows
                    return check_structured(self.scheme, evidence.lemma, self._premises)
                return check_lemma(self.scheme, evidence.lemma, self._premises)
            except LemmaUnconfirmed as exc:
                raise _Unconfirmed(str(exc)) from None
        if evidence.kind in (EvidenceKind.EXHAUSTIVE, EvidenceKind.CERTIFICATES) \
                and result.verdict is not Verdict.UNKNOWN:
            try:  # the power-mean route builds a few sets: a verdict on all of them needs all of them
                check_every_set(self.scheme)
            except LemmaUnconfirmed as exc:
                raise _Unconfirmed(str(exc)) from None
        if isinstance(prop.atom, Possible):
            for entry in check_possibility_batch(self.scheme, evidence.possibility):  # the rest one by one
                self.check_possibility(entry)
            if result.verdict is Verdict.HOLDS:
                self._fits(prop, evidence.binding)
                entry = next(e for e in evidence.possibility if e.members == evidence.binding.members)
                if entry.status is not Truth.TRUE:
                    raise _Unconfirmed("the P1 witness set is not marked possible")
            if result.verdict is Verdict.FAILS and any(e.status is not Truth.FALSE for e in evidence.possibility):
                raise _Unconfirmed("P1 fails, yet some set is not certified impossible")
            return f"re-checked {len(evidence.possibility):,} possibility certificates exactly"
        if evidence.kind in (EvidenceKind.COUNTEREXAMPLE, EvidenceKind.WITNESS):
            want = evidence.kind == EvidenceKind.WITNESS
            if len(prop.quantifiers) > 1 and prop.quantifiers[1].kind == QuantifierKind.EXISTS and not want:
                self._fits(prop, evidence.binding, depth=1)
                return self._check_inner_exists(prop, evidence.binding)
            self._fits(prop, evidence.binding)
            if self.atom(prop, evidence.binding) is not want:
                raise _Unconfirmed(f"the atom does not evaluate to {want} at the reported instance")
            return f"re-checked the {evidence.kind} exactly"
        return f"exhaustive over {evidence.instances:,} instance(s); nothing further to re-check"

    def _check_inner_exists(self, prop: Property, binding: Binding) -> str:
        """A failed ∀Y ∃y (P2): at this Y, the atom must be false for every y of the inner domain."""
        inner = prop.quantifiers[1]
        for y in self._domain(inner.domain, binding.members):
            if self.atom(prop, Binding(binding.members, y)) is not False:
                raise _Unconfirmed(f"at y = {self.scheme.classes[y]} the atom is not false")
        return "re-checked every class at the counterexample set exactly"

    def _domain(self, domain: str, members) -> list[int]:
        everything = range(self.scheme.K)
        return {"classes": list(everything), "in Y": sorted(members),
                "not in Y": [c for c in everything if c not in members]}[domain]

    def _fits(self, prop: Property, binding: Binding | None, depth: int | None = None) -> None:
        """The reported instance must lie in the property's quantifier domains (the first `depth` ones)."""
        if binding is None or len(binding.members) < 2 or binding.members not in self.scheme.rows:
            raise _Unconfirmed("the reported set is not an indeterminate set of the scheme")
        for q in prop.quantifiers[1:depth]:
            value = binding.y if q.var == "y" else binding.y2
            if value is None or value not in self._domain(q.domain, binding.members):
                raise _Unconfirmed(f"{q.var} is outside its domain {q.domain}")
            if q.var == "y2" and value == binding.y:
                raise _Unconfirmed("y′ equals y")

    # -- atoms -----------------------------------------------------------------------------------------------
    def atom(self, prop: Property, b: Binding) -> bool:
        """The atom's truth at the binding, decided with the checker's arithmetic."""
        a = prop.atom
        if isinstance(a, Compare):
            return self.compare(a, b)
        if isinstance(a, Implies):
            return (not self.compare(a.premise, b)) or self.compare(a.conclusion, b)
        if isinstance(a, Both):
            return self.compare(a.first, b) and self.compare(a.second, b)
        raise _Unconfirmed(f"no check for atom {a!r}")

    def compare(self, atom: Compare, b: Binding) -> bool:
        """The comparison's truth at the binding: the sign of the difference of its terms, or multiset equality for
        sorted vectors."""
        y_l = b.y if atom.lhs.cls == "y" else b.y2
        y_r = b.y if atom.rhs.cls == "y" else b.y2
        if atom.lhs.kind == "sorted":
            same = self._same_multiset(self._column(b.members, y_l), self._column(b.members, y_r))
            return same if atom.op == "==" else not same
        s = self.sign(self._term(atom.lhs.kind, b.members, y_l) - self._term(atom.rhs.kind, b.members, y_r))
        return {"<": s < 0, "<=": s <= 0, ">=": s >= 0, "==": s == 0, "!=": s != 0}[atom.op]

    def _column(self, members, y) -> list[sp.Expr]:
        return [self.scheme.rows[frozenset((h,))][y] for h in sorted(members)]

    def _term(self, kind: str, members, y) -> sp.Expr:
        column = self._column(members, y)
        if kind == "cost":
            return self.scheme.rows[members][y]
        if kind == "mean":
            return sp.Add(*column) / len(column)
        best = column[0]
        for v in column[1:]:
            s = self.sign(v - best)
            if (kind == "min" and s < 0) or (kind == "max" and s > 0):
                best = v
        return best

    def _same_multiset(self, first, second) -> bool:
        remaining = list(second)
        for x in first:
            for i, z in enumerate(remaining):
                if self.sign(x - z) == 0:
                    del remaining[i]
                    break
            else:
                return False
        return True

    # -- possibility certificates ------------------------------------------------------------------------------
    def check_possibility(self, entry: SetPossibility) -> None:
        """Re-check one set's possibility evidence exactly: the witness p is a distribution under which the set beats
        each member, or the certificate λ a mixture of its members that the set's row dominates; _Unconfirmed
        otherwise."""
        s, members = self.scheme, entry.members
        if entry.status is Truth.TRUE:
            p = entry.witness
            if p is None or len(p) != s.K or any(x < 0 for x in p) or sum(p) != 1:
                raise _Unconfirmed(f"the witness for {s.label(members)} is not a probability distribution")
            for h in members:  # cells stay separate so that each one's interval is computed once
                gap = [(p[y], s.rows[frozenset((h,))][y]) for y in range(s.K) if p[y]]
                gap += [(-p[y], s.rows[members][y]) for y in range(s.K) if p[y]]
                if self.sign_sum(gap) <= 0:
                    raise _Unconfirmed(f"the witness for {s.label(members)} does not beat {s.classes[h]}")
        elif entry.status is Truth.FALSE:
            lam = entry.certificate
            if lam is None or any(v < 0 for v in lam.values()) or sum(lam.values()) != 1 or set(lam) - members:
                raise _Unconfirmed(f"the certificate for {s.label(members)} is not a distribution over the set")
            for y in range(s.K):
                terms = [(sp.Integer(1), s.rows[members][y])]
                terms += [(-k, s.rows[frozenset((h,))][y]) for h, k in lam.items() if k]
                if self.sign_sum(terms) < 0:
                    raise _Unconfirmed(f"the certificate for {s.label(members)} fails at y = {s.classes[y]}")

    # -- arithmetic --------------------------------------------------------------------------------------------
    def sign_sum(self, terms: list[tuple[sp.Expr, sp.Expr]]) -> int:
        """Sign of Σ k·v with rational k: exact Fractions, else cached per-cell intervals, else `sign`."""
        if all(k.is_Rational and v.is_Rational for k, v in terms):
            total = sum((_fraction(k) * _fraction(v) for k, v in terms), Fraction(0))
            return (total > 0) - (total < 0)
        saved = iv.dps
        try:
            iv.dps = _DIGITS[0]
            total = iv.mpf(0)
            for k, v in terms:
                total += _interval(k) * self._cell(v)
            if total > 0:
                return 1
            if total < 0:
                return -1
        except (TypeError, ValueError, ZeroDivisionError):
            pass
        finally:
            iv.dps = saved
        return self.sign(sp.Add(*[k * v for k, v in terms]))

    def _cell(self, value: sp.Expr):
        box = self._iv.get(value)
        if box is None:
            box = self._iv[value] = _interval(value)
        return box

    def sign(self, expr: sp.Expr) -> int:
        """The sign of an exact number: exact for a rational, else mpmath intervals at growing precision, 0 when
        sympy.simplify gives 0; _Unconfirmed when none decides."""
        if expr.is_Rational:
            return (expr.p > 0) - (expr.p < 0)
        saved = iv.dps
        try:
            for digits in _DIGITS:
                iv.dps = digits
                box = _interval(expr)
                if box > 0:
                    return 1
                if box < 0:
                    return -1
        except (TypeError, ValueError, ZeroDivisionError) as exc:
            raise _Unconfirmed(f"cannot enclose {expr}: {exc}") from None
        finally:
            iv.dps = saved
        if sp.simplify(expr) == 0:
            return 0
        raise _Unconfirmed(f"cannot decide the sign of {expr}")


def _fraction(value: sp.Rational) -> Fraction:
    return Fraction(int(value.p), int(value.q))


def _interval(expr: sp.Expr):
    """mpmath interval enclosure of an exact sympy number."""
    if expr.is_Rational:
        return iv.mpf(int(expr.p)) / int(expr.q)
    if isinstance(expr, sp.Add):
        return sum((_interval(a) for a in expr.args), iv.mpf(0))
    if isinstance(expr, sp.Mul):
        out = iv.mpf(1)
        for a in expr.args:
            out = out * _interval(a)
        return out
    if isinstance(expr, sp.Pow):
        base, exponent = expr.args
        if exponent.is_Integer:
            return _interval(base) ** int(exponent)
        b = _interval(base)
        if exponent == sp.S.Half and b >= 0:  # square roots (power means, sqrt in specs): one rounding, no log
            return iv.sqrt(b)
        if not b > 0:
            raise ValueError("fractional power of a base not certainly positive")
        return iv.exp(_interval(exponent) * iv.log(b))
    if isinstance(expr, sp.log):
        return iv.log(_interval(expr.args[0]))
    if isinstance(expr, sp.exp):
        return iv.exp(_interval(expr.args[0]))
    if isinstance(expr, sp.Abs):
        inner = _interval(expr.args[0])
        if inner > 0:
            return inner
        if inner < 0:
            return -inner
        raise ValueError("abs of a value of unknown sign")
    if isinstance(expr, sp.CRootOf) and expr.is_real:  # a real algebraic number: sympy isolates it exactly
        width = sp.Rational(1, 10 ** (iv.dps + 5))
        q = expr.eval_rational(dx=width, dy=width)
        return _interval(q) + iv.mpf([-1, 1]) * _interval(width)
    if expr is sp.pi:
        return iv.pi
    if expr is sp.E:
        return iv.e
    raise TypeError(f"no interval rule for {type(expr).__name__}")
