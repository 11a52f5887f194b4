"""Stopping the rest of the Cross Kings search API from another thread (session 24):
``players.evaluate_moves``, ``review.move_values``, ``review.analyse_game`` and
``analyse_steps``, and the search players, all take the `cancel` object ``solve`` takes
(session 23, tests/test_cross_kings_cancel23.py).

Each long search here has a limit of ten minutes (or none) on a position with 35 or 36
cards left, which runs to that limit unless the cancel stops it; "it finished" is a join
of generous length (WAIT), never a speed claim.
"""

from __future__ import annotations

import pickle
import threading

import numpy as np
import pytest
from test_cross_kings_cancel23 import Polled, _in_thread

from crowns_solver.cross_kings import Position, solve
from crowns_solver.cross_kings.players import (
    ClairvoyantPlayer,
    GreedyPlayer,
    SearchPlayer,
    evaluate_moves,
    seat_view,
)
from crowns_solver.cross_kings.review import (
    ANALYSIS_COLUMNS,
    AnalysisCancelled,
    AnalysisInterrupted,
    analyse_game,
    analyse_steps,
    move_values,
    replay,
)
from crowns_solver.errors import CrownsError, SolverOptionError

WAIT = 20.0       # seconds: "it returned", far below LONG
LONG = 600.0      # the time limit of the searches cancelled here
AFTER = 0.3       # seconds of searching before the other thread sets the cancel

DEAL = Position.random(np.random.default_rng(5))
OPENED = DEAL.play((2, 2))   # 36 cards on the grid, first to move: 10 legal moves


def _game() -> Position:
    """A whole game between greedy players from OPENED (35 moves, recorded)."""
    pos, greedy, rng = OPENED, GreedyPlayer(), np.random.default_rng(1)
    while not pos.is_terminal():
        pos = pos.play(greedy.choose(seat_view(pos, pos.to_move), rng))
    return pos


GAME = _game()


def _cancelled_after(seconds: float = AFTER) -> threading.Event:
    """An Event another thread sets `seconds` from now."""
    cancel = threading.Event()
    timer = threading.Timer(seconds, cancel.set)
    timer.daemon = True
    timer.start()
    return cancel


def _run(call):
    """Run `call` in a thread and wait for it (WAIT): its result, or its exception raised."""
    t, out = _in_thread(call)
    t.join(WAIT)
    assert not t.is_alive(), "the cancelled search did not return"
    if "error" in out:
        raise out["error"]
    return out["result"]


def _set() -> threading.Event:
    cancel = threading.Event()
    cancel.set()
    return cancel


def _legal(pos: Position) -> list:
    return [tuple(c) for c in pos.legal_moves()]


# --------------------------------------------------------------------------- evaluate_moves, move_values

@pytest.mark.parametrize("evaluate", [evaluate_moves, move_values])
def test_a_long_evaluation_cancelled_from_another_thread_returns_what_it_estimated(evaluate):
    cancel = _cancelled_after()
    out = _run(lambda: evaluate(OPENED, time_limit=LONG, cancel=cancel))
    assert sorted(e.cell for e in out) == sorted(_legal(OPENED))
    assert not all(e.exact for e in out)            # 35 cards: nothing near proven
    valued = [e for e in out if e.value is not None]
    assert valued                                   # 0.3 s of search estimated moves
    for e in out:
        assert e.lower <= e.upper
        if e.value is not None:
            assert e.lower <= e.value <= e.upper
    values = [e.value for e in valued]
    assert values == sorted(values, reverse=True) and out[:len(valued)] == valued   # best first


@pytest.mark.parametrize("evaluate", [evaluate_moves, move_values])
def test_a_cancel_set_before_the_evaluation_searches_nothing(evaluate):
    out = _run(lambda: evaluate(OPENED, time_limit=LONG, cancel=_set()))
    assert sorted(e.cell for e in out) == sorted(_legal(OPENED))
    assert all(e.value is None and not e.exact for e in out)
    # what the score bounds give, as solve's own answer with the cancel set
    sol = solve(OPENED, mode="game", all_moves=True, tt_mb=16, cancel=_set())
    assert sol.nodes == 0
    assert {e.cell: (e.lower, e.upper) for e in out} == {m.cell: (m.lower, m.upper) for m in sol.moves}


@pytest.mark.parametrize("evaluate", [evaluate_moves, move_values])
def test_an_evaluation_with_a_cleared_cancel_is_whole(evaluate):
    """An object that is never set changes nothing (node limits are deterministic)."""
    pos = replay(GAME)[5].position   # 31 cards on the grid: the limit stops the search
    plain = evaluate(pos, node_limit=50_000)
    assert not all(e.exact for e in plain)
    assert evaluate(pos, node_limit=50_000, cancel=threading.Event()) == plain


# --------------------------------------------------------------------------- analyse_game, analyse_steps

def test_a_long_analysis_cancelled_from_another_thread_raises_with_its_total():
    """The first move's search (36 cards on the grid, ten minutes a move) is cut short:
    no move was finished, and the exception says how many there were."""
    cancel = _cancelled_after()
    with pytest.raises(AnalysisCancelled) as info:
        _run(lambda: analyse_game(GAME, time_limit=LONG, cancel=cancel))
    stop = info.value
    assert stop.total == len(replay(GAME)) == 35
    assert len(stop.frame) == 0 and list(stop.frame.columns) == list(ANALYSIS_COLUMNS)
    assert str(stop) == "analysis cancelled after 0 of 35 moves"
    # not Ctrl-C (code catching KeyboardInterrupt would end the program) nor bad input
    assert not isinstance(stop, (KeyboardInterrupt, CrownsError))
    # it crosses a process boundary (a pool's worker) whole
    back = pickle.loads(pickle.dumps(stop))
    assert type(back) is AnalysisCancelled and back.total == 35 and str(back) == str(stop)
    assert back.frame.equals(stop.frame)


def test_an_interrupted_analysis_survives_pickling_too():
    # AnalysisInterrupted (Ctrl-C) could not be unpickled: "missing 1 required positional
    # argument: 'total'" (its default reduce passed the message alone)
    from crowns_solver.cross_kings.review import AnalysisInterrupted, _analysis_frame

    stop = AnalysisInterrupted(_analysis_frame([]), 7)
    back = pickle.loads(pickle.dumps(stop))
    assert type(back) is AnalysisInterrupted and isinstance(back, KeyboardInterrupt)
    assert back.total == 7 and str(back) == str(stop) == "analysis interrupted after 0 of 7 moves"
    assert back.frame.equals(stop.frame)


def test_analyse_steps_keeps_the_moves_finished_before_the_cancel():
    """Three endgame moves (exact at once), then a whole deal's first move, cancelled
    0.3 s into its search: the three rows are kept, exactly as analysed without a cancel."""
    steps = replay(GAME)
    quick = steps[-3:]
    cancel = threading.Event()

    def progress(done: int, total: int) -> None:
        if done == len(quick):   # the long search starts now
            timer = threading.Timer(AFTER, cancel.set)
            timer.daemon = True
            timer.start()

    def evaluate(pos: Position) -> list:
        return move_values(pos, time_limit=LONG, cancel=cancel)

    with pytest.raises(AnalysisCancelled) as info:
        _run(lambda: analyse_steps(quick + steps[:1], evaluate, progress=progress, cancel=cancel))
    stop = info.value
    assert stop.total == 4 and len(stop.frame) == 3
    whole = analyse_steps(quick, lambda pos: move_values(pos, time_limit=LONG))
    assert whole.exact.all()
    assert stop.frame.equals(whole)


def test_an_analysis_with_the_cancel_set_before_searches_nothing():
    calls = []

    def evaluate(pos: Position) -> list:
        calls.append(pos)
        return move_values(pos, time_limit=LONG)

    with pytest.raises(AnalysisCancelled) as info:
        analyse_steps(replay(GAME), evaluate, cancel=_set())
    assert calls == [] and len(info.value.frame) == 0 and info.value.total == 35
    with pytest.raises(AnalysisCancelled) as info:
        _run(lambda: analyse_game(GAME, time_limit=LONG, players="second", cancel=_set()))
    assert len(info.value.frame) == 0 and info.value.total == 17


def test_the_cancel_is_asked_after_each_evaluation():
    """An evaluator that does not stop (it ignores the object): the analysis stops at the
    move after the one during which the object was set, without its row."""
    steps = replay(GAME)[-5:]
    cancel = threading.Event()
    seen = []

    def evaluate(pos: Position) -> list:
        seen.append(pos)
        if len(seen) == 2:
            cancel.set()   # set while the second move is being evaluated
        return move_values(pos, time_limit=LONG)

    with pytest.raises(AnalysisCancelled) as info:
        analyse_steps(steps, evaluate, cancel=cancel)
    assert len(seen) == 2 and len(info.value.frame) == 1 and info.value.total == 5
    assert info.value.frame.ply.tolist() == [steps[0].ply]


def test_ctrl_c_still_raises_analysis_interrupted_with_a_cancel_given():
    def evaluate(pos: Position) -> list:
        raise KeyboardInterrupt

    with pytest.raises(AnalysisInterrupted):
        analyse_steps(replay(GAME), evaluate, cancel=threading.Event())


# --------------------------------------------------------------------------- the search players

@pytest.mark.parametrize("cls", [SearchPlayer, ClairvoyantPlayer])
@pytest.mark.parametrize("pos", [DEAL, OPENED], ids=["start cell", "first move"])
def test_a_search_player_told_to_move_now_plays_a_legal_move(cls, pos):
    cancel = _cancelled_after()
    player = cls(node_limit=None, time_limit=LONG, cancel=cancel)
    view = seat_view(pos, pos.to_move, reveal=cls.cheats)
    move = _run(lambda: player.choose(view, np.random.default_rng(0)))
    assert move in _legal(pos)
    # the object stays set: the next choice is at once, legal, and from a cancelled search
    assert cancel.is_set()
    sol = _run(lambda: player.solution(view))
    assert sol.stopped == "cancelled" and sol.nodes == 0
    assert _run(lambda: player.choose(view, np.random.default_rng(0))) in _legal(pos)


def test_a_cancelled_player_searched_before_it_moved():
    """Set at the search's third poll (50 ms into it): the search had estimated moves."""
    cancel = Polled(set_from=3)
    player = SearchPlayer(node_limit=None, time_limit=LONG, cancel=cancel)
    view = seat_view(OPENED, "first")
    sol = _run(lambda: player.solution(view))
    assert sol.stopped == "cancelled" and not sol.exact and sol.nodes > 0
    assert sol.best_move in _legal(OPENED) and any(m.value is not None for m in sol.moves)
    cancel.event.clear()
    cancel.polls = 0
    assert _run(lambda: player.choose(view, np.random.default_rng(0))) in _legal(OPENED)
    assert cancel.polls >= 3


def test_a_player_with_a_cancel_never_set_plays_as_without():
    pos = replay(GAME)[10].position
    view = seat_view(pos, pos.to_move)
    plain = SearchPlayer(node_limit=20_000).choose(view, np.random.default_rng(3))
    assert SearchPlayer(node_limit=20_000, cancel=threading.Event()).choose(view, np.random.default_rng(3)) == plain


# --------------------------------------------------------------------------- validation

BAD = [True, 1, "yes", lambda: True, object()]


def _refused(call) -> None:
    with pytest.raises(SolverOptionError, match="cancel must be None or an object with an is_set") as info:
        call()
    assert info.value.arguments == ("cancel",)


@pytest.mark.parametrize("bad", BAD)
def test_every_entry_point_refuses_a_cancel_without_is_set(bad):
    _refused(lambda: evaluate_moves(OPENED, node_limit=1000, cancel=bad))
    _refused(lambda: move_values(OPENED, node_limit=1000, cancel=bad))
    _refused(lambda: analyse_game(GAME, node_limit=1000, cancel=bad))
    _refused(lambda: analyse_steps(replay(GAME), lambda pos: [], cancel=bad))
    _refused(lambda: SearchPlayer(cancel=bad))
    _refused(lambda: ClairvoyantPlayer(cancel=bad))


def test_the_event_class_without_brackets_is_refused_up_front():
    # threading.Event (not Event()) has a callable is_set: it was accepted, then the search's
    # poll raised "Event.is_set() missing 1 required positional argument: 'self'"
    from crowns_solver.cross_kings import solve

    calls = [lambda: solve(OPENED, node_limit=1000, cancel=threading.Event),
             lambda: evaluate_moves(OPENED, node_limit=1000, cancel=threading.Event),
             lambda: analyse_game(GAME, node_limit=1000, cancel=threading.Event),
             lambda: SearchPlayer(cancel=threading.Event)]
    for call in calls:
        with pytest.raises(SolverOptionError, match=r"^cancel must be an object with an is_set\(\) method, got the"
                                                    r" class Event itself: give an instance, Event\(\)$") as info:
            call()
        assert info.value.arguments == ("cancel",)
