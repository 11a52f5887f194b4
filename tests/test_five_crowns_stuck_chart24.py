"""Session 24: the stuck study's win-rate chart of a small run had ticks up to 1.4 (the
axis keeps room above the points for the legend; a rate has no ticks above 1)."""
from crowns_solver.analysis.five_crowns_hands import stuck


def test_win_rate_axis_has_no_ticks_above_one():
    result = stuck(1, 3)
    ax = result.sections[2].figure.axes[0]
    low, top = ax.get_ylim()
    assert low == 0 and top > 1          # one game: some rate's bound reaches 1 here, the legend's room kept
    assert max(ax.get_yticks()) == 1.0
