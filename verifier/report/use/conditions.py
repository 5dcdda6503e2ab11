"""What `verify evaluate SPEC --scores FILE --threshold-choice METHOD` says, as text and JSON: per classifier the
expected loss L_v for each certainty γ (exact where it is, else with its error), the paper's identities checked
exactly on the data, and which classifier is cheaper at each γ (with a paired test on instance losses)."""

from __future__ import annotations

import textwrap
from fractions import Fraction

from verifier.using.operating import GRID, Conditions

WIDTH = 110
PAIRS_SHOWN = 3  # pairs said one by one by default (three classifiers); beyond, the cheapest at each gamma
NAMES = {"score": "score-driven", "rate": "rate-driven", "optimal": "optimal (test-optimal)"}


def _wrap(text: str, indent: int = 0) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=" " * indent, subsequent_indent=" " * (indent + 2),
                         break_on_hyphens=False, break_long_words=False)


def gamma_text(g) -> str:
    """A certainty γ as text: "inf" for complete certainty (None), else the number."""
    return "inf" if g is None else f"{g:g}"


def _loss_text(loss) -> str:
    if loss.exact_value is not None:
        return f"{loss.value:.5f} (exact)"
    return f"{loss.value:.5f} ± {loss.error:.0e}"


def conditions_lines(r: Conditions, verbose: bool = True) -> list[str]:
    """The whole text (`verbose`), or the default's: with more than PAIRS_SHOWN pairs, the identities in one line
    when they all hold and the cheapest classifier at each gamma instead of every pair."""
    weight = "uniformly" if r.weight.uniform else f"by Beta({r.weight.a}, {r.weight.b})"
    lines = _wrap(f"Operating-condition uncertainty (Hernández-Orallo et al.) of {r.path}: {NAMES[r.method]} "
                  f"thresholds set at a presumed {r.parameter} drawn from a Beta distribution with mode the true "
                  f"{r.parameter} and certainty gamma (0: complete uncertainty, inf: none), the true {r.parameter} "
                  f"weighted {weight}. Losses are mean costs in the spec's own units"
                  + (" (the paper's normalisation: costs 2c and 2(1 - c), so that c = 1/2 costs the error rate)."
                     if r.paper else "."))
    head = "  " + f"{'L at gamma =':<18}" + "".join(f"{gamma_text(g):<18}" for g in r.gammas)
    lines += ["", head.rstrip()]
    for c in r.classifiers:
        lines.append(("  " + f"{c.label[:17]:<18}" + "".join(f"{_loss_text(c.losses[g]):<18}"
                                                             for g in r.gammas)).rstrip())
    brief = not verbose and len({(p.first, p.second, p.dataset) for p in r.pairs}) > PAIRS_SHOWN
    lines += _identities(r, brief)
    lines += _cheapest(r) if brief else _pairs(r)
    numeric = [g for g in r.gammas if g not in (0, None)]
    if numeric:
        lines += _wrap("Between 0 and inf the losses are numerical (Gauss-Legendre in the true value, the Beta "
                       "distribution by scipy's regularised incomplete beta); '±' is the error estimated against "
                       "a rule of half the nodes plus a bound on the rounding of each cost curve value.", 2)
    return lines


def _identity_checks(r: Conditions) -> list[tuple[str, list[tuple[str, Fraction, bool]]]]:
    """Per classifier, the paper's identities checked exactly: (its label, [(identity, expected value, holds)])."""
    out = []
    for c in r.classifiers:
        ids = c.identities
        if ids is None:
            continue
        checks = []
        if r.method == "score":
            checks += [("L(inf) = Brier score", c.losses.get(None), ids.brier),
                       ("L(0) = mean absolute error", c.losses.get(0), ids.mae)]
        elif r.method == "rate":
            checks += [("L(0) = pi0 pi1 (1 - 2 AUC) + 1/2", c.losses.get(0), ids.corollary_2),
                       ("L(inf) = pi0 pi1 (1 - 2 AUC) + 1/3", c.losses.get(None), ids.rate_certain)]
        else:
            checks += [("K(c) at gamma 0 = 2 pi0 s*0 for every c", c.losses.get(0), ids.theorem_6)]
            if 0 in c.losses and None in c.losses:
                checks += [("L(0) = 2 L(inf)", c.losses[0], 2 * c.losses[None].exact_value)]
        said = []
        for text, loss, expected in checks:
            if loss is None or loss.exact_value is None:
                continue
            holds = loss.exact_value == expected
            if text.startswith("K(c)"):
                values, _ = c.curves[0]
                holds = all(v == expected for v in values)
            said.append((text, expected, holds))
        if said:
            out.append((c.label, said))
    return out


def _identities(r: Conditions, brief: bool = False) -> list[str]:
    """Each classifier's identities with their values; `brief`: one sentence when every one holds."""
    checks = _identity_checks(r)
    if not checks:
        return []
    head = [""] + _wrap("The paper's results on these data (uniform weight, exact rationals):", 0)
    if brief and all(holds for _, said in checks for _, _, holds in said):
        names = list(dict.fromkeys(text for _, said in checks for text, _, _ in said))
        return [""] + _wrap(f"The paper's results on these data (uniform weight, exact rationals) hold exactly for "
                            f"all {len(checks):,} classifiers: {'; '.join(names)} (each value with -v).", 0)
    return head + [line for label, said in checks for line in _wrap(
        f"{label}: " + "; ".join(f"{text} ({_num(expected)}): "
                                 f"{'holds exactly' if holds else 'DOES NOT HOLD (a bug: report it)'}"
                                 for text, expected, holds in said) + ".", 2)]


def _num(x: Fraction) -> str:
    return str(x) if x.denominator < 10 ** 4 else f"{float(x):.6f}..."


def _pairs(r: Conditions) -> list[str]:
    """One row per pair: the cheaper classifier at each gamma (with the Holm-adjusted p of the paired test)."""
    if not r.pairs:
        return []
    out = ["", *_wrap("The cheaper classifier at each gamma: exactly where both losses are exact, else by more than "
                      "both errors; p: paired Wilcoxon signed-rank on the instances' losses (gamma 0 and inf), "
                      "Holm-adjusted over every test, with the classifier its signed ranks favour.")]
    rows = {}
    for p in r.pairs:
        key = (p.first, p.second, p.dataset)
        cell = pair_cell(p.cheaper, p.test_favours, p.p_holm)
        rows.setdefault(key, []).append(f"{gamma_text(p.gamma)}: {cell}")
    for (first, second, dataset), cells in rows.items():
        pair = f"{first} vs {second}" + (f" ({dataset})" if dataset else "")
        out += _wrap(f"{pair}: " + "; ".join(cells), 2)
    return out


def _cheapest(r: Conditions) -> list[str]:
    """At each gamma the classifier decided cheaper than every other one, pair by pair (none when no classifier is),
    per data set; each pair's sentence and test with -v."""
    pairs = {(p.first, p.second, p.dataset) for p in r.pairs}
    out = ["", *_wrap(f"The cheapest classifier at each gamma, decided pair by pair as with -v (exactly where both "
                      f"losses are exact, else by more than both errors): {len(pairs):,} pairs, each with its paired "
                      "test, with -v or in --format json.")]
    for dataset in dict.fromkeys(c.dataset for c in r.classifiers):
        names = [c.label for c in r.classifiers if c.dataset == dataset]
        cells = []
        for g in r.gammas:
            mine = [p for p in r.pairs if p.gamma == g and p.dataset == dataset]
            best = [n for n in names if sum(p.cheaper == n for p in mine) == len(names) - 1]
            cells.append(f"{gamma_text(g)}: {best[0] if best else 'none alone'}")
        out += _wrap(("" if dataset is None else f"{dataset}: ") + "; ".join(cells), 2)
    return out


def pair_cell(cheaper: str | None, favours: str | None, p_holm: float | None) -> str:
    """Which classifier has the lower mean loss and, beside the test's p, which one the test favours: both
    said when they differ (the test ranks the instances' differences, it does not compare the means)."""
    lower = cheaper or "undecided"
    if p_holm is None:
        return lower
    if favours is None:
        return f"{lower} (p {p_holm:.2g}; the test favours neither)"
    if favours == cheaper:
        return f"{lower} (p {p_holm:.2g}, the test favours {favours} too)"
    if cheaper is None:
        return f"undecided by the means; the test favours {favours} (p {p_holm:.2g})"
    return f"{cheaper} has the lower mean loss, yet the test favours {favours} (p {p_holm:.2g})"


def conditions_json(r: Conditions) -> dict:
    """The operating-condition result as JSON data: per classifier its losses and cost curves by γ and the identities
    checked, and the pairs compared."""
    return {"method": r.method, "parameter": r.parameter,
            "weight": "uniform" if r.weight.uniform else {"beta": [str(r.weight.a), str(r.weight.b)]},
            "gammas": [gamma_text(g) for g in r.gammas], "grid": [str(x) for x in GRID],
            "paper_normalisation": r.paper,
            "classifiers": [{
                "classifier": c.name, "dataset": c.dataset, "n": c.n,
                "loss": {gamma_text(g): {"value": l.value,
                                         "exact": None if l.exact_value is None else str(l.exact_value),
                                         "error": l.error, "method": l.method} for g, l in c.losses.items()},
                "curve": {gamma_text(g): {"values": [str(v) if isinstance(v, Fraction) else v for v in values],
                                          "error_bound": bound} for g, (values, bound) in c.curves.items()},
                "identities": None if c.identities is None else
                {k: str(v) for k, v in vars(c.identities).items()}} for c in r.classifiers],
            "pairs": [{"first": p.first, "second": p.second, "dataset": p.dataset, "gamma": gamma_text(p.gamma),
                       "cheaper": p.cheaper, "difference": p.difference, "p_value": p.p_value, "p_holm": p.p_holm,
                       "test_favours": p.test_favours, "sentence": pair_cell(p.cheaper, p.test_favours, p.p_holm)}
                      for p in r.pairs]}
