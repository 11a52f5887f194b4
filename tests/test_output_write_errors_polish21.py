"""Outputs that fail while being written name their file (session 21 polish, item 4).

``five-crowns simulate 2 --csv /dev/full --force`` played every game, then printed
``crowns: error: No space left on device``: an error raised while writing names no file.
And the files saved by replacing them whole (a game record, a score-keeper file) put a
regular file in place of a device or a named pipe: ``--save /dev/null --force`` run as
root replaced the device node."""

from __future__ import annotations

import os

import pytest
from conftest import run_cli
from mc_toy import toy_chunk

from crowns_solver import montecarlo
from crowns_solver.errors import OutputExistsError, OutputPathError, RunnerError

FULL = "/dev/full"
needs_dev_full = pytest.mark.skipif(not os.path.exists(FULL), reason="no /dev/full here")


@needs_dev_full
@pytest.mark.parametrize("argv", [
    ["five-crowns", "simulate", "2", "--workers", "1"],
    ["cross-kings", "match", "--a", "random", "--b", "random", "--deals", "1", "--workers", "1"],
])
def test_a_csv_that_cannot_be_written_is_named(capsys, argv):
    code, _, err = run_cli(capsys, *argv, "--csv", FULL, "--force")
    assert code == 2
    assert err == "crowns: error: --csv /dev/full: cannot write the CSV: No space left on device\n"


def test_a_results_file_that_fails_after_its_header_is_named(tmp_path, monkeypatch):
    out = tmp_path / "r.jsonl"
    real = os.fsync
    calls = []

    def fsync(fd):   # the header is written; the first chunk meets a full disk
        calls.append(fd)
        if len(calls) > 1:
            raise OSError(28, "No space left on device")
        return real(fd)

    monkeypatch.setattr(montecarlo.os, "fsync", fsync)
    with pytest.raises(RunnerError, match=rf"^cannot write to the results file {out}: No space left on device;"):
        montecarlo.run(toy_chunk, 10, seed=1, chunk_size=5, workers=1, out=out)


def test_a_report_that_cannot_be_written_names_its_folder(tmp_path, monkeypatch, capsys):
    res = tmp_path / "k.jsonl"
    code, _, err = run_cli(capsys, "kings-crowns", "simulate", "--games", "10", "--workers", "1", "--out", str(res))
    assert code == 0, err
    from pathlib import Path

    def full(self, *args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full)
    code, _, err = run_cli(capsys, "report", str(res), "--out", str(tmp_path / "rep"))
    assert code == 2
    assert err == f"crowns: error: --out {tmp_path / 'rep'}: cannot write the report: No space left on device\n"


def test_a_save_never_replaces_a_pipe_or_a_device(tmp_path, capsys):
    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    code, out, err = run_cli(capsys, "five-crowns", "play", "greedy", "greedy", "--seed", "1", "--save", str(fifo),
                             "--force")
    assert code == 2 and out == ""   # refused before the game
    assert err == (f"crowns: error: --save {fifo} is not a regular file (a device or a pipe): the game record is"
                   " saved by replacing the file whole; choose a file name\n")
    assert fifo.is_fifo()
    from crowns_solver.five_crowns.game import play_game

    result = play_game(["greedy", "greedy"], seed=1)
    with pytest.raises(OutputExistsError, match="is not a regular file"):
        result.save(fifo, overwrite=True)
    assert fifo.is_fifo()


def test_the_write_error_helper_names_option_and_file():
    from crowns_solver._io import write_error

    exc = write_error(OSError(28, "No space left on device"), "--csv", "my file.csv", "CSV")
    assert isinstance(exc, OutputPathError)
    assert str(exc) == "--csv 'my file.csv': cannot write the CSV: No space left on device"
