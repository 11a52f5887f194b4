"""Monte Carlo study of Five Crowns computer players: many seeded games, one row per seat.

The games are played in chunks; chunk k is seeded by the k-th child of
``SeedSequence(seed)`` and game j of a chunk by the j-th child of that, so results are
the same in one process or many, whatever executor runs the chunks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import PolicyError, RulesError
from .game import GameRules, play_game
from .players import get_policy

__all__ = ["play_chunk", "COLUMNS"]


def _columns(rounds: int) -> list[str]:
    return ["game", "seat", "policy", *[f"round_{r}" for r in range(1, rounds + 1)], "total", "place", "won"]


#: Columns of the simulation table for an 11-round game.
COLUMNS = _columns(11)


def check_setup(players: int, policies: Sequence[Any] | str) -> list[Any]:
    """Validate `players` and `policies` (one policy for all seats, or one per seat).

    Returns
    -------
    list
        One policy name or object per seat.

    Raises
    ------
    RulesError
        `players` outside 1..14, or the number of policies differs from `players`.
    PolicyError
        An unknown policy name.
    """
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or not 1 <= players <= 14:
        raise RulesError(f"players must be an integer 1..14, got {players!r}")
    if isinstance(policies, str) or not isinstance(policies, Sequence):
        policies = [policies] * int(players)
    policies = list(policies)
    if len(policies) == 1:
        policies = policies * int(players)
    if len(policies) != players:
        raise RulesError(f"{len(policies)} policies for {players} players (give one, or one per seat)")
    for p in policies:
        get_policy(p)  # raises PolicyError for an unknown name
    return policies


def play_chunk(
    seed: np.random.SeedSequence,
    games: int,
    *,
    players: int,
    policies: Sequence[Any],
    rules: dict[str, Any] | None = None,
    first_game: int = 0,
) -> list[dict[str, Any]]:
    """Play `games` games seeded from the children of `seed`; one row per game and seat.

    Parameters
    ----------
    seed : numpy.random.SeedSequence
        The chunk's seed; game j is seeded by ``seed.spawn(games)[j]``.
    games : int
        Games to play.
    players : int
        Seats per game.
    policies : sequence
        One policy (name or object) per seat.
    rules : dict, optional
        Other :class:`GameRules` options (``ties``, ``rounds``...).
    first_game : int
        Number of the chunk's first game (the ``game`` column).

    Returns
    -------
    list of dict
        Rows with the columns ``game, seat, policy, round_1..round_11, total, place, won``
        (points; place 1 is best; ``won`` is True for every winner of a shared win).

    Raises
    ------
    RulesError, PolicyError
        Bad options or policies.
    """
    if not isinstance(seed, np.random.SeedSequence):
        raise RulesError(f"seed must be a numpy SeedSequence, got {seed!r}")
    game_rules = GameRules(players=players, **(rules or {}))
    pols = [get_policy(p) for p in policies]
    if len(pols) != players:
        raise PolicyError(f"{len(pols)} policies for {players} players")
    rows: list[dict[str, Any]] = []
    for j, child in enumerate(seed.spawn(games)):
        result = play_game(pols, seed=child, rules=game_rules)
        scores = result.round_scores
        places = result.places
        for s in range(players):
            row: dict[str, Any] = {"game": first_game + j, "seat": s, "policy": result.policies[s]}
            for r in range(game_rules.rounds):
                row[f"round_{r + 1}"] = int(scores[r, s])
            row["total"] = int(result.totals[s])
            row["place"] = int(places[s])
            row["won"] = s in result.winners
            rows.append(row)
    return rows
