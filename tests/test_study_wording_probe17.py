"""Study wording that must follow the data (session-17 probe finding 13): the King's
Crowns seat study's claim about random play, and the five_crowns_tracker win-share
interval (over deals, as the report now says: each deal is one observation)."""

from __future__ import annotations

import pandas as pd
import pytest

from crowns_solver.analysis._five_crowns_common import rate_clustered
from crowns_solver.analysis.five_crowns_players import CLUSTERED_INTERVALS
from crowns_solver.analysis.kings_crowns_seats import _random_clause


def _summary(rows):
    """Seat-study summary rows: (players, policy, seat-0 rate, low, high, equal share)."""
    df = pd.DataFrame(rows, columns=["players", "policy", "seat0_rate", "seat0_rate_low", "seat0_rate_high",
                                     "equal_share"])
    df["seat0_edge"] = df["seat0_rate"] - df["equal_share"]
    return df


def _ahead(summary):
    played = summary[summary["policy"] != "random"]
    return played[played["seat0_rate_low"] > played["equal_share"]]


def test_the_probe_case_no_longer_says_random_play_shows_none():
    # the quick run the probe read: random's 4-player edge (+1.76) above greedy's (+1.65),
    # every interval about +-2 points wide
    s = _summary([(4, "random", 0.2640, 0.245, 0.284, 0.2464), (4, "greedy", 0.2665, 0.248, 0.286, 0.25),
                  (4, "defensive", 0.270, 0.251, 0.289, 0.25)])
    clause = _random_clause(s, _ahead(s))
    assert "shows none" not in clause and "comes from using the first move" not in clause
    assert "cannot be told apart" in clause and "+1.8 points" in clause


def test_random_play_shows_none_when_its_interval_lies_below_the_edge():
    # the full run's 5-player figures: greedy 22.0% (21.7-22.4), random within 0.3 points
    s = _summary([(5, "random", 0.2005, 0.197, 0.204, 0.2), (5, "greedy", 0.220, 0.217, 0.224, 0.2),
                  (2, "random", 0.502, 0.498, 0.507, 0.5), (2, "greedy", 0.515, 0.511, 0.519, 0.5)])
    clause = _random_clause(s, _ahead(s))
    assert clause.startswith(", and random play shows none (within 0.2 points")
    # one table size where random's interval reaches the edge's lower end: no claim
    s.loc[2, "seat0_rate_high"] = 0.512
    assert "shows none" not in _random_clause(s, _ahead(s))


def test_random_play_clearly_ahead_is_said():
    s = _summary([(3, "random", 0.36, 0.35, 0.37, 1 / 3), (3, "greedy", 0.37, 0.36, 0.38, 1 / 3)])
    assert "random play shows an edge too (up to +2.7 points)" in _random_clause(s, _ahead(s))


def test_the_win_share_interval_is_clustered_by_deal_and_the_footer_says_so():
    # a deal's two seatings share its cards: each deal's share is one observation.  (A
    # Wilson interval counting deal shares as successes ignores how much the duplicate
    # design narrows the spread: 47.7-52.9% against 49.3-51.3% on the committed run.)
    # Since session 20 the clustered rate's interval is Wilson's on the effective number of
    # deals (Korn & Graubard 1998), so it stays in 0..1 and keeps a width at 0 or 1.
    # By hand: deal shares 0.75, 0.5, 0.75, 0 (mean 0.5, variance 0.125 / 4 deals =
    # 0.03125); effective n = 0.25 / 0.03125 * (1.959964 / 3.182446)^2 = 3.034278.
    values = pd.Series([1, 0.5, 0, 1, 1, 0.5, 0, 0])
    deals = pd.Series([0, 0, 1, 1, 2, 2, 3, 3])
    share, low, high = rate_clustered(values, deals)
    z, n = 1.959963984540054, 8 * (1.959963984540054 / 3.182446305284263) ** 2
    half = z / (1 + z * z / n) * (0.25 / n + z * z / (4 * n * n)) ** 0.5
    assert share == 0.5 and (low, high) == pytest.approx((0.5 - half, 0.5 + half))
    # no deal with a win: the interval still has a width (the normal one was [0, 0])
    share, low, high = rate_clustered(pd.Series([0.0] * 8), deals)
    assert (share, low) == (0.0, 0.0) and high == pytest.approx(0.4899, abs=1e-4)   # Wilson 0 of 4
    assert "Student t intervals for means" in CLUSTERED_INTERVALS and "Korn & Graubard" in CLUSTERED_INTERVALS
