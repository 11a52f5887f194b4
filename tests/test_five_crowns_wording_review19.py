"""Session-19 review of the Five Crowns reports: a headline compares two figures only
where an interval of their difference supports it (stand-in tables), and the committed
reports' headline numbers recomputed from their own tables."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from crowns_solver.analysis.five_crowns_hands import stuck_headline
from crowns_solver.analysis.five_crowns_players import policies_headline
from test_study_wording_review19 import headline, report_tables, wilson
from crowns_solver._text import percent

# --------------------------------------------------------------------------- Five Crowns


def _summary(tracker_total, tracker_win):
    return pd.DataFrame([
        {"player": "random", "mean_total": 272.7, "mean_total_low": 270.3, "mean_total_high": 275.1, "win": 0.0025},
        {"player": "greedy", "mean_total": 122.8, "mean_total_low": 121.1, "mean_total_high": 124.5, "win": 0.223},
        {"player": "advisor", "mean_total": 98.8, "mean_total_low": 97.1, "mean_total_high": 100.4, "win": 0.417},
        {"player": "tracker", "mean_total": tracker_total, "mean_total_low": tracker_total - 1.6,
         "mean_total_high": tracker_total + 1.6, "win": tracker_win}])


def test_policies_headline_says_scores_least_only_when_the_paired_gap_excludes_0():
    text = policies_headline(_summary(102.0, 0.37), 600, (-3.3, -4.6, -1.9))
    assert "the advisor scores least (98.8" in text and "3.3 points per game less than the tracker" in text
    assert "random 272.7 points and 0.2%" in text or "random 272.7 points and 0.3%" in text
    text = policies_headline(_summary(99.5, 0.40), 600, (-0.7, -2.0, 0.6))
    assert "scores least" not in text and "the advisor has the lowest mean total (98.8" in text
    assert "are not told apart" in text


def _stuck_table(cost_lo_group=(11.0, 12.6, 14.1)):
    rows = []
    for r in range(1, 12):
        n = r + 2
        cost = {0: 20.0, 1: 16.0, 2: None}[n % 3]
        if cost is None:
            cost = cost_lo_group[(n - 5) // 3]
        rows.append({"round": r, "cards": n, "hands": 12000, "stuck_rate": 0.6, "cost": cost,
                     "cost_low": cost - 0.3, "cost_high": cost + 0.3, "win_if_stuck_rate": 0.2,
                     "win_if_free_rate": 0.33, "win_gap": -0.13, "win_gap_low": -0.16, "win_gap_high": -0.10})
    return pd.DataFrame(rows)


def _late_early(cost_ci, share_ci):
    return pd.DataFrame([
        {"quantity": "stuck cost (points)", "games": 3000, "late": 17.0, "early": 15.0, "difference": 2.0,
         "difference_low": cost_ci[0], "difference_high": cost_ci[1]},
        {"quantity": "points share", "games": 3000, "late": 0.27, "early": 0.25, "difference": 0.02,
         "difference_low": share_ci[0], "difference_high": share_ci[1]}])


def test_stuck_headline_compares_late_and_early_rounds_by_their_intervals():
    text = stuck_headline(_stuck_table(), _late_early((1.5, 2.5), (0.01, 0.03)), 3000)
    assert "a stuck hand costs 17.0, more than the 15.0 of rounds 1-3 (difference +2.0 points" in text
    assert "bring 27.0% of all points, more than the first three's 25.0% (difference +2.0 percentage points" in text
    assert "mostly it follows the hand size (20.0-20.0 points with 3, 6, 9, 12 cards, 11.0-14.1 with 5, 8, 11)" in text
    assert "wins 20% of games, less often than the others' 33%" in text
    text = stuck_headline(_stuck_table((11.0, 12.6, 19.9)), _late_early((-0.5, 4.5), (-0.01, 0.05)), 100)
    assert "not separable from the 15.0 of rounds 1-3" in text and "not separable from the first three's" in text
    assert "mostly it follows" not in text and "the hand sizes' intervals overlap" in text


def test_tracker_headline_does_not_read_as_the_trackers_scoring_negative_points():
    from crowns_solver.analysis import registry

    text = registry()["five_crowns_tracker"].run(8, 1).headline
    assert "trackers score -" not in text and "trackers score +" not in text
    assert re.search(r"two trackers' totals minus two advisors' come to [+-]\d+\.\d\d points per game "
                     r"\(lower is better", text)


def test_five_crowns_deals_report_headline_rates_and_separation_recomputed():
    table = report_tables("five_crowns_deals")[0]
    for _, row in table.iterrows():
        lo, hi = wilson(round(row["complete_rate"] * row["games"]), row["games"])
        assert row["complete_rate_low"] == pytest.approx(lo, rel=0.01)
        assert row["complete_rate_high"] == pytest.approx(hi, rel=0.01)
    t = table.set_index("cards")
    text = headline("five_crowns_deals")
    assert f"{percent(t.loc[3, 'complete_rate'], 1)} of the time with 3 cards" in text
    # "least often with 5, 8 and 11": their intervals all lie below every other size's
    low3, rest = t.loc[[5, 8, 11]], t.drop(index=[5, 8, 11])
    assert "least often with 5, 8 and 11 cards" in text
    assert low3["complete_rate_high"].max() < rest["complete_rate_low"].min()


def test_five_crowns_stuck_report_last_round_comparison_recomputed():
    tables = report_tables("five_crowns_stuck")
    stuck = tables[0]
    wins = next(t for t in tables if "win_if_stuck_rate" in t.columns)
    last = stuck.set_index("round").loc[11]
    # the intervals count each game as one observation (session 21): the rate's interval
    # holds it, and the table gives the gap stuck - free with its interval over games
    assert last["stuck_rate_low"] < last["stuck_rate"] < last["stuck_rate_high"]
    w = wins.set_index("round").loc[11]
    assert w["win_gap"] == pytest.approx(w["win_if_stuck_rate"] - w["win_if_free_rate"], abs=2e-3)
    assert w["win_gap_high"] < 0   # the report's "wins 20% of games against 33% otherwise" is backed by its interval
    text = headline("five_crowns_stuck")
    assert (f"{percent(w['win_if_stuck_rate'], 0)} of games, less often than the others'"
            f" {percent(w['win_if_free_rate'], 0)}") in text


def test_tracker_chart_labels_stay_inside_their_panels():
    from crowns_solver.analysis.five_crowns_players import _diff_chart

    # rows as head_to_head gives them (the panels name their deals since session 22)
    table = pd.DataFrame([{"opponent": "advisor", "deals": 140, "diff": -0.67, "diff_low": -1.21, "diff_high": -0.12},
                          {"opponent": "random", "deals": 20, "diff": -185.7, "diff_low": -190.5, "diff_high": -180.9}])
    fig = _diff_chart(table)
    fig.canvas.draw()
    for ax in fig.axes:
        box = ax.get_window_extent()
        labels = [t for t in ax.texts if "to" in t.get_text()]
        assert labels
        for t in labels:
            ext = t.get_window_extent()
            assert box.x0 <= ext.x0 and ext.x1 <= box.x1, t.get_text()


def test_five_crowns_stuck_report_pooled_late_and_early_figures_recomputed_from_the_round_table():
    tables = report_tables("five_crowns_stuck")
    stuck = tables[0].set_index("round")
    late_early = next(t for t in tables if "difference" in t.columns).set_index("quantity")
    n = stuck["stuck_rate"] * stuck["hands"]
    for rounds, col in (([9, 10, 11], "late"), ([1, 2, 3], "early")):
        pooled = (stuck.loc[rounds, "cost"] * n[rounds]).sum() / n[rounds].sum()
        # both sides rounded to 3 significant places (0.05 each)
        assert pooled == pytest.approx(late_early.loc["stuck cost (points)", col], abs=0.1)
        share = stuck.loc[rounds, "points_share_rate"].sum()
        assert share == pytest.approx(late_early.loc["points share", col], abs=0.002)
    text = headline("five_crowns_stuck")
    assert (f"pooled over rounds 9-11 a stuck hand costs {late_early.loc['stuck cost (points)', 'late']:.1f}, more than"
            f" the {late_early.loc['stuck cost (points)', 'early']:.1f} of rounds 1-3") in text
    assert late_early.loc["stuck cost (points)", "difference_low"] > 0
