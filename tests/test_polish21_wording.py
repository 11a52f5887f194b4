"""Session 21 polish: one spelling of counts and cells in the Cross Kings outputs.

- The match report said "2 games over 1 deals" (item 3).
- A cell was "(2, 2)" (a Python tuple) in the reach-nearest "legal:" list, the match
  header and the start-cell tables, "(2,2)" everywhere else (item 6).
"""

from __future__ import annotations

import pytest
from conftest import run_cli

from crowns_solver.cross_kings import Position, Rules
from crowns_solver.errors import CrownsError, PositionError


def test_match_report_of_one_deal_says_one_deal(capsys, tmp_path):
    res = tmp_path / "m.jsonl"
    code, _, err = run_cli(capsys, "cross-kings", "match", "--a", "greedy", "--b", "random", "--deals", "1",
                           "--workers", "1", "--out", str(res))
    assert code == 0, err
    code, _, err = run_cli(capsys, "report", str(res), "--out", str(tmp_path / "rep"))
    assert code == 0, err
    text = (tmp_path / "rep" / "report.md").read_text()
    assert "Each deal is played twice with the seats exchanged: 2 games over 1 deal." in text
    assert "1 deals" not in text


@pytest.mark.parametrize(("cell", "text"), [((2, 2), "(2,2)"), (14, "(2,2)"), ((0, 5), "(0,5)"), (35, "(5,5)")])
def test_cell_text(cell, text):
    from crowns_solver.cross_kings.position import cell_text

    assert cell_text(cell) == text


@pytest.mark.parametrize("bad", [36, (6, 0), "x", None])
def test_cell_text_refuses_a_non_cell(bad):
    from crowns_solver.cross_kings.position import cell_text

    with pytest.raises(PositionError, match="no such cell"):
        cell_text(bad)


def test_illegal_move_lists_legal_cells_as_row_comma_col():
    pos = Position.random(1, rules=Rules(reach="nearest")).play((2, 2))
    legal = pos.legal_moves()
    bad = next((r, c) for r in range(6) for c in range(6) if (r, c) not in legal and (r, c) != (2, 2))
    with pytest.raises(CrownsError) as info:
        pos.play(bad)
    message = str(info.value)
    assert message.endswith("legal: " + " ".join(f"({r},{c})" for r, c in legal))
    assert ", " not in message.split("legal: ")[1]


def test_match_header_writes_the_start_cell_as_row_comma_col(capsys):
    code, out, err = run_cli(capsys, "cross-kings", "match", "--a", "greedy", "--b", "random", "--deals", "1",
                             "--workers", "1", "--start", "3,2")
    assert code == 0, err
    assert out.splitlines()[0].endswith("reach any, start cell fixed at (3,2)")


def test_five_crowns_simulate_of_one_round_says_round_1_only(capsys):
    code, out, err = run_cli(capsys, "five-crowns", "simulate", "2", "--rounds", "1", "--seed", "1", "--workers", "1")
    assert code == 0, err
    assert out.startswith("2 games, 4 players, 1 set, round 1 only, seed 1;")
    code, out, err = run_cli(capsys, "five-crowns", "simulate", "2", "--rounds", "2", "--seed", "1", "--workers", "1")
    assert code == 0 and out.startswith("2 games, 4 players, 1 set, rounds 1 to 2 only, seed 1;")


def test_kings_crowns_simulate_says_when_the_file_was_already_complete(capsys, tmp_path):
    out_file = tmp_path / "k.jsonl"
    argv = ["kings-crowns", "simulate", "--games", "20", "--chunk-size", "5", "--workers", "1", "--out", str(out_file)]
    code, out, err = run_cli(capsys, *argv)
    assert code == 0, err
    assert out.splitlines()[-1] == f"results written to {out_file}"
    whole = out_file.read_bytes()
    code, out, err = run_cli(capsys, *argv)
    assert code == 0, err
    assert out.splitlines()[-1] == f"{out_file} was already complete (20 games): nothing new was played or written"
    assert out_file.read_bytes() == whole
    # a run stopped after three of its four chunks: resumed, the last line says what is new
    lines = whole.decode().splitlines(keepends=True)
    out_file.write_text("".join(lines[:-1]))
    code, out, err = run_cli(capsys, *argv)
    assert code == 0, err
    assert out.splitlines()[-1] == f"results written to {out_file} (5 new, the rest read back from it)"
    assert out_file.read_bytes() == whole
