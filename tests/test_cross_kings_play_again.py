"""The tip printed when a game of ``crowns cross-kings play`` is left before the start cell
is chosen gives that same game again: a loaded game is loaded again (its seed deals
nothing), and the seat and opponent come back too (probe finding 3)."""

from __future__ import annotations

import io
import json
import shlex
import sys

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
    assert last == f"game left unfinished before the start; the same deal again: --load {shlex.quote(str(fresh))}"
    # the seed is not the way back: it deals another grid
    assert "--seed" not in last


def test_the_tip_plays_the_same_game_again(capsys, monkeypatch, tmp_path):
    fresh = tmp_path / "fresh.json"
    start = Position.random(seed=9)
    fresh.write_text(json.dumps(start.to_dict()))
    # a loaded deal gives the seat to the player to move: second chooses the start cell
    tip = _play(capsys, monkeypatch, "q\n", "--load", str(fresh), "--seat", "second", "--opponent", "greedy",
                *LIMITS)
    assert tip.endswith(f"--load {fresh} --opponent greedy")   # second is the default seat here


def test_a_new_deal_tip_keeps_a_seat_that_is_not_the_default(capsys, monkeypatch):
    tip = _play(capsys, monkeypatch, "q\n", "--seed", "5", "--seat", "second", *LIMITS)
    assert tip == "game left unfinished before the start; the same deal again: --seed 5 --seat second"


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
