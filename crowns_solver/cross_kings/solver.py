"""Solve Cross Kings positions: exact open and game values, and anytime analysis.

:func:`solve` answers "which card should I take?" for a position or a deal.  Two
questions have two answers (RULES.md, "Hidden cards"):

- ``mode="open"``: the open ("double-dummy") value, all 36 cards known: minimax over the
  deal (negamax alpha-beta with a transposition table, MTD(f), score-bound cut-offs).
- ``mode="game"``: the game value, face-down cards unknown until taken: taking a
  face-down cell is a chance event over the unseen cards (expectiminimax with Ballard's
  Star1/Star2 pruning).  This is the exact value of the game as it is played.

Objectives (RULES.md): ``"margin"``, the final margin score(mover) - score(opponent), and
``"win"``, expected game points (win 1, draw 1/2, loss 0).  Values are from the point of
view of the player to move, and exact values are :class:`fractions.Fraction`.

The search runs in the compiled core (``ext/_ck_search.pyx``) with the GIL released.
Positions too large to solve in the time given are analysed by iterative deepening with a
heuristic at the horizon (the current margin plus the hands' potential); the depth grows
until it reaches the end of the game (open mode: until 12 cards remain beyond the
horizon), and then the search is exact.  ``time_limit``, ``node_limit``, Ctrl-C and
``cancel`` (a ``threading.Event`` another thread sets) stop the search cleanly and
:func:`solve` returns what it has proven so far.
"""

from __future__ import annotations

import numbers
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Literal, TypeAlias, get_args

from .._checks import check_choice, check_flag
from .._native import load
from ..errors import IllegalMoveError, PositionError, SolverOptionError, UnknownCardError
from .cards import DECK, Card, parse_card
from .position import Cell, Deal, Position, _as_coords, cell_coords, cell_text

_core = load("_ck_search")

__all__ = ["solve", "Solution", "MoveValue", "Mode", "Objective", "DEFAULT_TT_MB"]

Mode: TypeAlias = Literal["open", "game"]
Objective: TypeAlias = Literal["margin", "win"]
Evaluation: TypeAlias = Literal["fitted", "potential"]
#: The solver's modes and objectives, for validation and the command line.
MODES: tuple[Mode, ...] = get_args(Mode)
OBJECTIVES: tuple[Objective, ...] = get_args(Objective)
#: Horizon evaluations of the anytime analysis, by name (the names of `Evaluation`): the
#: core's ``heur_kind``.  The command line's choices are its keys.
EVALUATIONS: dict[Evaluation, int] = {"fitted": 2, "potential": 1}
StopReason: TypeAlias = Literal["time", "interrupted", "nodes", "cancelled"]

#: Default size of the transposition table, in MB.
DEFAULT_TT_MB = 64
#: Largest table accepted, in MB.
MAX_TT_MB = 1 << 16
#: Depth that means "to the end of the game" for the compiled search.
_EXACT = 99
_INF = _core.INF_VALUE
#: The engine's ``stop`` codes (``_ck_search``'s StopReason): a time limit, Ctrl-C, a node
#: limit, the `cancel` object of :func:`solve`.  Ctrl-C and `cancel` end the whole solve
#: (a limit's stop may be followed by listing the line).
_TIME, _INTERRUPTED, _NODES, _CANCELLED = 1, 2, 3, _core.STOP_CANCELLED
_STOP_REASONS: dict[int, StopReason] = {_TIME: "time", _INTERRUPTED: "interrupted", _NODES: "nodes",
                                        _CANCELLED: "cancelled"}
#: With a time or node limit, positions with more cards left than this (per mode) get
#: the anytime analysis: iterative deepening with a heuristic at the horizon, which turns
#: into the exact search when the depth reaches the end of the game (or, see
#: ANYTIME_HORIZON_CARDS, earlier).  Smaller positions
#: (and every position when no limit is set) get a shallow heuristic pass for move
#: ordering, then the exact search.
ANYTIME_CARDS = {"open": 26, "game": 19}
#: The anytime analysis stops deepening the heuristic search once its horizon would keep
#: fewer than this many cards on the grid (None: deepen to the last ply), and goes on
#: with the exact search.  The deepest heuristic iterations cost about as much as the
#: exact search itself (open mode, 28 cards: depths 20 to 27 took 90 s, the exact
#: search after them 24 s), so the exact answer comes several times sooner.
ANYTIME_HORIZON_CARDS: dict[str, int | None] = {"open": 12, "game": None}
#: Open mode: prove win/draw/loss before the exact margin (the first probes of MTD(f)).
#: Off since the heuristic iterations before the exact search reach 12 cards before the
#: end (session 20): MTD(f) then starts at a close estimate, and its first probe already
#: settles win/draw/loss whenever the estimate has the right sign; the two extra probes
#: cost up to a third of the nodes (see "Ninth round" in the speed log).
WDL_FIRST = False
#: Game mode: search the root with one wide window instead of null-window bisection.
GAME_WIDE = True
#: Game mode, null-window bisection: the first probe at the guess.
GAME_GUESS_FIRST = True
#: Largest node limit accepted (the engine counts nodes in a signed 64-bit integer).
MAX_NODE_LIMIT = 2**62
#: Depth of the shallow heuristic pass before an exact search in game mode (open mode
#: deepens to ANYTIME_HORIZON_CARDS cards before the end, limit or not: see
#: :func:`_iteration_plan`).
PRE_DEPTH = 2
#: A solve with a time or node limit at or below the anytime cut-over (ANYTIME_CARDS)
#: splits its limit: the exact search first gets this first share (an ample limit solves
#: there, exactly as fast as without a limit); if it does not finish, the heuristic
#: deepening runs until the second share is spent too (its deepest completed iteration
#: gives the estimate and the move a stop reports, instead of the PRE_DEPTH pass's), and
#: the exact search goes on with the rest of the limit.  Shares count from the start of
#: the solve (time) or from node 0.  None: no split (the shallow pass, then the exact
#: search with the whole limit).
#: Off by default (None): measured, the deeper estimates came nearer the exact value only
#: from about 200,000 nodes on and the moves were not better on average, while a solve
#: needing more than about half its limit could lose its exact value (a game-mode
#: position needing 100 k nodes was not exact under a 150 k limit); (0.5, 0.25) turns it on.
SPLIT_SHARES: tuple[float, float] | None = None
#: A limited solve whose value became exact just as the limit stopped it gets this share
#: of its limit more (at least PV_GRACE_MIN_SECONDS / PV_GRACE_MIN_NODES) to list the
#: proven best move and the principal variation (usually a few table look-ups).
PV_GRACE = 0.25
PV_GRACE_MIN_SECONDS = 0.1
PV_GRACE_MIN_NODES = 100_000


@dataclass(frozen=True)
class MoveValue:
    """What is known of one legal move at the root.

    Attributes
    ----------
    cell : (row, col)
        The cell taken (before the start, the start cell chosen); a cell number given
        is kept as ``(row, col)`` (:func:`~crowns_solver.cross_kings.cell_coords`).
    value : Fraction or None
        The move's value for the player to move: exact when `exact`, otherwise the
        anytime estimate (None when the search had no estimate for it).
    exact : bool
        Whether `value` is exact.
    lower, upper : Fraction
        Proven bounds of the move's value.
    card_values : dict or None
        Game mode, face-down cell, ``all_moves=True``: the exact value for each card the
        cell may reveal (each equally likely); their mean is `value`.
    """

    cell: Cell
    value: Fraction | None
    exact: bool
    lower: Fraction
    upper: Fraction
    card_values: dict[Card, Fraction] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "cell", _as_coords(self.cell, "cell"))


@dataclass(frozen=True)
class Solution:
    """The result of :func:`solve`.

    Every cell in it (`best_moves`, `best_move`, `moves`' cells, `pv`, the keys of
    `move_values` and `card_values`) is ``(row, col)``; :meth:`to_dict` writes them as
    ``[row, col]``.  :meth:`move` looks a move up by ``(row, col)`` or cell number.

    Attributes
    ----------
    value : Fraction
        The value of the position for `to_move`: under objective "margin" the final
        margin score(to_move) - score(opponent) in points, under "win" the expected game
        points (1 win, 1/2 draw, 0 loss).  Exact when `exact`; otherwise the anytime
        estimate from the deepest completed iteration, clamped to the proven bounds.
    exact : bool
        Whether `value` is proven exact.
    lower, upper : Fraction
        Proven bounds of the value (equal to `value` when exact).
    best_moves : tuple of (row, col)
        Moves proven to achieve the value: every optimal move with ``all_moves=True``,
        otherwise one (finding all of them costs about as much again).  When not exact,
        the move the analysis prefers.  Empty at a finished game.
    moves : tuple of MoveValue
        Every legal move, best first: exact values with ``all_moves=True``; otherwise the
        best move's exact value and, for the others, the proven bound "at most the
        position's value".
    pv : tuple of (row, col)
        Principal variation: optimal play from here to the end (open mode, exact), up to
        and including the first face-down card taken (game mode), or the line the
        heuristic search prefers (not exact).
    to_move : {"first", "second"}
        Whose point of view the values take.
    mode, objective, reach : str
        The question answered and the rules option ``reach``.
    tt_mb, time_limit, node_limit
        The limits used.
    nodes : int
        Search nodes visited (positions at which a player is to move).
    seconds : float
        Wall-clock time of the solve.
    depth : int or None
        Deepest completed heuristic iteration (plies), None when the exact search ran
        directly.
    stopped : {"time", "interrupted", "nodes", "cancelled"} or None
        Why the search stopped early, if it did: a time or node limit, Ctrl-C, or the
        `cancel` object of :func:`solve` (set by another thread).
    table_bytes, table_entries, table_used : int
        Transposition table size in bytes and entries, and entries in use at the end.
    stats : dict
        Search counters (table probes and hits, cut-offs by score bounds and at chance
        nodes, leaf-score cache use).
    pv_complete : bool
        False only when the value is exact but even the extra budget for listing the
        principal variation (:data:`PV_GRACE`) ran out, or Ctrl-C or `cancel` stopped the search:
        `pv` then holds the moves listed before that (possibly none).
    evaluation : {"fitted", "potential"}
        The horizon evaluation used (it matters only where `depth` is not None, or for
        the 2-ply pass of a stopped solve).
    """

    value: Fraction
    exact: bool
    lower: Fraction
    upper: Fraction
    best_moves: tuple[Cell, ...]
    moves: tuple[MoveValue, ...]
    pv: tuple[Cell, ...]
    to_move: str
    mode: Mode
    objective: Objective
    reach: str
    tt_mb: float
    time_limit: float | None
    node_limit: int | None
    nodes: int
    seconds: float
    depth: int | None
    stopped: StopReason | None
    table_bytes: int
    table_entries: int
    table_used: int
    stats: dict[str, int] = field(default_factory=dict, repr=False)
    pv_complete: bool = True
    evaluation: Evaluation = "fitted"

    @property
    def best_move(self) -> Cell | None:
        """The first of `best_moves` (None at a finished game)."""
        return self.best_moves[0] if self.best_moves else None

    def move(self, cell: Cell | int) -> MoveValue:
        """What is known of one root move, the cell given in either form.

        `moves`, `best_moves`, `pv` and the keys of `move_values` and `card_values` are
        ``(row, col)``; this looks a move up by ``(row, col)`` or by cell number 0..35.

        Parameters
        ----------
        cell : (int, int) or int
            A legal move of the position solved (before the start: a central cell).

        Returns
        -------
        MoveValue
            The entry of `moves` for that cell.

        Raises
        ------
        PositionError
            If `cell` is not a cell (:func:`~crowns_solver.cross_kings.cell_index`).
        IllegalMoveError
            If `cell` is not one of the moves (not legal there, or the game is over).
        """
        want = _as_coords(cell, "cell")
        for m in self.moves:
            if m.cell == want:
                return m
        legal = " ".join(cell_text(m.cell) for m in self.moves) or "none listed"
        raise IllegalMoveError(f"cell {cell_text(want)} is not a move of the position solved (moves: {legal})")

    @property
    def move_values(self) -> dict[Cell, Fraction]:
        """Exact value of each root move whose value is known exactly (all of them after
        ``all_moves=True`` when the solve finished)."""
        return {m.cell: m.value for m in self.moves if m.exact and m.value is not None}

    @property
    def card_values(self) -> dict[Cell, dict[Card, Fraction]]:
        """Game mode with ``all_moves=True``: per face-down root move, the exact value
        for each card it may reveal."""
        return {m.cell: m.card_values for m in self.moves if m.card_values is not None}

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form (fractions as strings such as ``"7/3"``).

        Returns
        -------
        dict
            Every field of the solution under its own name (cells as ``[row, col]``
            lists, each move as a dict with ``cell``, ``value``, ``exact``, ``lower``,
            ``upper`` and, in game mode, ``card_values``), plus ``value_float``, the
            value as a float; ``seconds`` is rounded to microseconds.
        """

        def frac(x: Fraction | None) -> str | None:
            return None if x is None else str(x)

        return {
            "value": frac(self.value),
            "value_float": float(self.value),
            "exact": self.exact,
            "lower": frac(self.lower),
            "upper": frac(self.upper),
            "to_move": self.to_move,
            "best_moves": [list(m) for m in self.best_moves],
            "moves": [
                {
                    "cell": list(m.cell),
                    "value": frac(m.value),
                    "exact": m.exact,
                    "lower": frac(m.lower),
                    "upper": frac(m.upper),
                    **(
                        {"card_values": {c: frac(v) for c, v in m.card_values.items()}}
                        if m.card_values is not None
                        else {}
                    ),
                }
                for m in self.moves
            ],
            "pv": [list(m) for m in self.pv],
            "pv_complete": self.pv_complete,
            "mode": self.mode,
            "objective": self.objective,
            "reach": self.reach,
            "tt_mb": self.tt_mb,
            "time_limit": self.time_limit,
            "node_limit": self.node_limit,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "depth": self.depth,
            "stopped": self.stopped,
            "table_bytes": self.table_bytes,
            "table_entries": self.table_entries,
            "table_used": self.table_used,
            "stats": dict(self.stats),
            "evaluation": self.evaluation,
        }


# ----------------------------------------------------------------------------- input


def _coerce_position(position: Position | Deal | str) -> Position:
    if isinstance(position, Position):
        return position
    if isinstance(position, Deal):
        return position.position()
    if isinstance(position, str):
        return Position.from_text(position)
    raise PositionError(
        f"solve() takes a Position, a Deal or a position's text, got {type(position).__name__}"
    )


def memory_mb() -> float | None:
    """This machine's physical memory in MB, or None where the platform does not tell."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20
    except (AttributeError, ValueError, OSError):
        return None


def check_memory_fits(tt_mb: float) -> None:
    """Refuse a `tt_mb` larger than the machine's physical memory.

    A table that large cannot be held: one process fails to allocate it, but several
    workers' shares are each allocated lazily and only fail (or swap the machine to a
    halt) once the search fills them.

    Raises
    ------
    SolverOptionError
        If `tt_mb` MB is more than :func:`memory_mb`; the message names ``tt_mb=`` (its
        ``arguments``: the ``crowns`` command says ``--tt-mb``).
    """
    total = memory_mb()
    if total is not None and tt_mb > total:
        raise SolverOptionError(f"tt_mb={tt_mb:g} MB is more than this machine's memory ({total:,.0f} MB):"
                                " ask for less", argument="tt_mb")


def _plain_number(x: Any) -> int | float:
    """`x` (a checked int, float or NumPy number) as a Python int or float."""
    return int(x) if isinstance(x, numbers.Integral) else float(x)


def _check_cancel(cancel: Any) -> None:
    """Refuse a `cancel` argument of :func:`solve` that is not None nor has an ``is_set()``.

    Parameters
    ----------
    cancel : object
        What was given: None, or an object whose ``is_set()`` says whether to stop (a
        :class:`threading.Event`).

    Raises
    ------
    SolverOptionError
        If `cancel` is not None and has no callable ``is_set`` (a bool or a function
        would otherwise be found out only once the search polls it), or is a class
        (``threading.Event`` without the brackets: its ``is_set`` raised a TypeError
        from inside the search).
    """
    if isinstance(cancel, type):   # threading.Event without the brackets: is_set needs an instance
        raise SolverOptionError(f"cancel must be an object with an is_set() method, got the class"
                                f" {cancel.__name__} itself: give an instance, {cancel.__name__}()",
                                argument="cancel")
    if cancel is not None and not callable(getattr(cancel, "is_set", None)):
        raise SolverOptionError("cancel must be None or an object with an is_set() method, such as a"
                                f" threading.Event, got {type(cancel).__name__}", argument="cancel")


def _check_options(mode: Any, objective: Any, tt_mb: Any, time_limit: Any, node_limit: Any) -> tuple[str, str]:
    """SolverOptionError for a bad option of :func:`solve`, naming the argument at fault
    (its ``arguments`` too, so that the ``crowns`` command names the option as typed);
    the mode and objective as plain str (a NumPy array was taken for a word until
    session 24: :func:`crowns_solver._checks.is_choice`)."""
    mode = check_choice("mode", mode, MODES, SolverOptionError)
    objective = check_choice("objective", objective, OBJECTIVES, SolverOptionError)
    if (isinstance(tt_mb, bool) or not isinstance(tt_mb, numbers.Real) or not math.isfinite(tt_mb)
            or not 1 <= tt_mb <= MAX_TT_MB):
        raise SolverOptionError(f"tt_mb must be a number of MB from 1 to {MAX_TT_MB}, got {tt_mb!r}",
                                argument="tt_mb")
    if time_limit is not None:
        if isinstance(time_limit, bool) or not isinstance(time_limit, numbers.Real):
            raise SolverOptionError(
                f"time_limit must be a number of seconds, or None or inf for no limit, got {time_limit!r}",
                argument="time_limit")
        if not time_limit > 0:   # (NaN too)
            raise SolverOptionError(
                f"time_limit must be a positive number of seconds, or None or inf for no limit, got {time_limit!r}",
                argument="time_limit")
    if node_limit is not None:
        # NumPy integers too (np.int64(5000) was "not a positive integer": session-18 probe)
        if isinstance(node_limit, bool) or not isinstance(node_limit, numbers.Integral) or node_limit <= 0:
            raise SolverOptionError(f"node_limit must be a positive integer or None, got {node_limit!r}",
                                    argument="node_limit")
        if node_limit > MAX_NODE_LIMIT:
            raise SolverOptionError(f"node_limit must be at most {MAX_NODE_LIMIT} nodes, got {node_limit}",
                                    argument="node_limit")
    return mode, objective


def _engine_input(pos: Position, mode: Mode) -> tuple[bytes, tuple[int, ...]]:
    """The compiled engine's view: card of each cell (255 unknown) and the state tuple."""
    game = mode == "game"
    cells = bytearray(36)
    for i, idx in enumerate(pos.cells):
        hidden = i in pos.face_down and (game or idx < 0)
        cells[i] = 255 if hidden or idx < 0 else idx
    occ = sum(1 << i for i in range(36) if i not in pos.taken)
    fd = sum(1 << i for i in pos.face_down) if game else 0
    pool = sum(1 << parse_card(c) for c in pos.unseen) if game else 0
    nat = [0, 0]
    kings = [0, 0]
    for p, hand in enumerate((pos.first_hand, pos.second_hand)):
        for idx in hand:
            if idx >= 32:
                kings[p] += 1
            else:
                nat[p] |= 1 << idx
    marker = -1 if pos.marker is None else pos.marker
    side = 0 if pos.to_move == "first" else 1
    return bytes(cells), (occ, fd, pool, nat[0], nat[1], kings[0], kings[1], marker, side)


# ----------------------------------------------------------------------------- search driver


def _deepens_first(mode: str) -> bool:
    """Whether every exact search of `mode` follows the heuristic iterations to
    :data:`ANYTIME_HORIZON_CARDS` cards before the end, limit or not (open mode since
    session 20; game mode makes a :data:`PRE_DEPTH`-ply pass below its cut-over)."""
    return ANYTIME_HORIZON_CARDS[mode] is not None


def _iterates_first(pos: Position, mode: str, limited: bool) -> bool:
    """Whether a solve of `pos` runs the heuristic iterations to their horizon
    (:data:`ANYTIME_HORIZON_CARDS`) before its exact search, rather than the
    :data:`PRE_DEPTH`-ply pass: every solve in open mode (:func:`_deepens_first`), an
    anytime one (:func:`_anytime`) in game mode.  Asked by :func:`_iteration_plan` and
    the parallel solve's route (``parallel._route``)."""
    return _deepens_first(mode) or _anytime(pos, mode, limited)


def _anytime(pos: Position, mode: str, limited: bool) -> bool:
    """Whether a solve of `pos` gets the anytime analysis: more cards left than the
    cut-over :data:`ANYTIME_CARDS` of `mode`, and a time or node limit (`limited`) in
    game mode; in open mode with or without one, since its iterations stop 12 cards
    before the end (:data:`ANYTIME_HORIZON_CARDS`) and make the exact search after them
    faster (session 20).  The one place this is decided: :func:`_iteration_plan`,
    ``_Run.go`` and the parallel solve's route (``parallel._route``) ask here."""
    return (limited or _deepens_first(mode)) and pos.cards_left > ANYTIME_CARDS[mode]


def _iteration_plan(pos: Position, mode: Mode, limited: bool) -> tuple[int, int, int]:
    """The heuristic iterations before the exact search: ``(first, last, deepest)`` in
    plies.  `first` is 1 or 2 (so that the iterations end on the parity of the last
    ply); `last` is the last iteration run before the exact search; `deepest` is where
    the anytime sequence would stop (:data:`ANYTIME_HORIZON_CARDS`), also used below
    the cut-over by a split limit.

    Open mode: `last` is `deepest` (12 cards before the end, at least
    :data:`PRE_DEPTH`) whether or not a limit is set: the iterations' estimate starts
    MTD(f) near the value and their table moves order the exact search, which made
    exact solves of 22-26 cards 1.2-1.7x faster than a 2-ply pass (speed log, "Ninth
    round").  Game mode: the anytime sequence above the cut-over
    (:data:`ANYTIME_CARDS`) with a limit, else the shallow pass (:data:`PRE_DEPTH`)."""
    cards_left = pos.cards_left
    plies = cards_left + (1 if pos.marker is None else 0)
    deepest = plies - 1
    keep = ANYTIME_HORIZON_CARDS[mode]
    if keep is not None:
        deepest = max(min(deepest, cards_left - keep), min(PRE_DEPTH, plies - 1))
    last = deepest if _iterates_first(pos, mode, limited) else min(PRE_DEPTH, plies - 1)
    return (2 if plies % 2 == 0 else 1), last, deepest


def _depths_between(depth: int, last: int) -> list[int]:
    """`depth`, `depth` + 2, ... and then `last` (the deepening's iterations)."""
    out = []
    while depth <= last:
        out.append(depth)
        depth += 2 if depth + 2 <= last else 1
        if depth == last + 1:
            break
    return out


class _Stopped(Exception):
    """Raised inside the driver when the engine stopped (time, nodes, Ctrl-C)."""


class _Driver:
    def __init__(self, eng: Any, objective: Objective) -> None:
        self.eng = eng
        self.objective = objective

    def check(self) -> None:
        if self.eng.stop:
            raise _Stopped

    # values ---------------------------------------------------------------------

    def to_value(self, v: int, scale: int) -> Fraction:
        """Scaled engine value -> margin points or expected game points."""
        x = Fraction(v, scale)
        if self.objective == "win":
            return (1 + x) / 2
        return x

    # probes ---------------------------------------------------------------------

    def mtd(
        self,
        probe: Callable[[int, int], tuple[int, bool, int]],
        lower: int,
        upper: int,
        guess: int,
        unit: int,
        *,
        bisect: bool,
        wide: bool = False,
        first: tuple[int, ...] = (),
        on_proven: Callable[[int, int, int], None] | None = None,
    ) -> tuple[int, int, int]:
        """MTD(f): null-window probes until the value is pinned (returns lower, upper, move).

        `lower`/`upper` are known bounds (inclusive); `first` are probe thresholds tried
        before the others (e.g. 1 and 0 for win/draw/loss first).  Each probe's
        result narrows the interval; `on_proven(lo, hi, move)` is told of proven ones.
        With `bisect` (game mode, values in large units), thresholds halve the interval;
        with `wide`, one search with the whole window follows the `first` probes.
        """
        best = -1
        g = min(max(guess, lower), upper)
        queue = [t for t in first]
        probes = 0

        def null_window(beta: int) -> int:
            """One probe "is the value >= beta?": narrows lower/upper, returns its value."""
            nonlocal lower, upper, best
            v, proven, move = probe(beta - 1, beta)
            self.check()
            if v >= beta:
                lower = max(lower, v)
                if move >= 0:
                    best = move
                if proven and on_proven:
                    on_proven(v, _INF, move)
            else:
                upper = min(upper, v)
                if proven and on_proven:
                    on_proven(-_INF, v, -1)
            return v

        if wide and -_INF < lower and upper < _INF:
            # one search with the whole window: in game mode the values come in small
            # units (1/f!), where null-window steps would take many probes
            for t in queue:   # the first thresholds still go first
                if lower < t <= upper:
                    null_window(t)
            if lower < upper:
                v, proven, move = probe(lower - 1, upper + 1)
                self.check()
                if lower <= v <= upper:
                    if proven and on_proven:
                        on_proven(v, v, move)
                    return v, v, move
            queue = []
        while lower < upper:
            probes += 1
            while queue and not (lower < queue[0] <= upper):
                queue.pop(0)
            if queue:
                beta = queue.pop(0)
            elif bisect and probes == 1 and lower < g <= upper and GAME_GUESS_FIRST:
                beta = g   # the first probe at the guess (the value is usually near it)
            elif (bisect and -_INF < lower and upper < _INF) or probes > 24:
                beta = lower + (upper - lower + 1) // 2
                if unit > 1 and upper - lower > 2 * unit:   # whole points while the interval is wide
                    beta = lower + max(unit, ((beta - lower) // unit) * unit)
                beta = min(max(beta, lower + 1), upper)
            else:
                beta = g if g > lower else lower + 1
                beta = min(beta, upper)
            g = null_window(beta)
        return lower, upper, best


def solve(
    position: Position | Deal | str,
    *,
    mode: Mode = "open",
    objective: Objective = "margin",
    all_moves: bool = False,
    tt_mb: float = DEFAULT_TT_MB,
    time_limit: float | None = None,
    node_limit: int | None = None,
    workers: int | None = 1,
    evaluation: Evaluation = "fitted",
    cancel: Any = None,
) -> Solution:
    """Solve a Cross Kings position: its value, the best move(s) and, on request, every move's value.

    Parameters
    ----------
    position : Position, Deal or str
        The position (a :class:`Deal` is its fresh position, where the second player
        chooses the start cell: that choice is then the root decision), or text that
        :meth:`Position.from_text` reads (save string, JSON, six-line deal).
    mode : {"open", "game"}
        ``"open"``: the open value (RULES.md "Open value": every card known, minimax).
        Needs every face-down card known.  ``"game"``: the game value (RULES.md "Game
        value": face-down cards unknown, taking one is a chance event over the unseen
        cards, each equally likely; expectiminimax).  Cards known in face-down cells are
        ignored in game mode.
    objective : {"margin", "win"}
        ``"margin"``: final margin in points (expected margin in game mode).
        ``"win"``: game points, 1 for a win, 1/2 for a draw, 0 for a loss (expected in
        game mode).  Both from the point of view of the player to move.
    all_moves : bool
        Also find the exact value of every legal move (and, in game mode, of each card a
        face-down move may reveal).  Costs roughly one solve per move.
    tt_mb : float
        Memory for the search in MB (a number from 1 to 65536), allocated once: the transposition
        table (the largest power of two of 64-byte buckets that fits) and a leaf-score
        cache (at most 8 MB) in what is left.  Nothing else grows during the search.
    time_limit : float, optional
        Seconds after which the search stops and returns what it has proven (bounds,
        best move found, ``exact=False``).  None or ``math.inf``: search until solved
        (the Solution records None).  Unlike the ``crowns`` command (10 s by default),
        the default is no limit: a position above :data:`ANYTIME_CARDS` cards left (a
        full deal) can then take hours; give a limit for an anytime answer.  Limited solves of positions at or below the anytime
        cut-over can split the limit (:data:`SPLIT_SHARES`, off by default).
    node_limit : int, optional
        Stop after this many search nodes (deterministic, unlike `time_limit`).  Split
        like `time_limit` when :data:`SPLIT_SHARES` is set.  When the value is proven just as either limit runs out, up to
        :data:`PV_GRACE` of it more is spent listing the best move and the principal
        variation (so `nodes` may exceed `node_limit` by that much).  With several
        workers: nodes in all, the worker processes drawing theirs from what the parent's
        first pass left (equal shares in the exact search; from one shared pool in the
        anytime analysis), so the total never exceeds the limit (plus 1,024 nodes per
        process); which moves a limited parallel solve gets to then depends on timing,
        so it is not reproducible node for node as a one-process solve is.
    workers : int or None
        Worker processes for the search (default 1: this process only; None: one per
        core).  With ``workers > 1`` the root's moves are split over processes (see
        :mod:`crowns_solver.cross_kings.parallel`); the values, best moves and move
        values are the same as with one worker (with ``all_moves=False`` and several
        optimal moves, the one named may differ).  With a time or node limit above the
        anytime cut-over (:data:`ANYTIME_CARDS`) the heuristic iterations are split too,
        so the analysis gets deeper in the same time; a stopped solve reports, as with
        one process, the deepest completed iteration's estimate and move.  Memory: each
        worker's engine gets ``tt_mb / n`` MB; with ``parallel.SHARED_TABLE = True`` (off
        by default; the ``fork`` start method) the workers share one table instead, each
        keeping the small table and leaf-score cache an engine of ``tt_mb / n`` MB would
        have, and the shared table takes what they leave.  n is the number of worker
        processes that really start (at most one per root move, e.g. four at a fresh
        deal), so `tt_mb` still bounds the whole solve.  Positions
        with fewer than 16 cards left, or a single legal move, are solved in this
        process.
    evaluation : {"fitted", "potential"}
        The heuristic evaluation at the horizon of the anytime analysis (used only when
        a limit stops a position too large to solve exactly; exact values never depend
        on it).  ``"fitted"`` (default): the current margin and the hands' features
        (one-card gains, Kings, pairs, suit neighbours, the mover's tempo) weighted by a
        least-squares fit to the final margins of self-play games, each weight
        depending on the cards left (``analysis/cross_kings_evaluation.py``;
        docs/cross_kings_solver.md "Sixth round").  ``"potential"``: the earlier
        evaluation, the current margin plus one point per unit of potential (same-rank
        pairs, suit neighbours, two per King).
    cancel : threading.Event or None
        Stop the solve from another thread: any object with an ``is_set()`` method,
        typically a :class:`threading.Event` that a GUI or server thread sets.  Once it is
        set the solve stops within about 50 ms of searching (the engine polls it where
        it checks for Ctrl-C; with ``workers > 1`` the calling process polls it every
        0.1 s and stops the workers as Ctrl-C does) and returns what is proven so far,
        as a time limit does: ``exact=False`` unless the value was already proven,
        proven `lower`/`upper` bounds, the best move found, and ``stopped="cancelled"``.
        Set before the call, the solve returns at once with the bounds the score bounds
        give.  Covers every path of the solve: the anytime analysis, ``all_moves``, the
        exact search and the listing of the principal variation.  An exception raised by
        its ``is_set()`` propagates from ``solve``.  Default None: no such object.

    Returns
    -------
    Solution
        Value (exact Fraction when ``exact``), proven bounds, best moves, per-move values,
        principal variation, nodes, seconds, table use and the parameters used.

    Raises
    ------
    SolverOptionError
        If `mode`, `objective`, `tt_mb`, `time_limit`, `node_limit`, `workers` or
        `evaluation` is invalid (e.g. `tt_mb` not a number from 1 to 65536, `time_limit` NaN, zero or
        negative), if `tt_mb` is more than the machine's physical memory
        (:func:`memory_mb`), if `tt_mb` shared over the worker processes that will
        really start (:func:`crowns_solver.cross_kings.parallel.worker_processes`: no
        more than the root has jobs for) leaves less than 1 MB each, or the table cannot
        be allocated, or if `cancel` is not None and has no ``is_set()`` method.
    UnknownCardError
        If ``mode="open"`` and some face-down card is unknown (a crosskings.net save
        string hides them): the open value needs every card; use ``mode="game"``.  A
        finished game is answered whatever its face-down cells hold: its value is the
        final margin (or its game points).
    PositionError
        If `position` is not a position.

    Notes
    -----
    Open mode: negamax alpha-beta on the final margin (or its sign) with a fixed-size
    transposition table, move ordering (table move, then the card's worth to the mover
    and to the opponent, then a history heuristic), MTD(f) (Plaat et al., 1996) with the
    win/draw/loss probes first, and cut-offs from score bounds (a hand's score never
    falls when cards are added; only cards in the marker's row/column-connected part of
    the grid can still be taken).  Game mode: expectiminimax with Star1 and Star2
    (Ballard, 1983) at chance nodes; values are kept exact as integers in units of 1/f!
    (f face-down cells left).  Ctrl-C during a solve returns the partial result with
    ``stopped="interrupted"`` instead of raising KeyboardInterrupt.

    Threads: each call builds its own engine (and table of `tt_mb`), so calls from
    several threads at once are safe, run side by side (the search releases the GIL)
    and give the single-threaded results.  An engine serves one thread at a time
    (:class:`~crowns_solver.errors.EngineBusyError`); a search player shares nothing
    between moves either.  Ctrl-C reaches only a solve in the main thread; a solve in
    another thread is stopped by `cancel` (or `time_limit`).
    """
    _check_options(mode, objective, tt_mb, time_limit, node_limit)
    # a NumPy str_ as a plain str (the check took a str only)
    mode, objective = str.__str__(mode), str.__str__(objective)  # type: ignore[assignment]
    # plain Python numbers from here on (the checks take NumPy numbers too)
    tt_mb = _plain_number(tt_mb)
    time_limit = None if time_limit is None else _plain_number(time_limit)
    node_limit = None if node_limit is None else int(node_limit)
    check_memory_fits(tt_mb)
    if time_limit is not None and math.isinf(time_limit):
        time_limit = None   # no limit
    all_moves = check_flag("all_moves", all_moves, SolverOptionError)   # a NumPy bool too (session 22)
    _check_cancel(cancel)
    evaluation = check_choice("evaluation", evaluation, EVALUATIONS, SolverOptionError)  # type: ignore[assignment]
    if type(workers) is not int or workers != 1:
        from .parallel import check_workers

        workers = check_workers(workers)
    pos = _coerce_position(position)
    if mode == "open" and not pos.is_known() and pos.is_terminal():
        # a finished game's value is its final margin, whatever its face-down cells hold:
        # the engine is given the unseen cards there in any order
        unknown = sorted(i for i in pos.face_down if pos.cells[i] < 0)
        cells = list(pos.cells)
        for i, card in zip(unknown, sorted(pos.unknown_pool())):
            cells[i] = card
        pos = replace(pos, cells=tuple(cells))
    if mode == "open" and not pos.is_known():
        hidden = [cell_coords(i) for i in sorted(pos.face_down) if pos.cells[i] < 0]
        raise UnknownCardError(
            f"the open value needs every card known, but {len(hidden)} face-down"
            f" {'card is' if len(hidden) == 1 else 'cards are'}"
            f" unknown (cells {', '.join(f'({r},{c})' for r, c in hidden)}); use mode='game'"
            " for the value of the game as played with those cards unseen",
            argument="mode",   # the command says --mode game (crowns_solver.cli.name_options)
        )
    if workers != 1:
        from .parallel import check_memory, solve_parallel, worker_processes

        limited = time_limit is not None or node_limit is not None
        check_memory(tt_mb, worker_processes(pos, mode=mode, all_moves=all_moves, limited=limited,
                                             workers=workers), workers=workers)
        return solve_parallel(pos, mode=mode, objective=objective, all_moves=all_moves, tt_mb=tt_mb,
                              time_limit=time_limit, node_limit=node_limit, workers=workers,
                              evaluation=evaluation, cancel=cancel)
    t0 = time.perf_counter()
    cards, root = _engine_input(pos, mode)
    try:
        eng = _core.Engine(
            cards,
            0 if mode == "open" else 1,
            0 if objective == "margin" else 1,
            0 if pos.reach == "any" else 1,
            int(tt_mb * (1 << 20)),
        )
    except MemoryError:
        raise SolverOptionError(f"cannot allocate a transposition table of {tt_mb:g} MB; ask for less") from None
    eng.heur_kind = EVALUATIONS[evaluation]
    eng.set_cancel(cancel)   # polled by the engine with Ctrl-C, and by each set_limits
    run = _Run(eng, root, pos, mode, objective, all_moves)
    deadline = run.started + time_limit if time_limit is not None else 0.0
    eng.set_limits(deadline, node_limit or 0)
    try:
        run.go(time_limit is not None or node_limit is not None, deadline, node_limit or 0)
    except _Stopped:
        pass
    except KeyboardInterrupt:
        eng.stop = _INTERRUPTED
    stopped = eng.stop
    if stopped in (_TIME, _NODES):
        # stopped by a limit just as (or after) the value became exact: list the proven
        # best move and the principal variation with a little more (PV_GRACE)
        extra_time = max(PV_GRACE * time_limit, PV_GRACE_MIN_SECONDS) if time_limit is not None else 0.0
        extra_nodes = max(int(PV_GRACE * node_limit), PV_GRACE_MIN_NODES) if node_limit is not None else 0
        try:
            run.finish_listing(_core.monotonic() + extra_time if extra_time else 0.0,
                               eng.nodes + extra_nodes if extra_nodes else 0)
        except KeyboardInterrupt:
            pass
        eng.stop = stopped   # the reason the search itself stopped
    seconds = time.perf_counter() - t0
    return run.solution(
        seconds=seconds, tt_mb=tt_mb, time_limit=time_limit, node_limit=node_limit
    )


@dataclass
class _MoveInfo:
    cell: int
    lower: int           # proven bounds, scaled like the root
    upper: int
    estimate: int | None = None
    card_values: dict[int, int] | None = None   # card -> value scaled like the root

    @property
    def listed(self) -> int | None:
        """The value a Solution lists for this move: exact where its bounds meet, else its
        estimate within its bounds, else None."""
        if self.lower == self.upper:
            return self.lower
        if self.estimate is None:
            return None
        return min(max(self.estimate, self.lower), self.upper)


class _Run:
    """State of one solve: proven bounds, estimates and per-move facts, kept up to date
    so that a stop at any point still yields a correct partial Solution."""

    def __init__(self, eng: Any, root: tuple, pos: Position, mode: Mode, objective: Objective,
                 all_moves: bool) -> None:
        self.eng = eng
        self.started = _core.monotonic()
        self.root = root
        self.pos = pos
        self.mode = mode
        self.objective = objective
        self.all_moves = all_moves
        self.drv = _Driver(eng, objective)
        self.scale = eng.scale(root)
        self.unit = self.scale // (_core.WIN if objective == "win" else 1)  # one point (or one win unit)
        term = eng.terminal_value(root)
        self.terminal = term is not None
        lo, hi = eng.bounds(root)
        self.lower, self.upper = lo, hi         # proven bounds of the root value
        self.estimate: int | None = term if term is not None else None
        self.best: int = -1          # the move the search prefers (may be heuristic)
        self.pbest: int = -1         # a move proven to reach pbest_lb
        self.pbest_lb: int = -_INF
        self.depth: int | None = None
        self.exact_pv: list[int] | None = None
        self.pv_partial: list[int] = []
        self.heur_pv: list[int] = []
        self.moves: dict[int, _MoveInfo] = {}
        #: each completed heuristic iteration: depth, wall seconds, nodes and CPU seconds
        #: when it completed ("path_": the longest chain over processes; one process: all)
        self.log: list[dict[str, float]] = []
        self.cpu0 = time.process_time()
        if not self.terminal:
            for cell in eng.moves(root):
                mlo, mhi = self._move_bounds(cell)
                self.moves[cell] = _MoveInfo(cell, mlo, mhi)

    # -- helpers -----------------------------------------------------------------

    def _move_bounds(self, cell: int) -> tuple[int, int]:
        """Proven bounds of one root move's value, from score bounds."""
        eng, root = self.eng, self.root
        if eng.is_chance(root, cell):
            total_lo = total_hi = 0
            for card in eng.pool_cards(root):
                clo, chi = eng.bounds(eng.child(root, cell, card))
                total_lo -= chi
                total_hi -= clo
            return total_lo, total_hi
        clo, chi = eng.bounds(eng.child(root, cell))
        return -chi, -clo

    def _prove_root(self, lo: int, hi: int, move: int) -> None:
        info = self.moves.get(move)
        if info is not None and lo > info.lower:
            # that move reaches lo: kept for the listing even after a later probe proves
            # more through another move (before, only the latest such move kept its bound)
            info.lower = lo
        if lo > self.lower:
            self.lower = lo
            if move >= 0:   # a move proven to reach this lower bound
                self.best = self.pbest = move
                self.pbest_lb = lo
        if hi < self.upper:
            self.upper = hi

    def _bounds_from_moves(self) -> None:
        """The position is worth its best move's value: at least the largest proven lower
        bound of a move, at most the largest upper bound.  (A search stopped within the
        moves of an all_moves iteration has proven more of them than the root knows.)"""
        if self.moves and not self.terminal:
            self.lower = max(self.lower, max(m.lower for m in self.moves.values()))
            self.upper = min(self.upper, max(m.upper for m in self.moves.values()))

    @property
    def exact(self) -> bool:
        return self.lower == self.upper

    def finish_listing(self, deadline: float, node_limit: int) -> None:
        """The value is exact but a limit stopped the search before the proven best move
        and the principal variation were listed: list them within an extra budget
        (`deadline`, `node_limit`: absolute, 0 none), keeping what is listed if that runs
        out too."""
        if self.terminal or self.exact_pv is not None:
            return
        self._bounds_from_moves()
        if not self.exact:
            return
        self.eng.set_limits(deadline, node_limit)
        try:
            self._finish_exact()
        except _Stopped:
            pass

    # -- the search ---------------------------------------------------------------

    def go(self, limited: bool, deadline: float = 0.0, node_limit: int = 0) -> None:
        """Search until the value is exact or a limit stops it (:class:`_Stopped`).

        `deadline` (monotonic seconds, 0: none) and `node_limit` (0: none) are the limits
        already set on the engine; below the anytime cut-over they are split (see
        :data:`SPLIT_SHARES`).
        """
        if self.terminal:
            return
        anytime = _anytime(self.pos, self.mode, limited)
        first, last, deepest = _iteration_plan(self.pos, self.mode, limited)
        if self._deepen(first, last) or anytime or not limited or SPLIT_SHARES is None:
            self._iteration(_EXACT)
            return
        # below the cut-over with a limit: the exact search first, with a share of the
        # limit (an ample limit solves here, as fast as without the split); if it does not
        # finish, the heuristic deepening gets the next share (so a stop reports the deeper
        # estimate and move, not the shallow pass's), and the exact search the rest
        exact_share, deep_share = SPLIT_SHARES
        if self._within(exact_share, deadline, node_limit, lambda: self._iteration(_EXACT)):
            return
        if not self.exact:   # (exact but stopped while listing the best move: finish that)
            share = exact_share + deep_share
            self._within(share, deadline, node_limit,
                         lambda: self._deepen(first, deepest, budget=self._budget(share, deadline, node_limit)))
        self.eng.set_limits(deadline, node_limit)
        self._iteration(_EXACT)

    def _deepen(self, depth: int, last: int, budget: Callable[[], tuple[float, int]] | None = None) -> bool:
        """Heuristic iterations at `depth`, `depth` + 2, ... and `last` plies (skipping
        depths already done); True if they made the root exact.

        With `budget` (returning the seconds and nodes left, inf when unlimited), no
        iteration is started that the growth of the previous ones says cannot finish in
        it: a stopped iteration is thrown away, and the time is the exact search's."""
        costs: list[tuple[float, int]] = []
        for d in _depths_between(depth, last):
            if self.depth is not None and d <= self.depth:
                continue
            if budget is not None and len(costs) >= 1:
                (t1, n1), (_, n0) = costs[-1], costs[-2] if len(costs) >= 2 else (0.0, 0)
                grow = max(2.0, n1 / n0 if n0 > 0 else 4.0)
                seconds, nodes = budget()
                if n1 * grow > nodes or t1 * grow > seconds:
                    return False
            n_start, t_start = self.eng.nodes, _core.monotonic()
            self._iteration(d)
            costs.append((_core.monotonic() - t_start, self.eng.nodes - n_start))
            if self.exact and (not self.all_moves or all(
                    m.lower == m.upper for m in self.moves.values())):
                return True
        return False

    def _budget(self, share: float, deadline: float, node_limit: int) -> Callable[[], tuple[float, int]]:
        """What is left of `share` of the limits: () -> (seconds, nodes), inf when unlimited."""
        end_t = self.started + share * (deadline - self.started) if deadline > 0 else math.inf
        end_n = int(share * node_limit) if node_limit > 0 else math.inf
        return lambda: (end_t - _core.monotonic(), end_n - self.eng.nodes)

    def _within(self, share: float, deadline: float, node_limit: int, work: Callable[[], object]) -> bool:
        """Run `work` with `share` of the solve's limits (counted from the solve's start);
        True if it finished, False if that share ran out.  Ctrl-C and the solve's own
        limits still raise :class:`_Stopped`."""
        eng = self.eng
        sub_deadline = self.started + share * (deadline - self.started) if deadline > 0 else 0.0
        sub_nodes = max(1, int(share * node_limit)) if node_limit > 0 else 0
        eng.set_limits(sub_deadline, sub_nodes)
        try:
            work()
            return True
        except _Stopped:
            if eng.stop in (_INTERRUPTED, _CANCELLED):   # Ctrl-C, cancel: the whole solve stops
                raise
            return False
        finally:
            if eng.stop not in (_INTERRUPTED, _CANCELLED):
                eng.set_limits(deadline, node_limit)

    def _iteration(self, depth: int) -> None:
        eng, root = self.eng, self.root
        eng.new_generation()
        exact = depth >= _EXACT
        # every root move gets its own search when asked, and in the heuristic iterations
        # at a fresh deal (four start cells: the user wants them compared)
        per_move = self.all_moves or (self.pos.marker is None and not exact)
        if per_move:
            order = sorted(self.moves.values(), key=lambda m: -(m.estimate if m.estimate is not None else m.upper))
            for info in order:
                self._solve_move(info, depth)
            best = max(self.moves.values(), key=lambda m: m.estimate if m.estimate is not None else -_INF)
            self._bounds_from_moves()   # the root value is the best move's value
            self.estimate = best.estimate
            if best.estimate is not None:
                self.best = best.cell
            if not exact:
                self.depth = depth
                self.heur_pv = self._heuristic_pv()
                self._log_iteration(depth)
            return
        guess = self.estimate if self.estimate is not None else eng.heuristic(root)
        first: tuple[int, ...] = ()
        if exact and self.mode == "open" and WDL_FIRST:
            # win/draw/loss first ("wins?" is v >= 1, "at least draws?" is v >= 0): it is
            # proven much sooner than the exact margin
            first = (1, 0) if guess > 0 else (0, 1)

        def probe(a: int, b: int) -> tuple[int, bool, int]:
            return eng.search(root, depth, a, b)

        lo_known = self.lower if exact else -_INF
        hi_known = self.upper if exact else _INF
        lo, hi, move = self.drv.mtd(
            probe, lo_known, hi_known, guess, self.unit,
            bisect=self.mode == "game", wide=self.mode == "game" and GAME_WIDE,
            first=first, on_proven=self._prove_root,
        )
        value = lo if lo == hi else (lo if lo > -_INF else hi)
        self.estimate = min(max(value, self.lower), self.upper)
        if move >= 0:
            self.best = move
        elif self.best < 0:
            tm = eng.tt_move(root)
            self.best = tm
        if not exact:
            self.depth = depth
            self.heur_pv = self._heuristic_pv()   # before a later, unfinished iteration evicts it
            self._log_iteration(depth)
        else:
            self._finish_exact()

    def _log_iteration(self, depth: int) -> None:
        nodes, cpu = self.eng.nodes, time.process_time() - self.cpu0
        self.log.append({"depth": depth, "seconds": round(_core.monotonic() - self.started, 4), "nodes": nodes,
                         "path_nodes": nodes, "path_cpu_seconds": round(cpu, 4)})

    def _solve_move(self, info: _MoveInfo, depth: int) -> int:
        """Value of one root move at `depth` (exact at _EXACT), with card values in game
        mode; kept in ``info.estimate`` within the move's proven bounds, and returned as
        the search found it (a heuristic value may lie outside them)."""
        eng, root, cell = self.eng, self.root, info.cell
        exact = depth >= _EXACT
        if exact and eng.is_chance(root, cell):
            # exact value per revealed card; the move's value is their sum (scaled)
            values = info.card_values or {}
            for card in eng.pool_cards(root):
                if card in values:
                    continue
                child = eng.child(root, cell, card)
                clo, chi = eng.bounds(child)

                def probe(a: int, b: int, child: tuple = child) -> tuple[int, bool, int]:
                    return eng.search(child, _EXACT, a, b)

                lo, hi, _ = self.drv.mtd(probe, clo, chi, eng.heuristic(child), 1, bisect=True)
                values[card] = -lo
                info.card_values = values
            total = sum(values.values())
            info.lower = info.upper = info.estimate = total
            return total

        def probe(a: int, b: int) -> tuple[int, bool, int]:
            v, proven = eng.search_move(root, cell, depth, a, b)
            return v, proven, -1

        def on_proven(lo: int, hi: int, _move: int) -> None:
            info.lower = max(info.lower, lo)
            info.upper = min(info.upper, hi)

        guess = info.estimate if info.estimate is not None else 0
        lo_known = info.lower if exact else -_INF
        hi_known = info.upper if exact else _INF
        lo, hi, _ = self.drv.mtd(
            probe, lo_known, hi_known, guess, self.unit,
            bisect=self.mode == "game", wide=self.mode == "game" and GAME_WIDE,
            on_proven=on_proven,
        )
        value = lo if lo == hi else (lo if lo > -_INF else hi)
        info.estimate = min(max(value, info.lower), info.upper)
        return value

    def _finish_exact(self) -> None:
        """After the exact root value v: a move proven to reach v, "<= v" for the others,
        and the principal variation.  (all_moves=True gives every move's exact value.)"""
        eng, root, v = self.eng, self.root, self.lower
        if not (self.pbest >= 0 and self.pbest_lb >= v):
            tm = eng.tt_move(root)
            order = ([tm] if tm in self.moves else []) + [c for c in self.moves if c != tm]
            for cell in order:
                r, _ = eng.search_move(root, cell, _EXACT, v - 1, v)
                self.drv.check()
                if r >= v:
                    self.pbest, self.pbest_lb = cell, v
                    break
        self.best = self.pbest
        for info in self.moves.values():
            if info.cell == self.best:
                info.lower = info.upper = info.estimate = v
            else:
                info.upper = min(info.upper, v)   # no move is worth more than the position
        self.exact_pv = self._pv(root, v)

    def _pv(self, state: tuple, v: int) -> list[int]:
        """Optimal line from `state` whose exact value (mover's view) is `v`."""
        eng = self.eng
        line: list[int] = []
        self.pv_partial = line   # what is listed so far, should a limit stop the listing
        while True:
            moves = eng.moves(state)
            if not moves:
                return line
            tm = eng.tt_move(state)
            order = ([tm] if tm in moves else []) + [m for m in moves if m != tm]
            chosen = -1
            for cell in order:
                r, _ = eng.search_move(state, cell, _EXACT, v - 1, v)
                self.drv.check()
                if r >= v:
                    chosen = cell
                    break
            if chosen < 0:  # cannot happen when v is exact
                return line
            line.append(chosen)
            if eng.is_chance(state, chosen):
                return line   # game mode: the line ends at the first card revealed
            state = eng.child(state, chosen)
            v = -v

    def _heuristic_pv(self) -> list[int]:
        """The line the heuristic search prefers: the best move, then the table's moves."""
        eng, state = self.eng, self.root
        line: list[int] = []
        for ply in range(self.depth or 0):
            moves = eng.moves(state)
            tm = self.best if ply == 0 and self.best >= 0 else eng.tt_move(state)
            if tm not in moves:
                break
            line.append(tm)
            if eng.is_chance(state, tm):
                break
            state = eng.child(state, tm)
        return line

    # -- the answer ----------------------------------------------------------------

    def _prefer_best_listed(self) -> None:
        """Stopped before the value was exact: make the estimate and the preferred move
        those of the best move as the listing will show it (its exact value, or its
        estimate within its proven bounds).  A stop inside an iteration can leave some
        moves valued by a later iteration than the root's estimate, or proven exactly
        below another move's bound; the answer must not recommend a move the listing
        shows to be worse than another, nor give a value that is not its best move's."""
        valued = [(v, m) for m in self.moves.values() if (v := m.listed) is not None]
        if not valued:
            return
        top = max(v for v, _ in valued)
        tied = [m for v, m in valued if v == top]
        # among equals: the search's choice, then a proven value
        pick = next((m for m in tied if m.cell == self.best), None) or \
            next((m for m in tied if m.lower == m.upper), tied[0])
        self.best = pick.cell
        self.estimate = top

    def solution(self, *, seconds: float, tt_mb: float, time_limit: float | None,
                 node_limit: int | None) -> Solution:
        eng, drv = self.eng, self.drv
        conv = lambda x: drv.to_value(x, self.scale)  # noqa: E731
        self._bounds_from_moves()
        exact = self.terminal or self.exact
        if self.best in self.moves and self.moves[self.best].estimate is None and self.estimate is not None:
            self.moves[self.best].estimate = self.estimate   # the root's estimate is its preferred move's
        if not exact and self.moves:
            self._prefer_best_listed()
        if exact:
            value = conv(self.lower if not self.terminal else self.estimate)
            lower = upper = value
        else:
            est = self.estimate if self.estimate is not None else eng.heuristic(self.root)
            est = min(max(est, self.lower), self.upper)
            value, lower, upper = conv(est), conv(self.lower), conv(self.upper)
            if len(self.moves) == 1:   # the only move is worth what the position is
                only = next(iter(self.moves.values()))
                if only.estimate is None:
                    only.estimate = est
        infos = list(self.moves.values())
        for info in infos:   # no move is worth more than the position
            # (each move's proven lower bound is kept where it is proven: _prove_root,
            # _finish_exact, the parallel merge)
            info.upper = min(info.upper, self.upper)
            info.lower = min(info.lower, info.upper)
        moves = []
        for info in infos:
            listed = info.listed
            cv = None
            n_pool = len(eng.pool_cards(self.root))
            if info.card_values is not None and len(info.card_values) == n_pool:
                # card values are kept in the child's units: one card is 1/n of the move
                cv = {DECK[c]: conv(val * n_pool) for c, val in sorted(info.card_values.items())}
            moves.append(MoveValue(
                cell=cell_coords(info.cell),
                # a move whose bounds meet is proven, whether or not the search kept an estimate
                value=None if listed is None else conv(listed),
                exact=info.lower == info.upper,
                lower=conv(info.lower),
                upper=conv(info.upper),
                card_values=cv,
            ))

        preferred = cell_coords(self.best) if self.best >= 0 else None

        def rank(m: MoveValue) -> tuple:
            # moves with a value (exact or estimated) first, best first; among equals proven
            # first, then the search's choice; then the moves known only by their bounds,
            # by upper and then lower bound
            return (m.value is None, -(m.value if m.value is not None else m.upper), not m.exact,
                    m.cell != preferred, -m.upper, -m.lower)

        moves.sort(key=rank)
        if exact and not self.terminal:
            best_moves = tuple(m.cell for m in moves if m.exact and m.value == value)
            if not self.all_moves:
                best_moves = best_moves[:1]
            if not best_moves and self.pbest >= 0 and self.pbest_lb >= self.lower:
                best_moves = (cell_coords(self.pbest),)   # stopped before the moves were listed
        elif self.best >= 0:
            best_moves = (cell_coords(self.best),)
        elif moves:
            best_moves = (moves[0].cell,)
        else:
            best_moves = ()
        pv_complete = True
        if exact and self.exact_pv is not None:
            pv = self.exact_pv
        elif exact and not self.terminal and eng.stop:
            pv, pv_complete = self.pv_partial, False   # (what finish_listing listed)
        elif exact and not self.terminal:
            try:
                pv = self._pv(self.root, self.lower)
            except _Stopped:
                pv, pv_complete = self.pv_partial, False
        else:
            pv = self.heur_pv if not self.terminal else []
            if pv and self.best >= 0 and pv[0] != self.best:
                # the preferred move changed after the last completed iteration took its line
                # (a later, unfinished one valued the moves, e.g. the four start cells):
                # the line starts with the move recommended, then the table's moves
                pv = self._heuristic_pv() or [self.best]
        stop = _STOP_REASONS.get(eng.stop)
        return Solution(
            evaluation=next(k for k, v in EVALUATIONS.items() if v == eng.heur_kind),  # type: ignore[arg-type]
            value=value,
            exact=exact,
            lower=lower,
            upper=upper,
            best_moves=best_moves,
            moves=tuple(moves),
            pv=tuple(cell_coords(c) for c in pv),
            pv_complete=pv_complete,
            to_move=self.pos.to_move,
            mode=self.mode,
            objective=self.objective,
            reach=self.pos.reach,
            tt_mb=tt_mb,
            time_limit=time_limit,
            node_limit=node_limit,
            nodes=eng.nodes,
            seconds=seconds,
            depth=self.depth,
            stopped=stop,
            table_bytes=eng.table_bytes,
            table_entries=eng.table_entries,
            table_used=eng.table_used(),
            stats={**eng.stats(), "score_cache_bytes": eng.score_cache_bytes,
                   **({"iterations": list(self.log)} if self.log else {})},
        )
