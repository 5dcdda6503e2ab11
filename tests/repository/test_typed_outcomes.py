"""Outcomes are typed (issue 53, item 3): the documented string fields are `StrEnum`s compared by member, never
against a bare literal; the internal signals "this route does not apply" and "not decided" derive from two
bases in `verifier.errors`; and `SpecError.at` is the one place a mark becomes a line and a column."""

import ast
import json
import pathlib

import pytest

from verifier import errors, limits
from verifier.designing import DesignStatus
from verifier.errors import DoesNotApply, Mark, SpecError, Unsettled
from verifier.properties import Level, QuantifierKind, Setting
from verifier.report.text.json_writer import json_text
from verifier.using.decide.credal import Rule
from verifier.verdict import EvidenceKind, Optimal, Truth, Verdict

from conftest import ROOT

ENUMS = (Verdict, Truth, Optimal, EvidenceKind, QuantifierKind, Setting, Level, Rule, DesignStatus)
VALUES = {member.value for enum in ENUMS for member in enum}

# (module under verifier/, value): the few comparisons with one of these words that are not one of the fields
ALLOWED = {
    ("analysis/optimality_across.py", "unknown"),  # z3's answer for a piece (alone | minimiser | never | unknown)
    ("analysis/power_mean_symbolic.py", "unknown"),  # a sample point whose parameter values z3 left undecided
    ("cli/options.py", "none"),  # --text none
    ("cli/run.py", "none"),  # --text none
    ("report/certificate/writer.py", "unknown"),  # a JSON fact: a possibility or an optimality status
    ("report/design/plane.py", "unknown"),  # where a property holds on a plane: everywhere | nowhere | region
    ("report/figures/picture.py", "A"),  # a character range, "A" <= ch <= "Z"
    ("report/text/sympy_text.py", "none"),  # sympy's printer order
    ("spec/source.py", "true"),  # a YAML boolean
    ("using/decide/batch.py", "unknown"),  # e-admissibility: z3 could not say whether a class is optimal
    ("using/decide/credal.py", "unknown"),  # the same
}


def _compared_literals(tree: ast.AST):
    """(line, value) of each string literal compared with ==, !=, or tested for membership in a literal tuple,
    set or list (a literal on the left of `in` is a key lookup, not a field's value)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        parts = [node.left, *node.comparators]
        for i, op in enumerate(node.ops):
            left, right = parts[i], parts[i + 1]
            if isinstance(op, (ast.In, ast.NotIn)):
                if isinstance(right, (ast.Tuple, ast.Set, ast.List)):
                    yield from ((e.lineno, e.value) for e in right.elts
                                if isinstance(e, ast.Constant) and isinstance(e.value, str))
                continue
            for side in (left, right):
                if isinstance(side, ast.Constant) and isinstance(side.value, str):
                    yield side.lineno, side.value


def test_no_documented_field_is_compared_with_a_bare_literal():
    package = pathlib.Path(ROOT) / "verifier"
    found = []
    for path in sorted(package.rglob("*.py")):
        name = path.relative_to(package).as_posix()
        for line, value in _compared_literals(ast.parse(path.read_text(encoding="utf-8"))):
            if value in VALUES and (name, value) not in ALLOWED:
                found.append(f"verifier/{name}:{line}: {value!r}")
    assert not found, "compare with the enum member instead:\n" + "\n".join(found)


def test_the_scan_sees_a_bare_literal():
    tree = ast.parse('if entry.status == "alone" or ev.kind in ("witness", "proof") or "forall" != q.kind:\n'
                     '    pass\n"never" in table\n')
    assert sorted(v for _, v in _compared_literals(tree)) == ["alone", "forall", "proof", "witness"]


@pytest.mark.parametrize("enum", ENUMS, ids=lambda e: e.__name__)
def test_each_member_is_its_value_in_text_and_json(enum):
    for member in enum:
        assert member == member.value and str(member) == member.value and f"{member}" == member.value
        assert json_text({member: [member]}) == json_text({member.value: [member.value]})
        assert json.dumps({member: member}) == json.dumps({member.value: member.value})
        # a fresh record (members) and one read back from the cache (strings) print alike in a notebook
        assert repr(member) == repr(member.value) and str({member: [member]}) == str({member.value: [member.value]})


def test_outcome_records_hold_members():
    from verifier.verdict import Evidence, SetOptimality

    assert SetOptimality(frozenset({0}), "tied").status is Optimal.TIED
    assert Evidence("witness").kind is EvidenceKind.WITNESS
    with pytest.raises(ValueError):
        SetOptimality(frozenset({0}), "sometimes")


ROUTE_DOES_NOT_APPLY = [
    ("verifier.formula.enclose", "Unsupported"),
    ("verifier.designing.lp_freedom", "_Undecided"),
    ("verifier.analysis.plane_sweep", "Redo"),
    ("verifier.formula.vector_lists", "NotVectorised"),
    ("verifier.formula.by_size", "NotBySize"),
    ("verifier.formula.rationals", "CellsError"),
    ("verifier.engines.sets.lists", "NotEncodable"),
    ("verifier.engines.witnesses", "TooManyCandidates"),
    ("verifier.engines.plane", "_TooLarge"),
    ("verifier.scheme.orbits", "NotSymmetric"),
    ("verifier.check.float_bounds", "_Unsupported"),
    ("verifier.analysis.structured_route", "NotStructured"),
    ("verifier.analysis.power_mean_route", "NotPowerMean"),
    ("verifier.analysis.regions", "_CannotEliminate"),
    ("verifier.analysis.conditions", "_NotExact"),
    ("verifier.designing.linear", "NotLinear"),
]
NOT_DECIDED = [
    ("verifier.engines.power_mean.lemmas", "NotDecided"),
    ("verifier.designing.solve", "Undecided"),
    ("verifier.designing.fast", "Unconfirmed"),
    ("verifier.designing.why_not", "_Budget"),
    ("verifier.check.checker", "_Unconfirmed"),
    ("verifier.check.lemma", "LemmaUnconfirmed"),
]


@pytest.mark.parametrize(("module", "name", "base"), [(*s, DoesNotApply) for s in ROUTE_DOES_NOT_APPLY]
                         + [(*s, Unsettled) for s in NOT_DECIDED], ids=lambda v: getattr(v, "__name__", v))
def test_each_internal_signal_derives_from_its_base(module, name, base):
    import importlib

    signal = getattr(importlib.import_module(module), name)
    assert issubclass(signal, base)
    other = Unsettled if base is DoesNotApply else DoesNotApply
    assert not issubclass(signal, other)


# the classes that may derive from Exception itself: the user's errors, the two bases, and two that are neither
# a route's refusal nor an undecided question
DIRECT = {"errors.py:SpecError", "errors.py:DoesNotApply", "errors.py:Unsettled",
          "formula/arith.py:BuiltinError",  # a builtin undefined at its arguments: the user's formula, located
          "designing/complete.py:DesignCheckFailed"}  # the checker contradicts the solver: a bug in verify


def test_a_new_internal_signal_takes_a_base():
    package = pathlib.Path(ROOT) / "verifier"
    direct = set()
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(isinstance(b, ast.Name) and b.id == "Exception"
                                                      for b in node.bases):
                direct.add(f"{path.relative_to(package).as_posix()}:{node.name}")
    assert direct == DIRECT, "derive it from errors.DoesNotApply or errors.Unsettled"


def test_the_bases_never_catch_a_stop_or_a_user_error():
    """A time limit or a resource stop is a BaseException that no `except DoesNotApply` or `except Unsettled`
    swallows; a SpecError or a UsageError is the user's, never an internal signal."""
    for base in (DoesNotApply, Unsettled):
        assert issubclass(base, Exception) and base.__doc__
        for stop in limits.STOPS if isinstance(limits.STOPS, tuple) else (limits.STOPS,):
            assert not issubclass(stop, base)
        assert not issubclass(SpecError, base) and not issubclass(errors.UsageError, base)
    assert not issubclass(limits.TimeLimitReached, Exception)


def test_spec_error_at_fills_the_location():
    error = SpecError.at("a formula is undefined", Mark(3, 7), file="s.yaml", key="assume", text="x < 0",
                         expected="assumptions that keep every formula defined")
    assert (error.file, error.key, error.line, error.column, error.text) == ("s.yaml", "assume", 3, 7, "x < 0")
    assert error.expected == "assumptions that keep every formula defined"
    assert str(error) == str(SpecError("a formula is undefined", file="s.yaml", key="assume", line=3, column=7,
                                       text="x < 0", expected="assumptions that keep every formula defined"))
    assert str(error).startswith("s.yaml:3:7: invalid spec at key 'assume': a formula is undefined")


@pytest.mark.parametrize("mark", [None, Mark(0, 0)], ids=["no mark", "data without positions"])
def test_spec_error_at_without_a_position(mark):
    error = SpecError.at("too many classes", mark, file=None, key="classes", expected="at most 12")
    assert (error.line, error.column) == (None, None)
    assert str(error) == "<spec>: invalid spec at key 'classes': too many classes — expected at most 12."
