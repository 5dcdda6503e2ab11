"""The optimal windows of many scenarios at once, the same as `windows.optimal_window` one by one (a test
compares them): the lower cut depends on the abstention costs alone and the best threshold on μ alone, so each is
computed once per distinct value; the upper cut, a hull query at λ2 = (μ - ν_N)/ν_P for each scenario, is found
with floats and kept only where a bound on their rounding proves the comparison (a gap above SURE times the
terms' size); the others, such as a grid point on a slope exactly, are decided with exact fractions. A scenario
is (μ, ν) or (μ, ν_P, ν_N).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from verifier import limits
from verifier.using.abstention.score_staircase import Hull, Staircase
from verifier.using.abstention.windows import Window, pays, window_cost

SURE = 1e-9  # gap, relative to the size of the terms, beyond which a float comparison is certain (errors ~1e-15)


def optimal_windows(stairs: Staircase, hull: Hull, scenarios: list[tuple]) -> list[Window]:
    """The optimal window of the classifier at each scenario, (μ, ν) or (μ, ν_P, ν_N), in order: the windows
    `windows.optimal_window` gives one by one, floats deciding only where their rounding cannot change the cut."""
    triples = [s if len(s) == 3 else (s[0], s[1], s[1]) for s in scenarios]
    lows: dict[tuple, int] = {}
    thresholds: dict[Fraction, int] = {}
    abstaining = [pays(mu, nu, nu_n) for mu, nu, nu_n in triples]
    highs = _upper_cuts(hull, [s for s, a in zip(triples, abstaining) if a])
    out, upper = [], iter(highs)
    for (mu, nu, nu_n), abstains in zip(triples, abstaining):
        limits.check_time()
        if abstains:
            low = lows.get((nu, nu_n))
            if low is None:
                low = lows[(nu, nu_n)] = hull.largest(nu_n / (1 - nu))
            high = next(upper)
        else:
            low = high = thresholds.get(mu)
            if low is None:
                low = high = thresholds[mu] = hull.smallest(mu)
        out.append(_window(stairs, low, high, mu, nu) if nu == nu_n else
                   Window(low, high, window_cost(stairs, low, high, mu, nu, nu_n),
                          stairs.counted(high) - stairs.counted(low)))
    return out


def _upper_cuts(hull: Hull, scenarios: list[tuple[Fraction, Fraction, Fraction]]) -> list[int]:
    """hull.smallest((μ - ν_N)/ν_P) for each scenario (ν_P = 0: the last cut)."""
    if not scenarios:
        return []
    near = np.array(hull._near + [np.inf])
    mu = np.array([float(m) for m, _, _ in scenarios])
    nu = np.array([float(v) for _, v, _ in scenarios])
    nu_n = np.array([float(v) for _, _, v in scenarios])
    with np.errstate(divide="ignore", invalid="ignore"):
        lam = np.where(nu > 0, (mu - nu_n) / nu, np.inf)
        # rounding: μ, ν and each slope within a relative 2^-53 of the exact value, λ2 within a few of those
        # times (μ + ν_N)/ν_P (the subtraction may cancel); SURE is far above that
        tolerance = SURE * ((mu + nu_n) / nu + np.abs(lam) + 1)
        r = np.searchsorted(near[:-1], lam, side="left")
        gap_right = np.abs(near[r] - lam) > tolerance
        before = near[np.maximum(r - 1, 0)]
        gap_left = (r == 0) | (np.abs(before - lam) > tolerance)
    sure = (gap_right | np.isinf(lam)) & gap_left & (nu > 0) | (nu == 0)
    cuts = np.array(hull.cuts)[r].tolist()
    for s in np.flatnonzero(~sure).tolist():
        m, v, v_n = scenarios[s]
        cuts[s] = hull.smallest((m - v_n) / v)
    return cuts


def _window(stairs: Staircase, low: int, high: int, mu: Fraction, nu: Fraction) -> Window:
    dm, dn = mu.denominator, nu.denominator
    abstained = stairs.counted(high) - stairs.counted(low)
    cost = Fraction(stairs.p[low] * dm * dn + mu.numerator * dn * (stairs.q[-1] - stairs.q[high])
                    + nu.numerator * dm * abstained, stairs.n * dm * dn)
    return Window(low, high, cost, abstained)
