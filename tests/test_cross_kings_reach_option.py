"""``--reach`` for ``crowns cross-kings play`` and ``analyse`` (session 19): a save string
cannot say the rules option reach (RULES.md "Interchange"), and these two commands had no
way to give it, so a game under reach "nearest" reached them only as JSON and a new game
could not be played under it."""

from __future__ import annotations

import io
import json
from dataclasses import replace

import numpy as np
import pytest
from conftest import run_cli

from crowns_solver.cross_kings import Position, Rules
from crowns_solver.cross_kings.play import PlaySession
from crowns_solver.cross_kings.review import analyse_game


def _nearest_game(seed: int = 5, plies: int = 6) -> Position:
    rng = np.random.default_rng(seed)
    pos = Position.random(seed, "nearest").play((2, 2))   # save strings start at (2,2)
    while len(pos.history or ()) < plies:
        moves = pos.legal_moves()
        pos = pos.play(moves[int(rng.integers(len(moves)))], rng=rng)
    return pos


def _as_save_string(pos: Position) -> str:
    # every move legal under "nearest" is legal under "any", which a save string is read as
    return replace(pos, rules=Rules(reach="any")).to_save_string()


def test_analyse_reads_a_save_string_under_the_reach_given(capsys):
    game = _nearest_game()
    save = _as_save_string(game)
    code, out, err = run_cli(capsys, "cross-kings", "analyse", save, "--reach", "nearest",
                             "--time", "0", "--node-limit", "3000", "--json")
    assert code == 0, err
    got = json.loads(out)
    want = analyse_game(Position.from_save_string(save, "nearest"), time_limit=None, node_limit=3000)
    assert [m["best_move"] for m in got["moves"]] == [list(b) if b is not None else None for b in want["best_move"]]
    # read as "any" (the default) the same string is another game: other best moves or values
    code, out_any, _ = run_cli(capsys, "cross-kings", "analyse", save, "--time", "0", "--node-limit", "3000",
                               "--json")
    assert code == 0 and json.loads(out_any)["moves"] != got["moves"]


def test_analyse_refuses_a_reach_that_contradicts_a_json_game(capsys, tmp_path):
    path = tmp_path / "g.json"
    path.write_text(json.dumps(_nearest_game().to_dict()))
    code, out, err = run_cli(capsys, "cross-kings", "analyse", str(path), "--reach", "any", "--time", "0",
                             "--node-limit", "100")
    assert code == 2 and not out
    assert err == "crowns: error: --reach any: the game given is played under reach 'nearest' (its JSON says so)\n"


def _cell(move) -> str:
    return f"({move[0]},{move[1]})"


def test_a_move_illegal_under_nearest_is_refused_when_read_under_nearest(capsys):
    # a game under "any" whose first move jumps over a card
    start = Position.random(7, "any").play((2, 2))
    jump = next(m for m in start.legal_moves() if m not in Position.from_dict(
        {**start.to_dict(), "reach": "nearest"}).legal_moves())
    save = start.play(jump, rng=np.random.default_rng(0)).to_save_string()
    code, out, err = run_cli(capsys, "cross-kings", "analyse", save, "--reach", "nearest", "--time", "0",
                             "--node-limit", "100")
    assert code == 2 and not out
    assert err == (f"crowns: error: move 1: digit 0: illegal move {_cell(jump)} for first:"
                   " legal: (1,2) (2,1) (2,3) (3,2)\n")


def test_play_a_new_game_under_nearest_and_the_tip_brings_it_back():
    out = io.StringIO()
    session = PlaySession(seed=3, reach="nearest", time_limit=None, node_limit=2000, seat="second",
                          stdin=io.StringIO(""), stdout=out)
    session.run()
    text = out.getvalue()
    assert "reach nearest" in text
    assert session.states[0].reach == "nearest"
    assert "the same deal again: --seed 3 --reach nearest --seat second" in text


def test_play_refuses_a_reach_that_contradicts_a_loaded_json_game():
    from crowns_solver.errors import PositionError

    with pytest.raises(PositionError, match="reach 'any': the game loaded is played under reach 'nearest'"):
        PlaySession(load=json.dumps(_nearest_game().to_dict()), reach="any", time_limit=None, node_limit=100,
                    stdin=io.StringIO(""), stdout=io.StringIO())


@pytest.mark.parametrize("command", [("show",), ("solve", "--time-limit", "0.1"), ("analyse",)])
def test_a_missing_file_whose_path_holds_two_slashes_is_said_to_be_missing(capsys, tmp_path, command):
    # left over by the session-19 probe: 'games//g.json' that does not exist was parsed as
    # a save string ("a save string has three parts separated by //, got 2")
    missing = f"{tmp_path}//nofile.json"
    code, out, err = run_cli(capsys, "cross-kings", command[0], missing, *command[1:])
    assert code == 2 and not out
    assert "nofile.json" in err and ("No such file" in err or "no such file" in err) and "three parts" not in err


def test_show_json_gives_a_reflected_save_string_for_a_game_started_off_2_2(capsys, tmp_path):
    # left over by the session-19 probe: no save_string at all, while play writes the
    # grid reflected to start at (2,2) (the same game: RULES.md "Interchange")
    from crowns_solver.cross_kings.play import _mirror_to_save_start, public_position

    pos = Position.random(4).play((3, 3))
    for k in (0, 1):
        pos = pos.play(pos.legal_moves()[k])
    path = tmp_path / "off.json"
    path.write_text(json.dumps(pos.to_dict()))
    code, out, err = run_cli(capsys, "cross-kings", "show", str(path), "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["save_string_reflected"] is True
    back = Position.from_save_string(d["save_string"])
    # the same game as play writes it (a save string keeps the face-down cards as the unseen pool)
    assert back.start == 14 and public_position(back).to_dict() == public_position(_mirror_to_save_start(pos)).to_dict()
    assert sorted(back.hand("first")) == sorted(pos.hand("first")) and back.to_move == pos.to_move
    # a game that started at (2,2) keeps its plain save string
    code, out, _ = run_cli(capsys, "cross-kings", "show", back.to_save_string(), "--json")
    assert "save_string_reflected" not in json.loads(out)


# ------------------------------------------------------------------ one rule for all four commands (session 20)

#: each command that reads a position, with the options that keep it quick
READERS = {
    "show": ("show",),
    "solve": ("solve", "--time-limit", "0.1"),
    "analyse": ("analyse", "--time", "0", "--node-limit", "100"),
    "play": ("play", "--time", "0", "--node-limit", "100", "--load"),
}


def _reader_argv(command: str, source: str, *extra: str) -> list[str]:
    argv = ["cross-kings", *READERS[command]]
    # play takes the game after --load; the others as POSITION
    return [*argv, source, *extra]


@pytest.mark.parametrize("command", sorted(READERS))
@pytest.mark.parametrize(("json_reach", "given"), [("nearest", "any"), ("any", "nearest")])
def test_every_command_refuses_a_reach_that_contradicts_a_json_position(capsys, tmp_path, command, json_reach,
                                                                        given):
    # show and solve silently replaced the JSON's reach with --reach (another game: other
    # legal moves), while analyse and play refused it
    game = _nearest_game() if json_reach == "nearest" else Position.random(5, "any").play((2, 2))
    path = tmp_path / "g.json"
    path.write_text(json.dumps(game.to_dict()))
    code, out, err = run_cli(capsys, *_reader_argv(command, str(path), "--reach", given))
    assert code == 2 and not out
    what = "position" if command in ("show", "solve") else "game"
    assert err == f"crowns: error: --reach {given}: the {what} given is played under reach {json_reach!r} (its JSON says so)\n"


@pytest.mark.parametrize("command", ["show", "solve"])
def test_show_and_solve_keep_a_json_reach_and_apply_reach_to_json_without_one(capsys, tmp_path, command):
    game = _nearest_game()
    path = tmp_path / "g.json"
    path.write_text(json.dumps(game.to_dict()))
    plain = {k: v for k, v in game.to_dict().items() if k != "reach"}
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(plain))
    for source, extra, want in [(path, (), "nearest"), (path, ("--reach", "nearest"), "nearest"),
                                (bare, ("--reach", "nearest"), "nearest"), (bare, (), "any")]:
        code, out, err = run_cli(capsys, *_reader_argv(command, str(source), *extra, "--json"))
        assert code == 0, err
        got = json.loads(out)
        assert (got["position"] if command == "solve" else got)["reach"] == want, (source, extra)


@pytest.mark.parametrize("command", ["show", "solve"])
def test_show_and_solve_read_a_save_string_under_the_reach_given(capsys, command):
    # a save string carries no reach: --reach nearest now reads its moves under that rule,
    # and a move it does not allow gets analyse's message (show and solve read it under
    # "any", then relabelled the position "nearest", which refused the history as "not
    # legal ...: the moves must be listed in the order played", a misleading hint)
    start = Position.random(7, "any").play((2, 2))
    jump = next(m for m in start.legal_moves() if m not in Position.from_dict(
        {**start.to_dict(), "reach": "nearest"}).legal_moves())
    save = start.play(jump, rng=np.random.default_rng(0)).to_save_string()
    code, out, err = run_cli(capsys, *_reader_argv(command, save, "--reach", "nearest"))
    assert code == 2 and not out
    assert err == (f"crowns: error: move 1: digit 0: illegal move {_cell(jump)} for first:"
                   " legal: (1,2) (2,1) (2,3) (3,2)\n")
    # a game whose moves the rule allows is read under it
    game = _nearest_game()
    mode = ("--mode", "game") if command == "solve" else ()   # face-down cards unknown
    code, out, err = run_cli(capsys, *_reader_argv(command, _as_save_string(game), "--reach", "nearest", *mode,
                                                   "--json"))
    assert code == 0, err
    got = json.loads(out)
    assert (got["position"] if command == "solve" else got)["reach"] == "nearest"
