"""The command: read a certificate, derive its spec's scheme, check every claim, print one line per claim.

The first lines name what was checked against: the spec's path and the SHA-256 of its bytes, its classes, its
family and its parameters, all derived from the spec the certificate carries. Then one line per claim, then
the count. Exit 0: every claim checks; 1: one is refuted (or, with --spec, the file is not the one certified);
2: not a certificate, or beyond the checker's bounds or time budget; 3: nothing refuted, some claim not covered
(--partial-ok: 0).
"""

import argparse
import hashlib
import math
import sys
import time

from verifier_check import FORMAT, VERSION, yaml_text
from verifier_check.for_all import Region, check_for_all, witness_p1, witness_p9
from verifier_check.limits import DEADLINE, PLACE, Malformed, OverBudget, Refuted, Undecided, bad, count, field
from verifier_check.one_matrix import check_facts, check_property, guard
from verifier_check.parse import exact_numbers_only, load, read_regular, spec_of
from verifier_check.properties import PROPERTIES, Table
from verifier_check.spec import Spec

ORDER = ["P1", *PROPERTIES]


def claims(cert, seconds=None):
    """(header lines, [(name, status, message)]): status "checked", "refuted", "not covered" or "no claim".
    Within `seconds` (OverBudget beyond them), if given."""
    DEADLINE[0], PLACE[0] = math.inf if seconds is None else time.monotonic() + seconds, "certificate"
    if not isinstance(cert, dict) or cert.get("format") != FORMAT:
        raise Malformed(f"certificate.format: expected {FORMAT!r}")
    if type(cert.get("version")) is not int or cert["version"] != VERSION:
        bad("certificate.version", f"{VERSION} (a certificate of an earlier version does not carry its spec: "
                                   "write it again with this verify)", cert.get("version"))
    exact_numbers_only(cert)
    alien = next((k for k in cert if k not in ("format", "version", "tool", "spec", "properties", "set_facts",
                                               "points", "also", "not_covered", "notes")), None)
    if alien is not None:
        raise Malformed(f"certificate.{alien}: not a key of a certificate (the checker derives the classes, the "
                        "family and every cost from the spec itself)")
    path, digest, text, content = spec_of(cert)
    bound = bind(digest, text, content)
    if bound[1] == "refuted":
        return [f"spec: {path} (sha256 {digest})"], [bound]
    spec = Spec(content)
    header = [f"spec: {path} (sha256 {digest})", f"classes: {', '.join(spec.classes)[:300]} ({spec.K} classes)",
              f"family: {spec.family.describe()}"]
    if spec.symbols:
        header.append(f"parameters: {', '.join(spec.symbols)[:300]} (symbolic, over every value that meets the "
                      f"{count(len(spec.assume), 'assumption')})")
    out, props = [bound], field(cert, "properties", dict, "certificate")
    if not spec.symbols:
        if "points" in cert or "also" in cert:
            raise Malformed("certificate.points: a spec without symbolic parameters has no points")
        table = Table(spec, spec.costs({}))
        for pid in ORDER:
            claim = field(props, pid, dict, "certificate.properties")
            guard(out, pid, lambda: check_property(table, pid, claim, f"certificate.properties.{pid}"))
        if "set_facts" in cert:
            out += check_facts(table, field(cert, "set_facts", list, "certificate"))
        return header, out
    if "set_facts" in cert:
        raise Malformed("certificate.set_facts: a spec with symbolic parameters has no set facts")
    return header, out + parametric(cert, spec, props)


def bind(digest, text, content):
    """("spec", status, message): the text carried has the digest, and reads as the content carried."""
    if hashlib.sha256(text.encode("utf-8")).hexdigest() != digest:
        return "spec", "refuted", "the text carried does not have the SHA-256 carried"
    try:
        read = yaml_text.read(text)
    except (yaml_text.Unsupported, RecursionError) as exc:
        reason = exc if isinstance(exc, yaml_text.Unsupported) else "collections nested too deeply"
        return "spec", "not covered", f"its text uses YAML beyond the checker's reader ({reason}), so the content " \
                                      "carried is not confirmed against the bytes"
    if not same(read, content):
        key = next((k for k in sorted(set(read) | set(content)) if not same(read.get(k), content.get(k))), "?")
        return "spec", "refuted", f"the content carried is not what the text says (at the key {key!r})"
    return "spec", "checked", "the text carried has that SHA-256, and reads as the content carried"


def same(a, b):
    """Equal plain data, type for type: true is not 1, and 2 is not 2.0 (the tool reads them differently)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def parametric(cert, spec, props):
    """Claims of a spec with symbolic parameters: failing verdicts at exact admissible points, holding ones
    for every admissible value, and what else holds at points (`also`)."""
    out, points, tables = [], field(cert, "points", list, "certificate") if "points" in cert else [], {}
    symbolic = spec.costs(None)
    table, region = Table(spec, symbolic), Region(spec, symbolic)

    def point(at, where):
        if type(at) is not int or not 0 <= at < len(points):
            bad(f"{where}.at", f"an index into certificate.points (0..{len(points) - 1})", at)
        here = f"certificate.points[{at}]"
        if at not in tables:
            if not isinstance(points[at], dict) or set(points[at]) != {"values"}:
                raise Malformed(f"{here}: a point holds its values only (the checker derives its matrix)")
            values = spec.values(points[at]["values"], f"{here}.values")
            costs = spec.costs(values)
            spec.admissible(costs, here)
            tables[at] = (Table(spec, costs), ", ".join(f"{k}={v}" for k, v in points[at]["values"].items()))
        return tables[at]

    for pid in ORDER:
        where = f"certificate.properties.{pid}"
        claim = field(props, pid, dict, "certificate.properties")
        if claim.get("at") is not None and claim.get("verdict") == "holds":
            out.append((pid, "refuted", f"{where}.at: a verdict that holds claims every admissible value of the "
                                        "parameters, which no point proves (facts at points are under also)"))
        elif claim.get("at") is not None:  # a failing verdict: some value breaks it, checked at that value
            try:
                target, values = point(claim["at"], where)
            except (Refuted, Undecided) as exc:  # not admissible there, or not decided whether it is
                out.append((pid, "refuted" if isinstance(exc, Refuted) else "not covered", str(exc)))
                continue
            guard(out, f"{pid} at {values}", lambda: check_property(target, pid, claim, where))
        else:
            guard(out, pid, lambda: every_value(table, region, pid, claim, where))
    for i, claim in enumerate(field(cert, "also", list, "certificate") if "also" in cert else []):
        where = f"certificate.also[{i}]"  # what else holds at exact points (a failing property's good values)
        pid = field(claim, "property", str, where)
        if pid not in ORDER:
            bad(f"{where}.property", "P1..P10", pid)
        if claim.get("verdict") != "holds":
            bad(f"{where}.verdict", "holds (what holds at a point)", claim.get("verdict"))
        try:
            target, values = point(claim.get("at"), where)
        except (Refuted, Undecided) as exc:
            out.append((f"{pid} also", "refuted" if isinstance(exc, Refuted) else "not covered", str(exc)))
            continue
        guard(out, f"{pid} also at {values}", lambda: check_property(target, pid, claim, where))
    return out


def every_value(t, region, pid, claim, where):
    """A verdict with no point: it must hold at every admissible value (or be unknown, no claim)."""
    verdict, ev = field(claim, "verdict", str, where), field(claim, "evidence", dict, where)
    if verdict == "unknown":
        return None
    kind = field(ev, "kind", str, f"{where}.evidence")
    if kind == "none":
        raise Undecided(f"{verdict}: {ev.get('reason', 'no evidence given')}")
    if verdict != "holds":
        bad(f"{where}.at", "the point where the failing verdict is shown", None)
    outer = PROPERTIES[pid][0] if pid in PROPERTIES else "exists"
    if kind == "enumerated" and outer == "forall":  # vacuous: no instance in the family, at any value
        return check_property(t, pid, claim, where) and "holds: vacuously, the property has no instance in this " \
                                                         "family, at any value"
    if kind == "for_all" and outer == "forall":
        return check_for_all(t, region, pid, ev, f"{where}.evidence")
    if kind == "witness_for_all" and pid in ("P1", "P9"):
        return (witness_p1 if pid == "P1" else witness_p9)(t, region, ev, f"{where}.evidence")
    bad(f"{where}.evidence.kind", "for_all (a for-every property) or witness_for_all (P1, P9)", kind)


class Usage(argparse.ArgumentParser):
    """The command's argument parser, whose errors raise Malformed instead of exiting."""

    def error(self, message):
        """A usage error: Malformed with argparse's message."""
        raise Malformed(f"usage error: {message}")


def parser(prog):
    """The command's options."""
    p = Usage(prog=prog, add_help=False, formatter_class=argparse.RawDescriptionHelpFormatter,
              description="Re-check a verify certificate (docs/certificates.md) with the Python standard library "
                          "only.", epilog=f"examples:\n  {prog} ha.cert.json\n  {prog} ha.cert.json --spec "
              "specs/ha.yaml\n\nexit status:\n  0  every claim checks\n  1  a claim is refuted, or --spec names "
              "another file than the one certified\n  2  not a certificate (or beyond the checker's bounds or time "
              "budget), or a usage error\n  3  nothing refuted, some claim not covered")
    p.add_argument("certificate", nargs="?", help="the certificate (JSON) written by verify SPEC --certificate")
    p.add_argument("--spec", metavar="FILE", help="also confirm that FILE's bytes are the spec certified (SHA-256)")
    p.add_argument("--partial-ok", action="store_true", help="exit 0 when nothing is refuted though some claims "
                   "are not covered")
    p.add_argument("--time-limit", type=float, default=600, metavar="SECONDS",
                   help="the check's time budget (default 600): beyond it, exit 2 with the place reached")
    p.add_argument("-h", "--help", action="store_true", help="show this help and exit")
    return p


def main(argv=None, out=None, err=None, prog="verifier_check", confirm=None):
    """The command; returns the exit status (0 checked, 1 refuted, 2 malformed, 3 not covered). `confirm(cert,
    path)`: a caller's further check of the spec file (`verify check` reads it as the tool does), returning a
    refutation's message or None."""
    out, err = out or sys.stdout, err or sys.stderr
    options = parser(prog)
    try:
        args = options.parse_args(argv)
        if not args.help and args.certificate is None:
            options.error("the certificate file is missing")
        if not 0 < args.time_limit < 1e9:
            options.error(f"--time-limit: expected a number of seconds above 0, got {args.time_limit}")
    except Malformed as exc:
        print(f"{prog}: {exc}", file=err)
        return 2
    if args.help:
        options.print_help(out)
        return 0
    started = time.monotonic()
    try:
        try:
            DEADLINE[0] = started + args.time_limit  # the budget counts from the start of reading
            cert = load(read_regular(args.certificate).decode("utf-8"))
            given = hashlib.sha256(read_regular(args.spec)).hexdigest() if args.spec else None
        except OSError as exc:
            raise Malformed(f"cannot read it ({exc.strerror or exc})") from None
        except (UnicodeDecodeError, ValueError) as exc:
            raise Malformed("not JSON: " + (f"line {exc.lineno}, column {exc.colno}: {exc.msg}"
                                            if hasattr(exc, "lineno") else str(exc))) from None
        try:
            header, results = claims(cert, args.time_limit - (time.monotonic() - started))
        except Undecided as exc:  # something every claim reads, such as a fixed parameter's value, is undecided
            header, results = [], [("certificate", "not covered", str(exc))]
        finally:  # no budget left behind for a caller in the same process (verify check)
            DEADLINE[0] = math.inf
        if given is not None and given != spec_of(cert)[1]:
            results = [("spec file", "refuted", f"{args.spec}'s bytes have SHA-256 {given}; the certificate "
                                                f"certifies a spec whose bytes have {spec_of(cert)[1]}")] + results
        elif given is not None:
            said = confirm(cert, args.spec) if confirm else None
            results = [("spec file", "refuted" if said else "checked", said or f"{args.spec} is the file certified "
                        "(its bytes' SHA-256)" + (", and the tool reads it as the content carried" if confirm
                                                  else ""))] + results
    except (Malformed, RecursionError, TypeError, ValueError, KeyError, AttributeError, IndexError, OverflowError,
            MemoryError, ZeroDivisionError) as exc:
        reason = exc if isinstance(exc, Malformed) else "expressions nested too deeply" if isinstance(
            exc, RecursionError) else f"unexpected content ({type(exc).__name__}: {str(exc)[:200]})"
        said = f"stopped after {args.time_limit:g} s at" if isinstance(exc, OverBudget) else "malformed certificate:"
        print(f"{prog}: {args.certificate}: {said} {reason}", file=err)
        return 2
    tally = {k: sum(1 for r in results if r[1] == k) for k in ("checked", "refuted", "not covered")}
    try:
        for line in header:
            print(line, file=out)
        for name, status, message in results:
            print(f"{name}: {status}: {message}", file=out)
        print(f"{args.certificate}: {tally['checked']} checked, {tally['refuted']} refuted, "
              f"{tally['not covered']} not covered", file=out)
    except BrokenPipeError:  # a reader such as `head` went away: the status still says it all
        pass
    return 1 if tally["refuted"] else 3 if tally["not covered"] and not args.partial_ok else 0
