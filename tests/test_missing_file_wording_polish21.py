"""A missing input file is said one way by every command that reads one (session 21
polish, item 5): ``cross-kings show/solve x.json`` said "x.json: No such file or
directory", ``analyse`` and ``play --load`` "no such file: 'x.json'"."""

from __future__ import annotations

import pytest
from conftest import run_cli

READERS = [
    ["cross-kings", "show", "{f}"],
    ["cross-kings", "solve", "{f}"],
    ["cross-kings", "analyse", "{f}"],
    ["cross-kings", "play", "--load", "{f}"],
    ["five-crowns", "replay", "{f}"],
    ["five-crowns", "keeper", "--resume", "{f}"],
    ["report", "{f}"],
    ["kings-crowns", "simulate", "--games", "1", "--deck", "{f}"],
    ["kings-crowns", "deck", "{f}"],
]


@pytest.mark.parametrize("argv", READERS, ids=lambda a: " ".join(a[:2]))
@pytest.mark.parametrize("name", ["x.json", "no such dir/g.txt"])
def test_every_reader_says_a_missing_file_the_same_way(capsys, monkeypatch, tmp_path, argv, name):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(""))
    code, _, err = run_cli(capsys, *[a.format(f=name) for a in argv])
    assert code == 2
    assert err == f"crowns: error: {name}: No such file or directory\n"


def test_a_name_that_is_neither_a_file_nor_a_save_string_says_both(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(capsys, "cross-kings", "analyse", "abc")
    assert code == 2
    assert err == "crowns: error: abc: No such file or directory, and it is not a save string (no '//')\n"
