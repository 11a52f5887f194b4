"""Defects of the ``crowns cross-kings`` commands found by a tester in session 23: each
test fails on the code before the fix."""

from __future__ import annotations

import json

import pytest
from conftest import cli_fails as _fails, run_cli

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


# ---------------------------------------------------------------- 4. a missing file

@pytest.mark.parametrize("command", ["show", "solve"])
def test_a_missing_file_without_extension_is_said_missing(capsys, tmp_path, command):
    for name in ("deal1", str(tmp_path / "games" / "deal1"), "/nonexist", "AS KS"):
        assert _fails(capsys, "cross-kings", command, name) == f"crowns: error: no such file or save string: {name!r}"
    assert _fails(capsys, "cross-kings", command, "  ") == (
        "crowns: error: no position given: POSITION is blank; pass a save string, a file, or --random SEED")
    long = "x" * 300
    assert _fails(capsys, "cross-kings", command, long) == (
        f"crowns: error: no such file or save string: {'x' * 197 + '...'!r}")
    # the file, once there, is read (a deal's six lines, without an extension)
    from crowns_solver.cross_kings import Position

    path = tmp_path / "deal1"
    grid = Position.random(4).grid
    path.write_text("\n".join(" ".join(grid[6 * r:6 * r + 6]) for r in range(6)) + "\n")
    code, out, err = run_cli(capsys, "cross-kings", "show", str(path))
    assert code == 0, err


# ---------------------------------------------------------------- 6. wording

def test_open_mode_refusal_names_only_the_option_on_the_command_line(capsys):
    from crowns_solver.cross_kings import Position, solve
    from crowns_solver.errors import UnknownCardError

    save = ("??7S6H2H8H??/5H6C3SAHKH7C/3C8C??KC5D4C/4HAD??7D2D5S/7H4DKD6D6S8S/5C3D4SKS2S2C"
            "//ASAC8D3H//301273969908864214574189716")
    err = _fails(capsys, "cross-kings", "solve", save)
    assert "; use --mode game for the value of the game" in err and "mode=" not in err
    with pytest.raises(UnknownCardError, match=r"; use mode='game' for the value") as exc:   # Python's words
        solve(Position.from_text(save))
    assert "--mode" not in str(exc.value)


def test_name_options_gives_a_quoted_value_as_typed():
    from crowns_solver.cli import name_options
    from crowns_solver.errors import SolverOptionError

    options = {"mode": "--mode", "tt_mb": "--tt-mb"}
    assert name_options(SolverOptionError("use mode='game' or mode=\"open\"", argument="mode"), options) == (
        "use --mode game or --mode open")
    assert name_options(SolverOptionError("tt_mb=3 is small; tt_mb='a b'", argument="tt_mb"), options) == (
        "--tt-mb 3 is small; --tt-mb 'a b'")


@pytest.mark.parametrize("grid, said", [(None, "got null"), ("abc", "got a string ('abc')"), (5, "got 5"),
                                        ({}, "got an object"), ([None] * 3, "got 3")])
def test_json_grid_of_the_wrong_kind_is_said_in_jsons_words(capsys, tmp_path, grid, said):
    path = tmp_path / "g.json"
    path.write_text(json.dumps({"grid": grid, "marker": None, "to_move": "first", "first_hand": [],
                                "second_hand": []}))
    assert _fails(capsys, "cross-kings", "show", str(path)) == f"crowns: error: grid must list 36 cells (6x6), {said}"


def test_json_face_down_null_is_said_null(capsys, tmp_path):
    from crowns_solver.cross_kings import Position

    data = Position.random(3).to_dict()
    data["face_down"] = None
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    assert _fails(capsys, "cross-kings", "show", str(path)) == (
        "crowns: error: face_down must be a list of cells, got null")


@pytest.mark.parametrize("save, said", [
    ("////", "the grid (before the first '//') is empty: expected 6 rows of 6 cards separated by '/'"),
    ("AS2S3S4S5S6S//AS//", "the grid has 1 row, expected 6 (separated by '/')"),
    ("AS2S3S4S5S6S/7S8SAH2H3H4H//AS//", "the grid has 2 rows, expected 6 (separated by '/')"),
])
def test_save_string_grid_row_count_is_grammatical(capsys, save, said):
    assert _fails(capsys, "cross-kings", "show", save) == f"crowns: error: {said}"


def test_one_command_one_error_prefix(capsys):
    # a usage error (argparse) and an error the API finds: the same prefix (it was
    # "crowns cross-kings solve: error:" for the first, "crowns: error:" for the second)
    usage = _fails(capsys, "cross-kings", "solve", "--random", "1", "--workers", "0")
    api = _fails(capsys, "cross-kings", "solve", "--random", "1", "--tt-mb", "0")
    assert usage == "crowns: error: argument --workers: must be >= 1: '0'"
    assert api == "crowns: error: --tt-mb must be a number of MB from 1 to 65536, got 0"


# ---------------------------------------------------------------- 3. lower-case cards

LEGEND = "lower case ({}): a face-down card known here, which the players see as ?? until it is taken"


def _grid_lines(out: str) -> list[str]:
    lines = out.splitlines()
    start = next(k for k, line in enumerate(lines) if line.split() == [str(c) for c in range(6)])
    return lines[start:start + 9]   # header, six rows, status, what follows


@pytest.mark.parametrize("argv", [("show", "--random", "5"), ("solve", "--random", "5", "--node-limit", "2000")])
def test_lower_case_cards_get_a_legend_under_the_grid(capsys, argv):
    from crowns_solver.cross_kings import Position

    pos = Position.random(5)
    code, out, err = run_cli(capsys, "cross-kings", *argv)
    assert code == 0, err
    grid = _grid_lines(out)
    assert grid[7].startswith("cards left 36") and "2d" in grid[1]   # (0,0) holds 2D face down
    first = min(pos.face_down)
    assert grid[8] == LEGEND.format(pos.grid[first].lower()) == LEGEND.format("2d")


def test_no_legend_without_lower_case_cards(capsys, tmp_path):
    save = ("??7S6H2H8H??/5H6C3SAHKH7C/3C8C??KC5D4C/4HAD??7D2D5S/7H4DKD6D6S8S/5C3D4SKS2S2C"
            "//ASAC8D3H//301273969908864214574189716")
    code, out, err = run_cli(capsys, "cross-kings", "show", save)
    assert code == 0 and "lower case" not in out
    from crowns_solver.cross_kings import Position

    # a JSON position knowing a face-down card: analyse prints the legend too
    pos = Position.random(2).play((2, 3)).play((2, 0))
    path = tmp_path / "g.json"
    path.write_text(json.dumps(pos.to_dict()))
    code, out, err = run_cli(capsys, "cross-kings", "analyse", str(path), "--node-limit", "300", "--time", "0")
    assert code == 0, err
    assert LEGEND.format(pos.grid[min(i for i in pos.face_down if i not in pos.taken)].lower()) in out


def test_grid_legend_function():
    from crowns_solver.cross_kings import Position
    from crowns_solver.cross_kings.cli import grid_legend
    from crowns_solver.cross_kings.play import public_position

    pos = Position.random(5)
    assert grid_legend(pos) == LEGEND.format("2d")
    assert grid_legend(public_position(pos)) is None   # every face-down card ??: what play shows
    assert grid_legend(pos.play((2, 2)).play((0, 2))) == LEGEND.format("2d")


@pytest.mark.parametrize("command", ["show", "score"])
def test_show_and_score_help_have_a_description(capsys, command):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["cross-kings", command, "--help"])
    out = capsys.readouterr().out
    paragraphs = out.split("\n\n")
    assert paragraphs[1].startswith({"show": "Show a Cross Kings position", "score": "Score a Cross Kings hand"}[command])
    if command == "show":
        assert "lower-case card such as 7s" in paragraphs[1]


# ---------------------------------------------------------------- 7. proven bounds

#: 22 cards left, 9 face down (Position.random(7), start (2,2), then random moves of
#: default_rng(1)); under a node limit in game mode some bounds are ninths (-568/9).
POS22 = "??5C2H5S3D??/3H??5H4D??7H/4SKD??4C6H2D/3CKS????8S2S/8H7SAD8D??2C/6SKC3S8C6D??//ASAH4H5D7DAC6C7CKH//45790189229315"


def test_rounded_bounds_are_outward_and_said_so(capsys):
    import re
    from fractions import Fraction

    argv = ("cross-kings", "solve", POS22, "--mode", "game", "--time-limit", "0", "--node-limit", "200000")
    code, out, err = run_cli(capsys, *argv)
    assert code == 0, err
    code, js, err = run_cli(capsys, *argv, "--json")
    data = json.loads(js)
    assert not data["exact"]
    exact = [(Fraction(m["lower"]), Fraction(m["upper"])) for m in data["moves"]]   # --json: exact fractions
    printed = re.findall(r"proven ([-+]?[\d.]+) \.\. ([-+]?[\d.]+)", out)
    assert len(printed) == len(exact)
    rounded = False
    for (lo, hi), (plo, phi) in zip(exact, printed):
        assert Fraction(plo) <= lo and Fraction(phi) >= hi   # never tighter than what is proven
        assert lo - Fraction(plo) < Fraction(1, 10**4) and Fraction(phi) - hi < Fraction(1, 10**4)
        rounded |= Fraction(plo) != lo or Fraction(phi) != hi
    assert rounded   # this position has such a bound (-568/9)
    assert ("  (proven bounds are rounded outward to 4 places, a lower bound down and an upper bound up,"
            " so that none claims more than is proven; --json gives them as exact fractions)") in out.splitlines()


def test_no_rounding_note_when_every_bound_is_exact(capsys):
    code, out, err = run_cli(capsys, "cross-kings", "solve", "--random", "1", "--node-limit", "20000",
                             "--time-limit", "0")
    assert code == 0 and "proven between" in out and "rounded outward" not in out


# ---------------------------------------------------------------- 5. Ctrl-C in play's analysis

#: Every cell, over and over: the illegal ones are refused, so it plays whole games.
EVERY_CELL = "".join(f"{r},{c}\n" for _ in range(20) for r in range(6) for c in range(6))


def test_ctrl_c_in_plays_analysis_keeps_the_moves_analysed(capsys, monkeypatch):
    from conftest import run_play

    from crowns_solver.cross_kings.play import PlaySession

    real = PlaySession.evaluate
    calls = []

    def evaluate(self, pos):
        if self.position.is_terminal():   # the end-of-game analysis: Ctrl-C at the third move
            calls.append(pos)
            if len(calls) == 3:
                raise KeyboardInterrupt
        return real(self, pos)

    monkeypatch.setattr(PlaySession, "evaluate", evaluate)
    code, out, err = run_play(capsys, monkeypatch, EVERY_CELL, "--seed", "4", "--opponent", "random",
                              "--time", "0", "--node-limit", "300")
    assert code == 130 and err == "crowns: interrupted\n"
    lines = out.splitlines()
    at = next(k for k, line in enumerate(lines) if line.startswith("analysing your "))
    total = int(lines[at].split()[2])
    assert lines[at + 1].startswith("move-by-move analysis of your moves:")
    assert lines[at + 2].split() == ["ply", "player", "move", "card", "value", "best", "move", "best", "lost"]
    assert [line.split()[:2] for line in lines[at + 3:at + 5]] == [["1", "you"], ["3", "you"]]   # the two done
    assert lines[at + 5].startswith("you: ") and "over 2 moves" in lines[at + 5]
    assert lines[at + 6] == (f"PARTIAL ANALYSIS: interrupted (Ctrl-C) after 2 of {total} moves;"
                             " the moves after those were not analysed")
    assert lines[-1].startswith("interrupted; the game is over: analyse it with crowns cross-kings analyse '")
    # the hint repeats the analysis play was making: the person's moves, the same search
    human = "first" if lines[at + 3].split()[0] == "1" else "second"
    assert lines[-1].endswith(f"' --player {human} --time 0 --node-limit 300")


def test_ctrl_c_at_plays_first_analysed_move_says_none_was_analysed(capsys, monkeypatch):
    from conftest import run_play

    from crowns_solver.cross_kings.play import PlaySession

    real = PlaySession.evaluate

    def evaluate(self, pos):
        if self.position.is_terminal():
            raise KeyboardInterrupt
        return real(self, pos)

    monkeypatch.setattr(PlaySession, "evaluate", evaluate)
    code, out, err = run_play(capsys, monkeypatch, EVERY_CELL, "--seed", "4", "--opponent", "random",
                              "--time", "0", "--node-limit", "300")
    assert code == 130
    lines = out.splitlines()
    at = next(k for k, line in enumerate(lines) if line.startswith("analysing your "))
    assert lines[at + 1].startswith("PARTIAL ANALYSIS: interrupted (Ctrl-C) after 0 of ")


def test_a_one_line_deal_says_one_row():
    from crowns_solver.cross_kings import Deal
    from crowns_solver.errors import PositionError

    with pytest.raises(PositionError, match=r"^a deal has 6 rows of 6 cards, got 1 row$"):
        Deal.from_text("AS 2S 3S 4S 5S 6S")


# ---------------------------------------------------------------- 2. play --load and the seed

#: The tester's game: 34 cards left, 12 face down.
LOADED = "??3C5S4D3H??/7S??2D8H??6S/2S3S????KSAH/8C5D????KHKC/5H??6H7H??8D/??4C2H7C4S??//AS8S4HAD3D6D7DAC2C5C6CKD//25"
PLAY_LIMITS = ("--time", "0", "--node-limit", "500", "--opponent", "greedy")


def _reveals(out: str) -> list[str]:
    return [line for line in out.splitlines() if " take" in line and "face down" in line]


def test_load_with_a_seed_reveals_the_same_cards_and_the_resume_line_gives_the_seed(capsys, monkeypatch):
    from conftest import run_play

    runs = []
    for _ in range(3):
        code, out, err = run_play(capsys, monkeypatch, "1,4\nquit\n", "--load", LOADED, "--seed", "7", *PLAY_LIMITS)
        assert code == 0, err
        runs.append(out)
    assert _reveals(runs[0]) and _reveals(runs[0]) == _reveals(runs[1]) == _reveals(runs[2])
    resume = runs[0].splitlines()[-1]
    assert resume.startswith("game left unfinished; resume with: crowns cross-kings play --load '")
    assert " --seed 7 --opponent greedy --time 0 --node-limit 500" in resume
    # without --seed: a fresh seed, printed in the banner and given in the resume line
    code, out, err = run_play(capsys, monkeypatch, "quit\n", "--load", LOADED, *PLAY_LIMITS)
    seed = out.splitlines()[0].rsplit("seed ", 1)[1]
    assert f"--load '{LOADED}' --seed {seed} --opponent greedy" in out.splitlines()[-1]


def _hidden(session):
    pos = session.position
    return {i: pos.cells[i] for i in pos.face_down}


def _resumed(session, **kw):
    from crowns_solver.cross_kings.play import PlaySession

    text, _ = session._resume_text()
    return PlaySession(seed=session.seed, load=text, opponent="random", node_limit=500, time_limit=None, **kw)


@pytest.mark.parametrize("seed", [0, 7, 12345])
def test_a_resumed_game_finds_the_unseen_cards_where_they_were(seed):
    # the line printed to resume (--load TEXT --seed S) brings back the same game: every
    # card still face down lies where it lay, for a loaded game and for a new deal, and
    # for a new deal started off (2,2) whose save string is reflected
    import numpy as np

    from crowns_solver.cross_kings.play import PlaySession, _mirror_to_save_start

    rng = np.random.default_rng(seed)
    for load, start in ((LOADED, None), (None, (2, 2)), (None, (3, 3)), (None, (2, 3))):
        session = PlaySession(seed=seed, load=load, opponent="random", node_limit=500, time_limit=None)
        before = dict(_hidden(session))
        if start is not None:
            session.take(start)
        for _ in range(6):   # some moves, revealing some face-down cards or not
            moves = session.position.legal_moves()
            session.take(moves[rng.integers(len(moves))])
        assert set(_hidden(session).items()) <= set(before.items())
        again = _resumed(session)
        played = session.position
        if played.start is not None and played.start != 14:
            played = _mirror_to_save_start(played)   # the save string starts at (2,2)
        assert again.position.face_down == played.face_down
        assert _hidden(again) == {i: played.cells[i] for i in played.face_down}
        # and once more from there
        for _ in range(4):
            moves = again.position.legal_moves()
            again.take(moves[rng.integers(len(moves))])
        third = _resumed(again)
        assert _hidden(third) == _hidden(again)


def test_save_file_keeps_the_seed_and_load_uses_it(capsys, monkeypatch, tmp_path):
    from conftest import run_play

    monkeypatch.chdir(tmp_path)
    code, out, err = run_play(capsys, monkeypatch, "1,4\nsave g.json\nquit\n", "--load", LOADED, "--seed", "7",
                              *PLAY_LIMITS)
    assert code == 0, err
    assert "position written to g.json (resume with --load g.json --seed 7 --opponent greedy --time 0" \
           " --node-limit 500)" in out.splitlines()
    assert json.loads((tmp_path / "g.json").read_text())["seed"] == 7
    # --load g.json without --seed: the file's seed; the same cards as --seed 7 gives
    script = "".join(f"{r},{c}\n" for r in range(6) for c in range(6)) * 3 + "quit\n"
    code, from_file, err = run_play(capsys, monkeypatch, script, "--load", "g.json", *PLAY_LIMITS)
    assert code == 0, err
    assert from_file.splitlines()[0].endswith("seed 7")
    code, given, err = run_play(capsys, monkeypatch, script, "--load", "g.json", "--seed", "7", *PLAY_LIMITS)
    assert _reveals(from_file) and _reveals(from_file) == _reveals(given)
    code, other, err = run_play(capsys, monkeypatch, script, "--load", "g.json", "--seed", "8", *PLAY_LIMITS)
    assert other.splitlines()[0].endswith("seed 8")   # a seed given wins over the file's
    # show and analyse read the file as before (the seed is no field of a position)
    code, out, err = run_cli(capsys, "cross-kings", "show", "g.json")
    assert code == 0, err


def test_a_bad_stored_seed_is_refused(capsys, tmp_path):
    from crowns_solver.cross_kings import Position

    data = Position.from_text(LOADED).to_dict()
    for bad in (-1, 1.5, "x", True):
        data["seed"] = bad
        path = tmp_path / "g.json"
        path.write_text(json.dumps(data))
        shown = "true" if bad is True else repr(bad)   # in JSON's words since session 24 (it said True)
        assert _fails(capsys, "cross-kings", "play", "--load", str(path), *PLAY_LIMITS) == (
            f"crowns: error: seed: the game's seed must be a whole number >= 0, got {shown}")
