"""Results files found by the session-17 fresh-user probe: finding 4 (a Cross Kings
match file given to ``crowns report``) and 12 (values a results file cannot hold)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import run_cli
from crowns_solver import montecarlo
from crowns_solver.cross_kings.match import match, self_play_chunk
from crowns_solver.errors import ResultsFileError
from crowns_solver.kings_crowns import simulate


def test_report_on_a_cross_kings_match_file_agrees_with_the_match(tmp_path, capsys):
    res = tmp_path / "m.jsonl"
    code, out, _ = run_cli(capsys, "cross-kings", "match", "--a", "greedy", "--b", "random", "--deals", "5",
                           "--seed", "3", "--out", str(res))
    assert code == 0
    again = match("greedy", "random", 5, seed=3, workers=1)
    s = again.summary
    code, out, err = run_cli(capsys, "report", str(res), "--out", str(tmp_path / "mrep"))
    assert code == 0 and err == ""
    assert "charts in" in out and "margin.png" in out
    text = (tmp_path / "mrep" / "report.md").read_text()
    assert "# Cross Kings match report" in text
    assert f"| A wins | {s['wins']} | 10 | {s['win']:.3f} | {s['win_low']:.3f} .. {s['win_high']:.3f} |" in text
    assert f"| A loses | {s['losses']} | 10 |" in text
    assert f"{s['margin']:+.2f} ({s['margin_low']:+.2f} .. {s['margin_high']:+.2f}) points" in text
    first = again.games[again.games["a_seat"] == "first"]
    assert f"| A wins, A first | {int(first['win_a'].sum())} | 5 |" in text
    assert (tmp_path / "mrep" / "margin.png").stat().st_size > 1000


def test_report_on_a_cross_kings_self_play_file_counts_the_first_players_results(tmp_path, capsys):
    params = {"player": "greedy", "options": {}, "reach": "any", "start": None, "chunk_size": 4,
              "root_seed": 1, "symmetry": "identity"}
    df = montecarlo.run(self_play_chunk, 9, params=params, seed=1, chunk_size=4, workers=1,
                        out=tmp_path / "sp.jsonl", meta={"game": "cross-kings"})
    code, _, _ = run_cli(capsys, "report", str(tmp_path / "sp.jsonl"), "--out", str(tmp_path / "r"))
    assert code == 0
    text = (tmp_path / "r" / "report.md").read_text()
    wins = int((df["score_first"] > df["score_second"]).sum())
    draws = int((df["score_first"] == df["score_second"]).sum())
    assert f"| first player wins | {wins} | 9 |" in text and f"| draws | {draws} | 9 |" in text
    assert f"{(df['score_first'] - df['score_second']).mean():+.2f} (" in text


def test_an_unreadable_table_is_refused_before_the_folder_is_made(tmp_path, capsys):
    def chunk(i, n, seed):  # noqa: ARG001 - a table without the conventions' columns
        return [{"x": 1}] * n

    montecarlo.run(chunk, 3, workers=1, out=tmp_path / "x.jsonl")
    code, _, err = run_cli(capsys, "report", str(tmp_path / "x.jsonl"), "--out", str(tmp_path / "xrep"))
    assert code == 2 and "not a table crowns report can read" in err and "cross-kings match" in err
    assert not (tmp_path / "xrep").exists()


def test_a_bad_winner_is_refused_before_the_folder_is_made(tmp_path, capsys):
    res = tmp_path / "k.jsonl"
    simulate(6, players=2, workers=1, chunk_size=6, out=res)
    head, line = res.read_text().splitlines()
    rec = json.loads(line)
    rec["columns"]["winner"][2] = 7
    res.write_text(head + "\n" + json.dumps(rec) + "\n")
    code, _, err = run_cli(capsys, "report", str(res), "--out", str(tmp_path / "rep"))
    assert code == 2 and "game 2 has winner 7" in err
    assert not (tmp_path / "rep").exists()


def _edited(tmp_path, column, value, row=3):
    res = tmp_path / "k.jsonl"
    if not res.exists():
        simulate(8, players=3, policies=["greedy", "random", "aggressive"], workers=1, chunk_size=4, out=res)
    head, first, second = res.read_text().splitlines()
    rec = json.loads(second)
    rec["columns"][column][row] = value
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([head, first, json.dumps(rec)]) + "\n")
    return bad


@pytest.mark.parametrize("column, value, says", [
    ("turns", -5, "game 7 has turns = -5; it must be a whole number >= 0"),
    ("reshuffles", "x", "game 7 has reshuffles = 'x'; it must be a whole number >= 0"),
    ("crowns_1", 2.5, "game 7 has crowns_1 = 2.5"),
    ("crowns_0", True, "game 7 has crowns_0 = True"),
    ("players", 0, "game 7 has players = 0; it must be a whole number >= 1"),
    ("winner", -2, "game 7 has winner = -2; it must be a whole number >= -1"),
    ("policy_1", "martian", "game 7 has policy_1 = 'martian'; the run's policies are greedy, random, aggressive"),
    ("winner_policy", "martian", "game 7 has winner_policy = 'martian'"),
])
def test_values_a_results_file_cannot_hold_are_refused_naming_game_and_column(tmp_path, capsys, column, value, says):
    bad = _edited(tmp_path, column, value)
    with pytest.raises(ResultsFileError, match=says.replace("(", r"\(").replace(")", r"\)")):
        montecarlo.read_results(bad)
    code, _, err = run_cli(capsys, "report", str(bad), "--out", str(tmp_path / "rep"))
    assert code == 2 and err.count("\n") == 1 and says in err
    assert not (tmp_path / "rep").exists()


def test_the_files_the_runs_write_pass_the_check(tmp_path):
    df = montecarlo.read_results(_edited(tmp_path, "turns", 0))  # a game of 0 turns is not impossible
    assert df["turns"].iloc[7] == 0
    montecarlo.check_columns(df.assign(policy_0="GREEDY"), df.attrs)  # letter case aside


def test_a_cross_kings_match_file_with_a_non_number_is_refused(tmp_path, capsys):
    res = tmp_path / "m.jsonl"
    match("greedy", "greedy", 2, workers=1, out=res)
    head, line = res.read_text().splitlines()
    rec = json.loads(line)
    rec["columns"]["score_first_1"][1] = "lots"
    res.write_text(head + "\n" + json.dumps(rec) + "\n")
    code, _, err = run_cli(capsys, "report", str(res), "--out", str(tmp_path / "rep"))
    assert code == 2 and "deal 1 has score_first_1 = 'lots'" in err
    assert not (tmp_path / "rep").exists()


@settings(max_examples=40, deadline=None)
@given(st.one_of(st.integers(-10**6, 10**6), st.floats(allow_nan=True), st.text(max_size=6), st.booleans(),
                 st.none(), st.lists(st.integers(), max_size=2)))
def test_any_edited_turns_value_is_read_or_refused(tmp_path_factory, value):
    bad = _edited(tmp_path_factory.mktemp("h"), "turns", value)
    try:
        df = montecarlo.read_results(bad)
    except ResultsFileError:
        return
    turns = df["turns"].dropna().to_numpy(dtype=float)
    assert (turns >= 0).all() and (turns == np.floor(turns)).all()


@pytest.mark.parametrize("value", [[1], {"a": 1}, 7, ""])
def test_a_policy_that_is_no_name_is_refused(tmp_path, value):
    with pytest.raises(ResultsFileError, match="game 7 has policy_2 = "):
        montecarlo.read_results(_edited(tmp_path, "policy_2", value))


def test_self_play_report_names_the_player_options_and_the_grid_symmetry(tmp_path, capsys):
    # session 20: the header read "greedy  in both seats" (two spaces), options as a
    # Python dict, and said nothing of a symmetry that turned every deal
    params = {"player": "search", "options": {"node_limit": 200}, "reach": "nearest", "start": 14,
              "chunk_size": 2, "root_seed": 1, "symmetry": "rot180"}
    montecarlo.run(self_play_chunk, 2, params=params, seed=1, chunk_size=2, workers=1,
                   out=tmp_path / "sp.jsonl", meta={"game": "cross-kings"})
    code, _, err = run_cli(capsys, "report", str(tmp_path / "sp.jsonl"), "--out", str(tmp_path / "r"))
    assert code == 0, err
    text = (tmp_path / "r" / "report.md").read_text()
    assert "| players | search (node_limit=200) in both seats |" in text
    assert "| grid symmetry | rot180 (every deal, and a fixed start cell, turned by it) |" in text
    assert "| reach | nearest |" in text and "| start cell | fixed at (2,2) |" in text


def test_match_report_names_the_player_options(tmp_path, capsys):
    res = tmp_path / "m.jsonl"
    match("search", "greedy", 1, seed=2, a_options={"node_limit": 300}, workers=1, out=res)
    code, _, err = run_cli(capsys, "report", str(res), "--out", str(tmp_path / "r"))
    assert code == 0, err
    text = (tmp_path / "r" / "report.md").read_text()
    assert "| players | A = search (node_limit=300), B = greedy |" in text
    assert "grid symmetry" not in text
