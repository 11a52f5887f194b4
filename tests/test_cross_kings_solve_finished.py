"""A finished game has a known final margin whatever its face-down cells hold: ``solve``
answers it in open mode (the default) as game mode does, instead of asking for every
card (probe finding 11)."""

from __future__ import annotations

import json
import random

import pytest
from conftest import run_cli

from crowns_solver.cross_kings.play import public_position
from crowns_solver.cross_kings.position import Position
from crowns_solver.cross_kings.solver import solve
from crowns_solver.errors import UnknownCardError


def _finished_games(count: int) -> list[Position]:
    """Finished games from random play, as a player sees them (face-down cells left
    unknown), each with at least one such cell."""
    out = []
    seed = 0
    while len(out) < count:
        rng = random.Random(seed)
        p = Position.random(seed)
        while not p.is_terminal():
            p = p.play(rng.choice(p.legal_moves()))
        q = public_position(p)
        if not q.is_known():
            out.append(q)
        seed += 1
    return out


GAMES = _finished_games(4)


@pytest.mark.parametrize("pos", GAMES)
@pytest.mark.parametrize("objective", ["margin", "win"])
def test_open_value_of_a_finished_game_is_its_final_margin(pos, objective):
    first, second = pos.scores()
    margin = first - second if pos.to_move == "first" else second - first
    sol = solve(pos, objective=objective)
    assert sol.exact
    expected = margin if objective == "margin" else (1 if margin > 0 else 0 if margin < 0 else 0.5)
    assert sol.value == expected
    assert sol.value == solve(pos, mode="game", objective=objective).value


def test_an_unfinished_game_still_needs_every_card():
    start = public_position(Position.random(0))
    unfinished = start.play(start.legal_moves()[0])
    assert not unfinished.is_terminal() and not unfinished.is_known()
    with pytest.raises(UnknownCardError, match="the open value needs every card known"):
        solve(unfinished)


def test_solve_command_answers_a_finished_game_in_the_default_mode(capsys, tmp_path):
    pos = GAMES[0]
    path = tmp_path / "full.json"
    path.write_text(json.dumps(pos.to_dict()))
    first, second = pos.scores()
    code, out, err = run_cli(capsys, "cross-kings", "solve", str(path))
    assert code == 0, err
    assert f"the game is over: first {first} points, second {second} points; value" in out
    code, out2, _ = run_cli(capsys, "cross-kings", "solve", str(path), "--workers", "2")
    assert code == 0 and out2.splitlines()[-1] == out.splitlines()[-1]
