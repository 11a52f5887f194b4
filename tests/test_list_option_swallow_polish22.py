"""An option taking a list given before a command's own arguments (session 22):
``five-crowns discard --round 1 --seen 5H 6H 3S 4S 7D 8C`` gave every card to --seen and
said only ``the following arguments are required: CARD``.  The error now says which
option took them and how to fix it; ``--`` ends the list, and the usual order works."""

from __future__ import annotations

import pytest

from crowns_solver.cli import main


def usage_error(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as stop:
        main(list(argv))
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    return err.rstrip("\n")


@pytest.mark.parametrize("argv, option, taken", [
    (["discard", "--round", "1", "--seen", "5H", "6H", "3S", "4S", "7D", "8C"], "--seen", "5H 6H 3S 4S 7D 8C"),
    (["discard", "--seen", "5H", "6H", "3S", "4S", "7D", "8C", "--round", "1"], "--seen", "5H 6H 3S 4S 7D 8C"),
    (["take", "--round", "2", "--top", "9S", "--seen", "5H", "5H", "7S", "8S", "QH", "KD"], "--seen",
     "5H 5H 7S 8S QH KD"),
    (["discard", "--round", "1", "--seen", "5H", "--draw-pile", "6H", "3S", "4S", "7D", "8C"], "--draw-pile",
     "6H 3S 4S 7D 8C"),
    (["discard", "--round", "1", "--see", "5H", "6H", "3S", "4S", "7D", "8C"], "--seen", "5H 6H 3S 4S 7D 8C"),
])
def test_a_list_option_that_took_the_hand_is_named_with_the_fix(capsys, argv, option, taken):
    assert usage_error(capsys, "five-crowns", *argv) == (
        f"crowns: error: the following arguments are required: CARD ({option} took the"
        f" arguments after it: {taken}; put {option} after the hand)")


def test_other_list_options_get_the_same_hint(capsys):
    assert usage_error(capsys, "five-crowns", "simulate", "--policies", "greedy", "random", "5") == (
        "crowns: error: the following arguments are required: GAMES (or --games N) (--policies"
        " took the arguments after it: greedy random 5; put --policies after GAMES, or give --games 5)")


def test_no_hint_where_no_list_option_took_anything(capsys):
    assert usage_error(capsys, "five-crowns", "discard", "--round", "1") == (
        "crowns: error: the following arguments are required: CARD")
    assert usage_error(capsys, "five-crowns", "discard", "--seen=5H", "--round", "1") == (
        "crowns: error: the following arguments are required: CARD")


@pytest.mark.parametrize("argv", [
    ["--round", "1", "--seen", "5H", "6H", "--", "3S", "4S", "7D", "8C"],   # -- ends the list
    ["--round", "1", "3S", "4S", "7D", "8C", "--seen", "5H", "6H"],         # after the hand
    ["--round", "1", "--seen", "5H", "--seen", "6H", "--", "3S", "4S", "7D", "8C"],
])
def test_the_hand_after_the_list_is_read(capsys, argv):
    assert main(["five-crowns", "discard", *argv]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "round 1 (3 cards), 3s wild: 3S 4S 7D 8C"
    assert out[1] == "4 cards held, 2 seen, 110 unseen cards for the next draw"
