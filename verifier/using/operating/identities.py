"""The paper's results, computed independently on the data so that the evaluation can show they hold exactly:
with the paper's cost proportion (costs 2c and 2(1 - c), right predictions free) and uniform w,

- score-driven thresholds: L under certainty is the Brier score, under complete uncertainty the mean absolute
  error (Corollary 1);
- rate-driven thresholds under complete uncertainty: π0 π1 (1 - 2 AUC) + 1/2 (Corollary 2; AUC counts ties
  as one half), 1/6 more than under certainty, π0 π1 (1 - 2 AUC) + 1/3;
- optimal thresholds under complete uncertainty: the constant curve 2 π0 s̄*_0 (Theorem 6), with s* the scores
  after perfect calibration: the isotonic regression of the class on the score, exactly, as the slopes of the
  greatest convex minorant of the cumulative counts (pool adjacent violators gives the same; a test compares
  it with scipy's `isotonic_regression`); and twice the loss under certainty (Theorem 7).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from verifier.using.abstention import Staircase
from verifier.using.operating.lines import Costs


@dataclass(frozen=True)
class Identities:
    """The paper's quantities on one classifier's data, exact rationals: the Brier score, the mean absolute
    error, the AUC, and the losses Corollary 2, the rate-driven method under certainty and Theorem 6 predict."""

    brier: Fraction
    mae: Fraction
    auc: Fraction
    corollary_2: Fraction  # π0 π1 (1 - 2 AUC) + 1/2
    rate_certain: Fraction  # π0 π1 (1 - 2 AUC) + 1/3, rate-driven under certainty (1/6 less)
    theorem_6: Fraction  # 2 π0 s̄*_0


def paper_form(costs: Costs) -> bool:
    """Whether the spec's costs are the paper's: 2c for a class-0 instance called 1, 2(1 - c) for the reverse."""
    return (costs.one_as_one.a == costs.one_as_one.b == 0 and costs.zero_as_zero.a == costs.zero_as_zero.b == 0
            and (costs.zero_as_one.a, costs.zero_as_one.b) == (0, 2)
            and (costs.one_as_zero.a, costs.one_as_zero.b) == (2, -2))


def identities(stairs: Staircase) -> Identities:
    """The paper's quantities from a classifier's staircase (class 1 its positives), exactly; the AUC is 1/2
    when a class has no instance."""
    s = stairs
    n, n1, n0 = s.n, s.p[-1], s.q[-1]
    ones = np.diff(s.positives).tolist()
    zeros = np.diff(s.negatives).tolist()
    brier = sum((o * (1 - m) ** 2 + z * m ** 2 for m, o, z in zip(s.scores, ones, zeros)), Fraction(0)) / n
    mae = sum((o * abs(1 - m) + z * abs(m) for m, o, z in zip(s.scores, ones, zeros)), Fraction(0)) / n
    # AUC: a class-1 instance above a class-0 one, ties one half
    pairs = 0
    zeros_below = 0
    for o, z in zip(ones, zeros):
        pairs += o * (2 * zeros_below + z)
        zeros_below += z
    auc = Fraction(pairs, 2 * n1 * n0) if n1 and n0 else Fraction(1, 2)
    pi0, pi1 = Fraction(n0, n), Fraction(n1, n)
    calibrated_zero = sum((slope * z for slope, z in zip(calibrated(s), zeros)), Fraction(0))
    theorem_6 = 2 * pi0 * (calibrated_zero / n0 if n0 else Fraction(0))
    spread = pi0 * pi1 * (1 - 2 * auc)
    return Identities(brier, mae, auc, spread + Fraction(1, 2), spread + Fraction(1, 3), theorem_6)


def calibrated(s: Staircase) -> list[Fraction]:
    """The isotonic (non-decreasing) fit of the class-1 indicator on the scores, per distinct score: the slopes
    of the greatest convex minorant of the points (C_t, P_t)."""
    x = [s.counted(t) for t in range(s.k + 1)]
    y = s.p
    hull: list[int] = []
    for t in range(s.k + 1):
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            if (x[b] - x[a]) * (y[t] - y[a]) - (y[b] - y[a]) * (x[t] - x[a]) <= 0:
                hull.pop()
            else:
                break
        hull.append(t)
    out = []
    for a, b in zip(hull, hull[1:]):
        out += [Fraction(y[b] - y[a], x[b] - x[a])] * (b - a)
    return out
