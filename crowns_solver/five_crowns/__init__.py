"""Five Crowns: cards and card values, the game engine and computer players, the score keeper
(RULES.md, Five Crowns)."""

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
from .game import GameResult, GameRules, RoundResult, SeatView, play_game, replay
from .keeper import ScoreKeeper
from .players import POLICIES, AdvisorPolicy, GreedyPolicy, Policy, RandomPolicy, TrackerPolicy, get_policy

__all__ = [
    "GameResult",
    "GameRules",
    "RoundResult",
    "SeatView",
    "play_game",
    "replay",
    "ScoreKeeper",
    "POLICIES",
    "Policy",
    "RandomPolicy",
    "GreedyPolicy",
    "AdvisorPolicy",
    "TrackerPolicy",
    "get_policy",
    "simulate",
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


def __getattr__(name: str):
    # simulate pulls in pandas and the Monte Carlo runner: import it on first use
    if name == "simulate":
        from .simulate import simulate

        return simulate
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
