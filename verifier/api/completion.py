"""A run's result made whole, under the run's one time limit, then sealed: everything the displays asked for will
show is made here (how to fit each setting, every set's optimality, the pictures' numbers, the certificate and
its re-check by the standalone checker), so that every display afterwards only formats (`analysis.result`).

What is made follows `detail` (`analysis.result.DETAILS`): "summary" makes the first steps to fit each setting
(the compact console); "text" also every failing cell and every set's optimality (`-v`, JSON, Markdown, JUnit);
"full" also the numbers of the pictures (HTML, figures, the notebook display). A certificate is made when asked
(`certificate=True`, `--certificate`, `expect: {certificate: checks}`), with every set's optimality it carries.

When the time limit ends the run here, the verdicts stand (decided and re-checked before); what was not made is
recorded as such: the analysis says `Stopped: ... while making X; not made: ...`, every set's optimality not
made is empty and marked cut, pictures are not drawn, no certificate is written, and such a result is never
cached. An analysis the time limit stopped already makes nothing more.

Owns: `complete`. May import: `analysis`, `report.check.check_pictures` (what the pictures draw), `report.certificate`,
`verifier_check`, `limits`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from verifier import limits
from verifier.analysis.fit import Expectation
from verifier.analysis.optimality_route import CutShort
from verifier.analysis.remedy import how_to_fit
from verifier.analysis.result import DETAILS, Analysis
from verifier.errors import UsageError


def complete(analysis: Analysis, detail: str, certificate: bool, deadline: float | None, shown: float | None,
             progress: Callable[[str], None] | None = None) -> Analysis:
    """Make what `detail` and `certificate` ask for before `deadline` (a `time.monotonic()` value, None: no
    bound; a stop names `shown`), record what the limit cut, and seal the analysis."""
    checks = "certificate" in analysis.spec.expect
    steps = _steps(analysis, detail, certificate or checks)
    done: list[str] = []
    if analysis.stopped:
        _not_made(analysis, [what for what, _ in steps])
    else:
        try:
            left = None if deadline is None else max(0.001, deadline - time.monotonic())
            with limits.time_limit(left, shown):
                for what, make in steps:
                    if progress is not None:
                        progress(f"making {what}")
                    make()
                    done.append(what)
        except limits.STOPS as caught:
            stop = limits.stop_of(caught)
            left_out = [what for what, _ in steps if what not in done]
            note = f"Stopped: {stop} while making {left_out[0]}; not made: {', '.join(left_out)}"
            analysis.stopped = note
            analysis.scheme.notes.append(note + ". Raise --time-limit to let it finish.")
            _not_made(analysis, left_out)
    if checks:
        analysis.expectations.append(_certificate_expectation(analysis))
    analysis.detail = detail
    analysis.seal()
    return analysis


def _steps(analysis: Analysis, detail: str, certificate: bool) -> list[tuple[str, Callable[[], object]]]:
    level = DETAILS.index(detail)  # checked at the door (`verify`)
    numeric = not (analysis.scheme.symbolic or analysis.symbolic is not None)
    steps: list[tuple[str, Callable[[], object]]] = [("the first steps to fit each setting",
                                                      lambda: how_to_fit(analysis, brief=True))]
    if level >= 1:
        steps.append(("how to fit each setting", lambda: how_to_fit(analysis)))
    if level >= 1 or (certificate and numeric):  # a numeric certificate carries every set's optimality
        steps.append(("every set's optimality", lambda: analysis.optimality))
    if level >= 2:
        from verifier.report.check.check_pictures import make_numbers

        steps.append(("the pictures' numbers", lambda: make_numbers(analysis)))
    if certificate:
        steps.append(("the certificate", lambda: _certificate(analysis)))
    if "certificate" in analysis.spec.expect:
        steps.append(("the certificate's re-check (expect: certificate)", lambda: _recheck(analysis)))
    return steps


def _certificate(analysis: Analysis) -> None:
    from verifier.report.certificate import certificate

    try:
        analysis.certificate_data = certificate(analysis)
    except UsageError as exc:  # beyond what a certificate can carry: said when it is asked for
        analysis.parts["certificate refused"] = str(exc)


def _not_made(analysis: Analysis, left_out: list[str]) -> None:
    """What a cut run shows in place of the parts it did not make: no remedies, no optimality (marked cut), no
    pictures, no certificate."""
    for brief in (True, False):
        analysis.parts.setdefault(("remedies", brief), {})
    if analysis.optimality_data is None:
        analysis.optimality_data, analysis.optimality_source = CutShort(), None
    analysis.parts.setdefault("pictures", False)
    analysis.parts["not made"] = list(left_out)


def _recheck(analysis: Analysis) -> None:
    """`expect: {certificate: checks}`: the certificate re-checked by the standalone checker, in process."""
    import verifier_check

    if analysis.certificate_data is None:
        analysis.parts["certificate checks"] = "not covered"
        return
    from verifier_check.parse import load

    document = json.dumps(analysis.certificate_data, indent=1) + "\n"  # as `--certificate` writes it
    try:
        if len(document) > verifier_check.MAX_BYTES:
            raise verifier_check.Malformed("beyond the bytes the checker reads")
        statuses = {status for _, status, _ in verifier_check.claims(load(document))[1]}
    except (UsageError, verifier_check.Malformed):  # beyond the checker's bounds
        statuses = {"not covered"}
    analysis.parts["certificate checks"] = next((s for s in ("refuted", "not covered") if s in statuses), "checks")


def _certificate_expectation(analysis: Analysis) -> Expectation:
    """Met when every claim of the certificate checks ("refuted" or "not covered" otherwise; "not made" or "not
    checked" when the time limit cut the run first)."""
    actual = analysis.parts.get("certificate checks")
    if actual is None:
        actual = "not made" if analysis.certificate_data is None else "not checked"
    return Expectation("certificate", "checks", actual)
