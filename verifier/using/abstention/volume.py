"""The volume under the abstention cost curve (VACC): the integral of the minimum expected cost c*(μ, ν) over
μ, ν in [0, 1], and the area of the square where abstaining pays (the narrowest optimal window is not empty).

Exactly: c* is the lower envelope of the windows' planes, so for fixed μ it is piecewise linear in ν, with
breakpoints where the window's lower cut changes (ν = s/(1+s) for the hull slopes s < μ) or its upper cut
changes (ν = μ/(1+s) for the slopes s >= μ), constant from ν_e(μ) on, where the window becomes empty. Its
integral over ν, A(μ), is exact by the trapezoid rule on those breakpoints; between the values of μ where their
order or the cut of the best threshold changes (μ = s, and μ = s(1+s')/(1+s) where a constant breakpoint meets
a moving one), the breakpoints are linear in μ, so A is a quadratic and Simpson's rule integrates it exactly.

Bounded: from the optimal windows on a grid, c* being concave (a minimum of planes) lies above the linear
interpolation on each triangle of a cell, and below each corner window's plane: the two give exact rational
bounds, with no assumption on the data.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from fractions import Fraction

from verifier import limits
from verifier.using.abstention.score_staircase import Hull, Staircase
from verifier.using.abstention.windows import Window, optimal_window, window_cost

MAX_EXACT_WORK = 4_000_000  # events x hull edges beyond which the volume is bounded from a grid instead
BOUND_POINTS = 129  # per axis, for the bounds


@dataclass(frozen=True)
class Volume:
    """VACC and the area where abstaining pays: exact (`low == high`) or enclosed by exact bounds."""

    low: Fraction
    high: Fraction
    pays_low: Fraction
    pays_high: Fraction
    method: str  # "exact" or "grid bounds (G x G)"

    @property
    def exact(self) -> bool:
        """Whether the VACC is known exactly (its bounds meet)."""
        return self.low == self.high


def events(hull: Hull) -> list[Fraction]:
    """The values of μ in [0, 1] between which A(μ) is one quadratic."""
    found = {Fraction(0), Fraction(1)}
    found.update(s for s in hull.slopes if 0 < s < 1)
    for r, s in enumerate(hull.slopes):
        if s >= 1:
            break
        for t in hull.slopes[r + 1:]:
            mu = s * (1 + t) / (1 + s)
            if mu >= 1:
                break  # increasing in t
            found.add(mu)
    return sorted(found)


class Sections:
    """A(μ) and ν_e(μ) in O(log H) each. Below ν_e(μ) the least cost times n is f*(ν) + g*(μ, ν), the lower cut's
    part f*(ν) = min_i P_i - ν C_i and the upper cut's g*(μ, ν) = min_j ν C_j + μ (N - N_j); from ν_e(μ) on it is
    the best threshold's h*(μ). So n A(μ) = F(ν_e) + μ² Γ(ν_e/μ) + (1 - ν_e) h*(μ), with F(x) the integral of f*
    from 0 to x and Γ(y) that of γ(t) = min_j t C_j - N_j + N (g* = μ γ(ν/μ)): both piecewise quadratic, their
    pieces integrated once here."""

    def __init__(self, stairs: Staircase, hull: Hull):
        self.stairs, self.hull = stairs, hull
        p, q = stairs.p, stairs.q
        cuts, slopes = hull.cuts, hull.slopes
        # f*: vertex k on [s_{k-1}/(1+s_{k-1}), s_k/(1+s_k)]
        self.f_ends = [s / (1 + s) for s in slopes]
        self.f_lines = [(p[c], p[c] + q[c]) for c in cuts]  # P - ν C
        self.f_cumulative = _cumulative([Fraction(0)] + self.f_ends, self.f_lines, lambda line, a, b:
                                        line[0] * (b - a) - line[1] * (b * b - a * a) / 2)
        # γ: vertex m, m-1, ..., 0 on the ascending breakpoints 1/(1+s) of the slopes from the last
        self.g_ends = [1 / (1 + s) for s in reversed(slopes)]
        total = q[-1]
        self.g_lines = [(total - q[c], p[c] + q[c]) for c in reversed(cuts)]  # N - N_j + t C_j
        self.g_cumulative = _cumulative([Fraction(0)] + self.g_ends, self.g_lines, lambda line, a, b:
                                        line[0] * (b - a) + line[1] * (b * b - a * a) / 2)

    def at(self, mu: Fraction) -> tuple[Fraction, Fraction]:
        """(A(μ), ν_e(μ))."""
        if mu == 0:
            return Fraction(0), Fraction(0)  # predicting P everywhere costs nothing
        hull, stairs = self.hull, self.stairs
        cut = hull.smallest(mu)
        r0 = hull.vertex_index(cut)
        left = self.f_ends[r0 - 1] if r0 > 0 else Fraction(0)
        right = mu / (1 + hull.slopes[r0]) if r0 < len(hull.slopes) else Fraction(0)
        empty_from = max(left, right)
        best = stairs.p[cut] + mu * (stairs.q[-1] - stairs.q[cut])
        upper = mu * mu * _integral(self.g_ends, self.g_lines, self.g_cumulative, empty_from / mu, 1)
        lower = _integral(self.f_ends, self.f_lines, self.f_cumulative, empty_from, -1)
        return (lower + upper + (1 - empty_from) * best) / stairs.n, empty_from


def _cumulative(starts: list[Fraction], lines: list, piece) -> list[Fraction]:
    """The integral from 0 to the start of each piece."""
    out = [Fraction(0)]
    for line, a, b in zip(lines, starts, starts[1:]):
        out.append(out[-1] + piece(line, a, b))
    return out


def _integral(ends: list[Fraction], lines: list, cumulative: list[Fraction], x: Fraction, sign: int) -> Fraction:
    """The integral from 0 to x of the piecewise linear function a + sign * b * t (pieces ending at `ends`)."""
    k = bisect_left(ends, x)
    a = ends[k - 1] if k > 0 else Fraction(0)
    constant, slope = lines[k]
    return cumulative[k] + constant * (x - a) + sign * slope * (x * x - a * a) / 2


def section(stairs: Staircase, hull: Hull, mu: Fraction) -> tuple[Fraction, Fraction]:
    """(A(μ), ν_e(μ)) by the trapezoid rule on the breakpoints in ν (the slow, direct route; `Sections` is the
    fast one, and a test holds them equal)."""
    if mu == 0:
        return Fraction(0), Fraction(0)
    r0 = hull.vertex_index(hull.smallest(mu))
    slopes = hull.slopes
    lower = [s / (1 + s) for s in slopes[:r0]]
    upper = [mu / (1 + s) for s in slopes[r0:]]
    empty_from = max(lower[-1] if lower else Fraction(0), upper[0] if upper else Fraction(0))
    points = sorted({Fraction(0), empty_from, *lower, *upper})
    values = [optimal_window(stairs, hull, mu, nu).cost for nu in points]
    area = sum(((b - a) * (fa + fb) for a, b, fa, fb in zip(points, points[1:], values, values[1:])), Fraction(0)) / 2
    return area + (1 - empty_from) * values[-1], empty_from


def exact_volume(stairs: Staircase, hull: Hull) -> Volume | None:
    """The exact VACC and area where abstaining pays; None when the work would pass MAX_EXACT_WORK."""
    cuts = events(hull)
    if len(cuts) * (len(hull.slopes) + 2) > MAX_EXACT_WORK:
        return None
    volume = pays = Fraction(0)
    at = Sections(stairs, hull).at
    previous = at(cuts[0])
    for a, b in zip(cuts, cuts[1:]):
        limits.check_time()
        middle, end = at((a + b) / 2), at(b)
        volume += (b - a) * (previous[0] + 4 * middle[0] + end[0]) / 6
        pays += (b - a) * (previous[1] + 4 * middle[1] + end[1]) / 6
        previous = end
    return Volume(volume, volume, pays, pays, "exact")


def grid_volume(stairs: Staircase, hull: Hull, points: int = BOUND_POINTS) -> Volume:
    """Exact bounds on VACC and on the area where abstaining pays, from the optimal windows on a grid."""
    ticks = [Fraction(i, points - 1) for i in range(points)]
    best: list[list[Window]] = []
    for mu in ticks:
        limits.check_time()
        best.append([optimal_window(stairs, hull, mu, nu) for nu in ticks])
    cell = Fraction(1, (points - 1) ** 2)
    low = high = Fraction(0)
    for a in range(points - 1):
        for b in range(points - 1):
            corners = (best[a][b], best[a + 1][b], best[a][b + 1], best[a + 1][b + 1])
            c00, c10, c01, c11 = (w.cost for w in corners)
            low += cell * max(c00 + c11 + (c10 + c01) / 2, c10 + c01 + (c00 + c11) / 2) / 3
            centre = ((ticks[a] + ticks[a + 1]) / 2, (ticks[b] + ticks[b + 1]) / 2)
            high += cell * min(window_cost(stairs, w.low, w.high, *centre) for w in corners)
    # ν_e(μ) is continuous and non-decreasing (the best cut moves right as μ grows, and both of ν_e's terms grow
    # with it), so between two grid values of μ the area below it lies between the steps at either end
    at = Sections(stairs, hull).at
    edges = [at(mu)[1] for mu in ticks]
    step = Fraction(1, points - 1)
    return Volume(low, high, step * sum(edges[:-1]), step * sum(edges[1:]), f"grid bounds ({points} x {points})")
