"""The fit of a scheme to the filtering and choice settings, judged by the paper's Table VIII, and to the verdicts
its spec expects."""

from __future__ import annotations

from dataclasses import dataclass, field

from verifier.properties import BY_ID, Level
from verifier.properties.settings import TABLE_VIII
from verifier.verdict import EvidenceKind, PropertyResult, Verdict


@dataclass
class Expectation:
    """A verdict the spec expects (`expect:`) beside the one decided."""
    property_id: str
    expected: str
    actual: str

    @property
    def met(self) -> bool:
        """Whether the decided verdict is the expected one."""
        return self.expected == self.actual


@dataclass
class SettingFit:
    """A scheme's fit to one setting of Table VIII: fits, does not fit, or undecided (a necessary property unknown),
    with the failing and unknown necessary properties and warnings on the desirable and undesirable ones."""

    setting: str
    fits: bool | None  # None: no necessary property fails, but one is unknown
    failing_necessary: list[str] = field(default_factory=list)
    unknown_necessary: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        """The fit in words: 'fits', 'does not fit' or 'undecided'."""
        return {True: "fits", False: "does not fit", None: "undecided"}[self.fits]


def judge(results: list[PropertyResult]) -> dict[str, SettingFit]:
    """The fit of the verdicts to each setting of Table VIII: a necessary property that fails rules the setting out; one
    that is unknown leaves it undecided."""
    by_id = {r.property.id: r for r in results}
    out = {}
    for setting, levels in TABLE_VIII.items():
        fit = SettingFit(setting, True)
        for pid, level in levels.items():
            r = by_id[pid]
            name = f"{pid} ({r.property.name})"
            if level == Level.N and r.verdict is Verdict.FAILS:
                fit.failing_necessary.append(pid)
            elif level == Level.N and r.verdict is Verdict.UNKNOWN:
                fit.unknown_necessary.append(pid)
            elif level == Level.D and r.verdict is Verdict.FAILS:
                fit.warnings.append(f"{name} is desirable but fails")
            elif level == Level.U and r.verdict is Verdict.HOLDS:
                how = " (vacuously)" if r.evidence.kind == EvidenceKind.EXHAUSTIVE and r.evidence.instances == 0 \
                    else (" (tight: only with equality)" if r.tight else "")
                fit.warnings.append(f"{name} is undesirable but holds{how}")
            elif level in (Level.D, Level.U) and r.verdict is Verdict.UNKNOWN:
                fit.warnings.append(f"{name} could not be decided")
        fit.fits = False if fit.failing_necessary else (None if fit.unknown_necessary else True)
        out[setting] = fit
    return out


def mark_tight_and_vacuous(results: list[PropertyResult], K: int) -> None:
    """Mark P6 and P7 vacuous at two classes (no class lies outside an indeterminate set) and tight when both hold at
    more; in place."""
    by_id = {r.property.id: r for r in results}
    p6, p7 = by_id["P6"], by_id["P7"]
    if K == 2:  # no class lies outside an indeterminate set: P6 and P7 hold vacuously
        for r in (p6, p7):
            if r.verdict is Verdict.HOLDS:
                r.evidence.instances = 0
                r.evidence.kind = "exhaustive"
                r.reason = "vacuous: no instance to check (no class lies outside any indeterminate set)"
    elif p6.verdict is p7.verdict is Verdict.HOLDS:
        for r in (p6, p7):
            r.tight = True
            r.reason = "tight: c_Y(y) equals the mean of its members' costs for every y outside Y"
    assert set(by_id) == set(BY_ID)
