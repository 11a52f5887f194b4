"""Cross Kings hand scoring (RULES.md, Cross Kings, "Scoring one hand").

The score is computed by the compiled core (``ext/_ck_scoring.pxi``), which places the
Kings exactly (branch and bound over per-suit useful King sets plus a knapsack over
ranks); :func:`explain_hand` adds a readable breakdown for display.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .._native import load
from .cards import DECK, Card, hand_mask, parse_cards

_core = load("_ck_score")

__all__ = ["score_hand", "explain_hand", "HandExplanation", "Group"]


def score_hand(cards: Iterable[str | int]) -> int:
    """Score of a Cross Kings hand, with its Kings placed as well as possible.

    Parameters
    ----------
    cards : iterable of str or int
        The hand's cards (``"7D"``, ``"KS"``... or indices 0..35), any number 0..36.

    Returns
    -------
    int
        Points (RULES.md "Scoring one hand": each run or set of n >= 3 cards scores
        2n - 3, minus 1 per King inside it; Kings placed to maximise the total).

    Raises
    ------
    CardError
        If an item is not a Cross Kings card.
    DuplicateCardError
        If a card appears twice.

    Examples
    --------
    >>> score_hand(["AH", "2H", "KS"])  # the King stands for 3H
    2
    """
    mask, kings = hand_mask(parse_cards(cards))
    return _core.score_mask(mask, kings)


@dataclass(frozen=True)
class Group:
    """One scoring group of a hand (RULES.md, Cross Kings, "Scoring one hand").

    Attributes
    ----------
    kind : {"run", "set"}
        A run (one suit, consecutive ranks) or a set (one rank).
    cards : tuple of str
        The cards of the group as they stand, natural order; a King shows as the card it
        stands for followed by ``"*"`` (e.g. ``"3H*"``).
    points : int
        The group's points: 2n - 3 minus one per King inside it.
    kings : int
        Number of Kings inside the group.
    """

    kind: str
    cards: tuple[str, ...]
    points: int
    kings: int


@dataclass(frozen=True)
class HandExplanation:
    """How a hand scores: its groups and what each King stands for (RULES.md, Cross Kings,
    "Scoring one hand").

    Attributes
    ----------
    score : int
        Total points (equals :func:`score_hand`).
    groups : tuple of Group
        Every scoring group (runs first, by suit then rank; then sets by rank).
    kings : dict
        Each King card of the hand -> the natural card it stands for, or None when it is
        better left unplaced.
    """

    score: int
    groups: tuple[Group, ...]
    kings: dict[Card, Card | None]

    def __str__(self) -> str:
        lines = [f"score {self.score}"]
        for g in self.groups:
            lines.append(f"  {g.kind:3s} {' '.join(g.cards):<24s} {g.points:+d}")
        for king, stands in self.kings.items():
            lines.append(f"  {king} = {stands if stands else 'unplaced'}")
        return "\n".join(lines)


def explain_hand(cards: Iterable[str | int]) -> HandExplanation:
    """Break a hand's score down into groups, with the card each King stands for
    (RULES.md, Cross Kings, "Scoring one hand").

    Parameters
    ----------
    cards : iterable of str or int
        The hand's cards.

    Returns
    -------
    HandExplanation
        The score, each scoring group with its points, and each King's placement.  Where
        several placements score the same, the one with the fewest Kings placed, then the
        lowest cards, is shown.

    Raises
    ------
    CardError, DuplicateCardError
        As :func:`score_hand`.
    """
    parsed = parse_cards(cards)
    mask, nkings = hand_mask(parsed)
    score, placed = _core.best_placement(mask, nkings)
    full = mask | placed

    def label(i: int) -> str:
        return DECK[i] + ("*" if placed >> i & 1 else "")

    groups: list[Group] = []
    for s in range(4):
        r = 0
        while r < 8:
            if full >> (8 * s + r) & 1:
                start = r
                while r < 8 and full >> (8 * s + r) & 1:
                    r += 1
                members = [8 * s + x for x in range(start, r)]
                if len(members) >= 3:
                    k = sum(placed >> i & 1 for i in members)
                    groups.append(
                        Group("run", tuple(label(i) for i in members), 2 * len(members) - 3 - k, k)
                    )
            else:
                r += 1
    for r in range(8):
        members = [8 * s + r for s in range(4) if full >> (8 * s + r) & 1]
        if len(members) >= 3:
            k = sum(placed >> i & 1 for i in members)
            groups.append(
                Group("set", tuple(label(i) for i in members), 2 * len(members) - 3 - k, k)
            )
    assert sum(g.points for g in groups) == score
    stands = [DECK[i] for i in range(32) if placed >> i & 1]
    king_cards = [DECK[i] for i in parsed if i >= 32]
    kings = {k: (stands[j] if j < len(stands) else None) for j, k in enumerate(king_cards)}
    return HandExplanation(score, tuple(groups), kings)

