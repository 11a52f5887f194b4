"""Five Crowns cards, notation and card values (RULES.md, Five Crowns).

A set is two 58-card decks: five suits (S spades, H hearts, C clubs, D diamonds,
R stars), ranks 3..10, J(=11), Q(=12), K(=13), two copies of each card, and 6 jokers:
116 cards.  Games of 8 to 14 players shuffle two sets together (232 cards).

Notation: rank ``3``..``9``, ``10`` (``T`` also read), ``J``, ``Q``, ``K``, then the suit
letter; a joker is ``JK``.  Examples: ``10R``, ``QH``, ``JK``.

Internally a card is a code 0..55: ``11 * suit + rank - 3`` for natural cards (suits in
the order S, H, C, D, R), and :data:`JOKER` = 55.  Hands are multisets: the same code
may appear more than once (two identical cards are normal).
"""

from __future__ import annotations

import numbers
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import TypeAlias

import numpy as np

from ..errors import CardError, DuplicateCardError, HandSizeError, WildRankError
from ._text import count, sets_hold

__all__ = [
    "Card",
    "SUITS",
    "RANK_NAMES",
    "JOKER",
    "NUM_CODES",
    "MIN_RANK",
    "MAX_RANK",
    "ROUNDS",
    "parse_card",
    "card_name",
    "parse_hand",
    "card_value",
    "hand_value",
    "wild_rank_for_round",
    "check_wild_rank",
    "copies_per_set",
    "full_deck",
    "counts",
    "rank_of",
    "suit_of",
    "is_wild",
]

#: A card as text, e.g. ``"10R"``, ``"QH"``, ``"JK"``.
Card: TypeAlias = str

SUITS = "SHCDR"
MIN_RANK, MAX_RANK = 3, 13
RANK_NAMES = {3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10", 11: "J", 12: "Q", 13: "K"}
_RANK_FROM_TEXT = {v: k for k, v in RANK_NAMES.items()} | {"T": 10}
JOKER = 55
NUM_CODES = 56
ROUNDS = 11  # round r deals r + 2 cards; that rank is wild


def parse_card(card: str | int) -> int:
    """Code (0..55) of a Five Crowns card (notation: RULES.md, Five Crowns, "Cards").

    Parameters
    ----------
    card : str or int
        Card text (``"10R"``, ``"TR"``, ``"qh"``, ``"JK"``; case and spaces ignored) or a
        code 0..55.

    Returns
    -------
    int
        ``11 * suit + rank - 3`` (suits S, H, C, D, R), or 55 for a joker.

    Raises
    ------
    CardError
        If `card` is not a Five Crowns card (e.g. ``"2H"``, ``"AS"``, ``"5X"``).
    """
    if isinstance(card, bool):
        raise CardError(f"not a Five Crowns card: {card!r}")
    if isinstance(card, (int, np.integer)):
        if 0 <= card < NUM_CODES:
            return int(card)
        raise CardError(f"not a Five Crowns card code: {card!r} (0..55)")
    if not isinstance(card, str):
        raise CardError(f"not a Five Crowns card: {card!r}")
    text = card.strip().upper()
    if text in ("JK", "JOKER"):
        return JOKER
    rank = _RANK_FROM_TEXT.get(text[:-1]) if len(text) >= 2 else None
    suit = SUITS.find(text[-1]) if text else -1
    if rank is None or suit < 0:
        raise CardError(
            f"not a Five Crowns card: {card!r} (ranks 3..10 or T, J, Q, K; suits S H C D R;"
            " JK for a joker)"
        )
    return 11 * suit + rank - 3


def card_name(code: int) -> Card:
    """Text of card code `code` (``"10R"``, ``"JK"``...).

    Parameters
    ----------
    code : int
        A card code 0..55 (an int or a NumPy integer; 55 is the joker).

    Returns
    -------
    str
        Rank then suit (``"10R"``, ``"QH"``), or ``"JK"`` for the joker.

    Raises
    ------
    CardError
        If `code` is not a whole number 0..55.
    """
    if isinstance(code, bool) or not isinstance(code, numbers.Integral) or not 0 <= code <= JOKER:
        raise CardError(f"not a Five Crowns card code: {code!r} (0..{JOKER})")
    if code == JOKER:
        return "JK"
    suit, r = divmod(code, 11)
    return RANK_NAMES[r + 3] + SUITS[suit]


def rank_of(code: int) -> int:
    """Rank 3..13 of a natural card code (0 for a joker).

    Parameters
    ----------
    code : int
        A card code 0..55 (not checked; 55 is the joker).

    Returns
    -------
    int
        3..10, 11 (J), 12 (Q), 13 (K); 0 for the joker.
    """
    return 0 if code == JOKER else code % 11 + 3


def suit_of(code: int) -> int:
    """Suit index 0..4 (S, H, C, D, R) of a natural card code (-1 for a joker).

    Parameters
    ----------
    code : int
        A card code 0..55 (not checked; 55 is the joker).

    Returns
    -------
    int
        The index in :data:`SUITS` (``"SHCDR"``), -1 for the joker.
    """
    return -1 if code == JOKER else code // 11


def copies_per_set(code: int) -> int:
    """How many copies of a card one 116-card set holds: 2 of each natural card, 6 jokers.

    Parameters
    ----------
    code : int
        A card code 0..55 (not checked; 55 is the joker).

    Returns
    -------
    int
        6 for the joker, 2 for any other code (RULES.md, Five Crowns, "Cards").
    """
    return 6 if code == JOKER else 2


def full_deck(sets: int = 1) -> np.ndarray:
    """Counts of each card code in `sets` 116-card sets, shape (56,), dtype int64.

    Parameters
    ----------
    sets : int
        Number of 116-card sets (not checked; 1, or 2 for 8 to 14 players).

    Returns
    -------
    numpy.ndarray
        Shape (56,), dtype int64: ``2 * sets`` for each natural card, ``6 * sets`` for
        the joker (RULES.md, Five Crowns, "Cards").
    """
    deck = np.full(NUM_CODES, 2 * sets, dtype=np.int64)
    deck[JOKER] = 6 * sets
    return deck


#: Rank words a wild rank may be given as (:func:`check_wild_rank`), singular or plural.
_RANK_WORDS = {"T": 10, "TEN": 10, "J": 11, "JACK": 11, "Q": 12, "QUEEN": 12, "K": 13, "KING": 13}


def check_wild_rank(wild_rank: int | str) -> int:
    """Validate a wild rank (3..13, i.e. 3s up to Kings), as a number or as a player says it.

    The one parser of wild ranks, shared by the API (every function taking `wild_rank`)
    and the ``--wild`` option of ``crowns five-crowns deadwood | discard | take``.

    Parameters
    ----------
    wild_rank : int or str
        An int or NumPy integer 3..13 (not a bool), or text: a number ``"3"``..``"13"``,
        a rank letter ``"T"`` (10), ``"J"``, ``"Q"``, ``"K"``, or a word ``"Ten"``,
        ``"Jack"``, ``"Queen"``, ``"King"``; a trailing ``s`` is allowed (``"5s"``,
        ``"Kings"``), case and surrounding spaces do not matter.

    Returns
    -------
    int
        The wild rank as a Python int 3..13.

    Raises
    ------
    WildRankError
        If `wild_rank` is none of these, or a number outside 3..13.

    Examples
    --------
    >>> check_wild_rank(5), check_wild_rank("K"), check_wild_rank("queens"), check_wild_rank("10s")
    (5, 13, 12, 10)
    """
    if isinstance(wild_rank, str):
        text = wild_rank.strip().upper()
        word = text[:-1] if text.endswith("S") and text[:-1] in _RANK_WORDS else text
        if word in _RANK_WORDS:
            return _RANK_WORDS[word]
        digits = text.removesuffix("S")
        if not (digits.isascii() and digits.isdecimal() and len(digits) <= 3):
            raise WildRankError(f"wild rank must be 3..13 or J, Q, K (3s up to Kings), got {wild_rank!r}")
        wild_rank = int(digits)
    elif isinstance(wild_rank, bool) or not isinstance(wild_rank, (int, np.integer)):
        raise WildRankError(f"wild rank must be an integer 3..13, got {wild_rank!r}")
    if not MIN_RANK <= wild_rank <= MAX_RANK:
        raise WildRankError(f"wild rank must be 3..13 (3s up to Kings), got {wild_rank}")
    return int(wild_rank)


def wild_rank_for_round(round_number: int) -> int:
    """The wild rank of round 1..11: the number of cards dealt, ``round + 2``.

    Parameters
    ----------
    round_number : int
        The round, 1..11 (RULES.md, Five Crowns: round r deals r + 2 cards).

    Returns
    -------
    int
        The wild rank 3..13 (3s in round 1, Kings in round 11).

    Raises
    ------
    WildRankError
        If `round_number` is not 1..11.
    """
    if isinstance(round_number, bool) or not isinstance(round_number, (int, np.integer)):
        raise WildRankError(f"round must be an integer 1..11, got {round_number!r}", argument="round")
    if not 1 <= round_number <= ROUNDS:
        raise WildRankError(f"round must be 1..11, got {round_number}", argument="round")
    return int(round_number) + 2


def is_wild(code: int, wild_rank: int) -> bool:
    """Whether a card is wild this round: a joker, or a card of the wild rank.

    Parameters
    ----------
    code : int
        A card code 0..55 (not checked; 55 is the joker).
    wild_rank : int
        This round's wild rank 3..13 (not checked).

    Returns
    -------
    bool
        True for the joker and for cards of rank `wild_rank`.
    """
    return code == JOKER or rank_of(code) == wild_rank


def card_value(card: str | int, wild_rank: int) -> int:
    """Points a card counts when left in hand (RULES.md, Five Crowns, card values).

    3..10 face value, J 11, Q 12, K 13; a card of this round's wild rank 20; a joker 50.

    Parameters
    ----------
    card : str or int
        Card text or code (:func:`parse_card`).
    wild_rank : int or str
        This round's wild rank, 3..13, or as a player says it (``"K"``, ``"Kings"``,
        ``"5s"``: :func:`~crowns_solver.five_crowns.cards.check_wild_rank`).

    Returns
    -------
    int
        The card's value in points.

    Raises
    ------
    CardError
        If `card` is not a Five Crowns card.
    WildRankError
        If `wild_rank` is not a rank 3..13 (:func:`check_wild_rank`).
    """
    code = parse_card(card)
    wild_rank = check_wild_rank(wild_rank)
    if code == JOKER:
        return 50
    rank = rank_of(code)
    return 20 if rank == wild_rank else rank


def parse_hand(
    cards: Iterable[str | int],
    *,
    sets: int = 1,
    size: int | tuple[int, int] | None = None,
    what: str = "hand",
) -> list[int]:
    """Parse a hand (a multiset of cards), checking copies against the card sets in play.

    Parameters
    ----------
    cards : iterable of str or int
        Card texts or codes.
    sets : int
        Number of 116-card sets in play (1, or 2 for 8+ players): at most ``2 * sets``
        copies of each natural card and ``6 * sets`` jokers.
    size : int or (int, int), optional
        Required number of cards, or an inclusive (min, max) range.
    what : str
        Name used in error messages.

    Returns
    -------
    list of int
        Card codes, in the given order.

    Raises
    ------
    CardError
        If an item is not a card.
    DuplicateCardError
        If a card appears more often than `sets` sets hold it.
    HandSizeError
        If the hand has the wrong number of cards; if `sets` is not 1 or 2 or `size` is
        not a count or a (min, max) pair of counts.
    """
    if isinstance(cards, (str, bytes)):
        raise CardError(f"{what}: expected a list of cards, got the string {cards!r}")
    if not isinstance(cards, Iterable) or isinstance(cards, Mapping):
        raise CardError(f"{what}: expected a list of cards, got {type(cards).__name__}")
    if isinstance(sets, bool) or not isinstance(sets, numbers.Integral) or sets not in (1, 2):
        raise HandSizeError(f"sets must be 1 or 2, got {sets!r}")
    if size is not None and not _size_ok(size):
        # found by the session-18 probe: size=1.5 or "x" raised a TypeError / ValueError
        raise HandSizeError(f"size must be a whole number of cards or a (min, max) pair of them, got {size!r}")
    codes = [parse_card(c) for c in cards]
    for code, n in Counter(codes).items():
        limit = copies_per_set(code) * sets
        if n > limit:
            raise DuplicateCardError(f"{what}: {count(n, 'copy', 'copies')} of {card_name(code)}, but {sets_hold(sets)} only {limit}")
    if size is not None:
        lo, hi = size if isinstance(size, tuple) else (size, size)
        if not lo <= len(codes) <= hi:
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            raise HandSizeError(f"{what} has {count(len(codes), 'card')}, expected {want}")
    return codes


def _size_ok(size: object) -> bool:
    """`size` is a card count >= 0, or a (min, max) pair of them with min <= max."""
    def whole(x: object) -> bool:
        return not isinstance(x, bool) and isinstance(x, numbers.Integral) and x >= 0  # type: ignore[operator]

    if isinstance(size, tuple):
        return len(size) == 2 and whole(size[0]) and whole(size[1]) and size[0] <= size[1]
    return whole(size)


def hand_value(cards: Iterable[str | int], wild_rank: int) -> int:
    """Total value of cards left in hand, every card counted (no melds; RULES.md, Five
    Crowns, "Card values").

    The seed's example (round 3, 5s wild): 5R 9H JK count 20 + 9 + 50 = 79.

    Parameters
    ----------
    cards : iterable of str or int
        Card texts or codes (at most as many copies as two 116-card sets hold).
    wild_rank : int or str
        This round's wild rank, 3..13, or as a player says it (``"K"``, ``"Kings"``,
        ``"5s"``: :func:`~crowns_solver.five_crowns.cards.check_wild_rank`).

    Returns
    -------
    int
        The sum of :func:`card_value` over `cards`, in points.

    Raises
    ------
    CardError
        If an item is not a card.
    DuplicateCardError
        If a card appears more often than two sets hold it.
    WildRankError
        If `wild_rank` is not a rank 3..13 (:func:`check_wild_rank`).
    """
    wild_rank = check_wild_rank(wild_rank)
    return sum(card_value(c, wild_rank) for c in parse_hand(cards, sets=2))


def counts(cards: Iterable[int]) -> np.ndarray:
    """Multiset of card codes as counts per code, shape (56,), dtype uint8.

    Parameters
    ----------
    cards : iterable of int
        Card codes 0..55 (not checked: parse them with :func:`parse_hand`).

    Returns
    -------
    numpy.ndarray
        Shape (56,), dtype uint8: element ``c`` is how often code ``c`` occurs.
    """
    out = np.zeros(NUM_CODES, dtype=np.uint8)
    for c in cards:
        out[c] += 1
    return out
