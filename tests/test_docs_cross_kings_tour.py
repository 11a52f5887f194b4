"""The tour in docs/cross_kings_solver.md prints what the document shows.

Only the runs whose output does not depend on the machine are checked: exact solves and
node-limited ones (a time-limited run reaches a depth that depends on the machine's
speed).  The seconds and nodes per second of the "searched ..." line are left out of the
comparison; everything else, node counts included, must match line for line.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "cross_kings_solver.md"


def tour_runs() -> list[tuple[str, list[str]]]:
    """The tour's ``$ crowns ...`` blocks that are exact or node-limited: (command, output lines)."""
    text = DOC.read_text()
    start = text.index("### A short tour")
    end = text.index("\n## ", start)
    runs = []
    for block in re.findall(r"```\n(.*?)```", text[start:end], flags=re.S):
        lines = block.splitlines()
        if not lines or not lines[0].startswith("$ crowns "):
            continue
        command, output = lines[0][2:], lines[1:]
        if "--node-limit" in command or any(line.endswith("(exact)") for line in output):
            runs.append((command, output))
    return runs


RUNS = tour_runs() if DOC.is_file() else []

SPEED = re.compile(r" in [0-9.]+ s \([0-9,]+ nodes/s\)")


def normalised(lines: list[str]) -> list[str]:
    """Lines without trailing blanks, and without the run's seconds and nodes per second."""
    return [SPEED.sub(" in - s (- nodes/s)", line.rstrip()) for line in lines]


def test_the_tour_has_checkable_runs():
    if not DOC.is_file():
        pytest.skip("docs/ not beside the tests (installed elsewhere)")
    # the endgame, the crosskings.net game, the 26-card and the 17-card positions
    assert len(RUNS) == 4, [command for command, _ in RUNS]


@pytest.mark.skipif(not RUNS, reason="docs/ not beside the tests (installed elsewhere)")
@pytest.mark.parametrize(("command", "expected"), RUNS, ids=[f"run{i}" for i in range(len(RUNS))])
def test_tour_run_prints_what_the_doc_shows(capsys, command, expected):
    argv = shlex.split(command)
    assert argv[0] == "crowns"
    argv = [str(ROOT / arg) if arg.startswith("docs/") else arg for arg in argv[1:]]
    code, out, err = run_cli(capsys, *argv)
    assert code == 0 and not err
    assert normalised(out.splitlines()) == normalised(expected)
