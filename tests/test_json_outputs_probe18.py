"""``--json`` holds every figure the text output of the same command prints.

Found by the session-18 probe: ``kings-crowns simulate --json`` had no policies, deck size,
turn cap or median game length, and ``five-crowns simulate --json`` no mean game length,
turn cap or seat rotation, although the text output prints them.  Values are checked
against the results each command wrote (the results file, the ``--csv`` table).
"""

from __future__ import annotations

import json

import pandas as pd
import pytest
from conftest import run_cli

from crowns_solver.montecarlo import read_results


def test_kings_crowns_simulate_json_has_what_the_text_shows(capsys, tmp_path):
    argv = ["kings-crowns", "simulate", "--games", "60", "--players", "3", "--policy", "greedy", "aggressive",
            "random", "--rotate", "--seed", "5", "--workers", "1", "--max-turns", "900"]
    code, text, _ = run_cli(capsys, *argv, "--out", str(tmp_path / "r.jsonl"))
    assert code == 0
    df = read_results(tmp_path / "r.jsonl")
    code, out, _ = run_cli(capsys, *argv, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["policies"] == ["greedy", "aggressive", "random"] and data["rotate"] is True
    assert data["deck_cards"] == 118 and data["max_turns"] == 900
    assert data["median_turns"] == df["turns"].median() and data["mean_turns"] == df["turns"].mean()
    assert data["stalemates"] == int((df["winner"] < 0).sum())
    # and the text says the same
    assert "(greedy, aggressive, random, rotated)" in text and "(118 cards)" in text
    assert "turn cap 900" in text and f"median {df['turns'].median():.0f}" in text


def test_five_crowns_simulate_json_has_what_the_text_shows(capsys, tmp_path):
    argv = ["five-crowns", "simulate", "6", "--policies", "greedy", "random", "--rotate", "--seed", "2",
            "--workers", "1", "--ties", "tiebreak", "--max-tiebreaks", "2"]
    code, text, _ = run_cli(capsys, *argv, "--csv", str(tmp_path / "g.csv"))
    assert code == 0
    rows = pd.read_csv(tmp_path / "g.csv")
    code, out, _ = run_cli(capsys, *argv, "--json")
    assert code == 0
    data = json.loads(out)
    per_game = rows.groupby("game").first()
    assert data["mean_turns"] == per_game["turns"].mean()
    assert f"mean turns per game {per_game['turns'].mean():.1f}" in text
    assert data["rotate"] is True and data["max_turns"] == 2000 and data["max_tiebreaks"] == 2
    assert data["tied_games"] == int((per_game["tiebreaks"] > 0).sum())
    assert set(data["policies"]) == {"greedy", "random"}
    for policy, figures in data["policies"].items():
        mine = rows[rows["policy"] == policy]
        assert figures["seat_games"] == len(mine) and isinstance(figures["seat_games"], int)
        assert figures["wins"] == int(mine["won"].sum()) and isinstance(figures["wins"], int)
        assert figures["mean_total"] == mine["total"].mean()


def test_cross_kings_analyse_json_has_the_text_summary(capsys):
    save = ("??7S6H2H8H??/5H6C3SAHKH7C/3C8C??KC5D4C/4HAD??7D2D5S/7H4DKD6D6S8S/5C3D4SKS2S2C"
            "//ASAC8D3H//301273969908864214574189716")
    argv = ["cross-kings", "analyse", save, "--node-limit", "3000", "--time", "0"]
    code, text, _ = run_cli(capsys, *argv)
    assert code == 0
    code, out, _ = run_cli(capsys, *argv, "--json")
    assert code == 0
    data = json.loads(out)
    for player in ("first", "second"):
        moves = [m for m in data["moves"] if m["player"] == player]
        summary = data["summary"][player]
        assert summary["moves"] == len(moves) > 0
        assert summary["points_lost"] == pytest.approx(sum(m["loss"] for m in moves if m["loss"] is not None))
        assert summary["best_moves"] == sum(m["loss"] is not None and m["loss"] <= 5e-10 for m in moves)
        assert summary["exact"] == sum(m["exact"] for m in moves)
        assert summary["not_valued"] == sum(m["loss"] is None for m in moves)
        line = f"{player}: {summary['points_lost']:.2f} points lost over {len(moves)} moves"
        assert line + f" ({summary['best_moves']} best moves; {summary['exact']} of {len(moves)}" in text
