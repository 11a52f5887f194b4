"""Five Crowns meld solver and discard advisor speed, one core.

Prints, for random hands of 8-14 cards (dealt from one 116-card set, random wild rank)
and for meld-rich hands of 8-14 cards holding 4-6 wilds (built from books and runs with
cards swapped for wilds, plus stray cards):

- hands/s of the batch entry point (``deadwood_batch``, GIL released);
- median, p99 and max microseconds per hand, each hand timed inside the compiled module
  during 3 passes through all the hands in order, keeping its least time (each hand meets
  the caches as in a batch, and is not charged for another process preempting it);
- the same figures for a simple baseline measured in the same run: a plain memoised
  Python solver (lowest card first: leave it, put it in a book with any other cards of
  its rank, or start a run with it; memoised on the cards left and the wilds left),
  run on a sample of the hands; every answer is compared with the compiled solver;

and the discard advisor's time for the full table of a 14-card hand (round 11 plus the
card drawn), against the same table computed with per-call ``deadwood`` from Python.

Goals (issue 4): median <= 3 us on random hands, <= 90 us on meld-rich ones, no hand
over 500 us, the 14-card discard table under 50 ms.  The machines here are shared and
noisy: run it more than once.
"""

from __future__ import annotations

import argparse
import time
from functools import lru_cache
from itertools import combinations

import numpy as np

from crowns_solver import _fc_melds
from crowns_solver.five_crowns import can_go_out_batch, deadwood, deadwood_batch, rank_discards
from crowns_solver.five_crowns.advisor import unseen_counts
from crowns_solver.five_crowns.cards import JOKER, card_name, full_deck

DECK = np.repeat(np.arange(56), full_deck(1))  # 116 physical cards as codes


def random_hands(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    hands = np.full((n, 14), -1, dtype=np.int8)
    for i in range(n):
        k = rng.integers(8, 15)
        hands[i, :k] = rng.choice(DECK, k, replace=False)
    return hands, rng.integers(3, 14, n).astype(np.int8)


def meld_rich_hands(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Hands of 8-14 cards with 4-6 wilds, the rest mostly from books and runs."""
    hands = np.full((n, 14), -1, dtype=np.int8)
    wilds = rng.integers(3, 14, n).astype(np.int8)
    for i in range(n):
        size, nw, wp = int(rng.integers(8, 15)), int(rng.integers(4, 7)), int(wilds[i]) - 3
        left = full_deck(1)
        cards: list[int] = []

        def add(code: int) -> bool:
            if left[code] > 0:
                left[code] -= 1
                cards.append(code)
                return True
            return False

        jokers = int(rng.integers(0, nw + 1))
        for _ in range(jokers):
            add(JOKER)
        while len(cards) < nw:  # the rest of the wilds are cards of the wild rank
            add(11 * int(rng.integers(5)) + wp)
        target = size - int(rng.integers(0, 5))  # leave room for 0-4 stray cards
        while len(cards) < target:
            if rng.random() < 0.5:  # (part of) a book
                r = int(rng.choice([p for p in range(11) if p != wp]))
                for s in rng.choice(5, int(rng.integers(2, 5)), replace=True):
                    if len(cards) < target:
                        add(11 * int(s) + r)
            else:  # (part of) a run, a card or two missing
                s, a = int(rng.integers(5)), int(rng.integers(0, 9))
                for p in range(a, min(11, a + int(rng.integers(3, 7)))):
                    if p != wp and rng.random() < 0.85 and len(cards) < target:
                        add(11 * s + p)
        while len(cards) < size:
            add(int(rng.choice(DECK)))
        hands[i, :size] = cards
    return hands, wilds


# ---------------------------------------------------------------------------------------
# Baseline: a plain memoised Python solver (same rules, generic search over the cards)


def baseline_deadwood(codes: list[int], wild: int, all_wild: bool = True) -> int:
    wp = wild - 3
    jokers = sum(c == JOKER for c in codes)
    wr = sum(c != JOKER and c % 11 == wp for c in codes)
    nat = tuple(sorted(c for c in codes if c != JOKER and c % 11 != wp))
    total = sum(c % 11 + 3 for c in nat)
    w = jokers + wr

    @lru_cache(maxsize=None)
    def best(cards: tuple[int, ...], wilds: int) -> int:
        """Most natural value melded from `cards` with at most `wilds` wilds."""
        if not cards:
            return 0
        c, rest = cards[0], cards[1:]
        r, s = c % 11, c // 11
        out = best(rest, wilds)  # leave c
        same = [i for i, x in enumerate(rest) if x % 11 == r]
        for k in range(len(same) + 1):  # a book of c and k more of its rank
            need = max(0, 2 - k)
            if need > wilds:
                continue
            for pick in combinations(same, k):
                drop = set(pick)
                out = max(out, (r + 3) * (k + 1) + best(tuple(x for i, x in enumerate(rest) if i not in drop),
                                                         wilds - need))
        for e in range(r, 11):  # a run from c up to rank e: one copy of each rank held
            taken, left, val = {r}, [], r + 3
            for x in rest:
                p = x % 11
                if x // 11 == s and r < p <= e and p not in taken:
                    taken.add(p)
                    val += p + 3
                else:
                    left.append(x)
            span = e - r + 1
            need = max(3, span) - len(taken)
            if e in taken or e == r:
                if need <= wilds:
                    out = max(out, val + best(tuple(left), wilds - need))
        return out

    if not nat:
        return 0 if w == 0 or (w >= 3 and (all_wild or wr)) else 20 * wr + 50 * jokers
    melded = best(nat, w)
    return total - melded if melded else total + 20 * wr + 50 * jokers


def time_baseline(hands: np.ndarray, wilds: np.ndarray, budget_s: float) -> tuple[np.ndarray, list[int]]:
    times, answers = [], []
    start = time.perf_counter()
    for row, w in zip(hands, wilds):
        codes = [int(c) for c in row if c >= 0]
        t0 = time.perf_counter()
        answers.append(baseline_deadwood(codes, int(w)))
        times.append(time.perf_counter() - t0)
        if time.perf_counter() - start > budget_s:
            break
    return np.array(times) * 1e6, answers


def report(label: str, hands: np.ndarray, wilds: np.ndarray, baseline_hands: int, budget_s: float) -> None:
    out = np.zeros(len(hands), dtype=np.int32)
    t0 = time.perf_counter()
    out[:] = deadwood_batch(hands, wilds)
    dt = time.perf_counter() - t0
    per = np.zeros(len(hands))
    _fc_melds.time_rows(hands, wilds, True, 3, per)
    base_us, base_ans = time_baseline(hands[:baseline_hands], wilds[:baseline_hands], budget_s)
    wrong = sum(a != b for a, b in zip(base_ans, out))
    zero = float(np.mean(out == 0))
    print(f"{label}: {len(hands):,} hands, {100 * zero:.0f}% with deadwood 0")
    print(f"  compiled  {len(hands) / dt:>12,.0f} hands/s (batch)   per hand: median {np.median(per):7.2f} us,"
          f" p99 {np.percentile(per, 99):7.2f} us, max {per.max():7.1f} us")
    print(f"  baseline  {len(base_us) / (base_us.sum() / 1e6):>12,.0f} hands/s ({len(base_us)} hands)"
          f"  per hand: median {np.median(base_us):7.1f} us, max {base_us.max():9.1f} us;"
          f" answers differing: {wrong}")
    print(f"  speed-up on the median hand: {np.median(base_us) / np.median(per):,.0f}x")
    slow = int(np.argmax(per))
    print(f"  slowest hand ({per[slow]:.1f} us, wild {wilds[slow]}):"
          f" {' '.join(card_name(int(c)) for c in hands[slow] if c >= 0)}")


def going_out(rng: np.random.Generator, n: int) -> None:
    hands = np.stack([rng.choice(DECK, 14, replace=False) for _ in range(n)]).astype(np.int8)
    t0 = time.perf_counter()
    out = can_go_out_batch(hands, 13)
    dt = time.perf_counter() - t0
    print(f"can_go_out_batch, random 14-card hands (round 11 after the draw): {n / dt:,.0f} hands/s,"
          f" {100 * out.mean():.2f}% can go out")


def python_table(codes: list[int], wild: int, unseen: np.ndarray) -> list[tuple]:
    """The discard table with per-call deadwood() from Python, no sharing (the baseline)."""
    rows = []
    for c in sorted(set(codes)):
        kept = list(codes)
        kept.remove(c)
        n_out = total = 0
        for d in np.nonzero(unseen)[0]:
            after = kept + [int(d)]
            m = min(deadwood(after[:i] + after[i + 1:], wild) for i in range(len(after)))
            n_out += int(unseen[d]) * (m == 0)
            total += int(unseen[d]) * m
        rows.append((c, n_out, total))
    return rows


def advisor(rng: np.random.Generator, n: int) -> None:
    hands, _ = random_hands(rng, 4 * n)
    hands = [[int(c) for c in row] for row in hands]
    fourteen = [list(rng.choice(DECK, 14, replace=False)) for _ in range(n)]
    rich, _ = meld_rich_hands(rng, 20 * n)
    rich = [[int(c) for c in row if c >= 0] for row in rich]
    rich = [r for r in rich if len(r) == 14][:n]
    rank_discards([card_name(int(c)) for c in fourteen[0]], 13)  # imports pandas once
    for label, group in (("random", fourteen), ("meld-rich", rich)):
        core, full = [], []
        for codes in group:
            codes = [int(c) for c in codes]
            unseen = unseen_counts(codes, [], 1)
            t0 = time.perf_counter()
            _fc_melds.discard_table(codes, 13, True, unseen)
            core.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            rank_discards(codes, 13)
            full.append(time.perf_counter() - t0)
        core_ms, full_ms = np.array(core) * 1e3, np.array(full) * 1e3
        print(f"discard table, 14-card {label} hands (round 11, {len(group)} hands): rank_discards median"
              f" {np.median(full_ms):.1f} ms, max {full_ms.max():.1f} ms (compiled part median"
              f" {np.median(core_ms):.1f} ms)")
    codes = [int(c) for c in fourteen[0]]
    unseen = unseen_counts(codes, [], 1)
    t0 = time.perf_counter()
    python_table(codes, 13, unseen)
    base = time.perf_counter() - t0
    t0 = time.perf_counter()
    _fc_melds.discard_table(codes, 13, True, unseen)
    fast = time.perf_counter() - t0
    print(f"  baseline (per-call deadwood from Python, same hand): {1e3 * base:.0f} ms;"
          f" compiled table {1e3 * fast:.1f} ms: {base / fast:.0f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=100_000, help="hands per set (default 100000)")
    ap.add_argument("--baseline-hands", type=int, default=300, help="hands given to the baseline")
    ap.add_argument("--baseline-seconds", type=float, default=60.0, help="time limit for the baseline per set")
    ap.add_argument("--advisor-hands", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    print(f"tables: {_fc_melds.table_bytes() / 2**20:.1f} MiB of suit-run values, built on first use in"
          f" {1e3 * _fc_melds.build_seconds():.0f} ms; seed {args.seed}")
    report("random hands, 8-14 cards", *random_hands(rng, args.hands), args.baseline_hands, args.baseline_seconds)
    report("meld-rich hands, 8-14 cards, 4-6 wilds", *meld_rich_hands(rng, args.hands), args.baseline_hands,
           args.baseline_seconds)
    going_out(rng, args.hands)
    advisor(rng, args.advisor_hands)


if __name__ == "__main__":
    main()
