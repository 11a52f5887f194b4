"""Cross Kings cards and notation (RULES.md, Cross Kings).

36 cards: ranks A(=1), 2..8 in suits S, H, D, C, plus four Kings KS, KH, KD, KC, which
are wild (their suit means nothing).  A card is written rank then suit: ``"AS"``,
``"7D"``, ``"KH"``.  Internally a card is an index 0..35: natural cards are
``8 * suit + rank - 1`` (suits in the order S, H, D, C), Kings are ``32 + suit``.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping
from typing import TypeAlias

from ..errors import CardError, DuplicateCardError

__all__ = [
    "Card",
    "SUITS",
    "RANKS",
    "DECK",
    "NUM_CARDS",
    "parse_card",
    "card_name",
    "parse_cards",
    "hand_mask",
    "is_king",
]

#: A card as text, e.g. ``"7D"`` or ``"KS"``.
Card: TypeAlias = str

SUITS = "SHDC"
RANKS = "A2345678"
NUM_CARDS = 36
#: Every card, in index order: AS..8S, AH..8H, AD..8D, AC..8C, KS, KH, KD, KC.
DECK: tuple[Card, ...] = tuple(r + s for s in SUITS for r in RANKS) + tuple("K" + s for s in SUITS)
_INDEX = {name: i for i, name in enumerate(DECK)}
_ALIASES = {"1": "A"}


def parse_card(card: str | int) -> int:
    """Index (0..35) of a Cross Kings card (notation: RULES.md, Cross Kings, "Cards").

    Parameters
    ----------
    card : str or int
        Card text such as ``"7D"`` (case and surrounding spaces ignored; ``"1S"`` is read
        as ``"AS"``), or an index 0..35.

    Returns
    -------
    int
        The card's index: ``8 * suit + rank - 1`` for natural cards, ``32 + suit`` for Kings.

    Raises
    ------
    CardError
        If `card` is not one of the 36 cards (e.g. ``"9S"``, ``"QH"``, ``"AX"``).
    """
    if isinstance(card, bool):
        raise CardError(f"not a Cross Kings card: {card!r}")
    if isinstance(card, numbers.Integral):   # NumPy integers too (an array of indices)
        if 0 <= card < NUM_CARDS:
            return int(card)
        raise CardError(f"not a Cross Kings card index: {card!r} (0..35)")
    if not isinstance(card, str):
        raise CardError(f"not a Cross Kings card: {card!r}")
    text = card.strip().upper()
    if len(text) == 2 and text[0] in _ALIASES:
        text = _ALIASES[text[0]] + text[1]
    try:
        return _INDEX[text]
    except KeyError:
        raise CardError(
            f"not a Cross Kings card: {card!r} (ranks A,2..8 or K; suits S,H,D,C)"
        ) from None


def card_name(index: int) -> Card:
    """Text of the card with index `index` (0..35).

    Parameters
    ----------
    index : int
        A card index 0..35 (an int or a NumPy integer).

    Returns
    -------
    str
        The card's text, e.g. ``"AS"``, ``"KC"``.

    Raises
    ------
    CardError
        If `index` is not a whole number 0..35 (a negative index is not counted from the
        end, a float, bool or text is not an index).
    """
    if isinstance(index, bool) or not isinstance(index, numbers.Integral) or not 0 <= index < NUM_CARDS:
        raise CardError(f"not a Cross Kings card index: {index!r} (0..{NUM_CARDS - 1})")
    return DECK[index]


def is_king(index: int) -> bool:
    """Whether card index `index` is a King.

    Parameters
    ----------
    index : int
        A card index 0..35 (not checked).

    Returns
    -------
    bool
        True for the Kings, indices 32..35.
    """
    return index >= 32


def parse_cards(cards: Iterable[str | int], *, what: str = "hand") -> list[int]:
    """Parse several cards, refusing duplicates.

    Parameters
    ----------
    cards : iterable of str or int
        Card texts or indices.
    what : str
        What the cards are, for error messages (``"hand"``, ``"grid"``...).

    Returns
    -------
    list of int
        Card indices in the given order.

    Raises
    ------
    CardError
        If an item is not a card.
    DuplicateCardError
        If a card appears twice (each card exists once in the deck).
    """
    if isinstance(cards, (str, bytes)):
        raise CardError(f"{what}: expected a list of cards, got the string {cards!r}")
    if not isinstance(cards, Iterable) or isinstance(cards, Mapping):
        raise CardError(f"{what}: expected a list of cards, got {type(cards).__name__}")
    out: list[int] = []
    seen: set[int] = set()
    for item in cards:
        idx = parse_card(item)
        if idx in seen:
            raise DuplicateCardError(f"{what}: duplicate card {DECK[idx]}")
        seen.add(idx)
        out.append(idx)
    return out


def hand_mask(cards: Iterable[int]) -> tuple[int, int]:
    """(natural-card bit mask, number of Kings) of parsed card indices.

    Parameters
    ----------
    cards : iterable of int
        Card indices 0..35 (not checked: parse them with :func:`parse_cards`).

    Returns
    -------
    tuple of (int, int)
        The mask, with bit ``i`` set for each natural card ``i`` (0..31), and the number
        of Kings.
    """
    mask = 0
    kings = 0
    for idx in cards:
        if idx >= 32:
            kings += 1
        else:
            mask |= 1 << idx
    return mask, kings
