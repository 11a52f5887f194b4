"""Files the Cross Kings commands write get the user's usual permissions (the umask's,
as any new file: 0644 under umask 022), not 0600, and a file replaced with --force keeps
its mode (probe finding 14, Cross Kings writers)."""

from __future__ import annotations

import io
import os
import stat
import sys

import pytest
from conftest import run_cli


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_play_save_writes_an_ordinary_file(capsys, monkeypatch, tmp_path, umask_022):
    path = tmp_path / "p.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"save {path}\nq\n"))
    code, out, _ = run_cli(capsys, "cross-kings", "play", "--seed", "5", "--time", "0", "--node-limit", "100")
    assert code == 0 and f"position written to {path}" in out
    assert _mode(path) == 0o644


def test_match_results_and_csv_are_ordinary_files_and_force_keeps_a_mode(capsys, tmp_path, umask_022):
    out, csv = tmp_path / "m.jsonl", tmp_path / "m.csv"
    argv = ("cross-kings", "match", "--a", "greedy", "--b", "greedy", "--deals", "2", "--out", str(out),
            "--csv", str(csv))
    code, _, err = run_cli(capsys, *argv)
    assert code == 0, err
    assert _mode(out) == 0o644 and _mode(csv) == 0o644
    os.chmod(csv, 0o640)
    code, _, err = run_cli(capsys, *argv, "--force")
    assert code == 0, err
    assert _mode(csv) == 0o640 and _mode(out) == 0o644
