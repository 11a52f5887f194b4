"""Session 23 (tables): intervals, their labels and inputs, variant charts, the report's
output folder on interruption, and empty policy option items."""

from __future__ import annotations

import pytest
from conftest import run_cli

from crowns_solver.errors import PolicySpecError


# ---------------------------------------------------------------- 6. policy specs

@pytest.mark.parametrize("spec", ["lookahead:", "lookahead: ", "lookahead: , ", "lookahead:samples=2,,horizon=2",
                                  "lookahead:samples=2,", "lookahead:,samples=2"])
def test_empty_lookahead_option_items_are_refused_naming_the_spec(spec):
    from crowns_solver.kings_crowns.policies import get_policy

    with pytest.raises(PolicySpecError, match="empty lookahead option|no lookahead options") as info:
        get_policy(spec)
    assert repr(spec) in str(info.value)


def test_lookahead_options_still_parse():
    from crowns_solver.kings_crowns.policies import get_policy

    p = get_policy("lookahead:samples=2, horizon=3")
    assert (p.samples, p.horizon) == (2, 3)
    assert get_policy("lookahead").samples == get_policy("LOOKAHEAD ").samples


def test_empty_policy_option_item_from_the_cli(capsys):
    rc, out, err = run_cli(capsys, "kings-crowns", "simulate", "--games", "2", "--workers", "1",
                           "--policy", "lookahead:samples=2,,horizon=2")
    assert rc == 2 and "lookahead:samples=2,,horizon=2" in err and out == ""
    rc, out, err = run_cli(capsys, "five-crowns", "simulate", "2", "--workers", "1", "--policies", "greedy:")
    assert rc == 2 and "'greedy:'" in err


# ---------------------------------------------------------------- 5. the report's folder

def _failing_registry(monkeypatch, exc):
    import dataclasses

    from crowns_solver import report

    real = report._registry_or_empty()

    def boom(*args, **kwargs):
        raise exc

    studies = {name: dataclasses.replace(st, run=boom) for name, st in real.items()}
    monkeypatch.setattr(report, "_registry_or_empty", lambda: studies)


@pytest.mark.parametrize("exc", [KeyboardInterrupt(), RuntimeError("a study failed")])
def test_interrupted_report_removes_the_empty_folder_it_made(tmp_path, monkeypatch, exc):
    from crowns_solver.report import run_studies

    _failing_registry(monkeypatch, exc)
    out = tmp_path / "sigrep"
    with pytest.raises(type(exc)):
        run_studies(["kings_crowns_tournament"], quick=True, out_dir=out, workers=1, progress=False)
    assert not out.exists()


def test_interrupted_report_keeps_a_folder_that_existed(tmp_path, monkeypatch):
    from crowns_solver.report import run_studies

    _failing_registry(monkeypatch, KeyboardInterrupt())
    out = tmp_path / "mine"
    out.mkdir()
    with pytest.raises(KeyboardInterrupt):
        run_studies(["kings_crowns_tournament"], quick=True, out_dir=out, workers=1, progress=False)
    assert out.is_dir() and list(out.iterdir()) == []


def test_interrupted_cli_report_removes_its_folder(tmp_path, monkeypatch, capsys):
    _failing_registry(monkeypatch, KeyboardInterrupt())
    out = tmp_path / "sigrep"
    rc, _, err = run_cli(capsys, "report", "--only", "kings_crowns_tournament", "--quick", "--workers", "1",
                         "--no-progress", "--out", str(out))
    assert rc == 130 and "interrupted" in err
    assert not out.exists()


def test_failed_results_report_removes_its_new_folder(tmp_path, monkeypatch):
    from crowns_solver import report
    from crowns_solver.kings_crowns import simulate

    df = simulate(20, players=2, policies=["greedy", "random"], seed=1, workers=1)

    def boom(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(report, "win_rate_chart", boom)
    out = tmp_path / "rep"
    with pytest.raises(KeyboardInterrupt):
        report.write_report(df, out)
    assert not out.exists()
    out.mkdir()
    with pytest.raises(KeyboardInterrupt):
        report.write_report(df, out)
    assert out.is_dir()


# ---------------------------------------------------------------- 2. text as counts

def test_cluster_wilson_interval_refuses_text_naming_the_argument():
    from crowns_solver.errors import RunnerError
    from crowns_solver.montecarlo import cluster_wilson_interval

    with pytest.raises(RunnerError, match=r"^wins must be .*'1' \(text\)"):
        cluster_wilson_interval(["1", "0"], [2, 2])
    with pytest.raises(RunnerError, match=r"^trials must be .*'2' \(text\)"):
        cluster_wilson_interval([1, 0], ["2", 2])
    with pytest.raises(RunnerError, match=r"^trials must be .*True \(a bool\)"):
        cluster_wilson_interval([1, 0], [True, 2])
    # bools stay allowed as outcomes (a cluster of one trial, won or not): plain Wilson of 1 of 2
    rate, low, high = cluster_wilson_interval([True, False], [1, 1])
    assert rate == 0.5 and (low, high) == pytest.approx((0.0945312, 0.9054688), abs=1e-6)
    assert cluster_wilson_interval([1.0, 0.0], [1, 1]) == (rate, low, high)


def test_win_rates_refuses_text_and_a_bool_winner():
    import pandas as pd

    from crowns_solver.errors import RunnerError
    from crowns_solver.montecarlo import win_rates

    seats = {"policy_0": ["a", "b"], "policy_1": ["b", "a"]}
    with pytest.raises(RunnerError, match=r"row 0 has win_0 = '1'.*text is not read as a number"):
        win_rates(pd.DataFrame({**seats, "win_0": ["1", "0"], "win_1": [0, 1]}), by="policy")
    with pytest.raises(RunnerError, match=r"row 0 has winner '1'.*text"):
        win_rates(pd.DataFrame({**seats, "winner": ["1", 0]}), by="seat")
    with pytest.raises(RunnerError, match=r"row 0 has winner True.*a bool is not a seat number"):
        win_rates(pd.DataFrame({**seats, "winner": [True, 0]}), by="policy")
    flags = win_rates(pd.DataFrame({**seats, "win_0": [True, False], "win_1": [False, True]}), by="policy")
    assert flags.loc["a", "wins"] == 2 and flags.loc["b", "wins"] == 0


# ---------------------------------------------------------------- 1. interval labels, one policy

def test_kings_crowns_table_labels_its_intervals_and_notes_one_policy(capsys):
    rc, out, _ = run_cli(capsys, "kings-crowns", "simulate", "--workers", "1", "--games", "100", "--seed", "7")
    assert rc == 0
    head = next(line for line in out.splitlines() if line.startswith("policy"))
    assert head.endswith("95% CI (games as clusters)") and "Wilson" not in head
    assert "greedy           100     400   0.250   0.241 .. 0.250" in out
    note = next(line for line in out.splitlines() if line.startswith("note:"))
    assert "greedy plays every seat" in note and "1/4 by construction" in note
    rc, out, _ = run_cli(capsys, "kings-crowns", "simulate", "--workers", "1", "--games", "100", "--seed", "7",
                         "--by", "seat")
    assert "95% CI (Wilson)" in out and "note:" not in out   # one seat per game: plain Wilson
    rc, out, _ = run_cli(capsys, "kings-crowns", "simulate", "--workers", "1", "--games", "40", "--seed", "7",
                         "--players", "2", "--policy", "greedy", "random", "--rotate")
    assert "95% CI (games as clusters)" in out and "note:" not in out


def test_five_crowns_table_says_games_or_deals_as_clusters(capsys):
    rc, out, _ = run_cli(capsys, "five-crowns", "simulate", "5", "--duplicate", "--workers", "1")
    assert rc == 0
    assert "win rate (95% CI, deals as clusters)" in out
    assert "note: greedy plays every seat, so its win rate is 1/4 by construction" in out
    assert "average against the deal is 0 by construction" in out
    rc, out, _ = run_cli(capsys, "five-crowns", "simulate", "4", "--policies", "greedy", "random", "--workers", "1")
    assert "win rate (95% CI, games as clusters)" in out and "note:" not in out
    rows = [line for line in out.splitlines() if line.startswith(("greedy", "random"))]
    assert all(line == line.rstrip() for line in rows) and len(rows) == 2


def test_results_report_labels_intervals_and_notes_one_policy(tmp_path):
    from crowns_solver.kings_crowns import simulate
    from crowns_solver.report import write_report

    one = write_report(simulate(30, players=3, seed=2, workers=1), tmp_path / "one").read_text()
    assert "| 95% CI (games as clusters)" in one and "| 95% CI (Wilson)" in one
    assert "Note: greedy plays every seat, so its win rate is 1/3 by construction" in one
    two = write_report(simulate(30, players=2, policies=["greedy", "random"], rotate=True, seed=2, workers=1),
                       tmp_path / "two").read_text()
    assert "Note:" not in two and "games as clusters" in two


# ---------------------------------------------------------------- 4. variant charts of the other games

def few_sins(tmp_path):
    """The default deck file with 2 of each Sin (106 cards), named 'few sins' (as
    test_report_rules_options' helper; importing that module registers its toy study twice)."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "crowns_solver" / "data" / "kings_crowns_deck.toml").read_text()
    text = text.replace('name = "default"', 'name = "few sins"')
    for colour in ("orange", "maroon", "purple"):
        text = text.replace(f"sin-{colour} = 6", f"sin-{colour} = 2")
    path = tmp_path / "deck.toml"
    path.write_text(text)
    return path


def _titles(result) -> list[str]:
    """Each figure's title: its suptitle, or its first panel's title."""
    figures = [s.figure for s in result.sections if s.figure is not None]
    assert figures
    return [fig._suptitle.get_text() if fig._suptitle is not None else fig.axes[0].get_title() for fig in figures]


def test_rules_lines_of_the_other_games(tmp_path):
    from crowns_solver.analysis._cross_kings_common import rules_line as ck_line
    from crowns_solver.analysis._kings_crowns_common import rules_line as kc_line
    from crowns_solver.kings_crowns.deck import DEFAULT_DECK, load_deck

    assert ck_line() == ck_line("any") == ""
    assert ck_line("nearest") == '\nRules: reach "nearest" (only the nearest card in each direction can be taken)'
    assert kc_line() == kc_line(DEFAULT_DECK) == ""
    assert kc_line(load_deck(few_sins(tmp_path))) == "\nRules: deck 'few sins' (106 cards, not the default 118)"


def test_every_cross_kings_chart_under_reach_nearest_says_so():
    import crowns_solver.analysis.cross_kings_evaluation as ev
    import crowns_solver.analysis.cross_kings_strategy as ck

    for result in (ck.first_player(3, 1, reach="nearest"), ck.start_cell(1, 3, reach="nearest"),
                   ck.open_vs_game(4, 1, reach="nearest"), ck.players(len(ck.PAIRINGS), 1, reach="nearest"),
                   ev.evaluation(3, 1, reach="nearest")):
        for title in _titles(result):
            assert title.endswith('\nRules: reach "nearest" (only the nearest card in each direction can be taken)')
    for title in _titles(ck.open_vs_game(4, 1)):
        assert "Rules:" not in title


def test_every_kings_crowns_chart_under_another_deck_says_so(tmp_path):
    from crowns_solver.analysis import kings_crowns_length, kings_crowns_seats, kings_crowns_tournament
    from crowns_solver.kings_crowns.deck import load_deck

    deck = load_deck(few_sins(tmp_path))
    for study in (kings_crowns_length, kings_crowns_seats, kings_crowns_tournament):
        titles = _titles(study.run(20, 1, deck=deck))
        assert len(titles) >= 3
        for title in titles:
            assert title.endswith("\nRules: deck 'few sins' (106 cards, not the default 118)"), title
    for title in _titles(kings_crowns_seats.run(20, 1)):
        assert "Rules:" not in title


def test_the_published_bar_under_reach_nearest_says_it_is_of_other_rules():
    import crowns_solver.analysis.cross_kings_strategy as ck

    result = ck.first_player(3, 1, reach="nearest")
    fig = next(s.figure for s in result.sections if s.figure is not None)
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert labels[2] == 'crosskings.net published\n(reach "any": other rules)'


# ---------------------------------------------------------------- 3. zero-width intervals

def test_first_draw_rate_interval_is_honest_at_zero():
    import numpy as np

    from crowns_solver.analysis.five_crowns_hands import deals_table, split_hands
    from crowns_solver.montecarlo import wilson_interval

    t = deals_table(split_hands(110), 2026)
    zero = t[t["first_draw_rate"] == 0]
    assert len(zero) >= 1   # the 8-card round of this seed: no hand of 10 could go out
    for _, row in zero.iterrows():
        # no hand could go out: each hand one observation, Wilson's 0 of 10 (0 to 0.278), not 0 to 0
        assert (row["first_draw_rate_low"], row["first_draw_rate_high"]) == pytest.approx(wilson_interval(0, 10))
    assert np.all(t["first_draw_rate_low"] <= t["first_draw_rate"])
    assert np.all(t["first_draw_rate"] < t["first_draw_rate_high"])


def test_zero_width_mean_intervals_are_shown_as_no_spread(capsys):
    import pandas as pd

    from crowns_solver.montecarlo import mean_interval
    from crowns_solver.report import _points_markdown

    assert mean_interval([3.0, 3.0, 3.0]) == (3.0, 3.0, 3.0)   # documented: no spread seen
    table = _points_markdown(pd.DataFrame([
        {"policy": "a", "seat-games": 4, "mean total": 12.0, "low": 12.0, "high": 12.0},
        {"policy": "b", "seat-games": 4, "mean total": 20.25, "low": 15.123, "high": 25.5},
        {"policy": "c", "seat-games": 1, "mean total": 3.0, "low": float("nan"), "high": float("nan")}]))
    rows = table.splitlines()[2:]
    assert rows[0].split("|")[4:6] == [" no spread ", " no spread "]
    assert [c.strip() for c in rows[1].split("|")[4:6]] == ["15.1", "25.5"]
    assert [c.strip() for c in rows[2].split("|")[4:6]] == ["", ""]
    # one policy in every seat of duplicate deals: its total against the deal is 0 in every deal
    rc, out, _ = run_cli(capsys, "five-crowns", "simulate", "5", "--duplicate", "--workers", "1")
    row = next(line for line in out.splitlines() if line.startswith("greedy"))
    assert row.endswith("0.00 (no spread)") and "+- 0.00" not in out


def test_duplicate_report_counts_each_deal_once_like_simulate(tmp_path):
    from crowns_solver.five_crowns.simulation import simulate, summarize
    from crowns_solver.montecarlo import read_results, win_rates
    from crowns_solver.report import _stack_seatings, write_report

    out = tmp_path / "dup.jsonl"
    df = simulate(10, players=3, policies=["greedy", "random", "greedy"], seed=0, workers=1, out=out, duplicate=True)
    summary = summarize(df)
    stacked = _stack_seatings(read_results(out))
    by_policy = win_rates(stacked, by="policy", clusters="game")
    for policy in summary.index:   # the same interval for the same rate: each deal one observation
        assert (by_policy.loc[policy, "ci_low"], by_policy.loc[policy, "ci_high"]) == pytest.approx(
            (summary.loc[policy, "win_low"], summary.loc[policy, "win_high"]))
    assert by_policy.loc["random", "wins"] == 0
    assert by_policy.loc["random", "ci_high"] == pytest.approx(0.2775328)   # Wilson 0 of 10 deals, not of 30 games
    text = write_report(out, tmp_path / "rep").read_text()
    assert "| 95% CI (deals as clusters)" in text and "0.000 .. 0.278" in text and "0.000 .. 0.114" not in text


def test_win_rates_clusters_argument():
    import pandas as pd

    from crowns_solver.errors import RunnerError
    from crowns_solver.montecarlo import cluster_wilson_interval, win_rates

    t = pd.DataFrame({"game": [0, 0, 1, 1, 2, 2], "policy_0": ["a", "b"] * 3, "policy_1": ["b", "a"] * 3,
                      "winner": [0, 0, 1, 0, 0, 1]})
    by_seat = win_rates(t, by="seat", clusters="game")
    assert by_seat.loc[0, "wins"] == 4
    assert (by_seat.loc[0, "ci_low"], by_seat.loc[0, "ci_high"]) == pytest.approx(
        cluster_wilson_interval([2, 1, 1], [2, 2, 2])[1:])
    with pytest.raises(RunnerError, match="clusters must name a column"):
        win_rates(t, by="policy", clusters="deal")
