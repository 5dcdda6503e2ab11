"""`abstention_curves(spec, y_true, y_score, sweep=[...])` (and `evaluate(spec, scores=FILE, sweep_text=[...])`):
abstention cost curves of binary classifiers from their scores on a validation set (Friedel, Rückert & Kramer),
under a two-class spec swept over one or two symbolic parameters. The scores are arrays or a scores file; the same
numbers give the same report either way (`using.abstention.score_arrays`)."""

from __future__ import annotations

from verifier import limits
from verifier.analysis.pipeline import build
from verifier.api.entry import Source, load
from verifier.api.use.job_reports import AbstentionReport
from verifier.api.use.report import stopped_within, unfixed
from verifier.api.use.requests import AbstentionRequest, scores_input, sweep_texts
from verifier.errors import UsageError
from verifier.report.use import wrapped
from verifier.using import parse_sweep

MAX_SCENARIOS = 250_000


def abstention_curves(spec: Source, y_true=None, y_score=None, *, sweep=None, truth: str | None = None,
                      pairs: str | None = None,
                      time_limit: float | None = limits.DEFAULT_TIME_LIMIT_S) -> AbstentionReport:
    """Abstention cost curves of binary classifiers under a two-class `spec` swept over one or two of its symbolic
    parameters (`sweep`: 'mu=0:1:21', or a list of two), with VACC and differential costs, exactly (Friedel,
    Rückert & Kramer). `y_true`: the true classes (names or indices); `y_score`: one score per instance, higher
    meaning the spec's first class more likely (a list, a numpy array or a pandas column; several classifiers as
    a mapping or data frame of them by name), each float taken as its exact binary value. Or `y_score` the path of
    a scores file (its true classes in a 'true' column, or `truth`/`y_true` the path of a file of them).
    `pairs`: 'all', 'best' or a classifier's name (the differential costs made); `time_limit`: seconds (None: no
    bound), past which the classifiers done are reported and the rest named."""
    sweeps = sweep_texts(sweep, "sweep") or []
    return abstention_report(AbstentionRequest(source=spec, scores=scores_input(y_true, y_score, truth),
                                               sweeps=tuple(sweeps), pairs=pairs, seconds=time_limit))


def abstention_report(request: AbstentionRequest) -> AbstentionReport:
    """The curves of the spec `request.source` names, within `request.seconds`; cut by them, the classifiers done
    and what was cut (a usage error when not one classifier was done)."""
    from verifier.report.use import abstention_lines
    from verifier.report.use.abstention_json import abstention_json

    state: dict = {}
    _, stop = stopped_within(request.seconds, lambda: _curves(load(request.source), request, state))
    curves = state.get("curves")
    if stop is not None and (curves is None or not curves.classifiers):
        raise UsageError(f"{stop} before any classifier's abstention cost curves were done; raise the time limit "
                         "(--time-limit), sweep fewer points, or split the input")
    assert curves is not None  # _curves returns only once it has made them (a stop before them is refused above)
    spec = state["spec"]
    record = {"spec": spec.path, "abstention": abstention_json(curves), "cut": None}
    lines, every = abstention_lines(curves, verbose=False), abstention_lines(curves)
    if stop is not None:
        done = {(c.name, c.dataset) for c in curves.classifiers}
        left = [s.name + (f" ({s.dataset})" if s.dataset is not None else "") for s in state["found"]
                if (s.name, s.dataset) not in done]
        done_text = (f"{len(state['found']) - len(left):,} of {len(state['found']):,} classifiers done; not done: "
                     + ", ".join(left[:5]) + (f", ... ({len(left):,} in all)" if len(left) > 5 else "")) if left \
            else "every classifier done"
        text = (f"{stop}: {done_text}; the trivial classifier and the differential costs of the data set being "
                "done were not made (raise --time-limit, or sweep fewer points)")
        record["cut"] = {"text": text, "seconds": stop.seconds, "classifiers": len(state["found"]),
                         "classifiers_done": len(state["found"]) - len(left)}
        lines += ["", *wrapped(f"Stopped: {text}.", 0)]
        every += lines[-2:]
    return AbstentionReport("\n".join(lines) + "\n", record, title=f"{spec.name}: abstention cost curves",
                            abstention=curves, verbose_text="" if every == lines else "\n".join(every) + "\n")


def _curves(spec, request: AbstentionRequest, state: dict) -> None:
    """Everything under the bound: the sweeps, scenarios and scores read, then the curves, made into
    state["curves"] one classifier at a time."""
    from verifier.using.abstention import TRIVIAL, AbstentionCurves, scenarios
    from verifier.using.abstention import abstention_curves as curves_of

    sweeps, scores = list(request.sweeps), request.scores
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
    found = scores.read(tuple(spec.classes))
    if any(s.name == TRIVIAL for s in found):  # its rows, pairs and figure files would be the built-in one's
        raise UsageError(f"--scores {scores.path}:1: a column is named {TRIVIAL!r}, the name of the trivial classifier "
                         "every abstention evaluation adds (always P, always N or always abstain); rename the column")
    from verifier.using.compare import check_pairs

    pairs = check_pairs(request.pairs, list(dict.fromkeys(s.name for s in found)), scores.where)
    state.update(spec=spec, found=found, curves=AbstentionCurves(spec.path, names, grids, points, []))
    curves_of(spec.path, names, grids, points, found, into=state["curves"], pairs=pairs)
