"""`BatchDecisions`: what deciding many rows returns, as arrays (the shape MAPIE and crepes give prediction sets
in), beside the CSV and the JSON record `verify decide --p-file` writes.

    >>> import numpy as np, verifier
    >>> d = verifier.decide("specs/obstacle-discounted.yaml", np.array([[0.1, 0.3, 0.6], [0.5, 0.4, 0.1]]))
    >>> d.masks.astype(int).tolist(), d.tied_optima.tolist()
    ([[0, 1, 0], [1, 0, 0]], [1, 1])

Owns: `BatchDecisions`. May import: `api.use.report`, `report.use`, `using`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from verifier.api.use.report import BatchReport
from verifier.report.use import decisions as words

if TYPE_CHECKING:
    import numpy.typing as npt

    from verifier.scheme import Scheme
    from verifier.using.decide import BatchDecision, BatchSummary


class BatchDecisions(BatchReport):
    """The optimal sets of a batch of rows, exact: `masks` ((N, K) booleans, row i's set in the spec's class order),
    `tied_optima` (N,) (how many sets tie for row i's optimum; the reported one follows the tie rule),
    `undecided` (N,) (row i had a comparison irrational costs left undecided), `classes`, `summary` (counts of
    each set, determinacy and mean size as exact fractions), `route` (how the rows were decided) and
    `rows_rescaled` (rows within 1e-6 of summing to 1, divided by their exact sum). `to_frame()` gives one
    boolean column per class; `text` and `to_json()` are the CSV and record of `verify decide --p-file`."""

    repr_name = "BatchDecisions"

    def __init__(self, scheme: Scheme | None, decision: BatchDecision, rescaled: int, summary: BatchSummary,
                 classes: tuple[str, ...]):
        self.classes = classes
        self.masks: npt.NDArray[np.bool_] = _masks(decision.predictions, len(classes))
        self.tied_optima: npt.NDArray[np.int64] = np.asarray(decision.tied_optima, dtype=np.int64)
        self.undecided: npt.NDArray[np.bool_] = np.zeros(len(self.masks), dtype=bool)
        self.undecided[np.asarray(decision.undecided, dtype=np.int64)] = True
        for array in (self.masks, self.tied_optima, self.undecided):
            array.flags.writeable = False  # a result is a value
        self.summary, self.route, self.rows_rescaled = summary, decision.route, rescaled
        self.rows_decided_exactly = decision.exact_rows
        if scheme is None:  # restored from a pickle: the record and the CSV travel with it
            return
        super().__init__(lambda: words.batch_csv_blocks(scheme, decision),
                         lambda: words.batch_json(scheme, decision, rescaled, summary),
                         summary_text=words.summary_text(scheme, summary))

    def __len__(self) -> int:
        return len(self.masks)

    def to_frame(self):
        """A pandas DataFrame: one boolean column per class (row i's set), then `tied_optima` and `undecided`."""
        try:
            import pandas as pd
        except ImportError:
            from verifier.errors import UsageError

            raise UsageError("to_frame() needs pandas: pip install 'verify-set-costs[frames]'") from None
        frame = pd.DataFrame(self.masks.copy(), columns=list(self.classes))
        if len(set(self.classes) | {"tied_optima", "undecided"}) == len(self.classes) + 2:
            frame["tied_optima"], frame["undecided"] = self.tied_optima.copy(), self.undecided.copy()
        return frame

    def __reduce__(self):  # pickled with its arrays, its record and its CSV made (the scheme stays behind)
        return _restored, (self.classes, self.masks, self.tied_optima, self.undecided, self.route,
                           self.rows_decided_exactly, self.rows_rescaled, self.summary, self.text, self.record,
                           self.summary_text)


def _masks(predictions: list, K: int) -> np.ndarray:
    """The (N, K) boolean masks of sets of class indices, one index array per distinct set (a million rows
    predict a few hundred sets)."""
    masks = np.zeros((len(predictions), K), dtype=bool)
    rows: dict[frozenset, list[int]] = {}
    for i, members in enumerate(predictions):
        rows.setdefault(members, []).append(i)
    for members, where in rows.items():
        masks[np.ix_(np.asarray(where, dtype=np.int64), np.asarray(sorted(members), dtype=np.int64))] = True
    return masks


def _restored(classes, masks, tied, undecided, route, exact, rescaled, summary, text, record, summary_text):
    from verifier.using.decide import BatchDecision

    restored = BatchDecisions(None, BatchDecision([], [], [], route, exact), rescaled, summary, classes)
    restored.masks, restored.tied_optima, restored.undecided = masks, tied, undecided
    BatchReport.__init__(restored, lambda: [text], lambda: record, summary_text=summary_text)
    return restored
