"""Five Crowns replay: every field a record shows is checked (design probe, session 18).

A hand-edited record whose end-of-round hands, turn order or last-turn flags disagree
with the play used to replay as "every step and score agrees with the record"."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys

import pytest

from crowns_solver.errors import RecordError
from crowns_solver.five_crowns.game import GameRules, play_game, replay

RULES = GameRules(players=3, rounds=4)


@pytest.fixture(scope="module")
def record():
    return play_game(["greedy", "advisor", "tracker"], seed=2, rules=RULES).record


def edited(record, change):
    rec = copy.deepcopy(record)
    change(rec)
    return rec


def test_the_unedited_record_replays(record):
    # the checks below must not refuse a record the engine wrote, its own field order
    # and card spelling included
    assert replay(copy.deepcopy(record)).totals == tuple(record["totals"])


def test_a_changed_card_in_an_end_of_round_hand_is_refused(record):
    rnd = record["rounds"][1]
    seat = str(rnd["seats"][0])
    held = rnd["hands"][seat]
    new = "JK" if "JK" not in held else "KS"

    def change(rec):
        rec["rounds"][1]["hands"][seat][0] = new

    with pytest.raises(RecordError, match=rf"round 2: seat {seat} ends the round holding .*"
                                          rf"the record says .*{new}"):
        replay(edited(record, change))


def test_a_card_missing_from_an_end_of_round_hand_is_refused(record):
    seat = str(record["rounds"][2]["seats"][1])

    def change(rec):
        rec["rounds"][2]["hands"][seat].pop()

    with pytest.raises(RecordError, match=rf"round 3: seat {seat} ends the round holding"):
        replay(edited(record, change))


def test_a_hand_for_a_seat_that_did_not_play_is_refused(record):
    def change(rec):
        rec["rounds"][0]["hands"]["7"] = ["5S"]

    with pytest.raises(RecordError, match=r"round 1: 'hands' names seats 0, 1, 2, 7; the round's seats are 0, 1, 2"):
        replay(edited(record, change))


def test_the_hands_may_be_listed_in_any_order_and_spelling(record):
    # the same cards in another order, 10 written T: the same hand
    def change(rec):
        for hand in rec["rounds"][3]["hands"].values():
            hand.reverse()
            hand[:] = [c.replace("10", "T") for c in hand]

    assert replay(edited(record, change)).totals == tuple(record["totals"])


def test_a_changed_turn_order_is_refused(record):
    def change(rec):
        rec["rounds"][1]["seats"] = list(reversed(rec["rounds"][1]["seats"]))

    order = record["rounds"][1]["seats"]
    message = f"round entry 2: seats {list(reversed(order))} but the rules and play give {order}"
    with pytest.raises(RecordError, match=re.escape(message)):
        replay(edited(record, change))


def test_a_changed_last_turn_flag_is_refused(record):
    turns = record["rounds"][2]["turns"]
    last = len(turns) - 1
    assert turns[last].get("final") is True

    def change(rec):
        del rec["rounds"][2]["turns"][last]["final"]

    with pytest.raises(RecordError, match=rf"round 3 turn {last + 1}: 'final' disagrees with the play"):
        replay(edited(record, change))

    first = next(i for i, t in enumerate(turns) if not t.get("final") and not t.get("out"))

    def change_first(rec):
        rec["rounds"][2]["turns"][first]["final"] = True

    with pytest.raises(RecordError, match=rf"round 3 turn {first + 1}: 'final' disagrees with the play"):
        replay(edited(record, change_first))


def test_a_reshuffle_where_none_happened_is_refused(record):
    def change(rec):
        rec["rounds"][0]["turns"][0]["reshuffle"] = ["5S", "6S"]

    with pytest.raises(RecordError, match=r"round 1 turn 1: the record has a reshuffle, but none happened at"
                                          r" this turn"):
        replay(edited(record, change))


def test_the_command_names_the_changed_hand(tmp_path, record):
    rnd = record["rounds"][1]
    seat = str(rnd["seats"][0])
    rec = copy.deepcopy(record)
    rec["rounds"][1]["hands"][seat][0] = "JK" if "JK" not in rnd["hands"][seat] else "KS"
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(rec))
    proc = subprocess.run([sys.executable, "-m", "crowns_solver", "five-crowns", "replay", str(path)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"crowns: error: record: round 2: seat {seat} ends the round holding")
