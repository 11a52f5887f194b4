"""The getter of a numpy Generator's bit generator, one copy for both compiled modules
that draw from one (ext/_numpy_bitgen.pxi, session 23): its refusal names the argument
at fault, the seat's generator included."""

from __future__ import annotations

import numpy as np
import pytest

from crowns_solver import _fc_game, _kc_engine
from crowns_solver.kings_crowns import Rules

KC_DECK = np.asarray(Rules().deck.counts, dtype=np.int32)
DECK5 = [c for c in range(55) for _ in range(2)] + [55] * 6


def _play_round(generators):
    return _fc_game.play_round(DECK5, [0, 1], 3, [1, 1], [[], []], generators, list, 50, True,
                               1, [str(c) for c in range(56)])


def test_a_five_crowns_seat_without_a_generator_is_named():
    # it said "a numpy.random.Generator is needed, got NoneType", not which seat's
    with pytest.raises(TypeError, match=r"^generators\[1\] must be a numpy.random.Generator, got NoneType$"):
        _play_round([np.random.default_rng(1), None])
    with pytest.raises(TypeError, match=r"^generator must be a numpy.random.Generator, got int$"):
        _fc_game.integers_like_numpy(3, 5, 2)


def test_the_same_draws_after_the_move():
    """integers_like_numpy still draws what numpy draws; a round and a King's Crowns
    engine from equal generators are equal."""
    assert _fc_game.integers_like_numpy(np.random.default_rng(9), 1000, 50) == \
        list(np.random.default_rng(9).integers(1000, size=50))
    a = _play_round([np.random.default_rng(4), np.random.default_rng(5)])
    b = _play_round([np.random.default_rng(4), np.random.default_rng(5)])
    assert a == b
    e1 = _kc_engine.Engine(KC_DECK, 3, 10, 100, np.random.default_rng(7))
    e2 = _kc_engine.Engine(KC_DECK, 3, 10, 100, np.random.default_rng(7))
    assert e1.state() == e2.state()


def test_a_kings_crowns_call_without_a_generator_is_named():
    with pytest.raises(TypeError, match=r"^gen must be a numpy.random.Generator, got str$"):
        _kc_engine.Engine(KC_DECK, 2, 10, 100, "seed")
