"""Claims about one matrix (a spec without parameters, or a spec at one admissible point): each property's
verdict from its evidence, and each set's Definition 4 status and optimality.

- A "for every" property that holds and a "there is" property that fails: every instance is enumerated here
  and its atom re-checked; the certificate gives only the count, which must match.
- A "for every" property that fails: the counterexample instance breaks the atom (P2: at every y).
- P9 holds: the witness instance satisfies the atom.
- P1 holds: a set Y and a distribution p with E_p[c_h] - E_p[c_Y] > 0 for every member h (Definition 4).
- P1 fails: for every indeterminate set, Ville's multipliers over its members: c_Y >= sum lambda_h c_h.
- Set facts: possible (a witness p) or impossible (Ville), alone / tied (a p at which Y minimises the expected
  cost, strictly or with the named sets) and tied / never (LP dual multipliers over other sets).
"""

import json
import math
from fractions import Fraction

from verifier_check import bounds
from verifier_check.limits import Malformed, Refuted, Undecided, bad, count, field, rat, show, sized, tick
from verifier_check.properties import PROPERTIES, instance_count


def check_property(t, pid, claim, where):
    """Re-check one property's verdict from its evidence on the table `t`; the message, or None for unknown."""
    verdict, ev = field(claim, "verdict", str, where), field(claim, "evidence", dict, where)
    if verdict not in ("holds", "fails"):
        return None if verdict == "unknown" else bad(f"{where}.verdict", "holds, fails or unknown", verdict)
    kind, where = field(ev, "kind", str, f"{where}.evidence"), f"{where}.evidence"
    if kind == "none":
        raise Undecided(f"{verdict}: {ev.get('reason', 'no evidence given')}")
    if pid == "P1":
        return check_p1(t, verdict, ev, where)
    outer, inner, atom = PROPERTIES[pid]
    want, mixed, said = verdict == "holds", outer != inner[0][0], f"the atom {atom[1]} {atom[0]} {atom[2]}"
    if kind == "lemma":
        from verifier_check.power_mean import check_lemma

        return check_lemma(t, pid, verdict, ev, where)
    # a holding "for every" and a failing "there is" are proved by every instance, enumerated here; only a
    # failing "for every" has a counterexample, and only a holding "there is" a witness
    needed = "enumerated" if want == (outer == "forall") else "counterexample" if outer == "forall" else "witness"
    if kind != needed:
        bad(f"{where}.kind", f"{needed!r} for {pid} {verdict}", kind)
    if kind == "enumerated":
        instances = count_instances(t, pid, ev)
        for m in t.sets:
            tick()
            pairs = t.bindings(inner, m)
            wrong = [(y, y2) for y, y2 in pairs if t.atom(atom, m, y, y2, t.place(m, y, y2)) != (want or mixed)]
            if mixed and len(wrong) == len(pairs):  # P2: no y at this Y
                raise Refuted(f"fails at {t.place(m)}: {said} is false for every y")
            if wrong and not mixed:
                raise Refuted(f"{'fails' if want else 'holds'} at {t.place(m, *wrong[0])}: {said} is {not want} there")
        return f"{verdict}: {count(instances, 'instance')} enumerated and re-checked, every one"
    m = t.indeterminate(field(ev, "Y", list, where), f"{where}.Y")
    if mixed:
        for y, _ in t.bindings(inner, m):
            if t.atom(atom, m, y, None, t.place(m, y)):
                raise Refuted(f"the counterexample {t.place(m)} fails at y={t.classes[y]}: {said} holds there")
        return f"{verdict}: counterexample {t.place(m)} re-checked for every y"
    y = t.cls(ev.get("y"), f"{where}.y")
    y2 = t.cls(ev.get("y2"), f"{where}.y2") if len(inner) > 1 else None
    if (y, y2) not in t.bindings(inner, m):
        raise Refuted(f"{t.place(m, y, y2)} lies outside the property's domain")
    if t.atom(atom, m, y, y2, t.place(m, y, y2)) != want:
        raise Refuted(f"the {kind} {t.place(m, y, y2)} does not {'satisfy' if want else 'break'} {said}")
    return f"{verdict}: {kind} {t.place(m, y, y2)} re-checked"


def count_instances(t, pid, ev):
    """The number of instances, which the certificate's count must match (counted before any is checked)."""
    instances = instance_count(t, pid)
    if type(ev.get("instances")) is not int or ev["instances"] != instances:
        raise Refuted(f"the certificate counts {json.dumps(ev.get('instances'), default=repr)[:40]} instances, "
                      f"the checker enumerated {instances}")
    return instances


def beats(t, m, p, where):
    """Definition 4 at p: E_p[c_h] - E_p[c_Y] > 0 for every member h of Y."""
    mine = t.expected(p, m)
    for h in sorted(m):
        gap = t.expected(p, frozenset((h,))) - mine
        if bounds.sign(gap, where) <= 0:
            raise Refuted(f"{where}: p does not make {t.label(m)} beat {t.classes[h]}: E_p[c_{t.classes[h]}] - "
                          f"E_p[c_Y] = {gap!r}")


def dominated(t, m, weights, strict, where):
    """A Ville / LP dual certificate: c_Y(y) - sum_Z lambda_Z c_Z(y) >= 0 (> 0 if strict) for every y, lambda
    a distribution. Then for every p, E_p[c_Y] >= sum_Z lambda_Z E_p[c_Z] >= min_Z E_p[c_Z] (> if strict)."""
    total = Fraction(0)
    for w in weights.values():  # each partial sum within the bound
        total = sized(total + w, where)
    if any(w < 0 for w in weights.values()) or total != 1:
        raise Refuted(f"{where}: the multipliers are not a distribution (they sum to {show(total)})")
    for y in range(t.K):
        tick()
        gap = t.cost(m, y)
        for z, w in weights.items():
            if w:
                gap = gap - t.cost(z, y).scaled(w)
        sign = bounds.sign(gap, where)
        if sign < 0 or (strict and sign == 0):
            raise Refuted(f"{where}: the dual certificate fails at y={t.classes[y]}: c_Y(y) - sum lambda_Z c_Z(y) "
                          f"= {gap!r}")


def member_weights(t, m, lam, where):
    """Multipliers over the members of Y (Ville: c_Y dominates a mixture of its members' rows)."""
    if not isinstance(lam, dict):
        bad(where, "an object class -> weight", lam)
    out = {frozenset((t.cls(k, where),)): rat(v, f"{where}.{k}") for k, v in lam.items()}
    if any(not z <= m for z in out):
        raise Refuted(f"{where}: a multiplier is on a class outside {t.label(m)}")
    return out


def check_p1(t, verdict, ev, where):
    """P1 (Definition 4): a witness p of a possible set, or an impossibility certificate per indeterminate set."""
    needed = "witness" if verdict == "holds" else "impossibility"
    if ev.get("kind") != needed:
        bad(f"{where}.kind", f"{needed!r} for P1 {verdict}", ev.get("kind"))
    if verdict == "holds":
        m = t.indeterminate(field(ev, "Y", list, where), f"{where}.Y")
        beats(t, m, t.distribution(ev.get("p"), f"{where}.p"), f"witness p for set {t.label(m)}")
        return f"holds: witness p makes {t.label(m)} possible (Definition 4), re-checked"
    done = set()
    for i, entry in enumerate(field(ev, "sets", list, where)):
        tick()
        m = t.indeterminate(field(entry, "Y", list, f"{where}.sets[{i}]"), f"{where}.sets[{i}].Y")
        weights = member_weights(t, m, entry.get("lambda"), f"{where}.sets[{i}].lambda")
        dominated(t, m, weights, False, f"impossibility certificate of {t.label(m)}")
        done.add(m)
    missing = next((m for m in t.sets if m not in done), None)
    if missing is not None:
        raise Refuted(f"no impossibility certificate for set {t.label(missing)}")
    return f"fails: {count(len(done), 'impossibility certificate')} re-checked, one per indeterminate set"


def check_facts(t, facts):
    """Every set of the family has one fact, and each fact checks: [(name, status, message)]."""
    out, seen = [], {}
    for i, fact in enumerate(facts):
        where = f"certificate.set_facts[{i}]"
        m = t.members(field(fact, "set", list, where), f"{where}.set")
        if m in seen:
            return [("sets", "refuted", f"two set facts for {t.label(m)}")]
        seen[m] = i
    family = t.all_sets()
    missing = next((m for m in family if m not in seen), None)
    extra = next((m for m in seen if not t.spec.family.allows(m)), None)
    if missing is not None or extra is not None:
        return [("sets", "refuted", f"no set fact for {t.label(missing)}" if missing is not None else
                 f"{t.label(extra)} is not a set of the family")]
    quick = Quick(t)
    for i, fact in enumerate(facts):
        try:
            check_fact(t, quick, fact, f"certificate.set_facts[{i}]")
        except (Refuted, Undecided) as exc:
            out.append((f"set_facts[{i}]", "refuted" if isinstance(exc, Refuted) else "not covered", str(exc)))
    return out or [("sets", "checked", f"{len(facts)} sets: Definition 4 status and optimality, with their "
                                       "witnesses and dual certificates, re-checked")]


def check_fact(t, quick, fact, where):
    """One set's Definition 4 status (possible / impossible) and optimality (alone / tied / never)."""
    tick(where)
    m = t.members(fact["set"], f"{where}.set")
    for key in ("possible", "optimal") if len(m) > 1 else ("optimal",):
        entry, at = field(fact, key, dict, where), f"{where}.{key}"
        status = entry.get("status")
        if status == "unknown":
            raise Undecided(f"{key}({t.label(m)}): {entry.get('reason', 'undecided')}")
        if status not in (("possible", "impossible") if key == "possible" else ("alone", "tied", "never")):
            bad(f"{at}.status", "possible, impossible or unknown" if key == "possible" else
                "alone, tied, never or unknown", status)
        if status == "possible":
            beats(t, m, t.distribution(entry.get("p"), f"{at}.p"), f"possible witness of {t.label(m)}")
        elif status == "impossible":
            weights = member_weights(t, m, entry.get("lambda"), f"{at}.lambda")
            dominated(t, m, weights, False, f"impossibility certificate of {t.label(m)}")
        if status in ("alone", "tied"):  # at p, Y costs no more than any set (less than all others if alone)
            ties = quick.minimiser(m, t.distribution(entry.get("p"), f"{at}.p"), status == "alone", f"{at}.p")
            named = {t.members(n, f"{at}.tied_with") for n in (field(entry, "tied_with", list, at) if
                                                                  status == "tied" else [])}
            if status == "tied" and (not named or not named <= ties):
                raise Refuted(f"{at}.tied_with: the sets tied with it at p are {sorted(map(t.label, ties))}")
        if status in ("tied", "never"):  # a mixture of other sets costs no more everywhere (less if never)
            weights = {}
            for j, part in enumerate(field(entry, "lambda", list, at)):
                z = t.members(field(part, "set", list, f"{at}.lambda[{j}]"), f"{at}.lambda[{j}].set")
                if z == m or not t.spec.family.allows(z) or z in weights:
                    raise Refuted(f"{at}.lambda[{j}]: {t.label(z)} is not another set of the family, or named twice")
                weights[z] = rat(part.get("weight"), f"{at}.lambda[{j}].weight")
            dominated(t, m, weights, status == "never", f"{status} certificate of {t.label(m)}")


class Quick:
    """Expected costs compared fast: integer bounds of every cell first (units of 2^-64), exact forms only
    where those do not separate two sets."""

    def __init__(self, t):
        self.t, self.fixed = t, {}

    def bounds(self, n, m):
        """Integer bounds of sum_y n_y c_Y(y) (n: integers), or None."""
        if m not in self.fixed:
            self.fixed[m] = [bounds.quick(c) for c in self.t.costs.row(m)]
        if any(c is None for c in self.fixed[m]):
            return None
        return tuple(sum(k * c[i] for k, c in zip(n, self.fixed[m])) for i in (0, 1))

    def minimiser(self, m, p, alone, where):
        """Y minimises E_p[c_Z] over every set Z of the family (strictly when alone); the sets tied with it."""
        t = self.t
        scale = math.lcm(*(x.denominator for x in p))
        n, ties = [int(x * scale) for x in p], set()
        own = self.bounds(n, m)
        for z in t.all_sets():
            tick()
            other = None if z == m or own is None else self.bounds(n, z)
            if z == m or other is not None and other[0] > own[1]:
                continue
            sign = -1 if other is not None and other[1] < own[0] else \
                bounds.sign(t.expected(p, z) - t.expected(p, m), f"optimality of {t.label(m)}")
            if sign < 0 or (sign == 0 and alone):
                raise Refuted(f"{where}: {t.label(z)} costs {'less' if sign < 0 else 'as much'} in expectation there")
            if sign == 0:
                ties.add(z)
        return ties


def guard(out, name, job):
    """Run one claim's check, appending (name, status, message) to out."""
    try:
        result = job()
        out.append((name, "no claim", "unknown") if result is None else (name, "checked", result))
    except (Refuted, Undecided) as exc:
        out.append((name, "refuted" if isinstance(exc, Refuted) else "not covered", str(exc)))


__all__ = ["Malformed", "check_facts", "check_property", "guard"]
