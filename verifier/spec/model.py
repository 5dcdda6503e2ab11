"""The validated spec (the contract of the spec file): parameters, functions, assumptions, costs, expectations.

`reader` builds it from YAML; everything downstream reads only this.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from verifier.errors import Mark
from verifier.formula.parse import Formula, UserFunction
from verifier.spec.family import ALL, Family
from verifier.spec.source import Located

MAX_CLASSES = 64  # enumeration reaches 16 (12 symbolic); beyond: the symmetry and power-mean routes
TOP_KEYS = {
    "name": "the scheme's name (required)",
    "description": "free text",
    "source": "a citation",
    "classes": "class names in order, or an integer K",
    "parameters": "named parameters",
    "functions": "helper formulas such as g(x)",
    "assume": "constraints on parameters",
    "cost": "the determinate cost c_yhat(y) as a formula",
    "cost_matrix": "determinate costs: predicted class -> costs in class order",
    "set_cost": "c_Y(y) as a formula for every non-empty Y",
    "set_costs": "explicit rows: 'a,b' -> costs in class order",
    "predictions": "the sets a classifier may predict: all, intervals, {max_size: k}, {hierarchy: TREE}, {sets: [...]}",
    "setting": "filtering or choice",
    "expect": "expected verdicts, e.g. {P1: holds}",
}
PARAM_KEYS = {"value", "per_class", "description"}
Entry = Fraction | Formula  # a matrix cell as written: an exact number or a formula


@dataclass
class Parameter:
    """A declared parameter: its name, whether it is per-class, its fixed value (one per class when per-class) or None
    when symbolic, its key in the file ('parameters.NAME') and its node there."""

    name: str
    per_class: bool
    value: Entry | tuple[Entry, ...] | None  # None: symbolic
    key: str
    located: Located


@dataclass
class Spec:
    """A validated spec file: the classes, parameters, functions, assumptions, the costs (formulas or tables), the
    prediction family and the expectations, with where each top-level key sits in the file."""

    path: str
    name: str
    classes: tuple[str, ...]
    description: str = ""
    source: str = ""
    parameters: dict[str, Parameter] = field(default_factory=dict)
    functions: dict[str, UserFunction] = field(default_factory=dict)
    assume: list[Formula] = field(default_factory=list)
    cost: Formula | None = None
    cost_matrix: dict[int, tuple[Entry, ...]] | None = None
    set_cost: Formula | None = None
    set_costs: dict[frozenset[int], tuple[Entry, ...]] = field(default_factory=dict)
    setting: str | None = None
    expect: dict[str, str] = field(default_factory=dict)
    text: str = ""
    content: object = None  # the file's plain data (comments and layout gone): what a cache key is made of
    marks: dict[str, Mark] = field(default_factory=dict)  # where each top-level key sits in the file
    predictions: Family = ALL  # the allowed sets (`spec.family`): every property ranges over these only
    open_cells: frozenset = frozenset()  # (set, class) cells written as null, for `verify design` to fill
    read_seconds: float = 0.0  # what reading it took, counted against its analysis's time limit
