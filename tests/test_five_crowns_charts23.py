"""The Five Crowns studies' charts (session 23).

- Under other rules options (``crowns report --sets 2``, ``--no-all-wild-melds``) every
  chart's title says so ("Rules: 2 card sets (232 cards), no melds of wilds only"): a
  chart is read on its own too, and only the report's text said the rules differed.
  Under the default rules the titles are as before.
- The going-out chart's log scale dropped every 0% point (log of 0) and cut the error
  bars reaching 0, common in small runs.  With a zero it is symmetric-log, linear near
  0, and every point is drawn; without one it stays the plain log scale.
"""

from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd
import pytest

from crowns_solver.analysis import five_crowns_hands, five_crowns_players
from crowns_solver.analysis._five_crowns_common import rules_line

STUDIES = [(five_crowns_hands.deals, 110), (five_crowns_hands.stuck, 20), (five_crowns_players.policies, 4),
           (five_crowns_players.tracker, 6)]


def titles(fig) -> str:
    """The figure's title: its suptitle, or its only (first) panel's title."""
    return fig._suptitle.get_text() if fig._suptitle is not None else fig.axes[0].get_title()


def test_rules_line():
    assert rules_line() == rules_line(1, True) == ""
    assert rules_line(2) == "\nRules: 2 card sets (232 cards)"
    assert rules_line(1, False) == "\nRules: no melds of wilds only"
    assert rules_line(2, False) == "\nRules: 2 card sets (232 cards), no melds of wilds only"


@pytest.mark.parametrize("run, games", STUDIES, ids=[s.__name__ for s, _ in STUDIES])
def test_every_chart_of_a_variant_report_names_its_rules(run, games):
    variant = run(games, 2026, None, sets=2, all_wild_melds=False)
    figures = [s.figure for s in variant.sections if s.figure is not None]
    assert len(figures) >= 2
    for fig in figures:
        assert titles(fig).endswith("Rules: 2 card sets (232 cards), no melds of wilds only"), titles(fig)
    one = run(games, 2026, None, all_wild_melds=False)
    for s in one.sections:
        if s.figure is not None:
            assert titles(s.figure).endswith("\nRules: no melds of wilds only") and "card sets" not in titles(s.figure)
    default = run(games, 2026, None)
    for s in default.sections:
        if s.figure is not None:
            assert "Rules:" not in titles(s.figure)


def going_out_axes(result):
    fig = next(s.figure for s in result.sections if s.title == "Going out at once")
    return fig.axes[0], next(s.table for s in result.sections if s.title == "Going out at once")


def test_the_going_out_chart_draws_its_zero_points():
    ax, table = going_out_axes(five_crowns_hands.deals(110, 2026))   # 10 hands a round: several 0% rates
    assert (table["complete_rate"] == 0).sum() >= 3
    assert ax.get_yscale() == "symlog"
    low, high = ax.get_ylim()
    assert low < 0 < high
    drawn = 0
    for line in ax.lines:   # every point and cap lies inside the frame (on the log scale a 0 had no place)
        xy = np.column_stack([line.get_xdata(), line.get_ydata()]).astype(float)
        assert len(xy) == 11   # one per round
        shown = ax.transData.transform(xy)
        assert np.all(np.isfinite(shown))
        assert np.all((shown[:, 1] >= ax.bbox.y0) & (shown[:, 1] <= ax.bbox.y1))
        drawn += 1
    assert drawn == 6   # complete as dealt, and with the first blind draw: points, low caps, high caps
    assert ax.get_ylabel().startswith("hands (%, log scale above ")


def test_without_a_zero_the_going_out_chart_keeps_its_log_scale():
    from matplotlib.figure import Figure

    table = pd.DataFrame({c: [0.1, 0.02] for c in ("complete_rate", "complete_rate_low", "complete_rate_high",
                                                   "first_draw_rate", "first_draw_rate_low", "first_draw_rate_high")})
    ax = Figure().add_subplot()
    assert five_crowns_hands._going_out_scale(ax, table) == ("hands (%, log scale)", {})
    assert ax.get_yscale() == "log"
    table.loc[1, "first_draw_rate_low"] = 0.0   # an interval reaching 0 is enough
    ax = Figure().add_subplot()
    label, legend = five_crowns_hands._going_out_scale(ax, table)
    # the log part starts at the largest power of ten at or below the smallest positive value (2%)
    assert ax.get_yscale() == "symlog" and label == "hands (%, log scale above 1%,\nlinear below it down to 0)"
    assert legend["loc"] == "upper center"
    assert matplotlib.get_backend()   # drawn with the Agg canvas only
