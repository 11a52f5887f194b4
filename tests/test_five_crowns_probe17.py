"""Five Crowns findings of the session-17 fresh-user probe: counts in the right number,
the draw pile's copies, impossible keeper points, one policy at a full table, player names,
file modes of saved files."""

from __future__ import annotations

import pytest
from conftest import keeper_session, run_cli

from crowns_solver.errors import HandSizeError
from crowns_solver.five_crowns._text import count, sets_hold
from crowns_solver.five_crowns.cards import parse_hand

# --- finding 19: singular and plural --------------------------------------------------------

def test_count_singular_and_plural():
    assert count(1, "player") == "1 player"
    assert count(0, "game") == "0 games"
    assert count(10, "game") == "10 games"
    assert count(1, "copy", "copies") == "1 copy"
    assert count(3, "copy", "copies") == "3 copies"


def test_sets_hold_agrees_with_the_number_of_sets():
    # one helper for the duplicate-card messages of cards, melds, advisor and keeper (session 22)
    assert sets_hold(1) == "1 set holds"
    assert sets_hold(2) == "2 sets hold"
    from crowns_solver.errors import DuplicateCardError
    from crowns_solver.five_crowns.advisor import unseen_counts
    from crowns_solver.five_crowns.cards import parse_card

    with pytest.raises(DuplicateCardError, match=r"^card 3H: 5 in hand, 0 seen, but 2 sets hold only 4$"):
        unseen_counts([parse_card("3H")] * 5, [], 2)


def test_simulate_one_player_says_player(capsys):
    code, out, _ = run_cli(capsys, "five-crowns", "simulate", "1", "--policies", "greedy", "--players", "1",
                           "--workers", "1")
    assert code == 0 and out.startswith("1 game, 1 player, 1 set, seed 0;")


def test_simulate_duplicate_one_deal(capsys):
    code, out, _ = run_cli(capsys, "five-crowns", "simulate", "1", "--policies", "greedy", "random",
                           "--duplicate", "--workers", "1", "--ties", "tiebreak", "--max-tiebreaks", "1")
    assert code == 0 and out.startswith("1 deal x 2 seatings = 2 games, 2 players, 1 set, seed 0;")
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


# --- finding 2: the keeper refuses points no hand can count ------------------------------

from collections import Counter  # noqa: E402
from itertools import combinations_with_replacement  # noqa: E402

from crowns_solver.errors import RecordError, ScoreEntryError  # noqa: E402
from crowns_solver.five_crowns.cards import card_value, full_deck  # noqa: E402
from crowns_solver.five_crowns.keeper import (  # noqa: E402
    MELD_NOTE,
    ScoreKeeper,
    possible_points,
)


def _brute_possible(cards, wild, sets):
    """Every sum of at most `cards` cards, by listing the multisets of card values."""
    deck = full_deck(sets)
    avail = Counter()
    for code in range(len(deck)):
        avail[card_value(code, wild)] += int(deck[code])
    out = {0}
    for k in range(1, cards + 1):
        for combo in combinations_with_replacement(sorted(avail), k):
            if all(n <= avail[v] for v, n in Counter(combo).items()):
                out.add(sum(combo))
    return out


@pytest.mark.parametrize("cards, wild, sets", [(3, 3, 1), (4, 4, 1), (5, 5, 1), (6, 6, 2), (4, 4, 2)])
def test_possible_points_match_brute_force(cards, wild, sets):
    assert possible_points(cards, wild, sets) == _brute_possible(cards, wild, sets)


def test_possible_points_examples():
    r1 = possible_points(3, 3)
    assert {1, 2, 3}.isdisjoint(r1) and {0, 4, 20, 150}.issubset(r1) and max(r1) == 150  # 3 jokers
    assert 4 not in possible_points(4, 4) and 5 not in possible_points(5, 5) and 6 in possible_points(6, 6)
    assert max(possible_points(3, 3, 2)) == 150 and max(possible_points(4, 4, 1)) == 200  # 4 of the 6 jokers


def test_keeper_refuses_impossible_points_with_the_reason():
    k = ScoreKeeper(["Ann", "Bob"])
    for bad in (1, 2, 3, "3"):
        with pytest.raises(ScoreEntryError, match=r"cannot be scored in round 1: no 3 cards or fewer count it"
                                                  r" \(3\.\.10 at face value, J 11, Q 12, K 13, 3s 20 as wilds"):
            k.enter(bad)
    assert k.enter("3H").points == 20     # typed cards keep their face value
    k.enter(0)
    with pytest.raises(ScoreEntryError, match="4 points cannot be scored in round 2"):
        k.enter(4)
    k.enter(3)
    assert k.round_scores(2) == {"Ann": 3}


def test_a_saved_file_with_impossible_points_is_one_line_naming_the_entry(tmp_path, capsys):
    # a file saved before the check, with Bob's 2 points in round 1
    data = {**ScoreKeeper(["Ann", "Bob"]).to_dict(),
            "entries": [{"round": 1, "player": "Ann", "points": 0}, {"round": 1, "player": "Bob", "points": 2}]}
    for field in ("totals", "winners", "finished"):
        data.pop(field, None)
    path = tmp_path / "old.json"
    path.write_text(__import__("json").dumps(data))
    with pytest.raises(RecordError, match="entry 2: 2 points cannot be scored in round 1"):
        ScoreKeeper.load(path)
    code, out, err = run_cli(capsys, "five-crowns", "keeper", "--resume", str(path))
    assert code == 2 and err.count("\n") == 1 and "entry 2: 2 points cannot be scored in round 1" in err




def test_interactive_notes_melding_cards_and_a_round_without_zero(tmp_path):
    text = keeper_session(["3H 3H JK", "7H 8H 9H", "5S", "q"], names=["Ann", "Bob", "Cy"], save=tmp_path / "k.json")
    assert text.count(MELD_NOTE) == 2          # three wilds, a run; 5S alone does not meld
    assert "= 90 (3H 20 + 3H 20 + JK 50)" in text and "= 24 (7H 7 + 8H 8 + 9H 9)" in text
    assert ("Warning: nobody scored 0 in round 1, but someone always goes out (RULES.md); type u to undo"
            " if a score is wrong") in text
    text = keeper_session(["0", "5S 9H", "q"], names=["Ann", "Bob"], save=tmp_path / "k2.json")
    assert MELD_NOTE not in text and "nobody scored 0" not in text
