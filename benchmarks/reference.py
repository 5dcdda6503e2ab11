"""The plain reference the class-scaling benchmark compares the tool with: a straightforward exact sympy
enumeration, written here without any code of the tool.

It builds the extended matrix cell by cell with sympy (exact rationals, square roots), then checks P2-P10 by
enumerating every instance with exact sympy comparisons, and P1 by trying the uniform distribution on each set
as a witness (a timing baseline: it decides P1 "holds" as soon as one such witness works, as it does for both
benchmark families). No caching, no vectorisation, no certified floats: what a careful person would write.
"""

from __future__ import annotations

import itertools

import sympy as sp

R = sp.Rational(1, 2)  # the ordinal family's r: genmean with exponent 1 - r


def matrix(family: str, K: int) -> dict[frozenset[int], list[sp.Expr]]:
    det = {(h, y): _determinate(family, h, y) for h in range(K) for y in range(K)}
    rows = {}
    for n in range(1, K + 1):
        for members in itertools.combinations(range(K), n):
            Y = frozenset(members)
            rows[Y] = [_set_cost(family, Y, y, det, K) for y in range(K)]
    return rows


def _determinate(family: str, h: int, y: int) -> sp.Expr:
    if family == "ordinal":
        return sp.Integer(abs(h - y))
    return sp.Integer(0) if h == y else _eta(y)


def _eta(y: int) -> sp.Expr:
    return sp.Integer(1 + y)


def _set_cost(family: str, Y, y: int, det, K: int) -> sp.Expr:
    if family == "ordinal":  # Eq. 14: the generalized mean with exponent 1 - r of the members' costs
        exponent = 1 - R
        values = [det[(h, y)] for h in sorted(Y)]
        return sp.Add(*[v ** exponent for v in values]) ** (1 / exponent) / sp.Integer(len(values)) ** (1 / exponent)
    delta = sp.Rational(1, 5)  # Ha's rule: a miss costs eta(y), every extra class delta
    return (sp.Integer(0) if y in Y else _eta(y)) + delta * (len(Y) - 1)


def properties(rows, K: int) -> dict[str, bool]:
    singles = {h: rows[frozenset((h,))] for h in range(K)}
    sets = [Y for Y in rows if len(Y) > 1]

    def col(Y, y):
        return [singles[h][y] for h in sorted(Y)]

    def mean(Y, y):
        return sp.Add(*col(Y, y)) / len(Y)

    def less(a, b):
        return bool(a < b)  # sympy decides numeric relations exactly (or raises)

    def equal(a, b):
        return a == b or (abs(float(a - b)) < 1e-12 and (a - b).equals(0))

    def same_multiset(a, b):
        return all(equal(u, v) for u, v in zip(sorted(a, key=float), sorted(b, key=float)))

    classes = range(K)
    out = {
        "P2": all(any(less(rows[Y][y], mean(Y, y)) for y in classes) for Y in sets),
        "P3": all(less(rows[Y][y], mean(Y, y)) for Y in sets for y in Y),
        "P4": all(not less(rows[Y][y], min(col(Y, y), key=float)) for Y in sets for y in classes),
        "P5": all(not same_multiset(col(Y, y), col(Y, z)) or equal(rows[Y][y], rows[Y][z])
                  for Y in sets for y in classes for z in classes if y < z),
        "P6": all(not less(rows[Y][y], mean(Y, y)) for Y in sets for y in classes if y not in Y),
        "P7": all(not less(mean(Y, y), rows[Y][y]) for Y in sets for y in classes if y not in Y),
        "P8": all(equal(rows[Y][y], rows[Y][z]) for Y in sets for y in Y for z in Y if y < z),
        "P9": any(not same_multiset(col(Y, y), col(Y, z)) and not equal(rows[Y][y], rows[Y][z])
                  for Y in sets for y in Y for z in Y if y < z),
        "P10": all(not less(max(col(Y, y), key=float), rows[Y][y]) for Y in sets for y in classes),
    }
    out["P1"] = any(_uniform_witness(rows, singles, Y, K) for Y in sets)
    return out


def _uniform_witness(rows, singles, Y, K: int) -> bool:
    p = [sp.Rational(1, len(Y)) if y in Y else 0 for y in range(K)]
    mine = sp.Add(*[p[y] * rows[Y][y] for y in range(K)])
    return all(bool(sp.Add(*[p[y] * singles[h][y] for y in range(K)]) > mine) for h in Y)


def run(family: str, K: int) -> dict[str, bool]:
    return properties(matrix(family, K), K)
