"""Chunk functions for tests/test_montecarlo_values_break22.py (importable by workers)."""

from __future__ import annotations


def objects(chunk_index, n_games, seed):
    return [{"points": k, "note": object()} for k in range(n_games)]


def sets(chunk_index, n_games, seed):
    return [{"points": k, "held": {1, 2}} for k in range(n_games)]
