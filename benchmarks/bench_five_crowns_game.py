"""Five Crowns full games per second, one core: the compiled game loop against the
Python engine (the old path, measured in the same run as the baseline).

Plays full 11-round, 4-player games with ``play_game`` (seeds 0, 1, 2...) for 4 greedy,
4 advisor and 4 tracker players, once with ``engine="compiled"`` (the default for built-in
players) and once with ``engine="python"``, and prints games/s, turns/s, mean turns per
game and the speed-up.  Both engines play the very same games (same seeds, same records),
so the turns per game agree.  Goal (issue 5): at least 200 greedy 4-player games per
second per core.

Machines here are shared and noisy: the figures are the best of ``--repeat`` runs of
each measurement (the least disturbed one); run it more than once.  ``games/cpu-s``
counts this process's CPU time only (one core, whatever else the machine is running),
``games/s`` wall time; the goal and the ratios use CPU time.
"""

from __future__ import annotations

import argparse
import time

from crowns_solver.five_crowns.game import GameRules, play_game


def measure(policy: str, games: int, engine: str, repeat: int, players: int = 4) -> tuple[float, float, float]:
    """(games per second of wall time, games per CPU second of this process, turns per
    game), each the best of `repeat` runs over seeds 0.."""
    rules = GameRules(players=players)
    best = best_cpu = 0.0
    turns = 0
    for _ in range(repeat):
        turns = 0
        t0, c0 = time.perf_counter(), time.process_time()
        for seed in range(games):
            result = play_game([policy] * players, seed=seed, rules=rules, engine=engine)
            turns += sum(r.turns for r in result.rounds)
        best = max(best, games / (time.perf_counter() - t0))
        best_cpu = max(best_cpu, games / (time.process_time() - c0))
    return best, best_cpu, turns / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="greedy games per measurement (default 200)")
    ap.add_argument("--advisor-games", type=int, default=20, help="advisor games per measurement (default 20)")
    ap.add_argument("--tracker-games", type=int, default=10, help="tracker games per measurement (default 10)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each measurement; the best counts (default 3)")
    args = ap.parse_args()
    play_game(["advisor"] * 4, seed=10**6)  # build the meld tables of both modules first
    play_game(["greedy"] * 4, seed=10**6, engine="python")
    rows = []
    for policy, games in (("greedy", args.games), ("advisor", args.advisor_games), ("tracker", args.tracker_games)):
        for engine in ("compiled", "python"):
            gps, cps, tpg = measure(policy, games, engine, args.repeat)
            rows.append((policy, engine, gps, cps, tpg))
    print(f"{'4 players, engine':<26} {'games/s':>9} {'games/cpu-s':>12} {'turns/game':>11} {'turns/cpu-s':>12}")
    for policy, engine, gps, cps, tpg in rows:
        label = f"4 {policy}, {engine}" + (" (baseline)" if engine == "python" else "")
        print(f"{label:<26} {gps:>9.1f} {cps:>12.1f} {tpg:>11.1f} {cps * tpg:>12.0f}")
    speed = {(p, e): c for p, e, _g, c, _t in rows}
    for policy in ("greedy", "advisor", "tracker"):
        print(f"{policy}: compiled vs python (games per CPU second): "
              f"{speed[policy, 'compiled'] / speed[policy, 'python']:.2f}x")
    greedy = speed["greedy", "compiled"]
    print(f"goal 200 greedy 4-player games/s per core (CPU time): {'met' if greedy >= 200 else 'not met'} ({greedy:.0f})")

if __name__ == "__main__":
    main()
