"""Lists whose items depend on a symbolic set, for `sets.encoding`: guarded items, and their length, sum, mean,
min and max as z3 terms.

A comprehension over Y becomes one item per class i, present when its guard (b_i and the filter) holds; a list
literal's items are always present. The aggregates are exact: a sum adds If(guard, value, 0); a mean divides
by the set's size n (a number in each question) or by the literal's length; min and max are If-chains that take
an item when it is present and better than every later one present. The interpreter gives no sum, mean, min or
max of an empty list, so one of a list that some set could leave empty (a filter) is refused (`NotEncodable`).

Owns: `SymList`, `NotEncodable`, `as_list`, `length`, `aggregate`. May import: z3, `errors`.
"""

from __future__ import annotations

from dataclasses import dataclass

import z3

from verifier.errors import DoesNotApply


class NotEncodable(DoesNotApply):
    """The formula uses something the boolean encoding cannot express; the message says what."""


@dataclass
class SymList:
    """A list whose items depend on the set: (guard, value) per candidate item; `count` is its length."""

    items: list  # (guard: True or a z3 condition, value)
    count: object  # z3 term, or an int when no guard depends on the set
    never_empty: bool  # every set with |Y| >= 2 gives at least one item


def as_list(args: list) -> SymList:
    """The one list argument of sum/mean/min/max, or their several scalar arguments as a list."""
    if len(args) == 1 and isinstance(args[0], SymList):
        return args[0]
    values = args[0] if len(args) == 1 and isinstance(args[0], tuple) else args
    return SymList([(True, v) for v in values], len(values), bool(values))


def length(value, enc) -> z3.ArithRef:
    """len() of a list as a z3 term (the number of its present items); NotEncodable for anything but a list."""
    if isinstance(value, SymList):
        return value.count if isinstance(value.count, z3.ExprRef) else z3.RealVal(value.count, enc.ctx)
    raise NotEncodable("len() of something other than Y or a list")


def aggregate(name: str, values: SymList, enc) -> z3.ArithRef:
    """sum, mean, min or max of the present items; `enc` is the encoding (its numbers, n and divisors)."""
    items = [(g, enc.real(v, f"an item of {name}()")) for g, v in values.items]
    if not values.never_empty:  # the interpreter refuses an empty list, even for sum
        raise NotEncodable(f"{name}() of a filtered list, which may be empty for some set (the formula has no "
                           "value there)")
    total = z3.Sum([v if g is True else z3.If(g, v, enc.zero) for g, v in items])
    if name == "sum":
        return total
    if name == "mean":
        if isinstance(values.count, z3.ExprRef):
            if not values.count.eq(enc.n):  # a filtered list: its length depends on the members
                raise NotEncodable("mean() of a filtered list divides by a count that depends on the members of "
                                   "the set (only divisions by numbers and by len(Y) stay linear)")
            return total / values.count
        return total / z3.RealVal(values.count, enc.ctx)
    return _extreme(items, name == "min", enc.ctx)


def _extreme(items: list, least: bool, ctx) -> z3.ArithRef:
    """min or max over the items whose guard holds (at least one does)."""
    if all(z3.is_rational_value(v) for _, v in items):  # numbers: the first present one, in sorted order
        ordered = sorted(items, key=lambda item: item[1].as_fraction(), reverse=not least)
        term = ordered[-1][1]
        for g, v in reversed(ordered[:-1]):
            term = v if g is True else z3.If(g, v, term)
        return term
    term, any_later = None, z3.BoolVal(False, ctx)
    for g, v in reversed(items):  # term: the best of the later items present
        guard = z3.BoolVal(True, ctx) if g is True else g
        if term is None:
            term = v
        else:
            better = (v <= term) if least else (v >= term)
            term = z3.If(z3.And(guard, z3.Or(z3.Not(any_later), better)), v, term)
        any_later = z3.Or(any_later, guard)
    return term
