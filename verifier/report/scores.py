"""What `verify evaluate` says about each classifier, as text and JSON: exact scores as exact strings, the
bootstrap interval labelled as a statistical estimate; and a sweep's curves."""

from __future__ import annotations

from fractions import Fraction

from verifier.analysis.use.curves import Sweep
from verifier.analysis.use.evaluate import Scores


def _frac(x: Fraction | None) -> str | None:
    return None if x is None else str(x)


def scores_json(s: Scores) -> dict:
    return {"classifier": s.name, "n": s.n, "mean_cost": str(s.mean_cost), "mean_cost_float": s.mean_cost_float,
            "bootstrap_interval": {"level": s.level, "low": s.interval[0], "high": s.interval[1]},
            "determinacy": str(s.determinacy), "mean_set_size": str(s.mean_size),
            "single_set_accuracy": _frac(s.single_accuracy), "set_accuracy": str(s.set_accuracy),
            "discounted_accuracy": str(s.discounted_accuracy), "u65": str(s.u65), "u80": str(s.u80),
            "f_beta": {b: str(v) for b, v in s.f_beta.items()}}


def scores_text(scores: list[Scores]) -> list[str]:
    lines = []
    for s in scores:
        mean = str(s.mean_cost) if s.mean_cost.is_Rational else f"{s.mean_cost} ≈ {s.mean_cost_float:.6g}"
        lines += [f"{s.name} ({s.n} predictions)",
                  f"  mean cost (Eq. 4, exact)      {mean}" + (f" ≈ {s.mean_cost_float:.4f}" if s.mean_cost.is_Rational
                                                                and not s.mean_cost.is_Integer else ""),
                  f"  {int(s.level * 100)}% bootstrap interval        [{s.interval[0]:.4f}, {s.interval[1]:.4f}] "
                  "(a statistical estimate)",
                  f"  determinacy                   {s.determinacy} ≈ {float(s.determinacy):.4f}",
                  f"  mean set size                 {s.mean_size} ≈ {float(s.mean_size):.4f}",
                  "  single-set accuracy           " + ("n/a (no determinate prediction)" if s.single_accuracy
                                                          is None else f"{float(s.single_accuracy):.4f}"),
                  f"  set accuracy                  {float(s.set_accuracy):.4f}",
                  f"  discounted accuracy           {float(s.discounted_accuracy):.4f}",
                  f"  u65 / u80                     {float(s.u65):.4f} / {float(s.u80):.4f}"]
        lines += [f"  F{b}".ljust(32) + f"{float(v):.4f}" for b, v in s.f_beta.items()]
    return lines


def sweep_json(s: Sweep) -> dict:
    return {"parameter": s.parameter, "grid": [str(x) for x in s.grid], "excluded": [str(x) for x in s.excluded],
            "curves": [{"classifier": c.name, "mean_cost": str(c.expression), "values": c.values} for c in s.curves]}
