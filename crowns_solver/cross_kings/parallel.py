"""Parallel search over cores for :func:`crowns_solver.cross_kings.solve` (``workers=``).

The root's moves are split over worker processes (the compiled engine is not
thread-safe, so processes, not threads).  Each worker builds its own compiled
:class:`Engine` for the position and takes root moves from a shared counter, largest job
first.  The engines share one main transposition table (:data:`SHARED_TABLE`): the parent
maps it (``_ck_search.SharedTable``, anonymous shared memory) before it forks the
workers, so what one worker proves the others find; entries are written without locks
and checked on reading (lockless hashing, Hyatt and Mann 2002).  Each worker keeps its
own small table of the last plies and leaf-score cache.  Under a start method other than
``fork`` each worker has a table of its own, ``tt_mb / n`` (:func:`_table_plan`).

- ``all_moves=True``: every move's exact value is independent of the others, so each
  move (in game mode: each card a face-down move may reveal) is one job, solved exactly as
  the one-process solve solves it (MTD(f), Plaat et al. 1996).
- ``all_moves=False``: root splitting with a shared lower bound.  The best value proven
  so far, ``b``, lives in shared memory and is read between probes.  A worker asks of its
  move "is it worth at least b + 1?" with one null-window search (``Engine.search_move``);
  only when it is does the worker pin the move's exact value by MTD(f) (win/draw/loss
  first in open mode, one wide window in game mode), publishing each lower bound it
  proves on the way as the new ``b``, and computes the principal variation with its warm
  table.  A worker pinning a move whose proven lower bound another worker's ``b`` has
  reached goes back to asking "worth at least b + 1?".  This is the part of the one-core
  search (its final fail-low probe, "every move is worth at most v") that splits over
  moves.

The parent process first runs the same shallow heuristic pass the one-process solve runs,
on its own with the whole memory; it frees that engine before the workers start.  It
then waits for the workers, gathers what they proved and builds the :class:`Solution`
with the one-process code, so the output looks the same.

Anytime analysis (a time or node limit on a position above the anytime cut-over,
``solver.ANYTIME_CARDS``; in open mode every solve, since it deepens to 12 cards before
the end before its exact search, limit or not): the iterative deepening is split too.  The parent runs the
first, shallow iteration with a minimal table; the workers, each with its share of the
memory, live through every later iteration (their tables stay warm) and then the exact
search.  For each depth the root moves are jobs in the order of the previous
iteration's values, best first.  A worker asks of its move "worth at least b + 1 at
this depth?" with one null-window search against the iteration's shared best value
``b``, and pins the heuristic value of a move that is (MTD(f) at that depth), each lower
bound found raising ``b``; before any ``b`` is known it tests its move against the
previous iteration's best value.  At a fresh deal (the start cell is the root decision)
and with ``all_moves`` each move is valued at each depth, as with one process.  The
parent waits for every worker to finish the iteration and takes, as the one-process
iteration would, its value, its move and the line the pinning worker's table holds.  A
stop (limit, Ctrl-C) inside an iteration leaves the last completed one's estimate and
move, with every bound the searches proved (their proven flag: no horizon value took
part).  Node limits: the workers draw nodes from one shared pool a part at a time
(:class:`_Leased`), so one worker can use what another does not.
"""

from __future__ import annotations

import math
import numbers
import os
import queue
import signal
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..errors import SolverOptionError
from . import solver as _solver
from .position import Position, cell_index
from .solver import (
    _CANCELLED,
    _EXACT,
    _INF,
    _INTERRUPTED,
    _NODES,
    _TIME,
    EVALUATIONS,
    GAME_WIDE,
    PRE_DEPTH,
    WDL_FIRST,
    Solution,
    _core,
    _depths_between,
    _engine_input,
    _iteration_plan,
    _Run,
    _Stopped,
)

__all__ = ["check_workers", "check_memory", "worker_processes", "solve_parallel", "PARALLEL_MIN_CARDS",
           "MIN_WORKER_TT_MB"]

#: Positions with fewer cards left than this are solved in one process whatever
#: `workers` says: starting processes costs more than they save there (a 16-card open
#: position solves in a few milliseconds; process start and the gathering cost tens).
PARALLEL_MIN_CARDS = 16
#: Each worker's engine is given ``tt_mb / workers`` MB, and at least this much (the
#: same minimum as ``solve(tt_mb=...)`` for one process; with the shared table it sizes
#: the worker's own small table and leaf-score cache, see :func:`_table_plan`).
MIN_WORKER_TT_MB = 1
#: Seconds the parent waits, after a stop (Ctrl-C, time limit) reached the workers, for
#: their last reports before it terminates them.
STOP_GRACE = 3.0
#: With a time or node limit above the anytime cut-over (``solver.ANYTIME_CARDS``), and in
#: open mode always, the heuristic iterations are split over the workers too (False: the parent runs them in
#: one process and only the exact search after them is split, as before).
ANYTIME_PARALLEL = True
#: Node limits in the parallel anytime analysis: the workers draw nodes from one shared
#: pool, each time what the pool holds over LEASE_PARTS x workers, at least
#: LEASE_MIN_NODES (a search stopped on its part is repeated with the next part).
LEASE_PARTS = 2
LEASE_MIN_NODES = 20_000
#: One main transposition table for all the workers, in memory they share (made by the
#: parent before they start; the ``fork`` start method only, see :func:`_table_plan`),
#: instead of one table each.  False (the default): each worker's engine has its own table.
#: Off by default: on two idle cores it saved nodes but no time (24 cards, 64 MB: 1.52x
#: against 1.51x with two workers; 256 MB: 1.26x against 1.47x, the shared mapping gets
#: no huge pages and is used whole from the first node).  See docs/cross_kings_solver.md.
SHARED_TABLE = False
#: The engine's minimal table, for the parent's bookkeeping while the workers search.
_PARENT_TT_BYTES = 65536
_NONE = -_INF   # shared best value before any move is pinned
_STOP_PRIORITY = (_INTERRUPTED, _TIME, _NODES)   # Ctrl-C first, then time, then nodes (the workers' reasons)


def check_workers(workers: Any) -> int:
    """Validate `workers` and return the number of worker processes to use.

    Parameters
    ----------
    workers : int or None
        Worker processes, a whole number >= 1; None means one per core
        (:func:`os.cpu_count`), as in :func:`crowns_solver.cross_kings.match`.

    Returns
    -------
    int
        The number of workers (>= 1).

    Raises
    ------
    SolverOptionError
        If `workers` is not None nor a whole number >= 1.
    """
    if workers is None:
        return os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, numbers.Integral) or workers < 1:
        raise SolverOptionError(f"workers must be a whole number >= 1 or None (all cores), got {workers!r}")
    return int(workers)


def worker_processes(pos: Position, *, mode: str, all_moves: bool, limited: bool, workers: int) -> int:
    """The number of worker processes a solve of `pos` with `workers` starts.

    Fewer than `workers` run when there are fewer jobs than workers: one per root move
    (a fresh deal has four, its start cells), or with ``all_moves=True`` in game mode
    one per face-up move and one per card a face-down move may reveal.  Positions with
    fewer than :data:`PARALLEL_MIN_CARDS` cards left or a single legal move run in the
    calling process (0 workers).  A solve stopped by a limit before its workers start
    starts none; this is the number when they start.

    Parameters
    ----------
    pos : Position
        The position to solve.
    mode : {"open", "game"}
        As for :func:`crowns_solver.cross_kings.solve`.
    all_moves : bool
        As for :func:`crowns_solver.cross_kings.solve`.
    limited : bool
        Whether a time or node limit is given (above the anytime cut-over the heuristic
        iterations are split over the root moves, whatever `all_moves` says).
    workers : int
        The number of workers asked for (>= 1, see :func:`check_workers`).

    Returns
    -------
    int
        Worker processes started, from 0 to `workers`.
    """
    route, jobs = _route(pos, mode, all_moves, limited)
    return 0 if workers == 1 or route == "one" else min(workers, jobs)


def _route(pos: Position, mode: str, all_moves: bool, limited: bool) -> tuple[str, int]:
    """How a solve with several workers runs: ``("one", 1)`` in the calling process,
    ``("anytime", jobs)`` (:func:`_solve_anytime`) or ``("exact", jobs)`` (the shallow pass
    here, then the exact search in the workers); `jobs` is what the workers share at
    once (see :func:`_tasks`), so more workers than that would idle."""
    moves = pos.legal_moves()
    if pos.cards_left < PARALLEL_MIN_CARDS or len(moves) <= 1:
        return "one", 1
    # open mode deepens before every exact search (to 12 cards before the end): the workers
    # then live through the iterations too, keeping their tables warm for the exact search
    # (session 20: the shallow pass here, then the exact search in the workers, lost the
    # pass's table with the parent's engine and was slower than one process at 26 cards)
    if ANYTIME_PARALLEL and _solver._iterates_first(pos, mode, limited) and len(_depths(pos, mode, limited)) > 1:
        return "anytime", len(moves)
    if not all_moves or mode != "game" or pos.marker is None:
        return "exact", len(moves)
    chance = sum(1 for m in moves if cell_index(m) in pos.face_down)   # split card by card
    return "exact", len(moves) - chance + chance * len(set(pos.unseen))


def check_memory(tt_mb: float, processes: int, *, workers: int | None = None) -> float:
    """MB of memory each worker process gets, ``tt_mb / processes``.

    With the shared table (:data:`SHARED_TABLE`, see :func:`_table_plan`) that share
    sizes the worker's own small table and leaf-score cache, and the one table the
    workers share takes what they leave of `tt_mb` (counted once); else it is the
    worker's whole engine.  Either way the solve stays within `tt_mb`.

    Parameters
    ----------
    tt_mb : float
        The solve's memory in MB (already checked to be from 1 to ``solver.MAX_TT_MB``).
    processes : int
        The worker processes that will really start (:func:`worker_processes`; 0 or 1:
        the whole `tt_mb` goes to one engine).
    workers : int, optional
        The number asked for, when more than `processes`: the message says so.

    Returns
    -------
    float
        MB per worker process (`tt_mb` when no more than one).

    Raises
    ------
    SolverOptionError
        If the share is below :data:`MIN_WORKER_TT_MB`; the message names both arguments
        (``tt_mb=``, ``workers=``: the ``crowns`` command names them as its options, see
        :attr:`crowns_solver.errors.CrownsError.arguments`) and what would do.
    """
    share = tt_mb / max(processes, 1)
    if share < MIN_WORKER_TT_MB:
        mb, w = "tt_mb=", "workers="
        asked = workers if workers is not None else processes
        but = "" if asked == processes else f", but this position has work for only {processes}"
        fewer = int(tt_mb // MIN_WORKER_TT_MB)
        raise SolverOptionError(
            f"{mb}{tt_mb:g} MB shared over the {processes} worker processes this solve starts"
            f" ({w}{asked}{but}) leaves {share:.3g} MB each, below the {MIN_WORKER_TT_MB} MB a"
            f" worker needs: give {mb}{math.ceil(processes * MIN_WORKER_TT_MB)} or more, or"
            f" {w}{fewer}{' or fewer' if fewer > 1 else ''}",
            argument=("tt_mb", "workers"),
        )
    return share


# ----------------------------------------------------------------------------- worker


class _Recheck(Exception):
    """The shared best value rose while a worker pinned its move: test against it instead."""


_interrupted = False


def _on_sigint(signum: int, frame: Any) -> None:
    # The engine stops when a signal handler raises (PyErr_CheckSignals).  Ctrl-C at a
    # terminal reaches every process of the group and the parent passes it on too:
    # the worker raises once and ignores the repeats, so its last reports get out.
    global _interrupted
    if not _interrupted:
        _interrupted = True
        raise KeyboardInterrupt


def _table_plan(tt_mb: float, n: int, ctx: Any) -> tuple[Any, int]:
    """The memory of `n` workers started by `ctx` out of `tt_mb` MB: ``(shared, bytes)``,
    `shared` the :class:`SharedTable` every worker's engine uses as its main table (None:
    a table each) and `bytes` what each worker's engine is given.

    Each worker is given ``tt_mb / n`` MB.  With a shared table (:data:`SHARED_TABLE`,
    two or more workers, the ``fork`` start method: a process forked after the table is
    mapped shares it; ``spawn`` and ``forkserver`` start fresh processes that cannot)
    that share sizes only the worker's own small table and leaf-score cache, as it
    would beside a table of its own (``table_layout``), and the shared table is the
    largest power of two of buckets that fits in what the ``n`` of them leave: it is
    counted once, and the whole stays within `tt_mb`.

    Raises
    ------
    SolverOptionError
        If the shared table cannot be allocated.
    """
    share = int(tt_mb / n * (1 << 20))
    if not SHARED_TABLE or n < 2 or ctx.get_start_method() != "fork":
        return None, share
    own = _core.table_layout(share)
    table = int(tt_mb * (1 << 20)) - n * (own["small_table"] + own["score_cache"])
    try:
        return _core.SharedTable(table), share
    except MemoryError:
        raise SolverOptionError(f"cannot allocate a shared transposition table of {table / 2**20:g} MB;"
                                " ask for less") from None


def _worker_engine(wid: int, job: dict, results: Any) -> Any:
    """A worker's compiled engine for the job's position, or None after reporting that
    its table could not be allocated."""
    try:
        eng = _core.Engine(job["cards"], job["mode_i"], job["objective_i"], job["reach_i"], job["tt_bytes"],
                           job.get("shared"))
    except MemoryError:
        results.put(("error", wid, (f"worker {wid} cannot allocate a transposition table of"
                                    f" {job['tt_bytes'] / 2**20:g} MB; ask for less")))
        return None
    eng.heur_kind = job["heur_kind"]
    return eng


def _worker_life(wid: int, job: dict, results: Any, work: Callable[[Any, dict, float], None]) -> None:
    """What every worker process does around its search: set the Ctrl-C handler, watch the
    parent, build the engine, run ``work(eng, hold, c0)``; on a stop (limit, Ctrl-C)
    report what is proven of the move in hand (``hold["run"]``, ``hold["current"]``),
    then the worker's effort ("done")."""
    global _interrupted
    _interrupted = False
    t0 = time.perf_counter()
    c0 = time.process_time()
    try:   # (a Ctrl-C that comes before the handler is set ends the worker quietly too)
        signal.signal(signal.SIGINT, _on_sigint)
        _watch_parent(job["parent_pid"])
        eng = _worker_engine(wid, job, results)
        if eng is None:
            return
        hold: dict[str, Any] = {"current": None, "done": 0, "run": None}
        try:
            work(eng, hold, c0)
        except (_Stopped, KeyboardInterrupt):
            if not eng.stop:
                eng.stop = _INTERRUPTED
            if hold["run"] is not None:
                _report_current(hold["run"], hold, results, wid)
        results.put(("done", wid, _final_report(eng, hold["done"], t0, c0)))
    except KeyboardInterrupt:   # a late Ctrl-C while reporting: the parent sees no "done"
        pass


def _worker(wid: int, job: dict, tasks: list, next_task: Any, best: Any, pinning: Any,
            results: Any) -> None:
    """One worker process: take tasks from the shared counter until none are left."""

    def work(eng: Any, hold: dict, c0: float) -> None:
        eng.set_limits(job["deadline"], job["node_limit"])
        run = hold["run"] = _Run(eng, job["root"], job["pos"], job["mode"], job["objective"], job["all_moves"])
        _task_loop(run, job, tasks, next_task, best, pinning, results, wid, hold)

    _worker_life(wid, job, results, work)


def _task_loop(run: _Run, job: dict, tasks: list, next_task: Any, best: Any, pinning: Any, results: Any,
               wid: int, hold: dict) -> None:
    """The exact search's jobs: take tasks from the shared counter until none are left
    (`hold` keeps the job in hand and the number done, for a stop)."""
    deferred: list[int] = []
    while True:
        with next_task.get_lock():
            i = next_task.value
            next_task.value += 1
        if i >= len(tasks):
            break
        cell, card = tasks[i]
        hold["current"] = (cell, card)
        if card is not None:
            _card_task(run, cell, card, results, wid)
        elif job["all_moves"]:
            _move_task(run, cell, job, best, results, wid)
        elif not _bound_task(run, cell, job, best, pinning, results, wid, final=False):
            deferred.append(cell)
            continue
        hold["current"] = None
        hold["done"] += 1
    for cell in deferred:   # the candidates left while another worker pinned
        hold["current"] = (cell, None)
        _bound_task(run, cell, job, best, pinning, results, wid, final=True)
        hold["current"] = None
        hold["done"] += 1


def _report_current(run: _Run, hold: dict, results: Any, wid: int) -> None:
    """After a stop: what is proven of the move in hand (a whole move's job)."""
    current = hold["current"]
    if current is not None and current[1] is None:
        info = run.moves[current[0]]
        results.put(("move", wid, current[0], info.lower, info.upper, None, None))


def _final_report(eng: Any, done: int, t0: float, c0: float) -> dict:
    """A worker's last report: its effort, why it stopped, its table and counters."""
    return {
        "nodes": eng.nodes, "stop": eng.stop, "tasks": done,
        "seconds": time.perf_counter() - t0, "cpu_seconds": time.process_time() - c0,
        "table_bytes": eng.table_bytes, "table_entries": eng.table_entries,
        "table_used": eng.table_used(), "score_cache_bytes": eng.score_cache_bytes,
        "table_shared": eng.table_shared, "stats": eng.stats(),
    }


def _watch_parent(parent: int) -> None:
    """Stop this worker (as Ctrl-C would) if the parent process goes away without
    stopping it (killed outright): no worker outlives its solve."""
    import threading

    direct = os.getppid() == parent

    def alive() -> bool:
        # forked by the solve: it is this process's parent until it ends (a killed parent
        # left unreaped still answers a signal, so its id is not enough); started by the
        # ``forkserver`` server, this process's parent is the server: watch the solve's id
        if direct:
            return os.getppid() == parent
        try:
            os.kill(parent, 0)
        except ProcessLookupError:
            return False
        except PermissionError:   # (the id reused by another user's process)
            return False
        return True

    def watch() -> None:
        while alive():
            time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(STOP_GRACE)
        os._exit(1)   # nobody is left to report to

    threading.Thread(target=watch, name="crowns-parent-watch", daemon=True).start()


def _publish(best: Any, v: int) -> bool:
    """Raise the shared best value to `v`; True when `v` is the new best."""
    with best.get_lock():
        if v > best.value:
            best.value = v
            return True
    return False


def _line(run: _Run, cell: int, v: int) -> list[int]:
    """Principal variation starting with root move `cell` of exact value `v`."""
    eng, root = run.eng, run.root
    if eng.is_chance(root, cell):
        return [cell]   # game mode: the line ends at the first card revealed
    return [cell] + run._pv(eng.child(root, cell), -v)


def _card_task(run: _Run, cell: int, card: int, results: Any, wid: int) -> None:
    """Exact value of face-down move `cell` when it reveals `card` (child's units), as the
    one-process solve computes it for ``all_moves=True``."""
    eng = run.eng
    child = eng.child(run.root, cell, card)
    clo, chi = eng.bounds(child)

    def probe(a: int, b: int) -> tuple[int, bool, int]:
        return eng.search(child, _EXACT, a, b)

    lo, _hi, _ = run.drv.mtd(probe, clo, chi, eng.heuristic(child), 1, bisect=True)
    results.put(("card", wid, cell, card, -lo))


def _move_task(run: _Run, cell: int, job: dict, best: Any, results: Any, wid: int) -> None:
    """Exact value of root move `cell` (``all_moves=True``), and its line when it is the
    best so far."""
    info = run.moves[cell]
    info.estimate = job["estimates"].get(cell)
    run._solve_move(info, _EXACT)
    v = info.lower
    _publish(best, v)
    # the line of every move as good as the best so far: the parent shows the line of
    # the optimal move the one-process solve shows (the first in move order)
    pv = _line(run, cell, v) if v >= best.value else None
    results.put(("move", wid, cell, v, v, v, pv))


# slots of the shared pin record: workers pinning, the move pinned, the threshold its
# pinning worker probes, its proven bounds, the highest threshold a helper took
_COUNT, _CELL, _T, _LO, _HI, _CLAIMED = range(6)


def _help(run: _Run, job: dict, pin: Any, best: Any, results: Any, wid: int) -> bool:
    """Open mode: probe the move another worker pins at the next threshold above the one
    it probes (two MTD(f) steps at once); False when there is nothing to help with."""
    if job["mode"] != "open":
        return False   # game mode pins with one wide window: no thresholds to share
    with pin.get_lock():
        cell, t, lo, hi = pin[_CELL], pin[_T], pin[_LO], pin[_HI]
        if cell < 0 or t == _NONE:
            return False
        th = max(t, pin[_CLAIMED], lo) + 1
        if th > hi:
            return False
        pin[_CLAIMED] = th
    v, proven = run.eng.search_move(run.root, cell, _EXACT, th - 1, th)
    run.drv.check()
    if proven:
        with pin.get_lock():
            # only while the move is still pinned: the pinning worker takes the record in
            # before each probe and when it stops pinning, so what it holds is never lost
            wrote = pin[_CELL] == cell
            if wrote:
                if v >= th:
                    pin[_LO] = max(pin[_LO], v)
                    _publish(best, v)
                else:
                    pin[_HI] = min(pin[_HI], v)
        if wrote:
            results.put(("move", wid, cell, v if v >= th else -_INF, _INF if v >= th else v, None, None))
    return True


def _bound_task(run: _Run, cell: int, job: dict, best: Any, pin: Any, results: Any, wid: int,
                final: bool) -> bool:
    """``all_moves=False``: prove root move `cell` worth at most the shared best value, or
    pin its exact value (and line) when it is worth more.

    Pinning a candidate (a move proven at least as good as the shared best, or any move
    before there is one) is left to one worker at a time: while another worker pins, this
    one helps it (open mode: probes the pinned move at the next threshold), or else
    defers its candidates (returns False) and takes them up again, with `final`, when no
    other move is left.  Returns True when the move is settled.
    """
    eng, root, drv = run.eng, run.root, run.drv
    info = run.moves[cell]
    game = job["mode"] == "game"
    first = job["first"]
    state = {"lo": info.lower, "hi": info.upper, "own": _NONE}
    pinned = [False]   # whether this worker is pinning `cell` now

    def on_proven(plo: int, phi: int, _move: int) -> None:
        if plo > state["lo"] and plo > -_INF:
            if _publish(best, plo):   # a proven lower bound of the root: others test against it
                state["own"] = plo
        state["lo"] = max(state["lo"], plo)
        state["hi"] = min(state["hi"], phi)
        info.lower, info.upper = state["lo"], state["hi"]
        if pinned[0]:
            with pin.get_lock():
                if pin[_CELL] == cell:
                    pin[_LO], pin[_HI] = max(pin[_LO], state["lo"]), min(pin[_HI], state["hi"])

    def merge(record: tuple[int, int] | None = None) -> bool:
        """Take in what a helper proved of `cell`; True when it changed something."""
        if record is None:
            with pin.get_lock():
                if pin[_CELL] != cell:
                    return False
                slo, shi = pin[_LO], pin[_HI]
        else:
            slo, shi = record
        changed = False
        if slo > state["lo"]:
            state["lo"] = slo
            if best.value <= slo:
                state["own"] = slo   # the shared bound is this move's
            changed = True
        if shi < state["hi"]:
            state["hi"] = shi
            changed = True
        info.lower, info.upper = state["lo"], state["hi"]
        return changed

    def pin_probe(a: int, b: int) -> tuple[int, bool, int]:
        if merge():
            raise _Recheck   # a helper proved more: start again from what is known
        shared = best.value
        if not force and shared != _NONE and (shared > state["lo"] or
                                              (shared == state["lo"] and shared != state["own"])):
            raise _Recheck   # another move is proven at least as good: test against it
        with pin.get_lock():
            pin[_T] = b
            taken = pin[_CLAIMED] if pin[_CELL] == cell else _NONE
        if taken >= b and taken < state["hi"]:
            # a helper probes this threshold already: take the one above it instead
            t = taken + 1
            with pin.get_lock():
                pin[_T] = t
            v, proven, _ = probe(t - 1, t)
            drv.check()
            if proven:
                on_proven(v, _INF, -1) if v >= t else on_proven(-_INF, v, -1)
            raise _Recheck
        return probe(a, b)

    def probe(a: int, b: int) -> tuple[int, bool, int]:
        v, proven = eng.search_move(root, cell, _EXACT, a, b)
        return v, proven, -1

    def others_pin() -> bool:
        return pin[_COUNT] > 0 and pin[_CELL] != cell

    force = False   # an unproven answer (cannot happen at full depth): pin, no shortcuts
    while True:
        merge()
        lo, hi = state["lo"], state["hi"]
        if lo >= hi:
            break
        b = best.value
        if b != _NONE and hi <= b:
            break   # worth at most the best move found: nothing more to prove here
        tie = b != _NONE and lo == b and b != state["own"]
        if tie and not force and others_pin():
            if _help(run, job, pin, best, results, wid):
                continue
            if not final:
                return False   # as good as the move another worker pins: see its value first
        if not force and b != _NONE and (lo < b or tie):
            # "is this move worth more than the best so far?": one null-window search
            v, proven, _ = probe(b, b + 1)
            drv.check()
            if proven:
                on_proven(v, _INF, -1) if v > b else on_proven(-_INF, v, -1)
            force = not proven
            continue
        # a candidate for the best move: this worker's own bound, or none yet
        if not force and others_pin() and _help(run, job, pin, best, results, wid):
            continue
        with pin.get_lock():
            claim = final or force or pin[_COUNT] == 0
            if claim:
                pin[_COUNT] += 1
                pin[_CELL], pin[_T], pin[_LO], pin[_HI], pin[_CLAIMED] = cell, _NONE, lo, hi, _NONE
        if not claim:
            wdl = [t for t in first if lo < t <= hi] if b == _NONE else []
            if not wdl:
                return False   # another worker pins its candidate: come back to this one
            v, proven, _ = probe(wdl[0] - 1, wdl[0])   # open mode: win/draw/loss first
            drv.check()
            if proven:
                on_proven(v, _INF, -1) if v >= wdl[0] else on_proven(-_INF, v, -1)
            force = not proven
            continue
        guess = job["estimates"].get(cell, job["guess"])
        pinned[0] = True
        try:
            plo, phi, _ = drv.mtd(pin_probe, lo, hi, guess, run.unit, bisect=game,
                                  wide=game and GAME_WIDE, first=first, on_proven=on_proven)
            on_proven(plo, phi, -1)
        except _Recheck:
            continue
        finally:
            pinned[0] = False
            with pin.get_lock():
                pin[_COUNT] -= 1
                record = (pin[_LO], pin[_HI]) if pin[_CELL] == cell else None
                if record is not None:
                    pin[_CELL] = -1
            if record is not None:
                merge(record)
    exact = state["lo"] if state["lo"] == state["hi"] else None
    if exact is not None:
        _publish(best, exact)
    # the line of a move as good as the best so far (the best move's own bound counts)
    pv = _line(run, cell, exact) if exact is not None and exact >= best.value else None
    results.put(("move", wid, cell, state["lo"], state["hi"], exact, pv))
    return True


# ----------------------------------------------------------------------------- anytime analysis


class _Leased:
    """A worker's engine whose node limit comes from a pool shared by every worker.

    The pool (a ``multiprocessing.Value``, None without a node limit) holds the nodes the
    whole solve may still search.  The engine draws a part at a time (what the pool holds
    over ``LEASE_PARTS`` x workers, at least ``LEASE_MIN_NODES`` but never more than an
    equal share, what the pool holds over the workers); when a search stops
    on that part, the wrapper draws more and repeats the search (the table keeps what the
    stopped one finished), until the pool is empty.  So one worker can use what another
    does not need, and the total stays within the limit (plus one clock-check interval,
    1,024 nodes, per engine: an overrun is paid from the pool too).  Everything else is
    the engine's.
    """

    def __init__(self, eng: Any, pool: Any, deadline: float, workers: int) -> None:
        d = self.__dict__
        d["_eng"], d["_pool"], d["_deadline"], d["_n"] = eng, pool, deadline, workers
        d["_paid"] = eng.nodes   # nodes paid for from the pool (engine count)
        eng.set_limits(deadline, 0)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._eng, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._eng, name, value)

    def lease(self) -> bool:
        """Draw more nodes from the pool; False (and the engine stopped on nodes) when it is empty."""
        eng, pool = self._eng, self._pool
        if pool is None or eng.stop in (_TIME, _INTERRUPTED, _CANCELLED):
            return False
        with pool.get_lock():
            left = pool.value - max(0, eng.nodes - self._paid)   # an overrun is paid too
            # at most an equal share of what is left: with a small pool, a first draw of
            # all of it left the other workers none, and a worker finding the pool empty
            # stops the whole analysis (a 20,000-node limit stopped after about 300 nodes)
            share = max(1, left // self._n)
            take = min(max(left // (LEASE_PARTS * self._n), LEASE_MIN_NODES), share) if left > 0 else 0
            pool.value = max(0, left - take)
        paid = max(self._paid, eng.nodes) + take
        self.__dict__["_paid"] = paid
        eng.set_limits(self._deadline, max(paid, 1))
        if take <= 0:
            eng.stop = _NODES
            return False
        return True

    def release(self) -> None:
        """Give back what is left of the nodes drawn (the worker is about to wait)."""
        eng, pool = self._eng, self._pool
        if pool is None:
            return
        with pool.get_lock():
            pool.value = max(0, pool.value + self._paid - eng.nodes)
        self.__dict__["_paid"] = eng.nodes

    def search(self, state: tuple, depth: int, alpha: int, beta: int) -> tuple[int, bool, int]:
        while True:
            r = self._eng.search(state, depth, alpha, beta)
            if self._eng.stop != _NODES or not self.lease():
                return r

    def search_move(self, state: tuple, cell: int, depth: int, alpha: int, beta: int) -> tuple[int, bool]:
        while True:
            r = self._eng.search_move(state, cell, depth, alpha, beta)
            if self._eng.stop != _NODES or not self.lease():
                return r


def _anytime_worker(wid: int, job: dict, commands: Any, next_task: Any, claimed: Any, best: Any,
                    pinning: Any, pool: Any, results: Any) -> None:
    """A worker that lives across the anytime analysis: its table stays warm from one
    heuristic iteration to the next and into the exact search.  It waits for commands:
    ``("iter", it)`` (claim the iteration's jobs, its own from the previous iteration
    first, then report "idle" with its nodes and CPU seconds), ``("exact", x)`` (the exact
    search's jobs from the shared counter, as :func:`_worker`; then it ends) or
    ``("quit",)``.  A stop (limit, Ctrl-C) reports what is proven of the move in hand,
    then the worker's effort ("done"), and ends it."""

    def work(raw: Any, hold: dict, c0: float) -> None:
        eng = _Leased(raw, pool, job["deadline"], job["workers"])
        while True:
            cmd = commands.get()
            if cmd[0] == "quit":
                break
            if pool is not None and not eng.lease():
                raise _Stopped
            run = hold["run"] = _Run(eng, job["root"], job["pos"], job["mode"], job["objective"], job["all_moves"])
            if cmd[0] == "iter":
                _iteration_jobs(run, cmd[1], claimed, best, results, wid, hold)
                eng.release()
                results.put(("idle", wid, cmd[1]["depth"], raw.nodes, time.process_time() - c0))
                continue
            x = cmd[1]   # "exact": from what the parent knows of each move
            for cell, (lo, hi) in x["bounds"].items():
                run.moves[cell].lower, run.moves[cell].upper = lo, hi
            _task_loop(run, {**job, **x}, x["tasks"], next_task, best, pinning, results, wid, hold)
            break

    _worker_life(wid, job, results, work)


def _claim(claimed: Any, indices: list[int]) -> int | None:
    """Take the first job of `indices` no worker has taken yet (None: all taken)."""
    with claimed.get_lock():
        for i in indices:
            if not claimed[i]:
                claimed[i] = 1
                return i
    return None


def _iteration_jobs(run: _Run, it: dict, claimed: Any, best: Any, results: Any, wid: int,
                    hold: dict) -> None:
    """One heuristic iteration's jobs (root moves at depth ``it["depth"]``), in the order
    given (the previous iteration's best first): first the moves this worker searched in
    the previous iteration (its table holds their subtrees), then any move left."""
    order = it["order"]
    mine = [i for i, c in enumerate(order) if it["owner"].get(c, i % it["workers"]) == wid]
    every = list(range(len(order)))
    deferred: list[int] = []
    while True:
        i = _claim(claimed, mine)
        if i is None:
            i = _claim(claimed, every)
        if i is None:
            break
        cell = order[i]
        hold["current"] = (cell, None)
        if it["per_move"]:
            _heur_move(run, cell, it, results, wid)
        elif not _heur_bound(run, cell, it, best, results, wid, final=i == 0):
            deferred.append(cell)
        hold["current"] = None
    for cell in deferred:   # below the previous best's value while no bound was known yet
        hold["current"] = (cell, None)
        _heur_bound(run, cell, it, best, results, wid, final=True)
        hold["current"] = None


def _heur_line(run: _Run, cell: int, depth: int) -> list[int]:
    """The line the heuristic search prefers after `cell` (this worker's table)."""
    run.best, run.depth = cell, depth
    return run._heuristic_pv()


def _heur_move(run: _Run, cell: int, it: dict, results: Any, wid: int) -> None:
    """Per-move iterations (a fresh deal's start cells, ``all_moves``): the move's value
    at this depth by MTD(f), from the iteration's estimate, as the one-process
    :meth:`_Run._solve_move` finds it (it is that method)."""
    info, depth = run.moves[cell], it["depth"]
    info.estimate = it["estimates"].get(cell, 0)   # the first guess
    value = run._solve_move(info, depth)
    results.put(("hmove", wid, depth, cell, value, value, True, info.lower, info.upper,
                 _heur_line(run, cell, depth)))


def _heur_bound(run: _Run, cell: int, it: dict, best: Any, results: Any, wid: int, final: bool) -> bool:
    """Root splitting at one heuristic depth: is root move `cell` worth more than the
    best value ``b`` found at this depth (shared)?  One null-window search
    (``search_move`` at ``b``) answers; a move that is gets pinned by MTD(f) at this depth,
    each lower bound found raising ``b``.  While no ``b`` is known yet (another worker is
    pinning the previous iteration's best move) the move is tested against that move's
    previous value instead, and put off (returns False) if it is below it; `final`: pin
    it anyway.  Reports the move's bounds at this depth (equal when pinned) and what was
    proven (the search's proven flag: no horizon value took part)."""
    eng, root, drv = run.eng, run.root, run.drv
    info, depth, game = run.moves[cell], it["depth"], run.mode == "game"
    st = {"lo": -_INF, "hi": _INF, "own": _NONE}   # bounds at this depth; the b this move set

    def probe(a: int, b: int) -> tuple[int, bool, int]:
        v, proven = eng.search_move(root, cell, depth, a, b)
        drv.check()
        if v > a:   # a lower bound (exact inside the window)
            st["lo"] = max(st["lo"], v)
            if _publish(best, v):
                st["own"] = v
            if proven:
                info.lower = max(info.lower, v)
        if v < b:   # an upper bound
            st["hi"] = min(st["hi"], v)
            if proven:
                info.upper = min(info.upper, v)
        return v, proven, -1

    def beaten() -> bool:
        """Another move is proven (at this depth) at least as good as this one's bound."""
        b = best.value
        return b != _NONE and (b > st["lo"] or (b == st["lo"] and st["own"] != b))

    def pin_probe(a: int, b: int) -> tuple[int, bool, int]:
        if beaten():
            raise _Recheck   # test against the new bound instead
        return probe(a, b)

    t0 = it["t0"]
    tested = t0 is None
    while st["lo"] < st["hi"]:
        b = best.value
        if b != _NONE:
            if st["hi"] <= b:
                break   # worth at most the best move found at this depth
            if beaten():
                probe(b, b + 1)   # "worth at least b + 1?"
                continue
        elif not final:
            if tested:
                return False   # below the previous best: see what that one is worth first
            tested = True
            if st["lo"] < t0 <= st["hi"]:
                probe(t0 - 1, t0)   # "worth at least the previous best's value?"
            continue
        try:   # a candidate: its value at this depth
            drv.mtd(pin_probe, st["lo"], st["hi"], it["estimates"].get(cell, 0), run.unit,
                    bisect=game, wide=game and GAME_WIDE)
        except _Recheck:
            continue
        break
    lo, hi = st["lo"], st["hi"]
    pinned = lo >= hi
    line = _heur_line(run, cell, depth) if pinned else None
    results.put(("hmove", wid, depth, cell, lo, hi, pinned, info.lower, info.upper, line))
    return True


# ----------------------------------------------------------------------------- parent


def _pre_phase(run: _Run, limited: bool) -> None:
    """The one-process solve's iterations before its exact one (see ``_Run.go``)."""
    first, last, _ = _iteration_plan(run.pos, run.mode, limited)
    run._deepen(first, last)


def _tasks(run: _Run) -> tuple[list[tuple[int, int | None]], dict[int, int]]:
    """The jobs, largest first: (cell, None) for a whole move, (cell, card) for one card
    a face-down move may reveal (``all_moves=True``, game mode); and each move's estimate
    from the shallow pass (the first guess of its MTD(f))."""
    eng, root = run.eng, run.root
    est = {}
    for cell, info in run.moves.items():
        if info.estimate is not None:
            est[cell] = info.estimate
        else:   # a shallow look at each move, to take the likely best first
            v, _ = eng.search_move(root, cell, PRE_DEPTH, -_INF, _INF)
            run.drv.check()
            est[cell] = v
    order = sorted(run.moves, key=lambda c: (c != run.best, -est[c], c))
    if not run.all_moves:
        return [(c, None) for c in order], est
    whole = [(c, None) for c in order if not eng.is_chance(root, c)]
    cards = [(c, k) for c in order if eng.is_chance(root, c) for k in eng.pool_cards(root)]
    # a face-up move's subtree holds one more face-down cell than a revealed card's
    return whole + cards, est


def solve_parallel(pos: Position, *, mode: str, objective: str, all_moves: bool, tt_mb: float,
                   time_limit: float | None, node_limit: int | None, workers: int,
                   evaluation: str = "fitted", cancel: Any = None) -> Solution:
    """:func:`crowns_solver.cross_kings.solve` over `workers` processes (see the module).

    The arguments are those of ``solve``, already validated; `workers` >= 2.  Positions
    with fewer than :data:`PARALLEL_MIN_CARDS` cards left, or a single job, are solved in
    this process.

    Parameters
    ----------
    pos : Position
        The position to solve.
    mode, objective, all_moves, evaluation
        As for :func:`crowns_solver.cross_kings.solve`.
    tt_mb : float
        The solve's memory in MB, shared out among the processes (:func:`check_memory`).
    time_limit : float or None
        Wall-clock limit of the whole solve, in seconds.
    node_limit : int or None
        Limit on the nodes searched by all the processes together (see ``solve``).
    workers : int
        Number of processes (2 or more).
    cancel : object with ``is_set()`` or None
        As for ``solve``: the first pass's engine polls it, then this process polls it
        every 0.1 s while it waits for the workers, and once it is set stops them as
        Ctrl-C does (SIGINT: each reports what it proved) and answers with
        ``stopped="cancelled"``.

    Returns
    -------
    Solution
        As :func:`~crowns_solver.cross_kings.solve` returns it; ``stats["workers"]``
        says how many processes searched.

    Raises
    ------
    SolverOptionError
        If the transposition table of `tt_mb` MB cannot be allocated.
    """
    t0 = time.perf_counter()
    limited = time_limit is not None or node_limit is not None
    route, _ = _route(pos, mode, all_moves, limited)   # (solve checked the memory per worker)
    cards, root = _engine_input(pos, mode)
    mode_i, objective_i, reach_i = (0 if mode == "open" else 1, 0 if objective == "margin" else 1,
                                    0 if pos.reach == "any" else 1)
    if route == "one":
        sol = _solver.solve(pos, mode=mode, objective=objective, all_moves=all_moves, tt_mb=tt_mb,  # type: ignore[arg-type]
                            time_limit=time_limit, node_limit=node_limit, workers=1, evaluation=evaluation,  # type: ignore[arg-type]
                            cancel=cancel)
        return replace(sol, stats={**sol.stats, "workers": 1})
    if route == "anytime":
        return _solve_anytime(pos, _depths(pos, mode, limited), mode=mode, objective=objective,
                              all_moves=all_moves, tt_mb=tt_mb, time_limit=time_limit, node_limit=node_limit,
                              workers=workers, evaluation=evaluation, t_start=t0, cancel=cancel)
    # the shallow pass (and the anytime iterations) in this process, with all the memory
    try:
        eng = _core.Engine(cards, mode_i, objective_i, reach_i, int(tt_mb * (1 << 20)))
    except MemoryError:
        raise SolverOptionError(f"cannot allocate a transposition table of {tt_mb:g} MB; ask for less") from None
    heur_kind = eng.heur_kind = EVALUATIONS[evaluation]
    eng.set_cancel(cancel)
    deadline = _core.monotonic() + time_limit if time_limit is not None else 0.0
    eng.set_limits(deadline, node_limit or 0)
    run = _Run(eng, root, pos, mode, objective, all_moves)   # type: ignore[arg-type]
    tasks: list[tuple[int, int | None]] = []
    estimates: dict[int, int] = {}
    try:
        _pre_phase(run, limited)
        tasks, estimates = _tasks(run)
    except _Stopped:
        pass
    except KeyboardInterrupt:
        eng.stop = _INTERRUPTED
    parent_nodes, parent_stats = eng.nodes, eng.stats()
    parent_table = {"table_bytes": eng.table_bytes, "table_entries": eng.table_entries,
                    "table_used": eng.table_used(), "score_cache_bytes": eng.score_cache_bytes}
    stop = eng.stop
    n = min(workers, len(tasks))
    left = None if node_limit is None else node_limit - parent_nodes
    if left is not None:
        n = min(n, max(left, 0))
        if left <= 0 and not stop:
            stop = _NODES
    # the parent's table goes before the workers allocate theirs: the memory bound holds
    small = _core.Engine(cards, mode_i, objective_i, reach_i, _PARENT_TT_BYTES)
    small.heur_kind = heur_kind
    small.set_cancel(cancel)   # (it may list the principal variation at the end)
    run.eng = run.drv.eng = small
    del eng
    reports: dict[int, dict] = {}
    pvs: dict[int, list[int]] = {}
    card_values: dict[int, dict[int, int]] = {}
    if not stop and n >= 1 and tasks:
        import multiprocessing as mp

        shared, share = _table_plan(tt_mb, n, mp.get_context())
        job = {
            "cards": cards, "root": root, "pos": pos, "mode": mode, "objective": objective,
            "mode_i": mode_i, "objective_i": objective_i, "reach_i": reach_i, "parent_pid": os.getpid(),
            "all_moves": all_moves, "tt_bytes": share, "deadline": deadline, "heur_kind": heur_kind,
            "guess": run.estimate if run.estimate is not None else 0,
            "estimates": estimates,
            "first": (((1, 0) if (run.estimate or 0) > 0 else (0, 1))
                      if mode == "open" and WDL_FIRST else ()),
            "shared": shared,   # (inherited by the forked workers, never pickled)
        }
        stop = _run_workers(run, job, tasks, n, left, reports, pvs, card_values, cancel)
        del job, shared   # the workers have ended: free the shared table
    return _assemble(run, tasks, reports, pvs, card_values, stop, parent_nodes, parent_stats, parent_table,
                     seconds=time.perf_counter() - t0, tt_mb=tt_mb, time_limit=time_limit,
                     node_limit=node_limit, workers=n)


def _run_workers(run: _Run, job: dict, tasks: list, n: int, left: int | None, reports: dict,
                 pvs: dict, card_values: dict, cancel: Any = None) -> int:
    """Start `n` workers, gather their reports into `run`, stop them on Ctrl-C or once
    `cancel.is_set()` (polled every 0.1 s); returns the stop code (0: finished)."""
    import multiprocessing as mp

    ctx = mp.get_context()
    next_task = ctx.Value("q", 0)
    best = ctx.Value("q", _NONE)
    pinning = ctx.Array("q", [0, -1, _NONE, -_INF, _INF, _NONE])   # see _COUNT.._CLAIMED
    results = ctx.Queue()
    procs = []
    for w in range(n):
        wjob = dict(job)
        if left is not None:   # the node limit is shared out: the total never exceeds it
            wjob["node_limit"] = left // n + (1 if w < left % n else 0)
        else:
            wjob["node_limit"] = 0
        p = ctx.Process(target=_worker, args=(w, wjob, tasks, next_task, best, pinning, results),
                        name=f"crowns-solve-worker-{w}", daemon=True)
        procs.append(p)
    interrupted = cancelled = False
    error: str | None = None
    try:
        for p in procs:
            p.start()
        while len(reports) < n:
            if job["deadline"] and _core.monotonic() > job["deadline"] + STOP_GRACE:
                break   # past the time limit: the workers should have stopped; stop them
            if cancel is not None and cancel.is_set():
                cancelled = True
                break   # _reap stops the workers as Ctrl-C does; what they proved is kept
            try:
                msg = results.get(timeout=0.1)
            except queue.Empty:
                dead = [w for w, p in enumerate(procs) if w not in reports and p.exitcode is not None]
                if dead:
                    # a worker that ended without its last report: take what is queued
                    _drain(results, lambda msg: _take(msg, run, reports, pvs, card_values))
                    dead = [w for w in dead if w not in reports]
                    if dead and error is None:
                        error = (f"solver worker {dead[0]} ended unexpectedly"
                                 f" (exit code {procs[dead[0]].exitcode})")
                    break
                continue
            if msg[0] == "error":
                error = msg[2]
                break
            _take(msg, run, reports, pvs, card_values)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        take = lambda msg: _take(msg, run, reports, pvs, card_values)
        interrupted = _reap(procs, results, reports, n, take) or interrupted
    if error is not None and not interrupted:
        if "cannot allocate" in error:
            raise SolverOptionError(error)
        raise RuntimeError(error)
    codes = [r["stop"] for r in reports.values() if r["stop"]]
    if interrupted:
        return _INTERRUPTED
    if cancelled:
        return _CANCELLED
    if len(reports) < n:
        return _INTERRUPTED
    for code in _STOP_PRIORITY:
        if code in codes:
            return code
    return 0


class _AnytimeRun(_Run):
    """The parent's bookkeeping for the parallel anytime analysis: a `_Run` whose
    heuristic lines come from the workers (the parent's own table is minimal)."""

    lines: dict[int, list[int]]

    def _heuristic_pv(self) -> list[int]:
        line = getattr(self, "lines", {}).get(self.best)
        if line:
            return list(line)
        return super()._heuristic_pv()


def _depths(pos: Position, mode: str, limited: bool) -> list[int]:
    """The depths of the one-process solve's iterations before its exact one (see
    ``_Run.go``): the anytime sequence above the cut-over, else the shallow pass."""
    first, last, _ = _iteration_plan(pos, mode, limited)   # type: ignore[arg-type]
    return _depths_between(first, last)


def _solve_anytime(pos: Position, depths: list[int], *, mode: str, objective: str, all_moves: bool,
                   tt_mb: float, time_limit: float | None, node_limit: int | None, workers: int,
                   evaluation: str, t_start: float, cancel: Any = None) -> Solution:
    """A limited solve above the anytime cut-over over `workers` processes: the first
    (shallow) iteration here, the deeper ones and the exact search in workers that live
    through all of them (see the module).  `cancel` as for :func:`solve_parallel`."""
    import multiprocessing as mp

    cards, root = _engine_input(pos, mode)
    mode_i, objective_i, reach_i = (0 if mode == "open" else 1, 0 if objective == "margin" else 1,
                                    0 if pos.reach == "any" else 1)
    eng = _core.Engine(cards, mode_i, objective_i, reach_i, _PARENT_TT_BYTES)
    heur_kind = eng.heur_kind = EVALUATIONS[evaluation]
    eng.set_cancel(cancel)
    deadline = _core.monotonic() + time_limit if time_limit is not None else 0.0
    eng.set_limits(deadline, node_limit or 0)
    run = _AnytimeRun(eng, root, pos, mode, objective, all_moves)   # type: ignore[arg-type]
    run.lines = {}
    per_move = all_moves or pos.marker is None
    values: dict[int, int] = {}   # each move's value (or upper bound) at the last completed depth
    stop = 0
    try:
        run._iteration(depths[0])   # shallow: milliseconds, in this process
        if per_move:
            values = {c: i.estimate if i.estimate is not None else i.upper for c, i in run.moves.items()}
        else:
            for cell in run.moves:   # each move's value at that depth: the next iteration's order
                values[cell], _ = eng.search_move(root, cell, depths[0], -_INF, _INF)
                run.drv.check()
    except _Stopped:
        stop = eng.stop
    except KeyboardInterrupt:
        stop = eng.stop = _INTERRUPTED
    parent_nodes = eng.nodes
    n = min(workers, len(run.moves))
    left = None if node_limit is None else node_limit - parent_nodes
    if left is not None and left <= 0 and not stop:
        stop = _NODES
    ctx = mp.get_context()
    next_task = ctx.Value("q", 0)
    claimed = ctx.Array("b", max(len(run.moves), 1))   # the iteration's jobs taken
    best = ctx.Value("q", _NONE)
    pinning = ctx.Array("q", [0, -1, _NONE, -_INF, _INF, _NONE])   # see _COUNT.._CLAIMED
    pool = None if left is None else ctx.Value("q", max(left, 0))
    results = ctx.Queue()
    commands = [ctx.Queue() for _ in range(n)]
    shared, share = _table_plan(tt_mb, n, ctx) if n >= 1 and not stop else (None, 0)
    job = {
        "cards": cards, "root": root, "pos": pos, "mode": mode, "objective": objective,
        "mode_i": mode_i, "objective_i": objective_i, "reach_i": reach_i, "parent_pid": os.getpid(),
        "all_moves": all_moves, "tt_bytes": share, "deadline": deadline,
        "heur_kind": heur_kind, "workers": n, "shared": shared,
    }
    procs = [ctx.Process(target=_anytime_worker,
                         args=(w, job, commands[w], next_task, claimed, best, pinning, pool, results),
                         name=f"crowns-solve-worker-{w}", daemon=True) for w in range(n)]
    reports: dict[int, dict] = {}
    pvs: dict[int, list[int]] = {}
    card_values: dict[int, dict[int, int]] = {}
    tasks: list[tuple[int, int | None]] = []
    idle: set[int] = set()
    it_values: dict[int, tuple[int, int, bool]] = {}
    owner: dict[int, int] = {}   # the worker that searched each move last
    score_base = max([run.lower] + [run._move_bounds(c)[0] for c in run.moves])   # known without search
    effort: dict[int, tuple[int, float]] = {w: (0, 0.0) for w in range(n)}   # nodes, CPU s when idle
    path = [float(parent_nodes), time.process_time() - run.cpu0]   # the longest chain over processes
    interrupted = cancelled = False
    cut = False   # a worker stopped (or failed) inside an iteration
    error: str | None = None

    def cancel_set() -> bool:
        nonlocal cancelled
        if cancel is not None and cancel.is_set():
            cancelled = True
        return cancelled

    def take(msg: tuple) -> None:
        kind = msg[0]
        if kind == "idle":
            idle.add(msg[1])
            effort[msg[1]] = (msg[3], msg[4])
        elif kind == "hmove":
            _, _, _depth, cell, lo, hi, pinned, plo, phi, line = msg
            info = run.moves[cell]
            info.lower, info.upper = max(info.lower, plo), min(info.upper, phi)
            if not per_move and plo > max(run.lower, score_base):
                # a search proved this move raises the root's lower bound (above what the
                # score bounds give): as the one-process root search's proof, it is the
                # preferred move until a later iteration names another, if it is proven
                # at least the estimate (a worker's test against a low bound can prove a
                # weak bound, which the one-process probes near the estimate never do)
                if run.estimate is None or plo >= run.estimate:
                    run._prove_root(plo, _INF, cell)
                else:
                    run.lower = plo
            it_values[cell] = (lo, hi, pinned)
            owner[cell] = msg[1]
            if line:
                run.lines[cell] = line
            if per_move:   # as the one-process iteration: each move's estimate as it is found
                info.estimate = min(max(lo, info.lower), info.upper)
        else:
            _take(msg, run, reports, pvs, card_values)

    def gather(done: Callable[[], bool], *, until_a_stop: bool = False) -> bool:
        """Take messages until `done()`; False if a worker failed first, or (with
        `until_a_stop`) one stopped: a limit or Ctrl-C."""
        nonlocal error
        while not done():
            if until_a_stop and reports:
                return False
            if cancel_set():
                return False   # _reap stops the workers as Ctrl-C does
            if deadline and _core.monotonic() > deadline + STOP_GRACE:
                return False
            try:
                msg = results.get(timeout=0.1)
            except queue.Empty:
                dead = [w for w, p in enumerate(procs) if w not in reports and p.exitcode is not None]
                if dead:
                    _drain(results, take)
                    dead = [w for w in dead if w not in reports]
                    if dead and error is None:
                        error = (f"solver worker {dead[0]} ended unexpectedly"
                                 f" (exit code {procs[dead[0]].exitcode})")
                    return False
                continue
            if msg[0] == "error":
                error = msg[2]
                return False
            take(msg)
        return True

    try:
        if not stop:
            for p in procs:
                p.start()
        for depth in depths[1:]:
            if stop:
                break
            if cancel_set():
                break
            if deadline and _core.monotonic() >= deadline:
                stop = _TIME
                break
            if pool is not None and pool.value <= 0:
                stop = _NODES
                break
            if per_move:   # as the one-process iteration: the best estimates first
                order = sorted(run.moves, key=lambda c: -values[c])
            else:
                order = sorted(run.moves, key=lambda c: (c != run.best, -values[c], c))
            for i in range(len(claimed)):
                claimed[i] = 0
            best.value = _NONE
            before = dict(effort)
            idle.clear()
            it_values.clear()
            it = {"depth": depth, "order": order, "per_move": per_move, "estimates": dict(values),
                  "t0": values.get(run.best) if run.best >= 0 else None, "owner": dict(owner), "workers": n}
            for q in commands:
                q.put(("iter", it))
            if not gather(lambda: len(idle) == n, until_a_stop=True):
                cut = True   # stopped inside the iteration: what was proven counts, not its values
                break
            # the iteration is complete: its value and move, as the one-process iteration's
            if per_move:
                top = max(run.moves.values(), key=lambda m: m.estimate if m.estimate is not None else -_INF)
                run._bounds_from_moves()
                run.estimate = top.estimate
                if top.estimate is not None:
                    run.best = top.cell
                values = {c: i.estimate if i.estimate is not None else i.upper for c, i in run.moves.items()}
            else:
                pinned = [(lo, -order.index(c), c) for c, (lo, hi, p) in it_values.items() if p]
                if not pinned:   # (cannot happen: the move that set the best value pins it)
                    pinned = [(lo, -order.index(c), c) for c, (lo, hi, p) in it_values.items()]
                value, _, cell = max(pinned)
                run.estimate = min(max(value, run.lower), run.upper)
                run.best = cell
                values = {c: (lo if p or hi >= _INF else hi) for c, (lo, hi, p) in it_values.items()}
            run.depth = depth
            run.heur_pv = run._heuristic_pv()
            # the chain of work: the busiest worker's share of each iteration
            path[0] += max(effort[w][0] - before[w][0] for w in range(n))
            path[1] += max(effort[w][1] - before[w][1] for w in range(n))
            run.log.append({"depth": depth, "seconds": round(_core.monotonic() - run.started, 4),
                            "nodes": parent_nodes + sum(e[0] for e in effort.values()),
                            "path_nodes": int(path[0]), "path_cpu_seconds": round(path[1], 4)})
            if run.exact and (not all_moves or all(m.lower == m.upper for m in run.moves.values())):
                break
        if not stop and not cut and not cancelled and procs:
            # the exact search, in the same workers (their tables warm), as _run_workers'
            est = dict(values)
            order = sorted(run.moves, key=lambda c: (c != run.best, -est[c], c))
            if all_moves:
                tasks = ([(c, None) for c in order if not eng.is_chance(root, c)]
                         + [(c, k) for c in order if eng.is_chance(root, c) for k in eng.pool_cards(root)])
            else:
                tasks = [(c, None) for c in order]
            next_task.value = 0
            best.value = _NONE
            x = {"tasks": tasks, "estimates": est, "guess": run.estimate if run.estimate is not None else 0,
                 "first": (((1, 0) if (run.estimate or 0) > 0 else (0, 1)) if mode == "open" and WDL_FIRST else ()),
                 "bounds": {c: (i.lower, i.upper) for c, i in run.moves.items()}}
            for q in commands:
                q.put(("exact", x))
        if error is None:
            for w, q in enumerate(commands):   # workers waiting for a command (or soon)
                if w not in reports and procs[w].pid is not None:
                    q.put(("quit",))
            # the last report of each worker started (none when the first iteration, here,
            # used up the limit: waiting for all n then never ended without a deadline)
            gather(lambda: all(w in reports for w, p in enumerate(procs) if p.pid is not None))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        interrupted = _reap(procs, results, reports, n, take) or interrupted
        for q in commands:
            q.close()
            q.join_thread()
    if error is not None and not interrupted:
        if "cannot allocate" in error:
            raise SolverOptionError(error)
        raise RuntimeError(error)
    started = bool(procs) and procs[0].pid is not None
    codes = [r["stop"] for r in reports.values() if r["stop"]]
    if interrupted:
        stop = _INTERRUPTED
    elif cancelled or stop == _CANCELLED:
        stop = _CANCELLED
    elif started and len(reports) < n:
        stop = _INTERRUPTED
    elif not stop:   # the workers' reason (none: finished)
        stop = next((c for c in _STOP_PRIORITY if c in codes), 0)
    parent_table = {"table_bytes": eng.table_bytes, "table_entries": eng.table_entries,
                    "table_used": eng.table_used(), "score_cache_bytes": eng.score_cache_bytes}
    parent_stats = eng.stats()
    sol = _assemble(run, tasks, reports, pvs, card_values, stop, parent_nodes, parent_stats, parent_table,
                    seconds=time.perf_counter() - t_start, tt_mb=tt_mb, time_limit=time_limit,
                    node_limit=node_limit, workers=n if started else 1)
    return replace(sol, stats={**sol.stats, "anytime_workers": n if started else 0})


def _reap(procs: list, results: Any, reports: dict, n: int, take: Callable[[tuple], None]) -> bool:
    """End the workers: pass a stop (SIGINT) on to those that have not sent their last
    report, wait up to STOP_GRACE for what they proved (`take` records each message), then
    join them (terminate, kill if need be).  True if Ctrl-C came meanwhile."""
    interrupted = False
    unfinished = [p for w, p in enumerate(procs) if w not in reports and p.pid is not None]
    if unfinished:
        for p in unfinished:   # pass the stop on, and wait for what they proved
            if p.is_alive():
                try:
                    os.kill(p.pid, signal.SIGINT)
                except ProcessLookupError:
                    pass
        end = time.monotonic() + STOP_GRACE
        while len(reports) < n and time.monotonic() < end and any(p.is_alive() for p in unfinished):
            try:
                msg = results.get(timeout=0.05)
                if msg[0] != "error":
                    take(msg)
            except queue.Empty:
                pass
            except KeyboardInterrupt:
                interrupted = True
        _drain(results, take)
    for p in procs:
        if p.pid is None:
            continue
        p.join(timeout=1.0)
        if p.is_alive():
            p.terminate()
            p.join(timeout=1.0)
        if p.is_alive():
            p.kill()
            p.join()
    results.close()
    results.join_thread()
    return interrupted


def _drain(results: Any, take: Callable[[tuple], None]) -> None:
    """Record every message still queued."""
    while True:
        try:
            msg = results.get(timeout=0.05)
        except (queue.Empty, OSError, EOFError, ValueError):
            return
        if msg[0] != "error":
            take(msg)


def _take(msg: tuple, run: _Run, reports: dict, pvs: dict, card_values: dict) -> None:
    """Record one worker report in `run`."""
    kind, wid = msg[0], msg[1]
    if kind == "done":
        reports[wid] = msg[2]
    elif kind == "move":
        _, _, cell, lo, hi, _exact, pv = msg
        info = run.moves[cell]
        info.lower, info.upper = max(info.lower, lo), min(info.upper, hi)
        if pv is not None:
            pvs[cell] = pv
    elif kind == "card":
        _, _, cell, card, value = msg
        card_values.setdefault(cell, {})[card] = value


def _assemble(run: _Run, tasks: list, reports: dict, pvs: dict, card_values: dict, stop: int,
              parent_nodes: int, parent_stats: dict, parent_table: dict, *, seconds: float, tt_mb: float,
              time_limit: float | None, node_limit: int | None, workers: int) -> Solution:
    """The Solution, built by the one-process code from what the workers proved."""
    eng, root = run.eng, run.root
    # face-down moves solved card by card: the move's value is the sum of its cards'
    pool = eng.pool_cards(root) if run.mode == "game" else []
    for cell, info in run.moves.items():
        if not (run.all_moves and eng.is_chance(root, cell)):
            continue
        known = card_values.get(cell, {})
        lo = hi = sum(known.values())
        for card in pool:
            if card not in known:
                clo, chi = eng.bounds(eng.child(root, cell, card))
                lo, hi = lo - chi, hi - clo
        info.lower, info.upper = max(info.lower, lo), min(info.upper, hi)
        if len(known) == len(pool):
            info.card_values = dict(known)
            info.estimate = info.lower
    infos = list(run.moves.values())
    # known before the workers (score bounds, also each move's, and the shallow pass): a
    # move proven better than that is the one the one-process search would name
    root_lower = max([run.lower] + [run._move_bounds(c)[0] for c in run.moves])
    if infos:
        run.lower = max(run.lower, max(i.lower for i in infos))
        run.upper = min(run.upper, max(i.upper for i in infos))
    exact = run.lower == run.upper
    if infos:
        # the move proving the root's lower bound: among equals, one with its line
        top = max(infos, key=lambda i: (i.lower, i.cell in pvs or eng.is_chance(root, i.cell)))
        if exact and run.all_moves:
            # the move the one-process solve prefers among equals: the first in move order
            run.best = max(infos, key=lambda i: i.lower).cell
        elif exact or (top.lower > root_lower and top.lower > run.pbest_lb
                       and (tasks or run.estimate is None or top.lower >= run.estimate)):
            # a worker proved this move better than what was known of the root (a stop
            # inside the parallel deepening: at least the estimate, see _solve_anytime)
            run.pbest, run.pbest_lb = top.cell, top.lower
            run.best = top.cell
        if exact:
            v = run.lower
            run.estimate = v
            if run.all_moves:
                for i in infos:
                    i.estimate = i.lower if i.lower == i.upper else i.estimate
            else:
                # the one-process solve's facts: the best move's value and "at most v" for
                # the others (what the workers proved beyond that depends on timing)
                for i in infos:
                    if i.cell == top.cell:
                        i.lower = i.upper = i.estimate = v
                    else:
                        i.lower, i.upper = run._move_bounds(i.cell)
                        i.upper = min(i.upper, v)
                        i.estimate = None
            if run.best in pvs:
                run.exact_pv = pvs[run.best]
            elif top.cell in pvs:
                run.exact_pv = pvs[top.cell]
            elif eng.is_chance(root, top.cell):
                run.exact_pv = [top.cell]
        else:
            for i in infos:
                if i.lower == i.upper:
                    i.estimate = i.lower
    small_stop = stop
    if exact and run.exact_pv is None and not small_stop:
        small_stop = _INTERRUPTED   # cannot happen: the worker that pinned the best value sends its line
    eng.stop = small_stop
    sol = run.solution(seconds=seconds, tt_mb=tt_mb, time_limit=time_limit, node_limit=node_limit)
    ws = [reports[w] for w in sorted(reports)]
    # the parent's table is freed before the workers allocate theirs: report theirs (the
    # parent's when none ran)
    tables = {k: sum(r[k] for r in ws) for k in parent_table} if ws else dict(parent_table)
    shared = any(r.get("table_shared") for r in ws)
    if shared:
        # one table for all the workers: counted once; its entries in use are those each
        # worker filled (an approximation: two workers can fill one slot at once)
        tables["table_bytes"] = ws[0]["table_bytes"]
        tables["table_entries"] = ws[0]["table_entries"]
        tables["table_used"] = min(tables["table_used"], tables["table_entries"])
    stats: dict[str, Any] = {}
    for key, val in parent_stats.items():
        if isinstance(val, int):
            stats[key] = val + sum(r["stats"].get(key, 0) for r in ws)
        elif isinstance(val, list):
            stats[key] = [x + sum(r["stats"][key][j] for r in ws) for j, x in enumerate(val)]
    stats.update({
        "score_cache_bytes": tables["score_cache_bytes"],
        "workers": workers,
        "table_shared": shared,
        "worker_nodes": [r["nodes"] for r in ws],
        "worker_seconds": [round(r["seconds"], 3) for r in ws],
        "worker_cpu_seconds": [round(r["cpu_seconds"], 3) for r in ws],
        "worker_tasks": [r["tasks"] for r in ws],
        "tasks": len(tasks),
        "parent_nodes": parent_nodes,
        **({"iterations": list(run.log)} if run.log else {}),
    })
    return replace(
        sol,
        nodes=parent_nodes + sum(r["nodes"] for r in ws),
        stopped=_solver._STOP_REASONS.get(stop),
        table_bytes=tables["table_bytes"],
        table_entries=tables["table_entries"],
        table_used=tables["table_used"],
        stats=stats,
    )
