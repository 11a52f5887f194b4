"""The transposition table the parallel solver's workers share (``parallel.SHARED_TABLE``):
the same exact values as one process, entries that two writers mix read as misses
(lockless hashing), processes hammering one tiny table, and the memory plan."""

from __future__ import annotations

import multiprocessing as mp

import pytest
from test_cross_kings_solver import _bench_position, random_position

from crowns_solver import _ck_search
from crowns_solver.cross_kings import parallel, solve
from crowns_solver.cross_kings.solver import _engine_input

INF = _ck_search.INF_VALUE
TINY = 65536   # the smallest table: 4,096 entries, overwritten all the time at 14-18 cards


@pytest.fixture(autouse=True)
def _shared_table_on(monkeypatch):
    """The shared table is off by default (parallel.SHARED_TABLE): these tests turn it on."""
    monkeypatch.setattr(parallel, "SHARED_TABLE", True)


@pytest.fixture
def small_positions_in_parallel(monkeypatch):
    """Let positions of any size go to the workers."""
    monkeypatch.setattr(parallel, "PARALLEL_MIN_CARDS", 0)


@pytest.fixture
def tiny_shared_table(monkeypatch):
    """Give the workers a shared table of 64 KB, whatever the memory asked for."""
    plan = parallel._table_plan

    def tiny(tt_mb, n, ctx):
        shared, share = plan(tt_mb, n, ctx)
        assert shared is not None
        return _ck_search.SharedTable(TINY), share

    monkeypatch.setattr(parallel, "_table_plan", tiny)


def _engine(pos, mode, shared=None, tt_bytes=1 << 20):
    cards, root = _engine_input(pos, mode)
    return _ck_search.Engine(cards, 0 if mode == "open" else 1, 0, 0 if pos.reach == "any" else 1,
                             tt_bytes, shared), root


@pytest.mark.parametrize("mode", ["open", "game"])
def test_workers_on_one_table_equal_one_process(mode, small_positions_in_parallel):
    left = 14 if mode == "open" else 11
    for seed in range(3):
        pos = random_position(31 * seed + 5, left)
        one = solve(pos, mode=mode, all_moves=True, tt_mb=2)
        for all_moves in (False, True):
            two = solve(pos, mode=mode, all_moves=all_moves, tt_mb=4, workers=2)
            assert two.stats["workers"] == 2 and two.stats["table_shared"]
            assert two.exact and two.value == one.value, (seed, all_moves)
            if all_moves:
                assert two.move_values == one.move_values and two.card_values == one.card_values
            else:   # an optimal move (with several, which one is named depends on timing)
                assert one.move_values[two.best_move] == one.value


def test_a_tiny_shared_table_under_two_writers_gives_exact_values(small_positions_in_parallel, tiny_shared_table):
    # two workers value the root moves of one position at once, storing into and
    # probing one 4,096-entry table, whose entries are replaced constantly
    for left, j, mode in [(14, 0, "open"), (15, 1, "open"), (16, 2, "open"), (17, 3, "open"), (18, 4, "open"),
                          (11, 0, "game"), (12, 1, "game")]:
        pos = _bench_position(left, j)
        one = solve(pos, mode=mode, all_moves=True, tt_mb=8)
        two = solve(pos, mode=mode, all_moves=True, tt_mb=8, workers=2)
        assert two.stats["table_shared"] and two.table_entries == TINY // 16
        assert two.value == one.value and two.move_values == one.move_values, (left, j, mode)
        assert two.card_values == one.card_values


def _hammer(table, positions, mode, out):
    """A forked process: solve each position exactly with an engine on `table`."""
    values = []
    for pos in positions:
        eng, root = _engine(pos, mode, table)
        v, proven, _ = eng.search(root, 64, -INF, INF)
        values.append((v, proven))
    out.put(values)


@pytest.mark.parametrize("mode, left, count", [("open", 17, 24), ("game", 12, 8)])
def test_two_processes_solving_the_same_positions_on_one_tiny_table(mode, left, count):
    # the worst case for concurrent writes: both processes search the same trees at the
    # same time, so they store the same keys into the same slots of a 64 KB table
    positions = [random_position(101 * i + 7, left + i % 3) for i in range(count)]
    truth = []
    for pos in positions:
        eng, root = _engine(pos, mode)
        v, proven, _ = eng.search(root, 64, -INF, INF)
        assert proven
        truth.append((v, True))
    table = _ck_search.SharedTable(TINY)
    ctx = mp.get_context("fork")
    out = ctx.Queue()
    procs = [ctx.Process(target=_hammer, args=(table, positions, mode, out)) for _ in range(2)]
    for p in procs:
        p.start()
    got = [out.get(timeout=120) for _ in procs]
    for p in procs:
        p.join()
    assert got == [truth, truth]
    assert 0 < table.entries_used() <= table.table_entries


def _states(eng, root):
    """The root, its children and grandchildren (open mode)."""
    states = [root]
    for c in eng.moves(root):
        child = eng.child(root, c)
        states.append(child)
        states.extend(eng.child(child, g) for g in eng.moves(child))
    return states


def test_a_slot_mixed_from_two_writers_reads_as_a_miss():
    # a torn write leaves a slot with one writer's check word and another's data word:
    # the table must not take it for an entry (its bounds would be another position's)
    pos = _bench_position(16, 0)
    table = _ck_search.SharedTable(1 << 20)   # room for the entries near the root
    eng, root = _engine(pos, "open", table)
    eng.tt_min_cards = 0   # store every node, so the root and its children have entries
    value, proven, _ = eng.search(root, 64, -INF, INF)
    assert proven
    states = _states(eng, root)
    before = {s: eng.tt_bounds(s) for s in states}
    found = [s for s, b in before.items() if b is not None]
    assert len(found) >= 10
    slots = [table._slot(i) for i in range(table.table_entries)]
    for i in range(0, len(slots), 2):   # swap the data words of the two slots of each pair
        (c0, d0), (c1, d1) = slots[i], slots[i + 1]
        table._set_slot(i, c0, d1)
        table._set_slot(i + 1, c1, d0)
    misses = 0
    for s in found:
        after = eng.tt_bounds(s)
        assert after is None or after == before[s]   # (the same only where both data words were equal)
        misses += after is None
    assert misses >= len(found) - 2
    # and a search on the mixed table still finds the exact value
    again, _ = _engine(pos, "open", table)
    assert again.search(root, 64, -INF, INF)[:2] == (value, True)


def test_the_shared_table_cannot_be_pickled_and_has_a_minimum():
    import pickle

    table = _ck_search.SharedTable(TINY)
    assert table.table_bytes == TINY and table.entries_used() == 0
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(table)
    with pytest.raises(ValueError, match="at least 64 KB"):
        _ck_search.SharedTable(65535)
    assert _ck_search.SharedTable(3 * TINY).table_bytes == 2 * TINY   # a power of two of buckets


@pytest.mark.parametrize("tt_mb, n", [(1, 1), (2, 2), (6, 3), (64, 2), (64, 4), (256, 2), (100, 12), (4096, 4)])
def test_the_memory_plan_counts_the_shared_table_once(tt_mb, n):
    shared, share = parallel._table_plan(tt_mb, n, mp.get_context("fork"))
    own = _ck_search.table_layout(share)
    total = tt_mb * 2**20
    if n == 1:
        assert shared is None and share == total
        return
    private = own["small_table"] + own["score_cache"]
    # the whole within what was asked, and the table the largest power of two that fits
    assert shared.table_bytes + n * private <= total < 2 * shared.table_bytes + n * private
    # never smaller than the table each worker had of its own
    assert shared.table_bytes >= n * own["table"] // 2 and shared.table_bytes >= own["table"]
    del shared
    # other start methods start processes that cannot inherit it: a table each
    assert parallel._table_plan(tt_mb, n, mp.get_context("spawn")) == (None, share)


def test_forkserver_workers_have_a_table_each_and_the_same_values(monkeypatch):
    # under forkserver (Python 3.14's default on Linux) the workers are not forked by the
    # solve: no shared table, and their parent is the fork server, not the solve (the
    # parent watch used to take that for a dead parent and stop every worker at once)
    real = mp.get_context
    monkeypatch.setattr(mp, "get_context", lambda method=None: real(method or "forkserver"))
    pos = _bench_position(18, 0)
    one = solve(pos, all_moves=True, tt_mb=8)
    two = solve(pos, all_moves=True, tt_mb=8, workers=2)
    assert two.stats["workers"] == 2 and not two.stats["table_shared"]
    assert two.move_values == one.move_values and two.exact
