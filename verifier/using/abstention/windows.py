"""The optimal abstention window for a cost scenario (μ, ν) of Friedel et al.'s normal form (Eq. 7), exactly, by
their two observations made exact:

- Lemma 1 (with ties): when ν >= μ/(1 + μ), no window is cheaper than the best threshold (for i < j, the cost
  of (i, j) minus the convex combination h(i)/(1+μ) + μ h(j)/(1+μ) of the thresholds at its ends is
  (ν - μ/(1+μ)) times the abstained count over n, never negative);
- otherwise the cost splits as f(i) + g(j) with f(i) = (1 - ν) P_i - ν N_i and g(j) = ν P_j - (μ - ν) N_j (plus
  μ N), whose minimisers are hull queries at λ1 = ν/(1 - ν) < μ < λ2 = (μ - ν)/ν; minimisers move right as λ
  grows, so every minimiser of f lies left of every minimiser of g and the unconstrained optimum is a window.

With two abstention costs, ν_P for a P instance and ν_N for an N one (a spec whose set {P, N} costs differ by
the truth), the same holds with f(i) = (1 - ν_P) P_i - ν_N N_i and g(j) = ν_P P_j - (μ - ν_N) N_j: the hull
queries are at λ1 = ν_N/(1 - ν_P) and λ2 = (μ - ν_N)/ν_P, and no window pays when ν_N >= μ (1 - ν_P) (then
λ1 >= μ >= λ2; the cost of (i, j) minus w h(i) + (1 - w) h(j) is (ν_P - 1 + w) pos + (ν_N - w μ) neg over the
abstained, and w = 1 - ν_P makes both terms non-negative). With ν_P = ν_N = ν this is ν (1 + μ) >= μ.

Tie rule: of the optimal windows, the narrowest (fewest abstentions); when no window pays, the threshold at the
lowest optimal cut (the most P predictions). Both are unique, so the rule is a definition, re-checked by
`recheck`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from verifier.using.abstention.score_staircase import Hull, Staircase


@dataclass(frozen=True)
class Window:
    """Cuts i <= j: N up to cut i, abstain up to cut j, P above. `cost`: Eq. 7 (the normalised expected cost);
    `abstained`: the instances abstained on."""

    low: int
    high: int
    cost: Fraction
    abstained: int

    @property
    def empty(self) -> bool:
        """Whether the window abstains on no cut (low == high): a plain threshold."""
        return self.low == self.high


def window_cost(stairs: Staircase, low: int, high: int, mu: Fraction, nu: Fraction,
                nu_n: Fraction | None = None) -> Fraction:
    """Eq. 7 for the window of cuts (low, high): (false negatives + μ false positives + ν abstentions) / n; with
    `nu_n`, abstaining on an N instance costs ν_N and on a P instance ν."""
    fn = stairs.p[low]
    fp = stairs.q[-1] - stairs.q[high]
    if nu_n is None or nu_n == nu:
        abstained = stairs.counted(high) - stairs.counted(low)
        dm, dn = mu.denominator, nu.denominator  # one exact division instead of four
        return Fraction(fn * dm * dn + mu.numerator * dn * fp + nu.numerator * dm * abstained, stairs.n * dm * dn)
    positives, negatives = stairs.p[high] - stairs.p[low], stairs.q[high] - stairs.q[low]
    return (fn + mu * fp + nu * positives + nu_n * negatives) / stairs.n


def pays(mu: Fraction, nu: Fraction, nu_n: Fraction | None = None) -> bool:
    """Whether some window may abstain at the optimum: ν_N < μ (1 - ν_P) (Lemma 1 is the converse)."""
    return (nu if nu_n is None else nu_n) < mu * (1 - nu)


def optimal_window(stairs: Staircase, hull: Hull, mu: Fraction, nu: Fraction, nu_n: Fraction | None = None) -> Window:
    """The optimal window at (μ, ν) (or (μ, ν_P = ν, ν_N)), every cost >= 0, by the tie rule above."""
    nu_n = nu if nu_n is None else nu_n
    if mu < 0 or nu < 0 or nu_n < 0:
        raise ValueError("the normal form has μ >= 0 and ν >= 0")
    if not pays(mu, nu, nu_n):  # Lemma 1: the best threshold is optimal (and, by the rule, chosen)
        low = high = hull.smallest(mu)
    else:  # ν_N < μ (1 - ν_P): so ν_P < 1 and μ > 0
        low = hull.largest(nu_n / (1 - nu))
        high = hull.smallest(None if nu == 0 else (mu - nu_n) / nu)
    return Window(low, high, window_cost(stairs, low, high, mu, nu, nu_n),
                  stairs.counted(high) - stairs.counted(low))
