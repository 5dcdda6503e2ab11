"""`evaluate(spec, scores=FILE, threshold_choice=..., uncertainty=[...])`: what binary classifiers cost when the
cost parameter they decide with is uncertain (Hernández-Orallo et al.'s operating-condition uncertainty)."""

from __future__ import annotations

import math
from fractions import Fraction

from verifier.analysis.pipeline import FAST_MAX_CLASSES, build
from verifier.api import arguments
from verifier.api.use import UseReport, unfixed
from verifier.errors import UsageError
from verifier.numbers import shown

DEFAULT_GAMMAS = ("0", "1", "4", "16", "inf")


def parse_gamma(text) -> float | None:
    """A certainty γ: 0 (complete uncertainty), a positive number, or inf (None: complete certainty)."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        text = str(text)
    if not isinstance(text, str):
        raise UsageError(f"--uncertainty takes a number, not {shown(text)}")
    word = text.strip().lower()
    if word in ("inf", "infinity", "∞"):
        return None
    try:
        value = float(word)
    except ValueError:
        raise UsageError(f"--uncertainty {shown(text)}: expected a certainty gamma >= 0 (0: complete uncertainty) "
                         "or inf (complete certainty)") from None
    if math.isnan(value) or value < 0:
        raise UsageError(f"--uncertainty {shown(text)}: the certainty gamma is a number >= 0, or inf")
    return None if math.isinf(value) else value


def parse_weight(text: str | None):
    from verifier.using.conditions.uncertainty import Weight

    if text is None or str(text).strip().lower() == "uniform":
        return Weight()
    body = str(text).strip()
    if body.lower().startswith("beta:"):
        parts = body[5:].split(",")
        try:
            a, b = (Fraction(p.strip()) for p in parts)
        except (ValueError, ZeroDivisionError):
            a = b = None
        if a is not None and a > 0 and b > 0 and len(parts) == 2:
            return Weight(a, b)
    raise UsageError(f"--weight {shown(text)}: expected uniform or beta:A,B with A, B > 0 (e.g. beta:2,2)")


def conditions_report(spec, scores: str | None, truth: str | None, method: str, gammas, weight_text,
                      probabilities=None, y_true=None) -> UseReport:
    from verifier.report.use.conditions import conditions_json, conditions_lines
    from verifier.using.abstention.scores_file import read_scores
    from verifier.using.conditions.evaluation import GRID, conditions
    from verifier.using.conditions.lines import costs
    from verifier.using.conditions.methods import METHODS

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
    scheme = build(spec)
    _inside_assumptions(scheme, parameter, spec.path, GRID)
    if probabilities is not None:
        result = _from_probabilities(spec, scheme, parameter, method, parsed, weight, probabilities, y_true, truth)
    else:
        found = read_scores(arguments.path(scores, "scores"), tuple(spec.classes), truth)
        result = conditions(spec.path, parameter, costs(scheme, parameter, spec.path), method, parsed, weight,
                            found)
    record = {"spec": spec.path, "operating_conditions": conditions_json(result)}
    return UseReport("\n".join(conditions_lines(result)) + "\n", record, title=f"{spec.name}: expected loss "
                     "under operating-condition uncertainty", conditions=result)


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


def _from_probabilities(spec, scheme, parameter, method, gammas, weight, probabilities, y_true, truth):
    """Each row's Bayes-optimal set at the presumed value, for any number of classes (score-driven only)."""
    from verifier.api.probabilities import probability_sources
    from verifier.using.conditions.evaluation import conditions_of_rows
    from verifier.using.conditions.sets import affine_costs

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
    return conditions_of_rows(spec.path, parameter, a, b, gammas, weight, classifiers)
