"""Cross Kings players: the search player against greedy, and time per move.

Prints, for the search player at several node limits against the greedy player (the
baseline), over the same seeded deals in duplicate format (each deal twice, seats
exchanged):
- the search player's wins / draws / losses, score (win 1, draw 1/2) and mean margin,
  each with its 95% interval over deals (a deal's two games are one observation),
- average time per move of each player (ms) and the ratio search / greedy,
- moves per second of each player.

Node limits make the games themselves reproducible; only the times depend on the machine
(shared and noisy here: run it more than once).

    python benchmarks/bench_cross_kings_players.py [--deals 20] [--nodes 20000 100000 300000] [--workers 1]
"""

from __future__ import annotations

import argparse
import time

from crowns_solver.cross_kings.match import match


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--nodes", type=int, nargs="+", default=[20_000, 100_000, 300_000])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1, help="1 (default) measures time per move on one core")
    args = ap.parse_args()

    print(f"search vs greedy, {args.deals} deals x 2 games (duplicate), seed {args.seed}, workers {args.workers}")
    head = (f"{'search nodes':>12} {'W':>4} {'D':>4} {'L':>4} {'score':>7} {'95% CI':>15} {'margin':>7}"
            f" {'95% CI':>15} {'ms/move search':>15} {'ms/move greedy':>15} {'ratio':>7} {'wall s':>7}")
    print(head)
    for nodes in args.nodes:
        t0 = time.perf_counter()
        res = match("search", "greedy", args.deals, seed=args.seed, a_options={"node_limit": nodes},
                    workers=args.workers)
        wall = time.perf_counter() - t0
        s = res.summary
        ms_a, ms_b = 1000 * s["seconds_per_move_a"], 1000 * s["seconds_per_move_b"]
        print(f"{nodes:>12,} {s['wins']:>4} {s['draws']:>4} {s['losses']:>4} {s['score']:>7.1%}"
              f" {s['score_low']:>7.1%}-{s['score_high']:<7.1%} {s['margin']:>+7.2f}"
              f" {s['margin_low']:>+7.2f}..{s['margin_high']:<+6.2f} {ms_a:>15.2f} {ms_b:>15.3f}"
              f" {ms_a / ms_b:>7.0f} {wall:>7.1f}")
    print("(ratio: search time per move / greedy time per move, both measured in this run;"
          f" greedy plays {1000 / ms_b:,.0f} moves/s)")


if __name__ == "__main__":
    main()
