"""Five Crowns full games per second: 4 greedy players and 4 advisor players, one core.

Plays full 11-round, 4-player games with ``play_game`` (seeds 0, 1, 2...) and prints
games/s, turns/s and the mean turns per game.  Baseline, measured in the same run: the
same greedy games with the engine's kept-deadwood step done the simple way (one call of
the single-hand ``deadwood`` per card) instead of the meld solver's batch form.
Goal (issue 5): at least 200 greedy 4-player games per second per core.

Machines here are shared and noisy: run it more than once.
"""

from __future__ import annotations

import argparse
import time

from crowns_solver.five_crowns import game as game_mod
from crowns_solver.five_crowns.game import GameRules, play_game


def run(policy: str, games: int, players: int = 4) -> tuple[float, float]:
    rules = GameRules(players=players)
    turns = 0
    t0 = time.perf_counter()
    for seed in range(games):
        result = play_game([policy] * players, seed=seed, rules=rules)
        turns += sum(r.turns for r in result.rounds)
    dt = time.perf_counter() - t0
    return games / dt, turns / games


def naive_kept(hand, wild_rank, all_wild_melds=True):
    """Kept deadwoods the simple way: the public, validating deadwood() once per card."""
    from crowns_solver.five_crowns import deadwood

    hand = list(hand)
    return [deadwood(hand[:i] + hand[i + 1:], wild_rank) for i in range(len(hand))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200, help="greedy games per measurement")
    ap.add_argument("--advisor-games", type=int, default=20, help="advisor games")
    args = ap.parse_args()
    print(f"{'players':<22} {'games/s':>9} {'turns/game':>11} {'turns/s':>9}")
    rows = []
    g, tg = run("greedy", args.games)
    rows.append(("4 greedy", g, tg))
    fast = game_mod.kept_deadwoods
    game_mod.kept_deadwoods = naive_kept
    try:
        import crowns_solver.five_crowns.players as players_mod

        players_mod.kept_deadwoods = naive_kept
        b, tb = run("greedy", max(10, args.games // 4))
    finally:
        game_mod.kept_deadwoods = fast
        players_mod.kept_deadwoods = fast
    rows.append(("4 greedy, baseline", b, tb))
    a, ta = run("advisor", args.advisor_games)
    rows.append(("4 advisor", a, ta))
    for name, gps, tpg in rows:
        print(f"{name:<22} {gps:>9.1f} {tpg:>11.1f} {gps * tpg:>9.0f}")
    print(f"greedy vs baseline (turns/s): {g * tg / (b * tb):.2f}x; goal 200 greedy games/s: {'met' if g >= 200 else 'not met'}")


if __name__ == "__main__":
    main()
