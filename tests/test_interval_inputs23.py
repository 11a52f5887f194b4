"""The interval functions' inputs (session 23).

``montecarlo.wilson_interval(True, 10)`` read the bool as 1 win of 10 and ``("3", 10)``
read the text as 3 wins; both are refused now, each argument on its own, the message
naming the one at fault.  ``montecarlo.mean_interval([[1, 2], [3, 4]])`` flattened the
table and gave 2.5 with an interval; it takes 1-D data only and names the shape (and so
does the studies' ``mean_ci``, which flattened before calling it).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from crowns_solver import montecarlo
from crowns_solver.analysis.base import mean_ci, sample_log
from crowns_solver.errors import RunnerError


@pytest.mark.parametrize("wins, games, name, shown", [
    (True, 10, "wins", "True (a bool)"),
    (np.True_, 10, "wins", "np.True_ (a bool)"),
    (3, True, "games", "True (a bool)"),
    (3, np.bool_(True), "games", "np.True_ (a bool)"),
    (np.array([True, False]), 10, "wins", "True (a bool) in array([ True, False]) (item 0)"),
    ([1, True], [3, 3], "wins", "True (a bool) in [1, True] (item 1)"),
    (pd.Series([1, 2]), pd.Series([False, True]), "games", "False (a bool)"),
    ("3", 10, "wins", "'3' (text)"),
    (3, "10", "games", "'10' (text)"),
    ([1, "a"], 10, "wins", "'a' (text) in [1, 'a'] (item 1)"),
    (None, 3, "wins", "None (NoneType)"),
    (3 + 0j, 4, "wins", "(3+0j) (complex)"),
])
def test_wilson_interval_names_the_argument_that_is_no_count(wins, games, name, shown):
    with pytest.raises(RunnerError) as info:
        montecarlo.wilson_interval(wins, games)
    assert str(info.value).startswith(f"{name} must be a number or an array of numbers, got {shown}")


def test_wilson_interval_checks_z_on_its_own():
    # before: one message for all three ("wins and games must be numbers ..., and z a number")
    with pytest.raises(RunnerError, match=r"^z must be a normal quantile > 0 \(1.96 for 95%\), got 'z'$"):
        montecarlo.wilson_interval(3, 10, "z")
    with pytest.raises(RunnerError, match=r"^z must be .* got True$"):
        montecarlo.wilson_interval(3, 10, True)


def test_wilson_interval_still_takes_numbers_of_every_kind():
    expected = montecarlo.wilson_interval(3, 10)
    assert expected == pytest.approx((0.10779126740630099, 0.6032218525388546))   # Wilson 1927, 3 of 10
    for wins, games in [(3.0, 10.0), (np.int64(3), np.int64(10)), (np.float32(3), 10)]:
        assert montecarlo.wilson_interval(wins, games) == pytest.approx(expected)
    low, high = montecarlo.wilson_interval(pd.Series([3, 0]), np.array([10, 10]))
    assert (low[0], high[0]) == pytest.approx(expected) and low[1] == 0.0
    low, high = montecarlo.wilson_interval([1.5, 0], (3, 0))   # a draw counts 1/2; 0 games: (0, 1)
    assert low[0] > 0 and (low[1], high[1]) == (0.0, 1.0)


@pytest.mark.parametrize("values, shape", [
    ([[1, 2], [3, 4]], "an array of shape (2, 2)"),
    (np.array([[3.0]]), "an array of shape (1, 1)"),
    (pd.DataFrame({"a": [1.0, 2.0], "b": [3.0, 4.0]}), "an array of shape (2, 2)"),
    (pd.DataFrame({"a": [1.0, 2.0]}), "an array of shape (2, 1)"),
    (5.0, "a single value of shape ()"),
])
def test_mean_interval_takes_one_dimensional_data_only(values, shape):
    message = (r"a mean's interval needs a 1-D sample \(a list, tuple, 1-D array or pandas Series\), got "
               + shape.replace("(", r"\(").replace(")", r"\)") + "$")
    with pytest.raises(RunnerError, match=message):
        montecarlo.mean_interval(values)
    with pytest.raises(RunnerError, match=message):   # the studies' mean_ci flattened it before the check
        mean_ci(values)


def test_mean_interval_of_one_dimensional_data_is_unchanged():
    # [2, 4, 6]: mean 4, sd 2, t(0.975, 2) = 4.302653
    half = 4.302652729911275 * 2 / math.sqrt(3)
    for values in ([2, 4, 6], (2, 4, 6), np.array([2.0, 4.0, 6.0]), pd.Series([2, 4, 6]),
                   pd.DataFrame({"x": [2, 4, 6]})["x"]):
        assert montecarlo.mean_interval(values) == pytest.approx((4.0, 4 - half, 4 + half))
    with sample_log() as sizes:
        assert mean_ci(pd.Series([2, 4, 6])) == pytest.approx((4.0, 4 - half, 4 + half))
    assert sizes == [3]


def test_mean_interval_refuses_text():
    with pytest.raises(RunnerError, match=r"needs numbers, got \['1', '2'\]"):   # it gave 1.5 until session 23
        montecarlo.mean_interval(["1", "2"])
