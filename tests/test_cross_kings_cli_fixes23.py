"""Defects of the ``crowns cross-kings`` commands found by a tester in session 23: each
test fails on the code before the fix."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from crowns_solver.cli import build_parser


# ---------------------------------------------------------------- 1. match --time 0

def test_match_time_zero_is_no_time_limit_the_nodes_bound_each_move(capsys):
    from crowns_solver.cross_kings.match_cli import _options
    from crowns_solver.cross_kings.players import DEFAULT_NODE_LIMIT

    # --time 0 (or inf) means no time limit, as in solve --time-limit, play and analyse --time:
    # the node limit (default or --nodes) bounds each move
    for time in ("0", "inf"):
        args = build_parser().parse_args(["cross-kings", "match", "--a", "search", "--time", time])
        assert _options("search", args, "a") == {"node_limit": DEFAULT_NODE_LIMIT}
        args = build_parser().parse_args(["cross-kings", "match", "--a", "search", "--time", time, "--nodes", "700"])
        assert _options("search", args, "a") == {"node_limit": 700}
    code, out, err = run_cli(capsys, "cross-kings", "match", "--a", "search", "--b", "random", "--deals", "1",
                             "--time", "0", "--nodes", "500", "--workers", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["a_options"] == {"node_limit": 500} and data["summary"]["games"] == 2
    code, out, err = run_cli(capsys, "cross-kings", "match", "--a", "search", "--b", "random", "--deals", "1",
                             "--time", "0", "--nodes", "500", "--workers", "1")
    assert code == 0 and "depend on this machine's speed" not in out   # no time limit: reproducible
    # a negative or non-number time is still refused
    for bad in ("-1", "nan", "x"):
        with pytest.raises(SystemExit):
            build_parser().parse_args(["cross-kings", "match", "--time", bad])


def test_solve_api_time_limit_zero_says_pass_none():
    from crowns_solver.cross_kings import Position
    from crowns_solver.cross_kings.solver import solve
    from crowns_solver.errors import SolverOptionError

    with pytest.raises(SolverOptionError, match=r"None .*for no limit, got 0$"):
        solve(Position.random(1), time_limit=0)


# ---------------------------------------------------------------- 8. match --csv start cell

def test_match_csv_gives_the_start_cell_as_row_col(capsys, tmp_path):
    import pandas as pd

    from crowns_solver.cross_kings.position import cell_index

    path = tmp_path / "m.csv"
    code, out, err = run_cli(capsys, "cross-kings", "match", "--a", "greedy", "--b", "random", "--deals", "3",
                             "--seed", "2", "--workers", "1", "--csv", str(path))
    assert code == 0, err
    table = pd.read_csv(path)
    columns = list(table.columns)
    assert columns[columns.index("start") + 1] == "start_cell"   # the documented number is kept, the pair added
    for number, text in zip(table["start"], table["start_cell"]):
        r, c = (int(x) for x in text.strip("()").split(","))
        assert text == f"({r},{c})" and cell_index((r, c)) == number and (r, c) in {(2, 2), (2, 3), (3, 2), (3, 3)}
    code, out, err = run_cli(capsys, "cross-kings", "match", "--a", "greedy", "--b", "random", "--deals", "1",
                             "--start", "3,2", "--workers", "1", "--csv", str(tmp_path / "f.csv"))
    assert code == 0, err
    assert set(pd.read_csv(tmp_path / "f.csv")["start_cell"]) == {"(3,2)"}
