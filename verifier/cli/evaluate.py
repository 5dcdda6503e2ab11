"""`verify evaluate SPEC PREDICTIONS`: the verified spec, used unchanged to score set-valued classifiers.

Scores per classifier, paired tests, and `--sweep r=0.1:2:20 [--plot FILE]` for the mean cost along a parameter
(twice with --probabilities: a surface over two); several PREDICTIONS files (or a dataset column) are several
data sets, with the Friedman test over them and `--plot FILE` for its critical difference diagram; binary
scores (`--scores`) with abstention cost curves or uncertain operating conditions.
Exit status: 0 done (also when --time-limit cut an evaluation short: what was done is printed, then what was
cut), 2 an invalid spec, input file or option.
"""

from __future__ import annotations

import time
from typing import TextIO

from verifier.cli import certainty_option, options
from verifier.cli.use import extra_lines, use_command
from verifier.errors import UsageError

EXIT_CODES = ("  0  done, or cut short by --time-limit (what was done is printed, then what was cut)\n"
              "  2  an invalid spec, input file or option (a message says where)")
PLOT_NEEDS = "--plot draws the curves of --sweep or, with several data sets, the critical difference diagram"
EXAMPLES = """\
  verify evaluate specs/accuracy-u65.yaml predictions.csv --f-beta 1
  verify evaluate specs/accuracy-u65.yaml predictions.csv --table latex
  verify evaluate specs/accuracy-u65.yaml predictions.csv --pairs best
  verify evaluate specs/accuracy-u65.yaml --probabilities probs.csv --truth truth.csv
  verify evaluate specs/p-discounted-symbolic.yaml predictions.csv --sweep r=0:1:21 --plot curves.svg
  verify evaluate SPEC --probabilities probs.csv --truth truth.csv --sweep mu=0:4:21 --sweep nu=0:1:21"""


def _parser() -> options.Parser:
    p = options.Parser(prog="verify evaluate", examples=EXAMPLES, exit_codes=EXIT_CODES,
                       description="Score set-valued classifiers under the spec: mean cost (Eq. 4) with a bootstrap "
                                   "interval, determinacy, set size, accuracies, u65/u80, F-beta, and paired tests.")
    p.add_argument("spec", metavar="SPEC", nargs="?")
    p.add_argument("predictions", metavar="PREDICTIONS", nargs="*",
                   help="CSV with columns true, predicted[, classifier][, dataset], or boolean masks .npy with "
                   "--truth; several files are several data sets (named by their file stems)")
    p.add_argument("--truth", default=None, metavar="FILE", help="true classes for .npy masks or --probabilities (.npy "
                   "of indices, or class names one per line)")
    p.add_argument("--probabilities", action="append", default=None, metavar="FILE",
                   help="a classifier's class probabilities (CSV with a header of class names, or an (N, K) .npy): "
                   "each row's optimal set under the scheme is predicted, then scored (repeat for more classifiers)")
    p.add_argument("--scores", default=None, metavar="FILE",
                   help="binary classifiers' scores (CSV, one column per classifier, higher meaning the spec's "
                   "first class; true classes in a 'true' column or --truth): abstention cost curves over one or "
                   "two --sweep parameters, with VACC (Friedel et al.)")
    p.add_argument("--figures", default=None, metavar="DIR", help="with --scores: write each classifier's maps "
                   "and each pair's differential cost (or, with --threshold-choice, the cost curves) into DIR (svg "
                   "and pdf); with --extra-stats over several data sets: baycomp's plot of each Bayesian comparison")
    p.add_argument("--figure-layout", default="column", choices=("column", "grid", "row"),
                   help="with --figures: the abstention maps' four panels stacked (column, the default), 2 x 2 "
                   "(grid, compact) or side by side (row, two columns wide)")
    p.add_argument("--figure-width", type=float, default=None, metavar="INCHES",
                   help="with --figures: the figures' width (default one column, 3.5; two columns: 7.16)")
    p.add_argument("--threshold-choice", default=None, choices=("score", "rate", "optimal"),
                   help="with --scores and a spec with one symbolic cost parameter: the expected loss when the "
                   "parameter the thresholds are set with is uncertain (Hernandez-Orallo et al.)")
    p.add_argument("--uncertainty", action="append", default=None, metavar="GAMMA",
                   help="with --threshold-choice: a certainty of the presumed value, 0 (complete uncertainty) to "
                   "inf (none); repeatable (default 0, 1, 4, 16, inf)")
    p.add_argument("--weight", default=None, metavar="uniform|beta:A,B",
                   help="with --threshold-choice: how the true value is weighted (default uniform)")
    p.add_argument("--f-beta", action="append", default=[], metavar="BETA", help="also report F-beta (repeatable)")
    p.add_argument("--level", type=options.fraction_between_0_and_1, default=0.95,
                   help="bootstrap interval level (default 0.95)")
    p.add_argument("--alpha", type=options.fraction_between_0_and_1, default=0.05, help="test level (default 0.05)")
    p.add_argument("--pairs", default=None, metavar="all|best|NAME",
                   help="which pairs the paired tests compare: every pair of a data set (all), each classifier "
                   "against the best (lowest mean cost), or each against the classifier NAME (name:NAME for one "
                   "named all or best; default: all, up to 1,000 pairs; best beyond); with --scores, the pairs whose "
                   "differential costs are made and drawn (default: all, up to 100 pairs a data set; best, the "
                   "least VACC, beyond)")
    p.add_argument("--sweep", action="append", default=None, metavar="NAME=FROM:TO:POINTS",
                   help="mean cost as a symbolic parameter varies, e.g. r=0.1:2:20; twice: a surface over two "
                   "(with --probabilities: mean cost, indeterminacy rate and set size of the optimal sets; with "
                   "--scores: abstention cost curves)")
    p.add_argument("--plot", default=None, metavar="FILE", help="with --sweep: draw the curves (two sweeps: the "
                   "heat maps); with several data sets: the critical difference diagram (.svg, .pdf or .png)")
    p.add_argument("--extra-stats", action="store_true",
                   help="also Benjamini-Hochberg, Conover's post-hoc test and the Bayesian signed-rank test over the "
                   "data sets (the optional extra: pip install 'verify-set-costs[stats]')")
    p.add_argument("--rope", type=options.non_negative_number, default=None, metavar="R",
                   help="with --extra-stats: the region of practical equivalence of the Bayesian tests, mean costs "
                   "within ±R (default 0.01)")
    p.add_argument("--hierarchical", action="store_true",
                   help="with --extra-stats: also baycomp's hierarchical Bayesian test on the per-instance costs "
                   "(needs pystan: pip install 'verify-set-costs[hierarchical]'; Stan compiles its model the first "
                   "time, minutes)")
    p.add_argument("--table", choices=("csv", "markdown", "latex"), default=None,
                   help="print the classifiers x measures table for a paper instead (LaTeX: booktabs)")
    p.add_argument("--rank-table", choices=("csv", "markdown", "latex", "latex-transposed"), default=None,
                   help="with several data sets: print the data sets x classifiers table of mean costs and ranks "
                   "instead, best per data set marked, average ranks last (latex-transposed: classifiers as rows)")
    certainty_option.add_options(p)
    p.add_argument("-v", "--verbose", action="store_true", help="over several data sets: after the answer, each "
                   "data set's scores and each pair's tests in full (by default the answer, one line per data set "
                   "and per pair over the data sets)")
    options.add_shared(p, "format", "time-limit", "quiet", "report", "width", pipe_width=None)
    return p


def evaluate_command(argv: list[str], stdout: TextIO, stderr: TextIO) -> int:
    """`verify evaluate ARGV`: its exit status."""
    return use_command("evaluate", _parser(), _evaluate, argv, stdout, stderr)


def _evaluate(args, stderr: TextIO):
    """The scores, the extra statistics and the ranks table; the figures, report files and plot written."""
    from verifier import api

    if (args.threshold_choice or args.uncertainty or args.weight) and not (args.scores or args.probabilities):
        raise UsageError("--threshold-choice, --uncertainty and --weight evaluate binary scores (--scores "
                         "FILE) or class probabilities (--probabilities FILE --truth FILE)")
    if not args.predictions and not args.probabilities and not args.scores:
        raise UsageError("no predictions file given; usage: verify evaluate SPEC PREDICTIONS.csv, "
                         "verify evaluate SPEC --probabilities PROBS.csv --truth TRUTH.csv, or verify "
                         "evaluate SPEC --scores SCORES.csv with --sweep or --threshold-choice")
    fmt = _plot_format(args.plot, args.sweep)
    if args.table and (args.sweep or args.format == "json"):
        raise UsageError("--table prints the scores table; it does not combine with --sweep or --format json")
    if args.rank_table and (args.table or args.sweep or args.format == "json" or args.extra_stats):
        raise UsageError("--rank-table prints the ranks table; it does not combine with --table, --sweep, "
                         "--extra-stats or --format json")
    if (args.figure_layout != "column" or args.figure_width is not None) and args.figures is None:
        raise UsageError("--figure-layout and --figure-width shape the files of --figures DIR; give --figures")
    if (args.hierarchical or args.rope is not None) and not args.extra_stats:
        raise UsageError("--rope and --hierarchical set the Bayesian tests of --extra-stats; give "
                         "--extra-stats")
    from verifier.report.output import refuse_overwriting_inputs

    inputs = [("spec", args.spec), ("--truth", args.truth), ("--scores", args.scores),
              *(("predictions", p) for p in args.predictions),
              *(("--probabilities", p) for p in args.probabilities or [])]
    refuse_overwriting_inputs({"--plot": args.plot}, inputs)
    certainty_option.check(args, inputs)
    if args.report is not None:
        from verifier.report.use import check_report

        check_report(args.report, args.spec, inputs)
    files = args.predictions[0] if len(args.predictions) == 1 else (args.predictions or None)
    sweep = args.sweep[0] if args.sweep and len(args.sweep) == 1 and not args.scores else args.sweep
    began = time.monotonic()  # the figures count against the same --time-limit
    result = api.evaluate(args.spec, predictions=files, truth=args.truth, f_beta=args.f_beta,
                          probabilities=args.probabilities,
                          level=args.level, alpha=args.alpha, sweep_text=sweep,
                          time_limit=args.time_limit, pairs=args.pairs, scores=args.scores,
                          threshold_choice=args.threshold_choice, uncertainty=args.uncertainty,
                          weight=args.weight, logits=args.logits)
    certainty_option.add_certainty(args, result, stderr)
    rope = 0.01 if args.rope is None else args.rope
    extra = result.extra_stats(rope, args.hierarchical) if args.extra_stats else None
    ranks_text = (result.rank_table(args.rank_table.split("-")[0], args.rank_table.endswith("transposed"))
                  if args.rank_table else None)
    if args.figures is not None:
        from verifier.report.use import use_figures

        limit = None if args.time_limit is None else float(args.time_limit)
        written = use_figures(result, args.figures, ("svg", "pdf"), inputs,
                              None if limit is None else began + limit, limit, layout=args.figure_layout,
                              width=args.figure_width, others=[("--plot", args.plot)] if args.plot else [])
        for path in written.values():
            print(f"verify: wrote {path}", file=stderr)
        if written.cut:
            print(f"verify: stopped: {written.cut}", file=stderr)
    if args.report is not None:
        from verifier.report.use import write_use_report

        full = options.wrap_lines(result.shown(verbose=True) + ("\n".join(extra_lines(extra, args.alpha))
                                                                  + "\n" if extra else ""), None)
        record = result.to_json() if not extra else {**result.to_json(), "extra_stats": extra}
        for path in write_use_report(result, args.report, args.spec, full, record):
            print(f"verify: wrote {path}", file=stderr)
    if fmt:
        from verifier.report.output import write_output

        picture = result.picture(fmt)
        if not picture:  # NoPicture: nothing to draw
            raise UsageError(f"{PLOT_NEEDS}; {_why_no_picture(result)}")
        write_output(args.plot, picture, "--plot")
        print(f"verify: wrote {args.plot}", file=stderr)
    return result, extra, ranks_text


def _plot_format(path: str | None, sweep: str | None) -> str | None:
    """The --plot file's format; whether there is something to draw is known once the predictions are read."""
    return options.plot_format(path)


def _why_no_picture(result) -> str:
    comparison = getattr(result, "comparison", None)
    if comparison is not None and comparison.why_no_friedman:
        return comparison.why_no_friedman
    return ("give --sweep NAME=FROM:TO:POINTS, or several classifiers on several data sets (one file per data set, "
            "or a 'dataset' column)")
