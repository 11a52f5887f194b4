"""Five Crowns score keeper: correcting a score entered rounds ago (ScoreKeeper.correct, the
interactive ``c`` command), without undoing the entries after it."""

from __future__ import annotations

import json

import pytest
from test_five_crowns_keeper import Script, _tied_keeper

from crowns_solver.errors import PlayerNameError, ScoreEntryError
from crowns_solver.five_crowns.keeper import ScoreKeeper, interactive


def _three_rounds():
    k = ScoreKeeper(["Ann", "Bob", "Cy"])
    k.enter_round([0, 13, 30])          # round 1: 3 cards, 3s wild (kept: 0, or 13 and more)
    k.enter_round(["5R 9H", 0, 8])      # round 2: 4 cards, 4s wild
    k.enter_round([0, 40, 11])          # round 3
    k.enter(5)                          # round 4, Ann only
    return k


def test_a_score_rounds_ago_is_corrected_and_everything_after_it_stays():
    k = _three_rounds()
    later = k.entries[3:]
    entry = k.correct(1, "bob", 21)
    assert (entry.round, entry.player, entry.points, entry.cards) == (1, "Bob", 21, None)
    assert k.round_scores(1) == {"Ann": 0, "Bob": 21, "Cy": 30}
    assert k.totals() == {"Ann": 19, "Bob": 61, "Cy": 49}   # Ann 0+14+0+5, Bob 21+0+40, Cy 30+8+11
    assert k.entries[3:] == later and (k.round, k.next_player) == (4, "Bob")


def test_a_correction_by_cards_is_valued_with_that_rounds_wild_rank():
    k = _three_rounds()
    # round 2 deals 4 cards and 4s are wild: 4S counts 20, QH 12 (RULES.md, Five Crowns)
    entry = k.correct(2, 2, "4S QH")
    assert (entry.player, entry.points, entry.cards) == ("Cy", 32, ("4S", "QH"))
    assert k.round_scores(2)["Cy"] == 32


@pytest.mark.parametrize("args, error, message", [
    ((4, "Cy", 3), ScoreEntryError, "Cy has no score in round 4 yet"),
    ((9, "Ann", 3), ScoreEntryError, "Ann has no score in round 9 yet"),
    ((1, "Zed", 3), PlayerNameError, "not a player: 'Zed'"),
    ((1, "Ann", -2), ScoreEntryError, "points cannot be negative"),
    ((1, "Ann", "4S 5S 6S 7S"), ScoreEntryError, "round 1 deals 3 cards"),
    ((1.0, "Ann", 3), ScoreEntryError, "round must be a round number, got 1.0"),
    ((2, "Bob", "9H 9H"), ScoreEntryError, "3 copies of 9H typed in round 2"),   # Ann holds a 9H: 1 set holds 2
])
def test_bad_corrections_change_nothing(args, error, message):
    k = _three_rounds()
    before = k.to_dict()
    with pytest.raises(error, match=message):
        k.correct(*args)
    assert k.to_dict() == before


def test_a_correction_that_changes_who_plays_the_tiebreak_is_refused_until_it_is_undone():
    k = _tied_keeper(ties="tiebreak")
    k.enter_round([24, 10])                 # tb1: Bob wins
    assert k.finished and k.winners() == ["Bob"]
    with pytest.raises(ScoreEntryError, match="changes who plays the tiebreak rounds.*undo those first"):
        k.correct(5, "Ann", 5)              # Ann 65 alone: no tiebreak at all
    assert k.totals()["Ann"] == 66 and k.finished
    k.correct(12, "Bob", 30)                # a tiebreak score: now Ann wins tb1
    assert k.finished and k.winners() == ["Ann"]
    k.correct(12, "Ann", 30)                # tied again: tb2 is open
    assert not k.finished and k.round == 13 and k.tiebreak_players() == ("Ann", "Bob")
    k.undo(); k.undo()                      # tb1 gone: now round 5 can be corrected
    k.correct(5, "Ann", 5)
    assert k.finished and k.winners() == ["Ann"]


def test_a_correction_can_open_a_tiebreak_after_the_game_looked_finished():
    k = ScoreKeeper(["Ann", "Bob"], ties="tiebreak")
    for scores in [[0, 0], [12, 12]] + [[6, 6]] * 8 + [[6, 7]]:   # no 6 in round 1 (RULES.md)
        k.enter_round(scores)
    assert k.finished and k.winners() == ["Ann"]   # 66 against 67
    k.correct(11, "Bob", 6)                 # 66 each
    assert not k.finished and k.tiebreak_players() == ("Ann", "Bob")


def test_fields_added_by_hand_to_the_entry_are_kept(tmp_path):
    k = _three_rounds()
    data = k.to_dict()
    data["entries"][1]["note"] = "Bob went out second"
    k = ScoreKeeper.from_dict(data)
    k.correct(1, "Bob", 20)
    assert k.to_dict()["entries"][1] == {"round": 1, "player": "Bob", "points": 20, "note": "Bob went out second"}


def test_the_c_command_asks_round_player_and_score_and_saves(tmp_path):
    path = tmp_path / "g.json"
    s = Script(["2", "Ann", "Bob", "0", "13", "7", "0",
                "c", "1", "bob", "QH 3S",      # round 1: 3s wild, QH 12 + 3S 20
                "c", "3", "",                  # round 3 not entered yet (asked again), cancelled
                "c", "x", "",                  # not a round (asked again), cancelled
                "c", "",                       # cancelled
                "q"])
    keeper = interactive(read=s.read, write=s.write, save=path)
    assert "Corrected: Bob has 32 points in round 1: QH 12 + 3S 20 (was 13). Totals: Ann 7, Bob 32" in s.text
    assert "Round 3 has no score yet, so there is nothing to correct in it (rounds 1-2 can be corrected)" in s.text
    assert "Not a round number: 'x'. Type a round (1-2), or nothing to cancel." in s.text
    assert keeper.round_scores(1) == {"Ann": 0, "Bob": 32}
    saved = json.loads(path.read_text())
    assert saved["entries"][1] == {"round": 1, "player": "Bob", "points": 32, "cards": ["QH", "3S"]}
    assert saved["totals"] == {"Ann": 7, "Bob": 32}
