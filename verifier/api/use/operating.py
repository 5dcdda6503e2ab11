"""`evaluate(spec, scores=FILE, threshold_choice=..., uncertainty=[...])`: what binary classifiers cost when the
cost parameter they decide with is uncertain (Hernández-Orallo et al.'s operating-condition uncertainty)."""

from __future__ import annotations

import math
from fractions import Fraction

from verifier.analysis.pipeline import FAST_MAX_CLASSES, build
from verifier.api import arguments
from verifier.api.use.report import UseReport, stopped_within, unfixed
from verifier.errors import UsageError
from verifier import numbers
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


def conditions_report(load, scores: str | None, truth: str | None, method: str, gammas, weight_text,
                      probabilities=None, y_true=None, seconds: float | None = None) -> UseReport:
    """The expected losses for the spec `load()` reads, within `seconds`; cut by them, the classifiers done and
    what was cut (a usage error when not one classifier was done)."""
    from verifier.report.use import wrapped
    from verifier.report.use import conditions_json, conditions_lines

    state: dict = {"made": []}
    _, stop = stopped_within(seconds, lambda: _conditions(load(), scores, truth, method, gammas, weight_text,
                                                          probabilities, y_true, state))
    result = state["made"][0] if state["made"] else None
    if stop is not None and (result is None or not result.classifiers):
        raise UsageError(f"{stop} before any classifier's expected loss was done; raise the time limit "
                         "(--time-limit), or split the input")
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
    return UseReport("\n".join(lines) + "\n", record, title=f"{state['name']}: expected loss under "
                     "operating-condition uncertainty", conditions=result,
                     verbose_text="" if every == lines else "\n".join(every) + "\n")


def _conditions(spec, scores, truth, method, gammas, weight_text, probabilities, y_true, state: dict) -> None:
    """Everything under the bound: `state` gets the spec's name, the classifier count ("total") and, in "made",
    the Conditions being filled."""
    from verifier.using.abstention import read_scores
    from verifier.using.operating import GRID, conditions
    from verifier.using.operating import costs
    from verifier.using.operating import METHODS

    if method not in METHODS:
        raise UsageError(f"--threshold-choice {shown(method)}: expected one of {', '.join(METHODS)}")
    if isinstance(gammas, (str, int, float)):
        gammas = [gammas]
    parsed = list(dict.fromkeys(parse_gamma(g) for g in (gammas or DEFAULT_GAMMAS)))
    weight = parse_weight(weight_text)
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
    if probabilities is not None:
        _from_probabilities(spec, scheme, parameter, method, parsed, weight, probabilities, y_true, truth, state)
    else:
        found = read_scores(arguments.path(scores, "scores"), tuple(spec.classes), truth)
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


def _from_probabilities(spec, scheme, parameter, method, gammas, weight, probabilities, y_true, truth, state):
    """Each row's Bayes-optimal set at the presumed value, for any number of classes (score-driven only)."""
    from verifier.api.use.probabilities import probability_sources
    from verifier.using.operating import conditions_of_rows
    from verifier.using.operating import affine_costs

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
    for name, _, blocks, labels, _ in probability_sources(scheme.classes, probabilities, y_true, truth):
        rows = [row for block in blocks for row in block]
        if len(rows) != len(labels):
            raise UsageError(f"{name}: {len(rows):,} rows of probabilities for {len(labels):,} true classes")
        classifiers.append((name, rows, labels))
    state["total"] = len(classifiers)
    conditions_of_rows(spec.path, parameter, a, b, gammas, weight, classifiers, into=state["made"])
