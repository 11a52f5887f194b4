"""A list option given in the middle of the hand (session 23): ``five-crowns discard
--round 3 7H 8H --seen 9H 10H 5S 4S`` gave the last four cards to --seen and said only that
the hand of 2 cards was too short for round 3.  The error now names what the option took."""

from __future__ import annotations

import pytest

from crowns_solver.cli import main


def one_line_error(capsys, *argv: str) -> str:
    assert main(list(argv)) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    return err.rstrip("\n")


@pytest.mark.parametrize("argv, message", [
    (["discard", "--round", "3", "7H", "8H", "--seen", "9H", "10H", "5S", "4S"],
     "hand has 2 cards, but round 3 deals 5: expected 6 (--seen took 9H 10H 5S 4S: if some are the hand's,"
     " give them before --seen)"),
    (["take", "--round", "1", "5H", "--top", "7H", "--seen", "6H", "7S"],
     "hand has 1 card, but round 1 deals 3: expected 3 (--seen took 6H 7S: if some are the hand's,"
     " give them before --seen)"),
    (["discard", "--round", "1", "5H", "--seen", "3S", "6H", "--draw-pile", "4S", "7D"],
     "hand has 1 card, expected 2 to 14 (--seen took 3S 6H; --draw-pile took 4S 7D: if some are the hand's,"
     " give them before these options)"),
])
def test_a_short_hand_names_what_the_list_options_took(capsys, argv, message):
    assert one_line_error(capsys, "five-crowns", *argv) == f"crowns: error: {message}"


@pytest.mark.parametrize("argv, message", [
    # too many cards: the options took nothing from the hand
    (["discard", "--round", "1", "5H", "6H", "7H", "8H", "9H", "--seen", "3S"],
     "hand has 5 cards, but round 1 deals 3: expected 4"),
    # short, but no list option given
    (["discard", "--round", "3", "7H", "8H"], "hand has 2 cards, but round 3 deals 5: expected 6"),
])
def test_no_hint_where_the_options_cannot_hold_the_missing_cards(capsys, argv, message):
    assert one_line_error(capsys, "five-crowns", *argv) == f"crowns: error: {message}"
