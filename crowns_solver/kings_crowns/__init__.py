"""King's Crowns: rules engine, computer players and Monte Carlo studies (RULES.md,
King's Crowns).

>>> from crowns_solver.kings_crowns import simulate, win_rates
>>> df = simulate(1000, players=4, policies=["greedy", "aggressive", "defensive", "random"],
...               rotate=True, seed=1, workers=1)
>>> win_rates(df, by="policy")  # doctest: +SKIP
"""

from .cards import CARD_NAMES, Card, card_name, crown_value, kind_of, parse_card
from .deck import DEFAULT_DECK, Deck, default_deck, load_deck
from .game import Game, Play, SeatView
from .policies import (
    POLICY_NAMES,
    AggressivePolicy,
    BuiltinPolicy,
    DefensivePolicy,
    GreedyPolicy,
    LookaheadPolicy,
    Policy,
    RandomPolicy,
    get_policy,
)
from .rules import Rules


def __getattr__(name: str):
    # simulate, play_chunk, win_rates load pandas: import them on first use, so that
    # ``crowns --help`` and the Game API stay light
    if name in ("simulate", "play_chunk", "win_rates", "game_seed"):
        from . import simulation

        return getattr(simulation, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    # the names loaded on first use too, so that a notebook's tab completion offers them
    return sorted(set(globals()) | {"simulate", "play_chunk", "win_rates", "game_seed"})

__all__ = [
    "CARD_NAMES",
    "Card",
    "card_name",
    "crown_value",
    "kind_of",
    "parse_card",
    "DEFAULT_DECK",
    "Deck",
    "default_deck",
    "load_deck",
    "Game",
    "Play",
    "SeatView",
    "POLICY_NAMES",
    "Policy",
    "BuiltinPolicy",
    "RandomPolicy",
    "GreedyPolicy",
    "AggressivePolicy",
    "DefensivePolicy",
    "LookaheadPolicy",
    "get_policy",
    "Rules",
    "simulate",
    "play_chunk",
    "win_rates",
    "game_seed",
]
