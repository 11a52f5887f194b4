"""A number that reads zero has no sign (session 22): the move-by-move analysis showed a
value of -0.001 as "-0.00", as did the other tables and reports that format signed
numbers.  They all format through ``crowns_solver._text.number``."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crowns_solver._text import number
from crowns_solver.analysis._intervals import ci_text
from crowns_solver.cross_kings.play import PlaySession
from crowns_solver.cross_kings.players import MoveEstimate
from crowns_solver.cross_kings.review import analyse_steps, format_analysis, replay
from crowns_solver.report import _fmt_cell

SAVE = json.loads((Path(__file__).parent / "data" / "cross_kings_labels.jsonl").read_text().splitlines()[0])["save"]


@pytest.mark.parametrize("x, spec, text", [
    (-0.001, ".2f", "0.00"),
    (-0.001, "+.2f", "0.00"),
    (0.001, "+.2f", "0.00"),
    (0, "+.2f", "0.00"),
    (-0.0, ".3g", "0"),
    (-0.0004, ".1%", "0.0%"),
    (-0.005001, ".2f", "-0.01"),
    (0.006, "+.2f", "+0.01"),
    (-1e-5, ".3g", "-1e-05"),       # the digits show it: kept
    (1.5, "+.1f", "+1.5"),
    (float("-inf"), ".2f", "-inf"),
])
def test_number_drops_the_sign_of_a_zero_only(x, spec, text):
    assert number(x, spec) == text


@given(st.floats(min_value=-1e6, max_value=1e6), st.sampled_from([".2f", "+.2f", "+.1f", ".0f", ".3g", "+.1%"]))
def test_number_is_format_but_for_the_sign_of_a_zero(x, spec):
    plain = format(x, spec)
    shown = number(x, spec)
    if shown != plain:
        assert plain[1:] == shown and plain[0] in "+-"
    assert not shown.startswith(("-", "+")) or any(c in "123456789" for c in shown)


def test_the_analysis_shows_a_value_just_below_zero_as_0_00():
    step = replay(SAVE)[-1]
    cells = step.position.legal_moves()

    def evaluate(pos):   # the move played and the best both a thousandth of a point below 0
        return [MoveEstimate(c, -0.001 if c == step.move else -3.0, False) for c in pos.legal_moves()]

    frame = analyse_steps([step], evaluate)
    assert len(cells) > 1 and frame.value[0] == pytest.approx(-0.001)
    line = format_analysis(frame)[1]
    assert "-0.00" not in line
    assert line.split().count("~0.00") == 2   # the move's value and the best move's value


def test_play_hints_show_a_value_just_below_zero_as_0_00():
    assert PlaySession._fmt(None, -0.001, True) == "0.00"
    assert PlaySession._fmt(None, Fraction(-1, 1000), False) == "~0.00"
    assert PlaySession._fmt(None, -0.5, True) == "-0.50"


def test_report_intervals_and_table_cells_show_no_negative_zero():
    assert ci_text(-0.001, 0.5) == "95% CI 0.00 to +0.50"
    assert ci_text(-0.04, -0.001, ".1f", sep="-") == "95% CI 0.0-0.0"
    assert _fmt_cell(-0.0) == "0"
    assert _fmt_cell(-0.04) == "-0.04"
