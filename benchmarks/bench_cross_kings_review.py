"""Cross Kings game analysis speed: moves analysed per second, and how many exactly.

Games are played between two greedy players (:mod:`crowns_solver.cross_kings.players`)
from seeded random deals, started at (2, 2) so each is a crosskings.net save string.
Each whole game is then analysed by :func:`crowns_solver.cross_kings.review.analyse_game`
with ``--time`` seconds per move (what ``crowns cross-kings analyse`` does): the script
prints seconds per game (wall clock and CPU), moves analysed per second, and the share of
moves valued exactly by how many cards were left before the move.

Baseline, measured in the same run: the last moves of each game (at most ``--tail-cards``
cards left before the move) are analysed exactly twice, by ``analyse_game`` without a
limit and by the plain expectiminimax of ``tests/ck_oracle.py`` (written literally from
RULES.md: no pruning, no table, exact fractions); the script checks they agree on every
value and prints both speeds and the ratio.

The machine these figures come from is shared and noisy: run the script more than once.

Examples::

    python benchmarks/bench_cross_kings_review.py                  # about 2 minutes
    python benchmarks/bench_cross_kings_review.py --tail-cards 12  # the baseline takes minutes
    python benchmarks/bench_cross_kings_review.py --games 6 --time 2
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from crowns_solver.cross_kings import Position, cell_index
from crowns_solver.cross_kings.players import make_player, seat_view
from crowns_solver.cross_kings.review import analyse_game, replay

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from ck_oracle import solve_plain  # noqa: E402

BUCKETS = ((27, 36), (19, 26), (13, 18), (0, 12))


def greedy_game(seed: int) -> Position:
    """A whole game between two greedy players from a seeded deal, started at (2, 2)."""
    rng = np.random.default_rng(seed)
    pos = Position.random(rng).play((2, 2))
    player = make_player("greedy")
    while not pos.is_terminal():
        pos = pos.play(player.choose(seat_view(pos, pos.to_move), rng))
    return pos


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=4, help="games to analyse (default 4)")
    ap.add_argument("--time", type=float, default=1.0, help="seconds of search per move (default 1)")
    ap.add_argument("--tail-cards", type=int, default=10,
                    help="baseline: moves with at most this many cards left (default 10)")
    ap.add_argument("--seed", type=int, default=2026, help="seed of the first deal (default 2026)")
    args = ap.parse_args()

    games = [greedy_game(args.seed + k) for k in range(args.games)]
    print(f"{args.games} greedy-vs-greedy games from seeds {args.seed}..{args.seed + args.games - 1};"
          f" analysis with {args.time:g} s per move; one core")
    print()
    exact_by = {b: [0, 0] for b in BUCKETS}
    walls, cpus, moves = [], [], 0
    for k, game in enumerate(games):
        save = game.to_save_string()
        t0, c0 = time.perf_counter(), time.process_time()
        frame = analyse_game(save, time_limit=args.time)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        walls.append(wall)
        cpus.append(cpu)
        moves += len(frame)
        for row in frame.itertuples():
            left = 36 - (row.ply - 1)
            for b in BUCKETS:
                if b[0] <= left <= b[1]:
                    exact_by[b][0] += int(row.exact)
                    exact_by[b][1] += 1
        print(f"  game {k + 1}: {len(frame)} moves, {wall:6.1f} s wall, {cpu:6.1f} s CPU,"
              f" {int(frame.exact.sum())} valued exactly; points lost: first"
              f" {frame[frame.player == 'first'].loss.sum():.1f}, second {frame[frame.player == 'second'].loss.sum():.1f}")
    print()
    print(f"whole games: {np.mean(walls):.1f} s wall ({np.mean(cpus):.1f} s CPU) per game,"
          f" {moves / sum(walls):.2f} moves analysed per second")
    print("moves valued exactly, by cards left before the move:")
    for b in BUCKETS:
        done, total = exact_by[b]
        share = f"{100 * done / total:5.1f}%" if total else "    -"
        print(f"  {b[1]:2d}..{b[0]:2d} cards: {done:3d} of {total:3d}  {share}")

    # baseline: the tail of each game, exact, by the solver and by the plain oracle
    print()
    t_solver = t_plain = 0.0
    n = agree = 0
    for game in games:
        steps = replay(game)
        tail = [s for s in steps if s.position.cards_left <= args.tail_cards]
        if not tail:
            continue
        first = tail[0]
        moves_from = [(s.move, s.card) if s.position.cells[cell_index(s.move)] < 0 else s.move for s in tail]
        c0 = time.process_time()
        frame = analyse_game(first.position, moves_from, time_limit=None)
        t_solver += time.process_time() - c0
        c0 = time.process_time()
        for s, row in zip(tail, frame.itertuples()):
            _, values, _ = solve_plain(s.position, "game", "margin")
            n += 1
            agree += (row.value == float(values[cell_index(s.move)])
                      and row.best_value == float(max(values.values())))
        t_plain += time.process_time() - c0
    print(f"baseline (moves with at most {args.tail_cards} cards left, exact): {n} moves,"
          f" values agree on {agree} of {n}")
    print(f"  analyse_game: {t_solver:7.3f} s CPU  ({n / t_solver:8.1f} moves/s)")
    print(f"  plain oracle: {t_plain:7.3f} s CPU  ({n / t_plain:8.1f} moves/s)")
    print(f"  speedup {t_plain / t_solver:.1f}x")


if __name__ == "__main__":
    main()
