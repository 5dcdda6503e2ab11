"""Forged certificates (issue 63): a certificate is bound to the spec it carries, and every claim is judged on the
cells the checker derives from that spec. Each forgery below, written from a genuine certificate in a few lines,
is refuted (exit 1) or refused (exit 2); the genuine certificate is accepted first, so each test can fail.

The forgeries of the issue (a certificate of false claims about the spec it names, accepted before): rows replaced
by the members' mean minus 1/10, a family cut to the sets where the claims hold, a class list of one class, a
relabelled certificate of another spec, a forged cell at a point, a point outside the assumptions, and vacuous
families with every for-all verdict "holds, 0 instances". Then a generator that forges the rows, the formulas,
the family, the class list, the name, the parameters and a point of several genuine certificates."""

import copy
import io
import json
import os
from fractions import Fraction

import pytest
from certificate_forgery import genuine, rewrite

import verifier_check

from conftest import SPECS


def run(cert, tmp_path, *options) -> tuple[int, str]:
    """The checker's exit status and its output (stdout, then stderr), in process."""
    path = tmp_path / "c.json"
    path.write_text(json.dumps(cert))
    out, err = io.StringIO(), io.StringIO()
    return verifier_check.main([str(path), *options], out, err), out.getvalue() + err.getvalue()


def mean_minus_tenth(content):
    """Issue 63: ha-numeric's four set rows as explicit rows, each cost the members' mean minus 1/10."""
    eta, rows = {"a": 1, "b": 2, "c": 4}, {}
    for label in ("a,b", "a,c", "b,c", "a,b,c"):
        members = label.split(",")
        row = []
        for y in "abc":
            mean = Fraction(sum(0 if h == y else eta[y] for h in members), len(members))
            row.append(str(mean - Fraction(1, 10)))
        rows[label] = row
    content["set_costs"] = rows


def claims_hold(cert, *pids):
    """The forger's claims: these properties hold, every instance enumerated (counts of the forged spec)."""
    counts = {"P3": 9, "P7": 3, "P10": 12}
    for pid in pids:
        cert["properties"][pid] = {"verdict": "holds", "evidence": {"kind": "enumerated", "instances": counts[pid]}}
    cert.pop("set_facts", None)


def test_rows_replaced_by_the_mean_minus_a_tenth(tmp_path):
    cert = genuine("ha-numeric.yaml")
    assert run(cert, tmp_path)[0] == 0
    forged = copy.deepcopy(cert)
    forged["spec"]["content"]["set_costs"] = {"a,b": ["2/5", "9/10", "39/10"]}
    claims_hold(forged, "P3", "P7", "P10")
    code, out = run(forged, tmp_path)
    assert code == 1 and "spec: refuted: the content carried is not what the text says (at the key 'set_costs')" in out
    other = rewrite(copy.deepcopy(cert), mean_minus_tenth)  # consistent: a certificate of another file
    claims_hold(other, "P3", "P7", "P10")
    code, out = run(other, tmp_path)
    assert out.startswith(f"spec: specs/ha-numeric.yaml (sha256 {other['spec']['sha256']})")
    assert other["spec"]["sha256"] != cert["spec"]["sha256"]  # the digest names another file than ha-numeric.yaml
    code, out = run(other, tmp_path, "--spec", os.path.join(SPECS, "ha-numeric.yaml"))
    assert code == 1 and "spec file: refuted: " in out and "the certificate certifies a spec whose bytes have" in out


@pytest.mark.parametrize("family", [{"sets": [["a", "b"]]}, {"max_size": 1}])
def test_a_family_cut_to_where_the_claims_hold(tmp_path, family):
    cert = genuine("ha-numeric.yaml")
    cert["spec"]["content"]["predictions"] = family
    claims_hold(cert, "P3", "P7", "P10")
    code, out = run(cert, tmp_path)
    assert code == 1 and "(at the key 'predictions')" in out
    cert = genuine("ha-numeric.yaml")
    cert["family"] = {"kind": "max_size", "max_size": 1}  # the version 1 key: the family is never taken from it
    code, out = run(cert, tmp_path)
    assert code == 2 and "certificate.family: not a key of a certificate" in out


def test_a_class_list_of_one_class(tmp_path):
    cert = genuine("ha-numeric.yaml")
    cert["spec"]["content"]["classes"] = ["a"]
    code, out = run(cert, tmp_path)
    assert code == 1 and "(at the key 'classes')" in out
    cert = rewrite(genuine("ha-numeric.yaml"), lambda c: c.update(classes=["a"]))
    code, out = run(cert, tmp_path)  # not a spec at all: one class
    assert code == 2 and "certificate.spec.content.classes: expected a list of 2 to 1,000 names" in out


def test_a_relabelled_certificate_of_another_spec(tmp_path):
    cert = genuine("accuracy-u65.yaml")
    cert["spec"]["path"] = "specs/ha-numeric.yaml"
    code, out = run(cert, tmp_path, "--spec", os.path.join(SPECS, "ha-numeric.yaml"))
    assert code == 1 and "spec file: refuted: " in out
    cert["spec"]["sha256"] = genuine("ha-numeric.yaml")["spec"]["sha256"]  # the digest of ha-numeric's bytes too
    code, out = run(cert, tmp_path, "--spec", os.path.join(SPECS, "ha-numeric.yaml"))
    assert code == 1 and "spec: refuted: the text carried does not have the SHA-256 carried" in out


def test_a_failing_verdict_forged_at_a_point(tmp_path):
    """P4 holds for ha.yaml at every admissible value: a point claimed to break it is refuted there, and a point
    outside `assume: delta > 0` is not admissible."""
    cert = genuine("ha.yaml")
    assert run(cert, tmp_path)[0] == 0
    cert["points"].append({"values": {"delta": "1", "eta[a]": "3", "eta[b]": "3", "eta[c]": "3"}})
    cert["properties"]["P4"] = {"verdict": "fails", "at": len(cert["points"]) - 1,
                                "evidence": {"kind": "counterexample", "Y": ["a", "b"], "y": "c"}}
    code, out = run(cert, tmp_path)
    assert code == 1 and "P4 at delta=1, eta[a]=3, eta[b]=3, eta[c]=3: refuted: the counterexample Y={a,b}, y=c " \
        "does not break the atom cost >= min" in out
    cert["points"][-1]["values"]["delta"] = "-1"
    code, out = run(cert, tmp_path)
    assert code == 1 and "P4: refuted: certificate.points[" in out and "the point is not admissible: the " \
        "assumption 'delta > 0' is false there" in out
    cert["points"][-1]["matrix"] = []  # a matrix at a point: never read, refused
    assert run(cert, tmp_path)[0] == 2


@pytest.mark.parametrize("name, failing", [("ha.yaml", ("P2", "P3", "P7", "P10")),
                                           ("p-discounted-symbolic.yaml", ("P2", "P3", "P6", "P8"))])
def test_vacuous_families_and_for_all_verdicts_of_no_instance(tmp_path, name, failing):
    cert = genuine(name)
    for pid in ("P2", "P3", "P4", "P5", "P6", "P7", "P8", "P10"):
        cert["properties"][pid] = {"verdict": "holds", "evidence": {"kind": "enumerated", "instances": 0}}
    code, out = run(cert, tmp_path)
    assert code == 1
    for pid in failing:  # the checker enumerates the family of the spec itself: the instances are there
        assert f"\n{pid}: refuted: the certificate counts 0 instances, the checker enumerated " in out, out
    cert["spec"]["content"]["predictions"] = {"max_size": 1}
    assert run(cert, tmp_path)[0] == 1


# -- the generator: forge the rows, the formulas, the family, the class list, the name, the parameters ----------
def _row(c):
    label = next(iter(c.get("set_costs") or {}), None)
    if label is None:
        c["set_costs"] = {"a,b" if "a" in str(c["classes"]) else "h,b": ["0"] * len(c["classes"])}
    else:
        c["set_costs"][label] = ["0"] * len(c["set_costs"][label])


FORGE = {
    "rows": _row,
    "set formula": lambda c: c.update(set_cost=f"({c['set_cost']}) - 1/10") if "set_cost" in c else _row(c),
    "cost": lambda c: c.update(cost=f"({c['cost']}) + 1") if "cost" in c else c["cost_matrix"][
        next(iter(c["cost_matrix"]))].__setitem__(0, "5"),
    "family": lambda c: c.update(predictions={"max_size": 2}),
    "classes": lambda c: c.update(classes=list(reversed(c["classes"]))) if isinstance(c["classes"], list) else
    c.update(classes=c["classes"] + 1),
    "name": lambda c: c.update(name="another scheme"),
    "assume": lambda c: c.update(assume=[]),
}
SPECS_FORGED = ["ha-numeric.yaml", "obstacle-hand-filled.yaml", "ha.yaml", "p-discounted-symbolic.yaml",
                "hierarchy-animals.yaml", "friedel-abstention-symbolic.yaml"]


@pytest.mark.parametrize("name", SPECS_FORGED)
@pytest.mark.parametrize("what", sorted(FORGE))
def test_a_forged_spec_is_never_accepted_as_the_spec_certified(tmp_path, name, what):
    cert = genuine(name)
    assert run(cert, tmp_path, "--spec", os.path.join(SPECS, name))[0] == 0
    edited = copy.deepcopy(cert)
    FORGE[what](edited["spec"]["content"])
    code, out = run(edited, tmp_path)  # the content alone: not what the text says
    assert code == 1 and "spec: refuted: the content carried is not what the text says" in out
    consistent = rewrite(copy.deepcopy(cert), FORGE[what])
    stale = copy.deepcopy(consistent)
    stale["spec"]["sha256"] = cert["spec"]["sha256"]
    assert run(stale, tmp_path)[0] == 1  # the digest of the original's bytes: not the text's
    code, out = run(consistent, tmp_path, "--spec", os.path.join(SPECS, name))
    assert code in (1, 2), out  # the file certified is another file; and the claims may be false of it too
    assert "Traceback" not in out


@pytest.mark.parametrize("name", ["ha.yaml", "p-discounted-symbolic.yaml", "friedel-abstention-symbolic.yaml"])
def test_every_proof_over_the_parameters_is_checked_and_a_changed_one_refuted(tmp_path, name):
    """Each for-all proof: a multiplier, a split point, a witness or a sign changed is refuted (or refused)."""
    cert = genuine(name)
    forged = 0
    for pid, claim in cert["properties"].items():
        ev = claim["evidence"]
        text = json.dumps(ev)
        for old, new in (('"weight": "1"', '"weight": "2"'), ('"sign": 1', '"sign": -1'), ('"1/2"', '"1/3"'),
                         ('"h": "a"', '"h": "b"'), ('"by": "exact"', '"by": "bernstein"')):
            if old in text and ev.get("kind") in ("for_all", "witness_for_all"):
                changed = copy.deepcopy(cert)
                changed["properties"][pid]["evidence"] = json.loads(text.replace(old, new, 1))
                code, out = run(changed, tmp_path)
                assert code in (1, 2), (pid, old, out)
                forged += 1
    assert forged >= 3


def test_dropping_the_facts_at_points_claims_less_and_changes_no_verdict(tmp_path):
    cert = genuine("ha.yaml")
    before = run(cert, tmp_path)[1].splitlines()
    del cert["also"]
    code, out = run(cert, tmp_path)
    assert code == 0 and [x for x in before if " also at " not in x][:-1] == out.splitlines()[:-1]


@pytest.mark.parametrize("forge, status, said", [
    (lambda c: c["points"][0]["values"].pop("delta"), 2, "certificate.points[0].values: expected a value of each "
                                                         "parameter"),
    (lambda c: c["points"][1]["values"].update(delta="0.5"), 2, "certificate.points[1].values.delta: expected a "
                                                                "rational"),
    (lambda c: c["also"][0].update(verdict="fails"), 2, "certificate.also[0].verdict: expected holds (what holds at "
                                                        "a point), got \"fails\""),
    (lambda c: c["properties"].update(P9={**c["properties"]["P9"], "verdict": "holds"}), 1,
     "P9: refuted: certificate.properties.P9.at:"),
    (lambda c: c.update(set_facts=[]), 2, "certificate.set_facts: a spec with symbolic parameters has no set facts"),
])
def test_a_forged_point_or_list_of_a_scheme_with_parameters_is_refused(tmp_path, forge, status, said):
    cert = genuine("ha.yaml")
    forge(cert)
    code, out = run(cert, tmp_path)
    assert code == status and said in out, out


def test_forged_facts_of_a_numeric_scheme_are_refused(tmp_path):
    cert = genuine("ha-numeric.yaml")
    cert["set_facts"].append(copy.deepcopy(cert["set_facts"][-1]))
    code, out = run(cert, tmp_path)
    assert code == 1 and "sets: refuted: two set facts for {a,b,c}" in out
    cert = genuine("obstacle-discounted.yaml")
    fact = next(f for f in cert["set_facts"] if f["optimal"]["status"] in ("tied", "never"))
    fact["optimal"]["lambda"] = fact["optimal"]["lambda"] * 2
    code, out = run(cert, tmp_path)
    assert code == 1 and "is not another set of the family, or named twice" in out
    cert = genuine("ha-numeric.yaml")
    cert["points"] = []
    code, out = run(cert, tmp_path)
    assert code == 2 and "certificate.points: a spec without symbolic parameters has no points" in out


# -- found by an adversarial review of the new checker (issue 63) ------------------------------------------------
def _certificate_of(text: str, tmp_path, name="s.yaml") -> dict:
    """The tool's own certificate of a spec text (written to `name` first)."""
    import verifier

    path = tmp_path / name
    path.write_text(text)
    return verifier.verify(str(path), cache=False, detail="summary", certificate=True).certificate()


def test_two_values_never_share_a_key_whatever_the_class_names(tmp_path):
    """A class named `a]^1.$eta[b` made eta[that class] and eta[a]*eta[b] one key, so the call g(...) of one was
    answered with the other's value and a false "P8 holds, exact" checked. Keys quote atom names now."""
    from verifier_check.algebra import parameter

    one, product = parameter("eta[a]^1.$eta[b]"), parameter("eta[a]") * parameter("eta[b]")
    assert one.key() != product.key()
    text = ('name: key collision\nclasses: [a, b, "a]^1.$eta[b"]\nparameters:\n  eta: {per_class: true}\n'
            'assume:\n  - "eta[y] > 1"\nfunctions:\n  "g(x)": "x"\ncost: "0 if yhat == y else 1"\n'
            'set_cost: "(0 if y in Y else 1) + ((g(eta[\'a]^1.$eta[b\']) - g(eta[\'a\'] * eta[\'b\'])) '
            'if y == \'a\' else 0)"\n')
    cert = _certificate_of(text, tmp_path)
    assert cert["properties"]["P8"]["verdict"] == "fails"
    forged = copy.deepcopy(cert)
    instances = [{"Y": Y, "y": y, "y2": z, "proof": {"by": "exact"}}
                 for Y in (["a", "b"], ["a", "a]^1.$eta[b"], ["b", "a]^1.$eta[b"], ["a", "b", "a]^1.$eta[b"])
                 for y in Y for z in Y if y != z]
    forged["properties"]["P8"] = {"verdict": "holds", "evidence": {"kind": "for_all", "instances": instances}}
    code, out = run(forged, tmp_path)
    assert code == 1 and "\nP8: refuted: " in out


def test_a_plain_scalar_read_as_pyyaml_reads_it_and_class_names_are_never_truncated(tmp_path):
    """`._5` is a string to PyYAML (a float needs a digit after the point), and a number is a class name only as
    a whole number written as one: the checker read `._5` as 1/2 and the class 1/2 as "0"."""
    from verifier_check import yaml_text

    assert yaml_text.read("a: ._5\nb: .5\nc: 1.0\nd: 7\n") == {"a": "._5", "b": Fraction(1, 2), "c": Fraction(1),
                                                                 "d": 7}
    cert = genuine("ha-numeric.yaml")
    content = cert["spec"]["content"]
    content["classes"] = ["a", 0.5, "c"]  # what a forger could carry: the checker refuses such names
    from verifier_check.limits import Malformed
    from verifier_check.spec import Spec

    with pytest.raises(Malformed, match="classes"):
        Spec(verifier_check.parse.content(verifier_check.parse.load(json.dumps(content))))


def test_a_power_mean_whose_loop_hides_the_true_class_is_no_lemma(tmp_path):
    """genmean(0.5, [c(y, y) for y in Y]) reads the diagonal, not the column of y: the lemma's premises on the
    K x K costs say nothing of it (a false "P6 holds" by the lemma checked before)."""
    text = ('name: shadowed\nclasses: [a, b, c]\ncost: "rank(y) + 1 if yhat == y else 7"\n'
            'set_cost: "genmean(0.5, [c(y, y) for y in Y])"\n')
    cert = _certificate_of(text, tmp_path)
    assert cert["properties"]["P6"]["verdict"] == "fails"
    cert["properties"]["P6"] = {"verdict": "holds", "evidence": {"kind": "lemma"}}
    code, out = run(cert, tmp_path)
    assert "\nP6: checked" not in out and "P6: not covered: P6 holds: no power-mean lemma applies" in out


def test_an_assumption_undecided_at_a_point_leaves_its_claims_not_covered_without_a_traceback(tmp_path):
    extra = '  - "delta < eta[y] / 2"\n  - "exp(log(delta)) >= delta"\n'  # true, but bounds cannot show it is
    text = open(os.path.join(SPECS, "ha.yaml")).read().replace('  - "delta < eta[y] / 2"\n', extra)
    code, out = run(_certificate_of(text, tmp_path), tmp_path)
    assert code == 3 and "Traceback" not in out
    assert "the bounds of its irrational terms do not separate it from 0" in out


def _block_at_the_end(text):
    """The source as a literal block scalar that ends the file, with no final line break."""
    import re

    return re.sub(r"(?m)^source:.*\n", "", text).rstrip("\n") + "\nsource: |\n  the end"


def _no_break_space_before_a_hash(text):
    """A no-break space before `#`: text, not a comment (YAML's white space is the space and the tab)."""
    return text.replace("\nsource:", "\nsource: see section\u00a0#3 of", 1)


@pytest.mark.parametrize("edit", [_block_at_the_end, _no_break_space_before_a_hash])
def test_genuine_certificates_of_unusual_but_valid_yaml_are_accepted(tmp_path, edit):
    text = edit(open(os.path.join(SPECS, "ha-numeric.yaml")).read())
    code, out = run(_certificate_of(text, tmp_path), tmp_path)
    assert code == 0 and "spec: checked: the text carried has that SHA-256, and reads as the content carried" in out
