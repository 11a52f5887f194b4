"""Play Cross Kings against the computer in a terminal, with hints, undo and analysis.

Plain line-based input and output (issue 8, part 3): it works in any terminal and can be
driven by a script on standard input.  :class:`PlaySession` holds one game; ``crowns
cross-kings play`` runs it.  The rules are RULES.md's (Cross Kings); face-down cards are
dealt from a seeded generator and stay hidden from both players until taken (the
computer sees only its seat's view, except the clairvoyant player, which cheats).

Commands at the prompt (case does not matter):

- a move: the cell as ``row,col`` (also ``row col``, ``(row,col)`` or two digits
  ``23``; rows and columns 0..5 as the grid shows them), or the card of a face-up
  cell such as ``7S``;
- ``hint``: the game value of every legal move (expected final margin for you, in
  points), exact where the solver proves it within the time per move, otherwise the
  search's estimate, marked as such;
- ``undo``: take back your last move and the computer's reply;
- ``save [FILE]``: print the crosskings.net save string (``--load`` resumes from it);
  with FILE, also write the position as JSON there (FILE is read as a shell would:
  quote a name with spaces, ``save 'my game.json'``; ``save ""`` is ``save``);
- ``board``: show the grid and hands again; ``help``; ``quit``.

At the end: the result and a move-by-move analysis of your moves (:mod:`.review`).
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from dataclasses import replace
from typing import IO, Any

import numpy as np

from .._checks import check_choice, is_choice
from .._text import number
from ..errors import CrownsError, IllegalMoveError, PolicyError, PositionError, RulesError
from .cards import DECK, NUM_CARDS, parse_card
from .play_cli import ANALYSE_TIME, PLAY_TIME, SEATS
from .position import (
    DEFAULT_NAMES,
    REACHES,
    SAVE_START,
    Rules,
    UNKNOWN,
    Cell,
    Deal,
    Player,
    Position,
    cell_coords,
    cell_index,
    symmetry_map,
)

__all__ = ["PlaySession", "parse_move", "public_position", "save_text", "DEFAULT_TIME", "SEATS"]

#: Default seconds of search per computer move, per hint and per analysed move.
DEFAULT_TIME = PLAY_TIME

HELP = """\
commands:
  2,3  or 2 3, (2,3), 23   take the card at row 2, column 3 (rows and columns 0..5)
  7S                       take the face-up 7 of spades (if the marker's line reaches it)
  hint                     the value of every legal move for you (expected final margin)
  undo                     take back your last move and the computer's reply
  save [FILE]              print the save string (resume with --load); FILE: also write JSON
  board                    show the grid and the hands again
  help                     this list
  quit                     stop (prints the save string to resume)"""

_CELL_RE = re.compile(r"^[(\[]?\s*([0-5])\s*(?:[,;\s]\s*)?([0-5])\s*[)\]]?$")
#: Two numbers typed as a cell, at least one off the grid (``9,9``, ``2 6``, ``-1,3``).
_OFF_GRID_RE = re.compile(r"^[(\[]?\s*(-?\d+)\s*(?:[,;\s]\s*)(-?\d+)\s*[)\]]?$|^[(\[]?\s*(\d)(\d)\s*[)\]]?$")


def _other(seat: str) -> Player:
    return "second" if seat == "first" else "first"


def _check_position(position: object) -> None:
    """PositionError unless `position` is a Position (anything else raised an
    AttributeError: session-18 probe)."""
    if not isinstance(position, Position):
        raise PositionError(f"position must be a Position, got {type(position).__name__}")


def public_position(position: Position) -> Position:
    """`position` with every face-down card unknown, as a player (or a save string) sees it.

    Parameters
    ----------
    position : Position
        The true position (it may know the face-down cards).

    Returns
    -------
    Position
        The same position with the face-down cells' cards unknown (RULES.md, Cross
        Kings, "Hidden cards"); `position` itself when nothing is face down.

    Raises
    ------
    PositionError
        If `position` is not a :class:`Position`.
    """
    _check_position(position)
    if not position.face_down:
        return position
    cells = tuple(UNKNOWN if i in position.face_down else c for i, c in enumerate(position.cells))
    return replace(position, cells=cells)


def parse_move(text: str, position: Position) -> Cell:
    """The legal move a player typed: a cell (``2,3``, ``2 3``, ``(2,3)``, ``23``) or a
    face-up card (``7S``).

    Parameters
    ----------
    text : str
        What was typed.
    position : Position
        The position (only what the player can see is used).

    Returns
    -------
    (row, col)
        The legal move's cell, as ints 0..5.

    Raises
    ------
    PositionError
        If `text` is neither a cell nor a card, or names a card not face up on the grid;
        if `position` is not a :class:`Position`.
    IllegalMoveError
        If the cell is not a legal move here.
    """
    _check_position(position)
    if not isinstance(text, str):
        raise PositionError(f"a move is text, got {type(text).__name__}")
    s = text.strip()
    m = _CELL_RE.match(s)
    legal = position.legal_moves()
    if m:
        cell = (int(m.group(1)), int(m.group(2)))
    else:
        try:
            card = parse_card(s)
        except CrownsError:
            if _OFF_GRID_RE.match(s):
                raise PositionError(f"{s!r} is not a cell of the grid: rows and columns are 0..5 (e.g. 2,3)") from None
            raise PositionError(f"not a move or command: {text.strip()!r} (type help)") from None
        pub = public_position(position)
        where = [i for i in range(36) if pub.cells[i] == card]
        name = DECK[card]
        if not where or where[0] in pub.taken:
            holder = next((p for p in ("first", "second") if name in pub.hand(p)), None)
            names = position.rules.names
            if holder is not None:
                shown = names[0] if holder == "first" else names[1]
                raise PositionError(f"{name} has been taken (it is in {shown}'s hand)")
            raise PositionError(f"{name} is not face up on the grid (give the cell of a face-down card)")
        cell = cell_coords(where[0])
    if position.is_terminal():
        raise IllegalMoveError("the game is over")
    if cell not in legal:
        i = cell_index(cell)
        r, c = cell
        why = "that is the marker's own cell" if i == position.marker else (
            "it has been taken" if i in position.taken else
            "it is not in the marker's row or column" if position.reach == "any" or
            (position.marker is not None and (i // 6 != position.marker // 6 and i % 6 != position.marker % 6))
            else "a nearer card blocks it (reach 'nearest')"
        )
        if position.marker is None:
            why = "the start cell is one of the four central cells"
        moves = " ".join(f"({a},{b})" for a, b in legal)
        raise IllegalMoveError(f"({r},{c}) is not a legal move: {why}; legal: {moves}")
    return cell


def _mirror_to_save_start(position: Position) -> Position:
    """The same game reflected so that its start cell is (2, 2).

    Reflecting rows (r -> 5 - r) and/or columns (c -> 5 - c) maps the diagonals, the
    central cells and every row and column onto themselves as sets, so the game, its
    moves and its values are unchanged.
    """
    assert position.start is not None
    r0, c0 = divmod(position.start, 6)
    flip = {(True, True): "rot180", (True, False): "flip_rows", (False, True): "flip_cols"}.get((r0 == 3, c0 == 3))
    return position if flip is None else position.transformed(flip)


def save_text(position: Position) -> tuple[str, bool]:
    """The crosskings.net save string of a game (RULES.md "Interchange").

    The format always starts at (2, 2); a game that started at another central cell is
    written reflected (rows and/or columns reversed), which is the same game.

    Parameters
    ----------
    position : Position
        A game's position with its start cell and move record.

    Returns
    -------
    (str, bool)
        The save string and whether the grid was reflected.

    Raises
    ------
    PositionError
        If the start cell or the moves are not known, or `position` is not a
        :class:`Position`.
    """
    pub = public_position(position)
    if pub.marker is None:
        raise PositionError("nothing to save yet: the start cell has not been chosen")
    if pub.start is None or pub.history is None:
        raise PositionError(
            "a save string needs the game's moves from its start, and this position has no"
            " move record"
        )
    mirrored = pub.start != SAVE_START
    if mirrored:
        pub = _mirror_to_save_start(pub)
    return pub.to_save_string(), mirrored


#: The reflections that bring a game's start cell to (2, 2) (:func:`_mirror_to_save_start`),
#: by the start cell; the identity is ``None``.
_TO_SAVE_START = {SAVE_START: None, 15: "flip_cols", 20: "flip_rows", 21: "rot180"}


def _fill_hidden(position: Position, seed: int) -> Position:
    """Place the unknown face-down cards of a loaded `position` among its face-down cells,
    from the game's `seed` (``play --seed``), the same way each time (session 23).

    The seed's own deal first: a game begun with ``--seed S`` and left with its resume
    line (``--load SAVE --seed S``, the grid perhaps reflected to start at (2,2)) gets
    back the cards that deal put there.  Otherwise the seed ranks the cells and the cards
    (cells in the orientation that starts at (2,2)) and the unknown cells, in rank order,
    get the unseen cards in rank order: a card revealed takes its cell and card out of
    both lists together, so a game resumed later from its resume line, with the same
    seed, finds every card still unseen where this placement put it.  (Until session 23
    the unseen cards were shuffled afresh: the same game resumed was another deal.)
    """
    unknown = [i for i in sorted(position.face_down) if position.cells[i] == UNKNOWN]
    if not unknown:
        return position
    pool = position.unknown_pool()
    if len(pool) != len(unknown):  # cannot happen for a valid position
        raise PositionError(f"{len(unknown)} face-down cells but {len(pool)} unseen cards")
    deal_ss, fill_ss, _, _ = np.random.SeedSequence(seed).spawn(4)   # as PlaySession spawns them
    dealt = Deal.random(np.random.default_rng(deal_ss)).position()
    cells = list(position.cells)
    for symmetry in (None, "flip_rows", "flip_cols", "rot180"):
        grid = dealt if symmetry is None else dealt.transformed(symmetry)
        if all(c == UNKNOWN or c == grid.cells[i] for i, c in enumerate(position.cells)) \
                and sorted(grid.cells[i] for i in unknown) == list(pool):
            for i in unknown:
                cells[i] = grid.cells[i]
            return replace(position, cells=tuple(cells))
    rng = np.random.default_rng(fill_ss)
    cell_rank, card_rank = rng.permutation(36), rng.permutation(NUM_CARDS)
    to_save = _TO_SAVE_START.get(position.start) if position.start is not None else None
    canonical = range(36) if to_save is None else symmetry_map(to_save)
    for cell, card in zip(sorted(unknown, key=lambda i: cell_rank[canonical[i]]),
                          sorted(pool, key=lambda c: card_rank[c])):
        cells[cell] = int(card)
    return replace(position, cells=tuple(cells))


def stored_seed(text: str) -> int | None:
    """The game's seed kept in a position saved by ``play``'s ``save FILE`` (its
    ``"seed"``), which places the unseen cards when the game is resumed.

    Parameters
    ----------
    text : str
        What ``--load`` read: a save string, a deal or a position as JSON.

    Returns
    -------
    int or None
        The seed, or None if `text` is no JSON object or keeps no seed.

    Raises
    ------
    PositionError
        If the seed kept is not a whole number >= 0.
    """
    import json

    from .._io import json_int

    stripped = text.strip().lstrip("\ufeff").strip()
    if not stripped.startswith("{"):
        return None
    try:
        data = json.loads(stripped, parse_int=json_int)
    except (ValueError, RecursionError):
        return None   # Position.from_text says what is wrong with it
    seed = data.get("seed") if isinstance(data, dict) else None
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        from .position import _json_value

        # in JSON's words: "seed": true said "got True" until session 24
        raise PositionError(f"seed: the game's seed must be a whole number >= 0, got {_json_value(seed)}")
    return seed


class PlaySession:
    """One game of Cross Kings between a person (typing commands) and a computer player.

    Parameters
    ----------
    seed : int, optional
        Seed of everything random: the deal (or, for a loaded game, where its unseen
        cards lie among the face-down cells), the seat when ``seat="random"``, and the
        computer player's choices.  None: a fresh seed, printed so the game can be
        replayed.
    opponent : str
        The computer player (``crowns_solver.cross_kings.players.PLAYER_NAMES``:
        "random", "greedy", "search", "clairvoyant"; the last cheats).
    time_limit : float, optional
        Seconds of search per computer move (search players), per hint and per analysed
        move.  None: no time limit (then `node_limit` must be given).
    node_limit : int, optional
        Search nodes per computer move, hint and analysed move (reproducible).
    seat : {"first", "second", "random"}, optional
        The person's seat; "second" chooses the start cell.  Default: "first" for a new
        game, the player to move for a loaded one.
    load : Position or str, optional
        Resume a game: a save string (RULES.md "Interchange"), a position as JSON, or a
        :class:`Position`.
    load_source : str, optional
        How the user named `load` (``play --load``'s argument: a file name or the save
        string), repeated in the tip for playing the same game again when it is left
        before the start.  None: the loaded position itself, as JSON.
    reach : {"any", "nearest"}, optional
        Rules option reach (RULES.md, Cross Kings, "Move") of a new game, or of a loaded
        save string (which cannot say it).  Default "any", or a loaded JSON position's
        own reach, which a given `reach` must match.
    names : (str, str), optional
        Display names of the first and the second player (RULES.md, Cross Kings:
        "Display names are configurable"), by seat as ``Rules(names=...)`` and every
        command's ``--names FIRST SECOND``; checked by
        :class:`~crowns_solver.cross_kings.position.Rules`.  They are shown on the board,
        in the hands, the computer's moves, the result and the analysis.  Default: the
        names of a loaded JSON position that has some (``save FILE`` writes the names
        given, since session 24), else "you" and "computer".
    stdin, stdout : file objects
        Where commands are read and everything is written (default the terminal).

    Raises
    ------
    PolicyError
        If `opponent` or a limit is invalid, or neither limit is given.
    RulesError
        If `names` are not two printable, different names (the rule of
        :class:`~crowns_solver.cross_kings.position.Rules`), or `reach` is not "any" or
        "nearest" (nor None).
    SaveStringError, PositionError
        If `load` cannot be read, or the loaded game is already over; PositionError also
        for a `seat` other than "first", "second" or "random" (nor None).
    """

    def __init__(
        self,
        *,
        seed: int | None = None,
        opponent: str = "search",
        time_limit: float | None = DEFAULT_TIME,
        node_limit: int | None = None,
        seat: str | None = None,
        load: Position | str | None = None,
        load_source: str | None = None,
        reach: str | None = None,
        names: tuple[str, str] | list[str] | None = None,
        stdin: IO[str] | None = None,
        stdout: IO[str] | None = None,
    ) -> None:
        from .players import SEARCH_PLAYERS, make_player

        self.stdin = stdin if stdin is not None else sys.stdin
        self.stdout = stdout if stdout is not None else sys.stdout
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise PositionError(f"seed must be a whole number >= 0, got {seed!r}")
        self.seed = int(seed)
        if seat is not None:   # a str first: a NumPy array was taken (session 24)
            seat = check_choice("seat", seat, SEATS, PositionError, argument=None)
        if reach is not None:   # an empty NumPy array raised NumPy's "truth value ... ambiguous"
            reach = check_choice("reach", reach, REACHES, RulesError, argument=None)
        #: The display names given (first, second), cleaned as Rules keeps them; None: "you"
        #: and "computer".  Checked before any search or deal.
        self.names: tuple[str, str] | None = None if names is None else Rules(names=names).names
        deal_ss, _fill_ss, seat_ss, player_ss = np.random.SeedSequence(self.seed).spawn(4)   # (_fill_hidden: 2nd)
        if time_limit is None and node_limit is None:
            raise PolicyError("give a time limit or a node limit (or both): the computer's"
                              " searches, hints and the analysis need one")
        search = is_choice(opponent, SEARCH_PLAYERS)   # make_player refuses what is not a player's name
        options: dict[str, Any] = {"time_limit": time_limit, "node_limit": node_limit} if search else {}
        self.player = make_player(opponent, **options)
        self.opponent = opponent
        self.time_limit = time_limit
        self.node_limit = node_limit
        self.rng = np.random.default_rng(player_ss)
        self.loaded = load is not None
        self.placed = False
        self.load_source = load_source
        if load is None:
            start = Deal.random(np.random.default_rng(deal_ss)).position(reach or "any")
            to_move: str = start.to_move
            states = [start]
        else:
            pos = load if isinstance(load, Position) else Position.from_text(load, reach)
            if self.names is None and pos.rules.names != DEFAULT_NAMES:
                self.names = pos.rules.names   # a position saved with names keeps them (session 24)
            if reach is not None and pos.reach != reach:
                raise PositionError(f"reach {reach!r}: the game loaded is played under reach {pos.reach!r}")
            if pos.is_terminal():
                raise PositionError("this game is over: use 'crowns cross-kings analyse' to review it")
            #: Whether the seed placed unseen cards (then resume lines carry --seed).
            self.placed = any(pos.cells[i] == UNKNOWN for i in pos.face_down)
            pos = _fill_hidden(pos, self.seed)
            to_move = pos.to_move
            if pos.history is not None and pos.start is not None and pos.history:
                from .review import replay

                states = [s.position for s in replay(pos)] + [pos]
            else:
                states = [pos]
        #: The seat a player gets without --seat (in a tip, --seat is added when it differs).
        self.default_seat = "first" if load is None else to_move
        if seat is None:
            seat = self.default_seat
        elif seat == "random":
            seat = ("first", "second")[int(np.random.default_rng(seat_ss).integers(2))]
        self.human: Player = seat  # type: ignore[assignment]
        self.computer: Player = _other(seat)
        if self.names is not None:
            names = self.names
        else:
            names = ("you", "computer") if self.human == "first" else ("computer", "you")
        self.states: list[Position] = [replace(p, rules=replace(p.rules, names=names)) for p in states]
        self.hints: dict[tuple, list[Any]] = {}
        #: The analysis table of the person's moves, once the game has ended (else None; after
        #: Ctrl-C during the analysis, the moves analysed before it).
        self.frame: Any = None

    # ------------------------------------------------------------------ output

    def say(self, *lines: str) -> None:
        """Print each of `lines` on the session's output, then flush it.

        Parameters
        ----------
        *lines : str
            The lines, without their newline.
        """
        for line in lines:
            print(line, file=self.stdout)
        self.stdout.flush()

    @property
    def position(self) -> Position:
        """The current position (it knows the face-down cards; show only its public form)."""
        return self.states[-1]

    def _name(self, seat: str) -> str:
        """The display name of `seat`: a ``names`` name, else "you" or "computer"."""
        return self.position.rules.names[0 if seat == "first" else 1]

    def _who(self, seat: str) -> str:
        return f"{self._name(seat)} ({seat})"

    def show(self) -> None:
        """Print the grid (face-down cells as ??), both hands with their scores, the moves."""
        pub = public_position(self.position)
        self.say(pub.render())
        scores = pub.scores()
        for seat, score in zip(("first", "second"), scores):
            cards = " ".join(pub.hand(seat)) or "(no cards)"
            self.say(f"{self._who(seat)}: {cards}  score {score}")
        if pub.face_down:
            n = len(pub.face_down)
            self.say(f"unseen (in the {n} face-down cell{'s' if n > 1 else ''}): {' '.join(pub.unseen)}")
        if not pub.is_terminal():
            moves = "  ".join(f"({r},{c}) {pub.grid[6 * r + c]}" for r, c in pub.legal_moves())
            self.say(("start cells: " if pub.marker is None else "moves: ") + moves)

    # ------------------------------------------------------------------ moves

    def _key(self, pos: Position) -> tuple:
        # within one deal, the cards taken by each player (in order) and the marker
        # identify a position, with or without a move record
        return (pos.marker, pos.first_hand, pos.second_hand)

    def evaluate(self, pos: Position) -> list[Any]:
        """Every legal move's game value for the player to move (cached per position).

        Parameters
        ----------
        pos : Position
            The position (only its public form is searched).

        Returns
        -------
        list of MoveEstimate
            As :func:`~crowns_solver.cross_kings.review.move_values` under the session's
            limits: expected final margins in points, best first.

        Raises
        ------
        KeyboardInterrupt
            If Ctrl-C stopped the search.
        """
        from .review import interruptible, move_values

        key = self._key(pos)
        if key not in self.hints:
            with interruptible() as guard:
                est = move_values(public_position(pos), time_limit=self.time_limit,
                                  node_limit=self.node_limit)
                guard.check()
            self.hints[key] = est
        return self.hints[key]

    def take(self, cell: Cell) -> Position:
        """Play `cell` for the player to move (revealing a face-down card) and return the new position.

        Parameters
        ----------
        cell : (int, int) or int
            A legal move, as ``(row, col)`` or a cell number 0..35.

        Returns
        -------
        Position
            The new current position.

        Raises
        ------
        IllegalMoveError
            If `cell` is not a legal move.
        PositionError
            If `cell` is not a cell (:func:`~crowns_solver.cross_kings.cell_index`).
        """
        pos = self.position
        nxt = pos.play(cell)
        self.states.append(nxt)
        return nxt

    def computer_move(self) -> None:
        """Let the computer choose and play its move, and say what it did.

        Raises
        ------
        IllegalMoveError
            If the player returned a move that is not legal (a bug in the player).
        KeyboardInterrupt
            If Ctrl-C was pressed while the computer thought.
        """
        from .players import seat_view
        from .review import interruptible

        pos = self.position
        view = seat_view(pos, self.computer, reveal=bool(getattr(self.player, "cheats", False)))
        with interruptible() as guard:   # Ctrl-C while it thinks ends the game, not the search
            cell = self.player.choose(view, self.rng)
            guard.check()
        if cell not in pos.legal_moves():
            raise IllegalMoveError(f"the computer chose {cell}, which is not legal")  # cannot happen
        r, c = cell
        if pos.marker is None:
            self.take(cell)
            self.say(f"{self._who(self.computer)} chooses the start cell ({r},{c})")
            return
        face_down = cell_index(cell) in pos.face_down
        nxt = self.take(cell)
        card = DECK[nxt.cells[cell_index(cell)]]
        how = ", face down:" if face_down else ":"
        self.say(f"{self._who(self.computer)} takes ({r},{c}){how} {card}")

    def undo(self) -> bool:
        """Take back the person's last move and the computer's reply; False if none.

        Returns
        -------
        bool
            Whether a move was taken back.
        """
        for j in range(len(self.states) - 2, -1, -1):
            if self.states[j].to_move == self.human:
                del self.states[j + 1:]
                return True
        return False

    # ------------------------------------------------------------------ commands

    def _fmt(self, value: Any, exact: bool) -> str:
        text = number(float(value), "+.2f")   # a value that reads zero has no sign
        return text if exact else "~" + text

    def hint(self) -> None:
        """Print every legal move's game value for the person (the ``hint`` command).

        Raises
        ------
        KeyboardInterrupt
            If Ctrl-C stopped the search.
        """
        pos = self.position
        est = self.evaluate(pos)
        pub = public_position(pos)
        limits = self._limits()
        self.say(f"hint: game value of each move, your expected final margin in points ({limits}):")
        for e in est:
            r, c = e.cell
            if e.value is None:
                self.say(f"  ({r},{c}) {pub.grid[6 * r + c]:>2}        ?  not reached: give the search more time")
                continue
            kind = "exact" if e.exact else "estimate"
            self.say(f"  ({r},{c}) {pub.grid[6 * r + c]:>2}  {self._fmt(e.value, e.exact):>7}  {kind}")
            cards = getattr(e, "card_values", None)
            if cards:  # a face-down cell valued exactly: what each card it may hold is worth
                self.say("        if it is " + ", ".join(f"{k} {number(float(v), '+.2f')}" for k, v in sorted(
                    cards.items(), key=lambda kv: -kv[1])))

    def _limits(self) -> str:
        parts = []
        if self.time_limit is not None:
            parts.append(f"search up to {self.time_limit:g} s")
        if self.node_limit is not None:
            parts.append(f"{self.node_limit:,} nodes")
        return " and ".join(parts)

    def _saved(self, pos: Position) -> dict[str, Any]:
        """`pos` as JSON the way ``save`` writes it: face-down cards unknown, and the
        ``names`` given (none for the session's own "you" and "computer", which depend
        on the seat taken when the game is resumed)."""
        names = self.names if self.names is not None else DEFAULT_NAMES
        return public_position(replace(pos, rules=replace(pos.rules, names=names))).to_dict()

    def _resume_text(self) -> tuple[str, str] | None:
        """What ``--load`` resumes from: the save string (and a note), or, for a position
        without a move record, the position as one line of JSON; None before the start."""
        pos = self.position
        if pos.marker is None:
            return None
        try:
            text, mirrored = save_text(pos)
        except PositionError:
            import json

            why = "no move record" if pos.reach == "any" else f"a save string cannot carry reach {pos.reach!r}"
            return json.dumps(self._saved(pos)), f"the position as JSON: {why}"
        return text, ("grid reflected so that it starts at (2,2), as the format requires" if mirrored else "")

    def _analyse_options(self) -> str:
        """The ``analyse`` options that repeat the end-of-game analysis this session makes:
        the person's moves (``--player``) searched as long as this game's search
        (``--time``, when not analyse's default, and ``--node-limit``); until session 23
        the hint printed after Ctrl-C gave none, so it analysed both players' moves at the
        default 2 s each."""
        out = f" --player {self.human}"
        if self.time_limit != ANALYSE_TIME:
            out += " --time 0" if self.time_limit is None else f" --time {self.time_limit:g}"
        if self.node_limit is not None:
            out += f" --node-limit {self.node_limit}"
        return out

    def _options(self, default_seat: str) -> str:
        """The options, after the game's source, that bring the same players back: ``--seat``
        if the person's seat is not `default_seat` (what the game gets without it),
        ``--opponent`` if not the default, ``--reach`` if not "any" (a seed or a save
        string does not say it), ``--time`` and ``--node-limit`` if not the defaults (they
        set the computer's strength, the hints and the analysis: a game resumed without
        them would go on against a computer searching the default 3 s a move), and
        ``--names`` if given (a save string does not keep them)."""
        out = ""
        if self.states[0].reach != "any":
            out += f" --reach {self.states[0].reach}"
        if self.human != default_seat:
            out += f" --seat {self.human}"
        if self.opponent != "search":
            out += f" --opponent {shlex.quote(self.opponent)}"
        if self.time_limit != DEFAULT_TIME:
            out += " --time 0" if self.time_limit is None else f" --time {self.time_limit:g}"
        if self.node_limit is not None:
            out += f" --node-limit {self.node_limit}"
        if self.names is not None:   # a save string does not keep them (a JSON position does, since session 24)
            out += " --names " + " ".join(shlex.quote(n) for n in self.names)
        return out

    def _again(self) -> str:
        """How to play this game again from its start, before the start cell is chosen:
        ``--seed S`` for a new deal (the deal comes from the seed), ``--load SOURCE`` for a
        loaded game (the seed of a loaded game deals nothing), plus :meth:`_options`."""
        if not self.loaded:
            return f"--seed {self.seed}" + self._options(self.default_seat)
        if self.load_source is not None:
            source = self.load_source
        else:
            import json

            source = json.dumps(self._saved(self.states[0]))
        # the seed placed the game's unseen cards: the same seed places them the same way
        seed = f" --seed {self.seed}" if self.placed else ""
        return f"--load {shlex.quote(source)}{seed}" + self._options(self.default_seat)

    def _seed_option(self) -> str:
        """`` --seed S`` for a line that resumes the current position, if face-down cards
        remain: they are ``??`` in the save string, and the seed places them as in this
        game (:func:`_fill_hidden`; until session 23 the line gave no seed, so each
        resume dealt them afresh)."""
        return f" --seed {self.seed}" if self.position.face_down else ""

    def save(self, path: str | None = None) -> None:
        """Print the save string; with `path`, also write the position as JSON there.

        An empty or blank `path` is no file (the save string is printed).  A `path` that
        exists, names a folder (ends in ``/``) or lies in a folder that does not exist is
        said so and not written; the game goes on either way.

        Parameters
        ----------
        path : str, optional
            File to write the position to as JSON (never over an existing file).
        """
        if path is not None:
            path = os.fsdecode(path)
            if not path.strip():
                path = None
        got = self._resume_text()
        if got is None:
            self.say("nothing to save yet: the start cell has not been chosen"
                     f" (the same deal again: {self._again()})")
            return
        text, note = got
        self.say(f"save string: {text}" if text[:1] != "{" else f"position: {text}")
        if note:
            self.say(f"({note})")
        if path is not None:
            import json

            from .._io import check_file_path

            if os.path.lexists(path) and not path.endswith(os.sep):
                self.say(f"{path} already exists; not overwritten (save to a new file name)")
                return
            try:
                check_file_path(path, "the file name", what="position")
            except CrownsError as exc:
                self.say(str(exc))
                return
            data = self._saved(self.position)
            if self.position.face_down:   # the seed that places the unseen cards (--load FILE reads it)
                data["seed"] = self.seed
            try:
                with open(path, "x", encoding="utf-8") as fh:  # "x": never over a file made meanwhile
                    json.dump(data, fh)
                    fh.write("\n")
            except FileExistsError:
                self.say(f"{path} already exists; not overwritten (save to a new file name)")
                return
            except OSError as exc:
                self.say(f"cannot write {path}: {exc.strerror or exc}")
                return
            self.say(f"position written to {path} (resume with --load {shlex.quote(path)}{self._seed_option()}"
                     f"{self._options(self.position.to_move)})")

    def _resume_hint(self, why: str) -> None:
        got = self._resume_text()
        if got is None:
            self.say(f"{why} before the start; the same deal again: {self._again()}")
            return
        text, note = got
        # --load gives the seat to the player to move unless --seat says otherwise
        self.say(f"{why}; resume with: crowns cross-kings play --load {shlex.quote(text)}{self._seed_option()}"
                 + self._options(self.position.to_move) + (f" ({note})" if note else ""))

    def read_command(self) -> str | None:
        """The next line typed (None at end of input).

        Returns
        -------
        str or None
            The line without surrounding white space; None at the end of the input.
        """
        self.stdout.write("your move> ")
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.say("")
            return None
        if not getattr(self.stdin, "isatty", lambda: False)():
            self.say(line.rstrip("\n"))  # echo scripted input, so the transcript reads well
        return line.strip()

    # ------------------------------------------------------------------ the game

    def run(self) -> int:
        """Play until the game ends, the person quits, or the input ends; returns 0.

        Returns
        -------
        int
            0, the command's exit status.

        Raises
        ------
        KeyboardInterrupt
            On Ctrl-C (after printing how to resume).
        """
        try:
            return self._run()
        except KeyboardInterrupt:
            self.say("")
            if self.position.is_terminal():   # during the final analysis
                got = self._resume_text()
                if got and not got[0].startswith("{"):
                    names = "" if self.names is None else " --names " + " ".join(map(shlex.quote, self.names))
                    self.say("interrupted; the game is over: analyse it with crowns cross-kings analyse"
                             f" '{got[0]}'{self._analyse_options()}{names}")
                else:
                    self.say("interrupted; the game is over")
            else:
                self._resume_hint("interrupted")
            raise

    def _banner(self) -> None:
        what = f"resumed game ({self.position.cards_left} cards left)" if self.loaded else "new deal"
        who = self.opponent + (" (it cheats: it sees the face-down cards)"
                               if getattr(self.player, "cheats", False) else "")
        if self.names is None:
            players = f"you ({self.human}) against the computer ({self.computer}, {who})"
        else:
            players = (f"{self._name(self.human)} ({self.human}, you) against {self._name(self.computer)}"
                       f" ({self.computer}, the computer: {who})")
        self.say(
            f"Cross Kings: {players};"
            f" {what}, seed {self.seed}",
            "the first player moves first; the second chooses the start cell."
            " Type a cell such as 2,3 or a card such as 7S; help lists the commands.",
        )

    def _run(self) -> int:
        self._banner()
        shown = False
        while True:
            pos = self.position
            if pos.is_terminal():
                self.finish()
                return 0
            if pos.to_move == self.computer:
                self.computer_move()
                shown = False
                continue
            if not shown:
                self.say("")
                self.show()
                shown = True
            line = self.read_command()
            if line is None:
                self._resume_hint("end of input: game left unfinished")
                return 0
            word, _, rest = line.partition(" ")
            cmd = word.lower()
            if not line:
                continue
            if cmd in ("quit", "exit", "q"):
                self._resume_hint("game left unfinished")
                return 0
            if cmd in ("help", "?", "h"):
                self.say(HELP)
            elif cmd == "hint":
                self.hint()
            elif cmd == "undo":
                if self.undo():
                    self.say("took back your last move and the computer's reply")
                    shown = False
                else:
                    self.say("nothing to undo: you have not moved yet")
            elif cmd == "save":
                try:
                    words = shlex.split(rest)  # one file name, quotes removed: save 'my game.json'
                except ValueError as exc:  # an unclosed quote
                    self.say(f"save: {exc}; quote a file name like this: save 'my game.json'")
                    continue
                if len(words) > 1:
                    self.say(f"save takes one file name, got {len(words)} ({' '.join(map(repr, words))});"
                             f" quote a name with spaces: save {shlex.quote(' '.join(words))}")
                    continue
                self.save(words[0] if words else None)
            elif cmd in ("board", "show"):
                shown = False
            else:
                try:
                    cell = parse_move(line, pos)
                except CrownsError as exc:
                    self.say(str(exc))
                    continue
                face_down = cell_index(cell) in pos.face_down
                nxt = self.take(cell)
                if pos.marker is None:
                    self.say(f"you choose the start cell ({cell[0]},{cell[1]})")
                else:
                    how = ", face down:" if face_down else ":"
                    self.say(f"you take ({cell[0]},{cell[1]}){how} {DECK[nxt.cells[cell_index(cell)]]}")
                shown = False

    def finish(self) -> None:
        """Print the result, the move-by-move analysis of the person's moves and the save string."""
        pos = self.position
        self.say("")
        self.show()
        a, b = pos.scores()
        mine, theirs = (a, b) if self.human == "first" else (b, a)
        you = "you win" if self.names is None else f"{self._name(self.human)} (you) wins"
        computer = "the computer wins" if self.names is None else f"{self._name(self.computer)} (the computer) wins"
        if mine > theirs:
            result = f"{you} by {mine - theirs} ({mine} to {theirs})"
        elif mine < theirs:
            result = f"{computer} by {theirs - mine} ({theirs} to {mine})"
        else:
            result = f"a draw ({mine} to {theirs})"
        self.say(f"game over: {result}")
        try:
            text, mirrored = save_text(pos)
            self.say(f"save string: {text}" + (" (grid reflected to start at (2,2))" if mirrored else ""))
        except PositionError:
            pass  # no move record: nothing to write
        self.analyse()

    def analyse(self) -> None:
        """Print the analysis of the person's moves in this game.

        Raises
        ------
        AnalysisInterrupted
            On Ctrl-C, after printing the table of the moves analysed before it, marked
            partial as ``crowns cross-kings analyse`` marks it (until session 23 they
            were lost).
        """
        from .review import AnalysisInterrupted, analyse_steps, format_analysis, partial_analysis_note, replay

        pos = self.position
        include_start = self.states[0].marker is None and self.human == "second"
        if pos.history is not None and pos.start is not None:
            steps = replay(pos, include_start=include_start)
        else:  # a loaded position without a move record: the moves played here
            moves = [next(iter(b.taken - a.taken)) for a, b in zip(self.states, self.states[1:])]
            steps = replay(self.states[0], moves)
        mine = [s for s in steps if s.position.to_move == self.human]
        if not mine:
            return
        self.say("")
        self.say(f"analysing your {len(mine)} moves ({self._limits()} each)...")
        bar = None
        if getattr(self.stdout, "isatty", lambda: False)() and sys.stderr.isatty():
            from tqdm import tqdm

            bar = tqdm(total=len(mine), desc="analysing", unit="move", leave=False, file=sys.stderr)
        stopped = None
        try:
            frame = analyse_steps(steps, self.evaluate, players=(self.human,),
                                  progress=None if bar is None else lambda done, total: bar.update(1))
        except AnalysisInterrupted as stop:   # the moves analysed so far, marked partial
            frame, stopped = stop.frame, stop
        finally:
            if bar is not None:
                bar.close()
        if len(frame):
            self.say("move-by-move analysis of your moves: game values (face-down cards unknown),"
                     " your expected final margin in points, judged before each move; ~ marks estimates")
            self.say(*format_analysis(frame, pos.rules.names))
        self.frame = frame
        if stopped is not None:
            self.say(partial_analysis_note(len(frame), stopped.total))
            raise stopped   # run() then says how to analyse the game; the command exits with 130
