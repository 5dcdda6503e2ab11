"""The power-mean lemmas, for set costs c_Y(y) = M_q(c_h(y) : h in Y), the generalized mean of Eq. 12 (M_0 the
geometric mean). For values x_1..x_n >= 0 (q >= 0 where some x is 0, so that M_q is defined):
  bounds      min x <= M_q(x) <= max x                                      (P4, P10)
  multiset    M_q(x) depends only on the multiset of the x                  (P5)
  power mean  M_q(x) <= mean(x) for q <= 1 and >= mean(x) for q >= 1, strictly for q != 1 unless all x are
              equal                                                         (P2, P3, P6, P7)
Two routes read them. With the exponent q a polynomial in the parameters, a cell derived here is one power-mean
atom over the members' costs, and each instance's premises about q are proved as any claim over the parameters
(`lemma_instance`). With numbers beyond enumeration (40 classes: 2^40 sets), the set-cost formula must be, as
written, genmean(E, [c(yh, y) for yh in Y]) with no listed rows, so every c_Y(y) is M_E of its members' costs,
and each property's premises are re-derived on the K x K costs (`check_lemma`).
"""

import ast

from verifier_check import algebra, bounds
from verifier_check.algebra import NESTED
from verifier_check.limits import Refuted, Undecided, tick

SHAPES = {"P4": "bounds", "P10": "bounds", "P5": "multiset", "P2": "vs mean", "P3": "vs mean", "P6": "vs mean",
          "P7": "vs mean"}


def genmean_parts(value):
    """(q, values) when the value is exactly one power-mean atom whose exponent depends on the parameters."""
    if len(value.terms) != 1:
        return None
    (m, c), = value.terms.items()
    if c != 1 or len(m) != 1 or m[0][1] != 1 or m[0][0] not in NESTED or NESTED[m[0][0]][0] != "genmean":
        return None
    _, q, xs = NESTED[m[0][0]]
    return q, xs


def lemma_instance(t, region, pid, m, y, y2, proof, where, proofs):
    """One instance proved by a power-mean lemma with an exponent q in the parameters."""
    from verifier_check.for_all import prove

    shape = SHAPES.get(pid)
    if shape is None:
        raise Refuted(f"{where}: no power-mean lemma speaks of {pid}")
    if pid == "P2":  # for some y: the y named, where the cost is below the mean
        y = t.cls(proof.get("y"), f"{where}.y")
    q = mean_of(t, m, y, where)
    if shape == "multiset":
        if mean_of(t, m, y2, where).key() != q.key():
            raise Refuted(f"{where}: the two cells are power means of different exponents")
        defined(t, region, m, (y, y2), q, proof, where, proofs)
        return "power mean (multiset)"
    defined(t, region, m, (y,), q, proof, where, proofs)
    if shape == "bounds":
        return "power mean (bounds)"
    op = {"P2": "<", "P3": "<", "P6": ">=", "P7": "<="}[pid]
    gap = q - algebra.ONE if op == ">=" else algebra.ONE - q
    prove(region, gap, "gt" if op == "<" else "ge", proof.get("exponent"), f"{where}.exponent", proofs)
    if op == "<":  # strictly below the mean unless every value is equal
        values = [t.det(h, y) for h in sorted(m)]
        if not any(t.diff(v, values[0], where) for v in values[1:]):
            raise Refuted(f"{where}: every member costs the same at y={t.classes[y]}, so the mean is reached")
    return "power mean (inequality)"


def mean_of(t, m, y, where):
    """The exponent q of the cell c_Y(y), which must be M_q of the members' costs c_h(y), h in Y."""
    parts = genmean_parts(t.cost(m, y))
    if parts is None:
        raise Refuted(f"{where}: c_Y(y) at {t.place(m, y)} is not a power mean with an exponent in the parameters")
    q, xs = parts
    if sorted(x.key() for x in xs) != sorted(t.det(h, y).key() for h in m):
        raise Refuted(f"{where}: c_Y(y) at {t.place(m, y)} is a power mean of other values than its members' costs")
    return q


def defined(t, region, m, ys, q, proof, where, proofs):
    """Every value >= 0, and q >= 0 (proved) where a value is 0."""
    from verifier_check.for_all import prove

    zero = False
    for y in ys:
        for h in m:
            s = bounds.sign(t.det(h, y), where)
            if s < 0:
                raise Refuted(f"{where}: a negative cost under a power mean")
            zero = zero or s == 0
    if zero or "defined" in proof:  # needed where a value is 0; checked wherever it is given
        prove(region, q, "ge", proof.get("defined"), f"{where}.defined", proofs)


def formula_shape(spec):
    """The exponent formula E when set_cost is genmean(E, [c(yh, y) for yh in Y]) with no listed rows; None."""
    f = spec.set_cost
    if f is None or spec.set_costs or (spec.cost is None and spec.cost_matrix is None):
        return None
    tree = f.tree
    if not (isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id == "genmean" and
            len(tree.args) == 2 and isinstance(tree.args[1], ast.ListComp) and "genmean" not in spec.functions):
        return None
    comp, exponent = tree.args[1], tree.args[0]
    gen = comp.generators[0]
    elt = comp.elt
    reads_c = isinstance(elt, ast.Call) and isinstance(elt.func, ast.Name) and elt.func.id == "c" and \
        "c" not in spec.functions and len(elt.args) == 2
    if gen.ifs or gen.target.id in ("y", "Y", "K") or not reads_c or not (  # the loop must not hide the truth y
            isinstance(elt.args[0], ast.Name) and elt.args[0].id == gen.target.id and
            isinstance(elt.args[1], ast.Name) and elt.args[1].id == "y"):
        return None
    used = {n.id for n in ast.walk(exponent) if isinstance(n, ast.Name)}
    if used & {"y", "Y", "yhat", gen.target.id}:
        return None
    return exponent


def check_lemma(t, pid, verdict, ev, where):
    """A numeric verdict decided by the lemmas on the K x K costs instead of by listing sets."""
    shape = SHAPES.get(pid)
    exponent = formula_shape(t.spec)
    if verdict != "holds" or shape is None or exponent is None:
        raise Undecided(f"{pid} {verdict}: no power-mean lemma applies (the set cost must be written "
                        "genmean(E, [c(yh, y) for yh in Y]), with no listed rows)")
    f = t.spec.set_cost
    q = t.costs.interpreter.numeric(f, t.costs.interpreter.eval(f, exponent, {}, 0)).rational()
    if q is None:
        raise Undecided(f"{pid}: the exponent of genmean is not rational")
    K, det = t.K, [[t.costs.det(h, y) for y in range(t.K)] for h in range(t.K)]
    signs = [[bounds.sign(det[h][y], where) for y in range(K)] for h in range(K)]
    if any(s < 0 for row in signs for s in row) or (q < 0 and any(s == 0 for row in signs for s in row)):
        raise Refuted(f"{where}: the power means are not defined: a cost is negative, or 0 under an exponent < 0")
    said = "the bounds lemma" if shape == "bounds" else "the multiset lemma" if shape == "multiset" else None
    if said is None:
        said = premises(t, pid, q, det, where)
    return f"holds: by {said}, re-derived on the {K} x {K} costs (genmean exponent {q}), for every set of the family"


def premises(t, pid, q, det, where):
    """The premises of the power-mean inequality for P2, P3, P6, P7, re-derived exactly; what they are."""
    K = t.K

    def same(a, b):
        tick()
        return t.diff(a, b, where) == 0

    if pid in ("P6", "P7"):
        right = q <= 1 if pid == "P7" else q >= 1
        constant = all(same(det[h][y], det[next(k for k in range(K) if k != y)][y])
                       for y in range(K) for h in range(K) if h != y)
        if not (right or constant):
            raise Refuted(f"{where}: the exponent {q} is on the wrong side of 1 and some column's costs differ off "
                          "the diagonal")
        return f"the power-mean inequality (q = {q} {'<=' if pid == 'P7' else '>='} 1)" if right else \
            "the power-mean inequality (every column constant off the diagonal)"
    if q >= 1:
        raise Refuted(f"{where}: the exponent {q} is not below 1")
    if pid == "P3":
        hit = next(((h, y) for y in range(K) for h in range(K) if h != y and same(det[h][y], det[y][y])), None)
        if hit:
            raise Refuted(f"{where}: at y={t.classes[hit[1]]} the class {t.classes[hit[0]]} costs c_y(y)")
        return f"the power-mean inequality (q = {q} < 1, no cost equal to the diagonal's in its column)"
    twins = next(((a, b) for a in range(K) for b in range(a + 1, K)
                  if all(same(det[a][y], det[b][y]) for y in range(K))), None)
    if twins:
        raise Refuted(f"{where}: the classes {t.classes[twins[0]]} and {t.classes[twins[1]]} have the same row")
    return f"the power-mean inequality (q = {q} < 1, no two rows equal)"
