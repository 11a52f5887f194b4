"""Five Crowns findings of the session-17 fresh-user probe: counts in the right number,
the draw pile's copies, impossible keeper points, one policy at a full table, player names,
file modes of saved files."""

from __future__ import annotations

import pytest
from conftest import run_cli

from crowns_solver.errors import HandSizeError
from crowns_solver.five_crowns._text import count
from crowns_solver.five_crowns.cards import parse_hand
from crowns_solver.five_crowns.game import GameRules, play_game


# --- finding 19: singular and plural --------------------------------------------------------

def test_count_singular_and_plural():
    assert count(1, "player") == "1 player"
    assert count(0, "game") == "0 games"
    assert count(10, "game") == "10 games"
    assert count(1, "copy", "copies") == "1 copy"
    assert count(3, "copy", "copies") == "3 copies"


def test_simulate_one_player_says_player(capsys):
    code, out, _ = run_cli(capsys, "five-crowns", "simulate", "1", "--policies", "greedy", "--players", "1",
                           "--workers", "1")
    assert code == 0 and out.startswith("1 game, 1 player, seed 0;")


def test_simulate_duplicate_one_deal(capsys):
    code, out, _ = run_cli(capsys, "five-crowns", "simulate", "1", "--policies", "greedy", "random",
                           "--duplicate", "--workers", "1", "--ties", "tiebreak", "--max-tiebreaks", "1")
    assert code == 0 and out.startswith("1 deal x 2 seatings = 2 games, 2 players, seed 0;")
    assert "(1 turn)" not in out and "in 1 games" not in out


def test_play_one_seat_one_set(capsys):
    code, out, _ = run_cli(capsys, "five-crowns", "play", "greedy", "--rounds", "1")
    assert code == 0 and out.splitlines()[0] == "seed 0, 1 player, 1 set"
    code, out, _ = run_cli(capsys, "five-crowns", "play", *["random"] * 8, "--rounds", "1")
    assert code == 0 and out.splitlines()[0] == "seed 0, 8 players, 2 sets"


def test_hand_of_one_card_says_card():
    with pytest.raises(HandSizeError, match=r"has 1 card, expected 3$"):
        parse_hand(["5H"], size=3)


def test_discard_one_card_in_reshuffled_pile(capsys):
    code, out, _ = run_cli(capsys, "five-crowns", "discard", "--round", "1", "3S", "4S", "8H", "9H",
                           "--draw-pile", "8D", "--discard-reshuffled")
    assert code == 0
    assert ("4 cards held, 0 seen, 1 card in the discard pile given, it can be the next draw, and so can your"
            " discard (reshuffled with it)") in out
