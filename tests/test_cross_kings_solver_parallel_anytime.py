"""Cross Kings anytime analysis over several worker processes (``workers=`` with a time or
node limit above the anytime cut-over): the heuristic iterations split over the workers
give what the one-process analysis gives (an iteration's value and move, the same
Solution fields), sound bounds, node limits as a total, one deadline, Ctrl-C."""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import subprocess
import sys
import time

import pytest
from conftest import sigint_default
from test_cross_kings_solver import _bench_position
from test_cross_kings_solver_limits import _check_consistent, explicit_iteration
from test_cross_kings_solver_parallel import _interrupt_solve, _kill_parent_and_check_workers, _pv_margin, _running

from crowns_solver import _ck_search
from crowns_solver.cross_kings import Deal, Position, parallel, solve
from crowns_solver.cross_kings import solver as _solver
from crowns_solver.cross_kings.solver import _engine_input

CENTRE = {(2, 2), (2, 3), (3, 2), (3, 3)}


@pytest.fixture
def low_cut_over(monkeypatch):
    """Small positions get the anytime analysis (open above 16 cards, game above 12) over
    the workers, so that their exact values can be computed in the test."""
    monkeypatch.setitem(_solver.ANYTIME_CARDS, "open", 16)
    monkeypatch.setitem(_solver.ANYTIME_CARDS, "game", 12)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_CARDS", 12)


def _check_effort(sol, limit, workers=2):
    assert sol.stats["anytime_workers"] == workers and sol.stats["workers"] == workers
    # the total over the processes: the parent's first iteration, then the shared pool; each
    # engine may pass what it drew by less than its clock-check interval (1,024 nodes)
    assert sol.nodes == sol.stats["parent_nodes"] + sum(sol.stats["worker_nodes"])
    if limit is not None:
        assert sol.nodes <= limit + (workers + 1) * 1024
    log = sol.stats["iterations"]
    assert [e["depth"] for e in log] == sorted({e["depth"] for e in log})
    assert log[-1]["depth"] == sol.depth
    for e in log:
        assert e["path_nodes"] <= e["nodes"] <= sol.nodes


@pytest.mark.parametrize("mode, size, j, limit", [
    ("open", 28, 0, 100_000), ("open", 28, 1, 400_000), ("game", 22, 1, 100_000), ("game", 22, 2, 400_000),
])
def test_a_stop_inside_the_deepening_reports_the_last_iteration_done(mode, size, j, limit):
    pos = _bench_position(size, j)
    assert pos.cards_left > _solver.ANYTIME_CARDS[mode]
    sol = solve(pos, mode=mode, tt_mb=16, node_limit=limit, workers=2)
    one = solve(pos, mode=mode, tt_mb=16, node_limit=limit)
    assert not sol.exact and sol.stopped == "nodes" and sol.depth is not None and sol.depth >= 4
    _check_effort(sol, limit)
    assert sol.stats["tasks"] == 0   # stopped inside an iteration: no exact search was started
    # the estimate is that iteration's value, and the move one it rates at that value: a
    # plain heuristic search to that depth on a fresh engine agrees
    assert explicit_iteration(pos, mode, sol.depth, sol.best_move) == (sol.value, sol.value)
    assert sol.moves[0].cell == sol.best_move and sol.moves[0].value == sol.value
    assert sol.pv and sol.pv[0] == sol.best_move
    assert sol.lower <= sol.value <= sol.upper
    # the same facts as the one-process answer: an estimate for the best move only, every
    # other move known by its proven bounds
    assert sorted(sol.to_dict()) == sorted(one.to_dict())
    assert [m.value is None for m in sol.moves] == [m.value is None for m in one.moves]
    assert {m.cell for m in sol.moves} == {m.cell for m in one.moves}


@pytest.mark.parametrize("mode, size", [("open", 20), ("game", 14)])
@pytest.mark.parametrize("all_moves", (False, True))
def test_limited_parallel_anytime_solves_are_sound_and_consistent(mode, size, all_moves, low_cut_over):
    # stops at every stage: the first iteration (in the parent), the workers' iterations,
    # the exact search after them
    for j in range(2):
        pos = _bench_position(size, j)
        full = solve(pos, mode=mode, all_moves=True, tt_mb=8)
        assert full.exact
        for limit in sorted({1_000, full.nodes // 30, full.nodes // 8, full.nodes // 3}):
            sol = solve(pos, mode=mode, all_moves=all_moves, tt_mb=8, node_limit=limit, workers=2)
            assert sol.exact or sol.stopped == "nodes"
            _check_consistent(sol, full)
            if sol.stats["anytime_workers"]:
                _check_effort(sol, limit)
            else:   # stopped in the first iteration: the workers were not started
                assert sol.stats["workers"] == 1 and sol.nodes <= limit + 1024
        sol = solve(pos, mode=mode, all_moves=all_moves, tt_mb=8, time_limit=0.05, workers=2)
        assert sol.exact or sol.stopped == "time"
        _check_consistent(sol, full)


@pytest.mark.parametrize("mode, size, objective", [("open", 20, "margin"), ("open", 18, "win"), ("game", 13, "margin")])
def test_an_ample_limit_gives_the_exact_value_after_the_parallel_deepening(mode, size, objective, low_cut_over):
    for j in range(2):
        pos = _bench_position(size, j)
        full = solve(pos, mode=mode, objective=objective, all_moves=True, tt_mb=8)
        limit = 20 * full.nodes
        one = solve(pos, mode=mode, objective=objective, tt_mb=8, node_limit=limit)
        sol = solve(pos, mode=mode, objective=objective, tt_mb=8, node_limit=limit, workers=2)
        assert one.exact and sol.exact and sol.stopped is None and sol.value == full.value
        _check_effort(sol, limit)
        # every heuristic iteration done, in one process or two: the same depth
        assert sol.depth == one.depth
        assert sol.best_move in full.best_moves and sol.pv[0] == sol.best_move
        assert all(m.upper <= sol.value for m in sol.moves)
        if mode == "open" and objective == "margin":
            assert _pv_margin(pos, sol.pv) == sol.value
        every = solve(pos, mode=mode, objective=objective, tt_mb=8, node_limit=limit, workers=2, all_moves=True)
        assert every.exact and every.move_values == full.move_values
        assert every.card_values == full.card_values and set(every.best_moves) == set(full.best_moves)


@pytest.mark.parametrize("mode, seed", [("open", 5), ("game", 2)])
def test_a_fresh_deal_compares_the_four_start_cells(mode, seed):
    deal = Deal.random(seed)
    sol = solve(deal, mode=mode, node_limit=400_000, workers=2)
    assert not sol.exact and sol.stopped == "nodes" and sol.depth >= 3
    _check_effort(sol, 400_000)
    assert {m.cell for m in sol.moves} == CENTRE
    assert all(m.value is not None for m in sol.moves)   # every start cell valued
    assert sol.best_move == sol.moves[0].cell and sol.value == max(m.value for m in sol.moves)
    assert sol.pv and sol.pv[0] == sol.best_move
    # each start cell's value at a completed depth is its plain heuristic value there
    # (those of a stopped deeper iteration are a deeper one's, as with one process)
    deeper = sol.depth + (1 if sol.depth % 2 == 0 else 2)
    pos = deal.position()
    for m in sol.moves:
        assert m.value in {explicit_iteration(pos, mode, d, m.cell)[1] for d in (sol.depth, deeper)}
    timed = solve(deal, mode=mode, time_limit=0.3, workers=2)
    assert timed.stopped == "time" and timed.best_move in CENTRE and timed.depth is not None


def test_a_time_limit_is_one_deadline():
    pos = _bench_position(28, 2)
    sol = solve(pos, tt_mb=16, time_limit=0.4, workers=2)
    assert not sol.exact and sol.stopped == "time" and sol.depth is not None
    _check_effort(sol, None)
    assert explicit_iteration(pos, "open", sol.depth, sol.best_move) == (sol.value, sol.value)


def test_below_the_cut_over_or_without_a_limit_nothing_changes():
    # game mode below its cut-over: the shallow pass in the parent, the exact search in the workers
    pos = _bench_position(18, 0)
    assert "anytime_workers" not in solve(pos, mode="game", node_limit=50_000, tt_mb=8, workers=2).stats
    # open mode deepens before every exact search (session 20), and the workers live
    # through that deepening at any size (their tables stay warm for the exact search)
    sol = solve(pos, node_limit=50_000, tt_mb=8, workers=2)
    assert sol.stats["anytime_workers"] == 2
    full = solve(pos, tt_mb=8, workers=2)
    assert full.exact and full.value == solve(pos, tt_mb=8).value and full.stats["anytime_workers"] == 2
    deal = Position.random(4)
    sol = solve(deal, node_limit=100_000, workers=2)
    assert sol.stats["anytime_workers"] == 2


def test_the_previous_way_is_still_there(monkeypatch):
    # ANYTIME_PARALLEL off: the parent deepens in one process, the workers only search exactly
    monkeypatch.setattr(parallel, "ANYTIME_PARALLEL", False)
    pos = _bench_position(28, 0)
    sol = solve(pos, tt_mb=16, node_limit=100_000, workers=2)
    assert "anytime_workers" not in sol.stats and not sol.exact
    one = solve(pos, tt_mb=16, node_limit=100_000)
    assert (sol.depth, sol.value, sol.best_move) == (one.depth, one.value, one.best_move)


def test_a_search_stopped_on_its_share_of_nodes_is_repeated_with_the_next(monkeypatch):
    # the node pool: many small shares, each running out inside a search; the repeated
    # searches give the values of an engine without limits, and the total stays in the pool
    monkeypatch.setattr(parallel, "LEASE_MIN_NODES", 300)
    monkeypatch.setattr(parallel, "LEASE_PARTS", 16)
    pos = _bench_position(20, 0)
    cards, root = _engine_input(pos, "open")
    inf = _ck_search.INF_VALUE
    plain = _ck_search.Engine(cards, 0, 0, 0, 4 << 20)
    want = {c: plain.search_move(root, c, 8, -inf, inf)[0] for c in plain.moves(root)}
    pool = mp.get_context().Value("q", 10_000_000)
    engines = [parallel._Leased(_ck_search.Engine(cards, 0, 0, 0, 4 << 20), pool, 0.0, 2) for _ in range(2)]
    for e in engines:
        assert e.lease()
    for c, v in want.items():
        for e in engines:
            assert e.search_move(root, c, 8, -inf, inf) == (v, False)
            assert e.stop == 0
    assert all(e.nodes > 300 for e in engines)
    for e in engines:
        e.release()
    assert pool.value == 10_000_000 - sum(e.nodes for e in engines)
    # an empty pool: the searches stop (node limit), and the total never passes the pool
    pool.value = 5_000
    for e in engines:
        assert e.lease()
    for e in engines:
        e.search(root, 12, -inf, inf)
    assert all(e.stop == 3 for e in engines) and pool.value == 0
    assert not engines[0].lease()


def test_a_small_pool_is_shared_out_not_taken_by_the_first_worker():
    # what the probe found: with 20,000 nodes in the pool, the first worker drew all of
    # them, the second found none and stopped, and the analysis ended after ~300 nodes
    pos = _bench_position(20, 0)
    cards, _root = _engine_input(pos, "open")
    pool = mp.get_context().Value("q", 20_000)
    first, second = (parallel._Leased(_ck_search.Engine(cards, 0, 0, 0, 1 << 20), pool, 0.0, 2) for _ in range(2))
    assert first.lease() and pool.value == 10_000
    assert second.lease() and pool.value == 5_000


@pytest.mark.parametrize("mode, size, limit", [("open", 28, 20_000), ("open", 30, 5_000), ("game", 24, 20_000)])
def test_a_small_node_limit_is_used_not_dropped(mode, size, limit):
    pos = _bench_position(size, 0)
    one = solve(pos, mode=mode, node_limit=limit, tt_mb=16)
    two = solve(pos, mode=mode, node_limit=limit, tt_mb=16, workers=2)
    _check_effort(two, limit)
    assert two.nodes >= limit // 2, two.nodes   # before: about 300 nodes
    assert two.depth >= one.depth - 2


def test_cli_ctrl_c_during_the_parallel_deepening(tmp_path):
    out, err, kids = _interrupt_solve(tmp_path, ["--random", "3", "--time-limit", "60"], 1.0)
    assert "interrupted" in out and "search depth" in out and "line the search prefers: start" in out
    assert "Traceback" not in err and not err.strip()
    end = time.monotonic() + 5
    while any(_running(k) for k in kids) and time.monotonic() < end:
        time.sleep(0.1)
    assert not any(_running(k) for k in kids)   # no worker left behind


def test_api_ctrl_c_during_the_parallel_deepening():
    code = f"""
import json, os, signal, threading
from crowns_solver.cross_kings import Position, solve
pos = Position.from_dict(json.loads({json.dumps(json.dumps(_bench_position(30, 0).to_dict()))}))
threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
sol = solve(pos, workers=2, time_limit=60)
print(json.dumps({{"stopped": sol.stopped, "exact": sol.exact, "depth": sol.depth,
                  "best": sol.best_move, "anytime": sol.stats["anytime_workers"]}}))
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          cwd="/", preexec_fn=sigint_default)   # the installed package
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["stopped"] == "interrupted" and data["exact"] is False and data["anytime"] == 2
    assert data["depth"] is not None and data["best"] is not None


@pytest.mark.parametrize("mode, size", [("open", 28), ("game", 22)])
def test_a_node_limit_spent_in_the_parents_first_iteration_returns_at_once(mode, size):
    # the parent's first iteration uses up the limit, so no worker is started; the solve
    # used to wait for those workers' last reports forever (without a time limit; with
    # one, until the deadline plus the grace), hence the child process and its timeout
    code = f"""
import json
from crowns_solver.cross_kings import Position, solve
pos = Position.from_dict(json.loads({json.dumps(json.dumps(_bench_position(size, 0).to_dict()))}))
sol = solve(pos, mode={mode!r}, node_limit=1, workers=2)
print(json.dumps({{"stopped": sol.stopped, "exact": sol.exact, "nodes": sol.nodes, "workers": sol.stats["workers"],
                  "anytime": sol.stats["anytime_workers"], "sound": sol.lower <= sol.value <= sol.upper,
                  "best": sol.best_move, "legal": [list(c) for c in pos.legal_moves()]}}))
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd="/")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["stopped"] == "nodes" and data["exact"] is False and data["sound"]
    assert data["anytime"] == 0 and data["workers"] == 1 and data["nodes"] <= 1 + 1024
    assert list(data["best"]) in data["legal"]


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc")
def test_workers_between_iterations_stop_when_the_parent_is_killed(tmp_path):
    _kill_parent_and_check_workers(["--random", "3", "--time-limit", "60", "--workers", "2"], tmp_path)


def test_a_node_limited_one_process_analysis_still_reproduces():
    # the iteration log added for the comparison changes nothing in what one process finds
    pos = _bench_position(28, 3)
    a, b = (solve(pos, tt_mb=16, node_limit=300_000) for _ in range(2))
    same = ("value", "best_move", "depth", "nodes", "pv", "moves")
    assert [getattr(a, k) for k in same] == [getattr(b, k) for k in same]
    assert [(e["depth"], e["nodes"]) for e in a.stats["iterations"]] == \
        [(e["depth"], e["nodes"]) for e in b.stats["iterations"]]
    assert all(e["path_nodes"] == e["nodes"] for e in a.stats["iterations"])
    assert "anytime_workers" not in a.stats


def test_memory_is_shared_out_over_the_workers_in_the_deepening_too():
    sol = solve(_bench_position(28, 0), tt_mb=6, workers=3, node_limit=200_000)
    assert sol.stats["anytime_workers"] == 3 and sol.depth is not None
    # three engines of 2 MB each (the parent keeps only the engine's minimum, 64 KB)
    assert sol.table_bytes + sol.stats["score_cache_bytes"] <= 6 * 2**20


@pytest.mark.parametrize("mode, size", [("game", 14), ("open", 18)])
def test_the_move_named_is_the_iterations_unless_a_search_proved_another(mode, size, low_cut_over):
    # (found: with score bounds taken for proofs, a stop at depth 2 named a move that
    # iteration rates 0.4 points below its value, with nothing proven about it)
    for j in range(4):
        pos = _bench_position(size, j)
        for limit in (20_000, 50_000, 100_000):
            sol = solve(pos, mode=mode, tt_mb=8, node_limit=limit, workers=2)
            if sol.exact or sol.stats["tasks"]:
                continue   # not stopped inside the deepening
            value, move_value = explicit_iteration(pos, mode, sol.depth, sol.best_move)
            best = next(m for m in sol.moves if m.cell == sol.best_move)
            if value == sol.value:   # (a warm table can tilt a heuristic value a little)
                assert move_value == sol.value or best.lower >= sol.value, (j, limit)
