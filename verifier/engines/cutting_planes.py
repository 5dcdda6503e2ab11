"""The float search behind per-set optimality: max t_Y s.t. E_p[c_Y − c_Z] + t_Y <= 0 for every other set Z,
p in the simplex, for many sets Y at once, by cutting planes.

One HiGHS model holds an independent block (p, t) per set. A round solves it, then adds to each unfinished
block the constraints its current p violates most; the model is kept between rounds, so HiGHS restarts from
the previous basis (dual simplex after added cuts) instead of from scratch: at 9 classes this halves the
search. Floats only search here: the caller rationalises p and the duals and confirms them exactly.
"""

from __future__ import annotations

import highspy
import numpy as np

from verifier.engines.highs import quiet_highs

TOLERANCE = 1e-9
ROUNDS = 60  # cutting-plane rounds
CUTS = 16  # most violated constraints added per block and round (measured: 8-32 are alike, 64 is slower)


def cutting_planes(F: np.ndarray, blocks: dict, first_rows: dict) -> dict:
    """{key: (p, t, {row index of F: dual})} or {key: None} when the search did not settle; `blocks` maps a
    key to the row i of F of its set, `first_rows` a key to the rows its block starts with."""
    K, keys = F.shape[1], list(blocks)
    lp = _BlockModel(K, len(keys), 1.0 + 2.0 * float(np.max(np.abs(F))) if F.size else 1.0)
    own = np.array([blocks[key] for key in keys], dtype=int)
    seen = np.zeros((len(keys), F.shape[0]), dtype=bool)  # the rows in each block's LP, and its own set
    seen[np.arange(len(keys)), own] = True
    active: list[list[int]] = [[] for _ in keys]
    rows_of: list[list[int]] = [[] for _ in keys]
    for b in range(len(keys)):
        lp.simplex_row(b)
        _cut(lp, F, b, int(own[b]), list(first_rows[keys[b]]), active[b], rows_of[b], seen)
    lp.flush()
    done: dict = {}
    todo = np.arange(len(keys))
    for _ in range(ROUNDS):
        if not todo.size:
            break
        solved = lp.solve()
        if solved is None:
            break
        x, duals = solved
        X = x.reshape(len(keys), K + 1)[todo]
        P, T = X[:, :K], X[:, K]
        expected = P @ F.T  # E_p[c_Z] for every set Z, one row per unfinished block
        slack = expected[np.arange(todo.size), own[todo]][:, None] - expected + T[:, None]  # > 0: violated
        slack[seen[todo]] = -np.inf
        violated = slack > TOLERANCE * (1 + np.abs(T))[:, None]
        still = []
        for k, b in enumerate(todo.tolist()):
            if not violated[k].any():  # optimal for the whole problem: the duals of its rows certify t
                done[keys[b]] = (P[k], float(T[k]), dict(zip(active[b], np.abs(duals[rows_of[b]]).tolist())))
                continue
            candidates = np.flatnonzero(violated[k])
            worst = candidates[np.argsort(-slack[k, candidates])][:CUTS]
            _cut(lp, F, b, int(own[b]), worst.tolist(), active[b], rows_of[b], seen)
            still.append(b)
        lp.flush()
        todo = np.array(still, dtype=int)
    for b in todo.tolist():
        done[keys[b]] = None
    return {key: done.get(key) for key in keys}


def _cut(lp: "_BlockModel", F, b: int, i: int, rows: list[int], active: list[int], rows_of: list[int],
         seen: np.ndarray) -> None:
    """E_p[c_Y − c_Z] + t <= 0 for the sets Z in `rows`, in block b."""
    rows_of.extend(lp.constraints(b, np.hstack([F[i] - F[rows], np.ones((len(rows), 1))])))
    active.extend(rows)
    seen[b, rows] = True


class _BlockModel:
    """A HiGHS model with `blocks` independent copies of the variables (p_1..p_K, t); rows are queued and
    added in one call per round."""

    def __init__(self, K: int, blocks: int, bound: float):
        self.K, self.width = K, K + 1
        self.solver = quiet_highs()
        self.solver.setOptionValue("presolve", "off")  # independent blocks leave presolve nothing to gain (-15%)
        n = self.width * blocks
        cost = np.zeros(n)
        cost[K::self.width] = -1.0  # maximise every t
        lower = np.tile(np.r_[np.zeros(K), -bound], blocks)
        upper = np.tile(np.r_[np.ones(K), bound], blocks)
        empty = np.array([], dtype=np.int32)
        self.solver.addCols(n, cost, lower, upper, 0, empty, empty, np.array([]))
        self.count = 0
        self._queued: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []

    def simplex_row(self, b: int) -> None:
        """Σ p = 1 in block b."""
        base = b * self.width
        self._queue(np.ones((1, self.K)), np.arange(base, base + self.K), np.array([1.0]), np.array([1.0]))

    def constraints(self, b: int, block: np.ndarray) -> range:
        """block · (p, t) <= 0, one row per line of `block`; the indices the rows will have."""
        base = b * self.width
        n = block.shape[0]
        return self._queue(block, np.arange(base, base + self.width), np.full(n, -highspy.kHighsInf), np.zeros(n))

    def _queue(self, block, columns, lower, upper) -> range:
        self._queued.append((block, columns, lower, upper))
        first = self.count
        self.count += block.shape[0]
        return range(first, self.count)

    def flush(self) -> None:
        if not self._queued:
            return
        blocks, columns, lowers, uppers = zip(*self._queued)
        self._queued = []
        counts = [blk.shape[0] for blk in blocks]
        width = [blk.shape[1] for blk in blocks]
        values = np.concatenate([blk.ravel() for blk in blocks])
        index = np.concatenate([np.tile(c, n) for c, n in zip(columns, counts)]).astype(np.int32)
        starts = np.concatenate([[0], np.cumsum(np.repeat(width, counts))[:-1]]).astype(np.int32)
        self.solver.addRows(sum(counts), np.concatenate(lowers), np.concatenate(uppers), values.size, starts,
                            index, values)

    def solve(self) -> tuple[np.ndarray, np.ndarray] | None:
        """(column values, row duals) at the optimum, or None."""
        self.solver.run()
        if self.solver.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return None
        solution = self.solver.getSolution()
        return np.array(solution.col_value), np.array(solution.row_dual)
