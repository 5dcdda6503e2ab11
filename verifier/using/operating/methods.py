"""Threshold choice methods as the cost line each presumed value ĉ selects (Hernández-Orallo et al.'s
Definitions 3-5), over ĉ in [0, 1]:

- score-driven: the scores are probabilities of class 1, the threshold is the cost proportion c(ĉ), and an
  instance is called class 1 when its score exceeds it (the Bayes decision; a score equal to the threshold is
  called class 0, as in the paper). Segments: the ĉ where c(ĉ) meets a score.
- optimal (test-optimal): the cut of least cost at ĉ on the same data, the lower envelope of the cost lines
  (ties: the lowest cut). Segments: the envelope's breakpoints.
- rate-driven: the share of instances called class 0 is ĉ itself (the predicted positive rate R(t) = ĉ, with
  fractional instances where a rate falls inside a group of tied scores): not a finite set of cost lines, but
  piecewise linear in ĉ with breakpoints at the groups' cumulative shares; it needs c(θ) = θ.

A segment is (from, to, cut): for ĉ in [from, to) the method predicts class 0 up to that cut.
"""

from __future__ import annotations

from bisect import bisect_right
from fractions import Fraction

from verifier.errors import UsageError
from verifier.using.abstention import Hull
from verifier.using.operating.lines import Lines

METHODS = ("score", "rate", "optimal")


def _crossings(lines: Lines, values) -> list[Fraction]:
    """The θ in (0, 1) where the cost proportion c(θ) equals one of `values` (c is monotone on [0, 1]: a ratio
    of affine functions whose denominator c0 + c1 stays positive)."""
    c = lines.costs
    if c.is_proportion:  # c(θ) = θ: the values are the crossings themselves
        return [Fraction(0), *sorted(m for m in set(values) if 0 < m < 1), Fraction(1)]
    a0 = c.zero_as_one.a - c.zero_as_zero.a
    b0 = c.zero_as_one.b - c.zero_as_zero.b
    a1 = c.one_as_zero.a - c.one_as_one.a
    b1 = c.one_as_zero.b - c.one_as_one.b
    found = set()
    for m in values:  # c(θ) = m  <=>  a0 + b0 θ = m (a0 + a1 + (b0 + b1) θ)
        slope = b0 - m * (b0 + b1)
        if slope != 0:
            theta = (m * (a0 + a1) - a0) / slope
            if 0 < theta < 1:
                found.add(theta)
    return [Fraction(0), *sorted(found), Fraction(1)]


def score_segments(lines: Lines, scores: tuple[Fraction, ...]) -> list[tuple[Fraction, Fraction, int]]:
    """Score-driven segments; `scores` are the staircase's distinct scores, which must lie in [0, 1]."""
    if scores and (scores[0] < 0 or scores[-1] > 1):
        raise UsageError(f"score-driven thresholds read scores as probabilities; these range from "
                         f"{float(scores[0]):g} to {float(scores[-1]):g}, outside [0, 1] (use rate or optimal)")
    ends = _crossings(lines, scores)
    if lines.costs.is_proportion:  # no score lies strictly inside a segment: count the scores up to its start
        cuts = [bisect_right(scores, Fraction(0))]
        for lo in ends[1:-1]:
            cuts.append(cuts[-1] + 1 if cuts[-1] < len(scores) and scores[cuts[-1]] == lo else cuts[-1])
        return _merged([(lo, hi, cut) for lo, hi, cut in zip(ends, ends[1:], cuts)])
    proportion = lines.costs.proportion
    return _merged([(lo, hi, bisect_right(scores, proportion((lo + hi) / 2))) for lo, hi in zip(ends, ends[1:])])


def optimal_segments(lines: Lines, hull: Hull) -> list[tuple[Fraction, Fraction, int]]:
    """The lower envelope of the cost lines over [0, 1] (ties: the lowest cut). The cost of cut t is a constant
    plus (c1 O_t - c0 Z_t)/n, so the best cut at θ is the hull query at λ = c0/c1 (`abstention.staircase.Hull`),
    and it changes where c(θ) = s/(1 + s) for a hull slope s."""
    ends = _crossings(lines, [s / (1 + s) for s in hull.slopes])
    out = []
    for lo, hi in zip(ends, ends[1:]):
        c = lines.costs.proportion((lo + hi) / 2)
        out.append((lo, hi, hull.smallest(None if c == 1 else c / (1 - c))))
    return _merged(out)


def _merged(segments):
    out = []
    for seg in segments:
        if out and out[-1][2] == seg[2]:
            out[-1] = (out[-1][0], seg[1], seg[2])
        else:
            out.append(seg)
    return out


def rate_points(lines: Lines) -> list[tuple[Fraction, Fraction, Fraction]]:
    """Rate-driven: (rate, class-1 count, class-0 count) called class 0 at each group boundary; linear between."""
    if not lines.costs.is_proportion:
        raise UsageError("rate-driven thresholds set the share of class-0 predictions to the presumed cost "
                         "proportion: the spec's parameter must be the cost proportion itself (c(θ) = θ)")
    s = lines.stairs
    return [(Fraction(s.counted(t), s.n), Fraction(s.p[t]), Fraction(s.q[t])) for t in range(s.k + 1)]


def rate_counts(points, rate: Fraction, starts: list[Fraction] | None = None) -> tuple[Fraction, Fraction]:
    """(class-1, class-0) counts called class 0 at `rate`, interpolated inside a group of tied scores; `starts`:
    the points' rates, when the caller keeps them."""
    r = bisect_right(starts if starts is not None else [p[0] for p in points], rate)
    if r >= len(points):
        return points[-1][1], points[-1][2]
    (x0, o0, z0), (x1, o1, z1) = points[r - 1], points[r]
    f = (rate - x0) / (x1 - x0)
    return o0 + f * (o1 - o0), z0 + f * (z1 - z0)
