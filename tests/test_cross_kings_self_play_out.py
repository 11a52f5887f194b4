"""``cross_kings.self_play(out=...)`` (session 21): a resumable results file, as
``match(out=)``, ``five_crowns.simulate(out=)`` and ``kings_crowns.simulate(out=)`` take;
it was the only run of the library without one (``crowns report FILE`` already read
self-play files made through ``montecarlo.run``)."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import run_cli

from crowns_solver import montecarlo
from crowns_solver.cross_kings.match import self_play
from crowns_solver.errors import (
    EmptyPathError, FolderPathError, MissingFolderError, OutputExistsError, ResultsFileError,
)

KW = {"seed": 5, "workers": 1, "chunk_size": 2}


def test_self_play_writes_a_results_file_that_reads_back_as_its_games(tmp_path):
    out = tmp_path / "sp.jsonl"
    games = self_play("greedy", 5, out=out, **KW)
    assert out.is_file()
    # the same games as without a file (all but the time spent choosing)
    plain = self_play("greedy", 5, **KW)
    pd.testing.assert_frame_equal(games.drop(columns="seconds").reset_index(drop=True),
                                  plain.drop(columns="seconds").reset_index(drop=True))
    back = montecarlo.read_results(out)
    assert len(back) == 5 and list(back["deal"]) == [0, 1, 2, 3, 4]
    assert list(back["margin_first"]) == list(games["margin_first"])
    assert back.attrs["play_chunk"].endswith("self_play_chunk") and back.attrs["game"] == "cross-kings"


def test_a_second_call_resumes_the_file_instead_of_replacing_it(tmp_path):
    out = tmp_path / "sp.jsonl"
    first = self_play("greedy", 4, out=out, **KW)
    text = out.read_text()
    again = self_play("greedy", 4, out=out, **KW)
    assert out.read_text() == text   # nothing replayed, nothing rewritten
    assert list(again["margin_first"]) == list(first["margin_first"])
    # another chunk size resumes it with its own: deal d comes from SeedSequence([seed, d])
    other = self_play("greedy", 4, out=out, seed=5, workers=1, chunk_size=3)
    assert list(other["margin_first"]) == list(first["margin_first"])


def test_a_file_of_another_run_or_the_users_is_refused_not_replaced(tmp_path):
    out = tmp_path / "sp.jsonl"
    self_play("greedy", 3, out=out, **KW)
    text = out.read_text()
    with pytest.raises(ResultsFileError):
        self_play("greedy", 3, out=out, seed=6, workers=1, chunk_size=2)
    with pytest.raises(ResultsFileError):
        self_play("random", 3, out=out, **KW)
    assert out.read_text() == text
    mine = tmp_path / "notes.txt"
    mine.write_text("my notes\n")
    with pytest.raises(ResultsFileError):
        self_play("greedy", 2, out=mine, **KW)
    assert mine.read_text() == "my notes\n"


@pytest.mark.parametrize("path, error", [("", EmptyPathError), ("adir/", FolderPathError),
                                         ("nowhere/sp.jsonl", MissingFolderError)])
def test_bad_output_paths_are_refused_before_any_game(tmp_path, monkeypatch, path, error):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(error, match=r"out") as info:
        self_play("greedy", 2, out=path, **KW)
    assert isinstance(info.value, OutputExistsError)
    assert list(tmp_path.iterdir()) == []


def test_crowns_report_reads_a_self_play_file(tmp_path, capsys):
    out = tmp_path / "sp.jsonl"
    games = self_play("greedy", 6, out=out, **KW)
    code, stdout, err = run_cli(capsys, "report", str(out), "--out", str(tmp_path / "rep"))
    assert code == 0, err
    text = (tmp_path / "rep" / "report.md").read_text()
    wins = int((games["margin_first"] > 0).sum())
    assert "greedy in both seats" in text
    assert f"| first player wins | {wins} | 6 |" in text
