"""An empty output path ("", or only blanks) is refused everywhere by one shared check
(crowns_solver._io.check_path_given), with an EmptyPathError naming the option or
argument, before any work and without writing anything."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import run_cli
from crowns_solver._io import check_path_given, check_writable
from crowns_solver.errors import (CrownsError, EmptyPathError, OutputExistsError, OutputPathError,
                                  RunnerError)

CLI_CASES = [
    (["five-crowns", "play", "greedy", "greedy", "--save", "{}"], "--save", "file"),
    (["five-crowns", "keeper", "--save", "{}"], "--save", "file"),
    (["five-crowns", "simulate", "2", "--out", "{}"], "--out", "file"),
    (["five-crowns", "simulate", "2", "--csv", "{}"], "--csv", "file"),
    (["cross-kings", "match", "--a", "greedy", "--b", "random", "--deals", "1", "--out", "{}"], "--out", "file"),
    # used to be skipped silently: the match was played and no CSV written
    (["cross-kings", "match", "--a", "greedy", "--b", "random", "--deals", "1", "--csv", "{}"], "--csv", "file"),
    (["kings-crowns", "simulate", "--games", "2", "--out", "{}"], "--out", "file"),
    (["report", "--only", "five_crowns_deals", "--games", "11", "--out", "{}"], "--out", "folder"),
    (["report", "results.jsonl", "--out", "{}"], "--out", "folder"),
]


@pytest.mark.parametrize("argv, option, kind", CLI_CASES)
@pytest.mark.parametrize("empty", ["", "  "])
def test_every_cli_output_option_refuses_an_empty_path(argv, option, kind, empty, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, *[a.format(empty) for a in argv])
    assert (code, out) == (2, "")
    assert err == f"crowns: error: {option} needs a {kind} name; the path is empty ({empty!r})\n"
    assert list(tmp_path.iterdir()) == []  # nothing written, nothing played into a file


def _api_cases():
    from crowns_solver import montecarlo, report
    from crowns_solver.cross_kings.match import match
    from crowns_solver.five_crowns import simulate as fc_simulate
    from crowns_solver.five_crowns.game import GameRules, play_game
    from crowns_solver.five_crowns.keeper import ScoreKeeper, interactive
    from crowns_solver.kings_crowns import simulate as kc_simulate
    from mc_toy import toy_chunk

    game = play_game(["greedy", "greedy"], seed=1, rules=GameRules(players=2, rounds=1))

    def never(prompt):
        raise AssertionError(f"asked {prompt!r} before refusing the path")

    return [
        ("GameResult.save", lambda p: game.save(p), "the game record path", "file"),
        ("ScoreKeeper.save", lambda p: ScoreKeeper(["Ann", "Bob"]).save(p), "the score-keeper file path", "file"),
        ("keeper.interactive", lambda p: interactive(save=p, read=never, write=never), "save", "file"),
        ("five_crowns.simulate", lambda p: fc_simulate(2, players=2, out=p, workers=1), "out", "file"),
        ("montecarlo.run", lambda p: montecarlo.run(toy_chunk, 4, out=p, workers=1), "out", "file"),
        ("kings_crowns.simulate", lambda p: kc_simulate(2, out=p, workers=1), "out", "file"),
        ("cross_kings.match", lambda p: match("greedy", "random", 1, out=p, workers=1), "out", "file"),
        ("report.write_report", lambda p: report.write_report("results.jsonl", p), "out_dir", "folder"),
        ("report.run_studies", lambda p: report.run_studies(["five_crowns_deals"], out_dir=p, games=11, workers=1),
         "out_dir", "folder"),
        ("_io.check_writable", lambda p: check_writable(p, option="--x"), "--x", "file"),
    ]


@pytest.mark.parametrize("empty", ["", " \t"])
def test_every_api_output_argument_refuses_an_empty_path(empty, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name, call, option, kind in _api_cases():
        with pytest.raises(EmptyPathError) as info:
            call(empty)
        assert str(info.value) == f"{option} needs a {kind} name; the path is empty ({empty!r})", name
    assert list(tmp_path.iterdir()) == []


def test_the_error_is_each_class_these_refusals_used_to_raise():
    # callers that caught the old classes (OutputPathError for report folders,
    # OutputExistsError for Five Crowns files, RunnerError for results files) still do
    for old in (OutputPathError, OutputExistsError, RunnerError, CrownsError, ValueError):
        with pytest.raises(old):
            check_path_given("", "--out")


@given(st.text(alphabet=" \t\n\r\x0b\x0c", max_size=5))
def test_blank_paths_are_refused_and_named(blank):
    with pytest.raises(EmptyPathError, match="^--csv needs a file name; the path is empty"):
        check_path_given(blank, "--csv")


@given(st.text(min_size=1).filter(lambda s: s.strip()))
def test_other_paths_pass_unchanged(name):
    assert check_path_given(name, "--out") is name


@pytest.mark.parametrize("argv", [["kings-crowns", "simulate", "--games", "2", "--deck", ""],
                                  ["kings-crowns", "deck", " "]])
def test_an_empty_deck_file_name_is_refused_not_ignored(argv, capsys):
    # an input, not an output: it used to be ignored, and the default deck played
    code, out, err = run_cli(capsys, *argv)
    assert (code, out) == (2, "")
    assert err == f"crowns: error: no deck file given; the path is empty ({argv[-1]!r})\n"
