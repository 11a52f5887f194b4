"""Cross Kings computer players behind one interface, and move evaluation.

A player answers one question: given a :class:`SeatView` (what one seat at the table
sees) and a seeded ``numpy.random.Generator``, which cell does it take?  Before the start
that question is the second player's choice of start cell among the four central cells
(RULES.md, Cross Kings, "Players"), so every player makes that choice too.

The view holds only what the players can see (RULES.md "Hidden cards": face-down cards
are unknown to both players until taken; the information is symmetric).  Asking it for a
face-down card raises :class:`~crowns_solver.errors.HiddenCardError`.  Only the
clairvoyant player, which exists to measure what seeing the cards is worth, is given a
view that holds the whole deal; it cheats, and everything that reports on it says so.

Built in (:data:`PLAYER_NAMES`):

- ``random``: a uniformly random legal move (a baseline).
- ``greedy``: the best immediate score gain for its own hand (the expected gain over
  the unseen cards for a face-down cell); ties go to the card worth most to the
  opponent, then to a seeded random choice.
- ``search``: the game value (expectiminimax over the face-down cards, RULES.md "Game
  value") searched by :func:`~crowns_solver.cross_kings.solve` with ``mode="game"`` under
  a node or time limit: iterative deepening with a heuristic evaluation of unfinished
  hands, switching to the exact solver once the position is within its reach.
- ``clairvoyant``: the same search on the *open* value, all face-down cards known.
  **It cheats.**

:func:`evaluate_moves` gives the game-mode value of every legal move, exact where the
solver proves it, otherwise the search player's estimate.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .._checks import check_choice, check_flag
from ..errors import HiddenCardError, IllegalMoveError, PolicyError, PositionError
from .cards import DECK, Card, parse_card
from .position import PLAYERS, UNKNOWN, Cell, Player, Position, _as_coords, cell_coords, cell_index, cell_text
from .scoring import _core as _score_core
from .solver import EVALUATIONS, MAX_TT_MB, OBJECTIVES, _check_cancel

__all__ = [
    "SeatView",
    "CrossKingsPlayer",
    "RandomPlayer",
    "GreedyPlayer",
    "SearchPlayer",
    "ClairvoyantPlayer",
    "MoveEstimate",
    "PLAYER_NAMES",
    "SEARCH_PLAYERS",
    "seat_view",
    "make_player",
    "evaluate_moves",
    "DEFAULT_NODE_LIMIT",
]

#: Default search effort of the ``search`` and ``clairvoyant`` players, in search nodes
#: per move (about 0.1 s at the solver's speed; node limits make games reproducible).
DEFAULT_NODE_LIMIT = 300_000
#: Default search memory of the players, in MB (allocated once per move).
DEFAULT_PLAYER_TT_MB = 16


def _other(seat: str) -> str:
    return "second" if seat == "first" else "first"


def _public(position: Position) -> Position:
    """`position` with every face-down card unknown (as a save string shows it)."""
    if not position.face_down:
        return replace(position, hidden_order=None)
    cells = tuple(UNKNOWN if i in position.face_down else c for i, c in enumerate(position.cells))
    return replace(position, cells=cells, hidden_order=None)


class SeatView:
    """What one seat at the table sees of a Cross Kings position.

    Face-down cards stay unknown: :meth:`card_at` on a face-down cell raises
    :class:`~crowns_solver.errors.HiddenCardError`, and :meth:`public_position` gives the
    position with those cells unknown (as a crosskings.net save string shows it).  The
    view of an ordinary player does not even hold the hidden cards.  Both seats see the
    same things (RULES.md "Hidden cards": the information is symmetric); `seat` says
    whose view it is, so "my hand" and "my margin" mean that seat's.

    Build one with :func:`seat_view`.

    Parameters
    ----------
    position : Position
        The true position.
    seat : {"first", "second"}
        Whose view.
    reveal : bool
        Keep the whole deal for :meth:`true_position` (the clairvoyant player's view).

    Raises
    ------
    PositionError
        If `position` is not a Position, `seat` is not a seat, or `reveal` is not True
        or False.

    Attributes
    ----------
    seat : {"first", "second"}
        Whose view this is.
    hidden_accesses : int
        How many times something asked this view for a hidden card (each such request
        raised :class:`~crowns_solver.errors.HiddenCardError`).
    """

    __slots__ = ("seat", "hidden_accesses", "_public", "_full")

    def __init__(self, position: Position, seat: Player, *, reveal: bool = False) -> None:
        if not isinstance(position, Position):
            raise PositionError(f"a seat view needs a Position, got {type(position).__name__}")
        seat = check_choice("seat", seat, PLAYERS, PositionError, argument=None)   # a str (session 24)
        # reveal="no" is true: it gave an honest seat the whole deal (session 22)
        reveal = check_flag("reveal", reveal, PositionError)
        self.seat: Player = seat
        self.hidden_accesses = 0
        self._public = _public(position)
        self._full = position if reveal else None

    # ------------------------------------------------------------------ hidden cards

    def _hidden(self, what: str) -> HiddenCardError:
        self.hidden_accesses += 1
        return HiddenCardError(f"{what}: {self.seat}'s view does not show face-down cards")

    def card_at(self, cell: Cell | int) -> Card | None:
        """The card in `cell` as this seat sees it: None if taken.

        Parameters
        ----------
        cell : (int, int) or int
            ``(row, col)`` or a cell number 0..35.

        Returns
        -------
        str or None
            The card's text, None when the cell's card was taken.

        Raises
        ------
        HiddenCardError
            If the cell is still face down (its card is hidden from both players).
        PositionError
            If `cell` is not a cell.
        """
        i = cell_index(cell)
        if i in self._public.taken:
            return None
        if i in self._public.face_down:
            raise self._hidden(f"cell {cell_text(i)} is face down")
        return DECK[self._public.cells[i]]

    def true_position(self) -> Position:
        """The whole position, face-down cards included: only for a player allowed to
        cheat (the clairvoyant player's view, made with ``seat_view(..., reveal=True)``).

        Returns
        -------
        Position
            The position the view was made from.

        Raises
        ------
        HiddenCardError
            Always on an ordinary player's view.
        """
        if self._full is None:
            raise self._hidden("the whole deal was asked for")
        return self._full

    # ------------------------------------------------------------------ what is public

    def public_position(self) -> Position:
        """The position with every face-down card unknown (fine for ``solve(mode="game")``).

        Returns
        -------
        Position
            The position with no face-down card known (RULES.md, Cross Kings, "Hidden
            cards").
        """
        return self._public

    @property
    def grid(self) -> tuple[Card | None, ...]:
        """Each cell's card, ``"??"`` when face down, None when taken (36 entries)."""
        return self._public.grid

    @property
    def marker(self) -> Cell | None:
        """The marker's cell, None before the start cell is chosen."""
        m = self._public.marker
        return None if m is None else cell_coords(m)

    @property
    def to_move(self) -> Player:
        """The player to move (before the start: "second", who chooses the start cell)."""
        return self._public.to_move

    @property
    def my_turn(self) -> bool:
        return self._public.to_move == self.seat

    @property
    def choosing_start(self) -> bool:
        """Whether the move to make is the second player's choice of start cell."""
        return self._public.marker is None

    @property
    def reach(self) -> str:
        return self._public.reach

    @property
    def cards_left(self) -> int:
        return self._public.cards_left

    @property
    def face_down(self) -> tuple[Cell, ...]:
        """Cells still face down, sorted."""
        return tuple(cell_coords(i) for i in sorted(self._public.face_down))

    @property
    def unseen(self) -> tuple[Card, ...]:
        """Cards no one has seen: those the face-down cells hold between them (sorted)."""
        return self._public.unseen

    def hand(self, player: Player) -> tuple[Card, ...]:
        """Cards taken by `player` (both hands are face up).

        Parameters
        ----------
        player : {"first", "second"}
            Whose hand.

        Returns
        -------
        tuple of str
            Card texts, in the order taken.

        Raises
        ------
        PositionError
            If `player` is not "first" or "second".
        """
        return self._public.hand(player)

    @property
    def my_hand(self) -> tuple[Card, ...]:
        return self._public.hand(self.seat)

    @property
    def opponent_hand(self) -> tuple[Card, ...]:
        return self._public.hand(_other(self.seat))  # type: ignore[arg-type]

    def scores(self) -> tuple[int, int]:
        """Current scores (first, second).

        Returns
        -------
        tuple of (int, int)
            Points of each hand as it stands (RULES.md, Cross Kings, "Scoring one hand").
        """
        return self._public.scores()

    @property
    def margin(self) -> int:
        """This seat's score minus the opponent's, as the hands stand."""
        a, b = self._public.scores()
        return a - b if self.seat == "first" else b - a

    def legal_moves(self) -> list[Cell]:
        """Legal moves of the player to move (before the start: the four central cells).

        Returns
        -------
        list of (int, int)
            As :meth:`Position.legal_moves`.
        """
        return self._public.legal_moves()

    def is_terminal(self) -> bool:
        """Whether the game is over.

        Returns
        -------
        bool
            As :meth:`Position.is_terminal`.
        """
        return self._public.is_terminal()

    def __repr__(self) -> str:
        return f"<SeatView of {self.seat}: {self._public!r}>"


def seat_view(position: Position, seat: Player, *, reveal: bool = False) -> SeatView:
    """What `seat` sees of `position`.

    Parameters
    ----------
    position : Position
        The true position (it may know the face-down cards, as a dealt game does).
    seat : {"first", "second"}
        Whose view.
    reveal : bool
        Keep the whole deal in the view for :meth:`SeatView.true_position`: only for the
        clairvoyant player, which cheats.  Default False: the view holds no hidden card.

    Returns
    -------
    SeatView
        The view.

    Raises
    ------
    PositionError
        If `position` is not a Position, `seat` is not a seat, or `reveal` is not True
        or False.
    """
    return SeatView(position, seat, reveal=reveal)


@runtime_checkable
class CrossKingsPlayer(Protocol):
    """A Cross Kings computer player.

    ``choose(view, rng)`` returns the cell to take (before the start, the start cell);
    `rng` is the only source of randomness, so a game is reproducible from its seed.
    Players keep no state between moves, so one object may play both seats.

    The built-in players raise :class:`~crowns_solver.errors.PolicyError` when `view` is
    not a :class:`SeatView` or `rng` not a ``numpy.random.Generator``, and
    :class:`~crowns_solver.errors.IllegalMoveError` when the game is over or it is not
    the view's seat to move.
    """

    name: str

    def choose(self, view: SeatView, rng: np.random.Generator) -> Cell:
        """The cell to take (before the start, the start cell).

        Parameters
        ----------
        view : SeatView
            The mover's view.
        rng : numpy.random.Generator
            The only source of randomness.

        Returns
        -------
        tuple of (int, int)
            A legal ``(row, col)`` cell.
        """
        ...


# ------------------------------------------------------------------ hand arithmetic

def _mask(cards: tuple[Card, ...]) -> tuple[int, int]:
    mask = kings = 0
    for c in cards:
        i = parse_card(c)
        if i >= 32:
            kings += 1
        else:
            mask |= 1 << i
    return mask, kings


def _gain(mask: int, kings: int, base: int, card: int) -> int:
    """Score gain of adding card index `card` to the hand (mask, kings) scoring `base`."""
    if card >= 32:
        return _score_core.score_mask(mask, kings + 1) - base
    return _score_core.score_mask(mask | (1 << card), kings) - base


def _expected_gains(view: SeatView, cell: Cell, hands: tuple) -> tuple[Fraction, ...]:
    """Immediate score gain of taking `cell` for each hand in `hands` ((mask, kings, score)):
    exact for a face-up card, the mean over the unseen cards for a face-down one."""
    i = cell_index(cell)
    pub = view.public_position()
    if i in pub.face_down:
        pool = [parse_card(c) for c in view.unseen]
        return tuple(
            Fraction(sum(_gain(m, k, s, c) for c in pool), len(pool)) for m, k, s in hands
        )
    card = pub.cells[i]
    return tuple(Fraction(_gain(m, k, s, card)) for m, k, s in hands)


def _pick(options: list[Cell], rng: np.random.Generator) -> Cell:
    return options[int(rng.integers(len(options)))] if len(options) > 1 else options[0]


def _check_view(view: Any, rng: Any) -> SeatView:
    """The checks every player's ``choose(view, rng)`` makes before choosing."""
    if not isinstance(view, SeatView):
        raise PolicyError(f"a player chooses from a SeatView, got {type(view).__name__}")
    if not isinstance(rng, np.random.Generator):
        raise PolicyError(
            f"a player draws its random choices from a numpy Generator (np.random.default_rng(seed)),"
            f" got {type(rng).__name__}"
        )
    if view.is_terminal():
        raise IllegalMoveError("the game is over: there is no move to choose")
    if not view.my_turn:
        raise IllegalMoveError(
            f"it is {view.to_move}'s turn, not {view.seat}'s: a player chooses only from its own seat's view"
        )
    return view


# ------------------------------------------------------------------ the players

class RandomPlayer:
    """A uniformly random legal move (and start cell).  A baseline, not a player to learn from."""

    name = "random"
    cheats = False

    def choose(self, view: SeatView, rng: np.random.Generator) -> Cell:
        """A legal move drawn uniformly with `rng`.

        Parameters
        ----------
        view : SeatView
            The mover's view (:func:`seat_view`).
        rng : numpy.random.Generator
            The only source of randomness (the draw).

        Returns
        -------
        tuple of (int, int)
            The ``(row, col)`` cell to take: one of ``view.legal_moves()`` (before the
            start, one of the four central cells).

        Raises
        ------
        PolicyError
            If `view` is not a SeatView or `rng` not a numpy Generator.
        IllegalMoveError
            If the game is over or it is not the view's seat to move.
        """
        return _pick(_check_view(view, rng).legal_moves(), rng)

    def __repr__(self) -> str:
        return "RandomPlayer()"


class GreedyPlayer:
    """The best immediate score gain for its own hand.

    Each legal move is worth the gain in the mover's score (RULES.md "Scoring one hand")
    from the card taken: exact for a face-up card, the mean over the unseen cards for a
    face-down cell (each equally likely).  Ties go to the card that would give the
    opponent most (denial), then, with ``tie_break="random"`` (default), to a choice drawn
    with `rng`; with ``tie_break="first"``, to the first cell in row-major order.

    Start cell (second player, before the first move): no card is taken then, so it
    picks the central cell whose row and column show the fewest face-up Kings to the
    first player (Kings fit any group), ties broken as above.

    Parameters
    ----------
    tie_break : {"random", "first"}
        How remaining ties are broken.

    Raises
    ------
    PolicyError
        If `tie_break` is neither.
    """

    name = "greedy"
    cheats = False

    def __init__(self, tie_break: str = "random") -> None:
        self.tie_break = check_choice("tie_break", tie_break, ("random", "first"), PolicyError, argument=None)

    def _break(self, options: list[Cell], rng: np.random.Generator) -> Cell:
        options = sorted(options)
        return options[0] if self.tie_break == "first" else _pick(options, rng)

    def choose(self, view: SeatView, rng: np.random.Generator) -> Cell:
        """The cell with the best immediate gain (see the class docstring).

        Parameters
        ----------
        view : SeatView
            The mover's view (:func:`seat_view`).
        rng : numpy.random.Generator
            The only source of randomness (ties, with ``tie_break="random"``).

        Returns
        -------
        tuple of (int, int)
            The ``(row, col)`` cell to take: one of ``view.legal_moves()`` (before the
            start, one of the four central cells).

        Raises
        ------
        PolicyError
            If `view` is not a SeatView or `rng` not a numpy Generator.
        IllegalMoveError
            If the game is over or it is not the view's seat to move.
        """
        view = _check_view(view, rng)
        moves = view.legal_moves()
        if view.choosing_start:
            pub = view.public_position()

            def kings(cell: Cell) -> int:
                r, c = cell
                line = [6 * r + x for x in range(6) if x != c] + [6 * y + c for y in range(6) if y != r]
                return sum(1 for i in line if i not in pub.face_down and pub.cells[i] >= 32)

            fewest = min(kings(m) for m in moves)
            return self._break([m for m in moves if kings(m) == fewest], rng)
        mover = view.to_move
        hands = []
        for player in (mover, _other(mover)):
            m, k = _mask(view.hand(player))  # type: ignore[arg-type]
            hands.append((m, k, _score_core.score_mask(m, k)))
        keys = {cell: _expected_gains(view, cell, tuple(hands)) for cell in moves}
        best = max(keys.values())
        return self._break([c for c in moves if keys[c] == best], rng)

    def __repr__(self) -> str:
        return f"GreedyPlayer(tie_break={self.tie_break!r})"


def _check_limits(node_limit: Any, time_limit: Any, tt_mb: Any, objective: Any,
                  evaluation: Any = "fitted") -> tuple[str, str]:
    """PolicyError for a bad option of a search player; the objective and evaluation as
    plain str."""
    if node_limit is not None and (
        isinstance(node_limit, bool) or not isinstance(node_limit, (int, np.integer)) or node_limit <= 0
    ):
        raise PolicyError(f"node_limit must be a positive whole number of nodes or None, got {node_limit!r}")
    if time_limit is not None and (
        isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))
        or not math.isfinite(time_limit) or time_limit <= 0
    ):
        raise PolicyError(f"time_limit must be a positive number of seconds or None, got {time_limit!r}")
    if node_limit is None and time_limit is None:
        raise PolicyError("a search player needs a node_limit or a time_limit (or both)")
    if isinstance(tt_mb, bool) or not isinstance(tt_mb, (int, float)) or not 1 <= tt_mb <= MAX_TT_MB:
        raise PolicyError(f"tt_mb must be a number of MB between 1 and {MAX_TT_MB}, got {tt_mb!r}")
    # words are checked to be a str first (a NumPy array was stored: session 24)
    return (check_choice("objective", objective, OBJECTIVES, PolicyError, argument=None),
            check_choice("evaluation", evaluation, EVALUATIONS, PolicyError, argument=None))


class SearchPlayer:
    """Game-value search: expectiminimax over the unseen cards, to a node or time limit.

    Each move calls :func:`~crowns_solver.cross_kings.solve` with ``mode="game"`` on the
    public position (face-down cards unknown; RULES.md "Game value"): iterative deepening
    (MTD(f) per depth, alpha-beta with a transposition table, Star1/Star2 at chance
    nodes) with a heuristic evaluation of unfinished hands at the horizon (by default
    the fitted evaluation: see `evaluation`), and the exact search once the position is within
    its reach (at most 19 cards left, or sooner when the deepening reaches the end of
    the game).  It plays the move the search prefers; its start cell is the best of the
    four central cells by the same search, drawn with `rng` among cells whose estimates tie.

    Parameters
    ----------
    node_limit : int or None, default 300_000
        Search nodes per move (deterministic: games replay exactly).
    time_limit : float or None
        Seconds per move (not reproducible from a seed; for interactive play).
    objective : {"margin", "win"}
        What the search maximises: the expected final margin (default) or the expected
        game points (win 1, draw 1/2).
    tt_mb : float
        Search memory per move, in MB.
    evaluation : {"fitted", "potential"}
        The horizon evaluation (see :func:`~crowns_solver.cross_kings.solve`):
        ``"fitted"`` (default) or the earlier ``"potential"``.  With 20,000 and 100,000
        nodes a move, the fitted one scores about 0.8-1 point a game more against the
        other (docs/cross_kings_solver.md "Sixth round").
    cancel : threading.Event or None
        Tell the player, from another thread, to move now: any object with an
        ``is_set()`` method, typically a :class:`threading.Event` that a GUI or server
        sets while :meth:`choose` thinks in a worker thread.  Passed to
        :func:`~crowns_solver.cross_kings.solve`, which stops within about 50 ms of
        searching once it is set (``stopped="cancelled"``); :meth:`choose` then returns
        the best move found so far: always one of ``view.legal_moves()``, never None.
        The object stays set until the caller clears it, so every :meth:`choose`
        meanwhile returns at once with a legal move nothing was searched for (the first
        in the solver's move order, or the best by the score bounds).  Not an option of
        :func:`make_player`, whose options a match records and sends to worker
        processes.  Default None: no such object.

    Raises
    ------
    PolicyError
        If a limit or option is invalid, or both limits are None.
    SolverOptionError
        If `cancel` is not None and has no callable ``is_set`` (the error
        :func:`~crowns_solver.cross_kings.solve` raises for it, naming ``cancel``).
    """

    name = "search"
    cheats = False
    _mode = "game"

    def __init__(self, node_limit: int | None = DEFAULT_NODE_LIMIT, time_limit: float | None = None,
                 objective: str = "margin", tt_mb: float = DEFAULT_PLAYER_TT_MB,
                 evaluation: str = "fitted", cancel: Any = None) -> None:
        objective, evaluation = _check_limits(node_limit, time_limit, tt_mb, objective, evaluation)
        _check_cancel(cancel)
        self.evaluation = evaluation
        self.node_limit = None if node_limit is None else int(node_limit)
        self.time_limit = time_limit
        self.objective = objective
        self.tt_mb = tt_mb
        self.cancel = cancel

    def _position(self, view: SeatView) -> Position:
        return view.public_position()

    def solution(self, view: SeatView) -> Any:
        """The :class:`~crowns_solver.cross_kings.Solution` behind the next choice.

        Parameters
        ----------
        view : SeatView
            The mover's view.

        Returns
        -------
        Solution
            ``solve`` of the public position (the whole deal for the clairvoyant
            player) under this player's mode, objective, limits, evaluation and
            `cancel` (``stopped="cancelled"`` when that stopped it).

        Raises
        ------
        HiddenCardError
            For the clairvoyant player, if `view` was not made with ``reveal=True``.
        """
        from .solver import solve

        return solve(self._position(view), mode=self._mode, objective=self.objective,  # type: ignore[arg-type]
                     tt_mb=self.tt_mb, time_limit=self.time_limit, node_limit=self.node_limit,
                     evaluation=self.evaluation, cancel=self.cancel)  # type: ignore[arg-type]

    def choose(self, view: SeatView, rng: np.random.Generator) -> Cell:
        """The move the search prefers (a single legal move is played without searching).

        When the player's `cancel` object is set during (or before) the search, the
        search stops and this is the best move found so far.

        Parameters
        ----------
        view : SeatView
            The mover's view (:func:`seat_view`).
        rng : numpy.random.Generator
            The only source of randomness (ties among start cells).

        Returns
        -------
        tuple of (int, int)
            The ``(row, col)`` cell to take: one of ``view.legal_moves()`` (before the
            start, one of the four central cells).

        Raises
        ------
        PolicyError
            If `view` is not a SeatView or `rng` not a numpy Generator.
        IllegalMoveError
            If the game is over or it is not the view's seat to move.
        HiddenCardError
            For the clairvoyant player, if `view` was not made with ``reveal=True``.
        KeyboardInterrupt
            If Ctrl-C stopped the search (passed on to the match or game).
        """
        view = _check_view(view, rng)
        moves = view.legal_moves()
        if len(moves) == 1:
            return moves[0]
        sol = self.solution(view)
        if sol.stopped == "interrupted":
            # solve() turns Ctrl-C into a partial result; a player is part of a longer
            # job (a match, a game), which the user asked to stop: pass it on
            raise KeyboardInterrupt
        move = sol.best_move
        if view.choosing_start and move is not None:
            # the four start cells are all searched; their estimates often tie early in the
            # deepening: draw among the tied best with `rng` rather than always the first
            best = next((m.value for m in sol.moves if m.cell == move), None)
            tied = sorted(m.cell for m in sol.moves if best is not None and m.value == best)
            if len(tied) > 1:
                move = _pick(tied, rng)
        if move is None or move not in moves:
            # the solver can stop under a node limit with the value proven but no best move
            # listed (seen with objective "win"): take the move with the best proven lower
            # bound, then the best estimate
            ranked = sorted(
                (m for m in sol.moves if m.cell in moves),
                key=lambda m: (m.lower, m.value if m.value is not None else m.lower, m.upper),
                reverse=True,
            )
            move = ranked[0].cell if ranked else None
        if move is None or move not in moves:   # cannot happen: the solver lists legal moves
            raise PolicyError(f"{self.name}: the search returned no legal move ({move!r})")
        return move

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(node_limit={self.node_limit!r}, time_limit={self.time_limit!r},"
                f" objective={self.objective!r}, evaluation={self.evaluation!r})")


class ClairvoyantPlayer(SearchPlayer):
    """**Cheats**: searches the open value, with every face-down card known.

    For comparison only: it shows what seeing the face-down cards is worth against
    honest players.  Same search as :class:`SearchPlayer` but ``mode="open"`` on the whole
    deal (RULES.md "Open value"), which its view must reveal
    (``seat_view(..., reveal=True)``; :mod:`~crowns_solver.cross_kings.match` does this
    for players whose ``cheats`` is True).  Every report that includes it says it cheats.

    Parameters
    ----------
    node_limit, time_limit, objective, tt_mb, evaluation, cancel
        As for :class:`SearchPlayer`.

    Raises
    ------
    PolicyError
        As for :class:`SearchPlayer`.
    SolverOptionError
        If `cancel` is not None and has no callable ``is_set``.
    HiddenCardError
        When asked to choose from an ordinary (non-revealing) view.
    """

    name = "clairvoyant"
    cheats = True
    _mode = "open"

    def _position(self, view: SeatView) -> Position:
        return view.true_position()


_FACTORIES: dict[str, Callable[..., Any]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "search": SearchPlayer,
    "clairvoyant": ClairvoyantPlayer,
}
_SEARCH_OPTIONS = ("node_limit", "time_limit", "objective", "tt_mb", "evaluation")
_OPTIONS: dict[str, tuple[str, ...]] = {
    "random": (),
    "greedy": ("tie_break",),
    "search": _SEARCH_OPTIONS,
    "clairvoyant": _SEARCH_OPTIONS,
}
#: Built-in player names, for :func:`make_player` and the command line.
PLAYER_NAMES: tuple[str, ...] = tuple(_FACTORIES)
#: The players that search (they take a node or time limit, an objective, an evaluation).
SEARCH_PLAYERS: tuple[str, ...] = tuple(n for n in PLAYER_NAMES if _OPTIONS[n] == _SEARCH_OPTIONS)


def make_player(name: str, **options: Any) -> CrossKingsPlayer:
    """A built-in player by name.

    Parameters
    ----------
    name : {"random", "greedy", "search", "clairvoyant"}
        See :data:`PLAYER_NAMES` and the module docstring (any case, spaces around
        ignored, as the other games' policy names).  ``"clairvoyant"`` cheats.
    **options
        The player's options: ``tie_break`` (greedy); ``node_limit``, ``time_limit``,
        ``objective``, ``tt_mb``, ``evaluation`` (search, clairvoyant).

    Returns
    -------
    CrossKingsPlayer
        A :class:`RandomPlayer`, :class:`GreedyPlayer`, :class:`SearchPlayer` or
        :class:`ClairvoyantPlayer`.

    Raises
    ------
    PolicyError
        If the name is unknown, an option does not belong to that player, or an option's
        value is invalid.
    """
    if not isinstance(name, str) or name.strip().lower() not in _FACTORIES:  # a list raised "unhashable" (session 18)
        raise PolicyError(f"unknown Cross Kings player {name!r}; choose from {', '.join(PLAYER_NAMES)}")
    name = name.strip().lower()   # any case, as Five Crowns and King's Crowns policy names (session 22)
    extra = sorted(set(options) - set(_OPTIONS[name]))
    if extra:
        allowed = ", ".join(_OPTIONS[name]) or "none"
        raise PolicyError(f"player {name!r} has no option {extra[0]!r} (options: {allowed})")
    return _FACTORIES[name](**options)


# ------------------------------------------------------------------ move evaluation

@dataclass(frozen=True)
class MoveEstimate:
    """The value of one legal move, from the point of view of the player to move.

    Attributes
    ----------
    cell : (row, col)
        The cell taken (before the start: the start cell); a cell number given is kept
        as ``(row, col)``.
    value : Fraction or None
        Expected final margin in points (the mover's score minus the opponent's) after
        this move under best play, face-down cards unknown (RULES.md "Game value").
        Exact when `exact`; otherwise the search's estimate; None when the search ran out
        of its limits before estimating this move (only its bounds are known).
    exact : bool
        Whether `value` is proven.
    lower, upper : Fraction
        Proven bounds of the value.
    card_values : dict or None
        For a face-down cell, when exact: the exact value for each card it may reveal
        (each equally likely; their mean is `value`).
    """

    cell: Cell
    value: Fraction | None
    exact: bool
    lower: Fraction | None = None
    upper: Fraction | None = None
    card_values: dict[Card, Fraction] | None = None

    def __post_init__(self) -> None:
        # an evaluator given to review.analyse_steps may build these with cell numbers:
        # kept as (row, col), the analysis found no value for the move played (session 23)
        object.__setattr__(self, "cell", _as_coords(self.cell, "cell"))


def evaluate_moves(position: Position, *, time_limit: float | None = None,
                   node_limit: int | None = None, tt_mb: float = 64,
                   cancel: Any = None) -> list[MoveEstimate]:
    """Game-mode values of every legal move, best first.

    Calls :func:`~crowns_solver.cross_kings.solve` with ``mode="game"``,
    ``all_moves=True``: exact values where the solver proves them within the limits,
    otherwise the search player's estimates (iterative deepening with the heuristic at
    the horizon), with proven bounds.  Face-down cards the position happens to know are
    ignored (game mode), so this never uses hidden information.

    Parameters
    ----------
    position : Position
        The position (the mover's point of view).
    time_limit : float, optional
        Seconds for the whole evaluation.
    node_limit : int, optional
        Search nodes for the whole evaluation (reproducible).
    tt_mb : float
        Search memory in MB.
    cancel : threading.Event or None
        Stop the evaluation from another thread: any object with an ``is_set()`` method
        (see `cancel` of :func:`~crowns_solver.cross_kings.solve`, which gets it).  Once
        it is set the search stops within about 50 ms and the moves are returned with
        what was proven and estimated so far, as when a limit stops it: ``exact`` False
        where a value is not proven, ``lower``/``upper`` the proven bounds, ``value`` the
        estimate, or None for a move not estimated yet (all of them when it was set
        before the call: nothing is searched then).  No field says that `cancel`
        stopped it (nor does one say a limit did): the caller that set it knows.

    Returns
    -------
    list of MoveEstimate
        One per legal move, best first (empty when the game is over); moves the search
        could not estimate within the limits (value None) come last.

    Raises
    ------
    PositionError
        If `position` is not a Position.
    SolverOptionError
        If a limit is invalid, or `cancel` is not None and has no ``is_set()`` method.
    """
    from .solver import solve

    _check_cancel(cancel)
    if not isinstance(position, Position):
        raise PositionError(f"evaluate_moves() takes a Position, got {type(position).__name__}")
    if position.is_terminal():
        return []
    sol = solve(position, mode="game", objective="margin", all_moves=True, tt_mb=tt_mb,
                time_limit=time_limit, node_limit=node_limit, cancel=cancel)
    out = [MoveEstimate(cell=m.cell, value=m.value, exact=m.exact, lower=m.lower, upper=m.upper,
                        card_values=m.card_values) for m in sol.moves]
    # an unestimated move's upper bound is no estimate (it can be the largest margin there is)
    return [m for m in out if m.value is not None] + [m for m in out if m.value is None]
