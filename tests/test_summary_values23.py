"""The summaries read the values of their tables before summing them (session 23).

``five_crowns.summarize`` summed a ``won`` column of text: ``"yes"``/``"no"`` raised an
unnamed ``ValueError`` (``invalid literal for int() ... 'yesno'``), ``"1"``/``"0"``
were concatenated into 10 wins of 2 games, and a missing ``total`` was skipped by the
mean.  Cross Kings' ``match.summarise`` had the same shape: text in ``win_a`` raised an
unnamed error and ``win_a`` 2 counted two wins in one game.  Each now raises the
summary's RunnerError naming the column, the game and the values expected.  (King's
Crowns' table goes through ``montecarlo.win_rates``, which named a ``win_<seat>`` other
than 0 or 1 already.)
"""

from __future__ import annotations

import pandas as pd
import pytest

from crowns_solver.cross_kings.match import summarise
from crowns_solver.errors import RunnerError
from crowns_solver.five_crowns import simulate, summarize


def five_crowns_table(won=(True, False, False, True), total=(10, 20, 30, 5)) -> pd.DataFrame:
    return pd.DataFrame({"game": [0, 0, 1, 1], "seat": [0, 1, 0, 1], "policy": ["a", "b", "a", "b"],
                         "total": list(total), "won": list(won)})


WON = "the won column holds True or False (1 or 0) for each seat"
TOTAL = "the total column holds each seat's final points, whole numbers >= 0"


@pytest.mark.parametrize("won, where, shown", [
    (["yes", "no", "no", "yes"], "game 0, seat 0 (row 0)", "'yes'"),
    (["1", "0", "0", "1"], "game 0, seat 0 (row 0)", "'1'"),        # counted 10 wins of 2 games
    ([True, None, False, True], "game 0, seat 1 (row 1)", "None"),
    ([1, 0, 2, 1], "game 1, seat 0 (row 2)", "2"),
    ([True, False, 0.5, True], "game 1, seat 0 (row 2)", "0.5"),
])
def test_five_crowns_summarize_names_a_won_that_is_not_true_or_false(won, where, shown):
    with pytest.raises(RunnerError) as info:
        summarize(five_crowns_table(won=won))
    assert str(info.value) == f"summarize: {where} has won = {shown}; {WON}"


@pytest.mark.parametrize("total, shown", [(["x", 1, 2, 3], "'x'"), ([None, 1, 2, 3], "None"),
                                          ([1.5, 1, 2, 3], "1.5"), ([-1, 1, 2, 3], "-1"),
                                          ([True, False, True, True], "True")])
def test_five_crowns_summarize_names_a_total_that_is_not_points(total, shown):
    with pytest.raises(RunnerError) as info:
        summarize(five_crowns_table(total=total))
    assert str(info.value) == f"summarize: game 0, seat 0 (row 0) has total = {shown}; {TOTAL}"


def test_five_crowns_summarize_counts_true_false_and_one_zero_alike():
    for won in ([True, False, False, True], [1, 0, 0, 1], [1.0, 0.0, 0.0, 1.0],
                pd.array([True, False, False, True], dtype="boolean")):
        out = summarize(five_crowns_table(won=won))
        assert out["wins"].to_dict() == {"a": 1, "b": 1}
        assert out["mean_total"].to_dict() == {"a": 20.0, "b": 12.5}


def test_five_crowns_summarize_of_a_real_run_and_of_its_csv(tmp_path):
    df = simulate(6, players=2, policies=["greedy", "random"], seed=4, workers=1)
    path = tmp_path / "fc.csv"
    df.to_csv(path, index=False)
    back = pd.read_csv(path)   # won read back as bools
    pd.testing.assert_frame_equal(summarize(back), summarize(df))
    assert int(summarize(df)["wins"].sum()) == int(df["won"].sum()) >= 6


def match_games(**columns) -> pd.DataFrame:
    base = {"deal": [0, 0, 1, 1], "game": [0, 1, 2, 3], "win_a": [1, 0, 1, 0], "draw": [0, 0, 0, 1],
            "loss_a": [0, 1, 0, 0], "margin_a": [3, -2, 4, 0], "moves_a": [5] * 4, "moves_b": [5] * 4,
            "seconds_a": [0.1] * 4, "seconds_b": [0.1] * 4}
    base.update(columns)
    return pd.DataFrame(base)


RESULTS = "win_a, draw and loss_a hold 1 or 0 (True or False), one of them 1 in each game"


@pytest.mark.parametrize("columns, message", [
    ({"win_a": ["yes", "no", "yes", "no"]}, f"game 0 (row 0) has win_a = 'yes'; {RESULTS}"),
    ({"win_a": ["1", "0", "1", "0"]}, f"game 0 (row 0) has win_a = '1'; {RESULTS}"),
    ({"draw": [0, 0, None, 1]}, f"game 2 (row 2) has draw = None; {RESULTS}"),
    ({"win_a": [2, 0, 1, 0]}, f"game 0 (row 0) has win_a = 2; {RESULTS}"),   # counted 2 wins in one game
    ({"loss_a": [0, 1, 1, 0]}, "game 2 (row 2) has win_a, draw, loss_a = 1, 0, 1; a game is won, drawn or lost:"
                               " one of them 1"),
    ({"margin_a": [3, "x", 4, 0]}, "game 1 (row 1) has margin_a = 'x'; margin_a holds A's final margin, a whole"
                                   " number of points"),
])
def test_cross_kings_summarise_names_a_result_out_of_place(columns, message):
    with pytest.raises(RunnerError) as info:
        summarise(match_games(**columns))
    assert str(info.value) == f"games: {message}"


def test_cross_kings_summarise_of_good_rows_is_unchanged():
    s = summarise(match_games())
    assert (s["games"], s["deals"], s["wins"], s["draws"], s["losses"]) == (4, 2, 2, 1, 1)
    assert s["score"] == 0.625 and s["margin"] == pytest.approx(1.25)
    same = summarise(match_games(win_a=[True, False, True, False], draw=[False, False, False, True],
                                 loss_a=[False, True, False, False]))
    assert same == s
