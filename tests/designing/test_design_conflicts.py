"""`verify design` when nothing fits: every claim about conflicts and corrections is re-decided here, outside the
tool's search (fresh z3 solvers over the problem's conditions, brute force over subsets), and the advice is
followed through the tool, whose designed matrix the ordinary checker then verifies."""

import io
import json
import os
import random
import re
from fractions import Fraction
from itertools import combinations

import z3

import verifier
from verifier.cli import check
from verifier.designing import make_request
from verifier.designing.problem import DesignProblem
from verifier.properties.settings import TABLE_VIII
from verifier.spec.reader import spec_from_text

from conftest import SPECS

CONFLICT = os.path.join(SPECS, "design", "obstacle-conflict.yaml")
ROWS = ("a,b", "a,c", "b,c", "a,b,c")


def _text(det, rows) -> str:
    """A three-class spec: determinate costs, and set rows with None for open cells."""
    out = "name: conflicts\nclasses: [a, b, c]\ncost_matrix:\n" + "".join(
        f"  {n}: [{', '.join(str(v) for v in det[i])}]\n" for i, n in enumerate("abc"))
    fixed = {k: ", ".join("null" if v is None else repr(str(v)) for v in r) for k, r in rows.items()
             if any(v is not None for v in r)}
    return out + ("set_costs:\n" + "".join(f"  \"{k}\": [{r}]\n" for k, r in fixed.items()) if fixed else "")


class Parts:
    """The problem's demands and fixed cells by the labels the report uses, decided by solvers of our own."""

    def __init__(self, text, setting, with_=()):
        self.problem = DesignProblem(spec_from_text(text, "<t>", open_cells=True))
        request = make_request(setting, list(with_))
        self.conditions = {f"{d.label} ({d.why})": self.problem.condition(d) for d in request.firm}
        self.removable = {f"{d.label} ({d.why})" for d in request.firm if TABLE_VIII[setting][d.pid] != "N"}
        for c in self.problem.fixed_cells:
            label = f"{c.label} = {c.given} (fixed in the spec)"
            self.conditions[label] = self.problem.pinned(c)
            self.removable.add(label)
        self.solver = z3.Solver(ctx=self.problem.ctx)
        self.solver.add(self.problem.margin > 0, *self.problem.t.side)
        self.flags = {label: z3.Bool(f"test {label}", self.problem.ctx) for label in self.conditions}
        self.solver.add(*[z3.Implies(self.flags[k], c) for k, c in self.conditions.items()])

    def feasible(self, labels) -> bool:
        answer = self.solver.check(*[self.flags[k] for k in labels])
        assert answer != z3.unknown
        return answer == z3.sat

    def fresh(self, labels) -> bool:
        """The same question to a new solver, nothing tracked (a second opinion on the key claims)."""
        s = z3.Solver(ctx=self.problem.ctx)
        s.add(self.problem.margin > 0, *self.problem.t.side, *[self.conditions[k] for k in labels])
        return s.check() == z3.sat

    def all_minimal_conflicts(self) -> set[frozenset]:
        """By brute force, smallest subsets first: an infeasible subset holding no smaller conflict is minimal."""
        found, labels = set(), list(self.conditions)
        for size in range(1, len(labels) + 1):
            for subset in map(frozenset, combinations(labels, size)):
                if not any(m <= subset for m in found) and not self.feasible(subset):
                    found.add(subset)
        return found


def _assert_true_diagnosis(parts: Parts, why: dict):
    everything = set(parts.conditions)
    for conflict in why["conflicts"]:
        assert not parts.fresh(conflict), conflict  # infeasible
        for label in conflict:
            assert parts.feasible(set(conflict) - {label}), (conflict, label)  # and minimal
    assert why["conflict"] in why["conflicts"]
    for label, lifts in why["dropping_one_alone_leaves_a_matrix"].items():
        assert parts.feasible(everything - {label}) == lifts, label
    if why["conflicts_complete"]:
        assert {frozenset(c) for c in why["conflicts"]} == parts.all_minimal_conflicts()
    fix = why["correction"]
    assert fix is not None and set(fix["parts"]) <= parts.removable
    assert parts.fresh(everything - set(fix["parts"]))
    if fix["smallest"]:
        for size in range(len(fix["parts"])):
            for removed in combinations(sorted(parts.removable), size):
                assert not parts.feasible(everything - set(removed)), removed


def _follow(advice: list[str], det, rows, setting, with_):
    """Apply the report's advice to the inputs: `--free P` (in place of an option) or a fixed cell left open."""
    rows, with_, free = {k: list(r) for k, r in rows.items()}, list(with_), []
    for line in advice:
        if m := re.fullmatch(r"--free (P\d+)(?: in place of --with (P\d+))?", line):
            free.append(m[1])
            with_ = [p for p in with_ if p != m[2]]
        else:
            m = re.match(r"leave c_\{([a-c,]+)\}\(([a-c])\) open \(null in the spec\)", line)
            assert m, line
            rows[m[1]]["abc".index(m[2])] = None
    return verifier.design(_text(det, rows), setting=setting, with_=with_, free=free, ranges=False), free


def _assert_designed_for(result, setting, with_, free):
    assert result.status == "designed", result.text
    verdicts = result.record["verdicts"]  # the ordinary checker's, on the designed matrix
    for d in make_request(setting, with_, free=free).firm:
        assert verdicts[d.pid] == ("holds" if d.holds else "fails"), d


def test_obstacle_conflict_lists_both_conflicts_and_the_fixed_cell_as_the_correction():
    out, err = io.StringIO(), io.StringIO()
    assert check(["design", CONFLICT, "--setting", "filtering", "--format", "json"], out, err) == 1
    why = json.loads(out.getvalue())["why_not"]
    cell, p4, p6 = ("c_{h,b}(n) = 1 (fixed in the spec)", "P4 (non-dominance) holds (necessary in the filtering "
                    "setting)", "P6 (mistake aversion) holds (necessary in the filtering setting)")
    assert {frozenset(c) for c in why["conflicts"]} == {frozenset({p4, cell}), frozenset({p6, cell})}
    assert why["conflicts_complete"] is True and why["more_conflicts"] is False
    assert why["correction"]["parts"] == [cell] and why["correction"]["smallest"] is True
    assert why["dropping_one_alone_leaves_a_matrix"] == {p4: False, cell: True}
    result = verifier.design(CONFLICT, setting="filtering")
    assert result.conflicts_complete and result.correction == [cell] and result.correction_smallest
    assert sorted(map(sorted, result.conflicts)) == sorted(map(sorted, why["conflicts"]))
    assert "without any one of these, a matrix exists" not in result.text
    assert f"{p4}  (dropping only this one leaves a conflict)" in result.text
    assert "Every minimal conflict (the search is complete):" in result.text
    opened = open(CONFLICT).read().replace('"h,b": [null, null, 1]', '"h,b": [null, null, null]')
    assert verifier.design(opened, setting="filtering", ranges=False).status == "designed"  # the advice, followed


def test_dropping_one_part_of_the_first_conflict_can_leave_another():
    # Both fixed cells of {a,c} exceed what reward rightful cautiousness allows, each on its own; P8 joins them
    # in a third conflict. Dropping P8 (what the report used to suggest) leaves two conflicts.
    det = [[0, 3, 3], [2, 0, 2], [2, 2, 0]]
    rows = {k: [None] * 3 for k in ROWS} | {"a,c": [Fraction(4), None, Fraction(2)]}
    result = verifier.design(_text(det, rows), setting="filtering", ranges=False)
    why = result.record["why_not"]
    p8 = "P8 (correctness cost-insensitivity) holds (desirable in the filtering setting)"
    assert p8 in why["conflict"] and why["dropping_one_alone_leaves_a_matrix"][p8] is False
    assert f"{p8}  (dropping only this one leaves a conflict)" in result.text
    parts = Parts(_text(det, rows), "filtering")
    assert not parts.fresh(set(parts.conditions) - {p8})
    assert verifier.design(_text(det, rows), setting="filtering", free=["P8"], ranges=False).status == "impossible"
    assert len(why["correction"]["parts"]) == 2 and p8 not in why["correction"]["parts"]
    _assert_true_diagnosis(parts, why)
    followed, free = _follow(why["correction"]["advice"], det, rows, "filtering", [])
    _assert_designed_for(followed, "filtering", [], free)
    repaired = {k: list(r) for k, r in rows.items()}  # the least change, followed: every demand kept
    for change in why["repair"]["changes"]:
        key, y = re.fullmatch(r"c_\{([a-c,]+)\}\(([a-c])\)", change["cell"]).groups()
        assert repaired[key]["abc".index(y)] == Fraction(change["fixed"])
        repaired[key]["abc".index(y)] = Fraction(change["repaired"])
    after = verifier.design(_text(det, repaired), setting="filtering", ranges=False)
    _assert_designed_for(after, "filtering", [], [])


def test_no_correction_when_necessary_demands_conflict_with_the_determinate_costs():
    zeros = "name: zeros\nclasses: [a, b]\ncost_matrix:\n  a: [0, 0]\n  b: [0, 0]\nset_costs:\n  \"a,b\": [null, 1]\n"
    result = verifier.design(zeros, setting="filtering")
    why = result.record["why_not"]
    assert why["correction"] is None and result.correction is None
    assert all("(necessary in the filtering setting)" in label for label in why["no_correction"])
    parts = Parts(zeros, "filtering")
    assert not parts.fresh(why["no_correction"])
    assert "No correction (necessary demands are never dropped" in result.text


def test_a_dropped_wish_names_only_what_it_conflicts_with():
    two = "name: two\nclasses: [a, b]\ncost_matrix:\n  a: [0, 1]\n  b: [1, 0]\n"
    alone = verifier.design(two, setting="filtering", ranges=False)  # with K = 2, P7 holds vacuously
    assert "(a wish, NOT met: no matrix with these determinate costs meets it)" in alone.text
    pinned = two + "set_costs:\n  \"a,b\": [0, 0]\n"  # equal costs in the set: P8 holds whatever is chosen
    result = verifier.design(pinned, setting="choice", free=["P9"], ranges=False)
    line = next(x for x in result.text.splitlines() if x.startswith("  P8 "))
    assert line.endswith("(a wish, NOT met: it cannot hold together with c_{a,b}(a) = 0 (fixed in the spec); "
                         "c_{a,b}(b) = 0 (fixed in the spec) (a minimal conflict))")
    parts = Parts(pinned, "choice", [])
    wish = parts.problem.condition(make_request("choice", free=["P9"]).wishes[0])
    s = z3.Solver(ctx=parts.problem.ctx)
    s.add(parts.problem.margin > 0, wish, parts.conditions["c_{a,b}(a) = 0 (fixed in the spec)"],
          parts.conditions["c_{a,b}(b) = 0 (fixed in the spec)"])
    assert s.check() == z3.unsat


def test_random_conflicts_and_corrections_are_true_and_following_the_advice_designs():
    rng, checked, seen = random.Random(20240613), 0, set()
    while checked < 8:
        det = [[0 if h == y else rng.randint(1, 4) for y in range(3)] for h in range(3)]
        rows = {k: [None] * 3 for k in ROWS}
        for _ in range(rng.randint(2, 4)):
            rows[rng.choice(ROWS)][rng.randrange(3)] = Fraction(rng.randint(0, 8), 2)
        setting = rng.choice(["filtering", "choice"])
        with_ = [p for p in rng.sample(["P6", "P7", "P8", "P9"], rng.randint(0, 1)) if TABLE_VIII[setting][p] != "N"]
        result = verifier.design(_text(det, rows), setting=setting, with_=with_, ranges=False)
        if result.status != "impossible":
            continue
        checked += 1
        why = result.record["why_not"]
        _assert_true_diagnosis(Parts(_text(det, rows), setting, with_), why)
        advice = why["correction"]["advice"]
        kinds = {"several" if len(advice) > 1 else "one", "free" if any(a.startswith("--free") for a in advice)
                 else "cells"}
        if not kinds <= seen:
            seen |= kinds
            after, free = _follow(advice, det, rows, setting, with_)
            _assert_designed_for(after, setting, [p for p in with_ if p not in free], free)
    assert seen == {"several", "one", "free", "cells"}  # the problems drawn cover each kind of advice


def test_a_search_cut_short_says_so_and_still_gives_a_checked_minimal_correction(monkeypatch):
    import verifier.designing.why_not as why_not

    monkeypatch.setattr(why_not, "MAX_CALLS", 3)
    det = [[0, 3, 3], [2, 0, 2], [2, 2, 0]]
    rows = {k: [None] * 3 for k in ROWS} | {"a,c": [Fraction(4), None, Fraction(2)]}
    result = verifier.design(_text(det, rows), setting="filtering", ranges=False)
    why = result.record["why_not"]
    assert why["conflicts_complete"] is False and why["search_stopped"]
    assert "Minimal conflicts found (there may be more: the search stopped" in result.text
    assert "Every minimal conflict" not in result.text and "only minimal conflict" not in result.text
    fix, parts = why["correction"], Parts(_text(det, rows), "filtering")
    everything = set(parts.conditions)
    assert fix["smallest"] is False and "not proved the smallest" in result.text
    assert parts.fresh(everything - set(fix["parts"]))
    for label in fix["parts"]:  # putting any one back brings a conflict back, as the report says
        assert not parts.feasible(everything - set(fix["parts"]) | {label})
