"""A simulation or match run without ``--seed`` can be reproduced from what it prints and
writes (checked in session 21): ``kings-crowns simulate``, ``five-crowns simulate`` and
``cross-kings match`` use the fixed default seed 0, say so on their first line, record it
in the results file (``meta.seed``) and in ``--json``, and a rerun with ``--seed 0`` gives
the same results (``cross-kings play``, whose default is a fresh seed, prints it)."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

COMMANDS = {
    "kings-crowns": ["kings-crowns", "simulate", "--games", "6", "--players", "3"],
    "five-crowns": ["five-crowns", "simulate", "3", "--players", "2"],
    "cross-kings": ["cross-kings", "match", "--a", "greedy", "--b", "random", "--deals", "2"],
}


def results(out: str) -> list[str]:
    # the timing line of a match is the machine's, not the seed's; the file written is said
    return [line for line in out.splitlines() if not line.startswith(("time per move", "results written to"))]


@pytest.mark.parametrize("game", sorted(COMMANDS))
def test_a_run_without_seed_prints_and_records_the_seed_it_used(game, tmp_path, capsys):
    argv = [*COMMANDS[game], "--workers", "1"]
    code, out, err = run_cli(capsys, *argv, "--out", str(tmp_path / "r.jsonl"))
    assert code == 0, err
    assert "seed 0" in out.splitlines()[0]
    header = json.loads((tmp_path / "r.jsonl").read_text().splitlines()[0])
    assert header["meta"]["seed"] == 0
    code, again, err = run_cli(capsys, *argv, "--seed", "0")
    assert code == 0, err
    assert results(again) == results(out)
    code, other, err = run_cli(capsys, *argv, "--seed", "1")
    assert code == 0 and "seed 1" in other.splitlines()[0]
    code, js, err = run_cli(capsys, *argv, "--json")
    assert code == 0 and json.loads(js)["seed"] == 0
