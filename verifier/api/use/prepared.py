"""`prepare(spec)`: a spec read once and its decision route built once, to decide or score many batches (a
notebook's loop, a data frame's partitions) without reloading it each time.

    >>> import numpy as np, verifier
    >>> scheme = verifier.prepare("specs/obstacle-discounted.yaml")
    >>> [scheme.decide(np.array([[0.1, 0.3, 0.6]])).masks.tolist() for _ in range(2)]
    [[[False, True, False]], [[False, True, False]]]

A `Prepared` pickles as its spec's text (or data) and name, so that a worker process rebuilds the route once
from the spec it was given, never from a file that may differ on its machine.

Owns: `Prepared`, `prepare`. May import: `api.use` (the jobs it forwards to), `api.entry`, `spec`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from verifier import limits
from verifier.api.entry import Source, load
from verifier.api.use.kept import prepared
from verifier.api.use.route import use_route
from verifier.errors import UsageError

if TYPE_CHECKING:
    from verifier.api.use.batch_decisions import BatchDecisions
    from verifier.api.use.report import UseReport
    from verifier.api.use.set_scorer import SetScorer
    from verifier.spec import Spec


class Prepared:
    """A spec with every parameter fixed, read once, with the scheme and route its rows are decided and scored
    on built once (`verifier.prepare`). `decide(P)` decides a batch of rows (an (N, K) array of any library;
    one row gives a `UseReport` as `verifier.decide` does), `evaluate(...)` takes `verifier.evaluate`'s
    arguments, `scorer()` is a scikit-learn scorer; each gives what the same call on the spec gives."""

    def __init__(self, source: Source | Spec):
        self.spec = prepared(load(source))
        self._route = use_route(self.spec, "verifier.prepare(spec).decide")  # its refusal is kept for decide()
        self._decides = self._route.decider().result.route if self._route.decides else None  # its arrays, now

    @property
    def classes(self) -> tuple[str, ...]:
        """The spec's classes, in its order (the columns of an array of probabilities)."""
        return tuple(self.spec.classes)

    @property
    def decides(self) -> bool:
        """Whether rows of probabilities can be decided on this spec (else `decide` raises the reason)."""
        return self._route.decides

    def decide(self, probabilities, *, logits: bool = False,
               time_limit: float | None = limits.DEFAULT_TIME_LIMIT_S) -> BatchDecisions | UseReport:
        """The optimal set of each row of `probabilities` (an (N, K) array, list of rows or data frame whose
        columns name the classes): a `BatchDecisions`; one row (text, a dict or a list of K numbers) gives the
        single decision's `UseReport`. `logits`: the rows are logits, decided exactly on their softmax."""
        from verifier.api.use.decisions import decide

        return decide(self.spec, probabilities, logits=logits, time_limit=time_limit)

    def evaluate(self, y_true=None, sets=None, **options) -> UseReport:
        """`verifier.evaluate(spec, y_true, sets, **options)` on the prepared spec (its route built once)."""
        from verifier.api.use.evaluation import evaluate

        return evaluate(self.spec, y_true, sets, **options)

    def scorer(self, measure: str = "mean_cost") -> SetScorer:
        """The scheme as a scikit-learn scorer (`verifier.scorer`), on the route built once."""
        from verifier.api.use.set_scorer import SetScorer

        return SetScorer(self.spec, measure)

    def __repr__(self) -> str:
        route = f"rows decided on the {self._decides} route" if self._decides else "given sets scored only"
        return f"<Prepared {self.spec.name!r}: {len(self.classes):,} classes, {route}>"

    def __reduce__(self):
        text = getattr(self.spec, "text", "")
        return _prepared_again, ((text, None) if text else (None, self.spec.content), self.spec.path)


def _prepared_again(source: tuple[str | None, object], path: str) -> Prepared:
    from verifier.spec.reader import spec_from_data, spec_from_text

    text, data = source
    return Prepared(spec_from_text(text, path) if text is not None else spec_from_data(data, path))


def prepare(spec: Source) -> Prepared:
    """`spec` (a path, YAML text or a dict) read and its route built once: a `Prepared` to decide, evaluate and
    score many batches with. A spec with a free parameter is refused (`SpecError`: a value is needed to decide);
    a spec whose rows cannot be decided is prepared for scoring, and `decide` says why not."""
    if isinstance(spec, Prepared):
        raise UsageError("prepare(spec): this spec is prepared already")
    return Prepared(spec)
