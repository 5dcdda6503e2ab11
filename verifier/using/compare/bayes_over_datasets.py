"""Bayesian comparisons of two classifiers over several data sets, computed by baycomp (the optional extra
`stats`): the Bayesian signed-rank test on the per-data-set mean costs (Benavoli et al. 2014, 2017;
baycomp.SignedRankTest), and, asked for, the hierarchical test on the per-instance costs of every data set (Corani
et al. 2017; baycomp.HierarchicalTest, an MCMC run by Stan through pystan). Each gives the posterior probabilities
that a costs less by more than the rope, that the two are within ±rope of each other (practically equivalent),
and that b costs less by more than the rope.

baycomp takes scores where larger is better: it is given the negated costs, so that its 'left' is a's lower
cost. Its draws are seeded with SEED: the signed-rank test's Monte Carlo draws (random_state) and the
hierarchical test's Stan sampler (baycomp does not pass its random_state to Stan: stan.build is given
random_seed=SEED for the call). The hierarchical test needs pystan, which is not part of the extra (it compiles
the Stan model with a C++ compiler, minutes the first time, and brings httpstan, about 350 MB): a usage error
says how to install it. baycomp keeps its last sample in the working directory (last-sample.pickle): the call
runs in a temporary directory, removed after, and pystan's progress output is kept off the report. Posterior
probabilities are statistical estimates in floats, never verdicts."""

from __future__ import annotations

import contextlib
import functools
import io
import os
import tempfile
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from verifier.errors import UsageError

EXTRA = "pip install 'verify-set-costs[stats]'"
HIERARCHICAL_INSTALL = ("pip install 'verify-set-costs[hierarchical]' (or pip install 'pystan>=3.4'; it is not in "
                        "the extra 'stats': Stan compiles its model with a C++ compiler, minutes the first time)")
SEED = 20170101
CHAINS, DRAWS = 4, 2500  # Stan chains and draws per chain: 10,000 posterior draws of the hierarchical test
SIGNED_RANK = ("Bayesian signed-rank test over the data sets (Benavoli et al. 2017; baycomp.SignedRankTest, as "
               "two_on_multiple runs it) on the mean costs, region of practical equivalence ±rope: posterior "
               f"probabilities, a Monte Carlo estimate (50,000 draws, random_state {SEED})")
HIERARCHICAL = ("Bayesian hierarchical test over the data sets (Corani et al. 2017; baycomp.HierarchicalTest) on "
                "the per-instance costs of each data set, region of practical equivalence ±rope: posterior "
                f"probabilities from Stan's MCMC ({CHAINS} chains x {DRAWS:,} draws, random_seed {SEED})")


def library(name: str, what: str, install: str | None = None):
    """The optional library `name`, or a usage error saying how to install it (default: the extra `stats`)."""
    import importlib

    try:
        return importlib.import_module(name)
    except ImportError:
        how = install or f"{EXTRA} (or pip install {name.replace('_', '-')})"
        raise UsageError(f"{what} needs {name}, an optional dependency: {how}") from None


@dataclass
class BayesPair:
    """One Bayesian comparison of a and b: baycomp's posterior (`sample`: draws x (a lower, rope, b lower))."""

    a: str
    b: str
    test: str  # 'signed-rank' or 'hierarchical'
    posterior: object  # baycomp's Posterior of the negated costs
    at_rope: str | None = None  # where exact differences lie on the rope's edge (baycomp weighs them ½), or None

    @property
    def probabilities(self) -> tuple[float, float, float]:
        """P(a costs less), P(practically equivalent), P(b costs less)."""
        left, rope, right = self.posterior.probs()
        return float(left), float(rope), float(right)


def signed_rank(a: str, b: str, a_means: np.ndarray, b_means: np.ndarray, rope: float,
                exact_differences: list[Fraction] | None = None) -> BayesPair:
    """baycomp's Bayesian signed-rank test of a's and b's mean costs over the data sets (the correctly rounded
    means); with the exact differences a − b per data set, whether any lies on the rope's edge."""
    baycomp = library("baycomp", "the Bayesian signed-rank test")
    posterior = baycomp.SignedRankTest(-np.asarray(a_means, float), -np.asarray(b_means, float), rope,
                                       random_state=SEED)
    note = None if exact_differences is None else on_rope_edge(exact_differences, rope,
                                                                np.asarray(a_means, float) - np.asarray(b_means, float))
    return BayesPair(a, b, "signed-rank", posterior, note)


def on_rope_edge(d: list[Fraction], rope: float, floats: np.ndarray) -> str | None:
    """baycomp's signed-rank test compares every d_i + d_j (i ≤ j, with d_0 = 0: each d_i alone too) with ±2·rope
    and weighs equality ½: the sentence saying how many are exactly on that edge, and how many of them baycomp's
    float differences see as equal (None when none is)."""
    edge = 2 * Fraction(repr(float(rope)))  # the rope as typed: the shortest decimal of its float
    values = [Fraction(0)] + list(d)
    computed = np.concatenate([[0.0], floats])
    exact = [(i, j) for i in range(len(values)) for j in range(i, len(values)) if abs(values[i] + values[j]) == edge
             and edge != 0]
    if not exact:
        return None
    seen = sum(1 for i, j in exact if abs(computed[i] + computed[j]) == 2 * rope)
    return (f"{len(exact)} sum(s) of two per-data-set differences d_i + d_j (or d_i alone) equal ±2·rope exactly, "
            f"where baycomp weighs a sum ½ each side; its float differences see {seen} of them as equal")


def hierarchical(a: str, b: str, a_costs: np.ndarray, b_costs: np.ndarray, rope: float) -> BayesPair:
    """baycomp's hierarchical test of a's and b's per-instance costs, (data sets x instances) each."""
    baycomp = library("baycomp", "the hierarchical Bayesian test")
    stan = library("stan", "the hierarchical Bayesian test (baycomp.HierarchicalTest)", HIERARCHICAL_INSTALL)
    build = stan.build
    here = os.getcwd()
    quiet = io.StringIO()
    try:
        stan.build = functools.partial(build, random_seed=SEED)  # baycomp passes no seed to Stan
        with tempfile.TemporaryDirectory(prefix="verify-stan-") as scratch, \
                contextlib.redirect_stdout(quiet), contextlib.redirect_stderr(quiet):
            os.chdir(scratch)  # baycomp writes last-sample.pickle into the working directory
            try:
                posterior = baycomp.HierarchicalTest(-np.asarray(a_costs, float), -np.asarray(b_costs, float), rope,
                                                     chains=CHAINS, nsamples=DRAWS, random_state=SEED)
            finally:
                os.chdir(here)
    except (RuntimeError, ValueError, OSError) as exc:  # Stan could not compile or sample
        raise UsageError(f"the hierarchical Bayesian test could not run: {type(exc).__name__}: {exc}") from None
    finally:
        stan.build = build
    return BayesPair(a, b, "hierarchical", posterior)


def why_not_hierarchical(sizes: dict[str, int]) -> str | None:
    """Why the hierarchical test cannot take these data sets (name -> instances), or None."""
    if len(set(sizes.values())) > 1:
        shown = ", ".join(f"{d}: {n}" for d, n in list(sizes.items())[:6]) + (", ..." if len(sizes) > 6 else "")
        return ("the hierarchical test was not run: baycomp's HierarchicalTest takes the same number of scores "
                f"on every data set, and these data sets differ in size ({shown})")
    if min(sizes.values()) < 2:
        return "the hierarchical test was not run: it needs at least two instances on every data set"
    return None


def why_not_pair(a: str, b: str, datasets: list[str], a_costs: np.ndarray, b_costs: np.ndarray) -> str | None:
    """Why baycomp's hierarchical test cannot take this pair, or None: on a data set where every difference of
    the two costs is the same, baycomp replaces the differences by half uniform noise within ±rope and half its
    negation, which fails (baycomp 1.0.3: a shape error) when the number of instances is odd."""
    n = a_costs.shape[1]
    constant = [d for d, row in zip(datasets, b_costs - a_costs) if np.var(row) == 0]
    if constant and n % 2:
        return (f"{a} vs {b}: not run, their costs differ by the same amount on every instance of data set(s) "
                f"{', '.join(constant[:6])}{', ...' if len(constant) > 6 else ''}, which baycomp's HierarchicalTest "
                f"replaces by noise within the rope only for an even number of instances (here {n})")
    return None
