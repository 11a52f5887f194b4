"""Plain, slow Cross Kings hand scoring written literally from RULES.md ("Scoring one hand").

Used only by the tests as an independent oracle: it tries every placement of every King
(each on a distinct natural card the hand lacks, or unplaced) and scores each
arrangement group by group.
"""

from __future__ import annotations

import itertools

SUITS = "SHDC"
RANKS = "A2345678"
NATURALS = [r + s for s in SUITS for r in RANKS]


def _rank(card: str) -> int:
    return RANKS.index(card[0]) + 1


def group_points(n: int, kings: int) -> int:
    """A scoring group of n cards with `kings` placed Kings inside it."""
    return 2 * n - 3 - kings if n >= 3 else 0


def score_arrangement(naturals: set[str], placed: set[str]) -> int:
    """Score natural cards plus Kings standing for the cards in `placed`."""
    cards = naturals | placed
    total = 0
    for suit in SUITS:  # runs: maximal blocks of consecutive ranks within a suit
        ranks = sorted(_rank(c) for c in cards if c[1] == suit)
        block: list[int] = []
        for r in ranks + [99]:
            if block and r == block[-1] + 1:
                block.append(r)
                continue
            if block:
                members = {RANKS[x - 1] + suit for x in block}
                total += group_points(len(block), len(members & placed))
            block = [r]
    for rank in RANKS:  # sets: all cards of one rank
        members = {c for c in cards if c[0] == rank}
        total += group_points(len(members), len(members & placed))
    return total


def brute_force_score(cards: list[str]) -> int:
    """Best score over every King placement (each King a distinct missing natural, or unplaced)."""
    kings = sum(1 for c in cards if c[0] == "K")
    naturals = {c for c in cards if c[0] != "K"}
    missing = [c for c in NATURALS if c not in naturals]
    best = score_arrangement(naturals, set())
    for k in range(1, kings + 1):
        for placed in itertools.combinations(missing, k):
            best = max(best, score_arrangement(naturals, set(placed)))
    return best
