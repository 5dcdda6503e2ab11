"""What the use entry points hand their internals: one frozen, keyword-only request per job instead of 9 to 17
positional arguments, and the binary scores every score-driven job reads (a scores file or arrays, `ScoresInput`).

May import: `api`'s check entry points (`arguments`), `using` and everything below them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from verifier.api import arguments
from verifier.errors import UsageError

if TYPE_CHECKING:
    from collections.abc import Sequence
    from fractions import Fraction

    from verifier.api.entry import Source


@dataclass(frozen=True, kw_only=True)
class ScoresInput:
    """Binary classifiers' scores: a scores file (`path`, its true classes in a `true` column or the file `truth`)
    or arrays (`y_true`, `y_score`: one column, or a mapping or data frame of them by classifier name)."""

    path: str | None = None
    truth: str | None = None
    y_true: object = None
    y_score: object = None

    @property
    def where(self) -> str:
        """How the scores are named in messages."""
        return self.path if self.path is not None else "y_score"

    def read(self, classes: tuple[str, ...]) -> list:
        """Each (classifier, data set)'s `using.abstention.Scores`, the same for a file and for arrays of the same
        numbers."""
        from verifier.using.abstention import read_scores, scores_from_arrays

        if self.path is not None:
            return read_scores(self.path, classes, self.truth)
        return scores_from_arrays(classes, self.y_true, self.y_score)


def scores_input(y_true, y_score, truth=None) -> ScoresInput:
    """`y_score` as a file (its path; the true classes in its `true` column, or `truth` or `y_true` a path) or as
    arrays (with `y_true`); a usage error names what does not fit."""
    if isinstance(y_score, (str, os.PathLike)):
        if y_true is not None and truth is not None:
            raise UsageError("give the true classes once: y_true or truth")
        if y_true is not None and not isinstance(y_true, (str, os.PathLike)):
            raise UsageError(f"y_score is the scores file {os.fspath(y_score)!r}: its true classes go in its 'true' "
                             "column or in a file (y_true or truth a path), not in an array; or give y_score as "
                             "arrays too")
        return ScoresInput(path=arguments.path(y_score, "y_score"),
                           truth=arguments.path(truth if truth is not None else y_true, "truth"))
    if truth is not None:
        raise UsageError("truth= names a file of true classes for a scores file; with y_score arrays, give y_true")
    if y_score is None:
        raise UsageError("y_score: no scores given; expected a 1-D array, list or column of scores (or a mapping or "
                         "data frame of them by classifier name), or the path of a scores file")
    return ScoresInput(y_true=y_true, y_score=y_score)


def sweep_texts(value, name: str) -> list[str] | None:
    """A sweep argument as a list of texts (None: no sweep); one text alone is one sweep."""
    if not isinstance(value, (list, tuple)):
        value = arguments.text(value, name, "text such as 'r=0.1:2:20', or a list of two")
        return None if value is None else [value]
    texts = arguments.texts(value, name, "texts such as 'r=0.1:2:20'")
    if not texts:
        raise UsageError(f"{name}: an empty list; give one sweep (curves) or two (a surface)")
    return texts


@dataclass(frozen=True, kw_only=True)
class AbstentionRequest:
    """Abstention cost curves: the spec's source, the scores, one or two sweeps, which pairs, the time bound."""

    source: Source
    scores: ScoresInput
    sweeps: tuple[str, ...]
    pairs: str | None = None
    seconds: float | None = None


@dataclass(frozen=True, kw_only=True)
class ConditionsRequest:
    """Operating-condition uncertainty: binary `scores`, or class `probabilities` with `y_true` or `truth`; the
    threshold choice, the certainties, the weight of the true value, the time bound."""

    source: Source
    scores: ScoresInput | None = None
    probabilities: object = None
    y_true: object = None
    truth: str | None = None
    method: str = "score"
    gammas: str | float | Sequence[str | float] | None = None  # as given: `operating.parse_gamma` reads each
    weight: str | None = None
    seconds: float | None = None


@dataclass(frozen=True, kw_only=True)
class EvaluateRequest:
    """Scores of set-valued classifiers (or their curves along one parameter, or a surface over two): what
    `evaluate` reads once it has chosen this job."""

    source: Source
    y_true: object = None
    sets: object = None
    predictions: object = None
    truth: str | None = None
    f_beta: Sequence[float | str | Fraction] = ()
    level: float = 0.95
    alpha: float = 0.05
    sweep_text: object = None
    probabilities: object = None
    pairs: str | None = None
    logits: bool = False


@dataclass(frozen=True, kw_only=True)
class DecideRequest:
    """One `decide` call: the spec's source and exactly one input (a distribution `p`, a credal set as
    `intervals_text` or `vertices` with its `rule`, a file of rows `p_file` or of intervals `intervals_file`), and
    whether the rows are logits and the certainty columns are wanted."""

    source: Source
    p: object = None
    intervals_text: object = None
    vertices: object = None
    rule: object = "maximality"
    p_file: object = None
    intervals_file: object = None
    certainty: object = False
    logits: object = False
