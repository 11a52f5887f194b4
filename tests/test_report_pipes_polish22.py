"""``crowns report`` and devices or named pipes in the place of its files (session 22):
``--force`` replaced a named pipe ``NAME.md`` with the report (os.replace), and without
``--force`` reading the pipe's first line (is it a report crowns report wrote?) hung, as
it did for a results report's ``report.md``.  They are refused in one line, exit 2, with
or without ``--force``, as ``--save`` files are (``_io.check_replaceable``).  ``--csv``
writes in place like a shell redirect: a pipe is written with ``--force``, as any
existing path (docs/cli_errors.md, "Devices and named pipes")."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from crowns_solver.cli import main

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")

STUDY = ["report", "--only", "kings_crowns_seats", "--games", "8", "--no-progress"]


def crowns(*argv: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """The command in a child process, so that a hang fails the test instead of stopping it
    (the child's whole process group, its workers too, is killed then)."""
    # run from "/": `python -m` puts the working folder first on sys.path, and from a clone
    # that imports its uncompiled source tree instead of the installed package (CI)
    child = subprocess.Popen([sys.executable, "-m", "crowns_solver", *argv], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, start_new_session=True, cwd="/")
    try:
        out, err = child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        raise
    return subprocess.CompletedProcess(child.args, child.returncode, out, err)


def is_pipe(path: Path) -> bool:
    return stat.S_ISFIFO(os.lstat(path).st_mode)


@pytest.mark.parametrize("force", [[], ["--force"]])
@pytest.mark.parametrize("name", ["kings_crowns_seats.md", "index.md", "kings_crowns_seats"])
def test_a_pipe_in_the_place_of_a_study_report_is_refused(tmp_path, force, name):
    out = tmp_path / "reports"
    out.mkdir()
    os.mkfifo(out / name)
    done = crowns(*STUDY, "--out", str(out), *force)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"crowns: error: {out / name} is not a regular file (a device or a pipe): crowns report"
                           " reads its reports back and replaces them and their charts whole; choose another --out\n")
    assert is_pipe(out / name) and sorted(p.name for p in out.iterdir()) == [name]   # nothing ran


@pytest.mark.parametrize("force", [[], ["--force"]])
@pytest.mark.parametrize("name", ["report.md", "win_rate_by_seat.png"])
def test_a_pipe_in_the_place_of_a_results_report_is_refused(tmp_path, force, name):
    from crowns_solver.kings_crowns import simulate

    results = tmp_path / "kc.jsonl"
    simulate(6, players=2, seed=1, workers=1, out=results)
    out = tmp_path / "rep"
    out.mkdir()
    os.mkfifo(out / name)
    done = crowns("report", str(results), "--out", str(out), *force)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"crowns: error: {out / name} is not a regular file (a device or a pipe)")
    assert is_pipe(out / name) and [p.name for p in out.iterdir()] == [name]


def test_a_link_to_a_device_in_the_place_of_the_index_is_refused(tmp_path, capsys):
    out = tmp_path / "reports"
    out.mkdir()
    (out / "index.md").symlink_to(os.devnull)
    assert main([*STUDY, "--out", str(out), "--force"]) == 2
    assert "index.md is not a regular file (a device or a pipe)" in capsys.readouterr().err
    assert (out / "index.md").is_symlink()


def test_a_pipe_given_as_csv_is_written_with_force_like_a_shell_redirect(tmp_path, capsys):
    pipe = tmp_path / "rows.csv"
    os.mkfifo(pipe)
    assert main(["five-crowns", "simulate", "2", "--csv", str(pipe)]) == 2   # an existing path: --force
    assert capsys.readouterr().err == f"crowns: error: --csv {pipe} already exists; use --force to overwrite it\n"
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.extend(open(pipe, encoding="utf-8").read().splitlines()))
    reader.start()
    assert main(["five-crowns", "simulate", "2", "--csv", str(pipe), "--force"]) == 0
    reader.join(60)
    assert got[0].startswith("game,") and len(got) == 1 + 2 * 4   # a header, one row per game and seat
    assert is_pipe(pipe)
