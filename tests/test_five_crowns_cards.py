"""Five Crowns cards: notation, copies per set, card values (RULES.md, Five Crowns)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crowns_solver.errors import CardError, DuplicateCardError, HandSizeError, WildRankError
from crowns_solver.five_crowns import card_name, card_value, hand_value, parse_card, parse_hand, wild_rank_for_round
from crowns_solver.five_crowns.cards import JOKER, full_deck, rank_of, suit_of


def test_notation_round_trip():
    for code in range(56):
        assert parse_card(card_name(code)) == code
    assert parse_card("TR") == parse_card("10R") == parse_card(" 10r ")
    assert card_name(parse_card("qh")) == "QH"
    assert parse_card("JK") == JOKER and rank_of(JOKER) == 0 and suit_of(JOKER) == -1
    assert rank_of(parse_card("JS")) == 11 and suit_of(parse_card("JS")) == 0


def test_deck_sizes():
    assert full_deck(1).sum() == 116 and full_deck(2).sum() == 232
    assert full_deck(1)[JOKER] == 6


def test_seed_value_example():
    # seeds/002: round 3 (5s wild), caught holding 5R 9H JK: 20 + 9 + 50 = 79
    assert hand_value(["5R", "9H", "JK"], wild_rank_for_round(3)) == 79


@pytest.mark.parametrize(
    "card, wild, value",
    [("3S", 4, 3), ("10H", 4, 10), ("JD", 4, 11), ("QC", 4, 12), ("KR", 4, 13), ("KR", 13, 20), ("4S", 4, 20), ("JK", 7, 50)],
)
def test_card_values(card, wild, value):
    assert card_value(card, wild) == value


@pytest.mark.parametrize("bad", ["2H", "AS", "5X", "1", "", "11H", "JKK", 56, -1, None, 2.0])
def test_bad_cards(bad):
    with pytest.raises(CardError, match="not a Five Crowns card"):
        parse_card(bad)


def test_copies():
    assert len(parse_hand(["QH", "QH"])) == 2
    with pytest.raises(DuplicateCardError, match="3 copies of QH, but 1 set holds only 2"):
        parse_hand(["QH", "QH", "QH"])
    assert len(parse_hand(["QH"] * 4, sets=2)) == 4
    assert len(parse_hand(["JK"] * 6)) == 6
    with pytest.raises(DuplicateCardError, match="7 copies of JK"):
        parse_hand(["JK"] * 7)


def test_hand_size():
    with pytest.raises(HandSizeError, match="has 2 cards, expected 3"):
        parse_hand(["3S", "4S"], size=3)
    with pytest.raises(HandSizeError, match="expected 3 to 14"):
        parse_hand([], size=(3, 14))


@pytest.mark.parametrize("bad", [0, 12, -1, True, "3"])
def test_bad_rounds(bad):
    with pytest.raises(WildRankError, match="round"):
        wild_rank_for_round(bad)


@pytest.mark.parametrize("bad", [2, 14, 0, "2", "X", "JK", 5.0])   # "5" is read as 5 since session 23 (as --wild)
def test_bad_wild_rank(bad):
    with pytest.raises(WildRankError, match="wild rank"):
        card_value("5S", bad)


@given(st.text(max_size=5))
def test_parse_card_raises_only_card_error(text):
    try:
        code = parse_card(text)
    except CardError:
        return
    assert 0 <= code < 56
