"""``crowns kings-crowns ...`` and ``crowns report``."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli as run

from crowns_solver.montecarlo import read_results


def test_simulate_prints_the_win_rate_table(capsys, tmp_path):
    out = tmp_path / "r.jsonl"
    code, text, err = run(capsys, "kings-crowns", "simulate", "--games", "400", "--players", "4", "--policy", "greedy",
                          "aggressive", "defensive", "random", "--rotate", "--seed", "3", "--workers", "1", "--out", str(out))
    assert code == 0 and not err
    lines = text.splitlines()
    assert lines[0].startswith("King's Crowns: 400 games, 4 players (greedy, aggressive, defensive, random, rotated)")
    rows = {ln.split()[0]: ln.split() for ln in lines[2:6]}
    assert set(rows) == {"greedy", "aggressive", "defensive", "random"}
    assert all(r[2] == "400" for r in rows.values())
    df = read_results(out)
    assert len(df) == 400 and df.attrs["params"]["policies"] == ["greedy", "aggressive", "defensive", "random"]
    assert sum(int(r[1]) for r in rows.values()) == int((df["winner"] >= 0).sum())

    code, text, _ = run(capsys, "report", str(out), "--out", str(tmp_path / "rep"), "--by", "seat")
    assert code == 0 and "report.md" in text
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "| seed | 3 |" in md and "| chunk size | 1000 |" in md and "## Win rates by seat" in md
    for png in ("win_rate_by_policy.png", "win_rate_by_seat.png", "game_length.png", "final_crowns.png"):
        data = (tmp_path / "rep" / png).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and png in md


def test_simulate_json_and_deck_options(capsys, tmp_path):
    deck = tmp_path / "deck.toml"
    deck.write_text('name = "small"\n[deck]\nsalvation = 10\ncrown-black-20 = 20\ntime-with-god = 10\n')
    code, text, _ = run(capsys, "kings-crowns", "simulate", "--games", "50", "--players", "2", "--deck", str(deck),
                        "--target", "40", "--workers", "1", "--json", "--by", "seat")
    data = json.loads(text)
    assert code == 0 and data["deck"] == "small" and data["target"] == 40 and len(data["win_rates"]) == 2
    assert sum(r["games"] for r in data["win_rates"]) == 100
    code, text, _ = run(capsys, "kings-crowns", "deck", str(deck))
    assert code == 0 and text.splitlines()[0] == "deck small: 40 cards, 400 crown points"
    code, text, _ = run(capsys, "kings-crowns", "deck")
    assert "118 cards, 520 crown points" in text


@pytest.mark.parametrize(
    "argv, message",
    [
        (["kings-crowns", "simulate", "--policy", "sneaky"], "unknown policy 'sneaky'"),
        (["kings-crowns", "simulate", "--players", "6"], "2 to 5 players"),
        (["kings-crowns", "simulate", "--policy", "greedy", "random", "--players", "3"], "one per seat (3)"),
        (["kings-crowns", "simulate", "--deck", "missing.toml"], "missing.toml"),
        (["kings-crowns", "deck", "DECK"], "DECK"),
        (["report", "missing.jsonl"], "missing.jsonl"),
    ],
)
def test_errors_are_one_line(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and message in err


def test_bad_deck_file_names_the_entry(capsys, tmp_path):
    deck = tmp_path / "d.json"
    deck.write_text('{"salvation": 12, "crown-gold-5": 4}')
    code, _, err = run(capsys, "kings-crowns", "simulate", "--deck", str(deck))
    assert code == 2 and "crown-gold-5" in err and "unknown colour 'gold'" in err


def test_report_refuses_a_non_results_file(capsys, tmp_path):
    f = tmp_path / "x.jsonl"
    f.write_text("{}\n")
    code, _, err = run(capsys, "report", str(f))
    assert code == 2 and "not a crowns results file" in err


def test_cli_policy_names_match_the_library_and_help_is_light():
    import subprocess
    import sys

    from crowns_solver.kings_crowns import POLICY_NAMES
    from crowns_solver.kings_crowns import cli as kc_cli

    assert kc_cli.POLICY_NAMES == POLICY_NAMES
    code = "import sys, crowns_solver.cli as c; c.build_parser(); print('pandas' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/")
    assert out.stdout.strip() == "False", out.stderr


def test_a_repeated_policy_option_adds_seats(capsys):
    # found by the probe: '--policy greedy --policy random' played random in every seat
    _, split, _ = run(capsys, "kings-crowns", "simulate", "--games", "20", "--players", "2",
                      "--policy", "greedy", "--policy", "random", "--workers", "1")
    _, once, _ = run(capsys, "kings-crowns", "simulate", "--games", "20", "--players", "2",
                     "--policy", "greedy", "random", "--workers", "1")
    assert split == once and "2 players (greedy, random)" in split.splitlines()[0]
    _, default, _ = run(capsys, "kings-crowns", "simulate", "--games", "20", "--players", "2", "--workers", "1")
    assert "2 players (greedy, greedy)" in default.splitlines()[0]


def test_simulate_table_columns_line_up_with_long_policy_names(capsys):
    # design probe, session 18: a lookahead policy with options is longer than the
    # 12-character label column, which pushed its row's figures out of line
    name = "lookahead:samples=2,horizon=3,rollout=greedy"
    code, out, _ = run(capsys, "kings-crowns", "simulate", "--games", "4", "--players", "2",
                           "--policy", name, "greedy", "--workers", "1", "--chunk-size", "2")
    assert code == 0
    lines = out.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("policy "))
    table = lines[head:head + 3]
    assert {row.split()[0] for row in table[1:]} == {"greedy", name}
    # every row ends its "games" figure where the header's "games" ends
    end = table[0].index("games") + len("games")
    for row in table[1:]:
        wins, games = row.split()[1:3]
        assert int(games) == 4
        assert row[:end].endswith(f" {games}") and row[:end].rstrip().endswith(games), row


@pytest.mark.parametrize(("cards", "says"), [(13, "deals games of 2 players"), (19, "deals games of 2 to 3 players"),
                                              (118, "deals games of 2 to 5 players")])
def test_deck_says_which_player_counts_it_deals(tmp_path, capsys, cards, says):
    # design probe, session 18: a deck dealing only two players said "2 to 2 players"
    deck = tmp_path / "d.toml"
    # (one time-with-god: without it no crown-black-20 could ever be played, which the
    # deck command says first since session 20)
    deck.write_text(f'name = "d"\n[deck]\nsalvation = 4\ntime-with-god = 1\ncrown-black-20 = {cards - 5}\n')
    code, out, _ = run(capsys, "kings-crowns", "deck", str(deck))
    assert code == 0 and out.splitlines()[1] == f"  {says}"
