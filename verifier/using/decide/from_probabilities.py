"""From a classifier's class probabilities to set predictions under the scheme: each row's optimal set, exactly
as `verify decide` finds it (ties resolved by the stated rule: the smallest optimal set, then class order),
ready to be scored.

Probabilities come from a file (`DistributionFile`: a CSV with a header of class names, or an (N, K) `.npy`),
or from Python: an (N, K) array or list of rows, read by the `.npy` file's own path (each value the exact
binary rational a float is, a row summing to 1 within 1e-6 divided by its exact sum). A
classifier's own class order (scikit-learn's `classes_`) is mapped onto the spec's by name, or by index
when the labels are the integers 0..K-1; a spec class the classifier never saw has probability 0.

Owns: `ProbabilityPredictions`, `array_rows`, `rows_from_array`, `predict_sets`, `column_order`. May import: `using`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from verifier.errors import UsageError, few_of
from verifier.numbers import shown
from verifier.scheme import Scheme
from verifier.using.decide.batch import BatchDecider
from verifier.using.decide.logit_decide import LogitDecider
from verifier.using.inputs import LogitRows, Predictions
from verifier.using.inputs.array_like import as_matrix
from verifier.using.inputs.p_file import DistributionFile

BLOCK_ROWS = 10_000


@dataclass
class ProbabilityPredictions:
    """The predictions decided from rows of probabilities (or logits), and how the rows went: how many were
    rescaled, which had an undecided comparison, how many had tied optima."""

    predictions: Predictions
    rows: int
    rescaled: int  # rows within 1e-6 of summing to 1, divided by their exact sum
    undecided: list[int]  # rows where some set was not separated exactly from the reported one
    ties: int  # rows with several optimal sets (the stated rule picked one)
    logits: bool = False  # the rows were logits, decided on their softmax


def column_order(labels, classes: tuple[str, ...], where: str) -> list[int]:
    """For each of a classifier's labels (its probability columns), the spec's class index."""
    labels = list(labels)
    names = [str(x) for x in labels]
    if all(n in classes for n in names):
        order = [classes.index(n) for n in names]
    elif all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) and 0 <= int(x) < len(classes)
             for x in labels):
        order = [int(x) for x in labels]
    else:
        bad = next(n for n in names if n not in classes)
        raise UsageError(f"{where}: the classifier's label {shown(bad)} is neither a class of the spec "
                         f"({few_of(classes, bad)}) nor a class index 0..{len(classes) - 1}")
    if len(set(order)) != len(order):
        raise UsageError(f"{where}: two of the classifier's labels name the same class")
    return order


def array_rows(values, classes: tuple[str, ...], where: str, order: list[int] | None = None) -> DistributionFile:
    """Exact, normalised rows from an (N, K') array of any library (`as_matrix`: numpy, a list of rows, a pandas,
    polars or pyarrow frame, anything with `__array__`), read by the `.npy` file's own path; column j goes to
    class order[j] (a frame's columns: by name, or as indices 0..K-1 when they are the integers). The array is
    the caller's, read a block at a time: no bound on its rows."""
    K = len(classes)
    array, names = as_matrix(values, where)
    if order is None and names is not None:
        order = column_order(names, classes, f"{where}'s columns")
    width = K if order is None else len(order)
    if array.ndim != 2 or array.shape[1] != width or array.shape[0] == 0:
        raise UsageError(f"{where}: shape {array.shape}, expected (N, {width}) with N >= 1")
    if order is not None and order != list(range(K)):  # column j is class order[j]; unseen classes get 0
        placed = np.zeros((array.shape[0], K))
        placed[:, order] = array
        array = placed
    return DistributionFile.of_array(array, K, where)  # the .npy file's exact path: integers, not Fractions


def rows_from_array(values, K: int, where: str, order: list[int] | None = None):
    """Exact, normalised rows from an (N, K') array or list of rows, as (block, rows rescaled so far) pairs;
    column j goes to class order[j]."""
    rows = array_rows(values, tuple(str(k) for k in range(K)), where, order)
    for block in rows.blocks():
        yield block, rows.rescaled


def predict_sets(scheme: Scheme, blocks, truth: np.ndarray, name: str, where: str,
                 batch: Callable[[], BatchDecider] | None = None) -> ProbabilityPredictions:
    """The optimal set of every row (blocks of exact rows, or (block, rescaled so far) pairs, or blocks of
    logits), with the truth. `batch`: makes the decider of rows of probabilities (default: `BatchDecider` of the
    scheme; a restricted family's route decides without its matrix)."""
    batch = batch or (lambda: BatchDecider(scheme))
    decider, rescaled = None, 0
    for block in blocks:
        if isinstance(block, tuple):
            block, rescaled = block
        if decider is None:
            decider = LogitDecider(scheme) if isinstance(block, LogitRows) else batch()
        decider.add(block)
    decider = decider or batch()
    result = decider.result
    n = len(result.predictions)
    if n != len(truth):
        raise UsageError(f"{where}: {n:,} rows of probabilities but {len(truth):,} true classes; one per instance is "
                         "expected")
    masks = np.zeros((n, scheme.K), dtype=bool)
    for i, members in enumerate(result.predictions):
        masks[i, sorted(members)] = True
    ties = sum(1 for count in result.tied_optima if count > 1)
    return ProbabilityPredictions(Predictions(name, np.asarray(truth, dtype=np.int64), masks), n, rescaled,
                                  list(result.undecided), ties, isinstance(decider, LogitDecider))
