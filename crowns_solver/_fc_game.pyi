"""Stub for the compiled Five Crowns game loop (ext/_fc_game.pyx)."""

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

SOURCE_HASH: str
POLICY_CODES: dict[str, int]
N_PARAMS: int

def integers_like_numpy(generator: np.random.Generator, k: int, count: int) -> list[int]: ...
def play_round(
    deck: Sequence[int],
    order: Sequence[int],
    cards: int,
    kinds: Sequence[int],
    params: Sequence[Sequence[float]],
    generators: Sequence[np.random.Generator],
    reshuffle_pile: Callable[[list[int]], list[int]],
    max_turns: int,
    all_wild: bool,
    sets: int,
    names: Sequence[str],
) -> tuple[list[dict[str, Any]], int | None, list[tuple[int, int]], dict[int, list[int]], int]: ...
def discard_outcomes(
    codes: Sequence[int], wild: int, all_wild: bool, unseen: np.ndarray
) -> tuple[list[int], list[int], list[list[int]]]: ...
def two_step(
    codes: Sequence[int], card: int, wild: int, all_wild: bool, unseen: np.ndarray, row: Sequence[int], kept: int
) -> tuple[int, int]: ...
