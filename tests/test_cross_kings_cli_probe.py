"""Odd command-line inputs found by trying to break ``crowns cross-kings`` as a new user
would: each is one line on stderr with exit status 2 that names the option as typed (not
a traceback, nor the API's argument name)."""

from __future__ import annotations

import argparse
import re

import numpy as np
import pytest
from conftest import cli_fails as _fails, run_cli
from hypothesis import given
from hypothesis import strategies as st

from crowns_solver.cross_kings.cli import player_name, whole_number
from crowns_solver.cross_kings.match import MAX_DEALS, match
from crowns_solver.cross_kings.solver import MODES
from crowns_solver.errors import RunnerError, SolverOptionError

#: A crosskings.net save string (tests/data/cross_kings_labels.jsonl, first line): a
#: whole game of 27 moves with 9 cards left.
SAVE = ("??7S6H2H8H??/5H6C3SAHKH7C/3C8C??KC5D4C/4HAD??7D2D5S/7H4DKD6D6S8S/5C3D4SKS2S2C"
        "//ASAC8D3H//301273969908864214574189716")


@pytest.mark.parametrize("argv, message", [
    # --random took any int; a negative seed reached the API ("seed must be a non-negative integer")
    (("solve", "--random", "-1"), "crowns: error: argument --random: must be >= 0: '-1'"),
    (("show", "--random", "-5"), "crowns: error: argument --random: must be >= 0: '-5'"),
    # an empty name reached Rules ("names must be two non-empty strings, got ('', 'x')")
    (("solve", "--random", "1", "--names", "", "x"),
     "crowns: error: argument --names: a name cannot be empty or blank (got '')"),
    (("analyse", SAVE, "--names", "A", " "),
     "crowns: error: argument --names: a name cannot be empty or blank (got ' ')"),
    # analyse/play took any positive --node-limit; a huge one reached solve ("node_limit must be at most")
    (("analyse", SAVE, "--node-limit", "99999999999999999999"),
     "crowns: error: argument --node-limit: at most 4,611,686,018,427,387,904 nodes:"
     " '99999999999999999999'"),
    (("play", "--node-limit", "99999999999999999999"),
     "crowns: error: argument --node-limit: at most 4,611,686,018,427,387,904 nodes:"
     " '99999999999999999999'"),
    # --time 0 without --node-limit: the API's "needs a time_limit or node_limit" / "give a time limit"
    (("analyse", SAVE, "--time", "0"),
     "crowns: error: --time 0 (or inf) means no time limit, which is accepted only for positions with up to 16 cards"
     " left (an exact solve of a larger one could run for hours): give --node-limit N too, or a --time"),
    (("play", "--time", "0"),
     "crowns: error: --time 0 (or inf) means no time limit: give --node-limit N for the computer's searches, the hints"
     " and the analysis"),
    # a huge --deals ran the runner's chunk list out of memory (MemoryError traceback)
    (("match", "--a", "random", "--b", "random", "--deals", "1000000000000"),
     "crowns: error: --deals must be at most 10,000,000, got 1,000,000,000,000"),
    # a cell off the grid was printed as a Python tuple, '(9, 9)'
    (("match", "--a", "random", "--b", "random", "--start", "9,9"),
     "crowns: error: --start: no such cell: (9,9) (row and column are 0..5)"),
])
def test_odd_inputs_are_one_line_naming_the_option(capsys, argv, message):
    assert _fails(capsys, "cross-kings", *argv) == message


def test_too_many_deals_are_refused_by_the_api_too():
    with pytest.raises(RunnerError, match=r"^deals must be at most 10,000,000, got 10,000,001$"):
        match("random", "random", MAX_DEALS + 1)


def test_time_zero_with_a_node_limit_still_analyses(capsys):
    code, out, err = run_cli(capsys, "cross-kings", "analyse", SAVE, "--time", "0", "--node-limit", "2000",
                             "--player", "second")
    assert code == 0 and not err
    assert "second:" in out and "points lost over 13 moves" in out


def test_a_table_larger_than_the_machine_is_refused(capsys, monkeypatch):
    # one process failed to allocate it, but two workers' halves were allocated lazily and
    # the solve ran (and would have swapped or been killed once the tables filled)
    from crowns_solver.cross_kings import Position, solve, solver
    from crowns_solver.errors import SolverOptionError

    monkeypatch.setattr(solver, "memory_mb", lambda: 20.0)
    with pytest.raises(SolverOptionError) as exc:
        solve(Position.random(1), tt_mb=30, workers=2, node_limit=1000)
    assert str(exc.value) == "tt_mb=30 MB is more than this machine's memory (20 MB): ask for less"
    assert _fails(capsys, "cross-kings", "solve", "--random", "1", "--tt-mb", "20.5", "--workers", "2") == (
        "crowns: error: --tt-mb 20.5 MB is more than this machine's memory (20 MB): ask for less")
    assert solve(Position.random(1), tt_mb=20, workers=2, node_limit=1000).stopped == "nodes"
    monkeypatch.setattr(solver, "memory_mb", lambda: None)   # a platform that does not tell: no check
    solver.check_memory_fits(65536)


def test_the_machines_memory_is_known_here():
    from crowns_solver.cross_kings import solver

    total = solver.memory_mb()
    assert total is None or total > 64


@pytest.mark.parametrize("text", ["[]", "hello world", "AS 2S", "5"])
def test_one_line_that_is_no_position_says_what_a_position_is(capsys, tmp_path, text):
    # a JSON list or a word in a .json file was read as a deal: "a deal has 6 rows of 6 cards, got 1 rows"
    path = tmp_path / "p.json"
    path.write_text(text + "\n")
    assert _fails(capsys, "cross-kings", "show", str(path)) == (
        "crowns: error: not a position: expected a save string (three parts separated by '//'), a position as"
        f" a JSON object ({{...}}) or a deal (six lines of six cards), got {text!r}")


def test_a_fresh_deal_has_no_moves_to_analyse(capsys, tmp_path):
    # it said "the moves of this game are not known" of a deal on which nothing was played
    import json

    from crowns_solver.cross_kings import Position
    from crowns_solver.cross_kings.review import replay

    fresh = Position.random(5)
    assert replay(fresh) == [] and replay(fresh, include_start=True) == []
    path = tmp_path / "fresh.json"
    path.write_text(json.dumps(fresh.to_dict()))
    code, out, err = run_cli(capsys, "cross-kings", "analyse", str(path))
    assert code == 0 and not err
    assert out.splitlines()[-1] == "no moves to analyse: the game has no moves yet"


@given(st.text(max_size=12), st.integers(-3, 3))
def test_whole_number_reads_whole_numbers_at_least_the_least(text, least):
    parse = whole_number(least)
    try:
        x = parse(text)
    except argparse.ArgumentTypeError as exc:
        assert repr(text) in str(exc)
        try:
            assert int(text) < least
        except ValueError:
            pass
    else:
        assert x == int(text) and x >= least


@given(st.text(max_size=8))
def test_player_name_refuses_only_blank_names_and_control_characters(text):
    import unicodedata

    # probe 17, finding 17; the keeper's rule since session 18: control, format (but the
    # emoji joiners), surrogate, private-use, unassigned and separator characters
    joiners = {0x200C, 0x200D, *range(0xE0020, 0xE0080)}
    control = any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
                  and ord(ch) not in joiners for ch in text)
    try:
        # returned with runs of white space collapsed, none at either end (its docstring);
        # the oracle said == text, which a name with a trailing space ('_ ') breaks
        assert player_name(text) == " ".join(text.split()) and text.strip() and not control
    except argparse.ArgumentTypeError:
        assert not text.strip() or control


@given(st.integers(0, 10_000), st.integers(14, 36), st.sampled_from(MODES), st.booleans(), st.booleans(),
       st.integers(1, 2000), st.floats(1, 64))
def test_the_memory_check_counts_at_most_the_jobs(seed, left, mode, all_moves, limited, workers, tt_mb):
    from crowns_solver.cross_kings import Position, parallel

    rng = np.random.default_rng(seed)
    pos = Position.random(rng)
    while pos.cards_left > left and pos.legal_moves():
        moves = pos.legal_moves()
        pos = pos.play(moves[int(rng.integers(len(moves)))])
    n = parallel.worker_processes(pos, mode=mode, all_moves=all_moves, limited=limited, workers=workers)
    more = parallel.worker_processes(pos, mode=mode, all_moves=all_moves, limited=limited, workers=workers + 1)
    assert 0 <= n <= workers and n <= more and (workers == 1 or more <= n + 1)
    assert n <= max(len(pos.legal_moves()) * max(len(pos.unseen), 1), 1)
    if workers == 1 or pos.cards_left < parallel.PARALLEL_MIN_CARDS or len(pos.legal_moves()) <= 1:
        assert n == 0
    else:
        assert n >= min(workers, len(pos.legal_moves()))
    try:
        share = parallel.check_memory(tt_mb, n, workers=workers)
    except SolverOptionError as exc:
        assert tt_mb / n < 1 and f"tt_mb={tt_mb:g} MB" in str(exc) and f"workers={workers}" in str(exc)
    else:
        assert share == tt_mb / max(n, 1) >= 1


def test_two_equal_names_are_refused_case_and_spaces_aside(capsys):
    # probe finding 17: '--names Ann ann' labelled both players alike
    code, out, err = run_cli(capsys, "cross-kings", "show", "--random", "1", "--names", "Ann", " ann ")
    assert code == 2 and not out
    assert err == ("crowns: error: --names: the two players need different names, got 'Ann' and 'ann'"
                   " (case and spaces aside)\n")
    code, out, err = run_cli(capsys, "cross-kings", "show", "--random", "1", "--names", "Ann", "Bob")
    assert code == 0 and "Ann" in out
    # the API keeps the same rule (before, only the command line refused equal names)
    from crowns_solver.cross_kings import Rules
    from crowns_solver.errors import RulesError

    with pytest.raises(RulesError, match="got 'Ann' and ' ann ' \\(case and spaces aside\\)"):
        Rules(names=("Ann", " ann "))
    assert Rules(names=("  Ann   Lee ", "Bob")).names == ("Ann Lee", "Bob")
    with pytest.raises(RulesError, match="need different names"):   # the keeper's comparison (NFKC)
        Rules(names=("Jos\u00e9", "Jose\u0301"))
    with pytest.raises(RulesError, match="a name cannot be empty or blank \\(got ' '\\)"):
        Rules(names=(" ", "Bob"))   # was accepted: the grid's status line named nobody


@pytest.mark.parametrize("name", ["rtl\u202eX", "soft\u00adhyphen", "line\u2028sep", "esc\x1b[2J"])
def test_names_follow_the_keepers_rule_in_the_api_and_the_command(name, capsys):
    """One rule for display names (session 18): a bidirectional override, a soft hyphen
    or a line separator was accepted by ``--names`` (which refused only Cc) and by
    ``Rules`` (which checked nothing), while the Five Crowns keeper refused them."""
    from crowns_solver.cross_kings.position import Rules
    from crowns_solver.errors import RulesError

    code = f"U+{next(ord(c) for c in name if not c.isalnum()):04X}"
    with pytest.raises(RulesError, match=rf"control character {re.escape(code)}"):
        Rules(names=(name, "Bob"))
    assert code in _fails(capsys, "cross-kings", "solve", "--random", "1", "--time-limit", "0.1", "--names", name, "Bob")


def test_emoji_names_with_joiners_are_accepted_everywhere():
    from crowns_solver.cross_kings.position import Position, Rules
    from crowns_solver.five_crowns import ScoreKeeper

    family = "Ann \U0001F468\u200D\U0001F469\u200D\U0001F467"
    assert player_name(family) == family
    pos = Position.random(1, Rules(names=(family, "Bob")))
    assert pos.rules.names[0] == family
    assert ScoreKeeper([family, "Bob"]).names[0] == family


def test_names_longer_than_40_characters_are_refused_everywhere(capsys):
    """One length limit for display names (probe 18: a name of a million characters was
    accepted by the keeper and printed in every table)."""
    from crowns_solver.cross_kings.position import Rules
    from crowns_solver.errors import PlayerNameError, RulesError
    from crowns_solver.five_crowns import ScoreKeeper

    long, ok = "N" * 41, "N" * 40
    assert ScoreKeeper([ok, "Bob"]).names[0] == ok and Rules(names=(ok, "Bob")).names[0] == ok
    assert player_name(ok) == ok
    with pytest.raises(PlayerNameError, match="is 41 characters long; a name has at most 40"):
        ScoreKeeper([long, "Bob"])
    with pytest.raises(RulesError, match="is 41 characters long"):
        Rules(names=("Ann", long))
    assert "is 41 characters long" in _fails(capsys, "cross-kings", "show", "--random", "1", "--names", long, "Bob")
