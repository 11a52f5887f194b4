"""Cross Kings solver over several worker processes: wall-clock speed-up of ``workers=W``.

The same positions as ``bench_cross_kings_solve.py`` (random play from seeded random
deals until N cards are left).  Each position is solved exactly with ``workers=1`` (the
baseline: the one-process solve, measured in the same run) and with each ``--workers``
count, both with ``all_moves=False`` (value and one best move) and ``all_moves=True``
(every move's exact value), in alternation so that a change in the machine's load hits
both alike.  The values found are checked to be the same.  Printed per size and
``all_moves``: the median wall-clock seconds of each, the ratio of total seconds (the
speed-up), the median per-position ratio, and the nodes searched in all (the parallel
search visits more: a move is sometimes tested against a bound that later rises, and
the workers search at once what one process would have found in its table; since
``parallel.SHARED_TABLE`` the workers share one table, which recovers part of that).

Wall-clock time measures the neighbours too on a shared machine: the script prints the
load average (``os.getloadavg``) before and after, and the number of cores.  A speed-up
near W needs W idle cores.  So it also prints the "CPU critical path" speed-up: the
one-process solve's CPU seconds over the parallel solve's longest chain of CPU work (the
parent's CPU seconds plus the busiest worker's), which is what the wall-clock speed-up
would be on W otherwise idle cores (memory bandwidth aside), whatever the load.

Examples::

    python benchmarks/bench_cross_kings_workers.py                       # 24 and 26 cards, about 5 minutes
    python benchmarks/bench_cross_kings_workers.py --sizes 22 --positions 9 --workers 2 4
    python benchmarks/bench_cross_kings_workers.py --mode game --sizes 16 18
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from bench_cross_kings_solve import random_position

from crowns_solver.cross_kings import solve
from crowns_solver.cross_kings.solver import MODES, OBJECTIVES


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[24, 26], help="cards left (default 24 26)")
    ap.add_argument("--mode", choices=MODES, default="open")
    ap.add_argument("--objective", choices=OBJECTIVES, default="margin")
    ap.add_argument("--positions", type=int, default=3, help="positions per size (default 3)")
    ap.add_argument("--workers", type=int, nargs="+", default=[2], help="worker counts to compare with 1 (default 2)")
    ap.add_argument("--tt-mb", type=float, default=256, help="memory in MB, shared out over the workers (default 256)")
    ap.add_argument("--seed", type=int, default=2024, help="first deal's seed (default 2024, as bench_cross_kings_solve)")
    ap.add_argument("--all-moves", choices=("both", "no", "yes"), default="both")
    args = ap.parse_args()

    flags = {"both": (False, True), "no": (False,), "yes": (True,)}[args.all_moves]
    print(f"{args.mode} mode, objective {args.objective}, {args.positions} positions per size, table"
          f" {args.tt_mb:g} MB in all, seeds from {args.seed}; {os.cpu_count()} cores;"
          f" load average (1, 5, 15 min) before: {_load()}")
    head = (f"{'cards':>5} {'all_moves':>9} {'W':>2} {'med s W=1':>9} {'med s':>8} {'speed-up':>8}"
            f" {'med ratio':>9} {'cpu path':>8} {'nodes W=1':>13} {'nodes':>13}")
    print(head)
    for size in args.sizes:
        for all_moves in flags:
            one_s: list[float] = []
            one_cpu = 0.0
            par_cpu = {w: 0.0 for w in args.workers}
            one_n = 0
            par: dict[int, list[float]] = {w: [] for w in args.workers}
            par_n = {w: 0 for w in args.workers}
            for j in range(args.positions):
                pos = random_position(args.seed + 1000 * size + j, size)
                t, c = time.perf_counter(), time.process_time()
                ref = solve(pos, mode=args.mode, objective=args.objective, all_moves=all_moves, tt_mb=args.tt_mb)
                one_s.append(time.perf_counter() - t)
                one_cpu += time.process_time() - c
                one_n += ref.nodes
                for w in args.workers:
                    t, c = time.perf_counter(), time.process_time()
                    sol = solve(pos, mode=args.mode, objective=args.objective, all_moves=all_moves,
                                tt_mb=args.tt_mb, workers=w)
                    par[w].append(time.perf_counter() - t)
                    par_cpu[w] += time.process_time() - c + max(sol.stats.get("worker_cpu_seconds") or [0.0])
                    par_n[w] += sol.nodes
                    assert sol.exact and sol.value == ref.value, (size, j, w)
                    if all_moves:
                        assert sol.move_values == ref.move_values, (size, j, w)
            for w in args.workers:
                ratios = [a / b for a, b in zip(one_s, par[w])]
                print(f"{size:>5} {str(all_moves):>9} {w:>2} {statistics.median(one_s):>9.2f}"
                      f" {statistics.median(par[w]):>8.2f} {sum(one_s) / sum(par[w]):>7.2f}x"
                      f" {statistics.median(ratios):>8.2f}x {one_cpu / par_cpu[w]:>7.2f}x {one_n:>13,}"
                      f" {par_n[w]:>13,}", flush=True)
    print(f"load average after: {_load()}")


if __name__ == "__main__":
    main()
