"""Five Crowns: cards, card values, exact meld solving (RULES.md, Five Crowns)."""

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
from .melds import (
    Arrangement,
    Meld,
    best_melds,
    can_go_out,
    can_go_out_batch,
    deadwood,
    deadwood_batch,
)
from .rules import Rules

__all__ = [
    "Arrangement",
    "Card",
    "JOKER",
    "Meld",
    "Rules",
    "SUITS",
    "best_melds",
    "can_go_out",
    "can_go_out_batch",
    "card_name",
    "card_value",
    "deadwood",
    "deadwood_batch",
    "hand_value",
    "parse_card",
    "parse_hand",
    "wild_rank_for_round",
]
