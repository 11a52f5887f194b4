"""Session 21: the five_crowns_stuck study counts each game as one observation.

Its rates and means are counted per hand (seat-round) or per seat-game, but the four seats
of a game play one deal and the round ends when one of them goes out, so they are not
independent.  Until session 21 `stuck_table` used Wilson intervals over seat-rounds, a
Student t interval over stuck hands and (in the headline) Newcombe's interval for two
independent samples.  These tests build games whose seats are perfectly correlated or
anti-correlated and compare the intervals with values worked by hand.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import t as student_t

from crowns_solver.analysis.five_crowns_hands import stuck_headline, stuck_table
from crowns_solver.montecarlo import Z95, mean_interval, wilson_interval


def games_frame(games: list[list[tuple[int, bool, bool]]]) -> pd.DataFrame:
    """A simulate()-shaped table, one row per game and seat, from each game's four seats
    as (points in every round, out in every round, won the game)."""
    rows = []
    for g, seats in enumerate(games):
        for s, (pts, out, won) in enumerate(seats):
            row = {"game": g, "seat": s, "won": won, "total": 11 * pts}
            for r in range(1, 12):
                row[f"round_{r}"] = pts
                row[f"out_{r}"] = out
            rows.append(row)
    return pd.DataFrame(rows)


def t975(df: int) -> float:
    return float(student_t.ppf(0.975, df))


def test_the_seats_of_a_game_stuck_together():
    # 15 games with all four hands stuck, 15 with none: 120 hands, but 30 observations.
    # By hand: game i holds 4 x_i stuck hands of 4 (x_i 0 or 1); the linearized variance
    # of the pooled rate p is p (1 - p) / (g - 1), so the effective size is
    # (g - 1) (z / t_{g-1})**2 = 26.6, about the 30 games, not the 120 hands
    stuck4 = [(10, False, s == 0) for s in range(4)]
    free4 = [(0, s == 0, s == 0) for s in range(4)]
    table = stuck_table(games_frame([stuck4, free4] * 15))
    n_eff = 29 * (Z95 / t975(29)) ** 2
    for _, row in table.iterrows():
        assert row["stuck_rate"] == 0.5 and row["hands"] == 120 and row["games"] == 30
        assert (row["stuck_rate_low"], row["stuck_rate_high"]) == pytest.approx(wilson_interval(0.5 * n_eff, n_eff))
        games_lo, games_hi = wilson_interval(15, 30)
        hands_lo, hands_hi = wilson_interval(60, 120)   # the interval before session 21
        assert row["stuck_rate_low"] < games_lo < hands_lo and row["stuck_rate_high"] > games_hi > hands_hi
        assert row["stuck_rate_low"] == pytest.approx(games_lo, abs=0.015)


def test_the_stuck_hands_of_a_game_cost_alike():
    # 12 games, three stuck hands each (seat 3 goes out), all three costing the game's c:
    # the pooled mean cost is the mean of the 12 games' c, and with each game one
    # observation its interval is Student's t over those 12 values (11 degrees of
    # freedom), not over the 36 hands (which made it about half as wide)
    costs = [5, 8, 13, 21, 4, 9, 17, 6, 11, 25, 7, 10]
    table = stuck_table(games_frame([[(c, False, False)] * 3 + [(0, True, True)] for c in costs]))
    mean, low, high = mean_interval(costs)
    assert mean == pytest.approx(11.333333, abs=1e-6)
    half = t975(11) * np.std(costs, ddof=1) / math.sqrt(12)
    assert (low, high) == pytest.approx((mean - half, mean + half))
    for _, row in table.iterrows():
        assert (row["cost"], row["cost_low"], row["cost_high"]) == pytest.approx((mean, low, high))
        # every game has 3 of 4 hands stuck: no variation between games, so the rate's
        # interval is Wilson's over the 48 hands (cluster_wilson_interval's rule)
        assert row["stuck_rate"] == 0.75
        assert (row["stuck_rate_low"], row["stuck_rate_high"]) == pytest.approx(wilson_interval(36, 48))


def one_winner_games(stuck_wins: int, games: int) -> pd.DataFrame:
    """Seats 0 and 1 stuck, 2 and 3 out or free in every round; the single winner is seat 0
    (stuck) in the first `stuck_wins` games and seat 2 (free) in the others."""
    out = []
    for g in range(games):
        w = 0 if g < stuck_wins else 2
        out.append([(12, False, w == 0), (9, False, False), (0, True, w == 2), (0, False, False)])
    return games_frame(out)


def test_one_winner_per_game_ties_the_stuck_and_free_seats_of_a_game():
    # 20 games, 12 won by a stuck seat (q = 0.6), 8 by a free one.  Per game the stuck
    # seats hold w_i wins of 2 and the free seats 1 - w_i of 2.
    g, q = 20, 0.6
    table = stuck_table(one_winner_games(12, g))
    row = table.iloc[-1]
    assert row["win_if_stuck_rate"] == pytest.approx(0.3) and row["win_if_free_rate"] == pytest.approx(0.2)
    f = (Z95 / t975(g - 1)) ** 2
    # by hand, stuck seats: p = q / 2, linearized variance q (1 - q) / (4 (g - 1)), so the
    # effective size is p (1 - p) / v * f = 2 (g - 1) (1 - q / 2) / (1 - q) * f
    n_stuck = 2 * (g - 1) * (1 - q / 2) / (1 - q) * f
    assert (row["win_if_stuck_rate_low"], row["win_if_stuck_rate_high"]) == pytest.approx(
        wilson_interval(0.3 * n_stuck, n_stuck))
    p_free = (1 - q) / 2
    n_free = p_free * (1 - p_free) / (q * (1 - q) / (4 * (g - 1))) * f
    assert (row["win_if_free_rate_low"], row["win_if_free_rate_high"]) == pytest.approx(
        wilson_interval(0.2 * n_free, n_free))
    # the gap stuck - free = q - 1/2; a game's stuck and free seats move in opposite
    # directions, so its linearized variance is q (1 - q) / (g - 1): +-t_19 * 0.112 = +-0.235
    half = t975(g - 1) * math.sqrt(q * (1 - q) / (g - 1))
    assert (row["win_gap"], row["win_gap_low"], row["win_gap_high"]) == pytest.approx((0.1, 0.1 - half, 0.1 + half))
    assert half == pytest.approx(0.2345, abs=1e-3)


def test_the_headline_reads_the_gap_over_games():
    # with the gap's interval over games the headline says "less often" only where it lies
    # below 0 (before session 21 it recomputed a Newcombe interval for independent samples)
    table = stuck_table(one_winner_games(4, 40))     # stuck seats win 4 of 80, free 36 of 80
    row = table.iloc[-1]
    assert row["win_gap_high"] < 0
    late_early = pd.DataFrame([
        {"quantity": "stuck cost (points)", "games": 40, "late": 10.5, "early": 10.5, "difference": 0.0,
         "difference_low": -1.0, "difference_high": 1.0},
        {"quantity": "points share", "games": 40, "late": 0.27, "early": 0.27, "difference": 0.0,
         "difference_low": -0.01, "difference_high": 0.01}])
    text = stuck_headline(table, late_early, 40)
    assert "wins 5% of games, less often than the others' 45%" in text
    table.loc[table.index[-1], ["win_gap_low", "win_gap_high"]] = (-0.5, 0.1)
    assert "about as often as (not separable) the others' 45%" in stuck_headline(table, late_early, 40)
