"""Plain, slow Five Crowns deadwood written literally from RULES.md (Five Crowns, "Melds").

Used only by the tests as an independent oracle for the compiled meld solver.  It knows
nothing of the solver's shortcuts: it checks every group of cards against the meld
definitions card by card (each card of the wild rank tried both as itself and as a
wild), and takes the best over every partition of the hand into melds and cards left
over (a DP over sub-multisets of the hand's positions, which visits every partition).
Meant for hands of up to 9 or 10 cards.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import lru_cache

SUITS = "SHCDR"
RANK_NAMES = {3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10", 11: "J", 12: "Q", 13: "K"}
RANK_OF = {v: k for k, v in RANK_NAMES.items()} | {"T": 10}
ALL_CARDS = [RANK_NAMES[r] + s for s in SUITS for r in range(3, 14)] + ["JK"]


def split(card: str) -> tuple[int, str] | None:
    """(rank, suit) of a natural card, None for a joker."""
    card = card.upper()
    if card == "JK":
        return None
    return RANK_OF[card[:-1]], card[-1]


def value(card: str, wild_rank: int) -> int:
    """Points of a card left in hand: face value, J 11, Q 12, K 13, wild rank 20, joker 50."""
    rs = split(card)
    if rs is None:
        return 50
    return 20 if rs[0] == wild_rank else rs[0]


def _is_book(naturals: list[tuple[int, str]]) -> bool:
    return len({r for r, _ in naturals}) <= 1


def _is_run(naturals: list[tuple[int, str]], size: int) -> bool:
    if size > 11:
        return False
    if not naturals:
        return True
    if len({s for _, s in naturals}) != 1:
        return False
    ranks = [r for r, _ in naturals]
    if len(set(ranks)) != len(ranks):
        return False
    # some start a with 3 <= a, a + size - 1 <= 13 and every natural rank inside
    lo = max(3, max(ranks) - size + 1)
    hi = min(min(ranks), 14 - size)
    return lo <= hi


def is_meld(cards: list[str], wild_rank: int, *, all_wild_melds: bool = True,
            max_book_size: int | None = None) -> bool:
    """Whether `cards` (3 or more) can be laid as one book or one run (RULES.md)."""
    if len(cards) < 3:
        return False
    jokers = 0
    fixed: list[tuple[int, str]] = []
    flexible: list[tuple[int, str]] = []  # cards of the wild rank: itself or a wild
    for c in cards:
        rs = split(c)
        if rs is None:
            jokers += 1
        elif rs[0] == wild_rank:
            flexible.append(rs)
        else:
            fixed.append(rs)
    for roles in itertools.product((True, False), repeat=len(flexible)):
        naturals = fixed + [f for f, as_itself in zip(flexible, roles) if as_itself]
        if not naturals and not all_wild_melds:
            continue
        book_ok = max_book_size is None or len(cards) <= max_book_size
        if book_ok and _is_book(naturals):
            return True
        if _is_run(naturals, len(cards)):
            return True
    return False


def brute_force_deadwood(cards: list[str], wild_rank: int, *, all_wild_melds: bool = True,
                         max_book_size: int | None = None) -> int:
    """Least total value left out of melds, over every partition of `cards` into melds."""
    cards = [c.upper().replace("T", "10") if c.upper() != "JK" else "JK" for c in cards]
    n = len(cards)
    vals = [value(c, wild_rank) for c in cards]
    legal: dict[int, bool] = {}

    def meld_mask(mask: int) -> bool:
        if mask not in legal:
            members = [cards[i] for i in range(n) if mask >> i & 1]
            legal[mask] = is_meld(members, wild_rank, all_wild_melds=all_wild_melds,
                                  max_book_size=max_book_size)
        return legal[mask]

    @lru_cache(maxsize=None)
    def best(mask: int) -> int:
        if mask == 0:
            return 0
        low = mask & -mask
        i = low.bit_length() - 1
        out = vals[i] + best(mask ^ low)  # the lowest card left in hand
        rest = mask ^ low
        sub = rest
        while True:  # every group holding the lowest card
            group = sub | low
            if bin(group).count("1") >= 3 and meld_mask(group):
                out = min(out, best(mask ^ group))
            if sub == 0:
                break
            sub = (sub - 1) & rest
        return out

    return best((1 << n) - 1)


def brute_force_discards(cards: list[str], wild_rank: int, **rules) -> dict[str, int]:
    """Deadwood of the other cards for each distinct card of `cards`."""
    out = {}
    for c in Counter(cards):
        rest = list(cards)
        rest.remove(c)
        out[c] = brute_force_deadwood(rest, wild_rank, **rules)
    return out
