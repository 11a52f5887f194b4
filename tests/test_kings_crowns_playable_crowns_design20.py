"""King's Crowns decks whose Crowns can never be played (session-20 design probe): a
coloured Crown needs the player's Gift of its colour and a 15 or 20 needs Time with God
or Holy Spirit on the play stack (RULES.md, King's Crowns, "Legal plays").  A custom deck
without those cards was accepted and every game ran to the turn cap."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from crowns_solver.errors import RulesError
from crowns_solver.kings_crowns import DEFAULT_DECK, Deck, Game, Rules, simulate


def test_the_default_deck_can_play_every_crown():
    assert DEFAULT_DECK.playable_crown_points() == DEFAULT_DECK.crown_points() == 520
    assert DEFAULT_DECK.unplayable_crowns() == []


@pytest.mark.parametrize("mapping, playable, reasons", [
    ({"salvation": 9, "crown-black-20": 5}, 0, ["crowns of 15 and 20 need a time-with-god or holy-spirit"]),
    ({"salvation": 9, "holy-spirit": 1, "crown-black-20": 5}, 100, []),
    ({"salvation": 9, "crown-black-5": 2, "crown-black-10": 1, "crown-black-15": 3}, 20,
     ["crowns of 15 and 20 need a time-with-god or holy-spirit"]),
    ({"salvation": 9, "time-with-god": 1, "gift-red": 1, "crown-red-15": 2, "crown-blue-10": 3, "crown-green-5": 1},
     30, ["crown-blue-* need a gift-blue", "crown-green-* need a gift-green"]),
])
def test_playable_crown_points_by_hand(mapping, playable, reasons):
    deck = Deck.from_mapping(mapping, "d")
    assert deck.playable_crown_points() == playable
    assert deck.unplayable_crowns() == reasons


def test_a_game_that_can_never_be_won_is_refused_and_was_all_stalemates():
    # 200 points, none playable: before session 20 every game ran to the turn cap
    deck = Deck.from_mapping({"salvation": 12, "crown-black-20": 10}, "high")
    with pytest.raises(RulesError, match=r"only 0 of the 200 crown points of the deck 'high' can ever be played"
                                         r" \(crowns of 15 and 20 need a time-with-god or holy-spirit, which it lacks\)"):
        simulate(4, players=2, rules=Rules(deck=deck, target=20), workers=1)
    with pytest.raises(RulesError, match="can ever be played"):
        Game(2, Rules(deck=deck, target=1), seed=0)
    playable = Deck.from_mapping({"salvation": 12, "time-with-god": 3, "crown-black-20": 10}, "high2")
    df = simulate(4, players=2, rules=Rules(deck=playable, target=20), workers=1)
    assert (df["winner"] >= 0).all()   # with Time with God in the deck they are won


def test_a_target_within_the_playable_points_is_allowed():
    deck = Deck.from_mapping({"salvation": 12, "crown-black-10": 3, "crown-black-20": 4}, "mixed")
    Rules(deck=deck, target=30).check(2)      # the three 10s
    with pytest.raises(RulesError, match="only 30 of the 110 crown points"):
        Rules(deck=deck, target=31).check(2)


def test_the_deck_command_says_which_crowns_cannot_be_played(tmp_path, capsys):
    path = tmp_path / "nogifts.toml"
    path.write_text('name = "nogifts"\n[deck]\nsalvation = 12\ntime-with-god = 6\nholy-spirit = 2\n'
                    'crown-red-20 = 4\ncrown-blue-15 = 4\ncrown-black-10 = 3\n', encoding="utf-8")
    code, out, err = run_cli(capsys, "kings-crowns", "deck", str(path))
    assert code == 0, err
    assert out.splitlines()[:4] == [
        "deck nogifts: 31 cards, 170 crown points",
        "  only 30 of them can ever be played: crown-red-* need a gift-red; crown-blue-* need a gift-blue,"
        " which the deck lacks",
        "  deals games of 2 to 5 players",
        "  its 30 playable crown points are below the rules' target (100): kings-crowns simulate and Game refuse it"
        " unless the target is 30 or less (--target)"]
    code, out, err = run_cli(capsys, "kings-crowns", "deck", str(path), "--json")
    got = json.loads(out)
    assert got["crown_points"] == 170 and got["playable_crown_points"] == 30 and got["rules_target_players"] == []
    code, out, err = run_cli(capsys, "kings-crowns", "simulate", "--games", "2", "--deck", str(path), "--workers", "1")
    assert code == 2 and not out and err.count("\n") == 1 and "only 30 of the 170 crown points" in err
