"""Findings of the session-21 new-user probe: each test fails on the code before its fix."""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest

from conftest import run_cli


# ------------------------------------------------- Five Crowns: a mean over one game
def test_five_crowns_summary_of_one_game_has_no_interval():
    from crowns_solver.five_crowns.cli import summarize

    one = pd.DataFrame({"game": [0, 0], "policy": ["greedy", "random"], "won": [True, False],
                        "total": [15, 207]})
    s = summarize(one)
    assert s.loc["greedy", "mean_total"] == 15 and s.loc["random", "mean_total"] == 207
    # one game: no interval (docs/decisions.md), not a half-width of 0 (certainty)
    assert math.isnan(s.loc["greedy", "total_ci"]) and math.isnan(s.loc["random", "total_ci"])
    assert math.isnan(s.loc["greedy", "sd_total"])
    # a duplicate run of one deal: the mean against the deal average has no interval either
    dup = pd.DataFrame({"game": [0, 0, 1, 1], "deal": [0, 0, 0, 0], "policy": ["greedy", "random"] * 2,
                        "won": [True, False, True, False], "total": [10, 200, 20, 210]})
    d = summarize(dup)
    assert d.loc["greedy", "vs_deal"] == pytest.approx(15 - 110)
    assert math.isnan(d.loc["greedy", "vs_deal_ci"]) and math.isnan(d.loc["greedy", "total_ci"])
    # two games still get Student's t: the games' totals 10 and 20, t(0.975, 1) * 5
    two = pd.DataFrame({"game": [0, 1], "policy": ["greedy"] * 2, "won": [True, True], "total": [10, 20]})
    assert summarize(two).loc["greedy", "total_ci"] == pytest.approx(12.706204736 * 5)


def test_five_crowns_simulate_one_game_prints_no_interval(capsys):
    code, out, err = run_cli(capsys, "five-crowns", "simulate", "1", "--policies", "greedy", "random",
                             "--workers", "1")
    assert code == 0, err
    rows = [line for line in out.splitlines() if line.startswith(("greedy", "random"))]
    assert len(rows) == 2
    for row in rows:
        assert "+- n/a" in row and "+- 0.0" not in row
    code, out, err = run_cli(capsys, "five-crowns", "simulate", "1", "--policies", "greedy", "random",
                             "--workers", "1", "--json")
    assert code == 0, err
    data = json.loads(out)            # valid JSON: null, not NaN
    for row in data["policies"].values():
        assert row["seat_games"] == 1 and row["total_ci"] is None and row["sd_total"] is None
        assert row["mean_total"] >= 0 and 0 <= row["win_low"] <= row["win_rate"] <= row["win_high"] <= 1


def test_results_report_of_one_game_leaves_the_missing_bounds_empty(tmp_path, capsys):
    res = tmp_path / "f1.jsonl"
    code, _, err = run_cli(capsys, "five-crowns", "simulate", "1", "--policies", "greedy", "random",
                           "--workers", "1", "--out", str(res))
    assert code == 0, err
    code, _, err = run_cli(capsys, "report", str(res), "--out", str(tmp_path / "rep"))
    assert code == 0, err
    text = (tmp_path / "rep" / "report.md").read_text()
    table = text.split("## Points per game by policy")[1].split("## ")[0]
    rows = [line for line in table.splitlines() if line.startswith(("| greedy", "| random"))]
    assert len(rows) == 2
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[1] == "1" and float(cells[2]) >= 0 and cells[3:] == ["", ""]   # not "nan"


# ------------------------------------------------- crowns report RESULTS: its own charts
def _results(tmp_path, capsys):
    kc, ck = tmp_path / "kc.jsonl", tmp_path / "ck.jsonl"
    assert run_cli(capsys, "kings-crowns", "simulate", "--games", "20", "--workers", "1", "--out", str(kc))[0] == 0
    assert run_cli(capsys, "cross-kings", "match", "--a", "greedy", "--b", "random", "--deals", "2",
                   "--workers", "1", "--out", str(ck))[0] == 0
    return kc, ck


def test_results_report_lists_and_keeps_only_its_own_charts(tmp_path, capsys):
    kc, ck = _results(tmp_path, capsys)
    rep = tmp_path / "rep"
    code, out, err = run_cli(capsys, "report", str(kc), "--out", str(rep))
    assert code == 0, err
    kc_charts = ["final_crowns.png", "game_length.png", "win_rate_by_policy.png", "win_rate_by_seat.png"]
    assert out.splitlines()[-1] == f"charts in {rep}: {', '.join(kc_charts)}"
    (rep / "photo.png").write_bytes(b"the user's")   # not a chart of the report
    # a match report in the same folder: it draws margin.png only
    code, out, err = run_cli(capsys, "report", str(ck), "--out", str(rep))
    assert code == 0, err
    assert out.splitlines()[-1] == f"charts in {rep}: margin.png"
    # the King's Crowns charts were that earlier report's: gone; the user's file stays
    assert sorted(p.name for p in rep.iterdir()) == ["margin.png", "photo.png", "report.md"]
    assert (rep / "photo.png").read_bytes() == b"the user's"
    code, out, err = run_cli(capsys, "report", str(kc), "--out", str(rep))
    assert code == 0, err
    assert out.splitlines()[-1] == f"charts in {rep}: {', '.join(kc_charts)}"
    assert sorted(p.name for p in rep.iterdir()) == sorted(kc_charts + ["photo.png", "report.md"])


def test_results_report_over_a_users_folder_with_force_deletes_nothing(tmp_path, capsys):
    kc, ck = _results(tmp_path, capsys)
    rep = tmp_path / "rep"
    rep.mkdir()
    (rep / "report.md").write_text("my notes\n")
    (rep / "final_crowns.png").write_bytes(b"mine")
    code, _, err = run_cli(capsys, "report", str(ck), "--out", str(rep))
    assert code == 2 and "was not written by crowns report" in err
    code, out, err = run_cli(capsys, "report", str(ck), "--out", str(rep), "--force")
    assert code == 0, err
    assert out.splitlines()[-1] == f"charts in {rep}: margin.png"
    assert (rep / "final_crowns.png").read_bytes() == b"mine"    # --force replaces, it does not delete


# ------------------------------------------------- King's Crowns: one game
def test_kings_crowns_simulate_says_one_game(capsys):
    code, out, err = run_cli(capsys, "kings-crowns", "simulate", "--games", "1", "--workers", "1")
    assert code == 0, err
    assert out.startswith("King's Crowns: 1 game, 4 players (greedy, greedy, greedy, greedy),")   # was "1 games"
    code, out, err = run_cli(capsys, "kings-crowns", "simulate", "--games", "2", "--workers", "1")
    assert code == 0, err
    assert out.startswith("King's Crowns: 2 games, 4 players")


# ------------------------------------------------- Five Crowns records: flags are true or false
@pytest.fixture(scope="module")
def fc_record():
    from crowns_solver.five_crowns.game import GameRules, play_game

    return play_game(["greedy", "advisor"], seed=4, rules=GameRules(players=2, rounds=2)).record


def _edited(record, round_index, turn_index, key, value):
    import copy

    rec = copy.deepcopy(record)
    rec["rounds"][round_index]["turns"][turn_index][key] = value
    return rec


def test_replay_refuses_out_and_final_flags_that_are_not_booleans(fc_record):
    from crowns_solver.errors import RecordError
    from crowns_solver.five_crowns.game import replay

    turns = fc_record["rounds"][0]["turns"]
    out_at = next(i for i, t in enumerate(turns) if t.get("out"))
    final_at = next(i for i, t in enumerate(turns) if t.get("final"))
    assert replay(_edited(fc_record, 0, out_at, "out", True)).totals == tuple(fc_record["totals"])
    # a string "false" was read as true: the going-out turn replayed as recorded
    for key, at, value in (("out", out_at, "false"), ("out", out_at, 1), ("final", final_at, "no"),
                           ("out", 0, "yes"), ("final", 0, None)):
        with pytest.raises(RecordError, match=rf"round 1 turn {at + 1}: '{key}' must be true or false, got {value!r}"):
            replay(_edited(fc_record, 0, at, key, value))
    # seat true is not seat 1
    seat_one = next(i for i, t in enumerate(turns) if t["seat"] == 1)
    with pytest.raises(RecordError, match=rf"round 1 turn {seat_one + 1}: expected seat 1 to play"):
        replay(_edited(fc_record, 0, seat_one, "seat", True))


# ------------------------------------------------- Cross Kings results report: a | in the file name
def test_match_report_escapes_a_bar_in_the_results_file_name(tmp_path, capsys):
    res = tmp_path / "m|x.jsonl"
    assert run_cli(capsys, "cross-kings", "match", "--a", "greedy", "--b", "random", "--deals", "1",
                   "--workers", "1", "--out", str(res))[0] == 0
    code, _, err = run_cli(capsys, "report", str(res), "--out", str(tmp_path / "rep"))
    assert code == 0, err
    rows = [line for line in (tmp_path / "rep" / "report.md").read_text().splitlines()
            if line.startswith("| results file |")]
    # two cells, as the King's Crowns and Five Crowns reports have since session 19 (the |
    # split the row into three)
    assert rows == [f"| results file | {str(res).replace('|', chr(92) + '|')} |"]


def test_study_report_escapes_a_bar_in_the_rerun_command(tmp_path, capsys):
    out = tmp_path / "a|b"
    code, _, err = run_cli(capsys, "report", "--only", "kings_crowns_seats", "--games", "20", "--out", str(out),
                           "--no-progress", "--workers", "1")
    assert code == 0, err
    rows = [line for line in (out / "kings_crowns_seats.md").read_text().splitlines() if line.startswith("| rerun |")]
    quoted = "'" + str(out).replace("|", chr(92) + "|") + "'"
    assert rows == [f"| rerun | `crowns report --only kings_crowns_seats --seed 2026 --games 20 --out {quoted}` |"]
