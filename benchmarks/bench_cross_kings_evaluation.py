"""Cross Kings horizon evaluations: the fitted one against the earlier potential count.

Prints, for the search player at several node limits, a duplicate match (each deal twice,
seats exchanged) of the player with the fitted evaluation (A, the default) against the same
player with the potential evaluation (B, the baseline): A's score per game (win 1, draw
1/2) and the mean margin, each with its 95% interval over deals (a deal's two games are
one observation), time per move of each and the ratio A / B (the fitted evaluation costs a little more per
horizon node; both players search the same number of nodes).

Then the speed of a horizon-bound search: node-limited game-value solves of whole deals
(every leaf of the deepening is a horizon node), nodes per second with each evaluation.

    python benchmarks/bench_cross_kings_evaluation.py [--deals 100] [--nodes 20000 100000] [--workers 1]
"""

from __future__ import annotations

import argparse
import time

from crowns_solver.cross_kings import Deal, solve
from crowns_solver.cross_kings.match import match


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--nodes", type=int, nargs="+", default=[20_000, 100_000])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1, help="1 (default) measures time per move on one core")
    ap.add_argument("--speed-deals", type=int, default=20, help="whole deals for the nodes/s figures")
    args = ap.parse_args()

    print(f"search (fitted evaluation, A) vs search (potential, B), {args.deals} deals x 2 games, seed {args.seed}")
    print(f"{'nodes':>8} {'W':>4} {'D':>4} {'L':>4} {'score':>7} {'95% CI':>15} {'margin':>7} {'95% CI':>17}"
          f" {'ms/move A':>10} {'ms/move B':>10} {'ratio':>6} {'wall s':>7}")
    for nodes in args.nodes:
        t0 = time.perf_counter()
        res = match("search", "search", args.deals, seed=args.seed, a_options={"node_limit": nodes},
                    b_options={"node_limit": nodes, "evaluation": "potential"}, workers=args.workers)
        s = res.summary
        wins = round(s["win"] * s["games"])
        draws = round(s["draw"] * s["games"])
        ma, mb = 1000 * s["seconds_per_move_a"], 1000 * s["seconds_per_move_b"]
        print(f"{nodes:>8,} {wins:>4} {draws:>4} {s['games'] - wins - draws:>4} {s['score']:>7.3f}"
              f" {s['score_low']:>7.3f}-{s['score_high']:.3f} {s['margin']:>+7.2f}"
              f" {s['margin_low']:>+8.2f}..{s['margin_high']:+.2f} {ma:>10.2f} {mb:>10.2f} {ma / mb:>6.2f}"
              f" {time.perf_counter() - t0:>7.1f}", flush=True)

    print(f"\nhorizon-bound search: game value of {args.speed_deals} whole deals, 200,000 nodes each, one core")
    for ev in ("potential", "fitted"):
        nodes = 0
        c0 = time.process_time()
        for d in range(args.speed_deals):
            nodes += solve(Deal.random(1000 + d), mode="game", node_limit=200_000, tt_mb=16, evaluation=ev).nodes
        dt = time.process_time() - c0
        print(f"  {ev:>9}: {nodes:,} nodes in {dt:.2f} s CPU, {nodes / dt:,.0f} nodes/s")


if __name__ == "__main__":
    main()
