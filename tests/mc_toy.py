"""A tiny game-agnostic chunk function for the Monte Carlo runner tests (importable by
worker processes)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd


def toy_chunk(chunk_index, n_games, seed, *, players=3, fail_at=None, flag=None):
    """Each game: a random winner seat and a random length, from the chunk's stream."""
    if fail_at is not None and chunk_index == fail_at and flag and not Path(flag).exists():
        Path(flag).write_text("interrupted once")
        raise KeyboardInterrupt
    rng = np.random.default_rng(seed)
    winner = rng.integers(-1, players, size=n_games)
    turns = rng.integers(10, 100, size=n_games)
    out = {"players": [players] * n_games}
    for s in range(players):
        out[f"policy_{s}"] = ["a" if s % 2 == 0 else "b"] * n_games
    out["winner"] = winner
    out["turns"] = turns
    out["pid"] = [0] * n_games  # would differ by worker if a chunk leaked its process id
    return pd.DataFrame(out)


def wrong_rows(chunk_index, n_games, seed):
    return pd.DataFrame({"x": [1] * (n_games + 1)})


def pid_chunk(chunk_index, n_games, seed):
    return pd.DataFrame({"pid": [os.getpid()] * n_games, "winner": [0] * n_games, "policy_0": ["a"] * n_games})
