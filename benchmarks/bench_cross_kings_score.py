"""Cross Kings hand scoring speed: hands scored per second, one core.

For 18-card hands with 0..4 Kings (random natural cards), prints hands/s of the compiled
scorer (batch entry point, GIL released) and of a simple baseline in the same run:
brute force over every King placement, compiled too (``best_placement`` tries
placements in order until the optimum, so it is no slower than full brute force on
average and gives a floor for the ratio).  Goal (issue 2): >= 1,000,000 hands/s per
category on one core.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from crowns_solver import _ck_score


def random_hands(rng: np.random.Generator, n: int, naturals: int) -> np.ndarray:
    masks = np.zeros(n, dtype=np.uint32)
    for i in range(n):
        cells = rng.choice(32, naturals, replace=False).astype(np.uint32)
        masks[i] = np.bitwise_or.reduce(np.uint32(1) << cells)
    return masks


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    print(f"{'kings':>5} {'hands/s':>12} {'us/hand':>8} {'baseline/s':>12} {'speedup':>8}")
    weights = [0.0529, 0.2235, 0.4472, 0.2235, 0.0529]  # Kings in an 18-card half of the deck
    mix_time = 0.0
    for kings in range(5):
        nat = random_hands(rng, args.hands, 18 - kings)
        k = np.full(args.hands, kings, dtype=np.uint8)
        out = np.zeros(args.hands, dtype=np.int32)
        t0 = time.perf_counter()
        _ck_score.score_masks(nat, k, out)
        dt = time.perf_counter() - t0
        nb = max(200, args.hands // (10 ** kings))
        t0 = time.perf_counter()
        for m in nat[:nb]:
            _ck_score.best_placement(int(m), kings)
        db = (time.perf_counter() - t0) / nb
        mix_time += weights[kings] * dt / args.hands
        print(f"{kings:>5} {args.hands / dt:>12,.0f} {1e6 * dt / args.hands:>8.3f} {1 / db:>12,.0f} {db / (dt / args.hands):>7.1f}x")
    print(f"deal mix (Kings as in an 18-card hand): {1 / mix_time:,.0f} hands/s")


if __name__ == "__main__":
    main()
