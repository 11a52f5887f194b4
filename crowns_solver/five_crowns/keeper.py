"""Five Crowns score keeper: the table's score pad, from Python or the terminal.

:class:`ScoreKeeper` keeps the scores of a real game played at a table (seeds/002, "5 Crowns
score keeper"; RULES.md, Five Crowns): for each of the 11 rounds it knows the cards dealt,
the wild rank, who deals and who starts; each player's entry is either points or the cards
left in hand (valued as RULES.md says: 3..10 face value, J 11, Q 12, K 13, this round's wild
rank 20, a joker 50); it keeps running totals, the leader and, at the end, the winner(s).
Ties share the win, or (``ties="tiebreak"``) the tied players play 6-card tiebreak rounds,
as in simulated games (:class:`~crowns_solver.five_crowns.game.GameRules`): only the
players tied for the lowest total play, 6 cards (6s wild), dealt by the player whose turn
it is to deal (the rotation goes on); the lowest score wins; tied again, another tiebreak
round among those tied, up to ``max_tiebreaks``, after which the win is shared.  Tiebreak
rounds are numbered on from round 11 (12, 13...) and labelled tb1, tb2...; their points do
not count in the totals.

:func:`interactive` is the terminal program behind ``crowns five-crowns keeper``: it saves
to a JSON file after every entry (so closing the terminal loses nothing), resumes such a
file, undoes the last entry, and re-asks with a clear message on bad input.

Seats are the order in which the names were entered, clockwise: the player after the
dealer in that order is "left of the dealer" and starts; the deal moves one seat on each
round.
"""

from __future__ import annotations

import functools
import json
import numbers
import os
import shlex
from collections.abc import Callable, Iterable, Sequence, Sized
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .._checks import check_choice, check_flag, clean_name, json_kind, name_problem, one_of, pad, text_width
from .._checks import unknown_keys
from .._checks import name_key as _name_key  # one comparison for every name
from .._io import check_numbers, int_digits, json_int, read_text
from ..errors import (
    CardError, CrownsError, DuplicateCardError, PlayerNameError, RecordError, RulesError, ScoreEntryError,
    WildRankError,
)
from ._files import write_json
from .cards import (
    ROUNDS, card_name, card_value, copies_per_set, full_deck, parse_card, parse_hand, wild_rank_for_round,
)
from .game import TIEBREAK_CARDS, check_sets
from ._text import count, sets_hold
from .rules import MAX_TIEBREAKS, TIES, tiebreak_label

__all__ = ["ScoreKeeper", "Entry", "RoundInfo", "wild_text", "interactive", "KeeperInterrupted", "KEEPER_FORMAT",
           "round_scores_possible"]

#: ``format`` field of a score-keeper file.
KEEPER_FORMAT = "crowns_solver.five_crowns.keeper"
_VERSION = 1
MAX_PLAYERS = 14

#: The fields of a keeper file the keeper reads or writes, in the order it writes them; any
#: other (added by hand) is kept as it is (:attr:`ScoreKeeper.extra_fields`), unless it looks
#: like a misspelling of one of these (``"tie"``, ``"first_deal"``): until session 24 such a
#: field was kept as the user's own, and the game resumed under the default rules.
_FILE_FIELDS = ("format", "version", "names", "first_dealer", "ties", "max_tiebreaks", "all_wild_melds",
                "sets", "entries", "totals", "finished", "winners")
_ENTRY_FIELDS = ("round", "player", "points", "cards")
_MISSPELT = ("a field of your own is kept, but not one this close to the keeper's:"
             " correct its spelling, or rename it")

_RANK_WORDS = {11: "Jacks", 12: "Queens", 13: "Kings"}


def wild_text(wild_rank: int) -> str:
    """How a player says the wild rank: ``"5s are wild"``, ``"Kings are wild"``.

    Parameters
    ----------
    wild_rank : int
        The wild rank 3..13 (not checked).

    Returns
    -------
    str
        ``"<rank>s are wild"``, with Jacks, Queens and Kings named.
    """
    return f"{_RANK_WORDS.get(wild_rank, f'{wild_rank}s')} are wild"


@dataclass(frozen=True)
class RoundInfo:
    """What the table needs to know at the start of a round.

    Attributes
    ----------
    round : int
        Round number 1..11; a tiebreak round goes on from there (12, 13...).
    cards_dealt : int
        Cards dealt to each player, ``round + 2`` (6 in a tiebreak round).
    wild_rank : int
        The wild rank (3..13); jokers are wild too.
    dealer, starter : str
        Who deals, and who plays first (the first player left of the dealer who plays).
    players : tuple of str or None
        In a tiebreak round the tied players who play it (seat order); None in rounds 1..11.
    """

    round: int
    cards_dealt: int
    wild_rank: int
    dealer: str
    starter: str
    players: tuple[str, ...] | None = None

    @property
    def wild(self) -> str:
        """``"Kings are wild"`` etc."""
        return wild_text(self.wild_rank)

    @property
    def label(self) -> str:
        """``"1"``..``"11"``, or ``"tb1"``, ``"tb2"``... for a tiebreak round."""
        return str(self.round) if self.players is None else tiebreak_label(self.round - ROUNDS - 1)

    def __str__(self) -> str:
        if self.players is not None:
            return (
                f"Tiebreak {self.label}: {_join_names(self.players)} play {self.cards_dealt} cards each,"
                f" {self.wild} (jokers too). {self.dealer} deals, {self.starter} starts."
            )
        return (
            f"Round {self.round} of {ROUNDS}: {self.cards_dealt} cards each, {self.wild}"
            f" (jokers too). {self.dealer} deals, {self.starter} starts."
        )


@dataclass(frozen=True)
class Entry:
    """One player's score for one round.

    Attributes
    ----------
    round : int
        Round number 1..11, or 12, 13... for tiebreak rounds.
    player : str
        The player's name.
    points : int
        Points scored this round (>= 0).
    cards : tuple of str or None
        The cards left in hand, when the points were entered as cards.
    """

    round: int
    player: str
    points: int
    cards: tuple[str, ...] | None = None

    def describe(self, wild_rank: int) -> str:
        """``"79 (5R 20 + 9H 9 + JK 50)"`` for cards, ``"12"`` for points.

        Parameters
        ----------
        wild_rank : int
            The round's wild rank 3..13 (it sets each card's value, RULES.md, Five
            Crowns, "Card values").

        Returns
        -------
        str
            The points, then each card and its value when the entry was made as cards.

        Raises
        ------
        WildRankError
            If the entry has cards and `wild_rank` is not an integer 3..13.
        """
        if not self.cards:
            return str(self.points)
        parts = " + ".join(f"{c} {card_value(c, wild_rank)}" for c in self.cards)
        return f"{self.points} ({parts})"


def _max_points(cards: int, sets: int) -> int:
    """The most points `cards` cards left in hand can count in any round (all of the
    highest-valued cards: jokers 50, then wilds 20, then Kings 13...)."""
    deck = full_deck(sets)
    best = 0
    for wild in range(3, 14):
        values = sorted(
            (card_value(code, wild) for code in range(56) for _ in range(int(deck[code]))), reverse=True
        )
        best = max(best, sum(values[:cards]))
    return best


@functools.lru_cache(maxsize=64)
def possible_points(cards: int, wild_rank: int, sets: int = 1) -> frozenset[int]:
    """Every total that at most `cards` cards of the set(s) can count when `wild_rank` is
    wild: the points a player can score in a round that deals `cards` cards.

    A subset sum over the card values left in hand (RULES.md, Five Crowns: 3..10 at face
    value, J 11, Q 12, K 13, a card of the round's wild rank 20, a joker 50), each value
    taken at most as often as the set(s) hold cards of it.  Cached per round and sets.

    Parameters
    ----------
    cards : int
        Cards dealt in the round (3..13; 6 in a tiebreak round), the most left in hand.
    wild_rank : int
        The round's wild rank (3..13).
    sets : int
        Card sets in play, 1 or 2.

    Returns
    -------
    frozenset of int
        The possible totals, 0 (no card left) included.  In round 1 (3 cards, 3s wild),
        for example, 1, 2 and 3 are not among them.
    """
    deck = full_deck(sets)
    copies: dict[int, int] = {}
    for code in range(len(deck)):
        v = card_value(code, wild_rank)
        copies[v] = copies.get(v, 0) + int(deck[code])
    bits = 0
    for r in _sums(copies.items(), cards):   # r: bit s set when some k cards count s points
        bits |= r
    return frozenset(s for s in range(bits.bit_length()) if bits >> s & 1)


def _sums(values: Iterable[tuple[int, int]], most: int) -> list[int]:
    """``sums[k]``: a bit mask with bit s set when some k of the values add up to s, for
    k = 0..`most`; `values` holds (value, how many times it may be used) pairs."""
    reach = [1] + [0] * most
    for value, per_value in values:
        new = list(reach)
        for k in range(most + 1):
            if reach[k]:
                for j in range(1, min(per_value, most - k) + 1):
                    new[k + j] |= reach[k] << (j * value)
        reach = new
    return reach


@functools.lru_cache(maxsize=128)
def round_scores_possible(cards: int, wild_rank: int, sets: int = 1, all_wild_melds: bool = True) -> frozenset[int]:
    """The scores a player can have at the end of a round that deals `cards` cards with
    `wild_rank` wild, by the rules: a superset of the least deadwood of every `cards`-card
    hand (RULES.md, Five Crowns: "Going out", "Deadwood"), so a score outside it is
    impossible.

    A player keeps `cards` cards and scores their least deadwood (0 for the one who goes
    out).  The cards left out of melds in a best arrangement are either

    - all of them, a hand holding no meld: no rank 3 times (a book), and at most one wild
      (two wilds and any card make a book); with ``all_wild_melds=False`` also a hand of
      jokers only (a card of the wild rank with two more wilds is a book of that rank);
    - or at most ``cards - 3`` cards (a meld takes 3 or more) that are not wild (a wild
      left over would join a meld and lower the deadwood: a book takes any number of wilds,
      a run under 11 cards grows at an end, a run of 11 splits in two) and hold no book.

    The totals of those leftovers (3..10 at face value, J 11, Q 12, K 13, a card of the
    wild rank 20, a joker 50) are returned.  Runs among the leftovers are not excluded, so
    a few totals may be kept that no hand scores; none is refused that a hand can score
    (tests check rounds 1 and 2 against every hand with the meld solver: equal).  In round
    1 (3 cards, 3s wild) a player who does not go out keeps 3 cards that do not meld, so
    the least score besides 0 is 13 (4, 4 and 5); in later rounds it is 3.

    Parameters
    ----------
    cards : int
        Cards dealt in the round (3..13; 6 in a tiebreak round).
    wild_rank : int
        The round's wild rank (3..13).
    sets : int
        Card sets in play, 1 or 2 (how many jokers a hand of jokers may hold).
    all_wild_melds : bool
        The rules option: whether a meld of wilds only is allowed.

    Returns
    -------
    frozenset of int
        The possible scores, 0 included.
    """
    naturals = [r for r in range(3, 14) if r != wild_rank]
    leftover = _sums(((v, 2) for v in naturals), cards)   # no rank three times
    distinct = _sums(((v, 1) for v in naturals), cards)   # no rank twice (with a wild)
    bits = 1
    for k in range(1, cards - 2):                 # a meld of 3 or more laid down, k naturals left
        bits |= leftover[k]
    bits |= leftover[cards]                       # nothing melds, no wild
    bits |= (distinct[cards - 1] << 20) | (distinct[cards - 1] << 50)   # nothing melds, one wild
    if not all_wild_melds and cards <= 6 * sets:
        bits |= 1 << (50 * cards)                 # only jokers
    return frozenset(s for s in range(bits.bit_length()) if bits >> s & 1)


def _new_name_problem(name: str, taken: Sequence[str]) -> str | None:
    """Why `name` cannot join the players `taken` (:func:`crowns_solver._checks.name_problem`,
    or a name already taken, compared by ``name_key``), or None: the rule of
    :func:`check_names` and of the names typed at the prompt."""
    problem = name_problem(name)
    if problem is not None:
        return problem
    name = clean_name(name)
    if _name_key(name) in (_name_key(n) for n in taken):
        return f"the name {name!r} is already taken"
    return None


def check_names(names: Sequence[str]) -> tuple[str, ...]:
    """Validate player names: 1..14 names, all different (case, runs of spaces and
    Unicode forms ignored: see :func:`crowns_solver._checks.name_key`), each a display
    name by :func:`crowns_solver._checks.name_problem` (the rule Cross Kings names
    follow too).

    Parameters
    ----------
    names : sequence of str

    Returns
    -------
    tuple of str
        The names with runs of white space collapsed.

    Raises
    ------
    PlayerNameError
        If a name is not a string, is blank, holds a control character (newline, tab, a
        terminal escape code; the message names it) or is longer than 40 characters, a
        name repeats, or there are not 1..14 names.
    """
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise PlayerNameError(f"names must be a list of player names, got {names!r}")
    out: list[str] = []
    for i, name in enumerate(names):
        if not isinstance(name, str):
            raise PlayerNameError(f"player {i + 1}: a name must be text, got {name!r}")
        problem = _new_name_problem(name, out)
        if problem is not None:
            raise PlayerNameError(f"player {i + 1}: {problem}")
        out.append(clean_name(name))
    if not 1 <= len(out) <= MAX_PLAYERS:
        raise PlayerNameError(f"Five Crowns is for 1 to {MAX_PLAYERS} players, got {count(len(out), 'name')}")
    return tuple(out)


def _no_such_score(points: int, info: RoundInfo, sets: int, all_wild_melds: bool) -> str:
    """Why `points` cannot be a player's score in round `info` (:func:`round_scores_possible`)."""
    n = info.cards_dealt
    wilds = _RANK_WORDS.get(info.wild_rank, f"{info.wild_rank}s")
    possible = round_scores_possible(n, info.wild_rank, sets, all_wild_melds)
    least = min(p for p in possible if p)
    left = f"all {n} cards when they hold no meld (no rank three times, at most one wild), or " + (
        f"at most {count(n - 3, 'card')} that {'is' if n == 4 else 'are'} not wild (a meld takes 3 or more, and a"
        " wild left over would join one)"
        if n > 3 else "none")
    return (f"{count(points, 'point')} cannot be scored in round {info.label}: of the {n} cards a player keeps, what"
            f" does not meld counts: {left}; no such cards count {points}"
            + (f", and the least besides 0 is {least}" if points < least else "")
            + f" (3..10 at face value, J 11, Q 12, K 13, {wilds} 20 as wilds, jokers 50; RULES.md, Five Crowns)."
            " If a player kept cards that meld, type the cards instead")


def _file_value(value: Any) -> str:
    """A value read from a keeper file, for a message, in JSON's words (``null``, ``true``,
    ``['Ann', null]``; a text or a number as repr writes it): files said ``True`` and
    ``None`` until session 24 (:func:`crowns_solver._checks.json_kind`)."""
    if isinstance(value, str) or (isinstance(value, (int, float)) and not isinstance(value, bool)):
        return repr(value)
    if isinstance(value, list) and len(value) <= MAX_PLAYERS and not any(isinstance(v, (list, dict)) for v in value):
        return f"[{', '.join(_file_value(v) for v in value)}]"
    return json_kind(value)


def _entry_dict(entry: Entry, extra: dict[str, Any]) -> dict[str, Any]:
    """An entry as the keeper file holds it, the fields added by hand (`extra`) after its own."""
    return ({"round": entry.round, "player": entry.player, "points": entry.points}
            | ({"cards": list(entry.cards)} if entry.cards is not None else {}) | extra)


#: Larger points than this are refused before any arithmetic: no hand counts a tenth of it.
_HUGE = 10**9


def _huge_points(negative: bool, digits: int, wild: int, limit: int) -> ScoreEntryError:
    """The error for points of more than :data:`_HUGE`, typed or given as an int (the
    number is never converted: int() and str() refuse numbers past 4,300 digits)."""
    if negative:
        return ScoreEntryError(f"points cannot be negative: a number of {digits} digits")
    return ScoreEntryError(f"points out of range: a number of {digits} digits is more than {wild} cards can count"
                           f" in any round (at most {limit})")


def _entry_text(value: Any, wild: int, limit: int) -> str:
    """The text of a score entry: whole-number points, a card string, or a list of card
    strings (joined); anything else is a ScoreEntryError naming the value. `wild` and
    `limit` (the cards dealt and the most they can count) are for the message on huge points."""
    if isinstance(value, bool) or value is None:
        raise ScoreEntryError(f"not points or cards: {value!r}")
    if isinstance(value, numbers.Integral):
        number = int(value)
        if abs(number) > _HUGE:   # no hand counts this much; and str() refuses past 4,300 digits
            raise _huge_points(number < 0, int_digits(number), wild, limit)
        return str(number)
    if isinstance(value, numbers.Real):
        raise ScoreEntryError(f"points must be a whole number >= 0, got {value!r}")
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, (bytes, bytearray, memoryview, dict)) or not isinstance(value, Iterable):
        raise ScoreEntryError(
            f"not points or cards: {value!r} (give a whole number, a string such as '5R 9H JK'"
            " or a list of card strings)"
        )
    items = list(value)
    for item in items:
        if not isinstance(item, str):
            raise ScoreEntryError(f"not a card: {item!r} (cards are strings such as '5R' or 'JK')")
    return " ".join(items) or "-"


class ScoreKeeper:
    """Score pad of one Five Crowns game played at a table.

    Parameters
    ----------
    names : sequence of str
        The players in seat order (clockwise), 1 to 14 (RULES.md: up to 7 with one set,
        up to 14 with two sets shuffled together).  Names must be non-empty and
        different.
    first_dealer : int or str, default 0
        Who deals round 1 (seat index or name).  The deal moves one seat on each round.
    ties : {"share", "tiebreak"}, default "share"
        Equal lowest totals after round 11 share the win, or the tied players play 6-card
        tiebreak rounds (RULES.md, Five Crowns, "Deal and seats"; the rules of
        :class:`~crowns_solver.five_crowns.game.GameRules`, see the module doc).
    max_tiebreaks : int, default 3
        Tiebreak rounds at most (0..100); tied after the last one, the win is shared.
    all_wild_melds : bool, default True
        The rules option of RULES.md, Five Crowns (``Rules.all_wild_melds``): whether a
        meld may be made of wilds only.  Cards left in hand count at face value either
        way; it decides which typed cards meld (:meth:`cards_meld`, the interactive
        keeper's note that a player should have laid them down).
    sets : {1, 2}, optional
        116-card sets shuffled together (RULES.md, Five Crowns, "Deal and seats"; as
        ``GameRules.sets``).  Default: 1 for up to 7 players, else 2.  It bounds how often
        a card may be typed over a round's players and which points a round can score.

    Attributes
    ----------
    unlikely_entries : list of str
        Scores read from a keeper file (:meth:`from_dict`, :meth:`load`) that no hand of
        their round makes by the rules (:func:`round_scores_possible`), such as
        ``"Bob's 12 points in round 1"``: files saved before session 23 could hold them,
        so they are kept as saved rather than refused (the file stays usable; the
        interactive keeper says so on resume).  Typing such a score is refused.

    Raises
    ------
    PlayerNameError
        Bad names, or a `first_dealer` that is not one of the players.
    RulesError
        `ties` or `max_tiebreaks` out of range, `all_wild_melds` not a bool, `sets` not 1
        or 2, or 1 set for more than 7 players.

    Examples
    --------
    >>> k = ScoreKeeper(["Ann", "Bob"])
    >>> str(k.round_info(1))
    'Round 1 of 11: 3 cards each, 3s are wild (jokers too). Ann deals, Bob starts.'
    >>> k.enter("5S 9H JK").points   # Ann: 5 + 9 + 50 (3s are wild in round 1)
    64
    >>> k.enter(0).points            # Bob went out
    0
    >>> k.totals()
    {'Ann': 64, 'Bob': 0}
    """

    def __init__(self, names: Sequence[str], *, first_dealer: int | str = 0, ties: str = "share",
                 max_tiebreaks: int = 3, all_wild_melds: bool = True, sets: int | None = None) -> None:
        self.names: tuple[str, ...] = check_names(names)
        self.first_dealer: int = self._seat(first_dealer)
        self.sets: int = check_sets(sets, len(self.names))
        self._entries: list[Entry] = []
        # fields a user added by hand to a keeper file, kept through load and save
        # (the house rule: nothing the user gave is lost without being asked)
        self._extra_fields: dict[str, Any] = {}
        self._entry_extras: list[dict[str, Any]] = []   # the same, per entry (parallel to _entries)
        # while a file is read: points no hand of the round scores are kept, not refused
        # (files saved before session 23 could hold them), and listed in unlikely_entries
        self._reading_file = False
        self.unlikely_entries: list[str] = []
        self.ties = ties
        self.max_tiebreaks = max_tiebreaks
        self.all_wild_melds = all_wild_melds

    def __repr__(self) -> str:
        # a notebook shows the pad's state, not "<ScoreKeeper object at 0x...>" (session 22)
        where = (f"finished, won by {' and '.join(self.winners())}" if self.round is None
                 else f"round {self.round_info(self.round).label}, {self.next_player} next")
        return (f"<ScoreKeeper {', '.join(self.names)}: {count(self.rounds_complete, 'round')} complete,"
                f" {where}; totals {self.totals()}>")

    @property
    def all_wild_melds(self) -> bool:
        """Whether melds made only of wilds are allowed (RULES.md option; settable while
        every score entered as points stays possible: three jokers kept in round 1 score
        150 only without melds of wilds only, :func:`round_scores_possible`; RulesError
        naming the entry otherwise)."""
        return self._all_wild_melds

    @all_wild_melds.setter
    def all_wild_melds(self, value: bool) -> None:
        value = _check_melds_rule(value)
        for entry in getattr(self, "_entries", ()):
            info = self.round_info(entry.round)
            if entry.cards is None and entry.points not in round_scores_possible(
                    info.cards_dealt, info.wild_rank, self.sets, value):
                raise RulesError(f"all_wild_melds cannot become {value}: {entry.player}'s {entry.points} in round"
                                 f" {info.label} is no score under it (correct that entry first)")
        self._all_wild_melds = value

    def cards_meld(self, entry: Entry) -> bool:
        """Whether the cards typed for `entry` meld under this game's rules: their least
        deadwood (RULES.md, Five Crowns; with :attr:`all_wild_melds`) is less than their
        value, so the player could have laid some down on the last turn.

        Parameters
        ----------
        entry : Entry
            An entry of this keeper (its round gives the wild rank).

        Returns
        -------
        bool
            True if some of the cards meld; False for points typed without cards, or
            cards of which none meld.

        Raises
        ------
        ScoreEntryError
            If `entry` is not an :class:`Entry`.
        WildRankError
            If its round is not one of this game's (:meth:`round_info`).
        """
        if not isinstance(entry, Entry):
            raise ScoreEntryError(f"cards_meld() takes an Entry, got {type(entry).__name__}")
        if not entry.cards:
            return False
        return _cards_meld(entry, self.round_info(entry.round).wild_rank, self.sets, self._all_wild_melds)

    @property
    def ties(self) -> str:
        """``"share"`` or ``"tiebreak"`` (settable while no tiebreak round is entered)."""
        return self._ties

    @ties.setter
    def ties(self, value: str) -> None:
        # a str first: a NumPy array was kept, and the keeper file could not be saved (session 24)
        value = check_choice("ties", value, TIES, RulesError, argument=None)
        self._ties = self._unchanged_tiebreaks("ties", value)

    @property
    def max_tiebreaks(self) -> int:
        """Tiebreak rounds at most (settable while no tiebreak round is entered)."""
        return self._max_tiebreaks

    @max_tiebreaks.setter
    def max_tiebreaks(self, value: int) -> None:
        # any whole number type (numpy integers too, as for score entries), stored as int
        # so the file stays JSON; bool is not a count
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not 0 <= value <= MAX_TIEBREAKS:
            raise RulesError(f"max_tiebreaks must be an integer 0..{MAX_TIEBREAKS}, got {value!r}")
        self._max_tiebreaks = self._unchanged_tiebreaks("max_tiebreaks", int(value))

    def _unchanged_tiebreaks(self, name: str, value: Any) -> Any:
        """`value` for the tie option `name`, refused (RulesError) when it changes the
        option after tiebreak scores were entered (they were entered under the old one)."""
        if value != getattr(self, f"_{name}", value) and self._tiebreak_entries():
            raise RulesError(f"{name} cannot become {value!r}: tiebreak scores are already entered (undo them first)")
        return value

    def _main_entries(self) -> list[Entry]:
        return self._entries[: ROUNDS * len(self.names)]

    def _tiebreak_entries(self) -> list[Entry]:
        return self._entries[ROUNDS * len(self.names):]

    def _tiebreaks(self) -> tuple[list[tuple[int, tuple[str, ...], dict[str, int]]], tuple[str, ...] | None]:
        """The tiebreak rounds so far and the players of the one being entered.

        Returns ``(played, open)``: for each tiebreak round begun, (round number, its
        players in seat order, their points entered so far); `open` is the players of
        the round that still needs entries, or None when none does (no tie, ties shared,
        the game not yet through round 11, or the last tiebreak decided it)."""
        played: list[tuple[int, tuple[str, ...], dict[str, int]]] = []
        if len(self._entries) < ROUNDS * len(self.names):
            return played, None
        tot = self.totals()
        low = min(tot.values())
        tied = tuple(n for n in self.names if tot[n] == low)
        extra = self._tiebreak_entries()
        i = 0
        while self._ties == "tiebreak" and len(tied) > 1 and len(played) < self._max_tiebreaks:
            number = ROUNDS + 1 + len(played)
            scores = {e.player: e.points for e in extra[i:i + len(tied)]}
            played.append((number, tied, scores))
            i += len(tied)
            if len(scores) < len(tied):
                return played, tied
            low = min(scores.values())
            tied = tuple(n for n in tied if scores[n] == low)
        return played, None

    def tiebreak_players(self) -> tuple[str, ...] | None:
        """The players of the tiebreak round being entered (tied for the lowest total, or
        tied again in the last tiebreak round), or None when no tiebreak round is open.

        Returns
        -------
        tuple of str or None
            Their names in seat order, or None.
        """
        return self._tiebreaks()[1]

    # ----------------------------------------------------------------- queries
    def _seat(self, who: int | str) -> int:
        if isinstance(who, bool):
            raise PlayerNameError(f"not a player: {who!r}")
        if isinstance(who, numbers.Integral):   # NumPy integers too (session-18 probe)
            if 0 <= who < len(self.names):
                return int(who)
            raise PlayerNameError(f"seat {who} does not exist: seats are 0..{len(self.names) - 1}")
        if isinstance(who, str):
            for i, n in enumerate(self.names):
                if _name_key(n) == _name_key(who):
                    return i
        raise PlayerNameError(f"not a player: {who!r} (players: {', '.join(self.names)})")

    @property
    def entries(self) -> tuple[Entry, ...]:
        """Every entry so far, in the order entered."""
        return tuple(self._entries)

    @property
    def extra_fields(self) -> MappingProxyType[str, Any]:
        """Top-level fields of the loaded file that the keeper does not use (added by
        hand, e.g. ``"place": "Grandma's"``), read-only: :meth:`save` writes them back
        unchanged, after the keeper's own fields (one that looks like a misspelling of a
        keeper's field, such as ``"tie"``, is refused by :meth:`from_dict` instead).
        Empty for a new game."""
        return MappingProxyType(self._extra_fields)

    @property
    def finished(self) -> bool:
        """Whether all 11 rounds are entered, and every tiebreak round they call for."""
        return len(self._entries) >= ROUNDS * len(self.names) and self._tiebreaks()[1] is None

    @property
    def round(self) -> int | None:
        """The round being entered (1..11; 12, 13... for tiebreak rounds), or None when the
        game is finished."""
        main = len(self._entries)
        if main < ROUNDS * len(self.names):
            return main // len(self.names) + 1
        played, open_ = self._tiebreaks()
        return played[-1][0] if open_ is not None else None

    @property
    def next_player(self) -> str | None:
        """The player whose entry comes next (seat order; in a tiebreak round the next tied
        player), or None when finished."""
        if len(self._entries) < ROUNDS * len(self.names):
            return self.names[len(self._entries) % len(self.names)]
        played, open_ = self._tiebreaks()
        if open_ is None:
            return None
        return next(n for n in open_ if n not in played[-1][2])

    @property
    def rounds_complete(self) -> int:
        """Number of rounds 1..11 whose entries are all in (tiebreak rounds not counted)."""
        return len(self._main_entries()) // len(self.names)

    @property
    def tiebreak_rounds(self) -> list[RoundInfo]:
        """The tiebreak rounds begun so far (complete or being entered), in order."""
        return [self.round_info(number) for number, _, _ in self._tiebreaks()[0]]

    def round_info(self, round: int) -> RoundInfo:
        """Cards dealt, wild rank, dealer and starter of round 1..11, or of a tiebreak
        round already begun (12, 13...: 6 cards, 6s wild, the tied players only; the deal
        rotation goes on, so the dealer may be a player who does not play it).

        Parameters
        ----------
        round : int
            1..11, or 12, 13... for a tiebreak round already begun.

        Returns
        -------
        RoundInfo
            The round's cards dealt, wild rank, dealer, starter and (tiebreak) players
            (RULES.md, Five Crowns, "Deal and seats").

        Raises
        ------
        WildRankError
            If `round` is not 1..11 and not a tiebreak round of this game.
        """
        if isinstance(round, numbers.Integral) and not isinstance(round, bool) and round > ROUNDS:
            for number, players, _ in self._tiebreaks()[0]:
                if number == round:
                    P = len(self.names)
                    dealer = (self.first_dealer + round - 1) % P
                    starter = next(self.names[(dealer + k) % P] for k in range(1, P + 1)
                                   if self.names[(dealer + k) % P] in players)
                    return RoundInfo(round, TIEBREAK_CARDS, TIEBREAK_CARDS, self.names[dealer], starter, players)
            begun = len(self._tiebreaks()[0])
            # not 'round must be 1..11' when tiebreak rounds 12... exist (found by the probe)
            raise WildRankError(f"round must be 1..{ROUNDS} or a tiebreak round begun ("
                                + {0: "none is", 1: f"{ROUNDS + 1}"}.get(begun, f"{ROUNDS + 1}..{ROUNDS + begun}")
                                + f"), got {round}")
        wild = wild_rank_for_round(round)
        dealer = (self.first_dealer + round - 1) % len(self.names)
        return RoundInfo(round, wild, wild, self.names[dealer], self.names[(dealer + 1) % len(self.names)])

    def round_scores(self, round: int) -> dict[str, int]:
        """Points entered so far for round `round` (a tiebreak round too), by player name.

        Parameters
        ----------
        round : int
            A round number: 1..11, or 12, 13... for tiebreak rounds.

        Returns
        -------
        dict of str to int
            Empty for a round with no entry yet.

        Raises
        ------
        WildRankError
            If `round` is not a whole number >= 1 (found by the session-18 probe: True
            read as round 1, and 1.5 or "2" quietly gave no scores).
        """
        if isinstance(round, bool) or not isinstance(round, numbers.Integral) or round < 1:
            raise WildRankError(f"round must be a whole number >= 1 (1..{ROUNDS}, then tiebreak rounds),"
                                f" got {round!r}")
        return {e.player: e.points for e in self._entries if e.round == round}

    def totals(self, through: int | None = None) -> dict[str, int]:
        """Running totals (points) by player, over rounds 1..11 entered so far, or over
        rounds 1..`through` only.  Tiebreak rounds do not count: they only decide the
        winner among the tied players.

        Parameters
        ----------
        through : int, optional
            The last round counted (0: none yet); default every round entered.

        Returns
        -------
        dict of str to int
            Each player's total in points, in seat order.

        Raises
        ------
        WildRankError
            If `through` is not None or a whole number >= 0 (found by the session-18
            probe: "2" raised a TypeError, -1 gave zeros, 1.5 counted round 1 only).
        """
        if through is not None and (isinstance(through, bool) or not isinstance(through, numbers.Integral)
                                    or through < 0):
            raise WildRankError(f"through must be None or a whole number of rounds >= 0, got {through!r}")
        tot = {n: 0 for n in self.names}
        for e in self._main_entries():
            if through is None or e.round <= through:
                tot[e.player] += e.points
        return tot

    def leaders(self) -> list[str]:
        """Players with the lowest total after the last complete round (all of them
        before round 1 is complete).

        Returns
        -------
        list of str
            Their names, in seat order.
        """
        tot = self.totals(self.rounds_complete)
        low = min(tot.values())
        return [n for n in self.names if tot[n] == low]

    def winners(self) -> list[str]:
        """The winner(s) of a finished game: lowest total after round 11; tied players
        share the win, or with ``ties="tiebreak"`` the lowest score of the last tiebreak
        round wins (still tied after `max_tiebreaks` rounds: a shared win).

        Returns
        -------
        list of str
            The winners' names (more than one for a shared win), in seat order.

        Raises
        ------
        ScoreEntryError
            If the game is not finished.
        """
        if not self.finished:
            raise ScoreEntryError(f"the game is not finished: round {self.round} is still being entered")
        played, _ = self._tiebreaks()
        if not played:
            return self.leaders()
        scores = played[-1][2]
        low = min(scores.values())
        return [n for n in played[-1][1] if scores[n] == low]

    # ----------------------------------------------------------------- entries
    def parse_entry(self, value: int | str | Iterable[str], round: int | None = None) -> tuple[int, tuple[str, ...] | None]:
        """Read one score entry: points, or the cards left in hand.

        Parameters
        ----------
        value : int, str or iterable of str
            Points (``12``, ``"12"``), or cards (``"5R 9H JK"``, ``["5R", "9H", "JK"]``;
            commas allowed; ``"-"`` or an empty list means no cards left, 0 points).  A
            list holds cards only: ``["12"]`` is refused, not read as 12 points.
        round : int, optional
            Round whose wild rank values the cards (default: the round being entered).

        Returns
        -------
        (points, cards)
            Points, and the card names (None when points were given).

        Raises
        ------
        ScoreEntryError
            Negative or non-integer points, points more than that many cards can count,
            points no hand of the round scores by the rules (:func:`round_scores_possible`:
            1 to 12 in round 1, for example), an unknown card, more cards than were dealt,
            or a card more often than the sets in play hold.
        """
        rnd = self.round if round is None else round
        if rnd is None:
            raise ScoreEntryError("the game is finished: no more entries")
        wild = self.round_info(rnd).cards_dealt  # the wild rank is the number of cards dealt
        limit = _max_points(wild, self.sets)
        text = _entry_text(value, wild, limit)
        if not isinstance(value, (str, numbers.Integral)):
            # a list holds cards only: ["12"] is not 12 points (found by the session-19 probe)
            return self._card_entry(text.replace(",", " ").split() if text != "-" else [], rnd, wild, listed=True)
        if text in ("", ):
            raise ScoreEntryError("empty entry: type the points (e.g. 12) or the cards left in hand (e.g. 5R 9H JK)")
        if text == "-":
            return 0, ()
        number = text[1:] if text[:1] in "+-" else text
        if number.isdecimal():
            if len(number) > len(str(_HUGE)):
                raise _huge_points(text[:1] == "-", len(number), wild, limit)
            points = int(text)
            if points < 0:
                raise ScoreEntryError(f"points cannot be negative: {text}")
            if points > limit:
                raise ScoreEntryError(
                    f"{count(points, 'point')} is more than {wild} cards can count in any round (at most {limit})"
                )
            info = self.round_info(rnd)
            if points not in possible_points(info.cards_dealt, info.wild_rank, self.sets):
                wilds = _RANK_WORDS.get(info.wild_rank, f"{info.wild_rank}s")
                raise ScoreEntryError(
                    f"{count(points, 'point')} cannot be scored in round {info.label}: no {info.cards_dealt} cards"
                    f" or fewer count it (3..10 at face value, J 11, Q 12, K 13, {wilds} 20 as wilds, jokers 50;"
                    " RULES.md, Five Crowns)"
                )
            if points not in round_scores_possible(info.cards_dealt, info.wild_rank, self.sets, self._all_wild_melds):
                if not self._reading_file:
                    raise ScoreEntryError(_no_such_score(points, info, self.sets, self._all_wild_melds))
                note = f"{self.next_player}'s {count(points, 'point')} in round {info.label}"
                if note not in self.unlikely_entries:
                    self.unlikely_entries.append(note)
            return points, None
        try:
            number_like = float(text)
        except ValueError:
            number_like = None
        if number_like is not None:
            raise ScoreEntryError(f"points must be a whole number >= 0: {text}")
        return self._card_entry(text.replace(",", " ").split(), rnd, wild)

    def _card_entry(self, items: list[str], rnd: int, wild: int, *, listed: bool = False
                    ) -> tuple[int, tuple[str, ...]]:
        """(points, card names) of the cards left in hand `items` in round `rnd`, whose
        wild rank is `wild`; ScoreEntryError for a bad card, too many copies or cards.
        `listed`: the cards came as a list, where points cannot be typed instead."""
        try:
            codes = parse_hand(items, sets=self.sets, what="cards left in hand")
        except DuplicateCardError as exc:
            raise ScoreEntryError(str(exc)) from None
        except CardError as exc:
            raise ScoreEntryError(str(exc) if listed else f"{exc}; or type the points as a number") from None
        if len(codes) > wild:
            raise ScoreEntryError(
                f"round {self.round_info(rnd).label} deals {wild} cards, so at most {wild} can be left in hand,"
                f" got {len(codes)}"
            )
        return sum(card_value(c, wild) for c in codes), tuple(card_name(c) for c in codes)

    def enter(self, value: int | str | Iterable[str]) -> Entry:
        """Enter the next player's score for the round being entered.

        Parameters
        ----------
        value : int, str or iterable of str
            Points or the cards left in hand (see :meth:`parse_entry`).

        Returns
        -------
        Entry
            The new entry (for :attr:`next_player` as it was before the call).

        Raises
        ------
        ScoreEntryError
            Bad entry (nothing is changed; see :meth:`parse_entry`, and typed cards that,
            with the cards typed for the round's other players, hold a card more often
            than the sets in play do), or the game is finished.
        """
        rnd, player = self.round, self.next_player
        if rnd is None or player is None:
            raise ScoreEntryError("the game is finished: no more entries")
        points, cards = self.parse_entry(value, rnd)
        entry = Entry(rnd, player, points, cards)
        self._check_round_cards([entry])
        self._entries.append(entry)
        self._entry_extras.append({})
        return entry

    def enter_round(self, values: Sequence[int | str | Iterable[str]] | dict[str, Any]) -> list[Entry]:
        """Enter a whole round: one value per player (seat order, or a name -> value dict).

        In a tiebreak round, one value per tied player (:meth:`tiebreak_players`, seat
        order), or a dict of exactly those players.  All values are checked before any is
        entered, so a bad one changes nothing.

        Parameters
        ----------
        values : sequence or dict
            Each value points or the cards left in hand (see :meth:`parse_entry`), in
            seat order, or a dict of player name -> value.

        Returns
        -------
        list of Entry
            The new entries, in seat order.

        Raises
        ------
        ScoreEntryError
            A bad value, a card typed more often over the round's players than the sets
            hold, a missing or unknown name, a wrong count, a round already partly
            entered, or in a tiebreak round a score for a player who is not tied (the
            message names the player and who plays the tiebreak).
        """
        rnd = self.round
        if rnd is None:
            raise ScoreEntryError("the game is finished: no more entries")
        info = self.round_info(rnd)
        players = info.players if info.players is not None else self.names
        if self.round_scores(rnd):
            raise ScoreEntryError(f"round {info.label} is partly entered: enter the rest one by one")
        if isinstance(values, dict):
            values = self._by_name(values)
            untied = [k for k in values if k not in players]
            if untied:
                raise ScoreEntryError(self._not_tied(untied[0], info))
            missing = [n for n in players if n not in values]
            if missing:
                raise ScoreEntryError(f"no score for {missing[0]} in round {info.label}")
            values = [values[n] for n in players]
        if isinstance(values, (str, bytes)) or not isinstance(values, Sized) or not isinstance(values, Iterable) \
                or len(values) != len(players):
            who = "one per player" if info.players is None else f"one per tied player ({_join_names(players)})"
            # a number or None is not a list of scores (it raised a TypeError: session-18 probe)
            got = "" if isinstance(values, Sized) and not isinstance(values, (str, bytes)) else f", got {values!r}"
            raise ScoreEntryError(f"round {info.label} needs {len(players)} scores, {who}{got}")
        parsed = [self.parse_entry(v, rnd) for v in values]
        new = [Entry(rnd, n, p, c) for n, (p, c) in zip(players, parsed)]
        self._check_round_cards(new)
        self._entries.extend(new)
        self._entry_extras.extend({} for _ in new)
        return new

    def _check_round_cards(self, new: Sequence[Entry], replacing: Entry | None = None) -> None:
        """Refuse `new` entries (of one round) whose typed cards, with the cards typed for
        that round's earlier entries (but `replacing`, an entry being corrected), hold a
        card more often than the sets in play do: the players' hands of one deal cannot
        (found by the session-19 probe: QH QH for Ann and QH for Bob in a 3-player game
        were all counted)."""
        if not any(e.cards for e in new):
            return
        rnd = new[0].round
        held: dict[str, dict[str, int]] = {}
        for e in [e for e in self._entries if e.round == rnd and e is not replacing] + list(new):
            for card in e.cards or ():
                by = held.setdefault(card, {})
                by[e.player] = by.get(e.player, 0) + 1
        for card, by in held.items():
            limit = copies_per_set(parse_card(card)) * self.sets
            total = sum(by.values())
            if total > limit and any(card in (e.cards or ()) for e in new):
                who = ", ".join(f"{name} {n}" for name, n in by.items())
                raise ScoreEntryError(
                    f"{count(total, 'copy', 'copies')} of {card} typed in round {self.round_info(rnd).label}"
                    f" ({who}), but {sets_hold(self.sets)} only {limit}"
                )

    def _by_name(self, values: dict[Any, Any]) -> dict[str, Any]:
        """`values` keyed by the players' own spelling: a name is matched as everywhere
        else in the keeper (case, runs of spaces and Unicode forms ignored: ``"ann"`` is
        Ann), and two keys for one player are refused rather than one silently winning."""
        out: dict[str, Any] = {}
        keys: dict[str, Any] = {}
        for key, value in values.items():
            try:
                name = self.names[self._seat(key)] if isinstance(key, str) else None
            except PlayerNameError:
                name = None
            if name is None:
                raise ScoreEntryError(f"not a player: {key!r} (players: {', '.join(self.names)})")
            if name in out:
                raise ScoreEntryError(f"two scores for {name}: under {keys[name]!r} and {key!r}")
            out[name], keys[name] = value, key
        return out

    def _not_tied(self, name: str, info: RoundInfo) -> str:
        return (f"{name} is not tied for the win, so has no score in tiebreak {info.label}"
                f" (played by {_join_names(info.players or ())})")

    def correct(self, round: int, player: int | str, value: int | str | Iterable[str]) -> Entry:
        """Correct one score already entered, leaving every later entry in place (a typo
        found rounds later; :meth:`undo` removes only the last entry).

        Parameters
        ----------
        round : int
            The round 1..11, or a tiebreak round 12, 13... already begun.
        player : int or str
            Seat number or name (case, spaces and Unicode forms ignored).
        value : int, str or iterable of str
            The right points or cards left in hand (see :meth:`parse_entry`), valued
            with that round's wild rank.

        Returns
        -------
        Entry
            The corrected entry (fields added by hand to the old one in the file are kept).

        Raises
        ------
        ScoreEntryError
            If the player has no score in that round yet, the value is bad for that
            round, its cards with the round's other typed cards hold a card more often
            than the sets do, or the correction would change who plays the tiebreak
            rounds already entered (undo those first); nothing is changed.
        PlayerNameError
            If `player` is not a player.
        """
        name = self.names[self._seat(player)]
        if isinstance(round, bool) or not isinstance(round, numbers.Integral):
            raise ScoreEntryError(f"round must be a round number, got {round!r}")
        index = next((i for i, e in enumerate(self._entries) if e.round == round and e.player == name), None)
        if index is None:
            raise ScoreEntryError(f"{name} has no score in round {round} yet, so there is nothing to correct"
                                  " (rounds are corrected once entered)")
        old = self._entries[index]
        points, cards = self.parse_entry(value, old.round)
        new = Entry(old.round, name, points, cards)
        self._check_round_cards([new], replacing=old)
        # who is tied after round 11 may change: replay every entry with the new one
        data = self.to_dict()
        for field in ("totals", "finished", "winners"):
            data.pop(field, None)
        data["entries"][index] = _entry_dict(new, self._entry_extras[index])
        try:
            replayed = type(self).from_dict(data)
        except RecordError:
            label = self.round_info(old.round).label
            raise ScoreEntryError(
                f"correcting {name}'s score in round {label} from {old.points} to {points} changes who plays"
                " the tiebreak rounds entered after round 11: undo those first, then correct it"
            ) from None
        self._entries, self._entry_extras = replayed._entries, replayed._entry_extras
        return self._entries[index]

    def undo(self) -> Entry | None:
        """Remove the last entry (it may reopen the previous round); None if there is none.
        Fields added by hand to that entry in the file go with it.

        Returns
        -------
        Entry or None
            The entry removed, or None when there was none.
        """
        if not self._entries:
            return None
        self._entry_extras.pop()
        return self._entries.pop()

    # ----------------------------------------------------------------- files
    def to_dict(self) -> dict[str, Any]:
        """JSON-ready state (see :meth:`from_dict`), with the fields the keeper does not use
        (top-level and per entry, :attr:`extra_fields`) kept after its own.

        Returns
        -------
        dict
            ``format``, ``version``, ``names``, ``first_dealer``, ``ties``,
            ``max_tiebreaks``, ``all_wild_melds``, ``sets``, ``entries`` (each ``round``, ``player``, ``points`` and,
            when entered as cards, ``cards``), ``totals``, ``finished`` and, once
            finished, ``winners``; then the extra fields.
        """
        return {
            "format": KEEPER_FORMAT,
            "version": _VERSION,
            "names": list(self.names),
            "first_dealer": self.first_dealer,
            "ties": self._ties,
            "max_tiebreaks": self._max_tiebreaks,
            "all_wild_melds": self._all_wild_melds,
            "sets": self.sets,
            "entries": [_entry_dict(e, extra) for e, extra in zip(self._entries, self._entry_extras)],
            "totals": self.totals(),
            "finished": self.finished,
        } | ({"winners": self.winners()} if self.finished else {}) | self._extra_fields

    @classmethod
    def from_dict(cls, data: Any) -> ScoreKeeper:
        """Rebuild a keeper from :meth:`to_dict` output, checking every entry.

        Entries given as cards are re-valued from the cards; totals are recomputed.
        Fields the keeper does not use (added by hand, at the top level or in an entry)
        are kept and written back by :meth:`to_dict` (:attr:`extra_fields`).

        Parameters
        ----------
        data : dict
            A keeper's state as :meth:`to_dict` writes it.

        Returns
        -------
        ScoreKeeper
            The keeper, with every entry re-entered.

        Raises
        ------
        RecordError
            Not a keeper file, or an entry out of order, for the wrong player, or whose
            points disagree with its cards; ``totals``, ``finished`` or ``winners`` that
            disagree with the entries (edited by hand); a field (top-level or in an
            entry) that looks like a misspelling of the keeper's own (``"tie"``: the
            message names the close field,
            :func:`crowns_solver._checks.unknown_keys`).  Values are named in JSON's
            words (``null``, ``true``).
        """
        if not isinstance(data, dict) or data.get("format") != KEEPER_FORMAT:
            raise RecordError(f"not a Five Crowns score-keeper file (expected format {KEEPER_FORMAT!r})")
        if "version" not in data:
            raise RecordError("score-keeper file: 'version' is missing")
        if data["version"] != _VERSION or isinstance(data["version"], bool):
            raise RecordError(f"unsupported score-keeper file version {_file_value(data['version'])}")
        problem = unknown_keys(data, _FILE_FIELDS, "a score-keeper file", misspelt_only=True)
        if problem is not None:
            raise RecordError(f"score-keeper file: {problem} ({_MISSPELT})")
        if "names" not in data:
            raise RecordError("score-keeper file: 'names' is missing (the players in seat order)")
        names = data["names"]
        if not isinstance(names, list):
            raise RecordError(f"score-keeper file: bad names: names must be a list of player names,"
                              f" got {_file_value(names)}")
        for i, name in enumerate(names):
            if not isinstance(name, str):
                raise RecordError(f"score-keeper file: bad names: player {i + 1}: a name must be text,"
                                  f" got {_file_value(name)}")
        try:
            keeper = cls(names)
        except CrownsError as exc:
            raise RecordError(f"score-keeper file: bad names: {exc}") from None
        sets = data.get("sets")
        if "sets" in data and (isinstance(sets, bool) or not isinstance(sets, int)):
            raise RecordError(f"score-keeper file: bad 'sets': sets must be an integer 1..2, got {_file_value(sets)}")
        try:  # files written before session 21 have no sets: the default for the players
            keeper.sets = check_sets(sets, len(keeper.names))
        except RulesError as exc:
            raise RecordError(f"score-keeper file: bad 'sets': {exc}") from None
        dealer = data.get("first_dealer", 0)
        if isinstance(dealer, bool) or not isinstance(dealer, (int, str)):
            raise RecordError(f"score-keeper file: bad 'first_dealer' {_file_value(dealer)}: the first dealer is a"
                              f" seat number 0..{len(keeper.names) - 1} or a player's name")
        try:  # its own message: a bad first dealer was reported as "bad names"
            keeper.first_dealer = keeper._seat(dealer)
        except CrownsError as exc:
            raise RecordError(f"score-keeper file: bad 'first_dealer' {dealer!r}: {exc}") from None
        # the options' own checks speak Python (True, None): a file's values are said in JSON's words
        for key, ok, must in (("ties", lambda v: isinstance(v, str), f"must be {one_of(TIES)}"),
                              ("max_tiebreaks", lambda v: isinstance(v, int) and not isinstance(v, bool),
                               f"must be an integer 0..{MAX_TIEBREAKS}"),
                              ("all_wild_melds", lambda v: isinstance(v, bool), "must be true or false")):
            if key in data and not ok(data[key]):
                raise RecordError(f"score-keeper file: {key} {must}, got {_file_value(data[key])}")
        try:  # files written before the tiebreak option have neither field: shared wins
            keeper.ties = data.get("ties", "share")
            keeper.max_tiebreaks = data.get("max_tiebreaks", 3)
            # files written before session 21 have no all_wild_melds: the default rules
            keeper.all_wild_melds = data.get("all_wild_melds", True)
        except RulesError as exc:
            raise RecordError(f"score-keeper file: {exc}") from None
        entries = data.get("entries")
        if not isinstance(entries, list):
            raise RecordError("score-keeper file: 'entries' must be a list")
        keeper._reading_file = True   # a saved score no hand can make is kept (and listed)
        try:
            keeper._read_entries(entries)
        finally:
            keeper._reading_file = False
        keeper._check_summary(data)
        keeper._extra_fields = {k: v for k, v in data.items() if k not in _FILE_FIELDS}
        return keeper

    def _read_entries(self, entries: list[Any]) -> None:
        """Enter a keeper file's `entries` in order (:meth:`from_dict`), checking each;
        RecordError naming the entry for the first bad one."""
        keeper = self
        for i, e in enumerate(entries):
            where = f"score-keeper file: entry {i + 1}"
            if not isinstance(e, dict):
                raise RecordError(f"{where}: not an object")
            problem = unknown_keys(e, _ENTRY_FIELDS, "an entry", misspelt_only=True)
            if problem is not None:
                raise RecordError(f"{where}: {problem} ({_MISSPELT})")
            if keeper.round is None:
                raise RecordError(f"{where}: the game is already finished, so no more entries")
            info = keeper.round_info(keeper.round)
            if e.get("round") == keeper.round and info.players is not None and e.get("player") not in info.players:
                player = e.get("player")
                who = player if isinstance(player, str) else _file_value(player)
                raise RecordError(f"{where}: {keeper._not_tied(who, info)}")
            if (e.get("round") != keeper.round or isinstance(e.get("round"), bool)
                    or e.get("player") != keeper.next_player):
                said = {k: _file_value(e[k]) if k in e else "nothing" for k in ("round", "player")}
                raise RecordError(
                    f"{where}: expected round {keeper.round} for {keeper.next_player},"
                    f" got round {said['round']} for {said['player']}"
                )
            if "points" not in e and "cards" not in e:
                raise RecordError(f"{where}: has neither 'points' nor 'cards'")
            points = e.get("points")
            if "points" in e and (isinstance(points, bool) or not isinstance(points, int)):
                raise RecordError(f"{where}: points must be a whole number >= 0, got {_file_value(points)}")
            value = e["cards"] if "cards" in e else points
            # a number (or ["12"]) in 'cards' would be taken as points, and the field dropped
            # at the next save
            bad_cards = f"{where}: 'cards' must be a list of card strings, got {_file_value(value)}"
            if "cards" in e and not isinstance(value, (list, str)):
                raise RecordError(bad_cards)
            for item in value if "cards" in e and isinstance(value, list) else ():
                if not isinstance(item, str):
                    raise RecordError(f"{where}: 'cards': not a card: {_file_value(item)} (cards are strings such as"
                                      " '5R' or 'JK')")
            try:
                cards = keeper.parse_entry(value)[1]
            except CrownsError as exc:
                raise RecordError(f"{where}: {exc}" if "cards" not in e else f"{where}: 'cards': {exc}") from None
            if "cards" in e and cards is None:
                raise RecordError(bad_cards)
            try:
                entry = keeper.enter(value)
            except CrownsError as exc:   # the cards of the round's entries together
                raise RecordError(f"{where}: 'cards': {exc}") from None
            keeper._entry_extras[-1] = {k: v for k, v in e.items() if k not in _ENTRY_FIELDS}
            if "points" in e and e["points"] != entry.points:
                raise RecordError(f"{where}: points {e['points']!r} but the cards count {entry.points}")

    def _check_summary(self, data: dict[str, Any]) -> None:
        """The file's ``totals``, ``finished`` and ``winners`` (written for the reader; the keeper works
        them out from the entries) must agree with the entries: a total or a winner edited
        by hand would otherwise be ignored, then overwritten at the next save."""
        fix = ("the keeper works it out from the entries: to change it, change the entries; if you"
               " corrected an entry, delete 'totals', 'finished' and 'winners'")
        totals = data.get("totals")
        if totals is not None:
            actual = self.totals()
            if not isinstance(totals, dict):
                raise RecordError("score-keeper file: 'totals' must be an object of the players' totals,"
                                  f" got {_file_value(totals)}")
            for name in list(totals) + [n for n in self.names if n not in totals]:
                if name not in actual:
                    raise RecordError(f"score-keeper file: 'totals' has {name!r}, who is not a player; {fix}")
                if name not in totals or totals[name] != actual[name] or isinstance(totals[name], bool):
                    given = _file_value(totals[name]) if name in totals else "nothing"
                    raise RecordError(f"score-keeper file: 'totals' says {given} for {name}, but {name}'s entries"
                                      f" add up to {actual[name]}; {fix}")
        if "winners" in data:
            winners = self.winners() if self.finished else None
            if data["winners"] != winners:
                now = "the game is not finished" if winners is None else f"the winners are {_join_names(winners)}"
                raise RecordError(f"score-keeper file: 'winners' says {_file_value(data['winners'])}, but by the"
                                  f" entries {now}; {fix}")
        if "finished" in data and data["finished"] is not self.finished:
            raise RecordError(f"score-keeper file: 'finished' says {_file_value(data['finished'])}, but by the"
                              f" entries the game is {'' if self.finished else 'not '}finished; {fix}")

    def save(self, path: str | os.PathLike[str], *, overwrite: bool = False) -> None:
        """Write the state as JSON to `path`, atomically (a crash never leaves half a file).

        Parameters
        ----------
        path : str or path-like
            The file to write.
        overwrite : bool, default False
            Replace `path` if it exists (the terminal keeper passes True for the file it
            is keeping, after the user chose it).

        Raises
        ------
        OutputExistsError, OSError
            As :func:`crowns_solver.five_crowns._files.write_json`, which writes it: an
            existing `path` without `overwrite` (its subclasses: an empty path, a folder,
            a missing folder); a file that cannot be written.
        """
        write_json(path, self.to_dict(), overwrite=overwrite, what="score-keeper file")

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> ScoreKeeper:
        """Read a keeper saved by :meth:`save`.

        Parameters
        ----------
        path : str or os.PathLike
            The keeper file (JSON, UTF-8).

        Returns
        -------
        ScoreKeeper
            As :meth:`from_dict` rebuilds it.

        Raises
        ------
        RecordError
            The file is not valid JSON or not a valid keeper file.
        OSError
            The file cannot be read.
        """
        text = read_text(path, RecordError, what="score-keeper file")
        try:
            data = json.loads(text, parse_int=json_int)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path}: not a JSON file ({exc})") from None
        except RecursionError:   # '[[[[...' 100,000 deep was a traceback (session-19 probe)
            raise RecordError(f"{path}: not a score-keeper file: the JSON is nested too deeply") from None
        check_numbers(data, RecordError, f"{path}: ")
        try:
            return cls.from_dict(data)
        except RecordError as exc:
            raise RecordError(f"{path}: {exc}") from None

    # ----------------------------------------------------------------- display
    def standings(self, through: int | None = None) -> str:
        """Totals, lowest first, as ``"Bob 15, Cy 30, Ann 112"``.

        Parameters
        ----------
        through : int, optional
            As for :meth:`totals`.

        Returns
        -------
        str
            ``"name total"`` pairs, lowest total first, joined by ``", "``.

        Raises
        ------
        WildRankError
            As for :meth:`totals`.
        """
        tot = self.totals(through)
        order = sorted(self.names, key=lambda n: (tot[n], self.names.index(n)))
        return ", ".join(f"{n} {tot[n]}" for n in order)

    def table(self) -> str:
        """The score pad: one line per round entered (tiebreak rounds as tb1, tb2...: the
        tied players' scores only), then the totals of rounds 1..11.

        Returns
        -------
        str
            The lines, joined by newlines.
        """
        width = max(6, *(text_width(n) for n in self.names))   # terminal columns: 张伟 takes 4
        lines = ["round " + " ".join(pad(n, width) for n in self.names)]
        rounds = [self.round_info(r) for r in range(1, ROUNDS + 1) if self.round_scores(r)] + self.tiebreak_rounds
        for info in rounds:
            sc = self.round_scores(info.round)
            if sc:
                lines.append(f"{info.label:>5} " + " ".join(pad(sc.get(n, ''), width) for n in self.names))
        tot = self.totals()
        lines.append("total " + " ".join(pad(tot[n], width) for n in self.names))
        return "\n".join(lines)

    def result_text(self) -> str:
        """A finished game's result: ``"Winner: Ann with 33 points."``, a shared win, or
        the winner of the tiebreak ``"Winner: Bob (tiebreak tb1: 4 points; 33 points)."``.

        Returns
        -------
        str
            One sentence.

        Raises
        ------
        ScoreEntryError
            If the game is not finished.
        """
        win = self.winners()
        total = self.totals()[win[0]]
        played, _ = self._tiebreaks()
        if not played:
            return _result_line(win, total)
        label = self.round_info(played[-1][0]).label
        if len(win) == 1:
            return (f"Winner: {win[0]} after tiebreak {label} ({count(played[-1][2][win[0]], 'point')} in it;"
                    f" {count(total, 'point')} in all).")
        return (f"Shared win: {_join_names(win)} with {count(total, 'point')} each, still tied after tiebreak"
                f" {label} (at most {self._max_tiebreaks}).")


#: Printed by the interactive keeper when typed cards meld (their deadwood is less than
#: their value): they still count at face value, as typed.
MELD_NOTE = ("Note: these cards meld: a player lays down what melds on the last turn (RULES.md);"
             " type u to undo if they were laid down")

#: Printed by the interactive keeper when a round is complete and nobody scored 0.
NO_ZERO_WARNING = ("Warning: nobody scored 0 in round {label}, but someone always goes out (RULES.md);"
                   " type u to undo if a score is wrong")


def _cards_meld(entry: Entry, wild_rank: int, sets: int, all_wild_melds: bool = True) -> bool:
    """Whether the typed cards of `entry` meld: their least deadwood (RULES.md, under the
    game's rules option `all_wild_melds`) is less than their value at face value."""
    from .melds import deadwood
    from .rules import Rules

    rules = Rules(sets=sets, all_wild_melds=all_wild_melds)
    return deadwood(list(entry.cards), wild_rank, rules=rules) < entry.points


def _check_melds_rule(value: Any) -> bool:
    """The rules option all_wild_melds, which must be True or False (RulesError: 0/1 or
    "false" are not a rules setting)."""
    return check_flag("all_wild_melds", value, RulesError)   # a NumPy bool too (session 22)


def _sets_text(sets: int) -> str:
    return f"{count(sets, 'set')} of 116 cards" + (" shuffled together" if sets > 1 else "")


def _melds_rule(allowed: bool) -> str:
    return "allowed" if allowed else "not allowed (rules option all_wild_melds=false)"


def _say_rules(keeper: ScoreKeeper, write: Callable[[str], None], *, sets_said: bool = False,
               melds_said: bool = False) -> None:
    """Say the game's rules options that are not RULES.md's defaults, one line each (a
    number of sets other than the table's default, melds of wilds only not allowed),
    except one just said as changed (`sets_said`, `melds_said`)."""
    if keeper.sets != check_sets(None, len(keeper.names)) and not sets_said:
        write(f"Card sets: {_sets_text(keeper.sets)}.")
    if not keeper.all_wild_melds and not melds_said:
        write(f"Melds of wilds only: {_melds_rule(False)}.")


def _join_names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _result_line(winners: Sequence[str], total: int) -> str:
    if len(winners) == 1:
        return f"Winner: {winners[0]} with {count(total, 'point')}."
    return f"Shared win: {_join_names(winners)} with {count(total, 'point')} each."


def default_save_path(now: datetime | None = None) -> Path:
    """``five-crowns-YYYYMMDD-HHMM.json`` in the current folder."""
    return Path(f"five-crowns-{(now or datetime.now()):%Y%m%d-%H%M}.json")


HELP = (
    "Type the points (e.g. 12) or the cards left in hand (e.g. 5R 9H JK; 10 or T, J, Q, K;"
    " suits S H C D R; JK joker; '-' for none).\n"
    "Commands: u = undo the last entry, c = correct an earlier score, t = show the score table,"
    " q = save and quit, ? = this help."
)


FINISHED_HELP = (
    "The game is finished. Commands: u = undo the last entry, c = correct a score, t = show the"
    " score table, q = quit."
)


def interactive(
    *,
    read: Callable[[str], str] | None = None,
    write: Callable[[str], None] | None = None,
    resume: str | os.PathLike[str] | None = None,
    save: str | os.PathLike[str] | None = None,
    names: Sequence[str] | None = None,
    first_dealer: int | str | None = None,
    ties: str | None = None,
    max_tiebreaks: int | None = None,
    all_wild_melds: bool | None = None,
    sets: int | None = None,
    cli: bool = False,
) -> ScoreKeeper | None:
    """Run the score keeper as a terminal conversation.

    Parameters
    ----------
    read : callable(prompt) -> str, optional
        Reads one line (default :func:`input`); EOFError means the user closed input,
        which saves and stops; KeyboardInterrupt (Ctrl-C) saves and stops too, then is
        raised again as :class:`KeeperInterrupted`.
    write : callable(str), optional
        Prints one message (default :func:`print`).
    resume : path, optional
        A keeper file to continue (saving goes on to the same file).  A finished game
        can be resumed too: its last entry can then be undone and typed again.
    save : path, optional
        Where a new game is saved (default ``five-crowns-YYYYMMDD-HHMM.json``).  An
        existing file is only overwritten after the user says yes.
    names : sequence of str, optional
        The players in seat order; asked for when not given.
    first_dealer : int or str, optional
        Who deals round 1 (default the first player).
    ties : {"share", "tiebreak"}, optional
        How equal lowest totals end the game (:class:`ScoreKeeper`; default "share").  With
        `resume`, a different value than the file's is taken over (so a game that ended
        tied can still play its tiebreak), unless tiebreak scores are already entered.
    max_tiebreaks : int, optional
        Tiebreak rounds at most (default 3; with `resume`, as `ties`).
    all_wild_melds : bool, optional
        Rules option: whether melds made only of wilds are allowed (default True; with
        `resume`, the file's, and a different value given is taken over and saved).  It
        decides when typed cards are said to meld (:meth:`ScoreKeeper.cards_meld`).
    sets : {1, 2}, optional
        Card sets shuffled together (default 1 for up to 7 players, else 2; with `resume`,
        the file's, and a different value given is taken over and saved if every entry
        fits it: cards typed no more often than the sets hold).
    cli : bool, default False
        Messages name the options as the ``crowns five-crowns keeper`` command spells
        them (``--ties``, ``--max-tiebreaks``) instead of the arguments' names.

    Returns
    -------
    ScoreKeeper or None
        The keeper as it stands when the user quits or the game ends; None if input
        ended before the players were known (nothing is saved then).

    Raises
    ------
    KeeperInterrupted
        On Ctrl-C (a KeyboardInterrupt raised by `read`), after saving and saying how to
        resume, as ``q`` does (or that nothing was saved, before the game started): a
        KeyboardInterrupt holding the keeper, so that ``crowns five-crowns keeper`` exits
        with status 130 like the other commands (until session 22 it returned the
        keeper, and the command exited 0).
    RecordError, OSError
        The file to resume cannot be read or is not a keeper file.
    PlayerNameError
        `names` or `first_dealer` given but bad, or given with `resume` and not those of
        the resumed file (the file decides; matching ones are accepted).
    RulesError
        `ties` or `max_tiebreaks` out of range, or changed on a resumed file that already
        has tiebreak scores; `all_wild_melds` not a bool; `sets` not 1 or 2, 1 set for more
        than 7 players, or (with `resume`) a number of sets the entered cards do not fit.
        With `resume`, the changes asked for are all checked before the file is saved
        once: when one is refused, none is saved.
    EmptyPathError, FolderPathError, MissingFolderError
        `save` is empty, names a folder (ends in ``/``, or is one), or lies in a folder
        that does not exist or is a file: checked before anything is asked (all are
        OutputExistsError).
    """
    if save is not None:
        from .._io import check_file_path

        check_file_path(save, "save", what="score-keeper file")
    if all_wild_melds is not None:
        _check_melds_rule(all_wild_melds)   # before anything is asked
    if sets is not None:
        check_sets(sets, 1 if names is None else len(names))   # before anything is asked
    read = input if read is None else read
    write = print if write is None else write
    if resume is not None:
        keeper = ScoreKeeper.load(resume)
        path = Path(resume)
        _check_resumed(keeper, path, names, first_dealer)
        # all or nothing: every change asked for is made on the keeper in memory first, and
        # the file saved once when all are accepted (until session 24 each was saved as it
        # came, so a refused --all-wild-melds left --ties and --sets saved by a failed command)
        said = []
        changed = _resume_ties(keeper, ties, max_tiebreaks, cli=cli)
        if changed:
            said.append(f"Ties now: {changed}")
        sets_changed = sets is not None and sets != keeper.sets
        if sets_changed:
            keeper = _resume_sets(keeper, sets)
            said.append(f"Card sets: now {_sets_text(sets)}")
        melds_changed = all_wild_melds is not None and all_wild_melds != keeper.all_wild_melds
        if melds_changed:
            try:
                keeper.all_wild_melds = all_wild_melds
            except RulesError as exc:
                if not cli:
                    raise
                # in the command's words: "all_wild_melds cannot become True" named no option
                flag = "--all-wild-melds" if all_wild_melds else "--no-all-wild-melds"
                raise RulesError(str(exc).replace(f"all_wild_melds cannot become {all_wild_melds}",
                                                  f"{flag} cannot apply to {path}")) from None
            said.append(f"Melds of wilds only: now {_melds_rule(all_wild_melds)}")
        if said:
            keeper.save(path, overwrite=True)
            for line in said:
                write(f"{line} (saved to {path}).")
        write(f"Resumed {path}: {_join_names(keeper.names)}, {count(keeper.rounds_complete, 'round')} complete.")
        if keeper.unlikely_entries:
            write(f"Note: no hand of its round scores {'; '.join(keeper.unlikely_entries)} by the rules (saved before"
                  " the keeper checked this); kept as saved: type c to correct.")
        _say_rules(keeper, write, sets_said=sets_changed, melds_said=melds_changed)
        if keeper.finished:
            write(keeper.table())
            write(f"The game is finished. {keeper.result_text()}")
        elif keeper.rounds_complete:
            write(f"Totals after round {keeper.rounds_complete}: {keeper.standings(keeper.rounds_complete)}")
    else:
        try:
            asked = names is None
            if asked:
                names = _ask_names(read, write, first_dealer)
            keeper = ScoreKeeper(names, ties="share" if ties is None else ties,
                                 max_tiebreaks=3 if max_tiebreaks is None else max_tiebreaks,
                                 all_wild_melds=True if all_wild_melds is None else all_wild_melds,
                                 sets=sets)
            if first_dealer is not None:
                keeper.first_dealer = _first_dealer(keeper, first_dealer, read, write) if asked \
                    else keeper._seat(first_dealer)
            path = _choose_path(Path(save) if save is not None else default_save_path(), read, write)
        except (EOFError, KeyboardInterrupt) as stop:   # Ctrl-D or Ctrl-C
            write("")
            why = "Interrupted" if isinstance(stop, KeyboardInterrupt) else "Input ended"
            write(f"{why} before the game started; nothing was saved.")
            if isinstance(stop, KeyboardInterrupt):
                raise KeeperInterrupted(None) from None
            return None
        keeper.save(path, overwrite=True)
        write(f"Saving to {path} after every entry (continue later with --resume {shlex.quote(str(path))}).")
        _say_rules(keeper, write)
    write(HELP if not keeper.finished else FINISHED_HELP)
    interrupted = False
    try:
        _play(keeper, path, read, write)
    except (EOFError, KeyboardInterrupt) as stop:   # Ctrl-D or Ctrl-C: as q, say where to resume
        write("")
        interrupted = isinstance(stop, KeyboardInterrupt)
    if not keeper.finished:
        keeper.save(path, overwrite=True)
        write(f"Saved to {path}. Continue with: crowns five-crowns keeper --resume {shlex.quote(str(path))}")
    if interrupted:   # the shell's convention: an interrupted session ends with status 130
        raise KeeperInterrupted(keeper)
    return keeper


class KeeperInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped :func:`interactive` after it saved the game (as ``q`` does): a
    KeyboardInterrupt (code catching that still stops; ``crowns five-crowns keeper``
    prints ``crowns: interrupted`` and exits with status 130) that keeps the keeper.

    Parameters
    ----------
    keeper : ScoreKeeper or None
        The keeper as saved, or None when Ctrl-C came before the game started (nothing
        was saved).

    Attributes
    ----------
    keeper : ScoreKeeper or None
        As given.
    """

    def __init__(self, keeper: ScoreKeeper | None) -> None:
        super().__init__("score keeper interrupted" + ("" if keeper is None else " (saved)"))
        self.keeper = keeper


def _resume_sets(keeper: ScoreKeeper, sets: int) -> ScoreKeeper:
    """The resumed `keeper` with `sets` card sets: every entry checked again under them
    (RulesError naming the first that does not fit, e.g. a card typed three times in a
    round for one set)."""
    check_sets(sets, len(keeper.names))
    try:
        return ScoreKeeper.from_dict(keeper.to_dict() | {"sets": sets})
    except RecordError as exc:
        why = str(exc).removeprefix("score-keeper file: ")
        raise RulesError(f"sets={sets}: the entered scores do not fit: {why}", argument="sets") from None


def _resume_ties(keeper: ScoreKeeper, ties: str | None, max_tiebreaks: int | None, *,
                 cli: bool = False) -> str | None:
    """Take over `ties` / `max_tiebreaks` given with a resumed file (they matter only at the
    end, so a game that ended tied can still play its tiebreak); a description of the new
    setting when it changed, else None.  RulesError when tiebreak scores are already in
    (naming ``--ties`` / ``--max-tiebreaks`` when `cli`)."""
    before = (keeper.ties, keeper.max_tiebreaks)
    if cli and keeper._tiebreak_entries():
        for option, value, now in (("--ties", ties, keeper.ties), ("--max-tiebreaks", max_tiebreaks,
                                                                   keeper.max_tiebreaks)):
            if value is not None and value != now:
                raise RulesError(f"{option} cannot become {value}: tiebreak scores are already entered"
                                 f" with {option} {now} (undo them first, or leave {option} out)")
    if ties is not None:
        keeper.ties = ties
    if max_tiebreaks is not None:
        keeper.max_tiebreaks = max_tiebreaks
        if cli and keeper.ties == "share":
            raise RulesError(f"--max-tiebreaks {max_tiebreaks} applies only with --ties tiebreak (this game"
                             " shares ties: give --ties tiebreak too to break them)")
    if (keeper.ties, keeper.max_tiebreaks) == before:
        return None
    if keeper.ties == "share":
        return "equal lowest totals share the win"
    return f"tied players play tiebreak rounds (at most {keeper.max_tiebreaks})"


def _check_resumed(keeper: ScoreKeeper, path: Path, names: Sequence[str] | None,
                   first_dealer: int | str | None) -> None:
    """Players or a first dealer given with a resumed file must be the file's own: the
    file decides (its entries belong to its players), and a silent mismatch would put
    scores against the wrong names."""
    if names is not None:
        given = check_names(names)
        if [_name_key(n) for n in given] != [_name_key(n) for n in keeper.names]:
            raise PlayerNameError(
                f"--players {' '.join(given)} does not match {path}, which is a game of"
                f" {', '.join(keeper.names)} (in that seat order); leave --players out to resume it"
            )
    if first_dealer is not None and keeper._seat(first_dealer) != keeper.first_dealer:
        raise PlayerNameError(
            f"--first-dealer {first_dealer} does not match {path}, where"
            f" {keeper.names[keeper.first_dealer]} dealt round 1; leave --first-dealer out to resume it"
        )


def _ask(read: Callable[[str], str], prompt: str) -> str:
    return read(prompt).strip()


def _first_dealer(keeper: ScoreKeeper, first_dealer: int | str, read: Callable[[str], str],
                  write: Callable[[str], None]) -> int:
    """The seat of `first_dealer` among names the user has just typed; when it is none of
    them, say so and ask who deals round 1 (the names were lost with the old one-line
    error: session-19 probe)."""
    who: int | str = first_dealer
    while True:
        try:
            return keeper._seat(who)
        except PlayerNameError as exc:
            write(f"{exc}.")
        who = _ask(read, f"Who deals round 1? ({', '.join(keeper.names)}): ")


def _ask_names(read: Callable[[str], str], write: Callable[[str], None],
               first_dealer: int | str | None = None) -> list[str]:
    while True:
        text = _ask(read, f"Number of players (1-{MAX_PLAYERS}): ")
        if text.isdecimal() and len(text) <= 3 and 1 <= int(text) <= MAX_PLAYERS:
            count = int(text)
            break
        write(f"Please type a whole number from 1 to {MAX_PLAYERS} (got {text!r}).")
    deals = "the first one" if first_dealer is None else (
        f"player {first_dealer + 1}" if isinstance(first_dealer, int) else first_dealer)
    write(f"Names in seat order, clockwise ({deals} deals round 1).")
    names: list[str] = []
    while len(names) < count:
        typed = _ask(read, f"Name of player {len(names) + 1}: ")
        problem = _new_name_problem(typed, names)
        if problem is not None:
            write(f"{problem[0].upper()}{problem[1:]}. Please type another name.")
            continue
        names.append(clean_name(typed))
    return names


def _choose_path(path: Path, read: Callable[[str], str], write: Callable[[str], None]) -> Path:
    """`path`, or, if it exists and the user does not want it overwritten, another file
    they type (a folder, or a file in a folder that does not exist, is refused and asked
    again, as the first path was before anything was asked)."""
    from .._io import check_file_path

    while path.exists():
        answer = _ask(read, f"{path} already exists. Overwrite it? [y/N] ").lower()
        if answer in ("y", "yes"):
            break
        while True:
            other = _ask(read, "Save to which file instead? ")
            if not other:
                break
            try:
                path = check_file_path(other, "the file name", what="score-keeper file")
                break
            except CrownsError as exc:
                write(str(exc))
    return path


def _correct(keeper: ScoreKeeper, path: Path, read: Callable[[str], str], write: Callable[[str], None]) -> None:
    """The ``c`` command: ask for a round, a player and the right score, correct it
    (:meth:`ScoreKeeper.correct`) and save.  Each answer is checked as it is given and
    asked again when it is wrong, so the answers before it are kept (until session 23 all
    three were asked first and one bad answer dropped them all); an empty answer cancels."""
    rounds = sorted({e.round for e in keeper.entries})
    if not rounds:
        write("Nothing to correct yet.")
        return
    span = _rounds_span(keeper, rounds)
    while True:
        text = _ask(read, f"Correct which round ({span}, empty to cancel)? ")
        if not text:
            write("Nothing changed.")
            return
        rnd, problem = _round_asked(keeper, text, rounds, span)
        if problem is None:
            break
        write(f"  {problem}. Type a round ({span}), or nothing to cancel.")
    info = keeper.round_info(rnd)
    scores = keeper.round_scores(rnd)
    players = [n for n in keeper.names if n in scores]
    while True:
        who = _ask(read, f"Whose score in round {info.label} (name or seat number from 0)? ")
        if not who:
            write("Nothing changed.")
            return
        name, said = _player_asked(keeper, who)
        if name is not None and name not in scores:
            said = (f"{name} has no score in round {info.label} yet" if info.players is None
                    else keeper._not_tied(name, info).replace(" is not tied for the win, so", ""))
            name = None
        if name is not None:
            if said:
                write(f"  {said}.")
            break
        write(f"  {said}. Type one of {_join_names(players)} (or a seat number), or nothing to cancel.")
    old = scores[name]
    while True:
        value = _ask(read, f"{name}'s right score in round {info.label}, now {old}"
                           " (points or cards left in hand, empty to cancel): ")
        if not value:
            write("Nothing changed.")
            return
        try:
            entry = keeper.correct(rnd, name, value)
        except ScoreEntryError as exc:
            write(f"  {exc}. Please type it again, or nothing to cancel.")
            continue
        break
    cards = "" if not entry.cards else ": " + entry.describe(info.wild_rank).split(" (", 1)[1].removesuffix(")")
    write(f"Corrected: {name} has {count(entry.points, 'point')} in round {info.label}{cards} (was {old})."
          f" Totals: {keeper.standings()}")
    keeper.save(path, overwrite=True)


def _rounds_span(keeper: ScoreKeeper, rounds: Sequence[int]) -> str:
    """The rounds that can be corrected, as the prompt offers them: ``1-4``, ``1-11, tb1``."""
    main = [r for r in rounds if r <= ROUNDS]
    extra = [keeper.round_info(r).label for r in rounds if r > ROUNDS]
    parts = [str(main[0]) if len(main) == 1 else f"{main[0]}-{main[-1]}"]
    if extra:
        parts.append(extra[0] if len(extra) == 1 else f"{extra[0]}-{extra[-1]}")
    return ", ".join(parts)


def _round_asked(keeper: ScoreKeeper, text: str, rounds: Sequence[int], span: str) -> tuple[int, str | None]:
    """(round, None) for a round typed at the ``c`` prompt that has scores (a number, or a
    tiebreak label ``tb1``), else (0, why not)."""
    low = text.lower()
    number: int | None = None
    if low.isdecimal() and len(low) <= 3:
        number = int(low)
    elif low.startswith("tb") and low[2:].isdecimal() and len(low) <= 5:
        number = ROUNDS + int(low[2:])
    if number is None:
        return 0, f"Not a round number: {text!r}"
    if number in rounds:
        return number, None
    if number < 1 or (low.startswith("tb") and number == ROUNDS):
        return 0, f"There is no round {text}"
    return 0, f"Round {text} has no score yet, so there is nothing to correct in it (rounds {span} can be corrected)"


def _player_asked(keeper: ScoreKeeper, who: str) -> tuple[str | None, str]:
    """The player typed at the ``c`` prompt and what to say about it: a name first (case,
    spaces and Unicode forms ignored), so a player named ``1`` or ``q`` is that player;
    then a seat number from 0.  (name, "") for a plain name, (name, note) when a number
    was read as a seat or a name that is also a seat number, (None, why) for no player."""
    try:
        seat = keeper._seat(who)
    except PlayerNameError:
        seat = None
    number = int(who) if who.isascii() and who.isdecimal() and len(who) <= 3 else None
    if seat is not None:
        other = number is not None and number < len(keeper.names) and number != seat
        name = keeper.names[seat]
        return name, (f"{who!r} is the player named {name} (seat {seat}): a name comes before a seat number,"
                      f" and seat {number} is {keeper.names[number]}" if other else "")
    if number is not None:
        if number < len(keeper.names):
            return keeper.names[number], f"Seat {number} is {keeper.names[number]}"
        return None, f"Seat {number} does not exist: seats are 0..{len(keeper.names) - 1}"
    return None, f"Not a player: {who!r}"


def _play(keeper: ScoreKeeper, path: Path, read: Callable[[str], str], write: Callable[[str], None]) -> None:
    shown = 0
    while True:
        if keeper.finished:
            # the pad stays open: a typo in the last entry can still be undone
            cmd = _ask(read, "Game over (u = undo the last entry, c = correct, t = table, q = quit): ").lower()
            if cmd in ("q", "quit", "exit"):
                return
            if cmd in ("t", "table"):
                write(keeper.table())
            elif cmd in ("c", "correct"):
                _correct(keeper, path, read, write)
                if keeper.finished:
                    write(keeper.result_text())
            elif cmd in ("u", "undo"):
                gone = keeper.undo()
                assert gone is not None
                write(f"Undone: {gone.player}'s {gone.points} in round {keeper.round_info(gone.round).label}."
                      " Type it again.")
                keeper.save(path, overwrite=True)
                shown = 0
            else:
                write(FINISHED_HELP)
            continue
        rnd, player = keeper.round, keeper.next_player
        assert rnd is not None and player is not None
        if shown != rnd:
            write("")
            write(str(keeper.round_info(rnd)))
            shown = rnd
        text = _ask(read, f"  {player}: ")
        cmd = text.lower()
        if cmd in ("u", "undo"):
            gone = keeper.undo()
            if gone is None:
                write("Nothing to undo.")
            else:
                write(f"Undone: {gone.player}'s {gone.points} in round {keeper.round_info(gone.round).label}.")
                keeper.save(path, overwrite=True)
            continue
        if cmd in ("q", "quit", "exit"):
            return
        if cmd in ("c", "correct"):
            _correct(keeper, path, read, write)
            continue
        if cmd in ("?", "h", "help"):
            write(HELP)
            continue
        if cmd in ("t", "table"):
            write(keeper.table())
            continue
        try:
            entry = keeper.enter(text)
        except ScoreEntryError as exc:
            write(f"  {exc}. Please type it again.")
            continue
        if entry.cards:
            write(f"    = {entry.describe(keeper.round_info(rnd).wild_rank)}")
            if keeper.cards_meld(entry):
                write(f"    {MELD_NOTE}")
        keeper.save(path, overwrite=True)
        if keeper.round != rnd:  # the round is complete
            info = keeper.round_info(rnd)
            sc = keeper.round_scores(rnd)
            if info.players is None:
                write(f"Round {rnd}: " + ", ".join(f"{n} {sc[n]}" for n in keeper.names))
                write(f"Totals after round {rnd}: {keeper.standings(rnd)}")
            else:
                write(f"Tiebreak {info.label}: " + ", ".join(f"{n} {sc[n]}" for n in info.players))
            if 0 not in sc.values():
                write(NO_ZERO_WARNING.format(label=info.label))
            lead = keeper.leaders()
            if keeper.finished:
                write(keeper.result_text())
                write(f"Final score pad saved to {path}.")
            elif keeper.round is not None and keeper.round > ROUNDS:
                tied = keeper.tiebreak_players() or ()
                write(f"Tied: {_join_names(tied)}. They play a tiebreak round (6 cards) to decide the winner.")
            else:
                write(f"Leader: {_join_names(lead)}" + (" (tied)" if len(lead) > 1 else ""))
