"""P1 and P9 at every admissible value: a witness valid on a cell of the parameters' box, searched for by
`ForAllProver.pieces` on the whole box, then on its halves. P1's candidates are the uniform distribution over
each set, distributions the analysis found, and the distribution of largest least margin at the cell's centre
(found exactly by z3's optimiser, within a work budget); P9's are the instances whose lists are unmatched and
whose costs keep one sign there.

Owns: `Witnesses` (a base of `ForAllProver`), `poly`. May import: `verifier_check`, `report.certificate.proof_search`.
"""

from __future__ import annotations

from fractions import Fraction

from verifier.report.certificate.proof_search import Z3_RLIMIT, _text
from verifier_check.algebra import ZERO
from verifier_check.limits import Malformed, Undecided


class Witnesses:
    """The witness searches of `ForAllProver` (which supplies `t`, `spec`, `signs`, `prove`, `names`, `unmatched`)."""

    def witness_p1(self, candidates, cell):
        """On a cell: a constant distribution p that makes a set possible there, its margins proved, or None.
        Tried: uniform over the set, the given candidates, and the distribution of largest margin at the
        cell's centre (found exactly by z3's optimiser)."""
        t = self.t
        for m in t.sets:
            uniform = [Fraction(1, len(m)) if c in m else Fraction(0) for c in range(t.K)]
            tried = [uniform] + [list(map(Fraction, c)) for c in candidates]
            central = self.central(m, cell)
            if central is not None:
                tried.append(central)
            for p in tried:
                beats = self.margins(m, p, cell)
                if beats is not None:
                    return {"Y": self.names(m), "p": [poly(x) for x in p], "nonnegative": [{"by": "exact"}] * t.K,
                            "beats": beats}
        return None

    def central(self, m, cell):
        """The distribution of largest least margin E_p[c_h] - E_p[c_Y] at the centre of the cell, or None."""
        import z3

        box = cell if cell is not None else self.signs.box
        if any(n not in box for n in self.spec.symbols):
            return None
        values = {n: (box[n][0] + box[n][1]) / 2 for n in self.spec.symbols}
        try:
            costs = self.spec.costs(values)
            rows = {z: [c.rational() for c in costs.row(z)] for z in [m] + [frozenset((h,)) for h in m]}
        except (Undecided, Malformed):
            return None
        if any(v is None for row in rows.values() for v in row):
            return None
        opt = z3.Optimize()
        opt.set("rlimit", Z3_RLIMIT)  # work, never time: the same witness on any machine
        p, margin = [z3.Real(f"p{k}") for k in range(self.t.K)], z3.Real("t")
        opt.add(*(x >= 0 for x in p), z3.Sum(p) == 1, margin <= 1)
        for h in m:
            gap = [rows[frozenset((h,))][k] - rows[m][k] for k in range(self.t.K)]
            opt.add(margin <= z3.Sum([p[k] * z3.RealVal(str(gap[k])) for k in range(self.t.K)]))
        opt.maximize(margin)
        if opt.check() != z3.sat:
            return None
        model = opt.model()
        read = lambda v: Fraction(model.eval(v, model_completion=True).as_fraction())  # noqa: E731
        return [read(x) for x in p] if read(margin) > 0 else None

    def margins(self, m, p, cell):
        """Proofs that p makes Y cheaper than each member on the cell, or None."""
        t = self.t

        def expected(z):
            total = ZERO
            for k in range(t.K):
                if p[k]:
                    total = total + t.cost(z, k).scaled(p[k])
            return total

        mine, out = expected(m), []
        for h in sorted(m):
            proof = self.prove(expected(frozenset((h,))) - mine, "gt", cell)
            if proof is None:
                return None
            out.append(proof)
        return out

    def witness_p9(self, cell):
        """On a cell: an instance whose lists never agree and whose costs always differ there, or None."""
        t = self.t
        for m in t.sets:
            for y in sorted(m):
                for y2 in sorted(m):
                    if y == y2:
                        continue
                    lists = self.unmatched(m, y, y2, cell)
                    if lists is None:
                        continue
                    gap = t.cost(m, y) - t.cost(m, y2)
                    for sign in (1, -1):
                        proof = self.prove(gap if sign == 1 else -gap, "gt", cell)
                        if proof is not None:
                            return {"Y": self.names(m), "y": self.spec.classes[y], "y2": self.spec.classes[y2],
                                    "lists": lists, "costs": {"sign": sign, "proof": proof}}
        return None


def poly(q: Fraction) -> list:
    """A constant as the checker's polynomial form."""
    return [[_text(q), {}]] if q else []
