"""Session 21: a duplicate match's rates count each deal as one observation.

The two games of a deal are played on the same cards, so they are not independent trials.
Until session 21 `summarise` gave Wilson intervals over games, which are too narrow when a
deal tends to decide both of its games.  These tests build result sets whose two games per
deal are perfectly correlated or perfectly anti-correlated and compare the intervals with
values worked by hand, and check by brute force (many simulated matches) that the new
intervals cover the true rate about 95% of the time where the old ones did not.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import t as student_t

from crowns_solver.cross_kings.match import games_table, summarise
from crowns_solver.montecarlo import Z95, wilson_interval


def deal_rows(margins: list[tuple[int, int]]) -> pd.DataFrame:
    """Runner rows (one per deal) from A's margin in each game of each deal: first the game
    with A first, then the game with A second."""
    rows = []
    for d, (m0, m1) in enumerate(margins):
        # A first: score_first is A's; A second: score_second is A's
        rows.append({"deal": d, "score_first_0": 10 + m0, "score_second_0": 10, "score_first_1": 10,
                     "score_second_1": 10 + m1, "start_0": 14, "start_1": 14, "moves_a_0": 18, "moves_b_0": 18,
                     "moves_a_1": 18, "moves_b_1": 18, "seconds_a_0": 0.1, "seconds_b_0": 0.1,
                     "seconds_a_1": 0.1, "seconds_b_1": 0.1})
    return pd.DataFrame(rows)


def perfectly_correlated_n_eff(deals: int) -> float:
    """By hand: deal i holds 2 x_i successes of 2 games (x_i 0 or 1), the pooled rate p is
    the share of deals with x_i = 1, and the linearized variance of p is
    g/(g-1) * sum(((2 x_i - 2 p) / (2 g))**2) = p (1 - p) / (g - 1); the effective sample
    size p (1 - p) / v * (z / t)**2 is then (g - 1) (z / t_{g-1})**2, about the number of
    deals (half the games)."""
    t = float(student_t.ppf(0.975, deals - 1))
    return (deals - 1) * (Z95 / t) ** 2


def test_both_games_of_every_deal_go_the_same_way():
    # 20 deals A wins twice, 10 deals A loses twice: 60 games, but only 30 observations
    games = games_table(deal_rows([(3, 3)] * 20 + [(-2, -2)] * 10))
    s = summarise(games)
    assert (s["games"], s["deals"], s["wins"], s["losses"], s["draws"]) == (60, 30, 40, 20, 0)
    n_eff = perfectly_correlated_n_eff(30)
    assert n_eff == pytest.approx(26.63, abs=0.01)   # 29 * (1.960 / 2.045)**2
    for name, p in (("win", 2 / 3), ("loss", 1 / 3), ("score", 2 / 3)):
        assert s[name] == pytest.approx(p)
        assert (s[f"{name}_low"], s[f"{name}_high"]) == pytest.approx(wilson_interval(p * n_eff, n_eff), rel=1e-9)
        # about the Wilson interval of the 30 deals (width 0.320; this one 0.337: 29 degrees
        # of freedom), and wider than that of 60 games (the old interval, which fails
        # here: width 0.232)
        deals_lo, deals_hi = wilson_interval(round(p * 30), 30)
        games_lo, games_hi = wilson_interval(round(p * 60), 60)
        assert s[f"{name}_low"] < deals_lo < games_lo and s[f"{name}_high"] > deals_hi > games_hi
        assert s[f"{name}_low"] == pytest.approx(deals_lo, abs=0.015)
        assert s[f"{name}_high"] == pytest.approx(deals_hi, abs=0.015)
    # no draw in 30 deals: the interval of 0 of 30 observations, not of 0 of 60
    assert s["draw"] == 0 and s["draw_low"] == 0
    assert s["draw_high"] == pytest.approx(wilson_interval(0, 30)[1]) == pytest.approx(0.1135, abs=1e-4)


def test_the_two_games_of_every_deal_split():
    # A wins one game and loses the other in every deal: the pooled rate is exactly 1/2 in
    # every deal, so the deals vary not at all and the games count as independent trials
    # (cluster_wilson_interval: no cluster variance, so the number of trials): the plain
    # Wilson interval of 30 of 60 games, not a wider one
    games = games_table(deal_rows([(4, -1), (-2, 5)] * 15))
    s = summarise(games)
    assert (s["wins"], s["losses"], s["games"]) == (30, 30, 60)
    for name in ("win", "loss", "score"):
        assert s[name] == 0.5
        assert (s[f"{name}_low"], s[f"{name}_high"]) == pytest.approx(wilson_interval(30, 60))
    # a draw and a draw, or a win and a loss: the score is 1 of 2 in every deal too
    s = summarise(games_table(deal_rows([(0, 0), (3, -3)] * 15)))
    assert s["score"] == 0.5 and (s["score_low"], s["score_high"]) == pytest.approx(wilson_interval(30, 60))
    # while the draws (both games of a deal or neither) are perfectly correlated
    n_eff = perfectly_correlated_n_eff(30)
    assert (s["draw_low"], s["draw_high"]) == pytest.approx(wilson_interval(0.5 * n_eff, n_eff), rel=1e-9)


def test_draws_count_half_a_win_point_within_the_deal():
    # score per deal: (win, draw) 1.5, (draw, draw) 1, (loss, draw) 0.5 of 2 games
    margins = [(2, 0)] * 6 + [(0, 0)] * 4 + [(-2, 0)] * 2
    s = summarise(games_table(deal_rows(margins)))
    x = np.array([1.5] * 6 + [1.0] * 4 + [0.5] * 2)   # win points per deal
    g, p = len(x), x.sum() / (2 * len(x))
    assert s["score"] == pytest.approx(p) == pytest.approx(14 / 24)
    # by hand (cluster_wilson_interval's recipe): linearized variance of the pooled rate
    # over deals, effective size p (1 - p) / v * (z / t_{g-1})**2, Wilson on it
    v = g / (g - 1) * np.sum(((x - 2 * p) / (2 * g)) ** 2)
    n_eff = p * (1 - p) / v * (Z95 / student_t.ppf(0.975, g - 1)) ** 2
    assert (s["score_low"], s["score_high"]) == pytest.approx(wilson_interval(p * n_eff, n_eff), rel=1e-9)


def _fast_games(wins_per_deal: np.ndarray) -> pd.DataFrame:
    """games_table-shaped rows (the columns summarise reads) from A's wins per deal (0, 1
    or 2; a deal with 1 has A winning the first game); no draws."""
    g = len(wins_per_deal)
    first = (wins_per_deal >= 1).astype(int)
    second = (wins_per_deal == 2).astype(int)
    win = np.column_stack([first, second]).ravel()
    return pd.DataFrame({"deal": np.repeat(np.arange(g), 2), "win_a": win, "draw": 0, "loss_a": 1 - win,
                         "margin_a": 2 * win - 1, "moves_a": 18, "moves_b": 18, "seconds_a": 0.0,
                         "seconds_b": 0.0})


def test_coverage_by_brute_force_when_a_deal_decides_both_games():
    # 400 matches of 40 deals; in each deal the cards decide: A wins both games with
    # chance 0.6, loses both otherwise (true win rate 0.6).  95% intervals over deals cover
    # 0.6 about 95% of the time; Wilson over the 80 games (before session 21) only about
    # 83% (its standard error is that of 80 independent games, sqrt(2) too small).
    rng = np.random.default_rng(np.random.SeedSequence(2026))
    covered, old_covered, reps = 0, 0, 400
    for _ in range(reps):
        wins = 2 * (rng.random(40) < 0.6)
        s = summarise(_fast_games(wins))
        covered += s["win_low"] <= 0.6 <= s["win_high"]
        lo, hi = wilson_interval(s["wins"], s["games"])
        old_covered += lo <= 0.6 <= hi
    assert covered / reps >= 0.93, covered / reps
    assert old_covered / reps <= 0.88, old_covered / reps


def test_one_deal_and_no_games():
    # one deal: one observation, an interval from one cluster (wide), margin without bounds
    s = summarise(games_table(deal_rows([(3, 3)])))
    assert s["win"] == 1 and s["win_low"] == pytest.approx(wilson_interval(1, 1)[0]) and s["win_high"] == 1
    assert math.isnan(s["margin_low"]) and math.isnan(s["margin_high"])
    empty = summarise(_fast_games(np.array([], dtype=int)))
    assert empty["games"] == 0 and math.isnan(empty["win"]) and (empty["win_low"], empty["win_high"]) == (0, 1)
