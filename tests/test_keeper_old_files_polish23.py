"""A keeper file saved before session 23 may hold a score that no hand of its round makes
(the keeper did not check it then: 12 in round 1).  Refusing such a file on loading would
lock the table out of its own game, so it loads, the entry is kept as saved and listed,
and the terminal keeper says so on resume; typing such a score is still refused."""

from __future__ import annotations

import json

import pytest

from crowns_solver.errors import RecordError, ScoreEntryError
from crowns_solver.five_crowns.keeper import ScoreKeeper
from conftest import keeper_session


def old_file(points_b: int) -> dict:
    k = ScoreKeeper(["Ann", "Bob"])
    k.enter(0)
    k.enter(13)
    d = k.to_dict()
    d["entries"][1]["points"] = points_b
    del d["totals"]
    return d


def test_an_old_file_with_a_score_no_hand_makes_loads_and_lists_it():
    k = ScoreKeeper.from_dict(old_file(12))
    assert k.unlikely_entries == ["Bob's 12 points in round 1"]
    assert k.totals() == {"Ann": 0, "Bob": 12}
    assert ScoreKeeper.from_dict(old_file(13)).unlikely_entries == []


def test_typing_that_score_is_still_refused():
    k = ScoreKeeper.from_dict(old_file(12))
    with pytest.raises(ScoreEntryError, match="12 points cannot be scored in round 1"):
        k.correct(1, "Bob", 12)
    with pytest.raises(ScoreEntryError, match="cannot be scored in round 2"):
        k.enter(15)


def test_points_no_cards_of_the_round_count_are_still_refused_in_a_file():
    with pytest.raises(RecordError, match="entry 2: 2 points cannot be scored in round 1"):
        ScoreKeeper.from_dict(old_file(2))


def test_the_terminal_keeper_says_so_on_resume(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(old_file(12)))
    said = keeper_session([], resume=path)
    assert ("Note: no hand of its round scores Bob's 12 points in round 1 by the rules (saved before the keeper"
            " checked this); kept as saved: type c to correct.") in said.splitlines()
