"""Bayes-optimal sets from logits, exactly: the set Y minimising E_p[c_Y] for p = softmax(y), with y exact
rationals (the rows of `logits.LogitRows`).

p is irrational, but E_p[c_Z] − E_p[c_Y] = Σ_k (c_Z(k) − c_Y(k))·e^{y_k − m} / Σ_k e^{y_k − m} (m = max y) has
the sign of D = Σ_k d_k·e^{y_k − m}, d_k = c_Z(k) − c_Y(k). For rational costs that sign is decided exactly:
  - D = 0 exactly iff, for every value v taken by the logits, the d_k of the classes with y_k = v sum to 0.
    Lindemann–Weierstrass: e^{a_1}, ..., e^{a_n} are linearly independent over the algebraic numbers when the
    a_i are distinct algebraic numbers, so Σ_v (Σ_{y_k = v} d_k)·e^{v − m} vanishes only when every grouped
    coefficient does. Equal logits are compared as the exact rationals they are.
  - Otherwise D ≠ 0, and arb balls of e^{y_k − m} (python-flint) at 64, 128, ... bits decide its sign: the ball
    of a non-zero number leaves 0 once the precision is high enough. Past `MAX_BITS` (never met in practice)
    the comparison is reported undecided, not guessed.
Irrational costs (log, sqrt: no such zero test) are compared with certified balls; a difference they do not
separate leaves the row `undecided`.

Floats search first: W = e^{y − m} per row, every set's Σ_k W_k·c_Z(k) in one product, widened by a bound
on its error, and a row whose best set is certainly below every other is decided there. W comes from
`bounded_exp`, built of correctly rounded IEEE operations only (no library exp is trusted), so its error bound
is proven: within `EXP_REL` relative, plus `TINY_WEIGHT` absolute where it underflows. The bound adds the
rounding of y − m (and of a decimal y to a float), Higham's bound for the K-term products and each cost
cell's own error. Any row not separated so goes to the exact route above.

A scheme treating every class alike (from `batch.SYMMETRIC_FROM` classes, as for probabilities) is decided by a sort
of each row instead (`logit_symmetric`; route "softmax-symmetric"), with the same exact comparisons.

Owns: `LogitDecider` (the exact pieces are `logit_exact`'s). May import: `using.decide.batch`, `using.inputs.logits`,
`using.decide.symmetric`, `using.decide.logit_exact`, `using.decide.logit_symmetric`, `engines.expected`.
"""

from __future__ import annotations

from fractions import Fraction

import flint
import numpy as np

from verifier.engines.expected import ExpectedCosts
from verifier.errors import UsageError
from verifier.scheme import ClassSet, Scheme
from verifier.using.decide.batch import SYMMETRIC_FROM, BatchDecision, cell_radius
from verifier.using.decide.logit_exact import EXP_REL, TINY_WEIGHT, bounded_exp, row_exps, softmax_sign, weights  # noqa: F401 (read from here too)
from verifier.using.decide.logit_symmetric import symmetric_logit_rows
from verifier.using.decide.symmetric import symmetric_costs
from verifier.using.inputs import LogitRows

CHUNK = 1 << 22  # rows x sets of floats per product
_U = 2.0 ** -53


class LogitDecider:
    """Decisions from logits block by block (the same `BatchDecision` as `BatchDecider`, route "softmax")."""

    def __init__(self, scheme: Scheme, costs: ExpectedCosts | None = None, symmetric: bool | None = None):
        if getattr(scheme, "orbits", None) is not None or getattr(scheme, "partial", False):
            raise UsageError(f"--logits compares every allowed set on each row; {scheme.K} classes are beyond the "
                             "sets this scheme enumerates (give probabilities: their route needs no enumeration)")
        self.scheme = scheme
        # classes treated alike: a sort per row (`logit_symmetric`); `symmetric` forces a route (tests compare them)
        use = scheme.K >= SYMMETRIC_FROM if symmetric is None else symmetric
        self.ab = symmetric_costs(scheme) if use and not scheme.family_restricted and scheme.K < 63 else None
        self.known: dict = {}  # mask -> set, for the sorted route
        if self.ab is None:
            self.costs = costs or ExpectedCosts(scheme)
            self.radius = cell_radius(self.costs)
            self.abs_floats = np.abs(self.costs.floats)
            self.cells = self._exact_cells()
        self.result = BatchDecision([], [], [], "softmax" if self.ab is None else "softmax-symmetric", 0)

    def _exact_cells(self) -> list[list]:
        """Each set's costs: exact Fractions for a rational scheme, else certified 53-bit balls."""
        c = self.costs
        if c.rational:
            flat = [Fraction(int(v), c.scale) for v in c.ints.entries()]
            K = self.scheme.K
            return [flat[i * K:(i + 1) * K] for i in range(len(c.sets))]
        if getattr(c, "bounded", False):
            return [[flint.arb(float(mid), float(rad)) for mid, rad in zip(m, r)] for m, r in zip(c.mids, c.rads)]
        return [[None] * self.scheme.K for _ in c.sets]  # no enclosure: only the floats' separation decides

    def add(self, rows: LogitRows) -> None:
        """Decide a block of logit rows."""
        Z = rows.floats
        n, K = Z.shape
        W, rel = weights(Z)
        offset = len(self.result.predictions)
        if self.ab is not None:
            predictions, counts, undecided, exact = symmetric_logit_rows(rows, *self.ab, W, rel, self.known)
            self.result.predictions += predictions
            self.result.tied_optima += counts
            self.result.undecided += [offset + i for i in undecided]
            self.result.exact_rows += exact
            return
        sets, F = self.costs.sets, self.costs.floats
        predictions: list[ClassSet | None] = [None] * n
        counts, undecided, exact = [1] * n, [], 0
        step = max(1, CHUNK // max(1, len(sets)))
        for start in range(0, n, step):
            w, r = W[start:start + step], rel[start:start + step]
            centre = w @ F.T
            with np.errstate(over="ignore", invalid="ignore"):
                error = (w * r) @ self.abs_floats.T + (w * (1 + 2 * r)) @ self.radius.T \
                    + TINY_WEIGHT * self.abs_floats.sum(axis=1) + 1e-300
            index = np.arange(len(w))
            best = np.argmin(centre, axis=1)
            high = centre[index, best] + error[index, best]
            low = centre - error
            low[index, best] = np.inf
            certain = np.min(low, axis=1) > high  # nan (an infinite bound) is never certain
            predictions[start:start + len(w)] = [sets[k] for k in best.tolist()]
            for i in np.flatnonzero(~certain).tolist():
                exact += 1
                # the others are certainly worse (a nan bound keeps a set in)
                near = np.flatnonzero(~(centre[i] - error[i] > high[i])).tolist() or [int(best[i])]
                prediction, count, unsure = self._exact_row(rows.row(start + i), int(best[i]), near)
                predictions[start + i], counts[start + i] = prediction, count
                if unsure:
                    undecided.append(offset + start + i)
        self.result.predictions += predictions
        self.result.tied_optima += counts
        self.result.undecided += undecided
        self.result.exact_rows += exact

    def _exact_row(self, y: list[Fraction], guess: int, near: list[int]) -> tuple[ClassSet, int, bool]:
        """The least of the candidate sets `near` at softmax(y), exactly: (prediction, tied optima, undecided)."""
        exps, cells, unsure = row_exps(y), self.cells, False

        def sign(a: int, b: int) -> int | None:
            if a == b:
                return 0
            if any(x is None for x in cells[a]) or any(x is None for x in cells[b]):
                return None
            return softmax_sign([p - q for p, q in zip(cells[a], cells[b])], y, exps)

        best = guess if guess in near else near[0]
        for z in near:
            s = sign(z, best)
            unsure |= s is None
            if s == -1:
                best = z
        optimal = []
        for z in near:
            s = sign(z, best)
            unsure |= s is None
            if s == 0:
                optimal.append(self.costs.sets[z])
        return min(optimal, key=lambda t: (len(t), sorted(t))), len(optimal), unsure
