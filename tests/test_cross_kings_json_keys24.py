"""Session 24: a Cross Kings position's JSON refuses keys it does not know (a typo used to
change the game silently), keeps the display names, and every ``--json`` that has
``--names`` gives them."""

from __future__ import annotations

import json

import pytest
from conftest import cli_fails, run_cli
from conftest import run_play as play

from crowns_solver.cross_kings import Position, Rules
from crowns_solver.cross_kings.play import public_position
from crowns_solver.cross_kings.position import POSITION_EXTRA_KEYS, POSITION_KEYS
from crowns_solver.errors import PositionError, RulesError

LIMITS = ["--time", "0", "--node-limit", "2000"]


def _game(plies: int = 4, seed: int = 3, reach: str = "any") -> Position:
    pos = Position.random(seed=seed, rules=Rules(reach=reach)).play((2, 2))
    for _ in range(plies - 1):
        pos = pos.play(pos.legal_moves()[0])
    return public_position(pos)


# ---------------------------------------------------------------- unknown keys


@pytest.mark.parametrize("typo, meant", [("facedown", "face_down"), ("histroy", "history"),
                                         ("firsthand", "first_hand"), ("Reach", "reach"), ("nmaes", "names")])
def test_a_misspelt_key_is_refused_naming_the_key_it_resembles(typo, meant):
    d = _game().to_dict() | {"names": {"first": "Ann", "second": "Bob"}}
    d[typo] = d.pop(meant)
    with pytest.raises(PositionError) as exc:
        Position.from_dict(d)
    assert str(exc.value).startswith(f"position: unknown key {typo!r} (did you mean {meant!r}?); a position has"
                                     " the keys grid, marker, to_move,")
    with pytest.raises(PositionError, match=f"unknown key {typo!r}"):
        Position.from_text(json.dumps(d))


def test_the_testers_facedown_file_is_refused_by_every_command(capsys, tmp_path):
    d = _game().to_dict()
    assert len(d["face_down"]) == 11   # one diagonal card taken: 11 still face down
    d["facedown"] = d.pop("face_down")
    path = tmp_path / "g.json"
    path.write_text(json.dumps(d))
    # the old code showed "face down 0": every diagonal card face up, another game
    for argv in (["show", str(path)], ["solve", str(path), "--node-limit", "1000"],
                 ["analyse", str(path), "--node-limit", "1000"]):
        assert cli_fails(capsys, "cross-kings", *argv).startswith(
            "crowns: error: position: unknown key 'facedown' (did you mean 'face_down'?)")
    err = cli_fails(capsys, "cross-kings", "play", "--load", str(path), *LIMITS)
    assert "unknown key 'facedown'" in err


def test_several_unknown_keys_are_all_named_and_a_key_like_nothing_gets_no_guess():
    d = _game().to_dict() | {"histroy": [], "zzz": 1}
    with pytest.raises(PositionError) as exc:
        Position.from_dict(d)
    assert "unknown keys 'histroy' (did you mean 'history'?), 'zzz';" in str(exc.value)


@pytest.mark.parametrize("names, message", [
    (["Ann", "Bob"], 'names must be an object {"first": NAME, "second": NAME}, got a list'),
    ({"first": "Ann"}, "names: missing the name of 'second'"),
    ({"first": "Ann", "secnd": "Bob"}, "names: unknown key 'secnd' (did you mean 'second'?)"),
])
def test_names_must_be_an_object_of_both_seats(names, message):
    d = _game().to_dict() | {"names": names}
    with pytest.raises(PositionError) as exc:
        Position.from_dict(d)
    assert str(exc.value).startswith(message)


def test_names_are_checked_as_rules_names_are():
    d = _game().to_dict() | {"names": {"first": "Ann", "second": " ann "}}
    with pytest.raises(RulesError, match="the two players need different names"):
        Position.from_dict(d)


# ---------------------------------------------------------------- names kept


def test_names_are_written_read_back_and_left_out_of_equality():
    pos = _game()
    named = Position.from_dict(pos.to_dict(), rules=Rules(names=("Ann", "Bob")))
    d = named.to_dict()
    assert d["names"] == {"first": "Ann", "second": "Bob"}   # not written before session 24
    assert "names" not in pos.to_dict()                      # the default names are not written
    back = Position.from_dict(json.loads(json.dumps(d)))
    assert back.rules.names == ("Ann", "Bob") and back.to_dict() == d
    assert Position.from_text(json.dumps(d), "any").rules.names == ("Ann", "Bob")
    # the file's own names win over the rules given, as its reach does
    assert Position.from_dict(d, rules=Rules(names=("X", "Y"))).rules.names == ("Ann", "Bob")
    assert Position.from_text(json.dumps(d), Rules(names=("X", "Y"))).rules.names == ("Ann", "Bob")
    # a file without names takes the rules' names
    assert Position.from_text(json.dumps(pos.to_dict()), Rules(names=("X", "Y"))).rules.names == ("X", "Y")
    # display only: the same game, whatever the names
    assert named == pos and hash(named) == hash(pos) and len({named, pos}) == 1
    assert named.play(named.legal_moves()[0]).rules.names == ("Ann", "Bob")


def test_cli_keeps_a_files_names_and_names_overrides_them(capsys, tmp_path):
    path = tmp_path / "g.json"
    path.write_text(json.dumps(_game().to_dict() | {"names": {"first": "Ann", "second": "Bob"}}))
    code, out, _ = run_cli(capsys, "cross-kings", "show", str(path))
    assert code == 0 and "Ann (first): " in out and "Bob (second): " in out
    code, out, _ = run_cli(capsys, "cross-kings", "show", str(path), "--names", "Cy", "Di")
    assert code == 0 and "Cy (first): " in out and "Ann" not in out


# ---------------------------------------------------------------- every writer reads back


def test_every_key_a_writer_puts_is_accepted():
    assert set(_game().to_dict()) | {"names"} <= set(POSITION_KEYS)
    assert "seed" in POSITION_EXTRA_KEYS


@pytest.mark.parametrize("names", [[], ["--names", "Ann", "Bob"]])
def test_show_json_reads_back(capsys, tmp_path, names):
    pos = _game()
    src = tmp_path / "p.json"
    src.write_text(json.dumps(pos.to_dict()))
    code, out, _ = run_cli(capsys, "cross-kings", "show", str(src), "--json", *names)
    assert code == 0
    data = json.loads(out)
    assert {"legal_moves", "unseen", "save_string", "names"} <= set(data)
    assert data["names"] == ({"first": "Ann", "second": "Bob"} if names else {"first": "first", "second": "second"})
    back = Position.from_text(out)
    assert back == pos and back.rules.names == (("Ann", "Bob") if names else ("first", "second"))


@pytest.mark.parametrize("command", [["solve", "--mode", "game", "--node-limit", "1000"],
                                     ["analyse", "--node-limit", "1000"]])
def test_solve_and_analyse_json_positions_read_back(capsys, tmp_path, command):
    pos = _game()
    src = tmp_path / "p.json"
    src.write_text(json.dumps(pos.to_dict()))
    code, out, _ = run_cli(capsys, "cross-kings", command[0], str(src), *command[1:], "--json", "--names", "Ann", "Bob")
    assert code == 0
    data = json.loads(out)
    assert data["names"] == {"first": "Ann", "second": "Bob"}
    back = Position.from_text(out)   # the object's "position"
    assert back == pos and back.rules.names == ("Ann", "Bob")


@pytest.mark.parametrize("reach", ["any", "nearest"])
@pytest.mark.parametrize("names", [[], ["--names", "Ann", "Bob"]])
def test_play_save_file_reads_back_with_its_seed_and_names(capsys, monkeypatch, tmp_path, reach, names):
    path = tmp_path / "saved.json"
    code, out, _ = play(capsys, monkeypatch, f"save {path}\nquit\n", "--seed", "7", "--opponent", "greedy",
                        "--reach", reach, *names, *LIMITS)
    assert code == 0 and f"position written to {path}" in out
    data = json.loads(path.read_text())
    assert set(data) <= set(POSITION_KEYS) | {"seed"} and data["seed"] == 7 and data["reach"] == reach
    # the names given, never the session's own "you"/"computer" (they depend on the seat)
    assert data.get("names") == ({"first": "Ann", "second": "Bob"} if names else None)
    back = Position.from_text(path.read_text())
    assert back.rules.names == (("Ann", "Bob") if names else ("first", "second"))
    # under reach nearest the printed position (no save string) is JSON too, and reads back
    # (under reach any it is the save string, of the game reflected to start at (2,2))
    printed = next(line for line in out.splitlines() if line.startswith(("position: ", "save string: ")))
    text = printed.split(": ", 1)[1]
    assert text.startswith("{") == (reach == "nearest")
    if reach == "nearest":
        assert Position.from_text(text) == back and json.loads(text).get("names") == data.get("names")
    # and play --load resumes it under its names, without --names
    code, out, _ = play(capsys, monkeypatch, "quit\n", "--load", str(path), *LIMITS)
    assert code == 0
    assert out.startswith("Cross Kings: Ann (first, you)" if names else "Cross Kings: you (first)")


# ---------------------------------------------------------------- --json gives the names


def test_analyse_json_gives_the_names_the_text_shows(capsys):
    save = _game(plies=6).to_save_string()
    code, text, _ = run_cli(capsys, "cross-kings", "analyse", save, "--node-limit", "2000", "--names", "Ann", "Bob")
    assert code == 0 and "Ann: " in text and "Bob: " in text
    code, out, _ = run_cli(capsys, "cross-kings", "analyse", save, "--node-limit", "2000", "--names", "Ann", "Bob",
                           "--json")
    assert code == 0
    data = json.loads(out)
    assert data["names"] == {"first": "Ann", "second": "Bob"}
    assert [m["name"] for m in data["moves"]] == ["Ann" if m["player"] == "first" else "Bob" for m in data["moves"]]
    assert {m["name"] for m in data["moves"]} == {"Ann", "Bob"}
    assert {p: s["name"] for p, s in data["summary"].items()} == {"first": "Ann", "second": "Bob"}
    assert data["position"]["names"] == {"first": "Ann", "second": "Bob"}
    # without --names: the seats' own names
    code, out, _ = run_cli(capsys, "cross-kings", "analyse", save, "--node-limit", "2000", "--json")
    data = json.loads(out)
    assert data["names"] == {"first": "first", "second": "second"} and "names" not in data["position"]
    assert {m["name"] for m in data["moves"]} == {"first", "second"}
