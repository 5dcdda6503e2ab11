"""Re-check a `verify` certificate with nothing but the Python standard library (docs/certificates.md).

    python3 -S verifier_check.py CERT        python3 -m verifier_check CERT        verify check CERT

A certificate (`verify SPEC --certificate CERT`) holds a cost scheme's extended matrix, the verdicts of
Properties 1-10 with their evidence, and each set's Definition 4 status and optimality with witnesses and
dual certificates. This file trusts none of the verdicts: it states the ten properties itself (below),
enumerates every instance of a property on its own, and re-checks each witness and dual certificate in exact
rational arithmetic. Irrational cells come as expressions (sums, products, integer powers, roots, log, exp);
equal terms cancel exactly, other signs come from rational bounds derived here (series with proven
remainders), and a comparison those bounds cannot separate is reported "not covered", never guessed.

One line per claim. Exit 0: every claim checks; 1: one is refuted; 2: the certificate is malformed (the
message names the place; also a certificate beyond the checker's bounds on digits, exponents, expression size
or time, so that no file makes it crash, hang or exhaust memory); 3: nothing is refuted but some claim is not
covered (--partial-ok: 0). A scheme with parameters: a failing verdict is checked at the exact point the
certificate gives, on the matrix it gives there; a holding one claims every admissible value, which no point
proves: it is not covered (refuted if it offers a point as its evidence).
"""

import argparse
import json
import math
import os
import stat
import sys
import time
from fractions import Fraction
from itertools import combinations

FORMAT, VERSION = "verify-certificate", 1
BITS = (64, 256, 1024)  # precisions tried in turn to separate irrational values
# bounds on what a certificate may ask (exit 2 beyond): digits of a rational's numerator and denominator, bits of
# any value, integer exponents, root orders, nodes and depth of one cell's expression, an exp argument, cells of
# one matrix (as the tool writes them); the bundled specs need 90 digits, powers 4, roots 3, 23 nodes, depth 6
MAX_DIGITS, MAX_BITS, MAX_POWER, MAX_ROOT, MAX_NODES, MAX_DEPTH, MAX_EXP = 1000, 12000, 1000, 100, 1000, 40, 8000
MAX_CELLS, FAMILIES = 100_000, ("all", "intervals", "max_size", "hierarchy", "sets")
# the time budget (--time-limit) and the place being checked
LIMIT, DEADLINE, PLACE = 1 << MAX_BITS, [math.inf], ["certificate"]

# Yang, Destercke & Masson (2017), Properties 2-10, for indeterminate Y of the family: (quantifier of Y,
# quantifiers of y and y2 (y2 != y) with their domains, atom). Atom terms: cost = c_Y(y); mean, min, max of
# c_h(y) over the members h of Y; sorted = the multiset of c_h(y); a trailing 2 reads y2 instead of y.
# P1 (Definition 4): some indeterminate Y and distribution p with E_p[c_Y] < E_p[c_h] for every h in Y.
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


class Malformed(Exception):
    """Not a certificate: exit 2, with the place."""


class Refuted(Exception):
    """A claim is false, or its evidence does not prove it."""


class Undecided(Exception):
    """A claim this file cannot decide: not covered."""


class OverBudget(Malformed):
    """The check ran past its time budget: exit 2, with the place it had reached."""


def tick(where=None):
    """Stop at the time budget (called in every loop whose length the certificate chooses)."""
    if where:
        PLACE[0] = where
    if time.monotonic() > DEADLINE[0]:
        raise OverBudget(f"{PLACE[0]}: the check ran past its time budget (--time-limit)")


def sized(q, where=None):
    """A rational of at most MAX_BITS bits above and below (so that no value grows without end)."""
    if max(abs(q.numerator).bit_length(), q.denominator.bit_length()) > MAX_BITS:
        raise Malformed(f"{where or PLACE[0]}: a value beyond the checker's bound of {MAX_BITS} bits")
    return q


def total(values, where):
    """The sum of rationals, each partial sum within the bound (distinct long denominators grow it fast)."""
    out = Fraction(0)
    for q in values:
        out = sized(out + q, where)
    return out


def rat(text, where):
    """A rational written "p/q" or "n" (no decimals or floats: exactness is the point)."""
    num, slash, den = text.partition("/") if isinstance(text, str) else ("", "", "")
    if max(len(num.lstrip("-")), len(den)) > MAX_DIGITS:
        raise Malformed(f"{where}: a rational of {len(text):,} characters, beyond the checker's bound of "
                        f"{MAX_DIGITS} digits above and below the line")
    digits = lambda s: s.isascii() and s.isdigit()  # noqa: E731 (ASCII only: int() reads other digits too)
    if not digits(num[1:] if num.startswith("-") else num) or slash and (not digits(den) or not int(den)):
        bad(where, 'a rational written "p/q" or "n"', text)
    return Fraction(int(num), int(den) if slash else 1)


def _count(n, noun):
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def field(obj, key, kind, where):
    """obj[key], of type `kind` and never a bool; Malformed naming the place otherwise."""
    if not isinstance(obj, dict) or key not in obj:
        raise Malformed(f"{where}: missing key {key!r}")
    if not isinstance(obj[key], kind) or isinstance(obj[key], bool):
        bad(f"{where}.{key}", getattr(kind, "__name__", "a value"), obj[key])
    return obj[key]


def bad(where, expected, got):
    """Raise Malformed: at `where`, expected this, got that (as JSON, cut to 80 characters)."""
    raise Malformed(f"{where}: expected {expected}, got {json.dumps(got, default=repr)[:80]}")


class Number:
    """A JSON number the format has no use for (a float, a constant, an integer of more than 18 digits), kept
    as its text: never converted, so that a million digits cost nothing; refused where it is read."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return f"the JSON number {self.text[:20]}" + (f"... ({len(self.text):,} characters)" if len(self.text) > 20
                                                       else "")


class Twice(dict):
    """A JSON object that repeats a key (refused with its place once the whole document is read)."""


def load(data):
    """The certificate's JSON: numbers other than short integers kept as text, repeated keys refused."""
    def pairs(items):
        out = dict(items)
        if len(out) < len(items):
            seen = set()
            out = Twice(out)
            out.key = next(k for k, _ in items if k in seen or seen.add(k))
            found.append(out)
        return out
    found = []
    cert = json.loads(data, object_pairs_hook=pairs, parse_float=Number, parse_constant=Number,
                      parse_int=lambda t: int(t) if len(t.lstrip("-")) <= 18 else Number(t))
    stack = [(cert, "certificate")] if found else []
    while stack:  # where the repeated key is: the path of the first such object found
        node, path = stack.pop()
        if isinstance(node, Twice):
            raise Malformed(f"{path}: the key {node.key!r} appears twice (JSON readers disagree on which counts)")
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        stack.extend((v, f"{path}.{k}" if isinstance(node, dict) else f"{path}[{k}]") for k, v in items)
    return cert


# -- rational bounds of irrational cells ------------------------------------------------------------------------
def grid(lo, hi, b):
    """Round outward to multiples of 2^-b (keeps the numbers short)."""
    return Fraction(math.floor(lo * (1 << b)), 1 << b), Fraction(math.ceil(hi * (1 << b)), 1 << b)


def iroot(n, k):
    """floor(n ** (1/k)) for an integer n >= 0 (Newton's method in integers)."""
    if n < 2:
        return n
    x = 1 << -(-n.bit_length() // k)
    while (y := ((k - 1) * x + n // x ** (k - 1)) // k) < x:
        x = y
    return x


def atanh2(z, b):
    """Bounds of 2 atanh(z) = log((1+z)/(1-z)), |z| <= 1/3: the series in integers scaled by 2^(b+16), each term
    rounded outward, and its tail bounded by a geometric one (|z|^(2n+1) / ((2n+1)(1-z^2)), 1-z^2 >= 8/9)."""
    q, a = 1 << (b + 16), abs(z)
    lo, hi = (a * q).__floor__(), (a * q).__ceil__()  # a^(2n+1) q, from below and from above
    sq_lo, sq_hi, n, total_lo, total_hi = (a * a * q).__floor__(), (a * a * q).__ceil__(), 0, 0, 0
    while 9 * hi >= 8 * (2 * n + 1) << 16:  # until the tail is below 2^-b
        total_lo, total_hi = total_lo + lo // (2 * n + 1), total_hi - (-hi // (2 * n + 1))
        lo, hi, n = lo * sq_lo // q, -(-hi * sq_hi // q), n + 1
    total_hi += -(-9 * hi // (8 * (2 * n + 1)))
    ends = (Fraction(2 * total_lo, q), Fraction(2 * total_hi, q))
    return ends if z >= 0 else (-ends[1], -ends[0])


def log_bounds(x, b):
    """Bounds of log x, x > 0 rational: log m + e log 2 for x = m 2^e, m in (1/2, 2), by `atanh2` series."""
    e = x.numerator.bit_length() - x.denominator.bit_length()
    m = x / Fraction(2) ** e  # in (1/2, 2), so |(m-1)/(m+1)| < 1/3; log x = log m + e log 2
    lo, hi = atanh2((m - 1) / (m + 1), b)
    l2lo, l2hi = atanh2(Fraction(1, 3), b)
    return (lo + e * l2lo, hi + e * l2hi) if e >= 0 else (lo + e * l2hi, hi + e * l2lo)


def exp_bounds(x, b):
    """e^x for |x| <= MAX_EXP: the Taylor series of e^t, t = |x| / 2^k < 1/2, in integers scaled by 2^p (terms
    rounded outward, the tail at most twice the first omitted term), squared k times; then 1 / e^|x| if x < 0."""
    k = (abs(x).numerator // abs(x).denominator).bit_length() + 1
    p = b + k + 16
    q, t = 1 << p, abs(x) / (1 << k)
    t_lo, t_hi, lo, hi, n, total_lo, total_hi = (t * q).__floor__(), (t * q).__ceil__(), q, q, 0, 0, 0
    while 2 * hi >= 1 << 8:  # t^n / n! scaled, from below and above, until the tail is below 2^-(b+k+8)
        total_lo, total_hi, n = total_lo + lo, total_hi + hi, n + 1
        lo, hi = lo * t_lo // (q * n), -(-hi * t_hi // (q * n))
    lo, hi = total_lo, total_hi + 2 * hi
    for _ in range(k):  # e^|x| = (e^t)^(2^k)
        lo, hi = lo * lo >> p, -(-hi * hi >> p)
    return (Fraction(lo, q), Fraction(hi, q)) if x >= 0 else (Fraction(q, hi), Fraction(q, lo))


def grammar(tree, where):
    """An expression of the grammar (docs/certificates.md) within the checker's bounds, before any arithmetic."""
    stack, nodes, where = [(tree, 1)], 0, f"{where}.expr"
    while stack:
        node, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES or depth > MAX_DEPTH:
            raise Malformed(f"{where}: more than {MAX_NODES} nodes or {MAX_DEPTH} levels, beyond the checker's bounds")
        if isinstance(node, str):
            rat(node, where)
            continue
        op, args = (node[0], node[1:]) if isinstance(node, list) and node else (None, [])
        n = args[1] if len(args) == 2 and type(args[1]) is int else None
        if op in ("^", "root") and n is not None and not (abs(n) <= MAX_POWER if op == "^" else 2 <= n <= MAX_ROOT):
            raise Malformed(f"{where}: {'the exponent' if op == '^' else 'the root order'} {n} is beyond the checker's "
                            f"bounds ({f'at most {MAX_POWER}' if op == '^' else f'2 to {MAX_ROOT}'})")
        if not ((op in ("+", "*") and args) or (op in ("log", "exp") and len(args) == 1) or
                (op in ("^", "root") and n is not None)):
            bad(where, "an expression of the certificate grammar", node)
        stack.extend((a, depth + 1) for a in (args if op in ("+", "*") else args[:1]))
    return tree


def within(lo, hi, where):
    """(lo, hi) unchanged, or Malformed if either end is beyond 2^MAX_BITS in size."""
    if max(abs(lo), abs(hi)) > LIMIT:
        raise Malformed(f"{where}: a value beyond 2^{MAX_BITS}, the checker's bound")
    return lo, hi


def bounds(tree, b, where):
    """Rational bounds of an expression of the grammar (checked by `grammar`), about 2^-b wide."""
    tick(where)
    if isinstance(tree, str):
        return rat(tree, where), rat(tree, where)
    op, args = tree[0], tree[1:]
    ends = [bounds(a, b + 8, where) for a in (args if op in ("+", "*") else args[:1])]
    if op == "+":
        return within(*grid(sum(e[0] for e in ends), sum(e[1] for e in ends), b), where)
    if op == "*":
        lo = hi = Fraction(1)
        for c, d in ends:
            products = (lo * c, lo * d, hi * c, hi * d)
            lo, hi = within(*grid(min(products), max(products), b + 8), where)
        return lo, hi
    lo, hi = ends[0]
    if op == "^":  # x^n is monotone on x >= 0 and on x <= 0 (for odd n on every x)
        n = args[1]
        if n < 0 and lo <= 0 <= hi:
            raise Undecided(f"{where}: a reciprocal of a value not separated from 0")
        lo, hi = (1 / hi, 1 / lo) if n < 0 else (lo, hi)
        top = max(abs(lo), abs(hi))
        if abs(n) * (top.numerator.bit_length() - top.denominator.bit_length() - 1) > MAX_BITS:
            raise Malformed(f"{where}: a value beyond 2^{MAX_BITS}, the checker's bound")
        ends = sorted((lo ** abs(n), hi ** abs(n)))
        return within(*grid(0 if abs(n) % 2 == 0 and lo < 0 < hi else ends[0], ends[1], b + 8), where)
    if op == "root":
        k, scale = args[1], 1 << b
        if lo < 0:
            raise Undecided(f"{where}: a root of a value not proved >= 0")
        top = math.ceil(hi * scale ** k)
        r = iroot(top, k)
        return Fraction(iroot(math.floor(lo * scale ** k), k), scale), Fraction(r + (r ** k != top), scale)
    if op == "log":
        if lo <= 0:
            raise Undecided(f"{where}: a log of a value not proved > 0")
        return grid(log_bounds(lo, b)[0], log_bounds(hi, b)[1], b)
    if max(-lo, hi) > MAX_EXP:
        raise Malformed(f"{where}: exp of a value beyond {MAX_EXP} in size, the checker's bound")
    return grid(exp_bounds(lo, b)[0], exp_bounds(hi, b)[1], b)


class Numbers:
    """Values are linear forms {atom: rational coefficient} (atom None: the rational part), so that equal
    irrational terms cancel exactly; the sign of what is left comes from rational bounds of its atoms."""

    def __init__(self):
        self.trees, self.cache = {}, {}

    def cell(self, value, where):
        """A matrix cell as a linear form: a rational "p/q", or an object whose "expr" (null: none) gives it."""
        tick(where)
        if isinstance(value, str):
            return {None: rat(value, where)}
        expr = field(value, "expr", (list, str, type(None)), where)
        return self.linear(grammar(expr, where), where) if expr is not None else self.atom("#" + where, None, where)

    def atom(self, key, tree, where):
        """The form 1*key: an irrational atom, its expression (None: none) kept for its bounds."""
        self.trees[key] = (tree, where)
        return {key: Fraction(1)}

    def linear(self, tree, where):
        """An expression as a linear form: sums term by term, rational factors and powers exact, the rest one atom."""
        if isinstance(tree, str):
            return {None: rat(tree, where)}
        op = tree[0]
        parts = [self.linear(a, where) for a in (tree[1:2] if op == "^" else tree[1:])] if op in ("+", "*", "^") else []
        if op == "+":  # sizes checked term by term: a sum of long rationals grows no further than the bound
            out = {}
            for k, q in ((k, q) for f in parts for k, q in f.items()):
                out[k] = sized(out.get(k, Fraction(0)) + q, where)
            return out
        known = [p.get(None, Fraction(0)) for p in parts if set(p) <= {None}]
        rest = [p for p in parts if not set(p) <= {None}]
        if op == "*" and len(rest) <= 1:
            scale = Fraction(1)
            for q in known:
                scale = sized(scale * q, where)
            return {k: sized(scale * v, where) for k, v in (rest[0] if rest else {None: Fraction(1)}).items()}
        if op == "^" and known and (known[0] or tree[2] >= 0):  # a rational to an integer power is a rational
            base, n = known[0], tree[2]
            if abs(n) * max(abs(base.numerator).bit_length(), base.denominator.bit_length()) > 2 * MAX_BITS:
                raise Malformed(f"{where}: a value beyond the checker's bound of {MAX_BITS} bits")
            return {None: sized(base ** n, where)}
        return self.atom(json.dumps(tree, separators=(",", ":")), tree, where)

    def interval(self, key, b):
        """Rational bounds of an atom, about 2^-b wide (cached); Undecided for a cell without an expression."""
        if (key, b) not in self.cache:
            tree, where = self.trees[key]
            if tree is None:
                raise Undecided(f"{where}: an irrational cell without an expression")
            self.cache[key, b] = bounds(tree, b, where)
        return self.cache[key, b]

    def span(self, form, b):
        """Rational bounds of a linear form, from its atoms' bounds at precision b."""
        lo = hi = form.get(None, Fraction(0))
        for k, q in form.items():
            if k is not None and q:
                a, z = self.interval(k, b)
                lo, hi = lo + min(q * a, q * z), hi + max(q * a, q * z)
        return lo, hi

    def quick(self, form):
        """Integer bounds in units of 2^-64, or None: a fast first try before exact forms."""
        try:
            lo, hi = self.span(form, BITS[0])
        except Undecided:
            return None
        return math.floor(lo * (1 << 64)), math.ceil(hi * (1 << 64))

    def sign(self, form, where):
        """-1, 0 or 1, exact if no atom is left; else 1 or -1 once bounds (BITS in turn) exclude 0, or Undecided."""
        if not any(q for k, q in form.items() if k is not None):
            c = form.get(None, 0)
            return (c > 0) - (c < 0)
        for b in BITS:
            lo, hi = self.span(form, b)
            if lo > 0 or hi < 0:
                return 1 if lo > 0 else -1
        raise Undecided(f"{where}: the bounds of its irrational cells do not separate the two sides")


def add(*forms):
    """The sum of linear forms, each coefficient within the bound."""
    out = {}
    for f in forms:
        for k, q in f.items():
            out[k] = sized(out.get(k, Fraction(0)) + q)
    return out


def times(q, form):
    """The linear form multiplied by the rational q, coefficient by coefficient."""
    return {k: q * v for k, v in form.items()}


def show(q, exact=True):
    """A rational in a message: exactly (or as a float) when short enough to print, else its size."""
    if max(abs(q.numerator).bit_length(), q.denominator.bit_length()) <= 3000 and (exact or abs(q) < 1 << 1000):
        return str(q) if exact else str(float(q))
    return f"(a rational of {abs(q.numerator).bit_length() + q.denominator.bit_length()} bits)"


def text(form):
    """A linear form in a message: its first three terms, each rational through `show`."""
    parts = [show(q) if k is None else f"{show(q)}*{k}" for k, q in form.items() if q or k is None]
    return " + ".join(parts[:3]) + (" + ..." if len(parts) > 3 else "")


# -- the scheme --------------------------------------------------------------------------------------------------
class Scheme:
    """A certificate's matrix: a row of cost forms per set, checked to be the family's sets where a rule says which."""
    def __init__(self, cert, rows, where, numbers, costs=True):
        self.classes = field(cert, "classes", list, "certificate")
        if not all(isinstance(c, str) for c in self.classes) or len(set(self.classes)) != len(self.classes):
            raise Malformed("certificate.classes: expected distinct class names")
        self.K, self.n, self.index = len(self.classes), numbers, {c: i for i, c in enumerate(self.classes)}
        self.partial, self.rows, self.fixed = cert.get("partial", False), {}, {}
        if type(self.partial) is not bool:
            bad("certificate.partial", "true or false", self.partial)
        if self.K * max(self.K, len(rows)) > MAX_CELLS:  # K singletons of K costs at least
            raise Malformed(f"{where}: {len(rows):,} sets of {self.K:,} classes, beyond the {MAX_CELLS:,} cells of a "
                            "certificate")
        for i, row in enumerate(rows):
            at = f"{where}[{i}]"
            m = self.members(field(row, "set", list, at), f"{at}.set")
            values = field(row, "costs", list, at) if costs else [None] * self.K
            if len(values) != self.K or m in self.rows:
                bad(at, f"a new set with {self.K} costs, one per class", row)
            self.rows[m] = [v if v is None else numbers.cell(v, f"{at}.costs[{y}]") for y, v in enumerate(values)]
        self.sets = [m for m in self.rows if len(m) > 1]
        family = field(cert, "family", dict, "certificate")
        kind, k = family.get("kind"), family.get("max_size")
        if kind not in FAMILIES:
            bad("certificate.family.kind", " or ".join(FAMILIES), kind)
        if kind == "max_size" and (type(k) is not int or k < 1):
            bad("certificate.family.max_size", "a positive integer", k)
        k = min(k, self.K) if kind == "max_size" else None  # beyond K, max_size is every set
        rule = {"all": lambda m: True, "intervals": lambda m: max(m) - min(m) == len(m) - 1,
                "max_size": lambda m: len(m) <= k}.get(kind)
        self.family = ("checked", f"{kind}: each of its {len(self.rows)} sets has its row, no more, no less") if \
            rule and not self.partial else ("given", f"{kind}: {len(self.rows)} sets as the certificate lists them" + (
                " (a partial matrix)" if self.partial else ""))
        for m in map(frozenset, combinations(range(self.K), 1)):
            if m not in self.rows:
                raise Refuted(f"{where}: the singleton {self.label(m)} has no row")
        extra = next((m for m in self.rows if rule and not rule(m)), None)  # a partial matrix too: no set outside
        if extra is not None:
            raise Refuted(f"{where}: the {kind} family has no set {self.label(extra)}")
        if rule and not self.partial:  # a rule: counting the rows shows that none is missing
            size = {"all": 2 ** self.K - 1, "intervals": self.K * (self.K + 1) // 2,
                    "max_size": sum(math.comb(self.K, n) for n in range(1, (k or 0) + 1))}[kind]
            if len(self.rows) != size:
                top = {"all": self.K, "intervals": 0, "max_size": k}[kind]  # intervals: made, not searched
                every = [frozenset(c) for n in range(2, top + 1) for c in combinations(range(self.K), n)] + \
                    [frozenset(range(s, s + n)) for n in range(2, self.K + 1) for s in range(self.K - n + 1)
                     if kind == "intervals"] if size < 10 ** 6 else []
                missing = next((m for m in every if m not in self.rows), None)
                raise Refuted(f"{where}: the {kind} family " + (f"lacks set {self.label(missing)}" if missing else
                                                                f"has {size} sets, the matrix {len(self.rows)}"))

    def members(self, names, where):
        """The set of a non-empty list of distinct class names, as a frozenset of class indices."""
        if not isinstance(names, list) or not names or not all(
                isinstance(c, str) and c in self.index for c in names) or len(set(names)) != len(names):
            bad(where, f"distinct class names among {self.classes}"[:200], names)
        return frozenset(self.index[c] for c in names)

    def cls(self, name, where):
        """The index of a class name (Malformed if it names no class)."""
        return self.index[name] if isinstance(name, str) and name in self.index else bad(
            where, f"a class of {self.classes}"[:200], name)

    def label(self, m):
        """A set as messages write it: "{a,b}", its classes in order."""
        return "{" + ",".join(self.classes[i] for i in sorted(m)) + "}"

    def det(self, h, y):
        """c_h(y): the cost of the singleton {h} when the true class is y."""
        return self.rows[frozenset((h,))][y]

    def diff(self, a, b, where):
        """The sign of a - b (-1, 0 or 1), directly for two rationals, else by `Numbers.sign`."""
        if len(a) == len(b) == 1 and None in a and None in b:  # two rationals: most comparisons
            return (a[None] > b[None]) - (a[None] < b[None])
        return self.n.sign(add(a, times(-1, b)), where)

    def term(self, kind, m, y, where):
        """A term of an atom: c_Y(y) ("cost"), or the mean, min or max of c_h(y) over the members h of Y."""
        if kind == "cost":
            return self.rows[m][y]
        if kind == "mean":
            return times(Fraction(1, len(m)), add(*(self.det(h, y) for h in m)))
        best = None
        for v in (self.det(h, y) for h in sorted(m)):
            if best is None or self.diff(v, best, where) == (-1 if kind == "min" else 1):
                best = v
        return best

    def atom(self, atom, m, y, y2, where):
        """Whether an atom of PROPERTIES holds at Y, y and y2 (Undecided where bounds cannot compare two values)."""
        tick()
        op, left, right = atom
        if op in ("implies", "and"):
            first = self.atom(left, m, y, y2, where)
            return (op == "implies") if not first else self.atom(right, m, y, y2, where)
        if left == "sorted":  # multiset equality, matching equal values one by one
            rest = [self.det(h, y2) for h in sorted(m)]
            mine = [self.det(h, y) for h in sorted(m)]
            if all(len(v) == 1 and None in v for v in rest + mine):  # rationals: compare the sorted lists
                return (sorted(v[None] for v in mine) == sorted(v[None] for v in rest)) == (op == "==")
            for v in (self.det(h, y) for h in sorted(m)):
                hit = next((i for i, w in enumerate(rest) if self.diff(v, w, where) == 0), None)
                if hit is None:
                    return op == "!="
                del rest[hit]
            return op == "=="
        a = self.term(left.rstrip("2"), m, y2 if left.endswith("2") else y, where)
        s = self.diff(a, self.term(right.rstrip("2"), m, y2 if right.endswith("2") else y, where), where)
        return {"<": s < 0, "<=": s <= 0, ">=": s >= 0, "==": s == 0, "!=": s != 0}[op]

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

    def place(self, m, y=None, y2=None):
        """An instance in messages, "Y={a,b}, y=a, y'=c", naming only the variables bound."""
        return f"Y={self.label(m)}" + "".join(f", {n}={self.classes[v]}" for n, v in (("y", y), ("y'", y2))
                                               if v is not None)

    def expected(self, p, m):
        """E_p[c_Y] as a linear form: the sum of p_y c_Y(y), the classes with p_y = 0 left out."""
        return add(*(times(p[y], self.rows[m][y]) for y in range(self.K) if p[y]))

    def quick_expected(self, n, m):
        """Integer bounds of sum_y n_y c_Y(y) (n: integers) from each cell's quick bounds, or None."""
        if m not in self.fixed:
            self.fixed[m] = [self.n.quick(c) for c in self.rows[m]]
        if any(c is None for c in self.fixed[m]):
            return None
        return tuple(sum(k * c[i] for k, c in zip(n, self.fixed[m])) for i in (0, 1))

    def distribution(self, values, where):
        """K rationals, one per class, that must be a probability distribution (Refuted otherwise)."""
        if not isinstance(values, list) or len(values) != self.K:
            bad(where, f"{self.K} probabilities, one per class", values)
        p = [rat(v, f"{where}[{i}]") for i, v in enumerate(values)]
        if any(x < 0 for x in p) or total(p, where) != 1:
            raise Refuted(f"{where}: not a probability distribution (sums to {show(total(p, where))})")
        return p

    def indeterminate(self, names, where):
        """The set named, which must be an indeterminate set of the family (Refuted otherwise)."""
        m = self.members(names, where)
        if m not in self.sets:
            raise Refuted(f"{where}: {self.label(m)} is not an indeterminate set of the family")
        return m


# -- the claims ---------------------------------------------------------------------------------------------------
def check_property(s, pid, claim, where):
    """Re-check one property's verdict from its evidence; returns the message, or None for "unknown"."""
    verdict, ev = field(claim, "verdict", str, where), field(claim, "evidence", dict, where)
    if verdict not in ("holds", "fails"):
        return None if verdict == "unknown" else bad(f"{where}.verdict", "holds, fails or unknown", verdict)
    kind, where = field(ev, "kind", str, f"{where}.evidence"), f"{where}.evidence"
    if kind == "none":
        raise Undecided(f"{verdict}: {ev.get('reason', 'no evidence given')}")
    if pid == "P1":
        return check_p1(s, verdict, ev, where)
    outer, inner, atom = PROPERTIES[pid]
    want, mixed, said = verdict == "holds", outer != inner[0][0], f"the atom {atom[1]} {atom[0]} {atom[2]}"
    # a holding "for every" and a failing "there is" are proved by every instance, which are enumerated here;
    # only a failing "for every" has a counterexample, and only a holding "there is" a witness
    needed = "enumerated" if want == (outer == "forall") else "counterexample" if outer == "forall" else "witness"
    if kind != needed:
        bad(f"{where}.kind", f"{needed!r} for {pid} {verdict}", kind)
    if kind == "enumerated":
        if s.partial:
            raise Undecided("the matrix is partial: the instances cannot all be enumerated")
        count = 0
        for m in s.sets:
            tick()
            pairs = s.bindings(inner, m)
            wrong = [(y, y2) for y, y2 in pairs if s.atom(atom, m, y, y2, s.place(m, y, y2)) != (want or mixed)]
            count += len(pairs)
            if mixed and len(wrong) == len(pairs):  # P2: no y at this Y
                raise Refuted(f"fails at {s.place(m)}: {said} is false for every y")
            if wrong and not mixed:
                raise Refuted(f"{'fails' if want else 'holds'} at {s.place(m, *wrong[0])}: {said} is {not want} there")
        if type(ev.get("instances")) is not int or ev["instances"] != count:
            raise Refuted(f"the certificate counts {json.dumps(ev.get('instances'), default=repr)[:40]} instances, "
                          f"the checker enumerated {count}")
        return f"{verdict}: {_count(count, 'instance')} enumerated and re-checked, every one"
    m = s.indeterminate(field(ev, "Y", list, where), f"{where}.Y")
    if mixed:
        for y, _ in s.bindings(inner, m):
            if s.atom(atom, m, y, None, s.place(m, y)):
                raise Refuted(f"the counterexample {s.place(m)} fails at y={s.classes[y]}: {said} holds there")
        return f"{verdict}: counterexample {s.place(m)} re-checked for every y"
    y = s.cls(ev.get("y"), f"{where}.y")
    y2 = s.cls(ev.get("y2"), f"{where}.y2") if len(inner) > 1 else None
    if (y, y2) not in s.bindings(inner, m):
        raise Refuted(f"{s.place(m, y, y2)} lies outside the property's domain")
    if s.atom(atom, m, y, y2, s.place(m, y, y2)) != want:
        raise Refuted(f"the {kind} {s.place(m, y, y2)} does not {'satisfy' if want else 'break'} {said}")
    return f"{verdict}: {kind} {s.place(m, y, y2)} re-checked"


def beats(s, m, p, where):
    """Definition 4 at p: E_p[c_h] - E_p[c_Y] > 0 for every member h of Y."""
    for h in sorted(m):
        gap = add(s.expected(p, frozenset((h,))), times(-1, s.expected(p, m)))
        if s.n.sign(gap, where) <= 0:
            raise Refuted(f"{where}: p does not make {s.label(m)} beat {s.classes[h]}: E_p[c_{s.classes[h]}] - "
                          f"E_p[c_Y] = {text(gap)}")


def dominated(s, m, weights, strict, where):
    """A Ville / LP dual certificate: c_Y(y) - sum_Z lambda_Z c_Z(y) >= 0 (> 0 if strict) for every y, lambda
    a distribution. Then for every p, E_p[c_Y] >= sum_Z lambda_Z E_p[c_Z] >= min_Z E_p[c_Z] (> if strict)."""
    if any(w < 0 for w in weights.values()) or total(weights.values(), where) != 1:
        raise Refuted(f"{where}: the multipliers are not a distribution (they sum to "
                      f"{show(total(weights.values(), where))})")
    for y in range(s.K):
        tick()
        gap = add(s.rows[m][y], *(times(-w, s.rows[z][y]) for z, w in weights.items() if w))
        sign = s.n.sign(gap, where)
        if sign < 0 or (strict and sign == 0):
            raise Refuted(f"{where}: the dual certificate fails at y={s.classes[y]}: c_Y(y) - sum lambda_Z c_Z(y) "
                          f"= {text(gap)}")


def member_weights(s, m, lam, where):
    """Multipliers over the members of Y (Ville: c_Y dominates a mixture of its members' rows)."""
    if not isinstance(lam, dict):
        bad(where, "an object class -> weight", lam)
    out = {frozenset((s.cls(k, where),)): rat(v, f"{where}.{k}") for k, v in lam.items()}
    if any(not z <= m for z in out):
        raise Refuted(f"{where}: a multiplier is on a class outside {s.label(m)}")
    return out


def check_p1(s, verdict, ev, where):
    """P1 (Definition 4): a witness p of a possible set, or an impossibility certificate per indeterminate set."""
    needed = "witness" if verdict == "holds" else "impossibility"
    if ev.get("kind") != needed:
        bad(f"{where}.kind", f"{needed!r} for P1 {verdict}", ev.get("kind"))
    if verdict == "holds":
        m = s.indeterminate(field(ev, "Y", list, where), f"{where}.Y")
        beats(s, m, s.distribution(ev.get("p"), f"{where}.p"), f"witness p for set {s.label(m)}")
        return f"holds: witness p makes {s.label(m)} possible (Definition 4), re-checked"
    if s.partial:  # one Ville certificate per set of the family, and the matrix lists some sets only
        raise Undecided("the matrix is partial: not every set's impossibility can be shown")
    done = set()
    for i, entry in enumerate(field(ev, "sets", list, where)):
        m = s.indeterminate(field(entry, "Y", list, f"{where}.sets[{i}]"), f"{where}.sets[{i}].Y")
        weights = member_weights(s, m, entry.get("lambda"), f"{where}.sets[{i}].lambda")
        dominated(s, m, weights, False, f"impossibility certificate of {s.label(m)}")
        done.add(m)
    missing = [m for m in s.sets if m not in done]
    if missing:
        raise Refuted(f"no impossibility certificate for set {s.label(missing[0])}")
    return f"fails: {_count(len(done), 'impossibility certificate')} re-checked, one per indeterminate set"


def check_fact(s, fact, where):
    """One set's Definition 4 status (possible / impossible) and optimality (alone / tied / never)."""
    tick(where)
    m = s.members(field(fact, "set", list, where), f"{where}.set")
    if m not in s.rows:
        raise Refuted(f"{where}: {s.label(m)} has no row")
    for key in ("possible", "optimal") if len(m) > 1 else ("optimal",):
        entry, at = field(fact, key, dict, where), f"{where}.{key}"
        status = entry.get("status")
        if status == "unknown":
            raise Undecided(f"{key}({s.label(m)}): {entry.get('reason', 'undecided')}")
        if status not in (("possible", "impossible") if key == "possible" else ("alone", "tied", "never")):
            bad(f"{at}.status", "possible, impossible or unknown" if key == "possible" else
                "alone, tied, never or unknown", status)
        if status == "possible":
            beats(s, m, s.distribution(entry.get("p"), f"{at}.p"), f"possible witness of {s.label(m)}")
        elif status == "impossible":
            weights = member_weights(s, m, entry.get("lambda"), f"{at}.lambda")
            dominated(s, m, weights, False, f"impossibility certificate of {s.label(m)}")
        if status in ("alone", "tied"):  # at p, Y costs no more than any set (less than all others if alone)
            ties = minimiser(s, m, s.distribution(entry.get("p"), f"{at}.p"), status == "alone", f"{at}.p")
            named = {s.members(t, f"{at}.tied_with") for t in (field(entry, "tied_with", list, at) if
                                                                  status == "tied" else [])}
            if status == "tied" and (not named or not named <= ties):
                raise Refuted(f"{at}.tied_with: the sets tied with it at p are {sorted(map(s.label, ties))}")
        if status in ("tied", "never"):  # a mixture of other sets costs no more everywhere (less if never)
            weights = {}
            for j, part in enumerate(field(entry, "lambda", list, at)):
                z = s.members(field(part, "set", list, f"{at}.lambda[{j}]"), f"{at}.lambda[{j}].set")
                if z == m or z not in s.rows or z in weights:
                    raise Refuted(f"{at}.lambda[{j}]: {s.label(z)} is not another set of the family, or named twice")
                weights[z] = rat(part.get("weight"), f"{at}.lambda[{j}].weight")
            dominated(s, m, weights, status == "never", f"{status} certificate of {s.label(m)}")
    return s.label(m)


def minimiser(s, m, p, alone, where):
    """Y minimises E_p[c_Z] over every set Z (strictly when alone); returns the sets that tie with it."""
    scale = math.lcm(*(x.denominator for x in p))
    n, ties = [int(x * scale) for x in p], set()
    own = s.quick_expected(n, m)
    for z in s.rows:
        tick()
        other = None if z == m or own is None else s.quick_expected(n, z)
        if z == m or other is not None and other[0] > own[1]:  # the bounds already separate them
            continue
        sign = -1 if other is not None and other[1] < own[0] else \
            s.diff(s.expected(p, z), s.expected(p, m), f"optimality of {s.label(m)}")
        if sign < 0 or (sign == 0 and alone):
            raise Refuted(f"{where}: {s.label(z)} costs {'less' if sign < 0 else 'as much'} in expectation there")
        if sign == 0:
            ties.add(z)
    return ties


def enclosures(matrix, at="certificate.matrix"):
    """Every irrational cell: its expression is of the grammar, and the checker's bounds lie in its enclosure."""
    count, seen = 0, {}
    for i, row in enumerate(matrix):
        for y, v in enumerate(row["costs"]):
            where = f"{at}[{i}].costs[{y}]"
            if isinstance(v, str):
                continue
            ends = field(v, "enclosure", list, where)
            lo, hi = [rat(e, f"{where}.enclosure") for e in ends] if len(ends) == 2 else bad(
                f"{where}.enclosure", "[low, high]", ends)
            if v.get("expr") is None:
                raise Undecided(f"{where}: an irrational cell without an expression")
            key = json.dumps(v["expr"])
            a, b = seen[key] if key in seen else seen.setdefault(key, bounds(v["expr"], BITS[1], where))
            if b < lo or a > hi:
                raise Refuted(f"{where}: the value lies in [{show(a, False)}, {show(b, False)}], outside its enclosure")
            if a < lo or b > hi:
                raise Undecided(f"{where}: the checker's bounds straddle an end of the enclosure")
            count += 1
    return f"{_count(count, 'irrational cell')} bounded by the checker, within their enclosures" if count else \
        "every cell is rational"


def claims(cert, seconds=None):
    """(name, status, message) per claim; status "checked", "refuted", "not covered", "given" or "no claim".
    Within `seconds` (OverBudget beyond them), if given."""
    DEADLINE[0], PLACE[0] = math.inf if seconds is None else time.monotonic() + seconds, "certificate"
    if not isinstance(cert, dict) or cert.get("format") != FORMAT:
        raise Malformed(f"certificate.format: expected {FORMAT!r}")
    if type(cert.get("version")) is not int or cert["version"] != VERSION:
        bad("certificate.version", VERSION, cert.get("version"))
    numeric, out, numbers = "parameters" not in cert, [], Numbers()
    names = [] if numeric else field(cert, "parameters", list, "certificate")
    alien = next((k for k in (("points", "sets", "also") if numeric else ("matrix", "set_facts", "partial"))
                  if k in cert), None)
    if alien or not all(isinstance(n, str) for n in names):  # one kind of certificate, never a mixture of two
        raise Malformed(f"certificate.{alien or 'parameters'}: " + ("expected names" if not alien else
                        f"not a key of a certificate {'without' if numeric else 'with'} parameters"))

    def attempt(name, job):
        try:
            result = job()
            out.append((name, "no claim", "unknown") if result is None else (name, "checked", result))
        except (Refuted, Undecided) as exc:
            out.append((name, "refuted" if isinstance(exc, Refuted) else "not covered", str(exc)))

    try:
        rows = field(cert, "matrix", list, "certificate") if numeric else [
            {"set": m} for m in field(cert, "sets", list, "certificate")]
        scheme = Scheme(cert, rows, "certificate." + ("matrix" if numeric else "sets"), numbers, numeric)
    except Refuted as exc:  # the matrix itself is wrong: nothing can be checked on it
        return [("matrix", "refuted", str(exc))]
    if numeric:
        out.append(("family", *scheme.family))
        attempt("cells", lambda: enclosures(rows))
    points, schemes = ([] if numeric else field(cert, "points", list, "certificate")), {}

    def point(at, where):
        """The scheme at one exact point of the parameters (its matrix is the certificate's) and its values."""
        if type(at) is not int or not 0 <= at < len(points):
            bad(f"{where}.at", f"an index into certificate.points (0..{len(points) - 1})" if points else
                "no point (a certificate without parameters has none)", at)
        here = f"certificate.points[{at}]"
        values = field(points[at], "values", dict, here)
        if at not in schemes:
            if sorted(values) != sorted(names):
                bad(f"{here}.values", f"a value of each parameter {names}"[:200], values)
            for name, value in values.items():
                rat(value, f"{here}.values.{name}")
            schemes[at] = Scheme(cert, field(points[at], "matrix", list, here), f"{here}.matrix", numbers)
            if set(schemes[at].rows) != set(scheme.rows):
                raise Refuted(f"{here}.matrix: its sets are not the family's, certificate.sets")
            if any(not isinstance(v, str) for row in points[at]["matrix"] for v in row["costs"]):
                attempt(f"points[{at}] cells", lambda: enclosures(points[at]["matrix"], f"{here}.matrix"))
        return schemes[at], ", ".join(f"{k}={v}" for k, v in values.items())

    props = field(cert, "properties", dict, "certificate")
    try:
        for pid in ["P1", *PROPERTIES]:
            where = f"certificate.properties.{pid}"
            claim = field(props, pid, dict, "certificate.properties")
            if claim.get("at") is not None and claim.get("verdict") == "holds" and not numeric:  # for every value
                out.append((pid, "refuted", f"{where}.at: a verdict that holds claims every admissible value of the "
                                            "parameters, which no point proves (facts at points are under also)"))
            elif claim.get("at") is not None:  # a failing verdict: some value breaks it, re-checked at that value
                target, values = point(claim["at"], where)
                attempt(f"{pid} at {values}", lambda: at_point(target, pid, claim, where))
            else:  # with parameters and no point, only a vacuous "for every" is decided
                attempt(pid, lambda: (check_property if numeric else vacuous)(scheme, pid, claim, where))
        for i, claim in enumerate(field(cert, "also", list, "certificate") if "also" in cert else []):
            where = f"certificate.also[{i}]"  # what else holds at exact points (a failing property's good values)
            pid = field(claim, "property", str, where)
            if pid not in PROPERTIES and pid != "P1":
                bad(f"{where}.property", "P1..P10", pid)
            if claim.get("verdict") != "holds":  # a failure is a verdict's own evidence, under properties
                bad(f"{where}.verdict", "holds (what holds at a point)", claim.get("verdict"))
            target, values = point(claim.get("at"), where)
            attempt(f"{pid} also at {values}", lambda: at_point(target, pid, claim, where))
    except Refuted as exc:  # a point's matrix is wrong: nothing can be checked on it
        return out + [("points", "refuted", str(exc))]
    facts = field(cert, "set_facts", list, "certificate") if "set_facts" in cert else []
    if facts and scheme.partial:
        return out + [("sets", "not covered", "the matrix is partial: optimality is over every set of the family")]
    before = len(out)
    for i, fact in enumerate(facts):
        attempt(f"set_facts[{i}]", lambda: check_fact(scheme, fact, f"certificate.set_facts[{i}]"))
    out[before:] = [x for x in out[before:] if x[1] != "checked"]
    told, seen = [scheme.members(field(f, "set", list, "certificate.set_facts"), "certificate.set_facts")
                  for f in facts], set()
    twice = next((m for m in told if m in seen or seen.add(m)), None)
    missing = [m for m in scheme.rows if m not in seen]
    if facts and (missing or twice):
        out.append(("sets", "refuted", f"no set fact for {scheme.label(missing[0])}" if missing else
                    f"two set facts for {scheme.label(twice)}"))
    elif facts and len(out) == before:
        out.append(("sets", "checked", f"{len(facts)} sets: Definition 4 status and optimality, with their "
                                       "witnesses and dual certificates, re-checked"))
    return out


def at_point(s, pid, claim, where):
    """`check_property` on the scheme at a point, its message saying so."""
    said = check_property(s, pid, claim, where)
    return said and said + " (on the certificate's matrix there)"


def vacuous(s, pid, claim, where):
    """Parameters and no point: a "for every" property with no instance in the family holds at every value."""
    ev = field(claim, "evidence", dict, where)
    if claim.get("verdict") == "unknown":
        return None
    outer, inner, _ = PROPERTIES.get(pid, ("exists", None, None))
    if claim.get("verdict") != "holds" or ev.get("kind") != "enumerated" or outer != "forall" or \
            any(s.bindings(inner, m) for m in s.sets) or type(ev.get("instances")) is not int or ev["instances"]:
        raise Undecided(ev.get("reason", "rests on the solvers' for-all proof over the parameters"))
    return "holds: vacuously, the property has no instance in this family"


class Usage(argparse.ArgumentParser):
    """The command's argument parser, whose errors raise Malformed instead of exiting."""
    def error(self, message):  # to the caller's stderr as exit 2, never argparse's own exit
        """A usage error: Malformed with argparse's message."""
        raise Malformed(f"usage error: {message}")


MAX_BYTES = 1 << 28  # 100,000 cells take about 50 MB; JSON parsing needs about 13 bytes of memory per byte


def read_regular(path):
    """The bytes of a regular file of at most MAX_BYTES. Opened without blocking and checked after opening, so
    that a FIFO, a device (/dev/zero) or a directory is refused, never waited on or read without end."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Malformed("cannot read it (not a regular file)")
        if info.st_size > MAX_BYTES:
            raise Malformed(f"cannot read it ({info.st_size:,} bytes, more than {MAX_BYTES:,})")
        data = handle.read(info.st_size + 1)  # never a buffer of MAX_BYTES for a small file
    if len(data) > MAX_BYTES:
        raise Malformed(f"cannot read it (more than {MAX_BYTES:,} bytes)")
    return data


def main(argv=None, out=None, err=None, prog="verifier_check"):
    """The command; returns the exit status (0 checked, 1 refuted, 2 malformed, 3 not covered)."""
    out, err = out or sys.stdout, err or sys.stderr
    parser = Usage(prog=prog, add_help=False, formatter_class=argparse.RawDescriptionHelpFormatter,
                   description="Re-check a verify certificate (docs/certificates.md) with the Python standard "
                               "library only.", epilog=f"examples:\n  {prog} ha.cert.json\n  {prog} ha.cert.json "
                   "--partial-ok\n\nexit status:\n  0  every claim checks\n  1  a claim is refuted\n  2  not a "
                   "certificate (or beyond the checker's bounds or time budget), or a usage error\n  3  nothing "
                   "refuted, some claim not covered")
    parser.add_argument("certificate", nargs="?", help="the certificate (JSON) written by verify SPEC --certificate")
    parser.add_argument("--partial-ok", action="store_true", help="exit 0 when nothing is refuted though some "
                        "claims are not covered (e.g. for-all proofs over parameters)")
    parser.add_argument("--time-limit", type=float, default=600, metavar="SECONDS",
                        help="the check's time budget (default 600): beyond it, exit 2 with the place reached")
    parser.add_argument("-h", "--help", action="store_true", help="show this help and exit")
    try:
        args = parser.parse_args(argv)
        if not args.help and args.certificate is None:
            parser.error("the certificate file is missing")
        if not 0 < args.time_limit < 1e9:
            parser.error(f"--time-limit: expected a number of seconds above 0, got {args.time_limit}")
    except Malformed as exc:
        print(f"{prog}: {exc}", file=err)
        return 2
    if args.help:
        parser.print_help(out)
        return 0
    try:
        try:
            started = time.monotonic()
            cert = load(read_regular(args.certificate).decode("utf-8"))
        except OSError as exc:
            raise Malformed(f"cannot read it ({exc.strerror or exc})") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise Malformed("not JSON: " + (f"line {exc.lineno}, column {exc.colno}: {exc.msg}"
                                            if hasattr(exc, "lineno") else str(exc))) from None
        try:
            results = claims(cert, args.time_limit - (time.monotonic() - started))
        finally:  # no budget left behind for a caller in the same process (verify check)
            DEADLINE[0] = math.inf
    except (Malformed, RecursionError, TypeError, ValueError, KeyError, AttributeError, IndexError, OverflowError,
            MemoryError) as exc:
        # a Malformed names its place; anything else is content of an unexpected shape, told without a traceback
        reason = exc if isinstance(exc, Malformed) else "expressions nested too deeply" if isinstance(
            exc, RecursionError) else f"unexpected content ({type(exc).__name__}: {str(exc)[:200]})"
        said = f"stopped after {args.time_limit:g} s at" if isinstance(exc, OverBudget) else "malformed certificate:"
        print(f"verifier_check: {args.certificate}: {said} {reason}", file=err)
        return 2
    count = {k: sum(1 for r in results if r[1] == k) for k in ("checked", "refuted", "not covered")}
    try:
        for name, status, message in results:
            print(f"{name}: {status}: {message}", file=out)
        print(f"{args.certificate}: {count['checked']} checked, {count['refuted']} refuted, "
              f"{count['not covered']} not covered", file=out)
    except BrokenPipeError:  # a reader such as `head` went away: the status still says it all
        pass
    return 1 if count["refuted"] else 3 if count["not covered"] and not args.partial_ok else 0


if __name__ == "__main__":
    sys.exit(main())
