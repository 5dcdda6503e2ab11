"""The doubt cost θ = π/2 − 2·arctan(t) of rows of certainties, t = Π_{i≠j} χ_i (or the raw ξ_i of logits),
within (K + 2)·2^-53 relative of the exact θ, row by row.

In floats, t̃ is the product of the K − 1 certainties' floats, each within e_i relative of its exact value, so
t̃ is within γ = 1.01·(Σ e_i + (K − 2)·u) relative of t (u = 2^-53; the caller gives Σ e_i per row). Since
d arctan(e^s)/ds = e^s/(1 + e^2s), that moves θ by at most 2γ'·t̃/(1 + (t̃(1 − γ'))²) with γ' = γ/(1 − γ); the
arctan adds at most 4 ulp (8u relative: numpy's vectorised arctan, not only a correctly rounded one), π/2's
float u·π/2 and the subtraction u·|θ̃|. A row whose float θ̃ is within (K + 2)·u relative by that proof keeps
it; every other row (t near 1, where π/2 − 2·arctan(t) cancels towards θ = 0; an overflowing product) is
computed from its exact t in python-flint balls, tightened until both ends round to the same float: the
correctly rounded θ. The exact t is the caller's (`exact_t(i)`), so the proof and the exact route meet here.

Owns: `bound_units`, `doubt_costs`, `exact_doubt_cost`. May import: numpy, python-flint.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import flint
import numpy as np

U = 2.0 ** -53
PRECISIONS = (64, 128, 256, 1024, 4096, 16384)
ATAN_ULPS = 4  # numpy's arctan on SIMD kernels is within a few ulp; 4 covers the ones it ships


def bound_units(K: int) -> int:
    """The documented relative bound on θ, in units of 2^-53: K + 2."""
    return K + 2


def doubt_costs(t: np.ndarray, K: int, term_errors, exact_t: Callable[[int], Fraction]) -> np.ndarray:
    """θ of every row from the float products `t` (see the module's docstring), `term_errors` the sum of its
    factors' relative errors (per row, or one for all); `exact_t(i)` is row i's exact t, asked for only where
    the floats cannot be proved within the bound."""
    with np.errstate(invalid="ignore"):
        gamma = 1.01 * (np.asarray(term_errors, dtype=np.float64) + max(K - 2, 0) * U)
        g = np.where(gamma < 0.5, gamma / (1 - gamma), np.inf)
    with np.errstate(over="ignore", invalid="ignore"):
        a = np.arctan(t)
        theta = np.pi / 2 - 2 * a
        moved = 2 * g * t / (1 + (t * (1 - g)) ** 2)
        error = moved + 2 * ATAN_ULPS * U * np.abs(a) + U * np.pi / 2 + U * np.abs(theta) + 1e-300
        bound = bound_units(K) * U
        proved = np.isfinite(t) & np.isfinite(error) & (error * (1 + bound) <= bound * np.abs(theta))
    proved = np.broadcast_to(proved, np.shape(t))
    theta = np.array(theta, dtype=np.float64)
    for i in np.flatnonzero(~proved).tolist():
        theta[i] = exact_doubt_cost(exact_t(i))
    return theta


def exact_doubt_cost(t: Fraction) -> float:
    """π/2 − 2·arctan(t) for an exact t ≥ 0, correctly rounded (0 exactly at t = 1, π/2's float at t = 0)."""
    if t == 1:
        return 0.0
    if t == 0:
        return math.pi / 2  # float(π) halved: exact halving of the correctly rounded π
    q = flint.fmpq(t.numerator, t.denominator)
    saved = flint.ctx.prec
    try:
        for prec in PRECISIONS:
            flint.ctx.prec = prec
            ball = flint.arb.pi() / 2 - 2 * flint.arb(q).atan()
            low, high = _float(ball.lower()), _float(ball.upper())
            if low == high:
                return low
    finally:
        flint.ctx.prec = saved
    return float(ball.mid())  # never reached for a rational t ≠ 0, 1: θ is transcendental, not a tie of floats


def _float(end) -> float:
    man, exp = (int(v) for v in end.man_exp())
    return float(Fraction(man * 2 ** exp) if exp >= 0 else Fraction(man, 2 ** -exp))
