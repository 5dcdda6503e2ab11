"""`operating_conditions(spec, y_true, y_score, method=..., uncertainty=[...])` (and `evaluate(spec, scores=FILE,
threshold_choice=...)`): what binary classifiers cost when the cost parameter they decide with is uncertain
(Hernández-Orallo et al.'s operating-condition uncertainty); or, from class probabilities, each row's Bayes-optimal
set at the presumed value. The scores are arrays or a scores file, read exactly either way."""

from __future__ import annotations

import math

from verifier import limits, numbers
from verifier.analysis.pipeline import FAST_MAX_CLASSES, build
from verifier.api import arguments
from verifier.api.entry import Source, load
from verifier.api.use.job_reports import ConditionsReport
from verifier.api.use.report import stopped_within, unfixed
from verifier.api.use.requests import ConditionsRequest, scores_input
from verifier.errors import UsageError
from verifier.numbers import shown

DEFAULT_GAMMAS = ("0", "1", "4", "16", "inf")


MAX_GAMMA = 1000  # above it mpmath's incomplete beta, which checks scipy's, no longer converges at 40 digits
MAX_WEIGHT = 100  # A, B of a Beta weight: its exact polynomial has A + B - 1 terms


def parse_gamma(text) -> float | None:
    """A certainty γ: 0 (complete uncertainty), a positive number up to MAX_GAMMA, or inf (None: complete
    certainty), read exactly as every other option's numbers are (1e400 is a number beyond the bound, not inf)."""
    if isinstance(text, str) and text.strip().lower() in ("inf", "infinity", "∞"):
        return None
    if isinstance(text, float) and text == math.inf:
        return None
    bound = (f"the certainty gamma is a number >= 0 and at most {MAX_GAMMA} (the largest for which the Beta "
             "distribution's incomplete beta function is checked), or inf (complete certainty, computed exactly)")
    try:
        value = numbers.exact_value(text)
    except numbers.NumberError as exc:
        raise UsageError(f"--uncertainty {shown(text)}: {exc}; {bound}") from None
    if value < 0 or value > MAX_GAMMA or (value and not float(value)):  # 1e-400 would be taken for 0
        raise UsageError(f"--uncertainty {shown(text)}: {bound}" + ("; a positive one is at least about 1e-308"
                                                                   if 0 < value < 1 else ""))
    return float(value)


def parse_weight(text: str | None):
    """How the true value of the parameter is weighted: None or 'uniform' (the uniform weight), or 'beta:A,B'
    with 0 < A, B <= MAX_WEIGHT, read exactly (`using.operating.Weight`)."""
    from verifier.using.operating import Weight

    if text is None or (isinstance(text, str) and text.strip().lower() == "uniform"):
        return Weight()
    expected = f"expected uniform or beta:A,B with 0 < A, B <= {MAX_WEIGHT} (e.g. beta:2,2)"
    if not isinstance(text, str):
        raise UsageError(f"--weight {shown(text)}: {expected}")
    body = text.strip()
    if body.lower().startswith("beta:") and len(body[5:].split(",")) == 2:
        try:
            a, b = (numbers.exact(p) for p in body[5:].split(","))
        except numbers.NumberError as exc:
            raise UsageError(f"--weight {shown(text)}: {exc}; {expected}") from None
        if 0 < a <= MAX_WEIGHT and 0 < b <= MAX_WEIGHT:
            return Weight(a, b)
    raise UsageError(f"--weight {shown(text)}: {expected}")


def operating_conditions(spec: Source, y_true=None, y_score=None, *, probabilities=None, method: str = "score",
                         uncertainty=None, weight: str | None = None, truth: str | None = None,
                         time_limit: float | None = limits.DEFAULT_TIME_LIMIT_S) -> ConditionsReport:
    """The expected loss of binary classifiers when the spec's one symbolic cost parameter (the operating
    condition) is known only up to a certainty (Hernández-Orallo et al.). `y_true`: the true classes (names or
    indices); `y_score`: one score per instance, higher meaning the spec's first class more likely (a list, a numpy
    array or a pandas column; several classifiers as a mapping or data frame by name; floats taken as their exact
    binary values), or the path of a scores file (true classes in its 'true' column, or `truth`/`y_true` a path).
    Or `probabilities` (an (N, K) array, a dict of them by classifier, or a file with `truth`): each row's
    Bayes-optimal set at the presumed value. `method`: the threshold choice, 'score', 'rate' or 'optimal';
    `uncertainty`: the certainties gamma (0, positive numbers up to 1000, 'inf'; default 0, 1, 4, 16, inf);
    `weight`: how the true value is weighted, 'uniform' or 'beta:A,B'; `time_limit`: seconds (None: no bound)."""
    if y_score is not None and probabilities is not None:
        raise UsageError("give scores or probabilities, not both")
    if y_score is None and probabilities is None:
        raise UsageError("operating_conditions: give y_score (binary scores, or a scores file) or probabilities")
    scores = scores_input(y_true, y_score, truth) if y_score is not None else None
    return conditions_report(ConditionsRequest(
        source=spec, scores=scores, probabilities=probabilities, y_true=None if scores else y_true,
        truth=None if scores else arguments.path(truth, "truth"), method=method, gammas=uncertainty, weight=weight,
        seconds=time_limit))


def conditions_report(request: ConditionsRequest) -> ConditionsReport:
    """The expected losses for the spec `request.source` names, within `request.seconds`; cut by them, the
    classifiers done and what was cut (a usage error when not one classifier was done)."""
    from verifier.report.use import conditions_json, conditions_lines, wrapped

    state: dict = {"made": []}
    _, stop = stopped_within(request.seconds, lambda: _conditions(load(request.source), request, state))
    result = state["made"][0] if state["made"] else None
    if stop is not None and (result is None or not result.classifiers):
        raise UsageError(f"{stop} before any classifier's expected loss was done; raise the time limit "
                         "(--time-limit), or split the input")
    assert result is not None  # _conditions returns only once it has made it (a stop before it is refused above)
    cut = None
    if stop is not None:
        total, done = state["total"], len(result.classifiers)
        text = (f"{stop}: {done:,} of {total:,} classifiers done" if done < total else f"{stop}: every classifier "
                "done") + "; the classifiers were not compared (raise --time-limit, or give fewer classifiers)"
        result.pairs = []  # those made before the stop are not all of them (Holm's family would be wrong)
        cut = {"text": text, "seconds": stop.seconds, "classifiers": total, "classifiers_done": done}
    record = {"spec": result.path, "operating_conditions": conditions_json(result), "cut": cut}
    stopped = ["", *wrapped(f"Stopped: {cut['text']}.", 0)] if cut else []
    lines, every = conditions_lines(result, verbose=False) + stopped, conditions_lines(result) + stopped
    return ConditionsReport("\n".join(lines) + "\n", record, title=f"{state['name']}: expected loss under "
                            "operating-condition uncertainty", conditions=result,
                            verbose_text="" if every == lines else "\n".join(every) + "\n")


def _conditions(spec, request: ConditionsRequest, state: dict) -> None:
    """Everything under the bound: `state` gets the spec's name, the classifier count ("total") and, in "made",
    the Conditions being filled."""
    from verifier.using.operating import GRID, METHODS, conditions, costs

    method, gammas = request.method, request.gammas
    if method not in METHODS:
        raise UsageError(f"--threshold-choice {shown(method)}: expected one of {', '.join(METHODS)}")
    if isinstance(gammas, (str, int, float)):
        gammas = [gammas]
    parsed = list(dict.fromkeys(parse_gamma(g) for g in (gammas or DEFAULT_GAMMAS)))
    weight = parse_weight(request.weight)
    symbolic = [name for name, p in spec.parameters.items() if p.value is None]
    if len(symbolic) != 1:
        if not symbolic:
            raise UsageError(f"--threshold-choice needs one symbolic cost parameter (the operating condition); "
                             f"{spec.path} has none")
        raise unfixed(spec, symbolic[1:], f"--threshold-choice varies one parameter ({symbolic[0]}) and")
    parameter = symbolic[0]
    state["name"] = spec.name
    scheme = build(spec)
    _inside_assumptions(scheme, parameter, spec.path, GRID)
    if request.probabilities is not None:
        _from_probabilities(spec, scheme, parameter, method, parsed, weight, request, state)
    else:
        assert request.scores is not None  # operating_conditions gives scores or probabilities, never neither
        found = request.scores.read(tuple(spec.classes))
        state["total"] = len(found)
        conditions(spec.path, parameter, costs(scheme, parameter, spec.path), method, parsed, weight, found,
                   into=state["made"])


def _inside_assumptions(scheme, parameter: str, path: str, grid) -> None:
    """The presumed value ranges over [0, 1]: the spec's assumptions must admit every interior point."""
    import sympy as sp

    symbol = next(s for s in scheme.symbols if s.name == parameter)
    for x in grid[1:-1]:
        value = sp.Rational(x.numerator, x.denominator)
        for condition, text in scheme.assumptions:
            if condition.subs(symbol, value) is sp.false:
                raise UsageError(f"{path}: the assumption {text} excludes {parameter} = {x}; operating-condition "
                                 f"uncertainty draws {parameter} over all of [0, 1]")


def _from_probabilities(spec, scheme, parameter, method, gammas, weight, request: ConditionsRequest, state):
    """Each row's Bayes-optimal set at the presumed value, for any number of classes (score-driven only)."""
    from verifier.api.use.probabilities import probability_sources
    from verifier.using.operating import affine_costs, conditions_of_rows

    if method != "score":
        raise UsageError(f"--threshold-choice {method} works on binary scores (--scores); with --probabilities "
                         "each row's Bayes-optimal set at the presumed value is taken (--threshold-choice score)")
    if scheme.orbits is not None or scheme.partial:
        raise UsageError(f"--threshold-choice with --probabilities decides each row's set at every presumed value "
                         f"from every set's costs; {spec.path} has {scheme.K} classes, beyond the {FAST_MAX_CLASSES} "
                         "classes whose sets are all built; restrict its predictions to a family whose matrix is "
                         "within its bounds (predictions: intervals, {max_size: k} or a hierarchy, up to 1,000 "
                         "classes), whose sets are all built")
    _, a, b = affine_costs(scheme, parameter, spec.path)
    classifiers = []
    for name, _, blocks, labels, _ in probability_sources(scheme.classes, request.probabilities, request.y_true,
                                                          request.truth):
        # a file gives blocks of rows; an array (rows, rescaled so far) pairs
        rows = [row for block in blocks for row in (block[0] if isinstance(block, tuple) else block)]
        if len(rows) != len(labels):
            raise UsageError(f"{name}: {len(rows):,} rows of probabilities for {len(labels):,} true classes")
        classifiers.append((name, rows, labels))
    state["total"] = len(classifiers)
    conditions_of_rows(spec.path, parameter, a, b, gammas, weight, classifiers, into=state["made"])
