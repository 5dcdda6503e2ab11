"""Independent re-check of the optimality evidence of a class-symmetric scheme checked on one set per size.

On such a scheme (proved class-symmetric, `scheme.orbits`) c_Y(y) is a_n for y ∈ Y and b_n for y ∉ Y, read
here from the representatives' exact rows. A witness must be a distribution p constant on Y and constant off
Y; there a set of m classes with j in Y costs a_m q + b_m (1 − q), q = j p_in + (m − j) p_out, and Y costs
a_n P(Y) + b_n (1 − P(Y)): each allowed (m, j) is compared with the checker's own `sign_sum` (all j when
few; else the two extremes, the difference being linear in j). A certificate names sets Z with rational
weights; each stands for its type (m, j) spread evenly over the relabellings that fix Y, whose averaged row
is the mean of the type's costs over Y and off Y: the mixture must cost no more (less, for `never`) than Y
at both. Evidence that does not survive becomes `unknown`.
"""

from __future__ import annotations

from verifier.check.checker import Checker, _Unconfirmed
from verifier.lazy_sympy import sympy as sp
from verifier.scheme import Scheme
from verifier.verdict import Optimal, SetOptimality

_ALL_J = 400  # (m, j) pairs compared one by one; beyond, the two extremes of each size


def check_orbit_optimality(scheme: Scheme, entries: dict[frozenset[int], SetOptimality],
                           checker: Checker | None = None) -> None:
    """Re-check in place; an entry whose evidence fails is downgraded to `unknown` with the reason."""
    checker = checker or Checker(scheme)
    for members, entry in list(entries.items()):
        try:
            _check(scheme, checker, entry)
        except _Unconfirmed as exc:
            entries[members] = SetOptimality(members, "unknown", reason=f"evidence not confirmed: {exc}")


def _ab(scheme: Scheme, m: int) -> tuple[sp.Expr, sp.Expr]:
    row = scheme.rows[frozenset(range(m))]
    return row[0], (row[m] if m < scheme.K else sp.Integer(0))


def _gap(scheme: Scheme, n: int, m: int, j: int, inside, outside) -> list[tuple[sp.Expr, sp.Expr]]:
    """E_p[c_Z] − E_p[c_Y] for Z of type (m, j) at p = inside on Y, outside off Y."""
    a_m, b_m = _ab(scheme, m)
    a_n, b_n = _ab(scheme, n)
    q, own = j * inside + (m - j) * outside, n * inside
    return [(q, a_m), (1 - q, b_m), (-own, a_n), (-(1 - own), b_n)]


def _check(scheme: Scheme, checker: Checker, entry: SetOptimality) -> None:
    K, members, top = scheme.K, entry.members, scheme.orbits.largest
    n, label = len(members), scheme.label(members)
    if entry.status == Optimal.UNKNOWN:
        return
    if entry.status in (Optimal.ALONE, Optimal.TIED):
        p = entry.witness
        if p is None or len(p) != K or any(not isinstance(x, sp.Rational) or x < 0 for x in p) or sum(p) != 1:
            raise _Unconfirmed(f"the witness for {label} is not a probability distribution")
        inside = {p[y] for y in members}
        outside = {p[y] for y in range(K) if y not in members}
        if len(inside) != 1 or len(outside) > 1:
            raise _Unconfirmed(f"the witness for {label} is not constant on the set and off it")
        u, v = inside.pop(), (outside.pop() if outside else sp.Integer(0))
        pairs = _pairs(K, n, top)
        signs = {pair: checker.sign_sum(_gap(scheme, n, *pair, u, v)) for pair in pairs}
        if entry.status == Optimal.ALONE and any(x != 1 for x in signs.values()):
            raise _Unconfirmed(f"{label} is not the unique minimiser at its witness")
        if entry.status == Optimal.TIED:
            if min(signs.values()) < 0:
                raise _Unconfirmed(f"{label} is not a minimiser at its witness")
            kinds = [_kind(members, z, top) for z in entry.tied_with]
            if not kinds or any(k is None or checker.sign_sum(_gap(scheme, n, *k, u, v)) != 0 for k in kinds):
                raise _Unconfirmed(f"the sets said to tie with {label} do not tie")
    if entry.status in (Optimal.TIED, Optimal.NEVER):
        lam = entry.certificate or {}
        weights = list(lam.values())
        if not lam or any(not isinstance(w, sp.Rational) or w < 0 for w in weights) or sum(weights) != 1:
            raise _Unconfirmed(f"the certificate for {label} is not a mixture of other sets")
        kinds = [_kind(members, z, top) for z in lam]
        if any(k is None for k in kinds):
            raise _Unconfirmed(f"the certificate for {label} names a set outside the family, or the set itself")
        ends = [(sp.Integer(0), sp.Rational(1, K - n)), (sp.Rational(1, n), sp.Integer(0))] if n < K else \
            [(sp.Rational(1, n), sp.Integer(0))]
        for u, v in ends:  # p uniform off Y, then on Y: the averaged mixture's two distinct columns
            terms = [(w * k, x) for w, kind in zip(weights, kinds) for k, x in _gap(scheme, n, *kind, u, v)]
            sign = checker.sign_sum(terms)
            if sign > 0 or (entry.status == Optimal.NEVER and sign == 0):
                raise _Unconfirmed(f"the certificate for {label} fails")


def _kind(members: frozenset[int], z, top: int) -> tuple[int, int] | None:
    if not isinstance(z, frozenset) or not z or z == members or len(z) > top:
        return None
    return len(z), len(z & members)


def _pairs(K: int, n: int, top: int) -> list[tuple[int, int]]:
    out = []
    for m in range(1, top + 1):
        low, high = max(0, m - (K - n)), min(m, n) - (1 if m == n else 0)
        if low > high:
            continue
        span = range(low, high + 1)
        out += [(m, j) for j in span] if (high - low + 1) * top <= _ALL_J else [(m, low), (m, high)]
    return out
