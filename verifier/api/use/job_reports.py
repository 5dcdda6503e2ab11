"""The typed results of the score-driven jobs: `AbstentionReport` (`abstention_curves`), `ConditionsReport`
(`operating_conditions`) and `SurfaceReport` (`cost_surface`). Each is a `UseReport` (what `evaluate` returned for
the same job before, and still does): the same text, JSON record, notebook display (the console text in a
monospace block), `figures()` and `picture()`, plus the job's own result by name, typed.

May import: `api.use.report` and what it imports.
"""

from __future__ import annotations

from verifier.api.use.report import UseReport


class AbstentionReport(UseReport):
    """Abstention cost curves (Friedel, Rückert & Kramer): the optimal window of each classifier at every cost
    scenario, its exact cost, VACC and the differential costs; `curves` is the `using.abstention.AbstentionCurves`."""

    repr_name = "AbstentionReport"

    @property
    def curves(self):
        """The abstention cost curves (`using.abstention.AbstentionCurves`)."""
        return self.abstention


class ConditionsReport(UseReport):
    """Expected losses under operating-condition uncertainty (Hernández-Orallo et al.); `result` is the
    `using.operating.Conditions` (per classifier its loss at each certainty)."""

    repr_name = "ConditionsReport"

    @property
    def result(self):
        """The expected losses (`using.operating.Conditions`)."""
        return self.conditions


class SurfaceReport(UseReport):
    """Mean cost, indeterminacy rate and set size over two swept parameters (the optimal sets decided afresh at
    each grid point); `surface` (a field of every `UseReport`) is the `using.evaluate.cost_surface.Surface`."""

    repr_name = "SurfaceReport"
