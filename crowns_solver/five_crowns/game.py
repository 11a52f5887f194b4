"""Five Crowns full-game engine: deal, draw, discard, go out, last turns, scoring, ties.

Rules: RULES.md, Five Crowns ("A turn", "Going out", "Deal and seats").  One game is 11
rounds; round r deals r + 2 cards one at a time, starting left of the dealer, and that
rank is wild (jokers always).  The card after the deal starts the discard pile, the rest
is the draw pile.  The player left of the dealer starts; play goes round the table.

A turn: the seat's policy chooses the draw pile or the discard pile; the engine draws;
if some n of the n + 1 cards have deadwood 0 the player goes out (the policy must then
discard a card that leaves deadwood 0); the policy chooses the discard.  After someone goes
out, every other player takes exactly one more turn: the policy chooses where to draw,
and the engine discards the card that leaves the least deadwood (RULES.md: "they choose
the discard that minimises it"); the player scores that deadwood.  The player who went out
scores 0.  The deal moves one seat to the left each round.  Lowest total wins; ties share
the win, or (``GameRules(ties="tiebreak")``) the tied players play a 6-card tiebreak round.

Decisions where RULES.md is silent (also in docs/five_crowns_game.md):

* When the draw pile is empty at a draw from it, the discard pile except its top card is
  shuffled into a new draw pile (RULES.md).  Every seat saw those cards: the views tell
  which (``SeatView.reshuffled``), and the look-ahead players draw from what can still be
  in that pile (``SeatView.draw_pool``), not from cards never seen.  If that leaves nothing (the discard pile holds
  only its top card) the player takes the top discard instead.  Neither can happen with
  the allowed player counts: the hands hold at most 7 x 13 = 91 of 116 cards (14 x 13 =
  182 of 232), so draw and discard piles together always hold at least 25 cards.
* A round in which nobody goes out within ``GameRules.max_turns`` turns ends there, and
  every player scores the deadwood of the cards in hand (a safety net for policies that
  never go out; the built-in ones finish their rounds, see docs/five_crowns_game.md).
* The 6-card tiebreak round deals 6 cards to the tied players only (6s wild), dealt by the
  player whose turn to deal it is (the rotation goes on); lowest score wins; tied again
  means another tiebreak round, up to ``max_tiebreaks``, after which the win is shared.
* With one player the round simply ends when that player goes out.

Randomness comes only from the game's seed (``numpy.random.SeedSequence``): the deck of
each round, each reshuffle and each seat's policy generator are spawned from it, so a
game replays exactly.  The seed is taken as every game takes it (``crowns_solver._seeds``;
docs/decisions.md, "One seed rule for every game") and the record keeps one that replays
the game: the number, or a SeedSequence's entropy and spawn key.
The record (:meth:`GameResult.record`) holds every shuffled deck,
every draw, discard and go-out, and every score; :func:`replay` re-plays it and checks it.
"""

from __future__ import annotations

import json
import numbers
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

import numpy as np

from .._checks import check_choice, check_flag, is_choice
from .._io import check_numbers, json_int, read_text
from .._seeds import RecordedSeed, Seed, replayable_seed, seed_from_json, seed_sequence, seed_text, seed_to_json
from ..errors import CardError, CrownsError, HandSizeError, PolicyError, RecordError, RulesError
from .cards import NUM_CODES, ROUNDS, card_name, full_deck, parse_card
from ._text import count
from .rules import MAX_TIEBREAKS, TIES

__all__ = [
    "GameRules",
    "SeatView",
    "TableState",
    "Turn",
    "RoundResult",
    "GameResult",
    "play_game",
    "replay",
    "load_record",
    "RECORD_FORMAT",
    "TIEBREAK_CARDS",
]

#: ``format`` field of a saved game record.
RECORD_FORMAT = "crowns_solver.five_crowns.game"
_RECORD_VERSION = 1
#: Cards dealt in the tiebreak round (seeds/002: "deal a 6-card round to the tied players").
TIEBREAK_CARDS = 6

DrawSource = Literal["draw", "discard"]
_NAMES = tuple(card_name(c) for c in range(NUM_CODES))


# --------------------------------------------------------------------------- meld solver
def _solver():
    """The compiled meld solver's private entry points (ext/_fc_melds.pyx).

    The engine's hands are valid by construction (cards dealt from the sets in play, at
    most 14), so it calls the compiled functions directly, without re-validating."""
    global _CORE
    if _CORE is None:
        from .melds import _core

        _CORE = _core
    return _CORE


_CORE = None


def deadwood_of(cards: Sequence[int], wild_rank: int, all_wild_melds: bool = True) -> int:
    """Minimum deadwood (points) of card codes `cards` in a round where `wild_rank` is wild
    (RULES.md, Five Crowns, "Deadwood"; the compiled meld solver)."""
    return _solver().deadwood_codes(list(cards), wild_rank, all_wild_melds)


def kept_deadwoods(hand: Sequence[int], wild_rank: int, all_wild_melds: bool = True) -> list[int]:
    """For each position i of `hand`, the deadwood (points) of the hand without card i.

    Copies of the same card share one meld search."""
    dw = _solver().deadwood_codes
    hand = list(hand)
    seen: dict[int, int] = {}
    out = []
    for i, c in enumerate(hand):
        v = seen.get(c)
        if v is None:
            v = seen[c] = dw(hand[:i] + hand[i + 1:], wild_rank, all_wild_melds)
        out.append(v)
    return out


def last_turn_discard(hand: Sequence[int], kept: Sequence[int]) -> int:
    """The card the engine discards on a seat's last turn of a round (after someone went
    out): the first card of `hand` (in the order held, the card just drawn last) whose
    discard leaves the least deadwood, `kept` being :func:`kept_deadwoods` of `hand`.

    RULES.md, Five Crowns, "Going out": the others keep the n cards of least deadwood.
    Policies use it to see what taking the face-up card would lead to on a last turn."""
    return hand[list(kept).index(min(kept))]


# --------------------------------------------------------------------------- rules
def check_sets(sets: Any, players: int) -> int:
    """The number of 116-card sets shuffled together for a table of `players` (RULES.md,
    Five Crowns: "Players: 1 to 7 with one set, up to 14 with two sets shuffled together").

    Parameters
    ----------
    sets : int or None
        1 or 2 (a numpy integer too); None: the default, 1 for up to 7 players, else 2.
    players : int
        Players at the table (1..14, checked by the caller).

    Returns
    -------
    int
        The number of sets, 1 or 2.

    Raises
    ------
    RulesError
        `sets` not an integer 1..2, or 1 set for more than 7 players (``argument="sets"``,
        so the command line names ``--sets``).
    """
    if sets is None:
        return 1 if players <= 7 else 2
    if isinstance(sets, bool) or not isinstance(sets, (int, np.integer)) or not 1 <= sets <= 2:
        raise RulesError(f"sets must be an integer 1..2, got {sets!r}", argument="sets")
    if players > 7 * sets:
        raise RulesError(f"sets={int(sets)}: one set of cards is for 1 to 7 players, not {players}", argument="sets")
    return int(sets)


@dataclass(frozen=True)
class GameRules:
    """Rules options of a Five Crowns game (RULES.md, Five Crowns; defaults as there).

    Parameters
    ----------
    players : int, default 4
        Seats at the table, 1..14 (1..7 with one card set, 8..14 need two).
    sets : int, optional
        116-card sets shuffled together: 1 or 2.  Default: 1 for up to 7 players, else 2.
    rounds : int, default 11
        Rounds played (1..11), always starting from round 1 (3 cards, 3s wild).  Fewer
        than 11 is the "shorter game" house rule of seeds/002.
    ties : {"share", "tiebreak"}, default "share"
        Equal lowest totals share the win, or play 6-card tiebreak rounds.
    max_tiebreaks : int, default 3
        Tiebreak rounds at most (tied after the last one: the win is shared).
    max_turns : int, default 2000
        Turns (of all players) after which a round in which nobody went out ends, every
        player scoring the deadwood in hand.
    first_dealer : int, default 0
        Seat that deals round 1.
    all_wild_melds : bool, default True
        Whether a meld of wilds only is allowed (RULES.md option, see
        :class:`crowns_solver.five_crowns.Rules`).

    Raises
    ------
    RulesError
        If an option is out of range (too many players for one set, ...).
    """

    players: int = 4
    sets: int | None = None
    rounds: int = ROUNDS
    ties: Literal["share", "tiebreak"] = "share"
    max_tiebreaks: int = 3
    max_turns: int = 2000
    first_dealer: int = 0
    all_wild_melds: bool = True

    def __post_init__(self) -> None:
        def whole(name: str, lo: int, hi: int) -> None:
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not lo <= v <= hi:
                raise RulesError(f"{name} must be an integer {lo}..{hi}, got {v!r}", argument=name)
            object.__setattr__(self, name, int(v))  # a numpy integer is stored as int

        whole("players", 1, 14)
        object.__setattr__(self, "sets", check_sets(self.sets, self.players))
        whole("rounds", 1, ROUNDS)
        # a str first: a NumPy array was kept, and the game record was not JSON (session 24)
        object.__setattr__(self, "ties", check_choice("ties", self.ties, TIES, RulesError))
        whole("max_tiebreaks", 0, MAX_TIEBREAKS)
        whole("max_turns", 1, 10**7)
        whole("first_dealer", 0, self.players - 1)
        # a NumPy bool is a flag too, kept as a bool (docs/decisions.md, flags; session 22)
        object.__setattr__(self, "all_wild_melds", check_flag("all_wild_melds", self.all_wild_melds, RulesError))

    def to_dict(self) -> dict[str, Any]:
        """The rules as plain JSON (the ``rules`` of a game record).

        Returns
        -------
        dict
            Every field under its own name: ``players``, ``sets``, ``rounds``, ``ties``,
            ``max_tiebreaks``, ``max_turns``, ``first_dealer``, ``all_wild_melds``.
        """
        return {
            "players": self.players, "sets": self.sets, "rounds": self.rounds, "ties": self.ties,
            "max_tiebreaks": self.max_tiebreaks, "max_turns": self.max_turns, "first_dealer": self.first_dealer,
            "all_wild_melds": self.all_wild_melds,
        }


# --------------------------------------------------------------------------- state
@dataclass(frozen=True)
class Turn:
    """One turn as the record keeps it.

    Attributes
    ----------
    seat : int
        Who played.
    source : {"draw", "discard"}
        Where the card came from.
    card : int
        The card drawn (hidden from the others when it came from the draw pile).
    discard : int
        The card discarded.
    out : bool
        Whether the player went out on this turn.
    final : bool
        Whether this was the player's last turn after someone else went out.
    reshuffle : tuple of int, optional
        New draw pile (top first), when this draw reshuffled the discard pile.
    """

    seat: int
    source: DrawSource
    card: int
    discard: int
    out: bool = False
    final: bool = False
    reshuffle: tuple[int, ...] | None = None


class _Round:
    """Everything on the table during one round (internal; policies see a SeatView)."""

    __slots__ = (
        "number", "cards", "wild", "seats", "dealer", "hands", "draw", "discard", "turns",
        "out", "deadwood", "kept", "phase", "seat", "drawn", "totals", "known", "public", "reshuffled", "since",
    )

    def __init__(self, number: int, cards: int, wild: int, seats: list[int], dealer: int, totals: list[int]):
        self.number, self.cards, self.wild, self.seats, self.dealer = number, cards, wild, seats, dealer
        self.hands: dict[int, list[int]] = {s: [] for s in seats}
        self.draw: list[int] = []      # top = last
        self.discard: list[int] = []   # top = last
        self.turns: list[Turn] = []
        self.out: int | None = None
        self.deadwood: dict[int, int] = {}
        self.kept: list[int] | None = None
        self.phase = "draw"
        self.seat = -1
        self.drawn: int | None = None
        self.totals = totals
        # cards each seat is known (to everyone) to hold: taken from the discard pile
        self.known: dict[int, list[int]] = {s: [] for s in seats}
        # the turns as everyone saw them: (seat, source, card taken from the discard pile
        # or None for a blind draw, card discarded)
        self.public: list[tuple[int, str, int | None, int]] = []
        # the cards the last reshuffle put into the draw pile (everyone saw them in the
        # discard pile), or None before any; each seat's blind draws since (its own secret)
        self.reshuffled: list[int] | None = None
        self.since: dict[int, list[int]] = {s: [] for s in seats}


class SeatView:
    """What one seat may see at one decision: its own hand, the discard pile, the public
    history, the sizes of the other hands and of the draw pile.

    Policies get a fresh view for every decision (one to choose the draw, one to choose
    the discard).  A view is a snapshot: it is built from copies of what this seat may
    see (tuples and read-only mappings) and keeps no reference to the table, so no
    attribute, however private, leads to another seat's hand or to the draw pile (the
    tests walk every object reachable from a view).  Card arguments and results are codes
    (see :mod:`crowns_solver.five_crowns.cards`).

    Parameters
    ----------
    rnd : the engine's round (internal)
        Read once, here: only this seat's cards and public facts are copied.
    seat : int
        This seat.
    rng : numpy.random.Generator
        This seat's generator.
    rules : GameRules
        The game's rules (frozen).

    Attributes
    ----------
    seat : int
        This seat.
    rng : numpy.random.Generator
        This seat's random generator (spawned from the game seed).
    """

    __slots__ = (
        "seat", "rng", "_rules", "_number", "_cards", "_wild", "_seats", "_totals", "_hand", "_phase",
        "_drawn", "_deadwood", "_kept", "_discard", "_draw_size", "_hand_sizes", "_out", "_history", "_known",
        "_reshuffled", "_since",
    )

    def __init__(self, rnd: _Round, seat: int, rng: np.random.Generator, rules: GameRules):
        self.seat, self.rng, self._rules = seat, rng, rules
        self._number, self._cards, self._wild = int(rnd.number), int(rnd.cards), int(rnd.wild)
        self._seats = tuple(rnd.seats)
        self._totals = tuple(rnd.totals)
        own_turn = rnd.seat == seat
        self._hand = tuple(rnd.hands[seat])
        self._phase = rnd.phase if own_turn else "wait"
        self._drawn = rnd.drawn if own_turn and rnd.phase == "discard" else None
        self._deadwood = rnd.deadwood.get(seat)
        self._kept = tuple(rnd.kept) if own_turn and rnd.phase == "discard" and rnd.kept is not None else None
        self._discard = tuple(rnd.discard)
        self._draw_size = len(rnd.draw)
        self._hand_sizes = MappingProxyType({s: len(h) for s, h in rnd.hands.items()})
        self._out = rnd.out
        self._history = tuple(rnd.public)  # public turns only: a card drawn blind is not shown
        self._known = MappingProxyType({s: tuple(c) for s, c in rnd.known.items() if s != seat})
        self._reshuffled = None if rnd.reshuffled is None else tuple(rnd.reshuffled)
        self._since = tuple(rnd.since[seat])  # this seat's own blind draws only

    # the round
    @property
    def round(self) -> int:
        """Round number (1..11; tiebreak rounds go on from the last main round: 12, 13... in
        an 11-round game; the ``crowns`` command labels them tb1, tb2...)."""
        return self._number

    @property
    def cards_dealt(self) -> int:
        """n, the cards dealt to each player this round."""
        return self._cards

    @property
    def wild_rank(self) -> int:
        """The wild rank this round (3..13); jokers are wild too."""
        return self._wild

    @property
    def sets(self) -> int:
        """116-card sets in play."""
        return int(self._rules.sets or 1)

    @property
    def all_wild_melds(self) -> bool:
        """Whether melds of wilds only are allowed (rules option)."""
        return self._rules.all_wild_melds

    @property
    def seats(self) -> tuple[int, ...]:
        """Seats playing this round, in turn order (the starter first)."""
        return self._seats

    @property
    def next_seat(self) -> int:
        """The seat that plays after this one (who may take this seat's discard)."""
        s = self._seats
        return s[(s.index(self.seat) + 1) % len(s)]

    @property
    def totals(self) -> tuple[int, ...]:
        """Totals of every seat before this round (points)."""
        return self._totals

    # own cards
    @property
    def hand(self) -> tuple[int, ...]:
        """This seat's cards: n before drawing, n + 1 when choosing the discard."""
        return self._hand

    @property
    def phase(self) -> str:
        """``"draw"`` (choose the source) or ``"discard"`` (choose the card); ``"wait"`` in a
        view made when it is not this seat's turn."""
        return self._phase

    @property
    def drawn(self) -> int | None:
        """The card drawn this turn (in the discard phase)."""
        return self._drawn

    @property
    def deadwood(self) -> int:
        """Deadwood of this seat's n cards at the start of its turn (points)."""
        return self._deadwood

    def kept_deadwood(self, card: int) -> int:
        """Discard phase: deadwood of the n cards kept when discarding `card` (points).

        Parameters
        ----------
        card : int
            A card code in this seat's hand (:attr:`hand`).

        Returns
        -------
        int
            The least deadwood of the other n cards, in points (RULES.md, Five Crowns,
            "Deadwood").

        Raises
        ------
        PolicyError
            If this view is not in the seat's own discard phase.
        CardError
            If `card` is not in the hand (the message names it and the hand).
        """
        kept = self._kept_list()
        if isinstance(card, bool) or card not in self._hand:
            shown = card_name(card) if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < NUM_CODES \
                else repr(card)
            raise CardError(f"kept_deadwood: {shown} is not in the hand"
                            f" ({' '.join(card_name(c) for c in self._hand)})")
        return kept[self._hand.index(card)]

    def kept_deadwoods(self) -> dict[int, int]:
        """Discard phase: each distinct card in hand -> deadwood of the n cards kept.

        Returns
        -------
        dict of int to int
            Card code -> least deadwood in points of the n cards kept when it is
            discarded.

        Raises
        ------
        PolicyError
            If this view is not in the seat's own discard phase.
        """
        kept = self._kept_list()
        return {c: kept[i] for i, c in enumerate(self._hand)}

    def _kept_list(self) -> tuple[int, ...]:
        if self._kept is None:
            raise PolicyError("kept_deadwood is only known in the seat's own discard phase")
        return self._kept

    @property
    def can_go_out(self) -> bool:
        """Discard phase: whether some n of the n + 1 cards have deadwood 0."""
        return min(self._kept_list()) == 0

    @property
    def going_out_discards(self) -> tuple[int, ...]:
        """Discard phase: the distinct cards whose discard leaves deadwood 0."""
        kept = self._kept_list()
        return tuple(sorted({c for i, c in enumerate(self._hand) if kept[i] == 0}))

    # public information
    @property
    def discard_top(self) -> int:
        """Top card of the discard pile."""
        return self._discard[-1]

    @property
    def discard_pile(self) -> tuple[int, ...]:
        """The discard pile, bottom to top (everyone saw each card go there)."""
        return self._discard

    @property
    def draw_size(self) -> int:
        """Cards in the draw pile."""
        return self._draw_size

    @property
    def hand_sizes(self) -> dict[int, int]:
        """Seat -> number of cards in hand (a fresh dict)."""
        return dict(self._hand_sizes)

    @property
    def out_seat(self) -> int | None:
        """The seat that went out this round, if any (then this is the last turn)."""
        return self._out

    @property
    def final_turn(self) -> bool:
        """Whether someone went out: this seat's turn is its last of the round."""
        return self._out is not None

    @property
    def history(self) -> tuple[tuple[int, str, int | None, int], ...]:
        """Public turns of this round: (seat, source, card taken from the discard pile or
        None for a hidden draw, card discarded)."""
        return self._history

    def known_cards(self, seat: int) -> tuple[int, ...]:
        """Cards `seat` is known to hold: taken from the discard pile and not discarded since.

        Parameters
        ----------
        seat : int
            A seat playing this round (:attr:`seats`); this view's own seat gives its hand.

        Returns
        -------
        tuple of int
            Card codes.

        Raises
        ------
        PolicyError
            If `seat` is not a seat of this round (a KeyError until the session-18 probe,
            NumPy integers included).
        """
        if isinstance(seat, bool) or not isinstance(seat, numbers.Integral) or (
                seat != self.seat and int(seat) not in self._known):
            raise PolicyError(f"no seat {seat!r} in this round (seats {', '.join(map(str, sorted(self._seats)))})")
        if seat == self.seat:
            return self._hand
        return self._known[int(seat)]

    def unseen(self) -> np.ndarray:
        """Counts per card code (shape (56,)) of the cards this seat has not seen: the
        full deck minus its own hand, the discard pile, and the cards known to be in other
        hands.  These are the cards that may be in the draw pile or hidden in other hands
        (after a reshuffle the draw pile holds fewer: see :meth:`draw_pool`).

        Returns
        -------
        numpy.ndarray of int64, shape (56,)
            Element ``c``: unseen copies of card code ``c``.
        """
        counts = full_deck(self.sets)
        for c in self._hand:
            counts[c] -= 1
        for c in self._discard:
            counts[c] -= 1
        for cards in self._known.values():
            for c in cards:
                counts[c] -= 1
        return counts

    @property
    def reshuffled(self) -> tuple[int, ...] | None:
        """The cards the last reshuffle of this round put into the draw pile (the discard
        pile under its top card, which every seat saw), or None if the draw pile has not
        run out this round (RULES.md, Five Crowns, "Deal and seats")."""
        return self._reshuffled

    @property
    def drawn_since_reshuffle(self) -> tuple[int, ...]:
        """The cards this seat drew blind since the last reshuffle (empty before one)."""
        return self._since

    @property
    def discard_joins_pool(self) -> bool:
        """Discard phase: whether the card this seat discards now will be among the cards
        its next blind draw comes from (:meth:`draw_pool` with ``discard``).

        True when the draw pile holds exactly one card and another seat plays before this
        one draws again: assuming, as the look-ahead does, that each other seat draws one
        card from the draw pile, the next seat takes that last card, and the blind draw
        after it reshuffles the discard pile under its top card: the discard pile as it
        is now plus this seat's discard (RULES.md, Five Crowns, "Deal and seats")."""
        return len(self._hand) > self._cards and self._draw_size == 1 and len(self._seats) > 1

    def draw_pool(self, discard: int | None = None) -> np.ndarray:
        """Counts per card code (shape (56,), int64) of the cards this seat's next blind
        draw can come from, as far as it knows: what the advisor and tracker players look
        ahead over.

        In the draw phase that is the draw now; in the discard phase, the draw of this
        seat's next turn, after one turn of every other seat, each assumed to draw one
        card from the draw pile (the draws that can empty it).  Cards drawn by other
        seats in between are unknown to this seat, so its own draw is still equally
        likely to be any card of the pool.

        * Before any reshuffle this round: :meth:`unseen`, every card it has not seen (the
          draw pile and the hidden cards of other hands, each copy equally likely).
        * After a reshuffle: the draw pile holds only cards of :attr:`reshuffled`, so a
          card's copies are capped at those reshuffled less the ones this seat drew blind
          since (:attr:`drawn_since_reshuffle`), and at its unseen copies (a copy seen
          since, in a hand or on the discard pile, is not in the pile).  Cards never seen
          are in other hands, not in the pile.  This cap is the most copies of each card
          the pile can hold in some deal consistent with what this seat saw (a test checks
          it against a brute force over every such deal in 2-player games, and in 3- and
          4-player games that the true pile always fits in it).
        * With an empty draw pile the next blind draw reshuffles the discard pile under its
          top card: in the draw phase those cards; in the discard phase (n + 1 cards) the
          whole discard pile, since the card about to be discarded will be the top (and
          whoever draws blind first, the pile under the top is then this one).
        * Discard phase with one card left in the draw pile and another seat to play
          first (:attr:`discard_joins_pool`): the next seat draws that card, and the draw
          after it reshuffles the discard pile under its top card, which is the whole
          discard pile now plus this seat's `discard`.  Exact when every other seat draws
          from the draw pile; if the next seat takes the face-up card instead, the last
          card stays for a later draw.
        * Discard phase with 2 to P - 1 cards left (P seats, so 3 or more): the pile runs
          out before this seat's next draw too, but the reshuffle then holds discards
          other seats have not made yet, unknown now; the pool stays the one above (the
          unseen cards, capped after an earlier reshuffle), a known approximation.

        The pool is never empty while the draw pile holds a card.

        Parameters
        ----------
        discard : int, optional
            Discard phase: the card this seat is about to discard.  It joins the pool when
            :attr:`discard_joins_pool` (one card left in the draw pile); otherwise, and
            when not given, it changes nothing.

        Returns
        -------
        numpy.ndarray of int64, shape (56,)
            Element ``c``: the copies of card code ``c`` the draw may come from, as
            described above.

        Raises
        ------
        PolicyError
            If `discard` is given and is not a card of this seat's hand.
        """
        if discard is not None and (isinstance(discard, bool) or discard not in self._hand):
            raise PolicyError(f"draw_pool: discard {discard!r} is not a card of seat {self.seat}'s hand")
        if self._draw_size == 0 or self.discard_joins_pool:
            pile = self._discard if len(self._hand) > self._cards else self._discard[:-1]
            counts = np.bincount(np.asarray(pile, dtype=np.int64), minlength=NUM_CODES).astype(np.int64)
            if discard is not None and self._draw_size == 1:
                counts[discard] += 1
            return counts
        counts = self.unseen()
        if self._reshuffled is not None:
            cap = (np.bincount(np.asarray(self._reshuffled, dtype=np.int64), minlength=NUM_CODES)
                   - np.bincount(np.asarray(self._since, dtype=np.int64), minlength=NUM_CODES))
            counts = np.minimum(counts, cap)
        return counts.astype(np.int64)

    def after_taking_discard(self) -> SeatView:
        """Draw phase: the view this seat would have in its discard phase after taking the
        face-up card (a what-if: nothing changes at the table).

        The hand holds the n + 1 cards (the face-up card last, as the engine appends it),
        the discard pile loses its top card, and the kept deadwoods are filled in; the rest
        (history, known cards, deadwood at the start of the turn) is the same as the view
        the engine would build then.

        Returns
        -------
        SeatView
            A new view in the ``"discard"`` phase with ``drawn`` the face-up card.

        Raises
        ------
        PolicyError
            If this view is not in this seat's own draw phase.
        """
        if self._phase != "draw":
            raise PolicyError(f"after_taking_discard needs the seat's own draw phase, not {self._phase!r}")
        top = self._discard[-1]
        view = object.__new__(SeatView)
        for name in SeatView.__slots__:
            object.__setattr__(view, name, getattr(self, name))
        view._hand = (*self._hand, top)
        view._phase, view._drawn = "discard", top
        view._kept = tuple(kept_deadwoods(list(view._hand), self._wild, self._rules.all_wild_melds))
        view._discard = self._discard[:-1]
        sizes = dict(self._hand_sizes)
        sizes[self.seat] += 1
        view._hand_sizes = MappingProxyType(sizes)
        return view

    def seen_cards(self) -> list[int]:
        """Cards out of the draw pile that this seat knows of, besides its hand: the
        discard pile and the cards known in other hands (the ``seen`` of the discard
        advisor; after a reshuffle give it :attr:`reshuffled` less
        :attr:`drawn_since_reshuffle` as ``draw_pile`` too).

        Returns
        -------
        list of int
            Card codes: the discard pile, bottom first, then the known cards of the other
            hands.
        """
        out = list(self._discard)
        for cards in self._known.values():
            out.extend(cards)
        return out

    def __repr__(self) -> str:
        hand = " ".join(card_name(c) for c in self.hand)
        return (
            f"<SeatView seat {self.seat} round {self.round} ({self.wild_rank}s wild) {self.phase}:"
            f" hand {hand}, discard top {card_name(self._discard[-1]) if self._discard else '(none)'}>"
        )


@dataclass(frozen=True)
class TableState:
    """The whole table at one moment, for observers (tests, a watching display).

    Attributes
    ----------
    round : int
    wild_rank : int
    hands : dict of int -> tuple of int
        Every seat's cards.
    draw : tuple of int
        The draw pile, top first.
    discard : tuple of int
        The discard pile, top first.
    event : str
        What just happened: ``"deal"``, ``"draw"``, ``"discard"``, ``"round_end"``.
    seat : int
        Who acted (-1 for the deal and the round end).
    """

    round: int
    wild_rank: int
    hands: dict[int, tuple[int, ...]]
    draw: tuple[int, ...]
    discard: tuple[int, ...]
    event: str
    seat: int


# --------------------------------------------------------------------------- results
@dataclass(frozen=True)
class RoundResult:
    """One round's outcome.

    Attributes
    ----------
    round : int
        1..11; tiebreak rounds go on from the last main round (``GameRules.rounds`` + 1,
        + 2...: 12, 13... in a full game).  The ``crowns`` command labels them tb1, tb2...
    cards_dealt, wild_rank, dealer : int
    seats : tuple of int
        Seats that played, in turn order.
    out : int or None
        The seat that went out (None if the round hit ``max_turns``).
    scores : dict of int -> int
        Points each seat scored this round.
    turns : int
        Turns played (all seats).
    reshuffles : int
        Times the discard pile was reshuffled into a new draw pile.
    """

    round: int
    cards_dealt: int
    wild_rank: int
    dealer: int
    seats: tuple[int, ...]
    out: int | None
    scores: dict[int, int]
    turns: int
    reshuffles: int


@dataclass(frozen=True)
class GameResult:
    """A finished game.

    Attributes
    ----------
    rules : GameRules
    policies : tuple of str
        Policy name of each seat.
    seed : int, numpy.random.SeedSequence or None
        The seed that replays the game (``play_game(policies, seed=result.seed)``): the
        whole number or SeedSequence given, or the 128-bit number drawn from a Generator
        or, for None, from the operating system.  None when replayed from a record
        without one.  Not compared by ``==`` (a SeedSequence read back from a record is
        another object; two results are equal when their games are).
    rounds : tuple of RoundResult
        The 11 (or ``rules.rounds``) rounds.
    tiebreaks : tuple of RoundResult
        Tiebreak rounds played, if any.
    totals : tuple of int
        Total points of each seat over the regular rounds.
    winners : tuple of int
        Winning seats (more than one: a shared win).
    record : dict
        The full game record (JSON-ready; :func:`replay` plays it again).
    """

    rules: GameRules
    policies: tuple[str, ...]
    seed: RecordedSeed | None = field(compare=False)
    rounds: tuple[RoundResult, ...]
    tiebreaks: tuple[RoundResult, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    record: dict[str, Any] = field(repr=False, compare=False)

    def __repr__(self) -> str:
        """One line a notebook can read: players, policies, seed, rounds, totals and
        winners (the rounds themselves are in ``rounds``, the record in ``record``)."""
        tb = f", tiebreaks={len(self.tiebreaks)}" if self.tiebreaks else ""
        return (f"GameResult(players={self.rules.players}, policies={self.policies!r},"
                f" seed={seed_text(self.seed) if self.seed is not None else None},"
                f" rounds={len(self.rounds)}{tb}, totals={self.totals!r}, winners={self.winners!r})")

    @property
    def round_scores(self) -> np.ndarray:
        """Points per round and seat, shape (rounds, players), int64."""
        return np.array([[r.scores[s] for s in range(self.rules.players)] for r in self.rounds], dtype=np.int64)

    @property
    def places(self) -> tuple[int, ...]:
        """Place of each seat (1 = best; equal totals share a place, the tiebreak order
        decides among the tied winners)."""
        tot = self.totals
        places = [1 + sum(1 for t in tot if t < tot[s]) for s in range(len(tot))]
        low = min(tot)
        for s in range(len(tot)):
            if tot[s] == low and s not in self.winners:
                places[s] = 1 + len(self.winners)
        return tuple(places)

    def save(self, path: str | os.PathLike[str], *, overwrite: bool = False) -> None:
        """Write the game record as JSON to `path`.

        Parameters
        ----------
        path : str or path-like
            The file to write (``replay(path)`` reads it back).
        overwrite : bool, default False
            Replace `path` if it already exists (the CLI's ``--force``).  Without it an
            existing file is never touched.

        Raises
        ------
        OutputExistsError, OSError
            As :func:`crowns_solver.five_crowns._files.write_json`, which writes it
            (atomically): an existing `path` without `overwrite` (its subclasses: an empty
            path, a folder, a missing folder); a file that cannot be written.
        """
        from ._files import write_json

        write_json(path, self.record, overwrite=overwrite, what="game record")


# --------------------------------------------------------------------------- engine
class _Shuffles:
    """Source of shuffled decks: live from the seed, or read back from a record.

    Reading a record with `seed` given (the record's own seed), every deck and reshuffle
    is also dealt live from that seed and must be the recorded one."""

    def __init__(self, seed_seq: np.random.SeedSequence | None, record_rounds: list[dict] | None = None,
                 seed: RecordedSeed | None = None):
        self._seq = seed_seq
        self._record = record_rounds
        self._seed = seed

    def _live_deck(self, sets: int) -> list[int]:
        assert self._seq is not None
        rng = np.random.default_rng(self._seq.spawn(1)[0])
        counts = full_deck(sets)
        deck = np.repeat(np.arange(NUM_CODES), counts)
        rng.shuffle(deck)
        self._rng = rng  # reshuffles of this round continue this generator
        return deck.tolist()

    def _live_reshuffle(self, cards: list[int]) -> list[int]:
        arr = np.array(cards)
        self._rng.shuffle(arr)
        return arr.tolist()

    def deck(self, index: int, rnd_no: int, sets: int) -> list[int]:
        if self._record is not None:
            if index >= len(self._record):
                raise RecordError(f"record: round {rnd_no} is missing")
            deck = _codes(self._record[index].get("deck"), f"record: round {rnd_no} deck")
            if self._seed is not None and self._live_deck(sets) != deck:
                raise RecordError(
                    f"record: round {rnd_no}: the deck is not the one seed {seed_text(self._seed)} deals"
                    " (the record's seed or its deck was changed)"
                )
            return deck
        return self._live_deck(sets)

    def reshuffle(self, cards: list[int], rnd_no: int, turn: dict | None) -> list[int]:
        """New draw pile (top first) from `cards`."""
        if self._record is not None:
            new = _codes((turn or {}).get("reshuffle"), f"record: round {rnd_no} reshuffle")
            if sorted(new) != sorted(cards):
                raise RecordError(f"record: round {rnd_no}: the reshuffled pile is not the discard pile")
            if self._seed is not None and self._live_reshuffle(cards) != new:
                raise RecordError(f"record: round {rnd_no}: the reshuffle is not the one seed {seed_text(self._seed)} makes")
            return new
        return self._live_reshuffle(cards)


def _seat_generator(seq: np.random.SeedSequence) -> np.random.Generator:
    """A seat's generator: the stream of ``default_rng(seq)``, on a bit generator whose
    visible ``seed_seq`` is a fixed public one.  A generator made from `seq` itself would
    hand the policy the game's root entropy (``rng.bit_generator.seed_seq.entropy``), from
    which every deck of the game can be recomputed: a hidden-card leak."""
    hidden = np.random.PCG64(0)
    hidden.state = np.random.PCG64(seq).state
    return np.random.Generator(hidden)


def _codes(items: Any, what: str) -> list[int]:
    if not isinstance(items, list):
        raise RecordError(f"{what}: expected a list of cards")
    try:
        return [parse_card(c) for c in items]
    except CrownsError as exc:
        raise RecordError(f"{what}: {exc}") from None


def _check_recorded_hands(recorded: Any, number: int, order: list[int], hands: dict[int, list[int]]) -> None:
    """A record's end-of-round hands (``"hands"``: seat -> cards) must be the cards each
    seat holds when the replayed round ends (in any order and card spelling)."""
    if not isinstance(recorded, dict):
        raise RecordError(f"record: round {number}: 'hands' must map each seat to the cards it holds")
    recorded = {str(k): v for k, v in recorded.items()}
    if sorted(recorded) != sorted(str(s) for s in order):
        named = sorted(recorded, key=lambda k: (not k.isdigit(), int(k) if k.isdigit() else 0, k))
        raise RecordError(f"record: round {number}: 'hands' names seats {', '.join(map(str, named))}; the round's"
                          f" seats are {', '.join(map(str, sorted(order)))}")
    for s in order:
        cards = _codes(recorded[str(s)], f"record: round {number}: hands of seat {s}")
        if sorted(cards) != sorted(hands[s]):
            said = " ".join(map(str, recorded[str(s)])) or "no card"
            held = " ".join(card_name(c) for c in hands[s]) or "no card"
            raise RecordError(f"record: round {number}: seat {s} ends the round holding {held}, the record says {said}")


def _turn_order(players: int, seats: list[int], dealer: int) -> list[int]:
    """Seats playing a round in turn order: the first one left of the dealer, then onwards."""
    return [(dealer + k) % players for k in range(1, players + 1) if (dealer + k) % players in seats]


class _Engine:
    def __init__(
        self,
        rules: GameRules,
        policies: Sequence[Any],
        seed_seq: np.random.SeedSequence | None,
        *,
        observer: Callable[[TableState], None] | None = None,
        record: dict | None = None,
        view_factory: Callable[..., SeatView] = SeatView,
        record_seed: RecordedSeed | None = None,
    ):
        self.rules = rules
        self.policies = list(policies)
        self.observer = observer
        self.view_factory = view_factory
        self.replaying = record is not None
        self.recorded_rounds = (record or {}).get("rounds", []) + (record or {}).get("tiebreaks", []) if record else None
        if seed_seq is None:
            seed_seq = np.random.SeedSequence(0)
        deck_seq, policy_seq = seed_seq.spawn(2)
        self.shuffles = _Shuffles(deck_seq, self.recorded_rounds, record_seed)
        self.rngs = [_seat_generator(s) for s in policy_seq.spawn(rules.players)]
        self.totals = [0] * rules.players
        self.round_index = 0

    # -- observer
    def _observe(self, r: _Round, event: str, seat: int) -> None:
        if self.observer is not None:
            self.observer(TableState(
                r.number, r.wild, {s: tuple(h) for s, h in r.hands.items()}, tuple(reversed(r.draw)),
                tuple(reversed(r.discard)), event, seat,
            ))

    def play_round(self, number: int, cards: int, seats: list[int], dealer: int) -> tuple[RoundResult, dict]:
        wild = cards  # the wild rank is the number of cards dealt (RULES.md)
        P = len(seats)
        order = _turn_order(self.rules.players, seats, dealer)
        r = _Round(number, cards, wild, order, dealer, list(self.totals))
        deck = self.shuffles.deck(self.round_index, number, self.rules.sets)
        rec_round = self.recorded_rounds[self.round_index] if self.recorded_rounds is not None else None
        rec_turns = (rec_round or {}).get("turns", []) if self.replaying else None
        if self.replaying and not isinstance(rec_turns, list):
            raise RecordError(f"record: round {number}: 'turns' must be a list")
        self.round_index += 1
        if self.replaying and sorted(deck) != sorted(np.repeat(np.arange(NUM_CODES), full_deck(self.rules.sets)).tolist()):
            raise RecordError(f"record: round {number}: the deck is not {self.rules.sets} full set(s)")
        for i in range(P * cards):  # one card at a time, starting left of the dealer
            r.hands[order[i % P]].append(deck[i])
        r.discard.append(deck[P * cards])
        r.draw = deck[P * cards + 1:][::-1]
        for s in order:
            r.deadwood[s] = deadwood_of(r.hands[s], wild, self.rules.all_wild_melds)
        self._observe(r, "deal", -1)

        scores: dict[int, int] = {}
        turn_log: list[dict] = []
        reshuffles = 0
        idx = 0
        while True:
            if r.out is None and len(r.turns) >= self.rules.max_turns:
                for s in order:  # nobody went out: everyone scores the cards in hand
                    scores[s] = r.deadwood[s]
                break
            seat = order[idx]
            final = r.out is not None
            rec_turn = None
            if self.replaying:
                if len(r.turns) >= len(rec_turns):
                    raise RecordError(f"record: round {number}: turn {len(r.turns) + 1} is missing")
                rec_turn = rec_turns[len(r.turns)]
                if not isinstance(rec_turn, dict) or isinstance(rec_turn.get("seat"), bool) \
                        or rec_turn.get("seat") != seat:   # true is not seat 1
                    raise RecordError(f"record: round {number} turn {len(r.turns) + 1}: expected seat {seat} to play")
                for flag in ("out", "final"):   # "out": "false" was read as true (session 21 probe)
                    if not isinstance(rec_turn.get(flag, False), bool):
                        raise RecordError(f"record: round {number} turn {len(r.turns) + 1}: {flag!r} must be true or"
                                          f" false, got {rec_turn[flag]!r}")
            policy = self.policies[seat]
            r.phase, r.seat, r.drawn, r.kept = "draw", seat, None, None
            source = (rec_turn.get("source") if rec_turn is not None
                      else policy.choose_draw(self.view_factory(r, seat, self.rngs[seat], self.rules)))
            if not is_choice(source, ("draw", "discard")):   # a str first (session 24)
                raise (RecordError if self.replaying else PolicyError)(
                    f"round {number}: seat {seat} ({_policy_name(policy)}) chose draw source {source!r};"
                    " expected 'draw' or 'discard'"
                )
            source = str.__str__(source)   # a NumPy str_ is recorded as str
            shuffled: list[int] | None = None
            if source == "draw" and not r.draw:
                if len(r.discard) > 1:
                    rest = r.discard[:-1]
                    new = self.shuffles.reshuffle(rest, number, rec_turn)
                    r.discard = r.discard[-1:]
                    r.draw = new[::-1]
                    r.reshuffled = list(rest)
                    r.since = {s: [] for s in order}
                    shuffled = new
                    reshuffles += 1
                else:  # cannot happen with allowed player counts (see module doc)
                    source = "discard"
            card = r.draw.pop() if source == "draw" else r.discard.pop()
            hand = r.hands[seat]
            hand.append(card)
            if source == "discard":
                r.known[seat].append(card)
            elif r.reshuffled is not None:
                r.since[seat].append(card)
            if rec_turn is not None and parse_card_or(rec_turn.get("card")) != card:
                raise RecordError(
                    f"record: round {number} turn {len(r.turns) + 1}: seat {seat} drew"
                    f" {card_name(card)}, the record says {rec_turn.get('card')!r}"
                )
            r.phase, r.drawn = "discard", card
            r.kept = kept_deadwoods(hand, wild, self.rules.all_wild_melds)
            self._observe(r, "draw", seat)
            if final:
                best = min(r.kept)
                discard = last_turn_discard(hand, r.kept)
                if rec_turn is not None and parse_card_or(rec_turn.get("discard")) != discard:
                    # a record may pick any discard of equal deadwood
                    d = parse_card_or(rec_turn.get("discard"))
                    if d not in hand or r.kept[hand.index(d)] != best:
                        raise RecordError(
                            f"record: round {number}: seat {seat}'s last discard {rec_turn.get('discard')!r}"
                            " does not leave the least deadwood"
                        )
                    discard = d
            else:
                discard = (parse_card_or(rec_turn.get("discard")) if rec_turn is not None
                           else policy.choose_discard(self.view_factory(r, seat, self.rngs[seat], self.rules)))
                if isinstance(discard, bool) or not isinstance(discard, (int, np.integer)) or discard not in hand:
                    shown = _show(rec_turn.get("discard")) if rec_turn is not None else _show(discard)
                    raise (RecordError if self.replaying else PolicyError)(
                        f"round {number}: seat {seat} ({_policy_name(policy)}) discarded {shown},"
                        f" which is not in its hand {' '.join(card_name(c) for c in hand)}"
                    )
                discard = int(discard)
            pos = hand.index(discard)
            kept_dw = r.kept[pos]
            goes_out = not final and min(r.kept) == 0
            if goes_out and kept_dw != 0:
                raise (RecordError if self.replaying else PolicyError)(
                    f"round {number}: seat {seat} ({_policy_name(policy)}) can go out but discarded"
                    f" {card_name(discard)}, which leaves deadwood {kept_dw}; discard one of"
                    f" {' '.join(card_name(c) for c in sorted({c for i, c in enumerate(hand) if r.kept[i] == 0}))}"
                )
            hand.pop(pos)
            r.discard.append(discard)
            if discard in r.known[seat]:
                r.known[seat].remove(discard)
            r.deadwood[seat] = kept_dw
            turn = Turn(seat, source, card, discard, goes_out, final, tuple(shuffled) if shuffled else None)
            if rec_turn is not None and (bool(rec_turn.get("out", False)) != goes_out):
                raise RecordError(f"record: round {number} turn {len(r.turns) + 1}: 'out' disagrees with the cards")
            if rec_turn is not None and bool(rec_turn.get("final", False)) != final:
                why = (f"seat {r.out} went out, so this is seat {seat}'s last turn" if final
                       else "nobody has gone out before it")
                raise RecordError(f"record: round {number} turn {len(r.turns) + 1}: 'final' disagrees with the play"
                                  f" ({why})")
            if rec_turn is not None and shuffled is None and rec_turn.get("reshuffle") is not None:
                raise RecordError(f"record: round {number} turn {len(r.turns) + 1}: the record has a reshuffle,"
                                  " but none happened at this turn (the draw pile was not empty or the card came"
                                  " from the discard pile)")
            r.turns.append(turn)
            r.public.append((seat, source, card if source == "discard" else None, discard))
            turn_log.append(_turn_dict(turn))
            r.phase, r.seat, r.drawn, r.kept = "draw", -1, None, None
            self._observe(r, "discard", seat)
            if goes_out:
                r.out = seat
                scores[seat] = 0
            elif final:
                scores[seat] = kept_dw
            idx = (idx + 1) % P
            if r.out is not None and order[idx] == r.out:
                break
        if self.replaying and len(rec_turns) != len(r.turns):
            raise RecordError(f"record: round {number} has {count(len(rec_turns), 'turn')}, the game ends after {len(r.turns)}")
        self._observe(r, "round_end", -1)
        result = RoundResult(number, cards, wild, dealer, tuple(order), r.out, scores, len(r.turns), reshuffles)
        rec = {
            "round": number, "cards": cards, "wild_rank": wild, "dealer": dealer, "seats": order,
            "deck": [_NAMES[c] for c in deck], "turns": turn_log, "out": r.out,
            "scores": [scores.get(s) for s in range(self.rules.players)],
            "hands": {str(s): [_NAMES[c] for c in r.hands[s]] for s in order},
        }
        if self.replaying and rec_round.get("hands") is not None:
            _check_recorded_hands(rec_round["hands"], number, order, r.hands)
        if self.replaying and rec_round.get("scores") is not None and rec_round.get("scores") != rec["scores"]:
            raise RecordError(f"record: round {number}: scores {rec_round.get('scores')} but the play gives {rec['scores']}")
        return result, rec

    def play(self) -> tuple[list[RoundResult], list[RoundResult], list[dict], list[dict], list[int]]:
        rules = self.rules
        P = rules.players
        rounds, recs = [], []
        for number in range(1, rules.rounds + 1):
            dealer = (rules.first_dealer + number - 1) % P
            res, rec = self.play_round(number, number + 2, list(range(P)), dealer)
            for s, pts in res.scores.items():
                self.totals[s] += pts
            rounds.append(res)
            recs.append(rec)
        low = min(self.totals)
        winners = [s for s in range(P) if self.totals[s] == low]
        tbs, tb_recs = [], []
        number = rules.rounds
        while rules.ties == "tiebreak" and len(winners) > 1 and len(tbs) < rules.max_tiebreaks:
            number += 1
            dealer = (rules.first_dealer + number - 1) % P
            res, rec = self.play_round(number, TIEBREAK_CARDS, winners, dealer)
            tbs.append(res)
            tb_recs.append(rec)
            low = min(res.scores[s] for s in winners)
            winners = [s for s in winners if res.scores[s] == low]
        return rounds, tbs, recs, tb_recs, winners


class _CompiledEngine(_Engine):
    """The same engine with each round's turn loop run by the compiled module
    ``_fc_game`` (built-in policies only; no observer, no replay).  Decks, reshuffles and
    every seat's random draws come from the same numpy generators as in :class:`_Engine`,
    so both play identical games."""

    def __init__(self, rules: GameRules, policies: Sequence[Any], seed_seq: np.random.SeedSequence,
                 specs: list[tuple[int, tuple[float, ...]]]):
        super().__init__(rules, policies, seed_seq)
        self.specs = specs

    def play_round(self, number: int, cards: int, seats: list[int], dealer: int) -> tuple[RoundResult, dict]:
        order = _turn_order(self.rules.players, seats, dealer)
        deck = self.shuffles.deck(self.round_index, number, self.rules.sets)
        self.round_index += 1
        turns, out, scored, hands, reshuffles = _compiled().play_round(
            deck, order, cards, [self.specs[s][0] for s in order], [self.specs[s][1] for s in order],
            [self.rngs[s] for s in order], lambda rest: self.shuffles.reshuffle(rest, number, None),
            self.rules.max_turns, self.rules.all_wild_melds, self.rules.sets, _NAMES,
        )
        scores = dict(scored)
        result = RoundResult(number, cards, cards, dealer, tuple(order), out, scores, len(turns), reshuffles)
        rec = {
            "round": number, "cards": cards, "wild_rank": cards, "dealer": dealer, "seats": order,
            "deck": [_NAMES[c] for c in deck], "turns": turns, "out": out,
            "scores": [scores.get(s) for s in range(self.rules.players)],
            "hands": {str(s): [_NAMES[c] for c in hands[s]] for s in order},
        }
        return result, rec


def _compiled():
    """The compiled game loop (ext/_fc_game.pyx), loaded on first use."""
    global _GAME
    if _GAME is None:
        from .._native import load

        _GAME = load("_fc_game")
    return _GAME


_GAME = None


def parse_card_or(value: Any) -> int | None:
    """A card code from record text, or None when it is not a card."""
    try:
        return parse_card(value)
    except CrownsError:
        return None


def _show(card: Any) -> str:
    try:
        return card_name(parse_card(card))
    except CrownsError:
        return repr(card)


def _turn_dict(t: Turn) -> dict[str, Any]:
    d: dict[str, Any] = {"seat": t.seat, "source": t.source, "card": _NAMES[t.card], "discard": _NAMES[t.discard]}
    if t.out:
        d["out"] = True
    if t.final:
        d["final"] = True
    if t.reshuffle:
        d["reshuffle"] = [_NAMES[c] for c in t.reshuffle]
    return d


def _policy_name(policy: Any) -> str:
    return str(getattr(policy, "name", type(policy).__name__))


def play_game(
    policies: Sequence[Any] | Sequence[str],
    *,
    seed: Seed,
    rules: GameRules | None = None,
    observer: Callable[[TableState], None] | None = None,
    engine: Literal["auto", "compiled", "python"] = "auto",
) -> GameResult:
    """Play one seeded game of Five Crowns between computer players (the rules of RULES.md,
    Five Crowns: "A turn", "Going out", "Deal and seats").

    Parameters
    ----------
    policies : sequence of Policy or str
        One per seat, in seat order (seat 0 deals round 1 by default): policy objects (see
        :mod:`crowns_solver.five_crowns.players`) or names (``"random"``, ``"greedy"``,
        ``"advisor"``, ``"tracker"``).
    seed : int, numpy.random.SeedSequence, numpy.random.Generator or None
        All randomness (every deck, every reshuffle, every seat's policy generator) is
        spawned from it: the same seed and policies give the same game.  A SeedSequence
        counts by its entropy and spawn key (it is not spawned from, so giving it again
        plays the same game); a Generator gives a 128-bit seed drawn from it (it
        advances), None one from the operating system.  :attr:`GameResult.seed` and the
        record keep the seed that replays the game (docs/decisions.md, "One seed rule
        for every game").
    rules : GameRules, optional
        Options; default ``GameRules(players=len(policies))``.
    observer : callable(TableState), optional
        Called after the deal, every draw, every discard and each round's end with the
        whole table (for tests and displays).
    engine : {"auto", "compiled", "python"}, default "auto"
        Who runs the turns.  ``"compiled"``: the compiled game loop (``ext/_fc_game.pyx``),
        which plays the built-in policies (random, greedy, advisor, tracker, with any
        parameters) without calling back into Python.  ``"python"``: this module's
        engine, which asks each policy object through a :class:`SeatView` (needed for
        custom policies, subclasses of the built-in ones and observers).  ``"auto"``:
        compiled when every seat plays a built-in policy and there is no observer,
        otherwise Python.  Both engines play identical games (same record) for the same
        seed and policies; the compiled one is several times faster.

    Returns
    -------
    GameResult
        Round scores, totals, winners and the full record.

    Raises
    ------
    RulesError
        Bad options or seed, `rules` is not a :class:`GameRules`, or `rules.players`
        differs from the number of policies.
    PolicyError
        An unknown policy name or an object that is not a policy (no ``choose_draw`` and
        ``choose_discard``), or a policy chose something illegal (the message names
        the seat, the policy and the card); ``engine="compiled"`` with a policy that has
        no compiled twin, or with an observer.
    """
    from .players import compiled_spec, get_policy

    engine = check_choice("engine", engine, ("auto", "compiled", "python"), RulesError, argument=None)
    if isinstance(policies, (str, bytes)) or not isinstance(policies, Sequence):
        raise PolicyError(
            f"policies must be a list with one policy per seat, got {policies!r}"
            + (f" (for one seat: [{policies!r}])" if isinstance(policies, str) else "")
        )
    # get_policy for objects too: a number or None in the list raised an AttributeError
    # in the first turn (session-18 probe); it now names the object
    pols = [get_policy(p) for p in policies]
    if rules is None:
        rules = GameRules(players=len(pols))
    if not isinstance(rules, GameRules):
        raise RulesError(f"rules must be a GameRules, got {rules!r}")
    if len(pols) != rules.players:
        raise RulesError(f"{count(len(pols), 'policy', 'policies')} for {count(rules.players, 'player')}")
    seed = replayable_seed(seed, RulesError)
    seq = seed_sequence(seed)
    specs = None if engine == "python" else [compiled_spec(p) for p in pols]
    if engine == "compiled":
        if observer is not None:
            raise PolicyError("engine='compiled' cannot call an observer; use engine='python'")
        missing = [f"seat {s} ({_policy_name(p)})" for s, (p, spec) in enumerate(zip(pols, specs)) if spec is None]
        if missing:
            raise PolicyError(f"engine='compiled' plays only the built-in policies; not {', '.join(missing)}")
    eng: _Engine
    if specs is not None and observer is None and all(spec is not None for spec in specs):
        eng = _CompiledEngine(rules, pols, seq, specs)
    else:
        eng = _Engine(rules, pols, seq, observer=observer)
    return _finish(eng, seed, [_policy_name(p) for p in pols])


def _finish(eng: _Engine, seed: RecordedSeed | None, names: list[str]) -> GameResult:
    rounds, tbs, recs, tb_recs, winners = eng.play()
    totals = tuple(eng.totals)
    record = {
        "format": RECORD_FORMAT,
        "version": _RECORD_VERSION,
        "rules": eng.rules.to_dict(),
        "seed": seed_to_json(seed),
        "policies": names,
        "rounds": recs,
        "tiebreaks": tb_recs,
        "totals": list(totals),
        "winners": winners,
    }
    return GameResult(eng.rules, tuple(names), seed, tuple(rounds), tuple(tbs),
                      totals, tuple(winners), record)


#: The keys a game record (:func:`play_game`'s ``record``), each of its rounds and each of
#: their turns may have; :func:`replay` refuses any other (a misspelt ``"sed"`` read as no
#: seed, so the decks went unchecked without a word, until session 24).
RECORD_KEYS = ("format", "version", "rules", "seed", "policies", "rounds", "tiebreaks", "totals", "winners")
ROUND_KEYS = ("round", "cards", "wild_rank", "dealer", "seats", "deck", "turns", "out", "scores", "hands")
TURN_KEYS = ("seat", "source", "card", "discard", "out", "final", "reshuffle")
#: The keys of a record's ``rules`` (:meth:`GameRules.to_dict`).
RULES_KEYS = ("players", "sets", "rounds", "ties", "max_tiebreaks", "max_turns", "first_dealer", "all_wild_melds")


def _check_record_keys(record: dict[str, Any]) -> None:
    """RecordError naming the first unknown key of `record`, of one of its rounds or of
    one of their turns (with the close known key, :func:`crowns_solver._checks.unknown_keys`)."""
    from .._checks import unknown_keys

    problem = unknown_keys(record, RECORD_KEYS, "a game record")
    if problem:
        raise RecordError(f"record: {problem}")
    rules = record.get("rules")
    problem = unknown_keys(rules, RULES_KEYS, "the rules object") if isinstance(rules, dict) else None
    if problem:   # GameRules(**rules) said "__init__() got an unexpected keyword argument"
        raise RecordError(f"record: rules: {problem}")
    # rounds and turns numbered from 1, tiebreaks after the rounds, as the replay's own messages
    done = 0
    for key in ("rounds", "tiebreaks"):
        rounds = record.get(key)
        rounds = rounds if isinstance(rounds, list) else []
        for i, rnd in enumerate(rounds):
            if not isinstance(rnd, dict):
                continue   # the replay says what is wrong with it
            where = f"round {done + i + 1}" + (" (a tiebreak)" if key == "tiebreaks" else "")
            problem = unknown_keys(rnd, ROUND_KEYS, "a round")
            if problem:
                raise RecordError(f"record: {where}: {problem}")
            turns = rnd.get("turns")
            for j, turn in enumerate(turns if isinstance(turns, list) else ()):
                problem = unknown_keys(turn, TURN_KEYS, "a turn") if isinstance(turn, dict) else None
                if problem:
                    raise RecordError(f"record: {where} turn {j + 1}: {problem}")
        done += len(rounds)


def load_record(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a game record written by :meth:`GameResult.save`.

    Parameters
    ----------
    path : str or os.PathLike
        The record's file (JSON, UTF-8).

    Returns
    -------
    dict
        The record as read (its ``format`` checked; :func:`replay` checks the rest).

    Raises
    ------
    RecordError
        Not JSON, or not a Five Crowns game record; `path` is empty or not a regular file.
    OSError
        The file cannot be read.
    """
    text = read_text(path, RecordError, what="game record")
    try:
        data = json.loads(text, parse_int=json_int)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path}: not a JSON file ({exc})") from None
    except RecursionError:   # '[[[[...' 100,000 deep was a traceback (session-19 probe)
        raise RecordError(f"{path}: not a game record: the JSON is nested too deeply") from None
    check_numbers(data, RecordError, f"{path}: ")
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        raise RecordError(f"{path}: not a Five Crowns game record (expected format {RECORD_FORMAT!r})")
    return data


def replay(record: dict[str, Any] | str | os.PathLike[str], *, rerun: bool = False) -> GameResult:
    """Play a saved game record again, checking every step, and return its result.

    Every deal comes from the record's decks, every draw source and discard from its
    turns; the engine checks that each drawn card is the one the record names, that each
    discard was in hand, that going out and the last turns follow the rules, and that the
    round scores, totals and winners come out as recorded, as do the other fields a record
    shows: each round's turn order (``seats``), its turns' ``final`` and ``reshuffle``
    marks and the ``hands`` held at its end (the same cards, in any order).  When the record has a seed,
    every deck and reshuffle must be the one that seed deals.  The seed is a whole number
    or, for a game seeded with a SeedSequence (each game of :func:`simulate`), its
    ``{"entropy": ..., "spawn_key": [...]}``; a record without one (``null``: a
    SeedSequence-seeded game recorded before session 22) has its decks taken as they are.

    The ``policies`` field names the players; by default it is a label only (the choices
    come from the record, and a custom or re-parameterised policy cannot be rebuilt from
    its name).  With `rerun`, the built-in policies named there are played again from the
    seed and must make every recorded choice.

    Parameters
    ----------
    record : dict or path
        A record (:attr:`GameResult.record`) or the path of a saved one.
    rerun : bool, default False
        Also play the named built-in policies (default parameters) again from the seed
        and compare every turn.

    Returns
    -------
    GameResult
        Equal (rounds, totals, winners) to the game that made the record.

    Raises
    ------
    RecordError
        The record is malformed (the message names the field or card), a step or a score
        disagrees with the rules, a deck is not its seed's; with `rerun`, no seed, a
        policy that is not built in, or a turn the policies do not play.
    """
    rerun = check_flag("rerun", rerun, RecordError)
    if not isinstance(record, dict):
        record = load_record(record)
    if record.get("format") != RECORD_FORMAT or record.get("version") != _RECORD_VERSION:
        raise RecordError(f"not a Five Crowns game record (format {RECORD_FORMAT!r} version {_RECORD_VERSION})")
    _check_record_keys(record)
    try:
        rules = GameRules(**record["rules"])
    except (KeyError, TypeError, CrownsError) as exc:
        raise RecordError(f"record: bad rules: {exc}") from None
    names = record.get("policies")
    if not isinstance(names, list) or len(names) != rules.players:
        raise RecordError(f"record: 'policies' must list {rules.players} policy names")
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise RecordError(f"record: 'policies' must hold policy names, got {name!r}")
    seed = seed_from_json(record.get("seed"), RecordError)
    for key in ("rounds", "tiebreaks"):
        if not isinstance(record.get(key, []), list):
            raise RecordError(f"record: {key!r} must be a list")
    eng = _Engine(rules, [_Replayer(n) for n in names],
                  None if seed is None else seed_sequence(seed), record=record, record_seed=seed)
    try:
        result = _finish(eng, seed, [str(n) for n in names])
    except (IndexError, KeyError, TypeError, AttributeError, HandSizeError) as exc:
        raise RecordError(f"record: malformed ({type(exc).__name__}: {exc})") from None
    if len(record.get("rounds", [])) != rules.rounds or len(record.get("tiebreaks", [])) != len(result.tiebreaks):
        raise RecordError("record: the number of rounds does not match the rules")
    for key, value in (("totals", list(result.totals)), ("winners", list(result.winners))):
        if key in record and record[key] != value:
            raise RecordError(f"record: {key} {record[key]} but the play gives {value}")
    played = list(result.rounds) + list(result.tiebreaks)
    for n, (rec, rnd) in enumerate(zip(record["rounds"] + record.get("tiebreaks", []), played, strict=True)):
        for key, value in (("round", rnd.round), ("cards", rnd.cards_dealt), ("wild_rank", rnd.wild_rank),
                           ("dealer", rnd.dealer), ("out", rnd.out), ("seats", list(rnd.seats))):
            if key in rec and rec[key] != value:
                raise RecordError(f"record: round entry {n + 1}: {key} {rec[key]!r} but the rules and play give {value}")
    if rerun:
        _rerun(record, rules, seed, names)
    return result


def _rerun(record: dict[str, Any], rules: GameRules, seed: RecordedSeed | None, names: list[str]) -> None:
    """Play the record's built-in policies again from its seed; every choice must match."""
    from .players import POLICIES

    if seed is None:
        raise RecordError("record: no seed, so its policies cannot be played again (rerun needs the seed)")
    unknown = [n for n in names if n not in POLICIES]
    if unknown:
        raise RecordError(
            f"record: policy {unknown[0]!r} is not a built-in one ({', '.join(POLICIES)}), so it cannot be"
            " played again from its name (rerun checks built-in policies only)"
        )
    again = play_game(list(names), seed=seed, rules=rules).record
    for key in ("rounds", "tiebreaks"):
        for i, (mine, theirs) in enumerate(zip(record.get(key, []), again[key])):
            turns = mine.get("turns", []) if isinstance(mine, dict) else []
            for t, (a, b) in enumerate(zip(turns, theirs["turns"])):
                if a != b:
                    raise RecordError(
                        f"record: round {theirs['round']} turn {t + 1}: the record has {a} but"
                        f" {names[b['seat']]} with seed {seed_text(seed)} plays {b} (built-in policies with their"
                        " default parameters)"
                    )
            if len(turns) != len(theirs["turns"]):
                raise RecordError(f"record: round {theirs['round']}: {count(len(turns), 'turn')}, the policies play"
                                  f" {len(theirs['turns'])}")
    if len(record.get("tiebreaks", [])) != len(again["tiebreaks"]):
        raise RecordError("record: the tiebreak rounds differ from the policies' game")


class _Replayer:
    """Placeholder policy while replaying (the record supplies every choice); it carries
    the record's name for the seat, so messages say whose recorded choice is wrong."""

    def __init__(self, name: str = "replay") -> None:
        self.name = f"recorded {name}"

    def choose_draw(self, view: SeatView) -> str:  # pragma: no cover - never called
        raise AssertionError

    def choose_discard(self, view: SeatView) -> int:  # pragma: no cover - never called
        raise AssertionError
