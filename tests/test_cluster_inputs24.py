"""montecarlo.ratio_influence and cluster_variance check their input (session 24).

Both are public (``montecarlo.__all__``) and checked nothing: ``cluster_variance([1.0])``
raised ZeroDivisionError, ``cluster_variance([])`` gave -0.0, ``cluster_variance(["a"])``
a bare ValueError, ``cluster_variance({})`` a TypeError, and ``ratio_influence([1], [0])``
gave ``(inf, [nan])`` with RuntimeWarnings.  Now: a RunnerError naming the argument (as
``wilson_interval`` and ``mean_interval`` do), and NaN variance with fewer than 2 clusters.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from crowns_solver.analysis._intervals import ratio_ci, ratio_diff_ci
from crowns_solver.errors import RunnerError
from crowns_solver.montecarlo import cluster_variance, ratio_influence


@pytest.mark.parametrize(("influence", "message"), [
    (["a"], "influence must be a number or an array of numbers, got 'a' (text) in ['a'] (item 0)"),
    ({}, "influence must be a number or an array of numbers, got {} (dict)"),
    ([True, False], "influence must be a number or an array of numbers, got True (a bool)"),
    ([[1, 2], [3, 4]], "influence must be one number per cluster (a list, tuple, 1-D array or pandas Series),"
                       " got an array of shape (2, 2)"),
    (0.5, "influence must be one number per cluster (a list, tuple, 1-D array or pandas Series),"
          " got a single value of shape ()"),
])
def test_cluster_variance_refuses_what_is_not_one_number_per_cluster(influence, message):
    with pytest.raises(RunnerError) as info:
        cluster_variance(influence)
    assert str(info.value).startswith(message)


@pytest.mark.parametrize("influence", [[], [1.0], np.array([0.25]), pd.Series([3.0])])
def test_cluster_variance_of_fewer_than_two_clusters_is_nan(influence):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert math.isnan(cluster_variance(influence))


def test_cluster_variance_by_hand():
    # 0/1 outcomes, one per cluster, pooled: the variance of a mean, s**2 / n
    # [1, 0, 1]: ratio 2/3, influences 1/9, -2/9, 1/9; 3/2 * 6/81 = 1/9 = (1/3) / 3
    rate, infl = ratio_influence([1, 0, 1], [1, 1, 1])
    assert rate == pytest.approx(2 / 3)
    assert infl == pytest.approx([1 / 9, -2 / 9, 1 / 9])
    assert cluster_variance(infl) == pytest.approx(1 / 9)


@pytest.mark.parametrize(("num", "den", "message"), [
    ([1], [0], "den must sum to more than 0 (the ratio's denominator), got 0"),
    ([], [], "den must sum to more than 0 (the ratio's denominator), got 0 (no clusters)"),
    ([1, 2], [-1, -1], "den must sum to more than 0 (the ratio's denominator), got -2"),
    ([1, 2], [1], "num and den must give one number per cluster each, got 2 and 1"),
    ([1, "x"], [1, 1], "num must be a number or an array of numbers, got 'x' (text)"),
    ([1, 2], [1, None], "den must be a number or an array of numbers, got None (NoneType)"),
    ([True], [1], "num must be a number or an array of numbers, got True (a bool)"),
    ([1, float("nan")], [1, 1], "num must hold finite numbers, got nan (cluster 1)"),
    ([1, 2], [1, float("inf")], "den must hold finite numbers, got inf (cluster 1)"),
    (3, 4, "num must be one number per cluster"),
    ([1, 2], [[1, 2]], "den must be one number per cluster"),
])
def test_ratio_influence_refuses_bad_clusters_naming_the_argument(num, den, message):
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # no RuntimeWarning on the way
        with pytest.raises(RunnerError) as info:
            ratio_influence(num, den)
    assert str(info.value).startswith(message), str(info.value)


@given(st.lists(st.tuples(st.integers(-20, 20), st.integers(0, 6)), min_size=1, max_size=25))
def test_ratio_influence_and_cluster_variance_match_exact_arithmetic(clusters):
    """Accepted input: the ratio of sums, influences that sum to 0, and the variance
    g/(g-1) * sum(influence**2), each against exact fractions; refused exactly when the
    denominators sum to 0."""
    num = [a for a, _ in clusters]
    den = [b for _, b in clusters]
    total = sum(den)
    if total == 0:
        with pytest.raises(RunnerError, match="den must sum to more than 0"):
            ratio_influence(num, den)
        return
    ratio, infl = ratio_influence(num, den)
    exact = Fraction(sum(num), total)
    terms = [(Fraction(a) - exact * b) / total for a, b in clusters]
    assert ratio == pytest.approx(float(exact))
    assert infl == pytest.approx([float(t) for t in terms], abs=1e-12)
    g = len(clusters)
    var = cluster_variance(infl)
    if g < 2:
        assert math.isnan(var)
    else:
        assert var == pytest.approx(float(Fraction(g, g - 1) * sum(t * t for t in terms)), abs=1e-12)


@given(st.lists(st.integers(0, 1), min_size=2, max_size=40))
def test_one_trial_per_cluster_gives_the_variance_of_a_mean(outcomes):
    _, infl = ratio_influence(outcomes, [1] * len(outcomes))
    assert cluster_variance(infl) == pytest.approx(np.var(outcomes, ddof=1) / len(outcomes), abs=1e-12)


def test_the_studies_ratio_intervals_stay_nan_without_trials():
    """The studies' ratio intervals (analysis._intervals) gave NaN where no game had a
    trial (a round with no stuck hand in a small run); they still do, rather than raise."""
    assert all(math.isnan(v) for v in ratio_ci([0, 0, 0], [0, 0, 0]))
    assert all(math.isnan(v) for v in ratio_diff_ci([1, 2], [1, 1], [0, 0], [0, 0]))
    assert all(math.isnan(v) for v in ratio_ci([], []))
    m, lo, hi = ratio_ci([1, 0, 1, 1], [1, 1, 1, 1])
    assert m == 0.75 and lo < m < hi
