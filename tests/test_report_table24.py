"""Session 24: a study table's zero-width interval reads "no spread", as the CLI and the
points table say (it printed the mean three times, as if certain)."""
import numpy as np
import pandas as pd

from crowns_solver.report import _table_markdown


def _rows(md: str) -> list[list[str]]:
    return [[c.strip() for c in line.strip("|").split("|")] for line in md.splitlines()[2:]]


def test_zero_width_interval_reads_no_spread_and_others_stay_numbers():
    table = pd.DataFrame({"policy": ["a", "b", "c"], "turns": [12.0, 10.5, 7.0],
                          "turns_low": [12.0, 9.25, np.nan], "turns_high": [12.0, 11.75, np.nan]})
    rows = _rows(_table_markdown(table))
    assert rows[0] == ["a", "12", "no spread", "no spread"]
    assert rows[1] == ["b", "10.5", "9.25", "11.8"]
    assert rows[2] == ["c", "7", "", ""]          # no interval (one observation): empty, not "no spread"


def test_columns_without_a_pair_are_untouched():
    table = pd.DataFrame({"x": [1.0], "x_low": [1.0], "y_high": [1.0]})
    assert _rows(_table_markdown(table)) == [["1", "1", "1"]]


def test_a_bound_that_rounds_onto_the_estimate_gets_the_digits_that_tell_them_apart():
    # the King's Crowns tournament table read "1 | 1 | 1" for 40,000 wins in 40,000 games
    table = pd.DataFrame({"win_rate": [1.0, 0.5], "win_rate_low": [0.99990397, 0.4],
                          "win_rate_high": [1.0, 0.6]})
    assert _rows(_table_markdown(table)) == [["1", "0.9999", "1"], ["0.5", "0.4", "0.6"]]


def test_points_by_policy_clips_a_negative_low_bound_at_zero():
    # a Five Crowns duplicate results file of three deals showed advisor 55.2, low -1.4
    from crowns_solver.montecarlo import mean_interval
    from crowns_solver.report import points_by_policy

    totals = [0.0, 0.0, 160.0, 5.0]
    df = pd.DataFrame({"game": [0, 1, 2, 3], "policy_0": ["a"] * 4, "total_0": totals})
    table = points_by_policy(df, [0])
    mean, low, high = mean_interval(np.array(totals))
    assert low < 0                                         # what the t interval gives
    assert table.loc[0, "mean total"] == mean == 41.25
    assert table.loc[0, "low"] == 0.0 and table.loc[0, "high"] == high


def test_a_deck_name_with_hyphens_cannot_end_the_markers_comment():
    # a deck named "a --> b" ended the report's first-line HTML comment early; the words
    # read back are the words written (the index showed "a - -> b" with a first fix), and
    # names that differ stay different
    from crowns_solver.report import _marker_rules, _marker_words, _study_marker

    for words in ("deck a --> b--- c (38 cards)", "deck a - -> b (38 cards)", "deck 100%2D -- x"):
        marker = _study_marker("kings_crowns_seats", words)
        assert marker.startswith("<!-- ") and marker.endswith(" -->")
        assert "--" not in marker[len("<!--"):-len("-->")]
        assert _marker_words(marker) == words and _marker_rules(marker) == f"rules options {words}"
    assert _study_marker("x", "deck a --> b") != _study_marker("x", "deck a - -> b")
    assert _study_marker("x", "reach nearest") == "<!-- crowns-study: x; rules: reach nearest -->"
    assert _marker_words(_study_marker("x")) is None
