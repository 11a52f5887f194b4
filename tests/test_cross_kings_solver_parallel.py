"""Cross Kings solver over several worker processes (``workers=``): the same values as one
process, sound bounds under limits, Ctrl-C, the memory rule and bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from fractions import Fraction

import pytest
from conftest import run_cli, sigint_default
from hypothesis import given
from hypothesis import strategies as st
from test_cross_kings_solver import _bench_position, random_position

from crowns_solver.cross_kings import Position, cell_index, parallel, solve
from crowns_solver.errors import SolverOptionError

MODES = ("open", "game")
OBJECTIVES = ("margin", "win")
REACHES = ("any", "nearest")


@pytest.fixture
def small_positions_in_parallel(monkeypatch):
    """Let positions of any size go to the workers (the tests use 8-14 cards)."""
    monkeypatch.setattr(parallel, "PARALLEL_MIN_CARDS", 0)


def _pv_margin(pos, pv):
    """Open mode: the final margin (player to move's view) after playing `pv` to the end."""
    mover = pos.to_move
    for cell in pv:
        pos = pos.play(cell)
    assert pos.is_terminal()
    a, b = pos.scores()
    return a - b if mover == "first" else b - a


@pytest.mark.parametrize("reach", REACHES)
@pytest.mark.parametrize("objective", OBJECTIVES)
@pytest.mark.parametrize("mode", MODES)
def test_two_workers_equal_one(mode, objective, reach, small_positions_in_parallel):
    left = 13 if mode == "open" else 10
    for seed in range(4):
        pos = random_position(7919 * seed + 3, left, reach)
        one = solve(pos, mode=mode, objective=objective, all_moves=True, tt_mb=2)
        two = solve(pos, mode=mode, objective=objective, all_moves=True, tt_mb=2, workers=2)
        workers = 2 if len(one.moves) > 1 else 1   # a single legal move: one process
        assert two.stats["workers"] == workers
        assert two.exact and two.stopped is None and two.value == one.value, seed
        assert two.lower == two.upper == one.value
        assert two.move_values == one.move_values
        assert two.card_values == one.card_values
        assert set(two.best_moves) == set(one.best_moves)
        assert sorted(two.moves, key=lambda m: m.cell) == sorted(one.moves, key=lambda m: m.cell)
        assert two.pv and two.pv[0] in two.best_moves
        # without all_moves: the same value, one optimal move, "at most the value" for the others
        quick = solve(pos, mode=mode, objective=objective, tt_mb=2, workers=2)
        assert quick.exact and quick.value == one.value and quick.stats["workers"] == workers
        assert len(quick.best_moves) == 1 and quick.best_moves[0] in one.best_moves
        for m in quick.moves:
            assert m.lower <= one.move_values[m.cell] <= m.upper <= one.value
        assert quick.pv[0] == quick.best_move
        if mode == "open" and objective == "margin":   # the line really reaches the value
            assert _pv_margin(pos, quick.pv) == quick.value
            assert _pv_margin(pos, two.pv) == two.value


def test_larger_positions_same_value_and_a_line_that_reaches_it():
    # 18-20 cards (above the one-process threshold): the workers race for the shared
    # bound and help each other pin the best move; the value is the one-process value and
    # the principal variation played out reaches it
    for size, j in ((18, 0), (18, 1), (20, 0), (20, 1)):
        pos = _bench_position(size, j)
        one = solve(pos, tt_mb=8)
        for workers in (2, 3):
            sol = solve(pos, tt_mb=9, workers=workers)
            assert sol.exact and sol.stopped is None and sol.value == one.value, (size, j, workers)
            assert sol.stats["workers"] == workers
            assert sol.best_move == sol.pv[0] and _pv_margin(pos, sol.pv) == sol.value
            assert all(m.upper <= sol.value for m in sol.moves)


def test_game_mode_card_values_split_over_workers(small_positions_in_parallel):
    # face-down moves are split card by card: each revealed card's value as with one process
    for seed in range(3):
        pos = random_position(31 * seed + 11, 11)
        one = solve(pos, mode="game", all_moves=True, tt_mb=2)
        three = solve(pos, mode="game", all_moves=True, tt_mb=3, workers=3)
        assert one.card_values and three.card_values == one.card_values
        assert three.move_values == one.move_values and three.value == one.value
        for cell, cards in three.card_values.items():
            assert sum(cards.values()) / len(cards) == three.move_values[cell]
        assert three.stats["tasks"] >= len(three.moves)


def test_a_fresh_deal_under_a_node_limit():
    # the root decision before the start: the four central cells; far too big to solve
    pos = Position.random(5)
    sol = solve(pos, node_limit=300_000, workers=2)
    assert not sol.exact and sol.stopped == "nodes" and sol.nodes <= 300_000 + 3 * 1024
    assert {m.cell for m in sol.moves} == {(2, 2), (2, 3), (3, 2), (3, 3)}
    assert sol.best_move in {(2, 2), (2, 3), (3, 2), (3, 3)} and sol.lower <= sol.value <= sol.upper


def test_tiny_positions_stay_in_one_process():
    pos = random_position(17, 10)
    sol = solve(pos, all_moves=True, tt_mb=2, workers=2)
    assert sol.stats["workers"] == 1
    assert sol.move_values == solve(pos, all_moves=True, tt_mb=2).move_values


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("all_moves", (False, True))
def test_limited_parallel_solve_gives_sound_bounds(mode, all_moves, small_positions_in_parallel):
    left = 20 if mode == "open" else 13
    for j in range(2):
        pos = _bench_position(left, j)
        exact = solve(pos, mode=mode, all_moves=True, tt_mb=8)
        quick = solve(pos, mode=mode, tt_mb=8)
        # far below what the one-process solve needs (about 120,000-320,000 nodes here)
        for limit in (5_000, quick.nodes // 4):
            sol = solve(pos, mode=mode, all_moves=all_moves, tt_mb=8, node_limit=limit, workers=2)
            assert not sol.exact and sol.stopped == "nodes"
            # each worker gets its share of what the parent's pass left; each engine may pass
            # its share by less than its clock-check interval (1,024 nodes)
            assert sol.nodes <= limit + 3 * 1024
            assert sol.nodes == sol.stats["parent_nodes"] + sum(sol.stats["worker_nodes"])
            assert sol.lower <= exact.value <= sol.upper
            for m in sol.moves:
                assert m.lower <= exact.move_values[m.cell] <= m.upper
        sol = solve(pos, mode=mode, all_moves=all_moves, tt_mb=8, time_limit=0.05, workers=2)
        assert sol.lower <= exact.value <= sol.upper
        assert sol.exact or sol.stopped == "time"


def test_memory_is_shared_out_over_the_workers(monkeypatch):
    pos = _bench_position(18, 0)
    assert parallel.SHARED_TABLE is False   # the default: a table per worker (see below)
    monkeypatch.setattr(parallel, "SHARED_TABLE", True)
    sol = solve(pos, all_moves=True, tt_mb=6, workers=3)
    assert sol.exact and sol.stats["workers"] == 3 and sol.stats["table_shared"]
    # one table for the three workers, counted once: each worker keeps what an engine of
    # 2 MB keeps beside its table (the small table of the last plies: 128 KB; the
    # leaf-score cache: 512 KB), and the table is the largest power of two of what is
    # left, 6 MB - 3 x 640 KB = 4.125 MB: 4 MB
    assert sol.table_bytes == 4 * 2**20 and sol.table_entries == 4 * 2**20 // 16
    assert sol.stats["score_cache_bytes"] == 3 * 512 * 2**10
    assert sol.table_bytes + 3 * 128 * 2**10 + sol.stats["score_cache_bytes"] <= 6 * 2**20
    assert 0 < sol.table_used <= sol.table_entries
    # without the shared table: three engines of 2 MB each, a 1 MB table each
    monkeypatch.setattr(parallel, "SHARED_TABLE", False)
    own = solve(pos, all_moves=True, tt_mb=6, workers=3)
    assert not own.stats["table_shared"] and own.table_bytes == 3 * 2**20
    assert own.table_bytes + 3 * 128 * 2**10 + own.stats["score_cache_bytes"] <= 6 * 2**20
    assert own.move_values == sol.move_values
    with pytest.raises(SolverOptionError, match=r"^tt_mb=2 MB shared over the 3 worker processes this solve"
                                                 r" starts \(workers=3\) leaves 0\.667 MB each"):
        solve(pos, tt_mb=2, workers=3)


def test_memory_is_checked_against_the_processes_that_really_start():
    # a fresh deal has four jobs (its start cells): workers=1000 starts four processes,
    # so 4 MB is enough and 3 MB is not, whatever the number asked for
    deal = Position.random(1)
    assert parallel.worker_processes(deal, mode="open", all_moves=False, limited=True, workers=1000) == 4
    sol = solve(deal, tt_mb=4, workers=1000, node_limit=30_000)
    assert sol.stats["anytime_workers"] == 4 and sol.stats["workers"] == 4
    assert sol.table_bytes + sol.stats["score_cache_bytes"] <= 4 * 2**20
    with pytest.raises(SolverOptionError) as exc:
        solve(deal, tt_mb=3, workers=1000, node_limit=30_000)
    assert str(exc.value) == (
        "tt_mb=3 MB shared over the 4 worker processes this solve starts (workers=1000, but this position"
        " has work for only 4) leaves 0.75 MB each, below the 1 MB a worker needs: give tt_mb=4 or more,"
        " or workers=3 or fewer")
    # below PARALLEL_MIN_CARDS the calling process solves it with the whole table
    small = random_position(3, 12)
    assert parallel.worker_processes(small, mode="open", all_moves=True, limited=False, workers=1000) == 0
    assert solve(small, tt_mb=1, workers=1000).stats["workers"] == 1


@pytest.mark.parametrize("mode, all_moves, left, j", [
    ("open", False, 17, 0), ("open", True, 18, 1), ("game", True, 16, 3), ("game", True, 17, 4),
    ("game", False, 18, 3), ("open", False, 28, 4),
])
def test_worker_processes_is_what_the_solve_starts(mode, all_moves, left, j):
    # workers=1000 asks for more than any of these has jobs for (root moves; in game mode
    # with all_moves, each card a face-down move may reveal): the count the memory check
    # uses is the number of workers the solve reports
    pos = _bench_position(left, j)
    limited = left > 20
    n = parallel.worker_processes(pos, mode=mode, all_moves=all_moves, limited=limited, workers=1000)
    face_down = [m for m in pos.legal_moves() if cell_index(m) in pos.face_down]
    jobs = len(pos.legal_moves()) + (len(face_down) * (len(pos.unseen) - 1) if mode == "game" and all_moves else 0)
    assert n == jobs and 2 <= n <= 12
    sol = solve(pos, mode=mode, all_moves=all_moves, tt_mb=n, workers=1000,
                node_limit=200_000 if limited else None)
    assert sol.stats["workers"] == n
    assert parallel.worker_processes(pos, mode=mode, all_moves=all_moves, limited=limited, workers=2) == 2
    assert parallel.worker_processes(pos, mode=mode, all_moves=all_moves, limited=limited, workers=1) == 0


@pytest.mark.parametrize("bad", [0, -1, 1.5, "2", True, [2]])
def test_bad_workers_raise(bad):
    pos = random_position(3, 12)
    with pytest.raises(SolverOptionError, match="workers must be a whole number >= 1"):
        solve(pos, workers=bad)


@given(st.one_of(st.none(), st.integers(-5, 300), st.floats(), st.text(max_size=3), st.booleans()))
def test_check_workers_accepts_whole_numbers_and_refuses_the_rest(value):
    try:
        n = parallel.check_workers(value)
    except SolverOptionError as exc:
        assert "workers" in str(exc)
        assert value is not None and not (isinstance(value, int) and not isinstance(value, bool) and value >= 1)
    else:
        assert isinstance(n, int) and n >= 1
        assert n == (os.cpu_count() or 1) if value is None else n == value


def test_cli_workers_prints_the_same_table(capsys, tmp_path, small_positions_in_parallel):
    pos = random_position(101, 13)
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(pos.to_dict()))
    for extra in ((), ("--mode", "game", "--objective", "win")):
        code1, out1, err1 = run_cli(capsys, "cross-kings", "solve", str(path), "--all-moves", *extra)
        code2, out2, err2 = run_cli(capsys, "cross-kings", "solve", str(path), "--all-moves", "--workers", "2", *extra)
        assert code1 == code2 == 0 and not err1 and not err2
        # everything but the last line (nodes, seconds and table use differ)
        assert out1.splitlines()[:-1] == out2.splitlines()[:-1]
        assert "principal variation" in out2


@pytest.mark.parametrize("argv, message", [
    (("--workers", "0"), "argument --workers: must be >= 1: '0'"),
    (("--workers", "two"), "argument --workers: not a whole number: 'two'"),
    (("--workers", "4", "--tt-mb", "2"), "--tt-mb 2 MB shared over the 4 worker processes this solve starts"
                                         " (--workers 4) leaves 0.5 MB each"),
])
def test_cli_bad_workers_exit_2_with_one_line(capsys, argv, message):
    try:
        code, out, err = run_cli(capsys, "cross-kings", "solve", "--random", "1", *argv)
    except SystemExit as exc:   # argparse's usage errors
        code = exc.code
        out, err = capsys.readouterr()
    assert code == 2 and not out
    assert len(err.strip().splitlines()) == 1 and message in err


def test_cli_memory_check_counts_the_processes_that_start_and_names_the_options(capsys):
    # --workers 1000 at a fresh deal: four processes, 64 MB is plenty
    code, out, err = run_cli(capsys, "cross-kings", "solve", "--random", "1", "--workers", "1000",
                             "--node-limit", "30000", "--json")
    assert code == 0 and not err
    assert json.loads(out)["stats"]["anytime_workers"] == 4
    code, out, err = run_cli(capsys, "cross-kings", "solve", "--random", "1", "--workers", "1000", "--tt-mb", "3")
    assert code == 2 and not out
    assert err == ("crowns: error: --tt-mb 3 MB shared over the 4 worker processes this solve starts"
                   " (--workers 1000, but this position has work for only 4) leaves 0.75 MB each, below the"
                   " 1 MB a worker needs: give --tt-mb 4 or more, or --workers 3 or fewer\n")


def _worker_pids(proc, n: int = 2, wait: float = 20.0) -> list[str]:
    """The child processes of `proc`, once there are `n` of them (or after `wait` seconds)."""
    kids: list[str] = []
    end = time.monotonic() + wait
    while len(kids) < n and time.monotonic() < end:
        time.sleep(0.2)
        kids = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
    return kids


def _interrupt_solve(tmp_path, args: list[str], after: float) -> tuple[str, str, list[str]]:
    """Run ``crowns cross-kings solve ARGS --workers 2``, send Ctrl-C to the parent only
    `after` seconds once both workers search, and return (stdout, stderr, worker pids);
    the command must exit with 130."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "crowns_solver", "cross-kings", "solve", *args, "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=tmp_path, preexec_fn=sigint_default,   # outside the source tree: the installed package
    )
    kids = _worker_pids(proc)   # the workers are searching
    assert len(kids) == 2
    time.sleep(after)
    proc.send_signal(signal.SIGINT)   # to the parent only: it stops the workers
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    return out, err, kids


def test_cli_ctrl_c_stops_the_workers_and_prints_the_partial_result(tmp_path):
    path = tmp_path / "pos28.json"
    path.write_text(json.dumps(_bench_position(28, 0).to_dict()))
    out, err, kids = _interrupt_solve(tmp_path, [str(path), "--time-limit", "0"], 0.5)
    assert "interrupted" in out and "proven between" in out
    assert "Traceback" not in err and not err.strip()
    for pid in kids:   # no worker left behind
        with pytest.raises(ProcessLookupError):
            os.kill(int(pid), 0)


def test_api_ctrl_c_returns_the_partial_result():
    code = f"""
import json, os, signal, threading
from crowns_solver.cross_kings import Position, solve
pos = Position.from_dict(json.loads({json.dumps(json.dumps(_bench_position(28, 0).to_dict()))}))
threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
sol = solve(pos, workers=2)
print(json.dumps({{"stopped": sol.stopped, "exact": sol.exact, "lower": str(sol.lower),
                  "upper": str(sol.upper), "nodes": sol.nodes, "workers": sol.stats["workers"]}}))
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          cwd="/", preexec_fn=sigint_default)   # the installed package
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["stopped"] == "interrupted" and data["exact"] is False and data["workers"] == 2
    assert Fraction(data["lower"]) <= Fraction(data["upper"]) and data["nodes"] > 0


def _running(pid: str) -> bool:
    """Whether process `pid` is alive (a zombie waiting to be reaped is not)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc")
def test_workers_stop_when_the_parent_is_killed_outright(tmp_path):
    path = tmp_path / "pos28.json"
    path.write_text(json.dumps(_bench_position(28, 0).to_dict()))
    _kill_parent_and_check_workers([str(path), "--time-limit", "0", "--workers", "2"], tmp_path)


def _kill_parent_and_check_workers(solve_args: list[str], cwd) -> None:
    """Start ``crowns cross-kings solve SOLVE_ARGS`` (two workers), wait for its two
    workers, kill the parent outright and check that the workers end by themselves."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "crowns_solver", "cross-kings", "solve", *solve_args],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd,   # the installed package
    )
    kids: list[str] = []
    end = time.monotonic() + 20
    while len(kids) < 2 and time.monotonic() < end:
        time.sleep(0.2)
        kids = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
    assert len(kids) == 2
    proc.kill()   # SIGKILL: the parent cannot pass anything on
    proc.wait()
    end = time.monotonic() + 15
    while any(_running(k) for k in kids) and time.monotonic() < end:
        time.sleep(0.1)
    assert not any(_running(k) for k in kids)
