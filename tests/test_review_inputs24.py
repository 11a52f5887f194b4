"""Session 24 fixes: partial_analysis_note checks its counts, replay checks a card named
with the start cell, and the package's top level shows only its API."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from crowns_solver.cross_kings import Position
from crowns_solver.cross_kings.cards import DECK
from crowns_solver.cross_kings.position import FACE_DOWN_CELLS
from crowns_solver.cross_kings.review import analyse_game, partial_analysis_note, replay
from crowns_solver.errors import IllegalMoveError, SolverOptionError

# ----------------------------------------------------------------------------- partial_analysis_note


def test_partial_analysis_note_wording():
    assert partial_analysis_note(1, 27) == ("PARTIAL ANALYSIS: interrupted (Ctrl-C) after 1 of 27 moves;"
                                            " the moves after those were not analysed")
    assert partial_analysis_note(np.int64(0), np.int64(1)) == ("PARTIAL ANALYSIS: interrupted (Ctrl-C) after 0"
                                                               " of 1 move; the moves after those were not analysed")


@pytest.mark.parametrize(("analysed", "total", "message"), [
    (None, 5, "analysed must be a whole number >= 0, got None"),     # was "after None of 5 moves"
    (3, 2, "analysed must be at most 2 (the moves the analysis had to value, total), got 3"),
    (-1, 2, "analysed must be a whole number >= 0, got -1"),
    (True, 2, "analysed must be a whole number >= 0, got True"),
    (1.0, 2, "analysed must be a whole number >= 0, got 1.0"),
    ("1", 2, "analysed must be a whole number >= 0, got '1'"),
    (1, 2.5, "total must be a whole number >= 0, got 2.5"),
    (0, -1, "total must be a whole number >= 0, got -1"),
    (0, False, "total must be a whole number >= 0, got False"),
])
def test_partial_analysis_note_refuses_bad_counts_naming_them(analysed, total, message):
    with pytest.raises(SolverOptionError) as info:
        partial_analysis_note(analysed, total)
    assert str(info.value) == message


@given(st.one_of(st.integers(-3, 40), st.none(), st.booleans(), st.floats(), st.text(max_size=2)),
       st.one_of(st.integers(-3, 40), st.none(), st.booleans(), st.floats(), st.text(max_size=2)))
def test_partial_analysis_note_takes_exactly_whole_counts_up_to_the_total(analysed, total):
    def whole(x):
        return isinstance(x, int) and not isinstance(x, bool) and x >= 0

    if whole(analysed) and whole(total) and analysed <= total:
        assert f" after {analysed} of {total} move" in partial_analysis_note(analysed, total)
    else:
        with pytest.raises(SolverOptionError):
            partial_analysis_note(analysed, total)


# ----------------------------------------------------------------------------- replay: the start card

KNOWN = Position.random(seed=2)   # (2,2) holds AD


def _unknown() -> Position:
    """KNOWN with every face-down card unknown."""
    d = KNOWN.to_dict()
    d["grid"] = ["??" if i in FACE_DOWN_CELLS else c for i, c in enumerate(d["grid"])]
    return Position.from_dict(d)


def test_the_tester_example_a_wrong_start_card_is_refused():
    assert DECK[KNOWN.cells[14]] == "AD"
    with pytest.raises(IllegalMoveError) as info:
        replay(KNOWN, moves=[((2, 2), "AS"), (2, 0)])   # was accepted
    assert str(info.value) == "move 1: the start cell (2,2) holds AD, not AS"


def test_the_right_start_card_or_none_is_taken_alike():
    plain = replay(KNOWN, moves=[(2, 2), (2, 0)], include_start=True)
    named = replay(KNOWN, moves=[((2, 2), "AD"), [(2, 0), "8H"]], include_start=True)
    assert [(s.ply, s.move, s.card) for s in named] == [(s.ply, s.move, s.card) for s in plain] == [
        (0, (2, 2), None), (1, (2, 0), "8H")]


def test_a_start_card_where_it_is_unknown_must_be_unseen_and_is_revealed_by_the_take():
    pos = _unknown()
    assert pos.cells[14] < 0
    with pytest.raises(IllegalMoveError, match=r"^move 1: the start cell \(2,2\) cannot hold 7S: it is not unseen"):
        replay(pos, moves=[((2, 2), "7S"), (2, 0)])   # 7S lies face up elsewhere
    # named at the start, the card is the one the later take of (2,2) reveals
    steps = replay(pos, moves=[((2, 2), "AD"), (2, 0), (2, 2)])
    assert [s.card for s in steps] == ["8H", "AD"]
    assert replay(pos, moves=[((2, 2), "AD"), (2, 0), ((2, 2), "AD")])[-1].card == "AD"
    with pytest.raises(IllegalMoveError) as info:
        replay(pos, moves=[((2, 2), "AD"), (2, 0), ((2, 2), "AS")])
    assert str(info.value) == "move 3: the start cell (2,2) was given as AD with the start choice, not AS"
    # without a card at the start, the take must name it, as before
    with pytest.raises(IllegalMoveError, match="face down and its card is unknown"):
        replay(pos, moves=[(2, 2), (2, 0), (2, 2)])


def test_analyse_game_checks_the_start_card_before_any_search():
    with pytest.raises(IllegalMoveError, match="start cell"):
        analyse_game(KNOWN, moves=[((2, 2), "AS"), (2, 0)], node_limit=10)


# ----------------------------------------------------------------------------- top-level names


def test_the_top_level_shows_only_the_api():
    code = ("import crowns_solver as c; print(sorted(n for n in dir(c) if not n.startswith('_')));"
            " print(c.__version__)")
    # cwd "/": from a source checkout the tree would shadow the installed package (CI installs from the sdist)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd="/").stdout.split("\n")
    assert out[0] == "['CrownsError', 'errors']"   # errors: the subpackage CrownsError comes from
    assert out[1] and out[1] != "0+unknown"
