"""Five Crowns meld solving: deadwood, an optimal arrangement, going out (RULES.md, Five Crowns).

The search runs in the compiled module ``crowns_solver._fc_melds`` (exact; see
``docs/five_crowns_melds.md`` for the algorithm); this module validates input, calls it,
and wraps the results.

Terms: a *meld* is a *book* (3 or more cards of one rank, suits free) or a *run* (3 or
more cards of one suit in sequence, inside 3..K, no wrap, at most 11 cards); a *wild* is
a joker or a card of the round's wild rank (which may also stand as itself); the
*deadwood* of some cards is the least total value of the cards left out of melds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from .._native import load
from ..errors import CardError, DuplicateCardError, HandSizeError, RulesError, WildRankError
from .cards import (
    JOKER,
    MAX_RANK,
    RANK_NAMES,
    SUITS,
    Card,
    card_name,
    card_value,
    check_wild_rank,
    copies_per_set,
    parse_hand,
    wild_rank_for_round,
)
from ._text import count, sets_hold
from .rules import Rules

_core = load("_fc_melds")

__all__ = [
    "MAX_HAND",
    "Meld",
    "Arrangement",
    "deadwood",
    "best_melds",
    "can_go_out",
    "deadwood_batch",
    "can_go_out_batch",
    "check_round_size",
]

#: Most cards a hand may hold: 13 dealt in round 11 plus the card drawn.
MAX_HAND = 14

_DEFAULT = Rules()


def _rules(rules: Rules | None) -> Rules:
    if rules is None:
        return _DEFAULT
    if not isinstance(rules, Rules):
        raise RulesError(f"rules must be a five_crowns.Rules, got {type(rules).__name__}")
    return rules


def check_round_size(n_cards: int, round_number: int, *, extra: Sequence[int], what: str) -> None:
    """Check a hand's size against round `round_number` (n = round + 2 cards dealt).

    Parameters
    ----------
    n_cards : int
        Cards in the hand.
    round_number : int
        Round 1..11.
    extra : sequence of int
        Allowed sizes as offsets from n: ``(0,)`` for a hand between turns, ``(1,)`` just
        after drawing, ``(0, 1)`` for either.
    what : str
        Name used in the message.

    Raises
    ------
    WildRankError
        If `round_number` is not 1..11.
    HandSizeError
        If the hand is too large or too small for the round.
    """
    n = wild_rank_for_round(round_number)
    sizes = [n + e for e in extra]
    if n_cards not in sizes:
        want = " or ".join(str(s) for s in sizes)
        raise HandSizeError(
            f"{what} has {count(n_cards, 'card')}, but round {round_number} deals {n}: expected {want}"
        )


def _parse(cards: Iterable[str | int], wild_rank: int | str, rules: Rules, *, lo: int, what: str,
           round_number: int | None, extra: Sequence[int]) -> tuple[list[int], int]:
    """(card codes, wild rank as an int): the checks every meld function makes."""
    wild_rank = check_wild_rank(wild_rank)
    codes = parse_hand(cards, sets=rules.sets, size=(lo, MAX_HAND), what=what)
    if round_number is not None:
        check_round_size(len(codes), round_number, extra=extra, what=what)
    return codes, wild_rank


def deadwood(cards: Iterable[str | int], wild_rank: int, *, rules: Rules | None = None,
             round: int | None = None) -> int:
    """Exact minimum deadwood of some cards (RULES.md, Five Crowns: "Deadwood").

    Parameters
    ----------
    cards : iterable of str or int
        0 to 14 cards (``"10R"``, ``"QH"``, ``"JK"``... or codes 0..55); a multiset.
    wild_rank : int or str
        This round's wild rank, 3..13 (round r: r + 2), or as a player says it (``"K"``,
        ``"Kings"``, ``"5s"``: :func:`~crowns_solver.five_crowns.cards.check_wild_rank`).
    rules : Rules, optional
        ``all_wild_melds`` and ``sets`` apply; ``max_book_size`` never changes it.
    round : int, optional
        If given (1..11), the hand must hold the n or n + 1 cards of that round.

    Returns
    -------
    int
        Points (3..10 face value, J 11, Q 12, K 13, wild rank 20, joker 50) of the cards
        left out of melds, minimised over every arrangement of the cards into melds.

    Raises
    ------
    CardError
        If an item is not a Five Crowns card.
    DuplicateCardError
        If a card appears more often than ``rules.sets`` sets hold it.
    HandSizeError
        If there are more than 14 cards, or not n or n + 1 for `round`.
    WildRankError
        If `wild_rank` is not 3..13 or `round` not 1..11.
    RulesError
        If `rules` is not a :class:`Rules`.

    Examples
    --------
    >>> deadwood(["5R", "9H", "JK"], 5)  # RULES.md: the 9 with two wilds is a book
    0
    >>> deadwood(["JK", "5H", "9S"], 3)  # no meld: 50 + 5 + 9
    64
    """
    rules = _rules(rules)
    codes, wild_rank = _parse(cards, wild_rank, rules, lo=0, what="hand", round_number=round, extra=(0, 1))
    return _core.deadwood_codes(codes, wild_rank, rules.all_wild_melds)


def can_go_out(hand: Iterable[str | int], wild_rank: int, *, rules: Rules | None = None,
               round: int | None = None) -> bool:
    """Whether a hand of n + 1 cards (just after drawing) can go out.

    RULES.md, Five Crowns, "Going out": some n of the cards have deadwood 0; they are laid
    down and the last card is discarded (it may be a card that would have fit).  Exactly
    n cards are laid down.

    Parameters
    ----------
    hand : iterable of str or int
        The n + 1 cards, 2 to 14 of them.
    wild_rank : int or str
        This round's wild rank, 3..13, or as a player says it (``"K"``, ``"Kings"``,
        ``"5s"``: :func:`~crowns_solver.five_crowns.cards.check_wild_rank`).
    rules : Rules, optional
        ``all_wild_melds`` and ``sets`` apply.
    round : int, optional
        If given (1..11), the hand must hold n + 1 = round + 3 cards.

    Returns
    -------
    bool
        True when some n of the n + 1 cards have deadwood 0.

    Raises
    ------
    CardError, DuplicateCardError, WildRankError, RulesError
        As :func:`deadwood`.
    HandSizeError
        If the hand has fewer than 2 or more than 14 cards, or not n + 1 for `round`.

    Examples
    --------
    >>> can_go_out(["3H", "4H", "5H", "6H", "6H"], 7)  # lay 3H 4H 5H 6H, discard 6H
    True
    >>> can_go_out(["3H", "4H", "5H", "6S", "7S", "8S"], 13)  # two runs of 3 but n = 5
    False
    """
    rules = _rules(rules)
    codes, wild_rank = _parse(hand, wild_rank, rules, lo=2, what="hand", round_number=round, extra=(1,))
    return _core.can_go_out_codes(codes, wild_rank, rules.all_wild_melds)


# ---------------------------------------------------------------------------------------
# Batch forms


def _batch(hands, wild_rank, rules: Rules | None, *, lo: int) -> tuple[np.ndarray, np.ndarray, Rules]:
    rules = _rules(rules)
    try:
        arr = np.asarray(hands)
    except ValueError:  # ragged rows (numpy: "inhomogeneous shape")
        arr = None
    if arr is None or arr.dtype == object:
        _ragged(hands)
    if arr.ndim != 2:
        raise HandSizeError(f"hands must be a 2-D array (one hand per row), got shape {arr.shape}")
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise CardError(f"hands must hold integer card codes 0..55 (or -1 for no card), got dtype {arr.dtype}")
    m = arr.shape[0]
    if arr.size and (arr.min() < -1 or arr.max() > 55):
        row, col = map(int, np.argwhere((arr < -1) | (arr > 55))[0])
        raise CardError(f"hands row {row}: not a Five Crowns card code: {int(arr[row, col])} (0..55, -1 for no card)")
    codes = np.ascontiguousarray(arr, dtype=np.int8)
    if codes.shape[1] > MAX_HAND:  # wider rows: the extra columns must be padding
        held = (codes >= 0).sum(axis=1)
        if held.max() > MAX_HAND:
            row = int(np.argmax(held > MAX_HAND))
            raise HandSizeError(f"hands row {row} has {count(int(held[row]), 'card')}, expected at most {MAX_HAND}")
        codes = np.ascontiguousarray(np.sort(codes, axis=1)[:, ::-1][:, :MAX_HAND])
    if codes.shape[1] == 0:
        codes = np.full((m, 1), -1, dtype=np.int8)
    problem = _core.check_rows(codes, copies_per_set(0) * rules.sets, copies_per_set(JOKER) * rules.sets, lo, MAX_HAND)
    if problem is not None:
        row, code, n = problem
        if code == -3:
            raise HandSizeError(f"hands row {row} has {count(n, 'card')}, expected {lo} to {MAX_HAND}")
        limit = copies_per_set(code) * rules.sets
        raise DuplicateCardError(f"hands row {row}: {n} copies of {card_name(code)}, but {sets_hold(rules.sets)} only {limit}")
    w = np.asarray(wild_rank)
    if w.ndim == 0:
        wilds = np.full(m, check_wild_rank(w.item()), dtype=np.int8)   # "K" too, as everywhere
    else:
        if w.shape != (m,):
            raise WildRankError(f"wild_rank must be one integer or one per hand (shape ({m},)), got shape {w.shape}")
        if m and not np.issubdtype(w.dtype, np.integer):
            raise WildRankError(f"wild ranks must be integers 3..13, got dtype {w.dtype}")
        badw = (w < 3) | (w > MAX_RANK)
        if badw.any():
            row = int(np.argmax(badw))
            raise WildRankError(f"wild_rank row {row}: must be 3..13 (3s up to Kings), got {w[row]}")
        wilds = np.ascontiguousarray(w, dtype=np.int8)
    return codes, wilds, rules


def _ragged(hands) -> None:
    """Raise the error for `hands` that numpy cannot make a 2-D array of, naming the row."""
    try:
        rows = list(hands)
        sizes = [len(row) for row in rows]
    except TypeError:
        raise HandSizeError("hands must be a 2-D array of card codes (one hand per row)") from None
    for i, n in enumerate(sizes):
        if n != sizes[0]:
            raise HandSizeError(
                f"hands row {i} has {count(n, 'entry', 'entries')} but row 0 has {sizes[0]}: rows must have equal length"
                " (pad shorter hands with -1 for no card)"
            )
    raise CardError("hands must hold integer card codes 0..55 (or -1 for no card)")


def deadwood_batch(hands, wild_rank, *, rules: Rules | None = None) -> np.ndarray:
    """Deadwood of many hands at once, without the GIL (for simulations; RULES.md, Five
    Crowns, "Deadwood").

    Parameters
    ----------
    hands : array_like of int, shape (m, k)
        One hand per row as card codes 0..55 (``11 * suit + rank - 3``, suits S H C D R;
        joker 55, see :func:`~crowns_solver.five_crowns.parse_card`), ``-1`` for no card,
        so rows may hold different numbers of cards (at most 14 each).
    wild_rank : int, str or array_like of int, shape (m,)
        The wild rank of every hand, or of each.
    rules : Rules, optional
        ``all_wild_melds`` and ``sets`` apply.

    Returns
    -------
    numpy.ndarray of int32, shape (m,)
        ``out[i]`` = :func:`deadwood` of row i.

    Raises
    ------
    CardError
        If an entry is not an integer -1..55 (the message names the row).
    DuplicateCardError
        If a row holds a card more often than the sets hold it.
    HandSizeError
        If `hands` is not 2-D or a row holds more than 14 cards.
    WildRankError
        If a wild rank is not 3..13, or `wild_rank` has the wrong shape.

    Notes
    -----
    Ctrl-C interrupts a long batch (checked every 1024 hands).
    """
    codes, wilds, rules = _batch(hands, wild_rank, rules, lo=0)
    out = np.zeros(codes.shape[0], dtype=np.int32)
    _core.deadwood_rows(codes, wilds, rules.all_wild_melds, out)
    return out


def can_go_out_batch(hands, wild_rank, *, rules: Rules | None = None) -> np.ndarray:
    """:func:`can_go_out` for many n+1-card hands at once, without the GIL.

    Parameters
    ----------
    hands : array_like of int, shape (m, k)
        Rows of card codes as in :func:`deadwood_batch` (2 to 14 cards each).
    wild_rank : int, str or array_like of int, shape (m,)
        The wild rank of every hand, or of each.
    rules : Rules, optional
        ``all_wild_melds`` and ``sets`` apply.

    Returns
    -------
    numpy.ndarray of bool, shape (m,)
        ``out[i]`` = :func:`can_go_out` of row i.

    Raises
    ------
    CardError, DuplicateCardError, HandSizeError, WildRankError
        As :func:`deadwood_batch`; HandSizeError also for a row of fewer than 2 cards.
    """
    codes, wilds, rules = _batch(hands, wild_rank, rules, lo=2)
    out = np.zeros(codes.shape[0], dtype=np.uint8)
    _core.can_go_out_rows(codes, wilds, rules.all_wild_melds, out)
    return out.astype(bool)


# ---------------------------------------------------------------------------------------
# Arrangements


@dataclass(frozen=True)
class Meld:
    """One meld of an arrangement (RULES.md, Five Crowns, "Melds": a book or a run).

    Attributes
    ----------
    kind : {"book", "run"}
    cards : tuple of str
        The cards as held; a run's cards in sequence, lowest first.
    stands_for : tuple of str
        What each card stands for: a natural card itself; in a run, the card a wild takes
        the place of (``"JH"``); in a book, a wild's rank (``"9"``, or ``"*"`` in a book
        made only of jokers).
    """

    kind: Literal["book", "run"]
    cards: tuple[Card, ...]
    stands_for: tuple[str, ...]

    def __str__(self) -> str:
        shown = []
        for card, stands in zip(self.cards, self.stands_for):
            shown.append(card if (card == stands or self.kind == "book") else f"{card}={stands}")
        return f"{self.kind} {' '.join(shown)}"


@dataclass(frozen=True)
class Arrangement:
    """An optimal arrangement of some cards into melds (see :func:`best_melds`).

    Attributes
    ----------
    deadwood : int
        Points of the cards left (equals :func:`deadwood`).
    melds : tuple of Meld
        Books first (by rank), then runs (by suit S H C D R, then lowest rank).
    left : tuple of str
        The cards left out of melds.
    wild_rank : int
    rules : Rules
    """

    deadwood: int
    melds: tuple[Meld, ...]
    left: tuple[Card, ...]
    wild_rank: int
    rules: Rules = field(default_factory=Rules)

    def __str__(self) -> str:
        lines = [f"deadwood {self.deadwood}"]
        lines += [f"  {m}" for m in self.melds]
        if self.left:
            values = " + ".join(str(card_value(c, self.wild_rank)) for c in self.left)
            total = f"{values} = {self.deadwood}" if len(self.left) > 1 else values
            lines.append(f"  left {' '.join(self.left)}  ({total})")
        return "\n".join(lines)


class _Slot:
    """A place in a meld under construction: a held card, or a wild still to choose."""

    __slots__ = ("card", "stands")

    def __init__(self, card: int | None, stands: str) -> None:
        self.card = card
        self.stands = stands


def best_melds(cards: Iterable[str | int], wild_rank: int, *, rules: Rules | None = None,
               round: int | None = None) -> Arrangement:
    """One arrangement of some cards into melds with the least deadwood (RULES.md, Five
    Crowns: "Melds", "Deadwood").

    Parameters
    ----------
    cards : iterable of str or int
        0 to 14 cards.
    wild_rank : int or str
        This round's wild rank, 3..13, or as a player says it (``"K"``, ``"Kings"``,
        ``"5s"``: :func:`~crowns_solver.five_crowns.cards.check_wild_rank`).
    rules : Rules, optional
        ``all_wild_melds`` and ``sets`` as in :func:`deadwood`; with ``max_book_size``
        set, larger books are shown split into books of at most that size (the deadwood
        is the same).
    round : int, optional
        If given (1..11), the hand must hold the n or n + 1 cards of that round.

    Returns
    -------
    Arrangement
        The deadwood, the melds and the cards left.  Where several arrangements reach the
        least deadwood, the one shown leaves the fewest cards in hand (lays down the most),
        then needs the fewest wilds to complete its melds (the others are spare); among
        those still tied, the solver's own (books before runs, larger books first).  Every
        wild that is not needed to complete a meld is added to a meld (a book if there is
        one, else the end of a run), since wilds count 20 or 50 when left.  A card of the
        wild rank fills its own place in a run when it can (shown as itself).

    Raises
    ------
    CardError, DuplicateCardError, HandSizeError, WildRankError, RulesError
        As :func:`deadwood`.
    RuntimeError
        Never for a correct solver: an internal consistency check (the arrangement's
        melds and cards left must add up to the hand and its least deadwood).

    Examples
    --------
    >>> print(best_melds(["QH", "KH", "JK", "4S"], 3))
    deadwood 4
      run JK=JH QH KH
      left 4S  (4)
    """
    rules = _rules(rules)
    codes, wild_rank = _parse(cards, wild_rank, rules, lo=0, what="hand", round_number=round, extra=(0, 1))
    arr = _arrange(codes, wild_rank, rules)
    left = _fewest_left(codes, arr, wild_rank, rules)
    if left is None:
        return arr
    # the cards left are `left`: the rest melds completely (deadwood 0), shown as the solver
    # arranges it
    rest = list(codes)
    for c in left:
        rest.remove(c)
    melded = _arrange(rest, wild_rank, rules)
    if melded.deadwood != 0 or melded.left:
        raise RuntimeError(f"internal error: {[card_name(c) for c in rest]} does not meld completely")
    return Arrangement(arr.deadwood, melded.melds, tuple(card_name(c) for c in sorted(left)), wild_rank, rules)


def _arrange(codes: list[int], wild_rank: int, rules: Rules) -> Arrangement:
    """The solver's own optimal arrangement of `codes` (books first), wilds placed."""
    dw, books, runs, left = _core.arrange(codes, wild_rank, rules.all_wild_melds)
    wp = wild_rank - 3
    jokers = [c for c in codes if c == JOKER]
    wild_rank_cards = sorted(c for c in codes if c != JOKER and c % 11 == wp)
    rank_name = RANK_NAMES

    # A card of the wild rank stands as itself in a run of its suit when it costs no
    # extra wild: in a gap of the run, or at an end of a run too short to stand alone
    # (5H 6H 7H with 5s wild is the run 5H 6H 7H, not 6H 7H 5H=8H).
    spare_own = list(wild_rank_cards)

    def claims_own(run: list[int]) -> bool:
        own = 11 * (run[0] // 11) + wp
        ranks = [c % 11 + 3 for c in run]
        lo, hi = min(ranks), max(ranks)
        span = max(hi, wild_rank) - min(lo, wild_rank) + 1
        if own in spare_own and (lo < wild_rank < hi or (hi - lo + 1 < 3 and span <= 3)):
            spare_own.remove(own)
            return True
        return False

    # a single natural with two wilds is shown as a book (RULES.md: "the 9 with two wilds
    # is a book"); the solver treats it as a run, which needs the same two wilds; it stays
    # a run when the wild-rank card of its suit stands as itself next to it (5H 6H JK)
    longer = [run for run in runs if len(run) > 1]
    own_runs = {id(run) for run in longer if claims_own(run)}
    for run in runs:
        if len(run) == 1:
            if claims_own(run):
                own_runs.add(id(run))
                longer.append(run)
            else:
                books = books + [run]
    runs = longer
    book_slots: list[tuple[int, list[_Slot]]] = []
    for book in books:
        r = book[0] % 11 + 3
        slots = [_Slot(c, card_name(c)) for c in book]
        slots += [_Slot(None, rank_name[r]) for _ in range(3 - len(book))]
        book_slots.append((r, slots))
    run_slots: list[tuple[int, int, list[_Slot]]] = []  # suit, lowest rank, slots
    for run in runs:
        suit = run[0] // 11
        ranks = {c % 11 + 3: c for c in run}
        lo, hi = min(ranks), max(ranks)
        if id(run) in own_runs and wild_rank < lo:
            lo = wild_rank  # grow down to the wild-rank card (up reaches it anyway)
        while hi - lo + 1 < 3:
            if hi < MAX_RANK:
                hi += 1
            else:
                lo -= 1
        slots = [_Slot(ranks.get(r), rank_name[r] + SUITS[suit]) for r in range(lo, hi + 1)]
        run_slots.append((suit, lo, slots))

    # Fill the wilds: a wild-rank card takes its own place in a run first, then jokers,
    # then the other wild-rank cards.
    pool_wr = list(wild_rank_cards)
    for suit, _, slots in run_slots:
        for s in slots:
            own = 11 * suit + wp
            if s.card is None and s.stands == card_name(own) and own in pool_wr:
                pool_wr.remove(own)
                s.card = own
    pool = jokers + pool_wr

    def take() -> int:
        return pool.pop(0)

    for _, slots in book_slots:
        for s in slots:
            if s.card is None:
                s.card = take()
    for _, _, slots in run_slots:
        for s in slots:
            if s.card is None:
                s.card = take()
    cap = rules.max_book_size
    left_wilds: list[int] = []
    if pool:
        if book_slots or run_slots:
            _absorb(pool, book_slots, run_slots, cap)
        elif len(pool) >= 3 and (rules.all_wild_melds or pool_wr):
            # a meld of wilds only: a book of the wild rank when a wild-rank card is in it
            if pool_wr:
                r, stands = wild_rank, rank_name[wild_rank]
            else:
                r, stands = 0, "*"
            slots = [_Slot(c, card_name(c) if (c != JOKER and c % 11 == wp) else stands) for c in
                     sorted(pool, key=lambda c: (c == JOKER, c))]
            book_slots.append((r, slots))
            pool.clear()
        else:
            left_wilds = list(pool)
            pool.clear()

    melds: list[Meld] = []
    for r, slots in sorted(book_slots, key=lambda b: b[0]):
        for part in _split_book(slots, cap, rules.all_wild_melds, wp):
            melds.append(Meld("book", tuple(card_name(s.card) for s in part), tuple(s.stands for s in part)))
    for suit, lo, slots in sorted(run_slots, key=lambda t: (t[0], t[1])):
        melds.append(Meld("run", tuple(card_name(s.card) for s in slots), tuple(s.stands for s in slots)))
    left_codes = sorted(left + left_wilds, key=lambda c: (c == JOKER, c))
    left_cards = tuple(card_name(c) for c in left_codes)
    if sum(card_value(c, wild_rank) for c in left_codes) != dw or sum(len(m.cards) for m in melds) + len(left_codes) != len(codes):
        raise RuntimeError(f"internal error: arrangement of {[card_name(c) for c in codes]} does not add up")
    return Arrangement(dw, tuple(melds), left_cards, wild_rank, rules)


def _wilds_needed(naturals: list[int], wilds: list[int], wild_rank: int, rules: Rules) -> int | None:
    """Fewest of `wilds` that, with `naturals` (not empty), leave deadwood 0; None if all
    of them do not."""
    jokers = [c for c in wilds if c == JOKER]
    own = [c for c in wilds if c != JOKER]
    for w in range(len(wilds) + 1):
        for j in range(min(w, len(jokers)) + 1):
            if w - j <= len(own) and _core.deadwood_codes(naturals + jokers[:j] + own[:w - j], wild_rank,
                                                          rules.all_wild_melds) == 0:
                return w
    return None


def _fewest_left(codes: list[int], arr: Arrangement, wild_rank: int, rules: Rules) -> list[int] | None:
    """The natural cards to leave in hand when another optimal arrangement than the
    solver's `arr` leaves fewer cards, or as many but needs fewer wilds; None to keep `arr`.

    Exact: every multiset of natural cards worth the least deadwood and no larger than
    `arr`'s cards left is tried, fewest cards first, keeping those whose complement (with
    every wild) melds completely.  At most 2**14 subsets, each a cheap value check, and a
    deadwood call only for those worth exactly the deadwood.
    """
    from itertools import combinations

    wp = wild_rank - 3
    is_wild = [c == JOKER or c % 11 == wp for c in range(56)]
    wilds = [c for c in codes if is_wild[c]]
    naturals = sorted(c for c in codes if not is_wild[c])
    solver_left = sorted(parse_hand(arr.left, sets=rules.sets))
    if not arr.melds or any(is_wild[c] for c in solver_left) or not arr.left:
        return None   # nothing melds, or nothing is left: no other choice to make

    def rest_of(left: tuple[int, ...]) -> list[int]:
        rest = list(naturals)
        for c in left:
            rest.remove(c)
        return rest

    best_need = _wilds_needed(rest_of(tuple(solver_left)), wilds, wild_rank, rules)
    if best_need is None:
        raise RuntimeError(f"internal error: the melds of {arr} need more wilds than the hand holds")
    values = [card_value(c, wild_rank) for c in naturals]
    for k in range(len(solver_left) + 1):
        found: list[tuple[int, tuple[int, ...]]] = []
        seen: set[tuple[int, ...]] = set()
        for idx in combinations(range(len(naturals)), k):
            if sum(values[i] for i in idx) != arr.deadwood:
                continue
            left = tuple(naturals[i] for i in idx)
            if left in seen:
                continue
            seen.add(left)
            rest = rest_of(left)
            if not rest:
                continue
            need = _wilds_needed(rest, wilds, wild_rank, rules)
            if need is not None:
                found.append((need, left))
        if not found:
            continue
        need, left = min(found)
        if k < len(solver_left):
            return list(left)
        return list(left) if need < best_need else None
    return None


def _absorb(pool: list[int], book_slots, run_slots, cap: int | None) -> None:
    """Add spare wilds to melds: books up to the cap, runs up to 11 cards, then any book,
    then split an 11-card run so that a wild can repeat a rank across the two parts."""
    def stands_book(r: int) -> str:
        return RANK_NAMES[r]

    def pick(suit: int, rank: int) -> int:
        # a card of the wild rank fills its own place in a run when it can
        own = 11 * suit + rank - 3
        if own in pool:
            pool.remove(own)
            return own
        return pool.pop(0)

    for r, slots in book_slots:
        while pool and (cap is None or len(slots) < cap):
            slots.append(_Slot(pool.pop(0), stands_book(r)))
    for i, (suit, lo, slots) in enumerate(run_slots):
        hi = lo + len(slots) - 1
        while pool and len(slots) < 11:
            below = 11 * suit + lo - 4  # the card just below the run: if it is a spare
            if lo > 3 and below in pool:  # wild (of the wild rank), it stands as itself
                pool.remove(below)
                lo -= 1
                slots.insert(0, _Slot(below, RANK_NAMES[lo] + SUITS[suit]))
            elif hi < MAX_RANK:
                hi += 1
                slots.append(_Slot(pick(suit, hi), RANK_NAMES[hi] + SUITS[suit]))
            else:
                lo -= 1
                slots.insert(0, _Slot(pick(suit, lo), RANK_NAMES[lo] + SUITS[suit]))
        run_slots[i] = (suit, lo, slots)
    if pool and book_slots:
        r, slots = book_slots[0]
        while pool:
            slots.append(_Slot(pool.pop(0), stands_book(r)))
    if pool:
        # every meld is an 11-card run: split one into 3..7 and 8..K and grow the first
        suit, lo, slots = run_slots[0]
        first, second = slots[:5], slots[5:]
        hi = lo + 4
        while pool:
            hi += 1
            first.append(_Slot(pick(suit, hi), RANK_NAMES[hi] + SUITS[suit]))
        run_slots[0] = (suit, lo, first)
        run_slots.append((suit, lo + 5, second))


def _split_book(slots: list[_Slot], cap: int | None, all_wild: bool, wp: int) -> list[list[_Slot]]:
    """A book shown as parts of at most `cap` cards (3 or more each), naturals spread out."""
    if cap is None or len(slots) <= cap:
        return [slots]
    naturals = [s for s in slots if s.card != JOKER and s.stands == card_name(s.card)]
    wilds = [s for s in slots if not (s.card != JOKER and s.stands == card_name(s.card))]
    parts = -(-len(slots) // cap)
    if not all_wild and len(naturals) < parts:
        return [slots]  # parts made only of wilds would not be legal: show it whole
    sizes = [len(slots) // parts + (1 if i < len(slots) % parts else 0) for i in range(parts)]
    out: list[list[_Slot]] = [[] for _ in range(parts)]
    for i, s in enumerate(naturals):
        out[i % parts].append(s)
    for s in wilds:
        j = next(j for j in range(parts) if len(out[j]) < sizes[j])
        out[j].append(s)
    return out
