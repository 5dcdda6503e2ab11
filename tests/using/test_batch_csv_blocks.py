"""Issue 40 (speed of `decide --p-file`): the batch CSV is made block by block, the usual `,1,0` of a set once, the
JSON record only when read, and the symmetric route finds each row's set from its sorted values; what is said per
row stays exact (the same sets and tie counts as comparing every set)."""

import os

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SPECS

U65 = os.path.join(SPECS, "accuracy-u65.yaml")


def test_batch_csv_says_each_rows_ties_and_undecided_comparisons_across_blocks():
    """The CSV's usual `,1,0` (one optimum, decided) is made once per set; the rows with tied optima or an
    undecided comparison, in any block, say theirs (issue 40: the CSV's speed)."""
    from verifier.api.use.report import numeric_scheme
    from verifier.report.use.decisions import CSV_BLOCK, batch_csv, batch_csv_blocks
    from verifier.using.decide import BatchDecision

    _, scheme = numeric_scheme(U65, "test")
    n = 2 * CSV_BLOCK + 7
    predictions = [frozenset({i % 3}) if i % 5 else frozenset({0, 1}) for i in range(n)]
    tied = [1] * n
    tied[4] = tied[CSV_BLOCK + 1] = 3
    undecided = [CSV_BLOCK - 1, CSV_BLOCK + 1, 2 * CSV_BLOCK + 6]
    text = batch_csv(scheme, BatchDecision(predictions, tied, undecided, "vectorised", 0))
    assert text == "".join(batch_csv_blocks(scheme, BatchDecision(predictions, tied, undecided, "vectorised", 0)))
    lines = text.splitlines()
    assert lines[0] == "row,prediction,tied_optima,undecided" and len(lines) == n + 1
    for i in range(n):
        cell = ",".join(scheme.classes[c] for c in sorted(predictions[i]))
        assert lines[i + 1] == f'{i},"{cell}",{tied[i]},{int(i in undecided)}', i


def test_a_batch_report_makes_its_record_only_when_read_and_pickles_as_a_plain_report(tmp_path, monkeypatch):
    """The command line writes the CSV and never reads the record (made beside it before: 0.5 s of 10^6 rows);
    the API still gets the same text, record and prediction, and a pickle of the report holds them."""
    import io
    import pickle

    import numpy as np

    import verifier
    from verifier.api.use import BatchReport, UseReport
    from verifier.cli import check
    from verifier.report.use import decisions

    path = tmp_path / "p.npy"
    np.save(path, np.array([[0.5, 0.3, 0.2], [0.1, 0.1, 0.8], [0.4, 0.4, 0.2]]))
    made = []
    real = decisions.batch_json
    monkeypatch.setattr(decisions, "batch_json", lambda *a: made.append(1) or real(*a))
    out, err = io.StringIO(), io.StringIO()
    assert check(["decide", U65, "--p-file", str(path), "--certainty"], out, err) == 0, err.getvalue()
    assert made == [] and out.getvalue().startswith("row,prediction,tied_optima,undecided,top,")
    report = verifier.decide(U65, p_file=str(path), certainty=True)
    assert isinstance(report, BatchReport) and made == []
    assert report.text == out.getvalue() and report.prediction == [["h", "b"], ["n"], ["h", "b"]] and made == [1]
    plain = pickle.loads(pickle.dumps(report))
    assert type(plain) is UseReport and plain.record == report.record and plain.text == report.text
    assert sorted(os.listdir(tmp_path)) == ["p.npy"]


def test_the_tie_column_is_1_exactly_on_the_rows_tied_for_the_top_class_in_any_block(tmp_path):
    """A block without a tie has its 0s in the line format; a block with one says 1 on that row only."""
    import numpy as np

    import verifier
    from verifier.report.use.decisions import CSV_BLOCK

    rows = np.random.default_rng(3).dirichlet(np.ones(3), size=2 * CSV_BLOCK + 5)
    tied = [CSV_BLOCK + 7, 2 * CSV_BLOCK + 4]
    rows[tied[0]] = [0.4, 0.4, 0.2]
    rows[tied[1]] = [0.25, 0.375, 0.375]  # the exact binary values tie (0.25 and 0.375 are dyadic)
    path = tmp_path / "p.npy"
    np.save(path, rows)
    report = verifier.decide(U65, p_file=str(path), certainty=True)
    lines = report.text.splitlines()[1:]
    assert [i for i, line in enumerate(lines) if line.endswith(",1")] == tied
    assert all(line.endswith(",0") for i, line in enumerate(lines) if i not in tied)
    assert report.record["certainty"]["rows"]["tie"] == [i in tied for i in range(len(lines))]


def _ten(name):
    import tempfile

    import yaml

    data = yaml.safe_load(open(os.path.join(SPECS, name)))
    data["classes"], _ = 10, data.pop("expect", None)
    path = os.path.join(tempfile.mkdtemp(), name)
    with open(path, "w") as handle:
        yaml.safe_dump(data, handle)
    return path


_TEN: dict = {}


def _scheme_at_ten(name):
    from verifier.api.use.report import numeric_scheme

    if name not in _TEN:
        _TEN[name] = numeric_scheme(_ten(name), "test")[1]
    return _TEN[name]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["accuracy-u65.yaml", "accuracy-u80.yaml", "accuracy-f1.yaml"]),
       st.lists(st.lists(st.integers(0, 4), min_size=10, max_size=10).filter(any), min_size=1, max_size=12),
       st.booleans())
def test_property_the_symmetric_route_from_sorted_values_gives_every_sets_route(name, counts, binary):
    """Issue 40 (speed): the symmetric route finds each row's set from its sorted values and the cut (no order);
    on rows full of equal values (small counts), as binary floats or as exact fractions, its sets and tie
    counts are those of the route that compares every set."""
    from fractions import Fraction

    import numpy as np

    from verifier.using import BatchDecider
    from verifier.using.decide.batch import _vectorised
    from verifier.using.exact import fast_binary_rows, rational_rows

    scheme = _scheme_at_ten(name)
    rows = [[Fraction(c, sum(row)) for c in row] for row in counts]
    # binary floats: the counts over 8, exact (a row need not sum to 1: decisions depend on its ratios only)
    block = fast_binary_rows(np.array(counts) / 8.0)[0] if binary else rational_rows(rows, 10)
    decider = BatchDecider(scheme)
    decider.add(block)
    assert decider.result.route == "symmetric"
    every = _vectorised(scheme, rational_rows(rows, 10))
    assert decider.result.predictions == every.predictions
    assert decider.result.tied_optima == every.tied_optima
