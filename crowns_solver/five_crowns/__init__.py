"""Five Crowns: cards and card values (RULES.md, Five Crowns)."""

from .cards import (
    JOKER,
    SUITS,
    Card,
    card_name,
    card_value,
    hand_value,
    parse_card,
    parse_hand,
    wild_rank_for_round,
)

__all__ = [
    "Card",
    "JOKER",
    "SUITS",
    "card_name",
    "card_value",
    "hand_value",
    "parse_card",
    "parse_hand",
    "wild_rank_for_round",
]
