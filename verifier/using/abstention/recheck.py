"""An independent re-check of optimal windows: a different algorithm from `windows` (no hull, no Lemma 1), in
exact integers. At a scenario (μ, ν_P, ν_N) = (A/D, B/D, E/D), n·D times the cost of a window (i, j) is
f(i) + g(j) + A·N with f(i) = D·P_i - B·P_i - E·N_i and g(j) = B·P_j + E·N_j - A·N_j; a prefix minimum of f
gives the best window ending at each cut in one pass, so the optimum, the narrowest optimal window, the lowest
optimal threshold and the best window that abstains (for Lemma 1) all come from O(k) array operations.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import numpy as np

from verifier.using.abstention.score_staircase import Staircase
from verifier.using.abstention.windows import Window, pays

BUDGET = 8_000_000  # cuts x scenarios re-checked; beyond it an even sample of the scenarios
CHUNK = 1_000_000  # cuts x scenarios per array


@dataclass(frozen=True)
class Recheck:
    """What the re-check found: how many scenarios it checked, the first disagreement (None: none), and how
    many checked scenarios lie on or beyond Lemma 1's line ν = μ/(1+μ), where no abstaining window was cheaper
    than the best threshold."""

    checked: int
    scenarios: int
    disagreement: str | None
    beyond_lemma: int
    lemma_holds: bool


def recheck(stairs: Staircase, scenarios: list[tuple], windows: list[Window]) -> Recheck:
    """Re-check `windows[s]` as the optimal window of `scenarios[s]` ((μ, ν) or (μ, ν_P, ν_N) of the normal
    form), for all scenarios within BUDGET, else an even sample of them."""
    scenarios = [s if len(s) == 3 else (s[0], s[1], s[1]) for s in scenarios]
    count = len(scenarios)
    room = max(1, BUDGET // (stairs.k + 1))
    chosen = list(range(count)) if count <= room else \
        sorted(set(np.linspace(0, count - 1, room).astype(int).tolist()))
    beyond, lemma_holds = 0, True
    rows = max(1, CHUNK // (stairs.k + 1))
    for start in range(0, len(chosen), rows):
        part = chosen[start:start + rows]
        wrong, lemma = _check(stairs, [scenarios[s] for s in part], [windows[s] for s in part])
        if wrong is not None:
            s = part[wrong[0]]
            mu, nu, nu_n = scenarios[s]
            at = f"mu = {mu}, nu = {nu}" + (f", nu_N = {nu_n}" if nu_n != nu else "")
            return Recheck(len(chosen), count, f"at {at}: {wrong[1]}", beyond, lemma_holds)
        beyond += int(lemma[0])
        lemma_holds &= bool(lemma[1])
    return Recheck(len(chosen), count, None, beyond, lemma_holds)


def _check(stairs: Staircase, scenarios, claimed: list[Window]):
    """((row, what is wrong) or None, (scenarios beyond Lemma 1's line, whether it held at all of them))."""
    scale = [lcm(mu.denominator, nu.denominator, nu_n.denominator) for mu, nu, nu_n in scenarios]
    d = np.array(scale, dtype=object)[:, None]

    def scaled(k: int):
        return np.array([x[k].numerator * (s // x[k].denominator) for x, s in zip(scenarios, scale)],
                        dtype=object)[:, None]
    a, b, e = scaled(0), scaled(1), scaled(2)
    wide = stairs.n * int((d + a + b + e).max()) >= 2 ** 62  # beyond int64: exact Python integers
    if not wide:
        d, a, b, e = d.astype(np.int64), a.astype(np.int64), b.astype(np.int64), e.astype(np.int64)
    p_t, n_t = (x.astype(object if wide else np.int64)[None, :] for x in (stairs.positives, stairs.negatives))
    c_t = p_t + n_t
    f, g = d * p_t - b * p_t - e * n_t, b * p_t + e * n_t - a * n_t
    best_f = np.minimum.accumulate(f, axis=1)
    # the rightmost cut i <= j attaining best_f[j]: the narrowest window ending at j
    right = np.maximum.accumulate(np.where(f == best_f, np.arange(f.shape[1])[None, :], 0), axis=1)
    total = best_f + g
    best = total.min(axis=1)
    widths = c_t[0][None, :] - c_t[0][right]
    narrowest = np.where(total == best[:, None], widths, stairs.n + 1).min(axis=1)
    diagonal = f + g
    lowest = np.argmax(diagonal == best[:, None], axis=1)
    n_total = int(stairs.negatives[-1])
    for row, w in enumerate(claimed):
        least = int(best[row]) + int(a[row, 0]) * n_total
        unit = stairs.n * int(d[row, 0])
        if w.cost * unit != least:
            return (row, f"cost {w.cost} is not the least, {Fraction(least, unit)}"), None
        if not 0 <= w.low <= w.high <= stairs.k or int(f[row, w.low] + g[row, w.high]) != int(best[row]):
            return (row, f"the window of cuts ({w.low}, {w.high}) is not optimal"), None
        if w.abstained != int(narrowest[row]) or w.abstained != stairs.counted(w.high) - stairs.counted(w.low):
            return (row, f"abstains on {w.abstained:,} instances; the narrowest optimal window on "
                         f"{int(narrowest[row])}"), None
        if w.empty and w.low != int(lowest[row]):
            return (row, f"the threshold at cut {w.low} is not the lowest optimal one"), None
    beyond = np.array([not pays(mu, nu, nu_n) for mu, nu, nu_n in scenarios])
    if not beyond.any() or stairs.k == 0:
        return None, (0, True)
    abstaining = (best_f[beyond, :-1] + g[beyond, 1:]).min(axis=1)  # the best window with i < j
    return None, (int(beyond.sum()), bool((abstaining >= diagonal[beyond].min(axis=1)).all()))
