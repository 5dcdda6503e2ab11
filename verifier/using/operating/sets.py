"""The score-driven method generalised to any spec and class probabilities (Hernández-Orallo et al.'s item for
more than two classes): at the presumed value ĉ each row predicts its Bayes-optimal set under the scheme at ĉ,
and pays that set's cost at the true c. With every cost affine in the parameter, a set's expected cost under a
row's probabilities is affine in ĉ, so each row's decisions change at finitely many ĉ (the breakpoints of the
lower envelope of those lines, exact rationals), and the row pays a straight cost line of c on each piece:
K_v(c) is again the Lemma 1 sum, over every row's pieces. Ties between sets at a breakpoint do not change any
integral; where two sets have the same line, the smaller set, then the first in class order, is taken (the rule
`decide` states).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from verifier import limits
from verifier.scheme import Scheme
from verifier.using.abstention import SETS, SINGLE
from verifier.using.operating.lines import affine
from verifier.using.operating.uncertainty import EPS, _check_betainc, _integral


def affine_costs(scheme: Scheme, parameter: str, path: str) -> tuple[list, list, list]:
    """(sets, a, b): the allowed sets in the tie rule's order and each cost c_set(y) = a[s][y] + b[s][y] θ."""
    symbol = next(s for s in scheme.symbols if s.name == parameter)
    sets = sorted(scheme.rows, key=lambda m: (len(m), sorted(m)))
    cells = [[affine(scheme.cost(members, y), symbol, f"predicting {scheme.label(members)} for "
                     f"{scheme.label(frozenset((y,)))}", scheme, SETS if len(members) > 1 else SINGLE)
              for y in range(scheme.K)] for members in sets]
    return sets, [[c.a for c in row] for row in cells], [[c.b for c in row] for row in cells]


def row_pieces(p: list[Fraction], a: list, b: list) -> list[tuple[Fraction, Fraction, int]]:
    """(from, to, set index): the Bayes-optimal set of a row over ĉ in [0, 1] (the lower envelope)."""
    alpha = [sum((py * ay for py, ay in zip(p, row)), Fraction(0)) for row in a]
    beta = [sum((py * by for py, by in zip(p, row)), Fraction(0)) for row in b]
    pieces, theta = [], Fraction(0)
    while theta < 1:
        best = min(range(len(a)), key=lambda s: (alpha[s] + beta[s] * theta, beta[s], s))
        nxt = Fraction(1)
        for s in range(len(a)):
            if beta[s] < beta[best]:
                meet = (alpha[s] - alpha[best]) / (beta[best] - beta[s])
                if theta < meet < nxt:
                    nxt = meet
        if pieces and pieces[-1][2] == best:
            pieces[-1] = (pieces[-1][0], nxt, best)
        else:
            pieces.append((theta, nxt, best))
        theta = nxt
    return pieces


class RowChoice:
    """Every row's pieces (from, to, cost line l + k c of the set it predicts there, divided by n): the same
    interface as `uncertainty.Choice`, for `uncertainty.loss` and the evaluation."""

    def __init__(self, rows, truth: np.ndarray, a: list, b: list):
        n = len(truth)
        self.pieces = []  # (from, to, l, k, row)
        for i, (p, y) in enumerate(zip(rows, truth.tolist())):
            limits.check_time()
            for lo, hi, s in row_pieces(p, a, b):
                self.pieces.append((lo, hi, a[s][y] / n, b[s][y] / n, i))
        self.n = n
        self.segments = self.pieces  # for the evaluation's "segments" checks
        self.rate = None

    def affine_zero(self) -> tuple[Fraction, Fraction]:
        """γ = 0: K(c) = A + B c, every piece's cost line weighted by its length, exactly."""
        return (sum(((hi - lo) * l for lo, hi, l, _, _ in self.pieces), Fraction(0)),
                sum(((hi - lo) * k for lo, hi, _, k, _ in self.pieces), Fraction(0)))

    def certain(self, c: Fraction) -> Fraction:
        """γ = ∞: K(c), the cost at c of the set each row predicts at ĉ = c, exactly."""
        return sum((l + k * c for lo, hi, l, k, _ in self.pieces if lo <= c < hi or hi == c == 1), Fraction(0))

    def exact_certain(self, weight) -> Fraction | None:
        """L under certainty, exactly, each cost line integrated over its piece, when w is a polynomial (whole a
        and b); else None."""
        w = weight.polynomial
        if w is None:
            return None
        return sum((_integral((l, k), lo, hi, w) for lo, hi, l, k, _ in self.pieces), Fraction(0))

    def curve(self, gamma, grid):
        """K at every grid point: Fractions for γ = 0 and γ = ∞ (None), else floats with their error bound."""
        if gamma == 0:
            a, b = self.affine_zero()
            return [a + b * c for c in grid], 0.0
        if gamma is None:
            return [self.certain(c) for c in grid], 0.0
        return self.uncertain(gamma, np.array([float(c) for c in grid])).tolist(), self.bound(gamma)

    def uncertain(self, gamma: float, c: np.ndarray) -> np.ndarray:
        """K(c) for 0 < γ < ∞, as floats."""
        from scipy.special import betainc

        alpha, beta = (c * gamma + 1)[:, None], ((1 - c) * gamma + 1)[:, None]
        lo = np.array([float(x[0]) for x in self.pieces])[None, :]
        hi = np.array([float(x[1]) for x in self.pieces])[None, :]
        l = np.array([float(x[2]) for x in self.pieces])[None, :]
        k = np.array([float(x[3]) for x in self.pieces])[None, :]
        mass = betainc(alpha, beta, hi) - betainc(alpha, beta, lo)
        return (mass * (l + k * c[:, None])).sum(axis=1)

    def bound(self, gamma=None) -> float:
        """A bound on the rounding of each K value: every betainc within EPS of its value, summed over the pieces
        with each piece's largest cost as the factor. The premise is checked (`_check_betainc`) at sample points."""
        if gamma not in (None, 0):
            _check_betainc(gamma, sorted({float(x[0]) for x in self.pieces}))
        size = sum(max(abs(float(l)), abs(float(l + k))) for _, _, l, k, _ in self.pieces)
        return 4 * EPS * size + 1e-15

    def instance_losses(self, gamma) -> np.ndarray:
        """Each row's loss (uniform weight): γ = 0 its lines at c = 1/2 over its pieces, γ = ∞ each line over its
        own piece."""
        out = np.array([Fraction(0)] * self.n, dtype=object)
        for lo, hi, l, k, i in self.pieces:
            at = Fraction(1, 2) if gamma == 0 else (lo + hi) / 2
            out[i] += (hi - lo) * (l + k * at) * self.n
        return out
