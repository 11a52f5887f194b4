"""A King's Crowns ``Game`` shared by two threads (session 22 break): the compiled engine
refuses a second thread per call, but a move is several calls (the legal moves, the
policy's choice in Python, the move), so another thread's move made between them was
allowed, and the first thread's move then failed as ``IllegalMoveError: policy 'x' (seat
0) chose badly`` (blaming a policy that chose well) or, for a draw, was checked against
one position and made in another.  A thread's move (``draw``, ``play``, ``play_turn``,
``play_out``) now holds the game: another thread's move meanwhile raises
``EngineBusyError`` without touching the game, as the engine's calls do.

The overlap is deterministic: a policy, asked for its play, runs the other thread's
call to its end before it answers."""

from __future__ import annotations

import threading

import pytest

from crowns_solver.errors import EngineBusyError
from crowns_solver.kings_crowns import Game, Policy


class Meddler(Policy):
    """Plays its first legal play, after `meddle` ran in another thread (and ended)."""

    name = "meddler"

    def __init__(self, meddle):
        self.meddle = meddle
        self.outcomes: list[object] = []

    def choose_draw(self, view, rng):
        return "draw"

    def choose_play(self, view, rng):
        def run():
            try:
                self.outcomes.append(self.meddle())
            except Exception as exc:   # noqa: BLE001 - what the other thread got is the test's subject
                self.outcomes.append(exc)

        other = threading.Thread(target=run)
        other.start()
        other.join()
        return view.legal_plays()[0]


@pytest.mark.parametrize("move", ["play_turn", "play", "draw", "play_out"])
def test_another_threads_move_during_a_turn_is_refused(move):
    game = Game(3, seed=11)
    meddles = {
        "play_turn": lambda: game.play_turn("greedy"),
        "play": lambda: game.play(game.legal_plays()[0]),
        "draw": lambda: game.draw("draw"),
        "play_out": lambda: game.play_out("greedy"),
    }
    meddler = Meddler(meddles[move])
    game.play_turn([meddler, "greedy", "greedy"])   # the old code: IllegalMoveError, "meddler ... chose badly"
    [outcome] = meddler.outcomes
    assert isinstance(outcome, EngineBusyError)
    assert "cannot be shared between threads" in str(outcome)
    # the meddler's turn went through as if alone: it drew, then played its first legal play
    replay = Game(3, seed=11)
    replay.draw("draw")
    replay.play(replay.legal_plays()[0])
    assert game.log == replay.log and game.to_move == 1 and game.turn == 1


def test_the_same_thread_may_move_again_and_other_threads_may_after():
    game = Game(3, seed=12)
    game.play_turn("greedy")
    outcome: list[object] = []
    other = threading.Thread(target=lambda: outcome.append(game.play_turn("greedy")))
    other.start()
    other.join()
    assert outcome == [None] and game.turn == 2   # not in use any more: another thread moves
    assert game.play_out("greedy") is game and game.phase == "over"
