"""Five Crowns rules options on the command line (session-20 design probe): the number of
sets and ``all_wild_melds`` (RULES.md, Five Crowns) were API-only for ``play`` and
``simulate``; the commands always played one set up to 7 players and allowed melds of
wilds only, so a designer could not compare the variants from ``crowns``."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from crowns_solver import montecarlo
from crowns_solver.five_crowns.game import GameRules, play_game
from crowns_solver.five_crowns.simulation import simulate


def test_play_two_sets_plays_the_api_game_with_two_sets(capsys):
    code, out, err = run_cli(capsys, "five-crowns", "play", "greedy", "advisor", "--seed", "3", "--rounds", "3",
                             "--sets", "2", "--json")
    assert code == 0, err
    got = json.loads(out)
    two = play_game(["greedy", "advisor"], seed=3, rules=GameRules(players=2, rounds=3, sets=2))
    one = play_game(["greedy", "advisor"], seed=3, rules=GameRules(players=2, rounds=3))
    assert got["rules"]["sets"] == 2 and got["round_scores"] == two.round_scores.tolist()
    assert two.round_scores.tolist() != one.round_scores.tolist()   # the option is not a no-op


def test_play_text_says_the_sets_and_the_wild_melds_rule(capsys, tmp_path):
    rec = tmp_path / "g.json"
    code, out, err = run_cli(capsys, "five-crowns", "play", "greedy", "greedy", "--rounds", "1", "--sets", "2",
                             "--no-all-wild-melds", "--save", str(rec))
    assert code == 0, err
    assert out.startswith("seed 0, 2 players, 2 sets, no melds of wilds only\n")
    rules = json.loads(rec.read_text())["rules"]
    assert rules["sets"] == 2 and rules["all_wild_melds"] is False
    code, out, err = run_cli(capsys, "five-crowns", "replay", str(rec), "--rerun")
    assert code == 0, err
    assert out.startswith("seed 0, 2 players, 2 sets, no melds of wilds only\n")


def test_simulate_records_and_prints_the_options(capsys, tmp_path):
    res = tmp_path / "r.jsonl"
    args = ["five-crowns", "simulate", "6", "--players", "3", "--workers", "1", "--seed", "2", "--sets", "2",
            "--no-all-wild-melds", "--out", str(res)]
    code, out, err = run_cli(capsys, *args, "--json")
    assert code == 0, err
    got = json.loads(out)
    assert got["sets"] == 2 and got["all_wild_melds"] is False
    rules = montecarlo.read_header(res)["params"]["rules"]
    assert rules["sets"] == 2 and rules["all_wild_melds"] is False
    api = simulate(6, players=3, seed=2, workers=1, rules=GameRules(players=3, sets=2, all_wild_melds=False))
    assert got["policies"]["greedy"]["mean_total"] == pytest.approx(api["total"].mean())
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    assert out.startswith("6 games, 3 players, 2 sets, no melds of wilds only, seed 2;")
    # the same file without the options is another run: refused, not mixed
    code, out, err = run_cli(capsys, "five-crowns", "simulate", "6", "--players", "3", "--workers", "1",
                             "--seed", "2", "--out", str(res))
    assert code == 2 and not out
    assert "different params" in err and "all_wild_melds" in err and err.count("\n") == 1


def test_simulate_default_sets_follow_the_table(capsys):
    code, out, err = run_cli(capsys, "five-crowns", "simulate", "1", "--players", "8", "--workers", "1", "--json")
    assert code == 0, err
    assert json.loads(out)["sets"] == 2 and json.loads(out)["all_wild_melds"] is True


@pytest.mark.parametrize("command", [["play"] + ["greedy"] * 8, ["simulate", "1", "--players", "8", "--workers", "1"]])
def test_one_set_for_more_than_seven_players_is_one_line(capsys, command):
    code, out, err = run_cli(capsys, "five-crowns", *command, "--sets", "1")
    assert code == 2 and not out
    assert err == "crowns: error: --sets 1: one set of cards is for 1 to 7 players, not 8\n"


def test_simulate_rounds_plays_the_shorter_game(capsys):
    # play had --rounds, simulate did not: the shorter game could not be simulated
    code, out, err = run_cli(capsys, "five-crowns", "simulate", "4", "--players", "2", "--workers", "1",
                             "--rounds", "3", "--json")
    assert code == 0, err
    api = simulate(4, players=2, workers=1, rules=GameRules(players=2, rounds=3))
    got = json.loads(out)
    assert got["rounds"] == 3 and "round_4" not in api.columns
    assert got["policies"]["greedy"]["mean_total"] == pytest.approx(api["total"].mean())
    code, out, err = run_cli(capsys, "five-crowns", "simulate", "4", "--players", "2", "--workers", "1",
                             "--rounds", "3")
    assert out.startswith("4 games, 2 players, 1 set, rounds 1 to 3 only, seed 0;")
    code, out, err = run_cli(capsys, "five-crowns", "simulate", "4", "--workers", "1", "--rounds", "12")
    assert code == 2 and err == "crowns: error: --rounds must be an integer 1..11, got 12\n"


@pytest.mark.parametrize("command", [["deadwood", "--round", "1", "JK", "JK", "JK"],
                                     ["discard", "--round", "1", "JK", "JK", "JK", "4H"],
                                     ["take", "--round", "1", "--top", "4H", "JK", "JK", "JK"]])
def test_meld_commands_say_the_rules_options_they_used(capsys, command):
    # the answer depends on them (JK JK JK: deadwood 0, or 150 without melds of wilds
    # only), and neither the text nor --json said they were used
    code, out, err = run_cli(capsys, "five-crowns", *command, "--no-all-wild-melds", "--sets", "2", "--json")
    assert code == 0, err
    assert json.loads(out)["rules"] == {"all_wild_melds": False, "max_book_size": None, "sets": 2}
    code, out, err = run_cli(capsys, "five-crowns", *command, "--no-all-wild-melds", "--max-book-size", "6")
    assert code == 0, err
    assert out.splitlines()[0].startswith(
        "round 1 (3 cards), 3s wild: JK JK JK" + " 4H" * (command[0] == "discard")
        + " (no melds of wilds only, books of more than 6 shown split)")
    code, out, err = run_cli(capsys, "five-crowns", *command)
    assert code == 0, err
    assert "wilds only" not in out.splitlines()[0] and "sets" not in out.splitlines()[0]   # defaults: nothing added
