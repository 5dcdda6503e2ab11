"""Verdicts that hold for every admissible value of the parameters, proved instance by instance.

The admissible values are the spec's assumptions, read here as constraints g > 0, g >= 0 or g = 0 (each
comparison of an assumption, for every class y where it mentions y; a part that is no comparison of two
polynomials is left out, which only widens the region, so every proof stays sound). Each instance of a
property becomes a claim f > 0, f >= 0 or f = 0 about a polynomial f in the parameters, derived here from the
spec's formulas, and its proof is one of:
  exact        f is a constant of the right sign (0 for an identity)
  products     f = c + sum_k w_k prod_j g_kj identically, c >= 0, w_k >= 0 (any sign where a factor is an
               equality), and for f > 0: c > 0 or some w_k > 0 over strict constraints only (Farkas multipliers
               for affine f; products of constraints for polynomials)
  bernstein    on the box the bound constraints give, a subdivision whose every cell has Bernstein
               coefficients >= 0 (> 0 for f > 0)
and, by the atom's shape: `member` (c_Y(y) >= c_h(y) for a member h proves the min atom; <= the max atom),
`class` (P2: the y where the cost is below the mean), P5's `costs equal`, `unmatched` (a value of one list,
C_Y(y) or C_Y(y2), equals no value of the other anywhere) and `power sums` (the costs' difference, times a
denominator proved > 0, is a combination of the differences of the lists' power sums, which vanish wherever
the lists are one multiset), and `power mean` (power_mean.py).
"""

import copy

from verifier_check import polynomials
from verifier_check.algebra import ONE, ZERO, const
from verifier_check.formula import mentions
from verifier_check.limits import Malformed, Refuted, Undecided, bad, count, field, rat, tick
from verifier_check.properties import PROPERTIES
from verifier_check.spec import comparisons

KINDS = {"Lt": "gt", "Gt": "gt", "LtE": "ge", "GtE": "ge", "Eq": "eq"}
WORDS = {"gt": "> 0", "ge": ">= 0", "eq": "= 0"}


class Region:
    """The assumptions as polynomial constraints, by (assumption index, class index or None, part index)."""

    def __init__(self, spec, costs):
        self.spec, self.parts, interpreter = spec, {}, costs.interpreter
        self.cell, self.depth, self._box = None, 0, None
        for i, formula in enumerate(spec.assume):
            found = comparisons(formula)
            for y in range(spec.K) if mentions(formula, "y") else [None]:
                local = {} if y is None else {"y": costs.ref(y)}
                for k, part in enumerate(found):
                    if part is None:
                        continue
                    op, left, right = part
                    try:
                        a = polynomials.polynomial_of(interpreter.numeric(formula, interpreter.eval(
                            formula, left, local, 0)), formula.where)
                        b = polynomials.polynomial_of(interpreter.numeric(formula, interpreter.eval(
                            formula, right, local, 0)), formula.where)
                    except Undecided:
                        continue
                    self.parts[i, y, k] = (KINDS[op], b - a if op in ("Lt", "LtE") else a - b)

    def factor(self, ref, where):
        """(kind, g) of a constraint named [assumption index, class name or null, part index]."""
        if not isinstance(ref, list) or len(ref) != 3:
            bad(where, "[assumption index, class or null, part index]", ref)
        i, name, k = ref
        y = None if name is None else self.spec.index.get(name, -1)
        if (i, y, k) not in self.parts:
            raise Refuted(f"{where}: {ref} names no constraint of the assumptions")
        return self.parts[i, y, k]

    def within(self, cell):
        """The same constraints, read on one cell of a subdivision of the box (a piecewise proof's part)."""
        view = copy.copy(self)
        view.cell, view.depth = cell, self.depth + 1
        if view.depth > 64:
            raise Malformed("a piecewise proof deeper than 64 splits, beyond the checker's bound")
        return view

    def box(self):
        """{parameter: (lo, hi)}: the cell being read, or, from the bound constraints a x + b >= 0 (or > 0, = 0),
        a closed box that holds every admissible value (a parameter without both bounds is left out)."""
        if self.cell is not None:
            return self.cell
        if self._box is None:
            self._box = self.bounds()
        return self._box

    def bounds(self):
        """The box of the bound constraints."""
        lows, highs = {}, {}
        for kind, g in self.parts.values():
            names = polynomials.names_of(g)
            if len(names) != 1 or any(sum(e for _, e in m) > 1 for m in g.terms):
                continue
            name = names[0]
            a = next(q for m, q in g.terms.items() if m)
            at = -g.terms.get((), 0) / a  # a x + b >= 0: x >= -b/a when a > 0, x <= -b/a when a < 0
            if a > 0 or kind == "eq":
                lows[name] = max(lows.get(name, at), at)
            if a < 0 or kind == "eq":
                highs[name] = min(highs.get(name, at), at)
        return {n: (lows[n], highs[n]) for n in lows if n in highs and lows[n] <= highs[n]}


def prove(region, f, want, proof, where, proofs=()):
    """Check that `proof` shows f > 0, f >= 0 or f = 0 (`want`: gt, ge, eq) at every admissible value; the
    name of the method. Refuted when the proof does not show it."""
    tick()
    proof, where = resolve(proof, proofs, where)
    by = field(proof, "by", str, where)
    if by == "exact":
        q = f.rational()
        if q is None or not {"gt": q > 0, "ge": q >= 0, "eq": q == 0}[want]:
            raise Refuted(f"{where}: {f!r} is not a constant {WORDS[want]}")
        return "exact"
    polynomials.polynomial_of(f, where)
    if by == "products":
        return products(region, f, want, proof, where)
    if by == "bernstein":
        if want == "eq":
            bad(f"{where}.by", "exact or products for an equality", by)
        leaves = polynomials.check_tree(f, region.box(), want, proof.get("tree"), f"{where}.tree")
        return f"Bernstein ({count(leaves, 'cell')})"
    bad(f"{where}.by", "exact, products or bernstein", by)


def split(region, proof, where, job):
    """A claim proved on the two halves of the box (closed cells, which cover it): `job(region on a half, that
    half's proof, its place)`; the name of the method."""
    box = region.box()
    name = field(proof, "parameter", str, where)
    at = rat(field(proof, "at", str, where), f"{where}.at")
    if name not in box or not box[name][0] < at < box[name][1]:
        bad(f"{where}.at", f"a point strictly inside the range of a bounded parameter ({sorted(box)})", proof["at"])
    lo, hi = box[name]
    job(region.within({**box, name: (lo, at)}), field(proof, "below", dict, where), f"{where}.below")
    job(region.within({**box, name: (at, hi)}), field(proof, "above", dict, where), f"{where}.above")
    return "pieces"


def resolve(proof, proofs, where):
    """(proof, place): a proof given in place, or {"ref": k}, the k-th of the evidence's shared proofs."""
    if isinstance(proof, dict) and set(proof) == {"ref"}:
        ref = proof["ref"]
        if type(ref) is not int or not 0 <= ref < len(proofs):
            bad(f"{where}.ref", f"an index into the evidence's proofs (0..{len(proofs) - 1})", ref)
        if not isinstance(proofs[ref], dict) or set(proofs[ref]) == {"ref"}:
            bad(f"{where}.ref", "a proof (not another reference)", proofs[ref])
        return proofs[ref], f"{where} (proofs[{ref}])"
    return proof, where


def products(region, f, want, proof, where):
    """f = c + sum_k w_k prod_j g_kj, exactly, with the signs that make it a proof."""
    c = rat(proof.get("constant", "0"), f"{where}.constant")
    total, strict, terms = const(c), c > 0, field(proof, "terms", list, where)
    if len(terms) > 10_000 or c < 0 or (want == "eq" and c):
        bad(f"{where}.constant", "a constant >= 0 (0 for an equality), and at most 10,000 terms", proof.get("constant"))
    for j, term in enumerate(terms):
        at = f"{where}.terms[{j}]"
        w = rat(field(term, "weight", str, at), f"{at}.weight")
        factors = [region.factor(r, f"{at}.factors[{i}]") for i, r in enumerate(field(term, "factors", list, at))]
        if not 1 <= len(factors) <= 4:
            bad(f"{at}.factors", "one to four constraints", term.get("factors"))
        zero = any(kind == "eq" for kind, _ in factors)  # a product with an equality vanishes on the region
        if (w < 0 and not zero) or (want == "eq" and not zero):
            raise Refuted(f"{at}: a weight {w} on a product that is {'not ' if not zero else ''}an equality")
        product = ONE
        for _, g in factors:
            product = product * g
        total = total + product.scaled(w)
        strict = strict or (w > 0 and all(kind == "gt" for kind, _ in factors))
    rest = f - total
    if rest.terms:
        raise Refuted(f"{where}: the identity does not hold: f minus the combination is {rest!r}")
    if want == "gt" and not strict:
        raise Refuted(f"{where}: no strict part (a positive constant, or a weight on strict constraints only)")
    return "Farkas multipliers" if all(len(t["factors"]) == 1 for t in terms) else "products of constraints"


def check_for_all(t, region, pid, ev, where):
    """A "for every" property proved at every admissible value, instance by instance."""
    from verifier_check.power_mean import lemma_instance

    outer, inner, atom = PROPERTIES[pid]
    proofs = field(ev, "proofs", list, where) if "proofs" in ev else []
    given, methods = {}, {}
    for i, entry in enumerate(field(ev, "instances", list, where)):
        at = f"{where}.instances[{i}]"
        m = t.indeterminate(field(entry, "Y", list, at), f"{at}.Y")
        y = t.cls(entry["y"], f"{at}.y") if "y" in entry and pid != "P2" else None
        y2 = t.cls(entry["y2"], f"{at}.y2") if "y2" in entry else None
        if (m, y, y2) in given:
            bad(at, "each instance once", entry)
        given[m, y, y2] = (field(entry, "proof", dict, at), at)
    total = 0
    for m in t.sets:
        pairs = [(None, None)] if pid == "P2" else t.bindings(inner, m)
        for y, y2 in pairs:
            tick()
            if (m, y, y2) not in given:
                raise Refuted(f"{where}: no proof for the instance {t.place(m, y, y2)}")
            proof, at = given.pop((m, y, y2))
            method = instance(t, region, pid, atom, m, y, y2, proof, f"{at}.proof", proofs, lemma_instance)
            methods[method] = methods.get(method, 0) + 1
            total += 1
    if given:
        (m, y, y2), (_, at) = next(iter(given.items()))
        raise Refuted(f"{at}: {t.place(m, y, y2)} is not an instance of {pid} in this family")
    said = ", ".join(f"{n} by {k}" for k, n in sorted(methods.items(), key=lambda kv: -kv[1]))
    return f"holds for every admissible value: {count(total, 'instance')}, each proved ({said})"


def instance(t, region, pid, atom, m, y, y2, proof, where, proofs, lemma_instance):
    """One instance's proof; the name of its method."""
    proof, where = resolve(proof, proofs, where)
    by = field(proof, "by", str, where)
    if by == "split":
        return split(region, proof, where, lambda r, p, w: instance(t, r, pid, atom, m, y, y2, p, w, proofs,
                                                                       lemma_instance))
    if by == "power mean":
        return lemma_instance(t, region, pid, m, y, y2, proof, where, proofs)
    if pid == "P2":  # for some y: c_Y(y) < the mean
        if by != "class":
            bad(f"{where}.by", "class (the y where the cost is below the mean)", by)
        y = t.cls(proof.get("y"), f"{where}.y")
        return prove(region, t.term("mean", m, y, where) - t.cost(m, y), "gt", field(proof, "proof", dict, where),
                     f"{where}.proof", proofs)
    op, left, right = atom
    if op == "implies":
        return p5(t, region, m, y, y2, proof, where, proofs)
    if right in ("min", "max"):
        if by != "member":
            bad(f"{where}.by", "member (a member h with c_Y(y) on the right side of c_h(y))", by)
        h = t.cls(proof.get("h"), f"{where}.h")
        if h not in m:
            raise Refuted(f"{where}.h: {t.classes[h]} is not a member of {t.label(m)}")
        f = t.cost(m, y) - t.det(h, y) if right == "min" else t.det(h, y) - t.cost(m, y)
        return prove(region, f, "ge", field(proof, "proof", dict, where), f"{where}.proof", proofs)
    if right == "cost2":  # P8
        return prove(region, t.cost(m, y) - t.cost(m, y2), "eq", proof, where, proofs)
    mean, cost = t.term("mean", m, y, where), t.cost(m, y)
    f, want = {"<": (mean - cost, "gt"), "<=": (mean - cost, "ge"), ">=": (cost - mean, "ge")}[op]
    return prove(region, f, want, proof, where, proofs)


def p5(t, region, m, y, y2, proof, where, proofs):
    """C_Y(y) = C_Y(y2) as multisets implies c_Y(y) = c_Y(y2), at every admissible value."""
    by = proof["by"]
    if by == "costs equal":
        return "equal costs, " + prove(region, t.cost(m, y) - t.cost(m, y2), "eq", field(proof, "proof", dict, where),
                                       f"{where}.proof", proofs)
    if by == "unmatched":
        return unmatched(t, region, m, y, y2, proof, where, proofs)
    if by == "power sums":
        multipliers = field(proof, "multipliers", list, where)
        if len(multipliers) != len(m):
            bad(f"{where}.multipliers", f"{len(m)} polynomials, one per power sum", multipliers)
        f = t.cost(m, y) - t.cost(m, y2)
        polynomials.polynomial_of(f, where)
        if "denominator" in proof:  # D f = sum_k m_k (power sum differences), D > 0: f vanishes where they do
            d = polynomials.read(proof["denominator"], sorted(region.spec.symbols), f"{where}.denominator")
            prove(region, d, "gt", field(proof, "positive", dict, where), f"{where}.positive", proofs)
            f = f * d
        for k, poly in enumerate(multipliers, start=1):
            difference = ZERO
            for h in sorted(m):
                difference = difference + power(t.det(h, y), k) - power(t.det(h, y2), k)
            f = f - polynomials.read(poly, sorted(region.spec.symbols), f"{where}.multipliers[{k - 1}]") * difference
        if f.terms:
            raise Refuted(f"{where}: the costs' difference is not that combination of power sums ({f!r} is left)")
        return "power sums"
    bad(f"{where}.by", "costs equal, unmatched, power sums or power mean", by)


def unmatched(t, region, m, y, y2, proof, where, proofs):
    """A member h whose c_h(y) differs from every c_h2(y2), h2 in Y, at every admissible value: the lists are
    never one multiset."""
    if proof.get("in", "y") not in ("y", "y2"):
        bad(f"{where}.in", "y or y2 (the list whose value h is)", proof.get("in"))
    if proof.get("in") == "y2":  # the value is c_h(y2), apart from every value of C_Y(y)
        y, y2 = y2, y
    h = t.cls(proof.get("h"), f"{where}.h")
    differs = field(proof, "differs", dict, where)
    if h not in m or sorted(differs) != sorted(t.classes[k] for k in m):
        bad(f"{where}.differs", f"one proof per member of {t.label(m)}, h a member", differs)
    for name, part in differs.items():
        sign = part.get("sign") if isinstance(part, dict) else None
        if sign not in (1, -1):
            bad(f"{where}.differs.{name}.sign", "1 or -1", sign)
        gap = t.det(h, y) - t.det(t.index[name], y2)
        prove(region, gap if sign == 1 else -gap, "gt", field(part, "proof", dict, f"{where}.differs.{name}"),
              f"{where}.differs.{name}.proof", proofs)
    return "unmatched lists"


def power(value, k):
    """value ** k for a small whole k."""
    out = ONE
    for _ in range(k):
        out = out * value
    return out


def witness_p1(t, region, ev, where):
    """P1 at every admissible value: a set Y and a distribution p(theta) (polynomials) with p >= 0, sum p = 1
    and E_p[c_h] - E_p[c_Y] > 0 for every member h, each proved; or a split of the box, a witness per part."""
    if ev.get("by") == "split":
        split(region, ev, where, lambda r, e, w: witness_p1(t, r, e, w))
        return "holds for every admissible value: on each part of a subdivision of the parameters' box, a " \
               "distribution makes a set possible (Definition 4), each inequality proved"
    m = t.indeterminate(field(ev, "Y", list, where), f"{where}.Y")
    names = sorted(region.spec.symbols)
    p = [polynomials.read(v, names, f"{where}.p[{i}]") for i, v in enumerate(field(ev, "p", list, where))]
    if len(p) != t.K:
        bad(f"{where}.p", f"{t.K} polynomials, one per class", ev["p"])
    total = ZERO
    for v in p:
        total = total + v
    if (total - ONE).terms:
        raise Refuted(f"{where}.p: the probabilities do not sum to 1 identically ({total!r})")
    proofs, positive = field(ev, "nonnegative", list, where), field(ev, "beats", list, where)
    if len(proofs) != t.K or len(positive) != len(m):
        bad(where, f"{t.K} proofs of p >= 0 and {len(m)} of the members' margins", "(other counts)")
    for i, v in enumerate(p):
        prove(region, v, "ge", proofs[i], f"{where}.nonnegative[{i}]")
    expected = lambda z: sum((t.cost(z, k) * p[k] for k in range(t.K)), ZERO)  # noqa: E731
    mine = expected(m)
    for j, h in enumerate(sorted(m)):
        prove(region, expected(frozenset((h,))) - mine, "gt", positive[j], f"{where}.beats[{j}]")
    return f"holds for every admissible value: p(theta) makes {t.label(m)} possible (Definition 4), each " \
           f"inequality proved"


def witness_p9(t, region, ev, where):
    """P9 at every admissible value: an instance whose lists never agree and whose costs always differ (or a
    split of the box, an instance per part)."""
    if ev.get("by") == "split":
        split(region, ev, where, lambda r, e, w: witness_p9(t, r, e, w))
        return "holds for every admissible value: on each part of a subdivision of the parameters' box, an " \
               "instance witnesses it, its inequalities proved"
    m = t.indeterminate(field(ev, "Y", list, where), f"{where}.Y")
    y, y2 = t.cls(ev.get("y"), f"{where}.y"), t.cls(ev.get("y2"), f"{where}.y2")
    if y == y2 or y not in m or y2 not in m:
        raise Refuted(f"{where}: {t.place(m, y, y2)} lies outside the property's domain")
    unmatched(t, region, m, y, y2, field(ev, "lists", dict, where), f"{where}.lists", [])
    costs = field(ev, "costs", dict, where)
    gap = t.cost(m, y) - t.cost(m, y2)
    if costs.get("sign") not in (1, -1):
        bad(f"{where}.costs.sign", "1 or -1", costs.get("sign"))
    prove(region, gap if costs["sign"] == 1 else -gap, "gt", field(costs, "proof", dict, f"{where}.costs"),
          f"{where}.costs.proof")
    return f"holds for every admissible value: {t.place(m, y, y2)} witnesses it, its inequalities proved"
