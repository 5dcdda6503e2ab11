"""The exact pieces of deciding on softmax(y): the sign of Σ_k d_k·e^{y_k} (`softmax_sign`: Lindemann–Weierstrass
for an exact zero, arb balls otherwise), the weights e^{y − max y} in floats with a proven error (`bounded_exp`,
`weights`), and the balls of one row's weights (`row_exps`). `logit_decide` (every set) and `logit_symmetric`
(a sort per row) decide with them; see `logit_decide` for the arguments.

Owns: `softmax_sign`, `bounded_exp`, `weights`, `row_exps`, `EXP_REL`, `TINY_WEIGHT`. May import: flint, numpy.
"""

from __future__ import annotations

from fractions import Fraction

import flint
import numpy as np

EXP_REL = 2.0 ** -36  # proven relative error of `bounded_exp` (its analysis gives about 2^-42)
TINY_WEIGHT = 2.0 ** -1000  # absolute error of a weight near or below the subnormal range
BITS = (64, 128, 256, 1024, 4096)
MAX_BITS = BITS[-1]
_U = 2.0 ** -53


def softmax_sign(d: list, y: list[Fraction], exps=None) -> int | None:
    """The sign of Σ_k d_k·e^{y_k} (exact rational d_k, or flint arb balls for irrational costs); None when
    undecided. `exps(bits)`: the balls e^{y_k − m} at that precision (cached by the caller)."""
    if all(isinstance(x, (int, Fraction)) for x in d):
        groups: dict[Fraction, Fraction] = {}
        for dk, yk in zip(d, y):
            groups[yk] = groups.get(yk, 0) + dk
        if all(v == 0 for v in groups.values()):
            return 0  # Lindemann–Weierstrass: the only way the sum vanishes
    exps = exps or row_exps(y)
    for bits in BITS:
        with flint.ctx.workprec(bits):  # python-flint >= 0.6
            total = flint.arb(0)
            for dk, e in zip(d, exps(bits)):
                if dk:
                    total += (flint.arb(flint.fmpq(dk.numerator, dk.denominator)) if isinstance(dk, Fraction)
                              else flint.arb(dk) if isinstance(dk, int) else dk) * e
            if total > 0:
                return 1
            if total < 0:
                return -1
    return None


LN2 = float.fromhex("0x1.62e42fefa39efp-1")  # ln 2 rounded to nearest: within 2^-54 of it
TAYLOR = 15  # terms of e^r for |r| ≤ 0.35: the rest is below 10^-19 relative


def bounded_exp(x: np.ndarray) -> np.ndarray:
    """e^x for x ≤ 0 (floats), within EXP_REL relative or TINY_WEIGHT absolute, from +, −, ×, ÷ and ldexp only.

    x = k·ln 2 + r, k = round(x / LN2) (any integer will do: only |r| ≤ 0.35 matters), r = x − k·LN2 in floats.
    With x ≥ −800 (below, e^x < 2^-1154 and W = 0 is within TINY_WEIGHT), |k| ≤ 1155, so r is off the true
    x − k·ln 2 by at most |k|·2^-54 + 2^-53·(|k·LN2| + |r|) < 2·10^-13, a relative error of e^x below 2^-42.
    e^r is its Taylor sum to TAYLOR terms in Horner's form 1 + r(1 + r/2(1 + ...)): every partial sum lies in
    [0.5, 1.5], so each of the 15 steps adds at most a few roundings of 2^-53 relative (below 2^-45 in all),
    and the tail is below 10^-19. ldexp by 2^k is exact unless the result is subnormal, where it errs by at most
    2^-1075 absolute."""
    x = np.maximum(x, -800.0)
    k = np.rint(x / LN2)
    r = x - k * LN2
    t = np.ones_like(r)
    for j in range(TAYLOR, 0, -1):
        t = 1.0 + (r / j) * t
    with np.errstate(under="ignore"):
        return np.ldexp(t, k.astype(np.int64))


def weights(Z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(W, rel): W = e^{y − max y} per row (`bounded_exp`) and a proven bound on each weight's relative error,
    with the rounding of y − m (and of a decimal to a float) and room for a K-term product's."""
    K = Z.shape[1]
    m = Z.max(axis=1, keepdims=True)
    with np.errstate(under="ignore", over="ignore"):
        W = bounded_exp(Z - m)
        # y − m and a decimal's rounding to a float move the exponent by at most 2^-50·(|y| + |m|)
        shift = 2.0 ** -50 * (np.abs(Z) + np.abs(m))
        rel = np.expm1(shift) * (1 + EXP_REL) + EXP_REL + (K + 4) * _U  # exp's, then the products' errors
    return W, rel


def row_exps(y: list[Fraction]):
    """A cache of the balls e^{y_k − max y} per precision."""
    m = max(y)
    cache: dict[int, list] = {}

    def at(bits: int) -> list:
        if bits not in cache:
            with flint.ctx.workprec(bits + 16):  # a little more than the sum's precision
                cache[bits] = [flint.arb(flint.fmpq((x - m).numerator, (x - m).denominator)).exp() for x in y]
        return cache[bits]
    return at
