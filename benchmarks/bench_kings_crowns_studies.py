"""King's Crowns studies: where a study's time goes, and games per second.

For each King's Crowns study at the given size (default: its ``--quick`` size) prints
the wall time, the time spent in simulations (``simulate`` through the executor), the
rest (tables, intervals, charts, headline), and games per second; then the baseline
measured in the same run: one plain ``simulate`` call of the same number of four-player
greedy games on the same executor (the cheapest games the studies play), and the ratio.

Usage: ``python benchmarks/bench_kings_crowns_studies.py [--games N] [--workers K]``.
Machines here are shared: run it more than once.
"""

from __future__ import annotations

import argparse
import importlib
import os
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

from crowns_solver.analysis import _kings_crowns_common as common
from crowns_solver.analysis import registry
from crowns_solver.kings_crowns import simulate

STUDIES = ("kings_crowns_seats", "kings_crowns_tournament", "kings_crowns_length", "kings_crowns_deck")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=None, help="size parameter (default: each study's quick size)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()

    spent = [0.0]
    real_play = common.play

    def timed_play(*a, **kw):
        t0 = time.perf_counter()
        try:
            return real_play(*a, **kw)
        finally:
            spent[0] += time.perf_counter() - t0

    studies = registry()
    pool = ThreadPoolExecutor(1) if args.workers == 1 else ProcessPoolExecutor(args.workers)
    print(f"King's Crowns studies, {args.workers} worker(s), {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f}")
    print(f"{'study':26s} {'size':>7s} {'games':>9s} {'wall s':>8s} {'sim s':>8s} {'rest s':>7s} "
          f"{'games/s':>9s} {'baseline games/s':>17s} {'ratio':>6s}")
    with pool:
        simulate(1000, players=4, policies="greedy", executor=pool, seed=0)  # start the workers
        for name in STUDIES:
            st = studies[name]
            size = args.games or st.quick_games
            spent[0] = 0.0
            module = importlib.import_module(st.module)
            module.play = timed_play
            try:
                t0 = time.perf_counter()
                result = st.run(size, 1, pool)
                wall = time.perf_counter() - t0
            finally:
                module.play = real_play
            t0 = time.perf_counter()
            simulate(result.games, players=4, policies="greedy", executor=pool, seed=1)
            base = result.games / (time.perf_counter() - t0)
            rate = result.games / wall
            print(f"{name:26s} {size:7d} {result.games:9d} {wall:8.1f} {spent[0]:8.1f} {wall - spent[0]:7.1f} "
                  f"{rate:9.0f} {base:17.0f} {rate / base:6.2f}")


if __name__ == "__main__":
    main()
