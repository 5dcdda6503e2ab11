"""`evaluate(spec, scores=FILE, truth=FILE, sweep_text=[...])`: abstention cost curves of binary classifiers
from their scores on a validation set (Friedel, Rückert & Kramer), under a two-class spec swept over one or two
symbolic parameters."""

from __future__ import annotations

from verifier.analysis.pipeline import build
from verifier.api import arguments
from verifier.api.use import UseReport, unfixed
from verifier.errors import UsageError
from verifier.using import parse_sweep

MAX_SCENARIOS = 250_000


def abstention_report(spec, scores: str, truth: str | None, sweeps: list[str]) -> UseReport:
    from verifier.report.use.abstention import abstention_lines
    from verifier.report.use.abstention_json import abstention_json
    from verifier.using.abstention.curves import TRIVIAL, abstention_curves
    from verifier.using.abstention.normal_form import scenarios
    from verifier.using.abstention.scores_file import read_scores

    scores = arguments.path(scores, "scores")
    symbolic = [name for name, p in spec.parameters.items() if p.value is None]
    if not sweeps:
        example = " ".join(f"--sweep {name}=0:1:101" for name in symbolic[:2]) or "--sweep NAME=0:1:101"
        raise UsageError(f"--scores draws abstention cost curves over the spec's cost parameters: give one or two "
                         f"sweeps, e.g. {example}")
    if len(sweeps) > 2:
        raise UsageError(f"{len(sweeps)} --sweep options: abstention cost curves take one (a curve) or two (a surface)")
    parsed = [parse_sweep(text, symbolic) for text in sweeps]
    names = [name for name, _ in parsed]
    if len(set(names)) < len(names):
        raise UsageError(f"--sweep {names[0]} is given twice; sweep two different parameters")
    others = [s for s in symbolic if s not in names]
    if others:
        raise unfixed(spec, others, "--scores with --sweep " + " and ".join(names))
    grids = [grid for _, grid in parsed]
    total = 1
    for grid in grids:
        total *= len(grid)
    if total > MAX_SCENARIOS:
        raise UsageError(f"{total:,} cost scenarios on this grid; at most {MAX_SCENARIOS:,} (fewer points per --sweep)")
    scheme = build(spec)
    points = scenarios(scheme, names, grids, spec.path)
    if all(p.excluded for p in points):
        raise UsageError(f"no point of the grid satisfies the assumptions of {spec.path} ({points[0].excluded})")
    found = read_scores(scores, tuple(spec.classes), truth)
    if any(s.name == TRIVIAL for s in found):  # its rows, pairs and figure files would be the built-in one's
        raise UsageError(f"--scores {scores}:1: a column is named {TRIVIAL!r}, the name of the trivial classifier "
                         "every abstention evaluation adds (always P, always N or always abstain); rename the column")
    curves = abstention_curves(spec.path, names, grids, points, found)
    title = f"{spec.name}: abstention cost curves"
    record = {"spec": spec.path, "abstention": abstention_json(curves)}
    return UseReport("\n".join(abstention_lines(curves)) + "\n", record, title=title, abstention=curves)
