"""A tiny game-agnostic chunk function for the Monte Carlo runner tests (importable by
worker processes), and a helper that presses Ctrl-C on a ``crowns`` command."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
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


def ctrl_c(argv: list[str], tmp_path, ready, delay: float, at_signal=None) -> tuple[int, str, object]:
    """Start the crowns command in its own process group, wait until `ready()`, then
    send SIGINT to the whole group, as a terminal's Ctrl-C does (workers included).
    Returns (exit status, stderr, what `at_signal()` returned right after the signal was
    sent, or None).  A command still running 120 s after the signal is killed and fails
    the test: a hang guard only (tests check that the stop happened by what the command
    did, never by how fast)."""
    proc = subprocess.Popen([sys.executable, "-m", "crowns_solver", *argv], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            # SIGINT back to its default (a background shell makes it ignored)
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 60
        while not ready() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert proc.poll() is None, proc.communicate()
        time.sleep(delay)
        os.killpg(proc.pid, signal.SIGINT)
        seen = at_signal() if at_signal is not None else None
        _, err = proc.communicate(timeout=120)  # a hang fails here instead of hanging CI
        return proc.returncode, err, seen
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
