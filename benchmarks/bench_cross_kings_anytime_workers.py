"""Cross Kings anytime analysis over several worker processes: one process against
``workers=W`` at the same time (or node) limit, on positions too large to solve exactly.

For each position (fresh deals, where the four start cells are compared, and positions
of 28 and 30 cards reached by random play from the seeds of ``bench_cross_kings_solve.py``)
the script runs, in this order:

- **1P**: one process with the limit (the baseline, measured in the same run);
- **WP**: ``workers=W`` with the same limit (the heuristic iterations split over the
  workers);
- **1P x2**: one process with twice the limit (a reference for the quality of the move).

Printed per group: the median depth reached by each; the median "path" speed-up at the
deepest depth both 1P and WP completed: the one-process CPU seconds (and nodes) to
complete that depth over the parallel solve's longest chain of work to complete it
(the parent's share plus, per iteration, the busiest worker's; ``Solution.stats
["iterations"]``), which is the wall-clock speed-up W otherwise idle cores would give
(memory bandwidth aside), whatever the machine's load; the total nodes WP searched for
that depth over 1P's (the parallel overhead); how often WP (and 1P) recommends the
move 1P x2 recommends ("= x2"), and how often the move recommended is as good as 1P
x2's by 1P x2's own measure ("ok": worth at least as much as 1P x2's move in a plain
heuristic search to 1P x2's depth; equally rated moves are common, and which of them
a search names depends on its move order).

With ``--nodes N`` the limits are node limits instead, and WP gets W x N nodes in all
(N per process: the work W idle cores do in the time one does N), 1P x2 gets 2N: a
comparison that does not depend on the machine's load.

Wall-clock time measures the neighbours too on a shared machine: the script prints the
load average before and after, and the CPU seconds each solve got.

Examples::

    python benchmarks/bench_cross_kings_anytime_workers.py                      # 2 s, 5 positions per group
    python benchmarks/bench_cross_kings_anytime_workers.py --time-limit 10 --positions 3
    python benchmarks/bench_cross_kings_anytime_workers.py --nodes 5000000 --mode game
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from bench_cross_kings_solve import random_position

from crowns_solver import _ck_search
from crowns_solver.cross_kings import Position, solve
from crowns_solver.cross_kings.position import cell_index
from crowns_solver.cross_kings.solver import MODES, OBJECTIVES, _engine_input


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _positions(group: str, n: int, seed: int) -> list[Position]:
    if group == "deal":
        return [Position.random(seed + j) for j in range(n)]
    size = int(group)
    return [random_position(seed + 1000 * size + j, size) for j in range(n)]


def _as_good(pos: Position, args: argparse.Namespace, depth: int, move, reference) -> bool:
    """Whether `move` is worth at least as much as `reference` at `depth` plies of the
    heuristic search (fresh engine, the solver's evaluation): the reference analysis
    would rate it as good as its own choice."""
    if move == reference:
        return True
    cards, root = _engine_input(pos, args.mode)
    eng = _ck_search.Engine(cards, 0 if args.mode == "open" else 1, 0 if args.objective == "margin" else 1,
                            0 if pos.reach == "any" else 1, int(args.tt_mb) << 20)
    inf = _ck_search.INF_VALUE
    ref, _ = eng.search_move(root, cell_index(reference), depth, -inf, inf)
    v, _ = eng.search_move(root, cell_index(move), depth, ref - 1, ref)
    return v >= ref


def _run(pos: Position, args: argparse.Namespace, workers: int, scale: int):
    limit = ({"node_limit": args.nodes * scale} if args.nodes else {"time_limit": args.time_limit * scale})
    t, c = time.perf_counter(), time.process_time()
    sol = solve(pos, mode=args.mode, objective=args.objective, tt_mb=args.tt_mb, workers=workers, **limit)
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    if workers > 1:
        cpu += sum(sol.stats.get("worker_cpu_seconds") or [0.0])
    return sol, wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--groups", nargs="+", default=["deal", "28", "30"],
                    help="'deal' (fresh deals) or a number of cards left (default deal 28 30)")
    ap.add_argument("--mode", choices=MODES, default="open")
    ap.add_argument("--objective", choices=OBJECTIVES, default="margin")
    ap.add_argument("--positions", type=int, default=5, help="positions per group (default 5)")
    ap.add_argument("--workers", type=int, default=2, help="worker processes W (default 2)")
    ap.add_argument("--time-limit", type=float, default=2.0, help="seconds per solve (default 2)")
    ap.add_argument("--nodes", type=int, default=None, help="node limit per process instead of a time limit")
    ap.add_argument("--tt-mb", type=float, default=64, help="memory in MB, shared out over the workers (default 64)")
    ap.add_argument("--seed", type=int, default=2024, help="first seed (default 2024, as bench_cross_kings_solve)")
    args = ap.parse_args()
    W = args.workers
    limit = f"node limit {args.nodes:,} per process" if args.nodes else f"time limit {args.time_limit:g} s"
    print(f"{args.mode} mode, objective {args.objective}, {limit}, W = {W}, {args.positions} positions per group,"
          f" table {args.tt_mb:g} MB in all, seeds from {args.seed}; {os.cpu_count()} cores;"
          f" load average (1, 5, 15 min) before: {_load()}")
    print(f"{'group':>5} {'depth 1P':>8} {f'{W}P':>4} {'1P x2':>5} {'at d':>5} {'cpu path':>8} {'node path':>9}"
          f" {'nodes':>6} {f'{W}P = x2':>7} {'1P = x2':>7} {f'{W}P ok':>6} {'1P ok':>6} {'cpu 1P':>7} {f'cpu {W}P':>7}")
    for group in args.groups:
        depth1, depthw, depth2, at, cpu_path, node_path, overhead = [], [], [], [], [], [], []
        same_w = same_1 = good_w = good_1 = 0
        cpu1, cpuw = [], []
        for pos in _positions(group, args.positions, args.seed):
            one, _, c1 = _run(pos, args, 1, 1)
            par, _, cw = _run(pos, args, W, W if args.nodes else 1)
            two, _, _ = _run(pos, args, 1, 2)
            depth1.append(one.depth or 0)
            depthw.append(par.depth or 0)
            depth2.append(two.depth or 0)
            cpu1.append(c1)
            cpuw.append(cw)
            same_w += par.best_move == two.best_move
            same_1 += one.best_move == two.best_move
            good_w += _as_good(pos, args, two.depth, par.best_move, two.best_move)
            good_1 += _as_good(pos, args, two.depth, one.best_move, two.best_move)
            log1 = {e["depth"]: e for e in one.stats.get("iterations", [])}
            logw = {e["depth"]: e for e in par.stats.get("iterations", [])}
            common = [d for d in log1 if d in logw]
            if common:
                d = max(common)
                at.append(d)
                cpu_path.append(log1[d]["path_cpu_seconds"] / max(logw[d]["path_cpu_seconds"], 1e-9))
                node_path.append(log1[d]["nodes"] / max(logw[d]["path_nodes"], 1))
                overhead.append(logw[d]["nodes"] / max(log1[d]["nodes"], 1))
        med = statistics.median
        n = args.positions
        print(f"{group:>5} {med(depth1):>8g} {med(depthw):>4g} {med(depth2):>5g} {med(at):>5g}"
              f" {med(cpu_path):>7.2f}x {med(node_path):>8.2f}x {med(overhead):>5.2f}x"
              f" {f'{same_w}/{n}':>7} {f'{same_1}/{n}':>7} {f'{good_w}/{n}':>6} {f'{good_1}/{n}':>6}"
              f" {med(cpu1):>7.2f} {med(cpuw):>7.2f}", flush=True)
    print(f"load average after: {_load()}")


if __name__ == "__main__":
    main()
