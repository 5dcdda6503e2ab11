"""Double-word arithmetic on numpy arrays: a value is hi + lo, two float64 arrays with hi = fl(hi + lo), made
with IEEE addition, multiplication and division only (numpy's elementwise operations are correctly rounded and
never fused), so every machine gives the same bits.

Error bounds, relative to the exact result of the operations on the operands' exact values (u = 2^-53), when no
operand or result has a magnitude outside [2^-900, 2^900] (zero aside), so that Veltkamp's split cannot
overflow and Dekker's product is exact:
- `add` (Joldes, Muller and Popescu 2017, "AccurateDWPlusDW"): 3u² + 13u³, whatever the signs (the sum of two
  numbers that cancel stays accurate relative to itself);
- `mul` (Dekker's product of the high parts, the cross products in floats, lo·lo dropped): 9u²;
- `div` (a first quotient, the residual formed by `mul` and `add`, a correction): 20u².
Callers count `EPS` = 32u² for any one of them, which covers these and the underflow of low parts (below 2^-150
relative in that range).

Owns: `EPS`, `SAFE`, `add`, `neg`, `mul`, `div`, `two_sum`, `double`. May import: numpy.
"""

from __future__ import annotations

import numpy as np

U = 2.0 ** -53
EPS = 32 * U * U
SAFE = (2.0 ** -900, 2.0 ** 900)
SPLIT = 134217729.0  # 2^27 + 1: Veltkamp's constant for doubles


def two_sum(a, b):
    """(s, e) with s = fl(a + b) and s + e = a + b exactly (Knuth)."""
    s = a + b
    v = s - a
    return s, (a - (s - v)) + (b - v)


def _fast_two_sum(a, b):
    s = a + b
    return s, b - (s - a)  # exact where |a| ≥ |b| or a = 0


def _split(a):
    c = SPLIT * a
    hi = c - (c - a)
    return hi, a - hi


def _two_product(a, b):
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def double(x):
    """A float array as a double word (its value exactly)."""
    x = np.asarray(x, dtype=np.float64)
    return x, np.zeros_like(x)


def add(x, y):
    """x + y (AccurateDWPlusDW)."""
    sh, sl = two_sum(x[0], y[0])
    th, tl = two_sum(x[1], y[1])
    vh, vl = _fast_two_sum(sh, sl + th)
    return _fast_two_sum(vh, tl + vl)


def neg(x):
    """−x (exact)."""
    return -x[0], -x[1]


def mul(x, y):
    """x · y."""
    ph, pl = _two_product(x[0], y[0])
    cross = x[0] * y[1] + x[1] * y[0]
    return _fast_two_sum(ph, pl + cross)


def div(x, y):
    """x / y (y ≠ 0)."""
    q = x[0] / y[0]
    r = add(x, neg(mul(y, double(q))))
    correction = (r[0] + r[1]) / y[0]
    return _fast_two_sum(q, correction)
