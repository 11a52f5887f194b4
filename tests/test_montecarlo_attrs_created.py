"""``montecarlo.run``'s table says when its run started, with or without a results file.

docs/monte_carlo.md and ``run``'s docstring list ``created`` among the metadata of
``df.attrs``; it was set only when a results file (``out=``) was written, so a run in
memory had no ``created`` (found walking through the docs, session 20).
"""

from __future__ import annotations

import datetime

from crowns_solver import montecarlo
from crowns_solver.kings_crowns import simulate


def _when(text: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(text)


def test_a_run_in_memory_records_when_it_started():
    before = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    df = simulate(20, players=2, seed=1, workers=1)
    after = datetime.datetime.now(datetime.timezone.utc)
    assert before <= _when(df.attrs["created"]) <= after
    assert {"seed", "chunk_size", "games", "play_chunk", "params", "version", "game"} <= set(df.attrs)


def test_a_resumed_file_keeps_the_time_its_run_started(tmp_path):
    out = tmp_path / "r.jsonl"
    first = simulate(20, players=2, seed=1, workers=1, out=out)
    header = montecarlo.read_header(out)
    assert header["created"] == first.attrs["created"]
    again = simulate(20, players=2, seed=1, workers=1, out=out)   # all chunks there: read back
    assert again.attrs["created"] == header["created"] == montecarlo.read_results(out).attrs["created"]
