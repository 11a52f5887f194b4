"""``crowns cross-kings solve``: text and JSON output, limits, one-line errors."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest
from conftest import load_json, run_cli as run

from crowns_solver.cli import main
from crowns_solver.cross_kings import Position, solve

LABEL_SAVE = (
    "??7S6H2H8H??/5H6C3SAHKH7C/3C8C??KC5D4C/4HAD??7D2D5S/7H4DKD6D6S8S/5C3D4SKS2S2C"
    "//ASAC8D3H//301273969908864214574189716"
)


@pytest.fixture
def endgame_file(tmp_path):
    case = load_json("cross_kings_endgames.json")["cases"][3]
    path = tmp_path / "endgame.json"
    path.write_text(json.dumps(case["position"]))
    return path, case


def test_solve_prints_grid_value_moves_and_pv(capsys, endgame_file):
    path, case = endgame_file
    pos = Position.from_dict(case["position"])
    code, out, err = run(capsys, "cross-kings", "solve", str(path), "--all-moves")
    assert code == 0 and not err
    sign = 1 if pos.to_move == "first" else -1
    assert pos.render().splitlines()[1] in out
    assert f"for {pos.to_move} to move" in out
    assert f"value {sign * case['value']:+d}  (exact)" in out
    assert "moves, best first:" in out and "principal variation:" in out
    listed = [line for line in out.splitlines() if line.startswith("  (")]
    assert len(listed) == len(case["move_values"])
    values = [int(line.split()[2]) for line in listed]
    assert values == sorted(values, reverse=True)  # ranked, best first
    assert sorted(values) == sorted(sign * v for v in case["move_values"].values())


def test_solve_json_matches_the_api(capsys, endgame_file):
    path, case = endgame_file
    code, out, _ = run(capsys, "cross-kings", "solve", str(path), "--json", "--objective", "win")
    data = json.loads(out)
    sol = solve(Position.from_dict(case["position"]), objective="win")
    assert code == 0 and Fraction(data["value"]) == sol.value and data["exact"] is True
    assert data["objective"] == "win" and data["mode"] == "open"
    assert data["position"]["marker"] == case["position"]["marker"]


def test_solve_game_mode_lists_card_values(capsys):
    code, out, _ = run(capsys, "cross-kings", "solve", LABEL_SAVE, "--mode", "game",
                       "--objective", "win", "--all-moves")
    assert code == 0
    assert "game value (face-down cards unknown), expected game points" in out
    # (2,2) is face down: one line per card it may reveal (AS, 3H, 8D, AC)
    assert sum(1 for line in out.splitlines() if "reveals" in line) == 4
    # labels: (4,3) w 0 d 0 of m 24 for the opponent -> 1; (2,4) w 12 d 8 -> (24-12-4)/24
    assert "(4,3) 6D  1  best" in out and "(2,4) 5D  0.3333 (= 1/3)" in out


def test_solve_a_fresh_deal_is_anytime(capsys):
    code, out, _ = run(capsys, "cross-kings", "solve", "--random", "1", "--node-limit", "200000")
    assert code == 0
    assert "for second to move" in out and "estimate" in out and "proven between" in out
    assert "not exact: node limit" in out
    for cell in ("(2,2)", "(2,3)", "(3,2)", "(3,3)"):
        assert f"  {cell}" in out
    assert "line the search prefers: start (" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["cross-kings", "solve", LABEL_SAVE], "; use --mode game for the value"),
        (["cross-kings", "solve", "--random", "1", "--tt-mb", "0.5", "--node-limit", "10"],
         "--tt-mb must be a number of MB from 1 to 65536, got 0.5"),
        (["cross-kings", "solve"], "no position given"),
    ],
)
def test_solve_errors_are_one_line(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and message in err


@pytest.mark.parametrize("option", [["--time-limit", "-1"], ["--time-limit", "soon"], ["--node-limit", "0"],
                                    ["--mode", "closed"], ["--node-limit", "99999999999999999999999"]])
def test_solve_bad_options_are_usage_errors(capsys, option):
    with pytest.raises(SystemExit) as exc:
        main(["cross-kings", "solve", "--random", "1", *option])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "node_limit" not in err   # the option's name, not the API's (found by a probe)


def test_the_table_size_reads_in_a_sensible_unit(capsys):
    # a parallel solve whose node limit the parent's first pass used up has only the
    # parent's minimal table to show: it read "(6.10352e-05 MB)" (found by a probe)
    # (since session 20 that table is 32 KB, half the engine's 64 KB minimum: it was one
    # 64-byte bucket beside a 64 KB leaf-score cache, 64 bytes over the budget)
    code, out, _ = run(capsys, "cross-kings", "solve", "--random", "2", "--node-limit", "1", "--workers", "2")
    assert code == 0
    assert re.search(r"entries used \(32 KB\)$", out.strip().splitlines()[-1]), out
    code, out, _ = run(capsys, "cross-kings", "solve", "--random", "2", "--node-limit", "1000", "--tt-mb", "8")
    assert re.search(r"entries used \(\d+ MB\)$", out.strip().splitlines()[-1]), out


@pytest.mark.parametrize("seed", [3, 4])
def test_solve_of_a_finished_game_says_it_is_over(capsys, tmp_path, seed):
    """A finished game has nothing to search: one line gives both scores and the final
    value for the player whose turn it would be (RULES.md "End", "Outcome"), in both
    objectives, instead of a search report."""
    import numpy as np

    rng = np.random.default_rng(seed)
    pos = Position.random(rng, "any")
    while not pos.is_terminal():
        moves = pos.legal_moves()
        pos = pos.play(moves[int(rng.integers(len(moves)))])
    path = tmp_path / "over.json"
    path.write_text(json.dumps(pos.to_dict()))
    first, second = pos.scores()
    margin = first - second if pos.to_move == "first" else second - first
    points = {1: "1", 0: "1/2", -1: "0"}[(margin > 0) - (margin < 0)]
    for objective, value, what in (("margin", f"{margin:+d}" if margin else "0", "final margin"),
                                   ("win", points, "game points: win 1, draw 1/2, loss 0")):
        code, out, err = run(capsys, "cross-kings", "solve", str(path), "--objective", objective, "--mode", "game")
        assert code == 0 and not err
        assert out.splitlines()[-1] == (f"the game is over: first {first} points, second {second} points; value {value}"
                                        f" ({what}) for {pos.to_move}, whose turn it would be")
        assert "searched" not in out and "moves, best first" not in out
