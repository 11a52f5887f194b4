"""The compiled engines and threads: one engine serves one thread at a time.

The Cross Kings search engine (``_ck_search.Engine``) and the King's Crowns game engine
(``_kc_engine.Engine``) keep mutable state and release the GIL while they work; a second
thread calling an engine that another thread is inside gets ``EngineBusyError`` at once,
before the call touches anything, and the first thread's result is what it is without
the second thread.  Engines of their own in several threads work side by side.  Below:
the batch entry points and an array changed during the call, and numpy generators.

The overlaps are made deterministic, never timed:

- Cross Kings, the search in the main thread: SIGUSR1 is made pending without running
  its handler (``_thread.interrupt_main`` followed directly by the search, both called
  from C by ``starmap``, so no bytecode runs between them); a fresh engine's first clock
  check, at its first node, runs signal handlers, so the handler runs *inside* the
  search, with the search paused, and makes the other thread's calls there.
- A search or a lookahead decision that cannot end by itself within the test (a whole
  deal; a decision of 10,000 samples of 50,000-turn rollouts) runs in one thread while
  the other waits for ``busy``, calls, then stops it (``stop``, Ctrl-C).
"""

from __future__ import annotations

import _thread
import itertools
import operator
import signal
import threading
import time

import numpy as np
import pytest

from crowns_solver import _ck_search, _kc_engine
from crowns_solver.cross_kings import Position, solve
from crowns_solver.cross_kings.solver import _engine_input
from crowns_solver.errors import CrownsError, EngineBusyError
from crowns_solver.kings_crowns import Game, Rules

INF = _ck_search.INF_VALUE
EXACT = 99
TT = 16 << 20

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGUSR1") or threading.current_thread() is not threading.main_thread(),
                                reason="needs POSIX signals and the main thread")


# --------------------------------------------------------------------------- helpers

def _position(seed: int, left: int) -> Position:
    """The position with `left` cards on the grid reached by seeded random play."""
    rng = np.random.default_rng(seed)
    pos = Position.random(rng)
    while pos.cards_left > left or pos.marker is None:
        moves = pos.legal_moves()
        assert moves, "the game ended early: choose another seed"
        pos = pos.play(moves[int(rng.integers(len(moves)))])
    return pos


POS22 = _position(2024, 22)      # open value: about 2 million nodes
POS16 = _position(2024, 16)      # game value: about 200,000 nodes


def _engine(pos: Position, mode: str = "open", shared=None) -> tuple[_ck_search.Engine, tuple]:
    cards, root = _engine_input(pos, mode)
    eng = _ck_search.Engine(cards, 0 if mode == "open" else 1, 0, 0, TT, shared)
    eng.set_limits(0.0, 0)
    return eng, root


def _reference(pos: Position) -> tuple[tuple, dict]:
    """The single-threaded exact search of `pos` (open value): result and counters."""
    eng, root = _engine(pos)
    result = eng.search(root, EXACT, -INF, INF)
    return result, eng.stats()


def _intrusions(eng: _ck_search.Engine, root: tuple) -> list:
    """Every kind of call a second thread could make: each must be refused."""
    return [
        lambda: eng.search(root, EXACT, -INF, INF),
        lambda: eng.search_move(root, eng_moves[0], EXACT, -INF, INF),
        lambda: eng.moves(root),
        lambda: eng.child(root, eng_moves[0]),
        lambda: eng.bounds(root),
        lambda: eng.tt_move(root),
        lambda: eng.tt_bounds(root),
        lambda: eng.heuristic(root),
        lambda: eng.terminal_value(root),
        lambda: eng.scale(root),
        lambda: eng.is_chance(root, eng_moves[0]),
        lambda: eng.pool_cards(root),
        lambda: eng.set_limits(0.0, 1),
        lambda: eng.new_generation(),
    ]


eng_moves = _engine(POS22)[0].moves(_engine_input(POS22, "open")[1])


def _call_in_thread(calls: list) -> list:
    """Run `calls` in a new thread, wait for it; what each raised (or "passed")."""
    out: list = []

    def run() -> None:
        for call in calls:
            try:
                call()
                out.append("passed")
            except BaseException as exc:   # noqa: BLE001 - the test looks at what it was
                out.append(exc)

    t = threading.Thread(target=run)
    t.start()
    t.join()
    return out


def _search_with_handler(eng: _ck_search.Engine, root: tuple, handler) -> tuple:
    """``eng.search(root)`` in this (the main) thread with `handler` run inside it, at the
    search's first clock check (see the module docstring)."""
    old = signal.signal(signal.SIGUSR1, handler)
    try:
        steps = [(_thread.interrupt_main, signal.SIGUSR1), (eng.search, root, EXACT, -INF, INF)]
        return list(itertools.starmap(operator.call, steps))[1]
    finally:
        signal.signal(signal.SIGUSR1, old)


# --------------------------------------------------------------------------- Cross Kings

def test_engine_busy_error_is_a_crowns_error_and_a_runtime_error():
    err = EngineBusyError(_ck_search.BUSY_MESSAGE)
    assert isinstance(err, CrownsError) and isinstance(err, RuntimeError) and isinstance(err, ValueError)


def test_a_second_thread_is_refused_while_a_search_runs_and_the_search_is_undisturbed():
    expected, expected_stats = _reference(POS22)
    eng, root = _engine(POS22)
    seen: dict = {}

    def inside(signum, frame):
        seen["busy"], seen["nodes"] = eng.busy, eng.nodes
        seen["calls"] = _call_in_thread(_intrusions(eng, root))

    result = _search_with_handler(eng, root, inside)
    assert seen["busy"] is True and seen["nodes"] == 1   # the handler ran inside the search
    assert len(seen["calls"]) == 14
    for outcome in seen["calls"]:
        assert isinstance(outcome, EngineBusyError), outcome
        assert str(outcome) == _ck_search.BUSY_MESSAGE
        assert "in use by another thread" in str(outcome) and "one engine per thread" in str(outcome)
    # the refused calls touched nothing: the same value, best move, nodes and counters
    assert result == expected and result[1] is True
    assert eng.stats() == expected_stats
    assert eng.busy is False
    # and the engine serves any thread afterwards
    assert _call_in_thread([lambda: eng.moves(root)]) == ["passed"]
    assert eng.moves(root) == eng_moves


def test_the_thread_inside_may_call_again():
    """A call from the thread already inside (a signal handler run during the search's
    Ctrl-C check) passes: the guard counts calls per thread, it does not refuse them."""
    expected, _ = _reference(POS22)
    ref, root = _engine(POS22)
    eng, _ = _engine(POS22)
    seen: dict = {}

    def inside(signum, frame):
        seen["moves"] = eng.moves(root)
        seen["child"] = eng.child(root, eng_moves[0])
        seen["scale"] = eng.scale(root)
        seen["busy"] = eng.busy

    result = _search_with_handler(eng, root, inside)
    assert seen["moves"] == ref.moves(root) == eng_moves
    assert seen["child"] == ref.child(root, eng_moves[0])
    assert seen["scale"] == ref.scale(root) == 1
    assert seen["busy"] is True
    assert result[:2] == expected[:2]   # the value is exact (the nodes may differ: see below)
    assert eng.busy is False


def test_ctrl_c_inside_a_search_leaves_the_engine_free_and_usable():
    expected, _ = _reference(POS22)
    eng, root = _engine(POS22)
    seen: dict = {}

    def inside(signum, frame):
        seen["calls"] = _call_in_thread([lambda: eng.moves(root)])
        raise KeyboardInterrupt   # what Ctrl-C's handler does

    result = _search_with_handler(eng, root, inside)
    assert isinstance(seen["calls"][0], EngineBusyError)
    assert result == (0, False, -1) and eng.stop == 2   # stopped by Ctrl-C, as documented
    assert eng.busy is False
    assert _call_in_thread([lambda: eng.moves(root)]) == ["passed"]
    eng.set_limits(0.0, 0)
    again = eng.search(root, EXACT, -INF, INF)
    assert again[:2] == expected[:2]


def test_a_search_in_another_thread_refuses_the_main_thread_until_it_stops():
    """A whole deal cannot be solved within the test: the worker thread's search runs
    until the main thread stops it (``stop``, the field a search is stopped by)."""
    deal = Position.random(np.random.default_rng(5))
    eng, root = _engine(deal)
    out: list = []
    worker = threading.Thread(target=lambda: out.append(eng.search(root, EXACT, -INF, INF)))
    worker.start()
    while not eng.busy and worker.is_alive():
        time.sleep(0.001)
    assert eng.busy, "the worker's search ended before it was seen running"
    for call in _intrusions(eng, root):
        with pytest.raises(EngineBusyError, match="in use by another thread"):
            call()
    eng.stop = 2
    worker.join()
    assert out == [(0, False, -1)]
    assert eng.busy is False
    fresh, _ = _engine(deal)
    assert eng.moves(root) == fresh.moves(root) == [14, 15, 20, 21]


def test_an_error_inside_a_call_leaves_the_engine_free():
    eng, root = _engine(POS22)
    bad = (root[0], root[1], root[2], root[3], root[3]) + root[5:]   # a card in both hands
    with pytest.raises(ValueError, match="two places"):
        eng.moves(bad)
    assert eng.busy is False
    illegal = next(c for c in range(36) if c not in eng_moves)
    with pytest.raises(ValueError, match=f"cell {illegal} is not a legal move"):
        eng.search_move(root, illegal, EXACT, -INF, INF)
    with pytest.raises(ValueError, match=f"cell {illegal} is not a legal move"):
        eng.child(root, illegal)
    assert eng.busy is False
    assert _call_in_thread([lambda: eng.moves(root)]) == ["passed"]
    assert eng.search(root, EXACT, -INF, INF) == _reference(POS22)[0]


def test_solves_in_two_threads_at_once_give_the_sequential_results():
    """Each solve makes its own engine: two at once, the same values, moves and nodes."""
    jobs = [(POS22, "open"), (POS16, "game")]
    sequential = [solve(pos, mode=mode, tt_mb=16) for pos, mode in jobs]
    start = threading.Barrier(len(jobs))
    results: dict = {}

    def run(i: int) -> None:
        start.wait()
        pos, mode = jobs[i]
        results[i] = solve(pos, mode=mode, tt_mb=16)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i, seq in enumerate(sequential):
        assert results[i].value == seq.value
        assert results[i].best_move == seq.best_move
        assert results[i].nodes == seq.nodes
        assert [(m.cell, m.value) for m in results[i].moves] == [(m.cell, m.value) for m in seq.moves]
    assert sequential[0].value == 3


def test_two_engines_sharing_a_table_in_two_threads_find_the_exact_value():
    """A SharedTable is lockless (entries checked on reading): engines in two threads of
    one process may share it as the worker processes do."""
    expected, _ = _reference(POS22)
    table = _ck_search.SharedTable(TT)
    engines = [_engine(POS22, shared=table) for _ in range(2)]
    start = threading.Barrier(2)
    out: dict = {}

    def run(i: int) -> None:
        eng, root = engines[i]
        start.wait()
        out[i] = eng.search(root, EXACT, -INF, INF)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [out[i][:2] for i in range(2)] == [expected[:2]] * 2


# --------------------------------------------------------------------------- King's Crowns

DECK = np.asarray(Rules().deck.counts, dtype=np.int32)
LOOKAHEAD = _kc_engine.POLICY_IDS["lookahead"]
#: a decision of 10,000 samples of 50,000-turn rollouts (no target is reached): many
#: seconds, stopped by Ctrl-C after at most 4 samples
ENDLESS = (10000, 50000, _kc_engine.POLICY_IDS["aggressive"])


def _kc_engine_pair() -> tuple[_kc_engine.Engine, _kc_engine.Engine]:
    """Two engines dealt the same game (target and turn cap out of reach)."""
    return tuple(_kc_engine.Engine(DECK, 4, 1_000_000, 1_000_000, np.random.default_rng(7)) for _ in range(2))


def _play_first_choices(eng: _kc_engine.Engine, turns: int) -> None:
    """Play `turns` turns: draw from the draw pile, make the first legal play."""
    for _ in range(turns):
        eng.draw(0)
        eng.play(eng.legal_plays()[0])


def _calls_during_an_endless_decision(eng: _kc_engine.Engine, calls: list) -> list:
    """Run an endless lookahead decision of `eng` (``builtin``) in this thread while another
    thread makes each of `calls`, then presses Ctrl-C (the decision stops within 4
    samples); what each call did, in order: "passed" or the exception it raised."""
    seen: list = []

    def intrude() -> None:
        while not eng.busy:
            time.sleep(0.001)
        for call in calls:
            try:
                call()
                seen.append("passed")
            except BaseException as exc:   # noqa: BLE001
                seen.append(exc)
        _thread.interrupt_main()

    old = signal.signal(signal.SIGINT, signal.default_int_handler)   # what the engine watches
    try:
        t = threading.Thread(target=intrude)
        t.start()
        with pytest.raises(KeyboardInterrupt):
            eng.builtin(LOOKAHEAD, ENDLESS)
        t.join()
    finally:
        signal.signal(signal.SIGINT, old)
    return seen


def test_a_second_thread_is_refused_while_a_kings_crowns_decision_runs():
    eng, ref = _kc_engine_pair()
    before = eng.state()
    calls = [
        eng.legal_draws, eng.legal_plays, lambda: eng.draw(0), lambda: eng.play(0),
        lambda: eng.builtin(0), lambda: eng.view(0), eng.state,
        lambda: eng.set_state(*([[]] * 6), 0, 0),
    ]
    seen = _calls_during_an_endless_decision(eng, calls)
    assert len(seen) == len(calls)
    for outcome in seen:
        assert isinstance(outcome, EngineBusyError), outcome
        assert str(outcome) == _kc_engine.BUSY_MESSAGE
        assert "in use by another thread" in str(outcome) and "one per thread" in str(outcome)
    # nothing was drawn, played or replaced; after Ctrl-C the engine is free and plays on
    assert eng.busy is False
    assert eng.state() == before == ref.state()
    _play_first_choices(eng, 8)
    _play_first_choices(ref, 8)
    assert eng.state() == ref.state()
    assert eng.turn == 8


def test_an_error_inside_a_kings_crowns_call_leaves_the_engine_free():
    eng, ref = _kc_engine_pair()
    with pytest.raises(ValueError, match="play 0 is not legal now"):
        eng.play(0)   # the seat to move must draw first
    with pytest.raises(ValueError, match="give one list per seat"):
        eng.set_state([[]], [[]], [[]], [[]], [], [], 0, 0)
    assert eng.busy is False
    out: list = []
    t = threading.Thread(target=lambda: out.append(eng.legal_draws()))
    t.start()
    t.join()
    assert out == [[0, 1]]
    _play_first_choices(eng, 3)
    _play_first_choices(ref, 3)
    assert eng.state() == ref.state()


def test_games_in_two_threads_at_once_replay_the_sequential_games():
    """A Game owns its engine: one Game per thread gives the games a seed gives."""
    policies = ["greedy", "aggressive", "random", "defensive"]

    def play(seed: int) -> dict:
        return Game(4, seed=seed).play_out(policies).state()

    sequential = [play(s) for s in (11, 12)]
    start = threading.Barrier(2)
    out: dict = {}

    def run(i: int, seed: int) -> None:
        start.wait()
        out[i] = play(seed)

    threads = [threading.Thread(target=run, args=(i, s)) for i, s in enumerate((11, 12))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [out[0], out[1]] == sequential
    assert sequential[0] != sequential[1]


def test_a_game_shared_by_two_threads_is_refused_not_corrupted():
    """Game's methods pass the engine's refusal on: a lookahead move of the engine's
    own (``builtin``) runs in the main thread while another thread asks the Game."""
    game = Game(4, rules=Rules(target=520, max_turns=1_000_000), seed=3)   # 520: every crown of the deck
    eng = game._engine
    before = game.state()
    seen = _calls_during_an_endless_decision(
        eng, [game.state, game.legal_draws, lambda: game.draw("draw"), lambda: game.view(1)])
    assert len(seen) == 4 and all(isinstance(x, EngineBusyError) for x in seen), seen
    assert game.state() == before and game.log == []


# --------------------------------------------------------------------------- caller arrays
# The batch entry points check their arrays, then read them again without the GIL: a
# value another thread writes in between must not be used (a card code above 55 wrote
# past a 56-entry count array on the stack, more than 4 Kings indexed the scorer's tables
# out of range). The handler below plays the other thread: it runs at the call's first
# Ctrl-C check (with the GIL, in the middle of the work) and writes a bad value ahead.

def _call_with_handler(handler, func, *args):
    """``func(*args)`` with `handler` run at its first signal check (see the module docstring)."""
    old = signal.signal(signal.SIGUSR1, handler)
    try:
        steps = [(_thread.interrupt_main, signal.SIGUSR1), (func, *args)]
        return list(itertools.starmap(operator.call, steps))[1]
    finally:
        signal.signal(signal.SIGUSR1, old)


def _hands(m: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(4)
    hands = np.stack([rng.choice(56, size=5, replace=False) for _ in range(m)]).astype(np.int8)
    return hands, np.full(m, 5, dtype=np.int8)


@pytest.mark.parametrize("entry, column", [("deadwood_rows", 0), ("can_go_out_rows", 3), ("time_rows", 4)])
def test_a_card_code_written_during_a_batch_is_refused_not_used(entry, column):
    from crowns_solver import _fc_melds

    hands, wilds = _hands(3000)
    expected = np.zeros(3000, np.int32)
    _fc_melds.deadwood_rows(hands, wilds, True, expected)
    out = {"deadwood_rows": np.zeros(3000, np.int32), "can_go_out_rows": np.zeros(3000, np.uint8),
           "time_rows": np.zeros(3000)}[entry]
    args = (hands, wilds, True, 1, out) if entry == "time_rows" else (hands, wilds, True, out)

    def inside(signum, frame):   # at row 1023
        hands[2000, column] = 100   # not a card code: written after the check

    with pytest.raises(ValueError, match=r"^row 2000: entry 100 is not a card code -1\.\.55; the array changed"
                                         r" during the call"):
        _call_with_handler(inside, getattr(_fc_melds, entry), *args)
    if entry == "deadwood_rows":   # the rows before the change were done right
        assert (out[:1023] == expected[:1023]).all()


def test_a_wild_rank_written_during_a_batch_is_refused_not_used():
    from crowns_solver import _fc_melds

    hands, wilds = _hands(3000)
    out = np.zeros(3000, np.int32)

    def inside(signum, frame):
        wilds[1500] = 60

    with pytest.raises(ValueError, match=r"^row 1500: wild rank 60 is not 3\.\.13; the array changed"):
        _call_with_handler(inside, _fc_melds.deadwood_rows, hands, wilds, True, out)


def test_a_king_count_written_during_score_masks_is_refused_not_used():
    from crowns_solver import _ck_score

    rng = np.random.default_rng(8)
    n = 200_000
    nat = rng.integers(0, 1 << 32, size=n, dtype=np.uint32) & np.uint32(0x0F0F0F0F)
    kings = rng.integers(0, 3, size=n, dtype=np.uint8)
    out = np.full(n, -1, np.int32)

    def inside(signum, frame):
        kings[100_000] = 200

    with pytest.raises(ValueError, match=r"^kings\[100000\] = 200 is more than 4; the array changed during the call"):
        _call_with_handler(inside, _ck_score.score_masks, nat, kings, out)
    assert [int(out[i]) for i in (0, 65_534, 99_999)] == [
        _ck_score.score_mask(int(nat[i]), int(kings[i])) for i in (0, 65_534, 99_999)]
    assert (out[100_000:] == -1).all()


def test_a_player_id_written_during_play_games_is_refused_not_used():
    seats = np.zeros((3, 4), dtype=np.int8)   # random players
    winner, turns = np.zeros(3, np.int8), np.zeros(3, np.int32)
    scores, resh = np.zeros((3, 4), np.int16), np.zeros(3, np.int32)
    seen = {}

    def inside(signum, frame):   # after the checks, before the games run without the GIL
        seen["ran"] = True
        seats[1, 2] = 99

    args = (3, DECK, 4, 100, 2000, seats, None, (64, 20, 2), winner, turns, scores, resh,
            np.array([1], np.uint32), 0)
    with pytest.raises(ValueError, match=r"^seat_policies\[1, 2\] = 99 is no built-in player; the array changed"):
        _call_with_handler(inside, _kc_engine.play_games, *args)
    assert seen["ran"] and turns[0] > 0 and turns[1] == 0   # game 0 was played, game 1 refused


def test_unseen_weights_are_used_as_checked_not_as_changed_later():
    """discard_outcomes and two_step read the codes and the row (Python objects, which may
    run code) after checking `unseen`: the search uses the checked copy."""
    from crowns_solver.five_crowns.cards import parse_card
    from crowns_solver.five_crowns.game import _compiled

    game = _compiled()
    codes = [parse_card(c) for c in ["5H", "6H", "9S", "QD", "JK"]]
    unseen = np.zeros(56, np.int64)
    for c, k in {"7H": 2, "9D": 1, "KD": 2, "4C": 1, "3S": 2}.items():
        unseen[parse_card(c)] = k
    cards, kept, rows = game.discard_outcomes(codes, 4, True, unseen.copy())
    steps = [game.two_step(codes, c, 4, True, unseen.copy(), r, k) for c, r, k in zip(cards, rows, kept)]

    def codes_then_change(u):
        yield from codes
        u[parse_card("7H")] = 0        # after the check, before the search
        u[parse_card("9D")] = 1 << 40  # beyond any weight the check allows

    u = unseen.copy()
    assert game.discard_outcomes(codes_then_change(u), 4, True, u) == (cards, kept, rows)

    class Row(list):
        def __getitem__(self, i):
            u2[parse_card("KD")] = 0
            return list.__getitem__(self, i)

    for c, r, k, step in zip(cards, rows, kept, steps):
        u2 = unseen.copy()
        assert game.two_step(codes, c, 4, True, u2, Row(r), k) == step


# --------------------------------------------------------------------------- numpy generators
# The King's Crowns core draws from the caller's numpy Generator without the GIL; numpy's
# rule for that is to hold the bit generator's lock (its own methods do), else another
# thread using the same Generator races on its state.  A bit generator whose lock records
# its use shows that every draw is made holding it.

class _RecordingLock:
    def __init__(self) -> None:
        self.entered = self.exited = 0
        self.held = False

    def __enter__(self) -> None:
        assert not self.held
        self.entered += 1
        self.held = True

    def __exit__(self, *exc) -> None:
        self.exited += 1
        self.held = False

    acquire = __enter__

    def release(self) -> None:
        self.__exit__()


class _RecordedPCG64(np.random.PCG64):
    """PCG64 whose ``lock`` is a _RecordingLock (numpy reads the attribute each time)."""

    recording: _RecordingLock

    @property
    def lock(self):
        return self.recording


def _recorded(seed: int) -> tuple[np.random.Generator, _RecordingLock]:
    bg = _RecordedPCG64(seed)
    bg.recording = _RecordingLock()
    return np.random.Generator(bg), bg.recording


def test_kings_crowns_draws_hold_the_generators_lock():
    gen, lock = _recorded(9)
    eng = _kc_engine.Engine(DECK, 4, 100, 2000, gen)
    assert (lock.entered, lock.exited, lock.held) == (1, 1, False)   # the deal
    eng.builtin(_kc_engine.POLICY_IDS["random"])
    eng.draw(0)
    assert (lock.entered, lock.exited) == (3, 3)
    view, seat_counts, deck = Game(4, seed=1).view().to_native()
    _kc_engine.choose(0, view, seat_counts, deck, gen)
    _kc_engine.lookahead_table(view, seat_counts, deck, gen, (4, 5, 2))
    assert (lock.entered, lock.exited) == (5, 5)
    out = (np.zeros(3, np.int8), np.zeros(3, np.int32), np.zeros((3, 4), np.int16), np.zeros(3, np.int32))
    seats = np.zeros((3, 4), np.int8)
    _kc_engine.play_games(3, DECK, 4, 100, 2000, seats, gen, (4, 5, 2), *out)   # one stream: a lock per game
    assert (lock.entered, lock.exited) == (8, 8)
    _kc_engine.play_games(3, DECK, 4, 100, 2000, seats, gen, (4, 5, 2), *out, root=np.array([1], np.uint32))
    assert (lock.entered, lock.exited, lock.held) == (8, 8, False)   # streams of its own: gen unused


def test_a_game_seeded_by_a_generator_draws_under_its_lock_and_plays_the_same_game():
    # since the one seed rule (crowns_solver._seeds, session 22) a Game draws its seed from
    # a Generator once and plays from that seed, so it replays from game.seed
    policies = ["lookahead", "greedy", "random", "aggressive"]
    gen, lock = _recorded(21)
    game = Game(4, seed=gen).play_out(policies)
    plain = Game(4, seed=np.random.Generator(np.random.PCG64(21))).play_out(policies)
    assert lock.entered == lock.exited >= 1 and not lock.held
    assert game.state() == plain.state()
    assert Game(4, seed=game.seed).play_out(policies).state() == game.state()
