"""The command line's option choices are the API's lists (one list each), so a new mode,
objective, evaluation, reach or player cannot be forgotten in one place."""

from __future__ import annotations

import argparse
from typing import get_args

import pytest

from crowns_solver.cli import build_parser
from crowns_solver.cross_kings import players, position, solver
from crowns_solver.cross_kings.play_cli import SEATS


def _choices(*command: str) -> dict[str, tuple]:
    """Each option of ``crowns cross-kings COMMAND`` that has choices: option -> choices."""
    parser: argparse.ArgumentParser = build_parser()
    for name in ("cross-kings", *command):
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = sub.choices[name]
    return {a.option_strings[0] if a.option_strings else a.dest: tuple(a.choices)
            for a in parser._actions if a.choices is not None and not isinstance(a, argparse._SubParsersAction)}


def test_the_literal_types_and_the_lists_agree():
    assert solver.MODES == get_args(solver.Mode) == ("open", "game")
    assert solver.OBJECTIVES == get_args(solver.Objective) == ("margin", "win")
    assert tuple(solver.EVALUATIONS) == get_args(solver.Evaluation)
    assert position.REACHES == get_args(position.Reach) == ("any", "nearest")
    assert position.PLAYERS == get_args(position.Player) == ("first", "second")
    assert players.PLAYER_NAMES == ("random", "greedy", "search", "clairvoyant")
    assert players.SEARCH_PLAYERS == ("search", "clairvoyant")
    assert SEATS == ("first", "second", "random")


def test_every_command_offers_the_apis_lists():
    evaluations = tuple(solver.EVALUATIONS)
    assert _choices("solve") == {"--reach": position.REACHES, "--mode": solver.MODES,
                                 "--objective": solver.OBJECTIVES, "--evaluation": evaluations}
    assert _choices("show") == {"--reach": position.REACHES}
    assert _choices("match") == {"--a": players.PLAYER_NAMES, "--b": players.PLAYER_NAMES,
                                 "--objective": solver.OBJECTIVES, "--a-evaluation": evaluations,
                                 "--b-evaluation": evaluations, "--reach": position.REACHES}
    assert _choices("analyse") == {"--player": position.PLAYERS, "--reach": position.REACHES}
    assert _choices("play") == {"--seat": SEATS, "--opponent": players.PLAYER_NAMES, "--reach": position.REACHES}


def test_a_new_evaluation_reaches_every_command(monkeypatch):
    monkeypatch.setitem(solver.EVALUATIONS, "newer", 99)
    assert "newer" in _choices("solve")["--evaluation"]
    assert "newer" in _choices("match")["--a-evaluation"] == _choices("match")["--b-evaluation"]


@pytest.mark.parametrize("make, message", [
    (lambda: position.Rules(reach="far"), "reach must be 'any' or 'nearest', got 'far'"),
    (lambda: solver.solve(position.Position.random(1), mode="closed"), "mode must be 'open' or 'game', got 'closed'"),
    (lambda: solver.solve(position.Position.random(1), objective="draw"),
     "objective must be 'margin' or 'win', got 'draw'"),
    (lambda: position.Position.random(1).hand("third"), "player must be 'first' or 'second', got 'third'"),
])
def test_the_api_messages_name_the_lists(make, message):
    with pytest.raises(ValueError) as exc:
        make()
    assert str(exc.value) == message
