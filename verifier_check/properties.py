"""Properties 2-10 of Yang, Destercke & Masson (2017), stated here as data, and their atoms on a derived matrix.

Each property: the quantifier of Y (over the family's indeterminate sets), the quantifiers of y and y2 (y2 !=
y) with their domains, and an atom. Atom terms: cost = c_Y(y); mean, min, max of c_h(y) over the members h of
Y; sorted = the multiset of c_h(y); a trailing 2 reads y2 instead of y. P1 is Definition 4 (claims.py): some
indeterminate Y and distribution p with E_p[c_Y] < E_p[c_h] for every member h. The tool states the same
properties in verifier/properties/catalogue.py; a test keeps the two equal.
"""

from fractions import Fraction

from verifier_check import algebra, bounds
from verifier_check.limits import Refuted, bad, rat, show, sized, tick

PROPERTIES = {
    "P2": ("forall", [("exists", "y", "classes")], ("<", "cost", "mean")),
    "P3": ("forall", [("forall", "y", "in Y")], ("<", "cost", "mean")),
    "P4": ("forall", [("forall", "y", "classes")], (">=", "cost", "min")),
    "P5": ("forall", [("forall", "y", "classes"), ("forall", "y2", "classes")],
           ("implies", ("==", "sorted", "sorted2"), ("==", "cost", "cost2"))),
    "P6": ("forall", [("forall", "y", "not in Y")], (">=", "cost", "mean")),
    "P7": ("forall", [("forall", "y", "not in Y")], ("<=", "cost", "mean")),
    "P8": ("forall", [("forall", "y", "in Y"), ("forall", "y2", "in Y")], ("==", "cost", "cost2")),
    "P9": ("exists", [("exists", "y", "in Y"), ("exists", "y2", "in Y")],
           ("and", ("!=", "sorted", "sorted2"), ("!=", "cost", "cost2"))),
    "P10": ("forall", [("forall", "y", "classes")], ("<=", "cost", "max")),
}


class Table:
    """A spec's matrix (`spec.Costs`, at a point or symbolic) with its family: the sets, instances and atoms."""

    def __init__(self, spec, costs):
        self.spec, self.costs, self.classes, self.K = spec, costs, spec.classes, spec.K
        self.index = spec.index
        self._sets = None

    @property
    def sets(self):
        """The family's indeterminate sets, in table order."""
        if self._sets is None:
            self._sets = self.spec.family.sets()
        return self._sets

    def all_sets(self):
        """Every set of the family: singletons, then the indeterminate ones."""
        return [frozenset((h,)) for h in range(self.K)] + self.sets

    def members(self, names, where):
        """A non-empty list of distinct class names as a frozenset of class indices."""
        if not isinstance(names, list) or not names or not all(
                isinstance(c, str) and c in self.index for c in names) or len(set(names)) != len(names):
            bad(where, f"distinct class names among {list(self.classes)}"[:200], names)
        return frozenset(self.index[c] for c in names)

    def cls(self, name, where):
        """The index of a class name."""
        return self.index[name] if isinstance(name, str) and name in self.index else bad(
            where, f"a class of {list(self.classes)}"[:200], name)

    def label(self, m):
        """A set as messages write it: "{a,b}"."""
        return "{" + ",".join(self.classes[i] for i in sorted(m)) + "}"

    def place(self, m, y=None, y2=None):
        """An instance in messages: "Y={a,b}, y=a, y'=c"."""
        return f"Y={self.label(m)}" + "".join(f", {n}={self.classes[v]}" for n, v in (("y", y), ("y'", y2))
                                               if v is not None)

    def indeterminate(self, names, where):
        """The set named, which must be an indeterminate set of the family (Refuted otherwise)."""
        m = self.members(names, where)
        if len(m) < 2 or not self.spec.family.allows(m):
            raise Refuted(f"{where}: {self.label(m)} is not an indeterminate set of the family")
        return m

    def det(self, h, y):
        """c_h(y): the singleton row of {h} (as the properties read it)."""
        return self.costs.single(h, y)

    def cost(self, m, y):
        """c_Y(y)."""
        return self.costs.cell(m, y)

    def diff(self, a, b, where):
        """The sign of a - b."""
        ra, rb = a.rational(), b.rational()
        if ra is not None and rb is not None:
            return (ra > rb) - (ra < rb)
        return bounds.sign(a - b, where)

    def term(self, kind, m, y, where):
        """c_Y(y) ("cost"), or the mean, min or max of c_h(y) over the members h of Y."""
        if kind == "cost":
            return self.cost(m, y)
        values = [self.det(h, y) for h in sorted(m)]
        if kind == "mean":
            total = algebra.ZERO
            for v in values:
                total = total + v
            return total.scaled(Fraction(1, len(m)))
        best = values[0]
        for v in values[1:]:
            if self.diff(v, best, where) == (-1 if kind == "min" else 1):
                best = v
        return best

    def atom(self, atom, m, y, y2, where):
        """Whether an atom holds at Y, y and y2."""
        tick()
        op, left, right = atom
        if op in ("implies", "and"):
            first = self.atom(left, m, y, y2, where)
            return (op == "implies") if not first else self.atom(right, m, y, y2, where)
        if left == "sorted":  # multiset equality, matching equal values one by one
            return self.same_lists(m, y, y2, where) == (op == "==")
        a = self.term(left.rstrip("2"), m, y2 if left.endswith("2") else y, where)
        s = self.diff(a, self.term(right.rstrip("2"), m, y2 if right.endswith("2") else y, where), where)
        return {"<": s < 0, "<=": s <= 0, ">=": s >= 0, "==": s == 0, "!=": s != 0}[op]

    def same_lists(self, m, y, y2, where):
        """Whether C_Y(y) and C_Y(y2) are the same multiset."""
        mine, rest = [self.det(h, y) for h in sorted(m)], [self.det(h, y2) for h in sorted(m)]
        if all(v.rational() is not None for v in mine + rest):
            return sorted(v.rational() for v in mine) == sorted(v.rational() for v in rest)
        for v in mine:
            hit = next((i for i, w in enumerate(rest) if self.diff(v, w, where) == 0), None)
            if hit is None:
                return False
            del rest[hit]
        return True

    def domain(self, domain, m):
        """The classes a quantifier ranges over: every class, the members of Y, or the classes outside Y."""
        return {"classes": range(self.K), "in Y": sorted(m), "not in Y": [c for c in range(self.K) if c not in m]}[
            domain]

    def bindings(self, inner, m):
        """Every (y, y2) of the inner quantifiers at Y (y2 != y)."""
        ys = self.domain(inner[0][2], m)
        if len(inner) == 1:
            return [(y, None) for y in ys]
        return [(y, y2) for y in ys for y2 in self.domain(inner[1][2], m) if y2 != y]

    def expected(self, p, m):
        """E_p[c_Y]: the sum of p_y c_Y(y), the classes with p_y = 0 left out."""
        total = algebra.ZERO
        for y in range(self.K):
            if p[y]:
                total = total + self.cost(m, y).scaled(p[y])
        return total

    def distribution(self, values, where):
        """K rationals, one per class, that must be a probability distribution (Refuted otherwise)."""
        if not isinstance(values, list) or len(values) != self.K:
            bad(where, f"{self.K} probabilities, one per class", values)
        p = [rat(v, f"{where}[{i}]") for i, v in enumerate(values)]
        total = Fraction(0)
        for x in p:  # each partial sum within the bound: distinct long denominators grow it fast
            total = sized(total + x, where)
        if any(x < 0 for x in p) or total != 1:
            raise Refuted(f"{where}: not a probability distribution (sums to {show(total)})")
        return p


def instance_count(table, pid):
    """How many (Y, y, y2) instances a property ranges over in the family."""
    _, inner, _ = PROPERTIES[pid]
    total = 0
    for m in table.sets:
        tick()
        total += len(table.bindings(inner, m))
    return total
