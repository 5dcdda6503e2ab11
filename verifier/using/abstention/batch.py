"""The optimal windows of many scenarios at once, the same as `windows.optimal_window` one by one (a test
compares them): the lower cut depends on ν alone and the best threshold on μ alone, so each is computed once per
distinct value; the upper cut, a hull query at λ2 = (μ - ν)/ν for each scenario, is found with floats and kept
only where a bound on their rounding proves the comparison (a gap above SURE times the terms' size); the others, such as a
grid point on a slope exactly, are decided with exact fractions.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from verifier import limits
from verifier.using.abstention.staircase import Hull, Staircase
from verifier.using.abstention.windows import Window

SURE = 1e-9  # gap, relative to the size of the terms, beyond which a float comparison is certain (errors ~1e-15)


def optimal_windows(stairs: Staircase, hull: Hull, scenarios: list[tuple[Fraction, Fraction]]) -> list[Window]:
    lows: dict[Fraction, int] = {}
    thresholds: dict[Fraction, int] = {}
    abstaining = [nu * (1 + mu) < mu for mu, nu in scenarios]
    highs = _upper_cuts(hull, [s for s, a in zip(scenarios, abstaining) if a])
    out, upper = [], iter(highs)
    for (mu, nu), pays in zip(scenarios, abstaining):
        limits.check_time()
        if pays:
            low = lows.get(nu)
            if low is None:
                low = lows[nu] = hull.largest(nu / (1 - nu))
            high = next(upper)
        else:
            low = high = thresholds.get(mu)
            if low is None:
                low = high = thresholds[mu] = hull.smallest(mu)
        out.append(_window(stairs, low, high, mu, nu))
    return out


def _upper_cuts(hull: Hull, scenarios: list[tuple[Fraction, Fraction]]) -> list[int]:
    """hull.smallest((μ - ν)/ν) for each scenario (ν = 0: the last cut)."""
    if not scenarios:
        return []
    near = np.array(hull._near + [np.inf])
    mu = np.array([float(m) for m, _ in scenarios])
    nu = np.array([float(v) for _, v in scenarios])
    with np.errstate(divide="ignore", invalid="ignore"):
        lam = np.where(nu > 0, (mu - nu) / nu, np.inf)
        # rounding: μ, ν and each slope within a relative 2^-53 of the exact value, λ2 within a few of those
        # times (μ + ν)/ν (the subtraction may cancel); SURE is far above that
        tolerance = SURE * ((mu + nu) / nu + np.abs(lam) + 1)
        r = np.searchsorted(near[:-1], lam, side="left")
        gap_right = np.abs(near[r] - lam) > tolerance
        before = near[np.maximum(r - 1, 0)]
        gap_left = (r == 0) | (np.abs(before - lam) > tolerance)
    sure = (gap_right | np.isinf(lam)) & gap_left & (nu > 0) | (nu == 0)
    cuts = np.array(hull.cuts)[r].tolist()
    for s in np.flatnonzero(~sure).tolist():
        m, v = scenarios[s]
        cuts[s] = hull.smallest((m - v) / v)
    return cuts


def _window(stairs: Staircase, low: int, high: int, mu: Fraction, nu: Fraction) -> Window:
    dm, dn = mu.denominator, nu.denominator
    abstained = stairs.counted(high) - stairs.counted(low)
    cost = Fraction(stairs.p[low] * dm * dn + mu.numerator * dn * (stairs.q[-1] - stairs.q[high])
                    + nu.numerator * dm * abstained, stairs.n * dm * dn)
    return Window(low, high, cost, abstained)
