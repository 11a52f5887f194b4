"""Cross Kings: cards, deals, positions, save strings, hand scoring and the solver (RULES.md, Cross Kings).

**Cells.** A cell has two forms: its number ``6 * row + col``, 0..35 (RULES.md, Cross Kings,
"Grid": rows 0..5 top to bottom, columns 0..5), and the pair ``(row, col)``.

- **Taken**: every function, method and constructor of the package that takes a cell
  takes either form (a number, or a pair of whole numbers as a tuple, a list or a NumPy
  array; NumPy integers too), through one parser, :func:`cell_index`.  A bool, a float
  (``14.0``, ``(2.0, 3)``), text, a cell off the grid or anything else is refused with a
  :class:`~crowns_solver.errors.PositionError` saying ``no such cell: ...``, after the
  argument or field at fault where there is one (``marker: no such cell: 16.0``).
- **Given back**, one form per kind of value:

  - cell numbers: a :class:`Position`'s fields (``marker``, ``start``, ``history``,
    ``taken``, ``face_down``) and :meth:`Position.legal_indices`, its JSON
    (:meth:`Position.to_dict`), :func:`cell_index`, :func:`line_cells`,
    :func:`symmetry_map`, :data:`FACE_DOWN_CELLS`, :data:`CENTRAL_CELLS`, and the
    ``start`` column of the match tables (:mod:`~crowns_solver.cross_kings.match`);
  - ``(row, col)``: moves and what a seat sees: :meth:`Position.legal_moves`,
    :func:`cell_coords`, the :class:`Solution` of :func:`solve` (``best_moves``,
    ``best_move``, ``pv``, each :class:`MoveValue`'s ``cell``, the keys of
    ``move_values`` and ``card_values``; ``[row, col]`` in its ``to_dict``), a
    :class:`~crowns_solver.cross_kings.players.SeatView` (``marker``, ``face_down``,
    ``legal_moves()``), a player's ``choose``, ``MoveEstimate.cell``, the review's
    ``GameStep.move`` and the analysis table's ``move``, ``best_move`` and
    ``best_moves``, :func:`~crowns_solver.cross_kings.play.parse_move` and
    ``MatchResult.start``.

  :func:`cell_index` and :func:`cell_coords` turn either form into the other, and
  :meth:`Solution.move` looks a move up in either form.  Messages write a cell as
  ``(row,col)`` (:func:`~crowns_solver.cross_kings.position.cell_text`).
"""

from .cards import DECK, RANKS, SUITS, Card, card_name, parse_card, parse_cards
from .position import (
    CENTRAL_CELLS,
    FACE_DOWN_CELLS,
    SYMMETRIES,
    Cell,
    Deal,
    Position,
    Rules,
    cell_coords,
    cell_index,
    line_cells,
    symmetry_map,
)
from .scoring import Group, HandExplanation, explain_hand, score_hand
from .solver import MoveValue, Solution, solve

__all__ = [
    "Card",
    "Cell",
    "DECK",
    "RANKS",
    "SUITS",
    "CENTRAL_CELLS",
    "FACE_DOWN_CELLS",
    "SYMMETRIES",
    "Deal",
    "Position",
    "Rules",
    "Group",
    "HandExplanation",
    "MoveValue",
    "Solution",
    "card_name",
    "cell_coords",
    "cell_index",
    "explain_hand",
    "line_cells",
    "parse_card",
    "parse_cards",
    "score_hand",
    "solve",
    "symmetry_map",
]
