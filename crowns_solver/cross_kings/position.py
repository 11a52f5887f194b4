"""Cross Kings deals and positions (RULES.md, Cross Kings).

Cells are numbered ``6 * row + col`` (rows 0..5 top to bottom, columns 0..5; RULES.md,
Cross Kings, "Grid").  Every function, method and constructor that takes a cell takes it
as a number 0..35 or as ``(row, col)`` (any pair of whole numbers: a tuple, a list, a
NumPy array), checked by one parser, :func:`cell_index`, which refuses a bool, a float,
text or a cell off the grid with a :class:`~crowns_solver.errors.PositionError` naming
it.  What comes back keeps one form per kind of value (the package docstring of
:mod:`crowns_solver.cross_kings` lists them): a position's own fields and its JSON hold
cell numbers, moves are ``(row, col)``.  Cells on the two diagonals are dealt face down;
the four central cells are face down and are where the marker starts.

A :class:`Position` is immutable: :meth:`Position.play` returns a new one.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeAlias, get_args

import numpy as np

from .._checks import check_choice, clean_name, is_choice, json_kind, name_key, name_problem, one_of, unknown_keys
from .._seeds import check_seed
from .._text import count
from ..errors import (
    CardError,
    DuplicateCardError,
    IllegalMoveError,
    PositionError,
    RulesError,
    SaveStringError,
)
from .cards import DECK, NUM_CARDS, Card, card_name, parse_card, parse_cards

__all__ = [
    "Cell",
    "Reach",
    "Player",
    "Rules",
    "Deal",
    "Position",
    "FACE_DOWN_CELLS",
    "CENTRAL_CELLS",
    "SAVE_START",
    "cell_index",
    "cell_coords",
    "cell_text",
    "line_cells",
    "SYMMETRIES",
    "symmetry_map",
]

#: A cell as ``(row, col)``, both 0..5.
Cell: TypeAlias = tuple[int, int]
Reach: TypeAlias = Literal["any", "nearest"]
Player: TypeAlias = Literal["first", "second"]
#: The rules option reach's values (RULES.md "Move"), for validation and the command line.
REACHES: tuple[Reach, ...] = get_args(Reach)
#: The two players, first to move after the start and second (who chooses the start cell).
PLAYERS: tuple[Player, ...] = get_args(Player)


#: Cells dealt face down: the two diagonals (row == col or row + col == 5).
FACE_DOWN_CELLS: frozenset[int] = frozenset(
    6 * r + c for r in range(6) for c in range(6) if r == c or r + c == 5
)
#: The four central cells, among which the second player chooses the start cell.
CENTRAL_CELLS: tuple[int, ...] = (14, 15, 20, 21)


def _legal_cells(marker: int, taken: Collection[int], reach: str) -> list[int]:
    """Cells the player to move may take with the marker on `marker` (RULES.md "Move")."""
    r0, c0 = divmod(marker, 6)
    holds = [i not in taken for i in range(36)]
    if reach == "any":
        return [i for i in line_cells(marker) if holds[i]]
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = r0 + dr, c0 + dc
        while 0 <= r < 6 and 0 <= c < 6:
            if holds[6 * r + c]:
                out.append(6 * r + c)
                break
            r, c = r + dr, c + dc
    return sorted(out)
#: The start cell a crosskings.net save string implies: (2, 2).
SAVE_START = 14
UNKNOWN = -1  # a face-down cell whose card is not known


def cell_index(cell: Cell | int) -> int:
    """Cell number 0..35 of ``(row, col)`` (an int 0..35 is returned as is).

    Parameters
    ----------
    cell : (int, int) or int
        ``(row, col)`` with row and column 0..5 (rows top to bottom, RULES.md, Cross
        Kings, "Grid"), or a cell number 0..35.

    Returns
    -------
    int
        The cell number ``6 * row + col``.

    Raises
    ------
    PositionError
        If the cell is not on the 6x6 grid, or is not a whole number or a pair of whole
        numbers (a float such as 14.0 or (2.0, 3), a bool or text is refused).
    """
    if _whole(cell):
        if 0 <= cell < 36:
            return int(cell)
        raise PositionError(f"no such cell: {cell!r} (cells are 0..35 or (row, col))")
    if isinstance(cell, (str, bytes, Mapping, set, frozenset)):
        raise PositionError(f"no such cell: {cell!r} (cells are whole numbers 0..35 or (row, col))")
    try:
        row, col = cell  # type: ignore[misc]
    except (TypeError, ValueError):
        raise PositionError(f"no such cell: {cell!r} (cells are whole numbers 0..35 or (row, col))") from None
    if not (_whole(row) and _whole(col)):
        raise PositionError(f"no such cell: {cell!r} (row and column are whole numbers 0..5)")
    if 0 <= row < 6 and 0 <= col < 6:
        return 6 * int(row) + int(col)
    raise PositionError(f"no such cell: {cell!r} (row and column are 0..5)")


def _whole(x: object) -> bool:
    """An integer (Python or NumPy), not a bool, float or text: cells are counted, not measured."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


# a field read from JSON, in JSON's words (moved to _checks.json_kind in session 24 for the
# Five Crowns keeper too)
_json_kind = json_kind


def _json_value(value: object) -> str:
    """A value read from JSON, written as JSON writes it (``true``, ``null``, ``[1, true]``,
    ``5``), a string quoted as messages quote text (``'Nearest'``), at most 60 characters:
    for messages about a position file's fields, which said ``True`` and ``None``, Python's
    words, until session 24."""
    if isinstance(value, str):
        text = repr(value)
    else:
        try:
            text = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError):   # not JSON data (a caller's own object)
            text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _json_cell(value: object, what: str) -> int:
    """:func:`_cell_field` for a field of a position's JSON: the value in JSON's words
    (``marker: no such cell: true``, not ``True``)."""
    try:
        return cell_index(value)  # type: ignore[arg-type]
    except PositionError as exc:
        text, said = str(exc), f"no such cell: {value!r}"
        if text.startswith(said):   # cell_index's message, the value as Python writes it
            text = f"no such cell: {_json_value(value)}{text[len(said):]}"
        raise PositionError(f"{what}: {text}") from None


def _cell_field(value: object, what: str | None) -> int:
    """cell_index for an argument or a field of a position's JSON, naming it in the error."""
    if what is None:
        return cell_index(value)  # type: ignore[arg-type]
    try:
        return cell_index(value)  # type: ignore[arg-type]
    except PositionError as exc:
        raise PositionError(f"{what}: {exc}") from None


def _as_coords(cell: object, what: str | None = None) -> Cell:
    """`cell` (either form) as ``(row, col)`` of plain ints, PositionError naming `what`
    (the argument or field) if it is not a cell: how the dataclasses holding a move
    (MoveValue, MoveEstimate, GameStep) keep the cell they are given."""
    return divmod(_cell_field(cell, what), 6)  # type: ignore[return-value]


def cell_coords(index: Cell | int) -> Cell:
    """``(row, col)`` of a cell.

    Parameters
    ----------
    index : int or (int, int)
        A cell number 0..35 (``6 * row + col``), or ``(row, col)`` (returned as a tuple
        of plain ints; before session 23 a pair was refused).

    Returns
    -------
    tuple of (int, int)
        ``(row, col)``, each 0..5 (``divmod(index, 6)``).

    Raises
    ------
    PositionError
        If `index` is not a cell (the rule of :func:`cell_index`: a bool, a float or text
        is refused).
    """
    return divmod(cell_index(index), 6)  # type: ignore[return-value]


def cell_text(cell: int | Cell) -> str:
    """A cell as every message, table and report writes it: ``"(row,col)"``, no space
    (``"(2,2)"``; a Python tuple would print ``(2, 2)``, which some messages did before
    session 21).

    Parameters
    ----------
    cell : int or (int, int)
        A cell number 0..35 or ``(row, col)``.

    Returns
    -------
    str
        ``"(row,col)"``.

    Raises
    ------
    PositionError
        If `cell` is not a cell.
    """
    r, c = cell_coords(cell_index(cell))
    return f"({r},{c})"


def line_cells(index: int | Cell) -> list[int]:
    """The 10 other cells of the row and column of cell `index`, sorted.

    Parameters
    ----------
    index : int or (int, int)
        A cell number 0..35 or ``(row, col)`` (a pair was refused before session 23).

    Returns
    -------
    list of int
        10 cell numbers in increasing order: the cells a move from `index` may reach
        under reach "any" (RULES.md, Cross Kings, "Move"), taken or not.

    Raises
    ------
    PositionError
        If `index` is not a cell (the rule of :func:`cell_index`).
    """
    r, c = divmod(cell_index(index), 6)
    return sorted([6 * r + x for x in range(6) if x != c] + [6 * y + c for y in range(6) if y != r])


#: The eight symmetries of the grid (the dihedral group of the square), by name: each
#: maps every row and column onto a row or column (keeping the order of its cells or
#: reversing it), the two diagonals onto the diagonals and the four central cells onto
#: themselves, so it maps the game onto itself (RULES.md, Cross Kings: the rules mention
#: no direction).  ``rot90`` turns the grid a quarter clockwise; ``flip_rows`` swaps the
#: top and bottom rows, ``flip_cols`` the left and right columns; ``transpose`` mirrors in
#: the main diagonal, ``antitranspose`` in the other one.
SYMMETRIES: tuple[str, ...] = (
    "identity", "rot90", "rot180", "rot270", "flip_rows", "flip_cols", "transpose", "antitranspose",
)
_SYMMETRY_RC = {
    "identity": lambda r, c: (r, c),
    "rot90": lambda r, c: (c, 5 - r),
    "rot180": lambda r, c: (5 - r, 5 - c),
    "rot270": lambda r, c: (5 - c, r),
    "flip_rows": lambda r, c: (5 - r, c),
    "flip_cols": lambda r, c: (r, 5 - c),
    "transpose": lambda r, c: (c, r),
    "antitranspose": lambda r, c: (5 - c, 5 - r),
}
_SYMMETRY_MAPS: dict[str, tuple[int, ...]] = {
    name: tuple(6 * r + c for r, c in (f(*divmod(i, 6)) for i in range(36)))
    for name, f in _SYMMETRY_RC.items()
}


def symmetry_map(symmetry: str) -> tuple[int, ...]:
    """Where each cell goes under one of the grid's symmetries.

    Parameters
    ----------
    symmetry : str
        One of :data:`SYMMETRIES`.

    Returns
    -------
    tuple of int, length 36
        ``m[i]`` is the cell number that cell ``i`` is mapped to (a permutation of 0..35).

    Raises
    ------
    PositionError
        If `symmetry` is not one of :data:`SYMMETRIES`.
    """
    if not is_choice(symmetry, _SYMMETRY_MAPS):
        raise PositionError(f"unknown grid symmetry {symmetry!r}: choose one of {', '.join(SYMMETRIES)}")
    return _SYMMETRY_MAPS[symmetry]


def _moved(cells: Sequence[Any], m: tuple[int, ...]) -> tuple[Any, ...]:
    """`cells` with the content of cell i moved to cell m[i] (m a permutation of 0..35)."""
    out: list[Any] = [None] * 36
    for i, content in enumerate(cells):
        out[m[i]] = content
    return tuple(out)


def _check_seed(seed: object, what: str) -> None:
    """PositionError naming `what` unless `seed` is a seed :func:`_generator` accepts (the
    check and wording of every game: ``crowns_solver._seeds.check_seed``)."""
    check_seed(seed, PositionError, what)


def _generator(seed: object, what: str) -> np.random.Generator:
    """``numpy.random.default_rng(seed)`` for a seed the library accepts: None, a
    non-negative whole number, a SeedSequence or a Generator (returned as is).

    Raises
    ------
    PositionError
        Naming `what`, for anything else (a negative number, a bool, a float, text):
        NumPy's own TypeError or ValueError would not say which argument was at fault.
    """
    _check_seed(seed, what)
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)  # type: ignore[arg-type]


def _other(player: Player) -> Player:
    return "second" if player == "first" else "first"


#: The display names of :class:`Rules` when none are given: the seats' own names.
DEFAULT_NAMES: tuple[str, str] = ("first", "second")
#: The keys of a position as JSON that :meth:`Position.from_dict` reads
#: (:meth:`Position.to_dict` writes them).
POSITION_KEYS: tuple[str, ...] = (
    "grid", "marker", "to_move", "first_hand", "second_hand", "reach", "face_down", "start", "history", "names",
)
#: Keys other writers of the project put beside a position's own, which
#: :meth:`Position.from_dict` accepts and leaves alone: ``seed`` (``play``'s ``save FILE``;
#: ``play --load`` reads it) and what ``show --json`` adds (each recomputed from the
#: position, never read back).
POSITION_EXTRA_KEYS: tuple[str, ...] = (
    "seed", "legal_moves", "terminal", "unseen", "first", "second", "save_string", "save_string_reflected",
)


@dataclass(frozen=True)
class Rules:
    """Cross Kings rules options (RULES.md, Cross Kings).

    Attributes
    ----------
    reach : {"any", "nearest"}
        ``"any"`` (default): any card in the marker's row or column may be taken; gaps and
        cards in between do not block.  ``"nearest"``: only the nearest card in each of
        the four directions; every card still on the grid blocks those behind it.
    names : tuple of str
        Display names of the first and second player (the seed lets players choose
        names shown instead of Player 1 / Player 2); printable text, without control or
        format characters, at most 40 characters, kept with runs of white space collapsed
        (:func:`crowns_solver._checks.name_problem`, the score keeper's rule too).

    Raises
    ------
    RulesError
        For an unknown reach, names that are not two strings, or a name that is blank,
        holds a control character (named as ``U+XXXX``) or is too long, or two names
        that are the same but for case, spaces and Unicode forms (:func:`crowns_solver._checks.name_key`).
    """

    reach: Reach = "any"
    names: tuple[str, str] = DEFAULT_NAMES

    def __post_init__(self) -> None:
        # a str first (a NumPy array was stored: session 24); a NumPy str_ is kept as str
        object.__setattr__(self, "reach", check_choice("reach", self.reach, REACHES, RulesError))
        names = self.names
        # a string is a sequence too: names="ab" would be the players "a" and "b"
        if isinstance(names, (str, bytes)) or not isinstance(names, (tuple, list)) or len(names) != 2 \
                or not all(isinstance(n, str) and n for n in names):
            raise RulesError(f"names must be two non-empty strings, got {names!r}")
        for name in names:
            problem = name_problem(name)
            if problem is not None:
                raise RulesError(f"names: {problem}")
        # a tuple (a list would make the rules unhashable) of the names as printed
        object.__setattr__(self, "names", tuple(clean_name(n) for n in names))
        if name_key(self.names[0]) == name_key(self.names[1]):
            raise RulesError(f"names: the two players need different names, got {names[0]!r} and {names[1]!r}"
                             " (case and spaces aside)")


def _rules(reach: Reach | Rules | None) -> Rules:
    if isinstance(reach, Rules):
        return reach
    return Rules() if reach is None else Rules(reach=reach)


@dataclass(frozen=True)
class Deal:
    """A 6x6 deal: the card of every cell, ``None`` where a face-down card is unknown
    (RULES.md, Cross Kings, "Grid": the two diagonals are dealt face down).

    Attributes
    ----------
    cells : tuple of (str or None), length 36
        Card of each cell, row by row.  Only face-down cells (the diagonals) may be None.
    """

    cells: tuple[Card | None, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.cells, Sequence) or isinstance(self.cells, str):
            raise PositionError(f"a deal's cells are a list of 36 cards (row by row), got {type(self.cells).__name__}")
        if len(self.cells) != 36:
            raise PositionError(f"a deal has 36 cells (6x6), got {len(self.cells)}")
        seen: set[int] = set()
        normal: list[Card | None] = []
        for i, card in enumerate(self.cells):
            if card is None:
                if i not in FACE_DOWN_CELLS:
                    r, c = cell_coords(i)
                    raise PositionError(f"cell ({r},{c}) is face up, so its card must be given")
                normal.append(None)
                continue
            idx = parse_card(card)
            if idx in seen:
                raise DuplicateCardError(f"deal: duplicate card {DECK[idx]}")
            seen.add(idx)
            normal.append(DECK[idx])
        object.__setattr__(self, "cells", tuple(normal))

    @classmethod
    def random(cls, seed: int | np.random.SeedSequence | np.random.Generator | None = None) -> Deal:
        """A uniformly random deal.

        Parameters
        ----------
        seed : int, SeedSequence or Generator, optional
            Source of randomness (``numpy.random.default_rng(seed)``); the same whole
            number or SeedSequence always gives the same deal.  A Generator is drawn
            from (it advances), None draws fresh entropy from the operating system; the
            deal returned is the whole record of that randomness (docs/decisions.md,
            "One seed rule for every game").

        Returns
        -------
        Deal
            The 36 cards, every one known.

        Raises
        ------
        PositionError
            If `seed` is a negative integer or not a seed at all (e.g. a float or text).
        """
        order = _generator(seed, "seed").permutation(NUM_CARDS)
        return cls(tuple(DECK[i] for i in order))

    @classmethod
    def from_text(cls, text: str) -> Deal:
        """Read six lines of six cards (``??`` for an unknown face-down card).

        Blank lines and lines starting with ``#`` are ignored.  Cards are separated by
        spaces, or written together as 12 characters (``7S6H2H...``).

        Parameters
        ----------
        text : str
            The six lines, row 0 first (a leading byte-order mark is ignored).

        Returns
        -------
        Deal
            The deal, ``None`` in the cells written ``??``.

        Raises
        ------
        PositionError
            If there are not six rows of six cells.
        CardError, DuplicateCardError
            If a cell is not a card or a card repeats.
        """
        if not isinstance(text, str):
            raise PositionError(f"a deal's text is a str, got {type(text).__name__}")
        rows = [ln.strip() for ln in text.lstrip("\ufeff").splitlines()]
        rows = [ln for ln in rows if ln and not ln.startswith("#")]
        if len(rows) != 6:
            raise PositionError(f"a deal has 6 rows of 6 cards, got {count(len(rows), 'row')}")
        cells: list[Card | None] = []
        for r, line in enumerate(rows):
            tokens = line.split()
            if len(tokens) == 1 and len(line) == 12:
                tokens = [line[i : i + 2] for i in range(0, 12, 2)]
            if len(tokens) != 6:
                raise PositionError(f"row {r} has {len(tokens)} cells, expected 6: {line!r}")
            for c, tok in enumerate(tokens):
                if tok == "??":
                    cells.append(None)
                    continue
                try:
                    cells.append(DECK[parse_card(tok)])
                except CardError:
                    raise CardError(f"cell ({r},{c}): not a card: {tok!r}") from None
        return cls(tuple(cells))

    def to_text(self) -> str:
        """Six lines of six cards, ``??`` for unknown cards (inverse of :meth:`from_text`).

        Returns
        -------
        str
            Six lines of six space-separated cards, row 0 first, each line ending in a
            newline.
        """
        return "\n".join(
            " ".join(self.cells[6 * r + c] or "??" for c in range(6)) for r in range(6)
        ) + "\n"

    def position(self, rules: Reach | Rules | None = None) -> Position:
        """The fresh position: no card taken; the second player chooses the start cell.

        Parameters
        ----------
        rules : {"any", "nearest"} or Rules, optional
            The rules (or just the ``reach`` option); default :class:`Rules`.

        Returns
        -------
        Position
            As :meth:`Position.new` (RULES.md, Cross Kings, "Players").

        Raises
        ------
        RulesError
            If `rules` is not a Rules or a reach.
        """
        return Position.new(self, rules)

    def transformed(self, symmetry: str) -> Deal:
        """The same deal turned or mirrored by one of the grid's symmetries.

        The game it deals is the same game (see :data:`SYMMETRIES`): every line of play
        maps onto one with the same hands, scores and values.

        Parameters
        ----------
        symmetry : str
            One of :data:`SYMMETRIES`, e.g. ``"rot180"``.

        Returns
        -------
        Deal
            The card of cell ``i`` stands on cell ``symmetry_map(symmetry)[i]``.

        Raises
        ------
        PositionError
            If `symmetry` is not one of :data:`SYMMETRIES`.
        """
        return Deal(_moved(self.cells, symmetry_map(symmetry)))


@dataclass(frozen=True, eq=False)
class Position:
    """A Cross Kings position (RULES.md, Cross Kings: "Grid", "Move", "Hidden cards").

    Build one with :meth:`new` (from a :class:`Deal`), :meth:`from_dict`,
    :meth:`from_save_string` or :meth:`from_text`; change it with :meth:`play`.

    Every cell field (`taken`, `face_down`, `marker`, `start`, `history`) holds cell
    numbers 0..35; the constructor also takes ``(row, col)`` pairs there and keeps them
    as numbers (the rule of :func:`cell_index`; a bool, a float or text is refused with a
    :class:`~crowns_solver.errors.PositionError` naming the field).  Moves come back as
    ``(row, col)`` (:meth:`legal_moves`), or as numbers from :meth:`legal_indices`.
    The card fields (`cells`, `first_hand`, `second_hand`) hold card numbers (the index
    in :data:`~crowns_solver.cross_kings.cards.DECK`); a list or NumPy integers are kept
    as a tuple of int, anything else is refused with a PositionError naming the field
    and the item.

    Two positions are equal (and hash alike) when they are the same game: the same
    :meth:`to_dict` but for ``names``.  The display names (``rules.names``) are kept,
    written to JSON and read back, but they change nothing in the game, so a position
    named "Ann"/"Bob" equals the same position with other names or none.

    Attributes
    ----------
    cells : tuple of int, length 36
        Card index of each cell as dealt, or -1 for a face-down card not known.
        Taken cells keep their card (see `taken`).
    taken : frozenset of int
        Cells whose card has been taken.
    face_down : frozenset of int
        Cells still face down (dealt face down and not taken).
    marker : int or None
        The marker's cell; None before the second player has chosen the start cell.

    to_move : {"first", "second"}
        The player to move (before the start, "second", who chooses the start cell).
    first_hand, second_hand : tuple of int
        Card indices taken by each player, in the order taken.
    rules : Rules
        The rules options (``reach``, display names).
    start : int or None
        The start cell, when known.
    history : tuple of int or None
        Cells taken so far in order, when known (needed to write a save string).
    hidden_order : tuple of int or None
        Order in which a save string listed the unrevealed face-down cards (kept so the
        string is written back byte-identical).
    """

    cells: tuple[int, ...]
    taken: frozenset[int]
    face_down: frozenset[int]
    marker: int | None
    to_move: Player
    first_hand: tuple[int, ...]
    second_hand: tuple[int, ...]
    rules: Rules = field(default_factory=Rules)
    start: int | None = None
    history: tuple[int, ...] | None = None
    hidden_order: tuple[int, ...] | None = None

    # ------------------------------------------------------------------ construction

    def __post_init__(self) -> None:
        self._cards_as_numbers()
        self._cells_as_numbers()
        self._validate()

    def _cards_as_numbers(self) -> None:
        """Keep `cells` and the hands as tuples of plain card numbers (``-1`` only in
        `cells`, for a face-down card not known), refusing anything else naming the field
        and the item: until session 23 ``dataclasses.replace(pos, cells=5)`` raised a
        TypeError (``len()`` of an int) and ``first_hand=5`` another."""
        for name, lo in (("cells", UNKNOWN), ("first_hand", 0), ("second_hand", 0)):
            value = getattr(self, name)
            if type(value) is tuple and all(type(i) is int and lo <= i < NUM_CARDS for i in value):
                continue
            if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
                raise PositionError(f"{name} must be a list of card numbers 0..{NUM_CARDS - 1}"
                                    f"{' (-1 for a card not known)' if lo < 0 else ''}, got {value!r}")
            out = []
            for k, i in enumerate(value):
                if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)) or not lo <= i < NUM_CARDS:
                    raise PositionError(f"{name}[{k}]: not a card number {lo}..{NUM_CARDS - 1}: {i!r}")
                out.append(int(i))
            object.__setattr__(self, name, tuple(out))

    def _cells_as_numbers(self) -> None:
        """Keep every cell field as plain cell numbers, whatever form it was given in.

        The cells of `marker`, `start`, `history`, `taken` and `face_down` may be given as
        numbers or ``(row, col)`` (the one rule of :func:`cell_index`); a bool, a float or
        text is refused naming the field.  Until session 23 a pair as the marker raised a
        TypeError, a float marker (``16.0``) was kept, and NumPy integers in `history`
        were kept as such, so :meth:`to_dict` was not JSON and ``hash()`` failed.
        """
        def plain(i: object) -> bool:
            return type(i) is int and 0 <= i < 36  # type: ignore[operator]

        for name in ("marker", "start"):
            value = getattr(self, name)
            if value is not None and not plain(value):
                object.__setattr__(self, name, _cell_field(value, name))
        if self.history is not None and not (type(self.history) is tuple and all(map(plain, self.history))):
            if isinstance(self.history, (str, bytes, Mapping)) or not isinstance(self.history, Iterable):
                raise PositionError(f"history must be a list of cells, got {self.history!r}")
            object.__setattr__(self, "history",
                               tuple(_cell_field(c, f"history[{k}]") for k, c in enumerate(self.history)))
        for name in ("taken", "face_down"):
            value = getattr(self, name)
            if not (type(value) is frozenset and all(map(plain, value))):
                if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
                    raise PositionError(f"{name} must be a set of cells, got {value!r}")
                object.__setattr__(self, name, frozenset(_cell_field(c, name) for c in value))

    def _validate(self) -> None:
        if len(self.cells) != 36:
            raise PositionError(f"the grid has {len(self.cells)} cells, expected 36 (6x6)")
        object.__setattr__(self, "to_move", check_choice("to_move", self.to_move, PLAYERS, PositionError, argument=None))
        seen: dict[int, str] = {}

        def claim(idx: int, where: str) -> None:
            if idx in seen:
                raise DuplicateCardError(f"duplicate card {DECK[idx]} ({seen[idx]} and {where})")
            seen[idx] = where

        for i, idx in enumerate(self.cells):
            if idx == UNKNOWN:
                if i not in self.face_down:
                    r, c = cell_coords(i)
                    raise PositionError(f"cell ({r},{c}) has no known card but is not face down")
                continue
            if i in self.taken:
                continue  # its card is in a hand
            if idx is not None:
                claim(idx, f"cell {cell_text(i)}")
        for name, hand in (("first_hand", self.first_hand), ("second_hand", self.second_hand)):
            for idx in hand:
                claim(idx, name)
        for i in self.face_down:
            if i not in FACE_DOWN_CELLS:
                r, c = cell_coords(i)
                raise PositionError(f"cell ({r},{c}) is not on a diagonal, so it cannot be face down")
            if i in self.taken:
                r, c = cell_coords(i)
                raise PositionError(f"cell ({r},{c}) is both taken and face down")
        unknown = sum(1 for i, idx in enumerate(self.cells) if idx == UNKNOWN and i not in self.taken)
        if len(seen) + unknown != NUM_CARDS:
            raise PositionError(
                f"the position holds {len(seen)} known cards and {unknown} unknown face-down"
                f" cards; Cross Kings has {NUM_CARDS}"
            )
        n1, n2 = len(self.first_hand), len(self.second_hand)
        if len(self.taken) != n1 + n2:
            raise PositionError(
                f"{len(self.taken)} cells are taken but the hands hold {n1 + n2} cards"
            )
        if self.marker is None:
            if n1 or n2 or self.to_move != "second":
                raise PositionError("without a marker, no card may be taken yet and 'second' chooses the start")
            if self.start is not None:
                r, c = cell_coords(self.start)
                raise PositionError(f"the start cell is ({r},{c}) but there is no marker: the marker"
                                    " stands on the start cell once it is chosen")
        else:
            if not 0 <= self.marker < 36:
                raise PositionError(f"marker on no such cell: {self.marker!r}")
            if not (n1 or n2):
                # before the first card is taken the marker stands on the start cell
                r, c = cell_coords(self.marker)
                if self.marker not in CENTRAL_CELLS:
                    raise PositionError(
                        f"the marker is on cell ({r},{c}) but no card has been taken: the marker"
                        " starts on a central cell (2,2), (2,3), (3,2) or (3,3)")
                if self.start is not None and self.start != self.marker:
                    rs, cs = cell_coords(self.start)
                    raise PositionError(
                        f"the marker is on cell ({r},{c}) but the start cell is ({rs},{cs}):"
                        " before the first card is taken the marker stands on the start cell")
            if self.to_move == "first" and n1 != n2 or self.to_move == "second" and n1 != n2 + 1:
                raise PositionError(
                    f"{self.to_move} cannot be to move with {n1} cards in first_hand and"
                    f" {n2} in second_hand (first moves first, then turns alternate)"
                )
            if self.marker not in self.taken and (n1 or n2):
                r, c = cell_coords(self.marker)
                raise PositionError(
                    f"the marker is on cell ({r},{c}), which still holds a card, but cards"
                    " have been taken (after a move the marker stands on the cell just taken)"
                )
        if self.start is not None and self.start not in CENTRAL_CELLS:
            r, c = cell_coords(self.start)
            raise PositionError(f"the start cell must be a central cell (2,2), (2,3), (3,2) or (3,3), got ({r},{c})")
        if self.history is not None:
            if len(self.history) != n1 + n2 or set(self.history) != set(self.taken):
                raise PositionError("history does not match the cards taken")
            self._check_history()

    def _check_history(self) -> None:
        """Every move of `history` legal from the one before (from the start cell when
        known; otherwise the first move from at least one central cell) and the last one
        where the marker stands."""
        taken: set[int] = set()
        at = self.start
        if at is None and self.history and not any(
                self.history[0] in _legal_cells(c, taken, self.reach) for c in CENTRAL_CELLS):
            r, c = cell_coords(self.history[0])
            raise PositionError(
                f"history: move 1, ({r},{c}), is not legal from any start cell (2,2), (2,3), (3,2)"
                f" or (3,3) (reach {self.reach}): the moves must be listed in the order played")
        for k, cell in enumerate(self.history or ()):
            if at is not None and cell not in _legal_cells(at, taken, self.reach):
                r, c = cell_coords(cell)
                ra, ca = cell_coords(at)
                raise PositionError(
                    f"history: move {k + 1}, ({r},{c}), is not legal with the marker on ({ra},{ca})"
                    f" (reach {self.reach}): the moves must be listed in the order played"
                )
            taken.add(cell)
            at = cell
        if self.history and self.marker != self.history[-1]:
            raise PositionError("history: the marker must stand on the cell of the last move")

    @classmethod
    def new(cls, deal: Deal, rules: Reach | Rules | None = None) -> Position:
        """The fresh position of a deal: nothing taken, 'second' chooses the start cell.

        Parameters
        ----------
        deal : Deal
            The cards of the 36 cells (unknown face-down cards stay unknown).
        rules : {"any", "nearest"} or Rules, optional
            The rules (or just the ``reach`` option); default :class:`Rules`.

        Returns
        -------
        Position
            No card taken, no marker, ``to_move == "second"`` (RULES.md, Cross Kings,
            "Players": the second player chooses the start cell).

        Raises
        ------
        PositionError
            If `deal` is not a :class:`Deal` (a save string or None raised an
            AttributeError until the session-18 probe: read text with
            :meth:`from_text`).
        RulesError
            If `rules` is not a Rules or a reach.
        """
        if not isinstance(deal, Deal):
            raise PositionError(f"Position.new takes a Deal, got {type(deal).__name__}"
                                + (" (read a save string or a deal's text with Position.from_text)"
                                   if isinstance(deal, str) else ""))
        cells = tuple(UNKNOWN if c is None else parse_card(c) for c in deal.cells)
        return cls(
            cells=cells,
            taken=frozenset(),
            face_down=FACE_DOWN_CELLS,
            marker=None,
            to_move="second",
            first_hand=(),
            second_hand=(),
            rules=_rules(rules),
            history=(),
        )

    @classmethod
    def random(
        cls,
        seed: int | np.random.SeedSequence | np.random.Generator | None = None,
        rules: Reach | Rules | None = None,
    ) -> Position:
        """Fresh position of :meth:`Deal.random` (seeded).

        Parameters
        ----------
        seed : int, SeedSequence or Generator, optional
            Source of randomness, as for :meth:`Deal.random`.
        rules : {"any", "nearest"} or Rules, optional
            The rules (or just the ``reach`` option); default :class:`Rules`.

        Returns
        -------
        Position
            As :meth:`new` for the random deal.

        Raises
        ------
        PositionError
            If `seed` is a negative integer or not a seed at all.
        RulesError
            If `rules` is not a Rules or a reach.
        """
        return cls.new(Deal.random(seed), rules)

    # ------------------------------------------------------------------ queries

    @property
    def reach(self) -> Reach:
        """The ``reach`` rules option."""
        return self.rules.reach

    @property
    def grid(self) -> tuple[Card | None, ...]:
        """Card text of each cell still holding a card ("??" if unknown), None if taken."""
        return tuple(
            None if i in self.taken else ("??" if idx == UNKNOWN else DECK[idx])
            for i, idx in enumerate(self.cells)
        )

    @property
    def cards_left(self) -> int:
        """Number of cards still on the grid."""
        return 36 - len(self.taken)

    def hand(self, player: Player) -> tuple[Card, ...]:
        """Cards held by `player`, in the order taken.

        Parameters
        ----------
        player : {"first", "second"}
            Whose hand.

        Returns
        -------
        tuple of str
            Card texts such as ``"7D"``.

        Raises
        ------
        PositionError
            If `player` is not "first" or "second".
        """
        player = check_choice("player", player, PLAYERS, PositionError, argument=None)
        hand = self.first_hand if player == "first" else self.second_hand
        return tuple(DECK[i] for i in hand)

    @property
    def unseen(self) -> tuple[Card, ...]:
        """Cards no player has seen: the deck minus every card face up or taken (sorted)."""
        visible = {idx for i, idx in enumerate(self.cells) if idx != UNKNOWN and i not in self.face_down}
        return tuple(DECK[i] for i in range(NUM_CARDS) if i not in visible)

    def unknown_pool(self) -> tuple[int, ...]:
        """Card indices that may lie in the face-down cells whose card is not known.

        Returns
        -------
        tuple of int
            Indices 0..35 (see :mod:`~crowns_solver.cross_kings.cards`), increasing: every
            card not on the grid known and not in a hand.  A taken unknown cell draws
            from these uniformly (RULES.md, Cross Kings, "Hidden cards").
        """
        known = {idx for i, idx in enumerate(self.cells) if idx != UNKNOWN and i not in self.taken}
        known.update(self.first_hand)
        known.update(self.second_hand)
        return tuple(i for i in range(NUM_CARDS) if i not in known)

    def is_known(self) -> bool:
        """Whether every card on the grid is known (as the open value requires).

        Returns
        -------
        bool
            True when no cell still on the grid holds an unknown card.
        """
        return all(self.cells[i] != UNKNOWN for i in range(36) if i not in self.taken)

    def _legal(self) -> list[int]:
        if self.marker is None:
            return list(CENTRAL_CELLS)
        return _legal_cells(self.marker, self.taken, self.reach)

    def legal_moves(self) -> list[Cell]:
        """Legal moves as ``(row, col)`` cells, sorted.

        Before the start, these are the four central cells (the second player's choice of
        start cell).  Otherwise, the cells of the marker's row and column that still hold
        a card (RULES.md "Move"; under reach "nearest", only the nearest in each direction).

        Returns
        -------
        list of (int, int)
            ``(row, col)`` cells in increasing cell-number order; empty when the game is over.
        """
        return [cell_coords(i) for i in self._legal()]

    def legal_indices(self) -> list[int]:
        """Legal moves as cell numbers 0..35, sorted: :meth:`legal_moves` in the form of
        the position's own fields (`marker`, `start`, `history`, `taken`).

        Returns
        -------
        list of int
            ``[cell_index(m) for m in self.legal_moves()]``, increasing; empty when the
            game is over (RULES.md, Cross Kings, "Move").
        """
        return list(self._legal())

    def is_terminal(self) -> bool:
        """Whether the game is over: the player to move has no legal move.

        Returns
        -------
        bool
            True once the start cell is chosen and no legal move is left (RULES.md,
            Cross Kings, "End").
        """
        return self.marker is not None and not self._legal()

    def scores(self) -> tuple[int, int]:
        """Current scores (first, second) of the two hands (RULES.md scoring).

        Returns
        -------
        tuple of (int, int)
            Points of the first and of the second player's hand, by :func:`score_hand`
            (RULES.md, Cross Kings, "Scoring one hand").
        """
        from .scoring import score_hand

        return score_hand(self.first_hand), score_hand(self.second_hand)

    def margin(self) -> int:
        """score(first) - score(second) of the hands as they stand.

        Returns
        -------
        int
            The margin in points, from the first player's point of view (RULES.md,
            Cross Kings, "Outcome").
        """
        a, b = self.scores()
        return a - b

    # ------------------------------------------------------------------ moves

    def play(
        self,
        cell: Cell | int,
        card: str | int | None = None,
        *,
        rng: np.random.Generator | int | None = None,
    ) -> Position:
        """The position after the player to move takes the card at `cell`.

        Parameters
        ----------
        cell : (row, col) or int
            Destination cell; before the start, the start cell chosen by "second".
        card : str or int, optional
            For a face-down cell whose card is unknown: the card it reveals.  Must be one
            of :meth:`unknown_pool`.  For a known cell it may be given and must match.
        rng : numpy Generator, SeedSequence or int, optional
            When `card` is not given for an unknown face-down cell, the card is drawn
            uniformly from :meth:`unknown_pool` with this generator (or seed; None:
            fresh entropy).

        Returns
        -------
        Position
            A new position (this one is unchanged): the card in the mover's hand, the
            marker on `cell`, the other player to move.

        Raises
        ------
        IllegalMoveError
            If the move is not legal here, the game is over, or `card` is impossible.
        CardError
            If `card` is not a Cross Kings card.
        PositionError
            If `cell` is not a cell, or `rng` is not a Generator, a SeedSequence or a
            non-negative whole number.
        """
        idx = cell_index(cell)
        _check_seed(rng, "rng")
        legal = self._legal()
        if idx not in legal:
            r, c = cell_coords(idx)
            why = "the game is over" if not legal else (
                "legal: " + " ".join(cell_text(i) for i in legal)
            )
            raise IllegalMoveError(f"illegal move ({r},{c}) for {self.to_move}: {why}")
        if self.marker is None:
            if card is not None:
                raise IllegalMoveError("choosing the start cell takes no card")
            return replace(self, marker=idx, to_move="first", start=idx)
        known = self.cells[idx]
        if known == UNKNOWN:
            pool = self.unknown_pool()
            if card is None:
                gen = _generator(rng, "rng")
                got = int(pool[int(gen.integers(len(pool)))])
            else:
                got = parse_card(card)
                if got not in pool:
                    raise IllegalMoveError(
                        f"cell {cell_text(idx)} cannot reveal {DECK[got]}: it is not unseen"
                        f" (unseen: {' '.join(DECK[i] for i in pool)})"
                    )
        else:
            got = known
            if card is not None and parse_card(card) != known:
                raise IllegalMoveError(
                    f"cell {cell_text(idx)} holds {DECK[known]}, not {DECK[parse_card(card)]}"
                )
        cells = list(self.cells)
        cells[idx] = got
        hidden = self.hidden_order
        if hidden is not None and idx in self.face_down:
            hidden = tuple(h for h in hidden if h != got)
        first, second = self.first_hand, self.second_hand
        if self.to_move == "first":
            first = first + (got,)
        else:
            second = second + (got,)
        return replace(
            self,
            cells=tuple(cells),
            taken=self.taken | {idx},
            face_down=self.face_down - {idx},
            marker=idx,
            to_move=_other(self.to_move),
            first_hand=first,
            second_hand=second,
            history=None if self.history is None else self.history + (idx,),
            hidden_order=hidden,
        )

    def transformed(self, symmetry: str) -> Position:
        """The same position turned or mirrored by one of the grid's symmetries.

        Every cell (the cards, the taken and face-down cells, the marker, the start cell
        and the move record) is moved by :func:`symmetry_map`; hands, the player to move
        and the rules are unchanged.  The result is the same game: its legal moves are the
        images of these, and its scores and its open and game values are equal (checked
        in tests/test_cross_kings_symmetry.py).

        Parameters
        ----------
        symmetry : str
            One of :data:`SYMMETRIES`, e.g. ``"rot180"``.

        Returns
        -------
        Position
            The image of this position (see above).

        Raises
        ------
        PositionError
            If `symmetry` is not one of :data:`SYMMETRIES`.
        """
        m = symmetry_map(symmetry)
        return replace(
            self,
            cells=_moved(self.cells, m),
            taken=frozenset(m[i] for i in self.taken),
            face_down=frozenset(m[i] for i in self.face_down),
            marker=None if self.marker is None else m[self.marker],
            start=None if self.start is None else m[self.start],
            history=None if self.history is None else tuple(m[i] for i in self.history),
        )

    # ------------------------------------------------------------------ JSON

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form, the shape of ``cross_kings_endgames.json`` positions.

        Keys: ``grid`` (36 entries: card, ``"??"`` for an unknown face-down card, or None
        for a taken cell), ``marker`` (cell number or None), ``to_move``, ``first_hand``,
        ``second_hand``, ``reach``; plus ``face_down`` (cells still face down) when there
        are any, ``start`` and ``history`` (cell numbers) when known, and ``names``
        (``{"first": ..., "second": ...}``, the display names of ``rules.names``) when
        they are not the default "first" and "second" (not written before session 24).

        Returns
        -------
        dict
            The keys above, with JSON values only (str, int, None and lists).
        """
        d: dict[str, Any] = {
            "grid": list(self.grid),
            "marker": self.marker,
            "to_move": self.to_move,
            "first_hand": list(self.hand("first")),
            "second_hand": list(self.hand("second")),
            "reach": self.reach,
        }
        if self.face_down:
            d["face_down"] = sorted(self.face_down)
        if self.start is not None:
            d["start"] = self.start
        if self.history is not None and self.start is not None:
            d["history"] = list(self.history)
            # taken cells' cards are in the hands; the dealt face-down cards taken so far
            # are recoverable from history, so nothing else is needed to replay
        if self.rules.names != DEFAULT_NAMES:
            d["names"] = dict(zip(PLAYERS, self.rules.names))
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], rules: Rules | None = None) -> Position:
        """Inverse of :meth:`to_dict`.

        Cells given as None are taken; the hands hold those cards (which taken cell held
        which card is known only when ``history`` is given).  Without ``face_down``, no
        cell is face down.  A cell (``marker``, ``start``, each of ``face_down`` and
        ``history``) is a whole number 0..35 or ``[row, col]`` with whole numbers 0..5:
        ``14.0``, ``[2.0, 2]``, ``true`` or ``"14"`` are refused, naming the field.

        A key that is none of :data:`POSITION_KEYS` and :data:`POSITION_EXTRA_KEYS` (the
        keys other writers add: ``play``'s ``seed``, ``show --json``'s ``legal_moves``...,
        which are left alone) is refused, naming it and the close known key: until
        session 24 unknown keys were skipped, so a misspelt ``"facedown"`` turned every
        diagonal card face up and ``"histroy"`` lost the move record, silently.

        Parameters
        ----------
        d : mapping
            A position as :meth:`to_dict` writes it.
        rules : Rules, optional
            Rules options other than ``reach``: the names, unless ``d`` has its own
            ``names``, which win (as its ``reach`` always does: default ``"any"``).

        Returns
        -------
        Position
            The position described.

        Raises
        ------
        PositionError, CardError, DuplicateCardError
            If the dict does not describe a possible position (e.g. a cell that is not
            a whole number: ``marker: no such cell: [4.0, 1.0] (...)``), or has a key it
            does not know (``position: unknown key 'facedown' (did you mean
            'face_down'?); ...``), or ``names`` is not an object with the keys "first"
            and "second".  A field's value is shown in JSON's words (``to_move must be
            'first' or 'second', got null``; ``True`` and ``None`` until session 24).
        RulesError
            If ``d["reach"]`` is not a reach (``reach must be 'any' or 'nearest', got
            null``; the error carries no argument, so the ``crowns`` command does not
            name its ``--reach`` for it), or ``d["names"]`` are not two valid, different
            names (the rule of :class:`Rules`), naming the entry at fault
            (``names.first must be a non-empty string, got 5``).
        """
        if not isinstance(d, Mapping):
            raise PositionError(f"a position is a JSON object, got {type(d).__name__}")
        from .._io import check_numbers

        problem = unknown_keys(d, POSITION_KEYS, "a position", POSITION_EXTRA_KEYS,
                               "which play's save FILE and show --json add")
        if problem is not None:
            raise PositionError(f"position: {problem}")
        check_numbers(dict(d), PositionError, "position: ")
        for key in ("grid", "marker", "to_move", "first_hand", "second_hand"):
            if key not in d:
                raise PositionError(f"position is missing the key {key!r}")
        grid = d["grid"]
        if not isinstance(grid, Sequence) or isinstance(grid, str) or len(grid) != 36:
            n = len(grid) if isinstance(grid, Sequence) and not isinstance(grid, str) else _json_kind(grid)
            raise PositionError(f"grid must list 36 cells (6x6), got {n}")
        reach = d.get("reach", "any")
        if not is_choice(reach, REACHES):
            # the file's key, in JSON's words and carrying no argument: the command must not
            # name its --reach for it (it said "--reach must be ..., got None" until session 24)
            raise RulesError(f"reach must be {one_of(REACHES)}, got {_json_value(reach)}")
        rules = replace(rules, reach=reach) if rules is not None else Rules(reach=reach)
        if "names" in d:
            names = d["names"]
            if not isinstance(names, Mapping):
                raise PositionError('names must be an object {"first": NAME, "second": NAME},'
                                    f" got {_json_kind(names)}")
            problem = unknown_keys(names, PLAYERS, "names")
            if problem is not None:
                raise PositionError(f"names: {problem}")
            for player in PLAYERS:
                if player not in names:
                    raise PositionError(f"names: missing the name of {player!r}")
                # each entry by its key (until session 24: "names must be two non-empty
                # strings, got (5, 'Bob')", a Python tuple, not saying which)
                name = names[player]
                if not isinstance(name, str) or not name:
                    raise RulesError(f"names.{player} must be a non-empty string, got {_json_value(name)}")
                problem = name_problem(name)
                if problem is not None:
                    raise RulesError(f"names.{player}: {problem}")
            rules = replace(rules, names=tuple(names[p] for p in PLAYERS))
        for key in ("first_hand", "second_hand"):
            hand = d[key]
            if not isinstance(hand, Sequence) or isinstance(hand, str):
                raise CardError(f"{key}: expected a list of cards, got {_json_kind(hand)}")
            for j, item in enumerate(hand):   # true / null in JSON's words (said True / None)
                if isinstance(item, bool) or not isinstance(item, (str, int, np.integer)):
                    raise CardError(f"{key}[{j}]: not a Cross Kings card: {_json_value(item)}")
        if not is_choice(d["to_move"], PLAYERS):
            raise PositionError(f"to_move must be {one_of(PLAYERS)}, got {_json_value(d['to_move'])}")
        first = parse_cards(d["first_hand"], what="first_hand")
        second = parse_cards(d["second_hand"], what="second_hand")
        history = d.get("history")
        start = d.get("start")
        fd = d.get("face_down", ())
        if not isinstance(fd, Sequence) or isinstance(fd, str):
            raise PositionError(f"face_down must be a list of cells, got {_json_kind(fd)}")
        face_down = frozenset(_json_cell(c, f"face_down[{k}]") for k, c in enumerate(fd))
        cells = [UNKNOWN] * 36
        taken: set[int] = set()
        for i, item in enumerate(grid):
            if item is None:
                taken.add(i)
            elif item == "??":
                cells[i] = UNKNOWN
                if i not in face_down:
                    face_down = face_down | {i}
            else:
                try:
                    cells[i] = parse_card(item)
                except CardError:
                    raise CardError(f"grid cell {cell_text(i)}: not a card: {item!r}") from None
        if len(taken) != len(first) + len(second):
            raise PositionError(
                f"the grid has {len(taken)} taken cells (null) but the hands hold"
                f" {len(first) + len(second)} cards"
            )
        marker = d["marker"]
        marker = None if marker is None else _json_cell(marker, "marker")
        if history is not None:
            if not isinstance(history, Sequence) or isinstance(history, str):
                raise PositionError(f"history must be a list of cells, got {_json_kind(history)}")
            history = tuple(_json_cell(c, f"history[{k}]") for k, c in enumerate(history))
            if len(history) != len(first) + len(second):
                raise PositionError("history does not match the cards in the hands")
            if len(first) != (len(history) + 1) // 2:
                raise PositionError(
                    f"history has {len(history)} moves, so first took {(len(history) + 1) // 2} cards"
                    f" and second {len(history) // 2} (first moves first, then turns alternate),"
                    f" but the hands hold {len(first)} and {len(second)}"
                )
            order = [first[j // 2] if j % 2 == 0 else second[j // 2] for j in range(len(history))]
            for cell, idx in zip(history, order):
                cells[cell] = idx
        else:
            # which taken cell held which card is unknown: park the hands' cards on the
            # taken cells in order, so every card has a place
            for cell, idx in zip(sorted(taken), first + second):
                cells[cell] = idx
        return cls(
            cells=tuple(cells),
            taken=frozenset(taken),
            face_down=face_down,
            marker=marker,
            to_move=d["to_move"],
            first_hand=tuple(first),
            second_hand=tuple(second),
            rules=rules,
            start=None if start is None else _json_cell(start, "start"),
            history=history,
        )

    # ------------------------------------------------------------------ save strings

    @classmethod
    def from_save_string(cls, save: str, rules: Reach | Rules | None = None) -> Position:
        """Read a crosskings.net save string (RULES.md "Interchange").

        Format: six rows of six two-character cells joined by ``/`` (a card, or ``??``
        for a card still face down; taken cells still show their card), ``//``, the
        face-down cards not yet revealed concatenated, ``//``, one digit per move: the
        index of the chosen cell among the 10 other cells of the marker's row and column,
        sorted, starting from the start cell (2, 2).

        Parameters
        ----------
        save : str
            The save string (surrounding white space ignored).
        rules : {"any", "nearest"} or Rules, optional
            The rules (or just the ``reach`` option); default :class:`Rules`.  The
            format carries no rules options: crosskings.net plays reach "any".

        Returns
        -------
        Position
            The position after the moves, with its start (2, 2) and move history.

        Raises
        ------
        RulesError
            If `rules` is not a Rules or a reach.
        SaveStringError
            If a part is malformed: a bad cell, a card missing or repeated, a ``??`` off
            the diagonals, a move digit that points to an empty cell or is not a digit,
            or move digits after the game is over.
        """
        rules = _rules(rules)
        if not isinstance(save, str):
            raise SaveStringError(f"a save string is text, got {type(save).__name__}")
        text = save.strip()
        parts = text.split("//")
        if len(parts) != 3:
            raise SaveStringError(
                f"a save string has three parts separated by '//', got {len(parts)}: {save!r}"
            )
        grid_part, hidden_part, moves_part = parts
        rows = grid_part.split("/")
        if len(rows) != 6:
            if not grid_part.strip():   # '////' said "the grid has 1 rows" (session 23)
                raise SaveStringError("the grid (before the first '//') is empty: expected 6 rows of 6 cards"
                                      " separated by '/'")
            raise SaveStringError(f"the grid has {count(len(rows), 'row')}, expected 6"
                                  " (separated by '/')")
        cells = [UNKNOWN] * 36
        face_down: set[int] = set()
        seen: dict[int, str] = {}

        def claim(tok: str, where: str, not_a_card: str) -> int:
            """Parse one card of the save string, refusing repeats."""
            try:
                idx = parse_card(tok)
            except CardError:
                raise SaveStringError(not_a_card) from None
            if idx in seen:
                places = f"in {where}" if seen[idx] == where else f"({seen[idx]} and {where})"
                raise SaveStringError(f"card {DECK[idx]} appears twice {places}")
            seen[idx] = where
            return idx

        for r, row in enumerate(rows):
            if len(row) != 12:
                raise SaveStringError(f"grid row {r} is {row!r}: expected 6 two-character cells")
            for c in range(6):
                tok = row[2 * c : 2 * c + 2]
                i = 6 * r + c
                if tok == "??":
                    if i not in FACE_DOWN_CELLS:
                        raise SaveStringError(f"cell ({r},{c}) is '??' but is not on a diagonal")
                    face_down.add(i)
                    continue
                cells[i] = claim(tok, f"cell ({r},{c})", f"cell ({r},{c}) is {tok!r}, not a card or '??'")
        if len(hidden_part) % 2:
            raise SaveStringError(f"the face-down card list {hidden_part!r} has an odd length")
        hidden: list[int] = []
        for j in range(0, len(hidden_part), 2):
            tok = hidden_part[j : j + 2]
            hidden.append(claim(tok, "the face-down list", f"face-down card list: {tok!r} is not a card"))
        if len(hidden) != len(face_down):
            raise SaveStringError(
                f"{len(face_down)} cells are '??' but the face-down list has {len(hidden)} cards"
            )
        if len(seen) != NUM_CARDS:
            missing = [DECK[i] for i in range(NUM_CARDS) if i not in seen]
            raise SaveStringError(f"cards missing from the save string: {' '.join(missing)}")
        pos = cls(
            cells=tuple(cells),
            taken=frozenset(),
            face_down=frozenset(face_down),
            marker=SAVE_START,
            to_move="first",
            first_hand=(),
            second_hand=(),
            rules=rules,
            start=SAVE_START,
            history=(),
            hidden_order=tuple(hidden),
        )
        for n, ch in enumerate(moves_part):
            if ch not in "0123456789":
                raise SaveStringError(f"move {n + 1}: {ch!r} is not a move digit")
            assert pos.marker is not None
            if pos.is_terminal():
                extra = len(moves_part) - n
                raise SaveStringError(
                    f"move {n + 1}: the game is already over after move {n} ({pos.to_move} has no"
                    f" legal move), but {extra} more move digit{'s follow' if extra > 1 else ' follows'}")
            target = line_cells(pos.marker)[int(ch)]
            r, c = cell_coords(target)
            if target in pos.taken:
                raise SaveStringError(f"move {n + 1}: digit {ch} points to cell ({r},{c}), which is empty")
            if target in face_down:
                raise SaveStringError(
                    f"move {n + 1}: takes cell ({r},{c}), which the grid still shows as '??'"
                )
            try:
                pos = pos.play(target)
            except IllegalMoveError as exc:
                raise SaveStringError(f"move {n + 1}: digit {ch}: {exc}") from None
        for i in sorted(FACE_DOWN_CELLS):
            if i not in face_down and i not in pos.taken:
                r, c = cell_coords(i)
                raise SaveStringError(
                    f"cell ({r},{c}) is on a diagonal and shows {DECK[cells[i]]}, but no move took it"
                    " (diagonal cells show '??' until taken)"
                )
        return pos

    def to_save_string(self) -> str:
        """Write the crosskings.net save string of this position (inverse of :meth:`from_save_string`).

        Returns
        -------
        str
            The save string (RULES.md, Cross Kings, "Interchange").

        Raises
        ------
        PositionError
            If the position cannot be written as a save string: the start cell is not
            (2, 2), the move history is not known, or the rules option reach is not
            "any" (the format carries no rules options, and reading one assumes "any").
        """
        if self.start != SAVE_START or self.history is None or self.marker is None:
            if self.start is not None and self.start != SAVE_START and self.history is not None:
                r, c = cell_coords(self.start)
                why = f"this game started at ({r},{c}); crosskings.net games always start at (2,2)"
            else:
                why = "this position has no such history"
            raise PositionError(
                f"a save string needs the game from its start at (2,2) with every move known ({why})"
            )
        if self.reach != "any":
            # the format has no place for rules options: read back, the game would be
            # replayed and solved under reach "any" (crosskings.net's rule), silently
            raise PositionError(
                f"a save string cannot carry reach {self.reach!r}: it is read back under reach 'any',"
                " crosskings.net's rule, which would change the game; keep it as JSON (Position.to_dict)")
        if any(self.cells[i] == UNKNOWN for i in self.taken):
            raise PositionError("a taken cell's card is unknown")
        rows = []
        for r in range(6):
            row = ""
            for c in range(6):
                i = 6 * r + c
                row += "??" if i in self.face_down else DECK[self.cells[i]]
            rows.append(row)
        if self.hidden_order is not None:
            hidden = self.hidden_order
        else:
            hidden = tuple(self.cells[i] for i in sorted(self.face_down) if self.cells[i] != UNKNOWN)
            if len(hidden) != len(self.face_down):
                hidden = tuple(parse_card(c) for c in self.unseen)
        digits = []
        at = SAVE_START
        for cell in self.history:
            digits.append(str(line_cells(at).index(cell)))
            at = cell
        return "/".join(rows) + "//" + "".join(DECK[i] for i in hidden) + "//" + "".join(digits)

    # ------------------------------------------------------------------ text

    @classmethod
    def from_text(cls, text: str, rules: Reach | Rules | None = None) -> Position:
        """Read a position from text: a save string, a JSON object, or a deal (six lines).

        Lines starting with ``#`` are comments, before a save string as in a deal.

        Parameters
        ----------
        text : str
            A save string (:meth:`from_save_string`), a JSON object (:meth:`from_dict`,
            or an object whose ``"position"`` key holds one, as ``solve --json`` and
            ``analyse --json`` write it: its other keys are not read), or a deal's six
            lines (:meth:`Deal.from_text`; the fresh position of that deal).  An object
            ``{"position": "<save string>"}`` is read as that save string given alone,
            under `rules` (since session 24; a save string carries no rules options), and
            may then hold no other key: a ``"reach"`` beside it would go unread.
        rules : {"any", "nearest"} or Rules, optional
            The rules (or just the ``reach`` option); a JSON object's own ``reach`` and
            ``names`` win over this one's.

        Returns
        -------
        Position
            The position read.

        Raises
        ------
        SaveStringError, PositionError, CardError, DuplicateCardError
            If the text is none of these or describes an impossible position; an object's
            ``"position"`` that is neither an object nor a save string (``"position" must
            hold a position: ...``), or a save string there with other keys beside it.
        RulesError
            If `rules` is not a Rules or a reach, or a JSON object's ``reach`` is not one.
        """
        if not isinstance(text, str):
            raise PositionError(f"a position's text is a str, got {type(text).__name__}")
        stripped = text.strip().lstrip("\ufeff").strip()   # a byte-order mark from some editors
        if stripped.startswith("{"):
            try:
                from .._io import json_int

                data = json.loads(stripped, parse_int=json_int)
            except json.JSONDecodeError as exc:
                raise PositionError(f"not valid JSON: {exc}") from None
            except RecursionError:
                raise PositionError("not a position: the JSON is nested too deeply") from None
            if isinstance(data, Mapping) and "position" in data:   # a wrapper (solve/analyse --json)
                inner = data["position"]
                if isinstance(inner, str) and "//" in inner:
                    # a save string there is read as if given alone (session 24; it said
                    # "unknown key 'position'"); keys beside it would be silently unread
                    # (a "reach" the format cannot carry), so there may be none
                    others = [key for key in data if key != "position"]
                    if others:
                        raise PositionError(
                            "a save string in \"position\" is read on its own (a save string carries no"
                            " rules options: the reach given to the command, default 'any'), so the object"
                            f" may hold no other key, got {', '.join(map(repr, others))}: give the save string"
                            " alone, or the position as a JSON object")
                    return cls.from_save_string(inner, rules)
                if not isinstance(inner, Mapping):
                    raise PositionError(
                        "\"position\" must hold a position: a JSON object (as solve --json and analyse --json"
                        f" write it) or a save string, got {_json_kind(inner)}")
                data = inner
            pos = cls.from_dict(data)
            if rules is not None:
                # the object's own rules options (reach, names) win over `rules`
                own = {key: getattr(pos.rules, key) for key in ("reach", "names") if key in data}
                pos = replace(pos, rules=replace(_rules(rules), **own))
            return pos
        lines = [ln for ln in stripped.splitlines() if ln.strip() and not ln.strip().startswith("#")]
        if "//" in stripped:
            # a save string, perhaps under '#' comment lines as deal files allow (session 19)
            return cls.from_save_string(lines[0].strip() if len(lines) == 1 else stripped, rules)
        if len(lines) <= 1:   # one line: not a deal; say what a position can be
            shown = stripped if len(stripped) <= 40 else stripped[:37] + "..."
            raise PositionError(
                "not a position: expected a save string (three parts separated by '//'), a position as a"
                f" JSON object ({{...}}) or a deal (six lines of six cards), got {shown!r}")
        return Deal.from_text(stripped).position(rules)

    def render(self) -> str:
        """The grid as text: cards, ``??`` face down, ``.`` taken, ``*`` the marker.

        Returns
        -------
        str
            A header of column numbers, six rows with their row numbers, and a line with
            the cards left, face-down cells, reach and who is to move (or "game over").
        """
        names = self.rules.names
        lines = ["      " + "".join(f"{c:^5d}" for c in range(6))]
        for r in range(6):
            row = f"  {r}   "
            for c in range(6):
                i = 6 * r + c
                if i in self.taken:
                    txt = "*" if i == self.marker else "."
                elif i in self.face_down and self.cells[i] == UNKNOWN:
                    txt = "??"
                elif i in self.face_down:
                    txt = DECK[self.cells[i]].lower()
                else:
                    txt = DECK[self.cells[i]]
                if i == self.marker and i not in self.taken:
                    txt = f"[{txt}]"
                row += f"{txt:^5s}"
            lines.append(row.rstrip())
        mover = names[0] if self.to_move == "first" else names[1]
        if mover != self.to_move:
            mover = f"{mover} ({self.to_move})"
        status = "game over" if self.is_terminal() else (
            f"{mover} to choose the start cell" if self.marker is None else f"{mover} to move"
        )
        lines.append(f"cards left {self.cards_left}, face down {len(self.face_down)}, reach {self.reach}; {status}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        where = "start" if self.marker is None else cell_text(self.marker)
        return f"<Position {self.cards_left} cards left, marker {where}, {self.to_move} to move>"

    def _game_dict(self) -> dict[str, Any]:
        """:meth:`to_dict` without the display names: what equality compares (see the
        class docstring)."""
        d = self.to_dict()
        d.pop("names", None)
        return d

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._game_dict() == other._game_dict()

    def __hash__(self) -> int:
        return hash(json.dumps(self._game_dict(), sort_keys=True))


def card_list(cards: Iterable[int]) -> str:
    """Space-separated card texts of card indices."""
    return " ".join(card_name(i) for i in cards)
