"""Plain, slow Five Crowns deadwood written literally from RULES.md (Five Crowns, "Melds").

Used only by the tests as an independent oracle on small hands (up to about 8 cards): it
tries every subset of cards to leave out and every partition of the rest into groups,
and checks each group against the definition of a book and a run, trying every card of
the wild rank both as a wild and as itself.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

JOKER = 55


def rank(c: int) -> int:
    return c % 11 + 3


def suit(c: int) -> int:
    return c // 11


def value(c: int, wild: int) -> int:
    if c == JOKER:
        return 50
    return 20 if rank(c) == wild else rank(c)


def _valid_with(naturals: list[int], wilds: int, all_wild: bool) -> bool:
    size = len(naturals) + wilds
    if size < 3:
        return False
    if not naturals:
        return all_wild
    if len({rank(c) for c in naturals}) == 1:  # book
        return True
    if len({suit(c) for c in naturals}) != 1:
        return False
    ranks = sorted(rank(c) for c in naturals)
    if len(set(ranks)) != len(ranks):
        return False
    return size <= 11 and ranks[-1] - ranks[0] + 1 <= size  # the wilds fill gaps and ends inside 3..K


def is_meld(group: tuple[int, ...], wild: int, all_wild: bool = True) -> bool:
    jokers = sum(1 for c in group if c == JOKER)
    wr = [c for c in group if c != JOKER and rank(c) == wild]
    plain = [c for c in group if c != JOKER and rank(c) != wild]
    for k in range(len(wr) + 1):
        for as_natural in itertools.combinations(wr, k):
            if _valid_with(plain + list(as_natural), jokers + len(wr) - k, all_wild):
                return True
    return False


@lru_cache(maxsize=None)
def _partitionable(cards: tuple[int, ...], wild: int, all_wild: bool) -> bool:
    if not cards:
        return True
    first, rest = cards[0], cards[1:]
    for size in range(2, len(rest) + 1):
        for others in set(itertools.combinations(rest, size)):
            group = (first, *others)
            if is_meld(group, wild, all_wild):
                left = list(rest)
                for c in others:
                    left.remove(c)
                if _partitionable(tuple(left), wild, all_wild):
                    return True
    return False


def deadwood(cards, wild: int, all_wild: bool = True) -> int:
    """Minimum total value of the cards left out of melds."""
    cards = tuple(sorted(cards))
    best = sum(value(c, wild) for c in cards)
    n = len(cards)
    for k in range(n + 1):
        for idx in itertools.combinations(range(n), k):  # idx: the cards laid in melds
            left = sum(value(cards[i], wild) for i in range(n) if i not in idx)
            if left < best and _partitionable(tuple(cards[i] for i in idx), wild, all_wild):
                best = left
    return best


def kept_deadwoods(hand, wild: int) -> list[int]:
    """Deadwood of the hand without card i, for each position i."""
    return [deadwood(hand[:i] + hand[i + 1:], wild) for i in range(len(hand))]
