"""A player's class given instead of a player (``GreedyPolicy`` for ``GreedyPolicy()``,
a notebook's easy slip; session 22 break): its methods are there, so it passed the
"is this a player" checks and the game failed on the first move with a bare TypeError
(``GreedyPolicy.choose_draw() missing 1 required positional argument: 'view'``).  It is
refused before any card is played with the error class of a bad player, saying to pass
an instance."""

from __future__ import annotations

import pytest

from crowns_solver import five_crowns
from crowns_solver.cross_kings import Position
from crowns_solver.cross_kings.match import play_game
from crowns_solver.cross_kings.players import GreedyPlayer
from crowns_solver.errors import PolicyError


def test_five_crowns_get_policy_refuses_a_class():
    with pytest.raises(PolicyError, match=r"^GreedyPolicy is a policy class, not a policy: pass an instance,"
                                          r" GreedyPolicy\(\)$"):
        five_crowns.get_policy(five_crowns.GreedyPolicy)


def test_five_crowns_play_game_and_simulate_refuse_a_class():
    with pytest.raises(PolicyError, match=r"TrackerPolicy is a policy class"):
        five_crowns.play_game([five_crowns.TrackerPolicy, "random"], seed=1)
    with pytest.raises(PolicyError, match=r"RandomPolicy is a policy class"):
        five_crowns.simulate(1, players=2, policies=["greedy", five_crowns.RandomPolicy], workers=1)
    # an instance plays as before
    assert five_crowns.get_policy(five_crowns.GreedyPolicy()).__class__ is five_crowns.GreedyPolicy


def test_cross_kings_play_game_refuses_a_class_naming_the_seat():
    pos = Position.random(seed=1)
    with pytest.raises(PolicyError, match=r"^second is a player class, not a player: pass an instance,"
                                          r" GreedyPlayer\(\)$"):
        play_game(pos, "random", GreedyPlayer)
    record = play_game(pos, "random", GreedyPlayer())
    assert record.position.is_terminal()
