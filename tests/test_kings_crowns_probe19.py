"""King's Crowns analyst's probe (session 19): resumes, decks, seeds and policies as an
analyst uses them.  Each test failed on the code before its fix."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from conftest import run_cli

from crowns_solver import montecarlo
from crowns_solver.errors import ResultsFileError
from crowns_solver.kings_crowns import Rules, simulate


def _cut_to_first_chunk(path: Path) -> None:
    """Keep the header and the first chunk only: a run stopped after one chunk."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(lines[:2]), encoding="utf-8")


@pytest.mark.parametrize("players, target", [(4, 100), (2, 100), (5, 75)])
def test_naming_the_rules_own_target_resumes_a_run_made_without_it(tmp_path, players, target):
    # --target 100 (75 with five players) is the rule's target: the same games, so the
    # same run; it was refused ("rules.target is null there, 100 now")
    out = tmp_path / "r.jsonl"
    args = dict(players=players, policies="greedy", seed=4, chunk_size=10, workers=1)
    whole = simulate(30, **args)
    simulate(30, out=out, **args)
    _cut_to_first_chunk(out)
    resumed = simulate(30, rules=Rules(target=target), out=out, **args)
    pd.testing.assert_frame_equal(resumed.reset_index(drop=True), whole.reset_index(drop=True))
    # and the other way round: a file made with the target named resumes without it
    out2 = tmp_path / "r2.jsonl"
    simulate(30, rules=Rules(target=target), out=out2, **args)
    _cut_to_first_chunk(out2)
    again = simulate(30, out=out2, **args)
    pd.testing.assert_frame_equal(again.reset_index(drop=True), whole.reset_index(drop=True))


def test_another_target_is_still_refused_on_resume(tmp_path):
    out = tmp_path / "r.jsonl"
    simulate(20, players=2, seed=4, chunk_size=10, workers=1, out=out)
    _cut_to_first_chunk(out)
    before = out.read_bytes()
    with pytest.raises(ResultsFileError, match="rules.target is null there, 90 now"):
        simulate(20, players=2, seed=4, chunk_size=10, workers=1, out=out, rules=Rules(target=90))
    assert out.read_bytes() == before


def test_cli_target_100_resumes_a_default_run(tmp_path, capsys):
    out = tmp_path / "c.jsonl"
    base = ["kings-crowns", "simulate", "--games", "30", "--players", "3", "--seed", "2", "--chunk-size", "10",
            "--workers", "1", "--out", str(out)]
    code, first, _ = run_cli(capsys, *base)
    assert code == 0
    _cut_to_first_chunk(out)
    code, again, err = run_cli(capsys, *base, "--target", "100")
    assert (code, err) == (0, "")
    assert again == first  # the same table, line for line
    assert json.loads(out.read_text().splitlines()[0])["meta"]["target"] == 100
    assert len(montecarlo.read_results(out)) == 30
