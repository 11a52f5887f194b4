"""King's Crowns rules options (RULES.md, King's Crowns)."""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import RulesError
from .deck import DEFAULT_DECK, Deck

__all__ = ["Rules", "MIN_PLAYERS", "MAX_PLAYERS", "DEFAULT_MAX_TURNS", "check_players"]

MIN_PLAYERS, MAX_PLAYERS = 2, 5
DEFAULT_MAX_TURNS = 2000


def check_players(players: Any) -> int:
    """`players` as an int, or RulesError if it is not 2..5 (an int or a NumPy integer:
    ``players=np.int64(3)`` was refused until the session-18 probe, as nowhere else).

    Parameters
    ----------
    players : object
        The number of players to check (RULES.md, King's Crowns: players 2..5).

    Returns
    -------
    int
        `players` as a Python int.

    Raises
    ------
    RulesError
        If `players` is not a whole number 2..5 (a bool is refused).
    """
    if isinstance(players, bool) or not isinstance(players, numbers.Integral) \
            or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RulesError(f"King's Crowns is for 2 to 5 players, got {players!r}")
    return int(players)


@dataclass(frozen=True)
class Rules:
    """King's Crowns rules options (RULES.md, King's Crowns).

    Attributes
    ----------
    target : int or None
        Crown points that win the game the moment a player reaches them.  None (default)
        means the rule's target: 100, or 75 with five players.
    max_turns : int
        Turn cap (default 2000).  A turn is one seat's draw and play (a seat that can
        neither draw nor play passes, and that counts as a turn too).  A game with no
        winner after `max_turns` turns in all, counted over every seat, ends as a
        stalemate.
    deck : Deck
        How many of each card (default: RULES.md's 118-card deck).

    Raises
    ------
    RulesError
        If `target` or `max_turns` is not an int >= 1 (at most 10**6), or `deck` is not a
        :class:`Deck`.
    """

    target: int | None = None
    max_turns: int = DEFAULT_MAX_TURNS
    deck: Deck = field(default=DEFAULT_DECK)

    def __post_init__(self) -> None:
        if self.target is not None and (
            isinstance(self.target, bool) or not isinstance(self.target, numbers.Integral)
            or not 1 <= self.target <= 10**6
        ):
            raise RulesError(f"target must be a whole number of crown points 1..1000000, got {self.target!r}",
                             argument="target")
        if isinstance(self.max_turns, bool) or not isinstance(self.max_turns, numbers.Integral) \
                or not 1 <= self.max_turns <= 10**6:
            raise RulesError(f"max_turns must be a whole number 1..1000000, got {self.max_turns!r}",
                             argument="max_turns")
        # NumPy integers are whole numbers too (refused until the session-18 probe); kept as int
        if self.target is not None:
            object.__setattr__(self, "target", int(self.target))
        object.__setattr__(self, "max_turns", int(self.max_turns))
        if not isinstance(self.deck, Deck):
            raise RulesError(f"deck must be a Deck (see load_deck), got {type(self.deck).__name__}")

    def target_for(self, players: int) -> int:
        """The target in a game of `players` players: `target`, or 100 (75 with five).

        Parameters
        ----------
        players : int
            Number of players, 2..5.

        Returns
        -------
        int
            Crown points that win (RULES.md, King's Crowns: 100, 75 with five players).

        Raises
        ------
        RulesError
            If `target` is None and `players` is not a whole number 2..5.
        """
        if self.target is not None:
            return self.target
        return 75 if check_players(players) == 5 else 100

    def check(self, players: int) -> None:
        """Raise RulesError/DeckError unless a game of `players` players can be dealt and
        won: the deck must deal every hand, hold a Salvation (every play to a seat's own
        stacks comes after its Salvation, RULES.md "Legal plays": without one no crown
        can ever be played), and the target must not exceed the deck's crown points, nor
        the points of the Crowns its cards let be played (a coloured Crown needs a Gift of
        its colour, a 15 or 20 Time with God or Holy Spirit): a target no seat can reach
        would make every game a stalemate at the turn cap.

        Parameters
        ----------
        players : int
            Number of players.

        Raises
        ------
        RulesError
            If `players` is not 2..5, the deck has no Salvation, or the target exceeds
            the deck's crown points, or the points of the Crowns that its cards let a
            seat play (:meth:`Deck.playable_crown_points`).
        DeckError
            If the deck is too small to deal `players` hands.
        """
        check_players(players)
        self.deck.check_players(players)
        if self.deck.count("salvation") == 0:
            raise RulesError(f"the deck {self.deck.name!r} has no Salvation: every play onto a seat's own stacks"
                             " comes after its Salvation, so no seat could ever play a crown and every game"
                             " would end at the turn cap")
        target, points = self.target_for(players), self.deck.crown_points()
        where = "the target" if self.target is not None else f"the rules' target for {players} players"
        if target > points:
            raise RulesError(f"{where} is {target} crown points, more than the deck {self.deck.name!r} holds"
                             f" ({points}): no seat could reach it and every game would end at the turn cap")
        playable = self.deck.playable_crown_points()
        if target > playable:
            # a deck whose Crowns need cards it lacks (a Gift of their colour, or Time with
            # God / Holy Spirit for 15 and 20) played every game to the turn cap (session 20)
            raise RulesError(f"{where} is {target} crown points, but only {playable} of the {points} crown points"
                             f" of the deck {self.deck.name!r} can ever be played"
                             f" ({'; '.join(self.deck.unplayable_crowns())}, which it lacks): no seat could"
                             " reach it and every game would end at the turn cap")

    def to_dict(self) -> dict[str, Any]:
        """The rules as JSON-able data (recorded with every simulation's results).

        Returns
        -------
        dict
            ``target`` (None: the rule's), ``max_turns``, ``deck_name`` and ``deck``
            (card name -> count, :meth:`Deck.to_dict`).
        """
        return {
            "target": self.target,
            "max_turns": self.max_turns,
            "deck_name": self.deck.name,
            "deck": self.deck.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Inverse of :meth:`to_dict`.

        Parameters
        ----------
        data : mapping
            Rules as :meth:`to_dict` writes them (any subset of its keys).

        Returns
        -------
        Rules
            The rules; missing entries take their defaults.

        Raises
        ------
        RulesError, DeckError
            If an entry is invalid, or `data` is not a mapping.
        """
        if not isinstance(data, Mapping):
            # a list or a number raised an AttributeError / TypeError (session-18 probe)
            raise RulesError(f"rules must be a mapping of options, got {data!r}")
        unknown = set(data) - {"target", "max_turns", "deck", "deck_name"}
        if unknown:
            raise RulesError(f"unknown rules option {sorted(unknown)[0]!r}")
        deck = DEFAULT_DECK
        if "deck" in data:
            deck = Deck.from_mapping(data["deck"], data.get("deck_name", "custom"))
        return cls(target=data.get("target"), max_turns=data.get("max_turns", DEFAULT_MAX_TURNS), deck=deck)
