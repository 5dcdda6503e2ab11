"""Re-check a verdict proved by a lemma: re-derive each premise from the scheme itself, in exact Fractions or
sympy (the engine used certified balls), and confirm that the rows actually built are the power means the
lemma speaks of (to 40 digits, an independent evaluation of Eq. 12 with mpmath).

Owns: `check_lemma`, `LemmaUnconfirmed`. May import: `scheme`, `verdict`.
"""

from __future__ import annotations

from itertools import combinations

import mpmath
import sympy as sp

from verifier.scheme import Scheme
from verifier.verdict import LemmaProof


class LemmaUnconfirmed(Exception):
    pass


def _sign(expr: sp.Expr) -> int:
    expr = sp.nsimplify(expr) if expr.is_Float else expr
    if expr.is_Rational:
        return (int(expr.p) > 0) - (int(expr.p) < 0)
    if sp.simplify(expr) == 0:
        return 0
    value = sp.N(expr, 50)
    if not value.is_real or abs(value) < sp.Float("1e-40"):
        raise LemmaUnconfirmed(f"the sign of {expr} could not be confirmed")
    return 1 if value > 0 else -1


def _equal(a: sp.Expr, b: sp.Expr) -> bool:
    return _sign(a - b) == 0


def check_lemma(scheme: Scheme, proof: LemmaProof, memo: dict | None = None) -> str:
    """'' never: a confirmation note, or LemmaUnconfirmed naming the premise that fails. `memo` keeps premises
    already confirmed for this scheme (several properties rest on the same ones)."""
    memo = {} if memo is None else memo
    K, p = scheme.K, proof.exponent
    given = scheme.given
    if given is None:
        raise LemmaUnconfirmed("the scheme has no determinate costs for the lemma to speak of")
    det = [[given[(h, y)] for y in range(K)] for h in range(K)]
    premise = {
        "power-mean-form": lambda: _rows_are_power_means(scheme, det, p),
        "singletons-are-costs": lambda: all(_equal(scheme.det(h, y), det[h][y]) for h in range(K) for y in range(K)),
        "nonnegative": lambda: all(_sign(v) >= 0 for row in det for v in row),
        "p<1": lambda: _sign(p - 1) < 0, "p<=1": lambda: _sign(p - 1) <= 0,
        "p>=1": lambda: _sign(p - 1) >= 0, "p<=0": lambda: _sign(p) <= 0,
        "zero-diagonal": lambda: all(_sign(det[y][y]) == 0 for y in range(K)),
        "no-cost-equal-to-diagonal": lambda: not any(_equal(det[h][y], det[y][y])
                                                     for y in range(K) for h in range(K) if h != y),
        "constant-off-diagonal": lambda: all(_equal(det[h][y], det[_first_other(y)][y])
                                             for y in range(K) for h in range(K) if h != y),
        "distinct-rows": lambda: not any(all(_equal(det[a][y], det[b][y]) for y in range(K))
                                         for a, b in combinations(range(K), 2)),
    }
    for name in proof.premises:
        if name not in premise:
            raise LemmaUnconfirmed(f"unknown premise '{name}'")
        if (name, p) not in memo:
            memo[(name, p)] = premise[name]()
        if not memo[(name, p)]:
            raise LemmaUnconfirmed(f"the premise '{name}' does not hold")
    return f"re-derived the {len(proof.premises)} premises of the {proof.name} lemma exactly"


def _first_other(y: int) -> int:
    return 1 if y == 0 else 0


def _rows_are_power_means(scheme: Scheme, det, p: sp.Expr) -> bool:
    """Each built indeterminate row is M_p of its members' costs, to 40 digits (Eq. 12 evaluated afresh)."""
    with mpmath.workdps(60):
        exponent = mpmath.mpf(sp.N(p, 70))
        for members in scheme.indeterminate_sets:
            for y in range(scheme.K):
                values = [mpmath.mpf(sp.N(det[h][y], 70)) for h in sorted(members)]
                if exponent == 0:
                    mean = mpmath.mpf(0) if min(values) == 0 else mpmath.exp(mpmath.fsum(map(mpmath.log, values))
                                                                              / len(values))
                else:
                    mean = (mpmath.fsum(v ** exponent for v in values) / len(values)) ** (1 / exponent)
                built = mpmath.mpf(sp.N(scheme.cost(members, y), 70))
                if abs(built - mean) > mpmath.mpf(10) ** -40 * (1 + abs(mean)):
                    return False
    return True
