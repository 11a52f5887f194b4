"""Five Crowns: cards, card values, exact meld solving and discard advice (RULES.md, Five Crowns)."""

from .advisor import TakeAdvice, rank_discards, should_take_discard
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
    "TakeAdvice",
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
    "rank_discards",
    "should_take_discard",
    "wild_rank_for_round",
]
