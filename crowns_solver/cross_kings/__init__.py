"""Cross Kings: cards, deals, positions, save strings, hand scoring and the solver (RULES.md, Cross Kings)."""

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
