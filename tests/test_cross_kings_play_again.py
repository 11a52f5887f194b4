"""The tip printed when a game of ``crowns cross-kings play`` is left before the start cell
is chosen gives that same game again: a loaded game is loaded again (its seed deals
nothing), and the seat and opponent come back too (probe finding 3)."""

from __future__ import annotations

import io
import json
import shlex
import sys

import pytest
from conftest import run_cli

from crowns_solver.cross_kings.play import PlaySession, public_position
from crowns_solver.cross_kings.position import Position

LIMITS = ("--time", "0", "--node-limit", "1000")


def _play(capsys, monkeypatch, script: str, *argv: str) -> str:
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    code, out, _ = run_cli(capsys, "cross-kings", "play", *argv)
    assert code == 0
    return out.rstrip().splitlines()[-1]


def test_a_loaded_deal_left_before_the_start_is_loaded_again(capsys, monkeypatch, tmp_path):
    fresh = tmp_path / "fresh deal.json"
    fresh.write_text(json.dumps(Position.random(seed=9).to_dict()))
    last = _play(capsys, monkeypatch, "q\n", "--load", str(fresh), *LIMITS)
    assert last == (f"game left unfinished before the start; the same deal again: --load {shlex.quote(str(fresh))}"
                    " --time 0 --node-limit 1000")
    # the seed is not the way back: it deals another grid
    assert "--seed" not in last


def test_the_tip_plays_the_same_game_again(capsys, monkeypatch, tmp_path):
    fresh = tmp_path / "fresh.json"
    start = Position.random(seed=9)
    fresh.write_text(json.dumps(start.to_dict()))
    # a loaded deal gives the seat to the player to move: second chooses the start cell
    tip = _play(capsys, monkeypatch, "q\n", "--load", str(fresh), "--seat", "second", "--opponent", "greedy",
                *LIMITS)
    assert tip.endswith(f"--load {fresh} --opponent greedy --time 0 --node-limit 1000")   # second: the default seat here


def test_a_new_deal_tip_keeps_a_seat_that_is_not_the_default(capsys, monkeypatch):
    tip = _play(capsys, monkeypatch, "q\n", "--seed", "5", "--seat", "second", *LIMITS)
    assert tip == "game left unfinished before the start; the same deal again: --seed 5 --seat second --time 0 --node-limit 1000"


def test_a_position_loaded_in_python_is_given_back_as_json():
    start = Position.random(seed=9)
    out = io.StringIO()
    session = PlaySession(seed=1, node_limit=1000, time_limit=None, load=start, stdin=io.StringIO("q\n"),
                          stdout=out)
    assert session.run() == 0
    tip = out.getvalue().rstrip().splitlines()[-1]
    prefix = "game left unfinished before the start; the same deal again: --load "
    assert tip.startswith(prefix)
    again = Position.from_text(shlex.split(tip[len(prefix):])[0])
    assert again.to_dict() == public_position(start).to_dict()   # face-down cards stay unseen


def test_time_inf_means_no_time_limit_in_play_and_analyse(capsys, monkeypatch):
    """``--time inf`` is no time limit, as ``solve --time-limit inf`` (probe finding 10):
    play with a node limit runs; without one it asks for it, as --time 0 does."""
    from crowns_solver.cross_kings.play_cli import _seconds_or_zero

    assert _seconds_or_zero("inf") == _seconds_or_zero("Infinity") == _seconds_or_zero("0") == 0.0
    last = _play(capsys, monkeypatch, "q\n", "--seed", "5", "--seat", "second", "--time", "inf",
                 "--node-limit", "1000")
    assert last == "game left unfinished before the start; the same deal again: --seed 5 --seat second --time 0 --node-limit 1000"
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    code, _, err = run_cli(capsys, "cross-kings", "play", "--seed", "5", "--time", "inf")
    assert code == 2 and "--time 0 (or inf) means no time limit: give --node-limit N" in err


def test_analyse_time_inf_is_time_zero(capsys):
    # tests/data/cross_kings_labels.jsonl, first line: a whole game; nodes bound each move
    save = ("??7S6H2H8H??/5H6C3SAHKH7C/3C8C??KC5D4C/4HAD??7D2D5S/7H4DKD6D6S8S/5C3D4SKS2S2C"
            "//ASAC8D3H//301273969908864214574189716")
    code, out, err = run_cli(capsys, "cross-kings", "analyse", save, "--time", "inf", "--node-limit", "2000", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["time_limit"] == 0 and len(data["moves"]) == 27
    code, out0, _ = run_cli(capsys, "cross-kings", "analyse", save, "--time", "0", "--node-limit", "2000", "--json")
    assert json.loads(out0)["moves"] == data["moves"]


def test_an_unknown_opponent_names_the_option(capsys):
    """Probe finding 9 (Cross Kings): the message names --opponent, as typed."""
    import pytest

    with pytest.raises(SystemExit) as exc:
        run_cli(capsys, "cross-kings", "play", "--opponent", "nope")
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "argument --opponent: invalid choice: 'nope' (choose from 'random', 'greedy', 'search', 'clairvoyant')" in err


@pytest.mark.parametrize("limits, carried", [
    ((), ""),                                                    # the defaults: nothing to repeat
    (("--time", "1.5"), " --time 1.5"),
    (("--time", "3", "--node-limit", "777"), " --node-limit 777"),  # 3 s is the default
    (("--time", "0", "--node-limit", "777"), " --time 0 --node-limit 777"),
])
def test_the_tips_carry_the_search_limits(capsys, monkeypatch, limits, carried):
    """The resume and play-again lines repeat --time and --node-limit (session-21 probe): a
    game played against a computer held to 20,000 nodes a move went on, from the line it
    printed, against one searching the default 3 s a move.  The line, parsed again by the
    command, gives the game the same limits."""
    from crowns_solver.cli import build_parser

    tip = _play(capsys, monkeypatch, "q\n", "--seed", "5", "--seat", "second", *limits)
    assert tip == "game left unfinished before the start; the same deal again: --seed 5 --seat second" + carried
    again = build_parser().parse_args(["cross-kings", "play", *shlex.split(tip.split("again: ")[1])])
    first = build_parser().parse_args(["cross-kings", "play", "--seed", "5", "--seat", "second", *limits])
    assert (again.time, again.node_limit) == (first.time, first.node_limit)
