"""The ``crowns`` command names an API argument at fault as the option that set it: the
API's check raises a CrownsError carrying the argument (``arguments``), and the CLI
framework rewrites ``tt_mb`` to ``--tt-mb`` (``tt_mb=2`` to ``--tt-mb 2``).  So each check
lives once, in the API, and the command-line message still names the option as typed."""

from __future__ import annotations

import pickle

import pytest
from conftest import run_cli
from hypothesis import given
from hypothesis import strategies as st

from crowns_solver.cli import build_parser, name_options, option_names
from crowns_solver.errors import CrownsError, RunnerError, SolverOptionError


def _solve_options() -> dict[str, str]:
    parser = build_parser()
    return option_names(parser, parser.parse_args(["cross-kings", "solve", "--random", "1"]))


def test_option_names_are_the_commands_own():
    names = _solve_options()
    assert names["tt_mb"] == "--tt-mb" and names["workers"] == "--workers"
    assert names["time_limit"] == "--time-limit" and names["node_limit"] == "--node-limit"
    assert "position" not in names   # a positional argument: no option to name
    parser = build_parser()
    report = option_names(parser, parser.parse_args(["report", "--games", "3"]))
    assert report["games"] == "--games" and report["out"] == "--out"
    sim = option_names(parser, parser.parse_args(["kings-crowns", "simulate"]))
    assert sim["chunk_size"] == "--chunk-size" and "tt_mb" not in sim


@pytest.mark.parametrize("message, arguments, expected", [
    ("tt_mb must be a number of MB from 1 to 65536, got 0.5", "tt_mb",
     "--tt-mb must be a number of MB from 1 to 65536, got 0.5"),
    ("tt_mb=3 MB shared over 4 (workers=8): give tt_mb=4 or more, or workers=3 or fewer", ("tt_mb", "workers"),
     "--tt-mb 3 MB shared over 4 (--workers 8): give --tt-mb 4 or more, or --workers 3 or fewer"),
    # only the arguments at fault, and only their whole names outside quotes
    ("workers must be >= 1; tt_mb is fine", "workers", "--workers must be >= 1; tt_mb is fine"),
    ("tt_mb must be a number, got 'tt_mb'; max_tt_mb and tt_mb_x stay", "tt_mb",
     "--tt-mb must be a number, got 'tt_mb'; max_tt_mb and tt_mb_x stay"),
    # an argument no option of the command sets keeps its name
    ("evaluation must be 'fitted', got 'x'", "evaluation_x", "evaluation must be 'fitted', got 'x'"),
    ("no argument at fault: tt_mb", None, "no argument at fault: tt_mb"),
])
def test_messages_name_the_options(message, arguments, expected):
    assert name_options(SolverOptionError(message, argument=arguments), _solve_options()) == expected


def test_the_arguments_survive_pickling():
    # errors raised in worker processes reach the parent pickled
    exc = pickle.loads(pickle.dumps(RunnerError("games must be at most 10", argument="games")))
    assert type(exc) is RunnerError and exc.arguments == ("games",) and str(exc) == "games must be at most 10"
    assert pickle.loads(pickle.dumps(CrownsError("x"))).arguments == ()


_NO_NAME = st.text(st.characters(blacklist_characters="_"), max_size=20)   # cannot hold "tt_mb"


@given(before=_NO_NAME, after=_NO_NAME)
def test_renaming_touches_only_the_name(before, after):
    options = {"tt_mb": "--tt-mb"}
    assert name_options(CrownsError(f"{before}x{after}", argument="tt_mb"), options) == f"{before}x{after}"
    text = f"{before} tt_mb must be {after}"
    assert name_options(CrownsError(text, argument="tt_mb"), options) == f"{before} --tt-mb must be {after}"


def _fails(capsys, *argv: str) -> str:
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and not out and len(err.splitlines()) == 1, err
    return err.strip()


def test_solve_tt_mb_beyond_memory_names_the_option_with_one_worker(capsys, monkeypatch):
    # the physical-memory check is solve's own (the command no longer repeats it)
    from crowns_solver.cross_kings import solver

    monkeypatch.setattr(solver, "memory_mb", lambda: 20.0)
    assert _fails(capsys, "cross-kings", "solve", "--random", "1", "--tt-mb", "21", "--node-limit", "10") == (
        "crowns: error: --tt-mb 21 MB is more than this machine's memory (20 MB): ask for less")


def test_solve_memory_share_names_both_options(capsys):
    # solve's worker-share check: the command no longer runs it itself first
    assert _fails(capsys, "cross-kings", "solve", "--random", "1", "--workers", "2", "--tt-mb", "1.5",
                  "--node-limit", "1000") == (
        "crowns: error: --tt-mb 1.5 MB shared over the 2 worker processes this solve starts (--workers 2)"
        " leaves 0.75 MB each, below the 1 MB a worker needs: give --tt-mb 2 or more, or --workers 1")


def test_solve_checks_tt_mb_once(capsys, monkeypatch):
    # the command hands --tt-mb to solve as typed; solve's check is the only one
    from crowns_solver.cross_kings import solver

    calls = []
    real = solver._check_options
    monkeypatch.setattr(solver, "_check_options", lambda *a: (calls.append(a[2]), real(*a)))
    fits = []
    monkeypatch.setattr(solver, "check_memory_fits", lambda mb: fits.append(mb))
    code, out, _ = run_cli(capsys, "cross-kings", "solve", "--random", "1", "--tt-mb", "2", "--node-limit", "10")
    assert code == 0 and calls == [2] and fits == [2]


def test_the_api_still_names_its_arguments():
    from crowns_solver.cross_kings import Position, solve

    with pytest.raises(SolverOptionError) as exc:
        solve(Position.random(1), tt_mb=1.5, workers=2, node_limit=1000)
    assert exc.value.arguments == ("tt_mb", "workers")
    assert str(exc.value).startswith("tt_mb=1.5 MB shared over the 2 worker processes this solve starts (workers=2)")


def _spy(monkeypatch, *modules) -> list[str]:
    """Record the names `modules` check with check_whole_number (then check them)."""
    from crowns_solver._checks import check_whole_number

    seen: list[str] = []

    def spy(name, *args, **kwargs):
        seen.append(name)
        return check_whole_number(name, *args, **kwargs)

    for module in modules:
        monkeypatch.setattr(module, "check_whole_number", spy)
    return seen


def test_match_deals_is_checked_by_match_alone(capsys, monkeypatch):
    from crowns_solver.cross_kings import match as match_module

    seen = _spy(monkeypatch, match_module)
    assert _fails(capsys, "cross-kings", "match", "--a", "random", "--b", "random", "--deals", "1000000000000") == (
        "crowns: error: --deals must be at most 10,000,000, got 1,000,000,000,000")
    assert seen == ["deals"]   # the refusal is the API's (the command no longer repeats it)


def test_kings_crowns_games_is_checked_by_the_runner_alone(capsys, monkeypatch):
    from crowns_solver import montecarlo

    seen = _spy(monkeypatch, montecarlo)
    assert _fails(capsys, "kings-crowns", "simulate", "--games", str(10**12), "--workers", "1") == (
        f"crowns: error: --games must be at most {montecarlo.MAX_GAMES:,} (the results are held in memory),"
        f" got {10**12:,}")
    assert seen == ["games"]


def test_five_crowns_simulate_workers_names_the_option(capsys):
    # no check of its own in the command: the runner's message, naming --workers as typed
    assert _fails(capsys, "five-crowns", "simulate", "5", "--workers", "0") == (
        "crowns: error: --workers must be a whole number >= 1, got 0")


def test_report_sizes_are_checked_once_by_the_shared_checker(capsys, monkeypatch, tmp_path):
    from crowns_solver import _checks, montecarlo

    seen = _spy(monkeypatch, _checks, montecarlo)   # (the games check is montecarlo's _check_games)
    out = tmp_path / "new"
    assert _fails(capsys, "report", "--only", "toy_coins", "--games", "0", "--out", str(out)) == (
        "crowns: error: --games must be a whole number >= 1, got 0")
    assert seen == ["seed", "games"] and not out.exists()


def test_run_studies_refuses_too_many_games_before_the_folder_is_made(tmp_path):
    from crowns_solver.report import run_studies

    out = tmp_path / "new"
    with pytest.raises(RunnerError) as exc:
        run_studies(["toy_coins"], out_dir=out, games=10**12, workers=1)
    assert str(exc.value) == "games must be at most 100,000,000 (the results are held in memory), got 1,000,000,000,000"
    assert exc.value.arguments == ("games",) and not out.exists()


@given(text=st.one_of(st.text(max_size=12), st.integers(-10**6, 10**6).map(str),
                      st.floats(allow_nan=True, allow_infinity=True).map(str)))
def test_tt_mb_reaches_solve_as_typed(text):
    # the command's --tt-mb type never refuses: it hands solve the number (or the text) and
    # solve's check alone accepts it or names it
    from crowns_solver.cross_kings.cli import _number
    from crowns_solver.cross_kings.solver import MAX_TT_MB, _check_options

    value = _number(text)
    if isinstance(value, str):
        assert value == text
        with pytest.raises(ValueError):
            float(text)
    else:
        assert value == float(text) or value != value   # (NaN)
    try:
        _check_options("open", "margin", value, None, None)
    except SolverOptionError as exc:
        assert exc.arguments == ("tt_mb",) and str(exc).endswith(f"got {value!r}")
    else:
        assert 1 <= value <= MAX_TT_MB
