"""Evidence for verdicts that hold at every admissible value of a spec's parameters: one proof per instance of
a "for every" property (`for_all`), and a witness valid at every value for P1 and P9 (`witness_for_all`),
in the forms verifier_check/for_all.py re-checks.

The instances and their polynomials are the checker's own derivation from the spec (`verifier_check.spec`),
so the evidence answers exactly the questions the checker will ask; `proof_search` finds each sign proof.
Per instance the shapes are tried in a fixed order (so the same spec writes the same certificate): for the
min and max atoms each member h, for P2 each class y, for P5 equal costs, then a value of one list that no
value of the other can equal, then power sums, then the power-mean lemmas where the cells are power means.
Where the choice (the member, the class, P1's set and distribution, P9's instance) changes across the
parameters' box, the box is halved until each part has one (a `split`, at most MAX_SPLITS deep): the work
is bounded by that depth and the proof searches' own budgets, never by time.

Owns: `ForAllProver`, `NoProof`. May import: `verifier_check` (its derivation), `report.certificate.proof_search`
and `witness_search`.
"""

from __future__ import annotations

import json
from fractions import Fraction

from verifier.errors import Unsettled
from verifier.report.certificate.proof_search import Z3_RLIMIT, SignProver, _text
from verifier.report.certificate.witness_search import Witnesses
from verifier_check import polynomials, power_mean
from verifier_check.algebra import ONE, ZERO
from verifier_check.for_all import Region
from verifier_check.limits import Malformed, Undecided
from verifier_check.properties import PROPERTIES, Table

MAX_SPLITS = 6  # halvings of the box along one path: at most 64 parts per choice


class NoProof(Unsettled):
    """No proof of that shape was found; the message says for which instance."""


class ForAllProver(Witnesses):
    """The checker's symbolic derivation of a spec, and the search for proofs over it."""

    def __init__(self, spec):
        self.spec, costs = spec, spec.costs(None)
        self.t, self.region = Table(spec, costs), Region(spec, costs)
        self.signs = SignProver(self.region, spec.classes)

    def evidence(self, pid: str, candidates=()) -> dict:
        """The evidence that `pid` holds at every admissible value; NoProof naming the first instance without one.
        `candidates`: distributions to try as P1's witness, beside the uniform and central ones."""
        try:
            if pid in ("P1", "P9"):
                job = (lambda cell: self.witness_p1(candidates, cell)) if pid == "P1" else self.witness_p9
                found = self.pieces(job)
                if found is None:
                    raise NoProof("no witness was proved on every part of the parameters' box" if pid == "P1"
                                  else "no instance was proved to witness it on every part of the parameters' box")
                return {"kind": "witness_for_all", **found}
            return self.for_all(pid)
        except (Undecided, Malformed) as exc:
            raise NoProof(str(exc)) from None

    def pieces(self, job, cell=None, depth=0):
        """job(cell) on the whole box, or on its halves (recursively) where it finds nothing; None if a part
        stays without."""
        found = job(cell)
        box = cell if cell is not None else self.signs.box
        if found is not None or depth >= MAX_SPLITS or not box:
            return found
        name = max(sorted(box), key=lambda n: box[n][1] - box[n][0])
        lo, hi = box[name]
        if not lo < hi:
            return None
        mid = (lo + hi) / 2
        below = self.pieces(job, {**box, name: (lo, mid)}, depth + 1)
        above = self.pieces(job, {**box, name: (mid, hi)}, depth + 1) if below is not None else None
        return None if above is None else {"by": "split", "parameter": name, "at": _text(mid), "below": below,
                                            "above": above}

    def for_all(self, pid: str) -> dict:
        """A proof per instance of a "for every" property (a piecewise one where the choice changes)."""
        _, inner, atom = PROPERTIES[pid]
        instances, table, proofs = [], {}, []
        for m in self.t.sets:
            for y, y2 in [(None, None)] if pid == "P2" else self.t.bindings(inner, m):
                proof = self.pieces(lambda cell: self.instance(pid, atom, m, y, y2, cell))
                if proof is None:
                    raise NoProof(f"no proof found for {self.t.place(m, y, y2)}")
                entry = {"Y": self.names(m)}
                if y is not None:
                    entry["y"] = self.spec.classes[y]
                if y2 is not None:
                    entry["y2"] = self.spec.classes[y2]
                entry["proof"] = shared(proof, table, proofs)
                instances.append(entry)
        out = {"kind": "for_all", "instances": instances}
        if proofs:
            out["proofs"] = proofs
        return out

    def names(self, m) -> list[str]:
        """A set as its class names."""
        return [self.spec.classes[i] for i in sorted(m)]

    def prove(self, f, want, cell=None):
        """A sign proof of f on the cell (`SignProver.prove`)."""
        return self.signs.prove(f, want, cell)

    def instance(self, pid, atom, m, y, y2, cell):
        """One instance's proof in the checker's forms on a cell of the box (None: the whole box), or None."""
        t, cls = self.t, self.spec.classes
        op, left, right = atom
        if pid == "P2":
            for z in sorted(m) + [c for c in range(t.K) if c not in m]:
                proof = self.prove(t.term("mean", m, z, "") - t.cost(m, z), "gt", cell)
                if proof is not None:
                    return {"by": "class", "y": cls[z], "proof": proof}
            return self.lemma(pid, m, None, None, cell)
        if op == "implies":
            return self.p5(m, y, y2, cell)
        if right in ("min", "max"):
            for h in ([y] if y in m else []) + sorted(m):
                f = t.cost(m, y) - t.det(h, y) if right == "min" else t.det(h, y) - t.cost(m, y)
                proof = self.prove(f, "ge", cell)
                if proof is not None:
                    return {"by": "member", "h": cls[h], "proof": proof}
            return self.lemma(pid, m, y, y2, cell)
        if right == "cost2":
            return self.prove(t.cost(m, y) - t.cost(m, y2), "eq", cell)
        mean, cost = t.term("mean", m, y, ""), t.cost(m, y)
        f, want = {"<": (mean - cost, "gt"), "<=": (mean - cost, "ge"), ">=": (cost - mean, "ge")}[op]
        return self.prove(f, want, cell) or self.lemma(pid, m, y, y2, cell)

    def p5(self, m, y, y2, cell):
        """P5 at one instance: equal costs, unmatched lists, power sums, or the multiset lemma."""
        t = self.t
        proof = self.prove(t.cost(m, y) - t.cost(m, y2), "eq", cell)
        if proof is not None:
            return {"by": "costs equal", "proof": proof}
        for first, second, side in ((y, y2, "y"), (y2, y, "y2")):
            found = self.unmatched(m, first, second, cell)
            if found is not None:
                return {**found, "in": side} if side == "y2" else found
        return self.power_sums(m, y, y2) or self.lemma("P5", m, y, y2, cell)

    def unmatched(self, m, y, y2, cell):
        """A member h whose c_h(y) is provably apart from every c_h2(y2), h2 in Y."""
        t = self.t
        for h in sorted(m):
            differs = {}
            for h2 in sorted(m):
                gap = t.det(h, y) - t.det(h2, y2)
                for sign in (1, -1):
                    proof = self.prove(gap if sign == 1 else -gap, "gt", cell)
                    if proof is not None:
                        differs[self.spec.classes[h2]] = {"sign": sign, "proof": proof}
                        break
                else:
                    break
            if len(differs) == len(m):
                return {"by": "unmatched", "h": self.spec.classes[h], "differs": differs}
        return None

    def power_sums(self, m, y, y2):
        """Multipliers (polynomials of degree <= 2) of the lists' power-sum differences giving the costs'
        difference, found exactly by z3 (a linear system in their coefficients)."""
        import z3

        t = self.t
        f = t.cost(m, y) - t.cost(m, y2)
        try:
            polynomials.polynomial_of(f, "")
        except Undecided:
            return None
        names = sorted(self.spec.symbols)
        basis = [ONE] + [t_ for t_ in _monomials(names, 2)]
        differences = []
        for k in range(1, len(m) + 1):
            d = ZERO
            for h in sorted(m):
                d = d + power(t.det(h, y), k) - power(t.det(h, y2), k)
            differences.append(d)
        products = [(k, j, differences[k] * b) for k in range(len(differences)) for j, b in enumerate(basis)]
        for free in (False, True):  # D = 1 first; then D = 1 + (degree <= 2), which must be proved > 0
            solver = z3.SolverFor("QF_LRA")
            solver.set("rlimit", Z3_RLIMIT)  # work, never time: the same certificate on any machine
            weights = {(k, j): z3.Real(f"m{k}_{j}") for k, j, _ in products}
            scale = {j: z3.Real(f"d{j}") if free and j else z3.RealVal(1 if not j else 0) for j in range(len(basis))}
            shifted = [(j, f * b) for j, b in enumerate(basis)]
            for mono in {x for _, _, d in products for x in d.terms} | {x for _, g in shifted for x in g.terms}:
                solver.add(z3.Sum([weights[k, j] * z3.RealVal(str(d.terms[mono])) for k, j, d in products
                                   if mono in d.terms] or [z3.RealVal(0)]) ==
                           z3.Sum([scale[j] * z3.RealVal(str(g.terms[mono])) for j, g in shifted
                                   if mono in g.terms] or [z3.RealVal(0)]))
            if solver.check() != z3.sat:
                continue
            model = solver.model()
            read = lambda v: Fraction(model.eval(v, model_completion=True).as_fraction())  # noqa: E731
            multipliers = [[[_text(read(weights[k, j])), exponents(b)] for j, b in enumerate(basis)
                            if read(weights[k, j])] for k in range(len(differences))]
            out = {"by": "power sums", "multipliers": multipliers}
            if free:
                d = ZERO
                for j, b in enumerate(basis):
                    d = d + b.scaled(read(scale[j]))
                positive = self.prove(d, "gt")
                if positive is None:
                    return None
                out["denominator"] = [[_text(read(scale[j])), exponents(b)] for j, b in enumerate(basis)
                                      if read(scale[j])]
                out["positive"] = positive
            return out
        return None

    def lemma(self, pid, m, y, y2, cell):
        """A power-mean lemma's proof when the cells are power means with an exponent in the parameters."""
        t = self.t
        for z in ([y] if pid != "P2" else sorted(m)):
            parts = power_mean.genmean_parts(t.cost(m, z))
            if parts is None:
                continue
            q = parts[0]
            out = {"by": "power mean"}
            defined = self.prove(q, "ge", cell)
            if defined is not None:
                out["defined"] = defined
            shape = power_mean.SHAPES.get(pid)
            if shape in ("bounds", "multiset"):
                return out
            if shape is None:
                return None
            gap = q - ONE if pid == "P6" else ONE - q
            exponent = self.prove(gap, "gt" if pid in ("P2", "P3") else "ge", cell)
            if exponent is None:
                continue
            out["exponent"] = exponent
            if pid == "P2":
                out["y"] = self.spec.classes[z]
            return out
        return None


def _monomials(names, degree):
    """The monomials of degree 1..degree in the parameters, as values."""
    from itertools import combinations_with_replacement

    from verifier_check.algebra import parameter

    out = []
    for d in range(1, degree + 1):
        for combo in combinations_with_replacement(names, d):
            value = ONE
            for n in combo:
                value = value * parameter(n)
            out.append(value)
    return out


def exponents(monomial_value) -> dict:
    """{parameter: exponent} of a value that is one monomial in the parameters."""
    (mono, _), = monomial_value.terms.items()
    return {a[1:]: int(e) for a, e in mono}


def shared(proof: dict, table: dict, proofs: list) -> dict:
    """The proof, or {"ref": k} into `proofs` when it is long and seen before (a certificate states it once)."""
    if proof.get("by") == "exact":
        return proof
    key = json.dumps(proof, sort_keys=True)
    if len(key) < 120:
        return proof
    if key not in table:
        table[key] = len(proofs)
        proofs.append(proof)
    return {"ref": table[key]}


def power(value, k):
    """value ** k for a small whole k."""
    out = ONE
    for _ in range(k):
        out = out * value
    return out
