"""Cross Kings solver speed: seconds and nodes to solve positions exactly, and the frontier.

Positions are reached by random play from seeded random deals until N cards are left on
the grid (the same positions for both modes; game mode does not look at face-down
cards).  Each is solved exactly by :func:`crowns_solver.cross_kings.solve` (one core:
the search is single-threaded) with a wall-clock cap of ``--cap`` seconds; a position
not solved within the cap counts as slower than every solved one.  For each size and
mode the script prints the median and max CPU seconds of the solve (the time one core
spends; on a shared machine wall-clock time also measures the neighbours, so the median
wall-clock time is printed beside it), median and max nodes, and nodes per CPU second,
then "the frontier": the largest number of cards left at which the median position is
solved exactly within 10 s of CPU time.  Once a size's median exceeds 10 s, larger sizes
of that mode are skipped.

Baseline, measured in the same run on the sizes given by ``--baseline-sizes``: plain
alpha-beta compiled from the same core (full window, moves in cell order, no table, no
history, no MTD(f); in game mode also no Star1/Star2: every card searched with the full
window).  The ratio is the baseline's CPU time over the solver's on the same positions
(CPU time, because wall-clock time on a shared machine measures the neighbours too).

The machine these figures come from is shared and noisy: run the script more than once.

Examples::

    python benchmarks/bench_cross_kings_solve.py                      # default: about 10 minutes
    python benchmarks/bench_cross_kings_solve.py --positions 9 --cap 120 --sizes 24 26 28
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from crowns_solver import _ck_search
from crowns_solver.cross_kings import Position, solve
from crowns_solver.cross_kings.position import REACHES
from crowns_solver.cross_kings.solver import MODES, OBJECTIVES, _engine_input

FRONTIER_SECONDS = 10.0


def random_position(seed: int, left: int, reach: str = "any") -> Position:
    """The position with `left` cards on the grid reached by seeded random play."""
    rng = np.random.default_rng(seed)
    pos = Position.random(rng, reach)
    while pos.cards_left > left or pos.marker is None:
        moves = pos.legal_moves()
        if not moves:  # this game ended early: use the next seed
            return random_position(seed + 100_003, left, reach)
        pos = pos.play(moves[int(rng.integers(len(moves)))])
    return pos


def baseline(pos: Position, mode: str, objective: str, cap: float) -> tuple[float | None, int, int]:
    """Plain alpha-beta (no table, no ordering, no MTD(f), no PVS, no Star1/2 or split): (CPU seconds or None, nodes, value)."""
    cards, root = _engine_input(pos, mode)
    eng = _ck_search.Engine(cards, 0 if mode == "open" else 1, 0 if objective == "margin" else 1,
                            0 if pos.reach == "any" else 1, 1 << 20)
    eng.ordering = 0
    eng.history_on = 0
    eng.tt_min_cards = 99
    eng.prefetch = 0
    eng.star2 = 0
    eng.star1 = 0
    eng.split = 0   # no null-window split at chance nodes, no principal variation search
    eng.pvs = 0
    eng.bound_cards = 0
    eng.set_limits(_ck_search.monotonic() + cap, 0)
    t0 = time.process_time()
    v, _, _ = eng.search(root, 99, -_ck_search.INF_VALUE, _ck_search.INF_VALUE)
    dt = time.process_time() - t0
    return (None if eng.stop else dt), eng.nodes, v


def fmt_s(x: float | None, cap: float) -> str:
    return f">{cap:g}" if x is None else f"{x:.3f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[14, 16, 18, 20, 22, 24, 26, 28],
                    help="cards left (default 14 16 18 20 22 24 26 28)")
    ap.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    ap.add_argument("--objective", choices=OBJECTIVES, default="margin")
    ap.add_argument("--reach", choices=REACHES, default="any")
    ap.add_argument("--positions", type=int, default=5, help="positions per size (default 5)")
    ap.add_argument("--cap", type=float, default=40.0,
                    help="wall-clock seconds allowed per position (default 40)")
    ap.add_argument("--tt-mb", type=float, default=256, help="table size in MB (default 256)")
    ap.add_argument("--seed", type=int, default=2024, help="first deal's seed (default 2024)")
    ap.add_argument("--baseline-sizes", type=int, nargs="*", default=[18, 22],
                    help="sizes on which to run the plain alpha-beta baseline too (default 18 22)")
    ap.add_argument("--baseline-cap", type=float, default=60.0, help="seconds allowed per baseline run")
    args = ap.parse_args()

    print(f"objective {args.objective}, reach {args.reach}, {args.positions} positions per size, cap"
          f" {args.cap:g} s, table {args.tt_mb:g} MB, seeds from {args.seed}; one core")
    head = (f"{'mode':>5} {'cards':>5} {'solved':>6} {'med cpu':>8} {'max cpu':>8} {'med wall':>8} {'med nodes':>12}"
            f" {'max nodes':>12} {'nodes/s':>10} {'base cpu':>8} {'base n/s':>10} {'speedup':>8}")
    frontier: dict[str, int | None] = {}
    for mode in args.modes:
        print()
        print(head)
        frontier[mode] = None
        for size in sorted(args.sizes):
            secs: list[float | None] = []
            cpus: list[float] = []
            nodes: list[int] = []
            total_nodes = 0
            total_cpu = 0.0
            base_t: list[float | None] = []
            base_n = 0
            base_time = 0.0
            mine_on_base = 0.0
            for j in range(args.positions):
                pos = random_position(args.seed + 1000 * size + j, size, args.reach)
                c0 = time.process_time()
                sol = solve(pos, mode=mode, objective=args.objective, tt_mb=args.tt_mb, time_limit=args.cap)
                cpu = time.process_time() - c0
                secs.append(cpu if sol.exact else None)
                cpus.append(sol.seconds)
                nodes.append(sol.nodes)
                total_nodes += sol.nodes
                total_cpu += cpu
                if size in args.baseline_sizes and sol.exact:
                    bt, bn, bv = baseline(pos, mode, args.objective, args.baseline_cap)
                    base_t.append(bt)
                    if bt is not None:
                        base_n += bn
                        base_time += bt
                        mine_on_base += cpu
                        scale = _ck_search.Engine(*_engine_args(pos, mode, args.objective)).scale(_engine_input(pos, mode)[1])
                        want = sol.value * scale if args.objective == "margin" else (2 * sol.value - 1) * scale
                        assert bv == want, (size, j, bv, want)
            solved = sum(1 for x in secs if x is not None)
            ordered = sorted(secs, key=lambda x: float("inf") if x is None else x)
            med = ordered[(len(ordered) - 1) // 2] if len(ordered) % 2 else (
                None if ordered[len(ordered) // 2] is None else
                (ordered[len(ordered) // 2 - 1] + ordered[len(ordered) // 2]) / 2)
            mx = None if solved < len(secs) else max(x for x in secs if x is not None)
            rate = total_nodes / total_cpu if total_cpu > 0 else 0.0
            if base_t:
                done = [x for x in base_t if x is not None]
                base_s = fmt_s(statistics.median(done) if len(done) == len(base_t) else None, args.baseline_cap)
                base_rate = f"{base_n / base_time:,.0f}" if base_time > 0 else "-"
                speed = f"{base_time / mine_on_base:.1f}x" if mine_on_base > 0 and len(done) == len(base_t) else "-"
            else:
                base_s = base_rate = speed = "-"
            print(f"{mode:>5} {size:>5} {solved:>3}/{len(secs):<2} {fmt_s(med, args.cap):>8} {fmt_s(mx, args.cap):>8}"
                  f" {statistics.median(cpus):>8.2f} {int(statistics.median(nodes)):>12,} {max(nodes):>12,}"
                  f" {rate:>10,.0f} {base_s:>8} {base_rate:>10} {speed:>8}", flush=True)
            if med is not None and med <= FRONTIER_SECONDS:
                frontier[mode] = size
            if med is None or med > FRONTIER_SECONDS:
                print(f"{'':>5} (median above {FRONTIER_SECONDS:g} s: larger sizes skipped)")
                break
    print()
    for mode, size in frontier.items():
        where = f"{size} cards left" if size is not None else "below the smallest size tried"
        print(f"frontier ({mode} mode, median position solved exactly within {FRONTIER_SECONDS:g} s"
              f" of CPU time): {where}")


def _engine_args(pos: Position, mode: str, objective: str) -> tuple:
    cards, _ = _engine_input(pos, mode)
    return (cards, 0 if mode == "open" else 1, 0 if objective == "margin" else 1,
            0 if pos.reach == "any" else 1, 1 << 16)


if __name__ == "__main__":
    main()
