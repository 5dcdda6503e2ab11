"""Finding proofs that a polynomial in the parameters is > 0, >= 0 or = 0 at every admissible value, in the
forms the standalone checker re-checks (verifier_check/for_all.py):

- `exact`: the polynomial is a constant of the right sign;
- `products`: f = c + sum_k w_k prod g_k over the assumptions' constraints g (degree 1: Farkas multipliers;
  degree 2 and 3: products, Handelman's representation on a polytope), the multipliers found exactly by z3's
  linear real arithmetic (an exact simplex, so no float chooses them);
- `bernstein`: on the box the bound constraints give, a bisection until every cell's Bernstein coefficients
  have the sign (the coefficients are computed exactly in Fractions).

The search reads the checker's own derivation of the polynomials and constraints, so what it finds is what
the checker will be asked; the checker trusts none of it and checks every identity and sign itself.

Owns: `SignProver`. May import: `verifier_check` (its derivation, as data), z3.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations_with_replacement

from verifier_check import polynomials
from verifier_check.algebra import ONE
from verifier_check.limits import Undecided

MAX_DEGREE = 3  # products of up to three constraints
MAX_LEAVES, MAX_DEPTH = 4096, 24  # the Bernstein subdivision's budget (work, never time)
Z3_RLIMIT = 5_000_000  # z3's work budget for one multiplier question


class SignProver:
    """Proofs of f > 0, f >= 0, f = 0 over a checker `Region`, remembered by the polynomial's form."""

    def __init__(self, region, classes):
        self.region, self.classes, self.found, self.multipliers = region, classes, {}, {}
        self.parts = sorted(region.parts.items(), key=lambda kv: (kv[0][0], -1 if kv[0][1] is None else kv[0][1],
                                                                  kv[0][2]))
        self.box = region.box()

    def prove(self, f, want, cell=None):
        """A proof dict, or None when none of the forms is found within the work budgets. `cell`: a part of the
        box (a piecewise proof's), where a Bernstein subdivision starts; products hold everywhere anyway."""
        key = (f.key(), want, None if cell is None else tuple(sorted(cell.items())))
        if key not in self.found:
            self.found[key] = self._search(f, want, cell)
        return self.found[key]

    def _search(self, f, want, cell):
        q = f.rational()
        if q is not None:
            return {"by": "exact"} if {"gt": q > 0, "ge": q >= 0, "eq": q == 0}[want] else None
        try:
            polynomials.polynomial_of(f, "")
        except Undecided:
            return None
        if (f.key(), want) not in self.multipliers:
            self.multipliers[f.key(), want] = next((p for d in range(1, MAX_DEGREE + 1)
                                                    if (p := self.products(f, want, d)) is not None), None)
        proof = self.multipliers[f.key(), want]
        if proof is None and want != "eq":
            proof = self.bernstein(f, want, cell or self.box)
        return proof

    def ref(self, key) -> list:
        """A constraint as the checker names it: [assumption index, class name or null, part index]."""
        i, y, k = key
        return [i, None if y is None else self.classes[y], k]

    def products(self, f, want, degree):
        """Multipliers of products of up to `degree` constraints, found exactly by z3, or None."""
        import z3

        chosen = [combo for r in range(1, degree + 1)
                  for combo in combinations_with_replacement(range(len(self.parts)), r)]
        if not chosen or len(chosen) > 400:
            return None
        values = []
        for combo in chosen:
            value = ONE
            for j in combo:
                value = value * self.parts[j][1][1]
            values.append(value)
        solver = z3.SolverFor("QF_LRA")
        solver.set("rlimit", Z3_RLIMIT)
        c, w = z3.Real("c"), [z3.Real(f"w{k}") for k in range(len(chosen))]
        equality = [any(self.parts[j][1][0] == "eq" for j in combo) for combo in chosen]
        strict = [all(self.parts[j][1][0] == "gt" for j in combo) for combo in chosen]
        monomials = set(f.terms) | {m for v in values for m in v.terms}
        for m in monomials:
            terms = [w[k] * _real(v.terms[m]) for k, v in enumerate(values) if m in v.terms]
            if m == ():
                terms.append(c)
            solver.add(z3.Sum(terms) == _real(f.terms.get(m, Fraction(0))) if terms else
                       z3.BoolVal(f.terms.get(m, 0) == 0))
        solver.add(c >= 0)
        for k in range(len(chosen)):
            if not equality[k]:
                solver.add(w[k] >= 0 if want != "eq" else w[k] == 0)
        if want == "eq":
            solver.add(c == 0)
        if want == "gt":
            solver.add(z3.Sum([c] + [w[k] for k in range(len(chosen)) if strict[k]]) > 0)
        if solver.check() != z3.sat:
            return None
        model = solver.model()
        read = lambda v: _fraction(model.eval(v, model_completion=True))  # noqa: E731
        terms = [{"weight": _text(read(w[k])), "factors": [self.ref(self.parts[j][0]) for j in combo]}
                 for k, combo in enumerate(chosen) if read(w[k])]
        return {"by": "products", "constant": _text(read(c)), "terms": terms}

    def bernstein(self, f, want, box):
        """A bisection of the box whose every cell's Bernstein coefficients show the sign, or None."""
        names = polynomials.names_of(f)
        if any(n not in box for n in names) or len(names) > polynomials.MAX_VARIABLES:
            return None
        coefficients = polynomials.dense(f, names)
        degrees = [max(e[i] for e in coefficients) for i in range(len(names))]
        if any(d > polynomials.MAX_DEGREE for d in degrees):
            return None
        budget = [MAX_LEAVES]

        def split(cell, depth):
            b = polynomials.bernstein(coefficients, cell, names)
            low = min(b.values())
            if low > 0 or (want == "ge" and low == 0):
                budget[0] -= 1
                return "leaf" if budget[0] >= 0 else None
            corners = [v for index, v in b.items() if all(k in (0, d) for k, d in zip(index, degrees))]
            if min(corners) < 0 or (want == "gt" and min(corners) == 0) or depth >= MAX_DEPTH:
                return None  # the polynomial itself has the wrong sign at a corner: no subdivision helps
            name = max(names, key=lambda n: cell[n][1] - cell[n][0])
            lo, hi = cell[name]
            mid = (lo + hi) / 2
            left = split({**cell, name: (lo, mid)}, depth + 1)
            right = split({**cell, name: (mid, hi)}, depth + 1) if left is not None else None
            return None if right is None else [name, _text(mid), left, right]

        tree = split({n: box[n] for n in names}, 0)
        return None if tree is None else {"by": "bernstein", "tree": tree}


def _real(q: Fraction):
    import z3

    return z3.RealVal(f"{q.numerator}/{q.denominator}")


def _fraction(value) -> Fraction:
    return Fraction(value.numerator_as_long(), value.denominator_as_long())


def _text(q: Fraction) -> str:
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"
