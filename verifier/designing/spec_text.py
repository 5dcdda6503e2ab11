"""The designed scheme as a ready spec file: exact values, `expect:` filled in, `source:` saying how it was made.

Names and texts are written as JSON strings (valid YAML double-quoted scalars, so no class name can break the
file); non-integer costs as quoted fractions ("49/100"), which the spec reader takes exactly.
"""

from __future__ import annotations

import json
from fractions import Fraction

from verifier.designing.problem import DesignProblem


def number(x: Fraction) -> str:
    """An exact rational as the spec writes it: an integer, or a quoted "n/d"."""
    return str(x.numerator) if x.denominator == 1 else json.dumps(f"{x.numerator}/{x.denominator}")


def spec_text(problem: DesignProblem, values: dict[str, Fraction], setting: str, how: str,
              expect: dict[str, str], notes: list[str]) -> str:
    """The designed matrix as spec text: the determinate costs, every set cell's value, the setting and the expected
    verdicts."""
    spec = problem.spec
    classes = spec.classes
    q = json.dumps
    lines = [
        f"name: {q(spec.name + ' (designed for the ' + setting + ' setting)')}",
        "description: " + q(" ".join([f"Set costs designed by verify design for the {setting} setting from the "
                                      f"determinate costs of {spec.name!r}."] + notes)),
        f"source: {q(how)}",
        "classes: [" + ", ".join(q(c) for c in classes) + "]",
        *spec.predictions.spec_lines(classes),
        "cost_matrix:",
    ]
    for h, name in enumerate(classes):
        lines.append(f"  {q(name)}: [" + ", ".join(number(v) for v in problem.determinate[h]) + "]")
    lines.append("set_costs:")
    rows: dict[frozenset[int], list[Fraction]] = {}
    for cell in problem.cells:
        rows.setdefault(cell.members, [Fraction(0)] * len(classes))[cell.y] = values[cell.key]
    for members, row in rows.items():
        key = ",".join(classes[i] for i in sorted(members))
        lines.append(f"  {q(key)}: [" + ", ".join(number(v) for v in row) + "]")
    lines.append(f"setting: {setting}")
    lines.append("expect: {" + ", ".join(f"{pid}: {verdict}" for pid, verdict in expect.items()) + "}")
    return "\n".join(lines) + "\n"


def calibrated_text(spec, parameter: str, value: Fraction, setting: str, how: str, expect: dict[str, str]) -> str:
    """The spec as written (its plain data), with the calibrated parameter fixed and `expect:` filled in."""
    import yaml

    data = dict(spec.content)
    parameters = dict(data.get("parameters") or {})
    entry = dict(parameters.get(parameter) or {})
    entry["value"] = str(value)
    parameters[parameter] = entry
    data["parameters"] = parameters
    data["name"] = f"{spec.name} ({parameter} = {value}, calibrated for the {setting} setting)"
    data["source"] = how + (f"; originally: {spec.source}" if spec.source else "")
    data["setting"] = setting
    data["expect"] = dict(expect)
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110)
