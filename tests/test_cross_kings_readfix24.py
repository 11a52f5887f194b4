"""Session 24 tester findings on reading Cross Kings games (each test fails on the old code):

1. a JSON position's bad ``"reach"`` was reported as ``--reach must be ...`` although no
   ``--reach`` was typed (``Position.from_dict`` let ``Rules`` refuse it, an error carrying
   the API argument "reach", which the CLI names as its option);
2. ``analyse --player second`` after first's only move said "the game has no moves yet";
3. values of a position or play file in Python's words (``got True``, ``(5, 'Bob')``);
4. ``{"position": "<save string>"}`` said "unknown key 'position'".
"""

from __future__ import annotations

import json

import pytest
from conftest import cli_fails, run_cli

from crowns_solver.cross_kings import Position
from crowns_solver.errors import PositionError, RulesError, SaveStringError

#: The tester's game: first took (2,0) (move digit 2 from the start (2,2)); second has not moved.
ONE_MOVE = ("??4D2C3H7D??/AD??3S4H??6C/KCKD????7H3D/6H2D????8HAS/4S??2H5D??5S/??3C2SKS8D??"
            "//6S7S8SAH5H6DAC4C5C7C8CKH//2")


def _position_file(tmp_path, **changes) -> str:
    data = Position.from_save_string(ONE_MOVE).to_dict() | changes
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    return str(path)


# ----------------------------------------------------------------- 1. --reach not typed


@pytest.mark.parametrize("reach, shown", [("Nearest", "'Nearest'"), (None, "null"), (True, "true")])
@pytest.mark.parametrize("command", [("show",), ("solve", "--node-limit", "100"),
                                     ("analyse", "--node-limit", "100")])
def test_a_files_bad_reach_names_its_key_not_the_option(capsys, tmp_path, reach, shown, command):
    path = _position_file(tmp_path, reach=reach)
    expected = f"crowns: error: reach must be 'any' or 'nearest', got {shown}"
    assert cli_fails(capsys, "cross-kings", command[0], path, *command[1:]) == expected
    # with --reach typed too, the file's key is still what is at fault
    assert cli_fails(capsys, "cross-kings", command[0], path, *command[1:], "--reach", "nearest") == expected


def test_play_load_names_the_files_reach(capsys, tmp_path):
    path = _position_file(tmp_path, reach="Nearest")
    assert cli_fails(capsys, "cross-kings", "play", "--load", path) == (
        "crowns: error: reach must be 'any' or 'nearest', got 'Nearest'")


def test_solve_still_names_mode_left_at_its_default(capsys):
    # the open value of a position with unknown face-down cards: mode='game' is --mode game
    message = cli_fails(capsys, "cross-kings", "solve", ONE_MOVE)
    assert "use --mode game" in message and "mode='game'" not in message


# ----------------------------------------------------------------- 2. analyse --player


def test_analyse_says_the_player_asked_for_has_not_moved(capsys):
    code, out, err = run_cli(capsys, "cross-kings", "analyse", ONE_MOVE, "--player", "second",
                             "--node-limit", "300")
    assert code == 0 and not err
    note = "no moves to analyse: second has made no move yet (the game has 1 move, by first)"
    assert out.splitlines()[-1] == note
    code, out, err = run_cli(capsys, "cross-kings", "analyse", ONE_MOVE, "--player", "second",
                             "--node-limit", "300", "--names", "Ann", "Bob")
    assert out.splitlines()[-1] == ("no moves to analyse: Bob (second) has made no move yet"
                                    " (the game has 1 move, by Ann (first))")
    code, out, err = run_cli(capsys, "cross-kings", "analyse", ONE_MOVE, "--player", "second",
                             "--node-limit", "300", "--json")
    data = json.loads(out)
    assert code == 0 and data["moves"] == [] and data["summary"] == {} and data["note"] == note
    # first's move is there to analyse: no note
    code, out, err = run_cli(capsys, "cross-kings", "analyse", ONE_MOVE, "--player", "first",
                             "--node-limit", "300", "--json")
    data = json.loads(out)
    assert len(data["moves"]) == 1 and data["moves"][0]["player"] == "first" and "note" not in data


def test_analyse_of_a_game_without_moves_says_so_in_json_too(capsys):
    fresh = ONE_MOVE[: -len("2")]   # the same deal, no move digits
    code, out, err = run_cli(capsys, "cross-kings", "analyse", fresh, "--node-limit", "300", "--json")
    assert code == 0 and json.loads(out)["note"] == "no moves to analyse: the game has no moves yet"


# ----------------------------------------------------------------- 3. JSON's words


def test_a_play_files_seed_is_named_in_jsons_words(capsys, tmp_path):
    path = _position_file(tmp_path, seed=True)
    assert cli_fails(capsys, "cross-kings", "play", "--load", path) == (
        "crowns: error: seed: the game's seed must be a whole number >= 0, got true")


@pytest.mark.parametrize("names, message", [
    ({"first": 5, "second": "Bob"}, "names.first must be a non-empty string, got 5"),
    ({"first": "Ann", "second": None}, "names.second must be a non-empty string, got null"),
    ({"first": "Ann", "second": ""}, "names.second must be a non-empty string, got ''"),
    ({"first": "Ann", "second": ["Bob"]}, 'names.second must be a non-empty string, got ["Bob"]'),
    ({"first": "A\u202eB", "second": "Bob"}, "names.first: the name 'A\\u202eB' holds the control character U+202E"
     " (names are printed, so only printable text is allowed)"),
])
def test_a_bad_name_is_named_by_its_entry(capsys, tmp_path, names, message):
    path = _position_file(tmp_path, names=names)
    assert cli_fails(capsys, "cross-kings", "show", path) == f"crowns: error: {message}"
    assert cli_fails(capsys, "cross-kings", "play", "--load", path) == f"crowns: error: {message}"
    with pytest.raises(RulesError) as info:
        Position.from_dict(Position.from_save_string(ONE_MOVE).to_dict() | {"names": names})
    assert str(info.value) == message and info.value.arguments == ()


@pytest.mark.parametrize("key, value, message", [
    ("to_move", True, "to_move must be 'first' or 'second', got true"),
    ("to_move", None, "to_move must be 'first' or 'second', got null"),
    ("marker", True, "marker: no such cell: true (cells are whole numbers 0..35 or (row, col))"),
    ("start", [None, 2], "start: no such cell: [null, 2] (row and column are whole numbers 0..5)"),
    ("history", True, "history must be a list of cells, got true"),
    ("history", [False], "history[0]: no such cell: false (cells are whole numbers 0..35 or (row, col))"),
    ("face_down", [None], "face_down[0]: no such cell: null (cells are whole numbers 0..35 or (row, col))"),
    ("first_hand", [None], "first_hand[0]: not a Cross Kings card: null"),
    ("second_hand", ["7S", True], "second_hand[1]: not a Cross Kings card: true"),
])
def test_other_fields_are_named_in_jsons_words(key, value, message):
    with pytest.raises(PositionError if key not in ("first_hand", "second_hand") else ValueError) as info:
        Position.from_dict(Position.from_save_string(ONE_MOVE).to_dict() | {key: value})
    assert str(info.value) == message


def test_the_api_still_names_its_own_reach_argument():
    # a Python caller's Rules(reach=...) is an argument: the error carries it (for --reach)
    with pytest.raises(RulesError) as info:
        Position.from_text(ONE_MOVE, "Nearest")
    assert info.value.arguments == ("reach",)


# ----------------------------------------------------------------- 4. {"position": ...}


def test_a_save_string_as_position_is_read_as_the_save_string(capsys, tmp_path):
    wrapped = json.dumps({"position": ONE_MOVE})
    assert Position.from_text(wrapped) == Position.from_save_string(ONE_MOVE)
    assert Position.from_text(wrapped).history == (12,)
    # read under the reach given, as the save string alone: under "nearest" digit 2 is not (2,0)
    with pytest.raises(SaveStringError) as alone:
        Position.from_save_string(ONE_MOVE, "nearest")
    with pytest.raises(SaveStringError) as inside:
        Position.from_text(wrapped, "nearest")
    assert str(inside.value) == str(alone.value)
    path = tmp_path / "wrapped.json"
    path.write_text(wrapped)
    code, out, err = run_cli(capsys, "cross-kings", "show", str(path), "--json")
    assert code == 0 and json.loads(out)["save_string"] == ONE_MOVE


def test_a_save_string_as_position_takes_no_other_key():
    with pytest.raises(PositionError) as info:
        Position.from_text(json.dumps({"position": ONE_MOVE, "reach": "nearest"}))
    assert str(info.value) == (
        "a save string in \"position\" is read on its own (a save string carries no rules options: the"
        " reach given to the command, default 'any'), so the object may hold no other key, got 'reach':"
        " give the save string alone, or the position as a JSON object")


@pytest.mark.parametrize("inner, shown", [(None, "null"), ("abc", "a string ('abc')"), ([1, 2], "a list"),
                                          (5, "5")])
def test_a_position_key_holding_no_position_says_so(capsys, tmp_path, inner, shown):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"position": inner}))
    assert cli_fails(capsys, "cross-kings", "show", str(path)) == (
        "crowns: error: \"position\" must hold a position: a JSON object (as solve --json and analyse --json"
        f" write it) or a save string, got {shown}")
