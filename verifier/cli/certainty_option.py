"""`verify evaluate --certainty [--doubt-plot FILE]`: the certainty and doubt of each classifier's decisions
(Berenbeim et al.), added to the evaluation's text and JSON (key "certainty"), and the ECDF of doubt drawn to
FILE. Kept apart from `cli.evaluate` so that the option is one call there."""

from __future__ import annotations

from verifier.errors import UsageError


def _format(path: str) -> str:
    fmt = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if fmt not in ("svg", "pdf", "png"):
        raise UsageError(f"--doubt-plot {path!r}: the file name must end in .svg, .pdf or .png")
    return fmt


def add_options(p) -> None:
    """Add --certainty, --doubt-plot and --logits to the `verify evaluate` parser."""
    p.add_argument("--certainty", action="store_true", help="with --probabilities: the certainty and doubt of "
                   "each decision (Berenbeim et al.) per classifier, how they relate to being right, and a paired "
                   "test of the classifiers' per-row minimum certainty")
    p.add_argument("--doubt-plot", default=None, metavar="FILE", help="with --certainty: the ECDF of each "
                   "classifier's maximum doubt (.svg, .pdf or .png)")
    p.add_argument("--logits", action="store_true", help="with --probabilities: the files hold logits (any finite "
                   "reals), decided exactly on their softmax; with --certainty, the raw certainty and doubt")


def check(args, inputs) -> None:
    """Refuse what does not combine, before any work."""
    if args.doubt_plot is not None and not args.certainty:
        raise UsageError("--doubt-plot draws what --certainty computes; give --certainty too")
    if not args.certainty:
        return
    if not args.probabilities or args.sweep or args.scores or args.table:
        raise UsageError("--certainty goes with --probabilities FILE --truth FILE, without --sweep, --scores or "
                         "--table")
    if args.doubt_plot is not None:
        _format(args.doubt_plot)
        from verifier.report.output import refuse_overwriting_inputs

        refuse_overwriting_inputs({"--doubt-plot": args.doubt_plot}, inputs)


def add_certainty(args, result, stderr) -> None:
    """The certainty report appended to `result` (text and record), and the figure written."""
    if not args.certainty:
        return
    from verifier.api.use import certainty

    report = certainty(args.spec, args.probabilities, truth=args.truth, alpha=args.alpha, logits=args.logits)
    before = result.shown(verbose=True)
    result.text += "\n" + report.text
    if getattr(result, "quiet_text", ""):  # every view the command may print ends with it
        result.quiet_text += "\n" + report.text
    if report.verbose_text or result.verbose_text:  # -v: the detail of both
        result.verbose_text = before + "\n" + (report.verbose_text or report.text)
    result.record["certainty"] = report.record
    if args.doubt_plot is not None:
        from verifier.report.output import write_output

        write_output(args.doubt_plot, report.picture(_format(args.doubt_plot)), "--doubt-plot")
        print(f"verify: wrote {args.doubt_plot}", file=stderr)
