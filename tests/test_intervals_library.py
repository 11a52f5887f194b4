"""The interval functions are thin wrappers of statsmodels / scipy (session 20): each is
checked here against values known independently of the library (textbook examples and
formulas worked by hand), and by properties (the interval holds the estimate, narrows as
the sample grows, keeps a width at 0 or n successes)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from crowns_solver import montecarlo
from crowns_solver.analysis._five_crowns_common import rate_clustered
from crowns_solver.analysis.base import mean_ci, proportion_ci
from crowns_solver.errors import RunnerError

Z = 1.959963984540054


def wilson_by_hand(k: float, n: float, z: float = Z) -> tuple[float, float]:
    """Wilson (1927), the closed form."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


# ------------------------------------------------------------------ Wilson


@pytest.mark.parametrize("k, n, low, high", [
    (0, 10, 0.0, 0.2775),       # 0 of 10: Wilson's upper bound z^2 / (n + z^2)
    (10, 10, 0.7225, 1.0),      # 10 of 10: the mirror image
    (81, 263, 0.2553, 0.3662),  # Newcombe (1998), table I, example: 81/263
    (1, 29, 0.0061, 0.1718),    # Newcombe (1998), table I: 1/29
])
def test_wilson_textbook_values(k, n, low, high):
    lo, hi = montecarlo.wilson_interval(k, n)
    assert (lo, hi) == pytest.approx((low, high), abs=1e-4)
    assert proportion_ci(k, n) == pytest.approx((lo, hi))


def test_wilson_arrays_half_points_and_no_games():
    lo, hi = montecarlo.wilson_interval(np.array([0, 2.5, 7, 0]), np.array([4, 5, 10, 0]))
    expected = [wilson_by_hand(0, 4), wilson_by_hand(2.5, 5), wilson_by_hand(7, 10), (0.0, 1.0)]
    assert np.column_stack([lo, hi]) == pytest.approx(np.array(expected))
    # another z: 90% (1.644854)
    assert montecarlo.wilson_interval(3, 10, 1.6448536269514722) == pytest.approx(
        wilson_by_hand(3, 10, 1.6448536269514722))


@given(st.integers(1, 5000), st.data())
def test_wilson_holds_the_rate_keeps_a_width_and_narrows_with_n(n, data):
    k = data.draw(st.integers(0, n))
    lo, hi = montecarlo.wilson_interval(k, n)
    assert 0 <= lo <= k / n <= hi <= 1 and hi - lo > 0
    lo2, hi2 = montecarlo.wilson_interval(4 * k, 4 * n)   # the same rate from 4 times the games
    assert hi2 - lo2 < hi - lo


# ------------------------------------------------------------------ Student t


def test_t_interval_by_hand():
    # [2, 4, 6]: mean 4, sd 2, se 2 / sqrt(3); t(0.975, 2) = 4.302653 (t tables: 4.303)
    m, lo, hi = montecarlo.mean_interval([2, 4, 6])
    half = 4.302652729911275 * 2 / math.sqrt(3)
    assert (m, lo, hi) == pytest.approx((4.0, 4 - half, 4 + half))
    assert (lo, hi) == pytest.approx((-0.968, 8.968), abs=1e-3)
    # two values: t(0.975, 1) = 12.706; the normal 1.96 gave a 6.5 times narrower interval
    m, lo, hi = mean_ci([0.0, 1.0])
    assert (lo, hi) == pytest.approx((0.5 - 12.706204736 * 0.5, 0.5 + 12.706204736 * 0.5))


def test_t_interval_conventions():
    assert all(math.isnan(v) for v in montecarlo.mean_interval([]))
    m, lo, hi = montecarlo.mean_interval([5.0])
    assert m == 5.0 and math.isnan(lo) and math.isnan(hi)
    assert montecarlo.mean_interval([3.0, 3.0, 3.0]) == (3.0, 3.0, 3.0)   # no spread seen
    m, lo, hi = montecarlo.mean_interval([1.0, float("nan"), 2.0])
    assert math.isnan(m) and math.isnan(lo) and math.isnan(hi)
    with pytest.raises(RunnerError, match=r"1-D sample .* shape \(2, 2\)"):   # flattened until session 23
        montecarlo.mean_interval(np.array([[1.0, 2.0], [3.0, 4.0]]))
    with pytest.raises(RunnerError, match="needs numbers"):
        montecarlo.mean_interval(["a", "b"])


@given(st.lists(st.integers(-50, 50), min_size=2, max_size=40))
def test_t_interval_holds_the_mean_and_narrows_with_n(values):
    m, lo, hi = montecarlo.mean_interval(values)
    assert lo <= m <= hi
    m2, lo2, hi2 = montecarlo.mean_interval(values * 3)   # the same spread, three times the values
    assert m2 == pytest.approx(m)
    assert hi2 - lo2 <= hi - lo + 1e-12
    if len(set(values)) > 1:
        assert hi2 - lo2 < hi - lo and hi - lo > 2 * Z * np.std(values, ddof=1) / math.sqrt(len(values))


# ------------------------------------------------------------------ clustered rates


def test_cluster_wilson_one_success_per_cluster_is_wilson_over_clusters():
    # a policy in 2 seats of each of 4 games, winning 2 games: 2 wins of 8 seat-games,
    # but the games are the observations: Wilson(2 of 4) / 2
    rate, lo, hi = montecarlo.cluster_wilson_interval([1, 0, 1, 0], [2, 2, 2, 2], one_success=True)
    wl, wh = wilson_by_hand(2, 4)
    assert (rate, lo, hi) == pytest.approx((0.25, wl / 2, wh / 2))
    # the policy in every seat of 10 games, one winner each: rate 1/4, a low below 1/4
    rate, lo, hi = montecarlo.cluster_wilson_interval([1] * 10, [4] * 10, one_success=True)
    assert rate == 0.25 and hi == 0.25 and lo == pytest.approx(wilson_by_hand(10, 10)[0] / 4) and lo < 0.25
    with pytest.raises(RunnerError, match="cluster 1 has wins=2; with one_success"):
        montecarlo.cluster_wilson_interval([0, 2], [2, 2], one_success=True)


def test_cluster_wilson_general_case_by_hand():
    # shares per cluster 1/2, 1, 0, 1/2 of 2 trials each: rate 1/2; linearized variance
    # 4/3 * sum(((w - m/2) / 8)^2) = 4/3 * (0 + 1 + 1 + 0) / 64 = 1/24;
    # effective n = 0.25 * 24 * (1.959964 / t(0.975, 3))^2
    rate, lo, hi = montecarlo.cluster_wilson_interval([1, 2, 0, 1], [2, 2, 2, 2])
    n = 6 * (Z / 3.182446305284263) ** 2
    assert rate == 0.5 and (lo, hi) == pytest.approx(wilson_by_hand(0.5 * n, n))
    # nothing seen: Wilson of 0 over the clusters, not [0, 0]
    rate, lo, hi = montecarlo.cluster_wilson_interval([0, 0, 0], [2, 3, 2])
    assert (rate, lo) == (0.0, 0.0) and hi == pytest.approx(wilson_by_hand(0, 3)[1])
    rate, lo, hi = montecarlo.cluster_wilson_interval([2, 3, 2], [2, 3, 2])
    assert (rate, hi) == (1.0, 1.0) and lo == pytest.approx(wilson_by_hand(3, 3)[0])


@pytest.mark.parametrize("wins, trials, match", [([1], [1, 2], "one value per cluster each"),
                                                   ([3], [2], "cluster 0 has wins=3, trials=2"),
                                                   ([0, 1], [1, 0], "cluster 1 has wins=1, trials=0"),
                                                   ([-1], [2], "cluster 0"), (["x"], [2], "wins must be a number or an array of numbers")])
def test_cluster_wilson_refuses_bad_counts(wins, trials, match):
    with pytest.raises(RunnerError, match=match):
        montecarlo.cluster_wilson_interval(wins, trials)


@pytest.mark.parametrize("z", ["x", None, -1.0, 0, float("nan"), True])
def test_cluster_wilson_refuses_a_bad_z(z):
    with pytest.raises(RunnerError, match="z must be a normal quantile > 0"):
        montecarlo.cluster_wilson_interval([1, 2, 0], [2, 2, 2], z)


@given(st.lists(st.tuples(st.integers(1, 4), st.integers(0, 4)), min_size=1, max_size=30))
def test_cluster_wilson_holds_the_rate_and_narrows_with_more_clusters(clusters):
    m = np.array([c[0] for c in clusters], dtype=float)
    w = np.array([min(c) for c in clusters], dtype=float)
    rate, lo, hi = montecarlo.cluster_wilson_interval(w, m)
    assert 0 <= lo <= rate <= hi <= 1 and hi > lo
    rate4, lo4, hi4 = montecarlo.cluster_wilson_interval(np.tile(w, 4), np.tile(m, 4))
    assert rate4 == pytest.approx(rate) and hi4 - lo4 < hi - lo


def test_kings_crowns_policy_in_two_seats_counts_each_game_once():
    # King's Crowns: one winner per game.  Policy a in seats 0 and 1, b in 2 and 3; a wins
    # games 0 and 1, b game 2, game 3 is a stalemate.
    results = pd.DataFrame({"game": range(4), "policy_0": "a", "policy_1": "a", "policy_2": "b", "policy_3": "b",
                            "winner": [0, 1, 2, -1]})
    t = montecarlo.win_rates(results, by="policy")
    assert t.loc["a", ["wins", "games"]].tolist() == [2, 8] and t.loc["a", "rate"] == 0.25
    wl, wh = wilson_by_hand(2, 4)   # 2 of 4 games, over 2 seats (not Wilson of 2 of 8 seat-games)
    assert (t.loc["a", "ci_low"], t.loc["a", "ci_high"]) == pytest.approx((wl / 2, wh / 2))
    wl, wh = wilson_by_hand(1, 4)
    assert (t.loc["b", "ci_low"], t.loc["b", "ci_high"]) == pytest.approx((wl / 2, wh / 2))
    # one seat per game: the plain Wilson interval, as before
    one = results.assign(policy_1="c", policy_3="d")
    t = montecarlo.win_rates(one, by="policy")
    assert (t.loc["a", "ci_low"], t.loc["a", "ci_high"]) == pytest.approx(wilson_by_hand(1, 4))


def test_a_clustered_rate_of_0_keeps_a_width():
    # five_crowns_players: a player that never goes out in a round (the normal interval
    # clipped to 0..1 read [0, 0])
    share, low, high = rate_clustered(pd.Series([0.0] * 6), pd.Series([0, 0, 1, 1, 2, 2]))
    assert share == 0 and low == 0 and high == pytest.approx(wilson_by_hand(0, 3)[1])
    share, low, high = rate_clustered(pd.Series([1.0] * 6), pd.Series([0, 0, 1, 1, 2, 2]))
    assert share == 1 and high == 1 and low == pytest.approx(wilson_by_hand(3, 3)[0])


def test_five_crowns_summary_counts_each_game_once():
    from crowns_solver.five_crowns.cli import summarize

    # two games, greedy in all four seats: one winner a game, totals by game
    df = pd.DataFrame({"game": [0] * 4 + [1] * 4, "policy": "greedy", "won": [True, False, False, False] * 2,
                       "total": [50, 100, 150, 200, 60, 110, 160, 210]})
    s = summarize(df).loc["greedy"]
    assert s["win_rate"] == 0.25 and s["mean_total"] == 130
    # the games' means 125 and 135: t(0.975, 1) * sd(125, 135) / sqrt(2) = 12.706 * 5
    assert s["total_ci"] == pytest.approx(12.706204736 * 5)
    assert 0 <= s["win_low"] <= 0.25 <= s["win_high"] <= 1 and s["win_high"] > s["win_low"]
