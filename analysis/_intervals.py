"""Intervals for comparisons, and the words a comparison may use (a helper module, not a
study: the registry skips names starting with ``_``).

A headline may call one estimate higher or lower than another only when an interval of
their difference excludes 0; two separate intervals that overlap do not say there is no
difference, and point estimates alone say nothing.  These helpers compute such intervals
where the studies had none:

- :func:`newcombe_diff`: two independent proportions (Newcombe 1998, method 10: the
  hybrid score interval built from the two Wilson intervals; statsmodels'
  ``confint_proportions_2indep(method="newcomb")``);
- :func:`ratio_ci` / :func:`ratio_diff_ci`: a ratio of sums (a mean over positions or
  hands pooled across games) with observations clustered by game, by linearization
  (each game one observation), with Student's t quantile on games - 1 degrees of
  freedom (scipy); no library function computes this interval, so the code is ours.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from crowns_solver._text import number, percent
from crowns_solver.errors import StudyError
from crowns_solver.montecarlo import cluster_variance, ratio_influence

from .base import note_sample


def newcombe_diff(k1: float, n1: float, k2: float, n2: float) -> tuple[float, float, float]:
    """Difference of two independent proportions, ``k1/n1 - k2/n2``, with its 95%
    hybrid score interval (Newcombe 1998, method 10), from statsmodels
    (``statsmodels.stats.proportion.confint_proportions_2indep(method="newcomb")``).

    Parameters
    ----------
    k1, n1, k2, n2 : float
        Successes and trials of each sample (``n1, n2 >= 1``, ``0 <= k <= n``; a draw
        may count 1/2).

    Returns
    -------
    (difference, low, high) : float
        The bounds lie in -1..1; 0 or all successes in a sample still give an interval
        of positive width (56/70 against 48/80: 0.200, 0.0524 to 0.3339, Newcombe's
        example).

    Raises
    ------
    StudyError
        If a sample has no trials or its successes are negative or exceed its trials.
    """
    from statsmodels.stats.proportion import confint_proportions_2indep

    for k, n, which in ((k1, n1, "first"), (k2, n2, "second")):
        if not (n >= 1 and 0 <= k <= n):
            raise StudyError(f"a difference of rates needs 0 <= successes <= trials and trials >= 1;"
                             f" the {which} sample has {k!r} of {n!r}")
    d = k1 / n1 - k2 / n2
    low, high = confint_proportions_2indep(k1, n1, k2, n2, method="newcomb", compare="diff", alpha=0.05)
    return float(d), float(low), float(high)


def ratio_diff_ci(num1: Sequence[float], den1: Sequence[float], num2: Sequence[float] | None = None,
                  den2: Sequence[float] | None = None) -> tuple[float, float, float]:
    """``sum(num1)/sum(den1) - sum(num2)/sum(den2)`` with a 95% interval that treats each
    index (a game: its observations are not independent) as one observation
    (linearization, the cluster-robust standard error of a pooled mean), estimate +-
    t(0.975, games - 1) standard errors (Student's quantile from scipy; it was the normal
    1.96 before session 20).

    Parameters
    ----------
    num1, den1 : array_like of float
        Per game: the sum of the observations and their count (or any numerator and
        denominator), for the first ratio.
    num2, den2 : array_like of float, optional
        The same for the second ratio, from the same games; omitted: the first ratio alone.

    Returns
    -------
    (estimate, low, high) : float
        NaN bounds with fewer than 2 games; all NaN where a denominator sums to 0 (no
        games, or none with a trial).
    """
    if not all(float(np.sum(np.asarray(d, dtype=float))) > 0 for d in (den1, den2) if d is not None):
        # no trials (no games, or none counted): the ratio is undefined, as it was before
        # ratio_influence refused it (session 24)
        return math.nan, math.nan, math.nan
    est, infl = ratio_influence(num1, den1)
    if num2 is not None:
        r2, infl2 = ratio_influence(num2, den2)
        infl = infl - infl2
        est = est - r2
    g = infl.size
    note_sample(g)
    if g < 2:
        return float(est), math.nan, math.nan
    from scipy.stats import t

    se = math.sqrt(cluster_variance(infl))
    q = float(t.ppf(0.975, g - 1))
    return float(est), float(est - q * se), float(est + q * se)


def ratio_ci(num: Sequence[float], den: Sequence[float]) -> tuple[float, float, float]:
    """``sum(num)/sum(den)`` with its 95% interval, each index one observation
    (:func:`ratio_diff_ci` with one ratio).

    Parameters
    ----------
    num, den : array_like of float
        Per game: the sum of the observations and their count.

    Returns
    -------
    (estimate, low, high) : float
    """
    return ratio_diff_ci(num, den)


def sign_word(low: float, high: float, above: str, below: str, neither: str, unknown: str | None = None) -> str:
    """The words a difference's interval allows.

    Parameters
    ----------
    low, high : float
        The 95% interval of a difference.
    above, below, neither : str
        The words for an interval above 0, below 0, and covering 0.
    unknown : str, optional
        The words when there is no interval (NaN bounds: one observation, docs/decisions.md
        "Intervals from one observation"); default `neither`.

    Returns
    -------
    str
    """
    if unknown is not None and (math.isnan(low) or math.isnan(high)):
        return unknown
    if low > 0:
        return above
    if high < 0:
        return below
    return neither


def ci_text(low: float, high: float, fmt: str = "+.2f", *, prefix: str = "95% CI ", sep: str = " to ",
            suffix: str = "", one: str = "one deal") -> str:
    """A 95% interval in words, or, where there is none (NaN bounds: a mean over one
    observation, docs/decisions.md "Intervals from one observation"), says so instead of
    printing ``nan``; a zero-width interval (every observation the same) reads ``no
    spread``, as the reports' tables say, not ``95% CI 0.00 to 0.00`` (session 24).

    Parameters
    ----------
    low, high : float
        The interval's bounds (NaN when it is undefined).
    fmt : str
        Format specification of each bound, e.g. ``"+.2f"`` or ``".1%"`` (without a
        width); a bound that reads zero is shown without a sign (``crowns_solver._text.number``).
    prefix, sep, suffix : str
        Text before the bounds, between them and after them.
    one : str
        The single observation, for the words without an interval: ``"one deal"`` gives
        ``"no interval from one deal"``.

    Returns
    -------
    str
        ``ci_text(-1, 2)`` is ``"95% CI -1.00 to +2.00"``; ``ci_text(nan, nan, one="one game")``
        is ``"no interval from one game"``; ``ci_text(0, 0)`` is ``"no spread"``.
    """
    if math.isnan(low) or math.isnan(high):
        return f"no interval from {one}"
    if low == high:   # every observation the same: no spread seen, which is not certainty (session 24)
        return "no spread"
    return f"{prefix}{number(low, fmt)}{sep}{number(high, fmt)}{suffix}"   # a bound that reads 0 has no sign


def pct(rate: float, digits: int = 0) -> str:
    """A rate as a percentage, never rounding a rate above 0 to "0%" or one below 1 to
    "100%" (those would read as never / always).

    Parameters
    ----------
    rate : float
        In 0..1.
    digits : int
        Decimals wanted; more are used where needed, up to 2, then "<0.01%" / ">99.99%".

    Returns
    -------
    str
    """
    if 0 < rate < 1:
        for d in range(digits, 3):
            text = percent(rate, d)
            if float(text[:-1]) not in (0.0, 100.0):
                return text
        return "<0.01%" if rate < 0.5 else ">99.99%"
    return percent(rate, digits)
