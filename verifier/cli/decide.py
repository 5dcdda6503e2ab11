"""`verify decide SPEC`: the verified spec, used unchanged to predict sets.

`--p h=0.1,b=0.3,n=0.6` (the optimal set, ties, exact expected costs), `--p-file probs.csv|.npy` (one
prediction per row, as CSV on standard output, its summary on standard error), or a credal set (`--intervals
h=0:0.2,...` or `--vertex ...` repeated; `--intervals-file` for one per row) with `--rule`.
Exit status: 0 done, 2 an invalid spec, input file or option.
"""

from __future__ import annotations

from typing import TextIO

from verifier.cli import options
from verifier.cli.use import use_command

RULES = ("maximality", "interval-dominance", "e-admissibility", "gamma-maximin")
EXIT_CODES = "  0  done\n  2  an invalid spec, input file or option (a message says where)"
EXAMPLES = """\
  verify decide specs/obstacle-discounted.yaml --p h=0.1,b=0.3,n=0.6
  verify decide specs/obstacle-discounted.yaml --p-file probs.csv > predictions.csv
  verify decide specs/obstacle-discounted.yaml --intervals h=0:0.2,b=0.3:0.4,n=0.4:0.6 --rule maximality"""


def _parser() -> options.Parser:
    p = options.Parser(prog="verify decide", examples=EXAMPLES, exit_codes=EXIT_CODES,
                       description="The optimal set to predict under the spec's extended matrix, for a precise "
                                   "distribution, a batch of them, or a credal set.")
    p.add_argument("spec", metavar="SPEC", nargs="?")
    p.add_argument("--p", default=None, metavar="DIST", help="a distribution, e.g. h=0.1,b=0.3,n=0.6 (exact; "
                   "classes left out have probability 0)")
    p.add_argument("--p-file", default=None, metavar="FILE", help="one distribution per row: CSV with a header "
                   "of class names, or an (N, K) .npy of floats")
    p.add_argument("--intervals", default=None, metavar="BOUNDS", help="probability intervals, e.g. "
                   "h=0:0.2,b=0.3:0.4,n=0.4:0.6")
    p.add_argument("--vertex", action="append", default=None, metavar="DIST",
                   help="a vertex of the credal set (repeat for each)")
    p.add_argument("--intervals-file", default=None, metavar="FILE", help="one credal set per row: CSV with the "
                   "columns <class>_lo and <class>_hi for every class")
    p.add_argument("--rule", default="maximality", choices=RULES, metavar="RULE",
                   help="for a credal set: " + ", ".join(RULES) + " (default maximality)")
    p.add_argument("--certainty", action="store_true", help="with --p or --p-file: also the certainty and doubt "
                   "of each decision (Berenbeim et al.): CSV columns top, min_certainty, max_doubt, doubt_cost, tie; "
                   "their distribution on standard error; for two classes the exact certainty margin")
    p.add_argument("--logits", action="store_true", help="with --p-file: its rows are logits (any finite reals; with "
                   "--p: one row, every class given), "
                   "decided exactly on their softmax; with --certainty, the raw certainty and doubt of the logits")
    options.add_shared(p, "format", "time-limit", "quiet", "width")
    return p


def decide_command(argv: list[str], stdout: TextIO, stderr: TextIO) -> int:
    """`verify decide ARGV`: its exit status."""
    return use_command("decide", _parser(), _decide, argv, stdout, stderr)


def _decide(args, stderr: TextIO):
    from verifier import api

    result = api.decide(args.spec, args.p, intervals_text=args.intervals, vertices=args.vertex,
                        rule=args.rule, p_file=args.p_file, intervals_file=args.intervals_file,
                        certainty=args.certainty, logits=args.logits, time_limit=args.time_limit)
    return result, None, None
