"""The result of one spec's analysis, as a value: `Analysis` holds the verdicts and everything the displays show
(each set's optimality, how to fit each setting, the pictures' numbers, the certificate), each made once by the
run (`api.completion`, within the run's one time limit) and then sealed. A sealed analysis makes nothing more: a
part that was not made raises `NotMade`, so a display can only format what the analysis computed and never
calls a solver behind the user's back (nor past the deadline).

`DETAILS` names how much a run makes: "summary" (the verdicts, the fit and the first steps to fit: the compact
console), "text" (also every set's optimality and every failing cell: `-v`, JSON, Markdown, JUnit) and "full"
(also the pictures' numbers: HTML, figures, notebooks).

Owns: `Analysis`, `NotMade`, `DETAILS`. May import: `drawn`, `fit`, `decision`, `optimality_route` (its
`CutShort`, `why_not_decided`), and everything below `analysis`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from verifier.analysis.decision import BinaryDecision
from verifier.analysis.drawn import Drawn
from verifier.analysis.fit import Expectation, SettingFit
from verifier.analysis.optimality_route import CutShort, why_not_decided
from verifier.errors import UsageError
from verifier.scheme import Scheme
from verifier.spec import Spec
from verifier.verdict import Optimal, PropertyResult, SetOptimality, SetPossibility

if TYPE_CHECKING:
    from verifier.analysis.symbolic import SymbolicAnalysis

DETAILS = ("summary", "text", "full")  # what a run makes, each level including the one before


class NotMade(UsageError):
    """A display asked a sealed analysis for a part its run did not make (a smaller `detail`, or the time limit
    cut it): the display must not make it now."""


@dataclass
class Analysis(Drawn):  # `Drawn`: what its pictures draw
    """Everything decided about one spec: the scheme, the verdicts re-checked, each set's possibility, the settings'
    fit, the expectations, and what the reports draw and show."""

    spec: Spec
    scheme: Scheme
    results: list[PropertyResult]
    possibility: list[SetPossibility]
    settings: dict[str, SettingFit]
    expectations: list[Expectation] = field(default_factory=list)
    decision: BinaryDecision | None = None
    seconds: float = 0.0
    symbolic: "SymbolicAnalysis | None" = None  # set for schemes with symbolic parameters
    cross_checks: list = field(default_factory=list)  # --cross-check: the second method's verdicts
    # every set's optimality, once made (`optimality_source` makes it: one exact LP per set, or conditions on the
    # parameters); the compact console does not need it, so a run made for it skips it
    optimality_data: dict[frozenset[int], SetOptimality] | None = None
    stopped: str = ""  # why the run ended early (the overall time bound), when it did
    optimality_source: Callable[[], dict] | None = field(default=None, repr=False, compare=False)
    detail: str = "full"  # how much the run made (DETAILS), once sealed
    sealed: bool = field(default=False, repr=False, compare=False)
    certificate_data: dict | None = field(default=None, repr=False, compare=False)
    # parts made once and kept (remedies, the pictures' numbers, a calibration), by name
    parts: dict = field(default_factory=dict, repr=False, compare=False)

    def part(self, name: str, make: Callable[[], Any], what: str) -> Any:
        """The part `name`, made by `make()` the first time, before the analysis is sealed; `what` says in words
        what it is, for the `NotMade` a sealed analysis raises when its run did not make it."""
        if name not in self.parts:
            if self.sealed:
                raise NotMade(f"{what} was not made by this run ({self._why_not()})")
            self.parts[name] = make()
        return self.parts[name]

    def _why_not(self) -> str:
        if self.stopped:
            return self.stopped.rstrip(".")
        return (f"it was made with detail={self.detail!r}; verify(..., detail='full') makes everything every "
                "display shows")

    def seal(self) -> None:
        """Make nothing more: every display from now on only formats what was made."""
        self.sealed = True

    @property
    def optimality(self) -> dict[frozenset[int], SetOptimality]:
        """Every set's optimality (alone, tied or never), as the run made and re-checked it."""
        if self.optimality_data is None:
            if self.sealed:
                raise NotMade(f"every set's optimality was not made by this run ({self._why_not()})")
            source, self.optimality_source = self.optimality_source, None
            self.optimality_data = source() if source is not None else {}
        return self.optimality_data

    @property
    def cut_late(self) -> bool:
        """The time bound cut every set's optimality: never cached."""
        return isinstance(self.optimality_data, CutShort)

    @property
    def optimality_reason(self) -> str:
        """Why a numeric scheme's sets have no `optimal` entry (empty when they have one, or are symbolic)."""
        s = self.scheme
        if self.symbolic is not None or s.symbolic or self.optimality or s.orbits is not None or s.partial:
            return ""
        return why_not_decided(s)

    @property
    def determinate_never_alone(self) -> bool:
        """Proved: whatever p, some indeterminate set costs no more than the best single class. Each singleton's
        certificate is a mixture of indeterminate rows only, each costing no more in every column, so
        E_p[c_y] >= Σ λ_Z E_p[c_Z] >= min over indeterminate Z of E_p[c_Z] at every p."""
        singles = [e for m, e in self.optimality.items() if len(m) == 1]
        return bool(singles) and all(e.status in (Optimal.TIED, Optimal.NEVER) and e.certificate
                                     and all(len(z) > 1 for z in e.certificate) for e in singles)

    @property
    def by_id(self) -> dict[str, PropertyResult]:
        """The verdicts by property id."""
        return {r.property.id: r for r in self.results}

    @property
    def expectations_met(self) -> bool:
        """Whether every verdict the spec expects is the one decided."""
        return all(e.met for e in self.expectations)
