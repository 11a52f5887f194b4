"""``crowns report`` on a Cross Kings match file names the start cell as the match does
(design probe, session 18: the report said "cell 14" where ``cross-kings match``
printed "start cell fixed at (2, 2)"; since session 21 both write the cell as every
other message does, "(2,2)")."""

from __future__ import annotations

import pytest

from conftest import run_cli


@pytest.mark.parametrize(("start", "shown"), [("2,2", "fixed at (2,2)"), ("3,2", "fixed at (3,2)"),
                                              (None, "second player chooses")])
def test_the_report_shows_the_start_cell_as_the_match_prints_it(tmp_path, capsys, start, shown):
    res = tmp_path / "m.jsonl"
    argv = ["cross-kings", "match", "--a", "greedy", "--b", "random", "--deals", "2", "--workers", "1",
            "--out", str(res)] + ([] if start is None else ["--start", start])
    code, out, _ = run_cli(capsys, *argv)
    assert code == 0 and f"start cell {shown}" in out.splitlines()[0]
    code, _, _ = run_cli(capsys, "report", str(res), "--out", str(tmp_path / "rep"))
    assert code == 0
    assert f"| start cell | {shown} |" in (tmp_path / "rep" / "report.md").read_text().splitlines()
