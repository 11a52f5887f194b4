"""A King's Crowns game, move by move, and what each seat sees (RULES.md, King's Crowns).

:class:`Game` drives the compiled engine (``ext/_kc_engine.pyx``), where the rules live;
the fast simulation path (:func:`crowns_solver.kings_crowns.simulate`) plays whole games
in the same engine, and both produce identical games from the same seed.

A seat's decisions are made from a :class:`SeatView`: its own hand, every stack on the
table (stacks are face up), the top of the discard pile and the sizes of the piles and of
every hand.  Other hands and the order of the draw pile are not in it.

Seats are numbered 0..players-1 in turn order; seat 0 sits left of the dealer and starts.
"""

from __future__ import annotations

import contextlib
import numbers
import threading
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

import numpy as np

from .. import _seeds
from .._checks import is_choice
from .._native import load
from ..errors import (
    EngineBusyError,
    CardError,
    CrownsError,
    IllegalMoveError,
    PolicyError,
    PolicySpecError,
    PositionError,
    RulesError,
)
from .cards import CARD_NAMES, NUM_KINDS, Card, crown_value, parse_card
from .deck import Deck
from .rules import Rules, check_players

if TYPE_CHECKING:
    from .policies import Policy

_core = load("_kc_engine")

__all__ = ["Game", "SeatView", "Play", "Destination", "DrawSource", "Seed", "make_rng", "check_seed"]

Destination: TypeAlias = Literal["discard", "play", "gifts", "crowns"]
DrawSource: TypeAlias = Literal["draw", "discard"]
Seed: TypeAlias = "int | np.random.SeedSequence | np.random.Generator | None"

_DEST_NAMES = ("discard", "play", "gifts", "crowns")
_PHASES = ("draw", "play", "over")
_SOURCES = ("draw", "discard")
_ENDED = (None, "target", "stalemate")


def check_seed(seed: Any) -> Seed:
    """`seed` if it is a seed: a whole number >= 0, a numpy SeedSequence or Generator, or
    None.

    Parameters
    ----------
    seed : object
        The value to check.

    Returns
    -------
    int, numpy.random.SeedSequence, numpy.random.Generator or None
        `seed` (a NumPy integer as an int).

    Raises
    ------
    RulesError
        Otherwise (a negative number, a float, a string...), naming the value, in the
        words every game uses (docs/decisions.md, "One seed rule for every game").
    """
    return _seeds.check_seed(seed, RulesError)


def make_rng(seed: Seed) -> np.random.Generator:
    """A numpy Generator (PCG64) from an int, SeedSequence or Generator (returned as is).

    Parameters
    ----------
    seed : int, numpy.random.SeedSequence, numpy.random.Generator or None
        The seed (None: fresh entropy).

    Returns
    -------
    numpy.random.Generator
        ``numpy.random.default_rng(seed)``, or `seed` itself when it is a Generator.

    Raises
    ------
    RulesError
        If `seed` is not a seed (see :func:`check_seed`).
    """
    seed = check_seed(seed)
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.Generator(np.random.PCG64(seed))


@dataclass(frozen=True)
class Play:
    """One play: a card from the hand and where it goes (RULES.md, King's Crowns, "A turn",
    "Legal plays").

    Attributes
    ----------
    card : str
        The card's name (``"crown-green-10"``).
    to : {"discard", "play", "gifts", "crowns"}
        The discard pile, or a play stack, the player's gifts stack or crown stack.
    seat : int or None
        Whose play stack, for a Sin played onto an opponent's; None for the player's own
        stacks and the discard pile.
    """

    card: Card
    to: Destination
    seat: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", CARD_NAMES[parse_card(self.card)])
        if not is_choice(self.to, _DEST_NAMES):   # a str first (session 24)
            raise IllegalMoveError(f"a play goes to one of {', '.join(_DEST_NAMES)}, not {self.to!r}")
        object.__setattr__(self, "to", str.__str__(self.to))
        if self.seat is not None and self.to != "play":
            raise IllegalMoveError(f"only a play onto a play stack names a seat: {self!r}")
        if self.seat is not None:
            # a NumPy integer seat was told "only a play onto a play stack names a seat"
            # (session-18 probe): a seat is any whole number, checked against the game later
            if isinstance(self.seat, bool) or not isinstance(self.seat, numbers.Integral):
                raise IllegalMoveError(f"a seat is a whole number, got {self.seat!r}: {self!r}")
            object.__setattr__(self, "seat", int(self.seat))

    def __str__(self) -> str:
        if self.to == "discard":
            return f"discard {self.card}"
        if self.seat is not None:
            return f"{self.card} on seat {self.seat}'s play stack"
        return f"{self.card} on own {self.to} stack"

    def _action(self, mover: int) -> int:
        code = parse_card(self.card)
        if self.to == "play" and self.seat is not None and self.seat != mover:
            return 16 * code + 4 + self.seat
        return 16 * code + _DEST_NAMES.index(self.to)

    @classmethod
    def _from_action(cls, action: int) -> Play:
        card, dest = CARD_NAMES[action >> 4], action & 15
        if dest >= 4:
            return cls(card, "play", dest - 4)
        return cls(card, _DEST_NAMES[dest])


def _names(codes: Iterable[int]) -> tuple[Card, ...]:
    return tuple(CARD_NAMES[c] for c in codes)


def _check_seat(seat: object, players: int) -> int:
    """`seat` as an int if it is a seat 0..players-1 (a Python or NumPy integer, not a
    bool), else IllegalMoveError naming it."""
    if isinstance(seat, bool) or not isinstance(seat, numbers.Integral) or not 0 <= seat < players:
        raise IllegalMoveError(f"no seat {seat!r} in a {players}-player game")
    return int(seat)


@dataclass(frozen=True)
class SeatView:
    """What one seat sees: everything a player may use to decide, nothing hidden.

    Attributes
    ----------
    seat, players : int
        This seat (0..players-1, turn order; seat 0 starts) and the number of players.
    turn : int
        Turns completed so far (over all seats).
    target, max_turns : int
        Crown points that win; the turn cap.
    phase : {"draw", "play"}
        What the seat to move does next.
    to_move : int
        The seat to move.
    hand : tuple of str
        This seat's cards, in card-code order (6, or 7 after drawing).
    hand_sizes : tuple of int
        Cards in each seat's hand.
    play_stacks, gift_stacks, crown_stacks : tuple of tuple of str
        Each seat's three stacks, bottom card first (all face up).
    discard_top : str or None
        The top of the discard pile (None if it is empty).
    discard_size, draw_size : int
        Cards in the discard pile and in the draw pile.
    deck : Deck
        The deck in play (public).
    """

    seat: int
    players: int
    turn: int
    target: int
    max_turns: int
    phase: Literal["draw", "play"]
    to_move: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    play_stacks: tuple[tuple[Card, ...], ...]
    gift_stacks: tuple[tuple[Card, ...], ...]
    crown_stacks: tuple[tuple[Card, ...], ...]
    discard_top: Card | None
    discard_size: int
    draw_size: int
    deck: Deck

    @classmethod
    def _from_engine(cls, d: dict[str, Any], deck: Deck) -> SeatView:
        hand: list[Card] = []
        for code, n in enumerate(d["hand"]):
            hand += [CARD_NAMES[code]] * n
        top = d["discard_top"]
        view = cls(
            seat=d["seat"], players=d["players"], turn=d["turn"], target=d["target"],
            max_turns=d["max_turns"], phase=_PHASES[d["phase"]], to_move=d["current"],
            hand=tuple(hand), hand_sizes=tuple(d["hand_sizes"]),
            play_stacks=tuple(_names(s) for s in d["play_stacks"]),
            gift_stacks=tuple(_names(s) for s in d["gift_stacks"]),
            crown_stacks=tuple(_names(s) for s in d["crown_stacks"]),
            discard_top=None if top < 0 else CARD_NAMES[top],
            discard_size=d["discard_size"], draw_size=d["draw_size"], deck=deck,
        )
        # made by the engine: to_native skips the field checks a hand-made view needs (they
        # cost the move-by-move engine a fifth of its speed); dataclasses.replace makes a
        # new view without this mark, which is checked again
        object.__setattr__(view, "_from_game", True)
        return view

    @property
    def scores(self) -> tuple[int, ...]:
        """Crown points of each seat."""
        return tuple(sum(crown_value(c) for c in stack) for stack in self.crown_stacks)

    def _seat(self, seat: object) -> int:
        """`seat` checked to be a seat of this game (-1 read the last seat, 1.5 raised a
        TypeError: session-18 probe)."""
        return _check_seat(seat, self.players)

    def play_top(self, seat: int) -> Card | None:
        """Top card of `seat`'s play stack (None before its Salvation).

        Parameters
        ----------
        seat : int
            A seat 0..players-1.

        Returns
        -------
        str or None
            The card's name.

        Raises
        ------
        IllegalMoveError
            If `seat` is not a seat of this game (0..players-1).
        """
        stack = self.play_stacks[self._seat(seat)]
        return stack[-1] if stack else None

    def gifts(self, seat: int) -> frozenset[str]:
        """Colours of the Gifts on `seat`'s gifts stack.

        Parameters
        ----------
        seat : int
            A seat 0..players-1.

        Returns
        -------
        frozenset of str
            Some of ``"red"``, ``"blue"``, ``"green"``.

        Raises
        ------
        IllegalMoveError
            If `seat` is not a seat of this game (0..players-1).
        """
        return frozenset(c.split("-")[1] for c in self.gift_stacks[self._seat(seat)])

    def unseen(self) -> Counter[Card]:
        """Cards this seat cannot see: the deck minus its hand, every stack and the
        discard top (they are in other hands, the draw pile, or under the discard top).

        Returns
        -------
        collections.Counter of str to int
            Card name -> copies this seat cannot see.
        """
        counts = Counter({CARD_NAMES[i]: n for i, n in enumerate(self.deck.counts) if n})
        seen = Counter(self.hand)
        for stacks in (self.play_stacks, self.gift_stacks, self.crown_stacks):
            for stack in stacks:
                seen.update(stack)
        if self.discard_top is not None:
            seen[self.discard_top] += 1
        counts.subtract(seen)
        return +counts

    def to_native(self) -> tuple[dict[str, Any], np.ndarray, np.ndarray]:
        """The view in the compiled engine's form (for built-in players).

        Returns
        -------
        tuple of (dict, numpy.ndarray, numpy.ndarray)
            The scalar fields and per-seat lists as a dict (cards as codes 0..27, -1 for
            none), the cards on each seat's stacks as int32 counts of shape
            (5 * 28,) (seat-major), and the deck's counts, int32, shape (28,).

        Raises
        ------
        PositionError
            If a field cannot be a game's (a phase other than "draw" or "play", players
            outside 2..5, per-seat fields of another length, a count that is not a whole
            number); the compiled engine checks the rest (see :meth:`_call_native`).
        CardError
            If a card is not a King's Crowns card.
        """
        if not self.__dict__.get("_from_game"):
            self._check_fields()
        hand = [0] * NUM_KINDS
        for c in self.hand:
            hand[parse_card(c)] += 1
        seat_counts = np.zeros(5 * NUM_KINDS, dtype=np.int32)
        gifts = []
        for q in range(self.players):
            for stack in (self.play_stacks[q], self.gift_stacks[q], self.crown_stacks[q]):
                for c in stack:
                    seat_counts[q * NUM_KINDS + parse_card(c)] += 1
            gifts.append(sum(1 << ("red", "blue", "green").index(g) for g in self.gifts(q)))
        d = {
            "seat": self.seat, "players": self.players, "target": self.target,
            "max_turns": self.max_turns, "turn": self.turn, "phase": _PHASES.index(self.phase),
            "hand": hand, "hand_sizes": list(self.hand_sizes),
            "play_top": [parse_card(s[-1]) if s else -1 for s in self.play_stacks],
            "play_n": [len(s) for s in self.play_stacks], "gifts": gifts, "score": list(self.scores),
            "discard_top": -1 if self.discard_top is None else parse_card(self.discard_top),
            "discard_size": self.discard_size, "draw_size": self.draw_size,
        }
        return d, seat_counts, np.asarray(self.deck.counts, dtype=np.int32)

    def _check_fields(self) -> None:
        """PositionError naming the first field no game's view can hold (a SeatView built
        or changed by hand reached the compiled engine, which raised ValueError,
        IndexError or OverflowError: session-19 Hypothesis tests)."""
        if not is_choice(self.phase, ("draw", "play")):
            raise PositionError(f"a view's phase is 'draw' or 'play', got {self.phase!r}")
        if isinstance(self.players, bool) or not isinstance(self.players, numbers.Integral) or not 2 <= self.players <= 5:
            raise PositionError(f"a view's players must be 2..5, got {self.players!r}")
        for name in ("hand_sizes", "play_stacks", "gift_stacks", "crown_stacks"):
            value = getattr(self, name)
            if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != self.players:
                raise PositionError(f"a view's {name} must give one entry per seat ({self.players}), got {value!r}")
        stacks = [("hand", self.hand)]
        for name in ("play_stacks", "gift_stacks", "crown_stacks"):
            stacks += [(f"{name}[{q}]", stack) for q, stack in enumerate(getattr(self, name))]
        for name, stack in stacks:
            if not isinstance(stack, Sequence) or isinstance(stack, str):
                raise PositionError(f"a view's {name} must be a sequence of cards, got {stack!r}")
        for q, stack in enumerate(self.gift_stacks):
            for c in stack:
                if not CARD_NAMES[parse_card(c)].startswith("gift-"):
                    raise PositionError(f"a view's gift_stacks[{q}] holds {c!r}, which is not a Gift")
        numbers_given = [(name, getattr(self, name)) for name in
                         ("seat", "turn", "target", "max_turns", "discard_size", "draw_size")]
        numbers_given += [(f"hand_sizes[{q}]", n) for q, n in enumerate(self.hand_sizes)]
        for name, value in numbers_given:
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not -(2**31) <= value < 2**31:
                raise PositionError(f"a view's {name} must be a whole number, got {value!r}")

    def _call_native(self, call: Any, rng: Any = None, *, needs_rng: bool = False) -> Any:
        """``call(d, seat_counts, deck)`` on :meth:`to_native`'s form (`rng`, a numpy
        Generator, checked when `needs_rng`): a view the compiled engine refuses (seats,
        turns, sizes or cards that no game reaches) is a PositionError, a bad `rng` a
        PolicyError."""
        if needs_rng and not isinstance(rng, np.random.Generator):
            raise PolicyError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
        d, seat_counts, deck = self.to_native()
        try:
            return call(d, seat_counts, deck)
        except CrownsError:
            raise
        except (ValueError, OverflowError) as exc:
            raise PositionError(f"seat {self.seat}'s view is not one a game can reach: {exc}") from None

    def legal_draws(self) -> list[DrawSource]:
        """Where this seat may draw from (only meaningful in the draw phase): ``"draw"``
        (the draw pile; an empty one is first refilled from the discard pile) and
        ``"discard"`` (the discard top) when that pile is not empty.

        Returns
        -------
        list of {"draw", "discard"}
            The sources (empty when both piles are empty: play without drawing,
            RULES.md, King's Crowns, "A turn").
        """
        out: list[DrawSource] = []
        if self.draw_size + self.discard_size > 0:
            out.append("draw")
        if self.discard_size > 0:
            out.append("discard")
        return out

    def legal_plays(self) -> list[Play]:
        """Every distinct legal play from this hand (RULES.md, "Legal plays"), as the
        engine computes them: any card may be discarded; the others as the rules allow.

        Returns
        -------
        list of Play
            Each distinct (card, destination, target seat) once.
        """
        if self.phase != "play":
            return []
        return [Play._from_action(a) for a in self._call_native(_core.legal_plays_view)]


class Game:
    """A King's Crowns game between `players` seats, played move by move.

    Parameters
    ----------
    players : int
        2..5.
    rules : Rules, optional
        Target, turn cap and deck (default: :class:`Rules`()).
    seed : int, SeedSequence or Generator, optional
        Source of every shuffle (and of the built-in players' random choices when they
        play through :meth:`play_turn`); the same seed replays the same game.  A
        Generator gives a 128-bit seed drawn from it (it advances), None (default) one
        from the operating system; either is recorded as :attr:`seed`, so
        ``Game(players, rules, seed=game.seed)`` always replays the game
        (docs/decisions.md, "One seed rule for every game").

    Attributes
    ----------
    seed : int or SeedSequence
        The whole number or SeedSequence given, or the whole number drawn from the
        Generator or the operating system: it replays the game.

    Raises
    ------
    RulesError, DeckError
        If `players` is not 2..5, the seed is not a whole number >= 0, a SeedSequence
        or a Generator, the target exceeds the deck's crown points, or the deck is too
        small to deal.

    Notes
    -----
    The deal shuffles the deck, gives 6 cards to each seat (one at a time, seat 0 first)
    and turns one card up to start the discard pile, whatever it is (RULES.md leaves the
    turned-up card open; it is just the first card of the discard pile).

    One Game per thread: the game lives in a compiled engine that serves one thread at
    a time.  A call that starts while another thread is inside the engine raises
    :class:`~crowns_solver.errors.EngineBusyError` without touching the game, and so
    does a move (:meth:`draw`, :meth:`play`, :meth:`play_turn`, :meth:`play_out`) while
    another thread is making one, its policy's choice included.  Games in
    separate threads are independent (each replays the game its seed gives) unless they
    were given one numpy Generator, whose stream they would then share.
    """

    def __init__(self, players: int = 4, rules: Rules | None = None, seed: Seed = None) -> None:
        self.players = check_players(players)
        self.rules = Rules() if rules is None else rules
        if not isinstance(self.rules, Rules):
            raise RulesError(f"rules must be a Rules, got {type(self.rules).__name__}")
        self.rules.check(players)
        self.target = self.rules.target_for(players)
        #: The seed given, or the one drawn from a Generator or the operating system
        #: (replays the game; a Generator given was kept here until session 22, and had
        #: moved on by the time it was given again).
        self.seed: _seeds.RecordedSeed = _seeds.replayable_seed(seed, RulesError)
        self.rng = make_rng(self.seed)
        self._deck = np.asarray(self.rules.deck.counts, dtype=np.int32)
        self._engine = _core.Engine(self._deck, players, self.target, self.rules.max_turns, self.rng)
        #: Every move so far: (turn, seat, "draw", source) or (turn, seat, "play", Play).
        self.log: list[tuple[int, int, str, Any]] = []
        # the thread making a move (draw, play, a turn, play_out): the engine refuses a
        # second thread per call, but a move is several calls (legal moves, the policy's
        # choice, the move), so another thread's move in between made this one illegal,
        # blamed on the policy ("chose badly"; session 22 break)
        self._mover_lock = threading.Lock()
        self._mover: int | None = None

    def __repr__(self) -> str:
        # a notebook shows the game's state, not "<Game object at 0x...>" (session 22)
        if self.phase == "over":
            how = (f"seat {self.winner} won with {self.scores[self.winner]} crown points" if self.winner is not None
                   else "stalemate at the turn cap")
            state = f"over after {self.turn} turns: {how}"
        else:
            state = f"turn {self.turn}, seat {self.to_move} to {self.phase}"
        return f"<Game {self.players} players, {state}; scores {self.scores}>"

    # ---- state
    @property
    def phase(self) -> Literal["draw", "play", "over"]:
        """``"draw"``, ``"play"`` (the seat to move has drawn), or ``"over"``."""
        return _PHASES[self._engine.phase]  # type: ignore[return-value]

    @property
    def to_move(self) -> int:
        """The seat to move."""
        return self._engine.current

    @property
    def turn(self) -> int:
        """Turns completed (over all seats; what the turn cap counts)."""
        return self._engine.turn

    @property
    def winner(self) -> int | None:
        """The seat that reached the target, or None."""
        w = self._engine.winner
        return None if w < 0 else w

    @property
    def ended(self) -> Literal["target", "stalemate"] | None:
        """How the game ended: ``"target"``, ``"stalemate"`` (turn cap), or None."""
        return _ENDED[self._engine.ended]  # type: ignore[return-value]

    @property
    def scores(self) -> tuple[int, ...]:
        """Crown points of each seat."""
        return tuple(self._engine.state()["scores"])

    def view(self, seat: int | None = None) -> SeatView:
        """What `seat` (default: the seat to move) sees.

        Parameters
        ----------
        seat : int, optional
            A seat 0..players-1; default the seat to move.

        Returns
        -------
        SeatView
            That seat's view: its own hand, the public stacks and piles, no hidden card.

        Raises
        ------
        IllegalMoveError
            If `seat` is not a seat of this game.
        """
        seat = _check_seat(self.to_move if seat is None else seat, self.players)
        return SeatView._from_engine(self._engine.view(seat), self.rules.deck)

    def state(self) -> dict[str, Any]:
        """The whole state with every hidden card, by name (for analysis and tests;
        never give it to a player).

        Returns
        -------
        dict
            ``turn``, ``to_move``, ``phase``, ``hands``, ``play_stacks``,
            ``gift_stacks``, ``crown_stacks`` (lists of card names per seat),
            ``draw_pile``, ``discard_pile``, ``scores`` (crown points per seat),
            ``winner``, ``ended``, ``reshuffles``.
        """
        d = self._engine.state()
        out: dict[str, Any] = {
            "turn": d["turn"], "to_move": d["current"], "phase": _PHASES[d["phase"]],
            "hands": [list(_names(h)) for h in d["hands"]],
            "play_stacks": [list(_names(s)) for s in d["play_stacks"]],
            "gift_stacks": [list(_names(s)) for s in d["gift_stacks"]],
            "crown_stacks": [list(_names(s)) for s in d["crown_stacks"]],
            "draw_pile": list(_names(d["draw_pile"])),
            "discard_pile": list(_names(d["discard_pile"])),
            "scores": d["scores"], "winner": self.winner, "ended": self.ended,
            "reshuffles": d["reshuffles"],
        }
        return out

    def card_counts(self) -> Counter[Card]:
        """Every card in the game wherever it is (always equal to the deck).

        Returns
        -------
        collections.Counter of str to int
            Card name -> copies over the hands, stacks and piles.
        """
        s = self.state()
        total: Counter[Card] = Counter(s["draw_pile"]) + Counter(s["discard_pile"])
        for key in ("hands", "play_stacks", "gift_stacks", "crown_stacks"):
            for cards in s[key]:
                total.update(cards)
        return total

    # ---- moves
    def legal_draws(self) -> list[DrawSource]:
        """Legal draw sources for the seat to move (empty unless the phase is draw).

        Returns
        -------
        list of {"draw", "discard"}
            As :meth:`SeatView.legal_draws`.
        """
        return [_SOURCES[s] for s in self._engine.legal_draws()]

    def legal_plays(self) -> list[Play]:
        """Every distinct legal play for the seat to move (empty unless the phase is play).

        Returns
        -------
        list of Play
            As :meth:`SeatView.legal_plays`.
        """
        return [Play._from_action(a) for a in self._engine.legal_plays()]

    def draw(self, source: DrawSource = "draw") -> Card:
        """Draw for the seat to move from ``"draw"`` (the draw pile; when it is empty
        the whole discard pile is shuffled into a new one first) or ``"discard"``.

        Parameters
        ----------
        source : {"draw", "discard"}
            The pile to draw from (RULES.md, King's Crowns, "A turn").

        Returns
        -------
        str
            The card drawn.

        Raises
        ------
        IllegalMoveError
            If the game is not in its draw phase or that pile is empty; the message names
            the source and the position.
        """
        with self._moving():
            if not is_choice(source, _SOURCES) or source not in self.legal_draws():
                raise IllegalMoveError(f"cannot draw from {source!r} now ({self._where()})")
            seat, turn = self.to_move, self.turn
            card = CARD_NAMES[self._engine.draw(_SOURCES.index(source))]
            self.log.append((turn, seat, "draw", source))
            return card

    def play(self, play: Play | tuple[Any, ...]) -> None:
        """Play a card for the seat to move (ending its turn).

        Parameters
        ----------
        play : Play or tuple
            A :class:`Play`, or ``(card, to)`` / ``(card, "play", seat)``.

        Raises
        ------
        IllegalMoveError
            If `play` is neither a Play nor such a tuple, names a seat not in the game,
            or is not legal now (RULES.md, "Legal plays"); the message names the play
            and the position.
        CardError
            If the card is not a King's Crowns card.
        """
        if not isinstance(play, Play):
            if not isinstance(play, (tuple, list)) or not 2 <= len(play) <= 3:
                raise IllegalMoveError(f"a play is a Play, (card, to) or (card, \"play\", seat), got {play!r}")
            play = Play(*play)
        with self._moving():
            seat, turn = self.to_move, self.turn
            if self.phase != "play":
                raise IllegalMoveError(f"cannot play {play} now ({self._where()})")
            if play.seat is not None and not 0 <= play.seat < self.players:
                raise IllegalMoveError(f"no seat {play.seat} in a {self.players}-player game: {play}")
            action = play._action(seat)
            if action not in self._engine.legal_plays():
                raise IllegalMoveError(f"illegal play: {play} ({self._where()}; {self._why(play)})")
            self._engine.play(action)
            self.log.append((turn, seat, "play", Play._from_action(action)))

    @contextlib.contextmanager
    def _moving(self):
        """Hold the game for this thread's move; EngineBusyError if another thread is
        making one (the same thread may re-enter: play_turn draws and plays)."""
        me = threading.get_ident()
        if self._mover == me:
            yield
            return
        if not self._mover_lock.acquire(blocking=False):
            raise EngineBusyError(_core.BUSY_MESSAGE)   # the engine's own words
        self._mover = me
        try:
            yield
        finally:
            self._mover = None
            self._mover_lock.release()

    def _where(self) -> str:
        if self.phase == "over":
            return f"game over after {self.turn} turns"
        return f"seat {self.to_move} to {self.phase}, turn {self.turn}"

    def _why(self, play: Play) -> str:
        view = self.view()
        if play.card not in view.hand:
            return f"{play.card} is not in the hand"
        return "the rules do not allow it there"

    def play_turn(self, policies: Sequence[Policy | str] | Policy | str) -> None:
        """Let the seat to move's policy draw (when it can) and play one card.

        Parameters
        ----------
        policies : Policy, str or sequence of them
            One policy (object or name, :func:`~crowns_solver.kings_crowns.get_policy`)
            per seat, or one for every seat, as :meth:`play_out` takes them.

        Raises
        ------
        PolicySpecError
            (a PolicyError and a RulesError) If `policies` is not a name, a Policy or a
            list of them, there is not one policy per seat, or a name is unknown (until session 22 a name, or a list of
            names, raised an AttributeError in the middle of the turn).
        IllegalMoveError
            If the game is over (there is no turn to play), or the policy chooses a draw
            or a play that is not legal.
        CardError
            If the policy's play names a card that is not a King's Crowns card.
        """
        pols = self._policies(policies)
        with self._moving():
            if self.phase == "over":
                raise IllegalMoveError(f"no turn to play: {self._where()}")
            self._play_turn(pols)

    def _play_turn(self, policies: Sequence[Policy]) -> None:
        seat = self.to_move
        policy = policies[seat]
        try:
            if self.phase == "draw":
                self.draw(policy.choose_draw(self.view(seat), self.rng))
            if self.phase == "play":
                self.play(policy.choose_play(self.view(seat), self.rng))
        except (IllegalMoveError, CardError) as exc:
            # name the player, as Five Crowns does: in a simulation of several custom
            # players "cannot draw from 5 now (seat 0 ...)" did not say whose choice it was
            raise type(exc)(f"policy {policy.name!r} (seat {seat}) chose badly: {exc}") from None

    def _policies(self, policies: Any) -> list[Policy]:
        """One resolved policy per seat from what :meth:`play_out` and :meth:`play_turn` take."""
        from .policies import Policy, get_policy

        if isinstance(policies, (str, Policy)):  # one player for every seat, not its letters
            policies = [policies] * self.players
        if not isinstance(policies, (list, tuple)):
            raise PolicySpecError(f"policies must be a policy name, a Policy, or a list of them (one per seat),"
                                  f" got {policies!r}")
        pols = [get_policy(p) for p in policies]
        if len(pols) != self.players:
            raise PolicySpecError(f"give one policy per seat ({self.players}), got {len(pols)}")
        return pols

    def play_out(self, policies: Sequence[Policy | str] | Policy | str) -> Game:
        """Play the game to its end with one policy per seat (or one name or Policy
        for every seat); returns the game.

        Parameters
        ----------
        policies : Policy, str or sequence of them
            One policy (object or name, :func:`~crowns_solver.kings_crowns.get_policy`)
            per seat, or one for every seat.

        Returns
        -------
        Game
            This game, ended (a winner, or the turn cap).

        Raises
        ------
        PolicySpecError
            (a PolicyError and a RulesError) If `policies` is not a name, a Policy or a
            list of them, there is not one policy per seat, or a name is unknown.
        IllegalMoveError, CardError
            If a policy chooses an illegal draw or play (:meth:`play_turn`).
        """
        pols = self._policies(policies)
        with self._moving():
            while self.phase != "over":
                self._play_turn(pols)
        return self
