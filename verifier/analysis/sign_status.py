"""A set's status (alone, tied, never) from the signs of its decisive factors alone, by oriented-matroid
covectors: no point, no LP, so it is exact at algebraic parameter points too.

With v_Z = c_Z − c_Y for every other set Z and the unit vectors e_y, "Y alone at some p" is a covector of the
configuration {v_Z} ∪ {e_y} that is positive on every v_Z and nonnegative on every e_y; "a minimiser" is a
nonnegative covector positive on some e_y (p ≥ 0, p ≠ 0, every E_p[c_Z − c_Y] ≥ 0). Every nonnegative covector
is a composition of nonnegative cocircuits (Björner et al., Oriented Matroids, Prop. 3.7.2), so both questions
are read from the union of the nonnegative cocircuits' supports. A cocircuit is, for K−1 elements S spanning a
hyperplane, x ↦ χ(S, x), the sign of the determinant of S and x; each determinant is ± a square minor of the
comparison matrix (rows v_Z), whose sign is its lex-leading coefficient's times the product of its factors'
signs (`analysis.sign_factors`: every factor primitive with a positive leading coefficient).

Owns: `SignStatus`. May import: scheme, verdict, `analysis.sign_factors`, `analysis.polynomial_matrix`.
"""

from __future__ import annotations

import itertools

import numpy as np

from verifier.analysis.polynomial_matrix import as_flint, as_sympy, primitive
from verifier.analysis.sign_factors import Factor, comparison_rows, square_minors
from verifier.scheme import ClassSet, Scheme
from verifier.verdict import Optimal


class SignStatus:
    """Y's status as a function of the signs of `factors` (the decisive factors, in their order), compared with
    the sets `against` (default: every other set; its own members for Definition 4's "possible")."""

    def __init__(self, scheme: Scheme, members: ClassSet, factors: list[Factor],
                 against: list[ClassSet] | None = None):
        K, symbols = scheme.K, list(scheme.symbols)
        V = as_flint(comparison_rows(scheme, members, against), symbols)
        if V is None:
            raise ValueError("costs are not polynomials with rational coefficients")
        self.m, self.K = len(V), K
        index = {f.expr: i for i, f in enumerate(factors)}
        minors = square_minors(V, K)
        keys = list(minors)
        lead = np.zeros(len(keys) + 1, dtype=np.int8)
        exponents = np.zeros((len(keys) + 1, len(factors)), dtype=np.int32)
        known: dict[tuple, dict[int, int]] = {}
        for i, key in enumerate(keys):
            minor = minors[key]
            if minor.is_zero():
                continue
            terms = minor.to_dict()
            lead[i] = 1 if terms[max(terms)] > 0 else -1
            if minor.is_constant():
                continue
            representative = tuple(sorted(primitive(minor).items()))
            if representative not in known:
                known[representative] = {}
                for factor, e in minor.factor()[1]:
                    if not factor.is_constant():
                        at = index[as_sympy(primitive(factor), symbols)]
                        known[representative][at] = known[representative].get(at, 0) + e
            for at, e in known[representative].items():
                exponents[i, at] = e
        lead[len(keys)] = 1  # the empty minor: K unit vectors
        self.lead, self.exponents = lead, exponents
        self._chirotope_index(keys)

    def _chirotope_index(self, keys: list) -> None:
        """For every (K−1)-subset S and element x: which minor χ(S, x) is, and the sign that orders it."""
        m, K = self.m, self.K
        position = {key: i for i, key in enumerate(keys)}
        position[((), ())] = len(keys)
        n = m + K
        subsets = list(itertools.combinations(range(n), K - 1))
        minor_of = np.zeros((len(subsets), n), dtype=np.int64)
        sign_of = np.zeros((len(subsets), n), dtype=np.int8)
        for s, S in enumerate(subsets):
            for x in range(n):
                if x in S:
                    continue
                T = tuple(sorted((*S, x)))
                r = tuple(i for i in T if i < m)
                D = [i - m for i in T if i >= m]
                c = tuple(j for j in range(K) if j not in D)
                order = list(c) + D
                inversions = sum(order[i] > order[j] for i in range(K) for j in range(i + 1, K))
                after = sum(t > x for t in S)
                minor_of[s, x] = position[(r, c)]
                sign_of[s, x] = -1 if (inversions + after) % 2 else 1
        self.minor_of, self.sign_of = minor_of, sign_of

    def status(self, signs: tuple[int, ...]) -> Optimal:
        """Y's exact status where the factors have these signs (-1, 0, 1 each)."""
        signs = np.asarray(signs, dtype=np.int8)
        zero = self.exponents[:, signs == 0].sum(axis=1) > 0
        odd = self.exponents[:, signs < 0].sum(axis=1) % 2 == 1
        minor = np.where(zero, 0, np.where(odd, -self.lead, self.lead))
        chi = minor[self.minor_of] * self.sign_of
        nonzero = (chi != 0).any(axis=1)
        nonnegative = nonzero & (((chi >= 0).all(axis=1)) | ((chi <= 0).all(axis=1)))
        support = (chi[nonnegative] != 0).any(axis=0)
        if self.m and support[:self.m].all():
            return Optimal.ALONE
        return Optimal.TIED if support[self.m:].any() else Optimal.NEVER
