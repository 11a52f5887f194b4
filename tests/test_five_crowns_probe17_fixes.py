"""Five Crowns fixes for the fresh-user probe of session 17 (findings 1, 6, 14, 17, 19)."""
from __future__ import annotations

import os
import stat

import pytest

from crowns_solver.cli import main
from crowns_solver.errors import PlayerNameError, ScoreEntryError
from crowns_solver.five_crowns.keeper import ScoreKeeper


def test_enter_round_refuses_a_huge_number_with_a_crowns_error():   # finding 1
    keeper = ScoreKeeper(["Ann", "Bob"])
    with pytest.raises(ScoreEntryError, match="5001 digits"):
        keeper.enter_round([0, 10**5000])
    assert keeper.round_scores(1) == {}


@pytest.mark.parametrize("name", ["A\nB", "X\x1b[31mRED", "tab\there", "rtl\u202eX"])
def test_names_with_control_characters_are_refused_naming_the_character(name):   # finding 17
    with pytest.raises(PlayerNameError, match=r"control character U\+"):
        ScoreKeeper([name, "Cy"])


def test_duplicate_names_are_refused():   # finding 17
    with pytest.raises(PlayerNameError, match="already taken"):
        ScoreKeeper(["Ann", "ann"])


def test_keeper_cli_refuses_an_escape_code_in_a_name(tmp_path, capsys):   # finding 17
    assert main(["five-crowns", "keeper", "--players", "X\x1b[31mRED", "Bob",
                 "--save", str(tmp_path / "k.json")]) == 2
    assert "U+001B" in capsys.readouterr().err
    assert not (tmp_path / "k.json").exists()


def test_one_policy_fills_a_four_seat_table(capsys):   # findings 6 and 19
    assert main(["five-crowns", "simulate", "2", "--policies", "greedy", "--seed", "1"]) == 0
    assert "2 games, 4 players" in capsys.readouterr().out
    assert main(["five-crowns", "simulate", "2", "--policies", "greedy", "--players", "1", "--seed", "1"]) == 0
    assert "2 games, 1 player," in capsys.readouterr().out
    assert main(["five-crowns", "simulate", "2", "--policies", "greedy", "random", "--seed", "1"]) == 0
    assert "2 games, 2 players" in capsys.readouterr().out


def test_saving_keeps_an_existing_files_mode_and_new_files_follow_the_umask(tmp_path):   # finding 14
    keeper = ScoreKeeper(["Ann", "Bob"])
    path = tmp_path / "k.json"
    old = os.umask(0o022)
    try:
        keeper.save(path)
        assert stat.S_IMODE(path.stat().st_mode) == 0o644
        os.chmod(path, 0o444)
        keeper.enter(15)
        keeper.save(path, overwrite=True)
        assert stat.S_IMODE(path.stat().st_mode) == 0o444
        assert ScoreKeeper.load(path).round_scores(1) == {"Ann": 15}
    finally:
        os.umask(old)


@pytest.mark.parametrize("args, message", [
    (["play", "greedy", "greedy", "--rounds", "0"], "--rounds must be an integer 1..11, got 0"),
    (["play", "greedy", "greedy", "--first-dealer", "2"], "--first-dealer must be an integer 0..1, got 2"),
    (["play"] + ["greedy"] * 15, "one POLICY per seat, 1 to 14 seats, got 15 policies"),
    (["simulate", "3", "--workers", "0"], "--workers must be a whole number >= 1, got 0"),
])
def test_game_option_errors_name_the_option_typed(args, message, capsys):   # finding 9
    assert main(["five-crowns"] + args) == 2
    err = capsys.readouterr().err
    assert message in err and "GameRules." not in err

