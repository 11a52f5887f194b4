"""``crowns report RESULTS`` refuses the options it would silently ignore (design probe,
session 18): ``--seed`` and ``--workers`` only run the studies, and ``--by seat`` has no
table to choose in a Cross Kings match report.  ``--quick``, ``--only`` and ``--games``
were already refused there, as ``--by`` is without RESULTS."""

from __future__ import annotations

import pytest

from conftest import run_cli
from crowns_solver.kings_crowns import simulate


@pytest.fixture()
def kc_results(tmp_path):
    path = tmp_path / "kc.jsonl"
    simulate(20, players=2, workers=1, chunk_size=10, out=path)
    return path


@pytest.mark.parametrize("option", [["--seed", "3"], ["--seed", "2026"], ["--workers", "2"]])
def test_study_options_are_refused_with_a_results_file(tmp_path, capsys, kc_results, option):
    out = tmp_path / "rep"
    code, stdout, err = run_cli(capsys, "report", str(kc_results), "--out", str(out), *option)
    assert code == 2 and stdout == ""
    assert err == ("crowns: error: --quick, --only, --games, --seed and --workers run the studies; they do not"
                   " apply to a results file\n")
    assert not out.exists()


def test_by_seat_is_refused_for_a_cross_kings_match_file(tmp_path, capsys):
    res = tmp_path / "m.jsonl"
    code, _, _ = run_cli(capsys, "cross-kings", "match", "--a", "greedy", "--b", "random", "--deals", "2",
                         "--workers", "1", "--out", str(res))
    assert code == 0
    out = tmp_path / "rep"
    code, stdout, err = run_cli(capsys, "report", str(res), "--out", str(out), "--by", "seat")
    assert code == 2 and stdout == "" and not out.exists()
    assert err == (f"crowns: error: {res}: --by seat (by='seat') applies to King's Crowns and Five Crowns results;"
                   " this is a Cross Kings match file, whose report shows A's results by seat already\n")
    code, _, _ = run_cli(capsys, "report", str(res), "--out", str(out))   # without it: the match report
    assert code == 0 and (out / "report.md").exists()


def test_the_results_report_still_takes_by_seat(tmp_path, capsys, kc_results):
    code, _, err = run_cli(capsys, "report", str(kc_results), "--out", str(tmp_path / "rep"), "--by", "seat")
    assert code == 0 and err == ""
    assert "## Win rates by seat" in (tmp_path / "rep" / "report.md").read_text()


def test_the_studies_keep_their_default_seed(tmp_path, capsys):
    code, _, _ = run_cli(capsys, "report", "--only", "kings_crowns_deck", "--games", "10", "--out", str(tmp_path),
                         "--workers", "1", "--no-progress")
    assert code == 0
    text = (tmp_path / "kings_crowns_deck.md").read_text()
    assert "| seed | 2026 |" in text and "--seed 2026 --games 10" in text
