"""Polynomials in the parameters, for proofs over every admissible value: a certificate's polynomials (JSON),
and Bernstein coefficients on a box.

A value of `algebra` whose atoms are all parameters is a polynomial with rational coefficients; `dense` gives
its coefficients by exponent tuple. On a box, a polynomial of degree n_i in x_i is sum_I b_I B_I(x) with the
Bernstein basis B_I >= 0, sum_I B_I = 1: every b_I >= 0 proves f >= 0 on the box, every b_I > 0 proves f > 0.
"""

from fractions import Fraction
from math import comb

from verifier_check.algebra import ZERO, Value, parameter
from verifier_check.limits import Malformed, Refuted, Undecided, bad, rat, tick

MAX_DEGREE, MAX_VARIABLES = 12, 4


def polynomial_of(value, where):
    """The value as a polynomial in the parameters: Undecided when it has another atom (a root, a log...)."""
    for m in value.terms:
        for atom, e in m:
            if atom[0] != "$" or e != int(e) or e < 0:
                raise Undecided(f"{where}: the cost is not a polynomial in the parameters (it holds {atom[:40]})")
    return value


def names_of(value):
    """The parameters a polynomial uses, sorted."""
    return sorted({a[1:] for m in value.terms for a, _ in m})


def dense(value, names):
    """{exponent tuple over `names`: coefficient}."""
    out = {}
    for m, q in value.terms.items():
        exps = dict(m)
        out[tuple(int(exps.get("$" + n, 0)) for n in names)] = q
    return out


def read(poly, names, where):
    """A polynomial written in a certificate: [[coefficient "p/q", {parameter: exponent}], ...]."""
    if not isinstance(poly, list) or len(poly) > 10_000:
        bad(where, "a polynomial: a list of [coefficient, {parameter: exponent}]", poly)
    out = ZERO
    for i, term in enumerate(poly):
        if not isinstance(term, list) or len(term) != 2 or not isinstance(term[1], dict):
            bad(f"{where}[{i}]", "[coefficient, {parameter: exponent}]", term)
        value = Value({(): rat(term[0], f"{where}[{i}][0]")})
        for name, e in term[1].items():
            if name not in names or type(e) is not int or not 1 <= e <= MAX_DEGREE:
                bad(f"{where}[{i}][1].{name}", f"a parameter of {names}[:5] with an exponent 1..{MAX_DEGREE}", e)
            for _ in range(e):
                value = value * parameter(name)
        out = out + value
    return out


def bernstein(coefficients, box, names):
    """The Bernstein coefficients of a dense polynomial on a box {name: (lo, hi)}, as a dict by index tuple."""
    if len(names) > MAX_VARIABLES:
        raise Undecided(f"a polynomial in {len(names)} parameters, beyond the {MAX_VARIABLES} a subdivision reads")
    degrees = [max((e[i] for e in coefficients), default=0) for i in range(len(names))]
    if any(d > MAX_DEGREE for d in degrees):
        raise Undecided(f"a polynomial of degree above {MAX_DEGREE} in one parameter")
    current = dict(coefficients)
    for i, name in enumerate(names):  # x_i = lo + (hi - lo) u_i, then the power basis of u_i to Bernstein's
        lo, hi = box[name]
        n, width = degrees[i], hi - lo
        shifted = {}
        for exps, q in current.items():
            tick()
            k = exps[i]
            for j in range(k + 1):  # (lo + width u)^k = sum_j C(k, j) lo^(k-j) width^j u^j
                key = exps[:i] + (j,) + exps[i + 1:]
                shifted[key] = shifted.get(key, 0) + q * comb(k, j) * lo ** (k - j) * width ** j
        current = {}
        for exps, q in shifted.items():
            j = exps[i]
            for k in range(j, n + 1):  # u^j = sum_{k>=j} C(k, j) / C(n, j) B_k
                key = exps[:i] + (k,) + exps[i + 1:]
                current[key] = current.get(key, 0) + q * Fraction(comb(k, j), comb(n, j))
    full = {}
    for index in _indices(degrees):
        full[index] = current.get(index, Fraction(0))
    return full


def _indices(degrees):
    out = [()]
    for d in degrees:
        out = [i + (k,) for i in out for k in range(d + 1)]
    return out


def check_tree(f, box, want, tree, where):
    """Each leaf cell of a subdivision of the box has Bernstein coefficients of one sign (>= 0 or > 0): f >= 0
    (> 0) on the box. The number of leaves."""
    names = names_of(f)
    coefficients = dense(f, names)
    for n in names:
        if n not in box:
            raise Undecided(f"{where}: the parameter {n} has no bounded range in the assumptions")
    leaves, stack = 0, [(tree, {n: box[n] for n in names}, 0, where)]
    while stack:
        node, cell, depth, at = stack.pop()
        tick()
        if depth > 64:
            raise Malformed(f"{at}: a subdivision deeper than 64 levels, beyond the checker's bound")
        if node == "leaf":
            leaves += 1
            if leaves > 20_000:
                raise Malformed(f"{where}: more than 20,000 cells, beyond the checker's bound")
            b = bernstein(coefficients, cell, names)
            low = min(b.values(), default=Fraction(0))
            if low < 0 or (want == "gt" and low == 0):
                _not_shown(at, low, cell, want)
            continue
        if not isinstance(node, list) or len(node) != 4 or node[0] not in cell:
            bad(at, 'a cell: "leaf" or [parameter, "split at p/q", left, right]', node)
        name, split = node[0], rat(node[1], f"{at}[1]")
        lo, hi = cell[name]
        if not lo < split < hi:
            bad(f"{at}[1]", f"a point strictly inside ({lo}, {hi})", node[1])
        stack.append((node[2], {**cell, name: (lo, split)}, depth + 1, f"{at}[2]"))
        stack.append((node[3], {**cell, name: (split, hi)}, depth + 1, f"{at}[3]"))
    return leaves


def _not_shown(at, low, cell, want):
    raise Refuted(f"{at}: on the cell {_cell(cell)} a Bernstein coefficient is {low}, so it does not show "
                  f"{'> 0' if want == 'gt' else '>= 0'}")


def _cell(cell):
    return ", ".join(f"{n} in [{lo}, {hi}]" for n, (lo, hi) in sorted(cell.items()))
