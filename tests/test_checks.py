"""The whole-number check shared by the Monte Carlo runner and the Cross Kings match
runner (``crowns_solver._checks.check_whole_number``): one checker, one message."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from crowns_solver import montecarlo
from crowns_solver._checks import check_whole_number
from crowns_solver.cross_kings.match import MAX_DEALS, match
from crowns_solver.errors import RunnerError, SolverOptionError

ANYTHING = st.one_of(st.integers(-10, 20), st.floats(allow_nan=True), st.booleans(), st.none(), st.text(max_size=3),
                     st.integers(-10, 20).map(np.int64), st.lists(st.integers(), max_size=2))


@given(value=ANYTHING, lo=st.integers(0, 3), hi=st.one_of(st.none(), st.integers(3, 12)))
def test_a_whole_number_in_range_or_a_refusal_naming_it(value, lo, hi):
    whole = not isinstance(value, (bool, float, str, list)) and value is not None
    try:
        got = check_whole_number("count", value, lo, hi)
    except RunnerError as exc:
        assert exc.arguments == ("count",) and str(exc).startswith("count must be ")
        assert not whole or value < lo or (hi is not None and value > hi)
    else:
        assert whole and type(got) is int and got == value and lo <= got and (hi is None or got <= hi)


def test_the_messages():
    with pytest.raises(RunnerError, match=r"^games must be a whole number >= 1, got 2\.0$"):
        check_whole_number("games", 2.0, 1)
    with pytest.raises(RunnerError, match=r"^games must be at most 5 \(held in memory\), got 6$"):
        check_whole_number("games", 6, 1, 5, why="held in memory")
    with pytest.raises(SolverOptionError, match=r"^n must be at most 5, got 1,000,000$"):
        check_whole_number("n", 1_000_000, 1, 5, error=SolverOptionError)


@pytest.mark.parametrize("bad", [0, -3, True, 2.5, "4", None])
def test_the_match_runner_and_the_monte_carlo_runner_say_the_same(bad):
    # match's deals went through a copy of the runner's check: one checker now
    with pytest.raises(RunnerError) as in_match:
        match("random", "random", bad)
    with pytest.raises(RunnerError) as in_runner:
        montecarlo.run(lambda *a, **k: [], bad)
    assert str(in_match.value) == str(in_runner.value).replace("games", "deals")
    assert in_match.value.arguments == ("deals",) and in_runner.value.arguments == ("games",)


def test_too_many_deals_name_the_argument():
    with pytest.raises(RunnerError) as exc:
        match("random", "random", MAX_DEALS + 1, seed=-1)
    assert str(exc.value) == "deals must be at most 10,000,000, got 10,000,001" and exc.value.arguments == ("deals",)
