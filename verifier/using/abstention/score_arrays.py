"""Classifiers' scores handed in as arrays, as `sklearn.metrics.roc_curve(y_true, y_score)` takes them: `y_true`
the true classes (names or indices) and `y_score` one score per instance (a list, a numpy array or a pandas
column), or a mapping or data frame of such columns by classifier name; higher means more likely the spec's
first class. The result is the same `Scores` that the scores file (`scores_file`) gives.

Every score is taken as the exact number it is: a float as its binary value (0.1 is 3602879701896397 / 2**55,
not 1/10), an integer as itself, a `Fraction` or `Decimal` as its value, and a text as the decimal it writes (as
a scores file reads it). So an array and a scores file holding the same numbers give the same ranks, the same
exact scores and the same report, byte for byte. NaN, infinities, truth values and anything that is not a number
are refused with the argument, the position and what was expected.

May import: `using.inputs` (the true classes), `using.abstention.scores_file` (the record), numbers and errors.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction

import numpy as np

from verifier import numbers
from verifier.errors import UsageError
from verifier.numbers import shown
from verifier.using.abstention.scores_file import Scores
from verifier.using.inputs import labels

DEFAULT_NAME = "classifier"  # the name of a single unnamed column of scores (a list, an array)
TRIVIAL = "trivial"  # the trivial classifier every abstention evaluation adds (as `curves.TRIVIAL`)
EXPECTED = "a finite number (a float, an integer, a Fraction, a Decimal or a decimal text such as '0.73')"


def scores_from_arrays(classes: tuple[str, ...], y_true, y_score) -> list[Scores]:
    """Each classifier's `Scores` from arrays: `y_true` (class names or indices, one per instance) and `y_score`
    (one column, or a mapping or data frame of columns by classifier name), in the order given."""
    if y_true is None:
        raise UsageError("y_true: the true classes are needed with y_score (one class name or index per instance)")
    if np.ndim(_plain(y_true)) != 1:
        raise UsageError(f"y_true: an array of shape {np.shape(_plain(y_true))}; expected one true class per "
                         "instance (a 1-D list, array or column)")
    truth = labels(classes, _plain(y_true), "y_true")
    found = []
    for name, values, where in _columns(y_score):
        ranks, texts = exact_ranks(values, where)
        if len(ranks) != len(truth):
            raise UsageError(f"{where}: {len(ranks):,} scores for the {len(truth):,} true classes of y_true; one "
                             "score per instance is expected")
        found.append(Scores(name=name, dataset=None, ranks=ranks, texts=texts, positive=truth == 0))
    return found


def _plain(values):
    """A pandas column as its numpy array (pandas is never imported here); anything else as it is."""
    return values.to_numpy() if hasattr(values, "to_numpy") else values


def _columns(y_score) -> list[tuple[str, object, str]]:
    """(classifier name, its scores, where they are named in messages) for each classifier of `y_score`."""
    if isinstance(y_score, (str, bytes)) or y_score is None:
        raise UsageError(f"y_score: {shown(y_score)}; expected scores (a 1-D array, list or column, or a mapping "
                         "or data frame of them by classifier name), or the path of a scores file")
    if isinstance(y_score, Mapping) or (hasattr(y_score, "columns") and hasattr(y_score, "items")):
        keys = list(y_score.keys()) if isinstance(y_score, Mapping) else list(y_score.columns)
        if not keys:
            raise UsageError("y_score: no classifier (an empty mapping or data frame); give one column of scores "
                             "per classifier")
        if len(set(map(repr, keys))) < len(keys):
            raise UsageError("y_score: two columns share a name; name each classifier once")
        out = []
        for key in keys:
            if not isinstance(key, str) or not key.strip():
                raise UsageError(f"y_score: a classifier's name is {shown(key)} (a {type(key).__name__}); "
                                 "expected a non-empty text (name the mapping's keys or the data frame's columns)")
            out.append((_named(key.strip()), y_score[key], f"y_score[{key!r}]"))
        return out
    name = getattr(y_score, "name", None)  # a pandas column keeps its name
    return [(_named(name.strip()) if isinstance(name, str) and name.strip() else DEFAULT_NAME, y_score, "y_score")]


def _named(name: str) -> str:
    if name == TRIVIAL:  # its rows, pairs and figure files would be the built-in one's
        raise UsageError(f"y_score: a classifier is named {TRIVIAL!r}, the name of the trivial classifier every "
                         "abstention evaluation adds (always P, always N or always abstain); rename it")
    return name


def exact_ranks(values, where: str) -> tuple[np.ndarray, tuple[str, ...]]:
    """The exact rank of each score (equal ranks are equal numbers) and the exact value of each rank as text
    that `Fraction` reads back (`Scores.texts`), ascending."""
    array = _plain(values)
    try:
        array = np.asarray(array)
    except (TypeError, ValueError) as exc:
        raise UsageError(f"{where}: not an array of scores ({exc}); expected one score per instance") from None
    if array.ndim != 1:
        raise UsageError(f"{where}: an array of shape {array.shape}; expected one score per instance (a 1-D array, "
                         "list or column; several classifiers as a mapping or data frame of columns by name)")
    if len(array) == 0:
        raise UsageError(f"{where}: no scores; expected one score per instance")
    if array.dtype.kind == "b":
        raise UsageError(f"{where}: truth values (dtype bool); expected {EXPECTED}")
    if array.dtype.kind in "iu":
        distinct, inverse = np.unique(array, return_inverse=True)
        return inverse.astype(np.int64).reshape(-1), tuple(str(int(v)) for v in distinct.tolist())
    if array.dtype.kind == "f" and array.dtype.itemsize <= 8:  # float16, 32 and 64 widen to float64 exactly
        floats = array.astype(np.float64)
        bad = np.flatnonzero(~np.isfinite(floats))
        if bad.size:
            raise UsageError(f"{where}[{int(bad[0])}]: {float(floats[bad[0]])!r}; expected {EXPECTED}")
        distinct, inverse = np.unique(floats, return_inverse=True)  # -0.0 and 0.0 are one score, as in a file
        return inverse.astype(np.int64).reshape(-1), tuple(_ratio_text(*x.as_integer_ratio())
                                                           for x in distinct.tolist())
    return _object_ranks(list(array), where)  # np.longdouble keeps its precision (tolist() would round it)


def _object_ranks(values: list, where: str) -> tuple[np.ndarray, tuple[str, ...]]:
    """Scores of mixed Python types (or texts, or long doubles), each made exact, then ranked."""
    exact = [_exact(v, f"{where}[{i}]") for i, v in enumerate(values)]
    distinct = sorted(set(exact))
    rank = {v: r for r, v in enumerate(distinct)}
    return np.array([rank[v] for v in exact], dtype=np.int64), tuple(_ratio_text(v.numerator, v.denominator)
                                                                      for v in distinct)


def _exact(value, where: str) -> Fraction:
    """One score as the exact number it is (see the module's docstring)."""
    if isinstance(value, (bool, np.bool_)):
        raise UsageError(f"{where}: {value!r} is a truth value; expected {EXPECTED}")
    if isinstance(value, str):
        text = value.strip()
        try:
            return numbers.exact(text, fractions=False)
        except numbers.NumberError as exc:
            raise UsageError(f"{where}: {exc}; expected {EXPECTED}") from None
    if isinstance(value, (int, np.integer)):
        result = Fraction(int(value))
    elif isinstance(value, (float, np.floating, Decimal)):
        if not (value.is_finite() if isinstance(value, Decimal) else math.isfinite(value)):
            raise UsageError(f"{where}: {value!r} is not finite; expected {EXPECTED}")
        result = Fraction(*value.as_integer_ratio())  # a float's (or a long double's) exact binary value
    elif isinstance(value, Fraction):
        result = value
    else:
        raise UsageError(f"{where}: {shown(value)} (a {type(value).__name__}); expected {EXPECTED}")
    if result.numerator.bit_length() > numbers.MAX_BITS or result.denominator.bit_length() > numbers.MAX_BITS:
        raise UsageError(f"{where}: a number of more than {numbers.MAX_BITS} bits is too large for exact "
                         "arithmetic")
    return result


def _ratio_text(numerator: int, denominator: int) -> str:
    """An exact value as the text `Fraction` reads back: an integer, or numerator/denominator."""
    return str(numerator) if denominator == 1 else f"{numerator}/{denominator}"
