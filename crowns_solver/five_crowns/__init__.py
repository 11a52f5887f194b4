"""Five Crowns: cards and card values, exact meld solving and discard advice, the game engine
and computer players, simulation, the score keeper (RULES.md, Five Crowns)."""

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
from .game import GameResult, GameRules, RoundResult, SeatView, play_game, replay
from .keeper import ScoreKeeper
from .players import POLICIES, AdvisorPolicy, GreedyPolicy, Policy, RandomPolicy, TrackerPolicy, get_policy
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
    "summarize",
    "game_seed",
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


def __getattr__(name: str):
    # simulate, summarize and game_seed pull in pandas and the Monte Carlo runner: import them on first use
    if name in ("simulate", "summarize", "game_seed"):
        from . import simulation

        return getattr(simulation, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    # the names loaded on first use too, so that a notebook's tab completion offers them
    return sorted(set(globals()) | {"simulate", "summarize", "game_seed"})
