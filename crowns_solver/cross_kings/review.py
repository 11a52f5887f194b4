"""Move-by-move analysis of a Cross Kings game (issue 8, part 4).

:func:`analyse_game` replays a game (a crosskings.net save string, a position whose
moves are known, or a position and the moves played from it) and, for every move, asks
what each legal move was worth in the position before it: the game value (RULES.md
"Hidden cards": face-down cards unknown until taken, expectiminimax), objective
"margin", from the mover's point of view.  Values are exact where the solver proves them
within the limits given, otherwise the search's estimate, and each row says which.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from .._checks import check_flag, check_whole_number, is_choice, pad, text_width
from .._text import count, number
from ..errors import (
    IllegalMoveError,
    PlayerNameError,
    PositionError,
    RecordError,
    SolverOptionError,
)
from .cards import DECK, Card, parse_card
from .players import MoveEstimate
from .position import FACE_DOWN_CELLS, PLAYERS, Cell, Position, _as_coords, _cell_field, cell_coords, cell_text
from .solver import _check_cancel

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "GameStep",
    "move_values",
    "replay",
    "analyse_game",
    "analyse_steps",
    "analysis_summary",
    "ANALYSIS_COLUMNS",
    "DEFAULT_TIME_LIMIT",
    "format_analysis",
    "interruptible",
    "AnalysisInterrupted",
    "AnalysisCancelled",
    "partial_analysis_note",
]

#: Default time per analysed move, in seconds.
DEFAULT_TIME_LIMIT = 2.0
#: Most cards left at which a search with neither a time nor a node limit is accepted (an
#: exact game value takes seconds at 16 cards, hours well above).
UNLIMITED_MAX_CARDS = 16

#: Columns of the table :func:`analyse_game` returns, in order.
ANALYSIS_COLUMNS = (
    "ply", "player", "move", "card", "value", "best_move", "best_value", "loss", "exact",
    "legal_moves", "value_fraction", "best_value_fraction", "loss_fraction", "best_moves",
)


# ----------------------------------------------------------------------------- values of moves


def move_values(
    position: Position,
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    cancel: Any = None,
) -> list[MoveEstimate]:
    """Game-mode values of every legal move of `position`: known values best first, then
    the moves the search had no time to estimate (``value`` None).

    The same search as :func:`crowns_solver.cross_kings.players.evaluate_moves`
    (``solve(position, mode="game", objective="margin", all_moves=True)`` under the
    limits): exact where the solver proves it, otherwise the anytime estimate.  The one
    difference: a move the search did not reach within a very small budget keeps
    ``value=None`` here, instead of its proven upper bound, so it can never pass for the
    best move in an analysis.

    Parameters
    ----------
    position : Position
        The position; face-down cards count as unknown whatever it knows of them.
    time_limit : float, optional
        Seconds for the whole evaluation.
    node_limit : int, optional
        Search nodes for the whole evaluation (reproducible).
    cancel : threading.Event or None
        Stop the evaluation from another thread (an object with ``is_set()``), as for
        :func:`~crowns_solver.cross_kings.players.evaluate_moves`: once it is set the
        search stops within about 50 ms and the moves come back with what was proven
        and estimated so far (``exact`` False where not proven, ``value`` None where not
        estimated; every value None when it was set before the call).  No field says
        that `cancel` stopped it.  It does not lift the need for a limit above
        :data:`UNLIMITED_MAX_CARDS` cards left.

    Returns
    -------
    list of MoveEstimate
        One per legal move (empty when the game is over); values are expected final
        margins in points for the player to move (:class:`fractions.Fraction`).

    Raises
    ------
    PositionError
        If `position` is not a :class:`~crowns_solver.cross_kings.Position`.
    SolverOptionError
        If a limit is invalid, or neither is given for a position with more than
        :data:`UNLIMITED_MAX_CARDS` cards left (its exact solve could run for hours), or
        `cancel` is not None and has no ``is_set()`` method.
    """
    from ..errors import SolverOptionError
    from .players import evaluate_moves

    _check_cancel(cancel)
    if not isinstance(position, Position):
        raise PositionError(f"move_values() takes a Position, got {type(position).__name__}")
    if position.is_terminal():
        return []
    if time_limit is None and node_limit is None and position.cards_left > UNLIMITED_MAX_CARDS:
        raise SolverOptionError(
            f"a position with {position.cards_left} cards left needs a time_limit or node_limit"
            f" (an unlimited exact solve is accepted up to {UNLIMITED_MAX_CARDS} cards left)")
    out = evaluate_moves(position, time_limit=time_limit, node_limit=node_limit, cancel=cancel)
    known = sorted((e for e in out if e.value is not None), key=lambda e: -e.value)
    return known + [e for e in out if e.value is None]


# ----------------------------------------------------------------------------- replay


@dataclass(frozen=True)
class GameStep:
    """One move of a game: the position before it, the cell taken and the card it held.

    Attributes
    ----------
    ply : int
        0 for the second player's choice of start cell, then 1, 2, ... for the cards taken.
    position : Position
        The position before the move (it may know the face-down cards; game values
        ignore them).
    move : (row, col)
        The cell taken (the start cell at ply 0); a cell number given is kept as
        ``(row, col)``.
    card : str or None
        The card taken (None for the start choice).
    """

    ply: int
    position: Position
    move: Cell
    card: Card | None

    def __post_init__(self) -> None:
        # built with a cell number, analyse_steps found "no value for the move" (session 23)
        object.__setattr__(self, "move", _as_coords(self.move, "move"))


def _initial(pos: Position) -> Position:
    """The position at the start cell of a game whose moves `pos` records."""
    if pos.history is None or pos.start is None:
        raise PositionError(
            "the moves of this game are not known (a save string or a game saved by"
            " 'crowns cross-kings play' records them)"
        )
    hidden = None
    if pos.hidden_order is not None:
        # a save string lists the cards still face down: before the game, those plus the
        # face-down cards taken since (in the order taken), so each replayed position
        # writes back its own save string and the last one the original
        revealed = tuple(pos.cells[c] for c in pos.history if c in FACE_DOWN_CELLS)
        hidden = revealed + pos.hidden_order
    return replace(
        pos,
        taken=frozenset(),
        face_down=FACE_DOWN_CELLS,
        marker=pos.start,
        to_move="first",
        first_hand=(),
        second_hand=(),
        history=(),
        hidden_order=hidden,
    )


def replay(
    game: Position | str,
    moves: Iterable[Cell | int | tuple[Cell | int, Card]] | None = None,
    *,
    include_start: bool = False,
) -> list[GameStep]:
    """The moves of a game, each with the position before it.

    Parameters
    ----------
    game : Position or str
        Without `moves`: a game whose moves are recorded, i.e. a crosskings.net save
        string (RULES.md "Interchange"; it starts at (2, 2)) or a position that knows its
        start cell and history (from a save string, :meth:`Position.from_dict` with
        ``start`` and ``history``, or ``crowns cross-kings play``).  With `moves`: the
        position the moves start from.
    moves : iterable, optional
        Cells taken in order, as ``(row, col)`` or cell numbers; a cell whose card is
        face down and unknown must be given as ``(cell, card)`` (a tuple or a list).  At
        a fresh position the first item is the start cell.  Choosing it takes no card
        (the start card stays face down in the grid until a later move takes it), so a
        card may be named with it as with any move, and is checked the same way: it
        must be the card there when the position knows it (``((2, 2), "AS")`` where
        (2, 2) holds AD is refused), else one of the unseen cards; the later move that
        takes the start cell then reveals that card (its own card, if named, must be
        the same).  Until session 24 a card given with the start cell was ignored.
    include_start : bool
        Also return the start choice (ply 0), when the game's start is part of it: a
        fresh position with `moves`, or a recorded game (whose start cell is then
        taken as chosen; crosskings.net always starts at (2, 2)).

    Returns
    -------
    list of GameStep
        In the order played; each step's `move` is ``(row, col)``.

    Raises
    ------
    PositionError, SaveStringError, CardError
        If the game cannot be read or its moves are not recorded, or an item of `moves`
        is not a cell (``moves[3]: no such cell: 36 ...``).
    IllegalMoveError
        If a move is not legal where it is played, a face-down card is missing, or a
        card named is not the one there (the start cell's too) or not unseen; if
        `moves` is not a list of moves.
    SolverOptionError
        If `include_start` is not True or False (``"no"`` judged the start choice).
    """
    include_start = check_flag("include_start", include_start, SolverOptionError)
    if isinstance(game, str):
        game = Position.from_text(game)
    if not isinstance(game, Position):
        raise PositionError(f"a game is a Position or a save string, got {type(game).__name__}")
    steps: list[GameStep] = []
    if moves is None and game.marker is None and not game.taken:
        return steps   # a fresh deal: no start cell chosen, no move played yet
    if moves is None:
        pos = _initial(game)
        assert game.history is not None and game.start is not None
        if include_start:
            fresh = replace(pos, marker=None, to_move="second", start=None)
            steps.append(GameStep(0, fresh, cell_coords(game.start), None))
        items: list[tuple[int, int | None]] = [(c, None) for c in game.history]
        ply = 1
    else:
        pos = game
        items = []
        if isinstance(moves, (str, bytes, Mapping)) or not isinstance(moves, Iterable):
            # a number raised "'int' object is not iterable" (session-18 probe)
            raise IllegalMoveError(f"moves must be a list of cells ((row, col), cell numbers, or (cell, card)"
                                   f" pairs), got {moves!r}")
        for k, item in enumerate(moves):
            # a (cell, card) pair as a tuple or a list (a list was read as a bad cell)
            if isinstance(item, (tuple, list)) and len(item) == 2 and isinstance(item[1], str):
                items.append((_cell_field(item[0], f"moves[{k}]"), parse_card(item[1])))
            else:
                items.append((_cell_field(item, f"moves[{k}]"), None))
        ply = 1 + len(pos.taken)
    start_card: tuple[int, int] | None = None   # (start cell, the card named for it)
    for n, (cell, card) in enumerate(items):
        if pos.marker is None:
            nxt = pos.play(cell)   # IllegalMoveError unless a central cell
            if card is not None:
                _check_start_card(pos, cell, card, n)
                start_card = (cell, card)
            if include_start:
                steps.append(GameStep(0, pos, cell_coords(cell), None))
            pos = nxt
            continue
        if cell_coords(cell) not in pos.legal_moves():
            pos.play(cell)  # raises IllegalMoveError, saying what is legal
        if start_card is not None and cell == start_card[0]:   # the start card, named at the start
            if card is not None and card != start_card[1]:
                r, c = cell_coords(cell)
                raise IllegalMoveError(f"move {n + 1}: the start cell ({r},{c}) was given as {DECK[start_card[1]]}"
                                       f" with the start choice, not {DECK[card]}")
            card = start_card[1]
        if card is None and pos.cells[cell] < 0:
            r, c = cell_coords(cell)
            raise IllegalMoveError(
                f"move {n + 1}: cell ({r},{c}) is face down and its card is unknown: give it as"
                " ((row, col), card)"
            )
        nxt = pos.play(cell, None if card is None else DECK[card])
        steps.append(GameStep(ply, pos, cell_coords(cell), DECK[nxt.cells[cell]]))
        ply += 1
        pos = nxt
    return steps


def _check_start_card(pos: Position, cell: int, card: int, n: int) -> None:
    """IllegalMoveError unless `card`, named with the start choice of `cell` (item `n` of
    the moves), may be the card there: the card the position knows there, else one of
    the unseen cards (the check a take's card gets, :meth:`Position.play`)."""
    r, c = cell_coords(cell)
    known = pos.cells[cell]
    if known >= 0 and known != card:
        raise IllegalMoveError(f"move {n + 1}: the start cell ({r},{c}) holds {DECK[known]}, not {DECK[card]}")
    if known < 0 and card not in pos.unknown_pool():
        raise IllegalMoveError(f"move {n + 1}: the start cell ({r},{c}) cannot hold {DECK[card]}: it is not unseen"
                               f" (unseen: {' '.join(DECK[i] for i in pos.unknown_pool())})")


# ----------------------------------------------------------------------------- analysis


Evaluator = Callable[[Position], Sequence[MoveEstimate]]


class _PartialAnalysis(BaseException):
    """What :class:`AnalysisInterrupted` and :class:`AnalysisCancelled` share: the table
    of the moves analysed so far, the number to do, and pickling from those two (the
    default passes the message alone; until session 24 AnalysisInterrupted could not be
    unpickled, e.g. back from a worker process of a pool)."""

    _stopped = ""

    def __init__(self, frame: pd.DataFrame, total: int) -> None:
        super().__init__(f"analysis {self._stopped} after {len(frame)} of {total} moves")
        self.frame = frame
        self.total = total

    def __reduce__(self) -> tuple:
        return type(self), (self.frame, self.total)


class AnalysisInterrupted(_PartialAnalysis, KeyboardInterrupt):
    """Ctrl-C stopped :func:`analyse_game` (or :func:`analyse_steps`): a KeyboardInterrupt
    (code catching that still stops) that keeps the analysis of the moves finished before
    it, so that ``crowns cross-kings analyse`` can print them, marked partial.

    Attributes
    ----------
    frame : pandas.DataFrame
        The analysis table of the moves analysed before the interrupt, in the order
        played (the columns of :func:`analyse_game`; possibly no rows).
    total : int
        How many moves the whole analysis had to value.
    """

    _stopped = "interrupted"


class AnalysisCancelled(_PartialAnalysis, Exception):
    """The `cancel` object given to :func:`analyse_game` (or :func:`analyse_steps`) was
    set, by another thread: the analysis stopped, keeping the moves finished before it.

    The counterpart of :class:`AnalysisInterrupted` (Ctrl-C) for an analysis running in a
    worker thread, which Ctrl-C does not reach.  It is not a KeyboardInterrupt (nothing
    asked the program to stop) nor a :class:`~crowns_solver.errors.CrownsError` (no input
    was wrong): catch it to show the partial table.

    Attributes
    ----------
    frame : pandas.DataFrame
        The analysis table of the moves analysed before `cancel` was set, in the order
        played (the columns of :func:`analyse_game`; possibly no rows).  The move whose
        search `cancel` cut short has no row.
    total : int
        How many moves the whole analysis had to value.
    """

    _stopped = "cancelled"


def partial_analysis_note(analysed: int, total: int) -> str:
    """The line under an analysis table that Ctrl-C cut short (:class:`AnalysisInterrupted`):
    one wording for ``crowns cross-kings analyse`` and the end of ``play``.

    Parameters
    ----------
    analysed : int
        Moves analysed before Ctrl-C (the table's rows).
    total : int
        Moves the whole analysis had to value.

    Returns
    -------
    str
        ``PARTIAL ANALYSIS: interrupted (Ctrl-C) after 1 of 27 moves; the moves after
        those were not analysed``.

    Raises
    ------
    SolverOptionError
        If `analysed` or `total` is not a whole number >= 0 (a bool, a float, text or
        None is refused; NumPy integers are taken), or `analysed` exceeds `total`,
        naming the argument (until session 24 anything was taken: ``(None, 5)`` gave
        "after None of 5 moves").
    """
    total = check_whole_number("total", total, 0, error=SolverOptionError)
    analysed = check_whole_number("analysed", analysed, 0, total, why="the moves the analysis had to value, total",
                                  error=SolverOptionError)
    return (f"PARTIAL ANALYSIS: interrupted (Ctrl-C) after {analysed} of {count(total, 'move')};"
            " the moves after those were not analysed")


def analyse_steps(
    steps: Sequence[GameStep],
    evaluate: Evaluator,
    *,
    players: Sequence[str] = ("first", "second"),
    progress: Callable[[int, int], None] | None = None,
    cancel: Any = None,
) -> pd.DataFrame:
    """The analysis table of :func:`analyse_game` for given steps and a move evaluator.

    The engine behind :func:`analyse_game`, which gives it :func:`replay`'s steps and
    :func:`move_values` under its limits.

    Parameters
    ----------
    steps : sequence of GameStep
        The moves to judge, each with the position before it (:func:`replay`).
    evaluate : callable
        ``evaluate(position)`` returns every legal move's :class:`MoveEstimate` (e.g.
        :func:`move_values` with limits; a value None means "not estimated").
    players : sequence of {"first", "second"}
        Whose moves to analyse (default both).
    progress : callable, optional
        ``progress(done, total)`` after each analysed move.
    cancel : threading.Event or None
        Stop the analysis from another thread: any object with an ``is_set()`` method.
        It is asked before each move's evaluation and after it; once it is set, the
        analysis raises :class:`AnalysisCancelled` with the table of the moves finished
        before (the move being evaluated gets no row).  `evaluate` is not given it: to
        stop within one move's search, have `evaluate` pass the same object on
        (``move_values(pos, ..., cancel=cancel)``, as :func:`analyse_game` does).

    Returns
    -------
    pandas.DataFrame
        The table of :func:`analyse_game`, one row per step of `players`.

    Raises
    ------
    AnalysisInterrupted
        If a KeyboardInterrupt (Ctrl-C) was raised meanwhile: it is raised again as this
        (a KeyboardInterrupt), holding the table of the moves analysed before it.
    AnalysisCancelled
        If `cancel` was set (before the call too), holding the table of the moves
        analysed before.
    IllegalMoveError
        If `evaluate` gives no value for the move played.
    SolverOptionError
        If `cancel` is not None and has no ``is_set()`` method.
    """
    _check_cancel(cancel)
    # pandas is imported now, not after a cancel or Ctrl-C: its first import (about
    # 0.25 s) made the first cancelled analysis take that long to return
    import pandas  # noqa: F401

    chosen = [s for s in steps if s.position.to_move in players]
    rows: list[dict[str, Any]] = []
    try:
        finished = _analyse_rows(chosen, evaluate, rows, progress, cancel)
    except AnalysisInterrupted:
        raise
    except KeyboardInterrupt:
        raise AnalysisInterrupted(_analysis_frame(rows), len(chosen)) from None
    if not finished:
        raise AnalysisCancelled(_analysis_frame(rows), len(chosen))
    return _analysis_frame(rows)


def _analyse_rows(chosen: Sequence[GameStep], evaluate: Evaluator, rows: list[dict[str, Any]],
                  progress: Callable[[int, int], None] | None, cancel: Any = None) -> bool:
    """Append one analysis row per step of `chosen` to `rows` (a row is appended whole,
    so an interrupt leaves only finished rows); False if `cancel` was set (asked before
    and after each evaluation: the evaluation it may have cut short gets no row)."""
    for k, step in enumerate(chosen):
        if cancel is not None and cancel.is_set():
            return False
        estimates = list(evaluate(step.position))
        if cancel is not None and cancel.is_set():
            return False
        by_cell = {e.cell: e for e in estimates}
        if step.move not in by_cell:
            raise IllegalMoveError(f"ply {step.ply}: no value for the move {step.move} (not legal?)")
        mine = by_cell[step.move]
        known = [e for e in estimates if e.value is not None]
        best = max(known, key=lambda e: e.value) if known else None
        # every move worth the best value (ties, as solve lists them all "best"); the
        # move played stands for them when it is one (it was "the first", so a best move
        # read as another cell than the one played)
        tied = tuple(e.cell for e in known if e.value == best.value) if best is not None else ()
        if best is not None and mine.value is not None and mine.value == best.value:
            best = mine
        # the values and the loss are proven only when every move's value is
        exact = bool(all(e.exact for e in estimates))
        nan = float("nan")
        rows.append({
            "ply": step.ply,
            "player": step.position.to_move,
            "move": step.move,
            "card": step.card,
            "value": nan if mine.value is None else float(mine.value),
            "best_move": None if best is None else best.cell,
            "best_value": nan if best is None else float(best.value),
            "loss": nan if best is None or mine.value is None else float(best.value - mine.value),
            "exact": exact,
            "legal_moves": len(estimates),
            "value_fraction": mine.value if mine.exact and mine.value is not None else None,
            "best_value_fraction": best.value if exact and best is not None else None,
            "loss_fraction": best.value - mine.value if exact and best is not None and mine.value is not None
            else None,
            "best_moves": tied,
        })
        if progress is not None:
            progress(k + 1, len(chosen))
    return True


def _analysis_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """The analysis table of `rows`, with its column types."""
    import pandas as pd

    frame = pd.DataFrame(rows, columns=list(ANALYSIS_COLUMNS))
    frame = frame.astype({"ply": "int64", "value": "float64", "best_value": "float64",
                          "loss": "float64", "exact": "bool", "legal_moves": "int64",
                          "card": "object"})
    for key in ("card", "value_fraction", "best_value_fraction", "loss_fraction", "best_moves"):
        frame[key] = pd.Series([r[key] for r in rows], dtype=object, index=frame.index)
    return frame


def analyse_game(
    game: Position | str,
    moves: Iterable[Cell | int | tuple[Cell | int, Card]] | None = None,
    *,
    players: str | Sequence[str] | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    node_limit: int | None = None,
    include_start: bool = False,
    progress: Callable[[int, int], None] | None = None,
    cancel: Any = None,
) -> pd.DataFrame:
    """Move-by-move analysis of a game: each move's value, the best move's, the points lost.

    Every move is judged in the position before it, by the game value (RULES.md
    "Hidden cards": face-down cards unknown, taking one is a chance event over the unseen
    cards; expectiminimax), objective "margin", from the mover's point of view.  Exact
    where the solver proves it within the limits, otherwise the estimate of its
    iterative deepening with a heuristic at the horizon (``exact`` False).

    Parameters
    ----------
    game : Position or str
        A crosskings.net save string or a position that records its moves (see
        :func:`replay`), or, with `moves`, the position they start from.
    moves : iterable, optional
        The moves played from `game` (see :func:`replay`).
    players : {"first", "second"} or sequence of them, optional
        Whose moves to analyse (default both).
    time_limit : float, optional
        Seconds of search per analysed move (default 2; None: none, which may take very
        long for early moves).
    node_limit : int, optional
        Search nodes per analysed move (deterministic).
    include_start : bool
        Also analyse the second player's choice of start cell (ply 0).
    progress : callable, optional
        ``progress(done, total)`` after each analysed move.
    cancel : threading.Event or None
        Stop the analysis from another thread (a GUI or server analysing in a worker
        thread, which Ctrl-C does not reach): any object with an ``is_set()`` method,
        typically a :class:`threading.Event`.  Each move's search gets it
        (:func:`move_values`) and stops within about 50 ms of its being set; the
        analysis then raises :class:`AnalysisCancelled`, whose ``frame`` holds the rows
        of the moves finished before (the move whose search was cut short has none) and
        ``total`` how many moves there were to analyse, as Ctrl-C raises
        :class:`AnalysisInterrupted`.  Set before the call: nothing is searched, the
        frame has no rows.  Default None: no such object.

    Returns
    -------
    pandas.DataFrame
        One row per analysed move, in the order played, with columns

        - ``ply`` (int): 0 the start choice, then 1, 2, ... the cards taken;
        - ``player`` (str): "first" or "second";
        - ``move`` ((row, col)) and ``card`` (str, None for the start choice);
        - ``value`` (float, points): the move's game value, expected final margin for
          the mover;
        - ``best_move`` ((row, col)) and ``best_value`` (float, points): the best move's
          (the move played, when it ties for best);
        - ``loss`` (float, points): ``best_value - value``, >= 0;
          (``value``, ``best_value`` and ``loss`` are NaN, ``best_move`` None, where a
          budget too small to estimate a move left them unknown);
        - ``exact`` (bool): whether every move's value in that position is proven (so
          `value`, `best_value` and `loss` are exact); False: estimates;
        - ``legal_moves`` (int): how many moves there were to choose from;
        - ``value_fraction``, ``best_value_fraction``, ``loss_fraction``
          (:class:`fractions.Fraction` or None): the same three values exactly (an
          expectation over face-down cards is a fraction such as 7/3, which the float
          columns round), where they are proven: ``value_fraction`` where the move's own
          value is, the other two where ``exact``; None elsewhere;
        - ``best_moves`` (tuple of (row, col)): every move worth ``best_value``, best
          first as the search lists them: several where moves tie for best (exactly
          where ``exact``, else equal estimates); empty where nothing was valued.

    Raises
    ------
    PositionError, SaveStringError, CardError
        If the game cannot be read or does not record its moves.
    IllegalMoveError
        If a move is not legal where it is played.
    SolverOptionError
        If `players`, `time_limit` or `node_limit` is invalid, `progress` is not
        callable, `include_start` is not True or False, or `cancel` is not None and has
        no ``is_set()`` method.
    AnalysisInterrupted
        On Ctrl-C (a KeyboardInterrupt), holding the table of the moves analysed before.
    AnalysisCancelled
        When `cancel` is set, holding the table of the moves analysed before.

    Examples
    --------
    >>> table = analyse_game(save_string, time_limit=1.0)            # doctest: +SKIP
    >>> table[table.loss > 1][["ply", "player", "move", "loss"]]     # doctest: +SKIP
    """
    if players is None:
        players = PLAYERS
    elif isinstance(players, str):
        players = (players,)
    elif not isinstance(players, Iterable) or isinstance(players, (bytes, Mapping)):
        raise SolverOptionError(f"players must be {' and/or '.join(map(repr, PLAYERS))}, got {players!r}")
    if progress is not None and not callable(progress):
        # True or a number raised "not callable" after the first move's search (session-18 probe)
        raise SolverOptionError(f"progress must be a function progress(done, total) or None, got {progress!r}")
    players = list(players)
    for p in players:
        if not is_choice(p, PLAYERS):   # a str first: a NumPy array was taken (session 24)
            raise SolverOptionError(f"players must be {' and/or '.join(map(repr, PLAYERS))}, got {p!r}")
    players = [str.__str__(p) for p in players]
    # check the limits before any replay work
    from .solver import _check_options

    _check_options("game", "margin", 64, time_limit, node_limit)
    _check_cancel(cancel)
    steps = replay(game, moves, include_start=include_start)

    with interruptible() as guard:

        def evaluate(pos: Position) -> list[MoveEstimate]:
            out = move_values(pos, time_limit=time_limit, node_limit=node_limit, cancel=cancel)
            guard.check()
            return out

        return analyse_steps(steps, evaluate, players=tuple(players), progress=progress, cancel=cancel)


# ----------------------------------------------------------------------------- text


def _signed(x: float) -> str:
    # a value that reads zero has no sign: -0.001 read "-0.00" until session 22
    return number(x, "+.2f")


def format_analysis(frame: pd.DataFrame, names: Sequence[str] = ("first", "second")) -> list[str]:
    """The analysis table as text lines, one per move, plus a summary per player.

    Values are the mover's expected final margin in points (two decimals); ``~`` marks
    estimates: the played move's value has none where it is proven (``value_fraction``
    set) even when other moves of the row are estimates; the best move's value and the
    points lost have none where the whole row is proven (``exact``).  Where moves tie for
    best (``best_moves``), the best-move column lists them all, the move played first
    when it is one of them (as ``solve`` marks every tied move "best").  Only a move
    that lost nothing is marked ``best`` and its loss shown as ``0``; a loss too small
    for two decimals reads ``<0.01``, never ``0.00``, so a move short of the best by a
    hair (two estimates a thousandth of a point apart) does not look tied for best.

    Parameters
    ----------
    frame : pandas.DataFrame
        A table from :func:`analyse_game`.
    names : (str, str)
        Display names of "first" and "second".

    Returns
    -------
    list of str
        The table's lines (a header, one line per move, one summary per player); only
        the header when the game has no moves.

    Raises
    ------
    RecordError
        If `frame` is not a table with the columns :func:`analyse_game` gives.
    PlayerNameError
        If `names` is not two non-empty strings.
    """
    import pandas as pd

    if not isinstance(frame, pd.DataFrame) or not set(ANALYSIS_COLUMNS) <= set(frame.columns):
        raise RecordError(
            "format_analysis() takes the table analyse_game() returns (a DataFrame with columns"
            f" {', '.join(ANALYSIS_COLUMNS)}), got {type(frame).__name__}"
        )
    if (isinstance(names, str) or not isinstance(names, Sequence) or len(names) != 2
            or not all(isinstance(n, str) and n.strip() for n in names)):
        raise PlayerNameError(f"names must be two non-empty strings (first, second), got {names!r}")
    who = {"first": names[0], "second": names[1]}
    width = max(6, *(text_width(n) for n in who.values()))   # terminal columns: 张伟 takes 4
    bests = [_best_text(row.best_move, row.best_moves) for row in frame.itertuples(index=False)]
    best_width = max(9, *(len(b) for b in bests)) if bests else 9
    lines = [f"{'ply':>4}  {'player':<{width}}  move  card    value  {'best move':<{best_width}}   best    lost"]
    for row, best in zip(frame.itertuples(index=False), bests):
        mark = "" if row.exact else "~"
        move = cell_text(row.move)
        card = "start" if row.ply == 0 else row.card
        own = "" if row.exact or row.value_fraction is not None else "~"   # the move's own value proven?
        value = "?" if row.value != row.value else own + _signed(row.value)
        best_value = "?" if row.best_value != row.best_value else mark + _signed(row.best_value)
        lost = "?" if row.loss != row.loss else mark + _loss_text(row.loss)
        lines.append(
            f"{row.ply:>4}  {pad(who[row.player], width, '<')}  {move:<5} {card:<5} {value:>7}"
            f"  {best:<{best_width}} {best_value:>7} {lost:>7}"
            + ("  best" if row.loss <= 5e-10 else "")
        )
    for player, part in analysis_summary(frame).items():
        missing = f"; {part['not_valued']} not valued: give the search more time" if part["not_valued"] else ""
        lines.append(
            f"{who[player]}: {number(part['points_lost'])} points lost over {count(part['moves'], 'move')}"
            f" ({count(part['best_moves'], 'best move')}; {part['exact']} of {part['moves']} valued exactly{missing})"
        )
    return lines


def _loss_text(loss: float) -> str:
    """The points lost as shown: ``0`` for none (a tie for best, within float noise),
    ``<0.01`` for a loss that two decimals would round to ``0.00``, else two decimals."""
    if loss <= 5e-10:
        return "0"
    text = f"{loss:.2f}"
    return "<0.01" if text == "0.00" else text


def analysis_summary(frame: pd.DataFrame) -> dict[str, dict[str, Any]]:
    """Each player's totals over an analysis table: the summary lines of
    :func:`format_analysis`, as numbers (``crowns cross-kings analyse --json`` gives them
    as ``summary``).

    Parameters
    ----------
    frame : pandas.DataFrame
        A table from :func:`analyse_game`.

    Returns
    -------
    dict
        ``{"first": {...}, "second": {...}}`` for the players with moves in `frame`:
        ``points_lost`` (the sum of ``loss`` over the moves valued, float), ``moves``,
        ``best_moves`` (moves that lost nothing), ``exact`` (moves valued exactly),
        ``not_valued`` (moves without a value).

    Raises
    ------
    RecordError
        If `frame` is not a table with the columns :func:`analyse_game` gives.
    """
    import pandas as pd

    if not isinstance(frame, pd.DataFrame) or not set(ANALYSIS_COLUMNS) <= set(frame.columns):
        raise RecordError(
            "analysis_summary() takes the table analyse_game() returns (a DataFrame with columns"
            f" {', '.join(ANALYSIS_COLUMNS)}), got {type(frame).__name__}"
        )
    out: dict[str, dict[str, Any]] = {}
    for player in ("first", "second"):
        part = frame[frame.player == player]
        if len(part) == 0:
            continue
        out[player] = {
            "points_lost": float(part.loss.sum()),
            "moves": len(part),
            "best_moves": int((part.loss <= 5e-10).sum()),
            "exact": int(part.exact.sum()),
            "not_valued": int(part.loss.isna().sum()),
        }
    return out


def _best_text(best: Cell | None, tied: Sequence[Cell] | None) -> str:
    """The best-move column: every move tied for best, `best` (the move played when it is
    one of them) first; ``?`` when nothing was valued."""
    if best is None:
        return "?"
    cells = [best] + [tuple(c) for c in (tied or ()) if tuple(c) != tuple(best)]
    return " ".join(cell_text(c) for c in cells)


class interruptible:
    """Context manager: Ctrl-C during a solve stops the whole analysis.

    The solver turns Ctrl-C into a clean stop and returns what it has (so one search
    ends early, not the program).  Inside this block, a Ctrl-C is also remembered, and
    :meth:`check` (called after each evaluation) raises KeyboardInterrupt.
    """

    def __init__(self) -> None:
        self.hit = False
        self._old = None

    def __enter__(self) -> interruptible:
        import signal
        import threading

        if threading.current_thread() is threading.main_thread():
            def handler(signum, frame):  # noqa: ANN001
                self.hit = True
                raise KeyboardInterrupt

            self._old = signal.signal(signal.SIGINT, handler)
        return self

    def check(self) -> None:
        """Stop the analysis if Ctrl-C was pressed inside the block.

        Raises
        ------
        KeyboardInterrupt
            If a Ctrl-C was seen since the block was entered.
        """
        if self.hit:
            raise KeyboardInterrupt

    def __exit__(self, *exc: object) -> None:
        import signal

        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)
