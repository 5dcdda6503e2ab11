"""`cost_surface(spec, y_true, probabilities, sweep=[A, B])` (and `evaluate(..., probabilities=...,
sweep_text=[A, B])`): the surface of each classifier's mean cost, indeterminacy
rate and average set size over two symbolic parameters, its Bayes-optimal sets decided afresh at every grid
point (`using.evaluate.cost_surface`); or, from set predictions, the mean cost of the sets as given at each point."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from verifier import limits
from verifier.analysis.pipeline import FAST_MAX_CLASSES, build
from verifier.api import arguments
from verifier.api.entry import Source, checked_time_limit, load
from verifier.api.use.job_reports import SurfaceReport
from verifier.api.use.probabilities import probability_sources
from verifier.api.use.report import unfixed
from verifier.api.use.requests import sweep_texts
from verifier.errors import SpecError, UsageError
from verifier.report.use import surface as words
from verifier.report.use import wrapped
from verifier.using.evaluate import FixedSets, parse_sweeps, surface
from verifier.using.exact import ExactRows, rational_rows

if TYPE_CHECKING:
    from verifier.spec import Spec
    from verifier.using.evaluate import Surface


def cost_surface(spec: Source, y_true=None, probabilities=None, *, sweep=None, truth: str | None = None,
                 time_limit: float | None = limits.DEFAULT_TIME_LIMIT_S) -> SurfaceReport:
    """Each classifier's mean cost, indeterminacy rate and average set size over two of the spec's symbolic
    parameters (`sweep`: two texts such as ['mu=0:1:21', 'nu=0:1:21']), its Bayes-optimal sets decided afresh,
    exactly, at every grid point. `probabilities`: an (N, K) array in the spec's class order with `y_true` (class
    names or indices), a dict of them by classifier, or a file (or list of files) with `truth`. `time_limit`:
    seconds (None: no bound); past it, the grid points done are reported and the rest named."""
    seconds = checked_time_limit(time_limit)
    sweeps = sweep_texts(sweep, "sweep")
    if sweeps is None or len(sweeps) < 2:  # more than two: `parse_sweeps` says which
        raise UsageError(f"sweep: a cost surface sweeps two parameters; give two texts such as ['mu=0:1:21', "
                         f"'nu=0:1:21'], not {len(sweeps or []):,}")
    if probabilities is None:
        raise UsageError("cost_surface: give probabilities (an (N, K) array with y_true, a dict of them by "
                         "classifier, or a file with truth)")
    truth = arguments.path(truth, "truth")
    into: list[Surface] = []  # the Surface, as it is filled
    loaded: list[Spec] = []  # the spec, once read
    try:
        with limits.time_limit(seconds):
            loaded.append(load(spec))
            return surface_report(loaded[0], sweeps, probabilities, y_true, truth, into=into)
    except limits.TimeLimitReached as stop:
        if into and into[0].done:  # the grid points done, made into a report here
            return surface_use_report(loaded[0], into[0], stop)
        stage = "deciding the sets at every grid point of the surface" if loaded else "reading the spec"
        raise UsageError(f"{stop} while {stage}, before any classifier was scored; raise the time limit "
                         "(--time-limit), or split the input") from None


def surface_report(spec, texts: list[str], probabilities=None, y_true=None, truth: str | None = None,
                   found: list | None = None, within_family=None, into: list | None = None) -> SurfaceReport:
    """The report of two sweeps (the spec's symbolic parameters must be exactly the two): with probabilities,
    each row's set decided at every point; with `found` (set predictions, checked by `within_family(scheme,
    prediction)`), the sets as given. `into` gets the Surface as it is filled (a time limit keeps the points
    done: `surface_use_report` makes their report)."""
    per_class = [name for name, p in spec.parameters.items() if p.value is None and p.per_class]
    if per_class:
        mark = spec.marks.get("parameters")
        raise SpecError(f"--sweep twice draws a surface over two parameters; {', '.join(per_class)} is symbolic "
                        "per class (one parameter per class)", file=spec.path, key="parameters",
                        line=mark.line if mark else None, column=mark.column if mark else None,
                        expected="a value for each per-class parameter, and exactly two other symbolic ones")
    symbolic = [name for name, p in spec.parameters.items() if p.value is None]
    sweeps = parse_sweeps(texts, symbolic)
    others = [s for s in symbolic if s not in (sweeps[0][0], sweeps[1][0])]
    if others:
        raise unfixed(spec, others, "--sweep twice varies two parameters and")
    scheme = build(spec)
    if scheme.orbits is not None or scheme.partial:
        raise UsageError(f"--sweep given twice draws a surface from every set's costs at every point; {spec.path} "
                         f"has {scheme.K} classes, beyond the {FAST_MAX_CLASSES:,} classes whose sets are all built "
                         "(or a restricted family within its bounds); one --sweep, with the other parameter given a "
                         "value in the spec, draws the curves of set predictions from the predicted sets' costs "
                         "only")
    inputs: list[tuple[str, list[ExactRows] | FixedSets, np.ndarray]]
    if found is not None:
        for pred in found:
            within_family(scheme, pred)
        inputs = [(p.name, _fixed(p.masks), np.asarray(p.truth, dtype=np.int64)) for p in found]
    else:
        inputs = [(name, rows, _checked(labels, count, where))
                  for name, where, rows, labels, count in _sources(scheme, probabilities, y_true, truth)]
    return surface_use_report(spec, surface(scheme, inputs, sweeps, into))


def surface_use_report(spec, s, stop=None) -> SurfaceReport:
    """The report of a surface, complete, or cut by `stop` after its first `s.done` grid points (the point being
    done when it came is left out for every classifier; the rest were not reached)."""
    cut = None
    if stop is not None:
        width, total = len(s.grids[1]), len(s.grids[0]) * len(s.grids[1])
        if s.done < total:
            i, j = divmod(s.done, width)
            for grid in s.classifiers:
                for values in (grid.mean_cost, grid.rate, grid.size):
                    values[i][j] = None
        s.not_reached = total - s.done
        text = (f"{stop}: {s.done:,} of {total:,} grid points done, in order ({s.parameters[0]} outermost); the "
                f"other {s.not_reached:,} are left out (raise --time-limit, or sweep fewer points)")
        cut = {"text": text, "seconds": stop.seconds, "points": total, "points_done": s.done}
    record = {"spec": spec.path, "surface": words.surface_json(s), "cut": cut}
    title = f"{spec.name}: mean cost as {s.parameters[0]} and {s.parameters[1]} vary"
    lines = words.surface_lines(s) + (["", *wrapped(f"Stopped: {cut['text']}.", 0)] if cut else [])
    return SurfaceReport("\n".join(lines) + "\n", record, title=title, surface=s)


def _sources(scheme, probabilities, y_true, truth):
    """Each classifier's rows read once (exact, normalised), with the number of rows read."""
    for name, where, blocks, labels, _ in probability_sources(scheme.classes, probabilities, y_true, truth):
        read = _read(blocks, scheme.K)
        yield name, where, read, labels, sum(len(b) for b in read)


def _fixed(masks: np.ndarray) -> FixedSets:
    distinct, inverse = np.unique(masks, axis=0, return_inverse=True)
    sets = [frozenset(np.flatnonzero(row).tolist()) for row in distinct]
    return FixedSets([sets[k] for k in np.asarray(inverse).reshape(-1).tolist()])


def _read(blocks, K: int) -> list[ExactRows]:
    out = []
    for block in blocks:
        if isinstance(block, tuple):  # (rows as Fractions, rescaled so far) from an array
            block = block[0]
        out.append(block if isinstance(block, ExactRows) else rational_rows(block, K))
    return out


def _checked(labels, rows: int, where: str) -> np.ndarray:
    if rows != len(labels):
        raise UsageError(f"{where}: {rows:,} rows of probabilities but {len(labels):,} true classes; one per instance "
                         "is expected")
    return np.asarray(labels, dtype=np.int64)
