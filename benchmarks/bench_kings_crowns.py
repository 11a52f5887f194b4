"""King's Crowns simulation speed: four-player games per second.

Prints, for 4 random and 4 greedy players (and one lookahead player against 3
aggressive ones):
- games/s on one core on the compiled fast path (``_kc_engine.play_games``, whole games
  in C with the GIL released), each game seeded on its own as ``simulate`` seeds it
  (``SeedSequence([seed, g])``, its PCG64 set up in C); the column "one stream" is the
  same games' rate when all draw from one generator (the seeding before session 18), so
  the difference is the cost of per-game seeding,
- the baseline measured in the same run: the same games played move by move through the
  Python ``Game``/``SeatView`` API with the same built-in players (the path custom Python
  players use), and the speed-up,
- the scaling of ``simulate`` (the shared Monte Carlo runner) with 1 and 2 worker
  processes.

Goal (issue 6): >= 2,000 four-player games/s per core for random and greedy players,
near-linear scaling with workers.  Machines here are shared: run it more than once.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from crowns_solver import _kc_engine
from crowns_solver.kings_crowns import Game, Rules, get_policy, simulate


def fast(policy: str, games: int, seed: int, la=(64, 20, 2), others: str | None = None,
         one_stream: bool = False) -> tuple[float, float]:
    rules = Rules()
    deck = np.asarray(rules.deck.counts, dtype=np.int32)
    ids = [_kc_engine.POLICY_IDS[policy]] + [_kc_engine.POLICY_IDS[others or policy]] * 3
    seat = np.tile(np.array(ids, dtype=np.int8), (games, 1))
    winner = np.zeros(games, np.int8)
    turns = np.zeros(games, np.int32)
    scores = np.zeros((games, 4), np.int16)
    resh = np.zeros(games, np.int32)
    t0 = time.perf_counter()
    if one_stream:
        gen = np.random.Generator(np.random.PCG64(seed))
        _kc_engine.play_games(games, deck, 4, 100, rules.max_turns, seat, gen, la, winner, turns, scores, resh)
    else:  # as play_chunk does: the root seed's words, each game seeded from them and its number
        root = np.array([seed], dtype=np.uint32)
        _kc_engine.play_games(games, deck, 4, 100, rules.max_turns, seat, None, la, winner, turns, scores, resh,
                              root=root, first_game=0)
    dt = time.perf_counter() - t0
    return games / dt, float(turns.mean())


def baseline(policy: str, games: int, seed: int) -> float:
    pols = [get_policy(policy)] * 4
    t0 = time.perf_counter()
    for g in range(games):  # each game seeded on its own, as play_chunk's Game path does
        Game(4, seed=np.random.SeedSequence([seed, g])).play_out(pols)
    return games / (time.perf_counter() - t0)


def _burn(n: int) -> int:
    x = 0
    for i in range(n):
        x += i
    return x


def machine_speedup(n: int = 10_000_000) -> float:
    """Control: speed-up of 2 processes over 1 on a plain CPU loop, measured now.  On an
    idle 2-core machine it is about 2; when other work holds a core it drops toward 1,
    and the runner's scaling cannot be better than this."""
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(2) as pool:
        pool.submit(int, 0).result()
        t0 = time.perf_counter()
        pool.submit(_burn, 2 * n).result()
        one = time.perf_counter() - t0
        t0 = time.perf_counter()
        list(pool.map(_burn, [n, n]))
        two = time.perf_counter() - t0
    return one / two


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20000, help="games per fast-path measurement")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(f"King's Crowns, 4 players, default deck; cores visible: {os.cpu_count()}")
    print(f"{'players':<22} {'games/s (1 core)':>17} {'one stream':>11} {'turns/game':>11} {'baseline games/s':>17}"
          f" {'speed-up':>9}")
    for policy in ("random", "greedy", "aggressive", "defensive"):
        rate, turns = fast(policy, args.games, args.seed)
        single, _ = fast(policy, args.games, args.seed, one_stream=True)
        nb = max(5, args.games // (2000 if policy == "random" else 400))
        base = baseline(policy, nb, args.seed)
        print(f"{'4 x ' + policy:<22} {rate:>17,.0f} {single:>11,.0f} {turns:>11.1f} {base:>17,.1f} {rate / base:>8.0f}x")
    rate, turns = fast("lookahead", 50, args.seed, others="aggressive")
    print(f"{'lookahead + 3 aggr.':<22} {rate:>17,.1f} {'-':>11} {turns:>11.1f} {'-':>17} {'-':>9}")
    print()
    # scaling: random players (the slowest simple player, ~600 turns a game), so each
    # chunk of 1000 games is ~0.1 s of work and pool start-up does not dominate
    print("scaling of simulate() (4 x random, chunks of 1000, pool start-up included):")
    n = 2 * args.games
    simulate(1000, policies="random", workers=1)  # warm up imports
    times = {}
    for workers in (1, 2):
        t0 = time.perf_counter()
        simulate(n, policies="random", workers=workers, seed=args.seed)
        times[workers] = time.perf_counter() - t0
        print(f"  {workers} worker{'s' if workers > 1 else ' '}: {n / times[workers]:>10,.0f} games/s"
              f"  ({times[workers]:.2f} s for {n} games)")
    print(f"  speed-up with 2 workers: {times[1] / times[2]:.2f}x (ideal 2.00x)")
    m = machine_speedup()
    print(f"  control, same run: 2 processes of a plain CPU loop ran {m:.2f}x faster than 1"
          f" (what the machine offered now); runner efficiency {times[1] / times[2] / m:.0%} of that")


if __name__ == "__main__":
    main()
