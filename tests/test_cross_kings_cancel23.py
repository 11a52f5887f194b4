"""Stopping a Cross Kings solve from another thread (``solve(cancel=...)``, the engine's
``set_cancel``), and the engine's public fields refused to other threads while a search
runs (session 23).

Ctrl-C reaches only a solve in the main thread; a GUI or server solving in a worker thread
had no way to stop it but ``time_limit``.  A cancelled solve answers as a stopped one
does: proven bounds, the best move found, ``stopped="cancelled"``.

No timing is asserted.  A solve is cancelled once its `cancel` object has been polled a
few times (the engine polls it every 50 ms of searching), on positions whose solve takes
many times that (a whole deal: hours; POS22 and POS19 with ``all_moves``: about 7 and 8
million nodes, where 50 ms is at most a million); "it finished" waits are generous (60 s).
"""

from __future__ import annotations

import functools
import multiprocessing
import signal
import threading
import time

import numpy as np
import pytest
from test_engine_threads import EXACT, INF, POS16, POS22, _call_in_thread, _engine, _position, _search_with_handler

from crowns_solver import _ck_search
from crowns_solver.cross_kings import Position, solve
from crowns_solver.cross_kings.solver import _engine_input
from crowns_solver.errors import EngineBusyError, SolverOptionError

WAIT = 60.0   # seconds: "it finished", never a speed claim

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGUSR1") or threading.current_thread() is not threading.main_thread(),
                                reason="needs POSIX signals and the main thread")


class Polled:
    """A threading.Event that counts how often it is asked (from any thread)."""

    def __init__(self, set_from: int | None = None) -> None:
        self.event = threading.Event()
        self.polls = 0
        self.set_from = set_from   # set itself at this poll (None: only by set())

    def is_set(self) -> bool:
        self.polls += 1
        if self.set_from is not None and self.polls >= self.set_from:
            self.event.set()
        return self.event.is_set()

    def set(self) -> None:
        self.event.set()


def _in_thread(call):
    """Start `call` in a thread; returns (thread, out) with out["result"] or out["error"]."""
    out: dict = {}

    def run() -> None:
        try:
            out["result"] = call()
        except BaseException as exc:   # noqa: BLE001 - the test looks at it
            out["error"] = exc

    t = threading.Thread(target=run)
    t.start()
    return t, out


def _cancel_when_searching(cancel: Polled, t: threading.Thread) -> None:
    """Set `cancel` once the search in `t` has polled it three times (the third poll
    comes 50 ms of searching after the second), then wait for `t` to end."""
    while cancel.polls < 3 and t.is_alive():
        time.sleep(0.001)
    cancel.set()
    t.join(WAIT)
    assert not t.is_alive(), "the cancelled solve did not return"


def _legal(pos: Position) -> list:
    return [tuple(c) for c in pos.legal_moves()]


# --------------------------------------------------------------------------- solve(cancel=)

def test_a_whole_deal_solved_in_a_thread_stops_when_cancelled():
    """A whole deal without a limit takes hours: only the cancel stops it."""
    deal = Position.random(np.random.default_rng(5))
    cancel = Polled()
    t, out = _in_thread(lambda: solve(deal, mode="open", tt_mb=16, cancel=cancel))
    _cancel_when_searching(cancel, t)
    sol = out["result"]
    assert sol.stopped == "cancelled" and not sol.exact
    assert sol.lower <= sol.value <= sol.upper and sol.lower < sol.upper
    assert sol.best_move in _legal(deal) and sol.nodes > 0
    for m in sol.moves:
        assert m.lower <= m.upper <= sol.upper


POS19 = _position(2024, 19)   # game value with all_moves: about 8 million nodes


@functools.lru_cache
def _full(mode: str, left: int):
    """The exact solve (all_moves) of POS22 (open) or POS19 (game)."""
    full = solve(POS22 if left == 22 else POS19, mode=mode, tt_mb=16, all_moves=True)
    assert full.exact and all(m.exact for m in full.moves)
    return full


def _assert_sound(sol, full) -> None:
    """`sol`'s bounds hold `full`'s exact values, root and moves; exact moves agree."""
    exact_moves = {m.cell: m.value for m in full.moves}
    assert sol.lower <= full.value <= sol.upper
    assert sol.lower <= sol.value <= sol.upper
    assert not all(m.exact for m in sol.moves)
    for m in sol.moves:
        assert m.lower <= exact_moves[m.cell] <= m.upper, m
        if m.exact:
            assert m.value == exact_moves[m.cell]


@pytest.mark.parametrize("mode, pos", [("open", POS22), ("game", POS19)])
def test_a_cancelled_solve_keeps_sound_bounds_and_the_next_solve_is_exact(mode, pos):
    """The bounds of a solve cancelled midway hold the exact values (root and every
    move); a solve after it, and the same cancel object cleared, give the full answer."""
    full = _full(mode, pos.cards_left)
    cancel = Polled(set_from=3)   # set at the third poll: 50 ms into the search
    t, out = _in_thread(lambda: solve(pos, mode=mode, tt_mb=16, all_moves=True, cancel=cancel))
    t.join(WAIT)
    assert not t.is_alive()
    sol = out["result"]
    assert sol.stopped == "cancelled"
    assert sol.nodes < full.nodes   # it stopped before the end
    _assert_sound(sol, full)
    # the library is usable again: a new solve, and one given the cleared object
    again = solve(pos, mode=mode, tt_mb=16, all_moves=True)
    cancel.event.clear()
    cancel.set_from = None
    cleared = solve(pos, mode=mode, tt_mb=16, all_moves=True, cancel=cancel)
    for s in (again, cleared):
        assert s.exact and s.stopped is None and s.nodes == full.nodes
        assert [(m.cell, m.value) for m in s.moves] == [(m.cell, m.value) for m in full.moves]
    assert cancel.polls > 1   # the cleared object was still asked


def test_a_cancel_set_before_the_solve_returns_the_score_bounds():
    cancel = threading.Event()
    cancel.set()
    sol = solve(POS22, tt_mb=16, cancel=cancel)
    assert sol.stopped == "cancelled" and not sol.exact and sol.nodes == 0
    assert sol.lower <= 3 <= sol.upper   # POS22's open value is 3 (test_engine_threads)


def test_a_cancelled_parallel_solve_stops_its_workers():
    """The parallel anytime analysis (a whole deal): the calling process polls the
    object and stops the workers as Ctrl-C does."""
    deal = Position.random(np.random.default_rng(5))
    cancel = Polled()
    t, out = _in_thread(lambda: solve(deal, mode="open", tt_mb=16, workers=2, cancel=cancel))
    _cancel_when_searching(cancel, t)
    sol = out["result"]
    assert sol.stopped == "cancelled" and not sol.exact
    assert sol.lower <= sol.value <= sol.upper and sol.best_move in _legal(deal)
    assert sol.stats["anytime_workers"] == 2
    assert multiprocessing.active_children() == []   # every worker has ended


def test_a_cancelled_parallel_exact_search_keeps_sound_bounds():
    """The parallel exact search (game value, every card of every move a job)."""
    full = _full("game", 19)

    class AfterWorkersStart(Polled):
        """Set at the second poll that finds the workers running (the parent polls every
        0.1 s while they search: they have searched about 0.1 s, far from the ~8 million
        nodes the solve needs)."""

        seen = 0

        def is_set(self) -> bool:
            if multiprocessing.active_children():
                self.seen += 1
                if self.seen >= 2:
                    self.event.set()
            return super().is_set()

    cancel = AfterWorkersStart()
    t, out = _in_thread(lambda: solve(POS19, mode="game", tt_mb=16, all_moves=True, workers=2, cancel=cancel))
    t.join(WAIT)
    assert not t.is_alive()
    sol = out["result"]
    assert sol.stopped == "cancelled" and sol.stats["workers"] == 2
    _assert_sound(sol, full)
    assert multiprocessing.active_children() == []


@pytest.mark.parametrize("bad", [True, 1, "yes", lambda: True])
def test_cancel_must_have_is_set(bad):
    with pytest.raises(SolverOptionError, match="cancel must be None or an object with an is_set") as info:
        solve(POS16, mode="game", tt_mb=16, cancel=bad)
    assert info.value.arguments == ("cancel",)


def test_an_error_in_is_set_propagates():
    class Broken:
        def __init__(self) -> None:
            self.polls = 0

        def is_set(self) -> bool:
            self.polls += 1
            if self.polls >= 2:   # at the search's first poll
                raise RuntimeError("the GUI is gone")
            return False

    with pytest.raises(RuntimeError, match="the GUI is gone"):
        solve(POS22, tt_mb=16, cancel=Broken())


# --------------------------------------------------------------------------- Engine.set_cancel

def test_the_engine_stays_cancelled_until_the_object_is_cleared():
    expected = _engine(POS22)[0].search(_engine_input(POS22, "open")[1], EXACT, -INF, INF)
    eng, root = _engine(POS22)
    cancel = threading.Event()
    cancel.set()
    eng.set_cancel(cancel)
    eng.set_limits(0.0, 0)
    assert eng.stop == _ck_search.STOP_CANCELLED == 4
    assert eng.search(root, EXACT, -INF, INF) == (0, False, -1)
    cancel.clear()
    eng.set_limits(0.0, 0)
    assert eng.stop == 0
    assert eng.search(root, EXACT, -INF, INF) == expected
    with pytest.raises(TypeError, match="cancel must be None or have an is_set"):
        eng.set_cancel(object())


def test_a_search_in_another_thread_is_cancelled_and_the_engine_serves_again():
    deal = Position.random(np.random.default_rng(5))
    eng, root = _engine(deal)
    cancel = Polled()
    eng.set_cancel(cancel)
    eng.set_limits(0.0, 0)
    t, out = _in_thread(lambda: eng.search(root, EXACT, -INF, INF))
    _cancel_when_searching(cancel, t)
    assert out["result"] == (0, False, -1) and eng.stop == 4 and eng.busy is False
    eng.set_cancel(None)
    eng.set_limits(0.0, 0)
    assert eng.moves(root) == [14, 15, 20, 21]
    assert eng.search(root, 2, -INF, INF)[2] in (14, 15, 20, 21)


# --------------------------------------------------------------------------- public fields

def _public_fields(eng: _ck_search.Engine) -> list[str]:
    """The fields a caller may write (on an idle engine)."""
    names = []
    for name in dir(eng):
        if name.startswith("_") or callable(getattr(eng, name)):
            continue
        try:
            setattr(eng, name, getattr(eng, name))
        except AttributeError:   # a read-only property
            continue
        names.append(name)
    return names


def test_every_public_field_is_refused_to_another_thread_during_a_search():
    """Before session 23 the ~60 tunables and counters could be written by any thread
    in the middle of a search (which reads them without the GIL)."""
    eng, root = _engine(POS22)
    fields = _public_fields(eng)
    assert len(fields) >= 60 and "heur_kind" in fields and "nodes" in fields and "stop" in fields
    ref_eng, _ = _engine(POS22)
    expected = ref_eng.search(root, EXACT, -INF, INF)
    before = {name: getattr(eng, name) for name in fields}
    seen: dict = {}

    def inside(signum, frame):
        others = [n for n in fields if n != "stop"]
        seen["others"] = others
        seen["calls"] = _call_in_thread([lambda n=n: setattr(eng, n, 1) for n in others])
        seen["stop"] = _call_in_thread([lambda: setattr(eng, "stop", 0)])   # how a search is stopped
        eng.heur_kind = eng.heur_kind   # the thread inside may write

    result = _search_with_handler(eng, root, inside)
    for name, outcome in zip(seen["others"], seen["calls"]):
        assert isinstance(outcome, EngineBusyError), (name, outcome)
        assert str(outcome).startswith(f"cannot set Engine.{name} now: this Cross Kings search engine is in use")
    assert seen["stop"] == ["passed"]
    # the refused writes changed nothing: the same search as without them
    assert result == expected
    assert eng.stats() == ref_eng.stats()
    for name in fields:
        if name not in eng.stats() and name != "nodes":
            assert getattr(eng, name) == before[name], name
    # and the engine takes writes again
    assert _call_in_thread([lambda: setattr(eng, "heur_kind", 1)]) == ["passed"] and eng.heur_kind == 1


def test_a_field_written_while_another_thread_searches_is_refused():
    deal = Position.random(np.random.default_rng(5))
    eng, root = _engine(deal)
    t, out = _in_thread(lambda: eng.search(root, EXACT, -INF, INF))
    while not eng.busy and t.is_alive():
        time.sleep(0.001)
    assert eng.busy
    with pytest.raises(EngineBusyError, match="cannot set Engine.split now"):
        eng.split = 0
    with pytest.raises(EngineBusyError, match="cannot set Engine.nodes now"):
        eng.nodes = 0
    assert eng.split == 100
    eng.stop = 2   # stopping it is allowed
    t.join(WAIT)
    assert out["result"] == (0, False, -1) and not eng.busy
    eng.split = 0
    assert eng.split == 0
