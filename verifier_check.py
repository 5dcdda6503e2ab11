"""Re-check a `verify` certificate with nothing but the Python standard library (docs/certificates.md).

    python3 -S verifier_check.py CERT        python3 -S -m verifier_check CERT        verify check CERT

A certificate (written by `verify SPEC --certificate CERT`) holds a cost scheme's extended matrix, the verdict
of Properties 1-10 with their evidence, and each set's Definition 4 status and optimality with witnesses and
dual certificates. This file trusts none of it: it restates the ten properties below (from Yang, Destercke
and Masson 2017, as docs/certificates.md quotes them), enumerates every instance of a property itself, and
re-checks each witness and dual certificate in exact rational arithmetic. Irrational cells are given as
expressions (sums, products, integer powers, roots, log, exp of rationals); their signs are decided by
cancelling equal terms exactly, else by rational bounds this file derives itself (series with proven
remainders), and a comparison those bounds cannot separate is reported as not covered, never guessed.

Prints one line per claim; exit 0 when every claim checks, 1 when one is refuted, 2 for a malformed
certificate (a located message), 3 when nothing is refuted but some claim is not covered (--partial-ok
turns that into 0). Verdicts on schemes with parameters are checked at the exact points the certificate
gives, on the matrix it gives there; verdicts resting on for-all proofs over parameters are not covered.
"""

import argparse
import json
import math
import sys
from fractions import Fraction
from itertools import combinations

FORMAT, VERSION = "verify-certificate", 1
BITS = (64, 256, 1024)  # precisions tried in turn when irrational cells must be separated

# The ten properties: (quantifier of Y, [(quantifier, variable, domain) for y, y2], atom). Atoms compare terms
# of the (Y, y, y2) instance: cost c_Y(y), mean of c_h(y) over h in Y, min, max, and the sorted member costs.
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
# P1 (possibility): some indeterminate Y and distribution p with E_p[c_Y] < E_p[c_h] for every h in Y.


class Malformed(Exception):
    """The certificate is not one: exit 2 with the place."""


class Refuted(Exception):
    """A claim is false, or its evidence does not prove it."""


class Undecided(Exception):
    """A claim this file cannot decide (reported as not covered)."""


def rat(text, where):
    """A rational written "p/q" or "n" (no decimals, no floats: exactness is the point)."""
    ok = isinstance(text, str) and text and text.count("/") <= 1 and all(
        part.lstrip("-").isdigit() and part.count("-") <= (1 if i == 0 else 0) and part == part.strip()
        for i, part in enumerate(text.split("/")))
    if not ok or text.endswith("/0"):
        raise Malformed(f"{where}: expected a rational written \"p/q\" or \"n\", got {json.dumps(text)}")
    return Fraction(text)


def field(obj, key, kind, where):
    if not isinstance(obj, dict) or key not in obj:
        raise Malformed(f"{where}: missing key {key!r}")
    if not isinstance(obj[key], kind) or isinstance(obj[key], bool):
        raise Malformed(f"{where}.{key}: expected {getattr(kind, '__name__', 'a value')}, got {json.dumps(obj[key])}")
    return obj[key]


def show(q):
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


# -- exact bounds of irrational cells --------------------------------------------------------------------------
def _grid(lo, hi, b):
    s = 1 << b
    return Fraction(math.floor(lo * s), s), Fraction(math.ceil(hi * s), s)


def _iroot(n_int, n):
    """floor(n_int ** (1/n)) for an integer n_int >= 0 (Newton's method in integers)."""
    if n_int < 2:
        return n_int
    x = 1 << -(-n_int.bit_length() // n)
    while True:
        y = ((n - 1) * x + n_int // x ** (n - 1)) // n
        if y >= x:
            return x
        x = y


def _atanh2(z, b):
    """Bounds of 2 atanh(z) = log((1+z)/(1-z)) for |z| <= 1/3: the series with its remainder bound."""
    total, term, k, z2 = Fraction(0), z, 0, z * z
    while True:
        total += term / (2 * k + 1)
        k, term = k + 1, term * z2
        rest = abs(term) / ((2 * k + 1) * (1 - z2))  # the tail is at most a geometric series from here
        if rest < Fraction(1, 1 << (b + 4)):
            return 2 * (total - rest), 2 * (total + rest)


def _log(x, b):
    e = x.numerator.bit_length() - x.denominator.bit_length()
    m = x / Fraction(2) ** e  # in (1/2, 2): |(m-1)/(m+1)| < 1/3
    lo, hi = _atanh2((m - 1) / (m + 1), b)
    l2lo, l2hi = _atanh2(Fraction(1, 3), b)  # log 2
    return (lo + e * l2lo, hi + e * l2hi) if e >= 0 else (lo + e * l2hi, hi + e * l2lo)


def _exp(x, b):
    k = max(0, (abs(x).numerator // abs(x).denominator).bit_length() + 1)  # |x| / 2^k <= 1/2
    t = x / (1 << k)
    total, term, n = Fraction(0), Fraction(1), 0
    while True:
        total, n = total + term, n + 1
        term = term * t / n
        rest = 2 * abs(term)  # the tail from t^n/n! on, |t| <= 1/2
        if rest < Fraction(1, 1 << (b + k + 8)):
            break
    lo, hi = _grid(total - rest, total + rest, b + k + 8)
    for _ in range(k):  # e^x = (e^t)^(2^k); both bounds positive
        lo, hi = _grid(lo * lo, hi * hi, b + k + 8)
    return lo, hi


def bounds(tree, b, where):
    """Rational bounds of an expression of the certificate's grammar, about 2^-b wide for simple cells."""
    if isinstance(tree, str):
        v = rat(tree, where)
        return v, v
    if not isinstance(tree, list) or not tree or tree[0] not in ("+", "*", "^", "root", "log", "exp"):
        raise Malformed(f"{where}: not an expression of the grammar: {json.dumps(tree)[:80]}")
    op, args = tree[0], tree[1:]
    if op in ("^", "root") and (len(args) != 2 or not isinstance(args[1], int) or isinstance(args[1], bool)
                                or (op == "root" and args[1] < 2)):
        raise Malformed(f"{where}: {op} takes an expression and an integer exponent, got {json.dumps(tree)[:80]}")
    if op in ("log", "exp") and len(args) != 1 or op in ("+", "*") and not args:
        raise Malformed(f"{where}: wrong number of operands in {json.dumps(tree)[:80]}")
    if op == "+":
        ends = [bounds(a, b, where) for a in args]
        return _grid(sum(e[0] for e in ends), sum(e[1] for e in ends), b)
    if op == "*":
        lo, hi = Fraction(1), Fraction(1)
        for a in args:
            c, d = bounds(a, b, where)
            products = (lo * c, lo * d, hi * c, hi * d)
            lo, hi = _grid(min(products), max(products), b)
        return lo, hi
    lo, hi = bounds(args[0], b + 8, where)
    if op == "^":
        n = args[1]
        if n < 0:
            if lo <= 0 <= hi:
                raise Undecided(f"{where}: a reciprocal of a value not separated from 0")
            lo, hi, n = 1 / hi, 1 / lo, -n
        out = (Fraction(1), Fraction(1))
        for _ in range(n):
            products = (out[0] * lo, out[0] * hi, out[1] * lo, out[1] * hi)
            out = _grid(min(products), max(products), b + 8)
        return out
    if op == "root":
        n = args[1]
        if lo < 0:
            raise Undecided(f"{where}: a root of a value not proved >= 0")
        s = 1 << b
        low = Fraction(_iroot(math.floor(lo * s ** n), n), s)
        top = math.ceil(hi * s ** n)
        r = _iroot(top, n)
        return low, Fraction(r if r ** n == top else r + 1, s)
    if op == "log":
        if lo <= 0:
            raise Undecided(f"{where}: a log of a value not proved > 0")
        return _grid(_log(lo, b + 8)[0], _log(hi, b + 8)[1], b)
    return _grid(_exp(lo, b)[0], _exp(hi, b)[1], b)


class Numbers:
    """Values are linear forms {atom key: rational coefficient} (key None: the rational part), so that equal
    irrational terms cancel exactly; a nonzero form's sign comes from rational bounds of its atoms."""

    def __init__(self):
        self.trees, self.cache = {}, {}

    def cell(self, value, where):
        if isinstance(value, str):
            return {None: rat(value, where)}
        expr = field(value, "expr", (list, str, type(None)), where)
        if expr is None:
            key = "#" + where  # no expression: an atom nothing cancels and nothing can bound
            self.trees[key] = (None, where)
            return {key: Fraction(1)}
        return self.linear(expr, where)

    def linear(self, tree, where):
        if isinstance(tree, str):
            return {None: rat(tree, where)}
        if isinstance(tree, list) and tree and tree[0] == "+":
            return add(*(self.linear(a, where) for a in tree[1:]))
        if isinstance(tree, list) and tree and tree[0] == "*":
            parts = [self.linear(a, where) for a in tree[1:]]
            scale = [p[None] for p in parts if set(p) <= {None}]
            rest = [a for a, p in zip(tree[1:], parts) if not set(p) <= {None}]
            if len(rest) == 1:
                return times(math.prod(scale, start=Fraction(1)), self.linear(rest[0], where))
        key = json.dumps(tree, separators=(",", ":"))
        self.trees[key] = (tree, where)
        return {key: Fraction(1)}

    def interval(self, key, b):
        if (key, b) not in self.cache:
            tree, where = self.trees[key]
            if tree is None:
                raise Undecided(f"{where}: an irrational cell without an expression")
            self.cache[key, b] = bounds(tree, b, where)
        return self.cache[key, b]

    def quick(self, form):
        """Integer bounds of a form in units of 2^-64 (None when it cannot be bounded): a fast first try."""
        lo = hi = form.get(None, Fraction(0))
        try:
            for k, q in form.items():
                if k is not None and q:
                    a, z = self.interval(k, BITS[0])
                    lo, hi = lo + min(q * a, q * z), hi + max(q * a, q * z)
        except Undecided:
            return None
        return math.floor(lo * (1 << 64)), math.ceil(hi * (1 << 64))

    def sign(self, form, where):
        terms = {k: q for k, q in form.items() if k is not None and q}
        c = form.get(None, Fraction(0))
        if not terms:
            return (c > 0) - (c < 0)
        for b in BITS:
            lo = hi = c
            for k, q in terms.items():
                a, z = self.interval(k, b)
                lo, hi = lo + min(q * a, q * z), hi + max(q * a, q * z)
            if lo > 0 or hi < 0:
                return 1 if lo > 0 else -1
        raise Undecided(f"{where}: the bounds of its irrational cells do not separate the two sides")


def add(*forms):
    out = {}
    for f in forms:
        for k, q in f.items():
            out[k] = out.get(k, Fraction(0)) + q
    return out


def times(q, form):
    return {k: q * v for k, v in form.items()}


def text(form):
    parts = [show(q) if k is None else f"{show(q)}*{k}" for k, q in form.items() if q or k is None]
    return " + ".join(parts) if len(parts) < 4 else f"{parts[0]} + ..."


# -- the scheme --------------------------------------------------------------------------------------------------
class Scheme:
    def __init__(self, cert, matrix, where, numbers):
        self.classes = field(cert, "classes", list, "certificate")
        if len(set(self.classes)) != len(self.classes) or not all(isinstance(c, str) for c in self.classes):
            raise Malformed("certificate.classes: expected distinct class names")
        self.K, self.n, self.partial = len(self.classes), numbers, cert.get("partial") is True
        self.rows, self.fixed = {}, {}
        for i, row in enumerate(matrix):
            at = f"{where}[{i}]"
            members = self.members(field(row, "set", list, at), f"{at}.set")
            costs = field(row, "costs", list, at) if row.get("costs", 0) is not None else [None] * self.K
            if len(costs) != self.K:
                raise Malformed(f"{at}.costs: expected {self.K} costs (one per class), got {len(costs)}")
            if members in self.rows:
                raise Malformed(f"{at}.set: the set {self.label(members)} appears twice")
            self.rows[members] = [v if v is None else numbers.cell(v, f"{at}.costs[{y}]") for y, v in enumerate(costs)]
        family = field(cert, "family", dict, "certificate")
        self.sets = [m for m in self.rows if len(m) > 1]
        kind, K = family.get("kind"), self.K
        every = {"all": lambda m: True, "intervals": lambda m: max(m) - min(m) == len(m) - 1,
                 "max_size": lambda m: len(m) <= family.get("max_size", 0)}.get(kind)
        for h in range(K):
            if frozenset((h,)) not in self.rows:
                raise Refuted(f"{where}: the singleton {{{self.classes[h]}}} has no row")
        if every is not None and not self.partial:  # the family is a rule: its sets are recounted here, none may be dropped
            for n in range(2, K + 1):
                for m in map(frozenset, combinations(range(K), n)):
                    if every(m) != (m in self.rows):
                        raise Refuted(f"{where}: the {kind} family {'lacks' if every(m) else 'has no'} set "
                                      f"{self.label(m)}")

    def members(self, names, where):
        if not names or not all(isinstance(c, str) and c in self.classes for c in names) \
                or len(set(names)) != len(names):
            raise Malformed(f"{where}: expected distinct class names among {self.classes}, got {json.dumps(names)}")
        return frozenset(self.classes.index(c) for c in names)

    def cls(self, name, where):
        if name not in self.classes:
            raise Malformed(f"{where}: expected a class name among {self.classes}, got {json.dumps(name)}")
        return self.classes.index(name)

    def label(self, m):
        return "{" + ",".join(self.classes[i] for i in sorted(m)) + "}"

    def det(self, h, y):
        return self.rows[frozenset((h,))][y]

    def term(self, kind, m, y, where):
        if kind == "cost":
            return self.rows[m][y]
        if kind == "mean":
            return times(Fraction(1, len(m)), add(*(self.det(h, y) for h in m)))
        best = None
        for h in sorted(m):
            v = self.det(h, y)
            s = None if best is None else self.n.sign(add(v, times(-1, best)), where)
            if best is None or (kind == "min" and s < 0) or (kind == "max" and s > 0):
                best = v
        return best

    def atom(self, atom, m, y, y2, where):
        op, left, right = atom
        if op in ("implies", "and"):
            first = self.atom(left, m, y, y2, where)
            if op == "implies" and not first or op == "and" and not first:
                return op == "implies"
            return self.atom(right, m, y, y2, where)
        if left == "sorted":
            rest = [self.det(h, y2) for h in sorted(m)]
            for h in sorted(m):
                hit = next((i for i, v in enumerate(rest) if self.n.sign(add(self.det(h, y), times(-1, v)),
                                                                          where) == 0), None)
                if hit is None:
                    return op == "!="
                del rest[hit]
            return op == "=="
        a = self.term(left.rstrip("2"), m, y2 if left.endswith("2") else y, where)
        b = self.term(right.rstrip("2"), m, y2 if right.endswith("2") else y, where)
        s = self.n.sign(add(a, times(-1, b)), where)
        return {"<": s < 0, "<=": s <= 0, ">=": s >= 0, "==": s == 0, "!=": s != 0}[op]

    def domain(self, domain, m):
        return {"classes": range(self.K), "in Y": sorted(m), "not in Y": [c for c in range(self.K) if c not in m]}[
            domain]

    def bounds(self, n, m):
        """Integer bounds of sum_y n_y c_Y(y) (n: integers) from each cell's quick bounds, or None."""
        if m not in self.fixed:
            self.fixed[m] = [self.n.quick(c) for c in self.rows[m]]
        cells = self.fixed[m]
        if any(c is None for c in cells):
            return None
        return sum(k * c[0] for k, c in zip(n, cells)), sum(k * c[1] for k, c in zip(n, cells))

    def expected(self, p, m):
        return add(*(times(p[y], self.rows[m][y]) for y in range(self.K) if p[y]))

    def distribution(self, values, where):
        p = [rat(v, f"{where}[{i}]") for i, v in enumerate(values)] if isinstance(values, list) else None
        if p is None or len(p) != self.K:
            raise Malformed(f"{where}: expected {self.K} probabilities, one per class")
        if any(x < 0 for x in p) or sum(p) != 1:
            raise Refuted(f"{where}: not a probability distribution (sums to {show(sum(p))})")
        return p


# -- the claims -----------------------------------------------------------------------------------------------
def bindings(s, inner, m):
    """Every (y, y2) of the inner quantifiers at Y (y2 != y)."""
    ys = [(y, None) for y in s.domain(inner[0][2], m)]
    if len(inner) == 1:
        return ys
    return [(y, y2) for y, _ in ys for y2 in s.domain(inner[1][2], m) if y2 != y]


def place(s, m, y=None, y2=None):
    return f"Y={s.label(m)}" + (f", y={s.classes[y]}" if y is not None else "") + (
        f", y'={s.classes[y2]}" if y2 is not None else "")


def check_property(s, pid, claim, where):
    verdict, ev = field(claim, "verdict", str, where), field(claim, "evidence", dict, where)
    kind = field(ev, "kind", str, f"{where}.evidence")
    if verdict not in ("holds", "fails"):
        return None if verdict == "unknown" else _bad(f"{where}.verdict", "holds, fails or unknown", verdict)
    if kind == "none":
        raise Undecided(f"{verdict}: {ev.get('reason', 'no evidence given')}")
    if pid == "P1":
        return check_p1(s, verdict, ev, f"{where}.evidence")
    outer, inner, atom = PROPERTIES[pid]
    want = verdict == "holds"
    mixed = outer != inner[0][0]  # P2: for every Y, some y
    if kind == "enumerated":  # a holding "for every" or a failing "there is": the instances are all listed here
        if s.partial:
            raise Undecided("the matrix is partial: the instances cannot all be enumerated")
        if want != (outer == "forall"):
            _bad(f"{where}.evidence.kind", "a counterexample or witness for this verdict", kind)
        count = 0
        for m in s.sets:
            found = [(y, y2) for y, y2 in bindings(s, inner, m) if s.atom(atom, m, y, y2, place(s, m, y, y2))
                     != (want or mixed)]
            count += len(bindings(s, inner, m))
            if mixed and len(found) == len(bindings(s, inner, m)):
                raise Refuted(f"fails at {place(s, m)}: the atom {atom[1]} {atom[0]} {atom[2]} is false for every y")
            if found and not mixed:
                raise Refuted(f"{'fails' if want else 'holds'} at {place(s, m, *found[0])}: the atom "
                              f"{atom[1]} {atom[0]} {atom[2]} is {not want} there")
        claimed = ev.get("instances")
        if claimed != count:
            raise Refuted(f"the certificate counts {claimed} instances, the checker enumerated {count}")
        return f"{verdict}: every one of {count} instance(s) enumerated and re-checked"
    if kind not in ("counterexample", "witness") or (kind == "witness") != want:
        _bad(f"{where}.evidence.kind", "enumerated, or " + ("witness" if want else "counterexample"), kind)
    m = s.members(field(ev, "Y", list, f"{where}.evidence"), f"{where}.evidence.Y")
    if m not in s.rows or len(m) < 2:
        raise Refuted(f"{s.label(m)} is not an indeterminate set of the family")
    if mixed:
        for y, y2 in bindings(s, inner, m):
            if s.atom(atom, m, y, y2, place(s, m, y)):
                raise Refuted(f"the counterexample {place(s, m)} fails at y={s.classes[y]}: the atom holds there")
        return f"{verdict}: counterexample {place(s, m)} re-checked for every y"
    y = s.cls(ev.get("y"), f"{where}.evidence.y")
    y2 = s.cls(ev.get("y2"), f"{where}.evidence.y2") if len(inner) > 1 else None
    if (y, y2) not in bindings(s, inner, m):
        raise Refuted(f"{place(s, m, y, y2)} lies outside the property's domain")
    if s.atom(atom, m, y, y2, place(s, m, y, y2)) != want:
        raise Refuted(f"the {kind} {place(s, m, y, y2)} does not {'satisfy' if want else 'break'} the atom "
                      f"{atom[1]} {atom[0]} {atom[2]}")
    return f"{verdict}: {kind} {place(s, m, y, y2)} re-checked"


def _bad(where, expected, got):
    raise Malformed(f"{where}: expected {expected}, got {json.dumps(got)}")


def beats(s, m, p, where):
    """Definition 4 at p: E_p[c_h] - E_p[c_Y] > 0 for every member h."""
    mine = s.expected(p, m)
    for h in sorted(m):
        gap = add(s.expected(p, frozenset((h,))), times(-1, mine))
        if s.n.sign(gap, where) <= 0:
            raise Refuted(f"{where}: p does not make {s.label(m)} beat {s.classes[h]}: "
                          f"E_p[c_{s.classes[h]}] - E_p[c_Y] = {text(gap)}")


def dominated(s, m, weights, strict, where):
    """A Ville / LP dual certificate: c_Y(y) - sum_Z lambda_Z c_Z(y) >= 0 (> 0 when strict) for every y."""
    if any(w < 0 for w in weights.values()) or sum(weights.values()) != 1:
        raise Refuted(f"{where}: the multipliers are not a distribution (sum {show(sum(weights.values()))})")
    for y in range(s.K):
        gap = add(s.rows[m][y], *(times(-w, s.rows[z][y]) for z, w in weights.items() if w))
        sign = s.n.sign(gap, where)
        if sign < 0 or (strict and sign == 0):
            raise Refuted(f"{where}: the dual certificate fails at y={s.classes[y]}: c_Y(y) - sum lambda c = "
                          f"{text(gap)}")


def member_weights(s, m, lam, where):
    if not isinstance(lam, dict):
        _bad(where, "an object class -> weight", lam)
    out = {frozenset((s.cls(k, where),)): rat(v, f"{where}.{k}") for k, v in lam.items()}
    if any(len(z & m) == 0 for z in out):
        raise Refuted(f"{where}: a multiplier is on a class outside {s.label(m)}")
    return out


def check_p1(s, verdict, ev, where):
    if verdict == "holds":
        m = s.members(field(ev, "Y", list, where), f"{where}.Y")
        if m not in s.sets:
            raise Refuted(f"{s.label(m)} is not an indeterminate set of the family")
        beats(s, m, s.distribution(ev.get("p"), f"{where}.p"), f"witness p for set {s.label(m)}")
        return f"holds: witness p makes {s.label(m)} possible (Definition 4), re-checked"
    done = set()
    for i, entry in enumerate(field(ev, "sets", list, where)):
        m = s.members(field(entry, "Y", list, f"{where}.sets[{i}]"), f"{where}.sets[{i}].Y")
        dominated(s, m, member_weights(s, m, entry.get("lambda"), f"{where}.sets[{i}].lambda"), False,
                  f"impossibility certificate of {s.label(m)}")
        done.add(m)
    missing = [m for m in s.sets if m not in done]
    if missing:
        raise Refuted(f"no impossibility certificate for set {s.label(missing[0])}")
    return f"fails: {len(done)} impossibility certificate(s) re-checked, one per indeterminate set"


def check_fact(s, fact, where):
    m = s.members(field(fact, "set", list, where), f"{where}.set")
    if m not in s.rows:
        raise Refuted(f"{where}: {s.label(m)} has no row")
    for key in ("possible", "optimal") if len(m) > 1 else ("optimal",):
        entry = field(fact, key, dict, where)
        status, at = entry.get("status"), f"{where}.{key}"
        if status == "unknown":
            raise Undecided(f"{key}({s.label(m)}): {entry.get('reason', 'undecided')}")
        if key == "possible":
            if status == "possible":
                beats(s, m, s.distribution(entry.get("p"), f"{at}.p"), f"{key} witness of {s.label(m)}")
            elif status == "impossible":
                dominated(s, m, member_weights(s, m, entry.get("lambda"), f"{at}.lambda"), False,
                          f"impossibility certificate of {s.label(m)}")
            else:
                _bad(f"{at}.status", "possible, impossible or unknown", status)
            continue
        if status not in ("alone", "tied", "never"):
            _bad(f"{at}.status", "alone, tied, never or unknown", status)
        if status != "never":
            p = s.distribution(entry.get("p"), f"{at}.p")
            mine, ties = s.expected(p, m), set()
            scale = math.lcm(*(x.denominator for x in p))
            n = [int(x * scale) for x in p]
            own = s.bounds(n, m)
            for z in s.rows:
                other = None if z == m or own is None else s.bounds(n, z)
                if z == m or other is not None and other[0] > own[1]:
                    sign = 1  # bounds separate: no exact form is needed
                elif other is not None and other[1] < own[0]:
                    sign = -1
                else:
                    sign = s.n.sign(add(s.expected(p, z), times(-1, mine)), f"optimal {s.label(m)}")
                if sign < 0 or (sign == 0 and status == "alone"):
                    raise Refuted(f"{at}.p: {s.label(z)} costs {'less' if sign < 0 else 'as much'} in expectation")
                if sign == 0:
                    ties.add(z)
            named = {s.members(t, f"{at}.tied_with") for t in entry.get("tied_with", [])}
            if status == "tied" and (not named or named != ties):
                raise Refuted(f"{at}.tied_with: the sets tied at p are {sorted(map(s.label, ties))}")
        if status != "alone":
            lam = {}
            for j, part in enumerate(field(entry, "lambda", list, at)):
                z = s.members(field(part, "set", list, f"{at}.lambda[{j}]"), f"{at}.lambda[{j}].set")
                if z == m or z not in s.rows:
                    raise Refuted(f"{at}.lambda[{j}]: {s.label(z)} is not another set of the family")
                lam[z] = rat(part.get("weight"), f"{at}.lambda[{j}].weight")
            dominated(s, m, lam, status == "never", f"{status} certificate of {s.label(m)}")
    return s.label(m)


def claims(cert):
    """(name, status, message) for every claim: status "checked", "refuted", "not covered" or "no claim"."""
    if not isinstance(cert, dict) or cert.get("format") != FORMAT:
        raise Malformed(f"certificate.format: expected {FORMAT!r}")
    if cert.get("version") != VERSION:
        raise Malformed(f"certificate.version: expected {VERSION}, got {json.dumps(cert.get('version'))}")
    numbers, out = Numbers(), []

    def attempt(name, job):
        try:
            result = job()
            out.append((name, "no claim", "unknown") if result is None else (name, "checked", result))
        except Refuted as exc:
            out.append((name, "refuted", str(exc)))
        except Undecided as exc:
            out.append((name, "not covered", str(exc)))

    props = field(cert, "properties", dict, "certificate")
    try:
        return _claims(cert, props, numbers, out, attempt)
    except Refuted as exc:  # the matrix itself is wrong: nothing can be checked on it
        return out + [("matrix", "refuted", str(exc))]


def _claims(cert, props, numbers, out, attempt):
    if "matrix" in cert:
        scheme = Scheme(cert, field(cert, "matrix", list, "certificate"), "certificate.matrix", numbers)
        attempt("cells", lambda: enclosures(scheme, cert["matrix"]))
    else:  # parameters: the family's sets without costs
        scheme = Scheme(cert, [{"set": m, "costs": None} for m in field(cert, "sets", list, "certificate")],
                        "certificate.sets", numbers)
    points = field(cert, "points", list, "certificate") if "matrix" not in cert else []
    schemes = {}
    for pid in ["P1", *PROPERTIES]:
        where = f"certificate.properties.{pid}"
        claim = field(props, pid, dict, "certificate.properties")
        at = claim.get("at")
        if at is None and "matrix" in cert:
            attempt(pid, lambda: check_property(scheme, pid, claim, where))
        elif at is None:  # parameters, no point: only a vacuous "for every" is decided without values
            attempt(pid, lambda: vacuous(scheme, pid, claim, where))
        else:
            if not isinstance(at, int) or not 0 <= at < len(points):
                _bad(f"{where}.at", f"an index into certificate.points (0..{len(points) - 1})", at)
            if at not in schemes:
                schemes[at] = Scheme(cert, field(points[at], "matrix", list, f"certificate.points[{at}]"),
                                     f"certificate.points[{at}].matrix", numbers)
            values = ", ".join(f"{k}={v}" for k, v in field(points[at], "values", dict, f"certificate.points[{at}]").items())
            attempt(f"{pid} at {values}",
                    lambda: check_property(schemes[at], pid, claim, where) + " (on the certificate's matrix there)")
    before = len(out)
    for i, fact in enumerate(cert.get("set_facts", []) if "matrix" in cert else []):
        attempt(f"set_facts[{i}]", lambda: check_fact(scheme, fact, f"certificate.set_facts[{i}]"))
    facts, out[before:] = out[before:], [x for x in out[before:] if x[1] != "checked"]
    if facts and len(out) == before:  # every set checks: one line
        out.append(("sets", "checked", f"{len(facts)} sets: Definition 4 status and optimality with their "
                                       "witnesses and dual certificates re-checked"))
    if "matrix" in cert and "set_facts" in cert:
        told = {frozenset(scheme.members(f.get("set", []), "certificate.set_facts")) for f in cert["set_facts"]}
        missing = [m for m in scheme.rows if m not in told]
        if missing:
            out.append(("sets", "refuted", f"no set fact for {scheme.label(missing[0])}"))
    return out


def vacuous(s, pid, claim, where):
    """A scheme with parameters and no point: only a "for every" with no instance at all is decided."""
    if claim.get("verdict") != "holds" or field(claim, "evidence", dict, where).get("kind") != "enumerated":
        raise Undecided(claim.get("evidence", {}).get("reason", "no evidence given"))
    outer, inner, _ = PROPERTIES.get(pid, ("exists", None, None))
    if outer != "forall" or sum(len(bindings(s, inner, m)) for m in s.sets) or claim["evidence"]["instances"]:
        raise Undecided("rests on the solvers' for-all proof over every admissible parameter value")
    return "holds: vacuously, the property has no instance in this family"


def enclosures(s, matrix):
    count = 0
    for i, row in enumerate(matrix):
        for y, v in enumerate(row["costs"]):
            if isinstance(v, str):
                continue
            where = f"certificate.matrix[{i}].costs[{y}]"
            lo, hi = (rat(e, f"{where}.enclosure") for e in field(v, "enclosure", list, where))
            if v.get("expr") is None:
                raise Undecided(f"{where}: an irrational cell without an expression")
            a, b = bounds(v["expr"], BITS[1], where)
            if b < lo or a > hi:
                raise Refuted(f"{where}: the value lies in [{float(a)}, {float(b)}], outside its enclosure")
            count += 1
    return f"{count} irrational cell(s) re-bounded inside their enclosures" if count else "every cell is rational"


def main(argv=None, out=None, err=None):
    """The command: returns the exit status (0 checked, 1 refuted, 2 malformed, 3 not covered)."""
    out, err = out or sys.stdout, err or sys.stderr
    parser = argparse.ArgumentParser(prog="verifier_check", description="Re-check a verify certificate "
                                     "(docs/certificates.md) with the Python standard library only.")
    parser.add_argument("certificate", help="the certificate file (JSON) written by verify SPEC --certificate")
    parser.add_argument("--partial-ok", action="store_true", help="exit 0 when nothing is refuted even if some "
                        "claim is not covered (e.g. for-all proofs over parameters)")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # -h, or a usage error argparse has already explained
        return exc.code
    try:
        try:
            with open(args.certificate, encoding="utf-8") as handle:
                cert = json.load(handle)
        except OSError as exc:
            raise Malformed(f"cannot read it ({exc.strerror or exc})") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            where = f"line {exc.lineno}, column {exc.colno}: {exc.msg}" if hasattr(exc, "lineno") else str(exc)
            raise Malformed(f"not JSON: {where}") from None
        results = claims(cert)
    except (Malformed, RecursionError) as exc:
        reason = exc if isinstance(exc, Malformed) else "expressions nested too deeply"
        print(f"verifier_check: {args.certificate}: malformed certificate: {reason}", file=err)
        return 2
    for name, status, message in results:
        print(f"{name}: {status}: {message}", file=out)
    statuses = [status for _, status, _ in results]
    summary = {k: statuses.count(k) for k in ("checked", "refuted", "not covered")}
    print(f"{args.certificate}: {summary['checked']} checked, {summary['refuted']} refuted, "
          f"{summary['not covered']} not covered", file=out)
    if summary["refuted"]:
        return 1
    return 3 if summary["not covered"] and not args.partial_ok else 0


if __name__ == "__main__":
    sys.exit(main())
