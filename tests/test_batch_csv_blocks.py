"""Issue 40 (speed of `decide --p-file`): the batch CSV is made block by block, the usual `,1,0` of a set once;
what it says per row stays exact."""

import os

from conftest import SPECS

U65 = os.path.join(SPECS, "accuracy-u65.yaml")


def test_batch_csv_says_each_rows_ties_and_undecided_comparisons_across_blocks():
    """The CSV's usual `,1,0` (one optimum, decided) is made once per set; the rows with tied optima or an
    undecided comparison, in any block, say theirs (issue 40: the CSV's speed)."""
    from verifier.api.use import numeric_scheme
    from verifier.report.use.decisions import CSV_BLOCK, batch_csv, batch_csv_blocks
    from verifier.using.batch import BatchDecision

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
