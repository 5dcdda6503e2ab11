"""verify: prove or refute the properties of extended cost matrices for set-valued predictions, exactly.

    >>> import verifier
    >>> report = verifier.verify("specs/ha-numeric.yaml")
    >>> report.verdicts["P3"], report.fits["filtering"]
    ('fails', False)

`verify(source)` takes a path, YAML text or a parsed dict and returns a `Report` (verdicts, evidence in plain
words, fit to the filtering and choice settings, the exact extended matrix, and every output format);
`verify_all(directory)` returns one per spec; `sweep_classes(source, "2..8")` checks a formula spec at every
class count; `design(source, setting="filtering")` completes or calibrates a scheme for a setting (the
paper's "how to determine them?"); `decide(source, p)` predicts the optimal set for a precise or imprecise
probability (for an (N, K) array of rows, `BatchDecisions`: one boolean mask per row); `prepare(source)` reads a
spec and builds its decision route once, to decide or score many batches; `evaluate(source, y_true, sets)`
scores set-valued classifiers under the scheme (or their `probabilities=`, each row's optimal set predicted
first); `scorer(source)` is a scikit-learn scorer. The other
jobs have one entry point each, taking arrays as `sklearn.metrics.roc_curve(y_true, y_score)` does (lists, numpy
arrays, pandas columns; `y_score` one column or a mapping / data frame of them by classifier name; floats taken as
their exact binary values) or a file's path:

    >>> curves = verifier.abstention_curves("specs/friedel-abstention-symbolic.yaml", y_true, y_score,
    ...                                     sweep=["mu=0:1:21", "nu=0:1:21"])          # doctest: +SKIP

`abstention_curves(source, y_true, y_score, sweep=...)` (Friedel et al.'s windows, VACC),
`operating_conditions(source, y_true, y_score, method=..., uncertainty=..., weight=...)` (Hernández-Orallo et
al.), `cost_surface(source, y_true, probabilities, sweep=[A, B])` (two parameters) and
`certainty(source, probabilities, y_true, logits=False)` (Berenbeim et al.). Each result displays in a notebook
and writes JSON (`to_json()`), text (`text`) and figures (`figures()`, `picture()`). An invalid spec raises
`SpecError`, a bad argument `UsageError` naming it. `explain("P4")` states a property in plain words.

The package is layered in pipeline order; each layer imports only those below it (an import-linter contract
in pyproject.toml, run by the tests):
    cli → api → report → designing | using → analysis → check → engines → scheme → spec → formula → verdict
          → properties → errors, limits, numbers, version
"""

from typing import TYPE_CHECKING

from verifier.errors import SpecError, UsageError
from verifier.lazy_exports import lazy_exports
from verifier.version import __version__

if TYPE_CHECKING:  # for type checkers and editors; at run time the API loads on first use (below)
    from verifier.api import (
        AbstentionReport,
        BatchDecisions,
        CertaintyReport,
        ClassSweepReport,
        ConditionsReport,
        DesignReport,
        Prepared,
        Report,
        SurfaceReport,
        UseReport,
        abstention_curves,
        certainty,
        cost_surface,
        decide,
        design,
        evaluate,
        operating_conditions,
        prepare,
        scorer,
        sweep_classes,
        verify,
        verify_all,
    )
    from verifier.properties.explain import explain

_API = ["AbstentionReport", "BatchDecisions", "CertaintyReport", "ClassSweepReport", "ConditionsReport",
        "DesignReport", "Prepared", "Report", "SurfaceReport", "UseReport", "abstention_curves", "certainty",
        "cost_surface", "decide", "design", "evaluate", "operating_conditions", "prepare", "scorer", "sweep_classes",
        "verify", "verify_all"]
# the API loads on first use, so that `import verifier.errors` (or the spec reader) stays light; `verifier.api`
# itself loads each name's own module only
_NAMES, __getattr__, __dir__ = lazy_exports(__name__, globals(), {name: "verifier.api" for name in _API}
                                            | {"explain": "verifier.properties.explain"})
__all__ = sorted(["SpecError", "UsageError", "__version__", *_NAMES])
